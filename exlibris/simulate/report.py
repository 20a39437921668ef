"""The report: one HTML page with the plots embedded (PNG, base64), and the same
figures as JSON beside it. Plots are drawn with matplotlib's Agg backend, no
display needed."""

from __future__ import annotations

import base64
import html
import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from exlibris.safefile import write_atomic
from exlibris.simulate.figures import GROUPS, LINES

COLORS = {"above": "#2a9d4b", "below": "#c0392b", None: "#4a6fa5"}
STYLE = """
body{font:15px/1.45 system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;
color:#222}
h1{font-size:1.6em}h2{margin-top:2em;border-bottom:1px solid #ccc}h3{margin-top:1.4em}
table{border-collapse:collapse;margin:.6em 0}td,th{padding:.2em .7em;border-bottom:1px solid
#e4e4e4;text-align:right}td:first-child,th:first-child{text-align:left}
.above{color:#2a9d4b;font-weight:600}.below{color:#c0392b;font-weight:600}
.note{color:#555;font-size:.92em}img{max-width:100%}
"""


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _png(fig: Any) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=90, bbox_inches="tight")
    _pyplot().close(fig)
    data = base64.b64encode(buffer.getvalue()).decode()
    return f'<img alt="plot" src="data:image/png;base64,{data}">'


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def win_rate_plot(cell: dict[str, Any]) -> str:
    """Four panels: win rate with its interval by position, library, special, agent."""
    plt = _pyplot()
    groups = [g for g in GROUPS if cell["win_rate"][g]]
    heights = [max(1.2, 0.28 * len(cell["win_rate"][g]) + 0.6) for g in groups]
    fig, axes = plt.subplots(len(groups), 1, figsize=(8, sum(heights)),
                             gridspec_kw={"height_ratios": heights}, squeeze=False)
    for ax, group in zip(axes[:, 0], groups, strict=True):
        entries = cell["win_rate"][group]
        ys = range(len(entries))
        rates = [e["rate"] for e in entries]
        errors = [[max(0.0, e["rate"] - e["low"]) for e in entries],
                  [max(0.0, e["high"] - e["rate"]) for e in entries]]
        ax.barh(list(ys), rates, xerr=errors, color=[COLORS[e["flag"]] for e in entries],
                capsize=3, height=0.6)
        ax.axvline(cell["fair_share"], color="#555", linestyle="--", linewidth=1)
        ax.set_yticks(list(ys), [e["key"] for e in entries], fontsize=8)
        ax.invert_yaxis()
        ax.set_xlim(0, 1)
        ax.set_title(f"win rate by {GROUPS[group]}", fontsize=10, loc="left")
    axes[-1, 0].set_xlabel("win rate (bars: 95% Wilson interval; dashed: fair share)")
    fig.tight_layout()
    return _png(fig)


