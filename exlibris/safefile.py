"""Reading an untrusted file, and writing an output file without losing one.

Reading: regular files only, never more than a byte limit. The size a file
reports is not trusted (a device reports 0 and never ends): the file is opened
without blocking, checked to be a regular file, and read up to one byte past the
limit.

Writing: a regular file (or a new one) is replaced atomically (a temporary file
in the same folder, fsync, rename, the folder fsynced), so a full disk or a kill
leaves the old file whole; a device or a pipe (``/dev/stdout``) is written
directly. Every failure is one :class:`FileRefused` saying why.
"""

from __future__ import annotations

import contextlib
import glob
import os
import stat
import tempfile
from pathlib import Path

MAX_NAME_BYTES = 255  # one file name (the common file systems' limit)
MAX_PATH_BYTES = 4_096  # a whole path (Linux's PATH_MAX)


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


def output_problem(path: Path | str) -> str | None:
    """Why ``path`` cannot be written as an output file (None: it can be tried): its
    folder is missing or not a folder, the name is too long, or it is a folder."""
    path = Path(path)
    problem = name_problem(path)
    if problem is not None:
        return problem
    folder = path.parent
    try:
        if not folder.is_dir():
            return (f"the folder {shown_path(folder)} is not a folder" if folder.exists()
                    else f"the folder {shown_path(folder)} does not exist; create it first")
        if path.is_dir():
            return "it is a folder"
    except (OSError, ValueError) as exc:
        return f"cannot use this path: {getattr(exc, 'strerror', None) or exc}"
    return None


def write_output(path: Path | str, text: str) -> None:
    """Write ``text`` to the output file ``path``: atomically for a regular or new
    file (:func:`write_atomic`), directly for a device or a pipe; raises
    :class:`FileRefused` (``file/unwritable``) with the reason."""
    problem = output_problem(path)
    if problem is not None:
        raise FileRefused("file/unwritable", f"cannot write {shown_path(path)}: {problem}")
    try:
        try:
            special = not stat.S_ISREG(os.stat(path).st_mode)
        except FileNotFoundError:
            special = False
        if special:
            with open(path, "w", encoding="utf-8") as out:
                out.write(text)
        else:
            write_atomic(Path(path), text)
    except OSError as exc:
        raise FileRefused("file/unwritable",
                          f"cannot write {shown_path(path)}: {exc.strerror or exc}") from None


def write_atomic(path: Path, text: str) -> None:
    """Replace ``path`` with ``text``, never leaving a half-written file (raises
    ``OSError``; :func:`write_output` says it as a :class:`FileRefused`).

    A symlink is written through (the link stays), an existing file keeps its
    mode, the folder is fsynced after the rename, and temporary files left by
    an earlier write that was killed are removed. The folder must exist.
    """
    path = Path(os.path.realpath(path))
    _remove_stale_temps(path)
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fchmod(out.fileno(), mode)
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    fsync_folder(path.parent)


_swept: set[Path] = set()


def _remove_stale_temps(path: Path) -> None:
    """Once per process and file: remove ``.NAME.*.tmp`` files a killed write left
    (a save is locked while a game uses it, so no live write's file is among them)."""
    if path in _swept:
        return
    _swept.add(path)
    with contextlib.suppress(OSError):
        for stale in path.parent.glob(f".{glob.escape(path.name)}.*.tmp"):
            with contextlib.suppress(OSError):
                if stale.is_file() and not stale.is_symlink():
                    stale.unlink()


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
    text = str(path)
    if not text.isprintable():
        text = text.encode("unicode_escape").decode("ascii")
    return text if len(text) <= 200 else text[:100] + "..." + text[-60:]
