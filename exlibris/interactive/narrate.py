"""Events told as short sentences, for one player's eyes.

Only what that player may know is told: other players' draws are counts,
face-down deals are counts, a card passed between two hands is named only to
those two; everything public is named with its books (``R1:HHS``), categories
by code and name. An ability that did nothing is not told. ``seat=None`` tells
everything (a replay of a finished game).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from exlibris.engine.events import EventKind
from exlibris.engine.game import Game

# events that add nothing a player needs to read
_QUIET = frozenset({EventKind.DECISION, EventKind.RETURN, EventKind.SETUP, EventKind.LOCATIONS,
                    EventKind.INSPECTION})
# events that start something else: an ability followed by one of these did nothing
_STARTS = frozenset({EventKind.ABILITY, EventKind.PLACE, EventKind.ACTIVATE, EventKind.RESOLVE,
                     EventKind.ROUND, EventKind.CLEANUP, EventKind.FINAL_ROUND})


class Narrator:
    """Tells events of ``game`` to ``seat`` (``None``: to an onlooker who sees all)."""

    def __init__(self, game: Game, seat: int | None) -> None:
        self.game = game
        self.seat = seat

    def lines(self, records: Iterable[dict[str, Any]]) -> list[str]:
        told = []
        records = list(records)
        for i, record in enumerate(records):
            kind = record["event"]
            if kind in _QUIET or (kind == EventKind.ABILITY and idle(records, i)):
                continue
            tell = getattr(self, "_" + kind.replace("-", "_"), None)
            text = tell(record) if tell is not None else self._other(record)
            if text:
                told.append(text)
        return told

    # ------------------------------------------------------------------ helpers
    def who(self, seat: int | None) -> str:
        if seat is None:
            return "someone"
        if seat == self.seat:
            return "you"
        return self.game.state.players[seat].name

    def you(self, seat: int | None) -> bool:
        """Whether ``seat`` is told as "you": the viewer, or a player named You."""
        return seat is not None and (seat == self.seat
                                     or self.game.state.players[seat].name.lower() == "you")

    def knows(self, seat: int | None) -> bool:
        return self.seat is None or seat == self.seat

    def place(self, location_id: str) -> str:
        spec = self.game.location_specs.get(location_id)
        return f"{spec.name} (#{spec.number})" if spec is not None else location_id

    def assistant(self, assistant_id: str) -> str:
        seat_text, _, rest = assistant_id.partition(":")
        if seat_text.isdigit():
            for assistant in self.game.state.players[int(seat_text)].assistants:
                if assistant.id == assistant_id:
                    return assistant.name
        return "standard assistant" if rest.startswith("standard") else rest.replace("-", " ")

    def cards(self, names: list[str]) -> str:
        return ", ".join(self.card(n) for n in names) if names else "nothing"

    def card(self, name: str) -> str:
        """``R1:HHS``: a card's name and its books (an artifact by its name)."""
        index = getattr(self, "_index", None)
        if index is None:
            index = self._index = {c.name: c for c in self.game.state.cards.where}
        found = index.get(name)
        books = getattr(found, "books", None)
        if not books and name in self.game.artifact_specs:
            return self.game.artifact_specs[name].name
        return f"{name}:{''.join(books)}" if books else name

    def source(self, zone: str) -> str:
        """Where a card came from, for ``from ...``."""
        kind, _, rest = zone.partition(":")
        if kind == "area":
            return f"{self.place(rest)}'s area"
        if kind == "discard":
            return "the discard pile"
        if kind.startswith("lifted-") and kind[7:].isdigit():
            return f"{self.whose(int(kind[7:]))} shelf"
        if kind == "shelf" and rest.isdigit():  # taken straight off a shelf
            return f"{self.whose(int(rest))} shelf"
        if kind == "hand" and rest.isdigit():
            return f"{self.whose(int(rest))} hand"
        if kind == "revealed":
            return "the revealed cards"
        if kind == "deck":
            return "the deck"
        return "the cards set apart"

    def whose(self, seat: int) -> str:
        return "your" if self.you(seat) else f"{self.who(seat)}'s"

    # ------------------------------------------------------------------ events
    def _round(self, r: dict[str, Any]) -> str:
        final = " — the FINAL ROUND" if r.get("final") else ""
        if self.game.solo is not None:
            return f"Round {r['round']} of {self.game.settings.final_round.rounds} begins{final}."
        return f"Round {r['round']} begins{final}; first player: {self.who(r['first_player'])}."

    def _library(self, r: dict[str, Any]) -> str:
        library = self.game.state.players[r["seat"]].library or r["library"]
        name = next((lib.name for lib in self._libraries() if lib.id == library), library)
        if self.game.settings.setup.libraries_dealt == 1:  # one tile each: nothing chosen
            return f"{self.whose(r['seat']).capitalize()} library: {name}."
        return f"{self.who(r['seat']).capitalize()} chose {name}."

    def _libraries(self) -> list[Any]:
        from exlibris.catalog import load_catalog

        return list(load_catalog().libraries.values())

    def category(self, code: str | None) -> str:
        if not code:
            return "none"
        value = self.game.by_code.get(code)
        return f"{code} {value.name}" if value is not None else code

    def _categories(self, r: dict[str, Any]) -> str:
        return (f"Prominent category: {self.category(r['prominent'])}; "
                f"banned: {self.category(r.get('banned'))}.")

    def _reveal_category(self, r: dict[str, Any]) -> str:
        return (f"From the license form: {self.category(r['category'])} is not the public "
                f"focus; it goes back in the box ({r['left']} left face down).")

    def _solo_discard(self, r: dict[str, Any]) -> str:
        return f"To the public library from the deck: {self.cards(r['cards'])}."

    def _eliminate(self, r: dict[str, Any]) -> str:
        if "locations" in r:
            gone = ", ".join(self.place(x) for x in r["locations"])
            return f"The last locations leave the game: {gone}."
        return f"{self.place(r['location'])} was eliminated."

    def _discard_hand(self, r: dict[str, Any]) -> str:
        return f"Your hand went to the public library: {self.cards(r['cards'])}."

    def _reveal_location(self, r: dict[str, Any]) -> str:
        return f"Revealed location {self.place(r['location'])}."

    def _artifact_deck(self, r: dict[str, Any]) -> str:
        return f"The artifact deck: {r['cards']} artifacts, shuffled."

    def _locations_reshuffled(self, r: dict[str, Any]) -> str:
        return f"The location discards ({r['count']}) were shuffled into a new stack."

    def _deal(self, r: dict[str, Any]) -> str:
        if r.get("face_down") and self.seat is not None:
            return f"{self.place(r['location'])}: {len(r['cards'])} cards dealt face down."
        names = [self.special(c) if c in self.game.assistant_cards else c for c in r["cards"]]
        return f"{self.place(r['location'])}: dealt {self.cards(names)}."

    def _place(self, r: dict[str, Any]) -> str:
        who = self.who(r["seat"]).capitalize()
        what = self.assistant(r["assistant"])
        if "home" in r:
            return f"{who} placed {what} on home space {r['home']}."
        bid = f", bidding {r['bid']}" if r.get("bid") else ""
        return f"{who} placed {what} at {self.place(r['location'])}, space {r['space']}{bid}."

    def _activate(self, r: dict[str, Any]) -> str:
        return f"{self.who(r['seat']).capitalize()} used {self.place(r['location'])}."

    def _resolve(self, r: dict[str, Any]) -> str:
        return f"Resolving {self.place(r['location'])}."

    def _ability(self, r: dict[str, Any]) -> str:
        source = str(r.get("source", ""))
        keyword = f" ({r['ability']})" if r.get("ability") else ""
        if source == self.game.variant and self.game.settings.abilities:
            return f"A house rule of the variant acts for {self.who(r['seat'])}{keyword}."
        spec = self.game.artifact_specs.get(source)
        name = self.assistant(source) if ":" in source else \
            spec.name if spec is not None else source.replace("-", " ")
        whose = self.whose(r["seat"]).capitalize() if self.you(r["seat"]) else \
            self.whose(r["seat"])
        name = name.removeprefix("The ")
        return f"{whose} {name} acts{keyword}."

    def _draw(self, r: dict[str, Any]) -> str:
        who = self.who(r["seat"]).capitalize()
        if self.knows(r["seat"]):
            return f"{who} drew {self.cards(r['cards'])}."
        n = len(r["cards"])
        return f"{who} drew {n} card{'s' if n != 1 else ''}."

    def _gain(self, r: dict[str, Any]) -> str:
        seat = r["seat"]
        who = self.who(seat).capitalize()
        source = str(r.get("source", ""))
        kind, _, rest = source.partition(":")
        if kind == "hand" and rest.isdigit():
            giver = int(rest)
            card = self.card(r["card"]) if self.knows(seat) or self.knows(giver) else "a card"
            return f"{self.who(giver).capitalize()} gave {card} to {self.who(seat)}."
        hidden = r.get("hidden", not source)
        giver = r.get("by")
        seen = self.knows(seat) or not hidden or (giver is not None and self.knows(giver))
        card = self.card(r["card"]) if seen else "a card"
        where = f" from {self.source(source)}" if source else ""
        if giver is not None:  # another player's effect handed it over
            return f"{self.who(giver).capitalize()} gave {card}{where} to {self.who(seat)}."
        return f"{who} took {card}{where}."

    def _discard(self, r: dict[str, Any]) -> str:
        to = str(r.get("to", "discard"))
        if to.startswith("hand:"):
            seat = int(to.split(":")[1])
            card = self.card(r["card"]) if self.knows(seat) else "a card"
            return f"{card} went into {self.whose(seat)} hand."
        return f"{self.card(r['card'])} was discarded."

    def _shelve(self, r: dict[str, Any]) -> str:
        who = self.who(r["seat"]).capitalize()
        card = "a card face down" if r.get("face_down") and not self.knows(r["seat"]) \
            else self.card(r["card"])
        row, col = r["pos"]
        return f"{who} shelved {card} at row {row}, column {col}."

    def _cleanup(self, r: dict[str, Any]) -> str:
        gone = ", ".join(self.place(x) for x in r.get("discarded", [])) or "none"
        return f"{self.place(r['permanent'])} stays for good; discarded: {gone}."

    def _final_round(self, r: dict[str, Any]) -> str:
        why = r.get("reason") or f"a shelf reached {r.get('threshold')} cards"
        return f"The next round is the FINAL ROUND: {why}."

    def _reshuffle(self, r: dict[str, Any]) -> str:
        return f"The discard pile ({r['cards']} cards) was shuffled into the deck."

    def _first_player(self, r: dict[str, Any]) -> str:
        return f"{self.who(r['seat']).capitalize()} will be the first player."

    def _name(self, r: dict[str, Any]) -> str:
        named = str(r["category"])
        found = next((v for v in self.game.by_code.values() if v.id == named), None)
        text = f"{found.code} {found.name}" if found is not None else named
        return f"{self.who(r['seat']).capitalize()} named {text}."

    def _look(self, r: dict[str, Any]) -> str:
        n = int(r.get("count", 0))
        said = f"{self.who(r['seat']).capitalize()} looked at {n} card{'s' if n != 1 else ''}"
        cards = r.get("cards")
        if cards and self.knows(r["seat"]):  # what was seen, to the looker only
            return f"{said}: {self.cards(cards)}."
        return f"{said}."

    def _trade(self, r: dict[str, Any]) -> str:
        who = self.who(r["seat"]).capitalize()
        to = str(r.get("to", ""))
        kind, _, rest = to.partition(":")
        other = int(rest) if kind == "hand" and rest.isdigit() else None
        seen = other is None or self.knows(r["seat"]) or self.knows(other)
        gave = self.card(r["gave"]) if seen else "a card"
        got = self.card(r["got"]) if seen else "a card"
        with_whom = f" with {self.who(other)}" if other is not None else \
            f" with {self.source(to)}"
        return f"{who} traded {gave} for {got}{with_whom}."

    def _show(self, r: dict[str, Any]) -> str:
        to = r["to"]
        cards = self.cards(r["cards"]) if self.knows(r["seat"]) or self.knows(to) else \
            f"{len(r['cards'])} card(s)"
        return f"{self.who(r['seat']).capitalize()} showed {cards} to {self.who(to)}."

    def _tuck(self, r: dict[str, Any]) -> str:
        n = len(r.get("cards", []))
        row, col = r["pos"]
        return (f"{self.who(r['seat']).capitalize()} tucked {n} card{'s' if n != 1 else ''} "
                f"under the card at row {row}, column {col}.")

    def _replace(self, r: dict[str, Any]) -> str:
        return (f"{self.who(r['seat']).capitalize()} put {self.card(r['card'])} in place of "
                f"{self.card(r['old'])} on the shelf.")

    def _shift(self, r: dict[str, Any]) -> str:
        row, first, last, by = r["move"]
        return (f"{self.who(r['seat']).capitalize()} shifted row {row}, columns {first} to "
                f"{last}, by {by}.")

    def _rearrange(self, r: dict[str, Any]) -> str:
        how = {"hand": "swapped a shelf card with one from hand", "swap": "swapped two "
               "shelf cards", "move": "moved a shelf card"}.get(r.get("how", ""), "reworked")
        return f"{self.who(r['seat']).capitalize()} {how}."

    def _levitate(self, r: dict[str, Any]) -> str:
        row, col = r["pos"]
        return (f"{self.who(r['seat']).capitalize()} levitated {self.card(r['card'])} in at "
                f"row {row}, column {col}, pushing {r.get('direction', '')}.")


    def _flip(self, r: dict[str, Any]) -> str:
        if not r.get("cards"):
            return ""
        return f"{self.who(r['seat']).capitalize()} flipped {self.cards(r['cards'])} face down."

    def _reveal(self, r: dict[str, Any]) -> str:
        return f"{self.who(r['seat']).capitalize()} revealed {self.cards(r['cards'])}."

    def _entomb(self, r: dict[str, Any]) -> str:
        card = self.card(r["card"]) if self.knows(r["seat"]) else "a card"
        return f"{self.who(r['seat']).capitalize()} entombed {card}."

    def _deal_hand(self, r: dict[str, Any]) -> str:
        if self.knows(r["seat"]):
            were = "were" if self.you(r["seat"]) else "was"
            return f"{self.who(r['seat']).capitalize()} {were} dealt {self.cards(r['cards'])}."
        return ""

    def _discard_area(self, r: dict[str, Any]) -> str:
        if not r.get("cards"):
            return ""
        return f"{self.place(r['location'])}: {self.cards(r['cards'])} discarded from the area."

    # ------------------------------------------------------------------ Expanded Archives
    def special(self, assistant_id: str) -> str:
        spec = self.game.assistant_cards.get(assistant_id)
        return spec.name if spec is not None else assistant_id.replace("-", " ")

    def _assistant_deck(self, r: dict[str, Any]) -> str:
        return f"The special assistant deck holds {r['cards']} cards."

    def _assistant_card(self, r: dict[str, Any]) -> str:
        """A special assistant card taken at set-up in place of the library's own."""
        return (f"{self.who(r['seat']).capitalize()} took {self.special(r['assistant'])} "
                "in place of the library's special assistant.")

    def _hire(self, r: dict[str, Any]) -> str:
        return f"{self.who(r['seat']).capitalize()} hired {self.special(r['assistant'])}."

    def _retire(self, r: dict[str, Any]) -> str:
        return (f"{self.who(r['seat']).capitalize()} sent {self.assistant(r['assistant'])} "
                "to the supply.")

    def _borrow(self, r: dict[str, Any]) -> str:
        who = self.who(r["seat"]).capitalize()
        name = self.special(r["assistant"])
        if not r.get("got"):
            return f"{who} could not take {name} from the Temp Agency."
        was = f" from {self.who(r['from'])}" if "from" in r else ""
        return f"{who} took {name}{was} as a temp for this round."

    def _dismiss(self, r: dict[str, Any]) -> str:
        return f"{self.whose(r['seat']).capitalize()} temp {self.special(r['assistant'])} left."

    def _under_deck(self, r: dict[str, Any]) -> str:
        names = [self.special(c) if c in self.game.assistant_cards else c for c in r["cards"]]
        return f"{self.place(r['location'])}: {', '.join(names)} went under the deck."

    def _other(self, r: dict[str, Any]) -> str:
        """Anything else: who and what kind, never which cards."""
        seat = r.get("seat")
        who = self.who(seat).capitalize() if isinstance(seat, int) else "The game"
        return f"{who}: {r['event'].replace('-', ' ')}."


def idle(records: list[dict[str, Any]], i: int) -> bool:
    """The ability at ``records[i]`` did nothing a player sees before something else began."""
    for later in records[i + 1:]:
        kind = later["event"]
        if kind in _STARTS:
            return True
        if kind not in _QUIET:
            return False
    return False  # the ability is still going on
