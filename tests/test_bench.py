"""The benchmark scripts run and print a figure for each variant asked (speed itself is measured by
``make bench``, not asserted here: a timed test would fail on a busy machine)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

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


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="bench/instructions.py needs valgrind")
def test_instructions_prints_both_counts_and_ratios_to_the_first_run() -> None:
    lines = run("instructions.py", "--games", "3", "trut:2", "trut:3")
    # signed: over 3 games the two runs' difference is noisy (a run's count varies by millions of instructions from
    # one run to the next, hash seed fixed or not: docs/speed.md), so a count's size and sign are not asserted here
    rows = [line.split() for line in lines if re.match(rf"trut\s+[23]\s+-?{NUMBER}", line)]
    assert [row[:2] for row in rows] == [["trut", "2"], ["trut", "3"]]
    (_, _, engine_2, ratio_2, pipeline_2, pipe_ratio_2), (_, _, engine_3, ratio_3, pipeline_3, pipe_ratio_3) = rows
    assert (ratio_2, pipe_ratio_2) == ("1.00", "1.00")  # the first run is the base
    counts = [float(x.replace(",", "")) for x in (engine_2, pipeline_2, engine_3, pipeline_3)]
    assert all(count != 0 for count in counts)
    assert abs(float(ratio_3) - counts[0] / counts[2]) < 0.01
    assert abs(float(pipe_ratio_3) - counts[1] / counts[3]) < 0.01


def test_stats_speed_builds_its_data_agrees_with_its_references_and_prints_both_times(tmp_path: Path) -> None:
    data = tmp_path / "bench"
    built = run("stats_speed.py", "--hands", "3000", "--data", str(data), "--check")
    assert built[-1] == "15 statistics: the same rows as their references"
    lines = run("stats_speed.py", "--data", str(data), "--runs", "1", "--only", "fold_rates", "void_hands")
    rows = [line.split(" | ") for line in lines if line.startswith("| fold_rates") or line.startswith("| void_hands")]
    assert len(rows) == 2 and all(  # from the tallies, from the rows, the reference; the reference's peak
        float(row[1]) > 0 and float(row[2]) > 0 and float(row[3]) > 0 and float(row[8].strip(" |")) > 0 for row in rows
    )


def test_import_export_speed_times_both_commands_on_each_number_of_workers(tmp_path: Path) -> None:
    lines = run("import_export_speed.py", "--games", "30", "--workers", "1,2", "--cache", str(tmp_path))
    rows = [line.split() for line in lines if re.match(r"(export|import)\s+[12]\s", line)]
    assert [row[:2] for row in rows] == [["export", "1"], ["import", "1"], ["export", "2"], ["import", "2"]]
    for row in rows:  # seconds, hands/s, CPU s, hands per CPU s, µs of CPU a hand, peak MiB, load
        seconds, rate, cpu, per_cpu, micros = (float(x.replace(",", "")) for x in row[2:7])
        assert seconds > 0 and cpu > 0 and float(row[7]) > 0
        assert abs(rate * seconds - per_cpu * cpu) / (rate * seconds) < 0.02  # both count the same hands
        assert abs(micros - 1e6 / per_cpu) / micros < 0.02
    assert (tmp_path / "catalan2-30.truc").is_file()  # made once, kept for the next run


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="bench/import_instructions.py needs valgrind")
def test_import_instructions_counts_a_worker_s_instructions_a_hand(tmp_path: Path) -> None:
    lines = run("import_instructions.py", "--games", "30", "--cache", str(tmp_path), "--range-bytes", "4000")
    figures = [re.match(rf"after\s+({NUMBER}) instructions a hand, over ({NUMBER}) hands", line) for line in lines]
    counts = [(float(m.group(1).replace(",", "")), int(m.group(2).replace(",", ""))) for m in figures if m]
    assert len(counts) == 1 and counts[0][0] > 1000 and counts[0][1] > 0


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="bench/import_instructions.py needs valgrind")
def test_import_instructions_counts_an_export_worker_s_instructions_a_hand(tmp_path: Path) -> None:
    lines = run("import_instructions.py", "--export", "--games", "30", "--cache", str(tmp_path), "--chunk-games", "10")
    assert any("export worker's (chunks of 10 games)" in line for line in lines)
    figures = [re.match(rf"after\s+({NUMBER}) instructions a hand, over ({NUMBER}) hands", line) for line in lines]
    counts = [(float(m.group(1).replace(",", "")), int(m.group(2).replace(",", ""))) for m in figures if m]
    assert len(counts) == 1 and counts[0][0] > 1000 and counts[0][1] > 0


def test_report_speed_builds_the_demos_shape_and_times_the_report_phase_by_phase(tmp_path: Path) -> None:
    lines = run("report_speed.py", "--games", "40", "--other", "6", "--runs", "1", "--build", str(tmp_path))
    assert (tmp_path / "report-demo-40-6" / "valencian-4p" / "manifest.json").is_file()  # built there, kept
    assert (tmp_path / "report-out" / "index.html").is_file()
    row = next(line for line in lines if line.startswith(str(tmp_path / "report-demo-40-6")))
    wall, cpu, statistics, specs, files = (float(x) for x in row.split()[-7:-2])
    peak, tree = (float(x.replace(",", "")) for x in row.split()[-2:])
    assert min(wall, cpu, statistics, specs) > 0 and files >= 0  # each phase's progress line was seen
    assert statistics + specs < wall
    assert 50 < peak <= tree  # the report's largest process, within its process tree's sum
