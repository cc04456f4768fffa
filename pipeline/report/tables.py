"""The statistics' frames as the page's tables ("The numbers" under each chart): pure functions, no I/O.

Every column gets a header in words (``header``); its name in the frame, which docs/statistics.md
defines, is kept as the header's tooltip. Cells read as the findings do: rates as percentages,
differences of two rates in percentage points (``+12.3 pp``, never ``%``: ``PERCENTAGE_POINTS``), points
with two decimals (signed for differences), counts with thousands separators; a null that stands for a
row of its own says what it is (the registry's ``null_means``: fold_rates' all-deciles row reads decile
``all``), and a result that a mirror row leaves null (a bot that played itself) reads ``mirror``. Beside
the comparison's ``unit``, which names the games' score (longs, cames), the table names what a hand's
points count (petits, stones), as the page's header does.
"""

from __future__ import annotations

import html
import math

import polars as pl

from pipeline.report.frames import GAMES, HAND_UNITS, LABEL_CHARS, MIRROR, cut_label, fmt_points, fmt_pp
from pipeline.statistics import MIRRORED_COLUMNS, STATISTICS

HAND_UNIT = "hand_unit"
"""The column ``table`` adds beside ``unit``: what a hand's points count (``frames.HAND_UNITS``)."""

HEADERS: dict[str, str] = {
    "variant": "Variant",
    "players": "Players",
    "sides": "Sides",
    "unit": "Game score in",
    HAND_UNIT: "Hand points in",
    "games": "Complete games",
    "hands": "Hands",
    "mean_hands_per_game": "Hands a game",
    "stake": "Stake",
    "decile": "Strength decile",
    "decision": "Decision",
    "trick_no": "Trick",
    "measure": "Measure",
    "level": "Level",
    "size": "Raise size",
    "player": "Player or bot",
    "n": "Sample size",
    "count": "Count",
    "rate": "Rate",
    "ci_low": "95% low",
    "ci_high": "95% high",
    "mean": "Mean per hand",
    "p_win_won_first": "Won after taking trick 1",
    "ci_low_won_first": "95% low (taking trick 1)",
    "ci_high_won_first": "95% high (taking trick 1)",
    "p_win_lost_first": "Won after losing trick 1",
    "ci_low_lost_first": "95% low (losing trick 1)",
    "ci_high_lost_first": "95% high (losing trick 1)",
    "value": "Won, taking minus losing trick 1 (pp)",
    "mean_points_won_first": "Mean points after taking trick 1",
    "mean_points_lost_first": "Mean points after losing trick 1",
    "points_value": "Points, taking minus losing trick 1",
    "raises": "Raises",
    "bluffs": "Bluffs",
    "bluff_rate": "Raises that were bluffs",
    "bluff_ci_low": "95% low (bluffs)",
    "bluff_ci_high": "95% high (bluffs)",
    "folded": "Bluffs folded to",
    "success_rate": "Bluffs folded to, rate",
    "success_ci_low": "95% low (folded to)",
    "success_ci_high": "95% high (folded to)",
    "called": "Bluffs called",
    "called_won": "Called bluffs won",
    "called_won_rate": "Called bluffs won, rate",
    "called_won_ci_low": "95% low (called, won)",
    "called_won_ci_high": "95% high (called, won)",
    "net_points_per_bluff": "Net points per bluff",
    "facing": "Answers to a raise",
    "folds": "Folds",
    "fold_rate": "Fold rate",
    "eldest_wins": "Won by the eldest's side",
    "win_rate": "Win rate",
    "mean_points_eldest": "Mean points, eldest's side",
    "mean_points_other": "Mean points, another side",
    "points_diff": "Points, eldest's minus another side's",
    "share": "Share of hands",
    "mean_points": "Mean points at this stake",
    "mean_points_per_hand": "Mean points per hand, all stakes",
    "wins": "Wins",
    "p_win": "Win rate",
    "mean_net_points": "Mean net points per hand",
    "chances": "Chances to raise",
    "void_hands": "Void hands",
    "void_rate": "Void rate",
    "decided": "Decided side-hands",
    "random_bot_hands": "Seat-hands the random bot played",
    "raises_per_hand": "Raises per hand",
    "first_trick_hands": "Hands with trick 1 won outright",
    "first_trick_win_rate": "Trick 1 taker won the hand",
    "first_trick_ci_low": "95% low (trick 1 taker)",
    "first_trick_ci_high": "95% high (trick 1 taker)",
    "first_trick_value": "Trick 1 taker's edge over a side that lost it (pp)",
    "bluffs_folded": "Bluffs folded to",
    "bluff_success_rate": "Bluffs folded to, rate",
    "bluff_success_ci_low": "95% low (bluffs folded to)",
    "bluff_success_ci_high": "95% high (bluffs folded to)",
    "fold_ci_low": "95% low (folds)",
    "fold_ci_high": "95% high (folds)",
    "decided_hands": "Hands with a winner",
    "mano_win_rate": "Eldest won the hand",
    "mano_ci_low": "95% low (eldest)",
    "mano_ci_high": "95% high (eldest)",
    "mano_edge": "Eldest's edge over an even share (pp)",
    "tricks": "Tricks played",
    "tied_tricks": "Tied tricks",
    "tie_rate": "Tie rate",
    "tie_ci_low": "95% low (ties)",
    "tie_ci_high": "95% high (ties)",
    "policy": "Policy",
    "policies": "Policies pooled",
    MIRROR: "Mirror (played itself)",
    "games_won": "Games won",
    "mean_margin": "Mean final margin",
    "margin_ci_low": "95% low (margin)",
    "margin_ci_high": "95% high (margin)",
    "matches": "Matches",
    "matches_won": "Matches won",
}
"""The header of every column the report's statistics have (``frames.CONTRACT``), by its name."""

