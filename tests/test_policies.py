"""Policies: what the threshold bot decides at each decision, and the policy spec parser."""

from __future__ import annotations

import random

import pytest

from pipeline.engine.actions import Action
from pipeline.engine.view import SeatView
from pipeline.policies import PolicyError, parse_policy
from pipeline.policies.random_policy import RandomPolicy
from pipeline.policies.threshold import ThresholdPolicy
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
