"""The report's chart functions (through ``to_dict()``) and its written findings, on hand-made frames."""

from __future__ import annotations

import json
from typing import Any

import polars as pl
import pytest
import vl_convert

from pipeline import stats
from pipeline.policies import parse_policy
from pipeline.report import charts, summary, tables
from pipeline.report.frames import (
    ALL_STATISTICS,
    CONTRACT,
    NEVER_VOID,
    PLAYERS,
    RANDOM_BOT,
    SPECIFIC,
    STATISTICS,
    common_stake_label,
    compared_players,
    conform,
    even_share,
    fmt_pct,
    interval_label,
    random_bot_shares,
    short_player_names,
    stake_label,
    unit_word,
    units_of,
)
from pipeline.report.glossary import terms_for
from pipeline.report.page import _json_for_script
from pipeline.variants import VARIANTS
from tests.report_samples import MULTI_SETTINGS, multi_variant_frames, sample_frames, wilson, with_french_stakes

SAMPLES = sample_frames()
MULTI = multi_variant_frames()


def chart_rows(spec: dict[str, Any]) -> list[dict[str, Any]]:
    """The data rows a chart spec carries."""
    rows: list[dict[str, Any]] = list((spec.get("data") or {}).get("values") or [])
    for values in (spec.get("datasets") or {}).values():
        rows.extend(values)
    return rows


def layers(spec: dict[str, Any]) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = spec["spec"]["layer"]
    return result


def mark_type(layer: dict[str, Any]) -> str:
    mark = layer["mark"]
    return str(mark if isinstance(mark, str) else mark["type"])


def layer_of(spec: dict[str, Any], kind: str) -> dict[str, Any]:
    found = [layer for layer in layers(spec) if mark_type(layer) == kind]
    assert found, f"no {kind} layer in {[mark_type(layer) for layer in layers(spec)]}"
    return found[0]


def variant_facet(spec: dict[str, Any]) -> dict[str, Any]:
    """A chart's facet by variant: its panels' field and the variants in their order (a panel per variant, or
    per variant and row, titled ``variant · row``)."""
    facet: dict[str, Any] = spec["facet"]
    if facet["field"] == "variant":
        return facet
    assert facet["field"] == "panel", facet
    return {"field": "variant", "sort": list(dict.fromkeys(p.split(" \u00b7 ")[0] for p in facet["sort"]))}


def facet_rows(spec: dict[str, Any]) -> list[str]:
    """The rows of a chart's panels (titled ``variant \u00b7 row``, or by the row alone), in their order."""
    facet: dict[str, Any] = spec["facet"]
    if facet["field"] == "panel":
        return list(dict.fromkeys(panel.split(" \u00b7 ", 1)[1] for panel in facet["sort"]))
    return list(facet["sort"])


def one_setting(name: str, **key: Any) -> pl.DataFrame:
    frame = SAMPLES[name]
    for column, value in key.items():
        frame = frame.filter(pl.col(column) == value)
    return frame


# --- every chart: the common grammar ------------------------------------------------------------------


@pytest.mark.parametrize("name", ALL_STATISTICS)
def test_every_statistic_has_a_chart_and_a_summary(name: str) -> None:
    assert name in charts.CHARTS
    assert name in summary.SUMMARIES


@pytest.mark.parametrize("name", ALL_STATISTICS)
def test_chart_draws_rate_interval_and_sample_size(name: str) -> None:
    spec = charts.CHARTS[name](MULTI[name] if name not in STATISTICS else SAMPLES[name]).to_dict()
    main = layers(spec)[0]
    assert main["encoding"]["y"]["field"] == "rate"
    assert main["encoding"]["y"]["type"] == "quantitative"
    assert main["encoding"]["y"]["axis"]["format"] == ".0%"

    rule = layer_of(spec, "rule")
    assert rule["encoding"]["y"]["field"] == "ci_low"
    assert rule["encoding"]["y2"]["field"] == "ci_high"

    text = layer_of(spec, "text")
    assert text["encoding"]["text"]["field"] == "sample"
    assert text["encoding"]["y"]["field"] == "ci_high"

    tooltip_fields = {t["field"] for t in main["encoding"]["tooltip"]}
    assert {"variant", "players_label", "rate", "interval", "sample"} <= tooltip_fields

    rows = chart_rows(spec)
    assert rows, "the sample frames have something to draw"
    for row in rows:
        assert 0.0 <= row["ci_low"] <= row["rate"] + 1e-12 <= row["ci_high"] + 2e-12 <= 1.0 + 2e-12
        assert row["sample"]
        assert row["interval"] == interval_label(row["ci_low"], row["ci_high"])


@pytest.mark.parametrize("name", STATISTICS)
def test_chart_sets_variants_side_by_side_and_colours_player_counts(name: str) -> None:
    spec = charts.CHARTS[name](SAMPLES[name]).to_dict()
    facet = variant_facet(spec)
    assert facet["field"] == "variant" and facet["sort"] == ["catalan", "valencian"]
    main = layers(spec)[0]["encoding"]
    assert main["color"]["field"] == "players_label"
    assert main["color"]["scale"]["domain"] == ["2 players", "4 players"]
    rows = chart_rows(spec)
    assert {(r["variant"], r["players_label"]) for r in rows} == {
        ("catalan", "2 players"),
        ("catalan", "4 players"),
        ("valencian", "2 players"),
        ("valencian", "4 players"),
    }
    assert spec["title"]["text"] and " ".join(spec["title"]["subtitle"])
    assert main["x"]["title"] and main["y"]["title"]


@pytest.mark.parametrize("name", STATISTICS)
def test_a_subtitle_is_drawn_in_lines_that_fit_beside_the_panels(name: str) -> None:
    """One line of 250 characters ran past the chart's edge, cut off by its box (the strength curve's)."""
    lines = charts.CHARTS[name](SAMPLES[name]).to_dict()["title"]["subtitle"]
    assert isinstance(lines, list) and lines and all(len(line) <= 130 for line in lines)
    assert charts.subtitle_lines("a " * 100) == ["a " * 64 + "a", "a " * 34 + "a"]  # whole words, none lost


@pytest.mark.parametrize("name", ALL_STATISTICS)
def test_chart_copes_with_empty_frames(name: str) -> None:
    for frame in (pl.DataFrame(), conform(name, pl.DataFrame())):
        spec = charts.CHARTS[name](frame).to_dict()
        assert chart_rows(spec) == []
        assert layer_of(spec, "rule")


@pytest.mark.parametrize("name", ALL_STATISTICS)
def test_chart_leaves_out_groups_without_a_sample(name: str) -> None:
    frame = conform(name, MULTI[name])
    rate_columns = [c for c in CONTRACT[name] if "rate" in c or c == "share" or c.startswith("p_win")]
    blank = frame.head(1).with_columns(
        pl.lit("empty-variant").alias("variant"), *[pl.lit(None, dtype=pl.Float64).alias(c) for c in rate_columns]
    )
    spec = charts.CHARTS[name](pl.concat([frame, blank], how="vertical_relaxed")).to_dict()
    assert all(r["variant"] != "empty-variant" for r in chart_rows(spec))


def test_nan_rates_never_reach_the_spec() -> None:
    frame = one_setting("mano_advantage", variant="catalan", players=2).with_columns(
        pl.lit(float("nan")).alias("win_rate")
    )
    assert chart_rows(charts.mano_advantage(frame).to_dict()) == []


# --- chart by chart ---------------------------------------------------------------------------------


def test_mano_advantage_labels_wins_over_hands_and_marks_fifty_percent() -> None:
    p, lo, hi = wilson(412, 1380)
    frame = pl.DataFrame(
        {
            "variant": ["catalan"],
            "players": [4],
            "hands": [1380],
            "eldest_wins": [412],
            "win_rate": [p],
            "ci_low": [lo],
            "ci_high": [hi],
            "mean_points_eldest": [1.2],
            "mean_points_other": [1.0],
            "points_diff": [0.2],
        }
    )
    spec = charts.mano_advantage(frame).to_dict()
    (row,) = chart_rows(spec)
    assert row["sample"] == "412/1,380"
    assert row["rate"] == pytest.approx(412 / 1380)
    assert row["even_share"] == 0.5
    assert [value for value, _, _ in dashed_rules(spec)["catalan"]] == [pytest.approx(0.5)]
    domain = layers(spec)[0]["encoding"]["y"]["scale"]["domain"]
    assert domain[0] <= lo and domain[1] >= 0.5


def test_first_trick_value_shows_both_outcomes_with_hand_count() -> None:
    spec = charts.first_trick_value(one_setting("first_trick_value", variant="catalan", players=4)).to_dict()
    rows = chart_rows(spec)
    assert [r["outcome"] for r in rows] == ["Won the first trick", "Lost the first trick"]
    hands = SAMPLES["first_trick_value"].filter(variant="catalan", players=4)["hands"][0]
    assert {r["sample"] for r in rows} == {f"n={hands:,}"}
    assert layers(spec)[0]["encoding"]["x"]["sort"] == ["Won the first trick", "Lost the first trick"]
    assert layers(spec)[0]["encoding"]["xOffset"]["field"] == "players_label"


def test_fold_rates_put_the_all_deciles_row_last_and_off_the_line() -> None:
    spec = charts.fold_rates(SAMPLES["fold_rates"]).to_dict()
    main = layers(spec)[0]
    assert mark_type(main) == "line"
    assert main["transform"] == [{"filter": "datum.decile_label != 'All'"}]
    assert main["encoding"]["order"]["field"] == "decile"
    assert main["encoding"]["x"]["sort"] == [*[str(d) for d in range(1, 11)], "All"]
    assert spec["facet"]["field"] == "panel"
    assert facet_rows(spec) == ["Facing a raise to 2 (truc)", "Facing a raise to 3 (retruc)"]
    overall = [r for r in chart_rows(spec) if r["decile_label"] == "All"]
    assert len(overall) == 8  # 4 settings x 2 stakes


