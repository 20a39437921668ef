"""What ``?`` shows: the text of the location, library, assistant or artifact a decision
is about.

A placement names its locations (and the special assistant being placed); a
library choice names its libraries. Any other decision is about whatever the
game is carrying out at the moment, read from the latest events: an ability,
a location being used or resolved, a home action. When nothing applies, it
says so rather than guess.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from exlibris.engine.decisions import Decision, DecisionKind
from exlibris.engine.events import EventKind
from exlibris.engine.game import Game
from exlibris.model.cards import ArtifactCard, ResumeCard

HOME_ACTION = ("Home action space (your library tile): either draw a card, or shelve one "
               "card from your hand.")
FLIPS = ("Before the inspection you may turn any of your face-up shelf cards face down: "
         "a face-down card is out of the alphabetical check and its books are not counted.")
ELIMINATE = ("Solo cleanup: choose the location tiles that leave the game (two each round); "
             "one tile then comes from the face-down stack.")
NOTHING = "No location, library or assistant text applies to this decision."

# events that say what the game is carrying out, newest first wins
_CAUSES = frozenset({EventKind.ABILITY, EventKind.ACTIVATE, EventKind.RESOLVE, EventKind.PLACE,
                     EventKind.ROUND})


def help_text(game: Game, decision: Decision, records: Sequence[dict[str, Any]]) -> str:
    """The player-facing texts behind ``decision``, one paragraph each."""
    if decision.kind is DecisionKind.LIBRARY:
        return "\n\n".join(f"{lib.name}: {lib.text}\n  {lib.assistant.name}: "
                           f"{lib.assistant.text}" for lib in decision.values)
    if decision.kind is DecisionKind.HIRE:
        return _resumes(game, decision.values)
    if decision.kind is DecisionKind.PLACE:
        placing = _placement(decision.values, game)
        displays = {t.location.id for _, t in decision.values if t.location is not None}
        shown = [c for loc in game.state.in_play if loc.id in displays
                 for c in loc.area.cards if isinstance(c, ResumeCard)]
        return placing + ("\n\nOn display:\n" + _resumes(game, shown) if shown else "")
    if decision.kind is DecisionKind.FLIPS:
        return FLIPS
    if decision.kind is DecisionKind.ELIMINATE:  # solo cleanup: the tiles still in play
        return ELIMINATE + "\n\n" + "\n\n".join(
            f"{loc.spec.name} (#{loc.number}): {loc.spec.text}" for loc in decision.values)
    cards = [v for v in decision.values if isinstance(v, ArtifactCard)]
    shelved = decision.card
    named = shelved.name if shelved is not None else None
    cards += [ArtifactCard(named)] if named in game.artifact_specs else []
    texts = _artifact_texts(game, cards)
    current = _current(game, records)
    if current != NOTHING or not texts:
        texts.append(current)
    return "\n\n".join(dict.fromkeys(texts))


def _artifact_texts(game: Game, cards: Sequence[Any]) -> list[str]:
    """``Name: text`` of each artifact among ``cards`` (in a hand, on display, offered)."""
    texts = []
    for card in cards:
        spec = game.artifact_specs.get(getattr(card, "artifact_id", ""))
        if spec is not None:
            texts.append(f"{spec.name} (artifact, {spec.timing}): {spec.text}")
    return list(dict.fromkeys(texts))


def _resumes(game: Game, cards: Sequence[Any]) -> str:
    """The expansion text of special assistant cards, each with its abilities."""
    texts = []
    for card in cards:
        spec = game.assistant_cards.get(getattr(card, "assistant_id", ""))
        if spec is None:
            continue
        lines = [f"{spec.name}: {spec.text}"]
        lines += [f"  {a.keyword or a.timing}: {' '.join(a.text.split())}"
                  for a in spec.abilities]
        texts.append("\n".join(lines))
    return "\n\n".join(texts) or NOTHING


def _placement(values: Sequence[Any], game: Game) -> str:
    texts: list[str] = []
    areas = {loc.id: loc.area.cards for loc in game.state.in_play}
    for assistant, target in values:
        found = [] if assistant.spec is None else [f"{assistant.spec.name}: {assistant.spec.text}"]
        if target.location is None:
            found.append(HOME_ACTION)
        else:
            spec = target.location.spec
            found.append(f"{spec.name} (#{spec.number}): {spec.text}")
            found += _artifact_texts(game, areas.get(spec.id, ()))  # on display there
        texts += [text for text in found if text not in texts]
    return "\n\n".join(texts) or NOTHING


def _current(game: Game, records: Sequence[dict[str, Any]]) -> str:
    for record in reversed(records):
        kind = record["event"]
        if kind not in _CAUSES:
            continue
        if kind == EventKind.ROUND:
            break
        if kind == EventKind.ABILITY:
            found = _ability(game, record)
            if found:
                return found
            continue
        if kind == EventKind.PLACE and "home" in record:
            return HOME_ACTION
        spec = game.location_specs.get(record.get("location", ""))
        if spec is not None:
            return f"{spec.name} (#{spec.number}): {spec.text}"
    return NOTHING


def _ability(game: Game, record: dict[str, Any]) -> str:
    source = str(record.get("source", ""))
    for player in game.state.players:
        for assistant in player.assistants:
            if assistant.id == source and assistant.spec is not None:
                return f"{assistant.spec.name}: {assistant.spec.text}"
    artifact = game.artifact_specs.get(source)
    if artifact is not None:
        return f"{artifact.name}: {artifact.text}"
    return ""


NOTATION = """How to read the screen
  A2/9:HMR  a book card: letter A, number 2 of the 9 A cards, and its books, one
            letter per book: C F H M R S (the categories, see below). *Hammer is
            an artifact card (a short form of its name); ~ marks a card lying face
            down; ?? a card you cannot see.
  Shelf     rows and columns as the options name them (row 0 is the first row
            shelved; rows above it are -1, -2...). [3] on an empty cell is
            option 3 of a "where to shelve" question.
  Town board  prominent and banned category, deck and discard pile sizes, the
            round and its first player; FINAL ROUND in the last round."""

KEYS_FULL = """Keys
  Up/Down, Page Up/Down  move in the list; Enter chooses
  a number or the start of a label, then Enter  chooses that option
  a placement: first the location or your library, then the space or bid
  Esc or b  back one step      Tab  next view: form, locations, players, log, help
  (Esc returns to the decision)     ? this help
  u  undo your last decision   s [FILE]  save (to FILE)   q  save and quit
  why NAME  why a location, space, cell (row R column C) or card is not offered
  while a bot thinks: Tab views, q saves and quits at once (no Enter)"""

KEYS_LINE = """Commands
  a number or a label (or its start)  chooses;  b  back one step
  a placement: first the location or your library, then the space or bid
  ?  this help   u  undo your last decision   s [FILE]  save (to FILE)
  q  save and quit; an empty line asks again
  why NAME  why a location, space, cell (row R column C) or card is not offered"""


def player_help(*, full_screen: bool) -> str:
    """The notation and the keys, with the categories' codes and names."""
    from exlibris.catalog import load_catalog

    catalog = load_catalog()
    codes = ", ".join(f"{c.code} {c.name}" for c in catalog.categories)
    keys = KEYS_FULL if full_screen else KEYS_LINE
    return f"{NOTATION}\n  Categories: {codes}.{letter_counts(catalog)}\n\n{keys}"


