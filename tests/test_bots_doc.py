"""docs/bots.md's worked example, a bot of one's own (docs/examples/stubborn.py), run as the docs say: by its dotted
path from the folder that holds it, on 2 workers, compiled when the build is up to date."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import polars as pl

from pipeline import accel

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "examples" / "stubborn.py"
DOC = ROOT / "docs" / "bots.md"
TRUC = str(Path(sys.executable).with_name("truc"))


def test_the_docs_show_the_example_whole() -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text("utf-8"), flags=re.S)
    assert EXAMPLE.read_text("utf-8") in blocks


def simulate(folder: Path, out: str, *policies: str) -> tuple[dict[str, object], pl.DataFrame]:
    """``truc simulate`` run from ``folder`` (4-player Catalan, 600 games: 3 chunks, so 2 workers both play)."""
    command = [TRUC, "simulate", "--games", "600", "--seed", "3", "--workers", "2", "--out", out, "--quiet"]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "TRUC_PURE")}
    subprocess.run([*command, *policies], cwd=folder, env=env, check=True, capture_output=True, timeout=600)
    manifest: dict[str, object] = json.loads((folder / out / "manifest.json").read_text("utf-8"))
    return manifest, pl.read_parquet(folder / out / "events")


def test_the_stubborn_bot_runs_from_its_folder_on_two_workers(tmp_path: Path) -> None:
    shutil.copy(EXAMPLE, tmp_path / "stubborn.py")
    stubborn, events = simulate(tmp_path, "a", "--policy", "stubborn.Stubborn:accept=1", "--seat-policy", "1=threshold")
    plain, plain_events = simulate(tmp_path, "b", "--policy", "threshold")
    if accel._stamp() == accel.source_hashes():  # compiled and up to date: the subprocess runs compiled
        assert stubborn["engine"] == "compiled (mypyc, Cython)"
    assert stubborn["workers"] == 2
    policies = stubborn["policies"]
    assert isinstance(policies, dict)
    assert policies["0"] == policies["2"] == "stubborn accept=1 inner=threshold"
    assert policies["1"].startswith("threshold raise_at=0.7")
    folds = events.filter(pl.col("verb") == "fold")
    # accept=1: the stubborn seats never fold, where the same seats fold as threshold bots and seat 1 still does
    assert folds.filter(pl.col("seat") != 1).height == 0
    assert folds.filter(pl.col("seat") == 1).height > 0
    assert plain_events.filter((pl.col("verb") == "fold") & (pl.col("seat") != 1)).height > 0