def test_strength_curve_is_points_on_a_line_by_decile() -> None:
    spec = charts.strength_curve(SAMPLES["strength_curve"]).to_dict()
    kinds = [mark_type(layer) for layer in layers(spec)]
    assert kinds[:4] == ["line", "point", "rule", "text"]
    rows = chart_rows(spec)
    assert len(rows) == 40
    first = next(r for r in rows if r["variant"] == "catalan" and r["players"] == 2 and r["decile"] == 1)
    source = SAMPLES["strength_curve"].filter(variant="catalan", players=2, decile=1).row(0, named=True)
    assert first["sample"] == f"{source['wins']:,}/{source['n']:,}"


def test_bluff_success_has_three_measures_per_stake() -> None:
    spec = charts.bluff_success(SAMPLES["bluff_success"]).to_dict()
    assert layers(spec)[0]["encoding"]["x"]["sort"] == [
        "Raises that were bluffs",
        "Bluffs that made them fold",
        "Called bluffs that still won",
    ]
    assert facet_rows(spec) == ["Raise to 2 (truc)", "Raise to 3 (retruc)"]
    no_bluffs = [r for r in chart_rows(spec) if r["variant"] == "valencian" and r["players"] == 4 and r["stake"] == 3]
    assert [(r["measure"], r["sample"]) for r in no_bluffs] == [("Raises that were bluffs", "0/751")]


def test_bluff_and_void_hand_bars_are_labelled_with_their_own_count_over_their_own_sample() -> None:
    """The count labels of the bluff chart (bluffs of raises, bluffs folded to of bluffs, called bluffs
    that won of those called) and of the void-hands chart (void hands of hands), each from its own columns."""
    frame = SAMPLES["bluff_success"]
    spec = charts.bluff_success(frame).to_dict()
    assert layer_of(spec, "text")["encoding"]["text"]["field"] == "sample"
    labels = {
        (r["variant"], r["players"], r["stake"], r["measure"]): r["sample"]
        for r in chart_rows(spec)
        if r.get("rate") is not None
    }
    expected = {
        (row["variant"], row["players"], row["stake"], measure): f"{row[count]:,}/{row[total]:,}"
        for row in frame.iter_rows(named=True)
        for measure, count, total in (
            ("Raises that were bluffs", "bluffs", "raises"),
            ("Bluffs that made them fold", "folded", "bluffs"),
            ("Called bluffs that still won", "called_won", "called"),
        )
        if row[total] >= charts.MIN_SAMPLE  # a smaller group is not drawn: its interval would fill the panel
    }
    assert labels == expected
    assert any(0 < n < charts.MIN_SAMPLE for n in frame["called"])  # the sample holds one such group
    frame = MULTI["void_hands"]
    spec = charts.void_hands(frame).to_dict()
    assert layer_of(spec, "text")["encoding"]["text"]["field"] == "sample"
    expected_void = {
        (variant, players): f"{voids:,}/{hands:,}"
        for variant, players, voids, hands in frame.select("variant", "players", "void_hands", "hands").iter_rows()
        if variant not in NEVER_VOID and hands >= charts.MIN_SAMPLE
    }
    assert {(r["variant"], r["players"]): r["sample"] for r in chart_rows(spec)} == expected_void
    drawn = {panel: sorted(texts(cell, "mark")) for panel, cell in panels(spec).items()}  # as Vega draws them
    assert drawn == {
        variant: sorted(label for (v, _), label in expected_void.items() if v == variant)
        for variant in {v for v, _ in expected_void}
    }


def test_stake_distribution_labels_hands_over_the_setting_total() -> None:
    frame = pl.DataFrame(
        {
            "variant": ["catalan"] * 3,
            "players": [2] * 3,
            "stake": [1, 2, 3],
            "hands": [600, 300, 100],
            "share": [0.6, 0.3, 0.1],
            "ci_low": [0.57, 0.27, 0.08],
            "ci_high": [0.63, 0.33, 0.12],
            "mean_points": [1.0, 2.0, 3.0],
            "mean_points_per_hand": [0.6, 0.6, 0.3],
        }
    )
    spec = charts.stake_distribution(frame).to_dict()
    assert [r["sample"] for r in chart_rows(spec)] == ["600/1,000", "300/1,000", "100/1,000"]
    assert layers(spec)[0]["encoding"]["x"]["sort"] == ["1 (base)", "2 (truc)", "3 (retruc)"]


def test_a_player_count_has_one_colour_in_every_chart() -> None:
    # a chart of 2 and 4 players only (envit, french) drew 4 players in the colour that others give 3 players
    def void_frame(players: list[int]) -> pl.DataFrame:
        n = len(players)
        return pl.DataFrame(
            {
                "variant": ["trut"] * n,
                "players": players,
                "hands": [100] * n,
                "void_hands": [5] * n,
                "void_rate": [0.05] * n,
                "ci_low": [0.02] * n,
                "ci_high": [0.11] * n,
            }
        )

    def colours(players: list[int]) -> dict[str, str]:
        scale = layers(charts.void_hands(void_frame(players)).to_dict())[0]["encoding"]["color"]["scale"]
        return dict(zip(scale["domain"], scale["range"], strict=True))

    every = colours([2, 3, 4, 6])
    assert colours([2, 4]) == {label: every[label] for label in ("2 players", "4 players")}
    assert len(set(every.values())) == 4


def test_tie_frequency_names_each_measure() -> None:
    spec = charts.tie_frequency(SAMPLES["tie_frequency"]).to_dict()
    assert {r["measure_label"] for r in chart_rows(spec)} == {
        "Trick 1 tied",
        "Trick 2 tied",
        "Trick 3 tied",
        "Hand decided by a tie rule",
    }


def test_raise_rates_rows_are_decisions_and_null_trick_is_before_play() -> None:
    spec = charts.raise_rates(SAMPLES["raise_rates"]).to_dict()
    assert facet_rows(spec) == [
        "Own move, stake 1 (base)",
        "Own move, stake 2 (truc)",
        "Answering a raise, stake 1 (base)",
    ]
    assert layers(spec)[0]["encoding"]["x"]["sort"] == ["Before play", "Trick 1", "Trick 2", "Trick 3"]


def test_many_bars_turn_the_labels_upright() -> None:
    spec = charts.strength_curve(SAMPLES["strength_curve"]).to_dict()
    assert layer_of(spec, "text")["mark"]["angle"] == 270
    spec = charts.mano_advantage(SAMPLES["mano_advantage"]).to_dict()
    assert "angle" not in layer_of(spec, "text")["mark"]


def test_x_labels_slant_only_when_side_by_side_they_would_overlap() -> None:
    """The bluffs chart's three measure names are wider than their share of the panel; deciles are not."""
    spec = charts.bluff_success(SAMPLES["bluff_success"]).to_dict()
    axis = layers(spec)[0]["encoding"]["x"]["axis"]
    longest = max(len(label) for label in layers(spec)[0]["encoding"]["x"]["sort"])
    slanted = longest * 6.2 + 6 > spec["spec"]["width"] / 3
    assert slanted == (axis["labelAngle"] == -25) and (not slanted or axis["labelLimit"] >= 220)
    narrow = charts.bluff_success(SAMPLES["bluff_success"].filter(stake=2, variant="catalan")).to_dict()
    assert layers(narrow)[0]["encoding"]["x"]["axis"]["labelAngle"] == -25 or narrow["spec"]["width"] >= 3 * (
        longest * 6.2 + 6
    )
    axis = layers(charts.strength_curve(SAMPLES["strength_curve"]).to_dict())[0]["encoding"]["x"]["axis"]
    assert axis["labelAngle"] == 0 and axis["labelAlign"] == "center"


# --- frames helpers ---------------------------------------------------------------------------------


def test_conform_adds_missing_columns_and_turns_nan_to_null() -> None:
    frame = conform("tie_frequency", pl.DataFrame({"variant": ["x"], "rate": [float("nan")]}))
    assert frame.columns == list(CONTRACT["tie_frequency"])
    assert frame["rate"].to_list() == [None]


@pytest.mark.parametrize(
    ("rate", "text"), [(0.0, "0%"), (0.062, "6.2%"), (0.38, "38%"), (0.912, "91.2%"), (1.0, "100%"), (None, "n/a")]
)
def test_fmt_pct(rate: float | None, text: str) -> None:
    assert fmt_pct(rate) == text


# --- summaries ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ALL_STATISTICS)
def test_summaries_cope_with_empty_frames(name: str) -> None:
    assert summary.SUMMARIES[name](pl.DataFrame()) == []
    assert summary.SUMMARIES[name](conform(name, pl.DataFrame())) == []


@pytest.mark.parametrize("name", STATISTICS)
def test_summaries_give_a_sentence_per_setting(name: str) -> None:
    sentences = summary.SUMMARIES[name](SAMPLES[name])
    assert sentences
    for setting in ("2-player catalan", "4-player catalan", "2-player valencian", "4-player valencian"):
        assert any(setting in s for s in sentences), (setting, sentences)
    assert all(s.endswith(".") and "None" not in s and "nan" not in s for s in sentences)


def test_summarize_keeps_page_order() -> None:
    assert list(summary.summarize(SAMPLES)) == list(STATISTICS)
    assert list(summary.summarize(MULTI)) == list(ALL_STATISTICS)


def test_first_trick_value_sentence() -> None:
    frame = pl.DataFrame(
        {
            "variant": ["catalan"],
            "players": [4],
            "hands": [9120],
            "p_win_won_first": [0.81],
            "ci_low_won_first": [0.80],
            "ci_high_won_first": [0.82],
            "p_win_lost_first": [0.38],
            "ci_low_lost_first": [0.37],
            "ci_high_lost_first": [0.39],
            "value": [0.43],
            "mean_points_won_first": [1.52],
            "mean_points_lost_first": [0.61],
            "points_value": [0.91],
        }
    )
    assert summary.first_trick_value(frame) == [
        "Winning the first trick raises the chance to win the hand from 38% to 81% (4-player catalan, "
        "9,120 hands). A team scored 1.52 points a hand on average after winning it and 0.61 after losing "
        "it (+0.91)."
    ]
    nulls = frame.with_columns(pl.lit(None, dtype=pl.Float64).alias("p_win_won_first"))
    assert summary.first_trick_value(nulls) == []


