"""The game loop (``pipeline.playing``): which seats it asks, and the shortcuts it takes for speed, each of
which must leave every game exactly as the plain loop plays it."""

from __future__ import annotations

import random

import pytest

from pipeline.engine.actions import Action
from pipeline.engine.game import HandRecord, new_game
from pipeline.engine.trut import OPTION_DECISION, play_orders
from pipeline.engine.view import SeatView
from pipeline.playing import _steady, game_seed, play_game
from pipeline.policies import parse_policy
from pipeline.policies.base import DecisionPolicy
from pipeline.rows import _DetailsIndex, _has_unknown
from pipeline.variants import get_variant


class AskedEveryTime:
    """A policy that is not a ``DecisionPolicy``: the loop asks it at every moment, as it asked every policy
    before optional decisions could be steady. It counts the optional decisions it is asked."""

    name = "wrapped"

    def __init__(self, inner: DecisionPolicy) -> None:
        self.inner = inner
        self.optional_asks = 0

    def step(self, view: SeatView, rng: random.Random) -> Action | None:
        if view.optional:
            self.optional_asks += 1
        return self.inner.step(view, rng)

    def describe(self, variant: str | None = None) -> str:
        return self.inner.describe(variant)


TRUT_SETTINGS = [
    ("trut", {"players": "2"}),
    ("trut", {"players": "3", "tie_lead": "first"}),
    ("trut", {"players": "4", "brelan": "on"}),
    ("trut", {"players": "6", "dealer_leads": "on"}),
    ("trut-gatinaise", {"players": "4"}),
    ("trut-gatine", {"players": "2"}),
]
BOTS = ["threshold", "threshold:trut_at=0.6,trut_bluff=0.3,see_at=0.4", "threshold:trut_at=0.95,trut_bluff=0"]


@pytest.mark.parametrize(("variant", "options"), TRUT_SETTINGS)
def test_a_steady_bot_asked_once_a_trick_plays_the_games_it_plays_when_asked_every_time(variant, options) -> None:
    """RULES.md `trut` ("at any moment, even out of turn", seed 003 "Règle du jeu"): the simulator offers the
    trut to every seat at every moment. The threshold bot judges it once a trick (``steady``), so the loop
    asks it once a trick; the games must be the very games of a loop that asks at every moment."""
    config = get_variant(variant).configure(options)
    players = int(options["players"])
    for g in range(12):
        specs = [BOTS[(g + seat) % len(BOTS)] for seat in range(players)]
        steady = [parse_policy(spec) for spec in specs]
        wrapped = [AskedEveryTime(parse_policy(spec)) for spec in specs]
        game_a, hands_a = play_game(config, steady, game_seed(21, g))
        game_b, hands_b = play_game(config, wrapped, game_seed(21, g))
        assert hands_a == hands_b
        assert game_a.scores == game_b.scores and game_a.winner_team == game_b.winner_team


def test_the_threshold_bot_is_steady_for_the_trut_out_of_turn_only() -> None:
    bot = parse_policy("threshold")
    assert isinstance(bot, DecisionPolicy)
    assert bot.steady(OPTION_DECISION)
    assert not bot.steady("raise_option")  # Catalan's raise after playing draws a bluff coin at every ask
    assert not _steady(parse_policy("random"), OPTION_DECISION)  # the random bot draws at every ask


def test_a_bot_shared_by_several_seats_is_asked_at_every_moment() -> None:
    """One policy object at several seats keeps one memory for all of them: the loop does not skip its asks,
    so the games are those of the loop that asks every time."""
    config = get_variant("trut").configure({"players": "4"})
    shared = parse_policy("threshold:trut_bluff=0.3")
    wrapped = AskedEveryTime(parse_policy("threshold:trut_bluff=0.3"))
    for g in range(8):
        seed = game_seed(4, g)
        assert play_game(config, [shared] * 4, seed)[1] == play_game(config, [wrapped] * 4, seed)[1]


def test_the_loop_still_offers_the_trut_at_every_moment_to_a_policy_that_is_not_steady() -> None:
    """A policy asked every time is offered the trut out of turn by every other seat before each card: in a
    6-player Trut hand where nobody truts, five offers per card played."""
    config = get_variant("trut").configure({"players": "6"})
    asks: dict[int, int] = {}

    class Counting(AskedEveryTime):
        def step(self, view: SeatView, rng: random.Random) -> Action | None:
            if view.optional:
                key = id(view._game.dealt)  # one tuple per hand, kept alive by the hand's record
                asks[key] = asks.get(key, 0) + 1
            return self.inner.step(view, rng)

    bots = [Counting(parse_policy("threshold:trut_at=0.9,trut_bluff=0")) for _ in range(6)]
    played = [hand for g in range(4) for hand in play_game(config, bots, game_seed(9, g))[1]]  # kept alive
    checked = 0
    for hand in played:
        verbs = [event[1] for event in hand.event_tuples]
        if "trut" not in verbs:
            assert asks[id(hand.dealt)] == 5 * verbs.count("play")
            checked += 1
    assert checked >= 10


def test_play_orders_are_shared_and_stay_as_built() -> None:
    """The play order from each eldest (seed 003: answers and offers "dans l'ordre du jeu") is built once
    per player count and shared by every game: playing must never change it."""
    config = get_variant("trut").configure({"players": "6"})
    for g in range(5):
        play_game(config, [parse_policy("threshold") for _ in range(6)], game_seed(3, g))
    orders = play_orders(6)
    assert orders is play_orders(6)
    for eldest, (order, others) in enumerate(orders):
        assert order == tuple((eldest + i) % 6 for i in range(6))
        assert [list(o) for o in others] == [[s for s in order if s != seat] for seat in range(6)]


def test_a_view_made_for_the_loop_names_its_decision_only_when_set() -> None:
    game = new_game(get_variant("trut").configure({"players": "2"}), 1)
    assert SeatView(game, 0).decision == game.decision(0)
    assert SeatView(game, 0, False, "").decision == ""


def test_unknown_cards_are_found_anywhere_in_a_hand() -> None:
    assert not _has_unknown((1, 2, 3))
    for position in range(3):
        cards = [1, 2, 3]
        cards[position] = -1
        assert _has_unknown(tuple(cards))


def _hand(details: tuple[tuple[str, object], ...], winner: int | None = 0) -> HandRecord:
    """A hand record with these details (what ``_DetailsIndex`` reads of it)."""
    return HandRecord(1, 0, 1, 3, (), (0, 0), 1, "tricks", winner, (0, 0), (), None, None, (), details)


def test_details_go_to_their_columns_when_a_family_changes_its_names_between_hands() -> None:
    """The positions found for one hand are reused only while the next hand names the same details in the
    same order."""
    from pipeline.parts import HAND_DETAIL_COLUMNS

    index = _DetailsIndex()
    column = HAND_DETAIL_COLUMNS.index
    first = index.values(_hand((("petits_team0", 1), ("trut_seat", 3))), False)
    assert first[column("petits_team0")] == 1 and first[column("trut_seat")] == 3
    swapped = index.values(_hand((("trut_seat", 2), ("petits_team0", 0))), False)
    assert swapped[column("petits_team0")] == 0 and swapped[column("trut_seat")] == 2
    other = index.values(_hand((("special", "fortial"),), None), False)
    assert other[column("special")] == "fortial" and other[column("void")] is True
    assert other[column("petits_team0")] is None
