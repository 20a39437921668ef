"""Attributes of the effect language's values in a game (``words.GAME``): for each
class of value, the language type it stands for and a reader ``impl(rt, value)`` per
attribute. ``EffectRuntime.attribute`` finds a reader with two dict lookups, by the
value's exact class."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from exlibris.dsl.values import CategoryValue, Claim
from exlibris.dsl.words import GAME
from exlibris.engine.ports import Value
from exlibris.engine.state import Assistant, LocationState, PlayerState, Space
from exlibris.model.cards import VOWELS, ArtifactCard, BookCard, ResumeCard

if TYPE_CHECKING:
    from exlibris.engine.runtime import EffectRuntime


def _no_card_attribute(default: Value) -> Callable[[EffectRuntime, Value], Value]:
    return lambda rt, card: default


def _card_face_down(rt: EffectRuntime, card: Value) -> bool:
    slot = rt._slot_of(card)
    return slot is not None and slot.face_down


GAME.attributes_of("card", BookCard, {
    "letter": lambda rt, card: card.letter,
    "order": lambda rt, card: card.order,
    "books": lambda rt, card: card.books,
    "is_book": lambda rt, card: True,
    "is_artifact": lambda rt, card: False,
    "vowel": lambda rt, card: card.letter in VOWELS,
    "face_down": _card_face_down,
})
for _cls in (ArtifactCard, ResumeCard):  # cards that are not book cards
    GAME.attributes_of("card", _cls, {
        "letter": _no_card_attribute(None),
        "order": _no_card_attribute(None),
        "books": _no_card_attribute(()),
        "is_book": _no_card_attribute(False),
        "is_artifact": _no_card_attribute(_cls is ArtifactCard),
        "vowel": _no_card_attribute(False),
        "face_down": _card_face_down,
    })
GAME.attributes_of("player", PlayerState, {
    "hand": lambda rt, p: p.hand,
    "shelf": lambda rt, p: p.shelf_zone,
    "name": lambda rt, p: p.name,
    "focus": lambda rt, p: rt.game.by_code.get(p.focus),
    "assistants": lambda rt, p: list(p.assistants),
    "placed_this_round": lambda rt, p: len(p.placed_this_round),
    "placements_this_round": lambda rt, p: p.placements_this_round,
    "first": lambda rt, p: rt.game.state.first_player == p.seat,
    "hires": lambda rt, p: p.hires,
    "hired": lambda rt, p: p.hired,
})
GAME.attributes_of("assistant", Assistant, {
    "owner": lambda rt, a: rt.game.player(a.owner),
    "location": lambda rt, a: a.location,
    "space": lambda rt, a: Space(a.location, a.space) if a.location else None,
    "bid": lambda rt, a: a.bid,
    "standard": lambda rt, a: a.kind == "standard",
    "special": lambda rt, a: a.kind == "special",
    "at_location": lambda rt, a: a.location is not None,
    "at_home": lambda rt, a: a.home_index is not None,
    "sharing_with": lambda rt, a: list(a.sharing_with),
})
GAME.attributes_of("location", LocationState, {
    "id": lambda rt, loc: loc.id,
    "name": lambda rt, loc: loc.spec.name,
    "number": lambda rt, loc: loc.number,
    "instant": lambda rt, loc: loc.instant,
    "delayed": lambda rt, loc: not loc.instant,
    "area": lambda rt, loc: loc.area,
    "spaces": lambda rt, loc: [Space(loc, i) for i in range(len(loc.spaces))],
    "assistants": lambda rt, loc: loc.assistants(),
    "visits_this_round": lambda rt, loc: len(loc.visitors),
    "visitors_this_round": lambda rt, loc: [rt.game.player(s) for s in dict.fromkeys(
        loc.visitors)],
    # the game's memory of the tile, kept by id (``GameState.visits``)
    "visits_this_game": lambda rt, loc: len(rt.game.state.visits.get(loc.id, ())),
    "visitors_this_game": lambda rt, loc: [rt.game.player(s) for s in dict.fromkeys(
        rt.game.state.visits.get(loc.id, ()))],
})
GAME.attributes_of("space", Space, {
    "occupant": lambda rt, space: space.occupants[0] if space.occupants else None,
    "occupants": lambda rt, space: list(space.occupants),
    "location": lambda rt, space: space.location,
    "index": lambda rt, space: space.index + 1,
    "open": lambda rt, space: not space.occupants,
    "bid": lambda rt, space: (space.location.auction.bids[space.index]
                              if space.location.auction else 0),
})
GAME.attributes_of("claim", Claim, {
    "player": lambda rt, claim: claim.player,
    "category": lambda rt, claim: claim.category,
})
GAME.attributes_of("category", CategoryValue, {
    "id": lambda rt, category: category.id,
    "code": lambda rt, category: category.code,
    "name": lambda rt, category: category.name,
})
ATTRIBUTES = GAME.attributes  # the table ``EffectRuntime.attribute`` reads
