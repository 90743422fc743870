"""The companion's guards: sessions, CSRF tokens, the teacher's PIN, join codes, vote limits
and the address list for the health page. Every clock here is the caller's (seconds).

A wrong PIN is counted per address and in total: three wrong from one address (ten from
all together) and no PIN is tried for 30 seconds, doubling with each further wrong one up
to 15 minutes, as for the installer's PIN at the table.

>>> guard = PinGuard("2468")
>>> [guard.check("1111", "10.0.0.5", now=0) for _ in range(3)]
[(False, 0), (False, 0), (False, 30)]
>>> guard.check("2468", "10.0.0.5", now=10)
(False, 20)
>>> guard.check("2468", "10.0.0.5", now=31)
(True, 0)
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import cast

from kiosk.companion.validate import JOIN_ALPHABET, JOIN_LENGTH
from kiosk.config import PIN_FIRST_WAIT_S, PIN_FREE_TRIES, PIN_LONGEST_WAIT_S

FREE_TRIES_TOTAL = 10  # wrong PINs from all addresses together before the wait
TEACHER_IDLE_S = 3 * 60 * 60  # a teacher's session ends after three hours unused
VISITOR_IDLE_S = 30 * 60
MAX_SESSIONS = 400  # the oldest visitors' sessions go first beyond this
COOKIE = "bgtable"


@dataclass
class Session:
    """One browser: a visitor (who may log in or join), the teacher, or a student."""

    id: str
    csrf: str
    role: str  # visitor, teacher, student
    seen: float
    name: str = ""  # a student's name
    class_id: str = ""  # the class a student joined
    device: str = field(default_factory=lambda: secrets.token_hex(4))  # a student's number


class Sessions:
    """The server's sessions by cookie; ids and CSRF tokens are 256-bit random."""

    def __init__(self) -> None:
        self._by_id: OrderedDict[str, Session] = OrderedDict()

    def new(self, role: str, now: float, **fields: str) -> Session:
        """A fresh session (a new id: a login or a join never keeps the visitor's)."""
        session = Session(secrets.token_urlsafe(32), secrets.token_urlsafe(32), role, now)
        for key, value in fields.items():
            setattr(session, key, value)
        self._by_id[session.id] = session
        while len(self._by_id) > MAX_SESSIONS:
            oldest = next(
                (k for k, s in self._by_id.items() if s.role == "visitor"),
                next(iter(self._by_id)),
            )
            del self._by_id[oldest]
        return session

    def get(self, cookie: str | None, now: float) -> Session | None:
        """The live session of a cookie, if any (an idle one has ended)."""
        if not cookie:
            return None
        session = self._by_id.get(cookie)
        if session is None:
            return None
        idle = TEACHER_IDLE_S if session.role != "visitor" else VISITOR_IDLE_S
        if now - session.seen > idle:
            del self._by_id[cookie]
            return None
        session.seen = now
        self._by_id.move_to_end(cookie)
        return session

    def end(self, session: Session) -> None:
        """Log out: the cookie means nothing any more."""
        self._by_id.pop(session.id, None)

    def end_students(self) -> int:
        """The class is over: every student's session ends; how many did."""
        gone = [k for k, s in self._by_id.items() if s.role == "student"]
        for key in gone:
            del self._by_id[key]
        return len(gone)

    def count(self, role: str) -> int:
        """How many sessions have ``role``."""
        return sum(1 for s in self._by_id.values() if s.role == role)


def csrf_ok(session: Session | None, token: str | None) -> bool:
    """Whether a request's CSRF token is its session's (compared in constant time)."""
    if session is None or not token:
        return False
    return hmac.compare_digest(session.csrf.encode(), token.encode())


