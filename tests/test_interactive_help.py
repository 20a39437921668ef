"""The help and the first screens at 80×24: Page Down moves by the view's height and
skips no line, no word is wrapped in two, the set-up title is whole, and your
assistants are on the main screen with where each stands."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

from exlibris.interactive.context import player_help

ROOT = Path(__file__).resolve().parent.parent


def _screens() -> Any:
    spec = importlib.util.spec_from_file_location("readme_screens",
                                                  ROOT / "scripts" / "readme_screens.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _body(frame: list[str]) -> list[str]:
    """The help view's lines between the tabs line and its marker line (or, on a
    screen tall enough for all, to the hint line)."""
    start = next(i for i, line in enumerate(frame) if line.startswith("── ")) + 1
    end = next((i for i, line in enumerate(frame) if i > start and (
        line.startswith("↓ ") or line.startswith("(the end"))), None)
    if end is None:  # all of it fits: up to the hint and the answer line
        end = len(frame) - 2
        while end > start and not frame[end - 1]:
            end -= 1
    lines = frame[start:end]
    return lines[1:] if lines and lines[0].startswith("↑ ") else lines


def _top(frame: list[str]) -> int:
    """How many lines are above the view (its ``↑ N more`` marker)."""
    for line in frame:
        found = re.match(r"↑ (\d+) more lines", line)
        if found:
            return int(found.group(1))
    return 0


def _help_frames(height: int, pages: int) -> list[list[str]]:
    from exlibris.interactive import fullscreen as keys

    module = _screens()
    module._NAMED["\x01"] = keys.PAGE_DOWN
    try:
        frames = module.frames(80, height, 7, "\r?\r" + "\x01" * pages)
    finally:
        del module._NAMED["\x01"]
    return [frame for frame in frames if "[help]" in "\n".join(frame)]


def test_page_down_in_the_help_skips_no_line_and_words_wrap_whole() -> None:
    whole = _body(_help_frames(300, 0)[-1])
    assert len(whole) > 30
    reached = 0
    for frame in _help_frames(24, 12):
        top, body = _top(frame), _body(frame)
        assert body == whole[top:top + len(body)]  # the ↑ marker counts what is above
        assert top <= reached  # nothing between this page and the last is skipped
        reached = max(reached, top + len(body))
        if any(line.startswith("(the end") for line in frame):
            break
    assert reached == len(whole)
    text = " ".join(" ".join(whole).split())
    assert "lying face down;" in text
    assert not [line for line in whole if line.strip() == "face"]  # "face" / "down;"
    words = set(player_help(full_screen=True).split())
    notation = [w for w in " ".join(_body(_help_frames(300, 0)[-1])).split()
                if w in {"face", "down;", "artifact", "option"}]
    assert notation and all(w in words for w in notation)


def test_the_set_up_title_is_whole_at_80_columns_and_assistants_stand_somewhere() -> None:
    frames = _screens().frames(80, 24, 7, "\r\r\r")
    assert frames[0][0].startswith(
        "Ex Libris · set-up · choose your library (the town board comes next)")
    text = "\n".join(frames[1])
    assert "Assistants: Bookworm ready · standard ready · standard ready" in text
    text = "\n".join(frames[3])
    assert "Assistants: Bookworm on home 1 · standard ready" in text
