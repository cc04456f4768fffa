"""The native builders of the rows (``pipeline/_fast_rows.pyx``): they must give the very tables of the reference,
the lists of ``pipeline.parts.TableBatch`` filled by ``pipeline.rows`` (``_add_events`` for the events), for every
game, of every variant, player count and option, played or read from text (cards nobody saw included), and be what
the simulator and the importer use once compiled."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.engine.game import Game, HandRecord
from pipeline.history.reader import read_text
from pipeline.parts import SCHEMAS, new_batches
from pipeline.playing import game_seed, play_game
from pipeline.policies import parse_policy
from pipeline.rows import add_game, played
from pipeline.variants import VARIANTS
from tests.combinations import option_combinations
from tests.native import native_module

CONFIGURATIONS = [(name, options) for name, variant in VARIANTS.items() for options in option_combinations(variant)]
BOTS = ["random", "threshold", "threshold:raise_at=0.4,call_at=0.3,bluff=0.4"]
VALID = Path(__file__).parent / "data" / "valid"


def native():
    return native_module("pipeline._fast_rows")


def both_ways(games: list[tuple[Game, list[HandRecord], list[str | None]]]) -> list[dict[str, pa.Table]]:
    """The four tables of ``games`` built by the reference, then by the native builders; each game's events as
    its identity reads them (``rows.played``) must be the same bytes both ways."""
    tables = []
    played_bytes = []
    for built_natively in (False, True):
        batches = new_batches(native=built_natively)
        assert all((batch.native is not None) == built_natively for batch in batches.values())
        played_bytes.append([])
        for game_id, (game, hands, policies) in enumerate(games):
            first = len(batches["events"])
            add_game(batches, game_id, game, hands, policies, "test", tags='{"Event": "test"}', players=["Ana"])
            played_bytes[-1].append(played(batches["events"], first))
        assert len(batches["events"]) == sum(len(hand.event_tuples) for _, hands, _ in games for hand in hands)
        assert len(batches["hands"]) == sum(len(hands) for _, hands, _ in games)
        tables.append({name: batch.to_arrow() for name, batch in batches.items()})
    assert played_bytes[0] == played_bytes[1]
    assert all(played_bytes[0]) and len(set(played_bytes[0])) == len(games)  # different games, different bytes
    return tables


def assert_same(reference: dict[str, pa.Table], built: dict[str, pa.Table]) -> None:
    for table, schema in SCHEMAS.items():
        assert built[table].schema == schema
        for name in schema.names:
            assert built[table][name].equals(reference[table][name]), (table, name, reference[table][name][:8])


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
    assert built["seats"]["player"].null_count < len(built["seats"])  # "Ana" at seat 0, null at the others


def test_the_native_events_keep_cards_nobody_saw_and_every_outcome() -> None:
    """Games read from text: folded cards written ``??``, raises folded, accepted and raised back."""
    native()
    games = []
    for path in sorted(VALID.glob("*.truc")):
        for record in read_text(path.read_text("utf-8"), str(path)).games:
            games.append((record.game, record.hands, record.policies()))
    reference, tables = both_ways(games)
    assert_same(reference, tables)
    built = tables["events"]
    args = built["arg"].to_pylist()
    assert "??" in args
    assert "??" in " ".join(tables["seats"]["cards"].to_pylist())
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
    assert len(rows) == 0 and rows.to_arrow().num_rows == 0  # a hand refused leaves no row, not even in part


def test_a_game_the_native_builders_refuse_leaves_none_of_its_rows() -> None:
    """A value a column cannot hold in a game's last hand: the error, and none of the game's hands, seats or events
    kept, so that the three tables stay aligned with the games before it."""
    native()
    config = VARIANTS["catalan"].configure({"players": "2"})
    game, hands = play_game(config, [parse_policy("random"), parse_policy("random")], game_seed(1, 0))
    batches = new_batches(native=True)
    add_game(batches, 0, game, hands, ["random", "random"], "test")
    kept = {name: len(batches[name]) for name in ("hands", "seats", "events")}
    assert all(kept.values())
    with pytest.raises(OverflowError, match="300"):
        add_game(batches, 1, game, [*hands[:-1], hands[-1]._replace(stake=300)], ["random", "random"], "test")
    with pytest.raises(ValueError, match=f"hand {len(hands)} does not fit a table of 2 seats"):
        add_game(batches, 2, game, [*hands[:-1], hands[-1]._replace(eldest=7)], ["random", "random"], "test")
    for name, rows in kept.items():
        table = batches[name].to_arrow()
        assert len(batches[name]) == table.num_rows == rows
        assert set(table["game_id"].to_pylist()) == {0}


def test_a_native_table_refuses_what_arrow_refuses() -> None:
    """A row of the wrong length or with a value of the wrong type or size: an error, not a row wrapped round."""
    module = native()
    seats = module.Rows(SCHEMAS["seats"])
    good = [0, 1, 0, 0, "threshold", "3o 12c 5e", 0.5, 0.25, None, 4, "Ana"]
    seats.append(good)
    seats.append(good[:6])  # trailing columns left out are null, as TableBatch.append has them
    with pytest.raises(ValueError, match="more values"):
        seats.append([*good, 1])
    with pytest.raises(OverflowError, match="300"):
        seats.append([0, 1, 300])
    with pytest.raises(TypeError, match="not a string"):
        seats.append([0, 1, 0, 0, 7])
    with pytest.raises(TypeError):
        seats.append([0, 1.5])
    table = seats.to_arrow()  # the rows refused are not kept, not even in part
    assert table.schema == SCHEMAS["seats"]
    assert len(seats) == table.num_rows == 2
    assert table.to_pylist() == [
        dict(zip(SCHEMAS["seats"].names, good, strict=True)),
        dict(zip(SCHEMAS["seats"].names, [*good[:6], None, None, None, None, None], strict=True)),
    ]


def test_the_simulator_and_the_importer_build_their_rows_natively_once_compiled() -> None:
    native()
    assert all(batch.native is not None for batch in new_batches(native=True).values())
    assert all(batch.native is None for batch in new_batches().values())  # the lists, for the tests' own rows
    with pytest.raises(TypeError, match="natively"):
        new_batches(native=True)["events"].append((0,))


def test_the_events_an_identity_reads_say_seat_verb_and_arg_with_their_sizes() -> None:
    """``rows.played``'s bytes, spelled out for a game's events: the chance step ``dealt`` (no seat), a
    raise without argument and a card played."""
    native()
    config = VARIANTS["catalan"].configure({})
    game, hands = play_game(config, [parse_policy("random")] * config.players, game_seed(3, 0))
    for built_natively in (False, True):
        batches = new_batches(native=built_natively)
        add_game(batches, 0, game, hands, ["random"] * config.players, "test")
        events = batches["events"].to_arrow().to_pylist()
        expected = b""
        for event in events:
            expected += bytes([0 if event["seat"] is None else event["seat"] + 1])
            verb = event["verb"].encode()
            expected += len(verb).to_bytes(4, "little") + verb
            arg = None if event["arg"] is None else event["arg"].encode()
            expected += b"\xff\xff\xff\xff" if arg is None else len(arg).to_bytes(4, "little") + arg
        assert played(batches["events"], 0) == expected
        assert played(batches["events"], len(events)) == b""
        assert any(event["seat"] is None and event["verb"] == "dealt" for event in events)
        assert any(event["arg"] is None for event in events) and any(event["verb"] == "play" for event in events)
