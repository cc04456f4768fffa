"""The two entry points the CLI calls: import `.truc` files into a dataset, export a dataset as `.truc`.

``import_files`` cuts each file into ranges of whole games (``ranges``), which worker processes read
as streams (``reader.ByteLines``), replaying every game through the engine (``reader``) and turning each
into rows with ``rows.add_game``; this process takes the ranges in order, decides the duplicates, and
writes each range's rows as a part of the four tables, then a manifest, through ``store.atomic_dataset``:
an import that fails leaves nothing at ``out``, and its memory does not grow with its files. A game read
twice is reported (``game_identity``), or imported once with ``dedupe``.

``export_dataset`` reads the tables back in chunks of games, replays each game from its rows through the
same visitor (lines built from rows instead of text), and writes the engine's records as canonical text
(``writer``) to a temporary file renamed into place at the end (or to an open stream, such as standard
output).
"""

from __future__ import annotations

import bisect
import json
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, BinaryIO, TextIO, overload

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds
import pyarrow.parquet as pq

from pipeline import __version__
from pipeline.history.ranges import (
    Range,
    RangeRead,
    file_ranges,
    open_history,
    read_range,
)
from pipeline.history.reader import (
    MATCH_TAGS,
    ByteLines,
    GameRecord,
    HistoryError,
    MatchState,
    ReadResult,
    ReplayVisitor,
    decode,
    parse,
    replay_rows,
)
from pipeline.history.writer import format_game, hand_from_record
from pipeline.names import counted
from pipeline.parts import SCHEMAS, PartWriter, read_table
from pipeline.store import (
    IMPORT,
    DatasetError,
    atomic_dataset,
    atomic_file,
    dataset_folders,
    read_error,
    table_files,
    unchanged,
    write_manifest,
)
from pipeline.strength import DEFINITION
from pipeline.workers import run_in_order, usable_cores

MANIFEST_PROBLEMS = 100
"""The invalid games' errors a manifest keeps (``invalid``; ``invalid_count`` counts them all): a manifest
stays small whatever the files."""

CHUNK_GAMES = 500
"""Games per read of the tables on export, each a worker's part."""


@dataclass(frozen=True)
class ImportResult:
    """What an import wrote: games and hands imported, the errors of skipped games, rows per table."""

    out: Path
    games: int
    hands: int
    invalid: list[str]
    rows: dict[str, int]
    manifest: dict[str, Any]
    duplicates: list[str] = field(default_factory=list)  # a message per game read twice


def _open(path: Path) -> BinaryIO:
    """A history file opened for reading; a missing or unreadable file is a ``HistoryError``."""
    return open_history(Path(path), str(path))


def load_text(path: Path) -> str:
    """The text of a history file; a missing or undecodable file is a ``HistoryError``."""
    with _open(path) as stream:
        return decode(stream.read(), str(path))


def read_file(path: Path, *, skip_invalid: bool = False) -> ReadResult:
    """Read and replay every game of one file, streamed (``ByteLines``)."""
    visitor = ReplayVisitor(str(path), strict=not skip_invalid)
    with _open(path) as stream:
        parse(ByteLines(stream, str(path)), visitor, str(path))
    return ReadResult(visitor.games, visitor.errors)


def record_text(record: GameRecord) -> str:
    """A replayed game as canonical text."""
    return format_game(record.tags, (hand_from_record(record.game, hand) for hand in record.hands))


Progress = Callable[[int, int, int, int], None]
"""``progress(done, total, games, hands)``: how far a long import or export is (in bytes read or games
written, out of ``total``) and the games and hands done so far."""


class _Tally:
    """Games and hands replayed so far, range by range (``ranges.RangeRead``); ``progress`` is told the bytes
    read after each range."""

    def __init__(self, progress: Progress | None = None, total: int = 0) -> None:
        self.games = 0
        self.hands = 0
        self.found = 0  # valid games read, duplicates included
        self.progress, self.total = progress, total
        self.read = 0  # bytes read

    def report(self) -> None:
        if self.progress is not None:
            self.progress(self.read, max(self.total, self.read), self.games, self.hands)  # stdin's size unknown

    def take(self, read: RangeRead) -> None:
        """The valid games of a range, in order."""
        self.found += len(read.games)
        self.games += len(read.games)
        self.hands += sum(hands for _, _, hands in read.games)


_LINE_BITS = 40
"""Where a game was first read, packed in one int: its source's index, then its line in 40 bits."""


