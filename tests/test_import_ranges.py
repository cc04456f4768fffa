"""A history file read in ranges of whole games by worker processes (``pipeline.history.ranges``): the same
games, rows, errors (file:line), duplicates and refusals as one reading of the whole file, whatever the number
of workers and wherever the cuts fall, including where a cut is not a game boundary (a blank line inside a tag
section, a comment over several lines) and where a French rubber's match runs across a cut."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from pipeline import parts
from pipeline.history import HistoryError, check_files, export_dataset, import_files, reader
from pipeline.history import ranges as history_ranges
from pipeline.history.ranges import Range, file_ranges
from pipeline.parts import read_table
from pipeline.simulate import SimulationSpec, simulate
from pipeline.store import TABLES

DATA = Path(__file__).parent / "data"
TWO_PLAYERS = (DATA / "canonical" / "two_players.truc").read_text("utf-8")
SIM_2P = (DATA / "canonical" / "sim_2p_threshold.truc").read_text("utf-8")
INVALID = (DATA / "malformed" / "accept_nothing_pending.truc").read_text("utf-8")
WHOLE = 1 << 40
"""A range size no test file reaches: the file read as one range, the reading to compare with."""


@pytest.fixture(scope="module")
def rubber(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The games of 3 matches of 2-player French Truc, as exported (two games each)."""
    folder = tmp_path_factory.mktemp("rubber")
    simulate(SimulationSpec("french", 3, seed=3, options={"players": "2"}), folder / "run")
    export_dataset(folder / "run", folder / "run.truc")
    text = (folder / "run.truc").read_text("utf-8")
    return ["[Variant" + game for game in text.split("[Variant") if game]


def _tables(folder: Path) -> dict[str, pl.DataFrame]:
    return {name: pl.from_arrow(read_table(folder, name)) for name in TABLES}  # type: ignore[misc]


