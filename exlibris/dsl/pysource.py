"""Checked AST to Python source: one function per program or expression.

The closures of ``compiler.py`` cost a Python call for every node an effect runs;
here a program becomes the text of one function, which ``compiler.py`` compiles
once and links per runtime class. Nothing the author wrote becomes a Python name:
variables are ``_v0, _v1...``, the names of the game ``_g0...``, verbs, functions
and attributes ``_l0...`` (resolved when linked, ``Source.links``), other values
``_k0...`` (``Source.consts``); text appears only as ``repr()`` string literals.
The helpers the code calls (``_num``, ``_as_list``, ``_plus``...) are the ones
``compiler.HELPERS`` provides, so a generated effect does exactly what the closures
do: the same steps ticked in the same order, the same errors.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from exlibris.dsl import ast
from exlibris.dsl.generic import GENERIC
from exlibris.dsl.values import AmountSpec
from exlibris.dsl.vocabulary import FUNCTIONS, VERBS
from exlibris.limits import MAX_EFFECT_INT, MAX_EFFECT_LIST

# A link: ("verb" | "function" | "attribute" | "readers", word, the call node or None);
# "readers" is the ``get`` of a dict from a class to its reader of the attribute
Link = tuple[str, str, ast.Node | None]

COMPARISONS = frozenset({"<", "<=", ">", ">="})
# the helpers of the operators checked for numbers (``compiler._ARITH``)
ORDER_OPS = {"<": "_lt", "<=": "_le", ">": "_gt", ">=": "_ge", "-": "_sub", "*": "_mul",
              "/": "_div"}
DECLINE = "do nothing"  # the extra option of ``may: choose one:``


@dataclass
class Source:
    """A generated function: its text, the values it names ``_k<i>`` and the words it
    names ``_l<i>`` (linked per runtime)."""

    text: str
    consts: list[Any] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    # the effect's line of each line of ``text`` (0: none), for errors at run time
    origins: list[int] = field(default_factory=list)


class _Writer:
    """Writes one function; expressions come back as text, statements as lines."""

    def __init__(self, root: ast.Node) -> None:
        nodes = list(ast.walk(root))  # walked once: the three sets below read it
        self.bound = ast.bound_names(root, nodes)
        self.assigned = frozenset(n.name for n in nodes if isinstance(n, ast.Assign))
        # names that stay in ``env.vars`` after a run: assigned and loop names
        self.kept = self.assigned | frozenset(n.var for n in nodes
                                              if isinstance(n, ast.ForEach))
        self.consts: list[Any] = []
        self.links: list[Link] = []
        self._link_ids: dict[tuple[str, str], int] = {}
        self.vars: dict[str, str] = {}
        self.globals: dict[str, str] = {}
        self.lines: list[str] = []
        self.origins: list[int] = []  # the effect's line of each of ``lines``
        self.at = 0  # the effect's line of the statement being written
        self.temps = 0
        self.iterable = 0  # > 0 inside a comprehension's iterable, where ``:=`` is refused
        self.uses: set[str] = set()  # of the runtime's methods: tick, bind, read

    # ---- names -----------------------------------------------------------------------

    def const(self, value: Any) -> str:
        self.consts.append(value)
        return f"_k{len(self.consts) - 1}"

    def link(self, kind: str, word: str, node: ast.Node | None = None) -> str:
        key = (kind, word)
        if kind == "verb" or key not in self._link_ids:  # a verb's link knows its node
            self.links.append((kind, word, node))
            self._link_ids[key] = len(self.links) - 1
        return f"_l{self._link_ids[key]}"

    def var(self, name: str) -> str:
        if name not in self.vars:
            self.vars[name] = f"_v{len(self.vars)}"
        return self.vars[name]

    def glob(self, name: str) -> str:
        if name not in self.globals:
            self.globals[name] = f"_g{len(self.globals)}"
        return self.globals[name]

    def temp(self) -> str:
        self.temps += 1
        return f"_t{self.temps}"

    def read_global(self, name: str) -> str:
        """``Env.lookup`` of a name no variable holds: ``me``, else the game's name (a
        function of the environment called), else nothing."""
        if name == "me":
            return "env.me"
        g = self.glob(name)
        return f"({g}(env) if {g}_c else {g})"

    # ---- expressions ---------------------------------------------------------------------

    def expr(self, node: ast.Expr) -> str:
        match node:
            case ast.Bool(value=v) | ast.Num(value=v) if v.__class__ in (bool, int):
                return f"({v!r})"
            case ast.Str(value=v) if v.__class__ is str:
                return repr(v)
            case ast.Num() | ast.Str() | ast.Bool():
                return self.const(node.value)
            case ast.Name(id=name):
                return self.name(name)
            case ast.Ref(id=ref) if len(ref) == 1 and ref.isupper():  # @M: by its code
                return f"{self.link('function', 'category')}(rt, env, {ref!r})"
            case ast.Ref(id=ref):
                return f"{self.link('function', 'ref')}(rt, env, {ref!r})"
            case ast.ListExpr(items=items):
                text = "[" + ", ".join(self.expr(i) for i in items) + "]"
                return text if len(items) <= MAX_EFFECT_LIST else f"_bounded({text})"
            case ast.Attr(obj=obj, name=name):
                return self.attribute(obj, name)
            case ast.Call():
                return self.call(node)
            case ast.BinOp(op="and" | "or" as op, left=l, right=r):
                return f"(True if {self.expr(l)} {op} {self.expr(r)} else False)"
            case ast.BinOp(op="+", left=l, right=r):
                return f"_plus({self.expr(l)}, {self.expr(r)})"
            case ast.BinOp(op="|", left=l, right=r):
                return f"_union(_as_list({self.expr(l)}), _as_list({self.expr(r)}))"
            case ast.BinOp(op="in" | "notin" as op, left=l, right=r):
                word = "in" if op == "in" else "not in"
                return f"({self.expr(l)} {word} _as_list({self.expr(r)}))"
            case ast.BinOp(op="==" | "!=" as op, left=l, right=r):
                return f"({self.expr(l)} {op} {self.expr(r)})"
            case ast.BinOp(op=op, left=l, right=ast.Num(value=k)) \
                    if op in COMPARISONS and k.__class__ is int \
                    and -MAX_EFFECT_INT <= k <= MAX_EFFECT_INT and not self.iterable:
                # a number on the left compared at once (``compiler._order``'s first case)
                t = self.temp()
                return (f"({t} {op} {k} if ({t} := {self.expr(l)}).__class__ is int and "
                        f"-{MAX_EFFECT_INT} <= {t} <= {MAX_EFFECT_INT} else "
                        f"{ORDER_OPS[op]}({t}, {k}))")
            case ast.BinOp(op=op, left=l, right=r) if op in ORDER_OPS:
                return f"{ORDER_OPS[op]}({self.expr(l)}, {self.expr(r)})"
            case ast.Not(operand=x):
                return f"(not {self.expr(x)})"
            case ast.Neg(operand=x):
                return f"(-_num({self.expr(x)}, \"'-'\"))"
            case ast.IfExpr(then=then, test=test, otherwise=otherwise):
                return f"({self.expr(then)} if {self.expr(test)} else {self.expr(otherwise)})"
            case ast.Where(source=source, condition=cond, name=name):
                self.iterable += 1
                items = self.expr(source)  # evaluated outside the comprehension, as first
                self.iterable -= 1
                v = self.var(name)
                self.uses.add("tick")  # each element tested is a step (``tick()`` is None)
                return f"[{v} for {v} in _as_list({items}) if tick() or {self.expr(cond)}]"
            case ast.Amount(kind=kind, value=None):
                return self.const(AmountSpec(kind, None))
            case ast.Amount(kind=kind, value=ast.Num(value=n)) \
                    if n.__class__ is int and -MAX_EFFECT_INT <= n <= MAX_EFFECT_INT:
                return self.const(AmountSpec(kind, n))
            case ast.Amount(kind=kind, value=value):
                assert value is not None
                return f"_AmountSpec({kind!r}, _num({self.expr(value)}, 'an amount'))"
        raise TypeError(f"cannot compile {type(node).__name__}")  # pragma: no cover

    def attribute(self, obj: ast.Expr, name: str) -> str:
        """``obj.name``: the runtime's reader for the value's class, found in a dict
        here (``readers``), else the general way (``compiler.attribute_of``)."""
        general = self.link("attribute", name)
        if self.iterable:
            return f"{general}(rt, {self.expr(obj)})"
        value, read = self.temp(), self.temp()
        return (f"({read}(rt, {value}) if ({read} := {self.link('readers', name)}"
                f"(({value} := {self.expr(obj)}).__class__)) is not None "
                f"else {general}(rt, {value}))")

    def name(self, name: str) -> str:
        if name not in self.bound:
            return self.read_global(name)
        v = self.var(name)
        value = v
        if name in self.assigned:  # may hold what ``Runtime.bind`` gave
            self.uses.add("read")
            value = f"(read({v}) if isinstance({v}, _Bound) else {v})"
        fallback = "env.me" if name == "me" else f"_lookup_global(env, {name!r})"
        return f"({value} if {v} is not _M else {fallback})"

    def call(self, node: ast.Call, hoist: list[str] | None = None) -> str:
        """A call as an expression. With ``hoist`` (a statement's own call), its
        arguments are evaluated into temporaries written there first, in the order
        the closures evaluate them, and number checks follow all of them."""
        name = node.func
        sig = FUNCTIONS.get(name) or VERBS.get(name)
        pos_nodes = [a.value for a in node.args if a.name is None]
        each = sig.each if sig is not None and sig.each is not None else None
        lambdas = sig.lambdas if sig else frozenset()
        positional = [self.per_element(p) if i == each else self.expr(p)
                      for i, p in enumerate(pos_nodes)]
        keywords = [(a.name, self.expr(a.value)) for a in node.args
                    if a.name is not None and a.name not in lambdas]
        lambda_kw = [(a.name, self.per_element(a.value)) for a in node.args
                     if a.name is not None and a.name in lambdas]
        generic = name in GENERIC
        is_verb = name in VERBS
        numeric = [i for i, kind in enumerate(sig.params if sig else ())
                   if kind == "int" and i != each and i < len(positional)
                   and not isinstance(pos_nodes[i], ast.Num)]
        numeric_kw = {k for k, _ in keywords if sig and sig.keywords.get(k) == "int"}
        where = repr(f"{name}()")
        impl = self.const(GENERIC[name]) if generic else \
            self.link("verb" if is_verb else "function", name, node if is_verb else None)

        if generic and not keywords and not lambda_kw and len(positional) in (1, 2):
            # a shared function of one or two arguments: each checked as it comes
            args = [f"_num({p}, {where})" if i in numeric else p
                    for i, p in enumerate(positional)]
            return f"{impl}(rt, env, {', '.join(args)})"
        if not numeric and not numeric_kw and not is_verb:
            return f"{impl}(rt, env{_args(positional, keywords + lambda_kw)})"
        if is_verb:
            self.uses.add("tick")
        if hoist is None:  # checks after every argument: a helper keeps that order
            kw = "{" + ", ".join(f"{k!r}: {v}" for k, v in keywords + lambda_kw) + "}"
            checks = self.const((tuple(numeric), tuple(k for k, _ in keywords
                                                       if k in numeric_kw), f"{name}()"))
            return (f"_checked_call({impl}, {'tick' if is_verb else 'None'}, rt, env, "
                    f"[{', '.join(positional)}], {kw}, {checks})")
        # a statement's call: arguments into temporaries, then checks, then the call
        temps = []
        for p in positional:
            temps.append(self.temp())
            hoist.append(f"{temps[-1]} = {p}")
        kw_temps = []
        for k, v in keywords:
            kw_temps.append((k, self.temp()))
            hoist.append(f"{kw_temps[-1][1]} = {v}")
        checked = [temps[i] for i in numeric] + [t for k, t in kw_temps if k in numeric_kw]
        for t in checked:  # ``_num`` called only for what is not a number within the limit
            hoist.append(f"if {t}.__class__ is not int or not -{MAX_EFFECT_INT} <= {t} <= "
                         f"{MAX_EFFECT_INT}:")
            hoist.append(f"    {t} = _num({t}, {where})")
        if is_verb:
            hoist.append("tick()")
        return f"{impl}(rt, env{_args(temps, kw_temps + lambda_kw)})"

    def per_element(self, node: ast.Expr) -> str:
        """An argument worked out for each element, named ``it``: a function of it."""
        self.uses.add("tick")  # each element is a step (``tick()`` returns None)
        return f"(lambda {self.var('it')}: tick() or {self.expr(node)})"

    # ---- statements ----------------------------------------------------------------------

    def emit(self, indent: str, line: str) -> None:
        if line == "tick()":
            self.uses.add("tick")
        self.lines.append(indent + line)
        self.origins.append(self.at)

    def value(self, node: ast.Expr, indent: str) -> str:
        """An expression a statement uses; a call's arguments are hoisted before it."""
        if isinstance(node, ast.Call):
            hoist: list[str] = []
            text = self.call(node, hoist)
            for line in hoist:
                self.emit(indent, line)
            return text
        return self.expr(node)

    def block(self, body: list[ast.Stmt], indent: str) -> None:
        start = len(self.lines)
        for stmt in body:
            self.stmt(stmt, indent)
        if len(self.lines) == start:
            self.emit(indent, "pass")

    def stmt(self, node: ast.Stmt, indent: str) -> None:
        outer, self.at = self.at, node.line
        try:
            self._stmt(node, indent)
        finally:
            self.at = outer

    def _stmt(self, node: ast.Stmt, indent: str) -> None:
        inner = indent + "    "
        match node:
            case ast.Assign(name=name, value=value):
                self.emit(indent, "tick()")
                text = self.value(value, indent)
                self.uses.add("bind")
                self.emit(indent, f"{self.var(name)} = bind({text})")
            case ast.Do(call=call):
                self.emit(indent, "tick()")
                self.emit(indent, self.value(call, indent))
            case ast.May(body=[ast.Choose(chooser=None, options=options), *rest]):
                self.choose(node, None, options, indent, decline=True, then=rest)
            case ast.May(body=body):
                self.emit(indent, "tick()")
                self.emit(indent, f"if rt.may(env, {self.const(node)}):")
                self.block(body, inner)
            case ast.Require(condition=cond):
                self.emit(indent, "tick()")
                self.emit(indent, f"if not {self.expr(cond)}:")
                self.emit(inner, "raise _Stop")
            case ast.Stop():
                self.emit(indent, "raise _Stop")
            case ast.If(branches=branches, orelse=orelse):
                self.emit(indent, "tick()")
                for i, (cond, body) in enumerate(branches):
                    self.emit(indent, f"{'if' if i == 0 else 'elif'} {self.expr(cond)}:")
                    self.block(body, inner)
                if orelse:
                    self.emit(indent, "else:")
                    self.block(orelse, inner)
            case ast.ForEach(var=var, iterable=iterable, body=body):
                self.emit(indent, f"for {self.var(var)} in _as_list({self.expr(iterable)}):")
                self.emit(inner, "tick()")
                self.block(body, inner)
            case ast.Repeat(count=count, body=body):
                self.emit(indent, f"for {self.temp()} in range(max(0, "
                                  f"_num({self.expr(count)}, \"'repeat'\"))):")
                self.emit(inner, "tick()")
                self.block(body, inner)
            case ast.As(player=player, body=body):  # as nothing: the block is skipped
                saved, who = self.temp(), self.temp()
                self.emit(indent, "tick()")
                self.emit(indent, f"{who} = {self.expr(player)}")
                self.emit(indent, f"if {who} is not None:")
                self.emit(inner, f"{saved} = env.me")
                self.emit(inner, f"env.me = {who}")
                self.emit(inner, "try:")
                self.block(body, inner + "    ")
                self.emit(inner, "finally:")
                self.emit(inner + "    ", f"env.me = {saved}")
            case ast.Choose(chooser=chooser, options=options):
                self.choose(node, chooser, options, indent)
            case _:  # pragma: no cover
                raise TypeError(f"cannot compile {type(node).__name__}")

    def choose(self, node: ast.Choose | ast.May, chooser: ast.Expr | None,
               options: list[ast.Option], indent: str, decline: bool = False,
               then: list[ast.Stmt] | None = None) -> None:
        """``compiler._compile_choose``: guards first, in order; then the chooser; then
        the chosen option's steps (and, after ``may: choose one:``, the steps after)."""
        inner, deeper = indent + "    ", indent + "        "
        open_ = self.temp()
        # options that say what cards they are about: each open one's ``about`` is read
        # right after its guard, into a list handed to the runtime with the labels
        about = self.temp() if any(o.about is not None for o in options) else None
        self.emit(indent, "tick()")
        self.emit(indent, f"{open_} = []")
        if about is not None:
            self.emit(indent, f"{about} = []")
        for i, option in enumerate(options):
            step = indent
            if option.guard is not None:
                self.emit(indent, f"if {self.expr(option.guard)}:")
                step = inner
            self.emit(step, f"{open_}.append({i})")
            if about is not None:
                value = "None" if option.about is None else self.expr(option.about)
                self.emit(step, f"{about}.append({value})")
        self.emit(indent, f"if {open_}:")
        if decline:
            self.emit(inner, f"{open_}.append(-1)")
            if about is not None:
                self.emit(inner, f"{about}.append(None)")
        labels = self.const((*(o.label for o in options), DECLINE))
        who = self.expr(chooser) if chooser is not None else "env.me"
        picked = self.temp()
        extra = f", {about}" if about is not None else ""
        self.emit(inner, f"{picked} = {open_}[rt.choose_option({who}, "
                         f"[{labels}[i] for i in {open_}], env, {self.const(node)}{extra})]")
        self.emit(inner, f"if {picked} != -1:")
        for i, option in enumerate(options):
            self.emit(deeper, f"{'if' if i == 0 else 'elif'} {picked} == {i}:")
            self.block(option.body, deeper + "    ")
        self.block(then or [], deeper)

    # ---- the function --------------------------------------------------------------------

    def function(self, body: list[str]) -> Source:
        head = ["def _run(env):", "    rt = env.rt"]
        head += [f"    {method} = rt.{method}" for method in sorted(self.uses)]
        if self.globals:
            head.append("    G = env.globals")
        for name, g in self.globals.items():
            head.append(f"    {g} = G.get({name!r})")
            head.append(f"    {g}_c = callable({g})")
        if self.vars:
            head.append("    " + " = ".join(self.vars.values()) + " = _M")
        kept = [(name, v) for name, v in self.vars.items() if name in self.kept]
        origins = self.origins if body is self.lines else [0] * len(body)
        if not kept:
            return Source("\n".join(head + body) + "\n", self.consts, self.links,
                          [0] * len(head) + origins)
        lines = [*head, "    try:", *("    " + line for line in body), "    finally:",
                 "        V = env.vars"]
        for name, v in kept:
            lines.append(f"        if {v} is not _M:")
            lines.append(f"            V[{name!r}] = {v}")
        return Source("\n".join(lines) + "\n", self.consts, self.links,
                      [0] * (len(head) + 1) + origins)


def _args(positional: list[str], keywords: list[tuple[str, str]]) -> str:
    text = "".join(f", {p}" for p in positional)
    if keywords:
        text += ", **{" + ", ".join(f"{k!r}: {v}" for k, v in keywords) + "}"
    return text


def program_source(program: ast.Program) -> Source:
    """The Python source of a checked program: ``_run(env)`` runs it."""
    writer = _Writer(program)
    writer.block(program.body, "    ")
    return writer.function(writer.lines)


def expression_source(expr: ast.Expr) -> Source:
    """The Python source of a checked expression: ``_run(env)`` returns its value."""
    writer = _Writer(expr)
    text = writer.expr(expr)
    return writer.function([f"    return {text}"])
