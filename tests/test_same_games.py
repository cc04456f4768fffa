"""Games of different datasets that are the same game (a simulation and an import of its own export), pooled:
the statistics count each twice, and say so; a tournament's matches, which share seeds on purpose, are not
flagged."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline import stats
from pipeline.cli import app
from pipeline.history.io import export_dataset, import_files
from pipeline.simulate import SimulationSpec, simulate

runner = CliRunner()


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("same")
    return simulate(SimulationSpec("catalan", 16, 7, {"players": "2"}, "threshold", {1: "random"}), folder / "sim").out


def test_an_import_of_a_datasets_export_pooled_with_it_is_noted(simulated: Path, tmp_path: Path) -> None:
    export_dataset(simulated, tmp_path / "sim.truc")
    imported = import_files([tmp_path / "sim.truc"], tmp_path / "imported").out
    assert stats.repeated_runs([simulated, imported]) == []  # the manifests differ: only the games tell
    notes = stats.same_games([simulated, imported])
    first, second = sorted([str(Path(simulated).resolve()), str(Path(imported).resolve())])
    assert notes == [
        f"{first} and {second} hold 16 games that are the same (variant, options, seed, first dealer, hands, "
        "final score and each seat's policy and player): an import of the other's export, or the same run "
        "again? Each of those games is counted twice; pass one of those datasets"
    ]
    result = runner.invoke(
        app, ["stats", "game_results", "--data", str(simulated), "--data", str(imported), "--columns", "games"]
    )
    assert result.exit_code == 0 and "16 games that are the same" in result.stderr
    alone = runner.invoke(
        app, ["stats", "game_results", "--data", str(simulated), "--data", str(imported)] + ["--per-dataset"]
    )
    assert alone.exit_code == 0 and "the same" not in alone.stderr


def test_a_longer_run_of_the_same_seed_shares_its_first_games(simulated: Path, tmp_path: Path) -> None:
    """A run of the same settings and seed but more games plays the same first games: its manifest differs
    (``games``), the games do not."""
    longer = simulate(
        SimulationSpec("catalan", 20, 7, {"players": "2"}, "threshold", {1: "random"}), tmp_path / "l"
    ).out
    notes = stats.same_games([simulated, longer])
    assert len(notes) == 1 and " hold 16 games that are the same " in notes[0]
    other = simulate(SimulationSpec("catalan", 16, 8, {"players": "2"}, "threshold", {1: "random"}), tmp_path / "o").out
    assert stats.same_games([simulated, other]) == []


def test_a_copied_run_is_noted_once(simulated: Path, tmp_path: Path) -> None:
    import shutil

    shutil.copytree(simulated, tmp_path / "copy")
    notes = stats.pooling_notes([simulated, tmp_path / "copy"])
    assert len([note for note in notes if "the same" in note]) == 1  # repeated_runs' note, not this one too


def test_a_tournaments_matches_share_seeds_but_are_not_the_same_games(tmp_path: Path) -> None:
    out = tmp_path / "t"
    result = runner.invoke(
        app,
        ["tournament", "--policy", "random", "--policy", "threshold", "--policy", "threshold:bluff=0"]
        + ["--games", "6", "--out", str(out), "--workers", "1", "--quiet", "--players", "2"],
    )
    assert result.exit_code == 0, result.output
    folders = sorted(out.glob("match-*"))
    assert len(folders) == 3
    with stats.staged(folders) as con:  # common seeds: by the games table alone, some games look the same
        assert con.execute(stats.SAME_SEED_SQL).fetchone() == (True,)
    assert stats.same_games(out) == []
