"""The regional Trut variants, one test per rule of RULES.md's `trut-gatinaise` and `trut-gatine` sections.

Seeds cited: 001 (`../shared/seeds/001_d9b2870277db81bc.txt`, "TRUT", section "La variante Gâtinaise":
"L'objectif", "Le TRUT d'Office", "La Chanson"; "Préparatif" for the players) and 003
(`../shared/seeds/003_d0def6452ac4cdf8.txt`, "Trut", section "Variante de Gâtine" and its part "La règle du
'à tenir' et du 'chanter'"). Everything else is `trut`'s (tests/test_engine_trut.py). Rules docs:
docs/rules/trut-gatinaise.md, docs/rules/trut-gatine.md.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from pipeline.cards import FRENCH_32, UNKNOWN
from pipeline.engine.actions import DEALT, DISCARD, Action, RuleError
from pipeline.engine.game import Game, HandRecord, Phase
from pipeline.engine.replay import replay
from pipeline.engine.rules import OptionError
from pipeline.engine.trut_regional import GatinaiseGame, GatineGame, is_suite
from pipeline.engine.view import SeatView
from pipeline.history import read_file
from pipeline.policies.base import DecisionPolicy
from pipeline.policies.random_policy import RandomPolicy
from pipeline.policies.threshold import ThresholdPolicy
from pipeline.simulate import play_game
from pipeline.variants import TRUT, TRUT_GATINAISE, TRUT_GATINE, get_variant
from tests.scripting import act, deal

VALID = Path(__file__).parent / "data" / "valid"


def gatinaise(
    players: int = 2,
    dealer: int = 1,
    scores: tuple[int, int] | None = None,
    petits: tuple[int, int] | None = None,
    **options: str,
) -> GatinaiseGame:
    config = TRUT_GATINAISE.configure({"players": str(players), **options})
    return GatinaiseGame(config, seed=1, first_dealer=dealer, scores=scores, petits=petits)


def gatine(
    players: int = 2,
    dealer: int = 1,
    scores: tuple[int, int] | None = None,
    petits: tuple[int, int] | None = None,
    **options: str,
) -> GatineGame:
    config = TRUT_GATINE.configure({"players": str(players), **options})
    return GatineGame(config, seed=1, first_dealer=dealer, scores=scores, petits=petits)


def record(game: Game) -> HandRecord:
    assert game.last_hand is not None and game.hand_over
    return game.last_hand


def details(game: Game) -> dict[str, Any]:
    return dict(record(game).details)


def ends(game: Game) -> list[str]:
    return game.end_values(record(game))


def cards(text: str) -> list[int]:
    return [FRENCH_32.parse(c) for c in text.split()]


def replays(game: GatinaiseGame | GatineGame, petits: tuple[int, int]) -> None:
    """The hand's record replays through the checked ``apply``, from the same position, to the same record."""
    hand = record(game)
    again = type(game)(game.config, seed=2, first_dealer=hand.dealer, scores=hand.score_before, petits=petits)
    for event in hand.events:
        if event.verb == DEALT:
            again.apply_deal([list(c) for c in event.arg])  # type: ignore[attr-defined]
        else:
            again.apply(Action(event.seat, event.verb, event.arg))  # type: ignore[arg-type]
    assert again.last_hand == hand


# ============================================ trut-gatinaise: seed 001 "La variante Gâtinaise" ============


def test_gatinaise_is_trut_for_2_or_4_players() -> None:
    # "As trut": deck, ranks, tricks and options; seed 001 "Préparatif" sets out 2 and 4 players
    assert get_variant("trut-gatinaise") is TRUT_GATINAISE
    assert TRUT_GATINAISE.deck is FRENCH_32 and TRUT_GATINAISE.rank_order == TRUT.rank_order
    assert TRUT_GATINAISE.hand_rule is TRUT.hand_rule and TRUT_GATINAISE.unit == "longs"
    assert TRUT_GATINAISE.configure().players == 4 and gatinaise(2).team_of == (0, 1)
    # the reduced deck (deck=8, for exact solving: docs/equilibrium.md) is plain Trut's alone
    assert {o.name for o in TRUT_GATINAISE.options} == {o.name for o in TRUT.options} - {"deck"}
    for players in ("3", "6"):
        with pytest.raises(OptionError, match="players"):
            TRUT_GATINAISE.configure({"players": players})


