"""Power cuts (issue 5 §4): games played through the board core, the USB link and the
game log over a file-system adapter that cuts a write at a random byte, then a reboot
that resumes; 100 cuts in a row on one "flash".  After every reboot: no earlier game
is lost or changed, the current one resumes where its log ends (at most its last,
torn record short of where the power went), game numbers never repeat; at the end
every log pulled through the protocol verifies.  A second run kills the real virtual
board process (tests/test_virtual_board.py)."""
import os
import random
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "upy"))

from linkkit import FakeStream, CleanPlayer, services  # noqa: E402
from boardcore.storage import gamelog as G
from boardcore.storage import logrecord as LR# noqa: E402
from boardcore.link import protocol as P# noqa: E402
from samsara import states  # noqa: E402
from samsara.core import Board  # noqa: E402
from samsara.config import Config  # noqa: E402
from samsara.frame import from_position  # noqa: E402
from boardcore.storage.osfs import OsFs  # noqa: E402
from fakes.memfs import MemFs, CutFs, PowerCut  # noqa: E402

CUTS = int(os.environ.get("SAMSARA_POWER_CUTS", "100"))


class Rig:
    """One boot of the board: Board + recorder + host link (main.Services) + GameLog over CutFs(medium, budget)."""

    def __init__(self, medium, budget, now, frame=None):
        self.board = Board(Config(dice="host", settle_place_ms=30, settle_lift_ms=8))
        self.stream = FakeStream()
        self.fs = CutFs(medium, budget)
        self.link = services(self.stream, self.board, G.GameLog(self.fs, capacity=1 << 22),
                             None, "cut-1", 10)
        self.now = now
        self.link.boot(now, frame=frame)
        self.player = CleanPlayer(self.board, now=now, on_tick=self.link.poll,
                                  frame=self.board.controller.turn.expected)


def _finished(medium):
    return {n: bytes(medium.files[n]) for n in medium.files if n.endswith((".end", ".pul"))}


def _pull_all(link, stream, now):
    """Every log through log_get (chunks checked), as {game: bytes}."""
    seq = [100]

    def ask(line):
        seq[0] += 1
        stream.feed(line[:-2] + b',"id":%d}\n' % seq[0])
        for k in range(20):
            link.poll(now + k)
        return [x for x in stream.lines() if x.get("id") == seq[0]][-1]
    out = {}
    entries = []
    after = -1
    while True:
        page = ask(b'{"cmd":"logs","after":%d}\n' % after)
        entries += page["logs"]
        if not page["more"]:
            break
        after = page["logs"][-1]["game"]
    for e in entries:
        data = bytearray()
        while True:
            r = ask(b'{"cmd":"log_get","game":%d,"offset":%d}\n' % (e["game"], len(data)))
            assert r["ok"], r
            chunk = P.b64decode(r["data"])
            assert P.crc_hex(P.crc16(chunk)) == r["crc"]
            data.extend(chunk)
            if r["eof"]:
                break
        assert len(data) == e["size"]
        if e["crc"] is not None or e["state"] != "running":
            assert P.crc_hex(P.crc16(data)) == e["crc"]
        out[e["game"]] = bytes(data)
    return out


def test_hundred_power_cuts_in_a_row():
    rng = random.Random(2024)
    medium = MemFs()
    now = 0
    rig = Rig(medium, None, now)
    seen_games = set()
    cuts = 0
    boots = 1
    resumed_mid_turn = 0
    torn_seen = 0
    while cuts < CUTS:
        # Power on with a random amount of writing left before the next cut.
        budget = rng.randrange(0, 2500)
        rig.fs.budget = budget
        while not rig.fs.cut:
            b = rig.board
            c = b.controller
            if c.state in (states.GAME_OVER, states.MOKSHA):
                rig.stream.feed(b'{"cmd":"new_game"}\n')
                rig.player.tick(50)
                continue
            rig.player.step(lambda n: rng.randrange(n),
                            lambda: (rng.randint(1, 6), rng.randint(1, 6)),
                            lambda: rng.choice([-1, -1, -1, 0, 1]))
            if rig.fs.cut:
                break
            if rig.link.recorder.log.run_gid is not None:
                seen_games.add(rig.link.recorder.log.run_gid)
        cuts += 1
        # The power is gone.  What the flash holds of finished games must survive.
        finished = _finished(medium)
        precut = list(rig.board.controller.game.record)
        running = rig.link.recorder.log.run_gid
        now = rig.player.now + 1000
        # Reboot (the reboot itself may be cut again: then boot once more).
        while True:
            try:
                rig = Rig(medium, rng.choice([None, None, rng.randrange(0, 400)]), now,
                          frame=None)
                boots += 1
                if rig.fs.cut:
                    raise PowerCut("cut during boot")
                break
            except PowerCut:
                now += 1000
                continue
        rig.fs.budget = None
        for n, data in finished.items():
            assert medium.files.get(n) == bytearray(data), "finished game %s changed" % n
        log = rig.link.recorder.log
        if log.torn:
            torn_seen += 1
        ids = [g[0] for g in log.list()]
        assert len(ids) == len(set(ids))
        if running is not None and log.run_gid == running:
            got = list(rig.board.controller.game.record)
            # the committed turns are those whose turn records made it to flash
            assert got == precut[:len(got)], (got, precut)
            assert len(got) >= len(precut) - 1, (len(got), len(precut))
            if rig.board.controller.state == states.MOVING:
                resumed_mid_turn += 1
        # The players put the board right (the repair scene shows what to move).
        rig.player.frame[:] = rig.board.controller.turn.expected
        rig.player.tick(100)
    # Finally: pull everything through the protocol; every log verifies.
    logs = _pull_all(rig.link, rig.stream, rig.player.now + 10)
    assert len(logs) >= 3
    for g, data in logs.items():
        ok, msg, rp = LR.verify(data)
        assert ok, (g, msg)
        assert rp.header["game"] == g
    assert set(logs) >= seen_games - {None}
    print("cuts %d boots %d games %d torn %d resumed mid-turn %d" % (cuts, boots, len(logs), torn_seen, resumed_mid_turn))
    assert resumed_mid_turn > 0 and torn_seen > 0, (resumed_mid_turn, torn_seen)
    assert boots > cuts


