"""No output writes a value's escape sequence raw, and no CSV cell starts a live spreadsheet formula.

The importer refuses control characters in names and tags, but a dataset written before it did, or by
another tool, may hold them, and a query makes any text (``chr(27)``). The datasets here are simulated,
then their seats table rewritten with pyarrow to name the seats as an attacker would.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipeline import parts, printable, store
from pipeline.cli import app
from pipeline.simulate import SimulationSpec, simulate
from pipeline.stats import render

TITLE = "\x1b]0;pwned\x07"
"""Sets the terminal's title (OSC 0, ended by BEL)."""

FORMULA = '=HYPERLINK("http://x")'
NAMES = (f"Anna{TITLE}", FORMULA)
RAW = ("\x1b", "\x07", "\x9b", "\u2028")

runner = CliRunner()


def rename_seats(data: Path, names: tuple[str, ...]) -> None:
    """Rewrite the seats table of ``data`` so that seat k is the player ``names[k]``."""
    for part in store.table_files(data, "seats"):
        table = pq.read_table(part, schema=parts.SCHEMAS["seats"])
        seats = table.column("seat").to_pylist()
        players = pa.array([names[seat] for seat in seats], pa.string())
        table = table.set_column(table.schema.get_field_index("player"), "player", players)
        pq.write_table(table, part)
    store.write_manifest(data, store.read_manifest(data))  # the parts rewritten, listed again


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """20 games of 2-player Catalan Truc whose seats are named ``NAMES``, in a folder whose name holds ESC."""
    out = tmp_path_factory.mktemp("hostile") / "run\x1b[2J"
    simulate(SimulationSpec("catalan", 20, 5, {"players": "2"}, "threshold", {1: "random"}, workers=1), out)
    rename_seats(out, NAMES)
    return out


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def assert_no_raw_control(text: str) -> None:
    assert not any(char in text for char in RAW), repr(text[:300])


def test_escaped_writes_every_character_that_is_not_text_as_python_does() -> None:
    assert printable.escaped(f"a{TITLE}b\u2028\U0001ffff\tc") == "a\\x1b]0;pwned\\x07b\\u2028\\U0001ffff\\tc"
    assert printable.escaped("Anna | Pere, «ç»") == "Anna | Pere, «ç»"
    assert printable.escaped("ab\u202ecd") == "ab\\u202ecd"  # a right-to-left override reorders what follows
    assert printable.escaped("שלום مرحبا") == "שלום مرحبا"  # right-to-left names need no control


def test_not_text_finds_each_character_of_the_class_alone_or_among_plain_ascii() -> None:
    """``not_text`` skips its search for plain ASCII: every character, alone and between ASCII letters, is found
    exactly when the class holds it (a tab only when tabs are refused)."""
    for code in [*range(0x100), 0x2028, 0x2029, *range(0x202A, 0x202F), 0xFDD0, 0xFFFE, 0x10FFFF, 0x1F600]:
        char = chr(code)
        in_class = printable.NOT_TEXT.fullmatch(char) is not None
        for text in (char, f"Anna {char} Pere"):
            assert (printable.not_text(text, tab=False) is not None) == in_class, hex(code)
            assert (printable.not_text(text, tab=True) is not None) == (in_class and char != "\t"), hex(code)


@pytest.mark.parametrize(
    ("text", "cell"),
    [
        (FORMULA, "'" + FORMULA),
        ("+1+2", "'+1+2"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "\\tx"),  # a tab escaped cannot start a formula any more
        ("-3", "-3"),  # a plain number stays a number
        ("-1.5e3", "-1.5e3"),
        ("a=b", "a=b"),
        ("", ""),
    ],
)
def test_a_spreadsheet_cell_starts_no_formula(text: str, cell: str) -> None:
    assert printable.spreadsheet_cell(text) == cell


def test_stats_table_shows_the_names_escaped(hostile: Path) -> None:
    code, out, err = run("stats", "player_results", "--data", str(hostile), "--columns", "player,hands")
    assert code == 0, err
    assert_no_raw_control(out + err)
    assert "Anna\\x1b]0;pwned\\x07" in out and FORMULA in out


