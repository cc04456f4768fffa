"""simulate → export → import gives the same tables, and export(import(x)) the same bytes, for every
variant, player count and the options that change what is recorded."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from pipeline.history import export_dataset, import_files
from pipeline.simulate import SimulationSpec, simulate
from pipeline.store import TABLES
from pipeline.variants import VARIANTS

EXTRA_OPTIONS: dict[str, list[dict[str, str]]] = {
    "catalan": [{"signals": "on"}],
    "french": [{"rubber": "off", "ranking": "eight-low"}, {"deck": "36"}],
    "valencian": [{"twos": "on", "bones": "12", "cames": "1"}, {"signals": "on"}],
    "trut": [{"tie_lead": "first", "dealer_leads": "on"}, {"brelan": "on"}],
    "trut-gatinaise": [{"brelan": "on", "tie_lead": "first"}, {"dealer_leads": "on"}],
    "trut-gatine": [{"tie_lead": "first", "dealer_leads": "on"}],
}


def cases() -> list[tuple[str, dict[str, str]]]:
    found = []
    for name, variant in VARIANTS.items():
        for players in variant.players:
            found.append((name, {"players": str(players)}))
        for extra in EXTRA_OPTIONS.get(name, []):
            names = {o.name for o in variant.options}
            if set(extra) <= names:
                found.append((name, {"players": str(variant.players[-1]), **extra}))
    return found


def table(root: Path, name: str) -> pl.DataFrame:
    """A table sorted, with game ids renumbered 0, 1, 2... in order: ids are local to a dataset (an
    import numbers games as it reads them; a simulated French rubber numbers match m's games 3m + k)."""
    frame = pl.read_parquet(root / name / "*.parquet")
    keys = [c for c in ("game_id", "hand_no", "seq", "seat") if c in frame.columns]
    ids = pl.read_parquet(root / "games" / "*.parquet")["game_id"].sort()
    renumber = pl.DataFrame({"game_id": ids, "game_no": pl.int_range(ids.len(), eager=True)})
    renumbered = frame.join(renumber, on="game_id").with_columns(pl.col("game_no").alias("game_id"))
    return renumbered.drop("game_no").sort(keys)


@pytest.mark.parametrize(("variant", "options"), cases(), ids=lambda x: x if isinstance(x, str) else None)
def test_simulate_export_import_round_trip(variant: str, options: dict[str, str], tmp_path: Path) -> None:
    spec = SimulationSpec(variant, 3, seed=7, options=options, policy="threshold", seat_policies={1: "random"})
    simulate(spec, tmp_path / "sim")
    exported = tmp_path / "games.truc"
    games = export_dataset(tmp_path / "sim", exported)
    assert games == table(tmp_path / "sim", "games").height
    import_files([exported], tmp_path / "imported")
    for name in TABLES:
        want, got = table(tmp_path / "sim", name), table(tmp_path / "imported", name)
        if name == "games":
            assert set(got["source"]) == {"games.truc"}
            want, got = want.drop("source"), got.drop("source")
        assert_frame_equal(got, want)
    import_files([exported], tmp_path / "again")
    export_dataset(tmp_path / "again", tmp_path / "again.truc")
    assert (tmp_path / "again.truc").read_bytes() == exported.read_bytes()
