"""Sensor traces: read, check, write and replay (docs/traces.md, issue 3 §5).

A trace is a JSON-lines file, one input per line, in time order (equal times keep file
order):

    {"start": "<position string>", "opponent_goal": "owner_scores", "seed": 7}
                                          optional first line (every key optional)
    {"t_ms": 1520.0, "pos": "R5", "on": false}     raw sensor change, before debounce
    {"t_ms": 1800.0, "dice": [3, 5]}               values of the next roll (host-set)
    {"t_ms": 1800.0, "button": "roll"}             a press; "undo"; optional "long": true

The trace begins with the board settled in its start position: the marbles on their
fields and each scoring piece on the field of its score.  `replay()` feeds it through
the firmware's Board with the default settings (samsara.config.Config) at its scan
period on a virtual clock (samsara_host.sim.driver) and returns the result object of
docs/traces.md.
"""
import json
import re

from samsara.rules.geometry import position_index, position_name
from samsara.rules.position import Position, PositionError, START
from samsara.rules import moves as rules
from samsara import states

HEADER_KEYS = ("start", "opponent_goal", "seed", "dice_mode", "scan_ms", "settle_ms", "frame",
               "board")
BUTTONS = ("roll", "undo", "hint")
MAX_T_MS = 1e9  # the latest time a trace may name (about 11.6 days of board time)


class TraceError(ValueError):
    """A trace line that is not in the trace format; the message names the line."""


def _fail(n, msg):
    raise TraceError("line %d: %s" % (n, msg))


def _number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and v == v


def check_line(obj, n, first, last_t):
    """Check one parsed line (n: its 1-based number; first: True for the first line;
    last_t: the previous line's time).  Returns the line's kind: 'header', 'raw',
    'dice' or 'button'.  Raises TraceError naming the problem."""
    if not isinstance(obj, dict):
        _fail(n, "each line must be a JSON object")
    if "t_ms" not in obj:
        if not first:
            _fail(n, "missing \"t_ms\" (only the first line may be a header)")
        extra = [k for k in obj if k not in HEADER_KEYS]
        if extra:
            _fail(n, "unknown header key %r (known: %s)" % (extra[0], ", ".join(HEADER_KEYS)))
        if "start" in obj:
            try:
                p = Position.parse(obj["start"])
            except PositionError as e:
                _fail(n, "bad start position: %s" % e)
            if p.a == 6 or p.b == 6:
                _fail(n, "start position is already over: a score of 6 ends a single game")
        if "opponent_goal" in obj:
            try:
                rules.option_code(obj["opponent_goal"])
            except ValueError as e:
                _fail(n, str(e))
            if not isinstance(obj["opponent_goal"], str):
                _fail(n, "opponent_goal must be 'owner_scores' or 'forbidden'")
        if "seed" in obj and (type(obj["seed"]) is not int or obj["seed"] < 0):
            _fail(n, "seed must be a non-negative integer")
        _check_flight_header(obj, n)
        return "header"
    t = obj["t_ms"]
    if not _number(t) or t < 0:
        _fail(n, "t_ms must be a number >= 0, got %r" % (t,))
    if t > MAX_T_MS:  # also Infinity, and an int too large for a float
        _fail(n, "t_ms must be at most %d ms (10^9), got %s" % (MAX_T_MS, repr(t)[:24]))
    if last_t is not None and t < last_t:
        _fail(n, "time goes backwards (%r ms after %r ms)" % (t, last_t))
    keys = set(obj) - {"t_ms"}
    if "pos" in keys:
        if keys != {"pos", "on"}:
            _fail(n, "a sensor change has exactly t_ms, pos and on")
        try:
            position_index(obj["pos"])
        except ValueError as e:
            _fail(n, str(e))
        if not isinstance(obj["on"], bool):
            _fail(n, "on must be true or false")
        return "raw"
    if "dice" in keys:
        if keys != {"dice"}:
            _fail(n, "a dice line has exactly t_ms and dice")
        d = obj["dice"]
        if (not isinstance(d, list) or len(d) != 2
                or any(type(v) is not int or not 1 <= v <= 6 for v in d)):
            _fail(n, "dice must be a list of two integers 1..6, got %s" % json.dumps(d))
        return "dice"
    if "button" in keys:
        if not keys <= {"button", "long"}:
            _fail(n, "a button line has t_ms, button and optionally long")
        if obj["button"] not in BUTTONS:
            _fail(n, "button must be 'roll', 'undo' or 'hint' (the host's hint), got %r"
                  % (obj["button"],))
        if "long" in obj and not isinstance(obj["long"], bool):
            _fail(n, "long must be true or false")
        return "button"
    _fail(n, "a line needs pos/on, dice or button")


