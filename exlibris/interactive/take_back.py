"""After an engine error: offer to take back the latest decision a person made.

Content can stop a game that no answer of the moment gets past (an effect past a
limit of ``limits.py``): the game is then saved with its ``failure``
(``record.py``). When a person has decided something, the person at the terminal
is offered to take their latest decision back, as ``u`` does it (the record is cut
there and played again, ``Session.take_back``), and choose otherwise; or to stop,
which keeps the save and its failure, and ``play --resume`` offers the same again.

Full screen: the table as it stood when the game stopped, the error and two
choices (↑/↓ Enter, ``1`` or ``u`` take back, ``2``, ``q`` or Esc stop; Tab
still shows the other views). Line mode: the error and two numbered choices, one line read.
"""

from __future__ import annotations

from rich.text import Text

from exlibris.interactive.human import HumanAgent, parse_answer
from exlibris.interactive.session import QuitRequest, Session

TAKE, STOP = 0, 1
KEYS = "↑/↓ Enter choose · 1 or u take back · 2, q or Esc stop · Tab views"
TYPED = "Type 1 (or u) to take it back, 2 (or q) to stop"
HELP = ("The game cannot go on from here: the content in use stopped the engine with an "
        "error, and the game is saved as it stands. Taking back the latest decision a "
        "person made plays the game again up to that decision and asks it again: choose "
        "otherwise and the game may go on. Stopping keeps the save, and `exlibris play "
        "--resume FILE` comes back to this question.")


class Offer:
    """What the offer says: the error, whose decision is taken back, the choices."""

    def __init__(self, session: Session, keep: int) -> None:
        record = session.record
        assert record.failure is not None  # Session.run records it before offering
        entry = record.decisions[keep]
        people = [seat for seat, kind in enumerate(record.seats) if kind == "human"]
        whose = "your" if len(people) == 1 else f"{record.names[entry.seat]}'s"
        error = record.failure.text()
        self.error = f"{error[:1].upper()}{error[1:]}."
        self.seat = entry.seat
        self.label = entry.label
        self.question = f"Take back {whose} latest decision and choose again?"
        self.labels = [f"take back {whose} decision {keep + 1}: {entry.label}",
                       "stop here (the game stays saved)"]


def offer(session: Session, exc: Exception) -> bool:
    """Ask the person at the terminal whether to take back the latest decision a
    person made (True); False to stop, as at the end of input. ``exc`` is the error,
    already recorded as the save's failure."""
    keep = session.record.last_of_people()
    if keep is None:
        return False
    choice = Offer(session, keep)
    agent = session.humans.get(choice.seat)
    if not isinstance(agent, HumanAgent):
        return False
    term = agent.terminal
    try:
        if agent.hot_seat and term.last_seat != choice.seat:
            agent.hand_off(session)  # the offer shows this player's hand
    except QuitRequest:
        return False
    term.last_seat = choice.seat
    if term.full is None:
        taken = _line_mode(agent, session, choice)
    else:
        taken = _full_screen(agent, session, choice)
    if taken:
        agent.tell(f"Taking back: {choice.label}")
    return taken


def _answer(text: str, labels: list[str]) -> tuple[bool | None, str]:
    """A typed answer: take back (True), stop (False) or neither (None, with why)."""
    parsed = parse_answer(text, labels)
    if parsed.index is not None:
        return parsed.index == TAKE, ""
    if parsed.command in ("undo", "quit"):
        return parsed.command == "undo", ""
    return None, TYPED + "."


def _line_mode(agent: HumanAgent, session: Session, choice: Offer) -> bool:
    """What happened since the player's last answer, the error, the two choices."""
    from exlibris.interactive.narrate import Narrator

    term = agent.terminal
    assert session.game is not None
    since = session.log.records[session.seen.get(choice.seat, 0):]
    lines = Narrator(session.game, choice.seat).lines(since)
    if lines:
        term.say("What happened\n" + "\n".join(f"  • {line}" for line in lines))
    term.say(choice.error, wrap=True)
    term.say(choice.question)
    while True:
        term.show(_options(choice.labels), Text(TYPED, "dim"))
        line = term.choose()
        if line is None:
            return False
        taken, problem = _answer(line, choice.labels)
        if taken is not None:
            return taken
        term.say(problem)


def _options(labels: list[str]) -> Text:
    """The two choices, numbered as a decision's options are."""
    text = Text()
    for i, label in enumerate(labels, 1):
        text.append(f"{i:>3}. ", "bold")
        text.append(label + "\n")
    return text


def _full_screen(agent: HumanAgent, session: Session, choice: Offer) -> bool:
    from exlibris.interactive import fullscreen as keys
    from exlibris.interactive.frame import LAST, PANES, Ask, Painter, frame
    from exlibris.interactive.narrate import Narrator
    from exlibris.interactive.screen import Screen

    term = agent.terminal
    full = term.full
    assert full is not None and session.game is not None
    seat = choice.seat
    moves = {keys.UP: -1, keys.DOWN: 1, keys.PAGE_UP: -10, keys.PAGE_DOWN: 10,
             keys.HOME: -LAST, keys.END: LAST}
    painter = Painter(term.console.color_system, term.console.no_color)
    screen = Screen(session.game, seat, agent.styles, agent.library_names)
    narrator = Narrator(session.game, seat)
    log = narrator.lines(session.log.records)
    since = narrator.lines(session.log.records[session.seen.get(choice.seat, 0):])
    prompt = Text(choice.error, "bold")
    prompt.append(f"\n{choice.question}")
    state = Ask(prompt, choice.labels, hint=KEYS, help=HELP, since=since)
    while True:
        width, height = full.size()
        full.draw(frame(screen, log, state, width, height, painter))
        key = full.key()
        state.message = ""
        if key == keys.EOF and not state.typed:
            return False
        if key == keys.ENTER:
            typed, state.typed = state.typed.strip(), ""
            if state.pane != "decision" and not typed:
                state.pane = "decision"
                continue
            if not typed:
                return state.cursor == TAKE
            taken, state.message = _answer(typed, choice.labels)
            if taken is not None:
                return taken
        elif key in (keys.TAB, keys.BACK_TAB):
            step = 1 if key == keys.TAB else -1
            state.pane = PANES[(PANES.index(state.pane) + step) % len(PANES)]
            state.scroll = LAST if state.pane == "log" else 0
        elif key == keys.ESCAPE:
            if state.pane == "decision":
                return False
            state.pane = "decision"
        elif key in moves:
            if state.pane == "decision":
                state.cursor = TAKE if moves[key] < 0 else STOP
            else:
                state.scroll = max(0, min(LAST, state.scroll + moves[key]))
        elif key == keys.BACKSPACE:
            state.typed = state.typed[:-1]
        elif key:
            state.typed += key
            if state.typed in ("1", "2"):
                state.cursor = int(state.typed) - 1
