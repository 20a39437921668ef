"""Issue 16: every defect class found by the fuzzing campaign, as a named regression.

Each hostile or damaged input gives one clear error (exit 2, no traceback,
nothing changed on disk), or for effects at run time an ``EffectError`` naming
the entry, with the game stopped cleanly and its save resuming to the same error.
"""

from __future__ import annotations

import json
import os
import stat
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from exlibris.agents import RandomAgent
from exlibris.catalog import load_catalog, read_catalog
from exlibris.cli.main import cli
from exlibris.dsl.checker import Catalog as IdCatalog
from exlibris.dsl.checker import check_program, program_names
from exlibris.dsl.compiler import compile_program
from exlibris.dsl.errors import DslError, EffectError
from exlibris.dsl.parser import parse_program
from exlibris.engine.flow import new_game
from exlibris.errors import UserInputError, caret_context
from exlibris.interactive import record as saves
from exlibris.limits import (
    MAX_EFFECT_INT,
    MAX_EFFECT_LIST,
    MAX_FILE_BYTES,
    MAX_NODES,
    MAX_QUOTED_CHARS,
)
from exlibris.scoring.table import parse_table_text
from exlibris.validation import resolve_settings
from exlibris.yamlsafe import load_yaml_text

ROOT = Path(__file__).resolve().parent.parent
CATALOG = load_catalog()
SETTINGS = resolve_settings("standard", CATALOG.variants)
IDS = IdCatalog(CATALOG.ids())


def invoke(*args: str, stdin: str = "") -> Any:
    return CliRunner().invoke(cli, list(args), input=stdin)


def assert_user_error(result: Any, *fragments: str) -> None:
    """Exit 2 with a message, never a traceback."""
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    assert "Traceback" not in result.output
    for fragment in fragments:
        assert fragment in result.output, result.output


# ---- 1. effects that validate, then crash or exhaust the engine -------------------------------


def run_hostile(source: str, *, activate: bool = False, checked: bool = True) -> Any:
    """Check ``source`` as a location effect (it must pass, unless not ``checked``),
    then run it in a game."""
    program = parse_program(source)
    if checked:
        assert check_program(program, program_names(location=True), IDS) == []
    handler = compile_program(program, "hostile-location")
    game = new_game(CATALOG, SETTINGS, [RandomAgent(1), RandomAgent(2)], seed=1)
    loc = game.state.in_play[0]
    loc.effect = handler
    if activate:
        return game.board.activate(0, loc, None)
    names = game.names(0, this=loc, location=loc, visitor=0)
    return handler(game.rt, game.player(0), names)


def test_a_number_past_the_limit_is_held_at_it() -> None:
    env = run_hostile("n = 2\nrepeat 64 times:\n  n = n * n\nm = 0 - n\n")
    assert env.vars["n"] == MAX_EFFECT_INT and env.vars["m"] == -MAX_EFFECT_INT


def test_an_attribute_of_nothing_is_nothing() -> None:
    """An @id that names nothing in play is nothing, and so is its attribute: the
    effect goes on (issue 36: what may be nothing is total)."""
    env = run_hostile("x = @ghost.foo\nrequire x == 1\ny = 2\n")
    assert env.vars["x"] is None and "y" not in env.vars


@pytest.mark.parametrize(("source", "says"), [
    ("require hand < 3\n", "'<' compares two numbers or two texts, not cards"),
    ('require "a" < 3\n', "not a number and a text"),
])
def test_order_comparisons_of_other_kinds_are_refused(source: str, says: str) -> None:
    errors = check_program(parse_program(source), program_names(location=True), IDS)
    assert [e.code for e in errors] == ["dsl/arg-kind"] and says in errors[0].message


@pytest.mark.parametrize(("name", "source", "says"), [
    ("list-doubling", "x = [1]\nrepeat 64 times:\n  x = x + x\n", f"{MAX_EFFECT_LIST}"),
    ("any-attribute", 'x = first([1, "a"])\nrequire x.letter == "A"\n', "'letter'"),
    ("adding-text", 'x = first(["a", 1])\ny = x + x\n', "'+' works on numbers, not text"),
])
def test_hostile_effect_stops_with_an_effect_error_naming_the_entry(
        name: str, source: str, says: str) -> None:
    with pytest.raises(EffectError) as info:  # the checker refuses a list of two kinds
        run_hostile(source, checked=False)
    assert info.value.entry == "hostile-location"
    assert says in str(info.value)


