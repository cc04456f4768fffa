"""``threshold``: raise, call and hold by hand-strength percentile, with a bluff rate; cards played by a rule
to lead and a rule to follow.

``PARAMETERS`` declares every parameter with its type, default, range and meaning (``truc policies`` prints
them): the common ones here (``BASE_PARAMS``), each family's in its mixin (``policies/<family>_decisions.py``),
and the card play (``CARD_PLAY_PARAMS``). ``PARAMS_BY_VARIANT`` says which ones each variant's decisions read.

Effective strength: the hand's strength percentile (``pipeline.strength``), plus 0.2 for each trick the
team has won and minus 0.2 for each it has lost, plus 0.1 for each of a three or a two that the partner
signalled, clipped to [0, 1].

Card play (``lead``, ``follow``; the rules are ``pipeline.policies.base``'s): by default the reference
card-play rule of ``pipeline.strength``, by which hand strength is computed. A description (``describe``: a
seat's ``policy`` column, a ``PolicyN`` tag) names the number parameters the variant reads, always, and
``lead``/``follow`` only when they differ from their defaults: a bot that plays as every bot played before
card play was a parameter keeps the description it had.
"""

from __future__ import annotations

import random
from typing import Final

from pipeline.engine import french, trut, valencian
from pipeline.engine.actions import (
    ACCEPT,
    CUT,
    DEAL,
    FOLD,
    HOLD,
    NOCUT,
    PASS,
    SIGNAL,
    SIGNALS,
    Action,
    make_action,
)
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
from pipeline.policies import french_decisions, trut_decisions, valencian_decisions
from pipeline.policies.base import (
    FOLLOW_CHEAPEST_WINNING,
    FOLLOW_RULES,
    LEAD_HIGHEST,
    LEAD_RULES,
    DecisionPolicy,
    play_card,
)
from pipeline.policies.french_decisions import FrenchDecisions
from pipeline.policies.parameters import choice, number
from pipeline.policies.trut_decisions import TrutDecisions, trut_action
from pipeline.policies.valencian_decisions import ValencianDecisions
from pipeline.strength import hand_strength, strength_table

BASE_PARAMS: Final = (
    number("raise_at", 0.7, "raise when the effective strength is at least this"),
    number("call_at", 0.5, "accept a raise (and hold at 11) when the effective strength is at least this"),
    number("bluff", 0.1, "the probability of raising anyway at a raise opportunity with a weaker hand"),
    number("nocut", 0.15, "the probability, as cutter, of declining to cut"),
    number("one_card", 0.5, "the probability, as dealer after a declined cut, of dealing one card each"),
    number("lie", 0.0, "the probability of sending a false signal to the partner (signals on)"),
)

LEAD: Final = "lead"
FOLLOW: Final = "follow"
CARD_PLAY_PARAMS: Final = (
    choice(
        LEAD,
        LEAD_RULES[LEAD_HIGHEST],
        LEAD_RULES,
        "the card to lead a trick: highest; lowest; cheapest_winning, the lowest card that beats every card the "
        "seat has not seen (not in its hand, not laid face up this hand), else the lowest",
    ),
    choice(
        FOLLOW,
        FOLLOW_RULES[FOLLOW_CHEAPEST_WINNING],
        FOLLOW_RULES,
        "the card to follow with: cheapest_winning, the lowest if a partner's card wins the trick, else the lowest "
        "that beats every opposing card, else one that ties, else the lowest; lowest, always the lowest",
    ),
)


