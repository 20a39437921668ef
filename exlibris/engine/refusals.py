"""Why a place is not offered: the rule that refuses it, its clause id and what in the
position triggers it ("why not?" at the terminal, ``scenario run``).

A placement target is judged by the checks ``Board.targets_under`` makes, in its
order, with the engine's own parts: a space's player count (``opens_at``), who holds
it, the auction's bids, the solo limits, and the placement rules through
``RuleMemo.speaker`` (the rule ``RuleMemo.verdict`` reads the kind of). A shelf
cell is judged by the shelf itself (``Shelf.shelving_refusal``, ``removal_refusal``
and the others), which is what its operations raise. ``tests/test_refusals.py``
checks that a placement target is refused exactly when the engine does not offer it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from exlibris.engine.placement import rules_about
from exlibris.engine.solo import blocked as solo_blocked_bid
from exlibris.model.shelf_errors import ShelfError

if TYPE_CHECKING:
    from exlibris.engine.game import Game
    from exlibris.engine.state import Assistant, LocationState


@dataclass(frozen=True)
class Refusal:
    """A rule that refuses something: the rule in words, its clause id (None when no
    clause states it) and what in the position makes it apply."""

    rule: str
    clause: str | None
    trigger: str

    def __str__(self) -> str:
        cited = f" ({self.clause})" if self.clause else ""
        return f"{self.rule}{cited}: {self.trigger}"


def shelf_refusal(error: ShelfError) -> Refusal:
    """A shelf's refusal (the error its operation raises), as a ``Refusal``."""
    return Refusal(error.rule, error.clause, str(error))


def whose(player: str, thing: str) -> str:
    """``Bo's Ghost``, ``your Ghost`` (a name's leading "The" dropped after a possessive)."""
    thing = thing[4:] if thing.startswith("The ") else thing
    return f"your {thing}" if player == "You" else f"{player}'s {thing}"


def _who(game: Game, assistant: Assistant) -> str:
    return whose(game.state.players[assistant.owner].name, assistant.name)


def home_refusal(game: Game, seat: int, space: int) -> Refusal | None:
    """Why home space ``space`` (0-based) of ``seat``'s library is not open, or None."""
    home = game.state.players[seat].home
    if not 0 <= space < len(home):
        return Refusal("a library tile has three home spaces", "HOME-01",
                       f"there is no home space {space + 1}")
    held = home[space]
    if held is not None:
        return Refusal("a home space holds one assistant", "PLACE-07",
                       f"{_who(game, held)} is on home space {space + 1}")
    return None


def placement_refusal(game: Game, seat: int, assistant: Assistant, loc: LocationState,
                      space: int, *, resolving: LocationState | None = None
                      ) -> Refusal | None:
    """Why ``assistant`` may not be placed on space ``space`` (0-based) of ``loc`` now,
    or None when that target is offered (``Board.placement_targets``). ``resolving``:
    the location whose resolution hires the assistant (its decision's ``resolving``),
    which it does not go to (``hiring.py``)."""
    state = game.state
    name = f"{loc.spec.name} (#{loc.number})"
    if loc not in state.in_play:
        return Refusal("assistants go only to locations in play", "PLACE-02",
                       f"{name} is not in play")
    if loc is resolving:
        return Refusal("a newly hired assistant goes to a location not yet resolved, or "
                       "home", "EXP-JF-08", f"{name} is resolving now")
    if loc.resolved:
        return Refusal("a location takes assistants only until it resolves", "PLACE-02",
                       f"{name} has resolved this round")
    if not 0 <= space < len(loc.opens_at):
        return Refusal("an assistant goes on one of a location's spaces", "PLACE-02",
                       f"{name} has {len(loc.opens_at)} spaces")
    n = len(state.players)
    if n == 1 and game.board._solo_blocked(seat, assistant, loc):
        other = next(a for a in loc.assistants() if a.owner == seat and a is not assistant)
        return Refusal("in the solo game at most one of your assistants may be at a "
                       "location", "SOLO-13", f"{whose('You', other.name)} is at {name}")
    least = loc.opens_at[space]
    if least > n:  # solo too (PLACE-06)
        return Refusal("a space marked with a number above the player count can't be used",
                       "PLACE-06", f"space {space + 1} of {name} needs {least} players; this "
                       f"game has {n}")
    rules = rules_about(game, assistant)
    occupants = loc.spaces[space]
    where = f"space {space + 1} of {name}"
    if loc.auction is not None:
        found = _auction_refusal(game, assistant, loc, space, rules, name)
        if found is not None:
            return found
    else:
        if occupants and not (rules is not None and rules.shares):
            return _held(game, occupants, where)
        check = rules.speaker(loc, space, occupants) if rules is not None else None
        if check is not None and check.kind == "deny":
            return _denied(game, check, assistant, loc, name)
        if occupants and (check is None or check.kind != "share"):
            return _held(game, occupants, where)
    if game.solo is not None and solo_blocked_bid(game, loc, _bid(loc, space)):
        return Refusal("in the solo game a neutral assistant holds this bid space for the "
                       "whole game", "EXP-SOLO-04", f"bid {_bid(loc, space)} at {name}")
    return None