class _Rows(_Tally):
    """Rows of imported games, their ``game_id`` counting the games of the import, appended in order to the
    dataset's parts (``parts.PartWriter``, parts sized by rows). A game already imported (``game_identity``)
    is a duplicate: reported, and skipped when ``dedupe``: the driver decides, over every range, from the
    identities the ranges' readers give."""

    def __init__(
        self, writer: PartWriter, progress: Progress | None = None, total: int = 0, dedupe: bool = False
    ) -> None:
        super().__init__(progress, total)
        self.writer = writer
        self.dedupe = dedupe
        self.seen: dict[int, int] = {}  # a game's identity: where it was first read (_LINE_BITS), ~100 bytes
        self.sources: dict[str, int] = {}  # the sources read, numbered
        self.duplicates: list[str] = []

    def take(self, read: RangeRead) -> None:
        source = read.range.source
        number = self.sources.setdefault(source, len(self.sources)) << _LINE_BITS
        skipped: list[int] = []  # the range's games not imported (its own numbers)
        hands = 0
        for local, (identity, line, game_hands) in enumerate(read.games):
            self.found += 1
            first = self.seen.setdefault(identity, number | line)
            if first != number | line:
                names = list(self.sources)
                where = f"{names[first >> _LINE_BITS]}:{first & ((1 << _LINE_BITS) - 1)}"
                same = "the same variant, options, deals and actions"
                self.duplicates.append(f"{source}:{line}: the same game as {where} ({same})")
                if self.dedupe:
                    skipped.append(local)
                    continue
            hands += game_hands
        kept = len(read.games) - len(skipped)
        if kept:
            self.writer.add(
                {name: _renumbered(t, self.games, len(read.games), skipped) for name, t in read.tables.items()}
            )
        self.games += kept
        self.hands += hands


def _renumbered(table: pa.Table, first: int, games: int, skipped: list[int]) -> pa.Table:
    """A range's rows with their ``game_id`` counted from ``first`` (the range counts its ``games`` from 0),
    the rows of the ``skipped`` games left out."""
    column = table.schema.get_field_index("game_id")
    ids = table["game_id"]
    if not skipped:
        return table.set_column(column, "game_id", pc.add(ids, pa.scalar(first, ids.type)))
    table = table.filter(pc.invert(pc.is_in(ids, value_set=pa.array(skipped, ids.type))))
    gone = set(skipped)
    numbers, shift = [], 0
    for game in range(games):
        shift += game in gone
        numbers.append(first + game - shift)
    return table.set_column(column, "game_id", pc.take(pa.array(numbers, ids.type), table["game_id"]))


def _workers(workers: int | None) -> int:
    """The worker processes asked for; None: every usable core (as ``truc simulate``)."""
    if workers is None:
        return usable_cores()
    if workers < 1:
        raise DatasetError(f"--workers must be at least 1, not {workers}")
    return workers


STDIN_NAME = "<stdin>"
"""How a history read from standard input (``truc import -``) is named in errors and in ``games.source``."""


@dataclass(frozen=True)
class _Sources:
    """The history files to read (a folder stands for its `.truc` files), with their sizes; standard input
    read as a stream, as files are. Strict: a missing file or a folder without histories stops everything.
    Lenient (``truc check``, ``--skip-invalid``): a missing file stays a source, reported when it is read,
    and a folder without histories is one of the ``problems``, so the other files are still read."""

    paths: list[Path | None]  # None: standard input
    sizes: list[int]
    piped: BinaryIO | None
    problems: list[str]

    @classmethod
    def of(cls, paths: Sequence[Path | BinaryIO], lenient: bool = False) -> _Sources:
        if not paths:
            raise HistoryError("", None, "no history files to read")
        streams = [p for p in paths if not isinstance(p, str | Path)]
        if len(streams) > 1:
            raise HistoryError(STDIN_NAME, None, "standard input can be read only once")
        piped = streams[0] if streams else None
        sources: list[Path | None] = []
        problems: list[str] = []
        for item in paths:
            path = Path(item) if isinstance(item, str | Path) else None
            if path is None or not path.is_dir():
                if path is not None and not path.exists() and not lenient:
                    raise HistoryError(str(path), None, "no such file")
                sources.append(path)
                continue
            try:
                sources.extend(_files_in(path))
            except HistoryError as exc:
                if not lenient:
                    raise
                problems.append(str(exc))
        sources = _once_each(sources)
        sizes = [
            _stream_size(piped) if path is None else path.stat().st_size if path.is_file() else 0 for path in sources
        ]
        return cls(sources, sizes, piped, problems)

    @property
    def names(self) -> list[str]:
        return [STDIN_NAME if path is None else str(path) for path in self.paths]


def _stream_size(stream: BinaryIO | None) -> int:
    """The bytes left in ``stream`` when it can tell (a file redirected to standard input), else 0."""
    try:
        here = stream.tell() if stream is not None and stream.seekable() else None
        if here is None or stream is None:
            return 0
        size = stream.seek(0, 2) - here
        stream.seek(here)
        return size
    except OSError:
        return 0


