"""The `truc` command: help everywhere, one-line errors, and each command calling its library function."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline import __version__, accel
from pipeline.cli import app

runner = CliRunner()
COMMANDS = [
    "variants",
    "policies",
    "simulate",
    "match",
    "tournament",
    "sweep",
    "import",
    "check",
    "export",
    "datasets",
    "verify",
    "upgrade",
    "stats",
    "sql",
    "report",
    "equilibrium",
    "train",
]
DOCS = Path(__file__).resolve().parent.parent / "docs" / "cli.md"
HISTORIES = Path(__file__).resolve().parent / "data"


def run(*args: str):
    return runner.invoke(app, list(args))


def test_version() -> None:
    result = run("--version")
    assert result.exit_code == 0 and result.output.strip() == f"truc-lab {__version__}, engine {accel.status()}"


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_and_option_has_help_and_is_documented(command: str) -> None:
    result = run(command, "--help")
    assert result.exit_code == 0
    options = re.findall(r"^\s+(--[a-z-]+)", result.output, flags=re.M)
    lines = [line for line in result.output.splitlines() if line.strip().startswith("--")]
    assert all(len(line.split(None, 2)) >= 2 for line in lines)  # every option line carries text
    # a value is named for what it is (DIR, N, KEY=VALUE, FILE), not by its Python type (<list[Path]>)
    assert not re.search(r"<(str|int|list|Path|path)\b", result.output), result.output
    # a flag is one switch (--quiet), not a pair with a negation nobody needs (--quiet / --no-quiet)
    assert "--no-" not in result.output, result.output
    docs = DOCS.read_text()
    assert f"## `truc {command}`" in docs
    for option in options:
        if option != "--help":
            assert option in docs, f"{option} of truc {command} is not in docs/cli.md"


def test_variants_lists_options_and_defaults() -> None:
    result = run("variants")
    assert result.exit_code == 0
    assert "catalan" in result.output and "players=4|2  (default 4)" in result.output


def test_simulate_writes_a_dataset_and_reports_counts(tmp_path: Path) -> None:
    out = tmp_path / "d"
    result = run("simulate", "--games", "20", "--players", "2", "--seed", "4", "--out", str(out), "--quiet")
    assert result.exit_code == 0, result.output
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["games"] == 20 and manifest["command"].startswith("truc ")
    assert f"{manifest['hands']:,} hands" in result.output
    assert " on 1 worker, " in result.output  # one chunk: one process, whatever the cores


def test_simulate_warns_of_policy_parameters_the_variant_does_not_read(tmp_path: Path) -> None:
    """``raise_at`` is accepted in a Trut run (one spec may serve every variant) but changes nothing there:
    one warning per policy spec, on stderr, and the run goes on."""
    out = tmp_path / "d"
    args = ["simulate", "--variant", "trut", "--players", "4", "--games", "5", "--out", str(out), "--quiet"]
    result = run(*args, "--policy", "threshold:raise_at=0.9,trut_at=0.7", "--seat-policy", "1=threshold:bluff=0")
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [
        "warning: --policy: raise_at has no effect in trut, whose decisions read trut_at, trut_bluff, see_at, "
        "see_announced, fortial_at, lead, follow (truc policies)",
        "warning: --seat-policy 1: bluff has no effect in trut, whose decisions read trut_at, trut_bluff, see_at, "
        "see_announced, fortial_at, lead, follow (truc policies)",
    ]
    assert "warning" not in result.stdout and (out / "manifest.json").exists()
    quiet = run(*args, "--overwrite", "--policy", "threshold:trut_at=0.7", "--seat-policy", "1=random")
    assert quiet.exit_code == 0 and quiet.stderr == ""
    refused = run(*args, "--overwrite", "--policy", "threshold:raise_at=0.9,nope=1")
    assert refused.exit_code == 1 and refused.stderr.startswith("error: policy threshold has no parameter 'nope'")


def test_simulate_of_french_rubbers_counts_games_and_matches(tmp_path: Path) -> None:
    result = run("simulate", "--variant", "french", "--games", "3", "--quiet", "--out", str(tmp_path / "d"))
    manifest = json.loads((tmp_path / "d" / "manifest.json").read_text("utf-8"))
    assert result.exit_code == 0 and manifest["matches"] == 3
    assert manifest["games"] == manifest["rows"]["games"] >= 6  # 2 or 3 games a match
    assert result.stdout.startswith(f"wrote {manifest['rows']['games']} games in 3 matches, ")


@pytest.mark.parametrize(("variant", "players"), [("catalan", 2), ("valencian", 2), ("french", 4)])
def test_simulate_warns_of_signals_on_without_partners(variant: str, players: int, tmp_path: Path) -> None:
    out = tmp_path / "d"
    args = ["simulate", "--variant", variant, "--players", str(players), "--games", "2", "--quiet"]
    result = run(*args, "--option", "signals=on", "--out", str(out))
    assert result.exit_code == 0, result.output
    expected = (
        []
        if players == 4
        else ["warning: --option signals=on has no effect with 2 players: partners signal, in 4 players"]
    )
    assert result.stderr.splitlines() == expected


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "--variant", "mus", "--games", "2"], "unknown variant 'mus'; variants: catalan"),
        (["simulate", "--variant", "catalen", "--games", "2"], "unknown variant 'catalen' (did you mean 'catalan'?)"),
        (["simulate", "--policy", "minimax", "--games", "2"], "unknown policy 'minimax'; policies: random, threshold"),
        (["simulate", "--games", "0"], "--games must be between 1 and 9223372036854775807"),
        (["simulate", "--games", "9" * 23], "--games must be between 1 and 9223372036854775807"),
        (["simulate", "--seed", str(2**63)], "--seed must be between 0 and 9223372036854775807"),
        (["simulate", "--seed", "-1"], "--seed must be between 0 and"),
        (["simulate", "--option", "players=3", "--games", "2"], "players='3' is not allowed"),
        (["simulate", "--option", "players", "--games", "2"], "is not of the form key=value"),
        (["simulate", "--option", "players=", "--games", "2"], "--option 'players=' is not of the form key=value"),
        (["simulate", "--seat-policy", "1="], "--seat-policy '1=' is not of the form SEAT=NAME"),
        (["simulate", "--players", "2", "--option", "players=4"], "disagrees"),
        (["simulate", "--seat-policy", "x=random"], "is not of the form SEAT=NAME"),
        (["simulate", "--option", "players=4", "--option", "players=2"], "--option players is given twice"),
        (["simulate", "--seat-policy", "1=random", "--seat-policy", "1=threshold"], "--seat-policy 1 is given twice"),
        (["simulate", "--policy", "threshold", "--option", "signals=on", "--option", "signals=off"], "given twice"),
        (["export"], "--data is required: the dataset to export"),
    ],
)
def test_bad_input_is_one_line_and_a_non_zero_exit(tmp_path: Path, args: list[str], message: str) -> None:
    result = run(*args, "--out", str(tmp_path / "d"), "--quiet")
    assert result.exit_code == 1
    assert result.output.count("\n") == 1 and message in result.output and "Traceback" not in result.output
    assert not (tmp_path / "d").exists()


@pytest.mark.parametrize(
    "args", [["--data", "somewhere"], ["--describe"], ["--columns", "n"], ["--per-dataset"], ["--param", "a=1"]]
)
def test_stats_options_without_a_statistic_are_refused(args: list[str]) -> None:
    # they used to list the statistics as if nothing had been asked
    result = run("stats", *args)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == "error: name the statistic to compute or describe (truc stats lists them)\n"


def test_an_unknown_name_reads_as_a_sentence_not_as_a_quoted_key(tmp_path: Path, sim_dataset_2p: Path) -> None:
    """A KeyError's text is quoted by Python (``"'mus'"``); the CLI prints the message itself."""
    result = run("simulate", "--variant", "mus", "--out", str(tmp_path / "d"))
    assert result.stderr.startswith("error: unknown variant 'mus'; variants: catalan, ")
    empty = run("stats", "bluff_success", "--param", "threshold=", "--data", str(sim_dataset_2p))
    assert (empty.exit_code, empty.stderr) == (1, "error: --param 'threshold=' is not of the form key=value\n")


