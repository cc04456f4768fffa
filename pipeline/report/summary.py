"""Short written findings, computed from the statistics' frames: pure functions, no I/O.

Each function takes one statistic's frame and returns a list of plain-English sentences, one or more per
variant and player count, with the numbers and sample sizes they rest on, e.g. "Winning the first trick
raises the chance to win the hand from 38% to 81% (4-player catalan, 9,120 hands)." Empty frames, groups
with ``n = 0`` and null rates give no sentence rather than a wrong one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

import polars as pl

from pipeline.report.frames import (
    STATISTICS,
    conform,
    count_label,
    fmt_int,
    fmt_pct,
    fmt_points,
    interval_label,
    is_missing,
    setting_phrase,
    stake_label,
)

Row = dict[str, Any]
Summarizer = Callable[[pl.DataFrame], list[str]]


def _join(items: list[str]) -> str:
    """``["a", "b", "c"]`` -> ``"a, b and c"``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _groups(frame: pl.DataFrame, *keys: str) -> Iterator[tuple[tuple[Any, ...], list[Row]]]:
    """Rows grouped by ``variant``, ``players`` and ``keys``, groups and rows in sorted order."""
    by = ["variant", "players", *keys]
    rows = frame.sort(by, nulls_last=True).to_dicts()
    current: tuple[Any, ...] | None = None
    bucket: list[Row] = []
    for row in rows:
        key = tuple(row[k] for k in by)
        if key != current and bucket:
            assert current is not None
            yield current, bucket
            bucket = []
        current = key
        bucket.append(row)
    if bucket and current is not None:
        yield current, bucket


def _has_rate(row: Row, rate: str, total: str) -> bool:
    return not is_missing(row.get(rate)) and not is_missing(row.get(total)) and row[total] > 0


def first_trick_value(frame: pl.DataFrame) -> list[str]:
    """How much winning the first trick changes the chance to win the hand, and the points scored."""
    df = conform("first_trick_value", frame)
    out: list[str] = []
    for (variant, players), rows in _groups(df):
        for row in rows:
            won, lost = row["p_win_won_first"], row["p_win_lost_first"]
            if is_missing(won) or is_missing(lost) or not row["hands"]:
                continue
            where = f"({setting_phrase(variant, players)}, {fmt_int(row['hands'])} hands)"
            if fmt_pct(won) == fmt_pct(lost):
                text = f"Winning the first trick leaves the chance to win the hand at {fmt_pct(won)} {where}."
            else:
                verb = "raises" if won > lost else "lowers"
                text = (
                    f"Winning the first trick {verb} the chance to win the hand "
                    f"from {fmt_pct(lost)} to {fmt_pct(won)} {where}."
                )
            pts_won, pts_lost = row["mean_points_won_first"], row["mean_points_lost_first"]
            if not is_missing(pts_won) and not is_missing(pts_lost):
                text += (
                    f" A team scored {fmt_points(pts_won)} points a hand on average after winning it and "
                    f"{fmt_points(pts_lost)} after losing it ({fmt_points(pts_won - pts_lost, signed=True)})."
                )
            out.append(text)
    return out


def mano_advantage(frame: pl.DataFrame) -> list[str]:
    """How often the eldest hand's team wins, and whether the interval excludes an even chance."""
    df = conform("mano_advantage", frame)
    out: list[str] = []
    for (variant, players), rows in _groups(df):
        for row in rows:
            if not _has_rate(row, "win_rate", "hands"):
                continue
            low, high = row["ci_low"], row["ci_high"]
            if not is_missing(low) and low > 0.5:
                verdict = "an advantage"
            elif not is_missing(high) and high < 0.5:
                verdict = "a disadvantage"
            else:
                verdict = "no clear advantage either way"
            text = (
                f"In {setting_phrase(variant, players)}, the eldest hand's team won {fmt_pct(row['win_rate'])} "
                f"of hands ({count_label(row['eldest_wins'], row['hands'])}; 95% interval "
                f"{interval_label(low, high)}): {verdict}."
            )
            diff = row["points_diff"]
            if is_missing(diff):
                eldest, other = row["mean_points_eldest"], row["mean_points_other"]
                diff = None if is_missing(eldest) or is_missing(other) else eldest - other
            if not is_missing(diff):
                more = "more" if diff >= 0 else "fewer"
                text += f" It scored {fmt_points(abs(diff))} {more} points per hand than the other team."
            out.append(text)
    return out


