"""How far the ``cfr`` bot's training converges, measured exactly on a small variant (docs/equilibrium.md, "The
abstraction's convergence"):

    python -m pipeline.openspiel.convergence --out docs/equilibrium --seed 1

The full deck's abstract game is out of reach, the reduced deck's is not. So the same training as ``truc
train`` (``mccfr.train_policy``: external-sampling MCCFR over the ``cfr`` abstraction, one 2-player hand from
0-0) runs on the small variant (the 8-card Trut by default), its policy file taken after each of
``iterations`` (one training, continued: each file is what ``truc train --iterations N`` with that seed
writes), and the tree of one hand is exported once (``solve.export_tree``) with every file as a bot, through
its ``probabilities``, and with the abstraction's keys. For each file:

- its **exploitability in the real game**: the exact best response of ``solve.py``, which sees each seat's
  information state;
- its **exploitability in the abstract game**: the best response that sees only the abstraction's keys and
  chooses among its abstract actions (``GameTree.abstract_response`` with the abstraction's ``Grouping``).
  It plays a strategy of the real game, so it never exceeds the first. The abstraction does not always
  recall the seat's own earlier choices (``Grouping.recall_breaks``); where it does not, the response found
  by backward induction (with its further passes) is a strategy within the abstraction, not always the best
  one, and this figure a lower bound on the abstract game's exploitability.

The bots (``--bot``, the random and threshold bots by default) are measured on the same tree. It writes to
``out`` ``convergence.json`` (every number), ``convergence.csv`` (the curve) and ``convergence.png`` /
``.svg`` (the chart, with CFR+'s end point from ``figures.json`` in the same folder when it is there).

It writes as ``truc equilibrium`` does (``figures.figures_folder``): ``out`` is checked before the training
starts (a new folder, an empty one, or one holding the figures of an earlier ``truc equilibrium``, as
``docs/equilibrium`` does, or an earlier curve; anything else is refused), the four files are made in a temporary
folder beside it, and at the end a new ``out`` is that folder moved in whole, an
existing one receives the four files, replacing an earlier curve's and keeping its other files. An interrupted
or failed run leaves ``out`` as it was. The policy files and the tree are made in a temporary folder of the
system's, removed at the end.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import altair as alt

from pipeline import filesystem, store
from pipeline.openspiel.bots import state_abstraction, state_policy
from pipeline.openspiel.figures import (
    SMALL_OPTIONS,
    Figures,
    figures_folder,
    holds_record,
    interrupted_line,
    load_small_game,
    setting_name,
    write_measure,
)
from pipeline.openspiel.mccfr import TrainConfig, train_policy
from pipeline.openspiel.solve import StatePolicy, export_tree
from pipeline.policies import parse_policy
from pipeline.policies.cfr import Abstraction, CfrPolicy

DEFAULT_ITERATIONS: tuple[int, ...] = (1_000, 3_000, 10_000, 30_000, 100_000, 300_000)
DEFAULT_BOTS: tuple[str, ...] = ("random", "threshold")
ABSTRACTION = "cfr"
CURVE_KIND = (
    "an empty folder or one holding the figures of an earlier truc equilibrium (figures.json) or an earlier curve "
    "(convergence.json)"
)


@dataclass
class Point:
    """One policy file of the training, measured."""

    iterations: int
    training_seconds: float  # the training's time up to this point
    states: int  # abstract states in the policy file
    real: float  # exploitability in the real game, points per hand
    abstract: float  # exploitability against a best response that sees only the abstraction's keys
    fallback_share: float  # of the tree's decisions (histories, unweighted) the file left to its fallback


@dataclass
class Convergence:
    """Everything ``convergence_curve`` measured. Exploitabilities in points per hand (petits in the trut
    family)."""

    game: str
    variant: str
    options: dict[str, str]
    seed: int
    min_visits: int
    points: list[Point] = field(default_factory=list)
    bots: dict[str, float] = field(default_factory=dict)
    histories: int = 0
    abstract_keys: int = 0  # the abstraction's keys over the tree (per depth)
    recall_breaks: list[int] = field(default_factory=list)  # per player: keys where its recall fails
    split_keys: int = 0
    export_seconds: float = 0.0

    def lines(self) -> list[str]:
        out = [
            f"{self.game}: {self.histories:,} histories, {self.abstract_keys:,} abstract keys (their own choices "
            f"forgotten at {' + '.join(f'{n:,}' for n in self.recall_breaks)} of them; tree exported in "
            f"{self.export_seconds:.0f} s)"
        ]
        out += [
            f"{p.iterations:>9,} iterations ({p.training_seconds:6.1f} s, {p.states:,} states): exploitability "
            f"{p.real:.4f} real, {p.abstract:.4f} abstract; fallback at {100 * p.fallback_share:.1f}% of decisions"
            for p in self.points
        ]
        out += [f"{spec}: exploitability {value:.4f}" for spec, value in self.bots.items()]
        return out


def convergence_curve(
    variant: str,
    options: Mapping[str, str],
    iterations: Sequence[int],
    seed: int,
    out: Path,
    min_visits: int = 1,
    bots: Sequence[str] = DEFAULT_BOTS,
    say: Callable[[str], None] | None = None,
    root: Any = None,
) -> Convergence:
    """Train, measure and write the curve (the module docstring); ``root``: measure on the tree under this
    state of the small game instead of the whole hand (a test's single deal). Every input is checked, ``out``
    last, before the training starts; the files are made aside and moved in at the end (``figures_folder``)."""
    tell = say or (lambda _: None)
    counts = sorted(set(iterations))
    if not counts or counts[0] < 1:
        raise ValueError(f"iterations {list(iterations)}: give one or more counts of at least 1")
    game = load_small_game(variant, 2, options)
    bot_policies = {spec: parse_policy(spec) for spec in bots}
    with figures_folder(out, _holds_figures_or_curve, CURVE_KIND) as made:
        end = cfr_plus_end(out)
        result = _measured(game, variant, options, counts, seed, min_visits, bot_policies, tell, root)
        write_convergence(result, made, end)
    return result


def _measured(
    game: Any,
    variant: str,
    options: Mapping[str, str],
    counts: Sequence[int],
    seed: int,
    min_visits: int,
    bots: Mapping[str, Any],
    tell: Callable[[str], None],
    root: Any,
) -> Convergence:
    """The training's policy files after each of ``counts`` iterations, and the bots, measured on the tree of
    ``game`` (``convergence_curve``; ``bots``: each spec's policy); its files in a temporary folder, removed
    before it returns."""
    result = Convergence(str(game), variant, dict(options), seed, min_visits)
    with tempfile.TemporaryDirectory(prefix="truc-convergence-") as work:
        folder = Path(work)
        trained = folder / "policy.json.gz"
        files: dict[int, Path] = {}
        seconds = 0.0
        states: dict[int, int] = {}
        clock: dict[int, float] = {}
        for n in counts:
            config = TrainConfig(
                variant, tuple(sorted({**options, "players": "2"}.items())), n, seed, Abstraction(), None, min_visits
            )
            done = train_policy(config, trained)  # continues the same training from its checkpoint
            seconds += done.seconds
            files[n] = folder / f"policy-{n}.json.gz"
            shutil.copyfile(trained, files[n])
            states[n] = done.written
            clock[n] = seconds
            tell(f"trained {n:,} iterations ({seconds:.1f} s)")
        players = {n: CfrPolicy(path) for n, path in files.items()}
        measured: dict[str, StatePolicy] = {f"cfr {n}": state_policy(p) for n, p in players.items()}
        measured.update({spec: state_policy(policy) for spec, policy in bots.items()})
        tell(f"exporting the tree of {game}")
        tree = export_tree(
            game,
            folder / "tree.efg",
            measured,
            root=root,
            progress=lambda h: tell(f"{h:,} histories") if h % 100_000 == 0 else None,
            abstractions={ABSTRACTION: state_abstraction(Abstraction())},
        )
    arrays = tree.arrays
    assert arrays is not None
    grouping = tree.groupings[ABSTRACTION]
    result.histories = tree.histories
    result.abstract_keys = grouping.keys
    result.recall_breaks = [grouping.recall_breaks(arrays, p) for p in (0, 1)]
    result.split_keys = grouping.split_keys
    result.export_seconds = tree.seconds
    for n, player in players.items():
        strategy = tree.bot_strategies[f"cfr {n}"]
        share = player.fallbacks / player.decisions if player.decisions else 0.0
        point = Point(
            n, clock[n], states[n], arrays.exploitability(strategy), arrays.exploitability(strategy, grouping), share
        )
        result.points.append(point)
        tell(f"{n:,} iterations: exploitability {point.real:.4f} real, {point.abstract:.4f} abstract")
    for spec in bots:
        result.bots[spec] = arrays.exploitability(tree.bot_strategies[spec])
    return result


def _holds_figures_or_curve(folder: Path) -> bool:
    """Whether ``folder`` holds an earlier ``truc equilibrium``'s figures or an earlier curve: what a run may
    write into (``CURVE_KIND``)."""
    return holds_record(folder, "figures.json", Figures) or holds_record(folder, "convergence.json", Convergence)


def cfr_plus_end(out: Path) -> tuple[int, float] | None:
    """CFR+'s last point (iterations, exploitability) in the ``figures.json`` of the folder ``out``, when it has
    one (``truc equilibrium``'s)."""
    figures = out / "figures.json"
    cfr_plus = json.loads(figures.read_text("utf-8")).get("cfr_plus") if figures.is_file() else None
    return None if not cfr_plus else (int(cfr_plus[-1][0]), float(cfr_plus[-1][1]))


def write_convergence(result: Convergence, out: Path, end: tuple[int, float] | None = None) -> None:
    """The curve's four files in the folder ``out``; ``end``, CFR+'s end point, drawn as a rule on the chart."""
    write_measure(
        out, "convergence", result, "convergence", ["iterations", "training_seconds", "real", "abstract"],
        ([p.iterations, round(p.training_seconds, 1), p.real, p.abstract] for p in result.points),
        "convergence", convergence_chart(result, end),
    )  # fmt: skip


def convergence_chart(result: Convergence, cfr_plus_end: tuple[int, float] | None) -> alt.TopLevelMixin:
    """Both exploitabilities against the training's iterations (log-log); each bot's, and CFR+'s end point,
    as a horizontal rule."""
    rows = [
        {"iterations": p.iterations, "exploitability": value, "best response": seen}
        for p in result.points
        for seen, value in (("real game", p.real), ("abstract game (a lower bound)", p.abstract))
        if value > 0
    ]
    rules = [{"reference": spec, "exploitability": v} for spec, v in result.bots.items()]
    if cfr_plus_end is not None:
        rules.append({"reference": f"CFR+, {cfr_plus_end[0]:,} iterations", "exploitability": cfr_plus_end[1]})
    y = alt.Y("exploitability:Q", scale=alt.Scale(type="log"), title="exploitability (points per hand)")
    lines = (
        alt.Chart(alt.Data(values=rows))
        .mark_line(point=True)
        .encode(
            x=alt.X("iterations:Q", scale=alt.Scale(type="log"), title="MCCFR iterations (truc train)"),
            y=y,
            color=alt.Color("best response:N", title="best response in the"),
        )
    )
    marks = (
        alt.Chart(alt.Data(values=rules))
        .mark_rule(strokeDash=[4, 3])
        .encode(y=y, strokeDash=alt.StrokeDash("reference:N", title="reference"))
    )
    title = f"{setting_name(result.variant, result.options)}: the cfr bot's training, measured exactly"
    return alt.layer(lines, marks).resolve_scale(color="independent").properties(title=title, width=520, height=340)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--variant", default="trut")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--iterations", type=int, nargs="+", default=list(DEFAULT_ITERATIONS))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--min-visits", type=int, default=1)
    parser.add_argument("--bot", action="append", default=[])
    args = parser.parse_args(argv)
    pairs = [o.split("=", 1) for o in args.option]
    if any(len(p) != 2 for p in pairs):
        parser.error(f"--option takes KEY=VALUE, not {args.option}")
    options = dict(pairs) if pairs else dict(SMALL_OPTIONS.get(args.variant, {}))
    started = time.perf_counter()
    before = filesystem.identity(args.out / "convergence.json")
    try:
        result = convergence_curve(
            args.variant,
            options,
            args.iterations,
            args.seed,
            args.out,
            args.min_visits,
            tuple(args.bot) or DEFAULT_BOTS,
            say=lambda line: print(line, flush=True),
        )
    except (ValueError, store.DatasetError) as exc:
        parser.exit(2, f"error: {exc}\n")
    except KeyboardInterrupt:  # one that came while the files moved in was held until all four had
        parser.exit(130, f"error: {interrupted_line(args.out, before, 'convergence.json', 'the curve')}\n")
    for line in result.lines():
        print(line)
    print(f"written to {args.out} in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
