"""``truc datasets`` (``pipeline.inventory``): what datasets hold, counted from their games table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.history import import_files
from pipeline.inventory import COLUMNS, describe_datasets
from pipeline.query import run_query
from pipeline.store import FORMAT_VERSION, DatasetError
from pipeline.variants import VARIANTS

VALID = sorted((Path(__file__).parent / "data" / "valid").glob("*.truc"))


def test_a_folder_of_runs_gives_a_row_per_run_counted_from_its_games(sim_all_variants: Path) -> None:
    frame = describe_datasets(sim_all_variants)
    assert tuple(frame.columns) == tuple(COLUMNS)
    runs = [(name, players) for name, variant in VARIANTS.items() for players in variant.players]
    assert [(row["variant"], row["players"]) for row in frame.iter_rows(named=True)] == sorted(runs)
    for row in frame.iter_rows(named=True):
        folder = sim_all_variants / f"{row['variant']}-{row['players']}p"
        manifest = json.loads((folder / "manifest.json").read_text("utf-8"))
        assert row["dataset"] == str(folder.resolve())
        assert (row["kind"], row["seed"], row["created"]) == ("simulation", 13, manifest["created"])
        assert (row["games"], row["hands"]) == (
            manifest["rows"]["games"],
            manifest["hands"],
        )  # a rubber: more games than --games
        assert row["complete"] == row["games"]
        assert f"players={row['players']}" in row["options"].split()


def test_an_import_mixing_variants_gives_a_row_per_variant_players_and_options(tmp_path: Path) -> None:
    result = import_files(VALID, tmp_path / "cafe")
    frame = describe_datasets([tmp_path / "cafe"])
    assert set(frame["kind"]) == {"import"} and frame["seed"].null_count() == frame.height
    assert frame["games"].sum() == result.games and frame["hands"].sum() == result.hands
    assert {"catalan", "french", "trut", "trut-gatinaise", "trut-gatine", "valencian"} <= set(frame["variant"])
    keys = list(zip(frame["variant"], frame["players"], frame["options"], strict=True))
    assert keys == sorted(set(keys))  # one row each, in order
    # complete counts the games played to their end: the valid files hold records that stop early
    games = run_query("select variant, players, options, count(*), count(*) filter (complete) from games group by all",
                      tmp_path / "cafe")  # fmt: skip
    counted = {tuple(row[:3]): tuple(row[3:]) for row in games.rows()}
    assert {
        (r["variant"], r["players"], r["options"]): (r["games"], r["complete"]) for r in frame.iter_rows(named=True)
    } == counted
    assert frame["complete"].sum() < frame["games"].sum()


def test_a_dataset_is_named_as_truc_sql_names_it_from_the_working_folder_too(
    sim_all_variants: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A user copies a dataset from ``truc datasets`` into ``where dataset = '...'``: it must match."""
    monkeypatch.chdir(sim_all_variants)
    named = set(describe_datasets(Path("."))["dataset"])
    queried = run_query("select distinct dataset from games", Path("."))
    assert queried is not None and named == set(queried["dataset"]) and len(named) > 1


def test_a_folder_that_is_not_a_dataset_is_a_dataset_error(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(DatasetError, match="not a Truc Lab dataset"):
        describe_datasets([tmp_path / "empty"])


def test_a_hand_edited_manifest_is_a_dataset_error_or_shows_what_it_can(tmp_path: Path) -> None:
    import_files(VALID[:1], tmp_path / "cafe")
    manifest = tmp_path / "cafe" / "manifest.json"
    parts = json.loads(manifest.read_text("utf-8"))["parts"]  # kept: every reader needs the list of parts
    manifest.write_text("[]", "utf-8")
    with pytest.raises(DatasetError, match=r"manifest.json is not a Truc Lab manifest: a JSON object was expected"):
        describe_datasets([tmp_path / "cafe"])
    manifest.write_text(
        json.dumps({"format": FORMAT_VERSION, "kind": "simulation", "seed": "abc", "created": 5, "parts": parts}),
        "utf-8",
    )
    row = describe_datasets([tmp_path / "cafe"]).row(0, named=True)
    assert (row["kind"], row["seed"], row["created"]) == ("simulation", None, "5")


def test_a_hand_edited_seed_beyond_64_bits_shows_as_null(tmp_path: Path) -> None:
    """The seed column is 64-bit: a seed no run can have (edited by hand) shows as null, as a seed that is not a
    number does, rather than stopping the listing."""
    import_files(VALID[:1], tmp_path / "cafe")
    manifest = tmp_path / "cafe" / "manifest.json"
    parts = json.loads(manifest.read_text("utf-8"))["parts"]  # kept: every reader needs the list of parts
    for seed in (2**63, -(2**63) - 1, 2**70):
        manifest.write_text(
            json.dumps({"format": FORMAT_VERSION, "kind": "simulation", "seed": seed, "parts": parts}), "utf-8"
        )
        assert describe_datasets([tmp_path / "cafe"])["seed"].to_list() == [None]
    manifest.write_text(
        json.dumps({"format": FORMAT_VERSION, "kind": "simulation", "seed": 2**63 - 1, "parts": parts}), "utf-8"
    )
    assert describe_datasets([tmp_path / "cafe"])["seed"].to_list() == [2**63 - 1]


def test_a_folder_of_folders_of_runs_reads_every_run_below_it(sim_all_variants: Path, tmp_path: Path) -> None:
    # data/ holding demo/<runs> and cafe/ (an import): every dataset below data/, the deeper runs too, and
    # neither a dataset's own folders nor a hidden folder (an output being written) are taken for runs
    data = tmp_path / "data"
    data.mkdir()
    (data / "demo").symlink_to(sim_all_variants, target_is_directory=True)
    import_files(VALID[:2], data / "cafe")
    (data / ".out.tmp" / "run").mkdir(parents=True)
    (data / ".out.tmp" / "run" / "manifest.json").write_text("{}", "utf-8")
    frame = describe_datasets([data])
    runs = sum(len(variant.players) for variant in VARIANTS.values())
    assert frame["dataset"].n_unique() == runs + 1
    assert str((data / "cafe").resolve()) in set(frame["dataset"])
