"""The experiments' statistics (``pipeline.experiments.analysis``) on cases worked out by hand or checked
against ``scipy.stats``, and on synthetic data whose truth is known: calibration of the intervals,
Bradley-Terry recovering known strengths, the bootstrap, and the meta-game's Nash mixtures."""

from __future__ import annotations

import json
import math
import time

import numpy as np
import pytest
from scipy import stats

from pipeline.experiments.analysis import (
    best_response_margins,
    bootstrap_tournament,
    bradley_terry,
    format_p,
    nash_mixture,
    nash_support,
    paired_match,
    pairs_needed,
    t_estimate,
    tournament,
    wilson_interval,
)

# Ten pairs worked by hand: A won 13 of 20 games. As win rates x = score / 2:
# x = 1, .5, .5, 0, 1, .5, 1, .5, .5, 1, mean .65; deviations +.35 (4 times), -.15 (5 times), -.65 (once),
# squares .49 + .1125 + .4225 = 1.025, var(x, ddof 1) = 1.025 / 9 = .113889.
# variance_ratio = (.65 * .35 / 20) / (.113889 / 10) = .011375 / .0113889 = .998780.
SCORES = [2, 1, 1, 0, 2, 1, 2, 1, 1, 2]
MARGINS = [1.0, 0.0, 0.5, -2.0, 3.0, 0.0, 1.0, 0.2, 0.0, 2.0]


def synthetic_pairs(
    rng: np.random.Generator, pairs: int, p: float = 0.5, split: float = 0.0, same: float = 0.0
) -> np.ndarray:
    """Pair scores of two games A wins with probability ``p`` each; with probability ``split`` the second
    game goes the other way from the first (negative correlation, as seats swapped on the same cards
    give), with probability ``same`` the same way (positive correlation), else independently."""
    first = rng.random(pairs) < p
    second = rng.random(pairs) < p
    mode = rng.random(pairs)
    second = np.where(mode < split, ~first, np.where(mode < split + same, first, second))
    return first.astype(int) + second.astype(int)


# ---------------------------------------------------------------------------------------------- paired match


def test_the_worked_match_matches_scipy_and_the_hand_figures() -> None:
    match = paired_match(SCORES, MARGINS)
    x = np.array(SCORES) / 2
    assert (match.pairs, match.units, match.a_won, match.b_won) == (10, 20, 13, 7)
    assert match.win_rate == 0.65
    assert match.p_value == pytest.approx(stats.ttest_1samp(x, 0.5).pvalue, rel=1e-12)
    low, high = stats.t.interval(0.95, 9, loc=x.mean(), scale=stats.sem(x))
    assert (match.ci_low, match.ci_high) == (pytest.approx(low, rel=1e-12), pytest.approx(high, rel=1e-12))
    assert match.margin_mean == pytest.approx(0.57)
    assert match.margin_p_value == pytest.approx(stats.ttest_1samp(MARGINS, 0.0).pvalue, rel=1e-12)
    m_low, m_high = stats.t.interval(0.95, 9, loc=np.mean(MARGINS), scale=stats.sem(MARGINS))
    assert match.margin_ci_low == pytest.approx(m_low, rel=1e-12)
    assert match.margin_ci_high == pytest.approx(m_high, rel=1e-12)
    assert match.pair_variance == pytest.approx(1.025 / 9, rel=1e-12)
    assert match.variance_ratio == pytest.approx(0.011375 / (1.025 / 90), rel=1e-12)


def test_t_estimate_is_scipys_one_sample_t_test() -> None:
    values = [0.3, -1.2, 2.5, 0.7, 0.1, -0.4]
    estimate = t_estimate(values, null=0.5, level=0.9)
    assert estimate.p_value == pytest.approx(stats.ttest_1samp(values, 0.5).pvalue, rel=1e-12)
    low, high = stats.t.interval(0.9, 5, loc=np.mean(values), scale=stats.sem(values))
    assert (estimate.ci_low, estimate.ci_high) == (pytest.approx(low), pytest.approx(high))


