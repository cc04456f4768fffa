"""Bad input to ``truc equilibrium`` and ``truc train`` (``pipeline.openspiel.figures``, ``pipeline.openspiel.mccfr``):
one line naming what is wrong, exit code 1, and nothing written or left behind; their outputs written aside and
moved in whole, an existing one replaced only when it is the command's own (or, for a policy file, with
``--overwrite``), never an input."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")

from typer.testing import CliRunner  # noqa: E402

from pipeline.cli import app  # noqa: E402
from pipeline.openspiel import figures  # noqa: E402
from pipeline.openspiel.mccfr import checkpoint_path  # noqa: E402

TINY_TRAINING = ["--iterations", "2", "--check-games", "0", "--quiet"]
SEED_MESSAGE = "--seed must be between 0 and 9223372036854775807 (a 64-bit integer), not -1"
EARLIER_FIGURES = {"game": "g", "deals": 1, "histories": 1, "terminals": 1, "decisions": 1}
EARLIER_FIGURES |= {"information_states": [1], "export_seconds": 0.0}


def run(*args: str):
    return CliRunner().invoke(app, list(args))


def one_line_error(result, message: str) -> None:
    """The command failed with exit code 1 and printed one line holding ``message`` (no traceback)."""
    assert result.exit_code == 1, (result.exit_code, result.output, result.exception)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], result.output


def listing(folder: Path) -> dict[str, bytes | None]:
    """Every file (its bytes) and folder (None) below ``folder``, hidden ones too."""
    return {str(p.relative_to(folder)): p.read_bytes() if p.is_file() else None for p in sorted(folder.rglob("*"))}


# ---------------------------------------------------------------------------------------------- equilibrium


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--variant", "nope"], "unknown variant 'nope'; variants: catalan, "),
        (["--bot", "nope"], "unknown policy 'nope'"),
        (["--seed", "-1"], SEED_MESSAGE),
    ],
    ids=["variant", "bot", "seed"],
)
def test_equilibrium_s_bad_options_are_one_line_and_make_no_folder(
    tmp_path: Path, args: list[str], message: str
) -> None:
    result = run("equilibrium", "--out", str(tmp_path / "e"), "--iterations", "2", "--quiet", *args)
    one_line_error(result, message)
    assert listing(tmp_path) == {}  # not even an empty --out


def _dataset_with_old_figures(folder: Path) -> None:
    """A dataset folder into which an older Truc Lab wrote its figures."""
    folder.mkdir()
    (folder / "manifest.json").write_text(json.dumps({"kind": "simulation"}))
    (folder / "games").mkdir()
    (folder / "figures.json").write_text(json.dumps(EARLIER_FIGURES))


def _a_file(path: Path) -> None:
    path.write_text("my notes\n")


def _a_folder_of_other_files(folder: Path) -> None:
    folder.mkdir()
    (folder / "notes.txt").write_text("my notes\n")


@pytest.mark.parametrize("make", [_a_file, _a_folder_of_other_files, _dataset_with_old_figures])
def test_equilibrium_refuses_an_out_that_is_not_its_own_and_leaves_it_as_it_was(tmp_path: Path, make) -> None:
    out = tmp_path / "out"
    make(out)
    before = listing(tmp_path)
    result = run("equilibrium", "--out", str(out), "--iterations", "2", "--bot", "random", "--quiet")
    one_line_error(result, f"{out} exists and is not an empty folder or one holding the figures of an earlier")
    assert listing(tmp_path) == before


def test_equilibrium_interrupted_leaves_no_folder_and_no_partial_tree(tmp_path: Path, monkeypatch) -> None:
    """Stopped while the tree is written (its 20 MB file half-way): no --out, no tree.efg, no temporary folder."""

    def stopped_export(game, path: Path, *args, **kwargs):
        path.write_text("EFG 2 R half a tree")
        raise KeyboardInterrupt

    monkeypatch.setattr(figures, "export_tree", stopped_export)
    result = run("equilibrium", "--out", str(tmp_path / "e"), "--iterations", "2", "--bot", "random", "--quiet")
    assert result.exit_code == 130 and result.output == "error: interrupted; nothing was written\n"
    assert listing(tmp_path) == {}


def _figures_made(work: Path, text: str) -> None:
    for name in ("figures.json", "cfr_plus.csv", "exploitability.png", "exploitability.svg"):
        (work / name).write_text(json.dumps({**EARLIER_FIGURES, "game": text}) if name == "figures.json" else text)


def test_a_new_figures_folder_is_moved_in_whole(tmp_path: Path) -> None:
    out = tmp_path / "e"
    with figures.figures_folder(out) as work:
        assert work.parent == tmp_path and not out.exists()  # made beside, nothing at --out yet
        _figures_made(work, "new")
    assert sorted(os.listdir(tmp_path)) == ["e"]
    assert sorted(os.listdir(out)) == ["cfr_plus.csv", "exploitability.png", "exploitability.svg", "figures.json"]


def test_an_earlier_run_s_figures_are_replaced_and_the_folder_s_other_files_kept(tmp_path: Path) -> None:
    """docs/equilibrium holds the figures beside policy files and other runs' folders: those stay."""
    out = tmp_path / "e"
    out.mkdir()
    _figures_made(out, "old")
    (out / "cfr.json.gz").write_bytes(b"a policy")
    (out / "catalan").mkdir()
    _figures_made(out / "catalan", "other run")
    with figures.figures_folder(out) as work:
        _figures_made(work, "new")
    assert sorted(os.listdir(tmp_path)) == ["e"]  # no temporary folder left beside
    assert json.loads((out / "figures.json").read_text())["game"] == "new"
    assert (out / "cfr_plus.csv").read_text() == (out / "exploitability.svg").read_text() == "new"
    assert (out / "cfr.json.gz").read_bytes() == b"a policy"
    assert (out / "catalan" / "cfr_plus.csv").read_text() == "other run"


