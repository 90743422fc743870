"""The host side of the table protocol's framing (specified in firmware/PROTOCOL.md).

A message is one ASCII line ``$<kind><seq:4 hex> <payload>*<crc:4 hex>\\r\\n``; the
CRC-16/CCITT-FALSE covers the bytes between ``$`` and ``*``. ``FrameParser`` turns any
byte stream into valid messages and counts everything it had to discard; it never raises.
"""

from __future__ import annotations

import binascii
import re
from dataclasses import dataclass

PROTOCOL_VERSION = 2  # 2: occupancy sensing, the slot character O
MAX_LINE = 1024

# Host -> table commands.
CMD_IDENTIFY = "i"
CMD_DUMP = "d"
CMD_SELF_TEST = "t"
CMD_HEARTBEAT = "h"

# Table -> host messages.
MSG_IDENTIFY = "I"
MSG_FRAME = "F"
MSG_HEARTBEAT = "H"
MSG_SELF_TEST = "T"
MSG_ERROR = "E"

_LINE = re.compile(rb"([A-Za-z])([0-9A-F]{4}) ([\x20-\x23\x25-\x7e]*)\*([0-9A-F]{4})\r?")


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, initial 0xFFFF) of ``data``."""
    return binascii.crc_hqx(data, 0xFFFF)


def encode(kind: str, seq: int, payload: str = "") -> bytes:
    """One framed message, as the table or the host sends it."""
    body = f"{kind}{seq & 0xFFFF:04X} {payload}".encode("ascii")
    return b"$" + body + f"*{crc16(body):04X}\r\n".encode("ascii")


@dataclass(frozen=True)
class Message:
    """One valid message: its kind letter, sequence number and payload text."""

    kind: str
    seq: int
    payload: str


@dataclass(frozen=True)
class ParserCounters:
    """What a ``FrameParser`` has seen: good messages, corrupt frames and stray bytes."""

    messages: int = 0
    corrupt: int = 0
    garbage_bytes: int = 0


class FrameParser:
    """Reassembles messages from a byte stream, resynchronising on every ``$``.

    A frame is corrupt if its checksum or shape is wrong, if a new ``$`` arrives before
    its line ends (truncated), or if it grows past ``MAX_LINE`` bytes. Bytes outside any
    frame are counted as garbage.
    """

    def __init__(self) -> None:
        self._buf = bytearray()  # the frame being read (after its ``$``), or nothing
        self._inside = False
        self._skipping = False  # the rest of a frame that grew too long is dropped
        self.messages = 0
        self.corrupt = 0
        self.garbage_bytes = 0

    @property
    def counters(self) -> ParserCounters:
        """A snapshot of the counters."""
        return ParserCounters(self.messages, self.corrupt, self.garbage_bytes)

    def reset(self) -> None:
        """Forget any partial frame (after a reconnect); counters are kept."""
        self._buf.clear()
        self._inside = False
        self._skipping = False

    def feed(self, data: bytes) -> list[Message]:
        """Every complete valid message that ``data`` finishes, in order.

        Each byte is looked at a bounded number of times (no search runs further than
        ``MAX_LINE`` past a frame's start), so the time is linear in the bytes fed.
        """
        buf = self._buf
        buf += data
        found: list[Message] = []
        pos, size = 0, len(buf)
        while pos < size:
            if self._skipping:  # what is left of a frame that grew too long
                window = min(size, pos + MAX_LINE + 1)
                end = _first(buf, pos, window)
                if end < 0:
                    pos = window
                    continue
                pos = end + 1 if buf[end] == 0x0A else end
                self._skipping = False
                continue
            if not self._inside:
                start = buf.find(b"$", pos)
                if start < 0:
                    self.garbage_bytes += size - pos
                    pos = size
                    break
                self.garbage_bytes += start - pos
                pos = start + 1
                self._inside = True
            limit = min(size, pos + MAX_LINE + 1)
            end = buf.find(b"\n", pos, limit)
            restart = buf.find(b"$", pos, end if end >= 0 else limit)
            if restart >= 0:
                self.corrupt += 1  # truncated: a new frame began before this one ended
                pos = restart
                self._inside = False
                continue
            if end < 0:
                if limit - pos > MAX_LINE:  # too long, however the bytes were chunked
                    self.corrupt += 1
                    self._inside = False
                    self._skipping = True
                    pos = limit
                    continue
                break  # the frame goes on in the next read
            message = self._parse(bytes(buf[pos:end]))
            pos = end + 1
            self._inside = False
            if message is None:
                self.corrupt += 1
            else:
                self.messages += 1
                found.append(message)
        del buf[:pos]
        return found

    @staticmethod
    def _parse(line: bytes) -> Message | None:
        match = _LINE.fullmatch(line)
        if match is None:
            return None
        kind, seq, payload, crc = match.groups()
        if crc16(line[: match.start(4) - 1]) != int(crc, 16):
            return None
        return Message(kind.decode("ascii"), int(seq, 16), payload.decode("ascii"))


def _first(buf: bytearray, start: int, end: int) -> int:
    """Where the first line end or ``$`` lies in ``buf[start:end]`` (-1: neither)."""
    line, frame = buf.find(b"\n", start, end), buf.find(b"$", start, end)
    if line < 0 or 0 <= frame < line:
        return frame
    return line


def fields(payload: str) -> dict[str, str]:
    """The ``key=value`` words of a payload (words without ``=`` are skipped)."""
    result = {}
    for word in payload.split():
        key, sep, value = word.partition("=")
        if sep:
            result[key] = value
    return result
