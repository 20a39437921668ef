"""A simulation run: plan the games, skip those already played (``--resume``), play
the rest on a backend, keep every finished game in a journal as it arrives, and
write the rows and the failures at the end.

Files, for ``--out r.parquet``: the rows ``r.parquet``; the manifest
``r.parquet.manifest.json`` (version, command, plan, the hash of every rules and
content file: ``manifest.py``); while running (and after an interruption) the
journal ``r.parquet.partial.jsonl``, one line a finished game;
``r.failures.jsonl``, one line a game that raised, with its replay command (a
resumed run plays failed games again, and the file then lists this run's failures).

Memory stays flat with ``--out``: a finished game goes to the journal, and the
run keeps only where its line starts; the rows file is written from the journal
at the end, game by game, and the report reads it back the same way.
"""

from __future__ import annotations

import io
import json
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from exlibris.limits import MAX_SIM_GAMES, MAX_SIM_TOTAL
from exlibris.safefile import (
    FileRefused,
    name_problem,
    open_append,
    output_problem,
    read_limited,
    remove_file,
    shown_path,
    write_output,
)
from exlibris.simulate import backends, manifest, rows
from exlibris.simulate.observe import EVENT_COLUMNS
from exlibris.simulate.plan import Cell, GameSpec, game_seed, seats_for
from exlibris.simulate.play import BatchResult, Failure, PlayedGame

Key = tuple[str, int, int]  # variant, players, game index
MAX_NOTES = 20  # damaged lines described one by one; past that, counted


class RunError(ValueError):
    """A run that cannot start as asked (a journal in the way, a resume that does not
    match the rows on disk, an output that cannot be written...)."""


@dataclass
class RunConfig:
    cells: list[Cell]
    games: int
    seed: int
    seats: list[str]
    rotate: bool = True
    backend: str = "local"
    workers: int = 1
    address: str | None = None
    out: Path | None = None
    failures: Path | None = None
    resume: bool = False
    content: tuple[str, ...] = ()  # an author's content: resolved paths
    variant_paths: dict[str, str] = field(default_factory=dict)  # id -> the file given
    events: Path | None = None  # --events FILE: .jsonl or .csv (observe.py)
    command: list[str] | None = None  # for the manifest (default: this process's argv)

    @property
    def total(self) -> int:
        return len(self.cells) * self.games

    def specs(self) -> Iterator[GameSpec]:
        """The plan, one game at a time (never built whole)."""
        for cell in self.cells:
            for index in range(self.games):
                yield self.spec(cell, index)

    def spec(self, cell: Cell, index: int) -> GameSpec:
        return GameSpec(cell, index, game_seed(self.seed, index),
                        tuple(seats_for(self.seats, cell.players, index, self.rotate)),
                        self.content, self.variant_paths.get(cell.variant, ""))

    def plan_json(self) -> dict[str, Any]:
        return {"cells": [[c.variant, c.players] for c in self.cells], "games": self.games,
                "seed": self.seed, "seats": list(self.seats), "rotate": self.rotate}


@dataclass
class RunResult:
    rows: list[dict[str, Any]]  # without --out; with it, read them with iter_rows()
    failures: list[Failure]
    played: int  # games played in this invocation (resumed ones not counted)
    kept: int  # games found done on disk and skipped
    seconds: float  # wall time of this invocation's games
    game_seconds: float  # time inside games, summed over workers
    failures_path: Path | None = None
    out: Path | None = None
    games: int = 0  # games with rows, kept and played
    notes: list[str] = field(default_factory=list)  # damaged lines skipped on --resume

    def iter_rows(self) -> Iterator[dict[str, Any]]:
        """Every row, sorted by game: from memory, or streamed from the rows file."""
        if self.out is None:
            yield from self.rows
        else:
            yield from rows.iter_rows(self.out)


Progress = Callable[[int, int], None]  # (games finished in this batch, failures in it)


def journal_path(out: Path) -> Path:
    return out.with_name(out.name + ".partial.jsonl")


def failures_path(config: RunConfig) -> Path:
    if config.failures is not None:
        return config.failures
    if config.out is not None:
        return config.out.with_name(config.out.stem + ".failures.jsonl")
    return Path("simulate.failures.jsonl")


