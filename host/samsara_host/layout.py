"""Where each sensor hole sits on the board, in millimetres (for pictures and for the
simulated players' idea of "neighbouring holes").

Coordinates are (x_mm, y_mm) with the board centre at (0, 0), x to the right and y up
(towards B), as seen from above with player A at the bottom (docs/rules.md §1):

    top outer    R13 .. R24  (left to right)          GR at the right end
    top inner    S1  .. S12  (left to right)
    centre line  A0 .. A5  AC | BC  B5 .. B0           (the scoring tracks)
    bottom inner R12 .. R1   (left to right, i.e. R1 at the right)
    bottom outer S24 .. S13  (left to right)           GS at the left end

`load_positions()` prefers the hardware table (``hardware/positions.csv``, its
``x_mm,y_mm`` columns, y up as here), read and checked by the one parser of the tables
(samsara_hw.csvcheck: a bad row is an error naming it); without the table it falls
back to `computed_positions()`, a layout with a 25 mm hole pitch.  LED names are
samsara_hw.names' (LED_ONLY_NAMES, led_name).
"""
import os

from samsara.rules.geometry import position_name, position_index
from samsara_hw.csvcheck import parse_positions

PITCH_MM = 25.0
ROW_INNER_MM = 62.0
ROW_OUTER_MM = 90.0


def computed_positions():
    """{position index: (x_mm, y_mm)} for all 64 positions (module docstring layout)."""
    pos = {}
    for c in range(12):
        # Column c = 0..11 counts the double spaces of each side in playing order.
        x_bottom = (5.5 - c) * PITCH_MM      # A's side runs right to left
        x_top = (c - 5.5) * PITCH_MM         # B's side runs left to right
        pos[position_index("R%d" % (c + 1))] = (x_bottom, -ROW_INNER_MM)
        pos[position_index("S%d" % (c + 13))] = (x_bottom, -ROW_OUTER_MM)
        pos[position_index("S%d" % (c + 1))] = (x_top, ROW_INNER_MM)
        pos[position_index("R%d" % (c + 13))] = (x_top, ROW_OUTER_MM)
    goal_x = 6.5 * PITCH_MM + 12.0
    pos[position_index("GS")] = (-goal_x, -(ROW_INNER_MM + ROW_OUTER_MM) / 2)
    pos[position_index("GR")] = (goal_x, (ROW_INNER_MM + ROW_OUTER_MM) / 2)
    # Scoring tracks on the centre line: A's from the left towards the centre, B's
    # from the right; AC and BC form the shared centre double field.
    for k in range(7):
        name_a = "AC" if k == 6 else "A%d" % k
        name_b = "BC" if k == 6 else "B%d" % k
        pos[position_index(name_a)] = ((k - 6.5) * PITCH_MM * 0.8, 0.0)
        pos[position_index(name_b)] = ((6.5 - k) * PITCH_MM * 0.8, 0.0)
    return pos


def computed_leds():
    """{LED name: (x_mm, y_mm)} for the dice display and turn indicators of the
    computed layout: two dice beside the centre line, each player's indicator on
    their side of them."""
    out = {}
    pip = 7.0
    # Pip k of a die: 0..6 on a 2-3-2 grid (the same order as the hardware table).
    grid = ((-1, 1), (1, 1), (-1, 0), (0, 0), (1, 0), (-1, -1), (1, -1))
    for d, cy in ((1, -24.0), (2, 24.0)):
        for k, (gx, gy) in enumerate(grid):
            out["D%d.%d" % (d, k)] = (gx * pip, cy + gy * pip)
    out["TA"] = (0.0, -44.0)
    out["TB"] = (0.0, 44.0)
    return out


def hardware_csv_path(root=None):
    """Path of the hardware position table relative to the repository root `root`
    (default: found from this file's location, or the current directory)."""
    if root is None:
        here = os.path.dirname(os.path.abspath(__file__))
        root = os.path.normpath(os.path.join(here, "..", ".."))
        if not os.path.isdir(os.path.join(root, "hardware")):
            root = os.getcwd()
    return os.path.join(root, "hardware", "positions.csv")


def read_positions_csv(path):
    """(positions, leds) from the hardware table at `path`: positions maps position
    index to (x_mm, y_mm), leds maps each LED name of samsara_hw.names.LED_ONLY_NAMES
    to its (x_mm, y_mm).  Raises samsara_hw.csvcheck.HardwareConfigError (a
    ValueError) naming the file, line and row of a bad or missing row; OSError when
    the file cannot be read."""
    with open(path, newline="", encoding="utf-8") as f:
        text = f.read()
    holes, led_only = parse_positions(text, os.path.basename(path))
    pos = dict((p.index, (p.x_mm, p.y_mm)) for p in holes)
    leds = dict((name, (p.x_mm, p.y_mm)) for name, p in led_only.items())
    return pos, leds


def load_positions(root=None):
    """(coordinates, leds, source): hole coordinates by position index and LED
    coordinates by name, from the hardware table when it exists (a bad table raises
    HardwareConfigError naming the row), else the computed layout.  source is
    'hardware/positions.csv' or 'computed'."""
    path = hardware_csv_path(root)
    if os.path.exists(path):
        pos, leds = read_positions_csv(path)
        return pos, leds, "hardware/positions.csv"
    return computed_positions(), computed_leds(), "computed"


def neighbours(p, coords=None, radius_mm=None):
    """Track holes (0..47) near track hole p: the holes a hand moving a marble in or
    out of p could knock.  Default: within 1.5 hole pitches in the computed layout
    (the same-row neighbours and the other half of the double space)."""
    if coords is None:
        coords = _COMPUTED
    if radius_mm is None:
        radius_mm = 1.5 * PITCH_MM
    x, y = coords[p]
    out = []
    for q in range(48):
        if q == p:
            continue
        qx, qy = coords[q]
        if (qx - x) ** 2 + (qy - y) ** 2 <= radius_mm * radius_mm:
            out.append(q)
    return out


_COMPUTED = computed_positions()


def describe(p):
    """Position name (for messages)."""
    return position_name(p)
