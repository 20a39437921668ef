# cython: annotation_typing=True
"""Setup and the round: preparation, placement, resolution, cleanup; then inspection.

The numbers (hand size, assistants, thresholds, starting locations...) come
from the variant's settings in ``rules/``; effects come from content.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from exlibris.catalog import Catalog
from exlibris.draws import below, shuffle
from exlibris.dsl.compiler import AmountSpec
from exlibris.engine import auction, hiring, solo
from exlibris.engine.decisions import Agent, DecisionKind, Purpose
from exlibris.engine.errors import RulesError
from exlibris.engine.events import EventKind, EventLog
from exlibris.engine.game import Game
from exlibris.engine.placement import placement_options as options_of
from exlibris.engine.setup import build_table, finish_table, seat_assistants
from exlibris.engine.state import Assistant, GameState, LocationState, PlayerState
from exlibris.engine.streams import use_stream
from exlibris.engine.table_out import held_assistants
from exlibris.engine.targets import Target
from exlibris.limits import MAX_GAME_ROUNDS
from exlibris.model.cards import ArtifactCard, BookCard
from exlibris.model.content import Library
from exlibris.model.rules import Settings
from exlibris.scoring.inspection import Inspection, PlayerTable, Table, inspect_table
from exlibris.scoring.settings import ScoringRules

MAX_PLACEMENT_TURNS = 400
# Modules whose locations and decks the engine does not run yet: refused, not
# half-played (none today: both Expanded Archives modules play).
NOT_PLAYABLE_YET: dict[str, str] = {}
MAX_ROUNDS = MAX_GAME_ROUNDS  # after this round the stuck-game guard ends the game
# The stuck-game guard (not a rule of the rulebooks): with the deck empty, this many
# whole rounds in which no shelf grew past its largest size end the game.
STALL_ROUNDS = 3
# Enum members read at every turn, bound to names once: on Python 3.11 reading a
# member from its class goes through the slow hook of EnumType.__getattr__.
_PLACE = DecisionKind.PLACE


class EndReason(StrEnum):
    """Why a game ended."""

    FINAL_ROUND = "final-round"  # the final round was played (FINAL-01..03)
    STALLED = "stalled"  # the stuck-game guard: the deck is empty and no shelf grows


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the inspection, the seed, what it took, and why it ended."""

    inspection: Inspection
    seed: int
    rounds: int
    decisions: int
    reason: EndReason = EndReason.FINAL_ROUND


def new_game(catalog: Catalog, settings: Settings, agents: Sequence[Agent], *, seed: int,
             names: Sequence[str] | None = None, log: EventLog | None = None,
             views: Any = None, variant: str = "standard",
             libraries: Sequence[str | None] | None = None,
             assistants: Sequence[str | None] | None = None) -> Game:
    """Set up a game (SETUP-01..12) and return it, ready to :func:`play`.

    ``libraries`` may name a library for some seats: those seats take it instead of
    drafting, and it leaves the tiles the others draft from. ``assistants`` may name
    a special assistant card for some seats, taken in place of the library's own.
    """
    n = len(agents)
    check_playable(settings, n, variant)
    names = list(names or [f"Player {i + 1}" for i in range(n)])
    game = build_table(catalog, settings, agents, seed=seed, names=names, variant=variant,
                       log=log, views=views)
    game.event(EventKind.SETUP, seed=seed, variant=variant, players=names)
    rng = game.rng  # one stream a purpose (engine/streams.py)
    use_stream(rng, seed, "tiles")
    _setup_locations(game, catalog)
    if "job-faire" in settings.modules:
        use_stream(rng, seed, "assistants")
        hiring.build_assistant_deck(game, set(settings.modules))
    use_stream(rng, seed, "first")
    game.state.first_player = below(rng, n)
    use_stream(rng, seed, "libraries")
    _draft_libraries(game, catalog, list(libraries or []))
    _give_assistant_cards(game, catalog, list(assistants or []))
    use_stream(rng, seed, "categories")
    _deal_categories(game)
    use_stream(rng, seed, "deck")
    _deal_books(game, catalog)
    use_stream(rng, seed, "artifacts")
    _build_artifact_deck(game, catalog)
    use_stream(rng, seed, "play")
    finish_table(game)
    return game


