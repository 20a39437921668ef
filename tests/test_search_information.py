"""The search bot decides on what its seat may know, never on the hidden cards.

At a searched decision of seeded games (a placement, asked at the turn's
checkpoint) a second game is built that is the same position for the deciding
seat with everything it cannot see dealt again: the copy the forward model kept
at that checkpoint, determinized for the seat with another generator
(``engine/forward.py``), so every hidden zone is redealt consistently with what
the seat has seen. The seat's view (``agents/view.py``) and the decision it is
asked are checked equal in both. Then the same bot with the same seed must make
the same decision in both games, for every seed: its random draws come from its
seed and the position it sees, its determinizations deal the unseen cards from
the seat's information alone, so no draw of the search can depend on where the
hidden cards are. Equal decisions seed by seed is stronger than equal
distributions over seeds: any leak that changes even one search shows.

Leaks it catches (checked by hand, each put into the search's determinization
only): keeping the other hands as they are, or the deck, or the other players'
focuses, or dealing the unseen cards in the order they lie; and, in solo, the
search's margin at the decision read from the true game.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from exlibris.agents import GreedyAgent, make_bot
from exlibris.agents.view import player_view
from exlibris.catalog import load_catalog
from exlibris.engine import forward
from exlibris.engine.copying import copy_game
from exlibris.engine.decisions import Decision, DecisionKind
from exlibris.engine.flow import new_game, play
from exlibris.engine.game import Game
from exlibris.validation import resolve_settings

CATALOG = load_catalog()
BUDGET = 32  # iterations a decision: small, so that the seeds' choices differ
BOT_SEEDS = range(6)


class Grab(Exception):
    """Ends the driving game once its decision has been looked at."""


class Driver:
    """Greedy answers; at the ``nth`` placement of ``seat`` asked at a checkpoint,
    ``look(game, decision)`` runs while the game stands at it, then the game stops."""

    needs_view = True

    def __init__(self, seed: int, seat: int, nth: int, look: Any) -> None:
        self.greedy = GreedyAgent(seed)
        self.seat = seat
        self.nth = nth
        self.look = look
        self.game: Game | None = None

    def sit_at(self, game: Game) -> None:
        self.game = game
        forward.record(game)

    def decide(self, view: Any, decision: Decision) -> int:
        game = self.game
        assert game is not None and game.forward is not None
        if (decision.seat == self.seat and decision.kind is DecisionKind.PLACE
                and forward.forkable(game) and not game.forward.answers):
            self.nth -= 1
            if self.nth == 0:
                self.look(game, decision)
                raise Grab
        return self.greedy.decide(view, decision)


def redealt(game: Game, seat: int, rng: random.Random) -> Game:
    """A game at the same checkpoint as ``game`` (which has answered nothing since)
    with what ``seat`` cannot see dealt again, recording for forks."""
    recorder = game.forward
    assert recorder is not None and recorder.snapshot is not None and not recorder.answers
    other = copy_game(recorder.snapshot, ())
    forward.determinize(other, seat, rng)
    forward.record(other).checkpoint(other)
    return other


def arrival(game: Game, seat: int) -> tuple[Any, Decision]:
    """The view of ``seat`` and the decision where a fork of ``game`` arrives."""
    found: list[Any] = []

    def at(fork: Game, decision: Decision) -> None:
        found.extend((player_view(fork, seat), decision))
        raise Grab

    with pytest.raises(Grab):
        forward.fork(game).play([GreedyAgent(0)] * len(game.state.players), arrived=at)
    return found[0], found[1]


def hidden_cards(game: Game, seat: int) -> list[list[str]]:
    return [[c.name for c in zone.cards] for zone in forward.hidden_zones(game.state, seat)]


def decisions(game: Game, view: Any, decision: Decision) -> list[int]:
    """The search bot's choice at ``decision`` of ``game``, for each bot seed."""
    found = []
    for seed in BOT_SEEDS:
        bot = make_bot(f"mcts:{BUDGET}", seed)  # the seat a player picks, at a small budget
        bot.sit_at(game)
        found.append(bot.decide(view, decision))
    return found


@pytest.fixture(autouse=True)
def forks_counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Forks made (``forward.fork``): the bots must search, not answer as greedy does."""
    made = [0]
    real = forward.fork

    def counted(game: Game) -> forward.Branch:
        made[0] += 1
        return real(game)

    monkeypatch.setattr(forward, "fork", counted)
    return made


# (variant, players, game seed, the searching seat, which of its placements at a checkpoint)
CASES = [("standard", 2, 3, 0, 5), ("standard", 2, 8, 1, 9), ("standard", 3, 4, 2, 6),
         ("job-faire", 3, 6, 1, 4), ("artifactorium", 2, 7, 0, 7),
         # solo: a search that read the margin it starts from in the true game (whose
         # public focus is hidden) decided otherwise on these, seed by seed
         ("solo", 1, 1, 0, 5), ("solo", 1, 9, 0, 7)]


@pytest.mark.parametrize(("variant", "players", "seed", "seat", "nth"), CASES)
def test_the_search_decides_the_same_on_another_deal_of_what_it_cannot_see(
        variant: str, players: int, seed: int, seat: int, nth: int,
        forks_counted: list[int]) -> None:
    settings = resolve_settings(variant, CATALOG.variants)
    seen: dict[str, Any] = {}

    def look(game: Game, decision: Decision) -> None:
        view = player_view(game, seat)
        other = redealt(game, seat, random.Random(seed + 1000))
        other_view, other_decision = arrival(other, seat)
        assert other_view == view  # the same position, as the seat sees it
        assert (other_decision.kind, other_decision.labels) == (decision.kind,
                                                                decision.labels)
        assert hidden_cards(other, seat) != hidden_cards(game, seat)  # dealt otherwise
        assert players == 1 or any(  # another hand, not only the deck's order
            a.hand.cards != b.hand.cards for a, b in
            zip(other.state.players, game.state.players, strict=True) if a.seat != seat)
        seen["here"] = decisions(game, view, decision)
        forks = forks_counted[0]
        seen["there"] = decisions(other, view, decision)
        assert forks_counted[0] - forks >= len(BOT_SEEDS) * 8, "the bots did not search"
        seen["options"] = decision.size

    agents = [Driver(seed * 10 + i, seat, nth, look) for i in range(players)]
    game = new_game(CATALOG, settings, agents, seed=seed, views=player_view, variant=variant)
    with pytest.raises(Grab):
        play(game)
    assert seen["here"] == seen["there"], seen
