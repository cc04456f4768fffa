"""What Ctrl-C leaves of ``truc equilibrium`` and ``truc train``, said in its one line (exit code 130), and the
convergence curve (``python -m pipeline.openspiel.convergence``) written as ``truc equilibrium`` writes its
figures (``figures.figures_folder``): made aside and moved in at the end, so that a run that fails or is
interrupted leaves its folder as it was."""

from __future__ import annotations

import json
import os
import pickle
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pyspiel")

from typer.testing import CliRunner  # noqa: E402

from pipeline.cli import app  # noqa: E402
from pipeline.openspiel import convergence, figures  # noqa: E402
from pipeline.openspiel.mccfr import checkpoint_path  # noqa: E402
from pipeline.policies.cfr import read_policy  # noqa: E402
from pipeline.store import DatasetError  # noqa: E402

EARLIER_FIGURES = {"game": "g", "deals": 1, "histories": 1, "terminals": 1, "decisions": 1}
EARLIER_FIGURES |= {"information_states": [1], "export_seconds": 0.0, "cfr_plus": [[1000, 0.000164]]}
TRUT8 = ["--variant", "trut", "--option", "deck=8", "--seed", "2", "--quiet"]
CURVE_FILES = ("convergence.json", "convergence.csv", "convergence.png", "convergence.svg")


def listing(folder: Path) -> dict[str, bytes | None]:
    """Every file (its bytes) and folder (None) below ``folder``, hidden ones too."""
    return {str(p.relative_to(folder)): p.read_bytes() if p.is_file() else None for p in sorted(folder.rglob("*"))}


