"""The ``.pxd`` files beside the compiled modules agree with the Python classes.

``hatch_build.py`` compiles some modules with Cython, and a ``.pxd`` beside a module
turns the classes it names into extension types with the attributes it declares.
A compiled class has only those attributes, and a typed one only holds its type, so:

* every ``.pxd`` belongs to a module the build compiles;
* each declared class declares exactly its ``__slots__``, and the same base, and no
  subclass in the package redefines one of those attributes;
* in whole games of every mode, each typed attribute holds a value of its type
  (or None) at every decision: what the compiled build would refuse at run time is
  caught here, in plain Python.
"""

from __future__ import annotations

import importlib
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from exlibris.agents import GreedyAgent, RandomAgent
from exlibris.agents.view import player_view
from exlibris.catalog import load_catalog
from exlibris.engine import flow
from exlibris.engine.decisions import Decision
from exlibris.engine.game import Game
from exlibris.validation import resolve_settings

ROOT = Path(__file__).resolve().parent.parent
PXD_FILES = sorted((ROOT / "exlibris").rglob("*.pxd"))
CLASS = re.compile(r"^cdef class (\w+)(?:\((\w+)\))?:$")
ATTRIBUTES = re.compile(r"^    cdef public (\w+) ([\w, ]+)$")
# the C and builtin types a declaration may use, and what a value of each must be
EXACT = {"list": list, "dict": dict, "set": set, "tuple": tuple, "frozenset": frozenset,
         "bint": bool}


def module_of(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def declared(path: Path) -> dict[str, tuple[str | None, dict[str, str]]]:
    """Each class the file declares: its base, and its attributes with their types."""
    classes: dict[str, tuple[str | None, dict[str, str]]] = {}
    attributes: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if match := CLASS.match(line):
            attributes = {}
            classes[match[1]] = (match[2], attributes)
        elif match := ATTRIBUTES.match(line):
            for name in match[2].split(","):
                attributes[name.strip()] = match[1]
        else:
            assert not line.startswith("    cdef"), f"{path.name}: unread line {line!r}"
    return classes


DECLARED = {(module_of(path), name): found
            for path in PXD_FILES for name, found in declared(path).items()}


CLASSES = {name: module for module, name in DECLARED}  # a declared class's module


def test_there_are_declarations() -> None:
    assert PXD_FILES and ("exlibris.engine.game", "Game") in DECLARED


@pytest.mark.parametrize("path", PXD_FILES, ids=lambda p: module_of(p))
def test_each_pxd_belongs_to_a_compiled_module(path: Path) -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    modules = config["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["custom"]["modules"]
    assert module_of(path) in modules


@pytest.mark.parametrize("module, name", sorted(DECLARED), ids=lambda x: str(x))
def test_declared_attributes_are_the_slots(module: str, name: str) -> None:
    cls = getattr(importlib.import_module(module), name)
    base, attributes = DECLARED[module, name]
    assert set(attributes) == set(cls.__dict__.get("__slots__", ())), \
        f"{module}.{name}: the .pxd and __slots__ name different attributes"
    assert cls.__bases__[0].__name__ == (base or "object")


@pytest.mark.parametrize("module, name", sorted(DECLARED), ids=lambda x: str(x))
def test_no_subclass_in_the_package_redefines_a_declared_attribute(module: str, name: str
                                                                   ) -> None:
    """A compiled class's methods read its declared attributes as fields: a subclass
    that made one a property (as ``ShelfZone`` does with ``Zone.cards``) would be
    bypassed."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    for compiled in config["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["custom"][
            "modules"]:
        importlib.import_module(compiled)
    cls = getattr(importlib.import_module(module), name)
    attributes = set(DECLARED[module, name][1])
    stack = list(cls.__subclasses__())
    while stack:
        sub = stack.pop()
        stack += sub.__subclasses__()
        if sub.__module__.startswith("exlibris."):
            assert not attributes & set(vars(sub)), f"{sub.__qualname__} redefines one"


def _declared_type(cls: type) -> dict[str, str] | None:
    return DECLARED.get((cls.__module__, cls.__name__), (None, None))[1]


def _check(obj: Any) -> None:
    """Every typed attribute of ``obj`` (and of its declared bases) holds its type."""
    for cls in type(obj).__mro__:
        for name, typ in (_declared_type(cls) or {}).items():
            value = getattr(obj, name)
            if typ == "object" or value is None:
                continue
            if typ == "Py_ssize_t":
                assert type(value) is int, f"{cls.__name__}.{name} = {value!r}"
            elif typ in EXACT:
                assert type(value) is EXACT[typ], f"{cls.__name__}.{name} = {value!r}"
            else:  # a declared class
                wanted = getattr(importlib.import_module(CLASSES[typ]), typ)
                assert isinstance(value, wanted), f"{cls.__name__}.{name} = {value!r}"


def _table(game: Game) -> Iterator[Any]:
    """The game's objects of declared classes."""
    state = game.state
    yield from (game, state, game.ctx, game.log, state.cards)
    for player in state.players:
        yield from (player, player.shelf, *player.assistants)
    yield from state.in_play
    yield from state.temps


class CheckingAgent(RandomAgent):
    """A random agent that checks the table's declared attributes at each decision."""

    game: Game | None = None

    def decide(self, view: Any, decision: Decision) -> int:
        if self.game is not None:  # None while new_game is still setting up
            for obj in _table(self.game):
                _check(obj)
        _check(decision)
        return super().decide(view, decision)


@pytest.mark.parametrize("variant, players", [
    ("standard", 2), ("standard", 4), ("expanded", 3), ("artifactorium", 2),
    ("job-faire", 3), ("solo", 1), ("solo-expanded", 1),
])
def test_typed_attributes_hold_their_type_in_whole_games(variant: str, players: int) -> None:
    catalog = load_catalog()
    settings = resolve_settings(variant, catalog.variants)
    for seed in range(2):
        agents = [CheckingAgent(seed * 10 + i) for i in range(players)]
        game = flow.new_game(catalog, settings, agents, seed=seed, variant=variant)
        for agent in agents:
            agent.game = game
        flow.play(game)
        for obj in _table(game):
            _check(obj)


class CheckingGreedy(GreedyAgent):
    """The greedy bot, checking the declared attributes of its shelf readings (and of
    their ``Worth``) at each decision."""

    def decide(self, view: Any, decision: Decision) -> int:
        index = super().decide(view, decision)
        for kept in self._kept:
            reading = kept.reading
            for obj in (reading, reading.worth, *reading._lifted.values()):
                _check(obj)
        return index


@pytest.mark.parametrize("variant, players", [("standard", 2), ("artifactorium", 2),
                                              ("solo", 1)])
def test_the_greedy_bots_readings_hold_their_types(variant: str, players: int) -> None:
    catalog = load_catalog()
    settings = resolve_settings(variant, catalog.variants)
    agents = [CheckingGreedy(i) for i in range(players)]
    flow.play(flow.new_game(catalog, settings, agents, seed=1, variant=variant,
                            views=player_view))