def test_mano_advantage_sentences() -> None:
    frame = pl.DataFrame(
        {
            "variant": ["catalan", "catalan", "french"],
            "players": [2, 4, 2],
            "hands": [1380, 2000, 0],
            "eldest_wins": [760, 1000, 0],
            "win_rate": [760 / 1380, 0.5, None],
            "ci_low": [0.524, 0.478, None],
            "ci_high": [0.577, 0.522, None],
            "mean_points_eldest": [1.3, 1.0, None],
            "mean_points_other": [1.1, 1.05, None],
            "points_diff": [0.2, -0.05, None],
        }
    )
    assert summary.mano_advantage(frame) == [
        "In 2-player catalan, the eldest won 55% of hands (760/1,380; 95% interval "
        "52.4%\u201357.7%): an advantage. It scored 0.20 more points per hand than the other player.",
        "In 4-player catalan, the eldest hand's team won 50% of hands (1,000/2,000; 95% interval "
        "47.8%\u201352.2%): no clear advantage either way. It scored 0.05 fewer points per hand than the "
        "other team.",
    ]


def test_mano_advantage_says_a_disadvantage_and_an_even_score() -> None:
    """An interval wholly below the even share is a disadvantage (1/2 with 2 or 6 players, 1/3 with three
    sides); a difference of points that rounds to 0.00 is "as many", not "0.00 more"."""
    frame = pl.DataFrame(
        {
            "variant": ["catalan", "trut", "trut"],
            "players": [2, 3, 6],
            "hands": [1000, 900, 1000],
            "eldest_wins": [440, 200, 470],
            "win_rate": [0.44, 200 / 900, 0.47],
            "ci_low": [0.41, 0.196, 0.45],
            "ci_high": [0.47, 0.25, 0.49],
            "mean_points_eldest": [1.0, 1.0, 1.0],
            "mean_points_other": [1.0, 1.0, 1.0],
            "points_diff": [0.001, None, -0.3],
        }
    )
    assert summary.mano_advantage(frame) == [
        "In 2-player catalan, the eldest won 44% of hands (440/1,000; 95% interval 41.0%\u201347.0%): a "
        "disadvantage. It scored as many points per hand as the other player.",
        "In 3-player trut, the eldest won 22% of hands (200/900; 95% interval 19.6%\u201325.0%): a disadvantage "
        "against an even share of 1/3. It scored as many petits per hand as each other player on average.",
        "In 6-player trut, the eldest hand's team won 47% of hands (470/1,000; 95% interval 45.0%\u201349.0%): a "
        "disadvantage. It scored 0.30 fewer petits per hand than the other team.",
    ]
    assert (even_share(2), even_share(3), even_share(4), even_share(6)) == (0.5, 1 / 3, 0.5, 0.5)


def test_mano_advantage_reads_a_null_points_diff_as_the_eldest_s_mean_minus_the_other_s() -> None:
    """Without ``points_diff``, the difference is the eldest's side's mean points minus another side's, its
    sign saying more or fewer; with either mean missing too, the sentence says nothing of points."""
    frame = pl.DataFrame(
        {
            "variant": ["catalan", "catalan", "valencian", "valencian"],
            "players": [2, 4, 2, 4],
            "hands": [1000] * 4,
            "eldest_wins": [500] * 4,
            "win_rate": [0.5] * 4,
            "ci_low": [0.469] * 4,
            "ci_high": [0.531] * 4,
            "mean_points_eldest": [1.5, 1.0, 1.4, None],
            "mean_points_other": [1.2, 1.25, None, 1.0],
            "points_diff": [None, None, None, None],
        },
        schema_overrides={"points_diff": pl.Float64},
    )
    even = "(500/1,000; 95% interval 46.9%\u201353.1%): no clear advantage either way."
    assert summary.mano_advantage(frame) == [
        f"In 2-player catalan, the eldest won 50% of hands {even} It scored 0.30 more points per hand than the "
        "other player.",
        f"In 4-player catalan, the eldest hand's team won 50% of hands {even} It scored 0.25 fewer points per "
        "hand than the other team.",
        f"In 2-player valencian, the eldest won 50% of hands {even}",
        f"In 4-player valencian, the eldest hand's team won 50% of hands {even}",
    ]


def test_first_trick_value_says_lowers_when_winning_it_lowers_the_chance() -> None:
    frame = pl.DataFrame(
        {
            "variant": ["catalan"], "players": [4], "hands": [9120], "p_win_won_first": [0.40],
            "ci_low_won_first": [0.39], "ci_high_won_first": [0.41], "p_win_lost_first": [0.60],
            "ci_low_lost_first": [0.59], "ci_high_lost_first": [0.61], "value": [-0.2],
            "mean_points_won_first": [0.61], "mean_points_lost_first": [1.52], "points_value": [-0.91],
        }
    )  # fmt: skip
    (sentence,) = summary.first_trick_value(frame)
    assert sentence.startswith("Winning the first trick lowers the chance to win the hand from 60% to 40% ")
    assert "two players" not in sentence  # the clause of three sides


def test_the_terms_shown_are_those_of_the_variants_shown() -> None:
    """``glossary.TERMS``, read per variant: a term appears only where the variant has it (RULES.md: the
    fortial is base Trut's; the trut d'office the regional variants'; quatre val and joc fora Valencian)."""
    common = ["eldest", "tied trick", "stake", "bluff"]
    trut_family = ["void hand", "petit, long", "trut", "1st, 2nd, 3rd answerer"]
    expected = {
        "catalan": [*common, "truc, retruc"],
        "valencian": [*common, "truc, retruc", "quatre val, joc fora", "envit, torne, falta", "stones, cama"],
        "french": [*common, "void hand", "raise, reste", "redeal"],
        "trut": [*common, *trut_family, "fortial", "brelan, suite"],
        "trut-gatinaise": [*common, *trut_family, "trut d'office", "la chanson", "brelan, suite"],
        "trut-gatine": [
            *common, *trut_family, "trut d'office", "à tenir, hold", "chanter, sing", "sec", "brelan, suite",
        ],
    }  # fmt: skip
    for variant, terms in expected.items():
        assert [term.term for term in terms_for([variant])] == terms, variant


def test_cells_give_differences_signed_and_rates_apart_in_percentage_points() -> None:
    assert tables.cell("first_trick_value", 0.43) == '<td class="num">+43.0 pp</td>'
    assert tables.cell("value", -0.288) == '<td class="num">-28.8 pp</td>'
    assert tables.cell("net_points_per_bluff", 0.42) == '<td class="num">+0.42</td>'
    assert tables.cell("mean_net_points", -0.1) == '<td class="num">-0.10</td>'


def test_json_inside_a_script_element_cannot_close_it() -> None:
    """A player's name from an imported game goes into a chart's spec, inlined in a script element."""
    text = _json_for_script({"player": "</script><script>alert(1)</script>&"})
    assert not {"<", ">", "&"} & set(text) and json.loads(text) == {"player": "</script><script>alert(1)</script>&"}


def test_strength_curve_sentence_uses_the_extreme_deciles_with_data() -> None:
    frame = pl.DataFrame(
        {
            "variant": ["catalan"] * 3,
            "players": [2] * 3,
            "decile": [1, 2, 10],
            "n": [0, 500, 400],
            "wins": [0, 100, 360],
            "p_win": [None, 0.2, 0.9],
            "ci_low": [None, 0.17, 0.87],
            "ci_high": [None, 0.24, 0.93],
            "mean_net_points": [None, -0.5, 0.8],
        }
    )
    assert summary.strength_curve(frame) == [
        "In 2-player catalan, a player won 20% of hands with the weakest hands (decile 2, 100/500) "
        "and 90% with the strongest (decile 10, 360/400)."
    ]


def test_stake_distribution_sentence() -> None:
    frame = pl.DataFrame(
        {
            "variant": ["valencian"] * 3,
            "players": [4] * 3,
            "stake": [3, 1, 2],
            "hands": [50, 700, 250],
            "share": [0.05, 0.7, 0.25],
            "ci_low": [0.04, 0.67, 0.22],
            "ci_high": [0.07, 0.73, 0.28],
            "mean_points": [3.0, 1.0, 2.0],
            "mean_points_per_hand": [1.35, 1.35, 1.35],
        }
    )
    assert summary.stake_distribution(frame) == [
        "In 4-player valencian, 70% of 1,000 hands ended at stake 1 (base), 25% at 2 (truc) and 5.0% at "
        "3 (retruc). A hand was worth 1.35 stones on average."
    ]
    # a stake the valencian ladder names and the catalan one does not; points in the variant's unit
    french = frame.with_columns(pl.lit("french").alias("variant"), pl.Series("stake", [5, 1, 2]))
    assert summary.stake_distribution(french) == [
        "In 4-player french, 70% of 1,000 hands ended at stake 1 (base), 25% at 2 and 5.0% at 5. "
        "A hand was worth 1.35 points on average."
    ]
    valencian_five = frame.with_columns(pl.Series("stake", [5, 1, 2]))
    assert "5.0% at 5 (joc fora)" in summary.stake_distribution(valencian_five)[0]


def test_stake_distribution_sentence_reads_a_null_share_as_hands_over_the_total() -> None:
    """Without ``share``, a stake's share is its hands over the setting's hands."""
    frame = pl.DataFrame(
        {
            "variant": ["catalan"] * 3,
            "players": [2] * 3,
            "stake": [1, 2, 3],
            "hands": [640, 300, 60],
            "share": [None, None, None],
            "mean_points_per_hand": [1.42, 1.42, 1.42],
        },
        schema_overrides={"share": pl.Float64},
    )
    assert summary.stake_distribution(frame) == [
        "In 2-player catalan, 64% of 1,000 hands ended at stake 1 (base), 30% at 2 (truc) and 6.0% at "
        "3 (retruc). A hand was worth 1.42 points on average."
    ]


