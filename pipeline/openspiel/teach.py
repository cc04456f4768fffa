"""What a bot's betting looks like in play: how often it raises at each strength and trick (its bluffs: raises
with a weak hand) and how it answers a raise, measured over whole games of 2 players against another bot
(docs/equilibrium.md, "What it teaches").

    python -m pipeline.openspiel.teach --policy cfr:file=cfr-catalan.json.gz --games 2000 --out profile.json
    python -m pipeline.openspiel.teach --variant trut --policy cfr:file=cfr-trut.json.gz --games 2000

Every moment of the measured seat with a raise among its choices is a *raise opportunity* (in the trut
family, a trut: at its turn, and as an optional actor at every moment another seat is to act, before the
trut is made); every moment it must answer a raise (a trut) is an *answer*. Each is counted by the strength
percentile of the hand it was dealt (``pipeline.strength``, in fifths), by trick, and for answers by the
stake proposed; and each hand with an opportunity counts whether the seat raised in it at least once. The
bot plays seat 0 in even games and seat 1 in odd ones, against ``--against`` (the threshold bot by
default).
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipeline.engine import trut
from pipeline.engine.actions import ACCEPT, FOLD, PLAY, Action
from pipeline.engine.view import ANSWER_DECISION, RAISE_OPTION, TURN_DECISION, SeatView
from pipeline.playing import play_with_engine
from pipeline.policies import Policy, parse_policy
from pipeline.strength import hand_strength
from pipeline.variants import VARIANTS

ANSWER_WORDS = {ACCEPT: ACCEPT, FOLD: FOLD, PLAY: ACCEPT}
"""An answer by its verb: playing a card without answering accepts (Catalan, ``engine/ladder.py``); any other
verb raises again."""
FIFTHS = ("0-0.2", "0.2-0.4", "0.4-0.6", "0.6-0.8", "0.8-1")
WEAK = 2
"""The fifths below 0.4: a raise from them is counted a bluff."""
ANSWERS = frozenset([ANSWER_DECISION, trut.ANSWER_DECISION])
RAISES = frozenset([TURN_DECISION, RAISE_OPTION, trut.TURN_DECISION, trut.OPTION_DECISION])
"""The decisions counted: the ladder's and the trut family's."""


@dataclass
class Profile:
    policy: str
    against: str
    games: int
    raises: Counter[tuple[str, int]] = field(default_factory=Counter)  # (fifth, trick) -> raises
    chances: Counter[tuple[str, int]] = field(default_factory=Counter)  # (fifth, trick) -> opportunities
    answers: Counter[tuple[str, int, str]] = field(default_factory=Counter)  # (fifth, stake, answer) -> count
    hands: Counter[str] = field(default_factory=Counter)  # fifth -> hands with a raise opportunity
    raised_hands: Counter[str] = field(default_factory=Counter)  # fifth -> those where it raised

    def raise_rate(self, fifths: tuple[str, ...] = FIFTHS, trick: int | None = None) -> tuple[float, int]:
        keys = [k for k in self.chances if k[0] in fifths and (trick is None or k[1] == trick)]
        n = sum(self.chances[k] for k in keys)
        return (sum(self.raises[k] for k in keys) / n if n else float("nan")), n

    def hand_raise_rate(self, fifths: tuple[str, ...] = FIFTHS) -> tuple[float, int]:
        """The share of hands with a raise opportunity in which it raised, and the hands."""
        n = sum(self.hands[f] for f in fifths)
        return (sum(self.raised_hands[f] for f in fifths) / n if n else float("nan")), n

    def answer_rates(self, fifth: str | None = None, stake: int | None = None) -> tuple[dict[str, float], int]:
        keys = [k for k in self.answers if (fifth is None or k[0] == fifth) and (stake is None or k[1] == stake)]
        n = sum(self.answers[k] for k in keys)
        out: Counter[str] = Counter()
        for k in keys:
            out[k[2]] += self.answers[k]
        return {a: c / n for a, c in out.items()} if n else {}, n

    def lines(self) -> list[str]:
        """Markdown tables: the raise rate by strength and trick, and the answers to a raise by strength."""
        tricks = sorted({k[1] for k in self.chances})
        out = [f"{self.policy} against {self.against}, {self.games:,} games", ""]
        out.append(
            "| strength | " + " | ".join(f"raises, trick {t}" for t in tricks) + " | raises, all | hands raised |"
        )
        out.append("|---|" + "---|" * (len(tricks) + 2))
        for f in FIFTHS:
            cells = [_rate(*self.raise_rate((f,), t)) for t in tricks] + [_rate(*self.raise_rate((f,)))]
            cells.append(_rate(*self.hand_raise_rate((f,))))
            out.append(f"| {f} | " + " | ".join(cells) + " |")
        out += ["", "| strength | accepts | folds | raises again | answers |", "|---|---|---|---|---|"]
        for f in FIFTHS:
            rates, n = self.answer_rates(f)
            cells = [f"{100 * rates.get(a, 0.0):.0f}%" for a in (ACCEPT, FOLD, "raise")]
            out.append(f"| {f} | " + " | ".join(cells) + f" | {n:,} |")
        return out

    def document(self) -> dict[str, Any]:
        tricks = sorted({k[1] for k in self.chances})
        stakes = sorted({k[1] for k in self.answers})
        return {
            "policy": self.policy,
            "against": self.against,
            "games": self.games,
            "raise_rate": {f: {str(t): self.raise_rate((f,), t) for t in tricks} for f in FIFTHS},
            "raise_rate_by_fifth": {f: self.raise_rate((f,)) for f in FIFTHS},
            "bluff_rate": self.raise_rate(FIFTHS[:WEAK]),
            "hands_raised": {f: self.hand_raise_rate((f,)) for f in FIFTHS},
            "hands_bluffed": self.hand_raise_rate(FIFTHS[:WEAK]),
            "answers": {f: {str(s): self.answer_rates(f, s) for s in stakes} for f in FIFTHS},
            "answers_by_stake": {str(s): self.answer_rates(None, s) for s in stakes},
        }


class _Recorder:
    """Plays as ``inner`` and counts its raise opportunities and answers."""

    name = "recorder"

    def __init__(self, inner: Policy, profile: Profile) -> None:
        self.inner = inner
        self.profile = profile
        self.game = 0  # the game being played (set by ``profile``): with the hand's number, which hand it is
        self.hand: tuple[int, int] = (-1, 0)
        self.raised = False

    def describe(self, variant: str | None = None) -> str:
        return self.inner.describe(variant)

    def step(self, view: SeatView, rng: random.Random) -> Action | None:
        action = self.inner.step(view, rng)
        decision = view.decision
        if (decision not in ANSWERS and decision not in RAISES) or not view.dealt:
            return action
        pct = hand_strength(view.rules, view.dealt, view.opponents)[1]
        fifth = FIFTHS[min(4, int(pct * 5))]
        trick = view.trick_no
        if decision in ANSWERS:
            word = ANSWER_WORDS.get(action.verb if action is not None else "", "raise")
            self.profile.answers[(fifth, view.proposed_stake, word)] += 1
        elif view.raise_action() is not None:
            self.profile.chances[(fifth, trick)] += 1
            raised = action is not None and action.verb != PLAY
            if raised:
                self.profile.raises[(fifth, trick)] += 1
            hand = (self.game, view._game.hand_no)  # read for which hand it is only
            if hand != self.hand:
                self.hand, self.raised = hand, False
                self.profile.hands[fifth] += 1
            if raised and not self.raised:
                self.raised = True
                self.profile.raised_hands[fifth] += 1
        return action


def _rate(rate: float, n: int) -> str:
    return f"{100 * rate:.0f}% ({n:,})" if n else "-"


def profile(policy: str, games: int, against: str = "threshold", seed: int = 0, variant: str = "catalan") -> Profile:
    """Play ``games`` 2-player games of ``policy`` against ``against`` and count its betting (the module
    docstring)."""
    result = Profile(policy, against, games)
    config = VARIANTS[variant].configure({"players": "2"})
    recorder = _Recorder(parse_policy(policy), result)
    for game in range(games):
        recorder.game = game
        other = parse_policy(against)
        seats: list[Any] = [recorder, other] if game % 2 == 0 else [other, recorder]
        play_with_engine(config, seats, seed + game)
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--policy", required=True)
    parser.add_argument("--against", default="threshold")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--variant", default="catalan")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    found = profile(args.policy, args.games, args.against, args.seed, args.variant)
    if args.out is not None:
        args.out.write_text(json.dumps(found.document(), indent=1) + "\n")
    print("\n".join(found.lines()))


if __name__ == "__main__":
    main()
