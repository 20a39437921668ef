"""Artifact ids, and the one door through which artifact points are computed.

End-of-game points come from content: ``content/artifacts/<id>.yaml`` holds a
``score:`` expression in the effect language (top level or in an ability),
compiled by ``exlibris.dsl.scoring.compile_score``. No artifact has Python code of its own here.

Ids follow the table format's rule, with punctuation settled as follows: lower
case; apostrophes (straight or curly) are dropped; a leading "The" or "A" is
dropped; every other run of characters that are not letters or digits (spaces,
commas, hyphens) becomes one hyphen. So "Bjuildnir, Automagical Hammer" is
``bjuildnir-automagical-hammer`` and "The Sizable Scroll of Sh'ar-Menn" is
``sizable-scroll-of-shar-menn``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from operator import attrgetter
from pathlib import Path
from typing import Any

from exlibris import paths, sources
from exlibris.errors import Problem, UserInputError
from exlibris.model.cards import ArtifactCard, Card
from exlibris.model.shelf import STEPS, Pos, Shelf, Slot
from exlibris.scoring.categories import CATEGORY_IDS, CATEGORY_NAMES

ARTIFACT_GLOSSARY: tuple[tuple[str, str], ...] = (
    ("The Alliterative Alligator", "ongoing"),
    ("The Bejeweled Skull of Turpitude", "end-of-game"),
    ("Bjuildnir, Automagical Hammer", "ongoing"),
    ("The Categorical Gauntlet", "end-of-game"),
    ("The Clockwork Autoshelver", "ongoing"),
    ("The Drawer of Ruined Runeography", "end-of-game"),
    ("The Foul Vowel Towel", "end-of-game"),
    ("The Forbidden Mask of Foresight", "ongoing"),
    ("The Hungry Void of Nothingness", "end-of-game"),
    ("A Little Place Like Home", "ongoing"),
    ("The Magnificent Magnifiers", "ongoing"),
    ("The Mystical Crystal See-All Ball", "end-of-game"),
    ("The Necromonkey's Paw", "ongoing"),
    ("Pandorka's Blocks", "end-of-game"),
    ("The Phoenix Feather Quill", "end-of-game"),
    ("The Sands of Our Fathers", "end-of-game"),
    ("The Sizable Scroll of Sh'ar-Menn", "end-of-game"),
    ("Vessel of Wand Storage", "end-of-game"),
)
"""The 18 artifacts of the expansion glossary, each with whether it scores at the end
(the Crystal Ball is also ongoing). Used only when ``content/artifacts`` is empty."""

_APOSTROPHES = re.compile(r"['\u2019\u2018`]")
_SEPARATORS = re.compile(r"[^a-z0-9]+")
_ARTICLE = re.compile(r"^(the|a)\s+", re.IGNORECASE)


def artifact_slug(name: str) -> str:
    """The id of an artifact named ``name`` (see the module docstring for the rule)."""
    text = _ARTICLE.sub("", name.strip())
    text = _APOSTROPHES.sub("", text.lower())
    return _SEPARATORS.sub("-", text).strip("-")


FALLBACK_ARTIFACTS: dict[str, str] = {artifact_slug(n): t for n, t in ARTIFACT_GLOSSARY}
"""Artifact id -> timing, from the glossary: the one fallback list."""


def artifacts_dir() -> Path:
    return paths.content_dir() / "artifacts"


def known_artifact_ids() -> tuple[str, ...]:
    """Artifact ids: one per ``content/artifacts/<id>.yaml`` (else the glossary's), and
    the author's own (``--content``)."""
    folder = artifacts_dir()
    found = sorted(p.stem for p in folder.glob("*.yaml")) if folder.is_dir() else []
    shipped = found or sorted(FALLBACK_ARTIFACTS)
    return tuple(sorted({*shipped, *own_entries("artifact")}))


def own_entries(kind: str) -> dict[str, Path]:
    """The author's entries of one kind (``--content``, ``EXLIBRIS_CONTENT``): id -> file."""
    chosen = sources.active_content()
    if not chosen:
        return {}
    return dict(_own_entries(kind, chosen))


@cache
def _own_entries(kind: str, chosen: tuple[Path, ...]) -> dict[str, Path]:
    """``own_entries`` for the content in use (found once: a bot asks for every
    artifact it weighs)."""
    from exlibris.catalog import load_catalog  # only for an author's content: it is heavy

    catalog = load_catalog(chosen)
    return {e.id: e.path for e in catalog.entries
            if e.kind == kind and not _shipped(e.path)}


def _shipped(path: Path) -> bool:
    return path.resolve().is_relative_to(paths.data_root().resolve() / "content") or \
        path.resolve().is_relative_to(paths.data_root().resolve() / "rules")


def artifact_files() -> dict[str, Path]:
    """Every artifact's content file by id: the shipped ones, then the author's own
    (``--content``), which replace shipped ones of the same id."""
    folder = artifacts_dir()
    found = {p.stem: p for p in sorted(folder.glob("*.yaml"))} if folder.is_dir() else {}
    found.update(own_entries("artifact"))
    return found


def _files_key() -> tuple[tuple[str, str], ...]:
    """The artifact files in use as a cache key: ``(id, path)`` pairs, sorted (a file is
    read once per process, as the catalog reads it)."""
    return tuple(sorted((aid, str(path)) for aid, path in artifact_files().items()))


def tucking_artifact_ids() -> frozenset[str] | None:
    """Artifacts whose abilities tuck cards (call ``tuck`` or ``tucked``); None when
    there is no artifact content to tell (then any artifact may hold tucked cards)."""
    files = _files_key()
    return _tucking(files) if files else None


def _readable(files: tuple[tuple[str, str], ...]) -> Iterator[tuple[str, Any]]:
    """``(id, data)`` of each artifact file that loads (a broken one is validate's to
    report; here it is passed over)."""
    from exlibris.yamlsafe import load_yaml_file

    for aid, path in files:
        try:
            yield aid, load_yaml_file(Path(path)).data
        except UserInputError:
            continue


@cache
def _tucking(files: tuple[tuple[str, str], ...]) -> frozenset[str]:
    from exlibris.dsl import ast
    from exlibris.dsl.errors import DslError
    from exlibris.dsl.parser import parse_expression, parse_program

    found = set()
    for aid, data in _readable(files):
        abilities = data.get("abilities") if isinstance(data, dict) else None
        for ability in abilities if isinstance(abilities, list) else []:
            if not isinstance(ability, dict):
                continue
            trees: list[ast.Node] = []
            for key, parse in (("effect", parse_program), ("score", parse_expression)):
                if isinstance(ability.get(key), str):
                    try:
                        trees.append(parse(ability[key]))
                    except DslError:
                        continue
            if any(name in ("tuck", "tucked") for tree in trees for name in ast.calls(tree)):
                found.add(aid)
    return frozenset(found)


@cache
def deck_size() -> int:
    """Book cards in the shipped deck (at most this many can be tucked anywhere)."""
    from exlibris.yamlsafe import load_yaml_file

    try:
        cards = load_yaml_file(paths.content_dir() / "books.yaml").data.get("cards")
    except (UserInputError, AttributeError):
        cards = None
    return len(cards) if isinstance(cards, list) else 152


def artifact_aliases() -> dict[str, str]:
    """Ids derived from content names by the table format's rule, where they differ
    from the content id, mapped to the content id (a table may use either)."""
    return dict(_aliases(_files_key()))


@cache
def _aliases(files: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    found = []
    for aid, data in _readable(files):
        name = data.get("name") if isinstance(data, dict) else None
        if isinstance(name, str) and artifact_slug(name) != aid:
            found.append((artifact_slug(name), aid))
    return tuple(found)


class ArtifactScoringError(Exception):
    """An artifact's end-of-game points cannot be computed (content or language missing)."""

    code = "score/artifact-unavailable"

    def __init__(self, artifact_id: str, message: str) -> None:
        super().__init__(message)
        self.artifact_id = artifact_id


@dataclass(frozen=True, slots=True)
class Town:
    """What a score reads beyond its own shelf: the town board's prominent and banned
    category codes, the scored player's name, and each opponent's name and shelf as
    it stands when scoring begins (before their A1 flips), in seat order."""

    prominent: str | None = None
    banned: str | None = None
    owner: str = ""
    opponents: tuple[tuple[str, Shelf], ...] = ()


NO_TOWN = Town()  # no table known (a bot's estimate, a lone shelf)


@dataclass(frozen=True, slots=True)
class ScoreEnv:
    """What a ``score:`` expression sees: the shelf, the scored artifact's cell, the
    rules, and the table around it (``Town``; empty where no table is known)."""

    shelf: Shelf
    this: Pos
    rules: Any = None
    town: Town = NO_TOWN


ScoreFn = Callable[[ScoreEnv], int]
ArtifactPoints = Callable[..., int]  # (shelf, pos, artifact id, rules, town=Town) -> points


def artifact_points(shelf: Shelf, pos: Pos, artifact_id: str, rules: Any = None,
                    town: Town = NO_TOWN) -> int:
    """End-of-game points of the artifact ``artifact_id`` at ``pos`` (0 for ongoing ones)."""
    score = _score_fn(artifact_id)
    if score is None:
        return 0
    try:
        return int(score(ScoreEnv(shelf, pos, rules, town)))
    except RuntimeError as exc:  # the effect language's step budget
        raise ArtifactScoringError(artifact_id, f"cannot score artifact {artifact_id!r}: "
                                   f"{exc}") from None


class ReadCells:
    """A shelf as a score reads it (``positions``, ``at``, ``neighbours``), noting what
    it reads: the cells it looks at (a neighbour's cell whether or not it holds a
    card), or the whole shelf (``whole``). A score's points depend on nothing else of
    the shelf, so on a shelf that differs elsewhere it scores the same."""

    __slots__ = ("cells", "shelf", "whole")

    def __init__(self, shelf: Shelf) -> None:
        self.shelf = shelf
        self.cells: set[Pos] = set()
        self.whole = False

    def positions(self) -> tuple[Pos, ...]:
        self.whole = True
        return self.shelf.positions()

    def at(self, pos: Pos) -> Any:
        self.cells.add(pos)
        return self.shelf.at(pos)

    def neighbours(self, pos: Pos) -> list[Pos]:
        r, c = pos
        self.cells.update((r + dr, c + dc) for dr, dc in STEPS)
        return self.shelf.neighbours(pos)

    def __getattr__(self, name: str) -> Any:  # anything else of the shelf: all of it
        self.whole = True
        return getattr(self.shelf, name)


_CARD_AND_FACE = attrgetter("card", "face_down")  # a slot's, as one pair


class CardShares(dict[tuple[Card, bool], int]):
    """What each card, face up or down, adds to a score that is a sum over its shelf's
    cards or over the cards next to the scored one (``dsl.scoring.summed_over``), by
    ``(card, face_down)``: the score of a shelf of that card alone (``beside``: of that
    card and the scored one next to it), found when first asked."""

    __slots__ = ("artifact_id", "beside", "rules")

    def __init__(self, artifact_id: str, rules: Any, beside: bool = False) -> None:
        super().__init__()
        self.artifact_id = artifact_id
        self.rules = rules
        self.beside = beside  # a sum over the cards next to the scored one

    def __missing__(self, pair: tuple[Card, bool]) -> int:
        slots = {(0, 0): Slot(ArtifactCard(self.artifact_id)), (0, 1): Slot(*pair)} \
            if self.beside else {(0, 0): Slot(*pair)}
        alone = Shelf.from_slots(slots, check=False)
        points = self[pair] = artifact_points(alone, (0, 0), self.artifact_id, self.rules)
        return points


def card_shares(artifact_id: str, rules: Any = None) -> CardShares | None:
    """Each card's share of the artifact's score where that score is a sum over its
    shelf's cards (then the points on a shelf are the sum of its slots' shares, faces
    as they lie) or over the cards next to it (``beside``: the sum of the shares of the
    slots in the cells around it); None for any other score."""
    found = score_shortcut(artifact_id, rules)
    return found if isinstance(found, CardShares) else None


def score_shortcut(artifact_id: str, rules: Any = None) -> CardShares | LetterAtoms | None:
    """What gives the artifact's points under ``rules`` without running its score on a
    shelf: each card's share where the score is a sum over cards (``card_shares``), what
    each card gives its ``letters`` calls where it reads its shelf only through them;
    None for any other score (one lookup of the score for both)."""
    score = _score_fn(artifact_id)
    if score is None:
        return None
    if getattr(score, "summed_over", None) is not None:
        return _shares(score, artifact_id, rules)
    if getattr(score, "letters", None) is not None:
        return _letter_atoms(score, rules)
    return None


def _kept_by_score(table: dict[tuple[int, int], tuple[Any, Any, Any]], score: ScoreFn,
                   rules: Any, make: Callable[[], Any]) -> Any:
    """``table``'s entry for ``score`` and ``rules`` (both kept with it: their ``id``
    stays theirs), made by ``make`` when missing; the table is emptied when it holds
    ``SHARES_MOST``."""
    key = (id(score), id(rules))
    found = table.get(key)
    if found is None or found[0] is not score or found[1] is not rules:
        if len(table) >= SHARES_MOST:
            table.clear()
        found = table[key] = (score, rules, make())
    return found[2]


def _shares(score: ScoreFn, artifact_id: str, rules: Any) -> CardShares:
    """``card_shares`` of ``score``, the artifact's (a sum over cards)."""
    beside = score.summed_over == "adjacent"  # type: ignore[attr-defined]
    return _kept_by_score(_SHARES, score, rules,  # type: ignore[no-any-return]
                          lambda: CardShares(artifact_id, rules, beside=beside))


class LetterAtoms(dict[tuple[Card, bool], frozenset[tuple[int, str]]]):
    """For a score that reads its shelf only through ``letters`` calls (its ``letters``,
    ``dsl.scoring.letters_read``): what each card, face up or down, adds to what those
    calls find (``(call, letter)`` pairs: a shelf finds the union of its cards'), found
    when first asked; and ``points``, the score's points by what its calls find, kept
    as they are scored (emptied when it holds ``LETTER_POINTS_MOST``)."""

    __slots__ = ("finder", "points")

    def __init__(self, finder: Any) -> None:
        super().__init__()
        self.finder = finder
        self.points: dict[frozenset[tuple[int, str]], int] = {}

    def __missing__(self, pair: tuple[Card, bool]) -> frozenset[tuple[int, str]]:
        found = self[pair] = self.finder(Shelf.from_slots({(0, 0): Slot(*pair)}, check=False))
        return found

    def keep(self, found: frozenset[tuple[int, str]], points: int) -> None:
        """Note the ``points`` the score gives where its calls find ``found``."""
        if len(self.points) >= LETTER_POINTS_MOST:
            self.points.clear()
        self.points[found] = points


LETTER_POINTS_MOST = 4096


def _letter_atoms(score: ScoreFn, rules: Any) -> LetterAtoms:
    """``LetterAtoms`` of ``score`` (one read through ``letters``) under ``rules``."""
    return _kept_by_score(_LETTERS, score, rules,  # type: ignore[no-any-return]
                          lambda: LetterAtoms(score.letters))  # type: ignore[attr-defined]


# each letters-read score's atoms and points by the score and the rules (both kept with
# them), emptied when it holds ``SHARES_MOST``
_LETTERS: dict[tuple[int, int], tuple[Any, Any, LetterAtoms]] = {}


@cache
def around(pos: Pos) -> frozenset[Pos]:
    """``pos`` and the cells sharing an edge with it, held or not: what a score of the
    cards next to the scored one reads (as ``ReadCells`` notes it)."""
    r, c = pos
    return frozenset([pos, *((r + dr, c + dc) for dr, dc in STEPS)])


# each card-by-card score's shares by the score and the rules (both kept with them: their
# ``id`` stays theirs), emptied when it holds ``SHARES_MOST``
_SHARES: dict[tuple[int, int], tuple[Any, Any, CardShares]] = {}
SHARES_MOST = 64


def artifact_points_read(shelf: Shelf, pos: Pos, artifact_id: str, rules: Any = None
                         ) -> tuple[int, frozenset[Pos] | None]:
    """``artifact_points`` (no table known), with the cells its score read (None: the
    whole shelf): the points stay the same while those cells hold the same, so a score
    read cell by cell is scored once for what its cells hold (``_BY_CELLS``). A score
    that reads its shelf only through ``letters`` is scored once for what they find
    (``LetterAtoms``), one that reads it as a set of cards and faces once a set, and one
    that is a sum over its shelf's cards, or over the cards next to it, from each card's
    share (``card_shares``)."""
    score = _score_fn(artifact_id)
    summed = getattr(score, "summed_over", None)
    if summed == "shelf":  # the sum of its cards' shares
        shares = _shares(score, artifact_id, rules)  # type: ignore[arg-type]
        return sum(map(shares.__getitem__,
                       map(_CARD_AND_FACE, shelf.snapshot().values()))), None
    if summed == "adjacent":  # the sum of the shares of the cards next to it
        shares = _shares(score, artifact_id, rules)  # type: ignore[arg-type]
        cells = around(pos)
        return sum(shares[(slot.card, slot.face_down)] for cell in cells
                   if cell != pos and (slot := shelf.at(cell)) is not None), cells
    if getattr(score, "letters", None) is not None:  # kept by the letters its calls find
        atoms = _letter_atoms(score, rules)  # type: ignore[arg-type]
        found_letters = frozenset().union(*map(atoms.__getitem__, map(
            _CARD_AND_FACE, shelf.snapshot().values())))
        points = atoms.points.get(found_letters)
        if points is None:
            points = artifact_points(shelf, pos, artifact_id, rules)
            atoms.keep(found_letters, points)
        return points, None
    if getattr(score, "shelf_as_set", False):  # kept by the shelf's cards and faces
        key = (id(score), id(rules),
               frozenset(map(_CARD_AND_FACE, shelf.snapshot().values())))
        found = _AS_SET.get(key)
        if found is not None and found[0] is score and found[1] is rules:
            return found[2], None
        points = artifact_points(shelf, pos, artifact_id, rules)
        if len(_AS_SET) >= AS_SET_MOST:
            _AS_SET.clear()
        _AS_SET[key] = (score, rules, points)
        return points, None
    if getattr(score, "whole_shelf", False):
        return artifact_points(shelf, pos, artifact_id, rules), None
    cell_key = (id(score), id(rules), pos)
    kept = _BY_CELLS.get(cell_key)
    at = shelf.snapshot().get  # a dict's lookup: the cells mapped in C
    if kept is not None and kept[0] is score and kept[1] is rules:
        readings = kept[2]
        for i in range(len(readings) - 1, -1, -1):  # the last found first
            cells, slots, points, read = readings[i]
            if tuple(map(at, cells)) == slots:  # each slot the same, or an equal one
                if i != len(readings) - 1:
                    readings.append(readings.pop(i))
                return points, read
    seen = ReadCells(shelf)
    points = artifact_points(seen, pos, artifact_id, rules)  # type: ignore[arg-type]
    if seen.whole:
        return points, None
    read = frozenset(seen.cells)
    if kept is None or kept[0] is not score or kept[1] is not rules:
        if len(_BY_CELLS) >= BY_CELLS_MOST:
            _BY_CELLS.clear()
        kept = _BY_CELLS[cell_key] = (score, rules, [])
    readings = kept[2]
    if len(readings) >= READINGS_KEPT:
        del readings[0]
    cells = tuple(read)
    readings.append((cells, tuple(map(at, cells)), points, read))
    return points, read


# the points of scores that read their shelf as a set of cards and faces
# (``dsl.scoring.shelf_as_set``), by the score (the artifact's in the content in use),
# the rules (both kept with the points: their ``id`` stays theirs) and that set; emptied
# when it holds ``AS_SET_MOST``
_AS_SET: dict[tuple[int, int, frozenset[tuple[Any, bool]]], tuple[Any, Any, int]] = {}
AS_SET_MOST = 4096

# the points of scores read cell by cell (``ReadCells``), by the score, the rules (both
# kept with them, as above) and the artifact's cell: the last ``READINGS_KEPT`` readings
# found or made (the last last), each the cells read, the slots they held, the points
# and the cells as a set. A score that finds the slots it read before reads the same
# cells again, in the same order, and scores the same, so a shelf whose cells read hold
# equal slots is given those points. Emptied when it holds ``BY_CELLS_MOST`` keys.
_BY_CELLS: dict[tuple[int, int, Pos],
                tuple[Any, Any, list[tuple[tuple[Pos, ...], tuple[Any, ...], int,
                                           frozenset[Pos]]]]] = {}
BY_CELLS_MOST = 4096
READINGS_KEPT = 8


def has_end_of_game_score(artifact_id: str) -> bool:
    """Whether the artifact scores at the end of the game (its content has a ``score:``)."""
    return _score_fn(artifact_id) is not None


def shelf_artifact_points(
    shelf: Shelf, rules: Any = None, points: ArtifactPoints = artifact_points,
    town: Town | None = None,
) -> int:
    """B6/B7: the sum of ``points`` over every artifact on ``shelf`` (``town``: the
    table around it, passed on to ``points`` when known)."""
    total = 0
    for pos, slot in shelf.items():
        if isinstance(slot.card, ArtifactCard) and not slot.face_down:  # SCORE-00-2
            if town is None:
                total += points(shelf, pos, slot.card.artifact_id, rules)
            else:
                total += points(shelf, pos, slot.card.artifact_id, rules, town=town)
    return total


def artifact_lines(
    shelf: Shelf, rules: Any = None, points: ArtifactPoints = artifact_points,
    town: Town = NO_TOWN,
) -> tuple[tuple[str, int], ...]:
    """B6/B7 line by line: ``(artifact id, points)`` for each artifact on ``shelf``, in
    reading order (an ongoing artifact scores 0)."""
    return tuple((slot.card.artifact_id, points(shelf, pos, slot.card.artifact_id, rules,
                                                town=town))
                 for pos, slot in sorted(shelf.items()) if isinstance(slot.card, ArtifactCard))


def _score_fn(artifact_id: str) -> ScoreFn | None:
    chosen, content = sources.active_content(), paths.content_dir()
    key = (artifact_id, chosen, content)
    found = _SCORE_FNS.get(key, _UNKNOWN)
    if found is _UNKNOWN:  # the content's file, its score compiled (an error is raised
        # every time it is asked: nothing is kept)
        found = _score_fn_at(artifact_id, _artifact_file(artifact_id, chosen, content))
        _SCORE_FNS[key] = found
    return found  # type: ignore[return-value]


# each artifact's score (None: an ongoing artifact) by the content in use and the shipped
# content's folder: the bots' readings score artifacts at every cell they weigh
_SCORE_FNS: dict[tuple[str, tuple[Path, ...], Path], ScoreFn | None] = {}
_UNKNOWN = object()


@cache
def _artifact_file(artifact_id: str, chosen: tuple[Path, ...], content: Path) -> str:
    """The file of ``artifact_id``'s content with the author's content ``chosen`` in use
    (``own_entries``) and the shipped ``content`` folder: worked out once, as the bots'
    readings ask for it at every cell they weigh."""
    own = _own_entries("artifact", chosen).get(artifact_id) if chosen else None
    return str(own or content / "artifacts" / f"{artifact_id}.yaml")


@cache
def _score_fn_at(artifact_id: str, file: str) -> ScoreFn | None:
    path = Path(file)
    if not path.is_file():
        if FALLBACK_ARTIFACTS.get(artifact_id) == "ongoing":
            return None
        raise ArtifactScoringError(
            artifact_id, f"cannot score artifact {artifact_id!r}: its content file "
            f"content/artifacts/{artifact_id}.yaml is missing")
    from exlibris.yamlsafe import load_yaml_file

    loaded = load_yaml_file(path)
    found = _score_source(loaded.data)
    if found is None:
        return None
    source, key_path = found
    try:
        return compile_score_source(loaded, source, key_path)
    except ImportError:
        raise ArtifactScoringError(
            artifact_id, f"cannot score artifact {artifact_id!r}: the effect language "
            "(exlibris.dsl.scoring.compile_score) is not available") from None


def compile_score_source(loaded: Any, source: str, key_path: tuple[str | int, ...]) -> ScoreFn:
    """Compile the ``score:`` at ``key_path`` of a loaded content file; a language
    error is reported at its place in that file."""
    from exlibris.dsl.errors import DslError
    from exlibris.dsl.scoring import CategoryValue, compile_score

    path = loaded.filename
    line, col = loaded.content_position(key_path)
    categories = {cid: CategoryValue(cid, code, CATEGORY_NAMES[code])
                  for code, cid in CATEGORY_IDS.items()}
    try:
        return compile_score(source, file=str(path), line=line, categories=categories,
                             name=_score_name(loaded.data, key_path))
    except DslError as exc:
        where_line = line + exc.line - 1
        where_col = col + exc.col - 1 if exc.line == 1 else exc.col
        raise UserInputError([Problem(str(path), where_line, where_col, exc.code,
                                      exc.message)]) from None


def _score_name(data: Any, key_path: tuple[str | int, ...]) -> str:
    """The source name a ``score:`` runs under (``dsl.errors.source_name``)."""
    from exlibris.dsl.errors import source_name

    entry = str(data.get("id", "")) if isinstance(data, dict) else ""
    if len(key_path) == 3:  # an ability's
        return source_name(f"{entry}#{key_path[1]}", "score")
    return source_name(entry, "score")


def _score_source(data: Any) -> tuple[str, tuple[str | int, ...]] | None:
    """The ``score:`` source of a content entry and its key path: top level or an ability's."""
    if not isinstance(data, dict):
        return None
    if isinstance(data.get("score"), str):
        return data["score"], ("score",)
    for i, ability in enumerate(data.get("abilities") or []):
        if isinstance(ability, dict) and isinstance(ability.get("score"), str):
            return ability["score"], ("abilities", i, "score")
    return None