def _once_each(sources: list[Path | None]) -> list[Path | None]:
    """Each file once, where first named: a file named twice, or both alone and through its folder, would
    have its games imported twice (as ``--data`` reads a dataset named twice once)."""
    seen: set[Path] = set()
    kept: list[Path | None] = []
    for path in sources:
        if path is not None:
            real = path.resolve()
            if real in seen:
                continue
            seen.add(real)
        kept.append(path)
    return kept


def _files_in(folder: Path) -> list[Path]:
    """The ``.truc`` files of a folder named as a source, in name order (not its subfolders')."""
    files = sorted(path for path in folder.glob("*.truc") if path.is_file())
    if not files:
        raise HistoryError(str(folder), None, "is a folder without .truc files")
    return files


def _replay_sources(
    sources: _Sources,
    tally: _Tally,
    skip_invalid: bool,
    workers: int = 1,
    meanwhile: Callable[[], object] | None = None,
) -> list[str]:
    """Read and replay every game of every source into ``tally``, each file cut into ranges of whole games
    (``ranges.file_ranges``) read by ``workers`` processes and taken in order. Strict unless ``skip_invalid``:
    the first error raises. Otherwise returns the error of each invalid game and of each missing, unreadable
    or empty file or folder. ``meanwhile``: called while the workers read (``workers.run_in_order``)."""
    rows = isinstance(tally, _Rows)
    parts = [
        part
        for file_no, (path, source) in enumerate(zip(sources.paths, sources.names, strict=True))
        for part in file_ranges(
            Range(
                path,
                source,
                STDIN_NAME if path is None else path.name,
                strict=not skip_invalid,
                rows=rows,
                file_no=file_no,
            )
        )
    ]
    reading = _Reading(sources, tally, skip_invalid)
    for part, read in zip(parts, run_in_order(_read_part, parts, workers, meanwhile=meanwhile), strict=True):
        reading.take(read, part)
    reading.end_file()
    return reading.invalid


def _read_part(part: Range) -> RangeRead | None:
    """A worker's reading of a range; standard input (no path) is left to the driver, which holds it."""
    return None if part.path is None else read_range(part)


class _Reading:
    """The driver's side of reading the ranges: takes them in order, reads again in this process a range that
    began in the wrong state (a cut that was not a game boundary, a rubber's match begun in the range before),
    and gives the games to the tally, file by file."""

    def __init__(self, sources: _Sources, tally: _Tally, skip_invalid: bool) -> None:
        self.sources, self.tally, self.skip_invalid = sources, tally, skip_invalid
        self.invalid: list[str] = list(sources.problems)
        self.file_no = -1
        self.found = 0  # the valid games of the file being read
        self.errors = False  # whether it has an invalid game
        self.skipped = False  # whether it could not be opened
        self.match: MatchState | None = None  # the rubber's match the ranges taken end in
        self.pending: Range | None = None  # a range that did not end cleanly, read again with the next

    def take(self, read: RangeRead | None, part: Range) -> None:
        if part.file_no != self.file_no:
            self.end_file()
            self.file_no, self.found, self.errors, self.skipped, self.match = part.file_no, 0, False, False, None
        if part.path is None:
            read = read_range(replace(part, match=self.match), self.sources.piped)
        elif self.pending is not None:  # one reading of both ranges, from where the first began
            read = read_range(replace(self.pending, end=part.end, match=self.match))
            self.pending = None
        elif read is not None and self.match is not None and read.first_match == self.match.number:
            read = read_range(replace(part, match=self.match))  # its first game continues the match before it
        assert read is not None
        if read.failed is None and not read.clean and not read.range.last:
            self.pending = read.range
            return
        if read.failed is not None:
            if not self.skip_invalid:
                raise read.failed
            self.invalid.append(str(read.failed))
            self.skipped = True
        self.invalid.extend(str(error) for error in read.errors)
        self.errors = self.errors or bool(read.errors)
        self.found += len(read.games)
        if read.matches_checked:
            self.match = read.match
        self.tally.take(read)
        self.tally.read += self.sources.sizes[part.file_no] if self.skipped else read.done
        self.tally.report()

    def end_file(self) -> None:
        """The file read last is done: one without any game is an error of its own."""
        if self.file_no < 0 or self.skipped or self.found or self.errors:
            return
        source = self.sources.names[self.file_no]
        error = HistoryError(source, None, 'no game found: a game begins with its tags, [Variant "catalan"]')
        if not self.skip_invalid:
            raise error
        self.invalid.append(str(error))


