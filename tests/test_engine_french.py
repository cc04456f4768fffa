"""French Truc rules, one test (or a few) per row of RULES.md's `french` table.

Sections cited are those of seed 002 (`../shared/seeds/002_04506c8aff400327.txt`, "Règles du Truc"):
"Ordre de valeur des cartes et points qu'elles représentent", "Règles du Truc à deux joueurs", "Règles du
Truc à quatre joueurs"; and of seed 000 (`../shared/seeds/000_c96b7b0037b5bd77.txt`), "Le Truc en France"
(after Lanes 1912). Where a seed gives an example, the test plays it.
"""

from __future__ import annotations

import random
from pathlib import Path

import polars as pl
import pytest

from pipeline.cards import FRENCH_32, FRENCH_36
from pipeline.engine.actions import Action, Event, RuleError
from pipeline.engine.french import FrenchGame, reste_for_the_game
from pipeline.engine.game import Phase
from pipeline.engine.rules import TIE, OptionError
from pipeline.engine.view import SeatView
from pipeline.parts import new_batches
from pipeline.policies import parse_policy
from pipeline.policies.threshold import ThresholdPolicy
from pipeline.rows import add_game
from pipeline.simulate import SimulationSpec, play_match, rubber_wins, simulate
from pipeline.variants import FRENCH, get_variant
from tests.scripting import act, deal


def new_game(players: int = 2, dealer: int = 1, scores: tuple[int, int] = (0, 0), **options: str) -> FrenchGame:
    """A french game; with the default dealer 1 the eldest is seat 0 in 2 players, seat 2 in 4."""
    config = get_variant("french").configure({"players": str(players), **options})
    game = FrenchGame(config, seed=1, first_dealer=dealer, scores=scores)
    assert isinstance(game, FrenchGame)
    return game


def ranks_high_to_low(**options: str) -> list[str]:
    """The ranks of the configured deck sorted by power, high first (one card per rank)."""
    variant = FRENCH.configure(options).variant
    deck = variant.deck
    cards = [deck.parse(rank + "h") for rank in deck.ranks]
    return [deck.rank_of[c] for c in sorted(cards, key=lambda c: -variant.power[c])]


# --- deck and ranks: seed 002 "Ordre de valeur des cartes...", seed 000 "Le Truc en France" ------------


def test_deck_is_french_32_and_suits_never_matter() -> None:
    assert FRENCH.deck is FRENCH_32 and len(FRENCH_32) == 32
    assert set(FRENCH_32.ranks) == {"7", "8", "9", "10", "J", "Q", "K", "A"}
    # seed 002 "À ce jeu il n'y a pas de couleur": a king of any suit beats any queen
    assert FRENCH.power[FRENCH_32.parse("Kc")] > FRENCH.power[FRENCH_32.parse("Qh")]
    assert len({FRENCH.power[FRENCH_32.parse("7" + s)] for s in "cdhs"}) == 1


def test_default_rank_order_is_7_8_a_k_q_j_10_9() -> None:
    # seed 002: "La plus forte carte est le sept, ensuite vient le huit ... le neuf qui est la carte la plus faible"
    assert ranks_high_to_low() == ["7", "8", "A", "K", "Q", "J", "10", "9"]


def test_ranking_eight_low_is_7_a_k_q_j_10_9_8() -> None:
    # seed 002 "Dans certaines localités, l'as remplace le huit"; seed 000 (Lanes) "le 8 est la carte la plus basse"
    assert ranks_high_to_low(ranking="eight-low") == ["7", "A", "K", "Q", "J", "10", "9", "8"]


def test_ranking_eight_high_is_8_7_a_k_q_j_10_9() -> None:
    # seed 000 "l'ordre des cartes du dessus a été rationalisé, de sorte que le huit bat le sept"
    assert ranks_high_to_low(ranking="eight-high") == ["8", "7", "A", "K", "Q", "J", "10", "9"]


def test_deck_36_has_sixes_ranked_7_6_a_k_q_j_10_9_8() -> None:
    # seed 000 "Auparavant, il était joué avec un paquet de 36 cartes ... 7, 6, A, R, D, V, 10, 9, 8"
    config = FRENCH.configure({"deck": "36"})
    assert config.variant.deck is FRENCH_36 and len(FRENCH_36) == 36
    assert ranks_high_to_low(deck="36") == ["7", "6", "A", "K", "Q", "J", "10", "9", "8"]
    assert FRENCH.configure({"deck": "36"}).variant is config.variant  # built once (strength tables cached)
    with pytest.raises(OptionError, match="ranking=eight-high applies to the 32-card deck only"):
        FRENCH.configure({"deck": "36", "ranking": "eight-high"})