def _check_flight_header(obj, n):
    # The header keys a trace pulled from a board's flight recorder adds (docs/traces.md).
    from samsara.config import DICE_SOURCES
    if "dice_mode" in obj and obj["dice_mode"] not in DICE_SOURCES:
        _fail(n, "dice_mode must be electronic, manual or host")
    if "scan_ms" in obj and (type(obj["scan_ms"]) is not int or not 1 <= obj["scan_ms"] <= 100):
        _fail(n, "scan_ms must be an integer 1..100")
    if "settle_ms" in obj:
        v = obj["settle_ms"]
        if (not isinstance(v, list) or len(v) != 3
                or any(type(x) is not int or not 0 <= x <= 10000 for x in v)):
            _fail(n, "settle_ms must be [lift, place, return], integers 0..10000")
    if "frame" in obj:
        v = obj["frame"]
        if not isinstance(v, str) or not re.fullmatch("[0-9a-f]{16}", v):
            _fail(n, "frame must be 16 lowercase hex digits (docs/frames.md)")
    if "board" in obj and not isinstance(obj["board"], str):
        _fail(n, "board must be a string")


class Trace:
    """A checked trace: `header` (dict, possibly empty) and `lines` (list of the input
    dicts after the header, in file order)."""

    def __init__(self, header=None, lines=None):
        self.header = dict(header or {})
        self.lines = list(lines or [])

    @property
    def start(self):
        """The start Position (the header's, else the rules' start with A to move)."""
        s = self.header.get("start")
        return Position.parse(s) if s else START

    @property
    def opponent_goal(self):
        return self.header.get("opponent_goal", "owner_scores")

    def end_ms(self):
        """Time of the last input (0 for an empty trace)."""
        return self.lines[-1]["t_ms"] if self.lines else 0.0


