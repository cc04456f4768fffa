"""The statistics of ``pipeline.stats`` on tiny datasets whose answers were worked out by hand.

Every dataset here is built row by row with ``parts.TableBatch``; the expected figures are derived in the
comments. Wilson intervals are 95% (z = 1.959964); the bounds quoted are rounded to 6 decimals.
Below the hand-worked cases: invariants on random datasets, errors, and several folders read together.
"""

from __future__ import annotations

import io
import json
import math
import re
import tempfile
from pathlib import Path
from typing import Any

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from pipeline import parts, stats, store
from pipeline.report.page import build_report
from pipeline.variants import get_variant
from tests.stats_check import full_row, write_part, write_synthetic, write_synthetic_variants

ROOT = Path(__file__).resolve().parent.parent
NAMES = sorted(stats.STATISTICS)


def approx(value: float) -> Any:
    return pytest.approx(value, abs=1e-6)


class Dataset:
    """A tiny dataset built by hand. Seat s is on team s % 2 (on side s with 3 players); events get their
    seq in order of calls. ``games.sides`` is 2, or 3 with 3 players, and ``hands.void`` is whether the hand
    has no winner, unless given, and ``games.unit`` the variant's; other columns not named stay null."""

    def __init__(self) -> None:
        self.batches = parts.new_batches()
        self.players: dict[int, int] = {}
        self.seq: dict[tuple[int, int], int] = {}

    def team(self, game_id: int, seat: int) -> int:
        return seat if self.players[game_id] == 3 else seat % 2

    def game(self, game_id: int, variant: str = "catalan", players: int = 2, **extra: Any) -> None:
        self.players[game_id] = players
        values = {
            "game_id": game_id, "variant": variant, "players": players, "options": "", "seed": game_id,
            "first_dealer": 0, "hands": 1, "complete": True, "winner_team": 0, "score_team0": 12,
            "score_team1": 0, "source": "test", "sides": 3 if players == 3 else 2,
            "unit": get_variant(variant).unit, **extra,
        }  # fmt: skip
        self.batches["games"].append(full_row(parts.GAMES, values))

    def hand(
        self,
        game_id: int,
        hand_no: int,
        *,
        winner: int | None,
        points: tuple[int, ...] = (0, 0),
        stake: int = 1,
        eldest: int = 1,
        tricks: tuple[int | None, int | None, int | None] = (None, None, None),
        tie_rule: str | None = None,
        ended_by: str = "tricks",
        **extra: Any,
    ) -> None:
        dealer = (eldest - 1) % self.players[game_id]
        played = sum(t is not None for t in tricks)
        values = {
            "game_id": game_id, "hand_no": hand_no, "dealer": dealer, "eldest": eldest,
            "eldest_team": self.team(game_id, eldest), "cards_dealt": 3, "score_before_team0": 0,
            "score_before_team1": 0, "stake": stake, "ended_by": ended_by, "winner_team": winner,
            "points_team0": points[0], "points_team1": points[1], "tricks_played": played,
            "trick1_winner": tricks[0], "trick2_winner": tricks[1], "trick3_winner": tricks[2],
            "tie_rule": tie_rule, "void": winner is None, **({"points_team2": points[2]} if len(points) > 2 else {}),
            **extra,
        }  # fmt: skip
        self.batches["hands"].append(full_row(parts.HANDS, values))

    def seats(
        self,
        game_id: int,
        hand_no: int,
        *strength_pct: float | None,
        envit: tuple[int | None, ...] = (),
        names: tuple[str | None, ...] = (),
        policies: tuple[str, ...] = (),
    ) -> None:
        for seat, pct in enumerate(strength_pct):
            strength = None if pct is None else pct / 2
            value = envit[seat] if envit else None
            name = names[seat] if names else None
            policy = policies[seat] if policies else "test"
            self.batches["seats"].append(
                (game_id, hand_no, seat, self.team(game_id, seat), policy, "3o 12c 5e", strength, pct, None, value,
                 name)
            )  # fmt: skip

    def event(
        self,
        game_id: int,
        hand_no: int,
        seat: int | None,
        verb: str,
        kind: str,
        *,
        answers: bool = False,
        could_raise: bool = False,
        trick_no: int | None = 1,
        stake_before: int = 1,
        stake_after: int | None = None,
        arg: str | None = None,
        to_play: int | None = None,
    ) -> None:
        seq = self.seq.get((game_id, hand_no), 0)
        self.seq[(game_id, hand_no)] = seq + 1
        team = None if seat is None else self.team(game_id, seat)
        after = stake_before if stake_after is None else stake_after
        self.batches["events"].append(
            (game_id, hand_no, seq, seat, team, verb, arg, kind, answers, could_raise, trick_no,
             stake_before, after, to_play)
        )  # fmt: skip

    def raise_to(self, game_id: int, hand_no: int, seat: int, stake: int, *, answers: bool = False) -> None:
        verb = {2: "truc", 3: "retruc"}[stake]
        self.event(game_id, hand_no, seat, verb, "raise", answers=answers, could_raise=True,
                   stake_before=stake - 1, stake_after=stake)  # fmt: skip

    def answer(self, game_id: int, hand_no: int, seat: int, verb: str, stake: int) -> None:
        """An answer to a raise to ``stake``: ``accept`` moves to it, ``fold`` leaves the one before."""
        kind = "play" if verb == "play" else "answer"
        after = stake - 1 if verb == "fold" else stake
        self.event(game_id, hand_no, seat, verb, kind, answers=True, stake_before=stake - 1, stake_after=after)

    def write(self, root: Path) -> Path:
        write_part(root, 0, self.batches)
        store.write_manifest(root, {"source": "test"})
        return root


def rows(frame: pl.DataFrame) -> list[dict[str, Any]]:
    return frame.rows(named=True)


# --- first_trick_value -------------------------------------------------------------------------------


def test_first_trick_value(tmp_path: Path) -> None:
    d = Dataset()
    d.game(0)
    # h1: team 0 takes trick 1 and the hand (1-0)          -> won-first team wins; points 1 / 0
    d.hand(0, 1, winner=0, points=(1, 0), tricks=(0, 0, None))
    # h2: team 0 takes trick 1, team 1 the hand (0-2)      -> lost-first team wins; points 0 / 2
    d.hand(0, 2, winner=1, points=(0, 2), stake=2, tricks=(0, 1, 1))
    # h3: team 1 takes trick 1 and the hand (0-3)          -> won-first team wins; points 3 / 0
    d.hand(0, 3, winner=1, points=(0, 3), stake=3, tricks=(1, 1, None))
    # h4: team 1 takes trick 1, the hand is void           -> in n, a win for neither; points 0 / 0
    d.hand(0, 4, winner=None, tricks=(1, -1, -1))
    # h5: trick 1 tied; h6: folded before trick 1          -> both left out
    d.hand(0, 5, winner=0, points=(1, 0), tricks=(-1, 0, None), tie_rule="first_decisive")
    d.hand(0, 6, winner=1, points=(0, 1), ended_by="fold")
    # a second group: french 2 players, one hand won by the trick-1 winner
    d.game(1, variant="french")
    d.hand(1, 1, winner=1, points=(0, 1), tricks=(1, 1, None))
    data = d.write(tmp_path / "data")

    result = rows(stats.compute("first_trick_value", data))
    assert [(r["variant"], r["players"]) for r in result] == [("catalan", 2), ("french", 2)]
    catalan, french = result
    # n = 4 (h1-h4); won-first wins 2/4 = 0.5, lost-first wins 1/4 = 0.25, value 0.25
    assert catalan["hands"] == 4
    assert catalan["p_win_won_first"] == 0.5
    assert (catalan["ci_low_won_first"], catalan["ci_high_won_first"]) == (approx(0.150039), approx(0.849961))
    assert catalan["p_win_lost_first"] == 0.25
    assert (catalan["ci_low_lost_first"], catalan["ci_high_lost_first"]) == (approx(0.045587), approx(0.699358))
    assert catalan["value"] == 0.25
    # mean points: won-first (1+0+3+0)/4 = 1.0, lost-first (0+2+0+0)/4 = 0.5, difference 0.5
    assert catalan["mean_points_won_first"] == 1.0
    assert catalan["mean_points_lost_first"] == 0.5
    assert catalan["points_value"] == 0.5
    # french: 1/1 and 0/1
    assert french["hands"] == 1
    assert (french["p_win_won_first"], french["p_win_lost_first"], french["value"]) == (1.0, 0.0, 1.0)
    assert (french["ci_low_won_first"], french["ci_high_won_first"]) == (approx(0.206549), 1.0)
    assert (french["ci_low_lost_first"], french["ci_high_lost_first"]) == (0.0, approx(0.793451))
    assert french["points_value"] == 1.0


# --- the raise dataset: bluff_success and fold_rates --------------------------------------------------


@pytest.fixture
def raise_dataset(tmp_path: Path) -> Path:
    """Seven catalan 2-player hands with raises. Strength of (seat 0, seat 1) in brackets.

    h1 (0.10, 0.80): s0 truc->2, s1 fold.                                  team 0 scores 1
    h2 (0.20, 0.50): s0 truc->2, s1 plays (accepts); s1 retruc->3, s0 accept. team 1 scores 3
    h3 (0.30, 0.90): s0 truc->2, s1 retruc->3 in answer; s0 accept.          team 0 scores 3
    h4 (None, 0.05): s0 truc->2, s1 accept; s1 retruc->3, s0 fold.           team 1 scores 2
    h5 (0.50, 1.00): s0 truc->2, s1 fold.                                   team 0 scores 1
    h6 (0.33, 0.40): s0 truc->2, never answered (the record stops).          void
    h7 (0.01, 0.60): s0 truc->2, never answered (the record stops).          void
    """
    d = Dataset()
    d.game(0)
    d.seats(0, 1, 0.10, 0.80)
    d.event(0, 1, None, "dealt", "deal", trick_no=None)
    d.raise_to(0, 1, 0, 2)
    d.answer(0, 1, 1, "fold", 2)
    d.hand(0, 1, winner=0, points=(1, 0), ended_by="fold", tricks=(None, None, None))

    d.seats(0, 2, 0.20, 0.50)
    d.event(0, 2, None, "dealt", "deal", trick_no=None)
    d.raise_to(0, 2, 0, 2)
    d.answer(0, 2, 1, "play", 2)
    d.raise_to(0, 2, 1, 3)
    d.answer(0, 2, 0, "accept", 3)
    d.hand(0, 2, winner=1, points=(0, 3), stake=3, tricks=(1, 1, None))

    d.seats(0, 3, 0.30, 0.90)
    d.event(0, 3, None, "dealt", "deal", trick_no=None)
    d.raise_to(0, 3, 0, 2)
    d.raise_to(0, 3, 1, 3, answers=True)
    d.answer(0, 3, 0, "accept", 3)
    d.hand(0, 3, winner=0, points=(3, 0), stake=3, tricks=(0, 0, None))

    d.seats(0, 4, None, 0.05)
    d.event(0, 4, None, "dealt", "deal", trick_no=None)
    d.raise_to(0, 4, 0, 2)
    d.answer(0, 4, 1, "accept", 2)
    d.raise_to(0, 4, 1, 3)
    d.answer(0, 4, 0, "fold", 3)
    d.hand(0, 4, winner=1, points=(0, 2), stake=2, ended_by="fold", tricks=(1, None, None))

    d.seats(0, 5, 0.50, 1.00)
    d.event(0, 5, None, "dealt", "deal", trick_no=None)
    d.raise_to(0, 5, 0, 2)
    d.answer(0, 5, 1, "fold", 2)
    d.hand(0, 5, winner=0, points=(1, 0), ended_by="fold")

    d.seats(0, 6, 0.33, 0.40)
    d.event(0, 6, None, "dealt", "deal", trick_no=None)
    d.raise_to(0, 6, 0, 2)
    d.hand(0, 6, winner=None, stake=1)

    d.seats(0, 7, 0.01, 0.60)
    d.event(0, 7, None, "dealt", "deal", trick_no=None)
    d.raise_to(0, 7, 0, 2)
    d.hand(0, 7, winner=None, stake=1)
    return d.write(tmp_path / "raises")