def test_stats_csv_neutralises_formulas_and_keeps_numbers(hostile: Path) -> None:
    code, out, err = run(
        "stats", "player_results", "--data", str(hostile), "--format", "csv", "--columns", "player,mean_net_points"
    )
    assert code == 0, err
    assert_no_raw_control(out)
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {row["player"] for row in rows} == {"Anna\\x1b]0;pwned\\x07", "'" + FORMULA}
    margins = [float(row["mean_net_points"]) for row in rows]
    assert min(margins) < 0  # a negative number is written as a number, not guarded
    assert not any(row["mean_net_points"].startswith("'") for row in rows)


def test_stats_json_escapes_and_keeps_the_value(hostile: Path) -> None:
    code, out, _ = run("stats", "player_results", "--data", str(hostile), "--format", "json", "--columns", "player")
    assert code == 0
    assert_no_raw_control(out)
    assert {row["player"] for row in json.loads(out)} == set(NAMES)


def test_the_notes_name_the_folder_escaped(hostile: Path) -> None:
    code, _, err = run("stats", "game_results", "--data", str(hostile), "--data", str(hostile) + "/")
    assert code == 0
    assert_no_raw_control(err)


@pytest.mark.parametrize("format", ["table", "csv", "json"])
def test_sql_results_hold_no_raw_control_character(hostile: Path, format: str) -> None:
    query = (
        "select player, chr(27) || ']0;x' || chr(7) as made, chr(155) || '31m' as c1, "
        "'=1+1' as formula, -2 as n from seats where hand_no = 1 limit 4"
    )
    code, out, err = run("sql", "--data", str(hostile), "--format", format, query)
    assert code == 0, err
    assert_no_raw_control(out)
    if format == "csv":
        rows = list(csv.DictReader(io.StringIO(out)))
        assert {row["formula"] for row in rows} == {"'=1+1"} and {row["n"] for row in rows} == {"-2"}
        assert {row["made"] for row in rows} == {"\\x1b]0;x\\x07"}
    if format == "json":
        assert {row["made"] for row in json.loads(out)} == {"\x1b]0;x\x07"}  # the same value, escaped as JSON


def test_a_column_name_is_escaped_and_guarded_too() -> None:
    frame = pl.DataFrame({"=cmd\x1b": ["x"]})
    assert render(frame, "csv").splitlines()[0] == "'=cmd\\x1b"
    assert "=cmd\\x1b" in render(frame, "table")


def test_datasets_table_shows_the_folder_escaped(hostile: Path) -> None:
    for format in ("table", "csv", "json"):
        code, out, err = run("datasets", "--data", str(hostile), "--format", format)
        assert code == 0, err
        assert_no_raw_control(out)
    assert "run\\x1b[2J" in run("datasets", "--data", str(hostile))[1]


def test_export_refuses_a_name_a_history_cannot_hold(hostile: Path, tmp_path: Path) -> None:
    """The .truc format cannot hold an escape sequence (the reader refuses it): export says which game and
    tag, and writes nothing, rather than write a history that would not import (or act on a terminal)."""
    out = tmp_path / "out.truc"
    code, stdout, err = run("export", "--data", str(hostile), "--out", str(out), "--quiet")
    assert code == 1
    assert "game 0 cannot be exported: Seat0's value holds U+001B, a control character" in err
    assert_no_raw_control(stdout + err)
    assert not out.exists()
    code, stdout, err = run("export", "--data", str(hostile), "--out", "-", "--quiet")
    assert code == 1
    assert_no_raw_control(stdout + err)


def test_an_error_quoting_a_folder_shows_it_escaped(tmp_path: Path) -> None:
    code, out, err = run("stats", "game_results", "--data", str(tmp_path / f"missing{TITLE}"))
    assert code == 1 and err.startswith("error: ") and "missing\\x1b]0;pwned\\x07" in err
    assert_no_raw_control(out + err)
