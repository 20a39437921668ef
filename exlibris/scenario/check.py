"""``exlibris validate`` of folders that hold scenarios beside content and rules.

``validation.validate`` checks content and rules; the scenario files it finds
are read here, each against the (clean) content beside it. The scenario loader
uses ``validation`` for a scenario's own content, so this step lives above
both, and neither imports the other back.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from exlibris.errors import Problem, UserInputError
from exlibris.scenario.loader import load_scenario
from exlibris.sources import content_in_use
from exlibris.validation import Report, validate


def validate_all(paths: Iterable[Path] | None = None) -> Report:
    """``validate``, then every scenario file among ``paths`` once the content is
    clean (``Report.unchecked`` keeps them otherwise)."""
    return read_scenarios(validate(paths))


def read_scenarios(report: Report) -> Report:
    """Read the scenario files ``validate`` found (``Report.unchecked``), if the
    content is clean, adding their problems to ``report``."""
    files = report.unchecked
    if files and report.ok:
        report.problems.extend(check_scenarios(files, report.content))
        report.scenarios = len(files)
        report.files += len(files)
        report.unchecked = []
        report.problems.sort(key=lambda p: (p.file, p.line, p.col))
    return report


def check_scenarios(files: list[Path], content: list[Path]) -> list[Problem]:
    """Read each scenario with the (clean) content beside it."""
    problems: list[Problem] = []
    with content_in_use(content):
        for file in files:
            try:
                load_scenario(file)
            except UserInputError as exc:
                problems.extend(exc.problems)
    return problems
