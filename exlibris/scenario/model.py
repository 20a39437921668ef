"""A scenario, read and checked: a starting position, a script and expectations.

These are plain values; ``loader.py`` builds them from a YAML file (every
problem at ``FILE:LINE:COL``), ``position.py`` turns the setup into a game,
``runner.py`` plays the script and ``compare.py`` checks the expectations.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from exlibris.model.cards import Card
from exlibris.model.shelf import Shelf

PHASES = ("preparation", "placement", "resolution", "cleanup")
END = "end"  # ``until: end``: whole rounds on to the final round and the inspection


@dataclass(frozen=True)
class Where:
    """Where an assistant stands: a location space or a home space (1-based numbers)."""

    location: str | None  # None: a home space
    space: int

    def __str__(self) -> str:
        if self.location is None:
            return f"home {self.space}"
        return f"{self.location} space {self.space}"


@dataclass(frozen=True)
class Placed:
    """``Ann standard at wishing-well space 1``: an assistant already out."""

    player: str
    assistant: str  # "standard" or a special assistant id
    where: Where
    line: int
    col: int


@dataclass
class PlayerSetup:
    name: str
    library: str | None
    hand: list[Card] = field(default_factory=list)
    shelf: Shelf = field(default_factory=Shelf)
    focus: str = ""
    assistants: list[str] | None = None  # None: as the rules deal them; card:ID: a card
    bot: str | None = None  # a bot's seat name: the bot answers this seat, not the script


@dataclass
class LocationSetup:
    id: str
    area: list[Card] = field(default_factory=list)
    permanent: bool = False


@dataclass
class Setup:
    players: list[PlayerSetup]
    first_player: int = 0
    round: int = 1
    final_round: bool = False
    prominent: str = ""
    also_prominent: str | None = None
    banned: str | None = None
    deck: list[Card] = field(default_factory=list)  # top first
    discard: list[Card] = field(default_factory=list)  # bottom first, the last is on top
    assistant_deck: list[Any] = field(default_factory=list)  # top first
    artifact_deck: list[Card] = field(default_factory=list)  # top first
    locations: list[LocationSetup] = field(default_factory=list)
    location_stack: list[str] = field(default_factory=list)  # top first
    location_discard: list[str] = field(default_factory=list)  # the location discard pile
    placed: list[Placed] = field(default_factory=list)
    difficulty: int | None = None  # solo: None takes the rules' level
    # the game's memory: counters by (holder, name), visits by location id
    counters: dict[tuple[str, str], int] = field(default_factory=dict)
    visits: dict[str, list[int]] = field(default_factory=dict)
    public_focus: str = ""  # solo: the public library's hidden focus
    license_form: list[str] = field(default_factory=list)  # solo: revealed first first
    dealt: bool = False  # set up as a new game is (flow.new_game), by the scenario's seed

    def seat_of(self, name: str) -> int:
        return next(i for i, p in enumerate(self.players) if p.name == name)


@dataclass(frozen=True)
class Step:
    """One line of the script: the label of an option, and who must be asked."""

    label: str
    player: str | None
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.player}: {self.label}" if self.player else self.label


@dataclass(frozen=True)
class Expectation:
    """One key of ``expect:`` with its (already checked) value."""

    key: str
    value: Any
    line: int
    col: int


@dataclass
class Scenario:
    file: Path
    name: str
    rules: str
    clauses: list[str]
    seed: int
    phase: str
    until: str
    setup: Setup
    script: list[Step]
    expect: list[Expectation]
    catalog: Any = None  # the Catalog the scenario was checked against
    settings: Any = None  # the resolved Settings of ``rules``
    text: str = ""
    content: tuple[Path, ...] = ()  # the scenario's own content files and folders
