"""The firmware on the chip: scan rate, late scans, reed-to-frame latency and heap, in the
RP2040's own (emulated) time.

Boots MicroPython's rp2 image (``firmware/chip/build-image.sh``) in ``rp2040js`` with the
firmware on its LittleFS and the board's parts modelled (``kiosk/simtable/rp2040.py``),
then measures, each at idle, with every slot closed (and a die in each well) and while
frames stream (one reed changing every ``STREAM_MS``): scans a second and the share of
late scans (the heartbeat's ``scans``/``overrun`` over ``WINDOW_MS``), how long a reed
takes to show in a frame, how long a frame takes to leave, and the least free heap. A last
case stalls the host (it stops reading) while frames stream. Prints one line a case, then
one JSON object.

    python benchmarks/bench_firmware_chip.py [--window-ms 2000]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kiosk.link.frames import decode_heartbeat  # noqa: E402
from kiosk.link.protocol import FrameParser, Message, fields  # noqa: E402
from kiosk.simtable.firmware import load_firmware  # noqa: E402
from kiosk.simtable.rp2040 import Chip, unavailable  # noqa: E402

STEP_US = 500  # the host looks at its port this often (chip time)
WINDOW_MS = 2000
STREAM_MS = 24  # a reed changes this often while frames stream
TRIALS = 5
HEAP_S = 10  # the long run for the heap


def counters(message: Message) -> dict[str, int]:
    """A heartbeat's counters, with its uptime as ``up``."""
    beat = decode_heartbeat(message.seq, message.payload)
    return {"up": beat.uptime_ms, **beat.counters}


def rates(first: dict[str, int], last: dict[str, int]) -> dict[str, float]:
    """Scans a second and the share that started late between two heartbeats."""
    scans = last["scans"] - first["scans"]
    return {
        "scans_per_s": round(scans * 1000 / max(1, last["up"] - first["up"]), 1),
        "late_share": round((last["overrun"] - first["overrun"]) / max(1, scans), 4),
        "txdrop": last["txdrop"] - first["txdrop"],
        "stall": last["stall"] - first["stall"],
    }


class Board:
    """The emulated chip and what its port said, message by message, with arrival times."""

    def __init__(self) -> None:
        self.chip = Chip()
        self.parser = FrameParser()
        self.layout = load_firmware("layout").Layout()
        self.dice = load_firmware("dice")
        self.messages: list[tuple[int, Message]] = []
        self.frame_send_us: list[int] = []
        self._start_us: int | None = None
        self.closed: set[int] = set()

    def step(self, us: int = STEP_US) -> list[Message]:
        """Run the chip ``us``; the messages that arrived complete."""
        ran = self.chip.run(us)
        data = ran.out
        if self._start_us is None and b"$F" in data:
            self._start_us = ran.t_us - us  # the frame's first byte came in this step
        messages = self.parser.feed(data)
        for message in messages:
            self.messages.append((ran.t_us, message))
            if message.kind == "F" and self._start_us is not None:
                self.frame_send_us.append(ran.t_us - self._start_us)
                self._start_us = None
        if self._start_us is None and data.rfind(b"$F") > data.rfind(b"\n"):
            self._start_us = ran.t_us - us
        return messages

    def run_ms(self, ms: float, each: Callable[[int], None] | None = None) -> None:
        """Run ``ms`` of chip time in host steps (``each(step)`` before each)."""
        for n in range(int(ms * 1000 / STEP_US)):
            if each:
                each(n)
            self.step()

    def set_closed(self, closed: set[int]) -> None:
        """Close exactly these reeds."""
        self.closed = set(closed)
        self.chip.set_closed(self.closed)

    def wait(self, kind: str, test: Callable[[Message], bool], limit_ms: int = 2000) -> int:
        """Step until a ``kind`` message passing ``test`` arrives; its arrival time."""
        for _ in range(int(limit_ms * 1000 / STEP_US)):
            for message in self.step():
                if message.kind == kind and test(message):
                    return self.chip.t_us
        raise RuntimeError(f"no {kind} message within {limit_ms} ms")

    def heartbeat(self) -> dict[str, int]:
        """Ask for a heartbeat (it says the free heap, and costs the loop ~9 ms); its counters."""
        self.chip.send(b"$h0000 *981F\r\n")
        self.wait("H", lambda m: "free=" in m.payload)
        return counters([m for _, m in self.messages if m.kind == "H"][-1])

    def beats(self) -> list[dict[str, int]]:
        """The counters of the heartbeats received so far (the periodic ones: every 500 ms)."""
        return [counters(m) for _, m in self.messages if m.kind == "H"]

    def slot_char(self, message: Message, switch: int) -> str:
        """The character a frame gives the slot of ``switch`` (occupancy: switch = slot)."""
        groups = message.payload.split(" ")
        index = switch
        for group in groups:
            if index < len(group):
                return group[index]
            index -= len(group)
        raise ValueError(f"no slot {switch} in the frame")

    def reed_latency(self, switch: int, close: bool) -> float:
        """Close (or open) one reed; ms until a frame shows it."""
        closed = set(self.closed)
        if close:
            closed.add(switch)
        else:
            closed.discard(switch)
        self.set_closed(closed)
        start = self.chip.t_us
        want = "O" if close else "."
        arrived = self.wait("F", lambda m: self.slot_char(m, switch) == want)
        return (arrived - start) / 1000


