"""``truc sql``: a user's own SQL over real datasets, through the statistics' staging in DuckDB."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import duckdb
import polars as pl
import pytest
from typer.testing import CliRunner

from pipeline import parts, store
from pipeline.cli import app
from pipeline.query import QueryError, query_text, render_result, run_query
from pipeline.stats import interruptible

runner = CliRunner()


def test_the_tables_are_every_parquet_column_and_the_dataset(sim_dataset_2p: Path) -> None:
    for table in store.TABLES:
        frame = run_query(f"select * from {table}", sim_dataset_2p)
        assert frame is not None
        assert frame.columns == ["dataset", *parts.SCHEMAS[table].names]
        parquet = pl.read_parquet(sim_dataset_2p / table / "*.parquet")
        assert frame.height == parquet.height
        assert set(frame["dataset"]) == {str(sim_dataset_2p.resolve())}


def test_a_join_counts_what_the_parquet_holds(sim_dataset: Path, sim_dataset_2p: Path) -> None:
    """Two datasets pooled: hands per variant and player count, joined on dataset and game id, match
    the files read directly (game ids repeat across the datasets, so a join on game_id alone would not)."""
    frame = run_query(
        "select g.players, count(*) as hands from hands h join games g using (dataset, game_id) group by all",
        [sim_dataset, sim_dataset_2p],
    )
    assert frame is not None
    counted = dict(zip(frame["players"], frame["hands"], strict=True))
    expected = {
        players: pl.read_parquet(folder / "hands" / "*.parquet").height
        for players, folder in ((4, sim_dataset), (2, sim_dataset_2p))
    }
    assert counted == expected


def test_the_staging_views_and_macros_are_there(sim_dataset_2p: Path) -> None:
    frame = run_query(
        "select wilson_low(5, 10) as low, wilson_high(5, 10) as high, "
        "(select count(*) from int_raise_outcomes) as raises",
        sim_dataset_2p,
    )
    assert frame is not None
    low, high, raises = frame.row(0)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    assert raises > 0


def test_several_statements_give_the_last_result(sim_dataset_2p: Path) -> None:
    frame = run_query("create view folds as select * from events where verb = 'fold'; select count(*) from folds",
                      sim_dataset_2p)  # fmt: skip
    assert frame is not None
    events = pl.read_parquet(sim_dataset_2p / "events" / "*.parquet")
    assert frame.item() == events.filter(pl.col("verb") == "fold").height


@pytest.mark.parametrize(
    ("sql", "message"),
    [
        ("selec 1", 'query: Parser Error: syntax error at or near "selec" LINE 1: selec 1'),
        ("select * from hand", 'query: Catalog Error: Table with name hand does not exist! Did you mean "hands"?'),
        ("select nope from hands", 'query: Binder Error: Referenced column "nope" not found'),
        ("  \n", "the query is empty"),
    ],
)
def test_a_refused_query_is_duckdb_s_message_on_one_line(sim_dataset_2p: Path, sql: str, message: str) -> None:
    with pytest.raises(QueryError) as caught:
        run_query(sql, sim_dataset_2p)
    assert str(caught.value).startswith(message) and "\n" not in str(caught.value)
    assert "^" not in str(caught.value)  # the caret line under the query's text is left out


def test_the_query_comes_from_the_argument_standard_input_or_a_file(tmp_path: Path) -> None:
    assert query_text("select 1", None, io.StringIO("unused")) == "select 1"
    assert query_text("-", None, io.StringIO("select 2")) == "select 2"
    (tmp_path / "q.sql").write_text("select 3\n", "utf-8")
    assert query_text(None, tmp_path / "q.sql", io.StringIO()) == "select 3\n"
    assert query_text(None, Path("-"), io.StringIO("select 4")) == "select 4"  # as the argument's -
    (tmp_path / "latin1.sql").write_bytes("select 'é'".encode("latin-1"))
    for sql, file, message in [
        (None, None, "no query"),
        ("select 1", tmp_path / "q.sql", "two queries"),
        (None, tmp_path / "none.sql", f"cannot read {tmp_path / 'none.sql'}: No such file or directory"),
        (None, tmp_path / "latin1.sql", "is not UTF-8 text"),
    ]:
        with pytest.raises(QueryError, match=message):
            query_text(sql, file, io.StringIO())


def test_a_query_that_starts_with_a_comment_goes_after_a_lone_double_dash(sim_dataset_2p: Path) -> None:
    """Every file of sql/ starts with a -- comment, which the command line would read as an option."""
    query = "-- hands per dataset\nselect count(*) as hands from hands"
    result = runner.invoke(app, ["sql", "--data", str(sim_dataset_2p), "--format", "csv", "--", query])
    assert result.exit_code == 0 and result.stdout.splitlines()[0] == "hands"
    assert "after a lone --" in " ".join(runner.invoke(app, ["sql", "--help"]).stdout.split())


def test_cli_prints_the_result_in_each_format(sim_dataset_2p: Path) -> None:
    sql = "select seat, count(*) as events from events where seat is not null group by seat order by seat"
    expected = pl.read_parquet(sim_dataset_2p / "events" / "*.parquet").filter(pl.col("seat").is_not_null())
    counts = expected.group_by("seat").len().sort("seat")
    csv = runner.invoke(app, ["sql", sql, "--data", str(sim_dataset_2p), "--format", "csv"])
    assert csv.exit_code == 0, csv.output
    assert csv.stdout == "seat,events\n" + "".join(f"{s},{n}\n" for s, n in counts.iter_rows())
    as_json = runner.invoke(app, ["sql", "-", "--data", str(sim_dataset_2p), "--format", "json"], input=sql)
    assert json.loads(as_json.stdout) == [{"seat": s, "events": n} for s, n in counts.iter_rows()]
    table = runner.invoke(app, ["sql", sql, "--data", str(sim_dataset_2p)])
    assert table.stdout.splitlines()[0].split("|")[1:3] == [" seat ", " events "]


def test_cli_json_has_no_nan_or_infinity(sim_dataset_2p: Path) -> None:
    result = runner.invoke(
        app,
        [
            "sql",
            "select 1/0 as inf, 0/0 as nan, 2.5 as x, date '2026-11-24' as d",
            "--data",
            str(sim_dataset_2p),
            "--format",
            "json",
        ],
    )
    assert json.loads(result.stdout) == [{"inf": None, "nan": None, "x": 2.5, "d": "2026-11-24"}]


@pytest.mark.parametrize("format", ["table", "csv", "json"])
def test_lists_structs_intervals_and_bytes_print_as_text_in_every_format(sim_dataset_2p: Path, format: str) -> None:
    """CSV cannot write nested values, polars cannot hold an interval, JSON cannot write bytes: each comes
    out as DuckDB's text for it, in every format, and a repeated column name does not stop it."""
    sql = (
        "select [1, 2] as l, {'a': 1} as s, interval 1 day as i, 'ab'::blob as b, '101'::bit as t, 3 as n, "
        "4 as n from games limit 1"
    )
    result = runner.invoke(app, ["sql", sql, "--data", str(sim_dataset_2p), "--format", format])
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    if format == "json":
        assert json.loads(result.stdout) == [
            {"l": "[1, 2]", "s": "{'a': 1}", "i": "1 day", "b": "ab", "t": "101", "n": 3, "n_1": 4}
        ]
    elif format == "csv":
        assert result.stdout == "l,s,i,b,t,n,n_1\n\"[1, 2]\",{'a': 1},1 day,ab,101,3,4\n"
    else:
        assert "{'a': 1}" in result.stdout and "1 day" in result.stdout


