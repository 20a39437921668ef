"""`exlibris validate`: every check a content or rules file gets.

YAML syntax and safety (``yamlsafe``), the schema (``catalog.read_entry``),
the effect language in every source field, and cross-references (unique ids,
file names, modules, variants and what they name).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, get_args

from pydantic import ValidationError

from exlibris.catalog import Catalog, Entry, join, read_catalog, setting_shape, shipped_catalog
from exlibris.dsl import vocabulary as vocab
from exlibris.dsl.checker import (
    Catalog as IdCatalog,
)
from exlibris.dsl.checker import (
    check_program,
    check_reachable,
    check_rule,
    check_score,
    check_trigger,
    did_you_mean,
    program_names,
    this_kind,
)
from exlibris.dsl.errors import DslError
from exlibris.dsl.parser import parse_expression, parse_program, parse_rule, parse_trigger
from exlibris.errors import Problem, UserInputError, caret_context
from exlibris.model.content import (
    SHIPPED_MODULES,
    Ability,
    Artifact,
    AssistantCard,
    GameModule,
    Library,
    Location,
    Timing,
)
from exlibris.model.merging import ChainError, merge
from exlibris.model.rules import Settings, Variant, unknown_keys
from exlibris.model.variants import resolve_settings, variant_chain
from exlibris.paths import content_dir, rules_dir
from exlibris.schema_words import ID_PATTERN, in_words
from exlibris.sources import outside_links, sort_files
from exlibris.yamlsafe import LoadedYaml


@dataclass
class Report:
    """What validation found."""

    files: int = 0
    problems: list[Problem] = field(default_factory=list)
    skipped: list[Path] = field(default_factory=list)  # YAML files that are not content
    replaced: list[tuple[str, str]] = field(default_factory=list)  # (id, file) of own entries
    # that replace a shipped entry of the same kind and id
    scenarios: int = 0  # scenario files checked
    # scenario files not read: this module checks content and rules only; the scenario
    # package reads them once the content is clean (``scenario/check.py``)
    unchecked: list[Path] = field(default_factory=list)
    content: list[Path] = field(default_factory=list)  # the content files checked

    @property
    def ok(self) -> bool:
        return not self.problems


def default_paths() -> list[Path]:
    return [content_dir(), rules_dir()]


def validate(paths: Iterable[Path] | None = None) -> Report:
    """Check the content and rules files under ``paths`` (default: the shipped ones).

    Each file is judged by its ``kind:``: content and rules files get every check,
    scenario files are listed in ``Report.unchecked`` (``scenario/check.py`` reads
    them), and YAML files without a ``kind:`` are skipped (``Report.skipped``).
    """
    paths = list(paths) if paths is not None else default_paths()
    content, scenario_files, other = sort_files(paths)
    catalog, problems = read_catalog(content)
    problems += [Problem(str(link), 1, 1, "file/outside-link", "a symlink in a content "
                         "folder that leads out of the folder: not read; copy the file in")
                 for link in outside_links(paths)]
    report = Report(files=len(catalog.entries) + len({p.file for p in problems}),
                    skipped=other, unchecked=scenario_files, content=content)
    report.problems.extend(problems)
    shipped = _shipped_catalog(paths)
    if shipped is not None:
        report.replaced = join(shipped, catalog).replaced
    ids = {**(shipped.ids() if shipped else {}), **catalog.ids()}
    variants = {**(shipped.variants if shipped else {}), **catalog.variants}
    base = variants.get("standard")
    # the base rules' rulings, by name (a file's own ``rulings:`` that is not a mapping
    # is its own problem, reported where that file is checked)
    found = base.overlay.get("rulings") if base is not None else None
    base_rulings: dict[str, Any] = found if isinstance(found, dict) else {}
    rulings = frozenset(base_rulings)
    codes = {c.code: c.id for c in [*(shipped.categories if shipped else []),
                                    *catalog.categories]}
    standard = base.overlay if base is not None else {}
    kinds = {name: _kind_of(value) for name, value in base_rulings.items()}
    steps = standard.get("max_steps")
    id_catalog = IdCatalog(ids, rulings, codes, kinds, steps if isinstance(steps, int) else None)
    for entry in catalog.entries:
        report.problems.extend(check_sources(entry, id_catalog))
    for loaded in catalog.unfit:
        report.problems.extend(check_unfit(loaded, id_catalog))
    report.problems.extend(check_references(catalog, shipped))
    report.problems.sort(key=lambda p: (p.file, p.line, p.col))
    return report


def _kind_of(value: Any) -> str:
    """The effect-language type of a ruling's value (what ``setting()`` gives)."""
    if isinstance(value, bool):
        return "bool"
    return "int" if isinstance(value, int) else "str" if isinstance(value, str) else "any"


