"""The report: statistics computed over one or more datasets, drawn and written as one offline page.

``build_report`` computes every statistic with ``pipeline.stats`` and hands the frames to
``render_page``, which writes::

    OUT/index.html          the page: findings, the variants compared (``variant_comparison``: a table
                            and a chart, variants side by side), one section per statistic faceted by
                            variant, the variant-specific sections (envit, trut, french, void hands)
                            when their frames have rows, the run manifests
    OUT/charts/NAME.png     every chart at scale 2
    OUT/charts/NAME.svg

The page is self-contained and works with no network: Vega, Vega-Lite and vega-embed come from
vl-convert's bundle and are inlined once for the whole page; each chart's spec (data included) sits in
its own ``<script type="application/json">`` and one small script draws them all. A Content Security
Policy forbids every fetch, so a chart that tried to load something would fail loudly (a console error)
instead of quietly depending on the network. The folder is written beside ``OUT`` and moved into place
whole, so an interrupted run leaves no half-written report.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from pipeline import __version__, statistics, store
from pipeline.printable import is_utf8
from pipeline.report import article, claims, context, experiment_charts, experiments, render
from pipeline.report.charts import CHARTS
from pipeline.report.frames import (
    ALL_STATISTICS,
    COMPARISON,
    GAMES,
    PLAYERS,
    SPECIFIC,
    compared_players,
    conform,
    count_label,
    fmt_int,
    fmt_pct,
    fmt_pp,
    interval_label,
    is_missing,
    random_bot_shares,
    units_of,
)
from pipeline.report.glossary import terms_for
from pipeline.report.summary import SUMMARIES, Detail, Finding, per_policy, random_bot_caveat
from pipeline.report.tables import escape, table

Progress = Callable[[str], None]


def section_title(name: str) -> str | None:
    """The heading of statistic ``name``'s section: its registry entry's ``title``; None for a frame that is
    not a statistic's."""
    statistic = statistics.STATISTICS.get(name)
    return statistic.title if statistic else None


def section_definition(name: str) -> str:
    """What statistic ``name`` measures, for a reader: its registry entry's ``definition``; empty for a frame
    that is not a statistic's."""
    statistic = statistics.STATISTICS.get(name)
    return statistic.definition if statistic else ""


@dataclass(frozen=True)
class ReportResult:
    """Where a report was written: the folder, its page and the exported chart files by statistic."""

    out: Path
    html: Path
    png: dict[str, Path] = field(default_factory=dict)
    svg: dict[str, Path] = field(default_factory=dict)

    @property
    def chart_files(self) -> list[Path]:
        """Every PNG and SVG file, in page order."""
        return [path for name in self.png for path in (self.png[name], self.svg[name])]


DEFAULT_TITLE = "Truc Lab report"


def build_report(
    data: Sequence[Path],
    out: Path,
    *,
    overwrite: bool = True,
    progress: Progress | None = None,
    title: str = DEFAULT_TITLE,
) -> ReportResult:
    """Compute every statistic over the datasets ``data`` and write the report folder ``out``, headed
    ``title`` (the page's title and heading).

    Raises ``store.DatasetError`` when a dataset is missing or incomplete, or when ``out`` exists and
    ``overwrite`` is false or it is not a report (``_is_report``). Every statistic of the registry
    (``pipeline.statistics``) is computed, once, and its chart drawn by the workers while the next are computed.
    """
    from pipeline import stats  # imported here: it loads DuckDB, which `truc --help` should not pay for

    if not title.strip():
        raise ValueError("the report's title is empty")
    if not is_utf8(title):
        raise ValueError("the report's title (--title) is not UTF-8 text")
    store.check_output_folder(Path(out), overwrite, _is_report, REPORT_KIND)  # before the statistics are computed
    say = progress or (lambda _message: None)
    paths = store.expand_datasets([Path(d) for d in data])
    if not paths:
        raise store.DatasetError("no dataset given: pass at least one --data folder")
    for path in paths:
        store.check_dataset(path)
    out = Path(out)
    with _report_folder(out, overwrite, say) as (tmp, charts, vl_version):

        def chart(name: str, frame: pl.DataFrame) -> None:
            charts.statistic(name, page_frame(name, frame))

        # Every statistic and note in one DuckDB connection, the staging made once, and from the same datasets:
        # one replaced (--overwrite) between two statistics is an error, not a page whose sections describe two
        # datasets. Each statistic's chart is drawn by the workers while the next statistics are computed.
        with store.unchanged(paths), stats.staged(store.dataset_folders(paths)) as con:
            manifests = {str(path): store.read_manifest(path) for path in paths}
            frames = stats.compute_many(list(statistics.STATISTICS), paths, con=con, progress=say, computed=chart)
            notes = stats.pooling_notes(paths, con=con)
        for note in notes:
            say(f"note: {note}")
        found = experiments.find([Path(d) for d in data], manifests)
        drawn = _write_report(tmp, charts, frames, manifests, say, title.strip(), notes, found, vl_version)
    return _result(out, drawn)


