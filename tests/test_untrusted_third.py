"""Issue 26: the third hostile-user campaign, one named regression per defect class.

Output paths, files that are not saves, two programs on one save, counts without
a bound, effects whose expressions run unbounded, content that validates and then
crashes, odd files and folders, messages that leak internals and the smaller ones.
Every case ends in one clear error (exit 2, no traceback) or plays on, with
nothing the user had lost.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from exlibris.cli.main import cli
from exlibris.dsl.errors import EffectError
from exlibris.sources import use_content

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _shipped_content_only(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.delenv("EXLIBRIS_CONTENT", raising=False)
    use_content(())
    yield
    use_content(())


def invoke(*args: str, stdin: str = "", env: dict[str, str] | None = None) -> Any:
    return CliRunner().invoke(cli, list(args), input=stdin, env=env)


def assert_user_error(result: Any, *fragments: str) -> None:
    """Exit 2 with a message, never a traceback."""
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    assert "Traceback" not in result.output
    for fragment in fragments:
        assert fragment in result.output, result.output


# ---- 5. effects whose expressions run unbounded -----------------------------------------------


@pytest.mark.parametrize("source", [
    "n = sum(deck, sum(deck, sum(deck, sum(deck, 1))))\n",
    "n = count(deck where count(deck where count(deck where true) > 0) > 0)\n",
    "home_actions(999999999999, max_each: 999999999999)\n",
])
def test_every_evaluation_step_counts_against_max_steps(source: str) -> None:
    from tests.test_untrusted import run_hostile

    start = time.process_time()
    with pytest.raises(EffectError, match="steps"):
        run_hostile(source)
    assert time.process_time() - start < 2


def shelf_rows(seed: int, rows: int, width: int) -> list[str]:
    rng = random.Random(seed)
    cards = [f"{letter}{order}:{''.join(rng.choice('CFHMRS') for _ in range(2))}"
             for letter in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" for order in range(1, 9)]
    rng.shuffle(cards)
    return ["      " + "  ".join(cards.pop() for _ in range(width)) for _ in range(rows)]


def test_a_nested_sum_in_an_artifact_score_stops_at_the_step_budget(tmp_path: Path) -> None:
    shipped = ROOT / "content" / "artifacts" / "bejeweled-skull-of-turpitude.yaml"
    own = tmp_path / "own"
    own.mkdir()
    (own / shipped.name).write_text(shipped.read_text("utf-8").replace(
        "score: books(adjacent(this), @corrupted-codices)",
        "score: sum(shelf, sum(shelf, sum(shelf, sum(shelf, 1))))"), "utf-8")
    rows = shelf_rows(1, 3, 25)
    rows[0] = rows[0].replace(rows[0].split()[0], "*bejeweled-skull-of-turpitude", 1)
    table = tmp_path / "t.yaml"
    table.write_text("prominent: C\nbanned: M\nplayers:\n  - name: A\n    focus: F\n"
                     "    hand: 0\n    shelf: |\n" + "\n".join(rows) + "\n  - name: B\n"
                     "    focus: F\n    hand: 0\n    shelf: A1:CC\n", "utf-8")
    start = time.process_time()
    result = invoke("score", str(table), "--content", str(own))
    assert time.process_time() - start < 5
    assert_user_error(result, "steps")


# ---- 1. output paths ----------------------------------------------------------------------------


def bot_game(*args: str) -> Any:
    return invoke("play", "--seats", "greedy,random", "--seed", "3", *args)


def human_game(save: Path, *args: str, stdin: str = "1\nq\n",
               env: dict[str, str] | None = None) -> Any:
    return invoke("play", "--seats", "human,greedy", "--seed", "4", "--save", str(save),
                  *args, stdin=stdin, env=env)


@pytest.mark.parametrize("option", ["--table-out", "--log"])
def test_an_output_in_a_missing_folder_is_refused_before_the_game(tmp_path: Path,
                                                                   option: str) -> None:
    assert_user_error(bot_game(option, str(tmp_path / "no" / "out.txt")), "does not exist")
    assert not (tmp_path / "no").exists()


@pytest.mark.parametrize("option", ["--table-out", "--log"])
def test_an_output_to_a_full_device_is_one_error(option: str) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    assert_user_error(bot_game(option, "/dev/full"), "No space left on device")
    assert Path("/dev/full").is_char_device()


def test_outputs_are_written_whole(tmp_path: Path) -> None:
    log, table = tmp_path / "log.jsonl", tmp_path / "t.yaml"
    result = bot_game("--log", str(log), "--table-out", str(table))
    assert result.exit_code == 0, result.output
    assert log.read_text().count("\n") > 10 and "players:" in table.read_text()
    assert invoke("score", str(table)).exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["log.jsonl", "t.yaml"]


def test_a_save_on_a_full_disk_is_one_error_and_keeps_the_last_save(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno
    import os

    save = tmp_path / "s.json"
    assert human_game(save).exit_code == 0
    before = save.read_bytes()

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    result = invoke("play", "--resume", str(save), stdin="1\n1\nq\n")
    assert_user_error(result, "No space left on device", "save/unwritable")
    assert save.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.json"]  # no temporary file


@pytest.mark.parametrize("state", ["file", "missing-home"])
def test_an_autosave_folder_that_cannot_be_made_is_one_error(tmp_path: Path,
                                                             state: str) -> None:
    blocker = tmp_path / "state"
    blocker.write_text("a file, not a folder")
    env = ({"XDG_STATE_HOME": str(blocker)} if state == "file"
           else {"XDG_STATE_HOME": "", "HOME": str(tmp_path / "nonexistent")})
    result = invoke("play", "--seats", "human,greedy", "--seed", "4", stdin="1\nq\n",
                    env=env)
    assert_user_error(result, "save/unwritable", "XDG_STATE_HOME")
    assert not (tmp_path / "nonexistent").exists()
    assert blocker.read_text() == "a file, not a folder"


def test_a_save_in_a_missing_folder_is_refused_not_created(tmp_path: Path) -> None:
    result = human_game(tmp_path / "nonexistent" / "s.json")
    assert_user_error(result, "does not exist", "save/unwritable")
    assert not (tmp_path / "nonexistent").exists()


def test_a_5000_letter_save_name_is_one_error(tmp_path: Path) -> None:
    assert_user_error(human_game(tmp_path / ("s" * 5000)), "longer than")
    assert_user_error(bot_game("--log", str(tmp_path / ("l" * 5000))), "longer than")


# ---- 2. no file that is not a save is ever overwritten ---------------------------------------


def test_resume_with_save_to_a_file_that_is_not_a_save_is_refused(tmp_path: Path) -> None:
    save, notes = tmp_path / "u.json", tmp_path / "notes.txt"
    assert human_game(save).exit_code == 0
    notes.write_text("my notes")
    result = invoke("play", "--resume", str(save), "--save", str(notes), stdin="1\nq\n")
    assert_user_error(result, "not a saved game", "save/not-a-save")
    assert notes.read_text() == "my notes"


def test_save_in_game_to_a_file_that_is_not_a_save_leaves_it(tmp_path: Path) -> None:
    from exlibris.interactive import record as saves

    save, notes = tmp_path / "u.json", tmp_path / "notes2.txt"
    notes.write_text("my notes")
    result = human_game(save, stdin=f"s {notes}\n1\nq\n")
    assert result.exit_code == 0, result.output
    assert "Not saved" in result.output and "save/not-a-save" in result.output
    assert notes.read_text() == "my notes"
    assert saves.read_record(save).decisions


def test_resume_onto_another_unfinished_game_keeps_it_and_says_where(tmp_path: Path) -> None:
    from exlibris.interactive import record as saves

    mine, other = tmp_path / "u.json", tmp_path / "other.json"
    assert human_game(mine).exit_code == 0
    assert invoke("play", "--seats", "human,greedy", "--seed", "9", "--save", str(other),
                  stdin="1\nq\n").exit_code == 0
    other_before = other.read_bytes()
    result = invoke("play", "--resume", str(mine), "--save", str(other), stdin="1\nq\n")
    assert result.exit_code == 0, result.output
    assert "other.previous.json" in result.output
    assert (tmp_path / "other.previous.json").read_bytes() == other_before
    assert saves.read_record(other).seed == 4


def test_save_in_game_onto_another_unfinished_game_keeps_it(tmp_path: Path) -> None:
    other = tmp_path / "other.json"
    assert invoke("play", "--seats", "human,greedy", "--seed", "9", "--save", str(other),
                  stdin="1\nq\n").exit_code == 0
    before = other.read_bytes()
    result = human_game(tmp_path / "u.json", stdin=f"s {other}\ns {other}\n1\nq\n")
    assert result.exit_code == 0, result.output
    assert "kept as" in result.output and "other.previous.json" in result.output
    assert (tmp_path / "other.previous.json").read_bytes() == before
    assert not (tmp_path / "other.previous-2.json").exists()  # a copy of this game: replaced


# ---- 3. two programs on one save ------------------------------------------------------------


def test_a_save_in_use_by_another_game_is_refused_with_its_pid(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    save = tmp_path / "same.json"
    first = subprocess.Popen(
        [sys.executable, "-m", "exlibris", "play", "--seats", "human,greedy", "--seed", "4",
         "--save", str(save)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, env={**os.environ, "EXLIBRIS_CONTENT": ""})
    try:
        deadline = time.monotonic() + 60
        while not save.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert save.exists()
        result = human_game(save)
        assert_user_error(result, f"this save is in use by another game (pid {first.pid})")
        resumed = invoke("play", "--resume", str(save), stdin="1\nq\n")
        assert_user_error(resumed, "in use by another game")
        _, err = first.communicate(b"1\nq\n", timeout=60)
    finally:
        first.kill()
        first.wait()
    assert first.returncode == 0, err.decode()
    assert b"Traceback" not in err
    from exlibris.interactive import record as saves

    assert len(saves.read_record(save).decisions) > 1


def test_the_stale_lock_of_a_dead_game_is_taken_over(tmp_path: Path) -> None:
    import subprocess
    import sys

    from exlibris.interactive.save_lock import lock_path

    save = tmp_path / "s.json"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    lock_path(save).write_text(dead.stdout)
    result = human_game(save)
    assert result.exit_code == 0, result.output
    assert not lock_path(save).exists()  # released at the end


# ---- 4. counts without a bound: one seed range, a bounded difficulty ---------------------------


def test_the_largest_seed_that_plays_is_one_a_save_reads_back(tmp_path: Path) -> None:
    from exlibris.limits import MAX_SEED

    save = tmp_path / "s.json"
    result = invoke("play", "--seats", "human,greedy", "--seed", str(MAX_SEED), "--save",
                    str(save), stdin="1\nq\n")
    assert result.exit_code == 0, result.output
    resumed = invoke("play", "--resume", str(save), stdin="1\nq\n")
    assert resumed.exit_code == 0, resumed.output
    assert_user_error(invoke("play", "--seats", "greedy,random", "--seed", str(MAX_SEED + 1)),
                      "--seed")
    assert_user_error(invoke("simulate", "--games", "1", "--seed", str(MAX_SEED + 1)),
                      "--seed")


def variant_file(tmp_path: Path, settings: str) -> Path:
    path = tmp_path / "mine.yaml"
    path.write_text("kind: variant\nid: mine\nname: Mine\nextends: solo\ntext: a test\n"
                    f"settings:\n{settings}", "utf-8")
    return path


@pytest.mark.parametrize("settings", [
    "  scoring:\n    difficulty: {easy: 999999999999}\n",
    "  players: [0, 1, 6, 99, -1]\n",
])
def test_variant_counts_out_of_range_do_not_validate(tmp_path: Path, settings: str) -> None:
    path = variant_file(tmp_path, settings)
    assert_user_error(invoke("validate", str(path)), "mine.yaml:")
    assert_user_error(invoke("play", "--variant", str(path), "--seats", "greedy",
                             "--seed", "1", "--difficulty", "easy"))


# ---- 6. content overrides that validated, then crashed -----------------------------------------


def own_override(tmp_path: Path, name: str, edit: Any) -> Path:
    own = tmp_path / "own"
    own.mkdir(exist_ok=True)
    text = (ROOT / "content" / name).read_text("utf-8")
    (own / Path(name).name).write_text(edit(text), "utf-8")
    return own


def repeat_first_card(text: str) -> str:
    head, cards = text.split("cards:\n")
    return head + "cards:\n" + (cards.splitlines()[0] + "\n") * 152


def one_category(text: str) -> str:
    return "".join(line for line in text.splitlines(keepends=True)
                   if "corrupted" in line or not line.lstrip().startswith("- {"))


@pytest.mark.parametrize(("name", "edit", "says"), [
    ("books.yaml", repeat_first_card, "in the deck twice"),
    ("categories.yaml", one_category, "at least 6"),
])
def test_a_deck_or_categories_the_game_cannot_deal_do_not_validate(
        tmp_path: Path, name: str, edit: Any, says: str) -> None:
    own = own_override(tmp_path, name, edit)
    assert_user_error(invoke("validate", str(own)), says, f"{name}:")
    assert_user_error(invoke("play", "--content", str(own), "--seats", "greedy,random",
                             "--seed", "1"), says)


@pytest.mark.parametrize("expr", ['first(["a", 1])', "first([[1], 2])",
                                  'first(["99999999999999999999999", 1])'])
def test_a_score_of_a_list_of_two_kinds_is_refused(tmp_path: Path, expr: str) -> None:
    skull = "artifacts/bejeweled-skull-of-turpitude.yaml"
    own = own_override(tmp_path, skull, lambda text: text.replace(
        "score: books(adjacent(this), @corrupted-codices)", f"score: '{expr}'"))
    table = tmp_path / "t.yaml"
    table.write_text("prominent: C\nbanned: M\nplayers:\n  - name: A\n    focus: F\n"
                     "    hand: 0\n    shelf: A1:CC  *bejeweled-skull-of-turpitude\n"
                     "  - name: B\n    focus: F\n    hand: 0\n    shelf: B1:CC\n", "utf-8")
    assert_user_error(invoke("score", str(table), "--content", str(own)),
                      "a list holds one kind of value", "[dsl/arg-kind]")


# ---- 10. messages in the author's words, naming the entry and the line ------------------------


def run_effect(source: str, python_after: int | None) -> EffectError:
    from exlibris.agents import RandomAgent
    from exlibris.dsl.compiler import compile_program
    from exlibris.dsl.parser import parse_program
    from exlibris.engine.flow import new_game
    from tests.test_untrusted import CATALOG, SETTINGS

    program = parse_program(source)  # unchecked: a checked effect no longer fails so
    handler = compile_program(program, "odd-nook", python_after=python_after)
    game = new_game(CATALOG, SETTINGS, [RandomAgent(1), RandomAgent(2)], seed=1)
    loc = game.state.in_play[0]
    with pytest.raises(EffectError) as caught:
        handler(game.rt, game.player(0), game.names(0, this=loc, location=loc, visitor=0))
    return caught.value


@pytest.mark.parametrize("python_after", [None, 0])  # closures, and generated source
@pytest.mark.parametrize(("source", "line", "says"), [
    ('n = 1\nx = first([1, "a"])\nrequire x.letter == "A"\n', 3, "'letter'"),
])
def test_an_effect_that_fails_says_so_in_the_authors_words(
        source: str, line: int, says: str, python_after: int | None) -> None:
    error = run_effect(source, python_after)
    text = str(error)
    assert text.startswith(f"the effect of odd-nook, line {line}: "), text
    assert says in text
    for internal in ("Error", "NoneType", "object has no attribute", "shelf:", "/7:"):
        assert internal not in text, text


# ---- 7. files and folders ------------------------------------------------------------------------


def test_a_content_folder_of_the_whole_disk_is_one_error() -> None:
    result = invoke("content", "list", env={"EXLIBRIS_CONTENT": "/"})
    assert_user_error(result, "content/too-many-files")


def test_a_folder_that_changes_during_the_walk_is_passed_over(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch
                                                              ) -> None:
    import os

    (tmp_path / "gone").mkdir()
    real_scandir = os.scandir

    def vanishing(path: Any) -> Any:
        if str(path).endswith("gone"):
            raise FileNotFoundError(2, "No such file or directory")
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", vanishing)
    result = invoke("validate", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert "0 files checked" in result.output


def test_a_folder_nested_1100_deep_is_one_error(tmp_path: Path) -> None:
    import os

    fd = os.open(tmp_path, os.O_RDONLY)
    for _ in range(1100):  # one level at a time (os.makedirs recurses)
        os.mkdir("d", dir_fd=fd)
        inner = os.open("d", os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = inner
    os.close(os.open("x.yaml", os.O_WRONLY | os.O_CREAT, dir_fd=fd))
    os.close(fd)
    try:
        assert_user_error(invoke("validate", str(tmp_path)), "content/too-deep")
    finally:
        _remove_nested(tmp_path)  # pytest's own clean-up recurses, and would overflow


def _remove_nested(top: Path) -> None:
    """Remove a chain of nested ``d`` folders from the top, one level at a time."""
    folder = top / "d"
    while folder.is_dir():
        for entry in folder.iterdir():
            if entry.name != "d":
                entry.unlink()
        inner = folder / "d"
        if inner.is_dir():
            inner.rename(top / "e")
            folder.rmdir()
            (top / "e").rename(folder)
        else:
            folder.rmdir()


@pytest.mark.parametrize("entry", ['"a\\0b"', "a" * 5000, "/".join(["b" * 300] * 2)])
def test_a_scenario_content_path_with_a_nul_or_too_long_is_one_error(tmp_path: Path,
                                                                      entry: str) -> None:
    scenario = tmp_path / "s.yaml"
    scenario.write_text("kind: scenario\nname: odd\ncontent: [" + entry + "]\nsetup:\n"
                        "  players:\n    - name: A\n    - name: B\n", "utf-8")
    # a NUL is a control character: since issue 39 the YAML reader refuses it first
    code = "yaml/control-character" if "\\0" in entry else "scenario/bad-content-path"
    assert_user_error(invoke("scenario", "run", str(scenario)), code, "s.yaml:3:")


# ---- 11. smaller ones ----------------------------------------------------------------------------


def test_a_newline_in_a_file_name_cannot_split_or_forge_an_error_line(tmp_path: Path) -> None:
    odd = tmp_path / "x.yaml\nforged.yaml:1:1: all is fine [ok]"
    odd.write_text("kind: location\nid: [\n", "utf-8")
    result = invoke("validate", str(odd))
    assert result.exit_code == 2
    problems = [line for line in result.output.splitlines() if ": " in line and "[" in line]
    assert all(line.startswith(str(tmp_path)) for line in problems), result.output
    assert "x.yaml\\nforged.yaml" in result.output


def test_duplicate_names_with_table_out_are_refused_before_the_game(tmp_path: Path) -> None:
    table = tmp_path / "t.yaml"
    assert_user_error(bot_game("--names", "Ann,Ann", "--table-out", str(table)), "--names")
    assert not table.exists()


def test_a_save_naming_an_unknown_assistant_card_is_refused_before_replaying(
        tmp_path: Path) -> None:
    import json

    save = tmp_path / "s.json"
    assert human_game(save).exit_code == 0
    data = json.loads(save.read_text())
    data["assistant"] = ["no-such-card", None]
    save.write_text(json.dumps(data))
    for command in (["play", "--resume", str(save)], ["replay", str(save), "--all"]):
        result = invoke(*command, stdin="1\nq\n")
        assert_user_error(result, "no-such-card", "save/corrupt")
        assert "decision" not in result.output


def test_a_content_file_with_cr_only_line_endings_is_read(tmp_path: Path) -> None:
    text = (ROOT / "examples" / "authoring" / "reading-nook.yaml").read_text("utf-8")
    (tmp_path / "reading-nook.yaml").write_bytes(text.replace("\n", "\r").encode())
    result = invoke("content", "list", "--kind", "location", "--content", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert "reading-nook" in result.output and "skipped" not in result.output


@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_schema_out_never_reads_a_device_or_a_fifo(tmp_path: Path, kind: str) -> None:
    import os

    target = tmp_path / "location.json"
    if kind == "fifo":
        os.mkfifo(target)
    else:
        target.symlink_to("/dev/zero")
    start = time.monotonic()
    assert_user_error(invoke("schema", "--out", str(tmp_path)), "file/not-regular")
    assert time.monotonic() - start < 10
    assert target.is_fifo() if kind == "fifo" else target.is_symlink()


@pytest.mark.parametrize("args", [
    ["a" * 300],
    ["ok-one", "--dir", "d" * 5000],
    ["ok-one", "--dir", "/".join(["d" * 300] * 2)],
    ["ok-one", "--schemas", "s" * 5000],
])
def test_new_with_a_huge_id_or_name_is_one_error(tmp_path: Path, args: list[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert_user_error(invoke("new", "location", *args))
    assert list(tmp_path.iterdir()) == []


# ---- 12. score --best-flips on the longest shelves -------------------------------------------


def test_the_search_beam_shrinks_with_the_shelf_so_the_work_stays_bounded() -> None:
    from exlibris.scoring.flips import DEFAULT_BEAM, FLIP_WORK, MIN_BEAM, beam_for

    assert beam_for(10) == beam_for(75) == DEFAULT_BEAM
    for cards in (76, 152, 400, 5400, 10**6):
        beam = beam_for(cards)
        assert MIN_BEAM <= beam < DEFAULT_BEAM
        assert cards * beam**2 <= FLIP_WORK or beam == MIN_BEAM


@pytest.mark.fuzz  # a few seconds: four players' shelves of 5,400 cards
def test_best_flips_on_a_3_by_1800_shelf_approximates_in_bounded_time_and_says_so(
        tmp_path: Path) -> None:
    from exlibris.scoring.flips import beam_for, best_flips
    from exlibris.scoring.inspection import inspect_table
    from exlibris.scoring.table import parse_table_text

    rng = random.Random(1)
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    tokens = [f"{letters[n % 26]}{n // 26 + 1}:{rng.choice('CFHMRS')}{rng.choice('CFHMRS')}"
              for n in range(5400)]
    rows = "\n".join("      - " + " ".join(tokens[r * 1800:(r + 1) * 1800]) for r in range(3))
    text = (f"prominent: C\nbanned: M\nplayers:\n  - name: A\n    focus: F\n    hand: 0\n"
            f"    shelf:\n{rows}\n  - name: B\n    focus: F\n    hand: 0\n"
            "    shelf: A999:CC\n")
    table, rules = parse_table_text(text, "t.yaml")
    inspection = inspect_table(table, rules)
    assert beam_for(75) == 200 and beam_for(5400) < 30
    start = time.process_time()
    best = best_flips(inspection, 0)
    assert time.process_time() - start < 10
    assert not best.exact and best.total >= inspection.forms[0].total
    (tmp_path / "t.yaml").write_text(text, "utf-8")
    result = invoke("score", "--best-flips", str(tmp_path / "t.yaml"))
    assert result.exit_code == 0 and "search cut short" in result.output


def test_an_engine_refusal_is_said_without_internal_names() -> None:
    from exlibris.dsl.compiler import in_words

    text = in_words(ValueError("F7/7:MMS is on shelf:1: take it off the shelf first"))
    assert text == ("a step could not be carried out: F7 is on player 2's shelf: "
                    "take it off the shelf first")


def test_a_missing_state_folder_is_made_as_the_xdg_spec_asks(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """XDG_STATE_HOME set to a folder not made yet (its parent there): the first
    autosave makes it, 0700; one whose parent is missing too is refused."""
    import stat

    from exlibris.interactive.save_target import _make_state_folder

    state = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(state))
    _make_state_folder(state / "exlibris")
    assert (state / "exlibris").is_dir()
    assert stat.S_IMODE(state.stat().st_mode) == 0o700
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "no" / "where"))
    with pytest.raises(Exception, match="XDG_STATE_HOME"):
        _make_state_folder(tmp_path / "no" / "where" / "exlibris")
    assert not (tmp_path / "no").exists()
