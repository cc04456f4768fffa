"""The report folder and page: its structure, then a real rendering in headless Chromium with no network.

The browser test opens ``index.html`` in Debian's Chromium (driven by Playwright, context offline),
waits until every chart container says it has been drawn, and checks that each holds an SVG with data
marks, interval rules and count labels, that the console logged no error, that no script threw, and that
the page asked for nothing but its own file. Without ``/usr/bin/chromium`` it fails and says to run
``scripts/ensure-chromium.sh``; ``TRUC_SKIP_BROWSER=1`` skips it.
"""

from __future__ import annotations

import contextlib
import html
import json
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from pipeline import store
from pipeline.report import glossary, summary, tables
from pipeline.report.frames import (
    ALL_STATISTICS,
    CONTRACT,
    SPECIFIC,
    STATISTICS,
    fmt_pct,
    interval_label,
    setting_phrase,
)
from pipeline.report.page import ReportResult, build_report, render_page, shown_and_folded
from pipeline.report.summary import Detail, Finding
from pipeline.variants import VARIANTS
from tests.report_samples import MULTI_SETTINGS, multi_variant_frames, sample_frames, with_french_stakes

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--no-first-run",
    "--disable-component-update",
    "--disable-sync",
]
HOSTILE = "<script>alert('manifest')</script> & \"quotes\""


def page_spec(page: str, name: str) -> dict[str, Any]:
    """The Vega-Lite spec of chart ``name`` as the page inlines it."""
    match = re.search(rf'<script type="application/json" id="spec-{name}">(.*?)</script>', page, re.S)
    assert match, name
    spec: dict[str, Any] = json.loads(match.group(1))
    return spec


@pytest.fixture(scope="module")
def sample_report(tmp_path_factory: pytest.TempPathFactory) -> ReportResult:
    """Two variants, two player counts, an n = 0 group, and a statistic with nothing to draw."""
    frames = sample_frames()
    frames["tie_frequency"] = frames["tie_frequency"].clear()
    manifests: dict[str, dict[str, Any]] = {
        "data/sample": {"games": 1200, "note": HOSTILE},
        "data/other": {"games": 10},
    }
    return render_page(frames, manifests, tmp_path_factory.mktemp("reports") / "sample")


@pytest.fixture(scope="module")
def multi_report(tmp_path_factory: pytest.TempPathFactory) -> ReportResult:
    """A report over catalan, french, trut (3 and 4 players) and valencian, from hand-made frames; French
    Truc raises to every stake up to 11, so the raise-rates chart is drawn as panels, and a row of four
    variants too wide for the page wraps (strength curve, stake distribution)."""
    frames = multi_variant_frames()
    frames["raise_rates"] = with_french_stakes(frames["raise_rates"])
    return render_page(frames, {"data/multi": {"games": 900}}, tmp_path_factory.mktemp("reports") / "multi")


@pytest.fixture(scope="module")
def sim_report(sim_dataset: Path, tmp_path_factory: pytest.TempPathFactory) -> ReportResult:
    """The whole chain: a simulated dataset, the statistics, the report."""
    messages: list[str] = []
    result = build_report([sim_dataset], tmp_path_factory.mktemp("reports") / "sim", progress=messages.append)
    assert any(m.startswith("computing") for m in messages)
    return result


# --- the folder and the page, without a browser -----------------------------------------------------


def test_report_folder_holds_the_page_and_chart_files(sample_report: ReportResult) -> None:
    assert sample_report.html == sample_report.out / "index.html"
    assert sample_report.html.is_file()
    drawn = [n for n in STATISTICS if n != "tie_frequency"]
    assert list(sample_report.png) == drawn
    for path in sample_report.chart_files:
        assert path.is_file() and path.stat().st_size > 1000
        assert path.parent == sample_report.out / "charts"
    assert sample_report.png["mano_advantage"].read_bytes().startswith(b"\x89PNG")
    assert sample_report.svg["mano_advantage"].read_text("utf-8").startswith("<svg")
    leftovers = [p.name for p in sample_report.out.parent.iterdir() if p.name.startswith(".")]
    assert leftovers == []


def test_each_chart_links_its_own_files_and_they_exist(sample_report: ReportResult) -> None:
    """The "Chart files" line under each drawn chart links that chart's PNG and SVG, files the report wrote
    (an SVG that starts as one); a section with nothing to draw links none."""
    page = sample_report.html.read_text("utf-8")
    link = r'<a href="([^"]*)">(PNG|SVG)</a>'
    assert len(re.findall(link, page)) == 2 * len(sample_report.png)
    for name in STATISTICS:
        section = page.split(f'<section id="stat-{name}">', 1)[1].split("</section>", 1)[0]
        links = {kind: href for href, kind in re.findall(link, section)}
        if name not in sample_report.png:
            assert links == {}, name
            continue
        svg, png = sample_report.out / links["SVG"], sample_report.out / links["PNG"]
        assert svg.is_file() and svg.read_bytes().startswith(b"<svg"), (name, links)
        assert png.is_file() and png.read_bytes().startswith(b"\x89PNG"), (name, links)
        assert (svg, png) == (sample_report.svg[name], sample_report.png[name])  # this chart's, not another's
    assert "tie_frequency" not in sample_report.png  # the fixture's statistic with nothing to draw


