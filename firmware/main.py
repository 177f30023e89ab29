"""Samsara board firmware: the entry point MicroPython runs at power-up (docs/firmware.md).

Its one job is to start the firmware: the boot and the scan loop are frozen into the
firmware image (mainboot, mainloop).  `import main; main.main()` restarts the loop from
the REPL."""

from mainboot import main  # noqa: F401  (main.main for the REPL and deploy)

if __name__ == "__main__":
    main()
