"""Analysis of a recorded game: for every turn the engine's best turn, how much worse
the turn played was, a flag for the large mistakes, and each player's luck from the
rolls (issue 11 §3, docs/engine.md "Game analysis").

`analyze_log(path, engine="host")` reads a pulled game log (or a record exported as
JSON or text, samsara_host.record.load), replays it and returns one dict:

    {"engine": "host" | "device",
     "units": "win probability" | "goals",
     "players": {"A": name, "B": name}, "result": "A wins at the centre (...)",
     "thresholds": {"doubtful": x, "mistake": y, "blunder": z},
     "turns": [{"turn": 1.., "player": "A" | "B", "dice": [d1, d2],
                "played": notation, "best": notation or None (Moksha),
                "equity_loss": >= 0, "flag": None | "doubtful" | "mistake" | "blunder",
                "win_prob": A's win probability after the turn (host) or None (device),
                "played_value": ..., "best_value": ..., "luck": the mover's luck}],
     "luck": {"A": sum, "B": sum},
     "summary": {"A": {"doubtful": n, "mistake": n, "blunder": n,
                       "equity_loss": sum}, "B": {...}}}

Equity loss (the host engine): the win probability of the engine's best turn minus
that of the turn played, both searched at ply 2 (hostengine.rank with the played turn
among the searched ones), from the mover's side.  A close choice (the best two within
hostengine.CLOSE at ply 2, hostengine.close_keys) is searched one ply deeper when asked
(`deep=True`, `samsara analyze --deep`) (hostengine.deep_values): the best of those
two at ply 3 is the best turn, and when the turn played is within CLOSE too, both
values are ply-3 ones (otherwise both are ply-2 ones).  Flags, as backgammon analysis
(GNU Backgammon's defaults of 0.04 / 0.08 / 0.16 in equity, which is twice the win
probability in a game without gammons): doubtful from 0.02, mistake from 0.04, blunder
from 0.08 of win probability.  The device engine has no win probability: its loss is
in goals (its evaluation / 1000, a won or lost game capped at 6 goals) and the flags
start at 0.1 / 0.2 / 0.4 goal.

Luck of a roll: the value of the best turn of the roll received minus the mean, over
the 21 rolls (doubles 1/36, others 2/36), of the value of each roll's best turn, at
ply 1 (a Moksha roll is worth 0.5, a draw); each player's luck is the sum over the
rolls they received.  Positive: luckier than the average roll.
"""
from samsara.rules import engine as dev
from samsara.rules.notation import format_turn
from samsara_host.record import RecordError

THRESHOLDS = {
    "host": (("blunder", 0.08), ("mistake", 0.04), ("doubtful", 0.02)),
    "device": (("blunder", 0.4), ("mistake", 0.2), ("doubtful", 0.1)),
}
"""Flag thresholds per engine, largest first (module docstring)."""

ENGINES = ("host", "device")

CAP = 6.0
"""The device engine's values are capped at +-CAP goals (a won or lost game)."""


class AnalysisError(RecordError):
    """A game that cannot be analysed (not a record, a torn log, an unknown engine)."""


def flag(loss, engine="host"):
    """The flag of an equity loss: None, 'doubtful', 'mistake' or 'blunder'."""
    for name, limit in THRESHOLDS[engine]:
        if loss >= limit - 1e-12:
            return name
    return None


def _mode(rec):
    return dev.MODE_MATCH if rec.is_match() else dev.MODE_SINGLE