def test_libraries_are_inlined_once_and_nothing_is_fetched(sample_report: ReportResult) -> None:
    page = sample_report.html.read_text("utf-8")
    assert page.count("window.vegaEmbed=") == 1
    assert "<script src" not in page.lower()
    assert "<link" not in page.lower()
    assert "cdn.jsdelivr" not in page
    assert "Content-Security-Policy" in page and "default-src &#x27;none&#x27;" in page


def test_every_drawn_chart_has_a_container_and_its_spec(sample_report: ReportResult) -> None:
    page = sample_report.html.read_text("utf-8")
    containers = re.findall(r'data-chart="([a-z_]+)"', page)
    assert containers == list(sample_report.png)
    for name in containers:
        spec = page_spec(page, name)
        assert spec["$schema"].startswith("https://vega.github.io/schema/vega-lite/")
        data = spec["data"]  # inline, or a named dataset (Altair moves a chart's rows to the top level)
        assert data.get("values") or spec["datasets"][data["name"]]


def test_page_has_findings_sections_tables_and_manifests(sample_report: ReportResult) -> None:
    page = sample_report.html.read_text("utf-8")
    assert "<h1>Truc Lab report</h1>" in page
    assert "Winning the first trick raises the chance to win the hand" in page
    for name in STATISTICS:
        assert f'<section id="stat-{name}">' in page
    assert '<th title="eldest_wins">Won by the eldest&#x27;s side</th>' in page
    assert page.count("<details><summary>data/") == 2
    assert "Nothing to draw" in page and "returned no rows" in page


def numbers_table(page: str, name: str) -> tuple[list[tuple[str, str]], list[dict[str, str]]]:
    """The table under statistic ``name``'s chart: its (column, header) pairs and its rows, cell by column."""
    section = page.split(f'<section id="stat-{name}">', 1)[1].split("</section>", 1)[0]
    block = section.split("<summary>The numbers", 1)[1]
    columns = [(column, html.unescape(text)) for column, text in re.findall(r'<th title="(\w+)">(.*?)</th>', block)]
    body = block.split("<tbody>", 1)[1]
    rows = [
        dict(
            zip(
                [c for c, _ in columns],
                [html.unescape(t) for t in re.findall(r"<td[^>]*>(.*?)</td>", row)],
                strict=True,
            )
        )
        for row in re.findall(r"<tr>(.*?)</tr>", body)
    ]
    return columns, rows


def test_tables_speak_words_and_give_differences_of_rates_in_points(multi_report: ReportResult) -> None:
    """Every table under a chart heads its columns in words (their names in the frame as tooltips); a
    difference of two rates reads in percentage points, a rate in percent."""
    page = multi_report.html.read_text("utf-8")
    for name in ALL_STATISTICS:
        columns, rows = numbers_table(page, name)
        assert columns and rows, name
        assert all("_" not in text and not text[0].islower() for _, text in columns), (name, columns)
    columns, rows = numbers_table(page, "first_trick_value")
    assert dict(columns)["value"] == "Won, taking minus losing trick 1 (pp)"
    frame = multi_variant_frames()["first_trick_value"]
    assert [row["value"] for row in rows] == [f"{v * 100:+.1f} pp" for v in frame["value"]]
    assert all(re.fullmatch(r"\d+\.\d%", row["p_win_won_first"]) for row in rows)
    assert all(re.fullmatch(r"[+-]\d+\.\d\d", row["points_value"]) for row in rows)
    columns, rows = numbers_table(page, "variant_comparison")
    assert dict(columns)["mano_edge"].endswith("(pp)") and dict(columns)["first_trick_value"].endswith("(pp)")
    assert all(re.fullmatch(r"[+-]\d+\.\d pp", row["mano_edge"]) for row in rows)
    assert all(re.fullmatch(r"\d+\.\d%", row["mano_win_rate"]) for row in rows)


def test_a_null_that_is_a_row_of_its_own_says_what_it_is(multi_report: ReportResult) -> None:
    """fold_rates' row of every decile at a stake read decile '–' (null); raise_rates' decisions before play
    read trick '–'. A null that means 'not applicable' (a tie rule has no trick) stays a dash."""
    page = multi_report.html.read_text("utf-8")
    frames = multi_variant_frames()
    _, rows = numbers_table(page, "fold_rates")
    assert sum(row["decile"] == "all" for row in rows) == frames["fold_rates"]["decile"].null_count() > 0
    assert {row["decile"] for row in rows} == {"all", *(str(d) for d in range(1, 11))}
    _, rows = numbers_table(page, "raise_rates")
    assert (
        sum(row["trick_no"] == "before play" for row in rows)
        == with_french_stakes(frames["raise_rates"])["trick_no"].null_count()
        > 0
    )
    _, rows = numbers_table(page, "tie_frequency")
    assert {row["trick_no"] for row in rows if row["measure"] == "hand_by_tie_rule"} == {"\u2013"}


