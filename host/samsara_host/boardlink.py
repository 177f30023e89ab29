"""Finding and opening the board's serial port (docs/host-tool.md).

Every host command reaches the board through `open_port(url)`, which is
`serial.serial_for_url`: a device path (`/dev/ttyACM0`, `COM5`, a pseudo-terminal of
the virtual board), or a pyserial URL such as `socket://127.0.0.1:7000` or `loop://`
that tests use in place of a Pico.

The Raspberry Pi Pico running MicroPython shows up as a USB CDC serial port with
vendor:product 2E8A:0005 (Raspberry Pi, "MicroPython Board in FS mode").  A port with
that id is a candidate; `samsara ports --hello` confirms it by asking for `hello`.

Errors: BoardNotFound (no candidate port), PortBusy (another program holds the
port), PortMissing (no such device), PortError (anything else opening the port).
All are LinkError, whose text says what to do.
"""
import errno
import os

import serial
import serial.tools.list_ports

PICO_VID = 0x2E8A
PICO_PID = 0x0005
BAUD = 115200  # ignored by USB CDC, kept for real UART adapters


class LinkError(Exception):
    """A problem reaching the board; str() is a sentence for the user."""


class BoardNotFound(LinkError):
    """No serial port looks like a Pico running MicroPython."""


class PortBusy(LinkError):
    """Another program (a terminal, Thonny, a second `samsara`) holds the port."""


class PortMissing(LinkError):
    """The named port does not exist (unplugged, or a typo)."""


class PortError(LinkError):
    """The port exists but could not be opened (permissions, driver)."""


class PortInfo:
    """One serial port as the host sees it.

    device: the path or name to open; vid, pid: USB ids or None; serial_number,
    description: from the USB descriptors (may be None / 'n/a'); is_pico: vid:pid is
    2E8A:0005.
    """

    def __init__(self, device, vid=None, pid=None, serial_number=None, description=""):
        self.device = device
        self.vid = vid
        self.pid = pid
        self.serial_number = serial_number
        self.description = description or ""
        self.is_pico = vid == PICO_VID and pid == PICO_PID

    def usb_id(self):
        """'2E8A:0005' or '' for a port without USB ids."""
        if self.vid is None or self.pid is None:
            return ""
        return "%04X:%04X" % (self.vid, self.pid)

    def __repr__(self):
        return "PortInfo(%r, %s)" % (self.device, self.usb_id() or "no usb id")


def list_ports(comports=None):
    """All serial ports, Pico candidates first.  `comports`: a list of pyserial
    ListPortInfo-like objects (for tests); default the machine's ports."""
    if comports is None:
        comports = serial.tools.list_ports.comports()
    out = [PortInfo(p.device, getattr(p, "vid", None), getattr(p, "pid", None),
                    getattr(p, "serial_number", None), getattr(p, "description", ""))
           for p in comports]
    out.sort(key=lambda p: (not p.is_pico, p.device))
    return out


def find_board(comports=None):
    """The device of the one Pico among the serial ports.

    Raises BoardNotFound when there is none, LinkError when there are several (name
    one with --port).
    """
    picos = [p for p in list_ports(comports) if p.is_pico]
    if not picos:
        raise BoardNotFound(
            "no board found: no serial port with the Pico's USB id 2E8A:0005. "
            "Plug the board in with a data cable (not a charge-only one), check that it "
            "runs MicroPython (`samsara doctor`), or name the port with --port.")
    if len(picos) > 1:
        raise LinkError("%d boards found (%s): choose one with --port"
                        % (len(picos), ", ".join(p.device for p in picos)))
    return picos[0].device


def _is_url(port):
    return "://" in port


def open_port(port, timeout=1.0, exclusive=True):
    """Open `port` (a device path or a pyserial URL) and return the serial object.

    timeout: read timeout in seconds.  exclusive: take an exclusive lock on POSIX
    devices so that a second program cannot interleave with us.
    Raises PortMissing, PortBusy or PortError with advice in the message.
    """
    kwargs = {"baudrate": BAUD, "timeout": timeout, "write_timeout": 5}
    if not _is_url(port):
        kwargs["exclusive"] = exclusive
    try:
        return serial.serial_for_url(port, **kwargs)
    except (serial.SerialException, OSError, ValueError) as e:
        raise classify_open_error(port, e)


def classify_open_error(port, e):
    """The LinkError for an exception raised while opening `port`."""
    code = getattr(e, "errno", None)
    text = str(e)
    if code == errno.ENOENT or "No such file" in text or "FileNotFoundError" in text:
        return PortMissing("port %s does not exist: is the board plugged in? "
                           "`samsara ports` lists the ports there are." % port)
    if (code in (errno.EBUSY, errno.EAGAIN, errno.EWOULDBLOCK)
            or "exclusively lock" in text or "busy" in text.lower()):
        return PortBusy("port %s is busy: another program holds it (a serial terminal, "
                        "Thonny, mpremote, or another `samsara monitor`). Close it and "
                        "try again." % port)
    if code == errno.EACCES or "Permission denied" in text:
        hint = ""
        if os.name == "posix":
            hint = " On Linux add yourself to the group that owns the port " \
                   "(often `dialout`: `sudo usermod -aG dialout $USER`, then log in again)."
        return PortError("no permission to open %s.%s" % (port, hint))
    if code == errno.ECONNREFUSED or "refused" in text.lower():
        return PortMissing("nothing listens at %s: is the virtual board running?" % port)
    return PortError("could not open %s: %s" % (port, text))


def resolve_port(port=None, comports=None):
    """The port to use: `port` when given, else the one auto-detected Pico."""
    if port:
        return port
    return find_board(comports)
