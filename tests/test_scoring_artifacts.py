"""Artifacts: ids, and B6 computed from content through the effect language."""

from __future__ import annotations

import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from exlibris import paths
from exlibris.model.cards import ArtifactCard, BookCard
from exlibris.model.shelf import Shelf
from exlibris.scoring import artifacts
from exlibris.scoring.artifacts import (
    ARTIFACT_GLOSSARY,
    ScoreEnv,
    artifact_points,
    artifact_slug,
    known_artifact_ids,
)
from exlibris.scoring.categories import CATEGORY_IDS, CATEGORY_NAMES
from exlibris.scoring.inspection import inspect_table
from exlibris.scoring.table import parse_cell, parse_table_text

EXPECTED_IDS = [
    "alliterative-alligator", "bejeweled-skull-of-turpitude", "bjuildnir-automagical-hammer",
    "categorical-gauntlet", "clockwork-autoshelver", "drawer-of-ruined-runeography",
    "foul-vowel-towel", "forbidden-mask-of-foresight", "hungry-void-of-nothingness",
    "little-place-like-home", "magnificent-magnifiers", "mystical-crystal-see-all-ball",
    "necromonkeys-paw", "pandorkas-blocks", "phoenix-feather-quill", "sands-of-our-fathers",
    "sizable-scroll-of-shar-menn", "vessel-of-wand-storage",
]


def test_ids_follow_the_table_format_rule() -> None:
    assert [artifact_slug(name) for name, _ in ARTIFACT_GLOSSARY] == EXPECTED_IDS
    assert artifact_slug("The Necromonkey\u2019s Paw") == "necromonkeys-paw"
    assert artifact_slug("A Little Place Like Home") == "little-place-like-home"


def test_known_ids_come_from_content(tmp_path, monkeypatch) -> None:
    assert len(known_artifact_ids()) == 18
    (tmp_path / "artifacts").mkdir()
    monkeypatch.setattr(paths, "content_dir", lambda: tmp_path)
    assert len(known_artifact_ids()) == 18  # the glossary fallback for an empty folder
    (tmp_path / "artifacts" / "house-rule-relic.yaml").write_text("name: Relic\n")
    assert known_artifact_ids() == ("house-rule-relic",)


def test_the_spec_spelling_of_the_scroll_is_accepted() -> None:
    """The content id drops the hyphen of Sh'ar-Menn; the table format's rule keeps it."""
    slot = parse_cell("*sizable-scroll-of-shar-menn", known_artifact_ids(),
                      artifacts.artifact_aliases())
    assert slot.card.artifact_id in known_artifact_ids()


# A shelf where every end-of-game artifact scores something, at (0, 1):
#   A1:CFRS   <artifact>        ~E1:CCCC
#   .         I2:CFHM+B5:CCCC   O1:MRS
# The face-down E1 and the entombed B5 add no books (ART-00-2, ART-00-3); E1 is the
# Void's one face-down neighbour; I2 hides B5 and does not count (ART-VOID-2).
EXPECTED_POINTS = {
    "bejeweled-skull-of-turpitude": 2,  # C on A1 and I2
    "categorical-gauntlet": 6,  # C2 F2 H1 M1 R1 S1: one complete set
    "drawer-of-ruined-runeography": 1,  # letters A, I, O: 3 // 2
    "foul-vowel-towel": 3,  # A1, I2, O1 (E1 is face down)
    "hungry-void-of-nothingness": 2,  # E1
    "mystical-crystal-see-all-ball": 6,  # three tucked cards
    "pandorkas-blocks": 1,
    "phoenix-feather-quill": 2,
    "sands-of-our-fathers": 1,
    "sizable-scroll-of-shar-menn": 1,
    "vessel-of-wand-storage": 1,
}


def fixture_shelf(artifact_id: str) -> Shelf:
    token = f"*{artifact_id}" + ("[3]" if "crystal" in artifact_id else "")
    cells = {(0, 0): "A1:CFRS", (0, 1): token, (0, 2): "~E1:CCCC", (1, 1): "I2:CFHM+B5:CCCC",
             (1, 2): "O1:MRS"}
    return Shelf.from_slots({pos: parse_cell(text, [artifact_id]) for pos, text in cells.items()})


