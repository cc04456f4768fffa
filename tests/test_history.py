"""The `.truc` hand-history layer (``pipeline.history``): reader, writer, import and export.

Data under ``tests/data/``:

- ``valid/``: hand-written games illustrating the rules of every variant, each file citing its seed and
  section: Catalan Truc (seed 000), ``french_*`` (seeds 002 and 000), ``trut_base_*`` (seeds 003 and
  001), ``trut_gatinaise_*`` (seed 001), ``trut_gatine_*`` (seed 003), ``valencian_*`` (seed 004); plus
  a tolerant file (BOM, CRLF, comments, odd case, ``??``);
- ``canonical/``: files in the writer's exact form (import each valid file and three small simulations,
  then export): ``export(import(x))`` must give the same bytes;
- ``malformed/``: one broken game per file, each with a ``.expected`` file (``line:`` and ``error:``, a
  substring of the message);
- ``mixed/skip_invalid.truc``: valid and invalid games in one file, for lenient imports.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import re
import shutil
import stat
from pathlib import Path

import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from pipeline import parts, stats
from pipeline.engine.actions import KNOWN_VERBS
from pipeline.engine.game import HandRecord
from pipeline.history import (
    HistoryError,
    ReplayVisitor,
    Visitor,
    check_files,
    export_dataset,
    format_game,
    hand_from_record,
    import_files,
    join_games,
    parse,
    read_file,
    read_text,
    reader,
    record_text,
)
from pipeline.history import io as history_io
from pipeline.history import ranges as history_ranges
from pipeline.parts import read_table
from pipeline.policies import parse_policy
from pipeline.simulate import SimulationSpec, play_game, simulate
from pipeline.store import TABLES, DatasetError, read_manifest, write_manifest
from pipeline.variants import get_variant

DATA = Path(__file__).parent / "data"
VALID = sorted((DATA / "valid").glob("*.truc"))
CANONICAL = sorted((DATA / "canonical").glob("*.truc"))
MALFORMED = sorted((DATA / "malformed").glob("*.truc"))
MIXED = DATA / "mixed" / "skip_invalid.truc"

KEYS = {
    "games": ["game_id"],
    "hands": ["game_id", "hand_no"],
    "seats": ["game_id", "hand_no", "seat"],
    "events": ["game_id", "hand_no", "seq"],
}


def _ids(paths: list[Path]) -> list[str]:
    return [p.name for p in paths]


def _table(root: Path, name: str) -> pl.DataFrame:
    frame = pl.from_arrow(read_table(root, name))
    assert isinstance(frame, pl.DataFrame)
    return frame.sort(KEYS[name])


def _expected(path: Path) -> tuple[int, str]:
    fields = dict(line.split(": ", 1) for line in path.with_suffix(".expected").read_text("utf-8").splitlines() if line)
    return int(fields["line"]), fields["error"]


def _game_text(
    seed: int, options: dict[str, str], policy: str, variant: str = "catalan"
) -> tuple[str, list[HandRecord]]:
    """A simulated game written as canonical text, with the engine's hand records."""
    config = get_variant(variant).configure(options)
    policies = [parse_policy(policy) for _ in range(config.players)]
    game, hands = play_game(config, policies, seed)
    tags = {
        "Variant": variant,
        "Options": config.options_text(),
        "FirstDealer": str(game.first_dealer),
        "Seed": str(seed),
    }
    tags.update({f"Policy{seat}": p.describe() for seat, p in enumerate(policies)})
    tags["Result"] = "-".join(str(score) for score in game.scores[: game.sides])
    return format_game(tags, (hand_from_record(game, h) for h in hands)), hands


# ------------------------------------------------------------------------------------------- valid files


def test_data_folders_are_populated() -> None:
    assert len(VALID) >= 7 and len(CANONICAL) >= len(VALID) and len(MALFORMED) >= 13
    assert {p.name for p in VALID} <= {p.name for p in CANONICAL}


@pytest.mark.parametrize("path", VALID, ids=_ids(VALID))
def test_valid_file_imports(path: Path, tmp_path: Path) -> None:
    result = import_files([path], tmp_path / "data")
    assert result.games >= 1 and result.invalid == []
    games = _table(tmp_path / "data", "games")
    assert games["source"].unique().to_list() == [path.name]
    assert result.hands == _table(tmp_path / "data", "hands").height


@pytest.mark.parametrize("path", VALID, ids=_ids(VALID))
def test_valid_file_replays_like_its_canonical_form(path: Path) -> None:
    tolerant = read_file(path).games
    canonical = read_file(DATA / "canonical" / path.name).games
    assert [g.hands for g in tolerant] == [g.hands for g in canonical]
    assert [g.game.scores for g in tolerant] == [g.game.scores for g in canonical]


@pytest.mark.parametrize("path", VALID, ids=_ids(VALID))
def test_writing_is_idempotent_and_keeps_every_tag(path: Path) -> None:
    records = read_file(path).games
    text = join_games(record_text(r) for r in records)
    again = read_text(text, "again.truc").games
    assert join_games(record_text(r) for r in again) == text
    assert [r.tags for r in again] == [r.tags for r in records]


def test_hand_written_outcomes() -> None:
    """What the rule examples are meant to show (the files' comments cite seed 000)."""
    tricks = read_file(DATA / "valid" / "tricks_4p.truc").games[0].hands
    assert [h.tricks for h in tricks] == [(0, 0), (-1, 1), (0, 0), (-1, -1, -1)]
    assert [h.tie_rule for h in tricks] == [None, "first_decisive", None, "all_tied_eldest"]
    raises = read_file(DATA / "valid" / "raises_4p.truc").games[0].hands
    assert [(h.ended_by, h.stake, h.points) for h in raises] == [
        ("tricks", 3, (3, 0)),
        ("fold", 2, (0, 2)),
        ("fold", 1, (0, 1)),
        ("tricks", 2, (0, 2)),
    ]
    one_card = read_file(DATA / "valid" / "one_card_deal_4p.truc").games[0].hands
    assert [h.cards_dealt for h in one_card] == [1, 1, 3]
    assert one_card[0].tie_rule == "all_tied_eldest" and one_card[0].points == (1, 0)
    hold, both = read_file(DATA / "valid" / "eleven_points_2p.truc").games
    assert [(h.ended_by, h.points) for h in hold.hands[6:]] == [
        ("tricks", (0, 3)),
        ("pass", (0, 1)),
        ("tricks", (3, 0)),
    ]
    assert hold.complete and hold.game.scores == [14, 4]
    assert both.complete and both.game.scores == [12, 11] and both.hands[-1].score_before == (11, 11)
    signals = read_file(DATA / "valid" / "signals_4p.truc").games[0].hands
    assert [h.signals for h in signals] == [("31", "2", "-", "321"), ("-", "3", "3", "1")]


def test_tolerant_file() -> None:
    raw = (DATA / "valid" / "tolerant.truc").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf") and b"\r\n" in raw
    first, second = read_file(DATA / "valid" / "tolerant.truc").games
    assert first.tags["Event"] == "Festa Major; final {round 1}"
    assert first.hands[0].dealt[3][0] == -1  # ?? is an unknown card
    assert second.hands[1].cards_dealt == 1


def test_an_unknown_card_is_exported_as_two_question_marks(tmp_path: Path) -> None:
    """The writer reads a card's text by its index, ``??`` at ``UNKNOWN`` (-1), compiled or not."""
    import_files([DATA / "valid" / "tolerant.truc"], tmp_path / "data")
    export_dataset(tmp_path / "data", tmp_path / "out.truc")
    deals = [line.strip() for line in (tmp_path / "out.truc").read_text().splitlines() if "??" in line]
    assert deals[:3] == ["0: 3o ?? 5e", "1: 7b 1o ??", "2: 2c ?? 6o"]


# --------------------------------------------------------------------------------------- canonical files


@pytest.mark.parametrize("path", CANONICAL, ids=_ids(CANONICAL))
def test_canonical_round_trip_through_a_dataset(path: Path, tmp_path: Path) -> None:
    import_files([path], tmp_path / "data")
    assert export_dataset(tmp_path / "data", tmp_path / "out.truc") >= 1
    assert (tmp_path / "out.truc").read_bytes() == path.read_bytes()