def _key(row: dict[str, Any]) -> Key:
    return (row["variant"], int(row["players"]), int(row["game"]))


def check_bounds(config: RunConfig) -> None:
    if not 1 <= config.games <= MAX_SIM_GAMES:
        raise RunError(f"--games {config.games}: from 1 to {MAX_SIM_GAMES:,} games a cell "
                       "(docs/limits.md)")
    if config.total > MAX_SIM_TOTAL:
        raise RunError(f"{len(config.cells)} cells of {config.games:,} games are "
                       f"{config.total:,} games; a run plays at most {MAX_SIM_TOTAL:,} "
                       "(docs/limits.md)")


def check_output(path: Path, option: str) -> None:
    """``path`` can be written: its folder exists, and it is not a folder, nor a link
    (``safefile.output_problem``)."""
    named = name_problem(path)
    if named is not None:
        raise RunError(f"{option} {shown_path(path)}: {named}")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise RunError(f"{option} {shown_path(path)}: no folder {shown_path(folder)}; "
                       "create it first")
    if path.is_dir():
        raise RunError(f"{option} {shown_path(path)}: is a folder, not a file")
    problem = output_problem(path)
    if problem is not None:
        raise RunError(f"{option} {shown_path(path)}: {problem}")


def _is_failures_file(path: Path) -> bool:
    """Whether ``path`` holds only failure lines written by a run (so it may go)."""
    try:
        text = read_limited(path, 50_000_000).decode("utf-8")
        lines = [json.loads(line) for line in text.splitlines() if line.strip()]
    except (FileRefused, UnicodeDecodeError, ValueError, RecursionError):
        return False
    return all(isinstance(x, dict) and {"seed", "seats", "replay"} <= set(x) for x in lines)


def check_paths(config: RunConfig, report: Path | None = None) -> None:
    """Every output can be written, none is another, and the failures file is not a
    file of someone else's: refused before any game (exit 2)."""
    where = failures_path(config)
    outputs: dict[str, Path] = {}
    if config.out is not None:
        rows.check_format(config.out)
        outputs.update({"--out": config.out, "the journal": journal_path(config.out),
                        "the manifest": manifest.manifest_path(config.out)})
    outputs["--failures"] = where
    if report is not None:
        outputs.update({"--report": report, "the report's figures": report.with_suffix(".json")})
    if config.events is not None:
        if config.events.suffix not in (".jsonl", ".csv"):
            raise RunError(f"--events {config.events}: the events file ends in .jsonl or .csv")
        outputs["--events"] = config.events
    seen: dict[Path, str] = {}
    for name, path in outputs.items():
        resolved = path.resolve()
        if resolved in seen:
            raise RunError(f"{name} {path} is also {seen[resolved]}: give each its own file")
        seen[resolved] = name
    for name, path in outputs.items():
        check_output(path, name)
        if name in ("--out", "the journal", "--events") and os.path.lexists(path) \
                and not path.is_file():  # read back and appended to: a file, not a stream
            raise RunError(f"{name} {shown_path(path)}: not a regular file; name a file")
    if config.events is not None and config.events.exists() \
            and not EventsFile.is_events_file(config.events):
        raise RunError(f"--events {config.events}: the file exists and is not an events "
                       "file of a run; it is left alone: name another file")
    if where.exists() and not _is_failures_file(where):
        raise RunError(f"--failures {where}: the file exists and is not a failures file of "
                       "a run; it is left alone: name another file")


# ------------------------------------------------------------------ the journal