def test_joining_two_zones_works_as_the_checker_says() -> None:
    env = run_hostile("x = hand + hand\ny = count(x)\n")
    assert env.vars["y"] == 2 * len(env.me.hand.cards)


def test_activate_here_ends_at_the_activation_depth() -> None:
    """A location activating itself: each nested activation runs, up to the limit;
    the one past it does nothing, and the game goes on."""
    from exlibris.limits import MAX_ACTIVATE_DEPTH

    game = new_game(CATALOG, SETTINGS, [RandomAgent(1), RandomAgent(2)], seed=1)
    loc = game.state.in_play[0]
    loc.effect = compile_program(parse_program("draw(1)\nactivate(here)\n"), "hostile")
    before = len(game.player(0).hand.cards)
    game.board.activate(0, loc, None)
    assert len(game.player(0).hand.cards) == before + MAX_ACTIVATE_DEPTH


def test_as_nothing_skips_its_block() -> None:
    env = run_hostile("n = 1\nas first(opponents where false):\n  n = 2\nm = n\n")
    assert env.vars["m"] == 1


def test_a_bot_game_with_a_hostile_location_stops_cleanly_and_resumes_to_the_same_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    content = tmp_path / "content"
    for root in ("content", "rules"):
        for path in (ROOT / root).rglob("*.yaml"):
            target = tmp_path / root / path.relative_to(ROOT / root)
            target.parent.mkdir(parents=True, exist_ok=True)
            text = path.read_text("utf-8")
            if path.parent.name == "locations":
                text = text.replace("effect: |\n", "effect: |\n  x = [1]\n  repeat 64 times:\n"
                                    "    x = x + x\n", 1)
            target.write_text(text, "utf-8")
    catalog, problems = read_catalog([content, tmp_path / "rules"])
    assert problems == []
    monkeypatch.setattr("exlibris.catalog.load_catalog", lambda: catalog)
    save = tmp_path / "game.json"
    first = invoke("play", "--seats", "greedy,random", "--seed", "3", "--save", str(save))
    assert_user_error(first, "the game stopped", "[engine/effect]")
    assert saves.load(save).decisions
    again = invoke("play", "--resume", str(save))
    assert_user_error(again, "the game stopped")
    assert first.output.split("[")[0] == again.output.split("[")[0]


# ---- 2. table files: tucked and hand counts ----------------------------------------------------

TABLE = """prominent: C
banned: M
players:
  - name: A
    focus: F
    hand: {hand}
    shelf: "{cell}  A1:CC"
  - name: B
    focus: F
    hand: 1
    shelf: "A2:CC"
"""


def table_codes(hand: str = "0", cell: str = "B1:CC") -> list[str]:
    with pytest.raises(UserInputError) as info:
        parse_table_text(TABLE.format(hand=hand, cell=cell), "t.yaml")
    return [p.code for p in info.value.problems]


def test_a_huge_tucked_count_is_refused_without_building_it() -> None:
    start = time.perf_counter()
    assert table_codes(cell="*mystical-crystal-see-all-ball[100000000]") == [
        "table/too-many-tucked"]
    assert time.perf_counter() - start < 1


def test_only_an_artifact_that_tucks_takes_a_tucked_count() -> None:
    assert table_codes(cell="*foul-vowel-towel[1]") == ["table/not-tucking"]
    parse_table_text(TABLE.format(hand=0, cell="*mystical-crystal-see-all-ball[3]"), "t.yaml")


def test_hand_counts_are_bounded() -> None:
    assert table_codes(hand="10000") == ["table/bad-hand"]
    assert table_codes(hand="1" + "0" * 30) == ["yaml/number-too-large"]


# ---- 3. device files and folders ---------------------------------------------------------------


def test_score_and_resume_refuse_a_device() -> None:
    assert_user_error(invoke("score", "/dev/zero"), "file/not-regular")
    assert_user_error(invoke("play", "--resume", "/dev/zero"), "not a regular file")
    assert_user_error(invoke("replay", "--all", "/dev/zero"), "not a regular file")


def test_a_symlink_out_of_a_content_folder_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "zero.yaml").symlink_to("/dev/zero")
    outside = tmp_path / "secret.yaml"
    outside.write_text("kind: location\npassword: hunter2\n")
    (folder / "secret.yaml").symlink_to(outside)
    result = invoke("validate", str(folder))
    assert_user_error(result, "file/outside-link")
    assert "hunter2" not in result.output


