"""The experiment commands: paired matches, tournaments and sweeps, played for real and read back."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.experiments.designs import Settings, grid, parse_vary, run_match, run_sweep, run_tournament
from pipeline.experiments.runner import ExperimentError
from pipeline.store import read_manifest

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def seats_of(root: Path) -> pl.DataFrame:
    return pl.read_parquet(root / "seats" / "*.parquet")


# ------------------------------------------------------------------------------------------------ pairing


@pytest.mark.parametrize(
    ("variant", "options", "a", "b"),
    [
        ("catalan", {"players": "2"}, "threshold:nocut=0.9,one_card=1", "random"),
        ("catalan", {"players": "4"}, "threshold", "random"),
        ("valencian", {"players": "2"}, "threshold", "random"),
        ("french", {"players": "2"}, "threshold", "random"),
        ("trut", {"players": "2"}, "threshold", "random"),
        ("trut-gatine", {"players": "2"}, "threshold", "random"),
    ],
)
def test_the_two_games_of_a_pair_deal_the_same_cards_to_the_same_seats_in_every_hand(
    tmp_path: Path, variant: str, options: dict[str, str], a: str, b: str
) -> None:
    """Read from the stored seats' cards: in every hand both games of a pair play, each seat holds the same
    cards (the first card of them, where one game dealt one card and the other three), while the seats'
    policies are swapped."""
    out = tmp_path / "m"
    run_match(Settings(variant, 40, 5, options, workers=1), a, b, out)
    manifest = read_manifest(out)
    seats = seats_of(out)
    games = pl.read_parquet(out / "games" / "*.parquet")
    rubbers = games["match_no"].null_count() == 0
    if rubbers:  # game k of rubber 2p and game k of rubber 2p+1 share their seed
        keys = games.select(
            "game_id",
            pair=pl.col("match_no") // 2,
            leg=pl.col("match_no") % 2,
            k=pl.col("game_id") - pl.col("match_no") * 3,
        )
    else:
        keys = games.select("game_id", pair=pl.col("game_id") // 2, leg=pl.col("game_id") % 2, k=pl.lit(0))
    deals = (
        pl.read_parquet(out / "events" / "*.parquet")
        .filter(pl.col("verb") == "dealt")
        .group_by("game_id", "hand_no")
        .agg(deals=pl.len(), first_deal=pl.col("arg").sort_by("seq").first())
    )
    seats = seats.join(keys, on="game_id").join(deals, on=["game_id", "hand_no"])
    first = seats.filter(pl.col("leg") == 0)
    second = seats.filter(pl.col("leg") == 1)
    both = first.join(second, on=["pair", "k", "hand_no", "seat"], suffix="_2")
    assert both.height > 0.5 * first.height  # most hands are played in both games of their pair
    assert (both["policy"] != both["policy_2"]).all()
    # the first deal of every hand: the same cards to the same seats (one card each where one game dealt one
    # card and the other three: the first cards of the same shuffle)
    dealt = both.select(
        pl.col("first_deal").str.split(" ").list.get(pl.col("seat")).str.split(":").list.last().str.split(","),
        pl.col("first_deal_2").str.split(" ").list.get(pl.col("seat")).str.split(":").list.last().str.split(","),
    )
    for mine, theirs in dealt.iter_rows():
        assert mine[: len(theirs)] == theirs[: len(mine)] if len(mine) == 1 or len(theirs) == 1 else mine == theirs
    # the seats' cards, where neither game redealt the hand and both dealt as many cards
    undisturbed = both.filter(
        (pl.col("deals") == 1)
        & (pl.col("deals_2") == 1)
        & (pl.col("cards").str.count_matches(" ") == pl.col("cards_2").str.count_matches(" "))
    )
    assert undisturbed.height > 0.25 * both.height
    assert (undisturbed["cards"] == undisturbed["cards_2"]).all()
    assert manifest["experiment"]["pairs"] == 20 and manifest["experiment"]["paired"]
    if variant == "catalan" and options["players"] == "2":
        dealt_one = seats.filter(pl.col("cards").str.count_matches(" ") == 0)
        assert dealt_one.height > 0  # one-card deals were played, and the pairs held through them


def test_games_of_a_match_use_the_pair_seed_and_unpaired_games_do_not(tmp_path: Path) -> None:
    run_match(Settings("catalan", 20, 3, {"players": "2"}, workers=1), "threshold", "random", tmp_path / "p")
    run_match(
        Settings("catalan", 20, 3, {"players": "2"}, workers=1, paired=False), "threshold", "random", tmp_path / "u"
    )
    paired = pl.read_parquet(tmp_path / "p" / "games" / "*.parquet").sort("game_id")["seed"].to_list()
    unpaired = pl.read_parquet(tmp_path / "u" / "games" / "*.parquet").sort("game_id")["seed"].to_list()
    assert all(paired[2 * p] == paired[2 * p + 1] for p in range(10))
    assert len(set(unpaired)) == 20


# ------------------------------------------------------------------------------------------------ results


def test_a_mirror_match_says_mirror(tmp_path: Path) -> None:
    code, out, err = run(
        "match", "--a", "threshold", "--b", "threshold:raise_at=0.7", "--games", "40", "--seed", "2",
        "--workers", "1", "--quiet", "--out", str(tmp_path / "m"),
    )  # fmt: skip
    assert code == 0, err
    assert "mirror" in out.splitlines()[0]
    code, out, err = run(
        "match", "--a", "threshold", "--b", "threshold", "--games", "40", "--seed", "2", "--workers", "1",
        "--quiet", "--format", "json", "--out", str(tmp_path / "j"),
    )  # fmt: skip
    assert code == 0, err
    assert json.loads(out)["mirror"] is True
    assert read_manifest(tmp_path / "j")["experiment"]["mirror"] is True


def test_a_real_match_is_not_a_mirror_and_prints_the_answer_first(tmp_path: Path) -> None:
    code, out, err = run(
        "match", "--a", "threshold", "--b", "random", "--games", "200", "--seed", "4", "--workers", "1",
        "--quiet", "--out", str(tmp_path / "m"),
    )  # fmt: skip
    assert code == 0, err
    first = out.splitlines()[0]
    assert first.startswith("A wins ") and "of 200 games (100 pairs): A better, p < 0.001" in first


def _win_rate(tmp_path: Path, variant: str, a: str, b: str, games: int, seed: int) -> float:
    result = run_match(Settings(variant, games, seed, {"players": "2"}, workers=2), a, b, tmp_path / f"{variant}{seed}")
    return result.analysed.win_rate


def test_threshold_wins_most_games_against_random(tmp_path: Path) -> None:
    assert _win_rate(tmp_path, "catalan", "threshold", "random", 2000, 1) > 0.75
    assert _win_rate(tmp_path, "valencian", "threshold", "random", 1000, 1) > 0.90


def test_a_bot_that_calls_too_rarely_is_detected_in_10000_games(tmp_path: Path) -> None:
    """``call_at=0.8`` folds too often: about 4 points of win rate worse than the default bot."""
    result = run_match(
        Settings("catalan", 10_000, 7, {"players": "2"}, workers=2),
        "threshold:call_at=0.8",
        "threshold",
        tmp_path / "m",
    )
    analysed = result.analysed
    assert analysed.ci_high is not None and analysed.ci_high < 0.5
    assert analysed.p_value is not None and analysed.p_value < 0.05
    assert analysed.better() == "b" and "B better" in analysed.verdict()


def test_the_same_seed_gives_the_same_results_with_any_number_of_workers(tmp_path: Path) -> None:
    outputs = []
    for workers in (1, 2):
        code, out, err = run(
            "match", "--a", "threshold:bluff=0.3", "--b", "threshold", "--games", "600", "--seed", "11",
            "--workers", str(workers), "--quiet", "--format", "json", "--out", str(tmp_path / f"w{workers}"),
        )  # fmt: skip
        assert code == 0, err
        outputs.append(json.loads(out))
    assert outputs[0] == outputs[1]
    tables = [
        pl.read_parquet(tmp_path / f"w{w}" / "events" / "*.parquet").sort("game_id", "hand_no", "seq") for w in (1, 2)
    ]
    assert tables[0].equals(tables[1])


def test_unpaired_mirror_intervals_are_calibrated(tmp_path: Path) -> None:
    """Over 200 seeds of a mirror played without pairing, the 95% interval of A's win rate covers 50% in 90
    to 99% of the runs."""
    covered = 0
    for seed in range(200):
        result = run_match(
            Settings("catalan", 60, seed, {"players": "2"}, workers=1, paired=False),
            "threshold",
            "threshold",
            tmp_path / f"s{seed}",
        )
        low, high = result.analysed.ci_low, result.analysed.ci_high
        assert low is not None and high is not None
        covered += low <= 0.5 <= high
    assert 180 <= covered <= 198


def test_pairing_reduces_the_variance_of_the_estimate(tmp_path: Path) -> None:
    result = run_match(
        Settings("catalan", 2000, 3, {"players": "2"}, workers=2), "threshold:bluff=0.3", "threshold", tmp_path / "m"
    )
    assert result.analysed.variance_ratio is not None and result.analysed.variance_ratio > 1.2


# ----------------------------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--games", "7"], "--games must be an even number between 2 and 9223372036854775807"),
        (["--games", "0"], "--games must be an even number between 2 and"),
        (["--games", "9" * 22 + "8"], "--games must be an even number between 2 and"),
        (["--a", "threshold:raise_at=2"], "raise_at"),
        (["--b", "minimax"], "unknown policy 'minimax'"),
        (["--variant", "trut", "--players", "3"], "a match opposes two"),
        (["--seed", "-1"], "--seed must be between 0 and"),
        (["--format", "xml"], "xml"),
    ],
)
def test_a_bad_match_is_one_line_error(tmp_path: Path, args: list[str], message: str) -> None:
    base = {"--a": "threshold", "--b": "random", "--games": "4", "--out": str(tmp_path / "m")}
    for key, value in zip(args[::2], args[1::2], strict=True):
        base[key] = value
    code, out, err = run("match", "--quiet", *[x for pair in base.items() for x in pair])
    assert code != 0
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not (tmp_path / "m").exists()


@pytest.mark.parametrize(
    ("vary", "message"),
    [
        ("raise_at", "is not of the form KEY=START:STOP:STEP"),
        ("raise_at=0.5:0.9", "a range is START:STOP:STEP"),
        ("raise_at=0.5:0.95:0.1", "not a whole number of steps"),
        ("raise_at=0.9:0.5:0.1", "STEP must be positive and STOP at least START"),
        ("raise_at=a:b:c", "must be numbers"),
        ("raise_at=0.1,0.1", "gives a value twice"),
        ("raise_at=0.5,1.5", "raise_at"),
        ("nonsense=0.1,0.2", "nonsense"),
    ],
)
def test_a_bad_grid_is_one_line_error(tmp_path: Path, vary: str, message: str) -> None:
    code, out, err = run("sweep", "--vary", vary, "--games", "4", "--quiet", "--out", str(tmp_path / "s"))
    assert code != 0
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not (tmp_path / "s").exists()


def test_a_range_includes_both_ends_and_keeps_its_decimals() -> None:
    assert parse_vary("raise_at=0.5:0.95:0.05").values == tuple(f"{x / 100:g}" for x in range(50, 96, 5))
    assert parse_vary("bluff=0,0.1,0.2").values == ("0", "0.1", "0.2")
    points, specs = grid("threshold:lie=0.1", [parse_vary("bluff=0,0.3"), parse_vary("call_at=0.4:0.5:0.1")])
    assert points[0] == {"bluff": "0", "call_at": "0.4"} and len(points) == 4
    assert specs[-1] == "threshold:lie=0.1,bluff=0.3,call_at=0.5"
    with pytest.raises(ExperimentError, match="sets it already"):
        grid("threshold:bluff=0.1", [parse_vary("bluff=0,0.3")])


# ------------------------------------------------------------------------------------- tournament and sweep


def test_a_tournament_ranks_the_bots_and_finds_the_meta_game(tmp_path: Path) -> None:
    entrants = ["random", "threshold", "threshold:call_at=0.8"]
    found = run_tournament(Settings("catalan", 400, 3, {"players": "2"}, workers=2), entrants, tmp_path / "t")
    ratings = dict(zip(entrants, found.ratings, strict=True))
    assert ratings["threshold"] > ratings["threshold:call_at=0.8"] > ratings["random"]
    assert abs(sum(found.ratings)) < 1e-6
    assert abs(sum(found.nash) - 1) < 1e-6 and found.nash[0] < 1e-6  # random is never played
    assert found.exploitability[0] > 0.25  # threshold beats random by far
    content = json.loads((tmp_path / "t" / "experiment.json").read_text())
    assert {p["policy"] for p in content["policies"]} == set(found.labels)
    assert len(content["matrix"]) == 3
    # every match is a dataset on the same game seeds (common random numbers)
    seeds = [
        pl.read_parquet(tmp_path / "t" / name / "games" / "*.parquet").sort("game_id")["seed"].to_list()
        for name in ("match-01-02", "match-01-03", "match-02-03")
    ]
    assert seeds[0] == seeds[1] == seeds[2]
    code, out, err = run("stats", "game_results", "--data", str(tmp_path / "t"), "--format", "json")
    assert code == 0, err


def test_a_sweep_confirms_its_best_point_on_fresh_seeds(tmp_path: Path) -> None:
    found = run_sweep(
        Settings("catalan", 200, 5, {"players": "2"}, workers=2),
        "threshold",
        [parse_vary("call_at=0.2,0.5,0.9")],
        "threshold",
        tmp_path / "s",
    )
    rates = [m.analysed.win_rate for m in found.matches]
    assert found.best == rates.index(max(rates))
    assert found.confirm is not None
    confirm_seeds = set(pl.read_parquet(tmp_path / "s" / "confirm" / "games" / "*.parquet")["seed"].to_list())
    grid_seeds = set(pl.read_parquet(tmp_path / "s" / "point-001" / "games" / "*.parquet")["seed"].to_list())
    assert not confirm_seeds & grid_seeds
    content = json.loads((tmp_path / "s" / "experiment.json").read_text())
    assert [p["params"] for p in content["points"]] == [{"call_at": 0.2}, {"call_at": 0.5}, {"call_at": 0.9}]
    assert content["best"]["params"] == content["points"][found.best]["params"]


def test_a_sweep_against_itself_gives_the_grids_nash_mixture(tmp_path: Path) -> None:
    code, out, err = run(
        "sweep", "--vary", "call_at=0.1,0.5,0.95", "--against", "self", "--games", "200", "--seed", "2",
        "--workers", "2", "--quiet", "--format", "json", "--out", str(tmp_path / "s"),
    )  # fmt: skip
    assert code == 0, err
    content = json.loads(out)
    assert abs(sum(point["weight"] for point in content["nash"]) - 1) < 1e-6
    assert len(content["matrix"]) == 3


def test_a_grid_point_that_is_the_opponent_says_mirror(tmp_path: Path) -> None:
    args = ["sweep", "--players", "2", "--vary", "bluff=0.1,0.3", "--games", "40", "--workers", "1", "--quiet"]
    code, out, err = run(*args, "--format", "json", "--out", str(tmp_path / "j"))
    assert code == 0, err
    mirrors = [point["mirror"] for point in json.loads(out)["points"]]
    assert mirrors == [True, False]  # bluff=0.1 is the default threshold bot, the opponent
    code, out, err = run(*args, "--out", str(tmp_path / "t"))
    assert code == 0, err
    row = next(line for line in out.splitlines() if line.startswith("| 0.1 "))
    assert row.count("mirror") == 7


def test_overwrite_replaces_what_each_command_s_help_says(tmp_path: Path) -> None:
    """A match writes a dataset, so ``--overwrite`` replaces a dataset (its help says so, as simulate's does); a
    tournament writes an experiment folder, so its ``--overwrite`` replaces only such a folder, never a dataset."""
    assert "a dataset and nothing else" in " ".join(runner.invoke(app, ["match", "--help"]).stdout.split())
    assert "this command's own output" in " ".join(runner.invoke(app, ["tournament", "--help"]).stdout.split())
    data = tmp_path / "d"
    assert run("simulate", "--games", "2", "--quiet", "--out", str(data))[0] == 0
    match = ["match", "--a", "threshold", "--b", "random", "--games", "2", "--quiet", "--out", str(data)]
    assert run(*match, "--overwrite")[0] == 0
    code, _, err = run(
        "tournament", "--policy", "threshold", "--policy", "random", "--games", "2", "--quiet", "--overwrite",
        "--out", str(data),
    )  # fmt: skip
    assert code == 1 and f"{data} exists and is not" in err


def test_a_match_keeps_its_pairs_in_compact_arrays_that_add_up_to_its_games(tmp_path: Path) -> None:
    """9 bytes a pair rather than a list's 40: a tournament of a billion games keeps half a billion pairs. The
    arrays gathered from two workers' chunks still hold one score and one margin per pair, in pair order."""
    outcome = run_match(
        Settings("catalan", 600, 2, {"players": "2"}, workers=2), "threshold", "random", tmp_path / "m"
    ).outcome
    assert (outcome.scores.typecode, outcome.margins.typecode) == ("b", "d")
    assert len(outcome.scores) == len(outcome.margins) == 300
    assert sum(outcome.scores) == outcome.a_games_won and outcome.games == 600
    assert outcome.scores.itemsize + outcome.margins.itemsize == 9
