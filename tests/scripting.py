"""Helpers to script a game in tests with the text notation: ``act(game, "0 play 3o")``."""

from __future__ import annotations

from pipeline.engine import game as engine
from pipeline.engine.actions import CUT, Action, Event
from pipeline.engine.game import Game, Phase
from pipeline.variants import get_variant


def new_game(players: int = 2, dealer: int = 0, scores: tuple[int, int] = (0, 0), **options: str) -> Game:
    config = get_variant("catalan").configure({"players": str(players), **options})
    return engine.new_game(config, seed=1, first_dealer=dealer, scores=scores)


def deal(game: Game, *hands: str) -> Event:
    """Deal the given cards (one string per seat, in seat order); cuts first if a cut is pending."""
    if game.phase == Phase.CUT:
        game.apply(Action(game.actor(), CUT))
    deck = game.variant.deck
    return game.apply_deal([[deck.parse(c) for c in h.split()] for h in hands])


def action(game: Game, text: str) -> Action:
    seat, verb, *rest = text.split()
    arg: int | str | None = None
    if verb == "play":
        arg = game.variant.deck.parse(rest[0])
    elif verb == "deal":
        arg = int(rest[0])
    elif rest:
        arg = " ".join(rest)  # one word, or the cards of a discard
    return Action(int(seat), verb, arg)


def act(game: Game, *lines: str) -> list[Event]:
    """Apply each action through the checked ``apply``."""
    return [game.apply(action(game, line)) for line in lines]
