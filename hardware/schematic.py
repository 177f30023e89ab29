"""The Samsara board's schematic, as a netlist built from code with SKiDL.

Every part is defined here (``Part(tool=SKIDL, dest=TEMPLATE, pins=[...])``) with the
electrical type of each pin (power in, power out, input, output, tri-state,
bidirectional, open collector, passive), so SKiDL's electrical rules check (ERC)
works without any KiCad library. The pins and the position of every sensor and LED
come from the hardware tables through ``samsara_hw`` (pins.csv,
positions.csv), so the schematic and the firmware configuration cannot disagree.

    build(broken=None, sensors="reed")  -> skidl.Circuit
    erc(circuit)                        -> ErcResult(errors, warnings, messages)
    erc_errors(circuit=None)            -> number of ERC errors (of the real board if None)

`sensors` chooses the build: "reed" (74HC165 chain, reed switches, the default),
"hall" (74HC165 chain, DRV5032FC Hall switches) or "analog" (CD74HC4067 muxes,
DRV5053 Hall sensors). `broken` builds a deliberately wrong board for the tests:
"outputs_tied" (QH of two 74HC165 joined), "unpowered" (a 74HC165 with VCC left open),
"unpowered_net" (a 74HC165 whose VCC net has no supply).

On top of SKiDL's default checks (pin-type conflicts such as two outputs on one net),
two rules of this project count as errors: a pin left unconnected that is not marked
no-connect, and a power input on a net that nothing supplies.

Run as a script it writes the KiCad netlist to build/samsara.net (and one per other
build) and prints the ERC result:  python hardware/schematic.py
"""
import contextlib
import io
import logging
import os
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
for _sub in ("firmware", "hardware"):  # samsara and samsara_hw without an install
    if os.path.join(ROOT, _sub) not in sys.path:
        sys.path.insert(0, os.path.join(ROOT, _sub))

from samsara_hw import csvcheck, names  # noqa: E402

# SKiDL announces at import time that it found no KiCad libraries; it needs none here.
with contextlib.redirect_stderr(io.StringIO()):
    import skidl  # noqa: E402
    from skidl import SKIDL, TEMPLATE, Circuit, Net, Part, Pin  # noqa: E402
    from skidl.logger import erc_logger, rt_logger, stop_log_file_output  # noqa: E402

# SKiDL writes <script>.log and <script>.erc into the current folder; our ERC report
# is collected in memory, and a test that changed or removed the current folder made
# those files fail to open.  No log files.
stop_log_file_output()



def _fast_skidl_trace():
    """What skidl.scriptinfo.get_skidl_trace returns (the caller's file:line chain
    outside SKiDL), without inspect.stack(), which reads source lines for every frame
    and makes building 300 parts take seconds under pytest."""
    skidl_dir = os.path.dirname(skidl.__file__)
    trace = []
    frame = sys._getframe(1)
    while frame is not None:
        filename = frame.f_code.co_filename
        if not filename.startswith(skidl_dir):
            trace.append((os.path.abspath(filename), str(frame.f_lineno)))
        frame = frame.f_back
    trace.reverse()
    return trace


for _mod in ("circuit", "node", "logger"):
    _m = sys.modules.get("skidl." + _mod)
    if _m is not None and hasattr(_m, "get_skidl_trace"):
        _m.get_skidl_trace = _fast_skidl_trace

for _logger in (erc_logger, rt_logger):
    for _h in _logger.handlers:
        if isinstance(_h, logging.StreamHandler) and not isinstance(_h, logging.FileHandler):
            _h.setStream(sys.stderr)
            _h.setLevel(logging.ERROR)   # our own report says what matters

T = Pin.types
SENSOR_BUILDS = ("reed", "hall", "analog")
BROKEN = ("outputs_tied", "unpowered", "unpowered_net")


# ---------------------------------------------------------------------------
# Part templates

