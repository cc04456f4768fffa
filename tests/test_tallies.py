"""The datasets' tallies (``pipeline.tallies``): a statistic read from them is the statistic read from the rows.

Every statistic with a tally is computed both ways over datasets of every variant and player count
(``sim_all_variants``), with a second run of one variant of each family and a 4-player Catalan run of mixed bots
beside them, so that the tallies of several datasets add up to the same groups. The rest: the tallies are written by
every writer, read only when current, checked by ``truc verify`` and written again by ``truc upgrade``.
"""

from __future__ import annotations

import _thread
import json
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import duckdb
import pytest
from polars.testing import assert_frame_equal
from typer.testing import CliRunner

from pipeline import stats, store, tallies
from pipeline.cli import app
from pipeline.history.io import export_dataset, import_files
from pipeline.simulate import SimulationSpec, simulate
from pipeline.upgrade import upgrade_dataset

TALLIED = [s.name for s in stats.list_statistics() if s.tally_and_finish() is not None]


SECOND_RUNS = ("catalan", "trut", "french", "valencian")
"""The variants run a second time beside ``sim_all_variants`` (2 players, as it runs them), one of each family, so
that every statistic's tally rows of one group come from two datasets and add up (a share of a group's total, a
count of distinct bots: the finish's work)."""


