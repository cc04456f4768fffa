"""``random``: uniform over the legal actions (and over "do nothing" when acting is optional). It gives the
chance of each action (``probabilities``), the optional member of the policy protocol (``policies.base``)."""

from __future__ import annotations

import random

from pipeline.engine.actions import Action
from pipeline.engine.view import SeatView


class RandomPolicy:
    name = "random"
    params: dict[str, float]

    def __init__(self) -> None:
        self.params = {}

    def describe(self, variant: str | None = None) -> str:
        return self.name

    def probabilities(self, view: SeatView) -> dict[Action | None, float]:
        """Each legal action, and ``None`` (doing nothing) when acting is optional, at the same chance."""
        choices: list[Action | None] = [*view.legal(), *([None] if view.optional else [])]
        return dict.fromkeys(choices, 1 / len(choices))

    def step(self, view: SeatView, rng: random.Random) -> Action | None:
        legal = view.legal()
        if view.optional:
            choice = rng.randrange(len(legal) + 1)
            return legal[choice] if choice < len(legal) else None
        return legal[rng.randrange(len(legal))]
