"""One row per game and player, and the files they go to (.parquet, .csv, .jsonl).

Columns: the game (``variant``, ``players``, ``game`` index, ``seed``), the seat
(``seat`` from 1 in turn order, ``position``: 1 for the seat that played first in
the first round, then in turn order; ``agent``, ``library``, ``specials``: the
special assistants held at the end, a list (``;``-joined in a CSV cell)),
``held`` (the artifacts on its shelf at the end), ``locations`` (the locations it
placed an assistant on), ``visits`` (such placements) and ``hires`` (assistants
hired at the Job Faire), every
line of the inspection form (``flipped`` .. ``volunteers``), ``total``, ``rank``
(1 best), ``winner`` (1, or a share 1/k of a tie no tiebreaker settles, else 0),
``tiebreak`` (what settled first place: ``total``, a tiebreaker's name, or
``shared``), ``ended`` (why the game ended: ``final-round``, or ``stalled`` by the
stuck-game guard), ``rounds``, ``decisions`` (the game's), ``player_decisions`` and
``options`` (the decisions put to this seat and the options they offered),
``score_by_round`` (its total at the end of each round, the last the final total),
``lead_changes`` (how often the sole leader changed, the same in every row of a
game), ``behind`` (the most points it trailed the leader by at a round's end),
``thinking`` (the seconds this seat's agent took to decide), ``slowest`` (its
slowest single decision, in seconds) and ``seconds`` (the game's wall time).
``thinking``, ``slowest`` and ``seconds`` are the columns that differ between runs.
Added later, at the end (rows of older runs lack them and still read): ``board``
(every location on the board at the start of some round of the game, the same in
every row of a game; the events file has them round by round), ``dealt`` (the
library tiles this seat was dealt to choose from), ``decisions_by_round`` and
``options_by_round`` (this seat's decisions and their options in each round).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from exlibris.engine.flow import Outcome
    from exlibris.scoring.inspection import Inspection
    from exlibris.simulate.plan import GameSpec

FORM_LINES = ("flipped", "books", "stability", "entombed", "prominent", "banned", "variety",
              "focus", "artifacts", "volunteers")
COLUMNS = ("variant", "players", "game", "seed", "seat", "position", "agent", "library",
           "specials", "held", "locations", "visits", "hires", *FORM_LINES, "total",
           "rank", "winner", "tiebreak", "ended", "rounds", "decisions", "player_decisions",
           "options", "score_by_round", "lead_changes", "behind", "thinking", "slowest",
           "seconds", "board", "dealt", "decisions_by_round", "options_by_round")
# columns added since rows were first written: a row without them still reads (as
# empty lists), so older runs can be reported on and resumed
LATER = ("board", "dealt", "decisions_by_round", "options_by_round")
REQUIRED = tuple(c for c in COLUMNS if c not in LATER)
# the columns of rows written before the per-seat ones: enough for a report
CORE = ("variant", "players", "game", "seed", "seat", "position", "agent", "library",
        "specials", *FORM_LINES, "total", "rank", "winner", "tiebreak", "ended", "rounds",
        "decisions")
TIMING = ("thinking", "slowest", "seconds")  # columns that hang on the machine, not the seed
FORMATS = (".parquet", ".csv", ".jsonl")
_INTS = {"players", "game", "seed", "seat", "position", *FORM_LINES, "total", "rank", "rounds",
         "decisions", "player_decisions", "options", "visits", "hires", "lead_changes",
         "behind"}
_FLOATS = {"winner", "thinking", "slowest", "seconds"}
_LISTS = {"specials", "held", "locations", "board", "dealt"}
_INT_LISTS = {"score_by_round", "decisions_by_round", "options_by_round"}
MAX_ROW_LINE = 64_000  # bytes of one journal or .jsonl line (a game's rows: ~3 KB)


class RowsError(ValueError):
    """A rows or journal file that cannot be trusted; the message names FILE:LINE."""


def tiebreak(inspection: Inspection) -> str:
    """What settled first place: ``total``, the first tiebreaker that split the leaders,
    or ``shared`` when none did."""
    from exlibris.scoring.inspection import rank_key

    if len(inspection.winners) > 1:
        return "shared"
    forms = sorted(inspection.forms, key=lambda f: rank_key(f, inspection.rules))
    if len(forms) < 2:
        return "total"
    first, second = (rank_key(f, inspection.rules) for f in forms[:2])
    step = next(i for i, (a, b) in enumerate(zip(first, second, strict=True)) if a != b)
    return "total" if step == 0 else inspection.rules.tiebreakers[step - 1]


def game_rows(spec: GameSpec, outcome: Outcome, game: Any, first: int, seconds: float,
              seats: Sequence[Any] = (), logs: Sequence[Any] = ()) -> list[dict[str, Any]]:
    """The rows of one finished game, in seat order."""
    inspection = outcome.inspection
    order = {form.name: i for i, form in enumerate(inspection.forms)}
    ranks = {order[name]: r for r, name in enumerate(inspection.ranking, 1)}
    scores = getattr(seats[0], "scores", None) if seats else None
    by_round = [*(scores.totals if scores is not None else []),
                [form.total for form in inspection.forms]]
    changes = lead_changes(by_round)
    winners = {order[name] for name in inspection.winners}
    settled = tiebreak(inspection)
    rows = []
    for seat, form in enumerate(inspection.forms):
        player = game.state.players[seat]
        specials = sorted(a.spec.id for a in player.assistants if a.spec is not None)
        row: dict[str, Any] = {
            "variant": spec.cell.variant, "players": spec.cell.players, "game": spec.index,
            "seed": spec.seed, "seat": seat + 1,
            "position": (seat - first) % spec.cell.players + 1, "agent": spec.seats[seat],
            "library": player.library or "", "specials": specials,
            "held": _artifacts(player),
            "locations": sorted(logs[seat].locations) if logs else [],
            "visits": logs[seat].visits if logs else 0,
            "hires": logs[seat].hires if logs else 0,
            "flipped": len(form.flipped)}
        for line in FORM_LINES[1:]:
            row[line] = getattr(form, line)
        row.update({
            "total": form.total, "rank": ranks[seat],
            "winner": 1 / len(winners) if seat in winners else 0.0,
            "tiebreak": settled, "ended": outcome.reason.value, "rounds": outcome.rounds,
            "decisions": outcome.decisions,
            "player_decisions": seats[seat].decisions if seats else 0,
            "options": seats[seat].options if seats else 0,
            "score_by_round": [totals[seat] for totals in by_round],
            "lead_changes": changes,
            "behind": max(max(totals) - totals[seat] for totals in by_round),
            "thinking": round(seats[seat].seconds, 6) if seats else 0.0,
            "slowest": round(seats[seat].slowest, 6) if seats else 0.0,
            "seconds": round(seconds, 6),
            "board": sorted({loc for board in scores.boards for loc in board})
            if scores is not None else [],
            "dealt": list(seats[seat].dealt) if seats else [],
            "decisions_by_round": _padded(seats[seat].decisions_by_round, outcome.rounds)
            if seats else [],
            "options_by_round": _padded(seats[seat].options_by_round, outcome.rounds)
            if seats else []})
        rows.append(row)
    return rows


def _padded(values: Sequence[int], rounds: int) -> list[int]:
    """``values`` by round, zeros for the rounds with none, to the game's length."""
    return [*values, *[0] * (rounds - len(values))]


