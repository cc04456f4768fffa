"""Chunks of work as tasks on a Ray cluster: ``--backend ray [--address ADDR]`` (the optional extra ``truc-lab[ray]``).

How the output reaches its place: every task returns its chunk's result (its rows) to the driver, the command's
own process, which writes the dataset as the local run does. So the nodes need no shared file system, a dataset
is written by one process in one place (``store.atomic_dataset``: whole or not at all), and the rows are the
local run's for the same seed. The price is the driver's network and memory: at most
``workers.IN_FLIGHT_PER_WORKER`` chunks per worker are in flight, and the driver holds their results only until
it has written them.

What the nodes need: the same Python, Ray and truc-lab, compiled alike (``accel.status``), since a task runs
this package's code there and the rows must not depend on where. The first use in a process checks it on every
node (``_environment``) and refuses a cluster whose nodes differ from this machine, saying what differs.

Ray's runtime is kept quiet and out of the user's way: no dashboard, no worker output forwarded, Ray's own
logging at errors only; a Ray started for the command (no ``--address``) keeps its temporary files in a folder
of the system's temporary directory, removed when the command ends, and its authentication token in this
process's environment, never in the home folder. Ctrl-C and SIGTERM keep the command's handlers (``ray.init``
installs its own), cancel the chunks in flight, and the Ray started for the command is shut down at exit.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import logging
import os
import platform
import secrets
import shutil
import signal
import socket
import sys
import tempfile
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Final, TypeVar

import pipeline
from pipeline import accel
from pipeline.workers import IN_FLIGHT_PER_WORKER, RAY_EXTRA, BackendError, WorkerDied

Chunk = TypeVar("Chunk")
Result = TypeVar("Result")

MAX_RETRIES: Final = 2
"""Times Ray plays a chunk again when its worker or node is lost (the same seed, so the same rows), before the
run ends with ``WorkerDied``. An error of the chunk's own (bad input) is never retried."""

CHECK_SECONDS: Final = 120
"""How long the check of the nodes' environment may wait for each node to run it (a busy or starting node)."""

CONNECT_SECONDS: Final = 10
"""How long the head of a cluster at ``--address`` may take to accept a connection before it is said unreachable."""

_connected: dict[str, Any] = {}
"""This process's use of Ray: ``checked`` once every node's environment was found the same as this machine's."""


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise BackendError(f"--backend ray needs Ray, which is not installed here: {RAY_EXTRA}") from None
    return ray


def connect(address: str | None) -> Any:
    """Ray, connected: to the cluster at ``address``, or (None) to a Ray started on this machine for this process
    and shut down when it ends. A connection this process already has (a sweep's second round, the tests' own
    Ray) is used as it is. Every node's environment is checked once."""
    ray = _ray()
    if not ray.is_initialized():
        _start(ray, address)
    _quiet_error_messages()
    if not _connected.get("checked"):
        _check_nodes(ray)
        _connected["checked"] = True
    return ray


def _start(ray: Any, address: str | None) -> None:
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # no report of this run sent anywhere
    options: dict[str, Any] = {
        "include_dashboard": False,
        "log_to_driver": False,  # a task's output stays in Ray's logs: the command's output is its own
        "logging_level": logging.ERROR,
    }
    temporary = None
    if address is None:
        # A fresh token in the environment, which the Ray processes started here inherit: Ray would otherwise
        # write one to ~/.ray/auth_token. Its files go to a folder of the system's temporary directory.
        os.environ.setdefault("RAY_AUTH_TOKEN", secrets.token_hex(32))
        temporary = tempfile.mkdtemp(prefix="truc-ray-")
        options["_temp_dir"] = temporary
        options["address"] = "local"  # a new Ray, even when another runs on this machine (ray.init would join it)
    else:
        _check_reachable(address)
        options["address"] = address
    handlers = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        ray.init(**options)
    except Exception as exc:  # Ray raises ConnectionError, RuntimeError, ValueError... with several lines
        if temporary is not None:
            shutil.rmtree(temporary, ignore_errors=True)
        where = f"the Ray cluster at {address}" if address is not None else "a Ray on this machine"
        raise BackendError(f"could not connect to {where}: {_first_line(exc)}") from None
    finally:
        for number, handler in handlers.items():  # ray.init makes SIGTERM exit at once; the command's stops cleanly
            if handler is not None:
                signal.signal(number, handler)
    atexit.register(_stop, ray, temporary)


def _quiet_error_messages() -> None:
    """Send the messages Ray's driver prints of its own accord (a worker died, a task retried: the raylet's
    error messages, which it writes to standard output whatever ``log_to_driver`` says) to Ray's logger, which
    ``logging_level`` keeps quiet: the command's standard output is its result (a CSV, a JSON), and a lost
    worker either is retried or ends the run with ``WorkerDied``'s one line. Ray's own logs keep them."""
    module = sys.modules.get("ray._private.worker")
    if module is None or not callable(getattr(module, "print_to_stdstream", None)):
        return

    def to_log(data: dict[str, Any], ignore_prefix: bool = False) -> None:
        for line in data.get("lines", []):
            logging.getLogger("ray").warning("(%s) %s", data.get("pid", "ray"), line)

    setattr(module, "print_to_stdstream", to_log)  # noqa: B010 (a module attribute mypy does not know)


