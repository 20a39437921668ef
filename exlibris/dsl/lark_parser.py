"""Parsing effect-language source into the typed AST with Lark, with author-friendly
errors (``parser.py`` asks here when the per-user cache has no tree for the text).

The Lark parser is made once per process. Building its LALR tables from
``grammar.lark`` takes longer than anything else a short command does, so they
are shipped too, as JSON data (``grammar_tables.py``); a parser is built from the
grammar only when the kept tables were made from another grammar or by another
version of Lark.
"""

from __future__ import annotations

import difflib
import hashlib
import re
from functools import cache
from importlib import resources
from typing import Any, ClassVar, NamedTuple

from lark import Lark, Token, Transformer, v_args
from lark import __version__ as lark_version
from lark.exceptions import (
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
)
from lark.grammar import Rule
from lark.indenter import DedentError, Indenter
from lark.lexer import TerminalDef

from exlibris.dsl import ast, grammar_tables
from exlibris.dsl.errors import DslError
from exlibris.limits import MAX_INT_DIGITS, int_too_long

MAX_SOURCE_CHARS = 8000
MAX_BLOCK_DEPTH = 12
MAX_EXPR_DEPTH = 100


class _EffectIndenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types: ClassVar[list[str]] = ["LPAR", "LSQB"]
    CLOSE_PAREN_types: ClassVar[list[str]] = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4


_START = ["program", "trigger", "rule", "expression"]


def _grammar() -> str:
    return resources.files("exlibris.dsl").joinpath("grammar.lark").read_text("utf-8")


def _build(grammar: str) -> Lark:
    """The parser built from the grammar (works out the LALR tables)."""
    return Lark(grammar, parser="lalr", start=_START, postlex=_EffectIndenter(),
                propagate_positions=True, maybe_placeholders=False)


def grammar_digest(grammar: str) -> str:
    return hashlib.sha256(grammar.encode("utf-8")).hexdigest()


@cache
def _parser() -> Lark:
    grammar = _grammar()
    kept = grammar_tables.load(lark_version, grammar_digest(grammar))
    if kept is not None:
        # Lark's own loader of its serialised tables (Lark.load takes no postlex)
        return Lark.__new__(Lark)._load(kept, postlex=_EffectIndenter())
    return _build(grammar)


def tables_data(grammar: str | None = None) -> dict[str, Any]:
    """The parse tables of ``grammar`` (default: ours) as Lark serialises them."""
    grammar = _grammar() if grammar is None else grammar
    data, memo = _build(grammar).memo_serialize([TerminalDef, Rule])
    data = {**data, "options": {k: v for k, v in data["options"].items() if k != "postlex"}}
    return {"data": data, "memo": memo}


def write_tables() -> str:
    """Write ``grammar_tables.json`` for the current grammar and Lark; returns the file
    written (``scripts/write_grammar_tables.py``)."""
    from pathlib import Path

    grammar = _grammar()
    target = Path(grammar_tables.__file__).with_name(grammar_tables.FILE)
    target.write_text(grammar_tables.dumps(tables_data(grammar), lark_version,
                                           grammar_digest(grammar)) + "\n", encoding="utf-8")
    return str(target)


def _pos(meta: Any) -> dict[str, int]:
    return {"line": getattr(meta, "line", 1), "col": getattr(meta, "column", 1)}


def _tpos(token: Token) -> dict[str, int]:
    return {"line": token.line or 1, "col": token.column or 1}


def _spot(meta: Any) -> tuple[int, int]:
    return getattr(meta, "line", 1), getattr(meta, "column", 1)


def _token_spot(token: Token) -> tuple[int, int]:
    return token.line or 1, token.column or 1


class _About(NamedTuple):
    """An option's ``about X`` while the option is built (told apart from its guard)."""

    value: ast.Expr


class _Question(NamedTuple):
    """The question of a ``may`` or ``choose one`` in the author's words, while the
    statement is built."""

    text: str