def _template(name, prefix, footprint, description, pins):
    return Part(tool=SKIDL, dest=TEMPLATE, name=name, ref_prefix=prefix, footprint=footprint,
                description=description,
                pins=[Pin(num=str(n), name=nm, func=f) for n, nm, f in pins])


def _gpio_pin(gpio):
    """Header pin number of GPIO `gpio` on the Raspberry Pi Pico."""
    return PICO_GPIO_PINS[gpio]


PICO_GPIO_PINS = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14,
                  11: 15, 12: 16, 13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25,
                  20: 26, 21: 27, 22: 29, 26: 31, 27: 32, 28: 34}
PICO_GND_PINS = (3, 8, 13, 18, 23, 28, 38)


def templates():
    pico = [(n, "GP%d" % g, T.BIDIR) for g, n in PICO_GPIO_PINS.items()]
    pico += [(n, "GND", T.PWRIN) for n in PICO_GND_PINS]
    pico += [(30, "RUN", T.INPUT), (33, "AGND", T.PWRIN), (35, "ADC_VREF", T.INPUT),
             (36, "3V3_OUT", T.PWROUT), (37, "3V3_EN", T.INPUT),
             # VSYS is driven from VBUS through the Pico's own Schottky diode.
             (39, "VSYS", T.PWROUT), (40, "VBUS", T.PWRIN)]
    t = {}
    t["pico"] = _template("Raspberry_Pi_Pico", "A", "Module:RaspberryPi_Pico_TH",
                          "Raspberry Pi Pico (RP2040), MicroPython", pico)
    t["usb"] = _template("USB_Host_Port", "USB", "virtual",
                         "the computer's USB port behind the Pico's micro-USB socket, 5 V 500 mA",
                         [(1, "VBUS", T.PWROUT), (2, "GND", T.PWROUT)])
    t["pwr_flag"] = _template("PWR_FLAG", "#FLG", "virtual",
                              "marks a rail fed through passive parts (jumper, fuse) as supplied",
                              [(1, "pwr", T.PWROUT)])
    t["hc165"] = _template("74HC165", "U", "Package_DIP:DIP-16_W7.62mm",
                           "8-bit parallel-in serial-out shift register", [
                               (1, "SH/LD", T.INPUT), (2, "CLK", T.INPUT), (3, "E", T.INPUT),
                               (4, "F", T.INPUT), (5, "G", T.INPUT), (6, "H", T.INPUT),
                               (7, "~QH", T.OUTPUT), (8, "GND", T.PWRIN), (9, "QH", T.OUTPUT),
                               (10, "SER", T.INPUT), (11, "A", T.INPUT), (12, "B", T.INPUT),
                               (13, "C", T.INPUT), (14, "D", T.INPUT), (15, "CLK_INH", T.INPUT),
                               (16, "VCC", T.PWRIN)])
    t["ahct125"] = _template("74AHCT125", "U", "Package_DIP:DIP-14_W7.62mm",
                             "quad 3-state buffer, TTL inputs: 3.3 V to 5 V level shifter", [
                                 (1, "1~OE", T.INPUT), (2, "1A", T.INPUT), (3, "1Y", T.TRISTATE),
                                 (4, "2~OE", T.INPUT), (5, "2A", T.INPUT), (6, "2Y", T.TRISTATE),
                                 (7, "GND", T.PWRIN), (8, "3Y", T.TRISTATE), (9, "3A", T.INPUT),
                                 (10, "3~OE", T.INPUT), (11, "4Y", T.TRISTATE), (12, "4A", T.INPUT),
                                 (13, "4~OE", T.INPUT), (14, "VCC", T.PWRIN)])
    mux = [(1, "COM", T.BIDIR)] + [(9 - i, "I%d" % i, T.BIDIR) for i in range(8)]
    mux += [(10, "S0", T.INPUT), (11, "S1", T.INPUT), (12, "GND", T.PWRIN), (13, "S3", T.INPUT),
            (14, "S2", T.INPUT), (15, "~E", T.INPUT)]
    mux += [(23 - (i - 8), "I%d" % i, T.BIDIR) for i in range(8, 16)] + [(24, "VCC", T.PWRIN)]
    t["hc4067"] = _template("CD74HC4067", "U", "Package_DIP:DIP-24_W15.24mm",
                            "16-channel analog multiplexer", mux)
    t["ws2812"] = _template("WS2812B", "LED", "LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm",
                            "RGB LED with integrated driver", [
                                (1, "VDD", T.PWRIN), (2, "DOUT", T.OUTPUT), (3, "VSS", T.PWRIN),
                                (4, "DIN", T.INPUT)])
    t["reed"] = _template("Reed_Switch", "SW", "Reed:MDSR-7_vertical", "reed switch, normally open",
                          [(1, "1", T.PASSIVE), (2, "2", T.PASSIVE)])
    t["drv5032"] = _template("DRV5032FC", "U", "Package_TO_SOT_SMD:SOT-23",
                             "Hall switch, omnipolar, open drain, 20 Hz", [
                                 (1, "VCC", T.PWRIN), (2, "OUT", T.OPENCOLL), (3, "GND", T.PWRIN)])
    t["drv5053"] = _template("DRV5053PA", "U", "Package_TO_SOT_SMD:SOT-23",
                             "linear Hall sensor, 0.2..1.8 V output, -23 mV/mT", [
                                 (1, "VCC", T.PWRIN), (2, "OUT", T.OUTPUT), (3, "GND", T.PWRIN)])
    t["rnet"] = _template("R_Network_8_Bussed", "RN", "Resistor_THT:R_Array_SIP9",
                          "8 resistors with a common pin",
                          [(1, "common", T.PASSIVE)] + [(n, "R%d" % (n - 1), T.PASSIVE) for n in range(2, 10)])
    t["r"] = _template("R", "R", "Resistor_THT:R_Axial_DIN0207", "resistor",
                       [(1, "1", T.PASSIVE), (2, "2", T.PASSIVE)])
    t["c"] = _template("C", "C", "Capacitor_THT:C_Disc_D5.0mm_W2.5mm_P5.00mm", "ceramic capacitor",
                       [(1, "1", T.PASSIVE), (2, "2", T.PASSIVE)])
    t["cp"] = _template("C_Polarized", "C", "Capacitor_THT:CP_Radial_D10.0mm_P5.00mm",
                        "electrolytic capacitor", [(1, "+", T.PASSIVE), (2, "-", T.PASSIVE)])
    t["button"] = _template("SW_Push", "SW", "Button_Switch_THT:SW_PUSH_12mm", "push button",
                            [(1, "1", T.PASSIVE), (2, "2", T.PASSIVE)])
    t["jack"] = _template("Barrel_Jack", "J", "Connector_BarrelJack:BarrelJack_CUI_PJ-102AH",
                          "5.5 x 2.1 mm DC jack, centre positive (the external supply drives the tip)",
                          [(1, "tip", T.PWROUT), (2, "sleeve", T.PASSIVE)])
    t["jumper3"] = _template("Jumper_3_Bridged12", "JP", "Connector_PinHeader_2.54mm:PinHeader_1x03",
                             "3-pin header with shunt: 1-2 USB, 2-3 external supply",
                             [(1, "1", T.PASSIVE), (2, "2", T.PASSIVE), (3, "3", T.PASSIVE)])
    t["fuse"] = _template("Polyfuse", "F", "Fuse:Fuse_Bourns_MF-RG300", "resettable fuse",
                          [(1, "1", T.PASSIVE), (2, "2", T.PASSIVE)])
    t["schottky"] = _template("D_Schottky", "D", "Diode_THT:D_DO-41_SOD81_P10.16mm_Horizontal",
                              "Schottky diode", [(1, "K", T.PASSIVE), (2, "A", T.PASSIVE)])
    return t


