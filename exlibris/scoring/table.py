"""Reading a table file (``shared/spec/table-format.md``) into a :class:`Table`.

Every problem is reported as ``FILE:LINE:COL`` with a stable ``table/...`` code;
problems inside a shelf string point at the cell's own line and column. All the
problems found are reported together.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from exlibris import paths
from exlibris.errors import Problem, UserInputError
from exlibris.limits import MAX_HAND, int_too_long
from exlibris.model.cards import CATEGORY_CODES, ArtifactCard, BookCard, Card
from exlibris.model.merging import ChainError, linearize, merge, parents_of
from exlibris.model.shelf import Pos, Shelf, Slot, components
from exlibris.scoring.artifacts import (
    artifact_aliases,
    deck_size,
    known_artifact_ids,
    tucking_artifact_ids,
)
from exlibris.scoring.assistant_points import known_assistant_ids
from exlibris.scoring.categories import CATEGORY_IDS, category_code
from exlibris.scoring.inspection import PlayerTable, PublicLibrary, Table
from exlibris.scoring.settings import ScoringRules, SettingsError
from exlibris.yamlsafe import LoadedYaml, load_yaml_file, load_yaml_text

BUILTIN_VARIANTS = ("solo", "standard")
MAX_ROWS = 3
MAX_PLAYERS = 5

_TOP_FIELDS = ("variant", "prominent", "banned", "players", "difficulty", "public-library")
_PLAYER_FIELDS = ("name", "focus", "hand", "shelf", "assistants")
_LIBRARY_FIELDS = ("focus", "cards", "volunteers", "artifacts")

_BOOK = re.compile(r"(?P<letter>[A-Z])(?P<order>[0-9]+)(?:/(?P<of>[0-9]+))?:(?P<books>[A-Za-z]+)")
_ARTIFACT = re.compile(r"\*(?P<id>[^\[\]\s]+)(?:\[(?P<tucked>[0-9]+)\])?")
_STACK_TAIL = re.compile(r"(?P<book>[^\[\]\s]+)(?:\[(?P<tucked>[0-9]+)\])?")
_CELL = re.compile(r"\S+")

YamlPath = tuple[str | int, ...]


class TokenError(ValueError):
    """A cell or card token that cannot be read."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def suggest(word: str, choices: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest choice, or an empty string."""
    matches = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    if not matches:
        lowered = {c.lower(): c for c in choices}
        if word.lower() in lowered:
            matches = [lowered[word.lower()]]
    return f" (did you mean {matches[0]!r}?)" if matches else ""


# ------------------------------------------------------------------ tokens
def parse_book(text: str) -> BookCard:
    """A book card token: ``M3:FFS`` or ``M3/8:FFS``."""
    match = _BOOK.fullmatch(text)
    if match is None:
        raise TokenError("table/malformed-token", f"{text!r} is not a card token; a book card "
                         "is written like M3:FFS (letter, order, ':', 1 to 4 category codes)")
    books = match["books"]
    for code in books:
        if code not in CATEGORY_CODES:
            hint = f" (did you mean {code.upper()!r}?)" if code.upper() in CATEGORY_CODES else ""
            raise TokenError("table/unknown-category",
                             f"unknown category {code!r} in {text!r}{hint}; categories are "
                             f"{', '.join(CATEGORY_CODES)}")
    if not 1 <= len(books) <= 4:
        raise TokenError("table/malformed-token",
                         f"{text!r} has {len(books)} books; a card holds 1 to 4")
    if int_too_long(match["order"]) or int_too_long(match["of"] or ""):
        raise TokenError("table/malformed-token", f"{text[:40]!r}: a card's order is a small "
                         "number")
    order = int(match["order"])
    of = int(match["of"]) if match["of"] else 0
    if order < 1:
        raise TokenError("table/malformed-token", f"{text!r}: a card's order starts at 1")
    if match["of"] is not None and not 1 <= order <= of:
        raise TokenError("table/malformed-token",
                         f"{text!r}: order {order} is not among the {of} cards of letter "
                         f"{match['letter']}")
    return BookCard(match["letter"], order, tuple(books), of)


