"""Functions of the effect language that read the game (``words.GAME``), each
``impl(rt, env, *args, **kw)``; the functions that need only attributes are shared
with the score runtime (``exlibris/dsl/generic.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from exlibris.dsl.compiler import Env
from exlibris.dsl.values import as_list
from exlibris.dsl.words import GAME
from exlibris.engine.ports import Value
from exlibris.engine.state import Assistant, LocationState, PlayerState, Space
from exlibris.engine.zones import ShelfZone, Zone
from exlibris.model.cards import Card

if TYPE_CHECKING:
    from exlibris.engine.runtime import EffectRuntime


@GAME.function("ref")
def ref(rt: EffectRuntime, env: Env, ref: str) -> Value:
    game = rt.game
    if ref in game.categories:
        return game.categories[ref]
    for loc in game.state.in_play:
        if loc.id == ref:
            return loc
    return None  # a location not in play (or another kind of entry): nothing


@GAME.function("category")
def category(rt: EffectRuntime, env: Env, code: str) -> Value:
    return rt.game.by_code.get(code)


@GAME.function("category_codes")
def category_codes(rt: EffectRuntime, env: Env) -> list[str]:
    return [c.code for c in rt.game.categories.values()]


@GAME.function("adjacent")
def adjacent(rt: EffectRuntime, env: Env, cards: Value) -> list[Card]:
    found: list[Card] = []
    for card in as_list(cards):
        where = rt._shelf_pos(card)
        if where is None:
            continue
        zone, pos = where
        for n in zone.shelf.neighbours(pos):
            slot = zone.shelf.at(n)
            if slot is not None and slot.card not in found:
                found.append(slot.card)
    return found


@GAME.function("tucked")
def tucked(rt: EffectRuntime, env: Env, cards: Value) -> list[Card]:
    return [t for c in as_list(cards) if (s := rt._slot_of(c)) for t in s.tucked]


@GAME.function("entombed")
def entombed(rt: EffectRuntime, env: Env, shelf: Value) -> list[Card]:
    if not isinstance(shelf, ShelfZone):
        return []
    return [s.beneath for _, s in shelf.shelf.items() if s.beneath is not None]


@GAME.function("top")
def top(rt: EffectRuntime, env: Env, source: Value) -> list[Value]:
    cards = as_list(source)
    return cards[-1:] if isinstance(source, Zone) else cards[:1]


@GAME.function("players")
def players(rt: EffectRuntime, env: Env, **kw: Value) -> list[PlayerState]:
    state = rt.game.state
    start = kw.get("from") or env.me
    clockwise = kw.get("direction", "clockwise") != "counterclockwise"
    return [state.players[s] for s in state.seats_from(start.seat, clockwise)]


@GAME.function("opponents_of")
def opponents_of(rt: EffectRuntime, env: Env, player: PlayerState) -> list[PlayerState]:
    state = rt.game.state
    return [state.players[s] for s in state.seats_from(player.seat)[1:]]


def assistants_here(rt: EffectRuntime, env: Env) -> list[Assistant]:
    """The assistants at ``here``, in space order; for an ability at home, the
    assistants at its owner's home."""
    here = env.globals.get("here")
    if isinstance(here, LocationState):
        return here.assistants()
    this = env.globals.get("this")
    if isinstance(this, Assistant) and this.home_index is not None:
        return [a for a in rt.game.player(this.owner).home if a is not None]
    return []


GAME.function("assistants_here")(assistants_here)


@GAME.function("players_here")
def players_here(rt: EffectRuntime, env: Env, **kw: Value) -> list[PlayerState]:
    state = rt.game.state
    start = kw.get("from") or env.me
    clockwise = kw.get("direction", "clockwise") != "counterclockwise"
    owners = {a.owner for a in assistants_here(rt, env)}
    return [state.players[s] for s in state.seats_from(start.seat, clockwise) if s in owners]


@GAME.function("empty_spaces")
def empty_spaces(rt: EffectRuntime, env: Env, loc: LocationState) -> list[Space]:
    n = max(rt.game.n_players, 1)
    return [Space(loc, i) for i, least in enumerate(loc.opens_at)
            if not loc.spaces[i] and least <= n]


@GAME.function("occupied_spaces")
def occupied_spaces(rt: EffectRuntime, env: Env) -> list[Space]:
    return [Space(loc, i) for loc in rt.game.state.in_play if not loc.resolved
            for i in range(len(loc.spaces)) if loc.spaces[i]]


def _reading_order(rt: EffectRuntime, a: Value, b: Value) -> int:
    """-1 if ``a`` comes before ``b`` on one shelf in reading order, 1 if after, else 0."""
    first, second = (rt._shelf_pos(as_list(x)[0]) if as_list(x) else None for x in (a, b))
    if first is None or second is None or first[0] is not second[0]:
        return 0
    return -1 if first[1] < second[1] else 1 if first[1] > second[1] else 0


@GAME.function("shelved_before")
def shelved_before(rt: EffectRuntime, env: Env, a: Value, b: Value) -> bool:
    return _reading_order(rt, a, b) < 0


@GAME.function("shelved_after")
def shelved_after(rt: EffectRuntime, env: Env, a: Value, b: Value) -> bool:
    return _reading_order(rt, a, b) > 0


@GAME.function("random")
def random_(rt: EffectRuntime, env: Env, items: Value) -> Value:
    items = as_list(items)
    return rt.game.rng.choice(items) if items else None


@GAME.function("setting")
def setting(rt: EffectRuntime, env: Env, name: str) -> Value:
    return rt.game.settings.rulings.get(name)


FUNCTIONS = GAME.functions  # the table ``EffectRuntime.function`` dispatches from
