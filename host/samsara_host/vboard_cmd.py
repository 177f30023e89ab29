"""`samsara virtual-board [DIR] [--id ID] [--game samsara|samas|schaska] [--layout V,...]
[--play SEED] [--turns N] [--names A B]` and
`python -m samsara_host.virtual_board` (docs/virtual-board.md): run a virtual board
for the user's tools until Ctrl-C or SIGTERM.  Its one job is the command line around
samsara_host.virtual_board.VirtualBoard (and vboard_play.TablePlay for --play, or
vboard_games_play.GamesPlay for Samas and Schaska).

The first line printed is `port: <port>`, a path that `samsara --port`,
`mpremote connect` and `serial.serial_for_url` all accept.
"""
import argparse
import os
import signal
import sys
import threading
import time

DESCRIPTION = ("Run a virtual board (the firmware under the `micropython` command behind "
               "a pseudo-terminal) until Ctrl-C or SIGTERM.  The first line printed is "
               "`port: PORT`: give it to `samsara ... --port PORT`, `mpremote connect PORT "
               "resume ...` or serial.serial_for_url.")


def _board_id(text):
    from samsara_host.virtual_board import check_board_id
    try:
        return check_board_id(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e))


def _turns(text):
    try:
        n = int(text)
    except ValueError:
        n = -1
    if n < 1:
        raise argparse.ArgumentTypeError("--turns takes a whole number of turns, 1 or "
                                         "more, not %r" % text)
    return n


def _seed(text):
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("--play takes a whole number (the seed), not %r"
                                         % text)


def _layout(text):
    from schaska.rules.layout import LayoutError, parse_layout
    try:
        return parse_layout(text)
    except LayoutError as e:
        raise argparse.ArgumentTypeError(str(e))


def configure(p):
    """Add the options of the command to argparse parser `p`."""
    p.add_argument("folder", nargs="?", metavar="DIR",
                   help="the board's folder: its game logs, feed file and id are kept "
                        "there (default: a new temporary folder, removed at the end)")
    p.add_argument("--id", type=_board_id, metavar="ID",
                   help="the board id `hello` reports and the game logs record (default: "
                        "the one kept in DIR, else a new one, virtual-XXXXXXXX)")
    p.add_argument("--play", type=_seed, metavar="SEED",
                   help="two simulated greedy players play a game seeded with SEED "
                        "(moves and dice) through the board's sensors and buttons; the "
                        "USB port stays free")
    p.add_argument("--side", choices=("A", "B"),
                   help="with --play: one hand plays this side of an online game by "
                        "choice and carries out the far player's turns as the board "
                        "lights them (docs/online.md)")
    p.add_argument("--game", choices=("samsara", "samas", "schaska"), default="samsara",
                   help="the game the board's firmware plays on the same electronics "
                        "(default samsara; docs/samas.md, docs/schaska.md)")
    p.add_argument("--layout", type=_layout, metavar="V1,V2,...",
                   help="with --game schaska: the track's field values (default: the "
                        "default layout of docs/schaska.md)")
    p.add_argument("--turns", type=_turns, metavar="N",
                   help="with --play: stop after N complete turns (the game stays open)")
    p.add_argument("--names", nargs="+", metavar="NAME",
                   help="with --game samas or schaska: the players' names, A's then B's "
                        "(one name alone is A's), in every game's log header (`logs`, "
                        "the app and exports name them); a Samsara game is named by "
                        "`samsara game new --names`")
    p.set_defaults(func=cmd_virtual_board)


def players_of(names, game):
    """[A's, B's] of `--names` for a Samas or Schaska board (game_cmd.names_of: checked
    as `logs tag` checks them), None when not given.  Raises ValueError in words (also
    for a Samsara board, whose game is named by `game new --names`)."""
    if names is None:
        return None
    if game == "samsara":
        raise ValueError("--names is for --game samas or schaska (a Samsara game is "
                         "named by `samsara game new --names`)")
    from samsara_host.game_cmd import names_of
    return names_of(names)


def add_parser(sub, name, help_text):
    """Register `samsara virtual-board` (cli.py's table)."""
    p = sub.add_parser(name, help=help_text, description=DESCRIPTION)
    configure(p)


def _interrupt(_signum, _frame):
    raise KeyboardInterrupt


def _say(text):
    print(text, flush=True)