def parse_artifact(
    text: str, known: Iterable[str], aliases: Mapping[str, str] | None = None
) -> tuple[ArtifactCard, int]:
    """An artifact token: ``*foul-vowel-towel`` or ``*mystical-crystal-see-all-ball[3]``.

    ``aliases`` maps other accepted spellings of an id to the content id.
    """
    match = _ARTIFACT.fullmatch(text)
    if match is None:
        raise TokenError("table/malformed-token", f"{text!r} is not an artifact token; write "
                         "*artifact-id, or *artifact-id[N] with N cards tucked beneath")
    artifact_id = match["id"]
    known = tuple(known)
    if aliases and artifact_id in aliases:
        artifact_id = aliases[artifact_id]
    if artifact_id not in known:
        raise TokenError("table/unknown-artifact",
                         f"unknown artifact {artifact_id!r}{suggest(artifact_id, known)}")
    if match["tucked"] is None:
        return ArtifactCard(artifact_id), 0
    tucking = tucking_artifact_ids()
    if tucking is not None and artifact_id not in tucking:
        raise TokenError("table/not-tucking", f"{artifact_id!r} never has cards tucked under "
                         "it; write it without [N]")
    limit = deck_size()
    if int_too_long(match["tucked"]) or int(match["tucked"]) > limit:
        raise TokenError("table/too-many-tucked", f"{text[:60]!r}: at most {limit} cards (the "
                         "deck) can be tucked")
    return ArtifactCard(artifact_id), int(match["tucked"])


def parse_cell(
    text: str, known_artifacts: Iterable[str], aliases: Mapping[str, str] | None = None
) -> Slot | None:
    """One shelf cell token; None for ``.``."""
    if text == ".":
        return None
    if text.startswith("~*") and "+" not in text:  # an artifact flipped by choice (SCORE-00-2)
        card, tucked = parse_artifact(text[1:], known_artifacts, aliases)
        return Slot(card, face_down=True, tucked=tucked_placeholders(tucked))
    if text.startswith("*"):
        # an artifact may top an entombed stack (the Mummy shelves any card):
        # *artifact-id+M3:FFS, with any tucked count last (as Slot.token writes it)
        top, plus, under = text.partition("+")
        stack = _STACK_TAIL.fullmatch(under) if plus else None
        if plus and (stack is None or under.startswith(("~", "*"))):
            raise TokenError("table/malformed-token",
                             f"{text!r}: an artifact tops an entombed stack as "
                             "*artifact-id+BOOK (the book beneath is face down without '~')")
        tail = f"[{stack['tucked']}]" if stack and stack["tucked"] else ""
        card, tucked = parse_artifact(top + tail, known_artifacts, aliases)
        beneath = parse_book(stack["book"]) if stack else None
        return Slot(card, beneath=beneath, tucked=tucked_placeholders(tucked))
    face_down = text.startswith("~")
    body = text[1:] if face_down else text
    if body.startswith(("*", "~")):
        raise TokenError("table/malformed-token",
                         f"{text!r}: '~' is written once, before a book card or an artifact "
                         "(~*artifact-id)")
    if "+" in body:
        top, _, under = body.partition("+")
        if under.startswith(("~", "*")) or not top:
            raise TokenError("table/malformed-token",
                             f"{text!r}: an entombed stack is two book cards, TOP+BENEATH "
                             "(the card beneath is face down without a '~')")
        return Slot(parse_book(top), face_down=face_down, beneath=parse_book(under))
    return Slot(parse_book(body), face_down=face_down)


def tucked_placeholders(n: int) -> tuple[Card, ...]:
    """Stand-ins for ``n`` tucked cards: a table counts them but does not name them."""
    return tuple(BookCard("?", i + 1, ()) for i in range(n))


# ------------------------------------------------------------------ loading
def load_table(path: str | Path) -> tuple[Table, ScoringRules]:
    """Read and check a table file; raises UserInputError listing every problem."""
    return parse_table(load_yaml_file(path))


