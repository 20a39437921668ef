"""Reading content and rules files into typed models.

``read_entry`` turns one YAML file into its model (chosen by its ``kind:``),
reporting every problem at ``FILE:LINE:COL``; ``load_catalog`` reads the
shipped content and rules once per process, joined by an author's own files
(``--content``, ``EXLIBRIS_CONTENT``; see :mod:`exlibris.sources`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from exlibris import shipped_cache
from exlibris.dsl.errors import set_locator
from exlibris.errors import Problem, UserInputError
from exlibris.model.construct import construct
from exlibris.model.content import (
    CONTENT_KINDS,
    Artifact,
    AssistantCard,
    BookDeck,
    CategoriesFile,
    Category,
    GameModule,
    Library,
    Location,
)
from exlibris.model.rules import Variant
from exlibris.model.variants import resolve_settings
from exlibris.paths import content_dir, rules_dir
from exlibris.schema_words import ID_WORDS, in_words
from exlibris.shipped_cache import resolved
from exlibris.sources import active_content, sort_files, yaml_files
from exlibris.yamlsafe import LoadedYaml, load_yaml_file

KINDS: dict[str, type[BaseModel]] = {**CONTENT_KINDS, "variant": Variant}


@dataclass
class Entry:
    """One content or rules file, read and typed."""

    path: Path
    loaded: LoadedYaml
    model: Any

    @property
    def kind(self) -> str:
        return self.model.kind

    @property
    def id(self) -> str:
        return getattr(self.model, "id", self.model.kind)


def read_entry(path: Path, display: str | None = None, *, trusted: bool = False
               ) -> tuple[Entry | None, list[Problem]]:
    """Load and type one file; the entry is None when it has problems. ``trusted``:
    the file is known to validate (``shipped_cache.typed``), so it is not validated
    again (``model/construct.py``); nor is a shipped file as the package made it, which
    the package vouches for (``LoadedYaml.typed``, ``prebuilt.typed``)."""
    try:
        loaded = load_yaml_file(path, display_name=display)
    except UserInputError as exc:
        return None, exc.problems
    data = loaded.data
    if not isinstance(data, dict):
        return None, [loaded.problem((), "content/not-a-mapping",
                                     "a content file must be a mapping of keys to values")]
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in KINDS:
        from exlibris.dsl.checker import did_you_mean

        message = ("the file needs a 'kind:' line" if kind is None else
                   f"unknown kind {kind!r}{did_you_mean(str(kind), KINDS)}")
        return None, [loaded.problem(("kind",), "content/unknown-kind",
                                     f"{message}; one of: {', '.join(sorted(KINDS))}")]
    if trusted or loaded.typed:
        try:
            return Entry(path, loaded, construct(KINDS[kind], data)), []
        except TypeError:  # data construct cannot place: validated as any other
            pass
    try:
        model = KINDS[kind].model_validate(data)
    except ValidationError as exc:
        return None, [_schema_problem(loaded, err) for err in exc.errors()]
    return Entry(path, loaded, model), []


def _schema_problem(loaded: LoadedYaml, err: Any) -> Problem:
    loc = tuple(p for p in err["loc"] if isinstance(p, str | int))
    # pydantic names the union member in the path for some errors; drop what the data lacks
    path = _existing_path(loaded.data, loc)
    where = ".".join(str(p) for p in loc) or "the file"
    kind = err["type"]
    setting = loaded.data.get("kind") == "variant" and loc[:1] == ("settings",) and len(loc) > 1
    if setting:  # a variant's settings: say 'setting', as the rules files do
        name = ".".join(str(p) for p in loc[1:])
        line, col = loaded.key_position(path) if kind == "extra_forbidden" else \
            loaded.position(path)
        if kind == "extra_forbidden":
            from exlibris.dsl.checker import did_you_mean

            hint = ("; a variant's abilities are a list of their own at the top of the "
                    "file, beside 'settings:' (docs/language.md, \"Rules for everyone\")"
                    if loc[1:] == ("abilities",)
                    else did_you_mean(str(loc[-1]), _setting_names(loc)))
            return Problem(loaded.filename, line, col, "rules/unknown-setting",
                           f"unknown setting {name!r}{hint}")
        return Problem(loaded.filename, line, col, "rules/invalid-settings",
                       f"setting {name!r} {in_words(err)}{setting_shape(loc[1:], kind)}")
    if kind == "missing":
        message = f"missing field {where!r}"
        code = "schema/missing"
    elif kind == "extra_forbidden":
        message = f"unknown field {where!r}"
        code = "schema/unknown-field"
        allowed = _allowed_fields(loaded, loc)
        if allowed:
            from exlibris.dsl.checker import did_you_mean

            message += did_you_mean(str(loc[-1]), allowed)
    else:
        message = f"{where} {in_words(err)}" if loc != ("id",) or not isinstance(
            loaded.data.get("id"), str) else f"{loaded.data['id']!r} is not a valid id: {ID_WORDS}"
        code = "schema/invalid"
    line, col = loaded.key_position(path) if kind == "extra_forbidden" else loaded.position(path)
    return Problem(loaded.filename, line, col, code, message)


def setting_shape(loc: tuple[Any, ...], kind: str) -> str:
    """For a setting of the wrong type: how rules/standard.yaml writes it (or nothing)."""
    if not kind.endswith("_type") and kind not in ("int_parsing", "bool_parsing",
                                                  "literal_error"):
        return ""
    value: Any = _standard_settings()
    for part in loc:
        if not isinstance(value, dict) or part not in value:
            return ""
        value = value[part]
    return f"; rules/standard.yaml writes it as {loc[-1]}: {_flow(value)}"


@cache
def _standard_settings() -> dict[str, Any]:
    try:
        data = load_yaml_file(rules_dir() / "standard.yaml").data
    except UserInputError:
        return {}
    settings = data.get("settings") if isinstance(data, dict) else None
    return settings if isinstance(settings, dict) else {}


def _flow(value: Any) -> str:
    """A settings value as one line of YAML."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    return "null" if value is None else str(value)


