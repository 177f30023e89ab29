"""Board-core benchmark (issue 3 §8): per lift, the time from the raw frame that
completes it to the scene with the targets; per placement, the time to its acceptance;
heap per tick.  Runs tools/upy_bench_board.py (seeded games on a virtual clock) under
CPython, the `micropython` Unix port and, for the 32-bit heap figures, the WebAssembly
port; prints the figures and the Pico estimates quoted in docs/performance.md
("Board core (issue 3)").
"""
import os
import shutil
import subprocess
import sys

from samsara.config import Config

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.dirname(sys.executable)
BODY = os.path.join(ROOT, "tools", "upy_bench_board.py")
FIRMWARE = os.path.join(ROOT, "firmware")
PICO_FACTOR_INT = 300    # docs: Pico vs Unix port, integer and bit loops
PICO_FACTOR_ALLOC = 140  # docs: code that builds tuples and sets
CHATTER_MS = 2           # reed chatter after a change (issue 3 §4)
LED_WRITE_MS = 2.4       # 80 WS2812 x 24 bits x 1.25 us on the wire
LIFT_TARGET_MS = 20
PLACE_EXTRA_MS = 20


def run_vm(cmd, env=None, timeout=1800):
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    if r.returncode != 0:
        return None, (r.stderr or r.stdout).strip()[-400:]
    res = {}
    for line in r.stdout.splitlines():
        parts = line.split()
        if parts:
            res[parts[0]] = tuple(int(x) for x in parts[1:])
    return res, None


def _main_scan_ms():
    # SCAN_MS of firmware/mainboot.py (the Pico's loop period), or None
    import re
    try:
        with open(os.path.join(FIRMWARE, "mainboot.py")) as f:
            m = re.search(r"^(?:PICO_)?SCAN_MS\s*=\s*(\d+)", f.read(), re.M)
    except OSError:
        return None
    return int(m.group(1)) if m else None


