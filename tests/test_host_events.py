"""The host knows every event of the protocol's event table (samsara_host.hostproto
event_table(), docs/protocol.md "Events"): the monitor's refresh list follows from the
table, and the host's readers of the event stream (the monitor's model, the terminal
view's event lines) take a sample of every event in the table, built from the fields
the table gives it, without tripping over a field."""
from boardcore.link import protocol as P
from samsara_host import hostproto as H
from samsara.rules.position import START_TEXT
from samsara_host import live, monitor_cmd

# A plausible value for every field name of the event table.
SAMPLE = {
    "t": 1200, "copy": 2, "why": 3, "pos": "R1", "position": START_TEXT, "match": False, "game": 3,
    "what": "roll", "reason": "the board is not settled", "dice": [5, 3], "player": "A",
    "source": "electronic", "roll": "66", "move": "5:R1-S18", "how": "button",
    "goal": "GS", "score": "1-0", "ins": "S7", "turn": "53 5:R1-S18 3:R2-S17",
    "missing": ["R3"], "extra": [], "winner": "A", "points": [2, 0], "totals": [2, 0],
    "proto": P.PROTO, "fw": "0.0", "hash": "abc", "kind": "image", "board": "e661", "records": 9,
    "turns": 4, "dropped": 0, "unpulled": 2, "free": 0, "need": 4096, "msg": "x",
    "lines": 3, "vs": "B", "far": "B", "level": 2,
}


def _samples():
    for name, fields, _flags in H.event_table():
        ev = {"ev": name}
        for f in fields:
            assert f in SAMPLE, "no sample value for field %s of event %s" % (f, name)
            ev[f] = SAMPLE[f]
        yield ev


def test_the_monitor_refresh_list_follows_the_event_table():
    names = [e[0] for e in H.event_table()]
    assert set(monitor_cmd.REFRESH) <= set(names)
    logged = [n for n, _f, fl in H.event_table() if fl & H.LOGGED]
    assert set(monitor_cmd.REFRESH) == set(logged) | {"turn_complete", "boot", "resume"}
    # what the monitor does not refresh on changes neither the game nor the state
    assert set(names) - set(monitor_cmd.REFRESH) == {
        "lift", "place", "reject", "log_full", "log_error", "error", "dropped",
        "flight_saved", "board_move"}


def test_the_host_reads_every_event_of_the_table():
    m = monitor_cmd.Model()
    shown = set()
    for ev in _samples():
        assert m.event(dict(ev)) == (ev["ev"] in monitor_cmd.REFRESH)
        text = live.describe_event(dict(ev))
        assert text is None or isinstance(text, str)
        if text:
            shown.add(ev["ev"])
    # every event the terminal view has a line for is in the table
    assert shown == {"roll", "sub", "goal", "score", "reinsert", "reject", "repair",
                     "repair_end", "undo", "turn_complete", "moksha", "game_over",
                     "board_move", "hint"}


def test_an_event_outside_the_table_is_skipped_not_an_error():
    assert H.event_spec("no_such_event") is None
    assert live.describe_event({"ev": "no_such_event"}) is None
    assert monitor_cmd.Model().event({"ev": "no_such_event"}) is False


def test_the_monitor_counts_the_game_turns_not_the_record_and_drops_dice_at_the_end():
    # the header said "turns 10" after a 34-turn game (position's record holds only the
    # last 10 turns) and still showed the last roll's dice after game over
    m = monitor_cmd.Model()
    m.status_reply({"state": "moving", "game": 3, "dice": [4, 5]})
    assert m.dice == [4, 5]
    m.position_reply({"position": "oooooo................../oooooo.................. 0-0 A",
                      "state": "game_over", "turns": 34, "record": ["11 1:R1-R2"] * 10})
    assert m.turns == 34 and m.dice == []
    m.status_reply({"state": "game_over", "game": 3, "dice": [4, 5]})
    assert m.dice == []
    text = monitor_cmd.view(m, hint=False)
    from rich.console import Console
    c = Console(width=100, record=True)
    c.print(text)
    assert "turns 34" in c.export_text()


def test_the_monitor_counts_a_complete_turn_before_the_next_roll_commits_it():
    # in turn_complete the board's `position` leaves the turn out (it is committed at
    # the next roll); the monitor counts it, once, however often status is asked
    m = monitor_cmd.Model()
    m.position_reply({"position": "oooooo................../oooooo.................. 0-0 B",
                      "state": "turn_complete", "turns": 0, "record": []})
    for _ in range(2):
        m.status_reply({"state": "turn_complete", "game": 3, "dice": [5, 2],
                        "turn": "52 2:S5-S7 5:S1-R18"})
        assert m.turns == 1
    m.position_reply({"position": "oooooo................../oooooo.................. 0-0 B",
                      "state": "waiting", "turns": 1, "record": ["52 2:S5-S7 5:S1-R18"]})
    m.status_reply({"state": "waiting", "game": 3, "dice": [], "turn": ""})
    assert m.turns == 1
