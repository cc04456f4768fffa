"""The ``cfr`` bot and its training (``pipeline.policies.cfr``, ``pipeline.openspiel.mccfr``, ``truc train``):
MCCFR converges where it can be measured exactly, a checkpoint resumes to the same file, the abstraction sees
only what the seat saw, and a bad policy file is one line."""

from __future__ import annotations

import gzip
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from typer.testing import CliRunner  # noqa: E402

from pipeline.cli import app  # noqa: E402
from pipeline.engine.game import new_game  # noqa: E402
from pipeline.engine.view import SeatView  # noqa: E402
from pipeline.openspiel.bots import state_policy  # noqa: E402
from pipeline.openspiel.duel import duel  # noqa: E402
from pipeline.openspiel.figures import load_small_game  # noqa: E402
from pipeline.openspiel.mccfr import TrainConfig, _Trainer, checkpoint_path, train_policy  # noqa: E402
from pipeline.openspiel.solve import export_tree  # noqa: E402
from pipeline.openspiel.teach import FIFTHS, profile  # noqa: E402
from pipeline.playing import play_with_engine  # noqa: E402
from pipeline.policies import parse_policy  # noqa: E402
from pipeline.policies.cfr import Abstraction, CfrPolicy, read_policy, write_policy  # noqa: E402
from pipeline.variants import VARIANTS  # noqa: E402

REDUCED_TRUT = (("deck", "8"), ("players", "2"))
CATALAN = (("players", "2"),)


def a_deal(game: Any, rng: random.Random) -> Any:
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
    return state


def test_mccfr_on_one_deal_of_reduced_trut_converges_by_the_exact_best_response(tmp_path: Path) -> None:
    """Trained on one deal of the 8-card Trut, the policy's exact exploitability on that deal's tree
    (``solve.py``'s best response; the seats know their own cards, the abstraction merges nothing that
    matters there) falls as training goes on, far below the random and threshold bots'. A sign error in the
    regrets, a wrong value's seat, or an average taken at the wrong seat leaves it near the random bot's."""
    game = load_small_game("trut", 2, {"deck": "8"})
    root = a_deal(game, random.Random(0))
    trainer = _Trainer(TrainConfig("trut", REDUCED_TRUT, 0, 1))
    trainer.new_hand = lambda seed, dealer: root.engine.clone()
    measured = {}
    for iterations in (60, 400):
        while trainer.iteration < iterations:
            trainer.iterate()
        path = tmp_path / f"p{iterations}.json.gz"
        write_policy(path, trainer.policy())
        bots = {"cfr": state_policy(CfrPolicy(path)), "random": state_policy(parse_policy("random"))}
        bots["threshold"] = state_policy(parse_policy("threshold"))
        tree = export_tree(game, tmp_path / "one.efg", bots, root=root)
        arrays = tree.arrays
        assert arrays is not None
        measured[iterations] = {name: arrays.exploitability(s) for name, s in tree.bot_strategies.items()}
    early, late = measured[60]["cfr"], measured[400]["cfr"]
    baseline = min(measured[400]["random"], measured[400]["threshold"])
    assert late < early / 4
    assert late < 0.05 * baseline, measured


def test_a_policy_trained_on_reduced_trut_is_a_policy_of_its_exported_tree(tmp_path: Path) -> None:
    """Trained on every deal, the policy file's chances are those of one abstract state wherever it is met
    (the export refuses a bot whose chances differ within an information state), and sum to 1."""
    out = tmp_path / "trut.json.gz"
    result = train_policy(TrainConfig("trut", REDUCED_TRUT, 150, 3), out)
    assert result.written == result.infostates > 100
    game = load_small_game("trut", 2, {"deck": "8"})
    root = a_deal(game, random.Random(7))
    policy = CfrPolicy(out)
    tree = export_tree(game, tmp_path / "one.efg", {"cfr": state_policy(policy)}, root=root)
    assert policy.decisions > 100 and policy.fallbacks < policy.decisions
    assert tree.bot_strategies["cfr"].min() >= 0


