"""Reading a scenario file (``docs/scenarios.md``) into a :class:`Scenario`.

The YAML is read by ``exlibris.yamlsafe``; every problem is reported at
``FILE:LINE:COL`` with a stable ``scenario/...`` code, and all the problems of a
file are reported together. Card names (``M3``) come from the book deck of the
content, ids from the catalog (the shipped content plus the scenario's own
``content:`` files).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from exlibris.catalog import Catalog, join, load_catalog, own_files, read_catalog, yaml_files
from exlibris.dsl.checker import did_you_mean
from exlibris.engine.event_records import RECORDS
from exlibris.engine.events import EventKind
from exlibris.errors import Problem, UserInputError
from exlibris.limits import MAX_PATH_CHARS
from exlibris.model.cards import ArtifactCard, BookCard, Card, ResumeCard
from exlibris.model.shelf import Pos, Shelf, Slot
from exlibris.model.shelf_errors import ShelfError
from exlibris.safefile import MAX_NAME_BYTES
from exlibris.scenario.assistants import CARD_PREFIX, TEMP_PREFIX, owned_kind, split_kind
from exlibris.scenario.model import (
    END,
    PHASES,
    Expectation,
    LocationSetup,
    Placed,
    PlayerSetup,
    Scenario,
    Setup,
    Step,
    Where,
)
from exlibris.scoring.categories import CATEGORY_IDS, category_code
from exlibris.yamlsafe import LoadedYaml, load_yaml_file

YamlPath = tuple[str | int, ...]

TOP_FIELDS = ("kind", "name", "text", "rules", "clauses", "seed", "content", "phase", "until",
              "setup", "script", "expect")
SETUP_FIELDS = ("players", "first_player", "round", "final_round", "prominent",
                "also_prominent", "banned",
                "deck", "discard", "locations", "location_stack", "location_discard", "placed",
                "assistant_deck", "artifact_deck", "difficulty", "public_focus", "license_form",
                "dealt", "counters", "visits")
PLAYER_FIELDS = ("name", "library", "hand", "shelf", "focus", "assistants", "bot")
LOCATION_FIELDS = ("id", "area", "permanent")
EXPECT_FIELDS = ("hands", "hand_sizes", "shelves", "discard", "deck", "areas", "assistants",
                 "assistant_deck", "artifact_deck", "hires",
                 "first_player", "first_player_next_round", "in_play", "permanent",
                 "final_round", "events", "next_decision", "round", "ended", "inspection",
                 "location_stack", "location_discard", "never_offered", "no_events",
                 "license_form", "blocked_bids", "contents", "counters")
DECISION_FIELDS = ("player", "prompt", "options", "offers", "lacks")
CONTENT_PILES = ("assistant_deck", "artifact_deck", "in_play", "location_stack")
EVENT_KINDS = tuple(k.value for k in EventKind)
INSPECTION_FIELDS = ("players", "ranking", "winners", "tiebreak", "variant",
                     "public_library", "win")
LIBRARY_FIELDS = ("tally", "books", "prominent", "banned", "variety", "focus", "volunteers",
                  "artifacts", "total")
FORM_FIELDS = ("name", "flipped", "tally", "books", "stability", "entombed", "prominent",
               "banned", "variety", "focus", "artifacts", "total")
TIEBREAKS = ("total", "books", "hand", "banned", "unbroken")
END_REASONS = ("final-round", "stalled")

NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*$")
_PLACED = re.compile(
    r"(?P<player>\S+)\s+(?P<assistant>\S+)\s+at\s+"
    r"(?:home\s+(?P<home>[0-9]+)|(?P<location>[a-z0-9-]+)\s+space\s+(?P<space>[0-9]+))$")
_STATEMENT = re.compile(
    r"(?:nobody|(?P<player>\S+)\s+(?P<assistant>\S+))\s+"
    r"(?:(?P<available>available)|(?P<returned>returned)|(?P<retired>retired)|"
    r"at\s+(?:home\s+(?P<home>[0-9]+)|"
    r"(?P<location>[a-z0-9-]+)\s+space\s+(?P<space>[0-9]+)))$")
_CELL = re.compile(r"\S+")


def load_scenario(path: Path | str) -> Scenario:
    """Read one scenario file; raises ``UserInputError`` listing every problem."""
    path = Path(path)
    loaded = load_yaml_file(path, display_name=_display(path))
    reader = _Reader(loaded, path)
    scenario = reader.read()
    if reader.problems or scenario is None:
        raise UserInputError(sorted(reader.problems, key=lambda p: (p.line, p.col)))
    return scenario


def scenario_files(paths: Iterable[Path]) -> list[Path]:
    """The files named, and the YAML files found (recursively, sorted) in folders named."""
    return yaml_files(paths)


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


class _Reader:
    """Checks one loaded file; problems accumulate in ``problems``."""

    def __init__(self, loaded: LoadedYaml, path: Path) -> None:
        self.loaded = loaded
        self.path = path
        self.problems: list[Problem] = []
        self.catalog: Catalog | None = None
        self.content: tuple[Path, ...] = ()  # the scenario's own content paths
        self.cards: dict[str, BookCard] = {}
        self.names: list[str] = []
        self.seen: dict[Card, YamlPath] = {}

    # ------------------------------------------------------------------ reporting
    def fail(self, path: YamlPath, code: str, message: str, *, at_key: bool = False) -> None:
        self.problems.append(self.loaded.problem(path, code, message, at_key=at_key))

    def fields(self, data: dict[str, Any], path: YamlPath, known: tuple[str, ...],
               what: str) -> None:
        for key in data:
            if key not in known:
                self.fail((*path, key), "scenario/unknown-field",
                          f"unknown field {key!r} in {what}{did_you_mean(key, known)}; "
                          f"fields: {', '.join(known)}", at_key=True)

    def mapping(self, value: Any, path: YamlPath, what: str) -> dict[str, Any] | None:
        if isinstance(value, dict):
            return value
        self.fail(path, "scenario/wrong-type", f"{what} is a mapping of keys to values")
        return None

    def sequence(self, value: Any, path: YamlPath, what: str) -> list[Any] | None:
        if value is None:
            return []
        if isinstance(value, list):
            return value
        self.fail(path, "scenario/wrong-type", f"{what} is a list")
        return None

    def integer(self, value: Any, path: YamlPath, what: str, low: int = 0) -> int | None:
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            self.fail(path, "scenario/wrong-type", f"{what} is a whole number of at least {low}")
            return None
        return value

    def boolean(self, value: Any, path: YamlPath, what: str) -> bool:
        if not isinstance(value, bool):
            self.fail(path, "scenario/wrong-type", f"{what} is true or false")
            return False
        return value

    # ------------------------------------------------------------------ top level
    def read(self) -> Scenario | None:
        data = self.loaded.data
        if not isinstance(data, dict):
            self.fail((), "scenario/not-a-mapping",
                      "a scenario file is a mapping of keys to values")
            return None
        if data.get("kind") != "scenario":
            found = data.get("kind")
            self.fail(("kind",), "scenario/wrong-kind",
                      "a scenario file starts with 'kind: scenario'" if found is None else
                      f"kind is {found!r}; a scenario file has 'kind: scenario'")
            return None
        self.fields(data, (), TOP_FIELDS, "a scenario")
        for key in ("name", "setup", "script", "expect"):
            if key not in data:
                self.fail((), "scenario/missing-field", f"missing field {key!r}")
        name = data.get("name")
        if "name" in data and (not isinstance(name, str) or not name.strip()):
            self.fail(("name",), "scenario/wrong-type", "name is a line of text")
        self.catalog = self.read_catalog(data)
        if self.catalog is None:
            return None
        rules = data.get("rules", "standard")
        settings = self.read_rules(rules)
        seed = self.integer(data.get("seed", 0), ("seed",), "seed") or 0
        phase = self.read_phase(data, "phase", "placement", PHASES)
        until = self.read_phase(data, "until", "resolution", (*PHASES, END))
        if phase and until and until != END and PHASES.index(until) < PHASES.index(phase):
            self.fail(("until",), "scenario/bad-phase",
                      f"the scenario starts at {phase} but stops after {until}, which comes "
                      "before it")
        clauses = [str(c) for c in (self.sequence(data.get("clauses"), ("clauses",),
                                                  "clauses") or [])]
        setup = None
        if isinstance(data.get("setup"), dict):
            setup = self.read_setup(data["setup"], settings)
        elif "setup" in data:
            self.fail(("setup",), "scenario/wrong-type", "setup is a mapping of keys to values")
        script = self.read_script(data.get("script"))
        expect = self.read_expect(data.get("expect"), setup)
        text = data.get("text") if isinstance(data.get("text"), str) else ""
        if self.problems or setup is None or settings is None or phase is None \
                or until is None:
            return None
        return Scenario(self.path, str(name).strip(), rules, clauses, seed, phase, until, setup,
                        script, expect, self.catalog, settings, text, self.content)

    def read_catalog(self, data: dict[str, Any]) -> Catalog | None:
        try:
            shipped = load_catalog()
        except UserInputError as exc:
            self.problems.extend(exc.problems)
            return None
        extra = self.sequence(data.get("content"), ("content",), "content")
        catalog = shipped
        if extra:
            from exlibris.validation import validate

            paths = []
            for i, entry in enumerate(extra):
                if not isinstance(entry, str):
                    self.fail(("content", i), "scenario/wrong-type",
                              "each content entry is a file or folder path")
                    continue
                if "\0" in entry or len(entry) > MAX_PATH_CHARS or any(
                        len(os.fsencode(part)) > MAX_NAME_BYTES for part in Path(entry).parts):
                    self.fail(("content", i), "scenario/bad-content-path",
                              f"a content path has no NUL character, at most "
                              f"{MAX_PATH_CHARS} characters and names of at most "
                              f"{MAX_NAME_BYTES} bytes")
                    continue
                folder = self.path.parent.resolve()
                target = (folder / entry)
                try:
                    outside = (Path(entry).is_absolute()
                               or not target.resolve().is_relative_to(folder)
                               or (target.is_dir() and target.resolve() == folder))
                    missing = not target.exists()
                except (OSError, RuntimeError) as exc:
                    self.fail(("content", i), "scenario/missing-content",
                              f"cannot use the content path: {getattr(exc, 'strerror', exc)}")
                    continue
                if outside:
                    self.fail(("content", i), "scenario/content-outside",
                              "content paths name files or folders inside the scenario's "
                              "own folder (no absolute paths, no '..', no links out)")
                    continue
                if missing:
                    self.fail(("content", i), "scenario/missing-content",
                              f"no file or folder {entry!r} next to the scenario")
                    continue
                paths.append(target)
            if len(paths) < len(extra):
                return None  # the scenario's own content is not there: nothing else is checked
            report = validate(paths)
            if not report.ok:
                self.problems.extend(report.problems)
                return None
            own, _ = read_catalog(own_files(paths))
            catalog = join(shipped, own)
            self.content = tuple(paths)
        deck = catalog.deck
        if deck is not None:
            self.cards = {f"{c.letter}{c.order}": BookCard(c.letter, c.order, tuple(c.books),
                                                           c.of) for c in deck.cards}
        return catalog

    def read_rules(self, rules: Any) -> Any:
        from exlibris.model.variants import resolve_settings

        assert self.catalog is not None
        variants = self.catalog.variants
        if not isinstance(rules, str) or rules not in variants:
            self.fail(("rules",), "scenario/unknown-rules",
                      f"unknown rules {rules!r}{did_you_mean(str(rules), variants)}; "
                      f"known: {', '.join(sorted(variants))}")
            return None
        try:
            return resolve_settings(rules, variants)
        except ValueError as exc:  # a broken variant of the author's (pydantic's errors too)
            from pydantic import ValidationError

            from exlibris.schema_words import first_in_words

            why = first_in_words(exc) if isinstance(exc, ValidationError) \
                else str(exc).splitlines()[0]
            self.fail(("rules",), "scenario/unknown-rules",
                      f"the rules {rules!r} cannot be used: {why}; "
                      "run `exlibris validate` on them")
            return None

    def read_phase(self, data: dict[str, Any], key: str, default: str,
                   allowed: tuple[str, ...]) -> str | None:
        value = data.get(key, default)
        if value not in allowed:
            self.fail((key,), "scenario/bad-phase",
                      f"{key} is one of {', '.join(allowed)}, not {value!r}"
                      f"{did_you_mean(str(value), allowed)}")
            return None
        return value

    # ------------------------------------------------------------------ setup
    def read_setup(self, data: dict[str, Any], settings: Any) -> Setup | None:
        path: YamlPath = ("setup",)
        self.fields(data, path, SETUP_FIELDS, "setup")
        players = self.read_players(data.get("players"), (*path, "players"), settings)
        if players is None:
            return None
        setup = Setup(players)
        if "dealt" in data:
            setup.dealt = self.boolean(data["dealt"], (*path, "dealt"), "dealt")
        if setup.dealt:  # set up as a new game is: only the players' names and libraries
            extra = [k for k in data if k not in ("players", "dealt")]
            extra += [f"{p.name}'s {k}" for p, entry in zip(players, data["players"],
                                                            strict=False)
                      for k in entry if k not in ("name", "library")]
            unnamed = [p.name for p in players if p.library is None]
            if unnamed:
                self.fail((*path, "players"), "scenario/dealt-setup",
                          "with 'dealt: true' each player names a library (the draft is not "
                          f"scripted): {', '.join(unnamed)}")
            if extra:
                self.fail((*path, "dealt"), "scenario/dealt-setup",
                          "with 'dealt: true' the game is set up as a new game is (shuffled "
                          "by the scenario's seed); setup names only the players (name, "
                          f"library), not {', '.join(extra)}")
            return setup
        if "first_player" in data:
            seat = self.player(data["first_player"], (*path, "first_player"))
            setup.first_player = seat if seat is not None else 0
        setup.round = self.integer(data.get("round", 1), (*path, "round"), "round", 1) or 1
        setup.final_round = self.boolean(data.get("final_round", False),
                                         (*path, "final_round"), "final_round")
        if data.get("prominent") is not None:
            setup.prominent = self.category(data["prominent"], (*path, "prominent")) or ""
        if data.get("also_prominent") is not None:
            setup.also_prominent = self.category(data["also_prominent"],
                                                 (*path, "also_prominent"))
        if data.get("banned") is not None:
            setup.banned = self.category(data["banned"], (*path, "banned"))
        setup.deck = self.cards_list(data.get("deck"), (*path, "deck"), "the deck")
        setup.discard = self.cards_list(data.get("discard"), (*path, "discard"),
                                        "the discard pile")
        setup.assistant_deck = self.cards_list(data.get("assistant_deck"),
                                               (*path, "assistant_deck"),
                                               "the special assistant deck")
        setup.artifact_deck = self.cards_list(data.get("artifact_deck"),
                                              (*path, "artifact_deck"), "the artifact deck")
        setup.locations = self.read_locations(data.get("locations"), (*path, "locations"))
        stack = self.sequence(data.get("location_stack"), (*path, "location_stack"),
                              "location_stack") or []
        setup.location_stack = [loc for i, item in enumerate(stack)
                                if (loc := self.location_id(item, (*path, "location_stack", i)))]
        gone = self.sequence(data.get("location_discard"), (*path, "location_discard"),
                             "location_discard") or []
        setup.location_discard = [
            loc for i, item in enumerate(gone)
            if (loc := self.location_id(item, (*path, "location_discard", i)))]
        setup.placed = self.read_placed(data.get("placed"), (*path, "placed"), setup, settings)
        if data.get("counters") is not None:
            setup.counters = self.read_counters(data["counters"], (*path, "counters"))
        setup.visits = self.read_visits(data.get("visits"), (*path, "visits"))
        self.read_solo(data, path, setup, settings)
        return setup

    def read_counters(self, value: Any, path: YamlPath) -> dict[tuple[str, str], int]:
        """``{HOLDER: {NAME: N}}``: the game's counters (holder ``game``), a player's (by
        name) or a location's (by id), as the language's ``counter`` reads them."""
        found: dict[tuple[str, str], int] = {}
        for holder, names in (self.mapping(value, path, "counters") or {}).items():
            where = (*path, holder)
            if holder == "game":
                key = "game"
            elif isinstance(holder, str) and holder in self.names:
                key = f"player:{self.names.index(holder)}"
            elif (loc := self.location_id(holder, where)) is not None:
                key = f"location:{loc}"
            else:
                continue
            for name, n in (self.mapping(names, where, "a holder's counters") or {}).items():
                number = self.integer(n, (*where, name), f"counter {name}", -(10**12))
                if number is not None:
                    found[(key, str(name))] = number
        return found

    def read_visits(self, value: Any, path: YamlPath) -> dict[str, list[int]]:
        """``{LOCATION: [PLAYER, ...]}``: the visits carried out at each location earlier
        in the game, in order (``visits_this_game``)."""
        found: dict[str, list[int]] = {}
        for loc_id, who in (self.mapping(value, path, "visits") or {}).items() \
                if value is not None else ():
            loc = self.location_id(loc_id, (*path, loc_id))
            seats = [seat for i, name in enumerate(self.sequence(who, (*path, loc_id),
                                                                 "visitors") or [])
                     if (seat := self.player(name, (*path, loc_id, i))) is not None]
            if loc is not None:
                found[loc] = seats
        return found

    def read_solo(self, data: dict[str, Any], path: YamlPath, setup: Setup,
                  settings: Any) -> None:
        """Solo fields: the difficulty, the public focus and the license form."""
        given = [key for key in ("difficulty", "public_focus", "license_form") if key in data]
        if given and (settings is None or settings.solo is None):
            self.fail((*path, given[0]), "scenario/not-solo",
                      f"{given[0]} is for solo rules (rules: solo)", at_key=True)
            return
        if "difficulty" in data:
            level = self.integer(data["difficulty"], (*path, "difficulty"), "difficulty", 1)
            if level is not None and level > 7:
                self.fail((*path, "difficulty"), "scenario/bad-value",
                          "difficulty must be 1 to 7")
            setup.difficulty = level
        if data.get("public_focus") is not None:
            setup.public_focus = self.category(data["public_focus"],
                                               (*path, "public_focus")) or ""
        form = self.sequence(data.get("license_form"), (*path, "license_form"),
                             "license_form") or []
        setup.license_form = [code for i, item in enumerate(form)
                              if (code := self.category(item, (*path, "license_form", i)))]

    def read_players(self, value: Any, path: YamlPath, settings: Any
                     ) -> list[PlayerSetup] | None:
        items = self.sequence(value, path, "players")
        if not items:
            self.fail(path, "scenario/missing-field", "setup needs a list of players")
            return None
        if settings is not None and len(items) not in settings.players:
            self.fail(path, "scenario/player-count",
                      f"{len(items)} players; these rules are for {settings.players}")
        players: list[PlayerSetup] = []
        for i, item in enumerate(items):
            entry = self.mapping(item, (*path, i), "a player")
            if entry is None:
                continue
            self.fields(entry, (*path, i), PLAYER_FIELDS, "a player")
            name = entry.get("name")
            if not isinstance(name, str) or not NAME.match(name):
                self.fail((*path, i, "name"), "scenario/bad-name",
                          "each player needs a name of one word (letters, digits, - or _)")
                continue
            if name in self.names:
                self.fail((*path, i, "name"), "scenario/duplicate-name",
                          f"two players are called {name!r}")
                continue
            self.names.append(name)
            player = PlayerSetup(name, None)
            library = entry.get("library")
            if library is not None:
                assert self.catalog is not None
                libraries = self.catalog.libraries
                if library not in libraries:
                    self.fail((*path, i, "library"), "scenario/unknown-library",
                              f"unknown library {library!r}{did_you_mean(str(library), libraries)}")
                else:
                    player.library = library
            player.hand = self.cards_list(entry.get("hand"), (*path, i, "hand"), f"{name}'s hand")
            if entry.get("shelf") is not None:
                player.shelf = self.read_shelf(entry["shelf"], (*path, i, "shelf"), name)
            if entry.get("focus") is not None:
                player.focus = self.category(entry["focus"], (*path, i, "focus")) or ""
            if "assistants" in entry:
                player.assistants = self.read_assistants(entry["assistants"],
                                                         (*path, i, "assistants"), player)
            if entry.get("bot") is not None:
                player.bot = self.read_bot(entry["bot"], (*path, i, "bot"))
            players.append(player)
        return players if len(players) == len(items) else None

    def read_bot(self, value: Any, path: YamlPath) -> str | None:
        """A bot's seat name for a player the script does not answer for."""
        from exlibris.agents import bot_kind  # the bots only where a scenario names one

        wrong = bot_kind(value) if isinstance(value, str) else "a bot is named by text"
        if wrong is not None:
            self.fail(path, "scenario/bad-bot", f"{wrong} (bot: greedy, or mcts:50)")
            return None
        return value

    def read_assistants(self, value: Any, path: YamlPath, player: PlayerSetup) -> list[str]:
        items = self.sequence(value, path, "assistants") or []
        out = []
        cards = self.catalog.assistants if self.catalog else {}
        for k, item in enumerate(items):
            card = isinstance(item, str) and item.startswith((CARD_PREFIX, TEMP_PREFIX)) \
                and owned_kind(item) in cards
            if item == "standard" or item == self.special_of(player) or card:
                out.append(item)
            else:
                own = self.special_of(player)
                self.fail((*path, k), "scenario/unknown-assistant",
                          f"{player.name}'s assistants are 'standard'"
                          + (f", {own!r}" if own else "") + " and Expanded Archives cards "
                          "as card:ID (card:witch; temp:ID for a temporary assistant), "
                          f"not {item!r}")
        return out

    def special_of(self, player: PlayerSetup) -> str | None:
        if player.library is None or self.catalog is None:
            return None
        return self.catalog.libraries[player.library].assistant.id

    def read_locations(self, value: Any, path: YamlPath) -> list[LocationSetup]:
        items = self.sequence(value, path, "locations") or []
        out: list[LocationSetup] = []
        for i, item in enumerate(items):
            if isinstance(item, str):
                loc = self.location_id(item, (*path, i))
                if loc:
                    out.append(LocationSetup(loc))
                continue
            entry = self.mapping(item, (*path, i), "a location (an id, or a mapping with id:)")
            if entry is None:
                continue
            self.fields(entry, (*path, i), LOCATION_FIELDS, "a location")
            loc = self.location_id(entry.get("id"), (*path, i, "id"))
            if not loc:
                continue
            if any(o.id == loc for o in out):
                self.fail((*path, i, "id"), "scenario/duplicate-location",
                          f"{loc} is listed twice")
                continue
            setup = LocationSetup(loc)
            setup.area = self.cards_list(entry.get("area"), (*path, i, "area"),
                                         f"the area of {loc}")
            setup.permanent = self.boolean(entry.get("permanent", False),
                                           (*path, i, "permanent"), "permanent")
            out.append(setup)
        return out

    def read_placed(self, value: Any, path: YamlPath, setup: Setup, settings: Any
                    ) -> list[Placed]:
        items = self.sequence(value, path, "placed") or []
        out: list[Placed] = []
        in_play = {loc.id for loc in setup.locations}
        counts: dict[tuple[str, str], int] = {}
        for i, item in enumerate(items):
            match = _PLACED.match(item.strip()) if isinstance(item, str) else None
            if match is None:
                self.fail((*path, i), "scenario/bad-placed",
                          "write each placed assistant as 'PLAYER ASSISTANT at LOCATION space N'"
                          " or 'PLAYER ASSISTANT at home N'")
                continue
            seat = self.player(match["player"], (*path, i))
            if seat is None:
                continue
            player = setup.players[seat]
            assistant, number = split_kind(match["assistant"])
            owned = self.owned(player, settings)
            if assistant not in owned or (number or 0) > owned.count(assistant):
                self.fail((*path, i), "scenario/unknown-assistant",
                          f"{player.name} has no {match['assistant']!r} assistant; they have "
                          f"{', '.join(owned) or 'none'}")
                continue
            counts[(player.name, assistant)] = counts.get((player.name, assistant), 0) + 1
            if counts[(player.name, assistant)] > owned.count(assistant):
                self.fail((*path, i), "scenario/too-many-assistants",
                          f"{player.name} has only {owned.count(assistant)} {assistant} "
                          "assistant(s)")
                continue
            if match["home"] is not None:
                where = Where(None, int(match["home"]))
                if not 1 <= where.space <= 3:
                    self.fail((*path, i), "scenario/bad-space", "home spaces are 1, 2 and 3")
                    continue
            else:
                loc = match["location"]
                if loc not in in_play:
                    self.fail((*path, i), "scenario/location-not-in-play",
                              f"{loc} is not among setup.locations"
                              f"{did_you_mean(loc, in_play)}")
                    continue
                where = Where(loc, int(match["space"]))
                spaces = self.catalog.locations[loc].spaces if self.catalog else []
                if not 1 <= where.space <= len(spaces):
                    self.fail((*path, i), "scenario/bad-space",
                              f"{loc} has spaces 1 to {len(spaces)}")
                    continue
                least = spaces[where.space - 1]
                n = len(setup.players)
                if least > n:
                    self.fail((*path, i), "scenario/bad-space",
                              f"space {where.space} of {loc} needs {least} players")
                    continue
            line, col = self.loaded.position((*path, i))
            out.append(Placed(player.name, match["assistant"], where, line, col))
        return out

    def owned(self, player: PlayerSetup, settings: Any) -> list[str]:
        if player.assistants is not None:
            return [owned_kind(k) for k in player.assistants]
        owned = []
        special = self.special_of(player)
        if special and (settings is None or settings.setup.special_assistant):
            owned.append(special)
        n = settings.setup.standard_assistants if settings is not None else 2
        return owned + ["standard"] * n

    # ------------------------------------------------------------------ values
    def player(self, value: Any, path: YamlPath) -> int | None:
        if isinstance(value, str) and value in self.names:
            return self.names.index(value)
        self.fail(path, "scenario/unknown-player",
                  f"unknown player {value!r}{did_you_mean(str(value), self.names)}; players: "
                  f"{', '.join(self.names)}")
        return None

    def category(self, value: Any, path: YamlPath) -> str | None:
        code = category_code(value)
        if code is None:
            self.fail(path, "scenario/unknown-category",
                      f"unknown category {value!r}{did_you_mean(str(value), CATEGORY_IDS.values())}"
                      f"; write an id (monster-manuals) or a code ({', '.join(CATEGORY_IDS)})")
        return code

    def location_id(self, value: Any, path: YamlPath) -> str | None:
        assert self.catalog is not None
        locations = self.catalog.locations
        if isinstance(value, str) and value in locations:
            return value
        self.fail(path, "scenario/unknown-location",
                  f"unknown location {value!r}{did_you_mean(str(value), locations)}")
        return None

    def card(self, value: Any, path: YamlPath, *, unique: bool = True) -> Card | None:
        card: Card | None = None
        if isinstance(value, str) and value.startswith("*"):
            artifacts = self.catalog.artifacts if self.catalog else {}
            if value[1:] in artifacts:
                card = ArtifactCard(value[1:])
            else:
                self.fail(path, "scenario/unknown-card",
                          f"unknown artifact {value!r}{did_you_mean(value[1:], artifacts)}")
                return None
        elif isinstance(value, str) and value in self.cards:
            card = self.cards[value]
        elif isinstance(value, str) and self.catalog is not None \
                and value in self.catalog.assistants:
            card = ResumeCard(value)
        else:
            hint = did_you_mean(str(value), self.cards)
            self.fail(path, "scenario/unknown-card",
                      f"{value!r} is not a card of the deck{hint}; cards are named by letter "
                      "and order (M3), artifacts as *artifact-id, special assistant cards "
                      "by id (ghost)")
            return None
        if unique:
            if card in self.seen:
                line, col = self.loaded.position(self.seen[card])
                self.fail(path, "scenario/duplicate-card",
                          f"{value} is already placed at line {line}, column {col}; each card "
                          "is in one place")
                return None
            self.seen[card] = path
        return card

    def cards_list(self, value: Any, path: YamlPath, what: str, *, unique: bool = True
                   ) -> list[Card]:
        items = self.sequence(value, path, f"{what}") or []
        return [c for i, item in enumerate(items)
                if (c := self.card(item, (*path, i), unique=unique)) is not None]

    def shelf_rows(self, value: Any, path: YamlPath) -> list[tuple[str, YamlPath, int]] | None:
        """Rows of a shelf: a block string or a list of strings; with where each starts."""
        if isinstance(value, str):
            rows = value.split("\n")
            while rows and not rows[-1].strip():
                rows.pop()
            return [(row, path, k) for k, row in enumerate(rows)]
        if isinstance(value, list) and all(isinstance(r, str) for r in value):
            return [(row, (*path, k), 0) for k, row in enumerate(value)]
        self.fail(path, "scenario/wrong-type",
                  "a shelf is a list of rows (strings of card names, '.' for an empty cell)")
        return None

    def parse_cells(self, value: Any, path: YamlPath, owner: str, *, unique: bool
                    ) -> dict[Pos, tuple[str, Slot | None]] | None:
        rows = self.shelf_rows(value, path)
        if rows is None:
            return None
        if len(rows) > 3:
            self.fail(path, "scenario/bad-shelf", f"{owner}'s shelf has {len(rows)} rows; "
                      "at most 3")
            return None
        cells: dict[Pos, tuple[str, Slot | None]] = {}
        ok = True
        for r, (text, where, _) in enumerate(rows):
            for c, match in enumerate(_CELL.finditer(text)):
                token = match.group()
                if token == ".":
                    continue
                slot = self.slot(token, where, unique=unique)
                if slot is None:
                    ok = False
                    continue
                cells[(r, c)] = (token, slot)
        return cells if ok else None

    def slot(self, token: str, path: YamlPath, *, unique: bool) -> Slot | None:
        face_down = token.startswith("~")
        body = token[1:] if face_down else token
        top, _, under = body.partition("+")
        card = self.card(top, path, unique=unique)
        beneath = self.card(under, path, unique=unique) if under else None
        if card is None or (under and beneath is None):
            return None
        if beneath is not None and not isinstance(beneath, BookCard):
            self.fail(path, "scenario/bad-shelf", f"{token}: only a book card lies beneath")
            return None
        return Slot(card, face_down=face_down, beneath=beneath)  # type: ignore[arg-type]

    def read_shelf(self, value: Any, path: YamlPath, owner: str) -> Shelf:
        cells = self.parse_cells(value, path, owner, unique=True)
        if cells is None:
            return Shelf()
        try:
            return Shelf.from_slots({pos: slot for pos, (_, slot) in cells.items()
                                     if slot is not None})
        except ShelfError as exc:
            self.fail(path, "scenario/bad-shelf", f"{owner}'s shelf: {exc}")
            return Shelf()

    # ------------------------------------------------------------------ script
    def read_script(self, value: Any) -> list[Step]:
        items = self.sequence(value, ("script",), "script") or []
        steps: list[Step] = []
        for i, item in enumerate(items):
            path: YamlPath = ("script", i)
            player = None
            if isinstance(item, dict) and len(item) == 1:
                player, item = next(iter(item.items()))
                if player not in self.names:
                    self.fail(path, "scenario/unknown-player",
                              f"unknown player {player!r}{did_you_mean(str(player), self.names)}"
                              f"; a label that holds ': ' must be quoted: "
                              f"- \"{player}: {item}\"")
                    continue
                path = (*path, player)
            if isinstance(item, bool):
                item = "yes" if item else "no"
            if not isinstance(item, str) or not item.strip():
                self.fail(path, "scenario/bad-step",
                          "each script line is an option's label, or 'PLAYER: label'")
                continue
            line, col = self.loaded.position(path)
            steps.append(Step(item.strip(), player, line, col))
        return steps

    # ------------------------------------------------------------------ expectations
    def read_expect(self, value: Any, setup: Setup | None) -> list[Expectation]:
        data = self.mapping(value, ("expect",), "expect") if value is not None else {}
        if data is None:
            return []
        self.fields(data, ("expect",), EXPECT_FIELDS, "expect")
        out = []
        for key, item in data.items():
            if key not in EXPECT_FIELDS:
                continue
            path: YamlPath = ("expect", key)
            checked = getattr(self, f"expect_{key}")(item, path, setup)
            line, col = self.loaded.key_position(path)
            out.append(Expectation(key, checked, line, col))
        return out

    def per_player(self, value: Any, path: YamlPath) -> list[tuple[str, Any, YamlPath]]:
        data = self.mapping(value, path, path[-1] if path else "value") or {}
        out = []
        for name, item in data.items():
            if self.player(name, (*path, name)) is not None:
                out.append((name, item, (*path, name)))
        return out

    def names_list(self, value: Any, path: YamlPath, what: str) -> list[str]:
        return [c.name for c in self.cards_list(value, path, what, unique=False)]

    def expect_hands(self, value: Any, path: YamlPath, setup: Any) -> dict[str, list[str]]:
        return {name: self.names_list(item, p, f"{name}'s hand")
                for name, item, p in self.per_player(value, path)}

    def expect_hand_sizes(self, value: Any, path: YamlPath, setup: Any) -> dict[str, int]:
        return {name: self.integer(item, p, "a hand size") or 0
                for name, item, p in self.per_player(value, path)}

    def expect_shelves(self, value: Any, path: YamlPath, setup: Any
                       ) -> dict[str, dict[Pos, str]]:
        out = {}
        for name, item, p in self.per_player(value, path):
            cells = self.parse_cells(item, p, name, unique=False) or {}
            out[name] = {pos: token for pos, (token, _) in cells.items()}
        return out

    def expect_discard(self, value: Any, path: YamlPath, setup: Any) -> list[str]:
        return self.names_list(value, path, "the discard pile")

    def expect_deck(self, value: Any, path: YamlPath, setup: Any) -> list[str]:
        return self.names_list(value, path, "the deck")

    def expect_assistant_deck(self, value: Any, path: YamlPath, setup: Any) -> list[str]:
        return self.names_list(value, path, "the special assistant deck")

    def expect_artifact_deck(self, value: Any, path: YamlPath, setup: Any) -> list[str]:
        return self.names_list(value, path, "the artifact deck")

    def expect_hires(self, value: Any, path: YamlPath, setup: Any) -> dict[str, list[str]]:
        return {name: self.names_list(item, p, f"{name}'s hires")
                for name, item, p in self.per_player(value, path)}

    def expect_areas(self, value: Any, path: YamlPath, setup: Any) -> dict[str, list[str]]:
        data = self.mapping(value, path, "areas") or {}
        return {loc: self.names_list(item, (*path, loc), f"the area of {loc}")
                for loc, item in data.items() if self.location_id(loc, (*path, loc))}

    def expect_assistants(self, value: Any, path: YamlPath, setup: Any) -> list[dict[str, Any]]:
        items = self.sequence(value, path, "assistants") or []
        out = []
        for i, item in enumerate(items):
            match = _STATEMENT.match(item.strip()) if isinstance(item, str) else None
            if match is None:
                self.fail((*path, i), "scenario/bad-statement",
                          "write 'PLAYER ASSISTANT at LOCATION space N', 'PLAYER ASSISTANT at "
                          "home N', 'PLAYER ASSISTANT available', 'PLAYER ASSISTANT returned', "
                          "'PLAYER ASSISTANT retired' or 'nobody at LOCATION space N' "
                          "(ASSISTANT#N: the N-th of a kind)")
                continue
            if match["player"] is not None and self.player(match["player"], (*path, i)) is None:
                continue
            if match["location"] is not None and not self.location_id(match["location"],
                                                                       (*path, i)):
                continue
            out.append({"text": item.strip(), **match.groupdict()})
        return out

    def expect_first_player(self, value: Any, path: YamlPath, setup: Any) -> str:
        self.player(value, path)
        return str(value)

    expect_first_player_next_round = expect_first_player

    def expect_in_play(self, value: Any, path: YamlPath, setup: Any) -> list[str]:
        items = self.sequence(value, path, path[-1]) or []
        return [loc for i, item in enumerate(items) if (loc := self.location_id(item, (*path, i)))]

    expect_permanent = expect_in_play

    def expect_final_round(self, value: Any, path: YamlPath, setup: Any) -> bool:
        return self.boolean(value, path, "final_round")

    def expect_events(self, value: Any, path: YamlPath, setup: Any) -> list[dict[str, Any]]:
        items = self.sequence(value, path, "events") or []
        out = []
        for i, item in enumerate(items):
            entry = self.mapping(item, (*path, i), "an event")
            if entry is None:
                continue
            if "event" not in entry:
                self.fail((*path, i), "scenario/missing-field", "an expected event needs "
                          "'event:' (draw, place, ability, activate, ...)")
                continue
            kind = str(entry["event"])
            if kind not in EVENT_KINDS:
                self.fail((*path, i, "event"), "scenario/unknown-event",
                          f"no event is called {kind!r}{did_you_mean(kind, EVENT_KINDS)}; "
                          f"events: {', '.join(EVENT_KINDS)}")
                continue
            record = RECORDS[EventKind(kind)]
            self.fields(entry, (*path, i), ("event", *sorted(record.__required_keys__
                                                             | record.__optional_keys__)),
                        f"a {kind!r} event")
            out.append(entry)
        return out

    def expect_no_events(self, value: Any, path: YamlPath, setup: Any) -> list[dict[str, Any]]:
        """Events that must not happen: each written as in ``events``."""
        return self.expect_events(value, path, setup)

    def expect_license_form(self, value: Any, path: YamlPath, setup: Any) -> list[str]:
        """Solo: the categories still face down on the license form, the next revealed
        first (as ``setup: license_form`` writes them)."""
        items = self.sequence(value, path, "license_form") or []
        return [c for i, item in enumerate(items)
                if (c := self.category(item, (*path, i))) is not None]

    def expect_blocked_bids(self, value: Any, path: YamlPath, setup: Any
                            ) -> dict[str, list[int]]:
        """Solo: the bids of each auction tile that the neutral assistant holds."""
        data = self.mapping(value, path, "blocked_bids") or {}
        out = {}
        for loc, item in data.items():
            if not self.location_id(loc, (*path, loc)):
                continue
            bids = self.sequence(item, (*path, loc), f"the blocked bids of {loc}") or []
            out[loc] = [b for i, b in enumerate(bids)
                        if self.integer(b, (*path, loc, i), "a bid") is not None]
        return out

    def expect_contents(self, value: Any, path: YamlPath, setup: Any
                        ) -> dict[str, dict[str, Any]]:
        """What some piles hold, in any order: ``{PILE: {has: [...], lacks: [...],
        size: N}}`` for the special assistant and artifact decks, the locations in
        play and the location stack (a dealt game's setup)."""
        data = self.mapping(value, path, "contents") or {}
        self.fields(data, path, CONTENT_PILES, "contents")
        out: dict[str, dict[str, Any]] = {}
        for pile, item in data.items():
            if pile not in CONTENT_PILES:
                continue
            entry = self.mapping(item, (*path, pile), pile) or {}
            self.fields(entry, (*path, pile), ("has", "lacks", "size"), pile)
            got: dict[str, Any] = {}
            for key in ("has", "lacks"):
                if key in entry:
                    got[key] = [str(x).removeprefix("*") for x in
                                self.sequence(entry[key], (*path, pile, key), key) or []]
            if "size" in entry:
                got["size"] = self.integer(entry["size"], (*path, pile, "size"), "size")
            out[pile] = got
        return out

    def expect_next_decision(self, value: Any, path: YamlPath, setup: Any) -> dict[str, Any]:
        data = self.mapping(value, path, "next_decision") or {}
        self.fields(data, path, DECISION_FIELDS, "next_decision")
        out: dict[str, Any] = {}
        if "player" in data and self.player(data["player"], (*path, "player")) is not None:
            out["player"] = data["player"]
        if "prompt" in data:
            out["prompt"] = str(data["prompt"])
        for key in ("options", "offers", "lacks"):
            if key in data:
                items = self.sequence(data[key], (*path, key), key) or []
                out[key] = ["yes" if x is True else "no" if x is False else str(x)
                            for x in items]
        return out

    def expect_counters(self, value: Any, path: YamlPath, setup: Any
                        ) -> dict[tuple[str, str], int]:
        return self.read_counters(value, path)

    def expect_round(self, value: Any, path: YamlPath, setup: Any) -> int:
        return self.integer(value, path, "round", 1) or 0

    def expect_ended(self, value: Any, path: YamlPath, setup: Any) -> str:
        if value not in END_REASONS:
            self.fail(path, "scenario/bad-value", f"ended is one of {', '.join(END_REASONS)}, "
                      f"not {value!r}{did_you_mean(str(value), END_REASONS)}")
        return str(value)

    def expect_inspection(self, value: Any, path: YamlPath, setup: Any) -> dict[str, Any]:
        """The figures of ``exlibris score --json``; every key given must match."""
        data = self.mapping(value, path, "inspection") or {}
        self.fields(data, path, INSPECTION_FIELDS, "inspection")
        out: dict[str, Any] = {k: data[k] for k in ("variant",) if k in data}
        for key in ("ranking", "winners"):
            if key in data:
                items = self.sequence(data[key], (*path, key), key) or []
                out[key] = [str(x) for k, x in enumerate(items)
                            if self.player(x, (*path, key, k)) is not None]
        if "tiebreak" in data:
            if data["tiebreak"] not in TIEBREAKS:
                self.fail((*path, "tiebreak"), "scenario/bad-value",
                          f"tiebreak is one of {', '.join(TIEBREAKS)}, not {data['tiebreak']!r}")
            out["tiebreak"] = str(data["tiebreak"])
        forms = []
        for i, item in enumerate(self.sequence(data.get("players"), (*path, "players"),
                                               "players") or []):
            form = self.mapping(item, (*path, "players", i), "a player's figures")
            if form is None:
                continue
            self.fields(form, (*path, "players", i), FORM_FIELDS, "a player's figures")
            if self.player(form.get("name"), (*path, "players", i, "name")) is None:
                continue
            for key in FORM_FIELDS[3:]:
                if key in form and (isinstance(form[key], bool)
                                    or not isinstance(form[key], int)):
                    self.fail((*path, "players", i, key), "scenario/wrong-type",
                              f"{key} is a whole number")
            if "tally" in form:
                tally = self.mapping(form["tally"], (*path, "players", i, "tally"), "tally")
                ids = {}
                for cat, count in (tally or {}).items():
                    code = self.category(cat, (*path, "players", i, "tally", cat))
                    if code is not None:
                        ids[CATEGORY_IDS[code]] = count
                form = {**form, "tally": ids}
            if "flipped" in form:
                form = {**form, "flipped": self.names_list(
                    form["flipped"], (*path, "players", i, "flipped"), "flipped")}
            forms.append(form)
        if "players" in data:
            out["players"] = forms
        self.expect_solo_inspection(data, path, out)
        return out

    def expect_solo_inspection(self, data: dict[str, Any], path: YamlPath,
                               out: dict[str, Any]) -> None:
        """Solo: the public library's figures and whether the player won."""
        if "win" in data:
            out["win"] = self.boolean(data["win"], (*path, "win"), "win")
        if "public_library" not in data:
            return
        where = (*path, "public_library")
        form = self.mapping(data["public_library"], where, "the public library's figures")
        if form is None:
            return
        self.fields(form, where, LIBRARY_FIELDS, "the public library's figures")
        if "tally" in form:
            tally = self.mapping(form["tally"], (*where, "tally"), "tally") or {}
            form = {**form, "tally": {CATEGORY_IDS[code]: count for cat, count in tally.items()
                                      if (code := self.category(cat, (*where, "tally", cat)))}}
        out["public_library"] = form

    def expect_location_stack(self, value: Any, path: YamlPath, setup: Any) -> list[str]:
        items = self.sequence(value, path, path[-1]) or []
        return [loc for i, item in enumerate(items) if (loc := self.location_id(item, (*path, i)))]

    expect_location_discard = expect_location_stack

    def expect_never_offered(self, value: Any, path: YamlPath, setup: Any
                             ) -> list[tuple[str | None, str]]:
        """Labels no decision of the run offered: ``label`` or ``PLAYER: label``."""
        out: list[tuple[str | None, str]] = []
        for i, item in enumerate(self.sequence(value, path, "never_offered") or []):
            player = None
            if isinstance(item, dict) and len(item) == 1:
                player, item = next(iter(item.items()))
                if self.player(player, (*path, i)) is None:
                    continue
            if isinstance(item, bool):
                item = "yes" if item else "no"
            if not isinstance(item, str) or not item.strip():
                self.fail((*path, i), "scenario/wrong-type",
                          "each never_offered entry is an option's label, or 'PLAYER: label'")
                continue
            who, colon, rest = item.partition(": ")
            if player is None and colon and who in self.names:  # "Ann: label", quoted
                self.fail((*path, i), "scenario/quoted-player",
                          f"{item.strip()!r} is one label that no option has; to name the "
                          f"player, write it unquoted: - {who}: {rest.strip()}")
                continue
            out.append((player, item.strip()))
        return out
