"""Hand-made statistics frames in the shape of ``pipeline.stats.compute`` results, for the report tests.

``sample_frames()`` gives every statistic for two variants and two player counts, with counts drawn from
a seeded generator and Wilson 95% intervals, plus one group with ``n = 0`` and null rates, the way the
statistics report a situation that never happened.
"""

from __future__ import annotations

import math
import random
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


def sample_frames(seed: int = 7) -> dict[str, pl.DataFrame]:
    """Every statistic for ``SETTINGS``; valencian 4-player bluffs at stake 3 are an n = 0 group."""
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
    for variant, players in SETTINGS:
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
