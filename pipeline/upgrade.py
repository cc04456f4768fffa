"""``truc upgrade``: bring a dataset written by an older Truc Lab up to the current format.

A dataset of format 1 (``store.FORMAT``; written before the events carried ``parts.EVENT_FACTS``) gets its
events parts rewritten with those columns, derived by DuckDB with the window the staging used before they were
written (``FACTS_QUERY``), part by part and row group by row group, in bounded memory (``UPGRADE_MEMORY``, a
spill folder of its own). The other tables' parts are linked (copied where links cannot be made), the manifest
written with every part listed, and the whole folder moved in place of the old one (``store.atomic_dataset``):
an interrupted upgrade leaves the old dataset. A dataset that only lacks the list of its parts gets it
(``store.upgrade_dataset``).

The same query fills the columns of the datasets the tests build by hand (``derive_facts``); a simulation and an
import write them in ``pipeline.rows`` as the hand goes, and a test checks that the two agree.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Final

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from pipeline import parts, store, tallies

UPGRADE_MEMORY: Final = "640MB"
"""DuckDB's memory limit while deriving the facts (a row group of events and the rows of its games at a time)."""

BASE_COLUMNS: Final = tuple(name for name in parts.EVENTS.names if name not in parts.EVENT_FACTS)
"""The events' columns as format 1 wrote them."""

_ENVIT_CALLS: Final = "('envit', 'torne', 'falta', 'envit-falta')"
_LADDER_VERBS: Final = "('envit', 'torne', 'falta', 'envit-falta', 'accept', 'fold')"

FACTS_QUERY: Final = f"""
with

ladder_rows as (
    select
        game_id, hand_no, seq, verb, kind, answers, stake_after,
        verb in {_LADDER_VERBS} as is_ladder,
        verb in {_ENVIT_CALLS} as is_call
    from context
    where kind = 'raise' or answers or verb in {_LADDER_VERBS}
),

ladder as (
    select
        game_id, hand_no, seq, verb, kind, answers,
        is_ladder and (is_call or coalesce(last_value(case when is_ladder then is_call end ignore nulls) over before,
            false)) as envit_step,
        last_value(case when kind = 'raise' then seq end ignore nulls) over before as faced_seq,
        last_value(case when kind = 'raise' then stake_after end ignore nulls) over before as faced_stake
    from ladder_rows
    window before as (partition by game_id, hand_no order by seq rows between unbounded preceding and 1 preceding)
),

answers_to_raises as (
    select game_id, hand_no, seq, faced_seq, faced_stake, verb, kind
    from ladder
    where answers and not envit_step and faced_seq is not null
),

outcomes as (
    select
        game_id,
        hand_no,
        faced_seq as seq,
        count(*) as answers,
        bool_and(verb = 'fold') as folded,
        bool_or(verb = 'accept' or kind = 'play') as accepted,
        bool_or(kind = 'raise') as raised
    from answers_to_raises
    group by game_id, hand_no, faced_seq
)

select
    coalesce(ladder.envit_step, false) as envit_step,
    answered.faced_seq as raise_seq,
    answered.faced_stake as raise_stake,
    case when chunk.kind = 'raise' then coalesce(outcomes.answers, 0) end as outcome_answers,
    outcomes.folded as outcome_folded,
    outcomes.accepted as outcome_accepted,
    outcomes.raised as outcome_raised,
    seat_pcts.strength_pct as seat_strength_pct
from chunk
left join ladder
    on ladder.game_id = chunk.game_id and ladder.hand_no = chunk.hand_no and ladder.seq = chunk.seq
left join answers_to_raises as answered
    on answered.game_id = chunk.game_id and answered.hand_no = chunk.hand_no and answered.seq = chunk.seq
left join outcomes
    on outcomes.game_id = chunk.game_id and outcomes.hand_no = chunk.hand_no and outcomes.seq = chunk.seq
    and chunk.kind = 'raise'
left join seat_pcts
    on seat_pcts.game_id = chunk.game_id and seat_pcts.hand_no = chunk.hand_no and seat_pcts.seat = chunk.seat
order by chunk.row_no
"""
"""``parts.EVENT_FACTS`` of each events row of ``chunk`` (``row_no``, their order, and its game_id, hand_no,
seq, seat and kind), in that order,
from ``context`` (every events row of the chunk's games) and ``seat_pcts`` (the seats' strength_pct of those
games), as the staging computed them before they were written: the rows that are raises, answers or envit-ladder
rows, in hand order, each with the latest raise before it and whether the latest envit-ladder row before it is a
call (an envit step: a call, or an accept/fold right after one); the answers that are not envit steps face that
raise, and sum up into its outcome."""


