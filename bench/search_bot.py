"""The search bot's speed: decisions per second, milliseconds per decision and seconds per game, playing the
default threshold bot in 2-player Catalan Truc and other variants.

A decision is a step where the bot had more than one choice (it searches only there). The games alternate
the seats. Figures are CPU time of this process (the machine's other work moves wall time).

    python bench/search_bot.py [--games N] [--rollouts R] [VARIANT:PLAYERS ...]   (default: catalan:2 trut:2)
"""

from __future__ import annotations

import argparse
import random
import time

from pipeline import accel
from pipeline.engine.actions import Action
from pipeline.engine.view import SeatView
from pipeline.playing import game_seed, play_game
from pipeline.policies import Policy, parse_policy
from pipeline.policies.search import ROLLOUTS


class Timed:
    """The search bot, with its decisions counted and timed."""

    def __init__(self, inner: Policy) -> None:
        self.inner = inner
        self.name = inner.name
        self.decisions = 0
        self.seconds = 0.0

    def describe(self, variant: str | None = None) -> str:
        return self.inner.describe(variant)

    def step(self, view: SeatView, rng: random.Random) -> Action | None:
        several = len(view.legal()) + view.optional > 1
        started = time.process_time()
        action = self.inner.step(view, rng)
        if several:
            self.decisions += 1
            self.seconds += time.process_time() - started
        return action


def measure(variant: str, players: int, games: int, rollouts: int) -> tuple[int, float, float, int]:
    """(decisions, CPU seconds in them, CPU seconds of the games, games won by the search bot's side)."""
    from pipeline.variants import get_variant

    config = get_variant(variant).configure({"players": str(players)})
    decisions, searching, won = 0, 0.0, 0
    started = time.process_time()
    for g in range(games):
        side = g % 2
        bots: list[Policy] = []
        searchers = []
        for seat in range(players):
            if seat % 2 == side:
                bot = Timed(parse_policy(f"search:rollouts={rollouts}"))
                searchers.append(bot)
                bots.append(bot)
            else:
                bots.append(parse_policy("threshold"))
        game, _ = play_game(config, bots, game_seed(2026, g))
        won += game.winner_team == side
        decisions += sum(b.decisions for b in searchers)
        searching += sum(b.seconds for b in searchers)
    return decisions, searching, time.process_time() - started, won


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("settings", nargs="*", default=["catalan:2", "trut:2"])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rollouts", type=int, default=ROLLOUTS)
    args = parser.parse_args()
    print(f"search:rollouts={args.rollouts} against threshold, {args.games} games each, engine {accel.status()}")
    print(f"{'variant':<16} {'players':>7} {'decisions':>9} {'dec/s':>7} {'ms/dec':>7} {'s/game':>7} {'won':>5}")
    for setting in args.settings:
        variant, _, players = setting.partition(":")
        decisions, searching, total, won = measure(variant, int(players or 2), args.games, args.rollouts)
        rate = decisions / searching if searching else 0.0
        per = 1000 * searching / decisions if decisions else 0.0
        print(
            f"{variant:<16} {players:>7} {decisions:>9} {rate:>7.0f} {per:>7.1f} {total / args.games:>7.2f} "
            f"{won:>2}/{args.games}"
        )


if __name__ == "__main__":
    main()
