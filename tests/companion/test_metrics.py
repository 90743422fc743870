"""The health page and ``/metrics``: the metrics read back by the Prometheus client's own
parser and agreeing with the table (and scraped by Debian's Prometheus where it is
installed); the health page in words."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.companion.live import Http


def metrics(url: str) -> dict[str, float]:
    status, headers, text = Http(url).get("/metrics")
    assert status == 200 and headers["Content-Type"].startswith("text/plain")
    values = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            key = sample.name
            if sample.labels:
                key += "{" + ",".join(f"{k}={v}" for k, v in sorted(sample.labels.items())) + "}"
            values[key] = sample.value
    return values


def test_the_metrics_parse_and_agree_with_the_table(live) -> None:
    table = live()
    end = time.monotonic() + 20  # the companion has read the lessons and the first board
    while table.server.room.last_board is None and time.monotonic() < end:
        time.sleep(0.05)
    seen = metrics(table.url)
    assert seen["backgammon_table_up"] == 1
    assert seen["backgammon_table_link_connected"] == 1
    counters = table.do(lambda h: h.app.link.counters())
    assert seen["backgammon_table_link_connects_total"] == counters.connects == 1
    assert 1 <= seen["backgammon_table_link_frames_total"] <= counters.frames
    assert seen["backgammon_table_link_corrupt_total"] == 0
    info = table.do(lambda h: h.app.link.info)
    firmware = next(k for k in seen if k.startswith("backgammon_table_firmware_info{"))
    # the table as designed: one reed a slot, the men's colours known from the game
    assert f"version={info.firmware}" in firmware and "sensing=occupancy" in firmware
    assert info.layout.sensing == "occupancy"
    assert seen["backgammon_table_games_today"] == 1  # the game the table started
    assert seen["backgammon_table_database_ok"] == 1
    assert seen["backgammon_table_database_bytes"] >= table.store.path.stat().st_size
    assert seen["backgammon_table_disk_free_bytes"] > 0
    assert 0 <= seen["backgammon_table_last_frame_age_seconds"] < 60
    assert seen["backgammon_table_commissioning_bad_slots"] == 0
    assert seen["backgammon_table_uptime_seconds"] > 0

    # the table is unplugged: the metrics say so, and count it
    table.do(lambda h: (h.sim.unplug(), h.wait(3000)))
    seen = metrics(table.url)
    assert seen["backgammon_table_link_connected"] == 0
    assert seen["backgammon_table_link_disconnects_total"] >= 1

    # a lesson worked on today and a page open
    table.do(lambda h: h.sim.replug())
    table.wait_for(lambda h: h.app.link.connected, timeout=30)
    table.do(lambda h: h.app.start_lesson("openings"))
    seen = metrics(table.url)
    assert seen["backgammon_table_lessons_today"] == 1
    assert seen["backgammon_table_link_connects_total"] == 2


@pytest.mark.parametrize(
    ("sensing", "sensed_as"),
    [
        (None, "one reed a slot (counts only; the referee colours the men)"),  # as designed
        ("polarity", "reeds that see each man&#x27;s colour"),
    ],
)
def test_the_health_page_in_words(live, sensing: str | None, sensed_as: str) -> None:
    table = live(sensing=sensing)
    end = time.monotonic() + 20
    while table.server.room.last_board is None and time.monotonic() < end:
        time.sleep(0.05)
    status, _, text = Http(table.url).get("/health")
    assert status == 200
    for words in (
        "Table</th><td>✔ connected",
        "Firmware</th><td>✔ 1.",
        f"Sensing</th><td>✔ {sensed_as}",
        "Commissioning</th><td>✔ no slot left out",
        "Records</th><td>✔ saving games",
        "Today</th><td>✔ 1 games started, 0 lessons worked on",
        "Speech</th><td>✔ switched off",
        "Free disk",
        "Running for",
        "Last board frame",
    ):
        assert words in text, words
    assert '<meta http-equiv="refresh" content="30">' in text
    # /metrics labels the firmware with the same sensing
    firmware = next(k for k in metrics(table.url) if k.startswith("backgammon_table_firmware_info"))
    assert f"sensing={sensing or 'occupancy'}" in firmware


PROMETHEUS = shutil.which("prometheus") or "/usr/bin/prometheus"


@pytest.mark.skipif(
    not Path(PROMETHEUS).exists(), reason="Debian's prometheus is not installed (.ci/run does)"
)
def test_debians_prometheus_scrapes_the_table(live, tmp_path: Path) -> None:
    table = live()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = tmp_path / "prometheus.yml"
    config.write_text(
        "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
        "scrape_configs:\n  - job_name: table\n    static_configs:\n"
        f"      - targets: ['127.0.0.1:{table.server.port}']\n",
        encoding="utf-8",
    )
    server = subprocess.Popen(
        [
            PROMETHEUS,
            f"--config.file={config}",
            f"--storage.tsdb.path={tmp_path / 'data'}",
            f"--web.listen-address=127.0.0.1:{port}",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        query = urllib.parse.urlencode({"query": "backgammon_table_link_connected"})
        found = None
        end = time.monotonic() + 60
        while time.monotonic() < end and not found:
            time.sleep(1)
            try:
                with urllib.request.urlopen(
                    f"http://127.0.0.1:{port}/api/v1/query?{query}", timeout=5
                ) as answer:
                    found = json.loads(answer.read())["data"]["result"]
            except OSError:
                continue
        assert found, "Prometheus never scraped the table"
        assert found[0]["value"][1] == "1"
        assert found[0]["metric"]["instance"] == f"127.0.0.1:{table.server.port}"
    finally:
        server.terminate()
        server.wait(20)