def test_no_spread_gives_a_point_interval_and_p_one_at_the_null_zero_elsewhere() -> None:
    even = paired_match([1, 1, 1, 1], [0.0, 0.0, 0.0, 0.0])
    assert (even.win_rate, even.ci_low, even.ci_high, even.p_value) == (0.5, 0.5, 0.5, 1.0)
    assert (even.margin_ci_low, even.margin_p_value) == (0.0, 1.0)
    assert even.variance_ratio is None  # the pairs do not vary: the ratio's denominator is 0
    assert even.verdict() == "A wins 50.0% [50.0, 50.0] of 8 games (4 pairs): no clear difference, p = 1"
    sweep = paired_match([2, 2, 2], [3.0, 3.0, 3.0])
    assert (sweep.win_rate, sweep.p_value, sweep.margin_p_value) == (1.0, 0.0, 0.0)
    assert sweep.variance_ratio is None
    assert sweep.verdict() == "A wins 100.0% [100.0, 100.0] of 6 games (3 pairs): A better, p < 0.001"


def test_a_single_pair_gives_no_interval_and_no_pairs_is_an_error() -> None:
    one = paired_match([2], [4.0])
    assert (one.ci_low, one.ci_high, one.p_value, one.margin_ci_low, one.margin_p_value) == (None,) * 5
    assert (one.pair_variance, one.variance_ratio) == (None, None)
    assert one.verdict() == "A wins 100.0% of 2 games (1 pair): no clear difference (a single pair gives no interval)"
    assert one.to_json("x", "y")["b"] == {
        "policy": "y",
        "games": 2,
        "games_won": 0,
        "win_rate": 0.0,
        "ci_low": None,
        "ci_high": None,
    }
    assert one.disagreement() is None
    with pytest.raises(ValueError, match="empty"):
        paired_match([], [])


