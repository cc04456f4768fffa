"""The compiled fast path (pipeline/accel.py, scripts/compile_fast.py): the same rows as pure Python, never a
stale build, and really in use after ``make`` compiled it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from pipeline import accel
from pipeline.store import TABLES

TRUC = str(Path(sys.executable).with_name("truc"))


def simulate(out: Path, variant: str, players: int, pure: bool, random_seat: bool = True) -> dict[str, object]:
    """A small run; with ``random_seat`` seat 1 plays the random bot, else every seat the threshold bot (6-player
    Trut then takes the native fast path when compiled)."""
    env = {**os.environ, "TRUC_PURE": "1" if pure else ""}
    seat_policy = ["--seat-policy", "1=random"] if random_seat else []
    subprocess.run(
        [TRUC, "simulate", "--variant", variant, "--players", str(players), "--games", "60", "--seed", "9",
         "--policy", "threshold", *seat_policy, "--out", str(out), "--quiet"],
        check=True, env=env, capture_output=True,
    )  # fmt: skip
    manifest: dict[str, object] = json.loads((out / "manifest.json").read_text())
    return manifest


@pytest.mark.parametrize(
    ("variant", "players", "random_seat"),
    [("catalan", 4, True), ("french", 2, True), ("trut", 3, True), ("valencian", 4, True), ("trut", 6, False)],
)
def test_compiled_and_pure_python_write_the_same_rows(
    tmp_path: Path, variant: str, players: int, random_seat: bool
) -> None:
    """Compiled, 6-player Trut by threshold bots is played by the native path (pipeline/_fast_trut.pyx); in pure
    Python by the engine: the rows are the same."""
    fast = simulate(tmp_path / "fast", variant, players, pure=False, random_seat=random_seat)
    pure = simulate(tmp_path / "pure", variant, players, pure=True, random_seat=random_seat)
    assert pure["engine"] == "pure Python (TRUC_PURE is set)"
    if accel._stamp() == accel.source_hashes():  # compiled and up to date: the subprocess runs compiled
        assert fast["engine"] == "compiled (mypyc, Cython)"
    for table in TABLES:
        a = pq.read_table(tmp_path / "fast" / table)
        b = pq.read_table(tmp_path / "pure" / table)
        assert a.num_rows > 0 and a.equals(b), table


def test_the_hot_path_runs_compiled_once_make_has_compiled_it() -> None:
    if not accel.STAMP.is_file() or os.environ.get("TRUC_PURE", "") not in ("", "0"):
        pytest.skip("pure Python asked for, or not compiled here (make compile; needs a C compiler)")
    import pipeline.engine.game
    import pipeline.playing

    assert accel.compiled(), accel.status()
    assert pipeline.engine.game.__file__.endswith(".so") and pipeline.playing.__file__.endswith(".so")


def test_an_edited_source_is_loaded_from_its_py_file(tmp_path: Path, monkeypatch) -> None:
    stamp = tmp_path / "_compiled.json"
    hashes = accel.source_hashes()
    monkeypatch.setattr(accel, "STAMP", stamp)
    monkeypatch.delenv("TRUC_PURE", raising=False)
    assert accel._pure_reason() == "not compiled (make compile)"
    stamp.write_text(json.dumps({"sources": hashes}))
    assert accel._pure_reason() is None
    stamp.write_text(json.dumps({"sources": {**hashes, "pipeline.engine.game": "0" * 32}}))
    assert accel._pure_reason() == "compiled modules are older than their sources (make compile)"


def test_pure_python_loads_every_hot_module_from_source() -> None:
    code = "import importlib, pipeline.accel as a; print(all(importlib.import_module(m).__file__.endswith('.py') " \
        "for m in a.COMPILED_MODULES), a.status())"  # fmt: skip
    out = subprocess.run(
        [sys.executable, "-c", code], env={**os.environ, "TRUC_PURE": "1"}, check=True, capture_output=True, text=True
    ).stdout
    assert out.strip() == "True pure Python (TRUC_PURE is set)"


def test_only_an_installed_package_in_pure_python_says_so_on_stderr(monkeypatch) -> None:
    """pip hides the wheel's build: an installed package that runs in pure Python without being asked to says
    so before each command (tests/test_install.py runs it). A checkout stays silent: ``make compile`` says why it
    could not compile, and a build older than its sources is an edit in progress."""
    monkeypatch.delenv("TRUC_PURE", raising=False)
    monkeypatch.setattr(accel, "compiled", lambda: False)
    monkeypatch.setattr(accel, "_REASON", "not compiled: built without a working C compiler")
    monkeypatch.setattr(accel, "CHECKOUT", False)
    assert accel.notice() == (
        "truc: the engine runs in pure Python, about four times slower (not compiled: built without a working C"
        " compiler)"
    )
    monkeypatch.setenv("TRUC_PURE", "1")
    assert accel.notice() is None
    monkeypatch.delenv("TRUC_PURE")
    monkeypatch.setattr(accel, "CHECKOUT", True)
    assert accel.notice() is None
    monkeypatch.setattr(accel, "CHECKOUT", False)
    monkeypatch.setattr(accel, "compiled", lambda: True)
    assert accel.notice() is None
    monkeypatch.undo()
    assert accel.CHECKOUT and accel.notice() is None  # the suite runs in a checkout: silent, compiled or not
