"""The fixed integer encoding of a variant's moves for OpenSpiel (``docs/equilibrium.md``, "Actions").

Action 0 is the adapter's own ``skip``: a seat the engine lets act (``Game.optional_actors``) declines. Then,
for every verb of the variant in alphabetical order, one action per argument the verb may take: each card of
the deck for ``play`` and ``cover``; ``discard`` is taken one card at a time (a discard of several cards is
several actions, each card above the last, so a set is chosen once); the signals, the sizes of a French
raise (each stake up to the engine's ceiling and ``reste``, the engine's own table), the trut's
announcements, how many cards to ask for, one or three cards to deal; every other verb takes no argument.
The table is the same for every game of one configuration, whatever the seat: the seat is the player.
"""

from __future__ import annotations

from typing import Any

from pipeline.engine import actions as verbs
from pipeline.engine.game import Game
from pipeline.engine.trut_regional import MAX_ASK
from pipeline.engine.valencian import SENYA_WORDS, ValencianGame

SKIP = 0
"""The action of an optional actor that lets the moment pass."""

SKIP_WORD = "skip"

CARD_VERBS = frozenset([verbs.PLAY, "cover", verbs.DISCARD])
"""Verbs whose argument is a card: one action per card of the deck (a discard, one per card it discards)."""

PRIVATE_VERBS = frozenset(["cover", verbs.DISCARD])
"""Verbs whose card the other seats do not see: a covered card, a discard to the stock."""


def verb_arguments(game: Game, verb: str) -> list[Any]:
    """Every argument ``verb`` may take in games of ``game``'s configuration, in a fixed order, read from the
    engine's own tables."""
    if verb in CARD_VERBS:
        return list(range(game.deck_size))
    if verb == verbs.SIGNAL:
        if isinstance(game, ValencianGame):
            return list(SENYA_WORDS)
        words: Any = getattr(game, "signal_words", None)  # french: words of its own ranking
        return list(words) if words is not None else list(verbs.SIGNALS)
    if verb == "raise":
        table: Any = game._raise_table  # type: ignore[attr-defined]  # french: raise k at index k, reste at 0
        return [action.arg for action in table[0] if action is not None]
    if verb == "trut":
        announcements: Any = type(game).ANNOUNCEMENTS  # type: ignore[attr-defined]
        return [None, *announcements]
    if verb == verbs.ASK:
        return list(range(1, MAX_ASK + 1))
    if verb == verbs.DEAL:
        return [1, 3]
    return [None]


class ActionTable:
    """The actions of one configuration: ``ids[(verb, arg)]`` and back, ``entries[id]``."""

    def __init__(self, game: Game) -> None:
        self.deck = game.variant.deck
        self.entries: list[tuple[str, Any]] = [(SKIP_WORD, None)]
        for verb in sorted(game.variant.verbs):
            self.entries.extend((verb, arg) for arg in verb_arguments(game, verb))
        self.ids = {entry: i for i, entry in enumerate(self.entries)}

    def __len__(self) -> int:
        return len(self.entries)

    def id_of(self, verb: str, arg: Any) -> int:
        try:
            return self.ids[(verb, arg)]
        except KeyError:
            raise ValueError(f"the move {verb} {arg!r} has no action in the encoding") from None

    def text(self, action: int) -> str:
        verb, arg = self.entries[action]
        if arg is None:
            return verb
        return f"{verb} {self.deck.text(arg) if verb in CARD_VERBS else arg}"
