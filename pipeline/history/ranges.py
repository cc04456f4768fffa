"""A history file cut into ranges of whole games, each read by a worker process: what ``truc import`` and
``truc check`` run in parallel.

``file_ranges`` cuts a file at game boundaries about every ``RANGE_BYTES`` bytes: where a blank line is
followed by a line that starts with ``[`` (a tag: the export writes a blank line between games, as people
do). It reads the file once, in blocks, counting lines, so that each range knows the number of its first
line and its errors name the right line of the file. ``read_range`` reads and replays one range as a file
of its own (``reader.parse`` with ``whole=False``) and returns its games' rows as Arrow tables, with what
the driver needs to put the ranges back together exactly as one reading of the file would have:

- whether the range ends cleanly (no ``{`` comment open, no tag section in progress): only then does the
  next range start where a game starts. A cut that was not a game boundary (a blank line inside a tag
  section, a comment over several lines) is found so, and the driver reads the two ranges again as one;
- the rubber's match the range ended in, and the match of its first game: a French rubber's games are
  checked against the games of their match before them (``ReplayVisitor.match``), and when that match is
  in the range before, the driver reads the range again from there;
- each valid game's identity and line, so that the driver decides the duplicates over the whole import.

A range is the unit of work whatever the number of workers, so the rows, in order, do not depend on it.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import BinaryIO

import pyarrow as pa

from pipeline.history.reader import (
    BLOCK,
    ByteLines,
    GameRecord,
    HistoryError,
    MatchState,
    ReplayVisitor,
    match_columns,
    parse,
)
from pipeline.history.writer import seat_tag_index, tag_rank
from pipeline.parts import TableBatch, new_batches
from pipeline.rows import add_game, played

RANGE_BYTES = 1 << 21
"""The bytes of text a range holds, about (it ends at the first game boundary past them): 2 MiB, some
1,200 games of 2-player Catalan. The ranges' rows are appended in order to the import's parts (``parts.PartWriter``,
parts sized by rows)."""

_CUT = re.compile(rb"\n[ \t]{0,32}\r?\n\[")
"""A blank line, then a line that starts with ``[``: where a game may begin (the cut is before the ``[``)."""
_CUT_REACH = 40
"""Bytes kept from one block to the next, so that a cut across two blocks is found."""


@dataclass(frozen=True)
class Range:
    """A part of a history file: bytes ``start`` to ``end`` (None: to the end of the file), whose first
    line is line ``line`` of the file. ``path`` None is standard input, read whole by the driver.
    ``rows`` builds the games' rows (an import) rather than only checking them; ``strict`` stops at the
    first error. ``match`` is the rubber's match the reading starts in."""

    path: Path | None
    source: str  # the file as named in errors
    name: str  # the file as the ``games.source`` column names it
    start: int = 0
    end: int | None = None
    line: int = 1
    strict: bool = True
    rows: bool = True
    match: MatchState | None = None
    file_no: int = 0  # the file's place among the sources

    @property
    def last(self) -> bool:
        return self.end is None


@dataclass
class RangeRead:
    """What reading a range gave. ``games`` holds each valid game's identity (``game_identity``; 0 when
    only checking), first line and hands, in order; ``tables`` their rows (``game_id`` counting the range's
    games from 0). ``failed``: the error that stopped a strict reading, or a file that cannot be opened."""

    range: Range
    games: list[tuple[int, int, int]] = field(default_factory=list)
    tables: dict[str, pa.Table] = field(default_factory=dict)
    errors: list[HistoryError] = field(default_factory=list)
    failed: HistoryError | None = None
    clean: bool = True
    matches_checked: int = 0
    first_match: int | None = None
    match: MatchState | None = None
    done: int = 0  # bytes read


class _Window:
    """The bytes ``start`` to ``end`` of a binary file, read as a stream (``ByteLines`` reads it in blocks)."""

    def __init__(self, stream: BinaryIO, start: int, end: int | None) -> None:
        stream.seek(start)
        self.stream = stream
        self.left = None if end is None else end - start

    def read(self, size: int) -> bytes:
        if self.left is None:
            return self.stream.read(size)
        data = self.stream.read(min(size, self.left))
        self.left -= len(data)
        return data


def open_history(path: Path, source: str) -> BinaryIO:
    """A history file opened for reading; a missing or unreadable file is a ``HistoryError``."""
    if not path.exists():
        raise HistoryError(source, None, "no such file")
    if path.is_dir():
        raise HistoryError(source, None, "is a folder, not a history file")
    try:
        return path.open("rb")
    except OSError as exc:
        raise HistoryError(source, None, f"cannot read the file: {exc.strerror}") from None


def file_ranges(whole: Range) -> list[Range]:
    """``whole`` (a file's one range) cut at game boundaries about every ``RANGE_BYTES``. A file that cannot
    be opened, or is not a regular file (a pipe), stays one range, read as before."""
    path = whole.path
    if path is None or not path.is_file():
        return [whole]
    try:
        stream = path.open("rb")
    except OSError:
        return [whole]
    cuts: list[tuple[int, int]] = []  # (offset, line) of each cut
    with stream:
        # ``data`` starts at byte ``base`` of the file; its lines are counted up to ``counted``, on line ``line``
        data, base, counted, line = b"", 0, 0, 1
        want = RANGE_BYTES
        while True:
            block = stream.read(BLOCK)
            data += block
            while (found := _CUT.search(data, max(counted, want - base - _CUT_REACH))) is not None:
                cut = found.end() - 1
                line += _line_ends(data, counted, cut)
                counted = cut
                cuts.append((base + cut, line))
                want = base + cut + RANGE_BYTES
            if not block:
                break
            keep = max(counted, len(data) - _CUT_REACH)  # what a cut may still start in
            if keep > counted and data[keep - 1 : keep] == b"\r":
                keep -= 1  # a CR and the LF after it are one line end
            line += _line_ends(data, counted, keep)
            data, base, counted = data[keep:], base + keep, 0
    starts = [(whole.start, whole.line), *cuts]
    ends = [offset for offset, _ in cuts] + [None]
    return [replace(whole, start=start, line=first, end=end) for (start, first), end in zip(starts, ends, strict=True)]


def _line_ends(data: bytes, start: int, end: int) -> int:
    """The line ends in ``data[start:end]``: LF, CRLF or CR alone. Counted in place, the CRLFs only where there is a
    CR: the whole file is counted before its first range is read, one core alone (about 0.17 s for 34 MB before,
    0.07 s after)."""
    lf = data.count(b"\n", start, end)
    cr = data.count(b"\r", start, end)
    return lf + cr - data.count(b"\r\n", start, end) if cr else lf


def read_range(part: Range, stream: BinaryIO | None = None) -> RangeRead:
    """Read and replay the games of ``part`` (from ``stream`` when given: standard input)."""
    result = RangeRead(part)
    batches = new_batches(native=True) if part.rows else {}  # a check builds no rows: no columns to allocate

    def add(record: GameRecord) -> None:
        if part.rows:
            events = batches["events"]
            first = len(events)
            _add_rows(batches, len(result.games), record, part.name)
            result.games.append((game_identity(record, played(events, first)), record.line, len(record.hands)))
        else:
            result.games.append((0, record.line, len(record.hands)))

    visitor = ReplayVisitor(part.source, strict=part.strict, on_game=add, match=part.match)
    try:
        opened = stream if stream is not None else open_history(part.path or Path(), part.source)
    except HistoryError as exc:
        result.failed = exc
        return result
    lines = ByteLines(_Window(opened, part.start, part.end) if stream is None else opened, part.source, part.line)
    try:
        result.clean = parse(lines, visitor, part.source, whole=part.last)
    except HistoryError as exc:
        result.failed = exc
    finally:
        if stream is None:
            opened.close()
    result.errors = visitor.errors
    result.matches_checked, result.first_match, result.match = (
        visitor.matches_checked,
        visitor.first_match,
        visitor.match,
    )
    result.done = lines.done
    if part.rows and result.games:
        result.tables = {name: batch.to_arrow() for name, batch in batches.items()}
    return result


def _add_rows(batches: dict[str, TableBatch], game_id: int, record: GameRecord, name: str) -> None:
    match = match_columns(record.tags)
    add_game(
        batches,
        game_id,
        record.game,
        record.hands,
        record.policies(),
        name,
        record.complete,
        match_no=match.get("_Match"),
        match_winner=match.get("_MatchWinner"),
        tags=other_tags(record.tags, record.complete),
        players=seat_names(record.tags, record.game.n),
    )


def game_identity(record: GameRecord, events: bytes) -> int:
    """What makes two records the same game: its variant, options, every hand's dealer, and its ``events``, the
    seat, verb and arg of each of its rows in the events table (``rows.played``: the deals and the actions),
    digested in 64 bits (two different games of ten million share one with a chance of a few in a million).
    Tags, names, seeds and the text's spelling do not count; the two games of a paired match (the same deals, the
    seats swapped) usually differ, but a pair whose seats made the same choices is the same game."""
    game = record.game
    dealers = ",".join([str(hand.dealer) for hand in record.hands])
    head = f"{game.variant.name}\0{game.config.options_text()}\0{dealers}".encode()
    digest = hashlib.blake2b(len(head).to_bytes(4, "little"), digest_size=8)
    digest.update(head)
    digest.update(events)
    return int.from_bytes(digest.digest())


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
