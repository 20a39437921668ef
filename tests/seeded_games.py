"""Seeded games of every mode (the modes of ``scripts/goldens.py``: every rules file,
player count and solo level), played by a greedy seat among random ones with the
event log on, kept once per test process for the tests that read them: what the
terminal tells, names and projects."""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from exlibris.agents.view import player_view
from exlibris.catalog import load_catalog
from exlibris.engine.decisions import Decision
from exlibris.engine.events import EventLog
from exlibris.engine.flow import new_game, play

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "goldens.py"


def goldens() -> Any:
    if "goldens" in sys.modules:
        return sys.modules["goldens"]
    spec = importlib.util.spec_from_file_location("goldens", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["goldens"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@dataclass
class Played:
    """One finished game: its mode, the game, its records and, at each decision, what
    the watcher made of it."""

    mode: str
    game: Any
    log: EventLog
    outcome: Any
    seen: list[Any] = field(default_factory=list)


class Watched:
    """A bot whose every decision is shown to ``watch(game, decision)`` first."""

    def __init__(self, inner: Any, played: Played, watch: Any) -> None:
        self.inner = inner
        self.needs_view = getattr(inner, "needs_view", False)
        self.played = played
        self.watch = watch

    def sit_at(self, game: Any) -> None:
        self.played.game = game
        sit_at = getattr(self.inner, "sit_at", None)
        if sit_at is not None:
            sit_at(game)

    def decide(self, view: Any, decision: Decision) -> int:
        index = self.inner.decide(view, decision)
        if self.watch is not None:
            self.played.seen.append(self.watch(self.played.game, decision, index))
        return index


def play_mode(mode: Any, seed: int, watch: Any = None) -> Played:
    """One game of ``mode``: a greedy first seat, random others (goldens' second game)."""
    module = goldens()
    catalog = load_catalog()
    played = Played(mode.name, None, EventLog(True), None)
    seats = ("greedy",) + ("random",) * (mode.players - 1)
    agents = [Watched(module._bot(kind, seed, i), played, watch)
              for i, kind in enumerate(seats)]
    game = new_game(catalog, module.settings_of(catalog, mode), agents, seed=seed,
                    views=player_view, variant=mode.variant, log=played.log)
    played.game = game
    played.outcome = play(game)
    return played


@cache
def every_mode(seed: int = 2) -> tuple[Played, ...]:
    """One game of each mode (no watcher), kept for the process."""
    return tuple(play_mode(mode, seed) for mode in goldens().MODES)


def mode_names() -> list[str]:
    return [mode.name for mode in goldens().MODES]
