"""The physical side of the simulated board: what the reed sensors really report when
people move marbles (docs/simulator.md, issue 3 §4).

A `Physical` keeps the true content of the 64 holes (`occ`) and turns each human action
(lift, place, slide, rock) into timed raw sensor changes ``(t_ms, position, on)``, which
it hands to an `emit(t_ms, p, on)` callback in time order per action.  Nothing here
knows about debounce or the controller: the signal model is fixed by the physical ranges
below, never tuned to the firmware.

Physical ranges (all in milliseconds):

    CHATTER_TOGGLE_MS  0.1-0.5   a reed contact bounces with toggles this long ...
    CHATTER_SPAN_MS    2.0       ... for up to this long after every change
    HOVER_MS           250-900   between lifting a marble and placing it
    SLIDE_HOLE_MS      40-110    a slid marble sits in each empty hole it crosses
    ROCK_TOGGLE_MS     1-20      a marble rocking in its hole opens the contact this long
    WRONG_HOLD_MS      700-1500  a marble in the wrong hole before the correction
    KNOCK_OUT_MS       50-1000   a knocked neighbour is out of its hole (then put back)

Times are rounded to 0.1 ms so that a recorded trace holds exactly the values that the
live simulation fed to the board.  Only builtins are used (the random source is any
object with a ``random()`` method returning a float in [0, 1)), so this module also
runs under MicroPython.
"""

CHATTER_TOGGLE_MS = (0.1, 0.5)
CHATTER_SPAN_MS = 2.0
HOVER_MS = (250.0, 900.0)
SLIDE_HOLE_MS = (40.0, 110.0)
SLIDE_GAP_MS = (10.0, 40.0)       # between two holes of a slide: contact open
ROCK_TOGGLE_MS = (1.0, 20.0)
ROCK_TOGGLES = (1, 4)             # open/close pairs in one rocking burst
ROCK_DELAY_MS = (5.0, 150.0)      # from placement to the first rock
WRONG_HOLD_MS = (700.0, 1500.0)
KNOCK_OUT_MS = (50.0, 1000.0)

# Player timing that the issue does not fix (a person thinking and reaching).
THINK_MS = (300.0, 1200.0)        # before pressing roll, before the first sub-move
BETWEEN_MS = (250.0, 800.0)       # after one sub-move settled, before the next lift


def rnd(t):
    """`t` rounded to 0.1 ms (the trace resolution)."""
    return round(t * 10.0) / 10.0


def uniform(rng, lo_hi):
    """A float drawn evenly from the (lo, hi) pair."""
    lo, hi = lo_hi
    return lo + (hi - lo) * rng.random()


def randint(rng, lo, hi):
    """An integer lo..hi inclusive."""
    return lo + int(rng.random() * (hi - lo + 1))


class NoiseProfile:
    """How rough the physical play is: level 0 (clean contacts, careful players) to 3.

    chatter      probability that a change bounces (CHATTER_* ranges)
    rock         probability of a rocking burst after a placement
    rest_rock    per sub-move, probability that some resting marble rocks
    slide        probability that a marble is slid instead of lifted
    wrong        per sub-move, probability of the wrong hole held first
    back         per sub-move, probability of lifting a marble and putting it back
    knock        per sub-move, probability of knocking a neighbour out
    bump         share of knocks where the neighbour lands in a nearby empty hole
    double       per sub-move, probability of lifting a neighbour together with it
    """

    LEVELS = (
        # chatter rock rest_rock slide wrong back knock bump double
        (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0),
        (0.8, 0.2, 0.05, 0.25, 0.03, 0.03, 0.02, 0.3, 0.02),
        (1.0, 0.4, 0.10, 0.40, 0.08, 0.06, 0.06, 0.4, 0.05),
        (1.0, 0.7, 0.25, 0.50, 0.15, 0.10, 0.12, 0.5, 0.10),
    )

    def __init__(self, level=0):
        level = int(level)
        if not 0 <= level < len(self.LEVELS):
            raise ValueError("noise level must be 0..%d, got %r" % (len(self.LEVELS) - 1, level))
        self.level = level
        (self.chatter, self.rock, self.rest_rock, self.slide, self.wrong, self.back,
         self.knock, self.bump, self.double) = self.LEVELS[level]


