"""Statistics over one or several datasets: the SQL in ``sql/`` run through DuckDB, returned as polars.

Each statistic is one file ``sql/NAME.sql`` whose header states its grain, its columns and its
parameters; ``sql/staging.sql`` defines the typed views it reads (``stg_games``, ``stg_hands``,
``stg_seats``, ``stg_events``), the intermediate views ``int_envit_steps`` and ``int_raise_answers``
(the envit kept apart from the raise ladder), ``int_answers_to_raises`` and ``int_raise_outcomes`` (each
answer paired with the raise it faces, and each answered raise's outcome), ``int_seat_policies``,
``int_game_policies`` and ``int_side_policies`` (each seat's, all the seats' and each side's policy labels in a
game), and the ``seat_policy`` (a seat's policy label), ``side_points`` and ``others_points`` macros (three
sides in 3-player Trut); ``sql/intervals.sql`` the ``wilson_low``/``wilson_high`` macros of every finish's
intervals. The statistics are declared in ``pipeline.statistics`` (their registry, whose names this module
re-exports); this module holds ``compute``, which checks the dataset folders, opens an in-memory DuckDB
connection, creates the views over the folders' Parquet files and runs one statistic, and
``compute_many``, which runs several in one connection (the report's fifteen: the views created once).
``docs/statistics.md`` describes every statistic for readers.

The frames are sorted by variant, players and the statistic's grouping columns, nulls last. Integers
come back as Int64, rates and means as Float64; a rate over an empty sample and its interval are null.
``render`` turns a frame into the text ``truc stats`` prints (table, csv or json).
"""

from __future__ import annotations

import contextlib
import functools
import json
import tempfile
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Final, TypeVar

import duckdb
import polars as pl

from pipeline import store, tallies
from pipeline.names import counted, did_you_mean
from pipeline.printable import FORMULA_STARTS, NOT_TEXT_CLASS, escaped, json_escaped, spreadsheet_cell
from pipeline.statistics import INTERVALS as INTERVALS
from pipeline.statistics import MIRROR as MIRROR
from pipeline.statistics import MIRRORED_COLUMNS as MIRRORED_COLUMNS
from pipeline.statistics import SQL_DIR as SQL_DIR
from pipeline.statistics import STAGING as STAGING
from pipeline.statistics import STATISTICS as STATISTICS
from pipeline.statistics import Parameter as Parameter
from pipeline.statistics import Statistic as Statistic
from pipeline.statistics import StatsError as StatsError
from pipeline.statistics import get_statistic as get_statistic
from pipeline.statistics import list_statistics as list_statistics
from pipeline.statistics import read_sql as _read_sql
from pipeline.variants import VARIANTS

FORMATS = ("table", "csv", "json")


def resolve_params(statistic: Statistic, params: Mapping[str, str] | None) -> dict[str, float]:
    """The statistic's parameter values: its defaults overridden by ``params`` (text, as from a CLI)."""
    values = statistic.defaults()
    by_name = {p.name: p for p in statistic.parameters}
    for key, raw in (params or {}).items():
        if key not in by_name and not by_name:
            raise StatsError(f"unknown parameter {key!r}: {statistic.name} takes no parameters")
        if key not in by_name:
            raise StatsError(
                f"unknown parameter {key!r}{did_you_mean(key, by_name)} for {statistic.name}: "
                f"valid parameters are {', '.join(sorted(by_name))}"
            )
        parameter = by_name[key]
        try:
            values[key] = parameter.parse(str(raw))
        except ValueError as exc:
            raise StatsError(f"bad value {raw!r} for parameter {key} of {statistic.name}: expected {exc}") from None
    return values


def compute(
    name: str,
    data: Path | Sequence[Path],
    params: Mapping[str, str] | None = None,
    columns: Sequence[str] = (),
    from_rows: bool = False,
) -> pl.DataFrame:
    """Run the statistic ``name`` over one dataset folder or several together; only ``columns``, in that
    order, when some are named (``check_columns``). It reads the datasets' tallies when each has a current one
    (``pipeline.tallies``), the rows otherwise or when ``from_rows``: the same frame.

    Several folders are read as one dataset (their games kept apart: rows are joined within a folder).
    Raises ``StatsError`` for an unknown statistic, column or parameter or a bad value, and
    ``store.DatasetError`` when a folder is missing, incomplete or unreadable.
    """
    statistic = get_statistic(name)
    values = resolve_params(statistic, params)
    selected = check_columns(statistic, columns)
    folders = store.dataset_folders(data)
    files = None if from_rows else tallies.stored(folders, statistic, values)
    with staged(folders, staging=files is None) as con:
        held = variants_held(folders, None if files else con) if statistic.variants else set()
        frame = _run(con, statistic, values, held, files)
    return frame.select(selected)


