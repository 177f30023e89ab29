"""A whole game against the board on the emulated Pico (`make bench-device` with
--vs-board; docs/performance.md, docs/engine.md "On the board").

The rig serves the board (run_game.sh --serve with a control port).  A host script
plays the human side through the board's sensors (the control port: lift, wait,
place) with the simulator's greedy player and host-set seeded dice, and the board's
side by following the board's `board_move` events (the sub-move it lights), also
through the sensors.  Figures, all device time:

    decision_ms   per board turn: its `roll` event -> its first `board_move` (the
                  first sub-move lit), from the events' own `t` (board ms)
    heap          the rig's heap.free_min / free_max over the session

    python -m tools.bench_vsboard [--seed 1] [--port 7831] [--turns N] [--side B]
"""
import argparse
import json
import random
import socket
import sys
import threading
import time

from tools import rig as rigmod


class Link:
    """The board's USB serial over the rig's socket: a reader thread keeps every line."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.sock.settimeout(None)
        self.lines = []
        self.lock = threading.Lock()
        self.next_id = 1
        self.alive = True
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        buf = b""
        while self.alive:
            try:
                chunk = self.sock.recv(65536)
            except OSError:
                break
            if not chunk:
                break
            buf += chunk
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                line = line.strip()
                if line.startswith(b"{"):
                    try:
                        obj = json.loads(line.decode())
                    except ValueError:
                        continue
                    with self.lock:
                        self.lines.append(obj)

    def wait(self, pred, start=0, timeout=600.0):
        """(index, line) of the first line from `start` on that pred accepts."""
        t0 = time.time()
        i = start
        while True:
            with self.lock:
                n = len(self.lines)
            while i < n:
                if pred(self.lines[i]):
                    return i, self.lines[i]
                i += 1
            if time.time() - t0 > timeout:
                raise RuntimeError("timed out; last lines: %s" % self.lines[-8:])
            time.sleep(0.02)

    def cmd(self, name, **args):
        rid = self.next_id
        self.next_id += 1
        d = {"cmd": name, "id": rid}
        d.update(args)
        with self.lock:
            start = len(self.lines)
        self.sock.sendall((json.dumps(d) + "\n").encode())
        _i, r = self.wait(lambda x: x.get("re") == name and x.get("id") == rid, start)
        return r

    def mark(self):
        with self.lock:
            return len(self.lines)

    def close(self):
        self.alive = False
        try:
            self.sock.close()
        except OSError:
            pass


def pct(vals, q):
    """The q-quantile (0..1) of vals by nearest rank."""
    s = sorted(vals)
    if not s:
        return None
    k = max(0, min(len(s) - 1, int(round(q * (len(s) - 1)))))
    return s[k]


def play(srv, link, seed=1, side=1, turns=None, log=print):
    """Play one game against the board; returns the figures dict."""
    from samsara.rules.geometry import position_name
    from samsara.rules.moves import M_R, M_S, M_A, M_B
    from samsara.rules.notation import read_sub_move
    from samsara.rules.position import Position, START_TEXT
    from samsara_host.sim.player import hand_actions, hand_moves, random_pick, strategy

    rng = random.Random("vs-bench:%d" % seed)
    pick = random_pick(rng)
    choose = strategy("greedy")
    srv.ctl({"start": START_TEXT})
    srv.ctl({"wait_ms": 300})
    r = link.cmd("new_game", vs_board="AB"[side])
    assert r.get("ok"), r

    def hand(frm, to):
        srv.ctl({"pos": position_name(frm), "on": False})
        srv.ctl({"wait_ms": 300})
        srv.ctl({"pos": position_name(to), "on": True})
        srv.ctl({"wait_ms": 400})

    def dice():
        d = [rng.randint(1, 6), rng.randint(1, 6)]
        assert link.cmd("set_dice", dice=d).get("ok")

    decisions = []
    n_turns = 0
    over = None
    mark = link.mark()
    # Whose turn is next is known from the play; the board is asked (status, position)
    # only when it is not, and never while the board thinks: a host polling then would
    # add its replies' work and a log flush to the board's decision time.
    board_next = None
    cur = None              # (r, s, a, b) before the board's turn, when known
    while over is None and (turns is None or n_turns < turns):
        if board_next is None:
            cur = None
            pos = Position.parse(link.cmd("position")["position"])
            st = link.cmd("status")
            if st["state"] in ("game_over", "moksha"):
                break
            # position() is the next player's once a turn is complete
            board_next = pos.mover == side
            if board_next and st["state"] == "waiting":
                dice()                # the board begins: the dice it will roll
        if not board_next:
            dice()
            r = link.cmd("roll")
            if not r.get("ok"):
                srv.ctl({"wait_ms": 200})
                board_next = None
                continue
            d1, d2 = r["dice"]
            pos = Position.parse(link.cmd("position")["position"])
            if link.cmd("status")["state"] in ("game_over", "moksha"):
                break
            moves = choose(pos.r, pos.s, pos.a, pos.b, pos.mover, d1, d2, 0, pick)
            last = moves[-1]
            cur = (last[M_R], last[M_S], last[M_A], last[M_B])   # the board's turn begins
            dice()                    # the board's roll, used once this turn is complete
            acts = hand_actions(moves, pos.a, pos.b)
            for i in range(0, len(acts), 2):
                hand(acts[i][1], acts[i + 1][1])
            n_turns += 1
            log("turn %d (player): %d%d %d sub-moves" % (n_turns, d1, d2, len(moves)))
            board_next = True
            continue
        # the board's turn: its roll, then follow its lights
        board_next = False
        left = None
        i, roll = link.wait(lambda x: x.get("ev") == "roll" and x.get("player") == "AB"[side]
                            or x.get("ev") == "game_over", mark)
        if roll.get("ev") == "game_over":
            over = roll
            break
        mark = i + 1
        first = True
        while True:
            i, ev = link.wait(lambda x: x.get("ev") in ("board_move", "game_over",
                                                        "turn_complete"), mark)
            mark = i + 1
            if ev["ev"] != "board_move":
                if ev["ev"] == "game_over":
                    over = ev
                break
            if first:
                decisions.append(ev["t"] - roll["t"])
                first = False
            # the position followed here, as a player follows the lights: one `position`
            # per turn (the human's), as the rig's own player asks
            if cur is None:
                p0 = Position.parse(link.cmd("position")["position"])
                cur = (p0.r, p0.s, p0.a, p0.b)
            if left is None:
                left = list(roll["dice"])
            m = read_sub_move(cur[0], cur[1], cur[2], cur[3], side, tuple(left), ev["move"], 0)
            for frm, to in hand_moves(m, cur[2], cur[3]):
                hand(frm, to)
            left.remove(m[0])
            cur = (m[M_R], m[M_S], m[M_A], m[M_B])
        n_turns += 1
        log("turn %d (board): %s, decision %s ms" % (
            n_turns, roll.get("dice"), decisions[-1] if decisions else "-"))
    if over is None:
        try:
            _i, over = link.wait(lambda x: x.get("ev") == "game_over", 0, timeout=5)
        except RuntimeError:
            over = None
    q = srv.ctl({"query": "summary"})
    with open(q["summary"]) as fh:
        s = json.load(fh)
    heap = s.get("heap") or {}
    rejects = [x for x in link.lines if x.get("ev") == "reject"]
    return {
        "turns": n_turns, "game_over": over, "decisions_ms": decisions,
        "decision_p50_ms": pct(decisions, 0.5), "decision_p99_ms": pct(decisions, 0.99),
        "decision_max_ms": max(decisions) if decisions else None,
        "heap_free_min": heap.get("free_min"), "heap_free_max": heap.get("free_max"),
        "rejects": rejects, "tracebacks": s.get("tracebacks"),
        "watchdog_fired_ms": s.get("watchdog_fired_ms"),
        "summary": s,
    }


def run(seed=1, port=7831, side=1, turns=None, log=print, firmware="image"):
    """Serve the rig on port (control port + 1), running `firmware` (tools/rig.py: the
    image or the bundle), play, return the figures."""
    rig = rigmod.find_rig()
    if rig is None:
        raise RuntimeError("no emulated Pico at %s (set PICO_RIG)" % rigmod.rig_dir())
    with rigmod.Serve(rig, port, control=port + 1, firmware=firmware) as srv:
        if not srv.wait_ready():
            raise RuntimeError("the served rig did not come up:\n" + srv.log()[-1500:])
        link = Link(port)
        try:
            link.wait(lambda x: True, 0, timeout=5)
        except RuntimeError:
            pass
        try:
            return play(srv, link, seed, side, turns, log)
        finally:
            link.close()


def report(f):
    """Lines of the vs-board rows (targets: decision p99 <= 2000 ms, heap >= 160 KB
    while the engine thinks)."""
    fm = f.get("heap_free_min")
    rows = [
        ("board decisions (roll -> first sub-move lit)", "n=%d p50 %s p99 %s max %s ms" % (
            len(f["decisions_ms"]), f["decision_p50_ms"], f["decision_p99_ms"],
            f["decision_max_ms"]), "p99 <= 2000 ms",
         f["decision_p99_ms"] is not None and f["decision_p99_ms"] <= 2000),
        ("lowest free heap, vs board (KB)", "%.1f" % (fm / 1024.0) if fm else "-",
         ">= 160", fm is not None and fm >= 160 * 1024),
    ]
    out = []
    for label, val, target, ok in rows:
        out.append("%-46s %-40s %-16s %s" % (label, val, target, "PASS" if ok else "FAIL"))
    go = f.get("game_over") or {}
    out.append("vs-board game: %d turns, %s, rejects %d, tracebacks %s" % (
        f["turns"], json.dumps({k: go.get(k) for k in ("winner", "score", "how")}),
        len(f["rejects"]), len(f.get("tracebacks") or [])))
    return out


def main(argv=None):
    p = argparse.ArgumentParser(prog="bench_vsboard", description=__doc__.split("\n")[0])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--port", type=int, default=7831)
    p.add_argument("--side", default="B", choices=("A", "B"))
    p.add_argument("--turns", type=int, default=None)
    p.add_argument("--json", default=None)
    a = p.parse_args(argv)
    f = run(a.seed, a.port, "AB".index(a.side), a.turns)
    print("\n".join(report(f)))
    if a.json:
        with open(a.json, "w") as fh:
            json.dump({k: v for k, v in f.items() if k != "summary"}, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
