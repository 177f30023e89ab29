"""Event queue (bounded, drop-oldest), frames (bit order of docs/frames.md), config."""

import pytest

from boardcore.events import EventQueue
from samsara import frame as fr
from samsara.config import Config
from samsara.rules.position import Position
from samsara.rules.geometry import position_index


def test_queue_is_fifo_and_drops_the_oldest_with_a_counter():
    q = EventQueue(3)
    for i in range(5):
        q.push({"ev": "x", "i": i})
    assert len(q) == 3 and q.dropped == 2
    assert [q.poll()["i"] for _ in range(3)] == [2, 3, 4]
    assert q.poll() is None
    q.push({"ev": "y"})
    assert q.poll()["ev"] == "y"


def test_board_never_crashes_when_nobody_polls():
    from boardscript import Script
    b = Script(event_capacity=4)
    b.roll(5, 3)
    for _ in range(10):
        b.board.press(b.t, "roll")            # rejected, each an event
    assert len(b.board.events) == 4
    assert b.board.events.dropped == 6
    assert "roll before the turn is complete" in b.board.poll_event()["reason"]


def test_frame_bit_order():
    f = fr.from_names(["R1", "R24", "S1", "S24", "GS", "GR", "A0", "AC", "B0", "BC"])
    assert f[0] == 0x01 and f[2] == 0x80
    assert f[3] == 0x01 and f[5] == 0x80
    assert f[6] == 0x07          # GS, GR, A0
    assert f[7] == 0x83          # AC, B0, BC
    assert fr.r_mask(f) == 0x800001 and fr.s_mask(f) == 0x800001
    assert fr.names(f) == ["R1", "R24", "S1", "S24", "GS", "GR", "A0", "AC", "B0", "BC"]
    assert fr.from_hex(fr.to_hex(f)) == f
    assert fr.to_hex(f) == "0100800100800783"


def test_frame_of_a_position_has_pieces_on_their_scores():
    p = Position.parse("oooooo................../oooooo.................. 3-6 B")
    f = fr.from_position(p)
    assert fr.get(f, position_index("A3")) and fr.get(f, position_index("BC"))
    assert not fr.get(f, position_index("GS"))
    assert fr.r_mask(f) == p.r and fr.s_mask(f) == p.s


def test_put_get_equal_copy():
    f = fr.new_frame()
    fr.put(f, 63, 1)
    assert fr.get(f, 63) == 1
    g = fr.new_frame()
    assert not fr.equal(f, g)
    fr.copy_into(g, f)
    assert fr.equal(f, g)
    fr.put(f, 63, 0)
    assert f == bytearray(8)
    with pytest.raises(ValueError):
        fr.from_hex("00")


def test_config_rejects_unknown_settings():
    with pytest.raises(ValueError):
        Config(dice="loaded")
    with pytest.raises(ValueError):
        Config(opponent_goal="sometimes")
    with pytest.raises(TypeError):
        Config(settle_ms=5)
