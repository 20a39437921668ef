"""Set-up and end hooks of a variant: drafted starting hands, and a fixed number of
rounds or the shelf trigger, whichever comes first."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from exlibris.cli.main import cli
from exlibris.sources import use_content

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "authoring"


@pytest.fixture(autouse=True)
def _no_own_content(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("EXLIBRIS_CONTENT", raising=False)
    use_content(())
    yield
    use_content(())


def played(folder: Path, variant: str, seed: int, log: Path) -> tuple[dict, list[dict]]:
    result = CliRunner().invoke(cli, ["play", "--content", str(folder), "--variant", variant,
                                      "--seats", "greedy,random", "--seed", str(seed),
                                      "--json", "--log", str(log)])
    assert result.exit_code == 0, result.output
    return json.loads(result.output), [json.loads(x) for x in log.read_text().splitlines()]


def test_a_drafted_hand_is_kept_one_card_at_a_time(tmp_path: Path) -> None:
    _, events = played(EXAMPLES, "quick-draft", 1, tmp_path / "g.jsonl")
    keeps = [e for e in events if e["event"] == "decision" and e["prompt"] ==
             "which card to keep?"]
    hands = {e["seat"]: e["cards"] for e in events if e["event"] == "deal-hand"}
    assert sorted(hands) == [0, 1] and all(len(cards) == 5 for cards in hands.values())
    assert len({c for cards in hands.values() for c in cards}) == 10
    assert len(keeps) == 2 * 4  # the last card of each packet is kept unasked
    for keep in keeps:
        assert keep["choice"].removeprefix("keep ") in hands[keep["seat"]]
    # the packets travel: seat 1's second pick comes from the packet seat 0 was dealt
    assert keeps[0]["seat"] != keeps[1]["seat"]


def test_a_hand_without_the_draft_is_dealt_as_before(tmp_path: Path) -> None:
    _, events = played(EXAMPLES, "my-variant", 1, tmp_path / "g.jsonl")
    assert not any(e["event"] == "decision" and e["prompt"] == "which card to keep?"
                   for e in events)


def test_six_rounds_at_most_with_the_shelf_trigger_too(tmp_path: Path) -> None:
    _, events = played(EXAMPLES, "quick-draft", 3, tmp_path / "g.jsonl")
    rounds = [e for e in events if e["event"] == "round"]
    assert len(rounds) <= 6
    (final,) = [e for e in events if e["event"] == "final-round"]
    assert final.get("rounds") == 6 or final.get("threshold") == 16


def test_rounds_alone_ignore_the_shelf(tmp_path: Path) -> None:
    text = (EXAMPLES / "quick-draft.yaml").read_text("utf-8")
    (tmp_path / "quick-draft.yaml").write_text(
        text.replace("rounds: 6", "rounds: 2").replace("or_shelf_trigger: true",
                                                        "or_shelf_trigger: false"), "utf-8")
    _, events = played(tmp_path, "quick-draft", 1, tmp_path / "g.jsonl")
    assert len([e for e in events if e["event"] == "round"]) == 2
    (final,) = [e for e in events if e["event"] == "final-round"]
    assert final["rounds"] == 2


def test_a_second_prominent_category_is_dealt_and_awarded(tmp_path: Path) -> None:
    data, events = played(EXAMPLES, "two-crowns", 1, tmp_path / "g.jsonl")
    (dealt,) = [e for e in events if e["event"] == "categories"]
    assert dealt["also_prominent"] not in (dealt["prominent"], dealt["banned"])
    # with two players each award is first or second place, so B2 sums two of them
    awards = {15 + 15, 15 + 9, 9 + 9, 12 + 15, 12 + 9, 12 + 12}
    assert all(player["prominent"] in awards for player in data["players"])


def test_two_prominent_categories_need_enough_category_cards(tmp_path: Path) -> None:
    text = (EXAMPLES / "two-crowns.yaml").read_text("utf-8")
    (tmp_path / "two-crowns.yaml").write_text(text.replace("players: [2, 3]",
                                                           "players: [2, 3, 4]"), "utf-8")
    result = CliRunner().invoke(cli, ["play", "--content", str(tmp_path), "--variant",
                                      "two-crowns", "--seats", "random,random,random,random",
                                      "--seed", "1"])
    assert result.exit_code == 2
    said = " ".join(result.output.split())
    assert "[rules/unplayable]" in said and "play it with at most 3 players" in said, said