def test_a_36_card_game_deals_and_plays_sixes() -> None:
    game = new_game(2, deck="36")
    deal(game, "6h 9c 10c", "8h 9d 10d")
    act(game, "0 play 6h", "1 play 8h")
    assert game.tricks == [0]


# --- players: seed 002 "Il se joue à deux ou quatre joueurs" ----------------------------------------


def test_players_are_2_or_4_in_two_teams() -> None:
    assert FRENCH.configure().players == 2
    assert FRENCH.configure({"players": "4"}).players == 4
    with pytest.raises(OptionError, match="players='3'"):
        FRENCH.configure({"players": "3"})
    game = new_game(4)
    assert game.team_of == (0, 1, 0, 1)  # partners face each other (seed 002 "à quatre joueurs")


# --- target and rubber: seed 002 "Règles du Truc à deux joueurs" ("en douze points et en partie liée");
# seed 000 "Le Truc en France" ("le score cible est de 12 points", "en caoutchouc") -------------------


def test_the_game_ends_at_12_points() -> None:
    game = new_game(2, scores=(10, 3))
    deal(game, "7h 8h Ah", "9c 10c Jc")
    act(game, "0 raise 2", "1 accept", "0 play 7h", "1 play 9c", "0 play 8h", "1 play 10c")
    assert game.scores == [12, 3] and game.over and game.winner_team == 0
    with pytest.raises(RuleError, match="game-over"):
        game.next_hand()


def test_rubber_false_as_rules_md_writes_it_is_rubber_off() -> None:
    # RULES.md `french`: "a match is a rubber: first to win 2 games (option `rubber=false` for single games)"
    assert FRENCH.configure({"rubber": "false"}).options["rubber"] == "off"
    assert FRENCH.configure({"rubber": "True", "signals": "yes"}).options == {
        "players": "2",
        "ranking": "default",
        "deck": "32",
        "rubber": "on",
        "signals": "on",
    }
    with pytest.raises(OptionError, match="rubber='maybe' is not allowed"):
        FRENCH.configure({"rubber": "maybe"})
    with pytest.raises(OptionError, match="deck='true' is not allowed"):  # only on/off options take them
        FRENCH.configure({"deck": "true"})


def test_a_rubber_is_won_by_the_first_side_to_win_2_games() -> None:
    config = FRENCH.configure({"rubber": "on"})
    assert rubber_wins(config) == 2 and rubber_wins(FRENCH.configure({"rubber": "off"})) == 0
    policies = [parse_policy("threshold")] * 2
    for match_no in range(6):
        games = play_match(config, policies, 7, match_no, 2)
        winners = [game.winner_team for _, game, _, _ in games]
        assert len(games) in (2, 3) and [gid for gid, *_ in games] == [3 * match_no + k for k in range(len(games))]
        assert winners.count(winners[-1]) == 2  # the last game gives its side its second win
        assert [w for *_, w in games] == [None] * (len(games) - 1) + [winners[-1]]


def test_simulate_writes_matches_with_rubber_on_and_single_games_with_rubber_off(tmp_path: Path) -> None:
    on = simulate(SimulationSpec("french", 4, 3, {"rubber": "on"}), tmp_path / "on")
    games = pl.read_parquet(tmp_path / "on" / "games").sort("game_id")
    assert on.manifest["matches"] == 4 and on.games == games.height and 8 <= games.height <= 12
    assert games["match_no"].unique().sort().to_list() == [0, 1, 2, 3]
    deciding = games.filter(pl.col("match_winner_team").is_not_null())
    assert deciding.height == 4 and (deciding["match_winner_team"] == deciding["winner_team"]).all()
    simulate(SimulationSpec("french", 4, 3, {"rubber": "off"}), tmp_path / "off")
    single = pl.read_parquet(tmp_path / "off" / "games")
    assert single.height == 4 and single["match_no"].is_null().all()


# --- the redeal: seed 002 "Règles du Truc à deux joueurs"; seed 000 "Le Truc en France" ---------------


