"""Generated content files of every kind, for the content fuzz (``tests/content_fuzz.py``).

Two generators meet here:

- a typed one that walks the vocabulary registry (``exlibris/dsl/vocabulary.py``):
  the names, attributes, functions, verbs, trigger events, subjects, places and
  limits it holds, so that a word added to the registry is generated without a
  change here. It aims at well-typed programs (most of them validate) and mixes in
  what authors get wrong: negative and huge counts, repeats, nothing where a value
  was expected, values of another kind;
- the grammar itself (``exlibris/dsl/grammar.lark``) through
  ``hypothesis.extra.lark.from_lark``, for expressions, triggers and placement rules
  of any shape the parser takes, with names drawn from the registry.

Settings of a variant are walked from the pydantic models of ``model/rules.py``
(each field's type and bounds), so a new setting is generated too.
"""

from __future__ import annotations

import random
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from exlibris.dsl import vocabulary as vocab

# ---- what the shipped content offers to name -----------------------------------------


@dataclass(frozen=True)
class World:
    """The ids and codes of the shipped catalog an ``@id`` may name."""

    locations: tuple[str, ...]
    categories: tuple[str, ...]
    codes: tuple[str, ...]
    libraries: tuple[str, ...]
    assistants: tuple[str, ...]
    artifacts: tuple[str, ...]
    rulings: tuple[str, ...]
    variants: tuple[str, ...]


def world_of(catalog: Any) -> World:
    standard = catalog.variants["standard"].overlay
    return World(tuple(sorted(catalog.locations)), tuple(c.id for c in catalog.categories),
                 tuple(c.code for c in catalog.categories), tuple(sorted(catalog.libraries)),
                 tuple(sorted(catalog.assistants)), tuple(sorted(catalog.artifacts)),
                 tuple(sorted(standard.get("rulings", {}))), tuple(sorted(catalog.variants)))


# ---- the typed generator ----------------------------------------------------------------

LEAF_TYPES = ("int", "bool", "str")
COLLECTIONS = ("cards", "players", "assistants", "spaces", "categories", "locations")


@dataclass
class Scope:
    """Where a piece of source is: the names it may read, what it may call."""

    names: dict[str, str]
    verbs: bool
    score: bool = False
    fresh: int = 0
    bound: list[str] = field(default_factory=list)

    def new_name(self) -> str:
        self.fresh += 1
        return f"v{self.fresh}"


def _fits(wanted: str, actual: str) -> bool:
    """``actual`` stands where ``wanted`` is wanted, without ``any`` (which fits all)."""
    return actual != "any" and vocab.accepts(wanted, actual)


