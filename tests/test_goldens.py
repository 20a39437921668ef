"""Golden playthroughs (scripts/goldens.py): every recorded game replays decision by
decision with the same seat, options, digest and label; the first difference is the
failure message. Regenerate with ``python scripts/goldens.py regenerate [MODE]``."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

from exlibris.catalog import load_catalog

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "goldens.py"


def _load() -> Any:
    spec = importlib.util.spec_from_file_location("goldens", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["goldens"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


goldens = _load()


@pytest.fixture(scope="module")
def catalog() -> Any:
    return load_catalog()


@pytest.mark.parametrize("mode", goldens.MODES, ids=lambda m: m.name)
def test_the_golden_playthrough_replays(catalog: Any, mode: Any) -> None:
    path = goldens.path_of(mode)
    assert path.is_file(), f"no {path.name}: python scripts/goldens.py regenerate {mode.name}"
    difference = goldens.replay(catalog, mode, path.read_text("utf-8"))
    assert difference is None, (
        f"{difference}\n(a rules change? regenerate: python scripts/goldens.py regenerate "
        f"{mode.name}, and say why in the commit and docs/rulings.md)")


def test_every_mode_of_the_issue_has_a_golden_file() -> None:
    names = {m.name for m in goldens.MODES}
    assert {"standard-2p", "standard-3p", "standard-4p", "five-player", "job-faire",
            "artifactorium", "expanded", "beginner", "friendlier", "longer",
            "solo-job-faire", "solo-artifactorium", "solo-expanded"} <= names
    assert sum(1 for m in goldens.MODES if m.variant == "solo") >= 3  # several levels
    on_disk = {p.stem for p in goldens.FOLDER.glob("*.txt")}
    assert on_disk == names


def test_a_changed_decision_is_reported_at_its_line(catalog: Any) -> None:
    mode = goldens.BY_NAME["standard-2p"]
    lines = goldens.path_of(mode).read_text("utf-8").splitlines()
    number = next(i for i, line in enumerate(lines) if line[:1].isdigit() and i > 40)
    seat, count, index, _, label = lines[number].split("\t", 4)
    lines[number] = "\t".join([seat, count, index, "000000000000", label])
    difference = goldens.replay(catalog, mode, "\n".join(lines) + "\n")
    assert difference is not None and f"line {number + 1}:" in difference
