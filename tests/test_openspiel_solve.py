"""Exact solving through an exported tree (``pipeline.openspiel.solve``), the bots as tabular policies
(``pipeline.openspiel.bots``: their ``probabilities``), and the figures ``truc equilibrium`` writes."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python import policy as openspiel_policy  # noqa: E402
from open_spiel.python.algorithms import exploitability as openspiel_exploitability  # noqa: E402
from open_spiel.python.games import kuhn_poker  # noqa: E402, F401  (registers python_kuhn_poker)

from pipeline.engine.view import SeatView  # noqa: E402
from pipeline.openspiel.bots import state_policy  # noqa: E402
from pipeline.openspiel.encoding import SKIP  # noqa: E402
from pipeline.openspiel.figures import (  # noqa: E402
    MOVED_PARAMETERS,
    Figures,
    count_deals,
    default_bots,
    load_small_game,
    write_figures,
)  # noqa: E402
from pipeline.openspiel.solve import exploitability, export_tree, tabular  # noqa: E402
from pipeline.policies import parse_policy  # noqa: E402


def uniform(state: object) -> dict[int, float]:
    legal = state.legal_actions()
    return {a: 1 / len(legal) for a in legal}


def test_an_exported_tree_gives_openspiel_s_own_exploitability_and_cfr_plus(tmp_path: Path) -> None:
    """Kuhn poker (OpenSpiel's Python game): the arrays' exploitability of the uniform policy is OpenSpiel's, and
    their CFR+ follows OpenSpiel's C++ CFRPlusSolver iteration for iteration."""
    game = pyspiel.load_game("python_kuhn_poker")
    tree = export_tree(game, tmp_path / "kuhn.efg", {"uniform": uniform})
    assert (tree.histories, tree.terminals, tree.infostate_counts()) == (58, 30, [6, 6])
    efg = tree.efg_game()
    arrays = tree.arrays
    expected = openspiel_exploitability.exploitability(game, openspiel_policy.UniformRandomPolicy(game))
    assert exploitability(efg, tabular(tree.policies["uniform"])) == pytest.approx(expected, abs=1e-12)
    assert arrays.exploitability(tree.bot_strategies["uniform"]) == pytest.approx(expected, abs=1e-12)
    curve, average = arrays.cfr_plus(60, checkpoints=3)
    solver = pyspiel.CFRPlusSolver(efg)
    for iteration in range(1, 61):
        solver.evaluate_and_update_policy()
        if iteration in dict(curve):
            assert exploitability(efg, solver.average_policy()) == pytest.approx(dict(curve)[iteration], abs=1e-9)
    assert exploitability(efg, tree.efg_policy(average)) == pytest.approx(curve[-1][1], abs=1e-12)
    values = [value for _, value in curve]
    assert values == sorted(values, reverse=True) and values[-1] < 0.01 < values[0]


def a_deal(game: object, rng: random.Random, state: object | None = None) -> object:
    state = game.new_initial_state() if state is None else state
    while state.is_chance_node():
        outcomes = [o for o, _ in state.chance_outcomes()]
        state.apply_action(rng.choice(outcomes))
    return state


def one_deal(game: object, rng: random.Random) -> object:
    """The first history where a seat holds its cards: the first legal action at each decision before the deal
    (Catalan's cut), then a random deal."""
    state = game.new_initial_state()
    while not state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    return a_deal(game, rng, state)


@pytest.mark.parametrize(
    ("variant", "options", "specs"),
    [
        ("trut", {"deck": "8"}, ["random", "threshold", "threshold:trut_bluff=0.5"]),
        ("catalan", {"deck": "7"}, ["random", "threshold", "threshold:bluff=0.5", "threshold:raise_at=0.55"]),
    ],
)
def test_the_bots_of_one_deal_of_a_reduced_deck_are_policies_of_its_tree(
    variant: str, options: dict[str, str], specs: list[str], tmp_path: Path
) -> None:
    """One deal of the 8-card Trut and of the 7-card Catalan: every bot answers alike in one information state
    (the export checks it), the arrays' exploitability of each bot and of CFR+'s average is OpenSpiel's, and
    CFR+ gets below every bot."""
    game = load_small_game(variant, 2, options)
    root = one_deal(game, random.Random(4))
    tree = export_tree(game, tmp_path / "one.efg", {s: state_policy(parse_policy(s)) for s in specs}, root=root)
    assert tree.histories > 500 and tree.terminals > 100
    efg = tree.efg_game()
    arrays = tree.arrays
    bots = {spec: arrays.exploitability(tree.bot_strategies[spec]) for spec in specs}
    for spec in specs:
        assert bots[spec] == pytest.approx(exploitability(efg, tabular(tree.policies[spec])), abs=1e-9)
    curve, average = arrays.cfr_plus(100, checkpoints=3)
    assert curve[-1][1] == pytest.approx(exploitability(efg, tree.efg_policy(average)), abs=1e-9)
    assert curve[-1][1] < 0.05 < min(bots.values())
    assert bots["random"] > 0.5  # a random bot folds good hands and sees bad ones


@pytest.mark.parametrize(
    ("variant", "options", "deals"),
    [
        ("trut", {"deck": "8"}, 56 * 10),  # the eldest's 3 cards of 8, then the dealer's 3 of the other 5
        ("catalan", {"deck": "7"}, 35 * 4 + 7 * 6),  # 3 cards each, or one each after a declined cut
    ],
)
def test_the_deals_of_a_reduced_deck_are_counted_through_the_decisions_before_the_deal(
    variant: str, options: dict[str, str], deals: int
) -> None:
    assert count_deals(load_small_game(variant, 2, options)) == deals


def test_the_default_bots_move_each_betting_parameter_of_the_variant_both_ways() -> None:
    assert default_bots("trut")[:4] == ("random", "threshold", "threshold:trut_bluff=0", "threshold:trut_bluff=0.3")
    catalan = default_bots("catalan")
    assert len(catalan) == 2 + 2 * len(MOVED_PARAMETERS["catalan"]) and "threshold:raise_at=0.85" in catalan
    for spec in catalan:
        parse_policy(spec)  # every parameter is one the threshold bot has
    assert default_bots("valencian") == ("random", "threshold")


@pytest.mark.parametrize("options", [{"deck": "8"}, {}])
def test_the_threshold_bot_s_probabilities_hold_every_move_it_makes(options: dict[str, str]) -> None:
    """Hands of 2-player Trut through the OpenSpiel game, each seat's own threshold bot taking every decision
    from the game's generator: each move it makes has a chance in its ``probabilities`` given just before, and
    a decision it mixes (a bluff at the first ask) goes both ways over the hands."""
    game = load_small_game("trut", 2, options)
    rng = random.Random(9)
    mixed: dict[bool, int] = {True: 0, False: 0}
    for _ in range(300):
        bots = [parse_policy("threshold:trut_bluff=0.5") for _ in range(2)]
        state = a_deal(game, rng)
        while not state.is_terminal():
            if state.is_chance_node():
                state = a_deal(game, rng)
                continue
            seat = state.current_player()
            engine = state.engine
            view = SeatView(engine, seat, seat != engine.actor())
            chances = bots[seat].probabilities(view)
            assert sum(chances.values()) == pytest.approx(1.0)
            action = bots[seat].step(view, rng)
            assert chances.get(action, 0.0) > 0.0, (view.decision, action, chances)
            if 0.0 < chances[action] < 1.0:
                mixed[action is not None and action.verb == "trut"] += 1
            table = state.get_game().table
            state.apply_action(SKIP if action is None else table.id_of(action.verb, action.arg))
    assert min(mixed.values()) > 10


def test_the_figures_are_written_as_json_csv_and_a_chart(tmp_path: Path) -> None:
    curve = [(1, 0.9), (10, 0.2), (100, 0.01)]
    figures = Figures("g", 560, 1000, 400, 500, [10, 12], 1.5, curve, 2.0, {"random": 1.2}, 0.01)
    figures.variant, figures.options = "trut", {"deck": "8"}
    write_figures(figures, tmp_path)
    assert "trut, deck=8, one hand: CFR+ against the bots" in (tmp_path / "exploitability.svg").read_text()
    assert json.loads((tmp_path / "figures.json").read_text())["bots"] == {"random": 1.2}
    assert (tmp_path / "cfr_plus.csv").read_text().splitlines()[1:] == ["1,0.9", "10,0.2", "100,0.01"]
    assert (tmp_path / "exploitability.png").read_bytes()[:4] == b"\x89PNG"
    assert "0.010000 points per hand after 100 iterations" in "\n".join(figures.lines())
