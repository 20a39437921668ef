"""A per-user cache of the shipped content and rules files, read and checked.

Every command reads the shipped YAML (85 files) and ``validate`` checks it; both
take most of a command's start-up. The cache keeps, for each shipped file, the
plain data and node positions ``yamlsafe`` built from it, and whether
``exlibris validate`` found the whole set clean. It is one JSON file (plain data,
never pickled objects) in ``$XDG_CACHE_HOME/exlibris`` (else ``~/.cache/exlibris``),
a folder made ``0700`` and used only when it belongs to the user and nobody else
may write to it; a file in it is read only when it too is the user's alone
(``read_private``). ``dsl/tree_cache.py`` keeps the shipped effects' syntax trees
beside it.

It is keyed by the exlibris version, the package's own files (names, sizes and
modification times, so an edited checkout does not read a stale check) and the
SHA-256 of each shipped file's bytes, which are read every time: a changed file
misses. A missing, damaged or unwritable cache is passed over silently and the
files are parsed as without it; ``EXLIBRIS_NO_CACHE=1`` turns it off.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from exlibris import __version__
from exlibris.limits import MAX_FILE_BYTES
from exlibris.paths import content_dir, rules_dir, xdg_folder
from exlibris.safefile import FileRefused, read_limited, remove_file, write_output
from exlibris.sources import yaml_targets

Record = dict[str, Any]  # a file's "data" and "positions" (yamlsafe.LoadedYaml.record)
Parse = Callable[[str, str], Record | None]  # (text, filename) -> record, None if broken
_PACKAGE = Path(__file__).resolve().parent
_FORMAT = 3


def enabled() -> bool:
    return os.environ.get("EXLIBRIS_NO_CACHE", "") in ("", "0")


def cache_dir() -> Path:
    """``$XDG_CACHE_HOME/exlibris``, else ``~/.cache/exlibris`` (a relative
    ``$XDG_CACHE_HOME`` is ignored, as the XDG spec asks)."""
    return xdg_folder("XDG_CACHE_HOME", ".cache") / "exlibris"


class _Shipped:
    """The shipped files' bytes and the cache's key for them (read once a process)."""

    def __init__(self) -> None:
        self.texts: dict[str, str] = {}  # resolved path -> text
        self.sha256: dict[str, str] = {}  # resolved path -> the SHA-256 of its bytes (hex)
        self.names: dict[str, str] = {}  # the path as found -> resolved path
        self.folders = tuple(str(folder.resolve()) + os.sep
                             for folder in (content_dir(), rules_dir()))
        found = yaml_targets([content_dir(), rules_dir()])
        self.files = [path for path, _ in found]  # as yaml_files gives them
        digest = hashlib.sha256(f"{_FORMAT}\0{__version__}\0{_code_stamp()}".encode())
        for path, target in found:
            try:
                raw = read_limited(path, MAX_FILE_BYTES)
                text = raw.decode("utf-8")
            except (FileRefused, UnicodeDecodeError):
                continue  # parsed (and refused) as without a cache
            name = str(target)
            self.texts[name] = text
            self.names[str(path)] = name
            sha = hashlib.sha256(raw)
            self.sha256[name] = sha.hexdigest()
            digest.update(f"\0{name}\0".encode() + sha.digest())
        self.key = digest.hexdigest()
        self.records: dict[str, Record] | None = None
        self.validated: int | None = None
        self.typed: str | None = None  # the pydantic install it was checked with
        self._read()

    @property
    def file(self) -> Path:
        return cache_dir() / f"shipped-{self.key[:32]}.json"

    def _read(self) -> None:
        raw = read_private(self.file.name)
        if raw is None:
            return
        try:
            stored = json.loads(raw)
            if stored.get("key") != self.key or not isinstance(stored.get("files"), dict):
                return
            self.records = stored["files"]
            validated = stored.get("validated")
            self.validated = validated if isinstance(validated, int) else None
            typed = stored.get("typed")
            self.typed = typed if isinstance(typed, str) else None
        except (ValueError, AttributeError, RecursionError):
            self.records = None

    def fill(self, parse: Parse) -> None:
        """Parse every shipped file (unless the package has it parsed: ``prebuilt``)
        and write the cache (files that fail are left out)."""
        from exlibris import prebuilt

        records: dict[str, Record] = {}
        for name, text in self.texts.items():
            record = prebuilt.record(self.sha256[name]) or parse(text, name)
            if record is not None and _round_trips(record):
                records[name] = record
        self.records = records
        self.write()

    def write(self) -> None:
        folder = _private_folder()
        if folder is None or self.records is None:
            return
        write_private(self.file.name, json.dumps(
            {"key": self.key, "files": self.records, "validated": self.validated,
             "typed": self.typed},
            separators=(",", ":")))


def read_private(name: str) -> bytes | None:
    """The body of the cache file ``name``, or None: missing, too large, damaged or
    edited (its first line, the SHA-256 of the rest, does not match), or not to be
    trusted (the folder or the file is another user's, or others may write to it)."""
    folder = cache_dir()
    try:
        if not (_owned(os.lstat(folder), stat.S_ISDIR)
                and _owned(os.lstat(folder / name), stat.S_ISREG)):
            return None
        raw = read_limited(folder / name, 64 * MAX_FILE_BYTES)
    except (OSError, FileRefused):
        return None
    return unsealed(raw)


def sealed(body: str) -> bytes:
    """A cache file's bytes: the SHA-256 of ``body`` on the first line, then ``body``."""
    data = body.encode("utf-8")
    return hashlib.sha256(data).hexdigest().encode() + b"\n" + data


def unsealed(raw: bytes) -> bytes | None:
    """The body of a cache file's bytes, or None if it does not match its digest."""
    digest, _, body = raw.partition(b"\n")
    return body if digest == hashlib.sha256(body).hexdigest().encode() else None


def write_private(name: str, body: str) -> None:
    """Write the cache file ``name`` (``PREFIX-KEY.json``) whole, its first line the
    SHA-256 of the body (checked on every read), and drop the other files of its
    prefix (other keys: stale); nothing if the folder is not private."""
    folder = _private_folder()
    if folder is None:
        return
    prefix = name.split("-", 1)[0]
    try:
        for old in folder.glob(f"{prefix}-*.json"):
            if old.name != name:
                remove_file(old)
        write_output(folder / name, sealed(body))
    except (OSError, FileRefused):
        pass


def _owned(info: os.stat_result, kind: Callable[[int], bool]) -> bool:
    """The user's own, of that kind (not a link), and nobody else may write to it."""
    mine = not hasattr(os, "getuid") or info.st_uid == os.getuid()
    return kind(info.st_mode) and mine and not info.st_mode & 0o022


def _round_trips(record: Record) -> bool:
    """True if JSON gives the record back unchanged (keys that are not strings, NaN...)."""
    try:
        return bool(json.loads(json.dumps(record)) == record)
    except (ValueError, TypeError):
        return False


def _code_stamp() -> str:
    """The names, sizes and modification times of the package's own files."""
    found = []
    for folder, dirs, files in os.walk(_PACKAGE):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
        for name in sorted(files):
            if name.endswith((".py", ".lark", ".json", ".so", ".pyd")):
                info = os.stat(os.path.join(folder, name))
                found.append(f"{folder[len(str(_PACKAGE)):]}/{name}:{info.st_size}:"
                             f"{info.st_mtime_ns}")
    return hashlib.sha256("\n".join(found).encode()).hexdigest()


def _private_folder() -> Path | None:
    """The cache folder, made 0700; None unless it is the user's and only theirs."""
    folder = cache_dir()
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = os.lstat(folder)
    except OSError:
        return None
    return folder if _owned(info, stat.S_ISDIR) else None


def resolved(path: Path) -> Path:
    """``path.resolve()``, from what the cache found when ``path`` is a shipped file as
    ``yaml_files`` names it (resolving a path is a ``stat`` of each of its parts)."""
    name = _shipped().names.get(str(path)) if enabled() else None
    return Path(name) if name is not None else path.resolve()


def file_bytes(path: Path) -> bytes | None:
    """The bytes of a shipped file as ``yaml_files`` names it, as this process read
    them for the key (None: not such a file, or no cache)."""
    if not enabled():
        return None
    shipped = _shipped()
    name = shipped.names.get(str(path))
    return shipped.texts[name].encode("utf-8") if name is not None else None


def shipped_sha256(path: Path | str) -> str | None:
    """The SHA-256 (hex) of a shipped file's bytes as ``yaml_files`` names it, as this
    process read them for the key (None: not such a file, or no cache)."""
    if not enabled():
        return None
    shipped = _shipped()
    name = shipped.names.get(str(path))
    return shipped.sha256.get(name) if name is not None else None


def files(folders: tuple[Path, ...]) -> list[Path] | None:
    """``yaml_files(folders)`` as the cache found them, if ``folders`` are the shipped
    content and rules folders it read (else None)."""
    if not enabled():
        return None
    shipped = _shipped()
    try:
        named = tuple(str(folder.resolve()) + os.sep for folder in folders)
    except (OSError, RuntimeError):
        return None
    return list(shipped.files) if named == shipped.folders else None


def key() -> str | None:
    """The key of the shipped set as it is now, or None with no cache."""
    return _shipped().key if enabled() else None


def records() -> dict[str, Record] | None:
    """Each shipped file's cached record (its plain data under ``"data"``), or None
    with no cache yet."""
    return _shipped().records if enabled() else None


@cache
def _shipped() -> _Shipped:
    return _Shipped()


def lookup(path: Path | str, parse: Parse) -> tuple[str, Record] | None:
    """The text and cached record of a shipped file, or None (not shipped, no cache).

    With no cache yet, every shipped file is parsed with ``parse`` and the cache
    written, so that the next command finds it.
    """
    if not enabled():
        return None
    shipped = _shipped()
    name = shipped.names.get(str(path))
    if name is None:
        try:
            name = str(Path(path).resolve())
        except (OSError, RuntimeError):
            return None
    if not name.startswith(shipped.folders) or name not in shipped.texts:
        return None
    if shipped.records is None:
        shipped.fill(parse)
    record = shipped.records.get(name) if shipped.records is not None else None
    return (shipped.texts[name], record) if record is not None else None


def validated_files() -> int | None:
    """How many files ``exlibris validate`` checked and found clean in the shipped set
    as it is now, or None if that is not known."""
    if not enabled():
        return None
    shipped = _shipped()
    return shipped.validated if shipped.records is not None else None


def typed() -> bool:
    """True if every shipped file, as it is now, was read into its model and every
    shipped variant resolved to valid settings (``catalog.shipped_catalog``), by the
    pydantic installed now."""
    if not enabled():
        return False
    shipped = _shipped()
    return shipped.records is not None and shipped.typed == _pydantic_stamp()


def _pydantic_stamp() -> str:
    """Where pydantic and pydantic-core are installed and when (another version
    validates by its own rules), without importing them."""
    from importlib.util import find_spec

    found = []
    for name in ("pydantic", "pydantic_core"):
        spec = find_spec(name)
        try:
            info = os.stat(spec.origin) if spec is not None and spec.origin else None
        except OSError:
            info = None
        found.append(f"{spec.origin}:{info.st_size}:{info.st_mtime_ns}" if spec and info
                     else "none")
    return "\0".join(found)


def mark_typed() -> None:
    """Remember that the shipped set as it is now reads into valid models."""
    if not enabled():
        return
    shipped = _shipped()
    stamp = _pydantic_stamp()
    if shipped.records is not None and shipped.typed != stamp:
        shipped.typed = stamp
        shipped.write()


def mark_validated(files: int, parse: Parse) -> None:
    """Remember that the shipped set as it is now was checked and found clean."""
    if not enabled():
        return
    shipped = _shipped()
    if shipped.records is None:
        shipped.fill(parse)
    shipped.validated = files
    shipped.write()
