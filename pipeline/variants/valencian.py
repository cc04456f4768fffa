"""Valencian Truc, seed 004 "El joc del truc" (RULES.md, `valencian`).

Cards rank by card, not by rank (the Espasa, the Basto and the two manilles above the threes), so the
variant lists its ranking as levels of specific cards (``CARD_LEVELS``); the option ``twos`` plays the
26-card deck, which is a second variant value that ``configure`` picks.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pipeline.cards import VALENCIAN_22, VALENCIAN_26, Deck
from pipeline.engine.hand_rules import first_decisive_or_eldest
from pipeline.engine.rules import Config, OptionSpec, Rung, Variant
from pipeline.engine.valencian import JOC_FORA_STAKE, ValencianGame, envit_value

SUITS = "oceb"

CARD_LEVELS: tuple[tuple[str, ...], ...] = (
    ("1e",),  # l'Espasa
    ("1b",),  # el Basto
    ("7e",),  # la manilla d'espases
    ("7o",),  # la manilla d'oros
    tuple("3" + s for s in SUITS),
    tuple("2" + s for s in SUITS),  # only with the twos: below the threes, above the sets borts
    ("7c", "7b"),  # els sets borts
    tuple("6" + s for s in SUITS),
    tuple("5" + s for s in SUITS),
    tuple("4" + s for s in SUITS),
)
"""Seed 004 "El valor de les cartes", high to low; cards of one level tie. A covered card ranks below all
(the engine gives it power 0)."""


def card_powers(deck: Deck, levels: Sequence[Sequence[str]]) -> tuple[int, ...]:
    """Per card index, the power of its level (the top level highest, the bottom one 1). Levels with no
    card in ``deck`` (the twos in the 22-card deck) are skipped."""
    present = [level for level in levels if any(c in deck.cards for c in level)]
    height = {card: len(present) - i for i, level in enumerate(present) for card in level}
    missing = [c for c in deck.cards if c not in height]
    if missing:
        raise ValueError(f"cards {missing} of deck {deck.name} have no level")
    return tuple(height[c] for c in deck.cards)


@dataclass(frozen=True, eq=False)
class ValencianVariant(Variant):
    """A ``Variant`` whose cards rank by ``card_levels`` and whose ``twos`` option picks the deck."""

    card_levels: tuple[tuple[str, ...], ...] = ()

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "power", card_powers(self.deck, self.card_levels))

    def configure(self, options: Mapping[str, str] | None = None) -> Config:
        """As ``Variant.configure``; the configuration plays the deck the ``twos`` option names."""
        config = super().configure(options)
        chosen = BY_TWOS[config.options["twos"]]
        return config if chosen is self else Config(chosen, config.options)


def envit_columns(deck: Deck) -> Callable[[Sequence[int]], dict[str, Any]]:
    """The ``seat_values`` of a deck: the envit value of a seat's cards (column ``envit_value``)."""

    def values(cards: Sequence[int]) -> dict[str, Any]:
        return {"envit_value": envit_value(deck, cards)}

    return values


OPTIONS = (
    OptionSpec("players", ("2", "4"), "2", "number of players: 2, or 4 in two pairs"),
    OptionSpec("twos", ("off", "on"), "off", "play with the four 2s (26 cards)"),
    OptionSpec("bones", ("9", "12"), "9", "stones a males, then a bones, in a cama (9+9 or 12+12)"),
    OptionSpec("cames", ("2", "1"), "2", "cames that win the game (the coto): 2, or a game of one cama"),
    OptionSpec(
        "signals", ("off", "on"), "off", "partners signal top cards and a 33 of envit (senyes; 4 players)", (4,)
    ),
)


def _variant(deck: Deck, ranks: tuple[str, ...]) -> ValencianVariant:
    return ValencianVariant(
        name="valencian",
        title="Valencian Truc",
        source='seed 004 "El joc del truc"',
        deck=deck,
        rank_order=ranks,  # only the ranks present: the ranking itself is card_levels
        players=(2, 4),
        target=2,
        ladder=(Rung("truc", 2), Rung("retruc", 3), Rung("quatre-val", 4), Rung("joc-fora", JOC_FORA_STAKE)),
        hand_rule=first_decisive_or_eldest,
        tie_lead="leader",
        one_card_deal=False,
        eleven_points=False,
        signals=True,
        options=OPTIONS,
        engine=ValencianGame,
        verbs=frozenset(
            [
                "play",
                "cover",
                "accept",
                "fold",
                "truc",
                "retruc",
                "quatre-val",
                "joc-fora",
                "envit",
                "torne",
                "falta",
                "envit-falta",
                "signal",
            ]
        ),
        unit="cames",
        seat_values=envit_columns(deck),
        card_levels=CARD_LEVELS,
    )


VALENCIAN = _variant(VALENCIAN_22, ("1", "7", "3", "6", "5", "4"))
VALENCIAN_TWOS = _variant(VALENCIAN_26, ("1", "7", "3", "2", "6", "5", "4"))
BY_TWOS = {"off": VALENCIAN, "on": VALENCIAN_TWOS}
