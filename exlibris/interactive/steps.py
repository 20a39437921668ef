"""Option lists asked in steps a player would take.

A placement is always asked in two steps, however many options it has: first
where (a location, or ``your library (home spaces)``), then the space or bid
there, each line naming the assistant. Every location of the first step opens the
second, even one with a single space, so the keys a player learns (a location,
then a space) never change. Any other decision with more than :data:`FLAT`
options is asked as a short tree of choices: which shelf card, then what to do
with it; which row, then which cell. Each option keeps its place under every
step, so the engine, the bots and the saves still see one decision and one chosen
index. A step never offers more than :data:`MOST` choices: a level with more
groups is split into parts of the list.

Only the human presentation does this; the groups come from the options' public
descriptors (``decision.values``) and the deciding player's own shelf.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from exlibris.engine.decisions import Decision, DecisionKind, Purpose
from exlibris.engine.game import Game
from exlibris.model.cards import ArtifactCard, BookCard

FLAT = 12  # up to this many options are asked at once
MOST = 15  # never more choices than this at one step

Keys = tuple[str, ...]  # the groups an option belongs to at one level


@dataclass(frozen=True)
class Choice:
    """One line of a step: its label and the decision's options under it."""

    label: str
    options: tuple[int, ...]
    level: int = 0  # the grouping level its own step starts from
    then: Step | None = None  # its step, when already known (a part of a long list)
    opens: bool = False  # a step follows even when it holds one option

    @property
    def final(self) -> bool:
        """Choosing it answers the decision (no step follows)."""
        return len(self.options) == 1 and not self.opens


@dataclass(frozen=True)
class Step:
    """One question on the way to an option."""

    question: str
    choices: tuple[Choice, ...]


@dataclass(frozen=True)
class Levels:
    """How a decision's options group: a question per level, each option's keys."""

    questions: tuple[str, ...]
    keys: tuple[tuple[Keys, ...], ...]  # keys[option][level]
    labels: tuple[str, ...] = ()  # each option as the player reads it
    sorted_levels: frozenset[int] = frozenset()  # levels whose groups are listed A to Z
    always: bool = False  # asked in steps however few the options (placements)
    last: tuple[str, ...] = ()  # each option's question at the last step (else the prompt)


def first_step(decision: Decision, grouping: Levels) -> Step:
    return step(decision, grouping, tuple(range(len(decision))))


def step(decision: Decision, grouping: Levels, within: Sequence[int], level: int = 0) -> Step:
    """The step that narrows ``within`` (option indices) down, grouping from ``level``."""
    within = tuple(within)
    always = grouping.always
    if len(within) <= FLAT and not always:
        return _flat(decision, grouping, within)
    for depth in range(level, len(grouping.questions)):
        groups: dict[str, list[int]] = {}
        for i in within:
            for key in grouping.keys[i][depth]:
                groups.setdefault(key, []).append(i)
        if len(groups) > 1 or always:
            keys = sorted(groups) if depth in grouping.sorted_levels else list(groups)
            choices = [Choice(key, tuple(groups[key]), depth + 1, opens=always)
                       for key in keys]
            return _split(question_at(grouping, depth), choices)
    if len(within) <= MOST:
        return _flat(decision, grouping, within)
    return _split(last_question(decision, grouping, within),
                  [Choice(grouping.labels[i], (i,)) for i in within])


def next_step(decision: Decision, grouping: Levels, choice: Choice) -> Step:
    """The step after ``choice`` (which has more than one option)."""
    if choice.then is not None:
        return choice.then
    return step(decision, grouping, choice.options, choice.level)


def question_at(grouping: Levels, depth: int) -> str:
    return grouping.questions[depth]


def last_question(decision: Decision, grouping: Levels, within: Sequence[int]) -> str:
    """The question of a step listing options themselves."""
    return grouping.last[within[0]] if grouping.last and within else decision.prompt


def _flat(decision: Decision, grouping: Levels, within: tuple[int, ...]) -> Step:
    return Step(last_question(decision, grouping, within),
                tuple(Choice(grouping.labels[i], (i,)) for i in within))


def _split(question: str, choices: Sequence[Choice]) -> Step:
    """A step of ``choices``, or of parts of them when there are too many."""
    if len(choices) <= MOST:
        return Step(question, tuple(choices))
    return _split("which part of the list?", _parts(question, choices))


def _parts(question: str, choices: Sequence[Choice]) -> tuple[Choice, ...]:
    """Consecutive runs of at most ``MOST`` choices, of even length."""
    count = math.ceil(len(choices) / MOST)
    size = math.ceil(len(choices) / count)
    parts = []
    for start in range(0, len(choices), size):
        run = choices[start:start + size]
        if len(run) == 1:
            parts.append(run[0])
            continue
        options = tuple(dict.fromkeys(i for c in run for i in c.options))
        parts.append(Choice(span(run[0].label, run[-1].label), options,
                            then=_split(question, run), opens=True))
    return tuple(parts)


