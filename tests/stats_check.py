"""Second implementations of every statistic in ``pipeline.stats``, in polars alone, for the tests.

Each function reads the dataset folder(s) with polars (no SQL, no DuckDB) and returns the frame
``stats.compute`` should return: the same columns, types, rows and order. The definitions are those of
the ``sql/*.sql`` headers and ``docs/statistics.md``; where the SQL uses an ASOF join (the answer to a
raise, the raise an answer faces) this module walks each hand's events in order with window
expressions instead, so that the two agree only if both follow the definition.

It lives in ``tests/``, so the package does not ship it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import polars as pl

from pipeline import parts, store, upgrade
from pipeline.statistics import STATISTICS

Z = 1.959964
HAND = ["dataset", "game_id", "hand_no"]
GROUP = ["variant", "players"]

Tables = dict[str, pl.DataFrame]

# The widened types of sql/staging.sql: every integer column is read as Int64.
_INT64 = {
    "players", "first_dealer", "hands", "winner_team", "score_team0", "score_team1", "hand_no",
    "dealer", "eldest", "eldest_team", "cards_dealt", "score_before_team0", "score_before_team1",
    "stake", "points_team0", "points_team1", "tricks_played", "trick1_winner", "trick2_winner",
    "trick3_winner", "seat", "team", "seq", "trick_no", "stake_before", "stake_after",
    "sides", "score_team2", "match_no", "match_winner_team", "points_team2", "score_before_team2", "redeals",
    *(f"{k}_team{i}" for k in ("petits", "longs", "petits_after", "longs_after") for i in range(3)),
    "trut_seat", "envit_stake", "envit_winner", "envit_points", "cames_after_team0", "cames_after_team1",
    "envit_value", "to_play",
}  # fmt: skip

ENVIT_CALLS = ("envit", "torne", "falta", "envit-falta")


def load(data: Path | Sequence[Path]) -> Tables:
    """The four tables of one or several dataset folders, with a ``dataset`` column (the folder). A folder of
    runs (subfolders with a manifest) stands for each of its runs, as in ``stats.compute``."""
    folders = store.dataset_folders(data)
    tables: Tables = {}
    for name in store.TABLES:
        frames = []
        for folder in folders:
            frame = pl.read_parquet(store.table_glob(folder, name))
            frame = frame.with_columns(pl.lit(str(folder)).alias("dataset"))
            frames.append(frame)
        frame = pl.concat(frames, how="vertical")
        tables[name] = frame.with_columns(pl.col(c).cast(pl.Int64) for c in frame.columns if c in _INT64)
    return tables


def wilson(k: str, n: str) -> tuple[pl.Expr, pl.Expr]:
    """The 95% Wilson score interval of columns k (successes) and n (trials); null when n = 0."""
    kk = pl.col(k).cast(pl.Float64)
    nn = pl.col(n).cast(pl.Float64)
    p = kk / nn
    centre = p + Z * Z / (2 * nn)
    half = Z * (p * (1 - p) / nn + Z * Z / (4 * nn * nn)).sqrt()
    denominator = 1 + Z * Z / nn
    # clamped to [0, 1] and to contain p, against rounding
    low = pl.when(nn > 0).then(pl.min_horizontal(p, ((centre - half) / denominator).clip(lower_bound=0.0)))
    high = pl.when(nn > 0).then(pl.max_horizontal(p, ((centre + half) / denominator).clip(upper_bound=1.0)))
    return low, high


def rate(k: str, n: str) -> pl.Expr:
    return pl.when(pl.col(n) > 0).then(pl.col(k).cast(pl.Float64) / pl.col(n).cast(pl.Float64))


def rate_with_interval(k: str, n: str, name: str, low: str = "ci_low", high: str = "ci_high") -> list[pl.Expr]:
    """The rate ``k / n`` as column ``name``, and its Wilson interval as columns ``low`` and ``high``."""
    low_expr, high_expr = wilson(k, n)
    return [rate(k, n).alias(name), low_expr.alias(low), high_expr.alias(high)]


def team_points(team: pl.Expr) -> pl.Expr:
    """The points of side ``team`` in the hand (0, 1 or 2)."""
    return (
        pl.when(team == 0)
        .then(pl.col("points_team0"))
        .when(team == 1)
        .then(pl.col("points_team1"))
        .when(team == 2)
        .then(pl.col("points_team2"))
    )


def other_points(team: pl.Expr) -> pl.Expr:
    """The mean points per side of the sides other than ``team`` (needs the ``sides`` column)."""
    total = pl.col("points_team0") + pl.col("points_team1") + pl.col("points_team2").fill_null(0)
    return (total - team_points(team)).cast(pl.Float64) / (pl.col("sides") - 1).cast(pl.Float64)


def seat_policy() -> pl.Expr:
    """A seat's policy label (the macro seat_policy): its policy, else its player name, else seatN."""
    return pl.coalesce("policy", "player", pl.lit("seat") + pl.col("seat").cast(pl.String))


def seat_policies(t: Tables) -> pl.DataFrame:
    """Every seat-hand's policy label: HAND, seat and policy."""
    return t["seats"].select(*HAND, "seat", seat_policy().alias("policy"))


def side_policies(t: Tables) -> pl.DataFrame:
    """One row per side of a game, as int_side_policies: its seats' labels on hand 1, each once, in the order
    of its first seat, joined by ' + '; and how many sides of the game carry the same label."""
    game = ["dataset", "game_id"]
    labels = (
        t["seats"]
        .filter(pl.col("hand_no") == 1)
        .with_columns(seat_policy().alias("label"))
        .group_by(*game, "team", "label")
        .agg(pl.col("seat").min().alias("first_seat"))
        .sort([*game, "team", "first_seat"])
        .group_by(*game, "team", maintain_order=True)
        .agg(pl.col("label").str.join(" + ").alias("policy"))
    )
    return labels.with_columns(pl.len().over(*game, "policy").cast(pl.Int64).alias("sides_held"))


def envit_steps(t: Tables) -> pl.DataFrame:
    """The envit-ladder rows (calls, and the accept/fold/call right after a call), as int_envit_steps."""
    ladder = (
        t["events"]
        .filter(pl.col("verb").is_in([*ENVIT_CALLS, "accept", "fold"]))
        .sort([*HAND, "seq"])
        .with_columns(pl.col("verb").is_in(ENVIT_CALLS).alias("is_call"))
        .with_columns(
            pl.col("is_call").shift(1).over(HAND).fill_null(False).alias("answers_call"),
            pl.col("verb").shift(1).over(HAND).alias("previous_verb"),
            pl.col("seq").shift(1).over(HAND).alias("previous_seq"),
        )
    )
    return ladder.filter(pl.col("is_call") | pl.col("answers_call")).with_columns(
        pl.when(pl.col("answers_call")).then(pl.col("previous_verb")).alias("answered_call"),
        pl.when(pl.col("answers_call")).then(pl.col("previous_seq")).alias("answered_seq"),
    )


def raise_answers(t: Tables) -> pl.DataFrame:
    """The events rows answering a raise of the raise ladder, as int_raise_answers."""
    steps = envit_steps(t).select(*HAND, "seq")
    return t["events"].filter(pl.col("answers")).join(steps, on=[*HAND, "seq"], how="anti")


def _faced_raise(t: Tables) -> pl.DataFrame:
    """Every raise answer with ``raise_seq``, the seq of the last raise before it in its hand (walked in
    order: the raise seqs forward-filled over the hand)."""
    marked = pl.concat(
        [
            t["events"].filter(pl.col("kind") == "raise").select(*HAND, "seq", pl.lit(True).alias("is_raise")),
            raise_answers(t).select(*HAND, "seq").with_columns(pl.lit(False).alias("is_raise")),
        ]
    ).sort([*HAND, "seq", "is_raise"])  # an answer that is also a raise faces the raise before it
    marked = marked.with_columns(
        pl.when(pl.col("is_raise")).then(pl.col("seq")).shift(1).forward_fill().over(HAND).alias("raise_seq")
    )
    answers = raise_answers(t)
    return (
        marked.filter(~pl.col("is_raise") & pl.col("raise_seq").is_not_null())
        .select(*HAND, "seq", "raise_seq")
        .join(answers, on=[*HAND, "seq"], how="inner")
    )


def decile(column: str) -> pl.Expr:
    """least(10, floor(pct * 10) + 1); null stays null (min_horizontal alone would give 10)."""
    value = pl.min_horizontal(pl.lit(10, pl.Int64), (pl.col(column) * 10).floor().cast(pl.Int64) + 1)
    return pl.when(pl.col(column).is_not_null()).then(value)


def count(condition: pl.Expr) -> pl.Expr:
    """How many rows of the group meet ``condition`` (null counts as not met), as Int64."""
    return condition.fill_null(False).sum().cast(pl.Int64)


def forced_raises(t: Tables) -> pl.DataFrame:
    """The raises the rules oblige, as int_forced_raises: made before play in a trut d'office hand."""
    office = t["hands"].filter(pl.col("special") == "trut_office").select(HAND)
    raises = t["events"].filter((pl.col("kind") == "raise") & pl.col("trick_no").is_null())
    return raises.join(office, on=HAND, how="inner").select(*HAND, "seq")


def _hands(t: Tables) -> pl.DataFrame:
    games = t["games"].select("dataset", "game_id", "variant", "players", "sides")
    return t["hands"].join(games, on=["dataset", "game_id"], how="inner")


def _finish(frame: pl.DataFrame, name: str) -> pl.DataFrame:
    """``frame`` as statistic ``name`` returns it: its columns and sort keys as the registry declares them (the
    twin computes every value its own way; what the output holds is declared once)."""
    statistic = STATISTICS[name]
    return frame.select(statistic.columns).sort(list(statistic.keys), nulls_last=True, maintain_order=True)


