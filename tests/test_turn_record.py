"""Game.record, the TurnRecord (samsara.rules.game): the turns of a game in play
order, eight to a str.  It must read back exactly what a list of the same turns
holds, at every length, whatever the turns' notation."""
import pytest
from hypothesis import given, settings, strategies as st

from samsara.rules.game import Game, TurnRecord

notes = st.text(alphabet="0123456789 :-RSGxM*okah", min_size=1, max_size=28)


@settings(max_examples=200, deadline=None)
@given(st.lists(notes, max_size=40), st.integers(0, 45))
def test_reads_back_as_a_list(turns, k):
    rec = TurnRecord()
    for i, t in enumerate(turns):
        rec.append(t)
        assert len(rec) == i + 1
    assert list(rec) == turns
    assert rec.tail(k) == (turns[-k:] if k else [])
    # eight turns to a chunk: a 40-turn game keeps 5 strs, not 40
    assert len(rec.chunks) == (len(turns) + 7) // 8


def test_tail_of_an_empty_record():
    rec = TurnRecord()
    assert rec.tail(10) == [] and list(rec) == [] and len(rec) == 0
    rec.append("53 5:R1-S18 3:R2-S17")
    assert rec.tail(1) == ["53 5:R1-S18 3:R2-S17"] and rec.tail(0) == []


def test_a_played_game_keeps_its_turns():
    g = Game()
    played = []
    while not g.over() and len(played) < 20:
        d1, d2 = 1 + len(played) % 6, 1 + (len(played) * 5) % 6
        turns = g.legal_turns(d1, d2)
        if not turns:
            played.append(g.apply(d1, d2, [], None))
            break
        played.append(g.play_notation(turns[len(turns) // 2][0]))
    assert len(played) > 8          # at least one full chunk and a partial one
    assert list(g.record) == played and g.record.tail(10) == played[-10:]


@settings(max_examples=150, deadline=None)
@given(st.lists(notes, max_size=70), st.integers(2, 4), st.integers(0, 70))
def test_keep_holds_the_last_chunks_and_their_tail(turns, keep, set_at):
    # keep set at any point (a game resumed from its log sets it after the replay):
    # from the next chunk on, only the last `keep` chunks stay; len counts every turn
    rec = TurnRecord()
    for i, t in enumerate(turns):
        if i == set_at:
            rec.keep = keep
        rec.append(t)
    n = len(turns)
    assert len(rec) == n
    held = [c for c in rec.chunks if c is not None]
    if set_at < n and n > 8 * keep and (n - 1) // 8 > set_at // 8:
        assert len(held) == keep and rec.chunks[0] is None
    for k in range(0, 8 * keep - 6):
        assert rec.tail(k) == (turns[-k:] if k else [])


def test_a_record_that_forgot_refuses_to_be_iterated():
    rec = TurnRecord()
    rec.keep = 2
    for i in range(20):
        rec.append("11 1:R%d-R%d" % (i + 1, i + 2))
    assert rec.chunks[0] is None and rec.tail(10)[-1] == "11 1:R20-R21"
    with pytest.raises(AttributeError):
        list(rec)
