"""Bounds on the companion's connections, so that a stranger can slow the pages, never the
records: a cap on connections overall and from one address (below the process's descriptor
limit, with descriptors kept back for the store, the display and the link), a deadline on a
request that is sent slowly, and errors of the event loop (accepts refused for want of
descriptors) logged once a minute with a count, never a traceback each.

>>> connection_cap(1024)
640
>>> connection_cap(65536)
1000
>>> gate = Gate(total=2, per_address=1)
>>> gate.admit("10.0.0.5"), gate.admit("10.0.0.5"), gate.admit("10.0.0.6"), gate.admit("x")
(True, False, True, False)
>>> gate.release("10.0.0.5"); gate.admit("10.0.0.7"), gate.refused
(True, 2)
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import resource
import socket
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

#: Descriptors never given to connections: the store's files and log, the display, the serial
#: link, the speech, the worker threads, and a burst of accepts closed on the next turn.
RESERVED_FDS = 384
MAX_CONNECTIONS = 1000  # connections at once, whatever the limit
PER_ADDRESS = 200  # from one address (a class behind one router shares one)
IDLE_S = 15.0  # an idle connection, or one whose request's head is not all sent, is closed
REQUEST_S = 20.0  # a request (its body read and answered) is given this long; pages exempt
LINGER_S = 1.0  # what is still sent of a body answered without it is read this long, then closed
LOG_EVERY_S = 60.0  # an error of the event loop is logged at most this often, with a count


def connection_cap(nofile: int | None = None) -> int:
    """How many connections the companion keeps at once, under the descriptor limit
    ``nofile`` (the process's soft limit if not given), the reserve kept back."""
    if nofile is None:
        nofile = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if nofile == resource.RLIM_INFINITY:
        return MAX_CONNECTIONS
    return max(16, min(MAX_CONNECTIONS, nofile - RESERVED_FDS))


class Gate:
    """Counts the connections open, overall and by address; refuses those beyond the caps."""

    def __init__(self, total: int, per_address: int = PER_ADDRESS) -> None:
        self.total = total
        self.per_address = per_address
        self.open = 0
        self.refused = 0  # connections closed at once, for a cap
        self._said = -LOG_EVERY_S  # when refusals were last logged
        self._by_address: dict[str, int] = {}

    def admit(self, address: str, now: float | None = None) -> bool:
        """Whether a new connection from ``address`` is kept (counted if so); refusals are
        logged once a minute, with how many."""
        if self.open >= self.total or self._by_address.get(address, 0) >= self.per_address:
            self.refused += 1
            now = time.monotonic() if now is None else now
            if now - self._said >= LOG_EVERY_S:
                log.warning(
                    "companion: %d connections refused so far (%d open; at most %d, %d from "
                    "one address)",
                    self.refused,
                    self.open,
                    self.total,
                    self.per_address,
                )
                self._said = now
            return False
        self.open += 1
        self._by_address[address] = self._by_address.get(address, 0) + 1
        return True

    def release(self, address: str) -> None:
        """A connection counted by :meth:`admit` has closed."""
        left = self._by_address.get(address, 0) - 1
        if left > 0:
            self._by_address[address] = left
        else:
            self._by_address.pop(address, None)
        self.open = max(0, self.open - 1)


def keep_to(server: Any, gate: Gate) -> None:
    """Make aiohttp's ``server`` (:class:`aiohttp.web.Server`) keep to ``gate``: a connection
    beyond a cap is closed as soon as it is made, before a byte is read."""
    made: Callable[[Any, asyncio.Transport], None] = server.connection_made
    lost: Callable[[Any, BaseException | None], None] = server.connection_lost
    counted: dict[int, str] = {}

    def connection_made(handler: Any, transport: asyncio.Transport) -> None:
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        made(handler, transport)
        if gate.admit(address):
            counted[id(handler)] = address
        else:  # closed once the handler has started (it expects to start)
            asyncio.get_running_loop().call_soon(transport.abort)

    def connection_lost(handler: Any, exc: BaseException | None) -> None:
        address = counted.pop(id(handler), None)
        if address is not None:
            gate.release(address)
        lost(handler, exc)

    server.connection_made = connection_made
    server.connection_lost = connection_lost


class QuietLoopErrors:
    """An event loop's exception handler that logs each kind of error at most once a
    ``every`` seconds, with how many came since, and a traceback only the first time."""

    def __init__(self, every: float = LOG_EVERY_S, clock: Callable[[], float] = time.monotonic):
        self.every = every
        self.clock = clock
        self.counts: dict[str, int] = {}
        self._said: dict[str, float] = {}
        self.lines = 0  # lines logged, for the tests and the metrics

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        message = str(context.get("message", "an error in the event loop"))
        err = context.get("exception")
        kind = f"{message}: {type(err).__name__}" if err is not None else message
        self.counts[kind] = self.counts.get(kind, 0) + 1
        now = self.clock()
        last = self._said.get(kind)
        if last is not None and now - last < self.every:
            return
        first = last is None
        self._said[kind] = now
        count = self.counts.pop(kind)
        self.lines += 1
        if first:
            log.error("companion: %s (%s)", message, err, exc_info=err if err else None)
        else:
            log.error("companion: %s (%s), %d times in the last minute", message, err, count)


def host_is_ours(host: str, address: str = "") -> bool:
    """Whether a request's ``Host`` header names this machine: an IP address, ``localhost``,
    its host name (or ``NAME.local``), or the address it was told to listen on.

    >>> host_is_ours("192.168.1.20:8080"), host_is_ours("[::1]:8080"), host_is_ours("localhost")
    (True, True, True)
    >>> host_is_ours("attacker.example:8080"), host_is_ours("")
    (False, False)
    """
    name = host.strip().lower()
    if name.startswith("["):  # [IPv6]:port
        name = name[1 : name.find("]")] if "]" in name else name[1:]
    elif name.count(":") == 1:
        name = name.split(":")[0]
    name = name.rstrip(".")
    if not name:
        return False
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        pass
    mine = socket.gethostname().lower()
    return name in ("localhost", mine, f"{mine}.local", address.lower())


async def within(seconds: float, request: Any, answer: Callable[[Any], Any]) -> Any:
    """``answer(request)`` given ``seconds`` to finish: a request whose body comes too
    slowly is answered 408 and its connection closed (``LINGER_S`` later, when the server
    is made with that ``lingering_time``)."""
    from aiohttp import web

    try:
        async with asyncio.timeout(seconds):
            return await answer(request)
    except TimeoutError:
        raise web.HTTPRequestTimeout(reason="The request took too long to arrive.") from None
