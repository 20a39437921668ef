"""Compiling checked AST into handlers the engine calls.

A compiled program is a ``Handler``: ``handler(runtime, me, names)`` runs it.
Everything game-specific goes through the ``Runtime`` protocol, which the engine
(and the scorer) implement: names, attributes, functions that need the table,
verbs, choices. Execution is bounded: every statement, loop pass and element an
expression works something out for (``where``, the per-element argument of ``sum``,
``count``...) costs one step, and ``Runtime.tick`` stops an effect that exceeds the
budget.

A handler runs as one Python function generated from the tree (``pysource.py``),
linked to the runtime's implementations (``link``); the closures below
(``compile_block``, ``compile_expr``) are the same semantics node by node, kept for
trees Python's compiler refuses and as the reference the generated code is tested
against.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from typing import Any, Protocol

from exlibris.dsl import ast, precompiled, pysource
from exlibris.dsl.errors import EffectBudgetExceeded, EffectError
from exlibris.dsl.generic import GENERIC
from exlibris.dsl.pysource import DECLINE
from exlibris.dsl.values import AmountSpec, as_list, kind_name, number
from exlibris.dsl.vocabulary import ATTRIBUTES, FUNCTIONS, VERBS
from exlibris.dsl.words import Implementations
from exlibris.limits import MAX_EFFECT_INT, MAX_EFFECT_LIST
from exlibris.model.shelf_errors import ShelfError

# Python errors a checked effect can still meet at run time, where the checker typed a
# value "any": they end the effect as an EffectError naming it, never as a traceback.
_RUNTIME_FAULTS = (TypeError, AttributeError, ValueError, IndexError, KeyError,
                   ZeroDivisionError, OverflowError, RecursionError, ShelfError)
_FAULTS = (EffectError, *_RUNTIME_FAULTS)  # what a run turns into a named EffectError


class Runtime(Protocol):
    """What a running effect needs from the game (implemented by the engine).

    A runtime class may also have ``words``, the ``words.Implementations`` its
    ``verb``, ``function`` and ``attribute`` dispatch from, and nothing else: then
    compiled effects call those implementations directly (``link``)."""

    def tick(self) -> None:
        """Count one step; raise ``EffectBudgetExceeded`` past the budget."""

    def attribute(self, value: Any, name: str) -> Any:
        """``value.name`` for a game object."""

    def function(self, name: str, args: list[Any], kwargs: dict[str, Any], env: Env) -> Any:
        """A function of the vocabulary that needs the game (adjacent, players, ...)."""

    def verb(self, name: str, args: list[Any], kwargs: dict[str, Any], env: Env,
             node: ast.Call) -> Any:
        """Carry out a verb for ``env.me``."""

    def may(self, env: Env, node: ast.May) -> bool:
        """Ask ``env.me`` whether to do an optional step."""

    def choose_option(self, chooser: Any, labels: list[str], env: Env,
                      node: ast.Choose | ast.May, about: list[Any] | None = None) -> int:
        """Ask ``chooser`` to pick one of ``labels``; return its index. ``about``: when
        an option says what cards it is about, one value per label (else None)."""

    def bind(self, value: Any) -> Any:
        """Called when a name is bound: lets card names follow their cards."""

    def read(self, value: Any) -> Any:
        """Called when a name bound to a ``Bound`` value is read."""


class StopEffect(Exception):
    """``stop`` or a failed ``require``: the effect ends quietly."""


class Bound:
    """Base of values a runtime resolves each time a name is read (``Runtime.read``)."""

    __slots__ = ()


class Env:
    """The variables of one running effect and who is acting."""

    __slots__ = ("globals", "me", "rt", "vars")

    def __init__(self, rt: Runtime, me: Any, globals_: Mapping[str, Any]) -> None:
        self.rt = rt
        self.me = me
        self.globals = globals_
        self.vars: dict[str, Any] = {}

    def lookup(self, name: str) -> Any:
        value = self.vars.get(name, _MISSING)
        if value is not _MISSING:
            return self.rt.read(value) if isinstance(value, Bound) else value
        return _lookup_global(self, name)  # None if bound only on a path not taken


def _lookup_global(env: Env, name: str) -> Any:
    """A name that is not a variable (or not bound yet): ``me`` or one of the game's
    names, None if neither (a variable bound only on a path not taken, e.g. inside a
    declined 'may')."""
    if name == "me":
        return env.me
    names = env.globals
    if name in names:
        value = names[name]
        return value(env) if callable(value) else value
    return None


Eval = Callable[[Env], Any]
Exec = Callable[[Env], None]


# Calls a handler runs as closures before it becomes Python source: generating and
# compiling the source costs about as much as a hundred runs save, so only what runs
# often (in long runs of games) is worth it.
PYTHON_AFTER: int | None = 64


class _Compiled:
    """What a program and an expression handler share: the function that runs them
    for a runtime class. Its first ``python_after`` calls run the closures of
    ``compile_block``/``compile_expr``; then it is the Python source generated from
    the tree (``pysource.py``), compiled once and linked to each runtime class
    (``link``). Closures for good where Python cannot compile that source (a
    program nested too deep) or when ``python_after`` is None."""

    __slots__ = ("_by_class", "_closures", "_cls", "_code", "_fn", "_tree", "_warm",
                 "source_name")

    def __init__(self, tree: ast.Program | ast.Expr, source_name: str,
                 python_after: int | None) -> None:
        self._tree = tree
        self.source_name = source_name
        self._code: tuple[Any, pysource.Source] | bool | None = \
            None if python_after is not None else False
        self._warm = python_after or 0  # calls left before the source is made
        self._closures: Callable[[Env], Any] | None = None
        self._by_class: dict[type, Callable[[Env], Any]] = {}
        self._cls: type | None = None  # the last runtime class, and its function
        self._fn: Callable[[Env], Any] = _unlinked

    def _function(self, cls: type) -> Callable[[Env], Any]:
        # still warming up: closures, counted (unless the build compiled the source)
        if self._warm > 0 and self._code is None and not self._precompiled():
            self._warm -= 1
            return self._closure_function()
        fn = self._by_class.get(cls)
        if fn is None:
            fn = self._by_class[cls] = self._make(cls)
        self._cls, self._fn = cls, fn
        return fn

    def _make(self, cls: type) -> Callable[[Env], Any]:
        code = self._generated()
        return self._closure_function() if code is None else link(*code, cls)

    def _precompiled(self) -> bool:
        """Whether the build compiled the generated source ahead of time
        (``precompiled.py``): then it runs from the first call, since waiting saves
        nothing. Asked once, at the first call (later ones find the closures made)."""
        if self._closures is not None:
            return False
        made = precompiled.factories()
        if not made:
            return False
        source = _source_of(self._tree)
        if source.text not in made:
            return False
        self._code = (None, source)  # ``link`` takes the factory: no code to compile
        return True

    def _closure_function(self) -> Callable[[Env], Any]:
        if self._closures is None:
            self._closures = _closures(self._tree)
        return self._closures

    def _generated(self) -> tuple[Any, pysource.Source] | None:
        """The compiled generated source (made once), or None: closures instead."""
        if self._code is None:
            self._code = _python(self._tree, self.source_name) or False
        return self._code if isinstance(self._code, tuple) else None

    def generated(self) -> pysource.Source | None:
        """The generated source it runs once warm (None: it stays closures)."""
        code = self._generated()
        return None if code is None else code[1]

    def _line_of(self, exc: BaseException) -> int | None:
        """The effect's line where ``exc`` arose: noted by the statement's closure, or
        found from the generated function's frame (None where neither knows)."""
        line = getattr(exc, "effect_line", None)
        if line is not None:
            return line
        code = self._code
        if not isinstance(code, tuple) or code[0] is None:
            return None
        name, found = code[0].co_filename, None
        tb = exc.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == name:
                found = tb.tb_lineno
            tb = tb.tb_next
        origins = code[1].origins
        return origins[found - 1] or None if found and found <= len(origins) else None

    @property
    def in_python(self) -> bool:
        """Whether it runs, once warm, as generated Python source (false: as closures)."""
        return self._generated() is not None