def import_files(
    paths: Sequence[Path | BinaryIO],
    out: Path,
    *,
    overwrite: bool = False,
    skip_invalid: bool = False,
    dedupe: bool = False,
    progress: Progress | None = None,
    workers: int | None = None,
) -> ImportResult:
    """Import history files into the dataset ``out``; ``game_id`` counts games over all files from 0.

    Strict by default: the first error raises a ``HistoryError`` and nothing is written. With
    ``skip_invalid`` every invalid game (and every missing or unreadable file) is skipped and reported in
    ``invalid``.
    ``progress`` is told the bytes read after each part written and each file. A folder stands for its
    ``.truc`` files in name order. A source may be an open binary stream instead of a path (the CLI's ``-``,
    standard input), read as a file is and named ``<stdin>``.
    A game read before in the import (the same variant, options, deals and actions: ``game_identity``) is
    reported in ``duplicates``, and skipped when ``dedupe``.
    A file is read in ranges of whole games by ``workers`` processes (None: every usable core); the rows, in
    order, do not depend on their number.
    """
    sources = _Sources.of(paths, lenient=skip_invalid)
    with atomic_dataset(Path(out), overwrite) as root, PartWriter(root) as writer:
        rows = _Rows(writer, progress, sum(sources.sizes), dedupe)
        invalid = _replay_sources(sources, rows, skip_invalid, _workers(workers), meanwhile=_load_tallies)
        if rows.games == 0:
            raise NothingToImport(invalid)
        written = writer.close()
        manifest = {
            "kind": IMPORT,
            "sources": sources.names,
            "skip_invalid": skip_invalid,
            "games": rows.games,
            "hands": rows.hands,
            "invalid": invalid[:MANIFEST_PROBLEMS],
            "invalid_count": len(invalid),
            "dedupe": dedupe,
            "duplicates": len(rows.duplicates),
            "rows": written,
            "strength": {"definition": DEFINITION},  # the opposing hands follow each game's player count
            "package_version": __version__,
            "created": datetime.now(UTC).isoformat(timespec="seconds"),
        }
        write_manifest(root, manifest)
        from pipeline.tallies import write_tallies  # loaded by now (``_load_tallies``)

        write_tallies(root)
    return ImportResult(Path(out), rows.games, rows.hands, invalid, written, manifest, rows.duplicates)


def _load_tallies() -> None:
    """Import ``pipeline.tallies``, which an import's end needs: not at the top, since the tallies need DuckDB and
    the statistics' registry (polars), which reading and checking files (``truc check``) does not (importing them
    took about half of a small check's time). An import loads them while its workers read the first ranges
    (``meanwhile`` of ``workers.run_in_order``): after the last range they took 0.12 to 0.27 s, nothing else running."""
    import pipeline.tallies  # noqa: F401


class NothingToImport(DatasetError):
    """A lenient import found no valid game: no dataset is written (an empty one would hide the failure).
    ``invalid`` holds each problem, as ``ImportResult.invalid`` does."""

    def __init__(self, invalid: list[str]) -> None:
        super().__init__(f"no valid game to import ({counted(len(invalid), 'problem')}); nothing was written")
        self.invalid = invalid


@dataclass(frozen=True)
class CheckResult:
    """What a check of history files found: the files read, the valid games and their hands, and the
    error of each invalid game (file, line, the rule broken) and of each missing, unreadable or empty file
    or folder."""

    files: int
    games: int
    hands: int
    invalid: list[str]

    @property
    def ok(self) -> bool:
        return not self.invalid


def check_files(
    paths: Sequence[Path | BinaryIO], *, progress: Progress | None = None, workers: int | None = None
) -> CheckResult:
    """Read and replay every game of the files as an import does, writing nothing, and report every
    invalid game rather than only the first (the reader resumes at the next game's tags); on ``workers``
    processes, as an import."""
    sources = _Sources.of(paths, lenient=True)
    tally = _Tally(progress, sum(sources.sizes))
    invalid = _replay_sources(sources, tally, True, _workers(workers))
    return CheckResult(len(sources.paths), tally.games, tally.hands, invalid)


# ------------------------------------------------------------------------------------------------ export


_HandRows = tuple[int, int, tuple[int, int], list[tuple[int, str, str | None]]]
"""A hand of the dataset: number, dealer, points of team 0 and 1, and its events (seat, verb, arg)."""


_READ: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "events": (("game_id", "hand_no", "seq"), ("game_id", "hand_no", "seat", "verb", "arg")),
    "hands": (("game_id", "hand_no"), ("game_id", "hand_no", "dealer", "points_team0", "points_team1")),
    "seats": (("game_id", "seat"), ("game_id", "seat", "policy", "player")),
}
"""The tables an export reads besides ``games``: the order of a game's rows, and the columns read."""
_SEAT_TAGS_HAND = 1
"""The hand whose ``seats`` rows give the ``SeatN`` and ``PolicyN`` tags."""


def _read_columns(name: str) -> list[str]:
    order, columns = _READ[name]
    return list(dict.fromkeys((*order, *columns, *(("hand_no",) if name == "seats" else ()))))


