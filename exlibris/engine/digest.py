"""A game's digest: one hash of everything in its state that play can change.

Two games with the same digest go on the same way for the same answers: the
cards in every zone in order, every shelf cell, the assistants and where they
stand, the locations, the scalars of the state, the flow's cursor, the effect
context, solo's form and the RNG's state. Objects are named by what they are (an
assistant by its id, a location by its tile, a card by its value), never by
``id()``, so a copy hashes as its original (``engine/copying.py``). What the
engine keeps only to go faster is left out.
"""

from __future__ import annotations

import hashlib
from typing import Any

from exlibris.engine.context import AbilityUse
from exlibris.engine.state import Assistant, GameState, LocationState
from exlibris.engine.zones import ShelfZone


def _aid(assistant: Assistant | None) -> str | None:
    return None if assistant is None else assistant.id


def _lid(loc: LocationState | None) -> str | None:
    return None if loc is None else loc.id


def state_data(game: Any) -> tuple[Any, ...]:
    """The digest's data, as plain values (a test compares them field by field)."""
    state: GameState = game.state
    names: dict[int, str] = {}  # id() of an ability carrier -> what it is
    tokens: list[Assistant] = []
    for player in state.players:
        tokens += player.assistants
    tokens += [a for a in state.temps if a not in tokens]
    for loc in state.in_play:
        tokens += [a for a in loc.assistants() if a not in tokens]
    for a in tokens:
        names[id(a)] = a.id
    zones = []
    for zone in state.all_zones():
        if isinstance(zone, ShelfZone):
            zones.append((zone.name, tuple((pos, slot.token(), slot.tucked)
                                           for pos, slot in zone.shelf.items())))
        else:
            zones.append((zone.name, zone.face_down, tuple(c.name for c in zone.cards)))
    where = tuple(sorted((card.name, zone.name) for card, zone in state.cards.where.items()))
    players = tuple((p.seat, p.name, p.focus, p.library, p.hired, p.placements_this_round,
                     tuple(sorted(p.placed_this_round)), tuple(a.id for a in p.assistants),
                     tuple(map(_aid, p.home))) for p in state.players)
    assistants = tuple((a.id, a.owner, a.kind, a.spec.id if a.spec else None,
                        _lid(a.location), a.space, a.home_index, a.placed_at, a.bid,
                        tuple(map(_aid, a.sharing_with))) for a in tokens)
    locations = tuple((loc.id, loc.permanent, loc.resolved, loc.held,
                       tuple(tuple(map(_aid, space)) for space in loc.spaces),
                       tuple(loc.visitors))
                      for loc in state.in_play)
    scalars = (state.prominent, state.also_prominent, state.banned, state.first_player,
               state.next_first_player, state.round, state.phase, state.final_round,
               state.placement_counter, state.returns, state.turn_counter,
               tuple(state.location_stack), tuple(state.location_discard),
               tuple(z.name for z in state.limbo), tuple(map(_aid, state.temps)))
    cur = state.cursor
    cursor = (cur.step, cur.entered, cur.highest, cur.stalled, str(cur.reason),
              tuple(cur.sweep), cur.at, cur.placed_any, cur.turns,
              tuple(map(_lid, cur.order)), cur.resolving, cur.inspecting)
    ctx = game.ctx

    def uses(found: set[AbilityUse]) -> tuple[tuple[str, str], ...]:
        return tuple(sorted((key, names.get(carrier, "card")) for key, carrier in found))

    context = (_aid(ctx.cause), _aid(ctx.last_moved), uses(ctx.running),
               uses(ctx.used_this_turn), uses(ctx.used_this_round), uses(ctx.used_this_game),
               tuple(sorted(names.get(key, "?") for key in ctx.skip)), ctx.activating,
               ctx.steps, tuple(sorted((a.name, b.name) for a, b in ctx.stand_ins.items())))
    solo = game.solo
    solo_data = None if solo is None else (solo.difficulty, solo.public_focus,
                                           tuple(solo.form), tuple(solo.boxed),
                                           tuple(solo.eliminated))
    found = (zones, where, players, assistants, locations, scalars, cursor, context,
             solo_data, game.decisions, state.rng.getstate())
    # the whole-game memory: each location's visits follow from the visits the digest
    # sees round by round; an author's counters are added only when some are kept, so
    # the digests of games without them (the goldens) stay as they were
    if state.counters:
        found += (tuple(sorted(state.counters.items())),)
    return found


def state_digest(game: Any) -> str:
    """The hex SHA-256 of :func:`state_data`."""
    return hashlib.sha256(repr(state_data(game)).encode()).hexdigest()
