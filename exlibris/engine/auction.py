"""Auction locations with a display (EXP-AUC): the Job Faire and the Artifactorium.

Content declares an auction location with ``auction: {style: capacity, bids: [...]}``
(placement: ``Board._location_targets``), ``resolve: bid-order`` and a
``preparation`` whose ``source`` names the deck its display is dealt from and whose
``leftovers: under-deck`` sends what nobody took back under that deck. The engine
then runs the location's effect once per bidder, highest bid first, with
``assistant`` bound to the bidder; paying and what the bidder gets are content.
"""

from __future__ import annotations

from typing import Any

from exlibris.engine.events import EventKind
from exlibris.engine.ports import GamePort
from exlibris.engine.state import Assistant, LocationState
from exlibris.engine.zones import Zone


def source_zone(game: GamePort, source: str) -> Zone:
    """The deck a card area is dealt from (``preparation.source``)."""
    state = game.state
    match source:
        case "assistant-cards":
            return state.assistant_deck
        case "artifacts":
            return state.artifact_deck
    return state.deck


def deal_display(game: GamePort, loc: LocationState, n: int) -> list[Any]:
    """Deal ``n`` cards face up from the location's source deck (fewer if it runs out).

    Book cards go through ``CardMoves.deal_to`` (which may reshuffle the discard pile);
    the special assistant and artifact decks are never refilled.
    """
    prep = loc.preparation
    assert prep is not None
    if prep.source == "books":
        return game.moves.deal_to(loc.area, n)
    deck = source_zone(game, prep.source)
    dealt = []
    for _ in range(max(0, n)):
        if not deck.cards:
            break
        card = deck.cards[-1]
        game.state.cards.move(card, loc.area)
        dealt.append(card)
    return dealt


def bidders_in_order(loc: LocationState) -> list[Assistant]:
    """The bidding assistants, highest bid first (EXP-AUC-08); equal bids (never at a
    capacity auction, one assistant per bid space) keep their space order."""
    return sorted(loc.assistants(), key=lambda a: -a.bid)


def returns_leftovers(loc: LocationState) -> bool:
    prep = loc.preparation
    return prep is not None and prep.leftovers == "under-deck"


def return_leftovers(game: GamePort, loc: LocationState) -> list[Any]:
    """Put the cards left on display back under their deck one by one, taking them
    right to left (EXP-JF-05): the leftmost ends at the very bottom."""
    prep = loc.preparation
    assert prep is not None
    deck = source_zone(game, prep.source)
    left = list(loc.area.cards)
    for card in reversed(left):
        game.state.cards.move(card, deck, bottom=True)
    if left:
        game.event(EventKind.UNDER_DECK, location=loc.id, deck=deck.name,
                   cards=[c.name for c in left])
    return left
