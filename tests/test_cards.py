"""Cards are interned values: equal cards are one object (model/cards.py)."""

from __future__ import annotations

import copy
import pickle

import pytest

from exlibris.model.cards import ArtifactCard, BookCard


def test_equal_book_cards_are_one_object_and_others_are_not() -> None:
    a = BookCard("M", 3, ("F", "F", "S"), 4)
    assert BookCard("M", 3, ["F", "F", "S"], 4) is a  # books given as a list too
    assert BookCard(letter="M", order=3, books=("F", "F", "S"), of=4) is a
    assert BookCard("M", 3, ("F", "F", "S")) is not a  # another "of"
    assert BookCard("M", 3, ("F", "S", "F"), 4) is not a  # other books
    assert BookCard("M", 3, ("F", "S", "F"), 4) != a
    assert len({a, BookCard("M", 3, ("F", "F", "S"), 4)}) == 1


def test_artifact_cards_are_interned_by_id() -> None:
    assert ArtifactCard("foul-vowel-towel") is ArtifactCard("foul-vowel-towel")
    assert ArtifactCard("foul-vowel-towel") is not ArtifactCard("hungry-void-of-nothingness")


@pytest.mark.parametrize("card", [BookCard("Q", 1, ("R",), 2), ArtifactCard("x-artifact")])
def test_a_card_survives_pickling_and_copies_as_itself(card: object) -> None:
    assert pickle.loads(pickle.dumps(card)) is card  # a worker process gets the same card
    assert copy.copy(card) is card
    assert copy.deepcopy({"k": [card]})["k"][0] is card


def test_cards_cannot_be_changed() -> None:
    card = BookCard("A", 1, ("C",))
    with pytest.raises(AttributeError):
        card.letter = "B"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        ArtifactCard("x-artifact").artifact_id = "y"  # type: ignore[misc]
    assert card.name == "A1" and str(card) == "A1:C"
