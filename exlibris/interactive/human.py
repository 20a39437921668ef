"""The person at the terminal, as an agent: show the table, read an answer.

A placement, and any other long option list, is asked in steps (``steps.py``); the
answer to the whole decision is still one option index. An answer is a number of
the step (1-based), a label of the step (or the start of exactly one), a full label
of any option of the decision at any step (or the start of the labels of exactly
one option), or a command: ``?`` help, ``why X`` (or ``? X``)
why X is not offered (``engine/why.py``), ``b`` back one
step, ``u`` undo, ``s [FILE]`` save, ``q`` save and quit. The end of input
saves and quits too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.text import Text

from exlibris.engine.decisions import Decision, DecisionKind
from exlibris.interactive.context import asker, help_text, player_help
from exlibris.interactive.narrate import Narrator
from exlibris.interactive.record import SaveError
from exlibris.interactive.screen import Screen, prompt_line
from exlibris.interactive.session import QuitRequest, Session
from exlibris.interactive.shelf_grid import Styles
from exlibris.interactive.steps import Step, first_step, levels, next_step
from exlibris.interactive.terminal import KEYS_HINT, TYPE_HINT, Terminal

DONE = "\x00done"  # a queued answer: the pick's "done"
COMMANDS = {"?": "help", "help": "help", "u": "undo", "undo": "undo", "s": "save",
            "save": "save", "q": "quit", "quit": "quit", "b": "back", "back": "back"}


@dataclass(frozen=True)
class Parsed:
    """What a typed answer means: a choice of this step, an option of the whole
    decision, a command (with its argument), or a problem to show."""

    index: int | None = None
    option: int | None = None
    command: str | None = None
    argument: str = ""
    problem: str | None = None


def parse_answer(text: str, labels: Sequence[str], whole: Sequence[str] = (),
                 count: int = 0) -> Parsed:
    """Read one typed answer against this step's labels, then the decision's: ``whole``
    holds each of its ``count`` options under one or more labels (option ``i % count``);
    a full label, or the start of the labels of exactly one option, chooses it."""
    answer = " ".join(text.split())
    if not answer:
        return Parsed(problem=f"type an option number from 1 to {len(labels)}, or a label")
    folded = [label.casefold() for label in labels]
    wanted = answer.casefold()
    if wanted in folded:
        return Parsed(index=folded.index(wanted))
    full = [label.casefold() for label in whole]
    if wanted in full:
        return Parsed(option=full.index(wanted))
    word, _, rest = answer.partition(" ")
    if wanted in COMMANDS:
        return Parsed(command=COMMANDS[wanted])
    if word.casefold() in ("s", "save") and rest:
        return Parsed(command="save", argument=rest)
    if word.casefold() in ("?", "why", "?why") and rest:
        return Parsed(command="why", argument=rest)
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
    options = {i % (count or len(full) or 1) for i, label in enumerate(full)
               if label.startswith(wanted)}
    if len(options) == 1:
        return Parsed(option=options.pop())
    if options:
        return Parsed(problem=f"{answer!r} starts {len(options)} options; type more of one")
    return Parsed(problem=f"no option {answer!r}; type a number from 1 to {len(labels)}, "
                          "a label, or ? b u s q")


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
        self.message = ""  # shown once on the next frame (full screen)
        self.pane = "decision"  # the view the next frame opens on (full screen)
        self.help = ""
        self.queued: list[str] = []  # cards chosen at once, answering a pick's next steps
        self.pick: tuple[str, set[str]] | None = None  # that pick's prompt and cards left
        self.best: Any = None  # the best voluntary flips, at the flips question

    def decide(self, view: Any, decision: Decision) -> int:
        session = self.session
        assert session is not None and session.game is not None
        term = self.terminal
        if self.hot_seat and term.last_seat != self.seat:
            self.hand_off(session)
        term.last_seat = self.seat
        queued = self.from_queue(decision)
        if queued is not None:
            return queued
        grouping = levels(session.game, decision)
        current = first_step(decision, grouping)
        best = None
        if decision.kind is DecisionKind.FLIPS:
            current, best = flips_step(session, decision, current)
        self.best = best
        multi = multi_select(decision, session.game, full=term.full is not None)
        if multi is not None:
            current = multi
        trail: list[tuple[Step, str]] = []
        if term.full is None:
            self.show(session, decision, current)
        elif hasattr(term.full, "drop_typed_ahead"):  # not a scripted stand-in
            term.full.drop_typed_ahead()  # keys typed while the game worked on
        while True:
            labels = [choice.label for choice in current.choices]
            answer = self.ask(session, decision, current, [label for _, label in trail])
            if answer is None:
                raise QuitRequest("end of input")
            if multi is not None and not isinstance(answer, int):
                marked = answer if isinstance(answer, frozenset) else parse_marks(
                    answer, decision, current)
                if isinstance(marked, str):
                    self.tell(marked)
                    continue
                if marked is not None:
                    return self.answer_marks(decision, current, marked)
            parsed = (Parsed(index=answer) if isinstance(answer, int)
                      else parse_answer(answer, labels, [*grouping.labels, *decision.labels],
                                        len(decision)))
            if parsed.option is not None:
                return parsed.option % len(decision)
            if parsed.index is not None:
                choice = current.choices[parsed.index]
                if best is not None and choice is current.choices[-1]:
                    self.queued, self.pick = [*best.cards, DONE], None  # the best, by name
                if choice.final:
                    return choice.options[0]
                trail.append((current, choice.label))
                current = next_step(decision, grouping, choice)
            elif parsed.problem is not None:
                self.tell(parsed.problem)
            elif parsed.command == "back":
                if trail:
                    current = trail.pop()[0]
                else:
                    self.tell("This is the first step of the decision.")
            else:
                self.command(session, decision, parsed)

    def command(self, session: Session, decision: Decision, parsed: Parsed) -> None:
        assert session.game is not None
        if parsed.command == "help":
            text = help_text(session.game, decision, session.log.records)
            if self.terminal.full is not None:
                self.pane = "help"
                self.help = f"{text}\n\n{player_help(full_screen=True)}{about(session)}"
            else:
                self.terminal.say(f"{text}\n\n{player_help(full_screen=False)}"
                                  f"{about(session)}", wrap=True)
        elif parsed.command == "why":
            from exlibris.engine.why import why_not

            text = why_not(session.game, decision, parsed.argument)
            if self.terminal.full is not None:
                self.pane = "help"
                self.help = f"Why not {parsed.argument}?\n\n{text}"
            else:
                self.terminal.say(text, wrap=True)
        elif parsed.command == "save":
            target = Path(parsed.argument).expanduser() if parsed.argument else None
            try:
                where = session.save_to(target) if target else session.save()
            except SaveError as exc:
                self.tell(f"Not saved: {exc} [{exc.code}].")
                return
            self.tell(f"Saved to {where}.")
        elif parsed.command == "quit":
            raise QuitRequest("quit")
        elif parsed.command == "undo":
            last = session.record.last_of(self.seat)
            if last is None:
                self.tell("Nothing to undo: you have not decided anything yet.")
                return
            self.tell(f"Taking back: {session.record.decisions[last].label}")
            self.queued, self.pick = [], None
            session.undo(self.seat)

    def from_queue(self, decision: Decision) -> int | None:
        """The next card of a multi-select already made, as this step of its pick (or
        "done" once they are all chosen); None when nothing is queued or the decision
        is not that pick's next step (the queue is then dropped)."""
        if not self.queued:
            return None
        values = decision.values
        names = {getattr(v, "name", None) for v in values if v is not None}
        same = (decision.kind is DecisionKind.PICK and None in values
                and (self.pick is None or (decision.prompt == self.pick[0]
                                           and names <= self.pick[1])))
        if not same:  # another question: the pick ended (its limit) or never came
            self.queued, self.pick = [], None
            return None
        self.pick = (decision.prompt, names)
        name = self.queued.pop(0)
        if name == DONE:
            self.queued, self.pick = [], None
            return values.index(None)
        for i, value in enumerate(values):
            if value is not None and value.name == name:
                self.queued = self.queued or [DONE]
                return i
        self.queued, self.pick = [], None  # no longer offered: ask
        return None

    def answer_marks(self, decision: Decision, current: Step, marked: frozenset[int]) -> int:
        """Answer the first step of a multi-select: its first marked card (the others
        queued, then "done"), or "done" when nothing is marked."""
        values = decision.values
        chosen = [values[current.choices[i].options[0]] for i in sorted(marked)]
        cards = [v.name for v in chosen if v is not None]
        if not cards:
            return values.index(None)
        self.queued = cards[1:] or [DONE]
        self.pick = (decision.prompt, {v.name for v in values if v is not None})
        return next(i for i, v in enumerate(values) if v is not None and v.name == cards[0])

    def tell(self, text: str) -> None:
        if self.terminal.full is not None:
            self.message = text
        else:
            self.terminal.say(text)

    # ------------------------------------------------------------------ asking
    def ask(self, session: Session, decision: Decision, current: Step,
            trail: Sequence[str]) -> int | str | frozenset[int] | None:
        """One answer to ``current``: an index (arrow keys) or typed text; None at EOF."""
        prompt = step_prompt(session, decision, current, trail)
        if self.terminal.full is None:
            if trail or current.question != decision.prompt:
                self.terminal.show(prompt)
            assert session.game is not None
            screen = Screen(session.game, self.seat, self.styles, self.library_names)
            notes = in_view(session.game, self.seat, decision, current, screen).get("notes", ())
            self.terminal.show(options_text(current, notes), Text(TYPE_HINT, "dim"))
            return self.terminal.choose()
        return self.full_screen(session, decision, current, prompt)

    def full_screen(self, session: Session, decision: Decision, current: Step,
                    prompt: Text) -> int | str | frozenset[int] | None:
        from exlibris.interactive import fullscreen as keys
        from exlibris.interactive.frame import LAST, MULTI_HINT, PANES, Ask, Painter, frame

        full = self.terminal.full
        assert full is not None and session.game is not None
        console = self.terminal.console
        painter = Painter(console.color_system, console.no_color)
        screen = Screen(session.game, self.seat, self.styles, self.library_names)
        narrator = Narrator(session.game, self.seat)
        log = narrator.lines(session.log.records)
        since = narrator.lines(session.log.records[session.seen.get(self.seat, 0):])
        multi = current.question == MULTI_QUESTION
        state = Ask(prompt, [choice_label(c) for c in current.choices],
                    hint=f"{MULTI_HINT} · {KEYS_HINT}" if multi else KEYS_HINT,
                    marks=step_marks(decision, current), pane=self.pane, help=self.help,
                    message=self.message, since=since, seed=session.record.seed, multi=multi,
                    **in_view(session.game, self.seat, decision, current, screen, self.best))
        self.message, self.pane, self.help = "", "decision", ""
        while True:
            width, height = full.size()
            full.draw(frame(screen, log, state, width, height, painter))
            key = full.key()
            state.message = ""
            if key == keys.EOF and not state.typed:
                return None
            if key == keys.ENTER:
                typed, state.typed = state.typed.strip(), ""
                if typed:
                    return typed
                if state.pane == "decision":
                    return state.marked if state.multi else state.cursor
                state.pane = "decision"
            elif key == " " and state.multi and not state.typed and state.pane == "decision":
                state.marked = state.marked ^ {state.cursor}
            elif key in (keys.TAB, keys.BACK_TAB):
                step = 1 if key == keys.TAB else -1
                state.pane = PANES[(PANES.index(state.pane) + step) % len(PANES)]
                state.scroll = LAST if state.pane == "log" else 0  # the log opens at its end
                if state.pane == "help" and not state.help:
                    state.help = (help_text(session.game, decision, session.log.records)
                                  + "\n\n" + player_help(full_screen=True) + about(session))
            elif key == keys.ESCAPE:
                if state.pane != "decision":
                    state.pane = "decision"
                else:
                    return "back"
            elif key in (keys.HOME, keys.END):
                if state.pane == "decision":
                    state.cursor = 0 if key == keys.HOME else len(state.labels) - 1
                else:
                    state.scroll = 0 if key == keys.HOME else LAST
            elif key in (keys.UP, keys.DOWN, keys.PAGE_UP, keys.PAGE_DOWN):
                page = state.page if state.pane != "decision" else 10
                move = {keys.UP: -1, keys.DOWN: 1, keys.PAGE_UP: -page, keys.PAGE_DOWN: page}[key]
                if state.pane == "decision":
                    state.cursor = max(0, min(len(state.labels) - 1, state.cursor + move))
                    state.typed = ""
                else:
                    state.scroll = max(0, state.scroll + move)
            elif key == keys.BACKSPACE:
                state.typed = state.typed[:-1]
            elif key:
                state.typed += key
                if state.typed.isdigit() and 1 <= int(state.typed) <= len(state.labels):
                    state.cursor = int(state.typed) - 1

    def hand_off(self, session: Session) -> None:
        term = self.terminal
        name = session.record.names[self.seat]
        message = f"— Pass the game to {name}. {name}, press Enter when ready. —"
        if term.full is not None:
            from exlibris.interactive import fullscreen as keys

            while True:
                term.full.draw([message])
                key = term.full.key()
                if key == keys.EOF:
                    raise QuitRequest("end of input")
                if key == keys.ENTER:
                    return
        term.clear()
        if not term.wait(message):
            raise QuitRequest("end of input")
        term.clear()

    def show(self, session: Session, decision: Decision, current: Step) -> None:
        """Line mode: the table and what happened since this seat last answered."""
        game = session.game
        assert game is not None
        term = self.terminal
        term.clear()
        records = session.log.records[session.seen.get(self.seat, 0):]
        log = Narrator(game, self.seat).lines(records)
        screen = Screen(game, self.seat, self.styles, self.library_names,
                        term.console.width)
        term.show(screen.table(log, step_marks(decision, current)))
        if game.state.round:  # the inspection if the game ended now
            from exlibris.interactive.projection import projected_form

            form = projected_form(game, self.seat)
            flips = ", ".join(form.flipped) or "nothing"
            term.show(Text(f"Your inspection now: {form.total} · A1 would flip {flips}", "dim"))
        if current.question == decision.prompt:  # else the step's own line says it
            term.show(prompt_line(game, decision, asker(game, decision, session.log.records)))


