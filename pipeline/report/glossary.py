"""The game terms the report's findings and charts use, defined for a reader who has not played the variant.

Data only: each ``Term`` names the variants it belongs to, so that a page lists the terms of the
variants it shows and no others. The definitions follow ``docs/rules/<variant>.md``, which cites the seeds.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

TRUT_FAMILY = frozenset({"trut", "trut-gatinaise", "trut-gatine"})
EVERY_VARIANT = frozenset({"catalan", "french", "valencian"}) | TRUT_FAMILY


class Term(NamedTuple):
    term: str
    variants: frozenset[str]
    definition: str


TERMS: tuple[Term, ...] = (
    Term(
        "eldest",
        EVERY_VARIANT,
        "The seat after the dealer in play order (the mà in Valencian). He leads the first trick (unless a "
        "trut option has the dealer lead), and in Catalan and Valencian Truc his side wins a hand whose "
        "three tricks are all tied.",
    ),
    Term(
        "tied trick",
        EVERY_VARIANT,
        "A trick whose best card is matched by a card of another side: nobody takes it, and each variant's "
        "tie rule says which trick decides the hand instead.",
    ),
    Term(
        "stake",
        EVERY_VARIANT,
        "What the hand is worth to its winner, in the variant's unit. It usually starts at 1 (the base) and "
        "goes up by each raise accepted; a refused raise ends the hand, and the raisers score the stake in "
        "force before it.",
    ),
    Term(
        "bluff",
        EVERY_VARIANT,
        "A raise made with a weak hand: below the statistic's strength threshold, by default the weakest "
        "third of hands (in Valencian's envit: a call with an envit value below 20).",
    ),
    Term(
        "void hand",
        frozenset({"french"}) | TRUT_FAMILY,
        "A hand whose three tricks are all tied: its tricks decide nothing and nobody scores it, except in "
        "3-player Trut, where a truter left alone against one player after the other folded keeps the "
        "petit of that fold.",
    ),
    Term(
        "truc, retruc",
        frozenset({"catalan", "valencian"}),
        "The raises to 2 and to 3. Only the side that accepted the last raise may raise again.",
    ),
    Term(
        "quatre val, joc fora",
        frozenset({"valencian"}),
        "The raises above the retruc: to 4 stones, then to the whole game (the winner of the hand wins it).",
    ),
    Term(
        "raise, reste",
        frozenset({"french"}),
        "A raise may propose any stake above the stake in force; the sides raise in turn. The reste is a "
        "raise to every point the raiser's side still needs to win the game: accepted, the hand decides "
        "the game.",
    ),
    Term(
        "redeal",
        frozenset({"french"}),
        "Before playing, the eldest may ask for new cards. If every opponent agrees, all hands are "
        "discarded unseen and dealt again from the rest of the deck; one refusal and the cards are played.",
    ),
    Term(
        "envit, torne, falta",
        frozenset({"valencian"}),
        "A side bet on the best holding in one suit, called before one's first card and settled at the end "
        "of the hand. An envit is played for 2 stones (refused: 1), a torne for 4 (refused: 2), a falta for "
        "what the loser lacks to end the cama, or the whole cama against a side a males.",
    ),
    Term(
        "stones, cama",
        frozenset({"valencian"}),
        "Valencian Truc counts stones: a cama is 9 stones a males, then 9 a bones (12 and 12 with the option "
        "bones=12); the game is won by the first side to win 2 cames (1 with cames=1).",
    ),
    Term(
        "petit, long",
        TRUT_FAMILY,
        "The trut family's points. A hand with no trut, or whose trut was refused, gives 1 petit; a trut "
        "that is seen is played for a long, worth 3 petits on this page. Three petits make a long (never in "
        "trut-gatine, where a side holds at most 2). The game is 7 longs (5 in trut-gatinaise).",
    ),
    Term(
        "trut",
        TRUT_FAMILY,
        "The trut family's one raise, to a long. Any player may trut at any moment of the play, even out of "
        "turn; the opponents answer one by one from the eldest, and one that sees (accepts) is enough.",
    ),
    Term(
        "1st, 2nd, 3rd answerer",
        TRUT_FAMILY,
        "The truter's opponents in the order they answer a trut: the 1st is the one nearest the eldest in play order.",
    ),
    Term(
        "fortial",
        frozenset({"trut"}),
        "A side one petit from the game (6 longs and 2 petits) is au fortial: after the deal it looks at its "
        "cards and truts or passes, and passing gives the opponents a petit. When both sides are au fortial, "
        "the hand is played as any other, and a side au fortial that wins it takes the game.",
    ),
    Term(
        "trut d'office",
        frozenset({"trut-gatinaise", "trut-gatine"}),
        "A hand played for a long because of the petits held. In trut-gatinaise, the side facing 2 petits "
        "must trut; in trut-gatine, a hand held à tenir, or any hand when both sides hold 2 petits, is "
        "played for a long with no trut and no fold.",
    ),
    Term(
        "la chanson",
        frozenset({"trut-gatinaise"}),
        "When both sides hold 2 petits, the eldest may sing: if every player agrees, he asks 1 to 3 extra "
        "cards for each, everyone keeps 3, and the hand is played for a long.",
    ),
    Term(
        "à tenir, hold",
        frozenset({"trut-gatine"}),
        "A side with 2 petits facing fewer is à tenir: its players say in turn whether they hold. One hold "
        "and the hand is a trut d'office; nobody holds and the opponents take a petit.",
    ),
    Term(
        "chanter, sing",
        frozenset({"trut-gatine"}),
        "When both sides hold 2 petits, each player in turn may sing: if all sing, 3 extra cards are dealt "
        "to each, who keeps 3; one refusal and no cards are dealt. Either way the hand is a trut d'office.",
    ),
    Term(
        "sec",
        frozenset({"trut-gatine"}),
        "A trut d'office whose three tricks are all tied is redealt sec: 3 new cards each from the same "
        "stock, played for a long at once, until a side wins it.",
    ),
    Term(
        "brelan, suite",
        TRUT_FAMILY,
        "Three cards of one rank (brelan), or in trut-gatine also of three ranks in a row (suite), announced "
        "with a trut: the announcement must be true. In trut and trut-gatinaise only with the option "
        "brelan=on.",
    ),
)
"""In the order a reader meets them: the common terms, then each variant's."""


def terms_for(variants: Iterable[str]) -> list[Term]:
    """The terms of ``variants``, in ``TERMS`` order; a variant this module does not know adds none."""
    shown = set(variants)
    return [term for term in TERMS if term.variants & shown]
