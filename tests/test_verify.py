"""The manifest's list of parts (``store.PARTS``): every writer records each part of each table with its rows,
size and checksum; readers trust it; ``truc verify`` reads every part against it; ``truc upgrade`` adds it
to a dataset written before it existed."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pyarrow.parquet as pq
from typer.testing import CliRunner, Result

from pipeline import store
from pipeline.cli import app

VALID = Path(__file__).parent / "data" / "valid"


def _run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def store_statistics() -> list[str]:
    from pipeline.statistics import STATISTICS

    return list(STATISTICS)


def _assert_parts_listed(folder: Path) -> None:
    """The manifest lists exactly the parts on disk, each with its true rows, size and blake2b; and the tallies the
    same way, each with the digest of the SQL that computed it."""
    manifest = json.loads((folder / "manifest.json").read_text("utf-8"))
    on_disk = sorted(str(part.relative_to(folder)) for part in folder.glob("*/*.parquet"))
    assert sorted([*manifest[store.PARTS], *manifest[store.TALLIES]]) == on_disk and on_disk
    for relative, entry in [*manifest[store.PARTS].items(), *manifest[store.TALLIES].items()]:
        data = (folder / relative).read_bytes()
        assert {key: value for key, value in entry.items() if key != "digest"} == {
            "rows": pq.ParquetFile(folder / relative).metadata.num_rows,
            "bytes": len(data),
            "blake2b": hashlib.blake2b(data, digest_size=16).hexdigest(),
        }
    assert all(entry["digest"] for entry in manifest[store.TALLIES].values())
    assert len(manifest[store.TALLIES]) == len(store_statistics())
    for table in store.TABLES:
        listed = sum(entry["rows"] for path, entry in manifest[store.PARTS].items() if path.startswith(f"{table}/"))
        assert listed == manifest["rows"][table]


def test_every_writer_lists_every_part_with_rows_size_and_checksum(tmp_path: Path) -> None:
    """A simulation of several parts, an import and each match of an experiment."""
    assert _run("simulate", "--games", "600", "--players", "2", "--quiet", "--out", str(tmp_path / "s")).exit_code == 0
    assert len(list((tmp_path / "s" / "hands").iterdir())) == -(-store.read_manifest(tmp_path / "s")["hands"] // 2000)
    _assert_parts_listed(tmp_path / "s")
    source = sorted(VALID.glob("*.truc"))[0]
    assert _run("import", str(source), "--quiet", "--out", str(tmp_path / "i")).exit_code == 0
    _assert_parts_listed(tmp_path / "i")
    sweep = ["sweep", "--players", "2", "--vary", "bluff=0.1,0.3", "--games", "4", "--quiet"]
    assert _run(*sweep, "--out", str(tmp_path / "x")).exit_code == 0
    matches = sorted(manifest.parent for manifest in (tmp_path / "x").rglob("manifest.json"))
    assert len(matches) >= 2
    for match in matches:
        _assert_parts_listed(match)


def test_verify_names_a_part_flipped_truncated_added_or_lost(tmp_path: Path) -> None:
    """Each damage gets the part's name and how, on the dataset's line; an intact dataset says ok."""
    import shutil

    assert _run("simulate", "--games", "300", "--players", "2", "--quiet", "--out", str(tmp_path / "d")).exit_code == 0
    data = tmp_path / "d"
    shutil.copytree(data, tmp_path / "intact")
    result = _run("verify", "--data", str(data), "--data", str(tmp_path / "intact"))
    assert (result.exit_code, result.output) == (0, f"{data}: ok\n{tmp_path / 'intact'}: ok\n")

    flipped = data / "hands" / "part-00001.parquet"
    content = bytearray(flipped.read_bytes())
    content[len(content) // 2] ^= 0xFF  # the same size: the readers' check passes it
    flipped.write_bytes(bytes(content))
    store.check_dataset(data)
    result = _run("verify", "--data", str(data), "--data", str(tmp_path / "intact"))
    assert result.exit_code == 1
    first, second = result.output.splitlines()
    assert first.startswith(f"{data}: {flipped} is damaged: its bytes are not those written (blake2b ")
    assert second == f"{tmp_path / 'intact'}: ok"

    truncated = data / "events" / "part-00000.parquet"
    size = truncated.stat().st_size
    with truncated.open("r+b") as stream:
        stream.truncate(size - 10)
    extra = data / "games" / "part-00002.parquet"
    shutil.copy(data / "games" / "part-00000.parquet", extra)
    lost = data / "seats" / "part-00001.parquet"
    lost.unlink()
    result = _run("verify", "--data", str(data))
    assert result.exit_code == 1
    assert result.output == (
        f"{data}: {extra} is not listed in {data / 'manifest.json'}: a file was added after the dataset was "
        f"written; remove it; {lost} is listed in {data / 'manifest.json'} but missing: a file was removed after "
        f"the dataset was written; {truncated} has changed since the dataset was written ({size - 10:,} bytes "
        f"where its manifest lists {size:,}): simulate or import it again; {flipped} is damaged: its bytes are "
        f"not those written (blake2b {store.file_checksum(flipped)[0]}, listed "
        f"{json.loads((data / 'manifest.json').read_text())['parts']['hands/part-00001.parquet']['blake2b']})\n"
    )


def test_verify_names_a_table_whose_only_part_is_lost_and_reads_on(tmp_path: Path) -> None:
    """A table left without any part is named on its dataset's line, and the datasets after it are read too (it
    stopped the whole run on the lost part's checksum); a dataset of a newer format is refused, not called ok."""
    import shutil

    data = tmp_path / "d"
    assert _run("simulate", "--games", "20", "--players", "2", "--quiet", "--out", str(data)).exit_code == 0
    shutil.copytree(data, tmp_path / "intact")
    (data / "events" / "part-00000.parquet").unlink()
    result = _run("verify", "--data", str(data), "--data", str(tmp_path / "intact"))
    assert (result.exit_code, result.output) == (
        1,
        f"{data}: {data} is incomplete: no Parquet files in {data / 'events'}\n{tmp_path / 'intact'}: ok\n",
    )
    manifest = json.loads((tmp_path / "intact" / "manifest.json").read_text("utf-8"))
    (tmp_path / "intact" / "manifest.json").write_text(json.dumps({**manifest, "format": 99}), "utf-8")
    result = _run("verify", "--data", str(tmp_path / "intact"))
    assert result.exit_code == 1
    assert result.output.startswith(f"error: {tmp_path / 'intact'} was written by a newer Truc Lab (format 99; ")


