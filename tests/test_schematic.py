"""The SKiDL schematic (hardware/schematic.py): its ERC passes, broken boards fail it."""
import importlib.util
import os

import pytest

from samsara_hw import csvcheck, wiring

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

pytest.importorskip("skidl")


def _load_schematic():
    spec = importlib.util.spec_from_file_location(
        "samsara_schematic", os.path.join(ROOT, "hardware", "schematic.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


sch = _load_schematic()


@pytest.fixture(scope="module")
def reed_board():
    return sch.build()


def _net_nodes(circuit, name):
    for net in circuit.nets:
        if net.name == name:
            return {(p.part.ref, p.num) for p in net.pins}
    raise AssertionError("no net %s" % name)


def test_real_board_has_no_erc_errors(reed_board):
    result = sch.erc(reed_board)
    assert result.errors == 0, result.messages
    assert result.warnings == 0, result.messages
    assert sch.erc_errors() == 0


@pytest.mark.parametrize("sensors", ["hall", "analog"])
def test_other_sensor_builds_have_no_erc_errors(sensors):
    result = sch.erc(sch.build(sensors=sensors))
    assert (result.errors, result.warnings) == (0, 0), result.messages


def test_two_outputs_tied_together_fail():
    result = sch.erc(sch.build(broken="outputs_tied"))
    assert result.errors >= 1
    assert any("OUTPUT connected to OUTPUT" in m for m in result.messages), result.messages
    assert sch.erc_errors(sch.build(broken="outputs_tied")) >= 1


@pytest.mark.parametrize("broken,words", [
    ("unpowered", "Unconnected pin: POWER-IN pin 16/VCC of 74HC165"),
    ("unpowered_net", "Nothing supplies net VCC_CHIP3"),
])
def test_chip_without_power_fails(broken, words):
    result = sch.erc(sch.build(broken=broken))
    assert result.errors >= 1
    assert any(words in m and m.startswith("ERROR") for m in result.messages), result.messages


def test_every_pin_has_a_real_type(reed_board):
    for part in reed_board.parts:
        for pin in part.pins:
            assert pin.func != sch.T.UNSPEC, (part.ref, pin.name)


def test_netlist_follows_the_hardware_tables(reed_board):
    cfg = csvcheck.load()
    pico_pin = sch.PICO_GPIO_PINS
    assert ("A1", str(pico_pin[cfg.pin("SR_DATA")])) in _net_nodes(reed_board, "SR_DATA")
    assert ("A1", str(pico_pin[cfg.pin("LED_DATA")])) in _net_nodes(reed_board, "LED_DATA_3V3")
    assert ("U1", "9") in _net_nodes(reed_board, "SR_DATA")          # QH of chip 0
    # Each sensor net joins its reed, its pull-up and the table's 74HC165 input.
    for p in cfg.positions:
        chip, bit = p.sr
        nodes = _net_nodes(reed_board, "SNS_" + p.name)
        input_pin = {0: "11", 1: "12", 2: "13", 3: "14", 4: "3", 5: "4", 6: "5", 7: "6"}[bit]
        assert ("U%d" % (chip + 1), input_pin) in nodes
        assert ("SW%d" % (p.index + 1), "1") in nodes
        assert ("RN%d" % (chip + 1), str(bit + 2)) in nodes
    # The LED chain: 80 LEDs, DOUT of LED i feeds DIN of LED i + 1.
    leds = [q for q in reed_board.parts if q.name == "WS2812B"]
    assert len(leds) == 80
    for i in range(1, 80):
        assert ("LED%d" % i, "2") in _net_nodes(reed_board, "LED_DIN%d" % i)
        assert ("LED%d" % (i + 1), "4") in _net_nodes(reed_board, "LED_DIN%d" % i)


def test_netlist_file_is_written(tmp_path, reed_board):
    path = sch.write_netlist(reed_board, str(tmp_path / "build" / "samsara.net"))
    with open(path, encoding="utf-8") as f:
        text = f.read()
    assert '(part "74HC165")' in text and '(ref "LED80")' in text


def test_analog_build_wires_sensors_to_the_table_channels():
    cfg = csvcheck.load()
    board = sch.build(sensors="analog")
    for p in cfg.positions:
        mux, chan = p.mux
        nodes = _net_nodes(board, "SNS_" + p.name)
        assert ("U%d" % (11 + mux), str(wiring.HC4067_CHANNEL_PINS[chan])) in nodes
        assert ("U%d" % (101 + p.index), "2") in nodes       # DRV5053 OUT
    assert ("A1", str(sch.PICO_GPIO_PINS[cfg.pin("MUX_ADC")])) in _net_nodes(board, "MUX_COM")
