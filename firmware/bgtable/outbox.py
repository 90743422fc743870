"""A bounded queue between the firmware and the USB serial line.

The scan loop must never wait for the host: on the Pico a write to USB CDC blocks while
the host holds the port open without reading, and a few such stalls trip the watchdog.
``Outbox.write`` queues whole messages (or drops one, returning ``False``, when the queue
is full); ``pump`` hands at most one small chunk to the line, and only when the line
says it can take it.
"""

LIMIT = 2048  # bytes held for a host that is not reading (about ten frames)
CHUNK = 64  # one USB full-speed packet


class Outbox:
    """Whole messages waiting for the line; drops new ones rather than grow past ``limit``."""

    def __init__(self, limit=LIMIT, chunk=CHUNK):
        self.limit = limit
        self.chunk = chunk
        self._queue = bytearray()
        self.dropped = 0

    def __len__(self):
        return len(self._queue)

    def write(self, data):
        """Queue ``data``; ``False`` (and counted) if the queue has no room for all of it."""
        if len(self._queue) + len(data) > self.limit:
            self.dropped += 1
            return False
        self._queue.extend(data)
        return True

    def pump(self, writable, sink):
        """Give ``sink`` the next chunk if ``writable()`` says the line can take it.

        ``sink(bytes)`` returns how many bytes it took (``None`` means all). Returns the
        number of bytes sent.
        """
        if not self._queue or not writable():
            return 0
        data = bytes(self._queue[: self.chunk])
        sent = sink(data)
        if sent is None:
            sent = len(data)
        if sent > 0:
            self._queue = self._queue[sent:]
        return sent
