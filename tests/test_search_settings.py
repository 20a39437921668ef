"""The search bot's settings (``agents/mcts.py``, ``agents/rollout.py``): rollouts to the
end of the round, the remembering rollout policy, sequential halving at the root with
common deals, and the benchmarks' spelling of them (``bench/bot_specs.py``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exlibris.agents import GreedyAgent, mcts
from exlibris.agents.mcts import Horizon, MctsAgent, Node, _Walker
from exlibris.agents.rollout import RolloutPolicy
from exlibris.agents.view import player_view
from exlibris.catalog import load_catalog
from exlibris.engine.decisions import DecisionKind
from exlibris.engine.digest import state_digest
from exlibris.engine.flow import new_game, play
from exlibris.validation import resolve_settings

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import bot_specs

CATALOG = load_catalog()


class StopAtPlacement:
    """Seat 0: greedy until the given placement, where it hands the game to ``at``."""

    needs_view = True

    def __init__(self, placements: int, at: Any) -> None:
        self.greedy = GreedyAgent(0)
        self.left = placements
        self.at = at
        self.game: Any = None

    def sit_at(self, game: Any) -> None:
        self.game = game
        sit = getattr(self.at, "sit_at", None)
        if sit is not None:
            sit(game)

    def decide(self, view: Any, decision: Any) -> int:
        if decision.kind is DecisionKind.PLACE:
            self.left -= 1
            if self.left == 0:
                raise _Reached(self.game, view, decision)
        return self.greedy.decide(view, decision)


class _Reached(Exception):
    def __init__(self, game: Any, view: Any, decision: Any) -> None:
        super().__init__()
        self.game, self.view, self.decision = game, view, decision


def position(searcher: MctsAgent, placements: int = 7, seed: int = 4,
             variant: str = "standard") -> _Reached:
    """A two-player game at seat 0's ``placements``-th placement, ``searcher`` seated."""
    settings = resolve_settings(variant, CATALOG.variants)
    seat = StopAtPlacement(placements, searcher)
    game = new_game(CATALOG, settings, [seat, GreedyAgent(1)], seed=seed,
                    views=player_view, variant=variant)
    with pytest.raises(_Reached) as reached:
        play(game)
    return reached.value


def test_halving_plays_each_option_on_the_same_deal_so_options_are_compared_alike() -> None:
    searcher = MctsAgent(3, iterations=24, root="halving")
    at = position(searcher)
    first = searcher._play_out(at.game, at.decision, 0, 11)
    assert searcher._play_out(at.game, at.decision, 0, 11) == first  # the deal is the same
    others = {searcher._play_out(at.game, at.decision, 0, deal) for deal in range(12, 20)}
    assert others != {first}  # and another deal is another game


def test_halving_gives_a_legal_option_and_the_same_one_for_the_same_seed() -> None:
    answers = []
    for _ in range(2):
        searcher = MctsAgent(3, iterations=24, root="halving")
        at = position(searcher)
        answers.append(searcher.decide(at.view, at.decision))
        budget = searcher.iterations_for(at.decision.size)
        # each round plays every option left as often; the last may pass the budget
        assert budget // 2 <= searcher.last_iterations <= budget + at.decision.size
    assert answers[0] == answers[1] and 0 <= answers[0] < at.decision.size


def test_halving_stops_at_its_cap_on_rollout_decisions_and_plays_the_budget_without() -> None:
    budget, work = 60, 4  # far below a play-out's length: the cap binds
    capped = MctsAgent(3, iterations=budget, work=work)
    at = position(capped)
    size = at.decision.size
    answer = capped.decide(at.view, at.decision)
    assert 0 <= answer < size
    full = MctsAgent(3, iterations=budget, work=0)
    at_again = position(full)
    assert full.decide(at_again.view, at_again.decision) in range(size)
    spent = capped.iterations_for(size)
    assert full.last_iterations >= spent // 2 and full.played > spent * work
    # each round plays every option left at least once, so the cap can be passed by
    # about one deal a round; far fewer play-outs than without it
    per = full.played / full.last_iterations
    assert capped.played <= spent * work + size * 2 * per
    assert capped.last_iterations < full.last_iterations
    # the same seed and cap: the same count and the same answer
    again = MctsAgent(3, iterations=budget, work=work)
    at_third = position(again)
    assert again.decide(at_third.view, at_third.decision) == answer
    assert (again.played, again.last_iterations) == (capped.played, capped.last_iterations)


