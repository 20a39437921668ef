"""Game modes and variants (``rules/*.yaml``): small overlays on one base.

A variant names the variant it ``extends`` and only the settings it changes;
``resolve_settings`` merges the chain down to ``standard`` and validates the
result against ``Settings``, so every number of the rules lives in ``rules/``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Optional, get_args

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, create_model

from exlibris.limits import MAX_GAME_ROUNDS, MAX_SEATS, MIN_SEATS
from exlibris.model.content import Ability, Module, Slug, Text
from exlibris.model.merging import parents_of

# validators are built on first use: a game builds its models from trusted data
# without them (``model/construct.py``)
_CONFIG = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class _Strict(BaseModel):
    model_config = _CONFIG


class SetupSettings(_Strict):
    """Setup: hands, assistants, libraries, locations."""

    hand_size: StrictInt = Field(ge=0, le=20)
    prominent_categories: StrictInt = Field(
        default=1, ge=1, le=2, description="Prominent categories on the town board; with "
        "2, Prominent Works is awarded for each (not in solo).")
    hand_draft: StrictBool = Field(
        default=False, description="Starting hands are drafted: each player is dealt "
        "hand_size cards, keeps one and passes the rest to the next seat, until all are "
        "kept.")
    standard_assistants: StrictInt = Field(ge=0, le=6)
    special_assistant: StrictBool = Field(
        description="Each player gets their library's assistant.")
    libraries_dealt: StrictInt = Field(ge=1, le=4,
                                       description="Library tiles dealt to each player.")
    basic_library_side: StrictBool = Field(description="Libraries are played on their basic side.")
    starting_locations: list[Slug] = Field(description="In play from round 1 outside the count.")
    remove_locations: list[Slug] = Field(default_factory=list)
    remove_libraries: list[Slug] = Field(default_factory=list)
    assistant_edition: Literal["base", "expanded"] = "base"


class FinalRoundSettings(_Strict):
    """When the final round is triggered, by player count."""

    shelf_cards: dict[int, StrictInt] = Field(
        description="Shelf cards that trigger the final round.")
    rounds: StrictInt | None = Field(
        default=None, ge=1, le=MAX_GAME_ROUNDS,
        description=f"A fixed number of rounds (solo), 1 to {MAX_GAME_ROUNDS}.")
    or_shelf_trigger: StrictBool = Field(
        default=False, description="With 'rounds': the shelf cards also start the final "
        "round, whichever comes first.")
    count_entombed: StrictBool = Field(description="Entombed cards count toward the trigger.")


class SoloSettings(_Strict):
    """Solo mode: difficulty and the shrinking row of locations."""

    difficulty: StrictInt = Field(ge=1, le=7, description="Cards discarded each round (1 to 7).")
    locations_in_play: StrictInt = Field(ge=1, le=18)
    locations_eliminated: StrictInt = Field(ge=0, le=18)
    locations_drawn: StrictInt = Field(default=1, ge=0, le=18,
                                 description="Tiles drawn from the stack at each cleanup.")
    reveal_hidden_categories_in_rounds: list[StrictInt]
    locations: list[Slug] | None = Field(
        default=None, description="The solo tiles; null: those whose content says solo.")
    libraries: list[Slug] | None = Field(
        default=None, description="The solo libraries; null: those whose content says solo.")
    blocked_bids: list[StrictInt] = Field(
        default_factory=list, description="Auction bid spaces a neutral assistant blocks.")
    leftovers_to_public_library: StrictBool = Field(
        default=False, description="What an auction display keeps goes to the discard pile.")


class Settings(_Strict):
    """Every number and ruling a game needs; ``rules/standard.yaml`` sets them all."""

    players: list[Annotated[StrictInt, Field(ge=MIN_SEATS, le=MAX_SEATS)]] = Field(
        min_length=1, max_length=MAX_SEATS,
        description=f"Player counts the variant plays ({MIN_SEATS} to {MAX_SEATS}).")
    modules: list[Module] = Field(default_factory=list)
    setup: SetupSettings
    final_round: FinalRoundSettings
    scoring: dict[str, Any] = Field(description="Numbers of the inspection form (see "
                                    "exlibris/scoring/settings.py).")
    rulings: dict[str, StrictBool | int | str] = Field(
        description="Readings of ambiguous rules that a group may change (docs/rulings.md)."
    )
    solo: SoloSettings | None = None
    max_steps: StrictInt = Field(
        ge=10_000, le=1_000_000, description="Step budget of one effect: 10,000 or more "
        "(the shipped content is played at 10,000; fewer could stop it).")
    abilities: list[Ability] = Field(
        default_factory=list, description="Abilities every player has (a variant's "
        "'abilities:', those of the rules it extends first).")


# ---- what a variant may write: every setting optional, every value typed ----------------

Count = Annotated[StrictInt, Field(ge=0)]


class Rulings(BaseModel):
    """The rulings of ``rules/standard.yaml`` with their allowed values (docs/rulings.md).
    A ruling added to the standard rules later is accepted as a plain value."""

    model_config = ConfigDict(extra="allow", frozen=True, defer_build=True)

    deck_runs_out: Literal["no-reshuffle", "reshuffle"] | None = Field(
        default=None, description="SETUP-14: an empty deck stays empty, or is reshuffled.")
    empty_deck_ends_game: StrictBool | None = Field(
        default=None, description="SETUP-14: an empty deck at cleanup starts the final round.")
    removal_may_split: StrictBool | None = Field(
        default=None, description="SHELF-14: a removal may split the shelf.")
    first_player_takes_effect: Literal["next-round", "immediately"] | None = Field(
        default=None, description="LOC-01-6: when a new first player takes over.")
    diviner_counts: Literal["distinct-assistants", "placements"] | None = Field(
        default=None, description="LOC-01-5: what the Diviner's Hut counts.")
    mystery_shack_takes: Literal["any", "all"] | None = Field(
        default=None, description="LOC-13-5: what the Mystery Shack takes.")
    guild_move_is_visit: StrictBool | None = Field(
        default=None, description="LOC-15-6: an assistant moved by the Guild arrives as if "
        "placed.")
    tax_collector_own_discards: Literal["discard-pile", "area"] | None = Field(
        default=None, description="LOC-16-5: where the Tax Collector's own discards go.")
    home_actions_order: Literal["player-chooses", "draw-first"] | None = Field(
        default=None, description="HOME-06: the order of both home actions.")


_SCORING_TYPES: dict[str, Any] = {
    "awards": Annotated[list[Count], Field(min_length=1, description="First place first.")],
    "banned_books": StrictBool,
    "banned_per_book": Annotated[StrictInt, Field(le=0)],
    "variety_per_book": StrictInt,
    "variety_all_six": StrictBool,
    "focus_per_book": StrictInt,
    "entombed_per_card": StrictInt,
    "min_rectangle": Annotated[list[Annotated[StrictInt, Field(ge=1)]],
                               Field(min_length=2, max_length=2,
                                     description="[width, height]")],
    "prominent_needs_a_book": StrictBool,
    "public_library_wins_ties": StrictBool,
    "difficulty": dict[str, Annotated[StrictInt, Field(ge=1, le=7)]],  # SOLO-09: 1 to 7 cards
    "tiebreakers": list[Literal["books", "hand", "banned"]],
    "category_bonus": Annotated[dict[str, Annotated[StrictInt, Field(ge=-10, le=10)]], Field(
        description="Points for each book of a category (by code letter or id), -10 to 10.")],
}


def _scoring_model(name: str, sections: bool) -> type[BaseModel]:
    """The ``scoring:`` mapping: the keys of ``ScoringRules`` (exlibris/scoring/settings.py)."""
    from exlibris.scoring.settings import SETTABLE

    keys = list(SETTABLE)
    spec: dict[str, Any] = {k: (Optional[_SCORING_TYPES.get(k, Any)], None)  # noqa: UP045
                            for k in keys}
    if sections:
        section = _scoring_model("ScoringSection", sections=False)
        spec["five_players"] = (Optional[section], None)  # noqa: UP045
        spec["solo"] = (Optional[section], None)  # noqa: UP045
    return create_model(name, __config__=_CONFIG, **spec)


ScoringSettings = _scoring_model("ScoringSettings", sections=True)


def _unoptional(annotation: Any) -> Any:
    """``X`` for ``X | None``; any other annotation as it is."""
    args = [a for a in get_args(annotation) if a is not type(None)]
    return args[0] if len(args) == 1 and type(None) in get_args(annotation) else annotation


# Settings a variant does not write under ``settings:`` (its abilities are a list of
# their own at the top of the file, added to those of the rules it extends).
_NOT_OVERLAID = frozenset({"abilities"})


def _partial(model: type[BaseModel], name: str) -> type[BaseModel]:
    """``model`` with every field optional (a variant names only what it changes)."""
    spec: dict[str, Any] = {}
    for field_name, info in model.model_fields.items():
        if field_name in _NOT_OVERLAID:
            continue
        annotation = _unoptional(info.annotation)  # ``solo: SoloSettings | None``
        if (isinstance(annotation, type) and issubclass(annotation, BaseModel)
                and annotation not in (Rulings, ScoringSettings)):  # already all optional
            annotation = _partial(annotation, f"Partial{annotation.__name__}")
        copied = type(info).merge_field_infos(info, default=None)
        copied.default_factory = None
        spec[field_name] = (Optional[annotation], copied)  # noqa: UP045
    return create_model(name, __config__=_CONFIG, **spec)


VariantSettings = _partial(
    create_model("_AllSettings", __base__=Settings, scoring=(ScoringSettings, ...),
                 rulings=(Rulings, ...)), "VariantSettings")
VariantSettings.__doc__ = ("The settings a variant changes; each is optional and typed "
                           "(rules/standard.yaml sets them all).")


class Variant(_Strict):
    """A rules file: a game mode or a variant of one."""

    kind: Literal["variant"]
    id: Slug
    name: str
    extends: Slug | list[Slug] | None = Field(
        default=None, description="The rules this variant changes (standard, beginner...): "
        "one id, or a list whose later entries win; only rules/standard.yaml has none.")
    text: Text
    settings: VariantSettings = Field(  # type: ignore[valid-type]
        default_factory=VariantSettings)
    abilities: list[Ability] = Field(
        default_factory=list, description="Rules for everyone: abilities every player has, "
        "written as a special assistant's are (a trigger and an effect, placement rules, "
        "or an end-of-game score on the house rules line); added to those of the rules "
        "it extends.")

    @property
    def parents(self) -> list[str]:
        """The ids ``extends:`` names, in order (a later one wins)."""
        return parents_of(self.extends)

    @property
    def overlay(self) -> dict[str, Any]:
        """The settings as written, as plain data to merge (``model_dump(exclude_unset=
        True)``, without building pydantic's serializer for it)."""
        return _written(self.settings)  # type: ignore[no-any-return]


def _written(value: Any) -> Any:
    """A model's fields that were set (and its extra keys) as plain data, nested."""
    if isinstance(value, BaseModel):
        found = {name: _written(getattr(value, name)) for name in type(value).model_fields
                 if name in value.model_fields_set}
        found.update((k, _written(v)) for k, v in (value.model_extra or {}).items())
        return found
    if isinstance(value, list | tuple):
        return [_written(v) for v in value]
    if isinstance(value, dict):
        return {k: _written(v) for k, v in value.items()}
    return value


# Settings that are maps keyed by what a variant chooses (player counts, categories).
OPEN_MAPS = ("shelf_cards", "category_bonus", "difficulty")


def unknown_keys(base: dict[str, Any], overlay: dict[str, Any],
                 path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Paths in ``overlay`` that ``base`` does not have (a variant's typos).

    Maps keyed by player counts or categories (``OPEN_MAPS``) accept new keys.
    """
    found: list[tuple[str, ...]] = []
    for key, value in overlay.items():
        here = (*path, key)
        if key not in base:
            if not (path and path[-1] in OPEN_MAPS):
                found.append(here)
            continue
        if isinstance(value, dict) and isinstance(base[key], dict):
            found.extend(unknown_keys(base[key], value, here))
    return found