def step_prompt(session: Session, decision: Decision, current: Step,
                trail: Sequence[str]) -> Text:
    """``You, place an assistant › The Fire Imp — which location?``."""
    assert session.game is not None
    text = prompt_line(session.game, decision, asker(session.game, decision, session.log.records))
    for label in trail:
        text.append(f" › {label}", "bold")
    if current.question != decision.prompt:
        text.append(f" — {current.question}")
    return text


def options_text(current: Step, notes: Sequence[str] = ()) -> Text:
    """Line mode: the numbered choices, each with its note (what it does to the
    projected inspection, a warning)."""
    text = Text()
    for i, choice in enumerate(current.choices, 1):
        text.append(f"{i:>3}. ", "bold")
        text.append(choice_label(choice))
        if i <= len(notes) and notes[i - 1]:
            text.append(f"  {notes[i - 1]}", "dim")
        text.append("\n")
    return text


def choice_label(choice: Any) -> str:
    """A choice as shown: a group says how many options it holds."""
    many = len(choice.options)
    if choice.final:
        return choice.label
    return f"{choice.label} … ({many} option{'s' if many > 1 else ''})"


def step_marks(decision: Decision, current: Step) -> dict[Any, str]:
    """On a ``where to shelve`` decision, each free cell marked with its choice number."""
    if decision.kind is not DecisionKind.POSITION:
        return {}
    values = decision.values
    return {tuple(values[i]): str(n) for n, choice in enumerate(current.choices, 1)
            for i in choice.options}


