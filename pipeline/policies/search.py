"""``search``: a determinised Monte-Carlo search bot (issue 23).

At each decision with more than one choice it samples, ``rollouts`` times, the cards its seat has not seen,
consistently with what it has seen (``Game.determinise``: its own cards, the cards laid face up, its own
covered card or discards, the partner's cards when the team looked at them together at 11 points). It does
not read the bets, the signals or the announcements: every unseen card is equally likely wherever it may
be. On each sample it plays every choice out to the end of the hand, every seat played by the rollout
policy (``rollout``, the threshold bot with its default parameters unless told otherwise), and takes the
choice with the best mean value: the points of the hand for its side minus the points of the other sides
(in the variant's units: points, petits with a long worth 3, stones). All choices are tried on the same
samples (common random numbers), so their difference is measured with less noise than their values. A
decision with one choice is taken without search.

Everything random comes from the ``rng`` the game loop passes to ``step``, so a game replays from its seed.
The bot reads the live game behind its ``SeatView`` only to copy it and determinise the copy from its seat:
what it decides depends on nothing its seat has not seen (``tests/test_search_bot.py`` checks it).

It is interpreted (not compiled) and calls the compiled engine; ``bench/search_bot.py`` measures its speed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from pipeline.engine.actions import Action
from pipeline.engine.game import Game
from pipeline.engine.view import SeatView
from pipeline.policies.base import Policy
from pipeline.policies.parameters import Param, integer, policy_name
from pipeline.policies.random_policy import RandomPolicy
from pipeline.policies.threshold import ThresholdPolicy

ROLLOUTS = 32
"""The default number of samples per decision (each plays every choice out once); docs/bots.md gives the
time it takes."""

PARAMETERS: tuple[Param, ...] = (
    integer("rollouts", ROLLOUTS, "samples of the unseen cards per decision, each choice played out on each", 1),
    policy_name("rollout", "threshold", "the bot that plays every seat in the play-outs (its default parameters)"),
)


class SearchPolicy:
    """Determinised Monte Carlo over the current hand, with a rollout policy at every seat."""

    name = "search"

    def __init__(
        self, rollouts: int = ROLLOUTS, rollout: str = "threshold", make_rollout: Callable[[], Policy] | None = None
    ) -> None:
        """``make_rollout`` builds the rollout bot named ``rollout`` (the registry passes its builder,
        ``pipeline.policies``); without it ``threshold`` and ``random`` are known here."""
        if rollouts < 1:
            raise ValueError(f"rollouts={rollouts} must be at least 1")
        if rollout == self.name:
            raise ValueError("rollout=search would search inside every play-out: name another bot")
        if make_rollout is None:
            known: dict[str, Callable[[], Policy]] = {"threshold": ThresholdPolicy, "random": RandomPolicy}
            if rollout not in known:
                raise ValueError(f"rollout={rollout!r}: build this bot through the registry (parse_policy)")
            make_rollout = known[rollout]
        self.rollouts = rollouts
        self.rollout = rollout
        self.params: dict[str, Any] = {"rollouts": rollouts, "rollout": rollout}
        self._make_rollout = make_rollout

    def describe(self, variant: str | None = None) -> str:
        return f"{self.name} rollouts={self.rollouts} rollout={self.rollout}"

    def step(self, view: SeatView, rng: random.Random) -> Action | None:
        choices: list[Action | None] = [*view.legal()]
        if view.optional:
            choices.append(None)
        if len(choices) == 1:
            return choices[0]
        live: Game = view._game  # read only to be copied and determinised from this seat
        seat = view.seat
        totals = [0.0] * len(choices)
        for _ in range(self.rollouts):
            sample = live.clone()
            sample.determinise(seat, rng)
            for index, choice in enumerate(choices):
                world = sample.clone() if index < len(choices) - 1 else sample
                totals[index] += self._play_out(world, seat, choice, rng)
        best = 0
        for index in range(1, len(choices)):
            if totals[index] > totals[best]:
                best = index
        return choices[best]

    def _play_out(self, game: Game, seat: int, choice: Action | None, rng: random.Random) -> float:
        """Take ``choice`` for ``seat``, play the hand out with a fresh rollout policy at every seat (a bot keeps
        a memory of its hand), and give the hand's value for ``seat``'s side."""
        policies = [self._make_rollout() for _ in range(game.n)]
        if choice is not None:
            game.apply_trusted(choice)
        else:  # declining an optional move: the seat that must act acts next
            actor = game.actor()
            action = policies[actor].step(SeatView(game, actor), rng)
            assert action is not None
            game.apply_trusted(action)
        while not game.hand_over:
            actor = game.actor()
            if actor < 0:
                game.deal()
                continue
            acted = False
            for other in game.optional_actors():
                action = policies[other].step(SeatView(game, other, True), rng)
                if action is not None:
                    game.apply_trusted(action)
                    acted = True
                    break
            if not acted:
                action = policies[actor].step(SeatView(game, actor), rng)
                assert action is not None
                game.apply_trusted(action)
        return hand_value(game, seat)


def hand_value(game: Game, seat: int) -> float:
    """The points of the hand just ended for ``seat``'s side minus the other sides' points."""
    record = game.last_hand
    assert record is not None
    side = game.team_of[seat]
    points = record.points
    return float(points[side] - (sum(points) - points[side]))
