"""Catalan Truc rules, one test per row of RULES.md's `catalan` table.

Sections cited are those of seed 000 (`../shared/seeds/000_c96b7b0037b5bd77.txt`, "Truc en Catalogne"):
"Joueurs et cartes", "L'entente", "Le jeu", "Communication", "Le pari".
"""

from __future__ import annotations

import pytest

from pipeline.cards import SPANISH_40
from pipeline.engine import game as engine
from pipeline.engine.actions import Action, RuleError
from pipeline.engine.game import Phase
from pipeline.engine.rules import TIE, OptionError
from pipeline.engine.view import SeatView
from pipeline.variants import CATALAN, UnknownVariant, get_variant
from tests.scripting import act, deal, new_game


def power(card: str) -> int:
    return CATALAN.power[SPANISH_40.parse(card)]


# --- seed 000 "Joueurs et cartes": the deck and the rank order ------------------------------------


def test_deck_is_spanish_40_with_sota_cavall_rei() -> None:
    assert len(SPANISH_40) == 40
    assert {c[:-1] for c in SPANISH_40.cards} == {"1", "2", "3", "4", "5", "6", "7", "10", "11", "12"}
    assert {c[-1] for c in SPANISH_40.cards} == set("oceb")


def test_rank_order_3_2_1_12_11_10_7_6_5_4_and_suits_do_not_matter() -> None:
    order = ["3o", "2c", "1e", "12b", "11o", "10c", "7e", "6b", "5o", "4c"]
    powers = [power(c) for c in order]
    assert powers == sorted(powers, reverse=True) and len(set(powers)) == 10
    assert power("3o") == power("3c") == power("3e") == power("3b")


def test_players_are_4_by_default_and_2_allowed() -> None:
    assert CATALAN.configure().players == 4
    assert CATALAN.configure({"players": "2"}).players == 2
    with pytest.raises(OptionError, match="players='3'"):
        CATALAN.configure({"players": "3"})
    with pytest.raises(UnknownVariant, match="variants: catalan"):
        get_variant("mus")


# --- seed 000 "L'entente": dealing, the cut and the one-card deal --------------------------------


def test_deal_is_three_cards_each_one_at_a_time_from_the_eldest() -> None:
    game = new_game(4, dealer=3)
    act(game, "2 cut")  # the player before the dealer cuts
    assert game.eldest == 0
    game.deal()
    hands = game.dealt
    assert [len(h) for h in hands] == [3, 3, 3, 3]
    assert len({c for h in hands for c in h}) == 12


def test_nocut_lets_the_dealer_deal_one_card_each_and_the_hand_is_one_trick() -> None:
    game = new_game(2, dealer=0)
    act(game, "1 nocut", "0 deal 1")  # in 2 players the cutter is the eldest (the seat before the dealer)
    deal(game, "5c", "4o")
    act(game, "1 play 4o", "0 play 5c")
    record = game.last_hand
    assert record is not None and record.cards_dealt == 1
    assert record.tricks == (0,) and record.winner_team == 0 and record.points == (1, 0)


def test_the_cut_the_deal_choice_and_the_hold_name_who_decides_and_what() -> None:
    # seed 000 "L'entente" (the cut, one card or three) and "Le pari" (the team at 11 holds or passes)
    game = new_game(2, dealer=0)
    with pytest.raises(RuleError, match=r"seat 1 must act now \(cut or nocut\), not seat 0 \[turn\]"):
        act(game, "0 cut")
    with pytest.raises(RuleError, match=r"'play' is not allowed now: expected cut or nocut \[phase\]"):
        act(game, "1 play 4o")
    act(game, "1 nocut")
    with pytest.raises(RuleError, match=r"seat 0 must act now \(the dealer's choice of one card or three\)"):
        act(game, "1 deal 1")
    eleven = new_game(2, dealer=1, scores=(11, 7))
    deal(eleven, "3o 2o 4o", "12c 11c 10c")
    with pytest.raises(RuleError, match=r"seat 0 must act now \(hold or pass from the team at 11\)"):
        act(eleven, "1 play 12c")
    with pytest.raises(RuleError, match=r"'truc' is not allowed now: expected hold or pass.*\[phase\]"):
        act(eleven, "0 truc")


