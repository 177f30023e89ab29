"""`samsara ports`: the serial ports, with the Pico (USB 2E8A:0005) marked, and the
virtual boards running here (`samsara virtual-board`, the app's); with --hello each
candidate (or the --port given) is asked `hello` (docs/host-tool.md)."""
import json
import sys

from samsara_host import boardlink
from samsara_host.argtypes import port_arg


def add_parser(sub, name, help_text):
    p = sub.add_parser(name, help=help_text, description=help_text)
    p.add_argument("--port", type=port_arg, help="check this port (device or pyserial URL) with hello")
    p.add_argument("--hello", action="store_true",
                   help="confirm each Pico port by asking the firmware `hello`")
    p.add_argument("--all", action="store_true", help="also list ports that are no Pico")
    p.add_argument("--json", action="store_true", help="one JSON object per port")
    p.set_defaults(func=run)


def probe(port, timeout=1.5):
    """(hello reply or None, problem text or None) for one port."""
    state = boardlink.State(port)
    try:
        return state.hello(timeout=timeout), None
    except boardlink.NoReply:
        return None, ("no answer to hello: MicroPython without the Samsara firmware, or "
                      "the board is in the REPL (`samsara doctor` tells which)")
    except boardlink.LinkError as e:
        return None, str(e)
    finally:
        state.close()


def run(args):
    ports = boardlink.list_ports()
    rows = []
    if args.port:
        known = {p.device: p for p in ports}
        info = known.get(args.port) or boardlink.PortInfo(args.port, description="given")
        rows.append(info)
        args.hello = True
    else:
        rows = [p for p in ports if p.is_pico or args.all]
    virtual = [] if args.port else boardlink.virtual_boards()
    out = []
    for p in rows:
        row = {"port": p.device, "usb": p.usb_id(), "pico": p.is_pico,
               "serial": p.serial_number, "description": p.description}
        if args.hello and (p.is_pico or args.port):
            reply, problem = probe(p.device)
            row["samsara"] = bool(reply)
            if reply:
                row.update({"board": reply.get("board"), "fw": reply.get("fw"),
                            "hash": reply.get("hash"), "proto": reply.get("proto")})
            else:
                row["problem"] = problem
        out.append(row)
    for v in virtual:
        row = {"port": v["port"], "usb": None, "pico": False, "virtual": True,
               "serial": None, "description": "virtual board %s (folder %s)" % (
                   v["board"], v["folder"])}
        if args.hello:
            reply, problem = probe(v["port"])
            row["samsara"] = bool(reply)
            if reply:
                row.update({"board": reply.get("board"), "fw": reply.get("fw"),
                            "hash": reply.get("hash"), "proto": reply.get("proto")})
            else:
                row["problem"] = problem
        out.append(row)
    if args.json:
        if not out:
            print("[]")  # nothing found: still JSON, and exit 1 as without --json
            return 1
        for row in out:
            print(json.dumps(row))
    else:
        if not out:
            others = len(ports)
            print("No Pico found (no serial port with USB id 2E8A:0005; %d other port%s%s) "
                  "and no virtual board running." % (others, "" if others == 1 else "s",
                                                     ", see --all" if others else ""))
            print("Plug the board in with a data cable (`samsara doctor` helps further), "
                  "or start one without hardware: `samsara virtual-board`.")
            return 1
        for row in out:
            mark = "Pico" if row["pico"] else ("virt" if row.get("virtual") else "    ")
            line = "%-24s %-9s %s  %s" % (row["port"], row["usb"] or "-", mark,
                                          row["description"] or "")
            if "samsara" in row:
                if row["samsara"]:
                    line += "\n    Samsara board %s, firmware %s (%s), protocol %s" % (
                        row["board"], row["fw"], row["hash"], row["proto"])
                else:
                    line += "\n    not confirmed: %s" % row["problem"]
            print(line.rstrip())
    if args.hello and out and not any(r.get("samsara") for r in out):
        return 1
    if not args.port and not any(r["pico"] or r.get("virtual") for r in out):
        return 1        # --all listed other ports, but no board was found
    return 0
