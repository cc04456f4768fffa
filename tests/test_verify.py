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


def _assert_parts_listed(folder: Path) -> None:
    """The manifest lists exactly the parts on disk, each with its true rows, size and blake2b."""
    manifest = json.loads((folder / "manifest.json").read_text("utf-8"))
    on_disk = sorted(str(part.relative_to(folder)) for part in folder.glob("*/*.parquet"))
    assert sorted(manifest[store.PARTS]) == on_disk and on_disk
    for relative, entry in manifest[store.PARTS].items():
        data = (folder / relative).read_bytes()
        assert entry == {
            "rows": pq.ParquetFile(folder / relative).metadata.num_rows,
            "bytes": len(data),
            "blake2b": hashlib.blake2b(data, digest_size=16).hexdigest(),
        }
    for table in store.TABLES:
        listed = sum(entry["rows"] for path, entry in manifest[store.PARTS].items() if path.startswith(f"{table}/"))
        assert listed == manifest["rows"][table]


def test_every_writer_lists_every_part_with_rows_size_and_checksum(tmp_path: Path) -> None:
    """A simulation of several parts, an import and each match of an experiment."""
    assert _run("simulate", "--games", "600", "--players", "2", "--quiet", "--out", str(tmp_path / "s")).exit_code == 0
    assert len(list((tmp_path / "s" / "games").iterdir())) == 3
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
