"""Every variant as an OpenSpiel game (``pipeline.openspiel``): OpenSpiel's own random simulation test with
serialisation, pickling round trips, and information states that hold what their seat saw and nothing more:
two histories that differ only in cards a seat never saw give it the same information state, the same turn,
legal actions and tensors."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from pipeline.openspiel import game_name  # noqa: E402
from pipeline.openspiel.encoding import CARD_VERBS  # noqa: E402
from pipeline.openspiel.game import DEALT, MOVE, PRIVATE_MOVE, SEEN  # noqa: E402
from pipeline.variants import VARIANTS  # noqa: E402

SETTINGS = [(variant.name, players) for variant in VARIANTS.values() for players in variant.players]

REDUCED = [("trut", 2, {"options": "deck=8"}), ("catalan", 2, {"options": "deck=7"})]
"""The reduced decks of exact solving (docs/equilibrium.md)."""


def load(variant: str, players: int, **params: object) -> object:
    return pyspiel.load_game(game_name(variant), {"players": players, **params})


def play_randomly(state: object, rng: random.Random, steps: int | None = None) -> None:
    taken = 0
    while not state.is_terminal() and (steps is None or taken < steps):
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        taken += 1


@pytest.mark.parametrize(("variant", "players"), SETTINGS)
def test_openspiel_random_simulation_of_a_hand(variant: str, players: int) -> None:
    pyspiel.random_sim_test(load(variant, players), num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize(("variant", "players", "params"), REDUCED)
def test_openspiel_random_simulation_of_a_hand_of_a_reduced_deck(
    variant: str, players: int, params: dict[str, str]
) -> None:
    pyspiel.random_sim_test(load(variant, players, **params), num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize(
    ("variant", "params"),
    [
        ("trut", {"scores": "6:6"}),  # both sides au fortial
        ("trut", {"scores": "6:2"}),  # one side au fortial
        ("trut-gatinaise", {"petits": "2:2"}),  # la chanson
        ("trut-gatinaise", {"petits": "0:2"}),  # a trut d'office
        ("trut-gatine", {"petits": "2:2"}),  # chanter, discards
        ("trut-gatine", {"petits": "2:0"}),  # à tenir
        ("catalan", {"scores": "11:5"}),  # the hold at 11 points
    ],
)
def test_openspiel_random_simulation_of_a_hand_from_special_scores(variant: str, params: dict[str, str]) -> None:
    pyspiel.random_sim_test(load(variant, 2, **params), num_sims=3, serialize=True, verbose=False)
    pyspiel.random_sim_test(load(variant, 4, **params), num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("variant", ["catalan", "trut", "french"])
def test_openspiel_random_simulation_of_a_whole_game(variant: str) -> None:
    game = load(variant, 2, scope="game")
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    state = game.new_initial_state()
    play_randomly(state, random.Random(1))
    assert sorted(state.returns()) == [-1.0, 1.0]  # a whole game is won or lost


@pytest.mark.parametrize(("variant", "players"), SETTINGS)
def test_a_state_pickles_and_deserialises_and_plays_on_as_its_original(variant: str, players: int) -> None:
    game = load(variant, players)
    rng = random.Random(players)
    state = game.new_initial_state()
    play_randomly(state, rng, steps=rng.randrange(10, 40))
    for copy in (pickle.loads(pickle.dumps(state)), game.deserialize_state(state.serialize()), state.clone()):
        assert copy.history() == state.history() and str(copy) == str(state)
        if state.is_terminal():
            continue
        assert copy.information_state_string() == state.information_state_string()
        ends = []
        for s in (copy, state.clone()):
            play_randomly(s, random.Random(7))
            ends.append((s.history(), s.returns()))
        assert ends[0] == ends[1]


def twin(game: object, state: object, seat: int, rng: random.Random) -> object | None:
    """The history of ``state`` replayed with the cards ``seat`` never saw shuffled among themselves (in the
    deals and in another seat's covered card or discard), or None when the shuffled cards make a move of the
    history illegal (an announcement of cards no longer held)."""
    seen = {value for kind, _, value in state.seen_record(seat) if kind in (DEALT, SEEN) and value >= 0}
    table = state.get_game().table
    seen |= {
        table.entries[value][1]
        for kind, _, value in state.seen_record(seat)
        if kind == MOVE and table.entries[value][0] in CARD_VERBS
    }
    dealt = [kind_value[2] for kind_value in state.record if kind_value[0] == DEALT]
    hidden = sorted(set(dealt) - seen)
    shuffled = hidden[:]
    rng.shuffle(shuffled)
    mapping = dict(zip(hidden, shuffled, strict=True))
    other = game.new_initial_state()
    for item in state.full_history():
        action = item.action
        if item.player == pyspiel.PlayerId.CHANCE:
            action = mapping.get(action, action)
        else:
            verb, arg = table.entries[action]
            if verb in CARD_VERBS and arg in mapping:
                action = table.id_of(verb, mapping[arg])
        if action not in other.legal_actions():
            return None
        other.apply_action(action)
    return other


def a_decision_after_the_deal(game: object, rng: random.Random) -> object:
    """A state at a random decision of a random hand, once some cards are dealt."""
    state = game.new_initial_state()
    moments = []
    while not state.is_terminal():
        if not state.is_chance_node() and any(entry[0] == DEALT for entry in state.record):
            moments.append(len(state.history()))
        play_randomly(state, rng, steps=1)
    cut = game.new_initial_state()
    for action in state.history()[: rng.choice(moments)]:
        cut.apply_action(action)
    return cut


def same_information(a: object, b: object, seat: int) -> None:
    assert a.information_state_string(seat) == b.information_state_string(seat)
    assert a.current_player() == b.current_player()
    assert a.legal_actions() == b.legal_actions()
    assert np.array_equal(a.information_state_tensor(seat), b.information_state_tensor(seat))
    assert a.observation_string(seat) == b.observation_string(seat)
    assert np.array_equal(a.observation_tensor(seat), b.observation_tensor(seat))


SPECIAL = [("trut-gatine", 2, {"petits": "2:2"}), ("trut-gatinaise", 2, {"petits": "2:2"})]
"""Hands with discards (chanter) and la chanson's extra cards."""


@pytest.mark.parametrize(("variant", "players", "params"), [(v, p, {}) for v, p in SETTINGS] + SPECIAL + REDUCED)
def test_histories_a_seat_cannot_tell_apart_give_it_the_same_information(
    variant: str, players: int, params: dict[str, str]
) -> None:
    game = load(variant, players, **params)
    rng = random.Random(11)
    compared = differed = 0
    for _ in range(12):
        state = a_decision_after_the_deal(game, rng)
        seat = state.current_player()
        other = twin(game, state, seat, rng)
        if other is None:
            continue
        same_information(state, other, seat)
        compared += 1
        differed += state.history() != other.history()
    assert compared >= 3 and differed >= 1


@pytest.mark.parametrize(
    ("variant", "verb", "params"), [("valencian", "cover", {}), ("trut-gatine", "discard", {"petits": "2:2"})]
)
def test_another_seat_s_covered_card_or_discard_stays_hidden(variant: str, verb: str, params: dict[str, str]) -> None:
    """A covered card (Valencian) and a discard (Gâtine, after chanter) are shown to their seat only: the other
    seat's information state names the move without its card."""
    game = load(variant, 2, **params)
    rng = random.Random(5)
    for _ in range(400):
        state = game.new_initial_state()
        while not state.is_terminal():
            if not state.is_chance_node() and state.current_player() >= 0:
                seat = state.current_player()
                table = state.get_game().table
                private = [a for a in state.legal_actions() if table.entries[a][0] == verb]
                if private:
                    action = rng.choice(private)
                    text = table.text(action)
                    state.apply_action(action)
                    if state.is_terminal():
                        break
                    mine, theirs = state.information_state_string(seat), state.information_state_string(1 - seat)
                    assert f"{seat}:{text}" in mine
                    assert f"{seat}:{verb} ?" in theirs and f"{seat}:{text}" not in theirs
                    return
            play_randomly(state, rng, steps=1)
    pytest.fail(f"no {verb} in 400 random hands")


def test_a_seat_s_own_cards_and_another_seat_s_private_move_are_told_apart() -> None:
    game = load("trut-gatine", 2)
    state = game.new_initial_state()
    play_randomly(state, random.Random(3), steps=6)  # the deal
    seat = 0
    record = state.seen_record(seat)
    assert [value for kind, who, value in record if kind == DEALT and who == seat][0] >= 0
    assert all(value == -1 for kind, who, value in record if kind == DEALT and who != seat)
    assert all(kind != PRIVATE_MOVE or who != seat for kind, who, _ in record)