def about(session: Session) -> str:
    """The game's seed and rules, closing the help."""
    record = session.record
    return (f"\n\nThis game: seed {record.seed}, {record.variant} rules "
            f"(exlibris play --seed {record.seed} deals it again).")


def flips_step(session: Session, decision: Decision, current: Step) -> tuple[Step, Any]:
    """The voluntary flips' question with a third line, the best flips by name and what
    they reach (``score --best-flips``'s answer), when flipping anything gains."""
    from exlibris.interactive.projection import best_for
    from exlibris.interactive.steps import Choice

    assert session.game is not None
    best = best_for(session.game, decision.seat)
    if not best.cards or best.gain <= 0:
        return current, None
    label = (f"flip the best: {', '.join(best.cards)} -> {best.total} ({best.gain:+d})")
    return Step(current.question, (*current.choices, Choice(label, (1,)))), best


MULTI_QUESTION = "mark any number (Space), then Enter; or type them with commas (A1, B2)"
LINE_MULTI_QUESTION = "any number: type them with commas (A1, B2), one, or done"


def multi_select(decision: Decision, game: Any = None, *, full: bool = True) -> Step | None:
    """A pick of any number of cards (its "done" option) asked as one list to mark, or
    None for any other decision."""
    from exlibris.interactive.steps import Choice, player_labels

    values = decision.values
    if decision.kind is not DecisionKind.PICK or None not in values:
        return None
    cards = [i for i, v in enumerate(values) if v is not None and hasattr(v, "name")]
    if len(cards) < 2:
        return None
    labels = player_labels(game, decision)
    return Step(MULTI_QUESTION if full else LINE_MULTI_QUESTION,
                tuple(Choice(labels[i], (i,)) for i in cards))


