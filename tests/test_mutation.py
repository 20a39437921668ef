"""The mutation runs of scripts/ (docs/rules-coverage.md, "Mutation testing"): how
mutants are made and judged, and a bounded content run that CI does on every change:
every mutant of a few entries' effects is killed by a scenario or a test."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import mutate_code  # noqa: E402
import mutate_content  # noqa: E402

# Entries of the four rows issue 41 found unprotected, small enough to run in CI.
BOUNDED = ("snowman", "magnificent-magnifiers")


def test_content_mutants_cover_every_operator_and_stay_one_change() -> None:
    mutants = mutate_content.all_mutants({"gambling-den"})
    operators = {m.operator for m in mutants}
    assert operators == {"int", "verb", "selector", "condition", "line"}
    ids = [m.id for m in mutants]
    assert len(ids) == len(set(ids)), "two mutants share an id"
    den = next(m for m in mutants if m.now == '"clockwise"')
    assert den.site.text.replace('"counterclockwise"', '"clockwise"') == den.text


def test_a_mutant_that_no_longer_validates_is_counted_apart(tmp_path: Path) -> None:
    mutant = next(m for m in mutate_content.all_mutants({"gambling-den"})
                  if m.operator == "line" and m.line == 1)  # `called = []` dropped
    outcome = mutate_content.run_mutant(mutant, tmp_path, {}, {})
    assert outcome.status == "invalid" and outcome.by.startswith("dsl/")


def test_a_swap_of_one_player_for_itself_is_equivalent_by_rule() -> None:
    den = mutate_content.all_mutants({"gambling-den"})
    me = [m for m in den if m.was == "me" and m.now in ("owner", "visitor")]
    assert me and all(mutate_content.equivalent_by_rule(m) for m in me)
    # inside `as p:` the acting player is p: swapping `me` there is no equivalent
    inside = [m for m in mutate_content.all_mutants({"yard-sale"})
              if m.operator == "selector" and m.was == "me"
              and mutate_content._inside_as(m.site.text, mutate_content._offset(m.site.text, m))]
    assert all(mutate_content.equivalent_by_rule(m) is None for m in inside)


def test_the_bounded_content_run_kills_every_mutant() -> None:
    """The content mutator on the Snowman and the Magnifiers: every valid mutant is
    killed (or listed as equivalent with its reason in docs/rules-coverage.md)."""
    summary = mutate_content.run(mutate_content.all_mutants(set(BOUNDED)))
    assert summary.outcomes
    assert [o.id for o in summary.survivors] == []
    assert any(o.status == "killed" for o in summary.outcomes)


def test_rule_code_mutants_are_made_on_the_syntax_tree() -> None:
    mutants = mutate_code.mutants_of("exlibris/engine/board.py")
    solo = [m for m in mutants if m.operator == "statement" and m.change == "pass"]
    assert {m.operator for m in mutants} >= {"compare", "int", "bool", "boolop", "statement"}
    source = mutate_code.mutated_source(solo[0])
    assert source != (ROOT / "exlibris/engine/board.py").read_text("utf-8")
    compile(source, "board.py", "exec")


@pytest.mark.parametrize("module", ["exlibris/engine/board.py", "exlibris/scoring/steps.py"])
def test_rule_code_mutants_run_the_scenarios_goldens_and_the_module_tests(module: str) -> None:
    tests = mutate_code.tests_for(module)
    assert tests[:2] == mutate_code.ALWAYS
    assert all((ROOT / t.split("::")[0]).exists() for t in tests)


def test_the_equivalents_listed_in_the_doc_are_read() -> None:
    content = mutate_content.listed_equivalents()
    code = mutate_code.listed_equivalents()
    assert content and code
    assert all(reason for reason in (*content.values(), *code.values()))