def test_maps_and_unions_print_as_text(sim_dataset_2p: Path) -> None:
    """CSV cannot write a map, and polars cannot hold a union at all: both come out as DuckDB's text."""
    sql = "select map {'a': 1} as m, union_value(k := 2) as u"
    result = runner.invoke(app, ["sql", sql, "--data", str(sim_dataset_2p), "--format", "csv"])
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    assert result.stdout == "m,u\n{a=1},2\n"


def test_a_column_name_with_a_double_quote_keeps_its_name_when_printed_as_text(sim_dataset_2p: Path) -> None:
    """A nested column turned into text keeps its name, a double quote in it included."""
    sql = 'select [1, 2] as "say ""hi""", 3 as n'
    result = runner.invoke(app, ["sql", sql, "--data", str(sim_dataset_2p), "--format", "csv"])
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    assert result.stdout == '"say ""hi""",n\n"[1, 2]",3\n'


def test_cli_no_rows_is_a_valid_empty_output_and_a_note(sim_dataset_2p: Path) -> None:
    result = runner.invoke(app, ["sql", "select * from games where false", "--data", str(sim_dataset_2p), "--format",
                                 "json"])  # fmt: skip
    assert result.exit_code == 0 and json.loads(result.stdout) == [] and result.stderr == "note: no rows\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["select 1"], "error: --data is required: the datasets to query"),
        (["select 1", "--data", "nowhere"], "error: nowhere does not exist or is not a folder"),
        (["selec 1", "--data", "{data}"], 'error: query: Parser Error: syntax error at or near "selec"'),
        (["select 1", "--data", "{data}", "--format", "xml"], "error: unknown format 'xml'"),
        (["--data", "{data}"], "error: no query"),
    ],
)
def test_cli_bad_input_is_one_line_and_exit_code_1(sim_dataset_2p: Path, args: list[str], message: str) -> None:
    result = runner.invoke(app, ["sql", *(a.replace("{data}", str(sim_dataset_2p)) for a in args)])
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1, result.stderr


