"""Mutation testing of the rule code: change one thing in `exlibris/engine/` or
`exlibris/scoring/`, run the tests that touch it, see one fail.

The mutants are made on the module's syntax tree (Python's ``ast``): a comparison
for its neighbour (``<`` for ``<=``, ``==`` for ``!=``, ``in`` for ``not in``), ``+``
for ``-``, a whole number one more, ``True`` for ``False``, ``and`` for ``or``, a
``not`` dropped, a statement replaced by ``pass``. A seeded sample of them is run,
each in its own process, with an import hook that serves the mutated module in
place of the file (the checkout is never written): ``pytest -x`` on the shipped
scenarios, the golden playthroughs and the test files that name the module. A
mutant is killed when a test fails (or the run exceeds its time: a hang fails CI
too); one that passes every test survives, unless docs/rules-coverage.md lists it
as equivalent with the reason ("Equivalent rule-code mutants").

    python scripts/mutate_code.py --sample 80 --seed 1 --jobs 2
    python scripts/mutate_code.py --list --module exlibris/engine/board.py
    python scripts/mutate_code.py --id "exlibris/engine/board.py:120:8 compare Lt>LtE"

Exit status 0 when no mutant survives (equivalents aside), 1 otherwise.
"""

from __future__ import annotations

import argparse
import ast
import importlib.abc
import importlib.util
import json
import os
import random
import subprocess
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("exlibris/engine", "exlibris/scoring")
COVERAGE_DOC = ROOT / "docs" / "rules-coverage.md"
TIMEOUT_SECONDS = 600
ALWAYS = ["tests/test_scenarios.py::test_shipped_scenario_passes", "tests/test_goldens.py"]
# Test files that name engine modules but check other things (speed, the terminal,
# compiled builds, fuzzing, simulation, untrusted input): not run for rule-code mutants.
NOT_RULE_TESTS = ("test_compiled_engine", "test_pxd_declarations", "test_fuzz", "test_simulate",
                  "test_interactive", "test_cli_pty", "test_engine_speedups", "test_mcts",
                  "test_untrusted", "test_tree_cache", "test_dsl_pysource", "test_words",
                  "test_model_construct", "test_precompiled_effects", "test_crash_sweep",
                  "test_authoring", "test_agent_view", "test_forward_model", "test_cli_play",
                  "test_typed_decisions", "test_verb_zone_sweep", "test_greedy_rules",
                  "test_engine_properties", "test_setup_builder")

COMPARE_SWAPS: dict[type, type] = {
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE,
    ast.GtE: ast.Gt, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
BINOP_SWAPS: dict[type, type] = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv,
                                 ast.FloorDiv: ast.Mult}


@dataclass(frozen=True)
class Mutant:
    module: str  # the file, relative to the root
    line: int
    col: int
    operator: str  # compare, binop, int, bool, boolop, not, statement
    change: str
    index: int  # the n-th mutation point of the module (in ast.walk order)

    @property
    def id(self) -> str:
        return f"{self.module}:{self.line}:{self.col} {self.operator} {self.change}"


@dataclass
class Outcome:
    id: str
    area: str
    status: str  # killed, survived, equivalent
    by: str = ""
    seconds: float = 0.0


def _docstring(node: ast.AST) -> bool:
    return (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str))


def _points(tree: ast.AST) -> Iterator[tuple[ast.AST, str, str]]:
    """(node, operator, change) for every mutation point, in ``ast.walk`` order."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for op in node.ops:
                if type(op) in COMPARE_SWAPS:
                    yield node, "compare", f"{type(op).__name__}>{COMPARE_SWAPS[type(op)].__name__}"
        elif isinstance(node, ast.BinOp) and type(node.op) in BINOP_SWAPS:
            yield node, "binop", f"{type(node.op).__name__}>{BINOP_SWAPS[type(node.op)].__name__}"
        elif (isinstance(node, ast.Constant) and type(node.value) is int
              and not isinstance(node.value, bool)):
            yield node, "int", f"{node.value}>{node.value + 1}"
        elif isinstance(node, ast.Constant) and isinstance(node.value, bool):
            yield node, "bool", f"{node.value}>{not node.value}"
        elif isinstance(node, ast.BoolOp):
            yield node, "boolop", ("And>Or" if isinstance(node.op, ast.And) else "Or>And")
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            yield node, "not", "drop"
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.For | ast.While
                      | ast.If | ast.With | ast.Try):
            for field in ("body", "orelse", "finalbody"):
                for stmt in getattr(node, field, []) or []:
                    if isinstance(stmt, ast.Expr | ast.Assign | ast.AugAssign | ast.Return
                                  | ast.Raise | ast.AnnAssign) and not _docstring(stmt):
                        yield stmt, "statement", "pass"


def _in_type_checking(tree: ast.AST) -> set[int]:
    """Lines of ``if TYPE_CHECKING:`` blocks and of annotations: not rule code."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return lines