def test_a_request_for_new_cards_is_answered_before_anything_else() -> None:
    # seed 002: the eldest asks, the opponent accepts or refuses
    game = new_game(2)
    game.deal()
    with pytest.raises(RuleError, match=r"'refuse' answers a request for new cards, and none is pending"):
        act(game, "1 refuse")
    act(game, "0 redeal")
    with pytest.raises(RuleError, match=r"'raise' is not an answer to a redeal: accept or refuse \[redeal-answer\]"):
        game.apply(Action(1, "raise", 2))
    with pytest.raises(RuleError, match=r"seat 1 must answer the request for new cards, not seat 0 \[turn\]"):
        act(game, "0 accept")


def test_a_pending_raise_is_answered_by_its_answerer_before_any_other_raise() -> None:
    game = new_game(4, dealer=1)  # eldest 2; seat 3 answers for the other team
    game.deal()
    act(game, "2 raise 2")
    with pytest.raises(RuleError, match=r"a raise is pending: seat 3 must answer first \[answer-first\]"):
        act(game, "1 raise 3")


def test_the_eldest_may_ask_for_new_cards_and_the_stock_deals_them_without_reshuffling() -> None:
    # seed 002: "si l'adversaire accepte, les cartes en main sont jetées sur le tapis, sans être vues des
    # joueurs, et avec le talon du jeu, le donneur distribue trois autres cartes"
    game = new_game(2)
    first = Event(*game.deal())
    assert Action(0, "redeal") in game.legal_for(0) and Action(1, "redeal") not in game.legal_for(1)
    act(game, "0 redeal")
    assert game.phase == Phase.REDEAL and game.actor() == 1 and SeatView(game, 1).decision == "redeal_answer"
    act(game, "1 accept")
    assert game.phase == Phase.DEAL and game.hands == [[], []]  # discarded unseen
    second = Event(*game.deal())
    old = {c for cards in first.arg for c in cards}
    new = {c for cards in second.arg for c in cards}
    assert len(new) == 6 and not old & new  # from the stock: no card comes back
    assert [Event(*e).verb for e in game.events] == ["dealt", "redeal", "accept", "dealt"]
    assert game.phase == Phase.PLAY and game.to_play == 0 and game.redeals == 1


def test_a_refused_redeal_is_played_and_cannot_be_asked_again() -> None:
    # seed 000: "Si quelqu'un insiste pour jouer, il n'y a pas de redistribution et les cartes doivent être jouées"
    game = new_game(2)
    deal(game, "9h 10h Jh", "7c 8c Ac")
    act(game, "0 redeal", "1 refuse")
    assert game.phase == Phase.PLAY and game.to_play == 0
    with pytest.raises(RuleError, match="redeal-first"):
        act(game, "0 redeal")
    act(game, "0 play 9h")


def test_in_four_players_every_opponent_must_agree_in_play_order() -> None:
    # seed 000: "si tous sont d'accord, les cartes sont jetées"; the eldest's partner does not answer
    game = new_game(4)  # dealer 1, eldest 2; opponents 3 then 1
    deal(game, "7c 8c Ac", "Kc Qc Jc", "9h 10h Jh", "9d 10d Jd")
    act(game, "2 redeal")
    assert game.actor() == 3
    with pytest.raises(RuleError, match="turn"):
        act(game, "0 accept")
    act(game, "3 accept")
    assert game.actor() == 1
    act(game, "1 refuse")
    assert game.phase == Phase.PLAY and game.redeals == 0 and game.to_play == 2
    game = new_game(4)
    deal(game, "7c 8c Ac", "Kc Qc Jc", "9h 10h Jh", "9d 10d Jd")
    act(game, "2 redeal", "3 accept", "1 accept")
    assert game.phase == Phase.DEAL and game.redeals == 1


def test_only_the_eldest_asks_and_only_before_his_first_card_or_raise() -> None:
    game = new_game(2)
    deal(game, "9h 10h Jh", "7c 8c Ac")
    with pytest.raises(RuleError, match="redeal-eldest"):
        act(game, "1 redeal")
    act(game, "0 raise 2", "1 accept")
    with pytest.raises(RuleError, match="redeal-first"):
        act(game, "0 redeal")


def test_no_redeal_once_a_card_is_played() -> None:
    """New cards are asked for before the first trick (seed 002 "Règles du Truc à deux joueurs"): the
    eldest, who wins trick 1 and leads again, may not ask any more."""
    game = new_game(2)
    deal(game, "7h 10h Jh", "9c 8c Ac")
    assert Action(0, "redeal") in game.legal_for(0)
    act(game, "0 play 7h", "1 play 9c")
    assert game.to_play == 0 and Action(0, "redeal") not in game.legal_for(0)
    with pytest.raises(RuleError, match="redeal-first"):
        act(game, "0 redeal")