def chart_spec(name: str, frame: pl.DataFrame) -> dict[str, Any] | None:
    """Statistic ``name``'s chart as a Vega-Lite spec, from its frame (``conform``ed here); None when it draws no
    row."""
    spec: dict[str, Any] = CHARTS[name](conform(name, frame)).to_dict(validate=False)  # the tests validate them
    return spec if _row_count(spec) else None


REPORT_KIND = "a Truc Lab report"

_GENERATOR = '<meta name="generator" content="truc-lab '
"""How a report's page names its maker (``_page``): the mark of a folder that a new report may replace."""


HEADLINE_CHARTS = (experiment_charts.GAMES_CHART, "match", "tournament", "sweep")
"""The charts of game-level results that open the page (``experiment_charts``), beside the statistics'."""

CHART_FILES = frozenset(f"{name}.{kind}" for name in (*CHARTS, *HEADLINE_CHARTS) for kind in ("png", "svg"))
"""What a report's ``charts/`` holds: a user's file there is not replaced with the report."""


def _is_report(out: Path) -> bool:
    """A folder a new report may replace (as it may an empty one): an older report, its ``index.html``,
    ``article.md`` and ``charts/`` and nothing else. A report is derived and rebuilt at will, so ``truc report``
    replaces one by default; anything else, a dataset above all, must survive a mistyped ``--out``."""
    page = out / "index.html"
    top = {path.name for path in out.iterdir()} <= {"index.html", article.ARTICLE, "charts"}
    top = top and page.is_file() and _made_here(page)
    return top and store.holds_only_files(out / "charts", CHART_FILES.__contains__)


def _made_here(page: Path) -> bool:
    with page.open("rb") as stream:
        return _GENERATOR.encode() in stream.read(4096)


def render_page(
    frames: Mapping[str, pl.DataFrame],
    manifests: Mapping[str, Mapping[str, Any]],
    out: Path,
    *,
    overwrite: bool = True,
    progress: Progress | None = None,
    title: str = DEFAULT_TITLE,
    notes: Sequence[str] = (),
    experiments_found: Sequence[experiments.Experiment] = (),
) -> ReportResult:
    """Write the report folder ``out`` from statistics frames already computed; ``notes`` (what the reader
    must know to read the figures, such as games of different options pooled) go to its caveats.

    ``frames`` maps a statistic's name to its frame (names outside ``frames.ALL_STATISTICS`` get a table
    but no chart); ``manifests`` maps each dataset's label (its path) to its manifest; ``experiments_found``
    are the experiments among the inputs (``experiments.find``). The page opens with the answer: the
    experiment's verdict, if any, and the summary (``claims.summary_claims``: at most ten findings whose
    interval excludes the null, games won first) with the headline chart of games won; then **Methods**
    (``context.methods``), **Results** (the experiment's table, ``variant_comparison``, then the statistics of
    every variant, the variant-specific ones (``frames.SPECIFIC``), each only when its frame has rows, then
    the players and bots (``frames.PLAYERS``) of the settings that have two or more), **Caveats**
    (``context.caveats``) and an appendix folded by default (every finding statistic by statistic, the run
    manifests). A frame with nothing to draw gets a note instead of a chart and no chart files. Beside the
    page, ``article.md`` says the same for a blog or a paper (``article``). The chart files are drawn by the
    workers of a ``render.Drawing``, started first, while the page is built (``build_report`` starts them before
    its statistics and hands each statistic's chart over as soon as it is computed: ``ChartFiles``).
    """
    say = progress or (lambda _message: None)
    out = Path(out)
    with _report_folder(out, overwrite, say) as (tmp, charts, vl_version):
        drawn = _write_report(tmp, charts, frames, manifests, say, title, notes, experiments_found, vl_version)
    return _result(out, drawn)


@contextlib.contextmanager
def _report_folder(out: Path, overwrite: bool, say: Progress) -> Iterator[tuple[Path, ChartFiles, str | None]]:
    """A report's temporary folder beside ``out``, moved into place whole when the block succeeds
    (``store.atomic_dataset``), its ``ChartFiles`` drawn by workers started first, and the Vega-Lite version they
    draw with. On an error the workers end before the folder is removed, so that none writes in it after. Where
    no worker can be started (``render.Drawing.alone``), ``say`` says so, and the charts are drawn here."""
    vl_version = render.vegalite_version()
    with (
        render.Drawing(vl_version) as draws,
        _unchecked(),
        store.atomic_dataset(out, overwrite, _is_report, REPORT_KIND) as tmp,
        _stopped_on_error(draws),
    ):
        if draws.alone is not None:
            say(f"note: the charts are drawn by this process, one at a time: {draws.alone}")
        yield tmp, ChartFiles(draws, tmp / "charts"), vl_version


