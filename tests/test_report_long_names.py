"""A name of 100,000 characters (a seat's, a bot's) took a 1-game report 94 s: Vega lays a label out in time
that grows faster than its length. The report cuts every name it draws or writes to ``LABEL_CHARS``
characters, keeping two names that share their first characters apart. The tests look at the labels the
chart specs hold, not at a clock."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipeline import parts, stats, store
from pipeline.report import charts
from pipeline.report.frames import LABEL_CHARS, compared_players, cut_label, cut_labels
from pipeline.report.page import build_report
from pipeline.report.tables import cell
from pipeline.simulate import SimulationSpec, simulate

LONG = "A" * 100_000
LONGISH = "A" * 10_000  # shares its first characters with LONG


def rename(data: Path, players: tuple[str, ...], policies: tuple[str, ...]) -> None:
    """Rewrite the seats table of ``data``: seat k is the player ``players[k]`` with the policy ``policies[k]``."""
    for part in store.table_files(data, "seats"):
        table = pq.read_table(part, schema=parts.SCHEMAS["seats"])
        seats = table.column("seat").to_pylist()
        for column, values in (("player", players), ("policy", policies)):
            index = table.schema.get_field_index(column)
            table = table.set_column(index, column, pa.array([values[seat] for seat in seats], pa.string()))
        pq.write_table(table, part)
    store.write_manifest(data, store.read_manifest(data))  # the parts rewritten, listed again


@pytest.fixture(scope="module")
def long_named(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One game of 2-player Catalan Truc whose seats are named with 100,000 and 10,000 characters, and whose
    bots' labels are as long."""
    out = tmp_path_factory.mktemp("long") / "d"
    simulate(SimulationSpec("catalan", 1, 5, {"players": "2"}, "threshold", {1: "random"}, workers=1), out)
    rename(out, (LONG, LONGISH), ("B" * 100_000, "B" * 10_000 + "x"))
    return out


def strings(value: Any) -> list[str]:
    """Every string a chart spec holds (its data's values and its texts)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for item in value.values() for s in strings(item)]
    if isinstance(value, list):
        return [s for item in value for s in strings(item)]
    return []


def test_a_label_is_cut_and_names_stay_apart() -> None:
    assert cut_label("short") == "short"
    assert len(cut_label(LONG)) == LABEL_CHARS and cut_label(LONG).endswith("\u2026")
    cut = cut_labels([LONG, LONGISH, "Bob"])
    assert cut["Bob"] == "Bob" and len(set(cut.values())) == 3
    assert all(len(label) <= LABEL_CHARS for label in cut.values())


def test_the_players_chart_draws_the_names_cut(long_named: Path) -> None:
    frame = compared_players(stats.compute("player_results", long_named))
    assert frame.height == 2 and frame["player"].n_unique() == 2  # still two players
    spec = charts.player_results(frame).to_dict()
    longest = max(len(s) for s in strings(spec))
    assert 40 <= longest < 1000, longest  # the names are there, cut (the longest text is a tooltip's title)


@pytest.mark.parametrize("name", ["bluff_success", "raise_rates", "strength_curve"])
def test_a_bots_label_is_cut_in_a_chart_by_policy(long_named: Path, name: str) -> None:
    frame = stats.compute(name, long_named)
    spec = charts.CHARTS[name](frame).to_dict()
    assert max(len(s) for s in strings(spec)) < 1000


def test_a_table_cell_cuts_a_long_name_and_keeps_it_whole_in_its_title() -> None:
    html = cell("player", LONGISH + "<b>")
    assert html.startswith(f'<td title="{LONGISH}&lt;b&gt;">') and html.endswith(f"{cut_label(LONGISH)}</td>")
    assert cell("player", "Anna") == "<td>Anna</td>"


def test_the_report_of_a_long_named_game_draws_no_long_label(long_named: Path, tmp_path: Path) -> None:
    """Outside a table cell's ``title``, the page (its text, findings and the charts' specs) holds no name
    longer than ``LABEL_CHARS``; the drawn charts neither."""
    result = build_report([long_named], tmp_path / "report")
    html = result.html.read_text("utf-8")
    visible = re.sub(r'title="[^"]*"', "", html)
    assert re.search(rf"A{{{LABEL_CHARS},}}|B{{{LABEL_CHARS},}}", visible) is None
    assert 'title="' + "B" * 100_000 + '"' in html  # a table of a statistic by policy keeps the whole label
    svgs = list((tmp_path / "report" / "charts").glob("*.svg"))
    assert svgs  # (a 1-game dataset's players are under the chart's minimum sample: their chart is not drawn)
    assert all(re.search(rf"A{{{LABEL_CHARS},}}", svg.read_text("utf-8")) is None for svg in svgs)
