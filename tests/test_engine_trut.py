"""Trut rules, one test per row of RULES.md's `trut` table (and its 3- and 6-player rows).

Seeds cited: 003 (`../shared/seeds/003_d0def6452ac4cdf8.txt`, "Trut": sections "But du jeu", "Règle du
jeu", "Le cas particulier du fortial") and 001 (`../shared/seeds/001_d9b2870277db81bc.txt`, "TRUT":
"Préparatif", "Déroulement", "Le TRUT", "Calcul des points", "Le Fortial", "Variante pour 3 joueurs",
"Variante pour 6 joueurs"). Tests follow the seeds' own examples where they give one.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from pipeline.cards import FRENCH_32
from pipeline.engine.actions import PASS, Action, RuleError
from pipeline.engine.game import Game, HandRecord, Phase
from pipeline.engine.hand_rules import first_trick_counts_double
from pipeline.engine.replay import replay
from pipeline.engine.rules import TIE, OptionError
from pipeline.engine.trut import TrutGame, token_text
from pipeline.engine.view import SeatView
from pipeline.policies.random_policy import RandomPolicy
from pipeline.policies.threshold import ThresholdPolicy
from pipeline.strength import strength_table
from pipeline.variants import TRUT, get_variant
from tests.scripting import act, deal


def new_trut(
    players: int = 2,
    dealer: int = 1,
    scores: tuple[int, ...] | None = None,
    petits: tuple[int, ...] | None = None,
    **options: str,
) -> TrutGame:
    config = get_variant("trut").configure({"players": str(players), **options})
    game = TrutGame(config, seed=1, first_dealer=dealer, scores=scores, petits=petits)
    return game


def record(game: Game) -> HandRecord:
    assert game.last_hand is not None and game.hand_over
    return game.last_hand


def details(game: Game) -> dict[str, Any]:
    return dict(record(game).details)


def ends(game: Game) -> list[str]:
    return game.end_values(record(game))


def power(card: str) -> int:
    return TRUT.power[FRENCH_32.parse(card)]


# --- deck, ranks, players: seed 003 "Règle du jeu", seed 001 "Matériel", "Préparatif" ----------------


def test_deck_is_french_32() -> None:
    # seed 001 "Matériel": 32 cards; the DE LUXE edition's special cards are a separate game (RULES.md, trut)
    game = new_trut()
    game.deal()
    assert len(TRUT.deck) == 32 and TRUT.deck is FRENCH_32
    assert len({c for h in game.dealt for c in h}) == 6 and len(game.stock) == 26
    assert {card[:-1] for card in TRUT.deck.cards} == {"7", "8", "9", "10", "J", "Q", "K", "A"}  # no special card


def test_rank_order_7_8_A_K_Q_J_10_9_and_suits_do_not_matter() -> None:
    order = ["7h", "8c", "Ad", "Ks", "Qh", "Jc", "10d", "9s"]
    powers = [power(c) for c in order]
    assert powers == sorted(powers, reverse=True) and len(set(powers)) == 8
    assert power("7h") == power("7c") == power("7d") == power("7s")


def test_players_4_by_default_2_allowed_3_alone_and_6_in_teams_of_three() -> None:
    assert TRUT.configure().players == 4
    assert new_trut(2).sides == 2 and new_trut(4).team_of == (0, 1, 0, 1)
    three = new_trut(3, dealer=2)
    assert three.sides == 3 and three.team_of == (0, 1, 2) and three.scores == [0, 0, 0]
    assert new_trut(6).team_of == (0, 1, 0, 1, 0, 1) and new_trut(6).sides == 2
    with pytest.raises(OptionError, match="players='5'"):
        TRUT.configure({"players": "5"})
    with pytest.raises(OptionError, match="unknown option signals"):
        TRUT.configure({"signals": "on"})  # seed 003: cards are shown "ni à leurs partenaires"


# --- lead: seed 003 "Règle du jeu"; option dealer_leads: seed 001 "Déroulement" ---------------------


def test_the_eldest_leads_the_first_trick() -> None:
    game = new_trut(4, dealer=3)
    deal(game, "7h 9h 10h", "Ac 9c 10c", "Kd 9d 10d", "Qs 9s 10s")
    assert game.eldest == 0 and game.actor() == 0
    with pytest.raises(RuleError, match="turn"):
        act(game, "3 play Qs")


def test_option_dealer_leads() -> None:
    game = new_trut(4, dealer=3, dealer_leads="on")
    deal(game, "7h 9h 10h", "Ac 9c 10c", "Kd 9d 10d", "Qs 9s 10s")
    assert game.actor() == 3
    act(game, "3 play Qs", "0 play 7h", "1 play Ac", "2 play Kd")
    assert game.tricks == [0] and game.to_play == 0


# --- tricks: "the first trick counts double" (seed 003 "Règle du jeu", seed 001 "Déroulement") -------


def test_two_first_tricks_win_and_the_third_is_not_played() -> None:
    game = new_trut(2, dealer=1)  # eldest 0
    deal(game, "7h 8h 9h", "Ah Kh Qh")
    act(game, "0 play 7h", "1 play Ah", "0 play 8h", "1 play Kh")
    hand = record(game)
    assert hand.tricks == (0, 0) and hand.winner_team == 0 and game.hands[0] == [FRENCH_32.parse("9h")]


def test_losing_trick_1_the_other_side_must_take_tricks_2_and_3() -> None:
    # seed 001: "la seconde équipe doit impérativement remporter le second et le troisième pour gagner"
    game = new_trut(2, dealer=1)
    deal(game, "7h 9h 10h", "Ah 7c 8c")
    act(game, "0 play 7h", "1 play Ah", "0 play 9h", "1 play 7c")
    assert game.phase == Phase.PLAY and game.tricks == [0, 1]  # undecided: trick 3 decides
    act(game, "1 play 8c", "0 play 10h")
    assert record(game).winner_team == 1 and record(game).tie_rule is None


def test_trick_1_won_then_a_tie_leaves_the_hand_to_the_winner_of_trick_1() -> None:
    # seed 003: "mais s'il est pourri, il ira à l'équipe qui possède le premier"
    game = new_trut(2, dealer=1)
    deal(game, "7h 9h 10h", "Ah 9c 8c")
    act(game, "0 play 7h", "1 play Ah", "0 play 9h", "1 play 9c")
    hand = record(game)
    assert hand.tricks == (0, TIE) and hand.winner_team == 0 and hand.tie_rule == "first_counts_double"


def test_trick_1_won_trick_2_lost_trick_3_tied_goes_to_the_winner_of_trick_1() -> None:
    game = new_trut(2, dealer=1)
    deal(game, "7h 9h 10h", "Ah 7c 10c")
    act(game, "0 play 7h", "1 play Ah", "0 play 9h", "1 play 7c", "1 play 10c", "0 play 10h")
    hand = record(game)
    assert hand.tricks == (0, 1, TIE) and hand.winner_team == 0 and hand.tie_rule == "first_counts_double"


def test_trick_1_tied_trick_2_decides() -> None:
    game = new_trut(2, dealer=1)
    deal(game, "7h 9h 10h", "7c Ac 8c")
    act(game, "0 play 7h", "1 play 7c")
    assert game.tricks == [TIE]
    act(game, "1 play 8c", "0 play 9h")  # qui pourrit dépourrit: seat 1 made the tie and leads
    hand = record(game)
    assert hand.tricks == (TIE, 1) and hand.winner_team == 1 and hand.tie_rule == "tie_next_decides"


def test_tricks_1_and_2_tied_trick_3_decides() -> None:
    game = new_trut(2, dealer=1)
    deal(game, "7h 8h 10h", "7c 8c Ac")
    act(game, "0 play 7h", "1 play 7c", "1 play 8c", "0 play 8h", "0 play 10h", "1 play Ac")
    hand = record(game)
    assert hand.tricks == (TIE, TIE, 1) and hand.winner_team == 1


def test_all_three_tricks_tied_the_hand_is_void_and_a_new_hand_is_dealt() -> None:
    # seed 003: "la manche est nulle, et une autre démarre à la suite"; seed 001: "la Manche est Pourrie"
    game = new_trut(2, dealer=1)
    deal(game, "7h 8h Ah", "7c 8c Ac")
    act(game, "0 play 7h", "1 play 7c", "1 play 8c", "0 play 8h", "0 play Ah", "1 play Ac")
    hand = record(game)
    assert hand.winner_team is None and hand.points == (0, 0) and details(game)["void"] is True
    assert hand.tie_rule == "all_tied" and ends(game) == ["0", "0"] and game.scores == [0, 0]
    game.next_hand()
    assert game.hand_no == 2 and game.dealer == 0 and game.phase == Phase.DEAL


def test_first_trick_counts_double_as_a_rule_function() -> None:
    rule = first_trick_counts_double
    assert rule([0], 3, 0) is None and rule([0, 0], 3, 0) == (0, None)
    assert rule([0, 1], 3, 0) is None and rule([0, 1, 1], 3, 0) == (1, None)
    # trick 1 and trick 3 to one side: it has two tricks of three, and no rule was needed to decide
    assert rule([0, 1, 0], 3, 0) == (0, None) and rule([1, 0, 1], 3, 0) == (1, None)
    assert rule([0, 1, TIE], 3, 0) == (0, "first_counts_double")
    assert rule([0, 1, 2], 3, 0) == (0, "first_counts_double")  # 3 players, 1-1-1
    assert rule([TIE, TIE, TIE], 3, 0) == (None, "all_tied") and rule([TIE, TIE], 3, 0) is None


def test_after_a_tie_the_player_who_made_it_leads_qui_pourrit_depourrit() -> None:
    # seed 003: "ou à défaut celui qui a pourri le pli précédent (Qui pourrit dépourrit)"
    game = new_trut(4, dealer=3)
    deal(game, "7h 9h 10h", "Kc 9c 10c", "Jd 9d 10d", "7s 9s 10s")
    act(game, "0 play 7h", "1 play Kc", "2 play Jd", "3 play 7s")
    assert game.tricks == [TIE] and game.to_play == 3


def test_option_tie_lead_first_the_first_of_the_equal_cards_leads() -> None:
    # seed 001: "en commençant par le joueur qui a mis, en premier, l'une des deux plus fortes cartes"
    game = new_trut(4, dealer=3, tie_lead="first")
    deal(game, "7h 9h 10h", "Kc 9c 10c", "Jd 9d 10d", "7s 9s 10s")
    act(game, "0 play 7h", "1 play Kc", "2 play Jd", "3 play 7s")
    assert game.tricks == [TIE] and game.to_play == 0


def test_a_tie_is_made_by_the_first_card_of_the_other_side_to_match_the_best() -> None:
    # 6 players: seats 0 and 2 (one side) lay sevens, then seat 3 matches them for the other side. Seat 2's
    # seven made no tie (equal cards of one side are none, RULES.md "Common model"): seat 3 made it.
    hands = ("7h 9h 10h", "Kc 9c 10c", "7d 9d 10d", "7s 9s 10s", "Jh Jc Jd", "Qh Qc Qd")
    for tie_lead, leader in (("maker", 3), ("first", 0)):
        game = new_trut(6, dealer=5, tie_lead=tie_lead)
        deal(game, *hands)
        act(game, "0 play 7h", "1 play Kc", "2 play 7d", "3 play 7s", "4 play Jh", "5 play Qh")
        assert game.tricks == [TIE] and game.to_play == leader


def test_equal_top_cards_of_one_team_are_no_tie() -> None:
    game = new_trut(4, dealer=3)
    deal(game, "Ah 9h 10h", "7c 9c 10c", "Jd 9d 10d", "7s 9s 8s")
    act(game, "0 play Ah", "1 play 7c", "2 play Jd", "3 play 7s")
    assert game.tricks == [1] and game.to_play == 1


# --- the trut: seed 003 "Règle du jeu", seed 001 "Le TRUT" -------------------------------------------


def test_any_player_may_trut_at_any_moment_even_out_of_turn() -> None:
    game = new_trut(4, dealer=3)
    deal(game, "7h 9h 10h", "Kc 9c 10c", "Jd 9d 10d", "8s 9s 10s")
    assert game.optional_actors() == [1, 2, 3]  # everyone but the seat to play, from the eldest
    act(game, "0 play 9h", "1 play 9c")
    assert game.actor() == 2 and game.optional_actors() == [0, 1, 3]
    (event,) = act(game, "0 trut")  # seat 0 has played; seat 2 is to play: "même au milieu d'un tour"
    assert event.kind == "raise" and event.trick_no == 1 and event.stake_after == 3
    assert game.truter == 0 and game.optional_actors() == []


def test_a_trut_is_possible_until_the_last_card_is_played() -> None:
    game = new_trut(2, dealer=1)
    deal(game, "7h 9h 10h", "Ah 7c 8c")
    act(game, "0 play 7h", "1 play Ah", "0 play 9h", "1 play 7c", "1 play 8c")
    act(game, "1 trut", "0 accept", "0 play 10h")  # the last card
    assert record(game).winner_team == 1 and record(game).points == (0, 3)
    with pytest.raises(RuleError, match="hand-over"):
        act(game, "0 trut")


def test_one_trut_per_hand_and_no_raise_over_it() -> None:
    game = new_trut(2, dealer=1)
    deal(game, "7h 9h 10h", "Ah 7c 8c")
    act(game, "0 trut")
    with pytest.raises(RuleError, match="one-trut"):
        act(game, "1 trut")
    act(game, "1 accept")
    with pytest.raises(RuleError, match="one-trut"):
        act(game, "1 trut")


def test_the_opponents_answer_one_by_one_from_the_eldest() -> None:
    # seed 003: "chacun à leur tour ... en commençant par le joueur à la gauche du donneur"
    game = new_trut(4, dealer=2)  # eldest 3, of team 1
    deal(game, "7h 9h 10h", "Kc 9c 10c", "Jd 9d 10d", "8s 9s Qs")
    act(game, "0 trut")  # team 0 truts: team 1 answers, seat 3 (the eldest) first, then seat 1
    assert game.answerers == [3, 1] and game.actor() == 3
    with pytest.raises(RuleError, match="answer-order"):
        act(game, "1 accept")
    with pytest.raises(RuleError, match="answer-first"):
        act(game, "3 play 8s")
    act(game, "3 fold")
    assert game.actor() == 1


def test_the_answers_start_at_the_first_opponent_after_the_eldest() -> None:
    game = new_trut(4, dealer=3)  # eldest 0, of team 0
    deal(game, "7h 9h 10h", "Kc 9c 10c", "Jd 9d 10d", "8s 9s Qs")
    act(game, "2 trut")
    assert game.answerers == [1, 3]


def test_one_see_is_enough_and_the_others_need_not_answer() -> None:
    # seed 003: "Le défi est relevé si un seul des joueurs de l'équipe adverse le relève."
    game = new_trut(4, dealer=3)
    deal(game, "7h 9h 10h", "Kc 9c 10c", "Jd 9d 10d", "8s 9s Qs")
    act(game, "2 trut", "1 fold", "3 accept")
    assert game.stake == 3 and game.answerers == [] and game.actor() == 0
    game2 = new_trut(4, dealer=3)
    deal(game2, "7h 9h 10h", "Kc 9c 10c", "Jd 9d 10d", "8s 9s Qs")
    act(game2, "2 trut", "1 accept")
    with pytest.raises(RuleError, match="nothing-to-answer"):
        act(game2, "3 accept")  # once one has seen, the record holds no further answer
    act(game2, "0 play 7h")


def test_all_fold_the_truters_take_1_petit_without_play() -> None:
    # seed 003: "se coucher ... l'équipe qui a truté reçoit un petit"
    game = new_trut(4, dealer=3)
    deal(game, "7h 9h 10h", "Kc 9c 10c", "Jd 9d 10d", "8s 9s Qs")
    act(game, "0 play 9h", "3 trut", "0 fold", "2 fold")
    hand = record(game)
    assert hand.ended_by == "fold" and hand.winner_team == 1 and ends(game) == ["0", "1p"]
    assert game.petits == [0, 1] and details(game)["trut_seat"] == 3 and hand.stake == 1


# --- scoring: seed 001 "Calcul des points", seed 003 "Règle du jeu" ----------------------------------


def test_no_trut_the_winner_takes_1_petit() -> None:
    game = new_trut(2, dealer=1)
    deal(game, "7h 8h 9h", "Ah Kh Qh")
    act(game, "0 play 7h", "1 play Ah", "0 play 8h", "1 play Kh")
    assert ends(game) == ["1p", "0"] and game.petits == [1, 0] and game.scores == [0, 0]
    assert record(game).points == (1, 0) and record(game).stake == 1 and details(game)["trut_seat"] is None


def test_trut_and_play_the_winner_takes_1_long_and_the_loser_loses_its_petits() -> None:
    game = new_trut(2, dealer=1, petits=(2, 1))
    deal(game, "Ah Kh Qh", "7h 8h 9h")
    act(game, "0 trut", "1 accept", "0 play Ah", "1 play 7h", "1 play 8h", "0 play Kh")
    hand = record(game)
    assert hand.winner_team == 1 and ends(game) == ["0", "1l"] and hand.points == (0, 3) and hand.stake == 3
    assert game.scores == [0, 1] and game.petits == [0, 1]  # the winner keeps its own petits
    info = details(game)
    assert info["longs_team1"] == 1 and info["petits_after_team0"] == 0 and info["longs_after_team1"] == 1


def test_3_petits_turn_into_a_long_and_the_other_side_loses_its_petits() -> None:
    # seed 001: "3 Petits permettent de former 1 Long ... tous les Petits sont défaussés"
    game = new_trut(2, dealer=1, scores=(2, 3), petits=(2, 1))
    deal(game, "7h 8h 9h", "Ah Kh Qh")
    act(game, "0 play 7h", "1 play Ah", "0 play 8h", "1 play Kh")
    assert game.scores == [3, 3] and game.petits == [0, 0]
    assert ends(game) == ["1p", "0"]  # petits turned into a long are not written (FORMAT.md)
    info = details(game)
    assert info["petits_team0"] == 1 and info["longs_team0"] == 0 and info["longs_after_team0"] == 3


def test_the_target_is_7_longs() -> None:
    # seed 003 "But du jeu": "collecter 7 jetons longs"
    game = new_trut(2, dealer=1, scores=(6, 5), petits=(0, 2))
    deal(game, "7h 8h 9h", "Ah Kh Qh")
    act(game, "1 trut", "0 accept", "0 play 7h", "1 play Ah", "0 play 8h", "1 play Kh")
    assert game.over and game.winner_team == 0 and game.scores == [7, 5] and game.result_text() == "7-5"
    with pytest.raises(RuleError, match="game-over"):
        game.next_hand()


# --- the fortial: seed 003 "Le cas particulier du fortial", seed 001 "Le Fortial" --------------------


def test_au_fortial_the_first_player_decides_before_the_others_look() -> None:
    game = new_trut(4, dealer=3, scores=(3, 6), petits=(1, 2))  # team 1 au fortial; eldest 0
    deal(game, "7h 9h 10h", "Kc 9c 10c", "Jd 9d 10d", "8s 9s Qs")
    assert game.phase == Phase.FORTIAL and game.actor() == 1 and game.decision(1) == "fortial"
    assert game.legal_actions() == [Action(1, "trut"), Action(1, PASS)]
    with pytest.raises(RuleError, match="fortial"):
        act(game, "0 play 7h")  # the opponents may not look, let alone play
    act(game, "1 pass")
    assert game.actor() == 3  # "s'il ne trute pas, son partenaire regarde le jeu"
    act(game, "3 pass")
    hand = record(game)
    assert hand.ended_by == "pass" and ends(game) == ["1p", "0"] and details(game)["special"] == "fortial"
    assert hand.winner_team == 0
    assert hand.tricks == () and game.petits == [2, 2] and not game.over


def test_au_fortial_the_deciding_seat_truts_or_passes_and_nothing_else() -> None:
    game = new_trut(2, dealer=1, scores=(6, 4), petits=(2, 0))  # seat 0's side au fortial decides
    deal(game, "9h 9d 9c", "7c 7d Ac")
    with pytest.raises(RuleError, match=r"'play': the side au fortial truts or passes \[fortial\]"):
        act(game, "0 play 9h")  # no card before the call is made
    with pytest.raises(RuleError, match=r"'trut brelan' is not played.*\[announcement\]"):
        act(game, "0 trut brelan")  # three 9s, but brelan is off
    brelan = new_trut(2, dealer=1, scores=(6, 4), petits=(2, 0), brelan="on")
    deal(brelan, "9h 9d 9c", "7c 7d Ac")
    (event,) = act(brelan, "0 trut brelan")  # announced at the fortial call, before play
    assert event.arg == "brelan" and event.trick_no == 0 and brelan.answerers == [1]


def test_au_fortial_a_trut_must_be_seen_folding_loses_the_game() -> None:
    game = new_trut(2, dealer=1, scores=(6, 4), petits=(2, 0))
    deal(game, "9h 9d 10h", "7c 7d Ac")
    act(game, "0 trut", "1 fold")  # the truters take 1 petit: the third, the seventh long
    assert game.over and game.winner_team == 0 and game.scores == [7, 4] and ends(game) == ["1p", "0"]


def test_au_fortial_a_seen_trut_is_played_the_loser_leaves_the_fortial() -> None:
    game = new_trut(2, dealer=1, scores=(6, 4), petits=(2, 0))
    deal(game, "9h 9d 10h", "7c 7d Ac")
    act(game, "0 trut", "1 accept", "0 play 10h", "1 play Ac", "1 play 7c", "0 play 9h")
    assert game.scores == [6, 5] and game.petits == [0, 0] and not game.over
    game.next_hand()
    deal(game, "9h 9d 10h", "7c 7d Ac")
    assert game.phase == Phase.PLAY  # out of the fortial


def test_6_longs_without_2_petits_is_not_the_fortial() -> None:
    """The fortial is 6 longs and 2 petits, one petit from the game (seed 003 "Le cas particulier du
    fortial"): 6 longs and 1 petit play an ordinary hand."""
    game = new_trut(2, dealer=1, scores=(6, 4), petits=(1, 0))
    deal(game, "7h 8h 9h", "Ah Kh Qh")
    assert game.phase == Phase.PLAY and game.actor() == 0 and game.public_state()["special"] is None
    act(game, "0 play 7h")


def test_both_teams_au_fortial_play_normally_and_the_winner_takes_the_game() -> None:
    game = new_trut(2, dealer=1, scores=(6, 6), petits=(2, 2))
    deal(game, "7h 8h 9h", "Ah Kh Qh")
    assert game.phase == Phase.PLAY and game.optional_actors() == [1]
    act(game, "0 play 7h", "1 play Ah", "0 play 8h", "1 play Kh")
    assert game.over and game.winner_team == 0 and details(game)["special"] == "fortial_both"


# --- brelan: seed 003 "Règle du jeu" ("on joue le brelan") ---------------------------------------------


def test_brelan_is_a_trut_that_shows_the_hand_with_option_brelan() -> None:
    game = new_trut(2, dealer=1, brelan="on")
    deal(game, "Ah Ad Ac", "7h 8h 9h")  # "Exemple de main : brelan d'as"
    assert Action(0, "trut", "brelan") in game.legal_for(0)
    assert Action(1, "trut", "brelan") not in game.legal_for(1)
    with pytest.raises(RuleError, match="does not hold a brelan"):
        act(game, "1 trut brelan")
    (event,) = act(game, "0 trut brelan")
    assert event.arg == "brelan" and game.public_state()["announced"] == "brelan"
    act(game, "1 fold")
    assert ends(game) == ["1p", "0"]


def test_a_pair_is_not_a_brelan() -> None:
    """A brelan is three cards of one rank (seed 003 "Règle du jeu": "brelan d'as"): a pair and an odd
    card may not be announced."""
    game = new_trut(2, dealer=1, brelan="on")
    deal(game, "Ah Ad 7c", "7h 8h 9h")
    assert Action(0, "trut", "brelan") not in game.legal_for(0) and Action(0, "trut") in game.legal_for(0)
    with pytest.raises(RuleError, match="does not hold a brelan"):
        act(game, "0 trut brelan")


def test_no_brelan_without_the_option() -> None:
    game = new_trut(2, dealer=1)
    deal(game, "Ah Ad Ac", "7h 8h 9h")
    with pytest.raises(RuleError, match="announcement"):
        act(game, "0 trut brelan")


# --- 3 players, each alone: seed 001 "Variante pour 3 joueurs" -----------------------------------------


def test_3_players_a_1_1_1_split_goes_to_the_winner_of_trick_1() -> None:
    game = new_trut(3, dealer=2)  # eldest 0
    deal(game, "7h 9h 10h", "Ac 7c 9c", "Kd Jd 8s")
    act(game, "0 play 7h", "1 play Ac", "2 play Kd")
    act(game, "0 play 9h", "1 play 7c", "2 play Jd")
    act(game, "1 play 9c", "2 play 8s", "0 play 10h")
    hand = record(game)
    assert hand.tricks == (0, 1, 2) and hand.winner_team == 0 and hand.tie_rule == "first_counts_double"
    assert ends(game) == ["1p", "0", "0"] and game.petits == [1, 0, 0]


def test_3_players_both_fold_the_truter_takes_2_petits() -> None:
    game = new_trut(3, dealer=2)
    deal(game, "7h 9h 10h", "Ac 7c 9c", "Kd Jd 8s")
    act(game, "1 trut", "0 fold", "2 fold")
    assert ends(game) == ["0", "2p", "0"] and game.petits == [0, 2, 0] and record(game).points == (0, 2, 0)


def test_3_players_one_folds_the_truter_takes_1_petit_and_plays_the_other_for_1_long() -> None:
    game = new_trut(3, dealer=2, petits=(1, 0, 1))
    deal(game, "7h 9h 10h", "Ac 7c 9c", "Kd Jd 8s")
    act(game, "1 trut")
    assert game.answerers == [0, 2]  # both opponents answer, from the eldest
    act(game, "0 fold", "2 accept")
    assert game.petits == [1, 1, 1] and game.stake == 3 and game.actor() == 1  # the folder's lead passes on
    with pytest.raises(RuleError, match="folded"):
        act(game, "0 play 7h")
    act(game, "1 play 7c", "2 play 8s", "1 play Ac", "2 play Kd")
    hand = record(game)
    assert hand.winner_team == 1 and ends(game) == ["0", "1l1p", "0"] and hand.points == (0, 4, 0)
    # "Celui des deux qui remporte la Manche gagne 1 Long et l'autre perd ses Petits"
    assert game.scores == [0, 1, 0] and game.petits == [1, 1, 0]


def test_3_players_one_folds_and_the_truters_2_petits_turn_into_a_long_at_once() -> None:
    # seed 001: "si le joueur possède déjà 2 Petits, ils sont immédiatement convertis en 1 Long"
    game = new_trut(3, dealer=2, petits=(1, 2, 1))
    deal(game, "7h 9h 10h", "Ac 7c 9c", "Kd Jd 8s")
    act(game, "0 play 7h", "1 trut", "0 accept", "2 fold")
    assert game.scores == [0, 1, 0] and game.petits == [0, 0, 0]
    # seat 2 leaves the hand; seat 0's card stays: seat 1 is to play in trick 1
    assert game.actor() == 1 and game.trick == [(0, FRENCH_32.parse("7h"))]
    act(game, "1 play 9c")
    assert game.tricks == [0] and game.actor() == 0


def test_3_players_a_fold_after_play_withdraws_the_folders_card_and_tricks() -> None:
    game = new_trut(3, dealer=2)
    deal(game, "9h Jh 10h", "Ac 8c 9c", "7d Qd 8s")
    act(game, "0 play 9h", "1 play 9c", "2 play 7d")  # seat 2 takes trick 1
    act(game, "2 play 8s", "0 play Jh")
    act(game, "1 trut", "0 accept", "2 fold")
    # trick 1 (seat 2's) counts as tied from now on; seat 2's 8s leaves the trick; seat 1 plays on
    assert game.tricks == [TIE] and game.trick == [(0, FRENCH_32.parse("Jh"))] and game.actor() == 1
    act(game, "1 play Ac")
    hand = record(game)
    assert hand.winner_team == 1 and hand.tricks == (TIE, 1) and ends(game) == ["0", "1l1p", "0"]


def test_3_players_both_see_the_winner_takes_2_longs_and_the_others_lose_their_petits() -> None:
    game = new_trut(3, dealer=2, petits=(2, 1, 1))
    deal(game, "7h 9h 10h", "Ac 7c 9c", "Kd Jd 8s")
    act(game, "2 trut", "0 accept", "1 accept")
    assert game.stake == 6
    act(game, "0 play 7h", "1 play Ac", "2 play Kd", "0 play 9h", "1 play 7c", "2 play Jd")
    act(game, "1 play 9c", "2 play 8s", "0 play 10h")
    hand = record(game)
    assert hand.winner_team == 0 and ends(game) == ["2l", "0", "0"] and hand.points == (6, 0, 0)
    assert game.scores == [2, 0, 0] and game.petits == [2, 0, 0]


# --- 6 players: seed 001 "Variante pour 6 joueurs" ---------------------------------------------------


def test_6_players_teams_of_three_answer_one_by_one_and_one_see_is_enough() -> None:
    game = new_trut(6, dealer=5)  # eldest 0
    deal(game, "7h 9h 10h", "Kc 9c 10c", "Jd 9d 10d", "8s 9s Qs", "7c 8h Js", "Ad Kd Qd")
    act(game, "4 trut")
    assert game.answerers == [1, 3, 5]
    act(game, "1 fold", "3 fold", "5 accept")
    assert game.stake == 3 and game.actor() == 0
    act(game, "0 play 7h", "1 play Kc", "2 play Jd", "3 play 8s", "4 play 8h", "5 play Ad")
    assert game.tricks == [0]


# --- the record: FORMAT.md "Play", replay ------------------------------------------------------------


def test_end_values_tokens_and_replay_of_a_scripted_game() -> None:
    assert [token_text(0, 0), token_text(0, 1), token_text(2, 0), token_text(1, 1)] == ["0", "1p", "2l", "1l1p"]
    game = new_trut(2, dealer=1)
    deal(game, "7h 8h 9h", "Ah Kh Qh")
    act(game, "1 trut", "0 accept", "0 play 7h", "1 play Ah", "0 play 8h", "1 play Kh")
    first = record(game)
    game.next_hand()
    deal(game, "7h 8h 9h", "Ah Kh Qh")
    act(game, "1 play Kh", "0 trut", "1 fold")
    again = replay(game.config, game.first_dealer, [first, record(game)])
    assert again.scores == game.scores == [1, 0] and again.petits == game.petits == [1, 0]


# --- the threshold policy's trut decisions (pipeline/policies/trut_decisions.py) and strength ------------


def test_threshold_truts_out_of_turn_with_a_strong_hand_and_plays_a_weak_one() -> None:
    game = new_trut(4, dealer=3)
    deal(game, "9h 10h Jh", "7c 7d 8c", "Jd 9d 10d", "8s 9s Qs")
    calm = ThresholdPolicy(trut_at=0.8, trut_bluff=0.0)
    assert game.decision(1, optional=True) == "trut_option"
    assert calm.step(SeatView(game, 1, optional=True), random.Random(0)) == Action(1, "trut")
    assert ThresholdPolicy(trut_at=0.8, trut_bluff=0.0).step(SeatView(game, 2, True), random.Random(0)) is None
    action = ThresholdPolicy(trut_at=0.8, trut_bluff=0.0).step(SeatView(game, 0), random.Random(0))
    assert action == Action(0, "play", FRENCH_32.parse("Jh"))  # the eldest leads its highest card
    bluffer = ThresholdPolicy(trut_at=1.0, trut_bluff=1.0)
    assert bluffer.step(SeatView(game, 2, True), random.Random(0)) == Action(2, "trut")


def test_threshold_answers_by_see_at_announces_a_brelan_and_sees_against_the_fortial() -> None:
    game = new_trut(2, dealer=1, brelan="on")
    deal(game, "Ah Ad Ac", "7h 8h 9h")
    assert ThresholdPolicy(trut_at=0.5).step(SeatView(game, 0), random.Random(0)) == Action(0, "trut", "brelan")
    act(game, "0 trut brelan")
    assert game.decision(1) == "trut_answer"
    assert ThresholdPolicy(see_announced=0.8).step(SeatView(game, 1), random.Random(0)) == Action(1, "accept")
    assert ThresholdPolicy(see_at=0.5, see_announced=0.95).step(SeatView(game, 1), random.Random(0)) == Action(
        1, "fold"
    )
    fortial = new_trut(2, dealer=1, scores=(6, 0), petits=(2, 0))
    deal(fortial, "9h 10h Jh", "9c 10c Jc")
    assert ThresholdPolicy(fortial_at=0.9).step(SeatView(fortial, 0), random.Random(0)) == Action(0, PASS)
    assert ThresholdPolicy(fortial_at=0.0).step(SeatView(fortial, 0), random.Random(0)) == Action(0, "trut")
    act(fortial, "0 trut")
    assert ThresholdPolicy(see_at=1.0).step(SeatView(fortial, 1), random.Random(0)) == Action(1, "accept")
    # both sides au fortial: a fold still gives the truters their third petit and the game, so it is seen
    both = new_trut(2, dealer=1, scores=(6, 6), petits=(2, 2))
    deal(both, "9h 10h Jh", "9c 10c Jc")
    act(both, "0 trut")
    assert both.special == "fortial_both"
    assert ThresholdPolicy(see_at=1.0).step(SeatView(both, 1), random.Random(0)) == Action(1, "accept")
    # 3 players, sides 0 and 1 au fortial: side 2's trut is answered by strength (its fold costs 1 petit)
    three = new_trut(3, dealer=2, scores=(6, 6, 0), petits=(2, 2, 0))
    deal(three, "9h 10h Jh", "9c 10c Jc", "9d 10d Jd")
    act(three, "2 trut")
    assert three.special == "fortial_both" and three.decision(0) == "trut_answer"
    assert ThresholdPolicy(see_at=1.0).step(SeatView(three, 0), random.Random(0)) == Action(0, "fold")


def test_random_policy_may_trut_out_of_turn_or_decline() -> None:
    game = new_trut(3, dealer=2)
    deal(game, "7h 9h 10h", "Ac 7c 9c", "Kd Jd 8s")
    policy, rng = RandomPolicy(), random.Random(1)
    assert {policy.step(SeatView(game, 2, optional=True), rng) for _ in range(40)} == {None, Action(2, "trut")}


def test_strength_tables_work_for_trut() -> None:
    table = strength_table(TRUT, 3)
    best = table.lookup(TRUT.power, [FRENCH_32.parse(c) for c in ("7h", "7d", "7c")])
    worst = table.lookup(TRUT.power, [FRENCH_32.parse(c) for c in ("9h", "9d", "9c")])
    assert best[1] > 0.99 and worst[1] < 0.01 and 0 == worst[0] < best[0] <= 1  # three 9s can at best tie


def test_a_trut_in_the_fortial_call_is_made_before_play() -> None:
    game = new_trut(2, dealer=1, scores=(6, 4), petits=(2, 0))
    deal(game, "9h 9d 10h", "7c 7d Ac")
    (event,) = act(game, "0 trut")
    assert event.trick_no == 0 and game.phase == Phase.PLAY and game.actor() == 1
