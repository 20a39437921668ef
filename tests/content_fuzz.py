"""The content fuzz: generated content files, validated, then played by bots.

The property it checks: a file that ``exlibris validate`` passes never stops a game,
other than by the step budget (``max_steps``), whose message then names the
author's entry. Each generated bundle (a location, an assistant card, a library, an
artifact, a module with its tile, or a variant) is written to a folder, validated as
``exlibris validate FOLDER`` does, and, if it passes, played in seeded bot games in
the modes its kind reaches (``plans``): the base game, the Job Faire for an
assistant, the Artifactorium for an artifact, solo where the entry says ``solo:
true``, the variant's own player counts for a variant. Content entries play short
games (the final round after a few rounds: the rules allow it) with the entry put
where it acts: a new tile in play from round 1, a library or assistant card at a
seat, every artifact card of the deck a copy of the new artifact.

``scripts/content_fuzz.py`` runs it at any size; ``tests/test_content_fuzz.py`` runs
a bounded form.
"""

from __future__ import annotations

import json
import random
import shutil
import sys
import traceback
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from content_gen import GrammarWalk, Scope, Typed, World, settings_overlay, world_of

from exlibris.agents import GreedyAgent, RandomAgent
from exlibris.agents.mcts import MctsAgent
from exlibris.agents.view import player_view
from exlibris.catalog import Catalog, Entry, load_catalog, shipped_catalog
from exlibris.dsl import checker
from exlibris.dsl import vocabulary as vocab
from exlibris.dsl.errors import EffectBudgetExceeded
from exlibris.engine.flow import new_game, play
from exlibris.model.content import GameModule
from exlibris.model.rules import VariantSettings
from exlibris.model.variants import resolve_settings
from exlibris.sources import use_content
from exlibris.validation import validate

COPIES = 4  # more copies of a new artifact in the Artifactorium's deck
KINDS = ("location", "assistant", "library", "artifact", "module", "variant")
TIMINGS = ("on-placement", "reaction", "ongoing", "end-of-game")
PARENTS = ("standard", "standard", "solo", "job-faire", "artifactorium", "beginner",
           "five-player", "expanded", "solo-artifactorium", "longer")


@dataclass
class Bundle:
    """One generated content entry (a module comes with its tile): its files."""

    kind: str
    main: str  # the id of the entry the bundle is about
    files: dict[str, str]
    solo: bool = False
    grammar: bool = False  # a field drawn from the grammar (``from_lark``)


# ---- making files ------------------------------------------------------------------------------


def _block(lines: list[str], indent: str) -> str:
    return "|\n" + "\n".join(indent + line for line in lines)


def _q(text: str) -> str:
    return json.dumps(text)


