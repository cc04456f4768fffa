"""The benchmark scripts run and print a figure for each variant asked (speed itself is measured by
``make bench``, not asserted here: a timed test would fail on a busy machine)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench"
NUMBER = r"[\d,]+(?:\.\d+)?"


def run(script: str, *args: str) -> list[str]:
    done = subprocess.run([sys.executable, str(BENCH / script), *args], check=True, capture_output=True, text=True)
    return done.stdout.splitlines()


def test_simulate_speed_prints_engine_and_command_figures() -> None:
    lines = run("simulate_speed.py", "--games", "12", "--variants", "trut")
    figures = rf"{NUMBER}\s+{NUMBER}\s+{NUMBER}"
    engine = [line for line in lines if re.match(rf"trut\s+(2|3|4|6)\s+engine\s+1\s+{figures}", line)]
    command = [line for line in lines if re.match(rf"trut\s+(2|3|4|6)\s+command\s+(1|2)\s+{NUMBER}", line)]
    assert len(engine) == 4 and len(command) == 8


def test_variant_ratios_prints_both_ratios_per_run() -> None:
    lines = run("variant_ratios.py", "--pairs", "2", "trut:3", "valencian:2")
    rows = [line.split() for line in lines if re.match(rf"(trut|valencian)\s+\d\s+{NUMBER}", line)]
    assert [row[:2] for row in rows] == [["trut", "3"], ["valencian", "2"]]
    assert all(float(row[2]) > 0 and float(row[4]) > 0 for row in rows)
    assert all(float(row[6]) > 1 and float(row[7]) > 0 for row in rows)  # events per hand, events/s ratio
    # rows per hand (a hand row, a seat row per player, its events), rows/s ratio
    assert all(float(row[8]) >= 1 + int(row[1]) + float(row[6]) and float(row[9]) > 0 for row in rows)
    for row in rows:  # the quartiles of the pairs' ratios hold the median (the ratio column)
        for median, quartiles in ((row[2], row[10]), (row[4], row[11])):
            low, high = (float(x) for x in quartiles.split("-"))
            assert low <= float(median) <= high


def test_hand_costs_prints_the_four_stages() -> None:
    lines = run("hand_costs.py", "--chunks", "1", "--warm-up", "1", "trut:2")
    row = next(line.split() for line in lines if line.startswith("trut"))
    engine, rows, arrow, parquet, total = (float(x) for x in row[2:7])
    assert min(engine, rows, arrow, parquet) > 0
    assert abs(engine + rows + arrow + parquet - total) < 0.2  # rounding of each figure to 0.1
