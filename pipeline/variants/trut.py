"""Trut, seed 003 "Trut" and seed 001 "TRUT" (RULES.md, `trut`).

Players: 4 by default (seed 001 "Préparatif" sets out the four-player table; seed 003: "à deux ou à
quatre joueurs"), 2, and seed 001's 3-player (each alone) and 6-player (teams of three) variants.
No ``signals`` option: seed 003 says the cards are held "sans les montrer ni à leurs partenaires".
"""

from pipeline.cards import FRENCH_32
from pipeline.engine.hand_rules import first_trick_counts_double
from pipeline.engine.rules import OptionSpec, Variant
from pipeline.engine.trut import BRELAN, DEALER_LEADS, TIE_LEAD, TRUT_RANK_ORDER, TrutGame

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
    options=(
        OptionSpec(
            "players", ("4", "2", "3", "6"), "4", "4 in two teams of two, 2, 3 each alone, or 6 in two teams of three"
        ),
        DEALER_LEADS,
        TIE_LEAD,
        BRELAN,
    ),
)
