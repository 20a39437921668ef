"""One setup builder (``exlibris/engine/setup.py: build_table``) for new games and
scenario positions: both start from the same table, so a piece of setup added there
reaches both."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from exlibris.agents import RandomAgent
from exlibris.engine import setup as engine_setup
from exlibris.engine.flow import new_game
from exlibris.engine.setup import seat_assistants
from exlibris.scenario import load_scenario
from exlibris.scenario.position import build_game

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = {
    "standard": ROOT / "scenarios" / "games" / "2p-a-tie-on-total-broken-by-books.yaml",
    "solo": ROOT / "scenarios" / "solo" / "artifactorium-leftover-artifacts-are-donated.yaml",
}


def wiring(game: Any) -> dict[str, Any]:
    """What the builder sets, whatever the start of the game."""
    return {
        "categories": game.categories, "artifacts": game.artifact_specs,
        "assistant cards": game.assistant_cards, "scoring": game.scoring,
        "variant": game.variant, "seed": game.seed, "settings": game.settings,
        "shelf rules": [p.shelf.rules for p in game.state.players],
        "names": [p.name for p in game.state.players],
        "solo": type(game.solo), "artifacts looked for": game.has_artifacts,
    }


@pytest.mark.parametrize("kind", sorted(SCENARIOS))
def test_a_scenario_position_and_a_new_game_start_from_the_same_table(kind: str) -> None:
    scenario = load_scenario(SCENARIOS[kind])
    seats = len(scenario.setup.players)
    position = build_game(scenario, [RandomAgent(0)] * seats)
    fresh = new_game(scenario.catalog, scenario.settings, [RandomAgent(0)] * seats,
                     seed=scenario.seed, variant=scenario.rules,
                     names=[p.name for p in scenario.setup.players])
    assert wiring(position) == wiring(fresh)
    assert set(fresh.location_specs) <= set(position.location_specs)


def test_both_kinds_of_game_go_through_the_builder(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[Any] = []
    real = engine_setup.Game

    def counting(*args: Any, **kw: Any) -> Any:
        built.append(real(*args, **kw))
        return built[-1]

    monkeypatch.setattr(engine_setup, "Game", counting)
    scenario = load_scenario(SCENARIOS["standard"])
    games = [build_game(scenario, [RandomAgent(0)] * 2),
             new_game(scenario.catalog, scenario.settings, [RandomAgent(0)] * 2, seed=1)]
    assert [id(g) for g in built] == [id(g) for g in games]


def test_a_scenario_shelf_follows_the_rules_removal_ruling() -> None:
    scenario = load_scenario(SCENARIOS["standard"])
    rulings = {**scenario.settings.rulings, "removal_may_split": True}
    scenario.settings = scenario.settings.model_copy(update={"rulings": rulings})
    game = build_game(scenario, [RandomAgent(0)] * 2)
    assert all(p.shelf.rules.removal_may_split for p in game.state.players)
    shelf = game.state.players[0].shelf
    assert shelf.snapshot() == scenario.setup.players[0].shelf.snapshot()
    assert shelf.removable_positions() == frozenset(shelf.positions())


def test_seat_assistants_name_each_token_once() -> None:
    class Spec:
        def __init__(self, sid: str) -> None:
            self.id = sid

    made = seat_assistants(1, [Spec("mummy"), Spec("mummy"), Spec("owl")], 2)  # type: ignore[list-item]
    assert [a.id for a in made] == ["1:mummy", "1:mummy-2", "1:owl", "1:standard-1",
                                    "1:standard-2"]
    assert [a.kind for a in made] == ["special"] * 3 + ["standard"] * 2


def test_scoring_rules_are_worked_out_once_per_mapping_and_again_when_it_changes() -> None:
    from exlibris.scoring.settings import ScoringRules

    mapping: dict[str, Any] = {"variety_per_book": 4, "five_players": {"awards": [9, 4]}}
    for players in (2, 5):
        kept = engine_setup.scoring_rules(mapping, players)
        assert kept == ScoringRules.from_settings(mapping, players=players)
        assert engine_setup.scoring_rules(mapping, players) is kept
    mapping["variety_per_book"] = 1  # the same mapping, changed: worked out again
    assert engine_setup.scoring_rules(mapping, 2).variety_per_book == 1


def test_artifacts_are_looked_for_when_an_artifact_card_is_anywhere() -> None:
    from exlibris.model.cards import ArtifactCard

    scenario = load_scenario(SCENARIOS["standard"])
    game = new_game(scenario.catalog, scenario.settings, [RandomAgent(1)] * 2, seed=3)
    assert not game.has_artifacts  # the standard game deals none
    card = ArtifactCard(sorted(scenario.catalog.artifacts)[0])
    game.state.cards.put(card, game.state.discard)
    engine_setup.finish_table(game)
    assert game.has_artifacts == any(isinstance(c, ArtifactCard)
                                     for c in game.state.cards.where)
    assert game.has_artifacts
