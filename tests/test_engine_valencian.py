"""Valencian Truc rules, one test (or more) per row of RULES.md's `valencian` table.

Sections cited are those of seed 004 (`../shared/seeds/004_19b76588bcb55e96.txt`, "El joc del truc"):
"Cartes utilitzades", "El valor de les cartes", "El joc pla", "Trucar, retrucar, quatre val i joc fora",
"La puntuació", "L'envit, el torne i la falta", "Jugar per parelles", "Senyes".
"""

from __future__ import annotations

import random
from itertools import permutations

import pytest

from pipeline.cards import UNKNOWN, VALENCIAN_22, VALENCIAN_26
from pipeline.engine import game as engine
from pipeline.engine.actions import Action, Event, RuleError
from pipeline.engine.game import Game, HandRecord, Phase
from pipeline.engine.rules import TIE, OptionError
from pipeline.engine.valencian import SENYA_WORDS, ValencianGame, _envit_value, envit_value, falta_stones
from pipeline.engine.view import SeatView
from pipeline.parts import new_batches
from pipeline.policies.threshold import ThresholdPolicy
from pipeline.rows import add_game
from pipeline.strength import heads_up_win, strength_table
from pipeline.variants import VALENCIAN, get_variant
from pipeline.variants.valencian import VALENCIAN_TWOS
from tests.scripting import action, deal


def new_game(
    players: int = 2,
    dealer: int = 1,
    stones: tuple[int, int] = (0, 0),
    cames_won: tuple[int, int] = (0, 0),
    **options: str,
) -> ValencianGame:
    """A valencian game; with the default dealer 1 the eldest is seat 0."""
    config = VALENCIAN.configure({"players": str(players), **options})
    game = ValencianGame(config, 1, dealer, cames_won, stones=stones)
    assert isinstance(game, ValencianGame)
    return game


def act(game: Game, *lines: str) -> list[Event]:
    """``tests.scripting.act``, reading the card of ``cover`` too."""
    events = []
    for line in lines:
        move = action(game, line)
        if move.verb == "cover":
            move = Action(move.seat, "cover", game.variant.deck.parse(str(move.arg)))
        events.append(game.apply(move))
    return events


def record(game: Game) -> HandRecord:
    assert game.last_hand is not None and game.hand_over
    return game.last_hand


def power(card: str) -> int:
    return VALENCIAN.power[VALENCIAN_22.parse(card)]


def details(game: Game) -> dict[str, object]:
    return dict(record(game).details)


# --- seed 004 "Cartes utilitzades", "El valor de les cartes": deck, ranks, covered cards ----------------


def test_deck_is_22_cards_and_twos_add_the_four_2s() -> None:
    assert len(VALENCIAN_22) == 22
    assert set(VALENCIAN_22.cards) == {
        *(f"{r}{s}" for s in "oc" for r in "34567"),
        *(f"{r}{s}" for s in "eb" for r in "134567"),
    }
    assert set(VALENCIAN_26.cards) == set(VALENCIAN_22.cards) | {"2o", "2c", "2e", "2b"}
    assert VALENCIAN.configure().variant.deck is VALENCIAN_22
    twos = VALENCIAN.configure({"twos": "on"})
    assert twos.variant is VALENCIAN_TWOS and twos.variant.deck is VALENCIAN_26 and twos.variant.name == "valencian"
    with pytest.raises(Exception, match="not a card"):
        VALENCIAN_22.parse("12o")


def test_rank_order_by_card_espasa_basto_manilles_threes_sets_borts_6_5_4() -> None:
    order = ["1e", "1b", "7e", "7o", "3o", "7c", "6e", "5b", "4o"]
    powers = [power(c) for c in order]
    assert powers == sorted(powers, reverse=True) and len(set(powers)) == len(order)
    assert power("3o") == power("3c") == power("3e") == power("3b")
    assert power("7c") == power("7b") < power("3b")
    with_twos = {c: VALENCIAN_TWOS.power[i] for i, c in enumerate(VALENCIAN_26.cards)}
    assert with_twos["3o"] > with_twos["2e"] == with_twos["2o"] > with_twos["7c"]