MATCH_TAG_CASES = {  # custom tags after [Result]: (the tags, match_no and match_winner_team columns)
    "rubber": ('[_Match "3"]\n[_MatchWinner "0"]\n[_Note "x"]\n', 3, 0),  # team 0 wins the game 12-10
    "note_first": ('[_Note "first"]\n[_Match "3"]\n', None, None),
    "winner_first": ('[_MatchWinner "1"]\n[_Match "3"]\n', None, None),
    "leading_zero": ('[_Match "007"]\n', None, None),
    "text": ('[_Match "abc"]\n[_MatchWinner "-1"]\n', None, None),
    "superscript": ('[_Match "\u00b2"]\n', None, None),
    "beyond_int64": ('[_Match "99999999999999999999"]\n', None, None),
    "nineteen_digits": ('[_Match "9999999999999999999"]\n', None, None),  # 19 digits, still past int64
    "no_such_team": ('[_Match "0"]\n[_MatchWinner "5"]\n', 0, None),
}


@pytest.mark.parametrize("case", MATCH_TAG_CASES)
def test_match_tags_reach_their_columns_only_when_written_back_as_read(case: str, tmp_path: Path) -> None:
    # FORMAT.md: custom tags are "kept and written back", and export(import(canonical)) is byte-identical.
    # A French rubber's _Match and _MatchWinner fill columns when those give them back exactly; any other
    # value or order stays text in games.tags (it crashed the import, or was dropped, reordered or changed)
    tags, match_no, winner = MATCH_TAG_CASES[case]
    text = (DATA / "canonical" / "french_2p.truc").read_text(encoding="utf-8")
    text = text.replace('[Result "12-10"]\n', '[Result "12-10"]\n' + tags, 1)
    source = tmp_path / "in.truc"
    source.write_text(text, encoding="utf-8")
    assert join_games(record_text(r) for r in read_text(text).games) == text  # canonical as written
    import_files([source], tmp_path / "data")
    games = read_table(tmp_path / "data", "games")
    assert games["match_no"].to_pylist() == [match_no] and games["match_winner_team"].to_pylist() == [winner]
    export_dataset(tmp_path / "data", tmp_path / "out.truc")
    assert (tmp_path / "out.truc").read_text(encoding="utf-8") == text


@pytest.mark.parametrize("path", CANONICAL, ids=_ids(CANONICAL))
def test_canonical_round_trip_as_text(path: Path) -> None:
    text = path.read_bytes().decode("utf-8")
    assert join_games(record_text(r) for r in read_text(text).games) == text


def test_export_of_several_files_numbers_games_across_files(tmp_path: Path) -> None:
    paths = [DATA / "canonical" / "two_players.truc", DATA / "canonical" / "eleven_points_2p.truc"]
    result = import_files(paths, tmp_path / "data")
    assert result.games == 3
    games = _table(tmp_path / "data", "games")
    assert games["game_id"].to_list() == [0, 1, 2]
    assert games["source"].to_list() == ["two_players.truc", "eleven_points_2p.truc", "eleven_points_2p.truc"]
    assert games["complete"].to_list() == [False, True, True]
    assert games["seed"].null_count() == 3
    assert export_dataset(tmp_path / "data", tmp_path / "all.truc") == 3
    assert (tmp_path / "all.truc").read_text("utf-8") == "\n".join(p.read_text("utf-8") for p in paths)


def test_a_dataset_keeps_seat_names_and_the_other_tags(tmp_path: Path) -> None:
    # FORMAT.md "Tags": seat names, Event, Site, Date, Round and custom _tags; they go to seats.player and
    # games.tags (JSON), so that text -> dataset -> text keeps them (the canonical files above check it)
    import_files([DATA / "canonical" / "two_players.truc"], tmp_path / "data")
    games, seats = _table(tmp_path / "data", "games"), _table(tmp_path / "data", "seats")
    assert json.loads(games["tags"][0]) == {
        "Event": "Friendly",
        "Round": "2",
        "_Note": 'escaped "quotes" and a backslash \\ in a tag value',
    }
    names = seats.group_by("seat").agg(pl.col("player").unique()).sort("seat")
    assert names["player"].to_list() == [["Anna"], ["Pere"]]  # on every hand's rows
    with duckdb.connect() as con:  # queryable as JSON
        event = con.sql(
            f"select json_extract_string(tags, '$.Event') from read_parquet('{tmp_path / 'data' / 'games'}/*.parquet')"
        ).fetchall()
    assert event == [("Friendly",)]


def test_a_seed_of_zero_is_kept_through_a_dataset(tmp_path: Path) -> None:
    """``[Seed "0"]`` is a seed like any other: the dataset holds 0 (not null) and the export writes the tag
    back, so the file comes out as it went in."""
    text = (DATA / "canonical" / "two_players.truc").read_text("utf-8")
    text = text.replace('[FirstDealer "0"]\n', '[FirstDealer "0"]\n[Seed "0"]\n', 1)
    assert join_games(record_text(r) for r in read_text(text).games) == text  # canonical as written
    (tmp_path / "seed0.truc").write_text(text, "utf-8")
    import_files([tmp_path / "seed0.truc"], tmp_path / "data")
    assert _table(tmp_path / "data", "games")["seed"].to_list() == [0]
    export_dataset(tmp_path / "data", tmp_path / "out.truc")
    assert (tmp_path / "out.truc").read_text("utf-8") == text


def test_a_simulated_game_has_no_tags_nor_player_names(tmp_path: Path) -> None:
    simulate(SimulationSpec("french", 2, seed=3), tmp_path / "sim")  # a rubber: _Match tags go to columns
    games = _table(tmp_path / "sim", "games")
    assert games.height > 2 and games["tags"].null_count() == games.height
    assert _table(tmp_path / "sim", "seats")["player"].null_count() == len(_table(tmp_path / "sim", "seats"))
    export_dataset(tmp_path / "sim", tmp_path / "sim.truc")
    import_files([tmp_path / "sim.truc"], tmp_path / "again")
    again = _table(tmp_path / "again", "games")
    assert again["match_no"].to_list() == games["match_no"].to_list() and again["tags"].null_count() == games.height


# -------------------------------------------------------------------------------------- malformed files


@pytest.mark.parametrize("path", MALFORMED, ids=_ids(MALFORMED))
def test_malformed_file_fails_with_its_line_and_message(path: Path, tmp_path: Path) -> None:
    line, message = _expected(path)
    out = tmp_path / "data"
    with pytest.raises(HistoryError) as caught:
        import_files([path], out)
    error = caught.value
    assert error.line == line, str(error)
    assert message in str(error)
    assert str(error).startswith(f"{path}:{line}: ")
    assert not out.exists() and list(tmp_path.iterdir()) == []  # nothing written, no temporary left


def test_every_malformed_file_has_an_expectation() -> None:
    assert all(p.with_suffix(".expected").is_file() for p in MALFORMED)


def test_error_names_file_line_action_and_rule() -> None:
    text = (DATA / "malformed" / "retruc_by_raisers.truc").read_text("utf-8")
    with pytest.raises(HistoryError) as caught:
        read_text(text, "games.truc")
    error = caught.value
    assert (error.line, error.text, error.rule) == (12, "0 retruc", "raise-right")
    assert str(error) == (
        "games.truc:12: '0 retruc': only the team that accepted the last raise may raise again [raise-right]"
    )


# --------------------------------------------------------------------------------------- lenient reading


def test_skip_invalid_imports_the_valid_games_and_reports_each_invalid_one(tmp_path: Path) -> None:
    result = import_files([MIXED], tmp_path / "data", skip_invalid=True)
    assert (result.games, len(result.invalid)) == (3, 3)
    assert [e.split(":")[1] for e in result.invalid] == ["23", "37", "62"]
    assert "[raise-right]" in result.invalid[0] and "[hand-unfinished]" in result.invalid[2]
    manifest = json.loads((tmp_path / "data" / "manifest.json").read_text("utf-8"))
    assert manifest["kind"] == "import" and manifest["invalid"] == result.invalid
    assert manifest["sources"] == [str(MIXED)] and manifest["rows"] == result.rows
    assert _table(tmp_path / "data", "games")["players"].to_list() == [2, 2, 4]


def test_strict_import_of_a_mixed_file_fails_and_writes_nothing(tmp_path: Path) -> None:
    with pytest.raises(HistoryError, match=r"skip_invalid.truc:23: '0 retruc'"):
        import_files([DATA / "valid" / "two_players.truc", MIXED], tmp_path / "data")
    assert list(tmp_path.iterdir()) == []


