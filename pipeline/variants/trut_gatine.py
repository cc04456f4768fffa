"""Trut in Gâtine, seed 003 "Trut", section "Variante de Gâtine" (RULES.md, `trut-gatine`).

As `trut`, with the rank order 8, 7, A, 10, K, Q, J, 9, the announcements `trut brelan` and `trut suite`
always played ("en plus des ... berlan on peut annoncer suite ou tierce"), capped petits, "à tenir",
"chanter" and the "sec" redeal (the engine, ``pipeline.engine.trut_regional.GatineGame``). Players: 4 by
default, or 2 (seed 003: "à deux ou à quatre joueurs"; "Si les quatre joueurs chantent"). The lead options
are `trut`'s; there is no `brelan` option since the announcements are part of the variant.
"""

from pipeline.cards import FRENCH_32
from pipeline.engine.hand_rules import first_trick_counts_double
from pipeline.engine.rules import Variant
from pipeline.engine.trut import DEALER_LEADS, TIE_LEAD, TWO_TEAMS
from pipeline.engine.trut_regional import GatineGame

TRUT_GATINE = Variant(
    name="trut-gatine",
    title="Trut in Gâtine",
    source='seed 003 "Trut", "Variante de Gâtine"',
    deck=FRENCH_32,
    rank_order=("8", "7", "A", "10", "K", "Q", "J", "9"),
    players=(2, 4),
    target=7,
    ladder=(),
    hand_rule=first_trick_counts_double,
    tie_lead="maker",
    one_card_deal=False,
    eleven_points=False,
    signals=False,
    engine=GatineGame,
    verbs=frozenset(["play", "accept", "fold", "trut", "hold", "pass", "sing", "nosing", "discard"]),
    unit="longs",
    options=(
        TWO_TEAMS,
        DEALER_LEADS,
        TIE_LEAD,
    ),
)
