"""Two bots over single 2-player hands from 0-0, the game ``truc train`` trains on: the points per hand one wins
from the other, with its 95% interval (docs/equilibrium.md, "A lower bound on its exploitability").

    python -m pipeline.openspiel.duel --a cfr:file=reply.json.gz --b cfr:file=cfr-catalan.json.gz --hands 20000

Hands come in pairs on the same cards (the same game seed, so the same deal) with the seats swapped, each
dealer in turn; the value of a pair is the mean of ``a``'s points less ``b``'s in its two hands (in the
variant's units: points, petits with a long worth 3). With ``a`` a best response trained against ``b``, the
mean is a lower bound on ``b``'s exploitability in points per hand, up to its interval: the exploitability is
what the *best* reply wins, averaged over the two seats.
"""

from __future__ import annotations

import argparse
import math
import random
from dataclasses import dataclass

from pipeline.engine.game import new_game
from pipeline.engine.view import SeatView
from pipeline.policies import Policy, parse_policy
from pipeline.policies.search import hand_value
from pipeline.variants import VARIANTS


@dataclass(frozen=True)
class Duel:
    a: str
    b: str
    pairs: int
    mean: float  # a's points less b's, per hand
    half_width: float  # of the 95% interval (normal, over the pairs)

    def line(self) -> str:
        low, high = self.mean - self.half_width, self.mean + self.half_width
        return (
            f"{self.a} wins {self.mean:+.3f} points a hand [{low:+.3f}, {high:+.3f}] from {self.b} "
            f"({2 * self.pairs:,} hands from 0-0, {self.pairs:,} pairs on the same cards with the seats swapped)"
        )


def play_hand(variant: str, policies: list[Policy], seed: int, dealer: int, rng: random.Random) -> float:
    """One hand from 0-0 of a 2-player game dealt by ``seed``; seat 0's points less seat 1's. At each moment the
    seats that may act are asked first, then the seat that must act (the game loop's order)."""
    game = new_game(VARIANTS[variant].configure({"players": "2"}), seed, dealer)
    while not game.hand_over:
        actor = game.actor()
        if actor < 0:
            game.deal()
            continue
        acted = False
        for other in game.optional_actors():
            if other != actor and game.legal_for(other):
                action = policies[other].step(SeatView(game, other, True), rng)
                if action is not None:
                    game.apply_trusted(action)
                    acted = True
                    break
        if not acted:
            action = policies[actor].step(SeatView(game, actor), rng)
            assert action is not None
            game.apply_trusted(action)
    return hand_value(game, 0)


def duel(a: str, b: str, hands: int, seed: int = 0, variant: str = "catalan") -> Duel:
    """``a`` against ``b`` over ``hands`` hands (the module docstring)."""
    if hands < 4 or hands % 2:
        raise ValueError(f"hands={hands}: give an even number, at least 4")
    draws = random.Random(seed)
    rng = random.Random(seed ^ 0x5EED)
    first, second = parse_policy(a), parse_policy(b)
    values = []
    for pair in range(hands // 2):
        deal = draws.getrandbits(63)
        dealer = pair % 2
        one = play_hand(variant, [first, second], deal, dealer, rng)
        two = -play_hand(variant, [second, first], deal, dealer, rng)
        values.append((one + two) / 2)
    n = len(values)
    mean = sum(values) / n
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return Duel(a, b, n, mean, 1.96 * math.sqrt(variance / n))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--a", required=True)
    parser.add_argument("--b", required=True)
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--variant", default="catalan")
    args = parser.parse_args(argv)
    print(duel(args.a, args.b, args.hands, args.seed, args.variant).line())


if __name__ == "__main__":
    main()
