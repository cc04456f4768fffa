"""What a policy is, and the decision dispatch every policy shares.

A policy is an object with ``step(view, rng) -> Action | None``. ``view`` holds only what its seat may
know (``pipeline.engine.view.SeatView``); ``rng`` is the game's policy generator, so a game replays
exactly from its seed. ``None`` is allowed only for an optional decision (a raise just after playing).

``DecisionPolicy`` routes each decision to the method named after it (``Game.decision`` names it), so a
new decision (answering a trut, the envit, singing...) is a new method with an obvious place: the
family's decisions live in their own mixin module (``policies/<family>_decisions.py``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from mypy_extensions import trait

from pipeline.engine.actions import Action
from pipeline.engine.view import SeatView
from pipeline.strength import follow_card, lead_card


class Policy(Protocol):
    name: str

    def step(self, view: SeatView, rng: random.Random) -> Action | None: ...

    def describe(self, variant: str | None = None) -> str:
        """The policy and its parameters, as written in a ``PolicyN`` tag and the ``policy`` column: those
        that ``variant``'s decisions read, or all of them when no variant is given."""
        ...


class DecisionPolicy:
    """Base class: dispatch on the decision the view asks for."""

    name = "base"
    params: dict[str, float]

    def describe(self, variant: str | None = None) -> str:
        return " ".join([self.name, *[f"{k}={v:g}" for k, v in self.params_read(variant).items()]])

    def params_read(self, variant: str | None = None) -> dict[str, float]:
        """The parameters ``variant``'s decisions read (all of them here), which ``describe`` names."""
        return self.params

    def __init__(self) -> None:
        self.params = {}
        self._methods: dict[str, Callable[[SeatView, random.Random], Action | None]] = {}

    def step(self, view: SeatView, rng: random.Random) -> Action | None:
        """Call the method named after the decision the view asks for (``turn``, ``answer``...)."""
        return self.method(view.decision)(view, rng)

    def steady(self, decision: str) -> bool:
        """Whether this policy, having declined the optional ``decision`` during a trick, declines it again
        whenever asked later in the same trick of the same hand, without drawing from the generator: the
        game loop then asks it once a trick (``pipeline.playing``). False by default: a policy that draws
        at every ask (``random``) must be asked every time."""
        return False

    def method(self, decision: str) -> Callable[[SeatView, random.Random], Action | None]:
        """The method that takes ``decision``, looked up once per policy (a step is taken for every decision
        of every game)."""
        found = self._methods.get(decision)
        if found is None:
            found = getattr(self, decision, None)
            if found is None:
                raise ValueError(f"policy {self.name} cannot take the decision {decision!r}")
            self._methods[decision] = found
        return found

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


def reference_card(view: SeatView) -> int:
    """The card to play by the reference card-play rule of ``pipeline.strength`` (the highest card to lead;
    following, the lowest card if the partner wins the trick, else the lowest that wins, else a tie, else
    the lowest), whatever the number of sides."""
    cards = view.held
    if len(cards) == 1:
        return cards[0]
    power = view.power
    if not view.trick_size:
        return cards[lead_card(cards, power)]
    opposing, partner = view.trick_best()
    return cards[follow_card(cards, power, opposing, partner > opposing)]


@trait
class JudgingPolicy:
    """What a family's decisions (``policies/<family>_decisions.py``) use of the policy they are mixed into:
    its parameters and its judgement of a hand. The mixins are mypyc traits, so the threshold policy
    compiles with them (``pipeline.accel``); ``ThresholdPolicy`` provides every member."""

    params: dict[str, float]
    raise_at: float
    call_at: float
    bluff: float

    def strength_pct(self, view: SeatView) -> float:
        raise NotImplementedError

    def effective_strength(self, view: SeatView) -> float:
        raise NotImplementedError

    def card_to_play(self, view: SeatView) -> int:
        raise NotImplementedError
