"""Mutation testing of the shipped content: change one thing in an effect, see a test fail.

Every source field of the shipped content (``effect:``, ``when:``, ``placement:``,
``score:``) is lexed and parsed with the effect language's own parser
(``exlibris/dsl/lark_parser.py``), and each mutant changes one thing in it:

- ``int``: a number one more, or one less;
- ``verb``: a verb or function for a sibling (``take`` for ``discard``, ``hire`` for
  ``borrow``, ``min`` for ``max``...), a trigger's ``after`` for ``before``;
- ``selector``: a name for another of its type (``hand`` for ``shelf``, ``me`` for
  ``owner``), a category for another, ``any`` for ``all``, ``up to`` for ``at least``, a
  trigger's subject, span (``once per turn``), phase (``during placement``) or a
  placement rule's kind, a string option (``"clockwise"``);
- ``condition``: a condition negated (``if``, ``require``, an option's guard, a
  trigger's ``if``, a placement rule, a ``where``), a ``not`` dropped, ``and`` for
  ``or``, a comparison for its neighbour (``>`` for ``>=``), ``true`` for ``false``,
  ``+`` for ``-``;
- ``line``: a statement (with its block) dropped.

A mutant is written as an author's file with the entry's id, so that it replaces
the shipped entry (``--content``), and is checked with ``exlibris validate``'s checks:
one that no longer validates is counted apart (``invalid``) and not run. Each valid
mutant is run against the shipped scenarios (those naming the entry first) and the
golden playthroughs (``tests/test_goldens.py``), in process, stopping at the first
that fails: the mutant is then killed. A mutant that every one passes survives,
unless ``docs/rules-coverage.md`` lists it as equivalent, with the reason, in the
table under "Equivalent content mutants".

    python scripts/mutate_content.py                     # every mutant, a summary
    python scripts/mutate_content.py --entry gambling-den --entry snowman
    python scripts/mutate_content.py --sample 40 --seed 3 # a seeded sample
    python scripts/mutate_content.py --list               # the mutants, not run
    python scripts/mutate_content.py --jobs 2 --json out.json

Exit status 0 when no mutant survives (equivalents aside), 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]

from ruamel.yaml import YAML  # noqa: E402
from ruamel.yaml.scalarstring import LiteralScalarString  # noqa: E402

COVERAGE_DOC = ROOT / "docs" / "rules-coverage.md"
SOURCE_FIELDS = {"effect": "program", "when": "trigger", "placement": "rule",
                 "score": "expression"}
AREAS = ("locations", "libraries", "assistants", "artifacts")
TIMEOUT_SECONDS = 60  # of CPU time: a mutant that loops is killed

# Words that may stand for one another: each group's members are siblings.
SIBLINGS: tuple[tuple[str, ...], ...] = (
    ("take", "discard", "shelve", "reveal", "choose", "tuck", "give"),
    ("draw", "home_actions", "pay"),
    ("hire", "borrow"),
    ("flip", "entomb", "levitate", "replace_shelved"),
    ("home_action", "both_home_actions", "become_first_player", "shift_row",
     "rearrange_shelf", "skip_location"),
    ("place_assistant", "return_assistant", "retire"),
    ("comes_before", "comes_after", "shelved_before", "shelved_after"),
    ("min", "max"),
    ("players", "players_here"),
    ("empty_spaces", "occupied_spaces"),
    ("adjacent", "tucked", "entombed", "top"),
    ("first", "random"),
    ("count", "complete_sets"),
    ("categories", "letters"),
    ("next_letter",),
    # names that are always there, by type
    ("me", "owner", "visitor"),
    ("hand", "shelf", "deck", "discard_pile", "area"),
)
SUBJECTS = ("this", "me", "owner", "opponent", "anyone")
SPANS = ("turn", "round", "game")
PHASES = ("preparation", "placement", "resolution")
RULE_KINDS = ("deny", "allow", "share")
STRINGS = (('"clockwise"', '"counterclockwise"'), ('"swap"', '"hand"', '"move"'))
COMPARISONS = {"==": ("!=",), "!=": ("==",), "<": ("<=", ">"), "<=": ("<", ">="),
               ">": (">=", "<"), ">=": (">", "<=")}
CONDITION_NODES = {"if_stmt": 0, "elif_clause": 0, "require_stmt": 0, "guard": 0,
                   "condition": 0, "rule": 1}
STATEMENTS = {"assign", "call_stmt", "may_stmt", "require_stmt", "stop_stmt", "if_stmt",
              "for_stmt", "repeat_stmt", "may_block", "as_block", "choose_stmt"}


@dataclass(frozen=True)
class Site:
    """One source field of a shipped entry."""

    area: str
    entry: str  # the entry's id
    file: Path
    path: tuple[Any, ...]  # where the text is in the file's data
    start: str  # the grammar's start rule
    text: str
    when: str = ""  # the ``when:`` of the ability an ``effect:`` belongs to

    @property
    def label(self) -> str:
        return f"{self.entry}:" + ".".join(str(p) for p in self.path)


@dataclass(frozen=True)
class Mutant:
    """One change to one site."""

    site: Site
    operator: str  # int, verb, selector, condition, line
    line: int  # 1-based, within the source text
    col: int
    was: str
    now: str
    text: str  # the mutated source

    @property
    def id(self) -> str:
        now = " ".join(self.now.split())[:40] or "(dropped)"
        return f"{self.site.label}@{self.line}:{self.col} {self.operator} {now}"


@dataclass
class Outcome:
    id: str
    area: str
    entry: str
    operator: str
    status: str  # killed, survived, invalid, equivalent, unchanged
    by: str = ""  # the scenario or golden mode that failed, or the reason
    seconds: float = 0.0


# ------------------------------------------------------------------ finding the sites
def _area(file: Path) -> str:
    parts = file.relative_to(ROOT).parts
    return parts[1] if len(parts) > 2 and parts[0] == "content" else parts[0]


def _walk_fields(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], str,
                                                                          str]]:
    if isinstance(data, dict):
        for key, value in data.items():
            start = SOURCE_FIELDS.get(key) if isinstance(key, str) else None
            if start == "rule" and isinstance(value, list):
                for i, rule in enumerate(value):
                    if isinstance(rule, str):
                        yield (*path, key, i), start, rule
            elif start is not None and isinstance(value, str):
                yield (*path, key), start, value
            else:
                yield from _walk_fields(value, (*path, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _walk_fields(value, (*path, i))


def sites(entries: set[str] | None = None) -> list[Site]:
    """Every source field of the shipped content (of ``entries`` only, if given)."""
    yaml = YAML(typ="safe")
    found: list[Site] = []
    for file in sorted((ROOT / "content").rglob("*.yaml")):
        data = yaml.load(file.read_text("utf-8"))
        if not isinstance(data, dict) or "id" not in data:
            continue
        if entries is not None and data["id"] not in entries:
            continue
        for path, start, text in _walk_fields(data):
            holder = data
            for key in path[:-1]:
                holder = holder[key]
            when = holder.get("when", "") if start == "program" else ""
            found.append(Site(_area(file), data["id"], file, path, start, text,
                              when if isinstance(when, str) else ""))
    return found


# ------------------------------------------------------------------ making the mutants
def _parser() -> Any:
    from exlibris.dsl.lark_parser import _parser as parser

    return parser()


def _position(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _siblings(word: str) -> list[str]:
    out: list[str] = []
    for group in SIBLINGS:
        if word in group:
            out += [w for w in group if w != word and w not in out]
    return out


def _lexed(text: str) -> list[Any]:
    try:
        return list(_parser().lex(text, dont_ignore=False))
    except Exception:  # a text the basic lexer cannot split: no token mutants
        return []


def _token_edits(site: Site, codes: list[str]) -> Iterator[tuple[str, int, int, str]]:
    """(operator, start, end, replacement) for each one-token change."""
    tokens = _lexed(site.text)
    for i, tok in enumerate(tokens):
        kind, value = tok.type, str(tok)
        before = str(tokens[i - 1]) if i else ""
        after = tokens[i + 1] if i + 1 < len(tokens) else None
        s, e = tok.start_pos, tok.end_pos
        if kind == "INT":
            yield "int", s, e, str(int(value) + 1)
            if int(value) > 0:
                yield "int", s, e, str(int(value) - 1)
        elif kind == "COMP_OP":
            for other in COMPARISONS[value]:
                yield "condition", s, e, other
        elif kind in ("PLUS", "MINUS"):
            yield "condition", s, e, "-" if value == "+" else "+"
        elif kind in ("AND", "OR"):
            yield "condition", s, e, "or" if value == "and" else "and"
        elif kind in ("TRUE", "FALSE"):
            yield "condition", s, e, "false" if value == "true" else "true"
        elif kind == "NOT" and after is not None and str(after) != "in":
            yield "condition", s, after.start_pos, ""
        elif kind in ("ANY", "ALL"):
            yield "selector", s, e, "all" if value == "any" else "any"
        elif kind == "UP" and after is not None and str(after) == "to":
            yield "selector", s, after.end_pos, "at least"
        elif kind == "AT" and after is not None and str(after) == "least":
            yield "selector", s, after.end_pos, "up to"
        elif kind in ("AFTER", "BEFORE") and site.start == "trigger":
            yield "verb", s, e, "before" if value == "after" else "after"
        elif kind == "RULE_KIND":
            for other in RULE_KINDS:
                if other != value:
                    yield "selector", s, e, other
        elif kind == "STRING":
            for group in STRINGS:
                if value in group:
                    for other in group:
                        if other != value:
                            yield "selector", s, e, other
        elif kind == "ID" and re.fullmatch(r"@[A-Z]", value):
            for code in codes:
                if code != value[1:]:
                    yield "selector", s, e, "@" + code
        elif kind in ("NAME", "BINDER") and not value.endswith(":"):
            if before == "per" and value in SPANS:
                yield from (("selector", s, e, w) for w in SPANS if w != value)
            elif before == "during" and value in PHASES:
                yield from (("selector", s, e, w) for w in PHASES if w != value)
            elif before == "by" and site.start == "trigger" and value in SUBJECTS:
                yield from (("selector", s, e, w) for w in SUBJECTS if w != value)
            elif before != ".":
                calls = after is not None and str(after) == "("
                for other in _siblings(value):
                    yield ("verb" if calls else "selector"), s, e, other


def _span(node: Any) -> tuple[int, int] | None:
    from lark import Token

    if isinstance(node, Token):
        return node.start_pos, node.end_pos
    meta = getattr(node, "meta", None)
    if meta is None or getattr(meta, "empty", True):
        return None
    return meta.start_pos, meta.end_pos


def _tree_edits(site: Site) -> Iterator[tuple[str, int, int, str]]:
    """Conditions negated and statements dropped, found in the parse tree."""
    from lark import Tree

    tree = _parser().parse(site.text, start=site.start)
    lines = site.text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    for node in tree.iter_subtrees():
        index = CONDITION_NODES.get(node.data)
        if node.data in ("where", "where_named"):
            index = len(node.children) - 1
        if index is not None and index < len(node.children):
            span = _span(node.children[index])
            if span is not None:
                s, e = span
                yield "condition", s, e, f"not ({site.text[s:e]})"
        if node.data in STATEMENTS and isinstance(node, Tree):
            span = _span(node)
            if span is None or site.start != "program":
                continue
            line = node.meta.line
            first = offsets[line - 1]
            if site.text[first:span[0]].strip():
                continue  # shares its line with the block's head: not a line of its own
            last = node.meta.end_line
            end = offsets[min(last, len(lines))]
            if site.text[span[1]:end].strip() and last == line:
                continue
            yield "line", first, end, ""


def mutants(site: Site, codes: list[str]) -> list[Mutant]:
    """Every mutant of one site, in the order of the text."""
    edits = list(_token_edits(site, codes)) + list(_tree_edits(site))
    seen: set[str] = set()
    out: list[Mutant] = []
    for operator, s, e, now in sorted(edits, key=lambda x: (x[1], x[0], x[3])):
        text = site.text[:s] + now + site.text[e:]
        if text in seen or text == site.text:
            continue
        seen.add(text)
        line, col = _position(site.text, s)
        out.append(Mutant(site, operator, line, col, site.text[s:e], now, text))
    return out


def category_codes() -> list[str]:
    yaml = YAML(typ="safe")
    data = yaml.load((ROOT / "content" / "categories.yaml").read_text("utf-8"))
    return [c["code"] for c in data.get("categories", [])]


# ------------------------------------------------------------------ running a mutant
def write_mutant(mutant: Mutant, folder: Path) -> Path:
    """The entry's file with the mutated source, in ``folder``."""
    yaml = YAML()
    yaml.preserve_quotes = True
    yaml.width = 4096
    data = yaml.load(mutant.site.file.read_text("utf-8"))
    node = data
    for key in mutant.site.path[:-1]:
        node = node[key]
    text = mutant.text
    node[mutant.site.path[-1]] = LiteralScalarString(text) if "\n" in text.strip() else (
        text.strip() if mutant.site.start != "program" else LiteralScalarString(text))
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / mutant.site.file.name
    with target.open("w", encoding="utf-8") as out:
        yaml.dump(data, out)
    return target


