"""Invariants of Trut over many random games, every player count and option (RULES.md `trut`; seeds 003
"Trut" and 001 "TRUT"): every game ends, no card is dealt or played twice, petits and longs move only by
the rules' amounts and add up, void hands score nothing, every trick and hand goes where the cards say
(``tests/referee.py``), and the replay reproduces every hand."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.engine.actions import DEALT, PLAY
from pipeline.engine.game import HandRecord
from pipeline.engine.replay import replay
from pipeline.engine.trut import TrutGame
from pipeline.policies import parse_policy
from pipeline.simulate import play_game
from pipeline.variants import TRUT
from tests import referee
from tests.combinations import check_every_seed, combination_id, option_combinations

POLICY_SPECS = [
    "random",
    "threshold",
    "threshold:trut_at=0.3,see_at=0.2,trut_bluff=0.5,fortial_at=0",
    "threshold:trut_bluff=1,see_at=1,fortial_at=1",
]


def tokens(text: str) -> tuple[int, int]:
    """An ``end`` value back to (longs, petits)."""
    if text == "0":
        return 0, 0
    match = re.fullmatch(r"(?:([1-9]\d*)l)?(?:([1-9]\d*)p)?", text)
    assert match and text, text
    return int(match.group(1) or 0), int(match.group(2) or 0)


def check_hand(hand: HandRecord, sides: int, petits_before: list[int], end: list[str]) -> None:
    info: dict[str, Any] = dict(hand.details)
    won_p = [info[f"petits_team{s}"] for s in range(sides)]
    won_l = [info[f"longs_team{s}"] for s in range(sides)]
    after_p = [info[f"petits_after_team{s}"] for s in range(sides)]
    after_l = [info[f"longs_after_team{s}"] for s in range(sides)]
    truter = info["trut_seat"]
    truter_side = None if truter is None else truter % sides
    # the end line says exactly what was won; points count a long as 3 petits
    assert [tokens(v) for v in end] == list(zip(won_l, won_p, strict=True))
    assert list(hand.points) == [p + 3 * lg for p, lg in zip(won_p, won_l, strict=True)]
    # longs only by a seen trut (1, or 2 in 3 players when both see) or 3 petits turned in
    for s in range(sides):
        turned_in = after_l[s] - hand.score_before[s] - won_l[s]
        assert turned_in in (0, 1)
        assert not turned_in or petits_before[s] + won_p[s] >= 3
        assert 0 <= after_p[s] < 3
        if not turned_in:
            assert after_p[s] in (0, won_p[s], petits_before[s] + won_p[s])  # lost mid-hand, then won
    stake = hand.stake
    winner = hand.winner_team
    if info["void"]:  # a "pourrie" hand scores nothing from its tricks
        assert winner is None and hand.ended_by == "tricks" and sum(won_l) == 0
        assert sum(won_p) == (1 if sides == 3 and stake == 3 else 0)
        return
    if hand.ended_by == "pass":  # nobody au fortial truted: every other side takes 1 petit
        assert info["special"] == "fortial" and truter is None and sum(won_l) == 0
        assert sorted(won_p) == [0] + [1] * (sides - 1)
        assert winner == (None if sides == 3 else won_p.index(1))
    elif hand.ended_by == "fold":  # every opponent folded: the truters take 1 petit (2 in 3 players)
        assert truter_side == winner and sum(won_l) == 0
        assert won_p[winner] in ((1, 2) if sides == 3 else (1,)) and sum(won_p) == won_p[winner]
    else:
        assert hand.ended_by == "tricks" and winner is not None
        if stake == 1:  # no trut: 1 petit to the winner
            assert truter is None and won_p[winner] == 1 and sum(won_p) == 1 and sum(won_l) == 0
        else:  # a seen trut: 1 long, 2 longs when both see in 3 players
            assert truter is not None and won_l[winner] == stake // 3 and sum(won_l) == stake // 3
            assert sum(won_p) == (1 if sides == 3 and stake == 3 else 0)
            for s in range(sides):
                if s != winner and (sides == 2 or stake == 6):
                    assert after_p[s] == 0  # the losers lose their petits


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**63 - 1),
    players=st.sampled_from([2, 3, 4, 6]),
    dealer_leads=st.sampled_from(["off", "on"]),
    tie_lead=st.sampled_from(["maker", "first"]),
    brelan=st.sampled_from(["off", "on"]),
    specs=st.lists(st.sampled_from(POLICY_SPECS), min_size=6, max_size=6),
)
def test_random_trut_games_keep_every_invariant(
    seed: int, players: int, dealer_leads: str, tie_lead: str, brelan: str, specs: list[str]
) -> None:
    options = {"players": str(players), "dealer_leads": dealer_leads, "tie_lead": tie_lead, "brelan": brelan}
    check_game(options, specs, seed)


@pytest.mark.parametrize("options", option_combinations(TRUT), ids=combination_id)
def test_every_option_combination_keeps_every_invariant(options: dict[str, str]) -> None:
    check_every_seed(check_game, options, POLICY_SPECS, 6)


def check_game(options: dict[str, str], specs: list[str], seed: int) -> None:
    config = TRUT.configure(options)
    players = config.players
    game, hands = play_game(config, [parse_policy(s) for s in specs[:players]], seed)
    assert isinstance(game, TrutGame)
    sides = game.sides
    power = referee.power_by_rank(referee.TRUT_RANKS)

    # every game ends, with exactly one side at 7 longs or more
    assert game.over and game.winner_team is not None
    assert [s for s in range(sides) if game.scores[s] >= 7] == [game.winner_team]

    petits = [0] * sides
    longs = [0] * sides
    for hand in hands:
        # no card twice, cards from the deck, 3 each; cards played are the seat's own, each once
        dealt = [c for cards in hand.dealt for c in cards]
        assert len(dealt) == len(set(dealt)) == 3 * players and all(0 <= c < len(config.variant.deck) for c in dealt)
        assert sum(e.verb == DEALT for e in hand.events) == 1
        played = Counter((e.seat, e.arg) for e in hand.events if e.verb == PLAY)
        assert all(count == 1 and card in hand.dealt[seat] for (seat, card), count in played.items())
        assert sum(e.verb == "trut" for e in hand.events) <= 1
        assert list(hand.score_before) == longs
        # the turns, the tricks and the hand's winner, judged again from the cards (tests/referee.py)
        first = hand.dealer if config.options["dealer_leads"] == "on" else hand.eldest
        referee.check_trut_tricks(hand, config.variant.deck.cards, players, power, first, config.options["tie_lead"])
        check_hand(hand, sides, petits, game.end_values(hand))
        info = dict(hand.details)
        petits = [info[f"petits_after_team{s}"] for s in range(sides)]
        longs = [info[f"longs_after_team{s}"] for s in range(sides)]
    assert longs == game.scores and petits == game.petits
    assert game.result_text() == "-".join(map(str, longs))

    # every recorded action is legal and the replay reproduces every hand exactly
    again = replay(config, game.first_dealer, hands)
    assert again.scores == game.scores and again.over and again.petits == game.petits  # type: ignore[attr-defined]


def test_the_same_seed_plays_the_same_trut_game() -> None:
    config = TRUT.configure({"players": "3", "brelan": "on"})
    one = play_game(config, [parse_policy("random")] * 3, 7)[1]
    two = play_game(config, [parse_policy("random")] * 3, 7)[1]
    three = play_game(config, [parse_policy("random")] * 3, 8)[1]
    assert one == two and one != three
