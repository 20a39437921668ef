"""`exlibris replay FILE`: step through a saved game, one decision at a time."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, NoReturn

import click

from exlibris.cli.output import USER_ERROR, echo, echo_rendered
from exlibris.engine.decisions import DecisionKind
from exlibris.shown import shown


class _Stop(Exception):
    """The viewer asked to stop."""


@click.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--all", "straight", is_flag=True,
              help="Print every step straight through instead of waiting for Enter.")
@click.option("--as", "as_player", type=int, metavar="N",
              help="Show the table as player N (1-based) saw it; default: an open table.")
@click.option("--round", "from_round", type=click.IntRange(min=1), metavar="N",
              help="Jump to round N: start showing decisions from its first one.")
def replay(file: Path, straight: bool, as_player: int | None, from_round: int | None
           ) -> None:
    """Step through a saved game (an autosave or `exlibris play --save FILE`).

    Before each decision the table is shown, then who decided what. At a
    terminal, Enter shows the next decision and q stops; with --all, or when
    standard input is not a terminal, every step is printed straight through.
    A finished game ends with its inspection form; one that stopped on an error
    ends with the table where it stopped and the error.
    """
    from exlibris.cli.own_content import activate
    from exlibris.engine.decisions import ReplayExhausted
    from exlibris.interactive import record as saves
    from exlibris.interactive.session import ENGINE_ERRORS, Session, error_code
    from exlibris.interactive.terminal import Terminal

    try:
        record = saves.load(file, check=False)
        saves.check_own_files(record)  # before any of them is read as content
        catalog = activate(tuple(record.content_paths()))  # the author's files it was played with
        record.check_identity()
        saves.check_setup(record, catalog)
    except saves.SaveError as exc:
        echo(f"exlibris replay: {shown(file)}: {exc} [{exc.code}]", err=True)
        raise SystemExit(USER_ERROR) from None
    seat = None if as_player is None else as_player - 1
    if seat is not None and not 0 <= seat < len(record.seats):
        echo(f"exlibris replay: --as {as_player}: the game has players 1 to "
                   f"{len(record.seats)}", err=True)
        raise SystemExit(USER_ERROR)
    terminal = Terminal(sys.stdin, sys.stdout)
    step = Stepper(terminal, catalog, seat, wait=terminal.tty and not straight,
                   from_round=from_round or 0)
    session = Session(record, catalog, replay_only=True, observer=step)
    try:
        outcome = session.run_once()
    except _Stop:
        return
    except ReplayExhausted:
        step.show_table(session, None)
        step.never_reached(session)
        if record.failure is not None:  # it stopped on an error and cannot go on
            _cannot_go_on(file, record.failure)
        terminal.say(f"The record ends here, before decision {len(record.decisions) + 1}. "
                     f"Continue it with: exlibris play --resume {file}")
        return
    except saves.SaveError as exc:
        echo(f"exlibris replay: {shown(file)}: {exc} [{exc.code}]", err=True)
        raise SystemExit(USER_ERROR) from None
    except ENGINE_ERRORS as exc:
        if session.game is not None:
            step.show_table(session, None)
            step.never_reached(session)
        _cannot_go_on(file, saves.failure_of(error_code(exc), str(exc), session.asked))
    from exlibris.scoring.report import render_form

    step.show_table(session, None)
    step.never_reached(session)
    terminal.say(f"seed {record.seed}; seats {', '.join(record.seats)}; "
                 f"{outcome.rounds} rounds")
    color = terminal.console.is_terminal and not terminal.console.no_color
    from exlibris.cli.play import form_width, variant_modules

    out = echo_rendered if color else echo  # colours are the form's own escapes
    out(render_form(outcome.inspection, color=color, width=form_width(),
                    modules=variant_modules(record.variant)), nl=False)


def _cannot_go_on(file: Path, failure: Any) -> NoReturn:
    """A game that stopped on an engine error: say where and why; never offer to
    continue it (exit 2)."""
    echo(f"exlibris replay: {shown(file)}: {failure.text()}. It cannot go on from here.",
               err=True)
    raise SystemExit(USER_ERROR)


class Stepper:
    """Shows the table before each recorded decision, then the answer given."""

    def __init__(self, terminal: Any, catalog: Any, seat: int | None, *, wait: bool,
                 from_round: int = 0) -> None:
        from exlibris.interactive.shelf_grid import category_styles

        self.terminal = terminal
        self.seat = seat
        self.wait = wait
        self.styles = category_styles(catalog.categories)
        self.library_names = {lib.id: lib.name for lib in catalog.libraries.values()}
        self.told = 0
        self.from_round = from_round

    def __call__(self, session: Any, decision: Any, entry: Any, number: int) -> None:
        if session.game.state.round < self.from_round:  # jumping: tell nothing yet
            self.told = len(session.log.records)
            return
        self.show_table(session, decision)
        name = session.record.names[entry.seat]
        secret = self.seat is not None and entry.seat != self.seat
        label = "(hidden)" if secret and decision.kind is DecisionKind.PICK else entry.label
        self.terminal.say(f"Decision {number + 1} of {len(session.record.decisions)} · "
                          f"{name}: {decision.prompt} → {label}", wrap=True)
        if self.wait:
            self.next_or_stop()

    def next_or_stop(self) -> None:
        """Wait for Enter (the next decision) or q (stop); anything else is said to be
        neither and asked again."""
        while True:
            line = self.terminal.read_line("Enter: next · q: stop > ")
            if line is None or line.strip().lower() in ("q", "quit"):
                raise _Stop
            if not line.strip():
                return
            self.terminal.say(f"{line.strip()!r} is neither: press Enter for the next "
                              "decision, or q and Enter to stop.", wrap=True)

    def never_reached(self, session: Any) -> None:
        rounds = session.game.state.round
        if self.from_round > rounds:
            self.terminal.say(f"--round {self.from_round}: this game has {rounds} rounds; "
                              "shown is where it ends.")

    def show_table(self, session: Any, decision: Any) -> None:
        from exlibris.interactive.narrate import Narrator
        from exlibris.interactive.screen import Screen, position_marks

        records = session.log.records
        log = Narrator(session.game, self.seat).lines(records[self.told:])
        self.told = len(records)
        marks, marks_seat = None, None
        if decision is not None and self.seat in (None, decision.seat):
            marks, marks_seat = position_marks(decision), decision.seat
        screen = Screen(session.game, self.seat, self.styles, self.library_names,
                        self.terminal.console.width)
        if self.wait:
            self.terminal.clear()
        self.terminal.show(screen.table(log, marks, marks_seat))
