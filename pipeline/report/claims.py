"""The findings a report's summary ranks: each a number with its 95% interval, the null it is tested against
and the sample it rests on, so that they can be ordered by how clearly they stand out. Pure functions, no I/O.

A ``Claim`` is what the summary shows: a sentence carrying its number, interval and sample size, and its
structured form (``value``, ``low``, ``high``, ``null``, ``n``). The summary (``summary_claims``) keeps those
whose interval excludes the null, the games won first (what ranks bots: a bot may win half its hands and most
of its games), then the others by effect over interval half-width (``Claim.clarity``), those labelled as a
bot's design last, at most ``MAX_SUMMARY`` of them.

A claim about a figure that a bot's own parameter decides (the threshold bot folds below ``call_at``: its
fold rate falls with hand strength by construction) is labelled as the bot's design (``Claim.design``), not
a finding about the game: the statistic's ``drivers`` in the registry (``pipeline.statistics``), restricted
to the parameters the variant reads (``pipeline.policies.POLICIES[bot].read_in[variant]``), of a bot that
played in that setting.

Claims are made from: ``game_results`` (a policy's games won against an even share, its margin beside it;
mirrors never: their half holds by construction), ``mano_advantage`` (the eldest's side against an even
share), ``first_trick_value`` (taking trick 1 against losing it), ``strength_curve`` (the strongest decile
against the weakest, per policy) and ``fold_rates`` (folds with the weakest hands against the strongest, per
policy). Hands won per player are not claimed: beside games won they would read as a contradiction.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final

import polars as pl

from pipeline import statistics
from pipeline.experiments.analysis import wilson_interval
from pipeline.policies import POLICIES
from pipeline.report.frames import (
    GAMES,
    MIRROR,
    POLICY,
    POLICY_NAME,
    TEAM_JOIN,
    conform,
    count_label,
    even_share,
    fmt_int,
    fmt_pct,
    fmt_points,
    interval_label,
    is_missing,
    setting_phrase,
    with_policy_names,
)

MAX_SUMMARY: Final = 10
"""The most findings the summary at the top of a report shows."""

MAX_PER_STATISTIC: Final = 3
"""The most findings of one statistic (but games won) in the summary: over many settings the same finding, the
strong hands winning, would otherwise fill it setting by setting; the others are in the statistic's section."""


@dataclass(frozen=True)
class Claim:
    """One finding in structured form: ``value`` (a rate, or a difference of two rates) with its 95% interval
    ``low``-``high``, the ``null`` it would take if there were nothing to find, and the sample size ``n`` (games,
    hands, answers). ``text`` says it in words with those numbers; ``design`` names the bot's parameters that
    decide it, when it follows from a bot's own rule."""

    statistic: str
    variant: str
    players: int
    text: str
    value: float
    low: float
    high: float
    null: float
    n: int
    policy: str | None = None
    design: str | None = None

    @property
    def excludes_null(self) -> bool:
        return self.low > self.null or self.high < self.null

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    @property
    def clarity(self) -> float:
        """The effect, ``value - null``, over the interval's half-width: how many half-widths clear of the null."""
        effect = abs(self.value - self.null)
        return math.inf if self.half_width <= 0 else effect / self.half_width

    @property
    def game_level(self) -> bool:
        return self.statistic == GAMES

    @property
    def interval(self) -> str:
        """``95% interval 74.8%-82.7%``, or in percentage points for a difference of rates."""
        if self.null == 0.0:
            return f"95% interval {self.low * 100:+.1f} to {self.high * 100:+.1f} pp"
        return f"95% interval {interval_label(self.low, self.high)}"

    @property
    def sentence(self) -> str:
        """The claim as a reader gets it: labelled as the bot's design when it is one."""
        if self.design is None:
            return self.text
        return f"Bot design, not a finding about the game: {self.text} This follows from {self.design}."


def summary_claims(claims: Iterable[Claim], limit: int = MAX_SUMMARY) -> list[Claim]:
    """The claims whose interval excludes the null, games won first, then by clarity (ties by text), at most
    ``limit`` and at most ``MAX_PER_STATISTIC`` of one statistic but games won; those that follow from a bot's
    design after the findings about the game, which they would otherwise crowd out (a rule followed to the
    letter stands out more than anything the game does)."""
    clear = [c for c in claims if c.excludes_null]
    clear.sort(key=lambda c: (not c.game_level, c.design is not None, -c.clarity, c.text))
    taken: dict[str, int] = {}
    kept = []
    for claim in clear:
        if not claim.game_level and taken.get(claim.statistic, 0) >= MAX_PER_STATISTIC:
            continue
        taken[claim.statistic] = taken.get(claim.statistic, 0) + 1
        kept.append(claim)
    return kept[:limit]


