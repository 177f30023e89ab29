"""The replay page's engine analysis (docs/app.md "Replay"): each library game is
analysed once (samsara_host.analysis.analyze_record with the host engine, seconds
per game) in one background thread and kept, so the replay shows at once and the
analysis fills in.  Its one job is running and caching those analyses.

    cache = AnalysisCache(logs_dir)
    cache.get(gid)    # {"state": "running", "turns", "elapsed_s"}
                      # | {"state": "done", "torn": None | reason, "analysis": dict,
                      #    "comments": [words per turn]}
                      # | {"state": "none", "reason": words}   (no analysis possible)
    cache.forget(gid) # a deleted or changed game
    cache.close()

A torn log is analysed as far as it could be read (`torn` says why it stops); a log
with no readable turn, or one the analysis refuses, is {"state": "none"} with the
reason.  Raises library.NotFound for an unknown id.  The cache is keyed by the file's
size and modification time, so a pulled-again copy is analysed again.
"""
import concurrent.futures
import os
import threading
import time

from samsara_host import record
from samsara_host.app import library

ENGINE = "host"
"""The engine the replay's analysis uses (win probabilities; docs/engine.md)."""


def texts(res):
    """The words and figures the replay page shows of analysis `res`, made by the
    functions the terminal (`samsara analyze`) and the exports use, so that the three
    read the same: {"comments": [analysis.comment per turn], "figures": [{"loss":
    '-2.4 %' or '' for the best turn, "luck": '+1.3 %', "win": 'A 55 %' or ''} per turn],
    "summaries": {"A": analyze_cmd.summary_line, "B": ...}} (units as res["units"])."""
    from samsara_host import analysis
    from samsara_host.analyze_cmd import summary_line
    units = res["units"]
    figures = []
    for t in res["turns"]:
        loss = t.get("equity_loss") or 0
        figures.append({
            "loss": analysis.figure(-loss, units) if t.get("best") is not None and loss
            and t["best"] != t["played"] else "",
            "luck": analysis.figure(t.get("luck") or 0, units, sign=True),
            "win": "A %.0f %%" % (100 * t["win_prob"]) if t.get("win_prob") is not None
            else ""})
    return {"comments": [analysis.comment(t, units) for t in res["turns"]],
            "figures": figures,
            "summaries": {p: summary_line(res["summary"][p], res["luck"][p], units)
                          for p in "AB"}}


class AnalysisCache:
    """Analyses of library games, computed once each (module docstring)."""

    def __init__(self, logs_dir):
        self.logs_dir = logs_dir
        self.lock = threading.Lock()
        self.entries = {}     # gid -> (key, entry dict)
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=1,
                                                          thread_name_prefix="analysis")

    def get(self, gid):
        """The entry of game `gid` (module docstring); starts its analysis on the first
        call.  Raises library.NotFound."""
        path = library.find(self.logs_dir, gid)
        st = os.stat(path)
        key = (st.st_size, st.st_mtime_ns)
        with self.lock:
            got = self.entries.get(gid)
            if got is not None and got[0] == key:
                return self._public(got[1])
            try:
                rec = library.load(self.logs_dir, gid)
            except record.RecordError as e:
                entry = {"state": "none", "reason": "no analysis: the game cannot be read "
                         "(%s)" % e}
                self.entries[gid] = (key, entry)
                return dict(entry)
            if not rec.turns:
                why = ("no analysis for a torn game without a readable turn (%s)" % rec.torn
                       if rec.torn else "no analysis: the game has no turns")
                entry = {"state": "none", "reason": why}
                self.entries[gid] = (key, entry)
                return dict(entry)
            entry = {"state": "running", "turns": len(rec.turns), "started": time.monotonic()}
            self.entries[gid] = (key, entry)
            self.pool.submit(self._run, gid, key, rec, entry)
            return self._public(entry)

    @staticmethod
    def _public(entry):
        out = {k: v for k, v in entry.items() if k != "started"}
        if entry["state"] == "running":
            out["elapsed_s"] = round(time.monotonic() - entry["started"], 1)
        return out

    def _run(self, gid, key, rec, entry):
        from samsara_host import analysis
        try:
            res = analysis.analyze_record(rec, ENGINE)
            done = dict(texts(res), state="done", torn=rec.torn, analysis=res)
        except Exception as e:  # a record the analysis cannot follow: words, not a crash
            why = "no analysis for a torn game" if rec.torn else "no analysis"
            done = {"state": "none", "reason": "%s: %s" % (why, e)}
        with self.lock:
            if self.entries.get(gid, (None, None))[1] is entry:
                self.entries[gid] = (key, done)

    def forget(self, gid):
        """Drop game `gid`'s analysis (deleted, renamed or pulled again)."""
        with self.lock:
            self.entries.pop(gid, None)

    def close(self):
        """Stop the thread (an analysis under way is abandoned)."""
        self.pool.shutdown(wait=False, cancel_futures=True)