class Journal:
    """The run's store of finished games: one JSON line a game, appended and flushed
    as it arrives. It keeps only where each game's line starts (``index``), so memory
    does not grow with the rows. Opened on the first write: a run that fails to start
    leaves no file behind."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.file: IO[bytes] | None = None
        self.index: dict[Key, int] = {}
        self.memory: dict[Key, str] = {}  # without a path: each game's line

    def _open(self) -> IO[bytes]:
        if self.file is None:
            assert self.path is not None
            try:
                self.file = open_append(self.path)
                self.file.seek(0, 2)
                if self.file.tell():  # a line cut short by a kill: end it first
                    self.file.seek(-1, 2)
                    if self.file.read(1) != b"\n":
                        self.file.write(b"\n")
            except FileRefused as exc:
                raise RunError(f"cannot write {self.path}: {exc}") from None
            except OSError as exc:
                raise RunError(f"cannot write {self.path}: {exc.strerror}") from None
        return self.file

    def adopt(self, key: Key, offset: int) -> None:
        """A game already in the journal file (a resumed run)."""
        self.index.setdefault(key, offset)

    def add_game(self, game: PlayedGame) -> None:
        key = game.key
        if key in self.index or key in self.memory:
            return
        if self.path is None:
            self.memory[key] = game.line
            return
        out = self._open()
        line = game.line.encode()
        try:
            out.seek(0, 2)
            offset = out.tell()
            out.write(line)
            out.flush()
        except OSError as exc:
            raise RunError(f"cannot write {self.path}: {exc.strerror}; the games finished "
                           "so far are kept there for --resume") from None
        self.index[key] = offset

    def add(self, result: BatchResult) -> None:
        for game in result.played:
            self.add_game(game)

    def __contains__(self, key: Key) -> bool:
        return key in self.index or key in self.memory

    def __len__(self) -> int:
        return len(self.index) + len(self.memory)

    def games(self) -> Iterator[list[dict[str, Any]]]:
        """Every game's rows, sorted by variant, players, game."""
        if self.path is None:
            for key in sorted(self.memory):
                yield json.loads(self.memory[key])["rows"]
            return
        if self.file is not None:
            self.file.flush()
        with self.path.open("rb") as f:
            for key in sorted(self.index):
                f.seek(self.index[key])
                yield json.loads(f.readline())["rows"]

    def close(self) -> None:
        if self.file is not None:
            self.file.close()
            self.file = None


class EventsFile:
    """``--events FILE``: the events rows, appended batch by batch as the batches'
    text (``observe.events_text``: the workers encode them); a resumed run adds the
    games it plays."""

    def __init__(self, path: Path | None, append: bool) -> None:
        self.path = path
        self.file: IO[str] | None = None
        self.append = append

    @staticmethod
    def is_events_file(path: Path) -> bool:
        try:
            with path.open(encoding="utf-8") as f:
                first = f.readline(10_000)
        except (OSError, UnicodeDecodeError):
            return False
        if not first.strip():
            return True
        if path.suffix == ".csv":
            return first.strip().split(",") == list(EVENT_COLUMNS)
        try:
            data = json.loads(first)
        except ValueError:
            return False
        return isinstance(data, dict) and set(data) == set(EVENT_COLUMNS)

    @property
    def form(self) -> str:
        """The format the workers encode the rows in (``jsonl``, ``csv``; none: "")."""
        return self.path.suffix[1:] if self.path is not None else ""

    def add(self, events: str) -> None:
        if self.path is None or not events:
            return
        try:
            if self.file is None:
                fresh = not (self.append and self.path.exists())
                self.file = io.TextIOWrapper(open_append(self.path, truncate=fresh),
                                             encoding="utf-8", newline="")
                if fresh and self.path.suffix == ".csv":
                    self.file.write(",".join(EVENT_COLUMNS) + "\r\n")
            self.file.write(events)
            self.file.flush()
        except FileRefused as exc:
            raise RunError(f"cannot write {self.path}: {exc}") from None
        except OSError as exc:
            raise RunError(f"cannot write {self.path}: {exc.strerror}") from None

    def close(self) -> None:
        if self.file is not None:
            self.file.close()
            self.file = None


# ------------------------------------------------------------------ --resume

def _note(notes: list[str], message: str) -> None:
    if len(notes) < MAX_NOTES:
        notes.append(message)
    elif len(notes) == MAX_NOTES:
        notes.append("... more damaged lines (not listed)")


