""""Why not?" at a decision: what a player (or a scenario step) names, found in the
position, and the refusal ``refusals.py`` gives for it.

``why_not(game, decision, text)`` reads ``text`` for a location (its name, id or
``#number``, with ``space N``, ``bid N`` or ``home space N``), a shelf cell (``row R
column C``, ``(R, C)``, ``R,C``) or a card (``Q1``, an artifact's id or name), and
answers with one line per thing refused (or "it is offered"). Nothing here decides
what is legal: a location's spaces are judged by ``placement_refusal`` and a cell or
a shelved card by the shelf's own checks.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from exlibris.engine.decisions import Decision, DecisionKind, Purpose
from exlibris.engine.refusals import (
    Refusal,
    home_refusal,
    placement_refusal,
    shelf_refusal,
)
from exlibris.engine.state import Assistant
from exlibris.model.cards import ArtifactCard

if TYPE_CHECKING:
    from exlibris.engine.game import Game
    from exlibris.engine.state import LocationState

_CELL = re.compile(r"row\s*(-?\d+)\s*,?\s*col(?:umn)?\s*(-?\d+)|\(?\s*(-?\d+)\s*,\s*(-?\d+)\s*\)?",
                   re.IGNORECASE)
_SPACE = re.compile(r"\b(space|bid(?:ding)?)\s*(\d+)", re.IGNORECASE)
_HOME = re.compile(r"\bhome(?:\s+space)?\s*(\d+)?", re.IGNORECASE)
_NUMBER = re.compile(r"#(\d+)")
_REMOVING = frozenset({Purpose.DISCARD, Purpose.GIVE, Purpose.PAY, Purpose.TRADE_AWAY,
                       Purpose.MOVE})


def why_not(game: Game, decision: Decision, text: str) -> str:
    """Why what ``text`` names is not an option of ``decision`` (or that it is)."""
    if decision.kind is DecisionKind.PLACE:
        found = _placement(game, decision, text)
        if found is not None:
            return found
    cell = _cell(text)
    if cell is not None:
        return _about_cell(game, decision, cell)
    card = _card(game, decision, text)
    if card is not None:
        return _about_card(game, decision, card)
    place = _location(game, text)
    if place is not None:
        return (f"{place[1]}: this decision ({decision.prompt}) does not place an "
                f"assistant; it offers {_offers(decision)}")
    return (f"nothing named {text.strip()!r} is at this decision; name a location (and "
            "'space N'), a shelf cell ('row R column C') or a card ('Q1')")


# ---------------------------------------------------------------- placements


def _assistants(decision: Decision) -> list[Assistant]:
    return list({id(a): a for a, _ in decision.handles}.values())


def _location(game: Game, text: str) -> tuple[Any, str] | None:
    """The location ``text`` names (a ``LocationState`` in play, else its spec) and
    its name as shown."""
    folded = text.casefold()
    number = _NUMBER.search(text)
    candidates: list[tuple[Any, Any]] = [(loc, loc.spec) for loc in game.state.in_play]
    candidates += [(None, spec) for spec in game.location_specs.values()
                   if all(spec.id != loc.id for loc in game.state.in_play)]
    for loc, spec in sorted(candidates, key=lambda c: -len(c[1].name)):  # longest first
        if number is not None and int(number.group(1)) == spec.number and (
                loc is not None or spec.name.casefold() in folded):
            return (loc or spec), spec.name
        if spec.name.casefold() in folded or spec.id in folded.split():
            return (loc or spec), spec.name
    return None


def _placement(game: Game, decision: Decision, text: str) -> str | None:
    assistants = _assistants(decision)
    named = [a for a in assistants if a.name.casefold() in text.casefold()
             and a.kind != "standard"]
    if named:
        assistants = named
    elif "standard" in text.casefold():
        assistants = [a for a in assistants if a.kind == "standard"] or assistants
    home = _HOME.search(text)
    found = _location(game, text)
    if found is None and home is None:
        return None
    offered = {(id(a), t.location.id if t.location else None, t.space): i
               for i, (a, t) in enumerate(decision.handles)}
    lines: list[tuple[str, str, str]] = []
    for assistant in assistants:
        if found is None:
            assert home is not None
            spaces = [int(home.group(1)) - 1] if home.group(1) else \
                list(range(len(game.state.players[decision.seat].home)))
            for space in spaces:
                key = (id(assistant), None, space)
                refusal = None if key in offered else home_refusal(game, decision.seat, space)
                lines.append((assistant.name, f"on home space {space + 1}",
                              _said(decision, offered.get(key), refusal)))
            continue
        target, name = found
        if not hasattr(target, "opens_at"):  # a location that is not in play
            lines.append((assistant.name, f"at {name}", str(Refusal(
                "assistants go only to locations in play", "PLACE-02",
                f"{name} is not in play"))))
            continue
        lines += _spaces(game, decision, assistant, target, text, offered)
    return "\n".join(_merged(lines))


def _merged(lines: list[tuple[str, str, str]]) -> list[str]:
    """``(assistant, where, said)`` lines, one line for every assistant told the same
    of a place (a refusal that does not depend on who is placed)."""
    by_place: dict[tuple[str, str], list[str]] = {}
    for who, where, said in lines:
        by_place.setdefault((where, said), []).append(who)
    everyone = list(dict.fromkeys(who for who, _, _ in lines))
    out = []
    for (where, said), who in by_place.items():
        if len(everyone) > 1 and who == everyone and not said.startswith("offered"):
            out.append(f"{where[0].upper()}{where[1:]}: {said}")
        else:
            out.append(f"{' and '.join(dict.fromkeys(who))} {where}: {said}")
    return out


def _spaces(game: Game, decision: Decision, assistant: Assistant, loc: LocationState,
            text: str, offered: dict[tuple[Any, ...], int]) -> list[tuple[str, str, str]]:
    asked = _SPACE.search(text)
    spaces = list(range(len(loc.opens_at)))
    if asked is not None:
        value = int(asked.group(2))
        name = f"{loc.spec.name} (#{loc.spec.number})"
        if asked.group(1).casefold().startswith("bid") and loc.auction is not None:
            spaces = [s for s in spaces if s < len(loc.auction.bids)
                      and loc.auction.bids[s] == value]
            if not spaces:  # a bid the tile does not have: say so, not another space
                bids = ", ".join(str(b) for b in loc.auction.bids[:len(loc.opens_at)])
                return [(assistant.name, f"at {loc.spec.name} bid {value}",
                         f"{name} has no bid {value}: its bids are {bids}")]
        elif 0 < value <= len(spaces):
            spaces = [value - 1]
        else:  # a space the tile does not have
            count = len(spaces)
            return [(assistant.name, f"at {loc.spec.name} space {value}",
                     f"{name} has no space {value}: it has {count} "
                     f"space{'s' if count != 1 else ''}")]
    lines = []
    for space in spaces:
        key = (id(assistant), loc.id, space)
        refusal = None if key in offered else placement_refusal(
            game, decision.seat, assistant, loc, space,
            resolving=decision.data.get("resolving"))
        where = (f"bid {loc.auction.bids[space]}" if loc.auction is not None
                 and space < len(loc.auction.bids) else f"space {space + 1}")
        lines.append((assistant.name, f"at {loc.spec.name} {where}",
                      _said(decision, offered.get(key), refusal)))
    return lines


def _said(decision: Decision, index: int | None, refusal: Refusal | None) -> str:
    if index is not None:
        return f"offered ({index + 1}. {decision.label(index)})"
    if refusal is None:  # allowed by the rules, but not what this decision asks
        return f"not what this decision asks ({decision.prompt})"
    return str(refusal)


# ---------------------------------------------------------------- shelf cells and cards


def _cell(text: str) -> tuple[int, int] | None:
    match = _CELL.search(text)
    if match is None:
        return None
    row, col = (match.group(1), match.group(2)) if match.group(1) is not None \
        else (match.group(3), match.group(4))
    return int(row), int(col)


def _about_cell(game: Game, decision: Decision, cell: tuple[int, int]) -> str:
    shelf = game.state.players[decision.seat].shelf
    where = f"row {cell[0]}, column {cell[1]}"
    values = list(decision.handles)
    if cell in values:
        index = values.index(cell)
        return f"{where}: offered ({index + 1}. {decision.label(index)})"
    card = decision.card
    if decision.kind is DecisionKind.POSITION and card is not None:
        error = shelf.shelving_refusal(card, cell)
        if error is not None:
            return f"{where}: {shelf_refusal(error)}"
    slot = shelf.at(cell)
    if slot is not None:
        return _about_card(game, decision, slot.card)
    return f"{where}: not what this decision asks ({decision.prompt})"


def _card(game: Game, decision: Decision, text: str) -> Any:
    wanted = text.strip().casefold()
    for card in game.state.cards.where:
        names = {card.name.casefold(), str(card).casefold()}
        if isinstance(card, ArtifactCard):
            spec = game.artifact_specs.get(card.artifact_id)
            if spec is not None:
                names.add(spec.name.casefold())
        if wanted in names:
            return card
    return None


def _about_card(game: Game, decision: Decision, card: Any) -> str:
    name = card.name
    if isinstance(card, ArtifactCard) and card.artifact_id in game.artifact_specs:
        name = game.artifact_specs[card.artifact_id].name
    handles = list(decision.handles)
    if card in handles:
        index = handles.index(card)
        return f"{name}: offered ({index + 1}. {decision.label(index)})"
    zone = game.state.cards.zone_of(card)
    shelf = game.state.players[decision.seat].shelf
    pos = shelf.position_of(card)
    if pos is not None:
        purpose = decision.purpose
        error = (shelf.flip_refusal(pos) if purpose is Purpose.FLIP or
                 decision.kind is DecisionKind.FLIPS
                 else shelf.removal_refusal(pos) if purpose in _REMOVING else None)
        if error is not None:
            return f"{name} (row {pos[0]}, column {pos[1]}): {shelf_refusal(error)}"
    where = _seen_place(game, decision.seat, zone, card)
    said = f"{name} is in {where}" if where else f"{name} is not among the cards you can see"
    return f"{said}; this decision ({decision.prompt}) offers {_offers(decision)}"


def _seen_place(game: Game, seat: int, zone: Any, card: Any) -> str | None:
    """Where ``card`` is, if ``seat``'s player may see it there (never a hidden hand,
    deck or face-down area)."""
    if zone is None:
        return None
    kind, _, rest = zone.name.partition(":")
    players = game.state.players
    if kind == "hand":
        return "your hand" if zone.owner == seat else None
    if kind == "shelf" and zone.owner is not None:
        owner = players[zone.owner].name
        return "your shelf" if zone.owner == seat else f"{owner}'s shelf"
    if kind == "area":
        loc = next((loc for loc in game.state.in_play if loc.id == rest), None)
        if loc is None or zone.face_down:
            return None
        return f"{loc.spec.name}'s area"
    if kind == "discard":
        cards = zone.cards
        visible = game.solo is None or (cards and cards[-1] is card)
        return "the discard pile" if visible else None
    return None


def _offers(decision: Decision) -> str:
    labels = decision.labels
    shown = "; ".join(labels[:6])
    return shown + (f"; and {len(labels) - 6} more" if len(labels) > 6 else "")


def why_offered(game: Game, decision: Decision, index: int) -> str:
    """What lets option ``index`` of ``decision`` through: for a placement, the
    placement rules that might have spoken (and that none refused it), or the rule
    that opens a held space; said when a scenario expected it never to be offered."""
    if decision.kind is not DecisionKind.PLACE:
        return f"no check of the engine refuses it ({decision.prompt})"
    from exlibris.engine.placement import rules_about

    assistant, target = decision.handles[index]
    loc = target.location
    if loc is None:
        return f"home space {target.space + 1} is free"
    rules = rules_about(game, assistant)
    if rules is None:
        return f"no placement rule in play speaks about placing {assistant.name}"
    check = rules.speaker(loc, target.space, list(loc.spaces[target.space]))
    if check is not None and check.kind != "deny":
        return f"a {check.kind} rule of {check.this.name} speaks for it: {check.rule.source}"
    asked = "; ".join(dict.fromkeys(f"{c.this.name}: {c.rule.source}" for c in rules.checks))
    return f"none of the placement rules in play refuses it ({asked})"
