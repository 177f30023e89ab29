"""Generate the golden turn data from the plain reference rules.

Run from the repository root:

    python tests/golden/make_golden.py

It writes ``tests/golden/turns.jsonl.gz``: gzip-compressed JSON lines, one
object per line,

    {"position": str, "dice": [a, b], "opponent_goal": "owner_scores"|"forbidden",
     "moksha": bool, "results": [sorted distinct resulting position strings]}

(The uncompressed text is about 18 MB, because a typical turn has over a
hundred distinct results; compressed it is well under 3 MB.)

Everything is deterministic: every section draws from its own
``random.Random`` with a fixed seed, and the output bytes do not depend on
the time of day (gzip mtime 0, no file name in the header).

Sections, in file order:

1. self-play from the start position (A starts and B starts);
2. self-play from random 12-marble positions with random scores 0..5;
3. the worked-example positions of docs/rules.md section 7, every roll;
4. marbles near the goals, scores often at 5 (5 -> 6 ends the turn);
5. crowded double spaces;
6. Moksha positions (found by a seeded random search over blocked
   structures), plus near misses of the same shapes.

A self-play game that reaches score 6 also records the next position once
(the match's final turn, where a goal for a player at 6 keeps 6).
"""

import gzip
import io
import json
import os
import sys

import random

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import plain_rules as pr  # noqa: E402

OUTPUT = os.path.join(HERE, "turns.jsonl.gz")

OWNER = pr.OWNER_SCORES
FORBIDDEN = pr.FORBIDDEN

ALL_ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]  # 21 rolls

SECTION_7_POSITIONS = [
    "oooooo................../oooooo.................. 0-0 A",
    "ooooo.....o............./oooooo.................. 0-0 A",
    "ooooo.................../oooooo...............o.. 0-0 A",
    "ooooo......o............/ooooo..................o 0-0 A",
    "oooo..oo......o........./oo...........o.o.....o.. 0-0 A",
]


class Enough(Exception):
    """Raised when a Collector with a limit is full."""


class Collector:
    """Collects entries, skipping exact repeats of (position, dice, option)."""

    def __init__(self, limit=None):
        self.entries = []
        self.seen = set()
        self.limit = limit

    def add(self, position, a, b, option):
        moksha, results = pr.complete_turns(position, a, b, option)
        if self.limit is not None and len(self.entries) >= self.limit:
            raise Enough()
        key = (position, a, b, option)
        if key not in self.seen:
            self.seen.add(key)
            self.entries.append(
                {
                    "position": position,
                    "dice": [a, b],
                    "opponent_goal": option,
                    "moksha": moksha,
                    "results": results,
                }
            )
        return moksha, results


def roll(rng):
    return rng.randint(1, 6), rng.randint(1, 6)


def empty_position(score_a, score_b, mover):
    board = {}
    for name in pr.all_field_names():
        board[name] = False
    return {"board": board, "score": {"A": score_a, "B": score_b}, "mover": mover}


def random_position(rng, fields, score_a, score_b, mover):
    """12 marbles on distinct fields drawn from ``fields``."""
    pos = empty_position(score_a, score_b, mover)
    for name in rng.sample(fields, 12):
        pos["board"][name] = True
    return pr.format_position(pos)


def has_six(position):
    scores = position.split(" ")[1]
    return "6" in scores


def self_play(collector, rng, position, option, max_turns):
    for _ in range(max_turns):
        a, b = roll(rng)
        moksha, results = collector.add(position, a, b, option)
        if moksha:
            return
        position = rng.choice(results)
        if has_six(position):
            # The match's final turn: record it once, then stop.
            a, b = roll(rng)
            collector.add(position, a, b, option)
            return


# --- sections ---------------------------------------------------------------


def section_start_games(collector):
    for game in range(16):
        rng = random.Random(1000 + game)
        mover = "A" if game % 2 == 0 else "B"
        option = FORBIDDEN if game % 4 == 3 else OWNER
        start = pr.START_POSITION[:-1] + mover
        self_play(collector, rng, start, option, max_turns=120)


def section_random_starts(collector):
    fields = pr.all_field_names()
    for game in range(64):
        rng = random.Random(2000 + game)
        mover = "A" if game % 2 == 0 else "B"
        option = FORBIDDEN if game % 4 == 3 else OWNER
        start = random_position(rng, fields, rng.randint(0, 5), rng.randint(0, 5), mover)
        self_play(collector, rng, start, option, max_turns=25)


def section_examples(collector):
    for position in SECTION_7_POSITIONS:
        for a, b in ALL_ROLLS:
            collector.add(position, a, b, OWNER)
    # The goal examples again with B to move and under 'forbidden'.
    for position in SECTION_7_POSITIONS[2:]:
        b_moves = position[:-1] + "B"
        for a, b in [(1, 3), (3, 3), (3, 4), (1, 1), (2, 5), (4, 6)]:
            collector.add(position, a, b, FORBIDDEN)
            collector.add(b_moves, a, b, FORBIDDEN)
            collector.add(b_moves, a, b, OWNER)


