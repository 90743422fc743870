# Two commands matter: `make run` and `make test`. Both install into .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

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

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

install: $(BIN)/.installed $(MPY)
	@[ -x /usr/bin/chromium ] || echo "Debian's chromium is not installed: the companion's browser tests will be skipped (sudo apt-get install chromium)"

run: install
	$(BIN)/kiosk run

test: install
	$(BIN)/python -m ruff check kiosk firmware tests benchmarks
	$(BIN)/python -m pytest -q

bench: install
	for b in benchmarks/bench_*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) .node .pytest_cache .hypothesis