def parse_table_text(text: str, filename: str = "<table>") -> tuple[Table, ScoringRules]:
    return parse_table(load_yaml_text(text, filename))


def parse_table(loaded: LoadedYaml) -> tuple[Table, ScoringRules]:
    """A checked Table and its ScoringRules from loaded YAML."""
    return _TableReader(loaded).read()


def known_variants() -> tuple[str, ...]:
    """Variant ids a table may name: the built-in ones and every ``rules/<id>.yaml``."""
    from exlibris.scoring.artifacts import own_entries

    folder = paths.rules_dir()
    found = {p.stem for p in folder.glob("*.yaml")} if folder.is_dir() else set()
    return tuple(sorted(found | set(BUILTIN_VARIANTS) | set(own_entries("variant"))))


def variant_scoring(variant: str) -> tuple[dict[str, Any], dict[str, LoadedYaml]]:
    """The ``settings.scoring`` mapping of ``rules/<variant>.yaml``, merged down its
    ``extends`` chain, and for each top-level key the file that set it last.

    A variant without a rules file (``standard`` or ``solo`` before they exist) has
    no overrides.
    """
    merged: dict[str, Any] = {}
    where: dict[str, LoadedYaml] = {}
    for loaded in _variant_chain(variant):
        scoring = _settings(loaded).get("scoring")
        if isinstance(scoring, dict):
            merged = merge(merged, scoring)
            where.update(dict.fromkeys(scoring, loaded))
    return merged, where


def variant_modules(variant: str) -> frozenset[str] | None:
    """The modules ``settings.modules`` gives the variant (the last file of its
    ``extends`` chain to set them), read as ``variant_scoring`` reads its chain, without
    loading the catalog; None when no file of the chain says (not known)."""
    modules = None
    for loaded in _variant_chain(variant):
        value = _settings(loaded).get("modules")
        if isinstance(value, list):
            modules = frozenset(str(m) for m in value)
    return modules


def variant_house_scores(variant: str) -> tuple[Any, ...]:
    """The end-of-game scores of the abilities the variant's chain gives every player
    (``abilities:`` of each rules file, the most basic first), compiled: the house
    rules line, as the game scores it (``engine/house_rules.py``)."""
    from exlibris.scoring.artifacts import compile_score_source

    found = []
    for loaded in _variant_chain(variant):
        abilities = loaded.data.get("abilities")
        for i, ability in enumerate(abilities if isinstance(abilities, list) else []):
            if isinstance(ability, dict) and isinstance(ability.get("score"), str):
                found.append(compile_score_source(loaded, ability["score"],
                                                  ("abilities", i, "score")))
    return tuple(found)


def _settings(loaded: LoadedYaml) -> dict[str, Any]:
    block = loaded.data.get("settings")
    return block if isinstance(block, dict) else {}


def _variant_chain(variant: str) -> list[LoadedYaml]:
    """The rules files of ``variant``'s ``extends`` chain, the most basic first (a
    missing file ends its branch of the chain; a cycle: the variant's file alone)."""
    from exlibris.scoring.artifacts import own_entries

    own = own_entries("variant")
    files: dict[str, LoadedYaml | None] = {}

    def read(name: str) -> LoadedYaml | None:
        if name not in files:
            path = own.get(name) or paths.rules_dir() / f"{name}.yaml"
            loaded = load_yaml_file(path) if path.is_file() else None
            files[name] = loaded if loaded is not None and isinstance(loaded.data, dict) \
                else None
        return files[name]

    def parents(name: str) -> list[str]:
        loaded = read(name)
        return parents_of(loaded.data.get("extends")) if loaded is not None else []

    try:
        order = linearize(variant, parents)
    except ChainError:  # ``validate`` reports it; score by the file alone
        order = [variant]
    return [loaded for name in order if (loaded := read(name)) is not None]


