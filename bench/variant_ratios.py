"""Speed of every variant and player count relative to 2-player Catalan Truc, robust to a noisy machine.

On a shared machine the speed of one process drifts by tens of percent within minutes, so two figures
taken a minute apart do not compare. Here each variant is measured in short blocks interleaved with
blocks of 2-player Catalan Truc in the same process, and the ratio is the median over the pairs of
blocks: a drift slows both sides of a pair alike.

Two measures, both in the steady state (no start-up), threshold bots, 1 process:

- engine: ``play_game`` alone (the engine and the bots);
- pipeline: what a simulator worker does per chunk: play, build the rows, turn them into Arrow and write
  Parquet with zstd.

It also prints how much a hand holds: its events (rows of the ``events`` table) and its rows in all four
tables, with the pipeline's speed counted in events and in rows rather than hands, relative to 2-player
Catalan. Every stage costs about the same per row whatever the variant, so a variant whose hand writes
twice the rows of a Catalan hand runs at about half its hands/s.

    python bench/variant_ratios.py [--pairs N] [VARIANT:PLAYERS ...]   (default: every variant and count)
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from pipeline import accel
from pipeline.parts import new_batches, write_batch
from pipeline.playing import game_seed, play_game
from pipeline.policies import parse_policy
from pipeline.rows import add_game
from pipeline.store import TABLES
from pipeline.variants import VARIANTS, get_variant

BLOCK_HANDS = 2500  # about 0.03 s of engine for 2-player Catalan: short enough to interleave finely


class Runner:
    """One variant and player count, with its bots; plays blocks of games from a running game number."""

    def __init__(self, variant: str, players: int, out: Path) -> None:
        self.config = get_variant(variant).configure({"players": str(players)})
        self.policies = [parse_policy("threshold") for _ in range(players)]
        self.described = [p.describe(variant) for p in self.policies]
        self.out = out
        self.next_game = 0
        self.events = 0  # rows of the events table written by the pipeline blocks, rows of all four, hands
        self.rows = 0
        self.hands = 0
        self.games_per_block = 50
        for _ in range(3):  # warm-up, and size the blocks to about BLOCK_HANDS hands
            hands = self.engine()
            self.games_per_block = max(10, round(self.games_per_block * BLOCK_HANDS / hands))

    def _games(self) -> range:
        first = self.next_game
        self.next_game += self.games_per_block
        return range(first, self.next_game)

    def engine(self) -> int:
        return sum(len(play_game(self.config, self.policies, game_seed(1, g))[1]) for g in self._games())

    def pipeline(self) -> int:
        batches = new_batches()
        hands = 0
        for g in self._games():
            game, records = play_game(self.config, self.policies, game_seed(1, g))
            hands += add_game(batches, g, game, records, self.described, "simulate")
        for name in TABLES:
            write_batch(name, batches[name], self.out / f"{name}.parquet")
        self.events += len(batches["events"])
        self.rows += sum(len(batches[name]) for name in TABLES)
        self.hands += hands
        return hands

    def events_per_hand(self) -> float:
        return self.events / self.hands if self.hands else 0.0

    def rows_per_hand(self) -> float:
        return self.rows / self.hands if self.hands else 0.0


def speed(block: Callable[[], int]) -> float:
    """Hands per CPU second of one block."""
    started = time.process_time()
    hands = block()
    return hands / (time.process_time() - started)


class Ratio(NamedTuple):
    """A variant's speed relative to the base over interleaved pairs of blocks: the median ratio, its lower
    and upper quartiles (how far a single pair strays: a goal such as "at least half the speed" is met
    clearly when the lower quartile meets it), and the median hands/cpu-s of each side."""

    median: float
    low: float
    high: float
    base_speed: float
    other_speed: float

    def spread(self) -> str:
        return f"{self.low:.2f}-{self.high:.2f}"


def median_ratio(base: Runner, other: Runner, measure: str, pairs: int) -> Ratio:
    """The ratio over ``pairs`` interleaved blocks, the base first in one pair and second in the next (the
    order of a pair can favour one side)."""
    ratios, base_speeds, other_speeds = [], [], []
    for k in range(pairs):
        if k % 2:
            o = speed(getattr(other, measure))
            b = speed(getattr(base, measure))
        else:
            b = speed(getattr(base, measure))
            o = speed(getattr(other, measure))
        ratios.append(o / b)
        base_speeds.append(b)
        other_speeds.append(o)
    low, _, high = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else (ratios[0],) * 3
    return Ratio(statistics.median(ratios), low, high, statistics.median(base_speeds), statistics.median(other_speeds))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("runs", nargs="*", help="VARIANT:PLAYERS (default: every variant and player count)")
    parser.add_argument("--pairs", type=int, default=16, help="interleaved pairs of blocks per figure (default 16)")
    args = parser.parse_args()
    runs = args.runs or [f"{name}:{players}" for name, v in VARIANTS.items() for players in sorted(v.players)]
    with tempfile.TemporaryDirectory(prefix="truc-ratios-") as folder:
        report(runs, args.pairs, Path(folder))


def report(runs: list[str], pairs: int, out: Path) -> None:
    base = Runner("catalan", 2, out)
    print(
        f"median of {pairs} interleaved pairs of blocks, threshold bots, engine {accel.status()}; "
        "the quartiles of the pairs' ratios in the last two columns"
    )
    columns = (
        f"{'engine ratio':>14}{'hands/cpu-s':>13}{'pipeline ratio':>16}{'hands/cpu-s':>13}"
        f"{'events/hand':>13}{'events/s ratio':>16}{'rows/hand':>11}{'rows/s ratio':>14}"
        f"{'engine quartiles':>18}{'pipeline quartiles':>20}"
    )
    print(f"{'variant':<16}{'players':>8}{columns}")
    for run in runs:
        variant, players = run.split(":")
        other = Runner(variant, int(players), out)
        engine = median_ratio(base, other, "engine", pairs)
        pipeline = median_ratio(base, other, "pipeline", pairs)
        per_hand = other.events_per_hand()
        by_events = pipeline.median * per_hand / base.events_per_hand()
        rows = other.rows_per_hand()
        by_rows = pipeline.median * rows / base.rows_per_hand()
        print(
            f"{variant:<16}{players:>8}{engine.median:>14.2f}{engine.other_speed:>13,.0f}"
            f"{pipeline.median:>16.2f}{pipeline.other_speed:>13,.0f}"
            f"{per_hand:>13.1f}{by_events:>16.2f}{rows:>11.1f}{by_rows:>14.2f}"
            f"{engine.spread():>18}{pipeline.spread():>20}"
        )


if __name__ == "__main__":
    main()