def check_playable(settings: Settings, players: int, variant: str) -> None:
    """Raise ``RulesError`` unless this engine can play ``variant`` with ``players``."""
    if players not in settings.players:
        counts = ", ".join(str(n) for n in settings.players)
        raise RulesError(f"the {variant} rules are for {counts} players, not {players}")
    if settings.setup.prominent_categories > 1:
        if settings.solo is not None:
            raise RulesError(f"the {variant} rules deal a second prominent category, which "
                             "solo play does not have")
        banned = 1 if settings.scoring.get("banned_books", True) else 0
        if 2 + banned + players > 6:
            raise RulesError(f"the {variant} rules deal two prominent categories, "
                             f"{'a banned one, ' if banned else ''}and a focus each: the six "
                             f"category cards are not enough for {players} players")
    for module in settings.modules:
        if module in NOT_PLAYABLE_YET:
            raise RulesError(f"the {variant} rules use {NOT_PLAYABLE_YET[module]}, which "
                             "the game engine does not play yet")


def _setup_locations(game: Game, catalog: Catalog) -> None:
    setup = game.settings.setup
    pool = [loc for loc in game.location_specs.values()  # the modules' tiles (build_table)
            if loc.id not in setup.remove_locations]
    # a module's permanent tiles are in play from round 1, outside the count (EXP-SETUP-10)
    permanent = {loc for m in game.settings.modules if m in catalog.modules
                 for loc in catalog.modules[m].permanent_locations}
    if game.settings.solo is not None:
        solo.setup_locations(game, pool, permanent)
        return
    starting = [loc for loc in pool
                if loc.id in setup.starting_locations or loc.id in permanent]
    started = {id(loc) for loc in starting}  # by identity: a tile's == compares every field
    rest = sorted((loc for loc in pool if id(loc) not in started), key=lambda loc: loc.number)
    shuffle(game.rng, rest)
    game.location_specs = {loc.id: loc for loc in pool}
    for spec in starting:
        game.board.bring_into_play(spec).permanent = spec.id in permanent
    game.state.location_stack = [loc.id for loc in rest]
    game.event(EventKind.LOCATIONS, starting=[loc.id for loc in starting], stack=len(rest))


def _draft_libraries(game: Game, catalog: Catalog, chosen: list[str | None]) -> None:
    """Deal libraries, pick in reverse order from the first player (SETUP-07, SETUP-08).

    A seat with a library named in ``chosen`` takes it and drafts nothing.
    """
    setup = game.settings.setup
    state = game.state
    n = len(state.players)
    chosen = (chosen + [None] * n)[:n]
    for seat, library_id in enumerate(chosen):
        if library_id is not None and (library_id not in catalog.libraries
                                       or library_id in setup.remove_libraries):
            raise RulesError(f"seat {seat + 1}: library {library_id!r} is not in this game")
    if len({c for c in chosen if c}) != sum(1 for c in chosen if c):
        raise RulesError("two seats name the same library")
    libraries: list[Library] = sorted(
        (lib for lib in catalog.libraries.values()
         if lib.id not in setup.remove_libraries and lib.id not in chosen),
        key=lambda lib: lib.id)
    if game.settings.solo is not None:  # SOLO-05
        libraries = solo.compatible(libraries, game.settings.solo.libraries)
    shuffle(game.rng, libraries)
    per = setup.libraries_dealt
    drafting = [seat for seat in range(n) if chosen[seat] is None]
    if per * len(drafting) > len(libraries):
        raise RulesError(f"{per} libraries each for {len(drafting)} players needs "
                         f"{per * len(drafting)}; only {len(libraries)} are in the game")
    hands = {seat: libraries[i * per:(i + 1) * per] for i, seat in enumerate(drafting)}
    for seat in range(n):
        if chosen[seat] is not None:
            hands[seat] = [catalog.libraries[chosen[seat]]]  # type: ignore[index]
    order = list(reversed(state.seats_from(state.first_player)))
    for seat in order:
        offered = hands[seat]
        index = game.ask(seat, DecisionKind.LIBRARY, "choose your library", offered,
                         lambda lib: f"choose {lib.name}")
        library = offered[index]
        player = state.players[seat]
        player.library = library.id
        player.assistants += seat_assistants(
            seat, [library.assistant] if setup.special_assistant else [],
            setup.standard_assistants)
        game.event(EventKind.LIBRARY, seat=seat, library=library.id)


