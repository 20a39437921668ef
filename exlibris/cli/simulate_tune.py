"""`exlibris simulate tune`: find the value of a variant's settings that best meets
an objective, every candidate played on the same deals (``simulate/tune.py``).

Files in ``--dir DIR``: ``search.json`` (the search's settings: a second run with
the same settings continues it, other settings are refused), ``candidates/ID.yaml``
(one variant file a candidate), ``rows/KEY.jsonl`` and ``rows/base.jsonl`` (the
games, as `exlibris simulate --out` writes them: a candidate's rows are extended
stage by stage, and an interrupted run resumes from them), ``VARIANT-tuned.yaml``
(the best setting, a variant file named by its id, ``--id``), ``tune.html`` and
``tune.json`` (the search, and the report of the best against the base).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, NoReturn

import click

from exlibris import jsontext
from exlibris.cli.output import USER_ERROR, echo
from exlibris.cli.own_content import content_option
from exlibris.cli.seats import parse_seats
from exlibris.cli.sigterm import sigterm_raises
from exlibris.limits import MAX_SEED, MAX_SIM_GAMES, MAX_SIM_WORKERS

INTERRUPTED = 130
MAX_BUDGET = 500


def _fail(message: str) -> NoReturn:
    echo(f"exlibris simulate tune: {message}", err=True)
    raise SystemExit(USER_ERROR)


# (this module is imported by exlibris.cli.simulate, which registers the command, so
# it imports nothing of that module: tests/test_import_graph.py)


class _Stopped(KeyboardInterrupt):
    """SIGTERM: the search stops as Ctrl-C stops it, with exit status 143."""

    status = 128 + 15


def read_space(path: Path) -> tuple[list[Any], list[Any]]:
    """The parameters and objective terms of a space file::

        parameters:
          scoring.variety_per_book: [2, 3, 4, 5]       # a list
          final_round.shelf_cards.3: {low: 12, high: 18, step: 2}
        objective: [seat:3, balance*0.5]
    """
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    from exlibris.safefile import FileRefused, read_limited
    from exlibris.simulate.tune import Parameter, TuneError, parse_param, parse_term

    try:
        text = read_limited(path, 1_000_000).decode("utf-8")
        data = YAML(typ="rt").load(text)
    except (OSError, FileRefused, UnicodeDecodeError) as exc:
        raise TuneError(f"{path}: cannot read the space file ({exc})") from None
    except MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else str(path)
        raise TuneError(f"{where}: not YAML ({exc.problem})") from None
    except YAMLError as exc:
        raise TuneError(f"{path}: not YAML ({exc})") from None
    if not isinstance(data, dict) or set(data) - {"parameters", "objective"}:
        raise TuneError(f"{path}:1:1: a space file is a map of 'parameters' and "
                        "'objective'")

    def at(node: Any, key: Any) -> str:
        try:
            line, column = node.lc.key(key)
            return f"{path}:{line + 1}:{column + 1}"
        except (AttributeError, KeyError, TypeError):
            return str(path)

    parameters = []
    for name, spec in (data.get("parameters") or {}).items():
        where = at(data["parameters"], name)
        if isinstance(spec, list) and spec:
            parameters.append(Parameter(str(name), values=tuple(dict.fromkeys(spec))))
        elif isinstance(spec, dict) and {"low", "high"} <= set(spec) <= {"low", "high", "step"}:
            text = f"{name}={spec['low']}:{spec['high']}" + (
                f":{spec['step']}" if "step" in spec else "")
            try:
                parameters.append(parse_param(text))
            except TuneError as exc:
                raise TuneError(f"{where}: {exc}") from None
        else:
            raise TuneError(f"{where}: {name}: give a list of values or "
                            "{low: L, high: H, step: S}")
    terms = []
    for i, term in enumerate(data.get("objective") or []):
        try:
            terms.append(parse_term(str(term)))
        except TuneError as exc:
            where = at(data, "objective")
            raise TuneError(f"{where}: objective item {i + 1}: {exc}") from None
    return parameters, terms


def _settings_json(**settings: Any) -> str:
    return json.dumps(settings, sort_keys=True, default=str)


@click.command("tune")
@click.option("--variant", "base", default="standard", show_default=True,
              help="The variant whose settings are searched (an id or your file).")
@click.option("--param", "params", multiple=True,
              help="A setting and its values: PATH=a,b,c or PATH=LOW:HIGH[:STEP], e.g. "
                   "scoring.variety_per_book=1:6 (repeatable).")
@click.option("--space", "space_file", type=click.Path(dir_okay=False, path_type=Path),
              help="A YAML file of 'parameters' and 'objective' (added to the options).")
@click.option("--objective", "objectives", multiple=True,
              help="A term to minimise, TERM[*WEIGHT]: seat:K, first-player, balance, "
                   "library:ID, location:ID, special:ID, artifact:ID, or rounds, "
                   "decisions, total, lead-changes with :TARGET, :min or :max "
                   "(repeatable; the terms are summed).")
@click.option("--players", type=click.IntRange(1, 5), default=2, show_default=True,
              help="Players a game.")
@click.option("--games", "-n", type=click.IntRange(1, MAX_SIM_GAMES), default=100,
              show_default=True, help="Games a candidate that plays every stage.")
@click.option("--seats", default="greedy", show_default=True,
              help="Agents, as for exlibris simulate.")
@click.option("--seed", type=click.IntRange(-MAX_SEED, MAX_SEED), default=1,
              show_default=True, help="The games' seeds and the search's.")
@click.option("--budget", type=click.IntRange(1, MAX_BUDGET), default=20, show_default=True,
              help="Candidates at most: a grid this small is searched whole, a larger "
                   "space by Optuna's TPE sampler.")
@click.option("--dir", "folder", required=True,
              type=click.Path(file_okay=False, path_type=Path),
              help="Where the candidates, their rows, the best's variant file and "
                   "tune.html go; run the same command again to continue an interrupted "
                   "search.")
@click.option("--id", "best_id", help="The id of the best setting's variant file "
                                      "(default: VARIANT-tuned).")
@content_option
@click.option("--workers", type=click.IntRange(1, MAX_SIM_WORKERS), default=1,
              show_default=True, help="Worker processes (Ray: CPUs of a local Ray).")
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local",
              show_default=True)
@click.option("--address", help="A Ray cluster to use (with --backend ray).")
@click.option("--json", "as_json", is_flag=True, help="Print the search's figures as JSON.")
def tune_command(base: str, params: tuple[str, ...], space_file: Path | None,
                 objectives: tuple[str, ...], players: int, games: int, seats: str,
                 seed: int, budget: int, folder: Path, best_id: str | None,
                 content: tuple[Path, ...], workers: int, backend: str, address: str | None,
                 as_json: bool) -> None:
    """Find the setting that best meets an objective.

    \b
    Every candidate plays the same games (the same seeds and seats), in stages; one
    clearly worse than the best so far stops early. The best is written as a
    variant file (DIR/VARIANT-tuned.yaml), and DIR/tune.html shows the objective against
    each setting with intervals and the report of the best against the variant.
    Example:
      exlibris simulate tune --param scoring.variety_per_book=1:6 \\
          --objective seat:3 --players 3 --games 200 --dir tune-variety
    """
    import importlib.util

    from exlibris.cli.own_content import variant_id
    from exlibris.simulate.tune import TuneError, parse_param, parse_term

    kinds = parse_seats(seats)
    try:
        parameters = [parse_param(p) for p in params]
        terms = [parse_term(o) for o in objectives]
        if space_file is not None:
            more, more_terms = read_space(space_file)
            parameters += more
            terms += more_terms
    except TuneError as exc:
        _fail(str(exc))
    if not parameters:
        _fail("name a setting to search: --param PATH=VALUES or --space FILE.yaml")
    if len({p.name for p in parameters}) != len(parameters):
        _fail("a setting is named twice")
    if not terms:
        _fail("give an objective: --objective TERM (e.g. seat:1, balance, rounds:8)")
    if best_id is not None and best_id == (variant_id(base) or base):
        _fail(f"--id {best_id}: the best setting needs an id of its own (it extends "
              f"{best_id})")
    if address is not None and backend != "ray":
        _fail("--address is for --backend ray")
    if importlib.util.find_spec("matplotlib") is None:
        _fail('its report needs matplotlib: pip install "exlibris[tune]"')
    if folder.exists() and not folder.is_dir():
        _fail(f"--dir {folder}: is a file, not a folder")
    if not folder.parent.is_dir():
        _fail(f"--dir {folder}: no folder {folder.parent}; create it first")
    tuning = Tuning(base, parameters, terms, players, games, kinds, seed, budget, folder,
                    best_id, content, workers, backend, address, quiet=as_json)
    try:
        with sigterm_raises(lambda _: _Stopped()):
            result = tuning.run()
    except TuneError as exc:
        _fail(str(exc))
    except OSError as exc:
        _fail(f"cannot write in {folder}: {exc.strerror or exc}")
    except KeyboardInterrupt as stop:
        echo(f"\nInterrupted: the games played are kept in {folder}; run the same "
                   "command again to continue.", err=True)
        raise SystemExit(getattr(stop, "status", INTERRUPTED)) from None
    if as_json:
        echo(jsontext.dumps(result, indent=1))


def _planned(rows_file: Path) -> int:
    """The games the run that wrote ``rows_file`` planned (its manifest), or 0."""
    from exlibris.simulate import manifest

    try:
        games = manifest.read(manifest.manifest_path(rows_file))["plan"]["games"]
    except (OSError, ValueError, KeyError, TypeError):
        return 0
    return games if isinstance(games, int) and games > 0 else 0


class Tuning:
    """One search: its files in ``folder``, its candidates evaluated by simulate's
    runner (local pool or Ray)."""

    def __init__(self, base: str, parameters: list[Any], terms: list[Any], players: int,
                 games: int, seats: list[str], seed: int, budget: int, folder: Path,
                 best_id: str | None, content: tuple[Path, ...], workers: int, backend: str,
                 address: str | None, quiet: bool = False) -> None:
        from exlibris.cli.own_content import is_path, variant_id
        from exlibris.simulate.tune import Objective

        self.base_path = Path(base).resolve() if is_path(base) else None
        self.base = variant_id(base) or base
        self.parameters = parameters
        self.objective = Objective(terms, players)
        self.players, self.games, self.seats, self.seed = players, games, seats, seed
        self.budget, self.folder = budget, folder
        self.best_id = best_id or f"{self.base}-tuned"
        self.content = tuple(p.resolve() for p in content) + (
            (self.base_path,) if self.base_path else ())
        self.workers, self.backend, self.address = workers, backend, address
        self.say = (lambda text: echo(text, err=True))
        self.quiet = quiet
        self.checked: set[str] = set()  # candidates' variant files validated

    # ---------------------------------------------------------------- files

    def settings(self) -> str:
        return _settings_json(
            base=self.base, base_path=str(self.base_path or ""), players=self.players,
            games=self.games, seats=self.seats, seed=self.seed, budget=self.budget,
            parameters=[p.__dict__ for p in self.parameters],
            objective=[t.__dict__ for t in self.objective.terms],
            content=[str(p) for p in self.content])

    def _claim(self) -> None:
        """Create the folder, or continue the same search in it; refuse another's
        (one that played no game yet, a mistake stopped early, is replaced)."""
        from exlibris.safefile import write_atomic
        from exlibris.simulate.tune import TuneError

        marker = self.folder / "search.json"
        if marker.exists():
            try:
                old = json.loads(marker.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                old = None
            played = any((self.folder / "rows").glob("*.jsonl"))
            if old != json.loads(self.settings()) and played:
                raise TuneError(f"--dir {self.folder} holds a search with other settings "
                                "(search.json): give another --dir, or the same options to "
                                "continue it")
            if played:
                self.say(f"continuing the search in {self.folder}")
        elif self.folder.exists() and any(self.folder.iterdir()):
            raise TuneError(f"--dir {self.folder}: the folder is not empty and holds no "
                            "search (search.json); give an empty or new folder")
        for sub in ("", "candidates", "rows"):
            (self.folder / sub).mkdir(exist_ok=True)
        write_atomic(marker, json.dumps(json.loads(self.settings()), indent=1))

    def variant_text(self, variant_id: str, candidate: dict[str, Any], name: str,
                     text: str) -> str:
        from io import StringIO

        from ruamel.yaml import YAML

        from exlibris.simulate.tune import overlay

        document = {"kind": "variant", "id": variant_id, "name": name,
                    "extends": self.base, "text": text,
                    "settings": overlay(self.parameters, candidate)}
        yaml = YAML(typ="safe", pure=True)
        yaml.default_flow_style = False
        buffer = StringIO()
        buffer.write("# yaml-language-server: $schema=../schemas/variant.json\n"
                     "# written by exlibris simulate tune\n")
        yaml.dump(document, buffer)
        return buffer.getvalue()

    def candidate_file(self, candidate: dict[str, Any], key: str) -> tuple[str, Path]:
        """The candidate's variant file, written (the same bytes on a second run) and
        validated as `exlibris validate` does."""
        from exlibris.safefile import write_atomic
        from exlibris.simulate.tune import describe

        variant_id = f"{self.base}-tune-{key}"
        path = (self.folder / "candidates" / f"{variant_id}.yaml").resolve()
        text = self.variant_text(variant_id, candidate, f"{self.base}, tuned ({key})",
                                 f"A candidate of exlibris simulate tune: {describe(candidate)}.")
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            write_atomic(path, text)
        if variant_id not in self.checked:
            self.check_variant(path, variant_id)
            self.checked.add(variant_id)
        return variant_id, path

    def check_variant(self, path: Path, variant_id: str) -> None:
        from exlibris.catalog import load_catalog, own_files
        from exlibris.cli.output import report_problems
        from exlibris.model.variants import resolve_settings
        from exlibris.simulate.plan import playable
        from exlibris.simulate.tune import TuneError
        from exlibris.validation import validate

        report = validate(own_files([*self.content, path]))
        if not report.ok:
            report_problems(report.problems)
            raise TuneError(f"{path}: the setting does not validate (see above); check "
                            "the --param paths and values against the variant schema")
        catalog = load_catalog([*self.content, path])
        try:
            resolve_settings(variant_id, catalog.variants)
        except ValueError as exc:
            raise TuneError(f"{path}: {exc}") from None
        reason = playable(catalog, variant_id, self.players)
        if reason is not None:
            raise TuneError(f"{path}: at {self.players} players: {reason}")

    # ---------------------------------------------------------------- games

    def play(self, variant_id: str, path: Path | None, rows_file: Path, games: int
             ) -> list[list[dict[str, Any]]]:
        """The first ``games`` games of a variant, played (or extended) as needed."""
        from exlibris.simulate import rows
        from exlibris.simulate.figures import games_of
        from exlibris.simulate.plan import Cell
        from exlibris.simulate.runner import RunConfig, RunError, journal_path, simulate
        from exlibris.simulate.tune import TuneError

        have: list[list[dict[str, Any]]] = []
        target = games
        interrupted = journal_path(rows_file).exists()
        if interrupted:  # finish the stage that was interrupted (it may be a later one)
            target = max(games, _planned(rows_file))
        elif rows_file.exists():
            have = sorted(games_of(rows.iter_rows(rows_file)), key=lambda g: g[0]["game"])
        if interrupted or len(have) < games:
            content = tuple(str(p) for p in self.content) + ((str(path),) if path else ())
            config = RunConfig(
                [Cell(variant_id, self.players)], target, self.seed, self.seats,
                backend=self.backend, workers=self.workers, address=self.address,
                out=rows_file, failures=rows_file.with_suffix(".failures.jsonl"),
                resume=rows_file.exists() or journal_path(rows_file).exists(),
                content=content,
                variant_paths={variant_id: str(path)} if path else {},
                command=["simulate", "tune", "(a candidate)"])
            try:
                result = simulate(config)
            except RunError as exc:
                raise TuneError(str(exc)) from None
            if result.failures:
                raise TuneError(f"{len(result.failures)} games of {variant_id} failed; see "
                                f"{result.failures_path}")
            have = sorted(games_of(rows.iter_rows(rows_file)), key=lambda g: g[0]["game"])
        return [g for g in have if g[0]["game"] < games]

    def evaluate(self, candidate: dict[str, Any], games: int) -> list[Any]:
        from exlibris.simulate.tune import candidate_key, describe

        key = candidate_key(candidate)
        variant_id, path = self.candidate_file(candidate, key)
        if not self.quiet:
            self.say(f"  {describe(candidate)}: {games} games")
        played = self.play(variant_id, path, self.folder / "rows" / f"{key}.jsonl", games)
        return [self.objective.game_values(g) for g in played]

    # ---------------------------------------------------------------- the search

    def run(self) -> dict[str, Any]:
        from exlibris.simulate.tune import candidate_key, search

        self.check_variant_base()
        self._claim()
        self.say(f"tune: {', '.join(p.name for p in self.parameters)} of {self.base} at "
                 f"{self.players} players, objective "
                 f"{' + '.join(t.label for t in self.objective.terms)}")
        result = search(self.parameters, self.evaluate, self.objective.score,
                        games=self.games, budget=self.budget, seed=self.seed,
                        terms=self.objective.terms_of)
        best = result.best
        best_file = self.write_best(best.values)
        base_rows = self.play(self.base, self.base_path,
                              self.folder / "rows" / "base.jsonl", self.games)
        best_id = f"{self.base}-tune-{candidate_key(best.values)}"
        best_rows = self.play(best_id, (self.folder / "candidates"
                                        / f"{best_id}.yaml").resolve(),
                              self.folder / "rows" / f"{candidate_key(best.values)}.jsonl",
                              self.games)
        base_score = self.objective.score([self.objective.game_values(g) for g in base_rows])
        summary = {
            "method": result.method, "stages": result.stages, "base": self.base,
            "players": self.players, "games": self.games, "seed": self.seed,
            "seats": self.seats,
            "objective": [t.label for t in self.objective.terms],
            "parameters": [p.name for p in self.parameters],
            "candidates": [c.as_json() for c in result.candidates],
            "best": best.as_json(), "best_file": str(best_file),
            "base_objective": base_score,
        }
        self.write_report(summary, base_rows, best_rows)
        self.print(summary)
        return summary

    def check_variant_base(self) -> None:
        from exlibris.catalog import load_catalog
        from exlibris.simulate.plan import playable
        from exlibris.simulate.tune import TuneError

        catalog = load_catalog(list(self.content))
        if self.base not in catalog.variants:
            raise TuneError(f"--variant {self.base}: no such variant")
        reason = playable(catalog, self.base, self.players)
        if reason is not None:
            raise TuneError(f"--variant {self.base} at {self.players} players: {reason}")
        from exlibris.dsl.checker import did_you_mean

        known = {"library": catalog.libraries, "location": catalog.locations,
                 "special": catalog.assistants, "artifact": catalog.artifacts}
        for term in self.objective.terms:
            if term.kind in known and term.argument not in known[term.kind]:
                raise TuneError(f"--objective {term.label}: no {term.kind} "
                                f"{term.argument!r}"
                                f"{did_you_mean(term.argument, known[term.kind])}")

    def write_best(self, values: dict[str, Any]) -> Path:
        from exlibris.safefile import write_atomic
        from exlibris.simulate.tune import describe

        path = self.folder / f"{self.best_id}.yaml"  # a variant file is named by its id
        text = self.variant_text(
            self.best_id, values, f"{self.base}, tuned",
            f"{self.base} with {describe(values)}: the best for "
            f"{' + '.join(t.label for t in self.objective.terms)} at {self.players} players "
            f"over {self.games} games (exlibris simulate tune, seed {self.seed}).")
        write_atomic(path, text)
        self.check_variant(path.resolve(), self.best_id)
        return path

    def write_report(self, summary: dict[str, Any], base_rows: list[Any],
                     best_rows: list[Any]) -> None:
        from exlibris.simulate.figures import figures
        from exlibris.simulate.report import write
        from exlibris.simulate.tune_report import tune_html

        table = [r for game in base_rows for r in game]
        table += [{**r, "variant": f"{self.best_id}"} for game in best_rows for r in game]
        data = figures(table, {"variants": [self.base, self.best_id], "seed": self.seed,
                               "seats": self.seats, "games": self.games,
                               "summary": f"the best setting ({self.best_id}) against "
                                          f"{self.base}, {self.games} games each"})
        write(self.folder / "tune.html", data, tune_html(summary, self.parameters),
              {"tune": summary}, title="tune")
        summary["report"] = str(self.folder / "tune.html")

    def print(self, summary: dict[str, Any]) -> None:
        say = self.say if self.quiet else click.echo
        say(f"{summary['method']}; stages of {', '.join(map(str, summary['stages']))} games")
        for c in sorted(summary["candidates"], key=lambda c: (-c["games"], c["objective"])):
            values = ", ".join(f"{k}={v}" for k, v in c["values"].items())
            say(f"  {values}: {c['objective']:.4f} [{c['low']:.4f}, {c['high']:.4f}] "
                f"over {c['games']} games" + (f" (stopped: {c['stopped']})"
                                              if c["stopped"] else ""))
        best = summary["best"]
        say(f"best: {', '.join(f'{k}={v}' for k, v in best['values'].items())} "
            f"(objective {best['objective']:.4f}; {summary['base']}: "
            f"{summary['base_objective']:.4f}); written to {summary['best_file']}")
        say(f"report: {summary['report']}")
        sys.stdout.flush()
