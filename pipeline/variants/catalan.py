"""Catalan Truc, seed 000 "Truc en Catalogne" (RULES.md, `catalan`)."""

from pipeline.cards import SPANISH_40
from pipeline.engine.hand_rules import first_decisive_or_eldest
from pipeline.engine.ladder import LadderGame
from pipeline.engine.rules import OptionSpec, Rung, Variant

CATALAN = Variant(
    name="catalan",
    title="Catalan Truc",
    source='seed 000 "Truc en Catalogne"',
    deck=SPANISH_40,
    rank_order=("3", "2", "1", "12", "11", "10", "7", "6", "5", "4"),
    players=(2, 4),
    target=12,
    ladder=(Rung("truc", 2), Rung("retruc", 3)),
    hand_rule=first_decisive_or_eldest,
    tie_lead="leader",
    one_card_deal=True,
    eleven_points=True,
    signals=True,
    engine=LadderGame,
    verbs=frozenset(["play", "accept", "fold", "cut", "nocut", "deal", "hold", "pass", "signal", "truc", "retruc"]),
    options=(
        OptionSpec("players", ("4", "2"), "4", "number of players: 4 in two teams of two, or 2"),
        OptionSpec("signals", ("off", "on"), "off", "partners signal the top cards they hold (4 players)", (4,)),
    ),
)
