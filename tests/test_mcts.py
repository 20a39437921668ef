"""The search bot (``agents/mcts.py``): it plays every mode, a seed and a budget give
the same game, and its seat names are checked.

Budgets here are tiny (a handful of iterations a decision) so the suite stays
fast; what a budget buys is measured by ``bench/bot_ladder.py``, not here.
"""

from __future__ import annotations

import contextlib
import math

import pytest
from click.testing import CliRunner

from exlibris.agents import GreedyAgent, MctsAgent, bot_kind, make_bot, mcts
from exlibris.agents.mcts import seat_values
from exlibris.agents.view import player_view
from exlibris.catalog import load_catalog
from exlibris.cli.main import cli
from exlibris.engine.decisions import DecisionKind
from exlibris.engine.digest import state_digest
from exlibris.engine.flow import new_game, play
from exlibris.scoring.inspection import table_key
from exlibris.simulate import rows
from exlibris.validation import resolve_settings

CATALOG = load_catalog()


class Counting:
    """Wraps a bot and keeps its answers."""

    def __init__(self, inner: object) -> None:
        self.inner = inner
        self.needs_view = getattr(inner, "needs_view", False)
        self.answers: list[int] = []

    def sit_at(self, game: object) -> None:
        sit_at = getattr(self.inner, "sit_at", None)
        if sit_at is not None:
            sit_at(game)

    def decide(self, view: object, decision: object) -> int:
        index = self.inner.decide(view, decision)  # type: ignore[attr-defined]
        self.answers.append(index)
        return index


def mcts_game(variant: str, players: int, seed: int, iterations: int = 3,  # type: ignore[no-untyped-def]
              root: str = "halving"):
    settings = resolve_settings(variant, CATALOG.variants)
    searcher = Counting(MctsAgent(seed, iterations=iterations, horizon=4, rollout="random",
                                  root=root))
    agents = [searcher, *[GreedyAgent(seed + i) for i in range(1, players)]]
    game = new_game(CATALOG, settings, agents, seed=seed, views=player_view, variant=variant)
    outcome = play(game)
    return game, outcome, searcher.answers


@pytest.mark.parametrize(("variant", "players"), [
    ("standard", 2), ("standard", 3), ("five-player", 5), ("solo", 1), ("solo-expanded", 1),
    ("job-faire", 3), ("artifactorium", 2), ("expanded", 4)])
def test_the_search_bot_plays_every_mode_and_a_seed_gives_the_same_game(
        monkeypatch: pytest.MonkeyPatch, variant: str, players: int) -> None:
    monkeypatch.setattr(mcts, "MIN_ITERATIONS", 3)  # the budget given, not the floor's 24
    game, outcome, answers = mcts_game(variant, players, 5)
    again, outcome2, answers2 = mcts_game(variant, players, 5)
    assert answers == answers2 and len(answers) > 10
    assert state_digest(game) == state_digest(again)
    assert outcome.inspection.winners == outcome2.inspection.winners


def test_the_search_bot_plays_an_authors_own_content_and_variant() -> None:
    """The example author's folder (new locations, an assistant, an artifact and a
    house rule that starts at the Reading Nook and pays 3 a focus book)."""
    from pathlib import Path

    folder = Path(__file__).resolve().parents[1] / "examples" / "authoring"
    catalog = load_catalog([folder])
    settings = resolve_settings("my-variant", catalog.variants)
    searcher = Counting(MctsAgent(4, iterations=3, horizon=4, rollout="random"))
    game = new_game(catalog, settings, [searcher, GreedyAgent(5)], seed=4,
                    views=player_view, variant="my-variant")
    outcome = play(game)
    assert outcome.inspection is not None and searcher.answers
    assert "reading-nook" in game.location_specs
    assert game.scoring is not None and game.scoring.focus_per_book == 3


@pytest.mark.slow
def test_solo_at_every_level_is_played_by_the_search_bot(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mcts, "MIN_ITERATIONS", 2)  # the budget given, not the floor's 24
    for level in range(1, 8):
        settings = resolve_settings("solo", CATALOG.variants)
        settings = settings.model_copy(update={"solo": settings.solo.model_copy(  # type: ignore[union-attr]
            update={"difficulty": level})})
        game = new_game(CATALOG, settings, [MctsAgent(level, iterations=2, horizon=2,
                                                      rollout="random")],
                        seed=level, views=player_view, variant="solo")
        outcome = play(game)
        assert outcome.inspection.public_library is not None


