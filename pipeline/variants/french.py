"""French Truc, seed 002 "Règles du Truc" and seed 000 "Le Truc en France" (RULES.md, `french`).

The options ``ranking`` and ``deck`` change the cards and their order, which every consumer reads from
``config.variant`` (the engine, the text reader and writer, the rows, the strength tables). So
``FrenchVariant.configure`` returns a ``Config`` whose variant is the french variant built for those two
options: one object per combination, built once, so the strength tables cached per variant are computed
once per process.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from pipeline.cards import FRENCH_32, FRENCH_36
from pipeline.engine.french import FrenchGame
from pipeline.engine.hand_rules import first_decisive_or_void
from pipeline.engine.rules import Config, OptionError, OptionSpec, Variant

RANKINGS: dict[tuple[str, str], tuple[str, ...]] = {
    ("default", "32"): ("7", "8", "A", "K", "Q", "J", "10", "9"),  # seed 002 "Ordre de valeur des cartes"
    ("eight-low", "32"): ("7", "A", "K", "Q", "J", "10", "9", "8"),  # seed 002, and seed 000 after Lanes
    ("eight-high", "32"): ("8", "7", "A", "K", "Q", "J", "10", "9"),  # seed 000 "l'ordre ... rationalisé"
    ("default", "36"): ("7", "6", "A", "K", "Q", "J", "10", "9", "8"),  # seed 000, the older 36-card pack
}
"""Rank orders, high to low, by (``ranking``, ``deck``) option values. **Decision:** the 36-card pack has
its one historic order, so ``deck=36`` takes only ``ranking=default``."""

DECKS = {"32": FRENCH_32, "36": FRENCH_36}


class FrenchVariant(Variant):
    """The french variant: its options choose the deck and the rank order (see the module docstring)."""

    def configure(self, options: Mapping[str, str] | None = None) -> Config:
        config = super().configure(options)
        ranking, deck = config.options["ranking"], config.options["deck"]
        if (ranking, deck) not in RANKINGS:
            raise OptionError(
                f"{self.name}: deck={deck} is ranked 7, 6, A, K, Q, J, 10, 9, 8 (seed 000): "
                f"ranking={ranking} applies to the 32-card deck only"
            )
        return Config(ranked(ranking, deck), config.options)


OPTIONS = (
    OptionSpec("players", ("2", "4"), "2", "number of players: 2, or 4 in two teams of two"),
    OptionSpec(
        "ranking",
        ("default", "eight-low", "eight-high"),
        "default",
        "rank order: 7 8 A K Q J 10 9; eight-low 7 A K Q J 10 9 8; eight-high 8 7 A K Q J 10 9",
    ),
    OptionSpec("deck", ("32", "36"), "32", "32 cards, or the historic 36 with sixes (7 6 A K Q J 10 9 8)"),
    OptionSpec("rubber", ("on", "off"), "on", "a match is a rubber: the first side to win 2 games (simulate)"),
    OptionSpec("signals", ("off", "on"), "off", "partners signal the top cards they hold (4 players)", (4,)),
)

FRENCH = FrenchVariant(
    name="french",
    title="French Truc",
    source='seed 002 "Règles du Truc"; seed 000 "Le Truc en France"',
    deck=FRENCH_32,
    rank_order=RANKINGS[("default", "32")],
    players=(2, 4),
    target=12,
    ladder=(),
    hand_rule=first_decisive_or_void,
    tie_lead="leader",
    one_card_deal=False,
    eleven_points=False,
    signals=True,
    engine=FrenchGame,
    verbs=frozenset(["play", "accept", "fold", "raise", "redeal", "refuse", "signal"]),
    options=OPTIONS,
)

_BUILT: dict[tuple[str, str], Variant] = {("default", "32"): FRENCH}


def ranked(ranking: str, deck: str) -> Variant:
    """The french variant for one (ranking, deck) pair, built once."""
    variant = _BUILT.get((ranking, deck))
    if variant is None:
        variant = dataclasses.replace(FRENCH, deck=DECKS[deck], rank_order=RANKINGS[(ranking, deck)])
        _BUILT[(ranking, deck)] = variant
    return variant