def test_gatinaise_target_is_5_longs() -> None:
    # seed 001 "L'objectif": "obtenir 5 Longs le premier (au lieu de 7)"
    game = gatinaise(scores=(4, 1))
    deal(game, "7h 8h 9h", "Ah Kh Qh")
    act(game, "1 trut", "0 accept", "0 play 7h", "1 play Ah", "0 play 8h", "1 play Kh")
    assert game.over and game.winner_team == 0 and game.scores == [5, 1] and game.result_text() == "5-1"


def test_gatinaise_trut_d_office_the_other_side_must_trut() -> None:
    # seed 001 "Le TRUT d'Office": "l'équipe adverse doit obligatoirement annoncer un TRUT"
    game = gatinaise(petits=(0, 2))  # side 1 holds 2 petits: side 0 must trut
    deal(game, "9h 10h Jh", "7c 8c Ac")
    assert game.phase == Phase.FORTIAL and game.actor() == 0 and game.decision(0) == "trut_office"
    assert game.legal_actions() == [Action(0, "trut")]
    with pytest.raises(RuleError, match="must trut"):
        act(game, "0 pass")
    with pytest.raises(RuleError, match="trut_office"):
        act(game, "1 play 7c")
    (event,) = act(game, "0 trut")
    assert event.trick_no == 0 and game.answerers == [1] and game.public_state()["special"] == "trut_office"


def test_gatinaise_trut_d_office_folded_the_truters_take_1_petit() -> None:
    # "L'équipe qui a 2 Petits peut alors accepter de jouer le TRUT ou renoncer. Dans ce dernier cas,
    # l'équipe adverse marque 1 Petit."
    game = gatinaise(petits=(0, 2))
    deal(game, "9h 10h Jh", "7c 8c Ac")
    act(game, "0 trut", "1 fold")
    hand = record(game)
    assert hand.ended_by == "fold" and ends(game) == ["1p", "0"] and game.petits == [1, 2]
    assert details(game)["special"] == "trut_office" and details(game)["trut_seat"] == 0
    replays(game, (0, 2))


def test_gatinaise_trut_d_office_seen_is_played_for_a_long() -> None:
    game = gatinaise(petits=(0, 2))
    deal(game, "9h 10h Jh", "7c 8c Ac")
    act(game, "0 trut", "1 accept", "0 play Jh", "1 play 7c", "1 play 8c", "0 play 10h")
    assert ends(game) == ["0", "1l"] and game.scores == [0, 1] and game.petits == [0, 2]  # the winner keeps its 2
    game.next_hand()  # dealer 0, eldest 1: side 1 still holds 2 petits, side 0 must trut again
    deal(game, "7c 8c Ac", "9h 10h Jh")
    assert game.phase == Phase.FORTIAL and game.actor() == 0
    act(game, "0 trut", "1 accept", "1 play Jh", "0 play 7c", "0 play 8c", "1 play 10h")
    assert game.scores == [1, 1] and game.petits == [0, 0]  # the loser loses its petits (as `trut`)


def test_gatinaise_trut_d_office_in_4_players_the_first_of_the_side_truts_and_the_others_answer() -> None:
    game = gatinaise(4, dealer=3, petits=(2, 0))  # eldest 0; side 1 (seats 1, 3) must trut
    deal(game, "7h 9h 10h", "Kc 9c 10c", "Jd 9d 10d", "8s 9s Qs")
    assert game.actor() == 1 and game.callers == [1, 3]
    with pytest.raises(RuleError, match="seat 1 must trut first"):
        act(game, "3 trut")
    act(game, "1 trut")
    assert game.answerers == [0, 2]  # the side with 2 petits answers from the eldest, one see is enough
    act(game, "0 fold", "2 accept")
    assert game.stake == 3 and game.phase == Phase.PLAY and game.actor() == 0


def test_gatinaise_no_fortial_the_trut_d_office_takes_its_place() -> None:
    # Decision: 4 longs and 2 petits make the opponents trut d'office, not a fortial call
    game = gatinaise(scores=(4, 0), petits=(2, 0))
    deal(game, "9h 10h Jh", "7c 8c Ac")
    assert game.phase == Phase.FORTIAL and game.decision(1) == "trut_office" and game.actor() == 1
    act(game, "1 trut", "0 fold")
    assert game.petits == [2, 1] and not game.over