# ---------------------------------------------------------------------------
# The board

def _part(tpl, ref, value, **fields):
    p = tpl(ref=ref, value=value)
    p.tag = ref
    for k, v in fields.items():
        p.fields[k] = v
    return p


class _Refs:
    """Sequential reference numbers per prefix (C1, C2, ...)."""

    def __init__(self):
        self.n = {}

    def __call__(self, prefix):
        self.n[prefix] = self.n.get(prefix, 0) + 1
        return "%s%d" % (prefix, self.n[prefix])


def build(broken=None, sensors="reed", cfg=None):
    """The board as a skidl.Circuit (see the module docstring)."""
    if sensors not in SENSOR_BUILDS:
        raise ValueError("sensors must be one of %s" % ", ".join(SENSOR_BUILDS))
    if broken not in (None,) + BROKEN:
        raise ValueError("broken must be None or one of %s" % ", ".join(BROKEN))
    cfg = cfg or csvcheck.load()
    t = templates()
    ref = _Refs()
    circuit = Circuit()
    circuit.no_files = True
    with circuit:
        gnd, v3, vbus, v5 = Net("GND"), Net("+3V3"), Net("VBUS"), Net("+5V")
        vsys, ext_in, ext5 = Net("VSYS"), Net("EXT_5V_IN"), Net("EXT_5V")
        nc = circuit.NC

        def decouple(rail, value="100n"):
            c = _part(t["c"], ref("C"), value)
            rail.connect(c[1])
            gnd.connect(c[2])

        # --- power: USB via the Pico, or an external 5 V supply (hardware/power.md)
        usb = _part(t["usb"], "USB1", "USB 5V 500mA")
        pico = _part(t["pico"], "A1", "Raspberry Pi Pico")
        vbus += usb["VBUS"], pico["VBUS"]
        gnd += usb["GND"]
        vsys += pico["VSYS"]
        v3 += pico["3V3_OUT"]
        for n in PICO_GND_PINS:
            gnd += pico[str(n)]
        gnd += pico["AGND"]
        nc += pico["RUN"], pico["3V3_EN"], pico["ADC_VREF"]   # internal pull-ups / filter
        jack = _part(t["jack"], "J2", "5V DC in")
        fuse = _part(t["fuse"], "F1", "3A hold")
        diode = _part(t["schottky"], "D1", "1N5819")
        jumper = _part(t["jumper3"], "JP1", "5V source")
        ext_in += jack["tip"], fuse[1]
        gnd += jack["sleeve"]
        ext5 += fuse[2], diode["A"], jumper[3]
        vsys += diode["K"]
        vbus += jumper[1]
        v5 += jumper[2]
        ext5 += _part(t["pwr_flag"], "#FLG1", "PWR_FLAG")["pwr"]
        v5 += _part(t["pwr_flag"], "#FLG2", "PWR_FLAG")["pwr"]
        bulk = _part(t["cp"], ref("C"), "1000u 10V")
        v5 += bulk["+"]
        gnd += bulk["-"]

        # --- Pico GPIOs from pins.csv
        gp = {}
        for g in PICO_GPIO_PINS:
            gp[g] = pico[str(_gpio_pin(g))]
        used = set()

        def gpio(function):
            g = cfg.pin(function)
            used.add(g)
            return gp[g]

        # --- buttons: to GND, internal pull-ups
        for func, name in (("BTN_ROLL", "roll"), ("BTN_UNDO", "undo")):
            sw = _part(t["button"], "SW%d" % (65 if name == "roll" else 66), name)
            Net("BTN_" + name.upper()).connect(gpio(func), sw[1])
            gnd += sw[2]

        # --- LED chain through the level shifter
        ls = _part(t["ahct125"], "U9", "74AHCT125")
        v5 += ls["VCC"]
        gnd += ls["GND"]
        decouple(v5)
        Net("LED_DATA_3V3").connect(gpio("LED_DATA"), ls["1A"])
        gnd += ls["1~OE"]
        for k in (2, 3, 4):                    # unused buffers: disabled, input grounded
            v5 += ls["%d~OE" % k]
            gnd += ls["%dA" % k]
            nc += ls["%dY" % k]
        r_data = _part(t["r"], "R1", "330")
        Net("LED_DATA_5V").connect(ls["1Y"], r_data[1])
        by_led = {p.led: p.name for p in cfg.positions}
        by_led.update({p.led: p.name for p in cfg.led_only.values()})
        prev = Net("LED_DIN0")
        prev += r_data[2]
        leds = []
        for i in range(names.LED_COUNT):
            led = _part(t["ws2812"], "LED%d" % (i + 1), "WS2812B", position=by_led[i], chain_index=str(i))
            leds.append(led)
            v5 += led["VDD"]
            gnd += led["VSS"]
            decouple(v5)
            prev += led["DIN"]
            if i + 1 < names.LED_COUNT:
                prev = Net("LED_DIN%d" % (i + 1))
                prev += led["DOUT"]
            else:
                nc += led["DOUT"]

        # --- sensors
        if sensors in ("reed", "hall"):
            chips = []
            for c in range(names.SR_CHIPS):
                u = _part(t["hc165"], "U%d" % (c + 1), "74HC165", chain_position=str(c))
                chips.append(u)
                if not (broken == "unpowered" and c == 3):
                    if broken == "unpowered_net" and c == 3:
                        floating = Net("VCC_CHIP3")
                        floating += u["VCC"]
                        decouple(floating)
                    else:
                        v3 += u["VCC"]
                        decouple(v3)
                gnd += u["GND"], u["CLK_INH"]
                nc += u["~QH"]
            sr_clk, sr_load = Net("SR_CLK"), Net("SR_LOAD")
            sr_clk += gpio("SR_CLK")
            sr_load += gpio("SR_LOAD")
            Net("SR_DATA").connect(gpio("SR_DATA"), chips[0]["QH"])
            if "SR_MOSI" in cfg.pins:
                used.add(cfg.pin("SR_MOSI"))   # claimed by machine.SPI, left open
                nc += gp[cfg.pin("SR_MOSI")]
            for c, u in enumerate(chips):
                sr_clk += u["CLK"]
                sr_load += u["SH/LD"]
                if c + 1 < len(chips):
                    Net("SR_Q%d" % (c + 1)).connect(chips[c + 1]["QH"], u["SER"])
                else:
                    gnd += u["SER"]
            if broken == "outputs_tied":
                Net.get("SR_DATA").connect(chips[1]["QH"])
            rnets = []
            for c in range(names.SR_CHIPS):
                rn = _part(t["rnet"], "RN%d" % (c + 1), "10k", chain_position=str(c))
                v3 += rn["common"]
                rnets.append(rn)
            for p in cfg.positions:
                chip, bit = p.sr
                net = Net("SNS_" + p.name)
                net += chips[chip]["ABCDEFGH"[bit]], rnets[chip][str(bit + 2)]
                if sensors == "reed":
                    sw = _part(t["reed"], "SW%d" % (p.index + 1), "reed", position=p.name)
                    net += sw[1]
                    gnd += sw[2]
                else:
                    h = _part(t["drv5032"], "U%d" % (101 + p.index), "DRV5032FC", position=p.name)
                    net += h["OUT"]
                    v3 += h["VCC"]
                    gnd += h["GND"]
                    decouple(v3)
        else:
            muxes = []
            com = Net("MUX_COM")
            com += gpio("MUX_ADC")
            sel = [Net("MUX_S%d" % i) for i in range(4)]
            for i in range(4):
                sel[i] += gpio("MUX_S%d" % i)
            for m in range(names.MUX_COUNT):
                u = _part(t["hc4067"], "U%d" % (11 + m), "CD74HC4067", mux=str(m))
                muxes.append(u)
                v3 += u["VCC"]
                gnd += u["GND"]
                decouple(v3)
                com += u["COM"]
                for i in range(4):
                    sel[i] += u["S%d" % i]
                Net("MUX_EN%d" % m).connect(gpio("MUX_EN%d" % m), u["~E"])
            for p in cfg.positions:
                m, ch = p.mux
                h = _part(t["drv5053"], "U%d" % (101 + p.index), "DRV5053PA", position=p.name)
                Net("SNS_" + p.name).connect(h["OUT"], muxes[m]["I%d" % ch])
                v5 += h["VCC"]
                gnd += h["GND"]
                decouple(v5)

        for g, pin in gp.items():
            if g not in used:
                nc += pin
    return circuit


