"""Invariants of Valencian Truc over random simulated games (seed 004; RULES.md `valencian`): every game
ends, no card is dealt or played twice, stones come only in legal amounts and add up to the cames, every
recorded action is legal (the replay reproduces the game), and the rows can be built."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.engine.actions import PLAY
from pipeline.engine.game import Game, HandRecord
from pipeline.engine.replay import replay
from pipeline.engine.valencian import COVER, JOC_FORA_STAKE
from pipeline.parts import new_batches
from pipeline.policies import parse_policy
from pipeline.rows import add_game
from pipeline.simulate import play_game
from pipeline.variants import VALENCIAN
from tests import referee
from tests.combinations import check_every_seed, combination_id, option_combinations

POLICY_SPECS = [
    "random",
    "threshold",
    "threshold:raise_at=0.3,call_at=0.2,bluff=0.5,envit_at=0.2,envit_call=0.1,envit_falta=0.5,cover=1",
    "threshold:bluff=1,envit_bluff=1,ladder_step=0",
]
ENVIT_STAKES = {"fold": {1, 2, 4}, "accept": {2, 4}}
RUNGS = {"truc": 2, "retruc": 3, "quatre-val": 4, "joc-fora": JOC_FORA_STAKE}


def refereed_stones(
    hand: HandRecord, game: Game, stones: list[int], half: int
) -> tuple[list[int], tuple[int, int] | None, int]:
    """The hand's stones per side as the referee counts them (seed 004 "La puntuació", "L'envit, el torne i
    la falta", "Excepció important"): the envit first, then the truc; a side that completes the cama ends
    it, and the stones still to count are lost. Also the envit's (side, stones) and the stones it counted."""
    cama = 2 * half
    stake = referee.ladder_stake(hand.events, game.team_of, RUNGS)
    if hand.ended_by == "fold":
        assert hand.winner_team == stake.folded_to is not None
    assert hand.stake == stake.value
    truc = cama if stake.value == JOC_FORA_STAKE else stake.value  # an accepted joc fora: the whole game
    points, now = [0, 0], list(stones)

    def count(side: int, won: int) -> int:
        taken = 0 if cama in now else min(won, cama - now[side])
        now[side] += taken
        points[side] += taken
        return taken

    envit = referee.valencian_envit(hand, game.variant.deck.cards, game.team_of, stones, half)
    counted = 0 if envit is None else count(*envit)
    assert hand.winner_team is not None
    count(hand.winner_team, truc)
    return points, envit, counted


def check_hand(hand: HandRecord, game: Game, half: int, stones: list[int]) -> list[int]:
    """Check one hand against the stones before it; return the stones after it."""
    players, deck_size, cama = game.n, len(game.variant.deck), 2 * half
    dealt = [c for cards in hand.dealt for c in cards]
    assert len(dealt) == len(set(dealt)) == players * 3 and all(0 <= c < deck_size for c in dealt)
    laid = Counter((e.seat, e.arg) for e in hand.events if e.verb in (PLAY, COVER))
    assert all(count == 1 and card in hand.dealt[seat] for (seat, card), count in laid.items())
    # the tricks and the hand's winner, judged again from the cards; all tied: the eldest (seed 004)
    power = referee.valencian_power
    referee.check_tricks(hand, game.variant.deck.cards, game.team_of, power, all_tied_to_eldest=True)

    # stones only by legal amounts: the referee's count, envit and truc, is the engine's
    points, envit, counted = refereed_stones(hand, game, stones, half)
    assert list(hand.points) == points, (hand.points, points, envit)
    details = dict(hand.details)
    if envit is None:
        assert "envit_ended_by" not in details
    else:
        assert (details["envit_winner"], details["envit_points"]) == (envit[0], counted)
        ended_by, stake = details["envit_ended_by"], details["envit_stake"]
        assert stake in ENVIT_STAKES[ended_by] or (ended_by == "accept" and 1 <= stake <= cama)

    after = [s + p for s, p in zip(stones, hand.points, strict=True)]
    assert max(after) <= cama and after.count(cama) <= 1  # stones past a cama's end are lost
    if hand.stake == JOC_FORA_STAKE:
        assert details["special"] == "joc_fora" and hand.ended_by == "tricks"
    return [0, 0] if cama in after else after


def check_game(options: dict[str, str], specs: list[str], seed: int) -> None:
    config = VALENCIAN.configure(options)
    policies = [parse_policy(s) for s in specs[: config.players]]
    game, hands = play_game(config, policies, seed)
    target, half = int(options["cames"]), int(options["bones"])

    # every game ends, its winner with the cames of the coto, the other below
    assert game.over and game.winner_team is not None
    assert game.scores[game.winner_team] == target and game.scores[1 - game.winner_team] < target

    stones, won = [0, 0], [0, 0]
    for hand in hands:
        assert hand.score_before == tuple(won)
        before = list(stones)
        stones = check_hand(hand, game, half, stones)
        details = dict(hand.details)
        for side in (0, 1):
            if before[side] + hand.points[side] == 2 * half:
                won[side] += 1
        if details.get("special") == "joc_fora":
            won[hand.winner_team] = target  # type: ignore[index]
            won[1 - hand.winner_team] = min(won[1 - hand.winner_team], target - 1)  # type: ignore[operator]
        assert (details["cames_after_team0"], details["cames_after_team1"]) == tuple(won)
    assert won == game.scores

    # every recorded action is legal and the replay reproduces every hand exactly
    again = replay(config, game.first_dealer, hands, seed)
    assert again.scores == game.scores and again.over

    # the rows are built, with an envit value for every seat: the referee's
    batches = new_batches()
    add_game(batches, 0, game, hands, [p.describe() for p in policies], "simulate")
    seats = batches["seats"].to_arrow().column("envit_value").to_pylist()
    cards = game.variant.deck.cards
    assert seats == [referee.envit_value([cards[c] for c in held]) for hand in hands for held in hand.dealt]


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
    check_game(options, specs, seed)


@pytest.mark.parametrize("options", option_combinations(VALENCIAN), ids=combination_id)
def test_every_option_combination_keeps_every_invariant(options: dict[str, str]) -> None:
    check_every_seed(check_game, options, POLICY_SPECS, 4)


def test_the_same_seed_plays_the_same_game() -> None:
    config = VALENCIAN.configure({"players": "4", "signals": "on"})
    one = play_game(config, [parse_policy("random")] * 4, 99)[1]
    two = play_game(config, [parse_policy("random")] * 4, 99)[1]
    three = play_game(config, [parse_policy("random")] * 4, 100)[1]
    assert one == two and one != three
