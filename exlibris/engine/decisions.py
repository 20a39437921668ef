"""Decisions: every choice in a game is asked of an agent as a ``Decision``.

A decision has a kind, the deciding seat and its legal options. Each option has
a stable, human-readable label, built only when someone asks for it (bots that
pick by index never pay for the strings). ``values`` are public descriptors of
the options (see ``public.py``): an agent learns nothing from them that its
player could not see. Agents answer with an index.

What a decision is for is typed, for bots to read instead of the labels (which
are for people and logs): ``kind`` is a ``DecisionKind``; a ``pick`` says its
``purpose`` (a ``Purpose``); a home action's options are ``HomeAction`` members.
Each enum's values are the strings the logs, saves and scenarios have always
used, so a member is written exactly as the old string was.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol

from exlibris.engine.public import public_list

if TYPE_CHECKING:
    from exlibris.model.cards import Card


class DecisionKind(StrEnum):
    """What a decision chooses (its value is the ``kind`` of logs and saves)."""

    LIBRARY = "library"  # a library at setup
    PLACE = "place"  # an assistant and where it goes
    POSITION = "position"  # a shelf cell for a card
    SHELVE_HOW = "shelve-how"  # shelve normally, or by a replacing ability
    HOME_ACTION = "home-action"  # draw or shelve (options are ``HomeAction``)
    ORDER = "order"  # both home actions: which first
    PICK = "pick"  # one card (or element) at a time; ``purpose`` says what for
    MAY = "may"  # yes or no
    OPTION = "option"  # one branch of an effect's choice
    CATEGORY = "category"  # name a category
    FLIPS = "flips"  # voluntary flips before the inspection
    HIRE = "hire"  # which assistant card to hire
    ENTOMB = "entomb"
    LEVITATE = "levitate"
    LEVITATE_DIRECTION = "levitate-direction"
    LEVITATE_CELL = "levitate-cell"
    REPLACE = "replace"
    SHIFT = "shift"
    REARRANGE = "rearrange"
    ELIMINATE = "eliminate"  # solo cleanup: a location tile


class Purpose(StrEnum):
    """What a ``pick`` does with the chosen element."""

    TAKE = "take"
    GIVE = "give"
    DISCARD = "discard"
    PAY = "pay"
    SHELVE = "shelve"
    TRADE_AWAY = "trade-away"
    TRADE_FOR = "trade-for"
    REVEAL = "reveal"
    TUCK = "tuck"
    CHOOSE = "choose"
    FLIP = "flip"
    MOVE = "move"

    @property
    def giving(self) -> bool:
        """Whether the chosen card leaves its chooser (worth least is best)."""
        return self in _GIVING

    @property
    def verb(self) -> str:
        """The words of labels and prompts (``pay with``, ``trade away``)."""
        return PURPOSE_VERBS[self]


_GIVING = frozenset({Purpose.GIVE, Purpose.DISCARD, Purpose.PAY, Purpose.TRADE_AWAY,
                     Purpose.REVEAL})
_OTHER_WORDS = {Purpose.PAY: "pay with", Purpose.TRADE_AWAY: "trade away",
                Purpose.TRADE_FOR: "trade for"}
# each purpose's words, looked up once a pick (the engine's hot path reads this table)
PURPOSE_VERBS: dict[Purpose, str] = {p: _OTHER_WORDS.get(p, p.value) for p in Purpose}


class HomeAction(StrEnum):
    """The two home actions (the options of a ``home-action`` decision)."""

    DRAW = "draw"
    SHELVE = "shelve"


class Decision:
    """A choice for one seat: its ``kind``, a prompt, the options, and ``data``
    (read through the typed properties ``purpose`` and ``card``)."""

    __slots__ = ("_labeller", "_labels", "_raw", "_values", "data", "kind", "prompt", "seat",
                 "size")

    def __init__(self, seat: int, kind: DecisionKind, prompt: str, values: Sequence[Any],
                 labeller: Callable[[Any], str] = str, data: dict[str, Any] | None = None
                 ) -> None:
        self.seat = seat
        self.kind = kind
        self.prompt = prompt
        self.data = data if data is not None else {}
        self._raw = values
        self.size = len(values)  # ``len(decision)``, read without a call
        self._labeller = labeller
        self._labels: list[str] | None = None
        self._values: list[Any] | None = None

    @property
    def values(self) -> list[Any]:
        """The options as public descriptors."""
        if self._values is None:
            self._values = public_list(self._raw)
        return self._values

    @property
    def purpose(self) -> Purpose | None:
        """A ``pick``'s purpose (None for other kinds)."""
        return self.data.get("purpose")

    @property
    def card(self) -> Card | None:
        """The card a ``position`` decision shelves (else None)."""
        return self.data.get("card")

    @property
    def about(self) -> list[list[Card]] | None:
        """An ``option`` decision's cards that each option is about (``option "..."
        about X``), one list per option; None when no option says."""
        return self.data.get("about")

    @property
    def handles(self) -> Sequence[Any]:
        """The engine's own objects behind the options: for the engine and white-box
        tests only. Agents use ``values``, which show what their player may know."""
        return self._raw

    @property
    def labels(self) -> list[str]:
        if self._labels is None:
            self._labels = [self._labeller(v) for v in self._raw]
        return self._labels

    def label(self, index: int) -> str:
        """One option's label (without building the others)."""
        if self._labels is not None:
            return self._labels[index]
        return self._labeller(self._raw[index])

    def __len__(self) -> int:
        return self.size

    def index_of(self, label: str) -> int:
        """The option with this label; raises ``KeyError`` listing the labels."""
        try:
            return self.labels.index(label)
        except ValueError:
            raise KeyError(f"no option {label!r}; options: {self.labels}") from None

    def __repr__(self) -> str:
        return f"Decision(seat={self.seat}, kind={str(self.kind)!r}, {len(self)} options)"


class Agent(Protocol):
    """Something that answers decisions for one seat.

    An agent may also have ``needs_view`` (True: it is handed its seat's view) and
    ``sit_at(game)``, called once when the table is built, for an agent that plays
    forks of the game (``agents/mcts.py``)."""

    def decide(self, view: Any, decision: Decision) -> int:
        """The index of the chosen option."""


class ReplayExhausted(Exception):
    """A scripted agent ran out of recorded answers."""
