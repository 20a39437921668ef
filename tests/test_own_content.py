"""An author's own content in every command: --content, EXLIBRIS_CONTENT, --variant by
path, replacements said once, saves that know every file, --assistant."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from exlibris.cli.main import cli
from exlibris.sources import use_content

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "authoring"


@pytest.fixture(autouse=True)
def _no_own_content(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts (and leaves the process) with the shipped content only."""
    monkeypatch.delenv("EXLIBRIS_CONTENT", raising=False)
    use_content(())
    yield
    use_content(())


@pytest.fixture
def author(tmp_path: Path) -> Path:
    folder = tmp_path / "author"
    shutil.copytree(EXAMPLES, folder)
    return folder


def invoke(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), env=env)


def test_content_list_and_show_include_own_entries(author: Path) -> None:
    listed = invoke("content", "list", "--kind", "location", "--content", str(author))
    assert listed.exit_code == 0, listed.output
    assert "reading-nook" in listed.output and "#23" in listed.output
    assert "reading-nook" not in invoke("content", "list", "--kind", "location").output
    shown = invoke("content", "show", "night-owl", env={"EXLIBRIS_CONTENT": str(author)})
    assert shown.exit_code == 0 and "once per round" in shown.output


def test_a_replacement_is_said_once_on_standard_error(author: Path) -> None:
    shipped = (ROOT / "content" / "locations" / "wishing-well.yaml").read_text("utf-8")
    (author / "wishing-well.yaml").write_text(
        shipped.replace("draw(count(gone) + 1)", "draw(count(gone) + 2)"), "utf-8")
    result = invoke("content", "show", "wishing-well", "--content", str(author),
                    "--content", str(author / "wishing-well.yaml"))
    assert result.exit_code == 0, result.output
    assert result.stderr.count("wishing-well: your ") == 1
    assert "replaces the shipped entry" in result.stderr
    assert "count(gone) + 2" in result.stdout
    checked = invoke("validate", str(author))
    assert checked.exit_code == 0, checked.output
    assert checked.stderr.count("wishing-well: your ") == 1
    played = invoke("play", "--content", str(author), "--seats", "greedy,random", "--seed", "1")
    assert played.exit_code == 0 and played.stderr.count("wishing-well: your ") == 1


def test_play_with_own_variant_by_path_uses_the_new_location(author: Path, tmp_path: Path
                                                             ) -> None:
    log = tmp_path / "game.jsonl"
    result = invoke("play", "--content", str(author), "--variant",
                    str(author / "my-variant.yaml"), "--seats", "greedy,random", "--seed", "1",
                    "--json", "--log", str(log))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["variant"] == "my-variant"
    events = [json.loads(line) for line in log.read_text("utf-8").splitlines()]
    assert "reading-nook" in events[1]["starting"]
    assert any(e["event"] == "place" and e.get("location") == "reading-nook" for e in events)


def test_unknown_variant_lists_own_ones(author: Path) -> None:
    result = invoke("play", "--variant", "my-variannt", "--seats", "greedy,random",
                    "--content", str(author))
    assert result.exit_code == 2
    assert "did you mean 'my-variant'" in result.stderr


def test_assistant_card_given_to_a_seat(author: Path, tmp_path: Path) -> None:
    log = tmp_path / "owl.jsonl"
    result = invoke("play", "--content", str(author), "--assistant", "night-owl",
                    "--seats", "greedy,random", "--seed", "2", "--log", str(log))
    assert result.exit_code == 0, result.output
    events = [json.loads(line) for line in log.read_text("utf-8").splitlines()]
    assert {"event": "assistant-card", "seat": 0, "assistant": "night-owl"}.items() <= \
        next(e for e in events if e["event"] == "assistant-card").items()
    assert any(e["event"] == "ability" and e.get("ability") == "Night reading" for e in events)
    wrong = invoke("play", "--assistant", "night-owel", "--seats", "greedy,random",
                   "--content", str(author))
    assert wrong.exit_code == 2 and "did you mean 'night-owl'" in wrong.stderr