def _bid(loc: LocationState, space: int) -> int:
    auction = loc.auction
    return auction.bids[space] if auction is not None and space < len(auction.bids) else 0


def _held(game: Game, occupants: list[Assistant], where: str) -> Refusal:
    holders = " and ".join(_who(game, a) for a in occupants)
    return Refusal("an assistant space holds one assistant unless an ability lets them "
                   "share", "PLACE-07", f"{holders} {'holds' if len(occupants) == 1 else 'hold'} "
                   f"{where}")


def _auction_refusal(game: Game, assistant: Assistant, loc: LocationState, space: int,
                     rules: Any, name: str) -> Refusal | None:
    """The checks of ``Board._location_targets`` at an auction, in its order."""
    auction = loc.auction
    assert auction is not None
    if loc.spaces[space]:
        return _held(game, loc.spaces[space], f"bid space {_bid(loc, space)} of {name}")
    present = loc.assistants()
    bid = _bid(loc, space)
    if auction.style == "outbid":
        leader = max(present, key=lambda a: a.bid) if present else None
        if leader is not None and bid <= leader.bid:
            return Refusal("a new bid here must be higher than the bid already placed",
                           "LOC-03-1", f"{_who(game, leader)} bids {leader.bid} at {name}")
    elif len(present) >= len(loc.area):
        lowest = min(present, key=lambda a: a.bid) if present else None
        if lowest is None or bid <= lowest.bid:
            trigger = (f"{name} shows {len(loc.area)} cards and holds {len(present)} bids"
                       + (f"; the lowest is {_who(game, lowest)}'s {lowest.bid}"
                          if lowest is not None else ""))
            return Refusal("at capacity a new bid must beat the lowest bid", "EXP-AUC-06",
                           trigger)
    if rules is not None:
        check = rules.speaker(loc, space, [])
        if check is not None and check.kind == "deny":
            return _denied(game, check, assistant, loc, name)
    return None


def _denied(game: Game, check: Any, assistant: Assistant, loc: LocationState,
            name: str) -> Refusal:
    """A placement rule of content that denies the space: its ability's text and
    clauses, and what it reads of the position (who is at the location, where the
    rule's holder stands)."""
    rule = check.rule
    this = check.this
    owner = check.owner
    facts = []
    present = loc.assistants()
    if present:
        facts.append(f"at {name}: " + ", ".join(
            f"{_who(game, a)} on space {a.space + 1}" for a in present))
    else:
        facts.append(f"nobody is at {name}")
    holder = getattr(this, "name", str(this))
    held_at = getattr(this, "location", None)
    if held_at is not None and this is not assistant:
        facts.append(f"{whose(owner.name, holder)} stands at {held_at.spec.name}")
    facts.append(f"the rule of {whose(owner.name, holder)}: {rule.source}")
    text = rule.text.rstrip(".") or f"a placement rule of {holder}"
    return Refusal(text, ", ".join(rule.rulings) or None, "; ".join(facts))