def test_bluff_success_default_threshold(raise_dataset: Path) -> None:
    result = rows(stats.compute("bluff_success", raise_dataset))
    assert [r["stake"] for r in result] == [2, 3]
    two, three = result
    # stake 2: raises of known strength h1 h2 h3 h5 h6 h7 = 6 (h4's seat 0 is unknown)
    #   bluffs (< 0.33): h1 0.10, h2 0.20, h3 0.30, h7 0.01 = 4 (h5 0.50 and h6 0.33 are not)
    #   folded: h1 = 1 -> 1/4; called: h2 (play), h3 (retruc) = 2; called and won: h3 = 1 -> 1/2
    #   h7 was never answered: neither folded nor called
    #   net points of the bluffer's team: h1 +1, h2 -3, h3 +3, h7 0 -> 1/4 = 0.25
    assert (two["raises"], two["bluffs"], two["folded"], two["called"], two["called_won"]) == (6, 4, 1, 2, 1)
    assert two["bluff_rate"] == approx(4 / 6)
    assert (two["bluff_ci_low"], two["bluff_ci_high"]) == (approx(0.299993), approx(0.903229))
    assert two["success_rate"] == 0.25
    assert (two["success_ci_low"], two["success_ci_high"]) == (approx(0.045587), approx(0.699358))
    assert two["called_won_rate"] == 0.5
    assert (two["called_won_ci_low"], two["called_won_ci_high"]) == (approx(0.094531), approx(0.905469))
    assert two["net_points_per_bluff"] == 0.25
    # stake 3: retrucs by s1 in h2 (0.50), h3 (0.90), h4 (0.05) = 3 raises; 1 bluff (h4), folded
    #   called 0 -> called_won_rate NULL; net points of team 1 in h4: +2
    assert (three["raises"], three["bluffs"], three["folded"], three["called"], three["called_won"]) == (
        3, 1, 1, 0, 0,
    )  # fmt: skip
    assert three["bluff_rate"] == approx(1 / 3)
    assert three["success_rate"] == 1.0
    assert (three["success_ci_low"], three["success_ci_high"]) == (approx(0.206549), 1.0)
    assert three["called_won_rate"] is None
    assert three["called_won_ci_low"] is None and three["called_won_ci_high"] is None
    assert three["net_points_per_bluff"] == 2.0


def test_bluff_success_threshold_parameter(raise_dataset: Path) -> None:
    # threshold 0.6: stake 2 bluffs are all 6 (0.10 0.20 0.30 0.50 0.33 0.01); stake 3 adds h2's 0.50,
    # called (accept) and won by team 1 (+3)
    result = rows(stats.compute("bluff_success", raise_dataset, {"threshold": "0.6"}))
    two, three = result
    assert (two["raises"], two["bluffs"], two["bluff_rate"]) == (6, 6, 1.0)
    # folded h1 h5 = 2; called h2 h3 = 2; net (1 - 3 + 3 + 1 + 0 + 0) / 6
    assert (two["folded"], two["called"], two["called_won"]) == (2, 2, 1)
    assert two["net_points_per_bluff"] == approx(2 / 6)
    assert (three["bluffs"], three["folded"], three["called"], three["called_won"]) == (2, 1, 1, 1)
    assert three["called_won_rate"] == 1.0
    assert three["net_points_per_bluff"] == approx((3 + 2) / 2)
    # threshold 0: no bluff at all; rates over bluffs are NULL
    none = rows(stats.compute("bluff_success", raise_dataset, {"threshold": "0"}))
    assert [(r["raises"], r["bluffs"]) for r in none] == [(6, 0), (3, 0)]
    assert all(r["bluff_rate"] == 0.0 and r["success_rate"] is None for r in none)
    assert all(r["net_points_per_bluff"] is None for r in none)


def test_fold_rates(raise_dataset: Path) -> None:
    result = stats.compute("fold_rates", raise_dataset)
    got = [(r["stake"], r["decile"], r["facing"], r["folds"]) for r in rows(result)]
    # answers to raises to 2, with the answering seat's decile (floor(pct * 10) + 1, at most 10):
    #   h1 s1 0.80 -> 9 fold; h2 s1 0.50 -> 6 play; h3 s1 0.90 -> 10 retruc; h4 s1 0.05 -> 1 accept;
    #   h5 s1 1.00 -> 10 fold. All: 5 facing, 2 folds.
    # answers to raises to 3: h2 s0 0.20 -> 3 accept; h3 s0 0.30 -> 4 accept; h4 s0 unknown fold
    #   (only in the all-deciles row): 3 facing, 1 fold.
    assert got == [
        (2, 1, 1, 0), (2, 6, 1, 0), (2, 9, 1, 1), (2, 10, 2, 1), (2, None, 5, 2),
        (3, 3, 1, 0), (3, 4, 1, 0), (3, None, 3, 1),
    ]  # fmt: skip
    all_two = rows(result.filter(pl.col("stake") == 2, pl.col("decile").is_null()))[0]
    assert all_two["fold_rate"] == 0.4
    assert (all_two["ci_low"], all_two["ci_high"]) == (approx(0.117621), approx(0.769276))


# --- mano_advantage (the k = 8, n = 10 Wilson case) ---------------------------------------------------


def mano_dataset(root: Path, game_id: int = 0) -> Path:
    d = Dataset()
    d.game(game_id)
    # ten decided hands, eldest alternating between seats 1 and 0; the eldest's team wins hands 1-8.
    # Hand 1 is at stake 3, the others at 1. A void hand 11 is left out.
    for hand_no in range(1, 11):
        eldest = hand_no % 2
        winner = eldest if hand_no <= 8 else 1 - eldest
        stake = 3 if hand_no == 1 else 1
        points = (stake, 0) if winner == 0 else (0, stake)
        d.hand(game_id, hand_no, winner=winner, points=points, stake=stake, eldest=eldest)
    d.hand(game_id, 11, winner=None, eldest=1, tricks=(-1, -1, -1))
    # 4 players: two hands, the eldest (seat 1, team 1) wins one of them
    d.game(game_id + 1, players=4)
    d.hand(game_id + 1, 1, winner=1, points=(0, 1), eldest=1)
    d.hand(game_id + 1, 2, winner=0, points=(2, 0), stake=2, eldest=1)
    return d.write(root)


def test_mano_advantage(tmp_path: Path) -> None:
    two, four = rows(stats.compute("mano_advantage", mano_dataset(tmp_path / "data")))
    # 8 eldest wins out of 10 decided hands
    assert (two["players"], two["hands"], two["eldest_wins"], two["win_rate"]) == (2, 10, 8, 0.8)
    assert round(two["ci_low"], 4) == 0.4902 and round(two["ci_high"], 4) == 0.9433
    # eldest's team: 3 + 7 * 1 = 10 points in 10 hands; the other: 2 points
    assert two["mean_points_eldest"] == 1.0
    assert two["mean_points_other"] == 0.2
    assert two["points_diff"] == approx(0.8)
    # 4 players: 1/2; eldest's team 1 point in 2 hands, the other 2
    assert (four["players"], four["hands"], four["eldest_wins"], four["win_rate"]) == (4, 2, 1, 0.5)
    assert (four["mean_points_eldest"], four["mean_points_other"], four["points_diff"]) == (0.5, 1.0, -0.5)


# --- stake_distribution ---------------------------------------------------------------------------------


def test_stake_distribution(tmp_path: Path) -> None:
    d = Dataset()
    d.game(0)
    # stake 1: three hands, one void (points 1, 1, 0); stake 2: one hand (2); stake 3: one hand (3)
    d.hand(0, 1, winner=0, points=(1, 0))
    d.hand(0, 2, winner=1, points=(0, 1), ended_by="fold")
    d.hand(0, 3, winner=None, tricks=(-1, -1, -1))
    d.hand(0, 4, winner=0, points=(2, 0), stake=2)
    d.hand(0, 5, winner=1, points=(0, 3), stake=3)
    result = rows(stats.compute("stake_distribution", d.write(tmp_path / "data")))
    assert [(r["stake"], r["hands"]) for r in result] == [(1, 3), (2, 1), (3, 1)]
    one, two, three = result
    assert (one["share"], two["share"], three["share"]) == (0.6, 0.2, 0.2)
    assert (one["ci_low"], one["ci_high"]) == (approx(0.230724), approx(0.882379))
    assert (two["ci_low"], two["ci_high"]) == (approx(0.036224), approx(0.624465))
    assert (one["mean_points"], two["mean_points"], three["mean_points"]) == (approx(2 / 3), 2.0, 3.0)
    # (1 + 1 + 0 + 2 + 3) / 5 on every row
    assert {r["mean_points_per_hand"] for r in result} == {1.4}


# --- tie_frequency --------------------------------------------------------------------------------------


def test_tie_frequency(tmp_path: Path) -> None:
    d = Dataset()
    d.game(0)
    d.hand(0, 1, winner=0, points=(1, 0), tricks=(0, 1, 0))
    d.hand(0, 2, winner=0, points=(1, 0), tricks=(-1, 0, None), tie_rule="first_decisive")
    d.hand(0, 3, winner=1, points=(0, 1), eldest=1, tricks=(-1, -1, -1), tie_rule="all_tied_eldest")
    d.hand(0, 4, winner=0, points=(1, 0), ended_by="fold")
    d.hand(0, 5, winner=1, points=(0, 1), tricks=(1, 1, None))
    # a one-card deal only: tricks 2 and 3 never played, their rates are NULL
    d.game(1, variant="french")
    d.hand(1, 1, winner=1, points=(0, 1), tricks=(-1, None, None), tie_rule="all_tied_eldest")
    result = rows(stats.compute("tie_frequency", d.write(tmp_path / "data")))
    got = [(r["variant"], r["measure"], r["trick_no"], r["n"], r["count"], r["rate"]) for r in result]
    # trick 1 played in h1 h2 h3 h5, tied in h2 h3; trick 2 played in the same four, tied in h3;
    # trick 3 played in h1 h3, tied in h3; a tie rule decided h2 and h3 out of 5 hands
    assert got == [
        ("catalan", "hand_by_tie_rule", None, 5, 2, 0.4),
        ("catalan", "trick_tied", 1, 4, 2, 0.5),
        ("catalan", "trick_tied", 2, 4, 1, 0.25),
        ("catalan", "trick_tied", 3, 2, 1, 0.5),
        ("french", "hand_by_tie_rule", None, 1, 1, 1.0),
        ("french", "trick_tied", 1, 1, 1, 1.0),
        ("french", "trick_tied", 2, 0, 0, None),
        ("french", "trick_tied", 3, 0, 0, None),
    ]
    assert (result[0]["ci_low"], result[0]["ci_high"]) == (approx(0.117621), approx(0.769276))
    assert (result[6]["ci_low"], result[6]["ci_high"]) == (None, None)


# --- strength_curve -------------------------------------------------------------------------------------


def test_strength_curve(tmp_path: Path) -> None:
    d = Dataset()
    d.game(0)
    # h1 team 0 wins 2-0: s0 0.05 -> decile 1, won, +2;  s1 0.95 -> decile 10, lost, -2
    d.hand(0, 1, winner=0, points=(2, 0), stake=2)
    d.seats(0, 1, 0.05, 0.95)
    # h2 team 1 wins 0-1: s0 0.12 -> decile 2, lost, -1; s1 1.00 -> decile 10 (capped), won, +1
    d.hand(0, 2, winner=1, points=(0, 1))
    d.seats(0, 2, 0.12, 1.0)
    # h3 team 0 wins 1-0: s0 unknown -> left out;       s1 0.00 -> decile 1, lost, -1
    d.hand(0, 3, winner=0, points=(1, 0))
    d.seats(0, 3, None, 0.0)
    # h4 void: left out
    d.hand(0, 4, winner=None, tricks=(-1, -1, -1))
    d.seats(0, 4, 0.5, 0.5)
    # 4 players, team 1 wins 0-2: s0 0.55 (6, lost, -2), s1 0.15 (2, won, +2), s2 0.55 (6, lost, -2),
    # s3 0.99 (10, won, +2)
    d.game(1, players=4)
    d.hand(1, 1, winner=1, points=(0, 2), stake=2)
    d.seats(1, 1, 0.55, 0.15, 0.55, 0.99)
    result = rows(stats.compute("strength_curve", d.write(tmp_path / "data")))
    got = [(r["players"], r["decile"], r["n"], r["wins"], r["p_win"], r["mean_net_points"]) for r in result]
    assert got == [
        (2, 1, 2, 1, 0.5, 0.5),
        (2, 2, 1, 0, 0.0, -1.0),
        (2, 10, 2, 1, 0.5, -0.5),
        (4, 2, 1, 1, 1.0, 2.0),
        (4, 6, 2, 0, 0.0, -2.0),
        (4, 10, 1, 1, 1.0, 2.0),
    ]
    assert (result[0]["ci_low"], result[0]["ci_high"]) == (approx(0.094531), approx(0.905469))
    assert (result[4]["ci_low"], result[4]["ci_high"]) == (0.0, approx(0.65762))


# --- player_results -------------------------------------------------------------------------------------


