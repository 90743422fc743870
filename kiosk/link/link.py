"""The kiosk's end of the serial link: a reader thread, a handshake and reconnection.

``TableLink`` follows pyserial's ``serial.threaded`` split: a ``ReaderThread`` reads the
port and hands bytes to a ``Protocol`` that parses messages; a supervisor thread opens
the port, checks the firmware at connect, notices a vanished or silent table and
reconnects with back-off. The link never holds game state: after a reconnect, and after
any gap in the table's sequence numbers, it asks for a full dump and delivers it like any
other frame. A table whose numbering went back (it restarted and its first message was
lost) is asked who it is and for its board, and its numbering is adopted: the link never
goes blind to it. Everything it keeps is bounded: queues drop their oldest entries, the
table's error messages are shown once and then counted (a count at most once a minute),
and warnings are logged at most once a second. Each event has ``words`` for the people at
the table besides the ``message`` for the log.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from types import MappingProxyType
from typing import Any

import serial
from serial.threaded import Protocol, ReaderThread

from kiosk.link.frames import (
    BoardFrame,
    SelfTestReport,
    TableInfo,
    decode_frame,
    decode_heartbeat,
    decode_identify,
    decode_self_test,
)
from kiosk.link.protocol import (
    CMD_DUMP,
    CMD_HEARTBEAT,
    CMD_IDENTIFY,
    CMD_SELF_TEST,
    MSG_ERROR,
    MSG_FRAME,
    MSG_HEARTBEAT,
    MSG_IDENTIFY,
    MSG_SELF_TEST,
    PROTOCOL_VERSION,
    FrameParser,
    Message,
    encode,
)
from kiosk.table.layout import TableLayout

log = logging.getLogger(__name__)

BAUD = 115200  # ignored by USB CDC and ptys, but pyserial needs one
LOG_INTERVAL = 1.0  # seconds between two warnings of one kind
ERROR_INTERVAL = 60.0  # seconds between two reports of the table's error messages
DUMP_INTERVAL = 0.05  # seconds between two dumps asked for because of gaps
REPEAT_WINDOW = 8  # a number further back than this is no repeat: the table restarted
REPEAT_RUN = 3  # so many repeats in a row: the table restarted
RENUMBER_INTERVAL = 0.5  # seconds between two identify requests while renumbering
FRAME_RATE = 400  # twice the firmware's top rate (a frame a scan, 200 scans a second)
FRAME_BURST = 256  # frames taken at once beyond that rate (a simulated table's bursts)
REPORT_INTERVAL = 1.0  # seconds between two self-test reports, or two restarts, taken in
WRITE_TIMEOUT = 2.0  # seconds a message to the table may wait for it to read


class LinkStatus(Enum):
    """Kinds of ``LinkEvent``."""

    CONNECTED = "connected"
    DISCONNECTED = "disconnected"
    INCOMPATIBLE = "incompatible"
    SELF_TEST = "self-test"
    TABLE_ERROR = "table-error"
    #: A real table appeared while the link served a simulated one; it switches to it.
    SWITCHED = "switched"


@dataclass(frozen=True)
class LinkCounters:
    """The link's running totals since it was created.

    ``corrupt`` frames failed framing or checksum; ``malformed`` ones had a good checksum
    but a payload that does not decode; ``lost`` counts sequence numbers never received;
    ``repeats`` counts messages whose sequence number was repeated or went backwards
    (dropped); ``renumbered`` the times the table's numbering went back further than a
    repeat and the link adopted its new numbering; ``resyncs`` the full dumps asked for
    after a gap; ``table_errors`` the table's ``E`` messages; ``frames_dropped`` frames that
    came faster than the firmware sends them, each replaced by the next (the latest is
    always delivered); ``reports_dropped`` self-test reports and restarts beyond one a
    ``REPORT_INTERVAL`` (the latest of each is taken in when due). ``table`` holds the
    error counters from the table's latest heartbeat.
    """

    messages: int = 0
    frames: int = 0
    corrupt: int = 0
    malformed: int = 0
    lost: int = 0
    garbage_bytes: int = 0
    connects: int = 0
    disconnects: int = 0
    repeats: int = 0
    renumbered: int = 0
    resyncs: int = 0
    table_errors: int = 0
    frames_dropped: int = 0
    reports_dropped: int = 0
    table: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class LinkEvent:
    """A change in the link's state: ``message`` for the log and the installer, ``words``
    for the people at the table (no device paths or driver texts)."""

    status: LinkStatus
    message: str
    counters: LinkCounters
    info: TableInfo | None = None
    self_test: SelfTestReport | None = None
    words: str = ""


#: What the people at the table read when the link loses the table or refuses it.
NOT_CONNECTED = "The table is not connected: check its USB cable. The game waits."
NOT_YET = "The table is not connected yet: check its USB cable."
REFUSED = "The table's firmware does not fit this kiosk: the installer should run kiosk doctor."


class LinkListener:
    """Receives what the link delivers; called on the link's own threads, so be quick."""

    def frame_received(self, frame: BoardFrame) -> None:
        """A settled board frame arrived."""

    def status_changed(self, event: LinkEvent) -> None:
        """The link connected, lost the table, refused it, or has a report."""


