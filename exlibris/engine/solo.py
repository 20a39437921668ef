"""Solo mode (SOLO-01..25): one player against the public library, the discard pile.

The round is the multiplayer round with three changes, each a function here that
``flow.py`` calls when the rules have a ``solo:`` section: set-up deals the
solo-compatible tiles and libraries and hides three categories; preparation
discards the difficulty's number of cards instead of revealing tiles (and reveals a
category from the license form in the rounds the rules name); cleanup eliminates
tiles instead of keeping one. At the end the hand joins the public library, which
the inspection scores (``scoring/inspection.py: inspect_library``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from exlibris.draws import shuffle
from exlibris.engine.decisions import DecisionKind
from exlibris.engine.events import EventKind
from exlibris.model.cards import ArtifactCard, BookCard, ResumeCard
from exlibris.model.rules import SoloSettings
from exlibris.scoring.inspection import PublicLibrary

if TYPE_CHECKING:  # the game imports this module (``blocked``): annotations only
    from exlibris.engine.game import Game

DIFFICULTY_NAMES = ("beginner", "easy", "challenging", "difficult", "very-difficult",
                    "nigh-impossible", "impossible")


@dataclass
class SoloState:
    """What solo adds to the table: the level and the hidden categories (SOLO-07)."""

    difficulty: int
    public_focus: str = ""
    form: list[str] = field(default_factory=list)  # face down on the form; last is next
    boxed: list[str] = field(default_factory=list)  # revealed from the form, in order
    eliminated: list[str] = field(default_factory=list)  # location tiles boxed


def difficulty_name(level: int) -> str:
    return DIFFICULTY_NAMES[level - 1] if 1 <= level <= len(DIFFICULTY_NAMES) else str(level)


def parse_difficulty(text: str, names: dict[str, int] | None = None) -> int:
    """``3``, ``challenging`` or ``Very Difficult`` -> a level; ``ValueError`` if none."""
    table = names or {n: i for i, n in enumerate(DIFFICULTY_NAMES, 1)}
    key = text.strip().lower().replace(" ", "-").replace("_", "-")
    if key.isdigit() and 1 <= int(key) <= 7:
        return int(key)
    if key in table:
        return int(table[key])
    raise ValueError(f"unknown difficulty {text!r}; one of 1-7 or "
                     f"{', '.join(table)}")


def settings_of(game: Game) -> SoloSettings:
    solo = game.settings.solo
    assert solo is not None, "not a solo game"
    return solo


def compatible(entries: Iterable[Any], listed: list[str] | None) -> list[Any]:
    """The entries a solo game uses: those ``listed`` in the rules, else those whose
    content says ``solo: true`` (SOLO-03..05; a group may list its own set)."""
    if listed is not None:
        return [e for e in entries if e.id in listed]
    return [e for e in entries if e.solo]


# ---------------------------------------------------------------------------- set-up


def setup_locations(game: Game, pool: list[Any], permanent: Iterable[str] = ()) -> None:
    """Shuffle the solo tiles, put ``locations_in_play`` in play, stack the rest
    face down (SOLO-03; the Diviner's Hut is one tile among the others). A module's
    permanent tile is in play from the start, for good, outside that count
    (EXP-SOLO-04, EXP-SOLO-09 reading a)."""
    solo = settings_of(game)
    fixed = [loc for loc in pool if loc.id in set(permanent)]
    tiles = sorted((loc for loc in compatible(pool, solo.locations) if loc not in fixed),
                   key=lambda loc: loc.number)
    shuffle(game.rng, tiles)
    game.location_specs = {loc.id: loc for loc in [*fixed, *tiles]}
    shown, rest = tiles[:solo.locations_in_play], tiles[solo.locations_in_play:]
    for spec in fixed:
        game.board.bring_into_play(spec).permanent = True
    for spec in shown:
        game.board.bring_into_play(spec)
    game.state.location_stack = [loc.id for loc in rest]
    game.event(EventKind.LOCATIONS, starting=[loc.id for loc in [*fixed, *shown]], stack=len(rest))


def deal_categories(game: Game, codes: list[str]) -> None:
    """Prominent and banned face up, the public focus face down, the player's focus,
    and the rest face down on the license form (SOLO-07); ``codes`` is shuffled."""
    state = game.state
    solo: SoloState = game.solo  # made at the difficulty of the rules (engine/setup.py)
    state.prominent = codes.pop()
    state.banned = codes.pop()
    solo.public_focus = codes.pop()
    state.players[0].focus = codes.pop()
    solo.form = codes
    game.event(EventKind.CATEGORIES, prominent=state.prominent, banned=state.banned,
               difficulty=solo.difficulty, hidden=len(solo.form) + 1)


# ---------------------------------------------------------------------------- the round


def preparation(game: Game) -> None:
    """Reveal and box a form category in the rules' rounds (SOLO-10), then discard the
    difficulty's number of cards from the deck, face up (SOLO-09, SOLO-11)."""
    solo: SoloState = game.solo
    rules = settings_of(game)
    if game.state.round in rules.reveal_hidden_categories_in_rounds and solo.form:
        code = solo.form.pop()
        solo.boxed.append(code)
        game.event(EventKind.REVEAL_CATEGORY, category=code, left=len(solo.form))
    discarded = game.moves.deal_to(game.state.discard, solo.difficulty)
    game.event(EventKind.SOLO_DISCARD, cards=[c.name for c in discarded], wanted=solo.difficulty)


def cleanup(game: Game) -> None:
    """The player eliminates tiles, then draws from the stack; no tile becomes
    permanent (SOLO-15); after the round before the last, the final round."""
    state = game.state
    rules = settings_of(game)
    solo: SoloState = game.solo
    for _ in range(rules.locations_eliminated):
        tiles = [loc for loc in state.in_play if not loc.permanent]
        if not tiles:
            break
        index = game.ask(0, DecisionKind.ELIMINATE, "which location do you eliminate?", tiles,
                         lambda loc: f"eliminate {loc.spec.name} (#{loc.number})")
        loc = tiles[index]
        state.in_play.remove(loc)
        solo.eliminated.append(loc.id)
        game.event(EventKind.ELIMINATE, location=loc.id)
    for _ in range(min(rules.locations_drawn, len(state.location_stack))):
        spec = game.location_specs[state.location_stack.pop()]
        game.board.bring_into_play(spec)
        game.event(EventKind.REVEAL_LOCATION, location=spec.id)
    rounds = game.settings.final_round.rounds
    if rounds is not None and state.round + 1 >= rounds:
        state.final_round = True
        game.event(EventKind.FINAL_ROUND, reason="the last solo round", rounds=rounds)


def finish(game: Game) -> None:
    """After the last round: the last tiles leave (SOLO-16) and the player discards
    the whole hand into the public library (SOLO-18)."""
    state = game.state
    solo: SoloState = game.solo
    if state.in_play:
        solo.eliminated += [loc.id for loc in state.in_play]
        game.event(EventKind.ELIMINATE, locations=[loc.id for loc in state.in_play], final=True)
        state.in_play.clear()
    player = state.players[0]
    hand = list(player.hand.cards)
    for card in hand:
        state.cards.move(card, state.discard)
    game.event(EventKind.DISCARD_HAND, seat=0, cards=[c.name for c in hand])


def blocked(game: Game, location: Any, bid: int) -> bool:
    """A bid space of an auction that the neutral assistant holds (EXP-SOLO-04/05)."""
    rules = game.settings.solo
    return (rules is not None and location is not None and location.auction is not None
            and bid in rules.blocked_bids)


def keeps_leftovers(game: Game) -> bool:
    """Whether what an auction display keeps goes to the public library instead of
    under its deck (volunteers, EXP-SOLO-13; donations, EXP-SOLO-15)."""
    rules = game.settings.solo
    return rules is not None and rules.leftovers_to_public_library


def public_library(game: Game) -> PublicLibrary:
    """The opponent at the inspection: every book card in the discard pile (SOLO-19),
    and the special assistant cards (volunteers) and artifacts (donations) there."""
    pile = game.state.discard.cards
    cards = tuple(c for c in pile if isinstance(c, BookCard))
    return PublicLibrary(game.solo.public_focus, cards,
                         volunteers=sum(isinstance(c, ResumeCard) for c in pile),
                         artifacts=sum(isinstance(c, ArtifactCard) for c in pile))
