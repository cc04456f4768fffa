"""The reduced decks for exact solving: the trut's ``deck=8`` (the 7, 8, A and K of two suits) and Catalan's
``deck=7`` (the 3, 2 and 1 of oros and copes and the 12 of oros). Each plays the same rules, reads and writes
like any option, has its own strength tables, and leaves every game played before it as it was (an implicit
option: at its default it is not in a configuration)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path

import polars as pl
import pytest

from pipeline.cards import Deck
from pipeline.engine.game import DEALING, new_game
from pipeline.engine.rules import OptionError, Variant
from pipeline.history import export_dataset, import_files
from pipeline.simulate import SimulationSpec, simulate
from pipeline.strength import hand_strength, strength_table
from pipeline.variants import CATALAN, TRUT, catalan, trut


@dataclass(frozen=True)
class Case:
    variant: Variant
    reduced: Variant
    deck: Deck
    size: str
    full_options: str  # the 2-player configuration's options without the deck option
    rank_order: tuple[str, ...]
    best: tuple[str, str, str]
    worst: tuple[str, str, str]
    higher: str
    lower: str

    @property
    def options(self) -> dict[str, str]:
        return {"players": "2", "deck": self.size}


CASES = [
    Case(
        TRUT,
        trut.TRUT_REDUCED,
        trut.REDUCED_DECK,
        "8",
        "players=2 dealer_leads=off tie_lead=maker brelan=off",
        ("7", "8", "A", "K"),
        ("7h", "7s", "8h"),
        ("Kh", "Ks", "Ah"),
        "7s",
        "Kh",
    ),
    Case(
        CATALAN,
        catalan.CATALAN_REDUCED,
        catalan.REDUCED_DECK,
        "7",
        "players=2 signals=off",
        ("3", "2", "1", "12"),
        ("3o", "3c", "2o"),
        ("12o", "1o", "1c"),
        "3c",
        "12o",
    ),
]
IDS = [case.variant.name for case in CASES]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_the_default_deck_leaves_the_configuration_as_it_was(case: Case) -> None:
    full = case.variant.option("deck").default
    for options in ({"players": "2"}, {"players": "2", "deck": full}):
        config = case.variant.configure(options)
        assert config.variant is case.variant and "deck" not in config.options
        assert config.options_text() == case.full_options


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_the_reduced_deck_keeps_the_variant_s_highest_ranks_in_its_order_for_two_players(case: Case) -> None:
    config = case.variant.configure(case.options)
    assert config.variant is case.reduced and config.options_text() == f"{case.full_options} deck={case.size}"
    assert case.variant.with_reduced_deck is case.reduced  # built once: a variant is compared by identity
    assert config.variant.deck is case.deck and len(case.deck) == int(case.size)
    assert config.variant.rank_order == case.rank_order
    assert config.variant.power[case.deck.parse(case.higher)] > config.variant.power[case.deck.parse(case.lower)]
    assert config.variant.name == case.variant.name and config.variant.ladder == case.variant.ladder
    for players in (str(n) for n in case.variant.players if n != 2):
        with pytest.raises(OptionError, match=f"deck={case.size} is played by 2 players, not {players}"):
            case.variant.configure({"players": players, "deck": case.size})


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_its_strength_tables_rank_every_hand_of_the_reduced_deck(case: Case) -> None:
    reduced = case.reduced
    table = strength_table(reduced)
    hands = itertools.combinations(range(len(case.deck)), 3)
    multisets = {tuple(sorted(reduced.power[c] for c in hand)) for hand in hands}
    assert len(table.percentile) == len(multisets)
    best = hand_strength(reduced, tuple(case.deck.parse(c) for c in case.best))
    worst = hand_strength(reduced, tuple(case.deck.parse(c) for c in case.worst))
    assert best[1] == max(table.percentile.values())
    assert worst[1] == min(table.percentile.values()) < best[1] - 0.5


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_games_deal_only_its_cards_and_round_trip_through_the_text_format(case: Case, tmp_path: Path) -> None:
    game = new_game(case.variant.configure(case.options), 5)
    while game.phase is not DEALING:  # Catalan's cut comes first
        game.apply(game.legal_actions()[0])
    game.deal()
    dealt = [c for hand in game.hands for c in hand]
    assert len(dealt) == 6 and set(dealt) <= set(range(len(case.deck)))
    spec = SimulationSpec(
        case.variant.name, 20, seed=3, options=case.options, policy="threshold", seat_policies={1: "random"}
    )
    simulate(spec, tmp_path / "sim")
    exported = tmp_path / "games.truc"
    export_dataset(tmp_path / "sim", exported)
    assert f'[Options "{case.full_options} deck={case.size}"]' in exported.read_text()
    import_files([exported], tmp_path / "imported")
    for name in ("hands", "events"):
        simulated = pl.read_parquet(tmp_path / "sim" / name / "*.parquet").drop("game_id")
        imported = pl.read_parquet(tmp_path / "imported" / name / "*.parquet").drop("game_id")
        assert simulated.height == imported.height > 0
        assert simulated.sort(simulated.columns).equals(imported.sort(imported.columns).select(simulated.columns))
