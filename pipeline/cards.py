"""Cards as small ints, decks, and the text notation of FORMAT.md ("Cards").

A card is its index in its deck's ``cards`` tuple. Rank orders are not kept here: a variant maps each
card index to a power (see ``pipeline.variants``), so one deck serves every ranking.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

UNKNOWN = -1
"""A card nobody saw, written ``??``."""

UNKNOWN_TEXT = "??"


class CardError(ValueError):
    """A card's text is not a card of the deck."""


@dataclass(frozen=True)
class Deck:
    """A deck: its cards in a fixed order, each with a rank and a suit label."""

    name: str
    ranks: tuple[str, ...]
    suits: tuple[str, ...]
    only: tuple[str, ...] = ()  # when given, the deck holds just these cards, in this order (``Deck.of``)
    cards: tuple[str, ...] = field(init=False)
    rank_of: tuple[str, ...] = field(init=False)
    suit_of: tuple[str, ...] = field(init=False)
    card_texts: tuple[str, ...] = field(init=False, repr=False, compare=False)
    """Each card's text at its index, and ``??`` last, at ``UNKNOWN`` (-1): the text of any card by one index,
    which the writer, compiled, reads without a call into this module for each card."""
    _index: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        pairs = [(r, s) for s in self.suits for r in self.ranks]
        if self.only:
            full = {r + s: (r, s) for r, s in pairs}
            unknown = [c for c in self.only if c not in full]
            if unknown:
                raise ValueError(f"deck {self.name}: {unknown} are not cards of ranks {self.ranks}, suits {self.suits}")
            pairs = [full[c] for c in self.only]
        object.__setattr__(self, "cards", tuple(r + s for r, s in pairs))
        object.__setattr__(self, "rank_of", tuple(r for r, _ in pairs))
        object.__setattr__(self, "suit_of", tuple(s for _, s in pairs))
        object.__setattr__(self, "card_texts", (*self.cards, UNKNOWN_TEXT))
        object.__setattr__(self, "_index", {c.lower(): i for i, c in enumerate(self.cards)})
        if len(set(self.cards)) != len(self.cards):
            raise ValueError(f"deck {self.name} has duplicate cards")

    @classmethod
    def of(cls, name: str, cards: Sequence[str]) -> Deck:
        """A deck of exactly ``cards``, in that order, each written rank then a one-letter suit (``1e``)."""
        ranks = tuple(dict.fromkeys(c[:-1] for c in cards))
        suits = tuple(dict.fromkeys(c[-1] for c in cards))
        return cls(name, ranks, suits, only=tuple(cards))

    def __len__(self) -> int:
        return len(self.cards)

    def parse(self, text: str) -> int:
        """The card index for ``text`` (any letter case); ``UNKNOWN`` for ``??``."""
        if text == UNKNOWN_TEXT:
            return UNKNOWN
        try:
            return self._index[text.lower()]
        except KeyError:
            raise CardError(f"{text!r} is not a card of the {self.name} deck") from None

    def text(self, card: int) -> str:
        return self.card_texts[card]

    def texts(self, cards: Sequence[int], sep: str = " ") -> str:
        return sep.join(self.card_texts[c] for c in cards)


SPANISH_40 = Deck("spanish-40", ranks=("1", "2", "3", "4", "5", "6", "7", "10", "11", "12"), suits=tuple("oceb"))
FRENCH_32 = Deck("french-32", ranks=("7", "8", "9", "10", "J", "Q", "K", "A"), suits=tuple("cdhs"))
FRENCH_36 = Deck("french-36", ranks=("6", "7", "8", "9", "10", "J", "Q", "K", "A"), suits=tuple("cdhs"))
"""The older 36-card pack with sixes (seed 000 "Le Truc en France"): french's option ``deck=36``."""
VALENCIAN_22 = Deck.of(
    "valencian-22",
    [f"{r}{s}" for s, ranks in (("o", "34567"), ("c", "34567"), ("e", "134567"), ("b", "134567")) for r in ranks],
)
"""Valencian Truc's 22 cards (seed 004 "Cartes utilitzades"): oros and copes 3-7, espases and bastos 1 and 3-7."""
VALENCIAN_26 = Deck.of(
    "valencian-26",
    [f"{r}{s}" for s, ranks in (("o", "234567"), ("c", "234567"), ("e", "1234567"), ("b", "1234567")) for r in ranks],
)
"""The Valencian deck with the four 2s (seed 004 "Cartes utilitzades", "jugar amb els dosos"): option ``twos``."""
