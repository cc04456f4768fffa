"""The `threshold` policy's decisions for the valencian family (a mixin of `ThresholdPolicy`).

Each decision is a method named after it (`Game.decision` names it: ``pipeline.engine.valencian``).
`PARAMS` declares this family's parameters, each with its default and meaning (merged into the threshold
policy's parameters). The truc ladder is judged as in Catalan Truc, by the hand-strength percentile
(``raise_at``, ``call_at``, ``bluff``), each rung above the truc asking for more (``ladder_step``). The envit
is judged on its own scale, the percentile of the seat's envit value among every hand of the deck
(``envit_pct``).

With signals on, a partner's ``33`` signal puts the envit percentile at 1, above holding 33 oneself (a
claim of the best envit the pair can show), when calling and answering; each top card it signals
(``1e``, ``1b``, ``7e``, ``7o``, ``3``) adds 0.1 to the truc strength.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Final

from mypy_extensions import trait

from pipeline.engine.actions import ACCEPT, FOLD, PLAY, SIGNAL, Action, make_action
from pipeline.engine.rules import Variant
from pipeline.engine.valencian import COVER, ENVIT, ENVIT_FALTA, FALTA, SENYES, TORNE, envit_value
from pipeline.engine.view import SeatView
from pipeline.policies.base import JudgingPolicy
from pipeline.policies.parameters import number

PARAMS: Final = (
    number(
        "ladder_step",
        0.08,
        "raising to rung k (truc 1 ... joc fora 4) needs raise_at + (k-1) * this, accepting it call_at + (k-1) * this",
    ),
    number("envit_at", 0.8, "call the envit (on one's turn, before one's first card) from this envit percentile"),
    number("envit_falta", 0.97, "call envit-falta at once, or answer with falta, from this envit percentile"),
    number("envit_raise", 0.9, "answer an envit with torne from this envit percentile"),
    number("envit_call", 0.6, "accept an envit (any rung) from this envit percentile, else fold"),
    number("envit_bluff", 0.05, "the probability of calling the envit anyway with a weaker value"),
    number(
        "cover", 0.5, "the probability of covering a card that cannot change the trick (it hides one's cards, seed 004)"
    ),
)


def envit_percentiles(variant: Variant) -> dict[int, float]:
    """Envit value -> its mid-rank percentile among every 3-card hand of the variant's deck (exact),
    computed once per variant."""
    found = _PERCENTILES.get(variant)
    if found is None:
        found = _PERCENTILES[variant] = _envit_percentiles(variant)
    return found


def _envit_percentiles(variant: Variant) -> dict[int, float]:
    deck = variant.deck
    counts: dict[int, int] = {}
    for hand in combinations(range(len(deck)), 3):
        value = envit_value(deck, hand)
        counts[value] = counts.get(value, 0) + 1
    total = sum(counts.values())
    result, below = {}, 0
    for value in sorted(counts):
        result[value] = (below + counts[value] / 2) / total
        below += counts[value]
    return result


# Caches kept in plain dicts (keyed by the variant, hashed by identity): compiled, a dict lookup is a
# native call, where a call through functools.cache goes through Python (a bot asks at most of its turns).
_PERCENTILES: Final[dict[Variant, dict[int, float]]] = {}
_RUNGS: Final[dict[Variant, dict[str, int]]] = {}


def envit_pct(view: SeatView) -> float:
    """The percentile of the seat's envit value; 1 when its partner signals 33."""
    signal = view.partner_signal
    if signal and "33" in signal.split("+"):
        return 1.0
    variant = view.rules
    return envit_percentiles(variant)[envit_value(variant.deck, view.dealt)]


def truc_strength(policy: JudgingPolicy, view: SeatView) -> float:
    """The hand-strength percentile, +0.2 a trick won, -0.2 a trick lost, +0.1 a top card the partner
    signals; clipped to [0, 1]."""
    value = policy.strength_pct(view) + 0.2 * view.trick_balance
    signal = view.partner_signal
    if signal and signal != "-":
        value += 0.1 * sum(1 for s in signal.split("+") if s != "33")
    return min(1.0, max(0.0, value))


def _find(legal: list[Action], verb: str) -> Action | None:
    for action in legal:
        if action.verb == verb:
            return action
    return None


def _rungs(variant: Variant) -> dict[str, int]:
    """Raise verb -> its rung, 1 for the truc."""
    found = _RUNGS.get(variant)
    if found is None:
        found = _RUNGS[variant] = {verb: k for k, verb in enumerate(variant.raise_verbs, 1)}
    return found