def _shipped_catalog(paths: list[Path]) -> Catalog | None:
    """The shipped catalog, for references from a user's own files to shipped ids."""
    if {p.resolve() for p in paths} == {p.resolve() for p in default_paths()}:
        return None
    try:
        return shipped_catalog()
    except UserInputError:  # broken shipped files: use what can be read
        return read_catalog(default_paths())[0]


# ---- the effect language in every source field -------------------------------------------------


def _sources(entry: Entry) -> Iterator[tuple[tuple[Any, ...], str, Ability | None]]:
    """(path, field kind, ability) for each source field of an entry."""
    model = entry.model
    if isinstance(model, Location):
        yield ("effect",), "effect", None
    abilities: list[tuple[tuple[Any, ...], Ability]] = []
    if isinstance(model, Library):
        abilities = [(("assistant", "abilities", i), a)
                     for i, a in enumerate(model.assistant.abilities)]
    elif isinstance(model, AssistantCard | Artifact | Variant):
        abilities = [(("abilities", i), a) for i, a in enumerate(model.abilities)]
    for base, ability in abilities:
        if ability.when is not None:
            yield (*base, "when"), "when", ability
        if ability.effect is not None:
            yield (*base, "effect"), "effect", ability
        for j in range(len(ability.placement)):
            yield (*base, "placement", j), "placement", ability
        if ability.score is not None:
            yield (*base, "score"), "score", ability


