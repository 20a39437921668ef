"""The full-screen frame at every decision of whole games, at 80×24 and 160×50:
the decision, its options, one's hand, focus and shelf are on screen and no line
is wider than the terminal. The human seat is the real :class:`HumanAgent`
driven through a stand-in terminal that presses Enter on every frame."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest

from exlibris.catalog import load_catalog
from exlibris.interactive import fullscreen as keys
from exlibris.interactive.frame import visible, width_of
from exlibris.interactive.human import HumanAgent
from exlibris.interactive.record import SaveRecord
from exlibris.interactive.session import Session
from exlibris.interactive.shelf_grid import card_name, category_styles
from exlibris.interactive.terminal import Terminal
from exlibris.model.cards import BookCard

CATALOG = load_catalog()
STYLES = category_styles(CATALOG.categories)
LIBRARIES = {lib.id: lib.name for lib in CATALOG.libraries.values()}


class Screen:
    """A terminal of a fixed size that records each frame, checks it, and answers Enter."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.agent: HumanAgent | None = None
        self.frames = 0
        self.pending: list[str] = []

    def size(self) -> tuple[int, int]:
        return self.width, self.height

    def draw(self, lines: list[str]) -> None:
        assert self.agent is not None and self.agent.session is not None
        self.frames += 1
        if self.pending:  # a view one Tab away: the size, no line cut
            check_size(lines, self.width, self.height)
        else:
            check_frame(lines, self.agent.session.game, self.width, self.height)

    def key(self) -> str:
        if self.pending:
            return self.pending.pop(0)
        if self.frames % 10 == 1:  # now and then, every view, then back
            self.pending = [keys.TAB] * 4 + [keys.ESCAPE]
            return self.pending.pop(0)
        return keys.ENTER

    def leave(self) -> None:
        pass


def check_size(lines: list[str], width: int, height: int) -> None:
    """Exactly the terminal's rows, none wider than it, nothing cropped with an ellipsis
    (a ``…`` only ever joins the ends of a step's label, in the list or the prompt)."""
    assert len(lines) == height
    for line in lines:
        assert width_of(line) <= width, visible(line)
        if "…" in line:
            assert re.search(r"\d+\. \S.* … | › .* … ", visible(line)), visible(line)


def check_frame(lines: list[str], game: Any, width: int, height: int) -> None:
    check_size(lines, width, height)
    text = "\n".join(visible(line) for line in lines)
    me = game.state.players[0]
    assert "You, " in text  # the decision
    assert "›  1. " in text  # its first option, under the cursor
    assert lines[-1].startswith("> ")
    if not game.state.round:  # set-up: no empty board, hand or shelf
        assert "Hand (" not in text and "prominent" not in text
        return
    assert f"Hand ({len(me.hand)})" in text
    for card in me.hand.cards:
        assert card_name(card) + (":" + "".join(card.books) if isinstance(card, BookCard)
                                  else "") in text
    if me.focus:
        assert f"Focus: {me.focus} " in text
    assert f"Shelf: {me.shelf.card_count()} card" in text
    for _, slot in me.shelf.items():
        assert card_name(slot.card) in text
    assert lines[-1].startswith("> ")


def play_full_screen(seats: list[str], width: int, height: int, seed: int) -> Screen:
    screen = Screen(width, height)
    terminal = Terminal(io.StringIO(), io.StringIO(), arrows=False)
    terminal.full = screen  # type: ignore[assignment]
    record = SaveRecord(seed=seed, seats=seats,
                        names=["You", *[f"Bot {i}" for i in range(2, len(seats) + 1)]]).stamp()
    agent = HumanAgent(0, terminal, STYLES, LIBRARIES)
    session = Session(record, CATALOG, humans={0: agent})
    agent.session = session
    screen.agent = agent
    session.run()
    return screen


@pytest.mark.parametrize("seats", [["human", "greedy"],
                                   ["human", "greedy", "random", "greedy"]],
                         ids=["2-players", "4-players"])
@pytest.mark.slow
@pytest.mark.parametrize("size", [(80, 24), (160, 50)], ids=["80x24", "160x50"])
def test_every_decision_of_a_whole_game_fits_the_screen(seats: list[str],
                                                        size: tuple[int, int]) -> None:
    screen = play_full_screen(seats, *size, seed=7)
    assert screen.frames > 30


class Keyed(Screen):
    """Presses the given keys, then Enter for ever; keeps every frame's text."""

    def __init__(self, width: int, height: int, script: list[str]) -> None:
        super().__init__(width, height)
        self.script = script
        self.texts: list[str] = []

    def draw(self, lines: list[str]) -> None:
        self.texts.append("\n".join(visible(line) for line in lines))
        assert len(lines) == self.height
        assert all(width_of(line) <= self.width for line in lines)

    def key(self) -> str:
        return self.script.pop(0) if self.script else keys.ENTER


