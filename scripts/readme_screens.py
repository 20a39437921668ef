"""Print full-screen frames of a scripted game, as the README shows them.

The person at seat 1 answers with the given keys (one per frame; ``\\r`` is Enter,
``\\t`` Tab, other text is typed); the frame drawn before each key is printed
when its number is asked for (runs of blank rows as ``…``). Usage:

    python scripts/readme_screens.py COLUMNS ROWS SEED KEYS [FRAME...]

e.g. ``python scripts/readme_screens.py 80 24 7 '2\\r\\r\\r1\\r' 3 5``.
"""

from __future__ import annotations

import contextlib
import io
import sys

from exlibris.catalog import load_catalog
from exlibris.interactive import fullscreen as keys
from exlibris.interactive.frame import visible
from exlibris.interactive.human import HumanAgent
from exlibris.interactive.record import SaveRecord
from exlibris.interactive.session import QuitRequest, Session
from exlibris.interactive.shelf_grid import category_styles
from exlibris.interactive.terminal import Terminal

_NAMED = {"\r": keys.ENTER, "\t": keys.TAB, "\x1b": keys.ESCAPE}


class Scripted:
    """A terminal of a fixed size that keeps every frame and plays the keys."""

    def __init__(self, columns: int, rows: int, script: str) -> None:
        self.columns, self.rows = columns, rows
        self.script = list(script)
        self.frames: list[list[str]] = []

    def size(self) -> tuple[int, int]:
        return self.columns, self.rows

    def draw(self, lines: list[str]) -> None:
        self.frames.append([visible(line).rstrip() for line in lines])

    def key(self) -> str:
        if not self.script:
            return keys.EOF
        char = self.script.pop(0)
        return _NAMED.get(char, char)

    def leave(self) -> None:
        pass


def frames(columns: int, rows: int, seed: int, script: str) -> list[list[str]]:
    catalog = load_catalog()
    screen = Scripted(columns, rows, script)
    terminal = Terminal(io.StringIO(), io.StringIO(), arrows=False)
    terminal.full = screen  # type: ignore[assignment]
    record = SaveRecord(seed=seed, seats=["human", "greedy"], names=["You", "Greedy 2"])
    styles = category_styles(catalog.categories)
    names = {lib.id: lib.name for lib in catalog.libraries.values()}
    agent = HumanAgent(0, terminal, styles, names)
    session = Session(record.stamp(), catalog, humans={0: agent})
    agent.session = session
    with contextlib.suppress(QuitRequest):
        session.run()
    return screen.frames


def squeeze(frame: list[str]) -> str:
    """A frame as the README shows it: a run of blank rows becomes one ``…``."""
    out: list[str] = []
    blank = 0
    for line in frame:
        if not line:
            blank += 1
            continue
        if blank:
            out.append("…" if blank > 1 else "")
            blank = 0
        out.append(line)
    return "\n".join(out)


def main() -> None:
    columns, rows, seed = (int(a) for a in sys.argv[1:4])
    script = sys.argv[4].encode().decode("unicode_escape")
    drawn = frames(columns, rows, seed, script)
    wanted = [int(a) for a in sys.argv[5:]] or range(len(drawn))
    for number in wanted:
        print(f"--- frame {number}")
        print(squeeze(drawn[number]))


if __name__ == "__main__":
    main()