def first_trick_value(t: Tables) -> pl.DataFrame:
    first = pl.col("trick1_winner")
    per_group = (
        _hands(t)
        .filter(first >= 0)
        .group_by(GROUP)
        .agg(
            pl.len().cast(pl.Int64).alias("hands"),
            count(pl.col("winner_team") == first).alias("k_won"),
            count(pl.col("winner_team").is_not_null() & (pl.col("winner_team") != first)).alias("k_lost"),
            team_points(first).mean().alias("mean_points_won_first"),
            other_points(first).mean().alias("mean_points_lost_first"),
        )
    )
    result = per_group.with_columns(
        *rate_with_interval("k_won", "hands", "p_win_won_first", "ci_low_won_first", "ci_high_won_first"),
        *rate_with_interval("k_lost", "hands", "p_win_lost_first", "ci_low_lost_first", "ci_high_lost_first"),
        (pl.col("mean_points_won_first") - pl.col("mean_points_lost_first")).alias("points_value"),
    ).with_columns((pl.col("p_win_won_first") - pl.col("p_win_lost_first")).alias("value"))
    return _finish(result, "first_trick_value")


def bluff_success(t: Tables, threshold: float = 0.33) -> pl.DataFrame:
    # a raise is folded when every answer facing it is a fold, called when one is not
    outcomes = (
        _faced_raise(t)
        .group_by(*HAND, "raise_seq")
        .agg((pl.col("verb") == "fold").all().alias("all_folded"))
        .rename({"raise_seq": "seq"})
    )
    seats = (
        t["seats"]
        .select(*HAND, "seat", "strength_pct", seat_policy().alias("policy"))
        .filter(pl.col("strength_pct").is_not_null())
    )
    raises = (
        t["events"].filter(pl.col("kind") == "raise")
        .join(forced_raises(t), on=[*HAND, "seq"], how="anti")
        .join(seats, on=[*HAND, "seat"], how="inner")
        .join(outcomes, on=[*HAND, "seq"], how="left")
        .join(_hands(t), on=HAND, how="inner")
        .rename({"stake": "hand_stake"})
        .with_columns(
            pl.col("stake_after").alias("stake"),
            (pl.col("strength_pct") < threshold).alias("bluff"),
            pl.col("all_folded").alias("was_folded"),
            (~pl.col("all_folded")).alias("was_called"),
            (pl.col("winner_team") == pl.col("team")).alias("raiser_won"),
            (team_points(pl.col("team")) - other_points(pl.col("team"))).alias("net"),
        )
    )  # fmt: skip
    bluff = pl.col("bluff")
    per_stake = raises.group_by([*GROUP, "policy", "stake"]).agg(
        pl.len().cast(pl.Int64).alias("raises"),
        count(bluff).alias("bluffs"),
        count(bluff & pl.col("was_folded")).alias("folded"),
        count(bluff & pl.col("was_called")).alias("called"),
        count(bluff & pl.col("was_called") & pl.col("raiser_won")).alias("called_won"),
        pl.col("net").filter(bluff).mean().alias("net_points_per_bluff"),
    )
    result = per_stake.with_columns(
        *rate_with_interval("bluffs", "raises", "bluff_rate", "bluff_ci_low", "bluff_ci_high"),
        *rate_with_interval("folded", "bluffs", "success_rate", "success_ci_low", "success_ci_high"),
        *rate_with_interval("called_won", "called", "called_won_rate", "called_won_ci_low", "called_won_ci_high"),
        pl.col("net_points_per_bluff").cast(pl.Float64),
    )
    return _finish(result, "bluff_success")


def fold_rates(t: Tables) -> pl.DataFrame:
    raise_stakes = (
        t["events"]
        .filter(pl.col("kind") == "raise")
        .select(*HAND, pl.col("seq").alias("raise_seq"), pl.col("stake_after").alias("stake"))
    )
    games = t["games"].select("dataset", "game_id", "variant", "players")
    seats = t["seats"].select(*HAND, "seat", "strength_pct", "policy", "player")
    facing = (
        _faced_raise(t)
        .select(*HAND, "seat", "verb", "raise_seq")
        .join(raise_stakes, on=[*HAND, "raise_seq"], how="inner")
        .join(seats, on=[*HAND, "seat"], how="left")
        .join(games, on=["dataset", "game_id"], how="inner")
        .with_columns(
            decile("strength_pct").alias("decile"),
            (pl.col("verb") == "fold").alias("folded"),
            seat_policy().alias("policy"),
        )
    )
    aggregates = [pl.len().cast(pl.Int64).alias("facing"), count(pl.col("folded")).alias("folds")]
    by_decile = (
        facing.filter(pl.col("decile").is_not_null()).group_by([*GROUP, "policy", "stake", "decile"]).agg(aggregates)
    )
    all_deciles = (
        facing.group_by([*GROUP, "policy", "stake"])
        .agg(aggregates)
        .with_columns(pl.lit(None, pl.Int64).alias("decile"))
    )
    counts = pl.concat([by_decile, all_deciles.select(by_decile.columns)])
    result = counts.with_columns(*rate_with_interval("folds", "facing", "fold_rate"))
    return _finish(result, "fold_rates")


def mano_advantage(t: Tables) -> pl.DataFrame:
    eldest = pl.col("eldest_team")
    per_group = (
        _hands(t)
        .filter(pl.col("winner_team").is_not_null())
        .group_by(GROUP)
        .agg(
            pl.len().cast(pl.Int64).alias("hands"),
            count(pl.col("winner_team") == eldest).alias("eldest_wins"),
            team_points(eldest).mean().alias("mean_points_eldest"),
            other_points(eldest).mean().alias("mean_points_other"),
        )
    )
    result = per_group.with_columns(
        *rate_with_interval("eldest_wins", "hands", "win_rate"),
        (pl.col("mean_points_eldest") - pl.col("mean_points_other")).alias("points_diff"),
    )
    return _finish(result, "mano_advantage")


def stake_distribution(t: Tables) -> pl.DataFrame:
    hands = _hands(t).with_columns(
        (pl.col("points_team0") + pl.col("points_team1") + pl.col("points_team2").fill_null(0)).alias("total")
    )
    per_group = hands.group_by(GROUP).agg(
        pl.len().cast(pl.Int64).alias("group_hands"), pl.col("total").mean().alias("mean_points_per_hand")
    )
    per_stake = hands.group_by([*GROUP, "stake"]).agg(
        pl.len().cast(pl.Int64).alias("hands"), pl.col("total").mean().alias("mean_points")
    )
    result = per_stake.join(per_group, on=GROUP, how="inner").with_columns(
        *rate_with_interval("hands", "group_hands", "share")
    )
    return _finish(result, "stake_distribution")


def tie_frequency(t: Tables) -> pl.DataFrame:
    hands = _hands(t)
    parts = []
    for trick_no in (1, 2, 3):
        winner = pl.col(f"trick{trick_no}_winner")
        parts.append(
            hands.group_by(GROUP).agg(
                pl.lit("trick_tied").alias("measure"),
                pl.lit(trick_no, pl.Int64).alias("trick_no"),
                count(winner.is_not_null()).alias("n"),
                count(winner == -1).alias("count"),
            )
        )
    parts.append(
        hands.group_by(GROUP).agg(
            pl.lit("hand_by_tie_rule").alias("measure"),
            pl.lit(None, pl.Int64).alias("trick_no"),
            pl.len().cast(pl.Int64).alias("n"),
            count(pl.col("tie_rule").is_not_null()).alias("count"),
        )
    )
    result = _rate_columns(pl.concat(parts))
    return _finish(result, "tie_frequency")


def strength_curve(t: Tables) -> pl.DataFrame:
    hands = _hands(t).filter(pl.col("winner_team").is_not_null())
    seat_hands = (
        t["seats"]
        .filter(pl.col("strength_pct").is_not_null())
        .select(*HAND, "team", "strength_pct", seat_policy().alias("policy"))
        .join(hands, on=HAND, how="inner")
        .with_columns(
            decile("strength_pct").alias("decile"),
            (team_points(pl.col("team")) - other_points(pl.col("team"))).alias("net"),
        )
    )
    per_decile = seat_hands.group_by([*GROUP, "policy", "decile"]).agg(
        pl.len().cast(pl.Int64).alias("n"),
        count(pl.col("team") == pl.col("winner_team")).alias("wins"),
        pl.col("net").mean().alias("mean_net_points"),
    )
    result = per_decile.with_columns(*rate_with_interval("wins", "n", "p_win"))
    return _finish(result, "strength_curve")