class ThresholdPolicy(DecisionPolicy, FrenchDecisions, TrutDecisions, ValencianDecisions):
    """Decisions common to every family and Catalan Truc's are here; each other family's decisions are
    in its mixin (``policies/<family>_decisions.py``)."""

    name = "threshold"

    def __init__(
        self,
        lead: str = LEAD_RULES[LEAD_HIGHEST],
        follow: str = FOLLOW_RULES[FOLLOW_CHEAPEST_WINNING],
        **params: float,
    ) -> None:
        """``params``: the number parameters (``DEFAULTS`` for those not given); ``lead`` and ``follow``: the
        names of the card-play rules (``LEAD_RULES``, ``FOLLOW_RULES``)."""
        super().__init__()
        if lead not in LEAD_RULES or follow not in FOLLOW_RULES:
            raise ValueError(f"no card play lead={lead}, follow={follow} (lead: {LEAD_RULES}, follow: {FOLLOW_RULES})")
        self.lead = lead
        self.follow = follow
        self._lead_rule = LEAD_RULES.index(lead)
        self._follow_rule = FOLLOW_RULES.index(follow)
        self.params = {**DEFAULTS, **params}
        self.p = self.params
        self.raise_at = self.params["raise_at"]
        self.call_at = self.params["call_at"]
        self.bluff = self.params["bluff"]
        self.trut_at = self.params["trut_at"]
        self.trut_bluff = self.params["trut_bluff"]
        self._dealt: tuple[int, ...] = ()
        self._pct = 0.0
        self.forget_trut()

    def step(self, view: SeatView, rng: random.Random) -> Action | None:
        """As ``DecisionPolicy.step``; the decisions taken at nearly every step are called directly (a native
        call once compiled, where the lookup by name goes through Python), the others by name."""
        decision = view.decision
        if decision == trut.OPTION_DECISION:
            return self.trut_option(view, rng)
        if decision == TURN_DECISION:
            return self.turn(view, rng)
        if decision == trut.TURN_DECISION:
            return self.trut_turn(view, rng)
        if decision == valencian.TURN_DECISION:
            return self.valencian_turn(view, rng)
        if decision == french.TURN_DECISION:
            return self.french_turn(view, rng)
        if decision == ANSWER_DECISION:
            return self.answer(view, rng)
        if decision == RAISE_OPTION:
            return self.raise_option(view, rng)
        if decision == trut.ANSWER_DECISION:
            return self.trut_answer(view, rng)
        if decision == valencian.ANSWER_DECISION:
            return self.valencian_answer(view, rng)
        if decision == valencian.ENVIT_ANSWER_DECISION:
            return self.envit_answer(view, rng)
        if decision == french.ANSWER_DECISION:
            return self.french_answer(view, rng)
        return super().step(view, rng)

    def probabilities(self, view: SeatView) -> dict[Action | None, float]:
        """The chance of each action this bot takes in ``view`` (the policy protocol's ``probabilities``), a
        function of the view alone, for the decisions of the ladder variants and of the trut family:

        - a raise (``turn``, ``raise_option``): certain at the raise threshold, else ``bluff`` (a coin drawn at
          every opportunity); a trut (``trut_turn``, ``trut_option``): certain at ``trut_at``, else
          ``trut_bluff`` at the seat's first ask of the hand, before any card is laid (the coin is drawn once
          per hand, and a bluffing seat truts at that first ask), and never later;
        - ``cut``, ``deal``: ``nocut`` and ``one_card``; ``signal``: the truth, or each other signal alike at
          ``lie``;
        - the decisions that draw nothing (answers, holds, card play, the trut family's phases) take the one
          action ``step`` takes.

        Raises ``ValueError`` for a decision of another family that draws (French and Valencian raises)."""
        decision = view.decision
        if decision in (trut.OPTION_DECISION, trut.TURN_DECISION):
            if decision == trut.TURN_DECISION and not view.may_raise():
                return {view.play_action(self.card_to_play(view)): 1.0}
            chance = 1.0 if self.effective_strength(view) >= self.trut_at else 0.0
            if chance < 1.0 and not view.played():
                chance = self.trut_bluff
            other = None if decision == trut.OPTION_DECISION else view.play_action(self.card_to_play(view))
            return _two_ways(trut_action(view), chance, other)
        if decision in (TURN_DECISION, RAISE_OPTION):
            raise_action = view.raise_action()
            other = None if decision == RAISE_OPTION else view.play_action(self.card_to_play(view))
            if raise_action is None:
                return {other: 1.0}
            chance = 1.0 if self.effective_strength(view) >= self.raise_at else self.bluff
            return _two_ways(raise_action, chance, other)
        if decision == CUT_DECISION:
            return _two_ways(make_action(view.seat, NOCUT), self.params["nocut"], make_action(view.seat, CUT))
        if decision == DEAL_DECISION:
            one, three = make_action(view.seat, DEAL, 1), make_action(view.seat, DEAL, 3)
            return _two_ways(one, self.params["one_card"], three)
        if decision == SIGNAL_DECISION:
            truth = true_signal(view)
            lie = self.params["lie"]
            others = [make_action(view.seat, SIGNAL, s) for s in SIGNALS if s != truth]
            chances: dict[Action | None, float] = {other: lie / len(others) for other in others if lie > 0}
            chances[make_action(view.seat, SIGNAL, truth)] = 1.0 - lie
            return chances
        if decision in DRAWS_NOTHING:
            return {self.step(view, _UNUSED): 1.0}
        raise ValueError(f"threshold: no probabilities for the decision {decision!r}")

    def steady(self, decision: str) -> bool:
        """A trut out of turn (``trut_option``) is judged once a trick: the bluff coin is drawn at the first
        ask of a hand, and the effective strength changes only when a trick is taken."""
        return decision == trut.OPTION_DECISION

    @property
    def plays_reference_cards(self) -> bool:
        """Whether this bot plays its cards by the reference rule (the default ``lead`` and ``follow``): the
        only card play the native Trut path implements (``pipeline.playing.fast_path``)."""
        return self._lead_rule == LEAD_HIGHEST and self._follow_rule == FOLLOW_CHEAPEST_WINNING

    def describe(self, variant: str | None = None) -> str:
        """The name, the number parameters ``variant`` reads, then the card play if it is not the default."""
        words = [self.name, *[f"{k}={v:g}" for k, v in self.params_read(variant).items()]]
        if self._lead_rule != LEAD_HIGHEST:
            words.append(f"{LEAD}={self.lead}")
        if self._follow_rule != FOLLOW_CHEAPEST_WINNING:
            words.append(f"{FOLLOW}={self.follow}")
        return " ".join(words)

    def params_read(self, variant: str | None = None) -> dict[str, float]:
        """Those ``variant`` reads (``PARAMS_BY_VARIANT``), in the order of ``DEFAULTS``; all of them for no
        variant or one the table does not know."""
        names = PARAMS_BY_VARIANT.get(variant or "")
        return self.params if names is None else {k: v for k, v in self.params.items() if k in names}

    # ------------------------------------------------------------------ judging the hand
    def strength_pct(self, view: SeatView) -> float:
        """The percentile of the hand dealt, looked up once per hand (the dealt tuple is kept per hand)."""
        dealt = view.dealt
        if dealt is not self._dealt:
            self._dealt = dealt
            self._pct = hand_strength(view.rules, dealt, view.opponents)[1]
        return self._pct

    def effective_strength(self, view: SeatView) -> float:
        value = self.strength_pct(view) + 0.2 * view.trick_balance
        signal = view.partner_signal
        if signal:
            value += 0.1 * (("3" in signal) + ("2" in signal))
        return min(1.0, max(0.0, value))

    def wants_raise(self, view: SeatView, rng: random.Random) -> bool:
        return self.effective_strength(view) >= self.raise_at or rng.random() < self.bluff

    # ------------------------------------------------------------------ decisions
    def turn(self, view: SeatView, rng: random.Random) -> Action:
        raise_action = view.raise_action()
        if raise_action is not None and self.wants_raise(view, rng):
            return raise_action
        return view.play_action(self.card_to_play(view))

    def raise_option(self, view: SeatView, rng: random.Random) -> Action | None:
        return _raise_action(view) if self.wants_raise(view, rng) else None

    def answer(self, view: SeatView, rng: random.Random) -> Action:
        strength = self.effective_strength(view)
        if view.may_raise() and strength >= self.raise_at:
            return _raise_action(view)
        return make_action(view.seat, ACCEPT if strength >= self.call_at else FOLD)

    def hold(self, view: SeatView, rng: random.Random) -> Action:
        strength = self.strength_pct(view)
        partner = view.partner_cards
        if partner:
            partner_pct = strength_table(view.rules, len(partner), view.opponents).lookup(view.power, partner)[1]
            strength = max(strength, partner_pct)
        return make_action(view.seat, HOLD if strength >= self.call_at else PASS)

    def cut(self, view: SeatView, rng: random.Random) -> Action:
        return make_action(view.seat, NOCUT if rng.random() < self.params["nocut"] else CUT)

    def deal(self, view: SeatView, rng: random.Random) -> Action:
        return make_action(view.seat, DEAL, 1 if rng.random() < self.params["one_card"] else 3)

    def signal(self, view: SeatView, rng: random.Random) -> Action:
        truth = true_signal(view)
        if rng.random() < self.params["lie"]:
            return make_action(view.seat, SIGNAL, rng.choice([s for s in SIGNALS if s != truth]))
        return make_action(view.seat, SIGNAL, truth)

    # ------------------------------------------------------------------ card play
    def card_to_play(self, view: SeatView) -> int:
        """The card to play by this bot's ``lead`` and ``follow`` rules."""
        return play_card(view, self._lead_rule, self._follow_rule)


