"""Abilities compiled from content: triggers, effects, placement rules, scores.

Each special assistant, artifact and location is compiled once per process;
the engine asks ``matches`` whether an event wakes an ability.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from exlibris.dsl import ast
from exlibris.dsl.compiler import ExprHandler, Handler, compile_expression, compile_program
from exlibris.dsl.errors import source_name
from exlibris.dsl.parser import parse_expression, parse_program, parse_rule, parse_trigger
from exlibris.engine.rule_parts import RulePart, reads_placing, rule_parts
from exlibris.engine.state import Assistant
from exlibris.model.cards import ArtifactCard
from exlibris.model.content import Ability, Location


@dataclass(frozen=True, slots=True)
class CompiledRule:
    kind: str  # deny | allow | share
    condition: ExprHandler
    # the condition starts ``placing == this and ...``: it can only speak about
    # placing its own assistant, and the engine skips it for any other
    own_only: bool = False
    # the condition's conjuncts, compiled apart and marked with what they read
    # (``engine/rule_parts.py``), which the engine evaluates in order
    parts: tuple[RulePart, ...] = ()
    # the condition may read ``placing`` (else it says the same of every assistant)
    reads_placing: bool = True
    # for "why not?": the rule as written, its ability's text and the clauses it rules on
    source: str = ""
    text: str = ""
    rulings: tuple[str, ...] = ()


class CompiledAbility:
    """One ability, ready to run (a plain class with slots, not a dataclass, so that
    the compiled build makes it an extension type: ``abilities.pxd``)."""

    __slots__ = ("condition", "effect", "key", "keyword", "rules", "score", "text", "timing",
                 "trigger")

    def __init__(self, key: str, timing: str, keyword: str | None, text: str,
                 trigger: ast.Trigger | None = None, condition: ExprHandler | None = None,
                 effect: Handler | None = None, rules: list[CompiledRule] | None = None,
                 score: ExprHandler | None = None) -> None:
        self.key = key
        self.timing = timing
        self.keyword = keyword
        self.text = text
        self.trigger = trigger
        self.condition = condition
        self.effect = effect
        self.rules: list[CompiledRule] = [] if rules is None else rules
        self.score = score

    def __repr__(self) -> str:
        return f"CompiledAbility(key={self.key!r}, timing={self.timing!r})"

    @property
    def label(self) -> str:
        return self.keyword or self.key.split("#")[0].split("@")[0].replace("-", " ")


class Source:
    """Something that carries abilities: a special assistant or a shelved artifact.

    A plain class with slots (not a dataclass) so that the compiled build makes it an
    extension type (``abilities.pxd``): the engine reads its fields at every event."""

    __slots__ = ("abilities", "has_rules", "order", "owner", "rules", "rules_for_others",
                 "shares", "this", "wakes")

    def __init__(self, owner: int, this: Assistant | ArtifactCard,
                 abilities: tuple[CompiledAbility, ...], order: int, has_rules: bool = False,
                 rules_for_others: bool = False, shares: bool = False,
                 rules: tuple[CompiledRule, ...] = (),
                 wakes: dict[tuple[str, str], tuple[CompiledAbility, ...]] | None = None
                 ) -> None:
        self.owner = owner
        self.this = this
        self.abilities = abilities
        self.order = order  # priority: longest present first
        self.has_rules = has_rules
        # some placement rule may speak about placing another player's or assistant
        self.rules_for_others = rules_for_others
        self.shares = shares  # some placement rule is a "share" rule
        self.rules = rules  # the placement rules of its abilities, in order
        # the abilities each (event, mode) of a trigger wakes, in order ("after EVENT"
        # is ("EVENT", "after")): what the engine scans when an event happens
        self.wakes = {} if wakes is None else wakes

    def __repr__(self) -> str:
        return f"Source(owner={self.owner!r}, this={self.this!r}, order={self.order!r})"

    @classmethod
    def of(cls, owner: int, this: Assistant | ArtifactCard,
           abilities: tuple[CompiledAbility, ...], order: int) -> Source:
        rules = tuple(r for a in abilities for r in a.rules)
        wakes: dict[tuple[str, str], tuple[CompiledAbility, ...]] = {}
        for a in abilities:
            if a.trigger is not None:
                key = (a.trigger.event, a.trigger.mode)
                wakes[key] = (*wakes.get(key, ()), a)
        return cls(owner, this, abilities, order, bool(rules),
                   any(not r.own_only for r in rules), any(r.kind == "share" for r in rules),
                   rules, wakes)

    def rules_about(self, placing: Assistant) -> bool:
        """Whether a placement rule of this source may speak about placing ``placing``:
        its own assistant's rules; other rules once it is present (TIME-01)."""
        if not self.has_rules:
            return False
        if self.this is placing:
            return True
        # present: an assistant placed somewhere; an artifact, once it is a source at
        # all (on a shelf, face up)
        this = self.this
        present = this.location is not None or this.home_index is not None \
            if isinstance(this, Assistant) else True  # ``not this.available``, inlined
        return self.rules_for_others and present


