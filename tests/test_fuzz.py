"""Fuzzing the untrusted-input parsers: YAML content, effect text, table files, saves, and
(issue 39) cache entries, run manifests, rows for ``simulate report``, seats, lock paths.

Inputs are random bytes, random text, and mutations of shipped files (see
``tests/fuzzing.py``). The property: only the project's own error types come
out of the parser, and the CLI exits 0 (a mutation that is still valid) or 2,
never with a traceback. The default suite runs a few examples of each; the long
run is ``pytest -m fuzz`` (or ``scripts/fuzz_inputs.py`` for timings).

The checker/runtime agreement test runs random effects the checker accepts in a
real game: they may end only in the engine's own errors, within a time and
memory budget.
"""

from __future__ import annotations

import contextlib
import json
import random
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fuzzing import mutate
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exlibris.agents import RandomAgent
from exlibris.catalog import load_catalog
from exlibris.cli.main import cli
from exlibris.dsl import ast_json
from exlibris.dsl.checker import Catalog as IdCatalog
from exlibris.dsl.checker import check_program, program_names
from exlibris.dsl.compiler import compile_program
from exlibris.dsl.errors import DslError, EffectError
from exlibris.dsl.parser import parse_program
from exlibris.engine.flow import new_game
from exlibris.engine.game import RulesError
from exlibris.errors import UserInputError
from exlibris.interactive import record as saves
from exlibris.scenario.check import validate_all
from exlibris.scoring.artifacts import ArtifactScoringError
from exlibris.scoring.inspection import inspect_table
from exlibris.scoring.table import parse_table_text
from exlibris.validation import resolve_settings

ROOT = Path(__file__).resolve().parent.parent
QUICK = 15  # examples per input kind in the default suite
LONG = 1000  # examples per input kind under `pytest -m fuzz`
CATALOG = load_catalog()
SETTINGS = resolve_settings("standard", CATALOG.variants)

CONTENT_FILES = sorted((ROOT / "content").rglob("*.yaml")) + sorted((ROOT / "rules").glob("*.yaml"))
TABLE_FILES = sorted((ROOT / "tests" / "tables").glob("*.yaml"))
EFFECTS = sorted({loc.effect for loc in CATALOG.locations.values()}
                 | {a.effect for art in CATALOG.artifacts.values() for a in art.abilities
                    if a.effect}
                 | {a.effect for lib in CATALOG.libraries.values()
                    for a in lib.assistant.abilities if a.effect})


def inputs(originals: list[bytes]) -> st.SearchStrategy[bytes]:
    """Random bytes, random text, or a mutation of one of ``originals``."""
    mutated = st.builds(lambda data, rng: mutate(data, rng), st.sampled_from(originals),
                        st.randoms(use_true_random=False))
    return st.one_of(st.binary(max_size=3000), st.text(max_size=800).map(str.encode),
                     mutated, mutated, mutated)


def fuzz(strategy: st.SearchStrategy[Any]) -> Callable[[Callable[..., None]], tuple]:
    """Two tests from one property: a quick one, and a long one marked ``fuzz``."""
    def make(check: Callable[..., None]) -> tuple:
        quick = settings(max_examples=QUICK, deadline=None, database=None,
                         suppress_health_check=[HealthCheck.too_slow])(given(strategy)(check))
        long = pytest.mark.fuzz(settings(max_examples=LONG, deadline=None, database=None,
                                         suppress_health_check=[HealthCheck.too_slow])(
            given(strategy)(check)))
        return quick, long
    return make


def cli_exits_cleanly(*args: str) -> int:
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"{args}: {result.exception!r}")
    assert result.exit_code in (0, 2), (args, result.exit_code, result.output[-500:])
    assert "Traceback" not in result.output
    return result.exit_code


_FOLDER = tempfile.TemporaryDirectory(prefix="exlibris-fuzz-")  # removed at exit


def in_file(data: bytes, name: str) -> Path:
    """``data`` written to ``name`` in this process's scratch folder (examples run one
    at a time, so each overwrites the last)."""
    path = Path(_FOLDER.name) / name
    path.write_bytes(data)
    return path


# ---- YAML content -------------------------------------------------------------------------------


def check_content(data: bytes) -> None:
    path = in_file(data, "entry.yaml")
    report = validate_all([path])  # every problem is collected; nothing else may come out
    assert all(p.code and p.line >= 1 for p in report.problems)
    assert (cli_exits_cleanly("validate", str(path)) == 0) == report.ok


