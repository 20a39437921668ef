"""What the effect runtime needs from the game: ``GamePort``, and nothing more.

The runtime (``runtime.py``) and its verbs (``assistant_verbs.py``,
``shelf_verbs.py``, ``hiring.py``) act on a game only through this protocol;
``Game`` (``game.py``) is the one class that provides it, and the collaborators it
holds provide the ports of its attributes (``game.triggers``: ``TriggersPort``,
``game.moves``: ``CardMovesPort``, ``game.board``: ``BoardPort``). So the runtime
never imports the game, and the game builds its runtime: the import graph goes
one way (game -> runtime -> ports -> state, zones, model).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol, TypeAlias, TypeVar

from exlibris.dsl.compiler import AmountSpec
from exlibris.dsl.values import CategoryValue, Claim
from exlibris.engine.context import EffectContext
from exlibris.engine.decisions import DecisionKind, HomeAction
from exlibris.engine.events import EventKind
from exlibris.engine.state import Assistant, GameState, LocationState, PlayerState, Space
from exlibris.engine.targets import Target
from exlibris.engine.zones import ShelfZone, Zone
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
    triggers: TriggersPort  # the abilities events wake (``triggers.py``)
    moves: CardMovesPort  # draw, deal, give, discard, shelve (``card_moves.py``)
    board: BoardPort  # placing and returning assistants (``board.py``)

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


class TriggersPort(Protocol):
    """The abilities events wake, as the runtime sees them (``triggers.py: Triggers``)."""

    def modify(self, event: str, value: int, *, actor: int | None,
               location: LocationState | None = None) -> int: ...

    def assistants_changed(self) -> None: ...


class CardMovesPort(Protocol):
    """The game's moves of cards, as the runtime sees them (``card_moves.py: CardMoves``)."""

    def draw(self, seat: int, n: int) -> list[Card]: ...

    def give(self, card: Card, seat: int, by: int = -1) -> None: ...

    def discard(self, card: Card, to: Zone | None = None) -> None: ...

    def deal_to(self, zone: Zone, n: int) -> list[Card]: ...

    def limbo_zone(self, name: str = "limbo") -> Zone: ...

    # ---------------------------------------------------------------- shelves
    def remove_from_shelf(self, zone: ShelfZone, card: Card, dst: Zone) -> None: ...

    def removable(self, seat: int) -> frozenset[Card]: ...

    def shelve(self, seat: int, card: Card, *, face_down: bool = False) -> bool: ...

    def place_on_shelf(self, seat: int, card: Card, operation: Callable[[], None]) -> None: ...

    def put_on_shelf(self, owner: int, card: Card) -> bool: ...

    def try_shelf(self, operation: Callable[[], None]) -> bool: ...

    def home_action(self, seat: int, kinds: Sequence[HomeAction] = ...) -> HomeAction | None: ...


class BoardPort(Protocol):
    """The game's placements of assistants, as the runtime sees them (``board.py: Board``)."""

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
