"""The native fast path of Trut by threshold bots (``pipeline/_fast_trut.pyx``): it must play the very games of
the engine (``playing.play_with_engine``), hand record for hand record, draw for draw, and be used only where
it applies."""

from __future__ import annotations

import itertools
import os
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline import accel
from pipeline.engine.game import HandRecord
from pipeline.playing import fast_path, game_seed, play_game, play_with_engine
from pipeline.policies import parse_policy
from pipeline.variants import get_variant
from tests.native import native_module

BOTS = [
    "threshold",
    "threshold:trut_at=0.6,trut_bluff=0.3,see_at=0.4",
    "threshold:trut_at=0.95,trut_bluff=0,see_at=0.8,fortial_at=0.9",
    "threshold:see_announced=0.3,trut_bluff=0.5,fortial_at=0.1",
    "threshold:trut_at=0.5,see_at=0.2,trut_bluff=0.1",
]
OPTIONS = [
    {"players": str(players), "dealer_leads": leads, "tie_lead": tie, "brelan": brelan}
    for players, leads, tie, brelan in itertools.product((2, 4, 6), ("off", "on"), ("maker", "first"), ("off", "on"))
]


def native():
    return native_module("pipeline._fast_trut")


def situations(hands: list[HandRecord]) -> Counter[str]:
    """What the hands went through, to show that the comparison reached the rare rules."""
    seen: Counter[str] = Counter()
    for hand in hands:
        details = dict(hand.details)
        seen[f"special {details['special']}"] += 1
        seen[f"ended by {hand.ended_by}"] += 1
        seen["void"] += details["void"]
        seen["tie rule " + str(hand.tie_rule)] += 1
        verbs = [event[1] for event in hand.event_tuples]
        seen["brelan announced"] += any(event[1] == "trut" and event[2] == "brelan" for event in hand.event_tuples)
        seen["out of turn"] += any(
            event[1] == "trut" and turn >= 0 and turn != event[0]
            for event, turn in zip(hand.event_tuples, hand.turns, strict=True)
        )
        seen["seen"] += "accept" in verbs
    return seen


def test_the_native_path_plays_the_games_of_the_engine() -> None:
    """RULES.md `trut` (seeds 001 and 003), every rule of it the engine follows: the deal, the fortial, the trut
    at any moment and its answers, the card play, ties and leads, petits and longs, the end of the game. Every
    player count of two sides, every option, five sets of bot parameters."""
    fast = native()
    seen: Counter[str] = Counter()
    games = 0
    for options in OPTIONS:
        config = get_variant("trut").configure(options)
        players = config.players
        for g in range(15):
            specs = [BOTS[(g + 3 * seat) % len(BOTS)] for seat in range(players)]
            seed = game_seed(37, g)  # a run whose games reach every situation below (both sides au fortial is rare)
            engine_game, engine_hands = play_with_engine(config, [parse_policy(s) for s in specs], seed)
            fast_game, fast_hands = fast.play(config, [parse_policy(s) for s in specs], seed)
            assert fast_hands == engine_hands, (options, g)
            assert (fast_game.scores, fast_game.winner_team, fast_game.over) == (
                engine_game.scores,
                engine_game.winner_team,
                engine_game.over,
            )
            assert fast_game.last_hand == engine_hands[-1] and fast_game.seed == seed
            seen += situations(fast_hands)
            games += 1
    assert games == 360
    for situation in (
        "special fortial",
        "special fortial_both",
        "ended by pass",
        "ended by fold",
        "void",
        "brelan announced",
        "out of turn",
        "tie rule first_counts_double",
        "tie rule tie_next_decides",
    ):
        assert seen[situation] > 0, situation


PARAMETER = st.floats(min_value=0.0, max_value=1.0)


@settings(max_examples=150, deadline=None)
@given(
    players=st.sampled_from((2, 4, 6)),
    options=st.tuples(
        st.sampled_from(("off", "on")), st.sampled_from(("maker", "first")), st.sampled_from(("off", "on"))
    ),
    bots=st.lists(st.tuples(PARAMETER, PARAMETER, PARAMETER, PARAMETER, PARAMETER), min_size=6, max_size=6),
    seed=st.integers(min_value=0, max_value=2**63 - 1),
)
def test_the_native_path_plays_the_engine_s_games_whatever_the_bots_parameters(players, options, bots, seed) -> None:
    """Any seed, option and parameters of each seat's bot (trut_at, trut_bluff, see_at, see_announced,
    fortial_at): the same games."""
    fast = native()
    leads, tie, brelan = options
    config = get_variant("trut").configure(
        {"players": str(players), "dealer_leads": leads, "tie_lead": tie, "brelan": brelan}
    )
    names = ("trut_at", "trut_bluff", "see_at", "see_announced", "fortial_at")
    specs = ["threshold:" + ",".join(f"{k}={v!r}" for k, v in zip(names, bot, strict=True)) for bot in bots[:players]]
    engine = play_with_engine(config, [parse_policy(s) for s in specs], seed)
    native_game = fast.play(config, [parse_policy(s) for s in specs], seed)
    assert native_game[1] == engine[1]
    assert native_game[0].scores == engine[0].scores and native_game[0].winner_team == engine[0].winner_team


def test_the_simulator_takes_the_native_path_only_where_it_applies() -> None:
    fast = native()
    bots = [parse_policy("threshold") for _ in range(6)]
    six = get_variant("trut").configure({"players": "6"})
    assert fast_path(six, bots) is fast
    assert fast_path(get_variant("trut").configure({"players": "2"}), bots[:2]) is fast
    assert fast_path(get_variant("trut").configure({"players": "3"}), bots[:3]) is None  # three sides
    assert fast_path(six, bots[:5] + [parse_policy("random")]) is None
    assert fast_path(six, [bots[0]] * 6) is None  # one bot at every seat: the engine's loop
    assert fast_path(get_variant("trut-gatine").configure({"players": "4"}), bots[:4]) is None
    assert fast_path(get_variant("catalan").configure({"players": "2"}), bots[:2]) is None


def test_play_game_gives_the_engine_s_games_either_way() -> None:
    config = get_variant("trut").configure({"players": "4", "brelan": "on"})
    for g in range(10):
        bots = [parse_policy(BOTS[(g + seat) % len(BOTS)]) for seat in range(4)]
        again = [parse_policy(BOTS[(g + seat) % len(BOTS)]) for seat in range(4)]
        assert play_game(config, bots, game_seed(8, g))[1] == play_with_engine(config, again, game_seed(8, g))[1]


def test_pure_python_has_no_native_path(monkeypatch) -> None:
    monkeypatch.setattr(accel, "_REASON", "TRUC_PURE is set")
    config = get_variant("trut").configure({"players": "6"})
    assert fast_path(config, [parse_policy("threshold") for _ in range(6)]) is None
    if os.environ.get("TRUC_PURE", "") in ("", "0") and accel.compiled():
        assert "Cython" not in accel.status()


def test_the_native_path_refuses_a_game_it_was_not_written_for() -> None:
    """Three sides (each alone, a folder leaves the hand) are the engine's: the native path says so rather
    than play them wrong."""
    fast = native()
    config = get_variant("trut").configure({"players": "3"})
    with pytest.raises(ValueError, match="two sides"):
        fast.play(config, [parse_policy("threshold") for _ in range(3)], 1)
