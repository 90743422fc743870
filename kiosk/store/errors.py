"""What can go wrong with the records, by name: damage, or trouble that may pass.

A file SQLite says is damaged (``SQLITE_CORRUPT``, ``SQLITE_NOTADB``, an integrity check that
fails) is :class:`StoreDamagedError`: the writer moves it aside and starts again. Everything
else the machine does to the file (no descriptor left, the disk full, permission refused, a
read-only file system, an input/output error, another program holding it) is
:class:`StoreTroubleError` (:class:`StoreBusyError` for a lock): said as what it is, and the
write tried again; the file is left where it is. SQLite's extended error code is kept as
``code`` where SQLite gave one.

>>> err = from_sqlite(sqlite3.DatabaseError("file is not a database"), "cannot read x")
>>> type(err).__name__, err.transient
('StoreDamagedError', False)
"""

from __future__ import annotations

import errno
import os
import sqlite3
from pathlib import Path

from kiosk.errors import TableError

_DAMAGED = {sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB}
_BUSY = {sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED}
_TROUBLE = {
    sqlite3.SQLITE_CANTOPEN,
    sqlite3.SQLITE_IOERR,
    sqlite3.SQLITE_FULL,
    sqlite3.SQLITE_READONLY,
    sqlite3.SQLITE_PERM,
    sqlite3.SQLITE_NOMEM,
    sqlite3.SQLITE_AUTH,
    sqlite3.SQLITE_PROTOCOL,
}

#: Words for the operating system's errors that stop the records being used for a while.
OS_WORDS = {
    errno.EMFILE: "the table has too many open files (too many connections at once)",
    errno.ENFILE: "the system has too many open files",
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EACCES: "permission to the records file is refused",
    errno.EPERM: "permission to the records file is refused",
    errno.EROFS: "the records are on a read-only file system",
    errno.EIO: "the disk cannot be read or written (an input/output error)",
    errno.ENOMEM: "the system is out of memory",
}


class StoreError(TableError, ValueError):
    """The records cannot be read or written as asked (the message says why, in words).

    ``code`` is SQLite's extended error code when SQLite gave one; ``transient`` whether the
    same request may succeed later with the file left as it is.
    """

    transient = False

    def __init__(self, message: str, *, code: int | None = None) -> None:
        super().__init__(message)
        self.code = code


class StoreDamagedError(StoreError):
    """SQLite says the records file is damaged (or it is not an SQLite file at all)."""


class StoreTroubleError(StoreError):
    """The records cannot be used now for a reason that may pass; the file is not damaged."""

    transient = True


class StoreBusyError(StoreTroubleError):
    """Another program (or connection) holds the records file."""


def os_words(err: OSError) -> str:
    """An operating-system error in the table's words."""
    return OS_WORDS.get(err.errno or 0, err.strerror or str(err))


def from_os(err: OSError, words: str) -> StoreError:
    """An :class:`OSError` met while using the records, as the store's error."""
    return StoreTroubleError(f"{words}: {os_words(err)}")


def from_sqlite(err: sqlite3.Error, words: str, path: Path | None = None) -> StoreError:
    """``err`` as one of the store's errors, ``words`` first; SQLite's code kept. A file
    SQLite cannot open is asked of the system again, to name why (descriptors, permission)."""
    code: int | None = getattr(err, "sqlite_errorcode", None)
    text = str(err)
    lowered = text.lower()
    primary = code & 0xFF if code is not None else None
    if primary in _DAMAGED or (
        primary is None and ("malformed" in lowered or "not a database" in lowered)
    ):
        return StoreDamagedError(f"{words}: {text}", code=code)
    if primary in _BUSY or (primary is None and ("locked" in lowered or "busy" in lowered)):
        return StoreBusyError(f"{words}: the file is held by another program ({text})", code=code)
    if primary == sqlite3.SQLITE_CANTOPEN and path is not None:
        why = _why_not_open(path)
        if why:
            return StoreTroubleError(f"{words}: {why} ({text})", code=code)
    if primary in _TROUBLE or isinstance(err, sqlite3.ProgrammingError):
        return StoreTroubleError(f"{words}: {text}", code=code)
    return StoreError(f"{words}: {text}", code=code)


def _why_not_open(path: Path) -> str | None:
    """Why the system will not open ``path`` now, in words (``None`` if it will)."""
    try:
        fd = os.open(path, os.O_RDWR)
    except OSError as err:
        return os_words(err)
    os.close(fd)
    return None
