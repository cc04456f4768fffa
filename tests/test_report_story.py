"""The report's story (issue 24): the answer first (the summary's findings, their order and cap, a bot's design
said as such), the caveats the data calls for and only those, a match's report opening with its verdict, and
``article.md`` beside the page with its sections and charts."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from pipeline import store
from pipeline.experiments.designs import Settings, parse_vary, run_match, run_sweep, run_tournament
from pipeline.report import claims, context, experiments
from pipeline.report.article import ARTICLE
from pipeline.report.claims import Claim, summary_claims
from pipeline.report.frames import GAMES, fmt_pct
from pipeline.report.page import ReportResult, build_report

THRESHOLD = "threshold raise_at=0.7 call_at=0.5 bluff=0.1"


def claim(statistic: str, value: float, low: float, high: float, null: float = 0.5, **kw: Any) -> Claim:
    return Claim(statistic, "catalan", 2, f"{statistic} {value}", value, low, high, null, 100, **kw)


def test_the_summary_puts_games_first_then_the_clearest_and_keeps_ten() -> None:
    weak_game = claim(GAMES, 0.53, 0.51, 0.55)  # clarity 1.5: the least clear, yet first
    names = ("mano_advantage", "first_trick_value", "strength_curve", "fold_rates")
    ks = [(name, 2 + 4 * i + j) for i, name in enumerate(names) for j in range(4)]  # 4 findings a statistic
    others = [claim(name, 0.5 + k / 100, 0.5 + k / 100 - 0.01, 0.5 + k / 100 + 0.01) for name, k in ks]
    undecided = claim("mano_advantage", 0.9, 0.2, 0.99)  # its interval holds the null: never in the summary
    designed = claim("fold_rates", 0.9, 0.89, 0.91, null=0.0, design="the threshold bot's own parameters (call_at)")
    shown = summary_claims([*others, undecided, designed, weak_game])
    assert len(shown) == claims.MAX_SUMMARY
    assert shown[0] is weak_game
    assert undecided not in shown
    clarity = [c.clarity for c in shown[1:]]
    assert clarity == sorted(clarity, reverse=True)
    assert shown[1].value == 0.67  # the largest effect for the same half-width
    for name in names:  # however clear, one statistic's findings (one per setting) do not fill the summary
        assert sum(c.statistic == name for c in shown) <= claims.MAX_PER_STATISTIC
    counts = {name: sum(c.statistic == name for c in shown) for name in names}
    assert counts == {"fold_rates": 3, "strength_curve": 3, "first_trick_value": 3, "mano_advantage": 0}
    assert 0.64 not in [c.value for c in shown]  # fold_rates' fourth, clearer than every one shown after it
    assert designed not in shown  # a bot's rule, however clear, comes after the findings about the game
    assert summary_claims([designed, others[0]]) == [others[0], designed]


def fold_frame(variant: str, policy: str) -> pl.DataFrame:
    rows = [
        {"variant": variant, "players": 2, "policy": policy, "stake": 2, "decile": decile, "facing": 200,
         "folds": folds, "fold_rate": folds / 200}
        for decile, folds in ((1, 190), (5, 100), (10, 4))
    ]  # fmt: skip
    return pl.DataFrame(rows)


def test_a_finding_that_follows_from_a_bot_s_parameter_is_labelled_as_its_design() -> None:
    (catalan,) = claims.all_claims({"fold_rates": fold_frame("catalan", THRESHOLD)})
    assert catalan.excludes_null and catalan.value == pytest.approx(0.93)
    assert catalan.design is not None and "call_at" in catalan.design
    assert "ladder_step" not in catalan.design  # valencian reads it, catalan does not
    assert catalan.sentence.startswith("Bot design, not a finding about the game: ")
    (valencian,) = claims.all_claims({"fold_rates": fold_frame("valencian", THRESHOLD)})
    assert valencian.design is not None and "ladder_step" in valencian.design
    (random,) = claims.all_claims({"fold_rates": fold_frame("catalan", "random")})
    assert random.design is None and not random.sentence.startswith("Bot design")


def games(policy: str, mirror: bool = False, players: int = 4) -> dict[str, Any]:
    return {"variant": "catalan", "players": players, "policy": policy, "mirror": mirror, "games": 400,
            "games_won": 200 if mirror else 260, "win_rate": None if mirror else 0.65,
            "ci_low": None if mirror else 0.6, "ci_high": None if mirror else 0.7, "unit": "points"}  # fmt: skip


def kinds(frames: dict[str, pl.DataFrame], manifests: dict[str, dict[str, Any]]) -> list[str]:
    return [c.kind for c in context.caveats(frames, manifests)]


def test_caveats_appear_when_their_condition_holds_and_not_otherwise() -> None:
    bots = {"run": {"variant": "catalan", "players": 4, "policies": {"0": THRESHOLD, "1": "random"}}}
    plain = {GAMES: pl.DataFrame([games(THRESHOLD)]), "variant_comparison": pl.DataFrame(
        [{"variant": "catalan", "players": 4, "games": 5000}])}  # fmt: skip
    assert kinds(plain, {}) == []  # imported games (no bots named), a large sample, no mirror, no mixed team
    assert kinds(plain, bots) == ["card-play"]  # bots play their cards by rule
    mirrored = {**plain, GAMES: pl.DataFrame([games(THRESHOLD, mirror=True)])}
    assert kinds(mirrored, {}) == ["mirror"]
    (mirror,) = context.caveats(mirrored, {})
    assert "by construction" in mirror.text and "no clear difference" not in mirror.text
    mixed = {**plain, GAMES: pl.DataFrame([games(f"{THRESHOLD} + random")])}
    assert kinds(mixed, {}) == ["partners"]
    small = {**plain, "variant_comparison": pl.DataFrame([{"variant": "catalan", "players": 4, "games": 999}])}
    assert kinds(small, {}) == ["small"]
    other = {"variant": "catalan", "players": 4, "policies": {"0": THRESHOLD, "1": THRESHOLD}}
    assert "pooled" in kinds(plain, {**bots, "other": other})
    assert "pooled" not in kinds(plain, {**bots, "same": dict(bots["run"])})


@pytest.fixture(scope="module")
def match_report(tmp_path_factory: pytest.TempPathFactory) -> ReportResult:
    """A real `truc match` (threshold against random, 2-player catalan, 60 games) and its report."""
    root = tmp_path_factory.mktemp("match")
    settings = Settings(variant="catalan", games=60, seed=11, options={"players": "2"}, workers=1)
    run_match(settings, "threshold", "random", root / "data")
    return build_report([root / "data"], root / "report")


def test_a_match_report_opens_with_its_verdict(match_report: ReportResult) -> None:
    page = match_report.html.read_text("utf-8")
    summary = page.split('<section id="summary">', 1)[1].split("</section>", 1)[0]
    first = re.search(r"<h2>Summary</h2>\s*<p class=\"verdict\">(.*?)</p>", summary, re.S)
    assert first, summary[:300]
    verdict = first.group(1)
    assert verdict.startswith("In 2-player catalan, A (threshold") and "against B (random)" in verdict
    assert re.search(r"95% interval \d+\.\d%–\d+\.\d% over 30 pairs", verdict)
    assert "A plays better" in verdict or "no clear difference" in verdict or "B plays better" in verdict
    assert summary.index('class="verdict"') < summary.index('data-chart="match"')
    items = " ".join(re.findall(r"<li[^>]*>(.*?)</li>", summary))
    assert items and "games" not in items and "against B" not in items  # the verdict is not said twice
    assert page.index('id="summary"') < page.index('id="methods"') < page.index('id="results"')
    assert page.index('id="results"') < page.index('id="caveats"') < page.index('id="appendix"')
    results = page.split('<section id="results">', 1)[1]
    assert results.index('id="experiment-match"') < results.index('id="stat-variant_comparison"')
    choices = results.split('id="experiment-match"', 1)[1].split("</section>", 1)[0]
    assert "side by side" in choices and "Raises a hand" in choices and "random" in choices
    assert list(match_report.png)[0] == "match"
    assert "<details open>" not in page.split('<section id="appendix">', 1)[1]  # the appendix folded


def test_article_md_has_the_page_s_sections_and_its_charts_exist(match_report: ReportResult) -> None:
    article = (match_report.out / ARTICLE).read_text("utf-8")
    headings = re.findall(r"^## (.+)$", article, re.M)
    assert headings == ["Summary", "Methods", "Results", "Caveats"]
    assert article.startswith("# Truc Lab report\n\n**In 2-player catalan, A (threshold")
    links = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", article)
    assert links and links[0] == "charts/match.png"
    assert all(not Path(link).is_absolute() and (match_report.out / link).is_file() for link in links)
    assert {f"charts/{name}.png" for name in match_report.png} == set(links)
    page = match_report.html.read_text("utf-8")
    summary = article.split("## Summary", 1)[1].split("## Methods", 1)[0]
    for item in re.findall(r"^\d+\. (.+)$", summary, re.M):  # the same findings as the page's
        assert item.replace("'", "&#x27;") in page
    assert "| catalan | 2 |" in article  # Methods: the run's table
    results = article.split("## Results", 1)[1]
    assert results.startswith("\n\n### The match\n\n| Side | Policy | Games won | Win rate | 95% interval (pairs) |")


@pytest.fixture(scope="module")
def experiments_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A real tournament (three entrants) and a real sweep (two grid points against random), 20 games a match."""
    root = tmp_path_factory.mktemp("experiments")
    settings = Settings(variant="catalan", games=20, seed=5, options={"players": "2"}, workers=1)
    run_tournament(settings, ["threshold", "random", "threshold:raise_at=0.9"], root / "tournament")
    run_sweep(settings, "threshold", [parse_vary("raise_at=0.5,0.9")], "random", root / "sweep")
    return {"tournament": root / "tournament", "sweep": root / "sweep"}


