# cython: annotation_typing=True
"""A bot that picks uniformly at random, from its own seeded generator."""

from __future__ import annotations

import random
from typing import Any

from exlibris.draws import below
from exlibris.engine.decisions import Decision


class RandomAgent:
    """Uniformly random legal choices; reproducible from its seed."""

    needs_view = False  # answers without a player view (none is built for it)

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def decide(self, view: Any, decision: Decision) -> int:
        return below(self.rng, decision.size)
