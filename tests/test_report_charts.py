"""The report's chart functions (through ``to_dict()``) and its written findings, on hand-made frames."""

from __future__ import annotations

from typing import Any

import polars as pl
import pytest

from pipeline.report import charts, summary
from pipeline.report.frames import CONTRACT, STATISTICS, conform, fmt_pct, interval_label
from tests.report_samples import sample_frames, wilson

SAMPLES = sample_frames()


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


def one_setting(name: str, **key: Any) -> pl.DataFrame:
    frame = SAMPLES[name]
    for column, value in key.items():
        frame = frame.filter(pl.col(column) == value)
    return frame


# --- every chart: the common grammar ------------------------------------------------------------------


@pytest.mark.parametrize("name", STATISTICS)
def test_every_statistic_has_a_chart_and_a_summary(name: str) -> None:
    assert name in charts.CHARTS
    assert name in summary.SUMMARIES


@pytest.mark.parametrize("name", STATISTICS)
def test_chart_draws_rate_interval_and_sample_size(name: str) -> None:
    spec = charts.CHARTS[name](SAMPLES[name]).to_dict()
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
    assert spec["facet"]["column"]["field"] == "variant"
    assert spec["facet"]["column"]["sort"] == ["catalan", "valencian"]
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
    assert spec["title"]["text"] and spec["title"]["subtitle"]
    assert main["x"]["title"] and main["y"]["title"]


@pytest.mark.parametrize("name", STATISTICS)
def test_chart_copes_with_empty_frames(name: str) -> None:
    for frame in (pl.DataFrame(), conform(name, pl.DataFrame())):
        spec = charts.CHARTS[name](frame).to_dict()
        assert chart_rows(spec) == []
        assert layer_of(spec, "rule")


@pytest.mark.parametrize("name", STATISTICS)
def test_chart_leaves_out_groups_without_a_sample(name: str) -> None:
    frame = conform(name, SAMPLES[name])
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
    reference = [layer for layer in layers(spec) if layer["encoding"].get("y", {}).get("datum") == 0.5]
    assert len(reference) == 1
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
    assert spec["facet"]["row"]["field"] == "situation"
    assert spec["facet"]["row"]["sort"] == ["Facing a raise to 2 (truc)", "Facing a raise to 3 (retruc)"]
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
    assert spec["facet"]["row"]["sort"] == ["Raise to 2 (truc)", "Raise to 3 (retruc)"]
    no_bluffs = [r for r in chart_rows(spec) if r["variant"] == "valencian" and r["players"] == 4 and r["stake"] == 3]
    assert [(r["measure"], r["sample"]) for r in no_bluffs] == [("Raises that were bluffs", "0/751")]


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
    assert layers(spec)[0]["encoding"]["x"]["sort"] == ["1 (no raise)", "2 (truc)", "3 (retruc)"]


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
    assert spec["facet"]["row"]["sort"] == [
        "Own move, stake 1 (no raise)",
        "Own move, stake 2 (truc)",
        "Answering a raise, stake 1 (no raise)",
    ]
    assert layers(spec)[0]["encoding"]["x"]["sort"] == ["Before play", "Trick 1", "Trick 2", "Trick 3"]


def test_many_bars_turn_the_labels_upright() -> None:
    spec = charts.strength_curve(SAMPLES["strength_curve"]).to_dict()
    assert layer_of(spec, "text")["mark"]["angle"] == 270
    spec = charts.mano_advantage(SAMPLES["mano_advantage"]).to_dict()
    assert "angle" not in layer_of(spec, "text")["mark"]


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


@pytest.mark.parametrize("name", STATISTICS)
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
        "In 2-player catalan, the eldest hand's team won 55% of hands (760/1,380; 95% interval "
        "52.4%\u201357.7%): an advantage. It scored 0.20 more points per hand than the other team.",
        "In 4-player catalan, the eldest hand's team won 50% of hands (1,000/2,000; 95% interval "
        "47.8%\u201352.2%): no clear advantage either way. It scored 0.05 fewer points per hand than the "
        "other team.",
    ]


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
        "In 2-player catalan, a seat's team won 20% of hands with the weakest hands (decile 2, 100/500) "
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
        "In 4-player valencian, 70% of 1,000 hands ended at stake 1 (no raise), 25% at 2 (truc) and 5.0% at "
        "3 (retruc). A hand was worth 1.35 points on average."
    ]


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
        "In 2-player catalan, with the stake at 1 (no raise), players raised on their own move at 5.0% of "
        "their chances in trick 1 (50/1,000) and 25% in trick 2 (200/800).",
        "In 2-player catalan, with the stake at 1 (no raise), players answered a raise by raising back at "
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
        "In 4-player catalan, trick 1 was tied in 6.2% of hands (565/9,120) and trick 2 in 2.0% of the hands "
        "that played it (80/4,000); a tie rule decided 1.1% of hands (100/9,120)."
    ]