def _value(data: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        data = data[part]
    return data


def check_sources(entry: Entry, catalog: IdCatalog) -> list[Problem]:
    """Parse and check every effect-language field of one entry."""
    holder = ("artifact" if isinstance(entry.model, Artifact)
              else "rule" if isinstance(entry.model, Variant) else "assistant")
    problems = _check_fields(entry.loaded, _sources(entry), catalog, holder)
    if isinstance(entry.model, Library | AssistantCard | Artifact | Variant):
        problems.extend(_ability_shape(entry))
    return problems


def _check_fields(loaded: LoadedYaml, sources: Iterable[tuple[tuple[Any, ...], str, Any]],
                  catalog: IdCatalog, holder: str) -> list[Problem]:
    problems: list[Problem] = []
    for path, kind, ability in sources:
        source = _value(loaded.data, path)
        try:
            errors = _check_one(kind, source, ability, catalog, is_location=ability is None,
                                holder=holder)
        except DslError as exc:
            errors = [exc]
        problems.extend(_locate(loaded, path, source, e) for e in errors)
    return problems


@dataclass(frozen=True)
class _RawAbility:
    """What ``_check_one`` reads of an ability the schema refused."""

    when: str | None
    timing: str


def check_unfit(loaded: LoadedYaml, catalog: IdCatalog) -> list[Problem]:
    """The effect-language fields of a file the schema refused, read from its data:
    their problems are reported beside the schema's, not after it is fixed."""
    data = loaded.data
    kind = data.get("kind") if isinstance(data, dict) else None
    sources: list[tuple[tuple[Any, ...], str, Any]] = []
    if kind == "location" and isinstance(data.get("effect"), str):
        sources.append((("effect",), "effect", None))
    base: tuple[Any, ...] = ("assistant", "abilities") if kind == "library" else ("abilities",)
    holder = data.get("assistant") if kind == "library" else data
    abilities = holder.get("abilities") if isinstance(holder, dict) else None
    for i, ability in enumerate(abilities if isinstance(abilities, list) else []):
        if not isinstance(ability, dict) or ability.get("timing") not in get_args(Timing):
            continue  # the schema's error says what the timing must be
        when = ability.get("when") if isinstance(ability.get("when"), str) else None
        raw = _RawAbility(when, ability["timing"])
        for key, field_kind in (("when", "when"), ("effect", "effect"), ("score", "score")):
            if isinstance(ability.get(key), str):
                sources.append(((*base, i, key), field_kind, raw))
        rules = ability.get("placement")
        for j, rule in enumerate(rules if isinstance(rules, list) else []):
            if isinstance(rule, str):
                sources.append(((*base, i, "placement", j), "placement", raw))
    problems = _check_fields(loaded, sources, catalog,
                             "artifact" if kind == "artifact"
                             else "rule" if kind == "variant" else "assistant")
    entry_id = data.get("id")
    stem = Path(loaded.filename).stem
    if isinstance(entry_id, str) and kind not in ("categories", "books") and stem != entry_id \
            and re.fullmatch(ID_PATTERN, entry_id):  # (an invalid id: the schema says so)
        problems.append(loaded.problem(("id",), "content/file-name", _file_name_message(
            Path(loaded.filename).name, entry_id)))
    return problems


def _check_one(kind: str, source: str, ability: Ability | None, catalog: IdCatalog,
               *, is_location: bool, holder: str = "assistant") -> list[DslError]:
    this = this_kind("location" if is_location else holder)
    if kind == "effect":
        program = parse_program(source)
        event = None
        if ability is not None and ability.when:
            try:
                event = vocab.EVENTS.get(parse_trigger(ability.when).event)
            except DslError:  # reported once, at the 'when:' line; allow any event's names
                event = vocab.Event({n: t for e in vocab.EVENTS.values()
                                     for n, t in e.names.items()}, frozenset(), "")
        return check_program(program, program_names(location=is_location, event=event,
                                                    this=this), catalog)
    if kind == "when":
        assert ability is not None
        trigger = parse_trigger(source)
        errors = check_trigger(trigger, ability.timing, catalog, this)
        return errors or check_reachable(trigger, holder)
    if kind == "placement":
        return check_rule(parse_rule(source), catalog, this)
    return check_score(parse_expression(source), catalog)


def _locate(loaded: LoadedYaml, path: tuple[Any, ...], source: str, error: DslError
            ) -> Problem:
    """Turn a position inside a source field into a position in the file."""
    line, col = loaded.content_position(path)
    # a block scalar keeps its lines and shifts every column by its indentation
    file_line = line + error.line - 1
    file_col = col + error.col - 1
    context = caret_context(loaded.text, file_line, file_col)
    return Problem(loaded.filename, file_line, file_col, error.code, error.message, context)


def _ability_shape(entry: Entry) -> list[Problem]:
    """Each ability has what its timing needs."""
    problems: list[Problem] = []
    model = entry.model
    if isinstance(model, Library):
        abilities = [(("assistant", "abilities", i), a)
                     for i, a in enumerate(model.assistant.abilities)]
    else:
        abilities = [(("abilities", i), a) for i, a in enumerate(model.abilities)]
    for path, ability in abilities:
        def fail(code: str, message: str, path: tuple[Any, ...] = path) -> None:
            problems.append(entry.loaded.problem(path, code, message))

        if ability.timing == "end-of-game":
            if ability.score is None:
                fail("content/missing-score", "an end-of-game ability needs a 'score:'")
            if ability.when or ability.effect:
                fail("content/end-of-game-effect",
                     "an end-of-game ability scores; it has no 'when:' or 'effect:'")
        elif ability.effect is None and not ability.placement:
            fail("content/missing-effect", f"an ability ({ability.timing}) needs an 'effect:' "
                 "or 'placement:' rules")
        elif ability.effect is not None and ability.when is None:
            fail("content/missing-trigger", f"an ability ({ability.timing}) with an effect "
                 "needs a 'when:' trigger")
    return problems


# ---- cross-references ---------------------------------------------------------------------------


def check_references(catalog: Catalog, shipped: Catalog | None) -> list[Problem]:
    problems: list[Problem] = []
    problems.extend(_unique_ids(catalog))
    if shipped is not None:
        problems.extend(_clashes(catalog, shipped))
    problems.extend(_location_numbers(catalog, shipped))
    known = {**(shipped.ids() if shipped else {}), **catalog.ids()}
    for entry in catalog.entries:
        model = entry.model
        if hasattr(model, "id") and entry.path.stem != model.id and model.kind not in (
                "categories", "books"):
            problems.append(entry.loaded.problem(
                ("id",), "content/file-name", _file_name_message(entry.path.name, model.id)))
        if isinstance(model, GameModule):
            for i, loc in enumerate([*model.locations, *model.permanent_locations]):
                if known.get(loc) != "location":
                    field_ = "locations" if i < len(model.locations) else "permanent_locations"
                    index = i if i < len(model.locations) else i - len(model.locations)
                    problems.append(entry.loaded.problem(
                        (field_, index), "content/unknown-id",
                        _unknown_id("location", loc, _of(known, "location"))))
    modules = {*SHIPPED_MODULES, *_of(known, "module")}
    for entry in catalog.entries:
        model = entry.model
        if isinstance(model, Location) and model.auction is not None \
                and len(model.auction.bids) != len(model.spaces):
            problems.append(entry.loaded.problem(("auction", "bids"), "content/auction-bids", (
                f"an auction has one bid for each space: {len(model.spaces)} spaces, "
                f"{len(model.auction.bids)} bids; write {len(model.spaces)} bids")))
        if isinstance(model, Location) and model.module not in modules:
            problems.append(entry.loaded.problem(("module",), "content/unknown-module",
                                                 _unknown_module(model.module, modules)))
        if isinstance(model, AssistantCard):
            problems.extend(entry.loaded.problem(("requires", i), "content/unknown-module",
                                                 _unknown_module(m, modules))
                            for i, m in enumerate(model.requires) if m not in modules)
    variants = {**(shipped.variants if shipped else {}), **catalog.variants}
    libraries = list({**(shipped.libraries if shipped else {}), **catalog.libraries}.values())
    for entry in catalog.entries:
        if isinstance(entry.model, Variant):
            problems.extend(_check_variant(entry, variants, known, libraries))
            problems.extend(entry.loaded.problem(
                ("settings", "modules", i), "rules/unknown-module", _unknown_module(m, modules))
                for i, m in enumerate(entry.model.overlay.get("modules") or [])
                if m not in modules)
    return problems


def _unknown_module(module: str, modules: set[str]) -> str:
    return (f"unknown module {module!r}{did_you_mean(module, modules)}; the modules are "
            f"{', '.join(sorted(modules))} (your own: a file with 'kind: module')")


def _unknown_id(kind: str, word: str, known: list[str]) -> str:
    """An unknown id of ``kind``: the closest known one, else every one there is."""
    close = did_you_mean(word, known)
    return f"unknown {kind} {word!r}{close}" if close else (
        f"unknown {kind} {word!r}; the {kind} ids are {', '.join(sorted(known))}")


def _file_name_message(name: str, entry_id: str) -> str:
    stem = Path(name).stem
    other = f", or write 'id: {stem}'" if re.fullmatch(ID_PATTERN, stem) else ""
    return (f"the file name {name!r} does not match its id {entry_id!r} (a file is named "
            f"after the id it holds): rename the file to {entry_id}.yaml{other}")


def _of(known: dict[str, str], kind: str) -> list[str]:
    return [i for i, k in known.items() if k == kind]


def _unique_ids(catalog: Catalog) -> list[Problem]:
    problems: list[Problem] = []
    seen: dict[tuple[str, str], Entry] = {}
    for entry in catalog.entries:
        model = entry.model
        if not hasattr(model, "id"):
            continue
        group = "variant" if model.kind == "variant" else "content"
        key = (group, model.id)
        if key in seen:
            problems.append(entry.loaded.problem(
                ("id",), "content/duplicate-id",
                f"id {model.id!r} is already used by {seen[key].loaded.filename}"))
        else:
            seen[key] = entry
    return problems


def _clashes(catalog: Catalog, shipped: Catalog) -> list[Problem]:
    """An author's id that a shipped entry of another kind already uses."""
    problems: list[Problem] = []
    theirs = shipped.ids()
    for entry in catalog.entries:
        model = entry.model
        kind = theirs.get(getattr(model, "id", ""))
        if model.kind in ("location", "library", "assistant", "artifact", "module") \
                and kind is not None and kind != model.kind:
            problems.append(entry.loaded.problem(
                ("id",), "content/id-clash",
                f"the id {model.id!r} is already the shipped {kind} {model.id!r}; an @id "
                "must name one thing: choose another id"))
    return problems


def _location_numbers(catalog: Catalog, shipped: Catalog | None) -> list[Problem]:
    """Two locations with one number: resolution order would be ambiguous (RES-01)."""
    problems: list[Problem] = []
    own = {e.model.id for e in catalog.entries if isinstance(e.model, Location)}
    numbers: dict[int, str] = {}
    if shipped is not None:
        numbers = {loc.number: f"the shipped location {loc.id!r}"
                   for loc in shipped.locations.values() if loc.id not in own}
    for entry in catalog.entries:
        model = entry.model
        if not isinstance(model, Location):
            continue
        if model.number in numbers:
            taken = set(numbers)
            free = next(n for n in range(1, 100) if n not in taken)
            problems.append(entry.loaded.problem(
                ("number",), "content/duplicate-number",
                f"number {model.number} is already used by {numbers[model.number]}; "
                f"locations resolve in number order, so each needs its own (e.g. {free})"))
        else:
            numbers[model.number] = f"{entry.loaded.filename} ({model.id!r})"
    return problems


def _check_variant(entry: Entry, variants: dict[str, Variant], known: dict[str, str],
                   libraries: list[Library] | None = None) -> list[Problem]:
    variant: Variant = entry.model
    loaded = entry.loaded
    try:
        chain = variant_chain(variant.id, {**variants, variant.id: variant})
    except ChainError as exc:  # a cycle
        return [loaded.problem(("extends",), "rules/variant-cycle", str(exc))]
    except ValueError as exc:
        return [loaded.problem(("extends",), "rules/unknown-variant", str(exc))]
    problems: list[Problem] = []
    if variant.extends is not None:
        base: dict[str, Any] = {}
        for ancestor in chain[:-1]:
            base = merge(base, ancestor.overlay)
        for path in unknown_keys(base, variant.overlay):
            problems.append(loaded.problem(("settings", *path), "rules/unknown-setting",
                                           f"unknown setting {'.'.join(path)!r}", at_key=True))
        problems.extend(_parent_conflicts(entry, {**variants, variant.id: variant}))
        if problems:
            return problems
    try:
        settings = resolve_settings(variant.id, {**variants, variant.id: variant})
    except ValidationError as exc:
        if variant.extends is None and any(e["type"] == "missing" for e in exc.errors()):
            return [loaded.problem(("id",), "rules/missing-extends",
                                   "a variant names the rules it changes: add "
                                   "'extends: standard' (only a complete rules file like "
                                   "rules/standard.yaml stands alone)", at_key=True)]
        for err in exc.errors():
            where = ".".join(str(p) for p in err["loc"])
            shape = setting_shape(err["loc"], err["type"])
            problems.append(loaded.problem(("settings", *err["loc"]), "rules/invalid-settings",
                                           f"setting {where!r} {in_words(err)}{shape}"))
        return problems
    problems.extend(_check_scoring(entry, settings))
    if libraries is not None:
        problems.extend(_unplayable(entry, settings, libraries))
    for key in ("starting_locations", "remove_locations"):
        for i, loc in enumerate(getattr(settings.setup, key)):
            if known.get(loc) != "location" and loc in variant.overlay.get("setup", {}).get(
                    key, []):
                problems.append(loaded.problem(
                    ("settings", "setup", key, i), "rules/unknown-id",
                    _unknown_id("location", loc, _of(known, "location"))))
    for i, lib in enumerate(settings.setup.remove_libraries):
        if known.get(lib) != "library" and lib in variant.overlay.get("setup", {}).get(
                "remove_libraries", []):
            problems.append(loaded.problem(
                ("settings", "setup", "remove_libraries", i), "rules/unknown-id",
                _unknown_id("library", lib, _of(known, "library"))))
    return problems




def _leaves(data: dict[str, Any], path: tuple[str, ...] = ()) -> dict[tuple[str, ...], Any]:
    """Every setting a plain settings map sets, by its dotted path."""
    found: dict[tuple[str, ...], Any] = {}
    for key, value in data.items():
        if isinstance(value, dict) and value:
            found.update(_leaves(value, (*path, str(key))))
        else:
            found[(*path, str(key))] = value
    return found


def _parent_conflicts(entry: Entry, variants: dict[str, Variant]) -> list[Problem]:
    """Two parents of one variant that set one setting to different values, where the
    variant itself does not say which: the later parent wins, but the author may not
    know it, so the choice must be written down."""
    variant: Variant = entry.model
    parents = variant.parents
    if len(parents) < 2:
        return []
    chains = {p: [v.id for v in variant_chain(p, variants)] for p in parents}
    own_settings = _leaves(variant.overlay)
    setters: dict[tuple[str, ...], tuple[str, Any]] = {}
    clashes: dict[tuple[str, str], list[str]] = {}
    for parent in parents:
        shared = {v for other in parents if other != parent for v in chains[other]}
        brought: dict[str, Any] = {}
        for vid in chains[parent]:
            if vid not in shared:
                brought = merge(brought, variants[vid].overlay)
        for path, value in _leaves(brought).items():
            if path in setters and setters[path][1] != value and path not in own_settings:
                clashes.setdefault((setters[path][0], parent), []).append(".".join(path))
            setters[path] = (parent, value)
    problems: list[Problem] = []
    for (first, later), where in clashes.items():
        shown = ", ".join(repr(w) for w in where[:3]) + (", ..." if len(where) > 3 else "")
        problems.append(entry.loaded.problem(
            ("extends", parents.index(later)), "rules/parents-conflict",
            f"{first!r} and {later!r} set {shown} differently; the later parent "
            f"({later!r}) would win: say which you mean by setting {where[0]!r} "
            f"{'and the others ' if len(where) > 1 else ''}in this variant"))
    return problems


def _unplayable(entry: Entry, settings: Settings, libraries: list[Library]) -> list[Problem]:
    """Settings a game cannot be set up with at one of the variant's player counts
    (what ``engine/flow.py: check_playable`` and the library draft would stop a game
    on): too few category cards or library tiles to deal."""
    variant: Variant = entry.model
    written = variant.overlay

    def at(*keys: tuple[str, ...]) -> tuple[str, ...]:
        for key in keys:  # the first setting the variant writes itself, else its id
            data: Any = written
            for part in key:
                data = data.get(part) if isinstance(data, dict) else None
            if data is not None:
                return ("settings", *key)
        return ("id",)

    solo = settings.solo
    if solo is not None and set(settings.players) != {1}:
        return [entry.loaded.problem(at(("players",), ("solo",)), "rules/unplayable", (
            "solo rules (a 'solo:' section) play one player: players [1]; for more players "
            "extend rules without 'solo:', e.g. standard"))]
    if solo is None and 1 in settings.players:
        return [entry.loaded.problem(at(("players",)), "rules/unplayable", (
            "one player plays the solo game, which needs a 'solo:' section: extend solo, "
            "or leave 1 out of players"))]
    banned = 1 if settings.scoring.get("banned_books", True) else 0
    if settings.setup.prominent_categories > 1:
        where = at(("setup", "prominent_categories"), ("players",))
        if solo is not None:
            return [entry.loaded.problem(where, "rules/unplayable", "solo play has one "
                                         "prominent category: set prominent_categories to 1")]
        most = max(settings.players)
        if 2 + banned + most > 6:
            return [entry.loaded.problem(where, "rules/unplayable", (
                f"two prominent categories, {'a banned one, ' if banned else ''}and a focus "
                f"for each of {most} players need {2 + banned + most} category cards; there "
                f"are six: play it with at most {4 - banned} players, or with one prominent "
                "category"))]
    pool = [lib for lib in libraries if lib.id not in settings.setup.remove_libraries]
    if solo is not None:
        listed = solo.libraries
        pool = [lib for lib in pool if lib.id in listed] if listed is not None \
            else [lib for lib in pool if lib.solo]
    most = max(settings.players)
    needed = settings.setup.libraries_dealt * most
    if needed > len(pool):
        where = at(("setup", "libraries_dealt"), ("setup", "remove_libraries"),
                   ("solo", "libraries"), ("players",))
        return [entry.loaded.problem(where, "rules/unplayable", (
            f"{settings.setup.libraries_dealt} library tiles for each of {most} players "
            f"need {needed}; the game has {len(pool)}: deal fewer (libraries_dealt) or "
            "remove fewer"))]
    return []


def _check_scoring(entry: Entry, settings: Settings) -> list[Problem]:
    """The merged ``scoring:`` settings must make an inspection form at every count."""
    from exlibris.scoring.settings import ScoringRules, SettingsError

    for players in sorted({*settings.players, 1, 5}):
        try:
            ScoringRules.from_settings(settings.scoring, players=players)
        except SettingsError as exc:
            return [entry.loaded.problem(("settings", "scoring", *exc.key),
                                         "rules/invalid-settings", str(exc))]
    return []
