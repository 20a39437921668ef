"""The forward model (``engine/forward.py``): forks and determinizations, in every mode.

* at every decision of seeded random games a fork reaches the same decision and
  hashes as the original; playing on it changes neither the original nor earlier
  forks (TAG's ``ForwardModelTester`` check);
* a game played on a chain of forks, each made at a decision and played on, ends as
  the same game played straight;
* a determinization for the deciding seat shows that seat exactly the view it had,
  keeps every card in one place, and plays on to the end; over many samples the
  hidden cards land only where the unseen set allows, about as often as chance says
  (OpenSpiel's ``ResampleFromInfostate`` check).
"""

from __future__ import annotations

import contextlib
import random
from collections import Counter
from typing import Any

import pytest

from exlibris.agents import RandomAgent
from exlibris.agents.view import player_view
from exlibris.catalog import load_catalog
from exlibris.engine import forward
from exlibris.engine.decisions import Decision
from exlibris.engine.digest import state_digest
from exlibris.engine.flow import new_game, play
from exlibris.engine.game import Game
from exlibris.model.cards import BookCard
from exlibris.validation import resolve_settings

CATALOG = load_catalog()
MODES = [("standard", 2), ("standard", 3), ("standard", 4), ("five-player", 5),
         ("solo", 1), ("solo-expanded", 1), ("job-faire", 3), ("artifactorium", 2),
         ("expanded", 4), ("beginner", 2)]


class Stop(Exception):
    """Ends a fork's play early."""


class Limited:
    """Random answers, then :class:`Stop` after ``limit`` decisions."""

    needs_view = False

    def __init__(self, seed: int, limit: int) -> None:
        self.random = RandomAgent(seed)
        self.limit = limit

    def decide(self, view: Any, decision: Decision) -> int:
        self.limit -= 1
        if self.limit < 0:
            raise Stop
        return self.random.decide(view, decision)


class Probe:
    """A seat's random agent that also runs ``check(game, decision)`` at each decision."""

    needs_view = False

    def __init__(self, seed: int, check: Any) -> None:
        self.random = RandomAgent(seed)
        self.check = check
        self.game: Game | None = None

    def decide(self, view: Any, decision: Decision) -> int:
        if self.game is not None and forward.forkable(self.game):
            self.check(self.game, decision)
        return self.random.decide(view, decision)


def probed_game(variant: str, players: int, seed: int, check: Any) -> Any:
    settings = resolve_settings(variant, CATALOG.variants)
    agents = [Probe(seed * 10 + i, check) for i in range(players)]
    game = new_game(CATALOG, settings, agents, seed=seed, views=player_view, variant=variant)
    forward.record(game)
    for agent in agents:
        agent.game = game
    return play(game)


def same_decision(a: Decision, b: Decision) -> bool:
    return (a.seat, a.kind, a.prompt, a.labels) == (b.seat, b.kind, b.prompt, b.labels)


@pytest.mark.parametrize(("variant", "players"), MODES)
def test_a_fork_hashes_as_the_original_and_playing_on_it_changes_nothing(
        variant: str, players: int) -> None:
    counts = Counter[str]()
    earlier: list[tuple[forward.Branch, str]] = []

    def check(game: Game, decision: Decision) -> None:
        before = state_digest(game)
        branch = forward.fork(game)
        arrived: dict[str, Any] = {}

        def at(fork_game: Game, fork_decision: Decision) -> None:
            arrived["digest"] = state_digest(fork_game)
            arrived["same"] = same_decision(fork_decision, decision)

        playing = Limited(counts["forks"], 25)
        with contextlib.suppress(Stop):
            branch.play([playing] * players, arrived=at)
        assert arrived == {"digest": before, "same": True}
        assert state_digest(branch.game) != before  # the digest sees the fork move on
        assert state_digest(game) == before
        if counts["forks"] % 20 == 0:
            for old, digest in earlier:
                assert state_digest(old.game) == digest
        if counts["forks"] % 40 == 0:  # a few forks kept unplayed, checked ever after
            kept = forward.fork(game)
            earlier.append((kept, state_digest(kept.game)))
        counts["forks"] += 1

    probed_game(variant, players, 3, check)
    assert counts["forks"] > 30


class FromList:
    """Answers a game's decisions from one list, by how many the game has asked."""

    needs_view = False

    def __init__(self, answers: list[int], every: int) -> None:
        self.answers = answers
        self.every = every
        self.game: Game | None = None
        self.forked = -1

    def sit_at(self, game: Game) -> None:
        self.game = game

    def decide(self, view: Any, decision: Decision) -> int:
        game = self.game
        assert game is not None
        if (game.decisions % self.every == 0 and game.decisions != self.forked
                and forward.forkable(game)):
            self.forked = game.decisions  # the fork comes back to this decision: answer it
            raise Moved(forward.fork(game))
        return self.answers[game.decisions]


class Moved(Exception):
    def __init__(self, branch: forward.Branch) -> None:
        self.branch = branch