@v_args(meta=True, inline=True)
class _ToAst(Transformer):
    """Builds AST nodes; each method is one grammar rule."""

    # -- programs
    def program(self, meta: Any, *stmts: ast.Stmt) -> ast.Program:
        return ast.Program(list(stmts), **_pos(meta))

    def assign(self, meta: Any, name: Token, value: ast.Expr) -> ast.Assign:
        return ast.Assign(str(name), value, **_pos(meta))

    def call_stmt(self, meta: Any, call: ast.Call) -> ast.Do:
        return ast.Do(call, **_pos(meta))

    def may_stmt(self, meta: Any, *parts: Any) -> ast.May:
        question = parts[0] if isinstance(parts[0], _Question) else None
        return ast.May([parts[-1]], question.text if question else None, **_pos(meta))

    def require_stmt(self, meta: Any, cond: ast.Expr) -> ast.Require:
        return ast.Require(cond, **_pos(meta))

    def stop_stmt(self, meta: Any) -> ast.Stop:
        return ast.Stop(**_pos(meta))

    def suite(self, meta: Any, *stmts: ast.Stmt) -> list[ast.Stmt]:
        return list(stmts)

    def if_stmt(self, meta: Any, cond: ast.Expr, body: list[ast.Stmt], *rest: Any) -> ast.If:
        branches = [(cond, body)]
        orelse: list[ast.Stmt] = []
        for part in rest:
            if isinstance(part, tuple):
                branches.append(part)
            else:
                orelse = part
        return ast.If(branches, orelse, **_pos(meta))

    def elif_clause(self, meta: Any, cond: ast.Expr, body: list[ast.Stmt]) -> tuple:
        return (cond, body)

    def else_clause(self, meta: Any, body: list[ast.Stmt]) -> list[ast.Stmt]:
        return body

    def for_stmt(self, meta: Any, var: Token, it: ast.Expr, body: list) -> ast.ForEach:
        return ast.ForEach(str(var), it, body, **_pos(meta))

    def repeat_stmt(self, meta: Any, count: ast.Expr, body: list) -> ast.Repeat:
        return ast.Repeat(count, body, **_pos(meta))

    def may_block(self, meta: Any, *parts: Any) -> ast.May:
        question = parts[0] if isinstance(parts[0], _Question) else None
        return ast.May(parts[-1], question.text if question else None, **_pos(meta))

    def question(self, meta: Any, text: Token) -> _Question:
        return _Question(str(text)[1:-1])

    def as_block(self, meta: Any, player: ast.Expr, body: list[ast.Stmt]) -> ast.As:
        return ast.As(player, body, **_pos(meta))

    def choose_stmt(self, meta: Any, *parts: Any) -> ast.Choose:
        chooser = None
        question = None
        options = []
        for part in parts:
            if isinstance(part, ast.Option):
                options.append(part)
            elif isinstance(part, _Question):
                question = part.text
            else:
                chooser = part
        return ast.Choose(chooser, options, question, **_pos(meta))

    def chooser(self, meta: Any, who: ast.Expr) -> ast.Expr:
        return who

    def option(self, meta: Any, label: Token, *rest: Any) -> ast.Option:
        about = next((r.value for r in rest[:-1] if isinstance(r, _About)), None)
        guard = next((r for r in rest[:-1] if not isinstance(r, _About)), None)
        return ast.Option(str(label)[1:-1], guard, rest[-1], about, **_pos(meta))

    def about(self, meta: Any, cards: ast.Expr) -> _About:
        return _About(cards)

    def guard(self, meta: Any, cond: ast.Expr) -> ast.Expr:
        return cond

    # -- triggers and rules
    def trigger(self, meta: Any, *parts: Any) -> ast.Trigger:
        trig = ast.Trigger("on", "", **_pos(meta))
        for part in parts:
            if isinstance(part, Token) and part.type == "NAME":
                trig.event = str(part)
                trig.spots["event"] = (part.line or 1, part.column or 1)
            elif isinstance(part, tuple):
                key, value, spot = part
                trig.spots[key] = spot
                if key == "mode":
                    trig.mode = value
                elif key == "subject":
                    trig.subject = value
                elif key == "place":
                    trig.place = value
                elif key == "once":
                    trig.once_per = value
                elif key == "during":
                    trig.during = value
                elif key == "if":
                    trig.condition = value
        return trig

    def mode_after(self, meta: Any) -> tuple:
        return ("mode", "after", _spot(meta))

    def mode_before(self, meta: Any) -> tuple:
        return ("mode", "before", _spot(meta))

    def mode_instead(self, meta: Any) -> tuple:
        return ("mode", "instead", _spot(meta))

    def mode_modify(self, meta: Any) -> tuple:
        return ("mode", "modify", _spot(meta))

    def subject(self, meta: Any, who: Token) -> tuple:
        return ("subject", str(who), _token_spot(who))

    def place(self, meta: Any, where: Token) -> tuple:
        return ("place", str(where), _token_spot(where))

    def once_per(self, meta: Any, span: Token) -> tuple:
        return ("once", str(span), _token_spot(span))

    def during(self, meta: Any, phase: Token) -> tuple:
        return ("during", str(phase), _token_spot(phase))

    def condition(self, meta: Any, cond: ast.Expr) -> tuple:
        return ("if", cond, _spot(meta))

    def rule(self, meta: Any, kind: Token, cond: ast.Expr) -> ast.PlacementRule:
        return ast.PlacementRule(str(kind), cond, **_pos(meta))  # type: ignore[arg-type]

    def expression(self, meta: Any, expr: ast.Expr) -> ast.Expr:
        return expr

    # -- expressions
    def where(self, meta: Any, source: ast.Expr, cond: ast.Expr) -> ast.Where:
        return ast.Where(source, cond, **_pos(meta))

    def where_named(self, meta: Any, source: ast.Expr, name: Token, cond: ast.Expr
                    ) -> ast.Where:
        return ast.Where(source, cond, str(name)[:-1], **_pos(meta))

    def if_expr(self, meta: Any, then: ast.Expr, test: ast.Expr, otherwise: ast.Expr
                ) -> ast.IfExpr:
        return ast.IfExpr(then, test, otherwise, **_pos(meta))

    def or_(self, meta: Any, left: ast.Expr, right: ast.Expr) -> ast.BinOp:
        return ast.BinOp("or", left, right, **_pos(meta))

    def and_(self, meta: Any, left: ast.Expr, right: ast.Expr) -> ast.BinOp:
        return ast.BinOp("and", left, right, **_pos(meta))

    def not_(self, meta: Any, operand: ast.Expr) -> ast.Not:
        return ast.Not(operand, **_pos(meta))

    def compare(self, meta: Any, left: ast.Expr, op: Token, right: ast.Expr) -> ast.BinOp:
        return ast.BinOp(str(op), left, right, **_pos(meta))

    def contains(self, meta: Any, item: ast.Expr, coll: ast.Expr) -> ast.BinOp:
        return ast.BinOp("in", item, coll, **_pos(meta))

    def not_contains(self, meta: Any, item: ast.Expr, coll: ast.Expr) -> ast.BinOp:
        return ast.BinOp("notin", item, coll, **_pos(meta))

    def union(self, meta: Any, left: ast.Expr, right: ast.Expr) -> ast.BinOp:
        return ast.BinOp("|", left, right, **_pos(meta))

    def arith(self, meta: Any, left: ast.Expr, op: Token, right: ast.Expr) -> ast.BinOp:
        return ast.BinOp(str(op), left, right, **_pos(meta))

    def neg(self, meta: Any, _minus: Token, operand: ast.Expr) -> ast.Neg:
        return ast.Neg(operand, **_pos(meta))

    def attr(self, meta: Any, obj: ast.Expr, name: Token) -> ast.Attr:
        return ast.Attr(obj, str(name), **_tpos(name))

    def call(self, meta: Any, func: Token, arglist: list[ast.Arg] | None = None) -> ast.Call:
        return ast.Call(str(func), arglist or [], **_tpos(func))

    def arglist(self, meta: Any, *args: ast.Arg) -> list[ast.Arg]:
        return list(args)

    def positional(self, meta: Any, value: ast.Expr) -> ast.Arg:
        return ast.Arg(None, value, **_pos(meta))

    def keyword(self, meta: Any, name: Token, value: ast.Expr) -> ast.Arg:
        return ast.Arg(str(name), value, **_tpos(name))

    def keyword_bound(self, meta: Any, name: Token, value: ast.Expr) -> ast.Arg:
        return ast.Arg(str(name)[:-1], value, **_tpos(name))

    def amount_any(self, meta: Any) -> ast.Arg:
        return ast.Arg(None, ast.Amount("any", **_pos(meta)), **_pos(meta))

    def amount_all(self, meta: Any) -> ast.Arg:
        return ast.Arg(None, ast.Amount("all", **_pos(meta)), **_pos(meta))

    def amount_up_to(self, meta: Any, value: ast.Expr) -> ast.Arg:
        return ast.Arg(None, ast.Amount("up_to", value, **_pos(meta)), **_pos(meta))

    def amount_at_least(self, meta: Any, value: ast.Expr) -> ast.Arg:
        return ast.Arg(None, ast.Amount("at_least", value, **_pos(meta)), **_pos(meta))

    def int_(self, meta: Any, token: Token) -> ast.Num:
        if int_too_long(str(token)):
            raise DslError("dsl/number-too-large",
                           f"a number of more than {MAX_INT_DIGITS} digits", **_tpos(token))
        return ast.Num(int(token), **_tpos(token))

    def str_(self, meta: Any, token: Token) -> ast.Str:
        return ast.Str(str(token)[1:-1], **_tpos(token))

    def true_(self, meta: Any) -> ast.Bool:
        return ast.Bool(True, **_pos(meta))

    def false_(self, meta: Any) -> ast.Bool:
        return ast.Bool(False, **_pos(meta))

    def name(self, meta: Any, token: Token) -> ast.Name:
        return ast.Name(str(token), **_tpos(token))

    def ref(self, meta: Any, token: Token) -> ast.Ref:
        return ast.Ref(str(token)[1:], **_tpos(token))

    def list_(self, meta: Any, *items: ast.Expr) -> ast.ListExpr:
        return ast.ListExpr(list(items), **_pos(meta))


