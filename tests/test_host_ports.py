"""`samsara ports` and port discovery: the Pico's USB id, errors that say what to do."""
import pytest
import serial.tools.list_ports

from fakeboard import FakeBoard
from samsara_host import boardlink, cli


class Port:
    def __init__(self, device, vid=None, pid=None, description=""):
        self.device = device
        self.vid = vid
        self.pid = pid
        self.serial_number = "E6614C31" if vid else None
        self.description = description


MACHINE = [Port("/dev/ttyS0", description="n/a"),
           Port("/dev/ttyUSB0", 0x10C4, 0xEA60, "CP2102"),
           Port("/dev/ttyACM0", 0x2E8A, 0x0005, "Board CDC")]


def test_the_pico_comes_first_and_is_found():
    ports = boardlink.list_ports(MACHINE)
    assert [p.device for p in ports] == ["/dev/ttyACM0", "/dev/ttyS0", "/dev/ttyUSB0"]
    assert ports[0].is_pico and ports[0].usb_id() == "2E8A:0005"
    assert ports[1].description == ""  # pyserial's "n/a"
    assert boardlink.find_board(MACHINE) == "/dev/ttyACM0"
    assert boardlink.resolve_port("socket://127.0.0.1:9", MACHINE) == "socket://127.0.0.1:9"


def test_no_pico_and_two_picos():
    with pytest.raises(boardlink.BoardNotFound, match="2E8A:0005.*--port"):
        boardlink.find_board(MACHINE[:2])
    two = MACHINE + [Port("/dev/ttyACM1", 0x2E8A, 0x0005)]
    with pytest.raises(boardlink.LinkError, match="2 boards found"):
        boardlink.find_board(two)


def test_ports_command(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda: list(MACHINE))
    assert cli.main(["ports"]) == 0
    out = capsys.readouterr().out
    assert "/dev/ttyACM0" in out and "2E8A:0005 Pico" in out and "ttyUSB0" not in out
    assert cli.main(["ports", "--all", "--json"]) == 0
    assert capsys.readouterr().out.count('"port"') == 3
    board = FakeBoard(str(tmp_path))
    try:
        assert cli.main(["ports", "--port", board.port]) == 0
        assert "Samsara board fake-1, firmware 0.1.0" in capsys.readouterr().out
    finally:
        board.unplug()
    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda: MACHINE[:2])
    assert cli.main(["ports"]) == 1
    assert "No Pico found" in capsys.readouterr().out
    assert cli.main(["ports", "--json"]) == 1
    assert capsys.readouterr().out == "[]\n"
    assert cli.main(["ports", "--all"]) == 1     # the other ports listed; still no board
    assert "/dev/ttyS0" in capsys.readouterr().out


def test_a_stray_file_system_error_is_one_line_not_a_traceback(monkeypatch, capsys):
    from samsara_host import ports_cmd

    def broken(args):
        raise PermissionError(13, "Permission denied", "some/file")

    monkeypatch.setattr(ports_cmd, "run", broken)
    assert cli.main(["ports"]) == 1
    assert capsys.readouterr().err == "samsara: some/file: Permission denied\n"


@pytest.mark.parametrize("port,cls,text", [
    ("/dev/samsara-no-such-port", boardlink.PortMissing, "does not exist"),
    ("socket://127.0.0.1:1", boardlink.PortMissing, "nothing listens"),
    ("bogus://x", boardlink.PortError, "could not open"),
])
def test_open_errors_name_the_cause(port, cls, text):
    with pytest.raises(cls, match=text):
        boardlink.open_port(port)


def test_an_unknown_host_is_named():
    with pytest.raises(boardlink.PortMissing, match="no computer named nosuch.invalid"):
        boardlink.open_port("socket://nosuch.invalid:7000")


@pytest.mark.parametrize("cmd", [["logs", "list"], ["logs", "pull"], ["monitor"], ["doctor"],
                                 ["deploy"], ["bench"], ["ports"], ["trace", "pull"]])
