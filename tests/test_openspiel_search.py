"""The search bot made deterministic for the exact tree (``pipeline.openspiel.bots.seeded_search``): one choice
per information state, from a seed and the information state alone, measured exactly on one deal of the
8-card Trut."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pyspiel")

from pipeline.engine.view import SeatView  # noqa: E402
from pipeline.openspiel.bots import information_seed, seeded_search, state_policy  # noqa: E402
from pipeline.openspiel.figures import load_small_game  # noqa: E402
from pipeline.openspiel.solve import exploitability, export_tree, tabular  # noqa: E402
from pipeline.policies import parse_policy  # noqa: E402
from pipeline.policies.search import SearchPolicy  # noqa: E402


def small_game() -> Any:
    return load_small_game("trut", 2, {"deck": "8"})


def a_deal(game: Any, rng: random.Random) -> Any:
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
    return state


def decisions(game: Any, rng: random.Random, deals: int) -> list[Any]:
    """Every decision met on random walks through ``deals`` random deals."""
    found = []
    for _ in range(deals):
        state = a_deal(game, rng)
        while not state.is_terminal():
            found.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    return found


def test_one_seed_gives_the_same_legal_one_hot_choices_and_another_seed_others() -> None:
    game = small_game()
    states = decisions(game, random.Random(3), 12)
    assert len(states) > 40
    first, again, other = (seeded_search(SearchPolicy(rollouts=1), seed) for seed in (5, 5, 6))
    differ = 0
    for state in states:
        chances = first(state)
        assert len(chances) == 1 and list(chances.values()) == [1.0]
        assert set(chances) <= set(state.legal_actions())
        assert again(state) == chances
        differ += other(state) != chances
    assert differ > 0  # one sample a decision: another seed is another bot


def test_two_histories_of_one_information_state_get_the_same_choice() -> None:
    """Deals where the seat to act holds the same cards and the other seat different ones, walked by the same
    actions: wherever the seat's information states are equal, so are the choices (one sample a decision, so a
    search seeded by anything the seat does not see would differ somewhere)."""
    game = small_game()
    rng = random.Random(11)
    compared = 0
    for _ in range(15):
        state = game.new_initial_state()
        state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
        second = [o for o, _ in state.chance_outcomes()]
        one, two = state.clone(), state.clone()
        b1, b2 = rng.sample(second, 2)
        one.apply_action(b1)
        two.apply_action(b2)
        bot = seeded_search(SearchPolicy(rollouts=1), 0)
        fresh = seeded_search(SearchPolicy(rollouts=1), 0)  # no memory shared with ``bot``
        while not one.is_terminal() and not two.is_terminal() and not one.is_chance_node():
            seat = one.current_player()
            if one.information_state_string(seat) == two.information_state_string(seat):
                assert one.history() != two.history()
                assert bot(one) == fresh(two)
                compared += 1
            common = sorted(set(one.legal_actions()) & set(two.legal_actions()))
            if two.current_player() != seat or not common:
                break
            action = rng.choice(common)
            one.apply_action(action)
            two.apply_action(action)
    assert compared > 30


def test_each_information_state_is_searched_once_and_the_policy_routes_the_search_bot() -> None:
    calls: list[int] = []

    class Counted(SearchPolicy):
        def step(self, view: SeatView, rng: random.Random) -> Any:
            calls.append(view.seat)
            return super().step(view, rng)

    state = a_deal(small_game(), random.Random(2))
    chances = seeded_search(Counted(rollouts=2), 0)
    assert chances(state) == chances(state.clone()) and len(calls) == 1
    routed = state_policy(parse_policy("search:rollouts=2"), 0)
    assert routed(state) == seeded_search(SearchPolicy(rollouts=2), 0)(state)


def test_the_seed_of_an_information_state_is_the_same_in_every_process() -> None:
    """A digest of the seed and the string, not Python's salted ``hash``: pinned values."""
    assert information_seed(0, "p0 x") == 0x549F28EBBBE44783
    assert len({information_seed(0, "p0 x"), information_seed(1, "p0 x"), information_seed(0, "p0 y")}) == 3


def test_the_deterministic_search_bot_is_measured_exactly_below_the_random_bot(tmp_path: Path) -> None:
    """The 8-card Trut after one hand dealt to the eldest (the dealer's 10 hands still to deal): the export
    accepts the search bot (one choice per information state), its exact exploitability is OpenSpiel's and lies
    strictly between 0 and the random bot's (always the first legal action: 1.0, the last: 2.0)."""
    game = small_game()
    root = game.new_initial_state()
    root.apply_action(random.Random(3).choice([o for o, _ in root.chance_outcomes()]))
    specs = ["random", "search:rollouts=4"]
    tree = export_tree(game, tmp_path / "part.efg", {s: state_policy(parse_policy(s), 0) for s in specs}, root=root)
    arrays = tree.arrays
    assert arrays is not None
    bots = {spec: arrays.exploitability(tree.bot_strategies[spec]) for spec in specs}
    assert bots["search:rollouts=4"] == pytest.approx(
        exploitability(tree.efg_game(), tabular(tree.policies["search:rollouts=4"])), abs=1e-9
    )
    assert 0.0 < bots["search:rollouts=4"] < bots["random"] - 0.3