def _read_rows(data: Path, name: str, where: ds.Expression) -> pa.Table:
    """The rows of table ``name`` of the dataset ``data`` that ``where`` keeps (the columns an export reads).
    A part that cannot be read (damaged, or removed by a replacement of the dataset) is named
    (``store.read_error``). Arrow alone, no polars: an export worker is a forked process, and polars may
    deadlock in a process forked from one that used it."""
    try:
        files = [str(path) for path in table_files(data, name)]
        dataset = ds.dataset(files, format="parquet", schema=SCHEMAS[name])
        return dataset.to_table(columns=_read_columns(name), filter=where)
    except (OSError, pa.ArrowException) as exc:
        raise read_error([data], exc) from exc


def _ordered(table: pa.Table, name: str, ids: list[int]) -> pa.Table:
    """The rows of ``table`` (of table ``name``) of the games ``ids``, in their order (``_READ``)."""
    if len(ids) != ids[-1] - ids[0] + 1 or ids != sorted(ids):  # else every id of the range is wanted
        table = table.filter(pc.is_in(table["game_id"], value_set=pa.array(ids, table.schema.field("game_id").type)))
    if name == "seats":
        table = table.filter(pc.equal(table["hand_no"], _SEAT_TAGS_HAND))
    order, _ = _READ[name]
    return table.sort_by([(column, "ascending") for column in order])


def _rows(table: pa.Table, name: str, ids: list[int]) -> Iterator[Any]:
    """The rows of ``table`` (of table ``name``) of the games ``ids``, in their order, as tuples of the columns
    read."""
    table = _ordered(table, name, ids)
    return zip(*(table[column].to_pylist() for column in _READ[name][1]), strict=True)


def _steps_by_hand(table: pa.Table, ids: list[int]) -> dict[tuple[int, int], list[tuple[int, str, str | None]]]:
    """Each hand's steps (seat, verb, arg), in order, keyed by (game id, hand number), from the ``events`` rows of
    ``table``: a tuple made for each event in one pass of C (``zip``), the rows cut where the hand changes. Sorting
    them into a dictionary one event at a time cost 5% of an export worker's instructions."""
    events = _ordered(table, "events", ids)
    if events.num_rows == 0:
        return {}
    game_id, hand_no = (events[column].to_numpy() for column in ("game_id", "hand_no"))
    cuts = (np.flatnonzero((game_id[1:] != game_id[:-1]) | (hand_no[1:] != hand_no[:-1])) + 1).tolist()
    starts, ends = [0, *cuts], [*cuts, events.num_rows]
    steps = list(zip(*(events[column].to_pylist() for column in ("seat", "verb", "arg")), strict=True))
    keys = zip(game_id[starts].tolist(), hand_no[starts].tolist(), strict=True)
    return {key: steps[start:end] for key, start, end in zip(keys, starts, ends, strict=True)}


class _TableStream:
    """One table of a dataset read once, in order, a chunk of games at a time (``upto``): its parts' row groups
    hold increasing ranges of games (``_in_game_order``), so the rows of the games up to an id are all read
    once a run holding a later game is. Each part is opened once, rather than every part for every chunk (a
    dataset's parts hold a million rows each: a chunk of 500 games is a few tens of thousands).

    A row group whose rows are in game order, as the writers write them, is read in batches of
    ``STREAM_ROWS`` (``_runs``), so that the first chunk goes to a worker before the group is read whole, and
    the driver holds a batch of each table rather than a group; a group not in order is read whole. Each run's
    rows are given by bisection in its game ids, or by filtering its rest when not in order (``_Run``):
    filtering the rest of a million-row group for each of its forty chunks took 3.3 of the 10 s of CPU of an
    export of 281,000 hands."""

    def __init__(self, data: Path, name: str, groups: list[tuple[Path, int]]) -> None:
        self.data, self.name = data, name
        self.columns = _read_columns(name)
        self.schema = pa.schema([SCHEMAS[name].field(column) for column in self.columns])
        self.runs = self._runs(groups)
        self.held: _Run | None = None  # the run being given, read and not all given yet

    def upto(self, last: int) -> pa.Table:
        """The rows not given yet of the games up to ``last``."""
        pieces: list[pa.Table] = []
        while True:
            if self.held is None:
                try:
                    self.held = next(self.runs, None)
                except (OSError, pa.ArrowException) as exc:
                    raise read_error([self.data], exc) from exc
                if self.held is None:
                    break
            pieces.append(self.held.upto(last))
            if self.held.later:
                break
            self.held = None
        return pa.concat_tables(pieces) if pieces else self.schema.empty_table()

    def _runs(self, groups: list[tuple[Path, int]]) -> Iterator[_Run]:
        """The table's rows in runs of game order: each row group in batches when its game ids are in order,
        else whole."""
        file: tuple[Path, pq.ParquetFile] | None = None
        for path, group in groups:
            if file is None or file[0] != path:
                file = (path, pq.ParquetFile(path))
            ids = file[1].read_row_group(group, columns=["game_id"])["game_id"]
            if len(ids) < 2 or pc.all(pc.less_equal(ids[:-1], ids[1:])).as_py():
                batches = file[1].iter_batches(batch_size=STREAM_ROWS, row_groups=[group], columns=self.columns)
                for batch in batches:
                    yield _Run(pa.Table.from_batches([batch]).cast(self.schema), ordered=True)
            else:
                yield _Run(file[1].read_row_group(group, columns=self.columns).cast(self.schema), ordered=False)