def test_gatinaise_la_chanson_the_eldest_may_not_sing_then_the_hand_is_played_as_a_trut_d_office() -> None:
    # "Dans le cas où les 2 équipes ont chacune 2 Petits, c'est La Chanson": "Est-ce que tu chantes ?"
    game = gatinaise(petits=(2, 2))
    deal(game, "7h 8h 9h", "Ah Kh Qh")
    assert game.phase == Phase.SING and game.actor() == 0 and game.decision(0) == "chanson"
    assert game.legal_actions() == [Action(0, "sing"), Action(0, "nosing")]
    with pytest.raises(RuleError, match="chanson"):
        act(game, "1 sing")
    act(game, "0 nosing")
    # "La Manche est alors jouée en TRUT d'Office": Decision: for a long, without any trut
    assert game.phase == Phase.PLAY and game.stake == 3 and game.office
    with pytest.raises(RuleError, match="trut-office"):
        act(game, "1 trut")
    act(game, "0 play 7h", "1 play Ah", "0 play 8h", "1 play Kh")
    assert ends(game) == ["1l", "0"] and game.scores == [1, 0] and game.petits == [2, 0]
    assert details(game)["special"] == "chanson" and details(game)["trut_seat"] is None
    replays(game, (2, 2))


def test_gatinaise_la_chanson_sing_agree_ask_deal_discard_and_play() -> None:
    # "Si tous les autres joueurs sont d'accord ... Il peut demander 1, 2 ou 3 cartes ... chaque joueur ne
    # conserve que les 3 cartes de son choix et se défausse des autres au Talon sans les dévoiler."
    game = gatinaise(petits=(2, 2))
    deal(game, "9h 10h Jh", "9c 10c Jc")
    act(game, "0 sing")
    assert game.actor() == 1 and game.decision(1) == "chanson_agree"
    act(game, "1 sing")
    assert game.actor() == 0 and game.decision(0) == "chanson_ask"
    assert game.legal_actions() == [Action(0, "ask", k) for k in (1, 2, 3)]
    with pytest.raises(RuleError, match="ask 1, ask 2, ask 3"):
        act(game, "0 ask 4")
    act(game, "0 ask 2")
    assert game.phase == Phase.DEAL and game.actor() == -1 and game.deal_size() == 2
    deal(game, "7h 8h", "7c 8c")
    assert [len(h) for h in game.hands] == [5, 5] and len(game.stock) == 22
    assert game.phase == Phase.SING and game.decision(0) == "chanson"  # the eldest is asked again
    act(game, "0 nosing")
    assert game.phase == Phase.DISCARD and game.actor() == 0 and game.decision(0) == "discard"
    with pytest.raises(RuleError, match="discard-count"):
        act(game, "0 discard 9h")
    with pytest.raises(RuleError, match="seat 0 discards now"):
        act(game, "1 discard 9c 10c")
    with pytest.raises(RuleError, match="card-not-held"):
        act(game, "0 discard 7c 9h")
    (event,) = act(game, "0 discard 10h 9h")  # any order: recorded in the order the cards are held
    assert event.arg == "9h 10h" and event.kind == "choice"
    act(game, "1 discard Jc 10c")
    assert game.phase == Phase.PLAY and game.office and game.hands == [cards("Jh 7h 8h"), cards("9c 7c 8c")]
    assert set(cards("9h 10h 10c Jc")) <= set(game.stock)  # "au Talon"
    act(game, "0 play 7h", "1 play 7c", "1 play 8c", "0 play 8h", "0 play Jh", "1 play 9c")
    hand = record(game)
    assert ends(game) == ["1l", "0"] and game.petits == [2, 0]
    assert hand.dealt == (tuple(cards("Jh 7h 8h")), tuple(cards("9c 7c 8c")))  # the cards played with
    assert [e.verb for e in hand.events].count(DEALT) == 2
    replays(game, (2, 2))


def test_gatinaise_la_chanson_one_refusal_and_nobody_gets_cards() -> None:
    game = gatinaise(4, dealer=3, petits=(2, 2))  # eldest 0
    deal(game, "7h 9h 10h", "Kc 9c 10c", "Jd 9d 10d", "8s 9s Qs")
    act(game, "0 sing", "1 sing")
    assert game.decision(2) == "chanson_agree"
    act(game, "2 nosing")
    assert game.phase == Phase.PLAY and game.office and [len(h) for h in game.hands] == [3, 3, 3, 3]
    with pytest.raises(RuleError, match="phase"):
        act(game, "3 sing")


