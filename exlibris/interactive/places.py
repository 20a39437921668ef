"""Where a card is, in a player's words: ``your hand``, ``your shelf, row 0 column 1``,
``the discard pile``, ``Donation Centre's area``. The labels on screen name the
place of every card a decision offers (``steps.player_labels``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from exlibris.engine.zones import ShelfZone

if TYPE_CHECKING:
    from exlibris.engine.game import Game
    from exlibris.model.cards import Card


def card_place(game: Game, card: Card, seat: int) -> str:
    """The zone holding ``card`` as ``seat`` would say it; empty when unknown."""
    zone = game.state.cards.zone_of(card)
    if zone is None:
        return ""
    kind, _, rest = zone.name.partition(":")
    if isinstance(zone, ShelfZone):
        pos = zone.position_of(card)
        cell = f", row {pos[0]} column {pos[1]}" if pos is not None else ""
        return f"{whose(game, zone.owner, seat)} shelf{cell}"
    if kind == "hand":
        return f"{whose(game, zone.owner, seat)} hand"
    if kind == "area":
        spec = game.location_specs.get(rest)
        return f"{spec.name}'s area" if spec is not None else "a location's area"
    if kind == "discard":
        return "the discard pile"
    if kind == "deck":
        return "the deck"
    if kind == "revealed":
        return "the revealed cards"
    return "the cards set apart"


def turned_up(game: Game) -> list[Card]:
    """The cards an effect has turned up from the deck and set apart while it asks
    about them (``reveal(N, from: deck)``): face up, every player sees them."""
    return [card for zone in game.state.limbo if zone.name.startswith("revealed:")
            for card in zone.cards]


def whose(game: Game, owner: int | None, seat: int) -> str:
    if owner is None:
        return "the"
    return "your" if owner == seat else f"{game.state.players[owner].name}'s"


def from_place(game: Game, card: Card, seat: int) -> str:
    """`` from your hand`` (with a leading space), or nothing when the place is unknown."""
    place = card_place(game, card, seat)
    return f" from {place}" if place else ""