def test_the_comparison_table_names_the_game_s_unit_and_the_hand_s(multi_report: ReportResult) -> None:
    """``unit`` is what the games' scores count (longs, cames), while the page's header and the findings
    count a hand's points (petits, stones): the table heads it as the game's and names the hand's beside it."""
    page = multi_report.html.read_text("utf-8")
    columns, rows = numbers_table(page, "variant_comparison")
    at = columns.index(("unit", "Game score in"))
    assert columns[at + 1] == ("hand_unit", "Hand points in")
    units = {row["variant"]: (row["unit"], row["hand_unit"]) for row in rows}
    assert units == {
        "catalan": ("points", "points"),
        "french": ("points", "points"),
        "trut": ("longs", "petits"),
        "valencian": ("cames", "stones"),
    }
    assert "stones in valencian, petits in the trut" in page  # the header's words


def test_every_column_of_the_statistics_has_its_header() -> None:
    columns = {column for contract in CONTRACT.values() for column in contract}
    assert columns <= set(tables.HEADERS)
    assert tables.header("new_column") == "New column"  # a column the report does not know yet still reads
    assert columns >= tables.PERCENTAGE_POINTS


def test_text_inserted_into_the_page_is_escaped(sample_report: ReportResult) -> None:
    page = sample_report.html.read_text("utf-8")
    assert "alert(" in page
    assert "<script>alert" not in page
    assert "&lt;script&gt;alert(" in page


def test_an_existing_report_is_kept_without_overwrite(tmp_path: Path) -> None:
    out = tmp_path / "report"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    with pytest.raises(store.DatasetError, match="exists and is not a Truc Lab report: choose another --out$"):
        render_page({}, {}, out, overwrite=False)  # no --overwrite suggested: it would be refused too
    assert (out / "keep.txt").read_text() == "mine"
    render_page({}, {}, tmp_path / "older")
    (tmp_path / "older" / "index.html").write_text((tmp_path / "older" / "index.html").read_text() + "<!-- old -->")
    render_page({}, {}, tmp_path / "older")  # an older report is replaced by default
    assert "No findings" in (tmp_path / "older" / "index.html").read_text("utf-8")
    assert "<!-- old -->" not in (tmp_path / "older" / "index.html").read_text("utf-8")
    (tmp_path / "older" / "charts").mkdir(exist_ok=True)
    (tmp_path / "older" / "charts" / "mano_advantage.png").write_bytes(b"a chart of the report")
    render_page({}, {}, tmp_path / "older")  # its own chart files are the report's
    (tmp_path / "older" / "charts").mkdir(exist_ok=True)
    (tmp_path / "older" / "charts" / "my.png").write_bytes(b"mine")  # a user's file among the charts is kept
    with pytest.raises(store.DatasetError, match="older exists and is not a Truc Lab report: choose another --out$"):
        render_page({}, {}, tmp_path / "older")
    assert (tmp_path / "older" / "charts" / "my.png").read_bytes() == b"mine"


def test_a_report_never_replaces_what_is_not_a_report(tmp_path: Path, sim_dataset_2p: Path) -> None:
    """A mistyped ``--out`` naming a dataset, or a folder of one's own files, is refused and kept as it was,
    before any statistic is computed."""
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "keep.txt").write_text("mine")
    with pytest.raises(store.DatasetError, match="mine exists and is not a Truc Lab report: choose another --out"):
        render_page({}, {}, mine)
    assert [p.name for p in mine.iterdir()] == ["keep.txt"]
    dataset = tmp_path / "run"
    shutil.copytree(sim_dataset_2p, dataset)
    before = sorted(str(p.relative_to(dataset)) for p in dataset.rglob("*"))
    with pytest.raises(store.DatasetError, match="run exists and is not a Truc Lab report: choose another --out"):
        build_report([dataset], dataset)
    assert sorted(str(p.relative_to(dataset)) for p in dataset.rglob("*")) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine", "run"]


def test_a_failed_render_leaves_nothing_behind(tmp_path: Path) -> None:
    broken: Any = {"mano_advantage": pl.DataFrame({"variant": ["catalan"]}), "first_trick_value": "not a frame"}
    with pytest.raises(AttributeError):
        render_page(broken, {}, tmp_path / "report")
    assert list(tmp_path.iterdir()) == []


