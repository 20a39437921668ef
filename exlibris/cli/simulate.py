"""`exlibris simulate`: bots play many games; rows per game and player, a report."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn, TextIO

import click

from exlibris import jsontext
from exlibris.cli.output import USER_ERROR, echo
from exlibris.cli.own_content import content_option
from exlibris.cli.seats import parse_seats
from exlibris.cli.sigterm import sigterm_raises
from exlibris.limits import MAX_SEED, MAX_SIM_GAMES, MAX_SIM_WORKERS

FAILED = 1
INTERRUPTED = 130
SHOWN_FAILURES = 5


def _fail(message: str) -> NoReturn:
    echo(f"exlibris simulate: {message}", err=True)
    raise SystemExit(USER_ERROR)


def _needs(module: str, option: str, wanted: bool) -> None:
    """Fail before any game is played if ``option`` needs a library that is missing."""
    import importlib.util

    if wanted and importlib.util.find_spec(module) is None:
        _fail(f'{option} needs {module}: pip install "exlibris[simulate]"')




def _players(value: str) -> list[int] | None:
    if value.strip().lower() == "all":
        return None
    try:
        counts = [int(p) for p in value.split(",") if p.strip()]
    except ValueError:
        raise click.BadParameter(f"{value!r}: a player count, a list like 2,3,4, or all",
                                 param_hint="--players") from None
    if not counts or any(c < 1 for c in counts):
        raise click.BadParameter(f"{value!r}: counts are 1 or more", param_hint="--players")
    return list(dict.fromkeys(counts))


@click.group(invoke_without_command=True)
@click.option("--games", "-n", type=click.IntRange(1, MAX_SIM_GAMES), default=100,
              show_default=True, help="Games for each variant and player count "
              f"(at most {MAX_SIM_GAMES:,}).")
@click.option("--players", default="2", show_default=True,
              help="Players a game: a count, a list (2,3,4), or 'all' (every count each "
                   "variant's rules allow and the engine plays).")
@click.option("--seats", default="greedy", show_default=True,
              help="Comma-separated agents (random, greedy, mcts or mcts:N), "
                   "repeated to fill the seats "
                   "and rotated game by game so each sits at every position equally; "
                   "more agents than seats play a round robin, and the report rates "
                   "them.")
@click.option("--no-rotate", is_flag=True, help="Keep the agents in --seats order.")
@click.option("--variant", "variants", multiple=True,
              help="A rules file id (or your own variant's file); repeat to compare "
                   "variants (each against the first). 'all': every variant the engine "
                   "plays. Default: standard.")
@content_option
@click.option("--seed", type=click.IntRange(-MAX_SEED, MAX_SEED), default=1, show_default=True,
              help="The run's seed: game i's seed is a hash of (seed, i).")
@click.option("--workers", type=click.IntRange(1, MAX_SIM_WORKERS),
              help="Worker processes (Ray: CPUs of a local Ray). Default: this machine's "
                   f"cores; at most {MAX_SIM_WORKERS}.")
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local",
              show_default=True, help="local: a process pool; ray: Ray tasks.")
@click.option("--address", help="A Ray cluster to use (e.g. ray://head:10001 or auto); "
                                "default with --backend ray: start a local Ray.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              help="Rows, one a game and player: FILE.parquet, FILE.csv or FILE.jsonl.")
@click.option("--failures", "failures_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Where failed games go (default: beside --out, OUT.failures.jsonl).")
@click.option("--report", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the report as FILE.html (plots embedded) and FILE.json.")
@click.option("--events", "events_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write what happened inside the games, one row an event "
                   "(placement, activation, hire, gain, with its round): FILE.jsonl or "
                   "FILE.csv.")
@click.option("--resume", is_flag=True,
              help="Continue the interrupted (or shorter) run whose rows are in --out.")
@click.option("--json", "as_json", is_flag=True,
              help="Print the report's figures as JSON; no progress bar.")
@click.pass_context
def simulate(ctx: click.Context, games: int, players: str, seats: str, no_rotate: bool,
             variants: tuple[str, ...], content: tuple[Path, ...], seed: int,
             workers: int | None, backend: str, address: str | None, out: Path | None,
             failures_file: Path | None, report: Path | None, events_file: Path | None,
             resume: bool, as_json: bool) -> None:
    """Let bots play many games and report who wins and how they score.

    \b
    Every game's seed comes from --seed and its number alone, so the rows do not
    depend on --workers or --backend, and a failed game replays with the
    `exlibris play` command printed for it. An interrupted run keeps its games;
    run the same command with --resume to finish it. `exlibris simulate report
    ROWS --report FILE.html` reports on rows already on disk. Exit status: 0, or 1
    when a game failed or a worker died (see the failures file), 2 for a usage
    mistake, 130 interrupted (143 by SIGTERM).
    """
    if ctx.invoked_subcommand is not None:
        return
    from exlibris.cli.own_content import activate, is_path, variant_id
    from exlibris.simulate import backends
    from exlibris.simulate.plan import PlanError, cells
    from exlibris.simulate.rows import FORMATS
    from exlibris.simulate.runner import RunConfig, RunError, check_paths
    from exlibris.sources import active_content

    kinds = parse_seats(seats)
    counts = _players(players)
    if out is not None and out.suffix not in FORMATS:
        _fail(f"--out {out}: the rows file must end in {', '.join(FORMATS)}")
    if report is not None and report.suffix != ".html":
        _fail(f"--report {report}: the report is an .html file (its figures go beside it "
              "as .json)")
    if address is not None and backend != "ray":
        _fail("--address is for --backend ray")
    _needs("pyarrow", "--out .parquet", out is not None and out.suffix == ".parquet")
    _needs("matplotlib", "--report", report is not None)
    own = content + tuple(Path(v) for v in variants if is_path(v))
    catalog = activate(own)
    names = [variant_id(v) or v for v in variants] or ["standard"]
    paths = {variant_id(v) or v: str(Path(v).resolve()) for v in variants if is_path(v)}
    try:
        plan, skipped = cells(catalog, names, counts)
    except PlanError as exc:
        _fail(str(exc))
    for note in skipped:
        echo(f"skipped: {note}", err=True)
    config = RunConfig(plan, games, seed, kinds, rotate=not no_rotate, backend=backend,
                       workers=workers or backends.default_workers(), address=address,
                       out=out, failures=failures_file, resume=resume,
                       content=tuple(str(p) for p in active_content()), variant_paths=paths,
                       events=events_file)
    config.command = _command(config, report, no_rotate)
    try:
        check_paths(config, report)
    except RunError as exc:
        _fail(str(exc))
    console = None
    if not as_json and sys.stderr.isatty():
        from rich.console import Console

        console = Console(stderr=True)
    try:
        with _sigterm_stops():
            result = _run(config, console, None if console or as_json else sys.stderr)
    except (RunError, backends.BackendError) as exc:
        _fail(str(exc))
    except backends.WorkerLost as exc:
        echo(f"exlibris simulate: {exc}; {_kept(out)}.", err=True)
        raise SystemExit(FAILED) from None
    except Stopped as stop:
        echo(f"\nInterrupted: {_kept(out)}.", err=True)
        raise SystemExit(stop.status) from None
    for note in result.notes:
        echo(f"exlibris simulate: {note}", err=True)
    _finish(config, result, [c.variant for c in plan], skipped, report, as_json)


class Stopped(KeyboardInterrupt):
    """Ctrl-C or SIGTERM: the run stops and keeps its finished games."""

    status = INTERRUPTED


def _kept(out: Path | None) -> str:
    """What an interrupted run kept, naming only files that exist."""
    from exlibris.simulate.runner import journal_path

    if out is None:
        return "nothing kept (no --out)"
    if journal_path(out).exists():
        return (f"finished games are kept in {journal_path(out)}; continue with the same "
                "command and --resume")
    if out.exists():
        return f"the rows in {out} are kept; extend them with the same command and --resume"
    return "no game had finished, so nothing is kept; run the same command again"


@contextmanager
def _sigterm_stops() -> Iterator[None]:
    """SIGTERM stops the run as Ctrl-C does (the pool is shut down, the journal kept),
    with exit status 143."""
    def stopped(signum: int) -> Stopped:
        error = Stopped()
        error.status = 128 + signum
        return error

    with sigterm_raises(stopped):
        try:
            yield
        except KeyboardInterrupt as exc:
            if isinstance(exc, Stopped):
                raise
            raise Stopped() from None


def _run(config: Any, console: Any, lines: TextIO | None = None) -> Any:
    """Run ``config``; with a rich ``console``, under a progress bar shown on it; with
    ``lines`` (standard error that is not a terminal), a progress line every few
    seconds. The bar (and its refreshing thread) starts once the workers are up: a
    pool forked beside a running thread is not safe, so it would be spawned."""
    from exlibris.simulate.progress import Lines, Rate, duration
    from exlibris.simulate.runner import simulate as run

    if console is None and lines is None:
        return run(config)
    if console is None:
        printer = Lines(lines)  # type: ignore[arg-type]
        return run(config, progress=printer.progress, started=printer.started)
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    bar = Progress(TextColumn("[bold]simulate"), BarColumn(), MofNCompleteColumn(),
                   TextColumn("{task.fields[rate]} games/s"), TimeElapsedColumn(),
                   TextColumn("elapsed,"), TextColumn("{task.fields[left]} left,"),
                   TextColumn("{task.fields[failed]} failed"),
                   console=console, transient=False)
    state: dict[str, Any] = {"task": None, "failed": 0, "rate": None}

    def started(total: int, kept: int) -> None:
        state["rate"] = Rate(total, kept)
        bar.start()
        state["task"] = bar.add_task("games", total=total, completed=kept, rate="-",
                                     failed=0, left="-")

    def progress(done: int, failed: int) -> None:
        state["failed"] += failed
        rate: Rate = state["rate"]
        rate.add(done)
        bar.advance(state["task"], done)
        speed = rate.per_second
        bar.update(state["task"], failed=state["failed"],
                   rate=f"{speed:.1f}" if speed else "-", left=duration(rate.seconds_left))

    try:
        return run(config, progress=progress, started=started)
    finally:
        if bar.live.is_started:
            bar.stop()


def _finish(config: Any, result: Any, variants: list[str], skipped: list[str],
            report: Path | None, as_json: bool) -> None:
    from exlibris.simulate.figures import figures

    games_per_s = result.played / result.seconds if result.seconds else 0.0
    summary = (f"{result.games} games "
               f"({', '.join(c.label for c in config.cells)}), seats "
               f"{','.join(config.seats)}{'' if config.rotate else ' (not rotated)'}, "
               f"seed {config.seed}; {len(result.failures)} failed")
    meta = {"summary": summary, "variants": variants, "seed": config.seed,
            "seats": config.seats, "rotate": config.rotate, "games": config.games,
            "backend": config.backend, "workers": config.workers, "played": result.played,
            "resumed": result.kept, "seconds": round(result.seconds, 3),
            "games_per_s": round(games_per_s, 2), "failures": len(result.failures),
            "out": str(config.out) if config.out else None,
            "skipped": skipped, "version": _version(), "command": config.command}
    data = figures(result.iter_rows(), meta)
    if report is not None:
        _write_report(report, data)
    say = (lambda text: echo(text, err=True)) if as_json else echo
    say(f"{result.played} games played in {result.seconds:.1f}s ({games_per_s:.1f} games/s, "
        f"{config.backend}, {config.workers} worker{'s' if config.workers > 1 else ''})"
        + (f"; {result.kept} kept from before" if result.kept else ""))
    _say_figures(data, say)
    if config.out is not None:
        say(f"rows: {config.out}")
    if report is not None:
        say(f"report: {report} (figures: {report.with_suffix('.json')})")
    if as_json:
        echo(jsontext.dumps(data, indent=1))
    if result.failures:
        say(f"{len(result.failures)} games failed; details in {result.failures_path}. "
            "Replay with:")
        for failure in result.failures[:SHOWN_FAILURES]:
            say(f"  {failure.replay}    # {failure.error}")
        raise SystemExit(FAILED)


def _command(config: Any, report: Path | None, no_rotate: bool) -> list[str]:
    """The run as one command line (what the manifest and the report print)."""
    import shlex

    words = ["simulate", "--games", str(config.games), "--players",
             ",".join(str(p) for p in dict.fromkeys(c.players for c in config.cells)),
             "--seats", ",".join(config.seats), "--seed", str(config.seed)]
    for variant in dict.fromkeys(c.variant for c in config.cells):
        words += ["--variant", config.variant_paths.get(variant, variant)]
    words += [w for p in config.content if p not in config.variant_paths.values()
              for w in ("--content", p)]
    if no_rotate:
        words.append("--no-rotate")
    for option, value in (("--out", config.out), ("--report", report),
                          ("--events", config.events)):
        if value is not None:
            words += [option, str(value)]
    return [shlex.quote(w) for w in words]


def _version() -> str:
    import exlibris

    return exlibris.__version__


def _say_figures(data: dict[str, Any], say: Any) -> None:
    for cell in data["cells"]:
        agents = "; ".join(f"{e['key']} {100 * e['rate']:.1f}% "
                           f"[{100 * e['low']:.1f}, {100 * e['high']:.1f}]"
                           for e in cell["win_rate"]["agent"])
        share = cell["fair_share"]
        fair = f"fair share {100 * share:.1f}%" if share is not None else "solo: no fair share"
        say(f"{cell['variant']}, {cell['players']} players, {cell['games']} games: "
            f"win rate {agents} ({fair})"
            + ("; a small sample: only large differences show" if cell.get("small_sample")
               else ""))
        if cell.get("ratings"):
            say("  ratings (Elo, 95%): " + "; ".join(
                f"{a['agent']} {a['elo']:+.0f} [{a['low']:+.0f}, {a['high']:+.0f}]"
                for a in cell["ratings"]["agents"]))
    for comparison in data["comparisons"]:
        total = next(m for m in comparison["measures"] if m["measure"] == "mean total")
        paired = comparison.get("paired_games", 0)
        how = f"paired over {paired} deals" if paired else "unpaired"
        changed = comparison.get("winner_changed")
        say(f"{comparison['variant']} - {comparison['first']} ({comparison['players']} "
            f"players): mean total {total['difference']:+.2f} "
            f"[{total['low']:+.2f}, {total['high']:+.2f}] ({how})"
            + (f"; the winner changed on {100 * changed:.1f}% of deals"
               if changed is not None else "")
            + ("; a small sample" if comparison.get("small_sample") else ""))
        seats = [m for m in comparison["measures"]
                 if m["measure"].startswith("win rate, seat position")]
        if seats:
            say("  seat positions' win rates: " + "; ".join(
                f"{m['measure'].rsplit(' ', 1)[1]}: {100 * m['difference']:+.1f} pts"
                + (" (significant)" if m["significant"] else "") for m in seats))


def _write_report(report: Path, data: dict[str, Any]) -> None:
    from exlibris.simulate.report import write

    try:
        write(report, data)
    except OSError as exc:
        _fail(f"cannot write the report {report}: {exc.strerror}")


@simulate.command("report")
@click.argument("rows_file", metavar="ROWS", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--report", "report", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the report as FILE.html and FILE.json.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
def report_command(rows_file: Path, report: Path | None, as_json: bool) -> None:
    """Report on the rows of a run already on disk (ROWS: .parquet, .csv or .jsonl);
    the run's manifest beside it, if any, gives the variants' order and the seeds."""
    from exlibris.safefile import name_problem, shown_path
    from exlibris.simulate import manifest, rows
    from exlibris.simulate.figures import figures
    from exlibris.simulate.runner import RunError, check_output

    if rows_file.suffix not in rows.FORMATS:
        _fail(f"{rows_file}: the rows file must end in {', '.join(rows.FORMATS)}")
    if name_problem(rows_file) is not None:
        _fail(f"{shown_path(rows_file)}: {name_problem(rows_file)}")
    if not rows_file.is_file():
        _fail(f"{rows_file}: no such rows file")
    if report is not None:
        if report.suffix != ".html":
            _fail(f"--report {report}: the report is an .html file")
        _needs("matplotlib", "--report", True)
        try:
            check_output(report, "--report")
        except RunError as exc:
            _fail(str(exc))
    if rows_file.suffix == ".parquet":
        _needs("pyarrow", "a .parquet rows file", True)
    meta: dict[str, Any] = {"out": str(rows_file), "version": _version()}
    found = manifest.manifest_path(rows_file)
    if found.exists():
        try:
            data = manifest.read(found)
        except ValueError as exc:
            _fail(str(exc))
        plan = data.get("plan") or {}
        meta.update({k: plan.get(k) for k in ("seed", "seats", "rotate", "games")})
        meta["variants"] = list(dict.fromkeys(c[0] for c in plan.get("cells") or []
                                              if isinstance(c, list) and c))
        meta["made_by"] = data.get("exlibris")
        meta["command"] = data.get("command")
    try:
        figures_data = figures(rows.iter_rows(rows_file, columns=rows.CORE), meta)
    except rows.RowsError as exc:
        _fail(str(exc))
    games = sum(c["games"] for c in figures_data["cells"])
    figures_data["run"]["summary"] = f"{games} games read from {rows_file}"
    if report is not None:
        _write_report(report, figures_data)
    say = (lambda text: echo(text, err=True)) if as_json else echo
    _say_figures(figures_data, say)
    if report is not None:
        say(f"report: {report} (figures: {report.with_suffix('.json')})")
    if as_json:
        echo(jsontext.dumps(figures_data, indent=1))


def _add_tune() -> None:
    from exlibris.cli.simulate_tune import tune_command

    simulate.add_command(tune_command)


_add_tune()