# ---- 4. saves -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def save_text(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A short unfinished save: a human seat that stops after two answers."""
    path = tmp_path_factory.mktemp("save") / "s.json"
    result = invoke("play", "--seats", "human,greedy", "--seed", "5", "--save", str(path),
                    stdin="1\n1\nq\n")
    assert result.exit_code == 0, result.output
    return path.read_text("utf-8")


def write_save(tmp_path: Path, change: Any) -> Path:
    path = tmp_path / "bad.json"
    if isinstance(change, bytes):
        path.write_bytes(change)
    else:
        path.write_text(change if isinstance(change, str) else json.dumps(change))
    return path


def edited(save_text: str, **fields: Any) -> dict[str, Any]:
    data = json.loads(save_text)
    data.update(fields)
    return data


def entry(**fields: Any) -> dict[str, Any]:
    return {"seat": 0, "kind": "library", "index": 0, "label": "x", **fields}


@pytest.mark.parametrize(("name", "make"), [
    ("non-utf8-byte", lambda t: t.encode().replace(b'"seed"', b'"s\xffeed"')),
    ("deep-json", lambda t: "[" * 100_000 + "]" * 100_000),
    ("seed-null", lambda t: edited(t, seed=None)),
    ("unknown-variant", lambda t: edited(t, variant="no-such-rules")),
    ("libraries-zero", lambda t: edited(t, libraries=0)),
    ("unknown-library-ids", lambda t: edited(t, library=["nowhere", None])),
    ("three-libraries-for-two-seats", lambda t: edited(t, library=[None, None, None])),
    ("huge-seed", lambda t: t.replace('"seed": 5', '"seed": ' + "9" * 5000)),
    ("huge-index", lambda t: t.replace('"index": 0', '"index": ' + "9" * 5000, 1)),
    ("decisions-a-mapping", lambda t: edited(t, decisions={})),
    ("index-as-text", lambda t: edited(t, decisions=[entry(index="3")])),
    ("index-as-fraction", lambda t: edited(t, decisions=[entry(index=3.5)])),
    ("five-seats-for-standard-rules", lambda t: edited(t, seats=["greedy"] * 5, names=["a"] * 5)),
    ("six-seats", lambda t: edited(t, seats=["greedy"] * 6, names=["a"] * 6)),
    ("unknown-field", lambda t: edited(t, extra=1)),
])
def test_a_damaged_save_is_refused_before_anything_replays(
        tmp_path: Path, save_text: str, name: str, make: Any) -> None:
    path = write_save(tmp_path, make(save_text))
    before = path.read_bytes()
    for command in (["play", "--resume", str(path)], ["replay", "--all", str(path)]):
        assert_user_error(invoke(*command), "save/")
    assert path.read_bytes() == before


def test_a_five_player_save_replays_and_resumes(tmp_path: Path) -> None:
    """The save's seat limit is the engine's widest game (five players, EXP-5P); the
    rules file decides the rest."""
    path = tmp_path / "five.json"
    first = invoke("play", "--players", "5", "--seats", "human,random,random,random,random",
                   "--seed", "3", "--save", str(path), stdin="1\n1\n")
    assert first.exit_code == 0, first.output
    assert invoke("replay", "--all", str(path)).exit_code == 0
    assert invoke("play", "--resume", str(path)).exit_code == 0


def test_finished_true_on_an_unfinished_game_is_refused(tmp_path: Path, save_text: str) -> None:
    path = write_save(tmp_path, edited(save_text, finished=True))
    assert_user_error(invoke("play", "--resume", str(path)), "finished")
    assert_user_error(invoke("replay", "--all", str(path)), "finished")


def test_replay_refuses_swapped_seats_as_resume_does(tmp_path: Path) -> None:
    save = tmp_path / "bots.json"
    invoke("play", "--seats", "greedy,random", "--seed", "2", "--save", str(save))
    data = json.loads(save.read_text())
    data["seats"] = data["seats"][::-1]
    path = write_save(tmp_path, data)
    assert_user_error(invoke("play", "--resume", str(path)), "save/mismatch")
    assert_user_error(invoke("replay", "--all", str(path)), "save/mismatch")


