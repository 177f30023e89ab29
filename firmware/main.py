"""Samsara board firmware: the entry point MicroPython runs at power-up (docs/firmware.md).

Its one job is to start the firmware: the boot, the seams and the scan loop are in the
compiled module `mainloop` (main.py ships as source and would be compiled on the Pico at
every boot, so it stays this small).  `import main; main.main()` restarts the loop from
the REPL."""

from mainloop import main, run  # noqa: F401  (main.main / main.run for the REPL and deploy)

if __name__ == "__main__":
    main()