def player_results(t: Tables) -> pl.DataFrame:
    hands = _hands(t)
    seat_hands = (
        t["seats"]
        .select(
            *HAND,
            "seat",
            "team",
            pl.coalesce("player", "policy", pl.lit("seat") + pl.col("seat").cast(pl.String)).alias("player"),
            (pl.col("policy").str.split(" ").list.first() == "random").fill_null(False).alias("random_bot"),
        )
        .join(hands, on=HAND, how="inner")
        .with_columns(
            pl.col("winner_team").is_not_null().alias("decided"),
            (pl.col("team") == pl.col("winner_team")).alias("won"),
            pl.when(pl.col("winner_team").is_not_null())
            .then(team_points(pl.col("team")) - other_points(pl.col("team")))
            .alias("net"),
        )
    )
    seat = [*HAND, "seat"]
    raises = t["events"].filter(pl.col("kind") == "raise").group_by(seat).agg(pl.len().alias("raises"))
    answers = (
        _faced_raise(t).group_by(seat).agg(pl.len().alias("facing"), count(pl.col("verb") == "fold").alias("folds"))
    )
    # results once per hand and side a player sat for (partners share them), raises and folds per seat; a
    # hand where the player held several sides is a mirror, grouped apart
    sides = seat_hands.unique([*HAND, "team", "player"]).with_columns(
        (pl.len().over(*HAND, "player") > 1).alias("mirror")
    )
    seat_hands = seat_hands.join(sides.select(*HAND, "team", "player", "mirror"), on=[*HAND, "team", "player"])
    results = sides.group_by([*GROUP, "player", "mirror"]).agg(
        count(pl.col("decided")).alias("decided"),
        count(pl.col("won")).alias("wins"),
        pl.col("net").mean().alias("mean_net_points"),
    )
    per_player = (
        seat_hands.join(raises, on=seat, how="left")
        .join(answers, on=seat, how="left")
        .group_by([*GROUP, "player", "mirror"])
        .agg(
            pl.len().cast(pl.Int64).alias("hands"),
            count(pl.col("random_bot")).alias("random_bot_hands"),
            pl.col("raises").fill_null(0).sum().cast(pl.Int64).alias("raises"),
            pl.col("facing").fill_null(0).sum().cast(pl.Int64).alias("facing"),
            pl.col("folds").fill_null(0).sum().cast(pl.Int64).alias("folds"),
        )
        .join(results, on=[*GROUP, "player", "mirror"], how="inner")
    )
    result = per_player.with_columns(
        *rate_with_interval("wins", "decided", "win_rate"),
        rate("raises", "hands").alias("raises_per_hand"),
        rate("folds", "facing").alias("fold_rate"),
    ).with_columns(_unless_mirror("win_rate", "ci_low", "ci_high", "mean_net_points"))
    return _finish(result, "player_results")


def _unless_mirror(*columns: str) -> list[pl.Expr]:
    """``columns`` left null on the rows whose ``mirror`` is true."""
    return [pl.when(~pl.col("mirror")).then(pl.col(column)).alias(column) for column in columns]


def game_results(t: Tables) -> pl.DataFrame:
    games = t["games"].filter(pl.col("winner_team").is_not_null())
    # a side's final score minus the mean of the others': with 2 sides score_team2 is null and counts 0
    scores = [pl.col("score_team0"), pl.col("score_team1"), pl.col("score_team2").fill_null(0)]
    own = pl.when(pl.col("team") == 0).then(scores[0]).when(pl.col("team") == 1).then(scores[1]).otherwise(scores[2])
    side_games = (
        side_policies(t)
        .join(games, on=["dataset", "game_id"], how="inner")
        .with_columns(
            (pl.col("sides_held") > 1).alias("mirror"),
            (pl.col("team") == pl.col("winner_team")).alias("won"),
            (own - (pl.sum_horizontal(scores) - own).cast(pl.Float64) / (pl.col("sides") - 1)).alias("margin"),
        )
    )
    keys = [*GROUP, "policy", "mirror"]
    per_policy = side_games.group_by(keys).agg(
        pl.len().cast(pl.Int64).alias("games"),
        count(pl.col("won")).alias("games_won"),
        pl.col("margin").mean().alias("mean_margin"),
        pl.col("margin").std().alias("sd"),
        pl.col("unit").min(),
        (pl.col("match_no").count() > 0).alias("in_matches"),
        count(pl.col("match_winner_team").is_not_null()).alias("matches"),
        count(pl.col("match_winner_team") == pl.col("team")).alias("matches_won"),
    )
    half = Z * pl.col("sd") / pl.col("games").cast(pl.Float64).sqrt()
    result = per_policy.with_columns(
        *rate_with_interval("games_won", "games", "win_rate"),
        (pl.col("mean_margin") - half).alias("margin_ci_low"),
        (pl.col("mean_margin") + half).alias("margin_ci_high"),
        pl.when(pl.col("in_matches")).then(pl.col("matches")).alias("matches"),
        pl.when(pl.col("in_matches")).then(pl.col("matches_won")).alias("matches_won"),
    ).with_columns(_unless_mirror("win_rate", "ci_low", "ci_high", "mean_margin", "margin_ci_low", "margin_ci_high"))
    return _finish(result, "game_results")


def raise_rates(t: Tables) -> pl.DataFrame:
    games = t["games"].select("dataset", "game_id", "variant", "players")
    chances = (
        t["events"]
        .filter(pl.col("could_raise") & pl.col("answers").is_not_null() & (pl.col("verb") != "redeal"))
        .join(envit_steps(t).select(*HAND, "seq"), on=[*HAND, "seq"], how="anti")
        .join(forced_raises(t), on=[*HAND, "seq"], how="anti")
        .join(games, on=["dataset", "game_id"], how="inner")
        .join(t["seats"].select(*HAND, "seat", "policy", "player"), on=[*HAND, "seat"], how="left")
        .with_columns(
            seat_policy().alias("policy"),
            pl.when(pl.col("answers")).then(pl.lit("accept_and_raise")).otherwise(pl.lit("raise"))
            .alias("decision"),
            pl.col("stake_before").alias("stake"),
        )
    )  # fmt: skip
    keys = [*GROUP, "policy", "decision", "stake", "trick_no"]
    per_group = chances.group_by(keys).agg(
        pl.len().cast(pl.Int64).alias("chances"), count(pl.col("kind") == "raise").alias("count")
    )
    result = per_group.with_columns(*rate_with_interval("count", "chances", "rate"))
    return _finish(result, "raise_rates")


def _rate_columns(frame: pl.DataFrame) -> pl.DataFrame:
    """``rate``, ``ci_low``, ``ci_high`` of ``count`` over ``n``."""
    return frame.with_columns(*rate_with_interval("count", "n", "rate"))


def _measure(frame: pl.DataFrame, measure: str, level: pl.Expr, n: pl.Expr, k: pl.Expr,
             by: Sequence[str | pl.Expr] = ()) -> pl.DataFrame:  # fmt: skip
    """One measure's rows: ``frame`` grouped by variant, players and ``by``, ``n`` and ``count`` aggregated."""
    return (
        frame.group_by(*GROUP, *by)
        .agg(n.cast(pl.Int64).alias("n"), k.cast(pl.Int64).alias("count"))
        .with_columns(pl.lit(measure).alias("measure"), level.alias("level"))
    )


def _band(value: pl.Expr) -> pl.Expr:
    return (
        pl.when(value < 20).then(pl.lit("0-19"))
        .when(value <= 25).then(pl.lit("20-25"))
        .when(value <= 28).then(pl.lit("26-28"))
        .when(value <= 30).then(pl.lit("29-30"))
        .otherwise(pl.lit("31-33"))
    )  # fmt: skip


def envit(t: Tables, bluff_below: float = 20.0) -> pl.DataFrame:
    hands = (
        _hands(t)
        .filter(pl.col("cames_after_team0").is_not_null())
        .with_columns(pl.col("envit_points").fill_null(0).alias("envit_stones"))
        .with_columns((pl.col("points_team0") + pl.col("points_team1") - pl.col("envit_stones")).alias("trick_stones"))
    )
    steps = envit_steps(t)
    answers = steps.filter(pl.col("answers_call")).select(
        *HAND, pl.col("answered_seq").alias("seq"), pl.col("verb").alias("answer_verb"),
        pl.col("is_call").alias("answer_is_call"),
    )  # fmt: skip
    calls = (
        steps.filter(pl.col("is_call"))
        .select(*HAND, "seq", "seat", "team", pl.col("verb").alias("rung"))
        .join(hands.select(*HAND, *GROUP, "envit_winner"), on=HAND, how="inner")
        .join(t["seats"].select(*HAND, "seat", "envit_value", "policy", "player"), on=[*HAND, "seat"], how="left")
        .with_columns(seat_policy().alias("policy"))
        .join(answers, on=[*HAND, "seq"], how="left")
    )
    called = calls.select(*HAND, "policy").unique().with_columns(pl.lit(True).alias("called"))
    seated = hands.select(*HAND, *GROUP).join(seat_policies(t), on=HAND, how="inner").unique([*HAND, "policy"])
    parts = [
        _measure(
            seated.join(called, on=[*HAND, "policy"], how="left"), "call", pl.lit(None, pl.String), pl.len(),
            count(pl.col("called")), by=["policy"],
        )
    ]  # fmt: skip
    for measure, condition in (
        ("accepted", pl.col("answer_verb") == "accept"),
        ("folded", pl.col("answer_verb") == "fold"),
        ("raised", pl.col("answer_is_call")),
    ):
        parts.append(_measure(calls, measure, pl.col("rung"), pl.len(), count(condition), by=["policy", "rung"]))
    opening = (
        calls.sort([*HAND, "seq"])
        .group_by(HAND)
        .agg(
            pl.col("team").first().alias("caller_team"),
            pl.col("envit_value").first().alias("caller_value"),
            pl.col("policy").first(),
        )
    )
    settled = (
        opening.join(hands.select(*HAND, *GROUP, "envit_winner", "envit_ended_by"), on=HAND, how="inner")
        .filter(pl.col("envit_winner").is_not_null() & pl.col("caller_value").is_not_null())
        .with_columns(_band(pl.col("caller_value")).alias("band"),
                      (pl.col("envit_winner") == pl.col("caller_team")).alias("won"))
    )  # fmt: skip
    won = count(pl.col("won"))
    parts.append(_measure(settled, "caller_won", pl.col("band"), pl.len(), won, by=["policy", "band"]))
    accepted = settled.filter(pl.col("envit_ended_by") == "accept")
    parts.append(_measure(accepted, "caller_won_accepted", pl.col("band"), pl.len(), won, by=["policy", "band"]))
    known = calls.filter(pl.col("envit_value").is_not_null())
    bluffs = known.filter(pl.col("envit_value") < bluff_below)
    parts.append(_measure(known, "bluff", pl.col("rung"), pl.len(), count(pl.col("envit_value") < bluff_below),
                          by=["policy", "rung"]))  # fmt: skip
    parts.append(_measure(bluffs, "bluff_folded", pl.col("rung"), pl.len(), count(pl.col("answer_verb") == "fold"),
                          by=["policy", "rung"]))  # fmt: skip
    parts.append(_measure(bluffs, "bluff_won", pl.col("rung"), pl.len(),
                          count(pl.col("envit_winner") == pl.col("team")), by=["policy", "rung"]))  # fmt: skip
    columns = ["variant", "players", "policy", "measure", "level", "n", "count"]
    rated = _rate_columns(pl.concat([p.select(columns) for p in parts])).with_columns(
        pl.lit(None, pl.Float64).alias("mean")
    )
    stones = pl.concat(
        [
            hands.group_by(GROUP).agg(
                pl.lit(None, pl.String).alias("policy"), pl.lit("stones").alias("measure"),
                pl.lit(source).alias("level"), pl.len().cast(pl.Int64).alias("n"),
                pl.col(column).sum().cast(pl.Int64).alias("count"),
            )
            for source, column in (("envit", "envit_stones"), ("tricks", "trick_stones"))
        ]
    ).with_columns(
        pl.lit(None, pl.Float64).alias("rate"), pl.lit(None, pl.Float64).alias("ci_low"),
        pl.lit(None, pl.Float64).alias("ci_high"), rate("count", "n").alias("mean"),
    )  # fmt: skip
    return _finish(pl.concat([rated, stones.select(rated.columns)]), "envit")


