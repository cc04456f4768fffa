"""Each dataset's tallies, written with it, so that a statistic reads a few rows instead of all of them.

A statistic's SQL file is split in two by ``statistics.FINISH_MARK``: its **tally**, counts and sums that add up
across datasets, and its **finish**, which adds them up to the statistic's grain and computes the rates and
intervals. When a dataset is written (``truc simulate``, ``truc import``, an experiment's runs, ``truc upgrade``),
``write_tallies`` runs every tally once over its rows, with the statistic's default parameters, into
``tallies/NAME.parquet`` (``store.TALLIES``), and records each file in the manifest with the ``digest`` of the
SQL that computed it. A statistic then runs its finish over the tallies of the datasets it reads
(``stored``), whatever their size: over 100 million hands its tally is the same few hundred rows. It reads the
rows instead, its tally run as a subquery of its finish, when one of the datasets has no current tally for it
(written before tallies, or by a Truc Lab whose staging or tally SQL differed), when its parameters are not the
defaults, or when asked to (``truc stats --from-rows``). Both ways give the same frame: the tests compare them
for every statistic over datasets of every variant.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pipeline import store
from pipeline.statistics import STAGING, STATISTICS, Statistic, compose, read_sql

if TYPE_CHECKING:
    import duckdb


def relative_path(name: str) -> str:
    """Where the tally of the statistic ``name`` lives in a dataset, relative to it."""
    return f"{store.TALLIES}/{name}.parquet"


def digest(statistic: Statistic, manifest: dict[str, Any]) -> str | None:
    """The ``blake2b`` of what the statistic's tally is computed from: its SQL (the staging's views and the tally's
    own query) and the rows (the checksums of the parts the ``manifest`` lists); None for a statistic without a
    tally. A tally computed by other SQL, or from parts since rewritten, is not read."""
    halves = statistic.tally_and_finish()
    if halves is None:
        return None
    parts = sorted((path, str(entry.get(store.CHECKSUM))) for path, entry in manifest.get(store.PARTS, {}).items())
    text = "\0".join([read_sql(STAGING), halves[0], json.dumps(parts)])
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


def stored(folders: Sequence[Path], statistic: Statistic, values: Mapping[str, float]) -> list[Path] | None:
    """The tally files of ``statistic`` in the datasets ``folders``, when each holds a current one (computed by
    today's SQL from today's parts, of the size recorded) and ``values`` are its default parameters; otherwise
    None: the rows are read."""
    if dict(values) != statistic.defaults() or statistic.tally_and_finish() is None:
        return None
    files = []
    for folder in folders:
        manifest = store.read_manifest(folder)
        path = folder / relative_path(statistic.name)
        entry = store.tally_entries(manifest).get(relative_path(statistic.name))
        if entry is None or entry.get("digest") != digest(statistic, manifest) or _size(path) != entry.get("bytes"):
            return None
        files.append(path)
    return files


def current(root: Path) -> bool:
    """Whether the dataset ``root`` holds every statistic's tally, computed by today's SQL and whole (its bytes
    hash to the recorded checksum): what ``truc upgrade`` leaves as it is."""
    manifest = store.read_manifest(root)
    entries = store.tally_entries(manifest)
    for statistic in STATISTICS.values():
        wanted = digest(statistic, manifest)
        if wanted is None:
            continue
        entry = entries.get(relative_path(statistic.name))
        path = root / relative_path(statistic.name)
        if entry is None or entry.get("digest") != wanted or not path.is_file():
            return False
        if store.file_checksum(path)[0] != entry.get(store.CHECKSUM):
            return False
    return True


def _size(path: Path) -> int | None:
    try:
        return path.stat().st_size
    except OSError:
        return None


def finish_over(statistic: Statistic, files: Sequence[Path]) -> str:
    """The statistic's finish over the tally files ``files`` (``stored``)."""
    halves = statistic.tally_and_finish()
    assert halves is not None, f"{statistic.name} has no tally"
    return compose(f"read_parquet([{_listed(files)}])", halves[1])


def _listed(files: Sequence[Path]) -> str:
    """``files`` as the SQL list of ``read_parquet``, each path escaped as DuckDB's glob needs
    (``store.duckdb_path``)."""
    return ", ".join("'" + store.duckdb_path(path).replace("'", "''") + "'" for path in files)


def tally_query(statistic: Statistic, held: set[str]) -> str | None:
    """The statistic's tally over the rows, or None when it has none; with no rows (``limit 0``, its columns
    typed) when it counts only variants of which the dataset holds none (``held``)."""
    halves = statistic.tally_and_finish()
    if halves is None:
        return None
    if statistic.variants and not held & set(statistic.variants):
        return f"select * from (\n{halves[0]}\n) limit 0"
    return halves[0]


SLICE_GAMES = 500_000
"""The games a tally is computed over at a time. A tally adds up over any split of the games (nothing in it spans
two games), so a large dataset's tallies are computed a slice of games at a time (its parts are in game order: a
slice reads the row groups that hold its games) and the slices' rows written together, which the finish adds up
as it adds up datasets: memory bounded whatever the size (``game_results`` over 100 million hands at once needed
more than DuckDB's 640 MB). Not ``Final``: the tests make it small."""


