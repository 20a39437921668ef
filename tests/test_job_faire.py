"""The Job Faire module and five players in whole games (EXP-SETUP, EXP-JF, EXP-TEMP,
EXP-5P, EXP-FINAL): setup, the engine's invariants before every decision, the CLI,
the greedy bot's valuation of hires. Scenarios show the single rules
(``scenarios/job-faire/``, ``scenarios/assistant-cards/``, ``scenarios/auctions/``).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from exlibris.agents import GreedyAgent, RandomAgent
from exlibris.agents.view import player_view
from exlibris.agents.worth import assistant_worth, effect_worth
from exlibris.catalog import load_catalog
from exlibris.cli.main import cli
from exlibris.engine.events import EventLog
from exlibris.engine.flow import check_playable, new_game, play
from exlibris.engine.game import RulesError
from exlibris.engine.invariants import InvariantError, check_state
from exlibris.engine.state import Assistant
from exlibris.model.cards import ResumeCard
from exlibris.validation import resolve_settings

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
from job_faire_survey import survey_game  # noqa: E402

CATALOG = load_catalog()
JOB_FAIRE = resolve_settings("job-faire", CATALOG.variants)


def job_faire_game(n: int, seed: int = 1, log: EventLog | None = None) -> Any:
    agents = [RandomAgent(seed * 10 + i) for i in range(n)]
    return new_game(CATALOG, JOB_FAIRE, agents, seed=seed, variant="job-faire", log=log)


# ------------------------------------------------------------------ setup


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_setup_builds_the_special_assistant_deck(n: int) -> None:
    """EXP-SETUP-04, EXP-5P-06, SA-OWL-1: the Witch out at five, the Owl out without
    the Artifactorium; shuffled."""
    game = job_faire_game(n)
    ids = [c.assistant_id for c in game.state.assistant_deck.cards]
    expected = set(CATALOG.assistants) - {"owl-collector"} - ({"witch"} if n == 5 else set())
    assert set(ids) == expected and len(ids) == len(expected)
    other = job_faire_game(n, seed=2)
    assert ids != [c.assistant_id for c in other.state.assistant_deck.cards]


def test_setup_gives_three_standard_assistants_and_no_library_assistant() -> None:
    """EXP-SETUP-05, EXP-SETUP-06 (a), EXP-SETUP-07: one library each, no draft."""
    log = EventLog(enabled=True)
    game = job_faire_game(4, log=log)
    for player in game.state.players:
        assert [a.kind for a in player.assistants] == ["standard"] * 3
        assert player.library is not None and player.hired == 0
    assert len({p.library for p in game.state.players}) == 4
    assert not [r for r in log.records if r["event"] == "decision" and r["kind"] == "library"]


def test_the_job_faire_is_in_play_from_the_start_and_the_temp_agency_in_the_stack() -> None:
    """EXP-SETUP-10 (a), EXP-SETUP-13."""
    game = job_faire_game(3)
    faire = [loc for loc in game.state.in_play if loc.id == "job-faire-tile"]
    assert faire and faire[0].permanent
    assert "temp-agency" in game.state.location_stack
    standard = new_game(CATALOG, resolve_settings("standard", CATALOG.variants),
                        [RandomAgent(1), RandomAgent(2)], seed=1)
    assert "temp-agency" not in standard.state.location_stack
    assert not standard.state.assistant_deck.cards


def test_the_job_faire_counts_outside_the_one_tile_per_player() -> None:
    from exlibris.engine.flow import preparation

    game = job_faire_game(3)
    game.state.round = 1
    preparation(game)
    temporary = [loc for loc in game.state.in_play if not loc.permanent]
    assert len(temporary) == 3
    faire = next(loc for loc in game.state.in_play if loc.id == "job-faire-tile")
    assert len(faire.area) == 2  # EXP-JF-01 at three players


def test_job_faire_plays_at_two_to_five_and_with_the_artifactorium() -> None:
    expanded = resolve_settings("expanded", CATALOG.variants)
    for n in (2, 3, 4, 5):
        check_playable(JOB_FAIRE, n, "job-faire")
        check_playable(expanded, n, "expanded")
    with pytest.raises(RulesError, match="not 6"):
        check_playable(expanded, 6, "expanded")


# ------------------------------------------------------------------ whole games


@pytest.mark.parametrize(("n", "seed"), [(2, 3), (3, 4), (4, 5), (5, 6), (4, 7), (5, 8)])
def test_invariants_hold_before_every_decision(n: int, seed: int) -> None:
    hired, checks, outcome = survey_game(CATALOG, JOB_FAIRE, n, seed)
    assert checks == outcome.decisions > 0
    assert len(outcome.inspection.forms) == n
    assert sum(hired.values()) > 0  # someone hired at the Job Faire


def test_hires_over_a_few_games_reach_most_cards() -> None:
    seen: Counter[str] = Counter()
    for seed in range(1, 9):
        hired, _, _ = survey_game(CATALOG, JOB_FAIRE, 4, seed)
        seen.update(hired)
    assert "owl-collector" not in seen  # not in the deck without the Artifactorium
    assert len(seen) >= 10, seen


def test_same_seed_same_job_faire_game() -> None:
    first, second = EventLog(enabled=True), EventLog(enabled=True)
    for log in (first, second):
        agents = [GreedyAgent(1), RandomAgent(2), GreedyAgent(3)]
        play(new_game(CATALOG, JOB_FAIRE, agents, seed=9, variant="job-faire", log=log,
                      views=player_view))
    assert first.records == second.records
    kinds = Counter(r["event"] for r in first.records)
    assert kinds["hire"] > 0 and kinds["assistant-deck"] == 1


def test_the_final_round_thresholds_of_the_module() -> None:
    """EXP-FINAL-01 and, without a module, EXP-FINAL-02 (a)."""
    assert JOB_FAIRE.final_round.shelf_cards == {2: 18, 3: 16, 4: 14, 5: 12}
    five = resolve_settings("five-player", CATALOG.variants)
    assert five.final_round.shelf_cards[5] == 10


def test_check_state_finds_a_token_in_two_pools() -> None:
    game = job_faire_game(2)
    card = game.state.assistant_deck.cards[-1]
    spec = CATALOG.assistants[card.assistant_id]
    for seat in (0, 1):  # both players get the same token, its card still in the deck
        game.player(seat).assistants.append(Assistant(f"{seat}:x", seat, spec))
    game.assistant_cards = dict(CATALOG.assistants)
    with pytest.raises(InvariantError):
        check_state(game, "test")


# ------------------------------------------------------------------ the CLI


def test_cli_plays_five_players_with_and_without_the_job_faire(tmp_path: Path) -> None:
    """EXP-5P: `--players 5` takes the five-player rules; the table rescored agrees."""
    seats = "greedy,random,random,greedy,random"
    for extra in ([], ["--variant", "job-faire"]):
        table = tmp_path / "table.yaml"
        played = CliRunner().invoke(cli, ["play", "--players", "5", "--seats", seats,
                                          "--seed", "3", "--json", "--table-out", str(table),
                                          *extra])
        assert played.exit_code == 0, played.output
        data = json.loads(played.output)
        assert len(data["players"]) == 5
        assert data["variant"] == (extra[1] if extra else "five-player")
        scored = CliRunner().invoke(cli, ["score", "--json", str(table)])
        assert scored.exit_code == 0, scored.output
        again = json.loads(scored.output)
        assert [p["total"] for p in again["players"]] == [p["total"] for p in data["players"]]
        assert all(p["banned"] == 0 for p in data["players"])  # EXP-5P-02


def test_cli_refuses_six_players() -> None:
    result = CliRunner().invoke(cli, ["play", "--players", "6"])
    assert result.exit_code == 2 and "two to five" in result.stderr


def test_a_five_seat_hot_seat_job_faire_game_starts_at_the_terminal(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["play", "--seats", "human,human,human,human,human",
                                      "--variant", "job-faire", "--seed", "2",
                                      "--save", str(tmp_path / "game.json")],
                                input="1\n" * 30)
    assert result.exit_code == 0, result.output
    assert "Job Faire" in result.output and "special assistant deck" in result.output


# ------------------------------------------------------------------ the greedy bot


def test_worth_is_read_from_the_effect_language() -> None:
    assert effect_worth("draw(2)") == 2.0
    assert effect_worth("may:\n  both_home_actions()\n") == 2.0
    assert effect_worth("require count(hand) > 0\n") == 0.0
    bookworm, wizard = CATALOG.assistants["bookworm"], CATALOG.assistants["wizard"]
    assert assistant_worth(bookworm) > assistant_worth(wizard)


def test_greedy_hires_the_card_worth_most() -> None:
    from exlibris.engine.decisions import Decision, DecisionKind

    game = job_faire_game(2)
    cards = [ResumeCard("wizard"), ResumeCard("bookworm"), ResumeCard("ghost")]
    decision = Decision(0, DecisionKind.HIRE, "which assistant to hire?", cards)
    best = max(range(3), key=lambda i: assistant_worth(CATALOG.assistants[cards[i].name]))
    assert GreedyAgent(1).decide(player_view(game, 0), decision) == best
