"""One game at a time on a save: a lock held while a game uses its save file.

The lock is ``.NAME.lock`` beside the save, locked with ``flock`` and holding
the pid of the game that holds it. The kernel lets go when that process ends,
however it ends, so the lock of a game that died is simply taken over; a
second game on a save that a live game uses is refused with that game's pid.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from exlibris.interactive.record import SaveError

try:  # POSIX; elsewhere a save is not locked
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]


def lock_path(save: Path) -> Path:
    """Where the lock of ``save`` lives (beside the file a symlink leads to)."""
    real = Path(os.path.realpath(save))
    return real.with_name(f".{real.name}.lock")


class SaveLock:
    """The lock of one save, held from :meth:`acquire` to :meth:`release`."""

    def __init__(self, save: Path) -> None:
        self.save = save
        self.path = lock_path(save)
        self.fd: int | None = None

    def acquire(self) -> None:
        """Take the lock; :class:`SaveError` ``save/in-use`` if a live game holds it."""
        if fcntl is None or self.fd is not None:  # pragma: no cover
            return
        for _ in range(5):  # the holder may remove the file between open and lock
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0),
                             0o644)
            except OSError as exc:
                raise SaveError("save/unwritable", f"cannot lock {self.save}: "
                                f"{exc.strerror}") from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                pid = _pid_in(fd)
                os.close(fd)
                who = f" (pid {pid})" if pid else ""
                raise SaveError("save/in-use", f"this save is in use by another game{who}; "
                                "finish or quit that game first, or choose another file "
                                "with --save") from None
            if _same_file(fd, self.path):
                os.ftruncate(fd, 0)
                os.write(fd, f"{os.getpid()}\n".encode())
                self.fd = fd
                return
            os.close(fd)  # locked a file its holder had just removed: again
        raise SaveError("save/in-use", "this save is in use by another game")  # pragma: no cover

    def release(self) -> None:
        if self.fd is None:
            return
        with contextlib.suppress(OSError):
            self.path.unlink()
        os.close(self.fd)
        self.fd = None


@contextlib.contextmanager
def holding(save: Path | None) -> Iterator[SaveLock | None]:
    """``with holding(path):`` the save at ``path`` is locked inside (None: nothing)."""
    if save is None:
        yield None
        return
    lock = SaveLock(save)
    lock.acquire()
    try:
        yield lock
    finally:
        lock.release()


def _pid_in(fd: int) -> int | None:
    with contextlib.suppress(OSError, ValueError):
        text = os.pread(fd, 32, 0).decode("ascii").strip()
        return int(text) if text.isdigit() else None
    return None


def _same_file(fd: int, path: Path) -> bool:
    try:
        mine, there = os.fstat(fd), os.stat(path)
    except OSError:
        return False
    return (mine.st_dev, mine.st_ino) == (there.st_dev, there.st_ino)