def section_near_goals(collector):
    rng = random.Random(3000)
    for index in range(80):
        low = rng.choice([13, 15, 17, 19])
        fields = [name for name in pr.all_field_names() if int(name[1:]) >= low]
        # Fill up from the whole board when the near-goal band is too small.
        if len(fields) < 12:
            fields = pr.all_field_names()
        mover = rng.choice("AB")
        score_a = rng.choice([5, 5, 5, 4, 6, rng.randint(0, 5)])
        score_b = rng.choice([5, 5, 5, 4, 6, rng.randint(0, 5)])
        position = random_position(rng, fields, score_a, score_b, mover)
        a, b = roll(rng)
        collector.add(position, a, b, OWNER)
        collector.add(position, a, b, FORBIDDEN)


def section_crowded(collector):
    rng = random.Random(4000)
    for index in range(90):
        pos = empty_position(rng.randint(0, 5), rng.randint(0, 5), rng.choice("AB"))
        pairs = rng.randint(3, 6)
        # Full double spaces: R k together with its partner.
        for name in rng.sample(pr.all_field_names()[:24], pairs):
            pos["board"][name] = True
            pos["board"][pr.partner_of(name)] = True
        while sum(1 for v in pos["board"].values() if v) < 12:
            name = rng.choice(pr.all_field_names())
            pos["board"][name] = True
        a, b = roll(rng)
        option = FORBIDDEN if index % 4 == 3 else OWNER
        collector.add(pr.format_position(pos), a, b, option)


def _coset(start, step):
    """Double-space numbers start, start+step, ... (1..24, R numbering)."""
    found = []
    number = start
    while number not in found:
        found.append(number)
        number = (number - 1 + step) % 24 + 1
    return found


def _blocked_candidate(rng):
    """A random position shaped to block doubles (4-4 or 6-6).

    Double space k (R numbering) is R k with its partner S k+12 (mod 24).
    For 4-4: the six double spaces of one residue class mod 4 are full.
    For 6-6: the four double spaces of one residue class mod 6 are full and
    four lone marbles sit where a 6 overshoots (or exactly reaches a goal the
    mover may not enter); sometimes one lone marble stands 6 fields back, so
    one die is playable but the second is not.
    Returns (position string, die) or None.
    """
    mover = rng.choice("AB")
    option = rng.choice([OWNER, FORBIDDEN])
    score_a = rng.choice([0, 1, 2, 3, 4, 5, 5, 5])
    score_b = rng.choice([0, 1, 2, 3, 4, 5, 5, 5])
    pos = empty_position(score_a, score_b, mover)
    die = rng.choice([4, 6])
    full = _coset(rng.randint(1, die), die)
    for number in full:
        pos["board"]["R%d" % number] = True
        pos["board"][pr.partner_of("R%d" % number)] = True
    if die == 6:
        lone = []
        for lane in "RS":
            for number in range(19, 25):
                name = lane + str(number)
                if pos["board"][name] or pos["board"][pr.partner_of(name)]:
                    continue
                lone.append(name)
        picks = rng.sample(lone, min(4, len(lone)))
        for name in picks:
            pos["board"][name] = True
        if rng.random() < 0.4:
            # Step one lone marble back by 6 if that field and its partner are free.
            name = rng.choice(picks)
            lane, number = pr.split_field(name)
            back = lane + str(number - 6)
            if not pos["board"][back] and not pos["board"][pr.partner_of(back)]:
                pos["board"][name] = False
                pos["board"][back] = True
    if sum(1 for v in pos["board"].values() if v) != 12:
        return None
    return pr.format_position(pos), die, option


def section_moksha(collector):
    rng = random.Random(5000)
    moksha_keys = set()
    tries = 0
    while len(moksha_keys) < 48 and tries < 5000:
        tries += 1
        candidate = _blocked_candidate(rng)
        if candidate is None:
            continue
        position, die, option = candidate
        moksha, _ = pr.complete_turns(position, die, die, option)
        if moksha and (position, option) not in moksha_keys:
            moksha_keys.add((position, option))
            collector.add(position, die, die, option)
            # A near miss of the same shape: another roll.
            a, b = roll(rng)
            collector.add(position, a, b, option)
            other = OWNER if option == FORBIDDEN else FORBIDDEN
            collector.add(position, die, die, other)
        elif not moksha and rng.random() < 0.2:
            collector.add(position, die, die, option)  # shape that still moves


SECTIONS = [
    section_start_games,
    section_random_starts,
    section_examples,
    section_near_goals,
    section_crowded,
    section_moksha,
]


def generate(limit=None):
    """All entries in file order, or only the first ``limit`` of them."""
    collector = Collector(limit)
    try:
        for section in SECTIONS:
            section(collector)
    except Enough:
        pass
    return collector.entries


def render(entries):
    lines = []
    for entry in entries:
        lines.append(json.dumps(entry, separators=(",", ":")))
    return "\n".join(lines) + "\n"


def compress(text):
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, compresslevel=9, mtime=0) as f:
        f.write(text.encode("ascii"))
    return buffer.getvalue()


def read_committed(path=OUTPUT):
    with gzip.open(path, "rb") as f:
        return f.read().decode("ascii")


def main():
    entries = generate()
    text = render(entries)
    data = compress(text)
    with open(OUTPUT, "wb") as f:
        f.write(data)
    moksha = sum(1 for e in entries if e["moksha"])
    forbidden = sum(1 for e in entries if e["opponent_goal"] == FORBIDDEN)
    print(
        "%d entries, %d Moksha, %d forbidden; %d bytes text, %d bytes gzip"
        % (len(entries), moksha, forbidden, len(text), len(data))
    )


if __name__ == "__main__":
    main()
