"""The charts of game-level results: the headline chart of games won per policy, a match's two sides, a
tournament's win-rate matrix and ratings, a sweep's grid. Pure functions, data in, Altair chart out; each
has a stated width (an export needs one, and Vega-Lite's container sizing does not apply to facets).

The numbers are those the experiment commands computed and wrote (a match's manifest ``experiment.result``,
a tournament's or sweep's ``experiment.json``): nothing here recomputes them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

import altair as alt
import polars as pl

from pipeline.report.frames import GAMES, MIRROR, POLICY_NAME, conform, even_share, setting_phrase, with_policy_names

WIDTH: Final = 560
"""px: the plotting width of every chart here, which fits the page at 1,000 px with its labels."""

ROW: Final = 17
"""px: the height of one row (a policy, an entrant)."""

GAMES_CHART: Final = "games_won"
"""The headline chart's name: its files are ``charts/games_won.png`` and ``.svg``."""


def games_chart(frame: pl.DataFrame) -> alt.TopLevelMixin | None:
    """Each policy's share of its games won with its 95% interval, a row per setting and policy, the even
    share marked; mirrors are left out (their half holds by construction). None when no row has a rate."""
    named = with_policy_names(conform(GAMES, frame)).filter(~pl.col(MIRROR) & pl.col("win_rate").is_not_null())
    if named.is_empty():
        return None
    rows = [
        {
            "row": f"{setting_phrase(r['variant'], r['players'])} \u00b7 {r[POLICY_NAME]}",
            "win_rate": r["win_rate"],
            "ci_low": r["ci_low"],
            "ci_high": r["ci_high"],
            "even": even_share(r["players"]),
            "games": f"{r['games_won']:,}/{r['games']:,} games",
        }
        for r in named.sort("variant", "players", "win_rate", descending=[False, False, True]).iter_rows(named=True)
    ]
    return _interval_rows(rows, "Share of its games won (95% interval)", "even share")


def match_chart(result: Mapping[str, Any]) -> alt.TopLevelMixin:
    """A match's two policies: each one's games won with the match's interval (pairs as units), even share
    marked."""
    rows = [
        {
            "row": f"{side.upper()}: {result[side]['policy']}"[:60],
            "win_rate": result[side]["win_rate"],
            "ci_low": result[side]["ci_low"],
            "ci_high": result[side]["ci_high"],
            "even": 0.5,
            "games": f"{result[side]['games_won']:,}/{result[side]['games']:,} {result.get('unit', 'game')}s",
        }
        for side in ("a", "b")
    ]
    return _interval_rows(rows, "Share of the match's games won (95% interval over pairs)", "even share")


def _interval_rows(rows: Sequence[Mapping[str, Any]], title: str, null: str) -> alt.TopLevelMixin:
    data = alt.Data(values=list(rows))
    y = alt.Y("row:N", title=None, sort=None, axis=alt.Axis(labelLimit=360, labelFontSize=9))
    scale, axis = alt.Scale(domain=[0, 1]), alt.Axis(format="%")
    x = alt.X("win_rate:Q", title=title, scale=scale, axis=axis)
    base = alt.Chart(data).encode(y=y)
    rules = base.mark_rule(color="#222222").encode(
        x=alt.X("ci_low:Q", title=title, scale=scale, axis=axis), x2="ci_high:Q"
    )
    points = base.mark_point(filled=True, size=40, color="#4c78a8").encode(
        x=x, tooltip=["row:N", alt.Tooltip("win_rate:Q", format=".1%"), "games:N"]
    )
    even = base.mark_tick(color="#e45756", thickness=2, size=ROW - 6).encode(x="even:Q")
    labels = base.mark_text(align="left", dx=8, fontSize=9, color="#333333").encode(
        x=alt.X("ci_high:Q"), text="games:N"
    )
    return alt.layer(rules, even, points, labels).properties(
        width=WIDTH, height=ROW * len(rows), title=alt.Title(title, subtitle=f"red tick: the {null}", fontSize=12)
    )


def matrix_chart(labels: Sequence[str], matrix: Sequence[Sequence[float | None]]) -> alt.TopLevelMixin:
    """A tournament's (or a self-play sweep's) win rates: the row's entrant against the column's, as a heatmap
    with each cell's percentage."""
    names = [f"{k + 1}. {label}"[:48] for k, label in enumerate(labels)]
    cells = [
        {"row": names[i], "column": names[j], "win_rate": matrix[i][j]}
        for i in range(len(names))
        for j in range(len(names))
        if i != j and matrix[i][j] is not None
    ]
    size = max(36, min(80, WIDTH // max(1, len(names))))
    base = alt.Chart(alt.Data(values=cells)).encode(
        x=alt.X("column:N", title="against", sort=names, axis=alt.Axis(labelAngle=-30, labelLimit=200)),
        y=alt.Y("row:N", title="entrant", sort=names, axis=alt.Axis(labelLimit=260)),
    )
    heat = base.mark_rect().encode(
        color=alt.Color("win_rate:Q", title="win rate", scale=alt.Scale(scheme="redblue", domain=[0, 1], domainMid=0.5))
    )
    text = base.mark_text(fontSize=10).encode(text=alt.Text("win_rate:Q", format=".0%"))
    return alt.layer(heat, text).properties(width=size * len(names), height=size * len(names))


def sweep_chart(points: Sequence[Mapping[str, Any]], axes: Sequence[str], best: Mapping[str, Any] | None) -> alt.Chart:
    """A sweep's grid against its opponent: win rate with its interval along the first parameter (a line per
    value of the second, when there is one), the best point circled; or, against itself, the ratings."""
    rows = []
    for point in points:
        params = point.get("params") or {}
        row = {
            "x": params.get(axes[0]),
            "series": ", ".join(f"{a}={params.get(a)}" for a in axes[1:]) or "grid",
            "best": best is not None and params == best.get("params"),
        }
        if "win_rate" in point:
            row |= {"y": point["win_rate"], "low": point["ci_low"], "high": point["ci_high"]}
        else:
            row |= {"y": point.get("rating"), "low": point.get("rating_ci_low"), "high": point.get("rating_ci_high")}
        if row["y"] is not None and not point.get("mirror"):
            rows.append(row)
    rated = bool(points) and "win_rate" not in points[0]
    title = "Rating (Elo, 95% interval)" if rated else "Share of games won against the opponent (95% interval)"
    y = alt.Y("y:Q", title=title, axis=alt.Axis(format="d" if rated else "%"))
    base = alt.Chart(alt.Data(values=rows)).encode(
        x=alt.X("x:Q", title=axes[0], scale=alt.Scale(zero=False, padding=12)), color=alt.Color("series:N", title=None)
    )
    line = base.mark_line(point=True).encode(y=y)
    bars = base.mark_rule().encode(y=alt.Y("low:Q", title=title), y2="high:Q")
    star = (
        base.transform_filter("datum.best")
        .mark_point(size=260, shape="circle", color="#e45756", filled=False)
        .encode(y=y)
    )
    return alt.layer(bars, line, star).properties(width=WIDTH, height=260)  # type: ignore[return-value]
