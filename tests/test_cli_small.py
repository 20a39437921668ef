"""Small things of playing at the terminal: one error style, `schema --check`,
`replay --round`, `s FILE`, an empty answer asks again, `?` explains the notation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from exlibris.cli.main import cli


def invoke(*args: str, lines: str | None = None):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cli, list(args), input=lines)


def test_click_usage_errors_look_like_every_other_error() -> None:
    for args, said in ((["play", "--seats", "robot"], "exlibris play: Invalid value for "
                        "--seats: unknown seat 'robot'"),
                       (["play", "--players", "x"], "exlibris play: Invalid value for "
                        "'--players'"),
                       (["nope"], "exlibris: No such command 'nope'"),
                       (["replay"], "exlibris replay: Missing argument 'FILE'")):
        result = invoke(*args)
        assert result.exit_code == 2, args
        assert result.stderr.startswith(said), result.stderr
        assert "Usage:" not in result.stderr and len(result.stderr.splitlines()) == 1


def test_schema_check_says_so_either_way(tmp_path: Path) -> None:
    assert invoke("schema", "--out", str(tmp_path)).exit_code == 0
    fresh = invoke("schema", "--check", "--out", str(tmp_path))
    assert fresh.exit_code == 0 and fresh.stdout == "schemas are up to date\n"
    (tmp_path / "location.json").write_text("{}")
    stale = invoke("schema", "--check", "--out", str(tmp_path))
    assert stale.exit_code == 2
    assert stale.stderr.startswith("exlibris schema: stale: location.json;")
    assert f"`exlibris schema --out {tmp_path}`" in stale.stderr  # a command that works


def test_schema_check_without_a_schemas_folder_says_so(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = invoke("schema", "--check")
    assert result.exit_code == 2
    assert "no schemas in schemas/" in result.stderr
    assert "exlibris schema --out schemas" in result.stderr
    (tmp_path / "schemas").mkdir()
    missing = invoke("schema", "--check")
    assert missing.exit_code == 2 and "missing: artifact.json" in missing.stderr


def test_s_file_saves_a_copy_and_an_empty_answer_asks_again(tmp_path: Path) -> None:
    copy = tmp_path / "copy.json"
    result = invoke("play", "--seats", "human,greedy", "--seed", "5", "--save",
                    str(tmp_path / "auto.json"), lines=f"\n\n1\ns {copy}\nq\n")
    assert result.exit_code == 0, result.output
    assert result.output.count("type an option number from 1 to 2") == 2
    assert f"Saved to {copy}." in result.output
    saved = json.loads(copy.read_text())
    assert [d["index"] for d in saved["decisions"] if d["seat"] == 0] == [0]
    assert saved == json.loads((tmp_path / "auto.json").read_text())


def test_help_explains_the_notation_and_the_keys(tmp_path: Path) -> None:
    result = invoke("play", "--seats", "human,greedy", "--seed", "5", "--save",
                    str(tmp_path / "s.json"), lines="?\nq\n")
    out = result.output
    assert "How to read the screen" in out and "A2/9:HMR" in out
    assert "H Historic Volumes" in out and "u  undo your last decision" in out


@pytest.mark.slow
def test_replay_jumps_to_a_round(tmp_path: Path) -> None:
    save = tmp_path / "bots.json"
    assert invoke("play", "--seats", "greedy,random", "--seed", "2", "--save",
                  str(save)).exit_code == 0
    jumped = invoke("replay", str(save), "--round", "8")  # of 9: few tables drawn
    assert jumped.exit_code == 0
    assert "Round 7 begins" not in jumped.output
    assert "Round 8 begins" in jumped.output
    first = next(line for line in jumped.output.splitlines() if line.startswith("Decision "))
    assert not first.startswith("Decision 1 of")
    beyond = invoke("replay", str(save), "--round", "99")
    assert "--round 99: this game has" in beyond.output