def test_tab_views_help_and_steps_back_at_the_full_screen() -> None:
    script = [keys.TAB, keys.TAB, keys.TAB, keys.TAB, keys.TAB, keys.ESCAPE,  # the views
              "?", keys.ENTER, keys.PAGE_DOWN, keys.PAGE_DOWN, keys.ESCAPE,  # help, scrolled
              keys.ENTER,  # the first library
              keys.ENTER, keys.ESCAPE,  # round 1: your library (home spaces), and back
              keys.ENTER, keys.ENTER,  # your library again, its first home space
              keys.ESCAPE, "u", keys.ENTER]  # no step to go back to; undo
    screen = Keyed(80, 24, script)
    terminal = Terminal(io.StringIO(), io.StringIO(), arrows=False)
    terminal.full = screen  # type: ignore[assignment]
    record = SaveRecord(seed=13, seats=["human", "greedy"], names=["You", "Bot"]).stamp()
    # seed 13 offers The Volcanic Biblioteca (its Fire Imp) first, and the bot plays first
    agent = HumanAgent(0, terminal, STYLES, LIBRARIES)
    session = Session(record, CATALOG, humans={0: agent})
    agent.session = session
    screen.agent = agent
    session.run()
    texts = screen.texts
    assert "[form]" in texts[1] and "[locations]" in texts[2] and "[players]" in texts[3]
    assert "[log]" in texts[4] and "[help]" in texts[5] and "[decision]" in texts[6]
    assert "How to read the screen" in texts[8] and "A2/9:HMR" in texts[8]
    assert re.search(r"↓ \d+ more lines", texts[8]) and "Tab  next view" in texts[10]
    assert "which home space?" in texts[13] and "which location?" in texts[14]  # Esc
    later = "\n".join(texts[11:])
    assert "This is the first step of the decision." in later
    assert "Taking back: place The Fire Imp on home space 1" in later


def test_under_60_by_20_the_screen_says_its_minimum_size() -> None:
    """Under 60×20 the options would vanish: the frame says the smallest size instead,
    keeping the answer line, and the game goes on once the window is larger."""
    import importlib.util

    root = Path(__file__).resolve().parent.parent
    spec = importlib.util.spec_from_file_location("readme_screens",
                                                  root / "scripts" / "readme_screens.py")
    assert spec is not None and spec.loader is not None
    screens = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(screens)
    for size in ((50, 24), (80, 18), (30, 10)):
        drawn = screens.frames(*size, 7, "")
        first = drawn[0]
        assert len(first) == size[1] and all(len(line) <= size[0] for line in first)
        assert "needs at least 60×20" in " ".join(first)
        assert first[-1].startswith(">")
    assert "You, " in "\n".join(screens.frames(60, 20, 7, "")[0])


@pytest.mark.parametrize("size", [(80, 24), (160, 50)], ids=["80x24", "160x50"])
def test_lines_kept_from_an_earlier_frame_are_the_lines_drawn_afresh(
        monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]) -> None:
    """A frame gives again the lines it drew for the same texts, tables and width
    (``Painter.lines``, ``keyed.drawing_key``): over a whole game every fifth kept
    drawing given again is checked against one drawn anew, so a key that leaves out
    something the drawing shows fails here."""
    from exlibris.interactive import frame as frames
    from exlibris.interactive.keyed import drawing_key

    hits = 0
    kept = frames.Painter.lines

    def checked(painter: frames.Painter, renderable: Any, width: int) -> list[str]:
        nonlocal hits
        key = drawing_key(renderable)
        hit = (key, width, painter.color_system, painter.no_color) in frames._rendered
        lines = kept(painter, renderable, width)
        if hit:
            hits += 1
            if hits % 5 == 0:
                assert lines == painter._draw(renderable, width), key
        return lines

    monkeypatch.setattr(frames.Painter, "lines", checked)
    frames._rendered.clear()
    play_full_screen(["human", "greedy", "greedy"], *size, seed=11)
    assert hits > 300


def test_texts_alike_but_for_their_colours_are_drawn_each_their_own_way() -> None:
    from rich.text import Text

    from exlibris.interactive.frame import Painter

    painter = Painter()
    plain, coloured = Text("M3/8:FFS"), Text("M3/8:")
    coloured.append("FFS", "bold red")
    drawn = [painter.lines(text, 12) for text in (plain, coloured, Text("M3/8:FFS", "dim"))]
    assert drawn[0] == ["M3/8:FFS"] and drawn[0] != drawn[1] != drawn[2] != drawn[0]
    colourless = Painter(no_color=True).lines(coloured, 12)  # bold, not red
    assert colourless != drawn[1] and [visible(line) for line in colourless] == drawn[0]
