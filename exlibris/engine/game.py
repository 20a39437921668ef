# cython: annotation_typing=True
"""The game: one generic interpreter of phases, placements and triggers.

``Game`` holds the state (``GameState``, the effect context, solo's form), asks
agents for every decision and records every change as an event. Location effects
and abilities come from content, compiled by the effect language; the engine only
knows general operations, each kept by one collaborator the game holds:

* ``game.moves`` (``card_moves.py: CardMoves``): draw, deal, give, discard, shelve,
  home actions;
* ``game.board`` (``board.py: Board``): placement targets, placing, activating,
  returning and retiring assistants;
* ``game.triggers`` (``triggers.py: Triggers``): the abilities an event wakes, in
  the rulebooks' order of priority:

1. a location's effect (its own moves override assistants' restrictions);
2. abilities of special assistants already present, longest present first;
3. the newly placed assistant's own ability.

The collaborators keep no game data of their own, only what goes faster kept
(``copying.py`` copies none of it); the flow of rounds is ``flow.py``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from exlibris.dsl.compiler import Env
from exlibris.dsl.values import CategoryValue
from exlibris.engine.abilities import Source
from exlibris.engine.board import Board
from exlibris.engine.card_moves import CardMoves
from exlibris.engine.context import EffectContext
from exlibris.engine.decisions import Agent, Decision, DecisionKind
from exlibris.engine.errors import RulesError
from exlibris.engine.events import EventKind, EventLog
from exlibris.engine.memory import ROUND_NAMES
from exlibris.engine.runtime import EffectRuntime
from exlibris.engine.solo import SoloState
from exlibris.engine.state import Assistant, GameState, LocationState, PlayerState
from exlibris.engine.targets import Target
from exlibris.engine.triggers import Triggers
from exlibris.engine.zones import Zone
from exlibris.model.content import Artifact, AssistantCard, Location
from exlibris.model.rules import Settings
from exlibris.scoring.settings import ScoringRules

__all__ = ["Game", "RulesError", "Source", "Target"]  # the last three: for importers


class Game:
    """One game of Ex Libris; call :meth:`play` (see ``flow.py``) to run it."""

    __slots__ = ("_fixed_names", "agents", "artifact_specs", "assistant_cards", "board",
                 "by_code", "categories", "ctx", "decisions", "forward", "has_artifacts",
                 "location_specs", "log", "moves", "rt", "scoring", "seed", "settings", "solo",
                 "state", "triggers", "variant", "views")

    def __init__(self, state: GameState, settings: Settings, agents: Sequence[Agent],
                 categories: dict[str, CategoryValue], *, views: Any = None,
                 log: EventLog | None = None) -> None:
        self.state = state
        self.settings = settings
        self.agents = list(agents)
        self.categories = categories
        self.by_code = {c.code: c for c in categories.values()}
        self.log = log or EventLog()
        # effect-scoped state: cause, abilities running and used, skips, step budget
        self.ctx = EffectContext(settings.max_steps)
        self.rt = EffectRuntime(self)
        self.views = views
        self.decisions = 0
        self.artifact_specs: dict[str, Artifact] = {}
        self.assistant_cards: dict[str, AssistantCard] = {}  # the special assistant cards by id
        self.has_artifacts = False  # set when artifact cards are in the game
        # the abilities events wake, and what is kept to find them fast
        self.triggers = Triggers(self)
        self.moves = CardMoves(self)  # draw, deal, give, discard, shelve, home actions
        self.board = Board(self)  # placement targets, placing and returning assistants
        self._fixed_names: dict[str, Any] | None = None  # see names()
        # set by flow.new_game
        self.variant = "standard"
        self.seed = 0
        self.location_specs: dict[str, Location] = {}
        self.scoring: ScoringRules | None = None  # of this table
        self.solo: SoloState | None = None  # of a solo game (engine/solo.py)
        # while an agent forks this game: the copy at its last checkpoint and the
        # answers given since (``engine/forward.py: Recorder``)
        self.forward: Any = None

    # ------------------------------------------------------------------ plumbing
    @property
    def rng(self) -> random.Random:
        return self.state.rng

    @property
    def n_players(self) -> int:
        return len(self.state.players)

    def player(self, seat: int) -> PlayerState:
        return self.state.players[seat]

    def ask(self, seat: int, kind: DecisionKind, prompt: str, values: Sequence[Any],
            labeller: Callable[[Any], str] = str, /, **data: Any) -> int:
        """Ask ``seat``'s agent to pick one of ``values``; a single option is not asked."""
        n = len(values)
        if n == 1:
            return 0
        if not n:
            raise RulesError(f"no options for {prompt!r}")
        decision = Decision(seat, kind, prompt, values, labeller, data)
        agent = self.agents[seat]
        views = self.views
        view = views(self, seat) if views and getattr(agent, "needs_view", False) else None
        index = agent.decide(view, decision)
        if not 0 <= index < n:
            raise RulesError(f"agent for seat {seat} answered {index} to {prompt!r}")
        self.decisions += 1
        if self.forward is not None:
            self.forward.answers.append(index)
        if self.log.enabled and self.log.wants(EventKind.DECISION):
            self.log.add(EventKind.DECISION, seat=seat, kind=kind, prompt=prompt,
                         choice=decision.label(index), index=index)
        return index

    def checkpoint(self) -> None:
        """The flow stands where its cursor alone says how to go on (no game data on
        the call stack): a recorder, if any, keeps a copy (``engine/forward.py``)."""
        if self.forward is not None:
            self.forward.checkpoint(self)

    def ask_yes(self, seat: int, prompt: str) -> bool:
        return self.ask(seat, DecisionKind.MAY, prompt, (True, False), _yes_no) == 0

    def event(self, kind: EventKind, /, **data: Any) -> None:
        """Log an event (a no-op while the log is off); its fields: ``event_records.py``."""
        if self.log.enabled:
            self.log.add(kind, **data)

    def category(self, code: str) -> CategoryValue:
        return self.by_code[code]

    # ------------------------------------------------------------------ names
    def names(self, seat: int, *, this: Any = None, extra: dict[str, Any] | None = None,
              location: LocationState | None = None, assistant: Assistant | None = None,
              visitor: int | None = None) -> dict[str, Any]:
        """The names an effect sees (``hand`` and ``shelf`` follow the acting player)."""
        state = self.state
        here = location
        if here is None and isinstance(this, Assistant):
            here = this.location
        if here is None and isinstance(this, LocationState):
            here = this
        players = state.players
        fixed = self._fixed_names
        if fixed is None:  # the names that never change in a game, gathered once
            fixed = self._fixed_names = {
                "hand": _hand,
                "shelf": _shelf,
                "deck": state.deck,
                "discard_pile": state.discard,
                "assistant_deck": getattr(state, "assistant_deck", None),
                "artifact_deck": getattr(state, "artifact_deck", None),
                "players": players,
                "opponents": _opponents,
                "home": "home",
                **ROUND_NAMES,
            }
        names = fixed.copy()
        names["owner"] = players[seat]
        names["visitor"] = players[visitor if visitor is not None else seat]
        names["this"] = this
        names["here"] = here
        names["area"] = here.area if here is not None else None
        names["prominent"] = self.by_code.get(state.prominent)
        names["banned"] = self.by_code.get(state.banned) if state.banned else None
        names["assistant"] = assistant
        names["location"] = location
        if extra:
            names.update(extra)
        return names

# the labels of the game's own decisions (functions made once, not once an ask)
def _yes_no(value: bool) -> str:
    return "yes" if value else "no"


def _hand(env: Env) -> Zone:
    return env.me.hand


def _shelf(env: Env) -> Zone:
    return env.me.shelf_zone


def _opponents(env: Env) -> list[PlayerState]:
    players = env.globals["players"]
    me = env.me
    n = len(players)
    return [players[(me.seat + i) % n] for i in range(1, n)]


