"""The engine's quick questions (``may_raise``, ``raise_action``, ``raise_actions``, ``may_envit``) answer what
the full list of legal actions says, in every state random games reach, for every variant and player
count. The bots ask them instead of listing every legal action, so a difference would let a bot take an
illegal action (or miss a legal one) in simulation. The same holds for the other shortcuts the hot path
takes: ``public_value`` against ``public_state``, ``decide_hand`` against the variant's own hand rule."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator

import pytest

from pipeline.engine.actions import Action, make_action
from pipeline.engine.game import Game, Phase, new_game
from pipeline.engine.hand_rules import decide_hand
from pipeline.engine.rules import Config
from pipeline.engine.valencian import ENVIT, ENVIT_FALTA
from pipeline.variants import VARIANTS

COMBINATIONS = [(name, players) for name, variant in VARIANTS.items() for players in variant.players]


def random_play(config: Config, seeds: Iterable[int], rng: random.Random) -> Iterator[Game]:
    """Every state that random games reach where a seat must act: each is yielded, then a random legal
    action is played in it."""
    for seed in seeds:
        game = new_game(config, seed)
        while not game.over:
            while not game.hand_over:
                if game.actor() < 0:
                    game.deal()
                    continue
                yield game
                game.apply(rng.choice(game.legal_actions()))
            if not game.over:
                game.next_hand()


@pytest.mark.parametrize(("name", "players"), COMBINATIONS)
def test_quick_questions_agree_with_the_legal_actions(name: str, players: int) -> None:
    config = VARIANTS[name].configure({"players": str(players)})
    ladder_verbs = config.variant.raise_verbs  # the ladder family's; french raises with "raise", trut with "trut"
    raise_verbs = {*ladder_verbs, "raise", "trut"}
    checked = 0
    for game in random_play(config, range(40), random.Random(7)):
        for seat in range(game.n):
            legal = game.legal_for(seat)
            raises = [a for a in legal if a.verb in raise_verbs]
            assert game.raise_actions(seat) == raises
            if game.phase == Phase.PLAY:  # may_raise is asked while tricks are played
                assert game.may_raise(seat) == bool(raises)
            if ladder_verbs:
                one = game.raise_action(seat)
                assert (one is not None) == bool(raises) and (one is None or one in raises)
            envits = {a.verb for a in legal} & {ENVIT, ENVIT_FALTA}
            if not getattr(game, "envit_pending", False):
                assert game.may_envit(seat) == bool(envits)
            checked += 1
        state = game.public_state()
        assert {key: game.public_value(key) for key in state} == state
        tricks = list(game.tricks)
        rule = config.variant.hand_rule
        assert decide_hand(rule, tricks, game.cards_dealt, game.eldest_team) == rule(
            tricks, game.cards_dealt, game.eldest_team
        )
    assert checked > 500, checked


def test_decide_hand_calls_any_other_rule_as_given() -> None:
    def every_hand_to_side_one(tricks: list[int], total: int, eldest_team: int) -> tuple[int | None, str | None]:
        return 1, f"{len(tricks)}/{total}/{eldest_team}"

    assert decide_hand(every_hand_to_side_one, [0, -1], 3, 0) == (1, "2/3/0")


def test_an_action_without_argument_is_made_once_per_seat_and_verb() -> None:
    shared = make_action(2, "fold")
    assert shared is make_action(2, "fold") and type(shared) is Action and shared == Action(2, "fold", None)
    assert make_action(2, "accept") == Action(2, "accept") and make_action(3, "fold") == Action(3, "fold")
    for seat in (-1, 6, 9):  # seats no game has are not shared, and still make the right action
        assert make_action(seat, "fold") == Action(seat, "fold")
    assert make_action(2, "play", 5) == Action(2, "play", 5) and make_action(2, "play", 5) is not make_action(
        2, "play", 5
    )


@pytest.mark.parametrize("name", list(VARIANTS))
def test_a_variant_s_verbs_are_exactly_the_verbs_of_its_legal_actions(name: str) -> None:
    # Variant.verbs is data that refusals read ("'raise' is not a move of catalan"): every legal action's verb
    # is in it, and every verb in it is reached by random play under some option
    variant = VARIANTS[name]
    seen: set[str] = set()
    rng = random.Random(3)
    for spec in variant.options:
        for value in spec.values:
            options = {spec.name: value}
            if spec.name != "players" and 4 in variant.players:
                options["players"] = "4"  # signals are made in 4 players
            if spec.players:  # an option played at some player counts only (the reduced trut deck at 2)
                options["players"] = str(spec.players[0])
            for game in random_play(variant.configure(options), range(15), rng):
                seen.update(a.verb for a in game.legal_actions())
    assert seen <= variant.verbs, seen - variant.verbs
    assert seen == variant.verbs, variant.verbs - seen
