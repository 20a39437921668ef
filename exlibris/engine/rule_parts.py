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

A part may also be *known by its inputs*: its value is the same
whenever these are (``RulePart.inputs``):

* the values of the names it reads, by name (reading a name does nothing else), and
  for an assistant whose position it reads (``POSITION_ATTRIBUTES``), the fields
  that decide it (``Assistant.location``, ``home_index``, ``space``, ``bid``);
* the values of TURN subexpressions it always evaluates (``hoisted``: evaluated once
  a turn);
* ``target``'s ``LocationState.version`` if it reads ``target.assistants`` (which
  only the location's spaces decide).

Everything else it reads must be literals, attributes that never change for any
value that has them (``STATIC_ATTRIBUTES``), operators, ``where`` and the shared
functions that only count or pick (``PURE_FUNCTIONS``). The engine keeps such a
part's value, by its inputs, for the rest of the game.
"""

from __future__ import annotations

from dataclasses import dataclass

from exlibris.dsl import ast
from exlibris.dsl.compiler import ExprHandler, compile_expression
from exlibris.dsl.words import SHARED

TURN, LOCATION, SPACE = 0, 1, 2

# attributes that never change, for every kind of value that has them (a location's
# tile, an assistant's owner and kind, a space's index, a player's or category's
# name: engine/game_attributes.py); tests/test_engine_speedups.py checks the list
STATIC_ATTRIBUTES = frozenset({"id", "name", "number", "instant", "delayed", "owner",
                               "standard", "special", "index"})
VERSIONED_LOCATION_ATTRIBUTES = frozenset({"assistants"})  # decided by its spaces alone
# attributes of an assistant decided by where it is (engine/game_attributes.py)
POSITION_ATTRIBUTES = frozenset({"location", "space", "bid", "at_location", "at_home"})
PURE_FUNCTIONS = frozenset({"count", "first"})  # of their arguments' length and items

_PER_SPACE = frozenset({"space", "occupant"})
_PER_LOCATION = frozenset({"target", "space", "occupant"})
_LITERALS = (ast.Num, ast.Str, ast.Bool)


@dataclass(frozen=True, slots=True, eq=False)
class RulePart:
    level: int
    handler: ExprHandler
    # a part known by its inputs (else ``hoisted`` is None): the TURN subexpressions
    # it reads, the names it reads (fixed for a turn; and ``target``, ``occupant``,
    # ``space``), and whether it reads target's version
    hoisted: tuple[ExprHandler, ...] | None = None
    names: tuple[str, ...] = ()
    local: tuple[str, ...] = ()
    versioned: bool = False
    positions: tuple[str, ...] = ()  # names of assistants whose position it reads


def rule_parts(condition: ast.Expr, key: str) -> tuple[RulePart, ...]:
    """``condition``'s conjuncts, left to right, compiled and marked (see the module)."""
    parts = []
    for part in _conjuncts(condition):
        level = _level(part)
        inputs = _Inputs()
        # a TURN part's own subexpressions are not evaluated apart: it is asked once a turn
        if inputs.read(part, level != TURN, frozenset()):
            parts.append(RulePart(level, compile_expression(part, key),
                                  tuple(compile_expression(h, key) for h in inputs.hoisted),
                                  tuple(sorted(inputs.names - _PER_LOCATION)),
                                  tuple(sorted(inputs.names & _PER_LOCATION)),
                                  inputs.versioned, tuple(sorted(inputs.positions))))
        else:
            parts.append(RulePart(level, compile_expression(part, key)))
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


class _Inputs:
    """What a part known by its inputs reads (see the module)."""

    def __init__(self) -> None:
        self.hoisted: list[ast.Expr] = []
        self.names: set[str] = set()
        self.versioned = False
        self.positions: set[str] = set()

    def read(self, node: ast.Expr, strict: bool, bound: frozenset[str]) -> bool:
        """Whether ``node`` reads only inputs (added here) and what never changes.
        ``strict``: ``node`` is evaluated whenever its part is (not on the right of
        ``and``/``or``, in a call or a ``where`` condition), so a TURN subexpression
        may be evaluated apart; ``bound``: the names ``where`` binds here."""
        match node:
            case ast.Attr(obj=ast.Name(id=name), name=attribute) if attribute in \
                    POSITION_ATTRIBUTES and name not in bound and name not in _PER_LOCATION:
                self.names.add(name)
                self.positions.add(name)
                return True
        names = ast.names_read(node)
        if strict and not names & (_PER_LOCATION | bound) and _only_shared_calls(node) \
                and not isinstance(node, (*_LITERALS, ast.Name)):
            self.hoisted.append(node)
            return True
        match node:
            case ast.Num() | ast.Str() | ast.Bool():
                return True
            case ast.Name(id=name):
                if name not in bound:
                    self.names.add(name)
                return True
            case ast.Attr(obj=ast.Name(id="target"), name=attribute) \
                    if "target" not in bound and attribute in VERSIONED_LOCATION_ATTRIBUTES:
                self.names.add("target")
                self.versioned = True
                return True
            case ast.Attr(obj=obj, name=attribute):
                return attribute in STATIC_ATTRIBUTES and self.read(obj, strict, bound)
            case ast.BinOp(op="and" | "or", left=left, right=right):
                return self.read(left, strict, bound) and self.read(right, False, bound)
            case ast.BinOp(left=left, right=right):
                return self.read(left, strict, bound) and self.read(right, strict, bound)
            case ast.Not(operand=operand) | ast.Neg(operand=operand):
                return self.read(operand, strict, bound)
            case ast.ListExpr(items=items):
                return all(self.read(item, strict, bound) for item in items)
            case ast.Call(func=func, args=args):
                return func in PURE_FUNCTIONS and all(
                    self.read(arg.value, False, bound) for arg in args)
            case ast.Where(source=source, condition=condition, name=name):
                return self.read(source, strict, bound) and self.read(
                    condition, False, bound | {name})
        return False
