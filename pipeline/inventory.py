"""What datasets hold (``truc datasets``): one row per dataset and (variant, players, options), from the
``games`` table itself, with how the dataset was made from its manifest.

A folder of runs (``make demo``'s ``data/demo``) holds a dozen datasets, and an import may mix variants;
this is the table to read before choosing what to pass to ``--data``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import polars as pl

from pipeline import parts, store

COLUMNS: dict[str, type[pl.DataType]] = {
    "dataset": pl.String,
    "kind": pl.String,
    "variant": pl.String,
    "players": pl.Int64,
    "options": pl.String,
    "games": pl.Int64,
    "complete": pl.Int64,
    "hands": pl.Int64,
    "seed": pl.Int64,
    "created": pl.String,
}
"""``dataset``: the folder, written as the ``dataset`` column of ``truc sql`` and ``truc stats`` writes it (so a
row can be picked there by it); ``kind``: ``simulation`` or
``import``; ``options``: every option, defaults included (``k=v k=v``); ``games``, ``complete``, ``hands``:
the games, those played to their end, and their hands, counted in the ``games`` table; ``seed``: the run's
seed (null for an import); ``created``: when the dataset was written (UTC, from its manifest)."""


def describe_datasets(data: Path | Sequence[Path]) -> pl.DataFrame:
    """One row per dataset named by ``data`` (a dataset, a folder of runs, or several: as ``--data`` reads
    them) and per (variant, players, options) among its games, in the order the datasets are named.
    Raises ``store.DatasetError`` for a folder that is not a complete dataset."""
    return pl.concat([_describe(folder) for folder in store.dataset_folders(data)], how="vertical")


def _text(value: object) -> str | None:
    """A manifest's text field as shown: a hand-edited manifest may hold anything there."""
    return None if value is None else str(value)


def _describe(folder: Path) -> pl.DataFrame:
    columns = ["variant", "players", "options", "hands", "complete"]
    with store.unchanged([folder]):
        manifest = store.read_manifest(folder)
        games = pl.from_arrow(parts.read_table(folder, "games").select(columns))
    assert isinstance(games, pl.DataFrame)
    groups = (
        games.group_by(["variant", "players", "options"])
        .agg(
            pl.len().alias("games"),
            pl.col("complete").sum().alias("complete"),
            pl.col("hands").cast(pl.Int64).sum().alias("hands"),
        )
        .sort(["variant", "players", "options"])
    )
    seed = manifest.get("seed") if manifest.get("kind") == store.SIMULATION else None
    return groups.with_columns(
        pl.lit(str(folder)).alias("dataset"),
        pl.lit(_text(manifest.get("kind"))).alias("kind"),
        pl.lit(seed if isinstance(seed, int) and -(2**63) <= seed < 2**63 else None, pl.Int64).alias("seed"),
        pl.lit(_text(manifest.get("created"))).alias("created"),
    ).select([pl.col(name).cast(dtype) for name, dtype in COLUMNS.items()])
