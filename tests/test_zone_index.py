"""Where each card is has one writer: ``exlibris/engine/zones.py: Cards``.

* no module of the package but ``zones.py`` writes the index (``Cards.where``, kept
  in ``Cards._where``) or a zone's cards (``Zone.cards``, ``Zone._add``,
  ``Zone._remove``): an ``ast`` scan of every file looks for stores, ``del``,
  mutating calls and any use of the private names;
* the index is read-only from outside (``Cards.where`` refuses writes);
* each named operation (tuck, take off a shelf, swap onto a shelf, special
  placement, a shelf laid out whole) keeps the index and the zones in agreement,
  with tucked cards included;
* any sequence of them (hypothesis, derandomized) keeps every card in exactly one
  place, and a refused one changes nothing.
"""

from __future__ import annotations

import ast
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exlibris.engine.invariants import InvariantError, check_state
from exlibris.engine.state import GameState, PlayerState
from exlibris.engine.zones import Cards, Zone
from exlibris.model.cards import ArtifactCard, BookCard
from exlibris.model.shelf import Shelf, Slot
from exlibris.model.shelf_errors import ShelfError

PACKAGE = Path(__file__).resolve().parent.parent / "exlibris"
OWNER = PACKAGE / "engine" / "zones.py"
INDEX = ("where", "_where")
PRIVATE = ("_where", "_add", "_remove")  # the index, and a zone's own add and remove
MUTATORS = frozenset({"append", "insert", "extend", "pop", "remove", "clear", "sort",
                      "reverse", "update", "setdefault", "popitem", "__setitem__",
                      "__delitem__"})


def index_writes(source: str) -> list[str]:
    """The places in ``source`` that write the card index or a zone's card list."""
    found = []
    for node in ast.walk(ast.parse(source)):
        what = None
        if isinstance(node, ast.Attribute) and node.attr in PRIVATE:
            what = f"uses {node.attr}, private to zones.py"
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store | ast.Del) \
                and (node.attr in INDEX or (node.attr == "cards" and not (
                    isinstance(node.value, ast.Name) and node.value.id == "self"))):
            what = f"assigns .{node.attr}"
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store | ast.Del) \
                and isinstance(node.value, ast.Attribute) \
                and node.value.attr in (*INDEX, "cards"):
            what = f"writes an item of .{node.value.attr}"
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in MUTATORS and isinstance(node.func.value, ast.Attribute) \
                and node.func.value.attr in (*INDEX, "cards"):
            what = f"calls .{node.func.value.attr}.{node.func.attr}"
        if what is not None:
            found.append(f"{node.lineno}: {what}: {ast.unparse(node)[:60]}")
    return found


def test_only_zones_py_writes_where_a_card_is() -> None:
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == OWNER:
            continue
        offenders += [f"{path.relative_to(PACKAGE.parent)}:{hit}"
                      for hit in index_writes(path.read_text("utf-8"))]
    assert offenders == []


@pytest.mark.parametrize("line", [
    "state.cards.where[card] = zone",
    "del game.state.cards.where[card]",
    "cards.where.update({card: zone})",
    "cards.where.pop(card)",
    "zone = cards._where.get(card)",
    "state.cards.where = {}",
    "state.discard.cards.append(card)",
    "player.hand.cards.remove(card)",
    "zone.cards[0] = card",
    "zone.cards = []",
    "state.discard._add(card)",
    "src._remove(card)",
])
def test_the_scan_finds_each_kind_of_write(line: str) -> None:
    assert index_writes(line) != []


@pytest.mark.parametrize("line", [
    "zone = cards.where.get(card)",
    "zones = [cards.where[c] for c in hand]",
    "for card in state.cards.where: pass",
    "self.cards = {}",
    "random.shuffle(cards)",
    "player.assistants.remove(assistant)",
])
def test_the_scan_lets_reads_be(line: str) -> None:
    assert index_writes(line) == []


def test_the_index_is_read_only_from_outside() -> None:
    cards = Cards()
    card, zone = BookCard("A", 1, ("C",)), Zone("somewhere")
    with pytest.raises(TypeError):
        cards.where[card] = zone  # type: ignore[index]
    cards.put(card, zone)
    assert cards.where.get(card) is zone and cards.zone_of(card) is zone


# ------------------------------------------------------------------ the named operations


def book(letter: str, order: int) -> BookCard:
    return BookCard(letter, order, ("C",))