def _host_turn(p, d1, d2, key, og, mode, starter, deep=False):
    # (best moves, best key, best value, played value): ply 2, the played turn searched
    # too; with deep, a close choice at ply 3 (hostengine.close_keys).
    from samsara_host.engine import hostengine
    ranked = hostengine.rank(p.r, p.s, p.a, p.b, p.mover, d1, d2, og, mode, starter,
                             extra=(key,), calibrated=False)
    val = {k: v for _m, k, v, _d in ranked}
    depth = {k: d for _m, k, _v, d in ranked}    # 0: a game end, exact, shown as it is
    moves = {k: m for m, k, _v, _d in ranked}
    best = ranked[0][1]
    close = hostengine.close_keys(ranked, also=(key,)) if deep else []
    if close:
        j, deep = hostengine.settle_close(close, p.mover, og, mode, starter)
        best = close[j]
        if key in close:
            val = dict(val)
            for k, v in zip(close, deep):
                val[k] = float(v)
    bv, pv = val[best], val[key]
    return (moves[best], best, hostengine.shown_value(bv, depth[best], mode),
            hostengine.shown_value(pv, depth[key], mode))


def _goals(v):
    # A device value in goals, a game end (a million) counted as the game's 6 goals.
    return max(-CAP, min(CAP, v / float(dev.GOAL)))


def _device_turn(p, d1, d2, key, og, mode, starter):
    best = dev.choose(p.r, p.s, p.a, p.b, p.mover, d1, d2, og, 1, mode, starter)
    pv = dev.turn_value(key[0], key[1], key[2], key[3], p.mover, p.a, p.b, mode, starter)
    return best[0], best[1], _goals(best[2]), _goals(pv)


def roll_values(p, og, mode, starter, engine="host"):
    """The value of each of the 21 rolls for the mover of Position p: a list of
    (d1, d2, weight out of 36, value of the roll's best turn at ply 1); Moksha 0.5
    (host, win probability) or 0 (device, goals)."""
    from samsara_host.engine import hostengine
    out = []
    if engine == "host":
        per_roll = hostengine.roll_keys((p.r, p.s, p.a, p.b), p.mover, og)
    for x, y, w in hostengine.ROLLS:
        if engine == "host":
            keys = per_roll[len(out)]
            v = float(hostengine.values(keys, p.mover, p.a, p.b, mode, starter).max()) \
                if keys else 0.5
        else:
            res = dev.choose(p.r, p.s, p.a, p.b, p.mover, x, y, og, 1, mode, starter)
            v = _goals(res[2]) if res else 0.0
        out.append((x, y, w, v))
    return out


def luck(p, d1, d2, og, mode, starter, engine="host"):
    """The mover's luck of roll (d1, d2) in Position p (module docstring)."""
    rv = roll_values(p, og, mode, starter, engine)
    mean = sum(w * v for _x, _y, w, v in rv) / 36.0
    lo, hi = min(d1, d2), max(d1, d2)
    got = [v for x, y, _w, v in rv if (x, y) == (lo, hi)][0]
    return got - mean


def analyze_record(rec, engine="host", deep=False):
    """The analysis dict (module docstring) of a replayed GameRecord.  deep: the host
    engine searches close choices at ply 3 (hostengine.CLOSE; about 0.4 s of one core
    per turn searched deeper)."""
    if engine not in ENGINES:
        raise AnalysisError("unknown engine %r (use host or device)" % (engine,))
    if len(rec.steps) != len(rec.turns):
        rec.replay()
    og = rec.option_code()
    mode = _mode(rec)
    starter = rec.start.mover
    units = "win probability" if engine == "host" else "goals"
    turns = []
    lucks = {"A": 0.0, "B": 0.0}
    summary = {n: {"doubtful": 0, "mistake": 0, "blunder": 0, "equity_loss": 0.0}
               for n in "AB"}
    before = rec.start
    for step in rec.steps:
        p = before
        who = "AB"[step.player]
        roll = step.notation.split()[0]
        d1, d2 = int(roll[0]), int(roll[1])
        entry = {"turn": step.number, "player": who, "dice": [d1, d2],
                 "played": step.notation, "best": None, "equity_loss": 0.0, "flag": None,
                 "win_prob": None, "played_value": None, "best_value": None}
        if step.moves:
            key = (step.position.r, step.position.s, step.position.a, step.position.b)
            if engine == "host":
                bm, bk, bv, pv = _host_turn(p, d1, d2, key, og, mode, starter, deep)
                pa = pv if p.mover == 0 else 1.0 - pv
                entry["win_prob"] = round(min(1.0, max(0.0, pa)), 4)
            else:
                bm, bk, bv, pv = _device_turn(p, d1, d2, key, og, mode, starter)
            loss = max(0.0, bv - pv)
            entry["best"] = step.notation if bk == key else format_turn(d1, d2, bm)
            entry["equity_loss"] = round(loss, 4)
            entry["flag"] = flag(loss, engine)
            entry["played_value"] = round(pv, 4)
            entry["best_value"] = round(bv, 4)
        elif engine == "host":
            entry["win_prob"] = 0.5
        lk = luck(p, d1, d2, og, mode, starter, engine)
        entry["luck"] = round(lk, 4)
        lucks[who] += lk
        sm = summary[who]
        sm["equity_loss"] += entry["equity_loss"]
        if entry["flag"]:
            sm[entry["flag"]] += 1
        turns.append(entry)
        before = step.position
    for n in "AB":
        lucks[n] = round(lucks[n], 4)
        summary[n]["equity_loss"] = round(summary[n]["equity_loss"], 4)
    return {
        "engine": engine, "units": units,
        "players": {"A": rec.tags.get("PlayerA", "?"), "B": rec.tags.get("PlayerB", "?")},
        "result": rec.summary(),
        "thresholds": {name: limit for name, limit in THRESHOLDS[engine]},
        "turns": turns, "luck": lucks, "summary": summary,
    }