@pytest.mark.parametrize(
    ("scores", "margins", "units", "message"),
    [
        ([0, 3, 1], [0, 0, 0], 2, r"scores\[1\] is 3: a pair score is a whole number of games from 0 to 2"),
        ([0, 1.5], [0, 0], 2, r"scores\[1\] is 1.5"),
        ([0, -1], [0, 0], 2, r"scores\[1\] is -1"),
        ([0, 1], [0], 2, "2 pair scores but 1 pair margins"),
        ([0, 1], [0, float("nan")], 2, r"margins\[1\] is nan"),
        ([0, 1], [0, 0], 0, "units_per_pair must be a positive integer"),
        ([[0, 1]], [[0, 0]], 2, "flat sequence"),
    ],
)
def test_bad_pairs_are_refused_saying_where(scores: list, margins: list, units: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        paired_match(scores, margins, units)


def test_units_per_pair_other_than_two() -> None:
    match = paired_match([4, 3, 2, 4], [1.0, 0.5, 0.0, 1.0], units_per_pair=4)
    assert (match.units, match.a_won, match.b_won, match.win_rate) == (16, 13, 3, 13 / 16)
    assert match.p_value == pytest.approx(stats.ttest_1samp([1, 0.75, 0.5, 1], 0.5).pvalue)


def test_the_interval_covers_a_fair_mirror_about_95_percent_of_the_time() -> None:
    """200 unpaired mirrors: every pair is two independent fair games."""
    rng = np.random.default_rng(23)
    covered = 0
    for _ in range(200):
        match = paired_match(synthetic_pairs(rng, 100), np.zeros(100))
        assert match.ci_low is not None and match.ci_high is not None
        covered += match.ci_low <= 0.5 <= match.ci_high
    assert 180 <= covered <= 198


def test_variance_ratio_is_above_one_when_a_pairs_games_split_and_below_when_they_agree() -> None:
    """Independent games: var(score / 2) = 1/8, the ratio near 1. When the second game goes the other way
    with probability .6 (seats swapped on the same cards), cov = -.6 / 4 and var = (1/2 - .3) / 4 = .05: the
    ratio near .125 / .05 = 2.5. The same way with probability .6: var = .2, ratio near .625."""
    rng = np.random.default_rng(5)
    independent = paired_match(synthetic_pairs(rng, 20_000), np.zeros(20_000)).variance_ratio
    split = paired_match(synthetic_pairs(rng, 20_000, split=0.6), np.zeros(20_000)).variance_ratio
    agree = paired_match(synthetic_pairs(rng, 20_000, same=0.6), np.zeros(20_000)).variance_ratio
    assert independent == pytest.approx(1.0, abs=0.05)
    assert split == pytest.approx(2.5, rel=0.05)
    assert agree == pytest.approx(0.625, rel=0.05)


def test_the_verdict_line() -> None:
    """1,000 pairs won 2-0, 3,270 split, 730 lost: 5,270 of 10,000 games."""
    scores = np.array([2] * 1000 + [1] * 3270 + [0] * 730)
    better = paired_match(scores, np.full(5000, 0.1))
    assert better.verdict() == "A wins 52.7% [51.9, 53.5] of 10,000 games (5,000 pairs): A better, p < 0.001"
    assert better.better() == "a"
    worse = paired_match(2 - scores, np.full(5000, -0.1))
    assert worse.verdict("threshold", "random") == (
        "threshold wins 47.3% [46.5, 48.1] of 10,000 games (5,000 pairs): random better, p < 0.001"
    )
    assert worse.better() == "b"
    unclear = paired_match(SCORES, MARGINS)
    assert unclear.verdict() == "A wins 65.0% [40.9, 89.1] of 20 games (10 pairs): no clear difference, p = 0.19"
    assert unclear.better() is None
    assert unclear.margin_summary() == "A's margin over B: +0.57 points per game [-0.39, +1.53], p = 0.21"


@pytest.mark.parametrize(
    ("p_value", "text"),
    [
        (0.0, "p < 0.001"),
        (0.000999, "p < 0.001"),
        (0.001, "p = 0.001"),
        (0.0312, "p = 0.031"),
        (0.03, "p = 0.03"),
        (0.0496, "p = 0.0496"),  # two digits would say 0.05 beside "better"
        (0.04996, "p = 0.04996"),
        (0.0504, "p = 0.05"),
        (0.45, "p = 0.45"),
        (1.0, "p = 1"),
        (None, "p undefined"),
    ],
)
def test_p_values_are_written_on_the_right_side_of_alpha(p_value: float | None, text: str) -> None:
    assert format_p(p_value) == text


def test_games_and_points_disagree_only_when_one_is_significant_and_they_point_apart() -> None:
    scores = np.array([2] * 1000 + [1] * 3270 + [0] * 730)
    rng = np.random.default_rng(1)
    # A wins more games, significantly; B scores more points, weakly (a margin of -0.01 in noise of sd 1)
    weak_points = rng.normal(-0.01, 1.0, 5000)
    weak_points += -0.01 - weak_points.mean()
    match = paired_match(scores, weak_points)
    assert match.margin_p_value is not None and match.margin_p_value > 0.05
    assert match.disagreement() == (
        f"games and points disagree: A wins more games (52.7%, p < 0.001) but B scores more points "
        f"(0.01 per game, {format_p(match.margin_p_value)})"
    )
    # B wins more games, weakly; A scores more points, significantly
    even = np.array([2] * 990 + [1] * 3000 + [0] * 1010)
    match = paired_match(even, np.full(5000, 0.3) + rng.normal(0, 0.01, 5000))
    assert match.p_value is not None and match.p_value > 0.05
    assert match.disagreement("x", "y") is not None
    assert match.disagreement("x", "y").startswith("games and points disagree: y wins more games (50.2%")  # type: ignore[union-attr]
    # both weak and apart: noise; both strong and together: agreement
    assert paired_match(even, -np.abs(rng.normal(0, 1, 5000)) + 0.78).disagreement() is None
    assert paired_match(scores, np.full(5000, 0.2) + rng.normal(0, 0.01, 5000)).disagreement() is None
    assert paired_match(scores, np.zeros(5000)).disagreement() is None  # a margin of 0 points no way


def test_the_match_json() -> None:
    match = paired_match(SCORES, MARGINS)
    document = match.to_json("threshold", "random")
    assert json.loads(json.dumps(document)) == document  # plain numbers only
    assert list(document) == ["pairs", "a", "b", "margin", "p_value", "variance_ratio"]
    assert document["a"] == {
        "policy": "threshold",
        "games": 20,
        "games_won": 13,
        "win_rate": 0.65,
        "ci_low": match.ci_low,
        "ci_high": match.ci_high,
    }
    b = document["b"]
    assert match.ci_low is not None and match.ci_high is not None
    assert (b["policy"], b["games"], b["games_won"], b["win_rate"]) == ("random", 20, 7, pytest.approx(0.35))
    assert (b["ci_low"], b["ci_high"]) == (pytest.approx(1 - match.ci_high), pytest.approx(1 - match.ci_low))
    assert document["margin"] == {
        "mean": match.margin_mean,
        "ci_low": match.margin_ci_low,
        "ci_high": match.margin_ci_high,
    }
    assert (document["pairs"], document["p_value"], document["variance_ratio"]) == (
        10,
        match.p_value,
        match.variance_ratio,
    )


# ---------------------------------------------------------------------------------------------- planning


def test_pairs_needed_for_one_point_with_independent_fair_games() -> None:
    """(1.959964 + 0.841621)^2 = 7.848880; times 1/8 over 0.01^2: 9,811.1, so 9,812 pairs."""
    assert pairs_needed(0.125) == 9812
    assert pairs_needed(0.05) == math.ceil(7.848879734349088 * 0.05 / 1e-4)
    assert pairs_needed(0.125, difference=0.02) == math.ceil(9811.09966793636 / 4)
    assert pairs_needed(0.125, alpha=0.01, power=0.9) == math.ceil((2.5758293 + 1.2815516) ** 2 * 1250)
    with pytest.raises(ValueError, match="positive number"):
        pairs_needed(0.0)
    with pytest.raises(ValueError, match="0 < difference"):
        pairs_needed(0.1, difference=0.0)


def test_pairs_needed_gives_the_power_asked_for() -> None:
    """A true win rate of .53 with independent games, at the size pairs_needed gives for 3 points: the
    test finds it about 80% of the time (400 simulated matches)."""
    size = pairs_needed(0.53 * 0.47 / 2, difference=0.03)
    rng = np.random.default_rng(8)
    found = sum(
        (m := paired_match(synthetic_pairs(rng, size, p=0.53), np.zeros(size))).p_value is not None and m.p_value < 0.05
        for _ in range(400)
    )
    assert 0.74 <= found / 400 <= 0.86


def test_wilson_interval() -> None:
    assert wilson_interval(5, 10) == (pytest.approx(0.236593090512564), pytest.approx(0.7634069094874361))
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and high == pytest.approx(stats.binomtest(0, 10).proportion_ci(method="wilson").high)
    with pytest.raises(ValueError, match="trials > 0"):
        wilson_interval(1, 0)


# ---------------------------------------------------------------------------------------------- ratings


def test_two_entrants_rate_by_their_wins_plus_one_pseudo_win_each_way() -> None:
    """10 wins to 0 becomes 11 to 1: strengths 11:1, 400 log10(11) = 416.56 Elo apart, mean 0."""
    ratings = bradley_terry([[0, 10], [0, 0]])
    assert ratings == pytest.approx([200 * math.log10(11), -200 * math.log10(11)], abs=1e-7)
    assert bradley_terry([[0, 30], [10, 0]]) == pytest.approx([200 * math.log10(31 / 11), -200 * math.log10(31 / 11)])
    assert bradley_terry([[0, 10], [0, 0]], pseudo=0.5)[0] == pytest.approx(200 * math.log10(21))


def likelihood_equations(wins: np.ndarray, ratings: np.ndarray, pseudo: float = 1.0) -> np.ndarray:
    """Each entrant's games won (with the pseudo-wins, only between entrants that met) minus its expected
    wins under the ratings: zero at the maximum of the likelihood."""
    met = (wins + wins.T) > 0
    won = wins + pseudo * met
    beats = 1 / (1 + 10 ** ((ratings[None, :] - ratings[:, None]) / 400))
    return won.sum(1) - ((won + won.T) * beats).sum(1)


def test_the_ratings_solve_the_likelihood_equations_with_pseudo_wins_only_where_entrants_met() -> None:
    wins = np.array([[0, 7, 0, 3], [2, 0, 9, 0], [0, 4, 0, 12], [5, 0, 1, 0]], dtype=float)
    ratings = bradley_terry(wins)
    assert likelihood_equations(wins, ratings) == pytest.approx(np.zeros(4), abs=1e-9)
    assert ratings.mean() == pytest.approx(0.0, abs=1e-9)
    everywhere = wins + 1 - np.eye(4)  # a pseudo-win between 0 and 2, who never met, would move the fit
    assert np.abs(likelihood_equations(everywhere, ratings, pseudo=0.0)).max() > 0.1


def test_bradley_terry_recovers_known_strengths() -> None:
    rng = np.random.default_rng(3)
    truth = np.array([-200.0, 0.0, 50.0, 250.0, -100.0])
    wins = np.zeros((5, 5))
    for i in range(5):
        for j in range(i + 1, 5):
            won = rng.binomial(50_000, 1 / (1 + 10 ** ((truth[j] - truth[i]) / 400)))
            wins[i, j], wins[j, i] = won, 50_000 - won
    assert bradley_terry(wins) == pytest.approx(truth - truth.mean(), abs=6)


def test_perfect_separation_stays_finite_and_ordered() -> None:
    wins = np.array([[0, 500, 500], [0, 0, 500], [0, 0, 0]], dtype=float)
    ratings = bradley_terry(wins)
    assert np.isfinite(ratings).all() and ratings[0] > ratings[1] > ratings[2]
    assert likelihood_equations(wins, ratings) == pytest.approx(np.zeros(3), abs=1e-9)


def test_bad_win_matrices_are_refused() -> None:
    with pytest.raises(ValueError, match="entrant 2 is not connected"):
        bradley_terry([[0, 3, 0], [1, 0, 0], [0, 0, 0]])
    with pytest.raises(ValueError, match="diagonal"):
        bradley_terry([[1, 3], [1, 0]])
    with pytest.raises(ValueError, match="square"):
        bradley_terry([[0, 3, 1], [1, 0, 2]])
    with pytest.raises(ValueError, match="non-negative"):
        bradley_terry([[0, -3], [1, 0]])
    with pytest.raises(ValueError, match="pseudo-wins must be positive"):
        bradley_terry([[0, 3], [1, 0]], pseudo=0)


# ---------------------------------------------------------------------------------------------- meta-game

ROCK_PAPER_SCISSORS = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]]) * 0.1