_TRANSFORMER = _ToAst()

# Known mistakes, mapped to plain advice (see Lark's match_examples).
_MISTAKES: dict[str, list[str]] = {
    "a condition compares with '==', not '=' ": ["if x = 1:\n  stop\n", "require x = 1\n"],
    "a line that opens a block must end with ':'": [
        "if x\n  stop\n",
        "may\n  stop\n",
        "for each p in players\n  stop\n",
        "repeat 2 times\n  stop\n",
    ],
    "write 'elif' instead of 'else if'": ["if x:\n  stop\nelse if y:\n  stop\n"],
    "'choose one:' must be followed by indented 'option \"label\":' lines": [
        "choose one:\n  stop\n",
        "choose one:\n  draw(1)\n",
    ],
    "an option needs a label in double quotes: option \"label\":": [
        "choose one:\n  option take:\n    stop\n",
        "choose one:\n  option 'take':\n    stop\n",
    ],
    "a bracket or parenthesis is not closed": ["draw(1\n", "x = [1, 2\n", "draw(count(hand)\n"],
    "keyword arguments are written 'name: value', not 'name=value'": [
        "discard(1, from=hand)\n",
        "draw(n=1)\n",
    ],
    "'for each' loops are written 'for each NAME in COLLECTION:'": [
        "for p in players:\n  stop\n",
        "for each in players:\n  stop\n",
    ],
    "amounts are written 'up to N' or 'at least N'": ["discard(upto 2, from: hand)\n"],
}


