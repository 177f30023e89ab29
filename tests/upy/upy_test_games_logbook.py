"""The Samas and Schaska game logs (samas.logbook, schaska.logbook; docs/samas.md,
docs/schaska.md "The game log") over the shared store in memory: the header names the
game, a record per round or turn, the end; with defer the records wait for flush() but
the header does not; an unfinished game is closed as abandoned at boot.  Builtins only
(MicroPython and CPython; tests/test_games_logbook.py runs them under pytest)."""
import json

from memfs import MemFs
from samas.core import SamasBoard
from samas.logbook import Logbook as SamasLogbook, open_log as samas_log
from schaska.core import SchaskaBoard
from schaska.logbook import Logbook as SchaskaLogbook, open_log as schaska_log
from boardcore.storage.logrecord import parse_records, record_event
from gamehands import Hands, samas_round, schaska_act


def records(fs, gid=1):
    for name in fs.listdir():
        if name.startswith("g%06d" % gid):
            recs, _good = parse_records(bytes(fs.files[name]))
            return name, [record_event(t, p) for t, p in recs]
    raise AssertionError("no log of game %d in %r" % (gid, fs.listdir()))


def drive(board, book):
    # the board's events to the logbook, as the scan loop's drain does
    while True:
        ev = board.poll_event()
        if ev is None:
            return
        book.on_event(ev)


def test_a_samas_game_is_logged_as_header_rounds_and_end():
    fs = MemFs()
    b = SamasBoard()
    book = SamasLogbook(samas_log(fs), b, "vb-1")
    book.boot()
    b.new_game(0)
    h = Hands(b)
    drive(b, book)
    for ev in samas_round(h, 1, 0):
        book.on_event(ev)
    name, recs = records(fs)
    assert name.endswith(".run")
    assert recs[0]["rules"] == "samas" and recs[0]["board"] == "vb-1"
    assert recs[0]["start"]["A"]["hole"] == 2
    assert recs[1] == {"ev": "round", "p": "10"} and len(recs) == 2
    assert book.space()["unpulled"] == 0


def test_deferred_records_wait_for_flush_but_the_header_does_not():
    fs = MemFs()
    b = SchaskaBoard()
    book = SchaskaLogbook(schaska_log(fs), b)
    book.defer = True
    book.boot()
    b.new_game(0)
    h = Hands(b)
    drive(b, book)
    _name, recs = records(fs)
    assert len(recs) == 1 and recs[0]["rules"] == "schaska"
    assert recs[0]["layout"][0] == 1 and "start" not in recs[0]   # the rules' start
    schaska_act(h, 16, (0, 1))
    drive(b, book)          # (the hands took the events: feed the one turn by hand)
    book.on_event({"ev": "turn", "turn": 1, "player": "A",
                   "move": {"from": "start", "to": 1}, "after": {}})
    assert len(records(fs)[1]) == 1 and len(book.pending) == 1
    assert book.flush() == 1 and book.pending == []
    assert records(fs)[1][1] == {"ev": "move", "a": [0, 1]}


def test_a_schaska_move_home_and_back_to_start_are_track_positions():
    fs = MemFs()
    b = SchaskaBoard()
    book = SchaskaLogbook(schaska_log(fs), b)
    b.new_game(0)
    drive(b, book)
    for mover, move in (("A", {"from": 14, "to": "home"}), ("B", {"from": 3, "to": "home"}),
                        ("A", {"from": 2, "to": "start"}), ("B", {"from": 15, "to": "start"})):
        book.on_event({"ev": "turn", "player": mover, "move": move})
    recs = records(fs)[1]
    assert [r["a"] for r in recs[1:]] == [[14, 17], [3, 0], [2, 0], [15, 17]]


