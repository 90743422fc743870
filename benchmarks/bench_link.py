"""Benchmark the table link over a pty: sustained frame rate, losses and latency.

Runs the real firmware core in a simulated table and the real pyserial link, in one
process. Prints one line per measurement and, last, a JSON object with ``frames_per_s``
(the most frames per second the link sustained), ``lost`` (frames lost at the 200 frames/s
target rate), and ``latency_p50_ms``/``latency_p99_ms`` from a switch change in the virtual
matrix to the decoded frame, with a one-scan debounce (the debounce time itself excluded).

Run: .venv/bin/python benchmarks/bench_link.py [--flood-seconds S] [--quick]
(``--quick``: a second of each measurement, to show that it still runs.)
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import random
import statistics
import threading
import time

from kiosk.link import QueueListener, TableLink
from kiosk.simtable import SimulatedTable

TARGET_RATE = 200
TARGET_SECONDS = 5.0
BURST_SECONDS = 3.0
LATENCY_SAMPLES = 400
WAIT = 10.0
FLOOD_SECONDS = 10.0
FLOOD_WARMUP_SECONDS = 2.0
GAP_SAMPLES = 12


def _connect(sim: SimulatedTable) -> tuple[TableLink, QueueListener]:
    listener = QueueListener(max_frames=1_000_000)
    link = TableLink(sim.port_name, layout=sim.layout, listener=listener, silence_timeout=None)
    link.start()
    if not link.wait_connected(WAIT):
        raise SystemExit("the link did not connect to the simulated table")
    return link, listener


def _drain(listener: QueueListener, quiet: float = 0.5) -> int:
    count = 0
    while True:
        try:
            listener.frames.get(timeout=quiet)
            count += 1
        except queue.Empty:
            return count


def _toggle(sim: SimulatedTable, on: bool) -> None:
    if on:
        sim.place("13", "white")
    else:
        sim.lift("13")


def paced(rate: int, seconds: float) -> dict[str, float]:
    """A frame every scan for ``seconds``, paced at ``rate`` frames per second."""
    with SimulatedTable(debounce_scans=1, scan_hz=rate) as sim:
        link, listener = _connect(sim)
        sim.advance(10)
        _drain(listener)
        before = link.counters()
        sent = int(rate * seconds)
        period = 1.0 / rate
        start = time.monotonic()
        for n in range(sent):
            _toggle(sim, n % 2 == 0)
            sim.advance(1000 / rate)
            delay = start + (n + 1) * period - time.monotonic()
            if delay > 0:
                time.sleep(delay)
        received = _drain(listener)
        after = link.counters()
        link.stop()
    return {
        "sent": sent,
        "received": received,
        "lost": sent - received,
        "seq_gaps": after.lost - before.lost,
        "corrupt": after.corrupt - before.corrupt,
    }


def burst(seconds: float) -> dict[str, float]:
    """Frames as fast as the stepped table can make them; the rate the link sustains."""
    with SimulatedTable(debounce_scans=1) as sim:
        link, listener = _connect(sim)
        sim.advance(10)
        _drain(listener)
        before = link.counters()
        sent = 0
        start = time.monotonic()
        while time.monotonic() - start < seconds:
            _toggle(sim, sent % 2 == 0)
            sim.advance(5)
            sent += 1
        received = 0
        last = start
        while received < sent:
            try:
                frame = listener.frames.get(timeout=2.0)
            except queue.Empty:
                break
            received += 1
            last = frame.received
        after = link.counters()
        link.stop()
    return {
        "sent": sent,
        "received": received,
        "frames_per_s": received / (last - start),
        "lost": sent - received,
        "corrupt": after.corrupt - before.corrupt,
    }


def latency(samples: int) -> list[float]:
    """Milliseconds from a switch change to the decoded frame, table scanning in real time."""
    rng = random.Random(1)
    results = []
    with SimulatedTable(realtime=True, debounce_scans=1) as sim:
        link, listener = _connect(sim)
        time.sleep(0.1)
        _drain(listener, quiet=0.2)
        for n in range(samples):
            time.sleep(rng.uniform(0.0, 0.01))
            changed = time.monotonic()
            _toggle(sim, n % 2 == 0)
            while True:
                frame = listener.frames.get(timeout=WAIT)
                if frame.counts()["13"][1] == (1 if n % 2 == 0 else 0):
                    break
            results.append((frame.received - changed) * 1000)
        link.stop()
    return results


def _rss_mb() -> float:
    with open(f"/proc/{os.getpid()}/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 1e6


def flood(seconds: float) -> dict[str, float]:
    """Resident memory growth while the table sends error messages as fast as it can."""
    with SimulatedTable(realtime=True) as sim:
        link, listener = _connect(sim)
        stop = threading.Event()

        def flooding() -> None:
            while not stop.is_set():
                sim.flood_errors(100)
                sim.flush(1.0)

        thread = threading.Thread(target=flooding, daemon=True)
        thread.start()
        time.sleep(FLOOD_WARMUP_SECONDS)
        start = _rss_mb()
        peak = start
        end_at = time.monotonic() + seconds
        while time.monotonic() < end_at:
            time.sleep(0.5)
            peak = max(peak, _rss_mb())
        stop.set()
        thread.join()
        counters = link.counters()
        events = listener.events.qsize()
        link.stop()
    return {
        "growth": peak - start,
        "start": start,
        "errors": counters.table_errors,
        "queued_events": events,
    }


def gap_recovery(samples: int) -> list[float]:
    """Milliseconds from a change whose frame is lost to the decoded frame showing it."""
    rng = random.Random(2)
    results = []
    with SimulatedTable(realtime=True) as sim:
        link, listener = _connect(sim)
        time.sleep(0.1)
        _drain(listener, quiet=0.2)
        for n in range(samples):
            time.sleep(rng.uniform(0.0, 0.5))
            sim.corrupt_next(1, "lose")
            changed = time.monotonic()
            _toggle(sim, n % 2 == 0)
            while True:
                frame = listener.frames.get(timeout=WAIT)
                if frame.counts()["13"][1] == (1 if n % 2 == 0 else 0):
                    break
            results.append((frame.received - changed) * 1000)
        resyncs = link.counters().resyncs
        link.stop()
    if resyncs < samples:
        raise SystemExit(f"only {resyncs} dumps asked for after {samples} gaps")
    return results


def main() -> None:
    """Run the measurements and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--flood-seconds", type=float, default=FLOOD_SECONDS)
    parser.add_argument("--quick", action="store_true", help="a short run (make bench QUICK=1)")
    args = parser.parse_args()
    global TARGET_SECONDS, BURST_SECONDS, LATENCY_SAMPLES, GAP_SAMPLES, FLOOD_WARMUP_SECONDS
    if args.quick:
        TARGET_SECONDS, BURST_SECONDS, LATENCY_SAMPLES, GAP_SAMPLES = 1.0, 1.0, 60, 3
        FLOOD_WARMUP_SECONDS, args.flood_seconds = 0.5, min(args.flood_seconds, 1.0)
    target = paced(TARGET_RATE, TARGET_SECONDS)
    print(
        f"paced {TARGET_RATE} frames/s for {TARGET_SECONDS:.0f} s: sent {target['sent']}, "
        f"received {target['received']}, lost {target['lost']}, corrupt {target['corrupt']}"
    )
    fastest = burst(BURST_SECONDS)
    print(
        f"unpaced: {fastest['frames_per_s']:.0f} frames/s sustained "
        f"({fastest['received']}/{fastest['sent']} frames, {fastest['corrupt']} corrupt)"
    )
    delays = sorted(latency(LATENCY_SAMPLES))
    p50 = statistics.median(delays)
    p99 = delays[int(0.99 * (len(delays) - 1))]
    print(
        f"switch change -> decoded frame, 200 Hz scan, one-scan debounce: "
        f"p50 {p50:.2f} ms, p99 {p99:.2f} ms, max {delays[-1]:.2f} ms ({len(delays)} samples)"
    )
    flooded = flood(args.flood_seconds)
    print(
        f"flood of error messages for {args.flood_seconds:.0f} s: {flooded['errors']} received, "
        f"resident memory {flooded['start']:.1f} MB grew {flooded['growth']:.2f} MB, "
        f"{flooded['queued_events']} events queued (bounded)"
    )
    gaps = sorted(gap_recovery(GAP_SAMPLES))
    gap_p50 = statistics.median(gaps)
    print(
        f"lost frame -> dump asked -> right board: median {gap_p50:.0f} ms, "
        f"max {gaps[-1]:.0f} ms ({len(gaps)} samples; heartbeats every 500 ms reveal the gap)"
    )
    print(
        json.dumps(
            {
                "frames_per_s": round(fastest["frames_per_s"], 1),
                "lost": target["lost"],
                "latency_p50_ms": round(p50, 3),
                "latency_p99_ms": round(p99, 3),
                "target_frames_per_s": TARGET_RATE,
                "target_sent": target["sent"],
                "target_received": target["received"],
                "corrupt": target["corrupt"] + fastest["corrupt"],
                "burst_lost": fastest["lost"],
                "latency_samples": len(delays),
                "flood_rss_growth_mb": round(flooded["growth"], 2),
                "flood_seconds": args.flood_seconds,
                "flood_errors": flooded["errors"],
                "gap_recover_ms": round(gap_p50, 1),
                "gap_recover_max_ms": round(gaps[-1], 1),
            }
        )
    )


if __name__ == "__main__":
    main()
