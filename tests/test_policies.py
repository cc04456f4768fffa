"""Policies: what the threshold bot decides at each decision, and the policy spec parser."""

from __future__ import annotations

import random

import pytest

from pipeline.engine.actions import Action
from pipeline.engine.rules import Config, Variant
from pipeline.engine.view import SeatView
from pipeline.playing import game_seed, play_game
from pipeline.policies import THRESHOLD_DEFAULTS, PolicyError, parse_policy, unread_parameters
from pipeline.policies.random_policy import RandomPolicy
from pipeline.policies.threshold import PARAMS_BY_VARIANT, ThresholdPolicy
from pipeline.variants import VARIANTS
from tests.scripting import act, deal, new_game

STRONG, WEAK = "3o 3c 2o", "4o 4c 5o"


def two_player(hand0: str, hand1: str = "12c 11c 10c"):
    game = new_game(2, dealer=1)
    deal(game, hand0, hand1)
    return game


def test_threshold_raises_a_strong_hand_and_plays_a_weak_one_without_bluffing() -> None:
    policy = ThresholdPolicy(raise_at=0.7, bluff=0.0)
    rng = random.Random(0)
    assert policy.step(SeatView(two_player(STRONG), 0), rng) == Action(0, "truc")
    action = policy.step(SeatView(two_player(WEAK), 0), rng)
    assert action is not None and action.verb == "play"


def test_threshold_always_bluffs_with_bluff_1() -> None:
    policy = ThresholdPolicy(raise_at=0.99, bluff=1.0)
    assert policy.step(SeatView(two_player(WEAK), 0), random.Random(0)) == Action(0, "truc")


def test_threshold_answers_by_call_at_and_raises_back_above_raise_at() -> None:
    rng = random.Random(0)
    for hand1, expected in (("4c 4e 5c", "fold"), ("3c 3e 2c", "retruc"), ("1c 12e 2c", "accept")):
        game = two_player("11o 10o 7o", hand1)
        act(game, "0 truc")
        action = ThresholdPolicy(raise_at=0.9, call_at=0.5).step(SeatView(game, 1), rng)
        assert action is not None and action.verb == expected, hand1


def test_threshold_card_play_follows_the_reference_rule() -> None:
    game = two_player("4o 4c 5o", "3c 12c 5c")
    policy = ThresholdPolicy(raise_at=1.0, bluff=0.0)
    act(game, "0 play 5o")
    action = policy.step(SeatView(game, 1), random.Random(0))
    assert action == Action(1, "play", game.variant.deck.parse("12c"))  # the lowest card that wins


def test_threshold_holds_at_11_with_the_partner_hand_in_view() -> None:
    game = new_game(4, dealer=3, scores=(11, 3))
    deal(game, "4o 4c 5o", "12c 11c 10c", "3o 3c 2o", "5b 6b 7b")
    assert ThresholdPolicy(call_at=0.5).step(SeatView(game, 0), random.Random(0)) == Action(0, "hold")


def test_threshold_holds_at_11_by_call_at_not_raise_at() -> None:
    """Holding at 11 stakes 3 points on the hand (RULES.md catalan, "11 points"): the bot holds when the
    hand reaches ``call_at``, as it accepts a raise, whatever ``raise_at`` says."""
    game = new_game(2, dealer=1, scores=(11, 3))
    deal(game, "1c 12e 2c", "4o 4c 5o")
    pct = ThresholdPolicy().strength_pct(SeatView(game, 0))
    assert 0.1 < pct < 0.9
    for call_at, raise_at, expected in ((pct - 0.05, pct + 0.05, "hold"), (pct + 0.05, pct - 0.05, "pass")):
        action = ThresholdPolicy(call_at=call_at, raise_at=raise_at).step(SeatView(game, 0), random.Random(0))
        assert action == Action(0, expected), (call_at, raise_at)


