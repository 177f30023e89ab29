"""The firmware's entry (docs/firmware.md "Boot sequence"): what main.py runs for any
game's board, Samsara's (mainboot.main) or another's (samas.boot.main,
schaska.boot.main): safe mode first, then the boot and its scan loop; a Ctrl-C hands
the port to the REPL.

    return run(boot)       # boot() -> mainloop.Loop
"""

from board import hw as hwmod


def run(boot, log=print):
    """Safe mode (BOOTSEL held: `log` says so and nothing runs, None is returned),
    else `boot()` (a callable returning the mainloop.Loop) and the loop's run(): its
    Stats (a loop with a limit).  A KeyboardInterrupt (Ctrl-C from the host: the REPL
    takes the port, docs/protocol.md) closes the loop and is raised again; the watchdog
    cannot be stopped, so a timer keeps feeding it meanwhile."""
    if hwmod.safe_mode_requested():
        log("safe mode: BOOTSEL held, main loop not started")
        return None
    loop = boot()
    try:
        return loop.run()
    except KeyboardInterrupt:
        loop.hw.watchdog.feed_in_background()
        loop.close()
        raise