# Swaps that cannot change what an effect does, and why (docs/language.md names them).
SAME_PLAYER = {"me", "owner", "visitor"}
EQUIVALENT_RULES = {
    "subject": "a trigger's subjects `me` and `owner` are one subject: any of the owner's "
               "doings (docs/language.md, triggers)",
    "location": "outside an `as` block of a location's effect, `me`, `owner` and `visitor` "
                "are one player: the visitor, whose effect it is",
    "ability": "outside an `as` block of an ability's effect, `me` and `owner` are one "
               "player: the owner, who acts",
    "placed": "in an ability that wakes when its own assistant is placed, the visitor "
              "(whose assistant arrived) is its owner",
}


def equivalent_by_rule(mutant: Mutant) -> str | None:
    """The reason a mutant is equivalent by one of EQUIVALENT_RULES, else None."""
    was, now = mutant.was.strip(), mutant.now.strip()
    if mutant.operator != "selector" or {was, now} - SAME_PLAYER:
        return None
    site = mutant.site
    if site.start == "trigger":
        return EQUIVALENT_RULES["subject"] if {was, now} == {"me", "owner"} else None
    if site.start != "program":
        return None
    if site.when.startswith("placed") and {was, now} == {"owner", "visitor"}:
        return EQUIVALENT_RULES["placed"]
    if _inside_as(site.text, _offset(site.text, mutant)):
        return None
    if site.when.startswith("placed"):
        return EQUIVALENT_RULES["placed"] if "visitor" in (was, now) else \
            EQUIVALENT_RULES["ability"]
    if site.area == "locations":
        return EQUIVALENT_RULES["location"]
    return EQUIVALENT_RULES["ability"] if {was, now} == {"me", "owner"} else None