def _setting_names(loc: tuple[str | int, ...]) -> list[str]:
    """The setting names allowed beside the one at ``loc`` (``settings.setup.x``)."""
    model: Any = Variant.model_fields["settings"].annotation
    for part in loc[1:-1]:
        field_ = getattr(model, "model_fields", {}).get(part)
        if field_ is None:
            return []
        args = [a for a in getattr(field_.annotation, "__args__", (field_.annotation,))
                if isinstance(a, type) and issubclass(a, BaseModel)]
        if not args:
            return []
        model = args[0]
    return list(getattr(model, "model_fields", {}))


def _existing_path(data: Any, loc: tuple[str | int, ...]) -> tuple[str | int, ...]:
    path: list[str | int] = []
    for part in loc:
        in_map = isinstance(data, dict) and part in data
        in_list = isinstance(data, list) and isinstance(part, int) and part < len(data)
        if not (in_map or in_list):
            break
        data = data[part]
        path.append(part)
    return tuple(path)


def _allowed_fields(loaded: LoadedYaml, loc: tuple[str | int, ...]) -> list[str]:
    if len(loc) != 1 or not isinstance(loaded.data, dict):
        return []
    model = KINDS.get(loaded.data.get("kind", ""))
    return list(model.model_fields) if model else []


@dataclass
class Catalog:
    """All content and rules, by id."""

    entries: list[Entry] = field(default_factory=list)
    # author entries that replace a shipped entry of the same kind and id: (id, file)
    replaced: list[tuple[str, str]] = field(default_factory=list)
    # files of a known kind that the schema refused: their effect-language fields are
    # still checked (``validation.py``), so that one fix shows every problem
    unfit: list[LoadedYaml] = field(default_factory=list)
    # the entries of each model, with how many entries there were when they were
    # gathered (entries are only ever appended): every new game asks for them
    _by_model: dict[type, tuple[int, tuple[Any, ...]]] = field(
        default_factory=dict, repr=False, compare=False)

    def of(self, model: type[BaseModel]) -> list[Any]:
        cached = self._by_model.get(model)
        if cached is None or cached[0] != len(self.entries):
            cached = self._by_model[model] = (len(self.entries), tuple(
                e.model for e in self.entries if isinstance(e.model, model)))
        return list(cached[1])

    def by_id(self, kind: type[BaseModel]) -> dict[str, Any]:
        return {m.id: m for m in self.of(kind)}

    @property
    def categories(self) -> list[Category]:
        return [c for f in self.of(CategoriesFile) for c in f.categories]

    @property
    def deck(self) -> BookDeck | None:
        decks = self.of(BookDeck)
        return decks[0] if decks else None

    @property
    def locations(self) -> dict[str, Location]:
        return self.by_id(Location)

    @property
    def libraries(self) -> dict[str, Library]:
        return self.by_id(Library)

    @property
    def assistants(self) -> dict[str, AssistantCard]:
        return self.by_id(AssistantCard)

    @property
    def artifacts(self) -> dict[str, Artifact]:
        return self.by_id(Artifact)

    @property
    def modules(self) -> dict[str, GameModule]:
        return self.by_id(GameModule)

    @property
    def variants(self) -> dict[str, Variant]:
        return self.by_id(Variant)

    def ids(self) -> dict[str, str]:
        """Every id an ``@id`` may name, with its kind."""
        ids: dict[str, str] = {c.id: "category" for c in self.categories}
        for entry in self.entries:
            model = entry.model
            if model.kind in ("location", "library", "assistant", "artifact", "module"):
                ids[model.id] = model.kind
            if isinstance(model, Library):
                ids.setdefault(model.assistant.id, "assistant")
        return ids


