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
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from pipeline import store
from pipeline.statistics import STATISTICS, Statistic, compose, read_sql

STAGING = "staging"


def relative_path(name: str) -> str:
    """Where the tally of the statistic ``name`` lives in a dataset, relative to it."""
    return f"{store.TALLIES}/{name}.parquet"


def digest(statistic: Statistic) -> str | None:
    """The ``blake2b`` of the SQL that computes the statistic's tally (the staging's views and the tally's own
    query), or None for a statistic without a tally: a tally computed by other SQL is not read."""
    halves = statistic.tally_and_finish()
    if halves is None:
        return None
    text = read_sql(STAGING) + "\0" + halves[0]
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


def stored(folders: Sequence[Path], statistic: Statistic, values: Mapping[str, float]) -> list[Path] | None:
    """The tally files of ``statistic`` in the datasets ``folders``, when each holds a current one (computed by
    today's SQL, of the size recorded) and ``values`` are its default parameters; otherwise None: the rows
    are read."""
    if dict(values) != statistic.defaults():
        return None
    wanted = digest(statistic)
    if wanted is None:
        return None
    files = []
    for folder in folders:
        path = folder / relative_path(statistic.name)
        entry = store.tally_entries(store.read_manifest(folder)).get(relative_path(statistic.name))
        if entry is None or entry.get("digest") != wanted or _size(path) != entry.get("bytes"):
            return None
        files.append(path)
    return files


def current(root: Path) -> bool:
    """Whether the dataset ``root`` holds every statistic's tally, computed by today's SQL and whole (its bytes
    hash to the recorded checksum): what ``truc upgrade`` leaves as it is."""
    entries = store.tally_entries(store.read_manifest(root))
    for statistic in STATISTICS.values():
        wanted = digest(statistic)
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
    listed = ", ".join("'" + str(path).replace("'", "''") + "'" for path in files)
    return compose(f"read_parquet([{listed}])", halves[1])


def tally_query(statistic: Statistic, held: set[str]) -> str | None:
    """The statistic's tally over the rows, or None when it has none; with no rows (``limit 0``, its columns
    typed) when it counts only variants of which the dataset holds none (``held``)."""
    halves = statistic.tally_and_finish()
    if halves is None:
        return None
    if statistic.variants and not held & set(statistic.variants):
        return f"select * from (\n{halves[0]}\n) limit 0"
    return halves[0]


def write_tallies(root: Path) -> None:
    """Compute every statistic's tally over the dataset ``root`` (its parts and manifest written) and record
    them in its manifest (``store.TALLIES``), replacing any it had."""
    from pipeline import stats  # stats reads the tallies (``stored``): imported here, not at the top

    folder = root / store.TALLIES
    folder.mkdir(exist_ok=True)
    entries: dict[str, dict[str, Any]] = {}
    with stats.staged([root]) as connection:
        held = stats.variants_held([root], connection)
        for statistic in STATISTICS.values():
            query = tally_query(statistic, held)
            if query is None:
                continue
            path = root / relative_path(statistic.name)
            stats.write_query(connection, statistic, query, path)
            checksum, size = store.file_checksum(path)
            entries[relative_path(statistic.name)] = {
                "rows": pq.read_metadata(path).num_rows,
                "bytes": size,
                store.CHECKSUM: checksum,
                "digest": digest(statistic),
            }
    store.replace_manifest(root, {**store.read_manifest(root), store.TALLIES: entries})