PARAMETERS: Final = (
    *BASE_PARAMS,
    *french_decisions.PARAMS,
    *trut_decisions.PARAMS,
    *valencian_decisions.PARAMS,
    *CARD_PLAY_PARAMS,
)
"""Every parameter of the threshold bot, as ``truc policies`` lists them."""

DEFAULTS: Final[dict[str, float]] = {p.name: p.default for p in PARAMETERS if isinstance(p.default, float)}
"""The number parameters and their defaults: ``params``, what the decisions read by name."""

_TRUT_ANSWERS: Final = ("trut_at", "trut_bluff", "see_at", "see_announced")
_CARD_PLAY: Final = (LEAD, FOLLOW)
PARAMS_BY_VARIANT: Final[dict[str, tuple[str, ...]]] = {
    "catalan": ("raise_at", "call_at", "bluff", "nocut", "one_card", "lie", *_CARD_PLAY),
    "french": ("raise_at", "call_at", "bluff", "lie", *[p.name for p in french_decisions.PARAMS], *_CARD_PLAY),
    "trut": (*_TRUT_ANSWERS, "fortial_at", *_CARD_PLAY),
    "trut-gatinaise": (
        *_TRUT_ANSWERS,
        "office_see_at",
        "sing_below",
        "agree_below",
        "ask_two_below",
        "ask_three_below",
        *_CARD_PLAY,
    ),
    "trut-gatine": (*_TRUT_ANSWERS, "chanter_below", "tenir_at", *_CARD_PLAY),
    "valencian": ("raise_at", "call_at", "bluff", "lie", *[p.name for p in valencian_decisions.PARAMS], *_CARD_PLAY),
}
"""The parameters each variant's decisions read (a test changes each parameter and watches the games):
a seat's ``policy`` column and ``PolicyN`` tag name these only (and the card play only off its default, see
above), so a Trut dataset does not carry the envit's parameters. The trut family reads none of the raise
ladder's (``raise_at``, ``call_at``, ``bluff``); every variant plays cards."""


