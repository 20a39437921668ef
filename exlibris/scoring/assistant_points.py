"""End-of-game points of the special assistants a table names (``assistants:``).

An assistant's content may carry an end-of-game ``score:`` (top level or in an
ability) with ``adds_to:`` naming the inspection row: ``artifacts`` (B6, the default:
the Owl Collector, SCORE-B6-1) or ``entombed`` (the Mummy, whose points the shelf
step ``steps.entombed_points`` counts; naming it only decides who gets them,
EXP-TEMP-05). The expression is compiled as an artifact's is; no assistant has
Python code of its own.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from exlibris import paths
from exlibris.model.shelf import Shelf
from exlibris.scoring.artifacts import ScoreEnv, ScoreFn, compile_score_source, own_entries

ROWS = ("artifacts", "entombed")


def assistant_files() -> dict[str, Path]:
    """Every special assistant card's content file by id (shipped, then an author's)."""
    from exlibris.sources import active_content

    return _assistant_files(paths.content_dir(), active_content())


@cache
def _assistant_files(content: Path, active: tuple[Path, ...]) -> dict[str, Path]:
    """``assistant_files`` for one content folder and one set of an author's paths
    (cached by both: every inspection asks, and the folder is read once)."""
    folder = content / "assistants"
    found = {p.stem: p for p in folder.glob("*.yaml")} if folder.is_dir() else {}
    found.update(own_entries("assistant"))
    return found


def known_assistant_ids() -> tuple[str, ...]:
    return tuple(sorted(assistant_files()))


@cache
def _scores_at(file: str) -> tuple[tuple[str, ScoreFn], ...]:
    from exlibris.yamlsafe import load_yaml_file

    loaded = load_yaml_file(file)
    data = loaded.data if isinstance(loaded.data, dict) else {}
    found: list[tuple[str, ScoreFn]] = []
    entries = [(data, ())] + [(a, ("abilities", i))
                              for i, a in enumerate(data.get("abilities") or [])]
    for entry, path in entries:
        if isinstance(entry, dict) and isinstance(entry.get("score"), str):
            row = entry.get("adds_to") or "artifacts"
            fn = compile_score_source(loaded, entry["score"], (*path, "score"))
            found.append((row, fn))
    return tuple(found)


def assistant_scores(aid: str) -> tuple[tuple[str, ScoreFn], ...]:
    """``(row, score)`` for each end-of-game score of assistant ``aid`` (none if unknown)."""
    path = assistant_files().get(aid)
    return _scores_at(str(path)) if path is not None else ()


def adds_to(aid: str, row: str) -> bool:
    """Whether assistant ``aid`` has an end-of-game score for ``row``."""
    return any(r == row for r, _ in assistant_scores(aid))


def assistant_row_points(shelf: Shelf, aids: tuple[str, ...], row: str, rules: Any = None
                         ) -> int:
    """The points the assistants ``aids`` add to ``row`` from their ``score:``."""
    env = ScoreEnv(shelf, (0, 0), rules)
    return sum(int(fn(env)) for aid in aids for r, fn in assistant_scores(aid) if r == row)
