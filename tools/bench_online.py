"""Online games: how many a Mosquitto on this machine carries (docs/online.md, the
figures of docs/performance.md "Online games").  Starts Mosquitto with the project's
configuration on a free local port (`samsara relay`'s) and plays 500 simultaneous
simulated games of 10 turns each (`samsara online load --games 500`): prints turns
sent, the sender-to-receiver turn latency p50/p99 and lost/duplicated turns against
the targets (p99 <= 100 ms, 0 lost, 0 duplicated)."""
from samsara_host.online.load import run_load
from samsara_host.online.relay import Relay, RelayError

GAMES = 500
TURNS = 10
P99_MS = 100.0


def main():
    try:
        relay = Relay()
        relay.start()
    except RelayError as e:
        print("online: skipped (%s)" % e)
        return
    try:
        res = run_load(relay.url(), GAMES, turns=TURNS, say=print)
    finally:
        relay.stop()
    for line in res.lines():
        print(line)
    p99 = res.pct(0.99)
    print("target: p99 <= %.0f ms: %s; 0 lost, 0 duplicated, every game done: %s"
          % (P99_MS, "met" if p99 is not None and p99 <= P99_MS else "MISSED",
             "met" if res.ok() else "MISSED"))


if __name__ == "__main__":
    main()
