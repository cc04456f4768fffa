"""Playing complete games: bots take every decision the engine asks for, from one seeded generator per game.

This is the simulator's hot loop (``pipeline.simulate`` writes what it plays); it is compiled with the rest
of the hot path (``pipeline.accel``).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import Any, Final

from pipeline import accel
from pipeline.engine.actions import Action
from pipeline.engine.game import HAND_OVER, Game, HandRecord, new_game
from pipeline.engine.rules import Config
from pipeline.engine.view import SeatView
from pipeline.policies import Policy
from pipeline.policies.base import DecisionPolicy
from pipeline.policies.threshold import ThresholdPolicy

MAX_HANDS: Final = 10_000
"""A guard: no game of any variant needs this many hands; reaching it means a rules bug."""


SEED_SCHEME: Final = "hand-streams/1"
"""How a run's seed becomes every random draw of its games (a manifest's ``seed_scheme``; data made under
another scheme differ for the same seed):

- game ``k`` of a run of seed ``s`` is played from the seed ``game_seed(s, k)`` (blake2b of both);
- the game's seed gives its first dealer (``random.Random(seed).randrange(players)``), and the policies'
  generator, ``random.Random(seed ^ 0x5EED_0F_B075)``, from which every bot of the game draws;
- hand ``h`` deals from a stream of its own, xoshiro128** seeded by splitmix64 from the game's seed and
  ``h`` (``engine.game.DealStream``): the first deal, a redeal and every card drawn from the stock in that
  hand. So two games of one seed see the same shuffle in every hand both play whatever their bots chose
  before (a one-card deal takes the first cards of that shuffle): games played with other bots on the same
  seeds are paired hand by hand.

The scheme before it (unnamed in older manifests) drew every deal of a game from the one generator that drew
the first dealer, so a choice that changed how many cards a hand drew moved the cards of every later hand."""


class SimulationError(ValueError):
    """A simulation was asked for with settings that cannot run."""


def game_seed(run_seed: int, game_no: int) -> int:
    """The seed of one game, derived from the run's seed and the game's number (63 bits)."""
    digest = hashlib.blake2b(f"truc-lab/{run_seed}/{game_no}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def play_game(config: Config, policies: Sequence[Policy], seed: int) -> tuple[Game, list[HandRecord]]:
    """Play one complete game: deals from the game's generator, decisions from its policy generator. Trut by
    threshold bots goes through its native fast path when it is built (``fast_path``): the same games."""
    fast = fast_path(config, policies)
    if fast is not None:
        played: tuple[Game, list[HandRecord]] = fast.play(config, policies, seed)
        return played
    return play_with_engine(config, policies, seed)


FAST_TRUT_PLAYERS: Final = (2, 4, 6)
"""The player counts of the native Trut path: two sides (3-player Trut, each alone, goes through the engine)."""


def fast_path(config: Config, policies: Sequence[Policy]) -> Any:
    """The native module that plays this game (``pipeline._fast_trut``: the base Trut with two sides, each seat
    a threshold bot object of its own, of that exact class, playing its cards by the reference rule, the only
    card play the native path implements), or None: the general loop plays it. None too in pure Python or
    when the native path is not built (``accel.native``)."""
    if config.variant.name != "trut" or config.players not in FAST_TRUT_PLAYERS:
        return None
    if len(policies) != config.players or not each_seat_its_own(policies):
        return None
    if not all(type(p) is ThresholdPolicy and p.plays_reference_cards for p in policies):
        return None
    return accel.native("pipeline._fast_trut")


def each_seat_its_own(policies: Sequence[Policy]) -> bool:
    """Whether every seat has a policy object of its own: a bot's memory of the hand (its bluff coin, its
    judgement once a trick) is then its seat's alone, which asking once a trick and the native path rely on."""
    return len({id(p) for p in policies}) == len(policies)