STREAM_ROWS = 1 << 13
"""Rows of a batch of ``_TableStream``, read as the chunks need them. A chunk's rows are slices of batches, and a
pickled slice carries its whole batch's buffers to the worker: small batches keep that to a few thousand rows
beyond a chunk's (its events are about 25,000). With a million-row group in place of a batch, a chunk's events
were 60 MB pickled instead of 1.4; copying them out (``take``) cost the driver more than smaller batches do."""


class _Run:
    """Rows of ``_TableStream`` given a chunk of games at a time: when ``ordered`` (in game order), a slice of
    the next rows up to a game found by bisection in their game ids (``STREAM_ROWS`` says why a batch is
    small); else by filtering what is left."""

    def __init__(self, table: pa.Table, ordered: bool) -> None:
        self.table = table
        self.ids: list[int] | None = table["game_id"].to_pylist() if ordered else None
        self.given = 0  # rows given, when in order
        self.later = False  # rows of later games than given are left

    def upto(self, last: int) -> pa.Table:
        """The rows not given yet of the games up to ``last``; ``later`` says whether any are left."""
        if self.ids is not None:
            end = bisect.bisect_right(self.ids, last, lo=self.given)
            rows = self.table.slice(self.given, end - self.given)
            self.given = end
            self.later = end < len(self.ids)
            return rows
        ids = self.table["game_id"]
        mine = pc.less_equal(ids, last)
        rows = self.table.filter(mine)
        self.table = self.table.filter(pc.invert(mine))
        self.later = self.table.num_rows > 0
        return rows


def _in_game_order(data: Path, name: str) -> list[tuple[Path, int]] | None:
    """The row groups of table ``name``'s parts, in order, when each holds games from where the one before
    ended (their ``game_id`` statistics: the smallest at least the largest before, as the simulator and
    the importer write them); else None (read by filter, each chunk)."""
    groups: list[tuple[Path, int]] = []
    before = None
    try:
        for path in table_files(data, name):
            metadata = pq.ParquetFile(path).metadata
            if not set(_read_columns(name)) <= set(metadata.schema.names):
                return None  # an older part: the filtered reading gives its missing columns as nulls
            column = metadata.schema.names.index("game_id")
            for group in range(metadata.num_row_groups):
                if metadata.row_group(group).num_rows == 0:
                    continue
                stats = metadata.row_group(group).column(column).statistics
                if stats is None or not stats.has_min_max or (before is not None and stats.min < before):
                    return None
                before = stats.max
                groups.append((path, group))
    except (OSError, ValueError, pa.ArrowException):
        return None  # the filtered reading names what cannot be read
    return groups


def _replay_rows(
    visitor: ReplayVisitor,
    game: dict[str, Any],
    seat_tags: dict[str, str],
    hands: list[_HandRows],
) -> None:
    """Drive ``visitor`` with one game of the dataset, as lines built from its rows (``reader.replay_rows``).
    ``seat_tags`` are the ``SeatN`` and ``PolicyN`` tags from the seats table."""
    tags = [("Variant", game["variant"]), ("Options", game["options"]), ("FirstDealer", str(game["first_dealer"]))]
    if game["seed"] is not None:
        tags.append(("Seed", str(game["seed"])))
    tags.extend(seat_tags.items())
    for tag, column in MATCH_TAGS.items():
        if game.get(column) is not None:
            tags.append((tag, str(game[column])))
    tags.extend(json.loads(game["tags"] or "{}").items())
    replay_rows(visitor, tags, hands)


def _check_replay(data: Path, game: dict[str, Any], record: GameRecord, hands: list[_HandRows]) -> None:
    """The replay must give what the dataset says each hand and the game scored."""
    gid = game["game_id"]
    for (hand_no, _, points, _), replayed in zip(hands, record.hands, strict=True):
        if tuple(replayed.points[:2]) != points:
            raise DatasetError(
                f"{data}: game {gid} hand {hand_no} replays to points {replayed.points}, the table says {points}"
            )
    scores = (game["score_team0"], game["score_team1"])
    if tuple(record.game.scores[:2]) != scores:
        raise DatasetError(f"{data}: game {gid} replays to {record.game.scores}, the table says {scores}")


