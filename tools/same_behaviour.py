"""Check that a refactor kept the board's behaviour: replay every trace in tests/traces/
and seeded simulated games on an earlier commit and on the working tree, and compare.

    python tools/same_behaviour.py REV [--seeds 1-8] [--noise 0,2]

For each seed and noise level it records the simulated game as a sensor trace with both
trees (`samsara trace record`: the traces must be byte-identical), then replays every
trace file with both trees (`samsara trace replay --json`: turns, result, final scene,
rejections must be equal).  The earlier commit is checked out into a temporary git
worktree and run with this project's virtual environment.

Known intended differences are normalised before comparing and named here:
  - the dice pips of 2 and 3 (issue 8 fixed scene.PIPS: pip 5 -> pip 6).
Exit code 0 when everything agrees, 1 otherwise (the differing items are listed).
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _cli(tree, *args):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        os.path.join(tree, d) for d in ("host", "firmware", "hardware")))
    r = subprocess.run([sys.executable, "-c",
                        "import sys; from samsara_host.cli import main; sys.exit(main())", *args],
                       capture_output=True, text=True, env=env)
    return r.returncode, r.stdout


def _old_pips(scene):
    """The scene as today's PIPS would draw it: a die lit on pips {0, 5} (two) or
    {0, 3, 5} (three) moves its pip 5 to pip 6."""
    out = dict(scene)
    for die in ("D1", "D2"):
        pips = {int(k.split(".")[1]) for k in scene if k.startswith(die + ".")}
        if pips in ({0, 5}, {0, 3, 5}):
            out[die + ".6"] = out.pop(die + ".5")
    return out


def _range(text):
    lo, _, hi = text.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rev", help="the earlier commit to compare with")
    ap.add_argument("--seeds", default="1-8", help="seeded games, e.g. 1-8 (default)")
    ap.add_argument("--noise", default="0,2", help="noise levels, e.g. 0,2 (default)")
    ap.add_argument("--pips-fixed", action="store_true",
                    help="the earlier commit draws the old pips of 2 and 3 (before issue 8)")
    a = ap.parse_args(argv)
    tmp = tempfile.mkdtemp(prefix="same-behaviour-")
    old = os.path.join(tmp, "old")
    subprocess.run(["git", "worktree", "add", "-q", "--detach", old, a.rev], cwd=ROOT, check=True)
    compared = differ = 0
    try:
        traces = sorted(glob.glob(os.path.join(ROOT, "tests", "traces", "*.jsonl")))
        for seed in _range(a.seeds):
            for noise in [int(x) for x in a.noise.split(",")]:
                files = []
                for tree, tag in ((old, "old"), (ROOT, "new")):
                    f = os.path.join(tmp, "%s-%d-%d.jsonl" % (tag, seed, noise))
                    _cli(tree, "trace", "record", "--seed", str(seed), "--noise", str(noise), f)
                    files.append(f)
                compared += 1
                with open(files[0], "rb") as f0, open(files[1], "rb") as f1:
                    if f0.read() != f1.read():
                        differ += 1
                        print("differs: trace record --seed %d --noise %d" % (seed, noise))
                traces.append(files[0])
        for t in traces:
            ra, oa = _cli(old, "trace", "replay", t, "--json")
            rb, ob = _cli(ROOT, "trace", "replay", t, "--json")
            compared += 1
            try:
                ja, jb = json.loads(oa), json.loads(ob)
            except ValueError:
                ja, jb = oa, ob
            if isinstance(ja, dict) and a.pips_fixed:
                ja["scene"] = _old_pips(ja.get("scene", {}))
            if ja != jb or ra != rb:
                differ += 1
                keys = [k for k in ja if ja[k] != jb.get(k)] if isinstance(ja, dict) else ["output"]
                print("differs: trace replay %s (%s)" % (os.path.basename(t), ", ".join(keys)))
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", old], cwd=ROOT)
    print("%d compared, %d differ" % (compared, differ))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