PERCENTAGE_POINTS = frozenset({"value", "first_trick_value", "mano_edge"})
"""The columns that are a difference of two rates (or of a rate and an even share): percentage points."""

_PERCENT_HINTS = ("rate", "share", "ci_low", "ci_high", "p_win")
_POINT_HINTS = ("points", "margin")
_SIGNED_POINTS = ("diff", "net", "value", "margin")


def header(column: str, statistic: str = "") -> str:
    """A column's header: the statistic's own words for it (its registry entry's ``headers``: ``games`` counts
    complete games in the comparison, side-games in ``game_results``), else ``HEADERS``' words, else its name
    in words (``new_column`` -> ``New column``)."""
    declared = STATISTICS.get(statistic)
    own = declared.headers.get(column) if declared else None
    return own or HEADERS.get(column) or column.replace("_", " ").capitalize()


def cell(column: str, value: object) -> str:
    """One table cell: rates as percentages, differences of rates in percentage points, points with two
    decimals (signed for differences), counts with separators."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return '<td class="null">\u2013</td>'
    if isinstance(value, bool):
        return f"<td>{escape(value)}</td>"
    if isinstance(value, float):
        return f'<td class="num">{escape(_number(column, value))}</td>'
    if isinstance(value, int):
        return f'<td class="num">{value:,}</td>'
    text = str(value)
    if len(text) > LABEL_CHARS:  # a name of thousands of characters: cut, whole in the tooltip
        return f'<td title="{escape(text)}">{escape(cut_label(text))}</td>'
    return f"<td>{escape(text)}</td>"


def _number(column: str, value: float) -> str:
    if column in PERCENTAGE_POINTS:
        return fmt_pp(value)
    if any(h in column for h in _POINT_HINTS):
        return fmt_points(value, signed=any(s in column for s in _SIGNED_POINTS))
    if any(h in column for h in _PERCENT_HINTS):
        return f"{value:.1%}"
    return f"{value:.3g}"


def table(frame: pl.DataFrame, statistic: str = "") -> str:
    """A frame as an HTML table, each header naming its column in words (its name in the frame as the
    header's tooltip); a null that stands for a row of its own in ``statistic`` reads as what it means
    (its registry entry's ``null_means``: fold_rates' all-deciles row reads decile ``all``)."""
    frame = frame if statistic == GAMES else with_hand_unit(frame)  # game_results' unit is the games' alone
    head = "".join(f'<th title="{escape(c)}">{escape(header(c, statistic))}</th>' for c in frame.columns)
    declared = STATISTICS.get(statistic)
    meanings = [declared.null_means.get(c) if declared else None for c in frame.columns]
    mirrored = [c in MIRRORED_COLUMNS for c in frame.columns]
    at = frame.columns.index(MIRROR) if frame.schema.get(MIRROR) == pl.Boolean else None
    body = "".join(
        "<tr>"
        + "".join(
            f"<td>{escape(meaning)}</td>"
            if value is None and meaning
            else f'<td class="mirror">{MIRROR}</td>'
            if value is None and mirror and at is not None and row[at]
            else cell(c, value)
            for c, value, meaning, mirror in zip(frame.columns, row, meanings, mirrored, strict=True)
        )
        + "</tr>"
        for row in frame.iter_rows()
    )
    return f'<div class="table-wrap"><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'


def with_hand_unit(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` with, right after its ``unit`` (what the games' scores count: ``longs``, ``cames``), what a
    hand's points count (``petits``, ``stones``): the unit the page's header and the findings speak of."""
    if "unit" not in frame.columns or HAND_UNIT in frame.columns:
        return frame
    hand = pl.col("unit").replace_strict(HAND_UNITS, default=pl.col("unit"), return_dtype=pl.String).alias(HAND_UNIT)
    at = frame.columns.index("unit") + 1
    return frame.with_columns(hand).select([*frame.columns[:at], HAND_UNIT, *frame.columns[at:]])


def escape(text: object) -> str:
    """Text made safe for the page's HTML, quotes included."""
    return html.escape(str(text), quote=True)