def test_lenient_reader_keeps_errors_per_game() -> None:
    visitor = ReplayVisitor("mixed.truc", strict=False)
    parse(MIXED.read_text("utf-8"), visitor, "mixed.truc")
    assert [g.line for g in visitor.games] == [3, 26, 42]
    assert [e.line for e in visitor.errors] == [23, 37, 62]


def test_skip_invalid_with_no_valid_game_writes_nothing_and_says_why(tmp_path: Path) -> None:
    # an empty dataset would hide the failure (exit code 0, no games, invisible under a folder of runs)
    bad = [DATA / "malformed" / "wrong_result.truc", DATA / "malformed" / "undecodable.truc"]
    with pytest.raises(history_io.NothingToImport, match=r"no valid game to import \(2 problems\)") as raised:
        import_files(bad, tmp_path / "data", skip_invalid=True)
    assert [problem.split(":")[0] for problem in raised.value.invalid] == [str(path) for path in bad]
    assert list(tmp_path.iterdir()) == []
    result = runner_import(bad, tmp_path / "data")
    assert result.exit_code == 1 and result.stdout == "" and list(tmp_path.iterdir()) == []
    assert result.stderr.splitlines()[:2] == [f"skipped: {problem}" for problem in raised.value.invalid]
    assert result.stderr.splitlines()[2:] == ["error: no valid game to import (2 problems); nothing was written"]


def runner_import(paths: list[Path], out: Path):
    from typer.testing import CliRunner

    from pipeline.cli import app

    return CliRunner().invoke(app, ["import", *map(str, paths), "--out", str(out), "--skip-invalid", "--quiet"])


def test_skip_invalid_reports_an_undecodable_file(tmp_path: Path) -> None:
    bad = DATA / "malformed" / "undecodable.truc"
    result = import_files([bad, DATA / "valid" / "two_players.truc"], tmp_path / "data", skip_invalid=True)
    assert result.games == 1 and len(result.invalid) == 1 and "not UTF-8" in result.invalid[0]


def test_files_joined_with_cat_keep_their_bom_out_of_the_way() -> None:
    game = (DATA / "canonical" / "two_players.truc").read_text("utf-8")
    assert len(read_text("\ufeff" + game + "\n\ufeff" + game).games) == 2


def test_a_deal_after_the_game_is_over_says_the_game_is_over() -> None:
    # a 'hand K+1' line would be refused too: the message must not suggest one
    game = (DATA / "canonical" / "french_2p.truc").read_text("utf-8")  # played to its end
    with pytest.raises(HistoryError, match=r"the game is over \(\d+-\d+\): no deal may follow \[game-over\]"):
        read_text(game + "  0: 7h 8h 9h\n  1: 7c 8c 9c\n")


@pytest.mark.parametrize("name", ["_", "_Née"])
def test_a_custom_tag_name_of_the_wrong_form_is_named_as_such(name: str) -> None:
    with pytest.raises(
        HistoryError, match=f"a custom tag's name is '_' then ASCII letters, digits or '_', not '{name}'"
    ):
        read_text(f'[Variant "catalan"]\n[{name} "x"]\n')


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('[_table-no "4"]', "a custom tag's name is '_' then ASCII letters, digits or '_', not '_table-no'"),
        ('[Round-2 "4"]', "a tag's name is a letter, then letters, digits or '_', not 'Round-2'"),
        # an unescaped quote: the ';' after it starts a comment, so the line seems to lack its ']'
        ('[Site "Bar "El Sol; Gràcia"]', "text follows the value's closing quote: a double quote inside a value is"),
        ('[Event "The "Big" one"]', "text follows the value's closing quote"),
        ('[Event "x"', "a tag must end with ']'"),
    ],
)
def test_a_malformed_tag_is_named_for_its_mistake(line: str, message: str) -> None:
    with pytest.raises(HistoryError, match=re.escape(message)):
        read_text(f'[Variant "catalan"]\n{line}\n')


def test_a_closing_brace_outside_a_comment_is_named_at_its_line() -> None:
    game = (DATA / "canonical" / "two_players.truc").read_text("utf-8").replace("  end 1 0\n", "  end 1 0 }\n", 1)
    with pytest.raises(HistoryError, match=r":\d+: 'end 1 0 }': this '}' closes no '\{' comment"):
        read_text(game)
    assert read_text(game.replace('[Event "', '[Event "a } in a value, ').replace(" }\n", "\n")).games


def test_a_non_utf8_byte_is_placed_on_its_line_whatever_the_line_ends(tmp_path: Path) -> None:
    lines = (DATA / "canonical" / "two_players.truc").read_bytes().split(b"\n")
    lines[5] += b" ; caf\xe9"  # a Latin-1 byte in a comment on line 6
    for end in (b"\n", b"\r\n", b"\r"):
        path = tmp_path / "latin1.truc"
        path.write_bytes(end.join(lines))
        with pytest.raises(HistoryError, match=r"latin1.truc:6: byte 0xe9 is not UTF-8"):
            read_file(path)


def test_a_comment_never_closed_is_reported_after_its_game_s_own_error() -> None:
    # the '{' swallows the rest of the file, the next game too: a lenient reading must say so, even when
    # the game it opens in has failed already
    game = (DATA / "canonical" / "two_players.truc").read_text("utf-8")
    broken = game.replace("  end 1 0\n", "  end 0 1\n  { never closed\n", 1)
    visitor = ReplayVisitor("open.truc", strict=False)
    parse(broken + "\n" + game, visitor, "open.truc")
    messages = [str(e) for e in visitor.errors]
    assert len(messages) == 2 and "[end]" in messages[0] and "never closed" in messages[1], messages
    assert not visitor.games


# ------------------------------------------------------------------------------------------------ check


def test_check_reports_every_invalid_game_as_the_lenient_import_does(tmp_path: Path) -> None:
    """``check_files`` finds what ``import_files(skip_invalid=True)`` skips, counts the same valid games
    and hands, and writes nothing."""
    paths = [DATA / "valid" / "two_players.truc", MIXED, DATA / "malformed" / "undecodable.truc"]
    checked = check_files(paths)
    imported = import_files(paths, tmp_path / "data", skip_invalid=True)
    assert (checked.files, checked.games, checked.hands) == (3, imported.games, imported.hands) == (3, 4, 6)
    assert checked.invalid == imported.invalid and len(checked.invalid) == 4 and not checked.ok
    assert [e.split(":")[1] for e in checked.invalid[:3]] == ["23", "37", "62"]


@pytest.mark.parametrize("path", MALFORMED, ids=_ids(MALFORMED))
def test_check_finds_each_malformed_file_at_its_line(path: Path) -> None:
    line, message = _expected(path)
    result = check_files([path])
    assert len(result.invalid) == 1 and result.games == 0
    assert result.invalid[0].startswith(f"{path}:{line}: ") and message in result.invalid[0]


def test_check_passes_every_valid_file_and_reads_a_stream() -> None:
    result = check_files(VALID)
    assert result.ok and result.files == len(VALID) and result.games >= len(VALID)
    assert result.hands == sum(len(g.hands) for path in VALID for g in read_file(path).games)
    piped = check_files([io.BytesIO(MIXED.read_bytes())])
    assert [e.split(":")[:2] for e in piped.invalid] == [["<stdin>", "23"], ["<stdin>", "37"], ["<stdin>", "62"]]


def test_a_folder_stands_for_its_truc_files_in_name_order(tmp_path: Path) -> None:
    folder = DATA / "valid"
    assert check_files([folder]) == check_files(VALID)
    result = import_files([folder], tmp_path / "data")
    manifest = json.loads((tmp_path / "data" / "manifest.json").read_text("utf-8"))
    assert manifest["sources"] == [str(path) for path in VALID] and result.games == check_files(VALID).games
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "notes.txt").write_text("not a history\n", "utf-8")
    with pytest.raises(HistoryError, match="empty: is a folder without .truc files"):
        import_files([tmp_path / "empty", folder], tmp_path / "strict")
    checked = check_files([tmp_path / "empty", folder])  # one problem, and the other files still checked
    assert checked.invalid == [f"{tmp_path / 'empty'}: is a folder without .truc files"]
    assert (checked.files, checked.games) == (len(VALID), check_files(VALID).games)


