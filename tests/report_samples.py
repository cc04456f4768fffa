"""Hand-made statistics frames in the shape of ``pipeline.stats.compute`` results, for the report tests.

``sample_frames()`` gives every statistic of every variant for two variants and two player counts, with
counts drawn from a seeded generator and Wilson 95% intervals, plus one group with ``n = 0`` and null
rates, the way the statistics report a situation that never happened. ``multi_variant_frames()`` gives
the frames of a dataset holding catalan, french, trut (3 and 4 players) and valencian games: those
statistics for every setting, and ``variant_comparison``, ``envit``, ``trut``, ``french`` and
``void_hands`` for the settings they apply to.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

import polars as pl

SETTINGS = (("catalan", 2), ("catalan", 4), ("valencian", 2), ("valencian", 4))


def wilson(k: int, n: int) -> tuple[float | None, float | None, float | None]:
    """Rate and Wilson 95% interval of k successes in n trials; all None when n = 0."""
    if n == 0:
        return None, None, None
    z = 1.959963984540054
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return p, max(0.0, centre - half), min(1.0, centre + half)


def _rate_row(k: int, n: int, prefix: str = "", suffix: str = "", rate: str = "rate") -> dict[str, Any]:
    p, lo, hi = wilson(k, n)
    return {rate: p, f"{prefix}ci_low{suffix}": lo, f"{prefix}ci_high{suffix}": hi}


def sample_frames(seed: int = 7, settings: Sequence[tuple[str, int]] = SETTINGS) -> dict[str, pl.DataFrame]:
    """The statistics of every variant for ``settings``; valencian 4-player bluffs at stake 3 are an
    n = 0 group."""
    rng = random.Random(seed)
    rows: dict[str, list[dict[str, Any]]] = {
        name: []
        for name in (
            "first_trick_value",
            "bluff_success",
            "fold_rates",
            "mano_advantage",
            "stake_distribution",
            "tie_frequency",
            "strength_curve",
            "raise_rates",
        )
    }
    for variant, players in settings:
        key = {"variant": variant, "players": players}
        hands = rng.randint(3000, 9000)
        won = int(hands * 0.55)
        k_won, k_lost = int(won * rng.uniform(0.75, 0.85)), int((hands - won) * rng.uniform(0.3, 0.4))
        pw, lw, hw = wilson(k_won, won)
        pl_, ll, hl = wilson(k_lost, hands - won)
        assert pw is not None and pl_ is not None
        rows["first_trick_value"].append(
            {
                **key,
                "hands": hands,
                "p_win_won_first": pw,
                "ci_low_won_first": lw,
                "ci_high_won_first": hw,
                "p_win_lost_first": pl_,
                "ci_low_lost_first": ll,
                "ci_high_lost_first": hl,
                "value": pw - pl_,
                "mean_points_won_first": 1.1,
                "mean_points_lost_first": 0.4,
                "points_value": 0.7,
            }
        )
        eldest = int(hands * rng.uniform(0.5, 0.56))
        rows["mano_advantage"].append(
            {
                **key,
                "hands": hands,
                "eldest_wins": eldest,
                **_rate_row(eldest, hands, rate="win_rate"),
                "mean_points_eldest": 0.8,
                "mean_points_other": 0.7,
                "points_diff": 0.1,
            }
        )
        left = hands
        stake_hands = []
        for stake, share in ((1, 0.6), (2, 0.3), (3, 0.1)):
            count = int(hands * share) if stake < 3 else left
            left -= count
            stake_hands.append((stake, count))
        per_hand = sum(stake * count for stake, count in stake_hands) / hands
        for stake, count in stake_hands:
            rows["stake_distribution"].append(
                {
                    **key,
                    "stake": stake,
                    "hands": count,
                    **_rate_row(count, hands, rate="share"),
                    "mean_points": float(stake),
                    "mean_points_per_hand": per_hand,
                }
            )
        for trick in (1, 2, 3):
            n = hands if trick == 1 else int(hands * 0.8 / trick)
            count = int(n * rng.uniform(0.02, 0.08))
            rows["tie_frequency"].append(
                {
                    **key,
                    "measure": "trick_tied",
                    "trick_no": trick,
                    "n": n,
                    "count": count,
                    **_rate_row(count, n),
                }
            )
        count = int(hands * 0.011)
        rows["tie_frequency"].append(
            {
                **key,
                "measure": "hand_by_tie_rule",
                "trick_no": None,
                "n": hands,
                "count": count,
                **_rate_row(count, hands),
            }
        )
        for decile in range(1, 11):
            n = hands * players // 10
            wins = int(n * (0.1 + 0.08 * decile) * rng.uniform(0.95, 1.05))
            rows["strength_curve"].append(
                {
                    **key,
                    "decile": decile,
                    "n": n,
                    "wins": wins,
                    "p_win": wilson(wins, n)[0],
                    "ci_low": wilson(wins, n)[1],
                    "ci_high": wilson(wins, n)[2],
                    "mean_net_points": (decile - 5.5) / 4,
                }
            )
        for stake in (2, 3):
            raises = int(hands * (0.4 if stake == 2 else 0.12))
            bluffs = 0 if (variant, players, stake) == ("valencian", 4, 3) else int(raises * 0.15)
            folded = int(bluffs * 0.6)
            called = bluffs - folded
            called_won = int(called * 0.3)
            rows["bluff_success"].append(
                {
                    **key,
                    "stake": stake,
                    "raises": raises,
                    "bluffs": bluffs,
                    **_rate_row(bluffs, raises, "bluff_", "", "bluff_rate"),
                    "folded": folded,
                    **_rate_row(folded, bluffs, "success_", "", "success_rate"),
                    "called": called,
                    "called_won": called_won,
                    **_rate_row(called_won, called, "called_won_", "", "called_won_rate"),
                    "net_points_per_bluff": None if bluffs == 0 else 0.35,
                }
            )
            total_facing = 0
            total_folds = 0
            for decile in range(1, 11):
                facing = raises // 10
                folds = int(facing * max(0.0, 0.8 - 0.08 * decile))
                total_facing += facing
                total_folds += folds
                rows["fold_rates"].append(
                    {
                        **key,
                        "stake": stake,
                        "decile": decile,
                        "facing": facing,
                        "folds": folds,
                        "fold_rate": wilson(folds, facing)[0],
                        "ci_low": wilson(folds, facing)[1],
                        "ci_high": wilson(folds, facing)[2],
                    }
                )
            rows["fold_rates"].append(
                {
                    **key,
                    "stake": stake,
                    "decile": None,
                    "facing": total_facing,
                    "folds": total_folds,
                    "fold_rate": wilson(total_folds, total_facing)[0],
                    "ci_low": wilson(total_folds, total_facing)[1],
                    "ci_high": wilson(total_folds, total_facing)[2],
                }
            )
        for decision, stake in (("raise", 1), ("raise", 2), ("accept_and_raise", 1)):
            for trick_no in (None, 1, 2, 3):
                chances = hands // (2 if trick_no else 20)
                count = int(chances * rng.uniform(0.03, 0.3))
                rows["raise_rates"].append(
                    {
                        **key,
                        "decision": decision,
                        "stake": stake,
                        "trick_no": trick_no,
                        "chances": chances,
                        "count": count,
                        **_rate_row(count, chances),
                    }
                )
    return {name: pl.DataFrame(data, infer_schema_length=None) for name, data in rows.items()}


MULTI_SETTINGS = (("catalan", 4), ("french", 2), ("trut", 3), ("trut", 4), ("valencian", 2))
UNITS = {"catalan": "points", "french": "points", "trut": "longs", "valencian": "cames"}


def _counted(key: dict[str, Any], k: int, n: int, **extra: Any) -> dict[str, Any]:
    """A row of a measure-style statistic: ``n``, ``count``, the rate and its interval."""
    return {**key, **extra, "n": n, "count": k, **_rate_row(k, n)}


def multi_variant_frames(seed: int = 11) -> dict[str, pl.DataFrame]:
    """Every statistic over catalan 4, french 2, trut 3 and 4 and valencian 2 players."""
    rng = random.Random(seed)
    frames = sample_frames(seed, MULTI_SETTINGS)
    comparison, envit, trut, french, void = [], [], [], [], []
    for variant, players in MULTI_SETTINGS:
        key = {"variant": variant, "players": players}
        hands = rng.randint(2000, 5000)
        games = hands // rng.randint(8, 14)
        sides = 3 if players == 3 else 2
        row: dict[str, Any] = {**key, "sides": sides, "unit": UNITS[variant], "games": games, "hands": hands,
                               "mean_hands_per_game": hands / games}  # fmt: skip
        for prefix, rate, k_name, n_name, n, share in (
            ("first_trick", "first_trick_win_rate", "won_by_first", "first_trick_hands", int(hands * 0.8), 0.75),
            ("bluff", "bluff_rate", "bluffs", "raises", hands // 3, 0.2),
            ("bluff_success", "bluff_success_rate", "bluffs_folded", "bluffs", None, 0.45),
            ("fold", "fold_rate", "folds", "facing", hands // 3, 0.3),
            ("mano", "mano_win_rate", "eldest_wins", "decided_hands", int(hands * 0.95), 1 / sides + 0.04),
            ("tie", "tie_rate", "tied_tricks", "tricks", int(hands * 2.4), 0.06 if variant != "trut" else 0.12),
        ):
            total = row["bluffs"] if n is None else n
            k = int(total * share * rng.uniform(0.9, 1.1))
            p, low, high = wilson(k, total)
            row.update({n_name: total, rate: p, f"{prefix}_ci_low": low, f"{prefix}_ci_high": high})
            if k_name != "won_by_first":
                row[k_name] = k
        row["first_trick_value"] = 2 * row["first_trick_win_rate"] - 1
        row["mano_edge"] = row["mano_win_rate"] - 1 / sides
        comparison.append(row)
        voids = 0 if variant in ("catalan", "valencian") else int(hands * rng.uniform(0.01, 0.04))
        void.append({**key, "hands": hands, "void_hands": voids, **_rate_row(voids, hands, rate="void_rate")})
        if variant == "valencian":
            envit.append(_counted(key, int(hands * 0.45), hands, measure="call", level=None, mean=None))
            for rung, calls in (("envit", 900), ("torne", 140), ("falta", 60), ("envit-falta", 300)):
                for measure, share in (("accepted", 0.5), ("folded", 0.3), ("raised", 0.15)):
                    envit.append(_counted(key, int(calls * share), calls, measure=measure, level=rung, mean=None))
                bluffs = int(calls * 0.2)
                envit.append(_counted(key, bluffs, calls, measure="bluff", level=rung, mean=None))
                envit.append(_counted(key, int(bluffs * 0.6), bluffs, measure="bluff_folded", level=rung, mean=None))
                envit.append(_counted(key, int(bluffs * 0.4), bluffs, measure="bluff_won", level=rung, mean=None))
            for band, n, share in (("0-19", 300, 0.3), ("20-25", 250, 0.45), ("26-28", 220, 0.6), ("29-30", 150, 0.7),
                                   ("31-33", 120, 0.85)):  # fmt: skip
                envit.append(_counted(key, int(n * share), n, measure="caller_won", level=band, mean=None))
                envit.append(
                    _counted(key, int(n * share * 0.4), n // 2, measure="caller_won_accepted", level=band, mean=None)
                )
            for level, stones in (("envit", int(hands * 1.1)), ("tricks", int(hands * 1.6))):
                envit.append({**key, "measure": "stones", "level": level, "n": hands, "count": stones, "rate": None,
                              "ci_low": None, "ci_high": None, "mean": stones / hands})  # fmt: skip
        if variant == "trut":
            truts = int(hands * 0.6)
            trut.append(_counted(key, truts, hands, measure="trut", level=None, trick_no=None))
            first = truts
            for position in (1, 2):  # the truter's two opponents, alone or as a team
                folds = int(first * 0.45)
                trut.append(_counted(key, folds, first, measure="fold_by_position", level=str(position), trick_no=None))
                first = first - folds if sides == 2 else first
            trut.append(_counted(key, 40, 40, measure="timing", level="call", trick_no=None))
            for trick_no, n in ((1, 500), (2, 300), (3, 90)):
                left = n
                for timing, share in (("out_before_card", 0.2), ("out_after_card", 0.1), ("unknown", 0.05)):
                    count = int(n * share)
                    left -= count
                    trut.append(_counted(key, count, n, measure="timing", level=timing, trick_no=trick_no))
                trut.append(_counted(key, left, n, measure="timing", level="in_turn", trick_no=trick_no))
            for special, n in (("fortial", 60), ("trut_office", 80)):
                for level, share in (("truted", 0.7), ("passed", 0.3), ("folded", 0.1), ("decider_won", 0.5),
                                     ("void", 0.02)):  # fmt: skip
                    trut.append(_counted(key, int(n * share), n, measure=special, level=level, trick_no=None))
            trut.append(_counted(key, 70, 120, measure="hold", level=None, trick_no=None))
            trut.append(_counted(key, 90, 150, measure="sing", level=None, trick_no=None))
            for cards, count in (("1", 20), ("2", 45), ("3", 25)):
                trut.append(_counted(key, count, 90, measure="chanson_cards", level=cards, trick_no=None))
        if variant == "french":
            french.append(_counted(key, int(hands * 0.12), hands, measure="redeal", size=None))
            french.append(_counted(key, 150, 700, measure="redeal_refused", size=None))
            for size, count in ((1, 500), (2, 300), (3, 120), (4, 80)):
                french.append(_counted(key, count, 1000, measure="raise_size", size=size))
            french.append(_counted(key, 240, 1240, measure="reste", size=None))
            for measure, count, n in (("reste_accepted", 120, 240), ("reste_folded", 90, 240),
                                      ("reste_raised", 30, 240), ("reste_won", 80, 150)):  # fmt: skip
                french.append(_counted(key, count, n, measure=measure, size=None))
    for name, rows in (("variant_comparison", comparison), ("envit", envit), ("trut", trut), ("french", french),
                       ("void_hands", void)):  # fmt: skip
        frames[name] = pl.DataFrame(rows, infer_schema_length=None)
    return frames


def with_french_stakes(frame: pl.DataFrame, top: int = 11) -> pl.DataFrame:
    """A frame by stake (raise rates, fold rates, bluffs) in which French Truc reaches every stake from 1 to
    ``top`` with the numbers of its own rows, as its raises of any size do, and the other variants keep
    theirs: a grid of stakes by variants mostly empty. Each stake takes the rows of French Truc's lowest
    (of each decision), so that no two rows share a stake and a mark."""
    french = frame.filter(pl.col("variant") == "french")
    decisions = [column for column in ("decision",) if column in frame.columns]
    lowest = pl.col("stake").min().over(decisions) if decisions else pl.col("stake").min()
    french = french.filter(pl.col("stake") == lowest)
    stakes = [french.with_columns(stake=pl.lit(stake, pl.Int64)) for stake in range(1, top + 1)]
    return pl.concat([frame.filter(pl.col("variant") != "french"), *stakes], how="vertical_relaxed")