def _offset(text: str, mutant: Mutant) -> int:
    lines = text.split("\n")
    return sum(len(line) + 1 for line in lines[:mutant.line - 1]) + mutant.col - 1


def _inside_as(text: str, offset: int) -> bool:
    """Whether ``offset`` is in the body of an ``as`` block (where ``me`` changes)."""
    tree = _parser().parse(text, start="program")
    for node in tree.find_data("as_block"):
        body = _span(node.children[-1])
        if body is not None and body[0] <= offset < body[1]:
            return True
    return False


def _ast_unchanged(mutant: Mutant) -> bool:
    """Whether the mutated text parses to the same tree (a change of layout only)."""
    from exlibris.dsl.lark_parser import parse

    try:
        return _strip(parse(mutant.text, mutant.site.start)) == _strip(
            parse(mutant.site.text, mutant.site.start))
    except Exception:
        return False


def _strip(node: Any) -> Any:
    from exlibris.dsl import ast

    if isinstance(node, list | tuple):
        return [_strip(n) for n in node]
    if isinstance(node, ast.Node):
        return (type(node).__name__, *(_strip(getattr(node, s)) for s in node.__slots__
                                       if s not in ("line", "col", "end_line", "end_col")))
    return node


class _Timeout(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Timeout


def _names(path: Path, entry: str, names: dict[str, str]) -> bool:
    text = path.read_text("utf-8")
    return entry in text or (entry in names and names[entry] in text)


def _scenarios_for(entry: str, names: dict[str, str]) -> list[Path]:
    """The shipped scenarios, those that name the entry (by id or name) first."""
    from exlibris.scenario import scenario_files

    files = scenario_files([ROOT / "scenarios"])
    return sorted(files, key=lambda p: (not _names(p, entry, names), str(p)))


def _entry_names() -> dict[str, str]:
    yaml = YAML(typ="safe")
    names: dict[str, str] = {}
    for file in (ROOT / "content").rglob("*.yaml"):
        data = yaml.load(file.read_text("utf-8"))
        if isinstance(data, dict) and "id" in data and "name" in data:
            names[data["id"]] = str(data["name"])
    return names


def _scenario_failure(path: Path) -> str | None:
    from exlibris.scenario import load_scenario, run_scenario

    try:
        result = run_scenario(load_scenario(path))
    except _Timeout:
        raise
    except Exception as exc:  # a crash fails the test as surely as a difference
        return f"{path.relative_to(ROOT)} ({type(exc).__name__})"
    return None if result.passed else str(path.relative_to(ROOT))


def first_failure(entry: str, names: dict[str, str]) -> str | None:
    """The first scenario or golden mode that fails with the content now in use: the
    scenarios that name the entry, then the goldens (those whose games name it first),
    then the other scenarios."""
    import goldens

    from exlibris.catalog import load_catalog

    ordered = _scenarios_for(entry, names)
    naming = [p for p in ordered if _names(p, entry, names)]
    for path in naming:
        failed = _scenario_failure(path)
        if failed is not None:
            return failed
    catalog = load_catalog()
    for mode in sorted(goldens.MODES,  # the order only: a mutant any of them fails is killed
                       key=lambda m: not _names(goldens.path_of(m), entry, names)):
        try:
            difference = goldens.replay(catalog, mode, goldens.path_of(mode).read_text("utf-8"))
        except _Timeout:
            raise
        except Exception as exc:
            return f"tests/goldens/{mode.name}.txt ({type(exc).__name__})"
        if difference is not None:
            return f"tests/goldens/{mode.name}.txt"
    failed = _reading_failure()
    if failed is not None:
        return failed
    for path in ordered[len(naming):]:
        failed = _scenario_failure(path)
        if failed is not None:
            return failed
    return None


def _reading_failure() -> str | None:
    """The first case of ``tests/test_engine_rules.py::test_the_other_reading_of_each_
    ruling_setting`` that fails: the readings of ``rules/standard.yaml``'s ``rulings:``
    no shipped rules file chooses (a scenario run with the setting changed)."""
    from exlibris.scenario import load_scenario, run_scenario

    if str(ROOT / "tests") not in sys.path:
        sys.path.append(str(ROOT / "tests"))
    import test_engine_rules

    test = "tests/test_engine_rules.py::test_the_other_reading_of_each_ruling_setting"
    with tempfile.TemporaryDirectory() as folder:
        for case, (rulings, body) in test_engine_rules.OTHER_READINGS.items():
            path = Path(folder) / "reading.yaml"
            path.write_text(f"kind: scenario\nname: {json.dumps(case)}\n{body}", "utf-8")
            try:
                scenario = load_scenario(path)
                scenario.settings = scenario.settings.model_copy(
                    update={"rulings": {**scenario.settings.rulings, **rulings}})
                passed = run_scenario(scenario).passed
            except _Timeout:
                raise
            except Exception:
                passed = False
            if not passed:
                return f"{test}[{case}]"
    return None


def run_mutant(mutant: Mutant, folder: Path, names: dict[str, str],
               equivalent: dict[str, str]) -> Outcome:
    from exlibris import catalog as catalog_module
    from exlibris.catalog import own_files
    from exlibris.sources import use_content
    from exlibris.validation import validate

    started = time.perf_counter()
    outcome = Outcome(mutant.id, mutant.site.area, mutant.site.entry, mutant.operator, "")
    if _ast_unchanged(mutant):
        outcome.status = "unchanged"
        return outcome
    reason = equivalent_by_rule(mutant)
    if reason is not None:
        outcome.status, outcome.by = "equivalent", reason
        return outcome
    path = write_mutant(mutant, folder)
    report = validate(own_files([path]))
    if not report.ok:
        outcome.status, outcome.by = "invalid", report.problems[0].code
        return outcome
    use_content([path])
    catalog_module._load.cache_clear()
    # a limit on the CPU time this process spends (not the wall clock: a loaded machine
    # must not turn a slow survivor into a "killed")
    previous = signal.signal(signal.SIGVTALRM, _alarm)
    signal.setitimer(signal.ITIMER_VIRTUAL, TIMEOUT_SECONDS)
    try:
        failed = first_failure(mutant.site.entry, names)
    except _Timeout:
        failed = "timeout"
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        signal.signal(signal.SIGVTALRM, previous)
        use_content(())
        catalog_module._load.cache_clear()
    if failed is not None:
        outcome.status, outcome.by = "killed", failed
    elif mutant.id in equivalent:
        outcome.status, outcome.by = "equivalent", equivalent[mutant.id]
    else:
        outcome.status = "survived"
    outcome.seconds = round(time.perf_counter() - started, 2)
    return outcome


def listed_equivalents(doc: Path = COVERAGE_DOC) -> dict[str, str]:
    """{mutant id: reason} from the "Equivalent content mutants" table of the doc."""
    if not doc.exists():
        return {}
    text = doc.read_text("utf-8")
    start = text.find("### Equivalent content mutants")
    if start < 0:
        return {}
    out: dict[str, str] = {}
    for line in text[start:].split("\n")[1:]:
        if line.startswith("#"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 2 and cells[0].startswith("`") and cells[0].endswith("`"):
            out[cells[0].strip("`")] = cells[1]
    return out


# ------------------------------------------------------------------ the run
@dataclass
class Summary:
    outcomes: list[Outcome] = field(default_factory=list)

    def table(self) -> str:
        rows = defaultdict(Counter)
        for o in self.outcomes:
            rows[o.area][o.status] += 1
            rows["all"][o.status] += 1
        cols = ("mutants", "invalid", "unchanged", "killed", "equivalent", "survived", "score")
        lines = ["| area | " + " | ".join(cols) + " |", "|---" * (len(cols) + 1) + "|"]
        for area in [*[a for a in AREAS if a in rows], "all"]:
            c = rows[area]
            valid = c["killed"] + c["survived"]
            score = f"{100 * c['killed'] / valid:.1f}%" if valid else "-"
            lines.append(f"| {area} | {sum(c.values())} | {c['invalid']} | {c['unchanged']} | "
                         f"{c['killed']} | {c['equivalent']} | {c['survived']} | {score} |")
        return "\n".join(lines)

    @property
    def survivors(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.status == "survived"]

    def score(self) -> float:
        killed = sum(o.status == "killed" for o in self.outcomes)
        valid = killed + len(self.survivors)
        return killed / valid if valid else 1.0


def _work(args: tuple[Mutant, str, dict[str, str], dict[str, str]]) -> Outcome:
    mutant, folder, names, equivalent = args
    return run_mutant(mutant, Path(folder) / str(os.getpid()), names, equivalent)


def all_mutants(entries: set[str] | None = None) -> list[Mutant]:
    codes = category_codes()
    return [m for site in sites(entries) for m in mutants(site, codes)]


def run(chosen: list[Mutant], jobs: int = 1, progress: bool = False) -> Summary:
    names = _entry_names()
    equivalent = listed_equivalents()
    summary = Summary()
    with tempfile.TemporaryDirectory(prefix="exlibris-mutants-") as folder:
        work = [(m, folder, names, equivalent) for m in chosen]
        if jobs > 1:
            import multiprocessing

            with multiprocessing.get_context("fork").Pool(jobs) as pool:
                results = pool.imap(_work, work)
                for outcome in results:
                    summary.outcomes.append(outcome)
                    if progress:
                        _show(outcome)
        else:
            for item in work:
                outcome = _work(item)
                summary.outcomes.append(outcome)
                if progress:
                    _show(outcome)
    return summary


def _show(outcome: Outcome) -> None:
    print(f"{outcome.status:10} {outcome.id}  {outcome.by}", file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entry", action="append", help="only this entry id (repeatable)")
    parser.add_argument("--operator", action="append",
                        help="only this operator: int, verb, selector, condition, line")
    parser.add_argument("--ids", type=Path,
                        help="only the mutants whose ids are the lines of this file")
    parser.add_argument("--sample", type=int, help="a seeded sample of this many mutants")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--list", action="store_true", help="list the mutants, run none")
    parser.add_argument("--json", type=Path, help="write every outcome here")
    parser.add_argument("-v", "--verbose", action="store_true", help="each outcome as it comes")
    args = parser.parse_args(argv)
    os.environ.setdefault("EXLIBRIS_NO_CACHE", "0")
    chosen = all_mutants(set(args.entry) if args.entry else None)
    if args.operator:
        chosen = [m for m in chosen if m.operator in args.operator]
    if args.ids:
        wanted = {line.strip() for line in args.ids.read_text("utf-8").splitlines()}
        chosen = [m for m in chosen if m.id in wanted]
    if args.sample is not None and args.sample < len(chosen):
        chosen = random.Random(args.seed).sample(chosen, args.sample)
    if args.list:
        for m in chosen:
            print(m.id)
        print(f"{len(chosen)} mutants", file=sys.stderr)
        return 0
    summary = run(chosen, args.jobs, args.verbose)
    print(summary.table())
    for o in summary.survivors:
        print(f"SURVIVED {o.id}")
    if args.json:
        args.json.write_text(json.dumps([asdict(o) for o in summary.outcomes], indent=1),
                             "utf-8")
    return 1 if summary.survivors else 0


if __name__ == "__main__":
    sys.exit(main())