def _game_texts(data: Path, games: list[dict[str, Any]], tables: dict[str, pa.Table] | None = None) -> Iterator[str]:
    """Canonical text of each game of ``games`` (a chunk of the games table's rows), replayed from its rows:
    ``tables``, the rows of its games read by the driver (``_TableStream``), or else read here."""
    ids = [game["game_id"] for game in games]
    if tables is None:
        game_id = ds.field("game_id")
        where = (game_id >= min(ids)) & (game_id <= max(ids)) & game_id.isin(ids)
        tables = {name: _read_rows(data, name, where) for name in _READ}
    steps = _steps_by_hand(tables["events"], ids)
    hands: dict[int, list[_HandRows]] = defaultdict(list)
    for gid, hand_no, dealer, p0, p1 in _rows(tables["hands"], "hands", ids):
        hands[gid].append((hand_no, dealer, (p0, p1), steps.get((gid, hand_no), [])))
    seat_tags: dict[int, dict[str, str]] = defaultdict(dict)
    for gid, seat, policy, player in _rows(tables["seats"], "seats", ids):
        if player is not None:
            seat_tags[gid][f"Seat{seat}"] = player
        if policy is not None:
            seat_tags[gid][f"Policy{seat}"] = policy
    records: list[GameRecord] = []
    visitor = ReplayVisitor(str(data), on_game=records.append)
    for game in games:
        gid = game["game_id"]
        try:
            _replay_rows(visitor, game, seat_tags[gid], hands[gid])
        except HistoryError as exc:
            where_text = f" at '{exc.text}'" if exc.text else ""
            rule = f" [{exc.rule}]" if exc.rule else ""
            raise DatasetError(f"{data}: game {gid} does not replay{where_text}: {exc.message}{rule}") from None
        except (TypeError, ValueError) as exc:  # a null or mistyped cell of a part rewritten with its manifest
            raise DatasetError(
                f"{data}: game {gid} holds a missing or mistyped value ({exc}): the dataset is damaged"
            ) from None
        record = records.pop()
        _check_replay(data, game, record, hands[gid])
        try:
            text = record_text(record)
        except ValueError as exc:  # a tag value the reader would refuse (``writer.quote``)
            raise DatasetError(f"{data}: game {gid} cannot be exported: {exc}") from None
        yield text


def export_dataset(
    data: Path | Sequence[Path],
    out: Path | TextIO,
    progress: Progress | None = None,
    overwrite: bool = False,
    game_ids: Sequence[int] = (),
    workers: int | None = None,
) -> int:
    """Write every game of ``data`` as canonical text to ``out``; return the games written. ``data`` is what
    the statistics read: a dataset folder, a folder of datasets (one per run), or several of either; the
    datasets are written one after the other in that order (``store.dataset_folders``), each one's games
    by id, and a dataset named twice is written once.

    Each game is replayed through the engine from its events (so ``end`` values and ``Result`` are the
    engine's, and a dataset that does not replay is a ``DatasetError``). Every dataset is checked before
    anything is written. A file ``out`` is refused when it exists, unless ``overwrite`` (it may be the
    hand-written history the dataset was imported from); the text goes to a temporary file beside it
    (``store.atomic_file``), renamed into place once complete. ``out`` may also be an open text stream (the
    CLI's ``--out -``, standard output), written as the games are replayed. ``progress`` is told the games
    written after each chunk of ``CHUNK_GAMES``, out of all of them.

    ``game_ids`` writes only those games (in id order), of a single dataset since ids are a dataset's own;
    an id the dataset does not hold is a ``DatasetError``.

    The chunks of ``CHUNK_GAMES`` games are replayed and written as text by ``workers`` processes (None:
    every usable core), and their texts written in order: the same bytes whatever their number.
    """
    datasets: list[tuple[Path, pa.Table]] = []
    folders = dataset_folders(data)
    with unchanged(folders):  # a dataset replaced meanwhile (--overwrite) is an error, not a mix of two
        for folder in folders:
            datasets.append((folder, read_table(folder, "games").sort_by("game_id")))
        if game_ids:
            datasets = [_select_games(datasets, game_ids)]
        count = _workers(workers)
        if not isinstance(out, str | Path):
            return _write_to_stream(out, datasets, progress, count, not game_ids)
        with atomic_file(Path(out), overwrite) as stream:
            return _write_games(stream, datasets, progress, count, not game_ids)


