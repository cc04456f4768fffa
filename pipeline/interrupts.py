"""Ctrl-C and SIGTERM held for the steps an interrupt must not split (a process started, a file moved into place).

Its own module, light to import: the report's drawing workers need it and nothing else of ``pipeline.store``
(which loads pyarrow, a seventh of a second of each worker's start).
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from typing import Final

STOP_SIGNALS: Final = frozenset({signal.SIGINT, signal.SIGTERM})


@contextlib.contextmanager
def stop_signals_held() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM (``STOP_SIGNALS``) for steps that an interrupt must not split; one that comes
    meanwhile is acted on, by the handler in force before, when the block ends.

    Python runs its handlers in the main thread, but the kernel gives a signal to any thread that does not
    block it (pyarrow's and DuckDB's threads too), so blocking it here is not enough: the handlers are
    replaced by one that notes the signal. It is blocked here as well, as a process forked in the block
    inherits (``pipeline.simulate``'s workers unblock it). Outside the main thread this holds nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    noted: list[int] = []
    handlers = {number: signal.signal(number, lambda signum, _frame: noted.append(signum)) for number in STOP_SIGNALS}
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
        for number, handler in handlers.items():
            signal.signal(number, handler)
        if noted:
            signal.raise_signal(noted[0])