def test_tied_single_trick_goes_to_the_eldest_non_dealing_team() -> None:
    # seed 000 "Le jeu": "si les trois astuces sont tirées, l'équipe non-attaquante gagne la main entière";
    # a one-card hand's only trick tied is every trick tied (RULES.md, catalan, one-card deal)
    game = new_game(4, dealer=1)
    act(game, "0 nocut", "1 deal 1")
    deal(game, "7o", "7c", "4e", "5b")  # seats 0..3; eldest is 2 (team 0)
    act(game, "2 play 4e", "3 play 5b", "0 play 7o", "1 play 7c")
    record = game.last_hand
    assert record is not None and record.tricks == (TIE,)
    assert record.winner_team == game.team_of[2] == 0 and record.tie_rule == "all_tied_eldest"


def test_the_deal_passes_to_the_next_seat_and_the_eldest_follows_it() -> None:
    """RULES.md "Common model": the dealer rotates to the next seat each hand, and the eldest is the seat
    after the dealer; with 4 players, round the table."""
    game = new_game(4, dealer=2)
    for dealer in (2, 3, 0, 1, 2):
        assert (game.dealer, game.eldest) == (dealer, (dealer + 1) % 4)
        deal(game, "3o 2o 4o", "12c 11c 10c", "5o 6o 7o", "5c 6c 7c")
        act(game, f"{game.eldest} truc", f"{(game.eldest + 1) % 4} fold")
        game.next_hand()


def test_the_deal_comes_once_per_hand_with_a_hand_per_seat_and_the_next_hand_after_the_last() -> None:
    game = new_game(2, dealer=1, scores=(11, 7))  # no cut at 11: the deal is next
    with pytest.raises(RuleError, match=r"the deal lists 3 seats, the game has 2 \[deal-seats\]"):
        game.apply_deal([[0, 1, 2], [3, 4, 5], [6, 7, 8]])
    with pytest.raises(RuleError, match=r"the current hand is not over \[hand-not-over\]"):
        game.next_hand()
    deal(game, "3o 2o 4o", "12c 11c 10c")
    with pytest.raises(RuleError, match=r"cards are dealt only at the start of a hand \[not-dealing\]"):
        deal(game, "5o 6o 7o", "5c 6c 7c")
    with pytest.raises(RuleError, match=r"\[not-dealing\]"):
        game.deal()
    with pytest.raises(RuleError, match=r"seat 2 does not exist in a 2-player game \[seat\]"):
        game.apply(Action(2, "hold"))


def test_no_one_card_deal_when_a_team_has_11() -> None:
    game = new_game(2, dealer=0, scores=(11, 4))
    assert game.phase == Phase.DEAL  # no cut decision offered
    with pytest.raises(RuleError, match=r"no cut and no one-card deal when a team is at 11 points.*\[no-cut-at-11\]"):
        act(game, "1 nocut")


# --- seed 000 "Le jeu": tricks, ties, leads ---------------------------------------------------------


def test_two_tricks_win_and_the_third_is_not_played() -> None:
    game = new_game(2, dealer=1)  # eldest 0
    deal(game, "3o 2o 4o", "12c 11c 10c")
    act(game, "0 play 3o", "1 play 12c", "0 play 2o", "1 play 11c")
    record = game.last_hand
    assert record is not None and record.tricks == (0, 0) and record.points == (1, 0)
    assert game.hands[0] == [SPANISH_40.parse("4o")]  # unplayed cards stay unplayed


def test_tied_first_trick_the_next_trick_decides_and_the_same_player_leads_again() -> None:
    game = new_game(2, dealer=1)
    deal(game, "3o 4o 5o", "3c 6c 7c")
    act(game, "0 play 3o", "1 play 3c")
    assert game.tricks == [TIE] and game.to_play == 0  # the leader of the tied trick leads again
    act(game, "0 play 4o", "1 play 6c")
    record = game.last_hand
    assert record is not None and record.winner_team == 1 and record.tie_rule == "first_decisive"
    assert record.tricks == (TIE, 1)


def test_trick_won_then_tied_the_first_won_trick_decides() -> None:
    game = new_game(2, dealer=1)
    deal(game, "3o 4o 5o", "2c 4c 7c")
    act(game, "0 play 3o", "1 play 2c", "0 play 4o", "1 play 4c")
    record = game.last_hand
    assert record is not None and record.tricks == (0, TIE) and record.winner_team == 0