def test_a_rollout_decision_counts_more_by_the_artifacts_its_seat_shows() -> None:
    """The cap counted in cost: a rollout decision counts ``artifact_work`` more for each
    face-up artifact on the deciding seat's shelf, up to ``ARTIFACTS_COUNTED``."""
    searcher = MctsAgent(3, artifact_work=0.5)
    at = position(searcher, placements=11, variant="expanded", seed=0)
    shown = [mcts.artifacts_shown(p.shelf) for p in at.game.state.players]
    assert shown == [3, 1]  # this game's shelves at seat 0's 11th placement
    searcher._costed = searcher._artifact_work(at.game)
    assert searcher._costed == 0.5
    for deal in range(11, 14):
        searcher.played, searcher.spent = 0, 0.0
        searcher._play_out(at.game, at.decision, 0, deal)
        # each decision 1 and at most 0.5 for each of three artifacts more
        assert searcher.played < searcher.spent <= searcher.played * 2.5


def test_the_cost_is_counted_where_set_in_games_with_artifacts() -> None:
    costed = MctsAgent(3, artifact_work=0.5)
    assert costed._artifact_work(position(costed, variant="standard").game) == 0.0
    for variant, work in (("solo-artifactorium", 0.5), ("solo", 0.0)):
        game = new_game(CATALOG, resolve_settings(variant, CATALOG.variants), [GreedyAgent(0)],
                        seed=1, views=player_view, variant=variant)
        assert costed._artifact_work(game) == work
        assert MctsAgent(3)._artifact_work(game) == 0.0  # the default: decisions alike


def test_a_table_with_artifacts_plays_fewer_rollout_decisions_under_the_cap() -> None:
    played = []
    for work in (1.0, 0.0):  # counted, then not
        searcher = MctsAgent(3, artifact_work=work)  # 150 iterations, 30 decisions each
        at = position(searcher, placements=11, variant="expanded", seed=0)
        assert 0 <= searcher.decide(at.view, at.decision) < at.decision.size
        assert searcher.spent >= searcher.played
        played.append(searcher.played)
    # a decision of seat 0 counts four times, of seat 1 twice: far less is played (each
    # round of the halving plays every option left at least once, whatever the cap)
    assert played[0] < played[1] * 0.7


def test_a_rollout_to_the_round_end_stops_when_the_next_round_begins() -> None:
    searcher = MctsAgent(3, iterations=1)
    at = position(searcher)
    game, decision = at.game, at.decision
    round_now = game.state.round
    seen: list[int] = []

    class Watch(GreedyAgent):
        def decide(self, view: Any, asked: Any) -> int:
            seen.append(walker.game.state.round)
            return super().decide(view, asked)

    from exlibris.engine import forward

    walker = _Walker(Node(), __import__("random").Random(1), 200, Watch(1),
                     last_round=round_now)
    walker.node = None
    branch = forward.fork(game)

    def arrived(fork: Any, _: Any) -> None:
        walker.game = fork

    with pytest.raises(Horizon):
        branch.play([walker] * 2, arrived=arrived)
    assert seen and set(seen) == {round_now}
    assert branch.game.state.round == round_now + 1  # stopped at the next round's start
    assert decision.kind is DecisionKind.PLACE


def test_the_tree_below_the_root_holds_the_seats_own_placements_and_the_policy_plays_the_rest(
        ) -> None:
    """``below="tree"``: the tree's nodes are the searching seat's own placements of
    the round; every other decision, the opponent's placements among them, is the
    rollout policy's even while the walk is still in the tree."""
    from exlibris.engine import forward

    at = position(MctsAgent(3, iterations=1))
    place = frozenset({DecisionKind.PLACE})
    asked: list[tuple[int, Any, bool]] = []
    walker: Any = None

    class Recording(GreedyAgent):
        def decide(self, view: Any, decision: Any) -> int:
            asked.append((decision.seat, decision.kind, walker.node is not None))
            return super().decide(view, decision)

    tree = Node()
    deepest = 0
    for deal in range(40):
        asked.clear()
        walker = _Walker(Node(), __import__("random").Random(deal), 200, Recording(1),
                         last_round=at.game.state.round, owner=(0, place))
        walker.node = tree
        branch = forward.fork(at.game)

        def arrived(fork: Any, _: Any, walker: Any = walker) -> None:
            walker.game = fork

        with pytest.raises(Horizon):
            branch.play([walker] * 2, arrived=arrived)
        assert walker.path and all(chooser == 0 for _, chooser in walker.path)
        in_tree = [(seat, kind) for seat, kind, tree_on in asked if tree_on]
        assert all(seat == 1 or kind is not DecisionKind.PLACE for seat, kind in in_tree)
        deepest = max(deepest, len(walker.path))
        for node, _ in walker.path:
            node.visits += 1
            node.value += 0.5
    assert deepest >= 2  # the tree grew below its first level: a later placement of seat 0
    assert sum(child.visits for child in tree.children.values()) == 40