def test_valencian_stake_4_is_quatre_val_in_the_findings_and_on_the_chart() -> None:
    """Valencian's ladder goes on past retruc: stake 4 is quatre val and 5 joc fora
    (docs/rules/valencian.md), named so in the sentence and on the chart's axis."""
    frame = pl.DataFrame(
        {
            "variant": ["valencian"] * 5,
            "players": [2] * 5,
            "stake": [1, 2, 3, 4, 5],
            "hands": [500, 250, 150, 60, 40],
            "share": [0.5, 0.25, 0.15, 0.06, 0.04],
            "ci_low": [0.47, 0.22, 0.13, 0.047, 0.03],
            "ci_high": [0.53, 0.28, 0.17, 0.077, 0.054],
            "mean_points": [1.0, 2.0, 3.0, 4.0, 5.0],
            "mean_points_per_hand": [1.89] * 5,
        }
    )
    assert summary.stake_distribution(frame) == [
        "In 2-player valencian, 50% of 1,000 hands ended at stake 1 (base), 25% at 2 (truc), 15% at 3 (retruc), "
        "6.0% at 4 (quatre val) and 4.0% at 5 (joc fora). A hand was worth 1.89 stones on average."
    ]
    spec = charts.stake_distribution(frame).to_dict()
    ladder = ["1 (base)", "2 (truc)", "3 (retruc)", "4 (quatre val)", "5 (joc fora)"]
    assert layers(spec)[0]["encoding"]["x"]["sort"] == ladder
    assert "4 (quatre val)" in {r["stake_label"] for r in chart_rows(spec)}


def test_raise_rates_sentence_lists_tricks_and_skips_empty_ones() -> None:
    frame = pl.DataFrame(
        {
            "variant": ["catalan"] * 5,
            "players": [2] * 5,
            "decision": ["raise", "raise", "raise", "accept_and_raise", "raise"],
            "stake": [1, 1, 1, 1, 1],
            "trick_no": [1, 2, 3, 1, None],
            "chances": [1000, 800, 0, 300, 40],
            "count": [50, 200, 0, 30, 2],
            "rate": [0.05, 0.25, None, 0.1, 0.05],
            "ci_low": [0.04, 0.22, None, 0.07, 0.01],
            "ci_high": [0.07, 0.28, None, 0.14, 0.17],
        }
    )
    assert summary.raise_rates(frame) == [
        "In 2-player catalan, with the stake at 1 (base), players raised on their own move at 5.0% of "
        "their chances in trick 1 (50/1,000) and 25% in trick 2 (200/800).",
        "In 2-player catalan, with the stake at 1 (base), players answered a raise by raising back at "
        "10% of their chances in trick 1 (30/300).",
    ]


def test_fold_rates_sentence_uses_the_all_deciles_row() -> None:
    frame = pl.DataFrame(
        {
            "variant": ["catalan"] * 3,
            "players": [4] * 3,
            "stake": [2] * 3,
            "decile": [None, 1, 10],
            "facing": [1330, 130, 120],
            "folds": [412, 104, 3],
            "fold_rate": [412 / 1330, 0.8, 0.025],
            "ci_low": [0.28, 0.72, 0.008],
            "ci_high": [0.34, 0.86, 0.07],
        }
    )
    assert summary.fold_rates(frame) == [
        "Facing a raise to 2 (truc) in 4-player catalan, players folded 31% of the time (412/1,330): 80% "
        "with the weakest hands (decile 1, 104/130) and 2.5% with the strongest (decile 10, 3/120)."
    ]
    without_all = frame.filter(pl.col("decile").is_not_null())
    assert summary.fold_rates(without_all)[0].startswith(
        "Facing a raise to 2 (truc) in 4-player catalan, players folded 43% of the time (107/250)"
    )
    # when no hand of decile 1 (or 10) faced the raise, the sentence does not call decile 6 the weakest
    middle = frame.with_columns(pl.col("decile").replace({1: 6, 10: 9}))
    assert summary.fold_rates(middle)[0].endswith(
        "80% with the weakest hands that faced one (decile 6, 104/130) and 2.5% with the strongest that "
        "faced one (decile 9, 3/120)."
    )


def test_bluff_success_sentences() -> None:
    frame = pl.DataFrame(
        {
            "variant": ["catalan", "catalan"],
            "players": [2, 2],
            "stake": [2, 3],
            "raises": [1250, 300],
            "bluffs": [150, 0],
            "bluff_rate": [0.12, 0.0],
            "bluff_ci_low": [0.10, 0.0],
            "bluff_ci_high": [0.14, 0.012],
            "folded": [96, 0],
            "success_rate": [0.64, None],
            "success_ci_low": [0.56, None],
            "success_ci_high": [0.71, None],
            "called": [54, 0],
            "called_won": [9, 0],
            "called_won_rate": [1 / 6, None],
            "called_won_ci_low": [0.09, None],
            "called_won_ci_high": [0.29, None],
            "net_points_per_bluff": [0.42, None],
        }
    )
    assert summary.bluff_success(frame) == [
        "In 2-player catalan, 12% of raises to 2 (truc) were bluffs (150/1,250); 64% of the bluffs made the "
        "other side fold (96/150) and 17% of the called ones still won (9/54). A bluff netted +0.42 points "
        "on average.",
        "In 2-player catalan, none of the 300 raises to 3 (retruc) was a bluff.",
    ]


def test_tie_frequency_sentence() -> None:
    frame = pl.DataFrame(
        {
            "variant": ["catalan"] * 4,
            "players": [4] * 4,
            "measure": ["trick_tied", "trick_tied", "trick_tied", "hand_by_tie_rule"],
            "trick_no": [1, 2, 3, None],
            "n": [9120, 4000, 0, 9120],
            "count": [565, 80, 0, 100],
            "rate": [565 / 9120, 0.02, None, 100 / 9120],
            "ci_low": [0.057, 0.016, None, 0.009],
            "ci_high": [0.067, 0.025, None, 0.013],
        }
    )
    assert summary.tie_frequency(frame) == [
        "In 4-player catalan, trick 1 was tied in 6.2% of the hands that played it (565/9,120) and trick 2 in "
        "2.0% of those that played it (80/4,000); a tie rule decided 1.1% of hands (100/9,120)."
    ]


# --- several variants ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", STATISTICS)
def test_every_statistic_is_faceted_by_variant_over_a_multi_variant_dataset(name: str) -> None:
    spec = charts.CHARTS[name](MULTI[name]).to_dict()
    facet = variant_facet(spec)
    assert facet["field"] == "variant"
    assert facet["sort"] == ["catalan", "french", "trut", "valencian"]
    assert {(r["variant"], r["players"]) for r in chart_rows(spec)} == set(MULTI_SETTINGS)
    assert layers(spec)[0]["encoding"]["color"]["scale"]["domain"] == ["2 players", "3 players", "4 players"]


@pytest.mark.parametrize("name", SPECIFIC)
def test_variant_specific_charts_draw_only_their_variants(name: str) -> None:
    spec = charts.CHARTS[name](MULTI[name]).to_dict()
    variants = {"envit": {"valencian"}, "trut": {"trut"}, "french": {"french"}}.get(
        name,
        {v for v, _ in MULTI_SETTINGS} - NEVER_VOID,  # no void hand to count where none can be void
    )
    assert {r["variant"] for r in chart_rows(spec)} == variants


def test_comparison_chart_sets_the_variants_side_by_side_one_row_per_measure() -> None:
    spec = charts.variant_comparison(MULTI["variant_comparison"]).to_dict()
    assert spec["facet"]["field"] == "measure"
    assert facet_rows(spec) == [m[0] for m in charts.COMPARISON_MEASURES]
    main = layers(spec)[0]["encoding"]
    assert main["x"]["field"] == "variant" and main["xOffset"]["field"] == "players_label"
    rows = chart_rows(spec)
    assert len(rows) == 6 * len(MULTI_SETTINGS)
    source = MULTI["variant_comparison"].filter(variant="trut", players=3).row(0, named=True)
    mano = next(
        r for r in rows if r["variant"] == "trut" and r["players"] == 3 and r["measure"].startswith("Hands won")
    )
    assert mano["rate"] == source["mano_win_rate"]
    assert mano["sample"] == f"{source['eldest_wins']:,}/{source['decided_hands']:,}"
    assert mano["interval"] == interval_label(source["mano_ci_low"], source["mano_ci_high"])


def test_envit_chart_leaves_the_stones_to_the_table_and_gives_rows_their_own_x() -> None:
    spec = charts.envit(MULTI["envit"]).to_dict()
    rows = chart_rows(spec)
    assert rows and all(r["row"] != "stones" and "stones" not in r["row"] for r in rows)
    assert spec["resolve"]["scale"]["x"] == "independent"
    assert {r["level_label"] for r in rows if r["row"] == charts.ENVIT_ROWS["caller_won"]} == {
        "0-19", "20-25", "26-28", "29-30", "31-33"
    }  # fmt: skip
    assert {r["level_label"] for r in rows if r["row"] == charts.ENVIT_ROWS["call"]} == {"All hands"}


def test_trut_chart_names_answerers_and_timings() -> None:
    rows = chart_rows(charts.trut(MULTI["trut"]).to_dict())
    by_row: dict[str, set[str]] = {}
    for r in rows:
        by_row.setdefault(r["row"], set()).add(r["level_label"])
    assert by_row[charts.TRUT_ROWS["fold_by_position"]] == {"1st answerer", "2nd answerer"}
    # timing: one row per trick; the truts of a call before play are all "before play", left to the table
    assert by_row[charts.TRUT_ROWS["timing 2"]] == {
        "in turn", "out of turn, before own card", "out of turn, after own card", "turn unknown"
    }  # fmt: skip
    assert charts.TRUT_ROWS["timing"] not in by_row and all("before play" not in r["level_label"] for r in rows)
    assert by_row[charts.TRUT_ROWS["chanson_cards"]] == {"1 card", "2 cards", "3 cards"}
    assert by_row[charts.TRUT_ROWS["fortial"]] == set(charts.SPECIAL_LEVELS.values())


def test_trut_chart_draws_no_choice_where_the_rules_fix_the_opening() -> None:
    """A trut d'office must be made: a "truted or held" bar at 100% would read as a finding."""
    fortial = MULTI["trut"].filter(pl.col("measure") == "fortial")
    office = fortial.with_columns(pl.lit("trut_office").alias("measure"))
    rows = chart_rows(charts.trut(pl.concat([MULTI["trut"], office])).to_dict())
    office_levels = {r["level_label"] for r in rows if r["row"] == charts.TRUT_ROWS["trut_office"]}
    assert office_levels == set(charts.SPECIAL_LEVELS.values()) - {charts.SPECIAL_LEVELS["truted"]}
    assert charts.SPECIAL_LEVELS["truted"] in {
        r["level_label"] for r in rows if r["row"] == charts.TRUT_ROWS["fortial"]
    }