def test_gatinaise_la_chanson_repeats_while_all_agree_and_the_stock_lasts() -> None:
    # "Il est possible de Chanter plusieurs fois si le premier joueur n'est pas satisfait"
    game = gatinaise(petits=(2, 2))
    game.deal()
    for _ in range(4):  # 26 cards in the stock: 3 each, four times
        act(game, "0 sing", "1 sing", "0 ask 3")
        game.deal()
    assert len(game.stock) == 2 and game.phase == Phase.SING
    act(game, "0 sing", "1 sing")
    assert game.legal_actions() == [Action(0, "ask", 1)]  # as far as the stock lasts
    act(game, "0 ask 1")
    game.deal()
    assert game.stock == [] and game.phase == Phase.DISCARD  # the stock is out: nobody is asked again
    held = [c for h in game.hands for c in h]
    assert len(held) == len(set(held)) == 32
    four = gatinaise(4, dealer=3, petits=(2, 2))
    four.deal()
    act(four, "0 sing", "1 sing", "2 sing", "3 sing", "0 ask 3")
    four.deal()
    act(four, "0 sing", "1 sing", "2 sing", "3 sing")
    assert [a.arg for a in four.legal_actions()] == [1, 2]
    act(four, "0 ask 2")
    four.deal()
    assert four.stock == [] and four.phase == Phase.DISCARD


def test_gatinaise_a_void_chanson_is_pourrie_and_the_next_hand_sings_again() -> None:
    game = gatinaise(petits=(2, 2))
    deal(game, "7h 8h Ah", "7c 8c Ac")
    act(game, "0 nosing", "0 play 7h", "1 play 7c", "1 play 8c", "0 play 8h", "0 play Ah", "1 play Ac")
    assert details(game)["void"] and record(game).points == (0, 0) and game.petits == [2, 2]
    game.next_hand()
    deal(game, "7h 8h Ah", "7c 8c Ac")
    assert game.phase == Phase.SING


# ============================================ trut-gatine: seed 003 "Variante de Gâtine" ================


def test_gatine_rank_order_8_7_A_10_K_Q_J_9_for_2_or_4_players() -> None:
    # "le 8 est plus fort que le 7 ... 8 ; 7 ; as ; 10 ; roi ; dame ; valet ; 9"
    power = [TRUT_GATINE.power[FRENCH_32.parse(c)] for c in ("8h", "7c", "Ad", "10s", "Kh", "Qc", "Jd", "9s")]
    assert power == sorted(power, reverse=True) and len(set(power)) == 8
    assert get_variant("trut-gatine") is TRUT_GATINE and TRUT_GATINE.configure().players == 4
    with pytest.raises(OptionError, match="players"):
        TRUT_GATINE.configure({"players": "3"})
    with pytest.raises(OptionError, match="unknown option brelan"):
        TRUT_GATINE.configure({"brelan": "on"})  # the announcements are part of the variant


def test_gatine_target_is_7_longs() -> None:
    # "La gagne se joue toujours en sept truts"
    game = gatine(scores=(6, 2))
    deal(game, "8h 7h 9h", "Ah 10h Kh")
    act(game, "1 trut", "0 accept", "0 play 8h", "1 play Ah", "0 play 7h", "1 play 10h")
    assert game.over and game.winner_team == 0 and game.scores == [7, 2]


def test_gatine_suite_or_tierce_three_consecutive_in_the_natural_order() -> None:
    # 'on peut annoncer "suite" ou "tierce" si on possède trois cartes qui se suivent (dans l'ordre
    # "normal": 7 ; 8 ; 9 ; 10 ; valet ; dame ; roi ; as)'
    assert is_suite(["9", "10", "J"]) and is_suite(["A", "Q", "K"]) and is_suite(["8", "7", "9"])
    assert not is_suite(["A", "7", "8"]) and not is_suite(["7", "9", "10"]) and not is_suite(["7", "7", "8"])
    game = gatine()
    deal(game, "9h 10c Jd", "8h 8c 8d")
    assert Action(0, "trut", "suite") in game.legal_for(0) and Action(0, "trut", "brelan") not in game.legal_for(0)
    assert Action(1, "trut", "brelan") in game.legal_for(1) and Action(1, "trut", "suite") not in game.legal_for(1)
    with pytest.raises(RuleError, match="does not hold a suite"):
        act(game, "1 trut suite")
    (event,) = act(game, "0 trut tierce")  # "tierce" is read as "suite"
    assert event.arg == "suite" and game.public_state()["announced"] == "suite"
    act(game, "1 fold")
    assert ends(game) == ["1p", "0"]