def _friendly(exc: UnexpectedInput, text: str, start: str) -> str | None:
    if start != "program":
        return None
    try:
        label = exc.match_examples(
            lambda t: _parser().parse(t, start="program"), _MISTAKES, use_accepts=True
        )
    except Exception:  # pragma: no cover - match_examples must never mask the real error
        return None
    return label


# Two-word phrases of the language, for "did you mean" on misspelled ones.
_PHRASES = ("up to", "at least", "for each", "once per", "instead of", "choose one",
            "not in")
_WORD = re.compile(r"[A-Za-z_]+|[0-9]+")


def _phrase_hint(source: str, line: int, col: int) -> tuple[str, int] | None:
    """``up too 1`` -> "up to 1": a misspelled phrase near the error, corrected, and
    the column where it starts."""
    lines = source.split("\n")
    if not 1 <= line <= len(lines):
        return None
    words = [(m.start() + 1, m.group()) for m in _WORD.finditer(lines[line - 1])]
    for i in range(len(words) - 1):
        (start, first), (_, second) = words[i], words[i + 1]
        pair = f"{first} {second}"
        after = words[i + 2] if i + 2 < len(words) else None
        end = after[0] + len(after[1]) if after else words[i + 1][0] + len(second) + 1
        if not start <= col <= end:
            continue
        for phrase in _PHRASES:
            if pair != phrase and difflib.SequenceMatcher(None, pair, phrase).ratio() >= 0.8:
                tail = f" {after[1]}" if after and after[1][0].isdigit() else ""
                return f"did you mean `{phrase}{tail}`?", start
    return None