def test_the_end_closes_the_log_and_an_unfinished_game_is_abandoned_at_boot():
    fs = MemFs()
    b = SamasBoard()
    book = SamasLogbook(samas_log(fs), b)
    b.new_game(0)
    drive(b, book)
    book.on_event({"ev": "game_over", "result": "B", "how": "limit", "final": {}})
    name, recs = records(fs)
    assert name.endswith(".end") and recs[-1]["result"] == "B" and recs[-1]["by"] == "limit"
    b.new_game(0)
    drive(b, book)
    assert records(fs, 2)[0].endswith(".run")
    again = SamasLogbook(samas_log(fs), b)      # a power cut, and the boot
    again.boot()
    name, recs = records(fs, 2)
    assert name.endswith(".end") and recs[-1]["how"] == "abandoned"


def test_a_headers_start_and_layout_fit_one_record():
    # the longest track (30 fields) and the start: the header is not cut
    fs = MemFs()
    b = SchaskaBoard()
    book = SchaskaLogbook(schaska_log(fs), b, "virtual-12345678")
    b.new_game(0, (8, -3) * 15)
    drive(b, book)
    hdr = records(fs)[1][0]
    assert "cut" not in hdr and len(hdr["layout"]) == 30
    assert len(json.dumps(hdr)) < 250


def test_a_game_from_another_start_logs_its_start():
    from schaska.rules.state import State
    fs = MemFs()
    b = SchaskaBoard()
    book = SchaskaLogbook(schaska_log(fs), b)
    cells = bytearray(18)
    cells[3] = 1
    b.new_game(0, state=State(16, cells, (6, 7), (0, 0), 1))
    drive(b, book)
    hdr = records(fs)[1][0]
    assert hdr["start"]["A"] == {"start": 6, "fields": [3], "home": 0}
    assert hdr["start"]["turn"] == "B"


def test_the_players_names_go_with_every_game_start_into_the_header():
    fs = MemFs()
    b = SchaskaBoard()
    book = SchaskaLogbook(schaska_log(fs), b, "vb-1")
    book.boot()
    b.set_players(["Ana", ""])
    b.new_game(0)
    evs = []
    while True:
        ev = b.poll_event()
        if ev is None:
            break
        evs.append(ev)
        book.on_event(ev)
    assert evs[0]["ev"] == "game_start" and evs[0]["players"] == ["Ana", ""]
    _name, recs = records(fs)
    assert recs[0]["players"] == ["Ana", ""] and recs[0]["board"] == "vb-1"
    # names taken away: the next game's header has none
    b.set_players(None)
    b.new_game(0)
    drive(b, book)
    assert "players" not in records(fs, 2)[1][0]


def test_bad_names_are_refused_and_the_names_before_stay():
    b = SamasBoard()
    b.set_players(("Ana", "Ben"))
    for bad in (["Ana"], "AnaBen", ["x" * 41, ""], ["A\nna", ""], [1, 2]):
        try:
            b.set_players(bad)
        except ValueError:
            pass
        else:
            raise AssertionError("%r taken as names" % (bad,))
    assert b.players == ["Ana", "Ben"]
    b.set_players(["", ""])         # no name at all: none
    assert b.players is None
    b.new_game(0)
    ev = b.poll_event()
    assert ev["ev"] == "game_start" and "players" not in ev


def test_long_names_on_the_longest_track_are_cut_so_the_header_stays_one_record():
    fs = MemFs()
    b = SchaskaBoard()
    book = SchaskaLogbook(schaska_log(fs), b, "virtual-12345678")
    b.set_players(["A" * 40, "\u00e9" * 40])       # (2 bytes a character in UTF-8)
    b.new_game(0, (8, -3) * 15)
    drive(b, book)
    hdr = records(fs)[1][0]
    assert "cut" not in hdr and len(hdr["layout"]) == 30
    a, e = hdr["players"]
    assert 0 < len(a) < 40 and 0 < len(e) < 40
    assert a == "A" * len(a) and e == "\u00e9" * len(e)
    # short names on a short track are kept whole
    b.set_players(["Ana", "Ben"])
    b.new_game(0)
    drive(b, book)
    assert records(fs, 2)[1][0]["players"] == ["Ana", "Ben"]
