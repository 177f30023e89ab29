"""The app's one holder of the board's serial port (docs/app.md "The board"): a
thread that connects through the CLI's link code (samsara_host.boardlink), follows
the event stream into a LiveModel, and runs the page's board jobs (pull the games,
the LED self-test, deploy) between events, so that only one reader ever talks to the
port; a deploy closes the link, copies through an mpremote transport and connects
again afterwards.

    watch = BoardWatch(port, on_change)   # port: a device, a pyserial URL or None
    watch.start()                          # (auto-detect the Pico)
    fut = watch.submit("pull", dest)       # a concurrent.futures.Future
    watch.stop()

on_change(snapshot) is called from the thread after every change (LiveModel.snapshot).
Without a board the model's banner says why: none found, another program holds the
port (boardlink.PortBusy), the board went away, or it does not answer; the thread
tries again every RETRY_S seconds, so plugging the board in resumes the page.
"""
import concurrent.futures
import os
import queue
import tempfile
import threading
import time

from samsara_host import boardlink, gametags, logpull
from samsara_host.app.livestate import LiveModel
from samsara_host.runninglog import game_header, game_turns, header_names

RETRY_S = 1.0
"""Seconds between attempts to reach a board that is not there."""
PROBE_S = 3.0
"""Seconds without a line after which `status` is asked (is the loop alive?)."""

DEPLOYING = ("Deploying firmware ... the board is busy being updated; this page resumes "
             "when it restarts.")
"""The banner while a deploy holds the port."""
AFTER_DEPLOY = "Firmware copied: waiting for the board to restart ..."
RESTART_S = 20.0
"""Seconds after a deploy during which the banner keeps saying so (a Pico resets and
its port is gone for a moment)."""


def banner_words(e):
    """The page's banner for a LinkError `e` (why there is no board)."""
    if isinstance(e, boardlink.PortBusy):
        if e.holder is not None:
            name, _todo = boardlink.holder_words(e.holder[1])
            return ("%s (process %d) holds the board's port: stop it (Ctrl-C where it "
                    "runs, or close it), the app connects by itself; while the app has "
                    "the board, this page has the game's buttons."
                    % (name[:1].upper() + name[1:], e.holder[0]))
        return ("Another program holds the board's port (a serial terminal, Thonny, "
                "mpremote or `samsara monitor`): close it, the app connects by itself.")
    if isinstance(e, boardlink.BoardNotFound):
        return ("No board connected. Plug the board in with a USB data cable; the "
                "library, replay and play pages work without it.")
    if isinstance(e, boardlink.Disconnected):
        return "The board went away (unplugged or reset): waiting for it to come back ..."
    if isinstance(e, boardlink.NoReply):
        return "The board does not answer: unplug it and plug it in again."
    return "No board: %s" % boardlink.explain(e)


def board_game(hello):
    """The game a board plays from its `hello` reply: its "game" ("samas", "schaska"),
    or "samsara" when it names none (Samsara's firmware)."""
    g = hello.get("game") if isinstance(hello, dict) else None
    return g if isinstance(g, str) and g else "samsara"


def mismatch_words(asked, game, board=None):
    """The words when the app was asked for game `asked` (its --game) and the board
    plays `game`: the app follows the board's.  "" when they agree."""
    from samsara_host.app.livegames import game_words
    if asked is None or asked == game:
        return ""
    return ("The board%s plays %s, not %s as --game %s said: the app follows the "
            "board's game." % (" " + board if board else "", game_words(game),
                               game_words(asked), asked))


class VirtualGone(boardlink.Disconnected):
    """The virtual board the app started has stopped (its process ended)."""


def virtual_words(vb):
    """The banner when the app's own virtual board `vb` stopped: what happened and
    how to restart it (a virtual board is not unplugged)."""
    return ("The virtual board stopped (its program ended; what it printed is in %s). "
            "Restart it with the button below: its game goes on where it was."
            % os.path.join(vb.folder, "stderr.log"))