class Maker:
    """Bundles of every kind, from a seeded generator and grammar samples."""

    def __init__(self, world: World, kinds: tuple[str, ...] = KINDS) -> None:
        self.world = world
        self.kinds = kinds
        self.grammar = GrammarWalk(world)

    def bundle(self, index: int, seed: int) -> Bundle:
        rng = random.Random(seed)
        kind = self.kinds[index % len(self.kinds)]
        sample = {start: self.grammar.source(rng, start, rng.randint(3, 9))
                  for start in ("expression", "trigger", "rule")} \
            if rng.random() < 0.3 else None
        made = getattr(self, f"_{kind}")(rng, f"fz{index}", sample)
        made.grammar = sample is not None
        return made

    # -- effect-language fields --------------------------------------------------------------
    def _effect(self, rng: random.Random, names: dict[str, str]) -> list[str]:
        typed = Typed(rng, self.world, Scope(dict(names), verbs=True))
        return typed.program(rng.randint(1, 4))

    def _ability(self, rng: random.Random, timing: str, holder: str,
                 sample: dict[str, str] | None) -> list[str]:
        """An ability as YAML lines (a list item)."""
        lines = [f"- timing: {timing}", "  text: A generated ability."]
        if timing == "end-of-game":
            typed = Typed(rng, self.world, Scope(dict(vocab.SCORE_NAMES), verbs=False,
                                                 score=True))
            score = sample["expression"] if sample else typed.expr("int", rng.randint(1, 3))
            lines.append(f"  score: {_q(score)}")
            if holder == "assistant" and rng.random() < 0.3:
                lines.append(f"  adds_to: {rng.choice(['artifacts', 'entombed'])}")
            return lines
        this = checker.this_kind(holder)
        typed = Typed(rng, self.world, Scope(checker.program_names(location=False, this=this),
                                             verbs=False))
        if timing == "ongoing" and rng.random() < 0.35:
            rules = []
            for _ in range(rng.randint(1, 2)):
                if sample and not rules:
                    rules.append(sample["rule"])
                    continue
                typed.scope = Scope({**vocab.PLACEMENT_NAMES, "this": this}, verbs=False)
                rules.append(f"{rng.choice(vocab.RULE_KINDS)} if {typed.expr('bool', 2)}")
            lines.append("  placement:")
            lines += [f"    - {_q(rule)}" for rule in rules]
            return lines
        typed.holder = holder
        when, event = typed.trigger(timing)
        if sample and rng.random() < 0.5:
            when = sample["trigger"]
        names = checker.program_names(location=False, event=event, this=this)
        lines.append(f"  when: {_q(when)}")
        lines.append("  effect: |")
        lines += ["    " + line for line in self._effect(rng, names)]
        return lines

    def _abilities(self, rng: random.Random, holder: str, sample: dict[str, str] | None,
                   timings: tuple[str, ...] = TIMINGS) -> list[str]:
        lines: list[str] = []
        for i in range(rng.randint(1, 2)):
            lines += self._ability(rng, rng.choice(timings), holder, sample if i == 0 else None)
        return lines

    # -- kinds --------------------------------------------------------------------------------
    def _location_text(self, rng: random.Random, entry_id: str, module: str = "base") -> str:
        timing = rng.choice(["instant", "instant", "delayed"])
        spaces = [1, *rng.sample([1, 1, 2, 3, 4], rng.randint(0, 2))]
        lines = ["kind: location", f"id: {entry_id}", f"name: Place {entry_id}",
                 f"number: {40 + rng.randrange(59)}", f"module: {module}", f"timing: {timing}",
                 f"spaces: {spaces}", f"solo: {str(rng.random() < 0.5).lower()}",
                 "text: A generated location."]
        if timing == "delayed" and rng.random() < 0.6:
            lines += ["preparation:", f"  deal: {rng.randint(0, 4)}",
                      f"  face: {rng.choice(['up', 'down'])}"]
            if rng.random() < 0.3:
                lines.append(f"  source: {rng.choice(['books', 'assistant-cards', 'artifacts'])}")
            lines.append(f"resolve: {rng.choice(['each-assistant', 'once', 'bid-order'])}")
        if rng.random() < 0.1:
            style = rng.choice(["outbid", "capacity"])
            bids = len(spaces) if rng.random() < 0.9 else rng.randint(1, 4)
            lines.append(f"auction: {{style: {style}, bids: {sorted(rng.sample(range(6), bids))}}}")
        names = checker.program_names(location=True, this="location")
        lines.append("effect: " + _block(self._effect(rng, names), "  "))
        return "\n".join(lines) + "\n"

    def _location(self, rng: random.Random, entry_id: str, sample: Any) -> Bundle:
        text = self._location_text(rng, entry_id)
        return Bundle("location", entry_id, {f"{entry_id}.yaml": text}, "solo: true" in text)

    def _assistant(self, rng: random.Random, entry_id: str, sample: Any) -> Bundle:
        solo = rng.random() < 0.5
        lines = ["kind: assistant", f"id: {entry_id}", f"name: Helper {entry_id}",
                 f"edition: {rng.choice(['expanded', 'base'])}", f"solo: {str(solo).lower()}",
                 "text: A generated assistant.", "abilities:",
                 *("  " + x for x in self._abilities(rng, "assistant", sample))]
        return Bundle("assistant", entry_id, {f"{entry_id}.yaml": "\n".join(lines) + "\n"}, solo)

    def _library(self, rng: random.Random, entry_id: str, sample: Any) -> Bundle:
        solo = rng.random() < 0.5
        lines = ["kind: library", f"id: {entry_id}", f"name: Library {entry_id}",
                 f"solo: {str(solo).lower()}", "text: A generated library.", "assistant:",
                 f"  id: {entry_id}-helper", f"  name: Keeper {entry_id}", "  edition: base",
                 "  text: Its assistant.", "  abilities:",
                 *("    " + x for x in self._abilities(rng, "assistant", sample))]
        return Bundle("library", entry_id, {f"{entry_id}.yaml": "\n".join(lines) + "\n"}, solo)

    def _artifact(self, rng: random.Random, entry_id: str, sample: Any) -> Bundle:
        solo = rng.random() < 0.5
        timing = rng.choice(["ongoing", "end-of-game"])
        timings = ("end-of-game",) if timing == "end-of-game" else ("ongoing", "end-of-game")
        lines = ["kind: artifact", f"id: {entry_id}", f"name: Relic {entry_id}",
                 f"timing: {timing}", f"solo: {str(solo).lower()}", "text: A generated relic.",
                 "abilities:", *("  " + x for x in self._abilities(rng, "artifact", sample,
                                                                  timings))]
        return Bundle("artifact", entry_id, {f"{entry_id}.yaml": "\n".join(lines) + "\n"}, solo)

    def _module(self, rng: random.Random, entry_id: str, sample: Any) -> Bundle:
        tile = f"{entry_id}-tile"
        location = self._location_text(rng, tile, module=entry_id)
        lines = ["kind: module", f"id: {entry_id}", f"name: Module {entry_id}",
                 "text: A generated module.", f"locations: [{tile}]"]
        if rng.random() < 0.6:
            lines.append(f"permanent_locations: [{tile}]")
        return Bundle("module", entry_id, {f"{entry_id}.yaml": "\n".join(lines) + "\n",
                                           f"{tile}.yaml": location}, "solo: true" in location)

    def _variant(self, rng: random.Random, entry_id: str, sample: Any) -> Bundle:
        parent = rng.choice([p for p in PARENTS if p in self.world.variants])
        overlay = settings_overlay(rng, VariantSettings, self.world, many=0.3)
        lines = ["kind: variant", f"id: {entry_id}", f"name: Rules {entry_id}",
                 f"extends: {parent}", "text: Generated rules.",
                 "settings: " + json.dumps(overlay)]
        return Bundle("variant", entry_id, {f"{entry_id}.yaml": "\n".join(lines) + "\n"},
                      parent.startswith("solo"))


