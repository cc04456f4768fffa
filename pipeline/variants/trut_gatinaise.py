"""Trut à la Gâtinaise, seed 001 "TRUT", section "La variante Gâtinaise" (RULES.md, `trut-gatinaise`).

As `trut`, with a target of 5 longs ("L'objectif"), the trut d'office and la chanson (the engine,
``pipeline.engine.trut_regional.GatinaiseGame``). Players: 4 by default, or 2: seed 001 sets out those two
tables ("Préparatif"); its 3- and 6-player variants are separate variants that the Gâtinaise section does
not take up (its trut d'office and chanson speak of two teams). The options are `trut`'s.
"""

from pipeline.cards import FRENCH_32
from pipeline.engine.hand_rules import first_trick_counts_double
from pipeline.engine.rules import Variant
from pipeline.engine.trut import BRELAN, DEALER_LEADS, TIE_LEAD, TRUT_RANK_ORDER, TWO_TEAMS
from pipeline.engine.trut_regional import GatinaiseGame

TRUT_GATINAISE = Variant(
    name="trut-gatinaise",
    title="Trut à la Gâtinaise",
    source='seed 001 "TRUT", "La variante Gâtinaise"',
    deck=FRENCH_32,
    rank_order=TRUT_RANK_ORDER,
    players=(2, 4),
    target=5,
    ladder=(),
    hand_rule=first_trick_counts_double,
    tie_lead="maker",
    one_card_deal=False,
    eleven_points=False,
    signals=False,
    engine=GatinaiseGame,
    verbs=frozenset(["play", "accept", "fold", "trut", "sing", "nosing", "ask", "discard"]),
    unit="longs",
    options=(
        TWO_TEAMS,
        DEALER_LEADS,
        TIE_LEAD,
        BRELAN,
    ),
)