def test_integration_shipped_artifact_content_scores_as_the_glossary_says() -> None:
    """Every artifact file's ``score:`` compiled by the effect language, on one shelf."""
    artifacts._score_fn_at.cache_clear()
    found = {}
    for artifact_id in known_artifact_ids():
        found[artifact_id] = artifact_points(fixture_shelf(artifact_id), (0, 1), artifact_id)
    expected = {a: EXPECTED_POINTS.get(a, 0) for a in known_artifact_ids()}
    assert found == expected


@pytest.mark.parametrize(
    ("source", "artifact_id", "points"),
    [
        ("books(adjacent(this), @corrupted-codices)", "bejeweled-skull-of-turpitude", 2),
        ("6 * complete_sets(adjacent(this))", "categorical-gauntlet", 6),
        ("2 * count(adjacent(this) where it.face_down)", "hungry-void-of-nothingness", 2),
        ("2 * count(tucked(this))", "mystical-crystal-see-all-ball", 6),
        ("count(shelf where it.vowel and not it.face_down)", "foul-vowel-towel", 3),
        ("count(entombed(shelf))", "x", 1),
    ],
)
def test_the_shelf_speaks_the_score_protocol(source: str, artifact_id: str, points: int) -> None:
    """The effect language reads the shelf only through positions, at and neighbours."""
    from exlibris.dsl.scoring import CategoryValue, compile_score

    categories = {cid: CategoryValue(cid, code, CATEGORY_NAMES[code])
                  for code, cid in CATEGORY_IDS.items()}
    score = compile_score(source, categories=categories)
    assert score(ScoreEnv(fixture_shelf(artifact_id), (0, 1))) == points


def test_artifact_points_reads_the_score_of_a_content_file(tmp_path, monkeypatch) -> None:
    folder = tmp_path / "artifacts"
    folder.mkdir()
    (folder / "relic.yaml").write_text(
        "id: relic\nname: Relic\nabilities:\n  - timing: end-of-game\n"
        "    score: 10 + books(adjacent(this), @historic-volumes)\n")
    (folder / "charm.yaml").write_text("id: charm\nname: Charm\nabilities:\n"
                                       "  - timing: ongoing\n    effect: stop\n")
    monkeypatch.setattr(paths, "content_dir", lambda: tmp_path)
    artifacts._score_fn_at.cache_clear()
    try:
        assert artifact_points(fixture_shelf("relic"), (0, 1), "relic") == 11
        assert artifact_points(fixture_shelf("charm"), (0, 1), "charm") == 0
        with pytest.raises(artifacts.ArtifactScoringError) as info:
            artifact_points(fixture_shelf("ghost"), (0, 1), "ghost")
        assert info.value.artifact_id == "ghost"
    finally:
        artifacts._score_fn_at.cache_clear()


TABLE = """
prominent: R
banned: M
players:
  - name: Ann
    focus: H
    shelf: |
      A1:CFRS  *sands-of-our-fathers  *hungry-void-of-nothingness
      .        B2:HHS                 ~C1:CC
  - name: Bob
    focus: S
    hand: ["*foul-vowel-towel"]
    shelf: D1:SS
"""


def test_b6_sums_every_artifact_on_the_shelf() -> None:
    table, rules = parse_table_text(TABLE)
    inspection = inspect_table(table, rules)
    ann, bob = inspection.forms
    assert ann.artifacts == 2 + 2  # Sands: B2's two H; Void: C1 face down
    assert bob.artifacts == 0  # an artifact in hand scores nothing (SCORE-B6-1)


def test_b6_uses_the_points_function_it_is_given() -> None:
    table, rules = parse_table_text(TABLE)
    calls = []

    def fake(shelf, pos, artifact_id, rules_, town=None):
        calls.append((pos, artifact_id))
        return 5

    inspection = inspect_table(table, rules, points=fake)
    assert inspection.forms[0].artifacts == 10
    assert calls == [((0, 1), "sands-of-our-fathers"), ((0, 2), "hungry-void-of-nothingness")]


def test_b6_runs_after_a1() -> None:  # ART-00-3: evaluated after the alphabetical check
    table, rules = parse_table_text(TABLE.replace("~C1:CC", "A2:CC "))
    ann = inspect_table(table, rules).forms[0]
    assert ann.flipped == ("A2",) and ann.artifacts == 4


