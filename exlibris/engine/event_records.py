"""The fields of each kind of event record, declared (one ``TypedDict`` a kind).

``Game.event(kind, **fields)`` builds nothing while the log is off, so these
classes cost nothing at run time: they say what a record of each kind holds,
for readers of ``--log`` files (the narration, the help screens, scenario
expectations), and ``tests/test_event_records.py`` checks every record of logged
games against them. Every record also has ``n`` (its number) and ``event`` (its
kind); names of cards, ids of locations and assistants are strings; a shelf
position is ``[row, column]``.
"""


from typing import Any, NotRequired, TypedDict

from exlibris.engine.events import EventKind


class Seat(TypedDict):
    seat: int


class Cards(TypedDict):
    cards: list[str]


class CardCount(TypedDict):
    cards: int  # how many


class At(TypedDict):
    location: str  # a location tile's id


class SeatCards(Seat, Cards):
    pass


class SeatAssistant(Seat):
    assistant: str


class Setup(TypedDict):
    seed: int
    variant: str
    players: list[str]


class Scenario(TypedDict):
    name: str
    players: list[str]


class Locations(TypedDict):
    starting: list[str]
    stack: int


class LocationsReshuffled(TypedDict):
    count: int


class Library(Seat):
    library: str


class Categories(TypedDict):
    prominent: str
    banned: str
    also_prominent: NotRequired[str]  # a second prominent category (a variant's)
    difficulty: NotRequired[int]  # solo
    hidden: NotRequired[int]  # solo: categories of the public library still hidden


class UnderDeck(At, Cards):
    deck: str


class DiscardArea(At, Cards):
    pass


class Round(TypedDict):
    round: int
    final: bool
    first_player: int


class GameStalled(TypedDict):
    rounds: int


class Deal(At, Cards):
    face_down: bool


class FinalRound(TypedDict):
    counts: NotRequired[list[int]]  # entombed cards and assistants, by seat
    threshold: NotRequired[int]
    reason: NotRequired[str]
    rounds: NotRequired[int]


class Cleanup(TypedDict):
    permanent: str
    discarded: list[str]


class Inspection(TypedDict):
    totals: dict[str, int]
    winners: list[str]


class DecisionRecord(Seat):
    kind: str  # a DecisionKind
    prompt: str
    choice: str  # the chosen option's label
    index: int


class Discard(TypedDict):
    card: str
    to: str
    why: NotRequired[str]
    source: NotRequired[str]  # the zone it left (``hand:0``, ``shelf:1``, ``area:ID``...)


class Gain(Seat):
    card: str
    source: str
    hidden: bool
    by: NotRequired[int]  # the seat whose effect handed it over, when another's


class Shelve(Seat):
    card: str
    pos: list[int]
    face_down: bool
    source: NotRequired[str]  # the zone it came from (``hand:0``, ``revealed``...)


class Ability(Seat):
    ability: str
    source: str
    index: int


class Place(SeatAssistant):
    home: NotRequired[int]  # a home space (1..)
    location: NotRequired[str]
    space: NotRequired[int]
    bid: NotRequired[int]
    moved: NotRequired[bool]  # an effect moved it there (no visit, no action)


class Activate(Seat, At):
    pass


class Trade(Seat):
    gave: str
    to: str
    got: str


class Look(Seat):
    count: int
    cards: list[str]  # what was looked at (narrated to the looker only)


class Show(SeatCards):
    to: int


class Tuck(SeatCards):
    pos: list[int]


class Name(Seat):
    category: str


class Entomb(Seat):
    card: str
    pos: list[int]
    under: Any


class Levitate(Seat):
    card: str
    pos: list[int]
    direction: str


class LevitateRefused(Seat):
    cards: list[list[int]]  # the chosen cells


class Replace(Seat):
    card: str
    old: str


class Shift(Seat):
    move: list[Any]


class Rearrange(Seat):
    how: str  # hand, swap or move
    card: NotRequired[str]  # the shelf card reworked, before the change
    pos: NotRequired[list[int]]  # its cell
    other: NotRequired[str]  # the card it swapped with (from hand, or on the shelf)
    to: NotRequired[list[int]]  # the other card's cell, or where the card moved


class Return(SeatAssistant):
    location: NotRequired[str]  # where it stood: a location tile's id
    home: NotRequired[int]  # or a home space (1..)


_Borrow = TypedDict("_Borrow", {"from": NotRequired[int]})


class Borrow(SeatAssistant, _Borrow):
    got: bool


class RevealCategory(TypedDict):
    category: str
    left: int


class SoloDiscard(Cards):
    wanted: int


class Eliminate(TypedDict):
    location: NotRequired[str]
    locations: NotRequired[list[str]]  # the last cleanup: every tile left
    final: NotRequired[bool]


RECORDS: dict[EventKind, type] = {
    EventKind.SETUP: Setup,
    EventKind.SCENARIO: Scenario,
    EventKind.LOCATIONS: Locations,
    EventKind.LOCATIONS_RESHUFFLED: LocationsReshuffled,
    EventKind.LIBRARY: Library,
    EventKind.ASSISTANT_CARD: SeatAssistant,
    EventKind.ASSISTANT_DECK: CardCount,
    EventKind.ARTIFACT_DECK: CardCount,
    EventKind.CATEGORIES: Categories,
    EventKind.DEAL_HAND: SeatCards,
    EventKind.ROUND: Round,
    EventKind.GAME_STALLED: GameStalled,
    EventKind.REVEAL_LOCATION: At,
    EventKind.DEAL: Deal,
    EventKind.UNDER_DECK: UnderDeck,
    EventKind.RESOLVE: At,
    EventKind.DISCARD_AREA: DiscardArea,
    EventKind.CLEANUP: Cleanup,
    EventKind.FINAL_ROUND: FinalRound,
    EventKind.FLIP: SeatCards,
    EventKind.INSPECTION: Inspection,
    EventKind.DECISION: DecisionRecord,
    EventKind.DRAW: SeatCards,
    EventKind.RESHUFFLE: CardCount,
    EventKind.DISCARD: Discard,
    EventKind.GAIN: Gain,
    EventKind.SHELVE: Shelve,
    EventKind.ABILITY: Ability,
    EventKind.PLACE: Place,
    EventKind.ACTIVATE: Activate,
    EventKind.RETURN: Return,
    EventKind.RETIRE: SeatAssistant,
    EventKind.FIRST_PLAYER: Seat,
    EventKind.TRADE: Trade,
    EventKind.REVEAL: SeatCards,
    EventKind.LOOK: Look,
    EventKind.SHOW: Show,
    EventKind.TUCK: Tuck,
    EventKind.NAME: Name,
    EventKind.ENTOMB: Entomb,
    EventKind.LEVITATE: Levitate,
    EventKind.LEVITATE_REFUSED: LevitateRefused,
    EventKind.REPLACE: Replace,
    EventKind.SHIFT: Shift,
    EventKind.REARRANGE: Rearrange,
    EventKind.HIRE: SeatAssistant,
    EventKind.BORROW: Borrow,
    EventKind.DISMISS: SeatAssistant,
    EventKind.REVEAL_CATEGORY: RevealCategory,
    EventKind.SOLO_DISCARD: SoloDiscard,
    EventKind.ELIMINATE: Eliminate,
    EventKind.DISCARD_HAND: SeatCards,
}