def _give_assistant_cards(game: Game, catalog: Catalog, chosen: list[str | None]) -> None:
    """Seats named in ``chosen`` take that special assistant card in place of their
    library's special assistant (an author's card, or one of Expanded Archives)."""
    for seat, card_id in enumerate(chosen[:len(game.state.players)]):
        if card_id is None:
            continue
        spec = catalog.assistants.get(card_id)
        if spec is None:
            raise RulesError(f"seat {seat + 1}: no special assistant card {card_id!r}")
        player = game.state.players[seat]
        player.assistants = [a for a in player.assistants if a.spec is None]
        player.assistants.insert(0, Assistant(f"{seat}:{spec.id}", seat, spec))
        game.event(EventKind.ASSISTANT_CARD, seat=seat, assistant=spec.id)
    game.triggers.assistants_changed()


def _deal_categories(game: Game) -> None:
    """Prominent, banned (none where the scoring has no banned books), one focus each."""
    state = game.state
    codes = sorted(c.code for c in game.categories.values())
    shuffle(game.rng, codes)
    scoring: ScoringRules = game.scoring
    if game.settings.solo is not None:
        solo.deal_categories(game, codes)
        return
    state.prominent = codes.pop()
    if game.settings.setup.prominent_categories > 1:
        state.also_prominent = codes.pop()
    state.banned = codes.pop() if scoring.banned_books else None
    for player in state.players:
        player.focus = codes.pop()
    if state.also_prominent is not None:
        game.event(EventKind.CATEGORIES, prominent=state.prominent, banned=state.banned,
                   also_prominent=state.also_prominent)
    else:
        game.event(EventKind.CATEGORIES, prominent=state.prominent, banned=state.banned)


def _deal_books(game: Game, catalog: Catalog) -> None:
    deck = catalog.deck
    if deck is None:
        raise RulesError("the content has no book deck")
    state = game.state
    cards = list(_deck_cards(deck))
    shuffle(game.rng, cards)
    state.cards.put_pile(cards, state.deck)
    if game.settings.setup.hand_draft:
        _draft_hands(game)
        return
    for player in state.players:
        dealt = game.moves.deal_to(player.hand, game.settings.setup.hand_size)
        game.event(EventKind.DEAL_HAND, seat=player.seat, cards=[c.name for c in dealt])


def _draft_hands(game: Game) -> None:
    """A draft of starting hands (``setup.hand_draft``): each player is dealt a packet
    of ``hand_size`` cards, keeps one of it, and passes the rest to the next seat; the
    first player keeps first. Until every card is kept; a last card is kept unasked."""
    state = game.state
    n = len(state.players)
    packets = [game.moves.deal_to(p.hand, game.settings.setup.hand_size) for p in state.players]
    kept: list[list[Any]] = [[] for _ in range(n)]
    order = state.seats_from(state.first_player)
    while any(packets):
        for seat in order:
            packet = packets[seat]
            if packet:
                index = game.ask(seat, DecisionKind.PICK, "which card to keep?", packet,
                                 _keep_label, verb="keep", purpose=Purpose.TAKE)
                kept[seat].append(packet.pop(index))
        packets = [packets[(seat - 1) % n] for seat in range(n)]  # passed on
        for seat, packet in enumerate(packets):
            for card in packet:
                state.cards.move(card, state.players[seat].hand)
    for seat, cards in enumerate(kept):
        game.event(EventKind.DEAL_HAND, seat=seat, cards=[c.name for c in cards])


def _keep_label(card: Any) -> str:
    return f"keep {card.name}"


_DECKS: dict[int, tuple[Any, tuple[BookCard, ...]]] = {}


