"""argparse types that check an option's range and name it in the error
(`samsara ... --columns 0` says "must be a whole number 1 or more, not 0")."""
import argparse
import math


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
