"""Agents answer decisions: bots here, the human player in the CLI."""

from __future__ import annotations

from exlibris.agents.greedy import GreedyAgent
from exlibris.agents.random_agent import RandomAgent

BOTS = {"random": RandomAgent, "greedy": GreedyAgent}

__all__ = ["BOTS", "GreedyAgent", "RandomAgent"]
