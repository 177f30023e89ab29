"""Protocol fuzzing (issue 5 §4): random and malformed input, without 0x03 and 0x04
(they belong to the REPL), never stops the board's USB service, every line it sends is
one JSON object within the line limit, no line gets more than one reply, and each poll
stays far inside the loop period."""
import json
import os
import sys
import time

from hypothesis import given, settings, strategies as st, HealthCheck

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "upy"))

from linkkit import FakeStream, services  # noqa: E402
from boardcore.storage import gamelog as G# noqa: E402
from boardcore.link import protocol as P# noqa: E402
from boardcore.link.commands import COMMAND_NAMES  # noqa: E402
from samsara.core import Board  # noqa: E402
from samsara.config import Config  # noqa: E402
from fakes.memfs import MemFs  # noqa: E402

_NO_REPL = bytes([b for b in range(256) if b not in (3, 4)])


def _link():
    board = Board(Config(dice="host", settle_place_ms=30))
    stream = FakeStream()
    link = services(stream, board, G.GameLog(MemFs()), None, "fuzz", 2, boot_ms=0)
    return link, stream


def _run(link, stream, chunks, t0=10):
    worst = 0.0
    now = t0
    for c in chunks:
        stream.feed(c)
        for _ in range(3):
            now += 2
            a = time.perf_counter()
            link.poll(now)
            worst = max(worst, time.perf_counter() - a)
    # drain: everything queued reaches the host
    for _ in range(2000):
        if not stream.inp and not link.link.pending_output() and link.link.rx_scan >= link.link.rx_n:
            break
        now += 2
        link.poll(now)
    return worst, now


def _check_output(stream):
    raw = bytes(stream.out)
    assert raw == b"" or raw.endswith(b"\n")
    replies = 0
    for line in raw.split(b"\n")[:-1]:
        assert len(line) + 1 <= P.MAX_OUT
        obj = json.loads(line)
        assert isinstance(obj, dict) and (("re" in obj) != ("ev" in obj))
        if "re" in obj:
            replies += 1
    return replies


def _alive(link, stream, now):
    stream.out[:] = b""
    stream.feed(b'\n{"cmd":"hello","id":424242}\n')
    for _ in range(60):
        now += 2
        link.poll(now)
    got = [json.loads(x) for x in bytes(stream.out).split(b"\n")[:-1]]
    assert any(o.get("id") == 424242 and o.get("ok") for o in got), got


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.binary(min_size=0, max_size=400).map(
    lambda b: bytes(x for x in b if x not in (3, 4))), min_size=1, max_size=12))
def test_random_bytes_never_stop_the_service(chunks):
    link, stream = _link()
    _worst, now = _run(link, stream, chunks)
    replies = _check_output(stream)
    assert replies <= sum(c.count(b"\n") for c in chunks) + 1
    _alive(link, stream, now)


_keys = st.sampled_from(["cmd", "id", "dice", "game", "offset", "n", "match", "starter",
                         "position", "step", "ms", "crc", "size", "force", "after", "x"])
_vals = st.recursive(
    st.none() | st.booleans() | st.integers(-2**40, 2**40) | st.floats(allow_nan=False)
    | st.text(max_size=20) | st.sampled_from(list(COMMAND_NAMES)),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.dictionaries(_keys, _vals, max_size=5), min_size=1, max_size=10),
       st.integers(0, 3))
def test_random_commands_get_exactly_one_reply_each(objs, glue):
    link, stream = _link()
    lines = []
    for o in objs:
        if "cmd" not in o and glue == 0:
            o["cmd"] = "status"
        lines.append(json.dumps(o).encode())
    if glue == 1 and len(lines) > 1:
        lines = [lines[0] + lines[1]] + lines[2:]      # two commands on one line
    data = b"".join(l + b"\n" for l in lines)
    _worst, now = _run(link, stream, [data[i:i + 37] for i in range(0, len(data), 37)])
    replies = _check_output(stream)
    assert replies == len(lines)
    _alive(link, stream, now)


def test_garbage_mixed_with_commands_and_a_full_game_log():
    """Deterministic: the loop keeps serving while a game is being logged."""
    link, stream = _link()
    seq = [b'{"cmd":"set_dice","dice":[6,6]}\n', b'\x00\x01\xff\n', b'{"cmd":"roll"}\n',
           b'{{{{{{{{{{\n', b'{"cmd":"logs"}\n', b'x' * 1000 + b'\n', b'{"cmd":"position"}\n']
    _worst, now = _run(link, stream, seq * 20)
    assert _check_output(stream) >= 20 * 6
    _alive(link, stream, now)