QUERIES_AT_ONCE = 2
"""Tally queries run at a time (``stats.write_queries``) over a dataset of at most ``AT_ONCE_GAMES`` games. A tally
over a small dataset is a few tens of milliseconds of DuckDB that keeps about one core busy: two at a time took an
import's tallies (20,000 games) from 1.2 to 0.75 s on 2 cores, and those of a million hands (71,000 games) from 3.1
to 2.4 s. They share the database's memory limit."""

AT_ONCE_GAMES = 250_000
"""The most games over which the tallies run ``QUERIES_AT_ONCE`` at a time; over more, one at a time. A query over
many row groups already spreads over the cores alone: over 10 million hands (slices of 500,000 games) two at a time
took 35.8 s where one at a time took 30.4."""


def write_tallies(root: Path, in_place: bool = False) -> None:
    """Compute every statistic's tally over the dataset ``root`` (its parts and manifest written), a slice of
    ``SLICE_GAMES`` games at a time, and record them in its manifest (``store.TALLIES``), replacing any it had:
    rewritten where ``root`` is a temporary folder of its writer, replaced whole (``store.replace_manifest``)
    when ``in_place``, where ``root`` is a dataset others may read."""
    from pipeline import stats  # stats reads the tallies (``stored``): imported here, not at the top

    (root / store.TALLIES).mkdir(exist_ok=True)
    for leftover in (root / store.TALLIES).glob("*.slice-*.parquet"):  # an interrupted upgrade's
        leftover.unlink()
    with stats.staged([root]) as con:
        held = stats.variants_held([root], con)
        queries = [(s, query) for s in STATISTICS.values() if (query := tally_query(s, held)) is not None]
        low, high = _game_ids(con)
        slices = _slices(low, high)
        at_once = QUERIES_AT_ONCE if high - low < AT_ONCE_GAMES else 1
        for number, games in enumerate(slices):
            if games is not None:
                stats.create_sources(con, [root], games)
            jobs = [(s, query, _slice_path(root, s.name, number, len(slices))) for s, query in queries]
            for statistic, query, path in stats.write_queries(con, [root], jobs, at_once):
                # DuckDB keeps some of what the tallies before it held, and the queries beside it hold their share
                # (player_results, the last, ran out over 10 million hands in the shared connection, not alone):
                # once more, alone, in a connection of its own
                with stats.staged([root]) as alone:
                    if games is not None:
                        stats.create_sources(alone, [root], games)
                    stats.write_query(alone, statistic, query, path)
        if len(slices) > 1:
            for statistic, _ in queries:
                _join_slices(con, root, statistic.name, len(slices))
    manifest = store.read_manifest(root)
    manifest[store.TALLIES] = {relative_path(s.name): _entry(root, s, manifest) for s, _ in queries}
    if in_place:
        store.replace_manifest(root, manifest)
    else:
        store.rewrite_manifest(root, manifest)


def _game_ids(con: duckdb.DuckDBPyConnection) -> tuple[int, int]:
    """The first and last ``game_id`` of the dataset on ``con``; (0, -1) when it has no game."""
    low, high = con.execute("select min(game_id), max(game_id) from src_games").fetchall()[0]
    return (0, -1) if low is None else (low, high)


def _slices(low: int, high: int) -> list[tuple[int, int] | None]:
    """The ranges of ``game_id`` of ``SLICE_GAMES`` games each that cover the games ``low`` to ``high``; ``[None]``
    (all at once) when one does."""
    if high - low < SLICE_GAMES:
        return [None]
    return [(start, min(start + SLICE_GAMES, high + 1)) for start in range(low, high + 1, SLICE_GAMES)]


def _slice_path(root: Path, name: str, number: int, slices: int) -> Path:
    """Where a slice's tally is written: the tally's own path when there is one slice."""
    path = root / relative_path(name)
    return path if slices == 1 else path.with_name(f"{name}.slice-{number:05d}.parquet")


def _join_slices(con: duckdb.DuckDBPyConnection, root: Path, name: str, slices: int) -> None:
    """The slices' tallies of the statistic ``name`` written as its one tally file, then removed."""
    parts = [_slice_path(root, name, number, slices) for number in range(slices)]
    con.sql(f"select * from read_parquet([{_listed(parts)}])").write_parquet(str(root / relative_path(name)))
    for path in parts:
        path.unlink()


def _entry(root: Path, statistic: Statistic, manifest: dict[str, Any]) -> dict[str, Any]:
    """What the manifest records of the statistic's tally (``store.TALLIES``)."""
    from pipeline.parts import footer_rows  # pyarrow: not imported by the readers of tallies (``pipeline.parts``)

    path = root / relative_path(statistic.name)
    checksum, size = store.file_checksum(path)
    return {
        "rows": footer_rows(path),
        "bytes": size,
        store.CHECKSUM: checksum,
        "digest": digest(statistic, manifest),
    }
