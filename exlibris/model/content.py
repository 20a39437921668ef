"""Pydantic models of every kind of content file.

A content file opens with its ``id`` and ``name``; effects are source text in
the effect language (``exlibris/dsl``), checked separately by the validator.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StringConstraints,
    model_validator,
)

Slug = Annotated[
    str,
    StringConstraints(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$", max_length=64),
    Field(description="A readable id: lower-case words joined by hyphens."),
]
Text = Annotated[str, StringConstraints(max_length=4000)]
Source = Annotated[
    str,
    StringConstraints(max_length=8000),
    Field(description="Source text in the exlibris effect language (see docs/language.md)."),
]
Timing = Literal["on-placement", "reaction", "ongoing", "end-of-game"]
SHIPPED_MODULES = ("base", "five-player", "job-faire", "artifactorium")
Module = Annotated[
    str,
    StringConstraints(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$", max_length=64),
    Field(description="A module: base, five-player, job-faire, artifactorium, or the id "
          "of an author's own 'kind: module' file (validate checks that it exists)."),
]
Edition = Literal["base", "expanded"]


class Strict(BaseModel):
    """Every content model refuses unknown keys. Its validator is built on first use:
    a game builds the shipped models from trusted data without it
    (``model/construct.py``)."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class Category(Strict):
    """One of the six book categories."""

    id: Slug
    code: Annotated[str, StringConstraints(pattern=r"^[A-Z]$")]
    name: str
    colour: Annotated[str, StringConstraints(pattern=r"^#[0-9a-f]{6}$")]


class CategoriesFile(Strict):
    """``content/categories.yaml``: the six categories."""

    kind: Literal["categories"]
    categories: list[Category] = Field(
        min_length=6, max_length=26,
        description="At least six: a game deals a prominent, a banned and a focus "
        "category for each player, all different.")

    @model_validator(mode="after")
    def _distinct(self) -> CategoriesFile:
        for key in ("id", "code"):
            seen = [getattr(c, key) for c in self.categories]
            twice = sorted({v for v in seen if seen.count(v) > 1})
            if twice:
                raise ValueError(f"two categories have the {key} {twice[0]!r}")
        return self


class BookCardEntry(Strict):
    """One book card of the deck."""

    letter: Annotated[str, StringConstraints(pattern=r"^[A-Z]$")]
    order: StrictInt = Field(ge=1, le=99, description="Its position among the cards of its letter.")
    of: StrictInt = Field(ge=1, le=99, description="How many cards share its letter.")
    books: Annotated[
        str,
        StringConstraints(pattern=r"^[A-Z]{2,4}$"),
        Field(description="Its books, one category code each (2 to 4)."),
    ]

    @model_validator(mode="after")
    def _order_within_count(self) -> BookCardEntry:
        if self.order > self.of:
            raise ValueError(f"order {self.order} is above the letter count {self.of}")
        return self


class BookDeck(Strict):
    """``content/books.yaml``: the deck of book cards."""

    kind: Literal["books"]
    id: Slug
    name: str
    stand_in: StrictBool = Field(
        description="True when the card list is a stand-in meeting the published totals, "
        "not the printed cards."
    )
    cards: list[BookCardEntry] = Field(min_length=1, max_length=400)

    @model_validator(mode="after")
    def _each_card_once(self) -> BookDeck:
        seen: set[tuple[str, int]] = set()
        for i, card in enumerate(self.cards, 1):
            if (card.letter, card.order) in seen:
                raise ValueError(f"card {i}, {card.letter}{card.order}, is in the deck twice; "
                                 "each letter and order names one card")
            seen.add((card.letter, card.order))
        return self


class Preparation(Strict):
    """What the preparation phase deals onto a location's card area."""

    deal: StrictInt = Field(ge=0, le=10, description="How many cards to deal each round.")
    deal_by_players: dict[int, StrictInt] | None = Field(
        default=None, description="Cards to deal by player count, where it varies (1 = solo)."
    )
    face: Literal["up", "down"] = "up"
    source: Literal["books", "assistant-cards", "artifacts"] = "books"
    leftovers: Literal["discard", "under-deck"] = Field(
        default="discard",
        description="Cards left after resolution: to the discard pile, or back under the "
        "deck they came from, taken right to left.",
    )


