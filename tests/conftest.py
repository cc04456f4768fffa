"""Shared fixtures: small simulated datasets, built once per test session."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from pipeline import parts
from pipeline.simulate import SimulationSpec, simulate

MIXED_SEATS = {1: "threshold:raise_at=0.8,call_at=0.6,bluff=0.05", 3: "random"}


@pytest.fixture(scope="session", autouse=True)
def small_parts() -> Iterator[None]:
    """Parts of 2,000 rows (row groups of 1,000) in every dataset the tests write in this process, so that
    their small datasets have several parts, as a large run has (``parts.PartWriter``)."""
    saved = parts.ROW_GROUP_ROWS, parts.PART_ROW_GROUPS
    parts.ROW_GROUP_ROWS, parts.PART_ROW_GROUPS = 1000, 2
    yield
    parts.ROW_GROUP_ROWS, parts.PART_ROW_GROUPS = saved


@pytest.fixture
def ctrl_c_heard() -> Iterator[None]:
    """SIGINT raising ``KeyboardInterrupt`` in this process, as at a terminal, for a test that sends it (``os.kill``,
    ``_thread.interrupt_main``). A shell starts a background job with SIGINT ignored, and then neither does anything:
    a test that waited for its Ctrl-C to stop an endless query hung in a clean clone's suite run in the background."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.fixture(scope="session")
def sim_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """300 games of 4-player Catalan Truc, mixed policies, signals on."""
    out = tmp_path_factory.mktemp("sim") / "catalan4"
    spec = SimulationSpec("catalan", 300, 11, {"players": "4", "signals": "on"}, "threshold", MIXED_SEATS, workers=1)
    simulate(spec, out)
    return out


@pytest.fixture(scope="session")
def sim_dataset_2p(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """300 games of 2-player Catalan Truc, threshold against random."""
    out = tmp_path_factory.mktemp("sim") / "catalan2"
    simulate(SimulationSpec("catalan", 300, 12, {"players": "2"}, "threshold", {1: "random"}), out)
    return out


ALL_VARIANTS_GAMES = 30


@pytest.fixture(scope="session")
def sim_all_variants(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of runs: 30 games of every variant and player count (``pipeline.variants.VARIANTS``), the
    threshold bot against one random seat, each run in its own subfolder ``{variant}-{players}p``."""
    from pipeline.variants import VARIANTS

    folder = tmp_path_factory.mktemp("sim_all_variants")
    for name, variant in VARIANTS.items():
        for players in variant.players:
            spec = SimulationSpec(name, ALL_VARIANTS_GAMES, 13, {"players": str(players)}, "threshold", {1: "random"})
            simulate(spec, folder / f"{name}-{players}p")
    return folder
