"""Choices as a player reads and makes them: several cards chosen at once (Space and
Enter at the full screen, a comma list in line mode) answering the engine's own
one-card steps; the Trash Golem's options naming the cards; a warning beside a
placement a ruling makes idle; prompts saying who or what is chosen."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from exlibris.catalog import load_catalog
from exlibris.engine.decisions import DecisionKind
from exlibris.interactive import fullscreen as keys
from exlibris.interactive.frame import visible
from exlibris.interactive.human import HumanAgent, idle_at_home
from exlibris.interactive.record import SaveRecord
from exlibris.interactive.session import Session
from exlibris.interactive.shelf_grid import category_styles
from exlibris.interactive.steps import first_step, levels, next_step, player_labels
from exlibris.interactive.terminal import Terminal
from exlibris.model.cards import BookCard

CATALOG = load_catalog()
STYLES = category_styles(CATALOG.categories)
LIBRARIES = {lib.id: lib.name for lib in CATALOG.libraries.values()}
ROOT = Path(__file__).resolve().parent.parent


class Marking:
    """A full screen that answers Enter, except at the voluntary flips: it chooses to
    flip, then marks the first two cards of the list (Space, ↓, Space) and confirms."""

    def __init__(self) -> None:
        self.text = ""
        self.pending: list[str] = []
        self.marked_frames: list[str] = []

    def size(self) -> tuple[int, int]:
        return 80, 24

    def draw(self, lines: list[str]) -> None:
        self.text = "\n".join(visible(line) for line in lines)
        if "mark any number (Space)" in self.text:
            self.marked_frames.append(self.text)

    def key(self) -> str:
        if self.pending:
            return self.pending.pop(0)
        if "flip cards face down before the inspection" in self.text and \
                "mark any number (Space)" not in self.text:
            self.pending = [keys.ENTER]
            return "2"
        if "mark any number (Space)" in self.text:
            self.pending = [keys.DOWN, " ", keys.ENTER]
            return " "
        return keys.ENTER

    def leave(self) -> None:
        pass


def _session(terminal: Terminal, seed: int = 5) -> tuple[Session, HumanAgent]:
    record = SaveRecord(seed=seed, seats=["human", "greedy"], names=["You", "Bot"]).stamp()
    agent = HumanAgent(0, terminal, STYLES, LIBRARIES)
    session = Session(record, CATALOG, humans={0: agent})
    agent.session = session
    return session, agent


def _flips(session: Session) -> list[str]:
    labels = [d.label for d in session.record.decisions if d.seat == 0]
    start = labels.index("choose cards to flip")
    return labels[start:]


def test_several_cards_are_marked_and_chosen_at_once_at_the_full_screen() -> None:
    screen = Marking()
    terminal = Terminal(io.StringIO(), io.StringIO(), arrows=False)
    terminal.full = screen  # type: ignore[assignment]
    session, _ = _session(terminal)
    session.run()
    assert screen.marked_frames, "no multi-select was shown"
    assert any("[x]" in text and "[ ]" in text for text in screen.marked_frames)
    assert "Space marks · Enter confirms" in screen.marked_frames[-1]
    flips = _flips(session)
    # one answer on screen; the engine's own steps recorded: each card, then "done"
    # unless no card is left to ask about
    assert flips[1].startswith("flip ") and flips[2].startswith("flip ")
    assert flips[3:] in ([], ["done"])


class Lines(Terminal):
    """Line mode: "1" to everything, but at the voluntary flips "2" and then the names
    of two face-up shelf cards separated by a comma."""

    def __init__(self) -> None:
        super().__init__(io.StringIO(), io.StringIO(), arrows=False)
        self.agent: HumanAgent | None = None
        self.answered: list[str] = []

    def choose(self) -> str | None:
        assert self.agent is not None and self.agent.session is not None
        game = self.agent.session.game
        assert game is not None
        shown = self.out.getvalue()[-3000:]  # type: ignore[attr-defined]
        if "mark any number (Space)" in shown.rsplit("\n>", 1)[-1] or shown.endswith(
                "A1, B2)\n") or "type them with commas" in shown[-600:]:
            shelf = game.state.players[0].shelf
            names = [slot.card.name for _, slot in shelf.items()
                     if isinstance(slot.card, BookCard) and not slot.face_down][:2]
            answer = ", ".join(names)
        elif "flip cards face down before the inspection" in shown[-600:]:
            answer = "2"
        else:
            answer = "1"
        self.out.truncate(0)  # type: ignore[attr-defined]
        self.out.seek(0)  # type: ignore[attr-defined]
        self.answered.append(answer)
        return answer


def test_in_line_mode_several_cards_are_a_comma_list() -> None:
    terminal = Lines()
    terminal.out = terminal.console.file  # type: ignore[attr-defined]
    session, agent = _session(terminal)
    terminal.agent = agent
    session.run()
    commas = [a for a in terminal.answered if "," in a]
    assert len(commas) == 1
    first, second = (name.strip() for name in commas[0].split(","))
    assert _flips(session)[1:3] == [f"flip {first}", f"flip {second}"]
    assert _flips(session)[3:] in ([], ["done"])


def _scenario(path: Path) -> Any:
    from exlibris.scenario import load_scenario
    from exlibris.scenario.runner import Run

    run = Run(load_scenario(path))
    result = run.execute()
    return run.game, result.pending


def test_the_trash_golems_options_name_the_cards(tmp_path: Path) -> None:
    text = (ROOT / "scenarios" / "assistants" /
            "trash-golem-rescues-a-card-per-location-until-its-own.yaml").read_text("utf-8")
    path = tmp_path / "golem.yaml"
    path.write_text(text.split("script:")[0] + "script: []\nexpect:\n  round: 1\n", "utf-8")
    game, decision = _scenario(path)
    assert decision is not None
    labels = player_labels(game, decision)
    assert any(label.startswith("take a card (E1") for label in labels), labels
    assert any(label.startswith("shelve a card (E1") for label in labels), labels


def test_a_golem_placed_at_home_is_said_to_do_nothing_there(tmp_path: Path) -> None:
    path = tmp_path / "home.yaml"
    path.write_text("""\