# ---------------------------------------------------------------------------
# Electrical rules check

def _project_erc(circuit):
    """This project's extra rules, logged as ERC errors (see the module docstring)."""
    log = erc_logger
    for part in circuit.parts:
        for pin in part.pins:
            if pin.net is None and pin.func != T.NOCONNECT:
                log.error("Unconnected pin: %s (mark it no-connect if that is intended)." % pin.erc_desc())
    seen = set()
    for net in circuit.nets:
        if net.name in seen or getattr(net, "drive", None) == skidl.pin.pin_drives.NOCONNECT:
            continue
        seen.add(net.name)
        pins = net.pins
        if any(p.func == T.PWRIN for p in pins) and not any(p.func == T.PWROUT for p in pins):
            loads = ", ".join(p.erc_desc() for p in pins if p.func == T.PWRIN)
            log.error("Nothing supplies net %s: power input(s) %s." % (net.name, loads))


class ErcResult:
    def __init__(self, errors, warnings, messages):
        self.errors = errors
        self.warnings = warnings
        self.messages = messages

    def __repr__(self):
        return "ErcResult(errors=%d, warnings=%d)" % (self.errors, self.warnings)


class _Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.INFO)
        self.records = []

    def emit(self, record):
        if record.levelno >= logging.WARNING:
            self.records.append("%s: %s" % (record.levelname, record.getMessage()))


