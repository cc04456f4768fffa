"""Truc Lab's bots as policies of the OpenSpiel games: the chance of each action at a state, from the bot's
``probabilities(view)`` (the policy protocol's optional member, ``pipeline.policies.base``); the ``search``
bot, which samples and has none, made deterministic (``seeded_search``); and the ``cfr`` bot's abstraction as
the export sees it (``state_abstraction``)."""

from __future__ import annotations

import hashlib
import random
from typing import Any

from pipeline.engine.view import SeatView
from pipeline.openspiel.encoding import SKIP
from pipeline.openspiel.game import TrucState
from pipeline.openspiel.solve import StateAbstraction, StatePolicy
from pipeline.policies.cfr import Abstraction
from pipeline.policies.search import SearchPolicy


def state_policy(bot: Any, seed: int = 0) -> StatePolicy:
    """``bot``'s chances at a ``TrucState``: its ``probabilities`` in the view of the seat to act (an optional
    actor's view is ``optional``; doing nothing is ``skip``); the search bot's are ``seeded_search``'s, from
    ``seed``."""
    if isinstance(bot, SearchPolicy):
        return seeded_search(bot, seed)
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


def seeded_search(bot: SearchPolicy, seed: int) -> StatePolicy:
    """The search bot made deterministic: at a ``TrucState`` the action of ``bot.step`` with certainty, its
    ``rng`` seeded by ``seed`` and the information state of the seat to act (``information_seed``), so every
    history of one information state gets the same choice. Its sampling error becomes a fixed choice per
    information state: another ``seed`` is another bot of the same kind. Each information state is searched
    once (memoised)."""
    chosen: dict[str, dict[int, float]] = {}

    def chances(state: TrucState) -> dict[int, float]:
        engine = state.engine
        seat = state.current_player()
        if state.discarding:
            raise ValueError("a discard chosen card by card has no bot probabilities")
        info = state.information_state_string(seat)
        known = chosen.get(info)
        if known is None:
            view = SeatView(engine, seat, seat != engine.actor())
            action = bot.step(view, random.Random(information_seed(seed, info)))
            key = SKIP if action is None else state.get_game().table.id_of(action.verb, action.arg)
            known = chosen[info] = {key: 1.0}
        return dict(known)

    return chances


def information_seed(seed: int, info: str) -> int:
    """A seed from ``seed`` and an information state string, the same in every process (a BLAKE2b digest, not
    Python's salted ``hash``)."""
    digest = hashlib.blake2b(f"{seed}\n{info}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


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