test_yaml_content_fuzz, test_yaml_content_fuzz_long = fuzz(
    inputs([p.read_bytes() for p in CONTENT_FILES]))(check_content)


# ---- effect text --------------------------------------------------------------------------------


def check_effect(data: bytes) -> None:
    source = data.decode("utf-8", "replace")
    try:
        program = parse_program(source)
    except DslError:
        return
    errors = check_program(program, program_names(location=True),
                           IdCatalog(CATALOG.ids()))
    assert all(isinstance(e, DslError) for e in errors)
    if not errors:
        compile_program(program, "fuzzed")


test_effect_text_fuzz, test_effect_text_fuzz_long = fuzz(
    inputs([e.encode() for e in EFFECTS]))(check_effect)


def check_effect_in_a_file(data: bytes) -> None:
    text = data.decode("utf-8", "replace").replace("\r", "")
    body = "".join(f"  {line}\n" for line in text.splitlines()) or "  stop\n"
    entry = ("kind: location\nid: fuzzed\nname: Fuzzed\nnumber: 99\ntiming: instant\n"
             "spaces: [1]\nsolo: true\ntext: Fuzzed.\neffect: |\n" + body)
    cli_exits_cleanly("validate", str(in_file(entry.encode(), "fuzzed.yaml")))


test_effect_file_fuzz, test_effect_file_fuzz_long = fuzz(
    inputs([e.encode() for e in EFFECTS]))(check_effect_in_a_file)


# ---- table files --------------------------------------------------------------------------------


def check_table(data: bytes) -> None:
    try:
        table, rules = parse_table_text(data.decode("utf-8", "replace"), "t.yaml")
        inspect_table(table, rules)
    except (UserInputError, ArtifactScoringError):
        pass
    cli_exits_cleanly("score", str(in_file(data, "table.yaml")))


test_table_fuzz, test_table_fuzz_long = fuzz(
    inputs([p.read_bytes() for p in TABLE_FILES]))(check_table)


# ---- scenario files -----------------------------------------------------------------------------

SCENARIO_FILES = [ROOT / "scenarios" / name for name in (
    "locations/01-diviners-hut-draws-per-assistant-placed-and-takes-first-player.yaml",
    "locations/11-garbage-dump-two-visitors-resolve-in-space-order.yaml",
    "games/2p-a-tie-on-total-broken-by-books.yaml",
)]


def check_scenario(data: bytes) -> None:
    """A scenario file (position, script, expected events and inspection) is read and
    run, or refused with exit 2; a run that passes or fails is 0 or 1."""
    result = CliRunner().invoke(cli, ["scenario", "run", str(in_file(data, "scenario.yaml"))])
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"scenario: {result.exception!r}")
    assert result.exit_code in (0, 1, 2), (result.exit_code, result.output[-500:])
    assert "Traceback" not in result.output


test_scenario_fuzz, test_scenario_fuzz_long = fuzz(
    inputs([p.read_bytes() for p in SCENARIO_FILES]))(check_scenario)


# ---- saves --------------------------------------------------------------------------------------


def _save() -> bytes:
    path = Path(_FOLDER.name) / "original-save.json"
    result = CliRunner().invoke(cli, ["play", "--seats", "human,greedy", "--seed", "5",
                                      "--save", str(path)], input="1\n1\n1\nq\n")
    assert result.exit_code == 0, result.output
    return path.read_bytes()


SAVE = _save()


def _failed(save: bytes) -> bytes:
    """The same save as if the game had stopped on an engine error after its record."""
    data = json.loads(save)
    data["failure"] = {"decision": len(data["decisions"]) + 1, "code": "engine/effect",
                       "message": "the effect of diviners-hut, line 3 of its effect: a list "
                                  "of 16384 elements; the limit in effects is 10000"}
    return json.dumps(data, indent=1).encode()


def check_save(data: bytes) -> None:
    path = in_file(data, "save.json")
    with contextlib.suppress(saves.SaveError):
        saves.check_setup(saves.load(path), CATALOG)
    cli_exits_cleanly("replay", "--all", str(path))


test_save_fuzz, test_save_fuzz_long = fuzz(inputs([SAVE, _failed(SAVE)]))(check_save)


# ---- issue 39: cache entries, manifests, rows for `simulate report`, seats, lock paths ---------


def _cache_file() -> tuple[bytes, bytes]:
    """The shipped cache file of this test run (sealed bytes) and its body."""
    from exlibris import shipped_cache

    shipped_cache.records()  # filled if need be
    (path,) = shipped_cache.cache_dir().glob("shipped-*.json")
    raw = path.read_bytes()
    body = shipped_cache.unsealed(raw)
    assert body is not None
    return raw, body


