"""A bounded queue between the firmware and the USB serial line.

The scan loop must never wait for the host: on the Pico a write to USB CDC waits (up to
half a second) until the line has room for all of it, and the line has none while the
host holds the port open without reading. ``Outbox.write`` queues whole messages (or drops
one, returning ``False``, when the queue is full); ``pump`` hands the line single bytes,
each only after the line says it has room, so no write waits; a write that still took long
is counted (``stalls``).
"""

LIMIT = 2048  # bytes held for a host that is not reading (about ten frames)
CHUNK = 32  # bytes handed to the line a loop at most: 8 KB/s at 250 loops a second


class Outbox:
    """Whole messages waiting for the line; drops new ones rather than grow past ``limit``."""

    def __init__(self, limit=LIMIT, chunk=CHUNK):
        self.limit = limit
        self.chunk = chunk
        self._queue = bytearray()
        self._head = 0  # bytes of the queue already sent
        self._one = bytearray(1)  # the byte being handed to the line (the loop allocates none)
        self.dropped = 0
        self.stalls = 0

    def __len__(self):
        return len(self._queue) - self._head

    def write(self, data):
        """Queue ``data``; ``False`` (and counted) if the queue has no room for all of it."""
        if len(self) + len(data) > self.limit:
            self.dropped += 1
            return False
        if self._head >= self.limit // 2:  # drop what was sent, now and then, not each time
            self._queue = self._queue[self._head :]
            self._head = 0
        self._queue.extend(data)
        return True

    def pump(self, writable, sink, clock=None, stall_us=1000):
        """Give ``sink`` up to ``chunk`` bytes, one byte a call, each only when
        ``writable()`` says the line has room for it.

        ``sink(buffer)`` returns how many bytes it took (``None`` means all); the buffer is
        reused for the next byte, so the sink copies it. ``clock`` (with
        ``ticks_us`` and ``ticks_diff``, as MicroPython's ``time``) times each write: one
        that took ``stall_us`` or longer is counted in ``stalls``. Returns the bytes sent.
        """
        queue = self._queue
        head = self._head
        sent = 0
        one = self._one
        while sent < self.chunk and head < len(queue) and writable():
            start = clock.ticks_us() if clock else 0
            one[0] = queue[head]
            taken = sink(one)
            if clock and clock.ticks_diff(clock.ticks_us(), start) >= stall_us:
                self.stalls += 1
            if taken == 0:
                break
            head += 1
            sent += 1
        self._head = head
        return sent