def parse(text):
    """Parse trace text (JSON lines; blank lines are skipped) into a Trace; bytes
    must be UTF-8.  Raises TraceError naming the first bad line."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as e:
            _fail(text.count(b"\n", 0, e.start) + 1, "not UTF-8 text")
    header = {}
    lines = []
    last_t = None
    first = True
    for n, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except ValueError as e:
            _fail(n, "not JSON: %s" % e)
        except RecursionError:
            _fail(n, "JSON nested too deeply")
        kind = check_line(obj, n, first, last_t)
        first = False
        if kind == "header":
            header = obj
        else:
            last_t = obj["t_ms"]
            lines.append(obj)
    return Trace(header, lines)


def load(path):
    """Read and parse the trace file at `path`.  Raises OSError, TraceError (also for
    an empty file, and for a game log or game record, which it names)."""
    with open(path, "rb") as f:
        data = f.read()
    if not data.strip():
        raise TraceError("the file is empty: a trace has at least one line (docs/traces.md)")
    kind = other_kind(data)
    if kind:
        raise TraceError(kind)
    return parse(data)


def other_kind(data):
    """A sentence naming the command for `data` (file bytes) when it is a game log or
    a game record rather than a trace, else None."""
    from boardcore.storage import logrecord
    if data[:1] == bytes([logrecord.SYNC]):
        return "this looks like a game log: use samsara logs export (or logs show)"
    head = data.lstrip()[:200]
    if head.startswith(b"[") and b'"]' in head.split(b"\n", 1)[0] \
            or re.match(rb'\{\s*"format"\s*:\s*"samsara-record"', head) \
            or head.startswith(b"1. ") or head.startswith(b"  1. "):
        return ("this looks like a game record: use samsara logs export or samsara "
                "logs show")
    return None


def dumps_line(obj):
    """One trace line as text (compact, keys in the documented order)."""
    if "t_ms" not in obj:
        return json.dumps(obj)
    order = ("t_ms", "pos", "on", "dice", "button", "long")
    items = [(k, obj[k]) for k in order if k in obj]
    return "{" + ", ".join("%s: %s" % (json.dumps(k), json.dumps(v)) for k, v in items) + "}"


def dumps(trace):
    """The trace as JSON-lines text (header first when it has keys)."""
    out = []
    if trace.header:
        out.append(json.dumps(trace.header))
    for line in trace.lines:
        out.append(dumps_line(line))
    return "\n".join(out) + "\n"


def save(path, trace):
    """Write `trace` to `path`."""
    with open(path, "w") as f:
        f.write(dumps(trace))


def start_occupancy(position):
    """Position indexes that read "on" in the settled start of a trace: the marbles'
    fields and each scoring piece on the field of its score (A0/B0 at 0, AC/BC at 6)."""
    from samsara.rules.geometry import score_position
    out = [p for p in range(48) if position.occupied(p)]
    out.append(score_position(0, position.a))
    out.append(score_position(1, position.b))
    return out


# -- replay -------------------------------------------------------------------------

def default_config(trace):
    """The firmware's default settings with the trace's rule option and dice seed."""
    from samsara.config import Config
    kw = {"opponent_goal": trace.opponent_goal}
    h = trace.header
    if "seed" in h:
        kw["seed"] = h["seed"]
    if "dice_mode" in h:
        kw["dice"] = h["dice_mode"]
    if "scan_ms" in h:
        kw["scan_ms"] = h["scan_ms"]
    if "settle_ms" in h:
        kw["settle_lift_ms"], kw["settle_place_ms"], kw["return_ms"] = h["settle_ms"]
    return Config(**kw)


class Replay:
    """The outcome of replaying a trace: `board` (the Board at the end), `events`
    ((t_ms, event dict) in order), `ticks` (ticks run), `end_ms` (time of the last
    tick), and `result()`, the object of docs/traces.md."""

    def __init__(self, trace, board, driver):
        self.trace = trace
        self.board = board
        self.events = driver.events
        self.ticks = driver.ticks
        self.end_ms = driver.now

    def turns(self):
        out = [e["turn"] for _t, e in self.events if e["ev"] == "turn"]
        c = self.board.controller
        if c.state == states.TURN_COMPLETE:
            out.append(c.turn_notation())
        return out

    def rejected(self):
        return [{"t_ms": float(t), "reason": e["reason"]} for t, e in self.events
                if e["ev"] == "reject"]

    def game_result(self):
        for _t, e in self.events:
            if e["ev"] == "game_over":
                return {"winner": e["winner"], "how": e["how"], "score": e["score"]}
        return None

    def scene(self):
        """{LED or position name: colour name} of every lit LED of the final scene."""
        return scene_dict(self.board.scene)

    def result(self):
        c = self.board.controller
        return {
            "turns": self.turns(),
            "rejected": self.rejected(),
            "final_position": c.position().format(),
            "state": c.state,
            "result": self.game_result(),
            "scene": self.scene(),
        }


def scene_dict(scene):
    """{name: colour name} of the lit LEDs of a scene (bytearray(240), logical LED
    order): positions by their names, the dice pips D1.0..D1.6 and D2.0..D2.6, the turn
    indicators TA and TB (docs/traces.md); colours as samsara.scene.colour_name."""
    from samsara.scene import colour_name, N_LEDS
    from samsara_hw.names import led_name
    out = {}
    for i in range(N_LEDS):
        r, g, b = scene[3 * i], scene[3 * i + 1], scene[3 * i + 2]
        if r or g or b:
            out[led_name(i)] = colour_name(r, g, b)
    return out


def scene_rgb(scene):
    """{name: '#rrggbb'} of the lit LEDs of a scene, brightened for pictures by the
    same gain as the terminal view (samsara_host.live.GAIN)."""
    from samsara.scene import N_LEDS
    from samsara_hw.names import led_name
    from samsara_host.live import led_rgb
    out = {}
    for i in range(N_LEDS):
        rgb = led_rgb(scene, i)
        if rgb is not None:
            out[led_name(i)] = "#%02x%02x%02x" % rgb
    return out


def replay(trace, config=None, on_tick=None):
    """Feed `trace` (a Trace) through a Board with `config` (default: default_config)
    on the virtual clock of samsara_host.sim.driver, past the last input until the
    board is idle.  Returns a Replay."""
    from samsara.core import Board
    from samsara_host.sim.driver import Driver, frame_of
    cfg = config if config is not None else default_config(trace)
    board = Board(cfg)
    start = trace.start
    if "frame" in trace.header:   # the settled frame at the start (a pulled flight trace)
        from samsara.frame import from_hex
        frame = from_hex(trace.header["frame"])
        board.new_game(start, now_ms=0, frame=bytearray(frame))
    else:
        frame = frame_of(start_occupancy(start))
        board.new_game(start, now_ms=0)
    drv = Driver(board, cfg.scan_ms, frame, on_tick=on_tick)
    for line in trace.lines:
        t = float(line["t_ms"])
        if "pos" in line:
            drv.push_raw(t, position_index(line["pos"]), line["on"])
        elif "dice" in line:
            drv.push_dice(t, line["dice"][0], line["dice"][1])
        else:
            drv.push_button(t, line["button"], line.get("long", False))
    drv.run_out()
    return Replay(trace, board, drv)
