"""Every statistic, timed as a whole ``truc stats`` process, beside a reference query hand-written in DuckDB.

Usage: ``python bench/stats_speed.py [--hands N] [--runs 3] [--only NAME ...] [--data DIR] [--check]``

The data is a 2-player Catalan run of about ``--hands`` hands (10 million by default) by threshold bots, built
once by ``truc simulate`` and kept under ``data/bench/`` (outside git) for the next runs; a dataset without
current tallies (``pipeline.tallies``: written before them, or before the statistics' SQL last changed) gets them
first from ``truc upgrade``, whose time is printed (what writing them costs). For each statistic, ``truc stats
NAME --data DIR --format csv`` (which reads the dataset's tally), the same with ``--from-rows`` (which reads the
rows, as the reference does; left out with ``--skip-rows``) and its reference, ``bench/reference/NAME.sql`` run
by DuckDB in a process of its own over the dataset's tables (``--reference``, below), are each run once to warm
the page cache, then ``--runs`` times in turn (so that a change in the machine's load falls on all), and their
median wall time and their largest peak resident memory are shown side by side. The machine's load average is
printed before and after: on a shared machine, compare the ratios within one run. The package's bytecode is
written first (``compileall``), as an install writes it: where ``PYTHONDONTWRITEBYTECODE`` is set and no
``__pycache__`` is there, every ``truc stats`` would compile its modules again, about a tenth of a second of the
half second it takes.

A reference reads the files by glob (``getvariable('data') || '/events/*.parquet'``) and answers the statistic's
question for this data (one variant, simulated bots) in the most direct DuckDB it can, every output column of the
statistic computed; the variant statistics that do not count Catalan (``envit``, ``trut``, ``french``) look for
their variant in the games and find none. ``--check`` compares each statistic's rows with its reference's (sorted,
numbers to 9 significant digits) instead of timing: the review that the two answer the same question.
``--memory-check`` runs each statistic in this process under ``stats.DUCKDB_MEMORY`` without the second try of
``stats.compute`` (which runs a statistic that runs out again under DuckDB's default limit) and says which run
out: those that still need that fallback.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "bench" / "reference"
HANDS_PER_GAME = 14.06
"""Hands in a 2-player Catalan game between threshold bots, on average: what turns ``--hands`` into games."""


def _truc() -> str:
    """The ``truc`` beside this Python (the project's ``.venv``)."""
    return str(Path(sys.executable).with_name("truc"))


def build(hands: int, folder: Path) -> None:
    """Simulate the dataset once; an existing folder is kept."""
    if (folder / "manifest.json").is_file():
        return
    games = max(1, round(hands / HANDS_PER_GAME))
    command = [_truc(), "simulate", "--variant", "catalan", "--players", "2", "--games", str(games)]
    command += ["--seed", "7", "--out", str(folder), "--quiet"]
    print(f"building {folder}: {' '.join(command)}", flush=True)
    subprocess.run(command, check=True)


def tally(folder: Path) -> None:
    """Write the dataset's tallies with ``truc upgrade`` when they are not current, and say how long it took."""
    sys.path.insert(0, str(ROOT))
    from pipeline import tallies

    if tallies.current(folder):
        return
    started = time.perf_counter()
    subprocess.run([_truc(), "upgrade", "--data", str(folder)], check=True)
    print(f"{folder}: tallies written by truc upgrade in {time.perf_counter() - started:.1f} s", flush=True)


def timed(command: list[str]) -> tuple[float, int]:
    """Run ``command`` (its output discarded); its wall time in seconds and its peak resident memory in bytes."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    error = process.stderr.read().decode() if process.stderr else ""
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise SystemExit(f"{' '.join(command)} failed ({process.returncode}): {error.strip()}")
    return seconds, usage.ru_maxrss * 1024


def run_reference(name: str, data: Path) -> None:
    """The ``--reference`` mode: run ``bench/reference/NAME.sql`` over ``data`` and fetch every row."""
    import duckdb

    with duckdb.connect() as con:
        con.execute("set variable data = $data", {"data": str(data)})
        con.execute((REFERENCE / "_common.sql").read_text("utf-8"))
        rows = con.sql((REFERENCE / f"{name}.sql").read_text("utf-8")).fetchall()
    print(len(rows))


def check(name: str, data: Path, truc: list[str]) -> list[str]:
    """How the output of ``truc stats NAME`` differs from its reference's rows (empty when they agree): the
    same rows, compared as sorted text, numbers to 9 significant digits (the reference's column names are its
    own; its columns are the statistic's, in order)."""
    import duckdb

    output = subprocess.run([*truc, "stats", name, "--data", str(data), "--format", "json"], capture_output=True)
    ours = [tuple(row.values()) for row in json.loads(output.stdout or b"[]")]
    with duckdb.connect() as con:
        con.execute("set variable data = $data", {"data": str(data)})
        con.execute((REFERENCE / "_common.sql").read_text("utf-8"))
        theirs = con.sql((REFERENCE / f"{name}.sql").read_text("utf-8")).fetchall()

    def text(row: tuple[object, ...]) -> tuple[str, ...]:
        return tuple(
            "null" if value is None or value != value else f"{value:.9g}" if isinstance(value, float) else str(value)
            for value in row
        )

    ours_text, theirs_text = sorted(map(text, ours)), sorted(map(text, theirs))
    if len(ours_text) != len(theirs_text):
        return [f"{name}: {len(ours_text)} rows, its reference {len(theirs_text)}"]
    return [f"{name}: {a} where its reference has {b}" for a, b in zip(ours_text, theirs_text, strict=True) if a != b]


def memory_check(names: list[str], data: Path) -> list[str]:
    """Each statistic of ``names`` over ``data`` in a connection of its own (``stats.staged``) under
    ``stats.DUCKDB_MEMORY``, every row fetched, no second try: a line per statistic, ``ok`` or ``out of memory``
    with DuckDB's message, and its wall time."""
    import duckdb

    from pipeline import stats, store

    folders = store.dataset_folders(data)
    lines = []
    for name in names:
        statistic = stats.get_statistic(name)
        started = time.perf_counter()
        with stats.staged(folders) as con:
            con.execute(f"set memory_limit = '{stats.DUCKDB_MEMORY}'")
            try:
                con.sql(statistic.sql(), params=statistic.defaults() or None).fetchall()
                outcome = "ok"
            except duckdb.OutOfMemoryException as exc:
                outcome = f"out of memory ({str(exc).splitlines()[0]})"
        lines.append(f"{name}: {outcome}, {time.perf_counter() - started:.1f} s")
        print(lines[-1], flush=True)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000_000, help="hands of the dataset (about)")
    parser.add_argument("--runs", type=int, default=3, help="timed runs of each, after one to warm the cache")
    parser.add_argument("--only", nargs="*", default=None, help="these statistics only")
    parser.add_argument("--data", type=Path, default=None, help="the dataset (default data/bench/catalan2-HANDS)")
    parser.add_argument("--truc", default=None, help="the truc command to time (default: the one beside Python)")
    parser.add_argument("--check", action="store_true", help="compare each statistic's rows with its reference's")
    parser.add_argument("--memory-check", action="store_true", help="which statistics run out of DuckDB's limit")
    parser.add_argument("--skip-rows", action="store_true", help="leave out the timing of truc stats --from-rows")
    parser.add_argument("--reference", default=None, help=argparse.SUPPRESS)  # a reference's own process
    args = parser.parse_args()
    data = args.data or ROOT / "data" / "bench" / f"catalan2-{args.hands}"
    if args.reference:
        run_reference(args.reference, data)
        return
    build(args.hands, data)
    tally(data)
    names = args.only or sorted(path.stem for path in REFERENCE.glob("*.sql") if not path.stem.startswith("_"))
    truc = (args.truc or _truc()).split()
    if args.memory_check:
        print(f"{data}: load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
        memory_check(names, data)
        return
    if args.check:
        differences = [line for name in names for line in check(name, data, truc)]
        print("\n".join(differences) or f"{len(names)} statistics: the same rows as their references")
        raise SystemExit(1 if differences else 0)
    compileall.compile_dir(ROOT / "pipeline", quiet=1)
    print(f"{data}: load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    print(
        "| statistic | truc s | truc --from-rows s | reference s | ratio | rows ratio | truc peak MB "
        "| --from-rows peak MB | reference peak MB |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for name in names:
        ours = [*truc, "stats", name, "--data", str(data), "--format", "csv"]
        commands = [ours, [*ours, "--from-rows"], [sys.executable, __file__, "--reference", name, "--data", str(data)]]
        if args.skip_rows:
            commands[1] = []
        for command in commands:
            if command:
                timed(command)  # warm the page cache
        runs = [[timed(command) if command else (float("nan"), 0) for command in commands] for _ in range(args.runs)]
        seconds = [statistics.median(run[k][0] for run in runs) for k in range(3)]
        peaks = [max(run[k][1] for run in runs) / 2**20 for k in range(3)]
        rows, rows_ratio, rows_peak = (
            ("-", "-", "-")
            if args.skip_rows
            else (f"{seconds[1]:.2f}", f"{seconds[1] / seconds[2]:.1f}", f"{peaks[1]:.0f}")
        )
        print(
            f"| {name} | {seconds[0]:.2f} | {rows} | {seconds[2]:.2f} | {seconds[0] / seconds[2]:.2f} "
            f"| {rows_ratio} | {peaks[0]:.0f} | {rows_peak} | {peaks[2]:.0f} |",
            flush=True,
        )
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
