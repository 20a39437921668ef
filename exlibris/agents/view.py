"""What one player may see: own hand and focus, public zones; nothing hidden."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from exlibris.model.cards import Card
from exlibris.model.shelf import Shelf


@dataclass(frozen=True)
class OpponentView:
    seat: int
    name: str
    shelf: Shelf
    hand_size: int


@dataclass(frozen=True)
class PlayerView:
    """A player's view of the table: no other hand, no other focus, no deck order."""

    seat: int
    hand: tuple[Card, ...]
    focus: str
    shelf: Shelf
    prominent: str
    banned: str | None
    opponents: tuple[OpponentView, ...]
    areas: dict[str, tuple[Card | None, ...]]
    deck_size: int
    discard: tuple[Card, ...]
    round: int
    final_round: bool
    artifact_deck_size: int = 0
    assistant_cards: dict[str, Any] = field(default_factory=dict)  # content: public
    hired: int = 0  # special assistants this player hired (EXP-JF-04)


def player_view(game: Any, seat: int) -> PlayerView:
    """Build ``seat``'s view; face-down card areas show ``None`` for each card."""
    state = game.state
    me = state.players[seat]
    return PlayerView(
        seat=seat,
        hand=tuple(me.hand.cards),
        focus=me.focus,
        shelf=me.shelf.copy(),
        prominent=state.prominent,
        banned=state.banned,
        opponents=tuple(OpponentView(p.seat, p.name, p.shelf.copy(), len(p.hand))
                        for p in state.players if p.seat != seat),
        areas={loc.id: tuple(None if loc.area.face_down else c for c in loc.area.cards)
               for loc in state.in_play},
        deck_size=len(state.deck),
        discard=tuple(state.discard.cards),
        round=state.round,
        final_round=state.final_round,
        artifact_deck_size=len(state.artifact_deck),
        assistant_cards=game.assistant_cards,
        hired=me.hired,
    )
