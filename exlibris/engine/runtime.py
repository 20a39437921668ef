# cython: annotation_typing=True
"""The effect language's runtime in a game: names, attributes, functions, verbs.

Every verb is a general operation on the game (draw, take, give, discard, pay,
shelve, reveal, choose, move an assistant...). Choices among cards, players,
positions and options become decisions asked of the acting player's agent.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache

from exlibris.dsl import ast
from exlibris.dsl.compiler import AmountSpec, Bound, Env, as_list
from exlibris.dsl.values import CategoryValue, no_attribute
from exlibris.dsl.vocabulary import VERBS
from exlibris.dsl.words import GAME
from exlibris.engine import game_attributes, game_functions
from exlibris.engine import memory as _memory  # noqa: F401 - registers the counter words
from exlibris.engine.assistant_verbs import AssistantVerbs
from exlibris.engine.decisions import PURPOSE_VERBS, DecisionKind, HomeAction, Purpose
from exlibris.engine.errors import RulesError
from exlibris.engine.events import EventKind
from exlibris.engine.hiring import HiringVerbs
from exlibris.engine.ports import GamePort, Option, Value
from exlibris.engine.shelf_verbs import ShelfVerbs
from exlibris.engine.state import Assistant, GameState, LocationState, PlayerState, Space
from exlibris.engine.zones import ShelfZone, Zone
from exlibris.model.cards import ArtifactCard, BookCard, Card
from exlibris.model.shelf import Pos, Slot
from exlibris.model.shelf_errors import ShelfError


class _Tracked(Bound):
    """Cards bound to a name, with the zone each was in when bound."""

    __slots__ = ("items",)

    def __init__(self, items: list[tuple[Card, Zone | None]]) -> None:
        self.items = items


# How a few verbs read in a "you may ..." prompt (others: their names, spaced).
_STEP_WORDS = {
    "skip_location": "",  # said by the steps that replace it
    "home_action": "take a home action",
    "both_home_actions": "take both home actions",
    "home_actions": "take home actions",
    "return_assistant": "take the assistant back",
    "shift_row": "shift part of a row",
    "rearrange_shelf": "rework the shelf",
    "move_assistant": "move an assistant",
    "place_assistant": "place the assistant",
}
_COUNTED = frozenset({"pay", "discard", "draw", "take", "give", "shelve", "reveal"})


def question_of(node: ast.Choose | ast.May) -> str | None:
    """The question of a choice in the author's words: its own, or that of the
    ``may "...":`` block it opens."""
    if node.question:
        return node.question
    if isinstance(node, ast.May) and node.body and isinstance(node.body[0], ast.Choose):
        return node.body[0].question
    return None


def describe_steps(body: list[ast.Stmt]) -> str:
    """A short description of optional steps for a player: the verbs they would do."""
    words: list[str] = []
    stack: list[ast.Stmt] = list(reversed(body))
    while stack and len(words) < 4:
        node = stack.pop()
        if isinstance(node, ast.Do | ast.Assign):
            call = node.call if isinstance(node, ast.Do) else node.value
            if isinstance(call, ast.Call) and call.func in VERBS:
                word = _STEP_WORDS.get(call.func, call.func.replace("_", " "))
                if call.func in _COUNTED and call.args and isinstance(call.args[0].value,
                                                                      ast.Num):
                    n = call.args[0].value.value  # the cost or the gain, named
                    word = f"{word} {n} card{'' if n == 1 else 's'}"
                if word:
                    words.append(word)
        elif isinstance(node, ast.ForEach | ast.Repeat | ast.As):
            stack.extend(reversed(node.body))
        elif isinstance(node, ast.If):
            stack.extend(reversed(node.branches[0][1]))
        elif isinstance(node, ast.Choose):
            words.append("choose " + " or ".join(o.label for o in node.options))
    unique = list(dict.fromkeys(words))
    return ", then ".join(unique) if unique else "an optional step"


# The registry's tables for the game (``dsl/words.py``). Assigned, not imported by
# name: CPython 3.11 compiles ``name.get(...)`` on an imported name without its
# method-call fast path.
_ATTRIBUTES = game_attributes.ATTRIBUTES
_FUNCTIONS = game_functions.FUNCTIONS
_VERBS = GAME.verbs  # filled by the ``@GAME.verb`` methods below and of the mixins
# Enum members read at every turn, bound to names once: on Python 3.11 reading a
# member from its class goes through the slow hook of EnumType.__getattr__.
_PICK = DecisionKind.PICK


_CARD_CLASSES = frozenset({BookCard, ArtifactCard})  # neither is subclassed


class EffectRuntime(AssistantVerbs, HiringVerbs, ShelfVerbs):
    """Implements the compiler's ``Runtime`` protocol for one game, which it reaches
    only through ``GamePort`` (``ports.py``).

    Card verbs are here; verbs on assistants and on the shelf are in
    ``assistant_verbs.py``, ``shelf_verbs.py`` and ``hiring.py``, each registered
    against its word with ``@GAME.verb`` (``dsl/words.py``); functions and attributes
    are in ``game_functions.py`` and ``game_attributes.py``.
    """

    # one step of an effect: the step budget is the effect context's
    tick: Callable[[], None]
    # the tables ``verb``, ``function`` and ``attribute`` dispatch from: compiled effects
    # call these implementations directly (``compiler.link``)
    words = GAME

    def __init__(self, game: GamePort) -> None:
        self.game = game
        self.ctx = game.ctx
        self.tick = game.ctx.tick  # bound once: compiled effects call it at every step

    # ------------------------------------------------------------------ protocol

    def bind(self, value: Value) -> Value | Bound:
        # every element a card: their classes, looked up in C (no generator)
        if isinstance(value, list) and value and _CARD_CLASSES.issuperset(map(type, value)):
            state: GameState = self.game.state
            zone_of = state.cards.zone_of
            return _Tracked([(c, zone_of(c)) for c in value])
        return value

    def read(self, value: Value | Bound) -> Value:
        if isinstance(value, _Tracked):
            state: GameState = self.game.state
            zone_of = state.cards.zone_of
            return [c for c, zone in value.items if zone_of(c) is zone]
        return value

    def may(self, env: Env, node: ast.May) -> bool:
        return self.game.ask_yes(env.me.seat, node.question or f"{describe_steps(node.body)}?")

    def choose_option(self, chooser: Value, labels: list[str], env: Env,
                      node: ast.Choose | ast.May, about: list[Value] | None = None) -> int:
        seat = chooser.seat if isinstance(chooser, PlayerState) else env.me.seat
        prompt = question_of(node) or "choose one"
        if about is None:
            return self.game.ask(seat, DecisionKind.OPTION, prompt, labels)
        # the cards each option is about ride along for the screen, which names them
        # (``Decision.about``); the labels, and so logs, saves and scripts, stay as written
        cards = [self.cards_of(value) for value in about]
        return self.game.ask(seat, DecisionKind.OPTION, prompt, labels, str, about=cards)

    # ------------------------------------------------------------------ attributes
    def attribute(self, value: Value, name: str) -> Value:
        table = _ATTRIBUTES.get(type(value))
        if table is not None:
            read = table.get(name)
            if read is not None:
                return read(self, value)
        return self._attribute_of_other(value, name)

    def _attribute_of_other(self, value: Value, name: str) -> Value:
        """``attribute`` of nothing, of a zone (its cards' attribute, each), or of a
        value that has no such attribute (kept apart: the comprehension's closure
        would cost ``attribute`` a cell on every call)."""
        if value is None:
            return None
        if isinstance(value, Zone):
            return [self.attribute(c, name) for c in value.cards]
        raise no_attribute(value, name)

    def face_up_books(self, cards: Value) -> Sequence[str]:
        """The books of the face-up book cards among ``cards`` (what ``books()``,
        ``has()`` and ``categories()`` count): the attributes ``is_book`` and
        ``face_down`` read at once, since only a shelved card can lie face down."""
        state: GameState = self.game.state
        zone_of = state.cards.zone_of
        if type(cards) is BookCard:  # one card (``has(it, ...)``): its own books
            if type(zone_of(cards)) is ShelfZone:
                slot = self._slot_of(cards)
                if slot is not None and slot.face_down:
                    return ()
            return cards.books
        books: list[str] = []
        for card in as_list(cards):
            if type(card) is not BookCard:
                continue
            zone = zone_of(card)
            if type(zone) is ShelfZone:
                slot = self._slot_of(card)
                if slot is not None and slot.face_down:
                    continue
            books.extend(card.books)
        return books

    def _slot_of(self, card: Card) -> Slot | None:
        zone = self.game.state.cards.zone_of(card)
        if type(zone) is ShelfZone:
            pos = zone.position_of(card)
            return zone.shelf.at(pos) if pos is not None else None
        return None

    def _shelf_pos(self, card: Card) -> tuple[ShelfZone, Pos] | None:
        zone = self.game.state.cards.zone_of(card)
        if isinstance(zone, ShelfZone):
            pos = zone.position_of(card)
            if pos is not None:
                return zone, pos
        return None

    # ------------------------------------------------------------------ functions
    def function(self, name: str, args: list[Value], kwargs: dict[str, Value], env: Env
                 ) -> Value:
        impl = _FUNCTIONS.get(name)
        if impl is None:
            raise NameError(f"unknown function {name}")
        return impl(self, env, *args, **kwargs) if kwargs else impl(self, env, *args)

    # ------------------------------------------------------------------ picking
    def pick(self, seat: int, candidates: Sequence[Option], amount: Value, purpose: Purpose,
             label: Callable[[Option], str] | None = None,
             refresh: Callable[[list[Option]], list[Option]] | None = None,
             verb: str = "", prompt: str = "") -> Iterator[Option]:
        """The chosen elements, one at a time, as the amount allows.

        ``purpose`` is what the bots read; ``verb`` (by default the purpose's) is the
        word of prompts and labels; ``prompt``, the question in the author's words.

        ``refresh`` filters what is still choosable after each pick (a shelf card
        may stop being removable once its neighbour is gone).

        The candidates are read at once, and so is a pick that asks one question at
        most (all of them, as many as there are, or one); only a pick of several
        choices is a generator, so each is asked after the caller acted on the last.
        """
        remaining = list(dict.fromkeys(candidates))
        if refresh is not None:
            remaining = refresh(remaining)
        if isinstance(amount, AmountSpec):  # a number is an exact amount (no spec built)
            kind, n = amount.kind, amount.n or 0
        else:
            kind, n = "exact", int(amount or 0)
        if kind == "all":
            if refresh is None:
                return iter(remaining)
            return self._all_that_can(list(dict.fromkeys(candidates)), refresh)
        if kind == "at_least" and len(remaining) < n:
            return iter(())
        limit = n if kind in ("exact", "up_to") else len(remaining)
        must = n if kind in ("exact", "at_least") else 0
        if not remaining or limit <= 0:
            return iter(())
        if len(remaining) <= must and (refresh is None or len(remaining) == 1):
            return iter(remaining)  # each one is taken, none asked (nor refreshed)
        verb = verb or PURPOSE_VERBS[purpose]
        labels = _verb_labels(verb) if label is None else _pick_labels(label)
        if limit == 1:  # one question (never forced: that is the case above)
            item = self._pick_one(seat, remaining, must <= 0, verb, purpose, labels, prompt)
            return iter(()) if item is None else iter((item,))
        return self._picks(seat, remaining, limit, must, purpose, labels, refresh, verb,
                           prompt)

    @staticmethod
    def _all_that_can(pool: list[Option], refresh: Callable[[list[Option]], list[Option]]
                      ) -> Iterator[Option]:
        """``all`` of ``pool`` that ``refresh`` lets go, one at a time, asked again after
        the caller moved each: shelf cards leave one by one while the shelf stays one
        group (SHELF-14), so a card freed by the ones before it goes too."""
        while pool:
            free = refresh(pool)
            if not free:
                return
            pool.remove(free[0])
            yield free[0]

    def _picks(self, seat: int, remaining: list[Option], limit: int, must: int,
               purpose: Purpose, labels: Callable[[Option | None], str],
               refresh: Callable[[list[Option]], list[Option]] | None,
               verb: str, prompt: str = "") -> Iterator[Option]:
        """``pick``'s choices: up to ``limit`` of ``remaining``, the first ``must`` of
        them without a "done" option (and not asked when forced)."""
        chosen = 0
        while remaining and chosen < limit:
            if refresh is not None and chosen:
                remaining = refresh(remaining)
                if not remaining:
                    return
            if chosen < must and len(remaining) <= must - chosen:
                item = remaining.pop(0)
            else:
                item = self._pick_one(seat, remaining, chosen >= must, verb, purpose, labels,
                                      prompt)
                if item is None:
                    return
            chosen += 1
            yield item

    def _pick_one(self, seat: int, remaining: list[Option], optional: bool, verb: str,
                  purpose: Purpose, labels: Callable[[Option | None], str],
                  prompt: str = "") -> Option | None:
        """Ask for one of ``remaining`` (or "done", if ``optional``): the element, taken
        out of ``remaining``, or None for "done"."""
        values = [*remaining, None] if optional else remaining
        index = self.game.ask(seat, _PICK, prompt or f"which to {verb}?", values, labels,
                              verb=verb, purpose=purpose)
        if values[index] is None:
            return None
        # by position: no two candidates are equal (dict.fromkeys in pick), so this is
        # the element list.remove would find, without comparing the ones before it
        return remaining.pop(index)

    def cards_of(self, source: Value) -> list[Card]:
        return [c for c in as_list(source) if type(c) in _CARD_CLASSES]

    # ------------------------------------------------------------------ verbs
    def verb(self, name: str, args: list[Value], kwargs: dict[str, Value], env: Env,
             node: ast.Call) -> Value:
        impl = _VERBS.get(name)
        if impl is None:
            raise RulesError(f"the verb {name!r} is not supported by this engine yet "
                             f"(line {node.line})")
        return impl(self, env, *args, **kwargs)

    @GAME.verb("draw")
    def v_draw(self, env: Env, n: int) -> list[Card]:
        return self._kept(self.game.moves.draw(env.me.seat, int(n or 0)), env.me.hand)

    @GAME.verb("take")
    def v_take(self, env: Env, amount: Value, **kw: Value) -> list[Card]:
        seat = env.me.seat
        taken = []
        replaced = self.cards_of(kw["instead_of"]) if kw.get("instead_of") else []
        for card in self.pick(seat, self.cards_of(kw["from"]), amount, Purpose.TAKE,
                              refresh=self._removable):
            self._lift(card)  # off a shelf only while the shelf stays one group
            self.game.moves.give(card, seat)
            taken.append(card)
        for original, card in zip(replaced, taken, strict=False):
            self.ctx.stand_ins[original] = card
        return self._kept(taken, env.me.hand)

    def _kept(self, cards: list[Card], zone: Zone) -> list[Card]:
        """The cards a verb moved that are still where it put them: a reaction to the
        move (the Witch discarding what she gained) may have sent some away already,
        and the name bound to the result must not follow them there. A card kept in
        place of a gained one (``instead_of``) takes its place in the result, so the
        effect goes on with it (LIB-WITCH-2: shelve it where the original could be)."""
        state: GameState = self.game.state
        zone_of = state.cards.zone_of
        kept = []
        for card in cards:
            if zone_of(card) is not zone:
                card = self.ctx.stand_ins.pop(card, card)
            if zone_of(card) is zone:
                kept.append(card)
        return kept

    @GAME.verb("give")
    def v_give(self, env: Env, amount: Value, **kw: Value) -> list[Card]:
        seat = env.me.seat
        to = kw["to"]
        candidates = self.cards_of(kw["from"])
        if kw.get("random"):
            n = len(candidates) if isinstance(amount, AmountSpec) and amount.kind == "all" \
                else int(getattr(amount, "n", amount) or 0)
            candidates = self._removable(candidates)
            chosen = self.game.rng.sample(candidates, min(n, len(candidates)))
        else:
            chosen = []
            for card in self.pick(seat, candidates, amount, Purpose.GIVE, refresh=self._removable,
                                  verb=f"give to {to.name}"):
                self._lift(card)
                self.game.moves.give(card, to.seat, seat)
                chosen.append(card)
            return chosen
        given = []
        for card in chosen:
            if not self._removable([card]):  # the shelf changed: it would split now
                continue
            self._lift(card)
            self.game.moves.give(card, to.seat, seat)
            given.append(card)
        return given

    def _lift(self, card: Card) -> None:
        """Take a card off a shelf into limbo, so it can move like any other card."""
        zone = self.game.state.cards.zone_of(card)
        if isinstance(zone, ShelfZone):
            limbo = self.game.moves.limbo_zone(f"lifted-{zone.owner}")
            self.game.moves.remove_from_shelf(zone, card, limbo)

    @GAME.verb("discard")
    def v_discard(self, env: Env, amount: Value, **kw: Value) -> list[Card]:
        seat = env.me.seat
        source = kw["from"]
        to = kw.get("to")
        gone = []
        for card in self.pick(seat, self.cards_of(source), amount, Purpose.DISCARD,
                              refresh=self._removable):
            if isinstance(to, ShelfZone):  # onto a shelf: a legal cell its owner chooses
                if not self._put(card, to):
                    continue
            else:
                self.game.moves.discard(card, to if isinstance(to, Zone) else None)
            gone.append(card)
        return gone

    def _put(self, card: Card, zone: Zone) -> bool:
        """Move ``card`` into ``zone`` by the shelves' rules: off a shelf only while it
        stays one group (the caller checked), onto a shelf in a legal cell that shelf's
        owner chooses (``CardMoves.put_on_shelf``). False if the card could not go."""
        if isinstance(zone, ShelfZone):
            if zone.owner is None or not zone.shelf.legal_cells():
                return False
            self._lift(card)
            return self.game.moves.put_on_shelf(zone.owner, card)
        if isinstance(self.game.state.cards.zone_of(card), ShelfZone):
            self.game.moves.remove_from_shelf(self.game.state.cards.zone_of(card), card, zone)
        else:
            self.game.state.cards.move(card, zone)
        return True

    def _removable(self, cards: list[Card]) -> list[Card]:
        """Leave out shelf cards whose removal would split their shelf (SHELF-14)."""
        state: GameState = self.game.state
        zone_of = state.cards.zone_of
        if ShelfZone not in map(type, map(zone_of, cards)):
            return cards[:]  # none on a shelf (the common case: a hand's cards), a copy
        out = []
        removable: dict[int, frozenset[Card]] = {}  # by owner, kept by the shelf itself
        for card in cards:
            zone = zone_of(card)
            if type(zone) is ShelfZone:
                owner = zone.owner
                if owner not in removable:
                    removable[owner] = self.game.moves.removable(owner)
                if card not in removable[owner]:
                    continue
            out.append(card)
        return out

    @GAME.verb("pay")
    def v_pay(self, env: Env, n: int, **kw: Value) -> bool:
        seat = env.me.seat
        n = self.game.triggers.modify("payment", int(n or 0), actor=seat)
        candidates = self._removable(self.cards_of(kw["from"]))
        if len(candidates) < n:
            return False
        for card in self.pick(seat, candidates, n, Purpose.PAY, refresh=self._removable):
            self.game.moves.discard(card)
        return True

    @GAME.verb("shelve")
    def v_shelve(self, env: Env, amount: Value, **kw: Value) -> list[Card]:
        seat = env.me.seat
        shelved = []
        candidates = self.cards_of(kw["from"])
        if not kw.get("face_down"):
            candidates, amount = self._artifacts_instead(env.me, candidates, amount)
        for card in self.pick(seat, candidates, amount, Purpose.SHELVE, refresh=self._removable):
            if not self._off_other_shelf(seat, card):
                continue
            # only a book card lies face down; an artifact is shelved face up
            face_down = bool(kw.get("face_down")) and type(card) is BookCard
            if self.game.moves.shelve(seat, card, face_down=face_down):
                shelved.append(card)
        return shelved

    def _off_other_shelf(self, seat: int, card: Card) -> bool:
        """Ready ``card`` to be shelved by ``seat``: a card on ``seat``'s own shelf is
        not (False); one on another player's shelf is lifted off it, if that shelf
        stays one group and ``seat``'s shelf has a legal cell."""
        zone = self.game.state.cards.zone_of(card)
        if not isinstance(zone, ShelfZone):
            return True
        if zone.owner == seat or not self._removable([card]):
            return False
        if not self.game.player(seat).shelf.legal_cells():
            return False
        self._lift(card)
        return True

    def _artifacts_instead(self, player: PlayerState, candidates: list[Card],
                           amount: Value) -> tuple[list[Card], Value]:
        """Where a book card may be shelved, an artifact from hand may be instead
        (EXP-ROUND-02): the hand's artifacts join the choice, and the number shelved
        stays what the effect allows."""
        kind = amount.kind if isinstance(amount, AmountSpec) else "exact"  # pick checks a number
        if kind == "all":
            return candidates, amount
        extra = []
        for card in player.hand.cards:  # a plain loop: most hands hold no artifact
            if type(card) is ArtifactCard and card not in candidates:
                extra.append(card)
        if not extra:
            return candidates, amount
        books = [c for c in candidates if isinstance(c, BookCard)
                 and not isinstance(self.game.state.cards.zone_of(c), ShelfZone)]
        if not books:
            return candidates, amount
        if kind == "any":
            amount = AmountSpec("up_to", len(books))
        return [*candidates, *extra], amount

    @GAME.verb("trade")
    def v_trade(self, env: Env, **kw: Value) -> list[Card]:
        seat = env.me.seat
        mine = self._removable(self.cards_of(kw["from"]))
        if not mine:
            return []
        cards = self.game.state.cards
        theirs = [c for c in self.cards_of(kw["with"]) if c not in mine]
        # what can be had for each card given: off a shelf only while it stays one
        # group with the given card gone too; and the given card must fit where it goes
        options = [(give, get) for give in mine for get in self._removable(theirs)
                   if self._fits(give, get)]
        if not options:
            return []
        gives = list(dict.fromkeys(give for give, _ in options))
        give = next(self.pick(seat, gives, 1, Purpose.TRADE_AWAY))
        gets = [get for g, get in options if g is give]
        get = next(self.pick(seat, gets, 1, Purpose.TRADE_FOR))
        dst = cards.zone_of(get)
        assert dst is not None
        self._lift(get)  # the card had leaves first: its cell is free for the new card
        if isinstance(dst, ShelfZone):
            self._lift(give)
            self.game.moves.put_on_shelf(dst.owner, give)  # a legal cell its new owner chooses
        else:
            self._put(give, dst)
        self.game.event(EventKind.TRADE, seat=seat, gave=give.name, to=dst.name, got=get.name)
        self.game.moves.give(get, seat)
        return [get]

    def _fits(self, give: Card, get: Card) -> bool:
        """Whether ``give`` can go where ``get`` is once ``get`` has left: off a shelf
        only while it stays one group (``get`` first, then ``give`` if on the same
        shelf), onto a shelf only where a legal cell is left."""
        dst = self.game.state.cards.zone_of(get)
        if not isinstance(dst, ShelfZone):
            return True
        shelf = dst.shelf.copy()
        try:
            shelf.remove(dst.position_of(get))  # type: ignore[arg-type]
            if self.game.state.cards.zone_of(give) is dst:
                shelf.remove(shelf.position_of(give))  # type: ignore[arg-type]
        except ShelfError:
            return False
        return bool(shelf.legal_cells())

    @GAME.verb("reveal")
    def v_reveal(self, env: Env, amount: Value, **kw: Value) -> list[Card]:
        source = kw["from"]
        seat = env.me.seat
        if source is self.game.state.deck:
            n = int(getattr(amount, "n", amount) or 0)
            shown = self.game.moves.deal_to(self.game.moves.limbo_zone("revealed"), n)
        else:
            shown = list(self.pick(seat, self.cards_of(source), amount, Purpose.REVEAL))
        self.game.event(EventKind.REVEAL, seat=seat, cards=[c.name for c in shown])
        return shown

    @GAME.verb("look")
    def v_look(self, env: Env, cards: Value) -> list[Card]:
        seen = self.cards_of(cards)
        self.game.state.cards.saw(seen, env.me.seat)
        self.game.event(EventKind.LOOK, seat=env.me.seat, count=len(seen),
                        cards=[c.name for c in seen])
        return seen

    @GAME.verb("show")
    def v_show(self, env: Env, cards: Value, **kw: Value) -> None:
        shown = self.cards_of(cards)
        self.game.state.cards.saw(shown, kw["to"].seat)
        self.game.event(EventKind.SHOW, seat=env.me.seat, to=kw["to"].seat,
                        cards=[c.name for c in shown])

    @GAME.verb("tuck")
    def v_tuck(self, env: Env, amount: Value, **kw: Value) -> list[Card]:
        # beneath the first artifact of ``under`` that lies on a shelf (a book card
        # takes no tucked cards: ART-00-3); none there, nothing is tucked
        where = None
        for card in self.cards_of(kw["under"]):
            if type(card) is ArtifactCard:
                where = self._shelf_pos(card)
                if where is not None:
                    break
        if where is None:
            return []
        zone, pos = where
        host = zone.shelf.at(pos).card  # type: ignore[union-attr]
        source = kw["from"]
        if source is self.game.state.deck:
            n = int(getattr(amount, "n", amount) or 0)
            cards = self.game.moves.deal_to(self.game.moves.limbo_zone(), n)
        else:
            cards = []
            for card in self.pick(env.me.seat, [c for c in self.cards_of(source) if c != host],
                                  amount, Purpose.TUCK, refresh=self._removable):
                self._lift(card)  # off a shelf only while it stays one group
                cards.append(card)
        self.game.state.cards.tuck(cards, zone, pos)
        self.game.event(EventKind.TUCK, seat=env.me.seat, cards=[c.name for c in cards],
                        pos=list(pos))
        return cards

    @GAME.verb("name_category")
    def v_name_category(self, env: Env, **kw: Value) -> CategoryValue | None:
        excluded = {c.code for c in as_list(kw.get("except")) if isinstance(c, CategoryValue)}
        options = [c for c in self.game.categories.values() if c.code not in excluded]
        if not options:  # every category excepted: nothing is named
            return None
        index = self.game.ask(env.me.seat, DecisionKind.CATEGORY, "name a category", options,
                              lambda c: f"name {c.name}")
        chosen = options[index]
        self.game.event(EventKind.NAME, seat=env.me.seat, category=chosen.id)
        return chosen

    @GAME.verb("choose")
    def v_choose(self, env: Env, amount: Value, **kw: Value) -> list[Value]:
        return list(self.pick(env.me.seat, as_list(kw["from"]), amount, Purpose.CHOOSE,
                              prompt=str(kw.get("prompt") or "")))

    @GAME.verb("home_action")
    def v_home_action(self, env: Env) -> None:
        self.game.moves.home_action(env.me.seat)

    @GAME.verb("both_home_actions")
    def v_both_home_actions(self, env: Env) -> None:
        seat = env.me.seat
        orders = [(HomeAction.DRAW, HomeAction.SHELVE), (HomeAction.SHELVE, HomeAction.DRAW)]
        if self.game.settings.rulings.get("home_actions_order") == "draw-first":
            orders = orders[:1]
        index = self.game.ask(seat, DecisionKind.ORDER, "both home actions: which first?", orders,
                              lambda o: f"{o[0]} first, then {o[1]}")
        for kind in orders[index]:
            self.game.moves.home_action(seat, (kind,))

    @GAME.verb("home_actions")
    def v_home_actions(self, env: Env, n: int, **kw: Value) -> None:
        cap = kw.get("max_each")
        done = dict.fromkeys(HomeAction, 0)
        for _ in range(int(n or 0)):
            self.tick()  # each home action is a step: a huge count ends at the budget
            kinds = tuple(k for k in done if cap is None or done[k] < cap)
            kind = self.game.moves.home_action(env.me.seat, kinds)
            if kind is None:
                break
            done[kind] += 1

def _pick_labels(label: Callable[[Option], str]) -> Callable[[Option | None], str]:
    """The labels of a pick's options: ``label``'s, and "done" for None."""
    return lambda v: "done" if v is None else label(v)


@lru_cache(maxsize=256)
def _verb_labels(verb: str) -> Callable[[Option | None], str]:
    """The default labels of a pick (the verb and the name), made once a verb."""
    return _pick_labels(lambda x: f"{verb} {_name(x)}")


def _name(value: Value) -> str:
    if isinstance(value, BookCard | ArtifactCard):
        return value.name
    if isinstance(value, PlayerState | Assistant | LocationState):
        return value.name if not isinstance(value, LocationState) else value.spec.name
    if isinstance(value, Space):
        return f"{value.location.spec.name} space {value.index + 1}"
    return str(value)


