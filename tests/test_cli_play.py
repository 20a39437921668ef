"""Headless play: bots only, JSON like `score --json`, event logs, table files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from exlibris.cli.main import cli


def invoke(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cli, list(args))


def test_json_has_the_score_fields_plus_seed_and_seats() -> None:
    result = invoke("play", "--seats", "greedy,random", "--seed", "11", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["seed"] == 11 and data["seats"] == ["greedy", "random"]
    assert data["variant"] == "standard"
    assert len(data["players"]) == 2
    for player in data["players"]:
        assert set(player) >= {"name", "flipped", "tally", "books", "stability", "entombed",
                               "prominent", "banned", "variety", "focus", "artifacts", "total"}
    assert data["ranking"] and data["winners"]
    assert data["ended"] in ("final-round", "stalled")


def test_the_table_out_file_scores_to_the_same_totals(tmp_path: Path) -> None:
    for seats, seed in (("random,greedy", "4"), ("random,random,random,greedy", "9")):
        table = tmp_path / f"table-{seed}.yaml"
        played = json.loads(invoke("play", "--seats", seats, "--seed", seed, "--json",
                                   "--table-out", str(table)).output)
        scored = json.loads(invoke("score", str(table), "--json").output)
        assert [p["total"] for p in scored["players"]] == [p["total"] for p in played["players"]]
        assert scored["winners"] == played["winners"]


def test_same_seed_same_log(tmp_path: Path) -> None:
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for path in (first, second):
        assert invoke("play", "--seats", "random,greedy,random", "--seed", "21",
                      "--log", str(path)).exit_code == 0
    assert first.read_text() == second.read_text()
    lines = [json.loads(line) for line in first.read_text().splitlines()]
    assert lines[0]["event"] == "setup" and lines[-1]["event"] == "inspection"
    assert any(line["event"] == "decision" for line in lines)


def test_readable_form_names_the_seed_and_the_winner() -> None:
    result = invoke("play", "--seed", "2")
    assert result.exit_code == 0
    assert result.output.startswith("seed 2; seats greedy, random")
    assert "Winner" in result.output


def test_bad_seats_and_variants_are_clear_errors() -> None:
    result = invoke("play", "--seats", "greedy,robot")
    assert result.exit_code == 2 and "unknown seat 'robot'" in result.output
    result = invoke("play", "--seats", "greedy,greedy,greedy,greedy,greedy,greedy")
    assert result.exit_code == 2 and "two to five, or one (solo)" in result.output
    result = invoke("play", "--variant", "standrd")
    assert result.exit_code == 2 and "did you mean 'standard'" in result.stderr


def test_library_by_name_instead_of_the_draft(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    result = invoke("play", "--seats", "greedy,random", "--seed", "8",
                    "--library", "literary-laboratory", "--log", str(log))
    assert result.exit_code == 0, result.output
    picks = [json.loads(line) for line in log.read_text().splitlines()
             if json.loads(line)["event"] == "library"]
    assert {p["seat"]: p["library"] for p in picks}[0] == "literary-laboratory"
    assert picks[1]["library"] != "literary-laboratory"
    bad = invoke("play", "--seats", "greedy,random", "--library", "literary-lab")
    assert bad.exit_code == 2 and "did you mean 'literary-laboratory'" in bad.stderr


@pytest.mark.slow
def test_a_named_library_survives_save_and_resume(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    first = CliRunner().invoke(cli, ["play", "--seats", "human,greedy", "--seed", "5",
                                     "--library", "garden-of-education", "--save", str(save)],
                               input="1\n" * 5)
    assert first.exit_code == 0, first.output
    assert json.loads(save.read_text())["library"] == ["garden-of-education", None]
    resumed = CliRunner().invoke(cli, ["play", "--resume", str(save), "--json"],
                                 input="1\n" * 400)
    assert resumed.exit_code == 0, resumed.output


def test_new_game_gives_a_named_library_without_a_draft() -> None:
    from exlibris.agents import RandomAgent
    from exlibris.catalog import load_catalog
    from exlibris.engine.flow import new_game
    from exlibris.validation import resolve_settings

    catalog = load_catalog()
    settings = resolve_settings("standard", catalog.variants)
    game = new_game(catalog, settings, [RandomAgent(1), RandomAgent(2), RandomAgent(3)],
                    seed=4, libraries=[None, "forest-repository", None])
    assert game.state.players[1].library == "forest-repository"
    assert "forest-repository" not in {game.state.players[0].library,
                                       game.state.players[2].library}


def test_variants_the_engine_cannot_play_are_refused_cleanly() -> None:
    for variant, words in (("five-player", "for 5 players, not 2"),
                           ("solo", "for 1 players, not 2")):
        result = invoke("play", "--seats", "greedy,random", "--variant", variant)
        assert result.exit_code == 2, (variant, result.output)
        assert words in result.stderr and "Traceback" not in result.output
