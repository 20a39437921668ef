"""The import graph of ``exlibris/`` has no cycle, and the interface between the
effect runtime and the game says what it passes (no ``Any``).

The graph is built statically with ``ast``: imports at the top of a module and
inside functions alike (a local import hides a cycle, it does not remove it);
only ``if TYPE_CHECKING:`` blocks are left out, since they never run.
"""

from __future__ import annotations

import ast
import inspect
import random
import re
from pathlib import Path
from typing import Protocol

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "exlibris"
# the modules through which the effect runtime and the game speak to each other
INTERFACE = ("exlibris/engine/ports.py", "exlibris/engine/context.py",
             "exlibris/engine/targets.py", "exlibris/engine/errors.py",
             # the runtime and its verbs, functions and attributes: the port's users
             "exlibris/engine/runtime.py", "exlibris/engine/assistant_verbs.py",
             "exlibris/engine/shelf_verbs.py", "exlibris/engine/hiring.py",
             "exlibris/engine/game_functions.py", "exlibris/engine/game_attributes.py")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imported(tree: ast.Module, here: str, is_package: bool, *,
              on_load: bool = False) -> set[str]:
    """Every module this module's code may import (outside TYPE_CHECKING), as
    candidates: ``from pkg import name`` gives ``pkg`` and ``pkg.name``, one of
    which is the module meant (see ``import_graph``). ``on_load``: only those it
    imports when it is loaded (not inside a function)."""
    found: set[str] = set()
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        if on_load and isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = here.split(".")
                anchor = anchor[:len(anchor) - node.level + (1 if is_package else 0)]
                base = ".".join([*anchor, base] if base else anchor)
            # ``from pkg import mod`` imports the module ``pkg.mod`` when there is
            # one, else it takes a name from ``pkg``
            found.update(f"{base}\0{alias.name}" for alias in node.names)
        stack.extend(ast.iter_child_nodes(node))
    return found


def import_graph(*, on_load: bool = False) -> dict[str, set[str]]:
    """Module -> the modules of ``exlibris`` it imports (``on_load``: when it is
    loaded, not inside a function)."""
    paths = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        imported = set()
        for found in _imported(tree, name, path.name == "__init__.py", on_load=on_load):
            base, _, attr = found.partition("\0")
            imported.add(f"{base}.{attr}" if f"{base}.{attr}" in paths else base)
        graph[name] = {m for m in imported if m in paths and m != name}
    return graph


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle per strongly connected component of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []
    counter = 0

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                components.append(component)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return [_cycle_in(graph, set(c)) for c in components]


def _cycle_in(graph: dict[str, set[str]], component: set[str]) -> list[str]:
    """A concrete cycle through the component's first module (a path back to it)."""
    start = min(component)
    paths = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for nxt in sorted(graph[node] & component):
            if nxt == start:
                return [*paths[node], start]
            if nxt not in paths:
                paths[nxt] = [*paths[node], nxt]
                queue.append(nxt)
    return sorted(component)  # unreachable for a strongly connected component


def test_no_import_cycle() -> None:
    cycles = find_cycles(import_graph())
    assert not cycles, "import cycles in exlibris/:\n" + "\n".join(
        " -> ".join(c) for c in cycles)


def test_the_finder_names_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycles(graph) == [["a", "b", "c", "a"]]
    assert find_cycles({"a": {"b"}, "b": set()}) == []


def test_function_level_imports_count_and_type_checking_ones_do_not() -> None:
    tree = ast.parse(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from exlibris.x import A\n"
        "def f():\n    from exlibris.y import B\n    import exlibris.z\n")
    found = _imported(tree, "exlibris.m", False)
    assert {"exlibris.y\0B", "exlibris.z"} <= found
    assert not any(m.startswith("exlibris.x") for m in found)


# Modules kept out of what a module loads with it, on purpose (a function imports them
# when it needs them): what a first ``validate`` of the shipped files (the package
# vouches for them: ``prebuilt.checked``) and a game's first question do not need yet.
# Loading a package loads its ``__init__`` too.
LAZY = {
    # a first validate reads no model and checks no effect
    "exlibris.cli.validate": ("exlibris.validation", "exlibris.catalog",
                              "exlibris.dsl.checker", "exlibris.dsl.ast",
                              "exlibris.model.content"),
    "exlibris.prebuilt": ("exlibris.sources", "exlibris.dsl.ast_json", "exlibris.catalog"),
    # a game's engine takes the language's category value from dsl/values.py: the score
    # language (dsl/scoring.py) and its checker are loaded by a score that needs them
    "exlibris.engine.game": ("exlibris.dsl.scoring", "exlibris.dsl.checker"),
    "exlibris.engine.flow": ("exlibris.dsl.scoring", "exlibris.dsl.checker"),
    "exlibris.engine.runtime": ("exlibris.dsl.scoring", "exlibris.dsl.checker"),
}