@pytest.mark.parametrize("port, piece", [
    ("bogus://x", "no port URL of that kind (bogus://)"),
    ("socket://nohost", "socket://HOST:PORT with PORT a number 1..65535"),
    ("socket://h:0", "socket://HOST:PORT with PORT a number 1..65535"),
    ("", "empty: give the board's serial port"),
])
def test_a_port_that_names_no_port_is_a_mistake_in_what_was_given(capsys, cmd, port, piece):
    # exit 2 before anything is opened or built, with what a port looks like, never
    # pyserial's own words ("'<=' not supported between instances ...")
    with pytest.raises(SystemExit) as e:
        cli.main(cmd + ["--port", port])
    err = capsys.readouterr().err
    assert e.value.code == 2 and piece in err and "usage: samsara " + cmd[0] in err
    assert "not supported between" not in err


def test_a_port_of_a_known_form_passes_the_check():
    from samsara_host.argtypes import port_arg
    for port in ("/dev/ttyACM0", "COM5", "socket://127.0.0.1:7000", "socket://[::1]:7000",
                 "rfc2217://board.local:2217", "loop://"):
        assert port_arg(port) == port


class _ReplayPort:
    """A serial port that first replays lines printed before we connected (like the
    emulated Pico's socket), then answers one hello."""

    def __init__(self, backlog):
        self.buf = bytearray(backlog)
        self.sent = []

    @property
    def in_waiting(self):
        return len(self.buf)

    def read(self, n):
        out = bytes(self.buf[:n])
        del self.buf[:n]
        return out

    def write(self, data):
        import json
        self.sent.append(data)
        req = json.loads(data.decode())
        self.buf += (json.dumps({"re": "hello", "id": req["id"], "ok": True,
                                 "name": "samsara", "proto": 1}) + "\n").encode()
        return len(data)

    def flush(self):
        pass

    def close(self):
        pass


def test_a_replayed_reply_with_the_same_id_to_another_command_is_not_taken():
    from samsara_host.boardlink import BoardClient
    stale = b'{"ok": true, "id": 1, "re": "status", "state": "waiting"}\n'
    client = BoardClient(_ReplayPort(stale))
    reply = client.request("hello")
    assert reply["re"] == "hello" and reply["name"] == "samsara"


def test_a_busy_port_names_the_program_holding_it_and_what_to_do(tmp_path):
    import os
    master, slave = os.openpty()
    path = os.ttyname(slave)
    holder = boardlink.open_port(path)
    try:
        with pytest.raises(boardlink.PortBusy) as e:
            boardlink.open_port(path)
    finally:
        holder.close()
        os.close(master)
        os.close(slave)
    if not os.path.exists("/proc/locks"):
        pytest.skip("no /proc/locks here: the message names the usual holders")
    assert e.value.holder is not None and e.value.holder[0] == os.getpid()
    assert "(process %d) holds it" % os.getpid() in str(e.value)
    # the app named, with its page; another samsara command; anything else
    app = ["/x/.venv/bin/python", "/x/.venv/bin/samsara", "app", "--board", "p",
           "--http-port", "21010"]
    name, todo = boardlink.holder_words(app)
    assert name == "`samsara app`" and "http://127.0.0.1:21010/" in todo
    assert boardlink.holder_words(["/usr/bin/samsara", "monitor"])[0] == "`samsara monitor`"
    assert boardlink.holder_words(["/usr/bin/python3", "-m", "serial.tools.miniterm"])[0] \
        == "python -m serial.tools.miniterm"
    assert boardlink.holder_words(["minicom", "-D", "/dev/ttyACM0"]) == \
        ("minicom", "close it and try again")
    # no lock listed: the usual holders
    locks = tmp_path / "locks"
    locks.write_text("1: FLOCK  ADVISORY  WRITE 99 00:1a:999999 0 EOF\n")
    assert boardlink.port_holder(str(locks), locks=str(locks)) is None
    assert "another program holds it (`samsara app`" in boardlink.busy_words("p", None)
