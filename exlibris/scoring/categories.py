"""The six categories as the table format names them: a code and an id each."""

from __future__ import annotations

from exlibris.model.cards import CATEGORY_CODES

CATEGORY_IDS: dict[str, str] = {
    "C": "corrupted-codices",
    "F": "fantastical-fictions",
    "H": "historic-volumes",
    "M": "monster-manuals",
    "R": "reference-texts",
    "S": "spells-and-potions",
}
"""Category code -> id, in the fixed order of :data:`CATEGORY_CODES`."""

CATEGORY_NAMES: dict[str, str] = {
    "C": "Corrupted Codices",
    "F": "Fantastical Fictions",
    "H": "Historic Volumes",
    "M": "Monster Manuals",
    "R": "Reference Texts",
    "S": "Spells & Potions",
}

CODE_OF_ID: dict[str, str] = {cid: code for code, cid in CATEGORY_IDS.items()}

assert tuple(CATEGORY_IDS) == CATEGORY_CODES


def category_code(value: object) -> str | None:
    """The code of a category given by id (``monster-manuals``) or code (``M``), or None."""
    if not isinstance(value, str):
        return None
    if value in CATEGORY_IDS:
        return value
    return CODE_OF_ID.get(value)
