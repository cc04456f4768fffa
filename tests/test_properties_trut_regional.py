"""Invariants of the regional Trut variants over many random games (RULES.md `trut-gatinaise`, seed 001 "La
variante Gâtinaise"; `trut-gatine`, seed 003 "Variante de Gâtine"): every game ends; no card comes twice
out of one stock across the deals of a hand (la chanson, chanter, the "sec" redeals), discards go back to
it, a card is played only by the seat holding it; petits and longs move only by the rules' amounts; each
hand's special rule follows from the petits held before it; every trick and hand goes where the cards say
(``tests/referee.py``); and every recorded action is legal
(``pipeline.engine.replay.replay`` replays each game and reproduces every hand)."""

from __future__ import annotations

import re
from functools import partial
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.cards import FRENCH_32, UNKNOWN
from pipeline.engine.actions import DEALT, DISCARD, PLAY, Event
from pipeline.engine.game import HandRecord
from pipeline.engine.replay import replay
from pipeline.engine.trut_regional import GatinaiseGame, GatineGame, RegionalTrutGame
from pipeline.policies import parse_policy
from pipeline.simulate import play_game
from pipeline.variants import get_variant
from tests import referee
from tests.combinations import check_every_seed, combination_id, option_combinations

REGIONAL = ["trut-gatinaise", "trut-gatine"]
POLICY_SPECS = [
    "random",
    "threshold",
    "threshold:sing_below=1,agree_below=1,ask_three_below=1,chanter_below=1,tenir_at=0,office_see_at=0",
    "threshold:sing_below=1,agree_below=1,ask_three_below=0,ask_two_below=0,trut_bluff=0.5,see_at=0.2",
    "threshold:sing_below=0,chanter_below=0,tenir_at=1,office_see_at=1,trut_bluff=0",
]
DECK = len(FRENCH_32)


def tokens(text: str) -> tuple[int, int]:
    """An ``end`` value back to (longs, petits)."""
    if text == "0":
        return 0, 0
    match = re.fullmatch(r"(?:([1-9]\d*)l)?(?:([1-9]\d*)p)?", text)
    assert match and text, text
    return int(match.group(1) or 0), int(match.group(2) or 0)


def check_cards(hand: HandRecord, players: int) -> int:
    """Follow every card of the hand from its deals to the table; return the number of "sec" redeals."""
    out: set[int] = set()  # cards out of the stock: held, played or put aside
    held: list[list[int]] = []
    sec = 0
    previous: Event | None = None
    for event in hand.events:
        if event.verb == DEALT:
            dealt = [list(cards) for cards in event.arg]  # type: ignore[attr-defined]
            new = [c for cards in dealt for c in cards]
            assert UNKNOWN not in new and len(new) == len(set(new)) and all(0 <= c < DECK for c in new)
            if previous is None:  # the deal of the hand: 3 each
                assert [len(h) for h in dealt] == [3] * players
                held, out = dealt, set(new)
            elif previous.verb in ("ask", "sing"):  # la chanson's or chanter's extra cards
                assert not out & set(new), "a card came twice out of the stock"
                assert len({len(h) for h in dealt}) == 1
                held = [h + more for h, more in zip(held, dealt, strict=True)]
                out |= set(new)
            else:  # a "sec" redeal after a void trut d'office: from the same stock while it lasts
                assert previous.verb == PLAY and [len(h) for h in dealt] == [3] * players
                sec += 1
                if DECK - len(out) >= 3 * players:
                    assert not out & set(new), "a card came twice out of the stock"
                    out |= set(new)
                else:  # the stock is out: a new shuffle
                    out = set(new)
                held = dealt
        elif event.verb == DISCARD:
            gone = [FRENCH_32.parse(c) for c in str(event.arg).split()]
            assert len(held[event.seat]) - len(gone) == 3
            for card in gone:
                held[event.seat].remove(card)
                out.discard(card)  # back to the stock
        elif event.verb == PLAY:
            held[event.seat].remove(event.arg)  # type: ignore[arg-type]
        previous = event
    return sec


