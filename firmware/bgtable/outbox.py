"""A bounded queue between the firmware and the USB serial line.

The scan loop must never wait for the host: on the Pico a write to USB CDC waits (up to
half a second) until the line has room for all of it, and the line has none while the
host holds the port open without reading. ``Outbox.write`` queues whole messages (or drops
one, returning ``False``, when the queue is full). ``pump`` hands the line pieces of up
to ``PIECE`` bytes (a USB packet), each only after the line says it has room: a byte a
write would cost the Pico about 60 µs a byte (the poll runs the USB stack), a piece
about the same as one byte. The line only says it has room for one byte or more, so a
piece can still wait when a host stops reading part-way through the line's 256-byte
buffer: a write that took ``stall_us`` or longer is counted (``stalls``) and the outbox
then hands the line one byte a loop, which never waits, until ``PIECE`` of them have gone
through promptly.
"""

LIMIT = 2048  # bytes held for a host that is not reading (about ten frames)
CHUNK = 128  # bytes handed to the line a loop at most: 32 KB/s at 250 loops a second
PIECE = 64  # bytes a write: one USB full-speed packet


class Outbox:
    """Whole messages waiting for the line; drops new ones rather than grow past ``limit``."""

    def __init__(self, limit=LIMIT, chunk=CHUNK, piece=PIECE):
        self.limit = limit
        self.chunk = chunk
        self.piece = piece
        self._queue = bytearray()
        self._head = 0  # bytes of the queue already sent
        self._careful = 0  # single bytes still to hand on after a write that waited
        self._pumping = False  # a write may come while a piece waits (board.py's timer)
        self.dropped = 0
        self.stalls = 0

    def __len__(self):
        return len(self._queue) - self._head

    def write(self, data):
        """Queue ``data``; ``False`` (and counted) if the queue has no room for all of it."""
        if len(self) + len(data) > self.limit:
            self.dropped += 1
            return False
        if self._head >= self.limit // 2 and not self._pumping:  # drop what was sent, now and then
            self._queue = self._queue[self._head :]
            self._head = 0
        self._queue.extend(data)
        return True

    def pump(self, writable, sink, clock=None, stall_us=1000):
        """Give ``sink`` up to ``chunk`` bytes, in pieces, each only when ``writable()``
        says the line has room.

        ``sink(buffer)`` returns how many bytes it took (``None`` means all). ``clock``
        (with ``ticks_us`` and ``ticks_diff``, as MicroPython's ``time``) times each write:
        one that took ``stall_us`` or longer is counted in ``stalls``, and a single byte a
        call follows it until a piece's worth went through promptly.
        Returns the bytes sent.
        """
        self._pumping = True
        try:
            return self._pump(writable, sink, clock, stall_us)
        finally:
            self._pumping = False

    def _pump(self, writable, sink, clock, stall_us):
        queue = self._queue
        head = self._head
        sent = 0
        while sent < self.chunk and head < len(queue) and writable():
            size = 1 if self._careful else self.piece
            end = min(head + size, len(queue), head + self.chunk - sent)
            piece = queue[head:end]
            start = clock.ticks_us() if clock else 0
            taken = sink(piece)
            if taken is None:
                taken = end - head
            if clock and clock.ticks_diff(clock.ticks_us(), start) >= stall_us:
                self.stalls += 1
                self._careful = self.piece
            elif self._careful:
                self._careful = max(0, self._careful - taken)
                head += taken
                sent += taken
                break  # one careful byte a loop: each costs the Pico a poll and a write
            if taken == 0:
                break
            head += taken
            sent += taken
        self._head = head
        return sent