def compute_many(
    names: Sequence[str],
    data: Path | Sequence[Path],
    con: duckdb.DuckDBPyConnection | None = None,
    progress: Callable[[str], None] | None = None,
    computed: Callable[[str, pl.DataFrame], None] | None = None,
    from_rows: bool = False,
) -> dict[str, pl.DataFrame]:
    """Each statistic of ``names`` over the datasets ``data`` read together, with its default parameters and
    every column, as ``compute`` returns it, by name: in one DuckDB connection, ``con`` when given (``staged``
    over the same folders) or one of its own, so that the staging is created and the files' metadata read
    once for them all rather than once per statistic (a report computes fifteen). ``progress`` is told
    ``computing NAME`` before each, ``computed`` is handed each frame as soon as it is computed (a report draws
    its chart meanwhile). Each reads the datasets' tallies where it can, as ``compute`` does."""
    chosen = [get_statistic(name) for name in dict.fromkeys(names)]
    folders = store.dataset_folders(data)
    with contextlib.nullcontext(con) if con is not None else staged(folders) as connection:
        held = variants_held(folders, connection) if any(s.variants for s in chosen) else set()
        frames = {}
        for statistic in chosen:
            if progress is not None:
                progress(f"computing {statistic.name}")
            values = statistic.defaults()
            files = None if from_rows else tallies.stored(folders, statistic, values)
            frame = _run(connection, statistic, values, held, files)
            frames[statistic.name] = frame.select(check_columns(statistic, ()))
            if computed is not None:
                computed(statistic.name, frames[statistic.name])
    return frames


def variants_held(folders: Sequence[Path], con: duckdb.DuckDBPyConnection | None) -> set[str]:
    """The variants whose games ``folders`` hold (``option_sets``: from the manifests where it can)."""
    return {row[0] for row in option_sets(folders, con)}


def _run(
    con: duckdb.DuckDBPyConnection,
    statistic: Statistic,
    values: Mapping[str, float],
    held: set[str],
    files: Sequence[Path] | None,
) -> pl.DataFrame:
    """The statistic on ``con``, sorted by its keys, every column: its finish over the tally ``files`` (the
    datasets' current tallies, ``tallies.stored``) when given, else its whole SQL over the rows (``con`` staged
    then); as ``limit 0`` (its columns, typed, and no work) when it counts only variants of which the data hold
    none (``held``)."""
    sql = statistic.sql() if files is None else tallies.finish_over(statistic, files)
    if statistic.variants and not held & set(statistic.variants):
        sql = f"select * from (\n{sql}\n) limit 0"
    frame = _limited(con, statistic, lambda: _frame(con.sql(sql, params=_used(sql, values))))
    return frame.sort(list(statistic.keys), nulls_last=True, maintain_order=True)


def _frame(relation: duckdb.DuckDBPyRelation) -> pl.DataFrame:
    """The rows of ``relation`` as a polars frame, handed over by Arrow's C stream interface: the same frame
    as DuckDB's ``.pl()``, without importing pyarrow, which ``.pl()`` does (about 0.13 s of the 0.6 s of a
    ``truc stats`` that reads a tally)."""
    return pl.DataFrame(relation)


def _used(sql: str, values: Mapping[str, float]) -> dict[str, float] | None:
    """The parameters that ``sql`` names (a finish over tallies names none of its statistic's)."""
    return {name: value for name, value in values.items() if f"${name}" in sql} or None


def write_query(con: duckdb.DuckDBPyConnection, statistic: Statistic, sql: str, path: Path) -> None:
    """Write the rows of ``sql`` (a query of ``statistic``, with its default parameters) to the Parquet file
    ``path``, under the statistic's memory limit (``_limited``)."""
    values = _used(sql, statistic.defaults())
    _limited(con, statistic, lambda: con.sql(sql, params=values).write_parquet(str(path)))


Job = tuple[Statistic, str, Path]
"""A query to write (``write_queries``): the statistic it belongs to, its SQL and the Parquet file it goes to."""


def write_queries(
    con: duckdb.DuckDBPyConnection, folders: Sequence[Path], jobs: Sequence[Job], at_once: int
) -> list[Job]:
    """Write every job as ``write_query`` does, ``at_once`` of them at a time, each thread on a cursor of ``con``
    over ``folders`` (``source_cursor``): the queries of a dataset's tallies are many and short, and one alone
    keeps about one core busy. They share the database's memory limit. Ctrl-C interrupts them all; the first
    error stops the others and is raised, but for a query that runs out of memory: the jobs that did are
    returned, for the caller to run again alone."""
    con.execute(f"set memory_limit = '{DUCKDB_MEMORY}'")
    waiting = list(reversed(jobs))
    short: list[Job] = []
    failure: list[BaseException] = []
    lock = threading.Lock()
    cursors: list[duckdb.DuckDBPyConnection] = []

    def take() -> Job | None:
        with lock:
            return waiting.pop() if waiting and not failure else None

    def run_jobs(cursor: duckdb.DuckDBPyConnection) -> None:
        while (job := take()) is not None:
            statistic, sql, path = job
            try:
                cursor.sql(sql, params=_used(sql, statistic.defaults())).write_parquet(str(path))
            except duckdb.OutOfMemoryException:
                with lock:
                    short.append(job)
            except BaseException as exc:  # noqa: BLE001 (handed to the main thread, raised there)
                with lock:
                    failure.append(exc)
                for other in cursors:
                    other.interrupt()

    def stop() -> None:
        with lock:
            waiting.clear()

    try:
        for _ in range(max(1, min(at_once, len(jobs)))):
            cursors.append(source_cursor(con, folders))
        _in_threads([functools.partial(run_jobs, cursor) for cursor in cursors], cursors, failure, stop)
    finally:
        for cursor in cursors:
            cursor.close()
    if failure:
        raise failure[0]
    return sorted(short, key=jobs.index)