def test_build_report_draws_every_statistic_of_a_simulation(sim_report: ReportResult, sim_dataset: Path) -> None:
    # a catalan dataset: the comparison and every statistic; no void-hands chart (no catalan hand can be void:
    # its section says there is nothing to draw); the envit, trut and french statistics have no rows, so no section
    # the headline chart of games won first (experiment_charts.GAMES_CHART), then a chart per statistic
    assert list(sim_report.png) == ["games_won", "variant_comparison", *STATISTICS, "player_results"]
    page = sim_report.html.read_text("utf-8")
    assert f"<summary>{sim_dataset}</summary>" in page
    assert "4-player catalan" in page
    assert "Variants: catalan (4 players)." in page
    for name in ("envit", "trut", "french"):
        assert f'id="stat-{name}"' not in page
    # the mixed seats of the dataset compared, last, each bot named by what sets it apart
    sections = re.findall(r'<section id="stat-([a-z_]+)">', page)
    assert sections[-1] == "player_results"
    players = page.split('<section id="stat-player_results">', 1)[1].split("</section>", 1)[0]
    assert "Players and bots" in players and "random" in players
    # under a part of their own (they sat under "Variant by variant", whose text did not fit them)
    assert page.index(">Who played<") < page.index('<section id="stat-player_results">')
    assert page.index(">Who played<") > page.index('<section id="stat-void_hands">')
    assert '<nav><ul><li><a href="#findings">Findings</a></li>' in page
    assert "threshold raise_at=0.8 call_at=0.6 bluff=0.05" in players and "nocut" not in players
    # a random bot sat at the table: said where the settings are compared, before they are ranked
    caveat = (
        "a random bot (it picks uniformly among the legal actions) played 25% of the seat-hands in 4-player catalan"
    )
    comparison = page.split('<section id="stat-variant_comparison">', 1)[1].split("</section>", 1)[0]
    assert comparison.index(caveat) < comparison.index('<div class="table-wrap comparison">')


def test_multi_variant_report_opens_with_the_comparison(multi_report: ReportResult) -> None:
    assert list(multi_report.png) == list(ALL_STATISTICS)
    page = multi_report.html.read_text("utf-8")
    assert "Variants: catalan (4 players), french (2 players), trut (3, 4 players), valencian (2 players)." in page
    sections = re.findall(r'<section id="stat-([a-z_]+)">', page)
    assert sections == list(ALL_STATISTICS)  # no player_results frame given: no players section
    # the comparison table: one row per setting, each rate with its interval and count/sample size
    section = page.split('<section id="stat-variant_comparison">', 1)[1].split("</section>", 1)[0]
    table = section.split('<div class="table-wrap comparison">', 1)[1].split("</table>", 1)[0]
    assert table.count("<tr>") == 1 + 5 and "Eldest won the hand" in table
    assert re.search(r"\d+% \([+-]\d+\.\d pp\)<br><small>\d+\.\d%–\d+\.\d% · [\d,]+/[\d,]+</small>", table)
    # the parts of the page, in order
    order = [
        page.index('<section id="stat-variant_comparison">'),
        page.index(">Every variant<"),
        page.index('<section id="stat-first_trick_value">'),
        page.index('<section id="stat-tie_frequency">'),
        page.index(">Variant by variant<"),
        page.index('<section id="stat-envit">'),
    ]
    assert order == sorted(order)


COMPARISON_HEADERS = [
    "Variant",
    "Players",
    "Games",
    "Hands a game",
    "Trick 1 taker won the hand",
    "Raises that were bluffs",
    "Bluffs folded to",
    "Folds facing a raise",
    "Eldest won the hand",
    "Tied tricks",
]


