"""Make the screenshots of docs/app.md: `python tools/app_screenshots.py [--out docs]`.

Starts `samsara app` twice (a virtual board playing a seeded game; then no board, for
a game played in the page), drives Debian's headless Chromium (tests/appbrowser.py)
through every page and writes docs/app-live.png, app-library.png, app-replay.png,
app-play.png, app-board.png and app-live-phone.png (360 px wide).
"""
import argparse
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))

from appbrowser import AppProcess, chromium  # noqa: E402

NEAR_END = "o....o........o.o......o/.o...o....o..o..oo.o.... 4-3 A"


def wait(drv, expr, timeout=60.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = drv.execute_script("return " + expr)
        if got:
            return got
        time.sleep(0.1)
    raise SystemExit("gave up waiting for %s" % expr)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", default=os.path.join(os.path.dirname(HERE), "docs"))
    args = p.parse_args(argv)
    tmp = tempfile.mkdtemp(prefix="samsara-shots-")
    logs = "samsara-logs"    # relative to tmp: the pages show the folder as given
    drv = chromium(tmp, 1280, 860)
    out = lambda name: os.path.join(args.out, "app-%s.png" % name)  # noqa: E731
    app = AppProcess(["--virtual", "--seed", "3", "--pace", "0.8", "--turns", "13"], logs,
                     cwd=tmp)
    try:
        drv.get(app.url)
        wait(drv, "window.samsaraLive && samsaraLive.record.length >= 12 && "
                  "samsaraLive.lifted.length == 1 && samsaraLive.targets.length > 0", 180)
        drv.save_screenshot(out("live"))
        drv.set_window_size(360, 1400)
        time.sleep(0.5)
        drv.save_screenshot(out("live-phone"))
        drv.set_window_size(1280, 860)
        wait(drv, "samsaraLive.record.length >= 13 && samsaraLive.state == 'turn_complete'", 60)
        drv.get(app.url + "library")
        wait(drv, "!document.getElementById('pull').disabled")
        drv.find_element("id", "pull").click()
        wait(drv, "document.querySelectorAll('table.games tbody tr').length > 0")
        drv.save_screenshot(out("library"))
        drv.find_element("link text", "Replay").click()
        wait(drv, "window.samsaraReplay")
        wait(drv, "window.samsaraAnalysis == 'done'", 300)
        # A turn the engine flags, if there is one (else the tenth).
        k = drv.execute_script("return (an.analysis.turns.findIndex(t => t.flag) + 1) || 10")
        for _ in range(k):
            drv.find_element("id", "next").click()
        drv.set_window_size(1280, 1250)   # the chart and the flagged turn list too
        time.sleep(0.5)
        drv.save_screenshot(out("replay"))
        drv.set_window_size(1280, 860)
        drv.get(app.url + "board")
        wait(drv, "document.getElementById('facts').textContent.indexOf('Bundle') >= 0")
        wait(drv, "window.samsaraSensors")
        drv.set_window_size(1280, 1750)
        time.sleep(1.0)
        drv.save_screenshot(out("board"))
        drv.set_window_size(1280, 860)
    finally:
        app.stop()
    app = AppProcess(["--no-board"], logs, cwd=tmp)
    try:
        drv.get(app.url + "play?seed=4&position=" + NEAR_END.replace(" ", "%20"))
        drv.find_element("id", "newE").click()
        wait(drv, "window.samsaraPlay")
        drv.find_element("id", "roll").click()
        st = wait(drv, "window.samsaraPlay.dice.length && samsaraPlay")
        drv.find_element("css selector", '[data-hole="%s"]' % st["movable"][-1]).click()
        wait(drv, "samsaraPlay.lifted")
        time.sleep(0.3)
        drv.save_screenshot(out("play"))
    finally:
        app.stop()
        drv.quit()
    print("wrote %s" % ", ".join(out(n) for n in ("live", "live-phone", "library", "replay",
                                                  "board", "play")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
