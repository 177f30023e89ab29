"""The app's web server (docs/app.md): aiohttp on 127.0.0.1, the pages as static files
(static/), a JSON API and the live page's server-sent events.  Its one job is HTTP:
the board is reached only through the BoardWatch thread (boardwatch.py), the library
through library.py, games in the page through playgame.py (Samas and Schaska:
playsamas.py, playschaska.py).

    srv = AppServer(logs_dir, watch=None)   # watch: a BoardWatch, or None (no board)
    url = srv.start(port)                   # serves in its own thread; returns the URL
    srv.stop()

Routes: pages `/` (live), `/library`, `/replay/<board>/<game>`, `/play`, `/board`;
`/api/holes` (svg.hole_points: where each hole is
drawn), `/api/live` (the snapshot), `/api/live/turn/<n>` (turn n of the live game drawn
as the replay draws it: app/liveturns.py; 404 with words when it is not known), `/api/live/events` (text/event-stream: one `data:` line
of the snapshot's JSON per change), `/api/live/new|roll|undo|hint` (POST: the board's
game from the page, app/control.py; 409 with the board's refusal in words),
`/api/live/hand` (POST: the page's hand on the app's own virtual board: {"hole"} of
Samsara's, {"place"|"field"|"button"} of Samas's or Schaska's, app/gamehands.py),
`/api/live/names` (POST {"names": [A, B]}: a Samas or Schaska board's players name
themselves: the library's tags of its running game),
`/api/library`, `/api/library/pull` (POST),
`/api/game/<board>/<game>` (GET; POST {"players": [A, B]} renames; DELETE with
?confirm=yes deletes the host's copy), `/api/play/new` (POST {"game", "opponent", "position",
"seed", "names", "layout"}), `/api/play/<id>` (GET), `/api/play/<id>/roll|click|undo` (POST;
Samas: `choose` {"player", "choice"}, Schaska: `act` {"move"}), `/api/schaska/layout`
(the default layout for the Play page's layout field),
`/api/game/<board>/<game>/analysis` (the engine's analysis, computed once in the
background: gameanalysis.AnalysisCache; {"state": "running"|"done"|"none", ...}),
`/api/board` (hello, status, logs, the rule option), `/api/board/led_test` (POST),
`/api/board/restart` (POST: start the app's own virtual board again once it stopped),
`/api/board/calibrate` (POST {"step": start|empty|occupied|save|cancel}: the Hall
sensors' guided calibration),
`/api/board/sensors` (the per-hole sensor map: BoardWatch's health job),
`/api/board/self_test` (POST {"hole"}: the guided sensor self-test of one hole),
`/api/board/deploy` (POST {"confirm": "yes", "force"}: deploy the firmware bundle,
409 while one runs or without a board; GET: the job's progress, deployjob.Deploys).
An unknown game is a 404 page (or {"error"} with 404 for the API); a bad request is
400 with {"error": words}; nothing a page sends raises past a handler.

Other web pages cannot drive the app (docs/app.md "Only the app's own pages"): a
request that changes something (POST, PUT, PATCH, DELETE) is refused with 403 when it
carries an Origin header that is not the app's own (http://127.0.0.1:PORT or
http://localhost:PORT), and with 415 when it has a body or a Content-Type that is not
application/json (no cross-site form or text post is a "simple request").
"""
import asyncio
import html
import json
import os
import secrets
import threading

from aiohttp import web

from samsara_host import boardlink, gametags, record
from samsara_host.app import library
from samsara_host.app.gameanalysis import AnalysisCache

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
KEEPALIVE_S = 15.0
MAX_PLAY_GAMES = 32
MAX_FOLLOWED = 3
"""Brokers other than --broker whose public games the Online page's list follows at
once (the page's broker field, the broker of its game)."""
"""Games in the page kept at once (the oldest goes first)."""

BOARD_SETTINGS = ("opponent_goal", "dice", "budget_ma", "scan_ms", "settle_place_ms",
                  "settle_lift_ms")
"""The firmware's settings (samsara.config.Config) the board page shows."""

CHANGING = ("POST", "PUT", "PATCH", "DELETE")
"""The methods that change something: checked by AppServer._guard."""

PAGES = {"/": "live.html", "/library": "library.html", "/play": "play.html",
         "/board": "board.html", "/online": "online.html"}


