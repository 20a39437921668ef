"""Agents answer decisions: bots here, the human player in the CLI.

Seat names, weakest first: ``random``, ``greedy``, ``mcts`` (``mcts:N``: N
iterations a decision; ``docs/bots.md``)."""

from __future__ import annotations

from typing import Any

from exlibris.agents.greedy import GreedyAgent
from exlibris.agents.mcts import MctsAgent
from exlibris.agents.random_agent import RandomAgent

BOTS = {"random": RandomAgent, "greedy": GreedyAgent, "mcts": MctsAgent}
MAX_ITERATIONS = 100_000  # of ``mcts:N``


def bot_kind(name: str) -> str | None:
    """What is wrong with a bot's seat name (``random``, ``greedy``, ``mcts``,
    ``mcts:N``), or None when it names a bot."""
    kind, _, budget = name.partition(":")
    if kind not in BOTS:
        return f"unknown agent {name!r}; bots are {', '.join(sorted(BOTS))} (and mcts:N)"
    if not budget and not name.endswith(":"):
        return None
    if kind != "mcts":
        return f"{kind!r} takes no budget; only mcts:N does"
    if not (budget.isascii() and budget.isdigit()) or not 1 <= int(budget) <= MAX_ITERATIONS:
        return f"mcts:N takes a whole number of iterations from 1 to {MAX_ITERATIONS}"
    return None


def make_bot(name: str, seed: int) -> Any:
    """The bot a seat name gives, seeded (``bot_kind`` must have accepted the name)."""
    kind, _, budget = name.partition(":")
    if budget:
        return MctsAgent(seed, iterations=int(budget))
    return BOTS[kind](seed)


__all__ = ["BOTS", "GreedyAgent", "MctsAgent", "RandomAgent", "bot_kind", "make_bot"]
