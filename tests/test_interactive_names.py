"""Names, not ids: no content id in any text a player reads (prompts, options, the
log for every seat and for an onlooker, the end form) over seeded games of every
mode, and in ``exlibris replay`` of an expanded bot game; an author's own id is
named too. (``--json`` and the saves keep ids: they are documented as ids.)"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from seeded_games import goldens, mode_names, play_mode

from exlibris.catalog import load_catalog
from exlibris.interactive.context import asker
from exlibris.interactive.human import multi_select
from exlibris.interactive.names import id_names, readable
from exlibris.interactive.narrate import Narrator
from exlibris.interactive.screen import prompt_line
from exlibris.interactive.steps import player_labels
from exlibris.scoring.report import render_form
from exlibris.sources import use_content


def ids_in(text: str, ids: dict[str, str]) -> list[str]:
    """Each content id found in ``text`` as a whole word, with what is around it."""
    found = []
    for key in ids:
        for hit in re.finditer(rf"(?<![\w/.-]){re.escape(key)}(?![\w/-])", text):
            found.append(text[max(0, hit.start() - 50):hit.end() + 10])
    return found


def _shown(game: Any, decision: Any, index: int) -> str:
    """What the player reads of one decision: its prompt and every option."""
    records = game.log.records
    lines = [prompt_line(game, decision, asker(game, decision, records)).plain,
             *player_labels(game, decision)]
    multi = multi_select(decision, game)
    if multi is not None:
        lines += [multi.question, *(choice.label for choice in multi.choices)]
    return "\n".join(lines)


@pytest.mark.parametrize("mode", mode_names())
def test_no_content_id_in_what_a_player_reads(mode: str) -> None:
    played = play_mode(goldens().BY_NAME[mode], 3, watch=_shown)
    game = played.game
    texts = list(played.seen)
    for seat in [None, *range(len(game.state.players))]:
        texts += Narrator(game, seat).lines(played.log.records)
    texts.append(render_form(played.outcome.inspection, width=100))
    ids = id_names()
    found = [hit for text in texts for hit in ids_in(text, ids)]
    assert not found, found[:5]


def test_an_authors_own_id_is_named(tmp_path: Path) -> None:
    own = tmp_path / "relic.yaml"
    shipped = Path(__file__).resolve().parent.parent / "content" / "artifacts"
    text = (shipped / "foul-vowel-towel.yaml").read_text("utf-8")
    own.write_text(text.replace("id: foul-vowel-towel", "id: dusty-old-relic")
                   .replace("name: The Foul Vowel Towel", "name: The Dusty Old Relic"), "utf-8")
    use_content([own])
    try:
        catalog = load_catalog()
        assert id_names(catalog)["dusty-old-relic"] == "The Dusty Old Relic"
        assert readable("shelve dusty-old-relic at row 0, column 1; solo-dusty-old-relics") == (
            "shelve The Dusty Old Relic at row 0, column 1; solo-dusty-old-relics")
    finally:
        use_content(())



def test_a_text_made_readable_follows_the_catalog_in_use(tmp_path: Path) -> None:
    """Texts made readable are kept a catalog: an author's file that renames a shipped
    entry renames it in a text read before, and the shipped name comes back after."""
    own = tmp_path / "towel.yaml"
    shipped = Path(__file__).resolve().parent.parent / "content" / "artifacts"
    own.write_text((shipped / "foul-vowel-towel.yaml").read_text("utf-8")
                   .replace("name: The Foul Vowel Towel", "name: The Damp Towel"), "utf-8")
    text = "take foul-vowel-towel"
    assert readable(text) == "take The Foul Vowel Towel"
    use_content([own])
    try:
        assert readable(text) == "take The Damp Towel"
    finally:
        use_content(())
    assert readable(text) == "take The Foul Vowel Towel"

@pytest.mark.slow
def test_a_replay_of_an_expanded_bot_game_names_every_artifact(tmp_path: Path) -> None:
    from exlibris.cli.main import cli

    save = tmp_path / "game.json"
    runner = CliRunner()
    played = runner.invoke(cli, ["play", "--variant", "expanded", "--seats", "greedy,random",
                                  "--seed", "3", "--save", str(save)])
    assert played.exit_code == 0, played.output
    shown = runner.invoke(cli, ["replay", str(save), "--all"])
    assert shown.exit_code == 0, shown.output
    assert "Artifactorium" in shown.output
    found = ids_in(shown.output, id_names())
    assert not found, found[:5]
