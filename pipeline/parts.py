"""The dataset's four tables in Arrow and Parquet: their schemas, the rows a writer gathers (``TableBatch``),
the parts it writes (``PartWriter``), and reading a part back (its footer checked, its pages read, a table
whole).

It is the part of the dataset that needs pyarrow; ``pipeline.store`` (the folder, its manifest, the checks
that trust it) does not, so that a command that reads only the manifests and hands the files to DuckDB (``truc
stats`` from the tallies) starts without it: importing pyarrow takes about a third of such a command's time.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Final

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline import accel
from pipeline.store import TABLES, DatasetError, not_parquet, table_files

GAMES = pa.schema(
    [
        ("game_id", pa.int64()),
        ("variant", pa.string()),
        ("players", pa.int8()),
        ("options", pa.string()),  # canonical "k=v k=v" of every option, defaults included
        ("seed", pa.int64()),  # the game's own seed (null for imported games without a Seed tag)
        ("first_dealer", pa.int8()),
        ("hands", pa.int16()),  # hands played
        ("complete", pa.bool_()),  # false when a record stops before the game's end
        ("winner_team", pa.int8()),  # null when not complete
        ("score_team0", pa.int16()),
        ("score_team1", pa.int16()),
        ("source", pa.string()),  # "simulate" or the imported file's name
        ("sides", pa.int8()),  # 2, or 3 in 3-player Trut (each plays alone)
        ("score_team2", pa.int16()),  # the third side's score, null with 2 sides
        ("unit", pa.string()),  # what score_team* count: "points", "longs" or "cames"
        ("match_no", pa.int64()),  # french rubber: the match (best of 3 games) this game belongs to
        ("match_winner_team", pa.int8()),  # on the match's deciding game, the match winner
        ("tags", pa.string()),  # an imported game's other tags (Event, Site, Date, Round, _custom) as JSON
    ]
)

HANDS = pa.schema(
    [
        ("game_id", pa.int64()),
        ("hand_no", pa.int16()),  # from 1
        ("dealer", pa.int8()),
        ("eldest", pa.int8()),
        ("eldest_team", pa.int8()),
        ("cards_dealt", pa.int8()),  # 3, or 1 for a one-card deal
        ("score_before_team0", pa.int16()),
        ("score_before_team1", pa.int16()),
        ("stake", pa.int8()),  # the stake in force when the hand ended (before a refused raise)
        ("ended_by", pa.string()),  # "tricks" | "fold" | "pass" (a team at 11 declined to play)
        ("winner_team", pa.int8()),  # the team that scored; null for a void hand
        ("points_team0", pa.int16()),
        ("points_team1", pa.int16()),
        ("tricks_played", pa.int8()),
        ("trick1_winner", pa.int8()),  # team, -1 tie, null when not played
        ("trick2_winner", pa.int8()),
        ("trick3_winner", pa.int8()),
        ("tie_rule", pa.string()),  # the tie rule that decided the hand, null when none was needed
        # --- every variant, when it applies ---
        ("void", pa.bool_()),  # nobody scored (all tricks tied in french/trut, a redealt trut d'office...)
        ("points_team2", pa.int16()),  # third side, 3-player Trut only
        ("score_before_team2", pa.int16()),
        ("special", pa.string()),  # a special hand: "one_card", "eleven", "fortial", "trut_office", "chanson"...
        # --- french ---
        ("redeals", pa.int8()),  # new deals agreed before trick 1
        # --- trut family: petits and longs gained in the hand, and held after it ---
        ("petits_team0", pa.int8()),
        ("petits_team1", pa.int8()),
        ("petits_team2", pa.int8()),
        ("longs_team0", pa.int8()),
        ("longs_team1", pa.int8()),
        ("longs_team2", pa.int8()),
        ("petits_after_team0", pa.int8()),
        ("petits_after_team1", pa.int8()),
        ("petits_after_team2", pa.int8()),
        ("longs_after_team0", pa.int8()),
        ("longs_after_team1", pa.int8()),
        ("longs_after_team2", pa.int8()),
        ("trut_seat", pa.int8()),  # who truted, null when nobody did
        # --- valencian: the envit and the cames ---
        ("envit_stake", pa.int8()),  # stones the envit was settled for (accepted value, or the fold's)
        ("envit_winner", pa.int8()),
        ("envit_points", pa.int16()),  # stones the envit gave its winner (after the cap)
        ("envit_ended_by", pa.string()),  # "accept" | "fold", null when no envit was called
        ("cames_after_team0", pa.int8()),
        ("cames_after_team1", pa.int8()),
    ]
)

HAND_DETAIL_COLUMNS = tuple(HANDS.names[HANDS.names.index("void") :])
"""Columns filled from ``HandRecord.details`` by name (null when a variant does not set them)."""

SEATS = pa.schema(
    [
        ("game_id", pa.int64()),
        ("hand_no", pa.int16()),
        ("seat", pa.int8()),
        ("team", pa.int8()),
        ("policy", pa.string()),  # e.g. "threshold raise_at=0.7 call_at=0.5 bluff=0.1"; null if unknown
        ("cards", pa.string()),  # dealt cards in notation, "3o 12c 5e"; "??" for unseen ones
        ("strength", pa.float64()),  # null when a card is unknown
        ("strength_pct", pa.float64()),
        ("signal", pa.string()),  # what the seat signalled to its partner, null when signals are off
        ("envit_value", pa.int8()),  # valencian: the envit value of the cards dealt
        ("player", pa.string()),  # an imported game's SeatN tag: who sat there; null when not given
    ]
)

SEAT_DETAIL_COLUMNS = ("envit_value",)
"""Columns filled from ``Variant.seat_values(cards)`` by name."""

EVENTS = pa.schema(
    [
        ("game_id", pa.int64()),
        ("hand_no", pa.int16()),
        ("seq", pa.int16()),  # from 0 within the hand
        ("seat", pa.int8()),  # null for the chance step "dealt"
        ("team", pa.int8()),
        ("verb", pa.string()),
        ("arg", pa.string()),
        ("kind", pa.string()),  # deal | choice | signal | raise | answer | play
        ("answers", pa.bool_()),  # this action answered a pending raise (play = implicit accept)
        ("could_raise", pa.bool_()),  # the acting seat had a raise among its legal actions
        ("trick_no", pa.int8()),  # 1..3, the trick in progress; null before play starts
        ("stake_before", pa.int8()),
        ("stake_after", pa.int8()),  # for a raise: the stake it proposes
        ("to_play", pa.int8()),  # the seat whose turn it was to play a card; null outside trick play
        # --- facts of the hand's rows before this one, written once (rows.add_game; `truc upgrade` for older
        # datasets) so that no statistic recomputes them with a window over all events (docs/data.md) ---
        ("envit_step", pa.bool_()),  # a row of the envit ladder: a call, or an accept/fold right after one
        ("raise_seq", pa.int16()),  # on an answer to a raise of the raise ladder: the seq of the raise it faces
        ("raise_stake", pa.int8()),  # and that raise's stake_after
        ("outcome_answers", pa.int8()),  # on a raise (kind = 'raise'): the answers that face it
        ("outcome_folded", pa.bool_()),  # every one is a fold (null without answers)
        ("outcome_accepted", pa.bool_()),  # one is an accept, or a play that accepts
        ("outcome_raised", pa.bool_()),  # one is a raise back
        ("seat_strength_pct", pa.float64()),  # the acting seat's strength_pct in the hand (seats)
    ]
)

EVENT_FACTS: Final = tuple(EVENTS.names[EVENTS.names.index("envit_step") :])
"""The events' columns derived from the hand's other rows and its seats (``pipeline.upgrade`` derives them for a
dataset written before them)."""

SCHEMAS: dict[str, pa.Schema] = {"games": GAMES, "hands": HANDS, "seats": SEATS, "events": EVENTS}

NOT_NULL: dict[str, tuple[str, ...]] = {
    "games": (
        "game_id", "variant", "players", "options", "first_dealer", "hands", "complete",
        "score_team0", "score_team1", "source", "sides", "unit",
    ),
    "hands": (
        "game_id", "hand_no", "dealer", "eldest", "eldest_team", "cards_dealt", "score_before_team0",
        "score_before_team1", "stake", "ended_by", "points_team0", "points_team1", "tricks_played", "void",
    ),
    "seats": ("game_id", "hand_no", "seat", "team", "cards"),
    "events": (
        "game_id", "hand_no", "seq", "verb", "kind", "answers", "could_raise", "stake_before", "stake_after",
        "envit_step",
    ),
}  # fmt: skip
"""The columns the simulator and the importer always fill, which the SQL reads without a fallback for null
(``games.sides`` as the number of sides, ``hands.void`` as "nobody scored"...): ``check_dataset`` refuses
a dataset with a null in one of them."""


class TableBatch:
    """Rows of one table, kept as one Python list per column (in schema order) and turned into Arrow
    columns in one go. The row builder (``pipeline.rows``, compiled) appends to the columns directly, which
    spares a tuple per row and the transposition; ``append`` takes a whole row.

    The rows of the simulator and the importer are kept instead by a native builder (``native``: the
    ``Rows`` or ``EventRows`` of ``pipeline._fast_rows``, once compiled), in C arrays rather than lists:
    ``new_batches``."""

    __slots__ = ("schema", "columns", "native")

    def __init__(self, schema: pa.Schema, native: Any = None) -> None:
        self.schema = schema
        self.columns: list[list[Any]] = [[] for _ in schema]
        self.native = native

    def __len__(self) -> int:
        return len(self.native) if self.native is not None else len(self.columns[0])

    @property
    def rows(self) -> list[tuple[Any, ...]]:
        """The rows as tuples in schema order (to inspect a batch; writing goes by columns)."""
        if self.native is not None:
            return [tuple(row.values()) for row in self.native.to_arrow().to_pylist()]
        return list(zip(*self.columns, strict=True))

    def append(self, row: Sequence[Any]) -> None:
        """Append one row in schema order; it may leave out trailing columns (variant-specific extras),
        which are null."""
        if self.native is not None:
            self.native.append(row)
            return
        columns = self.columns
        if len(row) > len(columns):
            raise ValueError(f"a row has more values than the table's {len(columns)} columns")
        for column, value in zip(columns, row, strict=False):
            column.append(value)
        for column in columns[len(row) :]:
            column.append(None)

    def to_arrow(self) -> pa.Table:
        """The rows as an Arrow table."""
        if self.native is not None:
            table: pa.Table = self.native.to_arrow()
            return table
        count = len(self)
        if any(len(column) != count for column in self.columns):
            raise ValueError("the columns of a batch have different lengths")
        return pa.table(
            {
                f.name: pa.nulls(count, f.type) if _all_null(col) else pa.array(col, type=f.type)
                for f, col in zip(self.schema, self.columns, strict=True)
            }
        )


def _all_null(column: list[Any]) -> bool:
    """Whether every value is None (a variant's extra column it never sets). Most columns have a value
    first, which answers at once; counting would compare every value with None."""
    return not column or (column[0] is None and column.count(None) == len(column))


def new_batches(native: bool = False) -> dict[str, TableBatch]:
    """An empty batch of every table. ``native``: kept by the native builders when the compiled modules are
    loaded (``pipeline._fast_rows``, ``accel.native``), as the simulator and the importer do; the events then
    take their rows from ``rows.add_game`` only, and the columns' lists stay empty."""
    builder = accel.native("pipeline._fast_rows") if native else None
    if builder is None:
        return {name: TableBatch(SCHEMAS[name]) for name in TABLES}
    batches = {name: TableBatch(SCHEMAS[name], builder.Rows(SCHEMAS[name])) for name in TABLES}
    batches["events"] = TableBatch(EVENTS, builder.EventRows())
    return batches


PLAIN_COLUMNS: Final = frozenset({("seats", "cards")})
"""Columns written without Parquet's dictionary encoding: a seat's dealt cards take tens of thousands of
values, so the dictionary fills and is dropped part-way through every part. Written plain, the seats
table is smaller (about 8%) and faster to write; the values read back the same."""


ROW_GROUP_ROWS = 1 << 20
"""Rows in a Parquet row group of a table (the last one of a table holds what remains): DuckDB reads a file's
row groups in parallel, so a group is its unit of work, and about a million rows keeps the per-group overhead
small while a group in memory stays a few tens of MB."""

PART_ROW_GROUPS = 8
"""Row groups in a part before the writer starts the next one: the number of files grows with the rows,
about one per 8 million rows of a table (a 10-million-hand run writes 8 parts of events, 3 of seats, 2 of
hands and 1 of games)."""


class PartWriter:
    """The parts of every table of the dataset ``root``, written from tables of rows appended in order
    (``add``): each table's rows go into row groups of ``group_rows`` and parts of ``part_groups`` groups,
    whatever the size of the tables added. A run that adds the same rows in the same order writes the same
    table contents, however its work was cut. It holds less than a row group of each table in memory, plus
    the writer's buffers; ``close`` writes what remains (an empty part for a table that got no rows, since a
    dataset has every table) and gives each table's rows. Used as a context manager, it closes on success
    and leaves the unfinished files to ``atomic_dataset``'s cleanup on an error."""

    def __init__(self, root: Path, group_rows: int | None = None, part_groups: int | None = None) -> None:
        self.root = Path(root)
        self.group_rows = ROW_GROUP_ROWS if group_rows is None else group_rows  # read here: tests set it small
        self.part_groups = PART_ROW_GROUPS if part_groups is None else part_groups
        if self.group_rows < 1 or self.part_groups < 1:
            raise ValueError("a part holds at least one row group of at least one row")
        self.rows = dict.fromkeys(TABLES, 0)
        self._waiting: dict[str, list[pa.Table]] = {name: [] for name in TABLES}
        self._waiting_rows = dict.fromkeys(TABLES, 0)
        self._writers: dict[str, pq.ParquetWriter | None] = dict.fromkeys(TABLES)
        self._parts = dict.fromkeys(TABLES, 0)  # parts started
        self._groups = dict.fromkeys(TABLES, 0)  # row groups in the part being written
        self._closed = False

    def __enter__(self) -> PartWriter:
        return self

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        if kind is None:
            self.close()
        else:
            for writer in self._writers.values():
                if writer is not None:
                    with contextlib.suppress(Exception):
                        writer.close()

    def add(self, tables: dict[str, pa.Table]) -> None:
        """Append rows to some tables (each in its ``SCHEMAS`` schema), after every row added before."""
        for name, table in tables.items():
            if table.num_rows == 0:
                continue
            self._waiting[name].append(table)
            self._waiting_rows[name] += table.num_rows
            self._writer(name)  # the part is there as soon as it has rows to come
            while self._waiting_rows[name] >= self.group_rows:
                self._write_group(name, self.group_rows)

    def close(self) -> dict[str, int]:
        """Write every row still waiting and close the parts; the rows written of each table. The tables' last
        groups are written at once, a thread each (Arrow encodes and compresses without the GIL): at the end of
        an import the others have nothing left to do meanwhile. Closing again (the context manager's exit after
        the caller's own ``close``) does nothing."""
        if self._closed:
            return dict(self.rows)
        self._closed = True
        with ThreadPoolExecutor(len(TABLES), thread_name_prefix="truc-part") as pool:
            for done in [pool.submit(self._close_table, name) for name in TABLES]:
                done.result()
        give_back_memory()
        return dict(self.rows)

    def _close_table(self, name: str) -> None:
        """Write the rows of table ``name`` still waiting and close its part."""
        if self._waiting_rows[name] or self._parts[name] == 0:
            self._write_group(name, self._waiting_rows[name])
        writer = self._writers[name]
        if writer is not None:
            writer.close()
            self._writers[name] = None

    def _write_group(self, name: str, count: int) -> None:
        """Write the first ``count`` waiting rows of table ``name`` as one row group."""
        waiting = pa.concat_tables(self._waiting[name]) if self._waiting[name] else SCHEMAS[name].empty_table()
        group, rest = waiting.slice(0, count), waiting.slice(count)
        self._waiting[name] = [rest] if rest.num_rows else []
        self._waiting_rows[name] = rest.num_rows
        writer = self._writer(name)
        writer.write_table(group, row_group_size=max(count, 1))
        self.rows[name] += count
        self._groups[name] += 1
        if self._groups[name] >= self.part_groups:
            writer.close()
            self._writers[name] = None
            self._groups[name] = 0

    def _writer(self, name: str) -> pq.ParquetWriter:
        """The open part of table ``name``, the next one started when none is open."""
        writer = self._writers[name]
        if writer is None:
            folder = self.root / name
            folder.mkdir(parents=True, exist_ok=True)
            dictionary = [column for column in SCHEMAS[name].names if (name, column) not in PLAIN_COLUMNS]
            path = folder / f"part-{self._parts[name]:05d}.parquet"
            writer = pq.ParquetWriter(path, SCHEMAS[name], compression="zstd", use_dictionary=dictionary)
            self._writers[name] = writer
            self._parts[name] += 1
        return writer


def give_back_memory() -> None:
    """Return to the system the memory freed since a writer began: its row groups (Arrow's pool keeps freed
    pages for reuse) and the rows the workers sent (the C heap keeps freed blocks between the live ones). A dataset's
    tallies follow its writing, and DuckDB takes up to its limit beside what the process holds: a simulation of
    100,000 games held 434 MiB when its tallies began, 119 once given back, and one of 10 million hands peaked (in its
    tallies) at 847 MiB instead of 919. glibc's ``malloc_trim`` where there is one (Linux); elsewhere Arrow's pool
    alone."""
    gc.collect()
    pa.default_memory_pool().release_unused()
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (AttributeError, OSError):  # not glibc
        return
    trim(0)


def write_part(root: Path, part: int, batches: dict[str, TableBatch]) -> dict[str, int]:
    """Write one numbered part of every table under ``root``; return the row counts."""
    counts = {}
    for name, batch in batches.items():
        folder = root / name
        folder.mkdir(parents=True, exist_ok=True)
        write_batch(name, batch, folder / f"part-{part:05d}.parquet")
        counts[name] = len(batch)
    return counts


def write_batch(name: str, batch: TableBatch, path: Path) -> None:
    """Write the rows of table ``name`` as one Parquet file (the benchmarks write as the simulator does
    through this and ``write_arrow``)."""
    write_arrow(name, batch.to_arrow(), path)


def write_arrow(name: str, table: pa.Table, path: Path) -> None:
    """Write table ``name``, already in Arrow, as one Parquet file with zstd."""
    dictionary = [column for column in table.column_names if (name, column) not in PLAIN_COLUMNS]
    pq.write_table(table, path, compression="zstd", use_dictionary=dictionary)


def check_part(part: Path, table: str, optional: Sequence[str] = ()) -> int:
    """The rows of a Parquet file of ``table``. Refuses one that lacks a column of the schema (but those of
    ``optional``), or that holds a null in a column of ``NOT_NULL``. The null counts come from the file's
    footer, or from the column itself where its writer kept no statistics."""
    try:
        meta = pq.ParquetFile(part).metadata
        columns = meta.schema.names
        missing = [c for c in SCHEMAS[table].names if c not in columns and c not in optional]
        if missing:
            raise DatasetError(
                f"{part} lacks the column(s) {', '.join(missing)}: it was written by an older Truc Lab; "
                "simulate or import it again"
            )
        nulls = []
        for name in NOT_NULL[table]:
            if name not in columns:
                continue  # an optional column
            index = columns.index(name)
            counts = [meta.row_group(g).column(index).statistics for g in range(meta.num_row_groups)]
            if all(stats is not None and stats.has_null_count for stats in counts):
                has_null = any(stats.null_count for stats in counts if stats is not None)
            else:
                has_null = pq.read_table(part, columns=[name]).column(name).null_count > 0
            if has_null:
                nulls.append(name)
    except (OSError, pa.ArrowException) as exc:
        raise not_parquet(part, exc) from exc
    if nulls:
        raise DatasetError(
            f"{part} has null values in the column(s) {', '.join(nulls)}, which Truc Lab always fills "
            "(docs/data.md): it was not written by truc simulate or truc import"
        )
    return meta.num_rows


def footer_rows(path: Path) -> int:
    """The rows of the Parquet file ``path`` as its footer counts them."""
    return pq.read_metadata(path).num_rows


def rows_read(part: Path) -> int:
    """The rows of the Parquet file ``part``, every page read (a footer may be sound where a page is not)."""
    try:
        return sum(batch.num_rows for batch in pq.ParquetFile(part).iter_batches())
    except (OSError, pa.ArrowException) as exc:
        raise not_parquet(part, exc) from exc


def read_table(root: Path, name: str) -> pa.Table:
    """Read a whole table (for tests, export and small datasets)."""
    parts = table_files(root, name)
    if not parts:
        raise DatasetError(f"{root} is incomplete: no Parquet files in {Path(root) / name}")
    try:
        return pq.read_table([str(part) for part in parts], schema=SCHEMAS[name])
    except (OSError, pa.ArrowException) as exc:
        raise DatasetError(f"cannot read {Path(root) / name}: {exc}") from exc
