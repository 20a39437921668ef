"""Effects compiled to Python source (``dsl/pysource.py``) do what the closures do.

Random programs run twice in the same game, once as generated source and once as
closures: the same events, steps, variables and errors. Programs Python's compiler
refuses fall back to closures; nothing an author writes becomes a Python name.
"""

from __future__ import annotations

import ast as pyast
import json
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exlibris.agents import RandomAgent
from exlibris.catalog import load_catalog
from exlibris.dsl import ast, compiler, pysource
from exlibris.dsl.checker import Catalog as IdCatalog
from exlibris.dsl.checker import check_program, program_names
from exlibris.dsl.compiler import HELPERS, compile_expression, compile_program
from exlibris.dsl.errors import DslError, EffectError
from exlibris.dsl.parser import parse_program, parse_rule
from exlibris.engine import abilities
from exlibris.engine.abilities import abilities_of
from exlibris.engine.decisions import Decision, DecisionKind
from exlibris.engine.events import EventLog
from exlibris.engine.flow import new_game, play
from exlibris.engine.game import RulesError
from exlibris.validation import resolve_settings

CATALOG = load_catalog()
SETTINGS = resolve_settings("standard", CATALOG.variants)
IDS = IdCatalog(CATALOG.ids())


class Telling(RandomAgent):
    """A random agent that notes each ``choose one``: its labels and, per option, the
    names of the cards it is about (``option "..." about X``)."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.told: list[Any] = []

    def decide(self, view: Any, decision: Decision) -> int:
        if decision.kind is DecisionKind.OPTION:
            about = decision.about
            self.told.append((decision.labels, about if about is None
                              else [[c.name for c in cards] for cards in about]))
        return super().decide(view, decision)


def run_both(source: str, seed: int = 3) -> tuple[Any, Any]:
    """The outcome of ``source`` as a location effect, as source and as closures (with
    what the acting player was asked to choose between)."""
    program = parse_program(source)
    outcomes = []
    for python_after in (0, None):  # Python source at once, closures only
        handler = compile_program(program, "random-effect", python_after=python_after)
        agent = Telling(seed)
        game = new_game(CATALOG, SETTINGS, [agent, RandomAgent(seed + 1)],
                        seed=seed, log=EventLog(enabled=True))
        loc = game.state.in_play[0]
        names = game.names(0, this=loc, location=loc, visitor=0)
        try:
            env = handler(game.rt, game.player(0), names)
            result: Any = sorted((k, _shown(game.rt.read(v))) for k, v in env.vars.items())
        except (EffectError, RulesError) as exc:
            result = f"{type(exc).__name__}: {exc}"
        outcomes.append((result, game.ctx.steps,
                         json.dumps(game.log.records, sort_keys=True, default=str),
                         agent.told))
    assert handler.in_python is False
    return outcomes[0], outcomes[1]


def _shown(value: Any) -> str:
    """A value as text, without the addresses of objects that have no text of their own."""
    return re.sub(r" object at 0x[0-9a-f]+", "", repr(value))


_VALUES = ["0", "2", "-1", "999999999999", '"a"', "true", "hand", "shelf", "area", "deck",
           "me", "players", "opponents", "x", "y", "[1, 2]", "first(hand)", "count(hand)",
           "count(x)", "me.hand", "top(deck)", "here.spaces", "@monster-manuals",
           "categories(hand)", "hand where has(it, @monster-manuals)",
           "hand where c: c.vowel", "max(count(hand), 3, count(x))", "sum(hand, it.order)",
           "best(players, by: count(it.hand))", "x + y", "x | y", "x in y", "count(x) > 1",
           "first(x).letter", "y.letter", "not x", "x if count(hand) > 1 else y",
           "2 if x else count(deck)"]

_STATEMENTS = [
    "x = {v}", "y = {v}", "require {v}", "draw({v})", "x = draw({v})",
    "x = discard(any, from: {v})", "y = take(up to {v}, from: area)",
    "shelve(up to 1, from: {v})", "for each c in {v}:\n  y = c\n  draw(1)",
    "repeat {v} times:\n  x = count(hand)", "if {v}:\n  stop\nelif x:\n  y = 1\nelse:\n  y = 2",
    "as first(opponents):\n  y = draw({v})", "may:\n  x = draw(1)\n  y = {v}",
    'choose one:\n  option "one" if {v}: draw(1)\n  option "two": x = 3',
    'may:\n  choose one:\n    option "a": y = {v}\n    option "b": draw(2)\n  x = 5',
    'choose one:\n  option "one" about {v}: x = 1\n  option "two" about x if {v}: y = 2',
    'may:\n  choose one:\n    option "a" about {v}: y = 1\n    option "b": draw(2)',
    "give(1, from: hand, to: first(opponents))", "x = pay({v}, from: hand)",
]

programs = st.lists(st.builds(str.format, st.sampled_from(_STATEMENTS),
                              v=st.sampled_from(_VALUES)), min_size=1, max_size=6).map(
    lambda lines: "\n".join(lines) + "\n")


@settings(max_examples=120, deadline=None, database=None)
@given(programs, st.integers(0, 5))
def test_generated_source_and_closures_agree(source: str, seed: int) -> None:
    try:
        program = parse_program(source)
    except DslError:
        return
    if check_program(program, program_names(location=True), IDS):
        return
    python, closures = run_both(source, seed)
    assert python == closures, source


@pytest.mark.parametrize("source", [
    "x = 1\nmay:\n  x = draw(1)\ny = x\n",  # a name bound only on a path not taken
    "x = draw(2)\ndiscard(all, from: hand)\ny = count(x)\n",  # cards follow their zone
    'x = first(["a", 1])\ny = x + x\n',  # the closures' error, word for word
    "repeat 100000 times:\n  draw(0)\n",  # the step budget
    "x = 2\nrepeat 64 times:\n  x = x * x\n",
])
def test_edge_cases_agree(source: str) -> None:
    python, closures = run_both(source)
    assert python == closures


def test_options_name_the_cards_they_are_about_alike_as_source_and_closures() -> None:
    # names bound in the effect (Python locals in the generated source) and the
    # effect's own names reach the decision the same way, guard by guard
    source = ('x = draw(2)\n'
              'y = first(hand)\n'
              'may:\n'
              '  choose one:\n'
              '    option "keep x" about x:\n'
              '      draw(1)\n'
              '    option "never" about hand if count(x) > 5:\n'
              '      draw(1)\n'
              '    option "plain":\n'
              '      draw(1)\n'
              '    option "keep y" about y | top(deck):\n'
              '      draw(1)\n')
    python, closures = run_both(source, seed=4)
    assert python == closures
    ((labels, about),) = python[3]
    assert labels == ["keep x", "plain", "keep y", "do nothing"]
    drawn, plain, kept, decline = about
    assert len(drawn) == 2 and plain == [] and decline == [] and len(kept) == 2
    assert all(name for name in drawn + kept)


def test_every_shipped_effect_and_condition_runs_as_python() -> None:
    handlers = [compile_program(parse_program(loc.effect), loc.id)
                for loc in CATALOG.locations.values() if loc.effect]
    for key, entry in [*CATALOG.assistants.items(), *CATALOG.artifacts.items()]:
        for ability in abilities_of(key, entry.abilities):
            handlers += [h for h in (ability.effect, ability.condition, ability.score) if h]
            handlers += [rule.condition for rule in ability.rules]
    assert len(handlers) > 50
    assert all(h.in_python for h in handlers)


def test_programs_nested_too_deep_for_python_run_as_closures() -> None:
    # deeper than the parser lets an author write (its limit keeps within Python's)
    deep: ast.Expr = ast.Num(1)
    for _ in range(150):
        deep = ast.Neg(deep)
    handler = compile_expression(deep)
    assert handler.in_python is False  # Python refuses so many brackets
    assert handler(object(), None, {}) == 1
    program = compile_program(ast.Program([ast.Assign("x", deep)]))
    assert program.in_python is False
    game = new_game(CATALOG, SETTINGS, [RandomAgent(1), RandomAgent(2)], seed=1)
    assert program(game.rt, game.player(0), {}).vars == {"x": 1}


def test_nothing_an_author_writes_becomes_a_python_name() -> None:
    source = ('env = 1\nrt = env + 1\n__import__ = rt\n'
              'choose one:\n  option "\'); import os #": tick = __import__\n'
              'for each G in [hand where os: os.vowel]:\n  draw(count(G))\n')
    text = pysource.program_source(parse_program(source)).text
    own = {"_run", "env", "rt", "tick", "bind", "read", "G", "V", "i", *HELPERS,
           *HELPERS["__builtins__"]}
    names = {node.id for node in pyast.walk(pyast.parse(text)) if isinstance(node, pyast.Name)}
    names |= {a.arg for node in pyast.walk(pyast.parse(text))
              if isinstance(node, pyast.Lambda) for a in node.args.args}
    assert all(n in own or re.fullmatch(r"_[vgltk]\d+(_c)?", n) for n in names), names
    python, closures = run_both(source)
    assert python == closures
    assert ("tick", "2") in python[0]


def test_a_placement_rule_reads_names_set_between_calls() -> None:
    condition = compile_expression(parse_rule("deny if target == here").condition,
                                   python_after=0)
    names: dict[str, Any] = {"target": 1, "here": 1}
    assert condition(object(), None, names) is True
    names["here"] = 2
    assert condition(object(), None, names) is False


def test_a_handler_runs_as_closures_until_it_has_run_often() -> None:
    game = new_game(CATALOG, SETTINGS, [RandomAgent(1), RandomAgent(2)], seed=1)
    handler = compile_program(parse_program("x = count(hand) + 1\n"), python_after=2)
    names = game.names(0)
    hand = len(game.player(0).hand.cards)
    for _ in range(4):
        assert handler(game.rt, game.player(0), names).vars == {"x": hand + 1}
    assert handler._closures is not None  # the first two calls
    assert handler._by_class[type(game.rt)] is not handler._closures  # then the source


def _games_digest() -> str:
    """The event logs of a few whole games, two-player and with the modules' content."""
    logs = []
    for variant, seed in (("standard", 1), ("standard", 2), ("artifactorium", 3),
                          ("job-faire", 4)):
        game = new_game(CATALOG, resolve_settings(variant, CATALOG.variants),
                        [RandomAgent(seed), RandomAgent(seed + 1)], seed=seed,
                        log=EventLog(enabled=True))
        play(game)
        logs.append(json.dumps(game.log.records, sort_keys=True, default=str))
    return "\n".join(logs)


def test_whole_games_are_the_same_as_python_source_and_as_closures(
        monkeypatch: pytest.MonkeyPatch) -> None:
    digests = []
    for python_after in (0, None):  # everything as source at once; closures only
        monkeypatch.setattr(compiler, "PYTHON_AFTER", python_after)
        monkeypatch.setattr(abilities, "_COMPILED", {})
        monkeypatch.setattr(abilities, "_BY_LIST", {})
        abilities._location_effect.cache_clear()
        digests.append(_games_digest())
    abilities._location_effect.cache_clear()
    assert digests[0] == digests[1]
