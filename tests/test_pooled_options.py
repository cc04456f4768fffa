"""Games of one variant and player count played under different options, read together: the statistics
group by variant and player count, so they pool them; `truc stats` and the report say so."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from pipeline import stats
from pipeline.cli import app
from pipeline.report.page import build_report
from pipeline.simulate import SimulationSpec, simulate

runner = CliRunner()


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """2-player Trut under the seed's tie-lead rule and under the option, and 4-player Trut."""
    folder = tmp_path_factory.mktemp("pooled")
    specs = {
        "maker": SimulationSpec("trut", 12, 3, {"players": "2"}),
        "first": SimulationSpec("trut", 9, 4, {"players": "2", "tie_lead": "first"}),
        "four": SimulationSpec("trut", 5, 5, {"players": "4", "tie_lead": "first"}),
    }
    return {name: simulate(spec, folder / name).out for name, spec in specs.items()}


def test_different_options_of_one_setting_are_named_with_their_games(runs: dict[str, Path]) -> None:
    notes = stats.pooled_options([runs["maker"], runs["first"], runs["four"]])
    assert notes == [
        "trut with 2 players pools games played under different options: tie_lead=first (9 games), "
        "tie_lead=maker (12 games); the statistics count them together (truc stats --per-dataset keeps the runs "
        "apart; truc sql can split them by games.options)"
    ]


def test_the_same_options_or_another_player_count_pool_nothing(runs: dict[str, Path]) -> None:
    assert stats.pooled_options([runs["maker"], runs["maker"].parent / "maker"]) == []
    assert stats.pooled_options([runs["maker"], runs["four"]]) == []  # 2 and 4 players are counted apart