def test_the_remembering_policy_reads_a_cards_worth_once_a_search() -> None:
    policy = RolloutPolicy(1, 2)
    agent = policy.agents[0]
    calls = []
    real = GreedyAgent.card_value

    def counted(self: Any, view: Any, card: Any) -> float:
        calls.append(card)
        return real(self, view, card)

    at = position(MctsAgent(3, iterations=1))
    view = player_view(at.game, 0)
    card = next(c for c in view.hand)
    GreedyAgent.card_value = counted  # type: ignore[method-assign]
    try:
        first = agent.card_value(view, card)
        assert agent.card_value(view, card) == first and len(calls) == 1
        policy.start(5)  # a new search forgets
        agent.card_value(view, card)
        assert len(calls) == 2
    finally:
        GreedyAgent.card_value = real  # type: ignore[method-assign]


class _Enough(Exception):
    """Stops a game at ``StopAfter``'s decision."""


class StopAfter:
    """The greedy seat, stopping the game at the game's ``at``-th decision."""

    needs_view = True

    def __init__(self, seed: int, at: int) -> None:
        self.greedy = GreedyAgent(seed)
        self.at = at
        self.game: Any = None

    def sit_at(self, game: Any) -> None:
        self.game = game

    def decide(self, view: Any, decision: Any) -> int:
        if self.game.decisions >= self.at:
            raise _Enough
        return self.greedy.decide(view, decision)


def test_games_with_each_setting_are_the_same_twice() -> None:
    """The first 120 decisions of a game (four rounds and more) with each setting are
    the same twice over."""
    settings = resolve_settings("standard", CATALOG.variants)
    for spec in ("mcts:4/root=halving", "mcts:4/rounds=2", "mcts:4/round_end=0/rollout=greedy",
                 "mcts:30/below=tree", "mcts:6/hand=1", "mcts:6/deepen=1/held=0.5"):
        digests = []
        for _ in range(2):
            agents = [bot_specs.make_spec(spec, 9), StopAfter(2, 120)]
            game = new_game(CATALOG, settings, agents, seed=21, views=player_view,
                            variant="standard")
            with pytest.raises(_Enough):
                play(game)
            assert game.state.round >= 4
            digests.append(state_digest(game))
        assert digests[0] == digests[1], spec


def test_bench_specs_are_checked() -> None:
    assert bot_specs.spec_problem("mcts:100/searched=all") is None
    assert "searched= takes" in (bot_specs.spec_problem("mcts:100/searched=most") or "")
    assert bot_specs.make_spec("mcts:9/searched=all", 1).searched == mcts.SOLO_SEARCHED
    assert bot_specs.spec_problem("mcts:100/root=halving") is None
    assert "unknown setting" in str(bot_specs.spec_problem("mcts:100/depth=3"))
    assert "takes no settings" in str(bot_specs.spec_problem("greedy/root=halving"))
    agent = bot_specs.make_spec("mcts:30/rounds=2/root=halving", 1)
    assert (agent.iterations, agent.rounds, agent.root) == (30, 2, "halving")
    assert bot_specs.make_spec("mcts:30/held=0.5", 1).held == 0.5
    # a number's setting given text is refused, not passed on to fail in the bot
    assert "takes a number" in str(bot_specs.spec_problem("mcts/artifact_work=abc"))
    assert "takes a number" in str(bot_specs.spec_problem("mcts/rounds=two"))
    assert bot_specs.spec_problem("mcts/artifact_work=0.5/deepen=1/rounds=2") is None
    assert {"artifact_work", "held", "rounds", "deepen"} <= bot_specs.NUMBERS
    assert not {"root", "rollout", "below", "searched"} & bot_specs.NUMBERS


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["mcts", "mcts:30", "greedy", "/", "=", "root", "held",
                                 "artifact_work", "rounds", "searched", "all", "0.5", "2",
                                 "-1", "abc", ":", "x", ""]), max_size=8).map("".join))
def test_any_bench_spec_is_refused_with_a_reason_or_makes_a_bot(spec: str) -> None:
    """A benchmark's bot spec, whatever its text: a reason it is refused, or a bot made
    without an error."""
    problem = bot_specs.spec_problem(spec)
    if problem is None:
        assert bot_specs.make_spec(spec, 1) is not None
    else:
        assert isinstance(problem, str) and problem
