"""The three experiment designs: a paired match, a round-robin tournament and a parameter sweep.

Each takes its settings, plays its matches (``runner.play_matches``) into an output written aside and moved
into place whole (``store.atomic_dataset``), and returns its result, analysed by ``analysis``:

- ``run_match``: policy A against policy B; the output is one dataset whose manifest holds the result;
- ``run_tournament``: every pair of entrants; the output is a folder of runs (one dataset per match) and an
  ``experiment.json`` with the result;
- ``run_sweep``: a grid of one policy's parameters, every grid point against one opponent (or, against
  ``self``, against one another), the best point played again on fresh seeds; a folder of runs as above.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, Final

from pipeline.engine.rules import Config
from pipeline.experiments import analysis
from pipeline.experiments.runner import (
    ExperimentError,
    Match,
    MatchOutcome,
    check_games,
    fresh_seed,
    label,
    play_matches,
    two_sided_config,
)
from pipeline.playing import rubber_wins
from pipeline.policies import parse_policy
from pipeline.seeds import check_seed
from pipeline.store import DATASET_KIND, DatasetError, atomic_dataset, read_json, read_manifest
from pipeline.workers import LOCAL_BACKEND, Backend

EXPERIMENT_FILE: Final = "experiment.json"
"""The result of a tournament or a sweep, beside its runs (a match's is in its manifest's ``experiment``)."""

TOURNAMENT: Final = "tournament"
SWEEP: Final = "sweep"
SELF: Final = "self"
"""``--against self``: the grid points play one another."""

BOOTSTRAP_RESAMPLES: Final = 1000


@dataclass(frozen=True)
class Settings:
    """What every design shares: the game, the games per match, the seed, the workers (and their backend) and the
    command."""

    variant: str
    games: int
    seed: int
    options: Mapping[str, str] = field(default_factory=dict)
    workers: int | None = None
    command: str = ""
    paired: bool = True
    backend: Backend = LOCAL_BACKEND  # where the chunks are played: worker processes here, or a Ray cluster


@dataclass
class MatchResult:
    outcome: MatchOutcome
    analysed: analysis.PairedMatch
    rubbers: bool

    def to_json(self) -> dict[str, Any]:
        found = self.analysed.to_json(self.outcome.a_label, self.outcome.b_label)
        found["a"]["games"] = found["b"]["games"] = self.outcome.games
        found["a"]["games_won"] = self.outcome.a_games_won
        found["b"]["games_won"] = self.outcome.games - self.outcome.a_games_won
        found["unit"] = "rubber" if self.rubbers else "game"
        found["mirror"] = self.outcome.mirror
        found["paired"] = self.outcome.match.paired
        return found


def _analyse(outcome: MatchOutcome) -> analysis.PairedMatch:
    return analysis.paired_match(outcome.scores, outcome.margins)


def _play_and_judge(
    settings: Settings,
    matches: list[Match],
    root: Path,
    rubbers: bool,
    progress: Callable[[int, int], None] | None,
) -> tuple[list[MatchOutcome], list[MatchResult]]:
    """Several matches played into ``root`` (each its own run, its result in its manifest), and their results."""

    def result_of(outcome: MatchOutcome) -> dict[str, Any]:
        return {"result": MatchResult(outcome, _analyse(outcome), rubbers).to_json()}

    outcomes = play_matches(
        settings.variant,
        settings.options,
        matches,
        root,
        settings.workers,
        settings.command,
        result_of,
        progress,
        backend=settings.backend,
    )
    return outcomes, [MatchResult(o, _analyse(o), rubbers) for o in outcomes]


def _replaceable_experiment(path: Path) -> bool:
    """Whether ``path`` is a tournament's or a sweep's output and nothing else: its ``experiment.json`` and
    one dataset per run (what ``--overwrite`` may replace)."""
    try:
        content = read_json(path / EXPERIMENT_FILE)
    except (OSError, DatasetError):
        return False
    kind = content.get("kind") if isinstance(content, dict) else None
    if kind not in (TOURNAMENT, SWEEP):
        return False
    for child in path.iterdir():
        if child.name == EXPERIMENT_FILE:
            continue
        try:
            if not child.is_dir() or not isinstance(read_manifest(child).get("experiment"), dict):
                return False
        except (OSError, ValueError, DatasetError):
            return False
    return True


# ---------------------------------------------------------------------------------------------------- match


def run_match(
    settings: Settings,
    a: str,
    b: str,
    out: Path,
    overwrite: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> MatchResult:
    """Policy A against policy B over ``settings.games`` games in pairs; the dataset is written to ``out``."""
    pairs = _checked(settings)
    config = two_sided_config(settings.variant, settings.options)
    match = Match(a, b, pairs, settings.seed, paired=settings.paired)
    with atomic_dataset(out, overwrite) as root:
        _, (result,) = _play_and_judge(settings, [match], root, bool(rubber_wins(config)), progress)
    return result


def _checked(settings: Settings) -> int:
    check_seed(settings.seed, ExperimentError)
    if settings.workers is not None and settings.workers < 1:
        raise ExperimentError(f"--workers must be at least 1, not {settings.workers}")
    return check_games(settings.games)


# ----------------------------------------------------------------------------------------------- round robin


@dataclass
class RoundRobin:
    """Every pair of entrants' match, and what they say together (``analysis.Tournament``)."""

    entrants: list[str]  # the specs as given
    labels: list[str]  # as the variant reads them
    matches: list[MatchResult]  # entrant i against entrant j, i < j, in that order
    table: analysis.Tournament

    @property
    def ratings(self) -> tuple[float, ...]:
        return self.table.ratings

    @property
    def nash(self) -> tuple[float, ...]:
        return self.table.nash_weights

    @property
    def exploitability(self) -> tuple[float, ...]:
        return self.table.exploitability

    def to_json(self) -> dict[str, Any]:
        found = self.table.to_json(self.labels)
        for row, spec in zip(found["policies"], self.entrants, strict=True):
            row["spec"] = spec
        for row, match in zip(found["matrix"], self.matches, strict=True):
            row |= {"games": match.outcome.games, "pairs": match.analysed.pairs, "p_value": match.analysed.p_value}
        return found


