"""`samsara monitor`: a live picture of the board in the terminal, from its event
stream (docs/protocol.md "Events", docs/host-tool.md).

`Model` folds events and `position`/`status` replies into what is shown: the
position, the dice, the controller state, the fields of the last turn or the lifted
marble, and the last events.  `view(model)` draws it (boardview).  On a terminal the
picture is redrawn in place with rich's Live; into a pipe (or with --plain) each
event is one line and the board is printed after every turn.
"""
import json
import sys
import time

from samsara_host.hostproto import event_table, LOGGED
from samsara_host import boardlink
from samsara.states import ENDED
from samsara_host.argtypes import port_arg

REFRESH = tuple([name for name, _fields, flags in event_table() if flags & LOGGED]) + (
    "turn_complete", "boot", "resume")
"""Events after which the position and status are asked again, from the protocol's
event table (samsara_host.hostproto.event_table): every logged event (each one changes
the game), turn_complete (the state), boot and resume (a board (re)started).  The
others (lift, place, reject, the log's and the link's notices) change neither."""

PROBE_S = 2.0
"""Seconds without an event after which `status` is asked (is the loop alive?)."""
PROBE_TIMEOUT_S = 1.5
"""Seconds the board has to answer that probe before it counts as hung."""
HUNG_TEXT = "the board does not answer (its program hangs): unplug it and plug it in again"


class Model:
    """What the monitor knows about the board (updated by `event`, `position`,
    `status`)."""

    def __init__(self):
        from samsara.rules.position import Position
        self.position = Position()
        self.hello = {}
        self.state = "?"
        self.game = None
        self.dice = []
        self.record = []
        self.turns = 0          # the game's turns (the record holds only the last ones)
        self.committed = 0      # the board's count of them (`position`)
        self.highlight = set()
        self.lifted = []
        self.last = []          # the last events, newest last
        self.note = ""
        self.connected = True
        self.hung = False       # not connected because the board does not answer

    def event(self, ev):
        """Fold one event dict in; returns True when position/status should be asked."""
        from samsara.rules.geometry import position_index
        from samsara_host.boardview import turn_fields
        self.last.append(ev)
        del self.last[:-10]
        name = ev.get("ev")
        if name == "lift":
            try:
                self.lifted.append(position_index(ev.get("pos", "")))
            except ValueError:
                pass
        elif name == "place":
            self.lifted = []
        elif name == "roll" and isinstance(ev.get("dice"), list):
            self.dice = ev["dice"]
            self.highlight = set()
        elif name == "sub" and isinstance(ev.get("move"), str):
            self.highlight |= turn_fields("00 " + ev["move"])
            self.lifted = []
        elif name in ("turn", "turn_complete") and isinstance(ev.get("turn"), str):
            self.highlight = turn_fields(ev["turn"])
            self.note = "last turn: %s" % ev["turn"]
            self.dice = []
            if isinstance(ev.get("position"), str):
                self._set_position(ev["position"])
        elif name == "game_start":
            # a new game: nothing of the last one's turn is shown over it
            self.note = ""
            self.highlight = set()
            self.lifted = []
            self.dice = []
            if isinstance(ev.get("position"), str):
                self._set_position(ev["position"])
        elif name == "boot":
            self.hello.update({k: ev.get(k) for k in ("fw", "hash", "board", "proto")})
        return name in REFRESH

    def _set_position(self, text):
        from samsara.rules.position import Position, PositionError
        try:
            self.position = Position.parse(text)
        except PositionError:
            pass

    def position_reply(self, r):
        self._set_position(r.get("position", ""))
        self.state = r.get("state", self.state)
        if isinstance(r.get("record"), list):
            self.record = r["record"]
        t = r.get("turns")
        self.turns = t if isinstance(t, int) and not isinstance(t, bool) else len(self.record)
        self.committed = self.turns     # the board's count: without a turn not committed
        if self.state in ENDED:
            self.dice = []

    def status_reply(self, r):
        self.state = r.get("state", self.state)
        self.game = r.get("game")
        # a complete turn counts once played, though the board commits it at the next
        # roll (samsara_host.game_cmd.game_status counts it alike)
        self.turns = self.committed + (1 if self.state == "turn_complete"
                                       and isinstance(r.get("turn"), str)
                                       and r.get("turn") else 0)
        if isinstance(r.get("dice"), list):
            self.dice = r["dice"]
        if self.state in ENDED:
            self.dice = []      # the last roll's dice are no longer the game's


def event_text(ev, width=72):
    """One short line for an event: its name, then its fields but the time stamp."""
    parts = [str(ev.get("ev", "?"))]
    for k, v in ev.items():
        if k in ("ev", "t"):
            continue
        parts.append("%s=%s" % (k, json.dumps(v) if not isinstance(v, str) else v))
    text = " ".join(parts)
    return text if len(text) <= width else text[:width - 3] + "..."