def test_threshold_effective_strength_counts_the_tricks_taken_and_lost() -> None:
    """+0.2 for each trick the seat's side won, -0.2 for each it lost (``ThresholdPolicy``): after trick 1
    the winner raises a hand it would not have raised before, and the loser folds one it would have held."""
    game = two_player("1c 12e 2c", "4o 4c 5o")
    bot = ThresholdPolicy(bluff=0.0)
    before = [bot.strength_pct(SeatView(game, seat)) for seat in (0, 1)]
    act(game, "0 play 2c", "1 play 4o")  # seat 0's 2 beats the 4: seat 0 leads trick 2
    winner, loser = SeatView(game, 0), SeatView(game, 1)
    assert bot.effective_strength(winner) == pytest.approx(min(1.0, before[0] + 0.2))
    assert bot.effective_strength(loser) == pytest.approx(max(0.0, before[1] - 0.2))
    raiser = ThresholdPolicy(raise_at=before[0] + 0.1, bluff=0.0)
    assert raiser.step(winner, random.Random(0)) == Action(0, "truc")


def test_threshold_signals_truthfully_unless_it_lies() -> None:
    game = new_game(4, dealer=3, signals="on")
    deal(game, "3o 1c 5o", "12c 11c 10c", "3e 3c 2o", "5b 6b 7b")
    assert ThresholdPolicy().step(SeatView(game, 0), random.Random(0)) == Action(0, "signal", "31")
    liar = ThresholdPolicy(lie=1.0).step(SeatView(game, 0), random.Random(0))
    assert liar is not None and liar.verb == "signal" and liar.arg != "31"


def test_random_policy_picks_legal_actions_and_may_decline_an_option() -> None:
    game = two_player(STRONG)
    act(game, "0 play 3o")
    policy, rng = RandomPolicy(), random.Random(3)
    choices = {policy.step(SeatView(game, 0, optional=True), rng) for _ in range(50)}
    assert choices == {None, Action(0, "truc")}
    for _ in range(20):
        assert policy.step(SeatView(game, 1), rng) in game.legal_for(1)


def test_parse_policy() -> None:
    policy = parse_policy("threshold:raise_at=0.8, bluff=0.2")
    # the families' own parameters (policies/<family>_decisions.py) follow the common ones
    assert policy.describe().startswith("threshold raise_at=0.8 call_at=0.5 bluff=0.2 nocut=0.15 one_card=0.5 lie=0")
    assert parse_policy("random").describe() == "random"
    # spaces around '=' and the key's case are read as --option and --param read them
    assert parse_policy("threshold:Raise_At = 0.8, bluff= 0.2").describe() == policy.describe()
    for spec, message in (
        ("minimax", "policies: random, threshold"),
        ("threshold:fold_at=0.1", "parameters: raise_at"),
        ("threshold:bluff=lots", "not a number"),
        ("threshold:bluff=1.5", "between 0 and 1"),
        ("threshold:bluff", "key=value"),
        ("random:bluff=0.1", "parameters: none"),
    ):
        with pytest.raises(PolicyError, match=message):
            parse_policy(spec)


def _configs(variant: Variant) -> list[Config]:
    """Every player count with the default options, then every other value of every other option (signals
    at 4 players, where they are played)."""
    configs = [variant.configure({"players": str(n)}) for n in variant.players]
    for spec in variant.options:
        if spec.name == "players":
            continue
        players = "4" if spec.name == "signals" else str(variant.configure().players)
        configs += [variant.configure({"players": players, spec.name: v}) for v in spec.values if v != spec.default]
    return configs


def _games(configs: list[Config], params: dict[str, float], games: int = 30) -> list[list[object]]:
    """The events of the first ``games`` games of each configuration, every seat a threshold bot with
    ``params``."""
    played = []
    for config in configs:
        for game_no in range(games):
            policies = [ThresholdPolicy(**params) for _ in range(config.players)]
            _, hands = play_game(config, policies, game_seed(5, game_no))
            played.append([hand.event_tuples for hand in hands])
    return played


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_each_variant_reads_exactly_the_parameters_its_policy_column_names(name: str) -> None:
    """PARAMS_BY_VARIANT, watched: a parameter the variant reads changes some game when set to 0 or 1; the
    others, all set to 0 (or all to 1), change none. So the ``policy`` column names what made the play."""
    variant = VARIANTS[name]
    configs = _configs(variant)
    baseline = _games(configs, {})
    read = set(PARAMS_BY_VARIANT[name])
    for extreme in (0.0, 1.0):
        unread = {k: extreme for k in THRESHOLD_DEFAULTS if k not in read}
        assert _games(configs, unread) == baseline, f"{name} reads one of {sorted(unread)}"
    for param in sorted(read):
        changed = any(
            _games(configs, {param: extreme}) != baseline
            for extreme in (0.0, 1.0)
            if THRESHOLD_DEFAULTS[param] != extreme
        )
        assert changed, f"{name} never reads {param}"


