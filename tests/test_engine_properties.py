"""Invariants over many random games (OpenSpiel-style): every game ends, cards and points are conserved,
every recorded action is legal and the replay reproduces the game."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.engine.actions import PLAY
from pipeline.engine.replay import replay
from pipeline.policies import parse_policy
from pipeline.simulate import play_game
from pipeline.variants import CATALAN, FRENCH, VARIANTS
from tests import referee
from tests.combinations import check_every_seed, combination_id, option_combinations

CATALAN_RUNGS = {"truc": 2, "retruc": 3}
POLICY_SPECS = ["random", "threshold", "threshold:raise_at=0.3,call_at=0.2,bluff=0.5,nocut=0.9", "threshold:bluff=1"]


def check_game(options: dict[str, str], specs: list[str], seed: int) -> None:
    config = CATALAN.configure(options)
    players = config.players
    policies = [parse_policy(s) for s in specs[:players]]
    game, hands = play_game(config, policies, seed)
    cards = config.variant.deck.cards
    power = referee.power_by_rank(referee.CATALAN_RANKS)

    # every game ends, with one winner at the target and the other below it
    assert game.over and max(game.scores) >= 12 and min(game.scores) < 12
    assert game.scores[game.winner_team] >= 12  # type: ignore[index]

    totals = [0, 0]
    for hand in hands:
        # no card twice; cards come from the deck; the right number of cards
        dealt = [c for cards_held in hand.dealt for c in cards_held]
        assert len(dealt) == len(set(dealt)) == players * hand.cards_dealt
        assert all(0 <= c < 40 for c in dealt)
        # cards played are the seat's own, each once
        played = Counter((e.seat, e.arg) for e in hand.events if e.verb == PLAY)
        assert all(count == 1 and card in hand.dealt[seat] for (seat, card), count in played.items())
        assert list(hand.score_before) == totals
        # the tricks and the hand's winner, judged again from the cards (seed 000 "Le jeu")
        referee.check_tricks(hand, cards, game.team_of, power, all_tied_to_eldest=True)
        # points only by legal amounts, to one team: the stake as the raises and answers leave it
        # (seed 000 "Le pari"): 3 and no raise for a team at 11 that plays, 1 to the others if it passes
        assert sorted(hand.points)[0] == 0 and hand.winner_team is not None
        scored = hand.points[hand.winner_team]
        at_11 = [team for team in (0, 1) if totals[team] == 11]
        raises = [e for e in hand.events if e.kind == "raise"]
        assert not (at_11 and raises)
        holds = any(e.verb == "hold" for e in hand.events) and len(at_11) == 1
        if hand.ended_by == "pass":
            assert len(at_11) == 1 and hand.winner_team != at_11[0] and scored == 1
        else:
            stake = referee.ladder_stake(hand.events, game.team_of, CATALAN_RUNGS, start=3 if holds else 1)
            referee.check_points(hand, stake, scored)
            assert hand.stake == stake.value
        totals[0] += hand.points[0]
        totals[1] += hand.points[1]
        assert len(hand.tricks) <= hand.cards_dealt
    assert totals == game.scores

    # every recorded action is legal and the replay reproduces every hand exactly
    again = replay(config, game.first_dealer, hands)
    assert again.scores == game.scores and again.over


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**63 - 1),
    players=st.sampled_from([2, 4]),
    signals=st.sampled_from(["on", "off"]),
    specs=st.lists(st.sampled_from(POLICY_SPECS), min_size=4, max_size=4),
)
def test_random_games_keep_every_invariant(seed: int, players: int, signals: str, specs: list[str]) -> None:
    check_game({"players": str(players), "signals": signals}, specs, seed)


@pytest.mark.parametrize("options", option_combinations(CATALAN), ids=combination_id)
def test_every_option_combination_keeps_every_invariant(options: dict[str, str]) -> None:
    check_every_seed(check_game, options, POLICY_SPECS, 4)


def test_the_same_seed_plays_the_same_game() -> None:
    config = CATALAN.configure({"players": "4", "signals": "on"})
    one = play_game(config, [parse_policy("random")] * 4, 99)[1]
    two = play_game(config, [parse_policy("random")] * 4, 99)[1]
    three = play_game(config, [parse_policy("random")] * 4, 100)[1]
    assert one == two and one != three


def test_every_option_combination_is_enumerated_once_and_only_valid_ones() -> None:
    """The combination tests of every variant's property file run on each of these."""
    expected = {"catalan": 6, "french": 32, "trut": 40, "trut-gatinaise": 16, "trut-gatine": 8, "valencian": 32}
    for name, variant in VARIANTS.items():
        combinations = option_combinations(variant)
        assert len(combinations) == expected[name], name
        assert len({combination_id(c) for c in combinations}) == len(combinations)
        assert all(set(c) == {spec.name for spec in variant.options} for c in combinations)
    french = option_combinations(FRENCH)
    assert {c["ranking"] for c in french if c["deck"] == "36"} == {"default"}  # RULES.md: the 36 has its own order


@pytest.mark.parametrize(
    ("variant", "players"),
    [(name, players) for name, variant in VARIANTS.items() for players in variant.players],
    ids=lambda value: str(value),
)
def test_a_game_ends_at_most_one_hand_past_the_target(variant: str, players: int) -> None:
    """``Game.most_in_one_hand`` bounds the final score that the reader accepts in the ``Result`` of a game
    recorded in part (FORMAT.md "Play"): no game ends above it, and random games reach it (a bound too
    low would refuse a true record, one too high would accept a score no game can end with)."""
    config = VARIANTS[variant].configure({"players": str(players)})
    policies = [parse_policy("random") for _ in range(players)]
    tops = []
    for seed in range(400):
        game, _ = play_game(config, policies, seed)
        tops.append(max(game.scores))
    assert max(tops) == game.target - 1 + game.most_in_one_hand()