def trut(t: Tables) -> pl.DataFrame:
    hands = _hands(t).filter(pl.col("petits_team0").is_not_null())
    events = (
        t["events"]
        .join(hands.select(*HAND, *GROUP), on=HAND, how="inner")
        .join(seat_policies(t), on=[*HAND, "seat"], how="left")  # a row without a seat has no policy
    )
    truts = events.filter(pl.col("verb") == "trut")
    no_level = pl.lit(None, pl.String)
    truted = truts.select(*HAND, "policy").unique().with_columns(pl.lit(True).alias("truted"))
    choice = pl.col("special").is_null() | pl.col("special").is_in(["fortial", "fortial_both"])
    seated = hands.filter(choice).join(seat_policies(t), on=HAND, how="inner").unique([*HAND, "policy"])
    with_choice = seated.join(truted, on=[*HAND, "policy"], how="left")
    parts = [_measure(with_choice, "trut", no_level, pl.len(), count(pl.col("truted")), by=["policy"])]

    answers = (
        _faced_raise(t)
        .join(truts.select(*HAND, *GROUP, pl.col("seq").alias("raise_seq")), on=[*HAND, "raise_seq"], how="inner")
        .join(seat_policies(t), on=[*HAND, "seat"], how="left")
        .sort([*HAND, "seq"])
        .with_columns(pl.int_range(1, pl.len() + 1).over([*HAND, "raise_seq"]).alias("position"))
    )
    parts.append(
        _measure(answers, "fold_by_position", pl.col("position").cast(pl.String), pl.len(),
                 count(pl.col("verb") == "fold"), by=["policy", "position"])
    )  # fmt: skip

    # the seat to play is the trut row's to_play; out of turn, whether the truter had played in the trick
    plays = (
        t["events"]
        .filter(pl.col("kind") == "play")
        .select(*HAND, "trick_no", pl.col("seq").alias("play_seq"), pl.col("seat").alias("play_seat"))
    )
    trut_rows = truts.select(*HAND, *GROUP, "policy", "seq", "seat", "trick_no", "to_play")
    played_before = (
        trut_rows.join(plays, on=[*HAND, "trick_no"], how="inner")
        .filter((pl.col("play_seq") < pl.col("seq")) & (pl.col("play_seat") == pl.col("seat")))
        .select(*HAND, "seq")
        .unique()
        .with_columns(pl.lit(True).alias("played_before"))
    )
    judged = trut_rows.join(played_before, on=[*HAND, "seq"], how="left").with_columns(
        pl.when(pl.col("to_play").is_null()).then(pl.lit("call"))
        .when(pl.col("seat") == pl.col("to_play")).then(pl.lit("in_turn"))
        .when(pl.col("played_before").fill_null(False)).then(pl.lit("out_after_card"))
        .otherwise(pl.lit("out_before_card"))
        .alias("timing")
    )  # fmt: skip
    per_trick = judged.group_by(*GROUP, "policy", "trick_no").agg(pl.len().cast(pl.Int64).alias("n"))
    timing = (
        judged.group_by(*GROUP, "policy", "trick_no", "timing")
        .agg(pl.len().cast(pl.Int64).alias("count"))
        .join(per_trick, on=[*GROUP, "policy", "trick_no"], how="inner", nulls_equal=True)
        .with_columns(pl.lit("timing").alias("measure"), pl.col("timing").alias("level"))
    )

    deciders = (
        events.filter(pl.col("verb").is_in(["trut", "pass", "hold"]))
        .sort([*HAND, "seq"])
        .group_by(HAND)
        .agg(
            pl.col("team").first().alias("decider_team"),
            pl.col("policy").first(),
            pl.col("verb").is_in(["trut", "hold"]).any().alias("took"),
        )
    )
    special = hands.filter(pl.col("special").is_not_null()).join(deciders, on=HAND, how="left")
    for level, condition in (
        ("truted", pl.col("took").fill_null(False)),
        ("passed", pl.col("ended_by") == "pass"),
        ("folded", pl.col("ended_by") == "fold"),
        ("decider_won", pl.col("winner_team") == pl.col("decider_team")),
        ("void", pl.col("void")),
    ):
        sample = pl.col("decider_team").is_not_null() | pl.lit(level != "decider_won")
        parts.append(
            special.group_by(*GROUP, "policy", "special")
            .agg(count(sample).alias("n"), count(condition).alias("count"))
            .with_columns(pl.col("special").alias("measure"), pl.lit(level).alias("level"))
        )

    not_fortial = ~pl.col("special").fill_null("").is_in(["fortial", "fortial_both"])
    choices = events.join(hands.select(*HAND, "special"), on=HAND, how="inner")
    holds = choices.filter(pl.col("verb").is_in(["hold", "pass"]) & not_fortial)
    sings = choices.filter(pl.col("verb").is_in(["sing", "nosing"]))
    parts.append(_measure(holds, "hold", no_level, pl.len(), count(pl.col("verb") == "hold"), by=["policy"]))
    parts.append(_measure(sings, "sing", no_level, pl.len(), count(pl.col("verb") == "sing"), by=["policy"]))
    asks = events.filter(pl.col("verb") == "ask")
    ask_total = asks.group_by(*GROUP, "policy").agg(pl.len().cast(pl.Int64).alias("n"))
    parts.append(
        asks.group_by(*GROUP, "policy", "arg")
        .agg(pl.len().cast(pl.Int64).alias("count"))
        .join(ask_total, on=[*GROUP, "policy"], how="inner", nulls_equal=True)
        .with_columns(pl.lit("chanson_cards").alias("measure"), pl.col("arg").alias("level"))
    )
    columns = ["variant", "players", "policy", "measure", "level", "trick_no", "n", "count"]
    no_trick = pl.lit(None, pl.Int64).alias("trick_no")
    frames = [p.with_columns(no_trick).select(columns) for p in parts] + [timing.select(columns)]
    return _finish(_rate_columns(pl.concat(frames)), "trut")


def french(t: Tables) -> pl.DataFrame:
    policies = seat_policies(t)
    hands = (
        _hands(t)
        .filter(pl.col("redeals").is_not_null())
        .join(policies.rename({"seat": "eldest"}), on=[*HAND, "eldest"], how="left")
    )
    events = (
        t["events"]
        .join(hands.select(*HAND, *GROUP, "winner_team"), on=HAND, how="inner")
        .join(policies, on=[*HAND, "seat"], how="left")
    )
    no_size = pl.lit(None, pl.Int64)
    parts = [_measure(hands, "redeal", no_size, pl.len(), count(pl.col("redeals") > 0), by=["policy"])]
    # a refusal answers the latest request before it: its requester's policy, walked forward over the hand
    requests = (
        events.filter(pl.col("verb").is_in(["redeal", "refuse"]))
        .sort([*HAND, "seq"])
        .with_columns(pl.when(pl.col("verb") == "redeal").then(pl.col("policy")).forward_fill().over(HAND))
    )
    parts.append(
        _measure(requests, "redeal_refused", no_size, count(pl.col("verb") == "redeal"),
                 count(pl.col("verb") == "refuse"), by=["policy"])
    )  # fmt: skip
    raises = (
        events.filter(pl.col("verb") == "raise")
        .sort([*HAND, "seq"])
        .with_columns(pl.col("stake_after").shift(1).over(HAND).alias("pending"))
        .with_columns(
            (
                pl.col("stake_after")
                - pl.when(pl.col("answers")).then(pl.col("pending")).otherwise(pl.col("stake_before"))
            ).alias("size"),
            (pl.col("arg") == "reste").alias("is_reste"),
        )
    )  # fmt: skip
    numbered = raises.filter(~pl.col("is_reste"))
    sizes = (
        numbered.group_by(*GROUP, "policy", "size")
        .agg(pl.len().cast(pl.Int64).alias("count"))
        .join(
            numbered.group_by(*GROUP, "policy").agg(pl.len().cast(pl.Int64).alias("n")),
            on=[*GROUP, "policy"],
            how="inner",
            nulls_equal=True,
        )
        .with_columns(pl.lit("raise_size").alias("measure"))
        .rename({"size": "level"})
    )
    parts.append(sizes)
    parts.append(_measure(raises, "reste", no_size, pl.len(), count(pl.col("is_reste")), by=["policy"]))
    outcomes = (
        _faced_raise(t)
        .group_by(*HAND, "raise_seq")
        .agg(
            (pl.col("verb") == "fold").all().alias("all_folded"),
            ((pl.col("verb") == "accept") | (pl.col("kind") == "play")).any().alias("accepted"),
            (pl.col("kind") == "raise").any().alias("raised"),
        )
        .rename({"raise_seq": "seq"})
    )
    restes = (
        raises.filter(pl.col("is_reste"))
        .join(outcomes, on=[*HAND, "seq"], how="left")
        .with_columns(
            pl.col("all_folded").fill_null(False).alias("folded"),
            pl.col("accepted").fill_null(False),
            pl.col("raised").fill_null(False),
            (~pl.col("all_folded")).fill_null(False).alias("played_on"),
            (pl.col("winner_team") == pl.col("team")).alias("raiser_won"),
        )
    )
    for measure, condition in (
        ("reste_accepted", pl.col("accepted")),
        ("reste_folded", pl.col("folded")),
        ("reste_raised", pl.col("raised")),
    ):
        parts.append(_measure(restes, measure, no_size, pl.len(), count(condition), by=["policy"]))
    parts.append(
        _measure(restes, "reste_won", no_size, count(pl.col("played_on")),
                 count(pl.col("played_on") & pl.col("raiser_won")), by=["policy"])
    )  # fmt: skip
    columns = ["variant", "players", "policy", "measure", "size", "n", "count"]
    frames = [p.rename({"level": "size"}).select(columns) for p in parts]
    return _finish(_rate_columns(pl.concat(frames)), "french")


