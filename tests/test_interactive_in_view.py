"""The inspection in view and nothing hidden without a marker.

Over seeded games of every mode: the projection (the scoring's own code run on the
table a seat sees) equals the inspection's result for every seat once the last
decision is answered; the voluntary flips offer the best flips by name, as
``score --best-flips`` finds them; each shelving target says what it does to the
projected total. At 80×24 (and 60×20) every option of every decision a person is
asked is on screen or counted by a ``↑ N more`` / ``↓ N more`` marker."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from seeded_games import goldens, mode_names, play_mode

from exlibris.catalog import load_catalog
from exlibris.engine.decisions import DecisionKind
from exlibris.engine.flow import table_of
from exlibris.interactive import fullscreen as keys
from exlibris.interactive.frame import visible
from exlibris.interactive.human import HumanAgent, flips_step
from exlibris.interactive.projection import projected, projected_form, shelving_effects
from exlibris.interactive.record import SaveRecord
from exlibris.interactive.session import Session
from exlibris.interactive.shelf_grid import category_styles
from exlibris.interactive.steps import first_step, levels
from exlibris.interactive.terminal import Terminal
from exlibris.scoring.flips import best_flips
from exlibris.scoring.inspection import inspect_table

CATALOG = load_catalog()
STYLES = category_styles(CATALOG.categories)
LIBRARIES = {lib.id: lib.name for lib in CATALOG.libraries.values()}


def _watch(game: Any, decision: Any, index: int) -> Any:
    """At a voluntary flips question: the seat, the best flips offered by name and
    the best flips ``score --best-flips`` finds on the table as it stands."""
    if decision.kind is not DecisionKind.FLIPS:
        return None
    step, best = flips_step(_Session(game), decision, first_step(decision, levels(game, decision)))
    scored = best_flips(inspect_table(table_of(game), game.scoring), decision.seat)
    return decision.seat, [c.label for c in step.choices], best, scored


class _Session:
    def __init__(self, game: Any) -> None:
        self.game = game


@pytest.mark.parametrize("mode", mode_names())
def test_the_projection_at_the_last_decision_is_the_inspection(mode: str) -> None:
    played = play_mode(goldens().BY_NAME[mode], 2, watch=_watch)
    game, result = played.game, played.outcome.inspection
    for seat, form in enumerate(result.forms):
        mine = projected_form(game, seat)
        assert (mine.total, mine.flipped, mine.tally, mine.prominent, mine.focus) == (
            form.total, form.flipped, form.tally, form.prominent, form.focus), (seat, mine, form)
        # the others' figures the seat may not see are not in the projection
        others = projected(game, seat).forms
        assert all(f.focus == 0 for i, f in enumerate(others) if i != seat)
    asked = [seen for seen in played.seen if seen is not None]
    assert asked, "no voluntary flips question"
    for _seat, labels, best, scored in asked:
        if scored.gain > 0 and scored.cards:
            assert best is not None and best.cards == scored.cards
            assert labels[-1] == (f"flip the best: {', '.join(scored.cards)} -> {scored.total} "
                                  f"({scored.gain:+d})")
        else:
            assert len(labels) == 2


def test_each_shelving_target_says_what_it_does_to_the_projection() -> None:
    """At a ``where to shelve`` question, each cell's note is the projection of the
    shelf with the card there; over a game the notes differ from cell to cell."""
    notes: list[list[Any]] = []

    def watch(game: Any, decision: Any, index: int) -> None:
        if decision.kind is DecisionKind.POSITION and decision.card is not None:
            effects = shelving_effects(game, decision.seat, decision.card, decision.values)
            now = projected_form(game, decision.seat)
            for cell, effect in zip(decision.values, effects, strict=True):
                trial = game.state.players[decision.seat].shelf.copy()
                trial.shelve(decision.card, tuple(cell))
                form = projected(game, decision.seat, trial).forms[decision.seat]
                assert effect is not None and effect.total == form.total
                assert effect.gain == form.total - now.total
                assert effect.flips == len(form.flipped)
            notes.append([e.text() for e in effects if e is not None])

    play_mode(goldens().BY_NAME["standard-2p"], 2, watch=watch)
    assert any(len(set(texts)) > 1 for texts in notes)
    assert any("A1 flips" in text and "(+" in text for texts in notes for text in texts)


# ---------------------------------------------------------------------- markers
_OPTION = re.compile(r"^[› ] {0,3}(\d+)\. ")
_UP, _DOWN = re.compile(r"^ *↑ (\d+) more"), re.compile(r"^ *↓ (\d+) more")
_SPAN = re.compile(r"^(\d+) of (\d+) · ")


class Walker:
    """A terminal of a fixed size: at each step of each decision it looks at the list
    with the cursor at its end and at its start, then answers the first option; every
    option must be on screen or counted by a marker."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.keys: list[str] = []
        self.checked = 0
        self.longest = 0

    def size(self) -> tuple[int, int]:
        return self.width, self.height

    def draw(self, lines: list[str]) -> None:
        texts = [visible(line) for line in lines]
        assert len(texts) == self.height
        if not any(line.startswith("── [decision]") or "[decision]" in line for line in texts):
            return  # another view, or a hand-off
        shown = [int(m.group(1)) for line in texts if (m := _OPTION.match(line.split(" │ ")[-1]))]
        up = sum(int(m.group(1)) for line in texts if (m := _UP.match(line.split(" │ ")[-1])))
        down = sum(int(m.group(1)) for line in texts
                   if (m := _DOWN.match(line.split(" │ ")[-1])))
        span = next((m for line in texts if (m := _SPAN.search(line))), None)
        total = int(span.group(2)) if span else 1
        assert shown, "\n".join(texts)
        assert shown == list(range(shown[0], shown[-1] + 1)), "\n".join(texts)
        assert len(shown) + up + down == total, "\n".join(texts)
        assert shown[0] == up + 1, "\n".join(texts)
        self.checked += 1
        self.longest = max(self.longest, total)

    def key(self) -> str:
        if not self.keys:
            self.keys = [keys.END, keys.HOME, keys.ENTER]
        return self.keys.pop(0)

    def leave(self) -> None:
        pass


