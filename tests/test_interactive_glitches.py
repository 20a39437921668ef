"""Issue 27's glitches and wording, each at the function that draws or tells it."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from exlibris.catalog import load_catalog
from exlibris.engine.decisions import Decision, DecisionKind
from exlibris.interactive.frame import Painter, board_line, shelf_lines
from exlibris.interactive.narrate import Narrator
from exlibris.interactive.record import SaveRecord
from exlibris.interactive.screen import Screen, prompt_line
from exlibris.interactive.session import Session
from exlibris.interactive.shelf_grid import category_styles
from exlibris.scoring.inspection import inspect_table
from exlibris.scoring.report import outcome_lines
from exlibris.scoring.table import parse_table_text

STYLES = category_styles(load_catalog().categories)


def shelf_of(rows: str):  # type: ignore[no-untyped-def]
    table, _ = parse_table_text("prominent: R\nbanned: M\nplayers:\n  - name: A\n"
                                "    focus: H\n    shelf: |\n"
                                + "".join(f"      {row}\n" for row in rows.splitlines())
                                + "  - name: B\n    focus: H\n    shelf: Z1:HH\n")
    return table.players[0].shelf


def drawn(shelf, width: int = 80) -> list[str]:  # type: ignore[no-untyped-def]
    screen = SimpleNamespace(styles=STYLES)
    text = shelf_lines(shelf, screen, {}, "Shelf", width)  # type: ignore[arg-type]
    return Painter(None, no_color=True).lines(text, width)


def test_the_one_line_shelf_of_seven_columns_fits_80_columns_aligned() -> None:
    shelf = shelf_of("A1/9:CCFM  B3/9:FMRS  C4/10:RHHS  D1/8:FFSS  E2/5:CFHS  F5/6:MMRS  "
                     "G6/7:CCHR\nA2/9:CCFM  B4/9:FMRS  C5/10:RHHS  D2/8:FFSS  E3/5:CFHS  "
                     "F6/6:MMRS  G7/7:CCHR")
    lines = drawn(shelf)
    assert all(len(line) <= 80 for line in lines), lines
    rows = [line for line in lines if line.startswith("row")]
    assert len(rows) == 4  # two blocks of columns, two rows each
    assert rows[0].index("B3/9:") == rows[1].index("B4/9:")  # aligned
    assert "columns 0 to" in "\n".join(lines) and "column 6:" in "\n".join(lines)


def test_the_one_line_shelf_shows_entombed_tucked_and_one_tilde() -> None:
    shelf = shelf_of("K2:CC+M3:FFS  ~A1:HH  *mystical-crystal-see-all-ball[2]")
    text = "\n".join(drawn(shelf))
    assert "K2:CC+M3" in text
    assert "~A1:HH" in text and "~~" not in text
    assert "*Ball[2]" in text


@pytest.fixture(scope="module")
def you_game() -> Any:
    """A finished game whose first player is named You."""
    record = SaveRecord(seed=1, seats=["greedy", "greedy"], names=["You", "Greta"]).stamp()
    session = Session(record, load_catalog(), log_events=False)
    session.run()
    return session.game


def test_a_player_named_you_is_told_as_you_in_a_replay(you_game: Any) -> None:
    replay = Narrator(you_game, None)  # a replay tells everything to an onlooker
    dealt = {"event": "deal-hand", "seat": 0, "cards": ["A1"]}
    assert replay.lines([dealt])[0].startswith("You were dealt ")
    assert replay.lines([dealt | {"seat": 1}])[0].startswith("Greta was dealt ")
    into = {"event": "discard", "card": "A1", "to": "hand:0"}
    assert replay.lines([into])[0].endswith("went into your hand.")
    assert replay.whose(1) == "Greta's"


def test_a_lost_solo_game_says_your_total_not_yous() -> None:
    table, rules = parse_table_text(
        "variant: solo\nprominent: R\nbanned: M\ndifficulty: 1\nplayers:\n"
        "  - name: You\n    focus: H\n    shelf: Z1:HH\n"
        "public-library:\n  focus: R\n  cards: [A1:RRRR, A2:RRRR, A3:RRRR]\n")
    inspection = inspect_table(table, rules)
    assert not inspection.win
    assert "against your " in outcome_lines(inspection)[0]
    assert "You's" not in outcome_lines(inspection)[0]


def test_a_capitalised_prompt_reads_on_after_the_name(you_game: Any) -> None:
    decision = Decision(0, DecisionKind.ELIMINATE, "Which location do you eliminate?", [1, 2])
    assert prompt_line(you_game, decision).plain == "You, which location do you eliminate?"


def test_the_form_of_a_game_without_artifacts_has_no_artifacts_row() -> None:
    from click.testing import CliRunner

    from exlibris.cli.main import cli

    plain = CliRunner().invoke(cli, ["play", "--seats", "greedy,greedy", "--seed", "3"])
    assert plain.exit_code == 0 and "B5 library focus" in plain.stdout
    assert "B6 artifacts" not in plain.stdout and "B6 volunteers" not in plain.stdout
    with_them = CliRunner().invoke(cli, ["play", "--seats", "greedy,greedy", "--seed", "3",
                                         "--variant", "artifactorium"])
    assert "B6 artifacts" in with_them.stdout


def test_a_library_dealt_alone_is_not_told_as_chosen(you_game: Any) -> None:
    record = SaveRecord(seed=2, seats=["greedy", "greedy"], names=["You", "Greta"],
                        variant="job-faire").stamp()
    session = Session(record, load_catalog(), log_events=False)
    session.run()
    names = {lib.id: lib.name for lib in load_catalog().libraries.values()}
    event = {"event": "library", "seat": 1, "library": "junkyard-of-enlightenment"}
    mine = names[session.game.state.players[1].library]
    assert Narrator(session.game, 1).lines([event]) == [f"Your library: {mine}."]
    assert Narrator(session.game, 0).lines([event]) == [f"Greta's library: {mine}."]
    drafted = names[you_game.state.players[1].library]
    assert Narrator(you_game, 0).lines([event]) == [f"Greta chose {drafted}."]


def test_the_header_says_who_goes_first_next_round_after_the_diviners_hut() -> None:
    game = you_game_fresh()
    screen = Screen(game, 0, STYLES, {})
    game.state.first_player, game.state.next_first_player = 0, None
    assert "next round" not in board_line(screen).plain
    game.state.next_first_player = 1  # as the Diviner's Hut leaves it until the cleanup
    assert "first: You (next round: Greta)" in board_line(screen).plain
    assert "first player: You (next round: Greta)" in screen.board().plain


def you_game_fresh() -> Any:
    record = SaveRecord(seed=1, seats=["greedy", "greedy"], names=["You", "Greta"]).stamp()
    session = Session(record, load_catalog(), log_events=False)
    session.run()
    return session.game


def test_a_finished_game_stays_replayable_after_the_next_game(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from exlibris.cli.main import cli

    env = {"XDG_STATE_HOME": str(tmp_path)}
    folder = tmp_path / "exlibris"
    outputs = []
    for _ in range(2):
        result = CliRunner().invoke(cli, ["play", "--seats", "human,greedy", "--seed", "5"],
                                    input="1\n" * 800, env=env)
        assert result.exit_code == 0, result.output
        outputs.append(result.output)
    first, second = folder / "finished" / "seed-5.json", folder / "finished" / "seed-5-2.json"
    assert f"Watch it again with: exlibris replay {first}" in outputs[0]
    assert f"Watch it again with: exlibris replay {second}" in outputs[1]
    assert first.read_text() == second.read_text()  # the same seed, answers and game
    replay = CliRunner().invoke(cli, ["replay", "--all", str(first)], env=env)
    assert replay.exit_code == 0 and "Winner" in replay.output


def test_an_artifact_in_a_shelf_cell_is_its_short_name_and_fits_the_cell() -> None:
    from exlibris.interactive.shelf_grid import CELL_WIDTH, shelf_grid

    shelf = shelf_of("A1/9:CCFM  *bjuildnir-automagical-hammer")
    lines = Painter(None, no_color=True).lines(shelf_grid(shelf, STYLES), 80)
    assert any("*Hammer" in line for line in lines) and "bjuildnir" not in "".join(lines)
    assert max(len(line) for line in lines) <= 4 + 2 * (CELL_WIDTH + 2)  # not 29 wide


def test_the_help_gives_the_library_tiles_letter_counts() -> None:
    from exlibris.interactive.context import player_help

    text = player_help(full_screen=True)
    line = next(line for line in text.splitlines() if "Letters in the deck" in line)
    counts = dict(part.split() for part in line.split(": ", 1)[1].rstrip(".").split(", "))
    deck = load_catalog().deck
    assert deck is not None
    assert sum(int(n) for n in counts.values()) == len(deck.cards)
    assert counts["A"] == str(sum(card.letter == "A" for card in deck.cards))
