"""Headless play: bots only, JSON like `score --json`, event logs, table files."""

from __future__ import annotations

import json
from pathlib import Path

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
    result = invoke("play", "--seats", "greedy")
    assert result.exit_code == 2 and "two to four" in result.output
    result = invoke("play", "--variant", "standrd")
    assert result.exit_code == 2 and "did you mean 'standard'" in result.stderr
