"""Issue 36, item 3: an effect that validates and then cannot go on is told in the
author's words, at run time too: the author's FILE:LINE:COL of the statement or
expression, the text written there, and the language's names of values (a player,
a card, nothing, a number, text, a list), never Python's.

Each failure is an author's file (a Diviner's Hut whose effect starts with the
failing lines, or an artifact whose score fails), driven through ``play``,
``scenario run`` and ``score`` with click's runner.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from exlibris.cli.main import cli
from exlibris.sources import use_content

ROOT = Path(__file__).resolve().parent.parent
HUT = "place standard assistant at Diviner's Hut (#1) space 1"


def _class_names() -> set[str]:
    """The exception classes of the package, found in its source."""
    found: set[str] = set()
    for path in (ROOT / "exlibris").rglob("*.py"):
        found.update(re.findall(r"^class (\w+)\((?:[\w.]*(?:Error|Exception|Exceeded|"
                                r"Refused)\w*)", path.read_text("utf-8"), re.MULTILINE))
    return found


# Python's names of types and errors (``list`` is left out: "a list" is the language's
# own word for one), and every exception class of exlibris
PYTHON_NAMES = re.compile(r"\b(?:NoneType|nonetype|int|str|dict|tuple|bool|float|object|"
                          r"Exception|TypeError|AttributeError|KeyError|ValueError|"
                          r"IndexError|RecursionError|Traceback|<expression>|<effect>|"
                          + "|".join(sorted(_class_names())) + r")\b")

# the first lines of the author's hut effect, the line of the file where the failing
# statement is (the effect starts on line 16), what the message says
FAILURES = {
    "nothing": ("as first(opponents where false):\n  draw(1)\n", 17, "found nothing"),
    "type-of-any": ('draw(first(["a", 1]))\n', 16, "works on numbers, not text"),
    "step-budget": ("n = count(hand) + 20000\nrepeat n times:\n  m = 1\n", 18,
                    "more than 10000 steps"),
    "number-range": ("n = 2\nrepeat 64 times:\n  n = n * n\n", 18, "beyond ±"),
    "list-length": ("seen = [1]\nrepeat 64 times:\n  seen = seen + seen\n", 18,
                    "a list of 16384 elements"),
    "activation-depth": ("activate(here)\n", 16, "activations already"),
}


@pytest.fixture(autouse=True)
def _no_own_content(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.delenv("EXLIBRIS_CONTENT", raising=False)
    use_content(())
    yield
    use_content(())


def invoke(*args: str, lines: str = "") -> Result:
    use_content(())  # each command starts as a fresh process would
    return CliRunner().invoke(cli, list(args), input=lines)


def authors_hut(folder: Path, lines: str) -> Path:
    """An author's Diviner's Hut whose effect begins with ``lines``."""
    folder.mkdir(parents=True, exist_ok=True)
    shipped = (ROOT / "content" / "locations" / "diviners-hut.yaml").read_text("utf-8")
    first = "".join(f"  {line}\n" for line in lines.splitlines())
    assert "\neffect: |\n" in shipped
    path = folder / "diviners-hut.yaml"
    path.write_text(shipped.replace("effect: |\n", "effect: |\n" + first, 1), "utf-8")
    return path


def assert_in_the_authors_words(result: Result, file: Path, line: int, says: str) -> str:
    """Exit 2, no traceback, the author's FILE:LINE:COL of the failing statement (its
    first character: column 3 of a top-level line, 5 one level in) and the statement
    quoted, what went wrong, and no Python name."""
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    text = "".join(result.output.split())  # a terminal may wrap a long path anywhere
    statement = file.read_text("utf-8").splitlines()[line - 1]
    col = len(statement) - len(statement.lstrip()) + 1
    assert f"{file.name}:{line}:{col}:".replace(" ", "") in text, result.output
    assert f"stoppedat`{''.join(statement.split())}`" in text, result.output
    assert "".join(says.split()) in text, result.output
    found = PYTHON_NAMES.search(result.output)
    assert found is None, (found, result.output)
    return result.output


# what the language makes total (docs/language.md, "What `validate` promises"): nothing
# skips an 'as', a number is held at the limit, an activation past the depth does
# nothing; the game plays on
TOTAL = frozenset({"nothing", "number-range", "activation-depth"})


@pytest.mark.parametrize("kind", sorted(FAILURES))
def test_play_names_the_authors_file_line_and_column(kind: str, tmp_path: Path) -> None:
    lines, line, says = FAILURES[kind]
    hut = authors_hut(tmp_path / "author", lines)
    checked = invoke("validate", str(hut))
    if checked.exit_code != 0:  # a checker that refuses it up front is as good: at its place
        assert checked.exit_code == 2 and any(
            f"{hut.name}:{n}:" in checked.output
            for n in range(16, 16 + len(lines.splitlines()))), checked.output
        assert PYTHON_NAMES.search(checked.output) is None, checked.output
        return
    if kind in TOTAL:
        played = invoke("play", "--content", str(hut.parent), "--seats", "greedy,greedy",
                        "--seed", "5")
        assert played.exit_code == 0, played.output
        return
    result = invoke("play", "--content", str(hut.parent), "--seats", "human,greedy",
                    "--seed", "5", "--save", str(tmp_path / "game.json"),
                    lines=f"1\n{HUT}\n2\n")
    assert_in_the_authors_words(result, hut, line, says)


SCENARIO = """\
kind: scenario
name: the author's hut cannot go on
setup:
  players:
    - {name: Ann, library: garden-of-education}
    - {name: Bob, library: igloo-of-information}
  deck: [A1, B1, C1]
  locations: [diviners-hut, wishing-well]
