"""The ``truc`` command: one thin command per pipeline stage.

Each command parses its options, calls one library function and prints. Heavy libraries (DuckDB,
polars, Altair) are imported inside the commands so that ``truc --help`` starts fast. Every error the
library raises for bad input becomes one line on stderr and a non-zero exit; ``TRUC_DEBUG=1`` shows the
traceback instead.
"""

from __future__ import annotations

import functools
import os
import shlex
import shutil
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Final, TypeVar

import typer
from typer.core import TyperArgument, TyperCommand

from pipeline import __version__
from pipeline.names import counted

F = TypeVar("F", bound=Callable[..., Any])


class _NamedArgument(TyperArgument):
    """An argument shown in help by its metavar alone: typer prints its Python type beside it
    (``FILE <list[Path]>``), which tells a user nothing."""

    def display_type_rich(self, ctx: Any) -> str | None:
        return None if self.metavar else super().display_type_rich(ctx)


class _Command(TyperCommand):
    """A command whose arguments with a metavar are shown by it alone (``_NamedArgument``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for param in self.params:
            if type(param) is TyperArgument:
                param.__class__ = _NamedArgument  # same fields, only the help line differs


app = typer.Typer(
    name="truc",
    help="Truc Lab: simulate, import, measure and report games of the Truc family.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain usage errors: one "Error: ..." line, no boxes
)


def command(*args: Any, **kwargs: Any) -> Callable[[F], F]:
    """``app.command`` with this CLI's command class."""
    return app.command(*args, cls=_Command, **kwargs)


def _known_errors() -> tuple[type[BaseException], ...]:
    """The exception types that mean bad input, not a bug (imported only when an error happens)."""
    from pipeline.store import DatasetError
    from pipeline.workers import WorkerDied

    errors: list[type[BaseException]] = [ValueError, LookupError, OSError, DatasetError, WorkerDied]
    try:
        from pipeline.stats import StatsError

        errors.append(StatsError)
    except ImportError:
        pass
    try:
        from pipeline.history import HistoryError

        errors.append(HistoryError)
    except ImportError:
        pass
    return tuple(errors)


def _fail(message: str, code: int = 1) -> None:
    """One line on stderr: the message's characters that are not text escaped (it may quote a folder's name,
    a dataset's value, a query), so that no escape sequence reaches the terminal."""
    from pipeline.printable import escaped

    typer.echo(f"error: {escaped(message)}", err=True)
    raise typer.Exit(code)


def _reader_left() -> None:
    """The reader of standard output closed it (``truc policies | head -1``): stop quietly, as a Unix tool
    does, with the exit code of a broken pipe (128 + SIGPIPE), and without Python's complaint at exit."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    raise typer.Exit(141)


def _stdout_closed() -> bool:
    """Whether standard output is a pipe or a socket whose reader has gone: the one ``BrokenPipeError`` that
    ``_reader_left`` answers. Any other pipe may break too (a worker's, multiprocessing's resource tracker's, whose
    process could not start), and was taken for it: ``truc report`` run as a user who may not run the Python
    interpreter ended with exit code 141 and not a word. Linux polls the writing end of a pipe with no reader
    as ``POLLERR`` (a socket whose peer left, ``POLLHUP``); a system without ``poll`` keeps the old answer."""
    import select
    import stat

    try:
        descriptor = sys.stdout.fileno()
        if not stat.S_ISFIFO(mode := os.fstat(descriptor).st_mode) and not stat.S_ISSOCK(mode):
            return False  # a terminal, a file, /dev/null: none raises BrokenPipeError
    except (AttributeError, ValueError, OSError):  # no standard output, or not a file (io.UnsupportedOperation)
        return False
    if not hasattr(select, "poll"):
        return True
    poll = select.poll()
    poll.register(descriptor, select.POLLOUT)
    return any(events & (select.POLLERR | select.POLLHUP) for _, events in poll.poll(0))


def _broken_pipe(exc: BrokenPipeError, writing: bool) -> str:
    """The line that says which pipe broke, when it is not standard output's: where it was written to, as the
    innermost frame of the traceback names it (``multiprocessing/resource_tracker.py``); ``writing``: the command
    writes an output, which its failure leaves unwritten."""
    import traceback

    frames = traceback.extract_tb(exc.__traceback__)
    where = "/".join(Path(frames[-1].filename).parts[-2:]) if frames else "an unknown place"
    written = "; nothing was written" if writing else ""
    return (
        f"a pipe to another process broke ({exc.strerror or exc}, writing in {where}): the process at its other "
        f"end ended early{written} (TRUC_DEBUG=1 shows the traceback)"
    )


_WRITING_COMMANDS: Final = frozenset({"simulate", "import_", "export", "report"})


def _interrupted(exc: BaseException | None) -> bool:
    """Whether ``exc`` (or what it was raised from) is Ctrl-C reaching DuckDB mid-query: DuckDB raises its
    ``InterruptException``, or a ``RuntimeError`` ``Query interrupted`` while handing a result to polars."""
    while exc is not None:
        if type(exc).__name__ == "InterruptException" or (
            isinstance(exc, RuntimeError) and str(exc) == "Query interrupted"
        ):
            return True
        exc = exc.__cause__
    return False


def clean_errors(command: F) -> F:
    """Turn the library's input errors into one line and exit code 1, and Ctrl-C into one line and 130."""
    writing = command.__name__ in _WRITING_COMMANDS
    interrupted = "interrupted; nothing was written" if writing else "interrupted"

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except typer.Exit:
            raise
        except KeyboardInterrupt:
            _fail(interrupted, 130)
        except BrokenPipeError as exc:
            if _stdout_closed():
                _reader_left()
            if os.environ.get("TRUC_DEBUG"):  # click would swallow it re-raised (its EPIPE is standard output's)
                import traceback

                traceback.print_exc()
            _fail(_broken_pipe(exc, writing))
        except Exception as exc:
            if _interrupted(exc):
                _fail(interrupted, 130)
            if os.environ.get("TRUC_DEBUG") or not isinstance(exc, _known_errors()):
                raise
            text = str(exc) if not isinstance(exc, KeyError) else str(exc.args[0] if exc.args else exc)
            _fail(text)

    return wrapper  # type: ignore[return-value]


