"""The statistics of the strategy experiments (issue 23): numbers in, dataclasses out, no I/O.

**Paired match.** Policy A meets policy B in pairs of games on the same cards with the seats swapped. The
pair is the statistical unit: its *score* is A's games won in it (0, 1 or 2; ``units_per_pair`` games in
general) and its *margin* A's points minus B's per game, averaged over its games. A's win rate is the mean
score divided by ``units_per_pair``; its interval a t-interval over the pairs (pairs - 1 degrees of
freedom); its p-value the two-sided one-sample t-test of win rate = 1/2 over the pairs (a paired test: each
pair's two games are compared within the pair). The margin gets the same treatment against 0.
``variance_ratio`` compares the variance of the win rate computed as if the games were independent,
``p(1 - p) / games``, with its variance with the pairs as units, ``var(score / units_per_pair) / pairs``:
above 1, pairing helped. Swapping seats on the same cards makes a pair's games tend to split 1-1 (A's two
results are negatively correlated), which is what makes the pair scores vary less than independent games.

**Tournament.** Every pair of entrants plays a paired match. Bradley-Terry ratings (maximum likelihood over
the games won, one pseudo-win each way between entrants that met, in Elo points, mean 0) with a bootstrap
interval (pairs resampled within each match); the meta-game, the symmetric zero-sum game whose payoff is
A's win rate minus 1/2, and its maximum-entropy Nash mixture; each entrant's best-response margin.

Every interval is at ``LEVEL`` and every verdict at significance ``ALPHA``.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
from numpy.typing import ArrayLike, NDArray

from pipeline.names import counted

LEVEL: Final = 0.95
"""The confidence level of every interval."""

ALPHA: Final = 0.05
"""The significance level of every verdict ("A better", a disagreement between games and points)."""

ELO_PER_NAT: Final = 400 / math.log(10)
"""Elo points per unit of natural-log strength: a rating is ``400 * log10(strength)``."""

BT_TOLERANCE: Final = 1e-9
"""The Bradley-Terry fit stops when no log-strength moves by more than this in a Newton step."""

SUPPORT_WEIGHT: Final = 1e-6
"""An entrant is in the meta-game's support when some Nash mixture gives it at least about this weight."""

NASH_TOLERANCE: Final = 1e-9
"""How far below the game's value (0) a pure reply to a Nash mixture may score: the solvers' rounding."""


# ---------------------------------------------------------------------------------------------- intervals


@dataclass(frozen=True)
class Estimate:
    """A mean over ``n`` values with its t-interval and the two-sided one-sample t-test of mean = ``null``.

    With one value there is no spread to measure: the interval and p-value are None. When every value is
    the same the spread is zero and the t statistic undefined: the interval is the mean itself and the
    p-value 1.0 when the mean is exactly the null, else 0.0."""

    n: int
    mean: float
    ci_low: float | None
    ci_high: float | None
    p_value: float | None


def t_estimate(values: ArrayLike, null: float = 0.0, level: float = LEVEL) -> Estimate:
    """The mean of ``values``, its t-interval at ``level`` and the t-test of mean = ``null``."""
    x = _finite_vector(values, "values")
    n, mean = len(x), float(x.mean())
    if n < 2:
        return Estimate(n, mean, None, None, None)
    if np.ptp(x) == 0:
        return Estimate(n, mean, mean, mean, 1.0 if mean == null else 0.0)
    from scipy import stats  # imported here: it takes half a second, and most reports need no t-interval

    sem = float(x.std(ddof=1)) / math.sqrt(n)
    half = float(stats.t.ppf(0.5 + level / 2, n - 1)) * sem
    p_value = float(2 * stats.t.sf(abs(mean - null) / sem, n - 1))
    return Estimate(n, mean, mean - half, mean + half, min(p_value, 1.0))


