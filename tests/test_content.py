"""The shipped content: complete, consistent with the published totals, valid."""

from __future__ import annotations

from collections import Counter

import pytest

from exlibris.catalog import load_catalog
from exlibris.validation import resolve_settings, validate


@pytest.fixture(scope="module")
def catalog():  # type: ignore[no-untyped-def]
    return load_catalog()


def test_shipped_content_and_rules_validate_cleanly() -> None:
    report = validate()
    assert report.problems == [], "\n".join(str(p) for p in report.problems)


def test_six_categories(catalog) -> None:  # type: ignore[no-untyped-def]
    codes = [c.code for c in catalog.categories]
    assert codes == ["C", "F", "H", "M", "R", "S"]
    assert len({c.colour for c in catalog.categories}) == 6


def test_the_deck_meets_every_published_total(catalog) -> None:  # type: ignore[no-untyped-def]
    deck = catalog.deck
    assert deck is not None and deck.stand_in
    cards = deck.cards
    assert len(cards) == 152
    books = Counter(code for card in cards for code in card.books)
    assert sum(books.values()) == 510
    assert set(books.values()) == {85} and len(books) == 6
    assert all(2 <= len(card.books) <= 4 for card in cards)
    by_letter: dict[str, list[int]] = {}
    for card in cards:
        by_letter.setdefault(card.letter, []).append(card.order)
        assert card.of == sum(1 for c in cards if c.letter == card.letter)
    for letter, orders in by_letter.items():
        assert sorted(orders) == list(range(1, len(orders) + 1)), letter


def test_every_box_component_is_there(catalog) -> None:  # type: ignore[no-untyped-def]
    base = [loc for loc in catalog.locations.values() if loc.module == "base"]
    assert sorted(loc.number for loc in base) == list(range(1, 19))
    expansion = [loc for loc in catalog.locations.values() if loc.module != "base"]
    assert len(expansion) == 4
    assert len(catalog.libraries) == 12
    assert len({lib.assistant.id for lib in catalog.libraries.values()}) == 12
    assert len(catalog.assistants) == 15
    assert len(catalog.artifacts) == 18
    assert set(catalog.modules) == {"five-player", "job-faire", "artifactorium"}


def test_solo_compatible_counts_match_the_rulebook(catalog) -> None:  # type: ignore[no-untyped-def]
    base = [loc for loc in catalog.locations.values() if loc.module == "base"]
    assert sum(loc.solo for loc in base) == 10
    assert sum(lib.solo for lib in catalog.libraries.values()) == 7


def test_each_base_library_assistant_has_an_expansion_card(catalog) -> None:  # type: ignore[no-untyped-def]
    for library in catalog.libraries.values():
        assert library.assistant.edition == "base"
        assert library.assistant.id in catalog.assistants


def test_every_variant_resolves(catalog) -> None:  # type: ignore[no-untyped-def]
    for variant_id in catalog.variants:
        settings = resolve_settings(variant_id, catalog.variants)
        assert settings.players
    longer = resolve_settings("longer", catalog.variants)
    assert longer.final_round.shelf_cards == {2: 19, 3: 17, 4: 15, 5: 13}
    beginner = resolve_settings("beginner", catalog.variants)
    assert beginner.setup.standard_assistants == 3 and not beginner.setup.special_assistant


def test_no_card_is_named_in_python() -> None:
    """Content is data: no module of the package names a location, assistant or artifact."""
    from pathlib import Path

    import exlibris

    package = Path(exlibris.__file__).parent
    cards = ("location", "library", "assistant", "artifact")
    ids = {i for i, kind in load_catalog().ids().items() if kind in cards}
    offenders = []
    for path in package.rglob("*.py"):
        text = path.read_text("utf-8")
        for ident in ids:
            if f'"{ident}"' in text or f"'{ident}'" in text:
                offenders.append((path.name, ident))
    assert offenders == []