def test_split_tricks_then_a_tie_the_first_won_trick_decides() -> None:
    game = new_game(2, dealer=1)
    deal(game, "3o 4o 5o", "2c 7c 5c")
    act(game, "0 play 3o", "1 play 2c", "0 play 4o", "1 play 7c", "1 play 5c", "0 play 5o")
    record = game.last_hand
    assert record is not None and record.tricks == (0, 1, TIE)
    assert record.winner_team == 0 and record.tie_rule == "first_decisive"


def test_two_tied_tricks_the_winner_of_the_remaining_trick_wins() -> None:
    # seed 000 "Le jeu": "si deux tours sont tirés, les gagnants du troisième tour gagnent bien sûr la main"
    game = new_game(2, dealer=1)  # eldest 0, who leads again after each tied trick
    deal(game, "3o 2o 4o", "3c 2c 5c")
    act(game, "0 play 3o", "1 play 3c", "0 play 2o", "1 play 2c")
    assert game.tricks == [TIE, TIE] and game.to_play == 0  # two tied tricks decide nothing yet
    act(game, "0 play 4o", "1 play 5c")
    record = game.last_hand
    assert record is not None and record.tricks == (TIE, TIE, 1) and record.tie_rule == "first_decisive"
    assert record.winner_team == 1 and record.points == (0, 1)


def test_three_tied_tricks_go_to_the_eldest_team() -> None:
    game = new_game(2, dealer=0)  # eldest 1
    deal(game, "3o 2o 1o", "3c 2c 1c")
    act(game, "1 play 3c", "0 play 3o", "1 play 2c", "0 play 2o", "1 play 1c", "0 play 1o")
    record = game.last_hand
    assert record is not None and record.tricks == (TIE, TIE, TIE)
    assert record.winner_team == 1 and record.tie_rule == "all_tied_eldest"


def test_equal_cards_of_one_team_win_and_the_earlier_partner_leads() -> None:
    game = new_game(4, dealer=3)  # eldest 0; teams {0,2} and {1,3}
    deal(game, "3o 4o 5o", "12c 4c 5c", "3e 6e 7e", "11b 6b 7b")
    act(game, "0 play 3o", "1 play 12c", "2 play 3e", "3 play 11b")
    assert game.tricks == [0] and game.to_play == 0


def test_a_pair_of_threes_of_one_team_does_not_beat_a_single_three() -> None:
    game = new_game(4, dealer=3)
    deal(game, "3o 4o 5o", "3c 4c 5c", "3e 6e 7e", "11b 6b 7b")
    act(game, "0 play 3o", "1 play 3c", "2 play 3e", "3 play 11b")
    assert game.tricks == [TIE] and game.to_play == 0


# --- seed 000 "Le pari": truc, retruc, answers ------------------------------------------------------


def test_truc_accepted_plays_for_2_and_only_the_accepting_team_may_retruc() -> None:
    game = new_game(2, dealer=1)
    deal(game, "3o 2o 4o", "12c 11c 10c")
    events = act(game, "0 truc", "1 accept")
    assert game.stake == 2 and events[0].kind == "raise" and events[0].stake_after == 2
    with pytest.raises(RuleError, match="raise-right"):
        act(game, "0 retruc")
    act(game, "0 play 3o", "1 retruc", "0 accept")
    assert game.stake == 3
    with pytest.raises(RuleError, match="ladder-top"):
        act(game, "1 truc")


def test_either_team_may_make_the_first_truc() -> None:
    game = new_game(2, dealer=1)
    deal(game, "3o 2o 4o", "12c 11c 10c")
    act(game, "0 play 3o", "1 truc", "0 accept")
    assert game.stake == 2 and game.last_raise_team == 1


def test_refused_truc_scores_1_and_refused_retruc_scores_2_to_the_raisers() -> None:
    game = new_game(2, dealer=1)
    deal(game, "3o 2o 4o", "12c 11c 10c")
    act(game, "0 truc", "1 fold")
    record = game.last_hand
    assert record is not None and record.points == (1, 0) and record.ended_by == "fold" and record.stake == 1
    game.next_hand()
    deal(game, "3o 2o 4o", "12c 11c 10c")  # dealer 0, eldest 1
    act(game, "1 truc", "0 accept", "1 play 12c", "0 retruc", "1 fold")
    record = game.last_hand
    assert record is not None and record.points == (2, 0) and record.stake == 2