class OutOfMemory(StatsError):
    """A statistic's query that needed more than ``DUCKDB_MEMORY``."""


def _limited(con: duckdb.DuckDBPyConnection, statistic: Statistic, work: Callable[[], T]) -> T:
    """``work()``, a query of ``statistic`` on ``con``, under ``DUCKDB_MEMORY`` and interruptible; an operator
    that cannot spill under the limit is a ``StatsError``, never a second run without the limit (which let the
    report grow to 6.6 GB over 10 million hands)."""
    con.execute(f"set memory_limit = '{DUCKDB_MEMORY}'")
    try:
        return interruptible(con, work)
    except duckdb.OutOfMemoryException as exc:
        raise OutOfMemory(
            f"{statistic.name} needs more than its memory limit of {DUCKDB_MEMORY} (DuckDB: "
            f"{str(exc).splitlines()[0]}); this is a bug in its query, please report it"
        ) from None


T = TypeVar("T")


def interruptible(con: duckdb.DuckDBPyConnection, work: Callable[[], T]) -> T:
    """``work()``, a query on ``con``, run in a thread of its own so that Ctrl-C stops it: Python hears a
    signal only in the main thread, between two steps of Python code, and DuckDB does not look for one while
    it executes a query (a cross join went on for minutes). The main thread waits; on Ctrl-C it interrupts
    the query (``con.interrupt()``), waits for the thread to give up, and raises ``KeyboardInterrupt``."""
    outcome: list[T] = []
    failure: list[BaseException] = []
    stopped = threading.Event()

    def run() -> None:
        if stopped.is_set():  # Ctrl-C came while the thread was starting
            return
        try:
            outcome.append(work())
        except BaseException as exc:  # noqa: BLE001 (handed to the main thread, raised there)
            failure.append(exc)

    _in_threads([run], [con], failure, stopped.set)
    if failure:
        raise failure[0]
    return outcome[0]


def _in_threads(
    tasks: Sequence[Callable[[], None]],
    connections: Sequence[duckdb.DuckDBPyConnection],
    failure: list[BaseException],
    stop: Callable[[], None],
) -> None:
    """Run each of ``tasks`` (queries on ``connections``) in a thread of its own and wait until they end.

    On Ctrl-C, even one that comes while the threads are being started: ``stop()``, after which a task starts no
    query; then every query interrupted again and again until each thread that started has ended (DuckDB forgets an
    interrupt that comes before a query starts, so one that comes between a thread taking its query and starting it
    would let that query run to its end); then their errors forgotten (``failure``: DuckDB's hold the interrupted
    queries' frames) and ``KeyboardInterrupt`` raised. A thread whose start the Ctrl-C cut short, not yet alive,
    runs its task after ``stop()`` and starts nothing. (A Ctrl-C between two threads' starts used to leave the first
    one's query running on, with no one waiting for it.) Events polled, not ``Thread.join``: Ctrl-C inside it can
    mark the thread stopped early."""
    ended = [threading.Event() for _ in tasks]
    threads = [
        threading.Thread(target=_then_set, args=(task, done), name="truc-query", daemon=True)
        for task, done in zip(tasks, ended, strict=True)
    ]
    try:
        for thread in threads:
            thread.start()
        for done in ended:
            while not done.wait(0.05):
                pass
    except KeyboardInterrupt:
        stop()
        for thread, done in zip(threads, ended, strict=True):
            while thread.is_alive() and not done.is_set():
                for con in connections:
                    con.interrupt()
                done.wait(0.05)
        failure.clear()
        raise


def _then_set(task: Callable[[], None], done: threading.Event) -> None:
    """``task()``, then ``done`` set, whatever happened."""
    try:
        task()
    finally:
        done.set()


@contextlib.contextmanager
def staged(folders: Sequence[Path], staging: bool = True) -> Iterator[duckdb.DuckDBPyConnection]:
    """An in-memory DuckDB with the staging (``create_staging``) over ``folders``; without it when not
    ``staging``, with the interval macros alone (a statistic read from its tallies reads nothing else: the
    staging's views, which bind to the parts' footers, take about a tenth of such a ``truc stats``). A DuckDB
    error inside the block (a file that changed or broke after the checks, or any other read error: the views
    read the files only when queried) is a ``store.DatasetError`` naming the folders; an error the block
    raises itself passes through."""
    with (
        tempfile.TemporaryDirectory(prefix="truc-duckdb-") as spill,
        duckdb.connect(":memory:", config=_duckdb_config(spill)) as con,
        store.unchanged(folders),
    ):
        try:
            con.execute("set enable_progress_bar = false")  # DuckDB draws it on standard output, among the results
            if staging:
                create_staging(con, folders)
            else:
                con.execute(_read_sql(INTERVALS))
            yield con
        except duckdb.Error as exc:
            raise store.read_error(folders, exc) from exc


