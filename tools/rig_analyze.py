"""Where the slow lifts and placements, the overruns near them and the heap minimum of
one emulated-Pico game come from: reads an outputs folder of pico-rig (summary.json,
lifts.json, scan.json, heap.json, serial.log) and prints, for every lift over 19 ms its
latch gaps and the board's lines before it, for every placement its acceptance time and
the latch gaps over 7.5 ms in the 300 ms after it, the near overruns grouped by how
long after the lift/placement they start, and the heap samples under 120,000 bytes with
the lines before them.  Used for docs/performance.md "Third round".

    python tools/rig_analyze.py OUTPUTS_DIR
"""
import json, sys, os, bisect
out = sys.argv[1]
L = lambda n: json.load(open(os.path.join(out, n)))
lifts = L("lifts.json"); lat = L("scan.json")["latch_ms"]; heap = L("heap.json")
ser = []
for line in open(os.path.join(out, "serial.log")):
    t, _, txt = line.partition("\t"); ser.append((float(t), txt.strip()[:110]))
print("keys lifts:", list(lifts.keys()), "place keys:", list(lifts["places"][0].keys()) if lifts.get("places") else None)
def gaps_between(a, b):
    i = bisect.bisect_left(lat, a)
    g = []
    while i + 1 < len(lat) and lat[i] < b:
        d = lat[i+1] - lat[i]
        if d > 7.5: g.append((round(lat[i], 1), round(d, 1)))
        i += 1
    return g
def near_lines(a, b):
    return [(round(t, 1), x) for t, x in ser if a <= t <= b]
print("== slow lifts")
for x in lifts["lifts"]:
    if (x.get("targetLed") or 99) > 19:
        t = x["t"]; print(round(t,1), x["move"], "led", round(x["targetLed"],1), "latch", round(x["latch"],1), "gaps", gaps_between(t - 400, t + 40))
        for l in near_lines(t - 400, t + 50): print("    ", l)
print("== slow places")
events = sorted([x["t"] for x in lifts["lifts"]] + [x["t"] for x in lifts["places"]])
for x in lifts["places"]:
    v = [x.get(k) for k in x if k not in ("t",) and isinstance(x.get(k), (int, float))]
    print(round(x["t"],1), {k: (round(v,1) if isinstance(v,float) else v) for k, v in x.items() if k != "t"}, "gaps", gaps_between(x["t"], x["t"] + 300))
print("== near overruns")
near = {}
for a, b in zip(lat, lat[1:]):
    if b - a > 7.5:
        k = bisect.bisect_right(events, a) - 1
        if k >= 0 and a - events[k] <= 300:
            off = a - events[k]
            near.setdefault(int(off // 25) * 25, []).append(round(b - a, 1))
for k in sorted(near): print("  start %3d-%3d ms after: n=%d gaps %s" % (k, k+25, len(near[k]), sorted(near[k])[-6:]))
m = min(heap, key=lambda h: h["free"])
print("== heap min", m)
for h in heap:
    if h["free"] < 120000: print("  low", h, near_lines(h["t"] - 150, h["t"] + 20)[-4:])
