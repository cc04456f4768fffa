"""The Ray backend (``--backend ray``): the same rows as the local run for the same seed, on one local Ray started by
the test run and on a simulated cluster of two nodes; results in order in bounded memory on both backends; a lost
worker, an error of a chunk, a missing Ray, an address that does not answer and a node that runs other code each
said in one line; a Ray started by the command stopped with it on Ctrl-C, leaving nothing behind."""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import ray
from ray.cluster_utils import Cluster

from pipeline.experiments.designs import Settings, run_match
from pipeline.parts import read_table
from pipeline.simulate import SimulationSpec, simulate
from pipeline.store import TABLES, read_manifest
from pipeline.workers import IN_FLIGHT_PER_WORKER, LOCAL, RAY, Backend, WorkerDied, run_in_order

TRUC = str(Path(sys.executable).with_name("truc"))
ON_RAY = Backend(RAY)


def _ray_temp_dir() -> str:
    """A folder of the system's temporary directory, with a short path (Ray's Unix sockets live under it, and a
    socket's path is at most 107 bytes: pytest's temporary folders can be longer), outside the home folder."""
    return tempfile.mkdtemp(prefix="truc-ray-test-")


@pytest.fixture(scope="session")
def ray_environment() -> Iterator[None]:
    """The test run's Ray settings, inherited by every Ray process it starts: an authentication token in the
    environment (Ray would otherwise write one to ``~/.ray``), no usage report."""
    saved = {name: os.environ.get(name) for name in ("RAY_AUTH_TOKEN", "RAY_USAGE_STATS_ENABLED")}
    os.environ["RAY_AUTH_TOKEN"] = os.urandom(32).hex()
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@pytest.fixture(scope="session")
def local_ray(ray_environment: None) -> Iterator[None]:
    """One Ray for the whole test run, on this machine: 2 CPUs, its files in the system's temporary directory. The
    backend uses the connection it finds."""
    temp = _ray_temp_dir()
    ray.init(
        "local",  # a Ray of its own, whatever else runs on the machine
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        logging_level=logging.ERROR,
        object_store_memory=200 * 1024 * 1024,
        _temp_dir=temp,
    )
    try:
        yield
    finally:
        ray.shutdown()
        shutil.rmtree(temp, ignore_errors=True)


def assert_same_tables(left: Path, right: Path) -> None:
    """Every table of two datasets holds the same rows in the same order (read part after part)."""
    for name in TABLES:
        a, b = read_table(left, name), read_table(right, name)
        assert a.num_rows > 0
        assert a.equals(b), f"table {name} differs"


SPEC = SimulationSpec("catalan", 600, 2026, {"players": "4"}, "threshold", {1: "random", 3: "threshold:bluff=0.3"})


def test_simulate_on_ray_writes_the_rows_of_the_local_run(local_ray: None, tmp_path: Path) -> None:
    local = simulate(SimulationSpec(**{**SPEC.__dict__, "workers": 2}), tmp_path / "local")
    on_ray = simulate(SimulationSpec(**{**SPEC.__dict__, "backend": ON_RAY}), tmp_path / "ray")
    assert on_ray.rows == local.rows and on_ray.hands == local.hands
    assert on_ray.manifest["workers"] == 2  # the local Ray's 2 CPUs
    assert (local.manifest["backend"], on_ray.manifest["backend"]) == (LOCAL, RAY)
    assert_same_tables(tmp_path / "local", tmp_path / "ray")


def test_a_match_on_ray_gives_the_local_result_and_rows(local_ray: None, tmp_path: Path) -> None:
    settings = Settings("catalan", 500, 7, {"players": "2"}, workers=2)
    local = run_match(settings, "threshold", "threshold:raise_at=0.9,bluff=0", tmp_path / "local")
    on_ray = run_match(
        Settings(**{**settings.__dict__, "backend": ON_RAY}),
        "threshold",
        "threshold:raise_at=0.9,bluff=0",
        tmp_path / "r",
    )
    assert on_ray.outcome.scores == local.outcome.scores and on_ray.outcome.margins == local.outcome.margins
    assert on_ray.to_json() == local.to_json()
    assert (
        read_manifest(tmp_path / "r")["experiment"]["result"]
        == read_manifest(tmp_path / "local")["experiment"]["result"]
    )
    assert_same_tables(tmp_path / "local", tmp_path / "r")


