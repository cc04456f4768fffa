"""The cfr bot's convergence measured exactly on the 8-card Trut (``pipeline.openspiel.convergence``): the best
response that sees only the abstraction's keys (``solve.Grouping``, ``GameTree.abstract_response``) and the
curve of trained policy files, on the tree under one eldest hand (about 14,000 histories)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from pipeline.openspiel.bots import state_abstraction, state_policy  # noqa: E402
from pipeline.openspiel.convergence import convergence_curve, main  # noqa: E402
from pipeline.openspiel.figures import load_small_game  # noqa: E402
from pipeline.openspiel.mccfr import TrainConfig, train_policy  # noqa: E402
from pipeline.openspiel.solve import DECISION, export_tree  # noqa: E402
from pipeline.policies import parse_policy  # noqa: E402
from pipeline.policies.cfr import Abstraction, CfrPolicy  # noqa: E402

REDUCED = {"deck": "8"}


def eldest_dealt(game: Any, seed: int) -> Any:
    """The state after the eldest's hand is dealt (the dealer's still to come): one hand of the eldest, every
    hand of the dealer."""
    state = game.new_initial_state()
    state.apply_action(random.Random(seed).choice([o for o, _ in state.chance_outcomes()]))
    return state


def identity(state: Any) -> tuple[str, dict[int, str]]:
    """No abstraction: the information state itself, each action its own choice."""
    return state.information_state_string(), {a: str(a) for a in state.legal_actions()}


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Any:
    folder = tmp_path_factory.mktemp("abstract")
    policy = folder / "p.json.gz"
    train_policy(TrainConfig("trut", (("deck", "8"), ("players", "2")), 3000, 1), policy)
    game = load_small_game("trut", 2, REDUCED)
    bots = {"cfr": state_policy(CfrPolicy(policy))}
    bots.update({spec: state_policy(parse_policy(spec)) for spec in ("random", "threshold")})
    abstractions = {"cfr": state_abstraction(Abstraction()), "identity": identity}
    return export_tree(game, folder / "t.efg", bots, root=eldest_dealt(game, 0), abstractions=abstractions)


def test_the_best_response_within_the_abstraction_never_wins_more_than_the_exact_one(exported: Any) -> None:
    """Against every bot and from either seat, the response that sees only the cfr abstraction's keys wins
    at most what the exact best response wins, and strictly less somewhere (it cannot tell apart what the
    abstraction merges); with no abstraction (each information state its own key) it is the exact one."""
    tree, cfr, plain = exported.arrays, exported.groupings["cfr"], exported.groupings["identity"]
    less = 0.0
    for strategy in exported.bot_strategies.values():
        for player in (0, 1):
            exact = tree.best_response(strategy, player)
            assert tree.best_response(strategy, player, plain) == pytest.approx(exact, abs=1e-12)
            within = tree.best_response(strategy, player, cfr)
            assert within <= exact + 1e-12
            less = max(less, exact - within)
        assert tree.exploitability(strategy, cfr) <= tree.exploitability(strategy) + 1e-12
    assert less > 1e-3


def test_the_abstract_response_chooses_once_per_key_and_wins_its_own_value(exported: Any) -> None:
    """The response is a pure strategy of the real game: one action at each of the player's information
    states, the same abstract choice at every information state of one key, never an action the abstraction
    cannot take; and what it is said to win is the value of that strategy against the policy."""
    tree, grouping = exported.arrays, exported.groupings["cfr"]
    strategy = exported.bot_strategies["cfr"]
    for player in (0, 1):
        won, pure = tree.abstract_response(strategy, player, grouping)
        mine = tree.info_player == player
        per_state = np.add.reduceat(pure, tree.offset)
        assert np.all(per_state[mine] == 1) and np.all(per_state[~mine] == 0)
        chosen = np.nonzero(pure)[0]
        assert np.all(grouping.slot_group[chosen] >= 0)
        groups_of_key: dict[int, set[int]] = {}
        for slot in chosen:
            groups_of_key.setdefault(int(grouping.info_key[tree.slot_info[slot]]), set()).add(
                int(grouping.slot_group[slot])
            )
        assert all(len(groups) == 1 for groups in groups_of_key.values())
        assert len(groups_of_key) < mine.sum()  # keys hold several information states
        played = np.where(tree.info_player[tree.slot_info] == player, pure, strategy)
        sign = 1.0 if player == 0 else -1.0
        assert won == pytest.approx(sign * tree.values(played)[0], abs=1e-12)


def test_passes_weighed_by_the_player_s_own_reach_win_more_where_recall_breaks(exported: Any) -> None:
    """Where the abstraction forgets the seat's own choices, backward induction alone weighs histories the
    response never reaches: the further passes never win less than the first, win more somewhere, and
    change nothing without an abstraction."""
    tree, cfr, plain = exported.arrays, exported.groupings["cfr"], exported.groupings["identity"]
    gained = 0.0
    for strategy in exported.bot_strategies.values():
        for player in (0, 1):
            once = tree.abstract_response(strategy, player, cfr, passes=1)[0]
            more = tree.abstract_response(strategy, player, cfr)[0]
            assert more >= once - 1e-12
            gained = max(gained, more - once)
            exact = tree.abstract_response(strategy, player, plain, passes=1)[0]
            assert tree.abstract_response(strategy, player, plain)[0] == pytest.approx(exact, abs=1e-12)
    assert gained > 1e-4


def test_recall_breaks_are_found_where_the_abstraction_forgets(exported: Any) -> None:
    """The real information states recall everything the seat did; the cfr abstraction forgets which card
    of a class the seat played (it keeps the classes it still holds), so some keys are reached by different
    own choices."""
    tree = exported.arrays
    assert [exported.groupings["identity"].recall_breaks(tree, p) for p in (0, 1)] == [0, 0]
    assert sum(exported.groupings["cfr"].recall_breaks(tree, p) for p in (0, 1)) > 0
    decisions = tree.kind == DECISION
    assert exported.groupings["cfr"].keys < len(np.unique(tree.info[decisions]))


def test_an_abstraction_that_sees_one_information_state_two_ways_is_refused(tmp_path: Path) -> None:
    game = load_small_game("trut", 2, REDUCED)
    count = iter(range(10**9))

    def unstable(state: Any) -> tuple[str, dict[int, str]]:
        return f"k{next(count) % 2}", {a: str(a) for a in state.legal_actions()}

    with pytest.raises(ValueError, match="abstraction unstable sees two histories"):
        export_tree(game, tmp_path / "t.efg", root=eldest_dealt(game, 0), abstractions={"unstable": unstable})


def test_the_curve_falls_below_the_bots_and_the_same_seed_gives_the_same_figures(tmp_path: Path) -> None:
    """Two runs of a tiny curve (30 and 600 iterations, measured under one eldest hand): the same figures
    but the clock; the longer training is less exploitable than the shorter one and than the random and
    threshold bots, in both games; the abstract figure never above the real one; the files written."""
    game = load_small_game("trut", 2, REDUCED)
    runs = []
    for name in ("a", "b"):
        result = convergence_curve("trut", REDUCED, [600, 30], 1, tmp_path / name, root=eldest_dealt(game, 0))
        runs.append(result)
    first, second = runs
    measured = [(p.iterations, p.states, p.real, p.abstract, p.fallback_share) for p in first.points]
    assert measured == [(p.iterations, p.states, p.real, p.abstract, p.fallback_share) for p in second.points]
    assert first.bots == second.bots and first.recall_breaks == second.recall_breaks
    short, long = first.points
    assert (short.iterations, long.iterations) == (30, 600)
    assert long.real < short.real and long.real < min(first.bots.values())
    assert all(p.abstract <= p.real + 1e-12 for p in first.points)
    assert long.training_seconds >= short.training_seconds
    written = json.loads((tmp_path / "a" / "convergence.json").read_text())
    assert [p["real"] for p in written["points"]] == [short.real, long.real]
    header = (tmp_path / "a" / "convergence.csv").read_text().splitlines()[0]
    assert header == "iterations,training_seconds,real,abstract"
    assert (tmp_path / "a" / "convergence.png").read_bytes()[:4] == b"\x89PNG"


def test_the_command_s_bad_options_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--out", str(tmp_path), "--iterations", "0"])
    assert exit_.value.code == 2
    assert capsys.readouterr().err.strip() == "error: iterations [0]: give one or more counts of at least 1"