def test_escape_sequences_in_names_never_reach_the_terminal(tmp_path: Path,
                                                             save_text: str) -> None:
    path = write_save(tmp_path, edited(save_text, names=["\x1b]0;owned\x07Eve\x1b[2J", "Bot"]))
    result = invoke("replay", "--all", str(path))
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.output and "\x07" not in result.output
    assert "Eve" in result.output


# ---- 5. data loss -------------------------------------------------------------------------------


def human_game(tmp_path: Path, name: str = "s.json") -> Any:
    return invoke("play", "--seats", "human,greedy", "--seed", "4", "--save",
                  str(tmp_path / name), stdin="1\nq\n")


def test_a_previous_file_that_is_not_a_save_is_never_overwritten(tmp_path: Path) -> None:
    assert human_game(tmp_path).exit_code == 0
    notes = tmp_path / "s.previous.json"
    notes.write_text("my notes")
    result = human_game(tmp_path)
    assert result.exit_code == 0, result.output
    assert notes.read_text() == "my notes"
    assert saves.read_record(tmp_path / "s.previous-2.json").decisions


def test_three_new_games_keep_every_unfinished_one(tmp_path: Path) -> None:
    for _ in range(3):
        assert human_game(tmp_path).exit_code == 0
    kept = sorted(p.name for p in tmp_path.glob("s.previous*.json"))
    assert kept == ["s.previous-2.json", "s.previous.json"]
    for name in kept:
        assert not saves.read_record(tmp_path / name).finished