def loaded_with(module: str, graph: dict[str, set[str]]) -> set[str]:
    """The modules of ``exlibris`` that loading ``module`` loads (its packages too)."""
    found: set[str] = set()
    todo = [module]
    while todo:
        name = todo.pop()
        parts = name.split(".")
        for known in [".".join(parts[:i]) for i in range(1, len(parts))] + [name]:
            if known in graph and known not in found:
                found.add(known)
                todo.extend(graph[known])
    return found


@pytest.mark.parametrize("module", sorted(LAZY))
def test_what_is_loaded_later_on_purpose_stays_so(module: str) -> None:
    loaded = loaded_with(module, import_graph(on_load=True))
    early = sorted(set(LAZY[module]) & loaded)
    assert not early, f"loading {module} loads {early}"


def test_loaded_with_follows_load_time_imports_only() -> None:
    tree = ast.parse("import exlibris.a\ndef f():\n    import exlibris.b\n")
    assert _imported(tree, "exlibris.m", False, on_load=True) == {"exlibris.a"}
    graph = {"exlibris": set(), "exlibris.m": {"exlibris.a"}, "exlibris.a": set(),
             "exlibris.b": set()}
    assert loaded_with("exlibris.m", graph) == {"exlibris", "exlibris.m", "exlibris.a"}


@pytest.mark.parametrize("relative", INTERFACE)
def test_the_runtime_game_interface_has_no_any(relative: str) -> None:
    path = ROOT / relative
    tree = ast.parse(path.read_text(encoding="utf-8"), relative)
    uses = [node.lineno for node in ast.walk(tree)
            if (isinstance(node, ast.Name) and node.id == "Any")
            or (isinstance(node, ast.Attribute) and node.attr == "Any")
            or (isinstance(node, ast.alias) and node.name == "Any")
            # a type written as a string (a TypeAlias such as ports.Value)
            or (isinstance(node, ast.Constant) and isinstance(node.value, str)
                and re.search(r"\bAny\b", node.value))]
    assert not uses, f"{relative} uses Any on lines {uses}"


def _port_members(port: type) -> tuple[set[str], set[str]]:
    """The methods and properties of a port (``GamePort``...), and its plain attributes."""
    own = {name for cls in port.__mro__ if cls.__module__ == port.__module__
           for name in vars(cls) if not name.startswith("_")}
    attributes = set(port.__annotations__)
    return own - attributes, attributes


def _provides(port: type, cls: type) -> None:
    """``cls`` has every method and property of ``port``, with the same parameters."""
    methods, _ = _port_members(port)
    for name in sorted(methods):
        wanted, found = inspect.getattr_static(port, name), inspect.getattr_static(cls, name)
        assert isinstance(found, property) == isinstance(wanted, property), name
        if not isinstance(wanted, property):
            assert list(inspect.signature(found).parameters) == list(
                inspect.signature(wanted).parameters), name


def test_the_game_provides_the_whole_port() -> None:
    """``Game`` has every member of ``GamePort``, with the same parameters, and the
    collaborators it holds (``game.triggers``, ``moves``, ``board``) every member of
    their ports, so the runtime may be given a game (the protocols are structural:
    nothing else checks)."""
    from exlibris.catalog import load_catalog
    from exlibris.engine import ports
    from exlibris.engine.game import Game
    from exlibris.engine.ports import GamePort
    from exlibris.engine.state import GameState, PlayerState
    from exlibris.validation import resolve_settings

    methods, attributes = _port_members(GamePort)
    assert {"ask", "event", "rng"} <= methods
    assert {"state", "ctx", "triggers", "moves", "board"} <= attributes
    _provides(GamePort, Game)
    settings = resolve_settings("standard", load_catalog().variants)
    game = Game(GameState(players=[PlayerState(0, "A")], rng=random.Random(0)), settings,
                [], {})
    missing = [name for name in sorted(attributes) if not hasattr(game, name)]
    assert not missing, f"Game lacks {missing}"
    for name, annotation in GamePort.__annotations__.items():
        port = getattr(ports, annotation, None)
        if isinstance(port, type) and issubclass(port, Protocol):
            _provides(port, type(getattr(game, name)))
    assert _port_members(ports.BoardPort)[0] >= {"place", "placement_targets"}