def _pairs_of(n: int) -> list[tuple[int, int]]:
    return list(itertools.combinations(range(n), 2))


def _round_robin(
    entrants: Sequence[str],
    settings: Settings,
    root: Path,
    folder: Callable[[int, int], str],
    kind: str,
    config: Config,
    progress: Callable[[int, int], None] | None,
) -> RoundRobin:
    """Every pair of entrants plays a paired match on the same game seeds; then ratings, meta-game and best
    responses (``analysis.tournament``, bootstrapped from the run's seed)."""
    pairs = check_games(settings.games)
    labels = [label(spec, config.variant.name) for spec in entrants]
    matches = [
        Match(entrants[i], entrants[j], pairs, settings.seed, folder(i, j), settings.paired, f"{kind} match")
        for i, j in _pairs_of(len(entrants))
    ]
    rubbers = bool(rubber_wins(config))
    outcomes, results = _play_and_judge(settings, matches, root, rubbers, progress)
    table = analysis.tournament(
        [(i, j, o.scores, o.margins) for (i, j), o in zip(_pairs_of(len(entrants)), outcomes, strict=True)],
        len(entrants),
        seed=settings.seed,
        resamples=BOOTSTRAP_RESAMPLES,
    )
    return RoundRobin(list(entrants), labels, results, table)