def test_accept_and_raise_is_one_action() -> None:
    game = new_game(2, dealer=1)
    deal(game, "3o 2o 4o", "12c 11c 10c")
    (event,) = act(game, "0 truc")
    (event,) = act(game, "1 retruc")  # "trois si vous jouez"
    # the truc is accepted (the stake is now 2) and 3 is proposed; stake_before is the stake in force
    # before the action, as for any other answer
    assert event.answers and event.kind == "raise" and event.stake_before == 1 and event.stake_after == 3
    assert game.stake == 2
    act(game, "0 accept")
    assert game.stake == 3


def test_playing_a_card_without_answering_accepts() -> None:
    game = new_game(2, dealer=1)
    deal(game, "3o 2o 4o", "12c 11c 10c")
    act(game, "0 play 4o", "0 truc")  # raise after playing one's own card
    (event,) = act(game, "1 play 10c")
    assert event.answers and game.stake == 2 and game.last_raise_team == 0


def test_an_answer_is_needed_before_the_raiser_plays() -> None:
    game = new_game(2, dealer=1)
    deal(game, "3o 2o 4o", "12c 11c 10c")
    act(game, "0 truc")
    with pytest.raises(RuleError, match="answer-first"):
        act(game, "0 play 3o")


def test_a_raise_out_of_turn_does_not_count() -> None:
    game = new_game(4, dealer=3)
    deal(game, "3o 2o 4o", "12c 11c 10c", "5e 6e 7e", "5b 6b 7b")
    act(game, "0 play 4o", "1 play 10c")
    with pytest.raises(RuleError, match="raise-on-turn"):
        act(game, "0 truc")  # seat 0 played two moves ago: the next player has already played
    act(game, "2 truc")  # the partner, whose turn it is, repeats the raise
    assert game.pending and game.answerer == 3


def test_in_four_players_the_next_opponent_answers_for_the_team() -> None:
    game = new_game(4, dealer=3)
    deal(game, "3o 2o 4o", "12c 11c 10c", "5e 6e 7e", "5b 6b 7b")
    act(game, "0 truc")
    with pytest.raises(RuleError, match="answerer"):
        act(game, "3 accept")
    act(game, "1 accept")
    assert game.stake == 2


def test_nothing_to_answer() -> None:
    game = new_game(2, dealer=1)
    deal(game, "3o 2o 4o", "12c 11c 10c")
    with pytest.raises(RuleError, match="nothing-to-answer"):
        act(game, "1 accept")


# --- seed 000 "Le pari": 11 points and the target ---------------------------------------------------


def test_team_at_11_holding_plays_for_3_without_raises() -> None:
    game = new_game(2, dealer=1, scores=(11, 7))
    deal(game, "3o 2o 4o", "12c 11c 10c")
    act(game, "0 hold")
    assert game.stake == 3
    with pytest.raises(RuleError, match="no-raise-at-11"):
        act(game, "0 truc")
    act(game, "0 play 3o", "1 play 12c", "0 play 2o", "1 play 11c")
    assert game.scores == [14, 7] and game.over and game.winner_team == 0


def test_team_at_11_passing_gives_the_opponents_1() -> None:
    game = new_game(2, dealer=1, scores=(3, 11))
    deal(game, "3o 2o 4o", "12c 11c 10c")
    act(game, "1 pass")  # the decider is the team at 11's first seat from the eldest
    record = game.last_hand
    assert record is not None and record.ended_by == "pass" and record.points == (1, 0)


def test_in_four_players_the_team_at_11_looks_at_both_hands() -> None:
    game = new_game(4, dealer=3, scores=(5, 11))
    deal(game, "3o 2o 4o", "12c 11c 10c", "5e 6e 7e", "5b 6b 7b")
    assert game.actor() == 1
    view = SeatView(game, 1)
    assert view.decision == "hold" and view.partner_cards == [SPANISH_40.parse(c) for c in ("5b", "6b", "7b")]


