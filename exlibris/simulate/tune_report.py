"""The search of `exlibris simulate tune` on the page: a table of the candidates and
a plot of the objective against each setting, with 95% intervals."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from exlibris.simulate.report import _png, _pyplot


def _e(value: Any) -> str:
    return html.escape(str(value))


def objective_plot(summary: dict[str, Any], name: str) -> str:
    """The objective against one setting: each candidate a point with its bootstrap
    interval (hollow: stopped early, fewer games), the best in blue."""
    plt = _pyplot()
    candidates = summary["candidates"]
    values = [c["values"][name] for c in candidates]
    numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
    order = sorted(dict.fromkeys(values), key=lambda v: (str(type(v)), v)) if not numeric \
        else None
    fig, ax = plt.subplots(figsize=(6.5, 3.0))
    best_key = summary["best"]["key"]
    for c in candidates:
        x = c["values"][name] if numeric else order.index(c["values"][name])  # type: ignore[union-attr]
        stopped = bool(c["stopped"])
        color = "#1f5fbf" if c["key"] == best_key else "#4a6fa5" if not stopped else "#999"
        ax.errorbar([x], [c["objective"]], capsize=3, fmt="o", color=color,
                    mfc="white" if stopped else color,
                    yerr=[[max(0.0, c["objective"] - c["low"])],
                          [max(0.0, c["high"] - c["objective"])]])
    if not numeric:
        ax.set_xticks(range(len(order)), [str(v) for v in order])  # type: ignore[arg-type]
    ax.axhline(summary["base_objective"], color="#555", linestyle="--", linewidth=1)
    ax.set_xlabel(name)
    ax.set_ylabel("objective (lower is better)")
    ax.set_title(f"{' + '.join(summary['objective'])}; dashed: {summary['base']}; "
                 "hollow: stopped early", fontsize=9, loc="left")
    fig.tight_layout()
    return _png(fig)


def tune_html(summary: dict[str, Any], parameters: Sequence[Any]) -> str:
    names = [p.name for p in parameters]
    terms = list(summary["best"]["terms"])
    head = ("".join(f"<th>{_e(n)}</th>" for n in names) + "<th>games</th>"
            "<th>objective</th><th>95% interval</th>"
            + "".join(f"<th>{_e(t)}</th>" for t in terms) + "<th>stopped</th>")
    rows = []
    for c in sorted(summary["candidates"], key=lambda c: (-c["games"], c["objective"])):
        css = ' class="up"' if c["key"] == summary["best"]["key"] else ""
        rows.append(f"<tr{css}>" + "".join(f"<td>{_e(c['values'][n])}</td>" for n in names)
                    + f"<td>{c['games']}</td><td>{c['objective']:.4f}</td>"
                    f"<td>{c['low']:.4f} to {c['high']:.4f}</td>"
                    + "".join(f"<td>{c['terms'].get(t, float('nan')):.4f}</td>" for t in terms)
                    + f"<td class=note>{_e(c['stopped'])}</td></tr>")
    plots = "".join(objective_plot(summary, n) for n in names)
    best = ", ".join(f"{_e(k)} = {_e(v)}" for k, v in summary["best"]["values"].items())
    return (f"<h2>The search</h2><p>{_e(summary['method'])} over "
            f"{', '.join(_e(n) for n in names)} of {_e(summary['base'])} at "
            f"{summary['players']} players, seats {_e(','.join(summary['seats']))}, seed "
            f"{summary['seed']}; objective {_e(' + '.join(summary['objective']))}, "
            "minimised. Every candidate played the same game numbers (the same deals), "
            f"in stages of {', '.join(map(str, summary['stages']))} games; a candidate "
            "whose paired bootstrap interval of (its objective minus the best's) lay "
            "wholly above 0 stopped early. Intervals: 95% bootstrap percentile "
            f"intervals over the deals.</p><p><b>Best: {best}</b> (objective "
            f"{summary['best']['objective']:.4f}; {_e(summary['base'])}: "
            f"{summary['base_objective']:.4f}), written to "
            f"<code>{_e(summary['best_file'])}</code>.</p>"
            f"<table><tr>{head}</tr>{''.join(rows)}</table>{plots}"
            "<p class=note>With several settings, each plot shows every candidate against "
            "one of them (the others vary).</p>"
            "<h2>The best against the variant</h2>")
