"""Every statistic's SQL (``pipeline.stats``) against its polars twin (``pipeline.stats_check``).

Run on two datasets: ``synthetic_dataset``, random hands shaped like the simulator's output (made by
``stats_check.write_synthetic``: raises, answers, folds, ties, void hands, unknown strengths), and
``sim_dataset`` and ``sim_dataset_2p``, real simulated datasets from ``tests/conftest.py`` (a test is
skipped while its fixture is not defined).
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from pipeline import stats, stats_check
from pipeline.stats_check import write_synthetic

DATASETS = ["synthetic_dataset", "sim_dataset", "sim_dataset_2p"]
@pytest.fixture(scope="module")
def synthetic_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_synthetic(tmp_path_factory.mktemp("synthetic") / "data", seed=7)


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
    assert got.height > 0


@pytest.mark.parametrize("fixture", DATASETS)
@pytest.mark.parametrize("threshold", ["0", "0.1", "0.5", "1"])
def test_bluff_threshold_matches_polars(request: pytest.FixtureRequest, fixture: str, threshold: str) -> None:
    _assert_same("bluff_success", _dataset(request, fixture), {"threshold": threshold})


@pytest.mark.parametrize("name", sorted(stats.STATISTICS))
def test_two_folders_match_polars(tmp_path: Path, synthetic_dataset: Path, name: str) -> None:
    # the same game ids in both folders: rows must only be joined within a folder
    other = write_synthetic(tmp_path / "other", seed=11, games=40)
    _assert_same(name, [synthetic_dataset, other])
