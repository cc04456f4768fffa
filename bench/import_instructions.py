"""Instructions per hand of an import's worker under valgrind's callgrind: the work of reading and replaying a
range of a history file and building its rows (``history.ranges.read_range``), which the machine's load does not
move (see ``instructions.py`` for what such a count is and is not).

The worker's work is measured over the first range, then over the first ``--ranges`` ranges (3), of the export
that ``import_export_speed.py`` makes once under ``data/bench/`` (20,000 games of 2-player Catalan); the
difference, divided by the hands between them, cancels the start-up. ``--before DIR`` counts another copy of the
code too (a source tree holding ``pipeline``, compiled there), to compare two builds exactly.

    python bench/import_instructions.py [--ranges N] [--range-bytes B] [--games N] [--cache DIR] [--before DIR]

Needs valgrind (Debian's package ``valgrind``); without it, it says so and exits 2.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from import_export_speed import CACHE, cached_run
from instructions import callgrind

from pipeline import accel
from pipeline.history.ranges import RANGE_BYTES


def workload(text: Path, ranges: int, range_bytes: int) -> int:
    """Read the first ``ranges`` ranges of ``text``, of about ``range_bytes`` each, as an import's worker does;
    return their hands."""
    from pipeline.history import ranges as history_ranges

    history_ranges.RANGE_BYTES = range_bytes
    parts = history_ranges.file_ranges(history_ranges.Range(text, str(text), text.name, rows=True))
    return sum(hands for part in parts[:ranges] for _, _, hands in history_ranges.read_range(part).games)


def per_hand(text: Path, ranges: int, range_bytes: int, code: Path | None) -> tuple[float, int]:
    """Instructions per hand of the worker and the hands they are counted over: one range and ``ranges`` ranges,
    on two cores at once, their start-up cancelled."""

    def count(workload_ranges: int) -> tuple[int, int]:
        script = [__file__, "--workload", str(workload_ranges), "--text", str(text), "--range-bytes", str(range_bytes)]
        return callgrind(script, code)

    with ThreadPoolExecutor(max_workers=2) as pool:
        (hands_1, instructions_1), (hands_n, instructions_n) = pool.map(count, (1, ranges))
    if hands_n == hands_1:
        sys.exit(f"the file has one range of {range_bytes:,} bytes or fewer ranges than {ranges}: lower --range-bytes")
    return (instructions_n - instructions_1) / (hands_n - hands_1), hands_n - hands_1


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--ranges", type=int, default=3, help="ranges of the longer run (default 3)")
    parser.add_argument(
        "--range-bytes", type=int, default=RANGE_BYTES, help=f"the text of a range, about (default {RANGE_BYTES:,})"
    )
    parser.add_argument("--games", type=int, default=20_000, help="games of the dataset exported (default 20,000)")
    parser.add_argument(
        "--cache", type=Path, default=CACHE, help=f"where the dataset and its export are kept ({CACHE})"
    )
    parser.add_argument("--before", type=Path, help="a source tree of other code to count beside this one")
    parser.add_argument("--workload", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--text", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.workload:  # the child run under callgrind
        print(f"HANDS {workload(args.text, args.workload, args.range_bytes)}")
        return
    if shutil.which("valgrind") is None:
        sys.exit("bench/import_instructions.py needs valgrind (apt-get install valgrind)")
    if args.ranges < 2:
        sys.exit("--ranges must be at least 2: the first range is the start-up's to cancel")
    _, text, _ = cached_run(args.games, args.cache)
    print(f"an import worker's instructions per hand under callgrind, {text.name}; engine {accel.status()}")
    codes: list[tuple[str, Path | None]] = [("after", None)]
    if args.before is not None:
        codes.insert(0, ("before", args.before.resolve()))
    for name, code in codes:
        figure, hands = per_hand(text, args.ranges, args.range_bytes, code)
        print(f"{name:<8}{figure:>10,.0f} instructions a hand, over {hands:,} hands")


if __name__ == "__main__":
    main()