DUCKDB_MEMORY: Final = "640MB"
"""DuckDB's memory limit for a statistic (``compute``): what its joins, sorts and windows may hold before they
spill to disk, so that with Python, Arrow and polars around it (about 150 MB) the process stays within 1 GiB as
the data grows (DuckDB's default, 80% of the machine's memory, let ``bluff_success`` grow to 6 GB over 10
million hands). An operator that cannot spill fails at the limit, and the statistic with it, in one line
(``_run``): every statistic is written to spill (``bench/stats_speed.py --memory-check`` over 10 million hands
says which do not). A user's own query (``truc sql``) runs under DuckDB's default."""


def _duckdb_config(spill: str) -> dict[str, Any]:
    """The database's settings: a spill folder of the command's own (an in-memory DuckDB spills to ``.tmp`` in
    the current folder by default), and the insertion order not kept (the frames are sorted after), which lets
    DuckDB stream more and hold less."""
    return {
        "temp_directory": spill,
        "preserve_insertion_order": False,
    }


def compute_each(
    name: str,
    data: Path | Sequence[Path],
    params: Mapping[str, str] | None = None,
    columns: Sequence[str] = (),
    from_rows: bool = False,
) -> pl.DataFrame:
    """The statistic ``name`` over each dataset folder on its own (``compute``), one after the other, with
    a first column ``dataset`` (the folder, as in ``truc sql``): to compare runs, such as two bots or two
    options, that ``compute`` would pool. ``columns`` may name ``dataset`` too, to place it."""
    own = [column for column in columns if column != "dataset"]
    frames = [
        compute(name, folder, params, own, from_rows).select(pl.lit(str(folder)).alias("dataset"), pl.all())
        for folder in store.dataset_folders(data)
    ]
    result = pl.concat(frames, how="vertical_relaxed")
    if "dataset" not in columns:
        return result
    named = list(dict.fromkeys(columns))
    return result.select(named + [column for column in result.columns if column not in named])  # and mirror


def pooled_options(
    data: Path | Sequence[Path], separately: bool = False, con: duckdb.DuckDBPyConnection | None = None
) -> list[str]:
    """A warning for each variant and player count whose games the data hold under several sets of options
    (a Trut run with ``tie_lead=maker`` and one with ``tie_lead=first`` read together): the statistics group
    by variant and player count, so they pool those games. Empty when nothing is pooled that way.
    ``separately``: each folder on its own (``compute_each``), each warning naming its folder. ``con``: a
    connection staged over the folders (``option_sets``)."""
    if separately:
        return [f"{folder}: {note}" for folder in store.dataset_folders(data) for note in pooled_options(folder)]
    rows = option_sets(store.dataset_folders(data), con)
    by_setting: dict[tuple[str, int], dict[str, int]] = {}
    within_one: set[tuple[str, int]] = set()  # settings that one dataset holds under several options
    sets_in: dict[tuple[str, int, str], set[str]] = {}
    for variant, players, options, dataset, games in rows:
        mixes = by_setting.setdefault((variant, players), {})
        mixes[options] = mixes.get(options, 0) + games
        sets = sets_in.setdefault((variant, players, dataset), set())
        sets.add(options)
        if len(sets) > 1:
            within_one.add((variant, players))
    notes = []
    for (variant, players), mixes in by_setting.items():
        if len(mixes) < 2:
            continue
        split = "truc sql can split them by games.options"
        if (variant, players) not in within_one:
            split = "truc stats --per-dataset keeps the runs apart; " + split
        differences = _option_differences(sorted(mixes.items()))
        notes.append(
            f"{variant} with {players} players pools games played under different options: "
            + ", ".join(f"{label} ({counted(games, 'game')})" for label, games in differences)
            + f"; the statistics count them together ({split})"
        )
    return notes


def option_notes(
    data: Path | Sequence[Path], separately: bool = False, con: duckdb.DuckDBPyConnection | None = None
) -> list[str]:
    """What the reader of the statistics must know about the options the games were played under: a note for
    each setting that pools several sets of options (``pooled_options``), then one for each variant whose
    player counts were played under different options (``options_between_player_counts``)."""
    if separately:
        return [f"{folder}: {note}" for folder in store.dataset_folders(data) for note in option_notes(folder)]
    return pooled_options(data, con=con) + options_between_player_counts(data, con)


def pooling_notes(
    data: Path | Sequence[Path], separately: bool = False, con: duckdb.DuckDBPyConnection | None = None
) -> list[str]:
    """Every note on how the data were pooled: the same games read twice (``repeated_runs`` from the
    manifests, ``same_games`` from the games), then the
    options (``option_notes``). With ``separately`` (each dataset on its own), nothing is pooled across
    datasets, so there is no repeated run to note. The notes quote the data (folders, options), shown
    escaped (``printable.escaped``). What the manifests cannot tell is read from the games, on ``con`` when
    given (``staged`` over the folders: the report's one connection)."""
    if separately:
        notes = option_notes(data, True)
    else:
        notes = repeated_runs(data) + same_games(data, con) + option_notes(data, con=con)
    return [escaped(note) for note in notes]