class Typed:
    """Source text of a given type, walked from the vocabulary."""

    def __init__(self, rng: random.Random, world: World, scope: Scope) -> None:
        self.rng = rng
        self.world = world
        self.scope = scope
        self.reading = False  # making a value to read an attribute of
        self.holder = "assistant"  # what carries the source (an artifact: no placing)

    # -- numbers authors write --------------------------------------------------------------
    def count_literal(self) -> str:
        r = self.rng.random()
        if r < 0.80:
            return str(self.rng.randint(0, 4))
        if r < 0.88:
            return str(-self.rng.randint(1, 5))
        if r < 0.96:
            return str(self.rng.choice([10, 50, 200, 1000]))
        return str(self.rng.choice([10**6, 10**9, 999999999999]))

    def int_literal(self) -> str:
        return self.count_literal() if self.rng.random() < 0.5 else str(self.rng.randint(0, 20))

    # -- expressions ------------------------------------------------------------------------
    def expr(self, wanted: str, depth: int = 3) -> str:
        makers = self._makers(wanted, max(depth, 0))
        if not makers:
            return self._fallback(wanted)
        weights = [w for w, _ in makers]
        _, make = self.rng.choices(makers, weights=weights)[0]
        return make()

    def _fallback(self, wanted: str) -> str:
        for name, kind in self.scope.names.items():
            if _fits(wanted, kind) and kind != "home":
                return name
        plain = {"int": "0", "bool": "true", "str": '"A"', "player": "me", "players": "players",
                 "cards": "hand", "zone": "hand", "card": "first(hand)", "category": "prominent",
                 "categories": "[prominent]"}
        return plain.get(wanted, "players" if wanted.endswith("s") else "me")

    def _makers(self, wanted: str, depth: int) -> list[tuple[float, Callable[[], str]]]:
        rng = self.rng
        out: list[tuple[float, Callable[[], str]]] = []
        for name, kind in self.scope.names.items():
            if kind == "home" and (self.reading or wanted != "space"):
                continue  # nothing to read of home; it is only where assistants go
            if _fits(wanted, kind) or (wanted == "any" and kind != "any"):
                out.append((3.0, lambda n=name: n))
        if wanted in ("int", "any"):
            out.append((3.0, self.int_literal))
        if wanted in ("str", "strs"):
            out.append((1.0, lambda: f'"{rng.choice("AEIOUXYZBM")}"'))
        if wanted == "bool":
            out.append((0.5, lambda: rng.choice(["true", "false"])))
        if wanted in ("category", "categories"):
            out.append((1.5, lambda: "@" + rng.choice(self.world.codes)))
            out.append((0.5, lambda: "@" + rng.choice(self.world.categories)))
        if wanted in ("location", "locations") and not self.scope.score:
            out.append((0.7, lambda: "@" + rng.choice(self.world.locations)))
        if depth <= 0:
            return out
        d = depth - 1
        # attributes: of a singular value, or of a collection (one per element)
        for base, table in vocab.ATTRIBUTES.items():
            if base == "zone":
                continue
            if self.scope.score and base not in vocab.SCORE_TYPES and base != "player":
                continue
            for attr, kind in table.items():
                if self.scope.score and base == "player" \
                        and attr not in vocab.SCORE_PLAYER_ATTRIBUTES:
                    continue
                if _fits(wanted, kind) or wanted == "any":
                    out.append((1.0, lambda b=base, a=attr:
                                f"{self._operand(b, d, reading=True)}.{a}"))
                plural = vocab.PLURAL.get(kind)
                if plural and plural == wanted and base in vocab.PLURAL:
                    out.append((0.4, lambda b=base, a=attr:
                                f"{self._operand(vocab.PLURAL[b], d, reading=True)}.{a}"))
        # functions, and verbs where a verb may stand
        table = dict(vocab.FUNCTIONS)
        if self.scope.verbs and depth >= 2:
            table.update(vocab.VERBS)
        for name, sig in table.items():
            if self.scope.score and not sig.in_scores:
                continue
            result = self._result_of(sig, wanted)
            if result is None:
                continue
            weight = 0.4 if name in vocab.VERBS else 1.0
            out.append((weight, lambda n=name, s=sig, r=result: self.call(n, s, d, r)))
        # operators
        if wanted in ("int", "any"):
            out.append((1.0, lambda: f"{self.expr('int', d)} {rng.choice('+-*/')} "
                                     f"{self._atom('int', d)}"))
            out.append((0.2, lambda: f"-{self._atom('int', d)}"))
        if wanted == "bool":
            out.append((2.0, self._comparison(d)))
            out.append((0.8, lambda: f"{self._atom('bool', d)} {rng.choice(['and', 'or'])} "
                                     f"{self._atom('bool', d)}"))
            out.append((0.4, lambda: f"not {self._atom('bool', d)}"))
            out.append((0.6, lambda: self._membership(d)))
        if wanted in COLLECTIONS or wanted in ("zone",):
            coll = "cards" if wanted == "zone" else wanted
            out.append((1.2, lambda: self._where(coll, d)))
            out.append((0.3, lambda: f"{self._atom(coll, d)} | {self._atom(coll, d)}"))
            element = vocab.SINGULAR.get(coll)
            if element:
                out.append((0.3, lambda: "[" + ", ".join(
                    self.expr(element, d) for _ in range(rng.randint(0, 2))) + "]"))
        if wanted != "any" and depth >= 2:
            out.append((0.5, lambda: f"{self._atom(wanted, d)} if {self._atom('bool', d)} "
                                     f"else {self._atom(wanted, d)}"))
        return out

    def _operand(self, kind: str, depth: int, reading: bool = False) -> str:
        saved, self.reading = self.reading, reading
        try:
            text = self.expr(kind, depth)
        finally:
            self.reading = saved
        return text if _simple(text) else f"({text})"

    def _atom(self, kind: str, depth: int) -> str:
        return self._operand(kind, depth)

    def _comparison(self, depth: int) -> Callable[[], str]:
        def make() -> str:
            kind = self.rng.choice(["int", "int", "int", "str", "card", "player", "category"])
            ops = ["==", "!=", "<", "<=", ">", ">="] if kind in ("int", "str") else ["==", "!="]
            return f"{self._atom(kind, depth)} {self.rng.choice(ops)} {self._atom(kind, depth)}"
        return make

    def _membership(self, depth: int) -> str:
        coll = self.rng.choice(["cards", "players", "categories"])
        element = vocab.SINGULAR[coll]
        word = self.rng.choice(["in", "not in"])
        return f"{self._atom(element, depth)} {word} {self._atom(coll, depth)}"

    def _where(self, coll: str, depth: int) -> str:
        source = self._atom(coll, depth)
        element = vocab.SINGULAR.get(coll, "card")
        if self.rng.random() < 0.3:
            binder = f"w{self.rng.randint(1, 9)}"
            if binder in self.scope.names:
                binder = "it"
        else:
            binder = "it"
        saved = self.scope.names.get(binder)
        self.scope.names[binder] = element
        cond = self._atom("bool", depth)
        if saved is None:
            del self.scope.names[binder]
        else:
            self.scope.names[binder] = saved
        return f"{source} where {cond}" if binder == "it" else f"{source} where {binder}: {cond}"

    def _result_of(self, sig: vocab.Signature, wanted: str) -> str | None:
        """What to pass first so that ``sig`` gives ``wanted`` (None: it cannot)."""
        returns = sig.returns
        if returns == "none":
            return None
        if returns == "same":
            return wanted if wanted in COLLECTIONS or wanted in vocab.PLURAL else None
        if returns == "element":
            plural = vocab.PLURAL.get(wanted)
            return plural if plural else None
        if returns == "from":
            return wanted if wanted in COLLECTIONS else None
        if returns == "any":  # setting(): a ruling's value (true or false, or text)
            return "any" if wanted in ("bool", "str") else None
        if _fits(wanted, returns) or wanted == "any":
            return ""
        return None

    def call(self, name: str, sig: vocab.Signature, depth: int, first: str = "") -> str:
        rng = self.rng
        args: list[str] = []
        count = len(sig.params)
        if sig.required is not None and count > sig.required and rng.random() < 0.5:
            count = sig.required
        if sig.variadic:
            count = rng.randint(max(1, sig.min_args), 3)
        for i in range(count):
            kind = sig.params[min(i, len(sig.params) - 1)]
            if i == 0 and first and sig.returns in ("same", "element"):
                kind = first
            if kind == "any":
                kind = rng.choice(COLLECTIONS)
            if sig.each is not None and i == sig.each and args:
                element = vocab.element_of(_guess_kind(args[0]))
                args.append(self._with_it(element, lambda: self.expr("int", depth)))
            elif kind == "amount":
                args.append(self.amount(depth))
            elif kind == "int":
                args.append(self.count_literal() if rng.random() < 0.7 else self.expr("int", depth))
            elif name == "setting" and kind == "str":
                args.append(f'"{rng.choice(self.world.rulings)}"')
            else:
                args.append(self.expr(kind, depth))
        if name == "setting" and not args:
            args.append(f'"{rng.choice(self.world.rulings)}"')
        for key, kind in sig.keywords.items():
            if key not in sig.required_keywords and rng.random() < 0.6:
                continue
            if key == "from" and first and sig.returns == "from":
                kind = first
            if key == "only":
                value = f'"{rng.choice(vocab.REARRANGEMENTS)}"'
            elif key == "direction":
                value = f'"{rng.choice(["left", "right", "clockwise"])}"'
            elif key == "style":
                value = f'"{rng.choice(["up", "down", "left", "right", "any"])}"'
            elif key in sig.lambdas:
                element = vocab.element_of(_guess_kind(args[0])) if args else "any"
                value = self._with_it(element, lambda k=kind: self.expr(k, depth))
            elif kind == "int":
                value = self.count_literal()
            else:
                value = self.expr("cards" if kind == "zone" else kind, depth)
            args.append(f"{key}: {value}")
        return f"{name}({', '.join(args)})"

    def _with_it(self, element: str, make: Callable[[], str]) -> str:
        saved = self.scope.names.get("it")
        self.scope.names["it"] = element
        try:
            return make()
        finally:
            if saved is None:
                del self.scope.names["it"]
            else:
                self.scope.names["it"] = saved

    def amount(self, depth: int) -> str:
        r = self.rng.random()
        if r < 0.45:
            return self.count_literal()
        if r < 0.6:
            return "any"
        if r < 0.7:
            return "all"
        if r < 0.85:
            return f"up to {self.count_literal()}"
        if r < 0.92:
            return f"at least {self.count_literal()}"
        return self.expr("int", depth)

    # -- statements ----------------------------------------------------------------------------
    def program(self, statements: int, depth: int = 2, indent: str = "") -> list[str]:
        lines: list[str] = []
        for _ in range(statements):
            lines.extend(self.statement(depth, indent))
        return lines or [indent + "draw(1)"]

    def statement(self, depth: int, indent: str) -> list[str]:
        rng = self.rng
        inner = indent + "  "
        kinds = ["verb", "verb", "verb", "assign", "assign", "may", "require", "if", "for",
                 "repeat", "as", "choose", "may_block", "stop"]
        if depth <= 0:
            kinds = ["verb", "verb", "assign", "may", "require"]
        kind = rng.choice(kinds)
        if kind == "verb":
            call = self.verb_call(2)
            if call.startswith("choose("):  # a statement 'choose' opens 'choose one:'
                call = f"{self.scope.new_name()} = {call}"
            return [indent + call]
        if kind == "assign":
            name = self.scope.new_name()
            if rng.random() < 0.6:
                verb, sig = self._verb_with_result()
                text = self.call(verb, sig, 2, _from_kind(sig, rng))
                self.scope.names[name] = _returns(sig)
            else:
                wanted = rng.choice(["int", "bool", "cards", "player", "players", "card",
                                     "category", "str", "location", "assistants"])
                text = self.expr(wanted, 2)
                self.scope.names[name] = wanted
            return [f"{indent}{name} = {text}"]
        if kind == "may":
            call = self.verb_call(2)
            if call.startswith("choose("):
                call = f"{self.scope.new_name()} = {call}"
            return [f"{indent}may {call}"]
        if kind == "require":
            return [f"{indent}require {self.expr('bool', 2)}"]
        if kind == "stop":
            return [f"{indent}if {self.expr('bool', 1)}: stop"]
        if kind == "if":
            out = [f"{indent}if {self.expr('bool', 2)}:", *self.program(rng.randint(1, 2),
                                                                          depth - 1, inner)]
            if rng.random() < 0.3:
                out += [f"{indent}elif {self.expr('bool', 2)}:",
                        *self.program(1, depth - 1, inner)]
            if rng.random() < 0.4:
                out += [f"{indent}else:", *self.program(1, depth - 1, inner)]
            return out
        if kind == "for":
            coll = rng.choice(["cards", "players", "cards", "assistants", "categories"])
            var = self.scope.new_name()
            source = self.expr(coll, 2)
            self.scope.names[var] = vocab.SINGULAR[coll]
            return [f"{indent}for each {var} in {source}:",
                    *self.program(rng.randint(1, 2), depth - 1, inner)]
        if kind == "repeat":
            count = self.count_literal() if rng.random() < 0.8 else self.expr("int", 1)
            return [f"{indent}repeat {count} times:", *self.program(1, depth - 1, inner)]
        if kind == "as":
            return [f"{indent}as {self.expr('player', 2)}:", *self.program(1, depth - 1, inner)]
        if kind == "may_block":
            return [f"{indent}may:", *self.program(rng.randint(1, 2), depth - 1, inner)]
        # choose one
        head = f"{indent}choose one"
        if rng.random() < 0.3:
            head += f" by {self.expr('player', 1)}"
        out = [head + ":"]
        for i in range(rng.randint(1, 3)):
            option = f'{inner}option "option {i + 1}"'
            if rng.random() < 0.2:
                option += f" about {self._atom('cards', 1)}"
            if rng.random() < 0.4:
                option += f" if {self.expr('bool', 1)}"
            out += [option + ":", *self.program(1, depth - 1, inner + "  ")]
        return out

    def _verb_with_result(self) -> tuple[str, vocab.Signature]:
        verbs = [(n, s) for n, s in vocab.VERBS.items() if s.returns != "none"]
        return self.rng.choice(verbs)

    def verb_call(self, depth: int) -> str:
        name, sig = self.rng.choice(list(vocab.VERBS.items()))
        return self.call(name, sig, depth, _from_kind(sig, self.rng))

    # -- triggers and placement rules -------------------------------------------------------------
    def trigger(self, timing: str) -> tuple[str, vocab.Event | None]:
        rng = self.rng
        events = vocab.TIMING_EVENTS.get(timing) or frozenset(vocab.EVENTS)
        if self.holder == "artifact":
            events = events - vocab.ASSISTANT_EVENTS or events
        modes_ok = vocab.TIMING_MODES.get(timing, frozenset({"on"}))
        name = rng.choice(sorted(events))
        event = vocab.EVENTS[name]
        modes = sorted(event.modes & modes_ok) or sorted(event.modes)
        mode = rng.choice(modes)
        words = {"on": "", "after": "after ", "before": "before ", "instead": "instead of ",
                 "modify": "modify "}[mode]
        text = words + name
        if rng.random() < 0.5:
            text += f" by {rng.choice(vocab.SUBJECTS)}"
        if rng.random() < 0.3:
            text += f" at {rng.choice(vocab.PLACES)}"
        if rng.random() < 0.3:
            text += f" once per {rng.choice(vocab.LIMITS)}"
        if rng.random() < 0.15:
            text += f" during {rng.choice(vocab.PHASES)}"
        if rng.random() < 0.4:
            saved = dict(self.scope.names)
            self.scope.names.update(event.names)
            verbs, self.scope.verbs = self.scope.verbs, False
            text += f" if {self.expr('bool', 2)}"
            self.scope.names, self.scope.verbs = saved, verbs
        return text, event


