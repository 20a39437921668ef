"""A game played from a save record: replay what is recorded, then go on live.

Every seat's agent is wrapped in a :class:`Recorder`. While recorded decisions
remain, each is answered from the record (after checking that the game asks the
same question); bots still compute their own answer, which must agree, so their
random generators and any plans they keep are exactly as in a game played
straight through. After the record, agents answer live and every answer is
appended and saved. Undo truncates the record and plays the game again.

An engine error (content the engine cannot go on with) is recorded in the save
as its ``failure``; ``offer`` may then take back the latest decision a person
made, which truncates the record as undo does (``take_back.py``).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from exlibris.catalog import Catalog
from exlibris.dsl.errors import EffectError
from exlibris.engine.decisions import Agent, Decision, ReplayExhausted
from exlibris.engine.errors import RulesError
from exlibris.engine.events import EventLog
from exlibris.engine.flow import Outcome, new_game, play
from exlibris.engine.game import Game
from exlibris.interactive import record as saves
from exlibris.interactive.record import Entry, Failure, SaveError, SaveRecord, failure_of
from exlibris.model.rules import Settings
from exlibris.scoring.artifacts import ArtifactScoringError

# what stops a game: content the engine cannot go on with (not a bad save, not a bug)
ENGINE_ERRORS = (EffectError, RulesError, ArtifactScoringError)


class UndoRequest(Exception):
    """Play again from the start, answering only the first ``keep`` decisions."""

    def __init__(self, keep: int) -> None:
        super().__init__(keep)
        self.keep = keep


class QuitRequest(Exception):
    """The player stops (``q``, or the end of standard input); the game is saved."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# decision observer for replays: (session, decision, entry, number) before the answer
Observer = Callable[["Session", Decision, Entry, int], None]


def error_code(exc: Exception) -> str:
    """The stable code of an engine error."""
    return "engine/effect" if isinstance(exc, EffectError) else getattr(exc, "code",
                                                                        "engine/rules")


def bot_seed(seed: int, seat: int) -> int:
    """A bot's own seed, as headless play has always derived it."""
    return seed * 31 + seat


def settings_for(record: SaveRecord, catalog: Catalog) -> Settings:
    """The variant's settings, with the number of library tiles dealt if chosen."""
    from exlibris.model.variants import resolve_settings

    settings = resolve_settings(record.variant, catalog.variants)
    if record.libraries is not None:
        setup = settings.setup.model_copy(update={"libraries_dealt": record.libraries})
        settings = settings.model_copy(update={"setup": setup})
    if record.difficulty is not None and settings.solo is not None:
        solo = settings.solo.model_copy(update={"difficulty": record.difficulty})
        settings = settings.model_copy(update={"solo": solo})
    return settings


