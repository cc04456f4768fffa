"""Import and export speed: hands per second of ``truc export`` and ``truc import`` on 2-player Catalan Truc.

Makes once (kept under ``data/bench/``, outside git, and reused) a dataset of ``--games`` games with ``truc
simulate`` and its export, the file the imports read. Then, for each number of workers asked, times the
whole ``truc export`` of the dataset and the whole ``truc import`` of the file, each in a fresh process:

- hands per wall-clock second, and per CPU second (the process's and its workers' user and system time:
  other work on a shared machine moves it much less than the wall clock);
- the peak resident memory of the largest process of the command (the driver or one worker);
- the load average of the machine over the run (other work slows the wall clock).

    python bench/import_export_speed.py [--games N] [--workers 1,2] [--cache DIR] [--before DIR]

The export written by each run is compared with the cached one: the same bytes whatever the number of workers.
``--before DIR`` also times another copy of the code (a source tree holding ``pipeline``, compiled there: e.g.
``git archive`` of an older commit with ``make compile`` run in it), each command run by it just before this
one, so that both see the same load; its imported tables are compared with this one's.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pipeline import accel

TRUC = str(Path(sys.executable).with_name("truc"))
CACHE = Path(__file__).resolve().parent.parent / "data" / "bench"

MEASURED = """
import resource, subprocess, sys
done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(done.stderr[-2000:], file=sys.stderr)
print(done.returncode, usage.ru_utime + usage.ru_stime, usage.ru_maxrss)
"""
"""Run a command and print its exit code, the CPU seconds and the largest peak resident memory (kB) of it and
every process it waited for (its workers): a process of its own, so that no other command's figures mix in."""


def measured(command: list[str], code: Path | None = None) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds, peak resident bytes) of ``command``, run by the code of ``code`` (a source
    tree, ahead on ``PYTHONPATH``) when given; its failure ends the benchmark."""
    env = {**os.environ, "PYTHONPATH": str(code)} if code is not None else None
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", MEASURED, *command], capture_output=True, text=True, env=env)
    seconds = time.perf_counter() - started
    code, cpu, peak = done.stdout.split()
    if int(code) != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr}")
    return seconds, float(cpu), int(peak) * 1024


def cached_run(games: int, cache: Path) -> tuple[Path, Path, int]:
    """The dataset, its export and its hands, made once per number of games."""
    data, text = cache / f"catalan2-{games}", cache / f"catalan2-{games}.truc"
    if not (data / "manifest.json").exists():
        cache.mkdir(parents=True, exist_ok=True)
        options = ["--variant", "catalan", "--players", "2", "--games", str(games), "--seed", "1"]
        subprocess.run([TRUC, "simulate", *options, "--out", str(data), "--overwrite", "--quiet"], check=True)
    if not text.exists():
        subprocess.run([TRUC, "export", "--data", str(data), "--out", str(text), "--quiet"], check=True)
    hands = int(json.loads((data / "manifest.json").read_text())["hands"])
    return data, text, hands


def same_tables(before: Path, after: Path) -> None:
    """The two imports wrote the same rows in every table (their parts may be cut elsewhere)."""
    import pyarrow.dataset as ds

    for table in ("games", "hands", "seats", "events"):
        rows = [ds.dataset(str(folder / table), format="parquet").to_table() for folder in (before, after)]
        if not rows[0].equals(rows[1]):
            raise SystemExit(f"the imports differ in table {table}: {before} and {after}")


def takes_workers(command: str) -> bool:
    """Whether ``truc COMMAND`` has a ``--workers`` option (older builds ran on one process)."""
    done = subprocess.run(
        [TRUC, command, "--help"], capture_output=True, text=True, env={**os.environ, "COLUMNS": "200"}
    )
    return "--workers" in done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20_000, help="games of the dataset (default 20,000)")
    parser.add_argument("--workers", default="1,2", help="numbers of workers to time, comma-separated (default 1,2)")
    parser.add_argument(
        "--cache", type=Path, default=CACHE, help=f"where the dataset and its export are kept ({CACHE})"
    )
    parser.add_argument(
        "--before", type=Path, help="a source tree of other code to time beside this one (its pipeline, compiled)"
    )
    args = parser.parse_args()
    data, text, hands = cached_run(args.games, args.cache)
    counts = [int(w) for w in args.workers.split(",")]
    parallel = {command: takes_workers(command) for command in ("export", "import")}
    print(
        f"import and export of {args.games:,} games of 2-player Catalan, {hands:,} hands, "
        f"{text.stat().st_size / 2**20:,.1f} MiB of text; engine {accel.status()}"
    )
    codes: list[tuple[str, Path | None]] = [("after", None)]
    if args.before is not None:
        status = subprocess.run(
            [sys.executable, "-c", "from pipeline import accel; print(accel.status())"],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": str(args.before)},
        ).stdout.strip()
        print(f"before: the code of {args.before}, engine {status}")
        codes.insert(0, ("before", args.before))
    print(
        f"{'command':<8}{'workers':>8}{'seconds':>9}{'hands/s':>10}{'CPU s':>8}{'hands/CPU s':>12}"
        f"{'µs CPU/hand':>12}{'peak MiB':>10}{'load':>6}  code"
    )
    with tempfile.TemporaryDirectory(prefix="truc-import-export-") as folder:
        for workers in counts:
            for command in ("export", "import"):
                for name, code in codes:
                    option = ["--workers", str(workers)] if parallel[command] else []
                    out = Path(folder) / f"{command}-{workers}-{name}"
                    if command == "export":
                        line = [TRUC, "export", "--data", str(data), "--out", str(out), *option, "--quiet"]
                    else:
                        line = [TRUC, "import", str(text), "--out", str(out), *option, "--quiet"]
                    if not option and workers != 1:
                        print(f"{command:<8}{workers:>8}  (no --workers option: runs on one process)  {name}")
                        continue
                    load = os.getloadavg()[0]
                    seconds, cpu, peak = measured(line, code)
                    load = (load + os.getloadavg()[0]) / 2
                    print(
                        f"{command:<8}{workers:>8}{seconds:>9.2f}{hands / seconds:>10,.0f}{cpu:>8.2f}"
                        f"{hands / cpu:>12,.0f}{cpu / hands * 1e6:>12.1f}{peak / 2**20:>10,.0f}{load:>6.2f}  {name}",
                        flush=True,
                    )
                    if command == "export" and out.read_bytes() != text.read_bytes():
                        raise SystemExit(f"the export on {workers} workers differs from the cached export {text}")
                if command == "import" and len(codes) == 2:
                    same_tables(*(Path(folder) / f"import-{workers}-{name}" for name, _ in codes))


if __name__ == "__main__":
    main()
