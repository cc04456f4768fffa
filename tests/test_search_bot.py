"""The ``search`` bot (``pipeline/policies/search.py``): determinised Monte Carlo over the current hand."""

from __future__ import annotations

import random

import pytest

from pipeline.engine.actions import Action
from pipeline.engine.game import Game, new_game
from pipeline.engine.view import SeatView
from pipeline.playing import game_seed, play_game
from pipeline.policies import Policy, PolicyError, parse_policy
from pipeline.policies.search import SearchPolicy, hand_value
from pipeline.variants import VARIANTS

SETTINGS = [(variant.name, players) for variant in VARIANTS.values() for players in variant.players]


class Checked:
    """A policy that checks every action of the one it wraps against the legal actions (the game loop trusts
    them) and counts the decisions."""

    def __init__(self, inner: Policy) -> None:
        self.inner = inner
        self.name = inner.name
        self.decisions = 0

    def describe(self, variant: str | None = None) -> str:
        return self.inner.describe(variant)

    def step(self, view: SeatView, rng: random.Random) -> Action | None:
        action = self.inner.step(view, rng)
        if action is None:
            assert view.optional, f"{self.name} declined a decision that must be taken ({view.decision})"
        else:
            assert action in view.legal(), f"{self.name} chose {action}, not legal in {view.decision}"
        self.decisions += 1
        return action


def test_the_registry_builds_it_with_its_parameters() -> None:
    bot = parse_policy("search:rollouts=3,rollout=random")
    assert isinstance(bot, SearchPolicy) and bot.rollouts == 3 and bot.rollout == "random"
    assert bot.describe() == "search rollouts=3 rollout=random"
    with pytest.raises(PolicyError, match="rollouts"):
        parse_policy("search:rollouts=0")
    with pytest.raises(PolicyError, match="not a policy"):
        parse_policy("search:rollout=minmax")
    with pytest.raises(PolicyError, match="rollout=search"):
        parse_policy("search:rollout=search")


@pytest.mark.parametrize(("variant", "players"), SETTINGS)
def test_it_plays_whole_games_of_every_variant_by_the_rules(variant, players) -> None:
    config = VARIANTS[variant].configure({"players": str(players)})
    bots: list[Policy] = [
        Checked(parse_policy("search:rollouts=1" if seat % 2 == 0 else "threshold")) for seat in range(players)
    ]
    game, hands = play_game(config, bots, game_seed(8, players))
    assert game.over and hands
    assert bots[0].decisions > 0  # type: ignore[attr-defined]


def test_it_replays_from_the_seed() -> None:
    config = VARIANTS["catalan"].configure({"players": "2"})
    played = [play_game(config, [parse_policy("search:rollouts=2"), parse_policy("threshold")], 77)[1] for _ in "ab"]
    assert played[0] == played[1]


def test_it_beats_the_random_bot_in_two_player_catalan() -> None:
    config = VARIANTS["catalan"].configure({"players": "2"})
    wins = 0
    games = 40
    for g in range(games):
        seats = [parse_policy("search:rollouts=16"), parse_policy("random")]
        if g % 2:
            seats.reverse()
        game, _ = play_game(config, seats, game_seed(12, g))
        wins += game.winner_team == g % 2
    assert wins >= 28, wins  # 70%: a coin would do so less than once in a hundred


def decision_moments(variant: str, players: int, seed: int) -> list[Game]:
    """Moments of a game (random moves) where a seat must choose among several actions."""
    game = new_game(VARIANTS[variant].configure({"players": str(players)}), seed)
    rng = random.Random(seed)
    found = []
    for _ in range(300):
        if game.over:
            break
        if game.hand_over:
            game.next_hand()
        elif game.actor() < 0:
            game.deal()
        else:
            seat = game.actor()
            if len(game.legal_for(seat)) > 1 and game.dealt:
                found.append(game.clone())
            game.apply(rng.choice(game.legal_for(seat)))
    return found[::7]


@pytest.mark.parametrize(("variant", "players"), SETTINGS)
def test_its_choice_depends_on_nothing_its_seat_has_not_seen(variant, players) -> None:
    """Two games alike from the seat's side but with other cards in the other hands and the stock: the same
    choice with the same generator. (A bot that read the live game's hidden cards would choose by them.)"""
    bot = SearchPolicy(rollouts=2)
    differed = 0
    for moment in decision_moments(variant, players, seed=players * 31 + len(variant)):
        seat = moment.actor()
        other = moment.clone()
        other.determinise(seat, random.Random(5))  # the same view, other hidden cards
        assert other.hands[seat] == moment.hands[seat]
        differed += other.hands != moment.hands
        choices = [bot.step(SeatView(game, seat), random.Random(11)) for game in (moment, other)]
        assert choices[0] == choices[1]
    assert differed > 0


def test_the_value_of_a_hand_is_its_sides_points_minus_the_others() -> None:
    config = VARIANTS["trut"].configure({"players": "3"})
    game, hands = play_game(config, [parse_policy("threshold") for _ in range(3)], 5)
    record = game.last_hand
    assert record is not None
    for seat in range(3):
        side = game.team_of[seat]
        assert hand_value(game, seat) == record.points[side] - sum(record.points) + record.points[side]
