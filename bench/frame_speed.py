"""The full screen's frames: what one costs, in decisions of the floor. Not a test.

    python bench/frame_speed.py                    # 80x24, 120x40 and 160x50, seeds 7 and 11
    python bench/frame_speed.py --sizes 80x24 --seeds 3,4,5 --json
    python bench/frame_speed.py --line 100         # line mode at 100 columns too

A frame is drawn at every key a person presses. Each row plays whole games in this
process at one terminal size, a person in seat 0 (answering Enter, and now and then
Tab through every view and back, as ``tests/test_interactive_frame.py`` does) against
greedy seats, and times the CPU seconds of ``frame.frame`` only. It does so twice, in
turn: with the drawings kept between frames (``frame.Painter``, as the game draws) and
with none kept (every part drawn anew, as before ``interactive/keyed.py``); the floor
(``floor.py``) is played between them, timed by CPU too. A frame's cost is given in the
floor's two-player decisions, a ratio measured in the same process; ``kept over none``
is the frames' speed-up. The games are the same both times (the frames' digests are compared).

``--line COLUMNS`` adds a row for line mode (no terminal: the table printed before each
of the person's decisions, ``Terminal.show``): the same games played through the CLI
with ``1`` answered to every question, then ``exlibris replay --all`` of each, the
commands' CPU seconds with the tables' parts kept (``keyed.segments``) and with none,
in turn; a table's cost in floor decisions, and whether both printed the same.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import tempfile
import time
from collections.abc import Sequence
from typing import Any

from click.testing import CliRunner
from engine_bench import load_floor

from exlibris.catalog import load_catalog
from exlibris.cli.main import cli
from exlibris.interactive import frame as frames
from exlibris.interactive import fullscreen as keys
from exlibris.interactive import keyed
from exlibris.interactive.human import HumanAgent
from exlibris.interactive.record import SaveRecord
from exlibris.interactive.session import Session
from exlibris.interactive.shelf_grid import category_styles
from exlibris.interactive.terminal import Terminal

FLOOR_GAMES = 60  # two-player floor games between the rows' halves


class _Keys:
    """A terminal of a fixed size that answers Enter, and every tenth frame Tabs
    through the views and back."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.frames = 0
        self.pending: list[str] = []

    def size(self) -> tuple[int, int]:
        return self.width, self.height

    def draw(self, lines: list[str]) -> None:
        self.frames += 1

    def key(self) -> str:
        if self.pending:
            return self.pending.pop(0)
        if self.frames % 10 == 1:
            self.pending = [keys.TAB] * 4 + [keys.ESCAPE]
            return self.pending.pop(0)
        return keys.ENTER

    def leave(self) -> None:
        pass


def play(width: int, height: int, seed: int, kept: bool) -> tuple[int, float, str]:
    """One game at ``width`` by ``height``: frames drawn, their CPU seconds, a digest."""
    catalog = load_catalog()
    digest = hashlib.sha256()
    spent = 0.0
    drawn = 0
    real = frames.frame

    def timed(*args: Any, **kwargs: Any) -> list[str]:
        nonlocal spent, drawn
        start = time.process_time()
        lines = real(*args, **kwargs)
        spent += time.process_time() - start
        drawn += 1
        digest.update("\n".join(lines).encode())
        return lines

    key = frames.drawing_key
    frames._rendered.clear()
    if not kept:
        frames.drawing_key = lambda renderable: None  # type: ignore[assignment]
    frames.frame = timed  # type: ignore[assignment]
    try:
        screen = _Keys(width, height)
        terminal = Terminal(io.StringIO(), io.StringIO(), arrows=False)
        terminal.full = screen  # type: ignore[assignment]
        record = SaveRecord(seed=seed, seats=["human", "greedy", "greedy"],
                            names=["You", "Bot 2", "Bot 3"]).stamp()
        agent = HumanAgent(0, terminal, category_styles(catalog.categories),
                           {lib.id: lib.name for lib in catalog.libraries.values()})
        session = Session(record, catalog, humans={0: agent})
        agent.session = session
        session.run()
    finally:
        frames.frame = real  # type: ignore[assignment]
        frames.drawing_key = key  # type: ignore[assignment]
    return drawn, spent, digest.hexdigest()


