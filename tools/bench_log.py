"""Game log and USB link benchmark (issue 5): append time per record, the boot scan of
a full log area, whole-flash verification, and the link's poll (idle, a command line,
a log chunk); under CPython and the `micropython` Unix port, with Pico estimates
(docs/performance.md "Game log and USB link (issue 5)").

The measuring part (measure()) runs unchanged on both VMs: `python -m tools.bench_log`
runs it in-process, then as `micropython tools/bench_log.py --vm` with
MICROPYPATH=firmware:tests/upy, and prints one table.
"""
import json
import os
import sys
import time

try:
    _ticks_us = time.ticks_us
    _diff = time.ticks_diff

    def _now_us():
        return _ticks_us()
except AttributeError:  # CPython
    def _now_us():
        return int(time.perf_counter() * 1e6)

    def _diff(a, b):
        return a - b

PICO_FACTOR_INT = 300
PICO_FACTOR_ALLOC = 140


def _median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]


def _p99(xs):
    xs = sorted(xs)
    return xs[(len(xs) * 99) // 100]


def _typical_game(seed, turns=68):
    """Event dicts of a typical game: per turn a roll, two sub-moves, sometimes a goal
    with its reinsertion and score, and the turn record."""
    from samsara.rules.position import START_TEXT
    x = seed
    out = [{"ev": "game_start", "t": 0, "position": START_TEXT,
            "match": False}]
    for k in range(turns):
        x = (x * 1103515245 + 12345) & 0x3FFFFFFF
        d1 = 1 + (x >> 8) % 6
        d2 = 1 + (x >> 12) % 6
        t = 1000 * k
        out.append({"ev": "roll", "t": t, "dice": [d1, d2], "player": "AB"[k & 1], "source": "electronic"})
        out.append({"ev": "sub", "t": t + 300, "move": "%d:R%d-S%d" % (d1, 1 + k % 12, 13 + k % 12), "player": "A"})
        if (x >> 16) % 8 == 0:
            out.append({"ev": "goal", "t": t + 400, "goal": "GS", "player": "A", "score": "1-0", "ins": "S7"})
            out.append({"ev": "reinsert", "t": t + 500, "pos": "S7"})
            out.append({"ev": "score", "t": t + 600, "player": "A", "score": 1})
        out.append({"ev": "sub", "t": t + 700, "move": "%d:S%d-R%d" % (d2, 1 + k % 12, 13 + k % 12), "player": "A"})
        out.append({"ev": "turn", "t": t + 900, "turn": "%d%d %d:R1-S18 %d:S2-R17" % (d1, d2, d1, d2),
                    "player": "A", "position": "x" * 58})
    out.append({"ev": "game_over", "t": 99999, "winner": "A", "how": "centre", "score": "6-3",
                "points": [3, 0]})
    return out


def _worst_running_game(lg):
    """Fill the running game up to its reservation with the largest records."""
    for t in range(lg.max_turns):
        lg.log_event({"ev": "roll", "dice": [6, 6]})
        for i in range(30):
            lg.log_event({"ev": "repair", "reason": "a marble is missing on R12 and S7 " * 2})
            lg.log_event({"ev": "sub", "move": "6:S20-GS*S12"})
        lg.log_event({"ev": "turn", "turn": "66 6:S20-GS*S12 6:S19-GS*S11"})


def measure(folder=None):
    """The figures as a dict (us, bytes); folder: a scratch folder for the os adapter."""
    from boardcore.storage import gamelog as G
    from boardcore.storage.osfs import OsFs
    from memfs import MemFs  # tests/fakes (test-only, outside the bundle)
    res = {}

    # (1) append per record: memory adapter (CPU cost) and a real folder (+ file sync)
    for name, fs in (("mem", MemFs()), ("os", OsFs(folder) if folder else None)):
        if fs is None:
            continue
        lg = G.GameLog(fs)
        lg.boot()
        times = []
        sizes = 0
        n = 0
        for g in range(3 if name == "mem" else 1):
            evs = _typical_game(g + 1)
            lg.start_game({"start": evs[0]["position"]})
            for ev in evs:
                a = _now_us()
                lg.log_event(ev)
                times.append(_diff(_now_us(), a))
            lg.end_game({"winner": "A"})
            n += 1
        for gid, size, st, crc in lg.list():
            sizes += size
        res["append_" + name] = (_median(times), _p99(times))
        res["game_bytes"] = sizes // n
        lg.close()

    # (2) boot scan of a full log area: typical finished games up to the capacity, and a
    # running game at its worst-case size; (3) verifying every byte (not done at boot)
    fs = MemFs()   # the scan's CPU cost; the Pico reads flash at several MB/s
    lg = G.GameLog(fs)
    lg.boot()
    games = 0
    while True:
        try:
            lg.start_game({"start": "x"})
        except G.LogFull:
            break
        for ev in _typical_game(games + 7):
            lg.log_event(ev)
        lg.end_game()
        games += 1
    # make room for one worst-case running game by pulling the oldest ones
    for gid, size, st, crc in lg.list()[:40]:
        lg.mark_pulled(gid, crc, size)
    lg.start_game({"start": "x"})
    _worst_running_game(lg)
    run_size = lg.info(lg.run_gid)[0]
    lg.close()
    total = 0
    names = fs.listdir()
    for n in names:
        total += fs.size(n)
    res["full_files"] = len(names)
    res["full_bytes"] = total
    res["running_bytes"] = run_size
    res["need"] = lg.need
    a = _now_us()
    lg2 = G.GameLog(fs)
    rp = lg2.boot()
    res["boot_scan"] = _diff(_now_us(), a)
    res["boot_records"] = rp.records
    a = _now_us()
    bad = 0
    for gid, size, st, crc in lg2.list():
        r = lg2.replay(gid)          # streams the file, checking every record's CRC
        if r.records == 0:
            bad += 1
    res["verify_all"] = _diff(_now_us(), a)
    res["verify_bad"] = bad

    # (3b) boot scan of a typical game in progress (half of a typical game's events)
    fs3 = MemFs()
    lg3 = G.GameLog(fs3)
    lg3.boot()
    lg3.start_game({"start": "x"})
    evs = _typical_game(11)
    for ev in evs[:len(evs) // 2]:
        lg3.log_event(ev)
    lg3.close()
    a = _now_us()
    lg3 = G.GameLog(fs3)
    lg3.boot()
    res["boot_typical"] = _diff(_now_us(), a)
    a = _now_us()
    steps = 0
    while lg3.crc_step():
        steps += 1
    res["crc_step"] = _diff(_now_us(), a) // (steps + 1)
    res["crc_steps"] = steps + 1
    lg3.close()

    # (4) the link: idle poll, a 256-byte command line, a log chunk
    from samsara.core import Board
    from samsara.config import Config
    from linkkit import FakeStream, services
    lg2.close()
    small = G.GameLog(MemFs())
    small.boot()
    small.start_game({"start": "x"})
    for ev in _typical_game(3):
        small.log_event(ev)
    small.end_game()
    board = Board(Config(dice="host"))
    stm = FakeStream()
    link = services(stm, board, small, None, "bench", 5, boot_ms=0)
    now = 10
    for _ in range(200):
        now += 5
        link.poll(now)
    stm.out[:] = b""
    idle = []
    for _ in range(2000):
        now += 5
        a = _now_us()
        link.poll(now)
        idle.append(_diff(_now_us(), a))
    res["poll_idle"] = (_median(idle), _p99(idle))
    line = b'{"cmd":"status","id":"' + b"x" * 16 + b'"}'
    line = line + b" " * (256 - len(line)) + b"\n"
    cmd = []
    chunk = []
    gid = small.list()[0][0]
    for k in range(200):
        stm.feed(line)
        now += 5
        a = _now_us()
        link.poll(now)
        cmd.append(_diff(_now_us(), a))
        for _ in range(6):
            now += 5
            link.poll(now)
        stm.out[:] = b""
        stm.feed(b'{"cmd":"log_get","game":%d,"offset":%d}\n' % (gid, (k * 192) % 4000))
        now += 5
        a = _now_us()
        link.poll(now)
        chunk.append(_diff(_now_us(), a))
        for _ in range(6):
            now += 5
            link.poll(now)
        stm.out[:] = b""
    res["poll_cmd256"] = (_median(cmd), _p99(cmd))
    res["poll_chunk"] = (_median(chunk), _p99(chunk))
    return res


def _fmt_pair(p):
    return "%d / %d" % p


def main():
    import shutil
    import subprocess
    import tempfile
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sys.path.insert(0, os.path.join(root, "tests", "upy"))
    sys.path.insert(0, os.path.join(root, "tests", "fakes"))
    tmp = tempfile.mkdtemp(prefix="bench-log-")
    try:
        cp = measure(os.path.join(tmp, "cpy"))
        upy = os.path.join(os.path.dirname(sys.executable), "micropython")
        env = dict(os.environ, MICROPYPATH=os.path.join(root, "firmware") + ":" + os.path.join(root, "tests", "upy")
                   + ":" + os.path.join(root, "tests", "fakes"))
        r = subprocess.run([upy, "-X", "heapsize=16M", os.path.abspath(__file__), "--vm", os.path.join(tmp, "upy")],
                           capture_output=True, text=True, env=env, timeout=900)
        up = None
        for line in r.stdout.splitlines():
            if line.startswith("{"):
                up = json.loads(line)
        if up is None:
            print("micropython run failed:", (r.stderr or r.stdout)[-600:])
            up = {}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    def row(label, key, pair=True, note=None):
        c = cp.get(key)
        u = up.get(key)
        if pair:
            cs = _fmt_pair(tuple(c)) if c else "-"
            us = _fmt_pair(tuple(u)) if u else "-"
            est = "%.2f-%.2f ms" % (u[0] * PICO_FACTOR_ALLOC / 1000.0, u[0] * PICO_FACTOR_INT / 1000.0) if u else "-"
            if note:
                est = note
        else:
            cs = "%d" % c if c is not None else "-"
            us = "%d" % u if u is not None else "-"
            if not u:
                est = "-"
            elif u * PICO_FACTOR_INT < 100000:
                est = "%.1f-%.1f ms" % (u * PICO_FACTOR_ALLOC / 1e3, u * PICO_FACTOR_INT / 1e3)
            else:
                est = "%.2f-%.2f s" % (u * PICO_FACTOR_ALLOC / 1e6, u * PICO_FACTOR_INT / 1e6)
        print("| %s | %s | %s | %s |" % (label, cs, us, est))

    print("typical game log: %d bytes; reservation per game: %d bytes" % (cp["game_bytes"], cp["need"]))
    print("full log area: %d files, %d bytes (running game %d bytes, %d records)"
          % (cp["full_files"], cp["full_bytes"], cp["running_bytes"], cp["boot_records"]))
    print("background CRC of a typical game in progress: %d steps" % cp["crc_steps"])
    print()
    print("| measure | CPython (median / p99 us) | micropython (median / p99 us) | Pico estimate (median) |")
    print("|---|---|---|---|")
    row("append one record, memory adapter", "append_mem")
    row("append one record, folder (write + sync)", "append_os",
        note="- (the host disk's sync; littlefs: see docs)")
    row("poll, idle", "poll_idle")
    row("poll with a 256-byte command line", "poll_cmd256")
    row("poll with a log_get chunk (192 B)", "poll_chunk")
    print()
    print("| measure | CPython us | micropython us | Pico estimate |")
    print("|---|---|---|---|")
    row("boot scan: listing + a typical game in progress", "boot_typical", pair=False)
    row("boot scan: listing + running game at its worst case", "boot_scan", pair=False)
    row("one background CRC step (16 bytes) after a boot", "crc_step", pair=False)
    row("verify every log of the full area (not done at boot)", "verify_all", pair=False)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--vm":
        try:
            os.mkdir(sys.argv[2])
        except OSError:
            pass
        print(json.dumps(measure(sys.argv[2])))
    else:
        main()
