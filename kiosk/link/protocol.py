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
        self._buf = bytearray()
        self._inside = False
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

    def feed(self, data: bytes) -> list[Message]:
        """Every complete valid message that ``data`` finishes, in order."""
        buf = self._buf
        buf += data
        found: list[Message] = []
        while buf:
            if not self._inside:
                start = buf.find(b"$")
                if start < 0:
                    self.garbage_bytes += len(buf)
                    buf.clear()
                    break
                self.garbage_bytes += start
                del buf[: start + 1]
                self._inside = True
            end = buf.find(b"\n")
            restart = buf.find(b"$", 0, end if end >= 0 else len(buf))
            if restart >= 0:
                self.corrupt += 1  # truncated: a new frame began before this one ended
                del buf[:restart]
                self._inside = False
                continue
            if end < 0:
                if len(buf) > MAX_LINE:
                    self.corrupt += 1
                    buf.clear()
                    self._inside = False
                break
            if end > MAX_LINE:  # too long, however the bytes were chunked
                self.corrupt += 1
                del buf[: end + 1]
                self._inside = False
                continue
            message = self._parse(bytes(buf[:end]))
            del buf[: end + 1]
            self._inside = False
            if message is None:
                self.corrupt += 1
            else:
                self.messages += 1
                found.append(message)
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


def fields(payload: str) -> dict[str, str]:
    """The ``key=value`` words of a payload (words without ``=`` are skipped)."""
    result = {}
    for word in payload.split():
        key, sep, value = word.partition("=")
        if sep:
            result[key] = value
    return result
