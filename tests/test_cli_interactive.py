"""`exlibris play` with people at the keyboard (standard input here), and `replay`.

Every test names its save file in a temporary folder: nothing is written to the
real home.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from exlibris.cli.main import cli

ONES = "1\n" * 800  # more than enough answers for any of these games


def play(*args: str, lines: str = ONES) -> Result:
    return CliRunner().invoke(cli, ["play", *args], input=lines)


def human_game(tmp_path: Path, name: str, *extra: str, lines: str = ONES,
               seed: str = "5") -> Result:
    return play("--seats", "human,greedy", "--seed", seed, "--save", str(tmp_path / name),
                "--table-out", str(tmp_path / f"{name}.table"), *extra, lines=lines)


def saved(path: Path) -> dict:  # type: ignore[type-arg]
    return json.loads(path.read_text())


@pytest.mark.slow
def test_a_whole_game_fed_option_numbers(tmp_path: Path) -> None:
    result = human_game(tmp_path, "game.json")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "New game: seed 5" in out and "Autosave: " in out
    assert "You, choose your library" in out and "  1. choose " in out
    assert "Prominent: " in out and "Banned: " in out and "Locations" in out
    assert "Focus: " in out and "Hand (6): " in out and "What happened" in out
    assert "closed (3+ players)" in out  # a space closed at two players
    assert "seed 5; seats human, greedy" in out and "Winner" in out
    record = saved(tmp_path / "game.json")
    assert record["finished"] and record["seats"] == ["human", "greedy"]
    assert {d["seat"] for d in record["decisions"]} == {0, 1}
    scored = CliRunner().invoke(cli, ["score", str(tmp_path / "game.json.table"), "--json"])
    assert scored.exit_code == 0


@pytest.mark.slow
def test_end_of_input_saves_and_resume_ends_the_same(tmp_path: Path) -> None:
    straight = human_game(tmp_path, "straight.json", "--json")
    assert straight.exit_code == 0
    table = (tmp_path / "straight.json.table").read_text()
    for stop in (1, 9, 40):
        name = f"stop{stop}.json"
        first = human_game(tmp_path, name, lines="1\n" * stop)
        assert first.exit_code == 0, first.output
        assert f"Resume with: exlibris play --resume {tmp_path / name}" in first.output
        assert not saved(tmp_path / name)["finished"]
        resumed = play("--resume", str(tmp_path / name), "--json",
                       "--table-out", str(tmp_path / f"{name}.table"))
        assert resumed.exit_code == 0, resumed.output
        assert (tmp_path / f"{name}.table").read_text() == table
        assert json.loads(resumed.stdout) == json.loads(straight.stdout)
        assert saved(tmp_path / name)["decisions"] == saved(tmp_path / "straight.json")[
            "decisions"]


@pytest.mark.slow
def test_undo_takes_back_the_last_decision(tmp_path: Path) -> None:
    # the library; a placement in two steps (location, space), undone; another one
    undone = human_game(tmp_path, "undo.json", lines="u\n1\n1\n1\nu\n2\n1\n" + ONES)
    assert undone.exit_code == 0
    assert "Nothing to undo" in undone.output
    assert "Taking back: place " in undone.output
    assert human_game(tmp_path, "direct.json", lines="1\n2\n1\n" + ONES).exit_code == 0
    assert (tmp_path / "undo.json.table").read_text() == (
        tmp_path / "direct.json.table").read_text()


@pytest.mark.parametrize(("answers", "label"), [
    ("2\n2\n", "place standard assistant at Diviner's Hut (#1) space 1"),
    ("2\nb\n1\n2\n", "place The Wizard on home space 2"),
    ("your\nplace standard assistant on home space 3\n",
     "place standard assistant on home space 3"),
    ("place The Wizard on home space 2\n", "place The Wizard on home space 2"),
    ("PLACE standard assistant at diviner\n",
     "place standard assistant at Diviner's Hut (#1) space 1"),
])
def test_a_placement_is_asked_location_then_space_in_line_mode(
        tmp_path: Path, answers: str, label: str) -> None:
    """Eight options (once a flat list): the location or the home spaces, then the
    space; numbers, labels and b at any step; a full option label (or the start of
    exactly one) chooses at once."""
    result = human_game(tmp_path, "p.json", lines="1\n" + answers + "q\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "You, place an assistant — which location?" in out
    assert "  1. your library (home spaces) … (6 options)" in out
    assert "  2. Diviner's Hut (#1) … (2 options)" in out
    if answers.startswith("2"):
        assert "place an assistant › Diviner's Hut (#1) — which space?" in out
    placed = [d for d in saved(tmp_path / "p.json")["decisions"] if d["kind"] == "place"]
    assert placed[0]["seat"] == 0 and placed[0]["label"] == label


def test_a_location_with_one_space_still_asks_the_space(tmp_path: Path) -> None:
    """Every location opens the second step, one space or many: the same keys always."""
    # the Wizard to Diviner's Hut; at the second placement the Guild has one space left
    result = human_game(tmp_path, "p.json", lines="1\n2\n1\n2\nq\n")
    assert result.exit_code == 0
    second = result.output.split("place The Wizard at Diviner's Hut (#1) space 1\n")[-1]
    assert "  2. Shelfmasons Guild (#18) … (1 option)\n" in second
    assert "› Shelfmasons Guild (#18) — which space?\n" \
           "  1. place standard assistant at Shelfmasons Guild (#18) space 1\n" in second
    placed = [d for d in saved(tmp_path / "p.json")["decisions"]
              if d["kind"] == "place" and d["seat"] == 0]
    assert len(placed) == 1  # q at the second step: the second placement is not made


def test_labels_help_save_and_quit(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    result = human_game(tmp_path, "s.json", lines="choose the volcanic biblioteca\n?\n"
                        "nowhere\n99\ns\nq\n1\n", seed="43")  # seed 43 offers it, last to draft
    assert result.exit_code == 0
    out = result.output
    assert "You — The Volcanic Biblioteca" in out
    assert "Home action space" in out and "Diviner's Hut (#1): " in out  # ? texts
    assert "no option 'nowhere'" in out and "there is no option 99" in out
    assert f"Saved to {path}." in out and "Stopped. Game saved to" in out
    record = saved(path)
    assert record["decisions"][-1]["label"] == "choose The Volcanic Biblioteca"


def test_a_corrupt_or_mismatched_save_is_an_error_and_nothing_changes(tmp_path: Path) -> None:
    good = human_game(tmp_path, "good.json", lines="1\n" * 5)
    assert good.exit_code == 0
    data = saved(tmp_path / "good.json")
    cases = {
        "garbage.json": "{not json",
        "empty.json": "",
        "other-content.json": json.dumps({**data, "content": "0" * 64}),
        "tampered.json": json.dumps({**data, "decisions": [
            {**d, "label": "choose nothing"} if i == 1 else d
            for i, d in enumerate(data["decisions"])]}),
    }
    for name, text in cases.items():
        (tmp_path / name).write_text(text)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    for name in cases:
        result = play("--resume", str(tmp_path / name))
        assert result.exit_code == 2, (name, result.output)
        assert f"exlibris play: {tmp_path / name}: " in result.stderr
        assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
    assert "[save/corrupt]" in play("--resume", str(tmp_path / "garbage.json")).stderr
    assert "[save/mismatch]" in play("--resume", str(tmp_path / "tampered.json")).stderr
    missing = play("--resume", str(tmp_path / "missing.json"))
    assert missing.exit_code == 2 and "[save/unreadable]" in missing.stderr


def test_resume_refuses_other_set_up_options(tmp_path: Path) -> None:
    assert human_game(tmp_path, "s.json", lines="1\n").exit_code == 0
    result = play("--resume", str(tmp_path / "s.json"), "--seed", "6")
    assert result.exit_code == 2 and "--seed 6: the saved game was set up with 5" in result.stderr
    assert play("--resume", str(tmp_path / "s.json"), "--seed", "5",
                lines="q\n").exit_code == 0


def test_a_new_game_keeps_an_unfinished_one_and_never_clobbers_other_files(
        tmp_path: Path) -> None:
    assert human_game(tmp_path, "s.json", lines="1\n").exit_code == 0
    again = human_game(tmp_path, "s.json", lines="q\n")
    assert "was kept as" in again.stderr
    assert saved(tmp_path / "s.previous.json")["decisions"]
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes")
    clobber = play("--seats", "human,greedy", "--save", str(notes), lines="q\n")
    assert clobber.exit_code == 2 and notes.read_text() == "my notes"


def test_one_player_needs_solo_rules_and_a_known_difficulty() -> None:
    result = play("--players", "1", "--variant", "standard")
    assert result.exit_code == 2 and "not 1" in result.output
    result = play("--players", "1", "--difficulty", "heroic")
    assert result.exit_code == 2 and "unknown difficulty 'heroic'" in result.output
    result = play("--players", "2", "--difficulty", "3")
    assert result.exit_code == 2 and "only a solo game has a difficulty" in result.output
    assert play("--players", "6").exit_code == 2  # five players play (test_job_faire.py)
    result = play("--players", "3", "--seats", "human,greedy")
    assert result.exit_code == 2 and "--players 3" in result.output


def test_players_and_libraries(tmp_path: Path) -> None:
    result = play("--players", "3", "--libraries", "3", "--seed", "2", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["seats"] == ["greedy", "random", "random"]
    result = human_game(tmp_path, "s.json", "--libraries", "4", lines="q\n")
    assert result.output.count("  . choose ") == 0 and result.output.count(". choose ") == 4
    assert play("--players", "4", "--libraries", "4").exit_code == 2


def test_hot_seat_hands_off_between_people(tmp_path: Path) -> None:
    result = play("--seats", "human,human", "--names", "Ada,Bo", "--seed", "3", "--save",
                  str(tmp_path / "s.json"), lines="1\n" * 12)
    assert result.exit_code == 0
    assert "Pass the game to Bo" in result.output and "Pass the game to Ada" in result.output
    parts = re.split(r"— Pass the game to (\w+)\.", result.output)
    holders = parts[1::2]
    assert holders[:3] == ["Ada", "Bo", "Ada"] or holders[:3] == ["Bo", "Ada", "Bo"]
    for holder, chunk in zip(holders, parts[2::2], strict=True):
        for screen in chunk.split("\nEx Libris · ")[1:]:
            if screen.startswith("set-up"):  # nobody's hand before the libraries
                assert "Hand" not in screen and "Focus" not in screen
                continue
            # one hand and one focus on screen: the holder's; the other hand is a count
            assert screen.count("Focus: ") <= 1 and screen.count("Hand (") == 1
            lines = [line for line in screen.splitlines() if not line.startswith("Focus: ")]
            hand = next(i for i, line in enumerate(lines) if line.startswith("Hand ("))
            assert lines[hand - 1].startswith(holder)


def test_json_output_stays_clean_with_a_human(tmp_path: Path) -> None:
    result = human_game(tmp_path, "s.json", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["seats"] == ["human", "greedy"] and data["seed"] == 5
    assert "Locations" in result.stderr


@pytest.mark.slow
def test_replay_steps_through_a_recorded_game(tmp_path: Path) -> None:
    assert human_game(tmp_path, "done.json").exit_code == 0
    result = CliRunner().invoke(cli, ["replay", str(tmp_path / "done.json"), "--all"])
    assert result.exit_code == 0, result.output
    count = len(saved(tmp_path / "done.json")["decisions"])
    assert f"Decision 1 of {count}" in result.output and f"Decision {count} of" in result.output
    assert result.output.rstrip().splitlines()[-2].startswith("Winner")
    assert human_game(tmp_path, "part.json", lines="1\n" * 3).exit_code == 0
    partial = CliRunner().invoke(cli, ["replay", str(tmp_path / "part.json"), "--as", "1"])
    assert partial.exit_code == 0
    assert "The record ends here" in partial.output
    assert CliRunner().invoke(cli, ["replay", str(tmp_path / "nope.json")]).exit_code == 2


def test_bot_games_write_a_record_only_when_asked(tmp_path: Path) -> None:
    result = play("--seats", "greedy,random", "--seed", "4", "--save", str(tmp_path / "b.json"))
    assert result.exit_code == 0 and saved(tmp_path / "b.json")["finished"]
    assert list(tmp_path.iterdir()) == [tmp_path / "b.json"]


def test_help_names_the_autosave_place_and_the_replay_command() -> None:
    result = CliRunner().invoke(cli, ["play", "--help"])
    assert "autosave.json" in result.output and "--resume" in result.output
    assert "replay" in CliRunner().invoke(cli, ["--help"]).output
    result = CliRunner().invoke(cli, ["replay", "--help"])
    assert result.exit_code == 0 and "--all" in result.output


def test_the_readme_documents_playing() -> None:
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text("utf-8")
    playing = readme.split("## Playing", 1)[1].split("\n## ", 1)[0]
    for needed in ("exlibris play --resume", "exlibris replay", "autosave.json",
                   "XDG_STATE_HOME", "--save", "Resume with: exlibris play --resume"):
        assert needed in playing


def test_the_readme_screens_are_the_full_screen_as_it_draws_them() -> None:
    """The README's screens have the full screen's layout at 80×24 (exact text changes
    with the content: `python scripts/readme_screens.py` prints them again)."""
    import importlib.util

    root = Path(__file__).resolve().parent.parent
    spec = importlib.util.spec_from_file_location("readme_screens",
                                                  root / "scripts" / "readme_screens.py")
    assert spec is not None and spec.loader is not None
    screens = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(screens)
    readme = (root / "README.md").read_text("utf-8")
    assert "### How to read the screen" in readme and "A2/9:HMRR" in readme
    drawn = screens.frames(80, 24, 7, "\r" * 3)
    tabs = next(line for line in drawn[-1] if line.startswith("── [decision]"))
    hint = drawn[-1][-2]
    blocks = [b for b in readme.split("```\n")[1::2] if tabs in b]
    assert len(blocks) >= 2
    for block in blocks:
        lines = block.rstrip("\n").split("\n")
        assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
        assert lines[0].startswith("Round ") and "You — " in lines[1]
        assert any(line.startswith("You, ") for line in lines)
        assert any(line.startswith("›  1. ") for line in lines)
        assert lines[-2].endswith(hint.split(" · ", 1)[1]) and lines[-1] == ">"