class Auction(Strict):
    """How bids work at an auction location."""

    style: Literal["outbid", "capacity"] = Field(
        description="outbid: one bidder, each new bid must be higher (Auction House); "
        "capacity: bidders up to the cards on display, the lowest is pushed out."
    )
    bids: list[StrictInt] = Field(min_length=1, max_length=10,
                                  description="The bid spaces' values.")


class Ability(Strict):
    """One ability of an assistant, artifact or library, with its timing."""

    keyword: str | None = None
    timing: Timing
    when: Source | None = Field(default=None, description="The trigger (effect language).")
    effect: Source | None = None
    placement: list[Source] = Field(
        default_factory=list,
        description="Placement rules: 'deny if ...', 'allow if ...', 'share if ...'.",
    )
    score: Source | None = Field(default=None, description="End-of-game points (an expression).")
    adds_to: Literal["artifacts", "entombed"] | None = Field(
        default=None,
        description="An assistant's end-of-game score: the inspection row it adds to, "
        "artifacts (B6, the default) or entombed (beside B1, counted from the shelf).",
    )
    text: Text
    rulings: list[str] = Field(
        default_factory=list,
        description="Clause ids the ability's placement rules enforce (said by 'why not?').")


class Location(Strict):
    """A location tile."""

    kind: Literal["location"]
    id: Slug
    name: str
    number: StrictInt = Field(ge=1, le=99)
    module: Module = Field(default="base", description="The module the tile comes with: "
                           "in play only in games whose rules name it (base: every game).")
    timing: Literal["instant", "delayed"]
    preparation: Preparation | None = None
    spaces: list[StrictInt] = Field(
        min_length=1,
        max_length=8,
        description="Each assistant space's least player count (1 = always open).",
    )
    spaces_verified: StrictBool = Field(
        default=True, description="False where the rulebooks do not give the space count."
    )
    auction: Auction | None = None
    resolve: Literal["each-assistant", "once", "bid-order"] = Field(
        default="each-assistant",
        description="Delayed effects: run once per assistant in space order, once in all, "
        "or once per bidder from the highest bid down (auctions).",
    )
    solo: StrictBool
    solo_verified: StrictBool = False
    text: Text
    effect: Source
    rulings: list[str] = Field(default_factory=list, description="Clause ids this entry rules on.")


class SpecialAssistant(Strict):
    """A special assistant: a library's own (base) or a card of Expanded Archives."""

    id: Slug
    name: str
    edition: Edition
    abilities: list[Ability] = Field(min_length=1, max_length=4)
    text: Text


class Library(Strict):
    """A library tile and its special assistant, base edition."""

    kind: Literal["library"]
    id: Slug
    name: str
    solo: StrictBool
    solo_verified: StrictBool = False
    text: Text
    assistant: SpecialAssistant


class AssistantCard(SpecialAssistant):
    """A special assistant card of Expanded Archives."""

    kind: Literal["assistant"]
    solo: StrictBool
    solo_verified: StrictBool = False
    requires: list[Module] = Field(default_factory=list)
    not_with_players: list[StrictInt] = Field(default_factory=list)


class Artifact(Strict):
    """An artifact card of the Artifactorium module."""

    kind: Literal["artifact"]
    id: Slug
    name: str
    timing: Literal["ongoing", "end-of-game"]
    solo: StrictBool
    solo_verified: StrictBool = False
    abilities: list[Ability] = Field(min_length=1, max_length=3)
    text: Text


class GameModule(Strict):
    """A game module of Expanded Archives."""

    kind: Literal["module"]
    id: Slug
    name: str
    text: Text
    locations: list[Slug] = Field(default_factory=list)
    permanent_locations: list[Slug] = Field(
        default_factory=list, description="Locations in play from round 1 outside the count."
    )
    players: list[StrictInt] = Field(default_factory=list, description="Player counts it enables.")


ContentEntry = Location | Library | AssistantCard | Artifact | GameModule
CONTENT_KINDS: dict[str, type[Strict]] = {
    "categories": CategoriesFile,
    "books": BookDeck,
    "location": Location,
    "library": Library,
    "assistant": AssistantCard,
    "artifact": Artifact,
    "module": GameModule,
}