def _pending_rung(view: SeatView) -> int:
    """The rung (1 for the truc) of the raise being answered."""
    proposed = view.proposed_stake
    return next(k for k, rung in enumerate(view.rules.ladder, 1) if rung.stake == proposed)


def _call_envit(policy: JudgingPolicy, view: SeatView, rng: random.Random) -> Action | None:
    """An envit call if one is wanted and legal: ``envit-falta`` on a very high value, ``envit`` on a high
    one or a bluff. Whether it is wanted is asked before whether the envit is open, so a bluff coin may
    be drawn for a call that cannot be made: it moves the random stream, never a decision."""
    pct, p = envit_pct(view), policy.params
    if pct >= p["envit_falta"]:
        verb = ENVIT_FALTA
    elif pct >= p["envit_at"] or rng.random() < p["envit_bluff"]:
        verb = ENVIT
    else:
        return None
    return make_action(view.seat, verb) if view.may_envit() else None


def _cover_worthless(policy: JudgingPolicy, view: SeatView, card: int, rng: random.Random) -> bool:
    """Whether to cover ``card``: it cannot change the trick (the opponents' best card on the table beats
    it, or the partner's already wins) and the coin says so."""
    if not view.trick_size:
        return False
    opposing, partner = view.trick_best()
    mine = view.power[card]
    useless = opposing > mine or partner > max(opposing, mine)
    return useless and rng.random() < policy.params["cover"]


@trait
class ValencianDecisions(JudgingPolicy):
    def valencian_turn(self, view: SeatView, rng: random.Random) -> Action:
        """The seat to play: envit first (it comes before the truc), then raise, then play or cover."""
        if len(view.held) == view.cards_dealt:  # the envit is open only before one's first card
            envit = _call_envit(self, view, rng)
            if envit is not None:
                return envit
        if view.may_raise():
            rung = next(k for k, r in enumerate(view.rules.ladder, 1) if r.stake > view.stake)
            needed = self.raise_at + (rung - 1) * self.params["ladder_step"]
            if truc_strength(self, view) >= needed or rng.random() < self.params["bluff"]:
                return make_action(view.seat, view.rules.ladder[rung - 1].verb)
        card = self.card_to_play(view)
        verb = COVER if _cover_worthless(self, view, card, rng) else PLAY
        return view.play_action(card) if verb == PLAY else make_action(view.seat, verb, card)

    def valencian_answer(self, view: SeatView, rng: random.Random) -> Action:
        """A pending truc: envit first if wanted (seed 004 rule a), then raise back, accept or fold."""
        if len(view.held) == view.cards_dealt:
            envit = _call_envit(self, view, rng)
            if envit is not None:
                return envit
        strength, step = truc_strength(self, view), self.params["ladder_step"]
        raising = view.raise_action()
        if raising is not None and strength >= self.raise_at + (_rungs(view.rules)[raising.verb] - 1) * step:
            return raising
        needed = self.call_at + (_pending_rung(view) - 1) * step
        return make_action(view.seat, ACCEPT if strength >= needed else FOLD)

    def envit_answer(self, view: SeatView, rng: random.Random) -> Action:
        """A pending envit, torne or falta: raise it, accept or fold by the envit percentile."""
        legal = view.legal()
        pct, p = envit_pct(view), self.params
        if pct >= p["envit_falta"]:
            falta = _find(legal, FALTA)
            if falta is not None:
                return falta
        if pct >= p["envit_raise"]:
            torne = _find(legal, TORNE)
            if torne is not None:
                return torne
        accept = _find(legal, ACCEPT)
        if accept is not None and pct >= p["envit_call"]:
            return accept
        return make_action(view.seat, FOLD)

    def senya(self, view: SeatView, rng: random.Random) -> Action:
        """Signal the top cards held and a 33 of envit (seed 004 "Senyes"); lie with probability ``lie``."""
        deck = view.rules.deck
        held = {deck.cards[c] for c in view.dealt} | {deck.rank_of[c] for c in view.dealt}
        claims = [s for s in SENYES if s in held]
        if envit_value(deck, view.dealt) == 33:
            claims.append("33")
        truth = "+".join(claims) or "-"
        if rng.random() < self.params["lie"]:
            words = [a.arg for a in view.legal() if a.verb == SIGNAL and a.arg != truth]
            return make_action(view.seat, SIGNAL, rng.choice(words))
        return make_action(view.seat, SIGNAL, truth)