def test_gatine_at_most_2_petits_never_turned_into_a_long() -> None:
    # "une équipe ne peut avoir plus de deux points ... ne peut pas échanger ses points contre un trut"
    game = gatine(petits=(1, 0))
    deal(game, "8h 7h 9h", "Ah 10h Kh")
    act(game, "0 play 8h", "1 play Ah", "0 play 7h", "1 play 10h")
    assert game.petits == [2, 0] and game.scores == [0, 0] and ends(game) == ["1p", "0"]
    with pytest.raises(ValueError, match="between 0 and 2"):
        gatine(petits=(3, 0))


def test_gatine_a_long_costs_only_its_winner_its_petits() -> None:
    # "Quand une équipe remporte un trut, seule cette équipe perd ses points, l'équipe adverse garde les siens."
    game = gatine(petits=(1, 1))
    deal(game, "8h 7h 9h", "Ah 10h Kh")
    act(game, "1 trut", "0 accept", "0 play 8h", "1 play Ah", "0 play 7h", "1 play 10h")
    assert game.scores == [1, 0] and game.petits == [0, 1] and ends(game) == ["1l", "0"]


def test_gatine_a_tenir_its_players_say_in_turn_whether_they_hold() -> None:
    # "Après la distribution des cartes chaque joueur à tenir décide, à tour de rôle, s'il veut ou non
    # jouer (tenir) cette partie"
    game = gatine(4, dealer=3, petits=(0, 2))  # eldest 0; side 1 (seats 1 and 3) is à tenir
    deal(game, "8h 9h 10h", "Kc 9c 10c", "Jd 9d 10d", "8s 9s Qs")
    assert game.phase == Phase.HOLD and game.actor() == 1 and game.decision(1) == "tenir"
    assert game.legal_actions() == [Action(1, "hold"), Action(1, "pass")]
    assert SeatView(game, 1).partner_cards is None  # "sans se concerter"
    with pytest.raises(RuleError, match="tenir"):
        act(game, "3 hold")
    with pytest.raises(RuleError, match="tenir"):
        act(game, "0 play 8h")
    act(game, "1 pass")
    assert game.actor() == 3
    (event,) = act(game, "3 hold")  # one holder is enough
    assert event.stake_after == 3 and game.phase == Phase.PLAY and game.office and game.actor() == 0
    assert game.public_state()["special"] == "tenir"


def test_gatine_held_the_hand_is_a_trut_d_office_and_only_its_winner_loses_its_petits() -> None:
    # "la partie se déroule trut d'office ... le vainqueur de la manche marque un trut sans avoir besoin de
    # truter. À l'issue de cette partie, seule l'équipe qui a remporté le trut perd ses points."
    game = gatine(petits=(2, 0))
    deal(game, "8h 7h 9h", "Ah 10h Kh")
    act(game, "0 hold")
    with pytest.raises(RuleError, match="trut-office"):
        act(game, "1 trut")
    act(game, "0 play 8h", "1 play Ah", "0 play 7h", "1 play 10h")
    assert ends(game) == ["1l", "0"] and game.scores == [1, 0] and game.petits == [0, 0]
    assert record(game).stake == 3 and details(game)["trut_seat"] is None and details(game)["special"] == "tenir"
    replays(game, (2, 0))
    lost = gatine(petits=(2, 1))
    deal(lost, "Ah 10h Kh", "8h 7h 9h")
    act(lost, "0 hold", "0 play Ah", "1 play 8h", "1 play 7h", "0 play 10h")
    assert lost.scores == [0, 1] and lost.petits == [2, 0]  # the side à tenir keeps its 2 petits


def test_gatine_nobody_holds_no_play_and_the_opponents_take_1_petit() -> None:
    # "Si aucun ne tient, alors les cartes sont remises au talon et l'équipe adverse marque un point."
    game = gatine(4, dealer=3, petits=(2, 0))
    deal(game, "8h 9h 10h", "Kc 9c 10c", "Jd 9d 10d", "8s 9s Qs")
    act(game, "0 pass", "2 pass")
    hand = record(game)
    assert hand.ended_by == "pass" and hand.winner_team == 1 and hand.tricks == () and ends(game) == ["0", "1p"]
    assert game.petits == [2, 1] and details(game)["special"] == "tenir"
    replays(game, (2, 0))


