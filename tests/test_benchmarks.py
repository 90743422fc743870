"""Every benchmark still runs: its quick form (``--quick``, as ``make bench QUICK=1`` runs it)
in a process of its own, its last line one JSON object with the figures it promises.

The figures are not judged here (timings belong to the benchmarks, not to the tests): only
that each benchmark runs to its end and reports what its docstring says it reports."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = ROOT / "benchmarks"
CHROMIUM = "/usr/bin/chromium"

# Each benchmark and figures its last line must carry.
FIGURES: dict[str, set[str]] = {
    "bench_app.py": {"fps", "loop_p99_ms", "idle_cpu_pct", "think_frame_p99_ms", "first_frame_s",
                     "rss_mb", "rss_coached_mb", "rss_peak_mb"},
    "bench_coach.py": {"positions", "agreement", "ms_per_rating", "cube_agreement_money",
                       "cube_agreement_match", "ms_per_cube_decision", "errors_without_reason"},
    "bench_companion.py": {"projector_latency_p50_ms", "projector_latency_p99_ms",
                           "frame_p99_ms", "frame_p99_ms_alone", "votes", "rss_growth_mb"},
    "bench_display.py": {"frame_p50_ms", "frame_p99_ms", "frame_max_ms", "frames", "rss_mb",
                         "rss_peak_mb"},
    "bench_link.py": {"frames_per_s", "lost", "latency_p50_ms", "latency_p99_ms",
                      "flood_rss_growth_mb", "gap_recover_ms"},
    "bench_noise.py": {"games", "moves", "false_alarms", "missed_illegal", "dice_misread",
                       "misjudged_plays", "p99_verdict_ms"},
    "bench_opponent.py": {"positions", "reference", "levels"},
    "bench_referee.py": {"p50_ms", "p99_ms", "worst_ms", "prepare_p99_ms", "cases"},
    "bench_rules.py": {"plays_per_s", "median_ms", "worst_ms", "batch_plays_per_s",
                       "targets_met"},
    "bench_soak.py": {"rss_growth_mb", "loop_p99_ms", "db_bytes_per_game", "start_check_s",
                      "year_games"},
    "bench_store.py": {"record_p50_ms", "record_p99_ms", "load_game_ms", "export_ms",
                       "bytes_per_event", "replay_menu_ms", "progress_page_ms"},
    "bench_firmware_chip.py": {"declared_scan_hz", "scans_per_s", "late_share",
                               "reed_to_frame_ms", "frame_send_ms", "heap_free_min"},
    "bench_verdict.py": {"settle_ms", "accept_ms", "verdict_ms_p50_legal_occupancy",
                         "verdict_ms_p99_wrong_polarity"},
    "bench_hints.py": {"positions"},
    "bench_display_4k.py": {"draw_4k_p50_ms", "draw_4k_p99_ms", "pi_draw_4k_p50_ms",
                            "pi_draw_4k_p99_ms", "pi_factor", "whole_4k_p99_ms",
                            "scaled_1080_event_p99_ms", "pi_scaled_1080_event_p99_ms",
                            "render_default", "default_4k_p99_ms", "default_event_4k_p99_ms",
                            "pi_default_event_4k_p99_ms", "fits_60hz_on_pi"},
}  # fmt: skip


def test_every_benchmark_is_run_here() -> None:
    found = {path.name for path in BENCHMARKS.glob("bench_*.py")}
    assert found == set(FIGURES), "a benchmark without its quick run here (FIGURES)"


@pytest.fixture(scope="module")
def runs(request: pytest.FixtureRequest) -> Iterator[dict[str, subprocess.Popen[str]]]:
    """The quick forms of the benchmarks this session runs, all started at once: most of their
    time is the real time they measure (a table's seconds), not work, so together they take
    about as long as the longest."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    names = {
        item.callspec.params["name"]
        for item in request.session.items
        if getattr(item, "originalname", None) == "test_the_quick_form_runs_and_reports_its_figures"
        and hasattr(item, "callspec")
    }
    started = {
        name: subprocess.Popen(
            [sys.executable, str(BENCHMARKS / name), "--quick"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env=env,
        )
        for name in sorted(names)
        if name != "bench_companion.py" or os.access(CHROMIUM, os.X_OK)
    }
    yield started
    for child in started.values():
        if child.poll() is None:
            child.kill()
        child.communicate()


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_the_quick_form_runs_and_reports_its_figures(
    name: str, runs: dict[str, subprocess.Popen[str]]
) -> None:
    if name not in runs:
        pytest.skip("Debian's headless Chromium is not installed")
    out, err = runs[name].communicate(timeout=300)
    assert runs[name].returncode == 0, err[-2000:]
    figures = json.loads(out.strip().splitlines()[-1])
    assert isinstance(figures, dict)
    if "skipped" in figures:  # the emulated RP2040's image could not be built here
        pytest.skip(str(figures["skipped"]))
    assert FIGURES[name] <= figures.keys(), FIGURES[name] - figures.keys()
