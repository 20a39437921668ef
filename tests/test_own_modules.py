"""An author's module scopes its tiles to the rules that name it and keeps its
permanent tiles in play all game; a location remembers who visited it this round."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from exlibris.cli.main import cli
from exlibris.sources import use_content
from exlibris.validation import validate

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "authoring"


@pytest.fixture(autouse=True)
def _no_own_content(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("EXLIBRIS_CONTENT", raising=False)
    use_content(())
    yield
    use_content(())


def play(variant: str, log: Path, seed: int = 1) -> list[dict]:
    result: Result = CliRunner().invoke(cli, [
        "play", "--content", str(EXAMPLES), "--variant", variant, "--seats", "greedy,random",
        "--seed", str(seed), "--json", "--log", str(log)])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in log.read_text("utf-8").splitlines()]


def test_a_modules_tiles_stay_out_of_rules_that_do_not_name_it(tmp_path: Path) -> None:
    events = play("my-variant", tmp_path / "game.jsonl")
    assert not any("lamplighters-post" in json.dumps(e) for e in events)


def test_a_modules_permanent_tile_is_in_play_every_round(tmp_path: Path) -> None:
    events = play("market-night", tmp_path / "game.jsonl")
    (setup,) = [e for e in events if e["event"] == "locations"]
    assert "lamplighters-post" in setup["starting"]
    cleanups = [e for e in events if e["event"] == "cleanup"]
    assert cleanups
    assert not any("lamplighters-post" in json.dumps(e.get("discarded", []))
                   for e in cleanups)


def test_the_first_visitor_of_each_round_draws_three(tmp_path: Path) -> None:
    """Over a few games: at each round's first visit three cards, at a later one of
    the same round at most one (an empty deck gives fewer)."""
    seen_first = 0
    for seed in range(1, 6):
        events = play("market-night", tmp_path / f"game{seed}.jsonl", seed)
        visits = 0
        for i, event in enumerate(events):
            if event["event"] == "round":
                visits = 0
            elif event["event"] == "activate" and event["location"] == "lamplighters-post":
                j = next(j for j in range(i + 1, len(events)) if events[j]["event"] == "draw")
                drawn = len(events[j]["cards"])  # fewer only once the deck runs out
                visits += 1
                if any(e["event"] == "ability" for e in events[i + 1:j]):
                    continue  # a card held changes the draw (the Magnifiers: one more)
                assert drawn <= (3 if visits == 1 else 1), (seed, event)
                seen_first += visits == 1 and drawn == 3
    assert seen_first >= 2  # it resets each round


def test_an_unknown_module_is_named_with_the_modules_in_reach(tmp_path: Path) -> None:
    shutil.copy(EXAMPLES / "lamplighters-post.yaml", tmp_path)
    text = (tmp_path / "lamplighters-post.yaml").read_text("utf-8")
    (tmp_path / "lamplighters-post.yaml").write_text(
        text.replace("module: night-market", "module: night-markt"), "utf-8")
    (problem,) = validate([tmp_path]).problems
    assert problem.code == "content/unknown-module"
    assert "artifactorium" in problem.message and "kind: module" in problem.message


def test_bots_shelve_the_artifact_that_scores_the_prominent_category(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, [
        "play", "--content", str(EXAMPLES), "--variant", "market-night", "--seats",
        "greedy,greedy", "--seed", "2", "--json", "--log", str(tmp_path / "g.jsonl")])
    assert result.exit_code == 0, result.output
    events = [json.loads(line) for line in (tmp_path / "g.jsonl").read_text().splitlines()]
    assert any(e["event"] == "shelve" and e.get("card") == "town-crier" for e in events)
    assert json.loads(result.output)["variant"] == "market-night"