class Hub:
    """The latest live snapshot and the clients waiting for the next one (lives in
    the server's event loop; `publish_threadsafe` may be called from any thread)."""

    def __init__(self, loop, first):
        self.loop = loop
        self.snap = first
        self.version = 0
        self.cond = asyncio.Condition()

    def publish_threadsafe(self, snap):
        self.loop.call_soon_threadsafe(lambda: asyncio.ensure_future(self._publish(snap)))

    async def _publish(self, snap):
        async with self.cond:
            self.snap = snap
            self.version += 1
            self.cond.notify_all()


def _json(obj, status=200):
    return web.json_response(obj, status=status, dumps=lambda o: json.dumps(o))


def _checked_names(names):
    """Both players' names of a request, checked as the tool checks them everywhere
    (gametags.check_names): the list [A's, B's], or the 400 reply that refuses them."""
    if not (isinstance(names, list) and len(names) == 2):
        return _error(400, "give both players' names")
    try:
        return list(gametags.check_names(names))
    except gametags.TagError as e:
        return _error(400, str(e))


def _error(status, words):
    return _json({"error": words}, status)


def no_board_snapshot():
    """The live snapshot when the app runs without a board watcher."""
    from samsara_host.app.livestate import LiveModel
    m = LiveModel()
    m.connected = False
    m.banner = ("No board: the app was started without one. The library, replay and "
                "play pages work.")
    return m.snapshot()


