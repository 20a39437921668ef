"""The table as one player sees it, drawn with rich.

The town board (categories, round, first player, the final-round warning), the
locations in play with their spaces, occupants and card areas, every player's
assistants and shelf, your hand and focus, and a short log. ``seat=None`` draws
an open table (all hands and focuses), for replays.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from exlibris.engine.decisions import Decision, DecisionKind
from exlibris.engine.game import Game
from exlibris.engine.invariants import MAX_HIRES
from exlibris.engine.state import Assistant, LocationState, PlayerState
from exlibris.interactive.keyed import KeyedColumns, KeyedTable
from exlibris.interactive.shelf_grid import Styles, cards_text, shelf_grid
from exlibris.model.cards import ArtifactCard, ResumeCard
from exlibris.model.shelf import Pos

LOG_LINES = 12


class Screen:
    """Draws ``game`` for one seat (or for everyone)."""

    def __init__(self, game: Game, seat: int | None, styles: Styles,
                 library_names: Mapping[str, str], width: int = 80) -> None:
        self.width = width
        self.game = game
        self.seat = seat
        self.styles = styles
        self.library_names = library_names

    def who(self, seat: int) -> str:
        name = self.game.state.players[seat].name
        return f"{name} (you)" if seat == self.seat and name.lower() != "you" else name

    def next_first(self) -> str:
        """`` (next round: Ann)`` once an effect (the Diviner's Hut) has made someone
        else the next round's first player; else nothing."""
        state = self.game.state
        nxt = state.next_first_player
        if nxt is None or nxt == state.first_player:
            return ""
        return f" (next round: {self.who(nxt)})"

    def category(self, code: str | None) -> Text:
        if not code:
            return Text("none", "dim")
        value = self.game.by_code.get(code)
        text = Text(code, self.styles.get(code, ""))
        if value is not None:
            text.append(f" {value.name}")
        return text

    def code(self, code: str | None) -> Text:
        """A category by its code alone (``H``), in its colour."""
        return Text(code, self.styles.get(code, "")) if code else Text("none", "dim")

    # ------------------------------------------------------------------ the whole table
    def table(self, log: Sequence[str] = (), marks: Mapping[Pos, str] | None = None,
              marks_seat: int | None = None) -> RenderableType:
        """Everything; ``marks`` go on ``marks_seat``'s shelf (default: the viewer's)."""
        marks_seat = self.seat if marks_seat is None else marks_seat
        parts: list[RenderableType] = [self.board()]
        players = self.game.state.players
        if not self.game.state.round:  # set-up: no empty board, hands or shelves
            players = []
        else:
            parts.append(self.locations())
        order = [self.seat] if self.seat is not None and players else []
        order += [p.seat for p in players if p.seat != self.seat]
        others = []
        for seat in order:
            panel = self.player(players[seat], marks if seat == marks_seat else None)
            if seat == self.seat or self.seat is None:
                parts.append(panel)
            else:
                others.append(panel)
        if others:
            parts.append(KeyedColumns(others, padding=(0, 4)))
        if log:
            text = Text("What happened\n", "bold")
            for line in log[-LOG_LINES:]:
                text.append(f"  • {line}\n")
            parts.append(text)
        return Group(*parts)

    def board(self) -> Text:
        state = self.game.state
        if not state.round:
            return Text("Ex Libris · set-up: the town board is laid out once every "
                        "library is chosen", "bold")
        solo = self.game.solo
        text = Text("Ex Libris", "bold")
        text.append(f" · round {state.round or 'set-up'}")
        if solo is not None:
            from exlibris.engine.solo import difficulty_name

            text.append(f" of {self.game.settings.final_round.rounds} · solo, difficulty "
                        f"{solo.difficulty} ({difficulty_name(solo.difficulty)})")
        elif state.players:
            text.append(f" · first player: {self.who(state.first_player)}{self.next_first()}")
        if state.final_round:
            text.append(" · ")
            text.append("FINAL ROUND", "bold reverse")
        text.append("\nProminent: ")
        text.append_text(self.category(state.prominent))
        text.append("    Banned: ")
        text.append_text(self.category(state.banned))
        if solo is not None:
            return self.solo_board(text)
        text.append(f"\nDeck {len(state.deck)} · discard pile {len(state.discard)} · "
                    f"location stack {len(state.location_stack)}")
        if "artifactorium" in self.game.settings.modules:
            text.append(f" · artifact deck {len(state.artifact_deck)}")
        if "job-faire" in self.game.settings.modules:
            text.append(f" · special assistant deck {len(state.assistant_deck)}")
        return text

    def solo_board(self, text: Text) -> Text:
        """Solo: the public library (its size and top card only, SOLO-11), the tiles
        left and the license form."""
        state = self.game.state
        solo = self.game.solo
        top = state.discard.cards[-1:] if state.discard.cards else []
        text.append(f"\nPublic library (the discard pile): {len(state.discard)} cards, top ")
        text.append_text(cards_text(top, self.styles) if top else Text("none", "dim"))
        text.append(f" · deck {len(state.deck)} · location tiles left in the stack "
                    f"{len(state.location_stack)}")
        text.append("\nPublic focus: ")
        if self.seat is None and state.phase == "inspection":
            text.append_text(self.category(solo.public_focus))
        else:
            text.append("face down", "dim")
        text.append(f" · license form: {len(solo.form)} face down")
        if solo.boxed:
            text.append(", boxed: ")
            for i, code in enumerate(solo.boxed):
                if i:
                    text.append(", ")
                text.append_text(self.category(code))
        return text

    # ------------------------------------------------------------------ locations
    def locations(self) -> Table:
        grid = KeyedTable(title="Locations", title_justify="left", title_style="bold",
                          show_edge=False, pad_edge=False, expand=False)
        grid.add_column("#", justify="right")
        grid.add_column("Location")
        grid.add_column("Spaces")
        grid.add_column("Cards")
        for loc in self.game.state.in_play:
            name = Text(loc.spec.name, "bold")
            name.append(f"\n{loc.spec.timing}, {'permanent' if loc.permanent else 'temporary'}",
                        "dim")
            if loc.resolved:
                name.append(", resolved", "dim")
            grid.add_row(str(loc.number), name, self.spaces(loc), self.area(loc))
        return grid

    def spaces(self, loc: LocationState) -> Text:
        n = len(self.game.state.players)
        auction = loc.spec.auction
        text = Text()
        for s, least in enumerate(loc.spec.spaces):
            if s:
                text.append("\n")
            label = f"bid {auction.bids[s]}" if auction and s < len(auction.bids) else str(s + 1)
            text.append(f"{label}: ")
            occupants = loc.spaces[s] if s < len(loc.spaces) else []
            if least > n:
                text.append(f"closed ({least}+ players)", "dim")
            elif occupants:
                text.append(", ".join(self.assistant(a) for a in occupants))
            else:
                text.append("open", "dim")
        return text

    def area(self, loc: LocationState) -> Text:
        cards = loc.area.cards
        if not cards:
            return Text("—", "dim")
        if loc.area.face_down and self.seat is not None:
            return Text(f"{len(cards)} face down", "dim")
        if any(isinstance(c, ResumeCard) for c in cards):  # the Job Faire's display
            return Text("\n".join(self.resume(c) for c in cards) + "\n(? for their texts)")
        return cards_text(cards, self.styles)

    def resume(self, card: ResumeCard) -> str:
        spec = self.game.assistant_cards.get(card.assistant_id)
        return spec.name if spec is not None else card.name

    def assistant(self, assistant: Assistant) -> str:
        owner = assistant.owner
        return f"{assistant.name} ({'you' if owner == self.seat else self.who(owner)})"

    # ------------------------------------------------------------------ players
    def player(self, player: PlayerState, marks: Mapping[Pos, str] | None) -> RenderableType:
        mine = self.seat is None or player.seat == self.seat
        head = Text(self.who(player.seat), "bold")
        if player.library:
            head.append(f" — {self.library_names.get(player.library, player.library)}")
        lines: list[RenderableType] = [head]
        if mine and player.focus:  # dealt once the libraries are chosen
            focus = Text("Focus: ")
            focus.append_text(self.category(player.focus))
            lines.append(focus)
        if mine:
            hand = Text(f"Hand ({len(player.hand)}): ")
            hand.append_text(cards_text(player.hand.cards, self.styles))
            lines.append(hand)
            lines += self.turned_up()
            relics = [self.game.artifact_specs[c.artifact_id].name for c in player.hand.cards
                      if isinstance(c, ArtifactCard) and c.artifact_id in self.game.artifact_specs]
            if relics:
                lines.append(Text("Artifacts in hand: " + "; ".join(relics) + "  (? for text)",
                                  "italic"))
        else:
            lines.append(Text(f"Hand: {plural(len(player.hand), 'card')}"))
        if player.assistants:
            lines.append(labelled("Assistants: ", "; ".join(self.where(a)
                                                          for a in player.assistants)))
        if player.hired:
            lines.append(Text(f"Hired ({player.hired} of {MAX_HIRES}): "
                              + (", ".join(self.resume(c) for c in player.hires.cards)
                                 or "none left")))
        shelf = shelf_grid(player.shelf, self.styles, secret=not mine, marks=marks,
                           title=f"Shelf: {plural(player.shelf.card_count(), 'card')}",
                           width=self.width)
        return Group(*lines, shelf)

    def turned_up(self) -> list[Text]:
        """``Turned up: N3/3:HMM``, the cards an effect has turned up from the deck and
        is asking about (none: no line)."""
        from exlibris.interactive.places import turned_up

        cards = turned_up(self.game)
        if not cards:
            return []
        line = Text("Turned up: ")
        line.append_text(cards_text(cards, self.styles))
        return [line]

    def others(self) -> RenderableType:
        """Every other player's library, hand size, assistants and shelf (in solo: the
        public library)."""
        return Group(*self.panels())

    def panels(self) -> list[RenderableType]:
        """One panel for each other player, or the public library's in solo."""
        if self.game.solo is not None:
            return [self.public_library()]
        players = self.game.state.players
        return [self.player(p, None) for p in players if p.seat != self.seat]

    def public_library(self) -> Text:
        """Solo: the opponent, the public library, as far as it may be seen."""
        text = Text("The public library (your opponent)", "bold")
        return self.solo_board(text)

    def where(self, assistant: Assistant) -> str:
        name = assistant.name
        if any(t is assistant for t in self.game.state.temps):
            name += " (temp)"
        if assistant.location is not None:
            bid = f" bidding {assistant.bid}" if assistant.location.spec.auction else ""
            return f"{name} at {assistant.location.spec.name}{bid}"
        if assistant.home_index is not None:
            return f"{name} on home space {assistant.home_index + 1}"
        return f"{name} ready"

    # ------------------------------------------------------------------ decisions
    def options(self, decision: Decision) -> Text:
        text = Text()
        for i, label in enumerate(decision.labels, 1):
            text.append(f"{i:>3}. ", "bold")
            text.append(f"{label}\n")
        return text


def labelled(label: str, text: str) -> Table:
    """``label`` then ``text``, what wraps going on under the text's start."""
    grid = KeyedTable.grid()
    grid.add_column(no_wrap=True)
    grid.add_column()
    grid.add_row(label, text)
    return grid


def plural(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def position_marks(decision: Decision) -> dict[Pos, str]:
    """Option numbers on the empty cells a ``where to shelve`` decision offers."""
    if decision.kind is not DecisionKind.POSITION:
        return {}
    return {tuple(pos): str(i) for i, pos in enumerate(decision.values, 1)}  # type: ignore[misc]


def prompt_line(game: Game, decision: Decision, asked_by: str | None = None) -> Text:
    """``You, place an assistant`` with the decision's own words, and the effect that
    asks when one does (``You, The Trash Golem: choose one``)."""
    import re

    from exlibris.interactive.steps import named

    prompt = re.sub(r"\s*\(line \d+\)", "", chosen_what(decision))
    if decision.card is not None:  # the card a "where to shelve" asks about, with its books
        prompt = named(prompt, [decision.card])
    if prompt[1:2].islower():  # after the name: ``You, which ...``, not ``You, Which``
        prompt = prompt[:1].lower() + prompt[1:]
    text = Text(f"{game.state.players[decision.seat].name}, ", "bold")
    if asked_by:
        text.append(f"{asked_by}: ")
    from exlibris.interactive.names import readable

    text.append(readable(prompt), "bold")
    return text


def chosen_what(decision: Decision) -> str:
    """The prompt saying who or what is chosen: a pick's ``which to choose?`` over
    players reads ``which opponent to choose?`` (``which player...`` when the decider is
    among them), and ``which location``, ``assistant``, ``space`` or ``card``."""
    from exlibris.engine.public import (
        PublicAssistant,
        PublicLocation,
        PublicPlayer,
        PublicSpace,
    )
    from exlibris.model.cards import ArtifactCard, BookCard

    prompt = decision.prompt
    if decision.kind is not DecisionKind.PICK or not prompt.startswith("which to "):
        return prompt
    values = [v for v in decision.values if v is not None]
    if values and all(isinstance(v, PublicPlayer) for v in values):
        seats = {getattr(v, "seat", None) for v in values}
        what = "player" if decision.seat in seats else "opponent"
    elif values and all(isinstance(v, PublicLocation) for v in values):
        what = "location"
    elif values and all(isinstance(v, PublicAssistant) for v in values):
        what = "assistant"
    elif values and all(isinstance(v, PublicSpace) for v in values):
        what = "space"
    elif values and all(isinstance(v, BookCard | ArtifactCard) for v in values):
        what = "card"
    else:
        return prompt
    return f"which {what} {prompt.removeprefix('which ')}"