def _simple(text: str) -> bool:
    return text.replace("_", "").replace(".", "").replace("@", "").replace("-", "").isalnum() \
        or (text.endswith(")") and text.count("(") == 1 and " " not in text.split("(")[0])


def _guess_kind(text: str) -> str:
    """A rough type of a piece of generated source (for what ``it`` is in a lambda)."""
    if text in ("players", "opponents") or text.startswith(("players", "opponents")):
        return "players"
    if "assistants" in text:
        return "assistants"
    if "categories" in text or ".books" in text:
        return "categories"
    if "spaces" in text:
        return "spaces"
    return "cards"


def _from_kind(sig: vocab.Signature, rng: random.Random) -> str:
    if sig.returns == "from":
        return rng.choice(["cards", "cards", "players", "categories"])
    return ""


def _returns(sig: vocab.Signature) -> str:
    if sig.returns in ("same", "from"):
        return "cards"
    if sig.returns == "element":
        return "card"
    return sig.returns


# ---- the grammar itself --------------------------------------------------------------------


class GrammarWalk:
    """Source of any shape ``grammar.lark`` derives from a start rule (``expression``,
    ``trigger``, ``rule``): each rule's alternatives chosen at random, the shortest
    ones once deep enough; names, ids, numbers and strings drawn from the vocabulary
    and the catalog. (``hypothesis.extra.lark.from_lark`` was measured here first: a
    few seconds an expression, and its tokens come without the spaces the grammar
    ignores, so next to nothing it drew parsed.)"""

    def __init__(self, world: World) -> None:
        import lark

        from exlibris.dsl.lark_parser import _grammar

        parser = lark.Lark(_grammar(), parser="lalr", start=["expression", "trigger", "rule"],
                           lexer="basic")
        self.rules: dict[str, list[list[Any]]] = {}
        for rule in parser.rules:
            self.rules.setdefault(rule.origin.name, []).append(list(rule.expansion))
        self.literals = {t.name: t.pattern.value for t in parser.terminals
                         if t.pattern.type == "str"}
        self.height = self._heights()
        names = sorted({*vocab.GLOBAL_NAMES, *vocab.SCORE_NAMES, *vocab.PLACEMENT_NAMES,
                        *vocab.FUNCTIONS, *vocab.EVENTS, *vocab.SUBJECTS, *vocab.PLACES,
                        *vocab.LIMITS, *vocab.PHASES, "it", "card", "location",
                        "assistant", "arriving", "drawn", "value",
                        *(a for table in vocab.ATTRIBUTES.values() for a in table)})
        self.tokens: dict[str, list[str]] = {
            "NAME": names, "BINDER": ["it:", "c:", "by:", "from:", "tiebreak:"],
            "ID": ["@" + c for c in world.codes] + ["@" + i for i in world.locations[:6]],
            "INT": ["0", "1", "2", "3", "5", "10", "999999999999"],
            "STRING": ['"A"', '"swap"', '"left"', f'"{world.rulings[0]}"'],
            "COMP_OP": ["==", "!=", "<", "<=", ">", ">="],
            "RULE_KIND": list(vocab.RULE_KINDS),
        }

    def _heights(self) -> dict[str, int]:
        height: dict[str, int] = {}
        changed = True
        while changed:
            changed = False
            for name, alternatives in self.rules.items():
                for expansion in alternatives:
                    parts = [height.get(sym.name, 10**6) if not sym.is_term else 0
                             for sym in expansion]
                    h = 1 + max(parts, default=0)
                    if h < height.get(name, 10**6):
                        height[name] = h
                        changed = True
        return height

    def source(self, rng: random.Random, start: str, depth: int = 6) -> str:
        out: list[str] = []
        self._walk(rng, start, depth, out)
        return " ".join(out)

    def _walk(self, rng: random.Random, name: str, depth: int, out: list[str]) -> None:
        alternatives = self.rules[name]
        if depth <= 0:
            low = min(self._cost(e) for e in alternatives)
            alternatives = [e for e in alternatives if self._cost(e) == low]
        for sym in rng.choice(alternatives):
            if sym.is_term:
                out.append(self._token(rng, sym.name))
            else:
                self._walk(rng, sym.name, depth - 1, out)

    def _cost(self, expansion: list[Any]) -> int:
        return max((0 if s.is_term else self.height.get(s.name, 10**6) for s in expansion),
                   default=0)

    def _token(self, rng: random.Random, name: str) -> str:
        if name in self.literals:
            return self.literals[name]
        return rng.choice(self.tokens.get(name, ["x"]))