def table() -> tuple[SimpleNamespace, GameState]:
    state = GameState(players=[PlayerState(0, "Ann")], rng=random.Random(0))
    return SimpleNamespace(state=state, assistant_cards={}), state


def crystal_with_tucked(state: GameState) -> tuple[ArtifactCard, list[BookCard]]:
    """A shelf of B1, the crystal (two cards tucked under it) and B2; the deck holds D1."""
    cards, me = state.cards, state.players[0]
    crystal = ArtifactCard("mystical-crystal-see-all-ball")
    for i, card in enumerate((book("B", 1), crystal, book("B", 2))):
        cards.put(card, me.hand)
        cards.move(card, me.shelf_zone, pos=(0, i))
    tucked = [book("T", 1), book("T", 2)]
    for card in tucked:
        cards.put(card, state.deck)
    cards.tuck(tucked, me.shelf_zone, (0, 1))
    cards.put(book("D", 1), state.deck)
    return crystal, tucked


def test_tuck_moves_the_cards_under_the_artifact_and_indexes_them() -> None:
    game, state = table()
    crystal, tucked = crystal_with_tucked(state)
    me = state.players[0]
    assert me.shelf.at((0, 1)) == Slot(crystal, tucked=tuple(tucked))
    assert [state.cards.zone_of(c) for c in tucked] == [me.shelf_zone] * 2
    assert state.deck.cards == [book("D", 1)]
    check_state(game, "after a tuck")


def test_a_refused_tuck_moves_nothing() -> None:
    game, state = table()
    crystal_with_tucked(state)
    card = state.deck.cards[-1]
    with pytest.raises(ShelfError):
        state.cards.tuck([card], state.players[0].shelf_zone, (0, 0))  # a book: no tuck
    assert state.cards.zone_of(card) is state.deck and state.deck.cards == [card]
    check_state(game, "after a refused tuck")


def test_taking_an_artifact_off_sends_its_tucked_cards_to_the_discard() -> None:
    game, state = table()
    crystal, tucked = crystal_with_tucked(state)
    me = state.players[0]
    first, last = me.shelf.at((0, 0)).card, me.shelf.at((0, 2)).card  # type: ignore[union-attr]
    state.cards.take_off_shelf(me.shelf_zone, (0, 2), me.hand, tucked_to=state.discard)
    state.cards.swap_onto_shelf(last, me.shelf_zone, (0, 0), me.hand,
                                tucked_to=state.discard)  # B2 back, in place of B1
    state.cards.take_off_shelf(me.shelf_zone, (0, 1), me.hand, tucked_to=state.discard)
    assert me.hand.cards == [first, crystal] and me.shelf.at((0, 0)).card is last  # type: ignore[union-attr]
    assert state.discard.cards == tucked
    assert all(state.cards.zone_of(c) is state.discard for c in tucked)
    check_state(game, "after taking the crystal off")


@pytest.mark.parametrize("into_hand", [True, False])
def test_swapping_an_artifact_off_keeps_every_card_somewhere(into_hand: bool) -> None:
    game, state = table()
    crystal, tucked = crystal_with_tucked(state)
    me = state.players[0]
    newcomer = state.deck.cards[-1]
    old_to = me.hand if into_hand else state.discard
    old = state.cards.swap_onto_shelf(newcomer, me.shelf_zone, (0, 1), old_to,
                                      tucked_to=state.discard)
    assert old.card == crystal and state.cards.zone_of(crystal) is old_to
    assert me.shelf.at((0, 1)) == Slot(newcomer)
    assert state.cards.zone_of(newcomer) is me.shelf_zone
    assert all(state.cards.zone_of(c) is state.discard for c in tucked)
    check_state(game, "after a swap")


def test_a_special_placement_moves_the_card_only_when_the_shelf_takes_it() -> None:
    game, state = table()
    me = state.players[0]
    lower, upper = book("M", 1), book("M", 2)
    for card in (lower, upper):
        state.cards.put(card, me.hand)
    state.cards.move(lower, me.shelf_zone, pos=(0, 0))
    with pytest.raises(ShelfError):
        state.cards.shelve_by(upper, me.shelf_zone,
                              lambda: me.shelf.entomb(upper, (5, 5), under=False))
    assert state.cards.zone_of(upper) is me.hand
    state.cards.shelve_by(upper, me.shelf_zone,
                          lambda: me.shelf.entomb(upper, (0, 0), under=False))
    assert state.cards.zone_of(upper) is me.shelf_zone and me.hand.cards == []
    check_state(game, "after an entomb")
    with pytest.raises(ValueError, match="already"):
        state.cards.shelve_by(upper, me.shelf_zone, lambda: None)