def test_redeals_go_on_while_the_stock_holds_a_full_deal() -> None:
    # 32 cards: 2 players use 6 a deal, so 5 deals (4 redeals) leave 2 cards; 4 players use 12, so 2 deals
    for players, deck, most in ((2, "32", 4), (4, "32", 1), (2, "36", 5), (4, "36", 2)):
        game = new_game(players, deck=deck)
        eldest = game.eldest
        answerers = [s for s in range(players) if game.team_of[s] != game.team_of[eldest]]
        seen: list[int] = []
        for _ in range(most):
            seen.extend(c for cards in Event(*game.deal()).arg for c in cards)
            act(
                game,
                f"{eldest} redeal",
                *(f"{s} accept" for s in sorted(answerers, key=lambda s: (s - eldest) % players)),
            )
        seen.extend(c for cards in Event(*game.deal()).arg for c in cards)
        assert len(seen) == len(set(seen)) == (most + 1) * players * 3
        assert Action(eldest, "redeal") not in game.legal_for(eldest)
        with pytest.raises(RuleError, match="redeal-stock"):
            act(game, f"{eldest} redeal")


def test_a_recorded_redeal_may_not_deal_a_card_dealt_before() -> None:
    game = new_game(2)
    deal(game, "9h 10h Jh", "7c 8c Ac")
    act(game, "0 redeal", "1 accept")
    with pytest.raises(RuleError, match="card-twice"):
        deal(game, "9h Qh Kh", "7d 8d Ad")
    deal(game, "9s Qh Kh", "7d 8d Ad")
    record_cards = game.dealt
    assert record_cards[0] == tuple(FRENCH_32.parse(c) for c in ("9s", "Qh", "Kh"))


def test_signals_are_made_again_on_the_new_cards() -> None:
    game = new_game(4, signals="on")
    deal(game, "7c 8c Ac", "Kc Qc Jc", "9h 10h Jh", "9d 10d Jd")
    act(game, "2 signal -", "3 signal -", "0 signal 78A", "1 signal -", "2 redeal", "3 accept", "1 accept")
    deal(game, "7d Kd Qd", "8s 9s 10s", "Js Qs Ks", "As 7s 8h")
    assert game.phase == Phase.SIGNAL and game.actor() == 2 and game.signals == []


# --- tricks: seed 002 "à deux joueurs" and "à quatre joueurs" ------------------------------------------


def test_two_tricks_win_and_the_third_is_not_played() -> None:
    game = new_game(2)
    deal(game, "7h 8h 9h", "Ac Kc Qc")
    act(game, "0 play 7h", "1 play Ac", "0 play 8h", "1 play Kc")
    record = game.last_hand
    assert record is not None and record.tricks == (0, 0) and record.points == (1, 0)


def test_a_seven_on_a_seven_ties_and_the_player_who_led_leads_again() -> None:
    # seed 002: "si sur un sept, l'adversaire met un sept, la levée est pourrie ... c'est à celui qui a joué le
    # premier pour cette levée, qu'il appartient de rejouer pour la deuxième"
    game = new_game(2, dealer=0)  # eldest 1
    deal(game, "7h 9h 10h", "7c Kc Qc")
    act(game, "1 play 7c", "0 play 7h")
    assert game.tricks == [TIE] and game.to_play == 1


def test_with_a_tied_trick_the_first_of_the_other_two_decides() -> None:
    # seed 002: "si une des levées est pourrie, c'est la première des deux autres qui assurera le gain du coup"
    game = new_game(2)
    deal(game, "7h 9h 10h", "7c Kc Qc")
    act(game, "0 play 7h", "1 play 7c", "0 play 9h", "1 play Qc")  # tied, then won by 1
    record = game.last_hand
    assert record is not None and record.tricks == (TIE, 1) and record.winner_team == 1
    assert record.tie_rule == "first_decisive"
    # "celui qui la fait [la première levée] gagne le coup, si la seconde ou la troisième est pourrie"
    game = new_game(2)
    deal(game, "8h Kh 9h", "Ac Kc 10c")
    act(game, "0 play 8h", "1 play Ac", "0 play Kh", "1 play Kc")
    record = game.last_hand
    assert record is not None and record.tricks == (0, TIE) and record.winner_team == 0
    game = new_game(2)
    deal(game, "8h 9h Qh", "Ac Kc Qc")
    act(game, "0 play 8h", "1 play Ac", "0 play 9h", "1 play Kc", "1 play Qc", "0 play Qh")
    record = game.last_hand
    assert record is not None and record.tricks == (0, 1, TIE) and record.winner_team == 0