def test_a_file_named_twice_is_read_once(tmp_path: Path) -> None:
    """Named twice, or alone and through its folder (by another spelling of its path too), a file's games
    would be imported twice: it is read once, where first named, as ``--data`` reads a dataset once."""
    two = DATA / "valid" / "two_players.truc"
    alone = import_files([two], tmp_path / "alone")
    twice = import_files([two, DATA / "valid", DATA / "valid" / ".." / "valid" / two.name], tmp_path / "twice")
    everything = import_files([DATA / "valid"], tmp_path / "everything")
    assert twice.games == everything.games and alone.games < twice.games
    manifest = json.loads((tmp_path / "twice" / "manifest.json").read_text("utf-8"))
    assert manifest["sources"] == [str(two), *(str(path) for path in VALID if path != two)]
    assert check_files([two, two]).games == check_files([two]).games


def test_a_folder_s_subfolders_are_left_alone_even_named_like_a_history(tmp_path: Path) -> None:
    """A folder stands for its own ``.truc`` files: a subfolder, even one named ``old.truc``, is neither read
    nor an error."""
    folder = tmp_path / "histories"
    (folder / "old.truc").mkdir(parents=True)
    shutil.copy(DATA / "canonical" / "raises_4p.truc", folder / "old.truc")
    shutil.copy(DATA / "canonical" / "two_players.truc", folder)
    result = import_files([folder], tmp_path / "data")
    assert result.games == 1 and result.manifest["sources"] == [str(folder / "two_players.truc")]
    checked = check_files([folder])
    assert checked.ok and (checked.files, checked.games) == (1, 1)


def test_check_of_a_missing_file_or_a_file_without_games_says_so(tmp_path: Path) -> None:
    """A missing file is one problem among the others, in its place; the files after it are still checked."""
    valid = DATA / "valid" / "two_players.truc"
    result = check_files([tmp_path / "nope.truc", valid])
    assert result.invalid == [f"{tmp_path / 'nope.truc'}: no such file"]
    assert (result.files, result.games) == (2, check_files([valid]).games)
    (tmp_path / "notes.truc").write_text("; only a comment\n", "utf-8")
    result = check_files([tmp_path / "notes.truc"])
    found = f'{tmp_path / "notes.truc"}: no game found: a game begins with its tags, [Variant "catalan"]'
    assert result.invalid == [found]


# ------------------------------------------------------------------------------------- import and export


def test_missing_file_and_existing_output(tmp_path: Path) -> None:
    with pytest.raises(HistoryError, match="nope.truc: no such file"):
        import_files([tmp_path / "nope.truc"], tmp_path / "data")
    valid = DATA / "valid" / "two_players.truc"
    lenient = import_files([tmp_path / "nope.truc", valid], tmp_path / "lenient", skip_invalid=True)
    assert lenient.invalid == [f"{tmp_path / 'nope.truc'}: no such file"] and lenient.games == 1
    manifest = json.loads((tmp_path / "lenient" / "manifest.json").read_text("utf-8"))
    assert manifest["invalid"] == lenient.invalid
    shutil.rmtree(tmp_path / "lenient")
    path = DATA / "canonical" / "two_players.truc"
    import_files([path], tmp_path / "data")
    before = (tmp_path / "data" / "manifest.json").read_bytes()
    with pytest.raises(DatasetError, match="already exists"):
        import_files([path], tmp_path / "data")
    assert (tmp_path / "data" / "manifest.json").read_bytes() == before
    result = import_files([path, path], tmp_path / "data", overwrite=True)
    assert result.games == 1  # replaced; the file named twice is read once


def test_file_without_games(tmp_path: Path) -> None:
    empty = tmp_path / "empty.truc"
    empty.write_text("; nothing but a comment\n", "utf-8")
    with pytest.raises(HistoryError, match="no game found"):
        import_files([empty], tmp_path / "data")
    assert not (tmp_path / "data").exists()


def test_import_rows_policies_seeds_and_manifest(tmp_path: Path) -> None:
    path = DATA / "canonical" / "sim_4p_threshold.truc"
    result = import_files([path], tmp_path / "data")
    seats = _table(tmp_path / "data", "seats")
    assert seats.filter(pl.col("seat") == 1)["policy"].unique().to_list() == ["random"]
    assert _table(tmp_path / "data", "games")["seed"].null_count() == 0
    manifest = result.manifest
    assert manifest["kind"] == "import" and manifest["games"] == 2 and set(manifest["rows"]) == set(TABLES)
    assert {"package_version", "created"} <= set(manifest)
    assert manifest["strength"] == {"definition": "beats every opposing hand heads-up"}