def test_bad_numbers_are_usage_errors(tmp_path: Path) -> None:
    result = run("simulate", "--games", "many", "--out", str(tmp_path / "d"))
    assert result.exit_code == 2 and "Invalid value for '--games'" in result.output


@pytest.mark.parametrize("command", ["simulate", "import", "export", "report"])
def test_an_output_under_a_file_is_one_line_naming_the_file(command: str, tmp_path: Path, sim_dataset_2p: Path) -> None:
    """An output that cannot be created names the output and why, not the temporary file written first."""
    (tmp_path / "notes").write_text("a file, not a folder\n")
    out = tmp_path / "notes" / "out"
    valid = sorted((Path(__file__).parent / "data" / "valid").glob("*.truc"))[0]
    args = {
        "simulate": ["simulate", "--games", "2", "--players", "2", "--quiet"],
        "import": ["import", str(valid)],
        "export": ["export", "--data", str(sim_dataset_2p)],
        "report": ["report", "--data", str(sim_dataset_2p)],
    }[command]
    result = run(*args, "--out", str(out))
    assert result.exit_code == 1
    assert result.output.strip() == f"error: cannot write {out}: {tmp_path / 'notes'} is a file, not a folder"
    assert "Traceback" not in result.output and ".tmp" not in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes"]