def test_a_broken_score_expression_is_reported_in_its_file(tmp_path, monkeypatch) -> None:
    from exlibris.errors import UserInputError

    folder = tmp_path / "artifacts"
    folder.mkdir()
    (folder / "relic.yaml").write_text("id: relic\nscore: books(adjacent(this), @nonsense)\n")
    monkeypatch.setattr(paths, "content_dir", lambda: tmp_path)
    artifacts._score_fn_at.cache_clear()
    try:
        with pytest.raises(UserInputError) as info:
            artifact_points(fixture_shelf("relic"), (0, 1), "relic")
    finally:
        artifacts._score_fn_at.cache_clear()
    problem = info.value.problems[0]
    assert problem.file.endswith("relic.yaml") and problem.line == 2
    assert problem.code.startswith("dsl/")


def test_a_category_artifact_scores_the_banned_category_and_b3_still_applies() -> None:
    """ART-00-5: the Skull counts Corrupted Codices books even when they are banned;
    B3 takes its points off separately."""
    table, rules = parse_table_text("""
variant: standard
prominent: monster-manuals
banned: corrupted-codices
players:
  - name: Ann
    focus: spells-and-potions
    shelf: B1:CC  *bejeweled-skull-of-turpitude  C1:CS
  - name: Bob
    focus: historic-volumes
    shelf: D1:SS
""")
    ann = inspect_table(table, rules).forms[0]
    assert ann.artifacts == 3  # B1's two C and C1's one C touch the skull
    assert ann.banned == -3


def test_the_form_has_a_line_for_each_artifact(tmp_path) -> None:
    from click.testing import CliRunner

    from exlibris.cli.main import cli

    table = tmp_path / "t.yaml"
    table.write_text("variant: standard\nprominent: R\nbanned: M\nplayers:\n"
                     "  - {name: Ada, focus: H, hand: 0, shelf: 'A1:RR *foul-vowel-towel'}\n"
                     "  - {name: Bo, focus: S, hand: 0, shelf: 'A2:CF'}\n", "utf-8")
    result = CliRunner().invoke(cli, ["score", str(table)])
    assert result.exit_code == 0, result.output
    rows = {cells[1].strip(): [c.strip() for c in cells[2:4]]
            for x in result.output.splitlines() if len(cells := x.split("|")) > 4}
    assert "foul-vowel-towel" not in rows  # by its name, not its id
    assert rows["The Foul Vowel Towel"][1] == "-"  # Bo has no such artifact
    assert rows["The Foul Vowel Towel"][0] == rows["B6 artifacts"][0]  # Ada's only artifact


def test_a_score_that_lists_no_shelf_cards_scores_as_one_that_does(monkeypatch) -> None:
    """A score that reads none of ``shelf``, ``owner`` and ``players`` is given no list of
    the shelf's cards (``score_names``'s ``cards``): every shipped artifact scores the
    same on its fixture shelf when every score is given the list."""
    from exlibris.dsl import scoring

    ids = known_artifact_ids()
    found = {a: artifact_points(fixture_shelf(a), (0, 1), a) for a in ids}
    listed = []
    full = scoring.score_names

    def every_name(rt, env, *, others=True, cards=True):  # type: ignore[no-untyped-def]
        listed.append(cards)
        return full(rt, env, others=others, cards=True)

    monkeypatch.setattr(scoring, "score_names", every_name)
    assert {a: artifact_points(fixture_shelf(a), (0, 1), a) for a in ids} == found
    assert True in listed and False in listed  # scores of both kinds were met


@pytest.mark.parametrize("artifact_id", sorted(
    a for a in EXPECTED_IDS if artifacts.has_end_of_game_score(a)))