def bot_of(policy: str) -> str:
    """The registered bot of a policy's description (``threshold raise_at=0.7 ...`` -> ``threshold``)."""
    return policy.strip().split(" ", 1)[0].split(":", 1)[0]


def design_of(statistic: str, variant: str, policies: Iterable[str]) -> str | None:
    """The parameters that decide ``statistic`` in ``variant`` for the bots among ``policies`` (descriptions,
    a mixed team's joined by ``frames.TEAM_JOIN``), in words; None when no bot that played has one."""
    drivers = statistics.STATISTICS[statistic].drivers
    bots = {bot_of(part) for policy in policies for part in policy.split(TEAM_JOIN)}
    said = []
    for bot, parameters in drivers.items():
        if bot not in bots or bot not in POLICIES:
            continue
        read = POLICIES[bot].read_in
        if read and variant in read:
            parameters = tuple(p for p in parameters if p in read[variant])
        if parameters:
            said.append(f"the {bot} bot's own parameters ({', '.join(parameters)})")
    return "; ".join(said) or None


def all_claims(frames: Mapping[str, pl.DataFrame]) -> list[Claim]:
    """Every claim the frames support, in no particular order."""
    out: list[Claim] = []
    for name, make in _MAKERS.items():
        if name in frames and frames[name].height:
            out += make(conform(name, frames[name]))
    return out


def _game_claims(frame: pl.DataFrame) -> list[Claim]:
    """A policy's share of its games won against an even share, with its margin; with two sides only the
    side above the even share (the other side's claim is the same fact)."""
    out = []
    named = with_policy_names(frame)
    for row in named.iter_rows(named=True):
        if row[MIRROR] or not row["games"] or any(is_missing(row[c]) for c in ("win_rate", "ci_low", "ci_high")):
            continue
        players, even = row["players"], even_share(row["players"])
        if players != 3 and row["win_rate"] < even:
            continue
        margin = row["mean_margin"]
        by = "" if is_missing(margin) else f", {fmt_points(margin, signed=True)} {row['unit'] or 'points'} a game"
        text = (
            f"In {setting_phrase(row['variant'], players)}, {row[POLICY_NAME]} won {fmt_pct(row['win_rate'])} of its "
            f"games ({count_label(row['games_won'], row['games'])}; 95% interval "
            f"{interval_label(row['ci_low'], row['ci_high'])}{by})."
        )
        out.append(
            Claim(GAMES, row["variant"], players, text, row["win_rate"], row["ci_low"], row["ci_high"], even,
                  row["games"], policy=row[POLICY])
        )  # fmt: skip
    return out


def _mano_claims(frame: pl.DataFrame) -> list[Claim]:
    out = []
    for row in frame.iter_rows(named=True):
        if not row["hands"] or any(is_missing(row[c]) for c in ("win_rate", "ci_low", "ci_high")):
            continue
        players = row["players"]
        who = "the eldest" if players in (2, 3) else "the eldest hand's team"
        text = (
            f"In {setting_phrase(row['variant'], players)}, {who} won {fmt_pct(row['win_rate'])} of decided hands "
            f"({count_label(row['eldest_wins'], row['hands'])}; 95% interval "
            f"{interval_label(row['ci_low'], row['ci_high'])}; an even share is {fmt_pct(even_share(players))})."
        )
        out.append(
            Claim("mano_advantage", row["variant"], players, text, row["win_rate"], row["ci_low"], row["ci_high"],
                  even_share(players), row["hands"])
        )  # fmt: skip
    return out


def _difference(a: float, a_low: float, a_high: float, b: float, b_low: float, b_high: float) -> tuple[float, ...]:
    """``a - b`` with an interval whose half-width combines the two (independent samples)."""
    half = math.hypot((a_high - a_low) / 2, (b_high - b_low) / 2)
    return a - b, a - b - half, a - b + half


