"""Tests written for rule-code mutants that every other test let live
(scripts/mutate_code.py; docs/rules-coverage.md, "Mutation testing")."""

from __future__ import annotations

from pathlib import Path

import pytest

from exlibris.agents import RandomAgent
from exlibris.catalog import load_catalog
from exlibris.engine.errors import RulesError
from exlibris.engine.flow import new_game
from exlibris.validation import resolve_settings

CATALOG = load_catalog()
ROOT = Path(__file__).resolve().parent.parent


def test_a_seat_named_a_special_assistant_card_takes_it_in_place_of_its_own() -> None:
    """`flow._give_assistant_cards`: the card named replaces the library's special
    assistant; an unknown card is refused (mutant flow.py:199 `is` for `is not`)."""
    settings = resolve_settings("job-faire", CATALOG.variants)
    agents = [RandomAgent(1), RandomAgent(2)]
    game = new_game(CATALOG, settings, agents, seed=3, variant="job-faire",
                    assistants=["snowman", None])
    specials = [a.spec.id for a in game.state.players[0].assistants if a.spec is not None]
    assert specials == ["snowman"]
    with pytest.raises(RulesError, match="no special assistant card 'no-such-card'"):
        new_game(CATALOG, settings, agents, seed=3, variant="job-faire",
                 assistants=["no-such-card", None])


def test_a_difficulty_of_true_or_false_is_no_level() -> None:
    """`ScoringRules.difficulty_level`: a YAML boolean is not a solo level, though
    Python counts it as a number (mutant settings.py:144, its `return None` dropped)."""
    from exlibris.scoring.settings import ScoringRules

    rules = ScoringRules.for_players(1, {})
    assert rules.difficulty_level(True) is None and rules.difficulty_level(False) is None
    assert rules.difficulty_level(1) == 1 and rules.difficulty_level("beginner") == 1


def test_a_table_token_error_reads_as_its_message_alone() -> None:
    """A table's problem quotes the token error's message, not its arguments
    (mutant scoring/table.py:55, the ``super().__init__`` dropped)."""
    from exlibris.errors import UserInputError
    from exlibris.scoring.table import TokenError, parse_table_text

    exc = TokenError("table/malformed-token", "'x': bad")
    assert str(exc) == "'x': bad" and exc.code == "table/malformed-token"
    text = ("variant: standard\nprominent: historic-volumes\nbanned: null\nplayers:\n"
            "  - name: Ann\n    focus: monster-manuals\n    hand: 0\n    shelf: |\n"
            "      ~~A1:CC\n")
    with pytest.raises(UserInputError) as raised:
        parse_table_text(text)
    [problem] = [p for p in raised.value.problems if p.code == "table/malformed-token"]
    assert problem.message.startswith("Ann's shelf: '~~A1:CC': '~' is written once")


SWAP_ONLY = """\
kind: scenario
name: rearrange_shelf(only "swap") offers swaps of two shelf cards only
setup:
  players:
    - {name: Ann, library: garden-of-education, hand: [C1], shelf: ["A1 B1"]}
    - {name: Bob, library: igloo-of-information}
  locations: [diviners-hut, librarians-lodge]
script:
  - Ann: place standard assistant at Librarians Lodge (#8) space 1
  - Ann: rework the shelf first
  - Ann: "yes"
expect:
  hands: {Ann: [C1]}
  shelves: {Ann: ["B1 A1"]}
  next_decision: {player: Bob}
"""


def test_rearranging_with_only_swap_offers_no_card_from_hand(tmp_path: Path) -> None:
    """An author's Lodge that allows swaps only: the one swap of the shelf is made
    without asking, and C1 in hand is never offered (mutant shelf_verbs.py:223)."""
    from click.testing import CliRunner

    from exlibris.cli.main import cli

    lodge = (ROOT / "content" / "locations" / "librarians-lodge.yaml").read_text("utf-8")
    swap_only = lodge.replace("may rearrange_shelf()", 'may rearrange_shelf(only: "swap")')
    assert swap_only != lodge
    (tmp_path / "librarians-lodge.yaml").write_text(swap_only, "utf-8")
    (tmp_path / "only-swap.yaml").write_text(SWAP_ONLY, "utf-8")
    result = CliRunner().invoke(cli, ["scenario", "run", str(tmp_path)])
    assert result.exit_code == 0, result.output


WHY_CELL = """\
kind: scenario
name: A cell that holds a card is refused, and why says so
setup:
  players:
    - {name: Ann, library: garden-of-education, hand: [A1, B2], shelf: [C1]}
    - {name: Bob, library: igloo-of-information, hand: [C2]}
  first_player: Ann
  deck: [D1, E2, F1]
  locations: [diviners-hut, wishing-well]
script:
  - Ann: place standard assistant at Wishing Well (#6) space 1
  - discard A1
  - done
  - shelve D1
  - shelve D1 at row 0, column 0
expect:
  hands: {Ann: [B2, E2]}
"""


def test_why_a_shelving_cell_is_refused_names_the_card_it_holds(tmp_path: Path) -> None:
    """At a shelving position, "why not" a cell reads the shelf's own refusal: the card
    already there (SHELF-05; mutant why.py, ``decision.kind is DecisionKind.POSITION``)."""
    from click.testing import CliRunner

    from exlibris.cli.main import cli

    (tmp_path / "why-cell.yaml").write_text(WHY_CELL, "utf-8")
    result = CliRunner().invoke(cli, ["scenario", "run", str(tmp_path / "why-cell.yaml")])
    assert result.exit_code == 1, result.output
    said = " ".join(result.output.split())
    assert "why not: row 0, column 0: a card only ever goes into an empty cell (SHELF-05)" \
        in said, said
    assert "the cell holds C1" in said
