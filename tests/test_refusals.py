""""Why not?" (``engine/refusals.py``): a placement target is refused exactly when the
engine does not offer it, and every placement rule and every shelf rule says its rule,
its clause id and what in the position triggers it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from exlibris.agents import RandomAgent
from exlibris.catalog import load_catalog
from exlibris.engine.decisions import Decision, DecisionKind
from exlibris.engine.flow import new_game, play
from exlibris.engine.refusals import Refusal, home_refusal, placement_refusal, shelf_refusal
from exlibris.model.cards import ArtifactCard, BookCard
from exlibris.model.shelf import Shelf, Slot
from exlibris.model.variants import resolve_settings

ROOT = Path(__file__).resolve().parent.parent
CATALOG = load_catalog()


def _clauses() -> set[str]:
    import re

    path = Path("/work/shared/spec/clauses.md")
    if not path.is_file():
        path = ROOT.parent / "shared" / "spec" / "clauses.md"
    if not path.is_file():
        pytest.skip("clauses.md is not beside the checkout")
    return set(re.findall(r"`([A-Z][A-Z0-9-]+-[0-9A-Z]+)`", path.read_text()))


class Judge:
    """Before every placement decision, asks ``placement_refusal`` about every space of
    every location in play, and the home spaces, for each assistant offered, and
    compares with the options the engine offers."""

    needs_view = True

    def __init__(self, inner: Any, seen: list[Refusal]) -> None:
        self.inner = inner
        self.game: Any = None
        self.seen = seen

    def decide(self, view: Any, decision: Decision) -> int:
        if decision.kind is DecisionKind.PLACE:
            self.judge(decision)
        return self.inner.decide(view, decision)

    def judge(self, decision: Decision) -> None:
        game = self.game
        offered = {(id(a), t.location.id if t.location else None, t.space)
                   for a, t in decision.handles}
        assistants = {id(a): a for a, _ in decision.handles}
        for assistant in assistants.values():
            for loc in game.state.in_play:
                for space in range(len(loc.opens_at)):
                    refusal = placement_refusal(game, decision.seat, assistant, loc, space,
                                                resolving=decision.data.get("resolving"))
                    key = (id(assistant), loc.id, space)
                    assert (refusal is None) == (key in offered), (
                        f"{assistant.name} at {loc.id} space {space + 1}: "
                        f"{'offered' if key in offered else 'not offered'}, refusal {refusal}")
                    if refusal is not None:
                        self.seen.append(refusal)
            for space in range(len(game.state.players[decision.seat].home)):
                refusal = home_refusal(game, decision.seat, space)
                assert (refusal is None) == ((id(assistant), None, space) in offered)


def _games(variant: str, players: int, seeds: range,
           libraries: list[str | None] | None = None) -> list[Refusal]:
    settings = resolve_settings(variant, CATALOG.variants)
    seen: list[Refusal] = []
    for seed in seeds:
        judges = [Judge(RandomAgent(seed * 7 + i), seen) for i in range(players)]

        def views(game: Any, seat: int, judges: list[Judge] = judges) -> None:
            for judge in judges:
                judge.game = game

        game = new_game(CATALOG, settings, judges, seed=seed, variant=variant, views=views,
                        libraries=libraries)
        views(game, 0)
        play(game)
    return seen


RULE_LIBRARIES = ["forest-repository", "haunted-house-of-learning", "igloo-of-information"]


@pytest.mark.parametrize(("variant", "players", "libraries"), [
    ("standard", 3, RULE_LIBRARIES),
    ("standard", 4, [*RULE_LIBRARIES, None]),
    ("standard", 2, None),
    ("expanded", 3, None),
    ("solo", 1, None),
    ("solo-expanded", 1, None),
])
def test_a_target_is_refused_exactly_when_it_is_not_offered(
        variant: str, players: int, libraries: list[str | None] | None) -> None:
    seen = _games(variant, players, range(3), libraries)
    assert seen
    clauses = _clauses()
    assert all(r.clause is None or all(c in clauses for c in r.clause.split(", "))
               for r in seen)


def test_every_placement_rule_of_the_shipped_content_is_said_with_its_clause() -> None:
    seen = _games("standard", 3, range(4), RULE_LIBRARIES)
    said = {r.clause for r in seen}
    assert {"PLACE-06", "PLACE-07", "LIB-SASQ-1", "LIB-GHOST-1", "LIB-SNOWMAN-1"} <= said
    sasquatch = next(r for r in seen if r.clause == "LIB-SASQ-1")
    assert sasquatch.rule.startswith("The Sasquatch may only go")
    assert "'s Sasquatch" in sasquatch.trigger and " on space " in sasquatch.trigger
    snowman = next(r for r in seen if r.clause == "LIB-SNOWMAN-1")
    assert "Snowman stands at" in snowman.trigger or "Snowman on space" in snowman.trigger
    assert "deny if" in snowman.trigger  # the rule as written


def test_auction_and_solo_limits_are_said() -> None:
    said = {r.clause for r in _games("expanded", 3, range(3))}
    assert "EXP-AUC-06" in said or "PLACE-07" in said
    solo = {r.clause for r in _games("solo", 1, range(3))}
    assert "SOLO-13" in solo


def test_every_ability_ruling_names_a_clause() -> None:
    clauses = _clauses()
    abilities = [a for lib in CATALOG.libraries.values() for a in lib.assistant.abilities]
    abilities += [a for card in CATALOG.assistants.values() for a in card.abilities]
    abilities += [a for card in CATALOG.artifacts.values() for a in card.abilities]
    ruled = [a for a in abilities if a.placement]
    assert ruled and all(a.rulings for a in ruled)
    assert all(c in clauses for a in ruled for c in a.rulings)


# ---------------------------------------------------------------- the shelf's rules


def _book(name: str) -> BookCard:
    return BookCard(name[0], int(name[1:]), ("A",))


def _shelf(cells: dict[tuple[int, int], str]) -> Shelf:
    return Shelf.from_slots({pos: Slot(_book(name)) for pos, name in cells.items()})


def test_every_shelving_rule_refuses_with_its_clause() -> None:
    shelf = _shelf({(0, 0): "A1", (0, 1): "B1", (1, 0): "C1", (2, 0): "D1"})
    card = _book("E1")
    cases = {(0, 0): ("SHELF-05", "holds A1"), (0, 3): ("SHELF-01", "touches it"),
             (3, 0): ("SHELF-03", "span 4 rows"), (-1, 0): ("SHELF-03", "span 4 rows")}
    for pos, (clause, trigger) in cases.items():
        refusal = shelf.shelving_refusal(card, pos)
        assert refusal is not None and refusal.clause == clause, pos
        said = shelf_refusal(refusal)
        assert trigger in said.trigger and said.rule and clause in str(said)
        with pytest.raises(type(refusal)):
            shelf.copy().shelve(card, pos)
    assert shelf.shelving_refusal(card, (0, 2)) is None
    assert (0, 2) in shelf.legal_positions()


def test_a_cell_is_refused_exactly_where_shelving_is_not_legal() -> None:
    shelf = _shelf({(0, 0): "A1", (0, 1): "B1", (1, 1): "C1", (1, 2): "D1", (2, 2): "E1"})
    card = _book("F1")
    for r in range(-3, 5):
        for c in range(-3, 6):
            assert (shelf.shelving_refusal(card, (r, c)) is None) == \
                ((r, c) in shelf.legal_positions()), (r, c)


def test_removal_entombing_flipping_and_tucking_say_their_rules() -> None:
    shelf = _shelf({(0, 0): "A1", (0, 1): "B1", (0, 2): "C1"})
    split = shelf.removal_refusal((0, 1))
    assert split is not None and split.clause == "SHELF-13" and "B1" in str(split)
    assert shelf.removal_refusal((0, 0)) is None
    assert shelf.removal_refusal((5, 5)).code == "shelf/empty-cell"
    artifact = ArtifactCard("crystal-ball")
    shelf.shelve(artifact, (1, 0))
    assert shelf.entomb_refusal(artifact, (0, 0), under=True).clause == "LIB-MUMMY-3"
    assert shelf.entomb_refusal(_book("Z1"), (1, 0), under=False).clause == "LIB-MUMMY-3"
    assert shelf.entomb_refusal(_book("Z1"), (0, 0), under=True) is None
    shelf.entomb(_book("Z1"), (0, 0), under=True)
    assert "already lies beneath" in str(shelf.entomb_refusal(_book("Y1"), (0, 0), under=True))
    assert shelf.flip_refusal((1, 0)) is None  # an artifact too, by a voluntary flip (SCORE-00-2)
    assert shelf.flip_refusal((0, 2)) is None
    shelf.flip((0, 2))
    assert "already face down" in str(shelf.flip_refusal((0, 2)))
    assert shelf.tuck_refusal((0, 1)).clause == "ART-CRYSTAL-3"
    assert shelf.tuck_refusal((1, 0)) is None
    assert all(c in _clauses() for c in ("SHELF-01", "SHELF-03", "SHELF-05", "SHELF-13",
                                          "LIB-MUMMY-3", "SCORE-00-2", "ART-CRYSTAL-3",
                                          "LOC-18-2"))


# ---------------------------------------------------------------- scenarios and players

SASQUATCH = """\
kind: scenario
name: The Sasquatch at the Book Seller
setup:
  players:
    - {name: Ann, library: forest-repository}
    - {name: Bob, library: igloo-of-information}
  locations:
    - diviners-hut
    - {id: book-seller, area: [C1, D1]}
    - {id: rummage-sale, area: [A1, B1]}
  placed:
    - Bob standard at book-seller space 1