def test_a_covered_card_ranks_below_every_card_and_hides_the_card() -> None:
    game = new_game()
    deal(game, "3o 4o 5o", "4c 6c 7c")
    (event,) = act(game, "0 cover 3o")
    assert event.verb == "cover" and event.arg == VALENCIAN_22.parse("3o") and event.kind == "play"
    assert SeatView(game, 1).trick == [(0, game.covered)]  # the opponent does not see the card
    act(game, "1 play 4c")
    assert game.tricks == [1] and game.to_play == 1


def test_two_covered_cards_tie() -> None:
    game = new_game()
    deal(game, "3o 4o 5o", "4c 6c 7c")
    act(game, "0 cover 3o", "1 cover 4c")
    assert game.tricks == [TIE] and game.to_play == 0


def test_a_record_may_cover_a_card_nobody_saw() -> None:
    # seed 004 "Cartes tapades": a card laid face down; FORMAT.md: a card nobody saw is written ??
    game = new_game()
    game.apply_deal([[VALENCIAN_22.parse(c) for c in ["3o", "4o", "5o"]], [UNKNOWN] * 3])
    assert Action(0, "cover", UNKNOWN) not in game.legal_for(0)  # seat 0's cards are all known
    act(game, "0 play 3o")
    assert Action(1, "cover", UNKNOWN) in game.legal_for(1)
    event = game.apply(Action(1, "cover", UNKNOWN))
    assert Event(*event).arg == UNKNOWN and game.hands[1] == [UNKNOWN, UNKNOWN]
    assert game.tricks == [0]  # below every card, whichever it was
    with pytest.raises(RuleError, match=r"seat 0 holds no unseen card \(\?\?\) to cover \[card-not-held\]"):
        game.apply(Action(0, "cover", UNKNOWN))


def test_players_are_2_by_default_or_4_in_pairs() -> None:
    assert VALENCIAN.configure().players == 2
    assert VALENCIAN.configure({"players": "4"}).players == 4
    with pytest.raises(OptionError, match="players='3'"):
        VALENCIAN.configure({"players": "3"})
    game = new_game(4)
    assert game.team_of == (0, 1, 0, 1)
    assert get_variant("valencian") is VALENCIAN


# --- seed 004 "El joc pla": tricks ------------------------------------------------------------------


def test_two_tricks_win() -> None:
    game = new_game()
    deal(game, "1e 1b 4o", "3c 3e 4c")
    act(game, "0 play 1e", "1 play 3c", "0 play 1b", "1 play 3e")
    assert record(game).tricks == (0, 0) and record(game).points == (1, 0)


def test_tied_first_trick_the_second_decides_and_the_leader_leads_again() -> None:
    game = new_game()
    deal(game, "3o 4o 5o", "3c 6c 7c")
    act(game, "0 play 3o", "1 play 3c")
    assert game.tricks == [TIE] and game.to_play == 0
    act(game, "0 play 4o", "1 play 6c")
    assert record(game).tricks == (TIE, 1) and record(game).winner_team == 1


def test_first_two_tricks_tied_the_third_decides() -> None:
    game = new_game()
    deal(game, "3o 6o 4o", "3c 6c 5c")
    act(game, "0 play 3o", "1 play 3c", "0 play 6o", "1 play 6c", "0 play 4o", "1 play 5c")
    assert record(game).tricks == (TIE, TIE, 1) and record(game).winner_team == 1


def test_three_tied_tricks_go_to_the_eldest() -> None:
    game = new_game(dealer=0)  # eldest 1
    deal(game, "3o 6o 4o", "3c 6c 4c")
    act(game, "1 play 3c", "0 play 3o", "1 play 6c", "0 play 6o", "1 play 4c", "0 play 4o")
    hand = record(game)
    assert hand.tricks == (TIE, TIE, TIE) and hand.winner_team == 1 and hand.tie_rule == "all_tied_eldest"


def test_la_primera_val_per_dos_a_later_tie_goes_to_the_first_trick_winner() -> None:
    game = new_game()
    deal(game, "3o 6o 4o", "7c 6c 5c")
    act(game, "0 play 3o", "1 play 7c", "0 play 6o", "1 play 6c")
    assert record(game).tricks == (0, TIE) and record(game).winner_team == 0
    game = new_game()
    deal(game, "3o 4o 5o", "7c 6c 5c")
    act(game, "0 play 3o", "1 play 7c", "0 play 4o", "1 play 6c", "1 play 5c", "0 play 5o")
    hand = record(game)
    assert hand.tricks == (0, 1, TIE) and hand.winner_team == 0 and hand.tie_rule == "first_decisive"


