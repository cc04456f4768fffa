"""What a policy is, the decision dispatch every policy shares, and the rules of card play.

A policy is an object with a ``name``, ``step(view, rng) -> Action | None`` and ``describe(variant)``
(``Policy``), by its members, not by inheritance: a class of one's own need not subclass anything (docs/bots.md).
``view`` holds only what its seat may know (``pipeline.engine.view.SeatView``); ``rng`` is the game's policy
generator, so a game replays exactly from its seed. ``None`` is allowed only for an optional decision (a
raise just after playing). A policy may also give ``probabilities(view)``: the chance it takes each legal
action in that view, ``None`` standing for doing nothing when acting is optional (``WithProbabilities``;
what measures of exploitability need, and what ``random`` gives).

``DecisionPolicy`` routes each decision to the method named after it (``Game.decision`` names it), so a
new decision (answering a trut, the envit, singing...) is a new method with an obvious place: the
family's decisions live in their own mixin module (``policies/<family>_decisions.py``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final, Protocol

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


class WithProbabilities(Policy, Protocol):
    """A policy that says how it decides: ``probabilities(view)`` gives every action it may take in ``view``
    (``None``: doing nothing, when acting is optional) with the chance it takes it, summing to 1; an action
    left out has no chance. It agrees with ``step``: over many draws ``step`` takes each at that rate."""

    def probabilities(self, view: SeatView) -> dict[Action | None, float]: ...


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


# ---------------------------------------------------------------------------------------------- card play
# The threshold bot's card play, a rule to lead and a rule to follow, chosen by its ``lead`` and ``follow``
# parameters (``ThresholdPolicy``); the default pair is the reference card-play rule of ``pipeline.strength``.
# A rule is a small int once chosen, so that choosing a card costs an int comparison more than the reference
# rule alone (a card is chosen at every card played). Each rule picks a position among the seat's cards.

LEAD_HIGHEST: Final = 0
LEAD_LOWEST: Final = 1
LEAD_CHEAPEST_WINNING: Final = 2
LEAD_RULES: Final = ("highest", "lowest", "cheapest_winning")
"""The rules to lead a trick, by number: ``highest`` (the reference rule), ``lowest``, ``cheapest_winning``."""

FOLLOW_CHEAPEST_WINNING: Final = 0
FOLLOW_LOWEST: Final = 1
FOLLOW_RULES: Final = ("cheapest_winning", "lowest")
"""The rules to follow in a trick, by number: ``cheapest_winning`` (the reference rule), ``lowest``."""


def lowest_card(cards: list[int], power: tuple[int, ...]) -> int:
    """Position of the lowest card (the first of equal lowest): the ``lowest`` rule, leading or following."""
    best = 0
    best_power = power[cards[0]]
    for i in range(1, len(cards)):
        p = power[cards[i]]
        if p < best_power:
            best, best_power = i, p
    return best


def best_unseen_power(view: SeatView) -> int:
    """The highest power among the cards this seat has not seen: every card of the deck that is neither in its
    hand nor laid face up in this hand so far (``SeatView.played``; a covered card and a card never dealt are
    unseen); -1 when it has seen them all."""
    power = view.power
    seen = [False] * len(view.rules.deck)
    for card in view.held:
        seen[card] = True
    for card in view.played():
        seen[card] = True
    best = -1
    for card in range(len(seen)):
        if not seen[card] and power[card] > best:
            best = power[card]
    return best


def cheapest_winning_lead(cards: list[int], power: tuple[int, ...], best_unseen: int) -> int:
    """Position of the card to lead by ``cheapest_winning``: the lowest card that beats every card the seat has
    not seen (``best_unseen``: the highest power among them), so that no other seat can beat it or tie it;
    failing one, the lowest card (no card is sure to win the trick: the cheapest is given up)."""
    winner = -1
    win_power = 1 << 30
    for i in range(len(cards)):
        p = power[cards[i]]
        if best_unseen < p < win_power:
            winner, win_power = i, p
    return winner if winner >= 0 else lowest_card(cards, power)


def play_card(view: SeatView, lead: int, follow: int) -> int:
    """The card to play by the lead rule ``lead`` and the follow rule ``follow`` (numbers in ``LEAD_RULES``
    and ``FOLLOW_RULES``), whatever the number of sides. The last card held is played whatever the rule."""
    cards = view.held
    if len(cards) == 1:
        return cards[0]
    power = view.power
    if not view.trick_size:
        if lead == LEAD_HIGHEST:
            return cards[lead_card(cards, power)]
        if lead == LEAD_LOWEST:
            return cards[lowest_card(cards, power)]
        return cards[cheapest_winning_lead(cards, power, best_unseen_power(view))]
    if follow == FOLLOW_LOWEST:
        return cards[lowest_card(cards, power)]
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
