"""Compile every file under firmware/ with mpy-cross -march=armv6m; fail on the first error.

Usage: python tools/compile_check.py PATH_TO_MPY_CROSS
"""
import os
import subprocess
import sys
import tempfile


def main(argv):
    mpy_cross = argv[1] if len(argv) > 1 else "mpy-cross"
    files = []
    for root, _dirs, names in os.walk("firmware"):
        if "__pycache__" in root:
            continue
        files += [os.path.join(root, n) for n in sorted(names) if n.endswith(".py")]
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for f in sorted(files):
            out = os.path.join(tmp, "out.mpy")
            r = subprocess.run([mpy_cross, "-march=armv6m", "-o", out, f], capture_output=True, text=True)
            if r.returncode != 0:
                failed += 1
                print("mpy-cross failed on %s:\n%s" % (f, r.stderr.strip()))
    print("mpy-cross -march=armv6m: %d files, %d failed" % (len(files), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
