"""The dataset on disk as the commands find and read it: paths taken as paths, folder walks, manifests."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner, Result

from pipeline import filesystem, parts, stats, store
from pipeline import simulate as simulate_module
from pipeline.cli import app
from pipeline.query import run_query
from pipeline.simulate import SimulationSpec, simulate


def _games(folder: Path) -> int:
    return sum(parts.read_table(folder, "games").num_rows for folder in store.dataset_folders(folder))


@pytest.fixture(scope="module")
def small_runs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Three datasets of 2, 3 and 4 games: told apart by their game counts."""
    folder = tmp_path_factory.mktemp("small_runs")
    runs = []
    for games in (2, 3, 4):
        out = folder / f"run{games}"
        simulate(SimulationSpec("catalan", games, games, {"players": "2"}), out)
        runs.append(out)
    return runs


@pytest.mark.parametrize("name", ["d[1]", "d?x", "d*", "d[!a]x"])
def test_a_folder_named_with_glob_characters_is_read_as_named(
    tmp_path: Path, small_runs: list[Path], name: str
) -> None:
    """``--data`` is a path, never a pattern: ``d[1]`` is read, not ``d1``; ``d?x`` is one dataset, not
    every folder its pattern matches. The statistics, ``truc sql`` and the report read it as ``truc
    datasets`` and ``truc export`` do."""
    named = tmp_path / name
    shutil.copytree(small_runs[0], named)  # 2 games
    for other, run in zip(("d1", "dax", "dbx"), small_runs[1:] + small_runs[1:2], strict=True):
        shutil.copytree(run, tmp_path / other)
    frame = run_query("select dataset, count(*) as games from games group by all", named)
    assert frame is not None and frame.rows() == [(str(named.resolve()), 2)]
    assert stats.compute("variant_comparison", named)["games"].to_list() == [2]
    assert _games(named) == 2


def test_a_path_duckdb_cannot_read_as_a_path_is_refused_in_one_line(tmp_path: Path, small_runs: list[Path]) -> None:
    """DuckDB's glob splits a path at a backslash too: a folder named with one and a glob character cannot
    be named to it, which is said rather than read as another folder."""
    named = tmp_path / "a\\[1]"
    shutil.copytree(small_runs[0], named)
    with pytest.raises(store.DatasetError, match=r"DuckDB cannot read a file whose path holds a backslash"):
        run_query("select count(*) from games", named)


def _in_process(*args: str) -> Result:
    """The command line run in this process (for what cannot hang)."""
    return CliRunner().invoke(app, list(args))


