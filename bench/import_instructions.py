"""Instructions per hand of an import's worker under valgrind's callgrind: the work of reading and replaying a
range of a history file and building its rows (``history.ranges.read_range``), which the machine's load does not
move (see ``instructions.py`` for what such a count is and is not). ``--export`` counts an export's worker instead:
a chunk of games' rows replayed and written as text (``history.io._chunk_text``).

The worker's work is measured over the first range, then over the first ``--ranges`` ranges (3), of the export
that ``import_export_speed.py`` makes once under ``data/bench/`` (20,000 games of 2-player Catalan); the
difference, divided by the hands between them, cancels the start-up; with ``--export``, the first chunk of
``--chunk-games`` games of that dataset, then the first ``--ranges`` chunks. ``--before DIR`` counts another copy of
the code too (a source tree holding ``pipeline``, compiled there), to compare two builds exactly.

    python bench/import_instructions.py [--export] [--ranges N] [--range-bytes B] [--chunk-games G] [--games N]
        [--cache DIR] [--before DIR]

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
from pipeline.history.io import CHUNK_GAMES
from pipeline.history.ranges import RANGE_BYTES


def workload(text: Path, ranges: int, range_bytes: int) -> int:
    """Read the first ``ranges`` ranges of ``text``, of about ``range_bytes`` each, as an import's worker does;
    return their hands."""
    from pipeline.history import ranges as history_ranges

    history_ranges.RANGE_BYTES = range_bytes
    parts = history_ranges.file_ranges(history_ranges.Range(text, str(text), text.name, rows=True))
    return sum(hands for part in parts[:ranges] for _, _, hands in history_ranges.read_range(part).games)


def export_workload(data: Path, chunks: int, chunk_games: int) -> int:
    """Make the first ``chunks`` chunks of ``chunk_games`` games of the dataset ``data`` text, as an export's worker
    does (its tables read first, as the export's driver reads them); return their hands."""
    import gc

    import pyarrow.dataset as ds

    from pipeline.history import io

    io.CHUNK_GAMES = chunk_games
    games = ds.dataset(data / "games", format="parquet").to_table()
    taken = list(io._Chunks([(data, games)]))[:chunks]
    gc.freeze()  # as a worker freezes what it inherits (workers._freeze_the_inherited_objects)
    return sum(io._chunk_text(chunk)[1] for chunk in taken)


def per_hand(
    text: Path, data: Path, ranges: int, range_bytes: int, export: int, code: Path | None
) -> tuple[float, int]:
    """Instructions per hand of the worker and the hands they are counted over: one range (or chunk) and
    ``ranges`` of them, on two cores at once, their start-up cancelled. ``export``: the games of a chunk to count an
    export's worker, 0 for an import's."""

    def count(workload_ranges: int) -> tuple[int, int]:
        script = [__file__, "--workload", str(workload_ranges), "--text", str(text), "--range-bytes", str(range_bytes)]
        if export:
            script += ["--data", str(data), "--chunk-games", str(export), "--export"]
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
    parser.add_argument("--export", action="store_true", help="count an export's worker instead of an import's")
    parser.add_argument(
        "--chunk-games", type=int, default=CHUNK_GAMES, help=f"games of an export's chunk (default {CHUNK_GAMES})"
    )
    parser.add_argument(
        "--cache", type=Path, default=CACHE, help=f"where the dataset and its export are kept ({CACHE})"
    )
    parser.add_argument("--before", type=Path, help="a source tree of other code to count beside this one")
    parser.add_argument("--workload", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--text", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--data", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.workload:  # the child run under callgrind
        if args.export:
            print(f"HANDS {export_workload(args.data, args.workload, args.chunk_games)}")
        else:
            print(f"HANDS {workload(args.text, args.workload, args.range_bytes)}")
        return
    if shutil.which("valgrind") is None:
        sys.exit("bench/import_instructions.py needs valgrind (apt-get install valgrind)")
    if args.ranges < 2:
        sys.exit("--ranges must be at least 2: the first range is the start-up's to cancel")
    data, text, _ = cached_run(args.games, args.cache)
    worker = f"an export worker's (chunks of {args.chunk_games} games)" if args.export else "an import worker's"
    print(f"{worker} instructions per hand under callgrind, {text.name}; engine {accel.status()}")
    codes: list[tuple[str, Path | None]] = [("after", None)]
    if args.before is not None:
        codes.insert(0, ("before", args.before.resolve()))
    for name, code in codes:
        figure, hands = per_hand(
            text, data, args.ranges, args.range_bytes, args.chunk_games if args.export else 0, code
        )
        print(f"{name:<8}{figure:>10,.0f} instructions a hand, over {hands:,} hands")


if __name__ == "__main__":
    main()
