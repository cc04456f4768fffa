"""One pure chart function per statistic: a polars DataFrame in, an Altair chart out, no I/O.

Every chart follows one grammar so the page reads as a whole:

- the rate is a bar (or a point, joined by a line for ordered deciles), its 95% interval a rule from
  ``ci_low`` to ``ci_high`` (black over bars, the point's colour otherwise), and its sample size a label
  above the interval (``412/1,380``, as poker trackers show it) and in the tooltip;
- colour (and the side-by-side offset) is the player count, panels are variants, so datasets with
  several variants and player counts sit side by side; a third dimension (the stake, the decision)
  makes a panel per variant and value; only panels with data are drawn, wrapped to the page's width
  (``_WRAP_WIDTH``), each with its own x axis, and a group under ``MIN_SAMPLE`` is not drawn;
- the y axis runs over round values spanning every interval (from 0 for bars), with room left above
  for the labels; labels stand upright when, level, they would not fit their marks' spacing in a panel of
  520 px, and a label that would still touch another in its panel is left out (``_fitting_labels``: the
  busiest Trut panels, four player counts side by side), its count staying in the tooltip.

The functions accept any frame matching ``frames.CONTRACT`` (see ``frames.conform``), including empty
frames and groups with ``n = 0`` and null rates, which are simply not drawn.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import altair as alt
import polars as pl

from pipeline.report.frames import (
    NEVER_VOID,
    NO_CHOICE_SPECIALS,
    NO_POLICY,
    PLAYERS,
    POLICY_NAME,
    common_stake_label,
    conform,
    count_label,
    even_share,
    fmt_int,
    interval_label,
    players_label,
    several_policies,
    with_policy_names,
)
from pipeline.statistics import STATISTICS

ChartBuilder = Callable[[pl.DataFrame], alt.FacetChart]

_HEIGHT = 220
MIN_SAMPLE = 30
"""The least sample (hands, chances, calls...) a group needs to be drawn: below it a rate's interval spans most
of the axis (0/1 drew a whisker from 0% to 98%) and a panel of such groups says nothing. The tables keep
every group; each chart's subtitle states the minimum."""
_FONT = 10  # the count labels' font size, level
_FONT_SMALL = 9  # upright
_CHAR_PX = 6.2  # width of a label character at font size 10
_CHAR_PX_SMALL = 5.2  # at font size 9
_LABEL_GAP = 4  # px between an interval's top and its label
_TEXT_COLOR = "#333333"
_INTERVAL_COLOR = "#222222"
PLAYER_COLOURS: dict[int, str] = {2: "#4c78a8", 3: "#f58518", 4: "#e45756", 6: "#72b7b2"}
"""Each player count's colour (Vega's own first four), the same in every chart whichever counts it shows."""
OTHER_COLOUR = "#9d755d"


def _with_common(frame: pl.DataFrame) -> pl.DataFrame:
    """Add the ``players_label`` and text columns (``sample`` unless given, ``interval``) every chart shows."""
    columns = [
        pl.col("players").map_elements(players_label, return_dtype=pl.String).alias("players_label"),
        pl.struct("ci_low", "ci_high")
        .map_elements(lambda s: interval_label(s["ci_low"], s["ci_high"]), return_dtype=pl.String)
        .alias("interval"),
    ]
    if "sample" not in frame.columns:
        columns.append(
            pl.struct("count", "total")
            .map_elements(lambda s: count_label(s["count"], s["total"]), return_dtype=pl.String)
            .alias("sample")
        )
    return frame.with_columns(columns)


def _rows_by_policy(
    data: pl.DataFrame, row: str | None, row_title: str, row_sort: Sequence[str] | None
) -> tuple[pl.DataFrame, str, str, list[str]]:
    """``data`` whose rows hold several policies (``POLICY_NAME``), with a facet row per policy (and per ``row``
    when there is one), named ``policy · row``: two bots' rates are never drawn as one."""
    policies = sorted(data.get_column(POLICY_NAME).unique().to_list(), key=lambda name: (name == NO_POLICY, name))
    if row is None:
        return data.with_columns(pl.col(POLICY_NAME).alias(_POLICY_ROW)), _POLICY_ROW, "Policy", policies
    rows = list(row_sort) if row_sort is not None else sorted(data.get_column(row).drop_nulls().unique().to_list())
    combined = pl.concat_str(pl.col(POLICY_NAME), pl.lit(_POLICY_JOIN), pl.col(row)).alias(_POLICY_ROW)
    order = [f"{policy}{_POLICY_JOIN}{r}" for policy in policies for r in rows]
    return data.with_columns(combined), _POLICY_ROW, f"Policy{_POLICY_JOIN}{row_title}", order


_POLICY_ROW = "policy_row"
_POLICY_JOIN = " \u00b7 "


def _rate_axis(
    lows: Sequence[float | None],
    highs: Sequence[float | None],
    headroom: float,
    zero: bool = True,
    include: Sequence[float] = (),
) -> tuple[alt.Scale, alt.Axis]:
    """A y scale over round values spanning every interval, plus free space on top for the labels.

    With ``zero`` the scale starts at 0 (bars need it); otherwise it zooms on the intervals and
    ``include`` (the reference lines).
    """
    extra = list(include)
    top = max([h for h in highs if h is not None] + extra, default=1.0)
    bottom = 0.0 if zero else min([v for v in lows if v is not None] + extra, default=0.0)
    top = min(max(top, bottom + 0.01), 1.0)
    step = next(s for s in (0.01, 0.02, 0.05, 0.1, 0.2, 0.25) if (top - bottom) / s <= 6)
    axis_bottom = max(0.0, math.floor(round(bottom / step, 9)) * step)
    axis_top = min(1.0, math.ceil(round(top / step, 9)) * step)
    first, last = round(axis_bottom / step), round(axis_top / step)
    ticks = [round(i * step, 4) for i in range(first, last + 1)]
    highest = max([h for h in highs if h is not None], default=axis_top)  # the labels stand above it, not the axis
    domain_top = max(axis_top, axis_bottom + (min(highest, axis_top) - axis_bottom) / (1.0 - headroom))
    return (
        alt.Scale(domain=[round(axis_bottom, 4), round(domain_top, 4)], nice=False, zero=zero),
        alt.Axis(format=".0%", values=ticks, grid=True),
    )