def mutants_of(module: str) -> list[Mutant]:
    tree = ast.parse((ROOT / module).read_text("utf-8"))
    skip = _in_type_checking(tree)
    out = []
    for index, (node, operator, change) in enumerate(_points(tree)):
        line = getattr(node, "lineno", 0)
        if line in skip:
            continue
        out.append(Mutant(module, line, getattr(node, "col_offset", 0), operator, change,
                          index))
    return out


def all_mutants(modules: list[str] | None = None) -> list[Mutant]:
    files = modules or [str(p.relative_to(ROOT)) for folder in FOLDERS
                        for p in sorted((ROOT / folder).glob("*.py"))]
    return [m for f in files for m in mutants_of(f)]


def mutated_source(mutant: Mutant) -> str:
    tree = ast.parse((ROOT / mutant.module).read_text("utf-8"))
    for index, (node, operator, change) in enumerate(_points(tree)):
        if index != mutant.index:
            continue
        assert (operator, change) == (mutant.operator, mutant.change), mutant.id
        _apply(tree, node, operator, change)
        return ast.unparse(ast.fix_missing_locations(tree))
    raise LookupError(mutant.id)


def _apply(tree: ast.AST, node: Any, operator: str, change: str) -> None:
    if operator == "compare":
        old, _ = change.split(">")
        for i, op in enumerate(node.ops):
            if type(op).__name__ == old:
                node.ops[i] = COMPARE_SWAPS[type(op)]()
                return
    elif operator == "binop":
        node.op = BINOP_SWAPS[type(node.op)]()
    elif operator == "int":
        node.value += 1
    elif operator == "bool":
        node.value = not node.value
    elif operator == "boolop":
        node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
    elif operator == "not":
        _replace(tree, node, node.operand)
    elif operator == "statement":
        _replace(tree, node, ast.Pass())


def _replace(tree: ast.AST, old: ast.AST, new: ast.AST) -> None:
    for parent in ast.walk(tree):
        for field, value in ast.iter_fields(parent):
            if isinstance(value, list):
                for i, item in enumerate(value):
                    if item is old:
                        value[i] = ast.copy_location(new, old)
                        return
            elif value is old:
                setattr(parent, field, ast.copy_location(new, old))
                return


# ------------------------------------------------------------------ running one mutant
def tests_for(module: str) -> list[str]:
    """The shipped scenarios and goldens, then the test files that name the module."""
    dotted = module.removesuffix(".py").replace("/", ".")
    package, name = dotted.rsplit(".", 1)
    words = (dotted, f"from {package} import {name}", f"{package} import {name},")
    found = []
    for path in sorted((ROOT / "tests").glob("test_*.py")):
        text = path.read_text("utf-8")
        if path.stem.startswith(NOT_RULE_TESTS):
            continue
        if any(w in text for w in words) or (f"import {name}" in text and package in text):
            found.append(str(path.relative_to(ROOT)))
    return ALWAYS + [f for f in found if f not in ("tests/test_scenarios.py",
                                                  "tests/test_goldens.py")]