def derive_facts(events: pa.Table, seats: pa.Table, con: duckdb.DuckDBPyConnection | None = None) -> pa.Table:
    """``events`` (format 1's columns, or more) with ``parts.EVENT_FACTS`` derived (``FACTS_QUERY``), in the
    schema ``parts.EVENTS``, its rows in their order. ``events`` holds every row of its games' hands and ``seats``
    their seats (a whole dataset, or the part of one that holds whole games)."""
    base = events.select(list(BASE_COLUMNS))
    own = con is None
    connection = duckdb.connect() if con is None else con
    try:
        connection.register("context", base)
        connection.register("seat_pcts", seats.select(["game_id", "hand_no", "seat", "strength_pct"]))
        return _with_facts(connection, base)
    finally:
        for name in ("context", "seat_pcts"):
            connection.unregister(name)
        if own:
            connection.close()


_KEYS: Final = ("game_id", "hand_no", "seq", "seat", "kind")


def _with_facts(con: duckdb.DuckDBPyConnection, base: pa.Table) -> pa.Table:
    """The events ``base`` (format 1's columns) with their facts (``FACTS_QUERY`` on ``con``, where ``context``
    and ``seat_pcts`` are), in the schema ``parts.EVENTS``: only the keys go through DuckDB, and the facts come
    back in the rows' order beside the columns as they were read."""
    keys = base.select(list(_KEYS)).append_column("row_no", pa.array(range(base.num_rows), pa.int64()))
    con.register("chunk", keys)
    try:
        result = con.sql(FACTS_QUERY).arrow()
        facts = result.read_all() if isinstance(result, pa.RecordBatchReader) else result
    finally:
        con.unregister("chunk")
    columns = [*base.columns, *facts.columns]
    return pa.Table.from_arrays(columns, names=[*base.column_names, *facts.column_names]).cast(parts.EVENTS)


def upgrade_dataset(root: Path) -> str | None:
    """Bring the dataset ``root`` to ``store.FORMAT_VERSION`` with current tallies (``pipeline.tallies``); what
    was done (``facts derived``, ``parts listed``, ``tallies written``), or None when it was current. Raises
    ``store.DatasetError`` for a dataset that cannot be upgraded (a damaged part, a newer format); the dataset is
    left as it was then."""
    root = store.existing_folder(root)
    manifest = store.read_manifest(root)
    version = store.format_of(manifest)
    if version > store.FORMAT_VERSION:
        store.check_format(root, manifest)
    if version == store.FORMAT_VERSION:
        done = ["parts listed"] if store.upgrade_dataset(root) else []
        store.check_dataset(root)  # as every reader does: a part removed or resized since is named, not "up to date"
        if not tallies.current(root):
            with store.unchanged([root]):
                tallies.write_tallies(root, in_place=True)
            done.append("tallies written")
        return ", ".join(done) or None
    with store.atomic_dataset(root, overwrite=True) as tmp:
        with store.unchanged([root]):
            manifest = store.read_manifest(root)
            if store.PARTS in manifest:
                store.check_listing(root, manifest)
            else:
                store.read_parts_in_full(root, manifest, optional=parts.EVENT_FACTS)
            for name in store.TABLES:
                if name != "events":
                    _link_parts(root, tmp, name)
            _derive_events(root, tmp)
        store.write_manifest(
            tmp, {key: value for key, value in manifest.items() if key not in (store.PARTS, store.TALLIES)}
        )
        tallies.write_tallies(tmp)
    return "facts derived, tallies written"


def upgrade_datasets(paths: Sequence[Path]) -> list[tuple[Path, str | None]]:
    """Each dataset that ``paths`` names (``store.expand_datasets``), upgraded (``upgrade_dataset``), with what
    was done."""
    return [(folder, upgrade_dataset(folder)) for folder in store.expand_datasets(paths)]