# ---- playing them -------------------------------------------------------------------------------


@dataclass
class Totals:
    """What a run came to."""

    generated: int = 0
    validated: int = 0
    games: int = 0
    budget_stops: int = 0
    by_kind: Counter[str] = field(default_factory=Counter)
    validated_by_kind: Counter[str] = field(default_factory=Counter)
    refusals: Counter[str] = field(default_factory=Counter)  # validate's codes
    failures: list[dict[str, Any]] = field(default_factory=list)
    grammar_validated: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {"generated": self.generated, "validated": self.validated,
                "games": self.games, "budget_stops": self.budget_stops,
                "failures": len(self.failures), "by_kind": dict(self.by_kind),
                "validated_by_kind": dict(self.validated_by_kind),
                "grammar_validated": self.grammar_validated,
                "refusals": dict(self.refusals.most_common(15)),
                "failure_list": self.failures}


@dataclass(frozen=True)
class Plan:
    """One game to play: the rules, the seats, and what the entry needs to be in it."""

    variant: str
    players: int
    libraries: tuple[str | None, ...] = ()
    assistants: tuple[str | None, ...] = ()
    short: bool = True  # end after a few rounds (content entries; a variant plays its own)


def plans(bundle: Bundle, catalog: Catalog, rng: random.Random) -> list[Plan]:
    """The games a validated bundle is played in: the modes its kind reaches."""
    n = rng.choice([2, 3])
    main = bundle.main
    if bundle.kind in ("location", "module"):
        found = [Plan("standard", n)]
        return [*found, Plan("solo", 1)] if bundle.solo else found
    if bundle.kind == "assistant":
        seat = rng.randrange(n)
        given = tuple(main if i == seat else None for i in range(n))
        found = [Plan("standard", n, assistants=given), Plan("job-faire", 5 - n)]
        return [*found, Plan("solo", 1, assistants=(main,))] if bundle.solo else found
    if bundle.kind == "library":
        seat = rng.randrange(n)
        given = tuple(main if i == seat else None for i in range(n))
        found = [Plan("standard", n, libraries=given)]
        return [*found, Plan("solo", 1, libraries=(main,))] if bundle.solo else \
            [*found, Plan("expanded", 5 - n, libraries=given[::-1] + (None,) * (5 - 2 * n))]
    if bundle.kind == "artifact":
        found = [Plan("artifactorium", n)]
        return [*found, Plan("solo-artifactorium", 1)] if bundle.solo else found
    settings = resolve_settings(main, catalog.variants)  # a variant: its own counts, in full
    counts = sorted(settings.players)
    return [Plan(main, rng.choice(counts), short=False)]