def span(first: str, last: str) -> str:
    """``take A2 … F4 from the discard pile``: two labels with their common words once."""
    a, b = first.split(), last.split()
    lead = 0
    while lead < min(len(a), len(b)) - 1 and a[lead] == b[lead]:
        lead += 1
    tail = 0
    while (tail < min(len(a), len(b)) - lead - 1 and a[len(a) - 1 - tail] == b[len(b) - 1 - tail]):
        tail += 1
    core_a = " ".join(a[lead:len(a) - tail])
    core_b = " ".join(b[lead:len(b) - tail])
    if any(core.count("(") != core.count(")") for core in (core_a, core_b)):
        return f"{first} … {last}"  # never split a bracket
    return " ".join(filter(None, [" ".join(a[:lead]), f"{core_a} … {core_b}",
                                  " ".join(a[len(a) - tail:])]))


def walk(decision: Decision, grouping: Levels) -> int:
    """The most choices at any step of ``decision`` (every branch); for measuring."""
    widest = 0
    pending = [Choice("", tuple(range(len(decision))))]
    while pending:
        choice = pending.pop()
        found = next_step(decision, grouping, choice)
        widest = max(widest, len(found.choices))
        pending += [c for c in found.choices if not c.final]
    return widest


# ---------------------------------------------------------------------- groupings
def levels(game: Game | None, decision: Decision) -> Levels:
    """The grouping of ``decision``'s options (none for kinds without one)."""
    labels = tuple(player_labels(game, decision))
    make = _GROUPINGS.get(decision.kind)
    always = decision.kind in _ALWAYS
    if make is None or (len(decision) <= FLAT and not always):
        return Levels((), tuple(() for _ in range(len(decision))), labels)
    questions, key = make(game, decision)
    last = _LAST.get(decision.kind)
    return Levels(questions, tuple(tuple(_keys(k) for k in key(v)) for v in decision.values),
                  labels, _SORTED.get(decision.kind, frozenset()), always,
                  tuple(last(v) for v in decision.values) if last else ())


def player_labels(game: Game | None, decision: Decision) -> list[str]:
    """The options' labels as the player reads them: each card with its books and each
    artifact by its name (``take G4/9:FC from Community Centre's area``), and a card
    offered by a ``pick`` saying where it is (``discard C5/7:HM from your hand``).
    The engine's labels (saves, scripts) stay as they are; an answer may use either."""
    from exlibris.interactive.names import readable

    told = _placed_labels(game, decision)
    shelved = [decision.card] if isinstance(decision.card, BookCard | ArtifactCard) else []
    labels = [named(label, [*_cards_in(value), *shelved])
              for label, value in zip(told, decision.handles, strict=True)]
    about = decision.about
    if about is not None:
        labels = [about_named(label, cards) for label, cards in zip(labels, about, strict=True)]
    return [readable(label) for label in labels]


def about_named(label: str, cards: Sequence[Any]) -> str:
    """``label`` naming the cards its option is about (``option "..." about X``): a
    card the label names already is given its books there, and the others follow in
    brackets (``keep the card gained (A1/9:HH)``)."""
    import re

    unnamed = [card for card in dict.fromkeys(cards)
               if not re.search(_whole_name(card.name), label)]
    label = named(label, cards)
    if not unnamed:
        return label
    return f"{label} ({', '.join(card_text(card) for card in unnamed)})"


def card_text(card: Any) -> str:
    """A card as the screen names it: ``A1/9:HH`` (its books), an artifact by its name."""
    from exlibris.interactive.shelf_grid import artifact_name, card_name

    if isinstance(card, BookCard):
        return card_name(card) + (":" + "".join(card.books) if card.books else "")
    return artifact_name(card.artifact_id)


def _whole_name(name: str) -> str:
    """The pattern of a card's name as a whole word of a label."""
    import re

    return rf"(?<![\w*/-]){re.escape(name)}(?![\w/:-])"


def _cards_in(value: Any) -> list[Any]:
    if isinstance(value, BookCard | ArtifactCard):
        return [value]
    if isinstance(value, tuple | list):
        return [v for v in value if isinstance(v, BookCard | ArtifactCard)]
    return []


def named(label: str, cards: Sequence[Any]) -> str:
    """``label`` with each card's name (as a whole word) given its books, or an
    artifact's id its name."""
    import re

    for card in dict.fromkeys(cards):
        shown = card_text(card)
        label = re.sub(_whole_name(card.name), lambda _, shown=shown: shown, label, count=1)
    return label