def play_with_engine(config: Config, policies: Sequence[Policy], seed: int) -> tuple[Game, list[HandRecord]]:
    """The general game loop: every decision the engine asks for, taken by the seat's policy. It is the
    reference the native fast path is tested against."""
    game = new_game(config, seed)
    rng = random.Random(seed ^ 0x5EED_0F_B075)
    hands: list[HandRecord] = []
    seat_policies = list(policies)  # a list: indexed natively once compiled, where a Sequence is not
    views = [SeatView(game, s, False, "") for s in range(game.n)]  # live windows on the game, one per seat
    optional_views = [SeatView(game, s, True, "") for s in range(game.n)]
    # A seat whose policy is steady for an optional decision is asked it once a trick: declined[seat] holds
    # the moment (hand and trick) it last declined. Only when every seat has a policy object of its own: a
    # shared one keeps one memory for several seats.
    own_policies = each_seat_its_own(seat_policies)
    declined = [-1] * game.n
    # The game's methods are called on it directly: compiled (pipeline.accel), that is a native call.
    while True:
        while game.phase is not HAND_OVER:
            seat = game.actor()
            if seat < 0:
                game.deal()
                continue
            acted = False
            others = game.optional_actors()
            if others:
                moment = game.hand_no * 4 + len(game.tricks)
                for other in others:  # seats that may act now are asked first, in order
                    if declined[other] == moment:
                        continue
                    view = optional_views[other]
                    decision = game.decision(other, True)
                    view.decision = decision
                    policy = seat_policies[other]
                    action = _step(policy, view, rng)
                    if action is not None:
                        game.apply_trusted(action)
                        acted = True
                        break
                    if own_policies and _steady(policy, decision):
                        declined[other] = moment
            if acted:
                continue
            view = views[seat]
            view.decision = game.decision(seat, False)
            action = _step(seat_policies[seat], view, rng)
            if action is None:
                raise SimulationError(f"policy of seat {seat} returned no action where one is required")
            game.apply_trusted(action)
        hands.append(game.last_hand)  # type: ignore[arg-type]
        if game.over:
            return game, hands
        if len(hands) >= MAX_HANDS:
            raise SimulationError(f"game with seed {seed} did not end after {MAX_HANDS} hands")
        game.next_hand()


def _step(policy: Policy, view: SeatView, rng: random.Random) -> Action | None:
    """The policy's step. Compiled, a ``DecisionPolicy``'s is a native call, and the threshold policy's
    calls its most frequent decisions natively too; any other policy is called through Python."""
    if isinstance(policy, DecisionPolicy):
        return policy.step(view, rng)  # the same call, typed: native once compiled
    return policy.step(view, rng)


def _steady(policy: Policy, decision: str) -> bool:
    """``policy.steady(decision)`` for a ``DecisionPolicy`` (natively once compiled); any other policy is
    asked at every moment."""
    return isinstance(policy, DecisionPolicy) and policy.steady(decision)


def rubber_wins(config: Config) -> int:
    """Games a side must win to take a match: 2 in a rubber (french ``rubber=on``, seed 000 "Le Truc en
    France"), 0 when every game stands alone."""
    return 2 if config.options.get("rubber") == "on" else 0


def play_match(
    config: Config, policies: Sequence[Policy], run_seed: int, match_no: int, wins: int
) -> list[tuple[int, Game, list[HandRecord], int | None]]:
    """Play match ``match_no`` of a run until a side has won ``wins`` games. Its games have the ids
    ``match_no * (2 * wins - 1) + k`` and each is played from its own seed ``game_seed(run_seed, id)``, so
    every game replays alone. Returns (game id, game, hands, the match winner on the deciding game else None)."""
    played: list[tuple[int, Game, list[HandRecord], int | None]] = []
    won = [0, 0]
    first = match_no * (2 * wins - 1)
    for game_id in range(first, first + 2 * wins - 1):
        game, hands = play_game(config, policies, game_seed(run_seed, game_id))
        winner = game.winner_team
        assert winner is not None  # play_game plays a game to its end
        won[winner] += 1
        played.append((game_id, game, hands, winner if won[winner] == wins else None))
        if won[winner] == wins:
            break
    return played
