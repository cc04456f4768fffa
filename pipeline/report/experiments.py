"""The report of a strategy experiment (``truc match``, ``truc tournament``, ``truc sweep``): its verdict, its
game-level results and its charts, read from what the experiment wrote. Pure functions but ``find``.

A match's result is its dataset's manifest ``experiment`` (kind ``match``); a tournament's or a sweep's is the
``experiment.json`` beside its runs (``pipeline.experiments.designs.EXPERIMENT_FILE``). Their numbers (the win
rate's t-interval over pairs, the margin, the ratings, the Nash mixture, the best point) are the experiment's
own (``pipeline.experiments.analysis``): the report shows them, it does not recompute them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import altair as alt

from pipeline import store
from pipeline.experiments.analysis import ALPHA, format_p
from pipeline.experiments.designs import EXPERIMENT_FILE, SWEEP, TOURNAMENT
from pipeline.report import experiment_charts
from pipeline.report.frames import fmt_int, fmt_pct, fmt_points, interval_label, setting_phrase

MATCH = "match"
"""A match's ``experiment.kind`` in its manifest (a tournament's and a sweep's matches have kinds of their own)."""


@dataclass(frozen=True)
class Experiment:
    """One experiment: its kind (``match``, ``tournament``, ``sweep``), where it was read, what it wrote, and the
    variant and player count it played."""

    kind: str
    label: str
    content: Mapping[str, Any]
    variant: str
    players: int


def find(data: Sequence[Path], manifests: Mapping[str, Mapping[str, Any]]) -> list[Experiment]:
    """The experiments among the report's inputs: a ``--data`` folder holding an ``experiment.json`` (a tournament,
    a sweep), and each dataset whose manifest holds a match's result."""
    found = []
    first = next(iter(manifests.values()), {})
    for folder in map(Path, data):
        content = store.read_json(folder / EXPERIMENT_FILE) if (folder / EXPERIMENT_FILE).is_file() else None
        if isinstance(content, Mapping) and content.get("kind") in (TOURNAMENT, SWEEP):
            below = [m for label, m in manifests.items() if Path(label).parent == folder] or [first]
            found.append(_experiment(str(content["kind"]), str(folder), content, below[0]))
    for label, manifest in manifests.items():
        experiment = manifest.get("experiment")
        if isinstance(experiment, Mapping) and experiment.get("kind") == MATCH and "result" in experiment:
            found.append(_experiment(MATCH, label, experiment, manifest))
    return found


def _experiment(kind: str, label: str, content: Mapping[str, Any], manifest: Mapping[str, Any]) -> Experiment:
    return Experiment(kind, label, content, str(manifest.get("variant") or "?"), int(manifest.get("players") or 2))


def verdict(experiment: Experiment) -> str:
    """The experiment's answer in one sentence, with its numbers."""
    content = experiment.content
    where = setting_phrase(experiment.variant, experiment.players)
    if experiment.kind == MATCH:
        result = content["result"]
        a, b = result["a"], result["b"]
        said = (
            f"In {where}, A ({a['policy']}) won {fmt_pct(a['win_rate'])} of {fmt_int(a['games'])} {result['unit']}s "
            f"against B ({b['policy']}) (95% interval {interval_label(a['ci_low'], a['ci_high'])} over "
            f"{fmt_int(result['pairs'])} pairs)"
        )
        if result.get("mirror"):
            return said + ": a mirror, A and B are the same policy, so the half holds by construction."
        p = result.get("p_value")
        if p is None or p >= ALPHA:
            call = "no clear difference"
        else:
            call = "A plays better" if a["win_rate"] > 0.5 else "B plays better"
        margin = result["margin"]
        return (
            f"{said}: {call} ({format_p(p)}); A scored {fmt_points(margin['mean'], signed=True)} points a game "
            f"against B (95% interval {fmt_points(margin['ci_low'], signed=True)} to "
            f"{fmt_points(margin['ci_high'], signed=True)})."
        )
    if experiment.kind == TOURNAMENT:
        policies = list(content.get("policies") or [])
        if not policies:
            return f"A tournament in {where} with no entrants."
        best = max(policies, key=lambda row: row["rating"])
        mixture = [f"{row['policy']} {fmt_pct(row['nash_weight'])}" for row in policies if row["nash_weight"] > 1e-6]
        return (
            f"In {where}, {best['policy']} rates highest of {len(policies)} entrants: {best['rating']:+.0f} Elo "
            f"(95% interval {best['rating_ci_low']:+.0f} to {best['rating_ci_high']:+.0f}); the meta-game's Nash "
            f"mixture plays {', '.join(mixture)}."
        )
    best = content.get("best")
    if isinstance(best, Mapping):
        params = " ".join(f"{k}={v}" for k, v in best["params"].items())
        return (
            f"In {where}, the best point of {content.get('policy')}'s grid is {params}: on fresh seeds it won "
            f"{fmt_pct(best['win_rate'])} of {fmt_int(best['games'])} games against {content.get('against')} "
            f"(95% interval {interval_label(best['ci_low'], best['ci_high'])}; {format_p(best.get('p_value'))})."
        )
    nash = content.get("nash") or []
    support = [" ".join(f"{k}={v}" for k, v in row["params"].items()) + f" {fmt_pct(row['weight'])}" for row in nash]
    return (
        f"In {where}, the grid of {content.get('policy')} against itself: its Nash mixture plays {', '.join(support)}."
    )


