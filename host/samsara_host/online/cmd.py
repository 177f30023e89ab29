"""`samsara online host|join|watch|load` and `samsara relay` (docs/online.md).  Its one
job is the command line around samsara_host.online: options checked up front (exit
2 with the option named), the bridge's lines on stdout, its log on stderr.

    samsara online host --broker mqtt://HOST:PORT --side A|B [--name NAME] [--port P]
    samsara online join CODE --broker ... [--name NAME] [--port P]
    samsara online watch CODE --broker ... [--json]
    samsara online load --games N --broker ...
    samsara relay [--port N] [--bind ADDR] [--dir DIR]
"""
import signal
import sys
import time

from samsara_host.argtypes import parsed_by, text_of, whole
from samsara_host.online import NAME_MAX

_broker = parsed_by("samsara_host.online.mqtt", "parse_broker", "BrokerError")
_code = parsed_by("samsara_host.online.code", "parse_code", "CodeError")
_name = text_of("--name", NAME_MAX)
_games = whole(1, 5000)


class Terminated(KeyboardInterrupt):
    """SIGTERM (a `kill`, a service manager stopping the command): it ends a command as
    Ctrl-C does, and is said as "terminated", exit code 143."""


def _interrupt(_signum, _frame):
    raise Terminated


def _stopped_by(e):
    # ("Ctrl-C", 130) or ("terminated", 143): what stopped the command, its exit code
    return ("terminated", 143) if isinstance(e, Terminated) else ("Ctrl-C", 130)


def broker_of(args, prog="samsara online"):
    """The Broker of `--broker` and `--ca`, or None after saying on stderr why not
    (the command then exits 2)."""
    from samsara_host.online.mqtt import BrokerError, parse_broker
    try:
        return parse_broker(args.broker, getattr(args, "ca", None))
    except BrokerError as e:
        print("%s: --broker: %s" % (prog, e), file=sys.stderr)
        return None


def connect_factory(broker, name):
    """connect(subscriptions) -> a started samsara_host.online.mqtt.Connection to
    `broker` (a Broker), for a Bridge or a spectator."""
    from samsara_host.online.mqtt import Connection

    def connect(subs):
        c = Connection(broker, subs, name=name)
        c.start()
        return c
    return connect


def _log(text):
    print("samsara online: %s" % text, file=sys.stderr, flush=True)


def _say(text):
    print(text, flush=True)


def cmd_bridge(args):
    """host / join: bridge the board and the broker until the game ends.  Returns 0 at
    the game's end, 1 when the board, the broker or the game fails, 130 on Ctrl-C, 143
    on SIGTERM (the game's file stays: the same command resumes it).  `host` without
    --code resumes the unfinished game it hosted with the same --dir and --side
    (bridge.kept_game; --new: a new game); it prints the code once the board answered
    and the broker took the connection (docs/online.md "Stopping and going on")."""
    from samsara_host.boardlink import LinkError
    from samsara_host.online.bridge import Bridge, BridgeError, kept_game, open_board
    from samsara_host.online.code import new_code
    broker = broker_of(args)
    if broker is None:
        return 2
    signal.signal(signal.SIGTERM, _interrupt)
    host = args.role == "host"
    code = args.code if getattr(args, "code", None) else None
    if host and code is None and not args.new:
        code = kept_game(args.dir, args.side)
    code = code or new_code()
    bridge = None
    board = None
    try:
        board = open_board(args.port)
        bridge = Bridge(board, connect_factory(broker, "samsara-bridge"), code,
                        side=args.side if host else None,
                        name=args.name, folder=args.dir, public=getattr(args, "public", False),
                        say=_say, log=_log)
        if host:
            t0, said = time.monotonic(), False
            while not bridge.conn.connected.wait(0.2):
                if not said and (bridge.conn.trouble or time.monotonic() - t0 >= 2.0):
                    said = True
                    _log("no connection to the broker %s yet: the code is shown once it "
                         "answers" % broker.url())
                bridge.check_broker()   # (says why not, once; a refusal ends it)
            _say("code: %s" % code)
        n = bridge.run()
        _say("played: %d turns, game over" % n)
        return 0
    except (BridgeError, LinkError) as e:
        print("samsara online: %s" % e, file=sys.stderr)
        return 1
    except KeyboardInterrupt as e:
        how, rc = _stopped_by(e)
        if bridge is None or bridge.peer is None:
            print("samsara online: stopped (%s) before the game began" % how,
                  file=sys.stderr)
        elif host and getattr(args, "new", False):
            print("samsara online: stopped (%s); the game is kept: run the same command "
                  "again without --new to go on" % how, file=sys.stderr)
        else:
            print("samsara online: stopped (%s); the game is kept: run the same command "
                  "again to go on" % how, file=sys.stderr)
        return rc
    finally:
        if bridge is not None:
            bridge.conn.stop()
        if board is not None:
            board.close()


def cmd_watch(args):
    """watch: print the game's turns until it ends (0), or Ctrl-C (130), SIGTERM
    (143)."""
    from samsara_host.online.watch import WatchError, watch
    broker = broker_of(args)
    if broker is None:
        return 2
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        watch(args.code, connect_factory(broker, "samsara-watch"),
              out=_say, as_json=args.json)
    except WatchError as e:
        print("samsara online: %s" % e, file=sys.stderr)
        return 1
    except KeyboardInterrupt as e:
        return _stopped_by(e)[1]
    return 0


def cmd_load(args):
    """load: many simulated games at once; prints the figures."""
    from samsara_host.online.load import run_load
    broker = broker_of(args)
    if broker is None:
        return 2
    res = run_load(broker, args.games, turns=args.turns, procs=args.procs,
                   say=_say)
    for line in res.lines():
        _say(line)
    return 0 if res.ok() else 1