def cmd_virtual_board(args):
    """Run the board (module docstring).  Returns 0 after Ctrl-C or SIGTERM, 1 when
    the board's process died or could not start or another board runs in DIR, 2 for
    bad options or a DIR that is no folder for a board (a file, one it cannot make)."""
    from samsara_host.virtual_board import FolderError, VirtualBoard
    if args.turns is not None and args.play is None:
        print("samsara virtual-board: --turns needs --play SEED", file=sys.stderr)
        return 2
    if getattr(args, "side", None) is not None and args.play is None:
        print("samsara virtual-board: --side needs --play SEED", file=sys.stderr)
        return 2
    game = getattr(args, "game", "samsara")
    if getattr(args, "layout", None) is not None and game != "schaska":
        print("samsara virtual-board: --layout is for --game schaska", file=sys.stderr)
        return 2
    if game != "samsara" and (args.turns is not None or getattr(args, "side", None)):
        print("samsara virtual-board: --turns and --side are for Samsara's board",
              file=sys.stderr)
        return 2
    try:
        players = players_of(getattr(args, "names", None), game)
    except ValueError as e:
        print("samsara virtual-board: --names: %s" % e if not str(e).startswith("--names")
              else "samsara virtual-board: %s" % e, file=sys.stderr)
        return 2
    # SIGTERM (and a closed terminal's SIGHUP) end it like Ctrl-C, so the `micropython`
    # child, in a session of its own, is never left running.
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), _interrupt)
    vb = None
    code = 0
    try:
        try:
            vb = VirtualBoard(folder=args.folder, board_id=args.id,
                              seed=args.play if game == "samsara" else None, game=game,
                              layout=getattr(args, "layout", None), players=players)
        except (FolderError, ValueError) as e:
            print("samsara virtual-board: %s" % e, file=sys.stderr)
            return 1 if getattr(e, "busy", False) else 2   # taken, or not what it takes
        except OSError as e:
            print("samsara virtual-board: %s" % e, file=sys.stderr)
            return 1
        play = None
        if args.play is not None and game != "samsara":
            from samsara_host.vboard_games_play import GamesPlay
            play = GamesPlay(vb, args.play)
        elif args.play is not None:
            from samsara_host.vboard_play import TablePlay
            play = TablePlay(vb, args.play, side=getattr(args, "side", None))
        port = vb.start()
        _say("port: %s" % port)
        _say("board: %s, folder: %s" % (vb.board_id, vb.folder))
        _say("Ctrl-C stops it.")
        try:
            vb.wait_ready(30)
        except TimeoutError as e:
            if vb.alive():
                print("samsara virtual-board: %s" % e, file=sys.stderr)
                return 1
        if play is not None:
            threading.Thread(target=play_and_say, args=(play, args.turns), daemon=True).start()
        while True:
            if not vb.alive():
                rc = vb.proc.returncode if vb.proc is not None else None
                print("samsara virtual-board: the board's process stopped (exit code %s; "
                      "its output is in %s); the port is gone"
                      % (rc, os.path.join(vb.folder, "stderr.log")), file=sys.stderr)
                code = 1
                break
            time.sleep(0.2)
    except KeyboardInterrupt:
        pass
    finally:
        for name in ("SIGINT", "SIGTERM", "SIGHUP"):  # no second signal cuts the clean-up
            if hasattr(signal, name):
                signal.signal(getattr(signal, name), signal.SIG_IGN)
        if vb is not None:
            vb.stop()
            if args.folder:
                print("stopped; the game logs stay in %s"
                      % os.path.join(vb.folder, "logs"), flush=True)
    return code


def play_and_say(play, turns):
    """Carry out `play` (vboard_play's seeded Samsara players, or
    vboard_games_play.GamesPlay for Samas and Schaska) on a virtual board, `turns` turns
    at most (Samsara; None: to the end), and print the line that ends it: "played: N
    turns|rounds[, game over]", or "play stopped: REASON" when the players gave up."""
    from samsara_host.vboard_play import PlayError
    from samsara_host import vboard_games_play
    word = "turn"
    try:
        if isinstance(play, vboard_games_play.GamesPlay):
            word = "round" if play.game == "samas" else "turn"
            n, over = play.run()
        else:
            n, over = play.run(turns)
    except (PlayError, vboard_games_play.PlayError, ValueError) as e:
        _say("play stopped: %s" % e)
        return
    _say("played: %d %s%s%s" % (n, word, "" if n == 1 else "s", ", game over" if over else ""))


def main(argv=None):
    """`python -m samsara_host.virtual_board [DIR] [--id ID] [--play SEED] [--turns N]`:
    the same as `samsara virtual-board`.  Returns the exit code."""
    p = argparse.ArgumentParser(prog="python -m samsara_host.virtual_board",
                                description=DESCRIPTION)
    configure(p)
    args = p.parse_args(sys.argv[1:] if argv is None else argv)
    return cmd_virtual_board(args)