def _truc(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """The command line in a process of its own, killed after ``timeout`` seconds (a hang fails the test)."""
    command = [sys.executable, "-c", "from pipeline.cli import main; main()", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)


@pytest.mark.parametrize("links", [("a", "b"), ("up",)])
def test_links_that_make_a_cycle_are_walked_once(
    tmp_path: Path, small_runs: list[Path], links: tuple[str, ...]
) -> None:
    """A folder of runs holding links to itself (``a -> .``, ``b -> .``) or to its parent (``up -> ..``):
    every command that walks it used to follow them until killed. Each folder is entered once, and one
    that holds the folder walked is not entered at all: the runs are read once each."""
    runs = tmp_path / "runs"
    runs.mkdir()
    for run in small_runs:
        shutil.copytree(run, runs / run.name)
    for link in links:
        (runs / link).symlink_to(".." if link == "up" else ".")
    (tmp_path / "elsewhere").symlink_to(small_runs[0])  # beside the runs: a link up would reach it
    assert _truc("sql", "select count(*) as n from games", "--data", str(runs), "--format", "csv").stdout == "n\n9\n"
    assert store.expand_datasets([runs]) == [runs / run.name for run in small_runs]
    for command in (["datasets"], ["export", "--out", "-"]):
        result = _in_process(*command, "--data", str(runs))
        assert result.exit_code == 0, result.stderr


@pytest.mark.skipif(
    os.geteuid() == 0 and shutil.which("setpriv") is None, reason="root reads any folder; setpriv runs as nobody"
)
def test_a_folder_of_runs_with_a_folder_it_may_not_search_names_it(small_runs: list[Path]) -> None:
    """A run folder the user may not enter (mode 000): one line naming it, not Python's bare "[Errno 13]
    Permission denied: '.../manifest.json'". Run as nobody when the tests run as root."""
    import tempfile

    top = Path(tempfile.mkdtemp(prefix="truc-permissions-"))
    try:
        runs = top / "runs"
        shutil.copytree(small_runs[0], runs / "a")
        (runs / "secret" / "inner").mkdir(parents=True)
        for path in [top, *top.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        (runs / "secret").chmod(0)
        command = [sys.executable, "-c", "from pipeline.cli import main; main()", "datasets", "--data", str(runs)]
        if os.geteuid() == 0:
            nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
            if subprocess.run([*nobody, *command[:2], "import pipeline"], cwd=top).returncode != 0:
                pytest.skip("nobody cannot run this Python (its installation is not readable by all)")
            command = [*nobody, *command]
        done = subprocess.run(command, capture_output=True, text=True, cwd=top)
        assert (done.returncode, done.stderr) == (1, f"error: cannot read {runs / 'secret'}: Permission denied\n")
    finally:
        (top / "runs" / "secret").chmod(0o755)
        shutil.rmtree(top)


def test_a_named_pipe_in_a_dataset_is_refused_not_waited_on(tmp_path: Path, small_runs: list[Path]) -> None:
    """A named pipe named like a part (or a link to a device) would block every reader, which waits for a
    writer that never comes: an entry of a table that is not a regular file is refused by name."""
    data = tmp_path / "d"
    shutil.copytree(small_runs[0], data)
    pipe = data / "games" / "part-00001.parquet"
    os.mkfifo(pipe)
    for command in (["sql", "select 1"], ["datasets"]):
        result = _truc(*command, "--data", str(data))
        assert result.returncode == 1
        assert result.stderr == f"error: {pipe} is not a regular file: a dataset's tables hold Parquet files only\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 100_000, "is not valid JSON: nested 100,000 levels deep, more than 32"),
        ('["' + "[" * 100 + '", [[[]]]]', "is not a Truc Lab manifest: a JSON object was expected"),
        (
            '{"kind": "simulation", "notes": "' + "x" * store.MANIFEST_BYTES + '"}',
            f"is larger than {store.MANIFEST_BYTES:,} bytes",
        ),
        ('{"kind": "simulation"', "is not valid JSON: Expecting ',' delimiter"),
    ],
)
def test_a_manifest_too_deep_or_too_large_is_one_line(
    tmp_path: Path, small_runs: list[Path], text: str, message: str
) -> None:
    """A hand-made manifest nested 100,000 levels deep raised RecursionError in every reading command and
    in ``--overwrite`` of its folder. Its depth and size are checked before it is parsed (brackets in its
    strings do not count), and ``--overwrite`` keeps a folder whose manifest is unreadable."""
    data = tmp_path / "d"
    shutil.copytree(small_runs[0], data)
    (data / "manifest.json").write_text(text, "utf-8")
    if "object was expected" in message:
        assert store._json_depth(text) == 4  # the brackets of the string are not counted
    with pytest.raises(store.DatasetError, match=re.escape(message)):
        store.read_manifest(data)
    if len(text) != 100_000:
        return
    for command in (["sql", "select 1"], ["datasets"], ["export", "--out", "-"], ["report", "--out", "r"]):
        result = _in_process(*command, "--data", str(data))
        assert result.exit_code == 1 and result.stderr.count("\n") == 1, result.stderr
        assert message in result.stderr
    result = _in_process("simulate", "--games", "1", "--out", str(data), "--overwrite")
    assert result.exit_code == 1 and "exists and is not a Truc Lab dataset holding only its own files" in result.stderr


def _started(*args: str) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-c", "from pipeline.cli import main; main()", *args]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)