def test_stats_says_so_on_stderr_and_keeps_stdout_clean(runs: dict[str, Path]) -> None:
    result = runner.invoke(
        app, ["stats", "mano_advantage", "--data", str(runs["maker"]), "--data", str(runs["first"]), "--format", "csv"]
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("variant,players,") and "note" not in result.stdout
    assert result.stderr.startswith("note: trut with 2 players pools games played under different options: ")
    alone = runner.invoke(app, ["stats", "mano_advantage", "--data", str(runs["maker"])])
    assert alone.exit_code == 0 and alone.stderr == ""


def test_the_report_heads_its_page_with_the_note(runs: dict[str, Path], tmp_path: Path) -> None:
    messages: list[str] = []
    report = build_report([runs["maker"], runs["first"]], tmp_path / "report", progress=messages.append)
    page = report.html.read_text("utf-8")
    note = stats.pooled_options([runs["maker"], runs["first"]])[0]
    assert f'<p class="note">Note: {note}.</p>' in page
    assert f"note: {note}" in messages
    alone = build_report([runs["maker"]], tmp_path / "alone").html.read_text("utf-8")
    assert 'class="note"' not in alone


def test_per_dataset_computes_each_folder_on_its_own(runs: dict[str, Path]) -> None:
    """The runs that ``compute`` pools, side by side: each folder's rows are exactly its own statistic."""
    folders = [runs["maker"], runs["first"]]
    each = stats.compute_each("mano_advantage", folders)
    assert each.columns == ["dataset", *stats.compute("mano_advantage", runs["maker"]).columns]
    for folder in folders:
        own = each.filter(pl.col("dataset") == str(folder.resolve())).drop("dataset")
        assert own.equals(stats.compute("mano_advantage", folder))
    pooled = stats.compute("mano_advantage", folders)
    assert pooled["hands"].sum() == each["hands"].sum() and pooled.height < each.height
    assert stats.pooled_options(folders, separately=True) == []  # each run has one set of options


def test_per_dataset_on_the_command_line(runs: dict[str, Path]) -> None:
    args = ["stats", "mano_advantage", "--data", str(runs["maker"]), "--data", str(runs["first"])]
    result = runner.invoke(app, [*args, "--per-dataset", "--columns", "hands", "--format", "csv"])
    assert result.exit_code == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[0] == "dataset,hands" and [line.split(",")[0] for line in lines[1:]] == [
        str(runs["maker"].resolve()),
        str(runs["first"].resolve()),
    ]


def test_per_dataset_columns_may_place_the_dataset_column(runs: dict[str, Path]) -> None:
    args = ["stats", "mano_advantage", "--data", str(runs["maker"]), "--data", str(runs["first"]), "--per-dataset"]
    result = runner.invoke(app, [*args, "--columns", "hands,dataset", "--format", "csv"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "hands,dataset" and lines[1].endswith("," + str(runs["maker"].resolve()))


def test_one_dataset_holding_several_options_is_not_told_to_use_per_dataset(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    # an import of both runs' games: --per-dataset cannot split them, only truc sql can
    from pipeline.history import export_dataset, import_files

    export_dataset([runs["maker"], runs["first"]], tmp_path / "both.truc")
    import_files([tmp_path / "both.truc"], tmp_path / "cafe")
    (note,) = stats.pooled_options(tmp_path / "cafe")
    assert note.endswith("the statistics count them together (truc sql can split them by games.options)")
    (again,) = stats.pooled_options(tmp_path / "cafe", separately=True)
    assert again == f"{(tmp_path / 'cafe').resolve()}: {note}"


# --- options that differ between the player counts of a variant -------------------------------------------

ACROSS = (
    "trut was played under different options at different player counts (2 players tie_lead=maker, 4 players "
    "tie_lead=first): where the statistics set its player counts side by side, they differ by the options as well"
)


def test_player_counts_played_under_different_options_are_named(runs: dict[str, Path]) -> None:
    assert stats.options_between_player_counts([runs["maker"], runs["four"]]) == [ACROSS]
    assert stats.option_notes([runs["maker"], runs["four"]]) == [ACROSS]
    # 2 players pools two sets of options: its note says so, and it is left out of the comparison
    assert stats.option_notes([runs["maker"], runs["first"], runs["four"]]) == stats.pooled_options(
        [runs["maker"], runs["first"], runs["four"]]
    )
    assert stats.options_between_player_counts([runs["first"], runs["four"]]) == []  # both tie_lead=first


def test_an_option_that_means_nothing_at_one_player_count_is_not_a_difference(tmp_path: Path) -> None:
    """Partners' signals (seed 000, "Truc en Catalogne") need partners: 2-player games with signals=off and
    4-player games with signals=on differ by no option that changes both."""
    two = simulate(SimulationSpec("catalan", 3, 1, {"players": "2"}), tmp_path / "two").out
    four = simulate(SimulationSpec("catalan", 3, 2, {"players": "4", "signals": "on"}), tmp_path / "four").out
    assert stats.option_notes([two, four]) == []


def test_stats_and_the_report_tell_the_difference_between_player_counts(runs: dict[str, Path], tmp_path: Path) -> None:
    args = ["stats", "mano_advantage", "--data", str(runs["maker"]), "--data", str(runs["four"]), "--format", "csv"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert result.stderr == f"note: {ACROSS}\n"
    each = runner.invoke(app, [*args, "--per-dataset"])
    assert each.exit_code == 0 and each.stderr == ""  # each folder holds one player count
    page = build_report([runs["maker"], runs["four"]], tmp_path / "report").html.read_text("utf-8")
    assert f'<p class="note">Note: {ACROSS}.</p>' in page


def test_datasets_that_hold_the_same_games_are_named(runs: dict[str, Path], tmp_path: Path) -> None:
    """A run copied to another folder, or simulated again with the same settings and seed (the same games,
    at another time), would count each of its games once per copy: the statistics say so, and not with
    ``--per-dataset``, where nothing is pooled. An import copied counts too."""
    import shutil

    from pipeline.history.io import import_files

    copy = tmp_path / "copy"
    shutil.copytree(runs["maker"], copy)
    again = simulate(SimulationSpec("trut", 12, 3, {"players": "2"}), tmp_path / "again").out
    folders = [runs["maker"], runs["first"], copy, again]
    same = f"{runs['maker']}, {copy.resolve()} and {again.resolve()} hold the same games"
    assert stats.repeated_runs(folders) == [
        f"{same} (the same simulation, with the same settings and seed), so each of them is counted 3 times; "
        "pass one of those datasets"
    ]
    assert stats.repeated_runs([runs["maker"], runs["first"], runs["four"]]) == []
    reseeded = simulate(SimulationSpec("trut", 12, 4, {"players": "2"}), tmp_path / "reseeded").out
    assert stats.repeated_runs([runs["maker"], reseeded]) == []
    assert stats.pooling_notes([runs["maker"], copy])[0].endswith("counted twice; pass one of those datasets")
    assert stats.pooling_notes([runs["maker"], copy], separately=True) == []
    valid = Path(__file__).parent / "data" / "valid" / "two_players.truc"
    first = import_files([valid], tmp_path / "i1").out
    shutil.copytree(first, tmp_path / "i1-copy")
    assert stats.repeated_runs([first, tmp_path / "i1-copy"])[0].endswith(
        "hold the same games (the same import), so each of them is counted twice; pass one of those datasets"
    )
    result = runner.invoke(app, ["stats", "mano_advantage", "--data", str(runs["maker"]), "--data", str(copy)])
    assert result.exit_code == 0 and "counted twice" in result.stderr