def case(board: Board, name: str, window_ms: int, stream: bool) -> dict[str, float]:
    """Measure one case on a board already set up for it."""
    board.run_ms(200)  # settle
    board.messages.clear()
    board.frame_send_us.clear()
    toggled = 0  # the switch that streams: point 1's outermost slot

    def toggle(n: int) -> None:
        if stream and n % (STREAM_MS * 1000 // STEP_US) == 0:
            board.set_closed(set(board.closed) ^ {toggled})

    board.run_ms(window_ms, toggle)
    beats = board.beats()  # the periodic heartbeats bound the window: asking costs a scan
    if len(beats) < 2:
        raise RuntimeError(f"{len(beats)} heartbeats in {window_ms} ms")
    result = rates(beats[0], beats[-1])
    result["frames_per_s"] = round(len(board.frame_send_us) * 1000 / window_ms, 1)
    result["frame_send_ms"] = round(max(board.frame_send_us, default=0) / 1000, 1)
    result["heap_free"] = board.heartbeat()["free"]
    latencies = []
    for trial in range(TRIALS):
        switch = board.layout.first[trial + 3] + 1  # slot 2 of points 4..8
        latencies.append(board.reed_latency(switch, switch not in board.closed))
        board.run_ms(7 + 3 * trial)  # a different phase of the scan each trial
    result["reed_to_frame_ms"] = round(max(latencies), 1)
    result["reed_to_frame_ms_mean"] = round(statistics.mean(latencies), 1)
    print(name, json.dumps(result), flush=True)
    return result


def streaming(board: Board, ms: float) -> None:
    """Run ``ms`` with one reed changing every ``STREAM_MS``."""

    def toggle(n: int) -> None:
        if n % (STREAM_MS * 1000 // STEP_US) == 0:
            board.set_closed(set(board.closed) ^ {0})

    board.run_ms(ms, toggle)


def stalled(board: Board, window_ms: int) -> dict[str, float]:
    """The host stops reading while frames stream: the scan must keep its rate."""
    board.run_ms(600)
    first = board.beats()[-1]
    board.chip.stall(True)
    streaming(board, window_ms)
    board.chip.stall(False)
    board.messages.clear()
    board.run_ms(600)  # the heartbeats queued meanwhile, then a fresh one
    result = rates(first, board.beats()[-1])
    print("stalled_host", json.dumps(result), flush=True)
    return result


def heap(board: Board, seconds: int) -> dict[str, object]:
    """Free heap, asked every second, over a long run of streaming frames."""
    frees = []
    for _ in range(seconds):
        streaming(board, 1000)
        frees.append(board.heartbeat()["free"])
    half = len(frees) // 2
    result: dict[str, object] = {
        "samples": frees,
        "min": min(frees),
        "min_first_half": min(frees[:half]),
        "min_second_half": min(frees[half:]),
    }
    print("heap", json.dumps(result), flush=True)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--window-ms", type=int, default=WINDOW_MS)
    parser.add_argument("--heap-s", type=int, default=HEAP_S)
    parser.add_argument("--quick", action="store_true", help="a short run (make bench QUICK=1)")
    args = parser.parse_args()
    if args.quick:
        args.window_ms, args.heap_s = min(args.window_ms, 1500), min(args.heap_s, 2)
    reason = unavailable()
    if reason:
        print(json.dumps({"skipped": reason}))
        return
    wall = time.monotonic()
    board = Board()
    try:
        identify = board.wait("I", lambda m: True, limit_ms=5000)
        declared = int(fields(next(m for _, m in board.messages if m.kind == "I").payload)["scan"])
        print(f"booted in {identify / 1000:.0f} ms of chip time; declares scan={declared}")
        cases = {"idle": case(board, "idle", args.window_ms, stream=False)}
        every = set(range(board.layout.switches))
        board.set_closed(every)
        five, two = board.dice.cells(2, 1), board.dice.cells(5, 3)  # a 5-2 in the wells
        board.chip.set_wells([five, two])
        cases["all_closed"] = case(board, "all_closed", args.window_ms, stream=False)
        board.set_closed(set())
        board.chip.set_wells([0, 0])
        cases["streaming"] = case(board, "streaming", args.window_ms, stream=True)
        stall = stalled(board, args.window_ms)
        long_run = heap(board, args.heap_s)
    finally:
        board.chip.close()
    summary: dict[str, object] = {"declared_scan_hz": declared}
    for metric in ("scans_per_s", "late_share", "reed_to_frame_ms", "frame_send_ms"):
        summary[metric] = {name: values[metric] for name, values in cases.items()}
    frees: dict[str, object] = {name: values["heap_free"] for name, values in cases.items()}
    summary["heap_free_min"] = {**frees, "long_run": long_run["min"]}
    summary["heap_long_run"] = long_run
    summary["frames_per_s"] = {name: values["frames_per_s"] for name, values in cases.items()}
    summary["stalled_host"] = stall
    summary["chip_s"] = round(board.chip.t_us / 1e6, 2)
    summary["wall_s"] = round(time.monotonic() - wall, 1)
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
