"""The report's story (issue 24): the answer first (the summary's findings, their order and cap, a bot's design
said as such), the caveats the data calls for and only those, a match's report opening with its verdict, and
``article.md`` beside the page with its sections and charts."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from pipeline.experiments.designs import Settings, run_match
from pipeline.report import claims, context
from pipeline.report.article import ARTICLE
from pipeline.report.claims import Claim, summary_claims
from pipeline.report.frames import GAMES
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