def _unindented_block(source: str, line: int) -> str | None:
    """The line that opens a block (ends with ':'), shortened, when ``line``, the first
    after it, is not indented further than it: the block's body was not indented."""
    lines = source.split("\n")
    if not 2 <= line <= len(lines):
        return None
    before = next((n for n in range(line - 1, 0, -1)
                   if lines[n - 1].split("#")[0].strip()), None)
    if before is None or not lines[before - 1].split("#")[0].rstrip().endswith(":"):
        return None
    def indent(text: str) -> int:
        return len(text) - len(text.lstrip(" \t"))
    if indent(lines[line - 1]) > indent(lines[before - 1]):
        return None
    opener = lines[before - 1].split("#")[0].strip()
    return opener if len(opener) <= 40 else opener[:37] + "...:"


def _describe(exc: UnexpectedInput) -> str:
    if isinstance(exc, UnexpectedCharacters):
        char = exc.char
        if char == "'":
            return "strings are written in double quotes"
        if char == "=":
            return "unexpected '='; comparisons use '==', keyword arguments 'name: value'"
        return f"unexpected character {char!r}"
    if isinstance(exc, UnexpectedEOF):
        return "the text ends too early (an unfinished statement or block?)"
    if isinstance(exc, UnexpectedToken):
        token = exc.token
        if token.type == "$END":
            return "the text ends too early (an unfinished statement or block?)"
        if token.type == "_NL":
            return "the line ends too early"
        if token.type == "_INDENT":
            return "unexpected indentation"
        if token.type == "_DEDENT":
            return "a block must hold at least one statement"
        if token.type == "EQUAL":  # '=' only ever assigns: a slip for '==' or 'name:'
            return ("unexpected '='; to compare, write '==' (if count(hand) == 1:); "
                    "'=' only gives a name a value (drawn = draw(2)), and a keyword "
                    "argument is written 'name: value'")

        expected = sorted(e for e in exc.expected if not e.startswith("_"))
        shown = ", ".join(_token_word(e) for e in expected[:6])
        return f"unexpected {str(token)!r}" + (f"; expected {shown}" if shown else "")
    return "invalid syntax"


def _token_word(name: str) -> str:
    if name in _TOKEN_WORDS:
        return _TOKEN_WORDS[name]
    try:
        pattern = _parser().get_terminal(name).pattern
    except KeyError:
        return name.lower()
    return f"'{pattern.value}'" if pattern.type == "str" else name.lower()


_TOKEN_WORDS = {
    "COMP_OP": "a comparison",
    "NAME": "a name",
    "INT": "a number",
    "STRING": "a quoted string",
    "ID": "an @id",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "COLON": "':'",
    "COMMA": "','",
    "EQUAL": "'='",
}