# ---- variant settings, walked from the models ------------------------------------------------


def settings_overlay(rng: random.Random, model: Any, world: World, path: tuple[str, ...] = (),
                     many: float = 0.25) -> dict[str, Any]:
    """Some of ``model``'s fields, each given a value of its type: mostly within its
    bounds, sometimes at or past them."""
    out: dict[str, Any] = {}
    for name, info in model.model_fields.items():
        if rng.random() > many:
            continue
        value = _value(rng, info.annotation, info.metadata, world, (*path, name))
        if value is not _SKIP:
            out[name] = value
    return out


_SKIP = object()


def _bounds(metadata: list[Any]) -> tuple[int | None, int | None]:
    low = high = None
    expanded: list[Any] = []
    for item in metadata:  # a pydantic FieldInfo holds its bounds in its own metadata
        expanded += [item, *getattr(item, "metadata", [])]
    for item in expanded:
        low = getattr(item, "ge", low) if getattr(item, "ge", None) is not None else low
        high = getattr(item, "le", high) if getattr(item, "le", None) is not None else high
    return low, high


def _int(rng: random.Random, metadata: list[Any], path: tuple[str, ...]) -> int:
    low, high = _bounds(metadata)
    lo = low if low is not None else -3
    hi = high if high is not None else max(lo + 20, 20)
    r = rng.random()
    if r < 0.82:
        return rng.randint(lo, min(hi, lo + 30))
    if r < 0.92:
        return rng.choice([lo, hi])
    if r < 0.96:
        return rng.choice([-1, 0, 1, 99, 1000])
    return rng.choice([10**6, 999999999999, -999999999999])


