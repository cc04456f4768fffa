"""What the experiment commands print: the answer first, then the details, as text, CSV or JSON.

JSON is the whole result (the same object a match's manifest, or a tournament's or sweep's ``experiment.json``,
holds). CSV is the main table: a match's two sides, a tournament's entrants, a sweep's grid points. The text
opens with the verdict in one line and goes on with what backs it.
"""

from __future__ import annotations

import json
from typing import Any, Final

import polars as pl

from pipeline.experiments.analysis import PairedMatch, format_p
from pipeline.experiments.designs import MatchResult, RoundRobin, SweepResult
from pipeline.names import counted
from pipeline.printable import escaped
from pipeline.stats import check_format, render


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def _interval(low: float | None, high: float | None, percent: bool = True) -> str:
    if low is None or high is None:
        return "[-]"
    if percent:
        return f"[{100 * low:.1f}, {100 * high:.1f}]"
    return f"[{low:+.2f}, {high:+.2f}]"


def _p(p: float | None) -> str:
    return "p = -" if p is None else format_p(p)


def headline(analysed: PairedMatch, games: int, unit: str, mirror: bool, a_name: str = "A", b_name: str = "B") -> str:
    """The answer in one line: ``A wins 52.7% [51.7, 53.7] of 10,000 games (5,000 pairs): A better, p < 0.001``."""
    units = (
        counted(games, unit) if unit == "game" else f"{counted(2 * analysed.pairs, unit)} ({counted(games, 'game')})"
    )
    said = (
        f"{a_name} wins {_pct(analysed.win_rate)} {_interval(analysed.ci_low, analysed.ci_high)} of {units} "
        f"({counted(analysed.pairs, 'pair')})"
    )
    if mirror:
        return f"{said}: mirror, {a_name} and {b_name} are the same policy, so 50% holds by construction"
    better = analysed.better()
    call = "no clear difference" if better is None else f"{a_name if better == 'a' else b_name} better"
    return f"{said}: {call}, {_p(analysed.p_value)}"


def match_text(result: MatchResult, out: str) -> str:
    a = result.analysed
    o = result.outcome
    unit = "rubber" if result.rubbers else "game"
    lines = [
        headline(a, o.games, unit, o.mirror),
        f"margin: A scores {a.margin_mean:+.3f} points a game {_interval(a.margin_ci_low, a.margin_ci_high, False)} "
        f"against B ({_p(a.margin_p_value)})",
    ]
    disagreement = a.disagreement()
    if disagreement and not o.mirror:
        lines.append(f"note: {disagreement}")
    if a.variance_ratio is not None and o.match.paired:
        lines.append(
            f"pairing: variance ratio {a.variance_ratio:.2f} (the variance of the win rate's estimate if the games "
            "were independent, over its variance with pairs as units; above 1, pairing helped)"
        )
    elif not o.match.paired:
        lines.append("pairing: off (the two games of a pair were played on seeds of their own)")
    lines += [
        f"A: {escaped(o.a_label)}",
        f"B: {escaped(o.b_label)}",
        f"games won: A {o.a_games_won:,}, B {o.games - o.a_games_won:,} of {o.games:,}; {o.hands:,} hands; "
        f"dataset: {escaped(out)}",
    ]
    return "\n".join(lines)


def match_output(result: MatchResult, format: str, out: str) -> str:
    if check_format(format) == "json":
        return json.dumps(result.to_json())
    if format == "csv":
        found = result.to_json()
        rows = [
            {"side": side, **{k: v for k, v in found[side.lower()].items()}, "mirror": found["mirror"]}
            for side in ("A", "B")
        ]
        return render(pl.DataFrame(rows), "csv")
    return match_text(result, out)


def _rating_frame(found: RoundRobin) -> pl.DataFrame:
    return pl.DataFrame(
        [
            {
                "entrant": k + 1,
                "policy": row["policy"],
                "rating": round(row["rating"], 1),
                "rating_ci_low": round(row["rating_ci_low"], 1),
                "rating_ci_high": round(row["rating_ci_high"], 1),
                "nash_weight": round(row["nash_weight"], 4),
                "nash_frequency": round(row["nash_frequency"], 3),
                "exploitability": round(row["exploitability"], 4),
            }
            for k, row in enumerate(found.to_json()["policies"])
        ]
    )