def test_every_cell_of_the_comparison_table_reads_its_own_rate_interval_and_count(multi_report: ReportResult) -> None:
    """Every column of the variants' table, not only the eldest's: each setting's games, hands a game, and
    each rate with its own interval and its own count over its own sample (the frame's count columns, so
    a cell drawn from another column's figures, or left out, shows)."""
    page = multi_report.html.read_text("utf-8")
    section = page.split('<section id="stat-variant_comparison">', 1)[1].split("</section>", 1)[0]
    table = section.split('<div class="table-wrap comparison">', 1)[1].split("</table>", 1)[0]
    assert [html.unescape(h) for h in re.findall(r"<th>(.*?)</th>", table)] == COMPARISON_HEADERS
    body = table.split("<tbody>", 1)[1]
    drawn = [
        [html.unescape(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        for row in re.findall(r"<tr>(.*?)</tr>", body)
    ]
    expected = []
    for row in multi_variant_frames()["variant_comparison"].iter_rows(named=True):
        cells = [row["variant"], str(row["players"]), f"{row['games']:,}", f"{row['mean_hands_per_game']:.1f}"]
        for rate, count, total, prefix in (
            ("first_trick_win_rate", None, "first_trick_hands", "first_trick"),
            ("bluff_rate", "bluffs", "raises", "bluff"),
            ("bluff_success_rate", "bluffs_folded", "bluffs", "bluff_success"),
            ("fold_rate", "folds", "facing", "fold"),
            ("mano_win_rate", "eldest_wins", "decided_hands", "mano"),
            ("tie_rate", "tied_tricks", "tricks", "tie"),
        ):
            k = round(row[rate] * row[total]) if count is None else row[count]  # trick 1's wins: not in the frame
            edge = f" ({row['mano_edge'] * 100:+.1f} pp)" if prefix == "mano" else ""
            interval = interval_label(row[f"{prefix}_ci_low"], row[f"{prefix}_ci_high"])
            cells.append(f"{fmt_pct(row[rate])}{edge}<br><small>{interval} \u00b7 {k:,}/{row[total]:,}</small>")
        expected.append(cells)
    assert drawn == expected


def test_multi_variant_charts_wrap_what_one_row_or_a_grid_cannot_hold(multi_report: ReportResult) -> None:
    page = multi_report.html.read_text("utf-8")
    panels = page_spec(page, "raise_rates")  # French Truc's stakes 1 to 11: a grid mostly empty
    assert panels["facet"]["field"] == "panel" and panels["columns"] > 1
    assert "french \u00b7 Own move, stake 11" in panels["facet"]["sort"]
    wrapped = page_spec(page, "strength_curve")  # four variants of wide panels
    assert wrapped["facet"]["field"] == "variant" and wrapped["columns"] < 4
    narrow = page_spec(page, "void_hands")  # narrow panels fit one row
    assert narrow["facet"]["field"] == "variant" and narrow["columns"] == len(narrow["facet"]["sort"])


def test_findings_lead_with_the_comparison_and_show_every_setting(multi_report: ReportResult) -> None:
    page = multi_report.html.read_text("utf-8")
    findings = page.split('<details id="findings">', 1)[1].split('<details id="manifests">', 1)[0]
    blocks = dict(re.findall(r'<h3><a href="#stat-([a-z_]+)">.*?</a></h3>(.*?)(?=<h3>|$)', findings, re.S))
    comparison_shown, comparison_folded = blocks["variant_comparison"].split("<details>", 1)
    shown_items = re.findall(r"<li>(.*?)</li>", comparison_shown)
    assert shown_items and all(item.startswith("Across variants, ") for item in shown_items)
    assert comparison_folded.count("<li>") == len(MULTI_SETTINGS)  # the table's rows, restated, are folded
    settings = [setting_phrase(variant, players) for variant, players in MULTI_SETTINGS]
    for name in ("raise_rates", "fold_rates", "bluff_success"):  # a finding per stake: each setting shown once
        shown, folded = blocks[name].split("<details>", 1)
        more = re.match(r"<summary>(\d+) more</summary>", folded)
        assert more and int(more.group(1)) == folded.count("<li>") > 0
        items = re.findall(r"<li>(.*?)</li>", shown)
        assert len(items) == len(settings), name
        assert all(sum(setting in item for item in items) == 1 for setting in settings), name
    assert "<details>" not in blocks["mano_advantage"]  # one sentence per setting: all shown
    assert blocks["mano_advantage"].count("<li>") == len(settings)


def test_a_comparison_with_a_random_bot_in_some_settings_says_which(tmp_path: Path) -> None:
    """The settings are ranked side by side: those where a random bot played are named (from the data's
    players, whatever the runs), in the comparison's section and first in its findings; a report whose
    bots are all alike says nothing of it."""
    frames = multi_variant_frames()
    odile = "Odile </script><script>alert(1)</script>"  # a seat's name from an imported game
    bots = [("catalan", 4, "random"), ("catalan", 4, "threshold"), ("trut", 3, "threshold"), ("trut", 3, odile)]
    frames["player_results"] = pl.DataFrame(
        [
            {"variant": v, "players": p, "player": who, "hands": 1000, "decided": 990, "wins": 480}
            | {"random_bot_hands": 1000 if who == "random" else 0}
            for v, p, who in bots
        ]
    )
    label = "data/<b>runs</b> & co"
    notes = ["trut with 3 players pools games", "trut was played under different options"]
    page = render_page(frames, {label: {"games": 1}}, tmp_path / "random", notes=notes).html.read_text("utf-8")
    assert page.count('class="note caveat"') == 1  # under the comparison alone
    assert all(f'<p class="note">Note: {note}.</p>' in page for note in notes)
    assert "data/&lt;b&gt;runs&lt;/b&gt; &amp; co" in page and label not in page
    assert "<script>alert(1)" not in page and "Odile &lt;/script&gt;" in page
    caveat = (
        "Not like for like: a random bot (it picks uniformly among the legal actions) played 50% of the "
        "seat-hands in 4-player catalan; that setting&#x27;s figures measure its play"
    )
    section = page.split('<section id="stat-variant_comparison">', 1)[1].split("</section>", 1)[0]
    assert f'<p class="note caveat">{caveat}' in section
    findings = page.split('<details id="findings">', 1)[1].split('<details id="manifests">', 1)[0]
    comparison = findings.split('href="#stat-variant_comparison"', 1)[1].split("<h3>", 1)[0]
    first, *others = re.findall(r"<li>(.*?)</li>", comparison.split("<details>", 1)[0])
    assert first.startswith(caveat) and others and all(item.startswith("Across variants, ") for item in others)
    assert "trut" not in first
    frames["player_results"] = frames["player_results"].filter(pl.col("player") != "random")
    alike = render_page(frames, {}, tmp_path / "alike").html.read_text("utf-8")
    assert "Not like for like" not in alike


def test_each_setting_shows_its_best_supported_finding_in_the_summary_s_order() -> None:
    """Of the findings about one setting (one per stake), the one on the largest sample is shown and the
    others folded: here French Truc's higher stakes, reached less and less often, are folded, while
    every setting keeps one sentence in view."""
    frame = with_french_stakes(multi_variant_frames()["raise_rates"])
    thinner = pl.when(pl.col("variant") == "french")
    frame = frame.with_columns(
        thinner.then(pl.col(c) // pl.col("stake")).otherwise(pl.col(c)).alias(c) for c in ("count", "chances")
    )
    sentences = summary.raise_rates(frame)
    assert all(isinstance(s, Finding) for s in sentences)
    shown, folded = shown_and_folded(sentences)
    assert sorted(shown + folded) == sorted(sentences)
    assert [s.setting for s in shown] == sorted(set(MULTI_SETTINGS))  # type: ignore[attr-defined]
    for found in shown:
        same = [s.sample for s in sentences if s.setting == found.setting]  # type: ignore[attr-defined]
        assert found.sample == max(same)  # type: ignore[attr-defined]
    assert shown == [s for s in sentences if s in shown] and folded == [s for s in sentences if s in folded]
    assert any("with the stake at 11" in s for s in folded)
    assert not any("with the stake at 11" in s for s in shown)
    across = "Across variants, the eldest's side wins most often in catalan."  # a plain sentence: always shown
    assert shown_and_folded([*sentences, across])[0][-1] == across
    table = [Detail("In 2-player catalan: the eldest won 51%."), Detail("In 4-player catalan: 49%.")]
    assert shown_and_folded([across, *table]) == ([across], table)
    assert shown_and_folded(table) == (table, [])  # a table of one setting alone is said all the same


def test_multi_variant_findings_speak_each_variants_units(multi_report: ReportResult) -> None:
    page = multi_report.html.read_text("utf-8")
    assert "Across variants, the eldest&#x27;s edge over an even share is largest in" in page
    assert "petits per hand than each other player on average" in page
    assert re.search(r"valencian.*?A bluff netted [+-]\d\.\d\d stones on average", page)
    assert re.search(r"4-player catalan.*?A bluff netted [+-]\d\.\d\d points on average", page)
    assert "The envit brought 1.10 stones a hand" in page
    assert "against an even share of 1/3" in page


def test_the_page_defines_the_game_terms_of_its_variants_only(
    sample_report: ReportResult, multi_report: ReportResult
) -> None:
    def terms(report: ReportResult) -> list[str]:
        page = report.html.read_text("utf-8")
        block = page.split('<details id="terms">', 1)[1].split("</details>", 1)[0]
        return [html.unescape(t) for t in re.findall(r"<dt>(.*?)</dt>", block)]

    two = terms(sample_report)  # catalan and valencian
    assert {"eldest", "truc, retruc", "envit, torne, falta", "stones, cama"} <= set(two)
    assert not {"fortial", "petit, long", "redeal", "void hand"} & set(two)
    several = terms(multi_report)  # catalan, french, trut (3 and 4 players), valencian
    assert {"fortial", "petit, long", "redeal", "raise, reste", "void hand", "trut"} <= set(several)
    assert not {"sec", "la chanson", "à tenir, hold"} & set(several)
    assert several == [t.term for t in glossary.TERMS if t.term in several]  # in the glossary's order


def test_every_term_names_known_variants_and_every_variant_has_its_terms() -> None:
    for term in glossary.TERMS:
        assert term.variants and term.variants <= set(VARIANTS), term.term
    for name in VARIANTS:
        own = [t.term for t in glossary.terms_for([name]) if t.variants != glossary.EVERY_VARIANT]
        assert own, name  # each variant has words of its own
    assert glossary.terms_for(["no-such-variant"]) == []


def test_variant_sections_need_rows(tmp_path: Path) -> None:
    frames = sample_frames()
    frames.update({name: multi_variant_frames()[name].clear() for name in SPECIFIC})
    result = render_page(frames, {}, tmp_path / "report")
    page = result.html.read_text("utf-8")
    assert list(result.png) == list(STATISTICS)
    assert ">Variant by variant<" not in page
    for name in SPECIFIC:
        assert f'id="stat-{name}"' not in page


def test_build_report_refuses_a_folder_that_is_not_a_dataset(tmp_path: Path) -> None:
    with pytest.raises(store.DatasetError):
        build_report([tmp_path / "missing"], tmp_path / "report")
    assert not (tmp_path / "report").exists()


# --- the page in a real browser -------------------------------------------------------------------


def _require_chromium() -> None:
    """Skip on TRUC_SKIP_BROWSER=1; otherwise fail (never skip) when Chromium or Playwright is missing."""
    if os.environ.get("TRUC_SKIP_BROWSER") == "1":
        pytest.skip("TRUC_SKIP_BROWSER=1")
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: run scripts/ensure-chromium.sh", pytrace=False)
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        pytest.fail("playwright is missing: pip install -e '.[dev]'", pytrace=False)


@contextlib.contextmanager
def _chromium() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS)
        try:
            yield browser
        finally:
            browser.close()


_CHART_STATE = """
() => [...document.querySelectorAll("[data-chart]")].map(el => ({
  name: el.dataset.chart,
  rendered: el.dataset.rendered || null,
  svgs: el.querySelectorAll("svg").length,
  dataMarks: el.querySelectorAll(
    "g.role-mark:not(.mark-rule):not(.mark-text) > path, g.role-mark.mark-line > path").length,
  intervals: el.querySelectorAll("g.role-mark.mark-rule > line").length,
  labels: [...el.querySelectorAll("g.role-mark.mark-text > text")].map(t => t.textContent),
}))
"""


def _render(browser: Any, report: ReportResult) -> tuple[list[dict[str, Any]], list[str], list[str]]:
    """Open the report offline; return each chart's state, the console errors and foreign requests."""
    context = browser.new_context(offline=True, viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    problems: list[str] = []
    requests: list[str] = []
    page.on("console", lambda m: problems.append(f"console.{m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("request", lambda r: requests.append(r.url))
    try:
        page.goto(report.html.as_uri())
        page.wait_for_function(
            "() => [...document.querySelectorAll('[data-chart]')].every(e => e.dataset.rendered)",
            timeout=30_000,
        )
        charts: list[dict[str, Any]] = page.evaluate(_CHART_STATE)
    finally:
        context.close()
    foreign = [url for url in requests if url != report.html.as_uri()]
    return charts, problems, foreign


def _check_rendered(report: ReportResult) -> None:
    _require_chromium()
    with _chromium() as browser:
        charts, problems, foreign = _render(browser, report)
    assert problems == []
    assert foreign == []
    assert [c["name"] for c in charts] == list(report.png)
    for chart in charts:
        assert chart["rendered"] == "true", chart["name"]
        assert chart["svgs"] == 1, chart["name"]
        assert chart["dataMarks"] > 0, chart["name"]
        assert chart["intervals"] > 0, chart["name"]
        assert chart["labels"] and all(re.fullmatch(r"n=[\d,]+|[\d,]+/[\d,]+( games)?", t) for t in chart["labels"])


@pytest.mark.browser
def test_sample_report_renders_offline_without_console_errors(sample_report: ReportResult) -> None:
    _check_rendered(sample_report)


@pytest.mark.browser
def test_simulated_report_renders_offline_without_console_errors(sim_report: ReportResult) -> None:
    _check_rendered(sim_report)


@pytest.mark.browser
def test_multi_variant_report_renders_offline_without_console_errors(multi_report: ReportResult) -> None:
    _check_rendered(multi_report)


@pytest.mark.browser
def test_the_browser_check_sees_errors_and_fetches(sample_report: ReportResult, tmp_path: Path) -> None:
    _require_chromium()
    page = sample_report.html.read_text("utf-8").replace(
        "<h1>", '<img src="https://example.invalid/x.png"><script>console.error("boom")</script><h1>', 1
    )
    spoiled = tmp_path / "index.html"
    spoiled.write_text(page, "utf-8")
    report = ReportResult(out=tmp_path, html=spoiled, png=sample_report.png, svg=sample_report.svg)
    with _chromium() as browser:
        charts, problems, _ = _render(browser, report)
    assert any("boom" in p for p in problems)
    assert any("Content Security Policy" in p and "example.invalid" in p for p in problems)
    assert all(c["rendered"] == "true" for c in charts)


@pytest.mark.browser
def test_report_of_every_simulated_variant_renders_and_compares_them_all(
    sim_all_variants: Path, tmp_path: Path
) -> None:
    """The whole chain on real data of every variant and player count: each run a subfolder of one folder."""
    messages: list[str] = []
    report = build_report([sim_all_variants], tmp_path / "report", progress=messages.append)
    assert any(m.startswith("computing") for m in messages)
    # every statistic has rows, the variant ones included, so every chart is drawn; and every setting
    # compares its threshold and random bots
    assert list(report.png) == ["games_won", *ALL_STATISTICS, "player_results"]
    page = report.html.read_text("utf-8")
    listed = ", ".join(f"{name} ({', '.join(map(str, VARIANTS[name].players))} players)" for name in sorted(VARIANTS))
    assert f"Variants: {listed}." in page
    # the comparison table: one row per variant and player count, in order
    section = page.split('<section id="stat-variant_comparison">', 1)[1].split("</section>", 1)[0]
    table = section.split('<div class="table-wrap comparison">', 1)[1].split("</table>", 1)[0]
    body = table.split("<tbody>", 1)[1]
    settings = re.findall(r'<tr><td>([a-z-]+)</td><td class="num">(\d+)</td>', body)
    assert settings == [(name, str(players)) for name in sorted(VARIANTS) for players in VARIANTS[name].players]
    assert body.count("<tr>") == len(settings)
    for name in ("envit", "trut", "french"):
        assert f'<section id="stat-{name}">' in page
    _check_rendered(report)
    _check_layout(report)


_LAYOUT = """
() => {
  const wrap = document.querySelector(".table-wrap.comparison");
  return {
    pageWidth: document.documentElement.scrollWidth,
    window: window.innerWidth,
    tableHidden: wrap ? wrap.scrollHeight - wrap.clientHeight : null,
    rows: wrap ? wrap.querySelectorAll("tbody tr").length : null,
  };
}
"""


def _check_layout(report: ReportResult) -> None:
    """In a narrow window (a laptop's half screen, 800 px) the page does not scroll sideways (each wide
    chart scrolls in its own box; vega-embed's own class used to widen it to the chart), and the comparison
    table shows every row (it was cut to 26rem, hiding five of fourteen)."""
    with _chromium() as browser:
        context = browser.new_context(offline=True, viewport={"width": 800, "height": 900})
        page = context.new_page()
        page.goto(report.html.as_uri())
        page.wait_for_function(
            "() => [...document.querySelectorAll('[data-chart]')].every(e => e.dataset.rendered)", timeout=30_000
        )
        layout = page.evaluate(_LAYOUT)
        context.close()
    assert layout["pageWidth"] <= layout["window"], layout
    assert layout["rows"] and layout["tableHidden"] <= 1, layout


SCREENSHOTS = Path(__file__).resolve().parent.parent / "test-screenshots"
"""Where the browser tests leave their screenshots for a reader to review (git-ignored); each test prints them."""

WIDTHS = (1000, 1400)
"""The windows a reader opens the report in: a laptop's (the page's margins leave the charts about 900 px)
and a desktop's."""

_FIT = """
() => {
  const width = document.documentElement.clientWidth;
  const scrolls = el => {
    for (let up = el.parentElement; up; up = up.parentElement) {
      if (getComputedStyle(up).overflowX !== "visible") return true;
    }
    return false;
  };
  const wide = [];
  for (const el of document.body.querySelectorAll("*")) {
    const box = el.getBoundingClientRect();
    if (box.width && (box.right > width + 1 || box.left < -1) && !scrolls(el)) {
      const name = `${el.tagName.toLowerCase()}.${el.getAttribute("class") || ""}`;
      wide.push(`${name} ${Math.round(box.left)}-${Math.round(box.right)}`);
    }
  }
  const charts = [...document.querySelectorAll("[data-chart]")].map(el => {
    const svg = el.querySelector("svg");
    return {
      name: el.dataset.chart,
      box: el.clientWidth,
      svg: svg ? svg.getBoundingClientRect().width : null,
      axisTitles: [...el.querySelectorAll(".role-axis-title text")].map(t => t.textContent.trim()),
      axisLabels: el.querySelectorAll(".role-axis-label").length,
    };
  });
  return { width, pageWidth: document.documentElement.scrollWidth, wide: wide.slice(0, 20), charts };
}
"""


@pytest.mark.browser
@pytest.mark.parametrize("width", WIDTHS)
def test_the_report_fits_the_window_and_every_chart_has_its_axes(multi_report: ReportResult, width: int) -> None:
    """At 1,000 and 1,400 px the page does not scroll sideways, no element reaches past the window (but inside
    a box that scrolls, such as a wide table's), every chart fits its box, each drawn with its axis titles and
    x labels under every panel (``charts._panels``), and the console logs no error. The full-page screenshot
    is written to ``SCREENSHOTS`` and its path printed, for review."""
    _require_chromium()
    SCREENSHOTS.mkdir(exist_ok=True)
    shot = SCREENSHOTS / f"report-multi-{width}.png"
    problems: list[str] = []
    with _chromium() as browser:
        context = browser.new_context(offline=True, viewport={"width": width, "height": 1000})
        page = context.new_page()
        page.on("console", lambda m: problems.append(f"console.{m.type}: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
        page.goto(multi_report.html.as_uri())
        page.wait_for_function(
            "() => [...document.querySelectorAll('[data-chart]')].every(e => e.dataset.rendered)", timeout=60_000
        )
        fit = page.evaluate(_FIT)
        page.screenshot(path=str(shot), full_page=True)
        context.close()
    print(f"screenshot: {shot}")
    assert problems == []
    assert fit["pageWidth"] <= fit["width"] and fit["wide"] == [], fit["wide"]
    html = multi_report.html.read_text("utf-8")
    assert [chart["name"] for chart in fit["charts"]] == list(multi_report.png)
    for chart in fit["charts"]:
        name = chart["name"]
        assert chart["svg"] and chart["svg"] <= chart["box"] + 1, (name, chart["svg"], chart["box"])
        assert len(chart["axisTitles"]) >= 2 and all(chart["axisTitles"]), (name, chart["axisTitles"])
        spec = page_spec(html, name)
        if "facet" in spec:  # every panel its own x axis, the first of each row its y axis too
            assert chart["axisLabels"] >= len(spec["facet"]["sort"]), (name, chart["axisLabels"])