@dataclass
class _TableReader:
    loaded: LoadedYaml
    problems: list[Problem] = field(default_factory=list)
    seen: dict[tuple[str, ...], tuple[int, int, str]] = field(default_factory=dict)
    artifacts: tuple[str, ...] = field(default_factory=known_artifact_ids)
    aliases: dict[str, str] = field(default_factory=artifact_aliases)
    origins: dict[YamlPath, dict[Pos, tuple[int, int]]] = field(default_factory=dict)

    # -- reporting
    def fail(self, path: YamlPath, code: str, message: str) -> None:
        self.problems.append(self.loaded.problem(path, code, message))

    def fail_at(self, line: int, col: int, code: str, message: str) -> None:
        self.problems.append(Problem(self.loaded.filename, line, col, code, message))

    # -- the whole table
    def read(self) -> tuple[Table, ScoringRules]:
        data = self.loaded.data
        if not isinstance(data, dict):
            self.fail((), "table/not-a-mapping",
                      "a table file is a mapping with players, prominent and banned")
            raise UserInputError(self.problems)
        self.check_fields(data, (), _TOP_FIELDS)
        raw_players = data.get("players")
        count = len(raw_players) if isinstance(raw_players, list) else 0
        variant = self.read_variant(data)
        solo = variant == "solo" or count == 1
        rules = self.read_rules(variant, 1 if solo else count)
        prominent = self.read_category(data, ("prominent",), required=True)
        banned = self.read_banned(data, rules) if solo or 2 <= count <= MAX_PLAYERS else None
        if prominent is not None and prominent == banned:
            self.fail(("banned",), "table/same-category",
                      "the prominent and banned categories must differ")
        players = self.read_players(data, solo)
        difficulty, library = 0, None
        if solo:
            difficulty = self.read_difficulty(data, rules)
            library = self.read_library(data)
        else:
            for key in ("difficulty", "public-library"):
                if key in data:
                    self.fail((key,), "table/solo-only", f"{key} belongs to solo tables only")
        if self.problems:
            raise UserInputError(self.problems)
        table = Table(tuple(players), prominent or "", banned, variant, difficulty, library)
        return table, rules

    def check_fields(self, data: dict[str, Any], path: YamlPath, known: tuple[str, ...]) -> None:
        for key in data:
            if key not in known:
                self.fail_at(*self.key_position((*path, key)), "table/unknown-field",
                             f"unknown field {key!r}{suggest(key, known)}; expected "
                             f"{', '.join(known)}")

    def key_position(self, path: YamlPath) -> tuple[int, int]:
        """Where the key of ``path`` is written: on its value's line or the nearest above."""
        line, col = self.loaded.position(path)
        lines = self.loaded.text.splitlines()
        key = str(path[-1])
        for number in range(min(line, len(lines)), 0, -1):
            text = lines[number - 1] if number < line else lines[number - 1][:col - 1]
            found = text.rfind(f"{key}:")
            if found >= 0:
                return number, found + 1
        return line, col

    def read_variant(self, data: dict[str, Any]) -> str:
        variant = data.get("variant", "standard")
        known = known_variants()
        if not isinstance(variant, str) or variant not in known:
            self.fail(("variant",), "table/unknown-variant",
                      f"unknown variant {variant!r}{suggest(str(variant), known)}; "
                      f"known variants: {', '.join(known)}")
            return "standard"
        return variant

    def read_rules(self, variant: str, players: int) -> ScoringRules:
        settings: dict[str, Any] = {}
        try:
            settings, where = variant_scoring(variant)
        except UserInputError as exc:
            self.problems.extend(exc.problems)
            return ScoringRules.for_players(max(players, 1))
        try:
            rules = ScoringRules.for_players(max(players, 1), settings)
            house = variant_house_scores(variant)
            return replace(rules, house_scores=house) if house else rules
        except UserInputError as exc:  # a variant's score the language refuses
            self.problems.extend(exc.problems)
            return ScoringRules.for_players(max(players, 1))
        except SettingsError as exc:
            loaded = where.get(exc.key[0] if exc.key else "")
            if loaded is None:
                raise
            self.problems.append(loaded.problem(("settings", "scoring", *exc.key),
                                                "table/bad-settings", str(exc)))
            return ScoringRules.for_players(max(players, 1))

    def read_category(self, data: dict[str, Any], path: YamlPath, *, required: bool) -> str | None:
        key = path[-1]
        value = data.get(key)  # type: ignore[call-overload]
        if value is None:
            if required:
                self.fail(path, "table/missing-field", f"missing field {key!r}: a category id "
                          "or its one-letter code")
            return None
        code = category_code(value)
        if code is None:
            choices = [*CATEGORY_IDS.values(), *CATEGORY_CODES]
            self.fail(path, "table/unknown-category",
                      f"unknown category {value!r}{suggest(str(value), choices)}; "
                      f"use an id ({', '.join(CATEGORY_IDS.values())}) or a code "
                      f"({', '.join(CATEGORY_CODES)})")
        return code

    def read_banned(self, data: dict[str, Any], rules: ScoringRules) -> str | None:
        needed = rules.banned_books or not rules.variety_all_six
        if needed:
            return self.read_category(data, ("banned",), required=True)
        if data.get("banned") is not None:
            self.fail(("banned",), "table/banned-not-used",
                      f"a table of {rules.players} players has no banned category under these "
                      "rules; leave banned out or null")
        return None

    # -- players
    def read_players(self, data: dict[str, Any], solo: bool) -> list[PlayerTable]:
        raw = data.get("players")
        if raw is None:
            self.fail(("players",), "table/missing-field", "missing field 'players'")
            return []
        if not isinstance(raw, list):
            self.fail(("players",), "table/wrong-type", "players must be a list")
            return []
        if solo and len(raw) != 1:
            self.fail(("players",), "table/player-count",
                      f"a solo table has exactly one player, not {len(raw)}")
        elif not solo and not 2 <= len(raw) <= MAX_PLAYERS:
            self.fail(("players",), "table/player-count",
                      f"a table has 2 to {MAX_PLAYERS} players (or one, for solo), not {len(raw)}")
        players: list[PlayerTable] = []
        names: set[str] = set()
        for i, entry in enumerate(raw):
            player = self.read_player(entry, ("players", i))
            if player is None:
                continue
            if player.name in names:
                self.fail(("players", i, "name"), "table/duplicate-name",
                          f"two players are named {player.name!r}")
            names.add(player.name)
            players.append(player)
        return players

    def read_player(self, entry: Any, path: YamlPath) -> PlayerTable | None:
        if not isinstance(entry, dict):
            self.fail(path, "table/wrong-type", "a player is a mapping with name, focus, "
                      "hand and shelf")
            return None
        self.check_fields(entry, path, _PLAYER_FIELDS)
        name = entry.get("name")
        if name is None:
            self.fail(path, "table/missing-field", "missing field 'name'")
        elif not isinstance(name, str) or not name.strip():
            self.fail((*path, "name"), "table/wrong-type", "a player's name is text")
            name = None
        focus = self.read_category(entry, (*path, "focus"), required=True)
        hand = self.read_hand(entry.get("hand", 0), (*path, "hand"), name or f"player {path[1]}")
        shelf = self.read_shelf(entry, (*path, "shelf"), name or f"player {path[1]}")
        assistants = self.read_assistants(entry, (*path, "assistants"))
        if name is None or focus is None or hand is None or shelf is None:
            return None
        return PlayerTable(name, focus, shelf, hand, self.origins.pop(path, {}), assistants)

    def read_assistants(self, entry: dict[str, Any], path: YamlPath) -> tuple[str, ...] | None:
        """The optional list of special assistant ids (docs/table-format-extensions.md)."""
        if "assistants" not in entry:
            return None
        value = entry["assistants"]
        if value is None:
            return ()
        if not isinstance(value, list):
            self.fail(path, "table/wrong-type", "assistants is a list of special assistant "
                      "ids, e.g. [owl-collector]")
            return None
        known = known_assistant_ids()
        found: list[str] = []
        for i, aid in enumerate(value):
            if not isinstance(aid, str) or aid not in known:
                self.fail((*path, i), "table/unknown-assistant",
                          f"unknown special assistant {aid!r}{suggest(str(aid), known)}")
            elif aid in found:
                self.fail((*path, i), "table/duplicate-assistant",
                          f"{aid!r} is listed twice; each assistant has one token")
            else:
                found.append(aid)
        return tuple(found)

    def read_hand(self, value: Any, path: YamlPath, owner: str) -> int | None:
        if isinstance(value, bool) or not isinstance(value, int | list):
            self.fail(path, "table/bad-hand",
                      f"hand is a count of cards or a list of card tokens, not {value!r}")
            return None
        if isinstance(value, int):
            if not 0 <= value <= MAX_HAND:
                self.fail(path, "table/bad-hand", f"hand is a count from 0 to {MAX_HAND}")
                return None
            return value
        ok = True
        for i, token in enumerate(value):
            item = (*path, i)
            if not isinstance(token, str):
                self.fail(item, "table/bad-hand", f"a hand card is a card token, not {token!r}")
                ok = False
                continue
            try:
                if token.startswith("*"):
                    card, _ = parse_artifact(token, self.artifacts, self.aliases)
                else:
                    card = parse_book(token)
            except TokenError as exc:
                self.fail(item, exc.code, str(exc))
                ok = False
                continue
            line, col = self.loaded.content_position(item)
            self.note_card(card, line, col, f"{owner}'s hand")
        return len(value) if ok else None

    def note_card(self, card: Card, line: int, col: int, where: str) -> None:
        """Report a card seen twice in the table."""
        key = ("*", card.artifact_id) if isinstance(card, ArtifactCard) else (
            card.letter, str(card.order))
        if key in self.seen:
            first_line, first_col, first_where = self.seen[key]
            self.fail_at(line, col, "table/duplicate-card",
                         f"{card.name} appears twice: also in {first_where} at line {first_line}, "
                         f"column {first_col}")
        else:
            self.seen[key] = (line, col, where)

    # -- shelves
    def shelf_rows(self, value: Any, path: YamlPath) -> list[tuple[str, int, int]] | None:
        """The rows of a shelf value, each with the (line, col) of its first character."""
        if isinstance(value, str):
            line, col = self.loaded.position(path)
            source = self.loaded.text.splitlines()[line - 1][col - 1:] if line else ""
            block = source.startswith(("|", ">"))
            cline, ccol = self.loaded.content_position(path)
            lines = value.split("\n")
            while lines and not lines[0].strip():
                lines.pop(0)
            while lines and not lines[-1].strip():
                lines.pop()
            return [(text, cline + k if block else cline, ccol) for k, text in enumerate(lines)]
        if isinstance(value, list):
            rows = []
            for k, row in enumerate(value):
                if not isinstance(row, str):
                    self.fail((*path, k), "table/wrong-type", "each shelf row is a string of cells")
                    return None
                rows.append((row, *self.loaded.content_position((*path, k))))
            return rows
        self.fail(path, "table/wrong-type", "shelf is a block of rows or a list of row strings")
        return None

    def read_shelf(self, entry: dict[str, Any], path: YamlPath, owner: str) -> Shelf | None:
        if entry.get("shelf") is None:
            self.fail(path[:-1], "table/missing-field", "missing field 'shelf'")
            return None
        rows = self.shelf_rows(entry["shelf"], path)
        if rows is None:
            return None
        if not rows:
            self.fail(path, "table/empty-shelf", f"{owner}'s shelf has no rows; write '.' for an "
                      "empty shelf")
            return None
        if len(rows) > MAX_ROWS:
            _, line, col = rows[MAX_ROWS]
            self.fail_at(line, col, "table/too-many-rows",
                         f"{owner}'s shelf has {len(rows)} rows; a shelf has at most {MAX_ROWS}")
            return None
        ok = True
        width = None
        slots: dict[Pos, Slot] = {}
        origins: dict[Pos, tuple[int, int]] = {}
        for r, (text, line, col) in enumerate(rows):
            cells = list(_CELL.finditer(text))
            if width is None:
                width = len(cells)
            elif len(cells) != width:
                self.fail_at(line, col, "table/ragged-rows",
                             f"row {r + 1} of {owner}'s shelf has {len(cells)} cells, row 1 has "
                             f"{width}; pad with '.' so every row has the same number")
                ok = False
                continue
            for c, match in enumerate(cells):
                cell_col = col + match.start()
                try:
                    slot = parse_cell(match.group(), self.artifacts, self.aliases)
                except TokenError as exc:
                    self.fail_at(line, cell_col, exc.code, f"{owner}'s shelf: {exc}")
                    ok = False
                    continue
                if slot is None:
                    continue
                slots[(r, c)] = slot
                origins[(r, c)] = (line, cell_col)
                self.note_card(slot.card, line, cell_col, f"{owner}'s shelf")
                if slot.beneath is not None:
                    self.note_card(slot.beneath, line, cell_col, f"{owner}'s shelf")
        if not ok:
            return None
        groups = components(slots)
        if len(groups) > 1:
            stray = groups[1][0]
            line, col = origins[stray]
            self.fail_at(line, col, "table/disconnected-shelf",
                         f"{owner}'s shelf is not one connected group: "
                         f"{slots[stray].card.name} does not touch "
                         f"{slots[groups[0][0]].card.name}'s group along an edge")
            return None
        self.origins[path[:-1]] = origins
        return Shelf.from_slots(slots, check=False)

    # -- solo
    def read_difficulty(self, data: dict[str, Any], rules: ScoringRules) -> int:
        value = data.get("difficulty")
        if value is None:
            self.fail(("difficulty",), "table/missing-field",
                      "a solo table needs difficulty (beginner .. impossible, or 1 to 7)")
            return 0
        level = rules.difficulty_level(value) if isinstance(value, str | int) else None
        if level is None:
            names = [name for name, _ in rules.difficulty]
            self.fail(("difficulty",), "table/bad-difficulty",
                      f"unknown difficulty {value!r}{suggest(str(value), names)}; use "
                      f"{', '.join(names)} or a level "
                      f"{min(v for _, v in rules.difficulty)} to "
                      f"{max(v for _, v in rules.difficulty)}")
            return 0
        return level

    def read_library(self, data: dict[str, Any]) -> PublicLibrary | None:
        path: YamlPath = ("public-library",)
        raw = data.get("public-library")
        if raw is None:
            self.fail(path, "table/missing-public-library",
                      "a solo table needs public-library (its focus and the discard pile)")
            return None
        if not isinstance(raw, dict):
            self.fail(path, "table/wrong-type", "public-library is a mapping")
            return None
        self.check_fields(raw, path, _LIBRARY_FIELDS)
        focus = self.read_category(raw, (*path, "focus"), required=True)
        cards = self.read_library_cards(raw.get("cards"), (*path, "cards"))
        counts = []
        for key in ("volunteers", "artifacts"):
            value = raw.get(key, 0)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_HAND:
                self.fail((*path, key), "table/bad-count",
                          f"{key} is a count of cards (0 to {MAX_HAND}), not {value!r}")
                value = 0
            counts.append(value)
        if focus is None or cards is None:
            return None
        return PublicLibrary(focus, cards, counts[0], counts[1])

    def read_library_cards(self, value: Any, path: YamlPath) -> tuple[BookCard, ...] | None:
        if value is None:
            self.fail(path, "table/missing-field",
                      "missing field 'cards': the public library's discard pile")
            return None
        if not isinstance(value, list):
            self.fail(path, "table/wrong-type", "cards is a list of book card tokens")
            return None
        cards = []
        for i, token in enumerate(value):
            item = (*path, i)
            try:
                if not isinstance(token, str):
                    raise TokenError("table/malformed-token", f"{token!r} is not a card token")
                card = parse_book(token)
            except TokenError as exc:
                self.fail(item, exc.code, f"public library: {exc}")
                continue
            line, col = self.loaded.content_position(item)
            self.note_card(card, line, col, "the public library")
            cards.append(card)
        return tuple(cards)