def wilson_interval(successes: int, trials: int, level: float = LEVEL) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``successes / trials`` (for rates over independent games)."""
    if trials <= 0 or not 0 <= successes <= trials:
        raise ValueError(f"a Wilson interval needs 0 <= successes <= trials and trials > 0, got {successes}/{trials}")
    z = statistics.NormalDist().inv_cdf(0.5 + level / 2)
    rate, shrink = successes / trials, 1 + z * z / trials
    centre = (rate + z * z / (2 * trials)) / shrink
    half = z / shrink * math.sqrt(rate * (1 - rate) / trials + z * z / (4 * trials * trials))
    low = 0.0 if successes == 0 else max(0.0, centre - half)  # exactly 0 and 1 at the ends, not rounded near them
    return low, 1.0 if successes == trials else min(1.0, centre + half)


def format_p(p_value: float | None, alpha: float = ALPHA) -> str:
    """``p < 0.001``, or ``p = 0.03`` with two significant digits, more when two would round the p-value
    across ``alpha`` (``p = 0.0496``, not ``p = 0.05`` beside "A better")."""
    if p_value is None:
        return "p undefined"
    if p_value < 0.001:
        return "p < 0.001"
    text = f"{p_value:.2g}"
    for digits in (3, 4, 5, 6):
        if (float(text) < alpha) == (p_value < alpha):
            break
        text = f"{p_value:.{digits}g}"
    return f"p = {text}"


def pairs_needed(pair_score_variance: float, difference: float = 0.01, alpha: float = ALPHA, power: float = 0.8) -> int:
    """How many pairs a paired match needs to tell a win rate ``difference`` away from 1/2 (0.01: one
    percentage point) with a two-sided test at ``alpha`` and the given ``power``, by the normal
    approximation: ``(z(1 - alpha/2) + z(power))^2 * variance / difference^2``, rounded up.

    ``pair_score_variance`` is the variance of a pair's win rate, ``score / units_per_pair``, as measured
    (``PairedMatch.pair_variance``). Independent fair games give 1/8 for pairs of two games: 9,812 pairs."""
    if not pair_score_variance > 0 or not math.isfinite(pair_score_variance):
        raise ValueError(f"the pair-score variance must be a positive number, got {pair_score_variance}")
    if not 0 < difference <= 0.5 or not 0 < alpha < 1 or not 0 < power < 1:
        raise ValueError(
            f"pairs_needed needs 0 < difference <= 0.5, 0 < alpha < 1, 0 < power < 1, "
            f"got {difference}, {alpha}, {power}"
        )
    z = statistics.NormalDist().inv_cdf(1 - alpha / 2) + statistics.NormalDist().inv_cdf(power)
    return math.ceil(z * z * pair_score_variance / (difference * difference))


# -------------------------------------------------------------------------------------------- paired match


@dataclass(frozen=True)
class PairedMatch:
    """A paired match of A against B, the pair as the unit (see the module's docstring).

    ``units`` is the number of games (``pairs * units_per_pair``), ``a_won`` and ``b_won`` A's and B's games
    won (every game has a winner). Intervals and p-values are None with a single pair; with no spread in the
    pair scores they follow ``Estimate``. ``variance_ratio`` is None when either variance is zero (every
    pair scored the same) or there is a single pair."""

    pairs: int
    units_per_pair: int
    units: int
    a_won: int
    b_won: int
    win_rate: float
    ci_low: float | None
    ci_high: float | None
    p_value: float | None
    margin_mean: float
    margin_ci_low: float | None
    margin_ci_high: float | None
    margin_p_value: float | None
    pair_variance: float | None
    """The variance of a pair's win rate (``score / units_per_pair``, ddof 1), for ``pairs_needed``."""
    variance_ratio: float | None

    def better(self) -> str | None:
        """``"a"`` or ``"b"`` when the win rate differs from 1/2 at ``ALPHA``, else None."""
        if self.p_value is None or self.p_value >= ALPHA or self.win_rate == 0.5:
            return None
        return "a" if self.win_rate > 0.5 else "b"

    def verdict(self, a: str = "A", b: str = "B") -> str:
        """The one-line answer, about games won: ``A wins 52.7% [51.7, 53.7] of 10,000 games (5,000 pairs):
        A better, p < 0.001`` (or ``B better``, or ``no clear difference``, at ``ALPHA``)."""
        interval = (
            ""
            if self.ci_low is None or self.ci_high is None
            else f" [{_percent(self.ci_low)}, {_percent(self.ci_high)}]"
        )
        games, pairs = counted(self.units, "game"), counted(self.pairs, "pair")
        head = f"{a} wins {_percent(self.win_rate)}%{interval} of {games} ({pairs})"
        if self.p_value is None:
            return f"{head}: no clear difference (a single pair gives no interval)"
        better = self.better()
        call = "no clear difference" if better is None else f"{a if better == 'a' else b} better"
        return f"{head}: {call}, {format_p(self.p_value)}"

    def margin_summary(self, a: str = "A", b: str = "B") -> str:
        """The points margin beside the verdict: ``A's margin over B: +0.12 points per game [+0.05, +0.19],
        p = 0.003``."""
        interval = "" if self.margin_ci_low is None else f" [{self.margin_ci_low:+.2f}, {self.margin_ci_high:+.2f}]"
        return (
            f"{a}'s margin over {b}: {self.margin_mean:+.2f} points per game{interval}, {format_p(self.margin_p_value)}"
        )

    def disagreement(self, a: str = "A", b: str = "B") -> str | None:
        """A sentence when games won and points point different ways, else None.

        They disagree when the win rate lies on one side of 1/2 and the margin strictly on the other side of
        0, and at least one of the two is significant at ``ALPHA`` (both significant, or one significant with
        the other pointing the other way, however weakly). Two insignificant estimates pointing different
        ways are noise, not a disagreement; a win rate of exactly 1/2 or a margin of exactly 0 points no way."""
        games_way = np.sign(self.win_rate - 0.5)
        points_way = np.sign(self.margin_mean)
        significant = [p is not None and p < ALPHA for p in (self.p_value, self.margin_p_value)]
        if games_way * points_way >= 0 or not any(significant):
            return None
        games_leader, points_leader = (a, b) if games_way > 0 else (b, a)
        return (
            f"games and points disagree: {games_leader} wins more games "
            f"({_percent(max(self.win_rate, 1 - self.win_rate))}%, "
            f"{format_p(self.p_value)}) but {points_leader} scores more points "
            f"({abs(self.margin_mean):.2f} per game, {format_p(self.margin_p_value)})"
        )

    def to_json(self, policy_a: str, policy_b: str) -> dict[str, Any]:
        """The match as issue 23's JSON: ``pairs``, ``a`` and ``b`` (``policy``, ``games``, ``games_won``,
        ``win_rate``, ``ci_low``, ``ci_high``; B's rate is 1 - A's and its interval A's mirrored), ``margin``
        (``mean``, ``ci_low``, ``ci_high``: A's points minus B's per game), ``p_value``, ``variance_ratio``."""
        mirrored_low = None if self.ci_high is None else 1 - self.ci_high
        mirrored_high = None if self.ci_low is None else 1 - self.ci_low
        return {
            "pairs": self.pairs,
            "a": _side(policy_a, self.units, self.a_won, self.win_rate, self.ci_low, self.ci_high),
            "b": _side(policy_b, self.units, self.b_won, 1 - self.win_rate, mirrored_low, mirrored_high),
            "margin": {"mean": self.margin_mean, "ci_low": self.margin_ci_low, "ci_high": self.margin_ci_high},
            "p_value": self.p_value,
            "variance_ratio": self.variance_ratio,
        }


def paired_match(scores: ArrayLike, margins: ArrayLike, units_per_pair: int = 2) -> PairedMatch:
    """The paired match from its pairs: ``scores[i]`` A's games won in pair i (an integer from 0 to
    ``units_per_pair``), ``margins[i]`` A's points minus B's per game, averaged over pair i's games."""
    score = _scores(scores, units_per_pair, "scores")
    margin = _finite_vector(margins, "margins")
    if len(margin) != len(score):
        raise ValueError(f"{len(score)} pair scores but {len(margin)} pair margins: one of each per pair")
    pairs, units, a_won = len(score), len(score) * units_per_pair, int(score.sum())
    rate = t_estimate(score / units_per_pair, null=0.5)
    points = t_estimate(margin, null=0.0)
    pair_variance = float((score / units_per_pair).var(ddof=1)) if pairs > 1 else None
    win_rate = a_won / units
    independent = win_rate * (1 - win_rate) / units
    ratio = independent / (pair_variance / pairs) if pair_variance and independent else None
    return PairedMatch(
        pairs=pairs,
        units_per_pair=units_per_pair,
        units=units,
        a_won=a_won,
        b_won=units - a_won,
        win_rate=win_rate,
        ci_low=rate.ci_low,
        ci_high=rate.ci_high,
        p_value=rate.p_value,
        margin_mean=points.mean,
        margin_ci_low=points.ci_low,
        margin_ci_high=points.ci_high,
        margin_p_value=points.p_value,
        pair_variance=pair_variance,
        variance_ratio=ratio,
    )


# ---------------------------------------------------------------------------------------------- ratings


def bradley_terry(wins: ArrayLike, pseudo: float = 1.0) -> NDArray[np.float64]:
    """Bradley-Terry ratings in Elo points, mean 0, from ``wins[i][j]``, the games i won against j.

    Maximum likelihood after adding ``pseudo`` wins each way between every two entrants that played, which
    keeps the ratings finite when one entrant won every game against another. ``P(i beats j) = 1 / (1 +
    10^((R_j - R_i) / 400))``. Fitted by Newton's method on the log-strengths (halving a step that would
    lower the likelihood) until no log-strength moves by more than ``BT_TOLERANCE``. The entrants must be
    connected by the games played, or their ratings would not be comparable."""
    matrix = _wins_matrix(wins)
    if not pseudo > 0:
        raise ValueError(f"the pseudo-wins must be positive (they keep the ratings finite), got {pseudo}")
    _check_connected(matrix)
    return _bt_log_strengths(matrix[None], pseudo)[0] * ELO_PER_NAT


def _bt_log_strengths(wins: NDArray[np.float64], pseudo: float) -> NDArray[np.float64]:
    """The fitted log-strengths, mean 0, of a stack of win matrices (shape ``(batch, n, n)``), all at once."""
    played = (wins + wins.swapaxes(-1, -2)) > 0
    won = wins + pseudo * played
    games = won + won.swapaxes(-1, -2)
    total_won = won.sum(-1)
    batch, n = wins.shape[0], wins.shape[-1]
    theta = np.zeros((batch, n))
    likelihood = _bt_log_likelihood(won, theta)
    diagonal = np.arange(n)
    from scipy import special  # scipy is imported where it is used: most reports need none of it

    for _ in range(200):
        beats = special.expit(theta[:, :, None] - theta[:, None, :])
        gradient = total_won - (games * beats).sum(-1)
        curvature = games * beats * (1 - beats)
        hessian = -curvature
        hessian[:, diagonal, diagonal] = curvature.sum(-1)
        # The likelihood is flat along (1, ..., 1); adding 1/n to every entry fixes that direction and, as
        # the gradient sums to 0, leaves the step's mean at 0.
        step = np.linalg.solve(hessian + 1.0 / n, gradient[:, :, None])[:, :, 0]
        scale = np.ones(batch)
        for _ in range(60):
            trial = theta + scale[:, None] * step
            trial_likelihood = _bt_log_likelihood(won, trial)
            worse = trial_likelihood < likelihood - 1e-12 * np.abs(likelihood)
            if not worse.any():
                break
            scale[worse] /= 2
        moved = float(np.abs(trial - theta).max())
        theta, likelihood = trial - trial.mean(-1, keepdims=True), trial_likelihood
        if moved < BT_TOLERANCE:
            return theta
    raise ArithmeticError("the Bradley-Terry fit did not converge in 200 Newton steps")


def _bt_log_likelihood(won: NDArray[np.float64], theta: NDArray[np.float64]) -> NDArray[np.float64]:
    """Sum over i, j of ``won[i][j] * log P(i beats j)``, per matrix of the stack."""
    return -(won * np.logaddexp(0.0, theta[:, None, :] - theta[:, :, None])).sum((-1, -2))


@dataclass(frozen=True)
class Bootstrap:
    """Bootstrap intervals of a tournament: per entrant the rating's percentile interval at ``LEVEL`` and
    the fraction of resamples in which the entrant is in the meta-game's Nash support (None when some two
    entrants never met, so that the meta-game is undefined)."""

    resamples: int
    rating_low: tuple[float, ...]
    rating_high: tuple[float, ...]
    nash_frequency: tuple[float, ...] | None


def bootstrap_tournament(
    matches: Sequence[tuple[int, int, ArrayLike]],
    n_entrants: int,
    *,
    seed: int,
    resamples: int = 1000,
    units_per_pair: int = 2,
    pseudo: float = 1.0,
    level: float = LEVEL,
) -> Bootstrap:
    """Resample the pairs of every match with replacement, ``resamples`` times, and refit.

    ``matches`` holds ``(i, j, scores)``: entrant i met entrant j, ``scores`` i's games won in each pair.
    Only a pair's score enters the wins, so drawing the pairs with replacement is drawing how many pairs of
    each score there are, a multinomial over the scores' frequencies: one draw per match for all the
    resamples. The ratings are refitted all at once (``bradley_terry``'s Newton steps on the whole stack);
    the Nash support is one linear programme per resample (``nash_support``). Every draw comes from
    ``seed``."""
    if resamples < 2:
        raise ValueError(f"a bootstrap needs at least 2 resamples, got {resamples}")
    rng = np.random.default_rng(seed)
    wins = np.zeros((resamples, n_entrants, n_entrants))
    for i, j, pair_scores in _checked_matches(matches, n_entrants):
        score = _scores(pair_scores, units_per_pair, f"the scores of match {i} v {j}")
        frequency = np.bincount(score, minlength=units_per_pair + 1) / len(score)
        drawn = rng.multinomial(len(score), frequency, size=resamples) @ np.arange(units_per_pair + 1)
        wins[:, i, j] += drawn
        wins[:, j, i] += len(score) * units_per_pair - drawn
    _check_connected(wins[0])
    ratings = _bt_log_strengths(wins, pseudo) * ELO_PER_NAT
    low, high = np.percentile(ratings, [50 * (1 - level), 50 * (1 + level)], axis=0)
    games = wins + wins.swapaxes(-1, -2)
    frequency_in_support: tuple[float, ...] | None = None
    if (games[0] + np.eye(n_entrants) > 0).all():
        rates = wins / np.where(games > 0, games, 1)
        payoffs = (rates - rates.swapaxes(-1, -2)) / 2  # i's rate against j minus 1/2, antisymmetric to the bit
        frequency_in_support = _floats(_supports(payoffs).mean(0))
    return Bootstrap(resamples, _floats(low), _floats(high), frequency_in_support)


# ---------------------------------------------------------------------------------------------- meta-game


def nash_support(payoff: ArrayLike) -> NDArray[np.bool_]:
    """Which entrants some Nash mixture of the symmetric zero-sum game ``payoff`` plays (with weight at
    least about ``SUPPORT_WEIGHT``); this is the support of the maximum-entropy mixture.

    ``payoff[i][j]`` is what i gains against j (A's win rate minus 1/2), antisymmetric, so the game's value
    is 0 and a mixture x is a Nash mixture when no pure reply beats it: ``payoff^T x >= 0``. One linear
    programme (HiGHS) over unnormalised weights z >= 0 with ``payoff^T z >= 0`` and ``sum(z) <= 1 /
    SUPPORT_WEIGHT`` maximises ``sum(min(z_i, 1))``; every entrant some Nash mixture plays enough reaches 1
    (a mixture of equilibria is one)."""
    _, reach = _support_programme(_antisymmetric(payoff))
    return reach >= 0.5


def _support_programme(matrix: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The linear programme of ``nash_support``: the weights z found (a Nash mixture once normalised, playing
    every entrant of the support) and ``min(z, 1)``, which reaches 1 on the support."""
    n = len(matrix)
    # variables: z (n weights), y (n capped weights, y <= z, y <= 1); maximise sum(y)
    objective = np.concatenate([np.zeros(n), -np.ones(n)])
    upper = np.block(
        [
            [-matrix.T, np.zeros((n, n))],  # no pure reply j beats z: sum_i z_i payoff[i][j] >= 0
            [-np.eye(n), np.eye(n)],  # y_i <= z_i
            [np.ones((1, n)), np.zeros((1, n))],  # sum(z) <= 1 / SUPPORT_WEIGHT
        ]
    )
    bound = np.concatenate([np.zeros(2 * n), [1 / SUPPORT_WEIGHT]])
    limits = [(0.0, None)] * n + [(0.0, 1.0)] * n
    from scipy import optimize

    solved = optimize.linprog(objective, A_ub=upper, b_ub=bound, bounds=limits, method="highs")
    if solved.status != 0:
        raise ArithmeticError(f"the meta-game's linear programme failed: {solved.message}")
    weights = np.asarray(solved.x[:n], dtype=np.float64)
    return weights, np.asarray(solved.x[n:], dtype=np.float64)


def _supports(payoffs: NDArray[np.float64]) -> NDArray[np.bool_]:
    """``nash_support`` of each meta-game of a stack (shape ``(batch, n, n)``). An entrant that beats every
    other is the only Nash mixture (every other entrant loses to it, so no other mixture holds it to 0):
    those games need no linear programme; identical games are solved once."""
    n = payoffs.shape[-1]
    found: NDArray[np.bool_] = np.asarray(((payoffs > 0) | np.eye(n, dtype=bool)).all(-1))
    rest = np.flatnonzero(~found.any(-1))
    if len(rest):
        distinct, inverse = np.unique(payoffs[rest].reshape(len(rest), -1), axis=0, return_inverse=True)
        solved = np.array([_support_programme(game.reshape(n, n))[1] >= 0.5 for game in distinct])
        found[rest] = solved[inverse.ravel()]
    return found


def nash_mixture(payoff: ArrayLike) -> NDArray[np.float64]:
    """The maximum-entropy Nash mixture of the symmetric zero-sum game ``payoff`` (antisymmetric: A's win
    rate minus 1/2 with 0 on the diagonal; the value is 0).

    The Nash mixtures form a polytope; its maximum-entropy point is unique and plays every entrant that any
    Nash mixture plays (``nash_support``: one linear programme). On that support S the columns of S score
    exactly 0 against every Nash mixture, so the mixtures are the points of ``{x_S : payoff[S, S]^T x_S =
    0, sum(x_S) = 1}`` with ``x_S >= 0`` and no other pure reply gaining. When that set is a single point it
    is solved exactly (least squares); otherwise the entropy is maximised over it (SLSQP on the null
    space's coordinates, from the linear programme's interior point). Rock-paper-scissors gives thirds; two
    copies of the best entrant share its weight evenly."""
    matrix = _antisymmetric(payoff)
    n = len(matrix)
    interior, reach = _support_programme(matrix)
    support = np.flatnonzero(reach >= 0.5)
    weights = np.zeros(n)
    if len(support) == 1:
        weights[support] = 1.0
        return weights
    inner = matrix[np.ix_(support, support)]
    equalities = np.vstack([inner.T, np.ones((1, len(support)))])
    target = np.concatenate([np.zeros(len(support)), [1.0]])
    _, singular, rows = np.linalg.svd(equalities)
    rank = int((singular > 1e-10 * singular[0]).sum())
    start = interior[support] / interior[support].sum()
    start = start - np.linalg.pinv(equalities) @ (equalities @ start - target)  # onto the affine set
    if rank == len(support):
        weights[support] = start
    else:
        weights[support] = _max_entropy(start, rows[rank:].T, matrix[np.ix_(support, _others(n, support))].T)
    weights = np.clip(weights, 0.0, None)
    weights /= weights.sum()
    worst_reply = float((matrix.T @ weights).min())
    if worst_reply < -NASH_TOLERANCE * max(1.0, float(np.abs(matrix).max())):
        raise ArithmeticError(f"the meta-game's mixture is not an equilibrium (a pure reply gains {-worst_reply:.2g})")
    return weights


def _max_entropy(
    start: NDArray[np.float64], basis: NDArray[np.float64], others: NDArray[np.float64]
) -> NDArray[np.float64]:
    """The maximum-entropy x = start + basis @ t with x >= 0 and ``others @ x >= 0`` (the pure replies
    outside the support gain nothing)."""

    def point(t: NDArray[np.float64]) -> NDArray[np.float64]:
        return start + basis @ t

    def negative_entropy(t: NDArray[np.float64]) -> float:
        x = np.clip(point(t), 1e-300, None)
        return float((x * np.log(x)).sum())

    def gradient(t: NDArray[np.float64]) -> NDArray[np.float64]:
        return basis.T @ (np.log(np.clip(point(t), 1e-300, None)) + 1)

    constraints: list[dict[str, Any]] = [{"type": "ineq", "fun": point, "jac": lambda t: basis}]
    if len(others):
        constraints.append({"type": "ineq", "fun": lambda t: others @ point(t), "jac": lambda t: others @ basis})
    from scipy import optimize

    solved = optimize.minimize(
        negative_entropy,
        np.zeros(basis.shape[1]),
        jac=gradient,
        constraints=constraints,
        method="SLSQP",
        options={"ftol": 1e-15, "maxiter": 1000},
    )
    t = solved.x
    # SLSQP stops some 1e-8 short; Newton's steps finish the job while they stay feasible and do not lose
    # entropy (they do when the maximum lies inside; on a boundary SLSQP's answer stands).
    for _ in range(20):
        x = point(t)
        if (x <= 0).any():
            break
        curvature = basis.T @ (basis / x[:, None])
        trial = t - np.linalg.solve(curvature, gradient(t))
        feasible = (point(trial) > 0).all() and (not len(others) or (others @ point(trial) >= 0).all())
        if not feasible or negative_entropy(trial) > negative_entropy(t):
            break
        moved, t = float(np.abs(trial - t).max()), trial
        if moved < 1e-15:
            break
    return point(t)


def best_response_margins(win_rates: ArrayLike) -> NDArray[np.float64]:
    """Each entrant's best-response margin within the population: the most any entrant j wins against it,
    ``max_j win_rates[j][i] - 1/2``. The population includes the entrant itself, whose mirror wins 1/2, so
    the margin is never below 0 (an entrant that beats everyone is unexploitable here: 0). ``win_rates[j][i]``
    is j's win rate against i; the diagonal is not read."""
    matrix = _square(win_rates, "the win-rate matrix")
    off_diagonal = ~np.eye(len(matrix), dtype=bool)
    if not np.isfinite(matrix[off_diagonal]).all() or not ((matrix >= 0) & (matrix <= 1))[off_diagonal].all():
        raise ValueError("the win-rate matrix needs a rate between 0 and 1 for every two entrants")
    against = np.where(off_diagonal, matrix, 0.5)
    return against.max(axis=0) - 0.5


# ---------------------------------------------------------------------------------------------- tournament


@dataclass(frozen=True)
class Tournament:
    """A tournament's results, entrant i in position i of every per-entrant tuple.

    ``matches`` holds each match as played, ``(i, j, PairedMatch of i against j)``; ``win_rates[i][j]`` is
    i's rate of games won against j pooled over their matches (1/2 on the diagonal); ``ratings`` are
    Bradley-Terry Elo ratings with the bootstrap's interval; ``nash_weights`` the meta-game's
    maximum-entropy mixture and ``nash_frequency`` each entrant's share of resamples in its support;
    ``exploitability`` the best-response margins."""

    entrants: int
    matches: tuple[tuple[int, int, PairedMatch], ...]
    win_rates: tuple[tuple[float, ...], ...]
    ratings: tuple[float, ...]
    rating_low: tuple[float, ...]
    rating_high: tuple[float, ...]
    nash_weights: tuple[float, ...]
    nash_frequency: tuple[float, ...]
    exploitability: tuple[float, ...]

    def to_json(self, policies: Sequence[str]) -> dict[str, Any]:
        """Issue 23's JSON: ``policies`` (each ``policy``, ``rating``, ``rating_ci_low``, ``rating_ci_high``,
        ``nash_weight``, ``nash_frequency`` (the bootstrap's), ``exploitability``) and ``matrix`` (one entry
        per match: ``a``, ``b``, ``games``, ``a_win_rate``, ``ci_low``, ``ci_high``, ``a_margin``)."""
        if len(policies) != self.entrants:
            raise ValueError(f"{len(policies)} policy names for {counted(self.entrants, 'entrant')}")
        return {
            "policies": [
                {
                    "policy": policies[i],
                    "rating": self.ratings[i],
                    "rating_ci_low": self.rating_low[i],
                    "rating_ci_high": self.rating_high[i],
                    "nash_weight": self.nash_weights[i],
                    "nash_frequency": self.nash_frequency[i],
                    "exploitability": self.exploitability[i],
                }
                for i in range(self.entrants)
            ],
            "matrix": [
                {
                    "a": policies[i],
                    "b": policies[j],
                    "games": match.units,
                    "a_win_rate": match.win_rate,
                    "ci_low": match.ci_low,
                    "ci_high": match.ci_high,
                    "a_margin": match.margin_mean,
                }
                for i, j, match in self.matches
            ],
        }


def tournament(
    matches: Sequence[tuple[int, int, ArrayLike, ArrayLike]],
    n_entrants: int,
    *,
    seed: int,
    resamples: int = 1000,
    units_per_pair: int = 2,
    pseudo: float = 1.0,
) -> Tournament:
    """A tournament from its matches, ``(i, j, scores, margins)`` each: entrant i met entrant j (i as A) in
    pairs, ``scores`` and ``margins`` as for ``paired_match``. Every two entrants must have met."""
    played = _checked_matches(matches, n_entrants)
    results = tuple((i, j, paired_match(scores, margins, units_per_pair)) for i, j, scores, margins in played)
    wins = np.zeros((n_entrants, n_entrants))
    for i, j, match in results:
        wins[i, j] += match.a_won
        wins[j, i] += match.b_won
    games = wins + wins.T
    for i in range(n_entrants):
        for j in range(i + 1, n_entrants):
            if games[i, j] == 0:
                raise ValueError(f"entrants {i} and {j} never met: a tournament needs a match for every two entrants")
    rates = np.where(np.eye(n_entrants, dtype=bool), 0.5, wins / np.where(games > 0, games, 1))
    resampled = bootstrap_tournament(
        [(i, j, scores) for i, j, scores, _ in played],
        n_entrants,
        seed=seed,
        resamples=resamples,
        units_per_pair=units_per_pair,
        pseudo=pseudo,
    )
    assert resampled.nash_frequency is not None  # every two entrants met
    return Tournament(
        entrants=n_entrants,
        matches=results,
        win_rates=tuple(_floats(row) for row in rates),
        ratings=_floats(bradley_terry(wins, pseudo)),
        rating_low=resampled.rating_low,
        rating_high=resampled.rating_high,
        nash_weights=_floats(nash_mixture(rates - 0.5)),
        nash_frequency=resampled.nash_frequency,
        exploitability=_floats(best_response_margins(rates)),
    )


# ---------------------------------------------------------------------------------------------- checks


def _finite_vector(values: ArrayLike, what: str) -> NDArray[np.float64]:
    try:
        x = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise ValueError(f"{what} must be numbers: {error}") from None
    if x.ndim != 1:
        raise ValueError(f"{what} must be a flat sequence of numbers, got shape {x.shape}")
    if len(x) == 0:
        raise ValueError(f"{what} is empty: at least one pair is needed")
    bad = np.flatnonzero(~np.isfinite(x))
    if len(bad):
        raise ValueError(f"{what}[{bad[0]}] is {x[bad[0]]}, not a finite number")
    return x


def _scores(values: ArrayLike, units_per_pair: int, what: str) -> NDArray[np.int64]:
    if isinstance(units_per_pair, bool) or not isinstance(units_per_pair, int | np.integer) or units_per_pair < 1:
        raise ValueError(f"units_per_pair must be a positive integer, got {units_per_pair!r}")
    x = _finite_vector(values, what)
    bad = np.flatnonzero((x != np.round(x)) | (x < 0) | (x > units_per_pair))
    if len(bad):
        raise ValueError(
            f"{what}[{bad[0]}] is {x[bad[0]]:g}: a pair score is a whole number of games from 0 to {units_per_pair}"
        )
    return x.astype(np.int64)


def _square(values: ArrayLike, what: str) -> NDArray[np.float64]:
    matrix = np.asarray(values, dtype=np.float64)
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1] or len(matrix) < 2:
        raise ValueError(f"{what} must be a square matrix of at least 2 entrants, got shape {matrix.shape}")
    return matrix


def _wins_matrix(values: ArrayLike) -> NDArray[np.float64]:
    matrix = _square(values, "the wins matrix")
    if not np.isfinite(matrix).all() or (matrix < 0).any():
        raise ValueError("the wins matrix must hold finite, non-negative counts")
    if np.diag(matrix).any():
        raise ValueError("the wins matrix's diagonal must be 0: an entrant does not play itself")
    return matrix


def _check_connected(wins: NDArray[np.float64]) -> None:
    """Every entrant reachable from entrant 0 through games played (else ratings are not comparable)."""
    met = (wins + wins.T) > 0
    reached, frontier = {0}, [0]
    while frontier:
        new = {int(j) for i in frontier for j in np.flatnonzero(met[i])} - reached
        reached |= new
        frontier = list(new)
    if len(reached) < len(wins):
        apart = min(set(range(len(wins))) - reached)
        raise ValueError(
            f"entrant {apart} is not connected to entrant 0 by any games: their ratings cannot be compared"
        )


def _antisymmetric(values: ArrayLike) -> NDArray[np.float64]:
    matrix = _square(values, "the payoff matrix")
    if not np.isfinite(matrix).all():
        raise ValueError("the payoff matrix must be finite (every two entrants met)")
    if np.abs(matrix + matrix.T).max() > 1e-12:
        raise ValueError(
            "the payoff matrix must be antisymmetric (payoff[j][i] = -payoff[i][j]): a symmetric zero-sum game"
        )
    return (matrix - matrix.T) / 2


def _checked_matches(matches: Sequence[Any], n_entrants: int) -> list[Any]:
    if isinstance(n_entrants, bool) or not isinstance(n_entrants, int | np.integer) or n_entrants < 2:
        raise ValueError(f"a tournament needs at least 2 entrants, got {n_entrants!r}")
    if not matches:
        raise ValueError("a tournament needs at least one match")
    for number, match in enumerate(matches):
        i, j = match[0], match[1]
        if not (0 <= i < n_entrants and 0 <= j < n_entrants) or i == j:
            raise ValueError(
                f"match {number} is {i} v {j}: entrants are two different numbers from 0 to {n_entrants - 1}"
            )
    return list(matches)


def _others(n: int, support: NDArray[np.int64]) -> NDArray[np.int64]:
    return np.setdiff1d(np.arange(n), support)


def _percent(rate: float) -> str:
    return f"{100 * rate:.1f}"


def _floats(values: ArrayLike) -> tuple[float, ...]:
    return tuple(float(v) for v in np.asarray(values, dtype=np.float64))


def _side(policy: str, games: int, won: int, rate: float, low: float | None, high: float | None) -> dict[str, Any]:
    return {"policy": policy, "games": games, "games_won": won, "win_rate": rate, "ci_low": low, "ci_high": high}
