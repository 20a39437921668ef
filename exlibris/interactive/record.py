"""The saved game: a versioned JSON record of a game's set-up and every decision.

A game is fully determined by the rules and content, the seed, the seats and
the answer to every decision (bots included), so that is all a save holds.
Writes are atomic (a temporary file in the same folder, fsync, ``os.replace``);
a save that cannot be read or does not belong to these rules and content is a
:class:`SaveError` and nothing on disk changes.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

FORMAT = "exlibris-save"
VERSION = 1
SEAT_KINDS = ("human", "random", "greedy")


class SaveError(Exception):
    """A saved game that cannot be used; ``code`` is stable, the message says why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Entry:
    """One decision: who answered, what kind, the option's index and its label."""

    seat: int
    kind: str
    index: int
    label: str


@dataclass
class SaveRecord:
    """Everything needed to play a game again, decision for decision."""

    seed: int
    seats: list[str]
    names: list[str]
    variant: str = "standard"
    libraries: int | None = None  # library tiles dealt to each player (None: the variant's)
    library: list[str | None] = field(default_factory=list)  # libraries named per seat
    assistant: list[str | None] = field(default_factory=list)  # assistant cards per seat
    decisions: list[Entry] = field(default_factory=list)
    finished: bool = False
    exlibris: str = ""
    content: str = ""
    own_content: list[dict[str, str]] = field(default_factory=list)  # {path, sha256}

    def stamp(self) -> SaveRecord:
        """Fill in the identity of this build's rules and content (an author's too)."""
        from exlibris.sources import active_content

        self.exlibris, self.content = identity(active_content())
        self.own_content = own_identity(active_content())
        return self

    def content_paths(self) -> list[Path]:
        """The author's files the game was played with."""
        return [Path(item["path"]) for item in self.own_content]

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "exlibris": self.exlibris,
            "content": self.content,
            "own_content": self.own_content,
            "variant": self.variant,
            "libraries": self.libraries,
            "library": self.library,
            "assistant": self.assistant,
            "seed": self.seed,
            "seats": self.seats,
            "names": self.names,
            "finished": self.finished,
            "decisions": [asdict(e) for e in self.decisions],
        }

    @classmethod
    def from_json(cls, data: Any) -> SaveRecord:
        """Read a record; raises :class:`SaveError` (``save/corrupt``) on any defect."""
        try:
            return _parse(data)
        except (KeyError, TypeError, ValueError) as exc:
            raise SaveError("save/corrupt", f"not a saved game: {exc}") from None

    def check_identity(self) -> None:
        """Raise ``save/mismatch`` unless this build has the same rules and content
        (with the author's content in use, ``exlibris.catalog.use_content``)."""
        from exlibris.sources import active_content

        version, content = identity(active_content())
        if (self.exlibris, self.content) != (version, content):
            now = {item["sha256"] for item in own_identity(active_content())}
            changed = [item["path"] for item in self.own_content if item["sha256"] not in now]
            if changed and version == self.exlibris:
                raise SaveError(
                    "save/mismatch",
                    f"your content changed since the game was saved: {', '.join(changed)}. "
                    "A game must be resumed with the rules and content it was started with")
            raise SaveError(
                "save/mismatch",
                f"saved by exlibris {self.exlibris} with content {self.content[:12]}; "
                f"this is exlibris {version} with content {content[:12]}. A game must be "
                "resumed with the rules and content it was started with")

    def last_of(self, seat: int) -> int | None:
        """The index in ``decisions`` of ``seat``'s latest decision."""
        for i in range(len(self.decisions) - 1, -1, -1):
            if self.decisions[i].seat == seat:
                return i
        return None


