"""A placement rule's condition in parts, each marked with what it reads.

The engine asks a placement rule about every space of every location, at every
placement turn (``engine/placement.py: RuleMemo``). The condition is split into its
conjuncts (``a and b and c``, evaluated in order: ``and`` stops at the first false
one), each compiled apart and marked with the widest level of names it reads:

* TURN: only names fixed for one placement turn (``placing``, ``this``, ``owner``,
  ``players``, ``prominent``, ``banned``);
* LOCATION: also ``target``, the location;
* SPACE: also ``space`` or ``occupant``, or a call of a game function (which may
  read names the call does not pass); the shared functions read only their arguments.
"""

from __future__ import annotations

from dataclasses import dataclass

from exlibris.dsl import ast
from exlibris.dsl.compiler import ExprHandler, compile_expression
from exlibris.dsl.words import SHARED

TURN, LOCATION, SPACE = 0, 1, 2

_PER_SPACE = frozenset({"space", "occupant"})


@dataclass(frozen=True, slots=True, eq=False)
class RulePart:
    level: int
    handler: ExprHandler


def rule_parts(condition: ast.Expr, key: str) -> tuple[RulePart, ...]:
    """``condition``'s conjuncts, left to right, compiled and marked (see the module)."""
    return tuple(RulePart(_level(part), compile_expression(part, key))
                 for part in _conjuncts(condition))


def reads_placing(condition: ast.Expr) -> bool:
    """Whether ``condition`` may read ``placing`` (by name, or through a game function)."""
    return "placing" in ast.names_read(condition) or not _only_shared_calls(condition)


def _conjuncts(condition: ast.Expr) -> list[ast.Expr]:
    if isinstance(condition, ast.BinOp) and condition.op == "and":
        return _conjuncts(condition.left) + _conjuncts(condition.right)
    return [condition]


def _level(node: ast.Expr) -> int:
    names = ast.names_read(node)  # names a ``where`` binds too: a reading that may be too wide
    if names & _PER_SPACE or not _only_shared_calls(node):
        return SPACE
    return LOCATION if "target" in names else TURN


def _only_shared_calls(node: ast.Expr) -> bool:
    return all(name in SHARED.functions for name in ast.calls(node))
