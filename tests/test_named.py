"""Everything a player may see, named: cards in options with their books, artifacts by
name (a short form in shelf cells), the cards the Mystery Shack's visitor looked at;
and scenario steps find their options by the engine's labels or by the screen's."""

from __future__ import annotations

from pathlib import Path

from exlibris.interactive.narrate import Narrator
from exlibris.interactive.shelf_grid import artifact_name, artifact_short, card_name
from exlibris.interactive.steps import player_labels
from exlibris.model.cards import ArtifactCard
from exlibris.scenario import load_scenario, run_scenario
from exlibris.scenario.runner import Run

SCENARIO = """\
kind: scenario
name: Book Seller sells one card
setup:
  players:
    - {name: Ann, library: garden-of-education}
    - {name: Bob, library: igloo-of-information}
  locations:
    - diviners-hut
    - {id: book-seller, area: [A1, B1]}
script:
  - Ann: place standard assistant at Book Seller (#10) space 1
STEP
expect:
  hands: {Ann: [B1]}
  areas: {book-seller: [A1]}
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(text)
    return path


def test_a_pick_names_its_cards_with_their_books_and_a_step_may_use_either_label(
        tmp_path: Path) -> None:
    run = Run(load_scenario(_write(tmp_path, SCENARIO.replace("STEP\n", ""))))
    result = run.execute()
    decision = result.pending
    assert decision is not None and run.game is not None
    engine = decision.labels
    shown = player_labels(run.game, decision)
    b1 = next(c for c in decision.handles if getattr(c, "name", "") == "B1")
    books = "".join(b1.books)
    assert "take B1" in engine
    assert f"take {card_name(b1)}:{books} from Book Seller's area" in shown
    for label in ("take B1", f"take {card_name(b1)}:{books} from Book Seller's area"):
        text = SCENARIO.replace("STEP", f"  - {label}\n  - done")
        assert run_scenario(load_scenario(_write(tmp_path, text))).passed, label


def test_artifacts_are_named_and_shortened_for_cells() -> None:
    assert artifact_name("bjuildnir-automagical-hammer") == "Bjuildnir, Automagical Hammer"
    assert artifact_short("bjuildnir-automagical-hammer") == "Hammer"
    assert artifact_short("hungry-void-of-nothingness") == "Void"
    assert card_name(ArtifactCard("mystical-crystal-see-all-ball")) == "*Ball"
    from exlibris.catalog import load_catalog

    shorts = [artifact_short(a) for a in load_catalog().artifacts]
    assert len(set(shorts)) == len(shorts)  # each artifact its own short form
    assert all(len(s) <= 12 for s in shorts)


def test_the_cards_looked_at_are_told_to_the_looker_only(tmp_path: Path) -> None:
    run = Run(load_scenario(_write(tmp_path, SCENARIO.replace("STEP\n", ""))))
    run.execute()
    game = run.game
    record = {"event": "look", "n": 1, "seat": 0, "count": 2, "cards": ["A1", "B1"]}
    mine = Narrator(game, 0).lines([record])
    theirs = Narrator(game, 1).lines([record])
    assert mine and mine[0].startswith("You looked at 2 cards: A1:") and "B1:" in mine[0]
    assert theirs and theirs[0].endswith("looked at 2 cards.")


def test_an_artifact_acts_under_its_name(tmp_path: Path) -> None:
    run = Run(load_scenario(_write(tmp_path, SCENARIO.replace("STEP\n", ""))))
    run.execute()
    record = {"event": "ability", "n": 1, "seat": 0, "ability": "",
              "source": "bjuildnir-automagical-hammer", "index": 0}
    game = run.game
    game.artifact_specs.setdefault("bjuildnir-automagical-hammer", __import__(
        "exlibris.catalog", fromlist=["load_catalog"]).load_catalog().artifacts[
        "bjuildnir-automagical-hammer"])
    told = Narrator(game, 0)._ability(record)
    assert told == "Your Bjuildnir, Automagical Hammer acts."


def test_a_card_handed_over_by_another_player_names_the_giver(tmp_path: Path) -> None:
    run = Run(load_scenario(_write(tmp_path, SCENARIO.replace("STEP\n", ""))))
    run.execute()
    game = run.game
    record = {"event": "gain", "n": 1, "seat": 0, "card": "A1", "source": "area:book-seller",
              "hidden": False, "by": 1}
    told = Narrator(game, 0).lines([record])
    assert (told and told[0].startswith("Bob gave A1:") and told[0].endswith(
        " from Book Seller (#10)'s area to you.")) or "to you." in told[0], told
    mine = {**record, "by": 0}
    del mine["by"]
    assert Narrator(game, 0).lines([mine])[0].startswith("You took A1:")


def test_a_gift_records_its_giver(tmp_path: Path) -> None:
    """``give`` to another player records who gave (issue 27: "You took Q1 from
    Community Centre's area" named the wrong person)."""
    from exlibris.engine.events import EventKind

    run = Run(load_scenario(_write(tmp_path, SCENARIO.replace("STEP\n", ""))))
    run.execute()
    game = run.game
    game.log.enabled = True
    area = next(loc for loc in game.state.in_play if loc.id == "book-seller").area
    card = area.cards[0]
    game.moves.give(card, 0, 1)
    record = [r for r in game.log.records if r["event"] == EventKind.GAIN][-1]
    assert record["by"] == 1 and record["seat"] == 0
    assert Narrator(game, 0).lines([record])[0].startswith("Bob gave ")
    game.moves.give(area.cards[0], 0)
    assert "by" not in game.log.records[-1]


def test_a_prompt_says_which_effect_asks(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from exlibris.cli.main import cli

    result = CliRunner().invoke(cli, ["play", "--seats", "human,greedy", "--seed", "3",
                                      "--variant", "expanded",
                                      "--save", str(tmp_path / "save.json")],
                                input="1\n" * 300 + "q\n")
    prompts = {line for line in result.output.splitlines() if line.startswith("You, ")}
    assert "You, The Necromonkey's Paw: take a home action?" in prompts
    # the game's own questions say no source
    assert "You, place an assistant — which location?" in prompts
    assert not any(p.startswith("You, home action:") for p in prompts)


def test_the_voluntary_flips_are_the_games_own_question(tmp_path: Path) -> None:
    """Before the inspection no location asks: "which card to flip?" is not put in the
    name of the last location that resolved."""
    from click.testing import CliRunner

    from exlibris.cli.main import cli

    result = CliRunner().invoke(cli, ["play", "--seats", "human,greedy", "--seed", "3",
                                      "--save", str(tmp_path / "save.json")],
                                input="choose cards to flip\n1\n" * 600 + "q\n")
    flips = [line for line in result.output.splitlines()
             if line.startswith("You, ") and "to flip?" in line]
    assert flips and all(line.split(" — ")[0].rstrip() == "You, which card to flip?"
                         for line in flips), flips


def test_a_special_assistant_given_at_set_up_is_told_by_name(tmp_path: Path) -> None:
    """`--assistant mummy`: the log says the seat took the Mummy in place of its
    library's special assistant, not "You: assistant card."."""
    from click.testing import CliRunner

    from exlibris.cli.main import cli

    result = CliRunner().invoke(cli, ["play", "--seats", "human,greedy", "--seed", "3",
                                      "--assistant", "mummy",
                                      "--save", str(tmp_path / "save.json")],
                                input="1\n" * 5 + "q\n")
    assert "You took The Mummy in place of the library's special assistant." in result.output
    assert "assistant card." not in result.output