def _put_dropping_oldest(into: queue.Queue[Any], item: object) -> None:
    while True:
        try:
            into.put_nowait(item)
            return
        except queue.Full:
            try:
                into.get_nowait()
            except queue.Empty:
                pass


class QueueListener(LinkListener):
    """Puts frames and events on bounded thread-safe queues; the oldest goes when full."""

    def __init__(self, max_frames: int = 1000, max_events: int = 256) -> None:
        self.frames: queue.Queue[BoardFrame] = queue.Queue(max_frames)
        self.events: queue.Queue[LinkEvent] = queue.Queue(max_events)

    def frame_received(self, frame: BoardFrame) -> None:
        """Queue the frame."""
        _put_dropping_oldest(self.frames, frame)

    def status_changed(self, event: LinkEvent) -> None:
        """Queue the event."""
        _put_dropping_oldest(self.events, event)


class _Throttle:
    """At most one warning of each kind per ``LOG_INTERVAL``; says how many it held back."""

    def __init__(self) -> None:
        self._last: dict[str, float] = {}
        self._held: dict[str, int] = {}

    def warn(self, kind: str, text: str, *args: object) -> None:
        now = time.monotonic()
        if now - self._last.get(kind, -LOG_INTERVAL) < LOG_INTERVAL:
            self._held[kind] = self._held.get(kind, 0) + 1
            return
        held = self._held.pop(kind, 0)
        self._last[kind] = now
        if held:
            text += f" (and {held} more like it in the last {LOG_INTERVAL:.0f} s)"
        log.warning(text, *args)


def open_serial(port: str) -> serial.Serial:
    """Open ``port`` (a device path or pyserial URL) for the table."""
    return serial.serial_for_url(
        port, baudrate=BAUD, timeout=None, write_timeout=WRITE_TIMEOUT, exclusive=True
    )


class _Reader(ReaderThread):
    """pyserial's reader thread, kept from dying with a traceback on ``OSError``.

    pyserial turns most read errors into ``SerialException``, but ``in_waiting`` on a
    port whose device vanished raises a bare ``OSError`` (``[Errno 5] Input/output
    error``) that ends the thread with a traceback and no ``connection_lost``. Here every
    read error ends the session in words and the link reconnects.
    """

    def run(self) -> None:
        try:
            super().run()
        except OSError as exc:
            self.alive = False
            self.protocol.connection_lost(
                OSError(exc.errno, f"the table's serial port failed ({exc.strerror or exc})")
            )


class _TableProtocol(Protocol):
    """Hands the reader thread's bytes to the link."""

    def __init__(self, link: TableLink) -> None:
        self._link = link

    def data_received(self, data: bytes) -> None:
        self._link._received(data)

    def connection_lost(self, exc: BaseException | None) -> None:
        self._link._lost(exc)


