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
import re
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from exlibris.engine.decisions import DecisionKind
from exlibris.limits import (
    MAX_DECISIONS,
    MAX_FILE_BYTES,
    MAX_INT_DIGITS,
    MAX_NAME_CHARS,
    MAX_PREVIOUS_SAVES,
    MAX_SAVE_BYTES,
    MAX_SEATS,
    MAX_SEED,
    MIN_SEATS,
    int_too_long,
)
from exlibris.safefile import (
    FileRefused,
    fsync_folder,
    move_no_clobber,
    name_problem,
    read_limited,
    shown_path,
    write_output,
)

FORMAT = "exlibris-save"
VERSION = 1
SEAT_KINDS = ("human", "random", "greedy", "mcts")  # and mcts:N


class SaveError(Exception):
    """A saved game that cannot be used; ``code`` is stable, the message says why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Entry:
    """One decision: who answered, what kind, the option's index and its label."""

    seat: int
    kind: DecisionKind
    index: int
    label: str


@dataclass(frozen=True, slots=True)
class Failure:
    """Why a game stopped on an engine error: the decision it was heading for (one
    past the record), the error's code and its message (as shown, control
    characters removed)."""

    decision: int
    code: str
    message: str

    def text(self) -> str:
        return f"the game stopped at decision {self.decision}: {self.message} [{self.code}]"


@dataclass
class SaveRecord:
    """Everything needed to play a game again, decision for decision."""

    seed: int
    seats: list[str]
    names: list[str]
    variant: str = "standard"
    libraries: int | None = None  # library tiles dealt to each player (None: the variant's)
    library: list[str | None] = field(default_factory=list)  # libraries named per seat
    difficulty: int | None = None  # solo level chosen (None: the rules')
    assistant: list[str | None] = field(default_factory=list)  # assistant cards per seat
    decisions: list[Entry] = field(default_factory=list)
    finished: bool = False
    exlibris: str = ""
    content: str = ""
    own_content: list[dict[str, str]] = field(default_factory=list)  # {path, sha256}
    failure: Failure | None = None  # the engine error the game stopped on, if it did

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
        data = self._head()
        data["decisions"] = [asdict(e) for e in self.decisions]
        if self.failure is not None:  # written only when set: older builds read the rest
            data["failure"] = asdict(self.failure)
        return data

    def _head(self) -> dict[str, Any]:
        """The record's fields before its decisions, as ``to_json`` has them (and
        ``SaveText`` writes them)."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "exlibris": self.exlibris,
            "content": self.content,
            "own_content": self.own_content,
            "variant": self.variant,
            "libraries": self.libraries,
            "library": self.library,
            "difficulty": self.difficulty,
            "assistant": self.assistant,
            "seed": self.seed,
            "seats": self.seats,
            "names": self.names,
            "finished": self.finished,
        }

    @classmethod
    def from_json(cls, data: Any) -> SaveRecord:
        """Read a record; raises :class:`SaveError` (``save/corrupt``) on any defect."""
        try:
            return _parse(data)
        except (KeyError, TypeError, ValueError, RecursionError) as exc:
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

    def last_of_people(self) -> int | None:
        """The index in ``decisions`` of the latest decision a person (a human seat)
        made; None if no person has decided anything."""
        people = [seat for seat, kind in enumerate(self.seats) if kind == "human"]
        found = [i for i in map(self.last_of, people) if i is not None]
        return max(found, default=None)


_KEYS = frozenset({"format", "version", "exlibris", "content", "variant", "libraries",
                   "library", "assistant", "own_content", "seed", "seats", "names",
                   "finished", "decisions", "difficulty", "failure"})
_OPTIONAL = frozenset({"libraries", "library", "assistant", "own_content", "difficulty",
                       "failure"})
_ENTRY_KEYS = frozenset({"seat", "kind", "index", "label"})
_FAILURE_KEYS = frozenset({"decision", "code", "message"})
_CODE = re.compile(r"[a-z][a-z0-9-]{0,19}/[a-z][a-z0-9-]{0,39}")
_MAX_INDEX = 100_000  # no decision offers more options
_MAX_TEXT = 2_000  # a label, a kind, a variant or an identity string


def _whole(value: Any, what: str, low: int, high: int) -> int:
    """A JSON whole number (not a bool, not a string, not a float) in [low, high]."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} must be a whole number, not {value!r}"[:200])
    if not low <= value <= high:
        raise ValueError(f"{what} is {value}; it must be from {low} to {high}"[:200])
    return value


def _text(value: Any, what: str, limit: int = _MAX_TEXT) -> str:
    if not isinstance(value, str) or len(value) > limit:
        raise ValueError(f"{what} must be text of at most {limit} characters")
    return value