def test_all_three_tricks_tied_make_a_void_hand_and_the_deal_passes() -> None:
    # seed 002: "Si toutes les levées sont pourries à deux comme à quatre joueurs, le coup est nul et l'on
    # passe à la donne suivante"
    game = new_game(2, scores=(3, 5))
    deal(game, "7h 8h Ah", "7c 8c Ac")
    act(game, "0 raise 2", "1 accept")
    act(game, "0 play 7h", "1 play 7c", "0 play 8h", "1 play 8c", "0 play Ah", "1 play Ac")
    record = game.last_hand
    assert record is not None and record.tricks == (TIE, TIE, TIE)
    assert record.winner_team is None and record.points == (0, 0) and record.tie_rule == "all_tied"
    assert game.scores == [3, 5] and game.end_values(record) == ["0", "0"]  # written `end 0 0`
    assert dict(record.details)["void"] is True
    batches = new_batches()
    add_game(batches, 0, game, [record], ["a", "b"], "test", complete=False)
    row = dict(zip(batches["hands"].schema.names, batches["hands"].rows[0], strict=True))
    assert row["void"] is True and row["winner_team"] is None and row["redeals"] == 0
    game.next_hand()
    assert game.dealer == 0 and game.eldest == 1


def test_in_four_players_the_top_cards_of_the_two_teams_tie_a_trick() -> None:
    # seed 002 "à quatre joueurs": "la plus forte d'un camp est couverte par une également forte du camp adverse"
    game = new_game(4)  # eldest 2
    deal(game, "8c 9c 10c", "Kc Qc Jc", "Ah 9h 10h", "As 9d 10d")
    act(game, "2 play Ah", "3 play As", "0 play 8c", "1 play Kc")
    assert game.tricks == [0]  # the 8 beats both aces
    game = new_game(4)
    deal(game, "Kh 9c 10c", "Kc Qc Jc", "Ah 9h 10h", "As 9d 10d")
    act(game, "2 play Ah", "3 play As", "0 play Kh", "1 play Kc")
    assert game.tricks == [TIE] and game.to_play == 2  # the leader of the tied trick leads again


# --- raises: seed 002 "à deux joueurs"; seed 000 "Le Truc en France" ----------------------------------


def test_deux_points_si_je_joue_refused_gives_the_raiser_1() -> None:
    # seed 002: the first leads; "l'adversaire avant de mettre sa carte peut dire, deux points si je joue ...
    # s'il refuse, il jette ses cartes sur le tapis sans les montrer et l'adversaire marque un point"
    game = new_game(2)
    deal(game, "9h 10h Jh", "7c 8c Ac")
    (event,) = act(game, "0 play 9h")
    (event,) = act(game, "1 raise 2")
    assert event.kind == "raise" and event.stake_before == 1 and event.stake_after == 2
    assert game.actor() == 0 and SeatView(game, 0).decision == "french_answer"
    act(game, "0 fold")
    record = game.last_hand
    assert record is not None and record.ended_by == "fold" and record.points == (0, 1) and record.stake == 1


def test_deux_de_plus_after_a_tie_and_its_refusal_gives_the_raiser_2() -> None:
    # seed 002: "jouez"; the trick is tied; the first leads again and says "deux de plus si je joue" (4);
    # "Si le deuxième joueur refuse, les deux joueurs jettent leurs cartes et le premier marque deux points"
    game = new_game(2)
    deal(game, "7h 10h Jh", "7c 8c Ac")
    act(game, "0 play 7h", "1 raise 2", "0 accept", "1 play 7c")
    assert game.stake == 2 and game.tricks == [TIE] and game.to_play == 0
    act(game, "0 raise 4", "1 fold")
    record = game.last_hand
    assert record is not None and record.points == (2, 0)


