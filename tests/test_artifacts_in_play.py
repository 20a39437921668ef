"""Whole games with the Artifactorium module: they end, repeat, keep the invariants and
score on their written table as in play.

The wide sweeps are scripts (``scripts/artifact_sweep.py``: 200 four-player
``expanded`` games with artifact counts; ``scripts/module_games_check.py``: both
module variants, two to five players, seeds 1..20 through ``exlibris play``); these
tests keep a few of the same games in the suite.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from exlibris.agents import GreedyAgent, RandomAgent
from exlibris.agents.view import player_view
from exlibris.catalog import load_catalog
from exlibris.cli.main import cli
from exlibris.engine.decisions import Decision
from exlibris.engine.events import EventLog
from exlibris.engine.flow import new_game, play
from exlibris.engine.invariants import check_state
from exlibris.model.cards import ArtifactCard, BookCard
from exlibris.validation import resolve_settings

CATALOG = load_catalog()
BOOKS = len(CATALOG.deck.cards)  # type: ignore[union-attr]
ARTIFACTS = len(CATALOG.artifacts)


class Checked:
    """Checks the invariants before each decision, then lets a bot decide."""

    needs_view = True

    def __init__(self, inner: Any, seen: list[Any]) -> None:
        self.inner = inner
        self.seen = seen  # [game, checks]

    def decide(self, view: Any, decision: Decision) -> int:
        game = self.seen[0]
        check_state(game, f"before a {decision.kind!r} decision")
        if game.state.phase != "setup":
            kinds = Counter(type(c) for c in game.state.card_census())
            assert (kinds[BookCard], kinds[ArtifactCard]) == (BOOKS, ARTIFACTS)
        self.seen[1] += 1
        view = player_view(game, decision.seat) if getattr(self.inner, "needs_view", False) \
            else None
        return self.inner.decide(view, decision)


def checked_game(variant: str, n: int, seed: int) -> tuple[Any, Any, int, EventLog]:
    seen: list[Any] = [None, 0]
    bots = [GreedyAgent(seed + i) if i % 2 == 0 else RandomAgent(seed + i) for i in range(n)]
    log = EventLog(enabled=True)
    game = new_game(CATALOG, resolve_settings(variant, CATALOG.variants),
                    [Checked(b, seen) for b in bots], seed=seed, log=log, variant=variant,
                    views=lambda game, seat: seen.__setitem__(0, game))
    seen[0] = game
    outcome = play(game)
    return game, outcome, seen[1], log


@pytest.mark.parametrize(("variant", "n", "seed"), [
    ("artifactorium", 2, 11), ("artifactorium", 3, 12), ("artifactorium", 4, 13),
    ("artifactorium", 5, 14), ("expanded", 4, 15), ("expanded", 5, 16)])
def test_module_games_keep_the_invariants_and_use_artifacts(variant: str, n: int,
                                                             seed: int) -> None:
    game, outcome, checks, log = checked_game(variant, n, seed)
    assert game.state.final_round and checks == outcome.decisions > 0
    assert len(outcome.inspection.forms) == n
    gained = [r["card"] for r in log.records
              if r["event"] == "gain" and r["card"] in CATALOG.artifacts]
    assert gained, "no artifact was gained in the game"
    # the Artifactorium is in play every round and is dealt each preparation
    deals = [r for r in log.records if r["event"] == "deal"
             and r["location"] == "artifactorium-tile"]
    assert len(deals) == outcome.rounds or len(game.state.artifact_deck) == 0


def test_the_final_round_thresholds_of_the_modules() -> None:
    """EXP-FINAL-01: 18 / 16 / 14 / 12 shelf cards with either module or both."""
    for variant in ("artifactorium", "expanded"):
        settings = resolve_settings(variant, CATALOG.variants)
        assert settings.final_round.shelf_cards == {2: 18, 3: 16, 4: 14, 5: 12}


@pytest.mark.parametrize(("variant", "n", "seed"), [("artifactorium", 3, 4),
                                                    ("expanded", 5, 7)])
def test_play_repeats_and_its_table_rescores(tmp_path: Path, variant: str, n: int,
                                             seed: int) -> None:
    """`exlibris play` twice gives the same result; `exlibris score` on its
    `--table-out` (artifacts included) gives the same totals."""
    runner = CliRunner()
    table = tmp_path / "table.yaml"
    seats = ",".join(("greedy", "random")[i % 2] for i in range(n))
    argv = ["play", "--variant", variant, "--seats", seats, "--seed", str(seed), "--json",
            "--table-out", str(table)]
    first, second = runner.invoke(cli, argv), runner.invoke(cli, argv)
    assert first.exit_code == second.exit_code == 0, first.output
    assert json.loads(first.stdout) == json.loads(second.stdout)
    scored = runner.invoke(cli, ["score", "--json", str(table)])
    assert scored.exit_code == 0, scored.output
    played = [p["total"] for p in json.loads(first.stdout)["players"]]
    assert played == [p["total"] for p in json.loads(scored.stdout)["players"]]