def _placed_labels(game: Game | None, decision: Decision) -> list[str]:
    """The labels, a card offered by a ``pick`` saying where it is."""
    labels = decision.labels
    verb = str(decision.data.get("verb", ""))
    if game is None or decision.kind is not DecisionKind.PICK or not verb:
        return list(labels)
    from exlibris.interactive.places import card_place

    told = []
    for value, label in zip(decision.values, labels, strict=True):
        if not isinstance(value, BookCard | ArtifactCard):
            told.append(label)
            continue
        place = card_place(game, value, decision.seat)
        where = f" from {place}" if place else ""
        if decision.purpose is Purpose.GIVE:
            told.append(f"give {value.name}{where} to {verb.removeprefix('give to ')}")
        elif label == f"{verb} {value.name}":
            told.append(f"{label}{where}")
        else:
            told.append(label)
    return told


def _keys(key: str | Sequence[str]) -> Keys:
    return (key,) if isinstance(key, str) else tuple(key)


Grouping = Callable[[Game | None, Decision], tuple[tuple[str, ...], Callable[[Any], Sequence[Any]]]]


HOME = "your library (home spaces)"  # the first step's line for the home spaces


def _place(game: Game | None, decision: Decision) -> Any:
    def key(value: Any) -> tuple[str]:
        loc = value[1].location
        return (HOME if loc is None else f"{loc.name} (#{loc.number})",)

    return ("which location?",), key


def _place_last(value: Any) -> str:
    """The second step of a placement: which home space, space or bid."""
    loc = value[1].location
    if loc is None:
        return "which home space?"
    return "which bid?" if getattr(loc.spec, "auction", None) is not None else "which space?"


def _shelf_card(game: Game | None, seat: int, pos: Any) -> str:
    where = f"row {pos[0]}, column {pos[1]}"
    if game is None:
        return where
    slot = game.state.players[seat].shelf.at(tuple(pos))
    if slot is None:
        return where
    card = slot.card
    name = card.name if isinstance(card, BookCard | ArtifactCard) else str(card)
    return f"{name} ({where})"


def _rearrange(game: Game | None, decision: Decision) -> Any:
    seat = decision.seat
    how = {"hand": "swap it with a card from your hand", "swap": "swap it with a shelf card",
           "move": "move it to an empty cell"}

    def key(value: Any) -> tuple[Sequence[str], str]:
        kind, a, b = value
        cards = [_shelf_card(game, seat, a)]
        if kind == "swap":
            cards.append(_shelf_card(game, seat, b))
        return cards, how.get(kind, kind)

    return ("which shelf card?", "what to do with it?"), key


def _shift(game: Game | None, decision: Decision) -> Any:
    return (("which row?", "which cards?"),
            lambda v: (f"row {v[0]}", f"columns {v[1]} to {v[2]}"))


def _pick(game: Game | None, decision: Decision) -> Any:
    from exlibris.interactive.places import card_place

    def key(value: Any) -> tuple[str, str]:
        if value is None:
            return "done", "done"
        letter = f"{value.letter} cards" if isinstance(value, BookCard) else "artifacts"
        if game is None or not isinstance(value, BookCard | ArtifactCard):
            return "cards", letter
        return f"from {card_place(game, value, decision.seat) or 'elsewhere'}", letter

    return ("from where?", "which letter?"), key


def _position(game: Game | None, decision: Decision) -> Any:
    return ("which row?",), lambda v: (f"row {v[0]}",)


def _levitate(game: Game | None, decision: Decision) -> Any:
    def key(value: Any) -> tuple[str, str]:
        if value is None:  # the expansion Wizard's "choose any cards to move" (SA-WIZARD-1)
            return "choose any cards to move", "choose any cards to move"
        return f"row {value[2][0]}, column {value[2][1]}", f"push {value[1]}"

    return ("which cell?", "which way to push?"), key


def _entomb(game: Game | None, decision: Decision) -> Any:
    return ("on which shelf card?",), lambda v: (_shelf_card(game, decision.seat, v[0]),)


_SORTED = {DecisionKind.PICK: frozenset({1})}  # cards by letter, A to Z
_ALWAYS = frozenset({DecisionKind.PLACE})  # asked in steps however few the options
_LAST: dict[DecisionKind, Callable[[Any], str]] = {DecisionKind.PLACE: _place_last}
_GROUPINGS: dict[DecisionKind, Grouping] = {
    DecisionKind.PLACE: _place, DecisionKind.REARRANGE: _rearrange,
    DecisionKind.SHIFT: _shift, DecisionKind.PICK: _pick, DecisionKind.POSITION: _position,
    DecisionKind.LEVITATE: _levitate, DecisionKind.ENTOMB: _entomb,
}
