"""Trut à la Gâtinaise, seed 001 "TRUT", section "La variante Gâtinaise" (RULES.md, `trut-gatinaise`).

As `trut`, with a target of 5 longs ("L'objectif"), the trut d'office and la chanson (the engine,
``pipeline.engine.trut_regional.GatinaiseGame``). Players: 4 by default, or 2: seed 001 sets out those two
tables ("Préparatif"); its 3- and 6-player variants are separate variants that the Gâtinaise section does
not take up (its trut d'office and chanson speak of two teams). The options are `trut`'s.
"""

from pipeline.cards import FRENCH_32
from pipeline.engine.rules import OptionSpec, Variant, first_trick_counts_double
from pipeline.engine.trut_regional import GatinaiseGame

TRUT_GATINAISE = Variant(
    name="trut-gatinaise",
    title="Trut à la Gâtinaise",
    source='seed 001 "TRUT", "La variante Gâtinaise"',
    deck=FRENCH_32,
    rank_order=("7", "8", "A", "K", "Q", "J", "10", "9"),
    players=(2, 4),
    target=5,
    ladder=(),
    hand_rule=first_trick_counts_double,
    tie_lead="maker",
    one_card_deal=False,
    eleven_points=False,
    signals=False,
    engine=GatinaiseGame,
    unit="longs",
    options=(
        OptionSpec("players", ("4", "2"), "4", "4 in two teams of two, or 2"),
        OptionSpec("dealer_leads", ("off", "on"), "off", "the dealer leads the first trick (seed 001)"),
        OptionSpec(
            "tie_lead",
            ("maker", "first"),
            "maker",
            "after a tied trick the player who made the tie leads (seed 003), or who played the first equal card",
        ),
        OptionSpec("brelan", ("off", "on"), "off", "three of a rank may be announced: 'trut brelan'"),
    ),
)