def test_player_results(tmp_path: Path) -> None:
    d = Dataset()
    d.game(0)  # seat 0 is "Anna", seat 1 "Pere" (an imported game's SeatN tags)
    names = ("Anna", "Pere")
    # h1: Anna raises, Pere accepts, team 0 wins 2-0
    d.hand(0, 1, winner=0, points=(2, 0), stake=2)
    d.seats(0, 1, 0.5, 0.5, names=names)
    d.raise_to(0, 1, 0, 2)
    d.answer(0, 1, 1, "accept", 2)
    # h2: Pere raises, Anna folds, team 1 takes 1
    d.hand(0, 2, winner=1, points=(0, 1), ended_by="fold")
    d.seats(0, 2, 0.5, 0.5, names=names)
    d.raise_to(0, 2, 1, 2)
    d.answer(0, 2, 0, "fold", 2)
    # h3: void, counted in hands only
    d.hand(0, 3, winner=None, tricks=(-1, -1, -1))
    d.seats(0, 3, 0.5, 0.5, names=names)
    # a game without names: both seats are their policy, "test", which so plays itself: a mirror, whose win
    # rate and points are null (it wins one of its two side-hands by construction); team 1 wins 0-1
    d.game(1)
    d.hand(1, 1, winner=1, points=(0, 1))
    d.seats(1, 1, 0.5, 0.5)
    result = rows(stats.compute("player_results", d.write(tmp_path / "data")))
    columns = ("player", "mirror", "hands", "decided", "wins", "win_rate", "mean_net_points", "raises",
               "raises_per_hand", "facing", "folds", "fold_rate")  # fmt: skip
    got = [tuple(r[c] for c in columns) for r in result]
    assert got == [
        ("Anna", False, 3, 2, 1, 0.5, 0.5, 1, approx(1 / 3), 1, 1, 1.0),
        ("Pere", False, 3, 2, 1, 0.5, -0.5, 1, approx(1 / 3), 1, 0, 0.0),
        ("test", True, 2, 2, 1, None, None, 0, 0.0, 0, 0, None),
    ]
    assert (result[2]["ci_low"], result[2]["ci_high"]) == (None, None)
    assert (result[0]["ci_low"], result[0]["ci_high"]) == (approx(0.094531), approx(0.905469))


def test_player_results_count_the_random_bot_s_seat_hands_by_policy_whatever_the_name(tmp_path: Path) -> None:
    """``random_bot_hands``, behind the report's "not like for like" caveat: a seat whose policy is the random
    bot counts, under a player's name too; a policy that only starts with the same letters does not."""
    d = Dataset()
    d.game(0)
    for hand_no in (1, 2):
        d.hand(0, hand_no, winner=0, points=(1, 0))
        d.seats(0, hand_no, 0.5, 0.5, names=("Joan", "Pere"), policies=("random", "threshold raise_at=0.7"))
    d.game(1)
    d.hand(1, 1, winner=1, points=(0, 1))
    d.seats(1, 1, 0.5, 0.5, policies=("random", "randomized"))
    result = rows(stats.compute("player_results", d.write(tmp_path / "data")))
    got = {r["player"]: (r["hands"], r["random_bot_hands"]) for r in result}
    assert got == {"Joan": (2, 2), "Pere": (2, 0), "random": (1, 1), "randomized": (1, 0)}


def test_player_results_name_a_seat_with_neither_name_nor_policy_by_its_number(tmp_path: Path) -> None:
    """A hand-written history without SeatN and PolicyN tags: each seat is FORMAT.md's default name, seat0,
    seat1... (they were pooled as one player, '?', who sat on both sides of every hand)."""
    from pipeline.history.io import import_files

    history = Path(__file__).parent / "data" / "valid" / "raises_4p.truc"
    assert "[Seat" not in history.read_text("utf-8") and "[Policy" not in history.read_text("utf-8")
    result = rows(stats.compute("player_results", import_files([history], tmp_path / "data").out))
    assert [(r["player"], r["hands"]) for r in result] == [(f"seat{seat}", 4) for seat in range(4)]
    assert sum(r["wins"] for r in result) == sum(r["decided"] for r in result) // 2  # two seats win each hand


def test_player_results_count_a_side_once_per_hand_however_many_partners_share_it(tmp_path: Path) -> None:
    # 4 players: Anna and Berta are partners (team 0); seats 1 and 3 are both the bot "test" (team 1).
    # Partners share one result: counting each seat would double the sample, and halve nothing real.
    d = Dataset()
    d.game(0, players=4)
    for hand_no, winner in ((1, 0), (2, 1), (3, 0)):
        d.hand(0, hand_no, winner=winner, points=(1, 0) if winner == 0 else (0, 1))
        d.seats(0, hand_no, 0.5, 0.5, 0.5, 0.5, names=("Anna", None, "Berta", None))  # seats 1, 3: their policy
    result = {r["player"]: r for r in rows(stats.compute("player_results", d.write(tmp_path / "data")))}
    assert {name: (r["hands"], r["decided"], r["wins"]) for name, r in result.items()} == {
        "Anna": (3, 3, 2),
        "Berta": (3, 3, 2),
        "test": (6, 3, 1),  # two seats a hand, one side-hand a hand
    }
    assert result["test"]["mean_net_points"] == approx(-1 / 3)


# --- raise_rates ----------------------------------------------------------------------------------------


def test_raise_rates(tmp_path: Path) -> None:
    d = Dataset()
    d.game(0)
    # hand 1
    d.event(0, 1, None, "dealt", "deal", trick_no=None)
    d.event(0, 1, 1, "truc", "raise", could_raise=True, trick_no=None, stake_after=2)  # raise 1/NULL: yes
    d.event(0, 1, 0, "accept", "answer", answers=True, could_raise=True, trick_no=None,
            stake_after=2)  # accept_and_raise 1/NULL: no  # fmt: skip
    d.event(0, 1, 1, "play", "play", trick_no=1, stake_before=2)  # could not raise: no chance
    d.event(0, 1, 0, "play", "play", could_raise=True, trick_no=1, stake_before=2)  # raise 2/1: no
    d.event(0, 1, 0, "retruc", "raise", could_raise=True, trick_no=2, stake_before=2, stake_after=3)  # 2/2: yes
    d.event(0, 1, 1, "fold", "answer", answers=True, trick_no=2, stake_before=2)  # no chance
    d.hand(0, 1, winner=0, points=(2, 0), stake=2, ended_by="fold", tricks=(0, None, None))
    # hand 2
    d.event(0, 2, None, "dealt", "deal", trick_no=None)
    d.event(0, 2, 0, "play", "play", could_raise=True)  # raise 1/1: no
    d.event(0, 2, 1, "truc", "raise", could_raise=True, stake_after=2)  # raise 1/1: yes
    d.event(0, 2, 0, "retruc", "raise", answers=True, could_raise=True, stake_after=3)  # a&r 1/1: yes
    d.event(0, 2, 1, "accept", "answer", answers=True, stake_before=2, stake_after=3)  # no chance
    d.event(0, 2, 1, "play", "play", stake_before=3)
    d.hand(0, 2, winner=1, points=(0, 3), stake=3, tricks=(1, 1, None))
    d.seats(0, 1, 0.5, 0.5)
    d.seats(0, 2, 0.5, 0.5)
    result = rows(stats.compute("raise_rates", d.write(tmp_path / "data")))
    got = [(r["decision"], r["stake"], r["trick_no"], r["chances"], r["count"], r["rate"]) for r in result]
    assert got == [
        ("accept_and_raise", 1, 1, 1, 1, 1.0),
        ("accept_and_raise", 1, None, 1, 0, 0.0),
        ("raise", 1, 1, 2, 1, 0.5),
        ("raise", 1, None, 1, 1, 1.0),
        ("raise", 2, 1, 1, 0, 0.0),
        ("raise", 2, 2, 1, 1, 1.0),
    ]
    assert (result[2]["ci_low"], result[2]["ci_high"]) == (approx(0.094531), approx(0.905469))


# --- the Wilson macros ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [(8, 10, 0.490162, 0.943318), (0, 4, 0.0, 0.489891), (2, 2, 0.34238, 1.0), (5, 10, 0.236593, 0.763407)],
)
def test_wilson_macros(tmp_path: Path, k: int, n: int, low: float, high: float) -> None:
    import duckdb

    data = mano_dataset(tmp_path / "data")
    with duckdb.connect() as con:
        stats.create_staging(con, [data])
        got = con.execute("select wilson_low($k, $n), wilson_high($k, $n)", {"k": k, "n": n}).fetchone()
        assert got == (approx(low), approx(high))
        assert con.execute("select wilson_low(0, 0), wilson_high(0, 0)").fetchone() == (None, None)


# --- invariants on random datasets ----------------------------------------------------------------------


RATES = {
    "first_trick_value": [("p_win_won_first", "hands", "ci_low_won_first", "ci_high_won_first"),
                          ("p_win_lost_first", "hands", "ci_low_lost_first", "ci_high_lost_first")],
    "bluff_success": [("bluff_rate", "raises", "bluff_ci_low", "bluff_ci_high"),
                      ("success_rate", "bluffs", "success_ci_low", "success_ci_high"),
                      ("called_won_rate", "called", "called_won_ci_low", "called_won_ci_high")],
    "fold_rates": [("fold_rate", "facing", "ci_low", "ci_high")],
    "mano_advantage": [("win_rate", "hands", "ci_low", "ci_high")],
    "stake_distribution": [("share", None, "ci_low", "ci_high")],
    "tie_frequency": [("rate", "n", "ci_low", "ci_high")],
    "strength_curve": [("p_win", "n", "ci_low", "ci_high")],
    "raise_rates": [("rate", "chances", "ci_low", "ci_high")],
    "player_results": [("win_rate", "decided", "ci_low", "ci_high")],
    "game_results": [("win_rate", "games", "ci_low", "ci_high")],
    "envit": [("rate", "n", "ci_low", "ci_high")],
    "trut": [("rate", "n", "ci_low", "ci_high")],
    "french": [("rate", "n", "ci_low", "ci_high")],
    "void_hands": [("void_rate", "hands", "ci_low", "ci_high")],
    "variant_comparison": [
        ("first_trick_win_rate", "first_trick_hands", "first_trick_ci_low", "first_trick_ci_high"),
        ("bluff_rate", "raises", "bluff_ci_low", "bluff_ci_high"),
        ("bluff_success_rate", "bluffs", "bluff_success_ci_low", "bluff_success_ci_high"),
        ("fold_rate", "facing", "fold_ci_low", "fold_ci_high"),
        ("mano_win_rate", "decided_hands", "mano_ci_low", "mano_ci_high"),
        ("tie_rate", "tricks", "tie_ci_low", "tie_ci_high"),
    ],
}  # fmt: skip


def check_invariants(data: Path) -> None:
    frames = {name: stats.compute(name, data) for name in NAMES}
    hands = pl.read_parquet(store.table_glob(data, "hands"))
    events = pl.read_parquet(store.table_glob(data, "events"))
    for name, frame in frames.items():
        assert list(frame.schema.items()) == list(stats.STATISTICS[name].schema.items()), name  # names, types
        keys = list(stats.STATISTICS[name].keys)
        assert frame.select(keys).is_duplicated().sum() == 0, name
        assert frame.equals(frame.sort(keys, nulls_last=True)), name
        for rate, n, low, high in RATES[name]:
            for row in frame.iter_rows(named=True):
                if row.get("measure") == "stones":  # envit stones: an amount, not a rate
                    assert row[rate] is None and row["mean"] == row["count"] / row["n"], row
                    continue
                if (n is not None and row[n] == 0) or row.get(stats.MIRROR):  # a mirror's result is no finding
                    assert row[rate] is None and row[low] is None and row[high] is None, (name, row)
                    continue
                assert 0.0 <= row[low] <= row[rate] <= row[high] <= 1.0, (name, rate, row)

    total = hands.height
    decided = hands.filter(pl.col("winner_team").is_not_null()).height
    assert frames["void_hands"]["hands"].sum() == total
    assert frames["variant_comparison"]["hands"].sum() == total
    check_comparison_matches_its_statistics(frames)
    stake = frames["stake_distribution"]
    per_group = stake.group_by("variant", "players").agg(pl.col("hands").sum(), pl.col("share").sum())
    assert per_group["hands"].sum() == total
    assert all(math.isclose(s, 1.0) for s in per_group["share"])
    assert frames["mano_advantage"]["hands"].sum() == decided
    ties = frames["tie_frequency"]
    assert ties.filter(pl.col("measure") == "hand_by_tie_rule")["n"].sum() == total
    for trick_no in (1, 2, 3):
        played = hands.filter(pl.col(f"trick{trick_no}_winner").is_not_null()).height
        assert ties.filter(pl.col("trick_no") == trick_no)["n"].sum() == played
    first = frames["first_trick_value"]
    assert first["hands"].sum() == hands.filter(pl.col("trick1_winner") >= 0).height
    assert all(p + q <= 1 + 1e-12 for p, q in first.select("p_win_won_first", "p_win_lost_first").rows())

    bluff = frames["bluff_success"]
    assert (bluff["bluffs"] <= bluff["raises"]).all()
    assert (bluff["folded"] + bluff["called"] <= bluff["bluffs"]).all()
    assert (bluff["called_won"] <= bluff["called"]).all()

    folds = frames["fold_rates"]
    overall = folds.filter(pl.col("decile").is_null())
    by_decile = (
        folds.filter(pl.col("decile").is_not_null())
        .group_by("variant", "players", "policy", "stake")
        .agg(pl.col("facing").sum().alias("d_facing"), pl.col("folds").sum().alias("d_folds"))
    )
    joined = overall.join(by_decile, on=["variant", "players", "policy", "stake"], how="left").fill_null(0)
    assert (joined["d_facing"] <= joined["facing"]).all() and (joined["d_folds"] <= joined["folds"]).all()
    assert overall["facing"].sum() <= events.filter(pl.col("answers")).height
    assert folds["decile"].drop_nulls().is_between(1, 10).all()

    curve = frames["strength_curve"]
    assert curve["decile"].is_between(1, 10).all() and (curve["wins"] <= curve["n"]).all()

    raises = frames["raise_rates"]
    office = hands.filter(special="trut_office").select("game_id", "hand_no")
    forced = events.filter(pl.col("trick_no").is_null()).join(office, on=["game_id", "hand_no"], how="semi")
    chosen = events.filter(pl.col("kind") == "raise", pl.col("could_raise")).join(
        forced, on=["game_id", "hand_no", "seq"], how="anti"
    )
    assert raises["count"].sum() == chosen.height  # every raise but the trut d'office, which is no choice
    assert (raises["count"] <= raises["chances"]).all()

    # every seat-hand counts once, under one player, and every side-hand once per player on that side;
    # every raise and answer once, with its seat
    players = frames["player_results"]
    seats = pl.read_parquet(store.table_glob(data, "seats"))
    assert players["hands"].sum() == seats.height
    seat_hands = seats.join(hands.select("game_id", "hand_no", "winner_team"), on=["game_id", "hand_no"])
    named = seat_hands.with_columns(
        pl.coalesce("player", "policy", pl.lit("seat") + pl.col("seat").cast(pl.String)).alias("name")
    )
    side_hands = named.filter(pl.col("winner_team").is_not_null()).unique(["game_id", "hand_no", "team", "name"])
    assert players["decided"].sum() == side_hands.height
    assert players["raises"].sum() == events.filter(pl.col("kind") == "raise").height
    assert players["facing"].sum() == overall["facing"].sum()
    assert players["folds"].sum() == overall["folds"].sum()
    assert ((players["wins"] <= players["decided"]) & (players["decided"] <= players["hands"])).all()
    # a player on several sides of a hand is a mirror: it wins one of them in every decided hand
    mirrors = players.filter("mirror")
    assert mirrors.filter(pl.col("players") != 3).select((pl.col("wins") * 2 == pl.col("decided")).all()).item()
    assert mirrors["mean_net_points"].null_count() == mirrors.height

    # every decided game counts once per side: its sides' labels share its win, and the margins add up to 0
    results = frames["game_results"]
    games = pl.read_parquet(store.table_glob(data, "games")).filter(pl.col("winner_team").is_not_null())
    with_seats = games.join(seats.select("game_id").unique(), on="game_id", how="semi")
    assert results["games"].sum() == with_seats["sides"].sum()
    assert results["games_won"].sum() == with_seats.height
    two_sided = results.filter(pl.col("mirror"), pl.col("players") != 3)
    assert (two_sided["games_won"] * 2 == two_sided["games"]).all()
    assert results.filter("mirror")["mean_margin"].null_count() == results.filter("mirror").height
    assert (results["games_won"] <= results["games"]).all()


