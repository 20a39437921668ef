"""What one player may see: own hand and focus, public zones; nothing hidden.

A view's shelves are copies of the live ones, for the agent to read (never to
change): the copy made for the last view serves again while the live shelf is the
same, so the views of one game share their unchanged shelves, and an agent can tell
an unchanged shelf by ``is``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from exlibris.model.cards import Card
from exlibris.model.shelf import Shelf
from exlibris.scoring.settings import ScoringRules


@dataclass(frozen=True)
class OpponentView:
    seat: int
    name: str
    shelf: Shelf
    hand_size: int


@dataclass(frozen=True)
class SoloView:
    """What a solo player knows of the public library and the license form."""

    difficulty: int
    rounds: int
    public_size: int  # cards in the discard pile: the public library
    top: Card | None  # its only visible card (SOLO-11)
    boxed: tuple[str, ...]  # categories revealed from the form: not the public focus
    hidden: int  # categories still face down on the form
    tiles_left: int  # location tiles in the face-down stack


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
    solo: SoloView | None = None
    artifact_deck_size: int = 0
    assistant_cards: dict[str, Any] = field(default_factory=dict)  # content: public
    hired: int = 0  # special assistants this player hired (EXP-JF-04)
    scoring: ScoringRules = field(default_factory=ScoringRules)  # the table's: public


def player_view(game: Any, seat: int) -> PlayerView:
    """Build ``seat``'s view; face-down card areas show ``None`` for each card; in solo
    only the top of the discard pile shows (SOLO-11)."""
    state = game.state
    me = state.players[seat]
    solo = solo_view(game)
    pile = state.discard.cards
    discard = tuple(pile) if solo is None else tuple(pile[-1:])
    opponents = []
    for p in state.players:
        if p.seat != seat:
            other = _NEW(OpponentView)
            other.__dict__.update(seat=p.seat, name=p.name, shelf=shelf_copy(p.shelf),
                                  hand_size=len(p.hand.cards))
            opponents.append(other)
    view = _NEW(PlayerView)
    view.__dict__.update(
        seat=seat,
        hand=tuple(me.hand.cards),
        focus=me.focus,
        shelf=shelf_copy(me.shelf),
        prominent=state.prominent,
        banned=state.banned,
        opponents=tuple(opponents),
        areas={loc.id: (None,) * len(loc.area.cards) if loc.area.face_down
               else tuple(loc.area.cards) for loc in state.in_play},  # None: face down
        deck_size=len(state.deck.cards),  # a zone's cards counted without its __len__
        discard=discard,
        round=state.round,
        final_round=state.final_round,
        solo=solo,
        artifact_deck_size=len(state.artifact_deck.cards),
        assistant_cards=game.assistant_cards,
        hired=me.hired,
        scoring=game.scoring if game.scoring is not None
        else ScoringRules.for_players(len(state.players)),
    )
    return view


# a view is made at every decision of a bot, so ``player_view`` sets every field of a
# new ``PlayerView`` (and ``OpponentView``) at once in its ``__dict__``, where the frozen
# dataclass's ``__init__`` sets them one by one through ``object.__setattr__``; the view
# is the same value (``tests/test_agent_view.py`` compares it with one built by the class)
_NEW = object.__new__


# the copy of each live shelf the views last showed, by the ``id`` of the live shelf,
# each with the live shelf (which keeps the ``id`` its own while it is kept); emptied
# when it holds ``COPIES_MOST`` (a search's forks make new shelves all the time)
_COPIES: dict[int, tuple[Shelf, Shelf]] = {}
COPIES_MOST = 1024


def shelf_copy(shelf: Shelf) -> Shelf:
    """A copy of a live shelf for a view: the last one made, while it equals the shelf."""
    found = _COPIES.get(id(shelf))
    if found is not None and found[0] is shelf and found[1] == shelf:
        return found[1]
    copy = shelf.copy()
    if len(_COPIES) >= COPIES_MOST:
        _COPIES.clear()
    _COPIES[id(shelf)] = (shelf, copy)
    return copy


def solo_view(game: Any) -> SoloView | None:
    solo = getattr(game, "solo", None)
    if solo is None:
        return None
    state = game.state
    return SoloView(difficulty=solo.difficulty, rounds=game.settings.final_round.rounds or 0,
                    public_size=len(state.discard),
                    top=state.discard.cards[-1] if state.discard.cards else None,
                    boxed=tuple(solo.boxed), hidden=len(solo.form),
                    tiles_left=len(state.location_stack))
