"""The report: one HTML page with the plots embedded (PNG, base64), and the same
figures as JSON beside it. Plots are drawn with matplotlib's Agg backend, no
display needed."""

from __future__ import annotations

import base64
import html
import io
import json
import math
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

from exlibris.safefile import write_atomic
from exlibris.simulate.figures import CORRECTED, GROUPS, LINES
from exlibris.simulate.stats import SMALL_SAMPLE

COLORS = {"above": "#2a9d4b", "below": "#c0392b", None: "#4a6fa5"}
SIGNIFICANT = {"up": "#1f5fbf", "down": "#d9822b"}  # never the fair-share green and red
STYLE = """
body{font:15px/1.45 system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;
color:#222}
h1{font-size:1.6em}h2{margin-top:2em;border-bottom:1px solid #ccc}h3{margin-top:1.4em}
table{border-collapse:collapse;margin:.6em 0}td,th{padding:.2em .7em;border-bottom:1px solid
#e4e4e4;text-align:right}td:first-child,th:first-child{text-align:left}
.above{color:#2a9d4b;font-weight:600}.below{color:#c0392b;font-weight:600}
.up{color:#1f5fbf;font-weight:600}.down{color:#d9822b;font-weight:600}
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


def _sorted(group: str, entries: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per-unit rows by effect (the rate with it minus without), largest first; seat
    positions and agents in their own order."""
    if group in CORRECTED:
        return sorted(entries, key=lambda e: -(e["effect"] if e.get("effect") is not None
                                               else e["rate"]))
    return list(entries)


def _panel(cell: dict[str, Any], group: str) -> tuple[list[dict[str, Any]], list[float],
                                                      list[float], list[float], str]:
    """What one panel draws, centred where the table's test puts no difference:
    per-unit groups their effect (with minus without) around 0, in the table's
    order; seat positions and agents their win rate around the fair share (solo: the
    win rate itself)."""
    share = cell["fair_share"]
    entries = _sorted(group, cell["win_rate"][group])
    if group in CORRECTED:
        entries = [e for e in entries if e.get("effect") is not None]
        return (entries, [e["effect"] for e in entries], [e["effect_low"] for e in entries],
                [e["effect_high"] for e in entries], "with minus without")
    centre = share or 0.0
    return (entries, [e["rate"] - centre for e in entries],
            [e["low"] - centre for e in entries], [e["high"] - centre for e in entries],
            f"minus the fair share {_pct(share)}" if share else "")


def win_rate_plot(cell: dict[str, Any]) -> str:
    """One panel a group of two or more: bars from the point of no difference (the
    fair share, or 0 for with minus without) with their 95% intervals, in the order
    of the group's table (per-unit groups by effect, largest first), on a scale
    that fits the intervals, so the few points that matter show."""
    plt = _pyplot()
    panels = [(g, *_panel(cell, g)) for g in GROUPS if len(cell["win_rate"][g]) > 1]
    panels = [p for p in panels if len(p[1]) > 1]
    if not panels:
        return ""
    heights = [max(1.2, 0.28 * len(p[1]) + 0.8) for p in panels]
    fig, axes = plt.subplots(len(panels), 1, figsize=(8, sum(heights)),
                             gridspec_kw={"height_ratios": heights}, squeeze=False)
    for ax, (group, entries, values, lows, highs, centre) in zip(axes[:, 0], panels,
                                                                 strict=True):
        ys = list(range(len(entries)))
        errors = [[max(0.0, v - lo) for v, lo in zip(values, lows, strict=True)],
                  [max(0.0, hi - v) for v, hi in zip(values, highs, strict=True)]]
        solo = cell["fair_share"] is None and group not in CORRECTED
        ax.barh(ys, values, xerr=errors, color=[COLORS[e["flag"]] for e in entries],
                capsize=3, height=0.6)
        if solo:
            ax.set_xlim(0, 1)
        else:
            reach = max(0.05, *(abs(x) for x in (*lows, *highs) if math.isfinite(x)))
            ax.set_xlim(-1.1 * reach, 1.1 * reach)
            ax.axvline(0, color="#555", linestyle="--", linewidth=1)
            ax.xaxis.set_major_formatter(
                lambda x, _: f"{100 * x:+.0f}" if abs(x) > 1e-9 else "0")
        ax.set_yticks(ys, [e["key"] for e in entries], fontsize=8)
        ax.invert_yaxis()
        what = "win rate" if solo else f"win rate {centre}, points"
        ax.set_title(f"{GROUPS[group]}: {what}", fontsize=10, loc="left")
    axes[-1, 0].set_xlabel("bars: 95% intervals (Wilson; Newcombe for with minus without); "
                           "dashed: no difference", fontsize=8)
    fig.tight_layout()
    return _png(fig)