@pytest.fixture(scope="module")
def second_runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of second runs of ``SECOND_RUNS``: the threshold bot against the random one, as in
    ``sim_all_variants``, other seeds."""
    folder = tmp_path_factory.mktemp("tallies")
    for seed, variant in enumerate(SECOND_RUNS, start=90):
        spec = SimulationSpec(variant, 30, seed, {"players": "2"}, "threshold", {1: "random"})
        simulate(spec, folder / f"{variant}-2p-again")
    return folder


@pytest.fixture(scope="module")
def second_catalan(second_runs: Path) -> Path:
    return second_runs / "catalan-2p-again"


@pytest.fixture(scope="module")
def many(sim_all_variants: Path, second_runs: Path, sim_dataset: Path) -> list[Path]:
    return [sim_all_variants, second_runs, sim_dataset]


def test_every_statistic_has_a_tally() -> None:
    assert [s.name for s in stats.list_statistics() if s.tally_and_finish() is None] == []


@pytest.mark.parametrize("name", TALLIED)
def test_tallies_give_the_rows_statistic(many: list[Path], name: str) -> None:
    folders = store.dataset_folders(many)
    statistic = stats.get_statistic(name)
    assert tallies.stored(folders, statistic, statistic.defaults()) is not None, "the tallies were not read"
    from_tallies = stats.compute(name, many)
    from_rows = stats.compute(name, many, from_rows=True)
    assert from_rows.height > 0 or name in {"envit", "trut", "french"}
    assert_frame_equal(from_tallies, from_rows, check_exact=False, rel_tol=1e-9, abs_tol=1e-12)


@pytest.mark.parametrize("name", TALLIED)
def test_each_dataset_alone(second_runs: Path, name: str) -> None:
    for variant in SECOND_RUNS:
        dataset = second_runs / f"{variant}-2p-again"
        assert_frame_equal(
            stats.compute(name, dataset),
            stats.compute(name, dataset, from_rows=True),
            check_exact=False,
            rel_tol=1e-9,
            abs_tol=1e-12,
        )


def test_other_parameters_read_the_rows(many: list[Path]) -> None:
    statistic = stats.get_statistic("bluff_success")
    folders = store.dataset_folders(many)
    assert tallies.stored(folders, statistic, statistic.defaults()) is not None
    assert tallies.stored(folders, statistic, {"threshold": 0.5}) is None
    assert_frame_equal(
        stats.compute("bluff_success", many, {"threshold": "0.5"}),
        stats.compute("bluff_success", many, {"threshold": "0.5"}, from_rows=True),
    )
    assert not stats.compute("bluff_success", many, {"threshold": "0.5"}).equals(stats.compute("bluff_success", many))


def _copy(dataset: Path, to: Path) -> Path:
    shutil.copytree(dataset, to)
    return to


def _manifest(root: Path) -> dict[str, Any]:
    return json.loads((root / "manifest.json").read_text("utf-8"))


def test_a_tally_of_other_sql_or_size_is_not_read(second_catalan: Path, tmp_path: Path) -> None:
    root = _copy(second_catalan, tmp_path / "copy")
    statistic = stats.get_statistic("first_trick_value")
    assert tallies.stored([root], statistic, {}) is not None
    manifest = _manifest(root)
    manifest[store.TALLIES][tallies.relative_path(statistic.name)]["digest"] = "0" * 32
    store.replace_manifest(root, manifest)
    assert tallies.stored([root], statistic, {}) is None
    assert_frame_equal(stats.compute(statistic.name, root), stats.compute(statistic.name, root, from_rows=True))

    other = _copy(second_catalan, tmp_path / "other")
    with (other / tallies.relative_path(statistic.name)).open("ab") as stream:
        stream.write(b"\0")
    assert tallies.stored([other], statistic, {}) is None


def test_verify_names_a_damaged_or_missing_tally_and_upgrade_writes_them_again(
    second_catalan: Path, tmp_path: Path
) -> None:
    root = _copy(second_catalan, tmp_path / "copy")
    assert store.verify_dataset(root) == []
    damaged = root / tallies.relative_path("first_trick_value")
    damaged.write_bytes(damaged.read_bytes()[:-1] + b"\1")
    (root / tallies.relative_path(TALLIED[-1])).unlink()
    lines = store.verify_dataset(root)
    assert len(lines) == 2
    assert "first_trick_value.parquet is damaged" in lines[0] or "first_trick_value.parquet is damaged" in lines[1]
    assert any(f"{TALLIED[-1]}.parquet is listed" in line and "missing" in line for line in lines)
    assert all("truc upgrade" in line for line in lines)

    assert upgrade_dataset(root) == "tallies written"
    assert store.verify_dataset(root) == []
    assert upgrade_dataset(root) is None
    for name in TALLIED:
        statistic = stats.get_statistic(name)
        assert tallies.stored([root], statistic, statistic.defaults()) is not None


def test_upgrade_writes_the_tallies_of_a_dataset_written_before_them(second_catalan: Path, tmp_path: Path) -> None:
    root = _copy(second_catalan, tmp_path / "copy")
    shutil.rmtree(root / store.TALLIES)
    manifest = _manifest(root)
    del manifest[store.TALLIES]
    store.replace_manifest(root, manifest)
    assert store.verify_dataset(root) == []
    assert tallies.stored([root], stats.get_statistic("first_trick_value"), {}) is None

    result = CliRunner().invoke(app, ["upgrade", "--data", str(root)])
    assert result.exit_code == 0, result.output
    assert "tallies written" in result.output
    assert _manifest(root)[store.TALLIES].keys() == {tallies.relative_path(name) for name in TALLIED}


def test_an_import_writes_its_tallies(second_catalan: Path, tmp_path: Path) -> None:
    text = tmp_path / "games.truc"
    export_dataset(second_catalan, text)
    imported = tmp_path / "imported"
    import_files([text], imported)
    assert _manifest(imported)[store.TALLIES].keys() == {tallies.relative_path(name) for name in TALLIED}
    for name in TALLIED:
        statistic = stats.get_statistic(name)
        assert tallies.stored([imported], statistic, statistic.defaults()) is not None
        assert_frame_equal(stats.compute(name, imported), stats.compute(name, imported, from_rows=True))


def test_overwrite_replaces_a_dataset_with_its_tallies(second_catalan: Path, tmp_path: Path) -> None:
    out = _copy(second_catalan, tmp_path / "copy")
    simulate(SimulationSpec("catalan", 5, 1, {"players": "2"}, "threshold"), out, overwrite=True)
    assert _manifest(out)["seed"] == 1
    assert tallies.stored([out], stats.get_statistic("first_trick_value"), {}) is not None


def test_from_rows_on_the_command_line(second_catalan: Path) -> None:
    tallied = CliRunner().invoke(app, ["stats", "first_trick_value", "--data", str(second_catalan), "--format", "csv"])
    rows = CliRunner().invoke(
        app, ["stats", "first_trick_value", "--data", str(second_catalan), "--format", "csv", "--from-rows"]
    )
    assert tallied.exit_code == 0 and rows.exit_code == 0, tallied.output + rows.output
    assert tallied.stdout == rows.stdout


def test_truc_stats_imports_no_pyarrow(second_catalan: Path) -> None:
    """``truc stats`` starts without pyarrow, from the tallies or from the rows: the readers trust the manifest
    (``pipeline.store``) and DuckDB hands its rows to polars by Arrow's C stream; importing pyarrow
    (``pipeline.parts``) was a third of a statistic's time over its tally."""
    script = (
        "import sys\n"
        "from pipeline.cli import main\n"
        "sys.argv = ['truc', 'stats', sys.argv[1], '--data', sys.argv[2], '--format', 'csv', *sys.argv[3:]]\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as exc:\n"
        "    assert not exc.code, exc.code\n"
        "print('pyarrow' in sys.modules, file=sys.stderr)\n"
    )
    for extra in ([], ["--from-rows"]):
        done = subprocess.run(
            [sys.executable, "-c", script, "first_trick_value", str(second_catalan), *extra],
            capture_output=True,
            text=True,
            check=True,
        )
        assert done.stderr.strip().splitlines()[-1] == "False", (extra, done.stderr)
        assert done.stdout.startswith("variant,players,hands,p_win_won_first")


