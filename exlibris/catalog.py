"""Reading content and rules files into typed models.

``read_entry`` turns one YAML file into its model (chosen by its ``kind:``),
reporting every problem at ``FILE:LINE:COL``; ``load_catalog`` reads all the
shipped content and rules once per process.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from exlibris.errors import Problem, UserInputError
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
from exlibris.paths import content_dir, rules_dir
from exlibris.safefile import is_symlink_escape
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


def read_entry(path: Path, display: str | None = None) -> tuple[Entry | None, list[Problem]]:
    """Load and type one file; the entry is None when it has problems."""
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
        message = f"{where}: {err['msg']}"
        code = "schema/invalid"
    line, col = loaded.key_position(path) if kind == "extra_forbidden" else loaded.position(path)
    return Problem(loaded.filename, line, col, code, message)


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


def yaml_files(paths: Iterable[Path]) -> list[Path]:
    """The YAML files named, or found (recursively, sorted) in the folders named.

    Inside a folder, a symlink that leads out of the folder is kept in the list
    so that reading it reports it (see :func:`outside_link`); links to folders
    are not followed.
    """
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*") if p.suffix in (".yaml", ".yml")
                                and not (p.is_dir() and not p.is_symlink())))
        else:
            found.append(path)
    return found


def outside_link(path: Path, roots: Iterable[Path]) -> bool:
    """True if ``path`` was found in one of the folders ``roots`` but is a symlink (or
    under one) that leads out of it."""
    for root in roots:
        if root.is_dir() and path.is_relative_to(root) and path != root:
            return is_symlink_escape(path, root)
    return False


@dataclass
class Catalog:
    """All content and rules, by id."""

    entries: list[Entry] = field(default_factory=list)

    def of(self, model: type[BaseModel]) -> list[Any]:
        return [e.model for e in self.entries if isinstance(e.model, model)]

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


def read_catalog(paths: Iterable[Path]) -> tuple[Catalog, list[Problem]]:
    """Read every YAML file under ``paths``; problems are collected, not raised."""
    catalog = Catalog()
    problems: list[Problem] = []
    paths = list(paths)
    for path in yaml_files(paths):
        if outside_link(path, paths):
            problems.append(Problem(_display(path), 1, 1, "file/outside-link",
                                    "a symlink in a content folder that leads out of the "
                                    "folder; copy the file in instead"))
            continue
        entry, found = read_entry(path, _display(path))
        problems.extend(found)
        if entry is not None:
            catalog.entries.append(entry)
    return catalog, problems


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


@cache
def load_catalog() -> Catalog:
    """The shipped content and rules; raises ``UserInputError`` if any file is broken."""
    catalog, problems = read_catalog([content_dir(), rules_dir()])
    if problems:
        raise UserInputError(problems)
    return catalog