def _check_game(config: RunConfig, planned: set[Cell], game: list[dict[str, Any]],
                where: str) -> str | None:
    """Why a game on disk is not one of this run's (None: it is)."""
    variant, players, index = _key(game[0])
    if Cell(variant, players) not in planned or not 0 <= index < config.games:
        return "outside"
    expected = config.spec(Cell(variant, players), index)
    ordered = sorted(game, key=lambda r: r["seat"])
    agents = tuple(r["agent"] for r in ordered)
    if [r["seat"] for r in ordered] != list(range(1, players + 1)):
        return "incomplete"
    if game[0]["seed"] != expected.seed or agents != expected.seats:
        raise RunError(
            f"--resume: game {index} ({variant}, {players} players) in {where} has seed "
            f"{game[0]['seed']} and seats {','.join(agents)}; this run gives it seed "
            f"{expected.seed} and seats {','.join(expected.seats)}: use the --seed, "
            "--seats and --no-rotate of the run you continue")
    return None


def _check_manifest(config: RunConfig) -> None:
    assert config.out is not None
    path = manifest.manifest_path(config.out)
    if not path.exists():
        raise RunError(f"--resume: no manifest {path}, so the rules that made the rows in "
                       f"{config.out} are unknown; start a new run (another --out)")
    try:
        old = manifest.read(path)
    except ValueError as exc:
        raise RunError(f"--resume: {exc}") from None
    now = {"files": manifest.file_hashes(config.content)}
    changed = manifest.changed_files(old, now)
    if changed:
        names = ", ".join(changed[:5]) + (f" and {len(changed) - 5} more"
                                          if len(changed) > 5 else "")
        raise RunError(f"--resume: the rules changed since these rows were made ({names}); "
                       "rows of other rules would be mixed in one report: put the file(s) "
                       "back, or start a new run (another --out)")


def load_done(config: RunConfig, journal: Journal, notes: list[str]) -> None:
    """Put the games already on disk (the journal, then the rows file) in ``journal``,
    checked against the rules (the manifest) and the plan: a game there must have the
    seed and seats this run gives it, and no game may lie outside the plan. Damaged
    lines are skipped (their games are played again) and described in ``notes``.
    Failed games are not done: a resumed run plays them again."""
    if config.out is None:
        raise RunError("--resume needs --out: the rows of the run to continue")
    path = journal_path(config.out)
    if not config.out.exists() and not path.exists():
        raise RunError(f"--resume: neither {config.out} nor {path} exists")
    _check_manifest(config)
    planned = set(config.cells)
    outside: list[Key] = []
    problems: list[str] = []
    if path.exists():
        for number, item, offset in _journal_lines(path, problems):
            if not isinstance(item, dict):
                problems.append(f"{path}:{number}: not a journal line (an object with "
                                f"'rows' or 'failure'), but {type(item).__name__}")
                continue
            if "failure" in item:
                continue
            game = item.get("rows")
            if not isinstance(game, list) or not game:
                problems.append(f"{path}:{number}: 'rows' is not a list of rows")
                continue
            wrong = next((w for w in map(rows.row_problem, game) if w), None)
            if wrong is not None or len({_key(r) for r in game}) != 1:
                problems.append(f"{path}:{number}: {wrong or 'rows of several games'}")
                continue
            verdict = _check_game(config, planned, game, str(path))
            if verdict == "outside":
                outside.append(_key(game[0]))
            elif verdict == "incomplete":
                problems.append(f"{path}:{number}: the game's rows miss a seat")
            else:
                journal.adopt(_key(game[0]), offset)
    if config.out.exists():
        try:
            for game in _games_of(rows.iter_rows(config.out, problems)):
                key = _key(game[0])
                if key in journal:
                    continue
                verdict = _check_game(config, planned, game, str(config.out))
                if verdict == "outside":
                    outside.append(key)
                elif verdict == "incomplete":
                    problems.append(f"{config.out}: game {key[2]} ({key[0]}, {key[1]} "
                                    "players) misses a seat's row")
                else:
                    journal.add_game(PlayedGame.of(game))
        except rows.RowsError as exc:
            raise RunError(f"--resume: {exc}; nothing in it can be trusted") from None
    if outside:
        variant, players, index = outside[0]
        raise RunError(
            f"--resume: {len(outside)} games on disk are outside this run's plan (e.g. game "
            f"{index} of {variant} at {players} players; this run plays games 0 to "
            f"{config.games - 1} of {', '.join(c.label for c in config.cells)}): give the "
            "--games, --variant and --players of the run you continue, or another --out")
    for problem in problems:
        _note(notes, problem + "; that game is played again")


