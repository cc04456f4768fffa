"""The events' facts (``parts.EVENT_FACTS``): written once by ``rows.add_game`` as the hand goes, equal to what the
staging derived with a window before (``upgrade.FACTS_QUERY``); and ``truc upgrade`` of a dataset written before
them (format 1), after which every statistic equals the same games' as the current code writes them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl
import pyarrow.parquet as pq
import pytest
from polars.testing import assert_frame_equal
from typer.testing import CliRunner, Result

from pipeline import parts, stats, store, upgrade
from pipeline.cli import app


def _run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def _runs(folder: Path) -> list[Path]:
    return sorted(path.parent for path in folder.glob("*/manifest.json"))


def test_the_facts_written_are_those_the_staging_s_window_derives(sim_all_variants: Path) -> None:
    """Every variant and player count: the facts rows.add_game wrote are those FACTS_QUERY derives from the
    other columns, and they are there (answers that face a raise, raises with their outcome)."""
    for run in _runs(sim_all_variants):
        events = parts.read_table(run, "events")
        derived = upgrade.derive_facts(events.drop_columns(list(parts.EVENT_FACTS)), parts.read_table(run, "seats"))
        assert_frame_equal(pl.from_arrow(derived), pl.from_arrow(events))
        frame = pl.from_arrow(events)
        assert frame.filter(pl.col("raise_seq").is_not_null()).height > 0, run
        assert frame.filter(pl.col("outcome_answers") > 0).height > 0, run


def _as_format_1(folder: Path, listed: bool = True) -> None:
    """Make ``folder`` a dataset as a Truc Lab of format 1 wrote it: events without the facts, a manifest without
    ``format`` (and, unless ``listed``, without the list of parts, as before that existed)."""
    for part in store.table_files(folder, "events"):
        pq.write_table(pq.read_table(part).drop_columns(list(parts.EVENT_FACTS)), part, row_group_size=1000)
    manifest = store.read_manifest(folder)
    del manifest[store.FORMAT]
    if listed:
        manifest[store.PARTS] = {
            f"{name}/{part.name}": {
                "rows": pq.ParquetFile(part).metadata.num_rows,
                "bytes": part.stat().st_size,
                store.CHECKSUM: store.file_checksum(part)[0],
            }
            for name in store.TABLES
            for part in store.table_files(folder, name)
        }
    else:
        del manifest[store.PARTS]
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", "utf-8")


@pytest.mark.parametrize("listed", [True, False])
def test_a_format_1_dataset_is_refused_then_upgraded_to_the_same_statistics(
    sim_all_variants: Path, tmp_path: Path, listed: bool
) -> None:
    """Several variants, their hands cut across parts (row groups of 1,000 rows): refused in one line naming
    the folder and the command, upgraded, then the same events and every statistic the same as the same games
    written by the current code."""
    runs = {run.name: run for run in _runs(sim_all_variants)}
    old = tmp_path / "old"
    for name in ("catalan-2p", "valencian-4p", "trut-3p", "french-2p"):
        shutil.copytree(runs[name], old / name)
        _as_format_1(old / name, listed)
    catalan = old / "catalan-2p"
    result = _run("stats", "fold_rates", "--data", str(catalan))
    expected = (
        f"error: {catalan} was written by an older Truc Lab (format 1): its events lack the columns the statistics "
        f"read; run `truc upgrade --data {catalan}` (it derives them)\n"
        if listed
        else f"error: {catalan} was written by an older Truc Lab: its manifest does not list its parts; run "
        f"`truc upgrade --data {catalan}` (it checks every part and lists it)\n"
    )
    assert (result.exit_code, result.output) == (1, expected)
    parts_before = {
        path.relative_to(old): pq.ParquetFile(path).metadata.num_rows
        for path in old.glob("*/*/*.parquet")
        if path.parent.name != store.TALLIES
    }

    result = _run("upgrade", "--data", str(old))
    assert result.exit_code == 0, result.output
    done = "facts derived, tallies written"
    assert result.output == "".join(f"{old / name}: {done}\n" for name in sorted(parts_before_runs(old)))
    assert {
        path.relative_to(old): pq.ParquetFile(path).metadata.num_rows
        for path in old.glob("*/*/*.parquet")
        if path.parent.name != store.TALLIES
    } == (parts_before)
    for name in parts_before_runs(old):
        assert sorted(path.name for path in (old / name).iterdir()) == [
            "events", "games", "hands", "manifest.json", "seats", "tallies",
        ]  # fmt: skip
        assert store.read_manifest(old / name)[store.FORMAT] == store.FORMAT_VERSION
        assert _run("verify", "--data", str(old / name)).output == f"{old / name}: ok\n"
        assert parts.read_table(old / name, "events").equals(parts.read_table(runs[name], "events"))
    new = [runs[name] for name in parts_before_runs(old)]
    for statistic in sorted(stats.STATISTICS):
        assert_frame_equal(
            stats.compute(statistic, [old / name for name in parts_before_runs(old)]).drop("dataset", strict=False),
            stats.compute(statistic, new).drop("dataset", strict=False),
        )
    assert _run("upgrade", "--data", str(catalan)).output == f"{catalan}: up to date\n"


def parts_before_runs(old: Path) -> list[str]:
    return sorted(path.name for path in old.iterdir())


def test_an_upgrade_that_fails_leaves_the_dataset_as_it_was(sim_all_variants: Path, tmp_path: Path) -> None:
    """A listed part whose size changed is named, and nothing is written."""
    data = tmp_path / "d"
    shutil.copytree(_runs(sim_all_variants)[0], data)
    _as_format_1(data)
    part = store.table_files(data, "seats")[0]
    part.write_bytes(part.read_bytes() + b"x")
    files = {path: path.read_bytes() for path in data.rglob("*") if path.is_file()}
    result = _run("upgrade", "--data", str(data))
    assert result.exit_code == 1 and f"{part} has changed since the dataset was written" in result.output
    assert {path: path.read_bytes() for path in data.rglob("*") if path.is_file()} == files
    assert [path.name for path in tmp_path.iterdir()] == ["d"]
