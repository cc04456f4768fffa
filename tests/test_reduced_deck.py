"""The reduced Trut deck (``trut`` option ``deck=8``): the same rules with the 7, 8, A and K of two suits, for
exact solving. It plays, reads and writes like any option, has its own strength tables, and leaves every game
played before it as it was (an implicit option: at its default it is not in a configuration)."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from pipeline.engine.game import new_game
from pipeline.engine.rules import OptionError
from pipeline.history import export_dataset, import_files
from pipeline.simulate import SimulationSpec, simulate
from pipeline.strength import hand_strength, strength_table
from pipeline.variants import TRUT
from pipeline.variants.trut import REDUCED_DECK, TRUT_REDUCED

REDUCED = {"players": "2", "deck": "8"}


def test_the_default_deck_leaves_the_configuration_as_it_was() -> None:
    for options in ({"players": "2"}, {"players": "2", "deck": "32"}):
        config = TRUT.configure(options)
        assert config.variant is TRUT and "deck" not in config.options
        assert config.options_text() == "players=2 dealer_leads=off tie_lead=maker brelan=off"


def test_the_reduced_deck_is_eight_cards_of_trut_s_four_highest_ranks_for_two_players() -> None:
    config = TRUT.configure(REDUCED)
    assert config.variant is TRUT_REDUCED and config.options_text().endswith(" deck=8")
    assert config.variant.deck is REDUCED_DECK and len(REDUCED_DECK) == 8
    assert config.variant.rank_order == ("7", "8", "A", "K")
    seven, king = REDUCED_DECK.parse("7s"), REDUCED_DECK.parse("Kh")
    assert config.variant.power[seven] > config.variant.power[king]
    for players in ("3", "4", "6"):
        with pytest.raises(OptionError, match="deck=8 is played by 2 players"):
            TRUT.configure({"players": players, "deck": "8"})


def test_its_strength_tables_rank_every_hand_of_the_reduced_deck() -> None:
    table = strength_table(TRUT_REDUCED)
    assert len(table.percentile) == 16  # power multisets of 3 cards from 4 ranks of 2 cards each
    best = hand_strength(TRUT_REDUCED, tuple(REDUCED_DECK.parse(c) for c in ("7h", "7s", "8h")))
    worst = hand_strength(TRUT_REDUCED, tuple(REDUCED_DECK.parse(c) for c in ("Kh", "Ks", "Ah")))
    assert best[1] == max(table.percentile.values()) > 0.9
    assert worst[1] == min(table.percentile.values()) < 0.1


def test_games_deal_only_its_cards_and_round_trip_through_the_text_format(tmp_path: Path) -> None:
    game = new_game(TRUT.configure(REDUCED), 5)
    game.deal()
    assert sorted([c for hand in game.hands for c in hand] + game.stock) == list(range(8))
    spec = SimulationSpec("trut", 20, seed=3, options=REDUCED, policy="threshold", seat_policies={1: "random"})
    simulate(spec, tmp_path / "sim")
    exported = tmp_path / "games.truc"
    export_dataset(tmp_path / "sim", exported)
    assert '[Options "players=2 dealer_leads=off tie_lead=maker brelan=off deck=8"]' in exported.read_text()
    import_files([exported], tmp_path / "imported")
    for name in ("hands", "events"):
        simulated = pl.read_parquet(tmp_path / "sim" / name / "*.parquet").drop("game_id")
        imported = pl.read_parquet(tmp_path / "imported" / name / "*.parquet").drop("game_id")
        assert simulated.height == imported.height > 0
        assert sorted(simulated.columns) == sorted(imported.columns)