def _started(chunk: tuple[str, int]) -> int:
    """Leave a mark that the chunk was handed to a worker, then return its number."""
    folder, number = chunk
    Path(folder, str(number)).touch()
    return number


@pytest.mark.parametrize("backend", [LOCAL, RAY])
def test_results_come_in_order_with_a_few_chunks_per_worker_in_flight(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """The caller holds the results of at most ``IN_FLIGHT_PER_WORKER`` chunks per worker: a backend that handed
    out every chunk at once would have started all 40 while the caller waits."""
    if backend == RAY:
        request.getfixturevalue("local_ray")
    chunks = [(str(tmp_path), number) for number in range(40)]
    results = run_in_order(_started, chunks, 2, Backend(backend))
    assert next(results) == 0
    time.sleep(1.5)  # time enough for the workers to run every chunk they were given
    started = len(list(tmp_path.iterdir()))
    assert 2 <= started <= 2 * IN_FLIGHT_PER_WORKER + 1
    assert list(results) == list(range(1, 40))


def test_an_error_of_a_chunk_is_raised_as_itself_on_ray(local_ray: None) -> None:
    with pytest.raises(ValueError, match="invalid literal for int"):
        list(run_in_order(int, ["1", "2", "three", "4"], 2, ON_RAY))


def test_a_lost_ray_worker_ends_the_run_with_worker_died(local_ray: None) -> None:
    """``os._exit`` ends the worker's process as the system would kill it; Ray plays the chunk again, loses that
    worker too, and the run stops with one line instead of waiting."""
    with pytest.raises(WorkerDied, match="a Ray worker or node was lost"):
        list(run_in_order(os._exit, [0], 2, ON_RAY))


def test_without_ray_the_backend_says_how_to_install_it(tmp_path: Path) -> None:
    out = tmp_path / "d"
    program = (
        "import sys; sys.modules['ray'] = None; from pipeline.cli import main; "
        f"sys.argv = ['truc', 'simulate', '--games', '4', '--backend', 'ray', '--quiet', '--out', {str(out)!r}]; main()"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        "error: --backend ray needs Ray, which is not installed here: pip install 'truc-lab[ray]'"
    ]
    assert not out.exists()


def test_backend_options_are_checked(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="--backend must be local or ray, not 'spark'"):
        Backend("spark")
    with pytest.raises(ValueError, match="--address .* needs --backend ray"):
        Backend(LOCAL, "127.0.0.1:6379")


def test_an_address_that_does_not_answer_is_said_at_once(tmp_path: Path) -> None:
    """Ray would try for minutes, writing each attempt on stderr: the command says it in one line instead."""
    with socket.socket() as free:  # a port nobody listens on: bound, never listened to
        free.bind(("127.0.0.1", 0))
        address = f"127.0.0.1:{free.getsockname()[1]}"
        command = [
            TRUC,
            "simulate",
            "--games",
            "4",
            "--backend",
            "ray",
            "--address",
            address,
            "--out",
            str(tmp_path / "d"),
        ]
        done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"error: could not reach the Ray cluster at {address}: Connection refused (is `ray start --head` running "
        "there, and the port open?)"
    ]
    assert not (tmp_path / "d").exists()


