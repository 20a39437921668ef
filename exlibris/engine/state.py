# cython: annotation_typing=True
"""The state of one game: players, assistants, locations, zones, the RNG.

Plain classes with slots; the flow (``game.py``) and the effect runtime
(``runtime.py``) change them, and every change is reported as an event.
"""

from __future__ import annotations

import random
from itertools import count
from typing import Any

from exlibris.engine.zones import Cards, ShelfZone, Zone
from exlibris.model.cards import Card
from exlibris.model.content import Location, SpecialAssistant
from exlibris.model.shelf import DEFAULT_RULES, Shelf, ShelfRules


class Assistant:
    """A standard or special assistant token."""

    __slots__ = ("bid", "home_index", "id", "kind", "location", "owner", "placed_at",
                 "sharing_with", "space", "spec")

    def __init__(self, aid: str, owner: int, spec: SpecialAssistant | None = None) -> None:
        self.id = aid
        self.owner = owner
        self.spec = spec
        self.kind = "special" if spec is not None else "standard"
        self.location: LocationState | None = None
        self.space: int | None = None
        self.home_index: int | None = None
        self.placed_at = 0  # a global counter: who has been present longest
        self.bid = 0
        self.sharing_with: list[Assistant] = []

    @property
    def name(self) -> str:
        return self.spec.name if self.spec else "standard assistant"

    @property
    def available(self) -> bool:
        return self.location is None and self.home_index is None

    def __repr__(self) -> str:
        return f"<{self.id}>"


class Space:
    """One assistant space of a location (a value for the effect language)."""

    __slots__ = ("index", "location")

    def __init__(self, location: LocationState, index: int) -> None:
        self.location = location
        self.index = index

    @property
    def occupants(self) -> list[Assistant]:
        return self.location.spaces[self.index]

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Space) and other.location is self.location
                and other.index == self.index)

    def __hash__(self) -> int:
        return hash((id(self.location), self.index))


_VERSIONS = count()


class LocationState:
    """A location tile in play."""

    __slots__ = ("area", "auction", "bids", "effect", "held", "id", "instant", "number",
                 "open_targets", "opens_at", "permanent", "preparation", "resolved", "spaces",
                 "spec", "version", "visitors")

    def __init__(self, spec: Location, effect: Any) -> None:
        self.spec = spec
        # read from the tile once (the engine reads them at every turn)
        self.id = spec.id
        self.number = spec.number
        self.instant = spec.timing == "instant"
        self.auction = spec.auction
        self.preparation = spec.preparation
        self.opens_at = tuple(spec.spaces)  # the players each space needs to be open
        self.effect = effect  # compiled Handler
        prep = self.preparation
        self.area = Zone(f"area:{self.id}", face_down=prep is not None and prep.face == "down")
        # the assistants on each space (first arrival first), changed only by
        # ``occupy`` and ``vacate``, which keep ``held``: whether each space is taken
        self.spaces: list[list[Assistant]] = [[] for _ in self.opens_at]
        self.held: tuple[bool, ...] = (False,) * len(self.opens_at)
        self.permanent = False
        self.resolved = False
        # the seat of each visit carried out here this round, in order (``activate``);
        # emptied when the round's resolution ends: the tile's memory of the round
        self.visitors: list[int] = []
        # the engine's cache of the targets open here when no placement rule applies,
        # by which spaces are held (Board.placement_targets): a few patterns recur
        self.open_targets: dict[tuple[bool, ...], list[Any]] = {}
        # a number never used before in this process, new whenever the spaces change
        # (``occupy``, ``vacate``): the engine keys what it keeps about them by it
        self.version = next(_VERSIONS)
        # at an auction, the bids open when no rule speaks, by (version, display size)
        self.bids: tuple[tuple[int, int], list[Any]] | None = None

    def occupy(self, assistant: Assistant, space: int) -> None:
        """Put ``assistant`` on ``space`` (after any already there)."""
        self.spaces[space].append(assistant)
        self._changed()

    def vacate(self, assistant: Assistant) -> None:
        """Take ``assistant`` off whichever space holds it."""
        for space in self.spaces:
            if assistant in space:
                space.remove(assistant)
        self._changed()

    def _changed(self) -> None:
        self.held = tuple(map(bool, self.spaces))
        self.version = next(_VERSIONS)

    def assistants(self) -> list[Assistant]:
        """Assistants here in space order (at a shared space, the first arrival first)."""
        return [a for space in self.spaces for a in space]

    def __repr__(self) -> str:
        return f"<{self.spec.id}>"


class PlayerState:
    """One seat at the table."""

    __slots__ = (
        "assistants",
        "focus",
        "hand",
        "hired",
        "hires",
        "home",
        "library",
        "name",
        "placed_this_round",
        "placements_this_round",
        "seat",
        "shelf",
        "shelf_zone",
    )

    def __init__(self, seat: int, name: str, shelf_rules: ShelfRules = DEFAULT_RULES) -> None:
        self.seat = seat
        self.name = name
        self.hand = Zone(f"hand:{seat}", seat, private=True)
        self.shelf = Shelf(shelf_rules)
        self.shelf_zone = ShelfZone(f"shelf:{seat}", seat, self.shelf)
        self.hires = Zone(f"hires:{seat}", seat)  # cards of the assistants hired (EXP-JF-04)
        self.hired = 0  # assistants hired this game
        self.focus = ""
        self.library: str | None = None
        self.assistants: list[Assistant] = []
        self.home: list[Assistant | None] = [None, None, None]
        self.placed_this_round: set[str] = set()
        self.placements_this_round = 0

    def available(self) -> list[Assistant]:
        # ``Assistant.available``, inlined: this runs at every placement turn (a loop,
        # not a comprehension, so that the compiled build reads ``a`` as an Assistant)
        found: list[Assistant] = []
        a: Assistant
        for a in self.assistants:
            if a.location is None and a.home_index is None:
                found.append(a)
        return found

    def __repr__(self) -> str:
        return f"<player {self.seat} {self.name}>"


