"""Verbs of the effect language that act on a player's shelf."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TypeVar

from exlibris.dsl.compiler import AmountSpec, Env
from exlibris.dsl.words import GAME
from exlibris.engine.decisions import DecisionKind, Purpose
from exlibris.engine.events import EventKind
from exlibris.engine.ports import GamePort, Value
from exlibris.engine.zones import ShelfZone
from exlibris.model.cards import ArtifactCard, BookCard, Card
from exlibris.model.shelf import DIRECTIONS, Pos, Shelf, Slot
from exlibris.model.shelf_errors import ShelfError

Option = TypeVar("Option")
# a trial: an option and the shelf operation that carries it out on a shelf
Trial = tuple[Option, Callable[[Shelf], object]]
# a levitation: the cells that move, the direction, the cell the card takes
Line = tuple[tuple[Pos, ...], str, Pos]
# a rework of the shelf: ("hand", cell, card) | ("swap", cell, cell) | ("move", cell, cell)
Rework = tuple[str, Pos, Pos | Card]


class ShelfVerbs:
    """Mixed into ``EffectRuntime``: flip, entomb, levitate, replace, shift, rearrange."""

    game: GamePort
    # provided by EffectRuntime
    cards_of: Callable[[Value], list[Card]]
    _shelf_pos: Callable[[Card], tuple[ShelfZone, Pos] | None]
    pick: Callable[..., Iterator[Pos]]  # EffectRuntime.pick, here among shelf cells
    _off_other_shelf: Callable[[int, Card], bool]  # a card to shelve: off another's shelf

    @GAME.verb("flip")
    def v_flip(self, env: Env, cards: Value) -> list[Card]:
        flipped = []
        for card in self.cards_of(cards):
            where = self._shelf_pos(card)
            if where is not None and self.game.moves.try_shelf(
                    lambda w=where: w[0].shelf.flip(w[1])):
                flipped.append(card)
                self.game.event(EventKind.FLIP, seat=env.me.seat, cards=[card.name])
        return flipped

    def _options(self, seat: int, trials: list[Trial[Option]]) -> list[Option]:
        """Keep the options whose shelf operation succeeds on a copy of the shelf.

        A shelf operation that refuses changes nothing (``model/shelf.py``), so one
        copy serves every trial until one succeeds; then a fresh copy is taken.
        """
        shelf = self.game.player(seat).shelf
        legal = []
        copy = shelf.copy()
        for option, operation in trials:
            try:
                operation(copy)
            except ShelfError:
                continue
            legal.append(option)
            copy = shelf.copy()
        return legal

    @GAME.verb("entomb")
    def v_entomb(self, env: Env, cards: Value) -> list[Card]:
        seat = env.me.seat
        shelf = self.game.player(seat).shelf
        done = []
        for card in self.cards_of(cards):
            # as trying each on a copy would find (Shelf.entomb_options)
            options = shelf.entomb_options(card)
            if not options or not self._off_other_shelf(seat, card):
                continue
            index = self.game.ask(seat, DecisionKind.ENTOMB, f"entomb {card.name}", options,
                                  lambda o, c=card: f"entomb {c.name} "
                                  f"{'under' if o[1] else 'on top of'} "
                                  f"{_name(shelf.at(o[0]).card)}")
            pos, under = options[index]
            self.game.moves.place_on_shelf(
                seat, card, lambda c=card, p=pos, u=under: shelf.entomb(c, p, under=u))
            self.game.event(EventKind.ENTOMB, seat=seat, card=card.name, pos=list(pos), under=under)
            done.append(card)
        return done

    @GAME.verb("levitate")
    def v_levitate(self, env: Env, cards: Value, **kw: Value) -> list[Card]:
        seat = env.me.seat
        shelf = self.game.player(seat).shelf
        edition = "expansion" if kw.get("style") == "expanded" else "base"
        done = []
        for card in self.cards_of(cards):
            # every straight push, as trying each on a copy would find (Shelf.levitate_lines)
            options = shelf.levitate_lines()
            if not options or not self._off_other_shelf(seat, card):
                continue
            choice = self._levitate_choice(seat, card, options, edition)
            moved, direction, target = choice
            self.game.moves.place_on_shelf(seat, card,
                                           lambda c=card, m=moved, d=direction, t=target:
                                           shelf.levitate(c, m, d, t, edition=edition))
            self.game.event(EventKind.LEVITATE, seat=seat, card=card.name, pos=list(target),
                            direction=direction)
            done.append(card)
        return done

    def _levitate_choice(self, seat: int, card: Card, lines: list[Line], edition: str
                         ) -> Line:
        """A line shift among ``lines``, or instead any cards to move, then the
        direction, then the cell: any one group of touching cards for the base Wizard
        (LIB-WIZARD-1), any cards for the expansion's (SA-WIZARD-1). A set that cannot
        move falls back to the line shifts."""
        def line_label(o: Line) -> str:
            return (f"push {len(o[0])} card(s) {o[1]} from row {o[2][0]}, column "
                    f"{o[2][1]} and shelve {card.name} there")

        offered: list[Line | None] = [*lines, None]
        index = self.game.ask(seat, DecisionKind.LEVITATE, f"levitate {card.name}", offered,
                              lambda o: "choose any cards to move" if o is None
                              else line_label(o))
        if offered[index] is not None:
            return offered[index]
        chosen = self._levitate_any(seat, card, edition)
        if chosen is not None:
            return chosen
        index = self.game.ask(seat, DecisionKind.LEVITATE, f"levitate {card.name}", lines,
                              line_label)
        return lines[index]

    def _levitate_any(self, seat: int, card: Card, edition: str) -> Line | None:
        """LIB-WIZARD-1 / SA-WIZARD-1 in steps: which shelf cards move, which way, which
        emptied cell takes ``card``; None if the chosen cards cannot move so."""
        shelf = self.game.player(seat).shelf
        cells = sorted(shelf.positions())
        chosen = tuple(self.pick(
            seat, cells, AmountSpec("any"), Purpose.MOVE,
            lambda p: f"move {_card_name(shelf.at(p))} (row {p[0]}, column {p[1]})"))
        if not chosen:
            return None
        trials = [((chosen, d, t), lambda s, d=d, t=t: s.levitate(
                      card, chosen, d, t, edition=edition))
                  for d in DIRECTIONS for t in chosen]
        options = self._options(seat, trials)
        if not options:
            self.game.event(EventKind.LEVITATE_REFUSED, seat=seat, cards=[list(p) for p in chosen])
            return None
        directions = list(dict.fromkeys(o[1] for o in options))
        way = directions[self.game.ask(seat, DecisionKind.LEVITATE_DIRECTION,
                                       "move them which way?", directions,
                                       lambda d: f"move them {d}")]
        cells_left = [o for o in options if o[1] == way]
        index = self.game.ask(seat, DecisionKind.LEVITATE_CELL, f"where does {card.name} go?",
                              cells_left,
                              lambda o: f"shelve {card.name} at row {o[2][0]}, "
                              f"column {o[2][1]}")
        return cells_left[index]

    @GAME.verb("replace_shelved")
    def v_replace_shelved(self, env: Env, cards: Value) -> list[Card]:
        seat = env.me.seat
        player = self.game.player(seat)
        done = []
        for card in self.cards_of(cards):
            positions = sorted(player.shelf.positions())
            if not positions or not self._off_other_shelf(seat, card):
                continue
            index = self.game.ask(seat, DecisionKind.REPLACE,
                                  f"replace a shelf card with {card.name}", positions,
                                  lambda p: f"replace {_name(player.shelf.at(p).card)}")
            pos = positions[index]
            old = player.shelf.at(pos)
            assert old is not None
            discard = self.game.state.discard
            self.game.state.cards.swap_onto_shelf(card, player.shelf_zone, pos, discard,
                                                  tucked_to=discard)
            self.game.event(EventKind.REPLACE, seat=seat, card=card.name, old=old.card.name)
            done.append(card)
        return done

    @GAME.verb("shift_row")
    def v_shift_row(self, env: Env) -> None:
        seat = env.me.seat
        shelf = self.game.player(seat).shelf
        options = list(shelf.shift_moves())
        if not options:
            return
        index = self.game.ask(seat, DecisionKind.SHIFT, "shift part of a row", options,
                              lambda o: f"shift row {o[0]} columns {o[1]}-{o[2]} by {o[3]}")
        shelf.shift_run(*options[index])
        self.game.event(EventKind.SHIFT, seat=seat, move=list(options[index]))

    @GAME.verb("rearrange_shelf")
    def v_rearrange_shelf(self, env: Env, only: str | None = None) -> None:
        seat = env.me.seat
        player = self.game.player(seat)
        shelf = player.shelf
        cells = sorted(shelf.positions())
        # a swap with a hand card, or of two distinct shelf cards, never breaks a rule
        # (Shelf.swap_with_hand, Shelf.swap): no need to try them
        options: list[Rework] = [("hand", pos, card) for pos in cells for card in player.hand.cards]
        options += [("swap", a, b) for i, a in enumerate(cells) for b in cells[i + 1:]]
        beside = _cells_beside(cells)  # the same for every lifted card
        if only is not None:  # rearrange_shelf(only: "swap"): one kind of change
            options = [o for o in options if o[0] == only]
        if only in (None, "move"):
            # the card is lifted first: any cell legal without it (LOC-08-4), as
            # Shelf.reshelve would allow (Shelf.reshelve_moves works them out at once)
            options += [("move", pos, dst) for pos, dst in shelf.reshelve_moves(beside)]
        if not options:
            return

        def label(o: Rework) -> str:
            kind, a, b = o
            if kind == "hand":
                return f"swap {_name(shelf.at(a).card)} with {b.name} from hand"
            if kind == "swap":
                return f"swap {_name(shelf.at(a).card)} and {_name(shelf.at(b).card)}"
            return f"move {_name(shelf.at(a).card)} to row {b[0]}, column {b[1]}"

        kind, a, b = options[self.game.ask(seat, DecisionKind.REARRANGE, "rework the shelf",
                                           options, label)]
        said: dict[str, Value] = {}
        if self.game.log.enabled:  # the cards, named as they were before the change
            said = {"card": _name(shelf.at(a).card), "pos": list(a)}
            if kind == "hand":
                said["other"] = b.name
            elif kind == "swap":
                said.update(other=_name(shelf.at(b).card), to=list(b))
            else:
                said["to"] = list(b)
        if kind == "hand":
            self.game.state.cards.swap_onto_shelf(b, player.shelf_zone, a, player.hand,
                                                  tucked_to=self.game.state.discard)
        elif kind == "swap":
            shelf.swap(a, b)
        else:
            shelf.reshelve(a, b)
        self.game.event(EventKind.REARRANGE, seat=seat, how=kind, **said)


def _cells_beside(cells: list[Pos]) -> list[Pos]:
    """Every empty cell next to a shelf cell: the cells a re-shelved card could go once
    it is lifted, whatever the rows it held in place (``Shelf.reshelve_cells`` then keeps
    those the whole shelf allows after the move)."""
    taken = set(cells)
    beside = {(r + dr, c + dc) for r, c in taken
              for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))}
    return sorted(beside - taken)


def _name(value: Card | None) -> str:
    return value.name if isinstance(value, BookCard | ArtifactCard) else str(value)


def _card_name(slot: Slot | None) -> str:
    return str(getattr(slot.card, "name", slot.card)) if slot is not None else "?"