def void_hands(t: Tables) -> pl.DataFrame:
    per_group = (
        _hands(t).group_by(GROUP).agg(pl.len().cast(pl.Int64).alias("hands"), count(pl.col("void")).alias("void_hands"))
    )
    result = per_group.with_columns(*rate_with_interval("void_hands", "hands", "void_rate"))
    return _finish(result, "void_hands")


def variant_comparison(t: Tables, threshold: float = 0.33) -> pl.DataFrame:
    games = (
        t["games"]
        .group_by(GROUP)
        .agg(pl.col("sides").max(), pl.col("unit").min(), count(pl.col("complete")).alias("games"))
    )
    hands = _hands(t).join(t["games"].select("dataset", "game_id", "complete"), on=["dataset", "game_id"])
    first = pl.col("trick1_winner")
    winner = pl.col("winner_team")
    trick_columns = ["trick1_winner", "trick2_winner", "trick3_winner"]
    hand_figures = hands.group_by(GROUP).agg(
        pl.len().cast(pl.Int64).alias("hands"),
        count(pl.col("complete")).alias("complete_hands"),
        count(first >= 0).alias("first_trick_hands"),
        count((first >= 0) & (winner == first)).alias("won_by_first"),
        count((first >= 0) & winner.is_not_null() & (winner != first)).alias("won_by_other"),
        count(winner.is_not_null()).alias("decided_hands"),
        count(winner == pl.col("eldest_team")).alias("eldest_wins"),
        pl.sum_horizontal([pl.col(c).is_not_null().sum() for c in trick_columns]).cast(pl.Int64).alias("tricks"),
        pl.sum_horizontal([(pl.col(c) == -1).sum() for c in trick_columns]).cast(pl.Int64).alias("tied_tricks"),
    )
    faced = _faced_raise(t).join(t["games"].select("dataset", "game_id", *GROUP), on=["dataset", "game_id"])
    fold_figures = faced.group_by(GROUP).agg(
        pl.len().cast(pl.Int64).alias("facing"), count(pl.col("verb") == "fold").alias("folds")
    )
    outcomes = (
        faced.group_by(*HAND, "raise_seq")
        .agg((pl.col("verb") == "fold").all().alias("all_folded"))
        .rename({"raise_seq": "seq"})
    )
    bluff = pl.col("strength_pct") < threshold
    bluff_figures = (
        t["events"].filter(pl.col("kind") == "raise")
        .join(forced_raises(t), on=[*HAND, "seq"], how="anti")
        .join(t["seats"].filter(pl.col("strength_pct").is_not_null()).select(*HAND, "seat", "strength_pct"),
              on=[*HAND, "seat"], how="inner")
        .join(outcomes, on=[*HAND, "seq"], how="left")
        .join(t["games"].select("dataset", "game_id", *GROUP), on=["dataset", "game_id"])
        .group_by(GROUP)
        .agg(
            pl.len().cast(pl.Int64).alias("raises"),
            count(bluff).alias("bluffs"),
            count(bluff & pl.col("all_folded")).alias("bluffs_folded"),
        )
    )  # fmt: skip
    counts = [
        "hands", "complete_hands", "first_trick_hands", "won_by_first", "won_by_other", "decided_hands",
        "eldest_wins", "tricks", "tied_tricks", "raises", "bluffs", "bluffs_folded", "facing", "folds",
    ]  # fmt: skip
    group_policies = (
        t["seats"]
        .filter(pl.col("hand_no") == 1)
        .join(t["games"].select("dataset", "game_id", *GROUP), on=["dataset", "game_id"])
        .group_by(GROUP)
        .agg(seat_policy().n_unique().cast(pl.Int64).alias("policies"))
    )
    figures = (
        games.join(group_policies, on=GROUP, how="left")
        .with_columns(pl.col("policies").fill_null(0))
        .join(hand_figures, on=GROUP, how="left")
        .join(bluff_figures, on=GROUP, how="left")
        .join(fold_figures, on=GROUP, how="left")
        .with_columns(pl.col(c).fill_null(0) for c in counts)
    )
    rates = {
        "first_trick": ("won_by_first", "first_trick_hands", "first_trick_win_rate"),
        "bluff": ("bluffs", "raises", "bluff_rate"),
        "bluff_success": ("bluffs_folded", "bluffs", "bluff_success_rate"),
        "fold": ("folds", "facing", "fold_rate"),
        "mano": ("eldest_wins", "decided_hands", "mano_win_rate"),
        "tie": ("tied_tricks", "tricks", "tie_rate"),
    }
    columns = []
    for prefix, (k, n, name) in rates.items():
        columns += rate_with_interval(k, n, name, f"{prefix}_ci_low", f"{prefix}_ci_high")
    result = figures.with_columns(
        *columns,
        rate("complete_hands", "games").alias("mean_hands_per_game"),
        (rate("won_by_first", "first_trick_hands") - rate("won_by_other", "first_trick_hands")).alias(
            "first_trick_value"
        ),
    ).with_columns((pl.col("mano_win_rate") - 1.0 / pl.col("sides")).alias("mano_edge"))
    return _finish(result, "variant_comparison")


CHECKS: dict[str, Callable[..., pl.DataFrame]] = {name: globals()[name] for name in STATISTICS}
"""The twin of every statistic of the registry: the function of this module named as the statistic."""


def compute(name: str, data: Path | Sequence[Path], params: Mapping[str, float] | None = None) -> pl.DataFrame:
    """The polars answer for statistic ``name`` over ``data``, with ``params`` already typed."""
    return CHECKS[name](load(data), **dict(params or {}))


# --- synthetic data ---------------------------------------------------------------------------------
# Random hands shaped like the simulator's output, to exercise every path of the statistics before a real
# simulated dataset exists: raises before play and during tricks, accept, fold, accept-and-raise, a play
# that accepts, raises never answered (a record that stops), tied tricks, void hands, seats of unknown
# strength and strengths of exactly 0 and 1. The game play is not a real variant's: only the columns'
# meanings are kept.

_VERBS = {2: "truc", 3: "retruc", 4: "quatre-val"}
_SHAPES = [("catalan", 2, 3), ("catalan", 4, 3), ("french", 2, 4)]  # variant, players, top stake


