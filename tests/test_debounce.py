"""Debounce as tables of (time ms, raw input, expected settled output) on a virtual
clock (docs/debounce.md), in the manner of QMK's debounce tests.

A table row is (t, raw, settled): at time t the scanner reads `raw` for the position
under test (1 = marble in the hole, None = same as the previous scan) and after the step
the debounced value must be `settled` (None = do not check).  Scans happen only at the
listed times, so a gap between rows is a late scan.
"""

import random

import pytest

from boardcore.debounce import Debounce, TICKS_PERIOD
from boardcore.ticks import ticks_diff

P = 5          # position under test (R6)


def run_table(table, lift=8, place=150, ret=30, start=1, p=P, t0=0):
    d = Debounce(lift, place, ret)
    raw = bytearray(8)
    if start:
        raw[p >> 3] |= 1 << (p & 7)
    d.reset(t0, raw)
    log = []
    cur = start
    for t, r, want in table:
        if r is not None:
            cur = r
        if cur:
            raw[p >> 3] |= 1 << (p & 7)
        else:
            raw[p >> 3] &= ~(1 << (p & 7)) & 0xFF
        d.step(t0 + t, raw)
        got = (d.settled[p >> 3] >> (p & 7)) & 1
        log.append((t, cur, got))
        if want is not None:
            assert got == want, "at t=%d raw=%d: settled %d, want %d; log %r" % (
                t, cur, got, want, log)
    return d


def scans(t_from, t_to, step=1):
    return list(range(t_from, t_to + 1, step))


def test_clean_lift_commits_after_the_lift_settle():
    run_table([
        (0, 1, 1),
        (1, 0, 1),       # lifted
        (8, None, 1),    # 7 ms: not yet
        (9, None, 0),    # 8 ms after the change
        (20, None, 0),
    ])


def test_clean_placement_commits_after_the_place_settle():
    run_table([
        (0, 0, 0),
        (10, 1, 0),
        (159, None, 0),
        (160, None, 1),
    ], start=0)


def test_reed_chatter_on_a_lift_is_absorbed():
    # 0.1-0.5 ms toggles for 2 ms, scanned every 0.5 ms (times in half-ms units *2):
    # use 1 ms scans and chatter within the first 2 ms: the lift commits once, 8 ms
    # after the last observed toggle.
    table = [(0, 1, 1), (1, 0, 1), (2, 1, 1), (3, 0, 1)]
    table += [(t, None, 1) for t in range(4, 11)]
    table += [(11, None, 0), (30, None, 0)]
    run_table(table)


def test_reed_chatter_on_a_placement_never_commits_early():
    table = [(0, 0, 0), (100, 1, 0), (101, 0, 0), (102, 1, 0)]
    table += [(t, None, 0) for t in range(103, 252, 7)]
    table += [(252, None, 1)]
    run_table(table, start=0)


