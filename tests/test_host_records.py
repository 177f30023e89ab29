"""Issue 10 §4 "Game records a player wants to keep": players' names and the date of
the pull in a tags sidecar (`logs pull --names`, `logs tag`), pictures a player
understands (arrows, the roll on the dice, a legend, captions in words), and the
whole game as an animated GIF or one self-contained HTML file."""
import datetime
import hashlib
import io
import os
import re
import xml.etree.ElementTree as ET

import pytest

from fakeboard import FakeBoard
from loghelp import game_log
from samsara_host import cli, export, gametags
from samsara_host.record import GameRecord, from_log, load


@pytest.fixture(scope="module")
def logged():
    return game_log(3, {"board": "fake-1"})


def _today():
    return datetime.date.today().strftime("%Y.%m.%d")


# -- names and the date ------------------------------------------------------------------

def test_pull_stamps_the_date_and_the_names(tmp_path, capsys, logged):
    board = FakeBoard(str(tmp_path), {1: logged[0]})
    dest = str(tmp_path / "pulled")
    try:
        assert cli.main(["logs", "pull", "--port", board.port, "--dest", dest,
                         "--names", "Anna", "Ben"]) == 0
    finally:
        board.unplug()
    capsys.readouterr()
    path = os.path.join(dest, "fake-1", "game-0001.log")
    assert open(path, "rb").read() == logged[0]        # the log itself is the board's
    assert gametags.read(path) == {"Date": _today(), "PlayerA": "Anna", "PlayerB": "Ben"}
    assert cli.main(["logs", "export", path]) == 0
    text = capsys.readouterr().out
    assert '[Date "%s"]' % _today() in text
    assert '[PlayerA "Anna"]\n[PlayerB "Ben"]' in text
    assert GameRecord.parse_text(text).turns == list(logged[1].record)


def test_tag_edits_the_tags_and_never_the_log(tmp_path, capsys, logged):
    path = tmp_path / "game-0001.log"
    path.write_bytes(logged[0])
    before = hashlib.sha256(logged[0]).hexdigest()
    assert cli.main(["logs", "tag", str(path), "--names", "Ada", "Bo", "--event",
                     "Club night", "--date", "2026.12.01"]) == 0
    out = capsys.readouterr().out
    assert 'PlayerA "Ada"' in out and 'Event "Club night"' in out
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before
    rec = gametags.load_tagged(str(path))
    assert (rec.tags["PlayerA"], rec.tags["PlayerB"], rec.tags["Event"], rec.tags["Date"]) \
        == ("Ada", "Bo", "Club night", "2026.12.01")
    assert rec.turns == list(logged[1].record)
    # a second tag keeps what it does not change
    assert cli.main(["logs", "tag", str(path), "--event", "Final"]) == 0
    capsys.readouterr()
    assert gametags.read(str(path))["PlayerA"] == "Ada"
    assert gametags.read(str(path))["Event"] == "Final"
    # the JSON export carries them too; `logs show` heads with them
    assert cli.main(["logs", "export", str(path), "--format", "json"]) == 0
    assert '"PlayerA": "Ada"' in capsys.readouterr().out


@pytest.mark.parametrize("args, piece", [
    (["--date", "yesterday"], "YYYY.MM.DD"),
    (["--date", "2026.13.45"], "a day of the calendar"),
    (["--date", "2026.02.29"], "a day of the calendar"),
    (["--date", "\uff12\uff10\uff12\uff16.\uff10\uff11.\uff10\uff15"], "YYYY.MM.DD"),
    (["--date", "\u0968\u0966\u0968\u0966.\u0966\u0967.\u0966\u096b"], "YYYY.MM.DD"),
    (["--names", "A\"x", "B"], None),
    ([], "nothing to change"),
])
def test_tag_checks_its_input(tmp_path, capsys, logged, args, piece):
    path = tmp_path / "g.log"
    path.write_bytes(logged[0])
    code = cli.main(["logs", "tag", str(path)] + args)
    err = capsys.readouterr().err
    if piece is None:
        assert code == 0   # quotes are escaped in the text form
        text = load_text(path)
        assert GameRecord.parse_text(text).tags["PlayerA"] == 'A"x'
    else:
        assert code == 2 and piece in err


def load_text(path):
    return gametags.load_tagged(str(path)).to_text()


