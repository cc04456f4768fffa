"""The `threshold` policy's decisions for the trut family (a mixin of `ThresholdPolicy`).

Each decision is a method named after it (`Game.decision` names it). `PARAMS` declares this
family's parameters, each with its default and meaning (merged into the threshold policy's parameters). A
trut d'office (trut-gatinaise) is one the truters were obliged to make, so it says nothing of their cards.

"Best 3 cards" is the strength percentile of the 3 highest cards by power held now. After extra cards a
player keeps his 3 highest cards by power (``discard``). A trut d'office is always made, announcing the
hand when it may.

The effective strength is the threshold policy's (strength percentile, plus 0.2 per trick won, minus
0.2 per trick lost). A brelan is always announced when it may be. Against a side au fortial the
policy always sees, since folding loses the game (seed 003 "Le cas particulier du fortial").
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from mypy_extensions import trait

from pipeline.engine.actions import ACCEPT, DISCARD, FOLD, HOLD, NOSING, PASS, SING, Action, make_action
from pipeline.engine.view import SeatView
from pipeline.policies.base import JudgingPolicy
from pipeline.policies.parameters import number
from pipeline.strength import strength_table

PARAMS: Final = (
    number("trut_at", 0.8, "trut (on one's turn or out of turn) when the effective strength is at least this"),
    number("trut_bluff", 0.05, "the probability, drawn once per hand and seat, of truting anyway at the first chance"),
    number("see_at", 0.55, "answer a trut with je vais voir when the effective strength is at least this"),
    number("see_announced", 0.95, "the same against a trut that announced its hand (trut brelan)"),
    number("fortial_at", 0.5, "au fortial, trut when the hand's strength percentile is at least this (else pass)"),
    number("office_see_at", 0.4, "answer a trut d'office with je vais voir from this effective strength"),
    number("sing_below", 0.4, "la chanson: the eldest sings when his best 3 cards are below this"),
    number("agree_below", 0.6, "la chanson: another player sings with him when his best 3 cards are below this"),
    number("ask_two_below", 0.3, "la chanson: the eldest asks for 2 cards when his best 3 cards are below this"),
    number("ask_three_below", 0.15, "la chanson: the eldest asks for 3 cards when his best 3 cards are below this"),
    number("chanter_below", 0.5, "chanter (trut-gatine): sing when the hand's percentile is below this"),
    number("tenir_at", 0.5, "à tenir (trut-gatine): hold when the hand's percentile is at least this, partner unseen"),
)


@trait
class TrutDecisions(JudgingPolicy):
    # params["trut_at"] and params["trut_bluff"], read at every trut asked (set by the policy's __init__)
    trut_at: float
    trut_bluff: float
    # what _wants_trut keeps for the hand (set by forget_trut, which the policy calls when it is made)
    _trut_dealt: tuple[int, ...]
    _trut_bluffing: bool
    _trut_trick: int
    _trut_strong: bool

    def forget_trut(self) -> None:
        self._trut_dealt = ()
        self._trut_bluffing = False
        self._trut_trick = -1
        self._trut_strong = False

    def trut_turn(self, view: SeatView, rng: random.Random) -> Action:
        """The seat to play: trut first, or play a card."""
        if view.may_raise() and self._wants_trut(view, rng):
            return trut_action(view)
        return view.play_action(self.card_to_play(view))

    def trut_option(self, view: SeatView, rng: random.Random) -> Action | None:
        """Any other seat, at any moment: trut, or let the play go on."""
        return trut_action(view) if self._wants_trut(view, rng) else None

    def trut_answer(self, view: SeatView, rng: random.Random) -> Action:
        special = view.public_value("special")
        if special == "fortial" or (special == "fortial_both" and view.public_value("truter_au_fortial")):
            return make_action(view.seat, ACCEPT)  # folding would give the truters the game
        if view.public_value("announced"):
            need = self.params["see_announced"]
        else:
            need = self.params["office_see_at" if special == "trut_office" else "see_at"]
        return make_action(view.seat, ACCEPT if self.effective_strength(view) >= need else FOLD)

    def fortial(self, view: SeatView, rng: random.Random) -> Action:
        if self.strength_pct(view) >= self.params["fortial_at"]:
            return trut_action(view)
        return make_action(view.seat, PASS)

    def trut_office(self, view: SeatView, rng: random.Random) -> Action:
        """The side facing 2 petits must trut (trut-gatinaise)."""
        return trut_action(view)

    def chanson(self, view: SeatView, rng: random.Random) -> Action:
        """The eldest, asked "Est-ce que tu chantes ?", sings unless his hand is good enough."""
        return _sing_if(view, best_three_pct(view) < self.params["sing_below"])

    def chanson_agree(self, view: SeatView, rng: random.Random) -> Action:
        return _sing_if(view, best_three_pct(view) < self.params["agree_below"])

    def chanson_ask(self, view: SeatView, rng: random.Random) -> Action:
        """1, 2 or 3 cards each: more the weaker the hand, as far as the stock lasts."""
        pct = best_three_pct(view)
        wanted = 3 if pct < self.params["ask_three_below"] else 2 if pct < self.params["ask_two_below"] else 1
        asks = view.legal()
        return asks[min(wanted, len(asks)) - 1]

    def chanter(self, view: SeatView, rng: random.Random) -> Action:
        return _sing_if(view, best_three_pct(view) < self.params["chanter_below"])

    def tenir(self, view: SeatView, rng: random.Random) -> Action:
        return make_action(view.seat, HOLD if self.strength_pct(view) >= self.params["tenir_at"] else PASS)

    def discard(self, view: SeatView, rng: random.Random) -> Action:
        """Keep the 3 highest cards by power; discard the others, named in the order they are held."""
        cards = view.cards
        keep = best_three(view.power, cards)
        text = view.rules.deck.text
        return make_action(view.seat, DISCARD, " ".join(text(c) for i, c in enumerate(cards) if i not in keep))

    def _wants_trut(self, view: SeatView, rng: random.Random) -> bool:
        """Asked at every moment a trut is possible, so the answer is kept until the next trick (the
        effective strength changes only when a trick is taken)."""
        dealt = view.dealt
        if dealt is not self._trut_dealt:  # a new hand: draw the bluff coin once
            self._trut_dealt = dealt
            self._trut_bluffing = rng.random() < self.trut_bluff
            self._trut_trick = -1
        if self._trut_bluffing:
            return True
        trick_no = view.trick_no
        if trick_no != self._trut_trick:
            self._trut_trick = trick_no
            self._trut_strong = self.effective_strength(view) >= self.trut_at
        return self._trut_strong


def best_three(power: Sequence[int], cards: Sequence[int]) -> list[int]:
    """Positions of the 3 highest cards by power (the first held among equals)."""
    return sorted(range(len(cards)), key=lambda i: (-power[cards[i]], i))[:3]


def best_three_pct(view: SeatView) -> float:
    """The strength percentile of the 3 highest cards held now (3 of the cards dealt so far in the hand)."""
    cards = view.cards
    best = [cards[i] for i in best_three(view.power, cards)]
    return strength_table(view.rules, 3, view.opponents).lookup(view.power, best)[1]


def _sing_if(view: SeatView, sing: bool) -> Action:
    return make_action(view.seat, SING if sing else NOSING)


def trut_action(view: SeatView) -> Action:
    """The trut, announcing the hand when an announcement is legal."""
    return view.raise_actions()[-1]
