"""The two rules documents stay honest: docs/rules-coverage.md and docs/rulings.md.

- every clause of shared/spec/clauses.md has exactly one row in rules-coverage.md,
  in the order of clauses.md, with one of the four statuses;
- the summary counts of rules-coverage.md are the counts of its rows;
- every test cited as ``tests/FILE.py::name`` exists (a function or class of that
  name in the file's syntax tree), and every code name cited as
  ``exlibris/FILE.py: Name`` (or ``Class.method``) is defined there;
- every content or rules file cited exists;
- every scenario cited (``scenarios/...yaml``, in the code or test column) exists and
  lists the row's clause in its ``clauses:``, and a row cites scenarios exactly when
  it cites ``tests/test_scenarios.py::test_shipped_scenario_passes`` (which runs
  them); every clause id a scenario file lists exists in clauses.md;
- every AMBIGUOUS and EDITION-DIFF clause has an entry in rulings.md;
- every setting named in either document exists in rules/standard.yaml (or, for
  ``solo.*``, in rules/solo.yaml), and every ``ShelfRules.X`` / ``ScoringRules.X``
  is a field of that class.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from dataclasses import fields
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from exlibris.yamlsafe import load_yaml_file

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
COVERAGE = DOCS / "rules-coverage.md"
RULINGS = DOCS / "rulings.md"
STATUSES = ("implemented", "partial", "content", "not yet")

CLAUSE_LINE = re.compile(r"^- \[[ xX]\] `([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)`(?: \*\*([A-Z-]+)\*\*)?")
CLAUSE_ID = re.compile(r"^[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+$")
TEST_REF = re.compile(r"tests/([\w/]+\.py)::(\w+)")
CODE_REF = re.compile(r"`(exlibris/[\w/]+\.py): ([A-Za-z_][\w.]*)")
FILE_REF = re.compile(r"`((?:content|rules)/[\w/*.-]+\.yaml)`")
SCENARIO_REF = re.compile(r"scenarios/[\w/.-]+\.yaml")
RUNS_SCENARIOS = "tests/test_scenarios.py::test_shipped_scenario_passes"
SETTING_REF = re.compile(
    r"`(?:settings\.)?(rulings|scoring|setup|final_round|solo)\.([a-z_]+(?:\.[a-z_0-9]+)*)")
CLASS_FIELD_REF = re.compile(r"\b(ShelfRules|ScoringRules)\.([a-z_]+)\b")


def clauses_path() -> Path | None:
    """shared/spec/clauses.md beside the checkout (as in CI), else the workplace copy."""
    for candidate in (Path(__file__).resolve().parents[2] / "shared" / "spec" / "clauses.md",
                      Path("/work/shared/spec/clauses.md")):
        if candidate.is_file():
            return candidate
    return None


@cache
def clauses() -> tuple[tuple[str, str | None], ...]:
    """(clause id, marker) in the order of clauses.md; skips when the spec is absent."""
    path = clauses_path()
    if path is None:
        pytest.skip("shared/spec/clauses.md is not beside the checkout (CI lays shared/ "
                    "next to it); the clause checks need it")
    found = []
    for line in path.read_text("utf-8").splitlines():
        match = CLAUSE_LINE.match(line)
        if match:
            found.append((match.group(1), match.group(2)))
    return tuple(found)


def cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


@cache
def coverage_rows() -> tuple[tuple[str, str, str, str], ...]:
    """(clause, status, code, test) for every table row whose first cell is a clause id."""
    rows = []
    for line in COVERAGE.read_text("utf-8").splitlines():
        if not line.startswith("| "):
            continue
        row = cells(line)
        if CLAUSE_ID.match(row[0]):
            assert len(row) == 4, f"a coverage row has four cells: {line}"
            rows.append((row[0], row[1], row[2], row[3]))
    return tuple(rows)


# ------------------------------------------------------------------ coverage
def test_every_clause_has_exactly_one_row_in_order() -> None:
    ids = [cid for cid, _ in clauses()]
    assert len(ids) == len(set(ids)), "clauses.md repeats an id"
    rows = [row[0] for row in coverage_rows()]
    counts = Counter(rows)
    assert [cid for cid, n in counts.items() if n > 1] == [], "clauses with several rows"
    assert sorted(set(ids) - set(rows)) == [], "clauses without a row"
    assert sorted(set(rows) - set(ids)) == [], "rows for ids that clauses.md does not have"
    assert rows == ids, "rows are not in the order of clauses.md"


def test_every_status_is_one_of_four() -> None:
    bad = [(cid, status) for cid, status, _, _ in coverage_rows() if status not in STATUSES]
    assert bad == []


def test_rows_say_what_their_status_needs() -> None:
    problems = []
    for cid, status, code, test in coverage_rows():
        if status in ("implemented", "partial") and not TEST_REF.search(test):
            problems.append(f"{cid}: an {status} row cites a test")
        if status == "implemented" and not CODE_REF.search(code) and "content/" not in code:
            problems.append(f"{cid}: an implemented row names its code")
        if status == "partial" and "missing:" not in code:
            problems.append(f"{cid}: a partial row says what is missing ('missing: ...')")
        if status == "content" and not (FILE_REF.search(code) or "content/" in code):
            problems.append(f"{cid}: a content row names its content or rules file")
        if status == "not yet" and TEST_REF.search(test):
            problems.append(f"{cid}: a 'not yet' row cites no test")
    assert problems == []


def test_summary_counts_match_the_rows() -> None:
    text = COVERAGE.read_text("utf-8")
    summary = {}
    for line in text.split("## How to read", 1)[0].splitlines():
        row = cells(line) if line.startswith("| ") else []
        if len(row) == 2 and row[0] in STATUSES:
            summary[row[0]] = int(row[1])
    actual = Counter(status for _, status, _, _ in coverage_rows())
    assert summary == {status: actual.get(status, 0) for status in STATUSES}
    total = re.search(r"\| \*\*total\*\* \| \*\*(\d+)\*\* \|", text)
    assert total and int(total.group(1)) == len(coverage_rows())


def test_the_introduction_calls_partial_exactly_the_partial_rows() -> None:
    """The paragraph on why rows stay partial names every partial row and no other,
    and no sentence of the introduction calls a clause partial that its row does not."""
    intro = COVERAGE.read_text("utf-8").split("## How to read", 1)[0]
    why = intro.split("Why the `partial` rows stay partial", 1)[1].split("\n\n", 1)[0]
    partial = {cid for cid, status, _, _ in coverage_rows() if status == "partial"}
    named = set(re.findall(r"[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+", why))
    assert named == partial
    status = {cid: st for cid, st, _, _ in coverage_rows()}
    for sentence in re.split(r"(?<=[.;])\s", intro):
        if "partial" in sentence:
            wrong = [cid for cid in re.findall(r"[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+", sentence)
                     if status.get(cid, "partial") != "partial"]
            assert wrong == [], f"called partial, but its row is not: {sentence!r}"


# ------------------------------------------------------------- scenarios
@cache
def scenario_clauses(relative: str) -> tuple[str, ...] | None:
    """The ``clauses:`` of a scenario file, or None when there is no such file."""
    path = ROOT / relative
    if not path.is_file():
        return None
    data = load_yaml_file(path).data
    return tuple(str(c) for c in (data.get("clauses") or []))


def test_every_cited_scenario_exists_and_lists_the_clause() -> None:
    problems = []
    for cid, _, code, test in coverage_rows():
        files = sorted(set(SCENARIO_REF.findall(code + " " + test)))
        for relative in files:
            listed = scenario_clauses(relative)
            if listed is None:
                problems.append(f"{cid}: {relative} does not exist")
            elif cid not in listed:
                problems.append(f"{cid}: {relative} does not list {cid} in its clauses")
        if files and RUNS_SCENARIOS not in test:
            problems.append(f"{cid}: cites scenarios but not {RUNS_SCENARIOS}")
        if RUNS_SCENARIOS in test and not files:
            problems.append(f"{cid}: cites {RUNS_SCENARIOS} but names no scenario file")
    assert problems == []


def test_scenarios_named_in_the_rulings_exist() -> None:
    text = RULINGS.read_text("utf-8")
    missing = [f for f in sorted(set(SCENARIO_REF.findall(text)))
               if scenario_clauses(f) is None]
    assert missing == []


def test_every_clause_a_scenario_lists_exists() -> None:
    known = {cid for cid, _ in clauses()}
    unknown = []
    for path in sorted((ROOT / "scenarios").rglob("*.yaml")):
        relative = path.relative_to(ROOT).as_posix()
        for cid in scenario_clauses(relative) or ():
            if cid not in known:
                unknown.append(f"{relative}: {cid}")
    assert unknown == []


# ------------------------------------------------------------- citations
@cache
def defined_names(relative: str) -> dict[str, set[str]]:
    """Names defined in a Python file: '' -> every function and class anywhere;
    a class name -> its methods, properties and annotated fields."""
    tree = ast.parse((ROOT / relative).read_text("utf-8"))
    names: dict[str, set[str]] = {"": set()}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names[""].add(node.name)
        if isinstance(node, ast.ClassDef):
            members = names.setdefault(node.name, set())
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    members.add(item.name)
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    members.add(item.target.id)
        elif isinstance(node, ast.Assign) and node in tree.body:
            names[""].update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and node in tree.body and isinstance(
                node.target, ast.Name):
            names[""].add(node.target.id)
    return names


def both_docs() -> list[tuple[str, str]]:
    return [(path.name, path.read_text("utf-8")) for path in (COVERAGE, RULINGS)]


def test_every_cited_test_exists() -> None:
    missing = []
    for doc, text in both_docs():
        for file, name in sorted(set(TEST_REF.findall(text))):
            path = ROOT / "tests" / file
            if not path.is_file() or name not in defined_names(f"tests/{file}")[""]:
                missing.append(f"{doc}: tests/{file}::{name}")
    assert missing == []


def test_every_cited_code_name_exists() -> None:
    missing = []
    for doc, text in both_docs():
        for file, dotted in sorted(set(CODE_REF.findall(text))):
            if not (ROOT / file).is_file():
                missing.append(f"{doc}: {file}")
                continue
            names = defined_names(file)
            head, _, member = dotted.rstrip(".").partition(".")
            if head not in names[""] or (member and member not in names.get(head, set())):
                missing.append(f"{doc}: {file}: {dotted}")
    assert missing == []


def test_every_cited_content_or_rules_file_exists() -> None:
    missing = []
    for doc, text in both_docs():
        for pattern in sorted(set(FILE_REF.findall(text))):
            if not list(ROOT.glob(pattern)):
                missing.append(f"{doc}: {pattern}")
    assert missing == []


# ---------------------------------------------------------------- rulings
def ruling_headings() -> list[str]:
    """The clause id that opens each heading of rulings.md."""
    found = []
    for line in RULINGS.read_text("utf-8").splitlines():
        match = re.match(r"^#{2,4} `?([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)`?\b", line)
        if match:
            found.append(match.group(1))
    return found


def test_every_ambiguous_and_edition_diff_clause_has_a_ruling() -> None:
    wanted = [cid for cid, marker in clauses() if marker in ("AMBIGUOUS", "EDITION-DIFF")]
    assert wanted, "clauses.md marks no clause; the marker format changed?"
    headings = ruling_headings()
    assert sorted(set(wanted) - set(headings)) == []
    repeated = [cid for cid, n in Counter(headings).items() if n > 1]
    assert repeated == [], "one entry per clause id"


def settings_of(variant: str) -> dict[str, Any]:
    data = load_yaml_file(ROOT / "rules" / f"{variant}.yaml").data
    return data["settings"]


def test_every_named_setting_exists() -> None:
    standard, solo = settings_of("standard"), settings_of("solo")
    missing = []
    for doc, text in both_docs():
        for section, path in sorted(set(SETTING_REF.findall(text))):
            node: Any = (solo if section == "solo" else standard).get(section)
            for key in path.split("."):
                if not isinstance(node, dict) or key not in node:
                    missing.append(f"{doc}: {section}.{path}")
                    break
                node = node[key]
    assert missing == []


def test_every_named_class_field_exists() -> None:
    from exlibris.model.shelf import ShelfRules
    from exlibris.scoring.settings import ScoringRules

    known = {cls.__name__: {f.name for f in fields(cls)} | set(dir(cls))
             for cls in (ShelfRules, ScoringRules)}
    missing = [f"{doc}: {cls}.{name}" for doc, text in both_docs()
               for cls, name in sorted(set(CLASS_FIELD_REF.findall(text)))
               if name not in known[cls]]
    assert missing == []


def test_the_merged_documents_are_gone_and_unlinked() -> None:
    old = ("rulings-scoring.md", "rulings-content.md", "coverage-scoring.md")
    assert [name for name in old if (DOCS / name).exists()] == []
    linking = [f"{path.relative_to(ROOT)}: {name}"
               for path in [ROOT / "README.md", *DOCS.glob("*.md")] if path.is_file()
               for name in old if name in path.read_text("utf-8")]
    assert linking == []