def test_both_teams_at_11_play_without_raises_and_the_winner_takes_the_game() -> None:
    game = new_game(2, dealer=1, scores=(11, 11))
    deal(game, "3o 2o 4o", "12c 11c 10c")
    assert game.phase == Phase.PLAY  # no hold decision
    with pytest.raises(RuleError, match="no-raise-at-11"):
        act(game, "0 truc")
    act(game, "0 play 3o", "1 play 12c", "0 play 2o", "1 play 11c")
    assert game.over and game.winner_team == 0 and game.scores == [12, 11]


def test_the_game_ends_at_12_points() -> None:
    # seed 000 "Joueurs et cartes": "pour un score final de douze points"
    game = new_game(2, dealer=1, scores=(10, 0))
    deal(game, "3o 2o 4o", "12c 11c 10c")
    act(game, "0 truc", "1 accept", "0 play 3o", "1 play 12c", "0 play 2o", "1 play 11c")
    assert game.scores == [12, 0] and game.over
    with pytest.raises(RuleError, match="game-over"):
        game.next_hand()


# --- seed 000 "Communication": signals ---------------------------------------------------------------


def test_signals_reach_the_partner_only() -> None:
    game = new_game(4, dealer=3, signals="on")
    deal(game, "3o 2o 4o", "12c 11c 10c", "5e 6e 7e", "5b 6b 7b")
    act(game, "0 signal 32", "1 signal -", "2 signal -", "3 signal 1")
    assert game.phase == Phase.PLAY
    assert SeatView(game, 2).partner_signal == "32"
    assert SeatView(game, 1).partner_signal == "1"
    assert game.last_hand is None


def test_signals_are_off_in_two_players() -> None:
    game = new_game(2, dealer=1, signals="on")
    deal(game, "3o 2o 4o", "12c 11c 10c")
    assert game.phase == Phase.PLAY and SeatView(game, 0).partner_signal is None


def test_a_view_shows_only_the_seat_own_cards() -> None:
    game = new_game(4, dealer=3)
    deal(game, "3o 2o 4o", "12c 11c 10c", "5e 6e 7e", "5b 6b 7b")
    view = SeatView(game, 2)
    assert view.cards == [SPANISH_40.parse(c) for c in ("5e", "6e", "7e")]
    assert view.partner_cards is None
    assert not hasattr(view, "hands")


# --- the engine's own checks ----------------------------------------------------------------------------


def test_card_not_held_and_dealt_twice_are_refused() -> None:
    game = new_game(2, dealer=1)
    with pytest.raises(RuleError, match="card-twice"):
        deal(game, "3o 2o 4o", "3o 11c 10c")
    deal(game, "3o 2o 4o", "12c 11c 10c")
    with pytest.raises(RuleError, match="card-not-held"):
        act(game, "0 play 12c")
    with pytest.raises(RuleError, match="turn"):
        act(game, "1 play 12c")


def test_legal_actions_name_their_seats_and_include_the_after_play_raise() -> None:
    game = new_game(2, dealer=1)
    deal(game, "3o 2o 4o", "12c 11c 10c")
    act(game, "0 play 4o")
    legal = game.legal_actions()
    assert Action(0, "truc") in legal and Action(1, "truc") in legal
    assert {a.seat for a in legal} == {0, 1}
    assert game.optional_actors() == [0]


def test_game_rejects_impossible_set_up() -> None:
    config = CATALAN.configure({"players": "2"})
    with pytest.raises(ValueError, match="first dealer"):
        engine.new_game(config, first_dealer=5)
    with pytest.raises(ValueError, match="starting scores"):
        engine.new_game(config, scores=(12, 0))


def test_a_seat_out_of_range_and_a_verb_out_of_phase_are_named() -> None:
    game = new_game(4, dealer=3)
    deal(game, "3o 2o 4o", "12c 11c 10c", "5e 6e 7e", "5b 6b 7b")
    for seat in (9, 4, -1):
        with pytest.raises(RuleError, match=r"\[seat\]"):
            game.apply(Action(seat, "truc"))
    with pytest.raises(RuleError, match=r"\[phase\]"):
        act(game, "0 nocut")
    with pytest.raises(RuleError, match=r"\[unknown-verb\]"):
        game.apply(Action(0, "envido"))
