"""The health of one table, for whoever looks after it: as a page and as Prometheus metrics.

The facts come from the application (:meth:`kiosk.companion.control.TableControl.health`)
and from the companion itself (when the table last reported its board, the pages
connected). :func:`metrics_text` writes them in Prometheus's text format through the
Prometheus client library; :func:`rows` lays them out for the health page.

>>> facts = {"link": {"connected": True, "simulated": False}, "counters": {"frames": 12},
...          "uptime_s": 61.5, "companion": {"clients": {"projector": 1}}}
>>> text = metrics_text(facts)
>>> "backgammon_table_link_connected 1.0" in text, "backgammon_table_link_frames_total 12.0" in text
(True, True)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, InfoMetricFamily
from prometheus_client.registry import Collector

PREFIX = "backgammon_table"

#: The link's counters (kiosk.link.LinkCounters) and what each counts.
COUNTERS: dict[str, str] = {
    "messages": "messages read from the table",
    "frames": "board frames received",
    "corrupt": "frames that failed framing or checksum",
    "malformed": "frames with a good checksum but a payload that does not decode",
    "lost": "sequence numbers never received",
    "garbage_bytes": "bytes between frames that were not a frame",
    "connects": "times the table connected",
    "disconnects": "times the table was lost",
    "repeats": "messages repeated or out of order",
    "renumbered": "times the table restarted and its numbering was adopted",
    "resyncs": "full dumps asked for after a gap",
    "table_errors": "error messages the table sent",
    "frames_dropped": "frames beyond the firmware's rate, each replaced by a later one",
    "reports_dropped": "self-test reports and restarts beyond one a second",
}


class _Facts(Collector):
    def __init__(self, facts: Mapping[str, Any]) -> None:
        self.facts = facts

    def collect(self) -> Iterator[Any]:
        f = self.facts
        family: CounterMetricFamily | GaugeMetricFamily
        link = f.get("link", {})
        yield _gauge("up", "1 while the table application answers", 1)
        yield _gauge(
            "link_connected", "1 while a compatible table is connected", link.get("connected")
        )
        yield _gauge(
            "simulated", "1 when the table is the built-in simulation", link.get("simulated")
        )
        counters = f.get("counters", {})
        for name, words in COUNTERS.items():
            if name in counters:
                family = CounterMetricFamily(f"{PREFIX}_link_{name}", f"The link's {words}")
                family.add_metric([], float(counters[name]))
                yield family
        table = f.get("table_counters", {})
        if table:
            family = GaugeMetricFamily(
                f"{PREFIX}_firmware_errors",
                "The error counters of the table's latest heartbeat",
                labels=["kind"],
            )
            for kind, value in sorted(table.items()):
                family.add_metric([str(kind)], float(value))
            yield family
        firmware = f.get("firmware")
        if firmware:
            info = InfoMetricFamily(f"{PREFIX}_firmware", "The connected table's firmware")
            info.add_metric([], {k: str(v) for k, v in firmware.items()})
            yield info
        if f.get("last_frame_age_s") is not None:
            yield _gauge(
                "last_frame_age_seconds",
                "Seconds since the table last reported its board",
                f["last_frame_age_s"],
            )
        if "commissioning" in f:
            yield _gauge(
                "commissioning_bad_slots",
                "Slots kiosk commission found reading wrong (left out)",
                len(f["commissioning"]),
            )
        for key, words in (
            ("games_today", "Games started today"),
            ("lessons_today", "Lessons worked on today"),
        ):
            if f.get(key) is not None:
                yield _gauge(key, words, f[key])
        database = f.get("database", {})
        if database.get("bytes") is not None:
            yield _gauge("database_bytes", "Size of the records, in bytes", database["bytes"])
        yield _gauge("database_ok", "1 while games are being saved", database.get("ok"))
        if f.get("disk_free_bytes") is not None:
            yield _gauge(
                "disk_free_bytes", "Free space beside the records, in bytes", f["disk_free_bytes"]
            )
        speech = f.get("speech", {})
        if speech:
            yield _gauge("speech_ok", "1 while speech works (or is switched off)", speech.get("ok"))
        if f.get("uptime_s") is not None:
            yield _gauge(
                "uptime_seconds", "Seconds since the table application started", f["uptime_s"]
            )
        companion = f.get("companion", {})
        clients = companion.get("clients", {})
        family = GaugeMetricFamily(
            f"{PREFIX}_companion_clients", "Web pages connected to the companion", labels=["page"]
        )
        for page in ("projector", "teacher", "student"):
            family.add_metric([page], float(clients.get(page, 0)))
        yield family
        if "votes" in companion:
            family = CounterMetricFamily(f"{PREFIX}_companion_votes", "Votes cast by students")
            family.add_metric([], float(companion["votes"]))
            yield family
        if "connections" in companion:
            words = "Connections open to the companion"
            yield _gauge("companion_connections", words, companion["connections"])
        if "refused" in companion:
            family = CounterMetricFamily(
                f"{PREFIX}_companion_connections_refused",
                "Connections closed at once for the caps on connections (issue 36)",
            )
            family.add_metric([], float(companion["refused"]))
            yield family


def _gauge(name: str, words: str, value: object) -> GaugeMetricFamily:
    family = GaugeMetricFamily(f"{PREFIX}_{name}", words)
    family.add_metric([], float(value or 0))  # type: ignore[arg-type]
    return family


def metrics_text(facts: Mapping[str, Any]) -> str:
    """The facts in Prometheus's text exposition format."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(_Facts(facts))
    return generate_latest(registry).decode("utf-8")