class ChartFiles:
    """A report's chart files: each chart's spec handed to the drawing workers (``render.Drawing``) once, as soon
    as it is built, and kept for the page (``built``: None for a chart with nothing to draw)."""

    def __init__(self, draws: render.Drawing, folder: Path) -> None:
        self.draws = draws
        self.folder = folder
        folder.mkdir(exist_ok=True)
        self.built: dict[str, dict[str, Any] | None] = {}

    def draw(self, name: str, spec: dict[str, Any]) -> None:
        """Hand the chart ``name`` over to the workers, to be written as ``NAME.svg`` and ``NAME.png``."""
        self.draws.draw(spec, self.folder / f"{name}.svg", self.folder / f"{name}.png")

    def statistic(self, name: str, frame: pl.DataFrame) -> None:
        """Statistic ``name``'s chart, from its frame as the page shows it (``page_frame``), built and handed over
        unless it was already."""
        if name in CHARTS and name not in self.built:
            self.built[name] = spec = chart_spec(name, frame)
            if spec is not None:
                self.draw(name, spec)


def page_frame(name: str, frame: pl.DataFrame) -> pl.DataFrame:
    """The frame of statistic ``name`` as the page shows it: the players and bots compared only where a setting
    has two or more (``compared_players``), every other as computed."""
    return compared_players(frame) if name == PLAYERS else frame


def _result(out: Path, drawn: Sequence[str]) -> ReportResult:
    return ReportResult(
        out=out,
        html=out / "index.html",
        png={n: out / "charts" / f"{n}.png" for n in drawn},
        svg={n: out / "charts" / f"{n}.svg" for n in drawn},
    )


def _write_report(
    tmp: Path,
    charts: ChartFiles,
    frames: Mapping[str, pl.DataFrame],
    manifests: Mapping[str, Mapping[str, Any]],
    say: Progress,
    title: str,
    notes: Sequence[str],
    experiments_found: Sequence[experiments.Experiment],
    vl_version: str | None,
) -> list[str]:
    """``render_page``'s work, into the folder ``tmp``: the charts not yet handed over to the workers are built
    and handed over, the page and the article written, and every chart file waited for. Returns the names of
    the charts drawn."""
    names = [n for n in ALL_STATISTICS if n in frames and not (n in SPECIFIC and frames[n].height == 0)]
    if GAMES in frames and frames[GAMES].height:  # right after the comparison: the result that ranks bots
        names.insert(1 if names[:1] == [COMPARISON] else 0, GAMES)
    caveat = random_bot_caveat(random_bot_shares(frames[PLAYERS])) if PLAYERS in frames else None
    story = _story(frames, manifests, notes, experiments_found)
    frames = {name: page_frame(name, frame) for name, frame in frames.items()}
    if PLAYERS in frames and frames[PLAYERS].height:
        names.append(PLAYERS)
    names += sorted(n for n in frames if n not in ALL_STATISTICS and n not in (PLAYERS, GAMES))
    units = units_of(frames)
    sections: list[str] = []
    findings: dict[str, list[str]] = {}
    specs: dict[str, dict[str, Any]] = {}
    drawn: list[str] = []
    results: list[article.Result] = []
    current_part = ""
    for name, headline in story.charts:
        say(f"drawing {name}")
        specs[name] = headline.to_dict()
        charts.draw(name, specs[name])
        drawn.append(name)
    conformed = {name: conform(name, frames[name]) if name in CHARTS else frames[name] for name in names}
    for name in _largest_first([n for n in names if n in CHARTS and n not in charts.built], conformed):
        say(f"drawing {name}")
        charts.statistic(name, conformed[name])
    for name in names:
        frame = conformed[name]
        findings[name] = per_policy(name, frame, units) if name in SUMMARIES else []
        if name == COMPARISON and caveat:  # before the settings are ranked
            findings[name] = [caveat, *findings[name]]
        spec = charts.built.get(name)
        if spec is not None:
            specs[name] = spec
            drawn.append(name)
        part = _part_of(name)
        if part != current_part and part in _PARTS:
            sections.append(_part(part))
        current_part = part
        sections.append(_section(name, frame, spec is not None, caveat if name == COMPARISON else None))
        shown = shown_and_folded(findings[name])[0] if findings[name] else []
        results.append(
            article.Result(
                title=section_title(name) or name.replace("_", " ").capitalize(),
                definition=section_definition(name),
                chart=name if spec is not None else None,
                sentences=[str(s) for s in shown],
            )
        )
    say("writing index.html")
    page = _page(
        title=title,
        settings=_settings_seen(frames),
        notes=notes,
        manifests=manifests,
        findings=findings,
        sections=sections,
        specs=specs,
        story=story,
        experiment_html=_experiment_results(story, frames),
        bundle=render.bundle(vl_version),
    )
    (tmp / "index.html").write_text(page, "utf-8")
    say(f"writing {article.ARTICLE}")
    (tmp / article.ARTICLE).write_text(
        article.markdown(title, story.verdicts, story.summary, story.runs, results, story.caveats, notes,
                         [name for name, _ in story.charts],
                         [(f"The {e.kind}", *experiments.table_rows(e)) for e in story.found]),
        "utf-8",
    )  # fmt: skip
    say("writing the chart files")
    charts.draws.finish()
    return drawn


