"""`samsara app [--game samsara|samas|schaska] [--board PORT | --virtual [--idle]]
[--http-port P] [--no-browser]` (docs/app.md): start the companion app's web server on
127.0.0.1, print `url: http://127.0.0.1:P/` once it answers, open the browser.  Its one
job is the command line around server.AppServer, boardwatch.BoardWatch and, for
--virtual, a virtual board of the game (samsara_host.virtual_board) played by
vboard_play.TablePlay (Samsara) or vboard_games_play.GamesPlay (Samas, Schaska) at a
human pace.  With a board, the board's game (its `hello`) wins over --game: a
difference is said.
"""
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
import urllib.request

from samsara_host.argtypes import seconds

DEFAULT_PORT = 8765
GAMES = ("samsara", "samas", "schaska")
"""The games of --game (docs/samas.md, docs/schaska.md)."""
DESCRIPTION = ("The companion app in the browser: the live board, the game library, "
               "replays, a game on the simulated board, the board's settings.  Serves "
               "on 127.0.0.1 only; Ctrl-C stops it.")


def _turns(text):
    from samsara_host.vboard_cmd import _turns as turns
    return turns(text)


def _layout(text):
    from samsara_host.vboard_cmd import _layout as layout
    return layout(text)


def add_parser(sub, name, help_text):
    """Register `samsara app` (cli.py's table)."""
    from samsara_host.logs_cmd import DEFAULT_DEST
    p = sub.add_parser(name, help=help_text, description=DESCRIPTION)
    g = p.add_mutually_exclusive_group()
    g.add_argument("--board", metavar="PORT",
                   help="the board's serial port or pyserial URL (default: find the Pico)")
    g.add_argument("--virtual", action="store_true",
                   help="start a virtual board (no hardware) and have two simulated "
                        "players play a seeded game on it")
    g.add_argument("--no-board", action="store_true",
                   help="no board at all: the library, replay and play pages")
    p.add_argument("--game", choices=GAMES, default="samsara",
                   help="the game the board plays (default samsara): with --virtual the "
                        "virtual board's game; with a board, a board that plays another "
                        "game is said and followed")
    p.add_argument("--layout", type=_layout, metavar="V1,V2,...",
                   help="with --game schaska --virtual: the track's field values "
                        "(default: the default layout of docs/schaska.md)")
    p.add_argument("--names", nargs="+", metavar="NAME",
                   help="with --game samas or schaska --virtual: the players' names, A's "
                        "then B's (one name alone is A's), in every game's log header")
    p.add_argument("--idle", action="store_true",
                   help="with --virtual: nobody plays, the board waits for you")
    p.add_argument("--seed", type=int, default=1, help="with --virtual: the game's seed "
                   "(default 1)")
    p.add_argument("--pace", type=seconds, default=0.8, metavar="S",
                   help="with --virtual: seconds between the players' hand moves "
                        "(default 0.8, a human pace)")
    p.add_argument("--turns", type=_turns, default=None, metavar="N",
                   help="with --virtual: stop playing after N turns")
    p.add_argument("--http-port", type=int, default=DEFAULT_PORT, metavar="P",
                   help="the web server's port (default %(default)s; 0: any free one)")
    p.add_argument("--logs", default=DEFAULT_DEST, metavar="DIR",
                   help="the library folder, as `samsara logs pull --dest` "
                        "(default %(default)s)")
    p.add_argument("--no-browser", action="store_true", help="do not open the browser")
    p.add_argument("--broker", metavar="URL", help="the MQTT broker of the Online page: "
                   "its public games are shown, and it is the one offered for hosting "
                   "and joining (mqtt://HOST:PORT or mqtts://..., docs/online.md)")
    p.add_argument("--ca", metavar="FILE", help="with an mqtts:// broker: the CA "
                   "certificate (PEM) its certificate is checked against")
    p.add_argument("--online-dir", metavar="DIR", help="where the online games' files "
                   "are kept (default ~/.samsara/online)")
    p.set_defaults(func=cmd_app)


def _interrupt(_signum, _frame):
    raise KeyboardInterrupt


def _ignore(_signum, _frame):
    pass


def _quiet_signals():
    """While stopping, a second Ctrl-C (or SIGTERM, SIGHUP) is ignored.  A Python
    no-op handler, not SIG_IGN: a signal arriving while the handlers change would
    otherwise raise "OSError: Signal 2 ignored due to race condition"."""
    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            try:
                signal.signal(getattr(signal, name), _ignore)
            except OSError:
                pass


