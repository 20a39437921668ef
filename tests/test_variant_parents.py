"""A variant that extends several: later parents win, a conflict between two parents
is reported, a cycle names its variants, and the game is played by the merged rules."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from exlibris.catalog import shipped_catalog
from exlibris.cli.main import cli
from exlibris.model.merging import ChainError, linearize
from exlibris.sources import use_content
from exlibris.validation import validate, variant_chain


@pytest.fixture(autouse=True)
def _no_own_content(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts and leaves the process with the shipped content only."""
    monkeypatch.delenv("EXLIBRIS_CONTENT", raising=False)
    use_content(())
    yield
    use_content(())


def variant(folder: Path, vid: str, extends: str, settings: str = "") -> None:
    text = f"kind: variant\nid: {vid}\nname: {vid}\nextends: {extends}\ntext: A test.\n"
    (folder / f"{vid}.yaml").write_text(text + (f"settings:\n{settings}" if settings else ""),
                                        "utf-8")


def codes(folder: Path) -> list[tuple[str, int, int, str]]:
    return [(Path(p.file).name, p.line, p.col, p.code) for p in validate([folder]).problems]


def test_the_merge_order_is_each_parent_in_turn_with_shared_ancestors_once() -> None:
    parents = {"standard": [], "a": ["standard"], "b": ["standard"], "c": ["a", "b"]}
    assert linearize("c", parents.get) == ["standard", "a", "b", "c"]


def test_a_later_parent_wins_and_the_variant_itself_wins_over_both(tmp_path: Path) -> None:
    variant(tmp_path, "short", "standard", "  final_round:\n    shelf_cards: {2: 12}\n"
            "  setup:\n    hand_size: 6\n")
    variant(tmp_path, "both", "[longer, short]",
            "  final_round:\n    shelf_cards: {2: 14}\n")
    assert codes(tmp_path) == []
    from exlibris.catalog import read_catalog
    from exlibris.validation import resolve_settings

    variants = {**shipped_catalog().variants, **read_catalog([tmp_path])[0].variants}
    assert [v.id for v in variant_chain("both", variants)] == [
        "standard", "longer", "short", "both"]
    settings = resolve_settings("both", variants)
    assert settings.final_round.shelf_cards[2] == 14  # the variant's own
    assert settings.final_round.shelf_cards[3] == 17  # only 'longer' sets it
    assert settings.setup.hand_size == 6  # only 'short' sets it


def test_two_parents_that_disagree_are_reported_at_the_later(tmp_path: Path) -> None:
    variant(tmp_path, "short", "standard", "  final_round:\n    shelf_cards: {2: 12}\n")
    variant(tmp_path, "both", "[longer, short]")
    problems = validate([tmp_path]).problems
    assert [(p.line, p.col, p.code) for p in problems] == [(4, 19, "rules/parents-conflict")]
    assert "'final_round.shelf_cards.2'" in problems[0].message
    assert "say which you mean" in problems[0].message


def test_a_cycle_of_two_names_both_and_does_not_say_extends_itself(tmp_path: Path) -> None:
    variant(tmp_path, "ping", "pong")
    variant(tmp_path, "pong", "ping")
    problems = validate([tmp_path]).problems
    assert {(Path(p.file).name, p.code) for p in problems} == {
        ("ping.yaml", "rules/variant-cycle"), ("pong.yaml", "rules/variant-cycle")}
    assert all("ping -> pong" in p.message or "pong -> ping" in p.message for p in problems)
    assert not any("itself" in p.message for p in problems)
    try:
        linearize("x", {"x": ["x"]}.get)
    except ChainError as exc:
        assert "extends itself" in str(exc)


def test_an_unknown_parent_is_not_advised_to_be_the_files_own_id(tmp_path: Path) -> None:
    variant(tmp_path, "standrd-plus", "standrd-plu")
    (problem,) = validate([tmp_path]).problems
    assert problem.code == "rules/unknown-variant"
    assert "did you mean 'standrd-plus'" not in problem.message


def test_bots_play_a_variant_that_extends_two(tmp_path: Path) -> None:
    variant(tmp_path, "both", "[longer, job-faire]",
            "  final_round:\n    shelf_cards: {2: 19, 3: 17, 4: 15, 5: 13}\n")
    result = CliRunner().invoke(cli, ["simulate", "--content", str(tmp_path), "--variant",
                                      "both", "-n", "2", "--seats", "random",
                                      "--workers", "1", "--out", str(tmp_path / "out.csv")])
    assert result.exit_code == 0, result.output
    assert "both, 2 players, 2 games" in result.output


def test_the_shipped_beginner_friendlier_game_takes_both_parents() -> None:
    from exlibris.validation import resolve_settings

    variants = shipped_catalog().variants
    settings = resolve_settings("beginner-friendlier", variants)
    assert settings.setup.standard_assistants == 3  # beginner
    assert "igloo-of-information" in settings.setup.remove_libraries  # friendlier
    assert {"tax-collector", "yard-sale"} <= set(settings.setup.remove_locations)  # both


def test_a_very_long_chain_is_followed_without_recursion() -> None:
    chain = {f"v{i}": [f"v{i + 1}"] for i in range(5000)}
    chain["v5000"] = []
    order = linearize("v0", chain.get)
    assert order[0] == "v5000" and order[-1] == "v0" and len(order) == 5001
