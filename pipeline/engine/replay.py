"""Replay recorded hands through the engine: every action is checked again."""

from __future__ import annotations

from collections.abc import Iterable

from pipeline.engine.actions import DEALT, Action
from pipeline.engine.game import Game, HandRecord, new_game
from pipeline.engine.rules import Config


def replay(config: Config, first_dealer: int, hands: Iterable[HandRecord], seed: int | None = None) -> Game:
    """A new game that replays ``hands`` (deals and actions) with full rule checks.

    Raises ``RuleError`` at the first action the rules refuse, or ``ValueError`` when a replayed hand
    ends differently from its record.
    """
    game = new_game(config, seed=seed, first_dealer=first_dealer)
    for number, record in enumerate(hands):
        if number:
            game.next_hand()
        for event in record.events:
            if event.verb == DEALT:
                game.apply_deal([list(cards) for cards in event.arg])
            else:
                game.apply(Action(event.seat, event.verb, event.arg))
        if game.last_hand != record:
            raise ValueError(f"hand {record.hand_no} replays to {game.last_hand}, recorded {record}")
    return game
