"""The host link's quick path (HostLink._quick: `set_dice`, `position` and `status` taken without
loading the command module, docs/performance.md "Sixth round") answers every line
exactly as the full parser (samsara.link.commands.parse_command) does: the same reply
bytes and the same board state, for lines of those two commands' shapes and the
malformed lines near them."""
import json
import os
import sys

from hypothesis import given, settings, strategies as st, HealthCheck

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "upy"))

from linkkit import FakeStream, services  # noqa: E402
from samsara.storage import gamelog as G  # noqa: E402
from samsara.core import Board  # noqa: E402
from samsara.config import Config  # noqa: E402
from fakes.memfs import MemFs  # noqa: E402


def _answer(line, quick):
    """The output bytes for `line` and the board's host dice after it."""
    board = Board(Config(dice="host", settle_place_ms=30))
    stream = FakeStream()
    svc = services(stream, board, G.GameLog(MemFs()), None, "quick", 2, boot_ms=0)
    link = svc.link
    taken = []
    real = link._quick

    def spy(n):
        got = real(n) if quick else None
        taken.append(got)
        return got
    link._quick = spy
    now = 10
    for _ in range(5):
        now += 2
        svc.poll(now)
    stream.out[:] = b""
    stream.feed(line + b"\n")
    for _ in range(40):
        now += 2
        svc.poll(now)
    return bytes(stream.out), board.controller.dice.host, any(t is not None for t in taken)


_ids = st.none() | st.booleans() | st.integers(-3, 2**31) | st.just(2**30 - 1) | \
    st.just(2**30) | st.text(max_size=18) | st.floats(allow_nan=False) | st.lists(st.integers(), max_size=2)
_dice = st.lists(st.integers(-1, 8) | st.booleans() | st.floats(0, 7) | st.none() | st.text(max_size=2),
                 max_size=3) | st.integers(0, 6) | st.none() | st.text(max_size=3)


@st.composite
def _lines(draw):
    obj = {"cmd": draw(st.sampled_from(["set_dice", "position", "status", "roll", "Position", 3]))}
    if draw(st.booleans()):
        obj["id"] = draw(_ids)
    if draw(st.booleans()):
        obj["dice"] = draw(_dice)
    if draw(st.integers(0, 5)) == 0:
        obj[draw(st.sampled_from(["x", "Dice", "game", ""]))] = draw(st.integers(0, 3))
    text = json.dumps(obj, ensure_ascii=draw(st.booleans()))
    cut = draw(st.integers(0, 12))
    if cut == 1:
        text = text[:-1]                # bad JSON
    elif cut == 2:
        text = text + " " + text        # two values on one line
    elif cut == 3:
        text = "[" + text + "]"         # not an object
    return text.encode("utf-8")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_lines())
def test_quick_path_answers_as_the_full_parser(line):
    fast = _answer(line, True)
    full = _answer(line, False)
    assert fast[:2] == full[:2]


def test_quick_path_takes_the_lines_of_a_roll():
    """The lines a host sends at every roll do take the quick path (the property above
    would also hold if it never did) and are answered."""
    for line, want in ((b'{"cmd": "set_dice", "id": 7, "dice": [3, 5]}', '"dice": [3, 5]'),
                       (b'{"cmd":"position"}', '"state": "waiting"'),
                       (b'{"id": "ab", "cmd": "position"}', '"id": "ab"'),
                       (b'{"cmd": "status", "id": 1073741823}', '"loop": {')):
        out, dice, taken = _answer(line, True)
        assert taken, line
        assert want in out.decode(), out
    out, dice, taken = _answer(b'{"cmd": "set_dice", "dice": [3, 5]}', True)
    assert dice == (3, 5) or list(dice) == [3, 5]
    for line in (b'{"cmd": "set_dice", "dice": [3, 7]}', b'{"cmd": "position", "x": 1}',
                 b'{"cmd": "position", "id": true}', b'{"cmd": "status", "id": 1073741824}',
                 b'{"cmd": "roll"}', b'\xff{"cmd":"position"}'):
        assert not _answer(line, True)[2], line
