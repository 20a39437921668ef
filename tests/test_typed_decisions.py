"""Decision kinds, pick purposes and event kinds are typed, and the bots read the types.

Games of every variant in ``rules/`` are played with the log on: every decision's
kind is a ``DecisionKind``, a pick says its ``Purpose``, a home action offers
``HomeAction`` members, and every record's kind is an ``EventKind`` with exactly
the fields ``event_records.py`` declares. The greedy bot, given decisions whose
labels, prompt and verb text raise, plays the same games as with them.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest

from exlibris.agents import GreedyAgent, RandomAgent
from exlibris.agents.view import player_view
from exlibris.catalog import load_catalog
from exlibris.engine.decisions import Decision, DecisionKind, HomeAction, Purpose
from exlibris.engine.event_records import RECORDS
from exlibris.engine.events import EventKind, EventLog
from exlibris.engine.flow import new_game, play
from exlibris.validation import resolve_settings

ROOT = Path(__file__).resolve().parent.parent
CATALOG = load_catalog()
VARIANTS = sorted(CATALOG.variants)


class Checking:
    """Answers like a random bot, checking the types of each decision first."""

    def __init__(self, seed: int, seen: set[DecisionKind]) -> None:
        self.inner = RandomAgent(seed)
        self.seen = seen

    def decide(self, view: Any, decision: Decision) -> int:
        assert type(decision.kind) is DecisionKind, decision
        self.seen.add(decision.kind)
        if decision.kind is DecisionKind.PICK:
            assert type(decision.purpose) is Purpose, decision.data
        else:
            assert decision.purpose is None, decision
        if decision.kind is DecisionKind.HOME_ACTION:
            assert all(type(v) is HomeAction for v in decision.values)
        if decision.kind is DecisionKind.POSITION:
            assert decision.card is not None
        return self.inner.decide(view, decision)


def check_record(record: dict[str, Any]) -> None:
    kind = record["event"]
    assert type(kind) is EventKind, record
    declared = RECORDS[kind]
    fields = set(record) - {"n", "event"}
    missing = declared.__required_keys__ - fields
    extra = fields - declared.__required_keys__ - declared.__optional_keys__
    assert not missing and not extra, (record, missing, extra)


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_decision_and_event_of_every_variant_is_typed(variant: str) -> None:
    settings = resolve_settings(variant, CATALOG.variants)
    seen: set[DecisionKind] = set()
    events: set[EventKind] = set()
    for n in sorted({settings.players[0], settings.players[-1]}):
        for seed in range(2):
            log = EventLog(enabled=True)
            game = new_game(CATALOG, settings, [Checking(seed * 10 + i, seen) for i in range(n)],
                            seed=seed, log=log, variant=variant)
            play(game)
            for record in log.records:
                check_record(record)
                events.add(record["event"])
            # written as before: the kinds as their plain strings
            line = json.loads(json.dumps(log.records[0], sort_keys=True))
            assert line["event"] == str(log.records[0]["event"])
    assert {DecisionKind.PLACE, DecisionKind.POSITION} <= seen
    assert {EventKind.DECISION, EventKind.ROUND, EventKind.INSPECTION} <= events


def _first_args(call: str, index: int, on: str = "") -> list[tuple[str, int, ast.expr]]:
    """The ``index``-th argument of every ``<on>.<call>(...)`` in exlibris/."""
    found = []
    for path in sorted((ROOT / "exlibris").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == call and len(node.args) > index
                    and ast.unparse(node.func.value).endswith(on)):
                found.append((path.name, node.lineno, node.args[index]))
    return found


ENGINE = {p.name for p in (ROOT / "exlibris" / "engine").glob("*.py")} | {"position.py"}


def _member(arg: ast.expr, enum: str, aliases: dict[str, str] | None = None) -> bool:
    """``enum.MEMBER``, or a module name bound to one (``_PICK = DecisionKind.PICK``)."""
    if isinstance(arg, ast.Name) and aliases is not None:
        return aliases.get(arg.id) == enum
    return (isinstance(arg, ast.Attribute) and isinstance(arg.value, ast.Name)
            and arg.value.id == enum)


def _aliases(name: str) -> dict[str, str]:
    """The module-level names of ``exlibris/engine/NAME`` bound to enum members, with
    the enum of each."""
    found: dict[str, str] = {}
    for node in ast.parse((ROOT / "exlibris" / "engine" / name).read_text("utf-8")).body:
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        target, value = node.targets[0], node.value
        pairs = zip(target.elts, value.elts, strict=False) \
            if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) \
            else [(target, value)]
        for alias, member in pairs:
            if isinstance(alias, ast.Name) and isinstance(member, ast.Attribute) \
                    and isinstance(member.value, ast.Name):
                found[alias.id] = member.value.id
    return found


def test_every_ask_and_event_call_names_a_member() -> None:
    """No call site passes a bare string: the enums are the whole list of kinds."""
    asks = _first_args("ask", 1)
    events = _first_args("event", 0) + _first_args("add", 0, "log")  # Game.event, EventLog.add
    assert len(asks) > 20 and len(events) > 50
    aliases = {f: _aliases(f) for f in ENGINE if (ROOT / "exlibris" / "engine" / f).exists()}
    bare = [(f, line) for f, line, arg in asks
            if f in ENGINE and not _member(arg, "DecisionKind", aliases.get(f))]  # Game.ask's
    bare += [(f, line) for f, line, arg in events
             if not _member(arg, "EventKind") and f in ENGINE
             and not (isinstance(arg, ast.Name) and arg.id == "kind")]  # Game.event
    assert not bare
    named = {arg.attr for _, _, arg in events if _member(arg, "EventKind")}
    assert named == {k.name for k in EventKind}  # and no member is left unused


def test_record_declarations_cover_every_event_kind() -> None:
    assert set(RECORDS) == set(EventKind)


# ---------------------------------------------------------------------- greedy is blind
class NoVerb(dict[str, Any]):
    """A decision's data whose label text (``verb``) may not be read."""

    def __getitem__(self, key: str) -> Any:
        assert key != "verb", "the greedy bot read the verb text"
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        assert key != "verb", "the greedy bot read the verb text"
        return super().get(key, default)


