"""A wide statistic in a terminal (``variant_comparison``: 38 columns, about 540 characters a row) prints its
brief columns, and says on stderr which it left out and how to see them; a pipe, CSV and JSON get every
column."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline import stats

TRUC = Path(sys.executable).parent / "truc"


def test_every_brief_column_is_a_column_of_its_statistic() -> None:
    for statistic in stats.STATISTICS.values():
        assert set(statistic.brief) <= set(statistic.columns), statistic.name
        assert not statistic.brief or statistic.brief[:2] == ("variant", "players"), statistic.name
    assert len(stats.get_statistic("variant_comparison").brief) < 15


def test_a_table_wider_than_the_terminal_keeps_its_brief_columns(sim_dataset_2p: Path) -> None:
    frame = stats.compute("variant_comparison", sim_dataset_2p)
    fitted, left_out = stats.fit_width("variant_comparison", frame, 120)
    assert fitted.columns == list(stats.get_statistic("variant_comparison").brief)
    assert left_out == [column for column in frame.columns if column not in fitted.columns] and len(left_out) > 20
    assert stats.fit_width("variant_comparison", frame, 100_000) == (frame, [])
    narrow = stats.compute("mano_advantage", sim_dataset_2p)  # no brief columns: never cut
    assert stats.fit_width("mano_advantage", narrow, 20) == (narrow, [])
    assert "--all-columns" in stats.left_out_note(left_out) and left_out[0] in stats.left_out_note(left_out)


def test_per_dataset_and_mirror_columns_stay(sim_dataset_2p: Path) -> None:
    frame = stats.compute_each("player_results", [sim_dataset_2p])
    fitted, _ = stats.fit_width("player_results", frame, 60)
    assert fitted.columns[0] == "dataset" and "mirror" in fitted.columns


def in_terminal(*args: str, columns: int = 120) -> tuple[str, str]:
    """``truc ARGS`` with its standard output a terminal ``columns`` wide; its stdout and stderr."""
    main, child = pty.openpty()
    env = {**os.environ, "COLUMNS": str(columns), "LINES": "50"}
    process = subprocess.Popen([str(TRUC), *args], stdout=child, stderr=subprocess.PIPE, env=env)
    os.close(child)
    chunks = []
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    _, err = process.communicate(timeout=120)
    os.close(main)
    return b"".join(chunks).decode("utf-8").replace("\r\n", "\n"), err.decode("utf-8")


@pytest.mark.skipif(not TRUC.exists(), reason="the truc command is not installed beside this Python")
def test_the_terminal_gets_the_brief_columns_and_a_pipe_every_one(sim_dataset_2p: Path) -> None:
    args = ("stats", "variant_comparison", "--data", str(sim_dataset_2p))
    shown, note = in_terminal(*args)
    header = shown.splitlines()[0]
    assert "mano_edge" in header and "bluff_ci_low" not in header
    assert note.startswith("note: 27 columns left out to fit the terminal (sides, unit, policies, ")
    whole, _ = in_terminal(*args, "--all-columns")
    assert "bluff_ci_low" in whole.splitlines()[0]
    piped = subprocess.run([str(TRUC), *args], capture_output=True, text=True, check=True)
    assert "bluff_ci_low" in piped.stdout.splitlines()[0] and piped.stderr == ""
    chosen, quiet = in_terminal(*args, "--columns", "variant,bluff_ci_low")
    assert "bluff_ci_low" in chosen and "left out" not in quiet
