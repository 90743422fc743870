"""Framing of the table protocol (see ``firmware/PROTOCOL.md``).

A message is one ASCII line: ``$`` kind seq(4 hex) space payload ``*`` crc(4 hex) CR LF,
where the CRC-16/CCITT-FALSE covers everything between ``$`` and ``*``.
"""

PROTOCOL_VERSION = 2  # 2: occupancy sensing, the slot character O
START = 0x24  # "$"
STAR = 0x2A  # "*"
MAX_COMMAND = 64


def _crc_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_TABLE = _crc_table()


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE (poly 0x1021, initial 0xFFFF) of ``data``."""
    table = _TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ byte]
    return crc


def encode(kind, seq, payload, crc=crc16):
    """One framed message as bytes; ``kind`` is a letter, ``payload`` printable ASCII bytes.

    ``crc`` computes the checksum (the Pico passes its native ``fast.crc16``)."""
    body = b"%s%04X " % (kind.encode(), seq & 0xFFFF) + payload
    return b"$" + body + b"*%04X\r\n" % crc(body)


def hex_value(data):
    """The value of upper-case hex digits given as bytes; -1 if any byte is not one.

    Works on bytes and bytearray alike: MicroPython's ``int()`` refuses a bytearray.
    """
    value = 0
    for byte in data:
        if 0x30 <= byte <= 0x39:
            value = (value << 4) | (byte - 0x30)
        elif 0x41 <= byte <= 0x46:
            value = (value << 4) | (byte - 0x37)
        else:
            return -1
    return value


def parse_line(line):
    """``(kind, seq, payload)`` from the bytes between ``$`` and the line end, or ``None``."""
    if line and line[-1] == 0x0D:
        line = line[:-1]
    if len(line) < 11 or line[5] != 0x20 or line[-5] != STAR:
        return None
    kind = line[0]
    if not (0x41 <= kind <= 0x5A or 0x61 <= kind <= 0x7A):
        return None
    seq = hex_value(line[1:5])
    crc = hex_value(line[-4:])
    if seq < 0 or crc < 0:
        return None
    body = line[:-5]
    if crc16(body) != crc:
        return None
    for byte in body:
        if byte < 0x20 or byte > 0x7E or byte == START:
            return None
    return chr(kind), seq, bytes(body[6:])


class CommandReader:
    """Reassembles host commands from a byte stream; counts what it had to throw away."""

    def __init__(self):
        self._buf = bytearray()
        self._inside = False
        self.errors = 0

    def feed(self, data):
        """Every valid command that ``data`` completes, as ``(kind, seq, payload)``."""
        found = []
        for byte in data:
            if byte == START:
                if self._inside:
                    self.errors += 1
                self._buf = bytearray()
                self._inside = True
            elif not self._inside:
                continue
            elif byte == 0x0A:
                self._inside = False
                command = parse_line(self._buf)
                if command is None:
                    self.errors += 1
                else:
                    found.append(command)
            elif len(self._buf) >= MAX_COMMAND:
                self._inside = False
                self.errors += 1
            else:
                self._buf.append(byte)
        return found