def test_a_score_scores_the_same_wherever_the_shelf_differs_from_what_it_read(
        artifact_id: str) -> None:
    """``artifact_points_read`` gives the points and the cells the score read (None: the
    whole shelf): the same artifact on a shelf that differs only elsewhere (a card added
    in another cell, a card there turned face down) scores the same."""
    rng = random.Random(artifact_id)
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    checked = 0
    for _ in range(30):
        cards = [BookCard(a, n, tuple(rng.choice("CFHMRS") for _ in range(rng.randint(1, 3))),
                          4) for a, n in rng.sample([(a, n) for a in letters
                                                     for n in range(1, 5)], 14)]
        shelf = Shelf()
        placed: list[object] = cards[:rng.randint(0, 12)]
        placed.insert(rng.randint(0, len(placed)), ArtifactCard(artifact_id))
        for card in placed:
            shelf.shelve(card, rng.choice(shelf.legal_cells()),
                         face_down=isinstance(card, BookCard) and rng.random() < 0.2)
        here = shelf.position_of(ArtifactCard(artifact_id))
        points, read = artifacts.artifact_points_read(shelf, here, artifact_id)
        assert points == artifact_points(shelf, here, artifact_id)
        if read is None:
            continue
        assert here in read
        for pos in shelf.legal_cells():  # a card added where the score did not look
            if pos not in read:
                grown = shelf.copy()
                grown.shelve(cards[-1], pos)
                assert artifact_points(grown, here, artifact_id) == points, pos
                checked += 1
        for pos, slot in shelf.items():  # a card turned face down there
            if pos not in read and isinstance(slot.card, BookCard) and not slot.face_down:
                turned = shelf.copy()
                turned.flip(pos)
                assert artifact_points(turned, here, artifact_id) == points, pos
                checked += 1
    assert checked or artifact_id in WHOLE_SHELF_SCORES


WHOLE_SHELF_SCORES = {"drawer-of-ruined-runeography", "foul-vowel-towel"}


def test_a_score_that_names_the_shelf_reads_it_whole() -> None:
    """A score that names the shelf's cards is not worth watching cell by cell: it is
    read whole (None), the others by their cells."""
    for artifact_id in sorted(a for a in EXPECTED_IDS if artifacts.has_end_of_game_score(a)):
        shelf = Shelf()
        shelf.shelve(ArtifactCard(artifact_id), (0, 0))
        _, read = artifacts.artifact_points_read(shelf, (0, 0), artifact_id)
        assert (read is None) == (artifact_id in WHOLE_SHELF_SCORES), artifact_id


@pytest.mark.parametrize(("source", "as_set"), [
    ("count(shelf where it.is_book and it.vowel and not it.face_down)", True),
    ("count(letters(shelf where not it.face_down)) / 2", True),
    ("books(shelf, @fantastical-fictions) + complete_sets(shelf)", True),
    ("first(shelf where it.is_book).order", False),  # the order of the shelf
    ("books(adjacent(this), @historic-volumes)", False),  # the scored card's cell
    ("count(shelf where it == this)", False),
    ("count(owner.shelf)", False),  # a player
    ("count(entombed(shelf))", False),  # the cells' cards beneath
    ("2 * count(tucked(this))", False),
])
def test_a_score_reads_its_shelf_as_a_set_only_through_words_that_ignore_order_and_cells(
        source: str, as_set: bool) -> None:
    from exlibris.dsl.parser import parse_expression
    from exlibris.dsl.scoring import shelf_as_set

    assert shelf_as_set(parse_expression(source)) is as_set


def test_a_score_read_as_a_set_scores_the_same_in_any_cells_and_once_a_set() -> None:
    """The shipped scores read as a set of cards and faces give the same points with
    the same cards, each face up or down as it was, laid out in other cells; and
    ``artifact_points_read``, which keeps their points by that set, gives the points
    ``artifact_points`` finds on every shelf, the same sets laid out anew and a card
    turned face down among them."""
    as_set = [a for a in EXPECTED_IDS if artifacts.has_end_of_game_score(a)
              and artifacts._score_fn(a).shelf_as_set]
    assert as_set == ["drawer-of-ruined-runeography", "foul-vowel-towel"]
    rng = random.Random(7)
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    for artifact_id in as_set:
        for _ in range(40):
            cards: list[object] = [
                BookCard(a, n, tuple(rng.choice("CFHMRS") for _ in range(rng.randint(1, 3))),
                         4) for a, n in rng.sample([(a, n) for a in letters
                                                    for n in range(1, 5)], rng.randint(0, 12))]
            cards.insert(rng.randint(0, len(cards)), ArtifactCard(artifact_id))
            faces = {card: isinstance(card, BookCard) and rng.random() < 0.3 for card in cards}
            shelves = []
            for _ in range(3):  # the same cards and faces, laid out anew each time
                shelf = Shelf()
                for card in rng.sample(cards, len(cards)):
                    shelf.shelve(card, rng.choice(shelf.legal_cells()), face_down=faces[card])
                shelves.append(shelf)
            found = set()
            for shelf in shelves:
                here = shelf.position_of(ArtifactCard(artifact_id))
                points = artifact_points(shelf, here, artifact_id)
                assert artifacts.artifact_points_read(shelf, here, artifact_id) == (points,
                                                                                     None)
                found.add(points)
            assert len(found) == 1
            shelf = shelves[0]  # a card turned face down: another set, scored anew
            up = [pos for pos, slot in shelf.items()
                  if isinstance(slot.card, BookCard) and not slot.face_down]
            if up:
                shelf.flip(rng.choice(up))
                here = shelf.position_of(ArtifactCard(artifact_id))
                assert artifacts.artifact_points_read(shelf, here, artifact_id) == (
                    artifact_points(shelf, here, artifact_id), None)


