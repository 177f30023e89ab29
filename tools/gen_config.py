"""Regenerate firmware/board_config.py from the tables in hardware/.

Usage: python tools/gen_config.py          write firmware/board_config.py
       python tools/gen_config.py --check  exit 1 if it is missing or stale
       python tools/gen_config.py --wiring print the wiring lists (chips, muxes, LED chain)

The tables are validated first; an error names the file, line and row at fault.
"""
import os
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
for _sub in ("firmware", "hardware"):  # samsara (the pip table) and samsara_hw
    if os.path.join(ROOT, _sub) not in sys.path:
        sys.path.insert(0, os.path.join(ROOT, _sub))

from samsara_hw import codegen, csvcheck, names, wiring  # noqa: E402


def main(argv):
    check = "--check" in argv[1:]
    try:
        cfg = csvcheck.load(os.path.join(ROOT, "hardware"))
    except csvcheck.HardwareConfigError as e:
        print("hardware configuration error: %s" % e, file=sys.stderr)
        return 2
    if "--wiring" in argv[1:]:
        sys.stdout.write(wiring.wiring_text(cfg))
        return 0
    text = codegen.generate(cfg)
    path = codegen.board_config_path(ROOT)
    rel = os.path.relpath(path, ROOT)
    old = None
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            old = f.read()
    if check:
        if old != text:
            print("%s is stale: run `%s`" % (rel, codegen.GENERATOR_COMMAND), file=sys.stderr)
            return 1
        print("%s is up to date" % rel)
        return 0
    if old == text:
        print("%s unchanged" % rel)
        return 0
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    print("wrote %s (%d positions, %d LEDs, LED budget %d mA)"
          % (rel, len(names.POSITION_NAMES), names.LED_COUNT, cfg.settings["led_budget_ma"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
