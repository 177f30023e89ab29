"""The values each host command argument takes, in words (docs/protocol.md "Commands",
"Error codes"): the text of a bad_args reply names the argument and these words.  Its
one job is those words and the value sets they describe; the parser
(boardcore.link.commands) and the commands that check an argument themselves
(boardcore.link.cmd_flight's self_test) use them.
"""

from boardcore.link.protocol import CHUNK

CAL_STEPS = ("start", "empty", "occupied", "save", "cancel")
"""The steps of the `calibrate` command."""
TEST_STEPS = ("hole", "result", "stop")
"""The steps of the `self_test` command."""

_BIG = "1073741823"     # 2^30 - 1: the largest game number, offset or integer id


def takes(name, key):
    """The values argument `key` of command `name` takes, as words: "a number of bytes
    1..192"."""
    if key == "after":
        if name == "health":
            return "-1 (from the start) or a position index 0..63 (the last one listed)"
        return "-1 (from the start) or a game number 0.." + _BIG + " (the last one listed)"
    if key == "copy":
        return "-1 (the live ring) or a saved copy's number (flight_list)"
    if key == "game":
        return "a game number 0.." + _BIG + " (logs lists them)"
    if key == "offset":
        return "a byte offset 0.." + _BIG
    if key == "size":
        return "the log's size in bytes 0.." + _BIG
    if key == "n":
        return "a number of bytes 1..%d" % CHUNK
    if key == "crc":
        return "the log's CRC-16 as 4 hex digits (e.g. \"29b1\")"
    if key == "dice":
        return "a list of two dice [d1, d2], each 1..6"
    if key == "starter":
        return "\"A\" or \"B\" (the player who starts)"
    if key == "vs_board":
        return "\"A\" or \"B\" (the side the board plays)"
    if key == "level":
        return "1, 2 or 3 (the board's strength in a game against it; 3 the strongest)"
    if key == "far":
        return "\"A\" or \"B\" (the side the far player plays)"
    if key == "turn":
        return "turn notation of at most 80 characters (e.g. \"53 5:R1-S18 3:R2-S20\")"
    if key == "online" or key == "name_a" or key == "name_b":
        return "a text of at most 80 characters"
    if key == "position":
        return "a position string (docs/rules.md section 5) of at most 80 characters"
    if key == "ms":
        return "a number of milliseconds 100..10000"
    if key == "pos":
        return "a hole's name: R1..R24, S1..S24, A0..A5, AC, B0..B5, BC, GR or GS"
    if key == "step":
        if name == "self_test":
            return "\"hole\" (with pos), \"result\" or \"stop\""
        return ", ".join(['"%s"' % s for s in CAL_STEPS[:-1]]) + ' or "%s"' % CAL_STEPS[-1]
    if key == "match" or key == "force" or key == "joint":
        return "true or false"
    return "a value of docs/protocol.md \"Commands\""  # pragma: no cover - table error
