"""The shape of a scenario file, as a model for its JSON Schema (``schemas/scenario.json``).

The loader (``exlibris.scenario.loader``) does the real checking with
``FILE:LINE:COL`` errors; this model only lets editors check a scenario as it is
typed. Its fields must match the loader's (``tests/test_schemas.py`` checks that).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Card = str
Cards = list[Card]
Shelf = str | list[str]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PlayerSetup(_Strict):
    """One player of the position."""

    name: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9_-]*$")
    library: str | None = None
    hand: Cards = Field(default_factory=list, description="Card names: M3, or *artifact-id.")
    shelf: Shelf | None = Field(default=None, description="Rows of card names, '.' for a gap.")
    focus: str | None = Field(default=None, description="A category id or code (M).")
    assistants: list[str] | None = Field(
        default=None, description="'standard', the library's special assistant, or a "
        "special assistant card id.")
    bot: str | None = Field(
        default=None, pattern=r"^(random|greedy|mcts(:[0-9]+)?)$",
        description="A bot plays this seat (random, greedy, mcts or mcts:N): its decisions "
        "are the bot's, not the script's.")


class LocationSetup(_Strict):
    """A location in play, with its card area."""

    id: str
    area: Cards = Field(default_factory=list)
    permanent: bool = False


class Setup(_Strict):
    """The starting position: nothing is shuffled or dealt."""

    players: list[PlayerSetup] = Field(min_length=1)
    first_player: str | None = None
    round: int = Field(default=1, ge=1)
    final_round: bool = False
    prominent: str | None = None
    also_prominent: str | None = Field(
        default=None, description="A second prominent category (setup.prominent_categories: 2).")
    banned: str | None = None
    deck: Cards = Field(default_factory=list, description="Top first.")
    discard: Cards = Field(default_factory=list)
    locations: list[str | LocationSetup] = Field(default_factory=list)
    location_stack: list[str] = Field(default_factory=list)
    location_discard: list[str] = Field(default_factory=list)
    assistant_deck: Cards = Field(default_factory=list, description=(
        "Special assistant cards by id, top first."))
    artifact_deck: Cards = Field(default_factory=list, description="Artifacts as *id, top first.")
    placed: list[str] = Field(default_factory=list, description=(
        "'PLAYER ASSISTANT at LOCATION space N' or 'PLAYER ASSISTANT at home N'"))
    difficulty: int | None = Field(default=None, ge=1, le=7, description="Solo: the level.")
    public_focus: str | None = Field(default=None, description="Solo: the hidden focus.")
    counters: dict[str, dict[str, int]] | None = Field(default=None, description=(
        "The counters of the effect language: {game | PLAYER | LOCATION: {NAME: N}}."))
    visits: dict[str, list[str]] | None = Field(default=None, description=(
        "The visits carried out at each location earlier in the game, in order "
        "(visits_this_game)."))
    license_form: list[str] = Field(default_factory=list, description=(
        "Solo: the face-down categories of the form, the one revealed first first."))
    dealt: bool = Field(default=False, description=(
        "Set the game up as a new game is, by the seed; players name only their library."))


class NextDecision(_Strict):
    """The decision the script stops at."""

    player: str | None = None
    prompt: str | None = None
    options: list[str | bool] | None = None
    offers: list[str | bool] | None = None
    lacks: list[str | bool] | None = None


class PlayerForm(_Strict):
    """One player's lines of the inspection form, as `exlibris score --json` prints them."""

    name: str
    flipped: list[str] | None = None
    tally: dict[str, int] | None = None
    books: int | None = None
    stability: int | None = None
    entombed: int | None = None
    prominent: int | None = None
    banned: int | None = None
    variety: int | None = None
    focus: int | None = None
    artifacts: int | None = None
    total: int | None = None


class LibraryForm(_Strict):
    """Solo: the public library's lines of the inspection form."""

    tally: dict[str, int] | None = None
    books: int | None = None
    prominent: int | None = None
    banned: int | None = None
    variety: int | None = None
    focus: int | None = None
    volunteers: int | None = None
    artifacts: int | None = None
    total: int | None = None


class Inspection(_Strict):
    """The end-of-game inspection (`until: end`); keys left out are not checked."""

    players: list[PlayerForm] | None = None
    public_library: LibraryForm | None = None
    win: bool | None = None
    ranking: list[str] | None = None
    winners: list[str] | None = None
    tiebreak: str | None = None
    variant: str | None = None


class PileContents(_Strict):
    """What a pile holds, in any order."""

    has: list[str] | None = None
    lacks: list[str] | None = None
    size: int | None = Field(default=None, ge=0)


class Expect(_Strict):
    """What the state must be when the script is used up (docs/scenarios.md)."""

    hands: dict[str, Cards] | None = None
    hand_sizes: dict[str, int] | None = None
    shelves: dict[str, Shelf] | None = None
    discard: Cards | None = None
    deck: Cards | None = None
    areas: dict[str, Cards] | None = None
    assistants: list[str] | None = None
    assistant_deck: Cards | None = None
    artifact_deck: Cards | None = None
    hires: dict[str, Cards] | None = None
    counters: dict[str, dict[str, int]] | None = None
    first_player: str | None = None
    first_player_next_round: str | None = None
    in_play: list[str] | None = None
    permanent: list[str] | None = None
    final_round: bool | None = None
    events: list[dict[str, Any]] | None = None
    next_decision: NextDecision | None = None
    round: int | None = None
    ended: str | None = None
    inspection: Inspection | None = None
    location_stack: list[str] | None = None
    location_discard: list[str] | None = None
    never_offered: list[str | dict[str, str]] | None = None
    no_events: list[dict[str, Any]] | None = Field(default=None, description=(
        "Events that must not happen, written as in events."))
    contents: dict[str, PileContents] | None = Field(default=None, description=(
        "assistant_deck, artifact_deck, in_play, location_stack: has/lacks/size."))
    license_form: list[str] | None = Field(default=None, description=(
        "Solo: the categories left face down on the form, the next revealed first."))
    blocked_bids: dict[str, list[int]] | None = Field(default=None, description=(
        "Solo: the bids of each auction tile the neutral assistant holds."))


class ScenarioFile(_Strict):
    """A rule scenario: a position, a script of decisions by label, expectations."""

    kind: Literal["scenario"]
    name: str
    text: str | None = None
    rules: str = Field(default="standard", description="A variant id.")
    clauses: list[str] = Field(default_factory=list)
    seed: int = 0
    content: list[str] = Field(default_factory=list, description=(
        "Content files or folders of your own, relative to the scenario."))
    phase: Literal["preparation", "placement", "resolution", "cleanup"] = "placement"
    until: Literal["preparation", "placement", "resolution", "cleanup", "end"] = "resolution"
    setup: Setup
    script: list[str | bool | dict[str, str | bool]] = Field(default_factory=list)
    expect: Expect | None = None