class BoardWatch(threading.Thread):
    """The port's reader and the board jobs' runner (module docstring).  `virtual`:
    the VirtualBoard the app started (None: a real board or one started elsewhere):
    its end is noticed at once and said in its own words (virtual_words), and the
    `restart` job starts it again."""

    virtual = None
    expect_game = None
    """The game the app was started for (its --game); None: whatever the board plays."""
    on_note = None
    """Called with the words when the board's game differs from expect_game."""

    def __init__(self, port, on_change, clock=time.monotonic, transport_factory=None):
        threading.Thread.__init__(self, daemon=True, name="board-watch")
        self.port = port
        self.on_change = on_change
        self.clock = clock
        self.model = LiveModel()
        self.model.banner = "Looking for the board ..."
        self.jobs = queue.Queue()
        self.state = boardlink.State(port)
        self._halt = threading.Event()
        self.connected = False
        self._header_game = None
        self._header = None
        self._turns_read = False
        self.library = None      # the app's library folder: names tagged there are used
        self.transport_factory = transport_factory
        self._quiet_until = 0.0
        self.listeners = []      # listen(): each event of the board, from the thread

    # -- for the server ------------------------------------------------------------
    def submit(self, name, *args):
        """Queue board job `name` ("pull", "led_test", "hello", "status", "health",
        "self_test", "deploy", "game", "request");
        returns a Future of its result.  A job without a board fails with
        boardlink.LinkError (the banner's words)."""
        fut = concurrent.futures.Future()
        self.jobs.put((name, args, fut))
        return fut

    def listen(self, fn):
        """Call fn(event dict) for every event the board sends from now on (from the
        thread: fn must be quick, e.g. a queue's put); returns fn for unlisten."""
        self.listeners = self.listeners + [fn]
        return fn

    def unlisten(self, fn):
        """Stop calling fn (listen)."""
        self.listeners = [f for f in self.listeners if f is not fn]

    def stop(self):
        self._halt.set()
        self.join(timeout=5)
        self.state.close()

    def snapshot(self):
        return self.model.snapshot()

    def _changed(self):
        try:
            self._sense()
            self.on_change(self.model.snapshot())
        except Exception:
            pass

    def _sense(self):
        """The app's own Samas or Schaska virtual board: what its sensors read now
        (its feed file), for the page's hands (gamehands.sensed_view)."""
        other = self.model.other
        if other is None or self.virtual is None:
            return
        from samsara_host.app import gamehands
        n = len(other.lines[0].get("layout") or ()) if other.lines else 0
        try:
            other.sensed = gamehands.sensed_view(
                other.game, gamehands.positions(self.virtual.sensed()), n)
        except OSError:
            other.sensed = None

    # -- the thread ----------------------------------------------------------------
    def run(self):
        self.model.hands = self.virtual is not None   # the page may move its marbles
        while not self._halt.is_set():
            if not self.connected:
                self._connect()
                if not self.connected:
                    self._fail_jobs()
                    self._halt.wait(RETRY_S)
                    continue
            try:
                self._follow()
            except boardlink.LinkError as e:
                self.state.close()
                self.state = boardlink.State(self.port)
                self.connected = False
                self.model.connected = False
                self.model.lifted = []
                self.model.banner = self._words(e)
                self._changed()

    def _words(self, e):
        vb = self.virtual
        if vb is not None and not vb.alive():
            self.model.restartable = True
            return virtual_words(vb)
        return banner_words(e)

    def _connect(self):
        if self.virtual is not None and not self.virtual.alive():
            self._run_jobs_offline()
            if not self.virtual.alive():
                words = virtual_words(self.virtual)
                if words != self.model.banner:
                    self.model.banner = words
                    self.model.connected = False
                    self.model.restartable = True
                    self._changed()
                return
        self.model.restartable = False
        try:
            self.model.hello = dict(self.state.hello(timeout=2.0))
            self._game_of_board()
            self._refresh()
        except boardlink.LinkError as e:
            self.state.close()
            self.state = boardlink.State(self.port)
            words = self._words(e)
            if self.clock() < self._quiet_until:   # a deployed board restarting
                words = self.model.banner
            if words != self.model.banner:
                self.model.banner = words
                self._changed()
            return
        self.connected = True
        self.model.connected = True
        self.model.banner = ""
        self._changed()

    def _game_of_board(self):
        """Follow the game the board's hello names: Samsara's model, or a Samas or
        Schaska one (livegames.GameLiveModel) in model.other; a --game that differs is
        said (model.game_note, on_note)."""
        from samsara_host.app.livegames import GameLiveModel
        m = self.model
        game = board_game(m.hello)
        if game == "samsara":
            m.other = None
        elif m.other is None or m.other.game != game:
            m.other = GameLiveModel(game)
        note = mismatch_words(self.expect_game, game, m.hello.get("board"))
        if note and note != m.game_note and self.on_note is not None:
            try:
                self.on_note(note)
            except Exception:
                pass
        m.game_note = note

    def _refresh_other(self):
        """A Samas or Schaska board: its newest game's log read (not pulled) and
        replayed under the rules (games_log.jsonl_lines), for an app that starts in
        the middle of a game or after its end; the events carry it on from there."""
        from samsara_host import games_log
        from samsara_host.runninglog import MAX_LOG_BYTES, read_log
        c = self.state.client
        logs = boardlink.list_logs(c).get("logs") or []
        if not logs:
            return
        game = logs[-1].get("game")
        try:
            lines = games_log.jsonl_lines(read_log(c, game, MAX_LOG_BYTES))
        except (games_log.LogError, boardlink.BoardError, ValueError, TypeError):
            return
        self.model.other.from_lines(lines, game)
        if lines[0].get("game") == self.model.other.game:
            self.model.other.name(self.other_names(game, lines[0].get("players")))

    def other_names(self, game, header):
        """The players' names of a Samas or Schaska board's game `game` (its log's
        number): the library's tags of the game (a pull's --names, `logs tag`, the
        library page's rename, the live page's names) over its log header's
        ("players": header), [A's, B's] or None."""
        return self._names_of(game, list(header) if header else ["", ""])

    def _names_of(self, game, names):
        # [A's, B's] of the board's game `game`: the library's tags of it over `names`
        # (the log header's; "" unknown), or None when none is known.
        board = (self.model.hello or {}).get("board")
        if self.library and game is not None:
            path = os.path.join(self.library, logpull.local_name(board, game))
            try:
                tags = gametags.read(path)
            except (gametags.TagError, OSError):
                tags = {}
            names = [tags.get("Player" + side) or n for side, n in zip("AB", names)]
        names = [n if n not in ("?", None) else "" for n in names]
        return names if any(names) else None

    def _refresh(self):
        c = self.state.client
        m = self.model
        if m.other is not None:
            self._refresh_other()
            return
        m.position_reply(c.request("position"))
        m.status_reply(c.request("status"))
        game = m.game if m.game is not None else m.ended   # (a finished game's log)
        if game is not None and game != self._header_game:
            self._header_game = game
            self._header = game_header(c, game)
            m.options_from(self._header)
            self._turns_read = False
        if game is not None and m.first_turn > 1 and not self._turns_read:
            # the board keeps its last turns only: the earlier ones come from its log,
            # so that every turn of the live page's list can be shown
            self._turns_read = True
            _h, turns = game_turns(c, game)
            m.earlier_turns(turns)
        m.names = self.known_names()

    def known_names(self):
        """The players' names of the board's running game: [A's, B's] ("" unknown) or
        None.  The library's tags of the game (a pull's --names, `logs tag`, the
        library page's rename) come first, then the names the game's log header holds
        (new_game's name_a, name_b)."""
        game = self.model.game if self.model.game is not None else self.model.ended
        return self._names_of(game, header_names(self._header) or ["", ""])

    def _follow(self):
        c = self.state.client
        heard = self.clock()
        while not self._halt.is_set():
            self._run_jobs()
            if not self.connected:       # a job let go of the port (deploy)
                return
            if self.virtual is not None and not self.virtual.alive():
                raise VirtualGone("the virtual board's program ended")
            evs = c.poll_events(0.1)
            if evs:
                heard = self.clock()
            elif self.clock() - heard > PROBE_S:
                if self.model.other is not None:    # (status is Samsara's command)
                    c.request("hello", timeout=1.5)
                else:
                    self.model.status_reply(c.request("status", timeout=1.5))
                heard = self.clock()
            ask = False
            for ev in evs:
                ask = self.model.event(ev) or ask
                if self.model.other is not None and ev.get("ev") == "game_start":
                    ask = True      # (its log's number: the library's names of it)
                for fn in self.listeners:
                    fn(ev)
            if ask or any(e.get("ev") in ("lift", "place") for e in evs):
                if ask:
                    self._refresh()
            if evs:
                self._changed()

    def _run_jobs_offline(self):
        # Without a board only the restart of the app's virtual board can run.
        keep = []
        while True:
            try:
                job = self.jobs.get_nowait()
            except queue.Empty:
                break
            if job[0] == "restart":
                try:
                    job[2].set_result(self._job_restart())
                except Exception as e:
                    job[2].set_exception(e)
            else:
                keep.append(job)
        for job in keep:
            self.jobs.put(job)

    def _job_restart(self):
        """Start the app's virtual board again (its folder, so its game resumes);
        {"restarted": True}.  LinkError when there is none to restart."""
        vb = self.virtual
        if vb is None:
            raise boardlink.LinkError("this board is not a virtual board the app started")
        if not vb.alive():
            vb.start()
            try:
                vb.wait_ready(30)
            except TimeoutError as e:
                raise boardlink.LinkError(str(e))
        self.model.banner = "Restarting the virtual board ..."
        self._changed()
        return {"restarted": True}

    def _fail_jobs(self):
        while True:
            try:
                _name, _args, fut = self.jobs.get_nowait()
            except queue.Empty:
                return
            fut.set_exception(boardlink.LinkError(self.model.banner or "no board"))

    def _run_jobs(self):
        while True:
            try:
                name, args, fut = self.jobs.get_nowait()
            except queue.Empty:
                return
            try:
                fut.set_result(getattr(self, "_job_" + name)(*args))
            except boardlink.LinkError as e:
                fut.set_exception(e)
                if isinstance(e, (boardlink.Disconnected, boardlink.NoReply)):
                    raise
            except Exception as e:   # a job's own failure: told to the page
                fut.set_exception(e)
            if not self.connected:       # the job let go of the port (deploy)
                return

    # -- jobs ----------------------------------------------------------------------
    def _job_hello(self):
        r = self.state.hello()
        self.model.hello = dict(r)
        return r

    def _job_game(self, name, kw):
        """A game command from the live page (samsara_host.app.control): new_game,
        roll, undo or hint with arguments kw; the board's reply, the page refreshed.
        Raises boardlink.BoardError when the board refuses."""
        r = self.state.client.request(name, timeout=10.0, **kw)
        self._refresh()
        self._changed()
        return r

    def _job_hand(self, kind, body):
        """A click of the page's hand on the app's own Samas or Schaska virtual board
        (app/gamehands.py: body as hand_lines takes it): its feed lines written, the
        page shown what the sensors read now.  {"lines", "words"}.  Raises
        control.BadRequest for a bad body, LinkError without a virtual board of the
        app's."""
        from samsara_host.app import gamehands
        vb = self.virtual
        if vb is None:
            raise boardlink.LinkError("this board is not a virtual board the app started")
        other = self.model.other
        layout = other.lines[0].get("layout") if other is not None and other.lines else None
        lines, words = gamehands.hand_lines(
            kind, body, gamehands.positions(vb.sensed()),
            other.standing() if other is not None else None,
            other.hand if other is not None else None,
            len(layout) if layout else gamehands.MAX_FIELDS)
        if lines:
            vb.feed(*lines)
        self._changed()
        return {"lines": lines, "words": words}

    def _job_request(self, name, kw, timeout=5.0):
        """One board command for another part of the app (the online game's bridge,
        samsara_host.app.onlineplay): the board's reply.  Raises boardlink.BoardError
        when the board refuses, NoReply when it does not answer."""
        return self.state.client.request(name, timeout=timeout, **kw)

    def _job_name_game(self, names):
        """Name the players of a Samas or Schaska board's running game from the live
        page: names [A's, B's] (checked, gametags.check_names) into the library's tags
        of the game (`<library>/<board>/game-NNNN.log.tags`, kept when the game is
        pulled, as `logs tag` keeps them), shown at once.  Returns the tags.  LinkError
        when the board's game or the library is not known."""
        other = self.model.other
        board = (self.model.hello or {}).get("board")
        if other is None or other.log_game is None or not self.library or not board:
            raise boardlink.LinkError("the board's game is not known yet")
        path = os.path.join(self.library, logpull.local_name(board, other.log_game))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tags = gametags.update(path, {"PlayerA": names[0], "PlayerB": names[1]})
        header = other.lines[0].get("players") if other.lines else None
        other.name(self.other_names(other.log_game, header))
        self._changed()
        return tags

    def _job_names(self):
        """Read the players' names again (known_names: the library's tags were
        changed; on a Samas or Schaska board other_names); returns them."""
        other = self.model.other
        if other is not None:
            header = other.lines[0].get("players") if other.lines else None
            other.name(self.other_names(other.log_game, header))
            self._changed()
            return other.names
        self.model.names = self.known_names()
        self._changed()
        return self.model.names

    def _job_status(self):
        """The board page's facts: hello, status (None on a Samas or Schaska board,
        which has no `status`) and the logs' listing."""
        c = self.state.client
        status = None if self.model.other is not None else c.request("status")
        return {"hello": self.model.hello, "status": status,
                "logs": boardlink.list_logs(c)}

    def _job_led_test(self, ms=2000):
        return self.state.client.request("led_test", ms=int(ms))

    def _job_calibrate(self, step):
        """One step of the Hall sensors' guided calibration (`calibrate`, docs/protocol.md):
        the board's reply ({"step", "state", "todo", "missing"}), or {"supported": False,
        "msg"} on a reed-switch board (`not_supported`)."""
        try:
            r = self.state.client.request("calibrate", step=step)
        except boardlink.BoardError as e:
            if e.code == "not_supported":
                return {"supported": False, "msg": e.msg}
            return {"supported": True, "error": e.msg or e.code}
        r["supported"] = True
        return r

    def _job_health(self):
        """The per-hole sensor map (samsara_host.sensors_cmd, as `samsara doctor
        --sensors`): {"supported": False} from a firmware without `health`, else
        {"supported": True, "uptime_ms", "settle", "findings": [[hole, sentence]],
        "svg": the map's picture}."""
        from samsara_host import sensors_cmd
        if "health" not in (self.model.hello.get("cmds") or ()):
            return {"supported": False}
        holes, uptime, settle = sensors_cmd.fetch_health(self.state.client)
        findings = sensors_cmd.judge(holes, uptime)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "sensors.svg")
            sensors_cmd.write_svg(path, findings)
            with open(path, encoding="utf-8") as f:
                picture = f.read()
        return {"supported": True, "uptime_ms": uptime, "settle": settle,
                "holes": len(holes), "findings": [list(x) for x in findings],
                "svg": picture}

    def _job_self_test(self, hole, timeout_s=15.0):
        """The guided sensor self-test of one hole (sensors_cmd.self_test): the hole is
        lit alone until a marble went in and out of it or timeout_s passed; returns
        {"hole", "verdict" ("ok", "not seen", "twice", "neighbour"), "detail"}."""
        from samsara_host import sensors_cmd
        if "self_test" not in (self.model.hello.get("cmds") or ()):
            raise boardlink.LinkError("this firmware has no sensor self-test")
        (name, verdict, detail), = sensors_cmd.self_test(self.state.client, [hole],
                                                         timeout_s=float(timeout_s))
        return {"hole": name, "verdict": verdict, "detail": detail}

    def _job_deploy(self, files, progress=None, force=False):
        """Copy the firmware bundle `files` [(board path, bytes)] with
        deploy_cmd.deploy_files (progress: its callback), the port released for the
        copy: the link is closed, the banner says DEPLOYING, an mpremote transport
        (transport_factory, default deploy_cmd.open_transport) copies, verifies and
        resets; afterwards the thread connects again as after an unplugged cable.
        Returns deploy_files' report; raises what it raises (DeployError, a serial
        error when the port goes away)."""
        from samsara_host import deploy_cmd
        port = boardlink.resolve_port(self.port)
        self.state.close()
        self.state = boardlink.State(self.port)
        self.connected = False
        self.model.connected = False
        self.model.lifted = []
        self.model.banner = DEPLOYING
        self._changed()
        ok = False
        try:
            transport = (self.transport_factory or deploy_cmd.open_transport)(port)
            try:
                report = deploy_cmd.deploy_files(transport, files, progress, force=force)
            finally:
                try:
                    transport.close()
                except Exception:
                    pass
            ok = True
            return report
        finally:
            self.model.banner = (AFTER_DEPLOY if ok else
                                 "The deploy failed: waiting for the board ...")
            self._quiet_until = self.clock() + RESTART_S
            self._changed()

    def _job_pull(self, dest):
        """Every game not yet pulled, into `dest` as `samsara logs pull` does
        (logpull.pull_log: part files, CRC and record checks, read back before the
        board is told log_ack), stamped with today's date (gametags).  Returns
        {"pulled": [{"game", "path", "size"}], "failed": [{"game", "error"}]}."""
        from samsara_host import gametags, logpull
        self.model.busy = "Pulling games from the board ..."
        self._changed()
        try:
            c = self.state.client
            board = self.state.hello().get("board")
            listing = boardlink.list_logs(c)
            out = {"pulled": [], "failed": []}
            for e in listing.get("logs", []):
                if e.get("state") == "pulled":
                    continue
                dest_path = os.path.join(dest, logpull.local_name(board, e["game"]))
                if logpull.find_copy(dest_path, e.get("size"), e.get("crc")):
                    continue
                try:
                    r = logpull.pull_log(c, e["game"], dest_path, e)
                    gametags.stamp_pull(r["path"])
                    out["pulled"].append({"game": e["game"], "path": r["path"],
                                          "size": r["size"]})
                except (logpull.PullError, gametags.TagError, OSError) as err:
                    out["failed"].append({"game": e["game"], "error": str(err)})
            return out
        finally:
            self.model.busy = ""
            self._changed()