def _deck_cards(deck: Any) -> tuple[BookCard, ...]:
    """The cards of a content deck, built once per process: cards are immutable values,
    so games share them (keyed by the deck entry, which the cache keeps alive)."""
    found = _DECKS.get(id(deck))
    if found is None or found[0] is not deck:
        found = (deck, tuple(BookCard(c.letter, c.order, tuple(c.books), c.of)
                             for c in deck.cards))
        _DECKS[id(deck)] = found
    return found[1]


def _build_artifact_deck(game: Game, catalog: Catalog) -> None:
    """The Artifactorium module: the 18 artifacts, shuffled (EXP-SETUP-01, EXP-SETUP-12);
    in solo, only those whose content says ``solo: true`` (ART-00-6)."""
    if "artifactorium" not in game.settings.modules:
        return
    state = game.state
    ids = sorted(aid for aid, spec in catalog.artifacts.items()
                 if spec.solo or game.settings.solo is None)
    cards = [ArtifactCard(aid) for aid in ids]
    shuffle(game.rng, cards)
    for card in cards:
        state.cards.put(card, state.artifact_deck)
    game.event(EventKind.ARTIFACT_DECK, cards=len(cards))


# ---------------------------------------------------------------------------- rounds


def play(game: Game, resume: str | None = None) -> Outcome:
    """Play rounds until the final round is over, then inspect.

    ``resume`` names a phase of the current round to start from (a scenario's
    position); without it the next round starts.
    """
    if resume is not None:
        game.state.cursor.enter(resume)
    return go_on(game)


def go_on(game: Game) -> Outcome:
    """Play on from where the state's cursor stands (``FlowCursor``): the start of a
    round or phase, or a checkpoint inside one (``engine/forward.py``), to the end."""
    state = game.state
    cursor = state.cursor
    if cursor.highest is None:
        cursor.highest = [_shelf_size(p) for p in state.players]
    while True:
        step = cursor.step
        if step == "round":
            state.round += 1
            if state.round > MAX_ROUNDS:
                raise RulesError(f"the game did not end within {MAX_ROUNDS} rounds")
            game.event(EventKind.ROUND, round=state.round, final=state.final_round,
                       first_player=state.first_player)
            game.ctx.new_round()  # "once per round" abilities are fresh
            phase_event(game, "before", "round")
            cursor.enter("preparation")
        elif step == "preparation":
            preparation(game)
            cursor.enter("placement")
        elif step == "placement":
            placement(game)
            cursor.enter("resolution")
        elif step == "resolution":
            resolution(game)
            cursor.enter("cleanup")
        elif step == "cleanup":
            if state.final_round:  # no cleanup after the final round (FINAL-01..03)
                phase_event(game, "after", "round")
                cursor.end(EndReason.FINAL_ROUND)
                continue
            game.checkpoint()
            cleanup(game)
            phase_event(game, "after", "round")
            _count_stalls(game)
        else:
            return _outcome(game, EndReason(cursor.reason or EndReason.FINAL_ROUND))


def phase_event(game: Game, mode: str, event: str) -> None:
    """The round or one of its phases begins (``before``) or ends (``after``): the
    abilities that listen wake for their owners (``vocabulary.PHASE_EVENTS``)."""
    if mode == "before":
        game.triggers.before(event, actor=None)
    else:
        game.triggers.after(event, actor=None)


def _shelf_size(player: PlayerState) -> int:
    return player.shelf.card_count() + player.shelf.entombed_count()


def _count_stalls(game: Game) -> None:
    """After cleanup: the next round, or the inspection when the stuck-game guard ends
    the game (the deck is empty and no shelf grew for ``STALL_ROUNDS`` rounds)."""
    state = game.state
    cursor = state.cursor
    highest = cursor.highest
    assert highest is not None
    grew = False
    for seat, player in enumerate(state.players):
        size = _shelf_size(player)
        grew |= size > highest[seat]
        highest[seat] = max(size, highest[seat])
    fixed = game.settings.final_round.rounds is not None  # solo ends by itself
    cursor.stalled = 0 if grew or state.final_round or fixed or _deck_can_feed(game) \
        else cursor.stalled + 1
    if cursor.stalled >= STALL_ROUNDS or state.round >= MAX_ROUNDS:  # (or rules whose
        # end never came: a shelf trigger out of reach with a deck that reshuffles)
        game.event(EventKind.GAME_STALLED, rounds=cursor.stalled)
        cursor.end(EndReason.STALLED)
    else:
        cursor.enter("round")


