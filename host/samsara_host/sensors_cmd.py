"""`samsara doctor --sensors` and `samsara doctor --self-test`: the board's sensor
health per hole as a map with a sentence for each suspicious hole, and the guided
self-test (docs/debounce.md "Sensor health").  Its one job is to read and judge the
board's `health` and `self_test` replies (docs/protocol.md)."""
import time

from samsara.rules.geometry import position_index

BOUNCES = 10
"""Bounces from which a hole is suspicious."""
STRAYS = 3
"""Changes while no marble could move from which a hole is suspicious."""
REPAIR_MS = 5000
"""Time in repairs naming a hole from which it is suspicious (ms)."""
MARGIN = 60
"""Hall build: ADC counts to the next threshold below which a hole is suspicious."""


class EmptyBoard:
    """The board without marbles for the map (a Position needs its 12 marbles): the
    holes in `marked` (position indexes) are drawn filled."""
    r = s = a = b = mover = 0

    def __init__(self, marked=()):
        self.marked = set(marked)

    def occupied(self, p):
        return p in self.marked


def fetch_health(client, timeout=3.0):
    """Every page of `health`: (holes {name: {bounces, strays, repair_ms, margin}},
    uptime_ms, settle)."""
    holes = {}
    after = -1
    while True:
        r = client.request("health", timeout=timeout, after=after)
        for name, b, s, rep, m in r["holes"]:
            holes[name] = {"bounces": b, "strays": s, "repair_ms": rep, "margin": m}
        if not r["more"] or not r["holes"]:
            return holes, r["uptime_ms"], r["settle"]
        after = position_index(r["holes"][-1][0])


def _span(ms):
    s = ms / 1000.0
    if s < 120:
        return "%d seconds" % round(s)
    if s < 7200:
        return "%d minutes" % round(s / 60)
    return "%.1f hours" % (s / 3600)


def judge(holes, uptime_ms):
    """[(name, sentence)] of the suspicious holes, in board order, one sentence per
    finding ("S14 bounced 38 times in 10 minutes: check ...")."""
    out = []
    for name in sorted(holes, key=position_index):
        h = holes[name]
        if h["bounces"] >= BOUNCES:
            out.append((name, "%s bounced %d times in %s: check the reed switch or the "
                        "marble's magnet" % (name, h["bounces"], _span(uptime_ms))))
        if h["strays"] >= STRAYS:
            out.append((name, "%s changed %d times while no marble could move there: a "
                        "loose wire, a knocked board or a failing sensor"
                        % (name, h["strays"])))
        if h["repair_ms"] >= REPAIR_MS:
            out.append((name, "%s was named in repairs for %s: the sensor may be stuck; "
                        "check that it reads an empty hole and a marble"
                        % (name, _span(h["repair_ms"]))))
        m = h.get("margin")
        if m is not None and m < MARGIN:
            out.append((name, "%s reads only %d ADC counts from its threshold: "
                        "recalibrate (samsara calibrate) or check the sensor's distance"
                        % (name, m)))
    return out


def render_map(findings):
    """The terminal map (rich Text): the board with the suspicious holes highlighted
    (filled and yellow) and the sentences under it."""
    from rich.text import Text
    from samsara_host.boardview import render
    names = sorted({n for n, _s in findings}, key=position_index)
    idx = [position_index(n) for n in names]
    pic = render(EmptyBoard(idx), highlight=idx,
                 note="suspicious (filled): %s" % (", ".join(names) or "none"))
    out = Text()
    out.append_text(pic)
    for _n, sentence in findings:
        out.append("\n  - " + sentence)
    if not findings:
        out.append("\n  every sensor looks healthy")
    return out


def write_svg(path, findings):
    """An SVG picture of the map: suspicious holes lit red, the sentences as notes."""
    from samsara_host import svg
    scene = {n: "#ff3030" for n, _s in findings}
    svg.write(path, EmptyBoard(), scene=scene, title="sensor health",
              notes=[s for _n, s in findings] or ["every sensor looks healthy"])


def run_sensors(client, svg_path=None, write=print):
    """`doctor --sensors`: fetch, judge, draw; returns 1 when a hole is suspicious."""
    from rich.console import Console
    holes, uptime, _settle = fetch_health(client)
    findings = judge(holes, uptime)
    Console(soft_wrap=True, highlight=False).print(render_map(findings))
    if svg_path:
        write_svg(svg_path, findings)
        write("map written to %s" % svg_path)
    return 1 if findings else 0


def self_test(client, holes, on_hole=None, timeout_s=15.0, quiet_s=0.5, poll_s=0.1):
    """The guided self-test over `holes` (names): each is lit alone; on_hole(name) is
    called (prompt the player, or a test's simulated hand); then the board's result is
    read until the hole saw a marble in and out and was quiet for quiet_s, or timeout_s
    passed.  Returns [(name, verdict, detail)], verdict "ok", "not seen", "twice" or
    "neighbour"."""
    out = []
    try:
        for name in holes:
            client.request("self_test", step="hole", pos=name)
            if on_hole is not None:
                on_hole(name)
            end = time.monotonic() + timeout_s
            last = None
            since = time.monotonic()
            while True:
                r = client.request("self_test", step="result")
                key = (r["on"], r["off"], tuple(r["other"]))
                now = time.monotonic()
                if key != last:
                    last, since = key, now
                done = r["on"] >= 1 and r["off"] >= 1 and now - since >= quiet_s
                if done or now >= end:
                    break
                time.sleep(poll_s)
            out.append(verdict(name, r))
    finally:
        client.request("self_test", step="stop")
    return out


def verdict(name, r):
    """(name, verdict, detail) of one hole's self_test result."""
    if r["other"]:
        return (name, "neighbour", "%s lit, but %s saw the marble" % (
            name, ", ".join(r["other"])))
    if r["on"] == 0 and r["off"] == 0:
        return (name, "not seen", "%s did not see the marble" % name)
    if r["on"] >= 2 or r["off"] >= 2:
        return (name, "twice", "%s saw the marble %d times" % (name, max(r["on"], r["off"])))
    return (name, "ok", "%s saw the marble in and out" % name)