def main(games=3, reps=5):
    cfg = Config()
    results = {}
    errors = {}
    env = dict(os.environ, PYTHONPATH=FIRMWARE)
    results["CPython"], errors["CPython"] = run_vm(
        [sys.executable, BODY, str(games), str(reps)], env)
    upy = os.path.join(BIN, "micropython")
    env = dict(os.environ, MICROPYPATH=FIRMWARE)
    results["micropython Unix"], errors["micropython Unix"] = run_vm(
        [upy, "-X", "heapsize=4M", BODY, str(games), str(reps), "time"], env)
    heap, err = run_vm([upy, "-X", "heapsize=4M", BODY, "1", "1", "heap"], env)
    if results["micropython Unix"] and heap:
        results["micropython Unix"]["heap"] = heap["heap"]
    wasm = os.path.join(ROOT, "tools", "upy32", "run.mjs")
    if os.path.exists(wasm) and shutil.which("node"):
        results["micropython WASM 32-bit"], errors["micropython WASM 32-bit"] = run_vm(
            ["node", wasm, "--timeout", "1500", "--path", FIRMWARE, BODY, "1", "1", "heap"])
    else:
        errors["micropython WASM 32-bit"] = "WebAssembly port not installed (make test-wasm)"

    print("Seeded games on a virtual clock: scan %d ms, lift settle %d ms, place settle %d ms"
          % (cfg.scan_ms, cfg.settle_lift_ms, cfg.settle_place_ms))
    print("virtual ms: first scan that sees the raw change -> tick that commits it;")
    print("cpu us: that committing tick (debounce, controller, scene, power limiter),")
    print("per-event minimum over the repeated runs (the games are seeded, so each run")
    print("replays the same events; the minimum removes a busy host's noise).\n")
    print("%-25s %-9s %6s %8s %8s %8s" % ("VM", "measure", "n", "median", "p99", "max"))
    for vm, res in results.items():
        if not res:
            print("%-25s (failed: %s)" % (vm, errors[vm]))
            continue
        for name in ("lift_ms", "lift_us", "place_ms", "place_us", "idle_us"):
            if name in res and not vm.startswith("micropython WASM"):
                n, med, p99, mx = res[name]
                print("%-25s %-9s %6d %8d %8d %8d" % (vm, name, n, med, p99, mx))
        if "heap" in res and res["heap"][0] >= 0:
            print("%-25s heap per tick: %d B with no sensor change, at most %d B when"
                  " something is committed" % (vm, res["heap"][0], res["heap"][1]))
    unix = results.get("micropython Unix")
    if unix:
        print("\nPico estimates (Unix-port cpu x %d for bit loops .. x %d for tuple-building"
              " code; LED chain write %.1f ms):" % (PICO_FACTOR_INT, PICO_FACTOR_ALLOC,
                                                   LED_WRITE_MS))
        _n, lmed, lp99, lmax = unix["lift_us"]
        _n, pmed, pp99, pmax = unix["place_us"]
        worst_lift = CHATTER_MS + cfg.scan_ms + cfg.settle_lift_ms
        lo = worst_lift + lmax * PICO_FACTOR_ALLOC / 1000.0 + LED_WRITE_MS
        hi = worst_lift + lmax * PICO_FACTOR_INT / 1000.0 + LED_WRITE_MS
        print("  lift -> targets lit: chatter %d + scan %d + settle %d = %d ms, + cpu max"
              " %.1f-%.1f ms + LEDs = %.1f-%.1f ms (target %d ms: %s)" % (
                  CHATTER_MS, cfg.scan_ms, cfg.settle_lift_ms, worst_lift,
                  lmax * PICO_FACTOR_ALLOC / 1000.0, lmax * PICO_FACTOR_INT / 1000.0,
                  lo, hi, LIFT_TARGET_MS,
                  "met" if hi <= LIFT_TARGET_MS else
                  ("met at x140 only" if lo <= LIFT_TARGET_MS else "MISSED")))
        # accepted = the end of the committing tick (the sub event); the LEDs follow
        extra_lo = CHATTER_MS + cfg.scan_ms + pmax * PICO_FACTOR_ALLOC / 1000.0
        extra_hi = CHATTER_MS + cfg.scan_ms + pmax * PICO_FACTOR_INT / 1000.0
        print("  placement -> accepted: settle %d ms + chatter %d + scan %d + cpu max"
              " %.1f-%.1f ms = settle + %.1f-%.1f ms (target settle + %d ms: %s)" % (
                  cfg.settle_place_ms, CHATTER_MS, cfg.scan_ms,
                  pmax * PICO_FACTOR_ALLOC / 1000.0, pmax * PICO_FACTOR_INT / 1000.0,
                  extra_lo, extra_hi, PLACE_EXTRA_MS,
                  "met" if extra_hi <= PLACE_EXTRA_MS else
                  ("met at x140 only" if extra_lo <= PLACE_EXTRA_MS else "MISSED")))
        print("  at the median tick: lift %.1f-%.1f ms, placement settle + %.1f-%.1f ms" % (
            worst_lift + lmed * PICO_FACTOR_ALLOC / 1000.0 + LED_WRITE_MS,
            worst_lift + lmed * PICO_FACTOR_INT / 1000.0 + LED_WRITE_MS,
            CHATTER_MS + cfg.scan_ms + pmed * PICO_FACTOR_ALLOC / 1000.0,
            CHATTER_MS + cfg.scan_ms + pmed * PICO_FACTOR_INT / 1000.0))
        main_scan = _main_scan_ms()
        if main_scan and main_scan != cfg.scan_ms:
            # a change is seen up to one scan late and commits at the first scan after
            # its settle time: worst case chatter + scan + settle rounded up to scans
            lw = CHATTER_MS + main_scan + -(-cfg.settle_lift_ms // main_scan) * main_scan
            pw = CHATTER_MS + main_scan
            print("  at main.py's scan period (%d ms): lift -> targets lit %d ms + cpu max"
                  " + LEDs = %.1f-%.1f ms; placement -> accepted settle + %.1f-%.1f ms" % (
                      main_scan, lw,
                      lw + lmax * PICO_FACTOR_ALLOC / 1000.0 + LED_WRITE_MS,
                      lw + lmax * PICO_FACTOR_INT / 1000.0 + LED_WRITE_MS,
                      pw + pmax * PICO_FACTOR_ALLOC / 1000.0,
                      pw + pmax * PICO_FACTOR_INT / 1000.0))
        _n, imed, ip99, _imx = unix["idle_us"]
        print("  idle tick: median %.1f-%.1f ms, p99 %.1f-%.1f ms of the %d ms scan period" % (
            imed * PICO_FACTOR_ALLOC / 1000.0, imed * PICO_FACTOR_INT / 1000.0,
            ip99 * PICO_FACTOR_ALLOC / 1000.0, ip99 * PICO_FACTOR_INT / 1000.0, cfg.scan_ms))
    return 0


if __name__ == "__main__":
    main()
