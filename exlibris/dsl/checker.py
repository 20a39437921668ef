"""Static checks of effect-language source before anything runs.

Unknown verbs, functions, names, attributes and ``@ids`` get a "did you mean";
arguments are checked against the vocabulary's signatures; verbs may not appear
where only a value is wanted; triggers must fit their ability's timing.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from exlibris.dsl import ast
from exlibris.dsl import vocabulary as vocab
from exlibris.dsl.errors import DslError


@dataclass(frozen=True)
class Catalog:
    """The ids an ``@id`` may name, by kind (category, location, assistant, artifact...)."""

    ids: Mapping[str, str] = field(default_factory=dict)
    settings: frozenset[str] = frozenset()
    codes: Mapping[str, str] = field(default_factory=dict)  # category code -> id; empty:
    # the categories are not known here, and any code letter is accepted
    setting_kinds: Mapping[str, str] = field(default_factory=dict)  # ruling -> its type
    # (``bool``, ``int``, ``str``), as the standard rules set it; a ruling not here: any
    max_steps: int | None = None  # the step budget of the standard rules, if known

    def categories_in_reach(self) -> str:
        """The categories an effect may name, as a clause of a message."""
        return ", ".join(f"@{code} ({cid})" for code, cid in sorted(self.codes.items()))

    def kind_of(self, ref: str) -> str | None:
        return self.ids.get(ref)


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest choice, or nothing."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


_REF_TYPES = {"category": "category", "location": "location", "assistant": "any",
              "artifact": "any", "library": "any"}


class Checker:
    """Checks one piece of source; problems accumulate in ``errors``."""

    def __init__(self, names: Mapping[str, str], catalog: Catalog, *, verbs_allowed: bool,
                 in_score: bool = False):
        self.scope: dict[str, str] = dict(names)
        self.catalog = catalog
        self.verbs_allowed = verbs_allowed
        self.in_score = in_score  # only the words the score runtime has (``in_scores``)
        self.errors: list[DslError] = []
        self.repeats = 1  # passes of the block being checked, from the literal repeats
        # around it (each pass is a step: ``dsl/step-budget``)

    def fail(self, node: ast.Node, code: str, message: str) -> None:
        self.errors.append(DslError(code, message, node.line, node.col))

    # ---- statements ------------------------------------------------------------------------

    def block(self, body: list[ast.Stmt]) -> None:
        for stmt in body:
            self.stmt(stmt)

    def stmt(self, stmt: ast.Stmt) -> None:
        match stmt:
            case ast.Assign(name=name, value=value):
                if name in vocab.GLOBAL_NAMES or name in ("it",):
                    self.fail(stmt, "dsl/reserved-name", f"{name!r} is a built-in name; "
                              "choose another name")
                self.scope[name] = self.expr(value)
            case ast.Do(call=call):
                self.expr(call)
            case ast.May(body=body):
                self.block(body)
            case ast.Require(condition=cond):
                self.condition(cond)
            case ast.Stop():
                pass
            case ast.If(branches=branches, orelse=orelse):
                for cond, body in branches:
                    self.condition(cond)
                    self.block(body)
                self.block(orelse)
            case ast.ForEach(var=var, iterable=iterable, body=body):
                kind = self.expr(iterable)
                self.scope[var] = vocab.element_of(kind)
                self.block(body)
            case ast.Repeat(count=count, body=body):
                self.expect(count, "int", "the repeat count")
                times = literal_int(count)
                if times is not None and times < 0:
                    self.fail(count, "dsl/count-range",
                              f"'repeat {times} times' repeats nothing; a repeat count is 0 "
                              "or more")
                outer = self.repeats
                self.repeats = outer * max(times, 1) if times is not None else outer
                budget = self.catalog.max_steps
                if budget is not None and times is not None and self.repeats > budget:
                    self.fail(count, "dsl/step-budget",
                              f"this repeat runs its block {self.repeats:,} times"
                              f"{' (with the repeats around it)' if outer > 1 else ''}, and "
                              f"every pass is a step: past the step budget of {budget:,} "
                              "steps an effect may take (max_steps); repeat fewer times")
                self.block(body)
                self.repeats = outer
            case ast.As(player=player, body=body):
                self.expect(player, "player", "'as'")
                self.block(body)
            case ast.Choose(chooser=chooser, options=options):
                if chooser is not None:
                    self.expect(chooser, "player", "'choose one by'")
                seen: set[str] = set()
                for option in options:
                    if option.label in seen:
                        self.fail(option, "dsl/duplicate-option",
                                  f"two options are labelled {option.label!r}")
                    seen.add(option.label)
                    if option.guard is not None:
                        self.condition(option.guard)
                    if option.about is not None:
                        self.expect(option.about, "cards", "an option's 'about'")
                    self.block(option.body)

    def condition(self, cond: ast.Expr) -> None:
        kind = self.expr(cond)
        if kind not in ("bool", "any"):
            self.fail(cond, "dsl/condition-type",
                      f"a condition must be true or false, not {_a(kind)}; "
                      "compare it, e.g. count(...) > 0")

    def expect(self, expr: ast.Expr, wanted: str, where: str) -> str:
        kind = self.expr(expr)
        if not vocab.accepts(wanted, kind):
            self.fail(expr, "dsl/arg-kind", f"{where} wants {_a(wanted)}, not {_a(kind)}")
        return kind

    # ---- expressions ------------------------------------------------------------------------

    def expr(self, expr: ast.Expr) -> str:
        match expr:
            case ast.Num():
                return "int"
            case ast.Str():
                return "str"
            case ast.Bool():
                return "bool"
            case ast.Name(id=name):
                if name in self.scope:
                    return self.scope[name]
                if len(name) == 1 and name.isupper() and (
                        not self.catalog.codes or name in self.catalog.codes):
                    cid = self.catalog.codes.get(name, "monster-manuals")
                    self.fail(expr, "dsl/unknown-name",
                              f"unknown name {name!r}; a category is written with '@': "
                              f"@{name}, or by its id (@{cid})")
                    return "category"
                choices = list(self.scope)
                self.fail(expr, "dsl/unknown-name",
                          f"unknown name {name!r}{did_you_mean(name, choices)}")
                return "any"
            case ast.Ref(id=ref):
                if len(ref) == 1 and ref.isupper():  # @M: a category by its code
                    if self.catalog.codes and ref not in self.catalog.codes:
                        self.fail(expr, "dsl/unknown-category",
                                  f"no category has the code '@{ref}'; the categories are "
                                  f"{self.catalog.categories_in_reach()}")
                    return "category"
                kind = self.catalog.kind_of(ref)
                if kind is None:
                    if self.catalog.ids:
                        hint = did_you_mean(ref, self.catalog.ids)
                        if not hint and self.catalog.codes:
                            hint = (f"; the categories are "
                                    f"{self.catalog.categories_in_reach()}")
                        self.fail(expr, "dsl/unknown-id", f"unknown id '@{ref}'{hint}")
                    return "any"
                return _REF_TYPES.get(kind, "any")
            case ast.ListExpr(items=items):
                kinds = {self.expr(item) for item in items}
                if len(kinds) == 1:
                    (kind,) = kinds
                    return vocab.PLURAL.get(kind, kind)
                known = sorted(kinds - {"any"}, key=str)
                if len(known) > 1:
                    self.fail(expr, "dsl/arg-kind", "a list holds one kind of value, not "
                              f"{_a(known[0])} and {_a(known[1])}")
                return "any"
            case ast.Amount():
                self.fail(expr, "dsl/amount-misplaced",
                          "amounts (any, all, up to, at least) go first in a verb's arguments")
                return "any"
            case ast.Attr(obj=obj, name=name):
                return self.attribute(expr, self.expr(obj), name)
            case ast.Call():
                return self.call(expr)
            case ast.BinOp(op=op, left=left, right=right):
                return self.binop(expr, op, left, right)
            case ast.Not(operand=operand):
                self.condition(operand)
                return "bool"
            case ast.Neg(operand=operand):
                self.expect(operand, "int", "'-'")
                return "int"
            case ast.IfExpr(then=then, test=test, otherwise=otherwise):
                self.condition(test)
                yes, no = self.expr(then), self.expr(otherwise)
                if vocab.accepts(yes, no):
                    return yes
                if vocab.accepts(no, yes):
                    return no
                self.fail(otherwise, "dsl/arg-kind",
                          f"'if ... else' gives {_a(yes)} one way and {_a(no)} the other; "
                          "give the same kind of value both ways (0 for no points)")
                return "any"
            case ast.Where(source=source, condition=cond, name=name):
                kind = self.expr(source)
                if name != "it" and (name in vocab.GLOBAL_NAMES or name in self.scope):
                    self.fail(expr, "dsl/reserved-name",
                              f"{name!r} is already a name here; choose another name")
                saved = self.scope.get(name)
                self.scope[name] = vocab.element_of(kind)
                self.condition(cond)
                _restore(self.scope, name, saved)
                return "cards" if kind == "zone" else kind
        return "any"

    def binop(self, node: ast.BinOp, op: str, left: ast.Expr, right: ast.Expr) -> str:
        if op in ("and", "or"):
            self.condition(left)
            self.condition(right)
            return "bool"
        if op in ("+", "-", "*", "/"):
            lk, rk = self.expr(left), self.expr(right)
            if op == "+" and (lk in vocab.SINGULAR or lk == "zone") and rk != "int":
                self.same_elements(node, "+", lk, rk)
                return "cards" if lk == "zone" else lk  # joining lists
            for side, kind in ((left, lk), (right, rk)):
                if not vocab.accepts("int", kind):
                    self.fail(side, "dsl/arg-kind", f"'{op}' works on numbers, not {_a(kind)}")
            return "int"
        if op == "|":
            lk, rk = self.expr(left), self.expr(right)
            self.same_elements(node, "|", lk, rk)
            return "cards" if "zone" in (lk, rk) or "cards" in (lk, rk) else lk
        lk, rk = self.expr(left), self.expr(right)
        if op in ("<", "<=", ">", ">="):
            for side, kind in ((left, lk), (right, rk)):
                if kind not in ("int", "str", "any"):
                    self.fail(side, "dsl/arg-kind", f"'{op}' compares two numbers or two "
                              f"texts, not {_a(kind)}; compare a number of it, e.g. count(...)")
                    return "bool"
            if {lk, rk} == {"int", "str"}:
                self.fail(right, "dsl/arg-kind",
                          f"'{op}' compares two numbers or two texts, not a number and a text")
        return "bool"

    def attribute(self, node: ast.Attr, kind: str, name: str) -> str:
        if name.startswith("_"):
            self.fail(node, "dsl/private-attribute",
                      f"attribute {name!r}: names starting with '_' are never attributes")
            return "any"
        if kind == "any":
            return "any"
        plural = kind in vocab.SINGULAR and kind not in vocab.ATTRIBUTES
        base = vocab.SINGULAR[kind] if plural else kind
        table = vocab.ATTRIBUTES.get(base)
        if table is None:
            self.fail(node, "dsl/unknown-attribute", f"{_a(kind)} has no attributes")
            return "any"
        if name not in table:
            self.fail(node, "dsl/unknown-attribute",
                      f"{_a(base)} has no attribute {name!r}{did_you_mean(name, table)}")
            return "any"
        if self.in_score and base not in vocab.SCORE_TYPES and not (
                base == "player" and name in vocab.SCORE_PLAYER_ATTRIBUTES):
            self.fail(node, "dsl/not-in-scoring",
                      f"{name!r} of {_a(base)} cannot be read in a score, which sees only "
                      "the cards of a shelf and the categories")
            return "any"
        result = table[name]
        return vocab.PLURAL.get(result, result) if plural else result

    def call(self, call: ast.Call) -> str:
        name = call.func
        sig = vocab.FUNCTIONS.get(name)
        if sig is not None and self.in_score and not sig.in_scores:
            self.fail(call, "dsl/not-in-scoring",
                      f"{name}() cannot be used in a score, which sees only the cards of a "
                      "shelf and the categories")
        if sig is None:
            sig = vocab.VERBS.get(name)
            if sig is not None and not self.verbs_allowed:
                self.fail(call, "dsl/verb-in-expression",
                          f"{name!r} changes the game and cannot be used here, where only a "
                          "value is computed")
        if sig is None:
            known = list(vocab.FUNCTIONS) + list(vocab.VERBS)
            self.fail(call, "dsl/unknown-verb",
                      f"unknown verb or function {name!r}{did_you_mean(name, known)}")
            for arg in call.args:
                if not isinstance(arg.value, ast.Amount):
                    self.expr(arg.value)
            return "any"
        return self.arguments(call, sig)

    def arguments(self, call: ast.Call, sig: vocab.Signature) -> str:
        positional = [a for a in call.args if a.name is None]
        keywords = [a for a in call.args if a.name is not None]
        if call.func in ("max", "min") and any(a.name == "by" for a in keywords):
            word = "largest" if call.func == "max" else "smallest"
            self.fail(call, "dsl/unknown-keyword",
                      f"{call.func}() compares numbers and takes no 'by:'; for the {word} "
                      f"value of a collection write {word}(COLLECTION, by: ...)")
            return "int"
        if not sig.variadic and len(positional) > len(sig.params):
            self.fail(positional[len(sig.params)], "dsl/too-many-args",
                      f"{call.func}() takes {_count(len(sig.params), 'positional argument')}")
        if len(positional) < sig.min_args:
            self.fail(call, "dsl/missing-arg",
                      f"{call.func}() needs {_count(sig.min_args, 'positional argument')}")
        kinds: list[str] = []
        for i, arg in enumerate(positional):
            wanted = sig.params[min(i, len(sig.params) - 1)] if sig.params else "any"
            if sig.each is not None and i == sig.each and kinds:
                saved = self.scope.get("it")
                self.scope["it"] = vocab.element_of(kinds[0])
                kinds.append(self.expect(arg.value, wanted, f"{call.func}()'s argument {i + 1}"))
                _restore(self.scope, "it", saved)
                continue
            if isinstance(arg.value, ast.Amount):
                if wanted != "amount":
                    self.fail(arg, "dsl/amount-misplaced",
                              f"{call.func}() does not take an amount like "
                              f"'{_amount_words(arg.value)}'")
                elif arg.value.value is not None:
                    self.expect(arg.value.value, "int", "an amount")
                    self.count_in_range(arg.value.value, call.func)
                kinds.append("int")
                continue
            if wanted == "amount" or (wanted == "int" and call.func in vocab.VERBS):
                self.count_in_range(arg.value, call.func)
            if wanted == "amount":
                kinds.append(self.expect(arg.value, "int", f"{call.func}()'s amount"))
            else:
                kinds.append(self.expect(arg.value, wanted, f"{call.func}()'s argument {i + 1}"))
        given: dict[str, str] = {}
        element = vocab.element_of(kinds[0]) if kinds else "any"
        for arg in keywords:
            assert arg.name is not None
            if arg.name in given:
                self.fail(arg, "dsl/duplicate-keyword", f"'{arg.name}:' is given twice")
            if arg.name not in sig.keywords:
                hint = did_you_mean(arg.name, sig.keywords)
                self.fail(arg, "dsl/unknown-keyword",
                          f"{call.func}() has no keyword '{arg.name}:'{hint}")
                given[arg.name] = self.expr(arg.value)
                continue
            wanted = sig.keywords[arg.name]
            where = f"{call.func}()'s '{arg.name}:'"
            if arg.name in sig.lambdas:
                saved = self.scope.get("it")
                self.scope["it"] = element
                given[arg.name] = self.expect(arg.value, wanted, where)
                _restore(self.scope, "it", saved)
            else:
                given[arg.name] = self.expect(arg.value, wanted, where)
                if wanted == "int" and call.func in vocab.VERBS:
                    self.count_in_range(arg.value, call.func)
        for missing in sorted(sig.required_keywords - set(given)):
            self.fail(call, "dsl/missing-arg", f"{call.func}() needs '{missing}:'")
        if call.func == "setting" and self.catalog.settings:
            first = positional[0].value if positional else None
            if not isinstance(first, ast.Str):
                self.fail(call, "dsl/arg-kind", "setting() takes the name of a ruling in quotes")
            elif first.value in vocab.GLOBAL_NAMES and first.value not in self.catalog.settings:
                self.fail(first, "dsl/unknown-setting",
                          f"{first.value!r} is not a setting but a name of the language: "
                          f"write {first.value} without setting(...)")
            elif first.value not in self.catalog.settings:
                self.fail(first, "dsl/unknown-setting", f"unknown setting {first.value!r}"
                          f"{did_you_mean(first.value, self.catalog.settings)}")
        if call.func in COUNTER_WORDS:
            self.counter_args(call, positional, keywords, given)
        if call.func == "rearrange_shelf" and "only" in given:
            only = next(a.value for a in keywords if a.name == "only")
            if not isinstance(only, ast.Str) or only.value not in vocab.REARRANGEMENTS:
                shown = only.value if isinstance(only, ast.Str) else "?"
                self.fail(only, "dsl/unknown-rearrangement",
                          f"rearrange_shelf(only: ...) is one of "
                          f"{', '.join(repr(r) for r in vocab.REARRANGEMENTS)}"
                          f"{did_you_mean(shown, vocab.REARRANGEMENTS)}")
        if call.func == "count" and kinds and kinds[0] in ("int", "bool", "str"):
            self.fail(positional[0], "dsl/arg-kind",
                      f"count() counts the elements of a collection, not {_a(kinds[0])}")
        if call.func == "setting" and positional and isinstance(positional[0].value, ast.Str):
            return self.catalog.setting_kinds.get(positional[0].value.value, "any")
        if sig.returns == "same":
            return kinds[0] if kinds else "any"
        if sig.returns == "element":
            return element
        if sig.returns == "from":
            kind = given.get("from", "any")
            return "cards" if kind == "zone" else kind
        return sig.returns

    def same_elements(self, node: ast.Expr, op: str, lk: str, rk: str) -> None:
        """Joining two collections: their elements are of one kind."""
        left, right = vocab.element_of(lk), vocab.element_of(rk)
        if "any" not in (left, right) and left != right:
            self.fail(node, "dsl/arg-kind", f"'{op}' joins values of one kind, not "
                      f"{_a(lk)} and {_a(rk)}")

    def count_in_range(self, value: ast.Expr, verb: str) -> None:
        """A count or amount written as a number must be 0 or more."""
        n = literal_int(value)
        if n is not None and n < 0:
            self.fail(value, "dsl/count-range",
                      f"{verb}() of {n}: a count is 0 or more (write 0, or leave the step out)")


    def counter_args(self, call: ast.Call, positional: list[ast.Arg],
                     keywords: list[ast.Arg], given: dict[str, str]) -> None:
        """A counter is named by a short name in quotes, and held by the game, a player
        or a location."""
        first = positional[0].value if positional else None
        if not isinstance(first, ast.Str):
            self.fail(first or call, "dsl/counter-name",
                      f"{call.func}() takes the counter's name in quotes first, e.g. "
                      f'{call.func}("uses"{", 1" if call.func != "counter" else ""})')
        elif not COUNTER_NAME.fullmatch(first.value):
            self.fail(first, "dsl/counter-name",
                      f"a counter's name is 1 to 40 letters, digits, '-' or '_', starting "
                      f"with a letter, not {first.value!r}")
        holder = given.get("of")
        if holder is not None and holder not in ("player", "location", "any"):
            node = next(a.value for a in keywords if a.name == "of")
            self.fail(node, "dsl/arg-kind",
                      f"{call.func}()'s 'of:' is a player or a location (leave it out for "
                      f"the game's own counter), not {_a(holder)}")


def literal_int(expr: ast.Expr) -> int | None:
    """The value of a number written in the source (``3``, ``-3``), else None."""
    if isinstance(expr, ast.Num) and isinstance(expr.value, int):
        return expr.value
    if isinstance(expr, ast.Neg):
        inner = literal_int(expr.operand)
        return None if inner is None else -inner
    return None


COUNTER_WORDS = frozenset({"counter", "add_counter", "set_counter"})
COUNTER_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,39}")


def _restore(scope: dict[str, str], name: str, saved: str | None) -> None:
    if saved is None:
        scope.pop(name, None)
    else:
        scope[name] = saved


def _a(kind: str) -> str:
    words = {
        "int": "a number", "bool": "true or false", "str": "a string", "zone": "cards",
        "cards": "cards", "card": "a card", "player": "a player", "players": "players",
        "category": "a category", "categories": "categories", "none": "nothing",
        "assistant": "an assistant", "assistants": "assistants", "space": "a space",
        "location": "a location", "claim": "a claim", "claims": "claims", "any": "a value",
        "home": "home", "rules": "the rules", "strs": "texts", "ints": "numbers",
        "locations": "locations",
        "spaces": "spaces",
    }
    return words.get(kind, kind)


def _article(word: str) -> str:
    return ("an " if word[0] in "aeiou" else "a ") + word


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _amount_words(amount: ast.Amount) -> str:
    return {"any": "any", "all": "all", "up_to": "up to N", "at_least": "at least N"}.get(
        amount.kind, "N")


# ---- entry points ------------------------------------------------------------------------------


def program_names(*, location: bool, event: vocab.Event | None = None,
                  this: str | None = None) -> dict[str, str]:
    """The names a program may use: the globals, plus what its context provides
    (``this``: what carries it, when known: a location, an assistant, a card)."""
    names = dict(vocab.GLOBAL_NAMES)
    if location:
        names.update(vocab.LOCATION_NAMES)
    if event is not None:
        names.update(event.names)
    if this is not None:
        names["this"] = this
    return names


def this_kind(holder: str) -> str:
    """What ``this`` is in the source of an entry: the tile of a location, the
    assistant of an assistant's ability, the card of an artifact's."""
    return {"location": "location", "artifact": "card", "rule": "rules"}.get(holder,
                                                                            "assistant")


def check_program(program: ast.Program, names: Mapping[str, str], catalog: Catalog
                  ) -> list[DslError]:
    checker = Checker(names, catalog, verbs_allowed=True)
    checker.block(program.body)
    return checker.errors


def check_score(expr: ast.Expr, catalog: Catalog) -> list[DslError]:
    checker = Checker(vocab.SCORE_NAMES, catalog, verbs_allowed=False, in_score=True)
    kind = checker.expr(expr)
    if not vocab.accepts("int", kind):
        checker.fail(expr, "dsl/score-type", f"a score must be a number, not {_a(kind)}")
    return checker.errors


def check_rule(rule: ast.PlacementRule, catalog: Catalog, this: str = "assistant"
               ) -> list[DslError]:
    checker = Checker({**vocab.PLACEMENT_NAMES, "this": this}, catalog, verbs_allowed=False)
    checker.condition(rule.condition)
    return checker.errors


def check_trigger(trigger: ast.Trigger, timing: str, catalog: Catalog,
                  this: str | None = None) -> list[DslError]:
    """Check a trigger and that it fits the ability's timing kind."""
    errors: list[DslError] = []

    def fail(code: str, message: str, part: str = "event") -> None:
        line, col = trigger.spots.get(part, (trigger.line, trigger.col))
        errors.append(DslError(code, message, line, col))

    event = vocab.EVENTS.get(trigger.event)
    if event is None:
        fail("dsl/unknown-event", unknown_event_message(trigger.event))
        return errors
    mode_word = {"on": "(plain)", "instead": "instead of"}.get(trigger.mode, trigger.mode)
    if trigger.mode not in event.modes:
        fail("dsl/trigger-mode", f"'{mode_word}' does not apply to the event {trigger.event!r}",
             "mode")
    allowed_modes = vocab.TIMING_MODES.get(timing)
    allowed_events = vocab.TIMING_EVENTS.get(timing)
    if allowed_modes is None:
        fail("dsl/trigger-timing", f"{_article(timing)} ability has no trigger; "
             "give it a 'score:'")
    else:
        if trigger.mode not in allowed_modes:
            fail("dsl/trigger-timing",
                 f"{_article(timing)} ability cannot use a '{mode_word}' trigger "
                 f"(use one of: {', '.join(sorted(allowed_modes))})", "mode")
        if allowed_events is not None and trigger.event not in allowed_events:
            fail("dsl/trigger-timing",
                 f"{_article(timing)} ability cannot trigger on {trigger.event!r}")
    if trigger.subject is not None and trigger.subject not in vocab.SUBJECTS:
        fail("dsl/unknown-subject", f"unknown subject {trigger.subject!r}"
             f"{did_you_mean(trigger.subject, vocab.SUBJECTS)}", "subject")
    if trigger.place is not None:
        place = trigger.place
        if place.startswith("@"):
            kind = catalog.kind_of(place[1:])
            if catalog.ids and kind != "location":
                locations = [i for i, k in catalog.ids.items() if k == "location"]
                fail("dsl/unknown-id",
                     f"unknown location '{place}'{did_you_mean(place[1:], locations)}",
                     "place")
        elif place not in vocab.PLACES:
            fail("dsl/unknown-place",
                 f"unknown place {place!r}{did_you_mean(place, vocab.PLACES)}", "place")
    if trigger.once_per is not None and trigger.once_per not in vocab.LIMITS:
        fail("dsl/unknown-limit", f"'once per {trigger.once_per}': write once per turn, once "
             f"per round or once per game{did_you_mean(trigger.once_per, vocab.LIMITS)}",
             "once")
    if trigger.during is not None and trigger.during not in vocab.PHASES:
        fail("dsl/unknown-phase",
             f"unknown phase {trigger.during!r}{did_you_mean(trigger.during, vocab.PHASES)}",
             "during")
    if trigger.condition is not None:
        checker = Checker(program_names(location=False, event=event, this=this), catalog,
                          verbs_allowed=False)
        checker.condition(trigger.condition)
        for error in checker.errors:
            errors.append(error)
    return errors


