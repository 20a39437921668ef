"""The forward model: forks of a game at a decision, and determinizations for a seat.

A search bot asks "what if": it plays the game on from the decision it was
asked, many times, on copies. Two operations do it:

* **fork** (:func:`fork`): an independent game standing at the same decision.
  The flow keeps where it stands as data (``GameState.cursor``) at checkpoints
  (``Game.checkpoint``: the start of each placement turn, of each location's
  resolution, of cleanup and of each seat's voluntary flips), where no game data
  is on the call stack. A game that is forked keeps a :class:`Recorder`: a copy
  made at its last checkpoint (``engine/copying.py``) and the answers given since.
  A fork is a copy of that copy which replays those answers, so it reaches the
  very decision the original is at, whatever effect asked it: every decision of a
  game is forkable once its first checkpoint has passed (the library draft at
  setup is not).
* **determinize** (:func:`determinize`): the fork made consistent with what one
  seat may know and no more. What the seat cannot see (``agents/view.py``) is
  dealt again at random from the cards it has not seen: the other hands, the
  deck's order, face-down card areas, the artifact and special assistant decks,
  the order of the location stack, the other players' focuses and, in solo, the
  public focus and the license form; the generator that draws the rest of the
  game is seeded anew. What is dealt is put in one order first (the cards by
  what they are, the tiles and categories by name), so the deal is a function of
  the seat's information and the generator alone: a search's draws, seed by seed,
  never depend on where the hidden cards lay (``tests/test_search_information.py``).

Both go on in :meth:`Branch.play`: the fork replays the answers, determinizes
when it reaches the pending decision, and hands that decision to the agents.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import repeat
from typing import Any

from exlibris.draws import shuffle
from exlibris.engine.copying import copy_game
from exlibris.engine.decisions import Agent, Decision
from exlibris.engine.errors import RulesError
from exlibris.engine.flow import go_on
from exlibris.engine.game import Game
from exlibris.engine.state import GameState
from exlibris.engine.zones import Zone
from exlibris.model.cards import ArtifactCard, BookCard, ResumeCard

CARD_CLASSES = (BookCard, ArtifactCard, ResumeCard)


class NotForkable(RulesError):
    """The game has passed no checkpoint since it started recording (setup)."""


class Recorder:
    """What a forked game keeps (``game.forward``): a copy of it at its last
    checkpoint and the answers its agents gave since."""

    __slots__ = ("answers", "rng_state", "snapshot")

    def __init__(self) -> None:
        self.snapshot: Game | None = None
        self.answers: list[int] = []
        # the snapshot's generator's state, read at its first fork (it never moves: a
        # snapshot is only copied), for every later fork of it
        self.rng_state: tuple[Any, ...] | None = None

    def checkpoint(self, game: Game) -> None:
        self.snapshot = copy_game(game, ())
        self.answers = []
        self.rng_state = None


def record(game: Game) -> Recorder:
    """Keep what forks of ``game`` need, from its next checkpoint on."""
    if game.forward is None:
        game.forward = Recorder()
    return game.forward


def forkable(game: Game) -> bool:
    """Whether :func:`fork` can fork ``game`` now."""
    return game.forward is not None and game.forward.snapshot is not None


def fork(game: Game) -> Branch:
    """A fork of ``game`` at the decision it is asking now (or, between decisions, at
    the last decision it asked): see :meth:`Branch.play`."""
    recorder = game.forward
    if recorder is None or recorder.snapshot is None:
        raise NotForkable("this game is not at a forkable decision (it records from its "
                          "first checkpoint: forward.record)")
    snapshot = recorder.snapshot
    if recorder.rng_state is None:
        recorder.rng_state = snapshot.state.rng.getstate()
    return Branch(copy_game(snapshot, (), recorder.rng_state), tuple(recorder.answers))


class Branch:
    """A fork: a copy at the last checkpoint and the answers that lead to the decision."""

    __slots__ = ("answers", "game")

    def __init__(self, game: Game, answers: tuple[int, ...]) -> None:
        self.game = game
        self.answers = answers

    def play(self, agents: Sequence[Agent], *,
             arrived: Callable[[Game, Decision], None] | None = None) -> Any:
        """Play the fork on to the end with ``agents``; return its ``Outcome``.

        The answers are replayed first; ``arrived(game, decision)`` is called when
        the fork reaches the pending decision, before any agent answers it (a
        determinization, a check), and ``agents`` answer from that decision on. An
        agent may stop the game by raising; the exception leaves this call.
        """
        game = self.game
        replay = _Replay(game, self.answers, list(agents), arrived)
        game.agents = [replay] * len(game.state.players)
        return go_on(game)


class _Replay:
    """The fork's agent until it reaches the pending decision, then the real ones'
    go-between for that one decision."""

    needs_view = False

    __slots__ = ("agents", "answers", "arrived", "game", "next")

    def __init__(self, game: Game, answers: tuple[int, ...], agents: list[Agent],
                 arrived: Callable[[Game, Decision], None] | None) -> None:
        self.game = game
        self.answers = answers
        self.next = 0
        self.agents = agents
        self.arrived = arrived

    def decide(self, view: Any, decision: Decision) -> int:
        if self.next < len(self.answers):
            self.next += 1
            return self.answers[self.next - 1]
        game = self.game
        if self.arrived is not None:
            self.arrived(game, decision)
        game.agents = self.agents  # from here on the agents are asked directly
        agent = self.agents[decision.seat]
        views = game.views
        own = views(game, decision.seat) if views and getattr(agent, "needs_view", False) \
            else None
        return agent.decide(own, decision)


# ---------------------------------------------------------------------------- determinize


def hidden_zones(state: GameState, seat: int) -> list[Zone]:
    """The zones whose cards ``seat`` cannot see: the other hands, the deck, the
    face-down card areas, the artifact and special assistant decks."""
    zones = [p.hand for p in state.players if p.seat != seat]
    zones += [state.deck, state.artifact_deck, state.assistant_deck]
    zones += [loc.area for loc in state.in_play if loc.area.face_down]
    return zones


def determinize(game: Game, seat: int, rng: random.Random) -> None:
    """Deal again, in place, everything ``seat`` cannot see (see the module's text).

    Each hidden zone keeps how many cards of each class (book, artifact, special
    assistant card) it holds; the cards of a class are dealt among those places at
    random. What ``seat`` sees stays as it was: its own hand and focus, every shelf,
    every face-up zone, every count, and every hidden card it has seen where it is
    (``Cards.known_to``: a face-up card an opponent took into their hand, a card it
    gave away or looked at)."""
    state = game.state
    places: dict[type, list[tuple[Zone, int]]] = {cls: [] for cls in CARD_CLASSES}
    pools: dict[type, list[Any]] = {cls: [] for cls in CARD_CLASSES}
    known = state.cards.known_in_hidden(seat)  # ``Cards.known_to``, for every card at once
    for zone in hidden_zones(state, seat):
        cards = zone.cards
        if not cards or not zone.hidden:  # a zone all see: every card stays
            continue
        kinds = set(map(type, cards))
        if len(kinds) == 1 and known.isdisjoint(cards):  # a pile of one class, none seen
            cls = kinds.pop()
            places[cls] += zip(repeat(zone), range(len(cards)))
            pools[cls] += cards
            continue
        for i, card in enumerate(cards):
            if card in known:  # seen where it is: it stays
                continue
            cls = type(card)
            places[cls].append((zone, i))
            pools[cls].append(card)
    for cls in CARD_CLASSES:
        pool = pools[cls]
        if len(pool) < 2:
            continue
        _in_deal_order(pool)  # the order they lay in is hidden: not theirs to keep
        shuffle(rng, pool)
        state.cards.redeal(places[cls], pool)
    state.location_stack.sort()
    shuffle(rng, state.location_stack)
    _deal_focuses(game, seat, rng)
    state.rng.seed(rng.getrandbits(64))


_DEAL_ORDER: dict[Any, str] = {}  # each card met so far -> its text (cards are values)


def _in_deal_order(cards: list[Any]) -> None:
    """Sort ``cards`` (of one class) by what they are, whatever order they lay in."""
    try:
        cards.sort(key=_DEAL_ORDER.__getitem__)
    except KeyError:  # a card not met before in this process
        _DEAL_ORDER.update({card: str(card) for card in cards})
        cards.sort(key=_DEAL_ORDER.__getitem__)


def _deal_focuses(game: Game, seat: int, rng: random.Random) -> None:
    state = game.state
    solo = game.solo
    if solo is not None:  # the public focus and the form's face-down categories
        hidden = sorted([solo.public_focus, *solo.form])
        shuffle(rng, hidden)
        solo.public_focus, solo.form = hidden[0], hidden[1:]
        return
    others = [p for p in state.players if p.seat != seat]
    seen = {state.prominent, state.banned, state.players[seat].focus}
    unseen = sorted(c.code for c in game.categories.values() if c.code not in seen)
    if len(unseen) < len(others):
        return  # more focuses than categories left: a setting no box has
    shuffle(rng, unseen)
    for player, code in zip(others, unseen, strict=False):
        player.focus = code