class Recording:
    needs_view = False

    def __init__(self, seed: int, answers: list[int]) -> None:
        self.random = RandomAgent(seed)
        self.answers = answers

    def decide(self, view: Any, decision: Decision) -> int:
        index = self.random.decide(view, decision)
        self.answers.append(index)
        return index


@pytest.mark.parametrize(("variant", "players"), [("standard", 2), ("job-faire", 3),
                                                  ("solo", 1), ("expanded", 4)])
def test_a_game_played_on_a_chain_of_forks_is_the_game_played_straight(
        variant: str, players: int) -> None:
    settings = resolve_settings(variant, CATALOG.variants)
    answers: list[int] = []
    straight = new_game(CATALOG, settings, [Recording(i, answers) for i in range(players)],
                        seed=11, variant=variant)
    outcome = play(straight)
    agent = FromList(answers, 7)
    game = new_game(CATALOG, settings, [agent] * players, seed=11, variant=variant)
    forward.record(game)
    hops = 0
    try:
        chained = play(game)
    except Moved as moved:
        branch = moved.branch
        while True:
            hops += 1
            forward.record(branch.game)
            agent.game = branch.game
            try:
                chained = branch.play([agent] * players)
                break
            except Moved as again:
                branch = again.branch
    assert hops > 10
    assert state_digest(agent.game) == state_digest(straight)
    assert [f.total for f in chained.inspection.forms] == \
        [f.total for f in outcome.inspection.forms]


@pytest.mark.parametrize(("variant", "players"), MODES)
def test_a_determinization_shows_the_observer_the_view_it_had(variant: str,
                                                              players: int) -> None:
    rng = random.Random(5)
    counts = Counter[str]()

    def check(game: Game, decision: Decision) -> None:
        seat = decision.seat
        view = player_view(game, seat)
        branch = forward.fork(game)
        seen: dict[str, Any] = {}

        def at(fork_game: Game, _: Decision) -> None:
            forward.determinize(fork_game, seat, rng)
            seen["view"] = player_view(fork_game, seat)
            fork_game.state.card_census()  # every card in exactly one place
            zones = fork_game.state.cards.where
            for zone in fork_game.state.all_zones():
                for card in zone.cards:
                    assert zones[card] is zone
            seen["changed"] = any(
                a.hand.cards != b.hand.cards for a, b in
                zip(fork_game.state.players, game.state.players, strict=True)
                if a.seat != seat) or fork_game.state.deck.cards != game.state.deck.cards

        limit = 10**6 if counts["forks"] % 25 == 0 else 30  # some played to the end
        with contextlib.suppress(Stop):
            branch.play([Limited(counts["forks"], limit)] * players, arrived=at)
        assert seen["view"] == view
        counts["changed"] += seen["changed"]
        counts["forks"] += 1

    probed_game(variant, players, 4, check)
    assert counts["changed"] > counts["forks"] // 2


class Grab(Exception):
    """Stops a game where the test looks at it."""


class StopAtRound:
    """The first option always, until seat 0 is asked in ``round`` at a forkable point."""

    needs_view = False

    def __init__(self, round_: int) -> None:
        self.round = round_
        self.game: Game | None = None

    def sit_at(self, game: Game) -> None:
        self.game = game

    def decide(self, view: Any, decision: Decision) -> int:
        game = self.game
        assert game is not None
        if game.state.round == self.round and decision.seat == 0 and forward.forkable(game):
            raise Grab
        return 0


def test_hidden_cards_are_dealt_only_where_the_unseen_set_allows_as_often_as_chance() -> None:
    settings = resolve_settings("standard", CATALOG.variants)
    agent = StopAtRound(3)
    game = new_game(CATALOG, settings, [agent, agent], seed=21)
    forward.record(game)
    with pytest.raises(Grab):
        play(game)
    hand = list(game.state.players[1].hand.cards)
    known = game.state.cards.known_to
    hand = [c for c in hand if not known(c, 0)]
    unseen = [c for zone in forward.hidden_zones(game.state, 0) for c in zone.cards
              if isinstance(c, BookCard) and not known(c, 0)]
    rng = random.Random(9)
    hits = Counter[Any]()
    tops = Counter[Any]()
    samples = 400

    def at(fork_game: Game, _: Decision) -> None:
        forward.determinize(fork_game, 0, rng)
        hits.update(fork_game.state.players[1].hand.cards)
        tops[fork_game.state.deck.cards[-1]] += 1
        raise Grab

    for _ in range(samples):
        with pytest.raises(Grab):
            forward.fork(game).play([RandomAgent(0)] * 2, arrived=at)
    assert set(hits) <= set(unseen) and set(tops) <= set(unseen)  # nothing seen moves
    assert all(isinstance(c, BookCard) for c in hits)
    share = len(hand) / len(unseen)  # each unseen card is in the hand this often
    for card in unseen[::7]:
        expected = samples * share
        assert abs(hits[card] - expected) < 5 * (expected * (1 - share)) ** 0.5 + 1
    assert len(tops) > len(unseen) // 3  # the deck's top card: any unseen card
    assert max(tops.values()) < 5 * (samples / len(unseen)) ** 0.5 + samples / len(unseen)