def found_in(folder: Path) -> experiments.Experiment:
    manifests = {str(path): store.read_manifest(path) for path in store.expand_datasets([folder])}
    (found,) = experiments.find([folder], manifests)
    return found


def test_a_tournament_reports_its_matrix_ratings_and_nash_mixture_as_it_wrote_them(
    experiments_run: dict[str, Path],
) -> None:
    found = found_in(experiments_run["tournament"])
    written = json.loads((experiments_run["tournament"] / "experiment.json").read_text("utf-8"))
    assert found.kind == "tournament" and found.content == written
    best = max(written["policies"], key=lambda row: row["rating"])
    said = experiments.verdict(found)
    assert said.startswith(f"In 2-player catalan, {best['policy']} rates highest of 3 entrants: ")
    assert f"{best['rating']:+.0f} Elo" in said and "Nash mixture plays" in said
    name, chart = experiments.chart(found) or ("", None)
    spec = chart.to_dict()  # type: ignore[union-attr]
    assert name == "tournament" and spec["layer"][0]["mark"]["type"] == "rect"
    cells = {(c["row"][:2], c["column"][:2]): c["win_rate"] for c in spec["data"]["values"]}
    for match in written["matrix"]:  # each cell the match's own rate, the mirror cell its complement
        i = next(k for k, row in enumerate(written["policies"]) if row["policy"] == match["a"]) + 1
        j = next(k for k, row in enumerate(written["policies"]) if row["policy"] == match["b"]) + 1
        assert cells[(f"{i}.", f"{j}.")] == match["a_win_rate"]
        assert cells[(f"{j}.", f"{i}.")] == pytest.approx(1 - match["a_win_rate"])
    head, rows = experiments.table_rows(found)
    assert head[:2] == ["Entrant", "Rating (Elo)"] and rows[0][0] == best["policy"]  # best rated first


