"""The statistics' column contract, as the report reads it, and the wording shared by charts and summary.

``pipeline.stats.compute(name, data)`` returns one polars DataFrame per statistic. ``CONTRACT`` lists the
columns the report uses for each; ``conform`` makes any frame (even an empty one without columns) match
it, so the chart and summary functions never fail on a missing column, and turns NaN into null.

The small formatters here (``fmt_pct``, ``count_label``, ``setting_phrase`` ...) keep the page, the chart
labels and the written findings in the same words.
"""

from __future__ import annotations

import math

import polars as pl

STATISTICS: tuple[str, ...] = (
    "first_trick_value",
    "mano_advantage",
    "strength_curve",
    "stake_distribution",
    "raise_rates",
    "fold_rates",
    "bluff_success",
    "tie_frequency",
)
"""Every statistic the report shows, in page order."""

_STR = pl.String()
_INT = pl.Int64()
_FLOAT = pl.Float64()

_KEYS: dict[str, pl.DataType] = {"variant": _STR, "players": _INT}

CONTRACT: dict[str, dict[str, pl.DataType]] = {
    "first_trick_value": {
        **_KEYS,
        "hands": _INT,
        "p_win_won_first": _FLOAT,
        "ci_low_won_first": _FLOAT,
        "ci_high_won_first": _FLOAT,
        "p_win_lost_first": _FLOAT,
        "ci_low_lost_first": _FLOAT,
        "ci_high_lost_first": _FLOAT,
        "value": _FLOAT,
        "mean_points_won_first": _FLOAT,
        "mean_points_lost_first": _FLOAT,
        "points_value": _FLOAT,
    },
    "bluff_success": {
        **_KEYS,
        "stake": _INT,
        "raises": _INT,
        "bluffs": _INT,
        "bluff_rate": _FLOAT,
        "bluff_ci_low": _FLOAT,
        "bluff_ci_high": _FLOAT,
        "folded": _INT,
        "success_rate": _FLOAT,
        "success_ci_low": _FLOAT,
        "success_ci_high": _FLOAT,
        "called": _INT,
        "called_won": _INT,
        "called_won_rate": _FLOAT,
        "called_won_ci_low": _FLOAT,
        "called_won_ci_high": _FLOAT,
        "net_points_per_bluff": _FLOAT,
    },
    "fold_rates": {
        **_KEYS,
        "stake": _INT,
        "decile": _INT,
        "facing": _INT,
        "folds": _INT,
        "fold_rate": _FLOAT,
        "ci_low": _FLOAT,
        "ci_high": _FLOAT,
    },
    "mano_advantage": {
        **_KEYS,
        "hands": _INT,
        "eldest_wins": _INT,
        "win_rate": _FLOAT,
        "ci_low": _FLOAT,
        "ci_high": _FLOAT,
        "mean_points_eldest": _FLOAT,
        "mean_points_other": _FLOAT,
        "points_diff": _FLOAT,
    },
    "stake_distribution": {
        **_KEYS,
        "stake": _INT,
        "hands": _INT,
        "share": _FLOAT,
        "ci_low": _FLOAT,
        "ci_high": _FLOAT,
        "mean_points": _FLOAT,
        "mean_points_per_hand": _FLOAT,
    },
    "tie_frequency": {
        **_KEYS,
        "measure": _STR,
        "trick_no": _INT,
        "n": _INT,
        "count": _INT,
        "rate": _FLOAT,
        "ci_low": _FLOAT,
        "ci_high": _FLOAT,
    },
    "strength_curve": {
        **_KEYS,
        "decile": _INT,
        "n": _INT,
        "wins": _INT,
        "p_win": _FLOAT,
        "ci_low": _FLOAT,
        "ci_high": _FLOAT,
        "mean_net_points": _FLOAT,
    },
    "raise_rates": {
        **_KEYS,
        "decision": _STR,
        "stake": _INT,
        "trick_no": _INT,
        "chances": _INT,
        "count": _INT,
        "rate": _FLOAT,
        "ci_low": _FLOAT,
        "ci_high": _FLOAT,
    },
}

STAKE_NAMES: dict[int, str] = {1: "no raise", 2: "truc", 3: "retruc"}


def conform(name: str, frame: pl.DataFrame) -> pl.DataFrame:
    """Return ``frame`` with every contract column of statistic ``name`` present and NaN turned to null.

    Missing columns are added as typed nulls; integer and float columns are cast to Int64 and Float64
    (the statistics may return narrower types); extra columns are kept at the end.
    """
    columns = CONTRACT[name]
    missing = [pl.lit(None, dtype=dtype).alias(col) for col, dtype in columns.items() if col not in frame.columns]
    if missing:
        frame = frame.with_columns(missing)
    casts = []
    for col, dtype in columns.items():
        if dtype == _FLOAT:
            casts.append(pl.col(col).cast(_FLOAT, strict=False).fill_nan(None))
        elif dtype == _INT:
            casts.append(pl.col(col).cast(_INT, strict=False))
        else:
            casts.append(pl.col(col).cast(_STR, strict=False))
    frame = frame.with_columns(casts)
    extra = [c for c in frame.columns if c not in columns]
    return frame.select([*columns, *extra])


def is_missing(value: float | int | None) -> bool:
    """True for None and NaN."""
    return value is None or (isinstance(value, float) and math.isnan(value))


def fmt_int(n: int | None) -> str:
    """``1380`` -> ``"1,380"``; None -> ``"0"``."""
    return f"{0 if n is None else int(n):,}"


def fmt_pct(rate: float | None) -> str:
    """A rate in [0, 1] as a percentage: whole percent in the middle, one decimal near 0 and 1."""
    if is_missing(rate):
        return "n/a"
    assert rate is not None
    if rate in (0.0, 1.0) or 0.1 <= rate <= 0.9:
        return f"{rate:.0%}"
    return f"{rate:.1%}"


def fmt_points(x: float | None, signed: bool = False) -> str:
    """Points with two decimals, optionally with a sign."""
    if is_missing(x):
        return "n/a"
    return f"{x:+.2f}" if signed else f"{x:.2f}"


def count_label(count: int | None, total: int | None) -> str:
    """The sample size as a tracker shows it: ``"412/1,380"``."""
    return f"{fmt_int(count)}/{fmt_int(total)}"


def interval_label(low: float | None, high: float | None) -> str:
    """A 95% interval as ``"35.2%-41.0%"`` (one decimal, an en dash); ``"n/a"`` when unknown."""
    if is_missing(low) or is_missing(high):
        return "n/a"
    return f"{low:.1%}\u2013{high:.1%}"


def players_label(players: int | None) -> str:
    """``4`` -> ``"4 players"``."""
    return "unknown players" if players is None else f"{players} players"


def setting_phrase(variant: str | None, players: int | None) -> str:
    """``("catalan", 4)`` -> ``"4-player catalan"``."""
    who = "?-player" if players is None else f"{players}-player"
    return f"{who} {variant or 'unknown variant'}"


def stake_label(stake: int | None) -> str:
    """``2`` -> ``"2 (truc)"``; a stake without a common name is just its number."""
    if stake is None:
        return "unknown"
    name = STAKE_NAMES.get(stake)
    return f"{stake} ({name})" if name else str(stake)
