"""The Online page's own game (docs/app.md "Online", docs/online.md): host or join an
online game with the board the app is connected to.  Its one job is to run the
command line's bridge (samsara_host.online.bridge.Bridge, the same code as `samsara
online host|join`) on a thread of the app, with the board reached through the app's
BoardWatch (the port's one holder) instead of a port of its own, and to keep what the
page shows: the code to read out, the bridge's lines, the game's progress.

    games = OnlineGames(watch)                       # one per app
    games.configure(broker="mqtt://HOST:1883", ca_file=None, folder=None)
    games.start({"role": "host", "broker": URL, "side": "A", "name": "Anna"})
    games.state()                                    # the page's dict
    games.stop()
"""
import queue
import threading
import time

from samsara_host import boardlink
from samsara_host.gametags import TagError, check_text

LINES = 60
"""The bridge's last lines the page shows."""


class OnlineError(ValueError):
    """A request the page should not have sent; str() says why in a player's words."""


class OnlineRefused(OnlineError):
    """A game that cannot start now (no board, one already on); str() says why."""


class WatchedBoard:
    """The near board as a Bridge wants it (request, poll_events, close), through
    BoardWatch `watch`: each request is the watch's `request` job, the events come
    from its listeners.  Raises what BoardClient.request raises (BoardError, NoReply,
    a LinkError when there is no board)."""

    def __init__(self, watch):
        self.watch = watch
        self.q = queue.Queue(maxsize=5000)
        self._fn = watch.listen(self._put)

    def _put(self, ev):
        try:
            self.q.put_nowait(ev)
        except queue.Full:
            pass                  # the bridge looks again at least once a second

    def request(self, name, timeout=2.0, **args):
        fut = self.watch.submit("request", name, args, timeout)
        try:
            return fut.result(timeout + 10.0)
        except TimeoutError:
            raise boardlink.NoReply("no answer to %r within %.1f s" % (name, timeout))

    def poll_events(self, timeout):
        out = []
        try:
            out.append(self.q.get(timeout=timeout))
            while True:
                out.append(self.q.get_nowait())
        except queue.Empty:
            pass
        return out

    def close(self):
        self.watch.unlisten(self._fn)


def check_request(body, default_broker=None, ca_file=None):
    """The checked start of a game from the page's body: {"role": "host"|"join",
    "broker": URL (default the app's --broker), "side": "A"|"B" (host), "code" (join;
    a host's to go on with a stopped game), "name", "public" (host)}.  Returns (role,
    Broker, side, code, name, public); raises OnlineError naming what is wrong."""
    from samsara_host.online.code import CodeError, parse_code
    from samsara_host.online.mqtt import BrokerError, parse_broker
    from samsara_host.online import NAME_MAX
    role = body.get("role")
    if role not in ("host", "join"):
        raise OnlineError("host or join, not %r" % (role,))
    url = body.get("broker") or default_broker
    if not isinstance(url, str) or not url.strip():
        raise OnlineError("give the broker: mqtt://HOST:PORT (docs/online.md)")
    try:
        broker = parse_broker(url, ca_file if url.strip().startswith("mqtts:") else None)
    except BrokerError as e:
        raise OnlineError("the broker: %s" % e)
    side = body.get("side")
    if role == "host" and side not in ("A", "B"):
        raise OnlineError("the side you play is A or B, not %r" % (side,))
    code = body.get("code") or None
    if role == "join" and not code:
        raise OnlineError("give the code the host read out to you")
    if code is not None:
        try:
            parse_code(code)
        except (CodeError, TypeError) as e:
            raise OnlineError("the code: %s" % e)
    try:
        name = check_text(body.get("name") or "", "your name", NAME_MAX)
    except TagError as e:
        raise OnlineError(str(e))
    return role, broker, side if role == "host" else None, code, name, \
        bool(body.get("public")) and role == "host"


