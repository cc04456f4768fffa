"""The native builder of the events' rows (``pipeline/_fast_rows.pyx``): it must give the very table of the
reference loop (``pipeline.rows._add_events``) for every game, of every variant, player count and option, played
or read from text (cards nobody saw included), and be what the simulator and the importer use once compiled."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline import accel
from pipeline.engine.game import Game, HandRecord
from pipeline.history.reader import read_text
from pipeline.parts import EVENTS, new_batches
from pipeline.playing import game_seed, play_game
from pipeline.policies import parse_policy
from pipeline.rows import add_game
from pipeline.variants import VARIANTS
from tests.combinations import option_combinations

CONFIGURATIONS = [(name, options) for name, variant in VARIANTS.items() for options in option_combinations(variant)]
BOTS = ["random", "threshold", "threshold:raise_at=0.4,call_at=0.3,bluff=0.4"]
VALID = Path(__file__).parent / "data" / "valid"


def native():
    module = accel.native("pipeline._fast_rows")
    if module is None:
        if accel.compiled():
            pytest.fail("the hot path is compiled but the native row builder is not: make compile builds both")
        pytest.skip(f"the native row builder is not built here ({accel.status()})")
    return module


def both_ways(games: list[tuple[Game, list[HandRecord], list[str | None]]]) -> tuple[pa.Table, pa.Table]:
    """The events of ``games`` built by the reference loop, then by the native builder."""
    tables = []
    for built_natively in (False, True):
        batches = new_batches(native=built_natively)
        assert (batches["events"].native is not None) == built_natively
        for game_id, (game, hands, policies) in enumerate(games):
            add_game(batches, game_id, game, hands, policies, "test")
        assert len(batches["events"]) == sum(len(hand.event_tuples) for _, hands, _ in games for hand in hands)
        tables.append(batches["events"].to_arrow())
    return tables[0], tables[1]


def assert_same(reference: pa.Table, built: pa.Table) -> None:
    assert built.schema == EVENTS
    for name in EVENTS.names:
        assert built[name].equals(reference[name]), (name, reference[name][:8], built[name][:8])


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(CONFIGURATIONS), st.integers(0, 2**32 - 1), st.lists(st.sampled_from(BOTS), min_size=6))
def test_the_native_events_are_the_reference_events_for_every_variant(configuration, seed, bots) -> None:
    native()
    name, options = configuration
    config = VARIANTS[name].configure(options)
    games = []
    for game_no in range(2):
        policies = [parse_policy(bot) for bot in bots[: config.players]]
        game, hands = play_game(config, policies, game_seed(seed, game_no))
        games.append((game, hands, [policy.describe(name) for policy in policies]))
    reference, built = both_ways(games)
    assert_same(reference, built)


def test_the_native_events_keep_cards_nobody_saw_and_every_outcome() -> None:
    """Games read from text: folded cards written ``??``, raises folded, accepted and raised back."""
    native()
    games = []
    for path in sorted(VALID.glob("*.truc")):
        for record in read_text(path.read_text("utf-8"), str(path)).games:
            games.append((record.game, record.hands, record.policies()))
    reference, built = both_ways(games)
    assert_same(reference, built)
    args = built["arg"].to_pylist()
    assert "??" in args
    outcomes = {
        (folded, accepted, raised)
        for folded, accepted, raised in zip(
            *(built[column].to_pylist() for column in ("outcome_folded", "outcome_accepted", "outcome_raised")),
            strict=True,
        )
    }
    assert {(True, False, False), (False, True, False), (False, False, True), (None, None, None)} <= outcomes
    assert built["seat"].null_count > 0 and built["outcome_answers"].null_count > 0


def test_a_value_the_column_cannot_hold_is_refused() -> None:
    """Arrow refuses an int8 of 300 from a list; the native builder must not wrap it round."""
    module = native()
    rows = module.EventRows()
    event = (0, "play", 0, "play", False, False, 1, 300, 300)
    with pytest.raises(OverflowError, match="300"):
        rows.add_hand(0, 0, (event,), (), (0, 1), [None, None], ("1o", "??"), "", None, None)
    with pytest.raises(IndexError, match="seat 5"):
        fold = (5, "fold", None, "answer", True, False, 1, 1, 1)
        rows.add_hand(0, 0, (fold,), (), (0, 1), [None, None], (), "", None, None)


def test_the_simulator_and_the_importer_build_their_events_natively_once_compiled() -> None:
    native()
    assert new_batches(native=True)["events"].native is not None
    assert new_batches()["events"].native is None  # rows appended one by one need the lists
    with pytest.raises(TypeError, match="natively"):
        new_batches(native=True)["events"].append((0,))
