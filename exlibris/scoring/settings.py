"""Every number and ruling the inspection form uses, in one frozen value.

The steps in :mod:`exlibris.scoring.steps` read these fields and hard-code none of
them. A variant changes them through the ``scoring:`` mapping of its rules file.

The keys of the ``scoring:`` mapping are listed on :class:`ScoringRules`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

TIEBREAKERS = ("books", "hand", "banned")
"""Most books on the shelf, fewest cards in hand, fewest banned books (SCORE-TIE-1)."""

DIFFICULTY_LEVELS: tuple[tuple[str, int], ...] = (
    ("beginner", 1),
    ("easy", 2),
    ("challenging", 3),
    ("difficult", 4),
    ("very-difficult", 5),
    ("nigh-impossible", 6),
    ("impossible", 7),
)

_FIVE_PLAYERS: dict[str, Any] = {
    "awards": [15, 10, 6, 3],
    "banned_books": False,
    "variety_per_book": 4,
}
_SOLO: dict[str, Any] = {"awards": [15]}
_SECTIONS = ("five_players", "solo")


class SettingsError(ValueError):
    """A ``scoring:`` mapping with an unknown key or a value of the wrong kind."""

    def __init__(self, key: tuple[str, ...], message: str) -> None:
        super().__init__(message)
        self.key = key


@dataclass(frozen=True, slots=True)
class ScoringRules:
    """The scoring rules for one table, resolved for its player count.

    Keys of the ``scoring:`` mapping (all optional; defaults are the rulebooks'):

    ``awards``                 Prominent Works awards, first place first (``[15, 9, 4]``).
    ``banned_books``           whether a banned category is dealt and penalised (true).
    ``banned_per_book``        points per banned book, zero or negative (-1).
    ``variety_per_book``       points per book of the smallest tally (3).
    ``variety_all_six``        five-player reading of EXP-5P-04: with no banned category,
                               variety takes all six tallies (true); false makes a
                               five-player table name a banned category that only
                               variety ignores.
    ``focus_per_book``         points per book of the player's focus (2).
    ``entombed_per_card``      the Mummy's points per entombed card (2).
    ``entombed_to_holder``     EXP-TEMP-05: where a table names each player's special
                               assistants, entombed points go only to a player holding
                               an assistant that scores them (true); false scores every
                               entombed stack for the shelf it is in.
    ``min_rectangle``          ``[width, height]`` of the smallest stable rectangle ([2, 2]).
    ``prominent_needs_a_book`` clause SCORE-B2-5: true denies an award to a player with
                               no book of the prominent category (false).
    ``public_library_wins_ties`` solo: the public library takes tied awards (true).
    ``difficulty``             solo difficulty names to levels (beginner 1 .. impossible 7).
    ``tiebreakers``            order of tiebreakers among ``books``, ``hand``, ``banned``.
    ``category_bonus``         points for each book of a category, by its code or id
                               (``{S: 1}``: one more point a spellbook; -10 to 10),
                               counted after A1 on the house rules line.
    ``five_players``           a mapping of the keys above that applies at five players.
    ``solo``                   a mapping of the keys above that applies to solo tables.

    A key at the top level applies at every player count unless the five-player or
    solo changes set it again: first the built-in ones (awards, no banned books,
    variety x4 at five; one award in solo), then the mapping's own section.
    """

    players: int = 2
    awards: tuple[int, ...] = (15, 9, 4)
    banned_books: bool = True
    banned_per_book: int = -1
    variety_per_book: int = 3
    variety_all_six: bool = True
    focus_per_book: int = 2
    entombed_per_card: int = 2
    entombed_to_holder: bool = True
    min_rectangle: tuple[int, int] = (2, 2)
    prominent_needs_a_book: bool = False
    public_library_wins_ties: bool = True
    difficulty: tuple[tuple[str, int], ...] = DIFFICULTY_LEVELS
    tiebreakers: tuple[str, ...] = TIEBREAKERS
    category_bonus: tuple[tuple[str, int], ...] = ()
    # the end-of-game scores of the variant's own abilities (``abilities:`` of its rules
    # file), compiled: every player scores each on the house rules line. Set by the
    # game or the table reader, never by a ``scoring:`` mapping (``SETTABLE``).
    house_scores: tuple[Any, ...] = ()

    @property
    def solo(self) -> bool:
        return self.players == 1

    @property
    def has_house_line(self) -> bool:
        """The variant scores something of its own (the house rules line)."""
        return bool(self.category_bonus or self.house_scores)

    @classmethod
    def for_players(cls, n: int, settings: Mapping[str, Any] | None = None) -> ScoringRules:
        """The rules for a table of ``n`` players (1 = solo), with optional overrides."""
        return cls.from_settings(settings or {}, players=n)

    @classmethod
    def from_settings(cls, mapping: Mapping[str, Any], *, players: int = 2) -> ScoringRules:
        """Rules from a ``scoring:`` mapping, resolved for ``players`` players.

        Later layers win: the rulebook defaults, the mapping's top level, the
        built-in five-player or solo changes, then the mapping's ``five_players`` or
        ``solo`` section.
        """
        if not isinstance(mapping, Mapping):
            raise SettingsError((), "the scoring settings must be a mapping")
        rules = cls(players=players)
        section = "five_players" if players == 5 else "solo" if players == 1 else None
        builtin = {"five_players": _FIVE_PLAYERS, "solo": _SOLO}
        rules = rules._apply({k: v for k, v in mapping.items() if k not in _SECTIONS}, ())
        if section:
            rules = rules._apply(builtin[section], ())
        for name in _SECTIONS:
            sub = mapping.get(name)
            if sub is None:
                continue
            if not isinstance(sub, Mapping):
                raise SettingsError((name,), f"scoring.{name} must be a mapping")
            layered = rules._apply(sub, (name,))  # checks every section, used or not
            if name == section:
                rules = layered
        return rules

    def _apply(self, mapping: Mapping[str, Any], where: tuple[str, ...]) -> ScoringRules:
        changes: dict[str, Any] = {}
        known = set(SETTABLE)
        for key, value in mapping.items():
            path = (*where, key)
            if key not in known:
                raise SettingsError(path, f"unknown scoring setting {'.'.join(path)!r}; "
                                    f"known: {', '.join(sorted(known | set(_SECTIONS)))}")
            changes[key] = _convert(key, value, path)
        return replace(self, **changes)

    def difficulty_level(self, value: str | int) -> int | None:
        """The level of a difficulty name or number, or None if it is not one."""
        if isinstance(value, bool):
            return None
        if isinstance(value, int):
            levels = {level for _, level in self.difficulty}
            return value if value in levels else None
        return dict(self.difficulty).get(str(value).strip().lower().replace(" ", "-"))

    def award_for(self, place: int) -> int:
        """The award of a 0-based place (0 beyond the printed places)."""
        return self.awards[place] if place < len(self.awards) else 0


def _convert(key: str, value: Any, path: tuple[str, ...]) -> Any:
    name = ".".join(path)

    def fail(kind: str) -> SettingsError:
        return SettingsError(path, f"scoring setting {name!r} must be {kind}, not {value!r}")

    if key in ("banned_books", "variety_all_six", "prominent_needs_a_book",
               "public_library_wins_ties", "entombed_to_holder"):
        if not isinstance(value, bool):
            raise fail("true or false")
        return value
    if key in ("banned_per_book", "variety_per_book", "focus_per_book", "entombed_per_card"):
        if isinstance(value, bool) or not isinstance(value, int):
            raise fail("a whole number")
        if key == "banned_per_book" and value > 0:
            raise fail("zero or negative")
        return value
    if key == "awards":
        if (not isinstance(value, list) or not value
                or any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in value)):
            raise fail("a list of whole numbers, first place first")
        return tuple(value)
    if key == "min_rectangle":
        if (not isinstance(value, list) or len(value) != 2
                or any(isinstance(v, bool) or not isinstance(v, int) or v < 1 for v in value)):
            raise fail("[width, height]")
        return (value[0], value[1])
    if key == "difficulty":
        if not isinstance(value, Mapping) or not all(
            isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
            for k, v in value.items()
        ):
            raise fail("a mapping of names to levels")
        return tuple((k, v) for k, v in value.items())
    if key == "category_bonus":
        from exlibris.scoring.categories import CATEGORY_IDS

        codes = {**{code: code for code in CATEGORY_IDS},
                 **{cid: code for code, cid in CATEGORY_IDS.items()}}
        if not isinstance(value, Mapping) or any(
                k not in codes or isinstance(v, bool) or not isinstance(v, int)
                or not -10 <= v <= 10 for k, v in value.items()):
            raise fail("a mapping of categories (a code letter such as S, or an id such "
                       "as spellbooks) to points from -10 to 10")
        return tuple((codes[k], v) for k, v in value.items())
    if key == "tiebreakers":
        if not isinstance(value, list) or any(v not in TIEBREAKERS for v in value):
            raise fail(f"a list drawn from {', '.join(TIEBREAKERS)}")
        return tuple(value)
    raise fail("known")  # pragma: no cover - every field is handled above


SETTABLE = tuple(f.name for f in fields(ScoringRules) if f.name not in ("players",
                                                                       "house_scores"))
"""The keys a ``scoring:`` mapping may set."""
