"""Where the time of ``truc simulate`` goes, per hand: the engine and bots, the rows, Arrow, Parquet.

Plays chunks of 250 games as the simulator does (each game's rows built right after it is played, then
the chunk turned into Arrow and written as Parquet with zstd), after a warm-up of 12 chunks, and prints
the CPU microseconds per hand of each stage and the steady-state hands per CPU second of one worker
(a long run's speed, without start-up).

    python bench/hand_costs.py [--chunks N] [--warm-up N] [VARIANT:PLAYERS ...]
                                               (default: catalan:2 trut:6 valencian:4 french:4)
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from pipeline import accel
from pipeline.engine.rules import Config
from pipeline.parts import new_batches, write_arrow
from pipeline.playing import game_seed, play_game
from pipeline.policies import parse_policy
from pipeline.policies.base import Policy
from pipeline.rows import add_game
from pipeline.store import TABLES
from pipeline.variants import get_variant

CHUNK = 250


def measure(variant: str, players: int, chunks: int = 16, warm_up: int = 12) -> list[float]:
    """CPU seconds per hand of [engine, rows, arrow, parquet]."""
    config = get_variant(variant).configure({"players": str(players)})
    policies = [parse_policy("threshold") for _ in range(players)]
    described = [p.describe(variant) for p in policies]
    with tempfile.TemporaryDirectory(prefix="truc-costs-") as folder:
        return _measure(config, policies, described, Path(folder), chunks, warm_up)


def _measure(
    config: Config, policies: list[Policy], described: list[str], out: Path, chunks: int, warm_up: int
) -> list[float]:
    clock = time.process_time
    totals = [0.0] * 4
    hands = 0
    for k in range(warm_up + chunks):
        first = k * CHUNK + (0 if k >= warm_up else 10**6)  # the warm-up plays other games
        spent = [0.0] * 4
        batches = new_batches()
        count = 0
        for game_no in range(first, first + CHUNK):
            started = clock()
            game, records = play_game(config, policies, game_seed(1, game_no))
            played = clock()
            count += add_game(batches, game_no, game, records, described, "simulate")
            spent[0] += played - started
            spent[1] += clock() - played
        started = clock()
        tables = {name: batches[name].to_arrow() for name in TABLES}
        spent[2] += clock() - started
        started = clock()
        for name in TABLES:
            write_arrow(name, tables[name], out / f"{name}.parquet")
        spent[3] += clock() - started
        if k >= warm_up:
            totals = [a + b for a, b in zip(totals, spent, strict=True)]
            hands += count
    return [t / hands for t in totals]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("runs", nargs="*", default=["catalan:2", "trut:6", "valencian:4", "french:4"])
    parser.add_argument("--chunks", type=int, default=16, help="chunks measured (default 16)")
    parser.add_argument("--warm-up", type=int, default=12, help="chunks played first, not measured (default 12)")
    args = parser.parse_args()
    print(f"µs of CPU per hand, threshold bots, chunks of {CHUNK} games, engine {accel.status()}")
    print(
        f"{'variant':<16}{'players':>8}{'engine':>8}{'rows':>7}{'arrow':>7}{'parquet':>8}{'total':>7}{'hands/cpu-s':>13}"
    )
    for run in args.runs:
        variant, players = run.split(":")
        costs = [c * 1e6 for c in measure(variant, int(players), args.chunks, args.warm_up)]
        total = sum(costs)
        figures = "".join(f"{c:>{w}.1f}" for c, w in zip(costs, (8, 7, 7, 8), strict=True))
        print(f"{variant:<16}{players:>8}{figures}{total:>7.1f}{1e6 / total:>13,.0f}")


if __name__ == "__main__":
    main()
