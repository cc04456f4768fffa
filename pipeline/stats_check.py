"""Second implementations of every statistic in ``pipeline.stats``, in polars alone, for the tests.

Each function reads the dataset folder(s) with polars (no SQL, no DuckDB) and returns the frame
``stats.compute`` should return: the same columns, types, rows and order. The definitions are those of
the ``sql/*.sql`` headers and ``docs/statistics.md``; where the SQL uses an ASOF join (the answer to a
raise, the raise an answer faces) this module walks each hand's events in order with window
expressions instead, so that the two agree only if both follow the definition.

Nothing outside the tests should import this module.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import polars as pl

from pipeline import store

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
}  # fmt: skip


def load(data: Path | Sequence[Path]) -> Tables:
    """The four tables of one or several dataset folders, with a ``dataset`` column (the folder)."""
    items = [Path(data)] if isinstance(data, str | os.PathLike) else [Path(d) for d in data]
    folders: list[Path] = []
    for item in items:
        if item.resolve() not in folders:
            folders.append(item.resolve())
    tables: Tables = {}
    for name in store.TABLES:
        frames = []
        for folder in folders:
            frame = pl.read_parquet(store.table_glob(folder, name))
            frame = frame.with_columns(pl.lit(str(folder)).alias("dataset"))
            frames.append(frame)
        frame = pl.concat(frames, how="vertical")
        tables[name] = frame.with_columns(
            pl.col(c).cast(pl.Int64) for c in frame.columns if c in _INT64
        )
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


def team_points(team: pl.Expr) -> pl.Expr:
    return pl.when(team == 0).then(pl.col("points_team0")).otherwise(pl.col("points_team1"))


def other_points(team: pl.Expr) -> pl.Expr:
    return pl.when(team == 0).then(pl.col("points_team1")).otherwise(pl.col("points_team0"))


def decile(column: str) -> pl.Expr:
    """least(10, floor(pct * 10) + 1); null stays null (min_horizontal alone would give 10)."""
    value = pl.min_horizontal(pl.lit(10, pl.Int64), (pl.col(column) * 10).floor().cast(pl.Int64) + 1)
    return pl.when(pl.col(column).is_not_null()).then(value)


def count(condition: pl.Expr) -> pl.Expr:
    """How many rows of the group meet ``condition`` (null counts as not met), as Int64."""
    return condition.fill_null(False).sum().cast(pl.Int64)


def _hands(t: Tables) -> pl.DataFrame:
    games = t["games"].select("dataset", "game_id", "variant", "players")
    return t["hands"].join(games, on=["dataset", "game_id"], how="inner")


def _finish(frame: pl.DataFrame, keys: Sequence[str], columns: Sequence[str]) -> pl.DataFrame:
    return frame.select(columns).sort(list(keys), nulls_last=True, maintain_order=True)


def first_trick_value(t: Tables) -> pl.DataFrame:
    first = pl.col("trick1_winner")
    per_group = (
        _hands(t)
        .filter(first.is_in([0, 1]))
        .group_by(GROUP)
        .agg(
            pl.len().cast(pl.Int64).alias("hands"),
            count(pl.col("winner_team") == first).alias("k_won"),
            count(pl.col("winner_team") == 1 - first).alias("k_lost"),
            team_points(first).mean().alias("mean_points_won_first"),
            other_points(first).mean().alias("mean_points_lost_first"),
        )
    )
    won_low, won_high = wilson("k_won", "hands")
    lost_low, lost_high = wilson("k_lost", "hands")
    result = per_group.with_columns(
        rate("k_won", "hands").alias("p_win_won_first"),
        won_low.alias("ci_low_won_first"),
        won_high.alias("ci_high_won_first"),
        rate("k_lost", "hands").alias("p_win_lost_first"),
        lost_low.alias("ci_low_lost_first"),
        lost_high.alias("ci_high_lost_first"),
        (pl.col("mean_points_won_first") - pl.col("mean_points_lost_first")).alias("points_value"),
    ).with_columns((pl.col("p_win_won_first") - pl.col("p_win_lost_first")).alias("value"))
    return _finish(
        result,
        GROUP,
        [
            "variant", "players", "hands",
            "p_win_won_first", "ci_low_won_first", "ci_high_won_first",
            "p_win_lost_first", "ci_low_lost_first", "ci_high_lost_first", "value",
            "mean_points_won_first", "mean_points_lost_first", "points_value",
        ],
    )  # fmt: skip


def _events_in_order(t: Tables) -> pl.DataFrame:
    return t["events"].sort([*HAND, "seq"])


def bluff_success(t: Tables, threshold: float = 0.33) -> pl.DataFrame:
    events = _events_in_order(t)
    # for every row, the seq of the first answer after it in the same hand
    events = events.with_columns(
        pl.when(pl.col("answers")).then(pl.col("seq")).shift(-1).backward_fill().over(HAND)
        .alias("answer_seq")
    )  # fmt: skip
    answer_verbs = events.select(*HAND, pl.col("seq").alias("answer_seq"), pl.col("verb").alias("answer_verb"))
    seats = t["seats"].select(*HAND, "seat", "strength_pct").filter(pl.col("strength_pct").is_not_null())
    raises = (
        events.filter(pl.col("kind") == "raise")
        .join(seats, on=[*HAND, "seat"], how="inner")
        .join(answer_verbs, on=[*HAND, "answer_seq"], how="left")
        .join(_hands(t), on=HAND, how="inner")
        .rename({"stake": "hand_stake"})
        .with_columns(
            pl.col("stake_after").alias("stake"),
            (pl.col("strength_pct") < threshold).alias("bluff"),
            (pl.col("answer_verb") == "fold").alias("was_folded"),
            (pl.col("answer_verb") != "fold").alias("was_called"),
            (pl.col("winner_team") == pl.col("team")).alias("raiser_won"),
            (team_points(pl.col("team")) - other_points(pl.col("team"))).alias("net"),
        )
    )
    bluff = pl.col("bluff")
    per_stake = raises.group_by([*GROUP, "stake"]).agg(
        pl.len().cast(pl.Int64).alias("raises"),
        count(bluff).alias("bluffs"),
        count(bluff & pl.col("was_folded")).alias("folded"),
        count(bluff & pl.col("was_called")).alias("called"),
        count(bluff & pl.col("was_called") & pl.col("raiser_won")).alias("called_won"),
        pl.col("net").filter(bluff).mean().alias("net_points_per_bluff"),
    )
    b_low, b_high = wilson("bluffs", "raises")
    s_low, s_high = wilson("folded", "bluffs")
    c_low, c_high = wilson("called_won", "called")
    result = per_stake.with_columns(
        rate("bluffs", "raises").alias("bluff_rate"),
        b_low.alias("bluff_ci_low"),
        b_high.alias("bluff_ci_high"),
        rate("folded", "bluffs").alias("success_rate"),
        s_low.alias("success_ci_low"),
        s_high.alias("success_ci_high"),
        rate("called_won", "called").alias("called_won_rate"),
        c_low.alias("called_won_ci_low"),
        c_high.alias("called_won_ci_high"),
        pl.col("net_points_per_bluff").cast(pl.Float64),
    )
    return _finish(
        result,
        [*GROUP, "stake"],
        [
            "variant", "players", "stake", "raises", "bluffs", "bluff_rate", "bluff_ci_low",
            "bluff_ci_high", "folded", "success_rate", "success_ci_low", "success_ci_high", "called",
            "called_won", "called_won_rate", "called_won_ci_low", "called_won_ci_high",
            "net_points_per_bluff",
        ],
    )  # fmt: skip


def fold_rates(t: Tables) -> pl.DataFrame:
    events = _events_in_order(t)
    # for every row, the seq of the last raise before it in the same hand
    events = events.with_columns(
        pl.when(pl.col("kind") == "raise").then(pl.col("seq")).shift(1).forward_fill().over(HAND)
        .alias("raise_seq")
    )  # fmt: skip
    raise_stakes = events.filter(pl.col("kind") == "raise").select(
        *HAND, pl.col("seq").alias("raise_seq"), pl.col("stake_after").alias("stake")
    )
    games = t["games"].select("dataset", "game_id", "variant", "players")
    seats = t["seats"].select(*HAND, "seat", "strength_pct")
    facing = (
        events.filter(pl.col("answers") & pl.col("raise_seq").is_not_null())
        .select(*HAND, "seat", "verb", "raise_seq")
        .join(raise_stakes, on=[*HAND, "raise_seq"], how="inner")
        .join(seats, on=[*HAND, "seat"], how="left")
        .join(games, on=["dataset", "game_id"], how="inner")
        .with_columns(decile("strength_pct").alias("decile"), (pl.col("verb") == "fold").alias("folded"))
    )
    aggregates = [pl.len().cast(pl.Int64).alias("facing"), count(pl.col("folded")).alias("folds")]
    by_decile = (
        facing.filter(pl.col("decile").is_not_null()).group_by([*GROUP, "stake", "decile"]).agg(aggregates)
    )
    all_deciles = (
        facing.group_by([*GROUP, "stake"]).agg(aggregates).with_columns(pl.lit(None, pl.Int64).alias("decile"))
    )
    counts = pl.concat([by_decile, all_deciles.select(by_decile.columns)])
    low, high = wilson("folds", "facing")
    result = counts.with_columns(
        rate("folds", "facing").alias("fold_rate"), low.alias("ci_low"), high.alias("ci_high")
    )
    return _finish(
        result,
        [*GROUP, "stake", "decile"],
        ["variant", "players", "stake", "decile", "facing", "folds", "fold_rate", "ci_low", "ci_high"],
    )


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
    low, high = wilson("eldest_wins", "hands")
    result = per_group.with_columns(
        rate("eldest_wins", "hands").alias("win_rate"),
        low.alias("ci_low"),
        high.alias("ci_high"),
        (pl.col("mean_points_eldest") - pl.col("mean_points_other")).alias("points_diff"),
    )
    return _finish(
        result,
        GROUP,
        [
            "variant", "players", "hands", "eldest_wins", "win_rate", "ci_low", "ci_high",
            "mean_points_eldest", "mean_points_other", "points_diff",
        ],
    )  # fmt: skip


def stake_distribution(t: Tables) -> pl.DataFrame:
    hands = _hands(t).with_columns((pl.col("points_team0") + pl.col("points_team1")).alias("total"))
    per_group = hands.group_by(GROUP).agg(
        pl.len().cast(pl.Int64).alias("group_hands"), pl.col("total").mean().alias("mean_points_per_hand")
    )
    per_stake = hands.group_by([*GROUP, "stake"]).agg(
        pl.len().cast(pl.Int64).alias("hands"), pl.col("total").mean().alias("mean_points")
    )
    low, high = wilson("hands", "group_hands")
    result = per_stake.join(per_group, on=GROUP, how="inner").with_columns(
        rate("hands", "group_hands").alias("share"), low.alias("ci_low"), high.alias("ci_high")
    )
    return _finish(
        result,
        [*GROUP, "stake"],
        ["variant", "players", "stake", "hands", "share", "ci_low", "ci_high", "mean_points",
         "mean_points_per_hand"],
    )  # fmt: skip


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
    low, high = wilson("count", "n")
    result = pl.concat(parts).with_columns(rate("count", "n").alias("rate"), low.alias("ci_low"),
                                           high.alias("ci_high"))  # fmt: skip
    return _finish(
        result,
        [*GROUP, "measure", "trick_no"],
        ["variant", "players", "measure", "trick_no", "n", "count", "rate", "ci_low", "ci_high"],
    )


def strength_curve(t: Tables) -> pl.DataFrame:
    hands = _hands(t).filter(pl.col("winner_team").is_not_null())
    seat_hands = (
        t["seats"]
        .filter(pl.col("strength_pct").is_not_null())
        .select(*HAND, "team", "strength_pct")
        .join(hands, on=HAND, how="inner")
        .with_columns(
            decile("strength_pct").alias("decile"),
            (team_points(pl.col("team")) - other_points(pl.col("team"))).alias("net"),
        )
    )
    per_decile = seat_hands.group_by([*GROUP, "decile"]).agg(
        pl.len().cast(pl.Int64).alias("n"),
        count(pl.col("team") == pl.col("winner_team")).alias("wins"),
        pl.col("net").mean().alias("mean_net_points"),
    )
    low, high = wilson("wins", "n")
    result = per_decile.with_columns(rate("wins", "n").alias("p_win"), low.alias("ci_low"), high.alias("ci_high"))
    return _finish(
        result,
        [*GROUP, "decile"],
        ["variant", "players", "decile", "n", "wins", "p_win", "ci_low", "ci_high", "mean_net_points"],
    )


def raise_rates(t: Tables) -> pl.DataFrame:
    games = t["games"].select("dataset", "game_id", "variant", "players")
    chances = (
        t["events"]
        .filter(pl.col("could_raise") & pl.col("answers").is_not_null())
        .join(games, on=["dataset", "game_id"], how="inner")
        .with_columns(
            pl.when(pl.col("answers")).then(pl.lit("accept_and_raise")).otherwise(pl.lit("raise"))
            .alias("decision"),
            pl.col("stake_before").alias("stake"),
        )
    )  # fmt: skip
    keys = [*GROUP, "decision", "stake", "trick_no"]
    per_group = chances.group_by(keys).agg(
        pl.len().cast(pl.Int64).alias("chances"), count(pl.col("kind") == "raise").alias("count")
    )
    low, high = wilson("count", "chances")
    result = per_group.with_columns(
        rate("count", "chances").alias("rate"), low.alias("ci_low"), high.alias("ci_high")
    )
    return _finish(
        result, keys, [*keys, "chances", "count", "rate", "ci_low", "ci_high"]
    )


CHECKS: dict[str, Callable[..., pl.DataFrame]] = {
    "first_trick_value": first_trick_value,
    "bluff_success": bluff_success,
    "fold_rates": fold_rates,
    "mano_advantage": mano_advantage,
    "stake_distribution": stake_distribution,
    "tie_frequency": tie_frequency,
    "strength_curve": strength_curve,
    "raise_rates": raise_rates,
}


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
                     ended_by, winner, points[0], points[1], len(winners), *trick_cols, tie_rule),
            "winner": winner,
        }  # fmt: skip


def write_synthetic(root: Path, seed: int, games: int = 120) -> Path:
    """A random but consistent dataset at ``root``: ``games`` games of one to eight hands, in two parts
    (the first half of the games in part 0, the rest in part 1) so that a table is several files."""
    rng = random.Random(seed)
    parts = [store.new_batches(), store.new_batches()]
    for game_id in range(games):
        batches = parts[0] if game_id < games // 2 else parts[1]
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
                batches["seats"].append(
                    (game_id, hand_no, seat, seat % 2, "random", "3o 12c 5e", strength, pct, None)
                )
        winner = 0 if score[0] >= score[1] else 1
        batches["games"].append(
            (game_id, variant, players, "", seed * 1000 + game_id, 0, n_hands, True, winner, score[0],
             score[1], "simulate")
        )  # fmt: skip
    for number, batches in enumerate(parts):
        store.write_part(root, number, batches)
    store.write_manifest(root, {"source": "synthetic", "seed": seed, "games": games})
    return root
