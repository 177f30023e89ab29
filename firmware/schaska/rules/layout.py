"""Schaska layouts: the value of each field of the track (docs/schaska.md "The rules",
"The default layout").

A layout is a tuple of N small ints, N in MIN_FIELDS..MAX_FIELDS, the value of fields
1..N: k (green, k points: forward k), -k (red: backward k), k in 1..3, or 8 (forward 8).
"Forward" is the moving player's direction (A toward N, B toward 1).  The text form is
the values joined by commas, e.g. "+1,+2,-1,8" ("+" optional on reading).
"""

MIN_FIELDS = 8
"""The fewest fields a track may have."""
MAX_FIELDS = 30
"""The most fields a track may have (an occupancy mask of the track stays a small int
on the Pico, below 2**30)."""
VALUES = (1, 2, 3, -1, -2, -3, 8)
"""The values a field may show."""

DEFAULT = (1, 2, -1, 3, 2, -2, 8, 1, 1, 8, -2, 2, 3, -1, 2, 1)
"""The default layout (docs/schaska.md "The default layout"): 16 fields, the same seen
from either side (field f and field 17 - f show the same value), so neither player gets
the better track."""


class LayoutError(ValueError):
    """A layout that is not one (too few or too many fields, a value not in VALUES)."""


def check_layout(values):
    """`values` (a list or tuple of ints) as a layout tuple.  Raises LayoutError naming the
    first bad value (and its field) or the wrong length."""
    n = len(values)
    if not MIN_FIELDS <= n <= MAX_FIELDS:
        raise LayoutError("a layout has %d..%d fields, got %d" % (MIN_FIELDS, MAX_FIELDS, n))
    for i in range(n):
        v = values[i]
        if type(v) is not int or v not in VALUES:
            raise LayoutError("field %d: %r is not a field value (one of +1 +2 +3 -1 -2 -3 8)"
                              % (i + 1, v))
    return tuple(values)


def parse_layout(text):
    """The layout of its text form "v1,v2,...", each value "+k", "k", "-k" (k 1..3) or "8".
    Raises LayoutError."""
    out = []
    parts = text.split(",")
    for i in range(len(parts)):
        t = parts[i].strip()
        body = t[1:] if t[:1] in ("+", "-") else t
        if len(body) != 1 or not "0" <= body <= "9":
            raise LayoutError("field %d: %r is not a field value (one of +1 +2 +3 -1 -2 -3 8)"
                              % (i + 1, t))
        out.append(int(t))
    return check_layout(out)


def format_value(v):
    """A field value's text: "+k", "-k" or "8"."""
    if v == 8:
        return "8"
    return ("+%d" % v) if v > 0 else ("%d" % v)


def format_layout(layout):
    """The text form of a layout ("+1,+2,-1,8,...")."""
    return ",".join([format_value(v) for v in layout])
