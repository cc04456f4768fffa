"""What an import checks across games: a French rubber's matches (``_Match``, ``_MatchWinner``) against
the games' results, and the same game imported twice (a warning, or skipped with ``dedupe``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.history import HistoryError, check_files, export_dataset, import_files
from pipeline.parts import read_table
from pipeline.simulate import SimulationSpec, simulate


@pytest.fixture(scope="module")
def rubber_games(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The games of 3 matches of 2-player French Truc, as exported: match 0 is won 2-0 by team 1 (games 0
    and 1), match 1 and match 2 2-0 by team 0."""
    folder = tmp_path_factory.mktemp("rubber")
    simulate(SimulationSpec("french", 3, seed=3, options={"players": "2"}), folder / "run")
    export_dataset(folder / "run", folder / "run.truc")
    text = (folder / "run.truc").read_text("utf-8")
    games = ["[Variant" + game for game in text.split("[Variant") if game]
    assert [g.count('[_Match "') for g in games] == [1] * 6
    assert [game.split("_MatchWinner ")[1][:3] if "_MatchWinner" in game else None for game in games] == [
        None,
        '"1"',
        None,
        '"0"',
        None,
        '"0"',
    ]
    return games


def _both_refuse(path: Path, tmp_path: Path, line: int, words: str) -> None:
    """A strict import refuses ``path`` at ``line`` (writing nothing) and ``check`` reports that error alone."""
    with pytest.raises(HistoryError) as caught:
        import_files([path], tmp_path / "data")
    assert (caught.value.line, caught.value.rule) == (line, "rubber") and words in str(caught.value), caught.value
    assert not (tmp_path / "data").exists()
    assert check_files([path]).invalid == [str(caught.value)]


def _line_of(text: str, tag: str, after: int = 0) -> int:
    return text[: text.index(tag, after)].count("\n") + 1


def test_an_exported_rubber_imports_whole_and_game_by_game(rubber_games: list[str], tmp_path: Path) -> None:
    whole = tmp_path / "whole.truc"
    whole.write_text("".join(rubber_games), "utf-8")
    result = import_files([whole], tmp_path / "data")
    assert result.games == 6
    assert read_table(tmp_path / "data", "games")["match_winner_team"].to_pylist() == [None, 1, None, 0, None, 0]
    alone = tmp_path / "alone.truc"  # `truc export --game 1`: the deciding game of a match, without the first
    alone.write_text(rubber_games[1], "utf-8")
    assert check_files([alone]).ok


def test_a_match_winner_who_lost_the_deciding_game_is_refused(rubber_games: list[str], tmp_path: Path) -> None:
    # the import accepted a _MatchWinner that contradicts the games
    text = "".join(rubber_games).replace('[_MatchWinner "1"]', '[_MatchWinner "0"]', 1)
    path = tmp_path / "in.truc"
    path.write_text(text, "utf-8")
    line = _line_of(text, "[_MatchWinner")
    _both_refuse(path, tmp_path, line, "team 1 wins this game (7-12), so it cannot give match 0 to team 0")


def test_a_game_after_the_match_is_won_is_refused(rubber_games: list[str], tmp_path: Path) -> None:
    # a third game in a match already won 2-0 was accepted
    text = "".join([*rubber_games[:2], rubber_games[2].replace('[_Match "1"]', '[_Match "0"]'), *rubber_games[3:]])
    path = tmp_path / "in.truc"
    path.write_text(text, "utf-8")
    line = _line_of(text, '[_Match "0"]', len(rubber_games[0]) + len(rubber_games[1]))
    _both_refuse(
        path, tmp_path, line, "match 0 was decided by the game at line 44: a rubber ends when a side has won 2"
    )
    assert len(import_files([path], tmp_path / "lenient", skip_invalid=True).invalid) == 1


def test_a_match_winner_on_the_first_game_ends_the_match(rubber_games: list[str], tmp_path: Path) -> None:
    # match 0's first game, won by team 1, tagged as deciding: the next game of match 0 contradicts it
    first = rubber_games[0].replace('[_Match "0"]\n', '[_Match "0"]\n[_MatchWinner "1"]\n')
    text = first + "".join(rubber_games[1:])
    path = tmp_path / "in.truc"
    path.write_text(text, "utf-8")
    _both_refuse(
        path, tmp_path, _line_of(text, '[_Match "0"]', len(first)), "match 0 was decided by the game at line 1"
    )


# ------------------------------------------------------------------------------------------- duplicates

TWO_PLAYERS = Path(__file__).parent / "data" / "canonical" / "two_players.truc"


def _mirror(text: str) -> str:
    """The paired game of a 2-player record: the same deals and moves, each at the other seat."""
    flip = {"0": "1", "1": "0"}
    lines = []
    for line in text.splitlines():
        body = line.strip()
        if body.startswith("hand"):
            number, dealer = body.split()[1], body.split()[3]
            line = f"hand {number} dealer {flip[dealer]}"
        elif body.startswith("end"):
            line = "  end " + " ".join(reversed(body.split()[1:]))
        elif body[:1].isdigit():
            line = "  " + flip[body[0]] + body[1:]
        elif body.startswith(("[FirstDealer", "[Seat")):
            continue
        lines.append(line)
    return "\n".join(lines) + "\n"


def test_a_game_read_twice_is_a_warning_or_skipped_with_dedupe(tmp_path: Path) -> None:
    # importing the same game twice stored it twice with no word
    game = TWO_PLAYERS.read_text("utf-8")
    renamed = game.replace('"Anna"', '"Ada"').replace("  ", "    ")  # other names, other spelling: the same game
    mirror = _mirror(game)
    path = tmp_path / "in.truc"
    path.write_text("\n".join([game, renamed, mirror]), "utf-8")
    warned = import_files([path, TWO_PLAYERS], tmp_path / "all")
    second = 1 + game.count("\n") + 1
    assert warned.games == 4 and warned.duplicates == [
        f"{path}:{second}: the same game as {path}:1 (the same variant, options, deals and actions)",
        f"{TWO_PLAYERS}:1: the same game as {path}:1 (the same variant, options, deals and actions)",
    ]
    assert warned.manifest["duplicates"] == 2 and not warned.manifest["dedupe"]
    deduped = import_files([path, TWO_PLAYERS], tmp_path / "once", dedupe=True)
    assert deduped.games == 2 and deduped.duplicates == warned.duplicates  # the game and its mirror
    assert read_table(tmp_path / "once", "games")["game_id"].to_pylist() == [0, 1]
    players = read_table(tmp_path / "once", "seats")["player"].unique().to_pylist()
    assert "Ada" not in players  # the first reading is kept


def test_truc_import_warns_of_a_game_read_twice_and_dedupe_skips_it(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from pipeline.cli import app

    copy = tmp_path / "copy.truc"
    copy.write_bytes(TWO_PLAYERS.read_bytes())
    runner = CliRunner()
    warned = runner.invoke(app, ["import", str(TWO_PLAYERS), str(copy), "--out", str(tmp_path / "a"), "--quiet"])
    said = f"{copy}:1: the same game as {TWO_PLAYERS}:1 (the same variant, options, deals and actions)"
    assert warned.exit_code == 0 and warned.stderr == f"warning: {said}\n" and "imported 2 games" in warned.stdout
    once = runner.invoke(
        app, ["import", str(TWO_PLAYERS), str(copy), "--out", str(tmp_path / "b"), "--dedupe", "--quiet"]
    )
    assert once.exit_code == 0 and once.stderr == f"skipped: {said}\n" and "imported 1 game," in once.stdout
