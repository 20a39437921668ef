"""Validated content never stops a game (issue 36): a bounded run of the content fuzz,
and one test for each rule of the checker and of the total language it rests on."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path
from typing import Any

import pytest
from content_fuzz import KINDS, Bundle, Maker, Plan, Totals, _game_catalog, _play, play_bundle, run
from content_gen import world_of
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exlibris.agents import RandomAgent
from exlibris.catalog import load_catalog, shipped_catalog
from exlibris.dsl.checker import Catalog as IdCatalog
from exlibris.dsl.checker import check_program, check_rule, check_score, program_names
from exlibris.dsl.compiler import compile_program
from exlibris.dsl.parser import parse_expression, parse_program, parse_rule
from exlibris.engine.flow import new_game
from exlibris.model.variants import resolve_settings
from exlibris.sources import use_content
from exlibris.validation import validate

STEPS = IdCatalog(max_steps=10_000)


@pytest.fixture(autouse=True)
def _shipped_only() -> None:
    use_content(())
    yield
    use_content(())


def codes(source: str, catalog: IdCatalog = STEPS, *, location: bool = True,
          this: str | None = None) -> list[str]:
    errors = check_program(parse_program(source), program_names(location=location, this=this),
                           catalog)
    return [e.code for e in errors]


def test_a_bounded_run_of_the_content_fuzz_finds_no_game_stopped(tmp_path: Path) -> None:
    """Generated files of every kind, validated, then played: none stops a game."""
    totals = run(90, seed=11, work=tmp_path, keep=tmp_path / "failures", mcts_every=0)
    assert totals.generated == 90
    assert totals.failures == []
    assert totals.validated >= 30 and totals.games >= totals.validated
    assert set(totals.validated_by_kind) == set(KINDS)


# ---- numbers written in effects --------------------------------------------------------------

@pytest.mark.parametrize("source", ["draw(-3)\n", "take(-1, from: hand)\n",
                                    "shelve(up to -2, from: hand)\n",
                                    "home_actions(1, max_each: -1)\n",
                                    "repeat -2 times:\n  draw(1)\n"])
def test_a_negative_count_written_as_a_number_is_refused(source: str) -> None:
    assert codes(source) == ["dsl/count-range"]


def test_counts_worked_out_at_run_time_are_left_to_the_run() -> None:
    assert codes("draw(count(hand) - 3)\nrepeat 0 times:\n  draw(1)\n") == []


@pytest.mark.parametrize(("source", "refused"), [
    ("repeat 10001 times:\n  draw(1)\n", True),
    ("repeat 10000 times:\n  draw(1)\n", False),
    ("repeat 200 times:\n  repeat 60 times:\n    draw(1)\n", True),
    ("repeat 100 times:\n  repeat 100 times:\n    draw(1)\n", False),
    ("repeat 200 times:\n  draw(1)\nrepeat 200 times:\n  draw(1)\n", False),
])
def test_a_repeat_past_the_step_budget_is_refused(source: str, refused: bool) -> None:
    assert codes(source) == (["dsl/step-budget"] if refused else [])


# ---- values typed as they are at run time -----------------------------------------------------

def test_a_setting_is_typed_by_its_ruling() -> None:
    catalog = IdCatalog(settings=frozenset({"removal_may_split", "deck_runs_out"}),
                        setting_kinds={"removal_may_split": "bool", "deck_runs_out": "str"})
    assert codes('require setting("removal_may_split").face_down\n', catalog) == \
        ["dsl/unknown-attribute"]
    assert codes('give(1, from: hand, to: setting("deck_runs_out"))\n', catalog) == \
        ["dsl/arg-kind"]
    assert codes('if setting("removal_may_split"): draw(1)\n', catalog) == []


def test_home_is_a_place_to_send_assistants_with_nothing_to_read() -> None:
    assert codes("x = home.occupants\n") == ["dsl/unknown-attribute"]
    assert codes("move_assistant(assistant, to: home)\n") == []


def test_this_is_what_carries_the_ability() -> None:
    assert codes("require this.at_home\n", location=False, this="card") == \
        ["dsl/unknown-attribute"]
    assert codes("require this.at_home\n", location=False, this="assistant") == []
    assert codes("require this.visits_this_round > 0\n", this="location") == []
    rule = check_rule(parse_rule("deny if this.bid > 0"), STEPS, this="card")
    assert [e.code for e in rule] == ["dsl/unknown-attribute"]


@pytest.mark.parametrize("source", ["require me < visitor\n", "require hand <= 3\n",
                                    'require count(hand) > "A"\n'])
def test_order_comparisons_take_two_numbers_or_two_texts(source: str) -> None:
    assert codes(source) == ["dsl/arg-kind"]


@pytest.mark.parametrize("source", ["x = shelf | 3\n", "x = hand + me\n",
                                    "x = opponents | hand\n"])
def test_collections_joined_hold_one_kind(source: str) -> None:
    assert codes(source) == ["dsl/arg-kind"]
    assert codes("x = shelf | hand\ny = opponents + [me]\nz = hand + first(deck)\n") == []


def test_a_list_holds_one_kind_of_value() -> None:
    assert codes('x = first([1, "a"])\n') == ["dsl/arg-kind"]
    assert codes("x = [me, visitor] + opponents\n") == []


def test_the_first_of_a_value_is_that_value_with_its_type() -> None:
    assert codes("require first(true).letter == \"A\"\n") == ["dsl/unknown-attribute"]


def test_a_score_reading_an_opponents_shelf_checks() -> None:
    assert check_score(parse_expression("count(first(opponents).shelf)"), STEPS) == []


# ---- the known case: an artifact scoring the first opponent's shelf ---------------------------

ARTIFACT = """kind: artifact
id: rival-mirror
name: The Rival's Mirror
timing: end-of-game
solo: true
text: A point for each card on the first opponent's shelf.
abilities:
  - timing: end-of-game
    text: A point for each card on the first opponent's shelf.
    score: "count(first(opponents).shelf)"
