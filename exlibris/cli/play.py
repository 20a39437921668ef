"""`exlibris play`: play a game at the terminal, against bots or friends (hot-seat),
or let bots play it headless; save, resume and undo through a record of decisions.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from exlibris.cli.output import USER_ERROR, echo, echo_rendered
from exlibris.cli.own_content import content_option
from exlibris.limits import MAX_SEED
from exlibris.shown import shown

if TYPE_CHECKING:
    from exlibris.catalog import Catalog
    from exlibris.interactive.record import SaveRecord

SEAT_KINDS = ("human", "bot", "random", "greedy", "mcts")
INTERRUPTED = 130


def _seats(value: str) -> list[str]:
    from exlibris.agents import bot_kind

    seats = [s.strip().lower() for s in value.split(",") if s.strip()]
    for seat in seats:
        if seat not in ("human", "bot") and bot_kind(seat) is not None:
            raise click.BadParameter(
                f"unknown seat {shown(repr(seat), 60)}; seats are {', '.join(SEAT_KINDS)} "
                "or mcts:N (mcts:N/classic: the search as first built)",
                param_hint="--seats")
    if not 1 <= len(seats) <= 5:
        raise click.BadParameter(f"{len(seats)} seats; a game has two to five, or one (solo)",
                                 param_hint="--seats")
    return seats


def _default_seats(players: int | None) -> list[str]:
    """At a terminal: you against greedy bots. Otherwise bots only, as headless play was."""
    if sys.stdin is not None and sys.stdin.isatty():
        return ["human", *["greedy"] * ((players or 2) - 1)]
    return ["greedy", *["random"] * ((players or 2) - 1)]


def _leveled(kinds: list[str], level: str | None, *, given: bool) -> list[str]:
    """The seats with every ``bot`` seat (and, with ``--level`` and no ``--seats``,
    every bot seat) playing the level's bot."""
    from exlibris.agents.levels import DEFAULT_LEVEL, level_seat, levels_text

    if level is None:
        seat = level_seat(str(DEFAULT_LEVEL))
    else:
        seat = level_seat(level)
        if seat is None:
            raise click.BadParameter(f"unknown level {shown(repr(level), 40)}; the levels "
                                     f"are {levels_text()}", param_hint="--level")
        bots = [k for k in kinds if k not in ("human", "bot")]
        if given and bots:
            raise click.BadParameter(
                f"--level sets the bots, and --seats names {bots[0]}; write the bots' "
                "seats as bot (for example human,bot)", param_hint="--level")
    assert seat is not None
    return [k if k == "human" else seat if (k == "bot" or level is not None) else k
            for k in kinds]


def _names(kinds: list[str], names: str | None) -> list[str]:
    if names is not None:
        given = [n.strip() for n in names.split(",")]
        if len(given) != len(kinds) or not all(given):
            raise click.BadParameter(f"{len(given)} names for {len(kinds)} seats",
                                     param_hint="--names")
        from exlibris.interactive.record import clean_name

        if not all(clean_name(n) for n in given):
            raise click.BadParameter("a name needs a letter or digit", param_hint="--names")
        return [clean_name(n) for n in given]
    humans = kinds.count("human")
    return ["You" if kind == "human" and humans == 1
            else f"{kind.partition(':')[0].capitalize()} {i + 1}"
            if kind != "human" else f"Player {i + 1}" for i, kind in enumerate(kinds)]


def _fail(message: str) -> NoReturn:
    echo(f"exlibris play: {message}", err=True)
    raise SystemExit(USER_ERROR)


@click.command()
@click.option("--players", type=int,
              help="How many players: one (the solo game) to five (default two, or as many "
                   "as --seats); five players use the five-player module (EXP-5P).")
@click.option("--seats",
              help="Comma-separated seats in turn order: human, bot (the --level's bot), "
                   "random, greedy or mcts (mcts:N: N iterations a decision). Several "
                   "humans play hot-seat. Default: human,greedy when standard input is a "
                   "terminal, otherwise greedy,random (a headless bot game).")
@click.option("--level",
              help="The bots' level, 1 to 4 or its name: 1 casual (greedy, the default), "
                   "2 club, 3 strong, 4 expert (search bots, each stronger than the one "
                   "before; docs/bots.md). Every seat but the humans plays it; with --seats, "
                   "write those seats as bot (human,bot,bot).")