def _link_parts(root: Path, tmp: Path, name: str) -> None:
    """The parts of table ``name`` of ``root`` in ``tmp``, as links to the same files (copies where the system
    cannot link): the upgrade does not change them."""
    folder = tmp / name
    folder.mkdir()
    for part in store.table_files(root, name):
        try:
            os.link(part, folder / part.name)
        except OSError:
            shutil.copyfile(part, folder / part.name)


def _derive_events(root: Path, tmp: Path) -> None:
    """Write every events part of ``root`` into ``tmp`` with ``parts.EVENT_FACTS``, row group by row group
    (``FACTS_QUERY`` over the row group and every events row and seat of its games, read from the parts whose
    game_id's range meets theirs: a hand may run across two parts)."""
    events, seats = _game_ranges(root, "events"), _game_ranges(root, "seats")
    spill = tmp / ".spill"
    (tmp / "events").mkdir()
    dictionary = [column for column in parts.EVENTS.names if ("events", column) not in parts.PLAIN_COLUMNS]
    config: dict[str, str | bool | int | float | list[str]] = {
        "memory_limit": UPGRADE_MEMORY,
        "temp_directory": str(spill),
        "preserve_insertion_order": False,
    }
    try:
        with duckdb.connect(config=config) as con:
            for part in store.table_files(root, "events"):
                source = pq.ParquetFile(part)
                out = tmp / "events" / part.name
                with pq.ParquetWriter(out, parts.EVENTS, compression="zstd", use_dictionary=dictionary) as writer:
                    for group in range(source.metadata.num_row_groups):
                        chunk = source.read_row_group(group, columns=list(BASE_COLUMNS))
                        writer.write_table(_derive_group(con, chunk, events, seats), row_group_size=chunk.num_rows)
    finally:
        shutil.rmtree(spill, ignore_errors=True)


GameRanges = list[tuple[str, int | None, int | None]]


def _game_ranges(root: Path, table: str) -> GameRanges:
    """Each part of ``table`` of ``root`` as DuckDB reads it (``store.table_sources``) with its lowest and highest
    game_id, from its footer (None, None where the footer has no statistics: the part is always read)."""
    ranges: GameRanges = []
    for source, part in zip(store.table_sources(root, table), store.table_files(root, table), strict=True):
        meta = pq.ParquetFile(part).metadata
        index = meta.schema.names.index("game_id")
        stats = [meta.row_group(g).column(index).statistics for g in range(meta.num_row_groups)]
        if stats and all(s is not None and s.has_min_max for s in stats):
            ranges.append(
                (source, min(s.min for s in stats if s is not None), max(s.max for s in stats if s is not None))
            )
        else:
            ranges.append((source, None, None))
    return ranges


def _meeting(ranges: GameRanges, low: int, high: int) -> list[str]:
    """The parts of ``ranges`` that may hold a game_id from ``low`` to ``high`` (all of them when none does: a
    read of no file is an error, and the query's filter finds no row either way)."""
    meeting = [
        source for source, first, last in ranges if first is None or last is None or (first <= high and last >= low)
    ]
    return meeting or [source for source, _, _ in ranges]


def _derive_group(con: duckdb.DuckDBPyConnection, chunk: pa.Table, events: GameRanges, seats: GameRanges) -> pa.Table:
    """The row group ``chunk`` of an events part with ``parts.EVENT_FACTS`` (``FACTS_QUERY``), the other rows
    of its games read from the parts of ``events`` and ``seats`` that hold them."""
    if chunk.num_rows == 0:
        return parts.EVENTS.empty_table()
    game_ids = chunk.column("game_id")
    low, high = int(pc.min(game_ids).as_py()), int(pc.max(game_ids).as_py())
    between = f"game_id between {low} and {high}"
    con.execute(
        "create or replace temp view context as select game_id, hand_no, seq, verb, kind, answers, stake_after "
        f"from read_parquet({_list_literal(_meeting(events, low, high))}) where {between}"
    )
    con.execute(
        "create or replace temp view seat_pcts as select game_id, hand_no, seat, strength_pct "
        f"from read_parquet({_list_literal(_meeting(seats, low, high))}) where {between}"
    )
    return _with_facts(con, chunk)


def _list_literal(paths: list[str]) -> str:
    """``paths`` as a DuckDB list of string literals."""
    return "[" + ", ".join("'" + path.replace("'", "''") + "'" for path in paths) + "]"