def _unchecked() -> contextlib.AbstractContextManager[None]:
    """Altair's check of every chart object against the Vega-Lite schema as it is built (its debug mode) turned
    off: a third of a CPU second a report, for charts whose specs the tests validate."""
    from altair.utils.schemapi import debug_mode

    return debug_mode(False)


def _largest_first(names: Sequence[str], frames: Mapping[str, pl.DataFrame]) -> list[str]:
    """``names`` by their frames' rows, most first (in their order among equals): the order in which their
    charts are handed to the drawing workers, the longest drawings first, so that the last to finish is a short
    one and no worker draws alone at the end while the other waits."""
    return sorted(names, key=lambda name: -frames[name].height)


@contextlib.contextmanager
def _stopped_on_error(drawing: render.Drawing) -> Iterator[None]:
    """``drawing``'s workers ended at once when the block fails or is interrupted."""
    try:
        yield
    except BaseException:
        drawing.stop()
        raise


@dataclass(frozen=True)
class Story:
    """What opens the page and the article: the experiments' verdicts, the summary's findings, the headline
    charts (name and chart), the runs as Methods describe them, the caveats, the experiments' tables."""

    verdicts: list[str]
    summary: list[claims.Claim]
    charts: list[tuple[str, Any]]
    runs: list[context.Run]
    caveats: list[context.Caveat]
    found: Sequence[experiments.Experiment]


def _story(
    frames: Mapping[str, pl.DataFrame],
    manifests: Mapping[str, Mapping[str, Any]],
    notes: Sequence[str],
    found: Sequence[experiments.Experiment],
) -> Story:
    """The answer first: an experiment's verdict (a match's win rate and margin with their intervals over pairs,
    a tournament's ratings and Nash mixture, a sweep's best point) stands for ``game_results``' claims of its
    setting, which would restate it with other intervals, or pool a tournament's opponents or a sweep's grid
    and confirmation games."""
    replaced = {(e.variant, e.players) for e in found}
    every = [c for c in claims.all_claims(frames) if not (c.game_level and (c.variant, c.players) in replaced)]
    headline: list[tuple[str, Any]] = []
    for experiment in found:
        drawn = experiments.chart(experiment)
        if drawn is not None and drawn[0] not in dict(headline):
            headline.append(drawn)
    if not headline and GAMES in frames and frames[GAMES].height:
        games = experiment_charts.games_chart(frames[GAMES])
        if games is not None:
            headline.append((experiment_charts.GAMES_CHART, games))
    return Story(
        verdicts=[experiments.verdict(e) for e in found],
        summary=claims.summary_claims(every),
        charts=headline,
        runs=context.methods(manifests),
        caveats=context.caveats(frames, manifests),
        found=found,
    )


def _row_count(spec: Mapping[str, Any]) -> int:
    """How many data rows a chart spec carries (inline values or top-level datasets)."""
    datasets = spec.get("datasets") or {}
    count = sum(len(rows) for rows in datasets.values())
    values = (spec.get("data") or {}).get("values")
    return count + (len(values) if isinstance(values, list) else 0)


_PARTS = {
    "every": (
        "Every variant",
        "Each statistic below is drawn for every variant in the datasets: a panel per variant (or per "
        "variant and stake, or measure), wrapped into rows when they do not fit one, a colour per player count.",
    ),
    "specific": (
        "Variant by variant",
        "What only some variants play (void hands: every variant): shown only when the datasets hold it.",
    ),
    "players": (
        "Who played",
        "Who sat at the table: each named player, or each bot, where a setting has two or more to compare.",
    ),
}


def _part_of(name: str) -> str:
    """The part of the page a statistic belongs to (its registry entry's ``part``), ``other`` for a frame that
    is not a statistic's."""
    statistic = statistics.STATISTICS.get(name)
    return statistic.part if statistic else "other"


def _part(part: str) -> str:
    """The heading that opens a part of the page."""
    heading, text = _PARTS[part]
    return f'<div class="part"><h2 class="part-title">{escape(heading)}</h2><p>{escape(text)}</p></div>'