def test_french_chart_shows_raise_sizes_in_order() -> None:
    spec = charts.french(MULTI["french"]).to_dict()
    sort = layers(spec)[0]["encoding"]["x"]["sort"]
    assert [lv for lv in sort if lv.startswith("+")] == ["+1", "+2", "+3", "+4"]
    answers = [r for r in chart_rows(spec) if r["row"] == "Reste raises: answers"]
    assert {r["level_label"] for r in answers} == {"accepted", "folded", "raised back"}


def test_each_panel_draws_the_even_shares_of_its_own_player_counts() -> None:
    """1/3 (3-player Trut: three sides) only where 3-player games are drawn, 1/2 wherever 2, 4 or 6 players
    are: the catalan panel of a report that also holds 3-player Trut shows 1/2 alone (it showed 1/3 too)."""
    spec = charts.strength_curve(MULTI["strength_curve"]).to_dict()
    width = spec["spec"]["width"]
    drawn = {panel: sorted(rules) for panel, rules in dashed_rules(spec).items()}
    assert drawn == {
        "catalan": [(pytest.approx(0.5), 0, width)],
        "french": [(pytest.approx(0.5), 0, width)],
        "trut": [(pytest.approx(1 / 3), 0, width), (pytest.approx(0.5), 0, width)],  # 3 and 4 players
        "valencian": [(pytest.approx(0.5), 0, width)],
    }
    subtitle = " ".join(spec["title"]["subtitle"])
    assert "33% for 3 players, each alone (drawn only in the panels that have them)" in subtitle
    without_three = charts.strength_curve(MULTI["strength_curve"].filter(pl.col("players") != 3)).to_dict()
    assert [value for rules in dashed_rules(without_three).values() for value, _, _ in rules] == [
        pytest.approx(0.5)
    ] * 4
    assert " ".join(without_three["title"]["subtitle"]).endswith(" Dashed line: 50%, an even chance.")


def test_the_eldest_s_even_share_is_drawn_over_its_own_player_count() -> None:
    """Where x is the player count, each dashed even share covers that count's category only: in the trut
    panel 1/3 over the 3-player point and 1/2 over the 4-player one, never 1/3 over a 4-player point."""
    spec = charts.mano_advantage(MULTI["mano_advantage"]).to_dict()
    colours = {colour: players for players, colour in charts.PLAYER_COLOURS.items()}
    for panel, rules in dashed_rules(spec).items():
        points = [(item["x"], colours[item["fill"]]) for item in marks_in_panel(spec, panel, "symbol")]
        assert len(rules) == len(points), panel
        for value, start, end in rules:
            (players,) = [count for x, count in points if start <= x <= end]
            assert value == pytest.approx(even_share(players)), (panel, players)
    assert sorted(value for value, _, _ in dashed_rules(spec)["trut"]) == [pytest.approx(1 / 3), 0.5]
    assert " ".join(spec["title"]["subtitle"]).endswith(
        "Dashed lines: 50%, no advantage; 33% for 3 players, each alone (drawn over their points only)."
    )


def test_stake_rows_are_named_only_when_every_variant_agrees() -> None:
    assert common_stake_label(2, ["catalan", "valencian"]) == "2 (truc)"
    assert common_stake_label(2, ["catalan", "french"]) == "2"
    assert common_stake_label(5, ["valencian"]) == "5 (joc fora)"
    assert stake_label(3) == "3 (retruc)" and stake_label(3, "trut") == "3"
    spec = charts.fold_rates(MULTI["fold_rates"]).to_dict()
    assert facet_rows(spec) == ["Facing a raise to 2", "Facing a raise to 3"]


def test_units_come_from_the_comparison_frame() -> None:
    units = units_of(MULTI)
    assert units == {"catalan": "points", "french": "points", "trut": "longs", "valencian": "cames"}
    assert [unit_word(v, units) for v in ("catalan", "valencian", "trut")] == ["points", "stones", "petits"]
    assert unit_word("valencian", {"valencian": "points"}) == "points"
    assert unit_word(None) == "points"
    assert (even_share(3), even_share(4)) == (pytest.approx(1 / 3), 0.5)


@pytest.mark.parametrize("name", (*SPECIFIC, "variant_comparison"))
def test_variant_summaries_give_a_sentence_per_setting_they_apply_to(name: str) -> None:
    sentences = summary.SUMMARIES[name](MULTI[name], units_of(MULTI))
    settings = {"envit": [("valencian", 2)], "trut": [("trut", 3), ("trut", 4)], "french": [("french", 2)]}.get(
        name, list(MULTI_SETTINGS)
    )
    for variant, players in settings:
        assert any(f"{players}-player {variant}" in s for s in sentences), (variant, sentences)
    assert all(s.endswith(".") and "None" not in s and "nan" not in s for s in sentences)


def test_three_players_alone_are_not_called_teams() -> None:
    # 3-player Trut: each plays alone, and the rate of "losing the first trick" is the two losers' together
    units = units_of(MULTI)
    three = [
        sentence
        for name in ("first_trick_value", "strength_curve", "bluff_success")
        for sentence in summary.SUMMARIES[name](MULTI[name], units)
        if "3-player trut" in sentence
    ]
    assert three and not [s for s in three if "team" in s or "the other side" in s], three
    assert any("for the two players who lost it together)." in s for s in three), three
    assert any("a player won" in s for s in three), three


def test_mano_advantage_against_one_third_with_three_players() -> None:
    frame = pl.DataFrame(
        {
            "variant": ["trut"],
            "players": [3],
            "hands": [1000],
            "eldest_wins": [400],
            "win_rate": [0.4],
            "ci_low": [0.37],
            "ci_high": [0.43],
            "mean_points_eldest": [1.5],
            "mean_points_other": [1.2],
            "points_diff": [0.3],
        }
    )
    assert summary.mano_advantage(frame) == [
        "In 3-player trut, the eldest won 40% of hands (400/1,000; 95% interval 37.0%\u201343.0%): "
        "an advantage against an even share of 1/3. It scored 0.30 more petits per hand than each other "
        "player on average."
    ]


def _comparison_row(variant: str, players: int, **values: Any) -> dict[str, Any]:
    row: dict[str, Any] = {column: None for column in CONTRACT["variant_comparison"]}
    row.update(variant=variant, players=players, **values)
    return row


def test_variant_comparison_sentences() -> None:
    frame = pl.DataFrame(
        [
            _comparison_row(
                "catalan", 4, sides=2, games=100, hands=1200, mean_hands_per_game=12.0,
                first_trick_hands=1000, first_trick_win_rate=0.8, raises=400, bluffs=40, bluff_rate=0.1,
                bluffs_folded=20, bluff_success_rate=0.5, facing=300, folds=90, fold_rate=0.3,
                decided_hands=1200, eldest_wins=660, mano_win_rate=0.55, mano_edge=0.05, tricks=2500,
                tied_tricks=125, tie_rate=0.05,
            ),
            _comparison_row(
                "trut", 3, sides=3, games=50, hands=400, mean_hands_per_game=8.0,
                decided_hands=380, eldest_wins=152, mano_win_rate=0.4, mano_edge=0.4 - 1 / 3, tricks=900,
                tied_tricks=90, tie_rate=0.1,
            ),
        ],
        infer_schema_length=None,
    )  # fmt: skip
    assert summary.variant_comparison(frame) == [  # the comparison first, then each setting
        "Across variants, the eldest's edge over an even share is largest in 3-player trut "
        "(+6.7 percentage points, n = 380) and smallest in 4-player catalan (+5.0 percentage points, "
        "n = 1,200).",
        "Across variants, the share of tied tricks is largest in 3-player trut (10%, n = 900) and smallest in "
        "4-player catalan (5.0%, n = 2,500).",
        "In 4-player catalan (1,200 hands, 12.0 hands a game over 100 complete games): the side that took "
        "trick 1 outright won 80% (800/1,000) of those hands, 10% (40/400) of raises were bluffs, 50% (20/40) "
        "of them folded to, answers to a raise folded 30% (90/300), the eldest won 55% (660/1,200) of decided "
        "hands (+5.0 percentage points over an even 1/2) and 5.0% (125/2,500) of tricks were tied.",
        "In 3-player trut (400 hands, 8.0 hands a game over 50 complete games): the eldest won 40% (152/380) "
        "of decided hands (+6.7 percentage points over an even 1/3) and 10% (90/900) of tricks were tied.",
    ]