class AppServer:
    """The server (module docstring).  logs_dir: the library folder (`samsara logs
    pull`'s --dest); watch: a BoardWatch (not started: start() starts it) or None;
    bundle: the firmware bundle folder the board page deploys, or None to build it
    as `samsara deploy` does (deployjob.Deploys)."""

    def __init__(self, logs_dir, watch=None, bundle=None, online=None):
        from samsara_host.app.deployjob import Deploys
        from samsara_host.app.onlineplay import OnlineGames
        self.online = online        # samsara_host.online.broadcast.LiveGames, or None
        self.followed = {}          # broker URL -> LiveGames of other brokers the
        #                             Online page's list follows (api_online)
        self.online_play = OnlineGames(watch)   # the Online page's own game
        self.logs_dir = logs_dir
        self.watch = watch
        self.deploys = Deploys(watch, bundle)
        self.plays = {}
        self.plays_lock = threading.Lock()
        self.analyses = AnalysisCache(logs_dir)
        self.loop = None
        self.hub = None
        self.runner = None
        self.thread = None
        self.url = None
        self.origins = ()
        self._ready = threading.Event()
        self._error = None

    # -- running -------------------------------------------------------------------
    def start(self, port=8765, host="127.0.0.1"):
        """Serve in a thread; returns the URL once the socket listens.  Raises OSError
        when the port cannot be had."""
        self.thread = threading.Thread(target=self._run, args=(host, port), daemon=True,
                                       name="app-server")
        self.thread.start()
        self._ready.wait(30)
        if self._error is not None:
            raise self._error
        if self.watch is not None:
            self.watch.on_change = self.hub.publish_threadsafe
            self.watch.library = self.logs_dir    # names tagged there are the players'
            self.watch.start()
        return self.url

    def _run(self, host, port):
        loop = asyncio.new_event_loop()
        self.loop = loop
        asyncio.set_event_loop(loop)
        first = self.watch.snapshot() if self.watch is not None else no_board_snapshot()
        self.hub = Hub(loop, first)
        try:
            self.runner = web.AppRunner(self.make_app(), access_log=None, shutdown_timeout=1.0)
            loop.run_until_complete(self.runner.setup())
            site = web.TCPSite(self.runner, host, port)
            loop.run_until_complete(site.start())
            real = self.runner.addresses[0][1]
            self.url = "http://%s:%d/" % (host, real)
            self.origins = own_origins(host, real)
        except OSError as e:
            self._error = e
            self._ready.set()
            return
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            loop.run_until_complete(self.runner.cleanup())
            loop.close()

    def stop(self):
        self.online_play.close()
        for live in list(self.followed.values()):
            live.conn.stop()
        self.followed = {}
        if self.watch is not None and self.watch.is_alive():
            self.watch.stop()
        if self.loop is not None and self.loop.is_running():
            self.loop.call_soon_threadsafe(self.loop.stop)
        if self.thread is not None:
            self.thread.join(timeout=10)
        for g in list(self.plays.values()):
            g.close()
        self.analyses.close()

    # -- the application -----------------------------------------------------------
    def make_app(self):
        app = web.Application(middlewares=[self._errors, self._guard])
        r = app.router
        for path in PAGES:
            r.add_get(path, self.page)
        r.add_get("/replay/{board}/{game}", self.replay_page)
        r.add_get("/api/holes", self.api_holes)
        r.add_get("/api/live", self.api_live)
        r.add_get("/api/online", self.api_online)
        r.add_get("/api/online/game", self.api_online_game)
        r.add_post("/api/online/start", self.api_online_start)
        r.add_post("/api/online/stop", self.api_online_stop)
        r.add_get("/api/live/events", self.api_events)
        r.add_get("/api/live/turn/{n}", self.api_live_turn)
        r.add_post("/api/live/{action}", self.api_live_action)
        r.add_get("/api/library", self.api_library)
        r.add_post("/api/library/pull", self.api_pull)
        r.add_get("/api/game/{board}/{game}", self.api_game)
        r.add_get("/api/game/{board}/{game}/analysis", self.api_analysis)
        r.add_post("/api/game/{board}/{game}", self.api_rename)
        r.add_delete("/api/game/{board}/{game}", self.api_delete)
        r.add_post("/api/play/new", self.api_play_new)
        r.add_get("/api/schaska/layout", self.api_schaska_layout)
        r.add_get("/api/play/{id}", self.api_play)
        r.add_post("/api/play/{id}/{action}", self.api_play_action)
        r.add_get("/api/board", self.api_board)
        r.add_post("/api/board/led_test", self.api_led_test)
        r.add_post("/api/board/restart", self.api_restart)
        r.add_post("/api/board/calibrate", self.api_calibrate)
        r.add_get("/api/board/sensors", self.api_sensors)
        r.add_post("/api/board/self_test", self.api_self_test)
        r.add_get("/api/board/deploy", self.api_deploy_state)
        r.add_post("/api/board/deploy", self.api_deploy)
        r.add_static("/static/", STATIC)
        return app

    @web.middleware
    async def _errors(self, request, handler):
        try:
            return await handler(request)
        except web.HTTPNotFound:
            if request.path.startswith("/api/"):
                return _error(404, "no such thing: %s" % request.path)
            return self._not_found()
        except web.HTTPException:
            raise
        except Exception as e:  # a handler's bug: words, not a dropped connection
            return _error(500, "the app failed: %s" % e)

    @web.middleware
    async def _guard(self, request, handler):
        # Only the app's own pages change things (module docstring).
        if request.method in CHANGING:
            origin = request.headers.get("Origin")
            if origin is not None and origin.rstrip("/").lower() not in self.origins:
                return _error(403, "refused: a request from %s, not from the app's own "
                              "page (%s)" % (origin, self.url))
            ctype = request.headers.get("Content-Type")
            if (ctype is not None or request.body_exists) and \
                    request.content_type != "application/json":
                return _error(415, "send the request as JSON (Content-Type: "
                              "application/json), not %s" % (ctype or "no Content-Type"))
        return await handler(request)

    def _not_found(self, words="There is no such page."):
        with open(os.path.join(STATIC, "404.html"), encoding="utf-8") as f:
            text = f.read().replace("{{words}}", html.escape(words))
        return web.Response(text=text, status=404, content_type="text/html")

    async def page(self, request):
        return web.FileResponse(os.path.join(STATIC, PAGES[request.path]))

    async def replay_page(self, request):
        gid = "%s/%s" % (request.match_info["board"], request.match_info["game"])
        try:
            library.find(self.logs_dir, gid)
        except library.NotFound:
            return self._not_found("There is no game %s in the library." % gid)
        return web.FileResponse(os.path.join(STATIC, "replay.html"))

    # -- live ----------------------------------------------------------------------
    async def api_holes(self, request):
        from samsara_host import svg
        return _json({k: list(v) for k, v in svg.hole_points().items()})

    def _live_games(self, want):
        # The LiveGames of broker URL `want` ("" or the app's --broker: the app's own;
        # another: followed from the first ask, at most MAX_FOLLOWED at once, the one
        # asked for longest ago let go).  Raises BrokerError for a URL that is none.
        if not want:
            return self.online
        from samsara_host.online.mqtt import parse_broker
        ca = self.online_play.ca_file if want.startswith("mqtts:") else None
        broker = parse_broker(want, ca)
        url = broker.url()
        if self.online is not None and getattr(self.online, "url", None) == url:
            return self.online
        live = self.followed.pop(url, None)
        if live is None:
            from samsara_host.online.broadcast import follow
            live, _conn = follow(broker)
            while len(self.followed) >= MAX_FOLLOWED:
                old = self.followed.pop(next(iter(self.followed)))
                threading.Thread(target=old.conn.stop, daemon=True).start()
        self.followed[url] = live             # (the latest asked for last)
        return live

    async def api_online(self, request):
        """The broadcast page: every public live game on the broker, its board drawn
        (docs/app.md "Online", docs/online.md).  ?broker=URL: the games of that broker
        (the one the page hosts or joins on) instead of the app's --broker; 400 for a
        URL that is no broker.  "trouble": why no game comes from it now, or null."""
        from samsara_host.online.mqtt import BrokerError
        try:
            live = self._live_games(request.query.get("broker", "").strip())
        except BrokerError as e:
            return _error(400, "the broadcast list: %s" % e)
        if live is None:
            return _json({"broker": None, "games": [], "trouble": None})
        conn = getattr(live, "conn", None)
        trouble = None
        if conn is not None and not conn.connected.is_set():
            trouble = conn.refused or conn.trouble
        from samsara.rules.position import Position
        from samsara_host import svg
        games = []
        for g in live.games():
            title = "%s %s - %s %s" % (g["game"], g["names"]["A"] or "A",
                                       g["names"]["B"] or "B", "(over)" if g["over"] else
                                       "(waiting for a player)" if g.get("waiting") else "")
            last = g["last"]
            notes = ["turn %d: %s" % (last["turn"], last["move"])] if last else []
            games.append(dict(g, svg=svg.render(Position.parse(g["position"]),
                                                title=title.strip(), notes=notes)))
        return _json({"broker": getattr(live, "url", ""), "games": games,
                      "trouble": trouble})

    async def api_online_game(self, request):
        """The Online page's own game (app/onlineplay.py): the code, the bridge's
        lines, the progress and the agreed position drawn; "blocks_new": why the live
        page's New game is off now (an online game is on), or null; "blocks_far": why
        its Undo and Hint are off now (the far player's turn), or null."""
        st = self._online_state(self.online_play.state())
        st["blocks_new"] = self.online_play.blocks_new_game()
        st["blocks_far"] = self.online_play.blocks_far_turn()
        return _json(st)

    def _online_state(self, st):
        g = st.get("game")
        pr = g.get("progress") if g else None
        if pr and pr.get("position"):
            from samsara.rules.position import Position
            from samsara_host import svg
            last = pr.get("last")
            notes = ["turn %d: %s" % (last["turn"], last["move"])] if last else []
            g["svg"] = svg.render(Position.parse(pr["position"]), notes=notes)
        return st

    async def api_online_start(self, request):
        """Host or join (body: app/onlineplay.check_request); 400 for a bad request,
        409 without a board or while a game runs."""
        from samsara_host.app.onlineplay import OnlineError, OnlineRefused
        obj = await self._body(request)
        try:
            st = await asyncio.to_thread(self.online_play.start, obj)
        except OnlineRefused as e:
            return _error(409, str(e))
        except OnlineError as e:
            return _error(400, str(e))
        return _json(self._online_state(st))

    async def api_online_stop(self, request):
        st = await asyncio.to_thread(self.online_play.stop)
        return _json(self._online_state(st))

    async def api_live(self, request):
        return _json(self.hub.snap)

    async def api_live_turn(self, request):
        # One turn of the live game as the replay draws it (the move list's links).
        from samsara_host.app.liveturns import NoTurn, turn_view
        text = request.match_info["n"]
        if not text.isdigit() or len(text) > 6:
            return _error(400, "a turn is a number: 1, 2, ...")
        try:
            view = await asyncio.to_thread(turn_view, self.hub.snap, int(text))
        except NoTurn as e:
            return _error(404, str(e))
        return _json(view)

    async def api_events(self, request):
        resp = web.StreamResponse(headers={"Content-Type": "text/event-stream",
                                           "Cache-Control": "no-cache"})
        await resp.prepare(request)
        seen = -1
        try:
            while True:
                if seen != self.hub.version:
                    seen = self.hub.version
                    await resp.write(("data: %s\n\n" % json.dumps(self.hub.snap)).encode())
                async with self.hub.cond:
                    try:
                        await asyncio.wait_for(
                            self.hub.cond.wait_for(lambda: self.hub.version != seen),
                            KEEPALIVE_S)
                    except asyncio.TimeoutError:
                        await resp.write(b": keep-alive\n\n")
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        return resp

    # -- library -------------------------------------------------------------------
    async def api_live_action(self, request):
        # The live page's remote control: new game, roll, undo, hint (app/control.py).
        from samsara_host.app import control
        obj = await self._body(request) if request.can_read_body else {}
        kind = self.hub.snap.get("kind") or "samsara"
        if kind != "samsara" and request.match_info["action"] == "names":
            return await self._game_names(obj)
        if kind != "samsara":
            # a Samas or Schaska board: its game is played at the board itself, on
            # the app's own virtual board with the page's hands (app/gamehands.py)
            if request.match_info["action"] == "hand" and \
                    getattr(self.watch, "virtual", None) is not None:
                return await self._game_hand(kind, obj)
            return _error(409, control.other_game_words(kind, request.match_info["action"]))
        if request.match_info["action"] == "hand":
            vb = getattr(self.watch, "virtual", None)
            if vb is None:
                return _error(409, "Only the app's own virtual board is moved from here: "
                                   "at a real board, move the marble with your hand.")
            try:
                sensed = await asyncio.to_thread(vb.sensed)
                line = control.hand_line(self.hub.snap, obj.get("hole"), sensed)
            except control.BadRequest as e:
                return _error(400, str(e))
            await asyncio.to_thread(vb.feed, line)
            return _json({"ok": True, "line": line})
        try:
            name, kw = control.request_of(request.match_info["action"], obj)
        except control.BadRequest as e:
            return _error(400, str(e))
        if self.watch is None:
            return _error(409, "No board is connected.")
        busy = self.online_play.blocks_new_game() if name == "new_game" else \
            self.online_play.blocks_far_turn() if name in ("undo", "hint") else None
        if busy:
            return _error(409, busy)
        try:
            r = await asyncio.wait_for(
                asyncio.wrap_future(self.watch.submit("game", name, kw)), 15)
        except boardlink.BoardError as e:
            return _error(409, control.refusal_words(name, e, self.hub.snap))
        except Exception as e:
            return _error(409, "The board did not answer: %s" % (e or "timed out"))
        return _json({"ok": True, "words": control.done_words(name, kw, r)})

    async def _game_names(self, obj):
        # The players name themselves on a Samas or Schaska board's live page: the
        # library's tags of the board's running game (BoardWatch._job_name_game).
        names = _checked_names(obj.get("names"))
        if not isinstance(names, list):
            return names                            # the refusal
        if self.watch is None:
            return _error(409, "No board is connected.")
        try:
            tags = await asyncio.wait_for(
                asyncio.wrap_future(self.watch.submit("name_game", names)), 15)
        except (gametags.TagError, OSError) as e:
            return _error(400, str(e))
        except Exception as e:
            return _error(409, "Could not name the players: %s" % (e or "timed out"))
        return _json({"ok": True, "tags": tags})

    async def _game_hand(self, kind, obj):
        # A click of the page's hand on the app's own Samas or Schaska virtual board:
        # turned into feed lines and written by the BoardWatch thread (one click after
        # the other, each on the sensors as the last one left them), which then shows
        # the page what the sensors read.
        from samsara_host.app import control
        try:
            r = await asyncio.wait_for(
                asyncio.wrap_future(self.watch.submit("hand", kind, obj)), 15)
        except control.BadRequest as e:
            return _error(400, str(e))
        except Exception as e:
            return _error(409, "The virtual board did not take it: %s" % (e or "timed out"))
        return _json(dict(r, ok=True))

    async def api_library(self, request):
        games = await asyncio.to_thread(library.listing, self.logs_dir)
        return _json({"games": games, "folder": self.logs_dir,
                      "board": self.hub.snap.get("connected", False)})

    async def api_pull(self, request):
        if self.watch is None:
            return _error(409, "No board is connected: there is nothing to pull.")
        fut = self.watch.submit("pull", self.logs_dir)
        try:
            out = await asyncio.wrap_future(fut)
        except Exception as e:
            return _error(409, "Could not pull: %s" % e)
        return _json(out)

    def _gid(self, request):
        return "%s/%s" % (request.match_info["board"], request.match_info["game"])

    async def api_game(self, request):
        gid = self._gid(request)
        try:
            data = await asyncio.to_thread(game_json, self.logs_dir, gid)
        except library.NotFound:
            return _error(404, "There is no game %s in the library." % gid)
        return _json(data)

    async def api_analysis(self, request):
        gid = self._gid(request)
        try:
            data = await asyncio.to_thread(self.analyses.get, gid)
        except library.NotFound:
            return _error(404, "There is no game %s in the library." % gid)
        return _json(data)

    async def _body(self, request):
        try:
            obj = await request.json()
        except Exception:
            raise web.HTTPBadRequest(text=json.dumps({"error": "the request is not JSON"}),
                                     content_type="application/json")
        if not isinstance(obj, dict):
            raise web.HTTPBadRequest(text=json.dumps({"error": "the request is no object"}),
                                     content_type="application/json")
        return obj

    async def api_rename(self, request):
        gid = self._gid(request)
        obj = await self._body(request)
        names = _checked_names(obj.get("players"))
        if not isinstance(names, list):
            return names                            # the refusal
        try:
            tags = library.rename(self.logs_dir, gid, names[0], names[1])
        except library.NotFound:
            return _error(404, "There is no game %s in the library." % gid)
        except (gametags.TagError, OSError) as e:
            return _error(400, str(e))
        if self.watch is not None:
            self.watch.submit("names")     # the live page calls them so at once
        return _json({"tags": tags})

    async def api_delete(self, request):
        gid = self._gid(request)
        if request.query.get("confirm") != "yes":
            return _error(400, "deleting needs confirm=yes")
        try:
            library.delete(self.logs_dir, gid)
            self.analyses.forget(gid)
        except library.NotFound:
            return _error(404, "There is no game %s in the library." % gid)
        return _json({"deleted": gid})

    # -- play ----------------------------------------------------------------------
    async def api_play_new(self, request):
        from samsara_host.app.playgame import PlayError, PlayGame
        obj = await self._body(request)
        seed = obj.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)
                                 or not 0 <= seed < 2 ** 31):
            return _error(400, "seed is a whole number from 0 to 2147483647")
        game = obj.get("game", "samsara")
        if game not in PLAY_GAMES:
            return _error(400, "the game is one of %s, not %r" % (", ".join(PLAY_GAMES), game))
        try:
            names = obj.get("names")
            if names is not None and not (isinstance(names, list) and len(names) == 2):
                return _error(400, "give both players' names")
            if game == "samsara":
                g = await asyncio.to_thread(PlayGame, self.logs_dir,
                                            obj.get("opponent", "human"),
                                            obj.get("position") or None, seed, names)
            else:
                g = other_play(self.logs_dir, game, obj, names)
        except PlayError as e:
            return _error(400, str(e))
        pid = secrets.token_hex(6)
        with self.plays_lock:
            self.plays[pid] = g
            while len(self.plays) > MAX_PLAY_GAMES:
                old = next(iter(self.plays))
                self.plays.pop(old).close()
        st = _play_state(g, pid)
        return _json(st)

    async def api_schaska_layout(self, request):
        """The default Schaska layout for the Play page's layout field."""
        from schaska.rules.layout import DEFAULT, format_layout
        return _json({"default": format_layout(DEFAULT), "fields": len(DEFAULT)})

    def _play(self, request):
        g = self.plays.get(request.match_info["id"])
        if g is None:
            raise web.HTTPNotFound()
        return g

    async def api_play(self, request):
        st = _play_state(self._play(request), request.match_info["id"])
        return _json(st)

    async def api_play_action(self, request):
        from samsara_host.app.playgame import PlayError
        g = self._play(request)
        action = request.match_info["action"]
        obj = await self._body(request) if request.can_read_body else {}
        try:
            if getattr(g, "game_name", "samsara") != "samsara":
                if action not in OTHER_ACTIONS[g.game_name]:
                    return _error(404, "no such action in %s: %s" % (g.game_name, action))
                if action == "choose":
                    g.choose(obj.get("player"), obj.get("choice"))
                else:
                    g.act(obj.get("move"))
            elif action == "roll":
                await asyncio.to_thread(g.roll)
            elif action == "undo":
                await asyncio.to_thread(g.undo)
            elif action == "click":
                from samsara.rules.geometry import position_index
                hole = obj.get("hole")
                try:
                    position_index(hole)
                except (TypeError, ValueError):
                    return _error(400, "no hole %r on the board" % (hole,))
                await asyncio.to_thread(g.click, hole)
            else:
                return _error(404, "no such action: %s" % action)
        except PlayError as e:
            st = _play_state(g, request.match_info["id"])
            st["problem"] = str(e)
            return _json(st)
        st = _play_state(g, request.match_info["id"])
        return _json(st)

    # -- board ---------------------------------------------------------------------
    async def api_board(self, request):
        snap = self.hub.snap
        out = {"connected": snap.get("connected"), "banner": snap.get("banner"),
               "hello": snap.get("hello")}
        if self.watch is not None and snap.get("connected"):
            try:
                got = await asyncio.wait_for(
                    asyncio.wrap_future(self.watch.submit("status")), 10)
                out["status"] = got["status"]
                logs = got["logs"]
                out["logs"] = {k: logs.get(k) for k in ("free", "need", "full", "unpulled")}
                out["logs"]["games"] = len(logs.get("logs", []))
                out["logs"]["room"] = room_for_games(logs.get("free"), logs.get("need"))
                from samsara_host.movewords import headline
                out["playing"] = (headline(got["status"], snap.get("names"))
                                  if got["status"] is not None else snap.get("headline"))
            except Exception as e:
                out["problem"] = str(e)
        from samsara.config import Config
        cfg = Config()
        out["defaults"] = {k: getattr(cfg, k, None) for k in BOARD_SETTINGS}
        out["options"] = snap.get("options")
        out["leds"] = led_settings(out["defaults"].get("budget_ma"))
        return _json(out)

    async def api_deploy_state(self, request):
        return _json(self.deploys.state())

    async def api_deploy(self, request):
        from samsara_host.app.deployjob import DeployRefused
        obj = await self._body(request) if request.can_read_body else {}
        if obj.get("confirm") != "yes":
            return _error(400, "deploying needs {\"confirm\": \"yes\"}")
        try:
            return _json(self.deploys.start(force=bool(obj.get("force"))))
        except DeployRefused as e:
            return _error(409, str(e))

    async def _board_job(self, timeout, name, *args):
        # (result, None) or (None, an error response): a board job's answer.
        if self.watch is None:
            return None, _error(409, "No board is connected.")
        try:
            r = await asyncio.wait_for(asyncio.wrap_future(self.watch.submit(name, *args)),
                                       timeout)
        except Exception as e:
            return None, _error(409, "The board did not answer: %s" % (e or "timed out"))
        return r, None

    async def api_sensors(self, request):
        r, err = await self._board_job(20, "health")
        return err or _json(r)

    async def api_self_test(self, request):
        from samsara.rules.geometry import position_index
        obj = await self._body(request)
        hole = obj.get("hole")
        try:
            position_index(hole)
        except (TypeError, ValueError):
            return _error(400, "no hole %r on the board" % (hole,))
        r, err = await self._board_job(40, "self_test", hole, 20.0)
        return err or _json(r)

    async def api_calibrate(self, request):
        obj = await self._body(request)
        step = obj.get("step")
        if step not in CALIBRATE_STEPS:
            return _error(400, "no calibration step %r (one of %s)"
                          % (step, ", ".join(CALIBRATE_STEPS)))
        r, err = await self._board_job(20, "calibrate", step)
        return err or _json(r)

    async def api_restart(self, request):
        # Start the app's own virtual board again after it stopped (BoardWatch).
        r, err = await self._board_job(40, "restart")
        return err or _json(r)

    async def api_led_test(self, request):
        if self.watch is None:
            return _error(409, "No board is connected.")
        try:
            r = await asyncio.wait_for(asyncio.wrap_future(
                self.watch.submit("led_test", 2000)), 10)
        except Exception as e:
            return _error(409, "The LED test did not run: %s" % e)
        return _json(r)


