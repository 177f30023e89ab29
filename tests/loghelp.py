"""Game logs for tests: a seeded self-play game written through the firmware's own log
store (boardcore.storage.gamelog over an in-memory file system), and the board a
samsara.recorder.Recorder needs."""
from fakes.memfs import MemFs
from boardcore.storage.gamelog import GameLog
from samsara_host.selfplay import play_game


def game_log(seed, header=None, finish=True, end=None):
    """(log bytes, Game): the records a board writes for self-play game `seed`;
    `end` replaces the end record's dict (to test a disagreeing verdict)."""
    return write_log(play_game(seed), header, finish, end)


def write_log(game, header=None, finish=True, end=None):
    """(log bytes, game): the records a board writes for the played Game `game` (its
    record of turn notations and its result), as game_log."""
    fs = MemFs()
    log = GameLog(fs)
    log.boot()
    log.start_game(header if header is not None else {"position": None})
    for note in game.record:
        parts = note.split()
        log.log_event({"ev": "roll", "dice": [int(parts[0][0]), int(parts[0][1])]})
        for sub in parts[1:]:
            if sub != "Moksha":
                log.log_event({"ev": "sub", "move": sub})
        log.log_event({"ev": "turn", "turn": note})
    if finish:
        w = game.result[0] if game.result else None
        log.end_game(end or {"how": "end", "winner": None if w is None else "AB"[w],
                             "score": "%d-%d" % (game.pos.a, game.pos.b)})
    name = [n for n in fs.listdir() if n.startswith("g") and not n.startswith("id")][0]
    return fs.read(name, 0, fs.size(name)), game


class RecorderBoard:
    """The members of samsara.core.Board the recorder touches (config.opponent_goal,
    emit, set_overlay, clear_overlay); emitted events are kept in `events`."""

    class config:
        opponent_goal = "owner_scores"

    def __init__(self):
        self.events = []

    def emit(self, ev):
        self.events.append(ev)

    def set_overlay(self, name):
        pass

    def clear_overlay(self, name):
        pass