"""


@pytest.mark.parametrize("seed", range(5))
def test_an_artifact_scoring_the_first_opponents_shelf_plays_to_the_end(
        tmp_path: Path, seed: int) -> None:
    """Validates, then plays a seeded Artifactorium game of two or three players to the
    end, greedy seats weighing the artifact (with no opponents, its score is 0)."""
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "rival-mirror.yaml").write_text(ARTIFACT, "utf-8")
    assert validate([folder]).ok
    bundle = Bundle("artifact", "rival-mirror", {"rival-mirror.yaml": ARTIFACT})
    catalog = _game_catalog(folder, bundle)
    players = 2 + seed % 2
    seats = ("greedy",) * players
    plan = Plan("artifactorium", players, short=False)
    assert _play(catalog, plan, bundle, seats, seed, random.Random(seed)) is None


# ---- variants no game can play ------------------------------------------------------------------

VARIANT = """kind: variant
id: odd-rules
name: Odd rules
extends: {parent}
text: Odd.
settings: {settings}
"""


@pytest.mark.parametrize(("parent", "settings", "code"), [
    ("standard", "{final_round: {rounds: 999999999999}}", "rules/invalid-settings"),
    ("standard", "{final_round: {rounds: 61}}", "rules/invalid-settings"),
    ("standard", "{max_steps: 100}", "rules/invalid-settings"),
    ("solo", "{players: [3]}", "rules/unplayable"),
    ("standard", "{players: [1, 2]}", "rules/unplayable"),
    ("standard", "{setup: {prominent_categories: 2}}", "rules/unplayable"),
    ("standard", "{setup: {libraries_dealt: 4}}", "rules/unplayable"),
    ("solo", "{solo: {libraries: []}}", "rules/unplayable"),
])
def test_settings_no_game_can_play_are_refused(tmp_path: Path, parent: str, settings: str,
                                                code: str) -> None:
    (tmp_path / "odd-rules.yaml").write_text(VARIANT.format(parent=parent, settings=settings),
                                             "utf-8")
    report = validate([tmp_path])
    assert [p.code for p in report.problems] == [code], report.problems
    assert report.problems[0].line > 1


@pytest.mark.parametrize("settings", ["{final_round: {rounds: 60}}",
                                      "{setup: {prominent_categories: 2}, players: [2, 3]}",
                                      "{setup: {libraries_dealt: 3}}", "{max_steps: 20000}"])
def test_settings_at_the_bounds_validate(tmp_path: Path, settings: str) -> None:
    (tmp_path / "odd-rules.yaml").write_text(VARIANT.format(parent="standard",
                                                            settings=settings), "utf-8")
    assert validate([tmp_path]).ok


def test_an_auction_has_a_bid_for_each_space(tmp_path: Path) -> None:
    shipped = Path(__file__).resolve().parent.parent / "content" / "locations"
    text = (shipped / "auction-house.yaml").read_text("utf-8")
    text = text.replace("id: auction-house", "id: small-auction").replace(
        "number: ", "number: 9").replace("bids: [1, 2, 3, 4]", "bids: [1, 2]")
    (tmp_path / "small-auction.yaml").write_text(text, "utf-8")
    problems = validate([tmp_path]).problems
    assert [p.code for p in problems] == ["content/auction-bids"]
    assert "4 spaces, 2 bids" in problems[0].message and problems[0].line > 1


# ---- the total language at run time ----------------------------------------------------------

def run_location(source: str, players: int = 2) -> Any:
    """``source`` (it must check) as the effect of a tile in play, run for seat 0."""
    from test_untrusted import CATALOG, IDS, SETTINGS

    program = parse_program(source)
    assert check_program(program, program_names(location=True), IDS) == []
    game = new_game(CATALOG, SETTINGS, [RandomAgent(i) for i in range(players)], seed=3)
    loc = game.state.in_play[0]
    handler = compile_program(program, "odd-tile")
    env = handler(game.rt, game.player(0), game.names(0, this=loc, location=loc, visitor=0))
    return game, env


def test_a_word_given_nothing_for_one_thing_does_nothing() -> None:
    game, env = run_location(
        "gone = give(1, from: hand, to: first(opponents where false))\n"
        "spaces = empty_spaces(first([here] where false))\nn = count(gone) + count(spaces)\n")
    assert env.vars["n"] == 0 and len(game.player(0).hand.cards) == 6


def test_naming_a_category_with_every_one_excepted_names_nothing() -> None:
    _, env = run_location("named = name_category(except: categories(deck))\nn = 1\n")
    assert env.vars["named"] is None and env.vars["n"] == 1


def test_a_card_without_a_letter_comes_before_every_lettered_card() -> None:
    from exlibris.dsl.generic import comes_before
    from exlibris.model.cards import ArtifactCard

    game, _ = run_location("n = 1\n")
    artifact, book = ArtifactCard("foul-vowel-towel"), game.state.deck.cards[0]
    assert comes_before(game.rt, None, artifact, book)
    assert not comes_before(game.rt, None, book, artifact)


def test_an_assistant_that_returns_itself_ends_the_placement_phase(tmp_path: Path) -> None:
    """Its owner places it again and again: after the turn limit the phase ends and
    the game plays to its end."""
    (tmp_path / "boomerang.yaml").write_text(BOOMERANG, "utf-8")
    assert validate([tmp_path]).ok
    bundle = Bundle("assistant", "boomerang", {"boomerang.yaml": BOOMERANG})
    catalog = _game_catalog(tmp_path, bundle)
    plan = Plan("standard", 2, assistants=("boomerang", None))
    assert _play(catalog, plan, bundle, ("random", "random"), 4, random.Random(1)) is None


BOOMERANG = """kind: assistant
id: boomerang
name: The Boomerang
edition: expanded
solo: false
text: Comes straight back.
abilities:
  - timing: on-placement
    when: placed
    text: Comes straight back.
    effect: |
      return_assistant(this)