def test_a_resumed_training_writes_the_same_file_as_one_run(tmp_path: Path) -> None:
    """Catalan: 40 iterations then 100 from the checkpoint give the bytes of 100 in one run; another seed
    another file; a checkpoint of another training is refused."""
    config = TrainConfig("catalan", CATALAN, 100, 5)
    whole = tmp_path / "whole.json.gz"
    train_policy(config, whole)
    parts = tmp_path / "parts.json.gz"
    first = train_policy(TrainConfig("catalan", CATALAN, 40, 5), parts)
    assert first.resumed_from == 0 and checkpoint_path(parts).exists()
    second = train_policy(config, parts)
    assert second.resumed_from == 40 and second.iterations == 100
    assert parts.read_bytes() == whole.read_bytes()
    other = tmp_path / "other.json.gz"
    train_policy(TrainConfig("catalan", CATALAN, 100, 6), other)
    assert other.read_bytes() != whole.read_bytes()
    with pytest.raises(ValueError, match="checkpoint of another training"):
        train_policy(TrainConfig("catalan", CATALAN, 300, 6), parts)
    with pytest.raises(ValueError, match="more than the 60 asked"):
        train_policy(TrainConfig("catalan", CATALAN, 60, 5), parts)


def test_truc_train_killed_and_run_again_continues_to_the_same_file(tmp_path: Path) -> None:
    """The command killed (SIGKILL) after a checkpoint, run again, says it continued and writes the bytes of
    an uninterrupted run."""
    args = ["train", "--variant", "trut", "--option", "deck=8", "--iterations", "800", "--seed", "2"]
    args += ["--check-games", "0", "--quiet"]
    whole = tmp_path / "whole.json.gz"
    assert CliRunner().invoke(app, [*args, "--out", str(whole)]).exit_code == 0
    killed = tmp_path / "killed.json.gz"
    command = [sys.executable, "-c", "from pipeline.cli import main; main()", *args, "--out", str(killed)]
    command += ["--checkpoint-seconds", "0.2"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while not checkpoint_path(killed).exists() and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.05)
    time.sleep(0.3)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    assert not killed.exists()  # killed before the end: no policy file yet
    result = CliRunner().invoke(app, [*args, "--out", str(killed)])
    assert result.exit_code == 0, result.output
    assert "continued from iteration" in result.output
    assert killed.read_bytes() == whole.read_bytes()


def test_the_key_holds_only_what_the_seat_saw() -> None:
    """Two Catalan games that a seat sees alike, the cards it has not seen dealt anew (``Game.determinise``),
    give that seat the same key and choices at every moment of many random hands."""
    config = VARIANTS["catalan"].configure({"players": "2"})
    abstraction = Abstraction()
    rng = random.Random(1)
    checked = 0
    for seed in range(40):
        game = new_game(config, seed, seed % 2)
        while not game.hand_over:
            actor = game.actor()
            if actor < 0:
                game.deal()
                continue
            for seat in range(2):
                optional = seat != actor
                if optional and seat not in game.optional_actors():
                    continue
                other = game.clone()
                other.determinise(seat, rng)
                mine, theirs = SeatView(game, seat, optional), SeatView(other, seat, optional)
                key, choices = abstraction.moment(mine)
                assert (key, [n for n, _ in choices]) == (
                    abstraction.moment(theirs)[0],
                    [n for n, _ in abstraction.moment(theirs)[1]],
                )
                checked += 1
            legal = game.legal_for(actor)
            game.apply_trusted(legal[rng.randrange(len(legal))])
    assert checked > 300