def test_report_quiet_prints_only_its_result_and_option_keys_are_read_in_any_case(
    tmp_path: Path, sim_dataset_2p: Path
) -> None:
    quiet = run("report", "--data", str(sim_dataset_2p), "--out", str(tmp_path / "r"), "--quiet")
    assert quiet.exit_code == 0 and quiet.stderr == ""
    assert quiet.stdout == f"report written to {tmp_path / 'r' / 'index.html'}\n"
    # --option keys in any case, as the Options tag reads them; a key given twice in two cases is refused
    upper = run("simulate", "--games", "2", "--option", "Players=2", "--option", "SIGNALS = off", "--quiet",
                "--out", str(tmp_path / "d"))  # fmt: skip
    assert upper.exit_code == 0, upper.output
    assert json.loads((tmp_path / "d" / "manifest.json").read_text())["options"]["players"] == "2"
    twice = run("simulate", "--option", "players=4", "--option", "PLAYERS=2", "--out", str(tmp_path / "e"))
    assert twice.exit_code == 1 and "--option players is given twice" in twice.output


def test_export_to_standard_output_and_over_an_existing_file(tmp_path: Path, sim_dataset_2p: Path) -> None:
    """``--out -`` writes the text on stdout and the count on stderr; an existing file needs --overwrite."""
    out = tmp_path / "games.truc"
    written = run("export", "--data", str(sim_dataset_2p), "--out", str(out), "--quiet")
    assert written.exit_code == 0 and written.stdout.startswith("exported ")
    piped = run("export", "--data", str(sim_dataset_2p), "--out", "-", "--quiet")
    assert piped.exit_code == 0 and piped.stdout == out.read_text()
    assert re.fullmatch(r"exported [\d,]+ games to standard output\n", piped.stderr)
    text = out.read_text()
    again = run("export", "--data", str(sim_dataset_2p), "--out", str(out), "--quiet")
    assert (
        again.exit_code == 1
        and again.stderr == f"error: {out} already exists: choose another --out or pass --overwrite\n"
    )
    replaced = run("export", "--data", str(sim_dataset_2p), "--out", str(out), "--overwrite", "--quiet")
    assert replaced.exit_code == 0 and out.read_text() == text


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux)")
def test_an_export_to_a_full_standard_output_says_so_and_not_that_it_was_written(sim_dataset_2p: Path) -> None:
    """Standard output on a full disk: one line saying what failed, exit 1, and no "exported N games" before it."""
    command = [sys.executable, "-c", "from pipeline.cli import main; main()", "export"]
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [*command, "--data", str(sim_dataset_2p), "--out", "-"], stdout=full, stderr=subprocess.PIPE, text=True
        )
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1:] == [
        "error: cannot write to standard output: No space left on device; the export is incomplete"
    ]
    assert "exported" not in done.stderr and "Traceback" not in done.stderr