_COMPARISON_CELLS = (
    ("Trick 1 taker won the hand", "first_trick_win_rate", "first_trick_hands", "first_trick"),
    ("Raises that were bluffs", "bluff_rate", "raises", "bluff"),
    ("Bluffs folded to", "bluff_success_rate", "bluffs", "bluff_success"),
    ("Folds facing a raise", "fold_rate", "facing", "fold"),
    ("Eldest won the hand", "mano_win_rate", "decided_hands", "mano"),
    ("Tied tricks", "tie_rate", "tricks", "tie"),
)


def _comparison_table(frame: pl.DataFrame) -> str:
    """The variants side by side: one row per variant and player count, each rate with its interval and
    the counts it rests on."""
    head = "".join(
        f"<th>{escape(h)}</th>"
        for h in ("Variant", "Players", "Games", "Hands a game", *(c[0] for c in _COMPARISON_CELLS))
    )
    body = []
    for row in frame.iter_rows(named=True):
        cells = [f"<td>{escape(row['variant'])}</td>", f'<td class="num">{escape(row["players"])}</td>']
        cells.append(f'<td class="num">{fmt_int(row["games"])}</td>')
        mean = row["mean_hands_per_game"]
        cells.append(f'<td class="num">{"n/a" if is_missing(mean) else f"{mean:.1f}"}</td>')
        for _, rate, total, prefix in _COMPARISON_CELLS:
            value, n = row[rate], row[total]
            if is_missing(value) or not n:
                cells.append('<td class="null">\u2013</td>')
                continue
            k = round(value * n)
            interval = interval_label(row[f"{prefix}_ci_low"], row[f"{prefix}_ci_high"])
            extra = ""
            if rate == "mano_win_rate" and not is_missing(row["mano_edge"]):
                extra = f" ({fmt_pp(row['mano_edge'])})"
            cells.append(
                f'<td class="num">{escape(fmt_pct(value) + extra)}<br><small>{escape(interval)} \u00b7 '
                f"{escape(count_label(k, n))}</small></td>"
            )
        body.append("<tr>" + "".join(cells) + "</tr>")
    return (
        f'<div class="table-wrap comparison"><table><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
        '<p class="files">Each cell: the rate, its 95% interval and count/sample size; the eldest\'s edge over '
        "an even share in percentage points (pp).</p>"
    )


FOLDED_CHARTS: frozenset[str] = frozenset(
    {"strength_curve", "raise_rates", "fold_rates", "bluff_success", "tie_frequency", "envit", "trut", "french",
     "void_hands"}
)  # fmt: skip
"""The statistics whose charts break a figure down by decile, stake, trick or measure, policy by policy (each a
page or more of panels), or count what only the rules decide (ties, void hands): their sections show their
heading and definition and fold the chart (open it to read it), which keeps the page as it opens short enough
to read (issue 24: a third of its former height). The comparison's table carries their headline figures."""


def _section(name: str, frame: pl.DataFrame, has_chart: bool, caveat: str | None = None) -> str:
    """A statistic's section: its definition, ``caveat`` (what makes its comparison not like for like),
    the comparison's table, the chart and its files, the frame's table."""
    parts = [
        f'<section id="stat-{escape(name)}">',
        f"<h2>{escape(section_title(name) or name.replace('_', ' ').capitalize())}</h2>",
    ]
    parts.append(f'<p class="definition">{escape(section_definition(name))}</p>')
    if caveat:
        parts.append(f'<p class="note caveat">{escape(caveat)}</p>')
    if name == COMPARISON and frame.height:
        parts.append(_comparison_table(frame))
    if has_chart:
        chart = (
            f'<div class="chart" id="chart-{escape(name)}" data-chart="{escape(name)}"></div>'
            f'<p class="files">Chart files: <a href="charts/{escape(name)}.png">PNG</a> \u00b7 '
            f'<a href="charts/{escape(name)}.svg">SVG</a></p>'
        )
        if name in FOLDED_CHARTS:
            chart = f'<details class="fold"><summary>The chart, in detail</summary>{chart}</details>'
        parts.append(chart)
    elif name in CHARTS:
        parts.append('<p class="empty">Nothing to draw: no group in these datasets has a sample.</p>')
    if frame.height:
        parts.append(
            f"<details><summary>The numbers ({frame.height:,} rows, statistic "
            f"<code>{escape(name)}</code>)</summary>{table(frame, name)}</details>"
        )
    else:
        parts.append(f'<p class="empty">The statistic <code>{escape(name)}</code> returned no rows.</p>')
    parts.append("</section>")
    return "\n".join(parts)


