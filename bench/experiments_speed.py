"""Experiment speed, and what pairing buys: the figures of docs/speed.md and docs/experiments.md.

- a 10,000-game 2-player Catalan match of threshold bots on 2 workers (target: under 30 s);
- a 5 x 5 sweep of 2,000 games per point on 2 workers (target: under 5 minutes);
- the variance of a match's pair scores, paired and unpaired, and the pairs each needs to resolve a
  difference of 1 point of win rate at 5% significance and 80% power.

Each command runs as a whole process (start-up included), timed by the wall clock.

    python bench/experiments_speed.py [--skip-sweep] [--workers W]
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

from pipeline import accel
from pipeline.experiments.analysis import paired_match, pairs_needed

TRUC = str(Path(sys.executable).with_name("truc"))


def timed(args: list[str]) -> tuple[float, dict[str, object]]:
    """(wall seconds, the JSON it printed) of one truc command."""
    started = time.perf_counter()
    done = subprocess.run([TRUC, *args, "--quiet", "--format", "json"], capture_output=True, text=True, check=True)
    return time.perf_counter() - started, json.loads(done.stdout)


def pair_scores(out: Path) -> tuple[list[int], list[float]]:
    """The pairs' scores and margins of a match dataset, read back from its games table."""
    import polars as pl

    games = pl.read_parquet(out / "games" / "*.parquet").sort("game_id")
    scores, margins = [], []
    rows = games.select("game_id", "winner_team", "score_team0", "score_team1").rows()
    for first, second in zip(rows[::2], rows[1::2], strict=True):
        # A holds team 0 in the first game of a pair and team 1 in the second
        scores.append(int(first[1] == 0) + int(second[1] == 1))
        margins.append(((first[2] - first[3]) + (second[3] - second[2])) / 2)
    return scores, margins


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-sweep", action="store_true", help="only the match and the pairing figures")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    load = os.getloadavg()[0]
    print(f"engine {accel.status()}; load average {load:.2f} on {os.cpu_count()} cores; {args.workers} workers")
    root = Path(tempfile.mkdtemp(prefix="truc-bench-exp-"))
    workers = ["--workers", str(args.workers)]
    try:
        match = ["match", "--variant", "catalan", "--players", "2", "--games", "10000", "--seed", "7", *workers]
        seconds, found = timed([*match, "--a", "threshold:bluff=0.2", "--b", "threshold", "--out", str(root / "m")])
        print(f"match, 10,000 games of 2-player Catalan: {seconds:.1f} s (target 30 s)")
        print(f"  A's win rate {found['a']['win_rate']:.4f}, variance ratio {found['variance_ratio']:.2f}")  # type: ignore[index]
        unpaired = [*match, "--a", "threshold:bluff=0.2", "--b", "threshold", "--unpaired", "--out", str(root / "u")]
        timed(unpaired)
        for name, folder in (("paired", root / "m"), ("unpaired", root / "u")):
            scores, margins = pair_scores(folder)
            analysed = paired_match(scores, margins)
            variance = analysed.pair_variance or 0.0
            print(
                f"  {name}: variance of a pair's score / 2 = {variance:.4f}, pairs to resolve 1 point of win rate "
                f"(5%, 80% power): {pairs_needed(variance):,}"
            )
        if not args.skip_sweep:
            sweep = [
                "sweep", "--variant", "catalan", "--players", "2", "--games", "2000", "--seed", "1", *workers,
                "--vary", "raise_at=0.5:0.9:0.1", "--vary", "call_at=0.3:0.7:0.1", "--against", "threshold",
                "--out", str(root / "s"),
            ]  # fmt: skip
            seconds, found = timed(sweep)
            best = found["best"]  # type: ignore[index]
            print(f"sweep, 5 x 5 points of 2,000 games (and the best point again): {seconds:.1f} s (target 300 s)")
            print(f"  best point {best['params']}: best-response margin {best['margin']:+.4f}")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