def test_a_set_score_kept_for_one_content_is_not_given_for_another(tmp_path,
                                                                   monkeypatch) -> None:
    """Points kept by a shelf's set are the score's of the content in use: with another
    content folder whose artifact of the same id scores otherwise, the same shelf is
    scored by that content's score."""
    shelf = Shelf()
    for card in (BookCard("A", 1, ("C",), 4), BookCard("E", 2, ("F",), 4),
                 ArtifactCard("foul-vowel-towel")):
        shelf.shelve(card, shelf.legal_cells()[-1])
    here = shelf.position_of(ArtifactCard("foul-vowel-towel"))
    assert artifacts.artifact_points_read(shelf, here, "foul-vowel-towel") == (2, None)
    folder = tmp_path / "artifacts"
    folder.mkdir()
    (folder / "foul-vowel-towel.yaml").write_text(
        "id: foul-vowel-towel\nname: Foul Vowel Towel\nabilities:\n"
        "  - timing: end-of-game\n    score: 10 * count(shelf)\n")
    monkeypatch.setattr(paths, "content_dir", lambda: tmp_path)
    assert artifacts.artifact_points_read(shelf, here, "foul-vowel-towel") == (30, None)


@pytest.mark.parametrize("artifact_id", sorted(
    a for a in EXPECTED_IDS if artifacts.has_end_of_game_score(a)
    and a not in WHOLE_SHELF_SCORES and artifacts.card_shares(a) is None))
def test_a_score_read_by_its_cells_is_given_again_only_where_they_hold_the_same(
        monkeypatch: pytest.MonkeyPatch, artifact_id: str) -> None:
    """``artifact_points_read`` keeps a score read cell by cell by what its cells held:
    on shelves laid out from a few cards, some faces turned down, it gives the points
    and cells that scoring afresh finds on every one, and it scores afresh for only
    some of them (the others hold, in the cells read, what an earlier one held)."""
    monkeypatch.setattr(artifacts, "_BY_CELLS", {})
    fresh = 0

    class Counted(artifacts.ReadCells):
        def __init__(self, shelf: Shelf) -> None:
            nonlocal fresh
            fresh += 1
            super().__init__(shelf)

    rng = random.Random(artifact_id)
    cards = [BookCard(a, n, tuple(rng.choice("CFHMRS") for _ in range(rng.randint(1, 3))), 4)
             for a, n in rng.sample([(a, n) for a in "ABCDEFGH" for n in range(1, 5)], 5)]
    asked = 0
    for _ in range(150):
        shelf = Shelf()
        shelf.shelve(ArtifactCard(artifact_id), (2, 0))
        for card in rng.sample(cards, rng.randint(0, len(cards))):
            shelf.shelve(card, rng.choice(shelf.legal_cells()[:3]),
                         face_down=rng.random() < 0.3)
        here = shelf.position_of(ArtifactCard(artifact_id))
        with monkeypatch.context() as patched:  # afresh: the points and the cells read
            patched.setattr(artifacts, "_BY_CELLS", {})
            seen = artifacts.ReadCells(shelf)
            expected = (artifact_points(seen, here, artifact_id), frozenset(seen.cells))
        monkeypatch.setattr(artifacts, "ReadCells", Counted)
        assert artifacts.artifact_points_read(shelf, here, artifact_id) == expected
        monkeypatch.setattr(artifacts, "ReadCells", Counted.__mro__[1])
        asked += 1
    assert 0 < fresh < asked


