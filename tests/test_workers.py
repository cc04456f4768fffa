"""Worker processes: results in order, and a worker that dies ends the run with a clear error, not a hang."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pipeline.workers import WorkerDied, run_in_order

TRUC = [str(Path(sys.executable).with_name("truc"))]


def _square(x: int) -> int:
    return x * x


def _die_on_three(x: int) -> int:
    if x == 3:
        os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(0.01)
    return x


def test_results_come_in_the_order_of_the_chunks_whatever_the_workers() -> None:
    assert list(run_in_order(_square, list(range(20)), 1)) == [x * x for x in range(20)]
    assert list(run_in_order(_square, list(range(20)), 2)) == [x * x for x in range(20)]


def test_a_dead_worker_raises_instead_of_waiting_forever() -> None:
    with pytest.raises(WorkerDied, match="a worker process died"):
        list(run_in_order(_die_on_three, list(range(8)), 2))


def _children(pid: int) -> list[int]:
    found = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(x) for x in found.read_text().split()] if found.exists() else []


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads a process's children from /proc")
def test_simulate_ends_with_one_line_and_writes_nothing_when_a_worker_is_killed(tmp_path: Path) -> None:
    """The audit's reproduction: ``kill -9`` of one simulate worker left the command waiting forever."""
    out = tmp_path / "w"
    command = [*TRUC, "simulate", "--games", "200000", "--workers", "2", "--quiet", "--out", str(out)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    children: list[int] = []
    while time.monotonic() < deadline and len(children) < 2:
        time.sleep(0.2)
        children = _children(process.pid)
    assert children, "the simulation started no worker"
    time.sleep(0.5)
    os.kill(children[0], signal.SIGKILL)
    try:
        stdout, stderr = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode != 0
    assert "a worker process died" in stderr and len(stderr.strip().splitlines()) == 1, stderr
    assert not out.exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".w.")]