def check_comparison_matches_its_statistics(frames: dict[str, pl.DataFrame]) -> None:
    """Every figure of variant_comparison is its own statistic's, pooled over stakes, tricks, deciles."""
    key = ["variant", "players"]
    comparison = frames["variant_comparison"]
    pooled = [
        frames["first_trick_value"].select(*key, pl.col("hands").alias("first_trick_hands"), "p_win_won_first",
                                            pl.col("value").alias("first_value")),
        frames["mano_advantage"].select(*key, pl.col("hands").alias("decided"), pl.col("eldest_wins").alias("ew")),
        frames["bluff_success"].group_by(key).agg(pl.col("raises").sum().alias("r"), pl.col("bluffs").sum().alias("b"),
                                                  pl.col("folded").sum().alias("bf")),
        frames["fold_rates"].filter(pl.col("decile").is_null()).group_by(key).agg(
            pl.col("facing").sum().alias("fa"), pl.col("folds").sum().alias("fo")),
        frames["tie_frequency"].filter(pl.col("measure") == "trick_tied").group_by(key).agg(
            pl.col("n").sum().alias("tr"), pl.col("count").sum().alias("ti")),
    ]  # fmt: skip
    joined = comparison
    for part in pooled:
        joined = joined.join(part, on=key, how="left")
    for row in joined.iter_rows(named=True):
        assert row["first_trick_hands"] == (row["first_trick_hands_right"] or 0), row
        if row["first_trick_hands"]:
            assert row["first_trick_win_rate"] == pytest.approx(row["p_win_won_first"])
            assert row["first_trick_value"] == pytest.approx(row["first_value"])
        assert (row["decided_hands"], row["eldest_wins"]) == (row["decided"] or 0, row["ew"] or 0), row
        assert (row["raises"], row["bluffs"], row["bluffs_folded"]) == (row["r"] or 0, row["b"] or 0, row["bf"] or 0)
        assert (row["facing"], row["folds"]) == (row["fa"] or 0, row["fo"] or 0), row
        assert (row["tricks"], row["tied_tricks"]) == (row["tr"] or 0, row["ti"] or 0), row
        if row["decided_hands"]:
            assert row["mano_edge"] == pytest.approx(row["mano_win_rate"] - 1 / row["sides"])


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), games=st.integers(1, 25))
def test_invariants_on_random_datasets(seed: int, games: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        check_invariants(write_synthetic(Path(tmp) / "data", seed=seed, games=games))


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), games=st.integers(1, 40))
def test_invariants_on_random_variant_datasets(seed: int, games: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        data = write_synthetic_variants(Path(tmp) / "data", seed=seed, games=games)
        check_invariants(data)
        check_variant_invariants(data)
        # to_play as the engines record it: set exactly in trick play, and a card is played by the seat to play
        events = pl.read_parquet(store.table_glob(data, "events"))
        assert (events["to_play"].is_null() == events["trick_no"].is_null()).all()
        plays = events.filter(kind="play")
        assert (plays["seat"] == plays["to_play"]).all()


# --- parameters and errors ------------------------------------------------------------------------------

POLICY_KEYED = {"bluff_success", "fold_rates", "raise_rates", "strength_curve", "envit", "trut", "french",
                "game_results"}  # fmt: skip
"""The statistics with a ``policy`` key (docs/statistics.md, "Policies"): a seat's choices, and game results."""


def test_registry_lists_every_statistic() -> None:
    listed = stats.list_statistics()
    assert [s.name for s in listed] == NAMES
    assert len(NAMES) == 15
    for statistic in listed:
        assert statistic.description and "\n" not in statistic.description
        assert statistic.sql_path.is_file()
        assert statistic.columns[:2] == ("variant", "players")
        assert set(statistic.keys) <= set(statistic.columns)
        # a seat's choices are per policy, keyed right after the setting
        if statistic.name in POLICY_KEYED:
            assert statistic.keys[:3] == statistic.columns[:3] == ("variant", "players", "policy")
        else:
            assert "policy" not in statistic.columns
        assert bool(statistic.mirrored) == (stats.MIRROR in statistic.keys)
        assert set(statistic.mirrored) <= set(statistic.columns)
    threshold = stats.get_statistic("bluff_success").parameters[0]
    assert (threshold.name, threshold.type, threshold.default) == ("threshold", float, 0.33)
    assert stats.get_statistic("variant_comparison").parameters == (threshold,)
    below = stats.get_statistic("envit").parameters[0]
    assert (below.name, below.default) == ("bluff_below", 20.0)


@pytest.mark.parametrize("name", NAMES)
def test_a_statistic_counts_exactly_the_variants_it_declares(name: str, sim_all_variants: Path) -> None:
    """``Statistic.variants`` (the note beside an empty result) matches the SQL: over a run of every variant
    and player count, rows come from exactly those variants (from every variant when none is declared)."""
    from pipeline.variants import VARIANTS

    declared = stats.STATISTICS[name].variants or tuple(VARIANTS)
    assert set(declared) <= set(VARIANTS)
    counted = set(stats.compute(name, sim_all_variants)["variant"].to_list())
    assert counted == set(declared)


def test_why_empty_names_the_variants_counted() -> None:
    assert stats.why_empty("envit") == "envit counts only valencian games, and the data holds none"
    assert (
        stats.why_empty("trut") == "trut counts only trut, trut-gatinaise or trut-gatine games, and the data holds none"
    )
    assert stats.why_empty("fold_rates") == "the data holds no hand that fold_rates counts"


@pytest.mark.parametrize("name", NAMES)
def test_sql_header_states_grain_columns_and_parameters(name: str) -> None:
    statistic = stats.STATISTICS[name]
    text = statistic.sql()
    header = "\n".join(line for line in text.splitlines() if line.startswith("--"))
    body = "\n".join(line for line in text.splitlines() if not line.startswith("--"))
    assert "Grain:" in header and "Columns" in header and "Parameters" in header
    for column in statistic.columns:
        assert re.search(rf"\b{column}\b", header), f"{name}: column {column} not described"
    assert set(re.findall(r"\$(\w+)", body)) == {p.name for p in statistic.parameters}
    for parameter in statistic.parameters:
        assert f"${parameter.name}" in header and f"default {parameter.default:g}" in header
    # lowercase keywords
    assert not re.search(r"\b(SELECT|FROM|WHERE|GROUP BY|ORDER BY|WITH|JOIN)\b", body)


@pytest.mark.parametrize("name", NAMES)
def test_docs_describe_every_statistic(name: str) -> None:
    docs = (ROOT / "docs" / "statistics.md").read_text("utf-8")
    assert f"## `{name}`" in docs
    section = docs.split(f"## `{name}`", 1)[1].split("\n## ", 1)[0]
    for column in stats.STATISTICS[name].columns:
        assert f"`{column}`" in section, f"docs/statistics.md: {name} does not describe {column}"


def test_unknown_statistic(tmp_path: Path) -> None:
    with pytest.raises(stats.StatsError, match=r"unknown statistic 'bluffs'.*bluff_success.*tie_frequency"):
        stats.compute("bluffs", mano_dataset(tmp_path / "data"))


def test_unknown_parameter(raise_dataset: Path) -> None:
    suggested = r"unknown parameter 'treshold' \(did you mean 'threshold'\?\) for bluff_success"
    with pytest.raises(stats.StatsError, match=suggested):
        stats.compute("bluff_success", raise_dataset, {"treshold": "0.2"})
    with pytest.raises(stats.StatsError, match=r"^unknown parameter 'threshold': tie_frequency takes no parameters$"):
        stats.compute("tie_frequency", raise_dataset, {"threshold": "0.2"})


@pytest.mark.parametrize("value", ["abc", "", "1.5", "-0.1", "nan", "inf"])
def test_bad_parameter_value(raise_dataset: Path, value: str) -> None:
    with pytest.raises(stats.StatsError, match=r"bad value .* threshold .*expected a number between 0 and 1"):
        stats.compute("bluff_success", raise_dataset, {"threshold": value})


def test_missing_or_incomplete_dataset(tmp_path: Path) -> None:
    with pytest.raises(store.DatasetError, match="does not exist"):
        stats.compute("mano_advantage", tmp_path / "nowhere")
    data = mano_dataset(tmp_path / "data")
    (data / "manifest.json").unlink()
    with pytest.raises(store.DatasetError, match="is not a Truc Lab dataset: no manifest.json"):
        stats.compute("mano_advantage", data)
    data = mano_dataset(tmp_path / "data2")
    (data / "events" / "part-00000.parquet").unlink()
    with pytest.raises(store.DatasetError, match="no Parquet files"):
        stats.compute("mano_advantage", data)
    # one good folder and one bad one: the bad one is named
    with pytest.raises(store.DatasetError, match="nowhere"):
        stats.compute("mano_advantage", [mano_dataset(tmp_path / "ok"), tmp_path / "nowhere"])
    with pytest.raises(store.DatasetError, match="no dataset folder"):
        stats.compute("mano_advantage", [])


def test_unreadable_parquet_is_a_dataset_error(tmp_path: Path) -> None:
    data = mano_dataset(tmp_path / "data")
    (data / "hands" / "part-00000.parquet").write_bytes(b"not parquet")
    with pytest.raises(store.DatasetError, match=r"hands/part-00000.parquet has changed since the dataset was written"):
        stats.compute("mano_advantage", data)


def test_a_broken_later_part_is_named_by_the_folder_check(tmp_path: Path) -> None:
    """The folder check compares the parts with its manifest's list: a later part added is named."""
    data = mano_dataset(tmp_path / "data")
    (data / "hands" / "part-00001.parquet").write_bytes(b"not parquet either")
    with pytest.raises(store.DatasetError, match=r"hands/part-00001.parquet is not listed in .*manifest.json"):
        stats.compute("mano_advantage", data)


def test_a_part_broken_past_its_footer_is_a_one_line_dataset_error_naming_the_part(tmp_path: Path) -> None:
    """A part whose footer reads but whose pages are broken passes the folder check; DuckDB finds it while
    the statistic runs, and it still gives a one-line error naming the part."""
    data = mano_dataset(tmp_path / "data")
    part = data / "hands" / "part-00000.parquet"
    content = bytearray(part.read_bytes())
    content[4:200] = bytes(196)  # the first column's pages, after the magic bytes
    part.write_bytes(bytes(content))
    store.check_dataset(data)
    with pytest.raises(store.DatasetError, match=rf"^{part} is not a readable Parquet file: ") as caught:
        stats.compute("mano_advantage", data)
    assert "\n" not in str(caught.value)


def test_a_broken_manifest_is_a_dataset_error(tmp_path: Path) -> None:
    data = mano_dataset(tmp_path / "data")
    (data / "manifest.json").write_text('{"variant": "catalan"', "utf-8")
    with pytest.raises(store.DatasetError, match=r"manifest.json is not valid JSON"):
        stats.compute("mano_advantage", data)


# --- several dataset folders ----------------------------------------------------------------------------


def test_two_folders_by_hand(tmp_path: Path) -> None:
    # the same game ids in both folders: 10 + 10 catalan 2-player decided hands, 8 + 8 eldest wins
    a = mano_dataset(tmp_path / "a")
    b = mano_dataset(tmp_path / "b")
    two, four = rows(stats.compute("mano_advantage", [a, b]))
    assert (two["hands"], two["eldest_wins"], two["win_rate"]) == (20, 16, 0.8)
    assert (four["hands"], four["eldest_wins"]) == (4, 2)
    # the same folder twice (however spelled) is read once
    again = rows(stats.compute("mano_advantage", [a, tmp_path / "b" / ".." / "a"]))
    assert again[0]["hands"] == 10


def _merge(folders: list[Path], out: Path) -> Path:
    """One folder holding the games of ``folders``, game ids shifted apart."""
    for name in store.TABLES:
        tables = []
        for i, folder in enumerate(folders):
            table = parts.read_table(folder, name)
            if "game_id" in table.column_names:
                ids = pa.array([g + 100_000 * i for g in table.column("game_id").to_pylist()], pa.int64())
                table = table.set_column(table.schema.get_field_index("game_id"), "game_id", ids)
            tables.append(table)
        (out / name).mkdir(parents=True)
        pq.write_table(pa.concat_tables(tables), out / name / "part-00000.parquet")
    store.write_manifest(out, {"source": "merged"})
    return out


@pytest.mark.parametrize("name", NAMES)
def test_several_folders_equal_one_merged_folder(tmp_path: Path, name: str) -> None:
    a = write_synthetic_variants(tmp_path / "a", seed=1, games=30)
    b = write_synthetic(tmp_path / "b", seed=2, games=30)
    merged = _merge([a, b], tmp_path / "merged")
    assert_frame_equal(stats.compute(name, [a, b]), stats.compute(name, merged), rel_tol=1e-9)


# --- rendering --------------------------------------------------------------------------------------------


def test_render_formats(tmp_path: Path) -> None:

    frame = stats.compute("tie_frequency", mano_dataset(tmp_path / "data"))
    table = stats.render(frame, "table")
    assert table.splitlines()[0].startswith("| variant") and "hand_by_tie_rule" in table
    csv = stats.render(frame, "csv")
    assert csv.splitlines()[0] == ",".join(frame.columns) and len(csv.splitlines()) == frame.height + 1
    parsed = json.loads(stats.render(frame, "json"))
    assert parsed == frame.to_dicts() and parsed[0]["trick_no"] is None
    with pytest.raises(stats.StatsError, match="unknown format 'xml'.*table, csv, json"):
        stats.render(frame, "xml")


def test_a_table_escapes_what_would_split_a_markdown_cell_or_row() -> None:
    """A player's name or a tag may hold a ``|`` or a line break: each row stays one line of as many cells
    as the header. CSV shows the line break escaped as the table does (``printable.escaped``); JSON keeps the
    text as it is."""
    frame = pl.DataFrame({"player": ["Anna | Pere", "two\nlines", None], "a|b": [1, 2, 3]})
    lines = stats.render(frame, "table").splitlines()
    assert lines[0].split() == ["|", "player", "|", "a\\|b", "|"]
    assert [line.split(" | ")[0].rstrip() for line in lines[2:]] == ["| Anna \\| Pere", "| two\\nlines", "| null"]
    assert all(len(re.findall(r"(?<!\\)\|", line)) == 3 for line in lines)
    assert len(lines) == 2 + frame.height
    written = pl.read_csv(io.StringIO(stats.render(frame, "csv")))["player"].to_list()
    assert written == ["Anna | Pere", "two\\nlines", None]
    assert [row["player"] for row in json.loads(stats.render(frame, "json"))] == frame["player"].to_list()


def test_columns_named_are_kept_in_order(tmp_path: Path) -> None:
    data = mano_dataset(tmp_path / "data")
    frame = stats.compute("tie_frequency", data)
    picked = stats.compute("tie_frequency", data, columns=["count", "variant", "count"])
    assert picked.columns == ["count", "variant"] and picked.height == frame.height
    assert picked["count"].to_list() == frame["count"].to_list()
    with pytest.raises(stats.StatsError, match=r"tie_frequency has no column 'nope', 'x'; columns: variant, "):
        stats.compute("tie_frequency", tmp_path / "no dataset needed", columns=["variant", "nope", "x"])


@pytest.mark.parametrize("name", sorted(stats.STATISTICS))
def test_describe_defines_every_column(name: str) -> None:
    """``truc stats NAME --describe``: the SQL file's header, which states the grain and defines every column."""
    text = stats.describe(name)
    assert text.startswith(f"{name}: ") and "Grain:" in text and "--" not in text.splitlines()[0]
    missing = [column for column in stats.get_statistic(name).columns if column not in text]
    assert not missing, f"{name}'s header does not define {missing}"


def check_variant_invariants(data: Path) -> None:
    """Counts of the variant statistics that must add up on any dataset."""
    hands = pl.read_parquet(store.table_glob(data, "hands"))
    envit = stats.compute("envit", data)
    for (_, _, rung), group in envit.filter(pl.col("measure").is_in(["accepted", "folded", "raised"])).group_by(
        "variant", "players", "level"
    ):
        assert group["n"].n_unique() == 1 and group["count"].sum() <= group["n"][0], rung
    bluffs = envit.filter(measure="bluff").select("variant", "players", "level", "count")
    folded = envit.filter(measure="bluff_folded").select("variant", "players", "level", "n")
    joined = bluffs.filter(pl.col("count") > 0).join(folded, on=["variant", "players", "level"], how="left")
    assert (joined["n"] == joined["count"]).all()  # every rung with bluffs has its bluff_folded row
    stones = envit.filter(measure="stones")["count"].sum()
    valencian = hands.filter(pl.col("cames_after_team0").is_not_null())
    assert stones == (valencian["points_team0"].sum() + valencian["points_team1"].sum() if valencian.height else 0)

    trut = stats.compute("trut", data)
    timing = (
        trut.filter(measure="timing")
        .group_by("variant", "players", "trick_no")
        .agg(pl.col("n").first(), pl.col("n").n_unique().alias("distinct"), pl.col("count").sum())
    )
    assert (timing["distinct"] == 1).all() and (timing["n"] == timing["count"]).all()
    levels = trut.filter(measure="timing")
    assert set(levels["level"]) <= {"call", "in_turn", "out_after_card", "out_before_card"}
    assert ((levels["level"] == "call") == levels["trick_no"].is_null()).all()
    # every trut has one timing; the 'trut' measure counts the hands where a trut is a choice
    events = pl.read_parquet(store.table_glob(data, "events"))
    trut_rows = events.filter(verb="trut")
    assert trut_rows.height == trut.filter(measure="timing")["count"].sum()
    choice = hands.filter(pl.col("special").is_null() | pl.col("special").is_in(["fortial", "fortial_both"]))
    truted = choice.join(trut_rows.select("game_id", "hand_no").unique(), on=["game_id", "hand_no"], how="semi")
    assert truted.height == trut.filter(measure="trut")["count"].sum()
    for special in ("fortial", "trut_office"):
        rows = {r["level"]: r for r in trut.filter(measure=special).iter_rows(named=True)}
        if rows:
            assert rows["passed"]["count"] + rows["folded"]["count"] <= rows["passed"]["n"]
            assert rows["truted"]["count"] + rows["passed"]["count"] <= rows["passed"]["n"]
            assert rows["decider_won"]["count"] <= rows["decider_won"]["n"] <= rows["passed"]["n"]

    french = stats.compute("french", data)
    sizes = (
        french.filter(measure="raise_size")
        .group_by("variant", "players")
        .agg(pl.col("n").first(), pl.col("count").sum())
    )
    assert (sizes["n"] == sizes["count"]).all() and (french.filter(measure="raise_size")["size"] > 0).all()
    for row in french.filter(pl.col("measure").str.starts_with("reste_")).iter_rows(named=True):
        reste = french.filter(measure="reste", variant=row["variant"], players=row["players"]).row(0, named=True)
        assert row["n"] <= reste["count"]


# --- every variant family -----------------------------------------------------------------------------


def wilson_bounds(k: int, n: int) -> tuple[float, float]:
    """The 95% Wilson interval by its textbook formula, to check the statistics' bounds."""
    z = 1.959964
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


def three_sides_dataset(root: Path) -> Path:
    """3-player Trut (each player alone, side = seat): hands won by side 2, a void hand, a fold.

    h1 eldest 1, tricks 1 1:        side 1 wins, points (0, 1, 0), stake 1
    h2 eldest 2, tricks 0 2 2:      side 2 wins, points (0, 0, 3), stake 3
    h3 eldest 0, all tricks tied:   void, no points
    h4 eldest 1, both opponents fold to side 0's trut: side 0 takes 2 petits, points (2, 0, 0)
    Seats in h1 and h2: strength_pct 0.05 (decile 1), 0.55 (6), 0.95 (10).
    """
    d = Dataset()
    d.game(0, variant="trut", players=3, unit="longs")
    d.hand(0, 1, winner=1, points=(0, 1, 0), eldest=1, tricks=(1, 1, None), void=False)
    d.hand(0, 2, winner=2, points=(0, 0, 3), stake=3, eldest=2, tricks=(0, 2, 2), void=False)
    d.hand(0, 3, winner=None, points=(0, 0, 0), eldest=0, tricks=(-1, -1, -1), void=True)
    d.hand(0, 4, winner=0, points=(2, 0, 0), eldest=1, ended_by="fold", void=False)
    d.seats(0, 1, 0.05, 0.55, 0.95)
    d.seats(0, 2, 0.05, 0.55, 0.95)
    return d.write(root)


def test_three_sides_in_the_hand_statistics(tmp_path: Path) -> None:
    data = three_sides_dataset(tmp_path / "data")
    (first,) = rows(stats.compute("first_trick_value", data))
    # h1 and h2 have trick 1 won outright; h1 goes to its winner (side 1), h2 to side 2, which lost it
    assert (first["hands"], first["p_win_won_first"], first["p_win_lost_first"], first["value"]) == (2, 0.5, 0.5, 0)
    # the trick-1 winner scored 1 (h1) and 0 (h2); the others, per side, (0 + 0) / 2 and (0 + 3) / 2
    assert (first["mean_points_won_first"], first["mean_points_lost_first"]) == (0.5, 0.75)
    assert first["points_value"] == -0.25

    (mano,) = rows(stats.compute("mano_advantage", data))
    # decided h1 (eldest 1 wins), h2 (eldest 2 wins), h4 (eldest 1 loses to side 0)
    assert (mano["hands"], mano["eldest_wins"]) == (3, 2)
    # eldest's side: 1, 3, 0; the others per side: 0, 0, (2 + 0) / 2
    assert mano["mean_points_eldest"] == approx(4 / 3)
    assert mano["mean_points_other"] == approx(1 / 3)
    assert mano["points_diff"] == approx(1.0)

    curve_rows = rows(stats.compute("strength_curve", data))
    curve = [(r["decile"], r["n"], r["wins"], r["mean_net_points"]) for r in curve_rows]
    # h1 (side 1 wins 1): nets -0.5, +1, -0.5; h2 (side 2 wins 3): nets -1.5, -1.5, +3
    assert curve == [(1, 2, 0, -1.0), (6, 2, 1, -0.25), (10, 2, 1, 1.25)]

    stakes = [(r["stake"], r["hands"], r["mean_points"]) for r in rows(stats.compute("stake_distribution", data))]
    # the third side's points count: stake 1 hands h1 h3 h4 total 1 + 0 + 2, stake 3 hand h2 total 3
    assert stakes == [(1, 3, 1.0), (3, 1, 3.0)]

    (void,) = rows(stats.compute("void_hands", data))
    assert (void["hands"], void["void_hands"], void["void_rate"]) == (4, 1, 0.25)
    assert (void["ci_low"], void["ci_high"]) == (approx(wilson_bounds(1, 4)[0]), approx(wilson_bounds(1, 4)[1]))

    (comparison,) = rows(stats.compute("variant_comparison", data))
    assert (comparison["sides"], comparison["unit"], comparison["games"], comparison["hands"]) == (3, "longs", 1, 4)
    assert comparison["mean_hands_per_game"] == 4.0
    assert comparison["mano_win_rate"] == approx(2 / 3) and comparison["mano_edge"] == approx(1 / 3)
    # tricks played: 2 (h1) + 3 (h2) + 3 (h3), tied: the three of h3
    assert (comparison["tricks"], comparison["tied_tricks"], comparison["tie_rate"]) == (8, 3, 0.375)
    assert (comparison["first_trick_hands"], comparison["first_trick_value"]) == (2, 0.0)
    assert comparison["raises"] == 0 and comparison["bluff_rate"] is None and comparison["bluff_ci_low"] is None


def test_trut_answers_seat_by_seat(tmp_path: Path) -> None:
    """4-player Trut: the truter's opponents answer one by one; one "see" is enough to play on.

    h1 (s0 0.10): s0 truts, s1 folds, s3 sees; team 1 wins the long (0, 3)   a bluff called, lost, net -3
    h2 (s0 0.20): s0 truts, s1 and s3 fold; team 0 takes a petit (1, 0)       a bluff folded to, net +1
    """
    d = Dataset()
    d.game(0, variant="trut", players=4)
    for hand_no, pct, answers, winner, points in (
        (1, 0.10, ("fold", "accept"), 1, (0, 3)),
        (2, 0.20, ("fold", "fold"), 0, (1, 0)),
    ):
        d.seats(0, hand_no, pct, 0.5, 0.5, 0.5)
        d.event(0, hand_no, None, "dealt", "deal", trick_no=None)
        d.event(0, hand_no, 0, "trut", "raise", could_raise=True, stake_after=3)
        for seat, verb in zip((1, 3), answers, strict=True):
            d.event(0, hand_no, seat, verb, "answer", answers=True, stake_after=3 if verb == "accept" else 1)
        ended_by = "fold" if winner == 0 else "tricks"
        d.hand(0, hand_no, winner=winner, points=points, stake=3 if winner else 1, ended_by=ended_by,
               petits_team0=points[0], petits_team1=0, longs_team0=0, longs_team1=points[1] // 3)  # fmt: skip
    data = d.write(tmp_path / "data")
    (bluff,) = rows(stats.compute("bluff_success", data))
    assert (bluff["stake"], bluff["raises"], bluff["bluffs"]) == (3, 2, 2)
    # h1 was seen by s3 after s1 folded: called, not folded
    assert (bluff["folded"], bluff["called"], bluff["called_won"]) == (1, 1, 0)
    assert bluff["net_points_per_bluff"] == -1.0
    folds = [(r["decile"], r["facing"], r["folds"]) for r in rows(stats.compute("fold_rates", data))]
    assert folds == [(6, 4, 3), (None, 4, 3)]
    positions = stats.compute("trut", data).filter(measure="fold_by_position")
    assert [(r["level"], r["n"], r["count"]) for r in rows(positions)] == [("1", 2, 2), ("2", 2, 1)]
    (comparison,) = rows(stats.compute("variant_comparison", data))
    assert (comparison["bluffs"], comparison["bluffs_folded"], comparison["bluff_success_rate"]) == (2, 1, 0.5)
    assert (comparison["facing"], comparison["folds"], comparison["fold_rate"]) == (4, 3, 0.75)


def test_trut(tmp_path: Path) -> None:
    d = Dataset()
    d.game(0, variant="trut", options="dealer_leads=off players=2")
    d.game(1, variant="trut", options="dealer_leads=off players=2")
    hand_no = 0

    def hand(eldest: int, *actions: tuple[int | None, str, str, int | None], game: int = 0, winner: int | None = 0,
             ended_by: str = "tricks", **extra: Any) -> None:  # fmt: skip
        """Events (seat, verb, trick, to_play) in order: trick '-' is before play (NULL), arg after a space."""
        nonlocal hand_no
        hand_no = hand_no + 1 if game == 0 else 1
        for seat, verb, trick, to_play in actions:
            word, _, arg = verb.partition(" ")
            kind = {"trut": "raise", "play": "play", "accept": "answer", "fold": "answer"}.get(word, "choice")
            d.event(game, hand_no, seat, word, kind, answers=kind == "answer", arg=arg or None,
                    trick_no=None if trick == "-" else int(trick), to_play=to_play)  # fmt: skip
        d.hand(game, hand_no, winner=winner, eldest=eldest, ended_by=ended_by, petits_team0=0, **extra)
        d.seats(game, hand_no, 0.5, 0.5)  # both seats play the policy "test"

    # The timing reads the trut row's to_play alone: nothing is inferred from the eldest, the dealer or
    # the cards played after the trut.
    # h1: the eldest (1), to play, truts before the first card: in turn; s0 folds
    hand(1, (1, "trut", "1", 1), (0, "fold", "1", 1), winner=1, ended_by="fold")
    # h2: s1 truts after playing his card (s0 to play): out of turn, after his card
    hand(1, (1, "play", "1", 1), (1, "trut", "1", 0), (0, "accept", "1", 0), (0, "play", "1", 0))
    # h3: s0 truts before the eldest (1) has led: out of turn, before his card (his card comes after)
    hand(1, (0, "trut", "1", 1), (1, "accept", "1", 1), (1, "play", "1", 1), (0, "play", "1", 0))
    # h4: trick 2, nobody has played in it yet, s0 (who won trick 1) is to lead, s1 truts and s0 folds:
    # out of turn, before his card (s1's card of trick 1 does not count)
    hand(0, (0, "play", "1", 0), (1, "play", "1", 1), (1, "trut", "2", 0), (0, "fold", "2", 0), winner=1,
         ended_by="fold")  # fmt: skip
    # h5: trick 2, s0 truts before s1 leads the trick: out of turn
    hand(0, (0, "play", "1", 0), (1, "play", "1", 1), (0, "trut", "2", 1), (1, "accept", "2", 1),
         (1, "play", "2", 1))  # fmt: skip
    # h6: trick 2, s1 has led and s0, to play, truts: in turn
    hand(0, (0, "play", "1", 0), (1, "play", "1", 1), (1, "play", "2", 1), (0, "trut", "2", 0),
         (1, "accept", "2", 0))  # fmt: skip
    # h7: the fortial; side 1 truts before play (a call: no seat to play), s0 sees, side 1 wins
    hand(1, (1, "trut", "-", None), (0, "accept", "-", None), winner=1, special="fortial")
    # h8: the fortial; side 0 passes: the others take a petit, no play
    hand(1, (0, "pass", "-", None), winner=None, ended_by="pass", special="fortial", void=False)
    # h9: trut d'office à tenir: side 1 holds and loses
    hand(1, (1, "hold", "-", None), winner=0, special="trut_office", void=False)
    # h10: trut d'office after la chanson (one sings, one does not), all tricks tied: void, nobody decided
    hand(1, (1, "sing", "-", None), (0, "nosing", "-", None), (1, "ask 2", "-", None), (1, "ask 1", "-", None),
         winner=None, special="trut_office", void=True)  # fmt: skip
    # h11: trut d'office: both sing, s0 asks 2 cards, then side 1 does not hold: no play
    hand(1, (0, "sing", "-", None), (1, "sing", "-", None), (0, "ask 2", "-", None), (1, "pass", "-", None),
         winner=None, ended_by="pass", special="trut_office", void=False)  # fmt: skip
    # h12: à tenir as the gatine engine marks it (special 'tenir'): side 1 holds and wins
    hand(1, (1, "hold", "-", None), winner=1, special="tenir", void=False)
    # h13: both sides au fortial play an ordinary hand (seed 003 "Le cas particulier du fortial"): a trut is
    # a choice there, and none is made
    hand(1, (1, "play", "1", 1), (0, "play", "1", 0), winner=1, special="fortial_both")
    # game 1: h4's cards, but s0, to lead trick 2, truts himself and s1 folds: in turn
    hand(1, (0, "play", "1", 0), (1, "play", "1", 1), (0, "trut", "2", 0), (1, "fold", "2", 0), game=1,
         ended_by="fold")  # fmt: skip
    # a catalan game: no trut rows
    d.game(2)
    d.hand(2, 1, winner=0, points=(1, 0))
    result = rows(stats.compute("trut", d.write(tmp_path / "data")))
    assert {r["variant"] for r in result} == {"trut"}
    # every seat plays the policy "test"; a special hand with no deciding seat (nobody truted, passed or
    # held) has no policy: its rows come last, policy null
    got = [(r["measure"], r["level"], r["trick_no"], r["n"], r["count"]) for r in result if r["policy"] == "test"]
    assert got == [
        ("chanson_cards", "1", None, 3, 1),
        ("chanson_cards", "2", None, 3, 2),
        # answers to truts, all first answers: h1 fold, h2 h3 accept, h4 fold, h5 h6 h7 accept, game 1 fold
        ("fold_by_position", "1", None, 8, 3),
        ("fortial", "decider_won", None, 2, 1),
        ("fortial", "folded", None, 2, 0),
        ("fortial", "passed", None, 2, 1),
        ("fortial", "truted", None, 2, 1),
        ("fortial", "void", None, 2, 0),
        # h9 hold, h11 pass, h12 hold (h8's pass is the fortial's)
        ("hold", None, None, 3, 2),
        # h10 sing nosing, h11 sing sing
        ("sing", None, None, 4, 3),
        # every special value is a measure of its own
        ("tenir", "decider_won", None, 1, 1),
        ("tenir", "folded", None, 1, 0),
        ("tenir", "passed", None, 1, 0),
        ("tenir", "truted", None, 1, 1),
        ("tenir", "void", None, 1, 0),
        # h7
        ("timing", "call", None, 1, 1),
        # trick 1: h1 in turn, h2 after his card, h3 before his card
        ("timing", "in_turn", 1, 3, 1),
        # trick 2: h6 and game 1 in turn, h4 and h5 before their card
        ("timing", "in_turn", 2, 4, 2),
        ("timing", "out_after_card", 1, 3, 1),
        ("timing", "out_before_card", 1, 3, 1),
        ("timing", "out_before_card", 2, 4, 2),
        # hands with a trut: h1-h7 and game 1's, of 14
        ("trut", None, None, 10, 8),  # h9-h12 (trut d'office, à tenir) offer no trut to choose; h13 does
        # h9 (hold) and h11 (pass) have a deciding seat
        ("trut_office", "decider_won", None, 2, 0),
        ("trut_office", "folded", None, 2, 0),
        ("trut_office", "passed", None, 2, 1),
        ("trut_office", "truted", None, 2, 1),
        ("trut_office", "void", None, 2, 0),
    ]
    undecided = [(r["measure"], r["level"], r["n"], r["count"]) for r in result if r["policy"] is None]
    assert undecided == [
        # h13: nobody decides when both sides are au fortial
        ("fortial_both", "decider_won", 0, 0),
        ("fortial_both", "folded", 1, 0),
        ("fortial_both", "passed", 1, 0),
        ("fortial_both", "truted", 1, 0),
        ("fortial_both", "void", 1, 0),
        # h10, void: out of decider_won's sample
        ("trut_office", "decider_won", 0, 0),
        ("trut_office", "folded", 1, 0),
        ("trut_office", "passed", 1, 0),
        ("trut_office", "truted", 1, 0),
        ("trut_office", "void", 1, 1),
    ]
    assert len(got) + len(undecided) == len(result)
    timing = next(r for r in result if r["level"] == "in_turn" and r["trick_no"] == 2)
    assert timing["rate"] == 0.5
    assert (timing["ci_low"], timing["ci_high"]) == (approx(wilson_bounds(2, 4)[0]), approx(wilson_bounds(2, 4)[1]))


def envit_dataset(root: Path) -> Path:
    """Five 2-player valencian hands (envit values of seats 0 and 1 in brackets) and a catalan hand.

    h1 (31, 5), eldest 1: s1 envit, s0 accept (as the engine records it: kind 'envit_answer', answers
       false). Envit to team 0 (31 > 5) for 2; team 0 takes the hand for 1: stones (3, 0).
    h2 (7, 27), eldest 0: s0 truc; s1 answers with an envit; s0 torne; s1 folds the torne; s1 accepts the
       truc. The envit rows as the brief assumes them (kind 'answer', answers true). Envit to team 0 (the
       torne folded) for 2; team 1 takes the truc for 2: stones (2, 2).
    h3 (None, 20), eldest 1: s0 truc, s1 envit-falta, s0 folds it, s1 accepts the truc. Envit to team 1
       for 1; team 0 takes the truc for 2: stones (2, 1).
    h4 (24, 3): no envit; team 1 takes the hand: stones (0, 1).
    h5 (30, 29): s0 envit, never answered (the record stops): no stones.
    h6 (None, 26): s0 envit, s1 torne, s0 accepts; team 1 wins the envit for 4; the record stops before
       the truc is decided: stones (0, 4).
    """
    d = Dataset()
    d.game(0, variant="valencian")
    cames = {"cames_after_team0": 0, "cames_after_team1": 0}

    def envit_columns(winner: int, stake: int, points: int, ended_by: str) -> dict[str, Any]:
        return {"envit_winner": winner, "envit_stake": stake, "envit_points": points, "envit_ended_by": ended_by}

    d.seats(0, 1, 0.5, 0.5, envit=(31, 5))
    d.event(0, 1, None, "dealt", "deal", trick_no=None)
    d.event(0, 1, 1, "envit", "envit", could_raise=True)
    d.event(0, 1, 0, "accept", "envit_answer")
    d.event(0, 1, 1, "play", "play", could_raise=True)
    d.hand(0, 1, winner=0, points=(3, 0), tricks=(0, 0, None), **cames, **envit_columns(0, 2, 2, "accept"))

    d.seats(0, 2, 0.5, 0.5, envit=(7, 27))
    d.event(0, 2, None, "dealt", "deal", trick_no=None)
    d.event(0, 2, 0, "truc", "raise", could_raise=True, stake_after=2)
    d.event(0, 2, 1, "envit", "envit", could_raise=True)
    d.event(0, 2, 0, "torne", "envit", answers=True)
    d.event(0, 2, 1, "fold", "answer", answers=True)
    d.event(0, 2, 1, "accept", "answer", answers=True, stake_after=2)
    d.hand(0, 2, winner=1, points=(2, 2), stake=2, eldest=0, tricks=(1, 1, None), **cames,
           **envit_columns(0, 2, 2, "fold"))  # fmt: skip

    d.seats(0, 3, 0.5, 0.5, envit=(None, 20))
    d.event(0, 3, None, "dealt", "deal", trick_no=None)
    d.event(0, 3, 0, "truc", "raise", could_raise=True, stake_after=2)
    d.event(0, 3, 1, "envit-falta", "envit", could_raise=True)
    d.event(0, 3, 0, "fold", "envit_answer")
    d.event(0, 3, 1, "accept", "answer", answers=True, stake_after=2)
    d.hand(0, 3, winner=0, points=(2, 1), stake=2, tricks=(0, 0, None), **cames, **envit_columns(1, 1, 1, "fold"))

    d.seats(0, 4, 0.5, 0.5, envit=(24, 3))
    d.hand(0, 4, winner=1, points=(0, 1), eldest=0, tricks=(1, 1, None), **cames)

    d.seats(0, 5, 0.5, 0.5, envit=(30, 29))
    d.event(0, 5, None, "dealt", "deal", trick_no=None)
    d.event(0, 5, 0, "envit", "envit", could_raise=True)
    d.hand(0, 5, winner=None, eldest=0, **cames)

    d.seats(0, 6, 0.5, 0.5, envit=(None, 26))
    d.event(0, 6, None, "dealt", "deal", trick_no=None)
    d.event(0, 6, 0, "envit", "envit", could_raise=True)
    d.event(0, 6, 1, "torne", "envit")
    d.event(0, 6, 0, "accept", "envit_answer")
    d.hand(0, 6, winner=None, points=(0, 4), eldest=0, **cames, **envit_columns(1, 4, 4, "accept"))

    d.game(1)
    d.hand(1, 1, winner=0, points=(1, 0))
    return d.write(root)


def test_envit(tmp_path: Path) -> None:
    result = rows(stats.compute("envit", envit_dataset(tmp_path / "data")))
    assert {(r["variant"], r["players"]) for r in result} == {("valencian", 2)}
    got = [(r["measure"], r["level"], r["n"], r["count"]) for r in result]
    # calls: h1 envit s1 (5) accepted; h2 envit s1 (27) raised by the torne; h2 torne s0 (7) folded;
    # h3 envit-falta s1 (20) folded; h5 envit s0 (30) never answered; h6 envit s0 (unknown) raised by the
    # torne s1 (26), accepted
    assert got == [
        ("accepted", "envit", 4, 1), ("accepted", "envit-falta", 1, 0), ("accepted", "torne", 2, 1),
        # bluffs (value < 20) among calls of known value: h1's envit (5) and h2's torne (7)
        ("bluff", "envit", 3, 1), ("bluff", "envit-falta", 1, 0), ("bluff", "torne", 2, 1),
        ("bluff_folded", "envit", 1, 0), ("bluff_folded", "torne", 1, 1),
        ("bluff_won", "envit", 1, 0), ("bluff_won", "torne", 1, 1),
        ("call", None, 6, 5),
        # opening callers: h1 s1 (5) lost, h2 s1 (27) lost, h3 s1 (20) won; h5 was never settled and h6's
        # opening caller's value is unknown
        ("caller_won", "0-19", 1, 0), ("caller_won", "20-25", 1, 1), ("caller_won", "26-28", 1, 0),
        ("caller_won_accepted", "0-19", 1, 0),
        ("folded", "envit", 4, 0), ("folded", "envit-falta", 1, 1), ("folded", "torne", 2, 1),
        ("raised", "envit", 4, 2), ("raised", "envit-falta", 1, 0), ("raised", "torne", 2, 0),
        # envit stones 2 + 2 + 1 + 4; all stones 3 + 4 + 3 + 1 + 0 + 4 = 15, so 6 by the tricks
        ("stones", "envit", 6, 9), ("stones", "tricks", 6, 6),
    ]  # fmt: skip
    call = next(r for r in result if r["measure"] == "call")
    assert call["rate"] == approx(5 / 6)
    assert (call["ci_low"], call["ci_high"]) == tuple(approx(b) for b in wilson_bounds(5, 6))
    stones = [r for r in result if r["measure"] == "stones"]
    assert [(r["mean"], r["rate"], r["ci_low"]) for r in stones] == [(1.5, None, None), (1.0, None, None)]
    assert all(r["mean"] is None for r in result if r["measure"] != "stones")


def test_envit_bluff_threshold(tmp_path: Path) -> None:
    data = envit_dataset(tmp_path / "data")
    result = stats.compute("envit", data, {"bluff_below": "25"})
    bluffs = rows(result.filter(pl.col("measure").str.starts_with("bluff")))
    got = [(r["measure"], r["level"], r["n"], r["count"]) for r in bluffs]
    # h3's envit-falta by a 20 is now a bluff too: folded to, and its side won the envit
    assert got == [
        ("bluff", "envit", 3, 1), ("bluff", "envit-falta", 1, 1), ("bluff", "torne", 2, 1),
        ("bluff_folded", "envit", 1, 0), ("bluff_folded", "envit-falta", 1, 1), ("bluff_folded", "torne", 1, 1),
        ("bluff_won", "envit", 1, 0), ("bluff_won", "envit-falta", 1, 1), ("bluff_won", "torne", 1, 1),
    ]  # fmt: skip


def test_the_trut_d_office_is_no_choice_and_stays_out_of_the_choice_statistics(tmp_path: Path) -> None:
    # RULES.md `trut-gatinaise` (seed 001 "La variante Gâtinaise"): when a side holds 2 petits the other
    # side must trut. That trut is made by weak hands as often as by strong ones and is no bluff.
    d = Dataset()
    d.game(0, variant="trut-gatinaise", options="players=2")
    # h1: trut d'office: seat 1 (weak) must trut before play; seat 0 sees; side 0 wins a long
    d.seats(0, 1, 0.90, 0.05)
    d.event(0, 1, 1, "trut", "raise", could_raise=True, trick_no=None, stake_after=3)
    d.event(0, 1, 0, "accept", "answer", answers=True, trick_no=None, stake_after=3)
    d.hand(0, 1, winner=0, points=(3, 0), stake=3, special="trut_office", petits_team0=2)
    # h2: an ordinary hand: seat 1 (weak) chooses to trut in trick 1, seat 0 folds
    d.seats(0, 2, 0.60, 0.10)
    d.event(0, 2, 1, "trut", "raise", could_raise=True, stake_after=3)
    d.event(0, 2, 0, "fold", "answer", answers=True)
    d.hand(0, 2, winner=1, points=(0, 1), ended_by="fold", petits_team0=0)
    data = d.write(tmp_path / "data")

    bluff = rows(stats.compute("bluff_success", data))
    assert [(r["stake"], r["raises"], r["bluffs"], r["folded"]) for r in bluff] == [(3, 1, 1, 1)]
    raises = rows(stats.compute("raise_rates", data))
    assert [(r["decision"], r["trick_no"], r["chances"], r["count"]) for r in raises] == [("raise", 1, 1, 1)]
    comparison = rows(stats.compute("variant_comparison", data))
    assert [(r["raises"], r["bluffs"], r["bluffs_folded"]) for r in comparison] == [(1, 1, 1)]
    trut = {(r["measure"], r["level"]): r for r in rows(stats.compute("trut", data))}
    assert (trut["trut", None]["n"], trut["trut", None]["count"]) == (1, 1)  # hands where a trut is a choice
    # the answers to it are choices: both count
    assert trut["fold_by_position", "1"]["n"] == 2 and trut["fold_by_position", "1"]["count"] == 1


def test_envit_rows_stay_out_of_the_raise_statistics(tmp_path: Path) -> None:
    data = envit_dataset(tmp_path / "data")
    folds = rows(stats.compute("fold_rates", data).filter(pl.col("decile").is_null(), variant="valencian"))
    # only the two accepts of a truc face a raise: h2's envit fold and torne (answers = true) do not
    assert [(r["stake"], r["facing"], r["folds"]) for r in folds] == [(2, 2, 0)]
    raises = rows(stats.compute("raise_rates", data).filter(variant="valencian"))
    # chances: the trucs of h2 and h3 (taken) and h1's play (not); every envit row is left out
    assert [(r["decision"], r["stake"], r["trick_no"], r["chances"], r["count"]) for r in raises] == [
        ("raise", 1, 1, 3, 2)
    ]


def test_french(tmp_path: Path) -> None:
    d = Dataset()
    d.game(0, variant="french")

    def act(hand_no: int, seat: int | None, verb: str, *, before: int = 1, after: int | None = None,
            answers: bool = False) -> None:  # fmt: skip
        word, _, arg = verb.partition(" ")
        kind = {"raise": "raise", "play": "play", "dealt": "deal", "redeal": "choice"}.get(word, "answer")
        if word in ("accept", "refuse") and hand_no == 1 and seat == 0 and before == 0:
            kind = "choice"
        d.event(0, hand_no, seat, word, kind, arg=arg or None, answers=answers, stake_before=max(before, 1),
                stake_after=after)  # fmt: skip

    # f1: s1 asks for new cards (agreed), asks again (refused); raises to 3 (+2); s0 answers "reste"
    #     (to 10), s1 folds: team 0 scores 3
    act(1, 1, "redeal")
    act(1, 0, "accept", before=0)
    act(1, None, "dealt")
    act(1, 1, "redeal")
    act(1, 0, "refuse", before=0)
    act(1, 1, "raise 3", after=3)
    act(1, 0, "raise reste", after=10, answers=True)
    act(1, 1, "fold", before=3, answers=True)
    d.hand(0, 1, winner=0, points=(3, 0), stake=3, ended_by="fold", redeals=1)
    # f2: s0 raises to 2 (+1), s1 raises to 4 in answer (+2 over the 2 it accepts), s0 accepts; s0 raises to
    #     the reste (12), s1 plays on (accepts); team 0 wins the hand
    act(2, 0, "raise 2", after=2)
    act(2, 1, "raise 4", after=4, answers=True)
    act(2, 0, "accept", before=2, after=4, answers=True)
    act(2, 0, "raise reste", before=4, after=12)
    act(2, 1, "play", before=4, after=12, answers=True)
    d.hand(0, 2, winner=0, points=(12, 0), stake=12, eldest=0, tricks=(0, 0, None), redeals=0)
    # f3: s1 raises to the reste, s0 answers with his own reste ("le mien"), s1 accepts; team 1 wins
    act(3, 1, "raise reste", after=12)
    act(3, 0, "raise reste", after=12, answers=True)
    act(3, 1, "accept", before=12, after=12, answers=True)
    d.hand(0, 3, winner=1, points=(0, 12), stake=12, tricks=(1, 1, None), redeals=0)
    # f4: all tricks tied: void
    d.hand(0, 4, winner=None, eldest=0, tricks=(-1, -1, -1), redeals=0, void=True)
    for hand_no in (1, 2, 3, 4):
        d.seats(0, hand_no, 0.5, 0.5)  # both seats play the policy "test"
    d.game(1)
    d.hand(1, 1, winner=0, points=(1, 0))
    data = d.write(tmp_path / "data")
    result = rows(stats.compute("french", data))
    got = [(r["measure"], r["size"], r["n"], r["count"]) for r in result]
    assert got == [
        ("raise_size", 1, 3, 1),
        ("raise_size", 2, 3, 2),
        ("redeal", None, 4, 1),
        ("redeal_refused", None, 2, 1),
        # 7 raises, 4 of them restes: f1's, f2's, f3's two
        ("reste", None, 7, 4),
        # f2 (a play) and f3's second; f1's; f3's first, answered by a reste
        ("reste_accepted", None, 4, 2),
        ("reste_folded", None, 4, 1),
        ("reste_raised", None, 4, 1),
        # played on: f2 (won), f3's first (won), f3's second (lost)
        ("reste_won", None, 3, 2),
    ]
    assert result[4]["rate"] == approx(4 / 7)
    assert (result[4]["ci_low"], result[4]["ci_high"]) == tuple(approx(b) for b in wilson_bounds(4, 7))
    voids = [(r["variant"], r["hands"], r["void_hands"]) for r in rows(stats.compute("void_hands", data))]
    assert voids == [("catalan", 1, 0), ("french", 4, 1)]


def test_variant_comparison_by_hand(raise_dataset: Path) -> None:
    (row,) = rows(stats.compute("variant_comparison", raise_dataset))
    # the seven hands of the raise dataset: bluffs as in bluff_success, all stakes pooled (4 + 1 of 9)
    assert (row["raises"], row["bluffs"], row["bluffs_folded"]) == (9, 5, 2)
    assert row["bluff_rate"] == approx(5 / 9) and row["bluff_success_rate"] == approx(2 / 5)
    # answers: 5 to stake 2 (2 folds) and 3 to stake 3 (1 fold)
    assert (row["facing"], row["folds"], row["fold_rate"]) == (8, 3, 0.375)
    assert (row["fold_ci_low"], row["fold_ci_high"]) == tuple(approx(b) for b in wilson_bounds(3, 8))
    # decided hands h1-h5: the eldest (seat 1, team 1) won h2 and h4
    assert (row["decided_hands"], row["eldest_wins"], row["mano_edge"]) == (5, 2, approx(0.4 - 0.5))
    assert (row["games"], row["hands"], row["mean_hands_per_game"], row["sides"], row["unit"]) == (
        1,
        7,
        7.0,
        2,
        "points",
    )


# --- game_results, policies and mirrors ----------------------------------------------------------------


def test_game_results_by_hand(tmp_path: Path) -> None:
    d = Dataset()

    def game(game_id: int, policies: tuple[str, ...], winner: int | None, scores: tuple[int, int],
             **extra: Any) -> None:  # fmt: skip
        players = len(policies)
        d.game(game_id, players=players, winner_team=winner, score_team0=scores[0], score_team1=scores[1],
               complete=winner is not None, **extra)  # fmt: skip
        d.hand(game_id, 1, winner=0, points=(1, 0))
        d.seats(game_id, 1, *([0.5] * players), policies=policies)

    # 2-player catalan, A against B; margins are the side's final score minus the other's
    game(0, ("A", "B"), 0, (12, 5))  # A wins: A +7, B -7
    game(1, ("A", "B"), 1, (3, 12))  # B wins: A -9, B +9
    game(2, ("B", "A"), 0, (12, 10))  # seats swapped, B (team 0) wins: B +2, A -2
    game(3, ("A", "B"), None, (4, 2))  # an incomplete import: no winner, left out
    # 4-player catalan: team 0 is A twice; team 1 is C (seat 1) and B (seat 3): a mixed team, in seat order
    game(4, ("A", "C", "A", "B"), 1, (6, 12))
    # every seat A: both sides are A, a mirror
    game(5, ("A", "A", "A", "A"), 0, (12, 0))
    # french in rubbers: match 1 is two games, the second decides it
    game(6, ("A", "B"), 0, (12, 3), variant="french", match_no=1)
    game(7, ("A", "B"), 0, (12, 8), variant="french", match_no=1, match_winner_team=0)
    result = rows(stats.compute("game_results", d.write(tmp_path / "data")))
    columns = ("variant", "players", "policy", "mirror", "games", "games_won", "win_rate", "mean_margin", "unit",
               "matches", "matches_won")  # fmt: skip
    assert [tuple(r[c] for c in columns) for r in result] == [
        ("catalan", 2, "A", False, 3, 1, approx(1 / 3), approx((7 - 9 - 2) / 3), "points", None, None),
        ("catalan", 2, "B", False, 3, 2, approx(2 / 3), approx((-7 + 9 + 2) / 3), "points", None, None),
        ("catalan", 4, "A", False, 1, 0, 0.0, -6.0, "points", None, None),
        ("catalan", 4, "A", True, 2, 1, None, None, "points", None, None),
        ("catalan", 4, "C + B", False, 1, 1, 1.0, 6.0, "points", None, None),
        ("french", 2, "A", False, 2, 2, 1.0, approx((9 + 4) / 2), "points", 1, 1),
        ("french", 2, "B", False, 2, 0, 0.0, approx((-9 - 4) / 2), "points", 1, 0),
    ]
    a = result[0]
    assert (a["ci_low"], a["ci_high"]) == tuple(approx(b) for b in wilson_bounds(1, 3))
    margins = [7, -9, -2]
    mean = sum(margins) / 3
    sd = math.sqrt(sum((m - mean) ** 2 for m in margins) / 2)
    assert (a["margin_ci_low"], a["margin_ci_high"]) == (approx(mean - 1.959964 * sd / math.sqrt(3)),
                                                         approx(mean + 1.959964 * sd / math.sqrt(3)))  # fmt: skip
    # one game: no interval for the margin; a mirror row reports no result at all
    assert (result[2]["margin_ci_low"], result[2]["margin_ci_high"]) == (None, None)
    mirror = result[3]
    assert [mirror[c] for c in ("ci_low", "ci_high", "margin_ci_low", "margin_ci_high")] == [None] * 4


def test_the_threshold_bot_wins_most_games_though_half_of_its_hands(sim_dataset_2p: Path) -> None:
    """The issue's finding: threshold against random in 2-player Catalan wins about half of its hands but
    nearly four games in five (it wins the hands worth more): game results rank bots, hand rates do not."""
    games = {r["policy"].split()[0]: r for r in rows(stats.compute("game_results", sim_dataset_2p))}
    hands = {r["player"].split()[0]: r for r in rows(stats.compute("player_results", sim_dataset_2p))}
    assert set(games) == set(hands) == {"threshold", "random"}
    assert games["threshold"]["win_rate"] > 0.75 and games["threshold"]["ci_low"] > 0.7
    assert games["threshold"]["games_won"] + games["random"]["games_won"] == games["threshold"]["games"] == 300
    assert games["threshold"]["mean_margin"] > 0 and not games["threshold"]["mirror"]
    assert 0.45 < hands["threshold"]["win_rate"] < 0.55


def test_the_same_bot_on_both_teams_is_a_mirror(tmp_path: Path) -> None:
    from pipeline.simulate import SimulationSpec, simulate

    alone = tmp_path / "alone"
    simulate(SimulationSpec("catalan", 20, 5, {"players": "4"}, "threshold"), alone)
    (row,) = rows(stats.compute("game_results", alone))
    assert row["policy"].startswith("threshold ") and row["mirror"] is True
    assert (row["games"], row["games_won"], row["win_rate"], row["mean_margin"]) == (40, 20, None, None)
    # the threshold bot with the random bot as one partner: teams "threshold" and "random + threshold" differ
    # as games go, but the threshold bot holds both sides of every hand
    mixed = tmp_path / "mixed"
    simulate(SimulationSpec("catalan", 20, 5, {"players": "4"}, "threshold", {1: "random"}), mixed)
    sides = {r["policy"]: r["mirror"] for r in rows(stats.compute("game_results", mixed))}
    threshold = next(p for p in sides if "+" not in p)
    assert sides == {threshold: False, f"random + {threshold}": False}
    players = {r["player"]: r for r in rows(stats.compute("player_results", mixed))}
    assert (players[threshold]["mirror"], players[threshold]["win_rate"]) == (True, None)
    assert players[threshold]["wins"] * 2 == players[threshold]["decided"]
    assert players["random"]["mirror"] is False and players["random"]["win_rate"] is not None


def test_a_mixed_team_is_labelled_by_both_specs_in_seat_order(sim_dataset: Path) -> None:
    # sim_dataset: 4-player catalan, seats 0 and 2 the default threshold bot, seat 1 another threshold bot,
    # seat 3 the random bot
    labels = [r["policy"] for r in rows(stats.compute("game_results", sim_dataset))]
    assert len(labels) == 2
    team1 = next(label for label in labels if " + " in label)
    first, second = team1.split(" + ")
    assert first.startswith("threshold raise_at=0.8 call_at=0.6 bluff=0.05") and second == "random"
    assert labels == sorted(labels) and "+" not in next(label for label in labels if label != team1)


def test_cli_says_mirror_for_a_mirror_row(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from pipeline.cli import app
    from pipeline.simulate import SimulationSpec, simulate

    data = tmp_path / "alone"
    simulate(SimulationSpec("catalan", 6, 3, {"players": "4"}, "threshold"), data)
    table = CliRunner().invoke(app, ["stats", "game_results", "--data", str(data)])
    assert table.exit_code == 0, table.output
    header, _, row = table.output.splitlines()[:3]
    cells = dict(zip([c.strip() for c in header.split("|")], [c.strip() for c in row.split("|")], strict=True))
    assert cells["mirror"] == "true" and cells["win_rate"] == cells["mean_margin"] == "mirror"
    assert cells["games"] == "12" and cells["games_won"] == "6"
    as_json = CliRunner().invoke(app, ["stats", "game_results", "--data", str(data), "--format", "json"])
    assert '"mirror":true' in as_json.output and '"win_rate":null' in as_json.output
    # a result named alone brings mirror along
    some = CliRunner().invoke(app, ["stats", "game_results", "--data", str(data), "--columns", "policy,win_rate"])
    assert [c.strip() for c in some.output.splitlines()[0].split("|")[1:-1]] == ["policy", "win_rate", "mirror"]
    assert [c.strip() for c in some.output.splitlines()[2].split("|")[2:-1]] == ["mirror", "true"]
    each = CliRunner().invoke(
        app, ["stats", "game_results", "--data", str(data), "--per-dataset", "--columns", "win_rate,dataset"]
    )
    assert [c.strip() for c in each.output.splitlines()[0].split("|")[1:-1]] == ["win_rate", "dataset", "mirror"]


SEAT_CHOICES = sorted(POLICY_KEYED - {"game_results"})


@pytest.mark.parametrize("name", SEAT_CHOICES)
def test_two_bots_choices_are_never_pooled(name: str, sim_all_variants: Path) -> None:
    """Threshold against random in every variant: each statistic of seats' choices gives each bot rows of its
    own, in every setting it measures, and no row holds both (a pooled implementation has one policy a row,
    or none)."""
    result = stats.compute(name, sim_all_variants)
    assert result.columns[:3] == ["variant", "players", "policy"]
    for (variant, players), group in result.group_by("variant", "players"):
        policies = {p.split()[0] for p in group["policy"].drop_nulls()}
        assert policies == {"threshold", "random"}, (name, variant, players, policies)
    assert not result["policy"].drop_nulls().str.contains(" + ", literal=True).any()


def test_fold_rates_of_two_bots_are_their_own(sim_dataset_2p: Path) -> None:
    """Each bot's folds, counted from the tables by the answering seat's policy: the rows add up to the
    pooled count, and the two bots fold at rates far apart (a pooled rate would sit between them)."""
    result = stats.compute("fold_rates", sim_dataset_2p).filter(pl.col("decile").is_null())
    answers = pl.read_parquet(store.table_glob(sim_dataset_2p, "events")).filter(
        pl.col("answers"), pl.col("seat").is_not_null()
    )
    seats = pl.read_parquet(store.table_glob(sim_dataset_2p, "seats")).select("game_id", "hand_no", "seat", "policy")
    by_policy = (
        answers.join(seats, on=["game_id", "hand_no", "seat"])
        .group_by("policy")
        .agg(pl.len().alias("facing"), (pl.col("verb") == "fold").sum().alias("folds"))
    )
    got = result.group_by("policy").agg(pl.col("facing").sum(), pl.col("folds").sum())
    assert_frame_equal(got.sort("policy"), by_policy.sort("policy"), check_dtypes=False)
    rates = {p.split()[0]: f / n for p, n, f in got.select("policy", "facing", "folds").iter_rows()}
    assert abs(rates["threshold"] - rates["random"]) > 0.1


def test_duckdb_is_held_to_its_memory_limit_and_spills_into_a_folder_of_its_own(tmp_path: Path, monkeypatch) -> None:
    """DuckDB's default memory limit is 80% of the machine's (a statistic over 10 million hands grew to 6 GB),
    and an in-memory DuckDB spills into ``.tmp`` in the current folder: the command's own folder, gone after."""
    data = mano_dataset(tmp_path / "data")
    with stats.staged([data]) as con:
        spill, ordered = con.execute(
            "select current_setting('temp_directory'), current_setting('preserve_insertion_order')"
        ).fetchone()  # type: ignore[misc]
        assert Path(spill).is_dir() and Path(spill).name.startswith("truc-duckdb-") and ordered is False
    assert not Path(spill).exists()
    with monkeypatch.context() as patch:  # a statistic that reaches the limit (1 MB: every one) is not run again
        patch.setattr(stats, "DUCKDB_MEMORY", "1MB")
        with pytest.raises(stats.StatsError, match=r"^mano_advantage needs more than its memory limit of 1MB"):
            stats.compute("mano_advantage", data)


def test_the_report_holds_its_statistics_to_the_memory_limit_too(tmp_path: Path, monkeypatch) -> None:
    """The report computes its statistics in one connection (``compute_many``): under the same limit, with no
    second run under DuckDB's default (what let a 10 M-hand report reach 6.6 GB), and nothing written."""
    data = mano_dataset(tmp_path / "data")
    monkeypatch.setattr(stats, "DUCKDB_MEMORY", "1MB")
    with pytest.raises(stats.StatsError, match=r"needs more than its memory limit of 1MB"):
        build_report([data], tmp_path / "report")
    assert not (tmp_path / "report").exists()


def test_a_statistic_of_other_variants_reads_no_rows_and_keeps_its_columns(sim_dataset_2p: Path) -> None:
    frame = stats.compute("envit", sim_dataset_2p)
    assert frame.height == 0 and frame.columns == list(stats.get_statistic("envit").columns)
    assert frame.schema["n"] == pl.Int64 and frame.schema["rate"] == pl.Float64