def test_gatine_chanter_one_refusal_a_normal_trut_d_office_then_both_sides_lose_their_petits() -> None:
    # "Si un seul des quatre joueurs ne chante pas, la partie se déroule normalement avec trut d'of. À
    # l'issue de cette partie, les deux équipes perdent leurs deux points."
    game = gatine(petits=(2, 2))
    deal(game, "8h 7h 9h", "Ah 10h Kh")
    assert game.phase == Phase.SING and game.decision(0) == "chanter"
    act(game, "0 sing")
    assert game.actor() == 1 and game.decision(1) == "chanter"
    act(game, "1 nosing")
    assert game.phase == Phase.PLAY and game.office and [len(h) for h in game.hands] == [3, 3]
    act(game, "0 play 8h", "1 play Ah", "0 play 7h", "1 play 10h")
    assert ends(game) == ["1l", "0"] and game.scores == [1, 0] and game.petits == [0, 0]
    assert details(game)["special"] == "chanter"


def test_gatine_chanter_all_sing_3_more_cards_each_keep_3_discard_3_to_the_stock() -> None:
    # "Si les quatre joueurs chantent, trois cartes supplémentaires sont distribuées ... Il en écarte trois
    # et en garde autant. Les cartes écartées sont remises au talon ... trut d'office ... les deux équipes
    # perdent leurs deux points."
    game = gatine(4, dealer=3, petits=(2, 2))  # eldest 0
    deal(game, "8h 9h 10h", "Kc 9c 10c", "Jd 9d 10d", "8s 9s Qs")
    act(game, "0 sing", "1 sing", "2 sing", "3 sing")
    assert game.phase == Phase.DEAL and game.deal_size() == 3
    deal(game, "7h Ah Kh", "7c Ac Qc", "7d Ad Kd", "7s As Ks")
    assert game.phase == Phase.DISCARD and len(game.stock) == 8
    act(game, "0 discard 9h 10h Kh", "1 discard 9c 10c Qc", "2 discard 9d 10d Jd", "3 discard 9s Qs Ks")
    assert len(game.stock) == 20 and set(cards("9h 10h Kh 9s Qs Ks")) <= set(game.stock)
    assert game.phase == Phase.PLAY and game.office and game.hands[0] == cards("8h 7h Ah")
    act(game, "0 play 8h", "1 play 7c", "2 play 7d", "3 play 7s")  # side 0 takes trick 1 with the 8
    act(game, "0 play 7h", "1 play Ac", "2 play Ad", "3 play As")
    assert ends(game) == ["1l", "0"] and game.petits == [0, 0] and game.scores == [1, 0]
    assert record(game).dealt[0] == tuple(cards("8h 7h Ah"))
    replays(game, (2, 2))


def test_gatine_a_void_trut_d_office_is_redealt_sec_from_the_same_stock() -> None:
    # "Quand une partie trut d'office est Tout paté, on redistribue trois cartes avec le même talon, sans
    # remettre les cartes ... On rejoue alors sec, trut d'of et sans tenir."
    game = gatine(petits=(2, 0))
    deal(game, "8h 7h Ah", "8c 7c Ac")
    act(game, "0 hold", "0 play 8h", "1 play 8c", "1 play 7c", "0 play 7h", "0 play Ah", "1 play Ac")
    assert not game.hand_over and game.phase == Phase.DEAL and game.deal_size() == 3
    assert game.public_state()["special"] == "sec" and len(game.stock) == 26
    with pytest.raises(RuleError, match="8h is not in the stock"):
        deal(game, "8h 9h 10h", "Kd Qd Jd")
    deal(game, "8d 7d 9d", "Ad 10d Kd")
    assert game.phase == Phase.PLAY and game.office and game.stake == 3 and game.actor() == 0  # no holding
    act(game, "0 play 8d", "1 play Ad", "0 play 7d", "1 play 10d")
    hand = record(game)
    assert ends(game) == ["1l", "0"] and game.petits == [0, 0] and details(game)["special"] == "sec"
    assert hand.dealt == (tuple(cards("8d 7d 9d")), tuple(cards("Ad 10d Kd"))) and not details(game)["void"]
    replays(game, (2, 0))


def test_gatine_the_random_sec_deal_draws_from_what_is_left_of_the_stock() -> None:
    """The simulator's deal (``Game.deal``, the chance step) follows the same rule as a recorded one: the
    sec hand is dealt from the same stock, without the first deal's cards (seed 003, "Variante de Gâtine":
    "on redistribue trois cartes avec le même talon"; RULES.md, trut-gatine)."""
    game = gatine(petits=(2, 0))
    deal(game, "8h 7h Ah", "8c 7c Ac")
    act(game, "0 hold", "0 play 8h", "1 play 8c", "1 play 7c", "0 play 7h", "0 play Ah", "1 play Ac")
    assert game.public_state()["special"] == "sec" and len(game.stock) == 26
    game.deal()
    assert game.phase == Phase.PLAY and len(game.stock) == 20
    assert not set(cards("8h 7h Ah 8c 7c Ac")) & {card for hand in game.hands for card in hand}