@pytest.mark.parametrize(("source", "by_card"), [
    ("count(shelf where it.is_book and it.vowel and not it.face_down)", True),
    ("count(shelf)", True),
    ("2 * count(shelf where it.is_book) - count(shelf where it.face_down)", True),
    ("count(shelf where it.letter == \"A\") * 3 + -count(shelf where it.is_artifact)", True),
    ("count(shelf where it.vowel) + 1", False),  # the 1 is not a card's
    ("count(letters(shelf where not it.face_down)) / 2", False),  # distinct letters
    ("count(shelf where it.vowel) / 2", False),  # halved, rounded down: not a sum
    ("count(shelf) * count(shelf where it.vowel)", False),
    ("count(shelf where count(shelf) > 3)", False),  # the condition reads the shelf
    ("count(shelf where it == this)", False),
    ("count(adjacent(this) where it.vowel)", False),
    ("count(owner.shelf)", False),
])
def test_a_score_is_a_sum_of_its_cards_shares_only_in_the_shapes_that_add_up(
        source: str, by_card: bool) -> None:
    from exlibris.dsl.parser import parse_expression
    from exlibris.dsl.scoring import card_by_card

    assert card_by_card(parse_expression(source)) is by_card


@pytest.mark.parametrize(("source", "over"), [
    ("count(adjacent(this) where it.vowel)", "adjacent"),
    ("2 * count(adjacent(this) where it.face_down)", "adjacent"),
    ("books(adjacent(this), @monster-manuals)", "adjacent"),
    ("books(adjacent(this) where not it.vowel) - count(adjacent(this))", "adjacent"),
    ("books(shelf where it.order > 2, @reference-texts)", "shelf"),
    ("count(adjacent(this)) + count(shelf)", None),  # two kinds of sum
    ("count(adjacent(this) where it == this)", None),  # the condition reads this
    ("complete_sets(adjacent(this))", None),  # a least over categories, not a sum
    ("books(adjacent(this), category(\"M\"))", None),  # a category worked out
    ("count(adjacent(first(shelf)))", None),  # next to another card
    ("count(adjacent(this)) / 2", None),
    ("count(letters(adjacent(this)))", None),
])
def test_what_a_score_is_a_sum_over_is_told_by_its_shape(source: str,
                                                         over: str | None) -> None:
    from exlibris.dsl.parser import parse_expression
    from exlibris.dsl.scoring import summed_over

    assert summed_over(parse_expression(source)) == over


BY_CARD_OR_NOT = {  # an author's scores, some a sum over the shelf's cards
    "vowels": "count(shelf where it.is_book and it.vowel and not it.face_down)",
    "all-and-down": "2 * count(shelf) - 3 * count(shelf where it.face_down)",
    "plus-one": "count(shelf where it.vowel) + 1",
    "halved": "count(shelf where not it.face_down) / 2",
    "letters": "count(letters(shelf where not it.face_down))",
    "beside-down": "2 * count(adjacent(this) where it.face_down)",
    "beside-books": "books(adjacent(this), @monster-manuals) - count(adjacent(this))",
    "beside-sets": "6 * complete_sets(adjacent(this))",
}