def lead_changes(by_round: Sequence[Sequence[int]]) -> int:
    """How often the sole leader changed from one round's end to the next (a tie for
    the lead keeps the leader there was)."""
    leader, changes = None, 0
    for totals in by_round:
        best = max(totals)
        leaders = [seat for seat, total in enumerate(totals) if total == best]
        if len(leaders) == 1 and leaders[0] != leader:
            changes += leader is not None
            leader = leaders[0]
    return changes


def _artifacts(player: Any) -> list[str]:
    """The artifacts on a seat's shelf at the end (held, whether scored or not)."""
    from exlibris.model.cards import ArtifactCard

    return sorted(slot.card.artifact_id for _, slot in player.shelf.items()
                  if isinstance(slot.card, ArtifactCard))


def sort_key(row: dict[str, Any]) -> tuple[Any, ...]:
    return (row["variant"], row["players"], row["game"], row["seat"])


def check_format(path: Path) -> None:
    if path.suffix not in FORMATS:
        raise ValueError(f"{path}: the rows file must end in {', '.join(FORMATS)}")


def _csv_row(row: dict[str, Any]) -> dict[str, Any]:
    return {c: ";".join(row[c]) if c in _LISTS
            else ";".join(str(v) for v in row[c]) if c in _INT_LISTS else row[c]
            for c in COLUMNS}


