"""Truc Lab's variants as OpenSpiel games (the optional extra ``truc-lab[research]``; docs/equilibrium.md).

Importing this package registers every variant with ``pyspiel`` as ``truc_<variant>`` (``-`` written ``_``:
``truc_trut_gatine``), with the parameters ``players``, ``options`` (the variant's other options, ``k=v``
pairs separated by spaces, or ``k:v`` in a game's string, where ``=`` is taken), ``scope`` (``hand`` or
``game``), ``deal`` (``cards`` or ``hands``), ``dealer``
(-1: the last seat, so seat 0 is the eldest), ``scores`` (a hand's starting scores, ``3:5``), ``petits``
(the trut family: the petits each side holds, ``2:2``) and
``max_hands`` (``scope=game``: a draw after this many hands). ``pyspiel.load_game("truc_trut(players=2)")``.
"""

from __future__ import annotations

from typing import Any

import pyspiel

from pipeline.engine.rules import Variant
from pipeline.openspiel.game import PREFIX, TrucGame, TrucState, game_name
from pipeline.variants import VARIANTS


def game_type(variant: Variant) -> Any:
    return pyspiel.GameType(
        short_name=game_name(variant.name),
        long_name=f"{variant.title} (Truc Lab)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(variant.players),
        min_num_players=min(variant.players),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": int(variant.option("players").default),
            "options": "",
            "scope": "hand",
            "deal": "cards",
            "dealer": -1,
            "scores": "",
            "petits": "",
            "max_hands": 100,
        },
    )


def _register(variant: Variant) -> None:
    """Register ``variant`` by a class of its own (OpenSpiel keeps the class it is given to build the game)."""
    kind = game_type(variant)

    def __init__(self: TrucGame, params: Any = None) -> None:
        TrucGame.__init__(self, kind, variant, {**kind.parameter_specification, **(params or {})})

    pyspiel.register_game(
        kind, type(f"Truc{variant.name.title().replace('-', '')}Game", (TrucGame,), {"__init__": __init__})
    )


_REGISTERED = set(pyspiel.registered_names())
for _variant in VARIANTS.values():
    if game_name(_variant.name) not in _REGISTERED:
        _register(_variant)

__all__ = ["PREFIX", "TrucGame", "TrucState", "game_name"]
