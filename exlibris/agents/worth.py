"""What a special assistant's abilities can bring, read from their content.

The greedy bot values a hire (and a Job Faire bid) by walking the effect language
of each ability: every verb that gains the player cards or actions adds its worth
(a draw per card, a home action, a shelving...), scaled by how often the ability's
timing lets it act. Placement rules and end-of-game scores add a little. Nothing is
read from names or texts.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from exlibris.dsl import ast
from exlibris.dsl.parser import parse_program

# what one use of a verb is worth, in cards (per unit of a literal amount)
VERB_WORTH = {
    "draw": 1.0, "take": 1.0, "shelve": 0.8, "home_action": 1.0,
    "both_home_actions": 2.0, "home_actions": 1.0, "entomb": 0.7, "levitate": 0.4,
    "place_assistant": 0.5, "move_assistant": 0.3, "trade": 0.3,
}
# how often an ability acts over a game, relative to one use per round
TIMING_FACTOR = {"on-placement": 1.0, "reaction": 0.6, "ongoing": 0.7, "end-of-game": 1.0}


def _amount(call: ast.Call) -> float:
    for arg in call.args:
        if arg.name is None:
            value = arg.value.value if isinstance(arg.value, ast.Amount) else arg.value
            if isinstance(value, ast.Num):
                return float(max(1, value.value))
            return 1.0
    return 1.0


def effect_worth(source: str) -> float:
    """The cards and actions an effect's verbs can bring in one use."""
    total = 0.0
    for node in ast.walk(parse_program(source)):
        if isinstance(node, ast.Call) and node.func in VERB_WORTH:
            total += VERB_WORTH[node.func] * _amount(node)
    return total


@cache
def _spec_worth(key: str, abilities: tuple[tuple[str, str | None, str | None, int], ...]
                ) -> float:
    worth = 0.0
    for timing, effect, score, rules in abilities:
        factor = TIMING_FACTOR.get(timing, 0.5)
        if effect:
            worth += factor * effect_worth(effect)
        if score:
            worth += 2.0
        worth += 0.5 * rules
    return worth


def assistant_worth(spec: Any) -> float:
    """What one special assistant (a content entry) may bring per round, in cards."""
    return _spec_worth(f"{spec.id}@{spec.edition}", tuple(
        (a.timing, a.effect, a.score, len(a.placement)) for a in spec.abilities))