def test_a_reader_that_stops_early_ends_the_command_quietly() -> None:
    """``truc policies | head -1``: no error line and no Python complaint, the exit code of a broken pipe."""
    command = [sys.executable, "-c", "from pipeline.cli import main; main()", "policies"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # before the command has started writing
    assert process.wait(timeout=60) == 141
    assert process.stderr.read() == b""


_ANOTHER_PIPE_BREAKS = """
import os
import pipeline.policies

def lines():  # a pipe whose reader is gone, not standard output: a worker's, the resource tracker's
    reader, writer = os.pipe()
    os.close(reader)
    os.write(writer, b"chunk")

pipeline.policies.policy_lines = lines
from pipeline.cli import main
main()
"""


@pytest.mark.parametrize("debug", [False, True])
def test_a_pipe_that_is_not_standard_output_breaking_is_an_error_not_a_reader_that_left(debug: bool) -> None:
    """A ``BrokenPipeError`` from another pipe than standard output's (``truc report`` run as nobody: the
    resource tracker that could not start) was taken for a reader that left: exit code 141 and not a word. It is
    an error: one line saying which pipe broke, exit 1; ``TRUC_DEBUG=1`` shows the traceback."""
    env = {**os.environ, "TRUC_DEBUG": "1"} if debug else {k: v for k, v in os.environ.items() if k != "TRUC_DEBUG"}
    command = [sys.executable, "-c", _ANOTHER_PIPE_BREAKS, "policies"]
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=60)
    assert (done.returncode, done.stdout) == (1, "")
    line = (
        "error: a pipe to another process broke (Broken pipe, writing in <string>): the process at its other end "
        "ended early (TRUC_DEBUG=1 shows the traceback)\n"
    )
    if debug:
        assert done.stderr.startswith("Traceback") and done.stderr.endswith(
            f"BrokenPipeError: [Errno 32] Broken pipe\n{line}"
        )
    else:
        assert done.stderr == line