def chart(experiment: Experiment) -> tuple[str, alt.TopLevelMixin] | None:
    """The experiment's chart and its file name: a match's two sides, a tournament's matrix, a sweep's grid."""
    content = experiment.content
    if experiment.kind == MATCH:
        return "match", experiment_charts.match_chart(content["result"])
    if experiment.kind == TOURNAMENT:
        labels = [row["policy"] for row in content.get("policies") or []]
        return "tournament", experiment_charts.matrix_chart(labels, _matrix(labels, content.get("matrix") or []))
    axes = list((content.get("vary") or {}).keys())
    if not axes:
        return None
    if content.get("against") == "self" and content.get("matrix"):
        names = [" ".join(f"{k}={v}" for k, v in point["params"].items()) for point in content["points"]]
        labels = [f"{content.get('policy')} {name}" for name in names]
        return "sweep", experiment_charts.matrix_chart(names, _matrix(labels, content["matrix"]))
    return "sweep", experiment_charts.sweep_chart(content.get("points") or [], axes, content.get("best"))


def _matrix(labels: Sequence[str], matches: Sequence[Mapping[str, Any]]) -> list[list[float | None]]:
    """The row's win rate against the column's, from each match's ``a_win_rate`` (the column's is 1 minus it)."""
    index = {label: k for k, label in enumerate(labels)}
    rates: list[list[float | None]] = [[None] * len(labels) for _ in labels]
    for match in matches:
        i, j = index.get(match["a"]), index.get(match["b"])
        if i is None or j is None or match.get("a_win_rate") is None:
            continue
        rates[i][j], rates[j][i] = match["a_win_rate"], 1 - match["a_win_rate"]
    return rates


def table_rows(experiment: Experiment) -> tuple[list[str], list[list[str]]]:
    """The experiment's main table, as the commands' CSV gives it: a match's two sides, a tournament's entrants
    (rating, Nash weight, exploitability), a sweep's grid points."""
    content = experiment.content
    if experiment.kind == MATCH:
        result = content["result"]
        head = ["Side", "Policy", "Games won", "Win rate", "95% interval (pairs)"]
        rows = [
            [side.upper(), row["policy"], f"{fmt_int(row['games_won'])}/{fmt_int(row['games'])}",
             fmt_pct(row["win_rate"]), interval_label(row["ci_low"], row["ci_high"])]
            for side, row in (("a", result["a"]), ("b", result["b"]))
        ]  # fmt: skip
        return head, rows
    if experiment.kind == TOURNAMENT:
        head = ["Entrant", "Rating (Elo)", "95% interval", "Nash weight", "Exploitability"]
        rows = [
            [row["policy"], f"{row['rating']:+.0f}", f"{row['rating_ci_low']:+.0f} to {row['rating_ci_high']:+.0f}",
             fmt_pct(row["nash_weight"]), f"{row['exploitability']:+.3f}"]
            for row in sorted(content.get("policies") or [], key=lambda r: -r["rating"])
        ]  # fmt: skip
        return head, rows
    points = content.get("points") or []
    axes = list((content.get("vary") or {}).keys())
    if points and "win_rate" in points[0]:
        head = [*axes, "Win rate", "95% interval", "Margin (points)"]
        rows = [
            [*(str(p["params"].get(a)) for a in axes),
             "mirror" if p.get("mirror") else fmt_pct(p["win_rate"]),
             "" if p.get("mirror") else interval_label(p["ci_low"], p["ci_high"]),
             "" if p.get("mirror") else fmt_points(p["margin"], signed=True)]
            for p in points
        ]  # fmt: skip
        return head, rows
    head = [*axes, "Rating (Elo)", "95% interval", "Nash weight"]
    rows = [
        [*(str(p["params"].get(a)) for a in axes), f"{p['rating']:+.0f}",
         f"{p['rating_ci_low']:+.0f} to {p['rating_ci_high']:+.0f}", fmt_pct(p["nash_weight"])]
        for p in points
    ]  # fmt: skip
    return head, rows


def pairs_text(experiment: Experiment) -> str | None:
    """How the games were paired, as the experiment wrote it."""
    if experiment.kind != MATCH:
        return None
    content = experiment.content
    if not content.get("paired", True):
        return "Unpaired: the second game of each pair was played on a seed of its own."
    pairing = str(content.get("pairing") or "")
    ratio = content["result"].get("variance_ratio")
    said = f"{fmt_int(content.get('pairs'))} pairs: {pairing}."
    if ratio is not None:
        said += (
            f" Variance ratio {ratio:.2f} (the variance of the win rate's estimate if the games were independent, over"
            " its variance with pairs as units; above 1, pairing helped)."
        )
    return said
