"""Running chunks of work in worker processes, results in order, and a clear error when a worker dies.

The simulator and the experiments cut their games into fixed chunks (the data never depends on the number of
workers) and hand them to ``run_in_order``. A worker that the system kills (the out-of-memory killer, ``kill
-9``) used to leave ``multiprocessing.Pool`` waiting forever for its chunk; a ``ProcessPoolExecutor`` notices the
death and raises, which ``run_in_order`` turns into ``WorkerDied``, so the command stops with one line and the
output being written is removed (``store.atomic_dataset``).
"""

from __future__ import annotations

import multiprocessing
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from pipeline.store import STOP_SIGNALS, stop_signals_held

Chunk = TypeVar("Chunk")
Result = TypeVar("Result")


class WorkerDied(RuntimeError):
    """A worker process ended without returning its chunk's result."""


def _leave_interrupts_to_the_parent() -> None:
    """A worker ignores Ctrl-C (which a terminal sends to every process of the command): the parent alone
    stops, ends the workers and removes the unfinished output, with one line said, where each worker would
    print a traceback of its own. SIGTERM keeps its default (the parent ends workers with it), whatever
    handler a forked worker inherited from the command."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)  # held by the parent while it forked


def run_in_order(work: Callable[[Chunk], Result], chunks: Sequence[Chunk], workers: int) -> Iterator[Result]:
    """``work(chunk)`` for every chunk, yielded in the chunks' order: in this process when ``workers`` is 1 (or
    there is one chunk), else in ``workers`` processes (forked on Linux, so a worker inherits what the parent
    computed, e.g. strength tables). Raises ``WorkerDied`` when a worker process dies."""
    if workers <= 1 or len(chunks) <= 1:
        for chunk in chunks:
            yield work(chunk)
        return
    context = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
    executor = None
    finished = False
    try:
        # The workers are started by the first submission: Ctrl-C and SIGTERM are held until every worker is
        # started and every chunk queued, so that an interrupt never lands in the middle of a fork.
        with stop_signals_held():
            executor = ProcessPoolExecutor(
                min(workers, len(chunks)), mp_context=context, initializer=_leave_interrupts_to_the_parent
            )
            futures = [executor.submit(work, chunk) for chunk in chunks]
        try:
            for future in futures:
                yield future.result()
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