def letter_counts(catalog: Any) -> str:
    """The library tile's bookmark: how many cards of each letter the deck holds
    (``\n  Letters in the deck: A 9, B 9, ...``; nothing without a deck)."""
    deck = catalog.deck
    if deck is None:
        return ""
    counts: dict[str, int] = {}
    for card in deck.cards:
        counts[card.letter] = counts.get(card.letter, 0) + 1
    listed = ", ".join(f"{letter} {n}" for letter, n in sorted(counts.items()))
    return f"\n  Letters in the deck (the library tile's bookmark): {listed}."


_OWN_QUESTIONS = frozenset({DecisionKind.LIBRARY, DecisionKind.HOME_ACTION, DecisionKind.ORDER,
                            DecisionKind.FLIPS, DecisionKind.ELIMINATE})
TURN_PROMPT = "place an assistant"  # the placement turn's own question (flow.py)


def asker(game: Game, decision: Decision, records: Sequence[dict[str, Any]]) -> str | None:
    """Which effect asks ``decision``: a running ability (the engine's own
    ``ctx.running``), else the location or home action whose effect is being carried
    out, read from the latest events of this placement or resolution; None for the
    game's own questions (a placement turn, a library, a home action...)."""
    if decision.kind in _OWN_QUESTIONS or (decision.kind is DecisionKind.PLACE
                                           and decision.prompt == TURN_PROMPT):
        return None
    running = {this for _, this in game.ctx.running}
    if running:  # the newest of the running abilities to have acted, the decider's first
        sources = [s for s in game.triggers.sources() if id(s.this) in running]
        newest = {str(r.get("source", "")): i for i, r in enumerate(records)
                  if r["event"] == EventKind.ABILITY}
        sources.sort(key=lambda s: (s.owner == decision.seat, newest.get(_source_id(s.this), -1)))
        if sources:
            return _source_name(game, sources[-1].this)
    if game.state.phase == "inspection":  # the voluntary flips: the game's own question
        return None
    for record in reversed(records):
        kind = record["event"]
        if kind == EventKind.PLACE and record.get("moved"):
            continue  # moved there by the effect still running (the Librarians' Lodge)
        if kind in (EventKind.ROUND, EventKind.PLACE) and "home" not in record:
            return None
        if kind == EventKind.PLACE:
            return "home action"
        if kind in (EventKind.ACTIVATE, EventKind.RESOLVE):
            spec = game.location_specs.get(record.get("location", ""))
            return spec.name if spec is not None else None
    return None


def _source_id(this: Any) -> str:
    """The ``source`` an ability event names (as ``Triggers.run_ability`` writes it)."""
    return str(getattr(this, "id", None) or getattr(this, "name", this))


def _source_name(game: Game, this: Any) -> str:
    spec = game.artifact_specs.get(getattr(this, "artifact_id", ""))
    return spec.name if spec is not None else str(getattr(this, "name", this))

