"""The live page's hands on the app's own Samas or Schaska virtual board (docs/app.md
"Live board: Samas and Schaska"): a virtual board has no pieces to touch, so a click
on the page does what a hand does at the board, and nothing more: it changes what the
board's sensors read, or presses a button, as feed lines of the virtual board
(samsara_host.vboard.vdrivers).  The board then checks everything as it checks a
person's hands (a wrong move is its refusal or its red LEDs); nothing here knows the
rules.  Its one job is turning a click into feed lines, and the sensors back into
what the page draws.

    lines, words = hand_lines("samas", {"place": "A1"}, sensed)   # a stone into A's tray
    lines, words = hand_lines("samas", {"button": "A"}, sensed)   # A presses Ready
    lines, words = hand_lines("schaska", {"field": 5}, sensed)    # lift or put a figure

What a click does (firmware/samas/places.py, firmware/schaska/places.py):

  Samas    a tray hole ("A1".."A3", "AJ", "B1".."B3", "BJ"): a stone (or the joker)
           put in, or taken out when there is one; a hollow ("H1".."H9"): the
           Sama-stone on it lifted, or one put on an empty hollow (the stone in the
           hand).  The hollows sense a stone, not two: a click on the one hollow
           where both Sama-stones stand lifts one of them, which no sensor reads, so
           it sends nothing and says so; the next click puts it down.  With one
           Sama-stone in the hand (one hollow sensed, holding one stone), a click on
           that hollow puts the held stone there too: its sensor stays on, and the
           page is told both stand there.
  Schaska  a field (1..n): the figure on it lifted, or one put on an empty field
           (the figure in the hand, or one from the start).  The starts and homes
           are not sensed: a figure brought home or back to its start is only
           lifted.
  Both     {"button": "A"|"B", "long": true|false}: A's or B's button (Samas: Ready; a long
           press of either starts a new game once one is over).

`sensed`: the sensor positions on now (VirtualBoard.sensed, as positions).  Raises
BadRequest (app.control) for a place or button that is not one of the board's.
"""
from samas.places import N_PLACES, place_index, place_name, hollow_pos, TRAY, \
    TRAY_STONE_HOLES, JOKER_HOLE
from schaska.places import MAX_FIELDS, field_pos
from samsara.rules.geometry import position_index, position_name
from samsara_host.app.control import BadRequest

SAMAS_PLACES = "a hollow H1..H9 or a tray hole A1..A3, AJ (A's joker), B1..B3, BJ"
"""What a place of the Samas board is, in words."""

BUTTON = {"A": "roll", "B": "undo"}
"""The virtual board's button line of A's and B's button (the driver's names: the
Samas board's Ready buttons, firmware/samas/places.py READY_BUTTON)."""


def positions(names):
    """The sensor positions (ints 0..63) of VirtualBoard.sensed's position names."""
    out = set()
    for n in names:
        try:
            out.add(position_index(n))
        except ValueError:
            pass
    return out


def _line(p, on):
    # a sensor line of the feed file: the sensor chain's position p by its name
    return {"pos": position_name(p), "on": bool(on)}


def _button(body):
    side = body.get("button")
    if side not in BUTTON:
        raise BadRequest("a button is A's or B's, not %r" % (side,))
    long = body.get("long", False)
    if not isinstance(long, bool):
        raise BadRequest('"long" (a long press) is true or false, not %r' % (long,))
    return [{"button": BUTTON[side], "long": long}], ""


def _two_on(h, sensed, standing, memory):
    # whether the one sensed hollow h holds both Sama-stones: as the page's last
    # click left it (memory, while the sensors read the same), else as the game has
    # them stand
    if memory is not None and memory.get("hollows") == _hollows(sensed):
        return memory["two"]
    return bool(standing) and standing.get("A") == h == standing.get("B")


def _hollows(sensed):
    # the hollows (1..9) sensed
    return tuple(h for h in range(1, 10) if hollow_pos(h) in sensed)