def _journal_lines(path: Path, problems: list[str]) -> Iterator[tuple[int, Any, int]]:
    """``(line number, value, offset)`` of each JSON line of a journal; see
    :func:`rows.read_jsonl` for what counts as damaged."""
    yield from rows.read_jsonl(path, problems)


def _games_of(table: Iterator[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    """Consecutive rows of one game, grouped (a rows file is sorted by game)."""
    game: list[dict[str, Any]] = []
    for row in table:
        if game and _key(row) != _key(game[0]):
            yield game
            game = []
        game.append(row)
    if game:
        yield game


# ------------------------------------------------------------------ the run

def simulate(config: RunConfig, progress: Progress | None = None,
             started: Callable[[int, int], None] | None = None) -> RunResult:
    """Play the run; ``started(total, kept)`` is called once the plan is known and the
    workers are up, and ``progress`` after every batch. An interruption
    (``KeyboardInterrupt``) leaves the journal for ``--resume``. The batches' games
    and events reach the files in the plan's order, whatever the number of workers."""
    check_bounds(config)
    check_paths(config)
    journal_file = journal_path(config.out) if config.out is not None else None
    journal = Journal(journal_file)
    events = EventsFile(config.events, append=config.resume)
    notes: list[str] = []
    if config.resume:
        load_done(config, journal, notes)
    elif journal_file is not None and journal_file.exists():
        raise RunError(f"{journal_file} holds the games of an interrupted run: continue it "
                       "with --resume, or delete it to start again")
    if config.out is not None:
        _write(manifest.manifest_path(config.out), manifest.text(manifest.build(
            config.plan_json(), config.content, config.command)))
    kept = len(journal)
    todo = (s for s in config.specs() if s.key not in journal)
    new_failures: list[Failure] = []
    game_seconds = 0.0

    def finished(result: BatchResult) -> None:
        nonlocal game_seconds
        journal.add(result)
        events.add(result.events)
        new_failures.extend(result.failures)
        game_seconds += result.seconds
        if progress is not None:
            progress(result.games, len(result.failures))

    clock = time.perf_counter()
    try:
        backends.run(config.backend, backends.batches(
                         todo, config.total - kept,
                         lambda left: backends.batch_size(config.backend, left,
                                                          config.workers)),
                     finished, workers=config.workers, address=config.address,
                     content=config.content, events=events.form,
                     launched=None if started is None
                     else lambda: started(config.total, kept))
    finally:
        journal.close()
        events.close()
        if journal_file is not None and journal_file.exists() and not journal.index:
            remove_file(journal_file)  # a run that played nothing leaves no journal
    seconds = time.perf_counter() - clock
    failures = sorted(new_failures, key=lambda f: (f.variant, f.players, f.index))
    where = failures_path(config)
    table: list[dict[str, Any]] = []
    if config.out is not None:
        try:
            rows.write(config.out, (r for game in journal.games() for r in game))
        except OSError as exc:
            raise RunError(f"cannot write {config.out}: {exc.strerror}; the games are kept "
                           f"in {journal_file} for --resume") from None
    else:
        table = [r for game in journal.games() for r in game]
    if failures:
        _write(where, "".join(json.dumps(f.as_dict()) + "\n" for f in failures))
    elif where.is_file() and where.stat().st_size and config.out is not None \
            and _is_failures_file(where):  # a run's lines (an empty file is not a run's)
        remove_file(where)
    if journal_file is not None and journal_file.exists():
        remove_file(journal_file)
    played = config.total - kept
    return RunResult(table, failures, played, kept, seconds, game_seconds,
                     where if failures else None, config.out, len(journal), notes)


def _write(path: Path, text: str) -> None:
    try:
        write_output(path, text)
    except FileRefused as exc:
        raise RunError(str(exc)) from None
    except OSError as exc:
        raise RunError(f"cannot write {path}: {exc.strerror}") from None