class Physical:
    """True hole contents and the raw sensor signal they produce.

    occ: bytearray(64), 1 where a marble or scoring piece is (or, for actions already
    scheduled, will be) in the hole.  emit(t_ms, p, on) receives every raw change.
    Each action method takes its start time and returns the time at which its last
    change of state *begins* (so the physical durations are measured between the
    starts of changes, bounce excluded); `quiet` is the time at which every signal
    scheduled so far has ended (bounces and rocking included).
    """

    def __init__(self, emit, rng, noise=None):
        self.emit = emit
        self.rng = rng
        self.noise = noise if noise is not None else NoiseProfile(0)
        self.occ = bytearray(64)
        self.quiet = 0.0

    def load(self, occupied):
        """Set the hole contents without any signal (the settled start)."""
        for p in range(64):
            self.occ[p] = 0
        for p in occupied:
            self.occ[p] = 1

    def _emit(self, t, p, v):
        self.emit(t, p, v)
        if t > self.quiet:
            self.quiet = t

    # -- raw signal building blocks -------------------------------------------------

    def change(self, t, p, on):
        """Hole p's contact goes to `on` at t, bouncing with the chatter ranges when the
        noise profile says so: toggles of 0.1-0.5 ms (whole tenths) for at most
        CHATTER_SPAN_MS, ending in `on`.  Returns t (rounded to 0.1 ms)."""
        t = rnd(t)
        v = 1 if on else 0
        self._emit(t, p, v)
        if self.rng.random() < self.noise.chatter:
            span = int(CHATTER_SPAN_MS * 10 * self.rng.random())   # tenths of a ms
            el = 0
            lo = int(round(CHATTER_TOGGLE_MS[0] * 10))
            hi = int(round(CHATTER_TOGGLE_MS[1] * 10))
            while True:
                d1 = randint(self.rng, lo, hi)
                d2 = randint(self.rng, lo, hi)
                if el + d1 + d2 > span:
                    break
                self._emit(rnd(t + (el + d1) / 10.0), p, 1 - v)
                self._emit(rnd(t + (el + d1 + d2) / 10.0), p, v)
                el += d1 + d2
        return t

    def rock_burst(self, t, p):
        """A resting marble in p rocks: 1-4 openings of ROCK_TOGGLE_MS each, closed again
        for ROCK_TOGGLE_MS between them.  Returns the start time."""
        t0 = t = rnd(t)
        n = randint(self.rng, ROCK_TOGGLES[0], ROCK_TOGGLES[1])
        for k in range(n):
            if k:
                t = rnd(t + uniform(self.rng, ROCK_TOGGLE_MS))
            self._emit(t, p, 0)
            t = rnd(t + uniform(self.rng, ROCK_TOGGLE_MS))
            self._emit(t, p, 1)
        return t0

    # -- human actions ---------------------------------------------------------------

    def lift(self, t, p):
        """Take whatever is in hole p out of it.  Returns the time of the lift."""
        self.occ[p] = 0
        return self.change(t, p, False)

    def place(self, t, p, rock=None):
        """Put a marble or piece into hole p; it may rock a little after landing
        (rock: True/False, or None to draw from the noise profile).  Returns the time
        of the placement."""
        self.occ[p] = 1
        t = self.change(t, p, True)
        if rock is None:
            rock = self.rng.random() < self.noise.rock
        if rock:
            self.rock_burst(t + CHATTER_SPAN_MS + uniform(self.rng, ROCK_DELAY_MS), p)
        return t

    def slide(self, t, crossed, dest):
        """A marble lifted at t is slid over the empty holes `crossed` (in order;
        occupied ones are skipped, the marble rides over them) into `dest`.  Each
        crossed hole is closed for SLIDE_HOLE_MS, with SLIDE_GAP_MS open between two
        holes.  Returns the time of the placement in dest."""
        for q in crossed:
            if self.occ[q]:
                continue
            t_on = self.change(t + uniform(self.rng, SLIDE_GAP_MS), q, True)
            t = self.change(t_on + uniform(self.rng, SLIDE_HOLE_MS), q, False)
        return self.place(t + uniform(self.rng, SLIDE_GAP_MS), dest)

    def move(self, t, frm, to, crossed=None, slide=None):
        """Carry the content of `frm` to `to`: lift, then either a hover of HOVER_MS and a
        placement, or a slide over `crossed`.  slide=None draws from the profile.
        Returns the time of the placement."""
        t = self.lift(t, frm)
        if slide is None:
            slide = bool(crossed) and self.rng.random() < self.noise.slide
        if slide and crossed:
            return self.slide(t, crossed, to)
        return self.place(t + uniform(self.rng, HOVER_MS), to)

    def knock_out(self, t, p, bump_to=-1):
        """A hand knocks the marble in p out and puts it back at most KNOCK_OUT_MS
        later; with bump_to >= 0 it lands in that (empty) hole first and is taken out of
        it again before it goes back.  Returns the time it is back in p."""
        t = self.lift(t, p)
        if bump_to >= 0:
            out = uniform(self.rng, (500.0, KNOCK_OUT_MS[1]))
            t_in = self.place(t + uniform(self.rng, (20.0, 80.0)), bump_to, rock=True)
            self.lift(max(t_in + 100.0, t + out - uniform(self.rng, (100.0, 250.0))), bump_to)
            return self.place(t + out, p)
        return self.place(t + uniform(self.rng, KNOCK_OUT_MS), p)