script:
  - Ann: place The Sasquatch at Book Seller (#10) space 2
expect:
  round: 1
"""


def test_a_step_that_is_not_an_option_says_why(tmp_path: Path) -> None:
    from exlibris.scenario import load_scenario, run_scenario

    path = tmp_path / "s.yaml"
    path.write_text(SASQUATCH)
    result = run_scenario(load_scenario(path))
    assert not result.passed and "is not an option" in result.difference
    why = result.difference.split("\nwhy not: ", 1)[1]
    assert why.startswith("The Sasquatch at Book Seller space 2: The Sasquatch may only go")
    assert "(LIB-SASQ-1): at Book Seller (#10): Bob's standard assistant on space 1" in why


def test_a_failed_never_offered_says_why(tmp_path: Path) -> None:
    from exlibris.scenario import load_scenario, run_scenario

    path = tmp_path / "s.yaml"
    path.write_text(SASQUATCH.replace(
        "script:\n  - Ann: place The Sasquatch at Book Seller (#10) space 2\nexpect:\n",
        "script: []\nexpect:\n  never_offered:\n"
        "    - place The Sasquatch at Rummage Sale (#14) space 1\n"))
    result = run_scenario(load_scenario(path))
    assert not result.passed
    assert "which no decision of the run should offer\nwhy: none of the placement rules" \
        in result.difference
    assert "deny if placing == this and count(target.assistants" in result.difference


def test_why_at_a_decision_names_locations_spaces_cells_and_cards(tmp_path: Path) -> None:
    from exlibris.engine.why import why_not
    from exlibris.scenario import load_scenario

    path = tmp_path / "s.yaml"
    path.write_text(SASQUATCH.replace(
        "script:\n  - Ann: place The Sasquatch at Book Seller (#10) space 2\n", "script: []\n"))
    scenario = load_scenario(path)
    from exlibris.scenario.runner import Run

    run = Run(scenario)
    result = run.execute()
    decision = result.pending
    game = run.game
    assert decision is not None and game is not None
    said = why_not(game, decision, "Book Seller")
    assert "The Sasquatch at Book Seller space 2: The Sasquatch may only go" in said
    assert "LIB-SASQ-1" in said
    assert "standard assistant at Book Seller space 2: offered (" in said
    assert "space 1: an assistant space holds one assistant" in why_not(game, decision,
                                                                          "#10 space 1")
    assert "is not in play" in why_not(game, decision, "Wishing Well")
    # a space the tile does not have is said to be missing, not another space judged
    missing = why_not(game, decision, "Book Seller space 7")
    assert "Book Seller (#10) has no space 7: it has 4 spaces" in missing
    assert "space 1" not in missing
    assert "home space" in why_not(game, decision, "home space 1")
    assert "C1 is in Book Seller's area" in why_not(game, decision, "C1")
    assert "nothing named 'xyzzy'" in why_not(game, decision, "xyzzy")


def test_a_player_asks_why_at_the_line_prompt(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from exlibris.cli.main import cli

    result = CliRunner().invoke(cli, ["play", "--seats", "human,greedy", "--seed", "2",
                                      "--save", str(tmp_path / "save.json")],
                                input="1\nwhy Diviner's Hut\nwhy Book Seller space 4\nq\n")
    assert "The Sasquatch at Diviner's Hut space 1: offered (" in result.output
    assert ("At Book Seller space 4: a space marked with a number above the player count "
            "can't be used (PLACE-06)") in " ".join(result.output.split())