def test_tag_of_a_file_that_is_not_a_game_is_refused(tmp_path, capsys):
    p = tmp_path / "junk.log"
    p.write_text("hello\n")
    assert cli.main(["logs", "tag", str(p), "--event", "x"]) == 2
    assert "not a tag" in capsys.readouterr().err
    assert not os.path.exists(gametags.sidecar(str(p)))


# -- pictures a player understands ---------------------------------------------------------

def test_caption_in_words(logged):
    rec = from_log(logged[0])
    s = rec.steps[0]
    cap = export.caption(s)
    dice = s.notation.split()[0]
    assert cap.startswith("Turn 1: A rolled %s %s, " % (dice[0], dice[1]))
    first = s.notation.split()[1]              # e.g. 5:R1-S18
    frm, to = first.split(":")[1].split("-")
    assert "%s to %s" % (frm, to.split("*")[0]) in cap
    goal = [st for st in rec.steps if "*" in st.notation][0]
    assert "scores" in export.caption(goal) and "back on" in export.caption(goal)
    moksha = type(s)(9, 1, "66 Moksha", s.position, [])
    assert export.caption(moksha) == "Turn 9: B rolled 6 6, no complete turn (Moksha)"


def test_turn_picture_has_arrows_dice_legend_and_words(logged):
    rec = from_log(logged[0])
    pics = export.pictures(rec)
    title, svg_text = pics[1]
    root = ET.fromstring(svg_text)
    ns = "{http://www.w3.org/2000/svg}"
    arrows = [e for e in root.iter(ns + "path") if e.get("class") == "move"]
    assert len(arrows) == len(rec.steps[0].notation.split()) - 1
    assert "Turn 1: A rolled" in title and "Turn 1: A rolled" in svg_text
    lit = [e for e in root.iter(ns + "circle") if e.get("class") == "pip"
           and e.get("data-lit") == "1"]
    d = rec.steps[0].notation.split()[0]
    assert len(lit) == int(d[0]) + int(d[1])
    legend = [e for e in root.iter(ns + "g") if e.get("class") == "legend"]
    assert legend and "fields of this turn" in ET.tostring(legend[0], encoding="unicode")
    # every hole label lies inside the picture and outside the board's frame
    frame = [e for e in root.iter(ns + "rect") if e.get("class") == "frame"][0]
    fx, fy = float(frame.get("x")), float(frame.get("y"))
    fw, fh = float(frame.get("width")), float(frame.get("height"))
    w, h = [float(v) for v in root.get("viewBox").split()[2:]]
    for e in root.iter(ns + "text"):
        if e.get("class") != "label":
            continue
        x, y = float(e.get("x")), float(e.get("y"))
        assert 0 < x < w and 0 < y < h
        for edge in (fy, fy + fh):   # not across the frame's top or bottom edge
            assert not (edge - 1.0 < y < edge + 4.0), (e.text, y, edge)
        for edge in (fx, fx + fw):
            assert not (edge - 4.0 < x < edge + 4.0), (e.text, x, edge)


def test_a_picture_renders_to_png(logged, tmp_path):
    rec = from_log(logged[0])
    png = export.svg_to_png(export.pictures(rec)[5][1])
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


# -- the whole game: GIF and HTML ------------------------------------------------------------

def test_export_gif_has_one_frame_per_turn(tmp_path, capsys, logged):
    from PIL import Image
    path = tmp_path / "g.log"
    path.write_bytes(logged[0])
    out = tmp_path / "game.gif"
    assert cli.main(["logs", "export", str(path), "--format", "gif", "--turns", "0-4",
                     "--out", str(out)]) == 0
    assert "wrote" in capsys.readouterr().out
    im = Image.open(str(out))
    assert im.format == "GIF" and im.n_frames == 5
    assert im.info.get("loop") == 0


def test_export_html_is_one_self_contained_file(tmp_path, capsys, logged):
    path = tmp_path / "g.log"
    path.write_bytes(logged[0])
    assert cli.main(["logs", "tag", str(path), "--names", "Anna", "Ben"]) == 0
    assert cli.main(["logs", "export", str(path), "--format", "html"]) == 0
    out = tmp_path / "g.html"
    text = out.read_text()
    n = len(logged[1].record)
    assert text.count("<svg ") == n + 1
    assert "<script>" in text and "ArrowRight" in text
    assert not re.search(r'(src|href)="(https?:)?//', text)   # nothing from the internet
    assert "Anna" in text and "Ben" in text
    assert "Turn 1: A (Anna) rolled" in text
