"""Game modes and variants (``rules/*.yaml``): small overlays on one base.

A variant names the variant it ``extends`` and only the settings it changes;
``resolve_settings`` merges the chain down to ``standard`` and validates the
result against ``Settings``, so every number of the rules lives in ``rules/``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from exlibris.model.content import Module, Slug, Text


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SetupSettings(_Strict):
    """Setup: hands, assistants, libraries, locations."""

    hand_size: int = Field(ge=0, le=20)
    standard_assistants: int = Field(ge=0, le=6)
    special_assistant: bool = Field(description="Each player gets their library's assistant.")
    libraries_dealt: int = Field(ge=1, le=4, description="Library tiles dealt to each player.")
    basic_library_side: bool = Field(description="Libraries are played on their basic side.")
    starting_locations: list[Slug] = Field(description="In play from round 1 outside the count.")
    remove_locations: list[Slug] = Field(default_factory=list)
    remove_libraries: list[Slug] = Field(default_factory=list)
    assistant_edition: Literal["base", "expanded"] = "base"


class FinalRoundSettings(_Strict):
    """When the final round is triggered, by player count."""

    shelf_cards: dict[int, int] = Field(description="Shelf cards that trigger the final round.")
    rounds: int | None = Field(default=None, description="A fixed number of rounds (solo).")
    count_entombed: bool = Field(description="Entombed cards count toward the trigger.")


class SoloSettings(_Strict):
    """Solo mode: difficulty and the shrinking row of locations."""

    difficulty: int = Field(ge=1, le=7, description="Cards discarded each round (1 to 7).")
    locations_in_play: int = Field(ge=1, le=18)
    locations_eliminated: int = Field(ge=0, le=18)
    locations_drawn: int = Field(default=1, ge=0, le=18,
                                 description="Tiles drawn from the stack at each cleanup.")
    reveal_hidden_categories_in_rounds: list[int]
    locations: list[Slug] | None = Field(
        default=None, description="The solo tiles; null: those whose content says solo.")
    libraries: list[Slug] | None = Field(
        default=None, description="The solo libraries; null: those whose content says solo.")
    blocked_bids: list[int] = Field(
        default_factory=list, description="Auction bid spaces a neutral assistant blocks.")
    leftovers_to_public_library: bool = Field(
        default=False, description="What an auction display keeps goes to the discard pile.")


class Settings(_Strict):
    """Every number and ruling a game needs; ``rules/standard.yaml`` sets them all."""

    players: list[int] = Field(min_length=1)
    modules: list[Module] = Field(default_factory=list)
    setup: SetupSettings
    final_round: FinalRoundSettings
    scoring: dict[str, Any] = Field(description="Numbers of the inspection form (see "
                                    "exlibris/scoring/settings.py).")
    rulings: dict[str, bool | int | str] = Field(
        description="Readings of ambiguous rules that a group may change (docs/rulings.md)."
    )
    solo: SoloSettings | None = None
    max_steps: int = Field(ge=100, le=1_000_000, description="Step budget of one effect.")


class Variant(_Strict):
    """A rules file: a game mode or a variant of one."""

    kind: Literal["variant"]
    id: Slug
    name: str
    extends: Slug | None = None
    text: Text
    settings: dict[str, Any] = Field(default_factory=dict)


def merge(base: dict[str, Any], overlay: dict[str, Any]) -> dict[str, Any]:
    """Deep-merge ``overlay`` onto ``base`` (maps merge, everything else replaces)."""
    merged = dict(base)
    for key, value in overlay.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def unknown_keys(base: dict[str, Any], overlay: dict[str, Any],
                 path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Paths in ``overlay`` that ``base`` does not have (a variant's typos).

    Maps keyed by player counts accept new counts.
    """
    found: list[tuple[str, ...]] = []
    for key, value in overlay.items():
        here = (*path, key)
        if key not in base:
            if not (path and path[-1] in ("shelf_cards",)):
                found.append(here)
            continue
        if isinstance(value, dict) and isinstance(base[key], dict):
            found.extend(unknown_keys(base[key], value, here))
    return found