def assert_equilibrium(payoff: np.ndarray, weights: np.ndarray) -> None:
    assert weights.sum() == pytest.approx(1.0, abs=1e-12) and (weights >= 0).all()
    assert (payoff.T @ weights).min() >= -1e-6  # no pure reply gains


def test_rock_paper_scissors_is_played_in_thirds() -> None:
    weights = nash_mixture(ROCK_PAPER_SCISSORS)
    assert weights == pytest.approx([1 / 3] * 3, abs=1e-12)
    assert nash_support(ROCK_PAPER_SCISSORS).tolist() == [True, True, True]


def test_an_uneven_cycle_has_its_exact_mixture() -> None:
    """payoff = [[0, a, -b], [-a, 0, c], [b, -c, 0]]: x = (c, b, a) / (a + b + c) makes every reply score 0."""
    a, b, c = 0.1, 0.05, 0.2
    payoff = np.array([[0, a, -b], [-a, 0, c], [b, -c, 0]])
    assert nash_mixture(payoff) == pytest.approx(np.array([c, b, a]) / (a + b + c), abs=1e-12)


def test_a_dominant_entrant_takes_all_the_weight() -> None:
    payoff = np.array([[0, 0.1, 0.02], [-0.1, 0, 0.3], [-0.02, -0.3, 0]])
    assert nash_mixture(payoff).tolist() == [1.0, 0.0, 0.0]
    assert nash_support(payoff).tolist() == [True, False, False]