def test_in_pairs_the_pair_wins_two_tricks_whoever_takes_them() -> None:
    game = new_game(4, dealer=3)  # eldest 0; pairs {0, 2} and {1, 3}
    deal(game, "1e 4o 5o", "3c 4c 5c", "4e 1b 6e", "6b 5b 7b")
    act(game, "0 play 1e", "1 play 3c", "2 play 4e", "3 play 6b")
    act(game, "0 play 4o", "1 play 4c", "2 play 1b", "3 play 5b")
    assert record(game).tricks == (0, 0) and record(game).winner_team == 0


# --- seed 004 "Trucar, retrucar, quatre val i joc fora" -----------------------------------------------


def test_ladder_truc_2_retruc_3_quatre_val_4_answered_with_the_next_rung() -> None:
    game = new_game()
    deal(game, "1e 1b 7e", "3o 3c 4o")
    act(game, "0 truc")
    assert game.proposed_stake() == 2
    (event,) = act(game, "1 retruc")  # accepts the truc and raises
    assert event.answers and event.kind == "raise" and game.stake == 2 and game.proposed_stake() == 3
    act(game, "0 quatre-val", "1 accept")
    assert game.stake == 4
    act(game, "0 play 1e", "1 play 3o", "0 play 1b", "1 play 3c")
    assert record(game).points == (4, 0) and record(game).stake == 4


@pytest.mark.parametrize(("raises", "scored"), [(1, 1), (2, 2), (3, 3), (4, 4)])
def test_fold_gives_the_raiser_the_stake_before_the_raise(raises: int, scored: int) -> None:
    game = new_game()
    deal(game, "1e 1b 7e", "3o 3c 4o")
    verbs = ["truc", "retruc", "quatre-val", "joc-fora"][:raises]
    act(game, *(f"{k % 2} {verb}" for k, verb in enumerate(verbs)))
    folder = raises % 2
    act(game, f"{folder} fold")
    hand = record(game)
    raiser_side = 1 - folder
    assert hand.ended_by == "fold" and hand.stake == scored and hand.points[raiser_side] == scored
    assert hand.points[folder] == 0 and not game.over


def test_only_the_seat_to_play_may_raise_no_window_after_playing() -> None:
    game = new_game()
    deal(game, "1e 1b 7e", "3o 3c 4o")
    act(game, "0 play 7e")
    assert game.optional_actors() == []
    with pytest.raises(RuleError, match="raise-on-turn"):
        act(game, "0 truc")
    act(game, "1 truc", "0 accept")
    assert game.stake == 2


def test_only_the_side_that_accepted_may_raise_later_on_its_turn() -> None:
    game = new_game()
    deal(game, "1e 1b 7e", "3o 3c 4o")
    act(game, "0 truc", "1 accept")
    with pytest.raises(RuleError, match="raise-right"):
        act(game, "0 retruc")
    act(game, "0 play 7e")
    act(game, "1 retruc", "0 accept")  # later, on its turn
    assert game.stake == 3
    with pytest.raises(RuleError, match="ladder-order"):
        act(game, "1 joc-fora")


def test_a_pending_raise_is_answered_explicitly_a_card_does_not_accept() -> None:
    game = new_game()
    deal(game, "1e 1b 7e", "3o 3c 4o")
    act(game, "0 play 7e", "1 truc")
    with pytest.raises(RuleError, match="answer-first"):
        act(game, "1 play 3o")
    with pytest.raises(RuleError, match="answer-first"):
        act(game, "1 cover 3o")
    with pytest.raises(RuleError, match="answerer"):
        act(game, "1 accept")
    act(game, "0 accept", "1 play 3o")
    assert game.stake == 2