def test_an_import_in_several_parts_keeps_every_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An import writes its rows in parts sized by rows (``parts.PartWriter``): the tables hold every game
    once, as an import in a single part does, and the manifest counts their rows."""
    monkeypatch.setattr(parts, "ROW_GROUP_ROWS", 1 << 20)
    whole = import_files(VALID, tmp_path / "whole")
    assert len(list((tmp_path / "whole" / "events").glob("*.parquet"))) == 1
    monkeypatch.setattr(parts, "ROW_GROUP_ROWS", 50)
    monkeypatch.setattr(parts, "PART_ROW_GROUPS", 2)
    split = import_files(VALID, tmp_path / "parts")
    events = [pq.read_table(part).num_rows for part in sorted((tmp_path / "parts" / "events").glob("*.parquet"))]
    assert len(events) > 2 and sum(events) == whole.rows["events"] and set(events[:-1]) == {100}
    for name in TABLES:
        assert_frame_equal(_table(tmp_path / "parts", name), _table(tmp_path / "whole", name))
        assert split.manifest["rows"][name] == whole.manifest["rows"][name] == _table(tmp_path / "parts", name).height
    assert (split.games, split.hands) == (whole.games, whole.hands)


def test_export_and_import_report_their_progress(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Export: the games written after each chunk, out of all, with their hands. Import: the bytes read
    after each part written (by the lines replayed) and after each file, out of all the files' bytes."""
    monkeypatch.setattr(history_io, "CHUNK_GAMES", 40)
    simulate(SimulationSpec("catalan", 100, 3, {"players": "2"}), tmp_path / "sim")
    seen: list[tuple[int, int, int, int]] = []
    export_dataset(tmp_path / "sim", tmp_path / "all.truc", progress=lambda *done: seen.append(done))
    hands = _table(tmp_path / "sim", "hands").height
    assert [(d, t, g) for d, t, g, _ in seen] == [(40, 100, 40), (80, 100, 80), (100, 100, 100)]
    assert seen[-1][3] == hands and 0 < seen[0][3] < seen[1][3] < hands
    seen.clear()
    small = DATA / "canonical" / "two_players.truc"
    paths = [tmp_path / "all.truc", small]
    total = sum(p.stat().st_size for p in paths)
    big = paths[0].stat().st_size
    monkeypatch.setattr(history_ranges, "RANGE_BYTES", big // 3)  # the big file read in three ranges
    result = import_files(paths, tmp_path / "data", progress=lambda *done: seen.append(done))
    assert all(t == total for _, t, _, _ in seen)
    games = [g for _, _, g, _ in seen]
    assert len(games) == 4 and 0 < games[0] < games[1] < 100 and games[2:] == [100, 101]  # each range read
    done = [d for d, _, _, _ in seen]
    assert 0 < done[0] < done[1] < big and done[2:] == [big, total]
    assert seen[-1][2:] == (result.games, result.hands)


def test_progress_counts_a_skipped_file_as_read(tmp_path: Path) -> None:
    """A file that cannot be read (not UTF-8, missing) is done all the same: its bytes count as read, so the
    files after it are placed right and the progress ends at the total."""
    bad, valid = DATA / "malformed" / "undecodable.truc", DATA / "valid" / "two_players.truc"
    sizes = [bad.stat().st_size, valid.stat().st_size]
    seen: list[tuple[int, int, int, int]] = []
    result = check_files([bad, valid], progress=lambda *done: seen.append(done))
    assert len(result.invalid) == 1 and result.games == 1
    assert [(done, total) for done, total, _, _ in seen] == [(sizes[0], sum(sizes)), (sum(sizes), sum(sizes))]


def test_export_writes_a_folder_of_runs_and_several_datasets_one_after_the_other(tmp_path: Path) -> None:
    """``--data`` as the statistics read it: a folder of runs is each run's text in name order, joined as
    the games of one file are; a dataset named twice is written once; the file imports back to the same
    statistics as the datasets themselves."""
    runs = tmp_path / "runs"
    simulate(SimulationSpec("valencian", 12, 5, {"players": "2"}), runs / "b-valencian")
    simulate(SimulationSpec("trut", 10, 5, {"players": "3"}), runs / "a-trut")
    alone = []
    for name in ("a-trut", "b-valencian"):
        export_dataset(runs / name, tmp_path / f"{name}.truc")
        alone.append((tmp_path / f"{name}.truc").read_text())
    seen: list[tuple[int, int, int, int]] = []
    assert export_dataset(runs, tmp_path / "all.truc", progress=lambda *done: seen.append(done)) == 22
    assert (tmp_path / "all.truc").read_text() == "\n".join(alone)
    assert [t for _, t, _, _ in seen] == [22, 22] and seen[-1][0] == 22
    assert export_dataset([runs / "b-valencian", runs, runs / "a-trut"], tmp_path / "again.truc") == 22
    assert (tmp_path / "again.truc").read_text() == "\n".join(reversed(alone))
    import_files([tmp_path / "all.truc"], tmp_path / "back")
    pooled = stats.compute("variant_comparison", [runs])
    assert_frame_equal(stats.compute("variant_comparison", tmp_path / "back"), pooled)


def test_export_reads_each_table_once_in_game_order_else_by_filter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The export's driver reads each table's row groups once, in order, and hands each chunk its games' rows:
    the same text as each chunk reading its rows by filter, whether a chunk ends inside a row group or a batch
    of it or spans several and parts, and when a row group's rows are not in game order (it is read whole);
    a table whose parts are not in game order is read by filter."""
    monkeypatch.setattr(history_io, "CHUNK_GAMES", 7)
    monkeypatch.setattr(history_io, "STREAM_ROWS", 40)
    simulate(SimulationSpec("catalan", 30, 3, {"players": "2"}), tmp_path / "sim")
    games = read_table(tmp_path / "sim", "games").sort_by("game_id")
    order = {"games": ["game_id"], "hands": ["game_id", "hand_no"], "seats": ["game_id", "hand_no", "seat"]}
    small = tmp_path / "small"  # the same rows, in row groups of 50 rows, two parts a table
    for name in TABLES:
        keys = order.get(name, ["game_id", "hand_no", "seq"])
        table = read_table(tmp_path / "sim", name).sort_by([(key, "ascending") for key in keys])
        (small / name).mkdir(parents=True)
        half = table.num_rows // 2
        pq.write_table(table.slice(0, half), small / name / "part-00000.parquet", row_group_size=50)
        pq.write_table(table.slice(half), small / name / "part-00001.parquet", row_group_size=50)
    for folder in (tmp_path / "sim", small):
        chunks = history_io._Chunks([(folder, games)])
        by_filter = [history_io._chunk_text(history_io._Chunk(folder, plan)) for _, plan in chunks.plans]
        streamed = list(chunks)
        assert len(streamed) == 5 and all(chunk.tables is not None for chunk in streamed)
        assert [history_io._chunk_text(chunk) for chunk in streamed] == by_filter
    mixed = tmp_path / "mixed"  # one row group a table, the rows of game 10 (the second chunk's) first
    for name in TABLES:
        keys = order.get(name, ["game_id", "hand_no", "seq"])
        table = read_table(tmp_path / "sim", name).sort_by([(key, "ascending") for key in keys])
        ids = table["game_id"].to_pylist()
        start, count = ids.index(10), ids.count(10)
        swapped = pa.concat_tables([table.slice(start, count), table.slice(0, start), table.slice(start + count)])
        (mixed / name).mkdir(parents=True)
        pq.write_table(swapped, mixed / name / "part-00000.parquet")
    streamed = list(history_io._Chunks([(mixed, games)]))
    assert all(chunk.tables is not None for chunk in streamed)
    assert [history_io._chunk_text(chunk) for chunk in streamed] == by_filter
    events = small / "events"
    (events / "part-00000.parquet").rename(events / "part-00002.parquet")  # the first games' rows last
    chunks = history_io._Chunks([(small, games)])
    assert all(chunk.tables is None for chunk in chunks)
    assert [history_io._chunk_text(chunk) for chunk in chunks] == by_filter


def test_export_needs_a_dataset_and_leaves_no_temporary(tmp_path: Path) -> None:
    with pytest.raises(DatasetError):
        export_dataset(tmp_path / "missing", tmp_path / "out.truc")
    assert list(tmp_path.iterdir()) == []


def _tamper(root: Path, name: str, column: str, row: int, value: object) -> None:
    (part,) = (root / name).glob("*.parquet")
    table = pq.read_table(part)
    values = table.column(column).to_pylist()
    values[row] = value
    index = table.schema.get_field_index(column)
    pq.write_table(
        table.set_column(index, table.schema.field(index), pa.array(values, table.schema.field(index).type)), part
    )
    write_manifest(root, read_manifest(root))  # the part rewritten, listed again


@pytest.mark.parametrize(
    ("table", "column", "row", "value", "message"),
    [
        ("hands", "points_team0", 0, 2, r"game 0 hand 1 replays to points \(3, 0\), the table says \(2, 0\)"),
        ("events", "arg", 4, "7e", r"game 0 does not replay at '1 play 7e': seat 1 does not hold 7e \[card-not-held\]"),
        ("games", "score_team1", 0, 9, r"game 0 replays to \[3, 5\], the table says \(3, 9\)"),
        ("events", "seat", 4, None, r"game 0 holds a missing or mistyped value \(.+\): the dataset is damaged"),
    ],
)
def test_export_refuses_a_dataset_that_does_not_replay(
    tmp_path: Path, table: str, column: str, row: int, value: object, message: str
) -> None:
    import_files([DATA / "canonical" / "raises_4p.truc"], tmp_path / "data")
    _tamper(tmp_path / "data", table, column, row, value)
    with pytest.raises(DatasetError, match=message):
        export_dataset(tmp_path / "data", tmp_path / "out.truc")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data"]


def test_export_refuses_a_tag_value_with_a_line_break(tmp_path: Path) -> None:
    """A hand-edited ``seats.player`` holding a carriage return would end the tag's line in the middle of its
    value (a reader takes CR as a line end): the export refuses it and writes nothing."""
    import_files([DATA / "canonical" / "two_players.truc"], tmp_path / "data")
    _tamper(tmp_path / "data", "seats", "player", 0, "Anna\rPere")  # game 0, hand 1, seat 0
    with pytest.raises(DatasetError, match=r"game 0 cannot be exported: Seat0's value holds U\+000D, a control"):
        export_dataset(tmp_path / "data", tmp_path / "out.truc")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data"]


def test_exported_file_is_an_ordinary_file(tmp_path: Path) -> None:
    import_files([DATA / "canonical" / "two_players.truc"], tmp_path / "data")
    (tmp_path / "out.truc").write_text("old", "utf-8")
    export_dataset(tmp_path / "data", tmp_path / "out.truc", overwrite=True)
    assert (tmp_path / "out.truc").stat().st_mode & 0o777 == 0o666 & ~_umask()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data", "out.truc"]
    assert (tmp_path / "out.truc").read_text() == (DATA / "canonical" / "two_players.truc").read_text()


def test_export_keeps_an_existing_file_unless_told_to_replace_it(tmp_path: Path) -> None:
    """The file at ``--out`` may be the hand-written history the dataset came from: it is kept, whole."""
    source = tmp_path / "mine.truc"
    source.write_text((DATA / "canonical" / "two_players.truc").read_text() + "; my notes\n", "utf-8")
    import_files([source], tmp_path / "data")
    before = source.read_bytes()
    with pytest.raises(DatasetError, match=r"mine.truc already exists: choose another --out or pass --overwrite"):
        export_dataset(tmp_path / "data", source)
    assert source.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data", "mine.truc"]


def test_export_never_renames_onto_a_pipe_or_a_folder(tmp_path: Path) -> None:
    """Renaming the text onto a named pipe (or ``/dev/full``) would replace it rather than write to it."""
    import_files([DATA / "canonical" / "two_players.truc"], tmp_path / "data")
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "folder").mkdir()
    for name in ("pipe", "folder"):
        with pytest.raises(DatasetError, match=rf"{name} exists and is not an ordinary file .*--out -"):
            export_dataset(tmp_path / "data", tmp_path / name, overwrite=True)
    assert stat.S_ISFIFO((tmp_path / "pipe").stat().st_mode) and (tmp_path / "folder").is_dir()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data", "folder", "pipe"]


def test_export_to_a_stream_writes_the_same_text(tmp_path: Path) -> None:
    import_files([DATA / "canonical" / "two_players.truc", DATA / "canonical" / "raises_4p.truc"], tmp_path / "data")
    export_dataset(tmp_path / "data", tmp_path / "out.truc")
    stream = io.StringIO()
    assert export_dataset(tmp_path / "data", stream) == 2
    assert stream.getvalue() == (tmp_path / "out.truc").read_text()


def test_export_of_chosen_games_writes_their_text_as_the_whole_export_does(tmp_path: Path) -> None:
    """``game_ids`` writes those games of one dataset, in id order, each as in the export of every game."""
    simulate(SimulationSpec("trut", 8, 3, {"players": "3"}), tmp_path / "run")
    export_dataset(tmp_path / "run", tmp_path / "all.truc")
    every = (tmp_path / "all.truc").read_text().split("\n[Variant ")
    texts = [every[0], *("[Variant " + text for text in every[1:])]
    assert len(texts) == 8
    stream = io.StringIO()
    assert export_dataset(tmp_path / "run", stream, game_ids=[6, 1]) == 2
    assert stream.getvalue() == texts[1] + "\n" + texts[6]
    with pytest.raises(DatasetError, match=r"run has no game 8, 9 \(8 games, ids 0 to 7\)"):
        export_dataset(tmp_path / "run", io.StringIO(), game_ids=[9, 8, 0])
    simulate(SimulationSpec("catalan", 2, 3, {"players": "2"}), tmp_path / "other")
    with pytest.raises(DatasetError, match="games are chosen by id within one dataset, and --data names 2"):
        export_dataset([tmp_path / "run", tmp_path / "other"], tmp_path / "two.truc", game_ids=[0])
    assert not (tmp_path / "two.truc").exists()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@pytest.mark.parametrize(
    ("options", "policy"),
    [({"players": "2"}, "threshold"), ({"players": "4"}, "random"), ({"players": "4", "signals": "on"}, "threshold")],
    ids=["2p", "4p", "4p-signals"],
)
def test_simulate_export_import_gives_the_same_tables(options: dict[str, str], policy: str, tmp_path: Path) -> None:
    """Every column of every table survives simulate → export → import, except ``games.source``."""
    spec = SimulationSpec("catalan", 4, seed=2024, options=options, policy=policy, seat_policies={1: "random"})
    simulate(spec, tmp_path / "sim")
    assert export_dataset(tmp_path / "sim", tmp_path / "games.truc") == 4
    import_files([tmp_path / "games.truc"], tmp_path / "imported")
    for name in TABLES:
        want, got = _table(tmp_path / "sim", name), _table(tmp_path / "imported", name)
        if name == "games":
            assert set(got["source"]) == {"games.truc"}
            want, got = want.drop("source"), got.drop("source")
        assert_frame_equal(got, want)
    import_files([tmp_path / "games.truc"], tmp_path / "again")
    export_dataset(tmp_path / "again", tmp_path / "again.truc")
    assert (tmp_path / "again.truc").read_bytes() == (tmp_path / "games.truc").read_bytes()


# ------------------------------------------------------------------------------------- reader details


def test_writer_orders_tags_and_escapes_values() -> None:
    text = (
        '[_Custom "x"]\n[Result "12-3"]\n[Policy1 "random"]\n[Seed "5"]\n[FirstDealer "1"]\n[Round "3"]\n'
        '[Date "2024.??.??"]\n[Site "a \\"b\\" \\\\ c"]\n[Event "e"]\n[Seat1 "Pere"]\n[Options "players=2"]\n'
        '[Variant "catalan"]\n\nhand 1 dealer 1\n0: 3o 7c 5b\n1: 2e 1o 4c\n0 truc\n1 fold\n'
    )
    record = read_text(text).games[0]
    assert record.tags["Site"] == 'a "b" \\ c'
    assert record_text(record).splitlines()[:12] == [
        '[Variant "catalan"]',
        '[Options "players=2 signals=off"]',
        '[Seat1 "Pere"]',
        '[Event "e"]',
        '[Site "a \\"b\\" \\\\ c"]',
        '[Date "2024.??.??"]',
        '[Round "3"]',
        '[FirstDealer "1"]',
        '[Seed "5"]',
        '[Policy1 "random"]',
        '[Result "12-3"]',
        '[_Custom "x"]',
    ]  # the record stops before the game's end: its Result is the final score it claims


def test_seat_and_policy_tags_are_written_in_seat_order() -> None:
    """``SeatN`` and ``PolicyN`` are written by seat number whatever their order in the file, so that the same
    game always gives the same text."""
    text = (
        '[Variant "catalan"]\n[Options "players=2"]\n[Policy1 "random"]\n[Seat1 "Pere"]\n[Policy0 "random"]\n'
        '[Seat0 "Anna"]\n\nhand 1 dealer 0\n0: 3o 7c 5b\n1: 2e 1o 4c\n1 truc\n0 fold\n'
    )
    lines = record_text(read_text(text).games[0]).splitlines()
    assert [line for line in lines if line.startswith(("[Seat", "[Policy"))] == [
        '[Seat0 "Anna"]',
        '[Seat1 "Pere"]',
        '[Policy0 "random"]',
        '[Policy1 "random"]',
    ]


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ('[Variant "catalan"]\n[Variant "catalan"]\n', 2, "given twice (first at line 1)"),
        ('[Variant "catalan"]\n[Player "x"]\n', 2, "custom tags start with '_'"),
        ('[Variant "catalan"]\n[Seat4 "x"]\nhand 1 dealer 0\n', 2, "seat 4 does not exist in a 4-player game"),
        ('[Variant "catalan"]\n[Date "2024-05-03"]\nhand 1 dealer 0\n', 2, "YYYY.MM.DD"),
        ('[Variant "catalan"]\n[Date "2024.1.5"]\nhand 1 dealer 0\n', 2, "YYYY.MM.DD"),
        ('[Variant "catalan"]\n[Date "2023.02.29"]\nhand 1 dealer 0\n', 2, "is not a date"),
        ('[Variant "catalan"]\n[Seed "9223372036854775808"]\nhand 1 dealer 0\n', 2, "a Seed is a whole number"),
        ('[Variant "catalan"]\n[Result "12 7"]\nhand 1 dealer 0\n', 2, "written A-B"),
        ('[Variant "catalan"]\n[Seed "-4"]\nhand 1 dealer 0\n', 2, "a Seed is a whole number"),
        ('[Variant "catalan"]\n[Seed "\u00b2"]\nhand 1 dealer 0\n', 2, "a Seed is a whole number"),
        ('[Variant "catalan"]\nhand \u0663 dealer 0\n', 2, "a hand begins with 'hand K dealer S'"),
        ('[Variant "catalan"]\n[FirstDealer "4"]\nhand 1 dealer 0\n', 2, "FirstDealer is a seat number, 0 to 3"),
        ('[Variant "catalan"]\n[Site "a\\nb"]\n', 2, 'only \\" and \\\\ are escapes'),
        ('[Variant "catalan"]\n[Site a]\n', 2, "between double quotes"),
        ('[Options "players=2"]\n\nhand 1 dealer 0\n', 1, "the game has no Variant tag"),
        ('[Variant "catalan"]\n', 1, "the game has no hands"),
        ('[Variant "catalan"]\nhand 1\n', 2, "the first dealer is unknown"),
        ('[Variant "catalan"]\n0: 3o 7c 5b\n', 2, "expected 'hand 1 dealer S'"),
        ('[Variant "catalan"]\nhand 2 dealer 0\n', 2, "this is hand 1 of the game, not hand 2"),
        ('[Variant "catalan"]\nhnad 1\n', 2, "expected a tag"),
        ('[Variant "catalan"]\nhand one\n', 2, "a hand begins with 'hand K dealer S'"),
        ('[Variant "catalan"]\nhand 1 dealer 0\n3 play\n', 3, "'play' takes one argument"),
        ('[Variant "catalan"]\nhand 1 dealer 0\n3 truc now\n', 3, "'truc' takes no argument"),
        (
            '[Variant "catalan"]\nhand 1 dealer 0\n0: 3o 7c 5b\n1: 2e 1o 4c\n2: 4o 5o 6o\n',
            3,
            "the deal lists no cards for seat 3 (no players= in the Options tag: catalan is played by 4 by default) "
            "[deal-seats]",
        ),
        (
            '[Variant "catalan"]\n[Options "Players=4"]\nhand 1 dealer 0\n0: 3o 7c 5b\n1: 2e 1o 4c\n2: 4o 5o 6o\n',
            4,
            "the deal lists no cards for seat 3 [deal-seats]",  # the count is set: no hint
        ),
        (
            '[Variant "french"]\n[FirstDealer "3"]\nhand 1 dealer 3\n',
            2,
            "FirstDealer is a seat number, 0 to 1 (no players= in the Options tag: french is played by 2 by default)",
        ),
        (
            '[Variant "catalan"]\n[Options "players=2"]\nhand 1 dealer 0\n0: 3o 7c 5b\n1: 2e 1o 4c\n1 play ??\n',
            6,
            "'play' needs the card played, not ??",
        ),
        (
            '[Variant "catalan"]\n[Options "players=2"]\nhand 1 dealer 0\n0: 3o 7c 5b\n1: 2e 1o 4c\n'
            "1 truc\n0 fold\n0: 3o 7c 5b\n",
            8,
            "a new deal needs a 'hand 2' line [hand-over]",
        ),
        (
            '[Variant "catalan"]\n[Options "players=2"]\nhand 1 dealer 0\n0: 3o 7c 5b\n1: 2e 1o 4c\n'
            "1 truc\n0 fold\nend 0 1\nend 0 1\n",
            9,
            "hand 1 already has its end line",
        ),
        (
            '[Variant "catalan"]\n[Options "players=2"]\nhand 1 dealer 0\n0: 3o 7c 5b\n1: 2e 1o 4c\n1 truc\nend 0 1\n',
            7,
            "hand 1 is not decided yet [hand-not-over]",
        ),
        (
            '[Variant "catalan"]\n[Options "players=2"]\nhand 1 dealer 0\n0: 3o 7c 5b\n1: 2e 1o 4c\n'
            "1 truc\n0 fold\nend 0 1p\n",
            8,
            "hand 1 scores 0 1 in the replay, not 0 1p [end]",
        ),
    ],
)
def test_reader_errors(text: str, line: int, message: str) -> None:
    with pytest.raises(HistoryError) as caught:
        read_text(text, "t.truc")
    assert caught.value.line == line, str(caught.value)
    assert message in str(caught.value)


def test_tolerant_forms_read_as_their_canonical_ones() -> None:
    """FORMAT.md "File": a reader is tolerant of letter case and a ``{ }`` comment is ignored, even between
    two tokens with no space; each variant below replays as the canonical file does."""
    cases = {
        "french_2p.truc": [("1 raise reste", "1 RAISE Reste")],
        "trut_base_2p.truc": [("end 1p 0", "end 1P 0"), ("end 1l 0", "END 1L 0")],
        "two_players.truc": [
            ("0: ", "0:{dealt by hand}"),
            ("hand 2 dealer 1", "hand 2 dealer 1{ a comment\n spanning lines }"),
        ],
    }
    for name, changes in cases.items():
        canonical = (DATA / "canonical" / name).read_text("utf-8")
        text = canonical
        for old, new, *count in changes:
            assert old in text, (name, old)
            text = text.replace(old, new, *count)
        assert text != canonical
        games, expected = read_text(text, name).games, read_text(canonical, name).games
        assert [g.hands for g in games] == [g.hands for g in expected], name
        assert [record_text(g) for g in games] == [record_text(g) for g in expected], name


def test_a_brace_comment_between_two_cards_separates_them() -> None:
    text = (
        '[Variant "catalan"]\n[Options "players=2"]\nhand 1 dealer 0\n0: 3o{first}7c 5b\n1: 2e 1o{x}4c\n'
        "1 truc\n0 fold\n"
    )
    (game,) = read_text(text).games
    deck = get_variant("catalan").deck
    assert game.hands[0].dealt == (
        tuple(map(deck.parse, ["3o", "7c", "5b"])),
        tuple(map(deck.parse, ["2e", "1o", "4c"])),
    )


@pytest.mark.parametrize(
    ("tag", "value"),
    [("Seed", "9223372036854775807"), ("Seed", "0"), ("Date", "????.02.29"), ("Date", "2024.02.29")],
)
def test_the_edges_of_a_tag_s_values_are_accepted(tag: str, value: str) -> None:
    text = (
        f'[Variant "catalan"]\n[Options "players=2"]\n[{tag} "{value}"]\nhand 1 dealer 0\n0: 3o 7c 5b\n'
        "1: 2e 1o 4c\n1 truc\n0 fold\n"
    )
    (game,) = read_text(text).games
    assert game.tags[tag] == value


def test_the_other_tags_are_stored_in_canonical_order_whatever_their_order_in_the_file(tmp_path: Path) -> None:
    """``games.tags`` is JSON in the format's order (Event, Site, Date, Round, then custom tags as
    written), so the same game gives the same row however its tags were written."""
    body = "hand 1 dealer 0\n0: 3o 7c 5b\n1: 2e 1o 4c\n1 truc\n0 fold\n"
    head = '[Variant "catalan"]\n[Options "players=2"]\n'
    ordered = head + '[Event "Festa"]\n[Site "Vic"]\n[Round "2"]\n[_Zed "z"]\n[_Note "n"]\n' + body
    shuffled = head + '[_Zed "z"]\n[Round "2"]\n[Site "Vic"]\n[_Note "n"]\n[Event "Festa"]\n' + body
    tags = []
    for name, text in (("ordered", ordered), ("shuffled", shuffled)):
        (tmp_path / f"{name}.truc").write_text(text, "utf-8")
        import_files([tmp_path / f"{name}.truc"], tmp_path / name)
        tags.append(_table(tmp_path / name, "games")["tags"].to_list())
    assert tags[0] == tags[1]
    assert list(json.loads(tags[1][0])) == ["Event", "Site", "Round", "_Zed", "_Note"]


def test_the_other_tags_keep_their_letters_as_written(tmp_path: Path) -> None:
    """``games.tags`` holds a value's letters as written (``Gràcia``, not ``Gr\\u00e0cia``), so that a query
    on the column as text finds them."""
    text = (
        '[Variant "catalan"]\n[Options "players=2"]\n[Site "Gràcia"]\n[_Jugador "Núria"]\nhand 1 dealer 0\n'
        "0: 3o 7c 5b\n1: 2e 1o 4c\n1 truc\n0 fold\n"
    )
    (tmp_path / "cafe.truc").write_text(text, "utf-8")
    import_files([tmp_path / "cafe.truc"], tmp_path / "data")
    assert _table(tmp_path / "data", "games")["tags"].to_list() == ['{"Site": "Gràcia", "_Jugador": "Núria"}']
    with duckdb.connect() as con:
        found = con.sql(
            f"select count(*) from read_parquet('{tmp_path / 'data' / 'games'}/*.parquet') where tags like '%Núria%'"
        ).fetchall()
    assert found == [(1,)]


def test_spelled_out_engine_steps_and_missing_end_are_accepted() -> None:
    implicit = (
        '[Variant "catalan"]\n[Options "players=2"]\nhand 1 dealer 0\n1 nocut\n0: 3o\n1: 2e\n1 play 2e\n0 play 3o\n'
    )
    explicit = implicit.replace("1 nocut\n", "1 nocut\n0 deal 1\n")
    assert read_text(implicit).games[0].hands == read_text(explicit).games[0].hands
    cut = (
        '[Variant "catalan"]\n[Options "players=2"]\nhand 1 dealer 0\n1 cut\n0: 3o 7c 5b\n1: 2e 1o 4c\n1 truc\n0 fold\n'
    )
    record = read_text(cut).games[0]
    assert [e.verb for e in record.hands[0].events] == ["cut", "dealt", "truc", "fold"]
    assert "cut" not in record_text(record)


@pytest.mark.parametrize(
    ("result", "problem"),
    [
        ("3-12", None),  # FORMAT.md "Play": a record may stop before its end; Result is the final score
        ("3-012", None),  # read as 3-12
        ("0-1", "0-1 is not a game's end: one side at 12 points or more, the other below"),  # the score so far
        ("12-12", "12-12 is not a game's end"),
        ("13-12", "13-12 is not a game's end"),  # one side scores a hand: the game ended when one reached 12
        ("12-0", "12-0 would have a side lose what it scored"),
        ("14-3", None),  # 11 points, then a retruc (3) won
        ("15-3", "15-3 is not a game's end: no side can end above 14 points"),
        ("40-3", "40-3 is not a game's end: no side can end above 14 points"),
        ("12-3-1", "12-3-1 is not a score of 2 sides in points"),
    ],
)
def test_a_result_on_a_record_that_stops_early_is_a_final_score_that_follows(result: str, problem: str | None) -> None:
    text = (
        f'[Variant "catalan"]\n[Options "players=2"]\n[Result "{result}"]\n\nhand 1 dealer 0\n'
        "0: 3o 7c 5b\n1: 2e 1o 4c\n1 truc\n0 fold\nend 0 1\n"
    )
    if problem is not None:
        with pytest.raises(HistoryError, match=rf"the record stops at 0-1: {problem}.*\[result\]"):
            read_text(text)
        return
    record = read_text(text).games[0]
    final = "-".join(str(int(value)) for value in result.split("-"))
    assert not record.complete and f'[Result "{final}"]' in record_text(record)


THREE_SIDES = (DATA / "valid" / "trut_base_3p.truc").read_text("utf-8")


@pytest.mark.parametrize(
    ("result", "problem"),
    [
        ("7-7-1", "is not a game's end: one side at 7 longs or more, ahead of the others"),
        ("8-7-1", None),  # a passed fortial gives two sides a petit: both may pass the target in one hand
        ("6-2-1", "is not a game's end"),
        ("9-7-1", "is not a game's end: no side can end above 8 longs"),  # both opponents see: 2 longs at most
    ],
)
def test_with_three_sides_two_may_end_past_the_target_but_one_is_ahead(result: str, problem: str | None) -> None:
    """Seed 001 "Variante pour 3 joueurs": the record stops after hand 2 (petits 1-2-0)."""
    text = THREE_SIDES.replace('[Result "7-2-1"]', f'[Result "{result}"]').split('; "Si 1 des 2')[0]
    if problem is not None:
        with pytest.raises(HistoryError, match=rf"the record stops at 0-0-0: {result} {problem}"):
            read_text(text)
        return
    assert not read_text(text).games[0].complete


def test_a_complete_game_s_result_is_read_as_numbers() -> None:
    """``012-10`` is 12-10, as a record that stops early reads ``3-012`` as 3-12 (above)."""
    complete = (DATA / "valid" / "french_2p.truc").read_text("utf-8")
    record = read_text(complete.replace('[Result "12-10"]', '[Result "012-10"]')).games[0]
    assert record.complete and '[Result "12-10"]' in record_text(record)


def test_a_custom_visitor_sees_every_line() -> None:
    class Recorder(Visitor):
        def __init__(self) -> None:
            self.seen: list[str] = []

        def begin_game(self, line: int) -> None:
            self.seen.append(f"begin {line}")

        def visit_tag(self, tag: object) -> None:
            self.seen.append("tag")

        def visit_hand(self, hand: object) -> None:
            self.seen.append("hand")

        def visit_deal(self, deal: tuple[object, ...]) -> None:
            self.seen.append(f"deal {len(deal)}")

        def visit_action(self, action: object) -> None:
            self.seen.append("action")

        def visit_end(self, end: object) -> None:
            self.seen.append("end")

        def end_game(self) -> None:
            self.seen.append("end_game")

    visitor = Recorder()
    parse((DATA / "canonical" / "two_players.truc").read_text("utf-8"), visitor)
    assert visitor.seen[:13] == ["begin 1", *["tag"] * 8, "hand", "deal 2", "action", "action"]
    assert visitor.seen[-2:] == ["end", "end_game"] and visitor.seen.count("hand") == 3


# ------------------------------------------------------------------------------------------- properties

OPTIONS = st.sampled_from([{"players": "2"}, {"players": "4"}, {"players": "4", "signals": "on"}])
POLICIES = st.sampled_from(["random", "threshold", "threshold:bluff=0.5,nocut=0.5"])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**63 - 1), options=OPTIONS, policy=POLICIES)
def test_random_games_round_trip(seed: int, options: dict[str, str], policy: str) -> None:
    text, hands = _game_text(seed, options, policy)
    record = read_text(text, "sim.truc").games[0]
    assert record.hands == hands and record.complete
    assert record_text(record) == text


TAG_ONE_CHARACTER_AT_A_TIME = re.compile(r'\[\s*([^\W\d]\w*)\s+"((?:[^"\\]|\\["\\])*)"\s*\]')
"""The tag pattern as it was before its value's runs were taken whole (``reader._TAG``): the same lines, the same
groups."""


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet='[]"\\ \t_aZ1é,', max_size=24))
def test_the_tag_pattern_reads_what_it_read_a_character_at_a_time(text: str) -> None:
    for line in (text, f'[Name "{text}"]', f"[{text}]"):
        old, new = TAG_ONE_CHARACTER_AT_A_TIME.fullmatch(line), reader._TAG.fullmatch(line)
        assert (old and old.groups()) == (new and new.groups()), line


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=" \t\u00a0\u2003,7bo", max_size=16))
def test_a_deal_line_s_cards_are_its_words_between_whitespace_and_commas(cards: str) -> None:
    line = reader.read_line(3, f"0:{cards}", "x")
    assert isinstance(line, reader.DealLine)
    assert line.cards == tuple(word for word in re.split(r"[\s,]+", " ".join(f"0:{cards}".split())[2:]) if word)


# One setting per variant, with the options that add verbs (signals, the twos, brelan and the suite).
DAMAGED_SETTINGS = {
    "catalan": {"players": "4", "signals": "on"},
    "french": {"players": "4", "rubber": "off"},
    "trut": {"players": "3", "brelan": "on"},
    "trut-gatinaise": {"players": "4"},
    "trut-gatine": {"players": "2"},
    "valencian": {"players": "4", "twos": "on", "signals": "on"},
}
GARBLE_WORDS = [*sorted(KNOWN_VERBS), "9", "??", "13o", "[", "{", "end", "-1", ":", "reste", "0", "3", "99", "suite"]


@pytest.mark.parametrize("variant", sorted(DAMAGED_SETTINGS))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 1000),
    edits=st.lists(st.integers(0, 4), min_size=1, max_size=3),
)
def test_damaged_text_raises_only_history_errors(variant: str, seed: int, edits: list[int]) -> None:
    """Fuzz, every variant: drop, repeat, swap or garble lines of a valid game (a word replaced by, or
    a word added from, the verbs and values of every variant); the reader either replays it or raises
    ``HistoryError``, never anything else."""
    text, _ = _game_text(seed, DAMAGED_SETTINGS[variant], "random", variant)
    lines = text.splitlines()[:40]
    rng = random.Random(seed)
    for kind in edits:  # where, from the seed's generator: hypothesis would favour the first lines
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        if kind == 0:
            del lines[i]
        elif kind == 1:
            lines.insert(i, lines[j])
        elif kind == 2:
            lines[i], lines[j] = lines[j], lines[i]
        else:
            words = lines[i].split() or ["x"]
            if kind == 3:
                words[rng.randrange(len(words))] = rng.choice(GARBLE_WORDS)
            else:
                words.insert(rng.randrange(len(words) + 1), rng.choice(GARBLE_WORDS))
            lines[i] = " ".join(words)
        if not lines:
            lines = ["x"]
    with contextlib.suppress(HistoryError):
        read_text("\n".join(lines), "fuzz.truc")


def test_import_from_a_stream_is_the_import_of_the_file(tmp_path: Path) -> None:
    """``truc import -``: standard input, read whole, named ``<stdin>`` in errors and in ``games.source``."""
    path = DATA / "canonical" / "raises_4p.truc"
    import_files([path], tmp_path / "file")
    result = import_files([io.BytesIO(path.read_bytes())], tmp_path / "stream")
    assert result.manifest["sources"] == ["<stdin>"]
    for name in TABLES:
        want = pl.read_parquet(tmp_path / "file" / name / "*.parquet")
        got = pl.read_parquet(tmp_path / "stream" / name / "*.parquet")
        if name == "games":
            assert set(got["source"]) == {"<stdin>"}
            want, got = want.drop("source"), got.drop("source")
        assert_frame_equal(got, want)
    with pytest.raises(HistoryError, match=r"^<stdin>:1: 'nonsense':"):
        import_files([io.BytesIO(b"nonsense\n")], tmp_path / "bad")
    with pytest.raises(HistoryError, match="standard input can be read only once"):
        import_files([io.BytesIO(b""), io.BytesIO(b"")], tmp_path / "twice")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "stream"]
