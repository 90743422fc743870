"""The companion's guards: sessions, CSRF tokens, the teacher's PIN, join codes, vote limits
and the address list for the health page. Every clock here is the caller's (seconds).

A wrong PIN is counted per address and in total: three wrong from one address (ten from
all together) and no PIN is tried for 30 seconds, doubling with each further wrong one up
to 15 minutes, as for the installer's PIN at the table. Each count forgets one wrong PIN an
hour (``FORGIVE_S``), so a month of a student's occasional typos never locks the teacher
out; the total and the wait it runs are kept in the records, so a restart does not undo
them.

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
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any, cast

from kiosk.companion.validate import JOIN_ALPHABET, JOIN_LENGTH
from kiosk.config import PIN_FIRST_WAIT_S, PIN_FREE_TRIES, PIN_LONGEST_WAIT_S

log = logging.getLogger(__name__)

FREE_TRIES_TOTAL = 10  # wrong PINs from all addresses together before the wait
FORGIVE_S = 3600.0  # each count of wrong PINs forgets one this often
MAX_STUDENTS = 150  # students of one class at once: beyond, the one unseen longest goes
KEPT_FAILURES = "teacher_pin_failures"  # the records' keys for the total of wrong PINs
KEPT_UNTIL = "teacher_pin_wait_until"  # and for when its wait ends (seconds since 1970)
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

    def new(self, role: str, now: float, *, busy: Collection[str] = (), **fields: str) -> Session:
        """A fresh session (a new id: a login or a join never keeps the visitor's). Beyond
        ``MAX_SESSIONS`` (or ``MAX_STUDENTS`` in one class) the visitor, else the student,
        unseen longest goes; never the teacher, nor a session in ``busy`` (ids with a page
        open), so joins cannot evict the teacher or keep new students out."""
        session = Session(secrets.token_urlsafe(32), secrets.token_urlsafe(32), role, now)
        for key, value in fields.items():
            setattr(session, key, value)
        if role == "student":
            classmates = [
                k
                for k, s in self._by_id.items()
                if s.role == "student" and s.class_id == session.class_id
            ]
            if len(classmates) >= MAX_STUDENTS:
                self._evict("student", busy, among=classmates)
        self._by_id[session.id] = session
        while len(self._by_id) > MAX_SESSIONS:
            if not (self._evict("visitor", busy) or self._evict("student", busy)):
                break  # only the teacher and pages in use: kept, over the count
        return session

    def _evict(self, role: str, busy: Collection[str], among: list[str] | None = None) -> bool:
        """End the session of ``role`` unseen longest (not one in ``busy``); whether one did."""
        candidates = among if among is not None else list(self._by_id)
        for key in candidates:  # oldest first: every use moves a session to the end
            found = self._by_id.get(key)
            if found is not None and found.role == role and key not in busy:
                del self._by_id[key]
                return True
        return False

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

    def devices(self, role: str) -> set[str]:
        """The devices of the sessions that have ``role``."""
        return {s.device for s in self._by_id.values() if s.role == role}


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
        self.since: float | None = None  # when the count last forgot one (or grew)

    def wait(self, now: float) -> int:
        return max(0, int(-(-(self.until - now) // 1)))

    def forgive(self, now: float) -> None:
        """Forget one wrong PIN for each ``FORGIVE_S`` since the count last changed."""
        if self.since is None or not self.failures:
            self.since = now
            return
        hours = int((now - self.since) // FORGIVE_S)
        if hours > 0:
            self.failures = max(0, self.failures - hours)
            self.since += hours * FORGIVE_S

    def wrong(self, now: float) -> int:
        self.forgive(now)
        self.failures += 1
        self.since = now
        if self.failures < self.free:
            return 0
        wait = min(PIN_FIRST_WAIT_S * 2 ** (self.failures - self.free), PIN_LONGEST_WAIT_S)
        self.until = now + wait
        return cast("int", wait)


class PinGuard:
    """The teacher's PIN with an attempt limit and a growing wait (see the module).

    ``kept`` is the total of wrong PINs and the seconds left of its wait as the records
    kept them; ``keep(total, seconds_left)`` is called whenever they change."""

    def __init__(
        self,
        pin: str,
        *,
        kept: tuple[int, float] = (0, 0.0),
        keep: Callable[[int, float], None] | None = None,
        now: float = 0.0,
    ) -> None:
        self._pin = pin
        self._by_address: dict[str, _Backoff] = {}
        self._total = _Backoff(FREE_TRIES_TOTAL)
        self._total.failures = max(0, int(kept[0]))
        self._total.until = now + min(max(0.0, kept[1]), float(PIN_LONGEST_WAIT_S))
        self._total.since = now
        self._keep = keep

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
        wait = max(mine.wrong(now), self._total.wrong(now))
        if self._keep is not None:
            self._keep(self._total.failures, float(self._total.wait(now)))
        return False, wait

    @property
    def total(self) -> int:
        """Wrong PINs counted from all addresses together (as forgiven so far)."""
        return self._total.failures


def kept_pin(store: Any) -> tuple[int, float]:
    """The teacher's PIN's total of wrong tries and the seconds left of its wait, as the
    records keep them (none if they cannot be read)."""
    if store is None:
        return 0, 0.0
    try:
        failures = int(store.pin_failures(KEPT_FAILURES))
        until = int(store.pin_failures(KEPT_UNTIL))
    except Exception as err:  # the records say what is wrong in words
        log.error("companion: the teacher's PIN's wrong tries cannot be read: %s", err)
        return 0, 0.0
    return failures, max(0.0, until - time.time())


def keep_pin(store: Any) -> Callable[[int, float], None] | None:
    """What keeps the teacher's PIN's total and wait in the records (None without them)."""
    if store is None:
        return None

    def keep(failures: int, wait: float) -> None:
        try:
            store.save_pin_failures(failures, KEPT_FAILURES)
            store.save_pin_failures(int(time.time() + wait) if wait else 0, KEPT_UNTIL)
        except Exception as err:  # the records say what is wrong in words
            log.error("companion: the teacher's PIN's wrong tries cannot be kept: %s", err)

    return keep


def pin_problem(teacher_pin: str, installer_pin: str) -> str | None:
    """What is wrong with the teacher's PIN beside the installer's, in words, if anything."""
    if teacher_pin and teacher_pin == installer_pin:
        return (
            "the teacher's PIN ([companion] teacher_pin) is the installer's PIN: whoever "
            "teaches could then change the table's settings; give it 6 to 8 digits of its own"
        )
    return None


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
    """The addresses that may read the health page and the metrics ("": this machine only;
    they name the serial port, the paths and the firmware).

    >>> allow = AllowList("127.0.0.1, 192.168.1.0/24")
    >>> allow.permits("192.168.1.40"), allow.permits("10.0.0.1"), AllowList("").permits("::1")
    (True, False, True)
    >>> AllowList("").permits("192.168.1.40")
    False
    """

    def __init__(self, text: str) -> None:
        self.networks = [
            ipaddress.ip_network(part.strip(), strict=False)
            for part in text.split(",")
            if part.strip()
        ]

    def permits(self, address: str | None) -> bool:
        """Whether ``address`` may read them."""
        try:
            ip = ipaddress.ip_address((address or "").split("%")[0])
        except ValueError:
            return False
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        if not self.networks:
            return ip.is_loopback
        return any(ip.version == n.version and ip in n for n in self.networks)