def test_resume_rebuilds_record_and_turn_in_progress():
    medium = MemFs()
    rig = Rig(medium, None, 0)
    rng = random.Random(5)
    for _ in range(6):
        rig.player.play_turn(lambda n: rng.randrange(n), rng.randint(1, 6), rng.randint(1, 6))
    rig.player.play_turn(lambda n: 0, 5, 3, partial=1)
    c = rig.board.controller
    want_record = list(c.game.record)
    want_pos = c.position().format()
    want_rem = c.remaining_dice()
    assert c.state == states.MOVING and want_rem
    # a clean power cut (between two writes): the new boot resumes exactly there
    rig2 = Rig(medium, None, rig.player.now + 5000, frame=bytes(rig.player.frame))
    c2 = rig2.board.controller
    assert list(c2.game.record) == want_record
    assert c2.position().format() == want_pos
    assert c2.remaining_dice() == want_rem
    assert c2.state == states.MOVING
    lines = rig2.stream.lines() if rig2.stream.out.endswith(b"\n") else []
    rig2.player.tick(50)
    evs = [x.get("ev") for x in rig2.stream.lines()]
    assert "resume" in evs and "game_start" not in evs
    # and the game plays on to its end in the same log
    while c2.state not in (states.GAME_OVER, states.MOKSHA):
        rig2.player.step(lambda n: rng.randrange(n), lambda: (rng.randint(1, 6), rng.randint(1, 6)))
    rig2.player.tick(50)
    assert rig2.link.recorder.log.run_gid is None
    gid, size, st, crc = rig2.link.recorder.log.list()[0]
    ok, msg, rp = LR.verify(rig2.link.recorder.log.read(gid, 0, size))
    assert ok and rp.ended and rp.turns == list(c2.game.record)
    assert lines is not None


def test_folder_adapter_survives_reopen(tmp_path):
    # The same store over a real folder (the virtual board's and the simulation's).
    fs = OsFs(str(tmp_path / "logs"))
    lg = G.GameLog(fs)
    assert lg.boot() is None
    g = lg.start_game({"start": "x"})
    for i in range(50):
        lg.log_event({"ev": "roll", "dice": [1 + i % 6, 2]})
    lg.close()
    with open(str(tmp_path / "logs" / ("g%06d.run" % g)), "ab") as f:
        f.write(b"\xa5\x10S1:R")         # a torn record
    lg = G.GameLog(OsFs(str(tmp_path / "logs")))
    rp = lg.boot()
    assert rp.game == g and rp.records == 51 and lg.torn == 6
    lg.end_game()
    assert sorted(os.listdir(str(tmp_path / "logs")))[0].endswith(".end")


@pytest.mark.parametrize("seed", range(4))
def test_random_torn_offsets_in_many_games(seed):
    """The cutting adapter at a random byte of a random write, many times, with
    several finished games around; only the running game's torn tail is dropped."""
    rng = random.Random(seed)
    medium = MemFs()
    for rnd in range(25):
        fs = CutFs(medium, rng.randrange(0, 600))
        try:
            lg = G.GameLog(fs)
            lg.boot()
            while True:
                if lg.run_gid is None or rng.random() < 0.05:
                    if lg.run_gid is not None:
                        lg.end_game()
                    lg.start_game({"r": rnd})
                lg.log_event(rng.choice([{"ev": "roll", "dice": [3, 4]},
                                         {"ev": "sub", "move": "3:R1-R4"},
                                         {"ev": "turn", "turn": "43 4:R1-R5 3:R2-R5"},
                                         {"ev": "goal", "goal": "GS", "player": "A"}]))
        except PowerCut:
            pass
        before = _finished(medium)
        lg = G.GameLog(medium)
        lg.boot()
        for n, d in before.items():
            assert bytes(medium.files[n]) == d
        for gid, size, st, crc in lg.list():
            ok, msg, _ = LR.verify(lg.read(gid, 0, size))
            assert ok, (gid, msg)
        lg.close()