def play_line(columns: int, seed: int, kept: bool) -> tuple[int, float, str]:
    """One game in line mode and its replay: tables shown, CPU seconds, a digest."""
    shown = 0
    real_show, key = Terminal.show, keyed.drawing_key

    def counted(terminal: Terminal, *renderables: Any) -> None:
        nonlocal shown
        shown += 1
        real_show(terminal, *renderables)

    Terminal.show = counted  # type: ignore[method-assign]
    if not kept:
        keyed.drawing_key = lambda renderable: None  # type: ignore[assignment]
    runner = CliRunner(env={"COLUMNS": str(columns)})
    digest = hashlib.sha256()
    try:
        with tempfile.TemporaryDirectory() as folder:
            save = os.path.join(folder, "game.json")
            start = time.process_time()
            played = runner.invoke(cli, ["play", "--seats", "human,greedy,greedy", "--seed",
                                         str(seed), "--save", save], input="1\n" * 2000)
            replayed = runner.invoke(cli, ["replay", save, "--all"])
            spent = time.process_time() - start
            for result in (played, replayed):
                assert result.exit_code == 0, result.output[-2000:]
                digest.update(result.output.replace(folder, "FOLDER").encode())
    finally:
        Terminal.show = real_show  # type: ignore[method-assign]
        keyed.drawing_key = key  # type: ignore[assignment]
    return shown, spent, digest.hexdigest()


def row(width: int, height: int | None, seeds: Sequence[int], floor: Any) -> dict[str, Any]:
    """Frames at ``width`` by ``height`` (``height`` None: line mode at ``width``
    columns), kept and not, in turn, and the floor between."""
    result: dict[str, Any] = {"size": f"{width}x{height}" if height else f"line, {width}"}
    digests = {}
    for kept in (True, False, True, False):  # in turn: a loaded machine slows both alike
        name = "kept" if kept else "none"
        for seed in seeds:
            drawn, spent, digest = (play_line(width, seed, kept) if height is None
                                    else play(width, height, seed, kept))
            result.setdefault(f"{name}_frames", 0)
            result[f"{name}_frames"] += drawn
            result[f"{name}_seconds"] = result.get(f"{name}_seconds", 0.0) + spent
            digests.setdefault(seed, set()).add(digest)
        start = time.process_time()
        _, decisions = floor.run(FLOOR_GAMES, 2)
        result["floor_seconds"] = result.get("floor_seconds", 0.0) + time.process_time() - start
        result["floor_decisions"] = result.get("floor_decisions", 0) + decisions
    floor_per_s = result["floor_decisions"] / result["floor_seconds"]
    for name in ("kept", "none"):
        per_frame = result[f"{name}_seconds"] / result[f"{name}_frames"]
        result[f"{name}_ms_a_frame"] = round(per_frame * 1000, 3)
        result[f"{name}_floor_decisions_a_frame"] = round(per_frame * floor_per_s, 1)
    result["kept_over_none"] = round(result["none_ms_a_frame"] / result["kept_ms_a_frame"], 2)
    result["same_frames"] = all(len(found) == 1 for found in digests.values())
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="80x24,120x40,160x50")
    parser.add_argument("--seeds", default="7,11")
    parser.add_argument("--line", type=int, metavar="COLUMNS",
                        help="also line mode at this many columns")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    floor = load_floor()
    floor.run(20, 2)  # warm-up
    seeds = [int(s) for s in args.seeds.split(",")]
    rows = [row(*map(int, size.split("x")), seeds, floor) for size in args.sizes.split(",")
            if size]
    if args.line:
        rows.append(row(args.line, None, seeds, floor))
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print("| size | frames (line: shows) | kept: ms, floor decisions a frame | none kept: "
          "ms, floor decisions | kept over none | same frames |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['size']} | {r['kept_frames'] // 2} | {r['kept_ms_a_frame']} ms, "
              f"{r['kept_floor_decisions_a_frame']} | {r['none_ms_a_frame']} ms, "
              f"{r['none_floor_decisions_a_frame']} | {r['kept_over_none']}x | "
              f"{'yes' if r['same_frames'] else 'NO'} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