def _cut_everywhere(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(history_ranges, "RANGE_BYTES", 1)  # a cut at every game boundary found


def _awkward(rubber: list[str]) -> str:
    """Valid and invalid games, duplicates, CRLF, a blank line inside a tag section, a comment over several
    lines holding what looks like a game, and rubbers whose matches run across game boundaries."""
    header_gap = SIM_2P.replace("\n[FirstDealer", "\n\n[FirstDealer", 1)
    assert header_gap != SIM_2P
    comment = "{ a comment over lines\n\n" + SIM_2P + "\n}\n"
    decided_twice = rubber[2].replace('[_Match "1"]', '[_Match "0"]')  # a third game of match 0, already won
    games = [
        TWO_PLAYERS,
        SIM_2P,
        INVALID,
        header_gap,
        TWO_PLAYERS.replace('"Anna"', '"Ada"'),  # the first game again, other names
        comment + TWO_PLAYERS.replace("\n", "\r\n"),
        *rubber[:2],
        decided_twice,
        *rubber[3:],
        INVALID,
        SIM_2P,
    ]
    return "\n".join(games)


@pytest.mark.parametrize("workers", [1, 2])
def test_ranges_give_the_reading_of_the_whole_file(
    workers: int, rubber: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "awkward.truc"
    path.write_text(_awkward(rubber), "utf-8")
    monkeypatch.setattr(history_ranges, "RANGE_BYTES", WHOLE)
    assert len(file_ranges(Range(path, str(path), path.name))) == 1
    whole_check = check_files([path], workers=1)
    whole = import_files([path], tmp_path / "whole", skip_invalid=True, workers=1)
    once = import_files([path], tmp_path / "once", skip_invalid=True, dedupe=True, workers=1)
    with pytest.raises(HistoryError) as whole_refusal:
        import_files([path], tmp_path / "strict", workers=1)
    _cut_everywhere(monkeypatch)
    assert len(file_ranges(Range(path, str(path), path.name))) > 10
    assert check_files([path], workers=workers) == whole_check
    assert len(whole_check.invalid) == 3  # two refusals and the third game of a match already won
    assert "match 0 was decided by the game at line" in whole_check.invalid[1]
    cut = import_files([path], tmp_path / "cut", skip_invalid=True, workers=workers)
    assert (cut.games, cut.hands, cut.invalid, cut.duplicates) == (
        whole.games,
        whole.hands,
        whole.invalid,
        whole.duplicates,
    )
    assert len(cut.duplicates) > 2  # the renamed game, the simulated games again (with a gap, and last)
    for name, table in _tables(tmp_path / "whole").items():
        assert_frame_equal(_tables(tmp_path / "cut")[name], table)
    deduped = import_files([path], tmp_path / "cut-once", skip_invalid=True, dedupe=True, workers=workers)
    assert (deduped.games, deduped.duplicates) == (once.games, once.duplicates)
    assert (once.games, once.duplicates) == (whole.games - len(whole.duplicates), whole.duplicates)
    for name, table in _tables(tmp_path / "once").items():
        assert_frame_equal(_tables(tmp_path / "cut-once")[name], table)
    with pytest.raises(HistoryError) as cut_refusal:
        import_files([path], tmp_path / "strict", workers=workers)
    assert str(cut_refusal.value) == str(whole_refusal.value) and cut_refusal.value.line == INVALID_LINE(path)
    assert not (tmp_path / "strict").exists()


def INVALID_LINE(path: Path) -> int:  # noqa: N802
    """The line of the first invalid game's refusal: its '1 accept' line, in the file."""
    text = path.read_text("utf-8")
    start = text.index(INVALID)
    return text[:start].count("\n") + INVALID[: INVALID.index("1 accept")].count("\n") + 1


def test_a_cut_inside_a_match_keeps_the_match(
    rubber: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A range whose first game continues a match of the range before is read again from that match: a game
    of a match already decided is refused though the deciding game is in another range."""
    path = tmp_path / "rubber.truc"
    text = "\n".join([*rubber[:2], rubber[2].replace('[_Match "1"]', '[_Match "0"]'), *rubber[3:]])
    path.write_text(text, "utf-8")
    _cut_everywhere(monkeypatch)
    assert len(file_ranges(Range(path, str(path), path.name))) == 6
    with pytest.raises(HistoryError, match="match 0 was decided by the game at line") as refused:
        import_files([path], tmp_path / "data", workers=2)
    assert refused.value.line == text[: text.index('[_Match "0"]', len(rubber[0]) + len(rubber[1]))].count("\n") + 1
    result = import_files([path], tmp_path / "lenient", workers=2, skip_invalid=True)
    assert result.games == 5 and len(result.invalid) == 1


@pytest.mark.parametrize("block", [3, 64, 1 << 20])
def test_ranges_start_at_the_line_they_hold(block: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each range knows its first line in the file, whatever the line ends (LF, CRLF; CR alone has no cut) and
    wherever the blocks the file is read in end."""
    _cut_everywhere(monkeypatch)
    monkeypatch.setattr(history_ranges, "BLOCK", block)
    for end in ("\n", "\r\n"):
        text = "\n".join([TWO_PLAYERS, SIM_2P, TWO_PLAYERS]).replace("\n", end)  # 5 games
        path = tmp_path / "ends.truc"
        path.write_bytes(text.encode("utf-8"))
        parts = file_ranges(Range(path, str(path), path.name))
        data = text.encode("utf-8")
        assert len(parts) == 5 and all(data[part.start : part.start + 9] == b"[Variant " for part in parts)
        assert [part.line for part in parts] == [data[: part.start].count(end.encode()) + 1 for part in parts]
        assert [part.end for part in parts] == [part.start for part in parts[1:]] + [None]
    path.write_bytes("\n".join([TWO_PLAYERS, SIM_2P]).replace("\n", "\r").encode("utf-8"))
    assert len(file_ranges(Range(path, str(path), path.name))) == 1


def test_import_and_export_on_one_or_two_workers_give_the_same_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    simulate(SimulationSpec("catalan", 60, 5, {"players": "2"}), tmp_path / "sim")
    monkeypatch.setattr(history_ranges, "RANGE_BYTES", 4096)
    monkeypatch.setattr(parts, "ROW_GROUP_ROWS", 300)
    monkeypatch.setattr(parts, "PART_ROW_GROUPS", 1)
    texts = []
    for workers in (1, 2):
        export_dataset(tmp_path / "sim", tmp_path / f"{workers}.truc", workers=workers)
        texts.append((tmp_path / f"{workers}.truc").read_bytes())
    assert texts[0] == texts[1]
    results = [import_files([tmp_path / "1.truc"], tmp_path / f"back{w}", workers=w) for w in (1, 2)]
    assert results[0].rows == results[1].rows and results[0].games == 60
    for name, table in _tables(tmp_path / "back1").items():
        assert_frame_equal(_tables(tmp_path / "back2")[name], table)
    assert_frame_equal(_tables(tmp_path / "back2")["events"], _tables(tmp_path / "sim")["events"])
    assert len(file_ranges(Range(tmp_path / "1.truc", "1.truc", "1.truc"))) > 10
    files = sorted((tmp_path / "back2" / "events").glob("*.parquet"))
    assert len(files) > 3 and {pl.read_parquet(part).height for part in files[:-1]} == {300}  # sized by rows


def test_a_line_said_again_is_read_at_its_own_number(tmp_path: Path) -> None:
    """The parser remembers the plain hand, action and end lines by their text (``reader._Parser.read``): the
    same text later in the file is the same line at its own number, so that a card played twice is refused at
    the second saying, not the first."""
    lines = SIM_2P.splitlines()
    first = next(n for n, line in enumerate(lines) if " play " in line)
    lines.insert(first + 1, lines[first])  # the same card again, at once
    path = tmp_path / "twice.truc"
    path.write_text("\n".join(lines) + "\n", "utf-8")
    read = history_ranges.read_range(Range(path, str(path), path.name))
    assert read.failed is not None and read.failed.line == first + 2, read.failed
    assert read.failed.text == lines[first].strip()


def test_the_lines_remembered_are_bounded_and_are_copies_at_their_numbers() -> None:
    parser = reader._Parser(reader.Visitor(), "x")
    said = parser.read(3, "0 play 3o", True)
    again = parser.read(9, "0 play 3o", True)
    assert isinstance(again, reader.ActionLine) and again is not said and (said.line, again.line) == (3, 9)
    assert (again.text, again.seat, again.verb, again.args) == ("0 play 3o", 0, "play", ("3o",))
    tag = parser.read(20, '[Variant "catalan"]', True)
    assert isinstance(tag, reader.TagLine) and parser.read(30, '[Variant "catalan"]', True).line == 30
    deal = parser.read(40, "0: 3o 12c 5e", True)
    assert isinstance(deal, reader.DealLine) and "0: 3o 12c 5e" not in parser.known  # deals are not kept
    for number in range(reader.KNOWN_LINES + 10):
        parser.read(number, f"hand {number + 1} dealer 0", True)
    assert len(parser.known) == reader.KNOWN_LINES
