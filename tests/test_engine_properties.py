"""Invariants over many random games (OpenSpiel-style): every game ends, cards and points are conserved,
every recorded action is legal and the replay reproduces the game."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.engine.actions import PLAY
from pipeline.engine.replay import replay
from pipeline.policies import parse_policy
from pipeline.simulate import play_game
from pipeline.variants import CATALAN

POLICY_SPECS = ["random", "threshold", "threshold:raise_at=0.3,call_at=0.2,bluff=0.5,nocut=0.9", "threshold:bluff=1"]


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**63 - 1),
    players=st.sampled_from([2, 4]),
    signals=st.sampled_from(["on", "off"]),
    specs=st.lists(st.sampled_from(POLICY_SPECS), min_size=4, max_size=4),
)
def test_random_games_keep_every_invariant(seed: int, players: int, signals: str, specs: list[str]) -> None:
    config = CATALAN.configure({"players": str(players), "signals": signals})
    policies = [parse_policy(s) for s in specs[:players]]
    game, hands = play_game(config, policies, seed)

    # every game ends, with one winner at the target and the other below it
    assert game.over and max(game.scores) >= 12 and min(game.scores) < 12
    assert game.scores[game.winner_team] >= 12  # type: ignore[index]

    totals = [0, 0]
    for hand in hands:
        # no card twice; cards come from the deck; the right number of cards
        dealt = [c for cards in hand.dealt for c in cards]
        assert len(dealt) == len(set(dealt)) == players * hand.cards_dealt
        assert all(0 <= c < 40 for c in dealt)
        # cards played are the seat's own, each once
        played = Counter((e.seat, e.arg) for e in hand.events if e.verb == PLAY)
        assert all(count == 1 and card in hand.dealt[seat] for (seat, card), count in played.items())
        # points only by legal amounts, to one team
        assert sorted(hand.points)[0] == 0 and hand.winner_team is not None
        scored = hand.points[hand.winner_team]
        if hand.ended_by == "tricks":
            assert scored == hand.stake and scored in (1, 2, 3)
        elif hand.ended_by == "fold":
            assert scored == hand.stake and scored in (1, 2)
        else:
            assert hand.ended_by == "pass" and scored == 1
        totals[0] += hand.points[0]
        totals[1] += hand.points[1]
        assert len(hand.tricks) <= hand.cards_dealt
    assert totals == game.scores

    # every recorded action is legal and the replay reproduces every hand exactly
    again = replay(config, game.first_dealer, hands)
    assert again.scores == game.scores and again.over


def test_the_same_seed_plays_the_same_game() -> None:
    config = CATALAN.configure({"players": "4", "signals": "on"})
    one = play_game(config, [parse_policy("random")] * 4, 99)[1]
    two = play_game(config, [parse_policy("random")] * 4, 99)[1]
    three = play_game(config, [parse_policy("random")] * 4, 100)[1]
    assert one == two and one != three