CACHE_FILE, CACHE_BODY = _cache_file()


def check_cache_file(data: bytes) -> None:
    """A cache file damaged anyhow is passed over whole (or is the file it was)."""
    from exlibris import shipped_cache

    assert shipped_cache.unsealed(data) in (None, CACHE_BODY)


test_cache_file_fuzz, test_cache_file_fuzz_long = fuzz(inputs([CACHE_FILE]))(check_cache_file)

TREES = [json.dumps(ast_json.encode(parse_program(e))).encode() for e in EFFECTS[:20]]


def check_cached_tree(data: bytes) -> None:
    """A tree's entry, damaged: a tree of ``ast.py``'s classes, or an error that
    ``tree_cache.lookup`` passes over, never another exception."""
    with contextlib.suppress(ValueError, TypeError, RecursionError):
        ast_json.decode(json.loads(data))


test_cached_tree_fuzz, test_cached_tree_fuzz_long = fuzz(inputs(TREES))(check_cached_tree)


def _run() -> Path:
    out = Path(_FOLDER.name) / "run.jsonl"
    result = CliRunner().invoke(cli, ["simulate", "--games", "2", "--seats", "random",
                                      "--workers", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


RUN = _run()
RUN_MANIFEST = RUN.with_name(RUN.name + ".manifest.json").read_bytes()


def check_rows(data: bytes) -> None:
    """A rows file, damaged: a report (valid JSON) or one error."""
    path = in_file(data, "rows.jsonl")
    result = CliRunner().invoke(cli, ["simulate", "report", "--json", str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"rows: {result.exception!r}")
    assert result.exit_code in (0, 2) and "Traceback" not in result.output
    if result.exit_code == 0:
        json.loads(result.stdout, parse_constant=lambda name: pytest.fail(name))


test_rows_fuzz, test_rows_fuzz_long = fuzz(inputs([RUN.read_bytes()]))(check_rows)


def check_manifest(data: bytes) -> None:
    """A run's manifest, damaged, beside good rows: read, or one error, in `simulate
    report` and under --resume."""
    rows_file = in_file(RUN.read_bytes(), "m.jsonl")
    in_file(data, "m.jsonl.manifest.json")
    cli_exits_cleanly("simulate", "report", str(rows_file))
    cli_exits_cleanly("simulate", "--games", "1", "--seats", "random", "--workers", "1",
                      "--out", str(rows_file), "--resume")


test_manifest_fuzz, test_manifest_fuzz_long = fuzz(inputs([RUN_MANIFEST]))(check_manifest)

SEATS = [b"mcts:50", b"greedy", b"random", b"mcts", b"human", b"mcts:100000"]


def check_seats(data: bytes) -> None:
    """A seat list from the command line: a game's seats, or one usage error."""
    from exlibris.agents import bot_kind

    text = data.decode("utf-8", "replace").replace("\0", "")
    for seat in text.split(","):
        wrong = bot_kind(seat)
        assert wrong is None or (isinstance(wrong, str) and len(wrong) < 300)
    result = CliRunner().invoke(cli, ["simulate", "--games", "0", "--seats", text])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


test_seats_fuzz, test_seats_fuzz_long = fuzz(inputs(SEATS))(check_seats)


def check_lock_path(data: bytes, kind: int) -> None:
    """Whatever is at a save's lock path: the lock is taken (a stale lock of a game)
    and let go, or one ``SaveError``; nothing that was there is changed."""
    import os
    import shutil

    from exlibris.interactive.record import SaveError
    from exlibris.interactive.save_lock import SaveLock, lock_path

    folder = Path(_FOLDER.name) / "locks"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    save = folder / "s.json"
    lock = lock_path(save)
    other = folder / "other.txt"
    other.write_bytes(data)
    [lambda: lock.write_bytes(data), lambda: lock.symlink_to(other),
     lambda: lock.symlink_to(folder / "nowhere"), lambda: os.mkfifo(lock),
     lambda: lock.mkdir(), lambda: None][kind % 6]()
    before = lock.read_bytes() if lock.is_file() and not lock.is_symlink() else None
    held = SaveLock(save)
    try:
        held.acquire()
    except SaveError as exc:
        assert exc.code in ("save/not-a-lock", "save/in-use"), exc.code
        assert os.path.lexists(lock) and other.read_bytes() == data
        if before is not None:
            assert lock.read_bytes() == before
        return
    held.release()
    assert not os.path.lexists(lock) and other.read_bytes() == data
    assert before is None or before.strip().isdigit()


def check_lock_path_of(pair: tuple[bytes, int]) -> None:
    check_lock_path(*pair)


test_lock_path_fuzz, test_lock_path_fuzz_long = fuzz(
    st.tuples(inputs([b"12345\n", b"", b"notes"]), st.integers(0, 5)))(check_lock_path_of)


# ---- the checker and the runtime agree ----------------------------------------------------------

_ATOMS = ["0", "1", "3", "1000000", "999999999999", "-2", '"a"', "true", "hand", "shelf", "deck",
          "me", "players", "opponents", "here", "prominent", "x", "y", "[1, 2]", '[1, "a"]',
          "[]", "first(hand)", "first(x)", 'first(["a", 1])', "count(hand)", "count(x)",
          "top(deck)", "me.hand", "here.spaces", "first(players)", "@ghost", "categories(shelf)"]
_BINARY = ["+", "-", "*", "/", "<", ">=", "==", "!=", "|", "and", "or", "in"]
_UNARY = ["count({})", "first({})", "max({}, 2)", "min({})", "letters({})", "books({})",
          "-({})", "(not {})", "{}.letter", "{}.hand", "{}.vowel", "({} where it.vowel)"]


def expressions(depth: int = 2) -> st.SearchStrategy[str]:
    atom = st.sampled_from(_ATOMS)
    if depth == 0:
        return atom
    inner = expressions(depth - 1)
    return st.one_of(atom,
                     st.builds(lambda a, op, b: f"({a} {op} {b})", inner, st.sampled_from(_BINARY),
                               inner),
                     st.builds(lambda f, a: f.format(a), st.sampled_from(_UNARY), inner))


def statements() -> st.SearchStrategy[str]:
    e = expressions()
    return st.one_of(
        st.builds(lambda n, v: f"{n} = {v}", st.sampled_from(["x", "y"]), e),
        st.builds(lambda c: f"require {c}", e),
        st.builds(lambda c, n, v: f"repeat {c} times:\n  {n} = {v}", e,
                  st.sampled_from(["x", "y"]), e),
        st.builds(lambda c, v: f"for each c in {c}:\n  y = {v}", e, e),
        st.builds(lambda c: f"if {c}:\n  stop", e),
        st.builds(lambda v: f"draw({v})", e),
        st.builds(lambda v: f"discard(any, from: {v})", e),
        st.just("activate(here)"),
        st.just("may home_action()"),
    )


programs = st.lists(statements(), min_size=1, max_size=5).map(
    lambda lines: "x = 1\ny = [1]\n" + "\n".join(lines) + "\n")


def check_agreement(source: str) -> None:
    try:
        program = parse_program(source)
    except DslError:
        return
    if check_program(program, program_names(location=True), IdCatalog(CATALOG.ids())):
        return
    handler = compile_program(program, "random-effect")
    game = new_game(CATALOG, SETTINGS, [RandomAgent(1), RandomAgent(2)], seed=1)
    loc = game.state.in_play[0]
    loc.effect = handler
    tracemalloc.start()
    start = time.process_time()
    try:
        game.board.activate(0, loc, None)
    except (EffectError, RulesError):
        pass
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert time.process_time() - start < 5, source
    assert peak < 100 * 2**20, (source, peak)


test_checker_and_runtime_agree = settings(max_examples=40, deadline=None, database=None)(
    given(programs)(check_agreement))
test_checker_and_runtime_agree_long = pytest.mark.fuzz(
    settings(max_examples=LONG, deadline=None, database=None)(given(programs)(check_agreement)))


def test_the_mutator_is_deterministic() -> None:
    data = CONTENT_FILES[0].read_bytes()
    assert mutate(data, random.Random(7)) == mutate(data, random.Random(7))
    assert any(mutate(data, random.Random(s)) != data for s in range(5))


def test_standard_rules_of_ones_own_with_empty_rulings_are_checked_not_a_crash() -> None:
    """Found by the long content fuzz: a rules file taking the id ``standard`` whose
    ``rulings:`` is empty (null) stopped ``validate`` with a TypeError."""
    check_content(b"kind: variant\nid: standard\nname: Mine\ntext: A\nsettings:\n"
                  b"  players: [1]\n  modules: []\n  rulings:\n")
    check_content(b"kind: variant\nid: standard\nname: Mine\ntext: A\nrulings:\n")
