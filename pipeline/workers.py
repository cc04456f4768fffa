"""Running chunks of work on a backend, results in order, in bounded memory, and a clear error when a worker dies.

The simulator and the experiments cut their games into fixed chunks (the data never depends on the number of
workers) and hand them to ``run_in_order`` with a ``Backend``: worker processes on this machine (``local``, the
default), or tasks on a Ray cluster (``ray``, ``pipeline.ray_backend``; an optional extra). Either way the
results come back in the chunks' order, and at most ``IN_FLIGHT_PER_WORKER`` chunks per worker are handed out
ahead of the one the caller waits for: a chunk's result is its rows, so the caller's memory holds a few chunks per
worker, whatever the size of the run.

A worker that the system kills (the out-of-memory killer, ``kill -9``) used to leave ``multiprocessing.Pool``
waiting forever for its chunk; a ``ProcessPoolExecutor`` notices the death and raises, which ``run_in_order``
turns into ``WorkerDied``, so the command stops with one line and the output being written is removed
(``store.atomic_dataset``). The Ray backend does the same with a worker or a node that Ray reports lost.
"""

from __future__ import annotations

import bisect
import functools
import gc
import importlib.util
import itertools
import multiprocessing
import os
import pickle
import shutil
import signal
import sys
import tempfile
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, TypeVar, overload

from pipeline.interrupts import STOP_SIGNALS, stop_signals_held

CPU_QUOTA = Path("/sys/fs/cgroup/cpu.max")
"""Linux's CPU quota of this process's control group (cgroup v2): ``QUOTA PERIOD`` in µs, or ``max``."""


def usable_cores(quota_file: Path = CPU_QUOTA) -> int:
    """The cores this process may use, the default number of workers (the data does not depend on it, so
    the default uses the whole machine): the cores it may run on (its CPU affinity), and no more than its
    control group's CPU quota allows, rounded up. A container on a large host often has all the host's
    cores in its affinity but a quota of a few; a worker per host core would only contend."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    try:
        quota, period = quota_file.read_text("ascii").split()[:2]
        allowed = -(-int(quota) // int(period))  # rounded up: a quota of 1.5 cores runs 2 workers
    except (OSError, ValueError):  # no such file (not Linux, cgroup v1), "max" (no quota), or garbled
        return cores
    return max(1, min(cores, allowed))


Chunk = TypeVar("Chunk")
Result = TypeVar("Result")

LOCAL: Final = "local"
RAY: Final = "ray"
BACKENDS: Final = (LOCAL, RAY)

IN_FLIGHT_PER_WORKER: Final = 2
"""Chunks handed out per worker at a time: the one it plays and the next, so that no worker waits for the caller
while the caller takes the results in order; the results that wait for an earlier chunk are at most this many per
worker."""

RAY_EXTRA: Final = "pip install 'truc-lab[ray]'"


class ChunkRanges(Sequence[Chunk]):
    """The chunks of a run, made when asked for: each of the ``totals`` (a run's games, or each match's pairs) cut
    into ranges of ``size``, chunk ``i`` being ``make(segment, first, end)``. A run's chunks were a list built up
    front, which grew with ``--games`` (a mistyped count of 10^23 games filled the machine's memory before the
    first game); these take the same memory for any count."""

    def __init__(self, totals: Sequence[int], size: int, make: Callable[[int, int, int], Chunk]) -> None:
        self.totals, self.size, self.make = list(totals), size, make
        self.counts = [-(-total // size) for total in self.totals]  # each segment's chunks
        self.starts = [0, *itertools.accumulate(self.counts)]  # the index of each segment's first chunk

    def __len__(self) -> int:
        return self.starts[-1]

    @overload
    def __getitem__(self, index: int) -> Chunk: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Chunk]: ...
    def __getitem__(self, index: int | slice) -> Chunk | Sequence[Chunk]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        segment = bisect.bisect_right(self.starts, index) - 1
        first = (index - self.starts[segment]) * self.size
        return self.make(segment, first, min(first + self.size, self.totals[segment]))


class WorkerDied(RuntimeError):
    """A worker process (or a Ray worker, or its node) ended without returning its chunk's result."""


class BackendError(ValueError):
    """A backend asked for that cannot be used: an unknown name, an address without Ray, Ray not installed, a
    cluster that cannot be reached or whose nodes do not run the same code as this machine."""


@dataclass(frozen=True)
class Backend:
    """Where the chunks run: ``local`` worker processes, or ``ray`` tasks on the Ray cluster at ``address``
    (None: a Ray started on this machine for the command, and stopped with it)."""

    name: str = LOCAL
    address: str | None = None

    def __post_init__(self) -> None:
        if self.name not in BACKENDS:
            raise BackendError(f"--backend must be {' or '.join(BACKENDS)}, not {self.name!r}")
        if self.address is not None and self.name != RAY:
            raise BackendError("--address is the address of a Ray cluster: it needs --backend ray")
        if self.name == RAY and importlib.util.find_spec("ray") is None:
            raise BackendError(f"--backend ray needs Ray, which is not installed here: {RAY_EXTRA}")
        if self.address is not None and not self.address.strip():
            raise BackendError("--address is empty: give a Ray cluster's address (HOST:PORT or auto)")

    def cores(self) -> int | None:
        """The CPUs of the Ray cluster, the default number of workers there (connecting to it, or starting a
        Ray on this machine, once per process); None for the local backend, whose default is this machine's
        usable cores."""
        if self.name == LOCAL:
            return None
        from pipeline import ray_backend

        return ray_backend.cluster_cpus(self.address)