def _kind(value: Any, what: str) -> DecisionKind:
    text = _text(value, what, 40)
    if text not in _KINDS:
        raise ValueError(f"{what} must be one of: {', '.join(_KINDS)}")
    return DecisionKind(text)


_KINDS = tuple(k.value for k in DecisionKind)


def clean_message(text: str) -> str:
    """An error message as a save keeps it: no control characters (lines kept), at
    most ``_MAX_TEXT`` characters."""
    return "".join(ch for ch in text if ch.isprintable() or ch == "\n")[:_MAX_TEXT]


def failure_of(code: str, message: str, decisions: int) -> Failure:
    """The failure of a game stopped after ``decisions`` recorded decisions."""
    return Failure(decisions + 1, code if _CODE.fullmatch(code) else "engine/error",
                   clean_message(message))


def _failure(raw: Any, decisions: int, finished: bool) -> Failure | None:
    """Check a save's ``failure``: null, or the decision just past the record, a code
    and a message that are shown as they are (so no control characters)."""
    if raw is None:
        return None
    if not isinstance(raw, dict) or set(raw) != _FAILURE_KEYS:
        raise ValueError("'failure' must be null or have exactly: decision, code, message")
    if finished:
        raise ValueError("'failure' is set but the save says the game is finished")
    decision = _whole(raw["decision"], "'failure' decision", 1, MAX_DECISIONS + 1)
    if decision != decisions + 1:
        raise ValueError(f"'failure' is at decision {decision}, but the record ends before "
                         f"decision {decisions + 1}")
    code = _text(raw["code"], "'failure' code", 61)
    if not _CODE.fullmatch(code):
        raise ValueError("'failure' code must look like engine/effect")
    message = _text(raw["message"], "'failure' message")
    if clean_message(message) != message:
        raise ValueError("'failure' message must not hold control characters")
    return Failure(decision, code, message)


def clean_name(name: str) -> str:
    """A player's name as it may be shown: no control characters or escape sequences."""
    return "".join(ch for ch in name if ch.isprintable()).strip()[:MAX_NAME_CHARS]