def _value(rng: random.Random, annotation: Any, metadata: list[Any], world: World,
           path: tuple[str, ...]) -> Any:
    from pydantic import BaseModel

    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Annotated:
        return _value(rng, args[0], [*metadata, *args[1:]], world, path)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in args if a is not type(None)]
        if type(None) in args and rng.random() < 0.02:
            return None
        return _value(rng, rng.choice(options), metadata, world, path)
    if origin is typing.Literal:
        return rng.choice(args)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        if annotation.model_config.get("extra") == "allow" and not annotation.model_fields:
            return _SKIP
        return settings_overlay(rng, annotation, world, path, many=0.35)
    if origin is list:
        (item,) = args or (Any,)
        if path[-1:] in (("starting_locations",), ("remove_locations",), ("locations",)):
            return rng.sample(world.locations, rng.randint(0, 3))
        if path[-1:] in (("remove_libraries",), ("libraries",)):
            return rng.sample(world.libraries, rng.randint(0, 3))
        if path[-1:] == ("modules",):
            return rng.sample(["job-faire", "artifactorium"], rng.randint(0, 2))
        low, high = _bounds(metadata)
        size = rng.randint(low or 0, min(high or 4, 4))
        return [v for v in (_value(rng, item, [], world, path) for _ in range(size))
                if v is not _SKIP]
    if origin is dict:
        key, item = args or (str, Any)
        if key is int:
            return {n: _value(rng, item, [], world, path) for n in
                    rng.sample([1, 2, 3, 4, 5], rng.randint(1, 4))}
        if path[-1:] == ("difficulty",):
            return {rng.choice(["easy", "hard"]): _value(rng, item, [], world, path)}
        return _SKIP
    if annotation is bool or getattr(annotation, "__name__", "") == "StrictBool":
        return rng.random() < 0.5
    if annotation is int or getattr(annotation, "__name__", "") == "StrictInt":
        return _int(rng, metadata, path)
    if annotation is str:
        return rng.choice(world.locations)
    return _SKIP
