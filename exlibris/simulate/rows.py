"""One row per game and player, and the files they go to (.parquet, .csv, .jsonl).

Columns: the game (``variant``, ``players``, ``game`` index, ``seed``), the seat
(``seat`` from 1 in turn order, ``position``: 1 for the seat that played first in
the first round, then in turn order; ``agent``, ``library``, ``specials``: special
assistants held at the end, ``;``-separated), every line of the inspection form
(``flipped`` .. ``volunteers``), ``total``, ``rank`` (1 best), ``winner`` (1, or a
share 1/k of a tie no tiebreaker settles, else 0), ``tiebreak`` (what settled first
place: ``total``, a tiebreaker's name, or ``shared``), ``ended`` (why the game
ended: ``final-round``, or ``stalled`` by the stuck-game guard), ``rounds``,
``decisions`` and
``seconds`` (the game's wall time, the one column that differs between runs).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from exlibris.engine.flow import Outcome
    from exlibris.scoring.inspection import Inspection
    from exlibris.simulate.plan import GameSpec

FORM_LINES = ("flipped", "books", "stability", "entombed", "prominent", "banned", "variety",
              "focus", "artifacts", "volunteers")
COLUMNS = ("variant", "players", "game", "seed", "seat", "position", "agent", "library", "specials",
           *FORM_LINES, "total", "rank", "winner", "tiebreak", "ended", "rounds", "decisions",
           "seconds")
TIMING = ("seconds",)  # columns that depend on the machine, not on the seed
FORMATS = (".parquet", ".csv", ".jsonl")
_INTS = {"players", "game", "seed", "seat", "position", *FORM_LINES, "total", "rank", "rounds",
         "decisions"}
_FLOATS = {"winner", "seconds"}


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


def game_rows(spec: GameSpec, outcome: Outcome, game: Any, first: int, seconds: float
              ) -> list[dict[str, Any]]:
    """The rows of one finished game, in seat order."""
    inspection = outcome.inspection
    order = {form.name: i for i, form in enumerate(inspection.forms)}
    ranks = {order[name]: r for r, name in enumerate(inspection.ranking, 1)}
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
            "library": player.library or "", "specials": ";".join(specials),
            "flipped": len(form.flipped)}
        for line in FORM_LINES[1:]:
            row[line] = getattr(form, line)
        row.update({
            "total": form.total, "rank": ranks[seat],
            "winner": 1 / len(winners) if seat in winners else 0.0,
            "tiebreak": settled, "ended": outcome.reason.value, "rounds": outcome.rounds,
            "decisions": outcome.decisions,
            "seconds": round(seconds, 6)})
        rows.append(row)
    return rows


def sort_key(row: dict[str, Any]) -> tuple[Any, ...]:
    return (row["variant"], row["players"], row["game"], row["seat"])


def check_format(path: Path) -> None:
    if path.suffix not in FORMATS:
        raise ValueError(f"{path}: the rows file must end in {', '.join(FORMATS)}")


def write(path: Path, rows: Iterable[dict[str, Any]]) -> None:
    """Write ``rows`` to ``path`` in the format its suffix names (atomically)."""
    check_format(path)
    rows = list(rows)
    tmp = path.with_name(path.name + ".tmp")
    if path.suffix == ".parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        types = {c: pa.int64() if c in _INTS else pa.float64() if c in _FLOATS
                 else pa.string() for c in COLUMNS}
        schema = pa.schema([(c, types[c]) for c in COLUMNS])
        table = pa.Table.from_pylist([{c: r[c] for c in COLUMNS} for r in rows],
                                     schema=schema)
        pq.write_table(table, tmp)
    elif path.suffix == ".csv":
        with tmp.open("w", newline="", encoding="utf-8") as f:
            writer = csv.DictWriter(f, COLUMNS, extrasaction="ignore")
            writer.writeheader()
            writer.writerows(rows)
    else:
        with tmp.open("w", encoding="utf-8") as f:
            for row in rows:
                f.write(json.dumps({c: row[c] for c in COLUMNS}) + "\n")
    tmp.replace(path)


def read(path: Path) -> list[dict[str, Any]]:
    """The rows of a file written by :func:`write` (or a journal), typed as written."""
    check_format(path)
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq

        return pq.read_table(path).to_pylist()
    if path.suffix == ".csv":
        with path.open(newline="", encoding="utf-8") as f:
            return [_typed(row) for row in csv.DictReader(f)]
    return list(read_jsonl(path))


def read_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    """JSON lines, skipping a last line cut short by an interruption."""
    with path.open(encoding="utf-8") as f:
        for line in f:
            try:
                yield json.loads(line)
            except json.JSONDecodeError:
                continue


def _typed(row: dict[str, str]) -> dict[str, Any]:
    return {c: int(v) if c in _INTS else float(v) if c in _FLOATS else v
            for c, v in row.items()}
