"""Catalan Truc, seed 000 "Truc en Catalogne" (RULES.md, `catalan`).

The option ``deck=7`` plays the same rules with a reduced deck, small enough for exact equilibrium
computations (docs/equilibrium.md): the 3, 2 and 1 of oros and copes and the 12 of oros (the four highest
ranks), 2 players. Each sees its 3 cards of 7, so 4 stay unseen (the other hand and one card left undealt):
with 6 cards a seat would know the other's hand from its own. Like the trut's ``deck=8`` it is implicit
(``pipeline.engine.rules.REDUCED_DECK_OPTION``).
"""

from pipeline.cards import SPANISH_40, Deck
from pipeline.engine.hand_rules import first_decisive_or_eldest
from pipeline.engine.ladder import LadderGame
from pipeline.engine.rules import REDUCED_DECK_OPTION, OptionSpec, Rung, Variant

REDUCED_DECK = Deck.of("catalan-7", ["3o", "2o", "1o", "12o", "3c", "2c", "1c"])
"""The reduced deck of ``deck=7``: the 3, 2 and 1 of oros and copes and the 12 of oros."""

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
        OptionSpec(
            REDUCED_DECK_OPTION,
            ("40", "7"),
            "40",
            "40 cards, or 7 (3, 2, 1 of oros and copes, 12 of oros; 2 players): a reduced Catalan for exact solving",
            (2,),
            implicit=True,
        ),
    ),
    reduced_deck=REDUCED_DECK,
)

CATALAN_REDUCED = CATALAN.with_reduced_deck
"""The catalan variant played with the reduced deck (``deck=7``)."""
