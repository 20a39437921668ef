"""Running a scenario: set up the position, drive the engine's own phases with a
scripted agent, stop when the script runs out, then compare with ``expect``.

The phases are ``exlibris.engine.flow``'s ``preparation``, ``placement``,
``resolution`` and ``cleanup``, run from the scenario's ``phase`` through its
``until``. Every decision the engine asks goes to the script, in order; when the
script is exhausted the next decision stops the run (:class:`ScriptDone`) and the
state is compared as it is at that moment.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from exlibris.agents.view import player_view
from exlibris.dsl.errors import EffectError
from exlibris.engine import flow
from exlibris.engine.decisions import Decision
from exlibris.engine.errors import RulesError
from exlibris.engine.events import EventLog
from exlibris.engine.game import Game
from exlibris.scenario.compare import compare
from exlibris.scenario.model import END, PHASES, Scenario, Step
from exlibris.scenario.position import build_game
from exlibris.scoring.artifacts import ArtifactScoringError
from exlibris.sources import content_in_use


class ScriptDone(Exception):
    """The script has no line left for the decision the engine is asking."""

    def __init__(self, decision: Decision) -> None:
        super().__init__(decision.prompt)
        self.decision = decision


class ScriptMismatch(Exception):
    """A script line does not fit the decision the engine is asking."""


@dataclass
class Trace:
    """What happened while the script ran: each decision and the answer given."""

    lines: list[str] = field(default_factory=list)


class ScriptedAgent:
    """Answers every seat's decisions from one shared script."""

    needs_view = False

    def __init__(self, run: Run) -> None:
        self.run = run

    def decide(self, view: Any, decision: Decision) -> int:
        return self.run.answer(decision)


class BotSeat:
    """A seat a bot plays (a player's ``bot:``): the bot answers, the trace records it."""

    needs_view = True

    def __init__(self, run: Run, name: str, seat: int) -> None:
        from exlibris.agents import make_bot  # the bots only where a scenario names one

        self.run = run
        self.name = name
        self.bot = make_bot(name, run.scenario.seed * 31 + seat)  # as play seeds a seat

    def sit_at(self, game: Game) -> None:
        sit_at = getattr(self.bot, "sit_at", None)
        if sit_at is not None:
            sit_at(game)

    def decide(self, view: Any, decision: Decision) -> int:
        index: int = self.bot.decide(view if getattr(self.bot, "needs_view", False) else None,
                                     decision)
        self.run.asked.append(decision)
        self.run.trace.append(f"-. {self.run.who(decision.seat)} ({self.name}): "
                              f"{decision.labels[index]}")
        return index


@dataclass
class Result:
    """The outcome of one scenario."""

    name: str
    file: str
    passed: bool
    difference: str = ""
    trace: list[str] = field(default_factory=list)
    pending: Decision | None = None
    # the content stopped the game (an effect that cannot go on, a rule the engine
    # cannot play): ``difference`` says where, in the author's file
    stopped: bool = False