def _settings(catalog: Catalog, plan: Plan, bundle: Bundle, rng: random.Random) -> Any:
    settings = resolve_settings(plan.variant, catalog.variants)
    if not plan.short:
        return settings
    final = settings.final_round.model_copy(update={"rounds": rng.choice([2, 3, 4]),
                                                    "or_shelf_trigger": True})
    update: dict[str, Any] = {"final_round": final}
    if bundle.kind in ("location", "module"):
        own = [bundle.main] if bundle.kind == "module" else []
        update["modules"] = [*settings.modules, *own, "fz-in-play"]
    return settings.model_copy(update=update)


def _seat(kind: str, seed: int) -> Any:
    if kind == "mcts":
        return MctsAgent(seed, iterations=4)
    return GreedyAgent(seed) if kind == "greedy" else RandomAgent(seed)


def seats(rng: random.Random, players: int, mcts_every: int, game: int) -> tuple[str, ...]:
    """Random seats, or one greedy seat among them; an ``mcts:4`` seat every
    ``mcts_every``-th game."""
    bot = "mcts" if mcts_every and game % mcts_every == mcts_every - 1 else \
        "greedy" if rng.random() < 0.6 else "random"
    chosen = rng.randrange(players)
    return tuple(bot if i == chosen else "random" for i in range(players))


def _game_catalog(folder: Path, bundle: Bundle) -> Catalog:
    """The shipped catalog joined by the bundle's folder (as ``--content`` does); its
    entry put where it acts: a tile (a location, a module's tile) in play from round 1
    through a permanent module, ``COPIES`` more copies of a new artifact in the deck (their
    files written beside it) with four shipped artifacts."""
    if bundle.kind == "artifact":
        text = (folder / f"{bundle.main}.yaml").read_text("utf-8")
        for i in range(COPIES):
            copy = f"{bundle.main}-copy{i}"
            (folder / f"{copy}.yaml").write_text(
                text.replace(f"id: {bundle.main}\n", f"id: {copy}\n"), "utf-8")
    use_content(sorted(folder.glob("*.yaml")))
    catalog = load_catalog()
    own = [e for e in catalog.entries if e.path.parent == folder]
    entries = list(catalog.entries)
    if bundle.kind in ("location", "module"):
        tiles = [e.model.id for e in own if e.kind == "location"]
        module = GameModule.model_construct(kind="module", id="fz-in-play", name="in play",
                                            text="", locations=[], permanent_locations=tiles,
                                            players=[])
        entries.append(Entry(Path("fz-in-play.yaml"), None, module))  # type: ignore[arg-type]
    if bundle.kind == "artifact":
        kept = [e for e in entries if e.kind != "artifact"]
        shipped_ones = [e for e in entries if e.kind == "artifact" and e not in own][:4]
        entries = kept + shipped_ones + [e for e in own if e.kind == "artifact"]
    return Catalog(entries)