def test_copies_of_the_best_entrant_share_its_weight_evenly() -> None:
    payoff = np.array([[0, 0, 0.1, 0.2], [0, 0, 0.1, 0.2], [-0.1, -0.1, 0, 0.05], [-0.2, -0.2, -0.05, 0]])
    assert nash_mixture(payoff) == pytest.approx([0.5, 0.5, 0, 0], abs=1e-9)
    three = np.zeros((4, 4))
    three[:3, 3], three[3, :3] = 0.1, -0.1
    assert nash_mixture(three) == pytest.approx([1 / 3, 1 / 3, 1 / 3, 0], abs=1e-9)


def test_a_copied_rock_shares_rocks_third() -> None:
    """Rock, rock again, paper, scissors: every mixture (r, 1/3 - r, 1/3, 1/3) is a Nash mixture; the
    maximum-entropy one gives each rock 1/6."""
    payoff = np.array([[0, 0, -1, 1], [0, 0, -1, 1], [1, 1, 0, -1], [-1, -1, 1, 0]]) * 0.1
    weights = nash_mixture(payoff)
    assert weights == pytest.approx([1 / 6, 1 / 6, 1 / 3, 1 / 3], abs=1e-9)
    entropy = -(weights * np.log(weights)).sum()
    other = np.array([0.1, 1 / 3 - 0.1, 1 / 3, 1 / 3])
    assert entropy > -(other * np.log(other)).sum()