class Handler(_Compiled):
    """A compiled program; call it with a runtime, the acting player and the names."""

    __slots__ = ()

    def __call__(self, rt: Runtime, me: Any, names: Mapping[str, Any]) -> Env:
        env = Env(rt, me, names)
        cls = type(rt)
        run = self._fn if cls is self._cls else self._function(cls)
        try:
            run(env)
        except StopEffect:
            pass
        except _FAULTS as exc:
            raise _named(exc, self.source_name, self._line_of(exc)) from None
        return env


def _named(exc: Exception, entry: str, line: int | None = None, col: int | None = None
           ) -> Exception:
    """The error of a running effect as an ``EffectError`` naming ``entry`` and the
    line (and column, where known: else the statement's, which starts its line) of
    its effect, in the author's words (a plain ``try`` at each call site: this runs
    for every effect and condition a bot meets)."""
    if isinstance(exc, EffectError):
        if exc.entry is not None:
            return exc
        return type(exc)(exc.message, entry, line, col)
    return EffectError(in_words(exc), entry, line, col)


_CARD = re.compile(r"\b([A-Z]\d{1,2})/\d{1,2}:[A-Z]{1,4}\b")  # a card as the engine names it
_ZONE = re.compile(r"\b(shelf|hand|hires):(\d)\b")
# Python's own wording of a ValueError (``int()``, ``list.remove(x)``, "not enough values
# to unpack"): never shown to an author
_PYTHON_WORDS = re.compile(r"\w\(|\b(?:NoneType|nonetype|unpack|literal|sequence|iterable|"
                           r"int|str|dict|tuple|float|bool|object)\b")


