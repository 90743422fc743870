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

.PHONY: run test install bench lint clean

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

ifeq ($(TARGET),table)
install: $(BIN)/.installed
else
install: $(BIN)/.installed $(MPY) $(SDL_CACHE)
	@[ -x /usr/bin/chromium ] || echo "Debian's chromium is not installed: the companion's browser tests will be skipped (sudo apt-get install chromium)"
endif

run: install
	$(BIN)/kiosk run

test: install
	$(BIN)/python -m ruff check kiosk firmware tests benchmarks hardware
	$(BIN)/python -m mypy --strict
	$(BIN)/python -m pytest -q

# `make bench QUICK=1`: every benchmark's short form (the figures of a few seconds each, as
# tests/test_benchmarks.py runs them in `make test`), to see that they all still run.
bench: install
	for b in benchmarks/bench_*.py; do echo "== $$b"; $(BIN)/python $$b $(if $(QUICK),--quick) || exit 1; done

clean:
	rm -rf $(VENV) .node .cache .pytest_cache .hypothesis