def _parse(data: Any) -> SaveRecord:
    """Check every field of a record's JSON: types, ranges and seat counts."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"the 'format' field is not {FORMAT!r}")
    if data.get("version") != VERSION:
        raise ValueError(f"save format version {data.get('version')!r}"[:100]
                         + f"; this exlibris reads version {VERSION}")
    unknown = sorted(str(k)[:40] for k in set(data) - _KEYS)
    missing = sorted(_KEYS - _OPTIONAL - set(data))
    if unknown or missing:
        raise ValueError(f"unknown fields {unknown}" if unknown else f"missing fields {missing}")
    seats = data["seats"]
    names = data["names"]
    if (not isinstance(seats, list) or not MIN_SEATS <= len(seats) <= MAX_SEATS
            or not all(isinstance(s, str) and _seat_kind(s) for s in seats)):
        raise ValueError(f"'seats' must list {MIN_SEATS} to {MAX_SEATS} of "
                         f"{', '.join(SEAT_KINDS)}")
    if (not isinstance(names, list) or len(names) != len(seats)
            or not all(isinstance(n, str) and clean_name(n) for n in names)):
        raise ValueError("'names' must list one name for each seat")
    raw_decisions = data["decisions"]
    if not isinstance(raw_decisions, list) or len(raw_decisions) > MAX_DECISIONS:
        raise ValueError(f"'decisions' must be a list of at most {MAX_DECISIONS}")
    decisions = []
    for i, raw in enumerate(raw_decisions):
        where = f"decision {i + 1}"
        if not isinstance(raw, dict) or set(raw) != _ENTRY_KEYS:
            raise ValueError(f"{where} must have exactly: seat, kind, index, label")
        decisions.append(Entry(_whole(raw["seat"], f"{where}'s seat", 0, len(seats) - 1),
                               _kind(raw["kind"], f"{where}'s kind"),
                               _whole(raw["index"], f"{where}'s index", 0, _MAX_INDEX),
                               _text(raw["label"], f"{where}'s label")))
    libraries = data.get("libraries")
    if libraries is not None:
        _whole(libraries, "'libraries'", 1, 4)
    library = data.get("library", [])
    if not isinstance(library, list) or not all(x is None or (isinstance(x, str) and len(x) < 100)
                                                for x in library):
        raise ValueError("'library' must be a list of library ids or nulls")
    if library and len(library) != len(seats):
        raise ValueError(f"'library' names {len(library)} seats; the game has {len(seats)}")
    assistant = data.get("assistant", [])
    if not isinstance(assistant, list) or not all(
            x is None or (isinstance(x, str) and len(x) < 100) for x in assistant):
        raise ValueError("'assistant' must be a list of assistant card ids or nulls")
    if assistant and len(assistant) != len(seats):
        raise ValueError(f"'assistant' names {len(assistant)} seats; the game has {len(seats)}")
    difficulty = data.get("difficulty")
    if difficulty is not None:
        _whole(difficulty, "'difficulty'", 1, 7)
    own = data.get("own_content", [])
    if not isinstance(own, list) or len(own) > 1_000 or not all(
            isinstance(x, dict) and set(x) == {"path", "sha256"}
            and isinstance(x["path"], str) and name_problem(x["path"]) is None
            and isinstance(x["sha256"], str) and len(x["sha256"]) == 64 for x in own):
        raise ValueError("'own_content' must be a list of {path, sha256}, each path one a "
                         "file can have (no NUL, at most 4096 bytes)")
    if not isinstance(data["finished"], bool):
        raise ValueError("'finished' must be true or false")
    failure = _failure(data.get("failure"), len(decisions), data["finished"])
    return SaveRecord(seed=_whole(data["seed"], "'seed'", -MAX_SEED, MAX_SEED),
                      seats=list(seats), names=[clean_name(n) for n in names],
                      variant=_text(data["variant"], "'variant'", 100), libraries=libraries,
                      library=library, assistant=assistant, difficulty=difficulty,
                      decisions=decisions,
                      finished=data["finished"],
                      exlibris=_text(data["exlibris"], "'exlibris'"),
                      content=_text(data["content"], "'content'"),
                      own_content=[{"path": x["path"], "sha256": x["sha256"]} for x in own],
                      failure=failure)


def _json_int(text: str) -> int:
    if int_too_long(text):
        raise ValueError(f"a number of more than {MAX_INT_DIGITS} digits")
    return int(text)


def check_setup(record: SaveRecord, catalog: Any) -> None:
    """Raise ``save/corrupt`` unless the record's set-up names a game these rules can
    start: a known variant for this many seats, library tiles that exist. Both
    ``play --resume`` and ``replay`` check this before anything replays."""
    from exlibris.engine.flow import check_playable
    from exlibris.engine.game import RulesError
    from exlibris.model.variants import resolve_settings, variant_chain

    try:
        variant_chain(record.variant, catalog.variants)
        settings = resolve_settings(record.variant, catalog.variants)
        check_playable(settings, len(record.seats), record.variant)
    except (ValueError, RulesError) as exc:
        raise SaveError("save/corrupt", f"not a game these rules can play: {exc}") from None
    available = [i for i in catalog.libraries if i not in settings.setup.remove_libraries]
    named = [x for x in record.library if x is not None]
    unknown = [x for x in named if x not in available]
    if unknown or len(set(named)) != len(named):
        raise SaveError("save/corrupt", f"the save names libraries {named!r} "[:200]
                        + "that this game cannot deal")
    unknown_cards = [x for x in record.assistant if x is not None and x not in catalog.assistants]
    if unknown_cards:
        raise SaveError("save/corrupt", f"the save names the assistant card "
                        f"{unknown_cards[0][:100]!r}, which this content does not have")
    per_seat = record.libraries or settings.setup.libraries_dealt
    if per_seat * len(record.seats) > len(available):
        raise SaveError("save/corrupt", f"{per_seat} library tiles for each of "
                        f"{len(record.seats)} players; there are {len(available)}")


def load(path: Path, *, check: bool = True) -> SaveRecord:
    """Read a saved game and (unless ``check`` is false) check that it belongs to the
    rules and content in use; raises :class:`SaveError`."""
    record = read_record(path)
    if check:
        record.check_identity()
    return record


def read_record(path: Path) -> SaveRecord:
    """Read a saved game (regular file, size-limited) and check its fields."""
    try:
        raw = read_limited(path, MAX_SAVE_BYTES)
    except FileRefused as exc:
        raise SaveError("save/unreadable", f"cannot read {shown_path(path)}: {exc}") from None
    try:
        data = json.loads(raw.decode("utf-8"), parse_int=_json_int)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise SaveError("save/corrupt", f"not a saved game: {str(exc)[:200]}") from None
    return SaveRecord.from_json(data)


def keep_previous(path: Path) -> Path:
    """Move the save at ``path`` (an unfinished game, as ``save_target.make_room``
    found) to the first free ``NAME.previous.json``, ``NAME.previous-2.json``, ...
    and return where it went. Raises :class:`SaveError` if every numbered name is
    taken; nothing is ever overwritten."""
    target = Path(path)
    for n in range(1, MAX_PREVIOUS_SAVES + 1):
        suffix = ".previous.json" if n == 1 else f".previous-{n}.json"
        kept = target.with_name(target.stem + suffix)
        if move_no_clobber(target, kept):
            fsync_folder(target.parent)
            return kept
    raise SaveError("save/no-room", f"{path} holds an unfinished game and the "
                    f"{MAX_PREVIOUS_SAVES} names kept for earlier games are taken; "
                    "resume or remove one, or choose another file with --save")


class SaveText:
    """The text of one game's save, ``json.dumps(record.to_json(), indent=1)``, with each
    decision's part kept from the save before: a game is saved at every decision, and
    its record grows by one (or is cut back, by a take-back) between two saves."""

    def __init__(self) -> None:
        self._written: list[tuple[Entry, str]] = []  # each decision written, and its text

    def of(self, record: SaveRecord) -> str:
        head = json.dumps(record._head(), indent=1)  # "{...\n}": the fields before these
        parts = [head[:-2], ',\n "decisions": ', self._decisions(record.decisions)]
        if record.failure is not None:
            parts += [',\n "failure": ', _nested(asdict(record.failure), 1)]
        parts.append("\n}")
        return "".join(parts)

    def _decisions(self, decisions: list[Entry]) -> str:
        """The decisions as ``json.dumps`` writes them at the second level of a save."""
        written = self._written
        same = 0
        for (entry, _), now in zip(written, decisions, strict=False):
            if entry is not now:  # frozen: the same object has the same fields
                break
            same += 1
        del written[same:]
        written += [(e, "  " + _nested(asdict(e), 2)) for e in decisions[same:]]
        if not written:
            return "[]"
        return "[\n" + ",\n".join([text for _, text in written]) + "\n ]"


def _nested(value: dict[str, Any], level: int) -> str:
    """``value`` as ``json.dumps(..., indent=1)`` writes it ``level`` deep in a document."""
    return json.dumps(value, indent=1).replace("\n", "\n" + " " * level)


def save(record: SaveRecord, path: Path, text: SaveText | None = None) -> None:
    """Write ``record`` to ``path`` (``safefile.write_output``: never through a link),
    by ``text`` if given (the same game's saves, one after another); :class:`FileRefused`
    if it cannot be written."""
    write_output(path, (text or SaveText()).of(record) + "\n")


def default_path() -> Path:
    """``$XDG_STATE_HOME/exlibris/autosave.json``, else ``~/.local/state/exlibris/...``
    (a relative ``$XDG_STATE_HOME`` is ignored, as the XDG spec asks)."""
    from exlibris.paths import xdg_folder

    return xdg_folder("XDG_STATE_HOME", ".local", "state") / "exlibris" / "autosave.json"


def check_own_files(record: SaveRecord) -> None:
    """Raise ``save/mismatch`` unless every author's file a save names is still there
    with the recorded SHA-256. A save is untrusted: the files it names are compared
    by hash (read as bytes, size-limited) before any is read as content, so a save
    cannot make exlibris parse, and quote, a file it was not played with."""
    for item in record.own_content:
        if not os.path.lexists(item["path"]):
            continue  # a missing file is reported when the content is loaded
        try:
            data = read_limited(item["path"], MAX_FILE_BYTES)
        except FileRefused:
            data = None
        if data is None or hashlib.sha256(data).hexdigest() != item["sha256"]:
            raise SaveError("save/mismatch", f"your content changed since the game was "
                            f"saved: {item['path'][:200]!r}. A game must be resumed with the "
                            "rules and content it was started with")


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
    from exlibris import __version__, shipped_cache
    from exlibris.paths import content_dir, rules_dir

    package = __version__  # the installed version (tests/test_tree_cache.py), without
    # importing importlib.metadata
    digest = hashlib.sha256()
    for root in (content_dir(), rules_dir()):
        start = len(str(root)) + 1
        for file in sorted(p for p in root.rglob("*") if p.suffix in (".yaml", ".yml")):
            digest.update(f"{root.name}/{str(file)[start:].replace(os.sep, '/')}\0".encode())
            known = shipped_cache.file_bytes(file)  # the shipped cache read them already
            digest.update(file.read_bytes() if known is None else known)
            digest.update(b"\0")
    return package, digest.hexdigest()


def _seat_kind(seat: str) -> bool:
    """Whether ``seat`` names a seat of a save: a human, or a bot (``mcts:N`` too)."""
    from exlibris.agents import bot_kind

    return seat == "human" or (len(seat) <= 20 and bot_kind(seat) is None)