def in_words(exc: Exception) -> str:
    """What a Python error met inside a checked effect means, said without Python's
    words: the value that was missing or of the wrong kind, the move refused."""
    if isinstance(exc, AttributeError):
        name = getattr(exc, "name", None)
        said = f"it read .{name} of" if name and any(name in a for a in ATTRIBUTES.values()) \
            else "it needed a value and found"
        if getattr(exc, "obj", 0) is None:
            return (f"{said} nothing: a value that was not there (an empty choice or "
                    "list, or a name set only on a path not taken)")
        return f"{said} a value of a kind it cannot use there"
    if isinstance(exc, RecursionError):
        return "it nests too deep to work out"
    if isinstance(exc, ZeroDivisionError | OverflowError):
        return "a number it worked out is out of range"
    text = str(exc)[:200]
    if isinstance(exc, ValueError | ShelfError) and not _PYTHON_WORDS.search(text):
        # the engine's refusal (a move the shelf or the table does not allow)
        text = _CARD.sub(r"\1", text)
        text = _ZONE.sub(lambda m: f"player {int(m.group(2)) + 1}'s {m.group(1)}", text)
        return f"a step could not be carried out: {text}"
    return ("a step met a value of a kind it cannot use there (nothing, or a list, "
            "text or number where something else was needed)")


class ExprHandler(_Compiled):
    """A compiled expression (scores, conditions of triggers and placement rules)."""

    __slots__ = ()

    def __call__(self, rt: Runtime, me: Any, names: Mapping[str, Any]) -> Any:
        cls = type(rt)
        run = self._fn if cls is self._cls else self._function(cls)
        try:
            return run(Env(rt, me, names))
        except _FAULTS as exc:
            tree = self._tree  # an expression: where it starts in its field
            raise _named(exc, self.source_name, tree.line, tree.col) from None


def _unlinked(env: Env) -> None:  # pragma: no cover - replaced before any call
    raise AssertionError("not linked")


# ---- expressions -------------------------------------------------------------------------------

def bounded(items: list[Any]) -> list[Any]:
    """``items`` unless it is longer than an effect's lists may be."""
    if len(items) > MAX_EFFECT_LIST:  # a budget, as the steps are (docs/limits.md)
        raise EffectBudgetExceeded(f"a list of {len(items)} elements; the limit in "
                                   f"effects is {MAX_EFFECT_LIST}")
    return items


def _arith(op: str, fn: Callable[[int, int], int]) -> Callable[[Any, Any], int]:
    where = f"'{op}'"
    return lambda a, b: number(fn(number(a, where), number(b, where)), where)


def _order(op: str, fn: Callable[[Any, Any], bool]) -> Callable[[Any, Any], bool]:
    where = f"'{op}'"

    def compare(a: Any, b: Any) -> bool:
        if type(a) is int and type(b) is int \
                and -MAX_EFFECT_INT <= a <= MAX_EFFECT_INT \
                and -MAX_EFFECT_INT <= b <= MAX_EFFECT_INT:
            return fn(a, b)  # two numbers within the limit: what number() would pass
        if isinstance(a, str) or isinstance(b, str):  # texts; nothing reads as ""
            if a is None or b is None:
                return fn(a or "", b or "")
            if isinstance(a, str) and isinstance(b, str):
                return fn(a, b)
        return fn(number(a, where), number(b, where))

    return compare


