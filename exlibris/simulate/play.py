"""Play a batch of games in one worker process; the catalog is compiled once per
process and kept for every later batch (a pool forked from the run's process starts
with the run's own, already checked).

A batch comes back compact: each game as its journal line (its rows as JSON text)
and the events rows as the events file's text, so the process that gathers the
results only writes text.

A game is played exactly as ``exlibris play --seed ... --seats ...`` plays it
headless (same agents, same bot seeds, same views), so a failed game's replay
command reproduces it.
"""

from __future__ import annotations

import json
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from exlibris.catalog import Catalog
from exlibris.engine.decisions import DecisionKind
from exlibris.engine.flow import Outcome
from exlibris.simulate.observe import OBSERVED, events_text, observe
from exlibris.simulate.plan import GameSpec
from exlibris.simulate.rows import game_rows
from exlibris.sources import content_in_use

_SETTINGS: dict[tuple[tuple[str, ...], str], Any] = {}
_clock = time.perf_counter
_LIBRARY = DecisionKind.LIBRARY


def catalog(content: tuple[str, ...] = ()) -> Catalog:
    """The catalog with an author's ``content`` (none: the shipped one), loaded
    (parsed, effects compiled) once per process: ``load_catalog`` keeps it."""
    from exlibris.catalog import load_catalog

    return load_catalog([Path(p) for p in content])


def worker_init(content: tuple[str, ...] = (), parent: int | None = None) -> None:
    """A pool worker's start: Ctrl-C is the parent's to handle (it stops the run and
    keeps what finished), SIGTERM ends the worker (a forked worker would otherwise
    keep the parent's handler); the worker dies with its parent; the catalog is
    compiled now (a forked worker has the parent's)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    die_with_parent(parent)
    catalog(content)


def die_with_parent(parent: int | None) -> None:
    """End this process when the parent ``parent`` is gone (killed, even by SIGKILL):
    Linux is asked to send SIGKILL then (``PR_SET_PDEATHSIG``), and elsewhere a
    thread notices within a second that the parent changed."""
    import os
    import threading

    if parent is None:
        return
    try:
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux
        pass
    if os.getppid() != parent:  # the parent died before the call above
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, name="exlibris-parent-watch", daemon=True).start()


@dataclass
class Failure:
    """A game that raised: enough to find it, replay it and read why."""

    variant: str
    players: int
    index: int
    seed: int
    seats: list[str]
    error: str
    traceback: str
    replay: str

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class PlayedGame:
    """A finished game: its key and its journal line (``{"rows": [...]}``, a row a
    seat, and a newline)."""

    key: tuple[str, int, int]
    line: str

    @classmethod
    def of(cls, rows: list[dict[str, Any]]) -> PlayedGame:
        first = rows[0]
        return cls((first["variant"], int(first["players"]), int(first["game"])),
                   json.dumps({"rows": rows}) + "\n")

    def rows(self) -> list[dict[str, Any]]:
        return json.loads(self.line)["rows"]  # type: ignore[no-any-return]


@dataclass
class BatchResult:
    """The finished games and the failures, in game order; with an events format,
    the finished games' events rows as the events file's lines."""

    played: list[PlayedGame] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
    events: str = ""
    games: int = 0
    seconds: float = 0.0  # time spent inside games, for overhead figures


class RoundScores:
    """Every seat's total at the end of each round (the score by round), taken at the
    first decision of the next round by the same pure inspection the game ends with
    (no flips asked, nothing in the game changed); and the locations on the board at
    each round's first decision."""

    def __init__(self) -> None:
        self.game: Any = None
        self.round = 0
        self.totals: list[list[int]] = []  # one list a finished round, seat order
        self.boards: list[list[str]] = []  # one list a round: the locations in play

    def sit_at(self, game: Any) -> None:
        self.game = game

    def check(self) -> None:
        game = self.game
        if game is None or game.state.round == self.round:
            return
        if self.round > 0:
            self.totals.append(self.now())
        self.round = game.state.round
        self.boards.append(sorted(loc.id for loc in game.state.in_play))

    def now(self) -> list[int]:
        from exlibris.engine.flow import table_of
        from exlibris.scoring.inspection import inspect_table

        result = inspect_table(table_of(self.game), self.game.scoring)
        return [form.total for form in result.forms]


