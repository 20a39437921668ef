"""Bots for the benchmarks: a seat name (``greedy``, ``mcts:400``) with settings of the
search bot after slashes, for measuring what each setting gives:

    mcts:100/root=ucb                UCB at the root, as the first search (the default: halving)
    mcts:150/round_end=0/rollout=greedy   the first search (10-decision greedy rollouts)
    mcts:100/rounds=2                rollouts to the end of the next round
    mcts:400/deepen=1                rollouts see more rounds the larger the budget (two from 100)
    mcts:100/searched=all            search every decision kind but the flips (solo's set)
    mcts:100/deepen=1/held=0.5       a hand's cards credited at half their best gain
    mcts/artifact_work=0.5           the cap on play counted by cost: a rollout decision 0.5 more
                                     for each artifact its seat's shelf shows (at most three)

Each setting is a keyword of ``MctsAgent``; numbers are read as numbers.
"""

from __future__ import annotations

import inspect
import re
from typing import Any

from exlibris.agents import bot_kind, make_bot
from exlibris.agents.mcts import SEARCHED, SOLO_SEARCHED, MctsAgent

# ``searched=NAME``: the decision kinds a search searches
SEARCHED_SETS = {"place": SEARCHED, "all": SOLO_SEARCHED}
# the settings that take a number (their annotation names no text)
NUMBERS = frozenset(
    name for name, parameter in inspect.signature(MctsAgent).parameters.items()
    if not {"str", "frozenset"} & set(re.findall(r"\w+", str(parameter.annotation))))


def spec_problem(spec: str) -> str | None:
    """What is wrong with ``spec``, or None."""
    name, *settings = spec.split("/")
    problem = bot_kind(name)
    if problem is not None:
        return problem
    if settings and not name.startswith("mcts"):
        return f"{name} takes no settings; only mcts does"
    for setting in settings:
        key, sep, _ = setting.partition("=")
        if not sep or key not in MctsAgent.__init__.__code__.co_varnames:
            return f"unknown setting {setting!r} of mcts"
        value = setting.partition("=")[2]
        if key == "searched" and value not in SEARCHED_SETS:
            return f"searched= takes {' or '.join(SEARCHED_SETS)}"
        if key in NUMBERS and not isinstance(_number(value), float):
            return f"{key}= takes a number, not {value!r}"
    return None


def make_spec(spec: str, seed: int) -> Any:
    """The bot ``spec`` names, seeded as ``make_bot`` seeds it."""
    name, *settings = spec.split("/")
    if not settings:
        return make_bot(name, seed)
    kwargs: dict[str, Any] = {}
    _, _, budget = name.partition(":")
    if budget:
        kwargs["iterations"] = int(budget)
    for setting in settings:
        key, _, value = setting.partition("=")
        kwargs[key] = SEARCHED_SETS[value] if key == "searched" else \
            int(value) if value.lstrip("-").isdigit() else _number(value)
    return MctsAgent(seed, **kwargs)


def _number(value: str) -> Any:
    """``value`` as a float if it reads as one, else as written."""
    try:
        return float(value)
    except ValueError:
        return value
