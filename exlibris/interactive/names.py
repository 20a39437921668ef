"""Names where content ids would be: the text a player reads says ``Mystical Crystal
See-All Ball``, never ``mystical-crystal-see-all-ball``.

The engine's labels keep their ids (saves, scenario scripts and goldens name options
by them, and an answer may still be typed that way); everything shown to a player
goes through :func:`readable`, which puts each location's, library's, assistant's,
artifact's and category's name in place of its id, for the shipped content and an
author's own (the catalog in use). Modules are not renamed: their ids are the
variants' names a player types (``--variant job-faire``).
"""

from __future__ import annotations

import re

from exlibris.catalog import Catalog, load_catalog

Built = tuple[re.Pattern[str] | None, dict[str, str]]
# the last catalogs' patterns and names, each with the texts made readable by them
_built: list[tuple[Catalog, Built, dict[str, str]]] = []
READ_KEPT = 8192  # texts made readable kept a catalog (a log is told again at each question)


def _names(catalog: Catalog) -> Built:
    """The pattern of every id of ``catalog`` and each id's name (built once a catalog)."""
    return _entry(catalog)[1]


def _entry(catalog: Catalog) -> tuple[Catalog, Built, dict[str, str]]:
    for entry in _built:
        if entry[0] is catalog:
            return entry
    entry = (catalog, _build(catalog), {})
    _built[:] = [*_built[-3:], entry]
    return entry


def _build(catalog: Catalog) -> Built:
    names: dict[str, str] = {c.id: c.name for c in catalog.categories}
    for entry in catalog.entries:
        model = entry.model
        name = getattr(model, "name", None)
        if getattr(model, "kind", "") in ("location", "library", "assistant", "artifact"
                                          ) and isinstance(name, str):
            names[model.id] = name
        helper = getattr(model, "assistant", None)
        if helper is not None and isinstance(getattr(helper, "name", None), str):
            names.setdefault(helper.id, helper.name)
    # a one-word id (``mummy``) is also a word of prose: only ids of several words are
    # ids beyond doubt
    names = {key: value for key, value in names.items() if key != value and "-" in key}
    if not names:
        return None, names
    alternatives = "|".join(re.escape(key) for key in sorted(names, key=len, reverse=True))
    # an id as a whole word: not inside a longer id (``solo-artifactorium``), a name or
    # a path (``content/x.yaml``)
    return re.compile(rf"(?<![\w/.-])(?:{alternatives})(?![\w/-]|\.\w)"), names


def id_names(catalog: Catalog | None = None) -> dict[str, str]:
    """Every content id of ``catalog`` (default: the one in use) with its name."""
    return dict(_names(catalog or load_catalog())[1])


def readable(text: str, catalog: Catalog | None = None) -> str:
    """``text`` with every content id of the catalog in use replaced by its name."""
    _, (pattern, names), read = _entry(catalog or load_catalog())
    if pattern is None or not text:
        return text
    done = read.get(text)
    if done is None:
        if len(read) >= READ_KEPT:
            read.clear()
        done = read[text] = pattern.sub(lambda m: names[m.group(0)], text)
    return done