def test_the_cfr_bot_plays_whole_games_and_its_steps_follow_its_probabilities(tmp_path: Path) -> None:
    """A Catalan policy plays whole games against the threshold bot; at moments its file holds, its steps are
    drawn at its chances."""
    out = tmp_path / "catalan.json.gz"
    train_policy(TrainConfig("catalan", CATALAN, 200, 1), out)
    config = VARIANTS["catalan"].configure({"players": "2"})
    policy = CfrPolicy(out)
    for seed in range(6):
        game, hands = play_with_engine(config, [policy, parse_policy("threshold")], seed)
        assert game.over and hands
    assert policy.decisions > 30 and 0 < policy.fallbacks < policy.decisions
    table = read_policy(out)
    game = new_game(config, 3, 1)
    game.apply_trusted(next(a for a in game.legal_for(game.actor()) if a.verb == "cut"))
    game.deal()
    view = SeatView(game, game.actor())
    chances = policy.probabilities(view)
    key, _ = table.abstraction.moment(view)
    assert key in table.infostates and len(chances) > 1
    rng = random.Random(0)
    draws = [policy.step(view, rng) for _ in range(4000)]
    for action, chance in chances.items():
        assert abs(draws.count(action) / len(draws) - chance) < 0.03


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such file"),
        (b"not gzip at all", "not a readable policy file"),
        (gzip.compress(b'{"format": "other"}'), "not a truc-cfr policy file"),
        (gzip.compress(b'{"format": "truc-cfr", "version": 9}'), "format version 9"),
        (gzip.compress(b'{"format": "truc-cfr", "version": 1, "variant": "catalan"}'), "damaged"),
        (gzip.compress(b'{"format": "truc-cfr", "version": 1')[:-8], "not a readable policy file"),
    ],
    ids=["missing", "not-gzip", "other-format", "other-version", "no-table", "truncated"],
)
def test_a_missing_or_damaged_policy_file_is_one_line(tmp_path: Path, content: bytes | None, message: str) -> None:
    path = tmp_path / "bad.json.gz"
    if content is not None:
        path.write_bytes(content)
    result = CliRunner().invoke(
        app,
        ["simulate", "--players", "2", "--games", "2", "--policy", f"cfr:file={path}", "--out", str(tmp_path / "d")],
    )
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and "Traceback" not in result.output, result.output


def test_a_policy_file_refuses_another_game(tmp_path: Path) -> None:
    out = tmp_path / "trut.json.gz"
    train_policy(TrainConfig("trut", REDUCED_TRUT, 20, 1), out)
    document = json.loads(gzip.decompress(out.read_bytes()))
    assert document["format"] == "truc-cfr" and document["training"]["seed"] == 1
    config = VARIANTS["catalan"].configure({"players": "2"})
    with pytest.raises(ValueError, match="was trained for trut with 2 players, not catalan"):
        play_with_engine(config, [parse_policy(f"cfr:file={out}"), parse_policy("threshold")], 0)


def test_the_betting_profile_reads_the_threshold_bot_s_rules() -> None:
    """``teach.profile`` of the threshold bot: without bluffs it never raises before its first trick below its
    raise threshold (0.7) and always above it; bluffing always, it raises at every first-trick opportunity;
    with the weakest fifth of hands it never accepted a raise in these games (its call_at is 0.5)."""
    honest = profile("threshold:bluff=0", 40)
    assert honest.raise_rate(FIFTHS[:3], 1) == (0.0, honest.raise_rate(FIFTHS[:3], 1)[1])
    assert honest.raise_rate(FIFTHS[:3], 1)[1] > 30
    assert honest.raise_rate(FIFTHS[4:], 1)[0] == 1.0
    assert profile("threshold:bluff=1", 10).raise_rate(FIFTHS[:2], 1)[0] == 1.0
    rates, n = honest.answer_rates(FIFTHS[0])
    assert n > 5 and rates.get("accept", 0.0) == 0.0