def write(path: Path, rows: Iterable[dict[str, Any]]) -> None:
    """Write ``rows`` to ``path`` in the format its suffix names, atomically (a
    temporary file beside it, then a rename); ``OSError`` if the disk refuses."""
    check_format(path)
    rows = map(completed, rows)
    tmp = path.with_name(path.name + ".tmp")
    try:
        if path.suffix == ".parquet":
            _write_parquet(tmp, rows)
        elif path.suffix == ".csv":
            with tmp.open("w", newline="", encoding="utf-8") as f:
                writer = csv.DictWriter(f, COLUMNS, extrasaction="ignore")
                writer.writeheader()
                for row in rows:
                    writer.writerow(_csv_row(row))
        else:
            with tmp.open("w", encoding="utf-8") as f:
                for row in rows:
                    f.write(json.dumps({c: row[c] for c in COLUMNS}) + "\n")
        tmp.replace(path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _write_parquet(tmp: Path, rows: Iterable[dict[str, Any]], chunk: int = 4096) -> None:
    """Row groups of ``chunk`` rows, so a long run is never held whole."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    types = {c: pa.int64() if c in _INTS else pa.float64() if c in _FLOATS
             else pa.list_(pa.string()) if c in _LISTS
             else pa.list_(pa.int64()) if c in _INT_LISTS else pa.string() for c in COLUMNS}
    schema = pa.schema([(c, types[c]) for c in COLUMNS])
    with pq.ParquetWriter(tmp, schema) as writer:
        batch: list[dict[str, Any]] = []
        for row in rows:
            batch.append({c: row[c] for c in COLUMNS})
            if len(batch) >= chunk:
                writer.write_table(pa.Table.from_pylist(batch, schema=schema))
                batch = []
        writer.write_table(pa.Table.from_pylist(batch, schema=schema))


def read(path: Path, problems: list[str] | None = None) -> list[dict[str, Any]]:
    """The rows of a file written by :func:`write`, typed as written."""
    return list(iter_rows(path, problems))


def completed(row: dict[str, Any]) -> dict[str, Any]:
    """``row`` with the :data:`LATER` columns an older run did not write (empty)."""
    missing = [c for c in LATER if c not in row]
    return {**row, **{c: [] for c in missing}} if missing else row


def iter_rows(path: Path, problems: list[str] | None = None,
              columns: Sequence[str] = REQUIRED) -> Iterator[dict[str, Any]]:
    """The rows of ``path`` one by one (:func:`completed`). A damaged row (not an
    object, a missing column, a value of the wrong type) raises :class:`RowsError`
    naming the file and line, or, given a ``problems`` list, is described there and
    skipped."""
    yield from map(completed, _iter_rows(path, problems, columns))


def _iter_rows(path: Path, problems: list[str] | None,
               columns: Sequence[str]) -> Iterator[dict[str, Any]]:
    check_format(path)
    if path.suffix == ".parquet":
        yield from _parquet_rows(path, problems, columns)
        return
    if path.suffix == ".csv":
        yield from _csv_rows(path, problems, columns)
        return
    for number, item in _json_lines(path, problems):
        wrong = row_problem(item, columns)
        if wrong is None:
            yield item
        else:
            _report(path, number, wrong, problems)


def _report(path: Path, number: int, what: str, problems: list[str] | None) -> None:
    message = f"{path}:{number}: {what}"
    if problems is None:
        raise RowsError(message)
    problems.append(message)


def row_problem(row: Any, columns: Sequence[str] = REQUIRED) -> str | None:
    """What is wrong with a row read back (``columns`` must be there, and any of
    :data:`LATER` there must hold its type), or None."""
    if not isinstance(row, dict):
        return f"a row is an object of columns, not {type(row).__name__}"
    for column in (*columns, *(c for c in LATER if c in row and c not in columns)):
        if column not in row:
            return f"the row has no {column!r} column"
        value = row[column]
        if column in _INTS:
            ok = isinstance(value, int) and not isinstance(value, bool)
        elif column in _FLOATS:
            ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        elif column in _LISTS:
            ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
            ok = ok or (column == "specials" and isinstance(value, str))  # older rows
        elif column in _INT_LISTS:
            ok = isinstance(value, list) and all(
                isinstance(v, int) and not isinstance(v, bool) for v in value)
        else:
            ok = isinstance(value, str)
        if not ok:
            return f"column {column!r} holds {str(value)[:40]!r}, not a value of its type"
    return None


def _parquet_rows(path: Path, problems: list[str] | None, columns: Sequence[str]
                  ) -> Iterator[dict[str, Any]]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        source = pq.ParquetFile(path)
        for batch in source.iter_batches(batch_size=4096):
            for number, row in enumerate(batch.to_pylist(), 1):
                wrong = row_problem(row, columns)
                if wrong is None:
                    yield row
                else:
                    _report(path, number, wrong, problems)
    except (OSError, pa.ArrowException) as exc:
        raise RowsError(f"{path}: not a readable parquet file ({str(exc)[:160]})") from None


def _csv_rows(path: Path, problems: list[str] | None, columns: Sequence[str]
             ) -> Iterator[dict[str, Any]]:
    try:
        with path.open(newline="", encoding="utf-8") as f:
            reader = csv.DictReader(f)
            for row in reader:
                number = reader.line_num
                try:
                    typed = _typed(row)
                except (TypeError, ValueError) as exc:
                    _report(path, number, str(exc), problems)
                    continue
                wrong = row_problem(typed, columns)
                if wrong is None:
                    yield typed
                else:
                    _report(path, number, wrong, problems)
    except UnicodeDecodeError:
        raise RowsError(f"{path}: not a text file (not UTF-8)") from None
    except csv.Error as exc:
        raise RowsError(f"{path}: not a CSV file ({exc})") from None


def _json_lines(path: Path, problems: list[str] | None) -> Iterator[tuple[int, Any]]:
    """``(line number, value)`` for every JSON line; a last line cut short by an
    interruption is skipped, any other line that is not JSON is a problem."""
    with path.open("rb") as f:
        previous: tuple[int, bytes] | None = None
        for number, raw in enumerate(f, 1):
            if previous is not None:
                yield from _decoded(path, *previous, problems, last=False)
            previous = (number, raw)
        if previous is not None:
            yield from _decoded(path, *previous, problems, last=True)


def _decoded(path: Path, number: int, raw: bytes, problems: list[str] | None, *,
             last: bool) -> Iterator[tuple[int, Any]]:
    if not raw.strip():
        return
    if len(raw) > MAX_ROW_LINE:
        _report(path, number, f"the line is longer than {MAX_ROW_LINE} bytes", problems)
        return
    try:
        yield number, json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        if last and not raw.endswith(b"\n"):
            return  # cut short by an interruption: that game is played again
        _report(path, number, "not a line of JSON (the file is damaged)", problems)


def read_jsonl(path: Path, problems: list[str] | None = None) -> Iterator[tuple[int, Any]]:
    """The JSON lines of a journal, with their numbers (see :func:`_json_lines`)."""
    return _json_lines(path, problems)


def _typed(row: dict[str, str | None]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for column, value in row.items():
        if column is None or value is None:
            raise ValueError("the line has more or fewer cells than the header")
        if column in _INTS:
            try:
                result[column] = int(value)
            except ValueError:
                raise ValueError(f"column {column!r} holds {value[:40]!r}, not a whole "
                                 "number") from None
        elif column in _FLOATS:
            try:
                result[column] = float(value)
            except ValueError:
                raise ValueError(f"column {column!r} holds {value[:40]!r}, not a "
                                 "number") from None
        elif column in _LISTS:
            result[column] = [v for v in value.split(";") if v]
        elif column in _INT_LISTS:
            try:
                result[column] = [int(v) for v in value.split(";") if v]
            except ValueError:
                raise ValueError(f"column {column!r} holds {value[:40]!r}, not whole "
                                 "numbers") from None
        else:
            result[column] = value
    return result