def _histogram(counts: dict[str, int], low: int, width: int, bins: int) -> list[int]:
    result = [0] * bins
    for value, count in counts.items():
        result[(int(float(value)) - low) // width] += count
    return result


def _bin_width(values: set[int], low: int, high: int) -> int:
    """A bin width that is a multiple of the values' common step (a line scored 3 a
    book takes every third value: bins of 1 would be a comb of empty bins), with at
    most about 30 bins."""
    step = 0
    for value in values:
        step = math.gcd(step, value - low)
    step = max(1, step)
    return step * max(1, -(-(high - low + 1) // (30 * step)))


FEW_VALUES = 12  # a line taking at most this many values is drawn value by value


def _values_panel(ax: Any, cells: Sequence[dict[str, Any]], line: str,
                  values: list[int]) -> None:
    """A line that takes a few scattered values (the awards of B2: 0, 4, 9, 15...):
    a stem at each value it takes, a variant's stems side by side, no empty bins."""
    gap = min((b - a for a, b in pairwise(values)), default=1)
    shift = 0.6 * gap / max(1, len(cells))
    for i, cell in enumerate(cells):
        n = cell["lines"][line]["n"] or 1
        counts = {int(float(k)): c for k, c in cell["lines"][line]["counts"].items()}
        xs = [v + (i - (len(cells) - 1) / 2) * shift for v in values]
        shares = [counts.get(v, 0) / n for v in values]
        color = f"C{i}"
        ax.vlines(xs, 0, shares, color=color, linewidth=2)
        ax.plot(xs, shares, "o", color=color, markersize=3, label=cell["variant"])
    ax.set_title(f"{line} (each value)", fontsize=9)
    ax.set_ylim(bottom=0)
    ax.tick_params(labelsize=7)


def lines_plot(cells: Sequence[dict[str, Any]]) -> str:
    """Small multiples: each form line's distribution (lines that never vary are left
    out), one step curve a variant, zeros filled in, bins a multiple of the line's
    step."""
    plt = _pyplot()
    shown = []
    for line in LINES:
        values = {int(float(k)) for c in cells for k in c["lines"][line]["counts"]}
        if len(values) > 1:
            low, high = min(values), max(values)
            shown.append((line, low, high, _bin_width(values, low, high)))
    if not shown:
        return ""
    columns = 4
    rows = max(1, -(-len(shown) // columns))
    fig, axes = plt.subplots(rows, columns, figsize=(11, 2.3 * rows), squeeze=False)
    for ax, (line, low, high, width) in zip(axes.flat, shown, strict=False):
        values = sorted({int(float(k)) for c in cells for k in c["lines"][line]["counts"]})
        if len(values) <= FEW_VALUES and len(values) < (high - low) // width + 1:
            _values_panel(ax, cells, line, values)
            continue
        count = (high - low) // width + 1
        for cell in cells:
            n = cell["lines"][line]["n"] or 1
            bins = _histogram(cell["lines"][line]["counts"], low, width, count)
            xs = [low + i * width for i in range(len(bins) + 1)]
            shares = [b / n for b in bins]
            ax.step(xs, [*shares, shares[-1]], where="post", label=cell["variant"])
        ax.set_title(line + (f" (bins of {width})" if width > 1 else ""), fontsize=9)
        ax.tick_params(labelsize=7)
    for ax in list(axes.flat)[len(shown):]:
        ax.axis("off")
    if len(cells) > 1:
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
    if len(cells) > 1:
        ax.legend(fontsize=8)
    fig.tight_layout()
    return _png(fig)


def difference_plot(comparison: dict[str, Any]) -> str:
    """Two panels: differences in points (and rounds), differences in win rates,
    each on its own scale."""
    plt = _pyplot()
    kinds = [("mean", "points or rounds"), ("rate", "win rate")]
    panels = [(label, [m for m in comparison["measures"]
                       if m["kind"] == kind and math.isfinite(m["low"])
                       and m["low"] != m["high"]]) for kind, label in kinds]
    panels = [(label, entries) for label, entries in panels if entries]
    if not panels:
        return ""
    heights = [0.3 * len(entries) + 0.9 for _, entries in panels]
    fig, axes = plt.subplots(len(panels), 1, figsize=(7, sum(heights)), squeeze=False,
                             gridspec_kw={"height_ratios": heights})
    for ax, (label, entries) in zip(axes[:, 0], panels, strict=True):
        ys = list(range(len(entries)))
        colors = [SIGNIFICANT["up" if m["difference"] > 0 else "down"] if m["significant"]
                  else COLORS[None] for m in entries]
        for y, m, color in zip(ys, entries, colors, strict=True):
            ax.errorbar([m["difference"]], [y], fmt="o", color=color, capsize=3,
                        xerr=[[max(0.0, m["difference"] - m["low"])],
                              [max(0.0, m["high"] - m["difference"])]])
        ax.axvline(0, color="#555", linestyle="--", linewidth=1)
        ax.set_yticks(ys, [m["measure"] for m in entries], fontsize=8)
        ax.invert_yaxis()
        how = "paired" if comparison.get("paired_games") else "unpaired"
        ax.set_xlabel(f"{comparison['variant']} minus {comparison['first']}, {label} "
                      f"(95% {how} interval)", fontsize=8)
    fig.tight_layout()
    return _png(fig)


# ------------------------------------------------------------------ html

def _e(value: Any) -> str:
    return html.escape(str(value))


def _flag_text(flag: str | None, per_unit: bool = False) -> str:
    if per_unit:
        return {"above": "wins more with it", "below": "wins less with it"}.get(flag or "", "")
    return {"above": "above fair share", "below": "below fair share"}.get(flag or "", "")


def _rate_table(group: str, entries: Sequence[dict[str, Any]], label: str,
                share: float | None, test: str = "") -> str:
    per_unit = group in CORRECTED
    rows = []
    for e in _sorted(group, entries):
        css = f' class="{e["flag"]}"' if e["flag"] else ""
        cells = [f"<td>{_e(e['key'])}</td><td>{e['n']}</td>"]
        if per_unit:
            cells.append(f"<td>{_pct(e.get('share_of_seats', 0.0))}</td>")
        cells.append(f"<td>{e['wins']:g}</td><td{css}>{_pct(e['rate'])}</td>"
                     f"<td>{_pct(e['low'])} - {_pct(e['high'])}</td>")
        if per_unit:
            effect = e.get("effect")
            cells.append(f"<td>{'-' if e.get('without') is None else _pct(e['without'])}"
                         f" <span class=note>({e.get('without_n', 0)})</span></td>"
                         + (f"<td{css}>{100 * effect:+.1f} pts [{100 * e['effect_low']:+.1f}, "
                            f"{100 * e['effect_high']:+.1f}]</td>" if effect is not None
                            else "<td>-</td>"))
        if "p_holm" in e:
            cells.append(f"<td>{e['p']:.3g}</td><td>{e['p_holm']:.3g}</td>")
        if share is not None or per_unit:
            cells.append(f"<td{css}>{_flag_text(e['flag'], per_unit)}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    head = [f"<th>{_e(label)}</th><th>seats</th>"]
    if per_unit:
        head.append("<th>share of seats</th>")
    head.append("<th>wins</th><th>win rate</th><th>95% interval</th>")
    if per_unit:
        head.append("<th>win rate without (seats)</th><th>with minus without [95%]</th>")
    if any("p_holm" in e for e in entries):
        head.append("<th>p</th><th>p (Holm)</th>")
    if per_unit:
        head.append("<th>with against without</th>")
    elif share is not None:
        head.append(f"<th>fair share {_pct(share)}</th>")
    caption = f"<p class=note>{_e(label)}: test {_e(test)}.</p>" if test else ""
    return caption + "<table><tr>" + "".join(head) + "</tr>" + "".join(rows) + "</table>"


def _small(n: int, what: str) -> str:
    return (f"<p class=below>A small sample: {n} {what} (fewer than {SMALL_SAMPLE}). The "
            "tests are exact (binomial, sign, Fisher, multinomial) or Student's t, but "
            "only large differences can show.</p>")


def _by_round_html(cell: dict[str, Any]) -> str:
    """Game quality round by round (Ludii's measures over time)."""
    if not cell.get("by_round"):
        return ""

    def num(x: float | None, fmt: str) -> str:
        return "-" if x is None else format(x, fmt)

    rows = "".join(
        f"<tr><td>{r['round']}</td><td>{r['games']}</td>"
        f"<td>{num(r['winner_behind'], '.2f')}</td>"
        f"<td>{'-' if r['winner_trailing'] is None else _pct(r['winner_trailing'])}</td>"
        f"<td>{'-' if r['lead_changes'] is None else _pct(r['lead_changes'])}</td>"
        f"<td>{num(r['decisions_per_turn'], '.2f')}</td>"
        f"<td>{num(r['options_per_decision'], '.1f')}</td></tr>"
        for r in cell["by_round"])
    return ("<table><tr><th>round</th><th>games</th><th>drama: the winner's points "
            "behind the leader</th><th>winner trailing</th><th>lead changed</th>"
            "<th>decisions a turn</th><th>options a decision (branching)</th></tr>"
            + rows + "</table>")


def _ratings_html(ratings: dict[str, Any] | None) -> str:
    if not ratings:
        return ""
    rows = "".join(f"<tr><td>{_e(a['agent'])}</td><td>{a['games']}</td>"
                   f"<td>{a['elo']:+.0f}</td><td>{a['low']:+.0f} to {a['high']:+.0f}</td>"
                   "</tr>" for a in ratings["agents"])
    pairs = "; ".join(f"{_e(p['agent'])} scored {p['score']:g} of {p['of']:g} against "
                      f"{_e(p['opponent'])}" for p in ratings["pairs"])
    return ("<h4>Ratings</h4><table><tr><th>agent</th><th>seats</th><th>Elo</th>"
            f"<th>95% interval</th></tr>{rows}</table><p class=note>{_e(ratings['method'])}"
            f". Head to head: {pairs}.</p>")


def _measures_html(cell: dict[str, Any]) -> str:
    m = cell["measures"]
    rounds = cell["rounds"]
    items = [f"completion {_pct(m['completion'])} ({m['stalled']} stalled"
             + (f": seeds {', '.join(str(s) for s in m['stalled_seeds'][:10])}"
                if m["stalled_seeds"] else "") + ")",
             f"first place shared {_pct(m['ties_shared'])}, settled by a tiebreaker "
             f"{_pct(m['settled_by_tiebreaker'])}",
             f"game length {rounds['mean']:.2f} rounds (sd {rounds['sd']:.2f}, "
             f"{rounds['quantiles']['p5']:g} - {rounds['quantiles']['p95']:g})",
             f"decisiveness: the winner led the runner-up by "
             f"{m['decisiveness']['mean']:.1f} points on average (median "
             f"{m['decisiveness']['quantiles']['p50']:g})",
             f"score by round: the lead changed {m['lead_changes']['mean']:.2f} times a "
             f"game; the winner trailed the leader at a round's end by up to "
             f"{m['winner_behind']['mean']:.1f} points on average, and won from behind "
             f"in {_pct(m['won_from_behind'])} of games",
             f"{m['decisions_per_turn']:.2f} decisions a turn, "
             f"{m['options_per_decision']:.1f} options a decision"]
    if "balance" in m:
        items.insert(0, f"balance {m['balance']:.3f} (1 minus the largest gap between "
                        f"seat positions' win rates); first-player advantage "
                        f"{100 * m['first_player_advantage']:+.1f} points over the fair "
                        f"share")
        test = ("the exact multinomial test" if m.get("seat_test") == "exact"
                else "Pearson's chi-squared test")
        items.insert(1, f"seats: {test} over every seat position, p = {m['seat_p']:.3g} "
                        f"(chi-squared {m['seat_chi2']:.2f} on {m['seat_df']} degrees of "
                        "freedom)"
                        + (" (the positions do not win equally)" if m["seat_p"] < 0.05
                           else ""))
    if m.get("drama") is not None:
        items.append(f"drama: the winner was {m['drama']:.2f} points behind the leader at "
                     "a round's end on average (round by round below)")
    agents = "; ".join(f"{_e(a)}: {v['options_per_decision']:.1f} options and "
                       f"{1000 * v['thinking_per_decision']:.2f} ms a decision "
                       f"(slowest {1000 * v.get('slowest_decision', 0.0):.0f} ms)"
                       for a, v in m["per_agent"].items())
    if agents:
        items.append(f"by agent: {agents}")
    return "<ul>" + "".join(f"<li>{i}</li>" for i in items) + "</ul>"


def _cell_html(cell: dict[str, Any]) -> str:
    parts = [f"<h3>{_e(cell['variant'])}, {cell['players']} players: {cell['games']} games"
             "</h3>"]
    if cell.get("small_sample"):
        parts.append(_small(cell["games"], "games"))
    parts.append(_measures_html(cell))
    if cell["fair_share"] is None:
        parts.append("<p class=note>Solo: the seat plays against the automa, so there is "
                     "no fair share and nothing is flagged.</p>")
    if cell.get("library_is_assistant"):
        parts.append("<p class=note>Each library came with its own special assistant here: "
                     "the library and special-assistant rows measure one thing twice.</p>")
    tests = cell.get("tests", {})
    for group, label in GROUPS.items():
        if cell["win_rate"][group]:
            parts.append(_rate_table(group, cell["win_rate"][group], label,
                                     cell["fair_share"], tests.get(group, "")))
    parts.append(win_rate_plot(cell))
    parts.append(_ratings_html(cell.get("ratings")))
    parts.append("<h4>Round by round</h4>" + _by_round_html(cell))
    return "\n".join(p for p in parts if p)


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
        balance = c["measures"].get("balance")
        rows.append(f"<tr><td>{_e(c['variant'])}</td><td>{c['players']}</td>"
                    f"<td>{c['games']}</td><td>{agents}</td><td>{first}</td>"
                    f"<td>{'-' if balance is None else f'{balance:.3f}'}</td>"
                    f"<td>{c['lines']['total']['mean']:.1f}</td>"
                    f"<td>{c['rounds']['mean']:.2f}</td></tr>")
    return ("<h2>At a glance</h2><table><tr><th>variant</th><th>players</th><th>games</th>"
            "<th>win rate by agent [95%]</th><th>first position's win rate</th>"
            "<th>balance</th><th>mean total</th><th>mean rounds</th></tr>"
            + "".join(rows) + "</table><p class=note>The agents' win rates form a skill "
            "ladder of the bots that played; every conclusion of this report holds for "
            "those bots, not for people.</p>")


def _comparison_html(comparison: dict[str, Any]) -> str:
    rows = []
    paired = comparison.get("paired_games", 0)
    for m in comparison["measures"]:
        rate = m["kind"] == "rate"
        fmt = _pct if rate else (lambda x: f"{x:.2f}")
        css = ""
        if m["significant"]:
            css = f' class="{"up" if m["difference"] > 0 else "down"}"'
        sign = "+" if m["difference"] >= 0 else ""
        how = "" if m.get("paired") else " <span class=note>(unpaired: no common deal)</span>"
        unpaired = (f"{fmt(m['unpaired_low'])} to {fmt(m['unpaired_high'])}"
                    if math.isfinite(m["unpaired_low"]) else "-")
        tests = (m["test"] if m.get("test") else
                 f"t {m['p_t']:.3g}, sign {m['p_sign']:.3g}" if "p_t" in m else "-")
        rows.append(f"<tr><td>{_e(m['measure'])}</td><td>{fmt(m['first'])}</td>"
                    f"<td>{fmt(m['value'])}</td><td{css}>{sign}{fmt(m['difference'])}</td>"
                    f"<td>{fmt(m['low'])} to {fmt(m['high'])}{how}</td>"
                    f"<td class=note>{unpaired}</td><td class=note>{tests}</td>"
                    f"<td>{'-' if m.get('p_holm') is None else format(m['p_holm'], '.3g')}"
                    "</td>"
                    f"<td{css}>{'yes' if m['significant'] else ''}</td></tr>")
    facts = []
    if comparison.get("winner_changed") is not None:
        facts.append(f"the winner changed on {_pct(comparison['winner_changed'])} of "
                     f"{paired} deals")
        facts.append(f"the same seat played first on "
                     f"{_pct(comparison['same_first_player'])} of them")
    else:
        facts.append("no deal was played under both rules: pairing is impossible, the "
                     "intervals are unpaired")
    small = _small(paired, "deals played under both") if comparison.get("small_sample") else ""
    return (f"<h3>{_e(comparison['variant'])} against {_e(comparison['first'])}, "
            f"{comparison['players']} players</h3>{small}<p>Paired over {paired} deals (the "
            f"same game numbers: the same seeds and seats): {'; '.join(facts)}.</p>"
            f"<table><tr><th>measure</th><th>{_e(comparison['first'])}</th>"
            f"<th>{_e(comparison['variant'])}</th><th>difference</th>"
            f"<th>95% interval, paired</th><th>unpaired, for reference</th>"
            f"<th>p: paired t, sign</th><th>p (Holm, larger of the two)</th>"
            f"<th>significant</th></tr>" + "".join(rows) + "</table>"
            + difference_plot(comparison))


def _run_html(run: dict[str, Any]) -> str:
    bits = []
    for key, label in (("seed", "seed"), ("seats", "bots"), ("games", "games a cell"),
                       ("version", "exlibris"), ("made_by", "rows made by exlibris"),
                       ("backend", "backend"), ("workers", "workers")):
        value = run.get(key)
        if value not in (None, "", []):
            bits.append(f"{label} {_e(','.join(value) if isinstance(value, list) else value)}")
    if run.get("command"):
        bits.append("command: <code>exlibris " + _e(" ".join(run["command"])) + "</code>")
    return "<p class=note>" + "; ".join(bits) + ".</p>" if bits else ""


def render(figures: dict[str, Any], preface: str = "", title: str = "balance report") -> str:
    """The HTML page for ``figures`` (see :mod:`exlibris.simulate.figures`);
    ``preface``, HTML put before the figures (a tune's search)."""
    run = figures["run"]
    cells = figures["cells"]
    counts = sorted({c["players"] for c in cells})
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>exlibris "
             f"{_e(title)}</title><style>{STYLE}</style></head><body>",
             f"<h1>Ex Libris {_e(title)}</h1>", preface,
             f"<p>{_e(run.get('summary', ''))}</p>",
             _run_html(run),
             "<p class=note>Win rate: a player's share of wins (a tie no tiebreaker "
             "settles gives each tied player 1/k). Intervals are 95% Wilson score "
             "intervals. Every table has one test, which both orders it and flags it, "
             "corrected by Holm's method over the rows of the table (p &lt; 0.05 after "
             "correction): seat positions and agents, the exact binomial test against "
             "the fair share (1 / players), <span class=above>green</span> above and "
             "<span class=below>red</span> below it; libraries, assistants, locations "
             "and artifacts, Fisher's exact test of the seats holding the unit against "
             "the seats without it (restricted play), green where they win more, red "
             "where less. For libraries 'without' is the seats that were dealt the "
             "library and chose another, for locations the seats of games where it was "
             "on the board that did not visit it (rows that record availability; older "
             "rows: every other seat), so availability and choice are told apart; it "
             "still shows association, not cause. In comparisons of variants, "
             "<span class=up>blue</span> and <span class=down>orange</span> mark a "
             "significant rise or fall (paired t and sign tests, the larger p, Holm "
             "over the comparison's measures). Plots are centred where there is no "
             "difference: the fair share, or 0 for with minus without.</p>"]
    parts.append(_headline(cells))
    if run.get("skipped"):
        parts.append("<p class=note>Not played (the engine refuses them): "
                     + "; ".join(_e(note) for note in run["skipped"]) + ".</p>")
    if figures["comparisons"]:
        parts.append("<h2>Variants against the first</h2><p class=note>Every variant "
                     "plays the same game numbers, and each purpose of set-up has its "
                     "own seeded stream, so a variant shares with the first whatever "
                     "set-up its rules leave alone. Differences are paired by deal: the "
                     "mean of the per-game differences with Student's t interval, the "
                     "paired t-test and the sign test (means are per game, the average "
                     "of its players; a win rate per game is the seat's share of the "
                     "win); every seat position is compared, and the spread between "
                     "them (a paired bootstrap). Significant: the larger p-value of the "
                     "two tests below 0.05 after Holm's correction over the "
                     "comparison's measures. The unpaired interval is shown beside "
                     "it.</p>")
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


def write(path: Path, figures: dict[str, Any], preface: str = "",
          extra: dict[str, Any] | None = None, title: str = "balance report") -> Path:
    """Write the page to ``path`` and the figures (with ``extra`` beside them) to
    ``path`` with ``.json``, each atomically (an existing report stays whole if the
    disk refuses); returns the JSON file's path. ``OSError`` if a file cannot be
    written."""
    page = render(figures, preface, title)
    data = path.with_suffix(".json")
    write_atomic(data, json.dumps({**(extra or {}), **figures}, indent=1))
    write_atomic(path, page)
    return data
