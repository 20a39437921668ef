"""Golden playthroughs: recorded seeded games, one line per decision, replayed in CI.

Each file of ``tests/goldens/`` holds a few games of one mode (a rules file, a player
count, a solo level), played by random and greedy seats. A game is a header line
(``# game seed=1 seats=greedy,random``) and one line per decision::

    SEAT<TAB>OPTIONS<TAB>INDEX<TAB>DIGEST<TAB>LABEL

the deciding seat, how many options it had, the index chosen (two options may
share a label: two standard assistants), the first 12 hex digits of the state's
digest as the decision was asked (``exlibris/engine/digest.py: state_digest``) and
the label chosen; the game's last line is ``end<TAB>REASON<TAB>TOTALS``.

Replaying does not run the bots: it answers each decision with the recorded index
and checks that the seat, the number of options, the digest and the label are what
the file says, so a changed bot never breaks a replay, and a changed file is a
change of the rules (say why in the commit and in docs/rulings.md).

    python scripts/goldens.py regenerate [MODE...]   # rewrite the files (all modes)
    python scripts/goldens.py check [MODE...]        # replay; the first difference
    python scripts/goldens.py list                   # the modes

``tests/test_goldens.py`` replays every file.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from exlibris.agents import GreedyAgent, RandomAgent
from exlibris.agents.view import player_view
from exlibris.catalog import Catalog, load_catalog
from exlibris.engine.decisions import Decision
from exlibris.engine.digest import state_digest
from exlibris.engine.flow import new_game, play
from exlibris.validation import resolve_settings

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "tests" / "goldens"
DIGITS = 12


@dataclass(frozen=True)
class Mode:
    """A rules file at a player count (and a solo level)."""

    name: str
    variant: str
    players: int
    difficulty: int | None = None


MODES = [
    Mode("standard-2p", "standard", 2), Mode("standard-3p", "standard", 3),
    Mode("standard-4p", "standard", 4), Mode("five-player", "five-player", 5),
    Mode("job-faire", "job-faire", 3), Mode("artifactorium", "artifactorium", 3),
    Mode("expanded", "expanded", 2), Mode("beginner", "beginner", 2),
    Mode("beginner-all-locations", "beginner-all-locations", 2),
    Mode("friendlier", "friendlier", 2), Mode("longer", "longer", 2),
    Mode("solo-beginner", "solo", 1, 1), Mode("solo-easy", "solo", 1, 2),
    Mode("solo-difficult", "solo", 1, 4), Mode("solo-impossible", "solo", 1, 7),
    Mode("solo-job-faire", "solo-job-faire", 1),
    Mode("solo-artifactorium", "solo-artifactorium", 1),
    Mode("solo-expanded", "solo-expanded", 1),
]
BY_NAME = {m.name: m for m in MODES}


def games_of(mode: Mode) -> list[tuple[int, tuple[str, ...]]]:
    """The games recorded for ``mode``: (seed, seats); every seat random, then a
    greedy first seat among random ones."""
    n = mode.players
    return [(1, ("random",) * n), (2, ("greedy",) + ("random",) * (n - 1))]


def settings_of(catalog: Catalog, mode: Mode) -> Any:
    settings = resolve_settings(mode.variant, catalog.variants)
    if mode.difficulty is not None:
        solo = settings.solo.model_copy(update={"difficulty": mode.difficulty})
        settings = settings.model_copy(update={"solo": solo})
    return settings


def _bot(kind: str, seed: int, seat: int) -> Any:
    return GreedyAgent(seed + seat) if kind == "greedy" else RandomAgent(seed * 31 + seat)


class Recorder:
    """Wraps a bot: writes a line for each decision it is asked."""

    def __init__(self, inner: Any, lines: list[str], table: dict[str, Any]) -> None:
        self.inner = inner
        self.needs_view = getattr(inner, "needs_view", False)
        self.lines = lines
        self.table = table  # {"game": the game}, shared by the seats

    def sit_at(self, game: Any) -> None:
        self.table["game"] = game
        sit_at = getattr(self.inner, "sit_at", None)
        if sit_at is not None:
            sit_at(game)

    def decide(self, view: Any, decision: Decision) -> int:
        digest = state_digest(self.table["game"])[:DIGITS]
        index = self.inner.decide(view, decision)
        self.lines.append(f"{decision.seat}\t{len(decision.labels)}\t{index}\t{digest}\t"
                          f"{decision.labels[index]}")
        return index


class Difference(Exception):
    """A replay left the recorded game."""


class Replayer:
    """Answers every decision from the recorded lines, checking each."""

    needs_view = False

    def __init__(self, lines: list[tuple[int, str]], table: dict[str, Any]) -> None:
        self.lines = lines
        self.next = 0
        self.table = table

    def sit_at(self, game: Any) -> None:
        self.table["game"] = game

    def decide(self, view: Any, decision: Decision) -> int:
        if self.next >= len(self.lines) or self.lines[self.next][1].startswith("end\t"):
            raise Difference(f"a decision the recording does not have: seat {decision.seat} "
                             f"asked {decision.prompt!r} ({len(decision.labels)} options)")
        number, line = self.lines[self.next]
        self.next += 1
        i = int(line.split("\t", 4)[2])
        labels = decision.labels
        got = (f"{decision.seat}\t{len(labels)}\t{i}\t"
               f"{state_digest(self.table['game'])[:DIGITS]}\t"
               f"{labels[i] if i < len(labels) else '(no such option)'}")
        if got != line:
            raise Difference(f"line {number}: recorded {line!r}, replayed {got!r} "
                             f"(asked {decision.prompt!r})")
        return i


def _end_line(outcome: Any) -> str:
    inspection = outcome.inspection
    forms = [*inspection.forms] + ([inspection.public_library]
                                   if inspection.public_library is not None else [])
    totals = ",".join(str(form.total) for form in forms)
    return f"end\t{outcome.reason}\t{totals}"


def record(catalog: Catalog, mode: Mode) -> str:
    """The golden file of ``mode``, played now."""
    out = [f"# golden playthroughs of {mode.name}: rules {mode.variant}, {mode.players} "
           f"player(s){'' if mode.difficulty is None else f', level {mode.difficulty}'}",
           "# regenerate: python scripts/goldens.py regenerate " + mode.name]
    settings = settings_of(catalog, mode)
    for seed, seats in games_of(mode):
        lines: list[str] = []
        table: dict[str, Any] = {}
        agents = [Recorder(_bot(kind, seed, i), lines, table) for i, kind in enumerate(seats)]
        game = new_game(catalog, settings, agents, seed=seed, views=player_view,
                        variant=mode.variant)
        outcome = play(game)
        out.append(f"# game seed={seed} seats={','.join(seats)}")
        out += lines
        out.append(_end_line(outcome))
    return "\n".join(out) + "\n"


def recorded_games(text: str) -> Iterator[tuple[int, tuple[str, ...], list[tuple[int, str]]]]:
    """(seed, seats, numbered lines) of each game of a golden file."""
    game: tuple[int, tuple[str, ...], list[tuple[int, str]]] | None = None
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("# game "):
            if game is not None:
                yield game
            fields = dict(f.split("=", 1) for f in line[len("# game "):].split())
            game = (int(fields["seed"]), tuple(fields["seats"].split(",")), [])
        elif game is not None and line and not line.startswith("#"):
            game[2].append((number, line))
    if game is not None:
        yield game


def replay(catalog: Catalog, mode: Mode, text: str) -> str | None:
    """None if every game of ``text`` replays as recorded; else the first difference."""
    settings = settings_of(catalog, mode)
    for seed, seats, lines in recorded_games(text):
        table: dict[str, Any] = {}
        agent = Replayer(lines, table)
        try:
            game = new_game(catalog, settings, [agent] * len(seats), seed=seed,
                            variant=mode.variant)
            outcome = play(game)
        except Difference as exc:
            return f"{mode.name} game seed={seed}: {exc}"
        number, last = lines[agent.next] if agent.next < len(lines) else (0, "")
        if last != _end_line(outcome):
            return (f"{mode.name} game seed={seed}: line {number}: recorded {last!r}, "
                    f"replayed {_end_line(outcome)!r}")
    return None


def path_of(mode: Mode) -> Path:
    return FOLDER / f"{mode.name}.txt"


def main(argv: list[str]) -> int:
    command, names = (argv[0] if argv else "check"), argv[1:]
    if command == "list":
        print("\n".join(m.name for m in MODES))
        return 0
    unknown = [n for n in names if n not in BY_NAME]
    if command not in ("regenerate", "check") or unknown:
        print(__doc__.split("\n\n")[-2] if not unknown else
              f"unknown mode(s): {', '.join(unknown)}; see: python scripts/goldens.py list",
              file=sys.stderr)
        return 2
    catalog = load_catalog()
    failed = 0
    for mode in [BY_NAME[n] for n in names] or MODES:
        if command == "regenerate":
            FOLDER.mkdir(parents=True, exist_ok=True)
            path_of(mode).write_text(record(catalog, mode), "utf-8")
            print(f"wrote {path_of(mode).relative_to(ROOT)}")
            continue
        difference = replay(catalog, mode, path_of(mode).read_text("utf-8"))
        print(f"{'ok  ' if difference is None else 'DIFF'} {mode.name}"
              + ("" if difference is None else f": {difference}"))
        failed += difference is not None
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