def walk(mode: Any, width: int, height: int, seed: int = 2) -> Walker:
    walker = Walker(width, height)
    terminal = Terminal(io.StringIO(), io.StringIO(), arrows=False)
    terminal.full = walker  # type: ignore[assignment]
    seats = ["human", *["greedy"] * (mode.players - 1)]
    record = SaveRecord(seed=seed, seats=seats, variant=mode.variant,
                        difficulty=mode.difficulty,
                        names=["You", *[f"Bot {i}" for i in range(2, mode.players + 1)]]).stamp()
    agent = HumanAgent(0, terminal, STYLES, LIBRARIES)
    session = Session(record, CATALOG, humans={0: agent})
    agent.session = session
    session.run()
    return walker


@pytest.mark.slow
@pytest.mark.parametrize("mode", mode_names())
def test_at_80_by_24_every_option_is_on_screen_or_counted_by_a_marker(mode: str) -> None:
    walker = walk(goldens().BY_NAME[mode], 80, 24)
    assert walker.checked > 30


@pytest.mark.parametrize("size", [(60, 20), (80, 24), (120, 30)], ids=["60x20", "80x24", "120x30"])
def test_a_long_list_says_how_many_are_above_and_below(size: tuple[int, int]) -> None:
    """An expanded game at its smallest sizes: lists longer than the room (a placement
    among a dozen locations) are walked end to end and every option is accounted for."""
    walker = walk(goldens().BY_NAME["expanded"], *size, seed=404)
    assert walker.checked > 30 and walker.longest >= 10


def test_line_mode_shows_the_projection_and_the_shelving_notes(tmp_path: Any) -> None:
    from click.testing import CliRunner

    from exlibris.cli.main import cli

    result = CliRunner().invoke(cli, ["play", "--seats", "human,greedy", "--seed", "5",
                                      "--save", str(tmp_path / "g.json")], input="1\n" * 800)
    assert result.exit_code == 0, (result.exception, result.output[-2000:])
    assert re.search(r"Your inspection now: \d+ · A1 would flip ", result.output)
    assert re.search(r"\d+\. shelve \S+ at row -?\d+, column -?\d+  → \d+ \([+-]\d+\) · "
                     r"A1 flips \d+", result.output), result.output[-3000:]