def test_envit_trut_french_and_void_sentences() -> None:
    envit = pl.DataFrame(
        [
            {"measure": "call", "level": None, "n": 200, "count": 90, "rate": 0.45, "mean": None},
            {"measure": "accepted", "level": "envit", "n": 80, "count": 40, "rate": 0.5, "mean": None},
            {"measure": "folded", "level": "envit", "n": 80, "count": 30, "rate": 0.375, "mean": None},
            {"measure": "raised", "level": "envit", "n": 80, "count": 10, "rate": 0.125, "mean": None},
            {"measure": "caller_won", "level": "0-19", "n": 20, "count": 5, "rate": 0.25, "mean": None},
            {"measure": "caller_won", "level": "31-33", "n": 10, "count": 9, "rate": 0.9, "mean": None},
            {"measure": "bluff", "level": "envit", "n": 80, "count": 20, "rate": 0.25, "mean": None},
            {"measure": "bluff_folded", "level": "envit", "n": 20, "count": 8, "rate": 0.4, "mean": None},
            {"measure": "stones", "level": "envit", "n": 200, "count": 100, "rate": None, "mean": 0.5},
            {"measure": "stones", "level": "tricks", "n": 200, "count": 300, "rate": None, "mean": 1.5},
        ]
    ).with_columns(pl.lit("valencian").alias("variant"), pl.lit(2).alias("players"))
    assert summary.envit(envit) == [
        "In 2-player valencian, an envit was called in 45% (90/200) of hands; an envit was accepted 50%, folded "
        "to 38% and raised 12% (of 80 calls); the opening caller's side won the envit 25% (5/20) of the time "
        "with a value of 0-19 and 90% (9/10) with 31-33; 25% of calls at every rung were bluffs (20/80) and 40% of the "
        "bluffs were folded to (8/20). The envit brought 0.50 stones a hand and the rest of the hand 1.50 "
        "(25% of the stones)."
    ]
    trut = pl.DataFrame(
        [
            {"measure": "trut", "level": None, "trick_no": None, "n": 100, "count": 60, "rate": 0.6},
            {"measure": "fold_by_position", "level": "1", "trick_no": None, "n": 60, "count": 30, "rate": 0.5},
            {"measure": "fold_by_position", "level": "2", "trick_no": None, "n": 30, "count": 6, "rate": 0.2},
            {"measure": "timing", "level": "in_turn", "trick_no": 1, "n": 40, "count": 30, "rate": 0.75},
            {"measure": "timing", "level": "out_after_card", "trick_no": 1, "n": 40, "count": 10, "rate": 0.25},
            {"measure": "timing", "level": "call", "trick_no": None, "n": 5, "count": 5, "rate": 1.0},
            {"measure": "fortial", "level": "truted", "trick_no": None, "n": 10, "count": 7, "rate": 0.7},
            {"measure": "fortial", "level": "decider_won", "trick_no": None, "n": 10, "count": 6, "rate": 0.6},
            {"measure": "tenir", "level": "truted", "trick_no": None, "n": 5, "count": 3, "rate": 0.6},
            {"measure": "tenir", "level": "decider_won", "trick_no": None, "n": 5, "count": 2, "rate": 0.4},
            # the rules fix how these hands open: only who won them is said
            {"measure": "trut_office", "level": "truted", "trick_no": None, "n": 10, "count": 10, "rate": 1.0},
            {"measure": "trut_office", "level": "decider_won", "trick_no": None, "n": 10, "count": 5, "rate": 0.5},
            {"measure": "sec", "level": "truted", "trick_no": None, "n": 4, "count": 2, "rate": 0.5},
            {"measure": "sec", "level": "decider_won", "trick_no": None, "n": 2, "count": 1, "rate": 0.5},
        ]
    ).with_columns(pl.lit("trut").alias("variant"), pl.lit(4).alias("players"))
    assert summary.trut(trut) == [
        "In 4-player trut, a trut was made in 60% (60/100) of the hands where one is a choice; "
        "the first answerer folded 50% (30/60) and the second answerer folded 20% (6/30); "
        "25% of the truts made during play were out of turn (10/40), "
        "25% after the truter's own card; at the fortial the side au fortial truted in 70% (7/10) of hands and "
        "won 60% (6/10); in a trut d'office, which the side facing 2 petits must make, that side won 50% (5/10); "
        "à tenir the side with 2 petits held in 60% (3/5) of hands and won 40% (2/5); in a trut d'office "
        "redealt sec after a hold, the side that held won 50% (1/2)."
    ]
    french = pl.DataFrame(
        [
            {"measure": "redeal", "size": None, "n": 100, "count": 10, "rate": 0.1},
            {"measure": "raise_size", "size": 1, "n": 50, "count": 30, "rate": 0.6},
            {"measure": "raise_size", "size": 2, "n": 50, "count": 20, "rate": 0.4},
            {"measure": "reste", "size": None, "n": 60, "count": 10, "rate": 1 / 6},
            {"measure": "reste_accepted", "size": None, "n": 10, "count": 6, "rate": 0.6},
            {"measure": "reste_folded", "size": None, "n": 10, "count": 4, "rate": 0.4},
            {"measure": "reste_won", "size": None, "n": 6, "count": 3, "rate": 0.5},
        ]
    ).with_columns(pl.lit("french").alias("variant"), pl.lit(2).alias("players"))
    assert summary.french(french) == [
        "In 2-player french, 10% (10/100) of hands were redealt; raises went +1 in 60% and +2 in 40% of 50 "
        "raises to a number; 17% (10/60) of raises were to the reste, accepted 60% and folded to 40%; played "
        "on, the raiser won 50% (3/6)."
    ]
    void = pl.DataFrame(
        {
            "variant": ["catalan", "french", "trut"],
            "players": [4, 2, 2],
            "hands": [500, 400, 300],
            "void_hands": [0, 12, 0],
            "void_rate": [0.0, 0.03, 0.0],
            "ci_low": [0.0, 0.017, 0.0],
            "ci_high": [0.0076, 0.052, 0.0126],
        }
    )
    # catalan cannot have a void hand (RULES.md: all tied goes to the eldest); trut can and had none
    assert summary.void_hands(void) == [
        "In 4-player catalan, no hand can be void: when every trick is tied, the eldest's side wins.",
        "In 2-player french, 3.0% of hands were void: their tricks decided nothing "
        "(12/400; 95% interval 1.7%\u20135.2%).",
        "In 2-player trut, no hand was void (0/300).",
    ]


def test_no_hand_can_be_void_only_where_every_tie_goes_to_the_eldest() -> None:
    """Catalan and valencian give a hand of tied tricks to the eldest's side (docs/data.md ``all_tied_eldest``):
    no hand can be void there. French and the trut family leave it void (``all_tied``): with none in the
    sample, the finding says none was, of how many."""
    settings = sorted((name, players) for name, variant in VARIANTS.items() for players in variant.players)
    frame = pl.DataFrame(
        [
            {
                "variant": v,
                "players": p,
                "hands": 600,
                "void_hands": 0,
                "void_rate": 0.0,
                "ci_low": 0.0,
                "ci_high": 0.0064,
            }
            for v, p in settings
        ]
    )
    never_void = {"catalan", "valencian"}
    assert summary.void_hands(frame) == [
        f"In {players}-player {variant}, no hand can be void: when every trick is tied, the eldest's side wins."
        if variant in never_void
        else f"In {players}-player {variant}, no hand was void (0/600)."
        for variant, players in settings
    ]
    assert never_void | {"french", "trut"} <= {v for v, _ in settings}


# --- players and bots ------------------------------------------------------------------------------------


def test_bots_are_named_by_the_parameters_that_tell_them_apart() -> None:
    one = "threshold raise_at=0.7 call_at=0.5 bluff=0.1"
    other = "threshold raise_at=0.8 call_at=0.5 bluff=0.05"
    assert short_player_names([one, other, "random", "Anna Maria", "Jordi"]) == {
        one: "threshold raise_at=0.7 bluff=0.1",
        other: "threshold raise_at=0.8 bluff=0.05",
    }  # a name, even of several words, and a policy without parameters are kept as they are
    assert short_player_names([one, "random"]) == {one: "threshold"}


def test_players_are_compared_only_where_a_setting_has_several() -> None:
    row = {"hands": 10, "decided": 10, "wins": 5}
    frame = pl.DataFrame(
        [
            {"variant": "catalan", "players": 2, "player": "threshold raise_at=0.7 bluff=0.1", **row},
            {"variant": "catalan", "players": 2, "player": "threshold raise_at=0.8 bluff=0.1", **row},
            {"variant": "catalan", "players": 4, "player": "threshold raise_at=0.7 bluff=0.1", **row},
            {"variant": "trut", "players": 2, "player": "Odile", **row},
            {"variant": "trut", "players": 2, "player": "Baptiste", **row},
        ]
    )
    compared = compared_players(frame).sort("variant", "players", "player")
    assert compared.select("variant", "players", "player").rows() == [
        ("catalan", 2, "threshold raise_at=0.7"),
        ("catalan", 2, "threshold raise_at=0.8"),
        ("trut", 2, "Baptiste"),
        ("trut", 2, "Odile"),
    ]
    assert compared_players(frame.filter(pl.col("players") == 4)).is_empty()
    # the same bot in two settings is named within each: alone of its policy it reads "threshold"
    other = frame.with_columns(pl.lit("catalan").alias("variant"), pl.lit(3, pl.Int64).alias("players")).head(1)
    mixed = pl.concat([frame.head(2), other, other.with_columns(pl.lit("random").alias("player"))])
    assert compared_players(mixed).select("players", "player").rows() == [
        (2, "threshold raise_at=0.7"),
        (2, "threshold raise_at=0.8"),
        (3, "threshold"),
        (3, "random"),
    ]
    assert compared_players(pl.DataFrame()).is_empty()


def _player(variant: str, players: int, player: str, wins: int, decided: int) -> dict[str, Any]:
    rate, low, high = wilson(wins, decided)
    return {
        "variant": variant,
        "players": players,
        "player": player,
        "hands": decided + 3,
        "random_bot_hands": decided + 3 if player.split()[0] == RANDOM_BOT else 0,
        "decided": decided,
        "wins": wins,
        "win_rate": rate,
        "ci_low": low,
        "ci_high": high,
        "mean_net_points": 0.1,
        "raises": 40,
        "raises_per_hand": 0.2,
        "facing": 30,
        "folds": 12,
        "fold_rate": 0.4,
    }


PLAYER_ROWS = pl.DataFrame(
    [
        _player("catalan", 2, "threshold raise_at=0.7", 560, 1000),
        _player("catalan", 2, "threshold raise_at=0.8", 440, 1000),
        _player("trut", 3, "Odile", 70, 200),
        _player("trut", 3, "Baptiste", 65, 200),
        _player("trut", 4, "random", 100, 200),
        _player("trut", 4, "threshold", 100, 200),
    ]
)


def test_players_chart_draws_each_ones_win_rate_within_its_variant() -> None:
    spec = charts.player_results(PLAYER_ROWS).to_dict()
    main = layers(spec)[0]["encoding"]
    assert main["x"]["field"] == "player" and main["y"]["field"] == "rate"
    assert spec["facet"]["field"] == "variant"
    assert spec["resolve"]["scale"]["x"] == "independent"  # each variant lists only its own players
    rows = {(r["variant"], r["players"], r["player"]): r for r in chart_rows(spec)}
    assert len(rows) == 6
    odile = rows[("trut", 3, "Odile")]
    assert (odile["count"], odile["total"], odile["sample"]) == (70, 200, "70/200")
    assert odile["rate"] == pytest.approx(0.35)
    assert "33% for 3 players, each alone (drawn over their bars only)" in " ".join(spec["title"]["subtitle"])
    dashed = {panel: sorted(value for value, _, _ in rules) for panel, rules in dashed_rules(spec).items()}
    third, half = pytest.approx(1 / 3), pytest.approx(0.5)
    assert dashed == {"catalan": [half, half], "trut": [third, third, half, half]}  # each player its own
    tooltips = {t["field"] for t in main["tooltip"]}
    assert {"mean_net_points", "raises_per_hand", "fold_rate"} <= tooltips