def test_a_policy_is_described_by_the_parameters_its_variant_reads() -> None:
    policy = parse_policy("threshold:raise_at=0.8,trut_at=0.9")
    assert policy.describe("catalan") == "threshold raise_at=0.8 call_at=0.5 bluff=0.1 nocut=0.15 one_card=0.5 lie=0"
    assert (
        policy.describe("trut") == "threshold trut_at=0.9 trut_bluff=0.05 see_at=0.55 see_announced=0.95 fortial_at=0.5"
    )
    assert policy.describe() == policy.describe("a variant the table does not know")
    assert len(policy.describe().split()) == 1 + len(THRESHOLD_DEFAULTS)
    assert parse_policy("random").describe("trut") == "random"


def test_unread_parameters_are_those_the_variant_does_not_read() -> None:
    """What the simulator warns about: ``raise_at`` changes nothing in a Trut game (the test above checks
    which parameters each variant reads)."""
    trut = PARAMS_BY_VARIANT["trut"]
    assert unread_parameters("threshold:raise_at=0.9,trut_at=0.7,bluff=0.1", "trut") == (["raise_at", "bluff"], trut)
    assert unread_parameters("threshold:trut_at=0.7,see_at=0.2", "trut") == ([], trut)
    assert unread_parameters("threshold:trut_at=0.7", "catalan") == (["trut_at"], PARAMS_BY_VARIANT["catalan"])
    assert unread_parameters("threshold", "valencian") == ([], PARAMS_BY_VARIANT["valencian"])
    assert unread_parameters("random", "trut") == ([], ())  # no per-variant table: every parameter (none) is read
    assert unread_parameters("threshold:raise_at=0.9", "a variant the table does not know") == ([], ())
    with pytest.raises(PolicyError, match="no parameter 'nope'"):
        unread_parameters("threshold:nope=1", "trut")
    # keys are read in any case, as parse_policy reads them: RAISE_AT is raise_at, which catalan reads
    assert unread_parameters("Threshold:RAISE_AT=0.9,Trut_At=0.7", "catalan") == (
        ["trut_at"],
        PARAMS_BY_VARIANT["catalan"],
    )


def test_a_policy_parameter_given_twice_is_refused() -> None:
    """As ``--option`` and ``--param`` refuse a key given twice, rather than the last one silently winning."""
    with pytest.raises(
        PolicyError, match=r"^policy threshold: raise_at is given twice \(raise_at=0.5, RAISE_AT=0.9\)$"
    ):
        parse_policy("threshold:raise_at=0.5,RAISE_AT=0.9")
    assert parse_policy("threshold:RAISE_AT=0.9").describe("catalan").startswith("threshold raise_at=0.9")


@pytest.mark.parametrize(("variant", "players"), [("trut", 4), ("trut", 6), ("valencian", 2), ("valencian", 4)])
def test_the_bots_coins_never_move_the_deals(variant: str, players: int) -> None:
    # docs/architecture.md, Decision on RULES.md "Common model": the policies draw from a generator of their
    # own seeded from the game's seed, so two runs of one seed with different bots meet the same deals
    config = VARIANTS[variant].configure({"players": str(players)})
    compared = 0
    for number in range(12):
        seed = game_seed(5, number)
        _, calm = play_game(config, [parse_policy("threshold") for _ in range(players)], seed)
        _, wild = play_game(config, [parse_policy("random") for _ in range(players)], seed)
        for a, b in zip(calm, wild, strict=False):
            assert (a.dealer, a.dealt) == (b.dealer, b.dealt)
            compared += 1
    assert compared > 12