def test_a_save_records_own_files_and_resume_refuses_changed_ones(author: Path,
                                                                  tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    started = CliRunner().invoke(cli, ["play", "--content", str(author), "--variant",
                                       "my-variant", "--seats", "human,greedy", "--seed", "3",
                                       "--save", str(save)], input="1\nq\n")
    assert started.exit_code == 0, started.output
    record = json.loads(save.read_text("utf-8"))
    files = {Path(item["path"]).name for item in record["own_content"]}
    assert {"my-variant.yaml", "reading-nook.yaml", "night-owl.yaml",
            "alphabet-abacus.yaml"} <= files
    assert not any(name.endswith("table.yaml") for name in files)
    use_content(())
    again = CliRunner().invoke(cli, ["play", "--resume", str(save)], input="q\n")
    assert again.exit_code == 0, again.output  # the recorded files are taken again
    nook = author / "reading-nook.yaml"
    nook.write_text(nook.read_text("utf-8").replace("draw(2)", "draw(3)"), "utf-8")
    use_content(())
    refused = CliRunner().invoke(cli, ["play", "--resume", str(save)], input="q\n")
    assert refused.exit_code == 2, refused.output
    assert "reading-nook.yaml" in refused.stderr and "[save/mismatch]" in refused.stderr


def test_score_with_own_artifact_and_variant(author: Path) -> None:
    result = invoke("score", "--json", "--content", str(author), str(author / "table.yaml"))
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["variant"] == "my-variant"
    ada = data["players"][0]
    assert ada["artifacts"] == 1 and ada["focus"] == 9  # 3 historic books x 3
    without = invoke("score", str(author / "table.yaml"))
    assert without.exit_code == 2 and "alphabet-abacus" in without.stderr


def test_scenario_run_on_a_mixed_folder(author: Path) -> None:
    result = invoke("scenario", "run", str(author))
    assert result.exit_code == 0, result.output
    scenarios = len(list((author / "scenarios").glob("*.yaml")))
    assert result.stdout.count("PASS") == scenarios
    assert "note: skipped 1 YAML file without a 'kind:' line (not content): " in result.stderr
    assert "table.yaml" in result.stderr
    assert ".pre-commit-config.yaml" not in result.stderr  # hidden: not read at all
    alone = invoke("scenario", "run", str(author / "scenarios"), "--content", str(author))
    assert alone.exit_code == 0 and alone.stdout.count("PASS") == scenarios


def test_validate_a_mixed_folder_checks_scenarios_too(author: Path) -> None:
    scenario = author / "scenarios" / "reading-nook-draws-two-and-shelves-one.yaml"
    scenario.write_text(scenario.read_text("utf-8").replace("reading-nook]",
                                                             "reading-nok]"), "utf-8")
    result = invoke("validate", str(author))
    assert result.exit_code == 2
    assert "unknown location 'reading-nok' (did you mean 'reading-nook'?)" in result.stderr
    assert "[scenario/unknown-location]" in result.stderr


def test_a_missing_content_path_is_a_user_error(tmp_path: Path) -> None:
    result = invoke("content", "list", env={"EXLIBRIS_CONTENT": str(tmp_path / "nowhere")})
    assert result.exit_code == 2
    assert "no such content file or folder [content/missing]" in result.stderr


@pytest.mark.parametrize("limit", ["round", "game"])
def test_once_per_round_and_game_in_a_whole_game(author: Path, tmp_path: Path,
                                                 limit: str) -> None:
    owl = author / "night-owl.yaml"
    owl.write_text(owl.read_text("utf-8").replace("once per round", f"once per {limit}"),
                   "utf-8")
    log = tmp_path / "owl.jsonl"
    result = invoke("play", "--content", str(author), "--assistant", "night-owl",
                    "--seats", "greedy,random", "--seed", "2", "--log", str(log))
    assert result.exit_code == 0, result.output
    rounds: list[int] = []
    current = 0
    for line in log.read_text("utf-8").splitlines():
        event = json.loads(line)
        if event["event"] == "round":
            current = event["round"]
        elif event["event"] == "ability" and event.get("ability") == "Night reading":
            rounds.append(current)
    if limit == "game":
        assert len(rounds) == 1
    else:
        assert len(rounds) > 1 and len(set(rounds)) == len(rounds)


@pytest.mark.slow
def test_replay_takes_the_recorded_files(author: Path, tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    played = invoke("play", "--content", str(author), "--variant", "my-variant", "--seats",
                    "greedy,random", "--seed", "1", "--save", str(save))
    assert played.exit_code == 0, played.output
    use_content(())
    replayed = invoke("replay", str(save), "--all")
    assert replayed.exit_code == 0, replayed.output
    assert "Reading Nook" in replayed.stdout


def test_a_moved_folder_resumes_with_content(author: Path, tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    started = CliRunner().invoke(cli, ["play", "--content", str(author), "--variant",
                                       "my-variant", "--seats", "human,greedy", "--seed", "3",
                                       "--save", str(save)], input="1\nq\n")
    assert started.exit_code == 0, started.output
    moved = tmp_path / "moved"
    author.rename(moved)
    use_content(())
    lost = CliRunner().invoke(cli, ["play", "--resume", str(save)], input="q\n")
    assert lost.exit_code == 2 and "[content/missing]" in lost.stderr
    use_content(())
    again = CliRunner().invoke(cli, ["play", "--resume", str(save), "--content", str(moved)],
                               input="q\n")
    assert again.exit_code == 0, again.output


def test_validate_skips_what_git_ignores(author: Path) -> None:
    import shutil as sh
    import subprocess

    if sh.which("git") is None:
        pytest.skip("git is not installed")
    subprocess.run(["git", "init", "-q", str(author)], check=True)
    (author / "parked").mkdir()
    (author / "parked" / "draft.yaml").write_text("kind: location\nid: draft\n", "utf-8")
    assert invoke("validate", str(author)).exit_code == 2  # the draft is read
    (author / ".gitignore").write_text("parked/\n", "utf-8")
    result = invoke("validate", str(author))
    assert result.exit_code == 0, result.output