def _command_env(home: Path) -> dict[str, str]:
    """The environment of a ``truc`` run with its own home folder (the strength tables still read from the usual
    cache) and no Ray token of the test run's."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "truc-lab"
    return env | {"HOME": str(home), "TRUC_CACHE": os.environ.get("TRUC_CACHE", str(cache))}


def _processes_naming(text: str) -> list[int]:
    """The processes whose command line holds ``text``."""
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        with contextlib.suppress(OSError):
            if text.encode() in cmdline.read_bytes():
                found.append(int(cmdline.parent.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="reads the processes' command lines in /proc")
def test_a_ray_started_by_the_command_stops_with_it_on_ctrl_c_and_leaves_nothing(tmp_path: Path) -> None:
    """``truc simulate --backend ray`` without ``--address`` starts a Ray of its own, its files in a folder of the
    system's temporary directory. Ctrl-C, which a terminal sends to the whole foreground job: one line, exit code
    130, no output, that Ray's processes gone, its folder removed, and nothing written in the home folder (here
    ``tmp_path``: Ray would write ``~/.ray/auth_token``)."""
    before = set(Path(tempfile.gettempdir()).glob("truc-ray-*"))
    args = ["simulate", "--games", "200000", "--backend", "ray", "--quiet", "--out", str(tmp_path / "d")]
    process = subprocess.Popen(
        [sys.executable, "-c", "from pipeline.cli import main; main()", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_command_env(tmp_path),
        start_new_session=True,  # its own process group, as a terminal's foreground job
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 120
    while not list(tmp_path.glob(".d.tmp-*")):  # Ray started and its nodes checked: the games are being played
        assert process.poll() is None and time.monotonic() < deadline, process.communicate()
        time.sleep(0.1)
    (started,) = set(Path(tempfile.gettempdir()).glob("truc-ray-*")) - before
    time.sleep(1)
    os.killpg(process.pid, signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130
    assert stderr.decode() == "error: interrupted; nothing was written\n" and stdout == b""
    assert not started.exists()
    deadline = time.monotonic() + 10
    while _processes_naming(str(started)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _processes_naming(str(started)) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == []


@pytest.fixture
def two_nodes(ray_environment: None) -> Iterator[Cluster]:
    """A simulated cluster of two nodes of 1 CPU each on this machine (``ray.cluster_utils.Cluster``)."""
    temp = _ray_temp_dir()
    Path(temp, "ray").mkdir()  # the cluster writes its address to $RAY_TMPDIR/ray (by default /tmp/ray)
    os.environ["RAY_TMPDIR"] = temp
    cluster = Cluster(
        initialize_head=True,
        head_node_args={"num_cpus": 1, "include_dashboard": False, "temp_dir": temp, "object_store_memory": 10**8},
    )
    try:
        cluster.add_node(num_cpus=1, object_store_memory=10**8)
        cluster.wait_for_nodes()
        yield cluster
    finally:
        cluster.shutdown()
        del os.environ["RAY_TMPDIR"]
        shutil.rmtree(temp, ignore_errors=True)


def test_a_cluster_of_two_nodes_writes_the_rows_of_the_local_run(two_nodes: Cluster, tmp_path: Path) -> None:
    command = [TRUC, "simulate", "--games", "600", "--seed", "9", "--players", "2", "--quiet", "--out"]
    done = subprocess.run(
        [*command, str(tmp_path / "ray"), "--backend", "ray", "--address", two_nodes.address],
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == "" and "on 2 workers" in done.stdout  # the cluster's two CPUs
    subprocess.run([*command, str(tmp_path / "local"), "--workers", "1"], check=True, capture_output=True)
    assert_same_tables(tmp_path / "local", tmp_path / "ray")

    # A node whose engine is not the driver's (here forced to pure Python) is refused, by what differs.
    two_nodes.add_node(num_cpus=1, object_store_memory=10**8, env_vars={"TRUC_PURE": "1"})
    two_nodes.wait_for_nodes()
    env = {k: v for k, v in os.environ.items() if k != "TRUC_PURE"}
    done = subprocess.run(
        [*command, str(tmp_path / "other"), "--backend", "ray", "--address", two_nodes.address],
        capture_output=True,
        text=True,
        timeout=240,
        env=env,
    )
    assert done.returncode == 1
    (line,) = done.stderr.strip().splitlines()
    assert "runs engine pure Python (TRUC_PURE is set), this machine " in line, line
    assert "every node needs the same Python, Ray and truc-lab" in line
    assert not (tmp_path / "other").exists()