class FlowCursor:
    """Where the flow of rounds stands (``flow.py``), kept as data rather than in the
    flow's local variables, so that a copy of the state goes on from where the
    original was (``engine/forward.py``)."""

    __slots__ = ("at", "entered", "highest", "inspecting", "order", "placed_any", "reason",
                 "resolving", "stalled", "step", "sweep", "turns")

    def __init__(self) -> None:
        self.step = "round"  # a new round next; else the phase under way, or "inspection"
        self.entered = False  # whether ``step`` has begun (its fields below are set)
        self.highest: list[int] | None = None  # each shelf's largest size (the stall guard)
        self.stalled = 0  # rounds in a row in which no shelf grew past its largest
        self.reason: object = ""  # why the game ends (an EndReason), at the inspection
        # placement: the seats of this pass round the table, the one whose turn is next,
        # whether anyone placed in this pass, and the turns taken this round
        self.sweep: list[int] = []
        self.at = 0
        self.placed_any = False
        self.turns = 0
        # resolution: the locations in the order they resolve, and the next one
        self.order: list[LocationState] = []
        self.resolving = 0
        self.inspecting = 0  # inspection: the next seat to make its voluntary flips

    def enter(self, step: str) -> None:
        """``step`` comes next, not begun."""
        self.step = step
        self.entered = False

    def end(self, reason: object) -> None:
        """The inspection comes next: the game ends for ``reason`` (a ``flow.EndReason``;
        ``object``, as a ``str`` annotation refuses it in the compiled build)."""
        self.enter("inspection")
        self.reason = reason


class GameState:
    """Everything on the table."""

    __slots__ = ("also_prominent", "artifact_deck", "assistant_deck", "banned", "cards",
                 "counters", "cursor", "deck", "discard", "final_round", "first_player", "in_play",
                 "limbo", "location_discard", "location_stack", "next_first_player", "phase",
                 "placement_counter", "players", "prominent", "returns", "rng", "round", "temps",
                 "turn_counter", "visits")

    def __init__(self, players: list[PlayerState], rng: random.Random) -> None:
        self.players = players
        self.rng = rng
        self.cards = Cards()  # which zone holds each card
        self.deck = Zone("deck", face_down=True)
        self.discard = Zone("discard")
        self.assistant_deck = Zone("assistant-deck", face_down=True)
        self.artifact_deck = Zone("artifact-deck", face_down=True)
        self.in_play: list[LocationState] = []
        self.location_stack: list[str] = []
        self.location_discard: list[str] = []
        self.prominent = ""
        self.also_prominent: str | None = None  # a second prominent category (a variant's)
        self.banned: str | None = None
        self.first_player = 0
        self.next_first_player: int | None = None
        self.round = 0
        self.phase = "setup"
        self.final_round = False
        self.placement_counter = 0
        self.returns = 0  # assistants returned so far (priority order changes)
        self.turn_counter = 0
        self.limbo: list[Zone] = []
        self.temps: list[Assistant] = []  # Temp Agency tokens this round
        self.cursor = FlowCursor()  # where the flow stands
        # the memory of the whole game: each location's visitors by id, in order
        # (``visits_this_game``), and the counters an author names (``counter``), keyed
        # by (holder, name): ``game``, ``player:SEAT`` or ``location:ID``
        self.visits: dict[str, list[int]] = {}
        self.counters: dict[tuple[str, str], int] = {}

    def __repr__(self) -> str:
        return (f"<game state: round {self.round}, {self.phase}, "
                f"{len(self.players)} players>")

    def player(self, seat: int) -> PlayerState:
        return self.players[seat]

    def seats_from(self, seat: int, clockwise: bool = True) -> list[int]:
        n = len(self.players)
        step = 1 if clockwise else -1
        return [(seat + step * i) % n for i in range(n)]

    def all_zones(self) -> list[Zone]:
        zones: list[Zone] = [self.deck, self.discard, self.assistant_deck, self.artifact_deck]
        for p in self.players:
            zones += [p.hand, p.shelf_zone, p.hires]
        zones += [loc.area for loc in self.in_play]
        zones += self.limbo
        return zones

    def card_census(self) -> dict[Card, str]:
        """Every card and the one place it is in (for invariant tests)."""
        seen: dict[Card, str] = {}

        def note(card: Card, place: str) -> None:
            if card in seen:
                raise AssertionError(f"{card} is in {seen[card]} and in {place}")
            seen[card] = place

        for zone in self.all_zones():
            if isinstance(zone, ShelfZone):
                for pos, slot in zone.shelf.items():
                    note(slot.card, f"{zone.name}{pos}")
                    if slot.beneath is not None:
                        note(slot.beneath, f"{zone.name}{pos}/beneath")
                    for tucked in slot.tucked:
                        note(tucked, f"{zone.name}{pos}/tucked")
            else:
                for card in zone.cards:
                    note(card, zone.name)
        return seen