def test_gatine_sec_until_the_stock_runs_out_then_a_new_shuffle() -> None:
    game = gatine(4, dealer=3, petits=(2, 0))  # eldest 0; side 0 (seats 0, 2) holds
    first = ("8h 7h Ah", "8c 7c Ac", "9h 10h Jh", "9s 10s Js")
    deal(game, *first)
    tied = ("0 play {0}", "1 play {1}", "2 play {2}", "3 play {3}")

    def all_tied(hands: tuple[str, ...]) -> None:
        rows = [h.split() for h in hands]  # each trick: the two 8s (then 7s, aces) tie, the lead passes round
        act(game, *(t.format(*(r[0] for r in rows)) for t in tied))
        act(game, *(t.format(*(r[1] for r in rows)) for t in (tied[1], tied[2], tied[3], tied[0])))
        act(game, *(t.format(*(r[2] for r in rows)) for t in tied))

    act(game, "0 hold")
    all_tied(first)
    deal(game, "8d 7d Ad", "8s 7s As", "9c 10c Jc", "9d 10d Jd")  # 20 cards left: 12 of them
    assert game.phase == Phase.PLAY and len(game.stock) == 8
    all_tied(("8d 7d Ad", "8s 7s As", "9c 10c Jc", "9d 10d Jd"))
    assert game.phase == Phase.DEAL and len(game.stock) == 8  # 8 cards cannot give 3 to each of 4 players
    deal(game, *first)  # a new shuffle: cards of the first deal may come again
    assert len(game.stock) == 20 and game.phase == Phase.PLAY
    act(game, "0 play 8h", "1 play 7c", "2 play 9h", "3 play 9s", "0 play 7h", "1 play Ac", "2 play 10h", "3 play Js")
    assert record(game).winner_team == 0 and game.scores == [1, 0] and game.petits == [0, 0]
    assert [e.verb for e in record(game).events].count(DEALT) == 3
    replays(game, (2, 0))


def test_gatine_a_void_hand_without_trut_d_office_is_pourrie_as_in_trut() -> None:
    game = gatine()
    deal(game, "8h 7h Ah", "8c 7c Ac")
    act(game, "0 play 8h", "1 play 8c", "1 play 7c", "0 play 7h", "0 play Ah", "1 play Ac")
    assert details(game)["void"] and record(game).points == (0, 0) and game.phase == Phase.HAND_OVER


def test_gatine_has_no_fortial() -> None:
    game = gatine(scores=(6, 0), petits=(2, 0))  # 6 longs and 2 petits: à tenir, not au fortial
    deal(game, "8h 7h 9h", "Ah 10h Kh")
    assert game.phase == Phase.HOLD and game.decision(0) == "tenir"


# ============================================ the threshold policy's decisions ==========================


def step(policy: DecisionPolicy, game: Game, seat: int) -> Action | None:
    return policy.step(SeatView(game, seat), random.Random(0))


def test_threshold_truts_d_office_and_answers_by_office_see_at() -> None:
    game = gatinaise(petits=(0, 2), brelan="on")
    deal(game, "9h 9d 9c", "7c 10c Jc")
    assert step(ThresholdPolicy(), game, 0) == Action(0, "trut", "brelan")  # obliged, announced when it may
    act(game, "0 trut")
    plain = gatinaise(petits=(0, 2))
    deal(plain, "9h 10d Jc", "7c 8c Qc")
    act(plain, "0 trut")
    assert plain.decision(1) == "trut_answer"
    assert step(ThresholdPolicy(office_see_at=0.3, see_at=1.0), plain, 1) == Action(1, "accept")
    assert step(ThresholdPolicy(office_see_at=1.0, see_at=0.0), plain, 1) == Action(1, "fold")


