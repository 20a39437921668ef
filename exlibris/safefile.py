"""Reading an untrusted file, and writing an output file without losing one.

Reading: regular files only, never more than a byte limit. The size a file
reports is not trusted (a device reports 0 and never ends): the file is opened
without blocking, checked to be a regular file, and read up to one byte past the
limit.

Writing: this module is the one way the package writes, renames or deletes a
file (``tests/test_one_writer.py`` checks it). A regular file (or a new one) is
replaced atomically (a temporary file in the same folder, fsync, rename, the
folder fsynced), so a full disk or a kill leaves the old file whole; a character
device or a pipe (``/dev/stdout``) is written directly, never truncated or renamed
over. Nothing is written through a symbolic link, renamed over anything but a
regular file, truncated or deleted unless the program made it; lock files are
made with ``O_EXCL`` and opened with ``O_NOFOLLOW`` (:class:`Lock`). Every
failure is one :class:`FileRefused` saying why.
"""

from __future__ import annotations

import contextlib
import errno
import glob
import os
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

MAX_NAME_BYTES = 255  # one file name (the common file systems' limit)
MAX_PATH_BYTES = 4_096  # a whole path (Linux's PATH_MAX)


class FileRefused(Exception):
    """A file that is not read; ``code`` is stable, the message says why."""

    def __init__(self, code: str, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.reason = reason or message  # the message without the file's name


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


def name_problem(path: Path | str) -> str | None:
    """Why ``path`` cannot name a file on any common file system (None: it can): a
    NUL character, a name longer than ``MAX_NAME_BYTES``, a path longer than
    ``MAX_PATH_BYTES``."""
    text = str(path)
    if "\0" in text:
        return "a file name cannot hold a NUL character"
    if len(os.fsencode(text)) > MAX_PATH_BYTES:
        return f"the path is longer than {MAX_PATH_BYTES} bytes"
    if any(len(os.fsencode(part)) > MAX_NAME_BYTES for part in Path(text).parts):
        return f"a name in the path is longer than {MAX_NAME_BYTES} bytes"
    return None


LINK_REFUSED = ("it is a symbolic link, and exlibris never writes through a link (nor "
                "replaces one): name the file itself, or remove the link")


def output_problem(path: Path | str) -> str | None:
    """Why ``path`` cannot be written as an output file (None: it can be tried): its
    folder is missing or not a folder, the name is too long, it is a folder, a
    symbolic link (to anything but a character device or a pipe), or a file that is
    neither regular, a character device nor a pipe."""
    path = Path(path)
    problem = name_problem(path)
    if problem is not None:
        return problem
    folder = path.parent
    try:
        if not folder.is_dir():
            return (f"the folder {shown_path(folder)} is not a folder" if folder.exists()
                    else f"the folder {shown_path(folder)} does not exist; create it first")
        return _kind_problem(path)
    except (OSError, ValueError) as exc:
        return f"cannot use this path: {getattr(exc, 'strerror', None) or exc}"


def _kind_problem(path: Path) -> str | None:
    """Why the file now at ``path`` may not be written (None: absent, a regular
    file, or a stream: a character device or a pipe, even through a link)."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(info.st_mode):
        return None if _stream(path) else LINK_REFUSED
    if _own_stream(path):
        return None
    if stat.S_ISDIR(info.st_mode):
        return "it is a folder"
    if stat.S_ISREG(info.st_mode) or _is_stream(info.st_mode):
        return None
    return "it is not a regular file (a socket or a block device), and is left alone"


def _is_stream(mode: int) -> bool:
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)


def _stream(path: Path | str) -> bool:
    """Whether ``path`` leads (through links) to a character device or a pipe, or is
    one of this process's own open files (``/dev/stdout``, ``/dev/fd/N``)."""
    try:
        return _is_stream(os.stat(path).st_mode) or _own_stream(path)
    except OSError:
        return False


_OWN_STREAMS = ("/dev/stdin", "/dev/stdout", "/dev/stderr")


def _own_stream(path: Path | str) -> bool:
    """``/dev/stdout``, ``/dev/stderr`` or ``/dev/fd/N`` (``/proc/self/fd/N``): a file
    this process already has open, which the shell made (``> out.txt``): written
    after what it holds, never created, truncated or replaced."""
    text = str(path)
    return text in _OWN_STREAMS or text.startswith(("/dev/fd/", "/proc/self/fd/"))


def write_output(path: Path | str, text: str | bytes) -> None:
    """The one way exlibris writes an output file: ``text`` to ``path``, atomically
    for a regular or new file (:func:`write_atomic`), directly for a character
    device or a pipe (``/dev/stdout``, never truncated, never renamed over); a
    symbolic link to anything else is refused. Raises :class:`FileRefused`
    (``file/unwritable``) with the reason."""
    problem = output_problem(path)
    try:
        if problem is not None:
            raise FileRefused("file/unwritable", problem)
        if _stream(path):
            _write_stream(path, text)
        else:
            write_atomic(Path(path), text)
    except FileRefused as exc:
        raise FileRefused("file/unwritable", f"cannot write {shown_path(path)}: {exc}",
                          str(exc)) from None
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise FileRefused("file/unwritable", f"cannot write {shown_path(path)}: {reason}",
                          reason) from None


def _write_stream(path: Path | str, text: str | bytes) -> None:
    """Write to a character device or a pipe: opened without creating or truncating,
    and without waiting for a reader; whatever is opened must be a stream still."""
    own = _own_stream(path)  # a regular file the shell opened: added to, at its end
    if own:
        for stream in (sys.stdout, sys.stderr):  # what was printed before comes first
            with contextlib.suppress(Exception):
                stream.flush()
    flags = os.O_WRONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | _CLOEXEC \
        | (os.O_APPEND if own else 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise FileRefused("file/unwritable", "it is a pipe that no program reads") from None
        raise
    try:
        mode = os.fstat(fd).st_mode
        if not (_is_stream(mode) or (own and stat.S_ISREG(mode))):
            raise FileRefused("file/unwritable", "it changed while it was opened")
        os.set_blocking(fd, True)
        data = text.encode("utf-8") if isinstance(text, str) else text
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


def write_atomic(path: Path, text: str | bytes) -> None:
    """Replace ``path`` with ``text``, never leaving a half-written file (raises
    ``OSError``, or :class:`FileRefused` for a link or a file that is not regular;
    :func:`write_output` says either as a :class:`FileRefused`).

    Only a regular file, or no file, is ever replaced: never a link (nor what it
    leads to), a folder, a device or a pipe. An existing file keeps its mode, the
    folder is fsynced after the rename, and temporary files left by an earlier
    write that was killed are removed. The folder must exist.
    """
    data = text.encode("utf-8") if isinstance(text, str) else text

    def fill(tmp: Path) -> None:
        with open(tmp, "r+b") as out:
            out.write(data)

    with replacing(Path(path)) as tmp:
        fill(tmp)


@contextlib.contextmanager
def replacing(path: Path) -> Iterator[Path]:
    """``with replacing(path) as tmp:`` write the new file at ``tmp`` (a new, empty,
    private temporary file beside ``path``); when the block ends without an error it
    is fsynced and renamed over ``path``, which must then be a regular file or
    absent (:class:`FileRefused` otherwise); on any error it is removed."""
    path = Path(path)
    problem = _replace_problem(path)
    if problem is not None:
        raise FileRefused("file/unwritable", problem)
    _remove_stale_temps(path)
    try:
        mode = stat.S_IMODE(os.lstat(path).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    import tempfile  # (with shutil, bz2 and lzma: only when a file is written)

    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        fd = os.open(tmp, os.O_RDWR | _NOFOLLOW | _CLOEXEC)
        try:
            os.fchmod(fd, mode)
            os.fsync(fd)
        finally:
            os.close(fd)
        problem = _replace_problem(path)
        if problem is not None:
            raise FileRefused("file/unwritable", problem)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fsync_folder(path.parent)


def _replace_problem(path: Path) -> str | None:
    """Why ``path`` may not be renamed over (None: absent or a regular file)."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    if stat.S_ISREG(info.st_mode):
        return None
    if stat.S_ISLNK(info.st_mode):
        return LINK_REFUSED
    return ("it is a folder" if stat.S_ISDIR(info.st_mode)
            else "it is not a regular file, and only a regular file is replaced")


def open_append(path: Path, *, truncate: bool = False) -> BinaryIO:
    """``path`` opened to add to (created if absent; with ``truncate``, emptied first:
    only for a file the caller checked is its own), binary, read and write. Never
    through a link; only a regular file (:class:`FileRefused` otherwise)."""
    problem = name_problem(path)
    if problem is not None:
        raise FileRefused("file/unwritable", problem)
    flags = os.O_RDWR | os.O_CREAT | os.O_APPEND | _NOFOLLOW | os.O_NONBLOCK | _CLOEXEC
    try:
        fd = os.open(path, flags, 0o666)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise FileRefused("file/unwritable", LINK_REFUSED) from None
        raise
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise FileRefused("file/unwritable", "it is not a regular file, and is left alone")
        os.set_blocking(fd, True)
        if truncate:
            os.ftruncate(fd, 0)
        return os.fdopen(fd, "a+b")
    except BaseException:
        os.close(fd)
        raise


def create_new(path: Path) -> bool:
    """Create the empty file ``path`` unless anything (a link included) is there;
    True if this call made it."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o600)
    except FileExistsError:
        return False
    os.close(fd)
    return True


def remove_file(path: Path) -> bool:
    """Delete ``path`` if it is a regular file (never a link, a folder or anything
    else); True if it was deleted. Callers delete only files the program made."""
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return False
        os.unlink(path)
    except OSError:
        return False
    return True


def move_no_clobber(source: Path, target: Path) -> bool:
    """Rename the regular file ``source`` to ``target`` unless anything is at
    ``target``; True if moved. Nothing is ever overwritten."""
    if os.path.lexists(target) or not stat.S_ISREG(os.lstat(source).st_mode):
        return False
    try:
        os.link(source, target, follow_symlinks=False)  # fails if target exists
    except FileExistsError:
        return False
    except OSError:  # a filesystem without hard links: a rename, checked just before
        if os.path.lexists(target):
            return False
        os.rename(source, target)
        return True
    os.unlink(source)
    return True


class Lock:
    """A lock file this process made or took over: ``O_NOFOLLOW``, ``O_EXCL`` when it
    is made, ``flock``-ed, holding this process's pid. A file there that is not a lock
    file (a link, a pipe, a folder, a file of other content or of another user) is
    refused with :class:`FileRefused` ``file/not-a-lock``, and never changed."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.fd: int | None = None

    def acquire(self) -> int | None:
        """Take the lock; None, or the pid of the live process that holds it."""
        import fcntl

        for _ in range(5):  # the holder may remove the file between open and lock
            fd, made = self._open()
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                pid = _pid_in(fd)
                os.close(fd)
                return pid or 0
            if not _same_file(fd, self.path):
                os.close(fd)  # locked a file its holder had just removed: again
                continue
            if not made and _pid_in(fd) is None:
                os.close(fd)
                raise FileRefused("file/not-a-lock", self._not_ours())
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
            self.fd = fd
            return None
        return 0  # pragma: no cover

    def _open(self) -> tuple[int, bool]:
        problem = name_problem(self.path)
        if problem is not None:
            raise FileRefused("file/unwritable", problem)
        try:
            return os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_EXCL | _NOFOLLOW
                           | _CLOEXEC, 0o644), True
        except FileExistsError:
            pass
        try:
            fd = os.open(self.path, os.O_RDWR | _NOFOLLOW | os.O_NONBLOCK | _CLOEXEC)
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.EISDIR, errno.ENXIO, errno.EACCES,
                             errno.EPERM, errno.EOPNOTSUPP):
                raise FileRefused("file/not-a-lock", self._not_ours()) from None
            raise
        info = os.fstat(fd)
        mine = not hasattr(os, "getuid") or info.st_uid == os.getuid()
        if not stat.S_ISREG(info.st_mode) or not mine or info.st_size > _MAX_LOCK_BYTES:
            os.close(fd)
            raise FileRefused("file/not-a-lock", self._not_ours())
        os.set_blocking(fd, True)
        return fd, False

    def _not_ours(self) -> str:
        return (f"{shown_path(self.path)} is not a lock file of exlibris (a link, a pipe, "
                "a folder, or a file it did not make); it is left as it is: remove it if "
                "no game uses it, or choose another file")

    def release(self) -> None:
        """Let go, deleting the lock file if it is still the one this process made."""
        if self.fd is None:
            return
        if _same_file(self.fd, self.path):
            with contextlib.suppress(OSError):
                os.unlink(self.path)
        os.close(self.fd)
        self.fd = None


_MAX_LOCK_BYTES = 32
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def _pid_in(fd: int) -> int | None:
    """The pid a lock file holds, or None (empty, or not a pid: not a lock file)."""
    with contextlib.suppress(OSError, ValueError):
        text = os.pread(fd, _MAX_LOCK_BYTES + 1, 0).decode("ascii")
        body = text[:-1] if text.endswith("\n") else text
        return int(body) if body.isdigit() and len(body) <= 10 else None
    return None


def _same_file(fd: int, path: Path) -> bool:
    try:
        mine, there = os.fstat(fd), os.lstat(path)
    except OSError:
        return False
    return (mine.st_dev, mine.st_ino) == (there.st_dev, there.st_ino)


_swept: set[Path] = set()


def _remove_stale_temps(path: Path) -> None:
    """Once per process and file: remove ``.NAME.*.tmp`` files a killed write left
    (a save is locked while a game uses it, so no live write's file is among them)."""
    if path in _swept:
        return
    _swept.add(path)
    with contextlib.suppress(OSError):
        for stale in path.parent.glob(f".{glob.escape(path.name)}.*.tmp"):
            remove_file(stale)


def fsync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable (where the platform has folder handles)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - a platform without folder handles
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


def shown_path(path: Path | str) -> str:
    """A path as an error message shows it: control characters escaped, shortened."""
    from exlibris.shown import shown

    return shown(path)
