"""Runs inside MicroPython (see host.mjs): the firmware core behind a line protocol.

Requests, one per line; answers are one line (bytes the firmware wrote are hex):

``runtime``                       the interpreter's name and version
``firmware JSON``                 a fresh ``TableFirmware``: ``{"layout": [p, b, t], "sensing": s,
                                  "rows": n, "columns": n, "now": ms, "options": {...}}``
``start`` / ``feed HEX``          start it / hand it host bytes; answers what it wrote
``step MS ROWS LINES WELLS``      one scan at time MS with the matrix rows (hex words
                                  joined by ``,``, or ``-`` for unchanged), the idle
                                  columns and the wells' cell masks; answers output
``stats``                         its counters as JSON
``add NAME N``                    add N to a counter (``overruns``)
``list MODULE``                   the names of MODULE's ``case_*`` functions (JSON)
``case MODULE NAME``              run one: JSON null, or the error; a case after which the
                                  heap had to grow past the size the interpreter was given
                                  (a Pico's) fails
"""

import binascii
import gc
import io
import json
import sys

from bgtable.core import TableFirmware
from bgtable.layout import Layout

_state = {}  # type: dict
_COUNTERS = ("scans", "bounces", "faults", "overruns", "rx_errors", "tx_bytes", "tx_dropped")


class _Matrix:
    def __init__(self, rows, columns):
        self.rows = rows
        self.columns = columns
        self.state = [0] * rows
        self.lines = 0
        self.cells = [0, 0]

    def scan(self):
        return self.state

    def idle(self):
        return self.lines

    def wells(self):
        return self.cells


class _Clock:
    def __init__(self, now):
        self.now = now

    def ticks_ms(self):
        return self.now

    def ticks_diff(self, a, b):
        return a - b


_out = bytearray()


def _write(data):
    _out.extend(data)
    return True


def _take():
    text = binascii.hexlify(_out).decode()
    _out[:] = b""
    return text


def _runtime(rest):
    return json.dumps({"name": sys.implementation.name, "version": sys.implementation.version})


def _firmware(rest):
    spec = json.loads(rest)
    matrix = _Matrix(spec["rows"], spec["columns"])
    clock = _Clock(spec["now"])
    point, bar, tray = spec["layout"]
    options = spec["options"]
    _take()
    _state["matrix"] = matrix
    _state["clock"] = clock
    _state["firmware"] = TableFirmware(
        matrix, clock, _write, layout=Layout(point, bar, tray, spec["sensing"]), **options
    )
    return "ok"


def _start(rest):
    _state["firmware"].start()
    return _take()


def _feed(rest):
    _state["firmware"].feed(binascii.unhexlify(rest))
    return _take()


def _step(rest):
    now, rows, lines, wells = rest.split(" ")
    matrix = _state["matrix"]
    _state["clock"].now = int(now)
    if rows != "-":
        matrix.state = [int(word, 16) for word in rows.split(",")]
    matrix.lines = int(lines, 16)
    matrix.cells = [int(word, 16) for word in wells.split(",")]
    _state["firmware"].step()
    return _take()


def _stats(rest):
    firmware = _state["firmware"]
    values = {}
    for name in _COUNTERS:
        values[name] = getattr(firmware, name)
    values["uptime_ms"] = firmware.uptime_ms
    return json.dumps(values)


def _add(rest):
    name, count = rest.split(" ")
    firmware = _state["firmware"]
    setattr(firmware, name, getattr(firmware, name) + int(count))
    return "ok"


def _heap():
    """The heap's size: in use plus free (the port adds to it when it runs out)."""
    gc.collect()
    return gc.mem_free() + gc.mem_alloc()


def _list(rest):
    module = __import__(rest)
    return json.dumps(sorted([name for name in dir(module) if name.startswith("case_")]))


def _case(rest):
    name, case = rest.split(" ")
    module = __import__(name)
    before = _heap()
    try:
        getattr(module, case)()
    except Exception as exc:  # noqa: BLE001 - every failure is reported, by name
        trace = io.StringIO()
        sys.print_exception(exc, trace)
        return json.dumps(trace.getvalue())
    grown = _heap() - before
    if grown > 0:
        return json.dumps(
            f"MemoryError: the heap had to grow by {grown} bytes past the Pico-sized heap it was "
            "given"
        )
    return json.dumps(None)


_VERBS = {
    "runtime": _runtime,
    "firmware": _firmware,
    "start": _start,
    "feed": _feed,
    "step": _step,
    "stats": _stats,
    "add": _add,
    "list": _list,
    "case": _case,
}


def serve(line):
    """The answer to one request line."""
    verb, _, rest = line.strip().partition(" ")
    return _VERBS[verb](rest)