def test_joc_fora_accepted_the_hand_winner_wins_the_game() -> None:
    game = new_game(stones=(3, 11))
    deal(game, "1e 1b 7e", "3o 3c 4o")
    act(game, "0 truc", "1 retruc", "0 quatre-val", "1 joc-fora")
    with pytest.raises(RuleError, match="the joc fora is the highest raise: accept or fold it.*ladder-top"):
        act(game, "0 joc-fora")  # pending, not yet accepted
    act(game, "0 accept")
    assert game.stake == 5 and game.next_raise() == 0
    with pytest.raises(RuleError, match="has been accepted: nothing is higher.*ladder-top"):
        act(game, "0 truc")
    act(game, "0 play 1e", "1 play 3o", "0 play 1b", "1 play 3c")
    hand = record(game)
    assert game.over and game.winner_team == 0 and game.scores == [2, 0]
    assert hand.points == (15, 0) and details(game)["special"] == "joc_fora"
    assert game.result_text() == "2-0" and game.end_values(hand) == ["15", "0"]


def test_joc_fora_prevails_over_a_cama_the_envit_completes() -> None:
    """Decision (docs): the hand's envit is counted first and may complete a cama, but an accepted joc fora
    still gives the game to the hand's winner."""
    game = new_game(stones=(0, 17), cames_won=(1, 1))
    deal(game, "1e 1b 7e", "7o 6o 3c")  # envit 28 against 33
    act(game, "0 envit", "1 accept", "0 truc", "1 retruc", "0 quatre-val", "1 joc-fora", "0 accept")
    act(game, "0 play 1e", "1 play 3c", "0 play 1b", "1 play 6o")
    assert game.over and game.winner_team == 0 and game.scores == [2, 1]
    assert record(game).points == (0, 1)


# --- seed 004 "L'envit, el torne i la falta" ----------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "value"),
    [("7b 4b 3e", 31), ("6c 4c 3c", 30), ("1e 3o 6c", 6), ("7o 6o 1e", 33), ("1e 1b 4o", 4), ("1e 3e 5o", 24)],
)
def test_envit_value_seed_examples(cards: str, value: int) -> None:
    assert envit_value(VALENCIAN_22, [VALENCIAN_22.parse(c) for c in cards.split()]) == value


def test_envit_value_of_every_hand_in_any_order_is_the_rule_s() -> None:
    """The table at each set's rank (``three_card_rank``) against the rule computed directly, for every
    ordered hand of both decks, and for hands of other sizes and with unseen cards."""
    for deck in (VALENCIAN_22, VALENCIAN_26):
        for hand in permutations(range(len(deck)), 3):
            assert envit_value(deck, hand) == _envit_value(deck, hand), (deck.name, hand)
        assert envit_value(deck, [0, 5]) == _envit_value(deck, [0, 5])
        assert envit_value(deck, (3, UNKNOWN, 7)) == _envit_value(deck, (3, UNKNOWN, 7))


def test_envit_value_is_at_most_33() -> None:
    deck = VALENCIAN_26
    values = {envit_value(deck, [a, b, c]) for a in range(26) for b in range(a) for c in range(b)}
    assert max(values) == 33 and min(values) >= 1
    assert envit_value(deck, [deck.parse(c) for c in ("2o", "3o", "4c")]) == 25


def test_an_answer_needs_a_pending_call_and_a_covered_card_or_an_envit_waits_for_ones_turn() -> None:
    # seed 004: raises and the envit are said on one's turn (Decision: no call out of turn)
    game = new_game()
    deal(game, "4c 1b 7e", "7o 6o 3c")  # seat 0 plays first
    with pytest.raises(RuleError, match=r"'accept' but no truc or envit is pending \[nothing-to-answer\]"):
        act(game, "1 accept")
    with pytest.raises(RuleError, match=r"seat 1 may envit only on its turn to play \(seat 0\) \[envit-on-turn\]"):
        act(game, "1 envit")
    act(game, "0 play 4c", "1 play 7o")  # seat 1 takes trick 1 and leads trick 2
    with pytest.raises(RuleError, match=r"it is seat 1's turn to play, not seat 0's \[turn\]"):
        act(game, "0 cover 1b")
    act(game, "1 cover 3c")  # the leader of trick 2 may cover
    assert game.actor() == 0