def read_catalog(paths: Iterable[Path], *, trusted: bool = False,
                 files: list[Path] | None = None) -> tuple[Catalog, list[Problem]]:
    """Read every YAML file under ``paths`` (``files``: those files, already listed);
    problems are collected, not raised. ``trusted``: see :func:`read_entry`."""
    catalog = Catalog()
    problems: list[Problem] = []
    for path in yaml_files(paths) if files is None else files:
        entry, found = read_entry(path, _display(path), trusted=trusted)
        problems.extend(found)
        if entry is not None:
            catalog.entries.append(entry)
        elif any(p.code.startswith("schema/") for p in found):  # loads; the schema refused
            catalog.unfit.append(load_yaml_file(path, display_name=_display(path)))
    return catalog, problems


def _display(path: Path) -> str:
    try:
        return str(resolved(path).relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _key(entry: Entry) -> tuple[str, str]:
    return (entry.kind, entry.id)


def join(shipped: Catalog, own: Catalog) -> Catalog:
    """The shipped entries and an author's own; an own entry with a shipped entry's
    kind and id replaces it (and is listed in ``replaced``)."""
    mine = {_key(e): e for e in own.entries}
    ids = {_key(e) for e in shipped.entries if _key(e) in mine}
    replaced = [(e.id, e.loaded.filename) for e in own.entries if _key(e) in ids
                and e.kind not in ("categories", "books")]
    kept = [e for e in shipped.entries if _key(e) not in mine]
    return Catalog(kept + own.entries, replaced)


@cache
def shipped_catalog() -> Catalog:
    """The shipped content and rules; raises ``UserInputError`` if any file is broken.

    Once they have been read into their models and every shipped variant has resolved
    to valid settings, the cache remembers it (``shipped_cache.typed``): later
    commands build the same models without validating them again."""
    trusted = shipped_cache.typed()
    folders = (content_dir(), rules_dir())
    catalog, problems = read_catalog(folders, trusted=trusted,
                                     files=shipped_cache.files(folders))
    if problems:
        raise UserInputError(problems)
    if not trusted and shipped_cache.records() is not None and _variants_resolve(catalog):
        shipped_cache.mark_typed()  # (with no cache, nothing to remember it in)
    return catalog


def _variants_resolve(catalog: Catalog) -> bool:
    variants = catalog.variants
    try:
        for variant_id in variants:
            resolve_settings(variant_id, variants)
    except (ValueError, RecursionError):  # pydantic's ValidationError is a ValueError
        return False
    return True


def own_files(paths: Iterable[Path] | None = None) -> list[Path]:
    """The content files among an author's paths (see :func:`sort_files`)."""
    return sort_files(active_content() if paths is None else tuple(paths))[0]


def load_catalog(paths: Iterable[Path] | None = None) -> Catalog:
    """The shipped content and rules joined by an author's content (default: the
    paths given to :func:`use_content`); raises ``UserInputError`` if a file is broken.

    In folders, files whose ``kind:`` is not a content kind (scenarios, tables,
    other YAML) are skipped.
    """
    chosen = active_content() if paths is None else tuple(Path(p).resolve() for p in paths)
    return _load(chosen)


@cache
def _load(paths: tuple[Path, ...]) -> Catalog:
    shipped = shipped_catalog()
    if not paths:
        return shipped
    for path in paths:
        if not path.exists():
            raise UserInputError([Problem(str(path), 1, 1, "content/missing",
                                          "no such content file or folder")])
    own, problems = read_catalog(own_files(paths))
    if problems:
        raise UserInputError(problems)
    return join(shipped, own)


# ---- where a running effect's field is (the locator of run-time errors) ---------------------


def locate_field(name: str) -> tuple[str, int, int, str] | None:
    """The file (as shown), the line and column where the field a handler
    runs under starts (``dsl.errors.source_name``: ``ENTRY-KEY:FIELD``), found in the
    content in use, and the field's text; None if no entry of it has that key."""
    key, _, field_path = name.partition(":")
    entry_key, _, index = key.partition("#")
    ident, _, edition = entry_key.partition("@")
    tail = tuple(int(p) if p.isdigit() else p for p in field_path.split(".") if p)
    abilities: tuple[str | int, ...] = ("abilities", int(index)) if index.isdigit() else ()
    try:
        catalog = load_catalog()
    except UserInputError:
        return None
    entries = catalog.entries
    if edition == "rules" and index.isdigit():  # a variant's rules for everyone
        entries, abilities = _house_rule_at(catalog, ident, int(index))
        ident, edition = (entries[0].id if entries else ident), ""
    for entry in entries:
        model = entry.model
        if isinstance(model, Library):
            if model.assistant.id != ident or model.assistant.edition != edition:
                continue
            bases: tuple[tuple[str | int, ...], ...] = (("assistant", *abilities),)
        elif getattr(model, "id", None) != ident or model.kind == "module" \
                or getattr(model, "edition", "") != edition:
            continue
        else:  # a location, an assistant card, an artifact; a variant's own abilities
            bases = (abilities, ("settings", *abilities))
        loaded = entry.loaded
        for base in bases:
            path = (*base, *tail)
            text = _field_text(loaded.data, path)
            if text is not None:
                line, col = loaded.content_position(path)
                return loaded.filename, line, col, text
    return None


def _house_rule_at(catalog: Catalog, variant: str, index: int
                   ) -> tuple[list[Entry], tuple[str | int, ...]]:
    """The rules file (as a one-entry list) that writes ability ``index`` of the
    abilities ``variant``'s chain gives every player (the most basic file's first,
    as ``resolve_settings`` joins them), and that ability's place in its file."""
    from exlibris.model.variants import variant_chain

    try:
        chain = variant_chain(variant, catalog.variants)
    except ValueError:
        return [], ()
    for rules in chain:
        if index < len(rules.abilities):
            entry = next((e for e in catalog.entries if e.model is rules), None)
            return ([entry] if entry is not None else []), ("abilities", index)
        index -= len(rules.abilities)
    return [], ()


def _field_text(data: Any, path: tuple[str | int, ...]) -> str | None:
    for part in path:
        if (isinstance(data, dict) and part in data) or \
                (isinstance(data, list) and isinstance(part, int) and part < len(data)):
            data = data[part]
        else:
            return None
    return data if isinstance(data, str) else None


set_locator(locate_field)
