"""What a policy is, and the decision dispatch every policy shares.

A policy is an object with ``step(view, rng) -> Action | None``. ``view`` holds only what its seat may
know (``pipeline.engine.view.SeatView``); ``rng`` is the game's policy generator, so a game replays
exactly from its seed. ``None`` is allowed only for an optional decision (a raise just after playing).

``DecisionPolicy`` routes each decision type to its own method, so a new decision (answering a trut,
holding, the envit, singing...) is a new method with an obvious place.
"""

from __future__ import annotations

import random
from typing import Protocol

from pipeline.engine.actions import Action
from pipeline.engine.view import (
    ANSWER_DECISION,
    CUT_DECISION,
    DEAL_DECISION,
    HOLD_DECISION,
    RAISE_OPTION,
    SIGNAL_DECISION,
    TURN_DECISION,
    SeatView,
)


class Policy(Protocol):
    name: str

    def step(self, view: SeatView, rng: random.Random) -> Action | None: ...

    def describe(self) -> str:
        """The policy and its parameters, as written in a ``PolicyN`` tag."""
        ...


class DecisionPolicy:
    """Base class: dispatch on the decision the view asks for."""

    name = "base"
    params: dict[str, float] = {}

    def describe(self) -> str:
        return " ".join([self.name, *(f"{k}={v:g}" for k, v in self.params.items())])

    def step(self, view: SeatView, rng: random.Random) -> Action | None:
        decision = view.decision
        if decision == TURN_DECISION:
            return self.turn(view, rng)
        if decision == ANSWER_DECISION:
            return self.answer(view, rng)
        if decision == RAISE_OPTION:
            return self.raise_option(view, rng)
        if decision == SIGNAL_DECISION:
            return self.signal(view, rng)
        if decision == HOLD_DECISION:
            return self.hold(view, rng)
        if decision == CUT_DECISION:
            return self.cut(view, rng)
        if decision == DEAL_DECISION:
            return self.deal(view, rng)
        raise ValueError(f"{self.name}: no decision to take ({decision!r})")

    def turn(self, view: SeatView, rng: random.Random) -> Action:
        raise NotImplementedError

    def answer(self, view: SeatView, rng: random.Random) -> Action:
        raise NotImplementedError

    def raise_option(self, view: SeatView, rng: random.Random) -> Action | None:
        raise NotImplementedError

    def signal(self, view: SeatView, rng: random.Random) -> Action:
        raise NotImplementedError

    def hold(self, view: SeatView, rng: random.Random) -> Action:
        raise NotImplementedError

    def cut(self, view: SeatView, rng: random.Random) -> Action:
        raise NotImplementedError

    def deal(self, view: SeatView, rng: random.Random) -> Action:
        raise NotImplementedError
