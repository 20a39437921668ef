"""Agents answer decisions: bots here, the human player in the CLI.

Seat names, weakest first: ``random``, ``greedy``, ``mcts`` (``mcts:N``: N
iterations a decision; ``mcts:N/classic``: the search as first built; ``docs/bots.md``)."""

from __future__ import annotations

import importlib
from typing import Any

# seat name -> (module, class): imported when a bot is made, so that a command that
# only checks seat names (or plays against greedy) does not import the search bot
BOTS = {"random": ("exlibris.agents.random_agent", "RandomAgent"),
        "greedy": ("exlibris.agents.greedy", "GreedyAgent"),
        "mcts": ("exlibris.agents.mcts", "MctsAgent")}
MAX_ITERATIONS = 100_000  # of ``mcts:N``
# ``mcts[:N]/NAME``: the search bot with other settings (``MctsAgent``'s keywords)
SEARCHES: dict[str, dict[str, Any]] = {
    # as first built: UCB over the observer's tree, greedy rollouts of 10 decisions (in
    # solo, to the end of the round)
    "classic": {"root": "ucb", "round_end": False, "rollout": "greedy", "rounds": 1},
}


def bot_kind(name: str) -> str | None:
    """What is wrong with a bot's seat name (``random``, ``greedy``, ``mcts``,
    ``mcts:N``), or None when it names a bot."""
    name, slash, search = name.partition("/")
    if slash and name.partition(":")[0] == "mcts" and search not in SEARCHES:
        return (f"unknown search {search[:20]!r} of mcts; searches are "
                f"{', '.join(sorted(SEARCHES))} (mcts:N/{next(iter(SEARCHES))})")
    kind, _, budget = name.partition(":")
    if slash and kind in BOTS and kind != "mcts":
        return f"{kind!r} takes no search; only mcts does (mcts:N/classic)"
    if kind not in BOTS:
        shown = repr(name[:40]) + ("..." if len(name) > 40 else "")
        return f"unknown agent {shown}; bots are {', '.join(sorted(BOTS))} (and mcts:N)"
    if not budget and not name.endswith(":"):
        return None
    if kind != "mcts":
        return f"{kind!r} takes no budget; only mcts:N does"
    # the digits are counted before int() reads them (a number of thousands of digits)
    if not (budget.isascii() and budget.isdigit()) or len(budget) > len(str(MAX_ITERATIONS)) \
            or not 1 <= int(budget) <= MAX_ITERATIONS:
        return f"mcts:N takes a whole number of iterations from 1 to {MAX_ITERATIONS}"
    return None


def make_bot(name: str, seed: int) -> Any:
    """The bot a seat name gives, seeded (``bot_kind`` must have accepted the name)."""
    name, _, search = name.partition("/")
    kind, _, budget = name.partition(":")
    settings = dict(SEARCHES[search]) if search else {}
    if budget:
        settings["iterations"] = int(budget)
    return _class(kind)(seed, **settings)


def _class(kind: str) -> Any:
    module, name = BOTS[kind]
    return getattr(importlib.import_module(module), name)


def __getattr__(name: str) -> Any:
    """``GreedyAgent``, ``MctsAgent``, ``RandomAgent``, imported on first use."""
    for kind, (_, class_name) in BOTS.items():
        if class_name == name:
            return _class(kind)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["BOTS", "GreedyAgent", "MctsAgent", "RandomAgent", "bot_kind", "make_bot"]