def test_upgrade_names_a_part_lost_or_resized_rather_than_up_to_date(tmp_path: Path) -> None:
    """A current dataset is checked as every reader checks it before it is called up to date."""
    data = tmp_path / "d"
    assert _run("simulate", "--games", "20", "--players", "2", "--quiet", "--out", str(data)).exit_code == 0
    assert _run("upgrade", "--data", str(data)).output == f"{data}: up to date\n"
    part = data / "hands" / "part-00000.parquet"
    original = part.read_bytes()
    part.write_bytes(original[:5000])
    result = _run("upgrade", "--data", str(data))
    assert (result.exit_code, result.output) == (
        1,
        f"error: {part} has changed since the dataset was written (5,000 bytes where its manifest lists "
        f"{len(original):,}): simulate or import it again\n",
    )
    part.unlink()
    result = _run("upgrade", "--data", str(data))
    assert (result.exit_code, result.output) == (
        1,
        f"error: {data} is incomplete: no Parquet files in {data / 'hands'}\n",
    )


def test_verify_reads_the_rows_of_a_part_its_checksum_passes(tmp_path: Path) -> None:
    """A manifest that lists the wrong rows for a part (hand-edited) is found by reading the part."""
    assert _run("simulate", "--games", "5", "--players", "2", "--quiet", "--out", str(tmp_path / "d")).exit_code == 0
    manifest = store.read_manifest(tmp_path / "d")
    manifest["parts"]["events/part-00000.parquet"]["rows"] += 1
    (tmp_path / "d" / "manifest.json").write_text(json.dumps(manifest), "utf-8")
    assert store.verify_dataset(tmp_path / "d") == [
        f"{tmp_path / 'd' / 'events'}: its manifest lists parts of {manifest['rows']['events'] + 1:,} rows where "
        f"it counts {manifest['rows']['events']:,}; the manifest was edited",
        f"{tmp_path / 'd' / 'events' / 'part-00000.parquet'} holds {manifest['rows']['events']:,} rows where its "
        f"manifest lists {manifest['rows']['events'] + 1:,}",
    ]


def _as_written_before_the_list(folder: Path) -> bytes:
    """Take the list of parts out of ``folder``'s manifest, as a Truc Lab from before it wrote it; return the
    manifest as it was."""
    text = (folder / "manifest.json").read_bytes()
    manifest = json.loads(text)
    del manifest[store.PARTS]
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", "utf-8")
    return text


