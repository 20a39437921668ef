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

A LOCATION part may also be *known by its inputs*: it reads ``target`` only as the
location itself or through attributes that never change in a game
(``STATIC_LOCATION_ATTRIBUTES``), every other value it reads coming from subexpressions
of TURN level that it always evaluates (``hoisted``). Its value is then the same
for the same location and the same values of those subexpressions, and the engine
keeps it for the rest of the game.
"""

from __future__ import annotations

from dataclasses import dataclass

from exlibris.dsl import ast
from exlibris.dsl.compiler import ExprHandler, compile_expression
from exlibris.dsl.words import SHARED

TURN, LOCATION, SPACE = 0, 1, 2

# attributes of a location that only read its tile (engine/game_attributes.py)
STATIC_LOCATION_ATTRIBUTES = frozenset({"id", "name", "number", "instant", "delayed"})

_PER_SPACE = frozenset({"space", "occupant"})
_PER_LOCATION = frozenset({"target", "space", "occupant"})
_LITERALS = (ast.Num, ast.Str, ast.Bool)


@dataclass(frozen=True, slots=True, eq=False)
class RulePart:
    level: int
    handler: ExprHandler
    # a LOCATION part known by its inputs: the TURN subexpressions it reads (else None)
    hoisted: tuple[ExprHandler, ...] | None = None


def rule_parts(condition: ast.Expr, key: str) -> tuple[RulePart, ...]:
    """``condition``'s conjuncts, left to right, compiled and marked (see the module)."""
    parts = []
    for part in _conjuncts(condition):
        level = _level(part)
        hoisted: list[ast.Expr] = []
        known = level == LOCATION and _known_by_inputs(part, True, hoisted)
        parts.append(RulePart(level, compile_expression(part, key),
                              tuple(compile_expression(h, key) for h in hoisted)
                              if known else None))
    return tuple(parts)


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


def _known_by_inputs(node: ast.Expr, strict: bool, hoisted: list[ast.Expr]) -> bool:
    """Whether ``node`` reads ``target`` only as itself or through static attributes,
    and everything else through literals or TURN subexpressions, which are added to
    ``hoisted``. ``strict``: ``node`` is evaluated whenever its part is (not the right
    side of ``and``/``or``), so a subexpression may be evaluated apart."""
    if not ast.names_read(node) & _PER_LOCATION and _only_shared_calls(node):
        if isinstance(node, _LITERALS):
            return True
        if strict:
            hoisted.append(node)
        return strict
    match node:
        case ast.Name(id="target"):
            return True
        case ast.Attr(obj=ast.Name(id="target"), name=name):
            return name in STATIC_LOCATION_ATTRIBUTES
        case ast.BinOp(op="and" | "or", left=left, right=right):
            return (_known_by_inputs(left, strict, hoisted)
                    and _known_by_inputs(right, False, hoisted))
        case ast.BinOp(op="==" | "!=", left=left, right=right):
            return (_known_by_inputs(left, strict, hoisted)
                    and _known_by_inputs(right, strict, hoisted))
        case ast.Not(operand=operand):
            return _known_by_inputs(operand, strict, hoisted)
    return False