def rows(facts: Mapping[str, Any]) -> list[tuple[str, str, bool]]:
    """The health page's lines: (what, how it stands, whether that is all right)."""
    out: list[tuple[str, str, bool]] = []
    link = facts.get("link", {})
    connected = bool(link.get("connected"))
    where = "the built-in simulation" if link.get("simulated") else link.get("port") or "the table"
    out.append(
        ("Table", f"connected ({where})" if connected else f"not connected ({where})", connected)
    )
    firmware = facts.get("firmware")
    if firmware:
        out.append(
            (
                "Firmware",
                f"{firmware.get('version')} (protocol {firmware.get('protocol')}, "
                f"{firmware.get('runtime')}, board {firmware.get('board_id')}, "
                f"last reset: {firmware.get('reset_cause')})",
                True,
            )
        )
        out.append(("Sensing", _sensing(firmware.get("sensing", "")), True))
    age = facts.get("last_frame_age_s")
    out.append(
        (
            "Last board frame",
            "none yet" if age is None else f"{age:.1f} s ago",
            age is not None and age < 30,
        )
    )
    counters = facts.get("counters", {})
    if counters:
        bad = sum(int(counters.get(k, 0)) for k in ("corrupt", "malformed", "lost"))
        out.append(
            (
                "Link",
                f"{counters.get('frames', 0)} frames, {counters.get('corrupt', 0)} corrupt, "
                f"{counters.get('malformed', 0)} malformed, {counters.get('lost', 0)} lost, "
                f"{counters.get('disconnects', 0)} disconnections",
                bad <= max(10, int(counters.get("frames", 0)) // 100),
            )
        )
    findings = facts.get("commissioning")
    if findings is not None:
        text = (
            "no slot left out"
            if not findings
            else f"{len(findings)} left out: " + "; ".join(findings)
        )
        out.append(("Commissioning", text, True))
    database = facts.get("database", {})
    if database:
        if database.get("ok"):
            size = database.get("bytes") or 0
            text = f"saving games ({size / 1e6:.1f} MB)"
        else:
            text = f"NOT saving games: {database.get('problem') or 'no database'}"
        out.append(("Records", text, bool(database.get("ok"))))
    free = facts.get("disk_free_bytes")
    if free is not None:
        out.append(("Free disk", f"{free / 1e9:.1f} GB", free > 200e6))
    if facts.get("games_today") is not None:
        out.append(
            (
                "Today",
                f"{facts['games_today']} games started, "
                f"{facts.get('lessons_today', 0)} lessons worked on",
                True,
            )
        )
    speech = facts.get("speech", {})
    if speech:
        if not speech.get("enabled"):
            text = "switched off"
        elif speech.get("problem"):
            text = f"not working: {speech['problem']}"
        else:
            text = "working"
        out.append(("Speech", text, bool(speech.get("ok"))))
    uptime = facts.get("uptime_s")
    if uptime is not None:
        out.append(("Running for", _duration(float(uptime)), True))
    clients = facts.get("companion", {}).get("clients", {})
    out.append(
        (
            "Pages open",
            f"{clients.get('projector', 0)} projector, {clients.get('teacher', 0)} teacher, "
            f"{clients.get('student', 0)} students",
            True,
        )
    )
    return out


def _sensing(mode: str) -> str:
    if mode == "occupancy":
        return "one reed a slot (counts only; the referee colours the men)"
    if mode == "polarity":
        return "reeds that see each man's colour"
    return mode or "unknown"


def _duration(seconds: float) -> str:
    minutes, _ = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    days, hours = divmod(hours, 24)
    if days:
        return f"{days} d {hours} h"
    if hours:
        return f"{hours} h {minutes} min"
    return f"{minutes} min"