def parse_marks(text: str, decision: Decision, current: Step) -> frozenset[int] | str | None:
    """A line-mode answer to a multi-select: card names or labels separated by commas
    (``R4, M8``), ``done`` for none; None when the answer is one label or a command
    (read as usual); a problem to show when a part names no card."""
    parts = [part.strip() for part in text.split(",") if part.strip()]
    if text.strip().casefold() in ("done", "none", "nothing"):
        return frozenset()
    if "," not in text:
        return None
    values = decision.values
    marked = set()
    for part in parts:
        wanted = part.casefold()
        found = [n for n, choice in enumerate(current.choices)
                 if values[choice.options[0]].name.casefold() == wanted
                 or choice.label.casefold() == wanted]
        if not found:
            found = [n for n, choice in enumerate(current.choices)
                     if choice.label.casefold().startswith(wanted)
                     or wanted in choice.label.casefold().split()]
        if len(found) != 1:
            return f"{part!r} names {'no' if not found else 'more than one'} card of the list"
        marked.add(found[0])
    return frozenset(marked)


def in_view(game: Any, seat: int, decision: Decision, current: Step,
            screen: Screen, best: Any = None) -> dict[str, Any]:
    """What the main screen shows beside the decision: the projected inspection (its
    line, the form, the cards the alphabetical check flips now), each shelving
    target's effect on it, and where the player's assistants stand."""
    from exlibris.interactive.projection import best_for, shelving_effects

    if not game.state.round:
        return {}
    if decision.kind is DecisionKind.FLIPS and best is None:
        best = best_for(game, seat)  # (None from flips_step: nothing to gain)
    elif decision.kind is not DecisionKind.FLIPS:
        best = None
    notes: list[str] = []
    card = decision.card
    if decision.kind is DecisionKind.POSITION and card is not None:
        finals = [c.options[0] if c.final else None for c in current.choices]
        effects = shelving_effects(game, seat, card, [decision.values[i] if i is not None
                                                      else None for i in finals])
        notes = [effect.text() if effect is not None else "" for effect in effects]
    elif decision.kind is DecisionKind.PLACE:
        notes = [idle_at_home(*decision.values[c.options[0]]) if c.final else ""
                 for c in current.choices]
    return {**table_view(game, seat, screen, best), "notes": notes}