def test_a_determinization_keeps_the_hidden_cards_the_seat_has_seen_where_it_saw_them(
        ) -> None:
    """Card memory: a face-up card an opponent took into their hand, a card the seat
    gave away and a face-down card it looked at stay put; a card the opponent drew
    does not, and a card shuffled back into the deck is forgotten."""
    settings = resolve_settings("standard", CATALOG.variants)
    agent = StopAtRound(2)
    game = new_game(CATALOG, settings, [agent, agent], seed=5)
    forward.record(game)
    with pytest.raises(Grab):
        play(game)
    state = game.state
    cards = state.cards
    deck, mine, theirs = state.deck, state.players[0].hand, state.players[1].hand
    taken, given, looked, drawn, shuffled = (deck.cards[-i] for i in range(1, 6))
    cards.move(taken, state.discard)
    cards.move(taken, theirs)  # from a zone all see: everyone knows where it went
    cards.move(given, mine)
    cards.move(given, theirs)  # from seat 0's hand: seat 0 knows
    cards.move(drawn, theirs)  # from the deck: only its owner knows
    cards.move(shuffled, state.discard)
    cards.move(shuffled, deck)
    cards.forget([shuffled])
    cards.saw([looked], 0)  # still in the deck, at the index seat 0 saw
    index = deck.cards.index(looked)
    assert [cards.known_to(c, 0) for c in (taken, given, looked, drawn, shuffled)] == [
        True, True, True, False, False]
    assert cards.known_to(drawn, 1) and not cards.known_to(looked, 1)
    recorder = game.forward
    assert recorder is not None and recorder.answers == []  # at the turn's checkpoint
    recorder.checkpoint(game)  # again, with the moves above in the position
    rng = random.Random(3)
    drawn_stayed = 0

    def at(fork_game: Game, _: Decision) -> None:
        nonlocal drawn_stayed
        forward.determinize(fork_game, 0, rng)
        fork = fork_game.state
        names = {c.name for c in fork.players[1].hand.cards}
        assert {taken.name, given.name} <= names
        assert fork.deck.cards[index].name == looked.name
        drawn_stayed += drawn.name in names
        raise Grab

    for _ in range(60):
        with pytest.raises(Grab):
            forward.fork(game).play([RandomAgent(0)] * 2, arrived=at)
    assert drawn_stayed < 60  # an unseen card is dealt again


def test_a_copy_has_its_own_collaborators_on_its_own_state_and_no_kept_caches() -> None:
    """``game.moves``, ``board`` and ``triggers`` act on the state they hold: a copy's
    are new ones on the copy's state (sharing the original's would play the copy's
    moves on the original), and what the triggers keep only to go faster is not
    carried over (``copying.py``), but built again the same."""
    from exlibris.engine.copying import copy_game

    checked = Counter[str]()

    def check(game: Game, decision: Decision) -> None:
        if checked["copies"] >= 5:
            return
        game.triggers.sources()  # the original's kept carriers, sorted
        copy = copy_game(game, ())
        for name in ("moves", "board", "triggers"):
            mine, theirs = getattr(copy, name), getattr(game, name)
            assert mine is not theirs and mine.game is copy and mine.state is copy.state
        assert copy.board.moves is copy.moves and copy.board.triggers is copy.triggers
        assert copy.triggers._specials is None and copy.triggers._sorted_at == -1
        assert [(s.owner, getattr(s.this, "id", None)) for s in copy.triggers.sources()] == \
            [(s.owner, getattr(s.this, "id", None)) for s in game.triggers.sources()]
        checked["copies"] += 1

    probed_game("job-faire", 3, 5, check)
    assert checked["copies"] == 5


@pytest.mark.parametrize(("variant", "players"), [("standard", 3), ("artifactorium", 2),
                                                  ("job-faire", 3), ("solo", 1)])
def test_a_determinization_is_the_same_from_any_deal_of_what_the_seat_cannot_see(
        variant: str, players: int) -> None:
    """Two games that differ only in what seat 0 cannot see, determinized for it by
    generators in the same state, become the same game: the deal depends on the
    seat's information and the generator, never on where the hidden cards lay (a
    search's draws, seed by seed, do not: ``tests/test_search_information.py``)."""
    from exlibris.engine.copying import copy_game

    settings = resolve_settings(variant, CATALOG.variants)
    agent = StopAtRound(3)
    game = new_game(CATALOG, settings, [agent] * players, seed=13, variant=variant)
    forward.record(game)
    with pytest.raises(Grab):
        play(game)
    snapshot = game.forward.snapshot  # type: ignore[union-attr]
    here, there = copy_game(snapshot, ()), copy_game(snapshot, ())
    forward.determinize(there, 0, random.Random(1))  # another deal of the hidden cards
    assert player_view(there, 0) == player_view(here, 0)
    assert state_digest(there) != state_digest(here)
    for one in (here, there):
        forward.determinize(one, 0, random.Random(2))
    assert state_digest(there) == state_digest(here)