class TableLink:
    """A self-healing connection to the table on ``port``.

    ``layout`` is the layout the kiosk expects; ``None`` accepts whatever the table
    reports. ``open_port`` opens the port (swap it to connect elsewhere). ``silence_timeout``
    seconds without a valid message count as a lost table (``None`` never times out).
    ``find_port`` (when ``port`` is a simulated table's) is asked every ``look_every``
    seconds for a real table; when it names one the link emits ``SWITCHED`` and moves to it.
    """

    def __init__(
        self,
        port: str,
        *,
        layout: TableLayout | None = None,
        listener: LinkListener | None = None,
        open_port: Callable[[str], serial.Serial] = open_serial,
        silence_timeout: float | None = 2.0,
        handshake_timeout: float = 1.0,
        backoff: tuple[float, float] = (0.1, 2.0),
        find_port: Callable[[], str | None] | None = None,
        look_every: float = 2.0,
    ) -> None:
        self.port = port
        self._find_port = find_port
        self._look_every = look_every
        self._next_look = 0.0
        self.expected_layout = layout
        self.listener = listener if listener is not None else QueueListener()
        self._open_port = open_port
        self._silence_timeout = silence_timeout
        self._handshake_timeout = handshake_timeout
        self._backoff = backoff
        self._parser = FrameParser()
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._connected_event = threading.Event()
        self._thread: threading.Thread | None = None
        self._reader: ReaderThread | None = None
        self._info: TableInfo | None = None
        self._layout: TableLayout | None = None
        self._lost_reason: str | None = None
        self._last_seq: int | None = None
        self._last_rx = 0.0
        self._repeat_run = 0  # repeats in a row
        self._renumbering = 0.0  # when the identify asked because numbering went back was sent
        self._counts = {
            "frames": 0,
            "malformed": 0,
            "lost": 0,
            "connects": 0,
            "disconnects": 0,
            "repeats": 0,
            "renumbered": 0,
            "resyncs": 0,
            "table_errors": 0,
            "frames_dropped": 0,
            "reports_dropped": 0,
        }
        self._frame_at = 0.0  # when the frame allowance was last topped up
        self._allowance = float(FRAME_BURST)  # frames that may be delivered now
        self._held_frame: BoardFrame | None = None  # a frame that came too soon after it
        self._report_at: dict[str, float] = {}  # when the last self-test / restart was taken
        self._asked = 0  # self-tests asked for and not yet answered: their reports come at once
        self._held_reports: dict[str, object] = {}  # the latest that came too soon after it
        self._throttle = _Throttle()
        self._errors_shown: float | None = None  # when the table's errors were last reported
        self._errors_held = 0  # E messages since then, not yet reported
        self._errors_last = ""  # the latest of them
        self._last_dump = 0.0
        self._table_counters: Mapping[str, int] = MappingProxyType({})

    # -- public --------------------------------------------------------------------------

    def start(self) -> TableLink:
        """Start connecting in the background; returns the link."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._supervise, name="table-link", daemon=True)
            self._thread.start()
        return self

    def stop(self) -> None:
        """Close the port and stop the link's threads."""
        self._stopping.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(5)

    def __enter__(self) -> TableLink:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    @property
    def connected(self) -> bool:
        """Whether a compatible table is connected now."""
        return self._connected_event.is_set()

    @property
    def info(self) -> TableInfo | None:
        """The connected table's identify information."""
        return self._info if self.connected else None

    def wait_connected(self, timeout: float | None = None) -> bool:
        """Block until a compatible table is connected; ``False`` on timeout."""
        return self._connected_event.wait(timeout)

    def counters(self) -> LinkCounters:
        """A snapshot of the link's counters."""
        with self._lock:
            parsed = self._parser.counters
            return LinkCounters(
                messages=parsed.messages,
                frames=self._counts["frames"],
                corrupt=parsed.corrupt,
                malformed=self._counts["malformed"],
                lost=self._counts["lost"],
                garbage_bytes=parsed.garbage_bytes,
                connects=self._counts["connects"],
                disconnects=self._counts["disconnects"],
                repeats=self._counts["repeats"],
                renumbered=self._counts["renumbered"],
                resyncs=self._counts["resyncs"],
                table_errors=self._counts["table_errors"],
                frames_dropped=self._counts["frames_dropped"],
                reports_dropped=self._counts["reports_dropped"],
                table=self._table_counters,
            )

    def request_dump(self) -> bool:
        """Ask the table for a full frame now; ``False`` if no table is connected."""
        return self.connected and self._send(CMD_DUMP)

    def request_self_test(self, mode: str = "") -> bool:
        """Ask the table to test its switches; the report arrives as a ``SELF_TEST`` event.

        ``mode`` is ``""``, ``"empty"`` (the table has been cleared: report reeds that close
        without a man) or ``"full"`` (a man on every slot: report dead reeds).
        """
        if mode not in ("", "empty", "full"):
            raise ValueError(f"a self-test mode is empty or full, not {mode!r}")
        sent = self.connected and self._send(CMD_SELF_TEST, mode)
        if sent:
            with self._lock:
                self._asked += 1
        return sent

    # -- supervisor thread ---------------------------------------------------------------

    def _supervise(self) -> None:
        delay = self._backoff[0]
        last_failure = None
        while not self._stopping.is_set():
            reason, was_connected, refused = self._session()
            if self._stopping.is_set():
                break
            if was_connected:
                self._emit(
                    LinkStatus.DISCONNECTED, f"table disconnected: {reason}", words=NOT_CONNECTED
                )
                delay = self._backoff[0]
            elif not refused and reason != last_failure:
                self._emit(LinkStatus.DISCONNECTED, f"table not connected: {reason}", words=NOT_YET)
            last_failure = None if was_connected else reason
            if refused:
                delay = self._backoff[1]
            if self._switch_to_real_table():
                delay = self._backoff[0]
                continue
            self._stopping.wait(delay)
            delay = min(delay * 2, self._backoff[1])

    def _switch_to_real_table(self) -> bool:
        """Whether a real table has appeared (and the link now points at it)."""
        if self._find_port is None or time.monotonic() < self._next_look:
            return False
        self._next_look = time.monotonic() + self._look_every
        try:
            found = self._find_port()
        except OSError:
            return False
        if not found or found == self.port:
            return False
        self._emit(
            LinkStatus.SWITCHED,
            f"a table was plugged in on {found}: leaving the simulated table for it",
        )
        self.port = found
        self._find_port = None
        return True

    def _session(self) -> tuple[str, bool, bool]:
        """One connection attempt: (why it ended, whether it connected, whether refused)."""
        try:
            port = self._open_port(self.port)
        except (serial.SerialException, OSError, ValueError) as exc:
            return f"cannot open {self.port}: {exc}", False, False
        with self._lock:
            self._parser.reset()
            self._info = None
            self._layout = None
            self._lost_reason = None
            self._last_seq = None
            self._last_rx = time.monotonic()
            self._repeat_run = 0
            self._renumbering = 0.0
            self._held_frame = None
            self._allowance = float(FRAME_BURST)
            self._held_reports = {}
            self._asked = 0
            self._report_at = {}
        try:
            port.reset_input_buffer()
        except (serial.SerialException, OSError) as exc:
            port.close()
            return f"cannot use {self.port}: {exc}", False, False
        reader = _Reader(port, lambda: _TableProtocol(self))
        reader.start()
        self._reader = reader
        try:
            return self._run_session()
        finally:
            self._connected_event.clear()
            self._reader = None
            try:
                reader.close()
            except (serial.SerialException, OSError):
                port.close()

    def _run_session(self) -> tuple[str, bool, bool]:
        self._send(CMD_IDENTIFY)
        deadline = time.monotonic() + self._handshake_timeout
        while self._info is None:
            if self._lost_reason is not None or self._stopping.is_set():
                return self._lost_reason or "stopped", False, False
            left = deadline - time.monotonic()
            if left <= 0:
                return f"no answer from {self.port} (is it the table?)", False, False
            self._wake.wait(min(left, 0.05))
            self._wake.clear()
        problem = self._incompatibility(self._info)
        if problem:
            self._emit(LinkStatus.INCOMPATIBLE, problem, info=self._info, words=REFUSED)
            return problem, False, True
        with self._lock:
            self._layout = self._judged(self._info) or self._info.layout
            self._counts["connects"] += 1
        self._connected_event.set()
        info = self._info
        self._emit(
            LinkStatus.CONNECTED,
            f"table connected on {self.port}: firmware {info.firmware}, "
            f"protocol {info.protocol}, layout {info.layout.wire()}",
            info=info,
            words="The table is connected.",
        )
        self._send(CMD_DUMP)
        pinged = False
        while not self._stopping.is_set():
            if self._lost_reason is not None:
                break
            if self._find_port is not None and time.monotonic() >= self._next_look:
                # A real table plugged in while the simulator serves: end this session;
                # the supervisor switches (it looks again at once).
                self._next_look = 0.0
                found = self._find_port()
                if found and found != self.port:
                    self._set_lost("a real table was plugged in")
                    break
                self._next_look = time.monotonic() + self._look_every
            self._report_errors()
            self._take_held()
            quiet = time.monotonic() - self._last_rx
            if self._silence_timeout is not None:
                if quiet > self._silence_timeout:
                    self._set_lost(f"no message for {quiet:.1f} s")
                    break
                if quiet > self._silence_timeout / 2:
                    if not pinged:
                        pinged = self._send(CMD_HEARTBEAT)
                else:
                    pinged = False
            self._wake.wait(0.05 if self._held_frame is None else 1 / FRAME_RATE)
            self._wake.clear()
        with self._lock:
            self._counts["disconnects"] += 1
        return self._lost_reason or "stopped", True, False

    def _judged(self, info: TableInfo) -> TableLayout | None:
        """The kiosk's layout sensing as the table says it senses (the identify's
        ``sense=``): the kiosk judges either kind, so the table decides."""
        expected = self.expected_layout
        if expected is None or expected.sensing == info.layout.sensing:
            return expected
        return replace(expected, sensing=info.layout.sensing)

    def _incompatibility(self, info: TableInfo) -> str | None:
        if info.protocol != PROTOCOL_VERSION:
            return (
                f"incompatible table firmware {info.firmware}: it speaks protocol "
                f"{info.protocol}, this kiosk speaks protocol {PROTOCOL_VERSION}; "
                "update the firmware (see firmware/README.md)"
            )
        expected = self._judged(info)
        if expected is not None and info.layout != expected.physical():
            return (
                f"table layout {info.layout.wire()} differs from the kiosk's "
                f"{expected.wire()} (points,bars,trays); fix the configuration"
            )
        return None

    def _send(self, command: str, payload: str = "") -> bool:
        reader = self._reader
        if reader is None:
            return False
        try:
            reader.write(encode(command, 0, payload))
        except serial.SerialTimeoutException:
            self._set_lost(
                f"the table stopped reading what the kiosk sends (a message waited more than "
                f"{WRITE_TIMEOUT:.0f} s)"
            )
            return False
        except (serial.SerialException, OSError) as exc:
            self._lost(exc)
            return False
        return True

    def _emit(
        self,
        status: LinkStatus,
        message: str,
        info: TableInfo | None = None,
        self_test: SelfTestReport | None = None,
        words: str = "",
    ) -> None:
        if status in (LinkStatus.DISCONNECTED, LinkStatus.INCOMPATIBLE):
            log.warning("%s", message)
        else:
            log.info("%s", message)
        event = LinkEvent(
            status, message, self.counters(), info=info, self_test=self_test, words=words or message
        )
        try:
            self.listener.status_changed(event)
        except Exception:
            log.exception("link listener failed on %s", status.value)

    # -- reader thread -------------------------------------------------------------------

    def _set_lost(self, reason: str) -> None:
        with self._lock:
            if self._lost_reason is None:
                self._lost_reason = reason
        self._wake.set()

    def _lost(self, exc: BaseException | None) -> None:
        self._set_lost(str(exc) if exc is not None else "port closed")

    def _received(self, data: bytes) -> None:
        with self._lock:
            corrupt_before = self._parser.corrupt
            messages = self._parser.feed(data)
            corrupt = self._parser.corrupt - corrupt_before
        if corrupt:
            self._throttle.warn("corrupt", "table link: dropped %d corrupt frame(s)", corrupt)
        for message in messages:
            self._handle(message)

    def _count_sequence(self, message: Message) -> tuple[bool, bool]:
        """Count the message's sequence number: whether to take the message, and whether it
        starts the table's numbering afresh (a restart).

        A step forward of more than one is a gap: the messages in it are counted lost and
        a full dump is asked for, so the kiosk never shows a board the table has left. A
        repeated number, or one a little behind, is a repeat (dropped, and it does not
        count as the table being heard). A number further back than ``REPEAT_WINDOW``, or
        ``REPEAT_RUN`` repeats in a row, mean the table restarted and its first message was
        lost: it is asked who it is, and its answer starts the numbering afresh.
        """
        gap = renumber = False
        now = time.monotonic()
        with self._lock:
            restart = message.kind == MSG_IDENTIFY and (message.seq == 0 or bool(self._renumbering))
            if restart:
                if self._renumbering and message.seq != 0:
                    self._counts["renumbered"] += 1
                self._last_seq = None
                self._renumbering = 0.0
            if self._last_seq is not None:
                step = (message.seq - self._last_seq) & 0xFFFF
                if step == 0 or step >= 0x8000:
                    self._counts["repeats"] += 1
                    self._repeat_run += 1
                    behind = (self._last_seq - message.seq) & 0xFFFF
                    if behind > REPEAT_WINDOW or self._repeat_run >= REPEAT_RUN:
                        renumber = now - self._renumbering >= RENUMBER_INTERVAL
                        if renumber:
                            self._renumbering = now
                    if not renumber:
                        return False, False
                elif step > 1:
                    self._counts["lost"] += step - 1
                    gap = True
            if not renumber:
                self._repeat_run = 0
                self._last_seq = message.seq
                self._last_rx = now
        if renumber:
            self._throttle.warn(
                "renumber",
                "table link: the table's numbering went back (%04X after %04X): it restarted; "
                "asking who it is",
                message.seq,
                self._last_seq or 0,
            )
            self._send(CMD_IDENTIFY)
            return False, False
        if gap:
            self._resync()
        return True, restart

    def _resync(self) -> None:
        """Ask for a full dump after a gap (at most one per ``DUMP_INTERVAL``)."""
        now = time.monotonic()
        if not self.connected or now - self._last_dump < DUMP_INTERVAL:
            return
        self._last_dump = now
        if self._send(CMD_DUMP):
            with self._lock:
                self._counts["resyncs"] += 1

    def _table_error(self, message: Message) -> None:
        """Report the table's ``E`` messages: the first at once, then how many more came at
        most once every ``ERROR_INTERVAL`` (all are counted)."""
        now = time.monotonic()
        with self._lock:
            self._counts["table_errors"] += 1
            shown = self._errors_shown
            first = shown is None or (now - shown >= ERROR_INTERVAL and not self._errors_held)
            if first:
                self._errors_shown = now
            else:
                self._errors_held += 1
                self._errors_last = message.payload
        if first:
            self._emit(
                LinkStatus.TABLE_ERROR,
                f"table reports: {message.payload[:200]}",
                words=f"The table reported an error ({message.payload[:60]}).",
            )
        self._report_errors()

    def _report_errors(self) -> None:
        """Say how many of the table's error messages came since the last report, once
        ``ERROR_INTERVAL`` has passed."""
        now = time.monotonic()
        with self._lock:
            shown = self._errors_shown
            if not self._errors_held or shown is None or now - shown < ERROR_INTERVAL:
                return
            count, last = self._errors_held, self._errors_last
            self._errors_held, self._errors_shown = 0, now
        many = f"{count} more error{'s' if count != 1 else ''}"
        minutes = max(1, round((now - shown) / 60))
        self._emit(
            LinkStatus.TABLE_ERROR,
            f"table reported {many} in the last {minutes} min (the last: {last[:60]}); "
            "counted, not shown. If it goes on, restart the table.",
            words=f"The table reported {many} in the last {minutes} min.",
        )

    def _handle(self, message: Message) -> None:
        take, restarted = self._count_sequence(message)
        if not take:
            return
        try:
            if message.kind == MSG_FRAME:
                layout = self._layout
                if layout is not None and self.connected:
                    frame = decode_frame(message.seq, message.payload, layout)
                    with self._lock:
                        self._counts["frames"] += 1
                    self._frame(frame)
            elif message.kind == MSG_HEARTBEAT:
                beat = decode_heartbeat(message.seq, message.payload)
                with self._lock:
                    self._table_counters = beat.counters
            elif message.kind == MSG_IDENTIFY:
                self._identified(decode_identify(message.payload), restarted=restarted)
            elif message.kind == MSG_SELF_TEST:
                report = decode_self_test(message.payload)
                if self._due("self-test", report):
                    self._self_test(report)
            elif message.kind == MSG_ERROR:
                self._table_error(message)
        except ValueError as exc:
            with self._lock:
                self._counts["malformed"] += 1
            self._throttle.warn(
                "malformed", "table link: malformed %s message: %s", message.kind, exc
            )

    def _identified(self, info: TableInfo, restarted: bool = True) -> None:
        """The table said who it is: at the handshake, or after a restart (its first message,
        sequence 0). Its answer to the handshake's identify can come after the identify it
        sent as it booted: that is no restart."""
        if self.connected and not restarted:
            with self._lock:
                self._info = info
            return
        if self.connected and not self._due("restart", info):
            return  # restarts beyond one a REPORT_INTERVAL: the latest is taken in when due
        self._restarted(info)

    def _restarted(self, info: TableInfo) -> None:
        """The table restarted (or first answered): take in who it says it is."""
        if self.connected:
            problem = self._incompatibility(info)
            if problem:
                self._lost(RuntimeError(problem))
                return
            with self._lock:
                self._info = info
                self._layout = self._judged(info) or info.layout
            self._emit(
                LinkStatus.CONNECTED,
                f"table restarted (reset cause: {info.reset_cause})",
                info,
                words="The table restarted; it is read again.",
            )
            self._send(CMD_DUMP)
        else:
            with self._lock:
                self._info = info
            self._wake.set()

    def _self_test(self, report: SelfTestReport) -> None:
        verdict = "passed" if report.ok else "found faults"
        self._emit(LinkStatus.SELF_TEST, f"table self-test {verdict}", self_test=report)

    def _due(self, kind: str, item: object) -> bool:
        """Whether a self-test report or a restart may be taken in now (one a
        ``REPORT_INTERVAL``, but a self-test asked for by :meth:`request_self_test` at once);
        if not, it is held, replacing (and counting) any held before."""
        now = time.monotonic()
        with self._lock:
            if kind == "self-test" and self._asked:  # the answer to our own question
                self._asked -= 1
                self._report_at[kind] = now
                self._held_reports.pop(kind, None)
                return True
            if now - self._report_at.get(kind, -REPORT_INTERVAL) >= REPORT_INTERVAL:
                self._report_at[kind] = now
                self._held_reports.pop(kind, None)
                return True
            if kind in self._held_reports:
                self._counts["reports_dropped"] += 1
            self._held_reports[kind] = item
        return False

    def _frame(self, frame: BoardFrame) -> None:
        """Deliver a frame, unless frames come faster than ``FRAME_RATE`` beyond a burst of
        ``FRAME_BURST``: then it is held (the next replaces it, counted) until due."""
        with self._lock:
            if not self._allowed():
                if self._held_frame is not None:
                    self._counts["frames_dropped"] += 1
                self._held_frame = frame
                self._wake.set()  # the session's loop delivers it when due
                return
            self._held_frame = None
        self._deliver(frame)

    def _allowed(self) -> bool:
        """Whether a frame may be delivered now (one taken from the allowance if so); the
        caller holds the lock."""
        now = time.monotonic()
        self._allowance = min(
            float(FRAME_BURST), self._allowance + (now - self._frame_at) * FRAME_RATE
        )
        self._frame_at = now
        if self._allowance < 1:
            return False
        self._allowance -= 1
        return True

    def _take_held(self) -> None:
        """Deliver the frame, the self-test report and the restart held back, once due."""
        now = time.monotonic()
        with self._lock:
            frame = self._held_frame
            if frame is not None and self._allowed():
                self._held_frame = None
            else:
                frame = None
            due = [
                (kind, self._held_reports.pop(kind))
                for kind in list(self._held_reports)
                if now - self._report_at.get(kind, 0.0) >= REPORT_INTERVAL
            ]
            for kind, _ in due:
                self._report_at[kind] = now
        if frame is not None:
            self._deliver(frame)
        for kind, item in due:
            if kind == "self-test" and isinstance(item, SelfTestReport):
                self._self_test(item)
            elif isinstance(item, TableInfo):
                self._restarted(item)

    def _deliver(self, frame: BoardFrame) -> None:
        try:
            self.listener.frame_received(frame)
        except Exception:
            log.exception("link listener failed on frame %d", frame.seq)