def test_an_older_dataset_is_refused_in_one_line_until_upgraded(tmp_path: Path) -> None:
    data = tmp_path / "d"
    assert _run("simulate", "--games", "300", "--players", "2", "--quiet", "--out", str(data)).exit_code == 0
    written = _as_written_before_the_list(data)
    for command in (["stats", "mano_advantage"], ["verify"]):
        result = _run(*command, "--data", str(data))
        assert (result.exit_code, result.output) == (
            1,
            f"error: {data} was written by an older Truc Lab: its manifest does not list its parts; run "
            f"`truc upgrade --data {data}` (it checks every part and lists it)\n",
        )
    result = _run("upgrade", "--data", str(data))
    assert (result.exit_code, result.output) == (0, f"{data}: parts listed\n")  # its tallies were current
    assert (data / "manifest.json").read_bytes() == written  # the list simulate wrote, found again
    assert sorted(path.name for path in data.iterdir()) == [
        "events", "games", "hands", "manifest.json", "seats", "tallies",
    ]  # fmt: skip
    assert _run("verify", "--data", str(data)).output == f"{data}: ok\n"
    assert _run("stats", "mano_advantage", "--data", str(data)).exit_code == 0
    result = _run("upgrade", "--data", str(data))
    assert (result.exit_code, result.output) == (0, f"{data}: up to date\n")
    assert (data / "manifest.json").read_bytes() == written


def test_an_older_dataset_with_a_damaged_part_is_not_upgraded(tmp_path: Path) -> None:
    """A page broken past a sound footer, a part that lacks a column, a part replaced by another: each is
    named, and the manifest left as it was."""
    import shutil

    data = tmp_path / "d"
    assert _run("simulate", "--games", "300", "--players", "2", "--quiet", "--out", str(data)).exit_code == 0
    _as_written_before_the_list(data)
    before = (data / "manifest.json").read_bytes()
    part = data / "hands" / "part-00000.parquet"
    original = part.read_bytes()
    content = bytearray(original)
    content[4:200] = bytes(196)  # the first column's pages, after the magic bytes
    part.write_bytes(bytes(content))
    result = _run("upgrade", "--data", str(data))
    assert result.exit_code == 1
    assert result.output.startswith(f"error: {part} is not a readable Parquet file: ")
    assert (data / "manifest.json").read_bytes() == before
    part.write_bytes(original)
    events = sorted((data / "events").iterdir())[-1]  # shorter than the first: a copy of it changes the rows
    pq.write_table(pq.read_table(events).drop_columns(["to_play"]), events)
    result = _run("upgrade", "--data", str(data))
    assert result.exit_code == 1 and f"error: {events} lacks the column(s) to_play" in result.output
    shutil.copy(data / "events" / "part-00000.parquet", events)
    result = _run("upgrade", "--data", str(data))
    held = sum(pq.ParquetFile(part).metadata.num_rows for part in (data / "events").iterdir())
    counted = json.loads(before)["rows"]["events"]
    assert held != counted
    assert (result.exit_code, result.output) == (
        1,
        f"error: {data / 'events'} holds {held:,} rows where its manifest counts {counted:,}: a file was added, "
        "removed or replaced after the dataset was written\n",
    )
    assert (data / "manifest.json").read_bytes() == before
    assert sorted(path.name for path in data.iterdir()) == [
        "events", "games", "hands", "manifest.json", "seats", "tallies",
    ]  # fmt: skip


def test_the_option_sets_of_simulations_come_from_their_manifests_as_their_games_say(tmp_path: Path) -> None:
    """``stats.option_sets`` reads a simulation's manifest rather than its games: the same rows as the query
    over the games (``POOLED_OPTIONS_SQL``) for runs of several variants, options, a rubber and an import; a
    manifest whose options are not canonical is not trusted (its games are read)."""
    from pipeline import stats
    from pipeline.history.io import import_files
    from pipeline.simulate import SimulationSpec, simulate

    specs = {
        "catalan": SimulationSpec("catalan", 7, 1, {"players": "2"}),
        "trut": SimulationSpec("trut", 5, 2, {"players": "6"}),
        "first": SimulationSpec("trut", 4, 3, {"players": "2", "tie_lead": "first"}),
        "french": SimulationSpec("french", 3, 4, {"players": "2", "rubber": "on"}),
    }
    folders = [simulate(spec, tmp_path / name).out.resolve() for name, spec in specs.items()]
    import_files(sorted(VALID.glob("*.truc"))[:3], tmp_path / "cafe")
    folders.append((tmp_path / "cafe").resolve())
    with stats.staged(folders) as con:
        queried = con.execute(stats.POOLED_OPTIONS_SQL).fetchall()
    assert stats.option_sets(folders) == queried
    assert stats._simulation_options(folders[0]) is not None and stats._simulation_options(folders[-1]) is None
    manifest = store.read_manifest(folders[0])
    manifest["options"] = {**manifest["options"], "players": "two"}
    (folders[0] / "manifest.json").write_text(json.dumps(manifest), "utf-8")
    assert stats._simulation_options(folders[0]) is None
    assert stats.option_sets(folders) == queried
