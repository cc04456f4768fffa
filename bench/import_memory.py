"""The peak memory of ``truc import`` on a large export: the import streams its files, so its peak
resident memory must not grow with the file (issue 26: it held the whole file, 1.27 GB for 175 MB).

Builds the export with the CLI (``truc simulate``, then ``truc export``), imports it with ``truc import``
in a process of its own, and prints the file's size, the import's time, its peak resident memory (Linux's
``VmHWM``, the process's own: ``ru_maxrss`` would keep the peak of the process that started it) and the
bytes of memory per byte of file. 100,000 games of 2-player Catalan Truc make an export of about 175 MB.

    python bench/import_memory.py [--games N] [--variant catalan] [--players 2] [--workers 2] [--keep DIR]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PEAK = """
import sys
from pipeline.cli import main
sys.argv = ["truc", *sys.argv[1:]]
try:
    main()
except SystemExit as exit:
    code = exit.code
else:
    code = 0
peak = next(line.split()[1] for line in open("/proc/self/status") if line.startswith("VmHWM:"))
print(f"peak {peak}", file=sys.stderr)
sys.exit(code)
"""
"""Run a ``truc`` command and print its peak resident memory in kB on the last line of stderr."""

TRUC = [sys.executable, "-c", PEAK]


def run(command: list[str]) -> None:
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def measure(games: int, variant: str, players: int, workers: int, folder: Path) -> tuple[int, float, int]:
    """The export's size in bytes, the import's seconds and its peak resident memory in bytes."""
    data, text, back = folder / "run", folder / "run.truc", folder / "back"
    options = ["--variant", variant, "--players", str(players), "--games", str(games), "--seed", "1"]
    if not data.exists():
        run([*TRUC, "simulate", *options, "--workers", str(workers), "--out", str(data), "--quiet"])
    if not text.exists():
        run([*TRUC, "export", "--data", str(data), "--out", str(text), "--quiet"])
    started = time.perf_counter()
    done = subprocess.run(
        [*TRUC, "import", str(text), "--out", str(back), "--overwrite", "--quiet"],
        capture_output=True,
        text=True,
    )
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(done.stderr)
    peak = int(done.stderr.strip().splitlines()[-1].split()[1]) * 1024
    return text.stat().st_size, seconds, peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--variant", default="catalan")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--keep", type=Path, help="keep the run, its export and the import here (reused if there)")
    args = parser.parse_args()
    if not Path("/proc/self/status").exists():
        raise SystemExit("bench/import_memory.py reads the peak memory from Linux's /proc")
    with tempfile.TemporaryDirectory(prefix="truc-import-memory-") as temporary:
        folder = args.keep or Path(temporary)
        folder.mkdir(parents=True, exist_ok=True)
        size, seconds, peak = measure(args.games, args.variant, args.players, args.workers, folder)
    print(
        f"import of {args.games:,} games of {args.variant} ({args.players} players), {size / 2**20:,.1f} MiB: "
        f"{seconds:,.1f} s, peak memory {peak / 2**20:,.0f} MiB ({peak / size:.2f} bytes per byte of file)"
    )


if __name__ == "__main__":
    main()
