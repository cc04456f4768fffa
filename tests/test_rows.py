"""The rows the simulator writes (``pipeline.rows``), read back and held to what ``docs/data.md`` says of each
column, over every variant and player count. The round trips compare two outputs of the same writer; these
checks compare the columns with each other and with the rules (RULES.md "Common model": seats, teams,
dealer and eldest)."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from pipeline import store


def _runs(folder: Path) -> list[Path]:
    return store.expand_datasets([folder])


@pytest.fixture(scope="module")
def con(sim_all_variants: Path, sim_dataset: Path) -> duckdb.DuckDBPyConnection:
    """The four tables of every run (and of 4-player Catalan with signals on), a ``run`` column added."""
    connection = duckdb.connect()
    runs = [*_runs(sim_all_variants), sim_dataset]
    for table in store.TABLES:
        parts = " union all ".join(
            f"select '{run.name}' as run, * from read_parquet('{store.table_glob(run, table)}')" for run in runs
        )
        connection.execute(f"create view {table} as {parts}")
    return connection


def _none(con: duckdb.DuckDBPyConnection, query: str) -> None:
    rows = con.execute(query).fetchall()
    assert rows == [], rows[:5]


def test_seats_sit_in_their_team(con: duckdb.DuckDBPyConnection) -> None:
    """2 and 4 players, 6-player Trut: team = seat % 2; 3-player Trut: team = seat (docs/data.md)."""
    _none(
        con,
        "select run, seat, team from seats join games using (run, game_id) "
        "where team <> case when games.players = 3 then seat else seat % 2 end",
    )


def test_the_eldest_follows_the_dealer_and_eldest_team_is_his(con: duckdb.DuckDBPyConnection) -> None:
    _none(
        con,
        "select run, game_id, hand_no from hands join games using (run, game_id) "
        "where eldest <> (dealer + 1) % games.players "
        "or eldest_team <> case when games.players = 3 then eldest else eldest % 2 end",
    )
    # the dealer passes to the next seat from one hand to the next
    _none(
        con,
        "select hands.run, hands.game_id, hands.hand_no from hands join games using (run, game_id) "
        "join hands as next on next.run = hands.run and next.game_id = hands.game_id "
        "and next.hand_no = hands.hand_no + 1 where next.dealer <> (hands.dealer + 1) % games.players",
    )


def test_events_are_numbered_from_0_and_carry_their_seat_s_team(con: duckdb.DuckDBPyConnection) -> None:
    _none(
        con,
        "select run, game_id, hand_no from events group by all "
        "having min(seq) <> 0 or max(seq) <> count(*) - 1 or count(distinct seq) <> count(*)",
    )
    _none(
        con,
        "select run, game_id, hand_no, seq from events join seats using (run, game_id, hand_no, seat) "
        "where events.team <> seats.team",
    )
    _none(
        con, "select run, seq from events where (seat is null) <> (verb = 'dealt') or (team is null) <> (seat is null)"
    )


def test_trick_numbers_stakes_and_turns_say_what_the_format_says(con: duckdb.DuckDBPyConnection) -> None:
    _none(con, "select run, seq from events where kind = 'deal' and trick_no is not null")
    _none(con, "select run, seq from events where trick_no not between 1 and 3")
    _none(con, "select run, seq from events where kind = 'raise' and stake_after <= stake_before")
    _none(con, "select run, seq from events where verb = 'play' and to_play <> seat")
    # every seat, seat 0 too, is to play at some point
    seats_to_play = con.execute(
        "select count(distinct to_play) from events where run = 'catalan-2p' and verb = 'play'"
    ).fetchone()
    assert seats_to_play == (2,)


def test_a_hand_is_void_exactly_when_nobody_won_it(con: duckdb.DuckDBPyConnection) -> None:
    """Void: nobody scored. A passed fortial in 3-player Trut has no single winner but is not void (each
    opponent takes a petit)."""
    _none(
        con,
        "select run, game_id, hand_no from hands where void <> (winner_team is null) "
        "and not (run = 'trut-3p' and ended_by = 'pass')",
    )
    assert con.execute("select count(*) from hands where void").fetchone() != (0,)  # some void hands were played


def test_scores_before_a_hand_add_up_the_points_of_the_hands_before(con: duckdb.DuckDBPyConnection) -> None:
    """Within a game, in points (catalan, french) and in the trut family's and Valencian's per-hand units:
    the score before the next hand is the score before this one plus its points, unless a unit changed
    (longs from petits, cames from stones), which resets or converts it."""
    for side in ("0", "1", "2"):
        _none(
            con,
            f"select run, game_id, hands.hand_no from hands join hands as next using (run, game_id) "
            f"where next.hand_no = hands.hand_no + 1 and run in ('catalan-2p', 'catalan-4p', 'catalan4') "
            f"and next.score_before_team{side} <> hands.score_before_team{side} + hands.points_team{side}",
        )
    _none(
        con,
        "select run, game_id from hands where hand_no = 1 and (score_before_team0 <> 0 or score_before_team1 <> 0 "
        "or coalesce(score_before_team2, 0) <> 0)",
    )
    _none(
        con,
        "select run, game_id, hand_no from hands join games using (run, game_id) "
        "where (games.sides = 3) <> (score_before_team2 is not null)",
    )


def test_a_seat_s_signal_is_what_it_signalled(con: duckdb.DuckDBPyConnection) -> None:
    _none(
        con,
        "select run, game_id, hand_no, seat from seats "
        "join events using (run, game_id, hand_no, seat) where run = 'catalan4' and events.verb = 'signal' "
        "and seats.signal <> events.arg",
    )
    signalled = con.execute("select count(*) from seats where run = 'catalan4' and signal is not null").fetchone()
    assert signalled is not None and signalled[0] > 0


def test_a_seat_s_policy_is_the_bot_that_played_it(con: duckdb.DuckDBPyConnection) -> None:
    """sim_dataset: seat 1 a threshold bot of its own, seat 3 random, seats 0 and 2 the default bot."""
    policies = dict(
        con.execute("select seat, any_value(policy) from seats where run = 'catalan4' group by seat").fetchall()
    )
    assert policies[3] == "random"
    assert policies[1].startswith("threshold raise_at=0.8 call_at=0.6 bluff=0.05")
    assert policies[0] == policies[2] and policies[0].startswith("threshold raise_at=0.7 ")
    _none(con, "select run, seat from seats where run = 'catalan4' group by all having count(distinct policy) > 1")
