"""argparse types that check an option (its range, a port's form) and name it in the error
(`samsara ... --columns 0` says "must be a whole number 1 or more, not 0")."""
import argparse
import math
import os


def whole(lo, hi=None):
    """An argparse type: an int >= lo (and <= hi when given)."""
    def check(text):
        try:
            v = int(text)
        except ValueError:
            v = None
        if v is None or v < lo or (hi is not None and v > hi):
            raise argparse.ArgumentTypeError(
                "must be a whole number %s, not %s"
                % ("%d or more" % lo if hi is None else "%d..%d" % (lo, hi),
                   repr(text) if v is None else text))
        return v
    check.__name__ = "whole number"
    return check


def parsed_by(module, function, error):
    """An argparse type: `text` itself once `module`.`function`(text) took it; the
    words of its `error` exception (a class of `module`) as the option's error (exit
    2).  The module is imported only when the option is given, so a command's start
    stays quick."""
    def check(text):
        import importlib
        m = importlib.import_module(module)
        try:
            getattr(m, function)(text)
        except getattr(m, error) as e:
            raise argparse.ArgumentTypeError(str(e))
        return text
    check.__name__ = function
    return check


def text_of(what, limit):
    """An argparse type: a name or text of 1..`limit` characters without control
    characters, spaces around it taken off (samsara_host.gametags.check_text, the one
    check of names); `what` names the option in the error."""
    def check(text):
        from samsara_host.gametags import TagError, check_text
        try:
            return check_text(text, what, limit)
        except TagError as e:
            raise argparse.ArgumentTypeError(str(e))
    check.__name__ = "text"
    return check


def seconds(text):
    """An argparse type: a finite number of seconds >= 0."""
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("must be a number of seconds, 0 or more, not %r"
                                         % text)
    if not math.isfinite(v) or v < 0:
        raise argparse.ArgumentTypeError("must be a finite number of seconds, 0 or more, "
                                         "not %s" % text)
    return v


def positive_seconds(text):
    """An argparse type: a finite number of seconds > 0 (a timeout, a measuring time)."""
    try:
        v = float(text)
    except ValueError:
        v = float("nan")
    if not math.isfinite(v) or v <= 0:
        raise argparse.ArgumentTypeError("must be a finite number of seconds above 0, "
                                         "not %s" % text)
    return v


def folder_problem(path, option):
    """Make the output folder `path` (given with `option`, e.g. "--dest") now, before any
    work; None when it is a writable folder, else the one-line problem naming the
    option: a file in the way, a folder that cannot be made, or one not writable."""
    if not path.strip():
        return "%s is empty: name a folder" % option
    if os.path.lexists(path) and not os.path.isdir(path):
        return "%s %s is a %s, not a folder" % (
            option, path, "file" if os.path.exists(path) else "link to nothing")
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        return "%s %s: cannot make the folder: %s" % (option, path, e.strerror or e)
    if not os.access(path, os.W_OK | os.X_OK):
        return "%s %s: cannot write into the folder" % (option, path)
    return None


def port_arg(text):
    """argparse type of --port: `text` itself when it can name a port (a device path
    that is neither a folder nor a plain file, or a pyserial URL of a scheme pyserial
    has, socket:// and rfc2217:// with HOST:PORT); else argparse.ArgumentTypeError
    saying what a port looks like (exit 2, before anything is opened).  Whether the
    port exists and answers is open_port's to say."""
    import importlib.util
    if not text.strip():
        raise argparse.ArgumentTypeError("empty: give the board's serial port "
                                         "(e.g. /dev/ttyACM0, COM5) or a URL such as "
                                         "socket://127.0.0.1:7000")
    if "://" not in text:
        if os.path.isdir(text) or os.path.isfile(text):
            raise argparse.ArgumentTypeError(
                "%s is a %s, no serial port: give the board's port (`samsara ports` lists "
                "them; a virtual board's is its folder's ttyVB0)"
                % (text, "folder" if os.path.isdir(text) else "plain file"))
        return text
    scheme, rest = text.split("://", 1)
    known = scheme.isidentifier() and importlib.util.find_spec(
        "serial.urlhandler.protocol_%s" % scheme.lower()) is not None
    if not known:
        raise argparse.ArgumentTypeError(
            "%s: no port URL of that kind (%s://); a board is a serial device "
            "(e.g. /dev/ttyACM0, COM5) or socket://HOST:PORT (the emulated Pico, a "
            "network bridge)" % (text, scheme))
    if scheme.lower() in ("socket", "rfc2217"):
        host, _, num = rest.split("?", 1)[0].rpartition(":")
        if not host or not num.isdigit() or not 0 < int(num) < 65536:
            raise argparse.ArgumentTypeError(
                "%s: a %s:// URL is %s://HOST:PORT with PORT a number 1..65535, "
                "e.g. %s://127.0.0.1:7000" % (text, scheme, scheme, scheme))
    return text
