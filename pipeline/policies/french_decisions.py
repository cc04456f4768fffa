"""The `threshold` policy's decisions for the french family (a mixin of `ThresholdPolicy`).

Each decision is a method named after it (`FrenchGame.decision` names it). `PARAMS` declares this
family's parameters, each with its default and meaning (merged into the threshold policy's parameters).

Otherwise raises follow the threshold rules (``raise_at``, ``call_at``, ``bluff``), and a raise proposes
2 on a stake of 1 ("deux points si je joue") and 2 more on any other ("deux de plus", seed 002), capped
at the largest legal raise. Effective strength: the percentile, plus 0.2 per trick won and minus 0.2 per
trick lost, plus 0.1 for each of the ranking's two top ranks that the partner signalled, within [0, 1].
"""

from __future__ import annotations

import random
from typing import Final

from mypy_extensions import trait

from pipeline.engine.actions import ACCEPT, FOLD, SIGNAL, Action, make_action
from pipeline.engine.french import REDEAL, REFUSE, RESTE, signal_words
from pipeline.engine.view import SeatView
from pipeline.policies.base import JudgingPolicy
from pipeline.policies.parameters import number

PARAMS: Final = (
    number("redeal_below", 0.2, "as eldest, ask for new cards when the hand's strength percentile is below this"),
    number(
        "redeal_accept_below",
        0.3,
        "as an opponent, agree to new cards when one's own percentile is below this (a good hand insists on playing)",
    ),
    number("reste_at", 0.9, "raise reste (or answer a raise with one's own, le mien) from this effective strength"),
)


@trait
class FrenchDecisions(JudgingPolicy):
    # ------------------------------------------------------------------ judging the hand
    def french_strength(self, view: SeatView) -> float:
        value = self.strength_pct(view) + 0.2 * view.trick_balance
        signal = view.partner_signal
        if signal and signal != "-":
            value += 0.1 * sum(rank in signal for rank in view.rules.rank_order[:2])
        return min(1.0, max(0.0, value))

    def french_raise(self, view: SeatView, strength: float) -> Action:
        """The raise to make: ``reste`` from ``reste_at`` on, else 2, or 2 more than the stake raised."""
        raises = view.raise_actions()
        sizes = [a for a in raises if isinstance(a.arg, int)]
        if strength >= self.params["reste_at"] or not sizes:  # a reste is answered by a reste only
            for action in raises:
                if action.arg == RESTE:
                    return action
        base = view.proposed_stake or view.stake
        wanted = 2 if base == 1 else base + 2
        return next((a for a in sizes if a.arg == wanted), sizes[-1])

    # ------------------------------------------------------------------ decisions
    def french_turn(self, view: SeatView, rng: random.Random) -> Action:
        """The seat to play: ask for new cards (eldest, first action), raise, or play a card."""
        if (
            view.is_eldest
            and view.trick_no == 1
            and not view.trick
            and self.strength_pct(view) < self.params["redeal_below"]
        ):
            redeal = make_action(view.seat, REDEAL)
            if redeal in view.legal():
                return redeal
        if view.may_raise():
            strength = self.french_strength(view)
            if strength >= self.raise_at or rng.random() < self.bluff:
                return self.french_raise(view, strength)
        return view.play_action(self.card_to_play(view))

    def french_answer(self, view: SeatView, rng: random.Random) -> Action:
        """Answer a raise: raise back from ``raise_at``, accept from ``call_at``, else fold."""
        strength = self.french_strength(view)
        if view.may_raise() and strength >= self.raise_at:
            return self.french_raise(view, strength)
        return make_action(view.seat, ACCEPT if strength >= self.call_at else FOLD)

    def redeal_answer(self, view: SeatView, rng: random.Random) -> Action:
        """Agree to new cards when one's own hand is weak too."""
        agree = self.strength_pct(view) < self.params["redeal_accept_below"]
        return make_action(view.seat, ACCEPT if agree else REFUSE)

    def french_signal(self, view: SeatView, rng: random.Random) -> Action:
        """Signal the ranking's top ranks held, or, with probability ``lie``, any other signal."""
        top = view.rules.rank_order[:3]
        rank_of = view.rules.deck.rank_of
        held = {rank_of[c] for c in view.dealt}
        truth = "".join(r for r in top if r in held) or "-"
        if rng.random() < self.params["lie"]:
            return make_action(view.seat, SIGNAL, rng.choice([s for s in signal_words(top) if s != truth]))
        return make_action(view.seat, SIGNAL, truth)
