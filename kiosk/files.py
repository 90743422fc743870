"""Files that survive a power cut: written whole or not at all."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomically(path: str | os.PathLike[str], text: str) -> Path:
    """Replace ``path`` with ``text`` so that a power cut leaves the old file or the new one.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> write_atomically(folder / "a" / "b.toml", "x = 1\\n").read_text()
    'x = 1\\n'
    """
    target = Path(path).expanduser()
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}-", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
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