"""


def test_a_game_the_rules_do_not_end_ends_after_round_sixty(tmp_path: Path) -> None:
    """A shelf threshold out of reach with a deck that reshuffles: the stuck-game
    guard ends the game after round 60, where it stopped before."""
    from exlibris.engine.flow import EndReason, play
    from exlibris.limits import MAX_GAME_ROUNDS

    text = VARIANT.format(parent="standard", settings=(
        "{final_round: {shelf_cards: {2: 500}}, rulings: {deck_runs_out: reshuffle}}"))
    (tmp_path / "odd-rules.yaml").write_text(text, "utf-8")
    assert validate([tmp_path]).ok
    use_content([tmp_path])
    catalog = load_catalog()
    settings = resolve_settings("odd-rules", catalog.variants)
    game = new_game(catalog, settings, [RandomAgent(1), RandomAgent(2)], seed=5)
    outcome = play(game)
    assert outcome.rounds == MAX_GAME_ROUNDS and outcome.reason == EndReason.STALLED


def test_draw_of_minus_three_is_refused_at_its_line_and_column(tmp_path: Path) -> None:
    shipped = Path(__file__).resolve().parent.parent / "content" / "locations"
    text = (shipped / "book-seller.yaml").read_text("utf-8")
    text = text.replace("id: book-seller", "id: odd-seller").replace("number: 10", "number: 88")
    text = text.split("effect: |")[0] + "effect: |\n  draw(1)\n  draw(-3)\n"
    (tmp_path / "odd-seller.yaml").write_text(text, "utf-8")
    (problem,) = validate([tmp_path]).problems
    line = text.splitlines().index("  draw(-3)") + 1
    assert (problem.code, problem.line, problem.col) == ("dsl/count-range", line, 8)


# ---- the generator as a hypothesis strategy -------------------------------------------------

_MAKER: list[Maker] = []


def bundles() -> st.SearchStrategy[Bundle]:
    """Generated bundles of every kind, drawn by hypothesis (kind and seed)."""
    if not _MAKER:
        _MAKER.append(Maker(world_of(shipped_catalog())))
    return st.builds(lambda i, seed: _MAKER[0].bundle(i, seed),
                     st.integers(0, len(KINDS) - 1), st.integers(0, 2**32))


@settings(max_examples=12, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_a_generated_file_that_validates_plays(data: st.DataObject) -> None:
    bundle = data.draw(bundles())
    with tempfile.TemporaryDirectory() as work:
        totals = Totals()
        play_bundle(bundle, Path(work) / bundle.main, shipped_catalog(), 1, totals)
    assert totals.failures == []