def _deck_can_feed(game: Game) -> bool:
    """Cards are left to draw: in the deck, or in a discard pile the rules reshuffle."""
    state = game.state
    return bool(state.deck.cards) or (
        game.settings.rulings.get("deck_runs_out") == "reshuffle" and len(state.players) > 1
        and bool(state.discard.cards))


def _outcome(game: Game, reason: EndReason) -> Outcome:
    return Outcome(inspection(game), getattr(game, "seed", 0), game.state.round,
                   game.decisions, reason)


def preparation(game: Game) -> None:
    """Reveal tiles up to one per player (PREP-02..05), then deal card areas (PREP-06)."""
    state = game.state
    state.phase = "preparation"
    phase_event(game, "before", "preparation")
    if game.settings.solo is not None:
        solo.preparation(game)  # discards instead of new tiles (SOLO-09)
    else:
        reveal_locations(game)
    deal_areas(game)
    phase_event(game, "after", "preparation")


def reveal_locations(game: Game) -> None:
    """New tiles until there is one temporary tile per player (PREP-02..05)."""
    state = game.state
    n = len(state.players)
    specs = game.location_specs
    while _temporary_tiles(state) < n:
        if not state.location_stack:
            if not state.location_discard:
                break
            state.location_stack = list(state.location_discard)
            state.location_discard.clear()
            shuffle(game.rng, state.location_stack)
            game.event(EventKind.LOCATIONS_RESHUFFLED, count=len(state.location_stack))
        spec = specs[state.location_stack.pop()]
        game.board.bring_into_play(spec)
        game.event(EventKind.REVEAL_LOCATION, location=spec.id)


def _temporary_tiles(state: GameState) -> int:
    """How many tiles in play are not permanent."""
    count = 0
    loc: LocationState
    for loc in state.in_play:
        if not loc.permanent:
            count += 1
    return count


def deal_areas(game: Game) -> None:
    """Each location's preparation deals its card area (PREP-06)."""
    state = game.state
    n = len(state.players)
    for loc in state.in_play:
        prep = loc.preparation
        if prep is None:
            continue
        count = prep.deal_by_players.get(n, prep.deal) if prep.deal_by_players else prep.deal
        dealt = auction.deal_display(game, loc, count)
        if game.log.enabled and game.log.wants(EventKind.DEAL):
            game.log.add(EventKind.DEAL, location=loc.id, cards=[c.name for c in dealt],
                         face_down=prep.face == "down")


def placement(game: Game) -> None:
    """Clockwise from the first player, one assistant a turn, until none is left.

    Each turn starts at a checkpoint; the cursor keeps the pass round the table, so
    a copy of the state made there goes on with the same turn."""
    state: GameState = game.state
    player: PlayerState
    cursor = state.cursor
    if cursor.step != "placement" or not cursor.entered:
        state.phase = "placement"
        cursor.step, cursor.entered = "placement", True
        cursor.turns = 0
        cursor.sweep, cursor.at, cursor.placed_any = \
            state.seats_from(state.first_player), 0, False
        phase_event(game, "before", "placement")
    while True:
        sweep = cursor.sweep
        while cursor.at < len(sweep):
            seat = sweep[cursor.at]
            options = placement_options(game, seat)
            if not options:  # no assistant left to place (or nowhere to put one)
                cursor.at += 1
                continue
            if cursor.turns >= MAX_PLACEMENT_TURNS:  # assistants that keep coming back
                cursor.entered = False  # (an ability returning its own assistant): the
                return  # phase ends with them at home (docs/limits.md)
            game.checkpoint()
            cursor.turns += 1
            state.turn_counter += 1
            game.ctx.new_turn()
            index = game.ask(seat, _PLACE, "place an assistant", options,
                             game.board.option_label)
            cursor.at += 1
            assistant, target = options[index]
            player = state.players[seat]
            player.placements_this_round += 1
            game.board.place(seat, assistant, target)
            game.moves.sweep_limbo()
            cursor.placed_any = True
        if not cursor.placed_any:
            cursor.entered = False
            phase_event(game, "after", "placement")
            return
        cursor.sweep, cursor.at, cursor.placed_any = \
            state.seats_from(state.first_player), 0, False


