"""The typed syntax tree of the effect language. Every node knows its line and
column in the source text (1-based)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, fields
from functools import cache
from typing import Literal


@dataclass(slots=True)
class Node:
    line: int = field(default=1, kw_only=True, compare=False)
    col: int = field(default=1, kw_only=True, compare=False)


# ---- expressions ---------------------------------------------------------------


@dataclass(slots=True)
class Expr(Node):
    pass


@dataclass(slots=True)
class Num(Expr):
    value: int


@dataclass(slots=True)
class Str(Expr):
    value: str


@dataclass(slots=True)
class Bool(Expr):
    value: bool


@dataclass(slots=True)
class Name(Expr):
    id: str


@dataclass(slots=True)
class Ref(Expr):
    """``@some-id``: a category, location, assistant or artifact."""

    id: str


@dataclass(slots=True)
class ListExpr(Expr):
    items: list[Expr]


@dataclass(slots=True)
class Attr(Expr):
    obj: Expr
    name: str


AmountKind = Literal["exact", "any", "all", "up_to", "at_least"]


@dataclass(slots=True)
class Amount(Expr):
    """How many cards a verb moves: exactly, any, all, up to N, at least N."""

    kind: AmountKind
    value: Expr | None = None


@dataclass(slots=True)
class Arg(Node):
    name: str | None
    value: Expr


@dataclass(slots=True)
class Call(Expr):
    func: str
    args: list[Arg]

    def positional(self) -> list[Expr]:
        return [a.value for a in self.args if a.name is None]

    def keywords(self) -> dict[str, Expr]:
        return {a.name: a.value for a in self.args if a.name is not None}


@dataclass(slots=True)
class BinOp(Expr):
    op: str  # + - * / == != < <= > >= and or | in notin
    left: Expr
    right: Expr


@dataclass(slots=True)
class Not(Expr):
    operand: Expr


@dataclass(slots=True)
class Neg(Expr):
    operand: Expr


@dataclass(slots=True)
class Where(Expr):
    """``source where condition``; the condition names each element ``it`` (or
    ``name``, written ``source where name: condition``)."""

    source: Expr
    condition: Expr
    name: str = "it"


@dataclass(slots=True)
class IfExpr(Expr):
    """``then if test else otherwise``: one of two values, by a condition."""

    then: Expr
    test: Expr
    otherwise: Expr


# ---- statements ----------------------------------------------------------------


@dataclass(slots=True)
class Stmt(Node):
    pass


@dataclass(slots=True)
class Assign(Stmt):
    name: str
    value: Expr


@dataclass(slots=True)
class Do(Stmt):
    """A verb (or function) call used as a statement."""

    call: Call


@dataclass(slots=True)
class May(Stmt):
    """Optional steps: the acting player decides whether to do them."""

    body: list[Stmt]
    question: str | None = None  # the question in the author's words, if written


@dataclass(slots=True)
class Require(Stmt):
    condition: Expr


@dataclass(slots=True)
class Stop(Stmt):
    pass


@dataclass(slots=True)
class If(Stmt):
    branches: list[tuple[Expr, list[Stmt]]]
    orelse: list[Stmt]


@dataclass(slots=True)
class ForEach(Stmt):
    var: str
    iterable: Expr
    body: list[Stmt]


@dataclass(slots=True)
class Repeat(Stmt):
    count: Expr
    body: list[Stmt]


@dataclass(slots=True)
class As(Stmt):
    """The body is done by another player."""

    player: Expr
    body: list[Stmt]


@dataclass(slots=True)
class Option(Node):
    label: str
    guard: Expr | None
    body: list[Stmt]
    about: Expr | None = None  # the cards the option is about (``option "..." about X``)


@dataclass(slots=True)
class Choose(Stmt):
    chooser: Expr | None
    options: list[Option]
    question: str | None = None  # the question in the author's words, if written


@dataclass(slots=True)
class Program(Node):
    body: list[Stmt]


# ---- triggers and placement rules ------------------------------------------------

TriggerMode = Literal["on", "after", "before", "instead", "modify"]


@dataclass(slots=True)
class Trigger(Node):
    mode: TriggerMode
    event: str
    subject: str | None = None
    place: str | None = None
    once_per: str | None = None  # turn, round or game
    during: str | None = None
    condition: Expr | None = None
    # where each word was written, (line, col) by part (event, mode, subject, place,
    # once, during): errors point at the word, not at the start of the trigger
    spots: dict[str, tuple[int, int]] = field(default_factory=dict, compare=False)


@dataclass(slots=True)
class PlacementRule(Node):
    kind: Literal["deny", "allow", "share"]
    condition: Expr


@cache
def _child_fields(cls: type) -> tuple[str, ...]:
    """The fields of a node class that may hold nodes (all but its position), found
    once per class: ``dataclasses.fields`` builds a new tuple at each call."""
    return tuple(f.name for f in fields(cls) if f.name not in ("line", "col"))


def walk(root: Node) -> Iterator[Node]:
    """Every node under ``root`` (itself included), each once."""
    stack: list[object] = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, list | tuple):
            stack.extend(node)
        elif isinstance(node, Node):
            yield node
            stack.extend(getattr(node, name) for name in _child_fields(node.__class__))


def bound_names(root: Node, nodes: list[Node] | None = None) -> frozenset[str]:
    """Every variable a program or expression may bind: assigned names, loop names,
    ``where`` names, and ``it`` (bound by ``where`` and per-element arguments).
    ``nodes``: ``walk(root)`` already listed."""
    found = {"it"}
    for node in walk(root) if nodes is None else nodes:
        if isinstance(node, Assign):
            found.add(node.name)
        elif isinstance(node, ForEach):
            found.add(node.var)
        elif isinstance(node, Where):
            found.add(node.name)
    return frozenset(found)


def names_read(root: Node) -> frozenset[str]:
    """Every name read anywhere under ``root`` (``hand``, ``artifact_deck``...)."""
    return frozenset(node.id for node in walk(root) if isinstance(node, Name))


def calls(root: Node) -> list[str]:
    """The names of every function and verb called anywhere under ``root``."""
    return [node.func for node in walk(root) if isinstance(node, Call)]