def _first_trick_claims(frame: pl.DataFrame) -> list[Claim]:
    """Taking trick 1 against losing it: with two sides one rate is the other's complement, so the difference's
    interval is the winner's rate's, doubled (not two samples' combined, which would understate it)."""
    out = []
    columns = ("p_win_won_first", "ci_low_won_first", "ci_high_won_first")
    others = ("p_win_lost_first", "ci_low_lost_first", "ci_high_lost_first")
    for row in frame.iter_rows(named=True):
        if not row["hands"] or any(is_missing(row[c]) for c in (*columns, *others)):
            continue
        if row["players"] == 3:  # the two sides that lost trick 1 together: a sample of its own
            value, low, high = _difference(*(row[c] for c in columns), *(row[c] for c in others))
        else:  # two sides: the loser of trick 1 wins what its winner does not, so the difference is 2p - 1
            value, low, high = (2 * row[c] - 1 for c in columns)
        text = (
            f"In {setting_phrase(row['variant'], row['players'])}, the side that took trick 1 won "
            f"{fmt_pct(row['p_win_won_first'])} of those hands, the side that lost it "
            f"{fmt_pct(row['p_win_lost_first'])} "
            f"({fmt_int(row['hands'])} hands; difference {value * 100:+.1f} pp, 95% interval {low * 100:+.1f} to "
            f"{high * 100:+.1f} pp)."
        )
        out.append(
            Claim("first_trick_value", row["variant"], row["players"], text, value, low, high, 0.0, row["hands"])
        )
    return out


def _ends(rows: list[dict[str, object]], rate: str, low: str, high: str) -> tuple[dict[str, object], ...] | None:
    known = [r for r in rows if not any(is_missing(r[c]) for c in (rate, low, high))]  # type: ignore[arg-type]
    return (known[0], known[-1]) if len(known) >= 2 else None


def _strength_claims(frame: pl.DataFrame) -> list[Claim]:
    out = []
    named = with_policy_names(frame.filter(pl.col("decile").is_not_null() & (pl.col("n") > 0)))
    for (variant, players, name), part in named.sort("decile").group_by("variant", "players", POLICY_NAME):
        ends = _ends(part.to_dicts(), "p_win", "ci_low", "ci_high")
        if ends is None:
            continue
        weak, strong = ends
        value, low, high = _difference(
            *(float(strong[c]) for c in ("p_win", "ci_low", "ci_high")),  # type: ignore[arg-type]
            *(float(weak[c]) for c in ("p_win", "ci_low", "ci_high")),  # type: ignore[arg-type]
        )
        n = int(strong["n"]) + int(weak["n"])  # type: ignore[call-overload]
        text = (
            f"In {setting_phrase(variant, players)}, the side of {name} won {fmt_pct(float(strong['p_win']))} of hands "  # type: ignore[arg-type]
            f"with its strongest hands (decile {strong['decile']}) and {fmt_pct(float(weak['p_win']))} with its "  # type: ignore[arg-type]
            f"weakest (decile {weak['decile']}; {fmt_int(n)} hands; difference {value * 100:+.1f} pp)."
        )
        policy = str(part.get_column(POLICY)[0]) if part.get_column(POLICY)[0] is not None else None
        design = design_of("strength_curve", variant, [policy] if policy else [])
        out.append(Claim("strength_curve", variant, players, text, value, low, high, 0.0, n, policy, design))
    return out


def _fold_claims(frame: pl.DataFrame) -> list[Claim]:
    """Folds with the weakest hands against the strongest, every stake together, per policy."""
    out = []
    deciles = frame.filter(pl.col("decile").is_not_null() & (pl.col("facing") > 0))
    named = with_policy_names(deciles)
    pooled = named.group_by("variant", "players", POLICY, POLICY_NAME, "decile").agg(
        pl.col("folds").sum(), pl.col("facing").sum()
    )
    for (variant, players, name), part in pooled.sort("decile").group_by("variant", "players", POLICY_NAME):
        rows = part.to_dicts()
        if len(rows) < 2:
            continue
        weak, strong = rows[0], rows[-1]
        rates = []
        for row in (weak, strong):
            lo, hi = wilson_interval(row["folds"], row["facing"])
            rates.append((row["folds"] / row["facing"], lo, hi))
        value, low, high = _difference(*rates[0], *rates[1])
        text = (
            f"In {setting_phrase(variant, players)}, {name} folded to {fmt_pct(rates[0][0])} of raises with its "
            f"weakest hands (decile {weak['decile']}, {count_label(weak['folds'], weak['facing'])}) and "
            f"{fmt_pct(rates[1][0])} with its strongest (decile {strong['decile']}, "
            f"{count_label(strong['folds'], strong['facing'])})."
        )
        policy = rows[0][POLICY]
        design = design_of("fold_rates", variant, [policy] if policy else [])
        n = weak["facing"] + strong["facing"]
        out.append(Claim("fold_rates", variant, players, text, value, low, high, 0.0, n, policy, design))
    return out


_MAKERS = {
    GAMES: _game_claims,
    "mano_advantage": _mano_claims,
    "first_trick_value": _first_trick_claims,
    "strength_curve": _strength_claims,
    "fold_rates": _fold_claims,
}
"""The statistics claims are made from, and how."""