def placement_options(game: Game, seat: int) -> list[tuple[Assistant, Target]]:
    """Every (assistant, target) pair; interchangeable standard assistants appear once
    (``engine/placement.py``: kept targets)."""
    return options_of(game, seat)


def resolution(game: Game) -> None:
    """Resolve locations in ascending number (RES-01..05), each from a checkpoint."""
    state = game.state
    cursor = state.cursor
    if cursor.step != "resolution" or not cursor.entered:
        state.phase = "resolution"
        cursor.step, cursor.entered = "resolution", True
        cursor.order = sorted(state.in_play, key=lambda loc: loc.number)
        cursor.resolving = 0
        phase_event(game, "before", "resolution")
    order = cursor.order
    while cursor.resolving < len(order):
        game.checkpoint()
        loc = order[cursor.resolving]
        cursor.resolving += 1
        game.ctx.new_turn()  # "once per turn" abilities: each resolution is fresh
        resolve(game, loc)
        game.moves.sweep_limbo()
    for loc in state.in_play:
        loc.resolved = False
        loc.visitors = []  # a new round: no one has visited yet
    hiring.dismiss_temps(game)
    cursor.order = []
    cursor.entered = False
    phase_event(game, "after", "resolution")


def resolve(game: Game, loc: LocationState) -> None:
    log = game.log
    if log.enabled and log.wants(EventKind.RESOLVE):
        log.add(EventKind.RESOLVE, location=loc.id)
    spec = loc.spec
    assistant: Assistant
    # ``held``: which spaces are taken (most tiles have nobody left to resolve)
    present = loc.assistants() if True in loc.held else None
    if present and not loc.instant:
        skip = game.ctx.skip
        if skip:
            present = [a for a in present if id(a) not in skip]
        if spec.resolve == "once":
            present = present[:1]
        elif spec.resolve == "bid-order":
            present = [a for a in auction.bidders_in_order(loc) if a in present]
        for assistant in present:
            if assistant.location is loc:
                game.board.activate(assistant.owner, loc, assistant)
    if auction.returns_leftovers(loc) and not solo.keeps_leftovers(game):
        auction.return_leftovers(game, loc)  # nothing is discarded here (EXP-JF-05)
    else:
        game.triggers.before("area_discard", actor=None, location=loc)
        leftovers = list(loc.area.cards)
        for card in leftovers:
            game.state.cards.move(card, game.state.discard)
        if leftovers and log.enabled and log.wants(EventKind.DISCARD_AREA):
            log.add(EventKind.DISCARD_AREA, location=loc.id, cards=[c.name for c in leftovers])
    if True in loc.held:
        for assistant in loc.assistants():  # a fresh list: returning changes the spaces
            game.board.return_assistant(assistant)
    loc.resolved = True


def cleanup(game: Game) -> None:
    """Lowest temporary tile becomes permanent, the rest are discarded; home spaces
    cleared; the final-round check (CLEAN-01..05, FINAL-01..03)."""
    state = game.state
    state.phase = "cleanup"
    phase_event(game, "before", "cleanup")
    if game.settings.solo is not None:
        solo.cleanup(game)  # eliminations, no permanent tile (SOLO-15)
        clear_home_spaces(game)
        phase_event(game, "after", "cleanup")
        return
    temporary = [loc for loc in state.in_play if not loc.permanent]
    if temporary:
        keep = min(temporary, key=lambda loc: loc.number)
        keep.permanent = True
        for loc in temporary:
            if loc is not keep:
                state.in_play.remove(loc)
                state.location_discard.append(loc.id)
        game.event(EventKind.CLEANUP, permanent=keep.id,
                   discarded=[t.id for t in temporary if t is not keep])
    clear_home_spaces(game)
    if state.next_first_player is not None:
        state.first_player = state.next_first_player
        state.next_first_player = None
    final_round_check(game)
    phase_event(game, "after", "cleanup")


