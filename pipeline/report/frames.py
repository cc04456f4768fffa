"""The statistics' column contract, as the report reads it, and the wording shared by charts and summary.

``pipeline.stats.compute(name, data)`` returns one polars DataFrame per statistic. ``CONTRACT`` lists its
columns with their types, as the registry declares them (``pipeline.statistics``: each statistic's
``schema``); ``conform`` makes any frame (even an empty one without columns) match it, so the chart and
summary functions never fail on a missing column, and turns NaN into null. The page's parts
(``STATISTICS``, ``SPECIFIC``...) are the registry's too, in its order.

The small formatters here (``fmt_pct``, ``count_label``, ``setting_phrase``, ``stake_label``,
``unit_word`` ...) keep the page, the chart labels and the written findings in the same words, in each
variant's own names of its stakes and units.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, Final

import polars as pl

from pipeline import statistics

STATISTICS: tuple[str, ...] = statistics.in_part(statistics.EVERY_PART)
"""The statistics of every variant, in page order, each faceted by variant (``pipeline.statistics``)."""

COMPARISON = "variant_comparison"
"""The statistic that opens the page: every variant and player count side by side."""

SPECIFIC: tuple[str, ...] = statistics.in_part(statistics.SPECIFIC_PART)
"""The variant-specific statistics, after the others, shown only when their frames have rows."""

ALL_STATISTICS: tuple[str, ...] = (*statistics.in_part(statistics.COMPARISON_PART), *STATISTICS, *SPECIFIC)
"""Every statistic the report draws, in page order, but the games and the players."""

PLAYERS = "player_results"
"""Players and bots, after the other statistics: shown only for the settings (variant and player count)
with two or more to compare (``compared_players``), each one's win rate drawn."""

GAMES = "game_results"
"""Games won per policy: a table right after the comparison (no chart; issue 24 draws it), with findings."""

MIRROR = statistics.MIRROR
"""The column of ``player_results`` and ``game_results`` that marks a policy playing itself (``pipeline.stats``):
its win rate is null there, and the page says "mirror" instead of a result that holds by construction."""

POLICY = "policy"
POLICY_NAME = "policy_name"
"""The policy of a seat whose choices a row counts (``sql/staging.sql`` ``seat_policy``), and its brief name
within its setting (``with_policy_names``), by which the charts and findings keep bots apart."""

TEAM_JOIN = " + "
"""How ``game_results`` labels a side whose seats played different policies (``sql/staging.sql``,
``int_side_policies``): each policy once, in seat order, joined by it."""

NO_POLICY = "no seat's choice"
"""The name of a null ``policy``: a row that counts no seat's choice (the envit's stones, a trut-family special
hand in which nobody decided)."""

NO_CHOICE_SPECIALS = frozenset({"trut_office", "chanson", "chanter", "sec"})
"""The trut family's special hands whose opening the rules fix: a trut d'office must be made, and after la
chanson, chanter or a sec redeal the hand is played for a long with no trut. Their "truted or held" rate
(statistic ``trut``) measures no choice, so the report's chart and findings leave it out."""

CONTRACT: dict[str, dict[str, pl.DataType]] = {s.name: dict(s.schema) for s in statistics.STATISTICS.values()}
"""Each statistic's columns and their types, as the report reads them: its ``schema`` in the registry."""

STAKE_NAMES: dict[int, str] = {1: "base", 2: "truc", 3: "retruc"}
"""The stakes' names where the variant is not known (the Catalan ladder)."""

VARIANT_STAKE_NAMES: dict[str, dict[int, str]] = {
    "catalan": STAKE_NAMES,
    "valencian": {1: "base", 2: "truc", 3: "retruc", 4: "quatre val", 5: "joc fora"},
    "french": {1: "base"},
}
"""Each variant's names of its stakes; a variant not listed (the trut family) names none."""

HAND_UNITS: dict[str, str] = {"points": "points", "cames": "stones", "longs": "petits"}
"""The word for what ``points_team*`` count, by ``games.unit`` (what the games' scores count): a
valencian game is scored in cames but its hands in stones; a trut-family hand's points are petits, a long
counted as 3 (docs/data.md)."""

VARIANT_UNITS: dict[str, str] = {
    "catalan": "points",
    "french": "points",
    "valencian": "cames",
    "trut": "longs",
    "trut-gatinaise": "longs",
    "trut-gatine": "longs",
}
"""``games.unit`` of each variant, for frames that do not carry it."""