def strength_curve(frame: pl.DataFrame) -> list[str]:
    """The chance to win the hand with the weakest and the strongest hands."""
    df = conform("strength_curve", frame)
    out: list[str] = []
    for (variant, players), rows in _groups(df):
        known = [r for r in rows if r["decile"] is not None and _has_rate(r, "p_win", "n")]
        if len(known) < 2:
            continue
        weak, strong = known[0], known[-1]
        out.append(
            f"In {setting_phrase(variant, players)}, a seat's team won {fmt_pct(weak['p_win'])} of hands "
            f"with the weakest hands (decile {weak['decile']}, {count_label(weak['wins'], weak['n'])}) "
            f"and {fmt_pct(strong['p_win'])} with the strongest (decile {strong['decile']}, "
            f"{count_label(strong['wins'], strong['n'])})."
        )
    return out


def stake_distribution(frame: pl.DataFrame) -> list[str]:
    """The share of hands that ended at each stake."""
    df = conform("stake_distribution", frame)
    out: list[str] = []
    for (variant, players), rows in _groups(df):
        rows = sorted((r for r in rows if r["stake"] is not None and r["hands"]), key=lambda r: r["stake"])
        total = sum(r["hands"] for r in rows)
        if not total:
            continue
        parts = []
        for i, r in enumerate(rows):
            share = fmt_pct(r["hands"] / total if is_missing(r["share"]) else r["share"])
            at = f"of {fmt_int(total)} hands ended at stake" if i == 0 else "at"
            parts.append(f"{share} {at} {stake_label(r['stake'])}")
        text = f"In {setting_phrase(variant, players)}, {_join(parts)}."
        per_hand = next((r["mean_points_per_hand"] for r in rows if not is_missing(r["mean_points_per_hand"])), None)
        if per_hand is not None:
            text += f" A hand was worth {fmt_points(per_hand)} points on average."
        out.append(text)
    return out


_DECISION_PHRASES = {
    "raise": "raised on their own move",
    "accept_and_raise": "answered a raise by raising back",
}
"""What players did, by ``decision``; a decision not listed is named as it is."""


def raise_rates(frame: pl.DataFrame) -> list[str]:
    """How often players took their chances to raise, by decision and stake in force, trick by trick."""
    df = conform("raise_rates", frame)
    out: list[str] = []
    order = {"raise": 0, "accept_and_raise": 1}
    groups = sorted(
        _groups(df, "decision", "stake"),
        key=lambda g: (g[0][0] or "", g[0][1] or 0, order.get(g[0][2], 2), g[0][3] or 0),
    )
    for (variant, players, decision, stake), rows in groups:
        known = [r for r in rows if r["trick_no"] is not None and _has_rate(r, "rate", "chances")]
        if not known:
            continue
        did = _DECISION_PHRASES.get(decision or "", f"took the decision '{decision}'")
        parts = [
            f"{fmt_pct(r['rate'])}{' of their chances' if i == 0 else ''} in trick {r['trick_no']} "
            f"({count_label(r['count'], r['chances'])})"
            for i, r in enumerate(known)
        ]
        out.append(
            f"In {setting_phrase(variant, players)}, with the stake at {stake_label(stake)}, players {did} "
            f"at {_join(parts)}."
        )
    return out