def _rate_chart(
    frame: pl.DataFrame,
    *,
    x: str,
    x_title: str,
    x_sort: Sequence[str] | None = None,
    x_type: Literal["nominal", "ordinal"] = "nominal",
    row: str | None = None,
    row_title: str = "",
    row_sort: Sequence[str] | None = None,
    y_title: str,
    title: str,
    mark: Literal["bar", "point"] = "bar",
    offset: bool = True,
    line_filter: str | None = None,
    line_order: str | None = None,
    even_share_note: str | None = None,
    extra_tooltip: Sequence[alt.Tooltip] = (),
    column: str | None = "variant",
    independent_x: bool = False,
) -> alt.FacetChart:
    """Draw ``rate`` with its interval and sample label, coloured by players, one column per variant.

    ``frame`` holds ``variant``, ``players``, the ``x`` (and ``row``) field, ``rate``, ``ci_low``,
    ``ci_high``, ``count`` and ``total`` (or a ready ``sample`` label); rows with a null rate are left
    out of the drawing. ``offset`` places the player counts side by side within an x category;
    ``mark="point"`` draws points joined by a line over the rows passing ``line_filter`` (a Vega
    expression), in the order of the numeric field ``line_order``. ``even_share_note`` (", no advantage")
    draws each panel's even shares as dashed rules and names them in the subtitle (``_even_share_layer``).
    ``column``
    is the variant (None: no variant panels, for charts whose x is the variant); ``independent_x`` gives
    every row its own x categories (rows measuring different things). The panels (a variant, a row, or a
    variant and a row: ``_panels``) are those with data, wrapped into rows that fit the page
    (``_WRAP_WIDTH``), each with its own x axis; groups under ``MIN_SAMPLE`` are not drawn.
    """
    data = _with_common(frame.filter(pl.col("rate").is_not_null() & (pl.col("total") >= MIN_SAMPLE)))
    if several_policies(data):
        data, row, row_title, row_sort = _rows_by_policy(data, row, row_title, row_sort)
    if even_share_note is not None:
        data = data.with_columns(pl.col("players").map_elements(even_share, return_dtype=pl.Float64).alias(_EVEN_SHARE))
    shares = sorted(data.get_column(_EVEN_SHARE).drop_nulls().unique().to_list()) if even_share_note is not None else []
    x_key = pl.col(x)
    if x_sort is not None:
        positions = {value: i for i, value in enumerate(x_sort)}
        x_key = x_key.replace_strict(positions, default=len(positions), return_dtype=pl.Int64)
    data = data.sort([pl.col("variant"), pl.col("players"), *([pl.col(row)] if row else []), x_key], nulls_last=True)

    counts = sorted(data.get_column("players").drop_nulls().unique().to_list())
    players = [players_label(p) for p in counts]
    variants = sorted(data.get_column("variant").drop_nulls().unique().to_list())
    x_values = list(x_sort) if x_sort is not None else data.get_column(x).unique(maintain_order=True).to_list()
    facet = row if row is not None else column  # with independent x, each facet draws its own categories
    if independent_x and facet is not None and data.height:
        widest: int = max(data.group_by(facet).agg(pl.col(x).n_unique()).get_column(x).to_list())
        x_values = x_values[:widest]
    side_by_side = max(1, len(players)) if offset else 1
    bars = max(1, len(x_values)) * side_by_side
    label_chars = max((len(s) for s in data.get_column("sample").to_list()), default=5)
    label_px = label_chars * _CHAR_PX + 8
    level_width = _width_for_spacing(len(x_values), side_by_side, label_px)
    rotate = level_width > 520
    if rotate:
        width = int(min(640, max(200, bars * 18)))
        headroom = min(0.4, (label_chars * _CHAR_PX_SMALL + 10) / _HEIGHT)
    else:
        width = max(200, level_width)
        headroom = 22 / _HEIGHT
    scale, axis = _rate_axis(
        data.get_column("ci_low").to_list(),
        data.get_column("ci_high").to_list(),
        headroom,
        zero=mark == "bar",
        include=shares,
    )

    x_field = f"{x}:{'N' if x_type == 'nominal' else 'O'}"
    x_order: list[str] | str = list(x_sort) if x_sort is not None else "ascending"
    x_labels = data.get_column(x).unique().to_list()
    panel_field, panels = _panels(data, row, column, variants, row_sort)
    if rotate and width > _WRAP_WIDTH // 2 - _PANEL_GAP:
        width = _WRAP_WIDTH // 2 - _PANEL_GAP  # upright count labels: narrower bars, two panels a row
    slant, footprint = _x_layout(x_labels, len(x_values), width, independent_x)
    per_row = max(1, min(len(panels), _WRAP_WIDTH // footprint))
    if footprint > _WRAP_WIDTH:  # one panel wider than the page: narrower, its labels slanted
        width = max(200, width - (footprint - _WRAP_WIDTH))
        slant, footprint = _x_layout(x_labels, len(x_values), width, independent_x)
    width = min(_MAX_PANEL, max(width, (_WRAP_WIDTH - per_row * footprint) // per_row + width))  # fill the row
    slant, footprint = _x_layout(x_labels, len(x_values), width, independent_x)
    x_enc = alt.X(
        x_field,
        title=_axis_title(x_title, int(width / _AXIS_CHAR_PX)),  # under its own panel: no wider than it
        sort=x_order,
        scale=alt.Scale(type="band", paddingInner=_X_PADDING, paddingOuter=_X_PADDING),
        axis=alt.Axis(
            labelAngle=-25 if slant else 0,
            labelAlign="right" if slant else "center",
            labelLimit=_x_label_limit(x_labels) if slant else 160,
        ),
    )
    colours = [PLAYER_COLOURS.get(count, OTHER_COLOUR) for count in counts]  # one colour per count, every chart
    color = alt.Color(
        "players_label:N",
        title="Players",
        sort=players,
        scale=alt.Scale(domain=players, range=colours),
        legend=alt.Legend(orient="top"),  # not beside the panels: the page's width is theirs
    )
    tooltip = [
        alt.Tooltip("variant:N", title="Variant"),
        alt.Tooltip("players_label:N", title="Players"),
        *([alt.Tooltip(f"{row}:N", title=row_title)] if row else []),
        alt.Tooltip(x_field, title=x_title),
        alt.Tooltip("rate:Q", title=y_title, format=".1%"),
        alt.Tooltip("interval:N", title="95% interval"),
        alt.Tooltip("sample:N", title="Sample size"),
        *extra_tooltip,
    ]
    base = alt.Chart().encode(x=x_enc, color=color, tooltip=tooltip)
    if offset:
        base = base.encode(xOffset=alt.XOffset("players_label:N", sort=players, title="Players"))

    layers: list[alt.Chart] = []
    y_rate = alt.Y("rate:Q", title=_axis_title(y_title), scale=scale, axis=axis)
    if mark == "bar":
        layers.append(base.mark_bar(opacity=0.85).encode(y=y_rate))
    else:
        if line_filter is not None:
            line = base.transform_filter(line_filter).mark_line(strokeWidth=1.5, opacity=0.7)
            if line_order is not None:
                line = line.encode(order=alt.Order(f"{line_order}:Q"))
            layers.append(line.encode(y=y_rate))
        layers.append(base.mark_point(filled=True, size=55).encode(y=y_rate))
    rule = base.mark_rule(strokeWidth=1.5).encode(y="ci_low:Q", y2="ci_high:Q")
    if mark == "bar":
        rule = rule.encode(color=alt.value(_INTERVAL_COLOR))
    layers.append(rule)
    if rotate:
        text = base.mark_text(angle=270, align="left", baseline="middle", dx=_LABEL_GAP, fontSize=_FONT_SMALL)
    else:
        text = base.mark_text(align="center", baseline="bottom", dy=-_LABEL_GAP, fontSize=_FONT)
    layers.append(
        text.transform_filter(f"datum.{_LABELLED}").encode(y="ci_high:Q", text="sample:N", color=alt.value(_TEXT_COLOR))
    )
    span = even_share_note is not None and _one_count_per_category(data, x)
    if even_share_note is not None:
        layers.append(_even_share_layer(x_field, x_order, span))

    if row is not None and column is not None:  # a panel per variant and row that has data, titled by both
        data = data.with_columns(pl.concat_str(pl.col(column), pl.lit(_PANEL_JOIN), pl.col(row)).alias(_PANEL))
    cells = [panel_field] if panel_field else []
    layout = _LabelLayout(
        width=width,
        domain=(scale.domain[0], scale.domain[1]),
        rotate=rotate,
        x_order=list(x_sort) if x_sort is not None else sorted(x_labels, key=str),
        players=players if offset else [],
        own_x=independent_x,
    )
    data = data.with_columns(pl.Series(_LABELLED, _fitting_labels(data, x, cells, layout), dtype=pl.Boolean))
    thinned = not data.filter(pl.col("ci_high").is_not_null()).get_column(_LABELLED).all()
    # InlineData, not Data: Altair moves it to the spec's top-level datasets as it is, where it walked every
    # row's every value as a schema object (a third of the CPU time of the report's specs); the same drawing
    rows = alt.InlineData(values=data.to_dicts())
    chart = alt.layer(*layers, data=rows).properties(width=width, height=_HEIGHT)
    subtitle = (
        ("Bars show the rate, black lines" if mark == "bar" else "Points show the rate, lines")
        + " its 95% interval, labels count/sample size"
        + (" where they fit (every one in the tooltip)" if thinned else "")
        + ". Colour: player count."
        + f" Groups of fewer than {MIN_SAMPLE} are not drawn (the table gives them)."
        + (
            _even_share_phrase(shares, even_share_note, f"{mark}s" if span else None)
            if even_share_note is not None
            else ""
        )
    )
    titles = {column: "Variant", row: row_title} if row is not None else {column: "Variant"}
    faceted = chart.facet(
        facet=alt.Facet(
            f"{panel_field or _PANEL}:N",
            title=_PANEL_JOIN.join(titles[key] for key in (column, row) if key is not None),
            sort=panels,
            header=alt.Header(  # a panel's title, a line for each of its parts: cut as one, it lost the last
                labelFontSize=11, labelLimit=width, labelExpr=f"split(datum.value, '{_PANEL_JOIN}')"
            ),
        ),
        columns=per_row,
    ).resolve_axis(x="independent")  # every panel its own x labels, not only the bottom row's
    if independent_x:
        faceted = faceted.resolve_scale(x="independent", xOffset="independent")
    chars = max(_SUBTITLE_MIN_CHARS, int(min(len(panels), per_row) * footprint / _SUBTITLE_CHAR_PX))
    return faceted.properties(title=alt.Title(title, subtitle=subtitle_lines(subtitle, chars), anchor="start"))


_SUBTITLE_CHARS = 130
"""Characters of a subtitle line, at most: at Vega's 11 px, about ``_WRAP_WIDTH``."""
_SUBTITLE_MIN_CHARS = 50
_SUBTITLE_CHAR_PX = 7.2  # px a character of a subtitle takes, on average, with room to spare


def subtitle_lines(text: str, chars: int = _SUBTITLE_CHARS) -> list[str]:
    """A chart's subtitle as lines of at most ``chars`` characters (the chart's width), which Vega draws one
    under the other: drawn as one line, a long subtitle ran past the chart's right edge and was cut off by
    its box."""
    return textwrap.wrap(text, min(chars, _SUBTITLE_CHARS))


_PANEL = "panel"
_PANEL_JOIN = " \u00b7 "
_WRAP_WIDTH = 820
"""px: a chart's panels fill rows this wide, its legend above them: with the y axis, under 900 px, which a page
900 px wide holds (a window 1,000 px wide less the page's margins); each chart is laid out for it, since
Vega-Lite sizes a faceted chart by its panels, never by its container."""
_MAX_PANEL = 600  # px: a panel filling a row alone is not stretched wider
_PANEL_GAP = 60  # px: a panel's axis and the space between panels
_X_PADDING = 0.2
"""The x band scale's inner and outer padding, a fraction of a category's step (Vega-Lite's own with
side-by-side marks), set on every chart so that the label layout knows where each mark stands."""
_LABELLED = "labelled"
"""The column that says whether a row's count label is drawn (``_fitting_labels``)."""


def _width_for_spacing(categories: int, side_by_side: int, spacing: float) -> int:
    """The panel width that sets neighbouring marks ``spacing`` px apart: marks side by side within an x
    category share its band (a step less the padding); one mark per category stands a step from the next."""
    steps = max(1, categories) + _X_PADDING  # the band scale spans n - inner + 2 outer paddings of a step
    step = spacing * side_by_side / (1 - _X_PADDING) if side_by_side > 1 else spacing
    return math.ceil(step * steps)


@dataclass(frozen=True)
class _LabelLayout:
    """What places a chart's count labels: the panel width, the y domain (the panel is ``_HEIGHT`` tall),
    upright or level labels, the x categories in order and the player counts side by side in each (none
    without offset); ``own_x``: each cell lays out only its own categories and player counts."""

    width: int
    domain: tuple[float, float]
    rotate: bool
    x_order: Sequence[object]
    players: Sequence[str]
    own_x: bool


_Box = tuple[float, float, float, float]
"""A label's extent in a panel, in px: left, top, right, bottom."""


def _fitting_labels(data: pl.DataFrame, x: str, cells: Sequence[str], layout: _LabelLayout) -> list[bool]:
    """Which rows' count labels to draw: in each panel (the rows sharing ``cells``), every label that
    overlaps no label already kept, taken in the order of ``_turn`` then left to right. The busiest panels
    (Trut's four player counts side by side by decile: upright labels wider than the marks' spacing) drop
    some, every player count keeping about one label in two; a sparse panel keeps all. A row without an
    interval (a placeholder) has no label."""
    keep = [False] * data.height
    rows = data.with_row_index("_row").select("_row", x, "players_label", "ci_high", "sample", *cells)
    for _, cell in rows.group_by(cells, maintain_order=True) if cells else [((), rows)]:
        scope = cell if layout.own_x else rows
        categories = _present(layout.x_order, scope.get_column(x))
        players = _present(layout.players, scope.get_column("players_label"))
        boxes = sorted(
            (
                _turn(
                    categories.index(r[x]), players.index(r["players_label"]) if r["players_label"] in players else 0
                ),
                _label_box(layout, _mark_centre(layout.width, categories, r[x], players, r["players_label"]), r),
                r["_row"],
            )
            for r in cell.filter(pl.col("ci_high").is_not_null()).iter_rows(named=True)
        )
        kept: list[_Box] = []
        for _, box, index in boxes:
            if not any(_overlap(box, other) for other in kept):
                kept.append(box)
                keep[index] = True
    return keep


def _turn(category: int, slot: int) -> int:
    """When a label is placed: the marks of alternate slots (a checkerboard of x categories by player
    counts) first, so that where neighbours cannot both be labelled each player count keeps labels on
    alternate categories rather than one count keeping all and its neighbour none."""
    return (category + slot) % 2


def _present(order: Sequence[object], values: pl.Series) -> list[object]:
    """The values of ``order`` found in ``values``, in that order, then any others: a scale's domain, which
    holds only the values drawn."""
    found = set(values.drop_nulls().to_list())
    return [value for value in order if value in found] + sorted(found - set(order), key=str)


def _mark_centre(
    width: int, categories: Sequence[object], category: object, players: Sequence[object], player: object
) -> float:
    """Where a mark stands across its panel: its x ``category``'s band, padded as ``_X_PADDING`` says, and
    within it the slot of its player count (with ``players`` side by side), as Vega lays out the scales."""
    step = width / (max(1, len(categories)) + _X_PADDING)
    slot = step * (1 - _X_PADDING) / max(1, len(players))
    within = players.index(player) if player in players else 0
    return step * _X_PADDING + categories.index(category) * step + within * slot + slot / 2


def _label_box(layout: _LabelLayout, centre: float, row: Mapping[str, Any]) -> _Box:
    """Where Vega draws a row's count label: above its interval's top, centred on its mark, upright or
    level (``_rate_chart``'s text marks)."""
    low, top = layout.domain
    bottom = _HEIGHT * (1 - (row["ci_high"] - low) / (top - low)) - _LABEL_GAP
    if layout.rotate:
        return (
            centre - _FONT_SMALL / 2,
            bottom - len(row["sample"]) * _CHAR_PX_SMALL,
            centre + _FONT_SMALL / 2,
            bottom,
        )
    half = len(row["sample"]) * _CHAR_PX / 2
    return (centre - half, bottom - _FONT, centre + half, bottom)


def _overlap(a: _Box, b: _Box) -> bool:
    """Whether two label boxes come closer than a pixel."""
    return a[0] < b[2] + 1 and b[0] < a[2] + 1 and a[1] < b[3] + 1 and b[1] < a[3] + 1


def _x_layout(labels: Sequence[object], categories: int, width: int, independent_x: bool) -> tuple[bool, int]:
    """Whether the x labels slant (always with their own x per facet; else when, side by side, they would
    be wider than their share of the panel), and the panel's footprint in a row of panels: its width, its
    axis and gap, and what a long slanted label reaches beyond them."""
    longest = max((len(str(label)) for label in labels), default=0)
    slant = independent_x or longest * _CHAR_PX + 6 > width / max(1, categories)
    return slant, width + _PANEL_GAP + (max(0, _x_label_limit(labels) - 220) if slant else 0)


def _panels(
    data: pl.DataFrame, row: str | None, column: str | None, columns: Sequence[str], row_sort: Sequence[str] | None
) -> tuple[str | None, list[str]]:
    """The field a chart is faceted by and its panels in order, each with data: the variant (``column``), the
    ``row`` when there is no variant facet, or both (``variant · row``, the panel's title, in variant then row
    order). A grid of rows by variant columns drew a panel, empty but for its axes, in every cell without
    data (a stake one variant never reaches); wrapped panels leave them out."""
    if row is None:
        return column, list(columns) if column else []
    values = data.get_column(row).unique().to_list()
    order = [r for r in (row_sort or []) if r in values] + sorted(r for r in values if r not in (row_sort or []))
    if column is None:
        return row, order
    present = set(data.select(column, row).unique().iter_rows())
    return _PANEL, [f"{c}{_PANEL_JOIN}{r}" for c in columns for r in order if (c, r) in present]


_AXIS_TITLE_CHARS = 34
"""Characters of a line of a y axis title: about the panel's height (``_HEIGHT``) at Vega's 11 px bold. A
longer title, drawn as one line, ran into the titles of the panels above and below."""


_AXIS_CHAR_PX = 7.5
"""px a character of an axis title takes (11 px bold), on average, with room to spare."""


def _axis_title(text: str, chars: int = _AXIS_TITLE_CHARS) -> str | list[str]:
    """An axis title as lines that fit beside (y) or under (x) its panel: lines of at most ``chars``."""
    lines = textwrap.wrap(text, max(chars, 20))
    return lines[0] if len(lines) == 1 else lines


def _x_label_limit(labels: Sequence[object]) -> int:
    """Room for the longest slanted x label (a bot's description runs to about 50 characters), within
    bounds: 220 to 420 pixels."""
    longest = max((len(str(label)) for label in labels), default=0)
    return int(min(420, max(220, longest * _CHAR_PX + 10)))


_EVEN_SHARE = "even_share"
"""The column of a drawn row's even share (``frames.even_share`` of its player count)."""


def _one_count_per_category(data: pl.DataFrame, x: str) -> bool:
    """Whether every x category holds one player count only (the eldest's advantage, whose x is the
    player count), so that an even share can be drawn over its own category rather than the panel."""
    if data.is_empty():
        return False
    return bool(data.group_by(x).agg(pl.col("players").n_unique()).get_column("players").max() == 1)


def _even_share_layer(x_field: str, x_order: list[str] | str, span: bool) -> alt.Chart:
    """Dashed rules at the even shares of the rows drawn in each panel, from the data faceted with it: a
    panel of 2- and 4-player games shows 1/2 only, one holding 3-player Trut (three sides) 1/3 as well.
    With ``span`` each rule covers only the x category of its player count (1/3 over the 3-player
    point). Cells holding only a placeholder (null rate) get none."""
    field = x_field.rsplit(":", 1)[0]
    rule = (
        alt.Chart()
        .transform_filter("isValid(datum.rate)")
        .transform_aggregate(rows="count()", groupby=[_EVEN_SHARE, *([field] if span else [])])
        .mark_rule(color="#888888", strokeDash=[5, 4])
        .encode(y=alt.Y(f"{_EVEN_SHARE}:Q"))
    )
    if span:
        rule = rule.encode(x=alt.X(x_field, sort=x_order, bandPosition=0), x2=alt.X2(field, bandPosition=1))
    return rule


def _even_share_phrase(shares: Sequence[float], note: str, over: str | None) -> str:
    """The subtitle's words for the dashed even shares, ``" Dashed line: 50%, no advantage."``, and where
    3-player games (each plays alone) are drawn, where their 1/3 is: over their own ``over`` (``"points"``),
    or in their panels only."""
    if not shares:
        return ""
    third = ", ".join(f"{s:.0%}" for s in shares if s != 0.5)
    if not third:
        return f" Dashed line: 50%{note}."
    where = f"drawn over their {over} only" if over else "drawn only in the panels that have them"
    if 0.5 not in shares:
        return f" Dashed line: {third}{note} for 3 players, each alone."
    return f" Dashed lines: 50%{note}; {third} for 3 players, each alone ({where})."


def _variants(frame: pl.DataFrame) -> list[str]:
    return sorted(frame.get_column("variant").drop_nulls().unique().to_list())


def _stake_row(stake: pl.Expr, prefix: str, variants: Sequence[str] = ()) -> pl.Expr:
    """``"Raise to 2 (truc)"``: the stake named as every variant drawn names it (else its number)."""
    return stake.map_elements(lambda s: f"{prefix} {common_stake_label(s, variants)}", return_dtype=pl.String)


def first_trick_value(frame: pl.DataFrame) -> alt.FacetChart:
    """Chance to win the hand after winning, and after losing, the first trick."""
    df = conform("first_trick_value", frame)
    keys = [pl.col("variant"), pl.col("players"), pl.col("hands").alias("total"), pl.col("hands").alias("count")]
    won = df.select(
        *keys,
        pl.lit("Won the first trick").alias("outcome"),
        pl.col("p_win_won_first").alias("rate"),
        pl.col("ci_low_won_first").alias("ci_low"),
        pl.col("ci_high_won_first").alias("ci_high"),
        pl.col("mean_points_won_first").alias("mean_points"),
    )
    lost = df.select(
        *keys,
        pl.lit("Lost the first trick").alias("outcome"),
        pl.col("p_win_lost_first").alias("rate"),
        pl.col("ci_low_lost_first").alias("ci_low"),
        pl.col("ci_high_lost_first").alias("ci_high"),
        pl.col("mean_points_lost_first").alias("mean_points"),
    )
    long = pl.concat([won, lost]).with_columns(
        pl.col("total").map_elements(lambda n: f"n={fmt_int(n)}", return_dtype=pl.String).alias("sample")
    )
    return _rate_chart(
        long,
        x="outcome",
        x_title="First trick",
        x_sort=["Won the first trick", "Lost the first trick"],
        y_title="Chance to win the hand",
        title="Winning the first trick and winning the hand",
        extra_tooltip=[alt.Tooltip("mean_points:Q", title="Mean points scored in the hand", format=".2f")],
    )


def bluff_success(frame: pl.DataFrame) -> alt.FacetChart:
    """How often raises were bluffs, how often bluffs made the other side fold, and called bluffs won."""
    df = with_policy_names(conform("bluff_success", frame))
    keys = [pl.col("variant"), pl.col("players"), pl.col(POLICY_NAME), pl.col("stake")]
    extra = [pl.col("net_points_per_bluff")]
    parts = [
        ("Raises that were bluffs", "bluffs", "raises", "bluff_rate", "bluff_ci_low", "bluff_ci_high"),
        ("Bluffs that made them fold", "folded", "bluffs", "success_rate", "success_ci_low", "success_ci_high"),
        (
            "Called bluffs that still won",
            "called_won",
            "called",
            "called_won_rate",
            "called_won_ci_low",
            "called_won_ci_high",
        ),
    ]
    long = pl.concat(
        [
            df.select(
                *keys,
                pl.lit(label).alias("measure"),
                pl.col(count).alias("count"),
                pl.col(total).alias("total"),
                pl.col(rate).alias("rate"),
                pl.col(low).alias("ci_low"),
                pl.col(high).alias("ci_high"),
                *extra,
            )
            for label, count, total, rate, low, high in parts
        ]
    ).with_columns(_stake_row(pl.col("stake"), "Raise to", _variants(df)).alias("situation"))
    return _rate_chart(
        long,
        x="measure",
        x_title="Measure",
        x_sort=[p[0] for p in parts],
        row="situation",
        row_title="Raise",
        row_sort=_stake_order(long, "Raise to"),
        y_title="Rate",
        title="Bluffs: how often, and how often they work",
        extra_tooltip=[alt.Tooltip("net_points_per_bluff:Q", title="Net points per bluff", format="+.2f")],
    )


def _stake_order(frame: pl.DataFrame, prefix: str) -> list[str]:
    stakes = sorted(frame.get_column("stake").drop_nulls().unique().to_list())
    variants = _variants(frame)
    return [f"{prefix} {common_stake_label(s, variants)}" for s in stakes]


def _decile_label(col: str, all_label: str) -> pl.Expr:
    return pl.col(col).cast(pl.String).fill_null(all_label)


DECILES = [str(d) for d in range(1, 11)]


def fold_rates(frame: pl.DataFrame) -> alt.FacetChart:
    """Fold rate when facing a raise, by the stake proposed and the answerer's hand-strength decile."""
    df = with_policy_names(conform("fold_rates", frame))
    long = df.select(
        "variant",
        "players",
        POLICY_NAME,
        "stake",
        "decile",
        _decile_label("decile", "All").alias("decile_label"),
        pl.col("folds").alias("count"),
        pl.col("facing").alias("total"),
        pl.col("fold_rate").alias("rate"),
        "ci_low",
        "ci_high",
    ).with_columns(_stake_row(pl.col("stake"), "Facing a raise to", _variants(df)).alias("situation"))
    return _rate_chart(
        long,
        x="decile_label",
        x_title="Hand-strength decile of the answering seat (1 = weakest, All = every decile)",
        x_sort=[*DECILES, "All"],
        x_type="ordinal",
        row="situation",
        row_title="Situation",
        row_sort=_stake_order(long, "Facing a raise to"),
        y_title="Fold rate",
        title="How often a raise is refused, by hand strength",
        mark="point",
        line_filter="datum.decile_label != 'All'",
        line_order="decile",
    )


def mano_advantage(frame: pl.DataFrame) -> alt.FacetChart:
    """How often the eldest hand's (mà's) team wins the hand, against the 50% of no advantage."""
    df = conform("mano_advantage", frame)
    long = df.select(
        "variant",
        "players",
        pl.col("players").map_elements(players_label, return_dtype=pl.String).alias("seat_count"),
        pl.col("eldest_wins").alias("count"),
        pl.col("hands").alias("total"),
        pl.col("win_rate").alias("rate"),
        "ci_low",
        "ci_high",
        "mean_points_eldest",
        "mean_points_other",
        "points_diff",
    )
    order = [players_label(p) for p in sorted(long.get_column("players").drop_nulls().unique().to_list())]
    return _rate_chart(
        long,
        x="seat_count",
        x_title="Player count",
        x_sort=order,
        y_title="Hands won by the eldest's side",
        title="The eldest hand's advantage",
        mark="point",
        offset=False,
        even_share_note=", no advantage",
        extra_tooltip=[
            alt.Tooltip("mean_points_eldest:Q", title="Mean points, eldest's side", format=".2f"),
            alt.Tooltip("mean_points_other:Q", title="Mean points, another side", format=".2f"),
            alt.Tooltip("points_diff:Q", title="Difference in points per hand", format="+.2f"),
        ],
    )


def order_players(frame: pl.DataFrame) -> list[int]:
    """The player counts of a frame, in order."""
    return sorted(frame.get_column("players").drop_nulls().unique().to_list())


def stake_distribution(frame: pl.DataFrame) -> alt.FacetChart:
    """The share of hands that ended at each stake."""
    df = conform("stake_distribution", frame)
    variants = _variants(df)
    totals = df.group_by("variant", "players").agg(pl.col("hands").sum().alias("total"))
    long = (
        df.join(totals, on=["variant", "players"], how="left", nulls_equal=True)
        .select(
            "variant",
            "players",
            pl.col("stake")
            .map_elements(lambda v: common_stake_label(v, variants), return_dtype=pl.String)
            .alias("stake_label"),
            "stake",
            pl.col("hands").alias("count"),
            "total",
            pl.col("share").alias("rate"),
            "ci_low",
            "ci_high",
            "mean_points",
            "mean_points_per_hand",
        )
        .sort("stake")
    )
    order = [common_stake_label(s, variants) for s in sorted(long.get_column("stake").drop_nulls().unique().to_list())]
    return _rate_chart(
        long,
        x="stake_label",
        x_title="Stake when the hand ended",
        x_sort=order,
        y_title="Share of hands",
        title="The stake hands ended at",
        extra_tooltip=[
            alt.Tooltip("mean_points:Q", title="Mean points scored at this stake", format=".2f"),
            alt.Tooltip("mean_points_per_hand:Q", title="Mean points per hand, all stakes", format=".2f"),
        ],
    )


TIE_MEASURES = ["Trick 1 tied", "Trick 2 tied", "Trick 3 tied", "Hand decided by a tie rule"]


def _tie_label(measure: str | None, trick_no: int | None) -> str:
    if measure == "hand_by_tie_rule":
        return TIE_MEASURES[3]
    if measure == "trick_tied" and trick_no is not None:
        return f"Trick {trick_no} tied"
    return f"{measure} {trick_no if trick_no is not None else ''}".strip()


def tie_frequency(frame: pl.DataFrame) -> alt.FacetChart:
    """How often each trick is tied, and how often a tie rule decides the hand."""
    df = conform("tie_frequency", frame)
    long = df.select(
        "variant",
        "players",
        pl.struct("measure", "trick_no")
        .map_elements(lambda s: _tie_label(s["measure"], s["trick_no"]), return_dtype=pl.String)
        .alias("measure_label"),
        "count",
        pl.col("n").alias("total"),
        "rate",
        "ci_low",
        "ci_high",
    )
    present = long.get_column("measure_label").unique().to_list()
    order = [m for m in TIE_MEASURES if m in present] + sorted(m for m in present if m not in TIE_MEASURES)
    return _rate_chart(
        long,
        x="measure_label",
        x_title="Event",
        x_sort=order,
        y_title="Share of tricks played (tie rule: of hands)",
        title="Tied tricks and hands decided by a tie rule",
    )


def strength_curve(frame: pl.DataFrame) -> alt.FacetChart:
    """Chance that a seat's team wins the hand, by the seat's hand-strength decile."""
    df = with_policy_names(conform("strength_curve", frame))
    long = df.select(
        "variant",
        "players",
        POLICY_NAME,
        "decile",
        pl.col("decile").cast(pl.String).alias("decile_label"),
        pl.col("wins").alias("count"),
        pl.col("n").alias("total"),
        pl.col("p_win").alias("rate"),
        "ci_low",
        "ci_high",
        "mean_net_points",
    )
    return _rate_chart(
        long,
        x="decile_label",
        x_title="Hand-strength decile of the seat (1 = weakest tenth, 10 = strongest)",
        x_sort=DECILES,
        x_type="ordinal",
        y_title="Chance that the seat's side wins the hand",
        title="Hand strength and winning the hand",
        mark="point",
        line_filter="true",
        line_order="decile",
        even_share_note=", an even chance",
        extra_tooltip=[alt.Tooltip("mean_net_points:Q", title="Mean net points per hand", format="+.2f")],
    )


DECISIONS = {"raise": "Own move", "accept_and_raise": "Answering a raise"}
TRICK_ORDER = ["Before play", "Trick 1", "Trick 2", "Trick 3"]


def _situation(decision: str | None, stake: int | None, variants: Sequence[str] = ()) -> str:
    """``("raise", 1)`` -> ``"Own move, stake 1 (no raise)"``; the stake is the one in force."""
    return f"{DECISIONS.get(decision or '', str(decision))}, stake {common_stake_label(stake, variants)}"


def raise_rates(frame: pl.DataFrame) -> alt.FacetChart:
    """How often a seat that could raise did so, by decision, the stake in force and the trick."""
    df = with_policy_names(conform("raise_rates", frame))
    variants = _variants(df)
    long = df.select(
        "variant",
        "players",
        POLICY_NAME,
        "decision",
        "stake",
        pl.struct("decision", "stake")
        .map_elements(lambda s: _situation(s["decision"], s["stake"], variants), return_dtype=pl.String)
        .alias("situation"),
        pl.col("trick_no")
        .map_elements(lambda t: f"Trick {t}", return_dtype=pl.String)
        .fill_null(TRICK_ORDER[0])
        .alias("trick_label"),
        "count",
        pl.col("chances").alias("total"),
        "rate",
        "ci_low",
        "ci_high",
    )
    situations = (
        long.sort(
            pl.col("decision").replace_strict({"raise": 0, "accept_and_raise": 1}, default=2, return_dtype=pl.Int8),
            "stake",
            nulls_last=True,
        )
        .get_column("situation")
        .unique(maintain_order=True)
        .to_list()
    )
    present = long.get_column("trick_label").unique().to_list()
    order = [t for t in TRICK_ORDER if t in present] + sorted(t for t in present if t not in TRICK_ORDER)
    return _rate_chart(
        long,
        x="trick_label",
        x_title="When (the trick in progress)",
        x_sort=order,
        row="situation",
        row_title="Decision and stake in force",
        row_sort=situations,
        y_title="Share of chances taken",
        title="How often players raise when they can",
    )


COMPARISON_MEASURES = [
    ("Hand won by the side that took trick 1", "first_trick_win_rate", "first_trick_hands", "first_trick"),
    ("Raises that were bluffs", "bluff_rate", "raises", "bluff"),
    ("Bluffs the other side folded to", "bluff_success_rate", "bluffs", "bluff_success"),
    ("Answers to a raise that folded", "fold_rate", "facing", "fold"),
    ("Hands won by the eldest's side", "mano_win_rate", "decided_hands", "mano"),
    ("Tricks tied", "tie_rate", "tricks", "tie"),
]
"""The rates ``variant_comparison`` sets side by side: label, rate column, sample size, interval prefix."""


def variant_comparison(frame: pl.DataFrame) -> alt.FacetChart:
    """The headline rates of every variant and player count side by side: one row per measure, the
    variants along x, the player counts in colour."""
    df = conform("variant_comparison", frame)
    long = pl.concat(
        [
            df.select(
                "variant",
                "players",
                pl.lit(label).alias("measure"),
                (pl.col(rate) * pl.col(total)).round(0).cast(pl.Int64).alias("count"),
                pl.col(total).alias("total"),
                pl.col(rate).alias("rate"),
                pl.col(f"{prefix}_ci_low").alias("ci_low"),
                pl.col(f"{prefix}_ci_high").alias("ci_high"),
                pl.col("mean_hands_per_game"),
            )
            for label, rate, total, prefix in COMPARISON_MEASURES
        ]
    )
    return _rate_chart(
        long,
        x="variant",
        x_title="Variant",
        x_sort=_variants(long),
        row="measure",
        row_title="Measure",
        row_sort=[m[0] for m in COMPARISON_MEASURES],
        y_title="Rate",
        title="The variants side by side",
        column=None,
        extra_tooltip=[alt.Tooltip("mean_hands_per_game:Q", title="Mean hands per game", format=".1f")],
    )


def _measure_chart(
    long: pl.DataFrame,
    *,
    rows: Sequence[str],
    levels: Sequence[str],
    title: str,
    x_title: str,
) -> alt.FacetChart:
    """A chart of several measures, one row each with its own x categories (``row``, ``level_label``)."""
    present = long.get_column("row").unique().to_list()
    level_present = long.get_column("level_label").unique().to_list()
    return _rate_chart(
        long,
        x="level_label",
        x_title=x_title,
        x_sort=[lv for lv in levels if lv in level_present] + sorted(lv for lv in level_present if lv not in levels),
        row="row",
        row_title="Measure",
        row_sort=[r for r in rows if r in present] + sorted(r for r in present if r not in rows),
        y_title="Rate",
        title=title,
        independent_x=True,
    )


ENVIT_ROWS = {
    "call": "Hands with an envit call",
    "accepted": "Calls accepted, by rung",
    "folded": "Calls folded to, by rung",
    "raised": "Calls raised, by rung",
    "caller_won": "Caller's side won the envit, by his value",
    "caller_won_accepted": "The same, envits accepted",
    "bluff": "Calls that were bluffs, by rung",
    "bluff_folded": "Bluffs folded to, by rung",
    "bluff_won": "Bluffs whose side won the envit, by rung",
}
ENVIT_LEVELS = ["All hands", "envit", "torne", "falta", "envit-falta", "0-19", "20-25", "26-28", "29-30", "31-33"]


def envit(frame: pl.DataFrame) -> alt.FacetChart:
    """The envit's rates (valencian): calls, answers by rung, the caller's wins by envit value, bluffs."""
    df = with_policy_names(conform("envit", frame).filter(pl.col("measure") != "stones"))
    long = df.select(
        "variant",
        "players",
        POLICY_NAME,
        pl.col("measure").replace_strict(ENVIT_ROWS, default=pl.col("measure"), return_dtype=pl.String).alias("row"),
        pl.col("level").fill_null("All hands").alias("level_label"),
        "count",
        pl.col("n").alias("total"),
        "rate",
        "ci_low",
        "ci_high",
    )
    return _measure_chart(
        long,
        rows=list(ENVIT_ROWS.values()),
        levels=ENVIT_LEVELS,
        title="The envit: calls, answers, wins and bluffs",
        x_title="Rung of the call, or the caller's envit value",
    )


TRUT_ROWS = {
    "trut": "Hands with a trut, where one is a choice",
    "fold_by_position": "Folds facing a trut, by answerer",
    "timing": "When truts were made",
    "timing 1": "When truts were made in trick 1",
    "timing 2": "When truts were made in trick 2",
    "timing 3": "When truts were made in trick 3",
    "fortial": "Fortial hands",
    "fortial_both": "Both sides au fortial",
    "trut_office": "Trut d'office hands",
    "chanson": "Trut d'office after la chanson",
    "chanter": "Trut d'office after chanter",
    "tenir": "À tenir hands",
    "sec": "Trut d'office redealt sec",
    "hold": "Holds ('à tenir')",
    "sing": "Sings (la chanson, chanter)",
    "chanson_cards": "Cards asked in la chanson",
}
TIMINGS = {
    "in_turn": "in turn",
    "out_before_card": "out of turn, before own card",
    "out_after_card": "out of turn, after own card",
    "unknown": "turn unknown",
    "call": "before play (a call)",
}
SPECIAL_LEVELS = {
    "truted": "truted or held",
    "passed": "passed (no play)",
    "folded": "folded",
    "decider_won": "won by the deciding side",
    "void": "void",
}


def _trut_label(measure: str | None, level: str | None, trick_no: int | None) -> str:
    if measure == "fold_by_position" and level is not None:
        return {"1": "1st answerer", "2": "2nd answerer", "3": "3rd answerer"}.get(level, f"answerer {level}")
    if measure == "timing":
        return TIMINGS.get(level or "", str(level))
    if level in SPECIAL_LEVELS and measure not in ("fold_by_position", "timing", "chanson_cards"):
        return SPECIAL_LEVELS[level]
    if measure == "chanson_cards":
        return f"{level} card{'s' if level != '1' else ''}"
    return "All hands" if measure == "trut" else "All choices"


def trut(frame: pl.DataFrame) -> alt.FacetChart:
    """The trut family's rates: truts, folds by answerer, timing trick by trick (the truts made in a call
    before play are all 'before play': the table shows them), fortial and trut d'office, holds, sings.
    Hands that open on no choice (``NO_CHOICE_SPECIALS``) show no "truted or held" bar."""
    df = with_policy_names(
        conform("trut", frame).filter(
            (pl.col("measure") != "timing") | pl.col("trick_no").is_not_null(),
            ~(pl.col("measure").is_in(list(NO_CHOICE_SPECIALS)) & (pl.col("level") == "truted")),
        )
    )
    measure = (
        pl.when(pl.col("measure") == "timing")
        .then(pl.format("timing {}", pl.col("trick_no")))
        .otherwise(pl.col("measure"))
    )
    long = df.select(
        "variant",
        "players",
        POLICY_NAME,
        measure.replace_strict(TRUT_ROWS, default=measure, return_dtype=pl.String).alias("row"),
        pl.struct("measure", "level", "trick_no")
        .map_elements(lambda s: _trut_label(s["measure"], s["level"], s["trick_no"]), return_dtype=pl.String)
        .alias("level_label"),
        "count",
        pl.col("n").alias("total"),
        "rate",
        "ci_low",
        "ci_high",
    )
    levels = [
        "All hands", "1st answerer", "2nd answerer", "3rd answerer", *TIMINGS.values(),
        *SPECIAL_LEVELS.values(), "All choices", "1 card", "2 cards", "3 cards",
    ]  # fmt: skip
    return _measure_chart(
        long,
        rows=list(TRUT_ROWS.values()),
        levels=levels,
        title="The trut: truts, folds, timing, the fortial and the trut d'office",
        x_title="Situation",
    )


FRENCH_ROWS = {
    "redeal": "Hands redealt",
    "redeal_refused": "Requests for new cards refused",
    "raise_size": "Raise sizes (above the stake raised)",
    "reste": "Raises to the reste",
    "reste_accepted": "Reste raises: answers",
    "reste_folded": "Reste raises: answers",
    "reste_raised": "Reste raises: answers",
    "reste_won": "Reste raises played on and won",
}
FRENCH_LEVELS = {
    "redeal": "All hands",
    "redeal_refused": "All requests",
    "reste": "All raises",
    "reste_accepted": "accepted",
    "reste_folded": "folded",
    "reste_raised": "raised back",
    "reste_won": "Played on",
}


def french(frame: pl.DataFrame) -> alt.FacetChart:
    """French Truc's rates: redeals, raise sizes, the reste and how it is answered."""
    df = with_policy_names(conform("french", frame))
    long = df.select(
        "variant",
        "players",
        POLICY_NAME,
        pl.col("measure").replace_strict(FRENCH_ROWS, default=pl.col("measure"), return_dtype=pl.String).alias("row"),
        pl.struct("measure", "size")
        .map_elements(
            lambda s: (
                f"+{s['size']}" if s["measure"] == "raise_size" else FRENCH_LEVELS.get(s["measure"], s["measure"])
            ),
            return_dtype=pl.String,
        )
        .alias("level_label"),
        "count",
        pl.col("n").alias("total"),
        "rate",
        "ci_low",
        "ci_high",
    )
    sizes = sorted(df.filter(pl.col("measure") == "raise_size").get_column("size").drop_nulls().unique().to_list())
    levels = ["All hands", "All requests", *[f"+{v}" for v in sizes], "All raises", "accepted", "folded",
              "raised back", "Played on"]  # fmt: skip
    return _measure_chart(
        long,
        rows=list(dict.fromkeys(FRENCH_ROWS.values())),
        levels=levels,
        title="French Truc: redeals, raise sizes and the reste",
        x_title="Situation",
    )


def void_hands(frame: pl.DataFrame) -> alt.FacetChart:
    """How often a hand is void (its tricks decide nothing), by variant and player count."""
    df = conform("void_hands", frame).filter(~pl.col("variant").is_in(list(NEVER_VOID)))  # no void hand to count
    long = df.select(
        "variant",
        "players",
        pl.col("players").map_elements(players_label, return_dtype=pl.String).alias("seat_count"),
        pl.col("void_hands").alias("count"),
        pl.col("hands").alias("total"),
        pl.col("void_rate").alias("rate"),
        "ci_low",
        "ci_high",
    )
    return _rate_chart(
        long,
        x="seat_count",
        x_title="Player count",
        x_sort=[players_label(p) for p in order_players(long)],
        y_title="Void hands",
        title="Void hands: the tricks decide nothing",
        offset=False,
    )


def player_results(frame: pl.DataFrame) -> alt.FacetChart:
    """How often each player or bot compared in a setting won its decided hands, once a hand per side it
    sat for (``compared_players`` keeps the settings with two or more and names their bots briefly),
    against an even share."""
    df = conform(PLAYERS, frame)
    long = df.select(
        "variant",
        "players",
        "player",
        pl.col("wins").alias("count"),
        pl.col("decided").alias("total"),
        pl.col("win_rate").alias("rate"),
        "ci_low",
        "ci_high",
        "mean_net_points",
        "raises_per_hand",
        "fold_rate",
    )
    return _rate_chart(
        long,
        x="player",
        x_title="Player or bot",
        y_title="Decided hands won",
        title="Players and bots: hands won",
        even_share_note=", an even share",
        extra_tooltip=[
            alt.Tooltip("mean_net_points:Q", title="Mean net points per hand", format="+.3f"),
            alt.Tooltip("raises_per_hand:Q", title="Raises per hand", format=".2f"),
            alt.Tooltip("fold_rate:Q", title="Fold rate facing a raise", format=".1%"),
        ],
        independent_x=True,
    )


CHARTS: dict[str, ChartBuilder] = {
    statistic.name: globals()[statistic.chart] for statistic in STATISTICS.values() if statistic.chart
}
"""The chart function of every statistic that has one, by its name: the function its registry entry names
(``pipeline.statistics``, ``Statistic.chart``), found here when this module is imported."""
