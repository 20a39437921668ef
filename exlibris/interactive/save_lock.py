"""One game at a time on a save: a lock held while a game uses its save file.

The lock is ``.NAME.lock`` beside the save, locked with ``flock`` and holding
the pid of the game that holds it (``safefile.Lock``: made with ``O_EXCL``, never
opened through a link, deleted only while it is still the file this game made).
The kernel lets go when that process ends, however it ends, so the lock of a game
that died is simply taken over; a second game on a save that a live game uses is
refused with that game's pid, and a file there that is not a lock of exlibris's is
refused and left as it is.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

from exlibris.interactive.record import SaveError
from exlibris.safefile import FileRefused, Lock

try:  # POSIX; elsewhere a save is not locked
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]


def lock_path(save: Path) -> Path:
    """Where the lock of ``save`` lives: ``.NAME.lock`` beside it."""
    return save.with_name(f".{save.name}.lock")


class SaveLock:
    """The lock of one save, held from :meth:`acquire` to :meth:`release`."""

    def __init__(self, save: Path) -> None:
        self.save = save
        self.path = lock_path(save)
        self.lock = Lock(self.path)

    @property
    def fd(self) -> int | None:
        return self.lock.fd

    def acquire(self) -> None:
        """Take the lock; :class:`SaveError` ``save/in-use`` if a live game holds it,
        ``save/not-a-lock`` if the lock's path holds something else."""
        if fcntl is None or self.lock.fd is not None:  # pragma: no cover
            return
        try:
            holder = self.lock.acquire()
        except FileRefused as exc:
            code = "save/not-a-lock" if exc.code == "file/not-a-lock" else "save/unwritable"
            raise SaveError(code, f"cannot lock {self.save}: {exc}") from None
        except OSError as exc:
            raise SaveError("save/unwritable", f"cannot lock {self.save}: "
                            f"{exc.strerror}") from None
        if holder is not None:
            who = f" (pid {holder})" if holder else ""
            raise SaveError("save/in-use", f"this save is in use by another game{who}; "
                            "finish or quit that game first, or choose another file "
                            "with --save")

    def release(self) -> None:
        self.lock.release()


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