_ARITH: dict[str, Callable[[Any, Any], Any]] = {
    "-": _arith("-", operator.sub),
    "*": _arith("*", operator.mul),
    "/": _arith("/", lambda a, b: (a // b) if b else 0),
    "==": operator.eq,
    "!=": operator.ne,
    "<": _order("<", operator.lt),
    "<=": _order("<=", operator.le),
    ">": _order(">", operator.gt),
    ">=": _order(">=", operator.ge),
}


def _is_list(value: Any) -> bool:
    return isinstance(value, list | tuple) or isinstance(getattr(value, "cards", None), list)


def _plus(a: Any, b: Any) -> Any:
    if _is_list(a):
        return bounded([*as_list(a), *as_list(b)])
    if _is_list(b):
        raise EffectError(f"'+' adds to a list or a number, not {kind_name(a)} to a list")
    return number(number(a, "'+'") + number(b, "'+'"), "'+'")


def _union(a: Any, b: Any) -> list[Any]:
    seen = list(a or ())
    more = b or ()
    if _by_identity(seen) and _by_identity(more):  # cards, players...: a set finds them
        known = set(seen)
        for x in more:
            if x not in known:
                known.add(x)
                seen.append(x)
    else:
        seen.extend(x for x in more if x not in seen)
    return bounded(seen)


# Whether values of a class are equal only to themselves (``object``'s ``==`` and hash):
# then ``x in set`` answers as ``x in list`` does.
_IDENTITY: dict[type, bool] = {}


def _by_identity(items: Any) -> bool:
    for cls in set(map(type, items)):
        same = _IDENTITY.get(cls)
        if same is None:
            same = _IDENTITY[cls] = cls.__eq__ is object.__eq__ \
                and cls.__hash__ is object.__hash__
        if not same:
            return False
    return True


def compile_expr(node: ast.Expr) -> Eval:
    match node:
        case ast.Num(value=v) | ast.Str(value=v) | ast.Bool(value=v):
            return lambda env: v
        case ast.Name(id=name):
            return _compile_name(name)
        case ast.Ref(id=ref) if len(ref) == 1 and ref.isupper():  # @M: by its code
            return lambda env: env.rt.function("category", [ref], {}, env)
        case ast.Ref(id=ref):
            return lambda env: env.rt.function("ref", [ref], {}, env)
        case ast.ListExpr(items=items):
            parts = [compile_expr(i) for i in items]
            return lambda env: bounded([p(env) for p in parts])
        case ast.Attr(obj=obj, name=name):
            get = compile_expr(obj)
            return lambda env: attribute_of(env.rt, get(env), name)
        case ast.Call():
            return _compile_call(node)
        case ast.BinOp(op="and", left=l, right=r):
            a, b = compile_expr(l), compile_expr(r)
            return lambda env: bool(a(env)) and bool(b(env))
        case ast.BinOp(op="or", left=l, right=r):
            a, b = compile_expr(l), compile_expr(r)
            return lambda env: bool(a(env)) or bool(b(env))
        case ast.BinOp(op="+", left=l, right=r):
            a, b = compile_expr(l), compile_expr(r)
            return lambda env: _plus(a(env), b(env))
        case ast.BinOp(op="|", left=l, right=r):
            a, b = compile_expr(l), compile_expr(r)
            return lambda env: _union(as_list(a(env)), as_list(b(env)))
        case ast.BinOp(op="in", left=l, right=r):
            a, b = compile_expr(l), compile_expr(r)
            return lambda env: a(env) in as_list(b(env))
        case ast.BinOp(op="notin", left=l, right=r):
            a, b = compile_expr(l), compile_expr(r)
            return lambda env: a(env) not in as_list(b(env))
        case ast.BinOp(op=op, left=l, right=r):
            a, b, fn = compile_expr(l), compile_expr(r), _ARITH[op]
            return lambda env: fn(a(env), b(env))
        case ast.Not(operand=x):
            a = compile_expr(x)
            return lambda env: not a(env)
        case ast.Neg(operand=x):
            a = compile_expr(x)
            return lambda env: -number(a(env), "'-'")
        case ast.IfExpr(then=then, test=test, otherwise=otherwise):
            yes, cond, no = compile_expr(then), compile_expr(test), compile_expr(otherwise)
            return lambda env: yes(env) if cond(env) else no(env)
        case ast.Where(source=source, condition=cond, name=name):
            return _compile_where(compile_expr(source), compile_expr(cond), name)
        case ast.Amount(kind=kind, value=value):
            n = compile_expr(value) if value is not None else None
            return lambda env: AmountSpec(kind, number(n(env), "an amount") if n else None)
    raise TypeError(f"cannot compile {type(node).__name__}")  # pragma: no cover


# Classes whose values are never collections: no ``cards`` and no instance dict (so
# none can be added), not a list. An attribute of one is read directly.
_SCALARS: set[type] = set()


def attribute_of(rt: Runtime, value: Any, name: str) -> Any:
    """``value.name``: of each element for a list or a zone, else of the value."""
    if type(value) in _SCALARS:
        return rt.attribute(value, name)
    if isinstance(value, list) or isinstance(getattr(value, "cards", None), list):
        value = as_list(value)
        return [rt.attribute(v, name) for v in value]
    _note_scalar(value)
    return rt.attribute(value, name)


def _note_scalar(value: Any) -> None:
    cls = type(value)
    if not hasattr(value, "__dict__") and not hasattr(cls, "cards") \
            and not hasattr(cls, "__getattr__") \
            and not isinstance(value, list | tuple | set | frozenset):
        _SCALARS.add(cls)


# The names the program being compiled may bind (``ast.bound_names``): any other name
# is never a variable, so reading it skips the variables (None: not known)
_BOUND: ContextVar[frozenset[str] | None] = ContextVar("bound_names", default=None)


def _compile_name(name: str) -> Eval:
    """``Env.lookup`` for one name, inlined (names are read more than anything else)."""
    bound = _BOUND.get()
    if bound is not None and name not in bound:
        if name == "me":
            return lambda env: env.me

        return lambda env: _lookup_global(env, name)

    def lookup(env: Env) -> Any:
        value = env.vars.get(name, _MISSING)
        if value is not _MISSING:
            return env.rt.read(value) if isinstance(value, Bound) else value
        return _lookup_global(env, name)

    return lookup


def _with_it(env: Env, it: Any, fn: Eval) -> Any:
    saved = env.vars.get("it", _MISSING)
    env.vars["it"] = it
    try:
        return fn(env)
    finally:
        if saved is _MISSING:
            del env.vars["it"]
        else:
            env.vars["it"] = saved


def _counted_with_it(env: Env, it: Any, fn: Eval) -> Any:
    """An argument worked out for one element: one step (a nested ``sum(deck, ...)``
    costs a step per element at every level, so the step budget bounds it)."""
    env.rt.tick()
    return _with_it(env, it, fn)


_MISSING = object()


def _compile_where(source: Eval, cond: Eval, name: str = "it") -> Eval:
    def where(env: Env) -> list[Any]:
        items = as_list(source(env))
        variables = env.vars
        saved = variables.get(name, _MISSING)
        kept = []
        try:
            tick = env.rt.tick
            for item in items:
                tick()  # each element tested is a step
                variables[name] = item
                if cond(env):
                    kept.append(item)
        finally:
            if saved is _MISSING:
                variables.pop(name, None)
            else:
                variables[name] = saved
        return kept

    return where


def _compile_call(node: ast.Call) -> Eval:
    name = node.func
    sig = FUNCTIONS.get(name) or VERBS.get(name)
    positional = [compile_expr(a.value) for a in node.args if a.name is None]
    each = sig.each if sig is not None and sig.each is not None else None
    if each is not None and len(positional) > each:  # evaluated per element: pass a function
        per = positional[each]
        positional[each] = lambda env, per=per: (lambda it: _counted_with_it(env, it, per))
    lambdas = sig.lambdas if sig else frozenset()
    keywords = {a.name: compile_expr(a.value) for a in node.args
                if a.name is not None and a.name not in lambdas}
    lambda_kw = {a.name: compile_expr(a.value) for a in node.args if a.name in lambdas}
    generic = GENERIC.get(name)
    is_verb = name in VERBS
    named = tuple(keywords.items())
    lambdas_kw = tuple(lambda_kw.items())
    one = positional[0] if len(positional) == 1 else None

    # arguments the vocabulary wants as numbers are checked as they are passed (a
    # literal number needs no check: the parser bounds it)
    literal = [isinstance(a.value, ast.Num) for a in node.args if a.name is None]
    numeric = tuple(i for i, kind in enumerate(sig.params if sig else ())
                    if kind == "int" and i != each and i < len(positional) and not literal[i])
    numeric_kw = tuple(k for k in keywords if sig and sig.keywords.get(k) == "int")
    where = f"{name}()"
    plain = not named and not numeric and not numeric_kw and not lambdas_kw

    if generic is not None and not named and not lambdas_kw and len(positional) in (1, 2):
        # a shared function of one or two arguments and no keywords: called with them
        direct = [_as_number(p, where) if i in numeric else p for i, p in enumerate(positional)]
        if len(direct) == 1:
            (a,) = direct
            return lambda env: generic(env.rt, env, a(env))
        a, b = direct
        return lambda env: generic(env.rt, env, a(env), b(env))
    if plain and not is_verb and len(positional) in (1, 2):
        # the common cases, specialised: a function of one or two plain arguments
        if one is not None:
            return lambda env: env.rt.function(name, [one(env)], _NO_KEYWORDS, env)
        first, second = positional
        return lambda env: env.rt.function(name, [first(env), second(env)], _NO_KEYWORDS, env)

    def call(env: Env) -> Any:
        # loops rather than comprehensions: no frame for each (this runs very often)
        if one is not None:
            args = [one(env)]
        else:
            args = []
            for p in positional:
                args.append(p(env))
        kwargs = {}
        for k, v in named:
            kwargs[k] = v(env)
        for i in numeric:
            args[i] = number(args[i], where)
        for key in numeric_kw:
            kwargs[key] = number(kwargs[key], where)
        for key, fn in lambdas_kw:
            kwargs[key] = (lambda it, fn=fn: _counted_with_it(env, it, fn))
        if is_verb:
            rt = env.rt
            rt.tick()
            return rt.verb(name, args, kwargs, env, node)
        if generic is not None:
            return generic(env.rt, env, *args, **kwargs) if kwargs else generic(env.rt, env, *args)
        return env.rt.function(name, args, kwargs, env)

    return call


def _as_number(get: Eval, where: str) -> Eval:
    return lambda env: number(get(env), where)


_NO_KEYWORDS: dict[str, Any] = {}  # shared: no function changes its keywords


# ---- statements ----------------------------------------------------------------------------------


def compile_block(body: list[ast.Stmt]) -> Exec:
    steps = [compile_stmt(s) for s in body]
    if len(steps) == 1:
        return steps[0]

    def block(env: Env) -> None:
        for step in steps:
            step(env)

    return block


def compile_stmt(node: ast.Stmt) -> Exec:
    """A statement as a closure that notes its line on an error raised inside it."""
    return _at_line(_compile_stmt(node), node.line)


def _at_line(run: Exec, line: int) -> Exec:
    def stmt(env: Env) -> None:
        try:
            run(env)
        except _FAULTS as exc:
            if getattr(exc, "effect_line", None) is None:
                exc.effect_line = line  # type: ignore[union-attr]  # the innermost statement's
            raise

    return stmt


def _compile_stmt(node: ast.Stmt) -> Exec:
    # each statement's closure is made by a factory below: no function is defined
    # inside a ``case`` (Cython, which compiles this module in wheels, mishandles it)
    match node:
        case ast.Assign(name=name, value=value):
            return _assign(name, compile_expr(value))
        case ast.Do(call=call):
            return _do(compile_expr(call))
        case ast.May(body=[ast.Choose(chooser=None, options=options), *rest]):
            # "you may choose one of these (then go on)" is one decision: the options
            # and a decline; every option goes on with the rest of the optional steps
            return _compile_choose(node, None, options, decline=True, then=rest)
        case ast.May(body=body):
            return _may(node, compile_block(body))
        case ast.Require(condition=cond):
            return _require(compile_expr(cond))
        case ast.Stop():
            return _stop
        case ast.If(branches=branches, orelse=orelse):
            return _if([(compile_expr(c), compile_block(b)) for c, b in branches],
                       compile_block(orelse) if orelse else None)
        case ast.ForEach(var=var, iterable=iterable, body=body):
            return _for_each(var, compile_expr(iterable), compile_block(body))
        case ast.Repeat(count=count, body=body):
            return _repeat(compile_expr(count), compile_block(body))
        case ast.As(player=player, body=body):
            return _as(compile_expr(player), compile_block(body))
        case ast.Choose(chooser=chooser, options=options):
            return _compile_choose(node, chooser, options)
    raise TypeError(f"cannot compile {type(node).__name__}")  # pragma: no cover


def _assign(name: str, get: Eval) -> Exec:
    def assign(env: Env) -> None:
        env.rt.tick()
        env.vars[name] = env.rt.bind(get(env))

    return assign


def _do(run: Eval) -> Exec:
    def do(env: Env) -> None:
        env.rt.tick()
        run(env)

    return do


def _may(node: ast.May, inner: Exec) -> Exec:
    def may(env: Env) -> None:
        env.rt.tick()
        if env.rt.may(env, node):
            inner(env)

    return may


def _require(test: Eval) -> Exec:
    def require(env: Env) -> None:
        env.rt.tick()
        if not test(env):
            raise StopEffect

    return require


def _stop(env: Env) -> None:
    raise StopEffect


def _if(compiled: list[tuple[Eval, Exec]], otherwise: Exec | None) -> Exec:
    def if_(env: Env) -> None:
        env.rt.tick()
        for test, body in compiled:
            if test(env):
                body(env)
                return
        if otherwise is not None:
            otherwise(env)

    return if_


def _for_each(var: str, items: Eval, inner: Exec) -> Exec:
    def for_each(env: Env) -> None:
        for item in as_list(items(env)):
            env.rt.tick()
            env.vars[var] = item
            inner(env)

    return for_each


def _repeat(times: Eval, inner: Exec) -> Exec:
    def repeat(env: Env) -> None:
        for _ in range(max(0, number(times(env), "'repeat'"))):
            env.rt.tick()
            inner(env)

    return repeat


def _as(who: Eval, inner: Exec) -> Exec:
    def as_(env: Env) -> None:
        env.rt.tick()
        player = who(env)
        if player is None:  # as nothing (no such player): the block is skipped
            return
        saved = env.me
        env.me = player
        try:
            inner(env)
        finally:
            env.me = saved

    return as_


def _compile_choose(node: ast.Choose | ast.May, chooser: ast.Expr | None,
                    options: list[ast.Option], decline: bool = False,
                    then: list[ast.Stmt] | None = None) -> Exec:
    who = compile_expr(chooser) if chooser is not None else None
    compiled = [(o.label, compile_expr(o.guard) if o.guard else None,
                 compile_block(o.body + (then or []))) for o in options]
    if any(o.about is not None for o in options):
        return _choose_about(node, who, compiled, [_about_of(o) for o in options], decline)

    def choose(env: Env) -> None:
        env.rt.tick()
        open_options = [(label, body) for label, guard, body in compiled
                        if guard is None or guard(env)]
        if not open_options:
            return
        if decline:
            open_options.append((DECLINE, lambda env: None))
        player = who(env) if who is not None else env.me
        index = env.rt.choose_option(player, [label for label, _ in open_options], env, node)
        open_options[index][1](env)

    return choose


def _about_of(option: ast.Option) -> Eval | None:
    return compile_expr(option.about) if option.about is not None else None


def _choose_about(node: ast.Choose | ast.May, who: Eval | None,
                  compiled: list[tuple[str, Eval | None, Exec]],
                  abouts: list[Eval | None], decline: bool) -> Exec:
    """``_compile_choose`` for options that say what cards they are about: each open
    option's ``about`` is read right after its guard, and the runtime is handed the
    values (None for an option without one, and for the decline)."""

    def choose(env: Env) -> None:
        env.rt.tick()
        open_options = []
        about = []
        for (label, guard, body), cards in zip(compiled, abouts, strict=True):
            if guard is None or guard(env):
                open_options.append((label, body))
                about.append(cards(env) if cards is not None else None)
        if not open_options:
            return
        if decline:
            open_options.append((DECLINE, lambda env: None))
            about.append(None)
        player = who(env) if who is not None else env.me
        index = env.rt.choose_option(player, [label for label, _ in open_options], env, node,
                                     about)
        open_options[index][1](env)

    return choose


_DEFAULT = -1  # ``python_after`` not given: ``PYTHON_AFTER``, read as a handler is made


def compile_program(program: ast.Program, source_name: str = "<effect>", *,
                    python_after: int | None = _DEFAULT) -> Handler:
    """Compile a checked program into a handler: closures for its first
    ``python_after`` calls (by default ``PYTHON_AFTER``), then Python source (None:
    closures only)."""
    return Handler(program, source_name, PYTHON_AFTER if python_after == _DEFAULT
                   else python_after)


def compile_expression(expr: ast.Expr, source_name: str = "<expression>", *,
                       python_after: int | None = _DEFAULT) -> ExprHandler:
    """Compile a checked expression into a handler returning its value (as
    ``compile_program``)."""
    return ExprHandler(expr, source_name, PYTHON_AFTER if python_after == _DEFAULT
                       else python_after)


def _closures(tree: ast.Program | ast.Expr) -> Callable[[Env], Any]:
    """The tree as closures, each node a Python function calling its children's."""
    token = _BOUND.set(ast.bound_names(tree))
    try:
        if isinstance(tree, ast.Program):
            return compile_block(tree.body) if tree.body else (lambda env: None)
        return compile_expr(tree)
    finally:
        _BOUND.reset(token)


# ---- generated Python source, linked per runtime ----------------------------------------------

def _source_of(tree: ast.Program | ast.Expr) -> pysource.Source:
    return pysource.program_source(tree) if isinstance(tree, ast.Program) \
        else pysource.expression_source(tree)


def _python(tree: ast.Program | ast.Expr, source_name: str
            ) -> tuple[Any, pysource.Source] | None:
    """The tree's generated source, compiled; None where Python's compiler refuses it
    (blocks or brackets nested deeper than it allows)."""
    source = _source_of(tree)
    try:
        # named for profiles and tracebacks (a name, never run as a path)
        return compile(source.text, f"<effect {source_name}>", "exec"), source
    except (SyntaxError, RecursionError, MemoryError, ValueError, OverflowError):
        return None


def _checked_call(impl: Callable[..., Any], tick: Callable[[], None] | None, rt: Runtime,
                  env: Env, args: list[Any], kwargs: dict[str, Any],
                  checks: tuple[tuple[int, ...], tuple[str, ...], str]) -> Any:
    """A call inside an expression whose numbers are checked after every argument is
    worked out (as ``_compile_call`` does), then a step for a verb, then the call."""
    numeric, numeric_kw, where = checks
    for i in numeric:
        args[i] = number(args[i], where)
    for key in numeric_kw:
        kwargs[key] = number(kwargs[key], where)
    if tick is not None:
        tick()
    return impl(rt, env, *args, **kwargs)


# The names generated source may use besides its own (``pysource.py``), and the only
# builtins it sees.
HELPERS: dict[str, Any] = {
    "__builtins__": {"int": int, "isinstance": isinstance, "range": range, "max": max,
                     "callable": callable},
    "_M": _MISSING,  # a variable not yet bound
    "_Bound": Bound, "_Stop": StopEffect, "_num": number,
    "_as_list": as_list, "_bounded": bounded, "_plus": _plus, "_union": _union,
    "_AmountSpec": AmountSpec, "_checked_call": _checked_call,
    "_lookup_global": _lookup_global,
    **{name: _ARITH[op] for op, name in pysource.ORDER_OPS.items()},
}


def link(code: Any, source: pysource.Source, cls: type) -> Callable[[Env], Any]:
    """The generated function for runtimes of class ``cls``: its verbs, functions and
    attributes are the implementations ``cls.words`` registers (``words.py``), called
    directly, when the class has them; else calls of ``Runtime.verb``, ``function``
    and ``attribute``."""
    words = getattr(cls, "words", None)
    names = {f"_k{i}": value for i, value in enumerate(source.consts)}
    names.update((f"_l{i}", _resolve(words, *link)) for i, link in enumerate(source.links))
    make = precompiled.factories().get(source.text)  # the same text, compiled ahead
    if make is not None:
        return make(**names)
    namespace = {**HELPERS, **names}
    exec(code, namespace)
    return namespace["_run"]


def _resolve(words: Implementations | None, kind: str, word: str, node: ast.Node | None
             ) -> Callable[..., Any]:
    """One word, linked: ``impl(rt, env, *args, **kw)``, or ``impl(rt, value)`` for an
    attribute."""
    if kind == "attribute":
        return _attribute_reader(words, word)
    if kind == "readers":
        return _readers(words, word).get
    table = None if words is None else words.verbs if kind == "verb" else words.functions
    impl = table.get(word) if table is not None else None
    if impl is not None:
        return impl
    if kind == "verb":
        return lambda rt, env, *args, **kw: rt.verb(word, list(args), kw, env, node)
    return lambda rt, env, *args, **kw: rt.function(word, list(args), kw, env)


def _readers(words: Implementations | None, name: str) -> dict[type, Callable[[Any, Any], Any]]:
    """The runtime's reader of attribute ``name`` for each class of plain values (never
    a list, a zone or a value with ``cards``: ``attribute_of`` reads those element by
    element)."""
    return {} if words is None else {
        cls: table[name] for cls, table in words.attributes.items()
        if name in table and not issubclass(cls, list | tuple | set | frozenset)
        and not hasattr(cls, "cards") and "cards" not in getattr(cls, "__dataclass_fields__", ())}


def _attribute_reader(words: Implementations | None, name: str) -> Callable[[Any, Any], Any]:
    """``attribute_of`` for one attribute name, with the runtime's reader for each class
    of plain values (never a list, a zone or a value with ``cards``) found in one dict."""
    get = _readers(words, name).get

    def attribute(rt: Runtime, value: Any) -> Any:
        read = get(type(value))
        if read is not None:
            return read(rt, value)
        return attribute_of(rt, value, name)

    return attribute