NEVER_VOID: frozenset[str] = frozenset({"catalan", "valencian"})
"""The variants whose hands are never void: when every trick is tied the eldest's side wins (RULES.md
`catalan` and `valencian`; docs/data.md `tie_rule` `all_tied_eldest`)."""


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
        if dtype == statistics.FLOAT:
            casts.append(pl.col(col).cast(statistics.FLOAT, strict=False).fill_nan(None))
        elif dtype == statistics.INT:
            casts.append(pl.col(col).cast(statistics.INT, strict=False))
        elif dtype == statistics.BOOL:
            casts.append(pl.col(col).cast(statistics.BOOL, strict=False))
        else:
            casts.append(pl.col(col).cast(statistics.TEXT, strict=False))
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


def fmt_pp(difference: float) -> str:
    """A difference of two rates (or of a rate and an even share) in percentage points: ``+8.1 pp``."""
    return f"{difference * 100:+.1f} pp"


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


def stake_label(stake: int | None, variant: str | None = None) -> str:
    """``2`` -> ``"2 (truc)"``; with a variant, that variant's name of the stake; a stake without a name
    is just its number."""
    if stake is None:
        return "unknown"
    names = STAKE_NAMES if variant is None else VARIANT_STAKE_NAMES.get(variant, {})
    name = names.get(stake)
    return f"{stake} ({name})" if name else str(stake)


def common_stake_label(stake: int | None, variants: Sequence[str]) -> str:
    """The label of ``stake`` that every one of ``variants`` agrees on: its name when they all give the
    same one, else its number (a chart row shared by the variants)."""
    labels = {stake_label(stake, v) for v in variants} if variants else {stake_label(stake)}
    return labels.pop() if len(labels) == 1 else stake_label(stake, "")


def unit_word(variant: str | None, units: Mapping[str, str] | None = None) -> str:
    """What a hand's points are called in ``variant``: ``points``, ``stones``... ``units`` maps a variant to
    its ``games.unit`` (e.g. from ``variant_comparison``); else the variant's usual unit."""
    unit = (units or {}).get(variant or "") or VARIANT_UNITS.get(variant or "", "points")
    return HAND_UNITS.get(unit, unit)


def even_share(players: int | None) -> float:
    """The share of hands a side wins by chance: 1/2, or 1/3 in 3-player Trut (each player alone)."""
    return 1 / 3 if players == 3 else 1 / 2


def units_of(frames: Mapping[str, pl.DataFrame]) -> dict[str, str]:
    """``games.unit`` by variant, from the ``variant_comparison`` frame when there is one."""
    frame = frames.get(COMPARISON)
    if frame is None or "unit" not in frame.columns or "variant" not in frame.columns:
        return {}
    pairs = frame.select("variant", "unit").drop_nulls().unique().rows()
    return {variant: unit for variant, unit in pairs}


LABEL_CHARS: Final = 60
"""The most characters of a name (a player's, a bot's) a chart's label, a finding or a table's cell shows: a
longer one is cut (``cut_label``), the whole name kept in a table cell's ``title``. Vega lays a label out in
time that grows faster than its length: a seat named with 100,000 characters took a 1-game report 94 s."""

ELLIPSIS: Final = "\u2026"


def cut_label(text: str) -> str:
    """``text`` cut to ``LABEL_CHARS`` characters, the last an ellipsis, when it is longer."""
    return text if len(text) <= LABEL_CHARS else text[: LABEL_CHARS - 1] + ELLIPSIS


def cut_labels(names: Sequence[str]) -> dict[str, str]:
    """Each of ``names`` (distinct names of one setting) as ``cut_label`` shows it, still distinct: a name whose
    cut form another name shares ends with its rank among them (``…#2``), so that two players are never
    drawn as one."""
    by_cut: dict[str, list[str]] = {}
    for name in dict.fromkeys(names):
        by_cut.setdefault(cut_label(name), []).append(name)
    cut: dict[str, str] = {}
    for label, same in by_cut.items():
        if len(same) == 1:
            cut[same[0]] = label
            continue
        for rank, name in enumerate(sorted(same), start=1):
            mark = f"#{rank}"
            cut[name] = name[: LABEL_CHARS - 1 - len(mark)] + ELLIPSIS + mark
    return cut