def run_tournament(
    settings: Settings,
    entrants: Sequence[str],
    out: Path,
    overwrite: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> RoundRobin:
    """Every pair of ``entrants`` plays a paired match of ``settings.games`` games on the same game seeds."""
    _checked(settings)
    if len(entrants) < 2:
        raise ExperimentError(f"a tournament needs at least 2 policies (--policy, repeated), not {len(entrants)}")
    config = two_sided_config(settings.variant, settings.options)
    _distinct([label(spec, config.variant.name) for spec in entrants], entrants, "--policy")
    with atomic_dataset(out, overwrite, _replaceable_experiment, _EXPERIMENT_KIND) as root:
        found = _round_robin(
            entrants, settings, root, lambda i, j: f"match-{i + 1:02d}-{j + 1:02d}", TOURNAMENT, config, progress
        )
        _write_experiment(root, {"kind": TOURNAMENT, "command": settings.command, **found.to_json()})
    return found


_EXPERIMENT_KIND: Final = f"{DATASET_KIND}, or a tournament's or a sweep's output"


def _distinct(labels: Sequence[str], specs: Sequence[str], option: str) -> None:
    seen: dict[str, str] = {}
    for text, spec in zip(labels, specs, strict=True):
        if text in seen:
            raise ExperimentError(f"{option} {spec!r} is the same policy as {seen[text]!r} ({text}): give each once")
        seen[text] = spec


def _write_experiment(root: Path, content: dict[str, Any]) -> None:
    (root / EXPERIMENT_FILE).write_text(json.dumps(content, indent=2, sort_keys=False) + "\n", "utf-8")


# ------------------------------------------------------------------------------------------------------ sweep


@dataclass(frozen=True)
class Axis:
    """One ``--vary``: a parameter and its values (as written, so that ``0.1`` stays ``0.1``)."""

    name: str
    values: tuple[str, ...]


MAX_POINTS: Final = 10_000


def parse_vary(text: str) -> Axis:
    """``key=a:b:step`` (both ends included) or ``key=v1,v2,...``."""
    key, sep, values = text.partition("=")
    key = key.strip().lower()
    if not sep or not key or not values.strip():
        raise ExperimentError(f"--vary {text!r} is not of the form KEY=START:STOP:STEP or KEY=V1,V2,...")
    if ":" in values:
        parts = values.split(":")
        if len(parts) != 3:
            raise ExperimentError(f"--vary {text!r}: a range is START:STOP:STEP, e.g. raise_at=0.5:0.9:0.1")
        try:
            start, stop, step = (Decimal(p.strip()) for p in parts)
        except InvalidOperation:
            raise ExperimentError(f"--vary {text!r}: START, STOP and STEP must be numbers") from None
        if not all(d.is_finite() for d in (start, stop, step)) or step <= 0 or stop < start:
            raise ExperimentError(f"--vary {text!r}: STEP must be positive and STOP at least START")
        count = (stop - start) / step
        if count != count.to_integral_value():
            raise ExperimentError(
                f"--vary {text!r}: {start}:{stop} is not a whole number of steps of {step} (both ends are included)"
            )
        if count + 1 > MAX_POINTS:
            raise ExperimentError(f"--vary {text!r} has {count + 1} values; at most {MAX_POINTS}")
        found = tuple(_number_text(start + k * step) for k in range(int(count) + 1))
    else:
        found = tuple(v.strip() for v in values.split(","))
        if not all(found):
            raise ExperimentError(f"--vary {text!r}: an empty value")
    if len(set(found)) != len(found):
        raise ExperimentError(f"--vary {text!r} gives a value twice")
    return Axis(key, found)


def _number_text(value: Decimal) -> str:
    text = format(value.normalize(), "f")
    return text


def _typed(value: str) -> Any:
    """A parameter's value as JSON shows it: an int, a number or a name."""
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            continue
    return value


@dataclass
class SweepResult:
    base: str
    axes: list[Axis]
    points: list[dict[str, str]]  # each grid point's parameters
    specs: list[str]
    against: str
    matches: list[MatchResult]  # against an opponent: point k's match; against self: unused
    population: RoundRobin | None  # against self
    best: int | None
    confirm: MatchResult | None

    def point_rows(self) -> list[dict[str, Any]]:
        rows = []
        for k, params in enumerate(self.points):
            row: dict[str, Any] = {"params": {key: _typed(v) for key, v in params.items()}}
            if self.population is None:
                m = self.matches[k].analysed
                row |= {
                    "mirror": self.matches[k].outcome.mirror,  # the point is the opponent: 50% by construction
                    "games": self.matches[k].outcome.games,
                    "games_won": self.matches[k].outcome.a_games_won,
                    "win_rate": m.win_rate,
                    "ci_low": m.ci_low,
                    "ci_high": m.ci_high,
                    "margin": m.margin_mean,
                    "margin_ci_low": m.margin_ci_low,
                    "margin_ci_high": m.margin_ci_high,
                    "p_value": m.p_value,
                }
            else:
                pop = self.population
                row |= {
                    "rating": pop.ratings[k],
                    "rating_ci_low": pop.table.rating_low[k],
                    "rating_ci_high": pop.table.rating_high[k],
                    "nash_weight": pop.nash[k],
                    "exploitability": pop.exploitability[k],
                }
            rows.append(row)
        return rows

    def to_json(self) -> dict[str, Any]:
        found: dict[str, Any] = {
            "policy": self.base,
            "against": self.against,
            "vary": {axis.name: [_typed(v) for v in axis.values] for axis in self.axes},
            "points": self.point_rows(),
        }
        if self.best is not None and self.confirm is not None:
            c = self.confirm.analysed
            found["best"] = {
                "params": {key: _typed(v) for key, v in self.points[self.best].items()},
                "policy": self.confirm.outcome.a_label,
                "grid_win_rate": self.matches[self.best].analysed.win_rate,
                "win_rate": c.win_rate,
                "ci_low": c.ci_low,
                "ci_high": c.ci_high,
                "margin": c.win_rate - 0.5,
                "margin_ci_low": None if c.ci_low is None else c.ci_low - 0.5,
                "margin_ci_high": None if c.ci_high is None else c.ci_high - 0.5,
                "points_margin": c.margin_mean,
                "games": self.confirm.outcome.games,
                "p_value": c.p_value,
            }
        if self.population is not None:
            found["nash"] = [
                {"params": {key: _typed(v) for key, v in self.points[k].items()}, "weight": w}
                for k, w in enumerate(self.population.nash)
                if w > analysis.SUPPORT_WEIGHT
            ]
            found["matrix"] = self.population.to_json()["matrix"]
        return found


def grid(base: str, axes: Sequence[Axis]) -> tuple[list[dict[str, str]], list[str]]:
    """Every grid point's parameters and policy spec (the base spec with the point's values added)."""
    name, _, rest = base.strip().partition(":")
    given = [pair.partition("=")[0].strip().lower() for pair in rest.split(",") if pair.strip()]
    names = [axis.name for axis in axes]
    for axis in axes:
        if axis.name in given:
            raise ExperimentError(f"--vary {axis.name}: --policy {base!r} sets it already")
    if len(set(names)) != len(names):
        twice = next(n for n in names if names.count(n) > 1)
        raise ExperimentError(f"--vary {twice} is given twice")
    total = 1
    for axis in axes:
        total *= len(axis.values)
    if total > MAX_POINTS:
        raise ExperimentError(f"the grid has {total:,} points; at most {MAX_POINTS:,}")
    points = [dict(zip(names, values, strict=True)) for values in itertools.product(*(a.values for a in axes))]
    prefix = f"{name.strip()}:{rest.strip()}," if rest.strip() else f"{name.strip()}:"
    specs = [prefix + ",".join(f"{k}={v}" for k, v in point.items()) for point in points]
    return points, specs


def run_sweep(
    settings: Settings,
    policy: str,
    axes: Sequence[Axis],
    against: str,
    out: Path,
    overwrite: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> SweepResult:
    """Every grid point of ``policy``'s parameters ``axes`` plays a paired match against ``against`` (all on
    the same game seeds), or, against ``self``, against one another. The best point by games won is played
    again against the opponent on fresh seeds: its margin there is the opponent's best-response margin
    within the family (the grid's maximum is biased upward; the fresh games are not)."""
    pairs = _checked(settings)
    if not axes:
        raise ExperimentError("give at least one --vary KEY=VALUES")
    config = two_sided_config(settings.variant, settings.options)
    points, specs = grid(policy, axes)
    for spec in specs:
        try:
            parse_policy(spec)
        except ValueError as exc:
            raise ExperimentError(f"grid point {spec!r}: {exc}") from None
    themselves = against.strip().lower() == SELF
    if themselves and len(specs) < 2:
        raise ExperimentError("--against self needs a grid of at least 2 points")
    if not themselves:
        parse_policy(against)
    name = config.variant.name
    _distinct([label(spec, name) for spec in specs], specs, "grid point")
    rubbers = bool(rubber_wins(config))
    with atomic_dataset(out, overwrite, _replaceable_experiment, _EXPERIMENT_KIND) as root:
        if themselves:
            population = _round_robin(
                specs, settings, root, lambda i, j: f"point-{i + 1:03d}-vs-{j + 1:03d}", SWEEP, config, progress
            )
            result = SweepResult(policy, list(axes), points, specs, SELF, [], population, None, None)
        else:
            matches = [
                Match(spec, against, pairs, settings.seed, f"point-{k + 1:03d}", settings.paired, "sweep point")
                for k, spec in enumerate(specs)
            ]
            results = _play_and_judge(settings, matches, root, rubbers, progress)[1]
            best = max(range(len(results)), key=lambda k: (results[k].analysed.win_rate, -k))
            confirm_match = Match(
                specs[best],
                against,
                pairs,
                fresh_seed(settings.seed, "confirm"),
                "confirm",
                settings.paired,
                "sweep confirmation",
            )
            (confirm,) = _play_and_judge(settings, [confirm_match], root, rubbers, progress)[1]
            result = SweepResult(policy, list(axes), points, specs, against, results, None, best, confirm)
        _write_experiment(root, {"kind": SWEEP, "command": settings.command, **result.to_json()})
    return result