def _histogram(counts: dict[str, int], low: int, high: int, width: int) -> list[int]:
    bins = [0] * ((high - low) // width + 1)
    for value, count in counts.items():
        bins[(int(float(value)) - low) // width] += count
    return bins


def lines_plot(cells: Sequence[dict[str, Any]]) -> str:
    """Small multiples: each form line's distribution (lines that never vary are left
    out), one step curve a variant, zeros filled in, wide ranges binned."""
    plt = _pyplot()
    shown = []
    for line in LINES:
        values = {int(float(k)) for c in cells for k in c["lines"][line]["counts"]}
        if len(values) > 1:
            shown.append((line, min(values), max(values)))
    columns = 4
    rows = max(1, -(-len(shown) // columns))
    fig, axes = plt.subplots(rows, columns, figsize=(11, 2.3 * rows), squeeze=False)
    for ax, (line, low, high) in zip(axes.flat, shown, strict=False):
        width = max(1, -(-(high - low + 1) // 30))
        for cell in cells:
            n = cell["lines"][line]["n"] or 1
            bins = _histogram(cell["lines"][line]["counts"], low, high, width)
            xs = [low + i * width for i in range(len(bins) + 1)]
            shares = [b / n for b in bins]
            ax.step(xs, [*shares, shares[-1]], where="post", label=cell["variant"])
        ax.set_title(line + (f" (bins of {width})" if width > 1 else ""), fontsize=9)
        ax.tick_params(labelsize=7)
    for ax in list(axes.flat)[len(shown):]:
        ax.axis("off")
    axes[0, 0].legend(fontsize=7)
    fig.supylabel("share of players", fontsize=9)
    fig.tight_layout()
    return _png(fig)


def rounds_plot(cells: Sequence[dict[str, Any]]) -> str:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 2.6))
    width = 0.8 / max(1, len(cells))
    for i, cell in enumerate(cells):
        counts = cell["rounds"]["counts"]
        n = cell["rounds"]["n"] or 1
        shift = (i - (len(cells) - 1) / 2) * width  # the group centred on its round
        ax.bar([float(k) + shift for k in counts], [c / n for c in counts.values()],
               width=width, label=cell["variant"])
    ax.set_xlabel("rounds")
    ax.set_ylabel("share of games")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return _png(fig)


def difference_plot(comparison: dict[str, Any]) -> str:
    plt = _pyplot()
    entries = [m for m in comparison["measures"] if m["low"] != m["high"]]
    fig, ax = plt.subplots(figsize=(7, 0.3 * len(entries) + 0.9))
    ys = list(range(len(entries)))
    ax.errorbar([m["difference"] for m in entries], ys, fmt="o",
                xerr=[[max(0.0, m["difference"] - m["low"]) for m in entries],
                      [max(0.0, m["high"] - m["difference"]) for m in entries]],
                color="#4a6fa5", capsize=3)
    ax.axvline(0, color="#555", linestyle="--", linewidth=1)
    ax.set_yticks(ys, [m["measure"] for m in entries], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel(f"{comparison['variant']} minus {comparison['first']} (95% interval)")
    fig.tight_layout()
    return _png(fig)


# ------------------------------------------------------------------ html

def _e(value: Any) -> str:
    return html.escape(str(value))


def _rate_table(entries: Sequence[dict[str, Any]], label: str, share: float) -> str:
    rows = []
    for e in entries:
        flag = {"above": "above fair share", "below": "below fair share"}.get(e["flag"], "")
        css = f' class="{e["flag"]}"' if e["flag"] else ""
        rows.append(f"<tr><td>{_e(e['key'])}</td><td>{e['n']}</td><td>{e['wins']:g}</td>"
                    f"<td{css}>{_pct(e['rate'])}</td><td>{_pct(e['low'])} - "
                    f"{_pct(e['high'])}</td><td{css}>{flag}</td></tr>")
    return (f"<table><tr><th>{_e(label)}</th><th>seats</th><th>wins</th><th>win rate</th>"
            f"<th>95% interval</th><th>fair share {_pct(share)}</th></tr>"
            + "".join(rows) + "</table>")


def _cell_html(cell: dict[str, Any]) -> str:
    parts = [f"<h3>{_e(cell['variant'])}, {cell['players']} players: {cell['games']} games"
             "</h3>"]
    for group, label in GROUPS.items():
        if cell["win_rate"][group]:
            parts.append(_rate_table(cell["win_rate"][group], label, cell["fair_share"]))
    ties = ", ".join(f"{k}: {v}" for k, v in cell["tiebreak"].items())
    ended = ", ".join(f"{k}: {v}" for k, v in cell["ended"].items())
    rounds = cell["rounds"]
    parts.append(f"<p>First place settled by: {_e(ties)}. Games ended by: {_e(ended)}. "
                 "Game length: "
                 f"{rounds['mean']:.2f} rounds on average (sd {rounds['sd']:.2f}), "
                 f"{cell['decisions']['mean']:.0f} decisions.</p>")
    parts.append(win_rate_plot(cell))
    return "\n".join(parts)


def _lines_table(cells: Sequence[dict[str, Any]]) -> str:
    head = "".join(f"<th>{_e(c['variant'])}</th>" for c in cells)
    rows = []
    for line in LINES:
        values = "".join(
            f"<td>{c['lines'][line]['mean']:.2f} "
            f"<span class=note>({c['lines'][line]['quantiles']['p5']:g} - "
            f"{c['lines'][line]['quantiles']['p95']:g})</span></td>" for c in cells)
        rows.append(f"<tr><td>{line}</td>{values}</tr>")
    return (f"<table><tr><th>line: mean (5th - 95th percentile)</th>{head}</tr>"
            + "".join(rows) + "</table>")


def _headline(cells: Sequence[dict[str, Any]]) -> str:
    """One line a cell: agents' and the first position's win rates, score, length."""
    def rate(e: dict[str, Any], named: bool = True) -> str:
        css = f' class="{e["flag"]}"' if e["flag"] else ""
        name = f"{_e(e['key'])} " if named else ""
        return (f"<span{css}>{name}{_pct(e['rate'])}</span> "
                f"<span class=note>[{_pct(e['low'])}, {_pct(e['high'])}]</span>")

    rows = []
    for c in cells:
        agents = "; ".join(rate(e) for e in c["win_rate"]["agent"])
        first = next((rate(e, named=False) for e in c["win_rate"]["position"]
                      if e["key"] == "1"), "")
        rows.append(f"<tr><td>{_e(c['variant'])}</td><td>{c['players']}</td>"
                    f"<td>{c['games']}</td><td>{agents}</td><td>{first}</td>"
                    f"<td>{c['lines']['total']['mean']:.1f}</td>"
                    f"<td>{c['rounds']['mean']:.2f}</td></tr>")
    return ("<h2>At a glance</h2><table><tr><th>variant</th><th>players</th><th>games</th>"
            "<th>win rate by agent [95%]</th><th>first position's win rate</th>"
            "<th>mean total</th><th>mean rounds</th></tr>" + "".join(rows) + "</table>")


def _comparison_html(comparison: dict[str, Any]) -> str:
    rows = []
    for m in comparison["measures"]:
        rate = m["measure"].startswith("win rate")
        fmt = _pct if rate else (lambda x: f"{x:.2f}")
        css = ' class="above"' if m["significant"] else ""
        sign = "+" if m["difference"] >= 0 else ""
        rows.append(f"<tr><td>{_e(m['measure'])}</td><td>{fmt(m['first'])}</td>"
                    f"<td>{fmt(m['value'])}</td><td{css}>{sign}{fmt(m['difference'])}</td>"
                    f"<td>{fmt(m['low'])} to {fmt(m['high'])}</td>"
                    f"<td{css}>{'yes' if m['significant'] else ''}</td></tr>")
    return (f"<h3>{_e(comparison['variant'])} against {_e(comparison['first'])}, "
            f"{comparison['players']} players</h3>"
            f"<table><tr><th>measure</th><th>{_e(comparison['first'])}</th>"
            f"<th>{_e(comparison['variant'])}</th><th>difference</th><th>95% interval</th>"
            f"<th>interval excludes 0</th></tr>" + "".join(rows) + "</table>"
            + difference_plot(comparison))


def render(figures: dict[str, Any]) -> str:
    """The HTML page for ``figures`` (see :mod:`exlibris.simulate.figures`)."""
    run = figures["run"]
    cells = figures["cells"]
    counts = sorted({c["players"] for c in cells})
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>exlibris balance "
             f"report</title><style>{STYLE}</style></head><body>",
             "<h1>Ex Libris balance report</h1>",
             f"<p>{_e(run.get('summary', ''))}</p>",
             "<p class=note>Win rate: a player's share of wins (a tie no tiebreaker "
             "settles gives each tied player 1/k). Intervals are 95% Wilson score "
             "intervals; <span class=above>green</span> or <span class=below>red</span> "
             "marks an interval wholly above or below the fair share, 1 / players. With "
             "many rows a few flags arise by chance (about 1 in 20 fair ones).</p>"]
    parts.append(_headline(cells))
    if run.get("skipped"):
        parts.append("<p class=note>Not played (the engine refuses them): "
                     + "; ".join(_e(note) for note in run["skipped"]) + ".</p>")
    if figures["comparisons"]:
        parts.append("<h2>Variants against the first</h2><p class=note>Same seeds in "
                     "every variant. Means are per game (the average of its players); "
                     "intervals: normal for means, Newcombe's score interval for win "
                     "rates, both treating the variants as independent samples (so "
                     "slightly wide).</p>")
        parts += [_comparison_html(c) for c in figures["comparisons"]]
    for players in counts:
        group = [c for c in cells if c["players"] == players]
        parts.append(f"<h2>{players} players</h2>")
        parts += [_cell_html(c) for c in group]
        parts.append("<h3>Score distributions, per line of the form</h3>")
        parts.append(_lines_table(group))
        parts.append(lines_plot(group))
        parts.append("<h3>Game length</h3>")
        parts.append(rounds_plot(group))
    failures = run.get("failures", 0)
    parts.append(f"<p class=note>Failed games: {failures}. Rows: {_e(run.get('out', '-'))}."
                 "</p></body></html>")
    return "\n".join(parts)


def write(path: Path, figures: dict[str, Any]) -> Path:
    """Write the page to ``path`` and the figures to ``path`` with ``.json``, each
    atomically (an existing report stays whole if the disk refuses); returns the JSON
    file's path. ``OSError`` if a file cannot be written."""
    page = render(figures)
    data = path.with_suffix(".json")
    write_atomic(data, json.dumps(figures, indent=1))
    write_atomic(path, page)
    return data
