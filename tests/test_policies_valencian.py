"""The threshold policy's Valencian decisions (``pipeline/policies/valencian_decisions.py``)."""

from __future__ import annotations

import random

from pipeline.engine.actions import Action
from pipeline.engine.game import Game, new_game
from pipeline.engine.view import SeatView
from pipeline.policies.threshold import ThresholdPolicy
from pipeline.policies.valencian_decisions import envit_percentiles, truc_strength
from pipeline.variants import VALENCIAN
from tests.scripting import act, deal

STRONG_ENVIT, WEAK_ENVIT = "7o 6o 4c", "1e 3o 5c"  # 33 and 5
STRONG_TRUC, WEAK_TRUC = "1e 1b 7e", "4o 4b 5e"


def game_with(hand0: str, hand1: str) -> Game:
    game = new_game(VALENCIAN.configure(), seed=1, first_dealer=1)  # eldest 0
    deal(game, hand0, hand1)
    return game


def decide(policy: ThresholdPolicy, game: Game, seat: int) -> Action:
    action = policy.step(SeatView(game, seat), random.Random(0))
    assert action is not None and action in game.legal_for(seat)
    return action


def test_envit_percentiles_are_exact_mid_ranks() -> None:
    table = envit_percentiles(VALENCIAN)
    assert min(table) == 3 and max(table) == 33  # the lowest hand is three cards of three suits, 4 5 3
    assert 0 < table[3] < table[33] < 1 and list(table.values()) == sorted(table.values())


def test_threshold_envits_a_high_value_on_its_turn_and_not_a_low_one() -> None:
    policy = ThresholdPolicy(envit_bluff=0.0, raise_at=1.0, bluff=0.0)
    assert decide(policy, game_with("7o 5o 4c", WEAK_TRUC), 0).verb == "envit"
    assert decide(policy, game_with(STRONG_ENVIT, WEAK_TRUC), 0).verb == "envit-falta"
    assert decide(policy, game_with(WEAK_ENVIT, WEAK_TRUC), 0).verb == "play"


def test_threshold_answers_the_envit_by_its_value() -> None:
    policy = ThresholdPolicy()
    expected = {WEAK_ENVIT: "fold", "7o 3o 4c": "accept", "7o 5o 4c": "torne", STRONG_ENVIT: "falta"}
    for hand, verb in expected.items():
        game = game_with("6b 4b 3e", hand)
        act(game, "0 envit")
        assert decide(policy, game, 1).verb == verb, hand


def test_threshold_envits_before_answering_a_truc() -> None:
    """Seed 004 "L'envit, el torne i la falta", example a)."""
    game = game_with(STRONG_TRUC, STRONG_ENVIT)
    act(game, "0 truc")
    policy = ThresholdPolicy(envit_bluff=0.0)
    assert decide(policy, game, 1).verb == "envit-falta"
    act(game, "1 envit-falta", "0 fold")
    assert decide(policy, game, 1).verb in ("accept", "fold", "retruc")


def test_each_rung_of_the_truc_ladder_asks_for_more_strength() -> None:
    game = game_with("1e 7o 4c", "3o 3c 3e")
    act(game, "0 truc", "1 retruc", "0 quatre-val")
    strength = ThresholdPolicy().strength_pct(SeatView(game, 1))
    lenient = ThresholdPolicy(call_at=strength - 0.01, ladder_step=0.0, raise_at=1.0, envit_bluff=0.0)
    strict = ThresholdPolicy(call_at=strength - 0.01, ladder_step=0.2, raise_at=1.0, envit_bluff=0.0)
    assert decide(lenient, game, 1).verb == "accept"
    assert decide(strict, game, 1).verb == "fold"


def test_threshold_covers_a_card_that_cannot_change_the_trick() -> None:
    game = game_with("1e 1b 7e", WEAK_TRUC)
    act(game, "0 play 1e")
    covering = ThresholdPolicy(cover=1.0, raise_at=1.0, bluff=0.0, envit_bluff=0.0)
    assert decide(covering, game, 1) == Action(1, "cover", game.variant.deck.parse("4o"))
    never = ThresholdPolicy(cover=0.0, raise_at=1.0, bluff=0.0, envit_bluff=0.0)
    assert decide(never, game, 1).verb == "play"


def test_each_rung_asks_for_more_strength_on_the_seat_s_own_turn_too() -> None:
    """``ladder_step`` raises the bar of each rung for a raise made on one's turn, as for an answer: the side
    that accepted the truc may retruc on its turn (seed 004), and does so only ``ladder_step`` above
    ``raise_at``."""
    game = game_with("4o 4b 5e", "1e 1b 7e")
    act(game, "0 truc", "1 accept", "0 play 4o")
    no_envit = {"envit_at": 1.0, "envit_falta": 1.0, "envit_bluff": 0.0, "bluff": 0.0}
    strength = truc_strength(ThresholdPolicy(), SeatView(game, 1))
    flat = ThresholdPolicy(raise_at=strength - 0.1, ladder_step=0.0, **no_envit)
    steep = ThresholdPolicy(raise_at=strength - 0.1, ladder_step=0.2, **no_envit)
    assert decide(flat, game, 1) == Action(1, "retruc")
    assert decide(steep, game, 1).verb == "play"