HOLDS_A_LIST = "select list(range) as held from range(40000000)"
"""A query whose aggregate holds forty million values at once (320 MB), which DuckDB cannot spill."""


def test_a_tally_out_of_memory_beside_the_others_runs_again_alone(
    second_catalan: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """DuckDB keeps some of what the earlier tallies held, and the queries beside one hold their share: a tally that
    runs out of memory there runs again alone, in a connection of its own. Here player_results' query is replaced, in
    the shared run, by one that holds 320 MB under a limit of 150 MB: DuckDB's own out-of-memory error."""
    root = _copy(second_catalan, tmp_path / "copy")
    write_queries, write_query = stats.write_queries, stats.write_query
    limit = stats.DUCKDB_MEMORY
    short: list[str] = []
    shared: list[Any] = []
    alone: list[tuple[Any, str]] = []

    def too_big_for_player_results(con: Any, folders: Any, jobs: Any, at_once: int) -> Any:
        shared.append(con)
        changed = [(s, HOLDS_A_LIST if s.name == "player_results" else sql, path) for s, sql, path in jobs]
        monkeypatch.setattr(stats, "DUCKDB_MEMORY", "150MB")
        try:
            left = write_queries(con, folders, changed, at_once)
        finally:
            monkeypatch.setattr(stats, "DUCKDB_MEMORY", limit)
        short.extend(statistic.name for statistic, _, _ in left)
        return [jobs[changed.index(job)] for job in left]

    def recorded(con: Any, statistic: Any, sql: str, path: Path) -> None:
        alone.append((con, statistic.name))
        write_query(con, statistic, sql, path)

    monkeypatch.setattr(stats, "write_queries", too_big_for_player_results)
    monkeypatch.setattr(stats, "write_query", recorded)
    tallies.write_tallies(root)
    assert short == ["player_results"]
    assert [name for _, name in alone] == ["player_results"] and alone[0][0] is not shared[0]
    assert tallies.current(root)
    assert_frame_equal(stats.compute("player_results", root), stats.compute("player_results", root, from_rows=True))


@pytest.mark.parametrize(("at_once_games", "at_once"), [(250_000, 2), (29, 1)])
def test_tallies_run_two_at_a_time_over_a_small_dataset(
    second_catalan: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, at_once_games: int, at_once: int
) -> None:
    """Two queries at a time over a dataset of at most ``AT_ONCE_GAMES`` games (here 30), one at a time over more:
    the same tallies either way."""
    root = _copy(second_catalan, tmp_path / "copy")
    write_queries = stats.write_queries
    asked: list[int] = []

    def recorded(con: Any, folders: Any, jobs: Any, at_once: int) -> Any:
        asked.append(at_once)
        return write_queries(con, folders, jobs, at_once)

    monkeypatch.setattr(stats, "write_queries", recorded)
    monkeypatch.setattr(tallies, "AT_ONCE_GAMES", at_once_games)
    tallies.write_tallies(root)
    assert asked == [at_once]
    assert tallies.current(root)
    for name in TALLIED:
        assert_frame_equal(stats.compute(name, root), stats.compute(name, root, from_rows=True))


def test_write_queries_writes_every_job_and_raises_the_first_error(second_catalan: Path, tmp_path: Path) -> None:
    """Queries written two at a time, each on a cursor that reads the staging's views (their file variables are
    the connection's own): every job is written; an error is raised as DuckDB gave it."""
    statistic = stats.get_statistic("tie_frequency")
    jobs = [(statistic, f"select count(*) as n, {k} as k from stg_events", tmp_path / f"{k}.parquet") for k in range(5)]
    with stats.staged([second_catalan]) as con:
        assert stats.write_queries(con, [second_catalan], jobs, 2) == []
        (events,) = con.execute("select count(*) from stg_events").fetchall()[0]
        broken = [*jobs, (statistic, "select * from no_such_view", tmp_path / "broken.parquet")]
        with pytest.raises(duckdb.CatalogException, match="no_such_view"):
            stats.write_queries(con, [second_catalan], broken, 2)
    for k in range(5):
        written = duckdb.connect().execute(
            "select * from read_parquet($path)", {"path": str(tmp_path / f"{k}.parquet")}
        )
        assert written.fetchall() == [(events, k)]
    assert not (tmp_path / "broken.parquet").exists()


ENDLESS = "select sum(a.range * b.range) as n from range(1000000) a, range(1000000) b"
"""10^12 pairs: a query that only an interrupt ends."""


def test_write_queries_stops_at_ctrl_c(second_catalan: Path, tmp_path: Path, ctrl_c_heard: None) -> None:
    """Ctrl-C (here ``interrupt_main``, as the terminal's SIGINT) interrupts every query running and stops at once."""
    jobs = [(stats.get_statistic("tie_frequency"), ENDLESS, tmp_path / f"{k}.parquet") for k in range(3)]
    timer = threading.Timer(0.5, _thread.interrupt_main)
    started = time.monotonic()
    with stats.staged([second_catalan]) as con:
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            stats.write_queries(con, [second_catalan], jobs, 2)
        assert con.execute("select 42").fetchall() == [(42,)]
    assert time.monotonic() - started < 20
    assert not list(tmp_path.glob("*.parquet"))


class _CtrlCAfterFirstStart(threading.Thread):
    """A thread whose first start in a test is followed at once by Ctrl-C (``KeyboardInterrupt`` in the main
    thread), before the next thread starts: a query whose thread had started ran on with nobody waiting for it."""

    started = 0

    def start(self) -> None:
        super().start()
        type(self).started += 1
        if type(self).started == 1:
            raise KeyboardInterrupt


@pytest.fixture
def ctrl_c_after_first_thread_start(monkeypatch: pytest.MonkeyPatch) -> None:
    """The threads the statistics start are ``_CtrlCAfterFirstStart``, counted from 0 in each test."""
    monkeypatch.setattr(_CtrlCAfterFirstStart, "started", 0)
    monkeypatch.setattr(stats.threading, "Thread", _CtrlCAfterFirstStart)


@pytest.mark.usefixtures("ctrl_c_after_first_thread_start")
def test_write_queries_stops_a_query_started_just_before_ctrl_c(second_catalan: Path, tmp_path: Path) -> None:
    jobs = [(stats.get_statistic("tie_frequency"), ENDLESS, tmp_path / f"{k}.parquet") for k in range(3)]
    started = time.monotonic()
    with stats.staged([second_catalan]) as con:
        with pytest.raises(KeyboardInterrupt):
            stats.write_queries(con, [second_catalan], jobs, 2)
        assert not [t for t in threading.enumerate() if t.name == "truc-query"]  # none left running its query
        assert con.execute("select 42").fetchall() == [(42,)]
    assert time.monotonic() - started < 20
    assert not list(tmp_path.glob("*.parquet"))


@pytest.mark.usefixtures("ctrl_c_after_first_thread_start")
def test_interruptible_stops_a_query_whose_thread_started_just_before_ctrl_c() -> None:
    started = time.monotonic()
    with duckdb.connect() as con:
        with pytest.raises(KeyboardInterrupt):
            stats.interruptible(con, lambda: con.sql(ENDLESS).fetchall())
        assert not [t for t in threading.enumerate() if t.name == "truc-query"]
        assert con.execute("select 42").fetchall() == [(42,)]
    assert time.monotonic() - started < 20


@pytest.mark.parametrize("dataset", ["sim_dataset", "second_catalan"])
def test_tallies_computed_a_slice_of_games_at_a_time(
    request: pytest.FixtureRequest, dataset: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A large dataset's tallies are computed over slices of its games and written together: the same statistics
    (slices of 7 games here: 300 and 30 games, the last slice short)."""
    root = _copy(request.getfixturevalue(dataset), tmp_path / "copy")
    monkeypatch.setattr(tallies, "SLICE_GAMES", 7)
    tallies.write_tallies(root)
    assert tallies.current(root)
    assert sorted(path.name for path in (root / store.TALLIES).iterdir()) == sorted(f"{n}.parquet" for n in TALLIED)
    whole = json.loads((request.getfixturevalue(dataset) / "manifest.json").read_text("utf-8"))[store.TALLIES]
    sliced = _manifest(root)[store.TALLIES]
    assert sliced["tallies/first_trick_value.parquet"]["rows"] > whole["tallies/first_trick_value.parquet"]["rows"]
    for name in TALLIED:
        assert_frame_equal(
            stats.compute(name, root),
            stats.compute(name, root, from_rows=True),
            check_exact=False,
            rel_tol=1e-9,
            abs_tol=1e-12,
        )


def test_an_interrupted_upgrades_slices_are_removed(second_catalan: Path, tmp_path: Path) -> None:
    """An upgrade stopped while it wrote a large dataset's slices leaves them in ``tallies/``: the next one removes
    them, and the dataset is again one that ``--overwrite`` may replace."""
    root = _copy(second_catalan, tmp_path / "copy")
    leftover = root / store.TALLIES / "first_trick_value.slice-00003.parquet"
    shutil.copy(root / tallies.relative_path("first_trick_value"), leftover)
    manifest = _manifest(root)
    del manifest[store.TALLIES]
    store.replace_manifest(root, manifest)
    assert upgrade_dataset(root) == "tallies written"
    assert not leftover.exists()
    simulate(SimulationSpec("catalan", 5, 1, {"players": "2"}, "threshold"), root, overwrite=True)