def shown_and_folded(sentences: Sequence[str]) -> tuple[list[str], list[str]]:
    """The sentences shown at once and those folded under "N more", each part in the summary's order.

    Shown: every plain sentence (a setting's one sentence, or a comparison across settings) and, of the
    ``Finding``s about one setting (one per stake), the one on the largest sample, so that each variant
    and player count is seen and the thin stakes are the ones folded. Folded: the other ``Finding``s, and
    the ``Detail``s (a table restated setting by setting) unless nothing else would be shown."""
    best: dict[tuple[str, int], Finding] = {}
    for sentence in sentences:
        if isinstance(sentence, Finding):
            held = best.get(sentence.setting)
            if held is None or sentence.sample > held.sample:
                best[sentence.setting] = sentence
    chosen = {id(s) for s in best.values()}
    shown = [s for s in sentences if id(s) in chosen or not isinstance(s, (Finding, Detail))]
    if not shown:
        return list(sentences), []
    kept = {id(s) for s in shown}
    return shown, [s for s in sentences if id(s) not in kept]


def _findings(findings: Mapping[str, list[str]]) -> str:
    items = []
    for name, sentences in findings.items():
        if not sentences:
            continue
        shown, folded = shown_and_folded(sentences)
        more = (
            f"<details><summary>{len(folded)} more</summary><ul>"
            + "".join(f"<li>{escape(s)}</li>" for s in folded)
            + "</ul></details>"
            if folded
            else ""
        )
        items.append(
            f'<h3><a href="#stat-{escape(name)}">{escape(section_title(name) or name)}</a></h3><ul>'
            + "".join(f"<li>{escape(s)}</li>" for s in shown)
            + "</ul>"
            + more
        )
    if not items:
        return "<p>No findings: the datasets hold no hands these statistics can measure.</p>"
    return "\n".join(items)


def _manifests(manifests: Mapping[str, Mapping[str, Any]]) -> str:
    """Each manifest as written, less its list of parts (``store.PARTS``: a line per file, for ``truc
    verify``, not for a reader of the page)."""
    if not manifests:
        return "<p>No manifest was given.</p>"
    return "\n".join(
        f"<details><summary>{escape(label)}</summary>"
        f"<pre>{escape(json.dumps(_without_parts(manifest), indent=2, sort_keys=True, default=str))}</pre></details>"
        for label, manifest in manifests.items()
    )