def test_standard_output_closed_after_another_pipe_broke_is_still_the_reader_that_left() -> None:
    """Standard output's reader gone: 141 and silent, whichever pipe the error came from (the reader left first)."""
    command = [sys.executable, "-c", _ANOTHER_PIPE_BREAKS, "policies"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()
    assert process.wait(timeout=60) == 141
    assert process.stderr.read() == b""


def test_a_broken_pipe_under_the_test_runner_is_an_error() -> None:
    """In process (typer's runner: standard output is no file), a ``BrokenPipeError`` is an error in one line."""
    from unittest import mock

    with mock.patch("pipeline.policies.policy_lines", side_effect=BrokenPipeError(32, "Broken pipe")):
        result = run("policies")
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.startswith("error: a pipe to another process broke (Broken pipe, writing in ")


def test_stats_prints_the_columns_asked_for(sim_dataset_2p: Path) -> None:
    args = ["stats", "variant_comparison", "--data", str(sim_dataset_2p), "--format", "csv"]
    result = run(*args, "--columns", "variant, fold_rate", "--columns", "games")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "variant,fold_rate,games" and lines[1].startswith("catalan,")
    described = run("stats", "fold_rates", "--describe")
    assert described.exit_code == 0 and described.stdout.startswith("fold_rates: how often a seat folds")
    unknown = run(*args, "--columns", "variant,nope")
    assert unknown.exit_code == 1 and unknown.stdout == ""
    assert unknown.stderr.startswith("error: variant_comparison has no column 'nope'; columns: variant, players,")


@pytest.mark.parametrize(
    ("raised", "command", "message"),
    [
        # Ctrl-C reaching DuckDB while it hands a result to polars: a RuntimeError, not a KeyboardInterrupt
        (RuntimeError("Query interrupted"), "stats", "error: interrupted\n"),
        (KeyboardInterrupt(), "stats", "error: interrupted\n"),  # a command that writes nothing says so
        (RuntimeError("Query interrupted"), "report", "error: interrupted; nothing was written\n"),
    ],
)
def test_ctrl_c_inside_a_query_is_one_line_and_exit_130(
    raised: BaseException, command: str, message: str, sim_dataset_2p: Path, tmp_path: Path, monkeypatch
) -> None:
    from pipeline import stats

    def interrupted(*args: object, **kwargs: object) -> None:
        raise raised

    monkeypatch.setattr(stats, "_run", interrupted)  # where compute and compute_many (the report's) run a query
    args = ["stats", "fold_rates"] if command == "stats" else ["report", "--out", str(tmp_path / "r")]
    result = run(*args, "--data", str(sim_dataset_2p))
    assert (result.exit_code, result.stdout) == (130, "")
    assert result.stderr.endswith(message) and "Traceback" not in result.stderr  # after report's own steps
    assert not (tmp_path / "r").exists()


def test_a_report_failing_after_charts_were_handed_over_leaves_nothing(
    sim_dataset_2p: Path, tmp_path: Path, monkeypatch
) -> None:
    """The statistics fail after several charts went to the drawing workers (which draw beside them): the
    workers end before the report's temporary folder is removed, so neither the report nor that folder is left."""
    from pipeline import stats

    run_statistic = stats._run
    calls = []

    def failing_late(*args: object, **kwargs: object) -> object:
        calls.append(1)
        if len(calls) == 9:
            raise stats.StatsError("out of memory (a statistic that failed late)")
        return run_statistic(*args, **kwargs)

    monkeypatch.setattr(stats, "_run", failing_late)
    out = tmp_path / "reports" / "r"
    result = run("report", "--out", str(out), "--data", str(sim_dataset_2p))
    assert result.exit_code == 1 and "a statistic that failed late" in result.stderr
    assert "Traceback" not in result.stderr
    assert len(calls) == 9
    time.sleep(1)  # a worker left running would write its chart meanwhile
    assert not out.exists() and list(out.parent.iterdir()) == []


def test_a_duckdb_interrupt_is_told_from_other_errors() -> None:
    import duckdb

    from pipeline.cli import _interrupted
    from pipeline.query import QueryError

    wrapped = QueryError("query: INTERRUPT Error: Interrupted!")
    wrapped.__cause__ = duckdb.InterruptException("Interrupted!")
    assert _interrupted(wrapped) and _interrupted(RuntimeError("Query interrupted"))
    assert not _interrupted(RuntimeError("something else")) and not _interrupted(QueryError("query: syntax"))


def test_ctrl_c_during_a_run_with_workers_is_one_line_and_leaves_nothing(tmp_path: Path) -> None:
    """A terminal's Ctrl-C reaches every process of the command: the workers leave it to the parent, which
    stops them and removes the unfinished dataset (each worker used to print 'Process ForkPoolWorker-N:'
    and the start of a traceback)."""
    out = tmp_path / "d"
    args = ["simulate", "--games", "100000", "--players", "2", "--workers", "2", "--quiet", "--out", str(out)]
    process = subprocess.Popen(
        [sys.executable, "-c", "from pipeline.cli import main; main()", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group, as a terminal's foreground job
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 60
    while not list(tmp_path.glob(".d.tmp-*/games/part-*.parquet")):  # the workers are at work
        assert process.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130
    assert stderr.decode() == "error: interrupted; nothing was written\n" and stdout == b""
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", [["simulate", "--games", "100000", "--workers", "2"], ["export"]])
def test_a_sigterm_stops_the_command_as_ctrl_c_does_and_leaves_nothing(
    tmp_path: Path, sim_dataset: Path, sim_all_variants: Path, command: list[str]
) -> None:
    """``kill``, ``timeout`` or a cancelled job sends SIGTERM to the command alone: it too removes the
    output being written (a hidden temporary folder or file used to stay behind) and exits with 130. An
    export is written in well under a second: one that ends before the signal arrives is run again."""
    out = tmp_path / ("d" if command[0] == "simulate" else "all.truc")
    args = [*command, "--quiet", "--out", str(out)]
    if command[0] == "export":  # 720 games of every variant
        args += ["--data", str(sim_dataset), "--data", str(sim_all_variants)]
    for _attempt in range(5):
        process = subprocess.Popen(
            [sys.executable, "-c", "from pipeline.cli import main; main()", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 60
        while not list(tmp_path.glob(f".{out.name}*")) and process.poll() is None:  # the output is being written
            assert time.monotonic() < deadline
            time.sleep(0.005)
        process.send_signal(signal.SIGTERM)
        stdout, stderr = process.communicate(timeout=60)
        if process.returncode != 0 or command[0] != "export":
            break
        out.unlink()  # the export ended before the signal
    assert process.returncode == 130, stderr
    assert stderr.decode() == "error: interrupted; nothing was written\n"
    assert list(tmp_path.iterdir()) == []


def test_an_error_before_any_game_prints_alone_without_a_progress_bar(tmp_path: Path) -> None:
    empty = tmp_path / "empty.truc"
    empty.write_text("", "utf-8")
    command = ["import", str(empty), "--out", str(tmp_path / "d")]
    result = subprocess.run(
        [sys.executable, "-c", "from pipeline.cli import main; main()", *command],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "100"},
    )
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr == f'error: {empty}: no game found: a game begins with its tags, [Variant "catalan"]\n'


def test_the_progress_bar_counts_games_in_words_on_stderr(tmp_path: Path) -> None:
    """The bar says "1 game", "2 games" (it said "1 games"), on stderr: stdout holds the result alone."""
    for games, counted in ((1, " 1 game "), (2, " 2 games ")):
        command = ["simulate", "--games", str(games), "--out", str(tmp_path / str(games))]
        result = subprocess.run(
            [sys.executable, "-c", "from pipeline.cli import main; main()", *command],
            capture_output=True,
            text=True,
            env={**os.environ, "COLUMNS": "120"},
        )
        assert result.returncode == 0 and result.stdout.startswith(f"wrote {games} game")
        assert result.stderr.startswith("simulating ") and counted in result.stderr and "hands/s" in result.stderr


def test_check_lists_every_invalid_game_and_exits_1(tmp_path: Path) -> None:
    """``truc check`` prints each problem (file:line: the line, the rule) and a count; writes nothing."""
    valid, mixed = HISTORIES / "valid" / "two_players.truc", HISTORIES / "mixed" / "skip_invalid.truc"
    result = run("check", str(valid), str(mixed), "--quiet")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert [line.split(":")[:2] for line in lines[:3]] == [[str(mixed), "23"], [str(mixed), "37"], [str(mixed), "62"]]
    assert lines[0].endswith("'0 retruc': only the team that accepted the last raise may raise again [raise-right]")
    assert lines[3:] == ["checked 2 files: 4 valid games (6 hands), 3 problems"]
    good = runner.invoke(app, ["check", "-", "--quiet"], input=valid.read_text("utf-8"))
    assert (good.exit_code, good.stdout) == (0, "checked 1 file: 1 valid game (3 hands), all valid\n")
    missing = run("check", str(tmp_path / "nope.truc"), str(valid), "--quiet")
    assert missing.exit_code == 1
    assert missing.stdout.splitlines() == [
        f"{tmp_path / 'nope.truc'}: no such file",
        "checked 2 files: 1 valid game (3 hands), 1 problem",
    ]
    assert list(tmp_path.iterdir()) == []


def test_check_starts_without_duckdb_or_polars() -> None:
    """``truc check`` reads and replays files and writes nothing: it imports neither DuckDB nor polars, which only
    an import's tallies need (``pipeline.tallies``, imported where they are written); they took about half of a
    one-game check's time."""
    script = (
        "import sys\n"
        "from pipeline.cli import main\n"
        "sys.argv = ['truc', 'check', sys.argv[1], '--quiet']\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as exc:\n"
        "    assert not exc.code, exc.code\n"
        "print(sorted({'duckdb', 'polars'} & set(sys.modules)), file=sys.stderr)\n"
    )
    valid = HISTORIES / "valid" / "two_players.truc"
    done = subprocess.run([sys.executable, "-c", script, str(valid)], capture_output=True, text=True, check=True)
    assert done.stdout == "checked 1 file: 1 valid game (3 hands), all valid\n"
    assert done.stderr.strip().splitlines()[-1] == "[]", done.stderr


def test_a_dataset_path_or_a_query_that_is_not_utf8_is_one_line(tmp_path: Path, sim_dataset_2p: Path) -> None:
    """A folder's name in bytes that are not UTF-8 (kept by Python as lone surrogates), which pyarrow and DuckDB
    refused with a bare codec error naming no option, and standard input that is not UTF-8 for ``truc sql``."""
    command = [sys.executable, "-c", "from pipeline.cli import main; main()"]
    odd = os.fsdecode(bytes(tmp_path) + b"/d\xff")
    cases = [
        (["simulate", "--games", "2", "--quiet", "--out", odd], "cannot write"),
        (["stats", "mano_advantage", "--data", odd], "cannot read"),
    ]
    for args, verb in cases:
        done = subprocess.run([*command, *args], capture_output=True)
        assert done.returncode == 1, args
        lines = done.stderr.decode("utf-8", "replace").splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"error: {verb} "), lines
        assert lines[0].endswith(
            ": its name is not UTF-8 text, which the Parquet and DuckDB libraries need; rename it or choose another"
        )
    assert [path.name for path in tmp_path.iterdir()] == []
    done = subprocess.run(
        [*command, "sql", "--data", str(sim_dataset_2p), "-"], input=b"select \xff\xfe", capture_output=True
    )
    assert (done.returncode, done.stderr) == (1, b"error: standard input is not UTF-8 text\n")


def test_an_empty_statistic_keeps_stdout_clean_and_says_why_on_stderr(sim_dataset_2p: Path) -> None:
    """The envit over Catalan games: a CSV header alone on stdout (still valid CSV), the reason on stderr."""
    result = run("stats", "envit", "--data", str(sim_dataset_2p), "--format", "csv")
    assert result.exit_code == 0
    assert result.stdout == "variant,players,policy,measure,level,n,count,rate,ci_low,ci_high,mean\n"
    assert result.stderr == "note: no rows: envit counts only valencian games, and the data holds none\n"
    rows = run("stats", "first_trick_value", "--data", str(sim_dataset_2p), "--format", "csv")
    assert rows.exit_code == 0 and rows.stderr == ""


def test_datasets_prints_a_row_per_run(sim_dataset_2p: Path, tmp_path: Path) -> None:
    manifest = json.loads((sim_dataset_2p / "manifest.json").read_text())
    result = run("datasets", "--data", str(sim_dataset_2p), "--format", "json")
    assert result.exit_code == 0, result.output
    [row] = json.loads(result.stdout)
    assert (row["kind"], row["variant"], row["games"], row["hands"]) == (
        "simulation", "catalan", manifest["games"], manifest["hands"],
    )  # fmt: skip
    missing = run("datasets", "--data", str(tmp_path / "nope"))
    assert (
        missing.exit_code == 1 and missing.output == f"error: {tmp_path / 'nope'} does not exist or is not a folder\n"
    )


def test_export_of_one_game(sim_dataset_2p: Path) -> None:
    result = run("export", "--data", str(sim_dataset_2p), "--game", "3", "--out", "-", "--quiet")
    assert result.exit_code == 0 and result.stderr == "exported 1 game to standard output\n"
    assert result.stdout.count("[Variant ") == 1 and "\nhand 1 dealer " in result.stdout


@pytest.mark.parametrize("command", ["stats first_trick_value", "datasets"])
def test_an_unknown_format_is_refused_before_reading_the_data(command: str, tmp_path: Path) -> None:
    result = run(*command.split(), "--data", str(tmp_path / "nope"), "--format", "xml")
    assert result.exit_code == 1
    assert result.output == "error: unknown format 'xml': choose one of table, csv, json\n"


def _file_size_limit(limit: int) -> None:
    """In the child: files may not grow beyond ``limit`` bytes; a write past it fails with EFBIG (the
    signal that would kill the process instead is ignored), as on a full disk or an exhausted quota."""
    import resource

    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


@pytest.mark.parametrize("command", ["simulate", "export"])
def test_an_output_that_cannot_grow_is_one_line_and_leaves_nothing(
    command: str, tmp_path: Path, sim_dataset: Path
) -> None:
    out = tmp_path / "out"
    args = {
        "simulate": ["simulate", "--games", "2000", "--workers", "2"],
        "export": ["export", "--data", str(sim_dataset)],
    }[command]
    process = subprocess.run(
        [sys.executable, "-c", "from pipeline.cli import main; main()", *args, "--out", str(out), "--quiet"],
        capture_output=True,
        preexec_fn=lambda: _file_size_limit(20_000),
        timeout=120,
    )
    assert process.returncode == 1
    assert process.stderr.decode() == f"error: cannot write {out}: File too large; nothing was written\n"
    assert list(tmp_path.iterdir()) == []


def test_import_reads_standard_input(tmp_path: Path, sim_dataset_2p: Path) -> None:
    """``truc export --out - | truc import - --out d`` keeps every game."""
    text = run("export", "--data", str(sim_dataset_2p), "--out", "-", "--quiet").stdout
    result = runner.invoke(app, ["import", "-", "--out", str(tmp_path / "d"), "--quiet"], input=text)
    assert result.exit_code == 0, result.output
    simulated = json.loads((sim_dataset_2p / "manifest.json").read_text())
    games, hands = simulated["games"], simulated["hands"]
    assert result.stdout == f"imported {games:,} games, {hands:,} hands to {tmp_path / 'd'}\n"
    assert json.loads((tmp_path / "d" / "manifest.json").read_text())["sources"] == ["<stdin>"]


def test_report_writes_the_page_under_its_title(tmp_path: Path, sim_dataset_2p: Path) -> None:
    """The whole command: statistics, charts and the page, headed by --title (escaped as HTML)."""
    out = tmp_path / "r"
    result = run("report", "--data", str(sim_dataset_2p), "--out", str(out), "--title", "Bluffs <2p> & folds")
    assert result.exit_code == 0, result.output
    assert result.stdout == f"report written to {out / 'index.html'}\n"
    assert "computing mano_advantage" in result.stderr and "writing index.html" in result.stderr
    page = (out / "index.html").read_text("utf-8")
    assert "<title>Bluffs &lt;2p&gt; &amp; folds</title>" in page and "<h1>Bluffs &lt;2p&gt; &amp; folds</h1>" in page
    assert (out / "charts" / "mano_advantage.png").read_bytes().startswith(b"\x89PNG")
    blank = run("report", "--data", str(sim_dataset_2p), "--out", str(tmp_path / "blank"), "--title", " ")
    assert blank.exit_code == 1 and blank.output == "error: the report's title is empty\n"
    assert not (tmp_path / "blank").exists()
    odd = run("report", "--data", str(sim_dataset_2p), "--out", str(tmp_path / "odd"), "--title", "a\udcffb")
    assert (odd.exit_code, odd.output) == (1, "error: the report's title (--title) is not UTF-8 text\n")
    assert not (tmp_path / "odd").exists()