def _matrix_frame(found: RoundRobin) -> pl.DataFrame:
    n = len(found.entrants)
    rates = found.table.win_rates
    cells: dict[str, list[Any]] = {"row against column": [str(k + 1) for k in range(n)]}
    for j in range(n):
        cells[str(j + 1)] = ["-" if i == j else f"{100 * rates[i][j]:.1f}%" for i in range(n)]
    return pl.DataFrame(cells)


def tournament_output(found: RoundRobin, format: str, out: str) -> str:
    if check_format(format) == "json":
        return json.dumps(found.to_json())
    if format == "csv":
        return render(_rating_frame(found), "csv")
    ranked = sorted(range(len(found.entrants)), key=lambda k: -found.ratings[k])
    best = ranked[0]
    lines = [
        f"{escaped(found.labels[best])} (entrant {best + 1}) rates highest: {found.ratings[best]:+.0f} Elo "
        f"[{found.table.rating_low[best]:+.0f}, {found.table.rating_high[best]:+.0f}], over "
        f"{counted(len(found.matches), 'match')} of {counted(found.matches[0].outcome.games, 'game')}",
        "",
        "Entrants (ratings: Bradley-Terry in Elo points, mean 0, 95% bootstrap intervals; nash_weight: the "
        "meta-game's Nash mixture; exploitability: the best reply's win rate against it, minus 1/2):",
        render(_rating_frame(found), "table"),
        "",
        "Win rate of the row's entrant against the column's:",
        render(_matrix_frame(found), "table"),
        f"datasets: {escaped(out)}/match-*",
    ]
    return "\n".join(lines)


MIRROR_RESULTS: Final = ("win_rate", "ci_low", "ci_high", "margin", "margin_ci_low", "margin_ci_high", "p_value")
"""A grid point's results that hold by construction when the point is the opponent itself (a mirror)."""


def _point_frame(found: SweepResult, decimals: int | None = None) -> pl.DataFrame:
    """One row per grid point: its parameters, then its results. For the eye (``decimals`` given), numbers
    are rounded and a mirror point's results read ``mirror``."""
    rows = []
    for row in found.point_rows():
        flat = {**row.pop("params"), **row}
        if decimals is not None:
            flat = {k: round(v, decimals) if isinstance(v, float) else v for k, v in flat.items()}
            if flat.get("mirror"):
                flat |= dict.fromkeys(MIRROR_RESULTS, "mirror")
            flat = {k: str(v) if k in MIRROR_RESULTS else v for k, v in flat.items()}
        rows.append(flat)
    return pl.DataFrame(rows)


def sweep_output(found: SweepResult, format: str, out: str) -> str:
    if check_format(format) == "json":
        return json.dumps(found.to_json())
    if format == "csv":
        return render(_point_frame(found), "csv")
    lines = []
    if found.best is not None and found.confirm is not None:
        c = found.confirm.analysed
        best = found.to_json()["best"]
        params = " ".join(f"{k}={v}" for k, v in found.points[found.best].items())
        games = counted(found.confirm.outcome.games, "game")
        lines += [
            f"best point: {params}: it won {_pct(best['grid_win_rate'])} of the grid's games against {found.against}, "
            f"and {_pct(c.win_rate)} {_interval(c.ci_low, c.ci_high)} of {games} on fresh seeds",
            f"best-response margin of {found.against} within this family: {100 * best['margin']:+.1f} points of win "
            f"rate {_interval(best['margin_ci_low'], best['margin_ci_high'])} ({_p(c.p_value)})",
            "",
        ]
    elif found.population is not None:
        support = [
            (" ".join(f"{k}={v}" for k, v in found.points[i].items()), w)
            for i, w in enumerate(found.population.nash)
            if w > 1e-6
        ]
        lines += [
            "the grid's Nash mixture: " + ", ".join(f"{name} {100 * w:.1f}%" for name, w in support),
            "",
        ]
    lines += [f"{counted(len(found.points), 'grid point')} of {found.base}, against {found.against}:"]
    lines.append(render(_point_frame(found, 4), "table"))
    lines.append(f"datasets: {escaped(out)}/point-*" + ("" if found.confirm is None else f", {escaped(out)}/confirm"))
    return "\n".join(lines)
