"""What the effect runtime needs from the game: ``GamePort``, and nothing more.

The runtime (``runtime.py``) and its verbs (``assistant_verbs.py``,
``shelf_verbs.py``, ``hiring.py``) act on a game only through this protocol;
``Game`` (``game.py``) is the one class that provides it. So the runtime never
imports the game, and the game builds its runtime: the import graph goes one
way (game -> runtime -> ports -> card moves, triggers, state, zones, model).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol, TypeAlias, TypeVar

from exlibris.dsl.compiler import AmountSpec
from exlibris.dsl.scoring import CategoryValue
from exlibris.dsl.values import Claim
from exlibris.engine.card_moves import CardMoves
from exlibris.engine.context import EffectContext
from exlibris.engine.decisions import DecisionKind
from exlibris.engine.events import EventKind
from exlibris.engine.state import Assistant, GameState, LocationState, PlayerState, Space
from exlibris.engine.targets import Target
from exlibris.engine.triggers import Triggers
from exlibris.engine.zones import Zone
from exlibris.model.cards import Card, ResumeCard
from exlibris.model.content import AssistantCard
from exlibris.model.rules import Settings

# A value of the effect language, as the compiled effect hands it to a verb: the
# checker, not Python, has checked which of these each argument is.
Value: TypeAlias = (
    "int | str | bool | Card | ResumeCard | PlayerState | Assistant | LocationState | Space"
    " | Zone | CategoryValue | Claim | AmountSpec | list[Value] | None")

# An option of a decision: a card, a position, an assistant and its target...
Option = TypeVar("Option")


class GamePort(Protocol):
    """The game as the effect runtime sees it."""

    state: GameState
    settings: Settings
    ctx: EffectContext  # effect-scoped state: cause, abilities used, skips, budget
    categories: dict[str, CategoryValue]  # by id
    by_code: dict[str, CategoryValue]  # by code
    assistant_cards: dict[str, AssistantCard]  # the special assistant cards by id
    triggers: Triggers  # the abilities events wake (``modify``, ``assistants_changed``)
    moves: CardMoves  # draw, deal, give, discard, shelve, home actions, set-apart zones

    @property
    def rng(self) -> random.Random: ...

    @property
    def n_players(self) -> int: ...

    def player(self, seat: int) -> PlayerState: ...

    # ---------------------------------------------------------------- decisions, events
    def ask(self, seat: int, kind: DecisionKind, prompt: str, values: Sequence[Option],
            labeller: Callable[[Option], str] = ..., /, **data: object) -> int:
        """The index of the option ``seat``'s agent picks."""
        ...

    def ask_yes(self, seat: int, prompt: str) -> bool: ...

    def event(self, kind: EventKind, /, **data: object) -> None:
        """Log an event; its fields by kind: ``event_records.py``."""
        ...

    # ---------------------------------------------------------------- assistants
    def placement_targets(self, seat: int, assistant: Assistant, *, forced: bool = False,
                          only_locations: bool = False,
                          pool: Sequence[LocationState] | None = None) -> list[Target]: ...

    def target_label(self, assistant: Assistant, target: Target) -> str: ...

    def place(self, seat: int, assistant: Assistant, target: Target, *,
              visit: bool = True, activate: bool = True) -> None: ...

    def activate(self, seat: int, loc: LocationState, assistant: Assistant | None) -> None: ...

    def lift_assistant(self, assistant: Assistant) -> None: ...

    def return_assistant(self, assistant: Assistant) -> None: ...

    def retire_assistant(self, assistant: Assistant) -> None: ...

