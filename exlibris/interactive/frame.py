"""The full-screen layout: one frame of exactly the terminal's size, as text lines.

Always on screen: the town board in one line, your library, focus and hand, your
shelf, the decision with its options (a window that follows the cursor) and the
answer line. One key away (Tab): the locations, the other players, the log, the
help. At 120 columns or more the table and the decision sit side by side, and
the log fills the room left under the options.

Every part is drawn by rich at the width it is given, so nothing is cut on the
right; what does not fit below is left out in a set order (the log first, the
locations next) and the shelf is drawn row by row when the grid is too tall.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rich.cells import cell_len
from rich.console import Console, RenderableType
from rich.text import Text

from exlibris.interactive.keyed import KeyedTable, drawing_key, remembered
from exlibris.interactive.screen import Screen
from exlibris.interactive.shelf_grid import books_text, card_name, shelf_grid
from exlibris.model.cards import BookCard
from exlibris.model.shelf import Pos, Shelf, Slot

PANES = ("decision", "form", "locations", "players", "log", "help")
SHORT_HINT = "↑↓ Enter · number or label · Esc back · Tab views · ? help · u s q"
TINY_HINT = "↑↓ Enter · Esc back · Tab · ? help"
MULTI_HINT = "Space marks · Enter confirms"  # a multi-select's hint starts so
WIDE = 120  # from this width, the table and the decision side by side
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


@dataclass
class Ask:
    """What the frame shows of the question being asked."""

    prompt: Text
    labels: Sequence[str]
    cursor: int = 0
    typed: str = ""
    message: str = ""
    marks: Mapping[Pos, str] = field(default_factory=dict)
    pane: str = "decision"
    scroll: int = 0
    help: str = ""
    hint: str = ""
    since: Sequence[str] = ()  # what happened since this player's last answer
    seed: int | None = None  # the game's, in the header where it fits
    notes: Sequence[str] = ()  # beside each option: what it does to the projected form
    projected: tuple[int, Sequence[str]] | None = None  # the inspection now: total, A1 flips
    form: Sequence[str] = ()  # the projected form, line by line (its own view)
    flipped: frozenset[Pos] = frozenset()  # shelf cards the alphabetical check flips now
    assistants: str = ""  # where the player's own assistants stand
    page: int = 10  # lines a Page Up/Down moves in a view (the view's room)
    multi: bool = False  # a multi-select: Space marks options, Enter confirms
    marked: frozenset[int] = frozenset()  # a multi-select's options marked


LAST = 1 << 30  # a scroll position past the end: the end (the log opens there)
CUT_SHELF = "more shelf lines"  # the end of a shelf cut short
MIN_WIDTH, MIN_HEIGHT = 60, 20  # below this the options would not fit: the size is said
SINCE_LINES = 2  # rows of the "since your turn" strip on a narrow screen


def visible(line: str) -> str:
    """A drawn line without its colour codes."""
    return _ANSI.sub("", line)


def width_of(line: str) -> int:
    return cell_len(visible(line))


# drawings kept for the frames that follow (a log's lines, a shelf), ``keyed.KEPT`` at most
_rendered: dict[tuple[object, ...], list[str]] = {}


class Painter:
    """Renders rich renderables to lines of ANSI text at a given width.

    A frame is drawn again at every key, and most of it (the log, the hand, the
    shelf) is what the frame before drew: drawings are kept by all that decides them
    (``keyed.drawing_key``), the width and the colours, and given again."""

    def __init__(self, color_system: str | None = "standard", no_color: bool = False) -> None:
        self.color_system = color_system
        self.no_color = no_color

    def lines(self, renderable: RenderableType, width: int) -> list[str]:
        key = drawing_key(renderable)
        if key is None:
            return self._draw(renderable, width)
        return list(remembered(_rendered, (key, width, self.color_system, self.no_color),
                               lambda: self._draw(renderable, width)))

    def _draw(self, renderable: RenderableType, width: int) -> list[str]:
        console = Console(file=io.StringIO(), width=width, force_terminal=True,
                          color_system=self.color_system,  # type: ignore[arg-type]
                          no_color=self.no_color, highlight=False, markup=False, emoji=False,
                          legacy_windows=False)
        with console.capture() as captured:
            console.print(renderable)
        return [line.rstrip() for line in captured.get().rstrip("\n").split("\n")]


def frame(screen: Screen, log: Sequence[str], ask: Ask, width: int, height: int,
          painter: Painter) -> list[str]:
    """The whole screen as exactly ``height`` lines, none wider than ``width``."""
    if width < MIN_WIDTH or height < MIN_HEIGHT:
        return _too_small(ask, width, height)
    width, height = max(width, 40), max(height, 12)
    if width >= WIDE:
        return _wide(screen, log, ask, width, height, painter)
    foot = _foot(ask, width, painter)
    top = _mine(screen, ask, width, painter)
    room = height - len(top) - len(foot) - 1
    shelf = _shelf(screen, ask, width, max(3, room - 6), painter)
    if ask.assistants and (room - len(shelf) < 7 or CUT_SHELF in shelf[-1]):
        top = _mine(screen, ask, width, painter, assistants=False)  # the shelf comes first
        room = height - len(top) - len(foot) - 1
        shelf = _shelf(screen, ask, width, max(3, room - 6), painter)
    body_room = room - len(shelf)
    if ask.pane == "decision" and not ask.labels:  # no question: a bot thinks
        body = _waiting(ask, log, width, body_room, painter)
    elif ask.pane == "decision":
        strip = _since(ask, width, painter) if body_room > 6 else []
        body = strip + _decision(ask, width, body_room - len(strip), painter)
    else:
        body = _pane(screen, log, ask, width, body_room, painter)
    lines = top + shelf + [_tabs(ask.pane, width)] + body
    lines += [""] * (height - len(lines) - len(foot))
    return _fit(lines + foot, height)


def _too_small(ask: Ask, width: int, height: int) -> list[str]:
    """Below the smallest size the game is drawn at: say so, keep the answer line."""
    words = (f"The terminal is {width}×{height}; the game needs at least "
             f"{MIN_WIDTH}×{MIN_HEIGHT}. Make the window larger: the game is drawn "
             "again at once.").split()
    lines, line = [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > max(width, 1):
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    lines.append(line)
    lines = [text[:max(width, 1)] for text in lines][:max(height - 1, 0)]
    answer = f"> {ask.typed}"[:max(width, 1)]
    return [*lines, *[""] * (max(height, 1) - len(lines) - 1), answer][-max(height, 1):]


def _wide(screen: Screen, log: Sequence[str], ask: Ask, width: int, height: int,
          painter: Painter) -> list[str]:
    left_w = min(width // 2, 100)
    right_w = width - left_w - 3
    foot = _foot(ask, width, painter)
    room = height - len(foot)
    left = _mine(screen, ask, left_w, painter)
    left += _shelf(screen, ask, left_w, room - len(left), painter)
    spare = 2 if screen.game.state.round else 0  # room to say where the players are
    rest = room - len(left) - spare - 1
    places = painter.lines(screen.locations(), left_w)
    if len(places) > rest > 3:  # the first locations, and where the others are
        places = [*places[:rest - 1], "(more locations: Tab)"]
    if rest > 3:
        left += ["", *places]
    if screen.game.state.round:
        screen.width = left_w
        for panel in screen.panels():
            drawn = _whole(painter.lines(panel, left_w), room - len(left), "the players",
                           left_w)
            left += drawn
            if len(drawn) < 3:  # it did not fit: neither will the next
                break
    right = [_tabs(ask.pane, right_w)]
    if ask.pane == "decision":
        right += _decision(ask, right_w, room - 1, painter)
        rest = room - len(right) - 1
        if rest > 2 and log:
            right += ["", *_log(log, right_w, rest, painter)]
    else:
        right += _pane(screen, log, ask, right_w, room - 1, painter)
    left, right = _clip(left, room), _clip(right, room)
    rows = []
    for i in range(room):
        a = left[i] if i < len(left) else ""
        b = right[i] if i < len(right) else ""
        rows.append(a + " " * (left_w - width_of(a)) + " │ " + b)
    return _fit(rows + foot, height)


def _whole(lines: list[str], room: int, what: str, width: int) -> list[str]:
    """``lines`` after a blank line if they all fit in ``room``; else one line saying
    where to see them (a panel is never cut off), or nothing if even that does not fit."""
    if len(lines) + 1 <= room:
        return ["", *lines]
    if room >= 2:
        return ["", f"({what}: Tab)"[:width]]
    return []


def _fit(lines: list[str], height: int) -> list[str]:
    """``lines`` in ``height`` rows: blank rows added, or, on a screen too small for all,
    the first rows left out (the board line goes before the decision, its markers,
    the hint and the answer line)."""
    if len(lines) > height:
        lines = lines[len(lines) - height:]
    return lines + [""] * (height - len(lines))


def _clip(lines: list[str], room: int) -> list[str]:
    return lines[:max(room, 0)]


# ---------------------------------------------------------------------- parts
def _mine(screen: Screen, ask: Ask, width: int, painter: Painter, assistants: bool = True
          ) -> list[str]:
    """The town board, then your library, focus and hand (and where your assistants
    stand, with ``assistants``)."""
    game = screen.game
    seat = screen.seat
    board = board_line(screen)
    if board.cell_len > width:
        board = board_line(screen, names=False)
    if ask.seed is not None and board.cell_len + len(f" · seed {ask.seed}") <= width:
        board.append(f" · seed {ask.seed}", "dim")
    cut = board.plain.find(" · ") + 3  # what wraps goes on under "first: ..."
    lines = hanging(board[:cut], board[cut:], width, painter) if cut > 2 else \
        painter.lines(board, width)
    if seat is None:
        return lines
    player = game.state.players[seat]
    if not game.state.round:  # set-up: nothing in hand or on the shelf yet
        return lines
    head = Text(screen.who(seat), "bold")
    if player.library:
        head.append(f" — {screen.library_names.get(player.library, player.library)}")
    if player.focus:
        head.append(" · Focus: ")
        head.append_text(screen.category(player.focus))
    from exlibris.interactive.shelf_grid import cards_text

    hand = hanging(Text(f"Hand ({len(player.hand)}): "),
                   cards_text(player.hand.cards, screen.styles), width, painter)
    turned = [line for text in screen.turned_up() for line in painter.lines(text, width)]
    mine = lines + painter.lines(head, width) + hand + turned
    if ask.assistants and assistants:
        mine += hanging(Text("Assistants: "), Text(ask.assistants), width, painter)
    return mine


def board_line(screen: Screen, *, names: bool = True) -> Text:
    """``Round 2 · first: Greedy 2 · prominent H History · banned S Science · deck 40 ...``
    (without the categories' names when that is too wide)."""
    state = screen.game.state
    if not state.round:
        text = Text("Ex Libris · set-up", "bold")
        if state.players:
            text.append(" · choose your library (the town board comes next)")
        return text
    solo = screen.game.solo
    rounds = f" of {screen.game.settings.final_round.rounds}" if solo is not None else ""
    text = Text(f"Round {state.round}{rounds}", "bold")
    if state.final_round:
        text.append(" ")
        text.append("FINAL ROUND", "bold reverse")
    if solo is not None:
        text.append(f" · solo, difficulty {solo.difficulty} · prominent ")
    else:
        text.append(f" · first: {screen.who(state.first_player)}{screen.next_first()}"
                    " · prominent ")
    category = screen.category if names else screen.code
    text.append_text(category(state.prominent))
    text.append(" · banned ")
    text.append_text(category(state.banned))
    if solo is not None:
        return _solo_board(screen, text)
    text.append(f" · deck {len(state.deck)} · discard {len(state.discard)}")
    if "job-faire" in screen.game.settings.modules:
        text.append(f" · assistant deck {len(state.assistant_deck)}")
    return text


def _solo_board(screen: Screen, text: Text) -> Text:
    """Solo: the public library's size and top card (the only one seen, SOLO-11), the
    deck and the location tiles left in the stack."""
    state = screen.game.state
    text.append(f" · deck {len(state.deck)} · public library {len(state.discard)}")
    if state.discard.cards:
        text.append(", top ")
        text.append(str(state.discard.cards[-1]))
    text.append(f" · tiles left {len(state.location_stack)}")
    solo = screen.game.solo
    text.append(f" · license form {len(solo.form)} face down")
    if solo.boxed:
        text.append(", boxed ")
        text.append_text(Text(" ").join(screen.code(code) for code in solo.boxed))
    return text


def _shelf(screen: Screen, ask: Ask, width: int, room: int, painter: Painter) -> list[str]:
    seat = screen.seat
    if seat is None:
        return []
    player = screen.game.state.players[seat]
    if not screen.game.state.round:
        return []
    count = player.shelf.card_count()
    if not count and not ask.marks:
        return painter.lines(Text("Shelf: 0 cards (the first goes at row 0, column 0)"), width)
    title = f"Shelf: {count} card{'s' if count != 1 else ''}"
    grid = painter.lines(shelf_grid(player.shelf, screen.styles, marks=ask.marks,
                                    title=with_projection(title, ask, width),
                                    width=width, flipped=ask.flipped), width)
    if len(grid) <= room:
        return grid
    cells = [pos for pos, _ in player.shelf.items()] + list(ask.marks)
    columns = f" (columns {min(c for _, c in cells)} to {max(c for _, c in cells)})"
    rows = painter.lines(shelf_lines(player.shelf, screen, ask.marks,
                                     with_projection(title + columns, ask, width), width,
                                     ask.flipped, spans=False), width)
    if len(rows) > max(room, 2):  # taller than any screen should be: say what is left out
        rows = [*rows[:max(room, 2) - 1], f"… {len(rows) - max(room, 2) + 1} {CUT_SHELF}: "
                "make the terminal taller"[:width]]
    return rows


def with_projection(title: str, ask: Ask, width: int) -> str:
    """``Shelf: 9 cards · inspection now 38 · A1 flips 3 (!): T10, Z3, R4`` in ``width``
    columns (the last flipped cards counted when they do not fit)."""
    if ask.projected is None:
        return title
    total, names = ask.projected
    head = f"{title} · inspection now {total} · "
    if not names:
        return head + "A1 flips nothing"
    line = f"{head}A1 flips {len(names)} (!)"
    for shown in range(len(names), 0, -1):
        rest = f" +{len(names) - shown}" if shown < len(names) else ""
        full = f"{line}: {', '.join(names[:shown])}{rest}"
        if len(full) <= width:
            return full
    return line


def shelf_lines(shelf: Shelf, screen: Screen, marks: Mapping[Pos, str], title: str,
                width: int = 80, flipped: frozenset[Pos] = frozenset(), *,
                spans: bool = True) -> Text:
    """The shelf one line per row: ``row 0 │ A2/9:HM  ·  [3]``, columns aligned; the
    columns that do not fit in ``width`` follow in a block of their own; ``!`` marks a
    card the alphabetical check would flip now (``flipped``)."""
    cells = dict(shelf.items())
    used = list(cells) + list(marks) or [(0, 0)]
    rows = range(min(r for r, _ in used), max(r for r, _ in used) + 1)
    cols = list(range(min(c for _, c in used), max(c for _, c in used) + 1))
    wide = max([len(_cell(cells[p])) + (p in flipped) for p in cells] + [4])
    head = len("row -1 │")
    per_line = max(1, (width - head) // (wide + 1))
    blocks = [cols[i:i + per_line] for i in range(0, len(cols), per_line)]
    text = Text(f"{title} (rows top to bottom, columns {cols[0]} to {cols[-1]})" if spans
                else title)
    for block in blocks:
        if len(blocks) > 1:
            span = f"s {block[0]} to {block[-1]}" if len(block) > 1 else f" {block[0]}"
            text.append(f"\ncolumn{span}:", "dim")
        for row in rows:
            text.append(f"\nrow {row:>2} │", "dim")
            for col in block:
                text.append(" ")
                text.append_text(_cell_line((row, col), cells, marks, screen, wide, flipped))
    return text


def _cell_line(pos: Pos, cells: Mapping[Pos, Slot], marks: Mapping[Pos, str], screen: Screen,
               wide: int, flipped: frozenset[Pos] = frozenset()) -> Text:
    """One cell of :func:`shelf_lines`, padded to ``wide``: ``~A2/9:HM+B1/9`` (face down,
    with a card entombed beneath), ``*Ball[2]`` (two cards tucked), ``[3]`` or ``·``."""
    if pos in marks:
        mark = f"[{marks[pos]}]"
        return Text(mark, "bold reverse") + " " * (wide - len(mark))
    if pos not in cells:
        return Text("·" + " " * (wide - 1), "dim")
    slot = cells[pos]
    face = "~" if slot.face_down else ""
    text = Text("!", "bold") if pos in flipped else Text()
    text.append(face + card_name(slot.card), "dim" if slot.face_down else "")
    if isinstance(slot.card, BookCard):
        text.append(":")
        text.append_text(books_text(slot.card.books, screen.styles))
    text.append(_under(slot), "dim")
    return text + " " * (wide - len(_cell(slot)) - (pos in flipped))


def _under(slot: Slot) -> str:
    """What lies under a shelf card: ``+B1/9`` entombed, ``[2]`` tucked."""
    under = f"+{card_name(slot.beneath)}" if slot.beneath is not None else ""
    return under + (f"[{len(slot.tucked)}]" if slot.tucked else "")


def _cell(slot: Slot) -> str:
    card = slot.card
    face = "~" if slot.face_down else ""
    books = ":" + "".join(card.books) if isinstance(card, BookCard) else ""
    return face + card_name(card) + books + _under(slot)


def _tabs(pane: str, width: int) -> str:
    names = [f"[{p}]" if p == pane else p for p in PANES]
    text = "── " + " · ".join(names) + " ── Tab: next view"
    return text[:width] if len(text) <= width else ("── " + f"[{pane}] · Tab: next view")[:width]


def _decision(ask: Ask, width: int, room: int, painter: Painter) -> list[str]:
    """The question, then as many options as fit around the cursor; a line ``↑ N more``
    or ``↓ N more`` says how many are above or below the window (never hidden)."""
    head = painter.lines(ask.prompt, width)
    room = max(room - len(head), 1)
    drawn = [_option(ask, i, width, painter) for i in range(len(ask.labels))]
    first, last = _span(drawn, ask.cursor, room)
    lines = list(head)
    if first:
        lines.append(f"   ↑ {first} more (↑ or Page Up)"[:width])
    for option in drawn[first:last]:
        lines += option
    if last < len(drawn):
        lines.append(f"   ↓ {len(drawn) - last} more (↓ or Page Down)"[:width])
    return lines


def _option(ask: Ask, i: int, width: int, painter: Painter) -> list[str]:
    """One option's lines: the cursor, its number, a mark box in a multi-select, its
    label and its note."""
    mark = "›" if i == ask.cursor else " "
    head = Text(f"{mark}{i + 1:>3}. ", "bold")
    if ask.multi:
        head.append("[x] " if i in ask.marked else "[ ] ", "bold")
    body = Text(ask.labels[i], "reverse" if i == ask.cursor else "")
    if i < len(ask.notes) and ask.notes[i]:
        body.append(f"  {ask.notes[i]}", "dim")
    return hanging(head, body, width, painter)


def _span(drawn: Sequence[Sequence[str]], cursor: int, room: int) -> tuple[int, int]:
    """The options ``[first, last)`` shown in ``room`` lines around ``cursor``, with a
    line kept for each marker of options left out above or below."""
    count = len(drawn)
    if sum(len(d) for d in drawn) <= room:
        return 0, count
    cursor = max(0, min(cursor, count - 1))
    first = last = cursor
    used = len(drawn[cursor])
    while True:  # grow around the cursor, below first, while the markers still fit
        grown = False
        for side in (1, -1):
            i = last + 1 if side == 1 else first - 1
            if not 0 <= i < count:
                continue
            markers = (first - (side == -1) > 0) + (max(last, i) + 1 < count)
            if used + len(drawn[i]) + markers <= room:
                used += len(drawn[i])
                first, last = min(first, i), max(last, i)
                grown = True
        if not grown:
            break
    return first, last + 1


def _since(ask: Ask, width: int, painter: Painter) -> list[str]:
    """What happened since this player's last answer in at most ``SINCE_LINES`` rows:
    the newest entries that fit whole, saying how many older ones the log view (Tab)
    holds."""
    if not ask.since:
        return []
    best: list[str] = []
    for start in range(len(ask.since) - 1, -1, -1):
        older = f" ({start} earlier in the log)" if start else ""
        text = Text(f"Since your turn{older}: ", "bold")
        text.append(" · ".join(ask.since[start:]))
        lines = painter.lines(text, width)
        if len(lines) > SINCE_LINES:
            break
        best = lines
    return best or painter.lines(Text("Since your turn: " + ask.since[-1]), width)[
        :SINCE_LINES]


def _waiting(ask: Ask, log: Sequence[str], width: int, room: int, painter: Painter
             ) -> list[str]:
    """While another player decides: who it is, then the newest entries of the log
    that fit (this player's own last move and what followed it)."""
    head = painter.lines(ask.prompt, width)
    return head + _log(log, width, room - len(head), painter)


def _window(count: int, cursor: int, room: int) -> range:
    if count <= room:
        return range(count)
    top = min(max(0, cursor - room // 2), count - room)
    return range(top, top + room)


def _pane(screen: Screen, log: Sequence[str], ask: Ask, width: int, room: int,
          painter: Painter) -> list[str]:
    screen.width = width  # shelves wider than this are listed row by row
    if ask.pane == "locations":
        lines = painter.lines(screen.locations(), width)
    elif ask.pane == "players":
        lines = painter.lines(screen.others(), width)
    elif ask.pane == "log":
        lines = _log(log, width, 10_000, painter)
    elif ask.pane == "form":
        text = "\n".join(ask.form) or "The form is projected once the first round begins."
        lines = [drawn for line in text.split("\n") for drawn in _help_line(line, width, painter)]
    else:
        lines = [drawn for line in paragraphs(ask.help) for drawn in
                 _help_line(line, width, painter)]
    return _scrolled(lines, ask, width, room)


def _scrolled(lines: list[str], ask: Ask, width: int, room: int) -> list[str]:
    """``room`` lines of ``lines`` from ``ask.scroll``; a first line ``↑ N more`` and a
    last line ``↓ N more`` count what is above and below. ``ask.page`` becomes the lines
    a Page Down moves, so that paging skips none."""
    if len(lines) <= room:
        ask.scroll, ask.page = 0, max(room, 1)
        return lines
    top = max(0, min(ask.scroll, len(lines) - max(room - 2, 1)))
    inner = max(room - 1 - (top > 0), 1)  # a line for each marker shown
    ask.scroll, ask.page = top, inner  # past the end is the end (Up then moves from there)
    shown = lines[top:top + inner]
    above, below = top, len(lines) - top - len(shown)
    head = [f"↑ {above} more lines (↑ or Page Up)"[:width]] if above else []
    foot = (f"↓ {below} more lines: ↓ or Page Down (Esc: back to the decision)" if below
            else "(the end; Esc: back to the decision)")
    return [*head, *shown, foot[:width]]


def paragraphs(text: str) -> list[str]:
    """The lines of a help text with each deeper-indented continuation joined to the
    line it goes on (``~ marks a card lying face`` / ``            down;``), so that
    the screen wraps whole words at its own width."""
    lines: list[str] = []
    for line in text.split("\n"):
        indent = len(line) - len(line.lstrip())
        if lines and indent >= 4 and line.strip() and lines[-1].strip():
            lines[-1] = f"{lines[-1].rstrip()} {line.strip()}"
        else:
            lines.append(line)
    return lines


def hanging(head: Text, body: Text, width: int, painter: Painter) -> list[str]:
    """``head`` then ``body``, the lines ``body`` wraps onto indented to start under
    its first (``›  1. a long label`` / ``      goes on here``)."""
    if not head.cell_len or head.cell_len >= width // 2:
        return painter.lines(head + body, width)
    grid = KeyedTable.grid()
    grid.add_column(width=head.cell_len, no_wrap=True)
    grid.add_column()
    grid.add_row(head, body)
    return painter.lines(grid, width)


_TERM = re.compile(r"^( +\S+(?: \S+)? {2,})\S")  # "  Shelf     rows and ..."


def _help_line(line: str, width: int, painter: Painter) -> list[str]:
    """A line of the help, wrapping under its description (``  Shelf     rows...``)
    or its own indent."""
    term = _TERM.match(line)
    cut = len(term.group(1)) if term else len(line) - len(line.lstrip())
    return hanging(Text(line[:cut]), Text(line[cut:]), width, painter)


def _log(log: Sequence[str], width: int, room: int, painter: Painter,
         title: str = "What happened") -> list[str]:
    """The newest lines of the log that fit in ``room`` lines, under ``title``."""
    drawn: list[str] = []
    for entry in reversed(log):
        lines = hanging(Text("• "), Text(entry), width, painter)
        if len(drawn) + len(lines) > room - 1:
            break
        drawn = lines + drawn
    return [*painter.lines(Text(title, "bold"), width), *drawn] if drawn else []


def _foot(ask: Ask, width: int, painter: Painter) -> list[str]:
    lines = []
    if ask.message:
        lines += painter.lines(Text(ask.message, "bold"), width)
    span = ""
    if ask.pane == "decision" and len(ask.labels) > 1:
        span = f"{ask.cursor + 1} of {len(ask.labels)} · "
    lead = f"{MULTI_HINT} · " if ask.multi else ""
    hint = next((span + text for text in (ask.hint, lead + SHORT_HINT, lead + TINY_HINT)
                 if len(span + text) <= width), span + lead + TINY_HINT)
    lines += painter.lines(Text(hint, "dim"), width)
    lines.append(f"> {ask.typed}"[:width])
    return lines