def _remember(memory, sensed, two):
    if memory is not None:
        memory.clear()
        memory.update(hollows=_hollows(sensed), two=two)


def hand_lines(game, body, sensed, standing=None, memory=None, n_fields=MAX_FIELDS):
    """(feed lines, words) of one click of the page's hand on the app's own virtual
    board of `game` ("samas" or "schaska"), body as module docstring, sensed: the
    set of sensor positions on now.  standing (Samas): the hollows the two
    Sama-stones stand on now ({"A": h, "B": h}, GameLiveModel.standing), which tells
    a hollow holding both.  memory (Samas): a dict the caller keeps between clicks
    ({} at first), where a click the sensors do not show (a second Sama-stone put on
    a hollow, or one of two lifted) is remembered while the hollows read the same.
    n_fields (Schaska): the fields of the game's track (its layout's length).  words:
    "" or what the click did that the sensors do not show.  Raises BadRequest for a
    bad body (a place or field that is not the board's, "long" not a bool)."""
    if not isinstance(body, dict):
        raise BadRequest("a hand's click is a JSON object")
    if "button" in body:
        return _button(body)
    if game == "samas":
        name = body.get("place")
        if name is None:
            raise BadRequest('a click on the Samas board names its place: {"place": P}, '
                             "P %s" % SAMAS_PLACES)
        try:
            p = place_index(name)
        except (ValueError, TypeError):
            raise BadRequest("no place %r on the Samas board: a place is %s"
                             % (name, SAMAS_PLACES))
        if p < 9 and p in sensed:
            h = p + 1
            on = [q for q in range(9) if hollow_pos(q + 1) in sensed]
            if on == [p]:
                # the one hollow sensed: it holds both Sama-stones (one is lifted) or
                # one (the other is in the hand, and is put here)
                if _two_on(h, sensed, standing, memory):
                    _remember(memory, sensed, False)
                    return [], ("Both Sama-stones stand on hollow %d: one is in your hand; "
                                "click the hollow it goes to" % h)
                _remember(memory, sensed, True)
                return [], ("The Sama-stone in your hand is put on hollow %d: both "
                            "Sama-stones stand there now (its sensor reads one stone)" % h)
        return [_line(p, p not in sensed)], ""
    if game == "schaska":
        f = body.get("field")
        if isinstance(f, str) and f.isdigit():
            f = int(f)
        if not isinstance(f, int) or isinstance(f, bool) or not 1 <= f <= n_fields:
            raise BadRequest("a field of this Schaska board is 1..%d, not %r"
                             % (n_fields, body.get("field")))
        p = field_pos(f)
        return [_line(p, p not in sensed)], ""
    raise BadRequest("the page's hands play Samas or Schaska here, not %r" % (game,))


def sensed_view(game, sensed, n_fields=MAX_FIELDS):
    """What the sensors read, for the page's drawing: Samas {"hollows": [h, ...],
    "trays": {"A": ["1", "J", ...], "B": [...]}} (each tray's occupied holes: stone
    holes "1".."3", the joker hole "J"), Schaska {"fields": [f, ...]} (fields 1..n_fields
    holding a figure).  The trays are the players' secret choices: the page draws
    each behind its screen (docs/app.md)."""
    if game == "samas":
        trays = {}
        for side, who in enumerate("AB"):
            held = [str(i + 1) for i in range(TRAY_STONE_HOLES) if TRAY[side] + i in sensed]
            if JOKER_HOLE[side] in sensed:
                held.append("J")
            trays[who] = held
        return {"hollows": [h for h in range(1, 10) if hollow_pos(h) in sensed],
                "trays": trays}
    return {"fields": [f for f in range(1, n_fields + 1) if field_pos(f) in sensed]}


PLACES = [place_name(p) for p in range(N_PLACES)]
"""Every place of the Samas board a hand can click, by name."""