def _parse(text: str, start: str) -> Any:
    if len(text) > MAX_SOURCE_CHARS:
        raise DslError("dsl/too-long",
                       f"source text has {len(text)} characters; the limit is {MAX_SOURCE_CHARS}",
                       1, 1)
    if start == "program":
        source = text.rstrip() + "\n"
    else:  # one logical line; keep columns by turning line breaks into spaces
        source = text.replace("\r", " ").replace("\n", " ").rstrip()
    try:
        tree = _parser().parse(source, start=start)
    except UnexpectedInput as exc:
        line = getattr(exc, "line", 1) or 1
        col = getattr(exc, "column", 1) or 1
        if start != "program":
            line, col = 1, col
        at_end = isinstance(exc, UnexpectedEOF) or (
            isinstance(exc, UnexpectedToken) and exc.token.type == "$END")
        if line < 0 or at_end:
            line, col = _end_position(source)
        elif isinstance(exc, UnexpectedToken) and exc.token.type == "_INDENT":
            line, col = line + 1, 1
        phrase = _phrase_hint(source, line, col)
        hint = None if phrase else _friendly(exc, source, start)
        if phrase:
            col = phrase[1]
        opener = _unindented_block(source, line) if start == "program" else None
        if phrase:
            message = f"syntax error: {phrase[0]}"
        elif opener is not None:
            message = (f"syntax error: the lines under '{opener}' are not indented; "
                       "indent the body of a line that ends with ':' under it")
        elif hint and isinstance(exc, UnexpectedToken) and exc.token.type == "EQUAL":
            message = f"syntax error: unexpected '=' ({hint})"
        else:
            message = f"syntax error: {_describe(exc)}" + (f" ({hint})" if hint else "")
        raise DslError("dsl/syntax", message, line, col, source) from None
    except DedentError:
        line, col = _bad_dedent(source)
        raise DslError("dsl/syntax", "syntax error: this line's indentation matches no "
                       "enclosing block; indent it like the lines it belongs with",
                       line, col, source) from None
    try:
        result = _TRANSFORMER.transform(tree)
    except VisitError as exc:
        if isinstance(exc.orig_exc, DslError):
            raise exc.orig_exc from None
        result = None
    except RecursionError:
        result = None
    if result is None or _depth(result) > MAX_EXPR_DEPTH:
        raise DslError("dsl/too-deep",
                       f"expressions nest more than {MAX_EXPR_DEPTH} deep; simplify it", 1, 1)
    return result


def _depth(root: ast.Node) -> int:
    """The depth of the syntax tree, measured without recursion."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        if isinstance(node, list | tuple):
            stack.extend((item, depth) for item in node)
        elif isinstance(node, ast.Node):
            for name in node.__slots__:
                stack.append((getattr(node, name), depth + 1))
    return deepest


def _bad_dedent(source: str) -> tuple[int, int]:
    """Where a line dedents to a column no enclosing block started at."""
    stack = [0]
    depth = 0  # open brackets: lines inside them do not indent
    for number, line in enumerate(source.split("\n"), 1):
        text = line.expandtabs(_EffectIndenter.tab_len)
        if depth == 0 and text.strip() and not text.lstrip().startswith("#"):
            indent = len(text) - len(text.lstrip())
            if indent > stack[-1]:
                stack.append(indent)
            while indent < stack[-1]:
                stack.pop()
            if indent != stack[-1]:
                return number, indent + 1
        depth = max(0, depth + sum(line.count(c) for c in "([") - sum(line.count(c)
                                                                       for c in ")]"))
    return 1, 1


def _end_position(text: str) -> tuple[int, int]:
    lines = text.rstrip("\n").split("\n")
    return len(lines), len(lines[-1]) + 1


def parse(text: str, start: str) -> Any:
    """Parse ``text`` from the grammar's rule ``start`` (program, trigger, rule or
    expression); a program's blocks are checked for depth too."""
    tree = _parse(text, start)
    if start == "program":
        _check_depth(tree.body, 1)
    return tree


def _check_depth(body: list[ast.Stmt], depth: int) -> None:
    for stmt in body:
        blocks = _blocks(stmt)
        if blocks and depth > MAX_BLOCK_DEPTH:
            raise DslError("dsl/too-deep",
                           f"blocks nest more than {MAX_BLOCK_DEPTH} deep", stmt.line, stmt.col)
        for block in blocks:
            _check_depth(block, depth + 1)


def _blocks(stmt: ast.Stmt) -> list[list[ast.Stmt]]:
    match stmt:
        case ast.If(branches=branches, orelse=orelse):
            return [b for _, b in branches] + ([orelse] if orelse else [])
        case ast.ForEach(body=b) | ast.Repeat(body=b) | ast.May(body=b) | ast.As(body=b):
            return [b]
        case ast.Choose(options=options):
            return [o.body for o in options]
    return []