def _no_label(value: Any) -> str:
    raise AssertionError("the greedy bot read a label")


class Blind(Decision):
    """A decision whose labels and prompt raise when read."""

    __slots__ = ()

    @property  # type: ignore[override]
    def prompt(self) -> str:
        raise AssertionError("the greedy bot read the prompt")

    @prompt.setter
    def prompt(self, value: str) -> None:
        pass

    @property
    def labels(self) -> list[str]:
        raise AssertionError("the greedy bot read the labels")

    def label(self, index: int) -> str:
        raise AssertionError("the greedy bot read a label")


class BlindGreedy(GreedyAgent):
    def decide(self, view: Any, decision: Decision) -> int:
        blind = Blind(decision.seat, decision.kind, "", decision.handles, _no_label,
                      data=NoVerb(decision.data))
        return super().decide(view, blind)


@pytest.mark.parametrize("variant", ["standard", "expanded", "solo-expanded"])
def test_the_greedy_bot_reads_no_label(variant: str) -> None:
    settings = resolve_settings(variant, CATALOG.variants)
    n = settings.players[0]
    for seed in range(2):
        outcomes = []
        for greedy in (BlindGreedy, GreedyAgent):
            agents = [greedy(seed) if i == 0 else RandomAgent(seed + i) for i in range(n)]
            game = new_game(CATALOG, settings, agents, seed=seed, views=player_view,
                            variant=variant)
            outcome = play(game)
            outcomes.append((outcome.decisions, [f.total for f in outcome.inspection.forms]))
        assert outcomes[0] == outcomes[1]