def test_raises_of_any_size_but_not_twice_in_a_row_by_one_team() -> None:
    # seed 000: "La taille et le nombre de paris ne sont pas limités, si ce n'est qu'une même équipe ne peut pas
    # parier deux fois de suite dans la même main"
    game = new_game(2)
    deal(game, "9h 10h Jh", "7c 8c Ac")
    act(game, "0 raise 7", "1 accept")
    assert game.stake == 7
    with pytest.raises(RuleError, match="raise-twice"):
        act(game, "0 raise 9")
    act(game, "0 play 9h", "1 raise 9", "0 accept", "1 play 7c")  # team 0 raised last: team 1 may
    with pytest.raises(RuleError, match="raise-twice"):
        act(game, "1 raise 10")  # seat 1 leads trick 2, but his team made the last raise
    act(game, "1 play 8c", "0 raise 11")
    with pytest.raises(RuleError, match="raise-size"):
        act(game, "1 raise 11")  # an answer that raises must propose more than the pending 11
    act(game, "1 accept")
    assert game.stake == 11


def test_a_raise_must_be_above_the_stake_and_at_most_what_a_side_needs() -> None:
    game = new_game(2, scores=(4, 9))  # team 0 needs 8, team 1 needs 3: the ceiling is 8
    deal(game, "9h 10h Jh", "7c 8c Ac")
    with pytest.raises(RuleError, match="raise-size"):
        act(game, "0 raise 1")
    with pytest.raises(RuleError, match="worth no more than 8"):
        act(game, "0 raise 9")
    raises = [a.arg for a in game.legal_for(0) if a.verb == "raise"]
    assert raises == [2, 3, 4, 5, 6, 7, 8, "reste"]
    with pytest.raises(RuleError, match="raise-arg"):
        act(game, "0 raise lots")
    act(game, "0 raise 8", "1 accept", "0 play 9h")
    with pytest.raises(RuleError) as refused:  # at the ceiling already: no raise to suggest
        act(game, "1 raise 9")
    assert str(refused.value).endswith("worth no more than 8, the most either team needs [raise-size]")


def test_a_raise_is_made_on_one_turn_before_playing_one_card() -> None:
    # seed 000: "Un joueur qui a le droit peut parier immédiatement avant de jouer une carte"
    game = new_game(2)
    deal(game, "9h 10h Jh", "7c 8c Ac")
    act(game, "0 play 9h")
    assert game.optional_actors() == []  # no raise just after playing (unlike catalan)
    with pytest.raises(RuleError, match="raise-on-turn"):
        act(game, "0 raise 2")
    assert Action(1, "raise", 2) in game.legal_for(1)


def test_in_four_players_the_next_opponent_answers_for_the_team() -> None:
    game = new_game(4)  # eldest 2
    deal(game, "8c 9c 10c", "Kc Qc Jc", "Ah 9h 10h", "As 9d 10d")
    act(game, "2 raise 3")
    assert game.actor() == 3
    with pytest.raises(RuleError, match="answerer"):
        act(game, "1 accept")
    with pytest.raises(RuleError, match="answer-first"):
        act(game, "2 play Ah")
    act(game, "3 accept")
    assert game.stake == 3


def test_the_seed_example_redeal_bluff_raise_reste_and_holding_by_playing() -> None:
    # seed 002, the closing example of "à deux joueurs": the first, with two sevens and an eight, asks for
    # cards to hide his hand; refused, he plays his eight; the second takes it with a seven and proposes four;
    # the first accepts and raises "mon reste"; the second "tiendra en jouant son huit"; the first takes the
    # last two tricks with his two sevens
    game = new_game(2)
    deal(game, "7h 7s 8c", "7d 8d 9c")
    act(game, "0 redeal", "1 refuse", "0 play 8c", "1 play 7d", "1 raise 4")
    (reste,) = act(game, "0 raise reste")
    assert reste.answers and reste.stake_before == 1 and reste.stake_after == 12 and game.stake == 4
    (hold,) = act(game, "1 play 8d")  # playing accepts
    assert hold.answers and game.stake == 12
    act(game, "0 play 7h", "0 play 7s", "1 play 9c")
    record = game.last_hand
    assert record is not None and record.tricks == (1, 0, 0) and record.points == (12, 0)
    assert game.over and game.winner_team == 0


def test_reste_accepted_by_a_side_needing_no_more_decides_the_game_whoever_wins() -> None:
    # seed 000: "il est particulièrement avantageux pour une équipe très en retard de parier le reste"; "Si
    # l'autre équipe accepte, le gagnant de cette main remporte la partie entière"
    for cards, winner in ((("7h 8h Ah", "9c 10c Jc")), 0), ((("9h 10h Jh", "7c 8c Ac")), 1):
        game = new_game(2, scores=(2, 9))  # team 0 needs 10; team 1 needs 3
        deal(game, *cards)
        (event,) = act(game, "0 raise reste")
        assert event.arg == "reste" and event.stake_after == 10
        act(game, "1 accept")
        for _ in range(2):
            act(game, f"{game.to_play} play {FRENCH_32.text(game.hands[game.to_play][0])}")
            act(game, f"{game.to_play} play {FRENCH_32.text(game.hands[game.to_play][0])}")
        assert game.over and game.winner_team == winner