@click.option("--names", help="Comma-separated player names, one per seat.")
@click.option("--seed", type=click.IntRange(-MAX_SEED, MAX_SEED),
              help="The game's seed, a whole number of at most 15 digits (default: a fresh "
                   "one, shown).")
@click.option("--variant", help="A rules file: an id (default: standard) or the path of "
                                "a file of your own.")
@click.option("--difficulty",
              help="Solo only: cards discarded each round, 1 to 7 or a level's name "
                   "(beginner, easy, challenging, difficult, very-difficult, "
                   "nigh-impossible, impossible); default: the rules' (easy).")
@click.option("--libraries", type=click.IntRange(1, 4),
              help="Library tiles dealt to each player to draft from (default: the "
                   "variant's, two in standard; 1 means no choice).")
@click.option("--library", "library_id",
              help="Take this library (an id from `exlibris content list --kind library`) "
                   "instead of drafting; for the first human seat, or seat 1 without one.")
@click.option("--assistant", "assistant_id",
              help="Give the same seat as --library this special assistant card (an id from "
                   "`exlibris content list --kind assistant`) in place of its library's.")
@content_option
@click.option("--json", "as_json", is_flag=True,
              help="Print the inspection as `exlibris score --json` does, plus seed and seats "
                   "(the table on screen then goes to standard error).")
@click.option("--log", "log_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Write every event of the game to FILE as JSON lines (also when your "
                   "content stops the game: the events up to where it stopped).")