def test_a_table_shows_its_first_rows_and_csv_or_json_every_row(sim_dataset_2p: Path) -> None:
    """A Markdown table of millions of rows takes minutes to lay out: a table stops at --max-rows (and says
    so on stderr); CSV and JSON, meant for programs, always hold every row."""
    frame = run_query("select seq from events order by dataset, game_id, hand_no, seq", sim_dataset_2p)
    assert frame is not None and frame.height > 1000
    text, left_out = render_result(frame, "table")
    assert left_out == frame.height - 1000 and len(text.splitlines()) == 2 + 1000
    assert render_result(frame, "table", max_rows=0) == (render_result(frame, "table", frame.height)[0], 0)
    assert render_result(frame, "csv", max_rows=5)[1] == 0
    assert len(render_result(frame, "csv", max_rows=5)[0].splitlines()) == 1 + frame.height
    with pytest.raises(QueryError, match="--max-rows must be 0"):
        render_result(frame, "table", -1)
    cli = runner.invoke(app, ["sql", "select seq from events", "--data", str(sim_dataset_2p), "--max-rows", "3"])
    assert cli.exit_code == 0 and len(cli.stdout.splitlines()) == 2 + 3
    assert cli.stderr == f"note: the first 3 of {frame.height:,} rows; --max-rows 0 or --format csv shows every row\n"
    negative = runner.invoke(app, ["sql", "select 1", "--data", str(sim_dataset_2p), "--max-rows", "-1"])
    # refused as --games -5 is, before the query runs: one error line, exit 1
    assert negative.exit_code == 1 and negative.stderr == "error: --max-rows must be 0 (every row) or more, not -1\n"


ENDLESS = "select count(*) from range(100000) a, range(100000) b where a.range + b.range = -1"
"""10^10 pairs: over a minute of DuckDB's work, which nothing but an interrupt ends sooner."""


def test_ctrl_c_stops_a_query_that_duckdb_is_executing(ctrl_c_heard: None) -> None:
    """Python hears Ctrl-C only between two steps of Python code: a query run in the main thread went on to
    its end. ``interruptible`` runs it in a thread, interrupts it on Ctrl-C, and the connection closes."""
    con = duckdb.connect()
    timer = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT))
    started = time.monotonic()
    try:
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            interruptible(con, lambda: con.sql(ENDLESS).fetchall())
    finally:
        timer.cancel()
    assert time.monotonic() - started < 20
    con.close()  # not busy: the query stopped


def test_ctrl_c_during_truc_sql_is_one_line(sim_dataset_2p: Path) -> None:
    """Ctrl-C in a long query ends ``truc sql`` with one line and 130; and nothing reaches standard output
    meanwhile (DuckDB drew its progress bar there after 2 s, inside the CSV a user was writing)."""
    process = subprocess.Popen(
        [sys.executable, "-c", "from pipeline.cli import main; main()", "sql", "--data", str(sim_dataset_2p), ENDLESS],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 60
    while _cpu_seconds(process.pid) < 7:  # start-up and staging take under 2 s: the query has run over 2 s
        assert process.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    try:
        stdout, stderr = process.communicate(timeout=30)
    finally:
        process.kill()
    assert (process.returncode, stderr.decode(), stdout) == (130, "error: interrupted\n", b"")


def _cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process and its threads so far (``/proc/PID/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