PLAY_GAMES = ("samsara", "samas", "schaska")
"""The games of the Play page (POST /api/play/new {"game"}); samsara is the default."""
OTHER_ACTIONS = {"samas": ("choose",), "schaska": ("act",)}
"""The actions of /api/play/<id>/<action> for a Samas and a Schaska game."""


def _play_state(g, pid):
    """A Play page game's dict with its id and its game's name ("game")."""
    st = g.state()
    st["id"] = pid
    st.setdefault("game", "samsara")
    return st


def other_play(games_dir, game, obj, names):
    """A Samas or Schaska game of the Play page (app/playsamas.py, app/playschaska.py)
    from the new-game request `obj` ({"layout"} for Schaska); PlayError for bad names
    or a bad layout."""
    from samsara_host import gametags
    from samsara_host.app.playgame import PlayError
    if names is not None and any(n.strip() for n in names if isinstance(n, str)):
        try:
            names = gametags.check_names(names)
        except gametags.TagError as e:
            raise PlayError(str(e))
    else:
        names = None
    if game == "samas":
        from samsara_host.app.playsamas import SamasPlay
        return SamasPlay(games_dir, names)
    from samsara_host.app.playschaska import SchaskaPlay
    return SchaskaPlay(games_dir, obj.get("layout"), names)