def erc(circuit):
    """Run SKiDL's ERC plus the project's rules on `circuit`."""
    from skidl.erc import dflt_circuit_erc
    collect = _Collect()
    erc_logger.addHandler(collect)
    circuit.erc_list = [dflt_circuit_erc, _project_erc]   # per circuit, not class-wide
    try:
        circuit.ERC()
    finally:
        erc_logger.removeHandler(collect)
    return ErcResult(erc_logger.error.count, erc_logger.warning.count, collect.records)


def erc_errors(circuit=None):
    """Number of ERC errors of `circuit` (default: the real board, reed build)."""
    return erc(circuit if circuit is not None else build()).errors


def write_netlist(circuit, path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with contextlib.redirect_stderr(io.StringIO()):
        text = circuit.generate_netlist()
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def summary(circuit):
    kinds = {}
    for p in circuit.parts:
        kinds[p.name] = kinds.get(p.name, 0) + 1
    return ", ".join("%d x %s" % (n, k) for k, n in sorted(kinds.items(), key=lambda kv: -kv[1]))


def main(argv):
    worst = 0
    for sensors in SENSOR_BUILDS:
        circuit = build(sensors=sensors)
        result = erc(circuit)
        name = "samsara.net" if sensors == "reed" else "samsara-%s.net" % sensors
        path = write_netlist(circuit, os.path.join(ROOT, "build", name))
        print("%s build: %d parts, %d nets; ERC: %d errors, %d warnings"
              % (sensors, len(circuit.parts), len(set(n.name for n in circuit.nets)),
                 result.errors, result.warnings))
        for m in result.messages:
            print("  " + m)
        print("  wrote %s" % os.path.relpath(path, os.getcwd()))
        worst = max(worst, result.errors)
    return 1 if worst else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
