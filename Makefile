# Two commands matter: `make run` and `make test`. Both install into .venv first.
VENV := .venv
BIN := $(VENV)/bin

# Two kinds of install. On the table's Raspberry Pi (aarch64 with Debian's python3-pygame,
# deploy/INSTALL.md) the virtual environment is built over the system's packages so that
# the kiosk draws with Debian's pygame and SDL, which has the KMSDRM video driver that
# pip's wheel lacks, and only the kiosk goes in. Anywhere else pip's pygame and the
# developers' tools are installed. `make install TARGET=table` or `TARGET=dev` forces one.
TARGET ?= $(shell [ "$$(uname -m)" = aarch64 ] && dpkg -s python3-pygame >/dev/null 2>&1 && echo table || echo dev)
ifeq ($(TARGET),table)
PYTHON ?= /usr/bin/python3
VENV_FLAGS := --system-site-packages
EXTRAS :=
else
PYTHON ?= python3
VENV_FLAGS :=
EXTRAS := [test]
endif

.PHONY: run test test-deps test-py313 print-py313 install bench lint clean

# Real MicroPython for the firmware's tests and `--firmware micropython`: the WebAssembly
# port from npm, run by Node.js, in a project-local .node/ (without node the tests skip).
MPY_PACKAGE := @micropython/micropython-webassembly-pyscript@1.27.0
MPY := .node/node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs

$(MPY):
	@if command -v node >/dev/null 2>&1; then \
		npm install --prefix .node --no-save --no-audit --no-fund --loglevel=error $(MPY_PACKAGE); \
	else \
		echo "Node.js not found: the firmware's MicroPython tests will be skipped"; \
	fi

# The firmware on an emulated RP2040 (kiosk/simtable/rp2040.py, tests/simtable/test_rp2040_table.py):
# the emulator from npm in a project-local .node-rp2040/, and MicroPython's rp2 image built
# from Debian 13's packaged sources, cached machine-wide (firmware/chip/build-image.sh, as
# root; about 15 minutes the first time). Without root or node, or if the build fails, those
# tests skip and say why.
RP2040JS := .node-rp2040/node_modules/rp2040js/package.json
RP2_IMAGE := $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/backgammon-table/rp2-pico-1.25.0/.done

$(RP2040JS):
	@if command -v node >/dev/null 2>&1; then \
		npm install --prefix .node-rp2040 --no-save --no-audit --no-fund --loglevel=error rp2040js@1.4.1; \
	else \
		echo "Node.js not found: the emulated RP2040's tests will be skipped"; \
	fi

$(RP2_IMAGE): firmware/chip/build-image.sh $(BIN)/.installed
	@if [ "$$(id -u)" = 0 ]; then \
		PYTHON=$(BIN)/python nice -n 10 bash firmware/chip/build-image.sh \
			|| echo "MicroPython's rp2 image did not build: the emulated RP2040's tests will be skipped"; \
	else \
		echo "not root: MicroPython's rp2 image is not built, the emulated RP2040's tests will be skipped"; \
	fi

# The arm64 packages the table's Pi installs for its screen (and pip's aarch64 pygame wheel),
# kept for tests/hardware/test_display_stack.py, which reads them and fetches nothing.
SDL_CACHE := .cache/arm64-display/.done

$(SDL_CACHE): deploy/fetch-arm64-packages.sh $(BIN)/.installed
	PYTHON=$(BIN)/python bash deploy/fetch-arm64-packages.sh $(dir $@)
	touch $@

$(BIN)/.installed: pyproject.toml
	@echo "make install: the $(if $(filter table,$(TARGET)),table's install (Debian's pygame, the kiosk alone),developers' install (pip's pygame, the test tools))"
	$(PYTHON) -m venv $(VENV_FLAGS) $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.$(EXTRAS)'
	touch $@

install: $(BIN)/.installed

# What only the tests need (a developer's machine): real MicroPython, the arm64 display
# packages, the RP2040 emulator and its firmware image; `make run` does not wait for them.
ifeq ($(TARGET),table)
test-deps: install
else
test-deps: install $(MPY) $(SDL_CACHE) $(RP2040JS) $(RP2_IMAGE)
endif

run: install
	$(BIN)/kiosk run

test: test-deps
	@[ -x /usr/bin/chromium ] || echo "Debian's chromium is not installed: the companion's browser tests will be skipped (sudo apt-get install chromium)"
	$(BIN)/python -m ruff check kiosk firmware tests benchmarks hardware
	$(BIN)/python -m mypy --strict
	$(BIN)/python -m pytest -q

# A second interpreter: the suite again on Python 3.13, the Python of Raspberry Pi OS trixie
# (make test runs the first, 3.11, bookworm's), in its own .venv313 with the test tools.
# PY313 is the first python3.13 that runs, on the PATH (a pyenv shim may not) or pyenv's; `make test-py313 PY313=...`
# names another. .ci/run takes Debian 13's own in a trixie root where neither exists.
# The linters ran in make test; only the suite runs here (TESTS=... a part of it), after
# make test, whose .cache (the arm64 display packages) it reads.
PY313 ?= $(shell for p in $$(command -v python3.13) $${PYENV_ROOT:-$$HOME/.pyenv}/versions/3.13*/bin/python3.13; do \
	"$$p" -c 'import sys; assert sys.version_info[:2] == (3, 13)' 2>/dev/null && { echo "$$p"; break; }; done)
VENV313 ?= .venv313

$(VENV313)/bin/.installed: pyproject.toml
	@[ -n "$(PY313)" ] || { echo "make test-py313: no Python 3.13 here (python3.13 on the PATH or pyenv's); name one: make test-py313 PY313=/path/to/python3.13"; exit 1; }
	$(PY313) -m venv $(VENV313)
	$(VENV313)/bin/python -m pip install --quiet --upgrade pip
	$(VENV313)/bin/python -m pip install --quiet -e '.[test]'
	touch $@

print-py313:
	@echo $(PY313)

test-py313: $(VENV313)/bin/.installed $(MPY)
	@$(VENV313)/bin/python --version
	$(VENV313)/bin/python -m pytest -q -p no:cacheprovider $(TESTS)

# `make bench QUICK=1`: every benchmark's short form (the figures of a few seconds each, as
# tests/test_benchmarks.py runs them in `make test`), to see that they all still run.
bench: install
	for b in benchmarks/bench_*.py; do echo "== $$b"; $(BIN)/python $$b $(if $(QUICK),--quick) || exit 1; done

clean:
	rm -rf $(VENV) $(VENV313) .node .node-rp2040 .cache .pytest_cache .hypothesis