@dataclass
class Session:
    """One game played from ``record``; ``humans`` answer the human seats live."""

    record: SaveRecord
    catalog: Catalog
    humans: dict[int, Agent] = field(default_factory=dict)
    save_path: Path | None = None
    log_events: bool = True
    observer: Observer | None = None
    replay_only: bool = False  # no agent at all: stop where the record ends
    game: Game | None = None
    log: EventLog = field(default_factory=EventLog)
    replaying: int = 0  # decisions answered from the record in this run
    asked: int = 0
    seen: dict[int, int] = field(default_factory=dict)  # seat -> log length at its last answer
    bot_seconds: float = 0.0  # the slowest bot answer so far
    agents: list[Recorder] = field(default_factory=list)
    # while a bot decides live: a context manager given the bot's seat and agent (the
    # terminal's wait, ``waiting.py``); None plays without one
    thinking: Callable[[int, Agent], AbstractContextManager[object]] | None = None
    # after an engine error, with a decision of a person's to take back: True takes
    # it back and the game goes on (``take_back.offer``); None, or False: it stops
    offer: Callable[[Session, Exception], bool] | None = None
    # the save's text, each decision's part kept from one autosave to the next
    save_text: saves.SaveText = field(default_factory=saves.SaveText, repr=False)

    # ------------------------------------------------------------------ running
    def run(self) -> Outcome:
        """Play to the end (again after each undo or take-back) and mark the record
        finished. An engine error is recorded and saved, then raised unless ``offer``
        takes back the latest decision a person made."""
        while True:
            try:
                outcome = self.run_once()
            except UndoRequest as undo:
                self.take_back(undo.keep)
                continue
            except ENGINE_ERRORS as exc:
                if self.asked < len(self.record.decisions):  # this game never got past it
                    raise SaveError("save/mismatch", (
                        f"decision {self.asked + 1} does not replay: the game stops before "
                        f"it ({exc})")) from None
                self.stopped(exc)
                keep = self.record.last_of_people()
                if keep is None or self.offer is None or not self.offer(self, exc):
                    raise
                self.take_back(keep)
                continue
            self.record.finished = True
            self.save()
            return outcome

    def take_back(self, keep: int) -> None:
        """Forget every decision from index ``keep`` on (undo, or a take-back after an
        engine error) and save; the next run plays the record again up to there."""
        del self.record.decisions[keep:]
        self.record.failure = None
        self.save()

    def stopped(self, exc: Exception) -> Failure:
        """Record that the game stopped on ``exc`` before the next decision, and save."""
        failure = failure_of(error_code(exc), str(exc), len(self.record.decisions))
        self.record.failure = failure
        self.save()
        return failure

    def run_once(self) -> Outcome:
        """Set the game up from the record and play it (undo and quit propagate)."""
        self.game = self.build()
        return play(self.game)

    def build(self) -> Game:
        record = self.record
        self.log = EventLog(enabled=self.log_events)
        self.replaying = len(record.decisions)
        self.asked = 0
        self.seen = {}
        self.agents = [Recorder(self, seat, self.agent_for(seat, kind))
                       for seat, kind in enumerate(record.seats)]
        return new_game(self.catalog, settings_for(record, self.catalog), self.agents,
                        seed=record.seed, names=record.names, log=self.log,
                        views=self.view, variant=record.variant,
                        libraries=record.library or None,
                        assistants=record.assistant or None)

    def agent_for(self, seat: int, kind: str) -> Agent | None:
        """A seat's agent; bots play along in a replay too, so that their recorded
        answers are checked exactly as when a game is resumed."""
        if kind == "human":
            return None if self.replay_only else self.humans.get(seat)
        from exlibris.agents import make_bot

        return make_bot(kind, bot_seed(self.record.seed, seat))

    def view(self, game: Game, seat: int) -> Any:
        """The engine's view hook; it also hands the session its game during set-up."""
        self.game = game
        inner = self.agents[seat].inner
        if inner is not None and getattr(inner, "needs_view", False):
            from exlibris.agents.view import player_view

            return player_view(game, seat)
        return None

    # ------------------------------------------------------------------ answering
    def answer(self, seat: int, agent: Agent | None, view: Any, decision: Decision) -> int:
        number = self.asked
        if number < self.replaying:
            entry = self.record.decisions[number]
            check(entry, decision, number)
            if self.observer is not None:
                self.observer(self, decision, entry, number)
            if agent is not None and self.record.seats[seat] != "human":
                # a bot that searches answers again only where it is quick
                recheck = getattr(agent, "recheck", None)
                mine = agent.decide(view, decision) if recheck is None \
                    else recheck(view, decision)
                if mine is not None and mine != entry.index:
                    raise SaveError("save/mismatch", (
                        f"decision {number + 1} does not replay: the save says "
                        f"{self.record.names[seat]} chose {entry.label!r}, but this build's "
                        f"{self.record.seats[seat]} bot chooses {decision.labels[mine]!r}"))
            self.asked += 1
            self.seen[seat] = len(self.log.records)
            return entry.index
        if self.record.finished:
            raise SaveError("save/corrupt", f"the save says the game is finished, but its "
                            f"record ends before decision {number + 1}")
        if agent is None or self.replay_only:
            raise ReplayExhausted(f"the record ends at decision {number + 1}")
        self.record.failure = None  # the game goes on past where it once stopped
        started = time.perf_counter()
        if self.thinking is not None and self.record.seats[seat] != "human":
            with self.thinking(seat, agent):
                index = agent.decide(view, decision)
        else:
            index = agent.decide(view, decision)
        if self.record.seats[seat] != "human":
            self.bot_seconds = max(self.bot_seconds, time.perf_counter() - started)
        self.asked += 1
        self.seen[seat] = len(self.log.records)
        label = decision.label(index)  # not every label: bots are fast
        self.record.decisions.append(Entry(seat, decision.kind, index, label))
        self.save()
        return index

    def undo(self, seat: int) -> bool:
        """Take back ``seat``'s latest decision (and all after it); False if it has none."""
        last = self.record.last_of(seat)
        if last is None:
            return False
        raise UndoRequest(last)

    def save(self) -> Path | None:
        """Autosave; ``save/unwritable`` if the file cannot be written (a full disk):
        the file then holds the game as it was last saved."""
        if self.save_path is not None:
            write_save(self.record, self.save_path, self.save_text)
        return self.save_path

    def save_to(self, path: Path) -> str:
        """Save a copy to ``path`` (``s FILE``); autosaving goes on where it was. Says
        where, and where an unfinished game found at ``path`` was kept; raises
        :class:`SaveError` for a file that is not a save, a save another game is
        using, or a folder that cannot be written."""
        from exlibris.interactive import save_lock, save_target

        if self.save_path is not None and os.path.realpath(path) == os.path.realpath(
                self.save_path):
            self.save()
            return str(path)
        save_target.check_folder(path, default=False)
        with save_lock.holding(path):
            kept = save_target.make_room(path, self.record, new_game=False)
            write_save(self.record, path, self.save_text)
        return str(path) if kept is None else \
            f"{path} (the unfinished game saved there was kept as {kept})"


def write_save(record: SaveRecord, path: Path, text: saves.SaveText | None = None) -> None:
    """Write ``record`` to ``path`` atomically (by ``text``, a game's saves one after
    another); ``save/unwritable`` says why it failed."""
    from exlibris.safefile import FileRefused

    try:
        saves.save(record, path, text)
    except FileRefused as exc:
        raise SaveError("save/unwritable", f"cannot write the save ({exc.reason}); "
                        "the file keeps the game as it was last saved") from None


def check(entry: Entry, decision: Decision, number: int) -> None:
    """The recorded answer must fit the decision the game asks now."""
    fits = (entry.seat == decision.seat and entry.kind == decision.kind
            and entry.index < len(decision)
            and decision.label(entry.index) == entry.label)
    if not fits:
        raise SaveError("save/mismatch", (
            f"decision {number + 1} does not replay: the save says seat {entry.seat + 1} "
            f"chose {entry.label!r} ({entry.kind}), but the game asks seat "
            f"{decision.seat + 1} to {decision.prompt} ({decision.kind})"))


class Recorder:
    """The agent the engine sees for one seat: the record first, then ``inner``."""

    def __init__(self, session: Session, seat: int, inner: Agent | None) -> None:
        self.session = session
        self.seat = seat
        self.inner = inner
        self.needs_view = True  # the session's view hook decides what to build

    def decide(self, view: Any, decision: Decision) -> int:
        return self.session.answer(self.seat, self.inner, view, decision)

    def sit_at(self, game: Game) -> None:
        """Hand the game on to an agent that plays forks of it."""
        sit_at = getattr(self.inner, "sit_at", None)
        if sit_at is not None:
            sit_at(game)