def _version(value: bool) -> None:
    if value:
        from pipeline import accel

        typer.echo(f"truc-lab {__version__}, engine {accel.status()}")
        raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Truc Lab: simulate, import, measure and report games of the Truc family."""
    from pipeline import accel

    if (line := accel.notice()) is not None:
        typer.echo(line, err=True)


def _pairs(values: list[str], what: str) -> dict[str, str]:
    """``KEY=VALUE`` items as a dict; keys read in any case, as the ``Options`` tag of a history reads them."""
    result: dict[str, str] = {}
    for item in values:
        key, sep, value = (part.strip() for part in item.partition("="))
        key = key.lower()
        if not sep or not key or not value:
            _fail(f"{what} {item!r} is not of the form key=value")
        if key in result:
            _fail(f"{what} {key} is given twice ({key}={result[key]}, {item})")
        result[key] = value
    return result


@command(short_help="Variants, player counts, options, defaults.")
@clean_errors
def variants() -> None:
    """List the variants with their player counts, options and defaults."""
    from pipeline.variants import VARIANTS

    for variant in VARIANTS.values():
        players = "/".join(str(p) for p in variant.players)
        target = f"target {variant.target} {variant.unit}"
        typer.echo(f"{variant.name}: {variant.title}, {players} players, {target} ({variant.source})")
        for option in variant.options:
            values = "|".join(option.values)
            typer.echo(f"    --option {option.name}={values}  (default {option.default}): {option.help}")


@command(short_help="Bots, their parameters, what each variant reads.")
@clean_errors
def policies() -> None:
    """List the bots and their parameters, one line each: type and range, default, meaning, the variants that read
    it."""
    from pipeline.policies import policy_lines

    for line in policy_lines():
        typer.echo(line)


# Where the chunks of games are played (simulate, match, tournament, sweep): declared once.
_Backend = Annotated[
    str,
    typer.Option(
        metavar="NAME",
        help="Where the games are played: local (worker processes on this machine) or ray (a Ray cluster; "
        "pip install 'truc-lab[ray]'); the data does not depend on it.",
    ),
]
_Address = Annotated[
    str | None,
    typer.Option(
        metavar="ADDR",
        help="With --backend ray: the cluster's address (HOST:PORT of its head, or auto: the Ray running on this "
        "machine).  [default: a Ray started on this machine for the command]",
        show_default=False,
    ),
]


@command(short_help="Play bots against each other into a dataset.")
@clean_errors
def simulate(
    out: Annotated[
        Path, typer.Option(metavar="DIR", help="Dataset folder to create (games/, hands/, seats/, events/).")
    ],
    variant: Annotated[str, typer.Option(metavar="NAME", help="Variant to play; see `truc variants`.")] = "catalan",
    games: Annotated[
        int,
        typer.Option(
            metavar="N", help="Number of complete games to play (of matches, for a variant played in rubbers)."
        ),
    ] = 1000,
    seed: Annotated[
        int, typer.Option(metavar="N", help="Run seed; every game's seed derives from it and its number.")
    ] = 0,
    players: Annotated[
        int | None, typer.Option(metavar="N", help="Number of players (same as --option players=N).")
    ] = None,
    option: Annotated[
        list[str],
        typer.Option(
            "--option", metavar="KEY=VALUE", help="Variant option key=value, repeatable; see `truc variants`."
        ),
    ] = [],  # noqa: B006 (typer reads the default; it is never mutated)
    policy: Annotated[
        str,
        typer.Option(
            metavar="SPEC", help="Policy of every seat: NAME[:k=v,...], e.g. threshold:raise_at=0.8,bluff=0.2."
        ),
    ] = "threshold",
    seat_policy: Annotated[
        list[str],
        typer.Option("--seat-policy", metavar="SEAT=SPEC", help="Policy of one seat: SEAT=NAME[:k=v,...], repeatable."),
    ] = [],  # noqa: B006
    workers: Annotated[
        int | None,
        typer.Option(
            metavar="W",
            help="Worker processes; the data does not depend on it.  [default: every usable core, or with "
            "--backend ray every CPU of the cluster]",
            show_default=False,
        ),
    ] = None,
    backend: _Backend = "local",
    address: _Address = None,
    overwrite: _OverwriteDataset = False,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress bar.")] = False,
) -> None:
    """Play bots against each other and write the games as a Parquet dataset."""
    from pipeline.simulate import SimulationSpec
    from pipeline.simulate import simulate as run
    from pipeline.workers import Backend

    options = _pairs(option, "--option")
    if players is not None:
        if options.get("players", str(players)) != str(players):
            _fail(f"--players {players} disagrees with --option players={options['players']}")
        options["players"] = str(players)
    seats: dict[int, str] = {}
    for item in seat_policy:
        seat, sep, seat_spec = item.partition("=")
        if not sep or not seat.strip().isdigit() or not seat_spec.strip():
            _fail(f"--seat-policy {item!r} is not of the form SEAT=NAME[:k=v,...]")
        if int(seat) in seats:
            _fail(f"--seat-policy {int(seat)} is given twice")
        seats[int(seat)] = seat_spec.strip()
    command = shlex.join(["truc", *sys.argv[1:]])
    spec = SimulationSpec(variant, games, seed, options, policy, seats, workers, command, Backend(backend, address))
    for warning in spec.warnings():
        typer.echo(f"warning: {warning}", err=True)
    bar = _progress(quiet, "simulating")
    with bar as update:
        played = None if update is None else functools.partial(_games_done, update, games)
        tallying = None if quiet else bar.then("computing the statistics' tallies")
        result = run(spec, out, overwrite=overwrite, progress=played, tallying=tallying)
    rows = ", ".join(f"{k} {v:,}" for k, v in result.rows.items())
    rate = result.hands / result.seconds if result.seconds else 0.0
    matches = result.manifest["matches"]
    games_played = counted(result.games, "game") + (f" in {counted(matches, 'match')}" if matches else "")
    typer.echo(
        f"wrote {games_played}, {result.hands:,} hands to {out} ({rows}) in {result.seconds:.1f} s "
        f"on {counted(result.manifest['workers'], 'worker')}, {rate:,.0f} hands/s; the statistics' tallies in "
        f"{result.tally_seconds:.1f} s"
    )


# Options the experiment commands share (match, tournament, sweep): declared once.
_Variant = Annotated[str, typer.Option(metavar="NAME", help="Variant to play; see `truc variants`.")]
_Players = Annotated[int | None, typer.Option(metavar="N", help="Number of players (same as --option players=N).")]
_Options = Annotated[
    list[str],
    typer.Option("--option", metavar="KEY=VALUE", help="Variant option key=value, repeatable; see `truc variants`."),
]
_PairedGames = Annotated[
    int,
    typer.Option(
        metavar="N",
        help="Games per match, an even number: they are played in pairs on the same cards with the seats swapped "
        "(in French Truc played in rubbers, N counts rubbers).",
    ),
]
_Seed = Annotated[int, typer.Option(metavar="N", help="Run seed; every pair's game seed derives from it.")]
_Workers = Annotated[
    int | None,
    typer.Option(
        metavar="W",
        help="Worker processes; the results do not depend on it.  [default: every usable core, or with --backend "
        "ray every CPU of the cluster]",
        show_default=False,
    ),
]
_Format = Annotated[str, typer.Option("--format", metavar="FORMAT", help="table, csv (the main table) or json.")]
_Overwrite = Annotated[
    bool, typer.Option("--overwrite", help="Replace --out if it is an empty folder or this command's own output.")
]
_OverwriteDataset = Annotated[
    bool, typer.Option("--overwrite", help="Replace --out if it is an empty folder or a dataset and nothing else.")
]
_Quiet = Annotated[bool, typer.Option("--quiet", help="No progress bar.")]
_Unpaired = Annotated[
    bool,
    typer.Option(
        "--unpaired", help="Play the second game of each pair on a seed of its own (to measure what pairing gains)."
    ),
]


def _experiment_settings(
    variant: str,
    players: int | None,
    option: list[str],
    games: int,
    seed: int,
    workers: int | None,
    unpaired: bool,
    backend: str,
    address: str | None,
) -> Any:
    from pipeline.experiments.designs import Settings
    from pipeline.workers import Backend

    options = _pairs(option, "--option")
    if players is not None:
        if options.get("players", str(players)) != str(players):
            _fail(f"--players {players} disagrees with --option players={options['players']}")
        options["players"] = str(players)
    command = shlex.join(["truc", *sys.argv[1:]])
    return Settings(variant, games, seed, options, workers, command, not unpaired, Backend(backend, address))


R = TypeVar("R")


def _played(quiet: bool, settings: Any, matches: int, run: Callable[[Callable[[int, int], None] | None], R]) -> R:
    """``run(progress)`` under an experiment's progress bar: games played out of those its ``matches`` play (at
    least, in rubbers)."""
    from pipeline.experiments.runner import total_games, two_sided_config

    total = total_games(matches, settings.games // 2, two_sided_config(settings.variant, settings.options))
    with _progress(quiet, "playing") as update:
        return run(None if update is None else functools.partial(_games_done, update, total))


@command(short_help="Two policies head to head, in pairs of games on the same cards.")
@clean_errors
def match(
    a: Annotated[str, typer.Option("--a", metavar="SPEC", help="Policy A: NAME[:k=v,...]; see `truc policies`.")],
    b: Annotated[str, typer.Option("--b", metavar="SPEC", help="Policy B, the one A is measured against.")],
    out: Annotated[Path, typer.Option(metavar="DIR", help="Dataset folder to create; its manifest holds the result.")],
    variant: _Variant = "catalan",
    players: _Players = None,
    option: _Options = [],  # noqa: B006 (typer reads the default; it is never mutated)
    games: _PairedGames = 10_000,
    seed: _Seed = 0,
    workers: _Workers = None,
    backend: _Backend = "local",
    address: _Address = None,
    format: _Format = "table",
    overwrite: _OverwriteDataset = False,
    quiet: _Quiet = False,
    unpaired: _Unpaired = False,
) -> None:
    """Play policy A against policy B and say which wins more games, by how much, and how sure that is.

    Games come in pairs: the same game seed deals the same cards to the same seats in every hand, and the
    seats are swapped (A holds one team, B the other, then the reverse). The verdict is about games won,
    with a 95% t-interval and a paired t-test over the pairs; the points margin is given beside it."""
    from pipeline.experiments.designs import run_match
    from pipeline.experiments.outputs import match_output
    from pipeline.stats import check_format

    check_format(format)
    settings = _experiment_settings(variant, players, option, games, seed, workers, unpaired, backend, address)
    result = _played(quiet, settings, 1, lambda played: run_match(settings, a, b, out, overwrite, played))
    typer.echo(match_output(result, format, str(out)))


@command(short_help="Several policies, every pair in a paired match: ratings and the meta-game.")
@clean_errors
def tournament(
    policy: Annotated[
        list[str], typer.Option("--policy", metavar="SPEC", help="An entrant: NAME[:k=v,...], repeated (at least 2).")
    ],
    out: Annotated[Path, typer.Option(metavar="DIR", help="Folder to create: one dataset per match, experiment.json.")],
    variant: _Variant = "catalan",
    players: _Players = None,
    option: _Options = [],  # noqa: B006
    games: _PairedGames = 2000,
    seed: _Seed = 0,
    workers: _Workers = None,
    backend: _Backend = "local",
    address: _Address = None,
    format: _Format = "table",
    overwrite: _Overwrite = False,
    quiet: _Quiet = False,
    unpaired: _Unpaired = False,
) -> None:
    """Round robin: every pair of entrants plays a paired match of --games games, all on the same seeds.

    Prints each entrant's Bradley-Terry rating (Elo points, mean 0, 95% bootstrap interval), its weight in the
    Nash mixture of the meta-game (payoff: win rate minus 1/2), its exploitability within the population (the
    best entrant's win rate against it, minus 1/2) and the win-rate matrix."""
    from pipeline.experiments.designs import run_tournament
    from pipeline.experiments.outputs import tournament_output
    from pipeline.stats import check_format

    check_format(format)
    settings = _experiment_settings(variant, players, option, games, seed, workers, unpaired, backend, address)
    matches = len(policy) * (len(policy) - 1) // 2
    found = _played(quiet, settings, matches, lambda played: run_tournament(settings, policy, out, overwrite, played))
    typer.echo(tournament_output(found, format, str(out)))


@command(short_help="A grid of one policy's parameters against an opponent (or itself).")
@clean_errors
def sweep(
    vary: Annotated[
        list[str],
        typer.Option(
            "--vary",
            metavar="KEY=VALUES",
            help="A parameter and its values: KEY=START:STOP:STEP (both ends included) or KEY=V1,V2,...; repeatable "
            "(the grid is every combination).",
        ),
    ],
    out: Annotated[Path, typer.Option(metavar="DIR", help="Folder to create: one dataset per match, experiment.json.")],
    policy: Annotated[str, typer.Option(metavar="SPEC", help="The policy whose parameters vary: NAME[:k=v,...].")] = (
        "threshold"
    ),
    against: Annotated[
        str,
        typer.Option(metavar="SPEC", help="The opponent of every grid point, or `self`: the points play each other."),
    ] = "threshold",
    variant: _Variant = "catalan",
    players: _Players = None,
    option: _Options = [],  # noqa: B006
    games: _PairedGames = 2000,
    seed: _Seed = 0,
    workers: _Workers = None,
    backend: _Backend = "local",
    address: _Address = None,
    format: _Format = "table",
    overwrite: _Overwrite = False,
    quiet: _Quiet = False,
    unpaired: _Unpaired = False,
) -> None:
    """Every grid point plays a paired match of --games games against --against, all on the same seeds.

    Prints each point's win rate and points margin with 95% intervals, and the best point by games won, played
    again on fresh seeds: its win rate there, minus 1/2, is the opponent's best-response margin within this
    family of bots (the best of many noisy estimates is biased upward; fresh games are not). Against `self`,
    the points play one another and the grid's Nash mixture is given."""
    from pipeline.experiments.designs import SELF, grid, parse_vary, run_sweep
    from pipeline.experiments.outputs import sweep_output
    from pipeline.stats import check_format

    check_format(format)
    settings = _experiment_settings(variant, players, option, games, seed, workers, unpaired, backend, address)
    axes = [parse_vary(item) for item in vary]
    points = len(grid(policy, axes)[1])
    matches = points * (points - 1) // 2 if against.strip().lower() == SELF else points + 1
    found = _played(
        quiet, settings, matches, lambda played: run_sweep(settings, policy, axes, against, out, overwrite, played)
    )
    typer.echo(sweep_output(found, format, str(out)))


_HistoryWorkers = Annotated[
    int | None,
    typer.Option(
        metavar="W",
        help="Worker processes, each reading a range of whole games of a file; the output does not depend on it.  "
        "[default: every usable core]",
        show_default=False,
    ),
]


@command("import", short_help="Read .truc hand histories into a dataset.")
@clean_errors
def import_(
    files: Annotated[
        list[Path],
        typer.Argument(
            metavar="FILE", help="The .truc files (a folder: its .truc files) to read; - reads standard input."
        ),
    ],
    out: Annotated[Path, typer.Option(metavar="DIR", help="Dataset folder to create.")],
    overwrite: _OverwriteDataset = False,
    skip_invalid: Annotated[
        bool,
        typer.Option("--skip-invalid", help="Import the valid games and report each invalid one, instead of stopping."),
    ] = False,
    dedupe: Annotated[
        bool,
        typer.Option(
            "--dedupe", help="Import once a game read twice (same variant, options, deals and actions); else a warning."
        ),
    ] = False,
    workers: _HistoryWorkers = None,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress bar.")] = False,
) -> None:
    """Read hand histories in the .truc text format, replay them, and write a Parquet dataset."""
    from pipeline.history.io import NothingToImport, import_files

    try:
        with _progress(quiet, "importing") as update:
            sources = [sys.stdin.buffer if str(path) == "-" else path for path in files]
            result = import_files(
                sources,
                out,
                overwrite=overwrite,
                skip_invalid=skip_invalid,
                dedupe=dedupe,
                progress=update,
                workers=workers,
            )
    except NothingToImport as nothing:
        for problem in nothing.invalid:
            typer.echo(f"skipped: {problem}", err=True)
        raise
    for problem in result.invalid:
        typer.echo(f"skipped: {problem}", err=True)
    for duplicate in result.duplicates:
        typer.echo(f"{'skipped' if dedupe else 'warning'}: {duplicate}", err=True)
    typer.echo(f"imported {counted(result.games, 'game')}, {counted(result.hands, 'hand')} to {out}")


@command(short_help="Check .truc hand histories, writing nothing.")
@clean_errors
def check(
    files: Annotated[
        list[Path],
        typer.Argument(
            metavar="FILE", help="The .truc files (a folder: its .truc files) to check; - reads standard input."
        ),
    ],
    workers: _HistoryWorkers = None,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress bar.")] = False,
) -> None:
    """Check hand histories as an import would, writing nothing: every invalid game, then a count."""
    from pipeline.history.io import check_files

    with _progress(quiet, "checking") as update:
        sources = [sys.stdin.buffer if str(path) == "-" else path for path in files]
        result = check_files(sources, progress=update, workers=workers)
    for problem in result.invalid:
        typer.echo(problem)
    verdict = "all valid" if result.ok else counted(len(result.invalid), "problem")
    read = f"{counted(result.files, 'file')}: {counted(result.games, 'valid game')} ({counted(result.hands, 'hand')})"
    typer.echo(f"checked {read}, {verdict}")
    if not result.ok:
        raise typer.Exit(1)


@command(short_help="Write datasets as canonical .truc text.")
@clean_errors
def export(
    out: Annotated[
        Path, typer.Option(metavar="FILE", help="The .truc file to write (canonical text); - for standard output.")
    ],
    data: Annotated[
        list[Path],
        typer.Option(metavar="DIR", help="Dataset folder (or folder of runs), repeatable to write several; required."),
    ] = [],  # noqa: B006
    game: Annotated[
        list[int], typer.Option(metavar="ID", help="Write only this game (its game_id) of one dataset; repeatable.")
    ] = [],  # noqa: B006
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Replace --out if it is a file.")] = False,
    workers: Annotated[
        int | None,
        typer.Option(
            metavar="W",
            help="Worker processes, each replaying a chunk of games; the output does not depend on it.  "
            "[default: every usable core]",
            show_default=False,
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress bar.")] = False,
) -> None:
    """Write the games of one dataset or several as canonical .truc text."""
    from pipeline.history.io import export_dataset

    if not data:
        _fail("--data is required: the dataset to export")
    to_stdout = str(out) == "-"
    with _progress(quiet, "exporting") as update:
        count = export_dataset(
            data, sys.stdout if to_stdout else out, progress=update, overwrite=overwrite, game_ids=game, workers=workers
        )
    typer.echo(f"exported {counted(count, 'game')} to {'standard output' if to_stdout else out}", err=to_stdout)


@command(short_help="What each dataset holds.")
@clean_errors
def datasets(
    data: Annotated[
        list[Path], typer.Option(metavar="DIR", help="Dataset folder (or folder of runs), repeatable; required.")
    ] = [],  # noqa: B006
    format: Annotated[
        str, typer.Option(metavar="table|csv|json", help="Output: table, csv or json (an array of row objects).")
    ] = "table",
) -> None:
    """List what datasets hold: a row per dataset and variant, player count and options, with its games,
    hands, kind, seed and date."""
    from pipeline.inventory import describe_datasets
    from pipeline.stats import check_format, render

    check_format(format)
    if not data:
        _fail("--data is required: the datasets to describe")
    typer.echo(render(describe_datasets(data), format))


@command(short_help="Read every part of datasets against their manifests.")
@clean_errors
def verify(
    data: Annotated[
        list[Path], typer.Option(metavar="DIR", help="Dataset folder (or folder of runs), repeatable; required.")
    ] = [],  # noqa: B006
) -> None:
    """Read every part of each dataset in full against its manifest (its checksum, its rows), which the other
    commands trust without reading: a line per dataset, ok or which part is damaged and how; exit 1 on damage."""
    from pipeline.printable import escaped
    from pipeline.store import verify_datasets

    if not data:
        _fail("--data is required: the datasets to verify")
    results = verify_datasets(data)
    for folder, damage in results:
        typer.echo(escaped(f"{folder}: {'; '.join(damage) if damage else 'ok'}"))
    if any(damage for _, damage in results):
        raise typer.Exit(1)


@command(short_help="Bring datasets written by an older Truc Lab up to the current format.")
@clean_errors
def upgrade(
    data: Annotated[
        list[Path], typer.Option(metavar="DIR", help="Dataset folder (or folder of runs), repeatable; required.")
    ] = [],  # noqa: B006
) -> None:
    """Rewrite the events of each dataset written before they carried the facts the statistics read (the
    raise each answer faces, each raise's outcome, the acting seat's strength), list every part in its
    manifest once each is read in full and found sound, and write the statistics' tallies where they are
    missing, damaged or computed by other SQL; a current dataset is left as it is, once its parts are found as
    its manifest lists them (as every command checks them, by their sizes: `truc verify` reads them in full)."""
    from pipeline.printable import escaped
    from pipeline.upgrade import upgrade_datasets

    if not data:
        _fail("--data is required: the datasets to upgrade")
    for folder, done in upgrade_datasets(data):
        typer.echo(escaped(f"{folder}: {done or 'up to date'}"))


@command(short_help="List the statistics, or compute one.")
@clean_errors
def stats(
    name: Annotated[str | None, typer.Argument(metavar="NAME", help="Statistic to compute; omit to list them.")] = None,
    data: Annotated[
        list[Path],
        typer.Option(
            metavar="DIR", help="Dataset folder (or folder of runs), repeatable to pool several; required with NAME."
        ),
    ] = [],  # noqa: B006
    param: Annotated[
        list[str], typer.Option("--param", metavar="KEY=VALUE", help="Parameter key=value, repeatable.")
    ] = [],  # noqa: B006
    columns: Annotated[
        list[str],
        typer.Option(metavar="COL,...", help="Print only these columns, in this order; repeatable."),
    ] = [],  # noqa: B006
    describe: Annotated[
        bool, typer.Option("--describe", help="Print what the statistic returns (grain, rows, columns) and stop.")
    ] = False,
    per_dataset: Annotated[
        bool,
        typer.Option(
            "--per-dataset", help="Compute it over each dataset on its own, with a first column dataset, not pooled."
        ),
    ] = False,
    format: Annotated[
        str, typer.Option(metavar="table|csv|json", help="Output: table, csv or json (an array of row objects).")
    ] = "table",
    all_columns: Annotated[
        bool, typer.Option("--all-columns", help="In a terminal, print every column even when the table is wider.")
    ] = False,
    from_rows: Annotated[
        bool,
        typer.Option(
            "--from-rows",
            help="Compute it from the rows, not from the tallies written with each dataset (the same result, slower).",
        ),
    ] = False,
) -> None:
    """List the statistics, or compute one over a dataset: from the tallies written with each dataset, or from
    the rows when a dataset has none (written by an older Truc Lab: truc upgrade writes them) or the parameters
    are not the defaults."""
    from pipeline import stats as library

    if name is None:
        if data or describe or per_dataset or param or columns or all_columns or from_rows:
            _fail("name the statistic to compute or describe (truc stats lists them)")
        for stat in library.list_statistics():
            typer.echo(f"{stat.name}: {stat.description}")
        return
    if describe:
        typer.echo(library.describe(name))
        return
    library.check_format(format)
    if not data:
        _fail("--data is required to compute a statistic")
    names = [column.strip() for item in columns for column in item.split(",") if column.strip()]
    compute = library.compute_each if per_dataset else library.compute
    frame = compute(name, data, _pairs(param, "--param"), names, from_rows)
    left_out: list[str] = []
    if format == "table" and not names and not all_columns and sys.stdout.isatty():
        frame, left_out = library.fit_width(name, frame, shutil.get_terminal_size().columns)
    typer.echo(library.render(frame, format))
    if left_out:
        typer.echo(f"note: {library.left_out_note(left_out)}", err=True)
    if frame.is_empty():
        typer.echo(f"note: no rows: {library.why_empty(name)}", err=True)
    for note in library.pooling_notes(data, separately=per_dataset):
        typer.echo(f"note: {note}", err=True)


@command(short_help="Run your own SQL over datasets.")
@clean_errors
def sql(
    query: Annotated[
        str | None,
        typer.Argument(
            metavar="SQL",
            help="The query (DuckDB SQL); - reads it from standard input. One that starts with a -- comment "
            'goes after a lone -- (truc sql --data d -- "-- ..."), or in --file.',
        ),
    ] = None,
    data: Annotated[
        list[Path],
        typer.Option(metavar="DIR", help="Dataset folder (or folder of runs), repeatable to pool several; required."),
    ] = [],  # noqa: B006
    file: Annotated[
        Path | None,
        typer.Option("--file", metavar="FILE", help="Read the query from this file; - reads standard input."),
    ] = None,
    format: Annotated[
        str, typer.Option(metavar="table|csv|json", help="Output: table, csv or json (an array of row objects).")
    ] = "table",
    max_rows: Annotated[
        int, typer.Option(metavar="N", help="Rows a table shows (0: every row); csv and json show every row.")
    ] = 1000,
) -> None:
    """Run your own SQL over datasets: the tables are games, hands, seats and events, each with a dataset
    column (join on dataset and game_id), e.g. truc sql --data d "select g.variant, h.stake, count(*)
    from hands h join games g using (dataset, game_id) group by all order by all"."""
    from pipeline import query as library
    from pipeline.stats import check_format

    check_format(format)
    library.check_max_rows(max_rows)
    if not data:
        _fail("--data is required: the datasets to query")
    frame = library.run_query(library.query_text(query, file, sys.stdin), data)
    if frame is None:
        return
    text, left_out = library.render_result(frame, format, max_rows)
    typer.echo(text)
    if frame.is_empty():
        typer.echo("note: no rows", err=True)
    if left_out:
        typer.echo(
            f"note: the first {max_rows:,} of {frame.height:,} rows; --max-rows 0 or --format csv shows every row",
            err=True,
        )


@command(short_help="Write the offline HTML strategy report.")
@clean_errors
def report(
    out: Annotated[
        Path, typer.Option(metavar="DIR", help="Report folder to write, e.g. reports/NAME (index.html, charts/).")
    ],
    data: Annotated[
        list[Path],
        typer.Option(metavar="DIR", help="Dataset folder (or folder of runs), repeatable to pool several; required."),
    ] = [],  # noqa: B006
    title: Annotated[str, typer.Option(metavar="TEXT", help="The page's title and heading.")] = "Truc Lab report",
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress lines.")] = False,
) -> None:
    """Write the strategy report: an offline HTML page with a chart per statistic, PNG and SVG too."""
    from pipeline.report.page import build_report

    if not data:
        _fail("--data is required")
    progress = None if quiet else (lambda step: typer.echo(step, err=True))
    result = build_report(data, out, progress=progress, title=title)
    typer.echo(f"report written to {result.html}")


@command(short_help="Exact equilibrium figures of a small variant (OpenSpiel).")
@clean_errors
def equilibrium(
    out: Annotated[
        Path, typer.Option(metavar="DIR", help="Folder for figures.json, cfr_plus.csv, exploitability.png/.svg.")
    ],
    variant: Annotated[str, typer.Option(metavar="NAME", help="Variant (see `truc variants`).")] = "trut",
    players: Annotated[int, typer.Option(metavar="N", help="Number of players.")] = 2,
    option: Annotated[
        list[str],
        typer.Option(
            metavar="KEY=VALUE",
            help="Variant option key=value, repeatable.  [default: deck=8 for trut, deck=7 for catalan]",
            show_default=False,
        ),
    ] = [],  # noqa: B006
    iterations: Annotated[int, typer.Option(metavar="N", min=1, help="CFR+ iterations.")] = 1000,
    bot: Annotated[
        list[str],
        typer.Option(
            metavar="SPEC",
            help="A bot to measure (it must give its probabilities), repeatable.  "
            "[default: random, threshold, and threshold with each of its betting parameters moved both ways]",
            show_default=False,
        ),
    ] = [],  # noqa: B006
    seed: Annotated[
        int, typer.Option(metavar="N", help="Seed of the search bot, made deterministic per information state.")
    ] = 0,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress lines.")] = False,
) -> None:
    """One hand of a small variant solved exactly: its deals, histories and information states, CFR+'s
    exploitability against its iterations, and each bot's exact exploitability in points per hand (needs
    OpenSpiel: pip install 'truc-lab[research]'; docs/equilibrium.md)."""
    try:
        from pipeline.openspiel.figures import SMALL_OPTIONS, equilibrium_figures, interrupted_line
    except ImportError:
        _fail("truc equilibrium needs OpenSpiel: pip install 'truc-lab[research]'")
    from pipeline.filesystem import identity

    before = identity(out / "figures.json")
    try:
        say = None if quiet else (lambda line: typer.echo(line, err=True))
        options = _pairs(option, "--option") if option else dict(SMALL_OPTIONS.get(variant, {}))
        figures = equilibrium_figures(variant, players, options, iterations, out, tuple(bot) or None, say, seed)
        for line in figures.lines():
            typer.echo(line)
        typer.echo(f"figures written to {out}")
    except KeyboardInterrupt:
        _fail(interrupted_line(out, before), 130)


@command(short_help="Train a 2-player policy by Monte Carlo CFR (resumable).")
@clean_errors
def train(
    out: Annotated[Path, typer.Option(metavar="FILE", help="The policy file (its checkpoint: FILE.checkpoint).")],
    variant: Annotated[str, typer.Option(metavar="NAME", help="Variant (see `truc variants`).")] = "catalan",
    option: Annotated[
        list[str], typer.Option(metavar="KEY=VALUE", help="Variant option key=value, repeatable (players=2).")
    ] = [],  # noqa: B006
    iterations: Annotated[int, typer.Option(metavar="N", min=1, help="MCCFR iterations (a hand per seat).")] = 1000,
    seed: Annotated[int, typer.Option(metavar="N", help="Seed of every sample.")] = 0,
    buckets: Annotated[int, typer.Option(metavar="N", min=1, help="Strength buckets of the hand dealt.")] = 8,
    min_visits: Annotated[
        int, typer.Option(metavar="N", min=1, help="Leave out of the file a state reached fewer times.")
    ] = 1,
    against: Annotated[
        Path | None, typer.Option(metavar="FILE", help="Train a best response to this policy file instead.")
    ] = None,
    check_games: Annotated[
        int, typer.Option(metavar="N", min=0, help="Games against the threshold bot to measure the fallback rate.")
    ] = 200,
    checkpoint_seconds: Annotated[
        float, typer.Option(metavar="S", min=0, help="Seconds between two checkpoints.")
    ] = 60.0,
    overwrite: Annotated[
        bool,
        typer.Option(
            "--overwrite", help="Replace --out if it is a file (not needed to continue this training's own output)."
        ),
    ] = False,
    quiet: _Quiet = False,
) -> None:
    """Train the cfr bot: external-sampling MCCFR over one 2-player hand with a card abstraction; kill it and
    run the same command again, it continues from its checkpoint (docs/equilibrium.md)."""
    try:
        from pipeline.openspiel.mccfr import TrainConfig, interrupted_line, train_policy
    except ImportError:
        _fail("truc train needs OpenSpiel: pip install 'truc-lab[research]'")
    from pipeline.filesystem import identity

    before = identity(out)
    try:
        options = {"players": "2", **_pairs(option, "--option")}
        config = TrainConfig.of(variant, options, iterations, seed, buckets, min_visits, against)
        with _progress(quiet, "training") as update:
            bar = None if update is None else (lambda done, total: update(done, total, 2 * done, 2 * done))
            result = train_policy(config, out, bar, checkpoint_seconds, check_games, overwrite)
        for line in result.lines():
            typer.echo(line)
    except KeyboardInterrupt:
        _fail(interrupted_line(out, before, checkpoint_seconds), 130)


def _games_done(update: Callable[[int, int, int, int], None], total: int, games: int, hands: int) -> None:
    """The bar's update from the simulator's ``progress(games, hands)``: games played out of ``total``."""
    update(games, total, games, hands)


class _progress:
    """A rich progress bar with the games and hands done, hands per second and time left; silent when
    ``quiet``. The update takes (done, total, games, hands): ``done`` out of ``total`` in the work's own
    unit (games played or written, bytes read).

    The bar appears with the first update that has a game done (a finished chunk, a game read), so that an
    error found before any game is done prints alone."""

    def __init__(self, quiet: bool, label: str) -> None:
        self.quiet, self.label = quiet, label
        self.bar: Any = None

    def __enter__(self) -> Callable[[int, int, int, int], None] | None:
        if self.quiet:
            return None
        import time

        started = time.perf_counter()

        def update(done: int, total: int, games: int, hands: int) -> None:
            if self.bar is None and games == 0:  # nothing done yet (a reader's first bytes): no bar
                return
            if self.bar is None:
                from rich.console import Console
                from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeRemainingColumn

                self.bar = Progress(
                    TextColumn("{task.description}"),
                    BarColumn(),
                    TaskProgressColumn(),
                    TextColumn("{task.fields[games]:>15} {task.fields[rate]:>10} hands/s"),
                    TimeRemainingColumn(),
                    console=Console(stderr=True),  # the command's result alone on stdout
                )
                self.bar.start()
                self.task = self.bar.add_task(self.label, total=total, games="-", rate="-")
            elapsed = time.perf_counter() - started
            rate = f"{hands / elapsed:,.0f}" if elapsed > 0 else "-"
            self.bar.update(self.task, completed=done, total=total, games=counted(games, "game"), rate=rate)

        return update

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()

    def then(self, line: str) -> Callable[[], None]:
        """A call that stops the bar where it is and says ``line`` under it on stderr: the work's next phase,
        which has no bar of its own."""

        def say() -> None:
            if self.bar is not None:
                self.bar.stop()
                self.bar = None
            typer.echo(line, err=True)

        return say


def _stop_on_sigterm(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main() -> None:
    """The ``truc`` command. A SIGTERM (``kill``, ``timeout``, a cancelled job) stops it as Ctrl-C does:
    the output being written is removed, nothing half-written is left, exit code 130."""
    signal.signal(signal.SIGTERM, _stop_on_sigterm)
    app()
