"""An option that says what cards it is about (``option "..." about X``) names them on
screen with their books, while its label (logs, saves, scripts) stays as written; the
Witch's two options name the card gained and the turned-up card, and the turned-up
card is on screen under the hand."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from exlibris.catalog import load_catalog
from exlibris.cli.main import cli
from exlibris.interactive.screen import Screen
from exlibris.interactive.shelf_grid import card_name, category_styles
from exlibris.interactive.steps import player_labels
from exlibris.scenario import load_scenario, run_scenario
from exlibris.scenario.runner import Run

ROOT = Path(__file__).resolve().parent.parent
WITCH = (ROOT / "scenarios" / "assistant-cards"
         / "witch-keeps-one-and-shelves-the-other-face-down.yaml")
LAST_STEP = "  - Ann: keep the card gained\n"


def _witch(tmp_path: Path, last_step: str) -> Path:
    text = WITCH.read_text()
    assert LAST_STEP in text
    path = tmp_path / "witch.yaml"
    path.write_text(text.replace(LAST_STEP, last_step))
    return path


def _named(card: object) -> str:
    return f"{card_name(card)}:{''.join(card.books)}"  # type: ignore[attr-defined]


def test_the_witch_options_name_both_cards_and_the_turned_up_card_is_shown(
        tmp_path: Path) -> None:
    run = Run(load_scenario(_witch(tmp_path, "")))
    decision = run.execute().pending
    game = run.game
    assert decision is not None and game is not None
    ann = game.state.players[0]
    gained = next(c for c in ann.hand.cards if c.name == "A1")
    turned = next(c for zone in game.state.limbo for c in zone.cards)
    assert turned.name == "B4"
    # the engine's labels stay as written: goldens, saves and scripts read them
    assert decision.labels == ["keep the card gained", "keep the turned-up card"]
    assert player_labels(game, decision) == [
        f"keep the card gained ({_named(gained)})",
        f"keep the turned-up card ({_named(turned)})"]
    catalog = load_catalog()
    screen = Screen(game, 0, category_styles(catalog.categories), {})
    mine = "\n".join(str(line) for line in screen.turned_up())
    assert mine == f"Turned up: {_named(turned)}"


def test_a_step_may_name_the_witch_option_by_either_label(tmp_path: Path) -> None:
    run = Run(load_scenario(_witch(tmp_path, "")))
    decision = run.execute().pending
    assert decision is not None and run.game is not None
    screen_label = player_labels(run.game, decision)[0]
    assert screen_label.startswith("keep the card gained (A1/")
    for label in ("keep the card gained", screen_label):
        path = _witch(tmp_path, f"  - Ann: {label}\n")
        assert run_scenario(load_scenario(path)).passed, label


@pytest.mark.slow
def test_playing_the_swamp_the_witch_question_names_both_cards() -> None:
    # seed 1: the Witch soon draws a banned book and turns up the deck's top card
    result = CliRunner().invoke(cli, ["play", "--seats", "human,greedy", "--seed", "1",
                                      "--library", "swamp-of-scholarship"],
                                input="1\n" * 400)
    assert result.exit_code == 0, result.output
    out = result.output
    asked = re.search(r"Hand \(\d+\): (?P<hand>(?:.|\n)*?)\nTurned up: (?P<up>\S+)\n"
                      r"(?:.|\n)*?You, The Witch: choose one\n"
                      r"  1\. keep the card gained \((?P<gained>\S+)\)\n"
                      r"  2\. keep the turned-up card \((?P<turned>\S+)\)\n", out)
    assert asked is not None, out
    assert asked["gained"] in asked["hand"].split()  # the card gained is in hand
    assert asked["turned"] == asked["up"]  # the turned-up card, under the hand
    assert re.fullmatch(r"[A-Z]\d+/\d+:[A-Z]+", asked["turned"])
