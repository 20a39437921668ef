"""A simulation run: plan the games, skip those already played (``--resume``), play
the rest on a backend, keep every finished game in a journal as it arrives, and
write the rows and the failures at the end.

Files, for ``--out r.parquet``: the rows ``r.parquet``; while running (and after an
interruption) the journal ``r.parquet.partial.jsonl``, one line a finished game;
``r.failures.jsonl``, one line a game that raised, with its replay command (a
resumed run plays failed games again, and the file then lists this run's failures).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from exlibris.simulate import backends, rows
from exlibris.simulate.plan import Cell, GameSpec, game_seed, seats_for
from exlibris.simulate.play import BatchResult, Failure


class RunError(ValueError):
    """A run that cannot start as asked (a journal in the way, a resume that does not
    match the rows on disk...)."""


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

    def specs(self) -> Iterator[GameSpec]:
        for cell in self.cells:
            for index in range(self.games):
                yield self.spec(cell, index)

    def spec(self, cell: Cell, index: int) -> GameSpec:
        return GameSpec(cell, index, game_seed(self.seed, index),
                        tuple(seats_for(self.seats, cell.players, index, self.rotate)),
                        self.content)


@dataclass
class RunResult:
    rows: list[dict[str, Any]]
    failures: list[Failure]
    played: int  # games played in this invocation (resumed ones not counted)
    kept: int  # games found done on disk and skipped
    seconds: float  # wall time of this invocation's games
    game_seconds: float  # time inside games, summed over workers
    failures_path: Path | None = None


Progress = Callable[[int, int], None]  # (games finished in this batch, failures in it)


def journal_path(out: Path) -> Path:
    return out.with_name(out.name + ".partial.jsonl")


def failures_path(config: RunConfig) -> Path:
    if config.failures is not None:
        return config.failures
    if config.out is not None:
        return config.out.with_name(config.out.stem + ".failures.jsonl")
    return Path("simulate.failures.jsonl")


def _key(row: dict[str, Any]) -> tuple[str, int, int]:
    return (row["variant"], int(row["players"]), int(row["game"]))


def load_done(config: RunConfig) -> dict[tuple[str, int, int], list[dict[str, Any]]]:
    """The rows already on disk for this run (``--resume``), by game, checked against
    the plan: a game there must have the seed and seats this run gives it. Failed
    games are not done: a resumed run plays them again."""
    done: dict[tuple[str, int, int], list[dict[str, Any]]] = {}
    if config.out is None:
        raise RunError("--resume needs --out: the rows of the run to continue")
    journal = journal_path(config.out)
    found = [config.out] if config.out.exists() else []
    if journal.exists():
        found.append(journal)
    if not found:
        raise RunError(f"--resume: neither {config.out} nor {journal} exists")
    for path in found:
        if path == journal:
            table = [r for e in rows.read_jsonl(path) for r in e.get("rows", [])]
        else:
            table = rows.read(path)
        for row in table:
            done.setdefault(_key(row), []).append(row)
    for (variant, players, index), game in done.items():
        expected = config.spec(Cell(variant, players), index)
        agents = tuple(r["agent"] for r in sorted(game, key=lambda r: r["seat"]))
        if game[0]["seed"] != expected.seed or agents != expected.seats:
            raise RunError(
                f"--resume: game {index} ({variant}, {players} players) on disk has seed "
                f"{game[0]['seed']} and seats {','.join(agents)}; this run gives it seed "
                f"{expected.seed} and seats {','.join(expected.seats)}: use the --seed, "
                "--seats and --no-rotate of the run you continue")
    return done


class Journal:
    """Appends each finished batch to the journal file, flushed, so an interruption
    keeps every finished game."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.file = path.open("a", encoding="utf-8") if path is not None else None

    def add(self, result: BatchResult) -> None:
        if self.file is None:
            return
        games: dict[tuple[str, int, int], list[dict[str, Any]]] = {}
        for row in result.rows:
            games.setdefault(_key(row), []).append(row)
        lines = [json.dumps({"rows": game}) for game in games.values()]
        lines += [json.dumps({"failure": f.as_dict()}) for f in result.failures]
        self.file.write("".join(line + "\n" for line in lines))
        self.file.flush()

    def close(self) -> None:
        if self.file is not None:
            self.file.close()


def simulate(config: RunConfig, progress: Progress | None = None,
             started: Callable[[int, int], None] | None = None) -> RunResult:
    """Play the run; ``started(total, kept)`` is called once the plan is known and
    ``progress`` after every batch. An interruption (``KeyboardInterrupt``) leaves
    the journal for ``--resume``."""
    if config.out is not None:
        rows.check_format(config.out)
    done: dict[tuple[str, int, int], list[dict[str, Any]]] = {}
    journal = journal_path(config.out) if config.out is not None else None
    if config.resume:
        done = load_done(config)
    elif journal is not None and journal.exists():
        raise RunError(f"{journal} holds the games of an interrupted run: continue it with "
                       "--resume, or delete it to start again")
    planned = list(config.specs())
    todo = [s for s in planned if s.key not in done]
    kept = len(planned) - len(todo)
    if started is not None:
        started(len(planned), kept)
    size = backends.batch_size(config.backend, len(todo), config.workers)
    played: list[dict[str, Any]] = []
    new_failures: list[Failure] = []
    game_seconds = 0.0
    writer = Journal(journal)

    def finished(result: BatchResult) -> None:
        nonlocal game_seconds
        writer.add(result)
        played.extend(result.rows)
        new_failures.extend(result.failures)
        game_seconds += result.seconds
        if progress is not None:
            progress(result.games, len(result.failures))

    clock = time.perf_counter()
    try:
        backends.run(config.backend, backends.batches(todo, size), finished,
                     workers=config.workers, address=config.address,
                     content=config.content)
    finally:
        writer.close()
    seconds = time.perf_counter() - clock
    table = sorted([r for game in done.values() for r in game] + played, key=rows.sort_key)
    failures = sorted(new_failures, key=lambda f: (f.variant, f.players, f.index))
    where = failures_path(config)
    if config.out is not None:
        rows.write(config.out, table)
    if failures:
        where.write_text("".join(json.dumps(f.as_dict()) + "\n" for f in failures), "utf-8")
    elif where.exists() and config.out is not None:
        where.unlink()
    if journal is not None and journal.exists():
        journal.unlink()
    return RunResult(table, failures, len(todo), kept, seconds, game_seconds,
                     where if failures else None)