DRAWS_NOTHING: Final = frozenset(
    [
        ANSWER_DECISION,
        HOLD_DECISION,
        trut.ANSWER_DECISION,
        "fortial",
        "trut_office",
        "chanson",
        "chanson_agree",
        "chanson_ask",
        "chanter",
        "tenir",
        "discard",
    ]
)
"""The decisions in which the threshold bot draws nothing from the generator: ``probabilities`` takes ``step``'s
action as certain."""

_UNUSED: Final = random.Random(0)
"""The generator ``probabilities`` gives the steps that draw nothing."""


def true_signal(view: SeatView) -> str:
    """The signal that tells the truth: the 3, 2 and 1 among the cards dealt, or ``-``."""
    truth = "".join(r for r in ("3", "2", "1") if any(view.rules.deck.rank_of[c] == r for c in view.dealt))
    return truth or "-"


def _two_ways(action: Action | None, chance: float, other: Action | None) -> dict[Action | None, float]:
    """``action`` at ``chance``, ``other`` otherwise (an action left out when its chance is 0)."""
    if chance >= 1.0:
        return {action: 1.0}
    if chance <= 0.0:
        return {other: 1.0}
    return {action: chance, other: 1.0 - chance}


def _raise_action(view: SeatView) -> Action:
    action = view.raise_action()
    if action is None:
        raise ValueError("no raise is legal")
    return action