def test_a_score_summed_from_its_cards_shares_gives_what_scoring_the_shelf_gives(
        tmp_path, monkeypatch) -> None:
    """``artifact_points_read`` gives a score that is a sum over its shelf's cards as
    the sum of each card's share, faces as they lie, and every score exactly what
    ``artifact_points`` finds on the whole shelf, on shelves of random cards with
    some turned face down; the scores of other shapes have no shares."""
    folder = tmp_path / "artifacts"
    folder.mkdir()
    for aid, source in BY_CARD_OR_NOT.items():
        (folder / f"{aid}.yaml").write_text(
            f"id: {aid}\nname: {aid}\nabilities:\n  - timing: end-of-game\n"
            f"    score: {source}\n")
    monkeypatch.setattr(paths, "content_dir", lambda: tmp_path)
    shared = {aid for aid in BY_CARD_OR_NOT if artifacts.card_shares(aid) is not None}
    assert shared == {"vowels", "all-and-down", "beside-down", "beside-books"}
    rng = random.Random(11)
    pairs = [(a, n) for a in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" for n in range(1, 5)]
    for _ in range(60):
        shelf = Shelf()
        aid = rng.choice(sorted(BY_CARD_OR_NOT))
        cards: list[object] = [BookCard(a, n, ("C",), 4)
                               for a, n in rng.sample(pairs, rng.randint(0, 14))]
        cards.insert(rng.randint(0, len(cards)), ArtifactCard(aid))
        for card in cards:
            shelf.shelve(card, rng.choice(shelf.legal_cells()),
                         face_down=isinstance(card, BookCard) and rng.random() < 0.3)
        here = shelf.position_of(ArtifactCard(aid))
        points, read = artifacts.artifact_points_read(shelf, here, aid)
        assert points == artifact_points(shelf, here, aid), (aid, shelf)
        if aid.startswith("beside"):  # the cells around it, as a score read afresh reads
            seen = artifacts.ReadCells(shelf)
            artifact_points(seen, here, aid)
            assert read == frozenset(seen.cells)
        else:
            assert read is None


_CONDITIONS = st.recursive(
    st.sampled_from(["it.vowel", "it.is_book", "it.face_down", "it.is_artifact",
                     'it.letter == "E"', "it.order > 2", "count(shelf) > 4",  # the shelf
                     "count(it.books) > 1"]),
    lambda inner: st.one_of(
        inner.map(lambda c: f"not ({c})"),
        st.tuples(inner, st.sampled_from(["and", "or"]), inner).map(
            lambda t: f"({t[0]}) {t[1]} ({t[2]})")),
    max_leaves=4)
_CARDS = st.sampled_from(["shelf", "adjacent(this)"])
_SCORES = st.recursive(
    st.one_of(_CARDS.map(lambda cards: f"count({cards})"),
              st.tuples(_CARDS, _CONDITIONS).map(lambda t: f"count({t[0]} where {t[1]})"),
              st.tuples(_CARDS, _CONDITIONS, st.sampled_from(["", ", @monster-manuals"])).map(
                  lambda t: f"books({t[0]} where {t[1]}{t[2]})"),
              _CONDITIONS.map(lambda c: f"count(letters(shelf where {c}))"),
              st.integers(0, 3).map(str)),
    lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(["+", "-", "*", "/"]), inner).map(
            lambda t: f"({t[0]}) {t[1]} ({t[2]})"),
        inner.map(lambda s: f"-({s})")),
    max_leaves=5)


@settings(max_examples=150, deadline=None)
@given(source=_SCORES, seed=st.integers(0, 2**16))
@example(source="(count(shelf)) / (2)", seed=1)  # shapes that are not sums, always tried
@example(source="(count(shelf where it.vowel)) + (1)", seed=2)
@example(source="count(shelf where count(shelf) > 4)", seed=3)
@example(source="(count(shelf)) * (count(shelf where it.is_book))", seed=4)
@example(source="-((3) * (count(shelf where not (it.face_down))) - (count(shelf)))", seed=5)
@example(source="(count(adjacent(this))) + (count(shelf))", seed=6)
@example(source="(2) * (books(adjacent(this) where it.vowel, @monster-manuals))", seed=7)
def test_a_score_told_to_be_a_sum_of_shares_is_one_on_every_shelf(source: str,
                                                                   seed: int) -> None:
    """Generated scores: where ``summed_over`` says a score is a sum over its shelf's
    cards, its points on random shelves (cards face up and down) are the sum of its
    points on a shelf of each card alone; where it says a sum over the cards next to
    the scored one, the sum of its points on a shelf of each of those cards alone
    beside it."""
    from exlibris.dsl.scoring import compile_score
    from exlibris.dsl.values import CategoryValue
    from exlibris.model.shelf import Slot

    categories = {cid: CategoryValue(cid, code, CATEGORY_NAMES[code])
                  for code, cid in CATEGORY_IDS.items()}
    score = compile_score(source, categories=categories)
    if score.summed_over is None:
        return
    towel = ArtifactCard("foul-vowel-towel")
    rng = random.Random(seed)
    pairs = [(a, n) for a in "ABCDEFGHIJ" for n in range(1, 5)]
    for _ in range(4):
        shelf = Shelf()
        cards: list[object] = [
            BookCard(a, n, tuple(rng.choice("CFHMRS") for _ in range(rng.randint(1, 3))), 4)
            for a, n in rng.sample(pairs, rng.randint(0, 9))]
        cards.insert(rng.randint(0, len(cards)), ArtifactCard("foul-vowel-towel"))
        for card in cards:
            shelf.shelve(card, rng.choice(shelf.legal_cells()),
                         face_down=isinstance(card, BookCard) and rng.random() < 0.3)
        here = shelf.position_of(towel)
        whole = score(ScoreEnv(shelf, here))
        if score.summed_over == "shelf":
            alone = sum(score(ScoreEnv(Shelf.from_slots({(0, 0): Slot(s.card, s.face_down)},
                                                        check=False), (0, 0)))
                        for _, s in shelf.items())
        else:
            alone = sum(score(ScoreEnv(Shelf.from_slots(
                {(0, 0): Slot(towel), (0, 1): Slot(s.card, s.face_down)}, check=False),
                (0, 0))) for pos, s in shelf.items() if pos in shelf.neighbours(here))
        assert whole == alone, (source, shelf)