def test_chatter_at_random_scan_phases():
    rnd = random.Random(4)
    for trial in range(200):
        d = Debounce()
        raw = bytearray(8)
        raw[0] = 1 << P
        d.reset(0, raw)
        # physical lift at t=10.0 ms with chatter until 12 ms; scan every 2 ms with a
        # random phase; sample the chatter at scan times
        phase = rnd.random() * 2
        toggles = [10.0]
        t = 10.0
        while True:
            t += 0.1 + rnd.random() * 0.4
            if t >= 12.0:
                break
            toggles.append(t)
        if len(toggles) % 2 == 0:
            toggles.append(12.0)         # ends off
        commits = 0
        last = 1
        t = phase
        first_off = None
        while t < 60:
            n_before = sum(1 for x in toggles if x <= t)
            on = 1 if n_before % 2 == 0 else 0
            raw[0] = (1 << P) if on else 0
            d.step(int(t * 1000) // 1000, raw)
            got = (d.settled[0] >> P) & 1
            if got != last:
                commits += 1
                last = got
                first_off = t
            t += 2
        assert commits == 1 and last == 0
        # within 20 ms of the lift (10 ms): chatter 2 + scan 2 + settle 8 + scan 2
        assert first_off <= 10 + 2 + 2 + 8 + 2 + 1


def test_rocking_marble_reads_as_a_short_lift_then_back():
    # 1-20 ms toggles: off periods of up to 20 ms.  Each off longer than the lift settle
    # commits a lift; the return within return_ms settles as fast as a lift.
    table = [
        (0, 1, 1),
        (10, 0, 1), (15, None, 1), (18, None, 0),     # off 10 ms: lift commits at 18
        (25, 1, 0), (32, None, 0), (33, None, 1),     # back at 25: quick return at 33
        (40, 0, 1), (45, 1, 1), (60, None, 1),        # off 5 ms: nothing
        (70, 0, 1), (89, None, 0), (90, 1, 0),        # off 20 ms, back (return 12 ms)
        (97, None, 0), (98, None, 1),
    ]
    run_table(table)


def test_rocking_never_commits_a_slow_return_as_fast():
    # a marble put back 100 ms after the lift committed is a placement: full settle
    run_table([
        (0, 1, 1), (1, 0, 1), (9, None, 0),
        (109, 1, 0), (117, None, 0), (258, None, 0), (259, None, 1),
    ])


@pytest.mark.parametrize("dwell", [40, 75, 110])
def test_slide_over_an_empty_hole_never_commits(dwell):
    # a marble crossing an empty hole: on for the dwell, with chatter on entry and exit
    table = [(0, 0, 0), (100, 1, 0), (101, 0, 0), (102, 1, 0)]
    table += [(t, None, 0) for t in range(104, 100 + dwell, 2)]
    table += [(100 + dwell, 0, 0), (101 + dwell, 1, 0), (102 + dwell, 0, 0)]
    table += [(t, None, 0) for t in range(104 + dwell, 500, 2)]
    run_table(table, start=0)


def test_late_scan_times_the_settle_from_the_scan_that_saw_the_change():
    # scans at 0 and then 50: the change is first seen at 50 and settles 8 ms later
    run_table([(0, 1, 1), (50, 0, 1), (57, None, 1), (58, None, 0)])


def test_late_scan_after_the_settle_commits_at_once():
    run_table([(0, 1, 1), (2, 0, 1), (40, None, 0)])
    run_table([(0, 0, 0), (2, 1, 0), (400, None, 1)], start=0)


def test_a_change_reverted_between_two_late_scans_is_never_seen():
    run_table([(0, 1, 1), (100, None, 1), (200, None, 1)])


def test_wrap_around_of_the_ticks_counter():
    t0 = TICKS_PERIOD - 5
    d = run_table([(0, 1, 1), (1, 0, 1), (8, None, 1), (9, None, 0)], t0=t0)
    assert d.now == (t0 + 9) % TICKS_PERIOD


def test_ticks_diff_is_wrap_safe():
    assert ticks_diff(3, TICKS_PERIOD - 2) == 5
    assert ticks_diff(TICKS_PERIOD - 2, 3) == -5
    assert ticks_diff(100, 40) == 60


def test_changed_bits_busy_count_and_next_due():
    d = Debounce(8, 150, 30)
    raw = bytearray(8)
    raw[0] = 0x01          # R1 on
    d.reset(0, raw)
    raw[0] = 0x02          # R1 lifted, R2 placed
    assert d.step(1, raw) == 0
    assert d.busy == 2
    assert d.next_due() == 8
    assert d.step(9, raw) == 1
    assert d.changed[0] == 0x01 and d.settled[0] == 0x00
    assert d.busy == 1 and d.next_due() == 150 - 8
    assert d.step(151, raw) == 1
    assert d.changed[0] == 0x02 and d.settled[0] == 0x02
    assert d.busy == 0 and d.next_due() == -1


def test_all_64_positions_are_independent():
    d = Debounce(8, 150, 30)
    raw = bytearray(b"\xff" * 8)
    d.reset(0, raw)
    raw = bytearray(8)
    d.step(1, raw)
    assert d.busy == 64
    d.step(9, raw)
    assert bytes(d.settled) == bytes(8) and d.busy == 0


def test_bad_settings_raise():
    with pytest.raises(ValueError):
        Debounce(-1, 150, 30)


class Reference:
    """The rule of docs/debounce.md written plainly, one position at a time."""

    def __init__(self, lift, place, ret, frame, now):
        self.lift, self.place, self.ret = lift, place, ret
        self.raw = [(frame[p >> 3] >> (p & 7)) & 1 for p in range(64)]
        self.out = list(self.raw)
        self.t_raw = [now] * 64
        self.t_lift = [None] * 64

    def step(self, now, frame):
        for p in range(64):
            v = (frame[p >> 3] >> (p & 7)) & 1
            if v != self.raw[p]:
                self.raw[p] = v
                self.t_raw[p] = now
            if v != self.out[p]:
                need = self.lift
                if v:
                    need = self.place
                    if self.t_lift[p] is not None and self.t_raw[p] - self.t_lift[p] <= self.ret:
                        need = self.lift
                if now - self.t_raw[p] >= need:
                    self.out[p] = v
                    self.t_lift[p] = None if v else now


def test_matches_the_plain_reference_on_random_input():
    rnd = random.Random(9)
    for trial in range(40):
        lift, place, ret = rnd.choice([(6, 150, 30), (8, 150, 30), (2, 40, 10), (0, 0, 0)])
        frame = bytearray(rnd.randrange(256) for _ in range(8))
        d = Debounce(lift, place, ret)
        d.reset(0, frame)
        ref = Reference(lift, place, ret, frame, 0)
        t = 0
        for _ in range(600):
            t += rnd.choice([1, 2, 2, 2, 3, 7, 40])
            if rnd.random() < 0.3:
                p = rnd.randrange(64) if rnd.random() < 0.5 else rnd.randrange(4)
                frame[p >> 3] ^= 1 << (p & 7)
            n = d.step(t, frame)
            before = list(ref.out)
            ref.step(t, frame)
            got = [(d.settled[p >> 3] >> (p & 7)) & 1 for p in range(64)]
            assert got == ref.out, (trial, t)
            assert n == sum(1 for p in range(64) if before[p] != ref.out[p])
            assert d.busy == sum(1 for p in range(64) if ref.raw[p] != ref.out[p])


def test_default_settle_times():
    d = Debounce()
    assert (d.settle_lift, d.settle_place, d.return_ms) == (4, 150, 30)


def test_a_reset_is_no_raw_change_so_the_board_counts_as_still_at_once():
    d = Debounce(3, 150, 30)
    d.reset(5000, bytearray(8))
    assert ticks_diff(5000, d.t_change) >= 1000      # quiet work need not wait 300 ms
    raw = bytearray(8)
    raw[0] = 1
    d.step(5004, raw)
    assert d.t_change == 5004                         # a real change counts from its scan


@pytest.mark.parametrize("gaps", [(4, 4, 4), (3, 4, 4), (4, 3, 5), (5, 3, 4)])
def test_the_picos_lift_settle_commits_at_the_scan_after_the_one_that_saw_it(gaps):
    # mainboot.PICO_SETTLE_LIFT_MS at the Pico's 4 ms period, whose ms ticks are now and
    # then 3 apart: every lift commits at the next scan (a 4 ms settle waited for a
    # second one when the gap was 3)
    d = Debounce(_pico_settle_lift_ms(), 150, 30)
    full = bytearray(8)
    full[0] = 1
    d.reset(0, full)
    t = 100
    d.step(t, full)
    d.step(t + gaps[0], bytearray(8))                 # the scan that sees the lift
    assert d.settled[0] == 1
    assert d.step(t + gaps[0] + gaps[1], bytearray(8)) == 1 and d.settled[0] == 0


def _pico_settle_lift_ms():
    # mainboot.PICO_SETTLE_LIFT_MS, read from the source (mainboot imports the drivers)
    import ast
    import os
    path = os.path.join(os.path.dirname(__file__), "..", "firmware", "mainboot.py")
    with open(path) as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == \
                "PICO_SETTLE_LIFT_MS":
            return node.value.value
    raise AssertionError("mainboot.PICO_SETTLE_LIFT_MS not found")
