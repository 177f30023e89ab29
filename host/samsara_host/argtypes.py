"""argparse types that check an option's range and name it in the error
(`samsara ... --columns 0` says "must be a whole number 1 or more, not 0")."""
import argparse
import math
import os


def whole(lo):
    """An argparse type: an int >= lo."""
    def check(text):
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError("must be a whole number %d or more, not %r"
                                             % (lo, text))
        if v < lo:
            raise argparse.ArgumentTypeError("must be a whole number %d or more, not %s"
                                             % (lo, text))
        return v
    check.__name__ = "whole number"
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


def folder_problem(path, option):
    """Make the output folder `path` (given with `option`, e.g. "--dest") now, before any
    work; None when it is a writable folder, else the one-line problem naming the
    option: a file in the way, a folder that cannot be made, or one not writable."""
    if not path.strip():
        return "%s is empty: name a folder" % option
    if os.path.exists(path) and not os.path.isdir(path):
        return "%s %s is a file, not a folder" % (option, path)
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        return "%s %s: cannot make the folder: %s" % (option, path, e.strerror or e)
    if not os.access(path, os.W_OK | os.X_OK):
        return "%s %s: cannot write into the folder" % (option, path)
    return None
