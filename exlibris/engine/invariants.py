"""Checks that hold at every step of a game: for property tests and surveys.

* every card is in exactly one place (``GameState.card_census``), and the zone index
  (``Cards``) agrees: it holds exactly the census's cards, each in a zone in play
  (a card beneath or tucked under a shelf card in that shelf's zone);
* every special assistant card exists once, and its token is in at most one pool:
  a hired token's card lies before its player, a temporary token's card stays in the
  special assistant deck (EXP-JF-06, EXP-TEMP-01);
* no player has hired more than three assistants (EXP-JF-04);
* every shelf is legal and at most three rows high.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from exlibris.engine.zones import ShelfZone
from exlibris.model.cards import ResumeCard

MAX_HIRES = 3
MAX_ROWS = 3


class InvariantError(AssertionError):
    """A state the rules never allow."""


def check_state(game: Any, where: str = "") -> None:
    """Raise ``InvariantError`` naming the first broken invariant."""
    state = game.state
    resumes = _indexed_resumes(state)
    if resumes is None:  # something is out of place: find what, and say it
        resumes = _census_checked(state, where)
    _check_tokens(game, resumes, where)
    for player in state.players:
        player.shelf.check()
        if player.shelf.height > MAX_ROWS:
            raise InvariantError(f"{player.name}'s shelf spans {player.shelf.height} rows "
                                 f"({where})")
        if player.hired > MAX_HIRES:
            raise InvariantError(f"{player.name} hired {player.hired} assistants ({where})")
    for loc in state.in_play:
        if loc.held != tuple(map(bool, loc.spaces)):
            raise InvariantError(f"{loc.spec.name}: which spaces are held is out of date "
                                 f"({where})")


def _indexed_resumes(state: Any) -> list[ResumeCard] | None:
    """The special assistant cards in play, when every card is in one zone in play and
    the index says that zone of each and holds no other card; else None (the quick
    pass of ``_census_checked``, which names what is wrong)."""
    zone_of = state.cards.zone_of
    seen: set[Any] = set()
    resumes = []
    for zone in state.all_zones():
        if isinstance(zone, ShelfZone):
            cards: list[Any] = []
            for _, slot in zone.shelf.items():
                cards.append(slot.card)
                if slot.beneath is not None:
                    cards.append(slot.beneath)
                cards += slot.tucked
        else:
            cards = zone.cards
        for card in cards:
            if card in seen or zone_of(card) is not zone:
                return None
            seen.add(card)
            if isinstance(card, ResumeCard):
                resumes.append(card)
    return resumes if len(state.cards.where) == len(seen) else None


def _census_checked(state: Any, where: str) -> list[ResumeCard]:
    """Every card in one place, and the index agreeing, or the error that says where
    not; the special assistant cards in play."""
    try:
        census = state.card_census()
    except AssertionError as exc:
        raise InvariantError(f"{exc} ({where})") from None
    in_play = {id(zone) for zone in state.all_zones()}
    for card, place in census.items():
        zone = state.cards.zone_of(card)
        name = zone.name if zone is not None else "nowhere"
        if zone is None or id(zone) not in in_play or not (
                place == name or (isinstance(zone, ShelfZone) and place.startswith(name + "("))):
            raise InvariantError(f"{card} is in {place} but the index says {name} ({where})")
    if len(state.cards.where) != len(census):
        lost = [c for c in state.cards.where if c not in census]
        raise InvariantError(f"the index holds {len(lost)} card(s) in no zone: "
                             f"{', '.join(map(str, lost[:5]))} ({where})")
    return [card for card in census if isinstance(card, ResumeCard)]


def _check_tokens(game: Any, resumes: list[ResumeCard], where: str) -> None:
    state = game.state
    cards = Counter(c.assistant_id for c in resumes)
    twice = [aid for aid, n in cards.items() if n > 1]
    if twice:
        raise InvariantError(f"special assistant cards twice: {twice} ({where})")
    seen: set[str] = set()
    for player in state.players:
        for assistant in player.assistants:
            spec = assistant.spec
            if spec is None or game.assistant_cards.get(spec.id) is not spec:
                continue  # a standard assistant, or a library's own (base game)
            if spec.id in seen:
                raise InvariantError(f"two tokens of {spec.id} in play ({where})")
            seen.add(spec.id)
            card = ResumeCard(spec.id)
            temp = any(t is assistant for t in state.temps)
            expected = state.assistant_deck if temp else player.hires
            if state.cards.zone_of(card) is not expected:
                place = state.card_census().get(card, "no zone")
                raise InvariantError(f"{player.name}'s {spec.id}: its card is in "
                                     f"{place}, not {expected.name} ({where})")
        for card in player.hires.cards:
            if card.name not in seen:
                raise InvariantError(f"{player.name} has the card of {card.name} but not its "
                                     f"token ({where})")
