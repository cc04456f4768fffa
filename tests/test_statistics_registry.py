"""The registry of statistics (``pipeline.statistics``): each statistic declared once, and everything else read
from its entry. The columns and types it declares are held to ``compute``'s frames by ``test_stats``
(``check_invariants``) and to the polars twin by ``test_stats_crosscheck``; here: its entries are whole and
consistent, the report's tables of functions are built from it, and the bots' parameters it names as a
statistic's drivers exist, are read where the statistic counts, and move it."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from pipeline import statistics, stats
from pipeline.policies import POLICIES
from pipeline.report import charts, frames, page, summary, tables
from pipeline.simulate import SimulationSpec, simulate
from pipeline.variants import VARIANTS

ENTRIES = list(statistics.STATISTICS.values())


@pytest.mark.parametrize("statistic", ENTRIES, ids=lambda s: s.name)
def test_an_entry_names_only_its_own_columns_and_a_part_of_the_page(statistic: statistics.Statistic) -> None:
    columns = set(statistic.columns)
    assert statistic.columns[:2] == ("variant", "players")
    assert set(statistic.keys) <= columns and statistic.columns[: len(statistic.keys)] == statistic.keys
    assert set(statistic.mirrored) <= columns and set(statistic.brief) <= columns
    assert set(statistic.null_means) <= columns and set(statistic.headers) <= columns
    assert all(dtype in (statistics.TEXT, statistics.INT, statistics.FLOAT, statistics.BOOL) for dtype in
               statistic.schema.values())  # fmt: skip
    assert statistic.part in statistics.PARTS
    assert statistic.title and statistic.definition and statistic.description
    assert statistic.sql_path.is_file()
    assert set(statistic.variants) <= set(VARIANTS)


def test_the_report_reads_its_functions_titles_and_parts_from_the_registry() -> None:
    assert set(charts.CHARTS) == {s.name for s in ENTRIES if s.chart}
    assert set(summary.SUMMARIES) == {s.name for s in ENTRIES if s.summary} == set(statistics.STATISTICS)
    for statistic in ENTRIES:
        if statistic.chart:
            assert charts.CHARTS[statistic.name] is getattr(charts, statistic.chart)
        assert summary.SUMMARIES[statistic.name] is getattr(summary, statistic.summary or "")
        assert frames.CONTRACT[statistic.name] == dict(statistic.schema)
        assert page.section_title(statistic.name) == statistic.title
    assert statistics.in_part(statistics.EVERY_PART) == frames.STATISTICS
    assert (frames.COMPARISON, *frames.STATISTICS, *frames.SPECIFIC) == frames.ALL_STATISTICS
    assert tables.header("games", frames.GAMES) == "Games (once per side held)"
    assert tables.header("games", frames.COMPARISON) == tables.HEADERS["games"]


def test_every_column_of_every_statistic_has_a_header_in_words() -> None:
    missing = {column for s in ENTRIES for column in s.columns if column not in tables.HEADERS}
    assert not missing


def test_truc_stats_lists_the_registry() -> None:
    assert [s.name for s in stats.list_statistics()] == sorted(statistics.STATISTICS)
    assert stats.STATISTICS is statistics.STATISTICS and stats.get_statistic("envit") is statistics.STATISTICS["envit"]


def test_the_drivers_name_parameters_the_bot_reads_where_the_statistic_counts() -> None:
    """Each driver is a parameter of its bot (``pipeline.policies``) that the decisions of at least one variant
    the statistic counts read (``Bot.read_in``): the envit's are read in valencian, the trut's in its family."""
    assert any(s.drivers for s in ENTRIES)
    for statistic in ENTRIES:
        counted = statistic.variants or tuple(VARIANTS)
        for bot_name, parameters in statistic.drivers.items():
            bot = POLICIES[bot_name]
            assert parameters and len(set(parameters)) == len(parameters), statistic.name
            for parameter in parameters:
                assert bot.param(parameter) is not None, (statistic.name, parameter)
                readers = [v for v in counted if parameter in bot.read_in.get(v, ())]
                assert readers, f"{statistic.name}: {bot_name}'s {parameter} is read in none of {counted}"
    assert "call_at" in statistics.STATISTICS["fold_rates"].drivers["threshold"]
    assert "raise_at" in statistics.STATISTICS["raise_rates"].drivers["threshold"]
    assert "bluff" in statistics.STATISTICS["raise_rates"].drivers["threshold"]


def _fold_rate(folder: Path, call_at: float) -> float:
    spec = SimulationSpec("catalan", 40, 5, {"players": "2"}, f"threshold:call_at={call_at},raise_at=0.5,bluff=0.3")
    simulate(spec, folder)
    frame = stats.compute("fold_rates", folder).filter(pl.col("decile").is_null())
    return frame["folds"].sum() / frame["facing"].sum()


def test_a_driver_drives_its_statistic(tmp_path: Path) -> None:
    """fold_rates' driver call_at decides it: a bot that accepts from strength 0 never folds, one that
    accepts only at strength 1 nearly always does (and answers with a raise back only from raise_at)."""
    assert _fold_rate(tmp_path / "never", 0.0) == 0.0
    assert _fold_rate(tmp_path / "always", 1.0) > 0.5