def test_the_trut_betting_profile_reads_the_threshold_bot_s_trut_rules() -> None:
    """``teach.profile`` in 2-player Trut counts the truts and the answers to a trut: every ask to trut, at
    its turn and out of turn, and each hand once; without bluffs the threshold bot truts in no hand of the
    two weakest fifths (its effective strength stays below trut_at) and in every hand of the top fifth (at
    its first ask); bluffing always, it truts in every hand; it sees
    a trut with hands of the top fifth and folds most of the weakest fifth's (see_at 0.55)."""
    honest = profile("threshold:trut_bluff=0", 60, variant="trut")
    assert honest.hand_raise_rate(FIFTHS[:2]) == (0.0, honest.hand_raise_rate(FIFTHS[:2])[1])
    assert honest.hand_raise_rate(FIFTHS[:2])[1] > 50
    assert honest.hand_raise_rate(FIFTHS[4:])[0] == 1.0
    assert honest.raise_rate(FIFTHS[:2])[0] == 0.0
    opportunities, hands = honest.raise_rate(FIFTHS[:2])[1], honest.hand_raise_rate(FIFTHS[:2])[1]
    assert 3 < opportunities / hands < 7  # at most 3 turns a hand: the rest are asks out of turn
    bluffing = profile("threshold:trut_bluff=1", 20, variant="trut")
    assert bluffing.hand_raise_rate()[0] == 1.0 and bluffing.hand_raise_rate()[1] > 30
    strong, n = honest.answer_rates(FIFTHS[4])
    weak, m = honest.answer_rates(FIFTHS[0])
    assert n > 5 and strong == {"accept": 1.0}
    assert m > 5 and weak.get("fold", 0.0) > 0.8 and "raise" not in weak


def test_a_trained_best_response_wins_what_the_exact_best_response_wins(tmp_path: Path) -> None:
    """One deal of the 8-card Trut: a policy trained 40 iterations, then a best response to it trained
    (``against``); each seat's best response wins against the policy at least 97% of the exact best
    response's gain over the policy's own value (``solve.py``), and far more than the policy itself."""
    game = load_small_game("trut", 2, {"deck": "8"})
    root = a_deal(game, random.Random(0))
    trainer = _Trainer(TrainConfig("trut", REDUCED_TRUT, 0, 1))
    trainer.new_hand = lambda seed, dealer: root.engine.clone()
    while trainer.iteration < 40:
        trainer.iterate()
    policy_file, reply_file = tmp_path / "policy.json.gz", tmp_path / "reply.json.gz"
    write_policy(policy_file, trainer.policy())
    reply = _Trainer(TrainConfig("trut", REDUCED_TRUT, 0, 2, against=str(policy_file)))
    reply.new_hand = lambda seed, dealer: root.engine.clone()
    while reply.iteration < 200:
        reply.iterate()
    write_policy(reply_file, reply.policy())
    bots = {"policy": state_policy(CfrPolicy(policy_file)), "reply": state_policy(CfrPolicy(reply_file))}
    tree = export_tree(game, tmp_path / "one.efg", bots, root=root)
    arrays = tree.arrays
    assert arrays is not None
    policy, best = tree.bot_strategies["policy"], tree.bot_strategies["reply"]
    for seat in (0, 1):
        sign = 1.0 if seat == 0 else -1.0
        mixed = np.where(arrays.info_player[arrays.slot_info] == seat, best, policy)
        own = sign * arrays.values(policy)[0]
        exact = arrays.best_response(policy, seat)
        trained = sign * arrays.values(mixed)[0]
        assert exact - own > 0.1
        assert trained - own >= 0.97 * (exact - own), (seat, own, trained, exact)


def test_a_duel_over_single_hands_measures_who_wins_and_refuses_an_odd_count() -> None:
    """``duel``: the threshold bot wins points a hand from the random bot (which folds to half the raises),
    its interval above 0; the pairs swap the seats on the same cards, so a bot against itself is level."""
    won = duel("threshold", "random", 400, seed=1)
    assert won.mean > 0.3 and won.mean - won.half_width > 0 and won.pairs == 200
    level = duel("threshold:bluff=0,nocut=0", "threshold:bluff=0,nocut=0", 200, seed=1)  # nothing drawn
    assert level.mean == 0.0
    with pytest.raises(ValueError, match="even number"):
        duel("random", "random", 5)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--against", "no/such.json.gz"], "--against no/such.json.gz: no such file"),
        (["--variant", "catalna"], "unknown variant 'catalna'"),
        (["--option", "players=4"], "trains 2-player hands, not 4 players"),
    ],
    ids=["against-missing", "variant", "players"],
)
def test_truc_train_s_bad_options_are_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    result = CliRunner().invoke(app, ["train", "--out", str(tmp_path / "p.json.gz"), "--quiet", *args])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.output
    assert not (tmp_path / "p.json.gz").exists()