class TimedSeat:
    """An agent whose decisions are counted and timed (the ``player_decisions``,
    ``options``, ``thinking`` and ``slowest`` columns, and by round), with the library
    tiles it was dealt; anything else is the agent's own. The seats of a game share
    one :class:`RoundScores`."""

    def __init__(self, agent: Any, scores: RoundScores | None = None) -> None:
        self.agent = agent
        self.needs_view = getattr(agent, "needs_view", False)
        self.decisions = 0
        self.options = 0
        self.seconds = 0.0
        self.slowest = 0.0
        self.scores = scores
        self.dealt: list[str] = []
        self.decisions_by_round: list[int] = []
        self.options_by_round: list[int] = []

    def sit_at(self, game: Any) -> None:
        if self.scores is not None:
            self.scores.sit_at(game)
        sit_at = getattr(self.agent, "sit_at", None)
        if sit_at is not None:
            sit_at(game)

    def decide(self, view: Any, decision: Any) -> int:
        scores = self.scores
        if scores is not None and scores.game is not None \
                and scores.game.state.round != scores.round:
            scores.check()  # a new round: its first decision
        started = _clock()
        index = self.agent.decide(view, decision)
        took = _clock() - started
        self.seconds += took
        if took > self.slowest:
            self.slowest = took
        self.decisions += 1
        size = decision.size
        self.options += size
        if decision.kind == _LIBRARY:
            self.dealt = [str(getattr(v, "id", v)) for v in decision.values]
        at = scores.round if scores is not None else 0
        if at > 0:
            by_round = self.decisions_by_round
            if len(by_round) < at:
                missing = at - len(by_round)
                by_round += [0] * missing
                self.options_by_round += [0] * missing
            by_round[at - 1] += 1
            self.options_by_round[at - 1] += size
        return int(index)

    def __getattr__(self, name: str) -> Any:  # sit_at, ... (called only when missing)
        return getattr(self.agent, name)


def play_game(spec: GameSpec) -> tuple[Outcome, Any, int, float, list[TimedSeat]]:
    """Play one game; returns its outcome, the final game, the seat that played first,
    the seconds it took and its timed seats."""
    from exlibris.agents import make_bot
    from exlibris.agents.view import player_view
    from exlibris.engine.events import EventLog
    from exlibris.engine.flow import new_game, play
    from exlibris.interactive.session import bot_seed
    from exlibris.model.variants import resolve_settings

    cat = catalog(spec.content)
    key = (spec.content, spec.cell.variant)
    settings = _SETTINGS.get(key)
    if settings is None:
        settings = _SETTINGS[key] = resolve_settings(spec.cell.variant, cat.variants)
    scores = RoundScores()
    agents = [TimedSeat(make_bot(kind, bot_seed(spec.seed, seat)), scores)
              for seat, kind in enumerate(spec.seats)]
    started = time.perf_counter()
    # the game's content is the content in use (a pool or Ray worker starts without it):
    # the inspection reads the artifacts' and assistants' scores from it
    with content_in_use(Path(p) for p in spec.content):
        game = new_game(cat, settings, agents, seed=spec.seed, variant=spec.cell.variant,
                        views=player_view, log=EventLog(True, OBSERVED))
        first = game.state.first_player
        outcome = play(game)
    return outcome, game, first, time.perf_counter() - started, agents


def _said(exc: Exception) -> str:
    """A failed game's error as the failures file says it: the content's in the
    author's words (its file, line and column); the engine's own with its class."""
    from exlibris.interactive.session import ENGINE_ERRORS, error_code

    if isinstance(exc, ENGINE_ERRORS):
        return f"{exc} [{error_code(exc)}]"
    return f"{type(exc).__name__}: {exc}"


def play_batch(specs: Sequence[GameSpec], events: str = "") -> BatchResult:
    """Play every game of ``specs``; an error in one game is recorded, not raised.
    ``events`` (``jsonl`` or ``csv``): also the events rows, in that format
    (``observe.py``)."""
    result = BatchResult()
    texts: list[str] = []
    for spec in specs:
        try:
            outcome, game, first, seconds, seats = play_game(spec)
        except Exception as exc:  # any error of the engine or content: keep going
            result.failures.append(Failure(
                spec.cell.variant, spec.cell.players, spec.index, spec.seed,
                list(spec.seats), _said(exc), traceback.format_exc(),
                spec.replay_command()))
        else:
            boards = seats[0].scores.boards if seats and seats[0].scores else []
            logs, rows = observe(game.log.records, len(spec.seats), bool(events), boards)
            result.played.append(PlayedGame.of(
                game_rows(spec, outcome, game, first, seconds, seats, logs)))
            if events:
                texts.append(events_text(spec.key, rows, events))
            result.seconds += seconds
        result.games += 1
    result.events = "".join(texts)
    return result
