"""The person at the terminal, as an agent: show the table, read an answer.

An answer is an option number (1-based), an option's label (or the start of
exactly one label), or a command: ``?`` the text of what the decision is
about, ``u`` undo, ``s`` save, ``q`` save and quit. The end of input saves
and quits too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rich.text import Text

from exlibris.engine.decisions import Decision
from exlibris.interactive.context import help_text
from exlibris.interactive.narrate import Narrator
from exlibris.interactive.screen import Screen, position_marks, prompt_line
from exlibris.interactive.session import QuitRequest, Session
from exlibris.interactive.shelf_grid import Styles
from exlibris.interactive.terminal import TYPE_HINT, Terminal

COMMANDS = {"?": "help", "help": "help", "u": "undo", "undo": "undo", "s": "save",
            "save": "save", "q": "quit", "quit": "quit"}


@dataclass(frozen=True)
class Parsed:
    """What a typed answer means: an option, a command, or a problem to show."""

    index: int | None = None
    command: str | None = None
    problem: str | None = None


def parse_answer(text: str, labels: Sequence[str]) -> Parsed:
    """Read one typed answer against the options' labels."""
    answer = " ".join(text.split())
    if not answer:
        return Parsed(problem=f"type an option number from 1 to {len(labels)}, or a label")
    folded = [label.casefold() for label in labels]
    wanted = answer.casefold()
    if wanted in folded:
        return Parsed(index=folded.index(wanted))
    if wanted in COMMANDS:
        return Parsed(command=COMMANDS[wanted])
    if answer.isdigit():
        number = int(answer)
        if 1 <= number <= len(labels):
            return Parsed(index=number - 1)
        return Parsed(problem=f"there is no option {number}; choose 1 to {len(labels)}")
    starts = [i for i, label in enumerate(folded) if label.startswith(wanted)]
    if len(starts) == 1:
        return Parsed(index=starts[0])
    if starts:
        return Parsed(problem=f"{answer!r} starts {len(starts)} options; type more of one, "
                              "or its number")
    return Parsed(problem=f"no option {answer!r}; type a number from 1 to {len(labels)}, "
                          "a label, or ? u s q")


class HumanAgent:
    """Answers one seat's decisions from the terminal."""

    needs_view = True

    def __init__(self, seat: int, terminal: Terminal, styles: Styles,
                 library_names: Mapping[str, str], *, hot_seat: bool = False) -> None:
        self.seat = seat
        self.terminal = terminal
        self.styles = styles
        self.library_names = library_names
        self.hot_seat = hot_seat
        self.session: Session | None = None

    def decide(self, view: Any, decision: Decision) -> int:
        session = self.session
        assert session is not None and session.game is not None
        term = self.terminal
        if self.hot_seat and term.last_seat != self.seat:
            self.hand_off(session)
        term.last_seat = self.seat
        self.show(session, decision)
        while True:
            answer = term.choose(decision.labels)
            if answer is None:
                raise QuitRequest("end of input")
            parsed = (Parsed(index=answer) if isinstance(answer, int)
                      else parse_answer(answer, decision.labels))
            if parsed.index is not None:
                return parsed.index
            if parsed.problem is not None:
                term.say(parsed.problem)
            elif parsed.command == "help":
                term.say(help_text(session.game, decision, session.log.records), wrap=True)
            elif parsed.command == "save":
                term.say(f"Saved to {session.save()}.")
            elif parsed.command == "quit":
                raise QuitRequest("quit")
            elif parsed.command == "undo":
                last = session.record.last_of(self.seat)
                if last is None:
                    term.say("Nothing to undo: you have not decided anything yet.")
                    continue
                term.say(f"Taking back: {session.record.decisions[last].label}")
                session.undo(self.seat)

    def hand_off(self, session: Session) -> None:
        term = self.terminal
        term.clear()
        name = session.record.names[self.seat]
        if not term.wait(f"— Pass the game to {name}. {name}, press Enter when ready. —"):
            raise QuitRequest("end of input")
        term.clear()

    def show(self, session: Session, decision: Decision) -> None:
        game = session.game
        assert game is not None
        term = self.terminal
        term.clear()
        records = session.log.records[session.seen.get(self.seat, 0):]
        log = Narrator(game, self.seat).lines(records)
        screen = Screen(game, self.seat, self.styles, self.library_names,
                        term.console.width)
        term.show(screen.table(log, position_marks(decision)))
        term.show(prompt_line(game, decision))
        if not term.arrows:
            term.show(screen.options(decision), Text(TYPE_HINT, "dim"))