def test_envit_only_before_ones_first_card_and_answered_after_the_answerer_played() -> None:
    game = new_game()
    deal(game, "1e 1b 7e", "7o 6o 3c")
    act(game, "0 play 7e")
    with pytest.raises(RuleError, match="envit-before-first-card|envit-on-turn"):
        act(game, "0 envit")
    act(game, "1 envit")
    assert game.actor() == 0
    act(game, "0 accept")  # seat 0 has already played its first card
    act(game, "1 play 3c", "0 play 1e")
    with pytest.raises(RuleError, match="one-envit"):
        act(game, "1 envit")
    act(game, "1 play 6o")
    assert details(game)["envit_winner"] == 1 and details(game)["envit_points"] == 2


def test_envit_after_the_first_card_is_refused() -> None:
    game = new_game()
    deal(game, "1e 1b 7e", "7o 6o 3c")
    act(game, "0 play 7e", "1 play 3c")
    with pytest.raises(RuleError, match="envit-before-first-card"):
        act(game, "0 envit")


def test_an_envit_must_be_answered_before_anything_else() -> None:
    game = new_game()
    deal(game, "1e 1b 7e", "7o 6o 3c")
    act(game, "0 envit")
    with pytest.raises(RuleError, match="answer-envit-first"):
        act(game, "0 play 1e")
    with pytest.raises(RuleError, match="envit-ladder"):
        act(game, "1 envit-falta")
    # the answerer's card or truc is refused as answering the envit first, not as a wrong rung
    for line in ("1 play 7o", "1 truc"):
        with pytest.raises(
            RuleError, match=r"seat 1 answers it \(accept, fold, torne, falta\) first \[answer-envit-first\]"
        ):
            act(game, line)
    assert {a.verb for a in game.legal_actions()} == {"accept", "fold", "torne", "falta"}


def test_the_envit_comes_before_the_truc_rule_a_answer_envit_then_truc() -> None:
    """Seed 004 example a): Pere (eldest) trucs; Maria says envit before answering the truc."""
    game = new_game()
    deal(game, "1e 1b 7e", "7o 6o 3c")
    act(game, "0 truc", "1 envit")
    assert game.actor() == 0
    act(game, "0 accept")  # the envit
    assert game.actor() == 1 and game.pending
    act(game, "1 accept")  # the truc
    assert game.stake == 2 and not game.may_envit(1)


def test_the_envit_comes_before_the_truc_rule_b_no_envit_after_a_truc_is_answered() -> None:
    """Seed 004 example b): "truque i envide" is not allowed; "envide i truque" is."""
    game = new_game()
    deal(game, "1e 1b 7e", "7o 6o 3c")
    act(game, "0 truc")
    with pytest.raises(RuleError, match="answer-first"):
        act(game, "0 envit")  # the truc is pending: only its answerer may envit
    act(game, "1 accept")
    with pytest.raises(RuleError, match="envit-before-truc"):
        act(game, "0 envit")
    game = new_game()
    deal(game, "1e 1b 7e", "7o 6o 3c")
    act(game, "0 envit", "1 accept", "0 truc", "1 accept")
    assert game.stake == 2


def test_the_envit_is_settled_at_the_end_of_the_hand_even_after_a_fold() -> None:
    game = new_game()
    deal(game, "1e 1b 4o", "7o 6o 3c")  # envit 4 against 33
    act(game, "0 envit", "1 accept")
    assert game.stones == [0, 0]  # nothing counted yet
    act(game, "0 truc", "1 fold")
    hand = record(game)
    assert hand.ended_by == "fold" and hand.points == (1, 2) and game.stones == [1, 2]
    assert details(game) == {
        "envit_stake": 2,
        "envit_winner": 1,
        "envit_points": 2,
        "envit_ended_by": "accept",
        "cames_after_team0": 0,
        "cames_after_team1": 0,
    }


ENVIT_LINES = [
    # (calls and answer after "0 <first>", envit winner side, stones to it, envit_stake)
    ("0 envit|1 fold", 0, 1, 1),
    ("0 envit|1 accept", 1, 2, 2),
    ("0 envit|1 torne|0 fold", 1, 2, 2),
    ("0 envit|1 torne|0 accept", 1, 4, 4),
    ("0 envit|1 falta|0 fold", 1, 2, 2),
    ("0 envit|1 torne|0 falta|1 fold", 0, 4, 4),
    ("0 envit|1 torne|0 falta|1 accept", 1, 18, 18),
    ("0 envit|1 falta|0 accept", 1, 18, 18),
    ("0 envit-falta|1 fold", 0, 1, 1),
    ("0 envit-falta|1 accept", 1, 18, 18),
]


