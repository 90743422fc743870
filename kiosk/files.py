"""The kiosk's own files: read through one guarded path, written whole or not at all.

Every file the kiosk reads (configuration, calibration, commissioning, lessons) goes
through :func:`read_toml`: whatever the bytes are, the answer is the data or one
:class:`FileProblem` line naming the file and saying why, never another exception.
Writes go through :func:`write_atomically`: a power cut leaves the old file or the new
one, and a write that was killed half-way leaves no temporary file behind for long.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> bad = folder / "bad.toml"
>>> _ = bad.write_bytes(b'x = "\\\\u0000"\\n')
>>> try:
...     read_toml(bad, "bad.toml")
... except FileProblem as err:
...     print(err)
bad.toml: x: holds a control character (U+0000)
"""

from __future__ import annotations

import os
import re
import tempfile
import tomllib
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from kiosk.errors import TableError

MAX_BYTES = 1 << 20  # the kiosk's files are a few KB; a larger one is not one of them
MAX_DEPTH = 16  # tables and arrays nested deeper than this are no file the kiosk wrote
_ALLOWED_CONTROLS = "\t\n\r"


class FileProblem(TableError, ValueError):
    """A file that cannot be used: one line naming the file and saying why."""


def control_character(text: str, allowed: str = _ALLOWED_CONTROLS) -> str | None:
    """The first control character in ``text`` (other than ``allowed``), or ``None``.

    >>> control_character("port\\x00"), control_character("two\\nlines")
    ('\\x00', None)
    """
    for char in text:
        if char not in allowed and unicodedata.category(char) == "Cc":
            return char
    return None


def shorten(text: str, limit: int) -> str:
    """``text`` as an error quotes it: cut to ``limit`` characters, the last three ``...``.

    >>> shorten("short", 10), shorten("just fits!", 10)
    ('short', 'just fits!')
    >>> shorten("a rather long line", 10) == "a rathe" + "." * 3  # the dots count in the limit
    True
    """
    return text if len(text) <= limit else text[: limit - 3] + "..."


def read_text(path: str | os.PathLike[str], name: str | None = None) -> str:
    """The file's UTF-8 text; :class:`FileProblem` for anything that is not such a file.

    A missing file raises ``FileNotFoundError`` (the caller decides what that means).
    """
    source = Path(path).expanduser()
    label = name or str(source)
    try:
        with open(source, "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise
    except IsADirectoryError:
        raise FileProblem(f"{label}: is a folder, not a file") from None
    except OSError as err:
        raise FileProblem(f"{label}: cannot be read ({err.strerror or err})") from None
    if len(data) > MAX_BYTES:
        raise FileProblem(f"{label}: is larger than {MAX_BYTES // 1024} KB, so it is damaged")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise FileProblem(
            f"{label}: is not UTF-8 text (byte 0x{data[err.start]:02x} at offset {err.start})"
        ) from None
    bad = control_character(text)
    if bad is not None:
        line = text.count("\n", 0, text.index(bad)) + 1
        raise FileProblem(f"{label}: holds a control character (U+{ord(bad):04X}) on line {line}")
    return text


def read_toml(path: str | os.PathLike[str], name: str | None = None) -> dict[str, Any]:
    """The file's TOML data, every string free of control characters (tab and line ends
    allowed) and nothing nested deeper than ``MAX_DEPTH``; else :class:`FileProblem`.

    A missing file raises ``FileNotFoundError``.
    """
    label = name or str(Path(path).expanduser())
    return parse_toml(read_text(path, label), label)


def parse_toml(text: str, name: str) -> dict[str, Any]:
    """TOML text checked as :func:`read_toml` checks a file (``name`` labels the errors)."""
    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise FileProblem(f"{name}: is nested too deeply to be read") from None
    except tomllib.TOMLDecodeError as err:
        raise FileProblem(f"{name}: is not valid TOML ({err})") from None
    for where, value, depth in _walk(data):
        if depth > MAX_DEPTH:
            raise FileProblem(f"{name}: {where}: is nested more than {MAX_DEPTH} deep")
        if isinstance(value, str):
            bad = control_character(value)
            if bad is not None:
                raise FileProblem(f"{name}: {where}: holds a control character (U+{ord(bad):04X})")
    return data


def _walk(data: dict[str, Any]) -> Iterator[tuple[str, Any, int]]:
    """Every value (keys too) under ``data`` with its dotted place and depth, without recursion."""
    pending: list[tuple[str, Any, int]] = [("", data, 0)]
    while pending:
        where, value, depth = pending.pop()
        yield where or "(top)", value, depth
        if depth > MAX_DEPTH:
            continue
        if isinstance(value, dict):
            for key, inner in value.items():
                place = f"{where}.{key}" if where else str(key)
                yield place, str(key), depth + 1
                pending.append((place, inner, depth + 1))
        elif isinstance(value, list):
            pending.extend((f"{where}[{i}]", inner, depth + 1) for i, inner in enumerate(value))


_STRAY = re.compile(r"\.(?P<name>.+)\.(?P<pid>\d+)-[^.]+\.tmp")


def sweep_strays(path: str | os.PathLike[str]) -> int:
    """Remove the temporary files that writes of ``path`` killed half-way left; how many.

    Each temporary file names the process that wrote it; only those of processes that
    are gone are removed (a write going on elsewhere keeps its own).
    """
    target = Path(path).expanduser()
    removed = 0
    try:
        candidates = list(target.parent.glob(f".{target.name}.*.tmp"))
    except OSError:
        return 0
    for stray in candidates:
        match = _STRAY.fullmatch(stray.name)
        if match is None or match["name"] != target.name:
            continue
        pid = int(match["pid"])
        if pid == os.getpid() or _alive(pid):
            continue
        try:
            stray.unlink()
            removed += 1
        except OSError:
            continue
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def write_atomically(path: str | os.PathLike[str], text: str, mode: int = 0o600) -> Path:
    """Replace ``path`` with ``text`` so that a power cut leaves the old file or the new one.

    The new file has ``mode`` (private to the kiosk's user unless asked), whatever the old
    one had. Temporary files left by earlier writes that were killed are removed.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> target = write_atomically(folder / "a" / "b.toml", "x = 1\\n")
    >>> target.read_text(), oct(target.stat().st_mode & 0o777)
    ('x = 1\\n', '0o600')
    """
    target = Path(path).expanduser()
    target.parent.mkdir(parents=True, exist_ok=True)
    sweep_strays(target)
    fd, tmp = tempfile.mkstemp(
        prefix=f".{target.name}.{os.getpid()}-", suffix=".tmp", dir=target.parent
    )
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            os.fchmod(out.fileno(), mode)
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    try:  # the rename itself must reach the disk too
        dir_fd = os.open(target.parent, os.O_RDONLY)
    except OSError:
        return target
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)
    return target


def keep_private(path: str | os.PathLike[str]) -> bool:
    """Make a file of this user's that others may read (it may hold a PIN) ``0600``;
    whether its mode was changed."""
    target = Path(path).expanduser()
    try:
        info = target.stat()
        if info.st_uid != os.geteuid() or not info.st_mode & 0o077:
            return False
        target.chmod(info.st_mode & 0o700 | 0o600)
    except OSError:
        return False
    return True