def test_no_room_left_refuses_and_changes_nothing(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(saves, "MAX_PREVIOUS_SAVES", 1)
    human_game(tmp_path)
    human_game(tmp_path)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert_user_error(human_game(tmp_path), "save/no-room")
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_temp_files_of_a_killed_write_are_removed(tmp_path: Path) -> None:
    stale = tmp_path / ".s.json.abc123.tmp"
    stale.write_text("{half a save")
    other = tmp_path / ".other.json.abc123.tmp"
    other.write_text("not ours")
    assert human_game(tmp_path).exit_code == 0
    assert not stale.exists() and other.exists()


def test_a_save_keeps_its_mode_and_a_symlink_is_never_written_through(tmp_path: Path
                                                                      ) -> None:
    """Issue 39: a save named through a link is refused (docs/limits.md), the link and
    the file it leads to left as they were; the file itself keeps its mode."""
    real = tmp_path / "real.json"
    assert human_game(tmp_path, "real.json").exit_code == 0
    real.chmod(0o644)
    before = real.read_bytes()
    link = tmp_path / "link.json"
    link.symlink_to(real)
    result = invoke("play", "--resume", str(link), stdin="1\nq\n")
    assert result.exit_code == 2 and "symbolic link" in result.output, result.output
    assert link.is_symlink() and real.read_bytes() == before
    result = invoke("play", "--resume", str(real), stdin="1\nq\n")
    assert result.exit_code == 0, result.output
    assert stat.S_IMODE(real.stat().st_mode) == 0o644
    assert len(saves.read_record(real).decisions) > 1


def test_the_folder_is_fsynced_after_the_rename(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[bool] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append(stat.S_ISDIR(os.fstat(fd).st_mode))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    from exlibris.safefile import write_atomic

    write_atomic(tmp_path / "x.json", "{}")
    assert synced == [False, True]


# ---- 6. scenario content paths ------------------------------------------------------------------

SCENARIO = """kind: scenario
name: confined
content: [{path}]
setup:
  players:
    - name: A
    - name: B
"""


@pytest.mark.parametrize("path", ["/etc", "../..", "/", "'../secret.yaml'"])
def test_scenario_content_stays_inside_its_folder(tmp_path: Path, path: str) -> None:
    (tmp_path / "secret.yaml").write_text("kind: location\ntoken: hunter2\n")
    folder = tmp_path / "scenarios"
    folder.mkdir()
    scenario = folder / "s.yaml"
    scenario.write_text(SCENARIO.format(path=path))
    result = invoke("scenario", "run", str(scenario))
    assert result.exit_code == 2
    assert "scenario/content-outside" in result.output
    assert "hunter2" not in result.output


# ---- 7. parsers ---------------------------------------------------------------------------------


def yaml_codes(text: str) -> list[str]:
    with pytest.raises(UserInputError) as info:
        load_yaml_text(text, "t.yaml")
    return [p.code for p in info.value.problems]


def test_integers_of_thousands_of_digits_are_refused_everywhere() -> None:
    assert yaml_codes("n: " + "9" * 5000 + "\n") == ["yaml/number-too-large"]
    assert yaml_codes("n: 0x" + "f" * 5000 + "\n") == ["yaml/number-too-large"]
    with pytest.raises(DslError) as info:
        parse_program("x = " + "9" * 5000 + "\n")
    assert info.value.code == "dsl/number-too-large"
    for cell in ("A" + "1" * 5000 + ":CC", "*mystical-crystal-see-all-ball[" + "9" * 5000 + "]"):
        assert table_codes(cell=cell)[0] in ("table/malformed-token", "table/too-many-tucked")


def test_a_hex_without_digits_is_text() -> None:
    assert load_yaml_text("number: 0x_\n").data == {"number": "0x_"}


def test_a_list_as_kind_is_an_unknown_kind(tmp_path: Path) -> None:
    path = tmp_path / "k.yaml"
    path.write_text("kind: [location]\n")
    assert_user_error(invoke("validate", str(path)), "content/unknown-kind")


def test_an_inconsistent_dedent_is_a_syntax_error() -> None:
    with pytest.raises(DslError) as info:
        parse_program("if true:\n    x = 1\n  y = 2\n")
    assert (info.value.code, info.value.line) == ("dsl/syntax", 3)


def test_a_huge_line_is_quoted_around_the_caret_only() -> None:
    context = caret_context("x" * 800_000, 1, 400_000)
    assert len(context) < 3 * MAX_QUOTED_CHARS
    quoted, caret = context.splitlines()
    assert quoted[caret.index("^")] == "x"


def test_yaml_is_read_in_one_pass() -> None:
    import ruamel.yaml

    calls: list[str] = []
    original = ruamel.yaml.YAML.compose
    ruamel.yaml.YAML.compose = lambda *a, **k: calls.append("compose")  # type: ignore
    try:
        assert load_yaml_text("a: [1, 2]\n").data == {"a": [1, 2]}
    finally:
        ruamel.yaml.YAML.compose = original  # type: ignore
    assert calls == []


# ---- 8. time ------------------------------------------------------------------------------------


def test_best_flips_on_a_3_by_25_shelf_takes_under_two_seconds() -> None:
    import random

    from exlibris.scoring.flips import best_flips
    from exlibris.scoring.inspection import inspect_table

    rng = random.Random(1)
    cards = [f"{letter}{order}:{''.join(rng.choice('CFHMRS') for _ in range(2))}"
             for letter in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" for order in range(1, 9)]
    rng.shuffle(cards)
    rows = ["      " + "  ".join(cards.pop() for _ in range(25)) for _ in range(3)]
    text = ("prominent: C\nbanned: M\nplayers:\n  - name: A\n    focus: F\n    hand: 0\n"
            "    shelf: |\n" + "\n".join(rows) + "\n  - name: B\n    focus: F\n    hand: 0\n"
            "    shelf: A1:CC\n")
    table, rules = parse_table_text(text, "t.yaml")
    inspection = inspect_table(table, rules)
    start = time.process_time()
    best = best_flips(inspection, 0)
    assert time.process_time() - start < 2
    assert best.total >= inspection.forms[0].total


def test_a_300_kb_yaml_file_is_refused_and_the_largest_allowed_loads_in_a_second() -> None:
    def items(n: int) -> str:
        return "items:\n" + "".join(f"  - [a{i}, b{i}, c{i}, d{i}]\n" for i in range(n))

    start = time.process_time()
    assert yaml_codes(items(9_700)) == ["yaml/too-large"]  # 300 KB, 48,500 values
    largest = items((MAX_NODES - 2) // 5)
    assert len(largest.encode()) <= MAX_FILE_BYTES
    assert len(load_yaml_text(largest).data["items"]) == (MAX_NODES - 2) // 5
    assert time.process_time() - start < 2


def test_a_save_cannot_make_exlibris_read_a_file_it_was_not_played_with(
        tmp_path: Path, save_text: str) -> None:
    secret = tmp_path / "secret.yaml"
    secret.write_text("kind: location\npassword: hunter2\n")
    path = write_save(tmp_path, edited(save_text, own_content=[
        {"path": str(secret), "sha256": "0" * 64}]))
    for command in (["play", "--resume", str(path)], ["replay", "--all", str(path)]):
        result = invoke(*command)
        assert_user_error(result, "save/mismatch")
        assert "hunter2" not in result.output