def check_tokens(game: RegionalTrutGame, hand: HandRecord, petits_before: list[int], sec: int) -> None:
    info: dict[str, Any] = dict(hand.details)
    won = [tokens(v) for v in game.end_values(hand)]
    won_l = [lg for lg, _ in won]
    won_p = [p for _, p in won]
    after_p = [info[f"petits_after_team{s}"] for s in range(2)]
    after_l = [info[f"longs_after_team{s}"] for s in range(2)]
    assert won_l == [info["longs_team0"], info["longs_team1"]] and won_p == [info["petits_team0"], info["petits_team1"]]
    assert list(hand.points) == [p + 3 * lg for lg, p in won]
    winner, special, truter = hand.winner_team, info["special"], info["trut_seat"]
    verbs = [e.verb for e in hand.events]
    at_two = [s for s in range(2) if petits_before[s] == 2]
    # one long or one petit per hand, to one side; nothing for a void hand
    if info["void"]:
        assert winner is None and sum(won_l) + sum(won_p) == 0 and after_p == petits_before
        return
    assert winner is not None and won_l[1 - winner] == won_p[1 - winner] == 0 and won_l[winner] + won_p[winner] == 1
    office = "trut" not in verbs and hand.stake == 3  # played for a long without a trut
    if isinstance(game, GatinaiseGame):
        # RULES.md `trut-gatinaise`: petits turn into a long at 3, as in `trut`
        assert special == {0: None, 1: "trut_office", 2: "chanson"}[len(at_two)] and sec == 0
        if len(at_two) == 1:  # trut d'office: the other side truts first, before play
            first = next(e for e in hand.events if e.verb != DEALT)
            assert first.verb == "trut" and first.seat % 2 != at_two[0] and first.trick_no == 0
        if special == "chanson":
            assert office and truter is None
        for s in range(2):
            turned = after_l[s] - hand.score_before[s] - won_l[s]
            assert turned in (0, 1) and 0 <= after_p[s] <= 2
            assert not turned or petits_before[s] + won_p[s] == 3
        if won_l[winner]:
            assert after_p[1 - winner] == 0  # the loser of a long loses its petits
        return
    # RULES.md `trut-gatine`: at most 2 petits, never a long from petits; only the long's winner loses its own
    assert after_l == [b + lg for b, lg in zip(hand.score_before, won_l, strict=True)] and max(after_p) <= 2
    kind = {0: None, 1: "tenir", 2: "chanter"}[len(at_two)]
    assert special == ("sec" if sec else kind)
    if sec:
        assert office
    if len(at_two) == 1:  # à tenir: its players say in turn; nobody holds: the opponents take 1 petit
        choices = [e for e in hand.events if e.verb in ("hold", "pass")]
        assert choices and all(e.seat % 2 == at_two[0] for e in choices)
        if choices[-1].verb == "pass":
            assert hand.ended_by == "pass" and winner != at_two[0] and won_p[winner] == 1 and PLAY not in verbs
        else:
            assert office and truter is None
            assert after_p[winner] == 0 and after_p[1 - winner] == petits_before[1 - winner]
    elif len(at_two) == 2:  # chanter: a trut d'office either way, then both sides lose their petits
        assert office and after_p == [0, 0]
    elif won_l[winner]:
        assert after_p[winner] == 0 and after_p[1 - winner] == petits_before[1 - winner]


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**63 - 1),
    name=st.sampled_from(REGIONAL),
    players=st.sampled_from([2, 4]),
    dealer_leads=st.sampled_from(["off", "on"]),
    tie_lead=st.sampled_from(["maker", "first"]),
    brelan=st.sampled_from(["off", "on"]),
    specs=st.lists(st.sampled_from(POLICY_SPECS), min_size=4, max_size=4),
)
def test_random_regional_games_keep_every_invariant(
    seed: int, name: str, players: int, dealer_leads: str, tie_lead: str, brelan: str, specs: list[str]
) -> None:
    options = {"players": str(players), "dealer_leads": dealer_leads, "tie_lead": tie_lead}
    if name == "trut-gatinaise":
        options["brelan"] = brelan
    check_game(name, options, specs, seed)


@pytest.mark.parametrize(
    ("name", "options"),
    [(name, options) for name in REGIONAL for options in option_combinations(get_variant(name))],
    ids=lambda value: value if isinstance(value, str) else combination_id(value),
)
def test_every_option_combination_keeps_every_invariant(name: str, options: dict[str, str]) -> None:
    check_every_seed(partial(check_game, name), options, POLICY_SPECS, 4)


def check_game(name: str, options: dict[str, str], specs: list[str], seed: int) -> None:
    variant = get_variant(name)
    config = variant.configure(options)
    players = config.players
    game, hands = play_game(config, [parse_policy(s) for s in specs[:players]], seed)
    assert isinstance(game, GatinaiseGame | GatineGame)

    # every game ends, with exactly one side at the target
    assert game.over and [s for s in range(2) if game.scores[s] >= variant.target] == [game.winner_team]

    ranks = referee.GATINE_RANKS if name == "trut-gatine" else referee.TRUT_RANKS
    power = referee.power_by_rank(ranks)
    petits, longs = [0, 0], [0, 0]
    for hand in hands:
        assert list(hand.score_before) == longs
        sec = check_cards(hand, players)
        # the turns, the tricks and the hand's winner, judged again from the cards (tests/referee.py)
        first = hand.dealer if config.options["dealer_leads"] == "on" else hand.eldest
        tie_lead = config.options["tie_lead"]
        referee.check_trut_tricks(hand, variant.deck.cards, players, power, first, tie_lead)
        check_tokens(game, hand, petits, sec)
        info = dict(hand.details)
        petits = [info[f"petits_after_team{s}"] for s in range(2)]
        longs = [info[f"longs_after_team{s}"] for s in range(2)]
        assert all(len(cards) == 3 for cards in hand.dealt)  # the cards each seat played with
    assert longs == game.scores and petits == game.petits

    # every recorded action is legal and the replay reproduces every hand exactly
    again = replay(config, game.first_dealer, hands)
    assert again.scores == game.scores and again.petits == game.petits  # type: ignore[attr-defined]


def test_the_same_seed_plays_the_same_regional_game() -> None:
    for name in ("trut-gatinaise", "trut-gatine"):
        config = get_variant(name).configure({"players": "2"})
        one = play_game(config, [parse_policy("random")] * 2, 7)[1]
        two = play_game(config, [parse_policy("random")] * 2, 7)[1]
        assert one == two
