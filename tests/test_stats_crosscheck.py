"""Every statistic's SQL (``pipeline.stats``) against its polars twin (``tests/stats_check.py``).

Run on ``synthetic_dataset``, random hands shaped like the simulator's output (made by
``stats_check.write_synthetic``: raises, answers, folds, ties, void hands, unknown strengths),
``synthetic_variants_dataset`` (``stats_check.write_synthetic_variants``: trut with 2, 3 and 4 players,
valencian with the envit, french with redeals and the reste), ``sim_dataset`` and ``sim_dataset_2p``,
real simulated catalan datasets, ``sim_all_variants``, a folder with a short simulated run of every
variant and player count, all from ``tests/conftest.py`` (a test is skipped while its fixture is not
defined), and ``imported_valid``, every hand-written file of ``tests/data/valid`` imported. The variant
statistics (envit, trut, french) must return rows only for their own family: none on the catalan
datasets, some on the variants dataset, and on ``sim_all_variants`` exactly one group per variant and
player count of the family, as every other statistic has one per run.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from pipeline import stats
from pipeline.history.io import import_files
from pipeline.variants import VARIANTS
from tests import stats_check
from tests.stats_check import write_synthetic, write_synthetic_variants

DATASETS = [
    "synthetic_dataset",
    "synthetic_variants_dataset",
    "sim_dataset",
    "sim_dataset_2p",
    "sim_all_variants",
    "imported_valid",
]
FAMILIES = {"envit": ("valencian",), "trut": ("trut", "trut-gatinaise", "trut-gatine"), "french": ("french",)}
"""The variants whose rows each variant statistic may return."""
VARIANT_ONLY = set(FAMILIES)


@pytest.fixture(scope="module")
def synthetic_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_synthetic(tmp_path_factory.mktemp("synthetic") / "data", seed=7)


@pytest.fixture(scope="module")
def synthetic_variants_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_synthetic_variants(tmp_path_factory.mktemp("synthetic") / "variants", seed=5, games=140)


@pytest.fixture(scope="module")
def imported_valid(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every valid file of ``tests/data/valid``, written by hand: seats with players' names or none, and
    no ``PolicyN`` tags (a policy column all null broke a statistic that only simulations had reached)."""
    out = tmp_path_factory.mktemp("imported") / "valid"
    import_files([Path(__file__).parent / "data" / "valid"], out)
    return out


def _dataset(request: pytest.FixtureRequest, fixture: str) -> Path:
    try:
        path: Path = request.getfixturevalue(fixture)
    except pytest.FixtureLookupError:
        pytest.skip(f"fixture {fixture} is not defined yet (tests/conftest.py)")
    return path


def _assert_same(name: str, data: Path | list[Path], params: dict[str, str] | None = None) -> pl.DataFrame:
    got = stats.compute(name, data, params)
    typed = stats.resolve_params(stats.get_statistic(name), params)
    want = stats_check.compute(name, data, typed)
    assert list(got.columns) == list(stats.get_statistic(name).columns)
    assert_frame_equal(got, want, check_exact=False, rel_tol=1e-9, abs_tol=1e-12)
    return got


@pytest.mark.parametrize("fixture", DATASETS)
@pytest.mark.parametrize("name", sorted(stats.STATISTICS))
def test_sql_matches_polars(request: pytest.FixtureRequest, fixture: str, name: str) -> None:
    data = _dataset(request, fixture)
    got = _assert_same(name, data)
    if name in VARIANT_ONLY:
        assert set(got["variant"]) <= set(FAMILIES[name])
    if fixture == "sim_all_variants":
        # every run of the folder is read: one group per variant and player count (of the family)
        variants = FAMILIES.get(name, tuple(VARIANTS))
        shapes = {(variant, players) for variant in variants for players in VARIANTS[variant].players}
        assert set(got.select("variant", "players").iter_rows()) == shapes
    elif fixture == "imported_valid":  # every family is there, in a few hands
        assert got.height > 0
    elif name in VARIANT_ONLY and fixture != "synthetic_variants_dataset":
        assert got.height == 0
    else:
        assert got.height > 0


@pytest.mark.parametrize("fixture", DATASETS)
@pytest.mark.parametrize("threshold", ["0", "0.1", "0.5", "1"])
def test_bluff_threshold_matches_polars(request: pytest.FixtureRequest, fixture: str, threshold: str) -> None:
    _assert_same("bluff_success", _dataset(request, fixture), {"threshold": threshold})


@pytest.mark.parametrize("fixture", DATASETS)
@pytest.mark.parametrize("threshold", ["0", "0.5", "1"])
def test_comparison_threshold_matches_polars(request: pytest.FixtureRequest, fixture: str, threshold: str) -> None:
    _assert_same("variant_comparison", _dataset(request, fixture), {"threshold": threshold})


@pytest.mark.parametrize("below", ["0", "7", "25", "40"])
def test_envit_bluff_below_matches_polars(synthetic_variants_dataset: Path, below: str) -> None:
    _assert_same("envit", synthetic_variants_dataset, {"bluff_below": below})


@pytest.mark.parametrize("name", sorted(stats.STATISTICS))
def test_two_folders_match_polars(
    tmp_path: Path, synthetic_dataset: Path, synthetic_variants_dataset: Path, name: str
) -> None:
    # the same game ids in every folder: rows must only be joined within a folder
    other = write_synthetic_variants(tmp_path / "other", seed=11, games=40)
    _assert_same(name, [synthetic_dataset, synthetic_variants_dataset, other])
