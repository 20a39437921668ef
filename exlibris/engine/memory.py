"""The game's memory in the effect language (``words.GAME``): the round and the
counters an author names (each location's visits over the game are its attributes,
``game_attributes.py``). A counter ``of:`` nothing (an opponent where there is none)
reads 0 and keeps nothing; a counter stops at the limit on numbers in effects rather
than stop the game.

A counter is a whole number kept in the game's state (``GameState.counters``) under
its name and its holder: the game itself, a player (by seat) or a location (by id, so
a tile that leaves play and comes back remembers). It is 0 until an effect changes
it, and stays within the limit on numbers in effects.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from exlibris.dsl.compiler import Env
from exlibris.dsl.errors import EffectError
from exlibris.dsl.values import as_list, number
from exlibris.dsl.words import GAME
from exlibris.engine.ports import Value
from exlibris.engine.state import LocationState, PlayerState
from exlibris.limits import MAX_EFFECT_INT

if TYPE_CHECKING:
    from exlibris.engine.game import Game
    from exlibris.engine.runtime import EffectRuntime


# ---- the round -------------------------------------------------------------------


def current_round(env: Env) -> int:
    """``round``: the number of the round being played (1 in the first)."""
    return env.rt.game.state.round  # type: ignore[attr-defined, no-any-return]


def is_final_round(env: Env) -> bool:
    """``final_round``: this round is the last one (announced at the cleanup before)."""
    return bool(env.rt.game.state.final_round)  # type: ignore[attr-defined]


def rounds_left(env: Env) -> int:
    """``rounds_left``: the rounds still to come after this one. With a set number of
    rounds, that number less this round; in the final round 0; in a game that ends by
    its shelves, 1 until the final round is announced (at least one more is played)."""
    game: Game = env.rt.game  # type: ignore[attr-defined]
    state = game.state
    if state.final_round:
        return 0
    rounds = game.settings.final_round.rounds
    if rounds is not None:
        return max(0, rounds - state.round)
    return 1


ROUND_NAMES = {"round": current_round, "final_round": is_final_round,
               "rounds_left": rounds_left}
"""The names of the round, each worked out when it is read (``Game.names``)."""


# ---- counters ---------------------------------------------------------------------------


def _holder(value: Value, word: str) -> str | None:
    """The key of a counter's holder: ``game`` (no ``of:``), ``player:SEAT`` or
    ``location:ID``; None when ``of:`` names nothing (no counter is read or kept)."""
    if value is _GAME:
        return "game"
    items = as_list(value)
    if not items:
        return None
    found = items[0]
    if isinstance(found, PlayerState):
        return f"player:{found.seat}"
    if isinstance(found, LocationState):
        return f"location:{found.id}"
    raise EffectError(f"{word}()'s 'of:' must be a player or a location")


_GAME = object()  # no ``of:``: the game's own counter


def _bounded(value: int) -> int:
    """A counter stays within the limit on numbers in effects: it stops there."""
    return max(-MAX_EFFECT_INT, min(MAX_EFFECT_INT, value))


@GAME.function("counter")
def counter(rt: EffectRuntime, env: Env, name: str, **kw: Value) -> int:
    holder = _holder(kw.get("of", _GAME), "counter")
    return 0 if holder is None else rt.game.state.counters.get((holder, str(name)), 0)


@GAME.verb("add_counter")
def add_counter(rt: EffectRuntime, env: Env, name: str, amount: Value, **kw: Value) -> int:
    holder = _holder(kw.get("of", _GAME), "add_counter")
    if holder is None:
        return 0
    counters = rt.game.state.counters
    key = (holder, str(name))
    value = _bounded(counters.get(key, 0) + number(amount, "add_counter()"))
    counters[key] = value
    return value


@GAME.verb("set_counter")
def set_counter(rt: EffectRuntime, env: Env, name: str, amount: Value, **kw: Value) -> int:
    holder = _holder(kw.get("of", _GAME), "set_counter")
    if holder is None:
        return 0
    value = number(amount, "set_counter()")
    rt.game.state.counters[(holder, str(name))] = value
    return value