class _Serve(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Serves one module's mutated source in place of its file."""

    def __init__(self, name: str, source: str, origin: str) -> None:
        self.name, self.source, self.origin = name, source, origin

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if fullname != self.name:
            return None
        return importlib.util.spec_from_loader(fullname, self, origin=self.origin)

    def create_module(self, spec: Any) -> None:
        return None

    def exec_module(self, module: Any) -> None:
        module.__file__ = self.origin
        exec(compile(self.source, self.origin, "exec"), module.__dict__)


def _child(mutant_json: str) -> int:
    """In the mutant's own process: install the hook, run pytest -x."""
    import pytest

    mutant = Mutant(**json.loads(mutant_json))
    name = mutant.module.removesuffix(".py").replace("/", ".")
    sys.meta_path.insert(0, _Serve(name, mutated_source(mutant), str(ROOT / mutant.module)))
    return int(pytest.main(["-x", "-q", "-n", "0", "-p", "no:cacheprovider",
                            "-m", "not fuzz and not slow", "--no-header", "-W", "ignore",
                            *tests_for(mutant.module)]))


def run_mutant(mutant: Mutant, equivalent: dict[str, str]) -> Outcome:
    started = time.perf_counter()
    area = mutant.module.split("/")[1]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": "1"}
    try:
        done = subprocess.run([sys.executable, __file__, "--child", json.dumps(asdict(mutant))],
                              cwd=ROOT, env=env, capture_output=True, text=True,
                              timeout=TIMEOUT_SECONDS, check=False)
        status = "killed" if done.returncode != 0 else "survived"
        by = _first_failure(done.stdout) if status == "killed" else ""
    except subprocess.TimeoutExpired:
        status, by = "killed", "timeout"
    if status == "survived" and mutant.id in equivalent:
        status, by = "equivalent", equivalent[mutant.id]
    return Outcome(mutant.id, area, status, by, round(time.perf_counter() - started, 1))


def _first_failure(output: str) -> str:
    for line in output.splitlines():
        if line.startswith(("FAILED", "ERROR")):
            return line.split(" - ")[0][:160]
    return "(error before the tests ran)" if "error" in output.lower() else ""


def listed_equivalents(doc: Path = COVERAGE_DOC) -> dict[str, str]:
    """{mutant id: reason} from the "Equivalent rule-code mutants" table of the doc."""
    text = doc.read_text("utf-8") if doc.exists() else ""
    start = text.find("### Equivalent rule-code mutants")
    out: dict[str, str] = {}
    if start < 0:
        return out
    for line in text[start:].split("\n")[1:]:
        if line.startswith("#"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 2 and cells[0].startswith("`") and cells[0].endswith("`"):
            out[cells[0].strip("`")] = cells[1]
    return out


def table(outcomes: list[Outcome]) -> str:
    rows: dict[str, Counter[str]] = defaultdict(Counter)
    for o in outcomes:
        rows[o.area][o.status] += 1
        rows["all"][o.status] += 1
    lines = ["| area | sampled | killed | equivalent | survived | score |",
             "|---|---|---|---|---|---|"]
    for area in [a for a in ("engine", "scoring") if a in rows] + ["all"]:
        c = rows[area]
        valid = c["killed"] + c["survived"]
        score = f"{100 * c['killed'] / valid:.1f}%" if valid else "-"
        lines.append(f"| {area} | {sum(c.values())} | {c['killed']} | {c['equivalent']} | "
                     f"{c['survived']} | {score} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--module", action="append", help="only this file (repeatable)")
    parser.add_argument("--sample", type=int, help="a seeded sample of this many mutants")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--id", action="append", help="only the mutant of this id")
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--json", type=Path)
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return _child(args.child)
    chosen = all_mutants(args.module)
    total = len(chosen)
    if args.id:
        chosen = [m for m in chosen if m.id in set(args.id)]
    if args.sample is not None and args.sample < len(chosen):
        chosen = random.Random(args.seed).sample(chosen, args.sample)
    if args.list:
        print("\n".join(m.id for m in chosen))
        print(f"{len(chosen)} of {total} mutants", file=sys.stderr)
        return 0
    equivalent = listed_equivalents()
    outcomes: list[Outcome] = []
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        for outcome in pool.map(lambda m: run_mutant(m, equivalent), chosen):
            outcomes.append(outcome)
            if args.verbose:
                print(f"{outcome.status:10} {outcome.id}  {outcome.by}  {outcome.seconds}s",
                      file=sys.stderr, flush=True)
    print(f"{len(chosen)} sampled of {total} mutants")
    print(table(outcomes))
    for o in outcomes:
        if o.status == "survived":
            print(f"SURVIVED {o.id}")
    if args.json:
        args.json.write_text(json.dumps([asdict(o) for o in outcomes], indent=1), "utf-8")
    return 1 if any(o.status == "survived" for o in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main())