script:
  - Ann: place standard assistant at Diviner's Hut (#1) space 1
expect:
  hands: {Ann: [A1]}
"""


@pytest.mark.parametrize("kind", ["step-budget", "list-length"])
def test_scenario_run_says_the_content_stopped_it(kind: str, tmp_path: Path) -> None:
    lines, line, says = FAILURES[kind]
    hut = authors_hut(tmp_path / "author", lines)
    (hut.parent / "stops.yaml").write_text(SCENARIO, "utf-8")
    result = invoke("scenario", "run", str(hut.parent))
    out = assert_in_the_authors_words(result, hut, line, says)
    assert "STOPPED the author's hut cannot go on: the game stopped after script step" in out
    assert "0 passed, 0 failed, 1 stopped by the content" in out


TABLE = """\
variant: solo
prominent: C
banned: M
difficulty: easy
players:
  - name: A
    focus: F
    hand: 0
    shelf: A1:CC  *bejeweled-skull-of-turpitude
public-library:
  focus: R
  cards: [A2:CC]
"""


@pytest.mark.parametrize(("score", "says"), [
    ("count(first(opponents).shelf)", "it read .shelf of nothing"),
    ('first(["a", 1])', "a score works on numbers, not text"),
    ("count(shelf where first(opponents).name == \"x\")", "it read .name of nothing"),
])
def test_score_names_the_artifacts_file_line_and_column(score: str, says: str,
                                                        tmp_path: Path) -> None:
    own = tmp_path / "author"
    own.mkdir()
    skull = "bejeweled-skull-of-turpitude.yaml"
    shipped = (ROOT / "content" / "artifacts" / skull).read_text("utf-8")
    old = "score: books(adjacent(this), @corrupted-codices)"
    assert old in shipped
    (own / skull).write_text(shipped.replace(old, f"score: '{score}'"), "utf-8")
    table = tmp_path / "t.yaml"
    table.write_text(TABLE, "utf-8")
    result = invoke("score", str(table), "--content", str(own))
    if "first(opponents)" in score:  # nothing's attribute is nothing: it scores
        assert result.exit_code == 0, result.output
        return
    if result.exit_code == 2 and "[dsl/" in result.output:  # refused as it loads: fine too
        assert f"{skull}:" in result.output
        return
    number = next(i for i, text in enumerate((own / skull).read_text("utf-8").splitlines(),
                                             1) if "score:" in text)
    assert result.exit_code == 2, result.output
    assert f"{skull}:{number}:" in result.output and "t.yaml:9:" in result.output
    assert f"stopped at `{score}`" in result.output and says in result.output
    assert PYTHON_NAMES.search(result.output) is None, result.output


def test_the_unlocated_form_still_speaks_the_language() -> None:
    """An effect no content in use holds (a test's own handler) is named by its entry
    and line, never by a Python name."""
    from exlibris.dsl.errors import EffectBudgetExceeded

    exc = EffectBudgetExceeded("it took more than 3 steps", "odd-nook:effect", 2)
    assert str(exc) == "the effect of odd-nook, line 2: it took more than 3 steps"
    assert PYTHON_NAMES.search(str(exc)) is None


def test_values_are_named_in_the_language() -> None:
    from exlibris.dsl.scoring import ShelfOwner
    from exlibris.dsl.values import kind_name

    assert [kind_name(v) for v in (None, 3, "a", [1], True, ShelfOwner("A", []), object())
            ] == ["nothing", "a number", "text", "a list", "true or false", "a player",
                  "a value of another kind"]


def test_every_shipped_effect_condition_rule_and_score_maps_to_its_file() -> None:
    """Each handler the shipped content compiles is found in its file under content/
    (or rules/), at the first character of its field's text."""
    from exlibris.catalog import load_catalog, locate_field
    from exlibris.engine.shipped_sources import handlers

    seen = 0
    for handler in handlers(load_catalog()):
        found = locate_field(handler.source_name)
        assert found is not None, handler.source_name
        file, line, col, text = found
        assert Path(file).parts[-3] in ("content", "rules") or Path(file).parts[0] in (
            "content", "rules"), file
        written = (ROOT / file).read_text("utf-8").splitlines()[line - 1]
        assert written[col - 1:].startswith(text.splitlines()[0]), (file, line, col)
        seen += 1
    assert seen >= 100


def test_simulate_says_a_content_error_in_the_authors_words() -> None:
    from exlibris.dsl.errors import EffectBudgetExceeded
    from exlibris.simulate.play import _said

    said = _said(EffectBudgetExceeded("it took more than 3 steps", "diviners-hut:effect", 2))
    assert "diviners-hut.yaml:17:5: the effect of diviners-hut stopped at " \
        "`draw(me.placements_this_round)`: it took more than 3 steps" in said, said
    assert said.endswith("[engine/effect]") and PYTHON_NAMES.search(said) is None
    assert _said(ZeroDivisionError("x")) == "ZeroDivisionError: x"  # a bug keeps its class


@pytest.mark.parametrize("error", [
    ValueError("list.remove(x): x not in list"),
    ValueError("invalid literal for int() with base 10: 'a'"),
    TypeError("unhashable type: 'list'"),
    TypeError("'<' not supported between instances of 'str' and 'int'"),
    KeyError("x"), IndexError("list index out of range"), ZeroDivisionError("division by zero"),
    AttributeError("'NoneType' object has no attribute 'seat'", name="seat", obj=None),
    AttributeError("'int' object has no attribute 'hand'", name="hand", obj=3),
    RecursionError("maximum recursion depth exceeded"),
])
def test_pythons_errors_inside_an_effect_are_said_in_the_languages_words(
        error: Exception) -> None:
    from exlibris.dsl.compiler import in_words

    said = in_words(error)
    assert PYTHON_NAMES.search(said) is None, said
    assert "'" not in said.replace("'s ", ""), said  # nothing of Python's text quoted


def test_an_engine_refusal_keeps_its_words() -> None:
    from exlibris.dsl.compiler import in_words
    from exlibris.model.shelf_errors import ShelfError

    assert in_words(ShelfError("cannot swap F7/7:MMS at A1 with itself")) == \
        "a step could not be carried out: cannot swap F7 at A1 with itself"


HARVEST = """\
kind: variant
id: my-harvest
name: My harvest
extends: standard
text: Everyone doubles a list at the end of each round.
abilities:
  - timing: ongoing
    keyword: Harvest
    when: after cleanup
    effect: |
      seen = [1]
      repeat 64 times:
        seen = seen + seen
    text: Doubles a list.
"""
TALLY = """\
kind: variant
id: my-tally
name: My tally
extends: my-harvest
text: Scores text.
abilities:
  - timing: end-of-game
    score: 'count(first(opponents).shelf)'
    text: Scores text.
"""


def test_a_variants_own_abilities_are_named_in_its_rules_file(tmp_path: Path) -> None:
    """A rule for everyone: its effect names the rules file that writes it, and a score
    of a variant that extends it is found in its own file (the abilities of a chain
    are numbered across it, the most basic file's first)."""
    from exlibris.catalog import locate_field

    own = tmp_path / "rules"
    own.mkdir()
    (own / "my-harvest.yaml").write_text(HARVEST, "utf-8")
    (own / "my-tally.yaml").write_text(TALLY, "utf-8")
    result = invoke("play", "--content", str(own), "--variant", "my-harvest", "--seats",
                    "greedy,greedy", "--seed", "1")
    assert result.exit_code == 2, result.output
    text = "".join(result.output.split())
    assert "my-harvest.yaml:13:9:theeffectofmy-harveststoppedat`seen=seen+seen`:alistof" \
        in text, result.output
    assert PYTHON_NAMES.search(result.output) is None, result.output
    use_content([own])
    score = locate_field("my-tally@rules#1:score")
    effect = locate_field("my-tally@rules#0:effect")
    assert score is not None and effect is not None
    assert score[0].endswith("my-tally.yaml") and score[1:3] == (8, 13)
    assert effect[0].endswith("my-harvest.yaml") and effect[1:3] == (11, 7)