@pytest.mark.parametrize(("line", "side", "stones", "stake"), ENVIT_LINES)
def test_envit_ladder_fold_and_accept_values(line: str, side: int, stones: int, stake: int) -> None:
    game = new_game()
    deal(game, "1e 1b 4o", "7o 6o 3c")  # seat 1 wins any accepted envit, 33 against 4
    act(game, *line.split("|"))
    act(game, "0 play 1e", "1 truc", "0 fold")  # the truc stone goes to seat 1
    hand = record(game)
    got = details(game)
    assert (got["envit_winner"], got["envit_stake"]) == (side, stake)
    expected = [0, 0]
    expected[side] += stones
    expected[1] += 1 if stones < 18 else 0  # a falta at males takes the cama: the truc stone is lost
    assert hand.points == tuple(expected)
    assert got["envit_points"] == stones and got["envit_ended_by"] == line.rsplit(" ", 1)[1]


def test_envit_ladder_order_is_enforced() -> None:
    game = new_game()
    deal(game, "1e 1b 4o", "7o 6o 3c")
    with pytest.raises(RuleError, match="envit-ladder"):
        act(game, "0 torne")
    act(game, "0 envit", "1 torne")
    with pytest.raises(RuleError, match="envit-ladder"):
        act(game, "0 torne")
    act(game, "0 falta")
    assert {a.verb for a in game.legal_for(1)} == {"accept", "fold"}


def test_falta_against_a_side_a_bones_wins_what_it_lacks_seed_4_bones_gives_5() -> None:
    assert falta_stones(9 + 4, 9) == 5
    game = new_game(stones=(13, 2))  # seat 0 has 4 bones
    deal(game, "1e 1b 4o", "7o 6o 3c")
    act(game, "0 envit-falta", "1 accept", "0 truc", "1 accept")
    act(game, "0 play 1e", "1 play 3c", "0 play 1b", "1 play 6o")
    hand = record(game)
    assert details(game)["envit_points"] == 5 and hand.points == (2, 5) and game.stones == [15, 7]


def test_falta_against_a_side_a_males_wins_the_whole_cama() -> None:
    for loser_stones in (0, 4, 9):  # "a males": 0 to 9 stones (RULES.md)
        game = new_game(stones=(loser_stones, 3))
        deal(game, "1e 1b 4o", "7o 6o 3c")
        act(game, "0 envit", "1 falta", "0 accept", "0 truc", "1 fold")
        hand = record(game)
        assert hand.points == (0, 15) and game.scores == [0, 1] and game.stones == [0, 0]
        assert details(game)["envit_stake"] == 18
    assert falta_stones(10, 9) == 8


def test_the_cap_envit_stones_never_exceed_what_the_opponent_lacks() -> None:
    # seed: against 6 bones a torne wins 3 stones; against 8 bones an envit wins 1
    for line, loser_stones, won in (("0 envit|1 torne|0 accept", 15, 3), ("0 envit|1 accept", 17, 1)):
        game = new_game(stones=(loser_stones, 0))
        deal(game, "1e 1b 4o", "7o 6o 3c")
        act(game, *line.split("|"))
        act(game, "0 play 1e", "1 truc", "0 fold")
        assert details(game)["envit_points"] == won and record(game).points == (0, won + 1)


def test_at_one_stone_from_the_cama_an_envit_refused_completes_it() -> None:
    """Seed 004: "Si al nostre contrincant només li'n queda una ... estem obligats a acceptar"."""
    game = new_game(stones=(17, 5))
    deal(game, "1e 1b 4o", "7o 6o 3c")
    act(game, "0 envit", "1 fold", "0 play 1e", "1 truc", "0 fold")
    assert record(game).points == (1, 0) and game.scores == [1, 0] and game.stones == [0, 0]


