"""Compare a game's state with a scenario's ``expect:``; say the first difference.

Expectations are checked in the order the file writes them; the first one that
does not hold is described in plain words (what was expected, what was found).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from exlibris.engine.decisions import Decision
from exlibris.engine.flow import Outcome
from exlibris.engine.game import Game
from exlibris.engine.solo import blocked
from exlibris.engine.state import Assistant, PlayerState
from exlibris.model.cards import ArtifactCard
from exlibris.model.shelf import Pos, Shelf
from exlibris.scenario.assistants import kind_of, matching
from exlibris.scenario.model import Scenario
from exlibris.scoring.inspection import deciding_tiebreak
from exlibris.scoring.report import to_json


def compare(scenario: Scenario, game: Game, pending: Decision | None,
            outcome: Outcome | None = None,
            asked: list[Decision] | None = None,
            offered_why: dict[int, str] | None = None) -> str | None:
    """The first expectation that does not hold, in words; None when all hold.

    ``asked`` is every decision of the run, in order (for ``never_offered``), and
    ``offered_why`` why an option it names was offered, by ``id`` of the decision.
    """
    checker = _Checker(scenario, game, pending, outcome)
    checker.asked = asked or []
    checker.offered_why = offered_why or {}
    for expectation in scenario.expect:
        check: Callable[[Any], str | None] = getattr(checker, f"check_{expectation.key}")
        difference = check(expectation.value)
        if difference is not None:
            return difference
    return None


def _names(cards: Iterable[str]) -> str:
    cards = list(cards)
    return "[" + ", ".join(cards) + "]" if cards else "nothing"


def _multiset(what: str, expected: list[str], actual: list[str]) -> str | None:
    if Counter(expected) == Counter(actual):
        return None
    missing = list((Counter(expected) - Counter(actual)).elements())
    extra = list((Counter(actual) - Counter(expected)).elements())
    parts = []
    if missing:
        parts.append(f"missing {', '.join(missing)}")
    if extra:
        parts.append(f"also holds {', '.join(extra)}")
    return (f"{what}: expected {_names(sorted(expected))}, found {_names(sorted(actual))} "
            f"({'; '.join(parts)})")


def _figures(form: dict[str, Any]) -> str:
    return ", ".join(f"{key} {value}" for key, value in form.items()
                     if key not in ("name", "tally", "flipped"))


def shelf_cells(shelf: Shelf) -> dict[Pos, str]:
    """A shelf as tokens by position (``~`` face down, ``TOP+BENEATH`` entombed)."""
    cells = {}
    for pos, slot in shelf.items():
        name = f"*{card.artifact_id}" if isinstance(card := slot.card, ArtifactCard) else card.name
        token = ("~" if slot.face_down else "") + name
        if slot.beneath is not None:
            token += f"+{slot.beneath.name}"
        cells[pos] = token
    return cells


def _normal(cells: dict[Pos, str]) -> dict[Pos, str]:
    if not cells:
        return {}
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return {(r - top, c - left): token for (r, c), token in cells.items()}


def _rows(cells: dict[Pos, str]) -> str:
    if not cells:
        return "an empty shelf"
    rows = range(max(r for r, _ in cells) + 1)
    cols = range(max(c for _, c in cells) + 1)
    return "rows " + " / ".join(
        repr(" ".join(cells.get((r, c), ".") for c in cols)) for r in rows)


LIBRARY = "the public library"

class _Checker:
    def __init__(self, scenario: Scenario, game: Game, pending: Decision | None,
                 outcome: Outcome | None) -> None:
        self.outcome = outcome
        self.scenario = scenario
        self.game = game
        self.state = game.state
        self.pending = pending
        self.seats = {p.name: p.seat for p in self.state.players}
        self.asked: list[Decision] = []
        self.offered_why: dict[int, str] = {}

    def player(self, name: str) -> PlayerState:
        return self.state.players[self.seats[name]]

    def name(self, seat: int | None) -> str:
        return "nobody" if seat is None else self.state.players[seat].name

    # ------------------------------------------------------------------ cards
    def check_hands(self, expected: dict[str, list[str]]) -> str | None:
        for name, cards in expected.items():
            found = [c.name for c in self.player(name).hand.cards]
            if (diff := _multiset(f"{name}'s hand", cards, found)) is not None:
                return diff
        return None

    def check_hand_sizes(self, expected: dict[str, int]) -> str | None:
        for name, size in expected.items():
            found = len(self.player(name).hand.cards)
            if found != size:
                return f"{name}'s hand: expected {size} cards, found {found}"
        return None

    def check_shelves(self, expected: dict[str, dict[Pos, str]]) -> str | None:
        for name, cells in expected.items():
            want = _normal(cells)
            found = _normal(shelf_cells(self.player(name).shelf))
            if want != found:
                return (f"{name}'s shelf: expected {_rows(want)}, found {_rows(found)}")
        return None

    def check_discard(self, expected: list[str]) -> str | None:
        return _multiset("the discard pile", expected, [c.name for c in self.state.discard])

    def check_deck(self, expected: list[str]) -> str | None:
        found = [c.name for c in reversed(self.state.deck.cards)]
        if found != expected:
            return f"the deck (top first): expected {_names(expected)}, found {_names(found)}"
        return None

    def check_assistant_deck(self, expected: list[str]) -> str | None:
        found = [c.name for c in reversed(self.state.assistant_deck.cards)]
        if found != expected:
            return (f"the special assistant deck (top first): expected {_names(expected)}, "
                    f"found {_names(found)}")
        return None

    def check_artifact_deck(self, expected: list[str]) -> str | None:
        found = [c.name for c in reversed(self.state.artifact_deck.cards)]
        if found != expected:
            return (f"the artifact deck (top first): expected {_names(expected)}, "
                    f"found {_names(found)}")
        return None

    def check_hires(self, expected: dict[str, list[str]]) -> str | None:
        for name, cards in expected.items():
            diff = _multiset(f"{name}'s hires", cards, [c.name for c in self.player(name).hires])
            if diff is not None:
                return diff
        return None

    def check_areas(self, expected: dict[str, list[str]]) -> str | None:
        by_id = {loc.id: loc for loc in self.state.in_play}
        for loc_id, cards in expected.items():
            loc = by_id.get(loc_id)
            if loc is None:
                return f"the area of {loc_id}: the location is not in play"
            diff = _multiset(f"the area of {loc_id}", cards, [c.name for c in loc.area])
            if diff is not None:
                return diff
        return None

    # ------------------------------------------------------------------ assistants
    def describe(self, assistant: Assistant) -> str:
        kind = kind_of(assistant)
        same = [a for a in self.player_of(assistant).assistants if kind_of(a) == kind]
        if len(same) > 1:
            kind += f"#{same.index(assistant) + 1}"
        who = f"{self.name(assistant.owner)} {kind}"
        if assistant.location is not None:
            return f"{who} at {assistant.location.id} space {(assistant.space or 0) + 1}"
        if assistant.home_index is not None:
            return f"{who} at home {assistant.home_index + 1}"
        if assistant.id in self.player_of(assistant).placed_this_round:
            return f"{who} returned"
        return f"{who} available"

    def player_of(self, assistant: Assistant) -> PlayerState:
        return self.state.players[assistant.owner]

    def check_assistants(self, statements: list[dict[str, Any]]) -> str | None:
        used: set[int] = set()
        everyone = [a for p in self.state.players for a in p.assistants]
        for st in statements:
            if st["player"] is None:  # nobody at LOCATION space N
                holders = [a for a in everyone if a.location is not None
                           and a.location.id == st["location"]
                           and (a.space or 0) + 1 == int(st["space"])]
                if holders:
                    return (f"expected {st['text']!r}, but found "
                            f"{'; '.join(self.describe(a) for a in holders)}")
                continue
            if st["retired"]:
                problem = self._retired(st)
                if problem:
                    return problem
                continue
            seat = self.seats[st["player"]]
            mine = [a for a in matching(self.player(st["player"]).assistants, st["assistant"])
                    if id(a) not in used]
            fits = [a for a in mine if self._at(a, st)]
            if not fits:
                owned = [a for a in self.state.players[seat].assistants
                         if a.kind == "standard" or a.spec is not None]
                found = "; ".join(self.describe(a) for a in owned) or "no assistants"
                return f"expected {st['text']!r}, found {found}"
            used.add(id(fits[0]))
        return None

    def _retired(self, st: dict[str, Any]) -> str | None:
        """``PLAYER ASSISTANT retired``: none of that kind is in the player's pool (it
        went to the supply)."""
        left = matching(self.player(st["player"]).assistants, st["assistant"])
        if left:
            return (f"expected {st['text']!r}, but {self.describe(left[0])} is still in "
                    f"{st['player']}'s pool")
        return None

    def _at(self, assistant: Assistant, st: dict[str, Any]) -> bool:
        if st["available"]:
            return assistant.available
        if st["returned"]:  # placed earlier this round, and back
            return assistant.available and (
                assistant.id in self.player_of(assistant).placed_this_round)
        if st["home"] is not None:
            return assistant.home_index == int(st["home"]) - 1
        return (assistant.location is not None and assistant.location.id == st["location"]
                and (assistant.space or 0) + 1 == int(st["space"]))

    # ------------------------------------------------------------------ table
    def check_first_player(self, expected: str) -> str | None:
        found = self.name(self.state.first_player)
        if found != expected:
            return f"the first player: expected {expected}, found {found}"
        return None

    def check_first_player_next_round(self, expected: str) -> str | None:
        nxt = self.state.next_first_player
        found = self.name(nxt if nxt is not None else self.state.first_player)
        if found != expected:
            return f"the first player of the next round: expected {expected}, found {found}"
        return None

    def check_location_stack(self, expected: list[str]) -> str | None:
        found = list(reversed(self.state.location_stack))
        if found != expected:
            return (f"the location stack (top first): expected {_names(expected)}, "
                    f"found {_names(found)}")
        return None

    def check_location_discard(self, expected: list[str]) -> str | None:
        return _multiset("the location discard pile", expected, self.state.location_discard)

    def check_never_offered(self, expected: list[tuple[str | None, str]]) -> str | None:
        for number, decision in enumerate(self.asked, 1):
            asked = self.name(decision.seat)
            for player, label in expected:
                if label in decision.labels and player in (None, asked):
                    why = self.offered_why.get(id(decision))
                    return (f"decision {number} ({asked}, {decision.prompt!r}) offered "
                            f"{label!r}, which no decision of the run should offer"
                            + (f"\nwhy: {why}" if why else ""))
        return None

    def check_in_play(self, expected: list[str]) -> str | None:
        found = [loc.id for loc in self.state.in_play]
        return _multiset("the locations in play", expected, found)

    def check_permanent(self, expected: list[str]) -> str | None:
        found = [loc.id for loc in self.state.in_play if loc.permanent]
        return _multiset("the permanent locations", expected, found)

    def check_final_round(self, expected: bool) -> str | None:
        if self.state.final_round != expected:
            return (f"expected the next round {'to be' if expected else 'not to be'} the "
                    f"final round")
        return None

    def check_counters(self, expected: dict[tuple[str, str], int]) -> str | None:
        """The counters named; a counter not named may hold anything."""
        for (holder, name), value in expected.items():
            found = self.state.counters.get((holder, name), 0)
            if found != value:
                return (f"the counter {name!r} of {holder.split(':')[-1]}: expected {value}, "
                        f"found {found}")
        return None

    def check_round(self, expected: int) -> str | None:
        if self.state.round != expected:
            return f"the round: expected {expected}, found {self.state.round}"
        return None

    # ------------------------------------------------------------------ the end
    def reached_end(self) -> str | None:
        if self.outcome is None:
            where = "the run stopped at a decision" if self.pending else "the game did not end"
            return f"expected the game to reach the inspection, but {where}"
        return None

    def check_ended(self, expected: str) -> str | None:
        if (missing := self.reached_end()) is not None:
            return missing
        assert self.outcome is not None
        found = self.outcome.reason.value
        if found != expected:
            return f"the game ended by {found!r}, expected {expected!r}"
        return None

    def check_inspection(self, expected: dict[str, Any]) -> str | None:
        if (missing := self.reached_end()) is not None:
            return missing
        assert self.outcome is not None
        inspection = self.outcome.inspection
        found = to_json(inspection)
        found["tiebreak"] = deciding_tiebreak(inspection)
        for key in ("variant", "ranking", "winners", "tiebreak"):
            if key in expected and expected[key] != found[key]:
                return f"the inspection's {key}: expected {expected[key]}, found {found[key]}"
        if "win" in expected and expected["win"] != found.get("win"):
            return f"the inspection's win: expected {expected['win']}, found {found.get('win')}"
        forms = {form["name"]: form for form in found["players"]}
        wanted = list(expected.get("players", []))
        if "public_library" in expected:  # solo: the opponent's column
            if "public_library" not in found:
                return "expected a public library (a solo game), found none"
            forms[LIBRARY] = {**found["public_library"], "name": LIBRARY}
            wanted.append({"name": LIBRARY, **expected["public_library"]})
        for want in wanted:
            form = forms[want["name"]]
            for key, value in want.items():
                got = form[key]
                if key == "tally":
                    got = {cat: got[cat] for cat in value}
                if value != got:
                    return (f"the inspection of {want['name']}: {key} expected {value}, "
                            f"found {got} (their figures: {_figures(form)})")
        return None

    # ------------------------------------------------------------------ events
    def check_events(self, expected: list[dict[str, Any]]) -> str | None:
        records = self.game.log.records
        at = 0
        for k, want in enumerate(expected, 1):
            while at < len(records) and not self._matches(records[at], want):
                at += 1
            if at == len(records):
                shown = ", ".join(f"{key}: {value}" for key, value in want.items())
                before = "" if k == 1 else " after the ones before it"
                return f"expected event {k} {{{shown}}}{before} did not happen"
            at += 1
        return None

    def check_no_events(self, unwanted: list[dict[str, Any]]) -> str | None:
        for number, record in enumerate(self.game.log.records, 1):
            for want in unwanted:
                if self._matches(record, want):
                    shown = ", ".join(f"{key}: {value}" for key, value in want.items())
                    return f"event {number} is {{{shown}}}, which must not happen: {record}"
        return None

    def check_license_form(self, expected: list[str]) -> str | None:
        solo = self.game.solo
        if solo is None:
            return "license_form: this is not a solo game"
        found = list(reversed(solo.form))  # popped from the end: the next revealed last
        if found != expected:
            return f"the license form holds {found}, expected {expected}"
        return None

    def check_contents(self, expected: dict[str, dict[str, Any]]) -> str | None:
        state = self.state
        piles = {
            "assistant_deck": [getattr(c, "assistant_id", str(c)) for c in state.assistant_deck],
            "artifact_deck": [getattr(c, "artifact_id", str(c)) for c in state.artifact_deck],
            "in_play": [loc.id for loc in state.in_play],
            "location_stack": list(state.location_stack),
        }
        for pile, want in expected.items():
            found = piles[pile]
            missing = [x for x in want.get("has", []) if x not in found]
            if missing:
                return f"{pile} lacks {', '.join(missing)}; it holds {', '.join(found)}"
            present = [x for x in want.get("lacks", []) if x in found]
            if present:
                return f"{pile} holds {', '.join(present)}, which it should not"
            if want.get("size") is not None and len(found) != want["size"]:
                return f"{pile} holds {len(found)}, expected {want['size']}: {', '.join(found)}"
        return None

    def check_blocked_bids(self, expected: dict[str, list[int]]) -> str | None:
        for loc in self.state.in_play:
            if loc.id not in expected:
                continue
            bids = loc.auction.bids if loc.auction is not None else []
            found = [b for b in bids if blocked(self.game, loc, b)]
            if found != expected[loc.id]:
                return f"{loc.id}: the bids held are {found}, expected {expected[loc.id]}"
        return None

    def _matches(self, record: dict[str, Any], want: dict[str, Any]) -> bool:
        for key, value in want.items():
            if key not in record:
                return False
            got = record[key]
            if key in ("seat", "to", "first_player") and isinstance(value, str) \
                    and value in self.seats:
                if got != self.seats[value] and got != f"hand:{self.seats[value]}":
                    return False
                continue
            if key in ("assistant", "source") and isinstance(value, str) and " " in value:
                who, kind = value.split(" ", 1)
                if who not in self.seats:
                    return False
                prefix = f"{self.seats[who]}:{kind}"
                if not (got == prefix or (kind == "standard" and str(got).startswith(
                        prefix + "-"))):
                    return False
                continue
            if isinstance(value, list) and isinstance(got, list):
                if [str(v) for v in value] != [str(g) for g in got]:
                    return False
                continue
            if value != got and str(value) != str(got):
                return False
        return True

    # ------------------------------------------------------------------ the decision
    def check_next_decision(self, expected: dict[str, Any]) -> str | None:
        decision = self.pending
        if decision is None:
            return "expected a decision to be pending when the script ran out, but none was asked"
        asked = self.name(decision.seat)
        labels = decision.labels
        if "player" in expected and expected["player"] != asked:
            return (f"the next decision: expected {expected['player']} to be asked, but "
                    f"{asked} is asked to {decision.prompt!r}")
        if "prompt" in expected and expected["prompt"] != decision.prompt:
            return (f"the next decision: expected the prompt {expected['prompt']!r}, "
                    f"found {decision.prompt!r}")
        if "options" in expected and expected["options"] != labels:
            return (f"the next decision ({asked}, {decision.prompt!r}): expected the options "
                    f"{expected['options']}, found {labels}")
        for label in expected.get("offers", []):
            if label not in labels:
                return (f"the next decision ({asked}, {decision.prompt!r}) does not offer "
                        f"{label!r}; its options: {'; '.join(labels)}")
        for label in expected.get("lacks", []):
            if label in labels:
                return (f"the next decision ({asked}, {decision.prompt!r}) offers {label!r}, "
                        "which it should not")
        return None