@pytest.mark.parametrize("seed", range(20))
def test_random_meta_games_are_solved(seed: int) -> None:
    rng = np.random.default_rng(seed)
    raw = rng.normal(0, 0.1, (7, 7))
    payoff = (raw - raw.T) / 2
    weights = nash_mixture(payoff)
    assert_equilibrium(payoff, weights)
    assert nash_support(payoff).tolist() == (weights > 1e-6).tolist()
    # a generic symmetric zero-sum game has one Nash mixture, on an odd number of entrants
    assert (weights > 1e-6).sum() % 2 == 1


def test_a_payoff_that_is_not_antisymmetric_is_refused() -> None:
    with pytest.raises(ValueError, match="antisymmetric"):
        nash_mixture([[0, 0.1], [0.1, 0]])
    with pytest.raises(ValueError, match="antisymmetric"):
        nash_support([[0.1, 0.1], [-0.1, 0]])


def test_best_response_margins_floor_at_the_mirror() -> None:
    win_rates = np.array([[np.nan, 0.6, 0.7], [0.4, np.nan, 0.55], [0.3, 0.45, np.nan]])
    assert best_response_margins(win_rates) == pytest.approx([0.0, 0.1, 0.2])
    with pytest.raises(ValueError, match="between 0 and 1"):
        best_response_margins([[0.5, 1.2], [-0.2, 0.5]])


# ---------------------------------------------------------------------------------------------- tournament


def matches_from(
    rng: np.random.Generator, beats: np.ndarray, pairs: int
) -> list[tuple[int, int, np.ndarray, np.ndarray]]:
    """A match for every two entrants, i winning a game against j with probability ``beats[i][j]``,
    ``pairs`` pairs of independent games each."""
    n = len(beats)
    return [
        (i, j, synthetic_pairs(rng, pairs, p=beats[i, j]), rng.normal(0, 1, pairs))
        for i in range(n)
        for j in range(i + 1, n)
    ]


def ladder_matches(
    rng: np.random.Generator, elo: np.ndarray, pairs: int
) -> list[tuple[int, int, np.ndarray, np.ndarray]]:
    """Matches between entrants of known Elo ratings."""
    return matches_from(rng, 1 / (1 + 10 ** ((elo[None, :] - elo[:, None]) / 400)), pairs)


def test_a_full_size_tournament_takes_seconds() -> None:
    """10 entrants, 45 matches of 1,000 pairs, 1,000 resamples, in a cycle (i beats the four entrants after
    it, loses to the four before), so that no entrant beats all and every resample's meta-game takes a
    linear programme: the slowest case. About 3 s on an idle machine; the margin is for a loaded one."""
    steps = (np.arange(10)[None, :] - np.arange(10)[:, None]) % 10
    beats = 0.5 + 0.04 * np.sign(5 - steps) * (steps != 0)
    matches = matches_from(np.random.default_rng(11), beats, 1000)
    start = time.perf_counter()
    result = tournament(matches, 10, seed=4)
    assert time.perf_counter() - start < 30
    assert_equilibrium(np.array(result.win_rates) - 0.5, np.array(result.nash_weights))
    assert all(0 < frequency <= 1 for frequency in result.nash_frequency)  # no entrant is always out
    assert all(low < high for low, high in zip(result.rating_low, result.rating_high, strict=True))


def test_the_bootstrap_interval_holds_the_rating() -> None:
    result = tournament(ladder_matches(np.random.default_rng(11), np.linspace(-150, 150, 10), 1000), 10, seed=4)
    for rating, low, high in zip(result.ratings, result.rating_low, result.rating_high, strict=True):
        assert low < rating < high
    assert result.ratings == pytest.approx(np.linspace(-150, 150, 10), abs=25)
    assert result.nash_weights[9] == 1.0 and result.nash_frequency[9] > 0.9 and result.exploitability[9] == 0.0
    assert result.nash_frequency[0] == 0.0
    assert result.exploitability[0] == pytest.approx(max(row[0] for row in result.win_rates) - 0.5)