kind: scenario
name: the Golem may go home
setup:
  players:
    - {name: Ann, library: junkyard-of-enlightenment}
    - {name: Bob, library: igloo-of-information}
  locations:
    - diviners-hut
    - {id: book-seller, area: [C1, D1]}
script: []
expect:
  round: 1
""", "utf-8")
    game, decision = _scenario(path)
    assert decision is not None and decision.kind is DecisionKind.PLACE
    grouping = levels(game, decision)
    home = next(c for c in first_step(decision, grouping).choices
                if c.label.startswith("your library"))
    step = next_step(decision, grouping, home)
    notes = {choice.label: idle_at_home(*decision.values[choice.options[0]])
             for choice in step.choices}
    golem = [note for label, note in notes.items() if "Trash Golem" in label]
    assert golem and all("only takes the home action (ruling LIB-GOLEM-3)" in n for n in golem)
    assert all(not note for label, note in notes.items() if "Trash Golem" not in label)


def test_prompts_say_who_or_what_is_chosen() -> None:
    """Over seeded games of every mode no pick asks ``which to ...?``: it says which
    card, which opponent (which player), which location."""
    from seeded_games import goldens, play_mode

    from exlibris.interactive.screen import prompt_line

    prompts: dict[str, str] = {}

    def watch(game: Any, decision: Any, index: int) -> None:
        if decision.kind is DecisionKind.PICK:
            prompts.setdefault(decision.prompt, prompt_line(game, decision).plain)
            if ", which to " in prompts[decision.prompt]:
                prompts[decision.prompt] = prompt_line(game, decision).plain

    for mode in goldens().MODES:
        play_mode(mode, 2, watch=watch)
    assert prompts.get("which to choose?", "").endswith("which opponent to choose?")
    assert prompts["which to flip?"].endswith("which card to flip?")
    assert not [p for p in prompts.values() if ", which to " in p], prompts


def test_a_question_after_a_move_home_names_the_location_that_asks() -> None:
    """The Librarians' Lodge moves an assistant home and asks to rework the shelf: the
    question is the Lodge's, not a home action's (the move is recorded as one)."""
    from exlibris.agents import RandomAgent
    from exlibris.engine.decisions import Decision
    from exlibris.engine.flow import new_game
    from exlibris.interactive.context import asker
    from exlibris.validation import resolve_settings

    game = new_game(CATALOG, resolve_settings("standard", CATALOG.variants),
                    [RandomAgent(1), RandomAgent(2)], seed=3)
    decision = Decision(0, DecisionKind.MAY, "rework the shelf?", [True, False])
    records = [{"event": "place", "seat": 0, "assistant": "0:standard-1",
                "location": "librarians-lodge", "space": 1, "bid": 0},
               {"event": "activate", "seat": 0, "location": "librarians-lodge"},
               {"event": "place", "seat": 0, "assistant": "0:standard-2", "home": 2,
                "moved": True},
               {"event": "draw", "seat": 0, "cards": ["A1"]}]
    assert asker(game, decision, records) == CATALOG.locations["librarians-lodge"].name
    unmoved = [*records[:2], {**records[2], "moved": False}, records[3]]
    assert asker(game, decision, unmoved) == "home action"
