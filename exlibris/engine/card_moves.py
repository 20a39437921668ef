# cython: annotation_typing=True
"""Card moves: drawing, dealing, giving, discarding, shelving, and home actions.

``CardMoves`` (``game.moves``) is the game's side of every move of a card: it asks
the zone index (``zones.py: Cards``, the only writer of where a card is) to move
it, asks the players what the rules leave to them (where to shelve, which home
action), logs the move, and wakes the abilities it triggers (``game.triggers``).
It keeps nothing of its own: every card and zone is in the game's state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from exlibris.draws import shuffle
from exlibris.engine.abilities import CompiledAbility, Source
from exlibris.engine.decisions import DecisionKind, HomeAction, Purpose
from exlibris.engine.errors import RulesError
from exlibris.engine.events import EventKind, EventLog
from exlibris.engine.state import GameState, PlayerState
from exlibris.engine.triggers import Triggers
from exlibris.engine.zones import ShelfZone, Zone
from exlibris.model.cards import BookCard, Card
from exlibris.model.shelf_errors import ShelfError

if TYPE_CHECKING:
    from exlibris.engine.game import Game

# Enum members read at every turn, bound to names once: on Python 3.11 reading a
# member from its class goes through the slow hook of EnumType.__getattr__.
_DRAW, _SHELVE = HomeAction.DRAW, HomeAction.SHELVE
_HOME_ACTION, _PICK = DecisionKind.HOME_ACTION, DecisionKind.PICK
_POSITION = DecisionKind.POSITION
_SHELVING = Purpose.SHELVE


class CardMoves:
    """One game's moves of cards (``game.moves``)."""

    __slots__ = ("game", "log", "state", "triggers")

    def __init__(self, game: Game) -> None:
        self.game = game
        self.state: GameState = game.state
        self.log: EventLog = game.log
        self.triggers: Triggers = game.triggers

    # ------------------------------------------------------------------ cards
    def draw(self, seat: int, n: int) -> list[Card]:
        """Draw ``n`` cards (fewer when the deck runs out: ruling SETUP-14)."""
        n = self.triggers.modify("draw", n, actor=seat)
        drawn = self.deal_to(self.game.player(seat).hand, n)
        if self.log.enabled and self.log.wants(EventKind.DRAW):
            self.log.add(EventKind.DRAW, seat=seat, cards=[c.name for c in drawn])
        for card in drawn:
            self.triggers.after("acquire", actor=seat, card=card)
        if drawn:
            self.triggers.after("draw", actor=seat, drawn=drawn, value=len(drawn))
        return drawn

    def refill_deck(self) -> None:
        """Shuffle the discard pile into the deck if the rules say so (never in solo,
        where the discard pile is the public library: SOLO-17)."""
        if self.game.settings.rulings.get("deck_runs_out") != "reshuffle" \
                or self.game.n_players == 1:
            return
        # discarded artifacts stay in the pile: they are gained only at the
        # Artifactorium and the Black Market (EXP-ARTF-05)
        cards = [c for c in self.state.discard.cards if isinstance(c, BookCard)]
        shuffle(self.game.rng, cards)
        for card in cards:
            self.state.cards.move(card, self.state.deck)
        self.state.cards.forget(cards)
        self.game.event(EventKind.RESHUFFLE, cards=len(cards))

    def deal_to(self, zone: Zone, n: int) -> list[Card]:
        """Deal cards from the deck into a zone (card areas, reveals)."""
        state = self.state
        deck = state.deck
        dealt = state.cards.deal(deck, zone, n)
        while len(dealt) < n:  # the deck ran out
            self.refill_deck()
            if not deck.cards:
                break
            dealt += state.cards.deal(deck, zone, n - len(dealt))
        return dealt

    def discard(self, card: Card, to: Zone | None = None) -> None:
        zone = self.state.cards.zone_of(card)
        dst = self.state.discard if to is None else to  # an empty zone is falsy: no `or`
        if isinstance(zone, ShelfZone):
            self.remove_from_shelf(zone, card, dst)
        else:
            self.state.cards.move(card, dst)
        if self.log.enabled and self.log.wants(EventKind.DISCARD):
            self.log.add(EventKind.DISCARD, card=card.name, to=dst.name,
                         source=zone.name if zone is not None else "")

    def remove_from_shelf(self, zone: ShelfZone, card: Card, dst: Zone) -> None:
        """Take a card off a shelf; a card beneath it stays, face down (LIB-MUMMY-5)."""
        pos = zone.position_of(card)
        if pos is None:
            raise RulesError(f"{card} is not on shelf {zone.name}")
        self.state.cards.take_off_shelf(zone, pos, dst, tucked_to=self.state.discard)

    def give(self, card: Card, seat: int, by: int = -1) -> None:
        """Move a card into a player's hand, as an acquisition (``by``: the seat whose
        effect hands it over, when another player's)."""
        cards = self.state.cards
        src = cards.zone_of(card)
        cards.move(card, self.state.players[seat].hand)
        if self.log.enabled:
            hidden = src is None or src.face_down or src.name.startswith(("hand:", "deck"))
            # ``is not None``: the zone the last card left is empty now, and falsy
            source = src.name if src is not None else ""
            if by >= 0 and by != seat:
                self.log.add(EventKind.GAIN, seat=seat, card=card.name,
                             source=source, hidden=hidden, by=by)
            else:
                self.log.add(EventKind.GAIN, seat=seat, card=card.name,
                             source=source, hidden=hidden)
        self.triggers.after("acquire", actor=seat, card=card)

    # ------------------------------------------------------------------ shelving
    def removable(self, seat: int) -> frozenset[Card]:
        """Shelf cards that may be taken off without splitting the shelf (kept by the
        shelf until it changes)."""
        return self.state.players[seat].shelf.removable_cards()

    def shelve(self, seat: int, card: Card, *, face_down: bool = False) -> bool:
        """Shelve ``card`` for ``seat``: offer replacement abilities, then a position."""
        player: PlayerState = self.state.players[seat]
        src = self.state.cards.zone_of(card)
        acquired = src is not player.hand
        names = {"card": card}
        if not face_down:
            options = self.triggers.instead("shelve", actor=seat, names=names)
            if options:
                values: list[Any] = [None, *options]
                index = self.game.ask(seat, DecisionKind.SHELVE_HOW, f"how to shelve {card.name}?",
                                 values, _shelve_how)
                if index > 0:
                    ability, source = values[index]
                    before = self.state.cards.zone_of(card)
                    self.triggers.run_ability(ability, source, names)
                    if self.state.cards.zone_of(card) is not before:
                        self.after_shelving(seat, card, acquired)
                        return True
        positions = player.shelf.legal_cells()  # kept by the shelf, in reading order
        if not positions:
            return False
        index = self.game.ask(seat, _POSITION, f"where to shelve {card.name}?", positions,
                         lambda p: f"shelve {card.name} at row {p[0]}, column {p[1]}",
                         card=card)
        logged = self.log.enabled and self.log.wants(EventKind.SHELVE)
        src = self.state.cards.zone_of(card) if logged else None  # for the log
        self.state.cards.shelve(card, player.shelf_zone, positions[index], face_down=face_down)
        if logged:
            self.log.add(EventKind.SHELVE, seat=seat, card=card.name,
                         pos=list(positions[index]), face_down=face_down,
                         source=src.name if src is not None else "")
        self.after_shelving(seat, card, acquired)
        return True

    def put_on_shelf(self, owner: int, card: Card) -> bool:
        """Put ``card`` (off every shelf) on ``owner``'s shelf, in a legal cell ``owner``
        chooses: where another move (a trade, a discard to a shelf) sends it. It is not a
        shelving (no shelving ability is offered) but an acquisition for ``owner``;
        False if the shelf has no legal cell (the card stays where it is)."""
        player: PlayerState = self.state.players[owner]
        positions = player.shelf.legal_cells()
        if not positions:
            return False
        index = self.game.ask(owner, _POSITION, f"where does {card.name} go on your shelf?",
                              positions,
                              lambda p: f"shelve {card.name} at row {p[0]}, column {p[1]}",
                              card=card)
        logged = self.log.enabled and self.log.wants(EventKind.SHELVE)
        src = self.state.cards.zone_of(card) if logged else None  # for the log
        self.state.cards.shelve(card, player.shelf_zone, positions[index])
        if logged:
            self.log.add(EventKind.SHELVE, seat=owner, card=card.name,
                         pos=list(positions[index]), face_down=False,
                         source=src.name if src is not None else "")
        self.triggers.after("acquire", actor=owner, card=card)
        return True

    def after_shelving(self, seat: int, card: Card, acquired: bool) -> None:
        if acquired:
            self.triggers.after("acquire", actor=seat, card=card)
        self.triggers.after("shelve", actor=seat, card=card)

    def place_on_shelf(self, seat: int, card: Card, operation: Callable[[], None]) -> None:
        """Put ``card`` on ``seat``'s shelf by a special shelf operation (entomb, levitate)."""
        src = self.state.cards.zone_of(card)
        if src is None:
            raise RulesError(f"{card} is nowhere")
        if isinstance(src, ShelfZone):
            raise RulesError("cannot entomb or levitate a card from a shelf")
        # the operation may raise ShelfError, before anything moved
        self.state.cards.shelve_by(card, self.game.player(seat).shelf_zone, operation)

    # ------------------------------------------------------------------ home actions
    def home_action(self, seat: int, kinds: Sequence[HomeAction] = tuple(HomeAction)
                    ) -> HomeAction | None:
        """One home action: draw a card, or shelve one from hand."""
        player = self.game.player(seat)
        options = [k for k in kinds
                   if k is _DRAW or (k is _SHELVE and player.hand.cards)]
        if not options:
            return None
        index = self.game.ask(seat, _HOME_ACTION, "which home action?", options,
                         _home_action)
        kind = options[index]
        if kind is _DRAW:
            self.draw(seat, 1)
        else:
            cards = list(player.hand.cards)
            pick = self.game.ask(seat, _PICK, "which card to shelve?", cards,
                            _shelve_card, verb="shelve", purpose=_SHELVING)
            self.shelve(seat, cards[pick])
        self.triggers.after("home_action", actor=seat)
        return kind

    # ------------------------------------------------------------------ set apart
    def limbo_zone(self, name: str = "limbo") -> Zone:
        """A zone for cards set apart during an effect (revealed from the deck...)."""
        zone = Zone(f"{name}:{len(self.state.limbo)}")
        self.state.limbo.append(zone)
        return zone

    def sweep_limbo(self) -> None:
        """Cards still set apart when an effect ends go to the discard pile."""
        if not self.state.limbo:
            return
        for zone in self.state.limbo:
            for card in list(zone.cards):
                self.state.cards.move(card, self.state.discard)
                self.game.event(EventKind.DISCARD, card=card.name, to="discard", why="set apart")
        self.state.limbo.clear()

    def try_shelf(self, operation: Callable[[], None]) -> bool:
        try:
            operation()
        except ShelfError:
            return False
        return True


# the labels of the moves' own decisions (functions made once, not once an ask)
def _shelve_how(option: tuple[CompiledAbility, Source] | None) -> str:
    return "shelve it normally" if option is None else f"use {option[0].label}"


def _home_action(kind: HomeAction) -> str:
    return ("home action: draw a card" if kind is HomeAction.DRAW
            else "home action: shelve a card from hand")


def _shelve_card(card: Card) -> str:
    return f"shelve {card.name}"