def test_threshold_sings_agrees_and_asks_by_the_strength_of_its_best_3_cards() -> None:
    strong = gatinaise(petits=(2, 2))
    deal(strong, "7h 7c 8h", "9h 9c 10h")
    assert step(ThresholdPolicy(sing_below=0.4), strong, 0) == Action(0, "nosing")
    weak = gatinaise(petits=(2, 2))
    deal(weak, "9h 9c 10h", "7h 7c 8h")
    assert step(ThresholdPolicy(sing_below=0.4), weak, 0) == Action(0, "sing")
    act(weak, "0 sing")
    assert step(ThresholdPolicy(agree_below=0.6), weak, 1) == Action(1, "nosing")
    assert step(ThresholdPolicy(agree_below=1.0), weak, 1) == Action(1, "sing")
    act(weak, "1 sing")
    assert step(ThresholdPolicy(ask_three_below=0.2, ask_two_below=0.3), weak, 0) == Action(0, "ask", 3)
    assert step(ThresholdPolicy(ask_three_below=0.0, ask_two_below=0.3), weak, 0) == Action(0, "ask", 2)
    assert step(ThresholdPolicy(ask_three_below=0.0, ask_two_below=0.0), weak, 0) == Action(0, "ask", 1)


def test_threshold_keeps_its_3_best_cards() -> None:
    game = gatinaise(petits=(2, 2))
    deal(game, "9h 10h Jh", "9c 10c Jc")
    act(game, "0 sing", "1 sing", "0 ask 2")
    deal(game, "7h Kh", "8c Qc")
    act(game, "0 nosing")
    action = step(ThresholdPolicy(), game, 0)
    assert action == Action(0, DISCARD, "9h 10h")  # keeps 7h, Kh, Jh
    assert action in game.legal_actions()


def test_threshold_holds_a_tenir_and_sings_by_its_parameters() -> None:
    strong = gatine(petits=(2, 0))
    deal(strong, "8h 8c 7h", "9h 9c 10h")
    assert step(ThresholdPolicy(tenir_at=0.5), strong, 0) == Action(0, "hold")
    weak = gatine(petits=(2, 0))
    deal(weak, "9h 9c Jh", "8h 8c 7h")
    assert step(ThresholdPolicy(tenir_at=0.5), weak, 0) == Action(0, "pass")
    singing = gatine(petits=(2, 2))
    deal(singing, "9h 9c Jh", "8h 8c 7h")
    assert step(ThresholdPolicy(chanter_below=0.5), singing, 0) == Action(0, "sing")
    act(singing, "0 sing")
    assert step(ThresholdPolicy(chanter_below=0.5), singing, 1) == Action(1, "nosing")


@pytest.mark.parametrize("name", ["trut-gatinaise", "trut-gatine"])
def test_every_decision_has_a_threshold_method_and_random_plays_legal_actions(name: str) -> None:
    config = get_variant(name).configure({"players": "2"})
    for policies in ([ThresholdPolicy(sing_below=1, agree_below=1, chanter_below=1)] * 2, [RandomPolicy()] * 2):
        game, hands = play_game(config, policies, 11)
        assert game.over
        again = replay(config, game.first_dealer, hands)
        assert again.scores == game.scores


# ============================================ hand-written records (tests/data/valid) ====================


def test_hand_written_regional_records() -> None:
    """What the files illustrate (their comments cite seeds 001 and 003); test_history.py checks that they
    import, replay like their canonical form and round-trip."""
    gatinaise_game = read_file(VALID / "trut_gatinaise_4p.truc").games[0]
    hands = gatinaise_game.hands
    assert [dict(h.details)["special"] for h in hands] == [None, None, *["trut_office"] * 3, "chanson"]
    assert [e.arg for e in hands[5].events if e.verb == DISCARD][1] == "9d 10d"  # written back in hand order
    assert gatinaise_game.game.scores == [2, 0] and gatinaise_game.game.petits == [2, 0]  # type: ignore[attr-defined]
    unseen = read_file(VALID / "trut_gatinaise_2p.truc").games[0]
    last = unseen.hands[-1]  # seat 1's cards, extra cards and discards unseen (`??`)
    assert dict(last.details)["special"] == "chanson" and last.dealt[1] == (UNKNOWN,) * 3 and last.winner_team == 0
    two = read_file(VALID / "trut_gatine_2p.truc").games[0]
    specials = [dict(h.details)["special"] for h in two.hands]
    assert specials == [None, None, "tenir", "sec", "tenir", "tenir", "chanter", None]
    assert [e.arg for e in two.hands[0].events if e.verb == "trut"] == ["suite"]  # "tierce"
    assert [e.verb for e in two.hands[3].events].count(DEALT) == 2 and two.game.scores == [1, 2]
    four = read_file(VALID / "trut_gatine_4p.truc").games[0]
    assert [h.ended_by for h in four.hands] == ["tricks"] * 4 and four.game.scores == [1, 1]
    assert [e.verb for e in four.hands[2].events][1:3] == ["pass", "hold"]
