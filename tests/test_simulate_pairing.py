"""Variants compared on the same deals: one seeded stream a purpose of set-up
(engine/streams.py), so a variant that changes one part of set-up shares the rest
with standard, and comparisons paired over the deals both played."""

from __future__ import annotations

from pathlib import Path

import pytest

from exlibris.agents import make_bot
from exlibris.catalog import load_catalog
from exlibris.engine.flow import new_game
from exlibris.engine.streams import PURPOSES, stream_seed
from exlibris.simulate import figures as fig
from exlibris.simulate.plan import Cell, game_seed
from exlibris.simulate.runner import RunConfig, simulate
from exlibris.validation import resolve_settings

SCORING_ONLY = ("kind: variant\nid: richer-variety\nname: Richer variety\nextends: standard\n"
                "text: Four points a variety book.\nsettings:\n  scoring:\n"
                "    variety_per_book: 4\n")


def _setup(variant: str, seed: int, players: int):  # type: ignore[no-untyped-def]
    catalog = load_catalog()
    settings = resolve_settings(variant, catalog.variants)
    game = new_game(catalog, settings, [make_bot("random", seed + i) for i in range(players)],
                    seed=seed, variant=variant)
    return game.state.first_player, [[c.name for c in p.hand] for p in game.state.players]


def test_every_purpose_has_its_own_stream() -> None:
    seeds = {stream_seed(7, p) for p in PURPOSES}
    assert len(seeds) == len(PURPOSES)
    assert stream_seed(7, "deck") == stream_seed(7, "deck") != stream_seed(8, "deck")


@pytest.mark.parametrize("variant", ["friendlier", "job-faire"])
def test_a_setup_changing_variant_shares_first_player_and_hands_with_standard(
        variant: str) -> None:
    seeds = [game_seed(1, i) for i in range(60)]
    shared = 0
    for seed in seeds:
        standard, other = _setup("standard", seed, 3), _setup(variant, seed, 3)
        assert all(len(hand) == 6 for hand in standard[1])
        shared += standard == other
    assert shared / len(seeds) >= 0.95


def test_a_scoring_only_rules_paired_interval_is_narrower(tmp_path: Path) -> None:
    mine = tmp_path / "richer-variety.yaml"
    mine.write_text(SCORING_ONLY)
    cells = [Cell("standard", 3), Cell("richer-variety", 3)]
    result = simulate(RunConfig(cells, 40, 3, ["random"], content=(str(mine),)))
    data = fig.figures(result.rows, {"variants": ["standard", "richer-variety"]})
    (comparison,) = data["comparisons"]
    total = next(m for m in comparison["measures"] if m["measure"] == "mean total")
    assert total["paired"] and comparison["paired_games"] == 40
    paired = total["high"] - total["low"]
    unpaired = total["unpaired_high"] - total["unpaired_low"]
    assert paired < unpaired / 3
    assert total["low"] > 0  # a variety book is worth more: the total rises
    assert comparison["same_first_player"] == 1.0
    assert 0 <= comparison["winner_changed"] < 0.5