def table_view(game: Any, seat: int, screen: Screen, best: Any = None) -> dict[str, Any]:
    """What the main screen shows of ``seat``'s table whatever is asked: the projected
    inspection (its line, the form with ``best`` flips, the cards the alphabetical
    check flips now) and where the player's assistants stand (nothing at set-up)."""
    from exlibris.interactive.projection import form_lines, projected_form

    if not game.state.round:
        return {}
    player = game.state.players[seat]
    assistants = " · ".join(standing(screen, a) for a in player.assistants)
    form = projected_form(game, seat)
    return {"projected": (form.total, form.flipped), "form": form_lines(form, game, best),
            "flipped": frozenset(form.flipped_at), "assistants": assistants}


def standing(screen: Screen, assistant: Any) -> str:
    """Where one of your assistants stands, short: ``Bookworm at Wishing Well``,
    ``standard on home 2``, ``standard ready``."""
    where = screen.where(assistant)
    name = assistant.name
    short = "standard" if name == "standard assistant" else name.removeprefix("The ")
    return short + where[len(name):].replace(" on home space ", " on home ")


def idle_at_home(assistant: Any, target: Any) -> str:
    """A warning beside placing a special assistant on a home space when each of its
    abilities works only while it stands at a location (``if this.at_location``): there
    it only takes the home action (LIB-GOLEM-3 rules so for the Trash Golem)."""
    spec = getattr(assistant, "spec", None)
    if spec is None or getattr(target, "location", None) is not None:
        return ""
    abilities = getattr(spec, "abilities", ())
    if not abilities or not all("this.at_location" in (a.when or "") for a in abilities):
        return ""
    ruling = ruling_for(spec.name)
    return (f"⚠ its ability works only at a location: here it only takes the home action"
            f"{f' ({ruling})' if ruling else ''}")


def ruling_for(name: str) -> str:
    """The id of the ruling ``docs/rulings.md`` makes on ``name`` on a home space
    (``ruling LIB-GOLEM-3``), or "" when there is none (or no docs)."""
    import re

    from exlibris.paths import data_root

    path = data_root() / "docs" / "rulings.md"
    try:
        text = path.read_text("utf-8")
    except OSError:
        return ""
    short = re.escape(name.removeprefix("The "))
    found = re.search(rf"^### (\S+) .*— (?:The |the )?{short} on a home space", text, re.M)
    return f"ruling {found.group(1)}" if found else ""