class Run:
    """One run of a scenario's script against the engine."""

    def __init__(self, scenario: Scenario) -> None:
        self.scenario = scenario
        self.steps: list[Step] = list(scenario.script)
        self.next = 0
        self.trace: list[str] = []
        self.pending: Decision | None = None
        self.game: Game | None = None
        self.outcome: flow.Outcome | None = None
        self.asked: list[Decision] = []  # every decision of the run, the pending one too
        self.never_offered: list[tuple[str | None, str]] = [
            item for e in scenario.expect if e.key == "never_offered" for item in e.value]
        self.offered_why: dict[int, str] = {}  # id(decision) -> why a never_offered is there

    def who(self, seat: int) -> str:
        return self.scenario.setup.players[seat].name

    def answer(self, decision: Decision) -> int:
        self.asked.append(decision)
        if self.never_offered:
            self._offered(decision)
        if self.next >= len(self.steps):
            self.pending = decision
            raise ScriptDone(decision)
        step = self.steps[self.next]
        number = self.next + 1
        asked = self.who(decision.seat)
        options = "; ".join(decision.labels)
        if step.player is not None and step.player != asked:
            raise ScriptMismatch(
                f"script step {number} (line {step.line}) expects {step.player} to choose "
                f"{step.label!r}, but {asked} is asked to {decision.prompt!r} "
                f"(options: {options})")
        try:
            index = self._option(decision, step.label)
        except ValueError:
            raise ScriptMismatch(
                f"script step {number} (line {step.line}): {step.label!r} is not an option; "
                f"{asked} is asked to {decision.prompt!r} (options: {options})"
                f"{self._why_not(decision, step.label)}") from None
        self.next += 1
        self.trace.append(f"{number}. {asked}: {step.label}")
        return index

    def _option(self, decision: Decision, label: str) -> int:
        """The option a step names: by the engine's label (what scripts have always
        named), else by the label as the screen shows it, with each card's books and
        each artifact's name (``interactive/steps.py: player_labels``)."""
        labels = decision.labels
        if label in labels:
            return labels.index(label)
        from exlibris.interactive.steps import player_labels

        return player_labels(self.game, decision).index(label)

    def _why_not(self, decision: Decision, label: str) -> str:
        """Why the engine refuses what a step's label names (``engine/why.py``)."""
        if self.game is None:
            return ""
        from exlibris.engine.why import why_not

        return "\nwhy not: " + why_not(self.game, decision, label).replace("\n", "\n  ")

    def _offered(self, decision: Decision) -> None:
        """Keep why a label the scenario expects never offered is offered, said now
        while the position is the one it was offered in."""
        if self.game is None:
            return
        labels = decision.labels
        for player, label in self.never_offered:
            if label in labels and player in (None, self.who(decision.seat)):
                from exlibris.engine.why import why_offered

                self.offered_why[id(decision)] = why_offered(self.game, decision,
                                                             labels.index(label))

    def execute(self) -> Result:
        scenario = self.scenario
        scripted = ScriptedAgent(self)
        players = scenario.setup.players
        agents: list[Any] = [scripted if p.bot is None else BotSeat(self, p.bot, seat)
                             for seat, p in enumerate(players)]
        views = player_view if any(p.bot is not None for p in players) else None
        if scenario.setup.dealt:  # as a new game is set up, by the scenario's seed
            try:  # the set-up may ask (a drafted hand): the script answers from line 1
                game = flow.new_game(scenario.catalog, scenario.settings, agents,
                                     seed=scenario.seed, names=[p.name for p in players],
                                     log=EventLog(enabled=True), variant=scenario.rules,
                                     libraries=[p.library for p in players], views=views)
            except ScriptDone as done:
                decision = done.decision
                return Result(scenario.name, str(scenario.file), False, trace=self.trace,
                              difference=(
                                  f"the script ran out during the set-up: "
                                  f"{self.who(decision.seat)} is asked to "
                                  f"{decision.prompt!r} (options: "
                                  f"{'; '.join(decision.labels)})"),
                              pending=decision)
            except ScriptMismatch as exc:
                return Result(scenario.name, str(scenario.file), False, trace=self.trace,
                              difference=str(exc))
        else:
            game = build_game(scenario, agents, views=views)
        self.game = game
        phases: dict[str, Callable[[Game], None]] = {
            "preparation": flow.preparation, "placement": flow.placement,
            "resolution": flow.resolution, "cleanup": flow.cleanup}
        start = PHASES.index(scenario.phase)
        if scenario.setup.dealt:  # a new game: round 1 from its preparation
            start = 0
        stop = len(PHASES) - 1 if scenario.until == END else PHASES.index(scenario.until)
        result = Result(scenario.name, str(scenario.file), False, trace=self.trace)
        try:
            if scenario.until == END:
                self.outcome = (flow.play(game) if scenario.setup.dealt
                                else flow.play(game, resume=scenario.phase))
            else:
                if scenario.setup.dealt:
                    game.state.round = 1
                    game.ctx.new_round()
                for name in PHASES[start:stop + 1]:
                    phases[name](game)
        except ScriptDone:
            pass
        except ScriptMismatch as exc:
            result.difference = str(exc)
            return result
        except _STOPS as exc:  # the content stopped the game: the author's mistake
            result.difference = f"the game stopped after script step {self.next}: {exc}"
            result.stopped = True
            return result
        except Exception as exc:  # the engine failed: report it as the difference
            result.difference = (f"the engine stopped with {type(exc).__name__}: {exc} "
                                 f"(after script step {self.next})")
            return result
        result.pending = self.pending
        if self.next < len(self.steps):
            step = self.steps[self.next]
            result.difference = (
                f"the run ended after {scenario.until} with {len(self.steps) - self.next} "
                f"script line(s) unused, from step {self.next + 1} (line {step.line}): "
                f"{step}")
            return result
        difference = compare(scenario, game, self.pending, self.outcome, self.asked,
                             self.offered_why)
        result.passed = difference is None
        result.difference = difference or ""
        return result


# what content can stop a game with (``interactive.session.ENGINE_ERRORS``)
_STOPS = (EffectError, RulesError, ArtifactScoringError)


def run_scenario(scenario: Scenario) -> Result:
    """Run one scenario and say whether it passed, with the first difference if not.

    The scenario's own content is the content in use while it runs, so what reads the
    content in use (the artifacts' and assistants' end-of-game scores) reads its
    entries, as the game does."""
    with content_in_use(scenario.content):
        return Run(scenario).execute()