def ctrl_c(args: list[str], ready: Callable[[], bool]) -> tuple[int, str, str]:
    """Run ``truc ARGS`` as a terminal's foreground job, press Ctrl-C (SIGINT to its process group) once
    ``ready()`` says it is at work, and return its exit code, stdout and stderr."""
    process = subprocess.Popen(
        [sys.executable, "-c", "from pipeline.cli import main; main()", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # as a shell starts it, pytest or not
    )
    try:
        deadline = time.monotonic() + 180
        while not ready():
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "the command never reached the moment to interrupt"
            time.sleep(0.02)
        os.killpg(process.pid, signal.SIGINT)
        stdout, stderr = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    return process.returncode, stdout.decode(), stderr.decode()


def earlier_figures(folder: Path) -> None:
    """A folder as docs/equilibrium is: an earlier run's figures and curve, and a file of someone's."""
    folder.mkdir()
    (folder / "figures.json").write_text(json.dumps(EARLIER_FIGURES))
    for name in ("cfr_plus.csv", "exploitability.png", "exploitability.svg", *CURVE_FILES[1:]):
        (folder / name).write_text("earlier")
    (folder / "convergence.json").write_text('{"earlier": true}')
    (folder / "notes.txt").write_text("my notes\n")


# ---------------------------------------------------------------------------------------------- truc train


def test_train_interrupted_after_a_checkpoint_says_the_checkpoint_keeps_it_and_the_same_command_continues(
    tmp_path: Path,
) -> None:
    out = tmp_path / "p.json.gz"
    checkpoint = checkpoint_path(out)
    args = ["train", *TRUT8, "--check-games", "0", "--out", str(out)]
    code, stdout, stderr = ctrl_c(
        [*args, "--iterations", "100000000", "--checkpoint-seconds", "0.2"], checkpoint.exists
    )
    assert (code, stdout) == (130, "")
    assert stderr == (
        f"error: interrupted; the policy file {out} was not written, and {checkpoint} keeps the training up to its "
        "last checkpoint (one every 0.2 s): run the same command again to continue from there\n"
    )
    assert sorted(os.listdir(tmp_path)) == [checkpoint.name]  # no temporary file left beside
    with checkpoint.open("rb") as raw:
        kept = pickle.load(raw)["iteration"]
    assert kept >= 1
    again = CliRunner().invoke(app, [*args, "--iterations", str(kept + 1)])
    assert again.exit_code == 0 and f"continued from iteration {kept:,}" in again.output, again.output


def test_train_interrupted_before_its_first_checkpoint_says_nothing_was_written(tmp_path: Path) -> None:
    out = tmp_path / "p.json.gz"
    args = ["train", *TRUT8, "--check-games", "0", "--out", str(out), "--iterations", "100000000"]
    args += ["--checkpoint-seconds", "1000"]
    code, _, stderr = ctrl_c(args, lambda: any(tmp_path.glob(".p.json.gz.tmp-*")))  # the policy file begun
    assert code == 130
    assert stderr == (
        "error: interrupted before the first checkpoint (one every 1000 s); nothing was written: the same command "
        "starts over\n"
    )
    assert listing(tmp_path) == {}


def test_train_interrupted_in_its_fallback_games_says_the_policy_file_is_written(tmp_path: Path) -> None:
    """The training over, the policy file written, only the games against the threshold bot left."""
    out = tmp_path / "p.json.gz"
    args = ["train", *TRUT8, "--iterations", "2", "--check-games", "100000000", "--out", str(out)]
    code, _, stderr = ctrl_c(args, out.exists)
    assert code == 130
    assert stderr == f"error: interrupted after the training ended; the policy file {out} is written whole\n"
    assert read_policy(out).training["iterations"] == 2


# ---------------------------------------------------------------------------------------------- truc equilibrium


@pytest.mark.parametrize("existing", [False, True], ids=["new-folder", "earlier-figures"])
def test_equilibrium_interrupted_says_nothing_was_written_and_leaves_its_folder_as_it_was(
    tmp_path: Path, existing: bool
) -> None:
    out = tmp_path / "e"
    if existing:
        earlier_figures(out)
    before = listing(tmp_path)
    args = ["equilibrium", "--out", str(out), "--iterations", "2", "--bot", "random", "--quiet"]
    code, stdout, stderr = ctrl_c(args, lambda: any(tmp_path.glob(".e.tmp-*")))  # the tree being exported aside
    assert (code, stdout, stderr) == (130, "", "error: interrupted; nothing was written\n")
    assert listing(tmp_path) == before


def test_equilibrium_interrupted_once_its_figures_are_in_says_so(tmp_path: Path, monkeypatch) -> None:
    """A Ctrl-C while the figures move in is held until they all are: the line says they were written."""
    out = tmp_path / "e"

    def written_then_interrupted(variant: str, players: int, options: Any, iterations: int, out: Path, *_: Any):
        with figures.figures_folder(out) as work:
            (work / "figures.json").write_text(json.dumps(EARLIER_FIGURES))
        raise KeyboardInterrupt

    monkeypatch.setattr(figures, "equilibrium_figures", written_then_interrupted)
    result = CliRunner().invoke(app, ["equilibrium", "--out", str(out), "--quiet"])
    assert result.exit_code == 130
    assert result.output == f"error: interrupted after the figures were written to {out}\n"


# ---------------------------------------------------------------------------------------------- the convergence curve


@pytest.fixture(scope="module")
def one_deal() -> Any:
    """The 8-card Trut after both hands are dealt: a tree of a few dozen histories, measured in a moment."""
    state = figures.load_small_game("trut", 2, {"deck": "8"}).new_initial_state()
    rng = random.Random(0)
    while state.is_chance_node():
        state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
    return state


def curve(out: Path, root: Any) -> convergence.Convergence:
    return convergence.convergence_curve("trut", {"deck": "8"}, [3], 1, out, bots=("random",), root=root)


@pytest.mark.parametrize("existing", [False, True], ids=["new-folder", "earlier-figures"])
@pytest.mark.parametrize("failure", [RuntimeError("the chart failed"), KeyboardInterrupt()], ids=["error", "ctrl-c"])
def test_a_curve_that_fails_half_way_through_its_files_leaves_its_folder_as_it_was(
    tmp_path: Path, one_deal: Any, monkeypatch, existing: bool, failure: BaseException
) -> None:
    """The chart's PNG is made after the JSON and the CSV: failing there, nothing of the curve reaches
    ``out`` (it used to be written straight into it, the JSON and CSV of the new run beside the old chart)."""
    out = tmp_path / "c"
    if existing:
        earlier_figures(out)
    before = listing(tmp_path)

    def failed(*args: Any, **kwargs: Any) -> bytes:
        raise failure

    monkeypatch.setattr(figures.vlc, "vegalite_to_png", failed)
    with pytest.raises(type(failure)):
        curve(out, one_deal)
    assert listing(tmp_path) == before


def test_a_curve_replaces_an_earlier_one_in_a_figures_folder_and_keeps_its_other_files(
    tmp_path: Path, one_deal: Any
) -> None:
    out = tmp_path / "c"
    earlier_figures(out)
    result = curve(out, one_deal)
    assert sorted(os.listdir(tmp_path)) == ["c"]  # nothing left beside
    written = json.loads((out / "convergence.json").read_text())
    assert [p["real"] for p in written["points"]] == [result.points[0].real]
    assert (out / "convergence.png").read_bytes()[:4] == b"\x89PNG"
    assert "CFR+, 1,000 iterations" in (out / "convergence.svg").read_text()  # figures.json's end point, read
    assert json.loads((out / "figures.json").read_text()) == EARLIER_FIGURES
    assert (out / "notes.txt").read_text() == "my notes\n" and (out / "cfr_plus.csv").read_text() == "earlier"


def test_a_curve_run_again_into_its_own_folder_replaces_the_first(tmp_path: Path, one_deal: Any) -> None:
    """A folder holding only an earlier curve (no ``truc equilibrium`` figures) receives the new one: the same
    command run twice must not refuse its own output."""
    out = tmp_path / "c"
    curve(out, one_deal)
    (out / "notes.txt").write_text("my notes\n")
    first = (out / "convergence.json").stat().st_ino
    curve(out, one_deal)
    assert sorted(os.listdir(out)) == sorted([*CURVE_FILES, "notes.txt"])
    assert (out / "convergence.json").stat().st_ino != first and sorted(os.listdir(tmp_path)) == ["c"]


def test_a_curve_into_a_folder_that_is_not_a_figures_folder_is_refused_before_training(
    tmp_path: Path, monkeypatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "notes"
    out.mkdir()
    (out / "notes.txt").write_text("my notes\n")
    before = listing(tmp_path)

    def no_training(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("trained before the folder was checked")

    monkeypatch.setattr(convergence, "train_policy", no_training)
    with pytest.raises(DatasetError, match="exists and is not an empty folder or one holding the figures"):
        curve(out, None)
    with pytest.raises(SystemExit) as exit_:
        convergence.main(["--out", str(out), "--iterations", "1"])
    assert exit_.value.code == 2
    assert capsys.readouterr().err == (
        f"error: {out} exists and is not {convergence.CURVE_KIND}: choose another --out\n"
    )
    assert listing(tmp_path) == before


def test_the_convergence_command_interrupted_is_one_line(
    tmp_path: Path, monkeypatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(convergence, "convergence_curve", interrupted)
    try:
        with pytest.raises(SystemExit) as exit_:
            convergence.main(["--out", str(tmp_path / "c")])
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C ended the command with a traceback")
    assert exit_.value.code == 130
    assert capsys.readouterr().err == "error: interrupted; nothing was written\n"