def _wait_for(pattern: str, folder: Path, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 120
    while not list(folder.glob(pattern)):
        assert process.poll() is None, process.stderr.read() if process.stderr else ""
        assert time.monotonic() < deadline
        time.sleep(0.05)


def test_a_killed_writer_s_temporary_output_is_removed_by_the_next_command_writing_beside_it(tmp_path: Path) -> None:
    """``kill -9`` (or the kernel's out-of-memory killer) leaves a command no moment to clean up: its
    ``.NAME.tmp-PID-RANDOM`` folder stayed forever. The next command that writes in the same folder removes
    the temporary outputs nobody holds locked, and leaves alone those of live commands (here one this test
    holds open), whatever the process id in their names; a link named like one is not followed."""
    killed = _started("simulate", "--games", "100000", "--workers", "1", "--quiet", "--out", str(tmp_path / "b"))
    _wait_for(".b.tmp-*/games/part-*.parquet", tmp_path, killed)
    killed.kill()
    killed.wait()
    (tmp_path / f".all.truc.tmp-{os.getpid()}-0123abcd").write_text("half an export", "utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / ".x.tmp-1-89abcdef").symlink_to(elsewhere)
    with store.atomic_dataset(tmp_path / "a", False) as live:
        (live / "note").write_text("a live command's work", "utf-8")
        result = _truc("simulate", "--games", "2", "--quiet", "--out", str(tmp_path / "c"))
        assert result.returncode == 0, result.stderr
        left = sorted(path.name for path in tmp_path.iterdir())
        assert left == sorted([".x.tmp-1-89abcdef", live.name, "c", "elsewhere"])
        (live / "note").unlink()
    assert sorted(path.name for path in tmp_path.iterdir()) == [".x.tmp-1-89abcdef", "a", "c", "elsewhere"]


def _killed_env(**extra: str) -> dict[str, str]:
    return {**os.environ, "TRUC_KILL_AT": "replace", **extra}


@pytest.mark.parametrize("exchange", [True, False])
def test_overwrite_killed_between_its_two_steps_leaves_a_whole_dataset(
    tmp_path: Path, small_runs: list[Path], exchange: bool
) -> None:
    """``--overwrite`` moved the old dataset aside, then the new one in: a kill between the two left no
    ``--out`` at all. Where the system offers it the two folders are exchanged in one step, so a kill
    after it (``TRUC_KILL_AT=replace``) finds the new dataset in place; elsewhere (``TRUC_NO_EXCHANGE=1``)
    the next command that reads it puts the old one back. Either way the next command reads a whole
    dataset, and the next command writing beside it removes what is left."""
    out = tmp_path / "d"
    shutil.copytree(small_runs[0], out)  # 2 games, seed 2
    env = _killed_env() if exchange else _killed_env(TRUC_NO_EXCHANGE="1")
    command = [sys.executable, "-c", "from pipeline.cli import main; main()"]
    args = ["simulate", "--games", "3", "--seed", "7", "--quiet", "--out", str(out), "--overwrite"]
    killed = subprocess.run([*command, *args], env=env, capture_output=True, timeout=120, check=False)
    assert killed.returncode == -9, killed.stderr
    assert out.exists() is exchange
    result = _truc("sql", "select count(*) as n from games", "--data", str(out), "--format", "csv")
    assert result.returncode == 0, result.stderr
    assert result.stdout == ("n\n3\n" if exchange else "n\n2\n")
    assert store.read_manifest(out)["seed"] == (7 if exchange else 2)
    assert _truc("simulate", "--games", "1", "--quiet", "--out", str(tmp_path / "e")).returncode == 0
    assert sorted(path.name for path in tmp_path.iterdir()) == ["d", "e"]


def test_a_second_overwrite_of_the_same_output_is_refused_while_the_first_runs(
    tmp_path: Path, small_runs: list[Path]
) -> None:
    """Two ``--overwrite`` of one output at once both said they wrote it, and the last to end silently
    replaced the first's data. The output is locked by the command replacing it: the second is refused at
    once, and the first, stopped, leaves the output as it was."""
    out = tmp_path / "d"
    shutil.copytree(small_runs[0], out)
    first = _started("simulate", "--games", "100000", "--workers", "1", "--quiet", "--out", str(out), "--overwrite")
    try:
        _wait_for(".d.tmp-*/games/part-*.parquet", tmp_path, first)
        second = _truc("simulate", "--games", "2", "--quiet", "--out", str(out), "--overwrite")
        assert second.returncode == 1
        assert second.stderr == f"error: {out} is being written by another command: run this one again when it ends\n"
    finally:
        first.terminate()
        first.wait(timeout=60)
    assert store.read_manifest(out)["seed"] == 2 and _games(out) == 2


@pytest.fixture(scope="module")
def runs_of_many_parts(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Two datasets of 12 and 6 games, written 2 games to a part."""
    folder = tmp_path_factory.mktemp("many_parts")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(simulate_module, "CHUNK_GAMES", 2)
        for games in (12, 6):
            simulate(SimulationSpec("catalan", games, games, {"players": "2"}), folder / f"run{games}")
    return folder / "run12", folder / "run6"


def test_a_reader_sees_one_whole_dataset_or_is_told_it_was_replaced(
    tmp_path: Path, runs_of_many_parts: tuple[Path, Path]
) -> None:
    """While a dataset is replaced again and again (``--overwrite``), each query reads either one whole
    dataset (every hand has its game, and the games are those of one of the two runs), or stops with the
    one error that says what happened: the dataset was replaced while it was read. ``truc stats`` used to
    say "a file was added, removed or replaced" or "does not exist"."""
    out = tmp_path / "d"
    shutil.copytree(runs_of_many_parts[0], out)
    stop = threading.Event()
    replaced = []

    def replace_again_and_again() -> None:
        while not stop.is_set():
            for source in runs_of_many_parts:
                with store.atomic_dataset(out, True) as tmp:
                    shutil.copytree(source, tmp, dirs_exist_ok=True)
                replaced.append(source.name)
                # a pause between two replacements: on a loaded machine a query outlasted every gap between
                # back-to-back replacements, and no read could be whole
                stop.wait(0.1)

    replacer = threading.Thread(target=replace_again_and_again)
    replacer.start()
    sql = (
        "select (select count(*) from games) as games, (select count(distinct game_id) from hands) as played, "
        "(select count(*) from hands anti join games using (dataset, game_id)) as orphans"
    )
    outcomes: dict[str, int] = {}
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                frame = run_query(sql, out)
            except store.DatasetError as exc:
                outcome = str(exc)
            else:
                assert frame is not None
                outcome = repr(frame.row(0))
            outcomes[outcome] = outcomes.get(outcome, 0) + 1
    finally:
        stop.set()
        replacer.join()
    told = f"{out.resolve()} was replaced while this command read it: run the command again"
    assert set(outcomes) <= {"(12, 12, 0)", "(6, 6, 0)", told}, outcomes
    assert outcomes.get("(12, 12, 0)", 0) + outcomes.get("(6, 6, 0)", 0) > 0 and len(replaced) > 10, outcomes


@pytest.mark.parametrize(
    ("command", "inside"),
    [
        (["simulate", "--games", "1"], "games/part-99999.parquet"),
        (["import", "-"], "notes/new"),
        (["report", "--data"], "games/report"),
        (["export", "--data"], "all.truc"),
    ],
)
def test_an_output_inside_a_dataset_is_refused(
    tmp_path: Path, small_runs: list[Path], command: list[str], inside: str
) -> None:
    """``simulate --out DATASET/games/part-99999.parquet`` was written, and the dataset it went into could no
    longer be read. No command writes inside a dataset, at any depth; the dataset is left as it was."""
    data = tmp_path / "d"
    shutil.copytree(small_runs[0], data)
    out = data / inside
    args = [*command, str(small_runs[1])] if command[-1] == "--data" else command
    result = _truc(*args, "--out", str(out))
    assert result.returncode == 1
    assert result.stderr.startswith(f"error: cannot write {out}: it is inside the dataset {data}, which holds only")
    tree = sorted(path.relative_to(data) for path in data.rglob("*"))
    assert tree == sorted(path.relative_to(small_runs[0]) for path in small_runs[0].rglob("*"))


@pytest.fixture
def read_only_folder(tmp_path: Path) -> Iterator[Path]:
    """A folder on a read-only file system (a tmpfs mounted read-only; skipped where mounting is not allowed)."""
    folder = tmp_path / "ro"
    folder.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=1m", "none", str(folder)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip("mounting a read-only file system needs root")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=True)


@pytest.mark.parametrize("command", ["export", "simulate"])
def test_an_output_on_a_read_only_disk_is_told_as_such(
    read_only_folder: Path, small_runs: list[Path], command: str
) -> None:
    """Export to a read-only disk printed ``[Errno 30] Read-only file system`` from the clean-up of the
    temporary file that was never made, instead of the error naming the output."""
    out = read_only_folder / "all.truc"
    args = ["--data", str(small_runs[0])] if command == "export" else ["--games", "1", "--quiet"]
    result = _truc(command, *args, "--out", str(out))
    assert result.returncode == 1
    assert result.stderr == f"error: cannot write {out}: Read-only file system\n"


def test_a_corrupt_part_is_named(tmp_path: Path) -> None:
    """A part whose footer is sound but a page is corrupt passes ``check_dataset`` (which compares sizes);
    DuckDB then said "Out of buffer" or "ZSTD Decompression failure" with no file's name, and the export
    pyarrow's "ZSTD decompression failed". A statistic read from the rows, ``truc sql`` and the export name the
    part (a report reads the tallies: ``test_a_corrupt_tally_is_named``)."""
    data = tmp_path / "d"
    simulate(SimulationSpec("catalan", 300, 3, {"players": "2"}), data)
    part = data / "hands" / "part-00000.parquet"
    # corrupt pages in a column the report's statistics read (winner_team) and in one the export reads (dealer;
    # it reads only the columns its lines need): which bytes a third of the way into a part hold depends on the
    # part's size, and a column no query reads is never decompressed
    content = bytearray(part.read_bytes())
    for chunk in (pq.ParquetFile(part).metadata.row_group(0).column(i) for i in range(len(parts.HANDS))):
        if chunk.path_in_schema in ("winner_team", "dealer"):
            middle = chunk.data_page_offset + chunk.total_compressed_size // 2
            for offset in range(middle - 8, middle + 8):
                content[offset] ^= 0xFF
    part.write_bytes(bytes(content))
    store.check_dataset(data)
    commands = (
        ["stats", "mano_advantage", "--from-rows"],
        ["sql", "select * from hands"],
        ["export", "--out", str(tmp_path / "e.truc"), "--quiet"],
    )
    for command in commands:
        result = _truc(*command, "--data", str(data))
        assert result.returncode == 1
        assert result.stderr.startswith(f"error: {part} is not a readable Parquet file: "), result.stderr


def test_a_corrupt_tally_is_named(tmp_path: Path) -> None:
    """A tally damaged in place (the same size, a page flipped) fails the statistics and the report that read it,
    naming it; ``truc verify`` names it too, and ``truc upgrade`` writes it again."""
    data = tmp_path / "d"
    simulate(SimulationSpec("catalan", 300, 3, {"players": "2"}), data)
    tally = data / store.TALLIES / "first_trick_value.parquet"
    content = bytearray(tally.read_bytes())
    chunk = pq.ParquetFile(tally).metadata.row_group(0).column(2)
    for offset in range(chunk.data_page_offset, chunk.data_page_offset + chunk.total_compressed_size):
        content[offset] ^= 0xFF
    tally.write_bytes(bytes(content))
    for command in (["stats", "first_trick_value"], ["report", "--out", str(tmp_path / "r"), "--quiet"]):
        result = _truc(*command, "--data", str(data))
        assert result.returncode == 1
        assert result.stderr.startswith(f"error: {tally} is not a readable Parquet file: "), result.stderr
    assert f"{tally} is damaged" in _truc("verify", "--data", str(data)).stdout
    assert _truc("upgrade", "--data", str(data)).stdout == f"{data}: tallies written\n"
    assert _truc("stats", "first_trick_value", "--data", str(data)).returncode == 0


GIVE_BACK = """
import sys
from pipeline import parts

def resident():
    return next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmRSS:")) * 1024

blocks = [bytes(4000) for _ in range(50_000)]  # 200 MB from the C heap (Python's own allocator stops at 512 bytes)
kept = blocks[::8]  # the freed blocks lie between live ones: the heap cannot shrink from its top
del blocks
before = resident()
parts.give_back_memory()
print(before, resident())
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the resident memory from Linux's /proc")
def test_a_writer_gives_back_the_memory_freed_before_the_tallies_take_theirs() -> None:
    """175 MB freed between live blocks stays the process's until it is given back (``parts.give_back_memory``,
    which ``PartWriter.close`` calls, before a dataset's tallies): most of it goes back to the system."""
    done = subprocess.run([sys.executable, "-c", GIVE_BACK], capture_output=True, text=True, check=True)
    before, after = map(int, done.stdout.split())
    assert before - after > 100 * 2**20, (before, after)


def test_a_writer_closed_twice_writes_and_gives_back_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``truc import`` and ``truc simulate`` close their writer, then its context manager closes it again: the second
    close neither writes nor gives memory back."""
    given_back: list[None] = []
    monkeypatch.setattr(parts, "give_back_memory", lambda: given_back.append(None))
    with parts.PartWriter(tmp_path) as writer:
        rows = writer.close()
        files = sorted(tmp_path.rglob("*.parquet"))
    assert writer.close() == rows == dict.fromkeys(store.TABLES, 0)
    assert sorted(tmp_path.rglob("*.parquet")) == files and len(files) == len(store.TABLES)
    assert len(given_back) == 1


# ------------------------------------------------------------------------------- files added to a folder


def test_files_added_replace_their_namesakes_and_leave_the_rest(tmp_path: Path) -> None:
    out = tmp_path / "figures"
    out.mkdir()
    (out / "figures.json").write_text("old")
    (out / "notes.md").write_text("kept")
    with store.files_added(out) as work:
        assert work.parent == tmp_path and work != out
        (work / "figures.json").write_text("new")
        (work / "chart.svg").write_text("svg")
    assert {p.name: p.read_text() for p in out.iterdir()} == {
        "figures.json": "new",
        "notes.md": "kept",
        "chart.svg": "svg",
    }
    assert os.listdir(tmp_path) == ["figures"]  # the temporary folder is gone


def test_files_added_to_a_folder_another_command_replaced_meanwhile_are_not_moved(tmp_path: Path) -> None:
    """A folder replaced while the files were made (another run's ``--overwrite``) is not the one checked at
    the start: nothing is moved into it, and nothing is left beside it."""
    out = tmp_path / "figures"
    out.mkdir()
    replaced = pytest.raises(store.DatasetError, match="replaced by another command while this one ran")
    with replaced, store.files_added(out) as work:
        (work / "figures.json").write_text("new")
        os.rename(out, tmp_path / "aside")
        out.mkdir()
    assert os.listdir(out) == [] and sorted(os.listdir(tmp_path)) == ["aside", "figures"]


def test_files_added_to_a_folder_another_command_is_writing_are_refused(tmp_path: Path) -> None:
    out = tmp_path / "figures"
    out.mkdir()
    held = filesystem.hold(out, follow=True)
    try:
        with pytest.raises(store.DatasetError, match="being written by another command"), store.files_added(out):
            raise AssertionError("not reached")
    finally:
        filesystem.release(held)
    assert os.listdir(tmp_path) == ["figures"]