def _write_to_stream(
    stream: TextIO, datasets: list[tuple[Path, pa.Table]], progress: Progress | None, workers: int, every_game: bool
) -> int:
    """``_write_games`` to an open stream (standard output), flushed before the games are called written: a full
    disk behind it was found only at the interpreter's exit, after "exported N games", as a bare ``[Errno 28]``. A
    reader that leaves (``BrokenPipeError``) is the CLI's to report."""
    try:
        written = _write_games(stream, datasets, progress, workers, every_game)
        stream.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        name = "standard output" if getattr(stream, "name", None) == "<stdout>" else "the output"
        raise DatasetError(f"cannot write to {name}: {exc.strerror or exc}; the export is incomplete") from None
    return written


def _select_games(datasets: list[tuple[Path, pa.Table]], game_ids: Sequence[int]) -> tuple[Path, pa.Table]:
    """The games ``game_ids`` of the one dataset in ``datasets``."""
    if len(datasets) != 1:
        raise DatasetError(
            f"games are chosen by id within one dataset, and --data names {len(datasets)}: "
            f"name one of them ({', '.join(str(folder) for folder, _ in datasets[:3])}"
            f"{', ...' if len(datasets) > 3 else ''})"
        )
    folder, games = datasets[0]
    held = set(games["game_id"].to_pylist())
    missing = sorted(set(game_ids) - held)
    if missing:
        span = f"ids {min(held)} to {max(held)}" if held else "no games"
        raise DatasetError(f"{folder} has no game {', '.join(map(str, missing))} ({games.num_rows:,} games, {span})")
    ids = games["game_id"]
    return folder, games.filter(pc.is_in(ids, value_set=pa.array(sorted(set(game_ids)), ids.type)))


@dataclass(frozen=True)
class _Chunk:
    """Games of one dataset to write: rows of its ``games`` table, and the rows of its games in the other
    tables when the driver read them (``_Chunks``)."""

    folder: Path
    games: list[dict[str, Any]]
    tables: dict[str, pa.Table] | None = None


def _chunk_text(chunk: _Chunk) -> tuple[str, int]:
    """A chunk's games as canonical text, a blank line between games, and their hands (a worker's part)."""
    text = "\n".join(_game_texts(chunk.folder, chunk.games, chunk.tables))
    return text, sum(game["hands"] for game in chunk.games)


class _Chunks(Sequence[_Chunk]):
    """The chunks of an export, in order. Iterated (as ``workers.run_in_order`` does, a few chunks ahead of
    the writing), each dataset's tables are read once, in order (``_TableStream``), and each chunk carries
    its games' rows; a dataset whose parts are not in game order leaves its chunks to read their rows by
    filter, as indexing does, and so do the chunks of a choice of games (``stream`` False): they are read
    by filter rather than every row of the dataset read."""

    def __init__(self, datasets: list[tuple[Path, pa.Table]], stream: bool = True) -> None:
        self.stream = stream
        self.plans = [
            (folder, games.slice(start, CHUNK_GAMES).to_pylist())
            for folder, games in datasets
            for start in range(0, games.num_rows, CHUNK_GAMES)
        ]

    def __len__(self) -> int:
        return len(self.plans)

    @overload
    def __getitem__(self, index: int) -> _Chunk: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[_Chunk]: ...
    def __getitem__(self, index: int | slice) -> _Chunk | Sequence[_Chunk]:
        if isinstance(index, slice):
            return [_Chunk(*plan) for plan in self.plans[index]]
        return _Chunk(*self.plans[index])

    def __iter__(self) -> Iterator[_Chunk]:
        streams: dict[str, _TableStream] | None = None
        folder_read: Path | None = None
        for folder, games in self.plans:
            if folder != folder_read and self.stream:
                folder_read = folder
                orders = {name: _in_game_order(folder, name) for name in _READ}
                streams = {name: _TableStream(folder, name, groups) for name, groups in orders.items() if groups}
                if len(streams) != len(_READ):
                    streams = None
            if streams is None:
                yield _Chunk(folder, games)
            else:
                last = games[-1]["game_id"]
                yield _Chunk(folder, games, {name: stream.upto(last) for name, stream in streams.items()})


def _write_games(
    stream: TextIO,
    datasets: list[tuple[Path, pa.Table]],
    progress: Progress | None,
    workers: int,
    every_game: bool = True,
) -> int:
    """Each dataset's games, replayed and written one after the other, a blank line between games: chunks
    of ``CHUNK_GAMES`` games made text by ``workers`` processes, written in order."""
    total = sum(games.num_rows for _, games in datasets)
    chunks = _Chunks(datasets, stream=every_game)
    written = hands = 0
    for chunk, (text, chunk_hands) in zip(chunks, run_in_order(_chunk_text, chunks, workers), strict=True):
        if written:
            stream.write("\n")
        stream.write(text)
        written += len(chunk.games)
        hands += chunk_hands
        if progress is not None:
            progress(written, total, written, hands)
    return written