def test_envit_tie_goes_to_the_eldest() -> None:
    game = new_game(dealer=0)  # eldest 1
    deal(game, "7b 4b 3e", "7c 4c 3o")  # 31 each
    act(game, "1 envit", "0 accept", "1 truc", "0 fold")
    assert details(game)["envit_winner"] == 1
    game = new_game(dealer=1)  # eldest 0
    deal(game, "7b 4b 3e", "7c 4c 3o")
    act(game, "0 envit", "1 accept", "0 truc", "1 fold")
    assert details(game)["envit_winner"] == 0


def test_in_pairs_each_pair_best_envit_counts_and_ties_go_nearest_the_eldest() -> None:
    # eldest 0. Seats: 0 has 6, 1 has 31, 2 has 31, 3 has 5: the tie 1-2 goes to seat 1 (nearer the eldest)
    game = new_game(4, dealer=3)
    deal(game, "1e 3o 6c", "7b 4b 3e", "7o 4o 5e", "5c 4e 3b")
    act(game, "0 envit", "1 accept", "0 truc", "1 fold")
    assert details(game)["envit_winner"] == 1
    # eldest 2 now: the same tie goes to seat 2's pair
    game = new_game(4, dealer=1)
    deal(game, "1e 3o 6c", "7b 4b 3e", "7o 4o 5e", "5c 4e 3b")
    act(game, "2 envit", "3 accept", "2 truc", "3 fold")
    assert details(game)["envit_winner"] == 0


def test_in_pairs_the_next_opponent_answers_the_envit() -> None:
    game = new_game(4, dealer=3)
    deal(game, "1e 3o 6c", "7b 4b 3e", "7o 4o 5e", "5c 4e 3b")
    act(game, "0 play 1e", "1 envit")
    with pytest.raises(RuleError, match="answer-envit-first"):
        act(game, "0 accept")
    act(game, "2 torne", "3 accept")
    assert game.envit_outcome == ("accept", 4, 0)


# --- seed 004 "La puntuació": stones, cames, the coto ------------------------------------------------


def test_a_cama_is_9_males_and_9_bones_and_stones_past_its_end_are_lost() -> None:
    game = new_game(stones=(17, 12))
    deal(game, "1e 1b 7e", "3o 3c 4o")
    act(game, "0 truc", "1 retruc", "0 accept")
    act(game, "0 play 1e", "1 play 3o", "0 play 1b", "1 play 3c")
    assert record(game).points == (1, 0)  # 3 won, 1 counted: the cama ends at 18
    assert game.scores == [1, 0] and game.stones == [0, 0] and not game.over
    assert details(game)["cames_after_team0"] == 1
    game.next_hand()
    assert game.stones == [0, 0] and game.score_before == (1, 0)


def test_the_envit_is_counted_before_the_truc() -> None:
    """Decision (docs): when both could end the cama, the envit's stones count first."""
    game = new_game(stones=(16, 17))
    deal(game, "1e 1b 4o", "7o 6o 3c")
    act(game, "0 envit", "1 accept", "0 play 1e", "1 play 3c", "0 play 1b", "1 play 6o")
    hand = record(game)
    assert hand.winner_team == 0 and hand.points == (0, 1) and game.scores == [0, 1]


def test_option_bones_12_makes_a_cama_of_24() -> None:
    game = new_game(stones=(12, 0), bones="12")
    assert game.cama == 24
    deal(game, "1e 1b 4o", "7o 6o 3c")
    act(game, "0 envit-falta", "1 accept", "0 truc", "1 fold")  # 12 is still "a males" at 12+12
    assert record(game).points == (0, 24) and game.scores == [0, 1]
    game = new_game(stones=(14, 0), bones="12")
    deal(game, "1e 1b 4o", "7o 6o 3c")
    act(game, "0 envit-falta", "1 accept", "0 truc", "1 fold")
    assert details(game)["envit_points"] == 10


def test_the_game_is_two_cames_or_one_with_cames_1() -> None:
    game = new_game(stones=(17, 0), cames_won=(1, 0))
    deal(game, "1e 1b 7e", "3o 3c 4o")
    act(game, "0 truc", "1 fold")
    assert game.over and game.winner_team == 0 and game.scores == [2, 0] and game.result_text() == "2-0"
    game = new_game(stones=(17, 0), cames="1")
    deal(game, "1e 1b 7e", "3o 3c 4o")
    act(game, "0 truc", "1 fold")
    assert game.over and game.scores == [1, 0]
    with pytest.raises(ValueError, match="starting cames"):
        engine.new_game(VALENCIAN.configure({"cames": "1"}), 1, 0, (1, 0))