def wait_answers(url, timeout=10.0):
    """True once GET `url` answers 200 (within `timeout` seconds)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with urllib.request.urlopen(url + "api/live", timeout=2) as r:
                if r.status == 200:
                    return True
        except OSError:
            time.sleep(0.1)
    return False


def cmd_app(args):
    """Run the app until Ctrl-C or SIGTERM.  Exit codes: 0 after Ctrl-C, 1 when the
    server or the virtual board cannot start, 2 for bad options."""
    from samsara_host.app.boardwatch import BoardWatch
    from samsara_host.app.server import AppServer
    if args.idle and not args.virtual:
        print("samsara app: --idle is for --virtual", file=sys.stderr)
        return 2
    if args.turns is not None and (args.idle or not args.virtual):
        print("samsara app: --turns is for --virtual without --idle", file=sys.stderr)
        return 2
    game = getattr(args, "game", "samsara")
    if game != "samsara" and args.turns is not None:
        print("samsara app: --turns is Samsara's (a %s game is played to its end)"
              % game.capitalize(), file=sys.stderr)
        return 2
    if game != "samsara" and args.no_board:
        print("samsara app: --game is the board's game: not with --no-board (the Play "
              "page offers every game)", file=sys.stderr)
        return 2
    if getattr(args, "layout", None) is not None and (game != "schaska" or not args.virtual):
        print("samsara app: --layout is for --game schaska --virtual (a board reads its "
              "own layout.txt)", file=sys.stderr)
        return 2
    players = None
    if getattr(args, "names", None) is not None:
        from samsara_host.vboard_cmd import players_of
        if not args.virtual:
            print("samsara app: --names is for --virtual (a board's game is named on the "
                  "live page)", file=sys.stderr)
            return 2
        try:
            players = players_of(args.names, game)
        except ValueError as e:
            print("samsara app: --names: %s" % e if not str(e).startswith("--names")
                  else "samsara app: %s" % e, file=sys.stderr)
            return 2
    broker = None
    if args.broker or args.ca:
        from samsara_host.online.cmd import broker_of
        if not args.broker:
            print("samsara app: --ca is for --broker mqtts://...", file=sys.stderr)
            return 2
        broker = broker_of(args, "samsara app")
        if broker is None:
            return 2
    if not 0 <= args.http_port <= 65535:
        print("samsara app: --http-port is 0..65535", file=sys.stderr)
        return 2
    from samsara_host.argtypes import folder_problem
    problem = folder_problem(args.logs, "--logs")
    if problem:
        print("samsara app: %s" % problem, file=sys.stderr)
        return 2    # the library folder given cannot be: docs/cli.md "Exit codes"
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), _interrupt)
    vb = None
    srv = None
    online_conn = None
    try:
        port = args.board
        play = None
        if args.virtual:
            from samsara_host.virtual_board import VirtualBoard
            folder = tempfile.mkdtemp(prefix="samsara-app-vb-")
            if game == "samsara":
                from samsara_host.vboard_play import TablePlay
                vb = VirtualBoard(folder=folder, seed=args.seed)
                if not args.idle:
                    play = TablePlay(vb, args.seed, pace_s=args.pace)
            else:
                from samsara_host.vboard_games_play import GamesPlay
                vb = VirtualBoard(folder=folder, game=game,
                                  layout=getattr(args, "layout", None), players=players)
                if not args.idle:
                    play = GamesPlay(vb, args.seed, pace_s=args.pace)
            port = vb.start()
            vb.wait_ready(30)
        watch = None if args.no_board else BoardWatch(port, None)
        if watch is not None:
            watch.expect_game = game
            watch.on_note = _say_note
        if watch is not None and vb is not None:
            watch.virtual = vb      # its end is noticed at once and can be restarted
        online = None
        if broker is not None:
            from samsara_host.online.broadcast import follow
            online, online_conn = follow(broker)
        srv = AppServer(args.logs, watch, online=online)
        srv.online_play.configure(
            broker=args.broker, ca_file=args.ca, folder=args.online_dir,
            refuse=None if play is None else "The app's virtual board is played by two "
            "simulated players: for an online game start the app with --virtual --idle "
            "(you move its marbles on the Live board page) or with your board.")
        try:
            url = srv.start(args.http_port)
        except OSError as e:
            print("samsara app: cannot serve on port %d: %s (another program uses it? "
                  "try --http-port 0)" % (args.http_port, e.strerror or e), file=sys.stderr)
            return 1
        wait_answers(url)
        print("url: %s" % url, flush=True)
        if vb is not None:
            print("virtual board: %s (folder %s)%s" % (
                port, vb.folder, "" if game == "samsara" else ", playing " + game.capitalize()),
                flush=True)
        print("Ctrl-C stops it.", flush=True)
        if play is not None:
            threading.Thread(target=_play, args=(play, args.turns), daemon=True).start()
        if not args.no_browser:
            import webbrowser
            try:
                webbrowser.open(url)
            except Exception:
                pass
        while True:
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    except (OSError, TimeoutError) as e:
        print("samsara app: %s" % e, file=sys.stderr)
        return 1
    finally:
        _quiet_signals()
        if srv is not None:
            srv.stop()
        if online_conn is not None:
            online_conn.stop()
        if vb is not None:
            vb.stop()
            shutil.rmtree(vb.folder, ignore_errors=True)   # the temporary board's flash
    return 0


def _say_note(words):
    """The board's game differs from --game (BoardWatch.on_note): said on stderr."""
    print("samsara app: %s" % words, file=sys.stderr, flush=True)


def _play(play, turns):
    time.sleep(1.0)    # the page's first look at the board before the first roll
    from samsara_host.vboard_cmd import play_and_say
    play_and_say(play, turns)