def clear_home_spaces(game: Game) -> None:
    """Assistants leave the home spaces; the round's placement counts reset."""
    state = game.state
    for player in state.players:
        for i, assistant in enumerate(player.home):
            if assistant is not None:
                assistant.home_index = None
                player.home[i] = None
                state.returns += 1  # availability changed: priority order is recomputed
        player.placed_this_round.clear()
        player.placements_this_round = 0
    game.ctx.home_spaces_cleared()


def final_round_check(game: Game) -> None:
    """A fixed number of rounds, or a shelf at the threshold (both, whichever comes
    first, with ``or_shelf_trigger``), or an empty deck (FINAL-01..03, SETUP-14)."""
    state = game.state
    final = game.settings.final_round
    threshold = final.shelf_cards.get(len(state.players))
    if final.rounds is not None:
        state.final_round = state.round + 1 >= final.rounds
        if state.final_round:
            game.event(EventKind.FINAL_ROUND, reason="the last round", rounds=final.rounds)
    if threshold is not None and not state.final_round and (
            final.rounds is None or final.or_shelf_trigger):
        # card_count() counts one card per cell: entombed lower cards are left out
        counts = [p.shelf.card_count() for p in state.players]
        if final.count_entombed:
            counts = [c + p.shelf.entombed_count() for c, p in zip(counts, state.players,
                                                                       strict=True)]
        if max(counts) >= threshold:
            state.final_round = True
            game.event(EventKind.FINAL_ROUND, counts=counts, threshold=threshold)
    if (not state.final_round and not state.deck.cards
            and game.settings.rulings.get("empty_deck_ends_game", False)):
        state.final_round = True  # a house rule (SETUP-14), off in the standard rules
        game.event(EventKind.FINAL_ROUND, reason="the deck is empty")


# ---------------------------------------------------------------------------- scoring


def table_of(game: Game) -> Table:
    state = game.state
    return Table(
        players=tuple(PlayerTable(p.name, p.focus, p.shelf, len(p.hand),
                                  assistants=held_assistants(p))
                      for p in state.players),
        prominent=state.prominent,
        banned=state.banned,
        variant=getattr(game, "variant", "standard"),
        difficulty=game.solo.difficulty if game.solo is not None else 0,
        public_library=solo.public_library(game) if game.solo is not None else None,
        also_prominent=state.also_prominent,
    )


def voluntary_flips(game: Game, seat: int, player: PlayerState) -> None:
    """Before the inspection a player may turn any of their face-up shelf cards face
    down, artifacts included (SCORE-00-2: a face-down artifact scores nothing itself,
    and is a face-down card next to, say, the Hungry Void)."""
    shelf = player.shelf
    face_up = [slot.card for _, slot in shelf.items()
               if isinstance(slot.card, (BookCard, ArtifactCard)) and not slot.face_down]
    if not face_up:
        return
    if game.ask(seat, DecisionKind.FLIPS, "flip cards face down before the inspection",
                ("flip nothing", "choose cards to flip")) == 0:
        return
    flipped = []
    for card in game.rt.pick(seat, face_up, AmountSpec("any"), Purpose.FLIP):
        zone, pos = player.shelf_zone, player.shelf_zone.position_of(card)
        if pos is not None:
            zone.shelf.flip(pos)
            flipped.append(card.name)
    game.event(EventKind.FLIP, seat=seat, cards=flipped)


def inspection(game: Game) -> Inspection:
    """Voluntary flips (SCORE-00-2), each seat's from a checkpoint, then the Official
    Inspection."""
    state = game.state
    cursor = state.cursor
    rules: ScoringRules = game.scoring
    if cursor.step != "inspection" or not cursor.entered:
        state.phase = "inspection"
        cursor.step, cursor.entered = "inspection", True
        cursor.inspecting = 0
        phase_event(game, "before", "inspection")
        if game.solo is not None:
            solo.finish(game)  # the hand joins the public library (SOLO-18)
    players = state.players
    while cursor.inspecting < len(players):
        game.checkpoint()
        seat = cursor.inspecting
        cursor.inspecting += 1
        voluntary_flips(game, seat, players[seat])
    result = inspect_table(table_of(game), rules)
    game.event(EventKind.INSPECTION, totals={f.name: f.total for f in result.forms},
               winners=list(result.winners))
    return result