def fold_rates(frame: pl.DataFrame) -> list[str]:
    """How often a raise was refused, overall and with the weakest and strongest hands."""
    df = conform("fold_rates", frame)
    out: list[str] = []
    for (variant, players, stake), rows in _groups(df, "stake"):
        overall = next((r for r in rows if r["decile"] is None and _has_rate(r, "fold_rate", "facing")), None)
        deciles = [r for r in rows if r["decile"] is not None and _has_rate(r, "fold_rate", "facing")]
        if overall is not None:
            folds, facing, rate = overall["folds"], overall["facing"], overall["fold_rate"]
        else:
            facing = sum(r["facing"] for r in deciles)
            folds = sum(r["folds"] or 0 for r in deciles)
            rate = folds / facing if facing else None
        if rate is None:
            continue
        text = (
            f"Facing a raise to {stake_label(stake)} in {setting_phrase(variant, players)}, players folded "
            f"{fmt_pct(rate)} of the time ({count_label(folds, facing)})"
        )
        if len(deciles) >= 2:
            weak, strong = deciles[0], deciles[-1]
            text += (
                f": {fmt_pct(weak['fold_rate'])} with the weakest hands (decile {weak['decile']}, "
                f"{count_label(weak['folds'], weak['facing'])}) and {fmt_pct(strong['fold_rate'])} with the "
                f"strongest (decile {strong['decile']}, {count_label(strong['folds'], strong['facing'])})"
            )
        out.append(text + ".")
    return out


def bluff_success(frame: pl.DataFrame) -> list[str]:
    """How often raises were bluffs, and what the bluffs earned."""
    df = conform("bluff_success", frame)
    out: list[str] = []
    for (variant, players, stake), rows in _groups(df, "stake"):
        for row in rows:
            if not _has_rate(row, "bluff_rate", "raises"):
                continue
            where = f"In {setting_phrase(variant, players)}"
            raise_to = f"raises to {stake_label(stake)}"
            if not row["bluffs"]:
                out.append(f"{where}, none of the {fmt_int(row['raises'])} {raise_to} was a bluff.")
                continue
            text = (
                f"{where}, {fmt_pct(row['bluff_rate'])} of {raise_to} were bluffs "
                f"({count_label(row['bluffs'], row['raises'])})"
            )
            if not is_missing(row["success_rate"]):
                text += (
                    f"; {fmt_pct(row['success_rate'])} of the bluffs made the other side fold "
                    f"({count_label(row['folded'], row['bluffs'])})"
                )
            if _has_rate(row, "called_won_rate", "called"):
                text += (
                    f" and {fmt_pct(row['called_won_rate'])} of the called ones still won "
                    f"({count_label(row['called_won'], row['called'])})"
                )
            text += "."
            if not is_missing(row["net_points_per_bluff"]):
                text += f" A bluff netted {fmt_points(row['net_points_per_bluff'], signed=True)} points on average."
            out.append(text)
    return out


def tie_frequency(frame: pl.DataFrame) -> list[str]:
    """How often tricks were tied and how often a tie rule decided the hand."""
    df = conform("tie_frequency", frame)
    out: list[str] = []
    for (variant, players), rows in _groups(df):
        tricks = [
            r for r in rows if r["measure"] == "trick_tied" and r["trick_no"] is not None and _has_rate(r, "rate", "n")
        ]
        rule = next((r for r in rows if r["measure"] == "hand_by_tie_rule" and _has_rate(r, "rate", "n")), None)
        parts = []
        for i, r in enumerate(tricks):
            of = "of hands" if r["trick_no"] == 1 else "of the hands that played it"
            lead = f"trick {r['trick_no']} was tied in " if i == 0 else f"trick {r['trick_no']} in "
            parts.append(f"{lead}{fmt_pct(r['rate'])} {of} ({count_label(r['count'], r['n'])})")
        clauses = [_join(parts)] if parts else []
        if rule is not None:
            clauses.append(
                f"a tie rule decided {fmt_pct(rule['rate'])} of hands ({count_label(rule['count'], rule['n'])})"
            )
        if clauses:
            out.append(f"In {setting_phrase(variant, players)}, {'; '.join(clauses)}.")
    return out


SUMMARIES: dict[str, Summarizer] = {
    "first_trick_value": first_trick_value,
    "bluff_success": bluff_success,
    "fold_rates": fold_rates,
    "mano_advantage": mano_advantage,
    "stake_distribution": stake_distribution,
    "tie_frequency": tie_frequency,
    "strength_curve": strength_curve,
    "raise_rates": raise_rates,
}
"""The summary function of every statistic, by name."""


def summarize(frames: Mapping[str, pl.DataFrame]) -> dict[str, list[str]]:
    """Findings for every statistic present in ``frames``, in page order (``frames.STATISTICS``)."""
    return {name: SUMMARIES[name](frames[name]) for name in STATISTICS if name in frames}