def compile_ability(key: str, ability: Ability) -> CompiledAbility:
    compiled = CompiledAbility(key, ability.timing, ability.keyword, ability.text)
    if ability.when:
        compiled.trigger = parse_trigger(ability.when)
        if compiled.trigger.condition is not None:
            compiled.condition = compile_expression(compiled.trigger.condition,
                                                    source_name(key, "when"))
    if ability.effect:
        compiled.effect = compile_program(parse_program(ability.effect),
                                          source_name(key, "effect"))
    compiled.rules = [_compiled_rule(parse_rule(source), source, ability,
                                     source_name(key, "placement", j))
                      for j, source in enumerate(ability.placement)]
    if ability.score:
        compiled.score = compile_expression(parse_expression(ability.score),
                                            source_name(key, "score"))
    return compiled


def _compiled_rule(rule: Any, source: str, ability: Ability, name: str) -> CompiledRule:
    """One placement rule of ``ability``, compiled under the source name ``name``."""
    return CompiledRule(rule.kind, compile_expression(rule.condition, name),
                        _placing_is_this(rule.condition), rule_parts(rule.condition, name),
                        reads_placing(rule.condition), " ".join(source.split()),
                        " ".join(ability.text.split()), tuple(ability.rulings))


def _placing_is_this(condition: ast.Expr) -> bool:
    """Whether ``condition`` is false unless ``placing == this``: its first conjunct
    (``and`` stops at the first false operand) compares those two names."""
    while isinstance(condition, ast.BinOp) and condition.op == "and":
        condition = condition.left
    return (isinstance(condition, ast.BinOp) and condition.op == "=="
            and isinstance(condition.left, ast.Name) and isinstance(condition.right, ast.Name)
            and {condition.left.id, condition.right.id} == {"placing", "this"})


# Compiled abilities by entry key and by the whole content of the abilities (every
# field, as JSON): an author's entry with a shipped key but other abilities is compiled
# apart, and games of either content never see the other's handlers.
_COMPILED: dict[tuple[str, tuple[str, ...]], tuple[CompiledAbility, ...]] = {}
# The same values found by the identity of a catalog's abilities list, the hot path
# (the entry keeps the list, and so its id, alive).
_BY_LIST: dict[tuple[str, int], tuple[list[Ability], tuple[CompiledAbility, ...]]] = {}


def abilities_of(key: str, abilities: list[Ability]) -> tuple[CompiledAbility, ...]:
    """The compiled abilities of a content entry, keyed by its key (e.g. ``mummy@base``)
    and by what its abilities say."""
    known = _BY_LIST.get((key, id(abilities)))
    if known is not None and known[0] is abilities:
        return known[1]
    content = (key, tuple(map(repr, abilities)))  # every field (no serializer to build)
    found = _COMPILED.get(content)
    if found is None:
        found = _COMPILED[content] = tuple(compile_ability(f"{key}#{i}", a)
                                           for i, a in enumerate(abilities))
    _BY_LIST[(key, id(abilities))] = (abilities, found)
    return found


@cache
def _location_effect(location_id: str, source: str) -> Handler:
    return compile_program(parse_program(source), source_name(location_id, "effect"))


def location_effect(spec: Location) -> Handler:
    """A location's compiled effect, cached by its id and its source text (all the
    compiled handler depends on)."""
    return _location_effect(spec.id, spec.effect)


def subject_matches(subject: str | None, *, owner: int, actor: int | None, cause: Any,
                    this: Any) -> bool:
    """Whether the trigger's ``by SUBJECT`` fits who did the event.

    ``by this`` needs both: the event comes from this assistant's placement (the
    cause), and its owner is the one acting (LIB-MUMMY-6). A card its visit hands to
    an opponent is the opponent's to shelve, not the assistant's.
    """
    if subject is None or subject == "anyone":
        return True
    if subject == "this":
        return cause is this and actor == owner
    if subject in ("me", "owner"):
        return actor == owner
    if subject == "opponent":
        return actor is not None and actor != owner
    return False