class _Backoff:
    def __init__(self, free: int) -> None:
        self.free = free
        self.failures = 0
        self.until = 0.0

    def wait(self, now: float) -> int:
        return max(0, int(-(-(self.until - now) // 1)))

    def wrong(self, now: float) -> int:
        self.failures += 1
        if self.failures < self.free:
            return 0
        wait = min(PIN_FIRST_WAIT_S * 2 ** (self.failures - self.free), PIN_LONGEST_WAIT_S)
        self.until = now + wait
        return cast("int", wait)


class PinGuard:
    """The teacher's PIN with an attempt limit and a growing wait (see the module)."""

    def __init__(self, pin: str) -> None:
        self._pin = pin
        self._by_address: dict[str, _Backoff] = {}
        self._total = _Backoff(FREE_TRIES_TOTAL)

    def check(self, attempt: str, address: str, now: float) -> tuple[bool, int]:
        """Whether ``attempt`` is the PIN, and the seconds before another try may be made
        (while a wait runs, no PIN is even compared)."""
        mine = self._by_address.setdefault(address, _Backoff(PIN_FREE_TRIES))
        wait = max(mine.wait(now), self._total.wait(now))
        if wait:
            return False, wait
        if self._pin and hmac.compare_digest(attempt.encode(), self._pin.encode()):
            mine.failures = 0
            return True, 0
        if len(self._by_address) > 1000:  # an address sweep: keep the total's count only
            self._by_address.clear()
        return False, max(mine.wrong(now), self._total.wrong(now))


class JoinCodes:
    """The class's join code: made when the class opens, good for ``minutes`` or until the
    class ends (whichever comes first)."""

    def __init__(self, minutes: int) -> None:
        self.minutes = minutes
        self.code = ""
        self.class_id = ""
        self.until = 0.0

    def open(self, now: float) -> str:
        """A new class (students of an earlier one are out) with a fresh code."""
        self.class_id = secrets.token_hex(6)
        return self.renew(now)

    def renew(self, now: float) -> str:
        """A fresh code for the same class (the old one no longer lets anyone in)."""
        self.code = "".join(secrets.choice(JOIN_ALPHABET) for _ in range(JOIN_LENGTH))
        self.until = now + self.minutes * 60
        return self.code

    def close(self) -> None:
        """The class is over: no code lets anyone in."""
        self.code, self.class_id, self.until = "", "", 0.0

    def valid(self, code: str, now: float) -> bool:
        """Whether ``code`` lets a student in now."""
        if not self.code or now >= self.until:
            return False
        return hmac.compare_digest(code.encode(), self.code.encode())

    def shown(self, now: float) -> tuple[str, int]:
        """The code to show and the minutes it is still good for ("" when none is)."""
        if not self.code or now >= self.until:
            return "", 0
        return self.code, int(-(-(self.until - now) // 60))


class RateLimit:
    """A token bucket per key: ``burst`` at once, then one every ``every`` seconds."""

    def __init__(self, burst: int, every: float) -> None:
        self.burst = burst
        self.every = every
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def allow(self, key: str, now: float) -> bool:
        """Whether one more action by ``key`` is allowed now (it is counted if so)."""
        tokens, then = self._buckets.get(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) / self.every)
        ok = tokens >= 1.0
        self._buckets[key] = (tokens - 1.0 if ok else tokens, now)
        self._buckets.move_to_end(key)
        while len(self._buckets) > 2000:
            self._buckets.popitem(last=False)
        return ok


class AllowList:
    """The addresses that may read the health page and the metrics ("" : all of them).

    >>> allow = AllowList("127.0.0.1, 192.168.1.0/24")
    >>> allow.permits("192.168.1.40"), allow.permits("10.0.0.1"), AllowList("").permits("::1")
    (True, False, True)
    """

    def __init__(self, text: str) -> None:
        self.networks = [
            ipaddress.ip_network(part.strip(), strict=False)
            for part in text.split(",")
            if part.strip()
        ]

    def permits(self, address: str | None) -> bool:
        """Whether ``address`` may read them."""
        if not self.networks:
            return True
        try:
            ip = ipaddress.ip_address((address or "").split("%")[0])
        except ValueError:
            return False
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        return any(ip.version == n.version and ip in n for n in self.networks)
