"""``truc report`` timed as a whole process: wall time, CPU seconds, peak resident memory, and where the time goes.

Usage: ``python bench/report_speed.py [--games 6000] [--other 1000] [--runs 3] [--data DIR] [--build DIR]
[--memory 20000 80000]``

The data has the demo's shape (``make demo``): 4-player Catalan with mixed bots, ``--games`` games, then every
other variant and player count, ``--other`` games each, every run a folder of one folder, built once by
``truc simulate`` under ``--build`` (by default ``data/bench/``, outside git) and kept for the next runs;
``--data`` reports on a folder of your own instead. The report is run once to warm the page cache and the cache
of the Vega bundle, then ``--runs`` times; each run's progress lines (``computing NAME``, ``drawing NAME``,
``writing the chart files``) are timed as they arrive, which splits its wall time into the statistics, the
charts' specs and the page (the charts' files are drawn meanwhile, by the report's drawing workers), and the
wait for the last chart files.

``--memory N ...`` also reports on a 2-player Catalan run of each size N (games), one run each, for the peak
resident memory against the data's size: the report holds only the statistics' aggregates, so its memory must
not grow with the rows (issue 26, row 10).

The machine's load average is printed before and after. CPU seconds (user + system, the process, its threads
and its drawing workers) depend less on the load than wall time: on a shared machine compare CPU seconds and
ratios. Peak RSS is the largest process's (``wait4``: the report's own, or a worker's); "tree MB" is the peak
of the summed RSS of the report and its workers, sampled every 50 ms from ``/proc``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LADDER_BOT = "threshold:raise_at=0.8,call_at=0.6,bluff=0.05"
TRUT_BOT = "threshold:trut_at=0.7,see_at=0.45"
OTHER_RUNS = (
    "catalan:2", "french:2", "french:4", "trut:2", "trut:3", "trut:4", "trut:6", "trut-gatinaise:2",
    "trut-gatinaise:4", "trut-gatine:2", "trut-gatine:4", "valencian:2", "valencian:4",
)  # fmt: skip
"""The demo's runs after its 4-player Catalan one (the Makefile's ``DEMO_RUNS``)."""


def _truc() -> str:
    """The ``truc`` beside this Python (the project's ``.venv``)."""
    return str(Path(sys.executable).with_name("truc"))


def _simulate(arguments: list[str], out: Path) -> None:
    command = [_truc(), "simulate", *arguments, "--seed", "2026", "--quiet", "--out", str(out)]
    print(" ".join(command), flush=True)
    subprocess.run(command, check=True)


def tallied(data: Path) -> Path:
    """``data`` with current tallies (``pipeline.tallies``): ``truc upgrade`` writes those of datasets built before
    them or before the statistics' SQL last changed, which the report would otherwise compute from the rows."""
    started = time.perf_counter()
    done = subprocess.run([_truc(), "upgrade", "--data", str(data)], check=True, capture_output=True, text=True)
    if "tallies written" in done.stdout:
        print(f"{data}: tallies written by truc upgrade in {time.perf_counter() - started:.1f} s", flush=True)
    return data


def build_demo(folder: Path, games: int, other: int) -> Path:
    """The demo's runs at ``games`` and ``other`` games, under ``folder`` (kept when already there)."""
    if (folder / "valencian-4p" / "manifest.json").is_file():
        return folder
    shutil.rmtree(folder, ignore_errors=True)
    main = ["--variant", "catalan", "--players", "4", "--games", str(games), "--policy", "threshold"]
    main += ["--seat-policy", f"1={LADDER_BOT}", "--seat-policy", "3=random", "--option", "signals=on"]
    _simulate(main, folder / "catalan-4p")
    for run in OTHER_RUNS:
        variant, players = run.split(":")
        bot = TRUT_BOT if variant.startswith("trut") else LADDER_BOT
        arguments = ["--variant", variant, "--players", players, "--games", str(other), "--policy", "threshold"]
        _simulate([*arguments, "--seat-policy", f"1={bot}"], folder / f"{variant}-{players}p")
    return folder


def build_catalan(folder: Path, games: int) -> Path:
    """A 2-player Catalan run of ``games`` games (kept when already there)."""
    if not (folder / "manifest.json").is_file():
        _simulate(["--variant", "catalan", "--players", "2", "--games", str(games)], folder)
    return folder


@dataclass(frozen=True)
class Run:
    """One ``truc report`` process: wall and CPU seconds, peak RSS in bytes (its largest process, and its process
    tree's summed), and the wall seconds of its phases (the statistics, the specs and page, the chart files)."""

    wall: float
    cpu: float
    rss: int
    tree_rss: int
    statistics: float
    charts: float
    page: float


def _children(pid: int) -> list[int]:
    kids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    if int(stat.read().rsplit(")", 1)[1].split()[1]) == pid:
                        kids.append(int(entry))
            except (OSError, IndexError, ValueError):
                pass
    return kids


def _rss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _sample_tree(pid: int, peak: list[int], done: threading.Event) -> None:
    """Keep in ``peak[0]`` the largest summed RSS of ``pid`` and its children, until ``done``."""
    while not done.wait(0.05):
        peak[0] = max(peak[0], _rss(pid) + sum(_rss(child) for child in _children(pid)))


def report(data: Path, out: Path) -> Run:
    """Run ``truc report --data DATA --out OUT`` and time it, phase by phase from its progress lines."""
    started = time.perf_counter()
    process = subprocess.Popen(
        [_truc(), "report", "--data", str(data), "--out", str(out)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    peak = [0]
    done = threading.Event()
    sampler = threading.Thread(target=_sample_tree, args=(process.pid, peak, done), daemon=True)
    sampler.start()
    first_drawing = writing = None
    lines = []
    for line in process.stderr:
        lines.append(line)
        now = time.perf_counter() - started
        if line.startswith("drawing") and first_drawing is None:
            first_drawing = now
        elif line.startswith("writing the chart files"):
            writing = now
    done.set()
    sampler.join()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"truc report failed:\n{''.join(lines[-20:])}")
    first_drawing = first_drawing if first_drawing is not None else wall
    writing = writing if writing is not None else wall
    return Run(
        wall=wall,
        cpu=usage.ru_utime + usage.ru_stime,
        rss=usage.ru_maxrss * 1024,
        tree_rss=peak[0],
        statistics=first_drawing,
        charts=writing - first_drawing,
        page=wall - writing,
    )


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6000, help="games of the 4-player Catalan run (demo: 6000)")
    parser.add_argument("--other", type=int, default=1000, help="games of every other run (demo: 1000)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--data", type=Path, help="report on this folder instead of the demo's shape")
    parser.add_argument("--memory", type=int, nargs="*", default=[], metavar="GAMES", help="2-player runs' sizes")
    parser.add_argument("--build", type=Path, default=ROOT / "data" / "bench", help="where the data are built")
    args = parser.parse_args()
    bench = args.build
    data = tallied(args.data or build_demo(bench / f"report-demo-{args.games}-{args.other}", args.games, args.other))
    out = bench / "report-out"
    print(f"load average before: {_load()}", flush=True)
    report(data, out)  # warm: the page cache, the Vega bundle's cache
    runs = [report(data, out) for _ in range(args.runs)]
    rows = [(f"{data} (median of {args.runs})", *_medians(runs))]
    for games in args.memory:
        folder = tallied(build_catalan(bench / f"report-catalan-2p-{games}", games))
        rows.append((f"{folder.name}", *_medians([report(folder, out)])))
    print(f"load average after: {_load()}\n")
    header = ("data", "wall s", "CPU s", "statistics s", "specs+page s", "files s", "peak RSS MB", "tree MB")
    widths = [max(len(header[0]), *(len(r[0]) for r in rows)), *(len(h) for h in header[1:])]
    print("  ".join(h.ljust(w) if i == 0 else h.rjust(w) for i, (h, w) in enumerate(zip(header, widths, strict=True))))
    for row in rows:
        cells = [row[0].ljust(widths[0])]
        cells += [f"{value:.1f}".rjust(w) for value, w in zip(row[1:6], widths[1:6], strict=True)]
        cells += [f"{value / 2**20:,.0f}".rjust(w) for value, w in zip(row[6:8], widths[6:8], strict=True)]
        print("  ".join(cells))


def _medians(runs: list[Run]) -> tuple[float, float, float, float, float, int, int]:
    med = statistics.median
    return (
        med(r.wall for r in runs),
        med(r.cpu for r in runs),
        med(r.statistics for r in runs),
        med(r.charts for r in runs),
        med(r.page for r in runs),
        max(r.rss for r in runs),
        max(r.tree_rss for r in runs),
    )


if __name__ == "__main__":
    main()