def repeated_runs(data: Path | Sequence[Path]) -> list[str]:
    """A note for each set of datasets that hold the same games: a simulation copied to another folder, or
    run again with the same settings and seed (which plays the same games), or one
    import of the same files at the same moment. Read together, their games count once per copy."""
    notes = []
    for copies, kind in _repeated_groups(store.dataset_folders(data)).items():
        same = "simulation, with the same settings and seed" if kind == store.SIMULATION else "import"
        times = "twice" if len(copies) == 2 else f"{len(copies)} times"
        notes.append(
            f"{_join_words([str(folder) for folder in copies])} hold the same games (the same {same}), so "
            f"each of them is counted {times}; pass one of those datasets"
        )
    return notes


def _repeated_groups(folders: Sequence[Path]) -> dict[tuple[Path, ...], Any]:
    """The sets of ``folders`` (two or more) whose manifests say they hold the same run, each with its kind."""
    by_run: dict[str, list[Path]] = {}
    kinds: dict[str, Any] = {}
    for folder in folders:
        manifest = store.read_manifest(folder)
        run = json.dumps(_run_identity(manifest), sort_keys=True)
        by_run.setdefault(run, []).append(folder)
        kinds[run] = manifest.get("kind")
    return {tuple(copies): kinds[run] for run, copies in by_run.items() if len(copies) > 1}


SAME_GAME_COLUMNS: Final = (
    "variant", "options", "seed", "first_dealer", "hands", "score_team0", "score_team1", "score_team2"
)  # fmt: skip
"""The columns of ``stg_games`` that two copies of a game share (with a seed: a game without one is not
compared). The games of a tournament's matches share seeds on purpose (common random numbers), so the
seats' policies and players are compared too (``SAME_GAMES_SQL``)."""

SAME_SEED_SQL = f"""
select count(*) > 0
from stg_games a join stg_games b
  on a.dataset < b.dataset and a.seed = b.seed
 and hash({", ".join(f"a.{c}" for c in SAME_GAME_COLUMNS)}) = hash({", ".join(f"b.{c}" for c in SAME_GAME_COLUMNS)})
"""
"""Whether games of two datasets may be the same game, from the games table alone (cheap; the seats are
read only when it says yes)."""

SAME_GAMES_SQL = f"""
with seated as (
    select dataset, game_id, list(policy order by seat) as policies, list(player order by seat) as names
    from stg_seats
    where hand_no = 1
    group by dataset, game_id
),
identity as (
    select g.dataset, hash({", ".join(f"g.{c}" for c in SAME_GAME_COLUMNS)}, s.policies, s.names) as game
    from stg_games g join seated s using (dataset, game_id)
    where g.seed is not null
)
select a.dataset, b.dataset, count(*) as games
from identity a join identity b on a.game = b.game and a.dataset < b.dataset
group by all
order by all
"""
"""Each pair of datasets holding the same games, and how many: same ``SAME_GAME_COLUMNS`` and the same
policy and player in each seat (a 64-bit hash of them all: two different games share one with odds of
about one in 10^19 a pair)."""


def same_games(data: Path | Sequence[Path], con: duckdb.DuckDBPyConnection | None = None) -> list[str]:
    """A note for each pair of datasets holding the same games that ``repeated_runs`` does not already
    name (from the games themselves, not the manifests): a simulation pooled with an import of its own
    export (``truc export``, then ``truc import``), or with a run of the same seed and settings but more
    games. Their games would count twice. Read on ``con`` when given (``staged`` over exactly the folders)."""
    folders = store.dataset_folders(data)
    if len(folders) < 2:
        return []
    with contextlib.nullcontext(con) if con is not None else staged(folders) as connection:
        if not connection.execute(SAME_SEED_SQL).fetchone()[0]:  # type: ignore[index]
            return []
        pairs = connection.execute(SAME_GAMES_SQL).fetchall()
    noted = {frozenset(group) for group in _repeated_groups(folders)}
    notes = []
    for first, second, games in pairs:
        if any({Path(first), Path(second)} <= group for group in noted):
            continue
        notes.append(
            f"{first} and {second} hold {counted(games, 'game')} that are the same (variant, options, seed, "
            "first dealer, hands, final score and each seat's policy and player): an import of the other's "
            "export, or the same run again? Each of those games is counted twice; pass one of those datasets"
        )
    return notes


RUN_IDENTITY: Final = ("kind", "variant", "options", "players", "seed", "games", "matches", "policies", "rows")
"""What makes a simulation's games: the same values play the same games (``created`` aside)."""


def _run_identity(manifest: dict[str, Any]) -> dict[str, Any]:
    if manifest.get("kind") == store.SIMULATION:
        return {key: manifest.get(key) for key in RUN_IDENTITY}
    # an import: the same sources at the same moment (``created``), and every other field but its list of parts
    return {key: value for key, value in manifest.items() if key != store.PARTS}