def test_le_mien_answers_reste_with_the_larger_reste_and_the_hand_decides_the_game() -> None:
    # seed 002: "si l'autre joueur a plus de points à faire pour arriver aux douze, il peut dire à son tour le
    # mien (reste) et la manche appartient à celui qui est vainqueur du coup"
    game = new_game(2, scores=(9, 2))  # team 0 needs 3; team 1 needs 10
    deal(game, "9h 10h Jh", "7c 8c Ac")
    act(game, "0 raise reste")
    assert game.proposed_stake() == 3
    (mien,) = act(game, "1 raise reste")
    assert mien.answers and mien.stake_after == 10 and game.stake == 3
    act(game, "0 accept", "0 play 9h", "1 play 7c", "1 play 8c", "0 play 10h")
    assert game.over and game.winner_team == 1 and game.scores == [9, 12]
    # the side that needs no more has no "le mien": its reste is not a raise
    game = new_game(2, scores=(2, 9))
    deal(game, "9h 10h Jh", "7c 8c Ac")
    act(game, "0 raise reste")
    with pytest.raises(RuleError, match="reste"):
        act(game, "1 raise reste")


def test_reste_accepted_plainly_by_a_side_needing_more_decides_the_game_too() -> None:
    # RULES.md `french`: "`reste`: a raise to the points the raiser still needs to win the game; if accepted
    # the hand decides the game" (seed 000 "Si l'autre équipe accepte, le gagnant de cette main remporte la
    # partie entière"). RULES.md prevails where seed 002 would have the hand worth the raisers' 3 points only.
    game = new_game(2, scores=(9, 2))  # team 0 needs 3; team 1 needs 10
    deal(game, "9h 10h Jh", "7c 8c Ac")
    act(game, "0 raise reste", "1 accept")
    assert game.stake == 3 and game.for_the_game
    act(game, "0 play 9h", "1 play 7c", "1 play 8c", "0 play 10h")
    record = game.last_hand
    assert record is not None and record.points == (0, 10) and record.stake == 10
    assert game.scores == [9, 12] and game.over and game.winner_team == 1
    # the raisers win it: they score their reste, as any hand scores its stake
    game = new_game(2, scores=(9, 2))
    deal(game, "7h 8h Ah", "9c 10c Jc")
    act(game, "0 raise reste", "1 accept", "0 play 7h", "1 play 9c", "0 play 8h", "1 play 10c")
    record = game.last_hand
    assert record is not None and record.points == (3, 0) and game.scores == [12, 2] and game.winner_team == 0


def test_after_an_accepted_reste_no_raise_is_left_and_a_reste_is_answered_by_a_reste_only() -> None:
    game = new_game(2, scores=(9, 2))  # team 0 needs 3; team 1 needs 10
    deal(game, "9h 10h Jh", "7c 8c Ac")
    act(game, "0 raise reste")
    assert [a.arg for a in game.legal_for(1) if a.verb == "raise"] == ["reste"]  # "le mien" only
    with pytest.raises(RuleError, match=r"answered by accept, fold or a reste of one's own, not 'raise 5' \[le-mien\]"):
        act(game, "1 raise 5")
    act(game, "1 accept", "0 play 9h", "1 play 7c")
    assert not game.may_raise(1) and not [a for a in game.legal_for(1) if a.verb == "raise"]
    with pytest.raises(RuleError, match=r"the hand decides the game, no raise is left \[reste-accepted\]"):
        act(game, "1 raise 10")


def test_reste_for_the_game_scores_what_the_winner_needs_at_least_the_stake() -> None:
    assert reste_for_the_game(3, 10) == 10  # the acceptors, needing 10, win: they reach the target
    assert reste_for_the_game(10, 3) == 10  # a winner needing less scores the stake, as any won hand
    assert reste_for_the_game(3, 3) == 3


def test_le_mien_refused_gives_the_reste_accepted_before_it() -> None:
    game = new_game(2, scores=(9, 2))
    deal(game, "9h 10h Jh", "7c 8c Ac")
    act(game, "0 raise reste", "1 raise reste", "0 fold")
    record = game.last_hand
    assert record is not None and record.points == (0, 3) and not game.over