class _Hand:
    """Builds one synthetic hand's events, seats and hands rows."""

    def __init__(self, rng: random.Random, game_id: int, hand_no: int, players: int, top: int) -> None:
        self.rng = rng
        self.game_id = game_id
        self.hand_no = hand_no
        self.players = players
        self.top = top
        self.dealer = rng.randrange(players)
        self.eldest = (self.dealer + 1) % players
        self.events: list[tuple[Any, ...]] = []
        self.stake = 1
        self.last_raiser: int | None = None
        self.folded_by: int | None = None  # the team that folded
        self.trick_no: int | None = None
        self.cut_short = False  # the record stops after an unanswered raise

    def event(self, seat: int | None, verb: str, kind: str, answers: bool | None, could_raise: bool,
              stake_after: int) -> None:  # fmt: skip
        team = None if seat is None else seat % 2
        self.events.append(
            (self.game_id, self.hand_no, len(self.events), seat, team, verb, None, kind, answers,
             could_raise, self.trick_no, self.stake, stake_after)
        )  # fmt: skip

    def can_raise(self, seat: int) -> bool:
        return self.stake < self.top and self.last_raiser != seat % 2

    def raise_and_answer(self, seat: int, answering: bool = False) -> None:
        """``seat`` raises; the next opponent answers; may recurse on a raise back."""
        proposed = self.stake + 1
        self.event(seat, _VERBS.get(proposed, f"raise {proposed}"), "raise", answers=answering,
                   could_raise=True, stake_after=proposed)  # fmt: skip
        self.last_raiser = seat % 2
        if self.rng.random() < 0.03:
            self.cut_short = True
            return
        answerer = (seat + 1) % self.players
        choice = self.rng.random()
        if choice < 0.3:
            self.event(answerer, "fold", "answer", True, proposed < self.top, self.stake)
            self.folded_by = answerer % 2
        elif choice < 0.45 and proposed < self.top:
            # accept and raise back: stake moves to the proposed one, then the new raise is pending
            self.stake = proposed
            self.raise_and_answer(answerer, answering=True)
        elif choice < 0.75:
            self.event(answerer, "accept", "answer", True, proposed < self.top, proposed)
            self.stake = proposed
        else:
            self.stake = proposed
            self.event(answerer, "play 3o", "play", True, False, proposed)

    def play(self) -> dict[str, Any]:
        rng = self.rng
        self.event(None, "dealt", "deal", False, False, 1)
        if rng.random() < 0.15 and self.can_raise(self.eldest):
            self.raise_and_answer(self.eldest)
        winners: list[int] = []
        for trick in (1, 2, 3):
            if self.folded_by is not None or self.cut_short:
                break
            self.trick_no = trick
            for offset in range(self.players):
                seat = (self.eldest + offset) % self.players
                could = self.can_raise(seat)
                if could and rng.random() < 0.25:
                    self.raise_and_answer(seat)
                    if self.folded_by is not None or self.cut_short:
                        break
                    could = self.can_raise(seat)
                self.event(seat, "play 1e", "play", False, could, self.stake)
            else:
                winners.append(rng.choice([0, 1, 1, 0, -1]))
                if len([w for w in winners if w >= 0]) >= 2 or len(winners) == 3:
                    break
        eldest_team = self.eldest % 2
        tie_rule = None
        if self.folded_by is not None:
            winner: int | None = 1 - self.folded_by
            ended_by = "fold"
        else:
            ended_by = "tricks"
            decided = [w for w in winners if w >= 0]
            if winners and all(w == -1 for w in winners):
                winner = eldest_team if rng.random() < 0.5 else None  # all tied: eldest, or void
                tie_rule = "all_tied_eldest" if winner is not None else None
            elif decided:
                winner = max(set(decided), key=decided.count)
                tie_rule = "first_decisive" if -1 in winners else None
            else:
                winner = rng.choice([0, 1])
        points = [0, 0]
        if winner is not None:
            points[winner] = self.stake
        trick_cols = [*winners, None, None, None][:3]
        return {
            "hand": (self.game_id, self.hand_no, self.dealer, self.eldest, eldest_team, 3, 0, 0, self.stake,
                     ended_by, winner, points[0], points[1], len(winners), *trick_cols, tie_rule, winner is None),
            "winner": winner,
        }  # fmt: skip


def write_synthetic(root: Path, seed: int, games: int = 120) -> Path:
    """A random but consistent dataset at ``root``: ``games`` games of one to eight hands, in two parts
    (the first half of the games in part 0, the rest in part 1) so that a table is several files."""
    rng = random.Random(seed)
    halves = [parts.new_batches(), parts.new_batches()]
    for game_id in range(games):
        batches = halves[0] if game_id < games // 2 else halves[1]
        variant, players, top = rng.choice(_SHAPES)
        n_hands = rng.randint(1, 8)
        score = [0, 0]
        for hand_no in range(1, n_hands + 1):
            hand = _Hand(rng, game_id, hand_no, players, top)
            result = hand.play()
            batches["hands"].append(result["hand"])
            score[0] += result["hand"][11]
            score[1] += result["hand"][12]
            for row in hand.events:
                batches["events"].append(row)
            for seat in range(players):
                roll = rng.random()
                pct = None if roll < 0.08 else (1.0 if roll < 0.1 else (0.0 if roll < 0.12 else rng.random()))
                strength = None if pct is None else pct * 0.9
                # named players in two games of three (a name seated at different seats), bots in the rest
                player = f"player {(seat + game_id) % (players + 1)}" if game_id % 3 else None
                policy = None if game_id % 5 == 0 else "random" if game_id % 2 else "threshold"
                batches["seats"].append(
                    full_row(parts.SEATS, {
                        "game_id": game_id, "hand_no": hand_no, "seat": seat, "team": seat % 2, "policy": policy,
                        "cards": "3o 12c 5e", "strength": strength, "strength_pct": pct, "player": player,
                    })
                )  # fmt: skip
        winner = 0 if score[0] >= score[1] else 1
        batches["games"].append(
            full_row(parts.GAMES, {
                "game_id": game_id, "variant": variant, "players": players, "options": "",
                "seed": seed * 1000 + game_id, "first_dealer": 0, "hands": n_hands, "complete": True,
                "winner_team": winner, "score_team0": score[0], "score_team1": score[1], "source": "simulate",
                "sides": 2, "unit": _UNITS[variant],
            })
        )  # fmt: skip
    for number, batches in enumerate(halves):
        write_part(root, number, batches)
    store.write_manifest(root, {"source": "synthetic", "seed": seed, "games": games})
    return root


# --- synthetic data for every variant family --------------------------------------------------------
# Random hands of french, trut (2, 3 and 4 players) and valencian games, shaped like their engines'
# output, to exercise every statistic's variant paths before real datasets of these variants exist:
#
# - trut: truts in and out of turn (to_play, the seat whose turn it is), before and after the truter's
#   card, in every trick and at the fortial or a trut d'office (trick_no and to_play null); answers seat
#   by seat from the eldest (two sides: up to the first "see"; three sides: both answer, a folder leaves
#   the hand); petits and longs; the fortial (pass or trut), trut d'office hands (special 'trut_office':
#   an obliged trut, sometimes after la chanson; 'tenir': hold/pass; 'chanson': sing, nosing, ask N,
#   discard, then an obliged trut), as the regional engines name them; void hands; option dealer_leads.
# - valencian: the envit (envit, torne, falta, envit-falta; accepted, folded, raised, never answered),
#   called on a seat's turn or in answer to a truc; envit answers recorded either as the engine does
#   (kind 'envit_answer', answers false) or as the brief assumes (kind 'answer', answers true), chosen
#   per game; the truc ladder up to joc fora; stones, envit points and cames; unknown envit values.
# - french: redeal requests agreed or refused, raises to any number and to the reste, raises in answer,
#   plays that accept, void hands.
# - every family: to_play, the seat whose turn it is to play a card, on every row in trick play (null
#   before play), as the engines record it.
# The play is not the variants' real play: only the columns' meanings are kept.

_ENVIT_NEXT = {None: ("envit", "envit-falta"), "envit": ("torne", "falta"), "torne": ("falta",)}
_ENVIT_VALUES = (1, 3, 4, 5, 6, 7, 20, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33)
_TRUC_VERBS = {2: "truc", 3: "retruc", 4: "quatre-val", 5: "joc-fora"}
_FAMILY_SHAPES = (("trut", 2), ("trut", 3), ("trut", 4), ("valencian", 2), ("valencian", 4), ("french", 2),
                  ("french", 4))  # fmt: skip
_UNITS = {"catalan": "points", "trut": "longs", "valencian": "cames", "french": "points"}


def write_part(root: Path, part: int, batches: dict[str, parts.TableBatch]) -> None:
    """``parts.write_part`` of rows built by hand, the events' facts (``parts.EVENT_FACTS``, left null by the
    builders) derived first from the part's events and seats (``upgrade.derive_facts``): a part holds whole
    games, as the writer derives them hand by hand."""
    events = upgrade.derive_facts(batches["events"].to_arrow(), batches["seats"].to_arrow())
    batches["events"].columns = [column.to_pylist() for column in events.columns]
    parts.write_part(root, part, batches)


def full_row(schema: Any, values: Mapping[str, Any]) -> tuple[Any, ...]:
    """A row of ``schema`` from column values by name (absent columns are null)."""
    unknown = set(values) - set(schema.names)
    if unknown:
        raise KeyError(f"not columns of the table: {sorted(unknown)}")
    return tuple(values.get(name) for name in schema.names)


class _FamilyHand:
    """One synthetic hand of a variant family: its events, and the hand's columns as a dict."""

    def __init__(self, rng: random.Random, game_id: int, hand_no: int, players: int, dealer: int,
                 options: Mapping[str, str]) -> None:  # fmt: skip
        self.rng = rng
        self.game_id = game_id
        self.hand_no = hand_no
        self.n = players
        self.sides = 3 if players == 3 else 2
        self.dealer = dealer
        self.eldest = (dealer + 1) % players
        self.options = options
        self.events: list[tuple[Any, ...]] = []
        self.stake = 1
        self.trick_no: int | None = None
        self.to_play: int | None = None  # the seat whose turn it is to play a card, once play has begun
        self.all_tied = rng.random() < 1 / 16

    def team(self, seat: int) -> int:
        return seat if self.sides == 3 else seat % 2

    def order_from(self, seat: int) -> list[int]:
        return [(seat + k) % self.n for k in range(self.n)]

    def event(
        self,
        seat: int | None,
        verb: str,
        kind: str,
        *,
        arg: str | None = None,
        answers: bool = False,
        could_raise: bool = False,
        stake_after: int | None = None,
        trick_no: Any = "current",
    ) -> None:
        """Record an action; ``trick_no`` defaults to the trick in progress (None: before play), and
        ``to_play`` is the seat to play in trick play, null outside it (as the engines record it)."""
        trick = self.trick_no if trick_no == "current" else trick_no
        self.events.append(
            (self.game_id, self.hand_no, len(self.events), seat, None if seat is None else self.team(seat), verb,
             arg, kind, answers, could_raise, trick, self.stake, self.stake if stake_after is None else stake_after,
             None if trick is None else self.to_play)
        )  # fmt: skip

    def trick_result(self, playing: Sequence[int]) -> int:
        """A trick's winner among the sides of ``playing`` seats, or -1 (a tie) one time in six; every
        trick of one hand in sixteen is tied (a void hand in french and the trut family)."""
        if self.all_tied or self.rng.random() < 1 / 6:
            return -1
        return self.team(self.rng.choice(list(playing)))

    def hand_winner(self, tricks: Sequence[int]) -> int | None:
        """Most tricks won; the first decisive trick breaks equal counts; all tied: None (void)."""
        won = [t for t in tricks if t >= 0]
        if not won:
            return None
        best = max(won.count(side) for side in set(won))
        return next(t for t in won if won.count(t) == best)

    def hand_over(self, tricks: Sequence[int]) -> bool:
        won = [t for t in tricks if t >= 0]
        return (
            len(tricks) == 3
            or any(won.count(side) >= 2 for side in set(won))
            or (len(tricks) == 2 and len(won) == 1 and tricks[0] >= 0)
        )