def room_for_games(free, need):
    """How many more games the board's log area takes: free // need (bytes free, bytes
    a game reserves), None when the board did not say."""
    if not isinstance(free, int) or not isinstance(need, int) or need <= 0:
        return None
    return max(0, free // need)


MAX_NAME = 40
"""Longest player's name the library takes (characters): it goes into the record's tags,
the exports and the analysis."""

CALIBRATE_STEPS = ("start", "empty", "occupied", "save", "cancel")
"""The steps of the `calibrate` command (docs/protocol.md), in the order a user takes them."""


def own_origins(host, port):
    """The Origin headers of the app's own pages served on host:port (lower case, no
    trailing slash): 127.0.0.1 and localhost, and `host` itself."""
    names = {"127.0.0.1", "localhost", host.lower()}
    return tuple(sorted("http://%s:%d" % (n, port) for n in names))


def led_settings(default_budget):
    """The LED brightness and power budget of the firmware's configuration
    (firmware/board_config.py, generated from hardware/settings.csv): {"budget_ma",
    "brightness", "where"}.  No USB command sets them (docs/protocol.md)."""
    import runpy
    from samsara_host import deploy_cmd
    budget = default_budget
    try:
        cfg = runpy.run_path(os.path.join(deploy_cmd.repo_root(), "firmware",
                                          "board_config.py"))
        budget = cfg.get("LED_BUDGET_MA", budget)
    except (OSError, SyntaxError):
        pass
    return {"budget_ma": budget,
            "brightness": "fixed per light (docs/leds.md); the power limiter dims a "
                          "frame that would draw more than the budget",
            "where": "Brightness and the power budget are set in board_config "
                     "(hardware/settings.csv, led_budget_ma; `python tools/gen_config.py`) "
                     "and take effect with the next deploy; no USB command changes them."}


def game_json(root, gid):
    """The replay page's dict of game `gid`: id, tags, summary, torn, error, players,
    steps [{n, player, notation, caption, score [a, b], svg}] (step 0 is the start).
    Raises library.NotFound."""
    from samsara_host import export
    path = library.find(root, gid)
    try:
        rec = library.load(root, gid)
    except record.RecordError as e:
        return {"id": gid, "error": str(e), "steps": [], "tags": {}, "torn": None}
    pics = export.pictures(rec)
    pa, pb = rec.tags.get("PlayerA", "?"), rec.tags.get("PlayerB", "?")
    names = ("A" if pa in ("", "?") else "A (%s)" % pa,
             "B" if pb in ("", "?") else "B (%s)" % pb)
    steps = [{"n": 0, "player": "", "notation": "", "caption": pics[0][0],
              "score": [rec.start.a, rec.start.b], "svg": pics[0][1]}]
    for s, (cap, pic) in zip(rec.steps, pics[1:]):
        steps.append({"n": s.number, "player": "AB"[s.player], "notation": s.notation,
                      "caption": export.caption(s, names),
                      "score": [s.position.a, s.position.b], "svg": pic})
    return {"id": gid, "tags": rec.tags, "summary": rec.summary(), "torn": rec.torn,
            "error": None, "steps": steps, "file": os.path.basename(path)}