def unknown_event_message(event: str) -> str:
    """An unknown trigger event: the word the language has for it, or the closest, and
    always the events there are."""
    spelled = vocab.EVENT_SPELLINGS.get(event.lower())
    hint = (f" (write {spelled!r})" if spelled else did_you_mean(event, vocab.EVENTS))
    return (f"unknown trigger event {event!r}{hint}; the events are "
            f"{', '.join(vocab.EVENTS)}")


def check_reachable(trigger: ast.Trigger, holder: str) -> list[DslError]:
    """Triggers that can never fire, given what carries the ability (``assistant``,
    ``artifact``, or ``rule``: a variant's ability, which every player has): each is
    reported once, with the reason."""
    reasons: list[str] = []
    event = trigger.event
    if event not in vocab.EVENTS:
        return []
    if holder == "artifact" and event in vocab.ASSISTANT_EVENTS:
        reasons.append(f"'{event}' wakes only the assistant that has the ability; an "
                       "artifact is never placed and never arrives")
    elif holder == "artifact" and trigger.place in ("home", "here"):
        reasons.append(f"'at {trigger.place}' needs an assistant that stands somewhere; an "
                       "artifact stays on its shelf (write 'at location' or leave it out)")
    elif holder == "rule" and event in vocab.ASSISTANT_EVENTS:
        reasons.append(f"'{event}' wakes only the assistant that has the ability; a rule "
                       "of the variant is never placed and never arrives")
    elif holder == "rule" and trigger.place in ("home", "here"):
        reasons.append(f"'at {trigger.place}' needs an assistant that stands somewhere; a "
                       "rule of the variant stands nowhere (write 'at location' or leave "
                       "it out)")
    if event == "arrival" and trigger.place == "home":
        reasons.append("assistants arrive at locations, never at home, so 'arrival ... at "
                       "home' never happens")
    phases = vocab.EVENT_PHASES.get(event, frozenset())
    if event in vocab.PHASE_EVENTS:
        if trigger.subject not in (None, "anyone"):
            reasons.append(f"no one does '{event}': the round's flow does; leave out "
                           f"'by {trigger.subject}' (the ability wakes for its owner)")
        elif trigger.place is not None:
            reasons.append(f"'{event}' happens at no place; leave out 'at {trigger.place}'")
        elif trigger.during is not None and trigger.during not in phases:
            reasons.append(f"'during {trigger.during}' does not fit '{event}', which is a "
                           "part of the round itself; leave it out")
    elif trigger.during is not None and trigger.during in vocab.PHASES \
            and trigger.during not in phases:
        reasons.append(f"'{event}' never happens during {trigger.during}; it happens during "
                       f"{' or '.join(p for p in vocab.PHASES if p in phases)}")
    return [DslError("dsl/never-fires", f"this trigger can never fire: {reason}",
                     trigger.line, trigger.col) for reason in reasons[:1]]