class _TrutHand(_FamilyHand):
    def play(self) -> dict[str, Any]:
        rng, n = self.rng, self.n
        self.event(None, "dealt", "deal", trick_no=None)
        special = rng.choice([None, None, None, None, None, "fortial", "trut_office", "tenir", "chanson"])
        truter: int | None = None
        folded: list[int] = []
        seen: list[int] = []
        ended_by = "tricks"
        decider_side = self.team(rng.randrange(n))
        deciders = [s for s in self.order_from(self.eldest) if self.team(s) == decider_side]
        if special == "chanson" or (special == "trut_office" and rng.random() < 0.3):  # la chanson first
            singers = self.order_from(self.eldest)
            answers = [rng.random() < 0.7 for _ in singers]
            for seat, sings in zip(singers, answers, strict=True):
                self.event(seat, "sing" if sings else "nosing", "choice", trick_no=None)
                if not sings:
                    break
            if all(answers):
                self.event(self.eldest, "ask", "choice", arg=str(rng.choice([1, 2, 3])), trick_no=None)
                if rng.random() < 0.3:
                    self.event(self.eldest, "ask", "choice", arg=str(rng.choice([1, 2])), trick_no=None)
                for seat in singers:
                    self.event(seat, "discard", "choice", arg="??", trick_no=None)
        if special is not None:
            style = "hold" if special == "tenir" else "call"
            for seat in deciders:
                if style == "hold":
                    took = rng.random() < 0.5
                    self.event(seat, "hold" if took else "pass", "choice", trick_no=None)
                else:
                    took = special != "fortial" or rng.random() < 0.6
                    if took:
                        truter = seat
                        self.event(seat, "trut", "raise", could_raise=True, stake_after=3, trick_no=None)
                    else:
                        self.event(seat, "pass", "choice", could_raise=True, trick_no=None)
                if took:
                    break
            else:
                ended_by = "pass"
            if truter is not None:
                ended_by = self.answer_trut(truter, folded, seen, trick_no=None)
        tricks: list[int] = []
        leader = self.dealer if self.options.get("dealer_leads") == "on" else self.eldest
        while ended_by == "tricks" and not (tricks and self.hand_over(tricks)):
            self.trick_no = len(tricks) + 1
            played: list[int] = []
            for seat in self.order_from(leader):
                if seat in folded and self.sides == 3:
                    continue
                self.to_play = seat
                if truter is None and special is None and rng.random() < 0.12:
                    candidates = [s for s in range(n) if not (self.sides == 3 and s in folded)]
                    truter = seat if rng.random() < 0.5 else rng.choice(candidates)
                    self.event(truter, "trut", "raise", could_raise=True, stake_after=3)
                    ended_by = self.answer_trut(truter, folded, seen)
                    if ended_by != "tricks":
                        break
                    if seat in folded and self.sides == 3:
                        continue
                self.event(seat, "play", "play", arg="7h", could_raise=truter is None and special is None)
                played.append(seat)
            if ended_by != "tricks":
                break
            playing = [s for s in range(n) if not (self.sides == 3 and s in folded)]
            tricks.append(self.trick_result(playing))
            leader = rng.choice(playing)
        return self.score(special, truter, folded, seen, ended_by, tricks, decider_side)

    def answer_trut(self, truter: int, folded: list[int], seen: list[int], trick_no: Any = "current") -> str:
        """The truter's opponents answer one by one from the eldest; returns how the hand goes on."""
        opponents = [s for s in self.order_from(self.eldest) if self.team(s) != self.team(truter)]
        if self.rng.random() < 0.03:
            return "cut"  # the record stops before any answer
        for seat in opponents:
            sees = self.rng.random() < 0.5
            (seen if sees else folded).append(seat)
            stake = 3 * max(1, len(seen)) if sees or seen else self.stake
            self.event(seat, "accept" if sees else "fold", "answer", answers=True, stake_after=stake,
                       trick_no=trick_no)  # fmt: skip
            if sees:
                self.stake = stake
            if sees and self.sides == 2:
                break
        return "tricks" if seen else "fold"

    def score(self, special: str | None, truter: int | None, folded: list[int], seen: list[int], ended_by: str,
              tricks: list[int], decider_side: int) -> dict[str, Any]:  # fmt: skip
        petits = [0] * self.sides
        longs = [0] * self.sides
        winner: int | None = None
        void = False
        if ended_by == "cut":
            ended_by = "tricks"
        elif ended_by == "pass":
            for side in range(self.sides):
                if side != decider_side:
                    petits[side] += 1
        elif ended_by == "fold":
            assert truter is not None
            winner = self.team(truter)
            petits[winner] += len(folded)
        else:
            winner = self.hand_winner(tricks) if tricks else None
            void = bool(tricks) and winner is None
            if winner is not None:
                if seen or special in ("trut_office", "tenir", "chanson"):
                    longs[winner] += max(1, len(seen))
                else:
                    petits[winner] += 1
                if truter is not None and self.sides == 3:
                    petits[self.team(truter)] += len(folded)
        values = {
            "ended_by": ended_by,
            "winner_team": winner,
            "stake": self.stake,
            "tricks": tricks,
            "void": void,
            "special": special,
            "trut_seat": truter,
            "points": [p + 3 * lg for p, lg in zip(petits, longs, strict=True)],
        }
        for side in range(self.sides):
            values[f"petits_team{side}"] = petits[side]
            values[f"longs_team{side}"] = longs[side]
        return values


class _ValencianHand(_FamilyHand):
    def play(self, brief_convention: bool, stones: list[int]) -> dict[str, Any]:
        rng, n = self.rng, self.n
        self.envit_values = [None if rng.random() < 0.05 else rng.choice(_ENVIT_VALUES) for _ in range(n)]
        self.event(None, "dealt", "deal", trick_no=None)
        self.brief = brief_convention
        self.envit: tuple[str, int, int] | None = None  # (ended_by, stake, caller's team)
        self.envit_done = False
        self.last_call: str | None = None
        self.folded_by: int | None = None
        self.cut = False
        self.last_raiser: int | None = None
        tricks: list[int] = []
        leader = self.eldest
        first_card = set()
        while self.folded_by is None and not self.cut and not (tricks and self.hand_over(tricks)):
            self.trick_no = len(tricks) + 1
            for seat in self.order_from(leader):
                self.to_play = seat
                if seat not in first_card and not self.envit_done and rng.random() < 0.25:
                    self.call_envit(seat)
                if self.cut:
                    break
                if self.stake < 5 and self.last_raiser != self.team(seat) and rng.random() < 0.2:
                    self.raise_truc(seat)
                    if self.folded_by is not None or self.cut:
                        break
                verb = "cover" if rng.random() < 0.1 else "play"
                self.event(seat, verb, "play", arg="4o", could_raise=self.stake < 5)
                first_card.add(seat)
            if self.folded_by is not None or self.cut:
                break
            tricks.append(self.trick_result(range(n)))
            leader = rng.randrange(n)
        if self.folded_by is not None:
            winner: int | None = 1 - self.folded_by
            ended_by = "fold"
        elif tricks:
            winner = self.hand_winner(tricks)
            winner = self.team(self.eldest) if winner is None else winner
            ended_by = "tricks"
        else:
            winner, ended_by = None, "tricks"
        points = [0, 0]
        values: dict[str, Any] = {}
        if self.envit is not None:
            how, stake, caller = self.envit
            if how == "fold":
                envit_winner = caller
            else:
                known = [(v if v is not None else -1, -k) for k, v in enumerate(self.values_from_eldest())]
                best = max(known)
                envit_winner = self.team((self.eldest - best[1]) % n)
            stake = stake if stake > 0 else 18 - stones[1 - envit_winner] // 2
            envit_points = min(stake, 18 - stones[1 - envit_winner])
            points[envit_winner] += envit_points
            values.update(envit_stake=stake, envit_winner=envit_winner, envit_points=envit_points,
                          envit_ended_by="accept" if how == "accept" else "fold")  # fmt: skip
        if winner is not None:
            points[winner] += self.stake if self.stake < 5 else 9
        joc_fora = self.stake == 5 and ended_by == "tricks"
        values.update(ended_by=ended_by, winner_team=winner, stake=self.stake, tricks=tricks, void=False,
                      special="joc_fora" if joc_fora else None, points=points)  # fmt: skip
        return values

    def values_from_eldest(self) -> list[int | None]:
        return [self.envit_values[s] for s in self.order_from(self.eldest)]

    def call_envit(self, seat: int) -> None:
        """``seat`` opens the envit; the next opponent answers; calls may go up the ladder."""
        caller = seat
        verb = self.rng.choice(_ENVIT_NEXT[None])
        fold_value = {"envit": 1, "envit-falta": 1, "torne": 2, "falta": 2}
        accept_value = {"envit": 2, "torne": 4, "envit-falta": -1, "falta": -1}
        self.envit_done = True
        while True:
            self.event(caller, verb, "envit", could_raise=self.stake < 5, answers=self.brief and verb != self.last_call
                       and self.last_call is not None)  # fmt: skip
            self.last_call = verb
            if self.rng.random() < 0.03:
                self.cut = True
                return
            answerer = (caller + 1) % self.n
            choice = self.rng.random()
            kind, answers = ("answer", True) if self.brief else ("envit_answer", False)
            if choice < 0.3 and verb in _ENVIT_NEXT:
                caller, verb = answerer, self.rng.choice(_ENVIT_NEXT[verb])
                continue
            if choice < 0.6:
                self.event(answerer, "fold", kind, answers=answers)
                self.envit = ("fold", fold_value[verb], self.team(caller))
            else:
                self.event(answerer, "accept", kind, answers=answers)
                self.envit = ("accept", accept_value[verb], self.team(caller))
            return

    def raise_truc(self, seat: int, answering: bool = False) -> None:
        proposed = self.stake + 1
        self.event(seat, _TRUC_VERBS[proposed], "raise", answers=answering, could_raise=True, stake_after=proposed)
        self.last_raiser = self.team(seat)
        if self.rng.random() < 0.03:
            self.cut = True
            return
        answerer = (seat + 1) % self.n
        if not self.envit_done and self.rng.random() < 0.3:  # the answerer calls the envit first
            self.call_envit(answerer)
            if self.cut:
                return
        choice = self.rng.random()
        if choice < 0.3:
            self.event(answerer, "fold", "answer", answers=True, could_raise=proposed < 5)
            self.folded_by = self.team(answerer)
        elif choice < 0.45 and proposed < 5:
            self.stake = proposed
            self.raise_truc(answerer, answering=True)
        else:
            self.event(answerer, "accept", "answer", answers=True, could_raise=proposed < 5, stake_after=proposed)
            self.stake = proposed