def relay_lines(bind, port, url):
    """The lines `samsara relay` starts with: `broker: URL` with an address the other
    player can give to --broker (listening on every address: this machine's address on
    its network, else its name), and how this machine reaches it."""
    from samsara_host.online.relay import lan_address
    if bind not in ("0.0.0.0", "::"):
        return ["broker: %s" % url]
    addr, name = lan_address()
    there = "mqtt://%s:%d" % (addr or name, port)
    lines = ["broker: %s" % there]
    if addr and name:
        lines.append("  (for the other player; or mqtt://%s:%d where that name is "
                     "known; on this machine mqtt://localhost:%d works too)"
                     % (name, port, port))
    else:
        lines.append("  (on this machine mqtt://localhost:%d works too)" % port)
    return lines


def cmd_relay(args):
    """relay: Mosquitto with the project's configuration until Ctrl-C."""
    from samsara_host.online.relay import Relay, RelayError
    if not 1 <= args.port <= 65535:
        print("samsara relay: --port is 1..65535", file=sys.stderr)
        return 2                  # (before anything is made: no folder left behind)
    signal.signal(signal.SIGTERM, _interrupt)
    r = None
    try:
        # (a stop that comes at any point, even while Mosquitto starts or the lines are
        # printed, ends the relay as a stop does: its broker stopped, its folder gone)
        try:
            r = Relay(port=args.port, bind=args.bind, folder=args.dir)
            url = r.start()
        except RelayError as e:
            print("samsara relay: %s" % e, file=sys.stderr)
            return 1
        for line in relay_lines(args.bind, r.port, url):
            _say(line)
        _say("its files: %s; Ctrl-C stops it" % r.folder)
        while r.alive():
            time.sleep(0.5)
        print("samsara relay: mosquitto stopped (see %s)" % r.log_path(), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
    finally:
        if r is not None:
            r.stop()


def add_parser(sub, name, help_text):
    """Register `samsara online` (cli.py's table)."""
    p = sub.add_parser(name, help=help_text, description="Play a friend far away: two "
                       "boards, one game, over an MQTT broker (docs/online.md).")
    s = p.add_subparsers(dest="online_cmd", metavar="COMMAND")

    def broker_opts(q):
        q.add_argument("--broker", type=_broker, required=True, metavar="URL",
                       help="the MQTT broker: mqtt://HOST:PORT, or mqtts://HOST:PORT "
                       "with TLS; USER:PASSWORD@ before HOST for a login (a USER "
                       "alone takes the password from $SAMSARA_BROKER_PASSWORD)")
        q.add_argument("--ca", metavar="FILE", help="with mqtts://: the CA certificate "
                       "(PEM) the broker's certificate is checked against (default: "
                       "the system's)")

    def bridge_opts(q):
        broker_opts(q)
        q.add_argument("--name", type=_name, default=None, help="your name (in both logs)")
        q.add_argument("--port", metavar="PORT", help="the board's port (default: the "
                       "one Pico found); a virtual board's port works too")
        q.add_argument("--dir", metavar="DIR", help="where the game's file is kept "
                       "(default ~/.samsara/online)")
        q.set_defaults(func=cmd_bridge)

    h = s.add_parser("host", help="start a game: prints its code first")
    h.add_argument("--side", choices=("A", "B"), required=True,
                   help="the side you play: A or B")
    h.add_argument("--code", type=_code, help="go on with the game of this code (after a "
                   "stop), or use it for a new game (default: the unfinished game "
                   "hosted with the same --dir and --side, else a new code)")
    h.add_argument("--new", action="store_true", help="a new game even when an "
                   "unfinished one is kept in --dir")
    h.add_argument("--public", action="store_true", help="show the game's board on the "
                   "broker's broadcast page (anyone on the broker sees it)")
    bridge_opts(h)
    h.set_defaults(role="host")
    j = s.add_parser("join", help="join the game of a code")
    j.add_argument("code", type=_code, metavar="CODE")
    bridge_opts(j)
    j.set_defaults(role="join")
    w = s.add_parser("watch", help="follow a game's turns")
    w.add_argument("code", type=_code, metavar="CODE")
    broker_opts(w)
    w.add_argument("--json", action="store_true", help="one JSON object per turn")
    w.set_defaults(func=cmd_watch)
    ld = s.add_parser("load", help="many simulated games at once on one broker: "
                      "turns, latency, lost and duplicated")
    ld.add_argument("--games", type=_games, required=True, metavar="N")
    broker_opts(ld)
    ld.add_argument("--turns", type=_games, default=20, metavar="T",
                    help="turns each game plays (default 20)")
    ld.add_argument("--procs", type=_games, default=2, metavar="P",
                    help="processes the simulated bridges run in (default 2)")
    ld.set_defaults(func=cmd_load)


def add_relay_parser(sub, name, help_text):
    """Register `samsara relay` (cli.py's table)."""
    p = sub.add_parser(name, help=help_text, description="Run Mosquitto with the "
                       "project's configuration (persistence on) for online games; "
                       "prints `broker: mqtt://ADDRESS:PORT`, this machine's "
                       "address on its network.")
    p.add_argument("--port", type=int, default=1883, help="the TCP port (default 1883)")
    p.add_argument("--bind", default="0.0.0.0", help="the address to listen on "
                   "(default all: other machines can reach it)")
    p.add_argument("--dir", metavar="DIR", help="its configuration, persistence and log "
                   "(default a new temporary folder)")
    p.set_defaults(func=cmd_relay)