def same_rows(table: list[dict]) -> list[dict]:
    """Rows without the columns that hang on the machine (seconds of thought)."""
    return [{k: v for k, v in r.items() if k not in rows.TIMING} for r in table]


@pytest.mark.slow
def test_the_simulate_command_with_search_seats_gives_the_same_games_on_one_and_two_workers(
        tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Search seats at a real budget with their default rollouts, two and three
    players, through the command: the rows (each game's every seat: its score form,
    rank, decisions, final shelf and the cards dealt) are the same with 1 and 2
    workers."""
    found = []
    for workers in ("1", "2"):
        out = tmp_path / f"rows-{workers}.jsonl"
        result = CliRunner().invoke(cli, [
            "simulate", "--games", "1", "--players", "2,3", "--seats", "mcts:20,greedy",
            "--seed", "7", "--workers", workers, "--out", str(out), "--json"])
        assert result.exit_code == 0, result.output
        found.append(rows.read(out))
    one, two = found
    assert len(one) == 2 + 3 and {r["agent"] for r in one} == {"mcts:20", "greedy"}
    assert same_rows(one) == same_rows(two)


def test_a_seed_seats_and_budgets_give_the_same_game_twice(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The seats as the CLI makes them (``mcts:6`` with greedy rollouts, the floor of
    iterations lowered to its budget), twice: the same answers and the same state,
    digest for digest."""
    from exlibris.interactive.session import bot_seed

    monkeypatch.setattr(mcts, "MIN_ITERATIONS", 6)
    settings = resolve_settings("standard", CATALOG.variants)
    seats = ["greedy", "mcts:6", "random"]
    played = []
    for _ in range(2):
        agents = [Counting(make_bot(kind, bot_seed(9, s))) for s, kind in enumerate(seats)]
        game = new_game(CATALOG, settings, agents, seed=9, views=player_view)
        outcome = play(game)
        played.append((state_digest(game), [a.answers for a in agents],
                       [f.total for f in outcome.inspection.forms]))
    assert played[0] == played[1]
    assert all(len(answers) > 10 for answers in played[0][1])


def test_seat_names_of_bots() -> None:
    assert bot_kind("mcts") is None and bot_kind("mcts:25") is None
    assert "unknown agent" in str(bot_kind("alphazero"))
    for wrong in ("mcts:0", "mcts:x", "mcts:\u00b2", "mcts:-3", "mcts:", "mcts:10000000"):
        assert "whole number" in str(bot_kind(wrong))  # never int()'s ValueError
    assert "takes no budget" in str(bot_kind("greedy:5"))
    assert make_bot("mcts:7", 1).iterations == 7
    result = CliRunner().invoke(cli, ["play", "--seats", "mcts:zero,greedy", "--seed", "1"])
    assert result.exit_code == 2 and "mcts:N" in result.output


def test_the_play_command_takes_an_mcts_seat() -> None:
    result = CliRunner().invoke(cli, ["play", "--seats", "mcts:1,random", "--seed", "4",
                                      "--json"])
    assert result.exit_code == 0, result.output


def test_values_are_margins_squashed_into_0_1() -> None:
    _, outcome, _ = mcts_game("standard", 2, 8, iterations=1)
    values = seat_values(outcome.inspection)
    totals = [f.total for f in outcome.inspection.forms]
    assert all(0 < v < 1 for v in values)
    assert (values[0] > values[1]) == (totals[0] > totals[1])
    assert abs(values[0] + values[1] - 1) < 1e-9  # two players: one's margin is the other's
    # a credit is added to each total before the margins are taken
    gap = totals[0] - totals[1]
    assert mcts.margins(outcome.inspection, [0.0, float(gap)]) == [0.0, 0.0]
    assert mcts.margins(outcome.inspection, [5.0, 0.0])[0] == gap + 5


@pytest.mark.slow
def test_a_saved_game_with_the_search_bot_resumes_into_the_same_game() -> None:
    from exlibris.engine.table_out import table_text
    from exlibris.interactive.record import SaveRecord
    from exlibris.interactive.session import Session

    def play_through(record: SaveRecord) -> Session:
        session = Session(record, CATALOG)
        session.run()
        return session

    seats = ["mcts:3", "greedy"]
    straight = play_through(SaveRecord(seed=6, seats=seats, names=["A", "B"]).stamp())
    decisions = straight.record.decisions
    table = table_text(straight.game)
    flips = [i + 1 for i, e in enumerate(decisions) if e.kind == "flips"]
    for k in (len(decisions) // 3, 2 * len(decisions) // 3, *flips):
        partial = SaveRecord(**{**vars(straight.record), "decisions": decisions[:k],
                                "finished": False})
        resumed = play_through(partial)
        assert table_text(resumed.game) == table, f"resumed after decision {k}"
        assert resumed.record.decisions == decisions


@pytest.mark.parametrize("seat", ["mcts:\u00b2", "mcts:0", "mcts:", "mcts:99999999999999999999",
                                  "greedy:3", "mcts:-1", "mcts:1e3", "mcts:3/nope",
                                  "greedy/classic", "mcts:3/", "/classic"])
def test_a_save_naming_a_bad_search_budget_is_refused_cleanly(tmp_path, seat: str) -> None:  # type: ignore[no-untyped-def]
    import json

    from exlibris.interactive.record import SaveRecord

    path = tmp_path / "save.json"
    data = SaveRecord(seed=1, seats=["mcts:3", "greedy"], names=["A", "B"]).stamp().to_json()
    data["seats"] = [seat, "greedy"]
    path.write_text(json.dumps(data), "utf-8")
    result = CliRunner().invoke(cli, ["replay", "--all", str(path)])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "seats" in result.output


def test_a_solo_decision_of_few_options_gets_at_least_half_the_budget() -> None:
    bot = MctsAgent(0, iterations=150)
    assert bot.iterations_for(2) == 24 and bot.iterations_for(9) == 150  # as before
    assert bot.iterations_for(2, solo=True) == 75
    assert bot.iterations_for(5, solo=True) == 75 and bot.iterations_for(9, solo=True) == 150
    assert MctsAgent(0, iterations=10).iterations_for(2, solo=True) == 24  # the floor holds


def test_solo_searches_explore_by_their_own_constant(monkeypatch: pytest.MonkeyPatch) -> None:
    """``SOLO_EXPLORATION`` steers UCB's solo searches only (docs/bots.md: 0.4 won more
    solo games than the multiplayer 0.2); the halving root has no constant."""
    def answers(variant: str, players: int, root: str) -> list[int]:
        return mcts_game(variant, players, 5, root=root)[2]  # type: ignore[no-any-return]

    # 8 iterations a decision, not the floor's 24: the constant still steers its answers
    monkeypatch.setattr(mcts, "MIN_ITERATIONS", 8)
    solo, duo, halved = answers("solo", 1, "ucb"), answers("standard", 2, "ucb"), \
        answers("solo", 1, "halving")
    monkeypatch.setattr(mcts, "SOLO_EXPLORATION", 50.0)
    assert answers("solo", 1, "ucb") != solo
    assert answers("standard", 2, "ucb") == duo
    assert answers("solo", 1, "halving") == halved


def test_solo_searches_halve_on_common_deals_and_value_the_margins_change(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """In solo the halving root plays each option out as at two or more players, and
    values a play-out by the margin's change from the determinization it starts from
    (the player is mostly behind the public library mid-game, where the squashed
    margin itself is flat); at two players the margin itself."""
    halvings: list[int] = []
    baselines: dict[str, list[object]] = {"solo": [], "standard": []}
    variant = ["solo"]
    halve, values = MctsAgent._halve, mcts.squashed

    def counted(self: MctsAgent, *args: object) -> int:
        halvings.append(1)
        return halve(self, *args)  # type: ignore[arg-type]

    def seen(margins: list[float], baseline: object = None) -> list[float]:
        baselines[variant[0]].append(baseline)
        return values(margins, baseline)  # type: ignore[arg-type]

    monkeypatch.setattr(MctsAgent, "_halve", counted)
    monkeypatch.setattr(mcts, "squashed", seen)
    mcts_game("solo", 1, 5)
    assert halvings and baselines["solo"]
    assert all(isinstance(b, list) and len(b) == 1 for b in baselines["solo"])
    variant[0] = "standard"
    mcts_game("standard", 2, 5)
    assert baselines["standard"] and all(b is None for b in baselines["standard"])


def reach(monkeypatch: pytest.MonkeyPatch, bot: MctsAgent, variant: str = "solo",
          players: int = 1) -> set[tuple[int, int]]:
    """(round of a placement searched, round its play-out's rollout reached) of a
    game of ``bot`` (seat 0; greedy bots in the other seats), counting only the
    rollout decisions actually played."""
    reached: set[tuple[int, int]] = set()
    placing: list[int | None] = [None]
    decide, roll = MctsAgent.decide, mcts._Walker._roll

    def deciding(self: MctsAgent, view: object, decision: object) -> int:
        kind = decision.kind  # type: ignore[attr-defined]
        placing[0] = self.game.state.round if kind is DecisionKind.PLACE else None  # type: ignore[union-attr]
        return decide(self, view, decision)  # type: ignore[arg-type]

    def rolled(self: object, decision: object) -> int:
        index = roll(self, decision)  # type: ignore[arg-type]
        if placing[0] is not None:
            reached.add((placing[0], self.game.state.round))  # type: ignore[attr-defined]
        return index

    monkeypatch.setattr(MctsAgent, "decide", deciding)
    monkeypatch.setattr(mcts._Walker, "_roll", rolled)
    settings = resolve_settings(variant, CATALOG.variants)
    agents = [bot, *[GreedyAgent(3 + i) for i in range(1, players)]]
    game = new_game(CATALOG, settings, agents, seed=3, views=player_view, variant=variant)
    play(game)
    return reached


def test_solo_play_outs_run_to_the_end_of_the_next_round(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A solo placement's play-outs go on through the next round (``SOLO_ROUNDS``: a
    card taken now is mostly shelved then), and never past it; the first search
    (``classic``, levels 2 and 3) stops at the end of the round, as measured."""
    deep = reach(monkeypatch, MctsAgent(3, iterations=4, rollout="random"))
    assert any(seen == placed + 1 for placed, seen in deep)
    assert all(placed <= seen <= placed + 1 for placed, seen in deep)
    monkeypatch.undo()
    classic = reach(monkeypatch, make_bot("mcts:4/classic", 3))
    assert classic and all(seen == placed for placed, seen in classic)


def test_solo_rollouts_weigh_a_sample_of_a_large_rework_or_shift(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """In solo, the search's rollout policy weighs ``sample`` options of a rework or a
    shift that offers more (the weighing of them all was most of level 4's slowest
    decisions); plain greedy rollouts (the first search's, ``classic``) and the
    setting ``sample=0`` weigh them all. Asked at the large reworks and shifts of
    greedy solo games."""
    from exlibris.agents import greedy

    limit = 12  # ``SOLO_SAMPLE`` (128) is more than most reworks offer
    bots = {"sampled": MctsAgent(3, iterations=4, sample=limit),
            "every": MctsAgent(3, iterations=4, sample=0),
            # plain greedy rollouts, as ``classic``'s (``SEARCHES``), whatever the sample
            "classic": MctsAgent(3, iterations=4, rollout="greedy", sample=limit)}
    settings = resolve_settings("solo", CATALOG.variants)
    for bot in bots.values():  # each takes its solo rollout policy
        bot.sit_at(new_game(CATALOG, settings, [bot], seed=1, views=player_view,
                            variant="solo"))
    weighed: list[int] = []

    def counting(name: str, kind: DecisionKind) -> None:
        weigh = getattr(GreedyAgent, name)

        def counted(self: GreedyAgent, view: object, decision: object) -> int:
            weighed.append(len(decision.values))  # type: ignore[attr-defined]
            return weigh(self, view, decision)  # type: ignore[no-any-return]
        monkeypatch.setattr(GreedyAgent, name, counted)
        monkeypatch.setitem(greedy._HANDLERS, kind, counted)  # plain greedy's

    counting("_rearrange", DecisionKind.REARRANGE)
    counting("_shift", DecisionKind.SHIFT)
    asked: dict[DecisionKind, list[tuple[str, int, int]]] = {}

    class Probe(GreedyAgent):
        """Greedy play; at a large rework or shift, each bot's policy is asked it."""

        def decide(self, view: object, decision: object) -> int:
            kind, size = decision.kind, len(decision)  # type: ignore[attr-defined,arg-type]
            if kind in (DecisionKind.REARRANGE, DecisionKind.SHIFT) and size > limit:
                for name, bot in bots.items():
                    weighed.clear()
                    bot.policy.decide(view, decision)
                    asked.setdefault(kind, []).append((name, size, *weighed))
            weighed.clear()
            return super().decide(view, decision)  # type: ignore[arg-type]

    for seed in range(40):
        game = new_game(CATALOG, settings, [Probe(seed)], seed=seed, views=player_view,
                        variant="solo")
        play(game)
        if len(asked) == 2:
            break
    assert set(asked) == {DecisionKind.REARRANGE, DecisionKind.SHIFT}
    for found in asked.values():
        for name, size, count in found:
            assert count == (limit if name == "sampled" else size), (name, size, count)


def test_a_deepening_search_sees_a_round_more_each_fourfold_budget_to_the_deepest(
        monkeypatch: pytest.MonkeyPatch) -> None:
    budgets = (1, 25, 99, 100, 399, 400, 1599, 1600, 6400)
    assert [mcts.deepened_rounds(n) for n in budgets] == [1, 1, 1, 2, 2, 2, 2, 2, 2]
    monkeypatch.setattr(mcts, "DEEPEST", 4)
    assert [mcts.deepened_rounds(n) for n in budgets] == [1, 1, 1, 2, 2, 3, 3, 4, 4]


def test_a_deepening_search_s_play_outs_reach_the_rounds_its_budget_buys(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``deepen``, a two-player placement's play-outs go on through as many
    rounds as ``deepened_rounds`` gives its budget, and never further; without it,
    to the end of the round. (The base is made 1 and the deepest 3, so that 4
    iterations see two rounds and 16 three.)"""

    def seen(iterations: int, deepen: bool) -> set[tuple[int, int]]:
        monkeypatch.setattr(mcts, "DEEPEN_BASE", 1)
        monkeypatch.setattr(mcts, "DEEPEST", 3)
        found = reach(monkeypatch, MctsAgent(3, iterations=iterations, rollout="random",
                                             deepen=deepen), "standard", 2)
        monkeypatch.undo()
        return found

    for iterations, rounds in ((4, 2), (16, 3)):
        deep = seen(iterations, True)
        assert any(last == placed + rounds - 1 for placed, last in deep)
        assert all(placed <= last <= placed + rounds - 1 for placed, last in deep)
    plain = seen(4, False)
    assert plain and all(last == placed for placed, last in plain)


def test_a_solo_decision_of_more_options_than_its_budget_plays_is_searched_over_a_sample(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Where a solo decision offers more options than the halving plays once each in
    its rounds (a rework of hundreds), the search compares the greedy bot's choice and
    a sample of the others, as many as fit (``fits``), so its play-outs stay within
    the budget; at two players every placement's options are compared however many."""
    seen: list[tuple[int, int, list[int], int]] = []
    greedy_answers: list[int] = []
    shortlist, greedy_decide = MctsAgent._shortlist, GreedyAgent.decide

    def answered(self: GreedyAgent, view: object, decision: object) -> int:
        greedy_answers.append(greedy_decide(self, view, decision))  # type: ignore[arg-type]
        return greedy_answers[-1]

    def listed(self: MctsAgent, view: object, decision: object, budget: int, seed: int,
               game: object) -> list[int]:
        options = shortlist(self, view, decision, budget, seed, game)  # type: ignore[arg-type]
        last = greedy_answers[-1] if greedy_answers else -1
        seen.append((decision.size, budget, options, last))  # type: ignore[attr-defined]
        return options

    monkeypatch.setattr(GreedyAgent, "decide", answered)
    monkeypatch.setattr(MctsAgent, "_shortlist", listed)
    mcts_game("solo", 1, 5)
    cut = [s for s in seen if s[0] > mcts.fits(s[1])]
    assert cut and any(s[0] <= mcts.fits(s[1]) for s in seen)
    for size, budget, options, greedy in seen:
        if size <= mcts.fits(budget):
            assert options == list(range(size))
        else:
            assert len(options) == mcts.fits(budget) == len(set(options))
            assert greedy in options and all(0 <= o < size for o in options)
    seen.clear()
    mcts_game("standard", 2, 5)
    assert any(size > mcts.fits(budget) for size, budget, _, _ in seen)
    assert all(options == list(range(size)) for size, _, options, _ in seen)


def test_fits_is_the_most_options_halving_plays_once_a_round() -> None:
    for budget in (1, 24, 75, 150, 300, 600):
        n = mcts.fits(budget)
        assert n == 2 or n * math.ceil(math.log2(n)) <= budget
        assert (n + 1) * math.ceil(math.log2(n + 1)) > budget


def test_a_search_sets_the_heap_before_it_aside_and_puts_it_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """While the bot searches, what was made before the search is out of the garbage
    collector's walks (``gc.freeze``); after it, even one stopped by Ctrl-C, the
    collector is as it was."""
    import gc

    # the objects set aside, counted at the first play-out only (``get_freeze_count``
    # walks them all: in a worker that has run many tests, millions)
    frozen: list[int] = []
    plays: list[int] = []  # a table inspected at a play-out's end, one each
    value = mcts.position_value

    def counted(game, *table):  # type: ignore[no-untyped-def]
        if not frozen:
            frozen.append(gc.get_freeze_count())
        plays.append(1)
        return value(game, *table)

    monkeypatch.setattr(mcts, "position_value", counted)
    settings = resolve_settings("standard", CATALOG.variants)
    bot = MctsAgent(2, iterations=4)

    class Probe(GreedyAgent):
        """Greedy play; the search bot is asked each placement (and then Ctrl-C)."""

        interrupt = False

        def decide(self, view: object, decision: object) -> int:
            if decision.kind is DecisionKind.PLACE:  # type: ignore[attr-defined]
                before = len(plays)
                bot.decide(view, decision)
                assert len(plays) > before and gc.get_freeze_count() == 0
                if self.interrupt:
                    def stop(game, *table):  # type: ignore[no-untyped-def]
                        raise KeyboardInterrupt
                    monkeypatch.setattr(mcts, "position_value", stop)
                    with pytest.raises(KeyboardInterrupt):
                        bot.decide(view, decision)
                    assert gc.get_freeze_count() == 0
                    monkeypatch.setattr(mcts, "position_value", counted)
            return super().decide(view, decision)  # type: ignore[arg-type]

    probe = Probe(1)
    game = new_game(CATALOG, settings, [probe, GreedyAgent(3)], seed=6, views=player_view)
    bot.sit_at(game)
    probe.interrupt = True
    play(game)
    assert frozen[0] > 1000  # the catalog and the game, at least


ENDS_CHECKED = 400  # a whole game gives 525 (the Artifactorium) to 4,018 (solo)


class Enough(Exception):
    """Raised by a probe to end a game once it has checked enough."""


@pytest.mark.parametrize(("variant", "players"), [
    ("standard", 2), ("artifactorium", 3), ("solo", 1), ("harvest-rules", 2)])
def test_the_totals_kept_by_a_search_are_the_tables_own(
        monkeypatch: pytest.MonkeyPatch, variant: str, players: int) -> None:
    """Every play-out's end valued by the totals a search kept (``position_totals``) is
    valued as an inspection made afresh would value it (the first ``ENDS_CHECKED`` of
    a game), and some of them are found again (a play-out ending at a table an earlier
    one reached); with artifacts, in solo, and with a house rule's scoring line (the
    example author's variant)."""
    from pathlib import Path

    from exlibris.engine.flow import table_of

    catalog = CATALOG
    if variant == "harvest-rules":
        catalog = load_catalog([Path(__file__).resolve().parents[1] / "examples" / "authoring"])

    kept_totals = mcts.position_totals
    found_again: list[bool] = []

    def checked(game, kept):  # type: ignore[no-untyped-def]
        if len(found_again) == ENDS_CHECKED:
            raise Enough
        found_again.append(table_key(table_of(game)) in kept)
        totals = kept_totals(game, kept)
        assert totals == mcts.totals_of(mcts.position_value(game))
        return totals

    monkeypatch.setattr(mcts, "position_totals", checked)
    settings = resolve_settings(variant, catalog.variants)
    bot = MctsAgent(4, iterations=24)
    agents = [bot, *[GreedyAgent(i) for i in range(1, players)]]
    game = new_game(catalog, settings, agents, seed=8, views=player_view, variant=variant)
    with contextlib.suppress(Enough):
        play(game)
    assert any(found_again) and not all(found_again)
    assert variant != "harvest-rules" or game.scoring.has_house_line  # type: ignore[union-attr]


def test_a_table_key_tells_apart_what_the_inspection_reads() -> None:
    """Tables that differ in any one thing the form reads have different keys; a table
    whose shelves are other objects holding the same cells has the same key."""
    from dataclasses import replace

    from exlibris.engine.flow import table_of

    settings = resolve_settings("standard", CATALOG.variants)
    game = new_game(CATALOG, settings, [GreedyAgent(1), GreedyAgent(2)], seed=3,
                    views=player_view)
    play(game)
    table = table_of(game)
    one, other = table.players
    assert one.shelf.card_count() > 1
    same = replace(table, players=(replace(one, shelf=one.shelf.copy()), other))
    assert table_key(same) == table_key(table)
    smaller = one.shelf.copy()
    smaller.flip(one.shelf.positions()[0])
    changed = [
        replace(table, players=(replace(one, shelf=smaller), other)),
        replace(table, players=(replace(one, focus=other.focus if other.focus != one.focus
                                        else "C" if one.focus != "C" else "F"), other)),
        replace(table, players=(replace(one, hand=one.hand + 1), other)),
        replace(table, players=(replace(one, name="someone else"), other)),
        replace(table, players=(replace(one, assistants=("the-mummy",)), other)),
        replace(table, players=(other, one)),
        replace(table, prominent="C" if table.prominent != "C" else "F"),
        replace(table, banned=None),
        replace(table, variant="friendlier"),
        replace(table, difficulty=3),
        replace(table, also_prominent="M"),
    ]
    keys = {table_key(t) for t in changed}
    assert len(keys) == len(changed) and table_key(table) not in keys


class _StopAt:
    """A greedy seat that stops the game at its ``at``-th decision."""

    needs_view = True

    def __init__(self, seed: int, at: int) -> None:
        self.inner = GreedyAgent(seed)
        self.left = at

    def decide(self, view: object, decision: object) -> int:
        self.left -= 1
        if self.left < 0:
            raise Enough
        return self.inner.decide(view, decision)  # type: ignore[arg-type]


def test_a_credit_for_the_hand_is_each_card_s_best_gain_on_its_seat_s_shelf() -> None:
    """``held``: where a play-out stops before the inspection, each card in a seat's
    hand adds that share of its best gain on the seat's shelf (the greedy bot's reading,
    never less than nothing); ``hand`` adds its points a card; neither set, no credit."""
    from exlibris.model.cards import ArtifactCard, BookCard

    settings = resolve_settings("standard", CATALOG.variants)
    game = new_game(CATALOG, settings, [_StopAt(1, 30), _StopAt(2, 30)], seed=5,
                    views=player_view)
    with contextlib.suppress(Enough):
        play(game)
    bot = MctsAgent(3, held=0.5, hand=1.0)
    bot.sit_at(game)
    expected = []
    for player in game.state.players:
        reading = GreedyAgent(9).reading(player_view(game, player.seat))
        gains = [max(0.0, reading.best_gain(card)) for card in player.hand.cards
                 if isinstance(card, (BookCard, ArtifactCard))]
        expected.append(len(player.hand.cards) + 0.5 * sum(gains))
    assert bot._credit(game) == pytest.approx(expected)
    assert any(c > len(p.hand.cards) for c, p in zip(expected, game.state.players,
                                                      strict=True))
    assert MctsAgent(3)._credit(game) is None
