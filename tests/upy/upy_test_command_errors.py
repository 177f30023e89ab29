"""The texts of the board's errors for a host line it cannot take (docs/protocol.md
"Error codes", boardcore.link.commands and argwords): a bad argument names the argument and the
values it takes, bad JSON says what is wrong with it, and MicroPython and CPython give
the same reply.  Runs under MicroPython (make test-upy, make test-wasm) and CPython
(tests/test_command_errors.py)."""

from boardcore.link import protocol as P
from boardcore.link.commands import COMMAND_NAMES, command_spec, parse_command


def _err(line):
    # The ProtocolError of `line` (str), as (code, msg).
    try:
        parse_command(line.encode())
    except P.ProtocolError as e:
        return e.code, e.msg
    raise AssertionError("taken: %s" % line)


BIG = "1073741823"   # 2^30 - 1, the largest small int of a game number or an offset

ARG_TEXTS = [
    ('{"cmd":"logs","after":-2}',
     "after must be -1 (from the start) or a game number 0.." + BIG + " (the last one listed)"),
    ('{"cmd":"health","after":"R1"}',
     "after must be -1 (from the start) or a position index 0..63 (the last one listed)"),
    ('{"cmd":"flight","copy":-5}',
     "copy must be -1 (the live ring) or a saved copy's number (flight_list)"),
    ('{"cmd":"log_get","game":-1}', "game must be a game number 0.." + BIG + " (logs lists them)"),
    ('{"cmd":"log_get","game":1,"offset":-1}', "offset must be a byte offset 0.." + BIG),
    ('{"cmd":"log_get","game":1,"n":0}', "n must be a number of bytes 1..192"),
    ('{"cmd":"log_ack","game":1,"crc":"xyz1","size":3}',
     "crc must be the log's CRC-16 as 4 hex digits (e.g. \"29b1\")"),
    ('{"cmd":"log_ack","game":1,"crc":"29b1","size":true}',
     "size must be the log's size in bytes 0.." + BIG),
    ('{"cmd":"log_del","game":1,"force":1}', "force must be true or false"),
    ('{"cmd":"set_dice","dice":[1,7]}', "dice must be a list of two dice [d1, d2], each 1..6"),
    ('{"cmd":"set_dice","dice":3}', "dice must be a list of two dice [d1, d2], each 1..6"),
    ('{"cmd":"new_game","starter":"C"}', "starter must be \"A\" or \"B\" (the player who starts)"),
    ('{"cmd":"new_game","vs_board":1}',
     "vs_board must be \"A\" or \"B\" (the side the board plays)"),
    ('{"cmd":"new_game","match":"yes"}', "match must be true or false"),
    ('{"cmd":"new_game","position":5}',
     "position must be a position string (docs/rules.md section 5) of at most 80 characters"),
    ('{"cmd":"led_test","ms":50}', "ms must be a number of milliseconds 100..10000"),
    ('{"cmd":"calibrate","step":"go"}',
     "step must be \"start\", \"empty\", \"occupied\", \"save\" or \"cancel\""),
    ('{"cmd":"self_test","step":1}', "step must be \"hole\" (with pos), \"result\" or \"stop\""),
    ('{"cmd":"self_test","step":"hole","pos":3}',
     "pos must be a hole's name: R1..R24, S1..S24, A0..A5, AC, B0..B5, BC, GR or GS"),
]


def test_a_bad_argument_names_what_it_takes():
    for line, text in ARG_TEXTS:
        assert _err(line) == (P.E_BAD_ARGS, text), (line, _err(line))


def test_a_missing_argument_names_what_it_takes():
    assert _err('{"cmd":"log_get"}') == (
        P.E_BAD_ARGS, "game is required: a game number 0.." + BIG + " (logs lists them)")
    assert _err('{"cmd":"set_dice"}') == (
        P.E_BAD_ARGS, "dice is required: a list of two dice [d1, d2], each 1..6")
    assert _err('{"cmd":"self_test"}') == (
        P.E_BAD_ARGS, "step is required: \"hole\" (with pos), \"result\" or \"stop\"")


def test_an_unknown_argument_names_the_commands_arguments():
    assert _err('{"cmd":"log_get","game":1,"size":3}') == (
        P.E_BAD_ARGS, "unknown argument size: log_get takes game, n, offset")
    assert _err('{"cmd":"hello","x":1}') == (
        P.E_BAD_ARGS, "unknown argument x: hello takes no arguments")