def test_a_raise_in_answer_accepts_the_pending_one_and_the_raisers_fold_scores_it() -> None:
    # seed 002: "proposera deux ou quatre points qui seront acceptés et surenchéris"
    game = new_game(2)
    deal(game, "9h 10h Jh", "7c 8c Ac")
    act(game, "0 raise 2")
    (event,) = act(game, "1 raise 5")
    assert event.answers and game.stake == 2 and game.pending == 5 and game.actor() == 0
    act(game, "0 fold")
    record = game.last_hand
    assert record is not None and record.points == (0, 2)


# --- signals: as in catalan (seed 002 "à quatre joueurs": "un rictus de la bouche indique un sept") ----


def test_signals_name_the_top_ranks_and_reach_the_partner_only() -> None:
    game = new_game(4, signals="on")
    deal(game, "7c 8c Ac", "Kc Qc Jc", "9h 10h Jh", "9d 10d Jd")
    assert SeatView(game, 2).decision == "french_signal"
    with pytest.raises(RuleError, match="signals: - 7 8 A 78 7A 8A 78A"):
        act(game, "2 signal 32")
    act(game, "2 signal -", "3 signal -", "0 signal 78a", "1 signal 8")  # read in any letter case
    assert SeatView(game, 2).partner_signal == "78A" and SeatView(game, 3).partner_signal == "8"
    assert game.phase == Phase.PLAY
    eight_low = new_game(4, signals="on", ranking="eight-low")
    assert eight_low.signal_words[-1] == "7AK"


def test_signals_are_off_in_two_players() -> None:
    game = new_game(2, signals="on")
    deal(game, "7c 8c Ac", "Kc Qc Jc")
    assert game.phase == Phase.PLAY and SeatView(game, 0).partner_signal is None


# --- the threshold policy's french decisions ----------------------------------------------------------


def test_threshold_asks_for_new_cards_with_a_weak_hand_and_opponents_agree_when_weak_too() -> None:
    policy = ThresholdPolicy(redeal_below=0.3, redeal_accept_below=0.3, bluff=0.0)
    rng = random.Random(0)
    game = new_game(2)
    deal(game, "9h 10h 9s", "10c 9c Jc")
    assert policy.step(SeatView(game, 0), rng) == Action(0, "redeal")
    act(game, "0 redeal")
    assert policy.step(SeatView(game, 1), rng) == Action(1, "accept")
    game = new_game(2)
    deal(game, "9h 10h 9s", "7c 8c Ac")
    act(game, "0 redeal")
    assert policy.step(SeatView(game, 1), rng) == Action(1, "refuse")


def test_threshold_raises_two_then_two_more_and_reste_with_a_top_hand() -> None:
    rng = random.Random(0)
    game = new_game(2)
    deal(game, "7h 7s 8c", "9c 10c Jc")
    assert ThresholdPolicy(raise_at=0.7, reste_at=1.0).step(SeatView(game, 0), rng) == Action(0, "raise", 2)
    assert ThresholdPolicy(raise_at=0.7, reste_at=0.9).step(SeatView(game, 0), rng) == Action(0, "raise", "reste")
    act(game, "0 play 7h", "1 raise 2")
    answer = ThresholdPolicy(raise_at=0.7, reste_at=1.0).step(SeatView(game, 0), rng)
    assert answer == Action(0, "raise", 4)  # "deux de plus"
    act(game, "0 accept")
    weak = ThresholdPolicy(raise_at=0.99, call_at=0.99, bluff=0.0)
    act(game, "1 play 9c", "0 raise 4")
    assert weak.step(SeatView(game, 1), rng) == Action(1, "fold")


def test_threshold_answers_a_reste_with_le_mien_its_only_raise() -> None:
    rng = random.Random(0)
    game = new_game(2, scores=(9, 2))  # team 0 needs 3; team 1 needs 10
    deal(game, "9h 10h Jh", "7c 7s 8c")
    act(game, "0 raise reste")
    strong = ThresholdPolicy(raise_at=0.5, reste_at=1.0)  # strong enough to raise, not to bet its reste
    assert strong.step(SeatView(game, 1), rng) == Action(1, "raise", "reste")
    game = new_game(2, scores=(2, 9))  # team 1 needs 3: its reste would not be a raise
    deal(game, "9h 10h Jh", "7c 7s 8c")
    act(game, "0 raise reste")
    assert strong.step(SeatView(game, 1), rng) == Action(1, "accept")