LOCAL_BACKEND: Final = Backend()


def _start_worker() -> None:
    """What a worker process does once forked, before its first chunk."""
    _leave_interrupts_to_the_parent()
    _freeze_the_inherited_objects()


def _freeze_the_inherited_objects() -> None:
    """The objects a forked worker inherits from the parent (every module the command imported, the tables
    it read) are never garbage in the worker, yet each full collection of the cyclic garbage collector walked
    them all, and wrote to the pages that hold them, which the fork had shared: 14% of an export worker's CPU
    went to the collector (0.8 s a worker over 20,000 games), 5% after this (``gc.freeze``, as Python's
    documentation advises for forked workers). The worker's own objects are collected as before."""
    gc.freeze()


def _leave_interrupts_to_the_parent() -> None:
    """A worker ignores Ctrl-C (which a terminal sends to every process of the command): the parent alone
    stops, ends the workers and removes the unfinished output, with one line said, where each worker would
    print a traceback of its own. SIGTERM keeps its default (the parent ends workers with it), whatever
    handler a forked worker inherited from the command."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)  # held by the parent while it forked


def run_in_order(
    work: Callable[[Chunk], Result],
    chunks: Sequence[Chunk],
    workers: int,
    backend: Backend = LOCAL_BACKEND,
    meanwhile: Callable[[], object] | None = None,
) -> Iterator[Result]:
    """``work(chunk)`` for every chunk, yielded in the chunks' order, with at most ``IN_FLIGHT_PER_WORKER`` chunks
    per worker handed out at a time. Locally: in this process when ``workers`` is 1 (or there is one chunk), else in
    ``workers`` processes (forked on Linux, so a worker inherits what the parent computed, e.g. strength tables).
    On Ray: as tasks on the cluster, ``work`` passed by reference (an importable module-level function, as is
    every chunk's content), ``workers`` chunks played at a time. Raises ``WorkerDied`` when a worker dies.

    ``meanwhile()``, when given, is called in this process once local worker processes are started and their first
    chunks handed out, before the first result is awaited: work of the caller's own that would otherwise run after
    the last chunk, alone. Not before: a process forked while it runs could inherit a lock it holds (an import's)."""
    if backend.name == RAY:
        from pipeline import ray_backend

        yield from ray_backend.run_in_order(work, chunks, workers, backend.address)
        return
    if workers <= 1 or len(chunks) <= 1:
        for chunk in chunks:
            yield work(chunk)
        return
    context = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
    executor = None
    finished = False
    waiting = iter(chunks)
    pending: deque[Future[str]] = deque()
    results = tempfile.mkdtemp(prefix="truc-results-")
    work_to_file = functools.partial(_result_to_file, work, results)
    try:
        # The workers are started by the first submission: Ctrl-C and SIGTERM are held until every worker is
        # started and the first chunks queued, so that an interrupt never lands in the middle of a fork.
        with stop_signals_held():
            executor = ProcessPoolExecutor(min(workers, len(chunks)), mp_context=context, initializer=_start_worker)
            for chunk in itertools.islice(waiting, workers * IN_FLIGHT_PER_WORKER):
                pending.append(executor.submit(work_to_file, chunk))
        if meanwhile is not None:  # every worker is forked by the first submission (the fork context's rule)
            meanwhile()
        try:
            while pending:
                result = _result_from_file(pending.popleft().result())
                for chunk in itertools.islice(waiting, 1):
                    pending.append(executor.submit(work_to_file, chunk))
                yield result
        except BrokenProcessPool:
            raise WorkerDied(
                "a worker process died before finishing its games (killed by the system: out of memory, or a "
                "signal); nothing was written"
            ) from None
        finished = True
    finally:
        if executor is not None:
            if not finished:
                _terminate(executor)
            executor.shutdown(wait=True)
        shutil.rmtree(results, ignore_errors=True)


def _result_to_file(work: Callable[[Chunk], Result], folder: str, chunk: Chunk) -> str:
    """In a worker: ``work(chunk)`` pickled into a file of ``folder``, whose name goes back to the parent.

    A chunk's result can be megabytes of rows, which a pipe takes in several writes: a worker killed in the
    middle (``kill -9``, the out-of-memory killer, the parent ending the workers after Ctrl-C) left the
    executor's thread waiting for the rest of the message for ever, the command hung. A file name is one write
    of a few hundred bytes, which a pipe takes whole or not at all."""
    result = work(chunk)
    handle, path = tempfile.mkstemp(dir=folder, suffix=".pickle")
    with os.fdopen(handle, "wb") as file:
        pickle.dump(result, file, protocol=pickle.HIGHEST_PROTOCOL)
    return path


def _result_from_file(path: str) -> Any:
    """The result a worker left in ``path`` (``_result_to_file``); the file is removed."""
    try:
        with open(path, "rb") as file:
            return pickle.load(file)
    finally:
        os.unlink(path)


def _terminate(executor: ProcessPoolExecutor) -> None:
    """End the workers at once: after an error or an interrupt the remaining chunks are not wanted. The
    executor has no public way to do it before Python 3.14. Its own thread then finds the workers gone and
    fails the chunks still queued (cancelling them here instead races with that thread, which then prints a
    traceback of its own), so that the shutdown that follows has nothing to wait for."""
    processes = list((getattr(executor, "_processes", None) or {}).values())
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(timeout=10)