def test_players_sentences_rank_them_and_say_when_the_intervals_part() -> None:
    assert summary.player_results(PLAYER_ROWS) == [
        "In 2-player catalan, decided hands won: threshold raise_at=0.7: 56% (560/1,000; 95% interval "
        "52.9%\u201359.0%) and threshold raise_at=0.8: 44% (440/1,000; 95% interval 41.0%\u201347.1%); "
        "threshold raise_at=0.7 wins more of its hands than threshold raise_at=0.8: their intervals do not "
        "overlap.",
        "In 3-player trut, decided hands won: Odile: 35% (70/200; 95% interval 28.7%\u201341.8%) and "
        "Baptiste: 32% (65/200; 95% interval 26.4%\u201339.3%); no clear difference: the intervals of the "
        "best and the worst overlap.",
        "In 4-player trut, decided hands won: random: 50% (100/200; 95% interval 43.1%\u201356.9%) and "
        "threshold: 50% (100/200; 95% interval 43.1%\u201356.9%); no clear difference: the intervals of the "
        "best and the worst overlap. Partners share their side's result, counted once a hand.",
    ]
    # the one that wins more hands but nets fewer points (it folds cheap hands, loses raised ones): said
    losing = PLAYER_ROWS.with_columns(
        pl.when(pl.col("player") == "threshold raise_at=0.7").then(-0.12).otherwise(0.12).alias("mean_net_points")
    )
    assert summary.player_results(losing)[0].endswith(
        "their intervals do not overlap, yet it nets fewer points a hand (-0.12 against +0.12)."
    )
    assert summary.player_results(PLAYER_ROWS.filter(pl.col("player") != "Odile").head(3)) == [
        summary.player_results(PLAYER_ROWS)[0]
    ]  # a setting left with one player gives no sentence
    assert summary.player_results(pl.DataFrame()) == []


def test_settings_with_a_random_bot_are_named_with_its_share_of_the_seat_hands() -> None:
    assert parse_policy("random").name == RANDOM_BOT  # an instance's: compiled, the class holds a slot
    assert f"seats.policy = '{RANDOM_BOT}'" in (stats.SQL_DIR / "player_results.sql").read_text("utf-8")
    assert random_bot_shares(PLAYER_ROWS) == {("trut", 4): pytest.approx(0.5)}  # random against threshold
    mixed = pl.concat(
        [
            PLAYER_ROWS,
            pl.DataFrame([_player("catalan", 4, "random", 100, 200), _player("catalan", 4, "threshold", 310, 600)]),
            pl.DataFrame([_player("french", 2, "randomness fan", 90, 200), _player("french", 2, "Odile", 90, 200)]),
        ]
    )
    shares = random_bot_shares(mixed)
    assert shares == {("catalan", 4): pytest.approx(203 / 806), ("trut", 4): pytest.approx(0.5)}
    named = pl.DataFrame([_player("french", 2, "Odile", 90, 200), _player("french", 2, "Joan", 90, 200)])
    named = named.with_columns(  # Joan's seat played by the random policy, under a player's name
        pl.when(pl.col("player") == "Joan").then(pl.col("hands")).otherwise(0).alias("random_bot_hands")
    )
    assert random_bot_shares(named) == {("french", 2): pytest.approx(0.5)}
    assert summary.random_bot_caveat(shares) == (
        "Not like for like: a random bot (it picks uniformly among the legal actions) played 25% of the "
        "seat-hands in 4-player catalan and 50% in 4-player trut; those settings' figures measure its play as "
        "well as the game's, so beside the other settings they do not compare like with like."
    )
    assert summary.random_bot_caveat({}) is None
    assert random_bot_shares(PLAYER_ROWS.filter(pl.col("player") != "random")) == {}
    assert random_bot_shares(pl.DataFrame()) == {}


def test_players_chart_leaves_room_for_a_bot_s_whole_name() -> None:
    name = "threshold raise_at=0.8 call_at=0.6 bluff=0.05 trut_at=0.7"
    frame = pl.DataFrame([_player("catalan", 2, name, 500, 1000), _player("catalan", 2, "random", 450, 1000)])
    axis = layers(charts.player_results(frame).to_dict())[0]["encoding"]["x"]["axis"]
    assert axis["labelLimit"] >= len(name) * 6
    envit_axis = layers(charts.envit(MULTI["envit"]).to_dict())[0]["encoding"]["x"]["axis"]
    assert envit_axis["labelLimit"] == 220  # short labels keep the usual room


# --- the drawing, in Vega itself --------------------------------------------------------------------


