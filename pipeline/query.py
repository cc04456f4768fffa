"""Questions the statistics do not ask: a user's own SQL over one dataset or several (``truc sql``).

The query runs in an in-memory DuckDB over the same staging as the statistics (``sql/staging.sql``):
the four tables are the views ``games``, ``hands``, ``seats`` and ``events`` (every Parquet column, typed,
plus ``dataset``, the folder a row was read from), and the staging's views (``stg_*``, ``int_*``) and
macros (``wilson_low``, ``wilson_high``, ``side_points``, ``others_points``) are there too.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

import duckdb
import polars as pl

from pipeline import store
from pipeline.printable import is_utf8
from pipeline.stats import StatsError, interruptible, render, staged

TABLE_ROWS = 1000
"""The rows a result shows as a table by default: a Markdown table of millions of rows takes minutes to
lay out and nobody reads it (CSV and JSON, meant for programs, always hold every row)."""

TABLE_VIEWS = {table: f"stg_{table}" for table in store.TABLES}
"""The name a query reads each table by, and the staging view behind it."""


class QueryError(StatsError):
    """The query itself is wrong (syntax, an unknown table or column, a type error): DuckDB's message."""


READ_ERRORS = (duckdb.IOException, duckdb.InvalidInputException, duckdb.InternalException)
"""DuckDB's errors that a broken file may cause (a corrupt page: "ZSTD Decompression failure"; its
error of no kind: "Out of buffer"), which a query's own mistakes do not: after one of them the files are
read to find one that is broken, named by ``store.unreadable_part``."""


def query_text(sql: str | None, file: Path | None, stdin: TextIO) -> str:
    """The query to run: ``sql`` as given (``-``: read from ``stdin``), or the text of ``file``; exactly
    one of the two."""
    if sql is None and file is None:
        raise QueryError("no query: give it as an argument (- reads standard input) or with --file")
    if sql is not None and file is not None:
        raise QueryError("two queries: give one as an argument or with --file, not both")
    if file is None:
        return _read_stdin(stdin) if sql == "-" else str(sql)
    if str(file) == "-":
        return _read_stdin(stdin)
    try:
        return Path(file).read_text("utf-8")
    except UnicodeDecodeError:
        raise QueryError(f"{file} is not UTF-8 text") from None
    except OSError as exc:
        raise QueryError(f"cannot read {file}: {exc.strerror}") from None


def _read_stdin(stdin: TextIO) -> str:
    """Standard input's text, refused as a file is when it is not UTF-8 (Python keeps such bytes as lone
    surrogates, which DuckDB then refused with a bare codec error: ``printable.is_utf8``)."""
    text = stdin.read()
    if not is_utf8(text):
        raise QueryError("standard input is not UTF-8 text")
    return text


def run_query(sql: str, data: Path | Sequence[Path]) -> pl.DataFrame | None:
    """The result of ``sql`` (its last statement, when there are several) over the datasets ``data``
    names; None when DuckDB gives no result for it. Several folders are read as one, each row
    with its ``dataset``: join tables on ``dataset`` too, since game ids repeat across datasets.

    Raises ``QueryError`` for a query DuckDB refuses, with its message on one line, and
    ``store.DatasetError`` when a folder is missing, incomplete or unreadable (``stats.staged``)."""
    if not sql.strip():
        raise QueryError("the query is empty: give SQL, e.g. 'select variant, count(*) from games group by 1'")
    folders = store.dataset_folders(data)
    with staged(folders) as con:
        for table, view in TABLE_VIEWS.items():
            # the folder's path as text, as users compare it with theirs (the staging holds it as an enum)
            con.execute(f"create view {table} as select * replace (dataset::varchar as dataset) from {view}")
        try:
            return interruptible(con, lambda: _result(con, sql))
        except duckdb.Error as exc:
            if isinstance(exc, READ_ERRORS) or type(exc) is duckdb.Error:
                broken = store.unreadable_part(folders)
                if broken is not None:
                    raise broken from exc
            raise QueryError(f"query: {one_line(exc)}") from exc


def _result(con: duckdb.DuckDBPyConnection, sql: str) -> pl.DataFrame | None:
    relation = con.sql(sql)
    return None if relation is None else _as_text_where_needed(relation).pl()


def _needs_text(duckdb_type: str) -> bool:
    """Types that some output formats (or polars itself) cannot hold: intervals, bytes, bits, and nested
    values (lists, arrays, structs, maps, unions), which CSV cannot write."""
    return (
        duckdb_type in ("INTERVAL", "BLOB", "BIT")
        or duckdb_type.endswith("]")
        or duckdb_type.startswith(("STRUCT", "MAP", "UNION"))
    )


def _as_text_where_needed(relation: duckdb.DuckDBPyRelation) -> duckdb.DuckDBPyRelation:
    """``relation`` with the columns of those types as DuckDB's text for them (``[1, 2]``, ``{'a': 1}``,
    ``1 day``), so that every format shows them alike. Columns are named by position (``#k``): a result may
    repeat a column name."""
    types = [str(t) for t in relation.types]
    if not any(_needs_text(t) for t in types):
        return relation
    columns = []
    for k, (name, duckdb_type) in enumerate(zip(relation.columns, types, strict=True), start=1):
        quoted = '"' + name.replace('"', '""') + '"'
        columns.append(f"cast(#{k} as varchar) as {quoted}" if _needs_text(duckdb_type) else f"#{k} as {quoted}")
    return relation.project(", ".join(columns))


def one_line(error: duckdb.Error) -> str:
    """DuckDB's message on one line: its lines joined, without the caret line under the query's text
    (``LINE 1: select * from hand`` stays: it says where)."""
    lines = [line.strip() for line in str(error).splitlines()]
    kept = [line for line in lines if line and set(line) != {"^"}]
    return " ".join(kept) or type(error).__name__


def check_max_rows(max_rows: int) -> None:
    """Raise ``QueryError`` for a row limit below 0 (0 shows every row), before any query runs."""
    if max_rows < 0:
        raise QueryError(f"--max-rows must be 0 (every row) or more, not {max_rows}")


def render_result(frame: pl.DataFrame, format: str, max_rows: int = TABLE_ROWS) -> tuple[str, int]:
    """The result as text (``stats.render``) and how many rows it leaves out: a table shows its first
    ``max_rows`` rows (every row when ``max_rows`` is 0); CSV and JSON show every row."""
    check_max_rows(max_rows)
    if format != "table" or max_rows == 0 or frame.height <= max_rows:
        return render(frame, format), 0
    return render(frame.head(max_rows), format), frame.height - max_rows