def test_a_shelf_laid_out_whole_is_indexed_card_by_card() -> None:
    game, state = table()
    me = state.players[0]
    me.shelf = Shelf.from_slots({(0, 0): Slot(book("A", 1), beneath=book("A", 2)),
                                 (0, 1): Slot(ArtifactCard("x"), tucked=(book("A", 3),))})
    me.shelf_zone.shelf = me.shelf
    with pytest.raises(InvariantError, match="the index says nowhere"):
        check_state(game, "before indexing")
    state.cards.put_shelf(me.shelf_zone)
    check_state(game, "after indexing")
    assert len(state.cards.where) == 4


def test_the_invariant_finds_a_card_the_index_keeps_but_no_zone_holds() -> None:
    game, state = table()
    hand = state.players[0].hand
    card = book("A", 1)
    state.cards.put(card, hand)
    hand._remove(card)  # behind the index's back
    with pytest.raises(InvariantError, match="in no zone"):
        check_state(game, "test")


def test_the_invariant_finds_a_card_in_two_zones_and_one_the_index_misplaces() -> None:
    game, state = table()
    hand, deck = state.players[0].hand, state.deck
    twice, misplaced = book("A", 1), book("A", 2)
    state.cards.put(twice, hand)
    state.cards.put(misplaced, hand)
    check_state(game, "test")
    deck._add(twice)  # behind the index's back: in the hand and the deck
    with pytest.raises(InvariantError, match=r"A1\S* is in deck and in hand|"
                                             r"A1\S* is in hand and in deck"):
        check_state(game, "test")
    deck._remove(twice)
    hand._remove(misplaced)
    deck._add(misplaced)  # in the deck, indexed to the hand
    with pytest.raises(InvariantError, match=r"A2\S* is in deck but the index says hand"):
        check_state(game, "test")


# ------------------------------------------------------------------ any sequence of moves

MOVES = ("move", "shelve", "tuck", "take off", "swap", "entomb")


def _one_move(state: GameState, kind: str, draw: Any) -> None:
    """One named move with arguments drawn by ``draw`` (hypothesis' ``data.draw``)."""
    me, cards = state.players[0], state.cards
    piles = [me.hand, state.discard, state.deck]
    loose = [c for pile in piles for c in pile.cards]
    cells = list(me.shelf.positions())
    pick = lambda seq: seq[draw(st.integers(0, len(seq) - 1))] if seq else None  # noqa: E731
    card, pile, cell = pick(loose), pick(piles), pick(cells)
    if kind == "move" and card is not None:
        cards.move(pick(list(cards.where)), pile)
    elif kind == "shelve" and card is not None:
        cards.move(card, me.shelf_zone, pos=pick(sorted(me.shelf.legal_positions())) or (0, 0))
    elif kind == "tuck" and card is not None and cell is not None:
        cards.tuck([card], me.shelf_zone, cell)
    elif kind == "take off" and cell is not None:
        cards.take_off_shelf(me.shelf_zone, cell, pile, tucked_to=state.discard)
    elif kind == "swap" and card is not None and cell is not None:
        cards.swap_onto_shelf(card, me.shelf_zone, cell, pile, tucked_to=state.discard)
    elif kind == "entomb" and card is not None and cell is not None:
        under = draw(st.booleans())
        cards.shelve_by(card, me.shelf_zone, lambda: me.shelf.entomb(card, cell, under=under))


@settings(max_examples=150, derandomize=True, deadline=None)
@given(data=st.data())
def test_any_sequence_of_named_moves_keeps_the_index_exact(data: st.DataObject) -> None:
    """Whatever the moves, every card stays in exactly one place and the index says
    which; a refused move (the shelf says no) changes nothing."""
    game, state = table()
    crystal_with_tucked(state)
    for i in range(6):
        state.cards.put(book("E", i + 1), state.players[0].hand)
    total = len(state.cards.where)
    for kind in data.draw(st.lists(st.sampled_from(MOVES), max_size=25)):
        before = (state.card_census(), {c: z.name for c, z in state.cards.where.items()},
                  state.players[0].shelf.snapshot())
        try:
            _one_move(state, kind, data.draw)
        except (ShelfError, KeyError, ValueError):
            after = (state.card_census(), {c: z.name for c, z in state.cards.where.items()},
                     state.players[0].shelf.snapshot())
            assert after == before, f"a refused {kind} changed the table"
        check_state(game, kind)
        assert len(state.cards.where) == total