def test_a_sweep_reports_its_best_point_on_fresh_seeds_and_its_grid(experiments_run: dict[str, Path]) -> None:
    found = found_in(experiments_run["sweep"])
    best = found.content["best"]
    said = experiments.verdict(found)
    assert f"the best point of threshold's grid is raise_at={best['params']['raise_at']}" in said
    assert f"won {fmt_pct(best['win_rate'])} of {best['games']} games against random" in said
    name, chart = experiments.chart(found) or ("", None)
    values = chart.to_dict()["data"]["values"]  # type: ignore[union-attr]
    assert name == "sweep" and [v["x"] for v in values] == [0.5, 0.9]
    assert [v["best"] for v in values] == [v["x"] == best["params"]["raise_at"] for v in values]
    assert [v["y"] for v in values] == [p["win_rate"] for p in found.content["points"]]


def test_methods_say_once_what_every_dataset_shares() -> None:
    run = context.Run(
        "data/a", "simulation", "catalan", "2", "signals=off", "10 games", ["seat 0: random"], "7", "none"
    )
    other = context.Run("data/b", "simulation", "catalan", "4", "signals=off", "10 games", ["seats 0, 2: random"], "7",
                        "none")  # fmt: skip
    head, rows, shared = context.methods_table([run, other])
    assert head == ["Dataset", "Players", "Games", "Bots (seats: bot)"]
    assert rows[0] == ["a", "2", "10 games", ["seat 0: random"]]
    assert shared == [
        "Datasets: under data", "Variant: catalan (every dataset)", "Options: signals=off (every dataset)",
        "Seed: 7 (every dataset)", "Pairing: none (every dataset)",
    ]  # fmt: skip
    assert context.methods_table([run])[0][-2:] == ["Seed", "Pairing"]  # one dataset: every column


def test_the_first_trick_s_difference_has_the_interval_of_one_rate_doubled_with_two_sides() -> None:
    row = {"variant": "catalan", "players": 2, "hands": 1000, "p_win_won_first": 0.75, "ci_low_won_first": 0.72,
           "ci_high_won_first": 0.78, "p_win_lost_first": 0.25, "ci_low_lost_first": 0.22,
           "ci_high_lost_first": 0.28}  # fmt: skip
    (found,) = claims.all_claims({"first_trick_value": pl.DataFrame([row])})
    assert (found.value, found.low, found.high) == pytest.approx((0.5, 0.44, 0.56))  # not +/- 0.042 combined
    assert found.null == 0.0 and found.n == 1000 and "+50.0 pp" in found.text


def test_the_charts_go_to_the_drawing_workers_largest_first_and_ties_keep_their_order() -> None:
    from pipeline.report.page import _largest_first

    frames = {name: pl.DataFrame({"x": list(range(rows))}) for name, rows in (("a", 1), ("b", 3), ("c", 3), ("d", 0))}
    assert _largest_first(["a", "b", "c", "d"], frames) == ["b", "c", "a", "d"]