@pytest.mark.parametrize("existing", [False, True])
def test_figures_that_fail_half_way_change_nothing(tmp_path: Path, existing: bool) -> None:
    out = tmp_path / "e"
    if existing:
        out.mkdir()
        _figures_made(out, "old")
    before = listing(tmp_path)
    with pytest.raises(KeyboardInterrupt), figures.figures_folder(out) as work:
        (work / "figures.json").write_text("{half")
        raise KeyboardInterrupt
    assert listing(tmp_path) == before


# ---------------------------------------------------------------------------------------------- train


def test_train_refuses_an_existing_out_unless_overwrite_or_its_own_checkpointed_output(tmp_path: Path) -> None:
    history = tmp_path / "g.truc"
    history.write_text("a hand history\n")
    one_line_error(run("train", "--out", str(history), *TINY_TRAINING), f"{history} already exists")
    assert history.read_text() == "a hand history\n" and not checkpoint_path(history).exists()
    assert run("train", "--out", str(history), "--overwrite", *TINY_TRAINING).exit_code == 0
    assert history.read_bytes()[:2] == b"\x1f\x8b"  # a policy file now: gzip
    again = run("train", "--out", str(history), "--iterations", "4", "--check-games", "0", "--quiet")
    assert again.exit_code == 0 and "continued from iteration 2" in again.output  # its own: no --overwrite needed


@pytest.mark.parametrize("overwrite", [[], ["--overwrite"]])
def test_train_never_writes_over_its_against_file(tmp_path: Path, overwrite: list[str]) -> None:
    policy = tmp_path / "q.json"
    assert run("train", "--out", str(policy), *TINY_TRAINING).exit_code == 0
    checkpoint_path(policy).unlink()
    before = listing(tmp_path)
    result = run("train", "--out", str(policy), "--against", str(policy), *overwrite, *TINY_TRAINING)
    one_line_error(result, f"--out {policy} is the --against file")
    assert listing(tmp_path) == before


def test_train_refuses_a_folder_as_out_and_leaves_nothing(tmp_path: Path) -> None:
    out = tmp_path / "emptydir"
    out.mkdir()
    one_line_error(run("train", "--out", str(out), *TINY_TRAINING), f"--out {out} exists and is not a file")
    assert listing(tmp_path) == {"emptydir": None}


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes in a read-only folder")
def test_train_in_a_read_only_folder_is_one_line_naming_the_output(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        result = run("train", "--out", str(folder / "p.json"), *TINY_TRAINING)
        one_line_error(result, f"cannot write {folder / 'p.json'}: Permission denied")
        assert os.listdir(folder) == []
    finally:
        folder.chmod(0o755)


def test_train_refuses_a_negative_seed_as_every_command_does(tmp_path: Path) -> None:
    one_line_error(run("train", "--out", str(tmp_path / "s.json"), "--seed", "-1", *TINY_TRAINING), SEED_MESSAGE)
    assert listing(tmp_path) == {}