@pytest.mark.parametrize(("source", "calls"), [
    ("count(letters(shelf where not it.face_down)) / 2", 1),
    ("count(letters(shelf)) - count(letters(shelf where it.vowel)) * 2", 2),
    ("max(count(letters(shelf where it.order > 1)), 3)", 1),
    ("count(letters(shelf)) + count(shelf)", None),  # the shelf read otherwise too
    ("count(letters(adjacent(this)))", None),  # the cards next to it: their cells count
    ("count(letters(shelf where it == this))", None),  # the condition reads this
    ("count(letters(owner.shelf))", None),
    ("count(shelf)", None),  # no letters
])
def test_a_score_read_only_through_letters_is_told_by_its_shape(source: str,
                                                                calls: int | None) -> None:
    from exlibris.dsl.parser import parse_expression
    from exlibris.dsl.scoring import letters_read

    found = letters_read(parse_expression(source))
    assert (None if found is None else len(found)) == calls


_LETTER_SCORES = st.recursive(
    st.one_of(_CONDITIONS.map(lambda c: f"count(letters(shelf where {c}))"),
              st.just("count(letters(shelf))"), st.integers(0, 3).map(str),
              st.just("count(shelf)")),  # a score with it reads the shelf otherwise
    lambda inner: st.tuples(inner, st.sampled_from(["+", "-", "*", "/"]), inner).map(
        lambda t: f"({t[0]}) {t[1]} ({t[2]})"),
    max_leaves=4)


@settings(max_examples=100, deadline=None)
@given(source=_LETTER_SCORES, seed=st.integers(0, 2**16))
@example(source="(count(letters(shelf where not (it.face_down)))) / (2)", seed=1)
@example(source="(count(letters(shelf where it.vowel))) - (count(letters(shelf)))", seed=2)
def test_what_a_letters_read_score_finds_is_its_cards_and_tells_its_points(
        source: str, seed: int) -> None:
    """Generated scores read through ``letters``: what their calls find on a shelf is
    the union of what they find on a shelf of each card alone, faces as they lie, and
    two shelves on which they find the same give the same points."""
    from exlibris.dsl.scoring import compile_score
    from exlibris.dsl.values import CategoryValue
    from exlibris.model.shelf import Slot

    categories = {cid: CategoryValue(cid, code, CATEGORY_NAMES[code])
                  for code, cid in CATEGORY_IDS.items()}
    score = compile_score(source, categories=categories)
    if score.letters is None:
        assert "count(shelf)" in source or "letters" not in source
        return
    rng = random.Random(seed)
    pairs = [(a, n) for a in "AEIBCD" for n in range(1, 5)]
    points: dict[frozenset[tuple[int, str]], int] = {}
    for _ in range(12):
        shelf = Shelf()
        for a, n in rng.sample(pairs, rng.randint(0, 8)):
            shelf.shelve(BookCard(a, n, ("C",), 4), rng.choice(shelf.legal_cells()),
                         face_down=rng.random() < 0.3)
        shelf.shelve(ArtifactCard("drawer-of-ruined-runeography"),
                     rng.choice(shelf.legal_cells()))
        found = score.letters(shelf)
        assert found == frozenset().union(*(
            score.letters(Shelf.from_slots({(0, 0): Slot(s.card, s.face_down)}, check=False))
            for _, s in shelf.items()))
        here = shelf.position_of(ArtifactCard("drawer-of-ruined-runeography"))
        got = score(ScoreEnv(shelf, here))
        assert points.setdefault(found, got) == got, (source, shelf)