@click.option("--table-out", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the final table in the table-file format to FILE.")
@click.option("--save", "save_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Autosave after every decision to FILE (default with a human seat: "
                   "$XDG_STATE_HOME/exlibris/autosave.json, else "
                   "~/.local/state/exlibris/autosave.json).")
@click.option("--resume", "resume_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Continue the saved game in FILE exactly where it stopped.")
def play(players: int | None, seats: str | None, level: str | None, names: str | None,
         seed: int | None,
         variant: str | None, difficulty: str | None, libraries: int | None,
         library_id: str | None, assistant_id: str | None, content: tuple[Path, ...],
         as_json: bool,
         log_file: Path | None,
         table_out: Path | None, save_file: Path | None, resume_file: Path | None) -> None:
    """Play a whole game of Ex Libris and print the final inspection form.

    \b
    At a terminal the game is played full screen: arrow keys and Enter, or type
    an option's number or label; Tab shows the locations, the other players,
    the log and the help. A placement is asked in two steps, the location (or
    your library), then the space or bid; long lists are asked in steps too
    (b or Esc: back; a full option label works at any step).
    Commands: ? help (the text involved, the card notation, the keys), u undo
    your last decision, s [FILE] save, q save and quit. While a bot thinks the
    table stays on screen with a line counting its progress: Tab shows the
    views, q saves and quits at once. When standard input is
    not a terminal, one line is read per decision; at its end the game is saved
    and `exlibris play --resume FILE` continues it. If the content stops the
    game with an error, you may take back the latest decision a person made.
    """
    from exlibris.cli.own_content import activate, variant_id
    from exlibris.interactive import record as saves

    if resume_file is not None:
        try:
            record = saves.load(resume_file, check=False)
        except saves.SaveError as exc:
            _fail(f"{shown(resume_file)}: {exc} [{exc.code}]")
        if not content:
            try:
                saves.check_own_files(record)  # before any of them is read as content
            except saves.SaveError as exc:
                _fail(f"{shown(resume_file)}: {exc} [{exc.code}]")
        catalog = activate(content or tuple(record.content_paths()), variant=variant)
        try:
            record.check_identity()
        except saves.SaveError as exc:
            _fail(f"{shown(resume_file)}: {exc} [{exc.code}]")
        try:
            saves.check_setup(record, catalog)
        except saves.SaveError as exc:
            _fail(f"{shown(resume_file)}: {exc} [{exc.code}]")
        if level is not None:
            _fail(f"--level {shown(level, 40)}: the saved game keeps its bots; leave it out "
                  "to resume")
        _same_game(record, players=players, seats=seats, names=names, seed=seed,
                   variant=variant_id(variant), libraries=libraries)
        if difficulty is not None and _difficulty(catalog, record.variant,
                                                  difficulty) != record.difficulty:
            _fail(f"--difficulty {difficulty}: the saved game was set up with "
                  f"{record.difficulty}; leave it out to resume")
        if library_id is not None and library_id not in record.library:
            _fail(f"--library {library_id}: the saved game was set up without it; "
                  "leave it out to resume")
        if assistant_id is not None and assistant_id not in record.assistant:
            _fail(f"--assistant {assistant_id}: the saved game was set up without it; "
                  "leave it out to resume")
        save_path: Path | None = save_file or resume_file
        new_game = False
    else:
        catalog = activate(content, variant=variant)
        record = _new_record(catalog, players, seats, names, seed, variant_id(variant),
                             libraries, level)
        if difficulty is not None:
            record.difficulty = _difficulty(catalog, record.variant, difficulty)
        if library_id is not None:
            record.library = _library_choice(catalog, record, library_id)
        if assistant_id is not None:
            record.assistant = _assistant_choice(catalog, record, assistant_id)
        save_path = save_file or (saves.default_path() if "human" in record.seats else None)
        new_game = True
    _check_outputs(record, log_file=log_file, table_out=table_out)
    with _terminate_as_interrupt(True), _claimed(
            save_path, record, new_game=new_game,
            default=save_path is not None and save_file is None and new_game):
        _play(record, catalog, save_path, as_json=as_json, log_file=log_file,
              table_out=table_out, resumed=resume_file is not None)


def _check_outputs(record: SaveRecord, *, log_file: Path | None,
                   table_out: Path | None) -> None:
    """Refuse, before any decision, an output file that could not be written at the
    end, and a table that ``exlibris score`` would refuse (two players of one name)."""
    from exlibris.safefile import output_problem, shown_path

    for option, path in (("--log", log_file), ("--table-out", table_out)):
        problem = None if path is None else output_problem(path)
        if problem is not None:
            _fail(f"{option} {shown_path(path)}: {problem}")
    if table_out is not None and len(set(record.names)) != len(record.names):
        _fail("--table-out: two players have one name, and a table needs a name for each "
              "player; give each their own with --names")


@contextmanager
def _claimed(path: Path | None, record: SaveRecord, *, new_game: bool,
             default: bool) -> Iterator[None]:
    """While the game runs, the save at ``path`` is this game's: its folder checked
    (the default one created), locked against a second game, and another unfinished
    game found there kept (``save_target.py``, ``save_lock.py``)."""
    from exlibris.interactive import save_lock, save_target
    from exlibris.interactive.record import SaveError

    if path is None:
        yield
        return
    lock = save_lock.SaveLock(path)
    try:
        save_target.check_folder(path, default=default)
        lock.acquire()
        kept = save_target.make_room(path, record, new_game=new_game)
    except SaveError as exc:
        lock.release()
        _fail(f"{exc} [{exc.code}]")
    if kept is not None:
        echo(f"An unfinished game saved at {path} was kept as {kept}.", err=True)
    try:
        yield
    finally:
        lock.release()


def _new_record(catalog: Catalog, players: int | None, seats: str | None, names: str | None,
                seed: int | None, variant: str | None, libraries: int | None,
                level: str | None = None) -> SaveRecord:
    from exlibris.interactive.record import SaveRecord
    from exlibris.model.variants import variant_chain

    if players is not None and not 1 <= players <= 5:
        _fail(f"--players {players}: a game has two to five players, or one (solo)")
    kinds = _seats(seats) if seats is not None else _default_seats(players)
    kinds = _leveled(kinds, level, given=seats is not None)
    if players is not None and len(kinds) != players:
        _fail(f"--players {players} but --seats names {len(kinds)} seats")
    variant = variant or ("solo" if len(kinds) == 1 else
                          "five-player" if len(kinds) == 5 else "standard")
    try:
        variant_chain(variant, catalog.variants)
    except ValueError as exc:
        from exlibris.sources import active_content

        own = "" if active_content() or variant not in str(exc) else (
            f". A variant of your own needs its file: --content PATH (the file or the "
            f"folder that holds it), or --variant PATH/{variant}.yaml")
        _fail(f"{exc}{own}")
    from exlibris.engine.flow import check_playable
    from exlibris.engine.game import RulesError
    from exlibris.model.variants import resolve_settings

    try:
        check_playable(resolve_settings(variant, catalog.variants), len(kinds), variant)
    except RulesError as exc:
        _fail(f"--variant {variant}: {exc}")
    if libraries is not None:
        from exlibris.model.variants import resolve_settings

        removed = resolve_settings(variant, catalog.variants).setup.remove_libraries
        available = len(set(catalog.libraries) - set(removed))
        if libraries * len(kinds) > available:
            _fail(f"--libraries {libraries}: {len(kinds)} players would need "
                  f"{libraries * len(kinds)} library tiles; there are {available}")
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    return SaveRecord(seed=seed, seats=kinds, names=_names(kinds, names), variant=variant,
                      libraries=libraries).stamp()


def _difficulty(catalog: Catalog, variant: str, text: str) -> int:
    """The solo level that ``--difficulty`` names (SOLO-09)."""
    from exlibris.engine.solo import parse_difficulty
    from exlibris.model.variants import resolve_settings

    settings = resolve_settings(variant, catalog.variants)
    if settings.solo is None:
        _fail(f"--difficulty {text}: only a solo game has a difficulty; the {variant} "
              "rules are not solo")
    try:
        return parse_difficulty(text, settings.scoring.get("difficulty"))
    except ValueError as exc:
        _fail(f"--difficulty: {exc}")


def _library_choice(catalog: Catalog, record: SaveRecord, library_id: str) -> list[str | None]:
    """The per-seat library list for ``--library``: the first human seat takes it."""
    from exlibris.dsl.checker import did_you_mean
    from exlibris.model.variants import resolve_settings

    removed = resolve_settings(record.variant, catalog.variants).setup.remove_libraries
    known = [i for i in catalog.libraries if i not in removed]
    if library_id not in known:
        _fail(f"--library {library_id}: no such library in the {record.variant} game"
              f"{did_you_mean(library_id, known)}; one of: {', '.join(sorted(known))}")
    return _for_first_human(record, library_id)


def _assistant_choice(catalog: Catalog, record: SaveRecord, assistant_id: str
                      ) -> list[str | None]:
    """The per-seat assistant cards for ``--assistant``: the first human seat takes it."""
    from exlibris.dsl.checker import did_you_mean

    known = sorted(catalog.assistants)
    if assistant_id not in known:
        _fail(f"--assistant {assistant_id}: no such assistant card"
              f"{did_you_mean(assistant_id, known)}; one of: {', '.join(known)}")
    return _for_first_human(record, assistant_id)


def _for_first_human(record: SaveRecord, value: str) -> list[str | None]:
    """A per-seat list giving ``value`` to the first human seat (seat 0 if none)."""
    seat = record.seats.index("human") if "human" in record.seats else 0
    choice: list[str | None] = [None] * len(record.seats)
    choice[seat] = value
    return choice


def _same_game(record: SaveRecord, **given: Any) -> None:
    """Options that set up a game must agree with the saved game, if given at all."""
    saved = {"players": len(record.seats), "seats": ",".join(record.seats),
             "names": ",".join(record.names), "seed": record.seed,
             "variant": record.variant, "libraries": record.libraries}
    for key, value in given.items():
        if value is not None and str(value).replace(" ", "") != str(saved[key]).replace(" ", ""):
            _fail(f"--{key} {value}: the saved game was set up with {saved[key]}; "
                  "leave it out to resume")


def _play(record: SaveRecord, catalog: Catalog, save_path: Path | None, *, as_json: bool,
          log_file: Path | None, table_out: Path | None, resumed: bool) -> None:
    from exlibris.dsl.errors import EffectError
    from exlibris.engine.game import RulesError
    from exlibris.interactive.record import SaveError
    from exlibris.interactive.session import QuitRequest, Session
    from exlibris.scoring.artifacts import ArtifactScoringError

    humans = [seat for seat, kind in enumerate(record.seats) if kind == "human"]
    terminal = _terminal(as_json) if humans else None
    session = Session(record, catalog, save_path=save_path,
                      log_events=bool(humans) or log_file is not None)
    if terminal is not None:
        from exlibris.interactive.take_back import offer

        session.humans = _humans(humans, terminal, catalog, session)
        if terminal.tty:
            from exlibris.interactive.waiting import waits

            session.thinking = waits(session, terminal)
        session.offer = offer
        _greet(terminal, record, save_path, resumed)
    if terminal is not None and not resumed:  # saved while the first question is read
        terminal.when_idle(session.save)
    try:
        try:
            with _terminate_as_interrupt(terminal is not None):
                try:
                    outcome = session.run()
                finally:
                    if terminal is not None:
                        terminal.leave()
        except (EffectError, RulesError, ArtifactScoringError) as exc:
            _log_of_a_stop(session, log_file)  # the one time the log is needed most
            _stopped(session, save_path, exc)
        except QuitRequest as stop:
            session.save()
            _tell(terminal, f"{_why(stop.reason)} Game saved to {save_path}.\n"
                            f"Resume with: exlibris play --resume {save_path}")
            raise SystemExit(0) from None
    except SaveError as exc:
        _fail(f"{save_path}: {exc} [{exc.code}]")
    except KeyboardInterrupt:
        saved = save_path is not None and _settled(terminal)
        where = f" Game saved to {save_path}.\nResume with: exlibris play --resume " \
                f"{save_path}" if saved else ""
        if record.failure is not None:  # interrupted while asked to take back
            where = f" {_capital(record.failure.text())}.{_after_failure(record, save_path)}"
        _tell(terminal, f"\nInterrupted.{where}")
        raise SystemExit(INTERRUPTED) from None
    _write_outputs(session, log_file, table_out)
    if terminal is not None:
        _farewell(terminal, session, catalog)
    _report(outcome, record, as_json)


def _settled(terminal: Any) -> bool:
    """Do the autosave put off until the first question (interrupted before it): True
    if the save holds the game."""
    from exlibris.interactive.record import SaveError

    if terminal is None:
        return True
    try:
        terminal.idle()
    except SaveError:
        return False
    return True


def _write_outputs(session: Any, log_file: Path | None, table_out: Path | None) -> None:
    """The event log and the final table, each written whole or not at all."""
    from exlibris.engine.table_out import table_text
    from exlibris.safefile import FileRefused, write_output

    try:
        if log_file is not None:
            write_output(log_file, session.log.text())
        if table_out is not None:
            write_output(table_out, table_text(session.game))
    except FileRefused as exc:
        _fail(f"{exc} [{exc.code}]")


def _log_of_a_stop(session: Any, log_file: Path | None) -> None:
    """The event log up to where the game stopped, written whole or not at all; a
    refusal is said, and the stop is still told."""
    from exlibris.safefile import FileRefused, write_output

    if log_file is None:
        return
    try:
        write_output(log_file, session.log.text())
    except FileRefused as exc:
        echo(f"exlibris play: {exc} [{exc.code}]", err=True)


def _stopped(session: Any, save_path: Path | None, exc: Exception) -> NoReturn:
    """The content cannot go on: say why, and what the save (recording the failure)
    still offers."""
    from exlibris.interactive.record import failure_of
    from exlibris.interactive.session import error_code

    record = session.record
    failure = record.failure or failure_of(error_code(exc), str(exc), len(record.decisions))
    _fail(f"{failure.text()}.{_after_failure(record, save_path)}")


def _after_failure(record: SaveRecord, save_path: Path | None) -> str:
    """What a game stopped on an engine error can still do: take back a person's
    decision on resuming, or nothing (it is never said to continue as it is)."""
    if save_path is None:
        return " It cannot go on."
    if record.last_of_people() is None:
        return (f" The game is saved to {save_path}, but it cannot go on: no person has "
                "made a decision to take back.")
    return (f" The game is saved to {save_path}; `exlibris play --resume {save_path}` "
            "offers again to take back the latest decision a person made.")


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


@contextmanager
def _terminate_as_interrupt(active: bool) -> Iterator[None]:
    """While a game runs, SIGTERM (or SIGHUP) stops it like Ctrl-C, bots-only too: the
    terminal is restored, the save's lock let go and the way to resume printed (the
    save is always current)."""
    if not active or threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    hangup = getattr(signal, "SIGHUP", None)  # the terminal closed
    previous = {number: signal.signal(number, interrupt)
                for number in (signal.SIGTERM, hangup) if number is not None}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def _tell(terminal: Any, message: str) -> None:
    if terminal is not None:
        terminal.say(message)
    else:
        echo(message, err=True)


def _why(reason: str) -> str:
    return "Input ended." if reason == "end of input" else "Stopped."


def _terminal(as_json: bool) -> Any:
    from exlibris.interactive.terminal import terminal_for

    return terminal_for(as_json)


def _humans(seats: list[int], terminal: Any, catalog: Any, session: Any) -> dict[int, Any]:
    from exlibris.interactive.human import HumanAgent
    from exlibris.interactive.shelf_grid import category_styles

    styles = category_styles(catalog.categories)
    library_names = {lib.id: lib.name for lib in catalog.libraries.values()}
    agents = {}
    for seat in seats:
        agent = HumanAgent(seat, terminal, styles, library_names, hot_seat=len(seats) > 1)
        agent.session = session
        agents[seat] = agent
    return agents


def _greet(terminal: Any, record: Any, save_path: Path | None, resumed: bool) -> None:
    seats = ", ".join(f"{name} ({kind})" for name, kind in zip(record.names, record.seats,
                                                               strict=True))
    verb = f"Resuming at decision {len(record.decisions) + 1}" if resumed else "New game"
    terminal.say(f"{verb}: seed {record.seed}; {record.variant} rules; {seats}.")
    if resumed and record.failure is not None:
        then = (" It cannot go on: no person has made a decision to take back."
                if record.last_of_people() is None else " When it gets there again, you "
                "may take back the latest decision a person made.")
        terminal.say(f"{_capital(record.failure.text())}.{then}", wrap=True)
    terminal.say(f"Autosave: {save_path}")


def _farewell(terminal: Any, session: Any, catalog: Any) -> None:
    from exlibris.interactive.narrate import Narrator
    from exlibris.interactive.screen import Screen
    from exlibris.interactive.shelf_grid import category_styles

    game = session.game
    seat = None
    log = Narrator(game, seat).lines(session.log.records[-40:])
    names = {lib.id: lib.name for lib in catalog.libraries.values()}
    terminal.clear()
    screen = Screen(game, seat, category_styles(catalog.categories), names,
                    terminal.console.width)
    terminal.show(screen.table(log))
    terminal.say(f"The game is over. Watch it again with: exlibris replay "
                 f"{_kept(session)}")


def _kept(session: Any) -> Path:
    """Where the finished game stays: the default autosave is replaced by the next
    game, so a copy is kept under ``finished/`` beside it."""
    from exlibris.interactive import record as saves
    from exlibris.interactive.save_target import keep_finished

    path = session.save_path
    if path is None or Path(path) != saves.default_path():
        return path
    return keep_finished(session.record, Path(path)) or path


def _report(outcome: Any, record: Any, as_json: bool) -> None:
    from exlibris.scoring.report import render_form, to_json

    if as_json:
        data = to_json(outcome.inspection)
        data.update({"seed": record.seed, "seats": record.seats, "rounds": outcome.rounds,
                     "decisions": outcome.decisions, "ended": outcome.reason.value})
        if outcome.inspection.table.solo:
            data["difficulty"] = outcome.inspection.table.difficulty
        echo(json.dumps(data, indent=2))
        return
    ended = "" if outcome.reason == "final-round" else (
        "; stopped by the stuck-game guard (no shelf grows and the deck is empty)")
    echo(f"seed {record.seed}; seats {', '.join(record.seats)}; {outcome.rounds} rounds"
               f"{ended}")
    color = sys.stdout.isatty() and "NO_COLOR" not in os.environ
    out = echo_rendered if color else echo  # colours are the form's own escapes
    out(render_form(outcome.inspection, color=color, width=form_width(),
                    modules=variant_modules(record.variant)), nl=False)


def variant_modules(variant: str) -> frozenset[str] | None:
    """The modules a variant plays with (None: the variant is not known)."""
    from exlibris.catalog import load_catalog
    from exlibris.model.merging import ChainError
    from exlibris.model.variants import resolve_settings

    try:
        return frozenset(resolve_settings(variant, load_catalog().variants).modules)
    except (ChainError, KeyError, ValueError):
        return None


def form_width() -> int:
    """The terminal's width for the inspection form; 80 columns when not at a terminal."""
    import shutil

    return shutil.get_terminal_size((80, 24)).columns if sys.stdout.isatty() else 80