def _join_words(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def options_between_player_counts(
    data: Path | Sequence[Path], con: duckdb.DuckDBPyConnection | None = None
) -> list[str]:
    """A note for each variant whose player counts the data hold under different options, where the option
    changes the game at both counts (``OptionSpec.players``: partners' signals mean nothing with 2
    players): set side by side, as every statistic and the comparison set its player counts, they differ
    by the options as well. A player count that pools several sets of options is left to
    ``pooled_options``. ``con``: as ``option_sets`` takes it."""
    rows = option_sets(store.dataset_folders(data), con)
    sets: dict[str, dict[int, set[str]]] = {}
    for variant, players, options, _dataset, _games in rows:
        sets.setdefault(variant, {}).setdefault(players, set()).add(options or "")
    notes = []
    for variant, by_count in sets.items():
        alone = {players: _parse_options(next(iter(texts))) for players, texts in by_count.items() if len(texts) == 1}
        specs = {spec.name: spec for spec in VARIANTS[variant].options} if variant in VARIANTS else {}
        differing = [
            name
            for name, spec in specs.items()
            if name != "players"
            and len({options.get(name) for players, options in alone.items() if spec.applies_at(players)}) > 1
        ]
        if not differing:
            continue
        described = [
            f"{players} players "
            + " ".join(f"{name}={options.get(name, '?')}" for name in differing if specs[name].applies_at(players))
            for players, options in sorted(alone.items())
            if any(specs[name].applies_at(players) for name in differing)
        ]
        notes.append(
            f"{variant} was played under different options at different player counts ({', '.join(described)}): "
            "where the statistics set its player counts side by side, they differ by the options as well"
        )
    return notes


def _parse_options(text: str) -> dict[str, str]:
    """``"players=2 tie_lead=first"`` -> ``{"players": "2", "tie_lead": "first"}``."""
    return dict(pair.split("=", 1) for pair in text.split() if "=" in pair)


POOLED_OPTIONS_SQL = """
select variant, players, options, dataset, count(*) as games
from stg_games
group by all
order by variant, players, options, dataset
"""


def option_sets(
    folders: Sequence[Path], con: duckdb.DuckDBPyConnection | None = None
) -> list[tuple[str, int, str, str, int]]:
    """The games of ``folders`` counted by variant, players, options and dataset (``POOLED_OPTIONS_SQL``, in
    its order). A simulation's come from its manifest (``_simulation_options``), which the readers trust as
    they trust its list of parts: a run plays every game under one configuration, and its manifest records
    it with the games' count; the games of the other datasets (an import may mix variants) are read, on
    ``con`` when given (``staged`` over ``folders``, or more), else on a connection of their own."""
    rows = []
    read = []
    for folder in folders:
        row = _simulation_options(folder)
        if row is None:
            read.append(folder)
        else:
            rows.append(row)
    if read:
        wanted = {str(folder) for folder in read}
        with contextlib.nullcontext(con) if con is not None else staged(read) as connection:
            rows.extend(row for row in connection.execute(POOLED_OPTIONS_SQL).fetchall() if row[3] in wanted)
    return sorted(rows, key=lambda row: row[:4])


def _simulation_options(folder: Path) -> tuple[str, int, str, str, int] | None:
    """The one row of ``option_sets`` of the simulation ``folder``, from its manifest: its variant, players,
    options (``Config.options_text``, as its games were written) and games. None for any other dataset, and
    for a manifest whose options are not every option of its variant, each canonical (written before an
    option existed, or edited): its games are read instead."""
    manifest = store.read_manifest(folder)
    variant, players, options, games = (manifest.get(key) for key in ("variant", "players", "options", "games"))
    if manifest.get("kind") != store.SIMULATION or not isinstance(variant, str) or not isinstance(options, dict):
        return None
    if type(players) is not int or type(games) is not int or games < 1:
        return None
    try:
        config = VARIANTS[variant].configure({str(key): str(value) for key, value in options.items()})
    except (KeyError, ValueError):
        return None
    if dict(config.options) != options or config.players != players:
        return None
    return variant, players, config.options_text(), str(folder), games


def _option_differences(mixes: Sequence[tuple[str | None, int]]) -> list[tuple[str, int]]:
    """Each set of options (canonical ``k=v k=v`` text) named by the options in which the sets differ:
    ``tie_lead=first`` rather than every option of the variant."""
    parsed = [_parse_options(options or "") for options, _ in mixes]
    keys = list(dict.fromkeys(key for options in parsed for key in options))
    differing = [key for key in keys if len({options.get(key) for options in parsed}) > 1]
    return [
        (" ".join(f"{key}={options.get(key, '?')}" for key in differing) or (text or "no options"), games)
        for options, (text, games) in zip(parsed, mixes, strict=True)
    ]


def why_empty(name: str) -> str:
    """Why the statistic ``name`` may return no rows, for a note beside an empty result: the variants it
    counts, when it counts only some, else that the data holds nothing it counts."""
    statistic = get_statistic(name)
    if statistic.variants:
        *rest, last = statistic.variants
        variants = f"{', '.join(rest)} or {last}" if rest else last
        return f"{name} counts only {variants} games, and the data holds none"
    return f"the data holds no hand that {name} counts"


def check_columns(statistic: Statistic, columns: Sequence[str]) -> list[str]:
    """The columns of ``statistic`` named in ``columns`` (each once, in that order), all of them when none is
    named: a statistic of 37 columns is hard to read as a table. A column that a mirror row leaves null
    (``Statistic.mirrored``) brings ``mirror`` along, last, when it is not named. An unknown name is a
    ``StatsError`` listing the statistic's columns, raised before any data is read."""
    unknown = [column for column in columns if column not in statistic.columns]
    if unknown:
        raise StatsError(
            f"{statistic.name} has no column "
            f"{', '.join(repr(c) + did_you_mean(c, statistic.columns) for c in unknown)}; "
            f"columns: {', '.join(statistic.columns)}"
        )
    selected = list(dict.fromkeys(columns)) or list(statistic.columns)
    if MIRROR not in selected and any(column in statistic.mirrored for column in selected):
        selected.append(MIRROR)  # a result left null on a mirror row must say why
    return selected


def fit_width(name: str, frame: pl.DataFrame, width: int) -> tuple[pl.DataFrame, list[str]]:
    """``frame`` (the statistic ``name``, every column) as a table for a terminal ``width`` characters wide,
    and the columns it leaves out: when its table is wider, only the statistic's ``brief`` columns (with
    ``dataset`` and ``mirror`` when the frame has them), which may still be wider; unchanged when it fits or
    the statistic declares no brief columns (``variant_comparison`` has 38 columns, about 540 characters a
    row). A table written to a file or a pipe is not fitted: it is for reading whole."""
    statistic = get_statistic(name)
    if not statistic.brief or _table_width(frame) <= width:
        return frame, []
    kept = [column for column in ("dataset", *check_columns(statistic, statistic.brief)) if column in frame.columns]
    return frame.select(kept), [column for column in frame.columns if column not in kept]


def _table_width(frame: pl.DataFrame) -> int:
    """The width of ``frame``'s table (``render``): its widest line."""
    return max(len(line) for line in render(frame, "table").splitlines())


def left_out_note(left_out: Sequence[str]) -> str:
    """What a table fitted to the terminal (``fit_width``) left out, and how to see it."""
    return (
        f"{counted(len(left_out), 'column')} left out to fit the terminal ({', '.join(left_out)}): "
        "--columns names the ones to show, --all-columns or --format csv|json shows every one"
    )


def describe(name: str) -> str:
    """What the statistic ``name`` returns, from the header comment of its SQL file: its grain, the rows it
    counts and the definition of every column (``truc stats NAME --describe``)."""
    lines = []
    for line in _read_sql(get_statistic(name).name).splitlines():
        if not line.startswith("--"):
            break
        lines.append(line[3:] if line.startswith("-- ") else line[2:])
    return "\n".join(lines).strip()


def check_format(format: str) -> str:
    """``format`` when ``render`` knows it, else a ``StatsError`` naming the formats (checked before any
    data is read)."""
    if format not in FORMATS:
        raise StatsError(f"unknown format {format!r}: choose one of {', '.join(FORMATS)}")
    return format


def render(frame: pl.DataFrame, format: str = "table") -> str:
    """``frame`` as text: ``table`` (Markdown, every row and column), ``csv``, or ``json`` (an array of
    row objects on one line, written by polars: nulls, NaN and infinity (which JSON lacks) as null, decimals as
    numbers, dates as text). In the table, the results a mirror row leaves null read ``mirror``
    (``_say_mirror``); csv and json have the ``mirror`` column itself (``"mirror": true``).

    No format writes a character that is not text raw (a value from a dataset or a query may hold an
    escape sequence, which a terminal would act on): the table and CSV show it escaped
    (``printable.escaped``: ``\\x1b``), JSON as a JSON escape (the same value). A CSV text cell that
    would start a formula in a spreadsheet (``=HYPERLINK(...)``) is prefixed with ``'``
    (``printable.spreadsheet_cell``); numbers stay numbers."""
    if check_format(format) == "csv":
        frame = _text_cells(frame, spreadsheet_cell).rename(spreadsheet_cell)
        return frame.write_csv().rstrip("\n")
    if format == "json":
        decimals = [name for name, dtype in frame.schema.items() if dtype.is_decimal()]
        return json_escaped(frame.with_columns(pl.col(decimals).cast(pl.Float64)).write_json())
    frame = _text_cells(_say_mirror(frame), _markdown_cell).rename(_markdown_cell)
    with pl.Config(
        tbl_rows=-1,
        tbl_cols=-1,
        tbl_width_chars=10_000,
        tbl_formatting="ASCII_MARKDOWN",
        tbl_hide_column_data_types=True,
        tbl_hide_dataframe_shape=True,
        fmt_str_lengths=200,
    ):
        return str(frame)


def _text_cells(frame: pl.DataFrame, cell: Callable[[str], str]) -> pl.DataFrame:
    """``frame`` with its text columns (categorical ones read as text) written through ``cell``. Only
    the cells that need it go through Python: a cell holding a character that is not text, or, for the CSV,
    one that may start a formula."""
    texts = [name for name, dtype in frame.schema.items() if dtype in (pl.String, pl.Categorical, pl.Enum)]
    if not texts:
        return frame
    frame = frame.with_columns(pl.col(texts).cast(pl.String))
    starts = "".join(f"\\x{ord(char):02x}" for char in FORMULA_STARTS)
    suspect = rf"{NOT_TEXT_CLASS}|^[{starts}]|\|"
    changed = []
    for name in texts:
        column = frame[name]
        if column.str.contains(suspect).any():
            changed.append(column.map_elements(cell, return_dtype=pl.String, skip_nulls=True))
    return frame.with_columns(changed)


def _say_mirror(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` with the cells a mirror row leaves null (``MIRRORED_COLUMNS``, in rows whose boolean ``mirror``
    is true) reading ``mirror``: such a column becomes text, its numbers rounded to 6 decimals as the table
    shows them."""
    if frame.schema.get(MIRROR) != pl.Boolean:
        return frame
    said = []
    for name, dtype in frame.schema.items():
        if name not in MIRRORED_COLUMNS:
            continue
        value = pl.col(name).round(6) if dtype.is_float() else pl.col(name)
        said.append(
            pl.when(pl.col(MIRROR).fill_null(False) & pl.col(name).is_null())
            .then(pl.lit(MIRROR))
            .otherwise(value.cast(pl.String))
            .alias(name)
        )
    return frame.with_columns(said)


def _markdown_cell(text: str) -> str:
    """How a text is written in a cell of a Markdown table: escaped (``printable.escaped``: a line break
    would split the row, an escape sequence act on the terminal), and a ``|``, which would split the cell,
    as ``\\|``."""
    return escaped(text).replace("|", r"\|")


def create_staging(con: duckdb.DuckDBPyConnection, folders: Sequence[Path]) -> None:
    """Create the staging views and macros of ``sql/staging.sql`` (and the interval macros of
    ``sql/intervals.sql``) over ``folders`` on ``con``: first its
    sources, a view ``src_TABLE`` per table that reads each folder's parts with the folder as the constant
    ``dataset`` (``_source_view``), then the file itself."""
    names = ", ".join(_literal(name) for name in sorted({str(folder) for folder in folders}))  # ordered as text
    con.execute(f"create or replace type {DATASET_TYPE} as enum ({names})")
    create_sources(con, folders)
    con.execute(_read_sql(INTERVALS))
    con.execute(_read_sql(STAGING))


def create_sources(
    con: duckdb.DuckDBPyConnection, folders: Sequence[Path], games: tuple[int, int] | None = None
) -> None:
    """(Re)create the views ``src_TABLE`` over ``folders`` (``_source_view``), with only the games whose
    ``game_id`` is in ``[games[0], games[1])`` when ``games`` is given: the staging's views, which read them by
    name, then see those games alone (``pipeline.tallies`` computes a large dataset's tallies a slice at a time)."""
    for table in store.TABLES:
        con.execute(_source_view(con, table, folders, games))


def _source_view(
    con: duckdb.DuckDBPyConnection, table: str, folders: Sequence[Path], games: tuple[int, int] | None = None
) -> str:
    """The view ``src_TABLE``: for each of ``folders``, its parts of ``table`` (``store.table_sources``, held
    in the variable ``TABLE_files_K``) read whole, with the folder's path as the literal ``dataset``; one
    ``union all`` over the folders. The dataset is known before a row is read, so no join has to parse a
    file's name for it. ``games``: only those (``create_sources``)."""
    where = "" if games is None else f" where game_id >= {int(games[0])} and game_id < {int(games[1])}"
    selects = []
    for folder, variable in zip(folders, _set_files(con, table, folders), strict=True):
        selects.append(
            f"select {_literal(str(folder))}::{DATASET_TYPE} as dataset, * "
            f"from read_parquet(getvariable('{variable}')){where}"
        )
    return f"create or replace view src_{table} as\n" + "\nunion all\n".join(selects)


def _set_files(con: duckdb.DuckDBPyConnection, table: str, folders: Sequence[Path]) -> list[str]:
    """Set on ``con`` the variable ``TABLE_files_K`` of each of ``folders`` to its parts of ``table``
    (``store.table_sources``), which the view ``src_TABLE`` reads (``_source_view``); their names. A variable is
    the connection's own: each cursor sets them again (``source_cursor``)."""
    names = []
    for number, folder in enumerate(folders):
        variable = f"{table}_files_{number}"
        con.execute(f"set variable {variable} = $files", {"files": store.table_sources(folder, table)})
        names.append(variable)
    return names


def source_cursor(con: duckdb.DuckDBPyConnection, folders: Sequence[Path]) -> duckdb.DuckDBPyConnection:
    """A cursor of ``con`` (a connection of its own to the same database, which sees its views and macros) that
    reads the staging over ``folders`` as ``con`` does: the views' file variables set on it too."""
    cursor = con.cursor()
    cursor.execute("set enable_progress_bar = false")
    for table in store.TABLES:
        _set_files(cursor, table, folders)
    return cursor


DATASET_TYPE: Final = "dataset_folder"
"""The type of the views' ``dataset`` column: an enum of the folders read (``create_staging``), in the order of
their paths as text, which reads, prints and sorts as the folder's path but is held as a small integer, so that
the joins and windows on (dataset, game_id) hold no copy of a path per row (with 19 folders under long paths,
``bluff_success`` over the rows ran out of its 640 MB on a few thousand games). ``truc sql`` shows it as text."""


def _literal(text: str) -> str:
    """``text`` as a SQL string literal."""
    return "'" + text.replace("'", "''") + "'"
