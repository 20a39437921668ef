"""Issue 36, item 5: the smaller gaps an author hit, each closed and kept closed.

A git-ignored folder named on the command line is read; ``--log`` is written when a
game stops; unknown tiles and trigger events say what there is; an author's variant
named without its file says how to give it; pydantic's wording never reaches an
author; the JSON Schema points an editor at a misspelt setting; an invalid id is said
to be one before any advice on file names; the tutorial tells the file-name rule.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from exlibris.cli.main import cli
from exlibris.sources import use_content

ROOT = Path(__file__).resolve().parent.parent
HUT = "place standard assistant at Diviner's Hut (#1) space 1"
LOCATION = (ROOT / "content" / "locations" / "diviners-hut.yaml").read_text("utf-8")


@pytest.fixture(autouse=True)
def _no_own_content(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.delenv("EXLIBRIS_CONTENT", raising=False)
    use_content(())
    yield
    use_content(())


def invoke(*args: str, lines: str = "") -> Result:
    use_content(())
    return CliRunner().invoke(cli, list(args), input=lines)


def own_location(folder: Path, name: str = "reading-nook", number: int = 23,
                 effect: str = "draw(2)") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.yaml"
    path.write_text(f"kind: location\nid: {name}\nname: Reading Nook\nnumber: {number}\n"
                    f"timing: instant\nspaces: [1]\nsolo: false\ntext: Draw two.\n"
                    f"effect: |\n  {effect}\n", "utf-8")
    return path


# ---- a git-ignored folder named on the command line ----------------------------------------


@pytest.fixture
def work_tree(tmp_path: Path) -> Path:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text("mistakes/\nparked.yaml\n", "utf-8")
    return tmp_path


def test_a_named_folder_git_ignores_is_read(work_tree: Path) -> None:
    folder = work_tree / "mistakes" / "m01"
    own_location(folder, effect="drew(2)")  # a mistake: validate must find it
    result = invoke("validate", str(folder))
    assert result.exit_code == 2, result.output
    assert "reading-nook.yaml:10:3: unknown verb or function 'drew'" in result.output
    assert "0 files checked" not in result.output


def test_content_of_a_folder_git_ignores_joins_the_game(work_tree: Path) -> None:
    folder = work_tree / "mistakes" / "m01"
    own_location(folder)
    result = invoke("content", "list", "--content", str(folder), "--kind", "location")
    assert result.exit_code == 0, result.output
    assert "reading-nook" in result.output


def test_a_file_git_ignores_inside_a_named_folder_is_skipped_with_a_note(
        work_tree: Path) -> None:
    folder = work_tree / "kept"
    own_location(folder)
    (folder / "parked.yaml").write_text(LOCATION, "utf-8")  # ignored: never read
    result = invoke("validate", str(folder))
    assert result.exit_code == 0, result.output
    assert "1 file checked, no problems." in result.output
    assert "note: skipped 1 YAML file that git ignores" in result.output
    assert "parked.yaml" in result.output


# ---- --log when the game stops ------------------------------------------------------------------


def test_the_log_is_written_when_the_game_stops(tmp_path: Path) -> None:
    author = tmp_path / "author"
    author.mkdir()
    doubled = "effect: |\n  seen = [1]\n  repeat 64 times:\n    seen = seen + seen\n"
    (author / "diviners-hut.yaml").write_text(LOCATION.replace("effect: |\n", doubled, 1),
                                             "utf-8")
    log = tmp_path / "game.log"
    result = invoke("play", "--content", str(author), "--seats", "human,greedy", "--seed",
                    "5", "--log", str(log), lines=f"1\n{HUT}\n2\n")
    assert result.exit_code == 2, result.output
    assert "[engine/effect]" in result.output
    events = [json.loads(line) for line in log.read_text("utf-8").splitlines()]
    assert events[-1]["event"] == "activate" and events[-1]["location"] == "diviners-hut"


# ---- unknown tiles, events and variants ---------------------------------------------------------


def module(folder: Path, locations: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "night-market.yaml"
    path.write_text("kind: module\nid: night-market\nname: Night Market\ntext: x\n"
                    f"locations: [{locations}]\n", "utf-8")
    return path


def test_a_module_naming_an_unknown_tile_gets_a_did_you_mean_or_the_tiles(
        tmp_path: Path) -> None:
    path = module(tmp_path / "own", "diviners-hat, zzzqqq")
    result = invoke("validate", str(path.parent))
    assert result.exit_code == 2, result.output
    assert "night-market.yaml:5:13: unknown location 'diviners-hat' (did you mean " \
        "'diviners-hut'?) [content/unknown-id]" in result.output
    assert "unknown location 'zzzqqq'; the location ids are artifactorium-tile, " \
        "assistants-guild," in result.output


def test_an_unknown_event_with_no_close_match_lists_the_events(tmp_path: Path) -> None:
    from exlibris.dsl import vocabulary as vocab

    folder = tmp_path / "own"
    folder.mkdir()
    shipped = (ROOT / "content" / "assistants").glob("*.yaml")
    source = next(p for p in sorted(shipped) if "\n    when: " in p.read_text("utf-8"))
    text = re.sub(r"\n    when: [^\n]*", "\n    when: after zzzqqq", source.read_text("utf-8"),
                  count=1)
    (folder / source.name).write_text(text, "utf-8")
    result = invoke("validate", str(folder))
    assert result.exit_code == 2, result.output
    said = " ".join(result.output.split())
    assert "unknown trigger event 'zzzqqq'; the events are " in said
    listed = said.split("; the events are ", 1)[1].split(" [dsl/unknown-event]")[0]
    assert sorted(listed.split(", ")) == sorted(vocab.EVENTS)


def test_an_authors_variant_without_its_file_says_to_give_it() -> None:
    result = invoke("play", "--variant", "my-house-rules", "--seats", "greedy,greedy")
    assert result.exit_code == 2, result.output
    assert "unknown variant 'my-house-rules'" in result.output
    assert "A variant of your own needs its file: --content PATH" in result.output
    close = invoke("play", "--variant", "standrd", "--seats", "greedy,greedy")
    assert "(did you mean 'standard'?)" in close.output


# ---- pydantic's wording -------------------------------------------------------------------------

PYDANTIC = re.compile(r"Input should|instance of|VariantSettings|after validation|"
                      r"valid dictionary|String should|List should|Value error")


@pytest.mark.parametrize(("settings", "says"), [
    ("players: []", "setting 'players' should have at least 1 item, not 0"),
    ("scoring: {awards: 18}", "setting 'scoring.awards' should be a list"),
    ("rulings: {deck_runs_out: reshufle}",
     "setting 'rulings.deck_runs_out' should be 'no-reshuffle' or 'reshuffle'"),
    ("max_steps: 5", "setting 'max_steps' should be at least 100"),
    ("max_steps: lots", "setting 'max_steps' should be a whole number"),
])
def test_settings_mistakes_are_said_in_plain_words(tmp_path: Path, settings: str,
                                                   says: str) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text("kind: variant\nid: mine\nname: Mine\nextends: standard\ntext: x\n"
                    f"settings:\n  {settings}\n", "utf-8")
    result = invoke("validate", str(path))
    assert result.exit_code == 2, result.output
    assert says in result.output and "mine.yaml:7:" in result.output
    assert PYDANTIC.search(result.output) is None, result.output


def test_settings_that_are_not_a_mapping_say_so(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text("kind: variant\nid: mine\nname: Mine\nextends: standard\ntext: x\n"
                    "settings: 5\n", "utf-8")
    result = invoke("validate", str(path))
    assert result.exit_code == 2, result.output
    assert "mine.yaml:6:11: settings should be a mapping (key: value lines)" in result.output
    assert PYDANTIC.search(result.output) is None, result.output


def test_every_error_type_of_the_models_is_put_in_words() -> None:
    """Each pydantic error type an author's file can meet has words of our own."""
    from exlibris.schema_words import _WORDS, in_words

    for kind in ("string_type", "int_parsing", "bool_parsing", "list_type", "model_type",
                 "too_short", "too_long", "string_pattern_mismatch", "greater_than_equal",
                 "less_than_equal", "literal_error", "missing", "extra_forbidden"):
        assert kind in _WORDS
    said = in_words({"type": "model_type", "msg": "Input should be a valid dictionary or "
                     "instance of VariantSettings", "ctx": {"class_name": "VariantSettings"}})
    assert PYDANTIC.search(said) is None
    unknown = in_words({"type": "something_new", "msg": "Input should be a valid "
                        "dictionary or instance of Foo"})
    assert unknown == "should be a valid mapping"


