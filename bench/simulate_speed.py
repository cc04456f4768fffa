"""Simulation speed: hands per second for 2 and 4 players, 1 and 2 workers, with and without Parquet.

"with Parquet" times the whole `truc simulate` command in a fresh process (start-up, strength tables,
workers, writing the dataset); "without Parquet" times the engine and the bots alone (`play_game`) in
this process. Machines are noisy: compare the figures of one run with each other.

    python bench/simulate_speed.py [--games N]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pipeline.policies import parse_policy
from pipeline.simulate import game_seed, play_game
from pipeline.strength import strength_table
from pipeline.variants import CATALAN

TRUC = str(Path(sys.executable).with_name("truc"))


def whole_command(players: int, workers: int, games: int) -> float:
    out = Path(tempfile.mkdtemp(prefix="truc-bench-")) / "data"
    try:
        started = time.perf_counter()
        subprocess.run(
            [TRUC, "simulate", "--variant", "catalan", "--players", str(players), "--games", str(games),
             "--seed", "1", "--policy", "threshold", "--workers", str(workers), "--out", str(out), "--quiet"],
            check=True, stdout=subprocess.DEVNULL,
        )
        seconds = time.perf_counter() - started
        hands = json.loads((out / "manifest.json").read_text())["hands"]
        return hands / seconds
    finally:
        shutil.rmtree(out.parent, ignore_errors=True)


def engine_only(players: int, games: int) -> float:
    config = CATALAN.configure({"players": str(players)})
    policies = [parse_policy("threshold") for _ in range(players)]
    strength_table(CATALAN, 3), strength_table(CATALAN, 1)
    started = time.perf_counter()
    hands = sum(len(play_game(config, policies, game_seed(1, g))[1]) for g in range(games))
    return hands / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    games = parser.parse_args().games
    print(f"catalan, threshold bots, {games} games per figure, {os.cpu_count()} cores")
    print(f"{'players':>7} {'workers':>7} {'parquet':>8} {'hands/s':>10} {'hands/s/worker':>15}")
    for players in (2, 4):
        rate = engine_only(players, games)
        print(f"{players:>7} {1:>7} {'no':>8} {rate:>10,.0f} {rate:>15,.0f}")
        for workers in (1, 2):
            rate = whole_command(players, workers, games)
            print(f"{players:>7} {workers:>7} {'yes':>8} {rate:>10,.0f} {rate / workers:>15,.0f}")


if __name__ == "__main__":
    main()
