"""Invariants of French Truc over many random games, every player count and option: every game ends, no
card is dealt twice in a hand (redeals included: they come from one shuffled stock), points go only by
legal amounts, void hands score nothing, and every recorded action is legal (the replay reproduces it)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.engine.actions import DEALT, PLAY
from pipeline.engine.french import RAISE, REDEAL, RESTE
from pipeline.engine.game import Game, HandRecord
from pipeline.engine.replay import replay
from pipeline.engine.rules import TIE, Config
from pipeline.parts import new_batches
from pipeline.playing import play_match
from pipeline.policies import parse_policy
from pipeline.rows import add_game
from pipeline.simulate import play_game
from pipeline.variants import FRENCH
from tests import referee
from tests.combinations import check_every_seed, combination_id, option_combinations

POLICY_SPECS = [
    "random",
    "threshold",
    "threshold:redeal_below=0.95,redeal_accept_below=0.95",  # redeals as long as the stock lasts
    "threshold:raise_at=0.3,call_at=0.2,bluff=0.5,reste_at=0.5",
    "threshold:bluff=1,lie=0.5",
]
DECK_RANKINGS = [("32", "default"), ("32", "eight-low"), ("32", "eight-high"), ("36", "default")]


def check_game(options: dict[str, str], specs: list[str], seed: int) -> None:
    """One game, or with ``rubber=on`` one match of games until a side has won 2 (seed 000 "Le Truc en
    France": "le premier joueur à remporter deux matchs est le vainqueur")."""
    config = FRENCH.configure(options)
    policies = [parse_policy(s) for s in specs[: config.players]]
    if options.get("rubber") != "on":
        check_french_game(config, *play_game(config, policies, seed), specs)
        return
    match = play_match(config, policies, seed, 0, 2)
    wins = [0, 0]
    for k, (game_id, game, hands, match_winner) in enumerate(match):
        assert game_id == k
        check_french_game(config, game, hands, specs)
        assert game.winner_team is not None
        wins[game.winner_team] += 1
        assert (match_winner is not None) == (k == len(match) - 1)  # the last game decides the match
    assert sorted(wins) in ([0, 2], [1, 2]) and wins.index(2) == match[-1][3]


def check_french_game(config: Config, game: Game, hands: list[HandRecord], specs: list[str]) -> None:
    players = config.players
    size = len(config.variant.deck)
    cards = config.variant.deck.cards
    power = referee.power_by_rank(referee.FRENCH_RANKS[config.options["deck"], config.options["ranking"]])

    # every game ends, with one winner at the target and the other below it
    assert game.over and game.winner_team is not None
    assert game.scores[game.winner_team] >= 12 and game.scores[1 - game.winner_team] < 12

    totals = [0, 0]
    for hand in hands:
        deals = [e.arg for e in hand.events if e.verb == DEALT]
        details = dict(hand.details)
        # no card twice in a hand, over every deal from the one stock; the last deal is the one played
        dealt_cards = [c for dealt in deals for seat_cards in dealt for c in seat_cards]  # type: ignore[attr-defined]
        assert len(dealt_cards) == len(set(dealt_cards)) == len(deals) * players * 3 <= size
        assert all(0 <= c < size for c in dealt_cards) and deals[-1] == hand.dealt
        assert (
            details["redeals"]
            == len(deals) - 1
            == sum(e.verb == REDEAL for e in hand.events) - sum(e.verb == "refuse" for e in hand.events)
        )
        played = Counter((e.seat, e.arg) for e in hand.events if e.verb == PLAY)
        assert all(count == 1 and card in hand.dealt[seat] for (seat, card), count in played.items())
        assert list(hand.score_before) == totals
        # the tricks and the hand's winner, judged again from the cards; all tied: void (seed 002)
        referee.check_tricks(hand, cards, game.team_of, power, all_tied_to_eldest=False)

        # points only by legal amounts, to one team at most: the stake as the raises and answers leave it
        # (RULES.md `french` "raises"), a reste accepted making the hand decide the game
        ceiling = 12 - min(hand.score_before)
        assert 1 <= hand.stake <= ceiling
        for e in hand.events:
            if e.verb == RAISE:
                need = 12 - hand.score_before[game.team_of[e.seat]]
                assert e.stake_before < e.stake_after <= ceiling
                assert e.arg != RESTE or e.stake_after == need
        stake = referee.french_stake(hand.events, game.team_of, hand.score_before)
        if hand.winner_team is None:  # a void hand: all three tricks tied, nobody scores
            assert details["void"] and hand.points == (0, 0) and hand.tricks == (TIE, TIE, TIE)
            assert hand.ended_by == "tricks" and stake.folded_to is None
        else:
            assert not details["void"] and hand.ended_by in ("tricks", "fold")
            if hand.ended_by == "tricks":
                stake = referee.french_played_out(stake, 12 - hand.score_before[hand.winner_team])
            referee.check_points(hand, stake, hand.points[hand.winner_team])
            assert hand.points[1 - hand.winner_team] == 0 and hand.stake == stake.value
        totals[0] += hand.points[0]
        totals[1] += hand.points[1]
    assert totals == game.scores

    # the rows say void exactly when nobody won the hand
    batches = new_batches()
    add_game(batches, 0, game, hands, [s for s in specs[:players]], "test")
    names = batches["hands"].schema.names
    void, winner = names.index("void"), names.index("winner_team")
    assert all(row[void] == (row[winner] is None) for row in batches["hands"].rows)

    # every recorded action is legal and the replay reproduces every hand exactly
    again = replay(config, game.first_dealer, hands)
    assert again.scores == game.scores and again.over


@settings(max_examples=120, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**63 - 1),
    players=st.sampled_from([2, 4]),
    deck_ranking=st.sampled_from(DECK_RANKINGS),
    signals=st.sampled_from(["on", "off"]),
    rubber=st.sampled_from(["on", "off"]),
    specs=st.lists(st.sampled_from(POLICY_SPECS), min_size=4, max_size=4),
)
def test_random_french_games_keep_every_invariant(
    seed: int, players: int, deck_ranking: tuple[str, str], signals: str, rubber: str, specs: list[str]
) -> None:
    deck, ranking = deck_ranking
    options = {"players": str(players), "deck": deck, "ranking": ranking, "signals": signals, "rubber": rubber}
    check_game(options, specs, seed)


@pytest.mark.parametrize("options", option_combinations(FRENCH), ids=combination_id)
def test_every_option_combination_keeps_every_invariant(options: dict[str, str]) -> None:
    check_every_seed(check_game, options, POLICY_SPECS, 4)


def test_the_same_seed_plays_the_same_french_game() -> None:
    config = FRENCH.configure({"players": "4", "signals": "on"})
    spec = "threshold:redeal_below=0.9,redeal_accept_below=0.9"
    one = play_game(config, [parse_policy(spec)] * 4, 99)[1]
    two = play_game(config, [parse_policy(spec)] * 4, 99)[1]
    three = play_game(config, [parse_policy(spec)] * 4, 100)[1]
    assert one == two and one != three
    assert any(dict(h.details)["redeals"] for h in one)