def _parse(data: Any) -> SaveRecord:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"the 'format' field is not {FORMAT!r}")
    if data.get("version") != VERSION:
        raise ValueError(f"save format version {data.get('version')!r}; "
                         f"this exlibris reads version {VERSION}")
    seats = data["seats"]
    names = data["names"]
    if (not isinstance(seats, list) or not all(s in SEAT_KINDS for s in seats)
            or not isinstance(names, list) or len(names) != len(seats)
            or not all(isinstance(n, str) for n in names)):
        raise ValueError("'seats' and 'names' must be lists of equal length")
    decisions = []
    for i, raw in enumerate(data["decisions"]):
        entry = Entry(int(raw["seat"]), str(raw["kind"]), int(raw["index"]), str(raw["label"]))
        if not 0 <= entry.seat < len(seats) or entry.index < 0:
            raise ValueError(f"decision {i + 1} names seat {entry.seat + 1}, option "
                             f"{entry.index + 1}")
        decisions.append(entry)
    libraries = data.get("libraries")
    for key, value in (("seed", data["seed"]), ("libraries", libraries)):
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            raise ValueError(f"{key!r} must be a whole number")
    library = data.get("library", [])
    if not isinstance(library, list) or not all(x is None or isinstance(x, str)
                                                for x in library):
        raise ValueError("'library' must be a list of library ids or nulls")
    assistant = data.get("assistant", [])
    if not isinstance(assistant, list) or not all(x is None or isinstance(x, str)
                                                  for x in assistant):
        raise ValueError("'assistant' must be a list of assistant card ids or nulls")
    own = data.get("own_content", [])
    if not isinstance(own, list) or not all(
            isinstance(x, dict) and isinstance(x.get("path"), str)
            and isinstance(x.get("sha256"), str) for x in own):
        raise ValueError("'own_content' must be a list of {path, sha256}")
    if not isinstance(data.get("finished"), bool):
        raise ValueError("'finished' must be true or false")
    return SaveRecord(seed=data["seed"], seats=list(seats), names=list(names),
                      variant=str(data["variant"]), libraries=libraries, library=library,
                      assistant=assistant,
                      decisions=decisions,
                      finished=data["finished"], exlibris=str(data["exlibris"]),
                      content=str(data["content"]),
                      own_content=[{"path": x["path"], "sha256": x["sha256"]} for x in own])


def load(path: Path, *, check: bool = True) -> SaveRecord:
    """Read a saved game and (unless ``check`` is false) check that it belongs to the
    rules and content in use; raises :class:`SaveError`."""
    try:
        text = path.read_text("utf-8")
    except OSError as exc:
        raise SaveError("save/unreadable", f"cannot read {path}: {exc.strerror}") from None
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise SaveError("save/corrupt", f"not a saved game: {exc}") from None
    record = SaveRecord.from_json(data)
    if check:
        record.check_identity()
    return record


def write_atomic(path: Path, text: str) -> None:
    """Replace ``path`` with ``text``, never leaving a half-written file."""
    path.parent.mkdir(parents=True, exist_ok=True)
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


def save(record: SaveRecord, path: Path) -> None:
    write_atomic(path, json.dumps(record.to_json(), indent=1) + "\n")


def default_path() -> Path:
    """``$XDG_STATE_HOME/exlibris/autosave.json``, else ``~/.local/state/exlibris/...``."""
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "exlibris" / "autosave.json"


def own_identity(paths: tuple[Path, ...]) -> list[dict[str, str]]:
    """The path and SHA-256 of every content file of an author's (``--content``)."""
    from exlibris.catalog import own_files

    return [{"path": str(file), "sha256": hashlib.sha256(file.read_bytes()).hexdigest()}
            for file in own_files(paths)]


def identity(own: tuple[Path, ...] = ()) -> tuple[str, str]:
    """This build's package version and a hash of every content and rules file, the
    author's own (``own``: the ``--content`` paths) included."""
    package, shipped = _shipped_identity()
    if not own:
        return package, shipped
    digest = hashlib.sha256(shipped.encode())
    for sha in sorted(item["sha256"] for item in own_identity(own)):  # a moved folder is fine
        digest.update(f"own/{sha}\0".encode())
    return package, digest.hexdigest()


@cache
def _shipped_identity() -> tuple[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    from exlibris.paths import content_dir, rules_dir

    try:
        package = version("exlibris")
    except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        package = "unknown"
    digest = hashlib.sha256()
    for root in (content_dir(), rules_dir()):
        for file in sorted(p for p in root.rglob("*") if p.suffix in (".yaml", ".yml")):
            digest.update(f"{root.name}/{file.relative_to(root).as_posix()}\0".encode())
            digest.update(file.read_bytes())
            digest.update(b"\0")
    return package, digest.hexdigest()
