"""Which calls on the idle path put their call frame on the heap (or allocate at all).

MicroPython keeps a call's state (locals + value stack) on the heap when it is larger
than 11 machine words and frees it on return: under heap_lock that falls back to the C
stack quietly, so only a garbage probe sees it (docs/performance.md "Idle loop").
Probe: leave known garbage on the heap, lower gc.threshold, call the piece many times,
and see whether the garbage was collected.

    MICROPYPATH=firmware:tests/upy:tests/fakes:host .venv/bin/micropython tools/upy_frame_probe.py

Prints one line per piece: `PROBE name collected|clean`.  Runs on the Unix port with the
fakes of tests/fakes (link on, as on the Pico)."""
import gc
import sys

# tools/ (this script's folder) holds a bench.py of its own: the fakes' one must win
sys.path[:] = [p for p in sys.path if not p.endswith("tools")]
import simgame  # noqa: E402


def collected(fn, n=300):
    """True when n calls of fn() made the VM collect the garbage left on the heap."""
    gc.collect()
    gc.threshold(512)
    g = bytearray(4000)
    g = None
    free0 = gc.mem_free()
    for _ in range(n):
        fn()
    free1 = gc.mem_free()
    gc.threshold(-1)
    return free1 > free0 + 2000


def main():
    res = simgame.boot(seed=3, link=True)
    try:
        loop = res.loop
        clock = res.rig.clock
        board = res.board
        hw = res.hw
        frame = loop.frame
        for _ in range(200):
            clock.now += 5
            loop.once(clock.ticks_ms())
        link = loop.link

        def once():
            clock.now += 5
            loop.once(clock.now)

        def tick():
            clock.now += 5
            board.tick(clock.now, frame)

        def deb():
            clock.now += 5
            board.debounce.step(clock.now, frame)

        def buttons():
            clock.now += 5
            hw.buttons.poll(clock.now)

        def once_c_scan():
            # the fake SPI is Python code (C on the Pico): scan with a builtin instead
            clock.now += 5
            real = loop._scan
            loop._scan = len
            loop.once(clock.now)
            loop._scan = real

        # (no tuples or other objects built in the probes themselves)
        pieces = [
            ("nothing", lambda: None),
            ("Loop.once", once),
            ("Loop.once, builtin scan", once_c_scan),
            ("scanner.scan", lambda: hw.scanner.scan(frame)),
            ("scanner.read_raw", lambda: hw.scanner.read_raw()),
            ("fake spi.readinto", lambda: hw.scanner._spi.readinto(hw.scanner._raw, 0)),
            ("Board.tick", tick),
            ("Debounce.step", deb),
            ("buttons.poll", buttons),
            ("board.poll_event", lambda: board.poll_event()),
            ("Loop.serve", lambda: loop.serve(clock.now)),
            ("Loop.drain", lambda: loop.drain(clock.now)),
            ("Loop._answer", lambda: loop._answer(clock.now, 0)),
            ("pacing.end_overdue", lambda: board.pacing.end_overdue(clock.now, len)),
            ("watchdog.feed", lambda: hw.watchdog.feed()),
        ]
        if link is not None:
            pieces += [
                ("HostLink.poll", lambda: link.poll(clock.now)),
                ("HostLink._read", lambda: link._read()),
                ("HostLink._flush", lambda: link._flush()),
                ("stream.read_into", lambda: link.stream.read_into(link.rx, 0, 1)),
            ]
        for name, fn in pieces:
            print("PROBE", name, "collected" if collected(fn) else "clean")
    finally:
        res.restore()


main()