def test_the_bootstrap_narrows_with_more_pairs_and_follows_its_seed() -> None:
    rng = np.random.default_rng(2)
    elo = np.array([0.0, 40.0, 80.0])

    def widths(pairs: int, seed: int) -> np.ndarray:
        matches = [(i, j, scores) for i, j, scores, _ in ladder_matches(rng, elo, pairs)]
        result = bootstrap_tournament(matches, 3, seed=seed, resamples=400)
        return np.array(result.rating_high) - np.array(result.rating_low)

    few, many = widths(100, 1), widths(1600, 1)
    assert (many < few / 2.5).all()  # sixteen times the pairs: about a quarter of the width
    matches = [(i, j, scores) for i, j, scores, _ in ladder_matches(rng, elo, 200)]
    assert bootstrap_tournament(matches, 3, seed=9, resamples=200) == bootstrap_tournament(
        matches, 3, seed=9, resamples=200
    )
    assert bootstrap_tournament(matches, 3, seed=9, resamples=200) != bootstrap_tournament(
        matches, 3, seed=10, resamples=200
    )


def test_the_bootstrap_resamples_pairs_not_games() -> None:
    """Every pair split 1-1: resampled pairs always give 50%, so the interval has no width; resampling
    games would scatter it. Pairs won 2-0 or lost 0-2 give the same 50% with a wide interval."""
    split = bootstrap_tournament([(0, 1, np.ones(500, dtype=int))], 2, seed=1, resamples=300)
    assert split.rating_low == split.rating_high == (0.0, 0.0)
    swings = bootstrap_tournament([(0, 1, np.tile([0, 2], 250))], 2, seed=1, resamples=300)
    assert swings.rating_high[0] - swings.rating_low[0] > 20


def test_the_nash_frequency_is_none_when_two_entrants_never_met() -> None:
    rng = np.random.default_rng(6)
    matches = [(0, 1, synthetic_pairs(rng, 50)), (1, 2, synthetic_pairs(rng, 50))]
    result = bootstrap_tournament(matches, 3, seed=1, resamples=50)
    assert result.nash_frequency is None and len(result.rating_low) == 3


def test_a_rock_paper_scissors_tournament_keeps_everyone_in_the_support() -> None:
    """A beats B, B beats C, C beats A, each 70% of games: thirds, and everyone in the support of every
    resample (the cycle is far stronger than the noise)."""
    rng = np.random.default_rng(7)
    matches = [(i, (i + 1) % 3, synthetic_pairs(rng, 400, p=0.7), np.zeros(400)) for i in range(3)]
    result = tournament(matches, 3, seed=2, resamples=200)
    assert result.nash_weights == pytest.approx([1 / 3] * 3, abs=0.05)
    assert result.nash_frequency == (1.0, 1.0, 1.0)
    assert result.exploitability == pytest.approx([0.2] * 3, abs=0.05)
    assert result.win_rates[1][0] == pytest.approx(1 - result.win_rates[0][1])


def test_the_tournament_json() -> None:
    rng = np.random.default_rng(12)
    matches = ladder_matches(rng, np.array([0.0, 100.0, 200.0]), 100)
    result = tournament(matches, 3, seed=1, resamples=100)
    document = result.to_json(["x", "y", "z"])
    assert json.loads(json.dumps(document)) == document
    assert [entry["policy"] for entry in document["policies"]] == ["x", "y", "z"]
    assert list(document["policies"][0]) == [
        "policy",
        "rating",
        "rating_ci_low",
        "rating_ci_high",
        "nash_weight",
        "nash_frequency",
        "exploitability",
    ]
    first = result.matches[0][2]
    assert document["matrix"][0] == {
        "a": "x",
        "b": "y",
        "games": 200,
        "a_win_rate": first.win_rate,
        "ci_low": first.ci_low,
        "ci_high": first.ci_high,
        "a_margin": first.margin_mean,
    }
    assert [(entry["a"], entry["b"]) for entry in document["matrix"]] == [("x", "y"), ("x", "z"), ("y", "z")]
    with pytest.raises(ValueError, match="2 policy names for 3 entrants"):
        result.to_json(["x", "y"])


def test_a_tournament_needs_every_two_entrants_to_meet() -> None:
    rng = np.random.default_rng(6)
    pairs = synthetic_pairs(rng, 20)
    with pytest.raises(ValueError, match="entrants 0 and 2 never met"):
        tournament([(0, 1, pairs, np.zeros(20)), (1, 2, pairs, np.zeros(20))], 3, seed=1, resamples=10)
    with pytest.raises(ValueError, match="match 0 is 1 v 1"):
        tournament([(1, 1, pairs, np.zeros(20))], 3, seed=1, resamples=10)
    with pytest.raises(ValueError, match="match 0 is 0 v 3"):
        tournament([(0, 3, pairs, np.zeros(20))], 3, seed=1, resamples=10)