class _FrenchHand(_FamilyHand):
    def play(self, need: Sequence[int]) -> dict[str, Any]:
        rng, n = self.rng, self.n
        self.event(None, "dealt", "deal", trick_no=None)
        redeals = 0
        while rng.random() < 0.25:
            self.event(self.eldest, "redeal", "choice", could_raise=True, trick_no=None)
            opponents = [s for s in self.order_from(self.eldest) if self.team(s) != self.team(self.eldest)]
            refused = False
            for seat in opponents:
                if rng.random() < 0.3:
                    self.event(seat, "refuse", "choice", trick_no=None)
                    refused = True
                    break
                self.event(seat, "accept", "choice", trick_no=None)
            if refused:
                break
            redeals += 1
            self.event(None, "dealt", "deal", trick_no=None)
        self.need = need
        self.last_raiser: int | None = None
        self.folded_by: int | None = None
        self.cut = False
        tricks: list[int] = []
        leader = self.eldest
        while self.folded_by is None and not self.cut and not (tricks and self.hand_over(tricks)):
            self.trick_no = len(tricks) + 1
            for seat in self.order_from(leader):
                self.to_play = seat
                answering_play = False
                if self.last_raiser != self.team(seat) and self.stake < 12 and rng.random() < 0.2:
                    answering_play = self.raise_to(seat)
                    if self.folded_by is not None or self.cut:
                        break
                self.event(seat, "play", "play", arg="8h", answers=answering_play, could_raise=self.stake < 12)
            if self.folded_by is not None or self.cut:
                break
            tricks.append(self.trick_result(range(n)))
            leader = rng.randrange(n)
        values: dict[str, Any] = {"redeals": redeals}
        points = [0, 0]
        if self.folded_by is not None:
            winner: int | None = 1 - self.folded_by
            points[winner] = self.stake
            ended_by = "fold"
        else:
            winner = self.hand_winner(tricks) if tricks else None
            if winner is not None:
                points[winner] = self.stake
            ended_by = "tricks"
        values.update(ended_by=ended_by, winner_team=winner, stake=self.stake, tricks=tricks,
                      void=bool(tricks) and winner is None, points=points)  # fmt: skip
        return values

    def raise_to(self, seat: int, answering: bool = False) -> bool:
        """``seat`` raises; returns True when the answer is left to the answerer's next card (a play that
        accepts)."""
        rng = self.rng
        team = self.team(seat)
        base = self.stake
        reste = rng.random() < 0.15 or self.need[team] <= base + 1
        proposed = self.need[team] if reste else base + rng.choice([1, 1, 2, 3])
        proposed = max(proposed, base + 1)
        self.event(seat, "raise", "raise", arg="reste" if reste else str(proposed), answers=answering,
                   could_raise=True, stake_after=proposed)  # fmt: skip
        self.last_raiser = team
        if rng.random() < 0.03:
            self.cut = True
            return False
        answerer = (seat + 1) % self.n
        choice = rng.random()
        if choice < 0.3:
            self.event(answerer, "fold", "answer", answers=True, could_raise=True)
            self.folded_by = self.team(answerer)
        elif choice < 0.45 and proposed < 12:
            self.stake = proposed
            self.raise_to(answerer, answering=True)
        elif choice < 0.8 or answerer != (seat + 1) % self.n:
            self.event(answerer, "accept", "answer", answers=True, could_raise=True, stake_after=proposed)
            self.stake = proposed
        else:
            self.stake = proposed
            return True
        return False


_FAMILIES: dict[str, type[_FamilyHand]] = {"trut": _TrutHand, "valencian": _ValencianHand, "french": _FrenchHand}


def write_synthetic_variants(root: Path, seed: int, games: int = 90) -> Path:
    """A random but consistent dataset of trut (2, 3, 4 players), valencian and french games at ``root``,
    in two parts, every variant column filled as its family's engine fills it (see the comment above)."""
    rng = random.Random(seed)
    halves = [parts.new_batches(), parts.new_batches()]
    for game_id in range(games):
        batches = halves[0] if game_id < games // 2 else halves[1]
        variant, players = _FAMILY_SHAPES[game_id % len(_FAMILY_SHAPES)]
        options = {"players": str(players)}
        if variant == "trut":
            options["dealer_leads"] = rng.choice(["off", "on"])
        sides = 3 if players == 3 else 2
        score = [0] * sides
        tokens = {"petits": [0] * sides, "longs": [0] * sides}
        stones = [0, 0]
        brief = rng.random() < 0.5
        dealer = rng.randrange(players)
        first_dealer = dealer
        n_hands = rng.randint(1, 9)
        for hand_no in range(1, n_hands + 1):
            hand = _FAMILIES[variant](rng, game_id, hand_no, players, dealer, options)
            before = list(score)
            if isinstance(hand, _TrutHand):
                values = hand.play()
                for side in range(sides):
                    petits = tokens["petits"][side] + values[f"petits_team{side}"]
                    longs = tokens["longs"][side] + values[f"longs_team{side}"] + petits // 3
                    tokens["petits"][side], tokens["longs"][side] = petits % 3, longs
                    values[f"petits_after_team{side}"] = petits % 3
                    values[f"longs_after_team{side}"] = longs
                score = list(tokens["longs"])
            elif isinstance(hand, _ValencianHand):
                values = hand.play(brief, stones)
                for side in range(2):
                    stones[side] += values["points"][side]
                    if stones[side] >= 18:
                        score[side] += 1
                        stones = [0, 0]
                values["cames_after_team0"], values["cames_after_team1"] = score
            else:
                assert isinstance(hand, _FrenchHand)
                values = hand.play([max(1, 12 - s) for s in score])
                score = [s + p for s, p in zip(score, values["points"], strict=True)]
            points = values.pop("points")
            tricks = values.pop("tricks")
            trick_cols = [*tricks, None, None, None][:3]
            hand_values = {
                "game_id": game_id, "hand_no": hand_no, "dealer": dealer, "eldest": hand.eldest,
                "eldest_team": hand.team(hand.eldest), "cards_dealt": 3,
                "score_before_team0": before[0], "score_before_team1": before[1],
                "tricks_played": len(tricks), "trick1_winner": trick_cols[0], "trick2_winner": trick_cols[1],
                "trick3_winner": trick_cols[2], "tie_rule": None,
                "points_team0": points[0], "points_team1": points[1],
                **values,
            }  # fmt: skip
            if sides == 3:
                hand_values.update(points_team2=points[2], score_before_team2=before[2])
            batches["hands"].append(full_row(parts.HANDS, hand_values))
            for row in hand.events:
                batches["events"].append(row)
            for seat in range(players):
                roll = rng.random()
                pct = None if roll < 0.06 else (1.0 if roll < 0.08 else (0.0 if roll < 0.1 else rng.random()))
                envit = hand.envit_values[seat] if isinstance(hand, _ValencianHand) else None
                batches["seats"].append(
                    full_row(parts.SEATS, {
                        "game_id": game_id, "hand_no": hand_no, "seat": seat, "team": hand.team(seat),
                        "policy": "random", "cards": "?? ?? ??", "strength": None if pct is None else pct * 0.9,
                        "strength_pct": pct, "envit_value": envit,
                    })
                )  # fmt: skip
            dealer = (dealer + 1) % players
        complete = rng.random() < 0.9
        best = max(score)
        batches["games"].append(
            full_row(parts.GAMES, {
                "game_id": game_id, "variant": variant, "players": players,
                "options": " ".join(f"{k}={v}" for k, v in sorted(options.items())), "seed": seed * 1000 + game_id,
                "first_dealer": first_dealer, "hands": n_hands, "complete": complete,
                "winner_team": score.index(best) if complete else None, "score_team0": score[0],
                "score_team1": score[1], "source": "synthetic", "sides": sides,
                "score_team2": score[2] if sides == 3 else None, "unit": _UNITS[variant],
            })
        )  # fmt: skip
    for number, batches in enumerate(halves):
        write_part(root, number, batches)
    store.write_manifest(root, {"source": "synthetic-variants", "seed": seed, "games": games})
    return root
