"""A bot of one's own, the worked example of docs/bots.md: another bot that will not fold.

From the folder that holds this file (or with that folder on PYTHONPATH):

    truc simulate --policy stubborn.Stubborn:accept=0.5 --seat-policy 1=threshold --out data/stubborn
"""

from __future__ import annotations

import random

from pipeline.engine.actions import ACCEPT, FOLD, Action, make_action
from pipeline.engine.view import SeatView
from pipeline.policies import number, parse_policy, policy_name


class Stubborn:
    """Another bot (threshold by default) that accepts, with probability accept, a raise that bot would fold."""

    PARAMETERS = (
        number("accept", 1.0, "the probability of accepting a raise the other bot folds"),
        policy_name("inner", "threshold", "the bot that decides everything else"),
    )

    def __init__(self, accept: float, inner: str) -> None:
        self.name = "stubborn"
        self.accept = accept
        self.inner_name = inner
        self.inner = parse_policy(inner)  # a bot of its own for each seat: a bot remembers its hand

    def step(self, view: SeatView, rng: random.Random) -> Action | None:
        action = self.inner.step(view, rng)
        if action is not None and action.verb == FOLD and rng.random() < self.accept:
            accept = make_action(view.seat, ACCEPT)
            if accept in view.legal():
                return accept
        return action

    def describe(self, variant: str | None = None) -> str:
        return f"stubborn accept={self.accept:g} inner={self.inner_name}"