class OnlineGames:
    """At most one online game of this app at a time (module docstring).  watch: the
    app's BoardWatch (None: no board, nothing can start)."""

    def __init__(self, watch, clock=time.monotonic):
        self.watch = watch
        self.clock = clock
        self.broker = None          # the app's --broker: the page's default
        self.ca_file = None
        self.folder = None
        self.refuse = None          # why no game can start here (configure)
        self.lock = threading.Lock()
        self.game = None            # the running or last game: _Game

    def configure(self, broker=None, ca_file=None, folder=None, refuse=None):
        """The app's --broker (offered on the page), --ca and the game files' folder;
        refuse: why no online game can be played with this app's board (None: it can)."""
        self.broker = broker
        self.ca_file = ca_file
        self.folder = folder
        self.refuse = refuse

    def start(self, body):
        """Start hosting or joining (check_request's body).  Returns state().  Raises
        OnlineError for a bad request, OnlineRefused without a board or while a game
        runs."""
        role, broker, side, code, name, public = check_request(body, self.broker,
                                                               self.ca_file)
        if self.refuse:
            raise OnlineRefused(self.refuse)
        if self.watch is None:
            raise OnlineRefused("No board is connected: an online game is played on a "
                              "board (start the app with a board or --virtual --idle).")
        with self.lock:
            if self.game is not None and self.game.running():
                raise OnlineRefused("A game is already on (%s): stop it first."
                                  % self.game.code_or_id())
            from samsara_host.online.code import new_code
            self.game = _Game(self.watch, role, broker, side, code or new_code(), name,
                              public, self.folder)
            self.game.start()
        return self.state()

    def blocks_new_game(self):
        """Why the board cannot start a new game from the live page now, in words (an
        online game is on: a new game would end it on this board and leave the far
        player waiting), or None."""
        g = self.game
        if g is None or not g.running():
            return None
        far = None
        b = g.bridge
        if b is not None and b.side in ("A", "B"):
            far = (b.progress.get("names") or {}).get("B" if b.side == "A" else "A")
        return ("An online game is on (game %s%s): a new game would end it on this board. "
                "Stop it on the Online page first (it is kept: host or join again with "
                "the code to go on)." % (g.game_id(), " with %s" % far if far else ""))

    def blocks_far_turn(self):
        """Why Undo and Hint are off on the live page now, in words (an online game is
        on and the board's roll is the far player's: Undo would take back a sub-move of
        the far player's turn, lit and insisted on by the board, and a Hint would
        suggest another), or None.  From the board's state as the bridge last looked
        (Bridge.bs: the player whose roll it is)."""
        g = self.game
        if g is None or not g.running():
            return None
        b = g.bridge
        bs = getattr(b, "bs", None) if b is not None else None
        if not bs or b.side not in ("A", "B") or bs.get("state") in ("game_over", "moksha"):
            return None
        far = "B" if b.side == "A" else "A"
        if bs.get("mover") != far:
            return None
        name = (b.progress.get("names") or {}).get(far) or "the far player"
        return ("It is %s's turn in online game %s: Undo and Hint are off until the board "
                "has carried it out (carry out the sub-moves it lights)." % (name, g.game_id()))

    def stop(self):
        """Stop the running game's bridge (its file stays: host or join again with the
        same code goes on at the same turn).  Returns state()."""
        g = self.game
        if g is not None:
            g.stop()
        return self.state()

    def state(self):
        """The page's dict: {"broker": the default, "game": None or {role, code
        (host: the whole code to read out; join: the game's id), broker, name, state
        ("starting", "playing", "over", "stopped", "failed"), error, lines, progress
        (Bridge.progress)}}."""
        g = self.game
        return {"broker": self.broker, "board": self.watch is not None,
                "game": None if g is None else g.state()}

    def close(self):
        """Stop a running game (the app ends)."""
        g = self.game
        if g is not None:
            g.stop(wait_s=5.0)


class _Game:
    """One bridge on its thread."""

    def __init__(self, watch, role, broker, side, code, name, public, folder):
        self.watch = watch
        self.role = role
        self.broker = broker
        self.side = side
        self.code = code
        self.name = name
        self.public = public
        self.folder = folder
        self.lines = []
        self.status = "starting"
        self.error = None
        self.bridge = None
        self.turns = None
        self._halt = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True, name="online-game")

    def start(self):
        self.thread.start()

    def running(self):
        return self.thread.is_alive()

    def game_id(self):
        from samsara_host.online.code import parse_code
        return parse_code(self.code)[0]

    def code_or_id(self):
        return self.code if self.role == "host" else self.code[:4].upper()

    def _say(self, text):
        self.lines = (self.lines + [text])[-LINES:]
        if self.status == "starting" and text.startswith(("game ", "resuming")):
            self.status = "playing"

    def _log(self, text):
        self._say("(bridge) %s" % text)

    def _run(self):
        from samsara_host.online.bridge import Bridge, BridgeError
        from samsara_host.online.cmd import connect_factory
        board = WatchedBoard(self.watch)
        try:
            self.bridge = Bridge(board, connect_factory(self.broker, "samsara-app"),
                                 self.code, side=self.side, name=self.name,
                                 folder=self.folder, public=self.public, say=self._say,
                                 log=self._log)
            n = self.bridge.run(stop=self._halt.is_set)
            if n is None:
                self.status = "stopped"
                self._say(self._stopped_words())
            else:
                self.turns = n
                self.status = "over"
                self._say("played: %d turns, game over" % n)
        except (BridgeError, boardlink.LinkError) as e:
            self.status = "failed"
            self.error = str(e)
            self._say("failed: %s" % e)
        except Exception as e:        # a bug: said on the page, not a dead thread
            self.status = "failed"
            self.error = "the bridge failed: %s: %s" % (e.__class__.__name__, e)
            self._say(self.error)
        finally:
            if self.bridge is not None:
                self.bridge.conn.stop()
            board.close()

    def _stopped_words(self):
        # The line of a bridge stopped from the page: what was kept, and the broker
        # if it could not be reached.
        b = self.bridge
        trouble = getattr(b.conn, "trouble", None)
        up = getattr(b.conn, "connected", None)
        unreached = " (the broker could not be reached: %s)" % trouble.replace(
            "; trying again", "").replace("? trying again", "?") \
            if trouble and up is not None and not up.is_set() else ""
        if b.peer is None:
            return "stopped before game %s was found on the broker%s: nothing was kept" \
                % (b.gid, unreached)
        return "stopped%s; the game is kept: host or join again with the same code to " \
            "go on" % unreached

    def stop(self, wait_s=10.0):
        self._halt.set()
        if self.thread.is_alive():
            self.thread.join(wait_s)

    def state(self):
        from samsara_host.online.code import parse_code
        gid, _secret = parse_code(self.code)
        b = self.bridge
        return {"role": self.role, "code": self.code if self.role == "host" else gid,
                "game": gid, "broker": self.broker.url(), "name": self.name,
                "side": (b.side if b is not None else None) or self.side,
                "public": self.public, "state": self.status, "error": self.error,
                "lines": list(self.lines),
                "progress": dict(b.progress) if b is not None else None}
