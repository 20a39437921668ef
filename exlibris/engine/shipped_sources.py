"""The generated source of every effect and condition of the shipped content.

``dsl/precompiled.py`` makes them a module that can be compiled ahead of time
(``bench/compile_cost.py --effects``); the engine benchmark warms up with them. The
handlers come from the functions games get them from (``location_effect``,
``abilities_of``), so their sources are the texts games generate;
``tests/test_precompiled_effects.py`` checks that games of every mode generate no other.

    python -m exlibris.engine.shipped_sources OUT.py   # that module's source
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

from exlibris.catalog import Catalog, shipped_catalog
from exlibris.dsl.compiler import HELPERS, ExprHandler, Handler
from exlibris.dsl.precompiled import module_text
from exlibris.dsl.pysource import Source
from exlibris.engine.abilities import abilities_of, location_effect
from exlibris.model.content import Ability


def _abilities(catalog: Catalog) -> Iterator[tuple[str, list[Ability]]]:
    """Each entry's abilities with the key the engine compiles them under."""
    for library in catalog.libraries.values():
        spec = library.assistant
        yield f"{spec.id}@{spec.edition}", spec.abilities
    for card in catalog.assistants.values():
        yield f"{card.id}@{card.edition}", card.abilities
    for artifact in catalog.artifacts.values():
        yield artifact.id, artifact.abilities


def handlers(catalog: Catalog) -> Iterator[Handler | ExprHandler]:
    """Every compiled effect and condition of the catalog's locations and abilities."""
    for spec in catalog.locations.values():
        yield location_effect(spec)
    for key, abilities in _abilities(catalog):
        for ability in abilities_of(key, abilities):
            yield from (h for h in (ability.condition, ability.effect, ability.score)
                        if h is not None)
            for rule in ability.rules:
                yield rule.condition
                yield from (part.handler for part in rule.parts)


def shipped_sources(catalog: Catalog | None = None) -> list[Source]:
    """The generated sources of the handlers of ``catalog`` (by default the shipped
    content), one per distinct text."""
    found: dict[str, Source] = {}
    for handler in handlers(catalog if catalog is not None else shipped_catalog()):
        source = handler.generated()
        if source is not None:
            found.setdefault(source.text, source)
    return list(found.values())


def main(argv: list[str]) -> int:
    """Write the module of factories for the shipped content to ``argv[0]``."""
    from exlibris.safefile import write_output

    write_output(Path(argv[0]), module_text(shipped_sources(), HELPERS))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