def scene(spec: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """The named groups of a chart as Vega itself lays it out (``vl_convert``'s scenegraph)."""
    root = vl_convert.vegalite_to_scenegraph(spec)["scenegraph"]["items"][0]
    return {group["name"]: group["items"] for group in root["items"] if group.get("name")}


def texts(node: dict[str, Any], role: str) -> list[str]:
    """The texts of the text marks of ``role`` anywhere under a scenegraph node; a text of several lines (a
    panel's title, a line for each of its parts) joined by `` \u00b7 ``, as the panel is named."""
    found: list[str] = []
    if node.get("marktype") == "text" and node.get("role") == role:
        for item in node.get("items", []):
            text = item.get("text")
            if isinstance(text, list):
                text = " \u00b7 ".join(text)
            if isinstance(text, str):
                found.append(text)
    for child in node.get("items", []):
        found += texts(child, role)
    return found


def panels(spec: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The cells of a chart faceted by variant, by their variant: a wrapped chart titles each cell, a row
    of columns names them in its column headers (matched by their offsets)."""
    groups = scene(spec)
    headers = {item["x"]: texts(item, "title-text")[0] for item in groups.get("column_header", [])}
    return {headers.get(cell["x"]) or texts(cell, "title-text")[0]: cell for cell in groups["cell"]}


def items_of(node: dict[str, Any], marktype: str) -> list[dict[str, Any]]:
    """The items of the data marks of ``marktype`` anywhere under a scenegraph node."""
    found: list[dict[str, Any]] = []
    if node.get("marktype") == marktype and node.get("role") == "mark":
        found += node.get("items", [])
    for child in node.get("items", []):
        found += items_of(child, marktype)
    return found


def marks_in_panel(spec: dict[str, Any], panel: str, marktype: str) -> list[dict[str, Any]]:
    return items_of(panels(spec)[panel], marktype)


def dashed_rules(spec: dict[str, Any]) -> dict[str, list[tuple[float, float, float]]]:
    """Each panel's dashed rules as Vega draws them: (the value on the y axis, left end, right end); a rule
    across the whole panel is drawn from its right edge."""
    domain = layers(spec)[0]["encoding"]["y"]["scale"]["domain"]
    height = spec["spec"]["height"]
    drawn: dict[str, list[tuple[float, float, float]]] = {}
    for panel, cell in panels(spec).items():
        dashed = [rule for rule in items_of(cell, "rule") if rule.get("strokeDash")]
        drawn[panel] = [
            (
                domain[0] + (1 - rule["y"] / height) * (domain[1] - domain[0]),
                min(rule["x"], rule["x2"]),
                max(rule["x"], rule["x2"]),
            )
            for rule in dashed
        ]
    return drawn


def drawn_cells(spec: dict[str, Any], role: str = "mark") -> list[tuple[str, str, list[str]]]:
    """(column header, row header, the texts of ``role`` drawn in the cell: count labels for "mark", x
    labels for "axis-label") for every cell of a row-and-column facet, each cell matched to the headers
    at its offsets."""
    groups = scene(spec)
    columns = {item["x"]: texts(item, "title-text")[0] for item in groups["column_header"]}
    rows = {item["y"]: texts(item, "title-text")[0] for item in groups["row_header"]}
    return [(columns[cell["x"]], rows[cell["y"]], texts(cell, role)) for cell in groups["cell"]]


def labels_by_cell(spec: dict[str, Any], row_field: str) -> dict[tuple[str, str], set[str]]:
    """The count labels of a chart's data, by (variant, row) cell, rows with a rate only."""
    labels: dict[tuple[str, str], set[str]] = {}
    for row in chart_rows(spec):
        if row.get("rate") is not None:
            labels.setdefault((row["variant"], row[row_field]), set()).add(row["sample"])
    return labels


@pytest.mark.parametrize("name", ["raise_rates", "fold_rates", "bluff_success", "trut"])
def test_every_label_is_drawn_under_its_own_variant_and_row(name: str) -> None:
    """Vega misplaced the cells of a facet grid with a cell missing (vega/vega#2757), and a grid drew axes
    under its empty cells: one variant lacks a row that another has here, as when a stake or a measure
    belongs to one variant only (a stake only French Truc reaches, la chanson in trut-gatinaise). Each panel
    drawn is one with data, titled with its variant and row, holding that cell's labels and x labels of its
    own."""
    frame = MULTI[name]
    if name == "trut":  # a second trut variant without the first measure
        measure = frame["measure"][0]
        frame = pl.concat(
            [frame, frame.filter(pl.col("measure") != measure).with_columns(variant=pl.lit("trut-gatine"))]
        )
    else:  # catalan never reaches the highest stake the others reach
        frame = frame.filter(~((pl.col("variant") == "catalan") & (pl.col("stake") == frame["stake"].max())))
    spec = charts.CHARTS[name](frame).to_dict()
    assert spec["facet"]["field"] == "panel"
    labels: dict[str, set[str]] = {}
    for row in chart_rows(spec):
        labels.setdefault(row["panel"], set()).add(row["sample"])
    cells = scene(spec)["cell"]
    drawn = {texts(cell, "title-text")[0]: set(texts(cell, "mark")) for cell in cells}
    assert len({panel.split(" \u00b7 ")[0] for panel in drawn}) > 1
    assert drawn.keys() == labels.keys() and all(drawn[panel] <= labels[panel] for panel in drawn)
    assert all(drawn.values())  # no panel without data
    assert all(texts(cell, "axis-label") for cell in cells)  # every panel its own x labels


def test_a_mostly_empty_grid_is_drawn_as_wrapped_panels_of_the_cells_with_data() -> None:
    """French Truc's raises of any size give it stakes no other variant reaches: rather than a grid of
    mostly empty cells, one panel per (variant, stake) with data, each titled with both, in rows of
    panels."""
    spec = charts.raise_rates(with_french_stakes(MULTI["raise_rates"])).to_dict()
    assert spec["facet"]["field"] == "panel" and 1 < spec["columns"] < len(spec["facet"]["sort"])
    labels = labels_by_cell(spec, "situation")
    panels = spec["facet"]["sort"]
    variants = [panel.split(" \u00b7 ")[0] for panel in panels]
    assert variants == sorted(variants)  # a variant's panels together, variants in order
    french_stakes = [panel for panel in panels if panel.startswith("french \u00b7 Own move")]
    assert french_stakes == [f"french \u00b7 Own move, stake {stake}" for stake in range(1, 12)]
    assert len(panels) == len(labels) < 0.6 * 4 * len({r for _, r in labels})  # the grid's empty cells left out
    drawn = {texts(cell, "title-text")[0]: set(texts(cell, "mark")) for cell in scene(spec)["cell"]}
    assert drawn == {f"{v} \u00b7 {r}": samples for (v, r), samples in labels.items()}


def test_a_row_of_variants_too_wide_for_a_page_wraps() -> None:
    """Four variants of 640 px panels would make one row about 2,800 px wide: two narrower panels a row
    instead, which fit the page; two variants of narrower panels stay side by side."""
    spec = charts.strength_curve(MULTI["strength_curve"]).to_dict()
    assert spec["facet"]["field"] == "variant"
    width = spec["spec"]["width"]
    assert width < 640 and 1 <= spec["columns"] < 4 and spec["columns"] * (width + 60) <= charts._WRAP_WIDTH
    spec = charts.mano_advantage(SAMPLES["mano_advantage"]).to_dict()
    assert spec["facet"]["field"] == "variant" and spec["columns"] == 2


def busy_trut(name: str) -> pl.DataFrame:
    """``MULTI[name]`` with Trut at 2, 3, 4 and 6 players side by side (the 2- and 6-player rows copy the
    4-player ones): the busiest panels a report draws."""
    frame = conform(name, MULTI[name])
    four = frame.filter((pl.col("variant") == "trut") & (pl.col("players") == 4))
    return pl.concat(
        [frame, four.with_columns(players=pl.lit(2, pl.Int64)), four.with_columns(players=pl.lit(6, pl.Int64))]
    )


def label_boxes(spec: dict[str, Any]) -> dict[str, dict[str, tuple[float, float, float, float]]]:
    """The count labels Vega draws in each panel, by their description (unique to a mark), as boxes (left,
    top, right, bottom) from their anchor, angle and font size: a character about 0.62 of the font size
    wide, 0.58 upright at the smaller size, a line as tall as the font."""
    boxes: dict[str, dict[str, tuple[float, float, float, float]]] = {}
    for panel, cell in panels(spec).items():
        found = boxes.setdefault(panel, {})
        for item in items_of(cell, "text"):
            size, chars = item["fontSize"], len(item["text"])
            if item.get("angle") == 270:
                bottom = item["y"] - item.get("dx", 0)
                found[item["description"]] = (
                    item["x"] - size / 2,
                    bottom - chars * 0.58 * size,
                    item["x"] + size / 2,
                    bottom,
                )
            else:
                bottom = item["y"] + item.get("dy", 0)
                half = chars * 0.62 * size / 2
                found[item["description"]] = (item["x"] - half, bottom - size, item["x"] + half, bottom)
    return boxes


def collide(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    """Whether two labels come closer than a pixel."""
    return a[0] < b[2] + 1 and b[0] < a[2] + 1 and a[1] < b[3] + 1 and b[1] < a[3] + 1


def every_label(spec: dict[str, Any]) -> dict[str, Any]:
    """The same chart with every count label drawn, as it was before the labels that do not fit were left
    out."""
    full = json.loads(json.dumps(spec))
    for row in chart_rows(full):
        row["labelled"] = True
    return full


@pytest.mark.parametrize("name", ["strength_curve", "fold_rates", "first_trick_value"])
def test_count_labels_never_overlap_and_are_left_out_only_where_they_would(name: str) -> None:
    """With Trut's four player counts side by side, upright labels are wider than the marks' spacing: in
    each panel no two labels Vega draws come within a pixel, each label left out would overlap one drawn, every player
    count keeps labels, and a panel with room keeps them all. The tooltip keeps every count."""
    frame = busy_trut(name)
    if name == "fold_rates":  # French Truc's stakes 1 to 11: panels two a row, narrower than a grid's cells
        frame = with_french_stakes(frame)
    spec = charts.CHARTS[name](frame).to_dict()
    drawn, whole = label_boxes(spec), label_boxes(every_label(spec))
    for panel, boxes in drawn.items():
        kept = list(boxes.values())
        assert not any(collide(a, b) for i, a in enumerate(kept) for b in kept[i + 1 :]), panel
        left_out = [box for description, box in whole[panel].items() if description not in boxes]
        assert all(any(collide(box, other) for other in kept) for box in left_out), panel
        if not panel.startswith("trut"):
            assert not left_out, panel
    trut_rows = [r for r in chart_rows(spec) if r["variant"] == "trut" and r.get("rate") is not None]
    for players in (2, 3, 4, 6):
        assert any(r["labelled"] for r in trut_rows if r["players"] == players), players
    assert all(r["sample"] for r in trut_rows)  # the tooltip's count stays
    thinned = not all(r["labelled"] for r in trut_rows)
    assert (
        "labels count/sample size where they fit (every one in the tooltip)" in " ".join(spec["title"]["subtitle"])
    ) == thinned
    if name == "first_trick_value":  # upright labels in bars wide enough: none left out
        assert not thinned and layer_of(spec, "text")["mark"]["angle"] == 270
    else:
        assert thinned


# --- policies kept apart, and mirrors ----------------------------------------------------------------


def two_bots(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` twice, as played by the random bot and by a threshold bot (the rows of the second halved), so
    that two bots' rows sit side by side as the statistics of seats' choices return them."""
    random_bot = frame.with_columns(pl.lit("random").alias("policy"))
    threshold = frame.with_columns(pl.lit("threshold raise_at=0.7 call_at=0.5").alias("policy"))
    return pl.concat([random_bot, threshold], how="diagonal_relaxed")


@pytest.mark.parametrize("name", ["fold_rates", "strength_curve", "raise_rates", "bluff_success"])
def test_a_chart_of_two_bots_draws_each_in_rows_of_its_own(name: str) -> None:
    spec = charts.CHARTS[name](two_bots(SAMPLES[name])).to_dict()
    drawn = chart_rows(spec)
    rows = {r["policy_row"] for r in drawn}
    assert {row.split(" \u00b7 ")[0] for row in rows} == {"random", "threshold"}  # each bot named briefly
    one = charts.CHARTS[name](SAMPLES[name]).to_dict()
    assert len(drawn) == 2 * len(chart_rows(one))  # every rate of each, none summed
    assert "policy_row" not in json.dumps(one)  # one policy: the chart as before


def test_findings_of_two_bots_go_policy_by_policy() -> None:
    frame = two_bots(SAMPLES["fold_rates"])
    sentences = summary.summarize({"fold_rates": frame})["fold_rates"]
    alone = summary.fold_rates(SAMPLES["fold_rates"])
    assert len(sentences) == 2 * len(alone)
    assert sorted(s.split(": ", 1)[1] for s in sentences) == sorted([*alone, *alone])
    assert {s.split(": ", 1)[0] for s in sentences} == {"random", "threshold"}
    assert all(isinstance(s, summary.Finding) for s in sentences)  # still ranked by sample on the page


MIRRORED_PLAYERS = pl.DataFrame(
    [
        {**_player("catalan", 4, "random", 560, 1000), "mirror": False},
        {**_player("catalan", 4, "threshold raise_at=0.7", 1000, 2000), "mirror": True,
         "win_rate": None, "ci_low": None, "ci_high": None, "mean_net_points": None},
    ]
)  # fmt: skip


def test_a_bot_that_played_itself_reads_mirror_not_a_result() -> None:
    compared = compared_players(MIRRORED_PLAYERS)
    assert compared.get_column("player").to_list() == ["random", "threshold (mirror)"]
    (sentence,) = summary.player_results(compared)
    assert sentence.startswith("In 4-player catalan, threshold played itself") and "mirror" in sentence
    assert "50%" not in sentence
    assert [r["player"] for r in chart_rows(charts.player_results(compared).to_dict())] == ["random"]
    html = tables.table(compared, PLAYERS)
    assert html.count('<td class="mirror">mirror</td>') == 4  # win rate, its interval, net points


def test_game_results_findings_rank_policies_and_name_mirrors() -> None:
    frame = pl.DataFrame(
        [
            {"variant": "catalan", "players": 2, "policy": "random", "mirror": False, "games": 300, "games_won": 67,
             "win_rate": 67 / 300, "ci_low": 0.18, "ci_high": 0.263, "mean_margin": -4.25, "unit": "points"},
            {"variant": "catalan", "players": 2, "policy": "threshold raise_at=0.7", "mirror": False, "games": 300,
             "games_won": 233, "win_rate": 233 / 300, "ci_low": 0.726, "ci_high": 0.82, "mean_margin": 4.25,
             "unit": "points"},
            {"variant": "catalan", "players": 4, "policy": "threshold raise_at=0.7", "mirror": True, "games": 40,
             "games_won": 20, "win_rate": None, "ci_low": None, "ci_high": None, "mean_margin": None,
             "unit": "points"},
        ]
    )  # fmt: skip
    two, four = summary.game_results(frame)
    assert two.startswith("In 2-player catalan, games won: threshold 78% (233/300; 95% interval 72.6%")
    assert two.index("threshold") < two.index("random") and "+4.25 points a game" in two
    assert "threshold played itself" in four and "50%" not in four
