"""Invariants of Valencian Truc over random simulated games (seed 004; RULES.md `valencian`): every game
ends, no card is dealt or played twice, stones come only in legal amounts and add up to the cames, every
recorded action is legal (the replay reproduces the game), and the rows can be built."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.engine.actions import PLAY
from pipeline.engine.game import HandRecord
from pipeline.engine.replay import replay
from pipeline.engine.valencian import COVER, JOC_FORA_STAKE
from pipeline.policies import parse_policy
from pipeline.rows import add_game
from pipeline.simulate import play_game
from pipeline.store import new_batches
from pipeline.variants import VALENCIAN

POLICY_SPECS = [
    "random",
    "threshold",
    "threshold:raise_at=0.3,call_at=0.2,bluff=0.5,envit_at=0.2,envit_call=0.1,envit_falta=0.5,cover=1",
    "threshold:bluff=1,envit_bluff=1,ladder_step=0",
]
ENVIT_STAKES = {"fold": {1, 2, 4}, "accept": {2, 4}}


def check_hand(hand: HandRecord, deck_size: int, players: int, cama: int, stones: list[int]) -> list[int]:
    """Check one hand against the stones before it; return the stones after it."""
    dealt = [c for cards in hand.dealt for c in cards]
    assert len(dealt) == len(set(dealt)) == players * 3 and all(0 <= c < deck_size for c in dealt)
    laid = Counter((e.seat, e.arg) for e in hand.events if e.verb in (PLAY, COVER))
    assert all(count == 1 and card in hand.dealt[seat] for (seat, card), count in laid.items())

    details = dict(hand.details)
    assert hand.winner_team is not None and min(hand.points) >= 0
    envit = details.get("envit_ended_by")
    envit_points = [0, 0]
    if envit is not None:
        stake, side, won = details["envit_stake"], details["envit_winner"], details["envit_points"]
        assert isinstance(stake, int) and isinstance(side, int) and isinstance(won, int)
        assert stake in ENVIT_STAKES[envit] or (envit == "accept" and 1 <= stake <= cama)
        assert 0 <= won <= stake
        envit_points[side] = won
    truc = hand.points[hand.winner_team] - envit_points[hand.winner_team]
    assert hand.points[1 - hand.winner_team] == envit_points[1 - hand.winner_team]

    after = [s + p for s, p in zip(stones, hand.points, strict=True)]
    assert max(after) <= cama and after.count(cama) <= 1  # stones past a cama's end are lost
    closed = cama in after
    if hand.stake == JOC_FORA_STAKE:
        assert details["special"] == "joc_fora" and hand.ended_by == "tricks"
    elif not closed:
        assert truc == hand.stake and 1 <= hand.stake <= 4
    else:
        assert 0 <= truc <= hand.stake
    return [0, 0] if closed else after


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**63 - 1),
    players=st.sampled_from([2, 4]),
    twos=st.sampled_from(["off", "on"]),
    bones=st.sampled_from(["9", "12"]),
    cames=st.sampled_from(["2", "1"]),
    signals=st.sampled_from(["on", "off"]),
    specs=st.lists(st.sampled_from(POLICY_SPECS), min_size=4, max_size=4),
)
def test_random_games_keep_every_invariant(
    seed: int, players: int, twos: str, bones: str, cames: str, signals: str, specs: list[str]
) -> None:
    options = {"players": str(players), "twos": twos, "bones": bones, "cames": cames, "signals": signals}
    config = VALENCIAN.configure(options)
    policies = [parse_policy(s) for s in specs[:players]]
    game, hands = play_game(config, policies, seed)
    target, cama = int(cames), 2 * int(bones)

    # every game ends, its winner with the cames of the coto, the other below
    assert game.over and game.winner_team is not None
    assert game.scores[game.winner_team] == target and game.scores[1 - game.winner_team] < target

    stones, won = [0, 0], [0, 0]
    for hand in hands:
        assert hand.score_before == tuple(won)
        before = list(stones)
        stones = check_hand(hand, len(config.variant.deck), players, cama, stones)
        details = dict(hand.details)
        for side in (0, 1):
            if before[side] + hand.points[side] == cama:
                won[side] += 1
        if details.get("special") == "joc_fora":
            won[hand.winner_team] = target  # type: ignore[index]
            won[1 - hand.winner_team] = min(won[1 - hand.winner_team], target - 1)  # type: ignore[operator]
        assert (details["cames_after_team0"], details["cames_after_team1"]) == tuple(won)
    assert won == game.scores

    # every recorded action is legal and the replay reproduces every hand exactly
    again = replay(config, game.first_dealer, hands, seed)
    assert again.scores == game.scores and again.over

    # the rows are built, with an envit value for every seat
    batches = new_batches()
    add_game(batches, 0, game, hands, [p.describe() for p in policies], "simulate")
    seats = batches["seats"].to_arrow().column("envit_value").to_pylist()
    assert all(isinstance(v, int) and 1 <= v <= 33 for v in seats)


def test_the_same_seed_plays_the_same_game() -> None:
    config = VALENCIAN.configure({"players": "4", "signals": "on"})
    one = play_game(config, [parse_policy("random")] * 4, 99)[1]
    two = play_game(config, [parse_policy("random")] * 4, 99)[1]
    three = play_game(config, [parse_policy("random")] * 4, 100)[1]
    assert one == two and one != three
