"""Truc Lab's bots as policies of the OpenSpiel games: the chance of each action at a state, from the bot's
``probabilities(view)`` (the policy protocol's optional member, ``pipeline.policies.base``); and the ``cfr``
bot's abstraction as the export sees it (``state_abstraction``)."""

from __future__ import annotations

from typing import Any

from pipeline.engine.view import SeatView
from pipeline.openspiel.encoding import SKIP
from pipeline.openspiel.game import TrucState
from pipeline.openspiel.solve import StateAbstraction, StatePolicy
from pipeline.policies.cfr import Abstraction


def state_policy(bot: Any) -> StatePolicy:
    """``bot``'s chances at a ``TrucState``: its ``probabilities`` in the view of the seat to act (an optional
    actor's view is ``optional``; doing nothing is ``skip``)."""
    if not callable(getattr(bot, "probabilities", None)):
        raise ValueError(f"policy {bot.name} does not give its probabilities")

    def chances(state: TrucState) -> dict[int, float]:
        engine = state.engine
        seat = state.current_player()
        if state.discarding:
            raise ValueError("a discard chosen card by card has no bot probabilities")
        view = SeatView(engine, seat, seat != engine.actor())
        table = state.get_game().table
        out: dict[int, float] = {}
        for action, chance in bot.probabilities(view).items():
            if chance > 0:
                key = SKIP if action is None else table.id_of(action.verb, action.arg)
                out[key] = out.get(key, 0.0) + chance
        return out

    return chances


def state_abstraction(abstraction: Abstraction) -> StateAbstraction:
    """What ``abstraction`` shows the seat to act at a ``TrucState`` (``Abstraction.moment``): its key, and the
    abstract choice each legal action stands for (a card of the same power as one it stands for: none)."""

    def see(state: TrucState) -> tuple[str, dict[int, str]]:
        engine = state.engine
        seat = state.current_player()
        key, choices = abstraction.moment(SeatView(engine, seat, seat != engine.actor()))
        table = state.get_game().table
        return key, {SKIP if action is None else table.id_of(action.verb, action.arg): name for name, action in choices}

    return see