def _check_reachable(address: str) -> None:
    """Refuse at once an address whose host does not answer on its port: Ray would try for minutes, writing its
    attempts on stderr. ``auto`` (the Ray that ``ray start`` runs on this machine) is left to Ray."""
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if address == "auto" or not sep:
        return
    if not port.isdigit():
        raise BackendError(f"--address {address}: the port must be a number (HOST:PORT or auto)")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_SECONDS).close()
    except OSError as exc:
        raise BackendError(
            f"could not reach the Ray cluster at {address}: {exc.strerror or exc} (is `ray start --head` running "
            "there, and the port open?)"
        ) from None


def _stop(ray: Any, temporary: str | None) -> None:
    """At exit: disconnect (and stop the Ray started for the command), then remove its temporary files."""
    with contextlib.suppress(Exception):
        ray.shutdown()
    if temporary is not None:
        shutil.rmtree(temporary, ignore_errors=True)


def _first_line(exc: BaseException) -> str:
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return lines[0] if lines else type(exc).__name__


def code_digest() -> str:
    """A digest of this package's Python and Cython sources: two nodes with the same version number may still run
    different code (a checkout, an edit), and the rows depend on it."""
    package = Path(pipeline.__file__).resolve().parent
    digest = hashlib.blake2b(digest_size=8)
    for path in sorted(p for pattern in ("*.py", "*.pyx") for p in package.rglob(pattern)):
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _environment() -> dict[str, str]:
    """What a node runs, as this machine describes its own: compared key by key."""
    import ray

    return {
        "Python": platform.python_version(),
        "Ray": ray.__version__,
        "truc-lab": pipeline.__version__,
        "engine": accel.status(),
        "code": code_digest(),
    }


def _check_nodes(ray: Any) -> None:
    """Run ``_environment`` on every live node and refuse the cluster when one differs from this machine."""
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    here = _environment()
    nodes = [node for node in ray.nodes() if node.get("Alive") and node.get("Resources", {}).get("CPU", 0) > 0]
    if not nodes:
        raise BackendError("the Ray cluster has no live node with a CPU to run the games on")
    remote = ray.remote(_environment)
    found = [
        (
            f"{node['NodeManagerAddress']} ({node['NodeID'][:8]})",
            remote.options(
                num_cpus=0, scheduling_strategy=NodeAffinitySchedulingStrategy(node["NodeID"], soft=False)
            ).remote(),
        )
        for node in nodes
    ]
    try:
        for where, ref in found:
            there = ray.get(ref, timeout=CHECK_SECONDS)
            for key, value in here.items():
                if there.get(key) != value:
                    shown = "sources" if key == "code" else key
                    raise BackendError(
                        f"the Ray node at {where} runs {shown} {there.get(key)}, this machine {value}: every node "
                        "needs the same Python, Ray and truc-lab, compiled alike (docs/scale.md)"
                    )
    except ray.exceptions.GetTimeoutError:
        raise BackendError(
            f"a Ray node did not answer the environment check within {CHECK_SECONDS} s (busy, or not starting its "
            "workers)"
        ) from None
    except ray.exceptions.RayError as exc:
        raise BackendError(f"a Ray node could not run the environment check: {_first_line(exc)}") from None


def cluster_cpus(address: str | None) -> int:
    """The CPUs of the cluster (connecting to it first): the default number of workers on Ray."""
    ray = connect(address)
    cpus = int(ray.cluster_resources().get("CPU", 0))
    if cpus < 1:
        raise BackendError("the Ray cluster has no CPU to run the games on")
    return cpus


def _call(work: Callable[[Chunk], Result], chunk: Chunk) -> Result:
    """A task: one chunk. ``work`` arrives by reference (its module and name), imported on the node."""
    return work(chunk)


def run_in_order(
    work: Callable[[Chunk], Result], chunks: Sequence[Chunk], workers: int, address: str | None
) -> Iterator[Result]:
    """``work(chunk)`` for every chunk as a Ray task, yielded in the chunks' order, ``IN_FLIGHT_PER_WORKER`` tasks
    per worker in flight at most. An error raised by ``work`` is raised here as itself; a worker or node lost
    (after ``MAX_RETRIES`` new tries) raises ``WorkerDied``."""
    ray = connect(address)
    task = ray.remote(max_retries=MAX_RETRIES)(_call)
    waiting = iter(chunks)
    pending: deque[Any] = deque()
    finished = False

    def submit(count: int) -> None:
        for _, chunk in zip(range(count), waiting, strict=False):
            pending.append(task.remote(work, chunk))

    try:
        submit(max(1, workers) * IN_FLIGHT_PER_WORKER)
        while pending:
            try:
                result = ray.get(pending.popleft())
            except ray.exceptions.RayTaskError as exc:
                cause = getattr(exc, "cause", None)
                if isinstance(cause, Exception):
                    raise cause from None
                raise
            except ray.exceptions.RayError as exc:
                raise WorkerDied(
                    f"a Ray worker or node was lost before finishing its games ({type(exc).__name__}, after "
                    f"{MAX_RETRIES} new tries); nothing was written"
                ) from None
            submit(1)
            yield result
        finished = True
    finally:
        if not finished:  # an error, Ctrl-C, or the caller stopped reading: the other chunks are not wanted
            for ref in pending:
                with contextlib.suppress(Exception):
                    ray.cancel(ref, force=True)