# --- seed 004 "Senyes" --------------------------------------------------------------------------------


def test_signals_are_the_seed_senyes_and_reach_the_partner() -> None:
    game = new_game(4, dealer=3, signals="on")
    deal(game, "1e 3o 7o", "7b 4b 3e", "7e 4o 5e", "5c 4e 3b")
    assert game.phase == Phase.SIGNAL and SeatView(game, 0).decision == "senya"
    assert {a.arg for a in game.legal_for(0)} == set(SENYA_WORDS) and len(SENYA_WORDS) == 64
    with pytest.raises(RuleError, match="signal"):
        act(game, "0 signal 32")
    policy = ThresholdPolicy()
    assert policy.step(SeatView(game, 0), random.Random(0)) == Action(0, "signal", "1e+7o+3")
    act(game, "0 signal 1e+7o+3", "1 signal -", "2 signal 7e", "3 signal 3")
    assert SeatView(game, 2).partner_signal == "1e+7o+3" and game.phase == Phase.PLAY


def test_signals_are_off_in_two_players() -> None:
    game = new_game(2, signals="on")
    deal(game, "1e 1b 7e", "3o 3c 4o")
    assert game.phase == Phase.PLAY


# --- records, columns, strength -------------------------------------------------------------------------


def test_hand_columns_and_seat_envit_value_reach_the_rows() -> None:
    game = new_game()
    deal(game, "1e 1b 4o", "7o 6o 3c")
    act(game, "0 envit", "1 accept", "0 cover 4o", "1 play 3c", "1 truc", "0 fold")
    batches = new_batches()
    add_game(batches, 0, game, [record(game)], ["x", "y"], "test")
    hands = batches["hands"].to_arrow().to_pylist()[0]
    assert hands["envit_winner"] == 1 and hands["envit_points"] == 2 and hands["envit_ended_by"] == "accept"
    assert hands["cames_after_team0"] == 0 and hands["points_team1"] == 3
    seats = batches["seats"].to_arrow().to_pylist()
    assert [s["envit_value"] for s in seats] == [4, 33]
    events = batches["events"].to_arrow().to_pylist()
    cover = next(e for e in events if e["verb"] == "cover")
    assert cover["arg"] == "4o" and cover["kind"] == "play"
    kinds = [(e["verb"], e["kind"], e["answers"]) for e in events if e["kind"].startswith("envit")]
    assert kinds == [("envit", "envit", False), ("accept", "envit_answer", False)]


def test_a_record_with_unseen_cards_cannot_settle_an_accepted_envit() -> None:
    game = new_game()
    deal(game, "1e 1b 4o", "?? ?? ??")
    act(game, "0 envit")
    with pytest.raises(RuleError, match="envit-unknown-cards"):
        act(game, "1 accept")
    act(game, "1 fold", "0 truc", "1 fold")
    assert record(game).points == (2, 0)


def test_strength_table_groups_cards_by_their_own_power_and_is_exact() -> None:
    table = strength_table(VALENCIAN, 3)
    deck, powers = VALENCIAN_22, VALENCIAN.power
    hand = [deck.parse(c) for c in ("1e", "7o", "4c")]
    mine = table.key(powers, hand)
    rest = [c for c in range(len(deck)) if c not in hand]
    won = total = 0
    for a in range(len(rest)):  # every opposing hand, card by card
        for b in range(a):
            for c in range(b):
                theirs = tuple(sorted((powers[rest[i]] for i in (a, b, c)), reverse=True))
                won += heads_up_win(VALENCIAN, mine, theirs, True) + heads_up_win(VALENCIAN, mine, theirs, False)
                total += 2
    assert table.strength[mine] == pytest.approx(won / total)
    best = table.lookup(powers, [deck.parse(c) for c in ("1e", "1b", "7e")])
    worst = table.lookup(powers, [deck.parse(c) for c in ("4o", "4c", "4e")])
    assert best[1] > 0.99 and worst[1] < 0.01
    assert strength_table(VALENCIAN_TWOS, 3).percentile  # the 26-card deck too