def play_bundle(bundle: Bundle, folder: Path, shipped: Catalog, seed: int, totals: Totals,
                mcts_every: int = 0, keep: Path | None = None) -> None:
    """Write, validate and (if it passes) play one bundle; count what happened."""
    totals.generated += 1
    totals.by_kind[bundle.kind] += 1
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    for name, text in bundle.files.items():
        (folder / name).write_text(text, "utf-8")
    paths = [folder / name for name in bundle.files]  # files: no walk of the folder
    report = validate(paths)
    if not report.ok:
        for problem in report.problems[:1]:
            totals.refusals[problem.code] += 1
        return
    totals.validated += 1
    totals.validated_by_kind[bundle.kind] += 1
    totals.grammar_validated += bundle.grammar
    try:
        catalog = _game_catalog(folder, bundle)
        _play_plans(bundle, folder, catalog, seed, totals, mcts_every, keep)
    finally:
        use_content(())
        shutil.rmtree(folder, ignore_errors=True)


def _play_plans(bundle: Bundle, folder: Path, catalog: Catalog, seed: int, totals: Totals,
                mcts_every: int, keep: Path | None) -> None:
    rng = random.Random(seed)
    for plan in plans(bundle, catalog, rng):
        game_seed = rng.randrange(10**9)
        sitting = seats(rng, plan.players, mcts_every if plan.short else 0, totals.games)
        totals.games += 1
        error = _play(catalog, plan, bundle, sitting, game_seed, rng)
        if error is None:
            continue
        if error.get("budget"):
            totals.budget_stops += 1
            continue
        failure = {"kind": bundle.kind, "id": bundle.main, "variant": plan.variant,
                   "players": plan.players, "libraries": plan.libraries,
                   "assistants": plan.assistants, "short": plan.short, "seed": game_seed,
                   "seats": ",".join(sitting), **error}
        totals.failures.append(failure)
        if keep is not None:
            kept = keep / f"{len(totals.failures):04d}-{bundle.main}"
            shutil.copytree(folder, kept, dirs_exist_ok=True)
            (kept / "failure.json").write_text(json.dumps(failure, indent=2), "utf-8")


def _play(catalog: Catalog, plan: Plan, bundle: Bundle, sitting: tuple[str, ...], seed: int,
          rng: random.Random) -> dict[str, Any] | None:
    agents = [_seat(kind, seed + i) for i, kind in enumerate(sitting)]
    try:
        settings = _settings(catalog, plan, bundle, rng)
        game = new_game(catalog, settings, agents, seed=seed, views=player_view,
                        variant=plan.variant, libraries=list(plan.libraries) or None,
                        assistants=list(plan.assistants) or None)
        play(game)
    except EffectBudgetExceeded as exc:
        named = bundle.main in str(exc) or any(Path(f).stem in str(exc) for f in bundle.files)
        if named:
            return {"budget": True}
        return {"error": f"{type(exc).__name__}: {str(exc)[:300]}", "at": "step budget"}
    except Exception as exc:  # what the fuzz counts
        last = traceback.extract_tb(exc.__traceback__)[-1]
        return {"error": f"{type(exc).__name__}: {str(exc)[:300]}",
                "at": f"{Path(last.filename).name}:{last.lineno}"}
    return None


def run(files: int, seed: int, work: Path, keep: Path | None = None, mcts_every: int = 0,
        progress: bool = False, kinds: tuple[str, ...] = KINDS) -> Totals:
    """Generate ``files`` bundles from ``seed``, validate and play each."""
    shipped = shipped_catalog()
    world = world_of(shipped)
    maker = Maker(world, kinds)
    totals = Totals()
    for index in _indices(files):
        bundle = maker.bundle(index, seed * 1_000_003 + index)
        play_bundle(bundle, work / bundle.main, shipped, seed + index, totals, mcts_every, keep)
        if progress and (index + 1) % 250 == 0:
            print(f"{index + 1} files: {totals.validated} validated, {totals.games} games, "
                  f"{totals.budget_stops} stopped by the budget, {len(totals.failures)} "
                  "failures", file=sys.stderr, flush=True)
    return totals


def _indices(files: int) -> Iterator[int]:
    yield from range(files)