# ---- the JSON Schema an editor reads ------------------------------------------------------------


def test_the_schema_points_an_editor_at_a_misspelt_setting() -> None:
    import jsonschema

    schema = json.loads((ROOT / "schemas" / "variant.json").read_text("utf-8"))
    doc = {"kind": "variant", "id": "v", "name": "V", "extends": "standard", "text": "x",
           "settings": {"final_round": {"shelf_cardz": {"2": 3}}, "setup": None,
                        "max_steps": None}}
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(doc))
    assert [(list(e.absolute_path), e.message) for e in errors] == [
        (["settings", "final_round"],
         "Additional properties are not allowed ('shelf_cardz' was unexpected)")]
    assert "not valid under any of the given schemas" not in json.dumps(
        [e.message for e in errors])


# ---- ids and file names -------------------------------------------------------------------------


def test_an_invalid_id_is_said_to_be_one_before_any_file_name_advice(tmp_path: Path) -> None:
    folder = tmp_path / "own"
    folder.mkdir()
    (folder / "diviners-hut.yaml").write_text(
        LOCATION.replace("id: diviners-hut", 'id: "Bad Id"'), "utf-8")
    result = invoke("validate", str(folder))
    assert result.exit_code == 2, result.output
    assert "'Bad Id' is not a valid id: an id is lowercase letters, digits and hyphens" \
        in result.output
    assert "rename" not in result.output and "Bad Id.yaml" not in result.output


def test_a_file_named_otherwise_than_its_id_is_told_both_ways_out(tmp_path: Path) -> None:
    path = own_location(tmp_path / "own")
    path.rename(path.with_name("nook.yaml"))
    result = invoke("validate", str(tmp_path / "own"))
    assert result.exit_code == 2, result.output
    assert "nook.yaml:2:5: the file name 'nook.yaml' does not match its id 'reading-nook' " \
        "(a file is named after the id it holds): rename the file to reading-nook.yaml, or " \
        "write 'id: nook' [content/file-name]" in result.output


def test_the_tutorial_tells_the_file_name_rule_where_the_first_file_is_written() -> None:
    text = (ROOT / "docs" / "authoring.md").read_text("utf-8")
    first_file = text.index("## 2. A new location")
    rule = text.index("content/file-name", first_file)
    assert rule < text.index("<!-- file: reading-nook.yaml -->")