def load_whole(path):
    """The GameRecord of `path` (a pulled log, JSON or text record, with its tags
    sidecar), refusing a torn log.  Raises AnalysisError / RecordError with the
    reason."""
    from samsara_host import gametags
    rec = gametags.load_tagged(path)
    if getattr(rec, "torn", None):
        n = len(rec.turns)
        if n == 0:
            raise AnalysisError("the log is torn (%s) before its first turn: nothing to "
                                "analyse; pull it again (`samsara logs pull --all`)"
                                % (rec.torn,))
        raise AnalysisError("the log is torn (%s): a torn log is not analysed (a game "
                            "that is merely unfinished is); pull it again (`samsara logs "
                            "pull --all`), or export its %d good turn%s as text "
                            "(`samsara logs export`) and analyse that"
                            % (rec.torn, n, "" if n == 1 else "s"))
    return rec


def analyze_log(path, engine="host", deep=False):
    """Analyse the game in file `path` (a pulled game log, or a record exported as JSON
    or text) with `engine` ('host' or 'device'); returns the dict of the module
    docstring.  deep: close choices at ply 3 (`analyze_record`).  Raises AnalysisError
    (a RecordError) for a missing, bad or torn file or an unknown engine, with a
    one-line reason."""
    if engine not in ENGINES:
        raise AnalysisError("unknown engine %r (use host or device)" % (engine,))
    return analyze_record(load_whole(path), engine, deep)


def figure(value, units="win probability", sign=False):
    """A loss or a luck in the words the app uses too: win probability as a percentage
    of the chance to win ('-5.2 %', '+45.1 %' with sign), goals as goals ('-0.25
    goals')."""
    if units == "win probability":
        return ("%+.1f %%" if sign else "%.1f %%") % (100 * value)
    return ("%+.2f goals" if sign else "%.2f goals") % value


def comment(entry, units="win probability"):
    """A one-line comment for a turn of the analysis, e.g. 'mistake -5.2 %: best
    64 6:S1-S7 4:S2-S6; A 45 %' or 'best' or '' (Moksha); units: the analysis's
    (figure)."""
    if entry["best"] is None:
        return ""
    if entry["best"] == entry["played"] or entry["equity_loss"] == 0:
        text = "best"
    else:
        text = "%s%s: best %s" % ((entry["flag"] + " ") if entry["flag"] else "",
                                   figure(-entry["equity_loss"], units),
                                   entry["best"])
    if entry.get("win_prob") is not None:
        text += "; A %.0f %%" % (100 * entry["win_prob"])
    return text
