"""Instructions per hand under valgrind's callgrind: a measure of the work done that the machine's load
does not move, for comparing two builds or two variants exactly.

CPU time on a shared machine drifts by tens of percent within minutes (``variant_ratios.py`` works around
it by interleaving). An instruction count is the same in every run of the same build on the same inputs
(to a few instructions in hundreds of millions, with the string hashes fixed), so a change of a few
percent shows at once. It is not time: a cache miss costs many cycles and counts as
one instruction, so a workload that reads more memory runs slower than its count says. Compare counts of
one build with each other, and confirm a gain in time with ``variant_ratios.py``.

Each variant and player count is played twice under callgrind, ``--games`` and ``2 * --games`` games of
one seed, and the difference is divided by the difference in hands: the start-up (imports, strength tables
read from disk) cancels out. Two measures, threshold bots, as in ``variant_ratios.py``:

- engine: ``play_game`` alone (the engine and the bots);
- pipeline: play, build the rows, turn them into Arrow and write Parquet with zstd.

    python bench/instructions.py [--games N] [VARIANT:PLAYERS ...]   (default: catalan:2 trut:6)

Needs valgrind (Debian's package ``valgrind``); without it, it says so and exits 2.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from pipeline import accel

MEASURES = ("engine", "pipeline")


def workload(measure: str, variant: str, players: int, games: int, out: Path) -> int:
    """Play ``games`` games of seed 3 (and, for the pipeline, write their rows); return the hands played."""
    from pipeline.parts import new_batches, write_batch
    from pipeline.playing import game_seed, play_game
    from pipeline.policies import parse_policy
    from pipeline.rows import add_game
    from pipeline.store import TABLES
    from pipeline.variants import get_variant

    config = get_variant(variant).configure({"players": str(players)})
    policies = [parse_policy("threshold") for _ in range(players)]
    described = [p.describe(variant) for p in policies]
    batches = new_batches()
    hands = 0
    for game_no in range(games):
        game, records = play_game(config, policies, game_seed(3, game_no))
        hands += len(records)
        if measure == "pipeline":
            add_game(batches, game_no, game, records, described, "simulate")
    if measure == "pipeline":
        for name in TABLES:
            write_batch(name, batches[name], out / f"{name}.parquet")
    return hands


def count(measure: str, variant: str, players: int, games: int) -> tuple[int, int]:
    """(hands, instructions) of one run of the workload under callgrind, start-up included."""
    return callgrind([__file__, "--workload", measure, f"{variant}:{players}", "--games", str(games)])


def callgrind(script: list[str], code: Path | None = None) -> tuple[int, int]:
    """(hands, instructions) of ``script`` (a Python script and its arguments, which prints ``HANDS N``) run under
    callgrind, start-up included; by the code of ``code`` (a source tree ahead on ``PYTHONPATH``) when given.
    The script is given ``--out FOLDER``, a temporary folder for what it writes."""
    with tempfile.TemporaryDirectory(prefix="truc-instructions-") as folder:
        command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, *script]
        # String hashes (and so dict probes) the same every run; no bytecode written, so that of the two runs side
        # by side neither compiles a module to .pyc for the other to read (a fresh checkout has none yet).
        env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1"}
        if code is not None:
            env["PYTHONPATH"] = str(code)
        done = subprocess.run([*command, "--out", folder], capture_output=True, text=True, check=True, env=env)
    hands = int(re.search(r"^HANDS (\d+)$", done.stdout, re.MULTILINE).group(1))  # type: ignore[union-attr]
    refs = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if refs is None:
        raise RuntimeError(f"callgrind printed no instruction count:\n{done.stderr[-2000:]}")
    return hands, int(refs.group(1).replace(",", ""))


def warm_strength_tables(variant: str, players: int) -> None:
    """Compute the variant's strength tables here first, so that both runs under callgrind read them from the
    disk cache: run side by side on a cold cache, one run may compute them (a large count) while the other
    reads them, and the difference of the two runs would not be the hands' cost (it came out negative)."""
    from pipeline.strength import strength_table
    from pipeline.variants import get_variant

    config = get_variant(variant).configure({"players": str(players)})
    for size in (1, 3):
        strength_table(config.variant, size, config.opponents)


def per_hand(measure: str, variant: str, players: int, games: int) -> float:
    """Instructions per hand of ``measure``: the two runs, on two cores at once, their start-up cancelled."""
    warm_strength_tables(variant, players)
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = list(pool.map(lambda g: count(measure, variant, players, g), (games, 2 * games)))
    (hands_1, instructions_1), (hands_2, instructions_2) = runs
    return (instructions_2 - instructions_1) / (hands_2 - hands_1)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("runs", nargs="*", default=["catalan:2", "trut:6"], help="VARIANT:PLAYERS")
    parser.add_argument("--games", type=int, default=300, help="games of the shorter run (default 300)")
    parser.add_argument("--workload", choices=MEASURES, help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.workload:  # the child run under callgrind
        variant, players = args.runs[0].split(":")
        print(f"HANDS {workload(args.workload, variant, int(players), args.games, Path(args.out))}")
        return
    if shutil.which("valgrind") is None:
        sys.exit("bench/instructions.py needs valgrind (apt-get install valgrind)")
    print(f"instructions per hand under callgrind, threshold bots, engine {accel.status()}; ratios to the first run")
    print(f"{'variant':<16}{'players':>8} {'engine':>12} {'ratio':>7} {'pipeline':>12} {'ratio':>7}")
    base: list[float] = []
    for run in args.runs:
        variant, players = run.split(":")
        figures = [per_hand(measure, variant, int(players), args.games) for measure in MEASURES]
        base = base or figures
        engine, pipeline = figures
        # a space between columns: over a few games a count can be small or negative, its ratio wide
        print(
            f"{variant:<16}{players:>8} {engine:>12,.0f} {base[0] / engine:>7.2f}"
            f" {pipeline:>12,.0f} {base[1] / pipeline:>7.2f}"
        )


if __name__ == "__main__":
    main()