def view(model, hint=True):
    """The rich renderable of the model; hint: say "Ctrl-C quits" (on a terminal)."""
    from rich.console import Group
    from rich.panel import Panel
    from rich.text import Text
    from samsara_host import boardview
    h = model.hello
    title = "Samsara board %s  fw %s (%s)" % (h.get("board", "?"), h.get("fw", "?"),
                                            h.get("hash", "?"))
    from samsara_host.movewords import headline
    words = headline({"state": model.state, "mover": "AB"[model.position.mover],
                      "dice": model.dice, "vs_board": None}) if model.state != "?" else ""
    head = Text("game %s   %s   turns %d" % (
        model.game if model.game is not None else "-", words, model.turns))
    if not model.connected:
        head.append("   %s: waiting for it ..." % (HUNG_TEXT if model.hung
                                                   else "board went away"),
                    style="bold red")
    pic = boardview.render(model.position, model.highlight | set(model.lifted),
                           dice=model.dice if len(model.dice) == 2 else None,
                           note=model.note or None)
    events = Text()
    for ev in model.last:
        if events:
            events.append("\n")
        events.append(event_text(ev), style="dim" if ev.get("ev") in ("lift", "place")
                      else "")
    return Panel(Group(head, pic, Text(""), Text("events", style="bold"), events),
                 title=title, subtitle="Ctrl-C quits" if hint else None, expand=False)


def add_parser(sub, name, help_text):
    from samsara_host.argtypes import seconds
    p = sub.add_parser(name, help=help_text, description=help_text)
    p.add_argument("--port", type=port_arg, help="serial port or pyserial URL (default: auto-detect)")
    p.add_argument("--plain", action="store_true",
                   help="one line per event, the board after each turn (also when not "
                        "a terminal)")
    p.add_argument("--seconds", type=seconds, default=None,
                   help="stop after this many seconds, 0: once the board's state is "
                        "shown (default: until Ctrl-C)")
    p.set_defaults(func=run)


def refresh(client, model):
    model.position_reply(client.request("position"))
    model.status_reply(client.request("status"))


def run(args, console=None, clock=time.monotonic):
    from rich.console import Console
    from rich.live import Live
    console = console or Console()
    state = boardlink.State(args.port)
    model = Model()
    try:
        model.hello = dict(state.hello())
        game = model.hello.get("game")
        if game:
            state.close()
            print("samsara monitor: the board %s plays %s, not Samsara: `samsara app "
                  "--game %s --board %s` follows its game (docs/app.md)"
                  % (model.hello.get("board"), game.capitalize(), game, args.port or "PORT"),
                  file=sys.stderr)
            return 2
        refresh(state.client, model)
    except boardlink.LinkError as e:
        state.close()
        print("samsara monitor: %s" % boardlink.explain(e), file=sys.stderr)
        return 1
    plain = args.plain or not console.is_terminal
    end = clock() + args.seconds if args.seconds is not None else None
    live = None
    if plain:
        console.print(view(model, hint=console.is_terminal))
    else:
        live = Live(view(model), console=console, refresh_per_second=10, transient=False)
        live.start()
    heard = clock()
    try:
        while end is None or clock() < end:
            try:
                evs = state.client.poll_events(0.1)
                if evs:
                    heard = clock()
                elif clock() - heard > PROBE_S:
                    # Quiet for a while: is the loop still alive?  A hung board (its
                    # program stuck) keeps the port open and says nothing.
                    state.client.request("status", timeout=PROBE_TIMEOUT_S)
                    heard = clock()
                ask = False
                for ev in evs:
                    ask = model.event(ev) or ask
                    if plain:
                        console.print(json.dumps(ev), soft_wrap=True)
                if ask:
                    refresh(state.client, model)
                    if plain and any(e.get("ev") in ("turn", "boot", "resume") for e in evs):
                        from samsara_host import boardview
                        console.print(boardview.render(model.position, model.highlight,
                                                       note=model.note or None))
                model.connected = True
            except (boardlink.Disconnected, boardlink.NoReply) as e:
                state.close()
                model.connected = False
                model.hung = isinstance(e, boardlink.NoReply)
                if plain:
                    console.print(HUNG_TEXT + "; waiting for it ..." if model.hung
                                  else "board went away; waiting for it ...")
                if live:
                    live.update(view(model))
                while end is None or clock() < end:
                    time.sleep(0.5)
                    try:
                        model.hello = dict(state.hello(timeout=1.0))
                        refresh(state.client, model)
                        model.connected = True
                        model.hung = False
                        heard = clock()
                        if plain:
                            console.print("board is back")
                        break
                    except boardlink.LinkError:
                        state.close()
            if live:
                live.update(view(model))
    except KeyboardInterrupt:
        if live:
            live.stop()
            live = None
        print("samsara monitor: stopped; it keeps nothing (`--plain | tee FILE` keeps the "
              "events); the board plays on and its game is in its own log "
              "(`samsara logs pull`)", file=sys.stderr)
        return 130     # Ctrl-C, as every command (docs/cli.md "Exit codes")
    finally:
        if live:
            live.stop()
        state.close()
    return 0
