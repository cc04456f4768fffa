"""Trut, seed 003 "Trut" and seed 001 "TRUT" (RULES.md, `trut`).

Players: 4 by default (seed 001 "Préparatif" sets out the four-player table; seed 003: "à deux ou à
quatre joueurs"), 2, and seed 001's 3-player (each alone) and 6-player (teams of three) variants.
No ``signals`` option: seed 003 says the cards are held "sans les montrer ni à leurs partenaires".

The option ``deck=8`` plays the same rules with a reduced deck, small enough for exact equilibrium
computations (docs/equilibrium.md): the 7, 8, A and K of hearts and spades, 2 players (each sees 3 cards of
8, so 5 are unseen: the other hand and 2 in the stock). It is ``implicit``: at its default, 32, it is not in a
configuration's options, so the games recorded before it existed are unchanged. ``Variant.configure`` returns
a ``Config`` whose variant plays the deck the option names (``Variant.with_reduced_deck``, built once).
"""

from __future__ import annotations

from pipeline.cards import FRENCH_32, Deck
from pipeline.engine.hand_rules import first_trick_counts_double
from pipeline.engine.rules import REDUCED_DECK_OPTION, OptionSpec, Variant
from pipeline.engine.trut import BRELAN, DEALER_LEADS, TIE_LEAD, TRUT_RANK_ORDER, TrutGame

REDUCED_DECK = Deck.of("trut-8", ["7h", "8h", "Ah", "Kh", "7s", "8s", "As", "Ks"])
"""The reduced deck of ``deck=8``: the four highest ranks of Trut (7, 8, A, K) in two suits."""

DECK = OptionSpec(
    REDUCED_DECK_OPTION,
    ("32", "8"),
    "32",
    "32 cards, or 8 (7, 8, A, K of hearts and spades; 2 players): a reduced Trut for exact solving",
    (2,),
    implicit=True,
)

TRUT = Variant(
    name="trut",
    title="Trut",
    source='seed 003 "Trut"; seed 001 "TRUT"',
    deck=FRENCH_32,
    rank_order=TRUT_RANK_ORDER,
    players=(2, 3, 4, 6),
    target=7,
    ladder=(),
    hand_rule=first_trick_counts_double,
    tie_lead="maker",
    one_card_deal=False,
    eleven_points=False,
    signals=False,
    engine=TrutGame,
    verbs=frozenset(["play", "accept", "fold", "trut", "pass"]),
    three_players_alone=True,
    unit="longs",
    reduced_deck=REDUCED_DECK,
    options=(
        OptionSpec(
            "players", ("4", "2", "3", "6"), "4", "4 in two teams of two, 2, 3 each alone, or 6 in two teams of three"
        ),
        DEALER_LEADS,
        TIE_LEAD,
        BRELAN,
        DECK,
    ),
)

TRUT_REDUCED = TRUT.with_reduced_deck
"""The trut variant played with the reduced deck (``deck=8``)."""
