"""Helpers of the app's browser tests and tools/app_screenshots.py: Debian's headless
Chromium driven by Selenium through the system chromedriver, and `samsara app` run
as a child process.

    drv = chromium(tmp)                   # or raises NoBrowser
    app = AppProcess(["--no-board"], logs) ; app.url ; app.stop()
    drawn_marbles(drv, holes)             # the holes where the page draws a marble
    wait_for(fn, what) ; js(drv, expr) ; click(drv, id)   # the tests' steps

The tests' `browser` fixture (tests/conftest.py) is a module's one Chromium, made by
browser_or_skip.  TCP ports: the app, chromedriver and Chromium's debugging port take
free ones from the range in the environment variable SAMSARA_TEST_PORTS ("7100-7199")
when it is set, so that test runs sharing a computer keep to their own ports; else
the system picks.
"""
import os
import subprocess
import sys
import time

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync")
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class NoBrowser(Exception):
    """Chromium, chromedriver or selenium is missing; str() says which."""


def chromium(tmp, width=1280, height=900):
    """A Selenium driver of headless Chromium with a fresh profile in `tmp`;
    chromedriver listens on a port of testports.free_port."""
    from testports import free_port
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not os.access(p, os.X_OK)]
    if missing:
        raise NoBrowser("no %s: install Debian's chromium and chromium-driver "
                        "(apt-get install chromium chromium-driver; .ci/run does)"
                        % " and ".join(missing))
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        raise NoBrowser("no selenium module: run `make venv`")
    opts = webdriver.ChromeOptions()
    for f in FLAGS:
        opts.add_argument(f)
    opts.add_argument("--user-data-dir=%s" % os.path.join(str(tmp), "chromium-profile"))
    opts.add_argument("--window-size=%d,%d" % (width, height))
    if os.environ.get("SAMSARA_TEST_PORTS"):   # Chromium's own port in the range too
        opts.add_argument("--remote-debugging-port=%d" % free_port())
    opts.binary_location = CHROMIUM
    drv = webdriver.Chrome(service=Service(CHROMEDRIVER, port=free_port()), options=opts)
    drv.set_window_size(width, height)
    return drv


class AppProcess:
    """`samsara app ARGS --http-port P --no-browser --logs LOGS` as a child (P: a port
    of testports.free_port); `url` once it printed `url:`.  stop() ends it (SIGTERM,
    then SIGKILL)."""

    def __init__(self, args, logs, timeout=60.0, cwd=REPO):
        from testports import free_port
        exe = os.path.join(os.path.dirname(sys.executable), "samsara")
        self.proc = subprocess.Popen(
            [exe, "app"] + list(args) + ["--http-port", str(free_port()), "--no-browser",
                                         "--logs", str(logs)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=cwd)
        self.lines = []
        self.url = None
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            line = self.proc.stdout.readline()
            if not line:
                break
            self.lines.append(line)
            if line.startswith("url: "):
                self.url = line[5:].strip()
                break
        if self.url is None:
            self.stop()
            raise RuntimeError("samsara app did not start: %s" % "".join(self.lines))

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


def drawn_marbles(drv, holes, box="#board"):
    """Names of the holes (0..47 track fields) where the page's board picture draws
    a marble (circles filled with the marble gradient), found by their centres.
    `holes`: svg.hole_points() of a picture without title and notes; a picture with
    them is shifted down by as much as its board frame (rect.frame) is."""
    from samsara_host import svg
    import re
    ref = float(re.search(r'class="frame" x="[\d.]+" y="([\d.]+)"',
                          svg.render(_Empty(), None)).group(1))
    frame_y = drv.execute_script(
        "return parseFloat(document.querySelector(arguments[0] + ' svg rect.frame')"
        ".getAttribute('y'));", box)
    dy = frame_y - ref
    pts = drv.execute_script(
        "return Array.from(document.querySelectorAll(arguments[0] + ' svg circle'))"
        ".filter(c => c.getAttribute('fill') === 'url(#marble)')"
        ".map(c => [parseFloat(c.getAttribute('cx')), parseFloat(c.getAttribute('cy'))]);",
        box)
    out = set()
    for x, y in pts:
        for name, (hx, hy, _r) in holes.items():
            if abs(hx - x) < 0.2 and abs(hy + dy - y) < 0.2:
                out.add(name)
    return out


class _Empty:
    a = b = 0

    def occupied(self, p):
        return False


def marbles_of(position):
    """Names of the track fields holding a marble in a rules Position."""
    from samsara.rules.geometry import position_name
    return {position_name(p) for p in range(48) if position.occupied(p)}


def browser_or_skip(tmp):
    """chromium(tmp) for a test module's `browser` fixture; without a browser the test
    is skipped, except under CI=true, where it fails."""
    import pytest
    try:
        return chromium(tmp)
    except NoBrowser as e:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true and %s" % e)
        pytest.skip(str(e))


def wait_for(fn, what, timeout=40.0, step=0.05):
    """fn()'s first true value, asked every `step` s; AssertionError naming `what`
    after `timeout` s."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = fn()
        if got:
            return got
        time.sleep(step)
    raise AssertionError("waited %.0f s for %s" % (timeout, what))


def js(drv, expr):
    """The value of the JavaScript expression `expr` in the page."""
    return drv.execute_script("return " + expr)


def each(drv, css, expr):
    """The JavaScript expression `expr` of `e` for each element matching the CSS
    selector `css`, in document order, read in one script: a page that draws a list or
    board again meanwhile cannot leave a stale element behind."""
    return drv.execute_script("return Array.from(document.querySelectorAll(arguments[0]))"
                              ".map(function (e) { return %s; })" % expr, css)


def click(drv, element_id):
    """Click the element with id `element_id`, scrolled into view first."""
    drv.execute_script("document.getElementById(arguments[0]).scrollIntoView({block: "
                       "'center'})", element_id)
    drv.find_element("id", element_id).click()
