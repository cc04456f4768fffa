"""``truc report`` run by a user who may not start the Python interpreter anew, and its drawing without workers.

The report draws its charts in spawned worker processes (``render.Drawing``), and a spawned process runs the
interpreter anew, as multiprocessing's resource tracker does. Run as nobody through ``setpriv`` (which starts the
interpreter with root's rights, here under ``/root/.pyenv``, where nobody may not search), neither could start: the
tracker's pipe broke under the report, whose ``BrokenPipeError`` the CLI took for a closed standard output (exit
code 141 and not a word), or the workers died (a line blaming the out-of-memory killer). The report now draws its
charts itself there, and says so.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pipeline.report import render

NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
TRUC = [sys.executable, "-c", "from pipeline.cli import main; main()"]


@pytest.fixture
def shared_folder() -> Iterator[Path]:
    """A folder that nobody may read and write (pytest's own are root's alone)."""
    top = Path(tempfile.mkdtemp(prefix="truc-as-nobody-"))
    try:
        yield top
    finally:
        shutil.rmtree(top)


@pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("setpriv") is None, reason="runs the report as nobody: needs root and setpriv"
)
def test_a_report_run_as_nobody_writes_its_page(shared_folder: Path) -> None:
    """As nobody: the report written whole, exit 0, and no exit code 141 for a pipe that was not standard
    output's. Where nobody may not run the interpreter (this sandbox's pyenv under ``/root``), the charts are
    drawn by the report's own process, which a note says."""
    from pipeline.simulate import SimulationSpec, simulate

    data, out = shared_folder / "data", shared_folder / "report"
    simulate(SimulationSpec("catalan", 50, 1, {"players": "2"}, workers=1), data)
    for path in [shared_folder, *shared_folder.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    shared_folder.chmod(0o777)  # the report writes its folder beside its temporary one
    if subprocess.run([*NOBODY, *TRUC[:2], "import pipeline"], cwd=shared_folder).returncode != 0:
        pytest.skip("nobody cannot run this Python (its installation is not readable by all)")
    may_spawn = subprocess.run(
        [*NOBODY, *TRUC[:2], "from pipeline.report.render import spawn_refusal; print(spawn_refusal() is None)"],
        capture_output=True,
        text=True,
        cwd=shared_folder,
    ).stdout.strip()
    done = subprocess.run(
        [*NOBODY, *TRUC, "report", "--data", str(data), "--out", str(out)],
        capture_output=True,
        text=True,
        cwd=shared_folder,
        timeout=600,
    )
    assert (done.returncode, done.stdout) == (0, f"report written to {out / 'index.html'}\n"), done.stderr
    assert "Traceback" not in done.stderr and "error:" not in done.stderr
    assert (out / "index.html").is_file() and (out / "article.md").is_file()
    charts = sorted(path.name for path in (out / "charts").iterdir())
    assert charts and {name.rsplit(".", 1)[0] for name in charts if name.endswith(".png")} == {
        name.rsplit(".", 1)[0] for name in charts if name.endswith(".svg")
    }
    note = "note: the charts are drawn by this process, one at a time: this user may not run the Python interpreter"
    assert (note in done.stderr) == (may_spawn == "False"), done.stderr
    assert [p.name for p in shared_folder.iterdir() if p.name.startswith(".")] == []  # no temporary folder left


_SPEC: dict[str, Any] = {
    "data": {"values": [{"x": 1, "y": 2}, {"x": 2, "y": 3}]},
    "mark": "line",
    "encoding": {"x": {"field": "x", "type": "quantitative"}, "y": {"field": "y", "type": "quantitative"}},
}


def _drawn_here(drawing: render.Drawing, folder: Path) -> None:
    """A chart handed to ``drawing`` is written before ``draw`` returns (no worker draws it later)."""
    svg, png = folder / "c.svg", folder / "c.png"
    drawing.draw(_SPEC, svg, png)
    assert svg.read_text("utf-8").startswith("<svg") and png.read_bytes().startswith(b"\x89PNG")
    drawing.finish()


def test_where_no_worker_may_be_spawned_the_charts_are_drawn_here(tmp_path: Path, monkeypatch) -> None:
    reason = "this user may not run the Python interpreter /x/python, so no worker can be started"
    monkeypatch.setattr(render, "spawn_refusal", lambda: reason)
    monkeypatch.setattr(render, "ProcessPoolExecutor", None)  # never reached
    with render.Drawing(None) as drawing:
        assert drawing.alone == reason
        _drawn_here(drawing, tmp_path)


def test_workers_that_cannot_be_started_leave_the_drawing_to_the_report(tmp_path: Path, monkeypatch) -> None:
    """The resource tracker's pipe broken while the pool starts (``BrokenPipeError``, an ``OSError``): the charts
    are drawn here, and the error does not reach the command (which took it for a closed standard output)."""

    def broken(*args: object, **kwargs: object) -> None:
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(render, "ProcessPoolExecutor", broken)
    with render.Drawing(None) as drawing:
        assert drawing.alone == "the drawing workers could not be started: Broken pipe"
        _drawn_here(drawing, tmp_path)


def test_spawn_refusal_names_an_interpreter_this_user_may_not_run(tmp_path: Path, monkeypatch) -> None:
    import multiprocessing.spawn

    assert render.spawn_refusal() is None  # the tests' own interpreter
    locked = tmp_path / "python"
    locked.write_text("")
    locked.chmod(0o644)  # no one may run it, root included (exec needs an execute bit)
    monkeypatch.setattr(multiprocessing.spawn, "get_executable", lambda: os.fsencode(locked))
    assert render.spawn_refusal() == (
        f"this user may not run the Python interpreter {locked}, so no worker can be started"
    )