def test_bad_json_says_what_is_wrong():
    # MicroPython's json parses any depth without recursion and says only "syntax
    # error"; CPython's says more (and would refuse about 1000 levels, far more than a
    # line of MAX_IN bytes holds): the text is made from the line alone, so both agree.
    deep = "[" * 200
    assert _err(deep) == (P.E_BAD_JSON, "not valid JSON: the line ends with 200 "
                                        "brackets still open")
    assert _err('{"cmd":"roll"') == (P.E_BAD_JSON, "not valid JSON: the line ends with 1 "
                                                   "bracket still open")
    assert _err('{"cmd":"roll') == (P.E_BAD_JSON, "not valid JSON: the line ends inside "
                                                  "a string")
    assert _err("{cmd: roll}") == (P.E_BAD_JSON, "not valid JSON (a command is one JSON "
                                                 "object, e.g. {\"cmd\": \"status\"})")
    assert _err('{"cmd":"roll"}}') == (P.E_BAD_JSON, "not valid JSON (a command is one "
                                                     "JSON object, e.g. {\"cmd\": \"status\"})")
    assert _err('{"cmd":"hello"}{"cmd":"status"}')[0] == P.E_TWO
    # deep but whole: valid JSON, not an object
    assert _err("[" * 120 + "]" * 120) == (P.E_NOT_OBJECT, "a command is a JSON object")


def test_every_argument_of_every_command_has_its_words():
    from boardcore.link.argwords import takes
    for name in COMMAND_NAMES:
        for key in command_spec(name):
            assert "docs/protocol.md" not in takes(name, key), (name, key)


def test_the_id_range_is_said_right():
    assert _err('{"cmd":"hello","id":1073741824}') == (
        P.E_BAD_ID, "id must be an integer 0.." + BIG + " or a string of at most 16 characters")


def test_self_test_hole_without_or_with_a_bad_pos_says_what_pos_takes():
    from samsara.core import Board
    from samsara.config import Config
    from boardcore.flight import Flight
    from boardcore.storage import gamelog as G
    from memfs import MemFs
    from linkkit import FakeStream, services
    board = Board(Config(dice="host", settle_place_ms=30))
    st = FakeStream()
    rig = services(st, board, G.GameLog(MemFs()), None, "test-1", 2, boot_ms=0,
                   flight=Flight(board, 256))
    holes = "a hole's name: R1..R24, S1..S24, A0..A5, AC, B0..B5, BC, GR or GS"
    now = 1000
    for line, text in (
            (b'{"cmd":"self_test","step":"hole"}\n', "pos is required with step hole: " + holes),
            (b'{"cmd":"self_test","step":"hole","pos":"R25"}\n',
             "pos must be " + holes + ", not \"R25\""),
            (b'{"cmd":"self_test","step":"go"}\n',
             "step must be \"hole\" (with pos), \"result\" or \"stop\", not \"go\"")):
        st.feed(line)
        for _ in range(20):
            now += 2
            rig.poll(now)
        r = [x for x in st.lines() if "re" in x]
        assert len(r) == 1 and r[0]["error"] == P.E_BAD_ARGS, r
        assert r[0]["msg"] == text, (r[0]["msg"], text)


SURROGATE_TEXT = ("name_a must be UTF-8 text: it holds a \\u escape of a surrogate "
                  "(\\ud800-\\udfff); send the character itself as UTF-8")


def test_a_text_argument_holding_a_surrogate_escape_is_refused():
    # A lone surrogate is refused on both VMs; an escaped pair (an emoji as
    # \ud83d\ude00) is refused where json.loads cannot join it (MicroPython) and taken as
    # the one character where it can (CPython): whatever is taken encodes as UTF-8.
    lone = '{"cmd":"new_game","name_a":"Ben \\ud83d"}'
    assert _err(lone) == (P.E_BAD_ARGS, SURROGATE_TEXT), _err(lone)
    pair = '{"cmd":"new_game","name_a":"Ben \\ud83d\\ude00"}'
    try:
        _, _, args = parse_command(pair.encode())
    except P.ProtocolError as e:
        assert (e.code, e.msg) == (P.E_BAD_ARGS, SURROGATE_TEXT), e.msg
    else:
        assert args["name_a"].encode("utf-8").decode("utf-8") == "Ben \U0001F600"
    # the character itself, as UTF-8, is taken on both
    _, _, args = parse_command('{"cmd":"new_game","name_a":"Ben \U0001F600"}'.encode("utf-8"))
    assert args["name_a"] == "Ben \U0001F600" and len(args["name_a"]) == 5
