"""Simulation speed: hands per second for every variant and player count.

Two measures:

- "engine": the engine and the threshold bots alone (``play_game``), in this process, no rows written;
- "command": the whole ``truc simulate`` command in a fresh process (start-up, strength tables, workers,
  rows, Parquet, manifest), for 1 and 2 workers.

Each figure is given per wall-clock second and per CPU second (the CPU time of the process and its
workers): the CPU figure is the per-core speed and is much less disturbed by other work on the machine.
Machines are noisy: compare the figures of one run with each other (the last column is the ratio to
2-player Catalan Truc in the same run, for the engine and for the command on 1 worker).

    python bench/simulate_speed.py [--games N] [--variants catalan,french,...] [--no-command]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pipeline import accel
from pipeline.policies import parse_policy
from pipeline.simulate import game_seed, play_game
from pipeline.strength import strength_table
from pipeline.variants import VARIANTS

TRUC = str(Path(sys.executable).with_name("truc"))


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def whole_command(variant: str, players: int, workers: int, games: int) -> tuple[float, float]:
    """(hands per wall second, hands per CPU second) of one `truc simulate` run."""
    out = Path(tempfile.mkdtemp(prefix="truc-bench-")) / "data"
    try:
        cpu = children_cpu()
        started = time.perf_counter()
        subprocess.run(
            [
                TRUC,
                "simulate",
                "--variant",
                variant,
                "--players",
                str(players),
                "--games",
                str(games),
                "--seed",
                "1",
                "--policy",
                "threshold",
                "--workers",
                str(workers),
                "--out",
                str(out),
                "--quiet",
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        wall = time.perf_counter() - started
        cpu = children_cpu() - cpu
        hands = json.loads((out / "manifest.json").read_text())["hands"]
        return hands / wall, hands / cpu
    finally:
        shutil.rmtree(out.parent, ignore_errors=True)


def engine_only(variant: str, players: int, games: int, repeats: int = 3) -> tuple[float, float]:
    """(hands per wall second, hands per CPU second) of the engine and bots alone, in the steady state: after
    a warm-up of ``games // 5`` games (which fills the per-process strength caches), the best of
    ``repeats`` runs (the least disturbed by other work on the machine)."""
    rules = VARIANTS[variant]
    config = rules.configure({"players": str(players)})
    policies = [parse_policy("threshold") for _ in range(players)]
    for size in (1, 3):
        strength_table(rules, size, config.opponents)
    for g in range(games, games + games // 5):
        play_game(config, policies, game_seed(2, g))
    best = (0.0, 0.0)
    for _ in range(repeats):
        cpu, started = time.process_time(), time.perf_counter()
        hands = sum(len(play_game(config, policies, game_seed(1, g))[1]) for g in range(games))
        figures = hands / (time.perf_counter() - started), hands / (time.process_time() - cpu)
        best = max(best, figures, key=lambda f: f[1])
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=3000, help="games per figure (default 3000)")
    parser.add_argument("--variants", default=",".join(VARIANTS), help="comma-separated variants")
    parser.add_argument("--no-command", action="store_true", help="skip the whole-command figures")
    args = parser.parse_args()
    games = args.games
    print(f"threshold bots, {games} games per figure, {os.cpu_count()} cores, engine {accel.status()}")
    header = f"{'variant':<16}{'players':>8}{'measure':>10}{'workers':>8}{'hands/s':>11}{'hands/cpu-s':>13}{'ratio':>7}"
    print(header)
    print("-" * len(header))
    baseline = command_baseline = None
    for name in args.variants.split(","):
        for players in VARIANTS[name].players:
            wall, cpu = engine_only(name, players, games)
            if baseline is None:
                baseline = cpu  # the first figure: 2-player catalan by default
            print(f"{name:<16}{players:>8}{'engine':>10}{1:>8}{wall:>11,.0f}{cpu:>13,.0f}{cpu / baseline:>7.2f}")
            if args.no_command:
                continue
            for workers in (1, 2):
                wall, cpu = whole_command(name, players, workers, games)
                if command_baseline is None:
                    command_baseline = cpu
                ratio = f"{cpu / command_baseline:>7.2f}" if workers == 1 else f"{'':>7}"
                print(f"{name:<16}{players:>8}{'command':>10}{workers:>8}{wall:>11,.0f}{cpu:>13,.0f}{ratio}")


if __name__ == "__main__":
    main()
