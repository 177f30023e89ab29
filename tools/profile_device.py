"""Run a device script (default tools/upy_profile_moves.py) on the emulated Pico and
print what it prints: the rig is served on --port (control --port + 1), the script runs
at the board's REPL as `samsara bench` runs its benchmark (host/samsara_host/bench_cmd),
after tools/upy_devkit.py (the boot and the fake scanner the scripts share).

    python -m tools.profile_device [--script tools/upy_profile_moves.py] [--port 7855]
        [--cycles 6] [--scenario moves|goal|final]
"""
import argparse
import os
import sys

from tools import rig as rigmod


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--script", default=os.path.join("tools", "upy_profile_moves.py"))
    p.add_argument("--port", type=int, default=7855)
    p.add_argument("--cycles", type=int, default=6)
    p.add_argument("--scenario", default="moves", choices=("moves", "goal", "final"))
    a = p.parse_args(argv)
    rig = rigmod.find_rig()
    if rig is None:
        print("no emulated Pico at %s (set PICO_RIG)" % rigmod.rig_dir())
        return 2
    with open(os.path.join(rigmod.ROOT, a.script)) as f:
        return run_on_rig(rig, "CYCLES = %d\nSCENARIO = %r\n" % (a.cycles, a.scenario),
                          f.read(), a.port)


def run_on_rig(rig, head, script, port, out=None):
    """Serve the rig on `port` (control port + 1) and run `head` (settings), the kit
    (tools/upy_devkit.py) and `script` at the board's REPL, its output to out(text)
    (default: stdout) as it comes.  Returns 0, or 1 when the rig did not come up."""
    from samsara_host.deploy_cmd import enter_repl, open_transport
    out = out or sys.stdout.write
    with open(os.path.join(rigmod.ROOT, "tools", "upy_devkit.py")) as f:
        kit = f.read()      # the boot, Feed, bench_end() the scripts share
    code = head + kit + script
    with rigmod.Serve(rig, port, control=port + 1) as srv:
        if not srv.wait_ready():
            print(srv.log()[-1500:])
            return 1
        t = open_transport("socket://127.0.0.1:%d" % port)
        try:
            enter_repl(t, 15)
            t.exec_raw_no_follow(code)
            _out, err = t.follow(3600, lambda d: out(d.decode("utf-8", "replace")))
            if err:
                out(err.decode("utf-8", "replace") + "\n")
        finally:
            t.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
