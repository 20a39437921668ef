"""Reading an untrusted file: regular files only, never more than a byte limit.

The size a file reports is not trusted (a device reports 0 and never ends):
the file is opened without blocking, checked to be a regular file, and read
up to one byte past the limit.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


class FileRefused(Exception):
    """A file that is not read; ``code`` is stable, the message says why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def read_limited(path: Path | str, limit: int) -> bytes:
    """The bytes of the regular file at ``path``; :class:`FileRefused` otherwise."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise FileRefused("file/unreadable", f"cannot read file: {exc.strerror}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            what = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
            raise FileRefused("file/not-regular", f"{what}; only regular files are read")
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 16, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise FileRefused("file/unreadable", f"cannot read file: {exc.strerror}") from None
    finally:
        os.close(fd)
    if size > limit:
        raise FileRefused("file/too-large", f"file is larger than the limit of {limit} bytes")
    return b"".join(chunks)


def is_symlink_escape(path: Path, root: Path) -> bool:
    """True if ``path`` (under ``root``) is, or passes through, a symlink leaving ``root``."""
    try:
        return not path.resolve().is_relative_to(root.resolve())
    except (OSError, RuntimeError):
        return True


def write_atomic(path: Path | str, text: str) -> None:
    """Replace ``path`` with ``text`` whole or not at all: a temporary file in the same
    folder, flushed to disk, then renamed over it. ``OSError`` if the folder is
    missing or the disk refuses; the old file is then untouched."""
    import tempfile

    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
