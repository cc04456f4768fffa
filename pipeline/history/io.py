"""The two entry points the CLI calls: import `.truc` files into a dataset, export a dataset as `.truc`.

``import_files`` streams each file (``reader.ByteLines``), replays every game through the engine
(``reader``), turns each into rows with ``rows.add_game``, a part of ``CHUNK_GAMES`` games at a time, and
writes the four tables and a manifest through ``store.atomic_dataset``: an import that fails leaves
nothing at ``out``, and its memory does not grow with its files. A game read twice is reported
(``game_identity``), or imported once with ``dedupe``.

``export_dataset`` reads the tables back in chunks of games, replays each game from its rows through the
same visitor (lines built from rows instead of text), and writes the engine's records as canonical text
(``writer``) to a temporary file renamed into place at the end (or to an open stream, such as standard
output).
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any, BinaryIO, TextIO

import polars as pl
import pyarrow as pa
import pyarrow.dataset as ds

from pipeline import __version__
from pipeline.engine.actions import DEALT
from pipeline.history.reader import (
    MATCH_TAGS,
    ActionLine,
    ByteLines,
    DealLine,
    GameRecord,
    HandLine,
    HistoryError,
    ReadResult,
    ReplayVisitor,
    TagLine,
    decode,
    match_columns,
    parse,
)
from pipeline.history.writer import format_game, hand_from_record, seat_tag_index, tag_rank
from pipeline.names import counted
from pipeline.rows import add_game
from pipeline.store import (
    IMPORT,
    SCHEMAS,
    TABLES,
    DatasetError,
    TableBatch,
    atomic_dataset,
    atomic_file,
    dataset_folders,
    new_batches,
    read_error,
    read_table,
    table_files,
    unchanged,
    write_manifest,
    write_part,
)
from pipeline.strength import DEFINITION

MANIFEST_PROBLEMS = 100
"""The invalid games' errors a manifest keeps (``invalid``; ``invalid_count`` counts them all): a manifest
stays small whatever the files."""

CHUNK_GAMES = 500
"""Games per Parquet part on import, and per read of the tables on export."""


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
    path = Path(path)
    source = str(path)
    if not path.exists():
        raise HistoryError(source, None, "no such file")
    if path.is_dir():
        raise HistoryError(source, None, "is a folder, not a history file")
    try:
        return path.open("rb")
    except OSError as exc:
        raise HistoryError(source, None, f"cannot read the file: {exc.strerror}") from None


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


_COLUMN_TAGS = frozenset({"Variant", "Options", "FirstDealer", "Seed", "Result"})
"""Tags a column holds (``Result`` is the engine's, written again on export); ``SeatN`` and ``PolicyN`` are
in the seats table, and ``MATCH_TAGS`` in theirs when ``match_columns`` takes them."""


def other_tags(tags: Mapping[str, str], complete: bool = True) -> str | None:
    """The tags of a game that no column holds (``Event``, ``Site``, ``Date``, ``Round``, custom ``_tags``,
    and the ``Result`` of a game recorded in part, which the replay cannot give) as a JSON object in
    canonical order (the ``games.tags`` column), or None when there are none."""
    columns = match_columns(tags)
    kept = [
        (name, value)
        for name, value in tags.items()
        if (name not in _COLUMN_TAGS or (name == "Result" and not complete))
        and name not in columns
        and seat_tag_index(name) is None
    ]
    kept.sort(key=lambda item: tag_rank(item[0]) or (99, 0))  # the reader refuses tags of no rank
    return json.dumps(dict(kept), ensure_ascii=False) if kept else None


def seat_names(tags: Mapping[str, str], players: int) -> list[str | None]:
    """Who sat at each seat (the ``SeatN`` tags; the ``seats.player`` column)."""
    return [tags.get(f"Seat{seat}") for seat in range(players)]


Progress = Callable[[int, int, int, int], None]
"""``progress(done, total, games, hands)``: how far a long import or export is (in bytes read or games
written, out of ``total``) and the games and hands done so far."""


class _Tally:
    """Games and hands replayed so far, file by file; ``progress`` is told the bytes read after each file
    and at the points the subclass reports (the file being read counted by the bytes read of it)."""

    def __init__(self, progress: Progress | None = None, total: int = 0) -> None:
        self.games = 0
        self.hands = 0
        self.found = 0  # valid games read, duplicates included
        self.progress, self.total = progress, total
        self.read = 0  # bytes of the files done
        self.lines: ByteLines | None = None  # the file being read

    def begin_file(self, lines: ByteLines) -> None:
        self.lines = lines

    def end_file(self, size: int) -> None:
        """The file of ``size`` bytes is done (read, or skipped as unreadable)."""
        self.read += size
        self.lines = None
        self.report()

    def report(self) -> None:
        if self.progress is not None:
            done = self.read + (0 if self.lines is None else self.lines.done)
            self.progress(done, max(self.total, done), self.games, self.hands)  # standard input's size unknown

    def add(self, record: GameRecord, source: str) -> None:
        """A valid game, read from the file named ``source``."""
        self.found += 1
        self.games += 1
        self.hands += len(record.hands)


def game_identity(record: GameRecord) -> int:
    """What makes two records the same game: its variant, options, and every hand's dealer, deals and
    actions (the engine's events), digested in 64 bits (two different games of ten million share one with a
    chance of a few in a million). Tags, names, seeds and the text's spelling do not count; the two games of a
    paired match (the same deals, the seats swapped) differ."""
    game = record.game
    hands = [(hand.dealer, hand.event_tuples) for hand in record.hands]
    played = repr((game.variant.name, game.config.options_text(), hands))
    return int.from_bytes(hashlib.blake2b(played.encode("utf-8"), digest_size=8).digest())


_LINE_BITS = 40
"""Where a game was first read, packed in one int: its source's index, then its line in 40 bits."""


class _Rows(_Tally):
    """Rows of imported games, written one part of ``CHUNK_GAMES`` games at a time (progress told after
    each part). A game already imported (``game_identity``) is a duplicate: reported, and skipped when
    ``dedupe``."""

    def __init__(self, root: Path, progress: Progress | None = None, total: int = 0, dedupe: bool = False) -> None:
        super().__init__(progress, total)
        self.root = root
        self.batches: dict[str, TableBatch] = new_batches()
        self.parts = 0
        self.rows = dict.fromkeys(TABLES, 0)
        self.dedupe = dedupe
        self.seen: dict[int, int] = {}  # a game's identity: where it was first read (_LINE_BITS), ~100 bytes
        self.sources: dict[str, int] = {}  # the sources read, numbered
        self.duplicates: list[str] = []

    def add(self, record: GameRecord, source: str) -> None:
        self.found += 1
        here = self.sources.setdefault(record.source, len(self.sources)) << _LINE_BITS | record.line
        first = self.seen.setdefault(game_identity(record), here)
        if first != here:
            names = list(self.sources)
            where = f"{names[first >> _LINE_BITS]}:{first & ((1 << _LINE_BITS) - 1)}"
            same = "the same variant, options, deals and actions"
            self.duplicates.append(f"{record.source}:{record.line}: the same game as {where} ({same})")
            if self.dedupe:
                return
        match = match_columns(record.tags)
        self.hands += add_game(
            self.batches,
            self.games,
            record.game,
            record.hands,
            record.policies(),
            source,
            record.complete,
            match_no=match.get("_Match"),
            match_winner=match.get("_MatchWinner"),
            tags=other_tags(record.tags, record.complete),
            players=seat_names(record.tags, record.game.n),
        )
        self.games += 1
        if len(self.batches["games"]) >= CHUNK_GAMES:
            self.flush()
            self.report()

    def flush(self) -> None:
        for name, count in write_part(self.root, self.parts, self.batches).items():
            self.rows[name] += count
        self.parts += 1
        self.batches = new_batches()


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


def _replay_sources(sources: _Sources, tally: _Tally, skip_invalid: bool) -> list[str]:
    """Read and replay every game of every source into ``tally``. Strict unless ``skip_invalid``: the
    first error raises. Otherwise returns the error of each invalid game and of each missing, unreadable or
    empty file or folder."""
    invalid: list[str] = list(sources.problems)
    for path, size, source in zip(sources.paths, sources.sizes, sources.names, strict=True):
        games_before = tally.found
        try:
            stream = sources.piped if path is None else _open(path)
        except HistoryError as exc:
            if not skip_invalid:
                raise
            invalid.append(str(exc))
            tally.end_file(size)
            continue
        assert stream is not None
        name = STDIN_NAME if path is None else path.name
        visitor = ReplayVisitor(source, strict=not skip_invalid, on_game=partial(tally.add, source=name))
        lines = ByteLines(stream, source)
        tally.begin_file(lines)
        try:
            parse(lines, visitor, source)
        finally:
            if path is not None:
                stream.close()
        tally.end_file(lines.done)
        invalid.extend(str(error) for error in visitor.errors)
        if tally.found == games_before and not visitor.errors:
            error = HistoryError(source, None, 'no game found: a game begins with its tags, [Variant "catalan"]')
            if not skip_invalid:
                raise error
            invalid.append(str(error))
    return invalid


def import_files(
    paths: Sequence[Path | BinaryIO],
    out: Path,
    *,
    overwrite: bool = False,
    skip_invalid: bool = False,
    dedupe: bool = False,
    progress: Progress | None = None,
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
    """
    sources = _Sources.of(paths, lenient=skip_invalid)
    with atomic_dataset(Path(out), overwrite) as root:
        rows = _Rows(root, progress, sum(sources.sizes), dedupe)
        invalid = _replay_sources(sources, rows, skip_invalid)
        if rows.games == 0:
            raise NothingToImport(invalid)
        if rows.parts == 0 or len(rows.batches["games"]):
            rows.flush()
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
            "rows": rows.rows,
            "strength": {"definition": DEFINITION},  # the opposing hands follow each game's player count
            "package_version": __version__,
            "created": datetime.now(UTC).isoformat(timespec="seconds"),
        }
        write_manifest(root, manifest)
    return ImportResult(Path(out), rows.games, rows.hands, invalid, rows.rows, manifest, rows.duplicates)


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


def check_files(paths: Sequence[Path | BinaryIO], *, progress: Progress | None = None) -> CheckResult:
    """Read and replay every game of the files as an import does, writing nothing, and report every
    invalid game rather than only the first (the reader resumes at the next game's tags)."""
    sources = _Sources.of(paths, lenient=True)
    tally = _Tally(progress, sum(sources.sizes))
    invalid = _replay_sources(sources, tally, skip_invalid=True)
    return CheckResult(len(sources.paths), tally.games, tally.hands, invalid)


# ------------------------------------------------------------------------------------------------ export


_HandRows = tuple[int, int, tuple[int, int], list[tuple[int, str, str | None]]]
"""A hand of the dataset: number, dealer, points of team 0 and 1, and its events (seat, verb, arg)."""


def _frame(data: Path, name: str, where: ds.Expression) -> pl.DataFrame:
    """The rows of table ``name`` of the dataset ``data`` that ``where`` keeps. A part that cannot be read
    (damaged, or removed by a replacement of the dataset) is named (``store.read_error``)."""
    try:
        files = [str(path) for path in table_files(data, name)]
        table = ds.dataset(files, format="parquet", schema=SCHEMAS[name]).to_table(filter=where)
    except (OSError, pa.ArrowException) as exc:
        raise read_error([data], exc) from exc
    frame = pl.from_arrow(table)
    assert isinstance(frame, pl.DataFrame)
    return frame


def _deal_lines(arg: str) -> tuple[DealLine, ...]:
    """The deal lines of a ``dealt`` event's ``arg`` (``0:3o,12c,5e 1:7b,1o,4e``)."""
    lines = []
    for part in arg.split():
        seat, sep, cards = part.partition(":")
        if not sep or not seat.isascii() or not seat.isdigit():
            raise HistoryError("", None, f"a dealt event's arg {arg!r} is not of the form 0:3o,12c,5e 1:...")
        texts = tuple(cards.split(",")) if cards else ()
        lines.append(DealLine(0, f"{seat}: {' '.join(texts)}", int(seat), texts))
    return tuple(lines)


def _tag(name: str, value: str) -> TagLine:
    return TagLine(0, f'[{name} "{value}"]', name, value)


def _replay_rows(
    visitor: ReplayVisitor,
    game: dict[str, Any],
    seat_tags: dict[str, str],
    hands: list[_HandRows],
) -> None:
    """Drive ``visitor`` with one game of the dataset, as lines built from its rows.

    The engine's own steps are given as recorded (``cut``, ``deal N``), ``dealt`` as deal lines; no
    ``end`` line is given: the replay decides what each hand scored. ``seat_tags`` are the ``SeatN`` and
    ``PolicyN`` tags from the seats table.
    """
    visitor.begin_game(0)
    visitor.visit_tag(_tag("Variant", game["variant"]))
    visitor.visit_tag(_tag("Options", game["options"]))
    visitor.visit_tag(_tag("FirstDealer", str(game["first_dealer"])))
    if game["seed"] is not None:
        visitor.visit_tag(_tag("Seed", str(game["seed"])))
    for name, value in seat_tags.items():
        visitor.visit_tag(_tag(name, value))
    for tag, column in MATCH_TAGS.items():
        if game.get(column) is not None:
            visitor.visit_tag(_tag(tag, str(game[column])))
    for name, value in json.loads(game["tags"] or "{}").items():
        visitor.visit_tag(_tag(name, value))
    for hand_no, dealer, _, steps in hands:
        visitor.visit_hand(HandLine(0, f"hand {hand_no} dealer {dealer}", hand_no, dealer))
        for seat, verb, arg in steps:
            if verb == DEALT:
                visitor.visit_deal(_deal_lines(arg or ""))
            else:
                args = tuple(arg.split()) if arg is not None else ()
                text = " ".join((str(seat), verb, *args))
                visitor.visit_action(ActionLine(0, text, seat, verb, args))
    visitor.end_game()


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


def _game_texts(data: Path, games: pl.DataFrame) -> Iterator[str]:
    """Canonical text of each game of ``games`` (a chunk of the games table), replayed from its rows."""
    ids = games["game_id"].to_list()
    game_id = ds.field("game_id")
    where = (game_id >= min(ids)) & (game_id <= max(ids)) & game_id.isin(ids)
    steps: dict[tuple[int, int], list[tuple[int, str, str | None]]] = defaultdict(list)
    events = _frame(data, "events", where).sort("game_id", "hand_no", "seq")
    for gid, hand_no, seat, verb, arg in events.select("game_id", "hand_no", "seat", "verb", "arg").iter_rows():
        steps[gid, hand_no].append((seat, verb, arg))
    hands: dict[int, list[_HandRows]] = defaultdict(list)
    columns = ("game_id", "hand_no", "dealer", "points_team0", "points_team1")
    for gid, hand_no, dealer, p0, p1 in (
        _frame(data, "hands", where).sort("game_id", "hand_no").select(columns).iter_rows()
    ):
        hands[gid].append((hand_no, dealer, (p0, p1), steps[gid, hand_no]))
    seat_tags: dict[int, dict[str, str]] = defaultdict(dict)
    first_seats = _frame(data, "seats", where & (ds.field("hand_no") == 1)).sort("game_id", "seat")
    for gid, seat, policy, player in first_seats.select("game_id", "seat", "policy", "player").iter_rows():
        if player is not None:
            seat_tags[gid][f"Seat{seat}"] = player
        if policy is not None:
            seat_tags[gid][f"Policy{seat}"] = policy
    records: list[GameRecord] = []
    visitor = ReplayVisitor(str(data), on_game=records.append)
    for game in games.iter_rows(named=True):
        gid = game["game_id"]
        try:
            _replay_rows(visitor, game, seat_tags[gid], hands[gid])
        except HistoryError as exc:
            where_text = f" at '{exc.text}'" if exc.text else ""
            rule = f" [{exc.rule}]" if exc.rule else ""
            raise DatasetError(f"{data}: game {gid} does not replay{where_text}: {exc.message}{rule}") from None
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
    """
    datasets: list[tuple[Path, pl.DataFrame]] = []
    folders = dataset_folders(data)
    with unchanged(folders):  # a dataset replaced meanwhile (--overwrite) is an error, not a mix of two
        for folder in folders:
            games = pl.from_arrow(read_table(folder, "games"))
            assert isinstance(games, pl.DataFrame)
            datasets.append((folder, games.sort("game_id")))
        if game_ids:
            datasets = [_select_games(datasets, game_ids)]
        if not isinstance(out, str | Path):
            return _write_games(out, datasets, progress)
        with atomic_file(Path(out), overwrite) as stream:
            return _write_games(stream, datasets, progress)


def _select_games(datasets: list[tuple[Path, pl.DataFrame]], game_ids: Sequence[int]) -> tuple[Path, pl.DataFrame]:
    """The games ``game_ids`` of the one dataset in ``datasets``."""
    if len(datasets) != 1:
        raise DatasetError(
            f"games are chosen by id within one dataset, and --data names {len(datasets)}: "
            f"name one of them ({', '.join(str(folder) for folder, _ in datasets[:3])}"
            f"{', ...' if len(datasets) > 3 else ''})"
        )
    folder, games = datasets[0]
    held = set(games["game_id"].to_list())
    missing = sorted(set(game_ids) - held)
    if missing:
        span = f"ids {min(held)} to {max(held)}" if held else "no games"
        raise DatasetError(f"{folder} has no game {', '.join(map(str, missing))} ({games.height:,} games, {span})")
    return folder, games.filter(pl.col("game_id").is_in(list(game_ids)))


def _write_games(stream: TextIO, datasets: list[tuple[Path, pl.DataFrame]], progress: Progress | None) -> int:
    """Each dataset's games, replayed and written one after the other, a blank line between games."""
    total = sum(games.height for _, games in datasets)
    written = hands = 0
    for folder, games in datasets:
        for start in range(0, games.height, CHUNK_GAMES):
            chunk = games.slice(start, CHUNK_GAMES)
            for text in _game_texts(folder, chunk):
                if written:
                    stream.write("\n")
                stream.write(text)
                written += 1
            hands += int(chunk["hands"].sum())
            if progress is not None:
                progress(written, total, written, hands)
    return written
