"""Worker processes: results in order, and a worker that dies ends the run with a clear error, not a hang."""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
import time
import weakref
from pathlib import Path

import pytest

from pipeline.workers import ChunkRanges, WorkerDied, run_in_order

TRUC = [str(Path(sys.executable).with_name("truc"))]


def _square(x: int) -> int:
    return x * x


def _die_on_three(x: int) -> int:
    if x == 3:
        os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(0.01)
    return x


def _inherited_and_collected(marker_id: int) -> tuple[bool, bool]:
    """In a worker: whether an object the parent made is frozen (``gc.get_objects`` of the collector's generations
    leaves frozen objects out), and whether the worker's own garbage cycles are still collected."""
    inherited = any(id(obj) == marker_id for obj in gc.get_objects())
    ref = weakref.ref(_Cycle())
    gc.collect()
    return inherited, ref() is None


class _Cycle:
    """An object that refers to itself: garbage only the collector frees."""

    def __init__(self) -> None:
        self.me = self


def test_a_worker_freezes_what_it_inherits_and_collects_its_own_garbage() -> None:
    """A worker's collector walked every object inherited from the parent at each full collection (14% of an
    export worker's CPU): a worker freezes them, and still collects the cycles it makes."""
    marker = [object()]
    assert any(id(obj) == id(marker) for obj in gc.get_objects())  # tracked here, in the parent
    assert list(run_in_order(_inherited_and_collected, [id(marker)] * 2, 2)) == [(False, True)] * 2


def test_results_come_in_the_order_of_the_chunks_whatever_the_workers() -> None:
    assert list(run_in_order(_square, list(range(20)), 1)) == [x * x for x in range(20)]
    assert list(run_in_order(_square, list(range(20)), 2)) == [x * x for x in range(20)]


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads a process's children from /proc")
def test_meanwhile_runs_once_every_worker_is_started_and_before_the_first_result() -> None:
    """The import loads its tallies' modules in ``meanwhile``: a worker forked after it started could inherit a
    lock it holds, and called after the first result it would overlap nothing."""
    before = set(_children(os.getpid()))
    seen: list[tuple[int, int]] = []
    results: list[int] = []

    def meanwhile() -> None:
        seen.append((len(set(_children(os.getpid())) - before), len(results)))

    for result in run_in_order(_square, list(range(6)), 2, meanwhile=meanwhile):
        results.append(result)  # one at a time: ``seen`` counts the results yielded before ``meanwhile``
    assert results == [x * x for x in range(6)]
    assert seen == [(2, 0)]


def test_meanwhile_is_not_called_when_the_chunks_run_in_this_process() -> None:
    seen: list[int] = []
    assert list(run_in_order(_square, [1, 2], 1, meanwhile=lambda: seen.append(1))) == [1, 4]
    assert seen == []


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


@pytest.mark.parametrize(("totals", "size"), [([1], 250), ([250], 250), ([251, 3, 500], 250), ([7, 0, 9], 4), ([], 5)])
def test_chunk_ranges_are_the_ranges_cut_up_front(totals: list[int], size: int) -> None:
    """The chunks made when asked for are the ranges a list built up front held, in its order."""
    chunks = ChunkRanges(totals, size, lambda segment, first, end: (segment, first, end))
    up_front = [
        (segment, first, min(first + size, total))
        for segment, total in enumerate(totals)
        for first in range(0, total, size)
    ]
    assert len(chunks) == len(up_front) and list(chunks) == up_front
    assert chunks[-1:] == up_front[-1:] and chunks[::2] == up_front[::2]
    assert chunks.counts == [sum(1 for c in up_front if c[0] == segment) for segment in range(len(totals))]
    with pytest.raises(IndexError):
        chunks[len(up_front)]


def test_chunk_ranges_take_the_same_memory_for_any_count() -> None:
    """A run of 10^18 games has its chunks at once, the last as exact as the first: nothing is built up front."""
    games = 10**18
    chunks = ChunkRanges([games], 250, lambda _, first, end: (first, end))
    assert len(chunks) == games // 250
    assert chunks[0] == (0, 250) and chunks[-1] == (games - 250, games)