def compared_players(frame: pl.DataFrame) -> pl.DataFrame:
    """``player_results`` for the settings with two or more players or bots, each bot named briefly within
    its setting (``short_player_names``: the same bot may read differently in two settings)."""
    if frame.is_empty() or "player" not in frame.columns:
        return frame.clear()
    several = frame.filter(pl.len().over("variant", "players") > 1)
    named = []
    for _, group in several.group_by("variant", "players", maintain_order=True):
        players = group.get_column("player").drop_nulls().to_list()
        short = short_player_names(players)
        names = cut_labels([short.get(player, player) for player in players])
        names = {player: names[short.get(player, player)] for player in players}
        brief = pl.col("player").replace_strict(names, default=pl.col("player"))
        if MIRROR in group.columns:  # a bot that played itself reads so, apart from its games against others
            brief = pl.when(pl.col(MIRROR).fill_null(False)).then(brief + f" ({MIRROR})").otherwise(brief)
        named.append(group.with_columns(brief.alias("player")))
    return pl.concat(named) if named else several


def with_policy_names(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` with ``POLICY_NAME``: each ``policy`` named briefly within its setting (``short_player_names``:
    ``threshold``, or the parameters that tell two threshold bots apart), a null policy ``NO_POLICY``."""
    if POLICY not in frame.columns:
        return frame.with_columns(pl.lit(NO_POLICY).alias(POLICY_NAME))
    named = frame.select("variant", "players", POLICY).unique().drop_nulls()
    brief: dict[tuple[Any, Any, str], str] = {}
    for (variant, players), group in named.group_by("variant", "players"):
        labels = group.get_column(POLICY).to_list()
        parts = [part for label in labels for part in label.split(TEAM_JOIN)]  # a mixed team's bots, each named
        names = short_player_names(parts)
        joined = {label: TEAM_JOIN.join(names.get(part, part) for part in label.split(TEAM_JOIN)) for label in labels}
        cut = cut_labels(list(joined.values()))
        brief.update({(variant, players, label): cut[name] for label, name in joined.items()})
    table = pl.DataFrame(
        [(*key, name) for key, name in brief.items()],
        schema={"variant": frame.schema["variant"], "players": frame.schema["players"], POLICY: pl.String,
                POLICY_NAME: pl.String},
        orient="row",
    )  # fmt: skip
    return frame.join(table, on=["variant", "players", POLICY], how="left", nulls_equal=True).with_columns(
        pl.col(POLICY_NAME).fill_null(NO_POLICY)
    )


def several_policies(frame: pl.DataFrame) -> bool:
    """Whether ``frame`` (with ``POLICY_NAME``) holds more than one policy, a null one counted: its rows must
    then be kept apart by policy."""
    return POLICY_NAME in frame.columns and frame.get_column(POLICY_NAME).n_unique() > 1


RANDOM_BOT = "random"
"""The policy name of the bot that picks uniformly among the legal actions (``pipeline.policies``): a seat it
plays is not a player like the others, and a setting with one does not compare like for like.
``sql/player_results.sql`` counts its seat-hands (``random_bot_hands``) by this name."""


def random_bot_shares(frame: pl.DataFrame) -> dict[tuple[str, int], float]:
    """The share of seat-hands a random bot played in each setting (variant, player count) where one played,
    from ``player_results``' ``random_bot_hands``: by the seats' policy, so that an imported seat with a
    player's name and the random policy counts too."""
    if frame.is_empty() or not {"variant", "players", "hands", "random_bot_hands"} <= set(frame.columns):
        return {}
    shares = (
        frame.group_by("variant", "players")
        .agg((pl.col("random_bot_hands").sum() / pl.col("hands").sum()).alias("share"))
        .filter(pl.col("share") > 0)
        .sort("variant", "players")
    )
    return {(variant, players): share for variant, players, share in shares.iter_rows()}


def short_player_names(players: Sequence[str]) -> dict[str, str]:
    """Brief names for the bots of one setting, by their policy description (``threshold raise_at=0.7
    call_at=0.5 ...``): the parameters every description of the same policy shares are left out, so one
    threshold bot reads ``threshold`` and two read by the parameters that tell them apart. A name that is not
    a policy description (a seat name from an imported game) is kept whole."""
    by_policy: dict[str, list[tuple[str, list[str]]]] = {}
    for player in players:
        words = player.split()
        if len(words) > 1 and all("=" in word for word in words[1:]):
            by_policy.setdefault(words[0], []).append((player, words))
    short: dict[str, str] = {}
    for described in by_policy.values():
        shared = set(described[0][1][1:]).intersection(*(set(words[1:]) for _, words in described[1:]))
        for player, words in described:
            short[player] = " ".join([words[0], *(w for w in words[1:] if w not in shared)])
    return short