def _without_parts(manifest: Mapping[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in manifest.items() if key != store.PARTS}


def _json_for_script(value: object) -> str:
    """JSON safe inside a ``<script>`` element: no ``<``, ``>`` or ``&`` can close or confuse it."""
    text = json.dumps(value, allow_nan=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _script_safe(js: str) -> str:
    """Keep an inlined library from ending its ``<script>`` element early (``<\\/`` means ``</`` in JS)."""
    return js.replace("</script", "<\\/script").replace("</SCRIPT", "<\\/SCRIPT")


_CSP = (
    "default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval'; style-src 'unsafe-inline'; "
    "img-src data: blob:; font-src data:"
)

_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0 auto;
       max-width: 1280px; padding: 1rem 2rem 4rem; color: #222; line-height: 1.45; }
h1 { margin-bottom: 0.2rem; }
h2 { border-bottom: 1px solid #ddd; padding-bottom: 0.2rem; margin-top: 2.5rem; }
h3 { margin: 1rem 0 0.3rem; font-size: 1rem; }
.meta, .definition, .files { color: #555; }
.note { border-left: 4px solid #e45756; padding: 0.3rem 0.8rem; background: #fdf1f0; }
.definition { font-style: italic; }
.chart, .chart.vega-embed { display: block; max-width: 100%; overflow-x: auto; margin: 0.5rem 0; min-height: 2rem; }
#summary li { margin: 0.15rem 0; }
#terms dt { font-weight: bold; margin-top: 0.4rem; }
#terms dd { margin: 0 0 0 1.5rem; }
.table-wrap { overflow: auto; max-height: 26rem; border: 1px solid #e5e5e5; }
table { border-collapse: collapse; font-size: 0.8rem; font-variant-numeric: tabular-nums; }
th, td { padding: 0.15rem 0.5rem; border-bottom: 1px solid #eee; white-space: nowrap; }
th { position: sticky; top: 0; background: #f6f6f6; text-align: left; white-space: normal; vertical-align: bottom;
     min-width: 4.5rem; max-width: 9rem; }
td.num { text-align: right; }
td.null { color: #aaa; text-align: center; }
pre { background: #f6f6f6; padding: 0.8rem; overflow: auto; font-size: 0.8rem; }
nav ul { padding-left: 1.2rem; }
.empty { color: #8a5a00; }
.part { margin-top: 3rem; }
.part-title { border-bottom: 3px solid #bbb; }
.comparison td small { color: #666; }
.table-wrap.comparison { max-height: none; }
.comparison th { white-space: normal; vertical-align: bottom; }
.comparison td { white-space: normal; min-width: 6.5rem; }
.verdict { font-size: 1.15rem; font-weight: 600; border-left: 4px solid #4c78a8; padding: 0.3rem 0.8rem;
           background: #eef3f9; }
ol.findings li { margin: 0.25rem 0; }
ol.findings li.design { color: #555; }
.table-wrap.methods { max-height: none; }
.methods td { white-space: normal; vertical-align: top; font-size: 0.75rem; }
.methods th { max-width: none; }
p.shared { margin: 0.2rem 0; color: #555; }
#results nav ul { columns: 3; font-size: 0.9rem; }
"""

_DRAW_JS = """
(function () {
  "use strict";
  document.querySelectorAll("[data-chart]").forEach(function (el) {
    var name = el.getAttribute("data-chart");
    var spec = JSON.parse(document.getElementById("spec-" + name).textContent);
    vegaEmbed(el, spec, { renderer: "svg", actions: false })
      .then(function () { el.setAttribute("data-rendered", "true"); })
      .catch(function (err) {
        el.setAttribute("data-rendered", "error");
        el.textContent = "This chart could not be drawn: " + err;
        console.error("chart " + name + ": " + err);
      });
  });
})();
"""


def _settings_seen(frames: Mapping[str, pl.DataFrame]) -> dict[str, set[int]]:
    """The player counts of each variant the frames cover."""
    seen: dict[str, set[int]] = {}
    for frame in frames.values():
        if isinstance(frame, pl.DataFrame) and {"variant", "players"} <= set(frame.columns):
            for variant, players in frame.select("variant", "players").unique().rows():
                if variant is not None:
                    seen.setdefault(variant, set()).update([players] if players is not None else [])
    return seen


def _settings(seen: Mapping[str, set[int]]) -> str:
    """``"catalan (2, 4 players), trut (3 players)"``."""
    return ", ".join(
        f"{variant} ({', '.join(str(p) for p in sorted(counts))} players)" if counts else variant
        for variant, counts in sorted(seen.items())
    )


def _terms(variants: Iterable[str]) -> str:
    """The game terms of the variants shown, folded under the page's heading (``glossary.TERMS``)."""
    terms = terms_for(variants)
    if not terms:
        return ""
    return (
        '<details id="terms"><summary>Terms used on this page</summary><dl>'
        + "".join(f"<dt>{escape(t.term)}</dt><dd>{escape(t.definition)}</dd>" for t in terms)
        + "</dl></details>"
    )


MAX_NAMED_DATASETS = 3
"""Above this many datasets the page's heading counts them under their common folder (Methods names each)."""


def _claim_items(story: Story) -> str:
    """The summary's findings, numbered, each with its number, interval and sample size; a bot's design said."""
    if not story.summary:
        return (
            "<p>No finding clears its interval: with these samples, no figure the summary ranks (games won, the "
            "eldest's share, the first trick, hand strength) is told apart from its null.</p>"
        )
    items = []
    for claim in story.summary:
        kind = ' class="design"' if claim.design else ""
        items.append(f"<li{kind}>{escape(claim.sentence)}</li>")
    return f'<ol class="findings">{"".join(items)}</ol>'


def _headline_charts(story: Story) -> str:
    return "".join(
        f'<div class="chart" id="chart-{escape(name)}" data-chart="{escape(name)}"></div>'
        f'<p class="files">Chart files: <a href="charts/{escape(name)}.png">PNG</a> \u00b7 '
        f'<a href="charts/{escape(name)}.svg">SVG</a></p>'
        for name, _ in story.charts
    )


def _methods(story: Story) -> str:
    """One row per dataset: what was played, by whom, how seeded and paired (``context.methods_table``)."""
    if not story.runs:
        return "<p>No manifest was given.</p>"
    head, rows, shared = context.methods_table(story.runs)
    body = "".join(
        "<tr>"
        + "".join(
            f"<td>{'<br>'.join(escape(line) for line in cell) if isinstance(cell, list) else escape(cell)}</td>"
            for cell in row
        )
        + "</tr>"
        for row in rows
    )
    return (
        f'<div class="table-wrap methods"><table><thead><tr>{"".join(f"<th>{escape(h)}</th>" for h in head)}'
        f"</tr></thead><tbody>{body}</tbody></table></div>"
        + "".join(f'<p class="shared">{escape(line)}.</p>' for line in shared)
        + f"<p>{escape(article.METHODS_TEXT)}</p>"
    )


def _experiment_results(story: Story, frames: Mapping[str, pl.DataFrame]) -> str:
    """Each experiment's main table, its pairing, and for a match each policy's choices side by side."""
    parts = []
    for experiment in story.found:
        head, rows = experiments.table_rows(experiment)
        body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in rows)
        parts.append(
            f'<section id="experiment-{escape(experiment.kind)}"><h3>The {escape(experiment.kind)}: '
            f"<code>{escape(experiment.label)}</code></h3>"
            f'<div class="table-wrap"><table><thead><tr>{"".join(f"<th>{escape(h)}</th>" for h in head)}</tr></thead>'
            f"<tbody>{body}</tbody></table></div>"
        )
        pairs = experiments.pairs_text(experiment)
        if pairs:
            parts.append(f"<p>{escape(pairs)}</p>")
        if experiment.kind == experiments.MATCH and PLAYERS in frames:
            parts.append(_choices(frames[PLAYERS], experiment.variant, experiment.players))
        parts.append("</section>")
    return "\n".join(parts)


_CHOICES = (
    ("hands", "Hands played", lambda v: fmt_int(v)),
    ("win_rate", "Decided hands won", lambda v: fmt_pct(v)),
    ("mean_net_points", "Net points a hand", lambda v: "n/a" if is_missing(v) else f"{v:+.2f}"),
    ("raises_per_hand", "Raises a hand", lambda v: "n/a" if is_missing(v) else f"{v:.2f}"),
    ("fold_rate", "Folds facing a raise", lambda v: fmt_pct(v)),
)


def _choices(players: pl.DataFrame, variant: str, count: int) -> str:
    """Each policy's choices side by side, a column per policy (never pooled across bots)."""
    rows = conform(PLAYERS, players).filter((pl.col("variant") == variant) & (pl.col("players") == count)).to_dicts()
    if not rows:
        return ""
    head = "<th>Per policy</th>" + "".join(f"<th>{escape(r['player'])}</th>" for r in rows)
    body = "".join(
        f"<tr><td>{escape(label)}</td>"
        + "".join(f'<td class="num">{escape(fmt(r[column]))}</td>' for r in rows)
        + "</tr>"
        for column, label, fmt in _CHOICES
    )
    return (
        "<p>Each policy's choices, side by side (statistics per policy, never pooled across bots):</p>"
        f'<div class="table-wrap"><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'
    )


def _caveats(story: Story, notes: Sequence[str]) -> str:
    items = [f'<li class="caveat-{escape(c.kind)}">{escape(c.text)}</li>' for c in story.caveats]
    notes_html = "".join(f'<p class="note">Note: {escape(note)}.</p>' for note in notes)
    if not items and not notes_html:
        return "<p>None of the report's checks applies to these datasets.</p>"
    return (f"<ul>{''.join(items)}</ul>" if items else "") + notes_html


def _page(
    *,
    title: str,
    settings: Mapping[str, set[int]],
    notes: Sequence[str],
    manifests: Mapping[str, Mapping[str, Any]],
    findings: Mapping[str, list[str]],
    sections: Sequence[str],
    specs: Mapping[str, dict[str, Any]],
    story: Story,
    experiment_html: str = "",
    bundle: str,
) -> str:
    datasets = ", ".join(f"<code>{escape(label)}</code>" for label in manifests) or "none"
    if len(manifests) > MAX_NAMED_DATASETS and context.common_folder(list(manifests)):
        datasets = f"{len(manifests)} under <code>{escape(context.common_folder(list(manifests)))}</code>"
    toc = "".join(f'<li><a href="#stat-{escape(n)}">{escape(section_title(n) or n)}</a></li>' for n in findings)
    spec_tags = "\n".join(
        f'<script type="application/json" id="spec-{escape(name)}">{_json_for_script(spec)}</script>'
        for name, spec in specs.items()
    )
    verdicts = "".join(f'<p class="verdict">{escape(v)}</p>' for v in story.verdicts)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{escape(_CSP)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
{_GENERATOR}{escape(__version__)}">
<title>{escape(title)}</title>
<style>{_CSS}</style>
<script>{_script_safe(bundle)}</script>
</head>
<body>
<header>
<h1>{escape(title)}</h1>
<p class="meta">Datasets: {datasets}. Variants: {escape(_settings(settings) or "none")}. Built by truc-lab
{escape(__version__)}.</p>
</header>
<section id="summary">
<h2>Summary</h2>
{verdicts}
{_claim_items(story)}
{_headline_charts(story)}
<p class="files">{len(story.caveats) + len(notes)} caveat(s) below: <a href="#caveats">Caveats</a>. A write-up of
this page in Markdown, for a blog or a paper: <a href="{article.ARTICLE}">{article.ARTICLE}</a>.</p>
</section>
<section id="methods">
<h2>Methods</h2>
{_methods(story)}
{_terms(settings)}
</section>
<section id="results">
<h2>Results</h2>
<nav><ul><li><a href="#findings">Findings</a></li>{toc}<li><a href="#manifests">Run manifests</a></li></ul></nav>
{experiment_html}
{chr(10).join(sections)}
</section>
<section id="caveats">
<h2>Caveats</h2>
{_caveats(story, notes)}
</section>
<section id="appendix">
<h2>Appendix</h2>
<details id="findings"><summary>Every finding, statistic by statistic</summary>
{_findings(findings)}
</details>
<details id="manifests"><summary>Run manifests</summary>
{_manifests(manifests)}
</details>
</section>
{spec_tags}
<script>{_DRAW_JS}</script>
</body>
</html>
"""
