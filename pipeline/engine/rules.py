"""What a variant is made of: data checked once, plus small named rule functions.

A ``Variant`` holds the deck, the rank order, the raise ladder, the scoring target, the hand-deciding
rule, the tie-lead rule, the special phases and the options it accepts. ``Variant.configure`` turns
options given as text (``players=2 signals=on``) into a ``Config`` a game is played under.

The engine (``pipeline.engine.game``) reads only these fields, so a new variant is a new ``Variant``
value plus, where data is not enough, a new named function here or a new phase in the engine.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Final

from pipeline.cards import Deck
from pipeline.names import did_you_mean

TIE: Final = -1
"""A trick's result when the top cards of the two teams are equal."""


class OptionError(ValueError):
    """An option is unknown or has a value the variant does not accept."""


@dataclass(frozen=True)
class Rung:
    """One step of a raise ladder: the verb that proposes it and the stake it proposes."""

    verb: str
    stake: int


@dataclass(frozen=True)
class OptionSpec:
    """A variant option: its values as text, the default, what it means, and the player counts at which it
    changes the game (empty: at every count; partners' signals mean nothing with 2 players). An ``implicit``
    option, added after games were recorded, is left out of a configuration's options at its default, so the
    games played before it existed read, write and pool as they did (the trut's reduced ``deck``)."""

    name: str
    values: tuple[str, ...]
    default: str
    help: str
    players: tuple[int, ...] = ()
    implicit: bool = False  # left out of a configuration at its default (``Variant.configure``)

    def applies_at(self, players: int) -> bool:
        return not self.players or players in self.players

    def __post_init__(self) -> None:
        if self.default not in self.values:
            raise ValueError(f"option {self.name}: default {self.default!r} is not among {self.values}")


HandRule = Callable[[list[int], int, int], "tuple[int | None, str | None] | None"]
"""(trick results so far, tricks in the hand, eldest's team) -> None while undecided, else
(winning team or None for a void hand, name of the tie rule that decided it or None)."""


TIE_LEADS: Final = ("leader", "maker", "first")
"""Who leads after a tied trick: the player who led it, the one who made the tie (the first to match the
best card for another side), or the one who played the first of the equal top cards."""


@dataclass(frozen=True, eq=False)
class Variant:
    """A member of the Truc family, as data. Compared and hashed by identity: each variant is built once,
    and hashing its tables on every cache lookup would cost more than the lookup."""

    name: str
    title: str
    source: str  # the seed file and section it follows
    deck: Deck
    rank_order: tuple[str, ...]  # ranks, high to low
    players: tuple[int, ...]
    target: int
    ladder: tuple[Rung, ...]
    hand_rule: HandRule
    tie_lead: str
    one_card_deal: bool  # the cutter may decline to cut and the dealer deal one card each
    eleven_points: bool  # a team one point from the target decides to hold (stake 3) or pass
    signals: bool  # partners may signal the cards they hold
    options: tuple[OptionSpec, ...]
    engine: type  # the engine class that plays it (a subclass of pipeline.engine.game.Game)
    three_players_alone: bool = False  # with 3 players each plays alone (3 sides)
    unit: str = "points"  # what a game's score counts: points, longs, cames
    seat_values: Callable[[Sequence[int]], dict[str, Any]] | None = None  # per-seat columns (envit value)
    verbs: frozenset[str] = frozenset()  # its moves' verbs (FORMAT.md "Verbs"): a refusal tells a foreign verb
    reduced_deck: Deck | None = None  # the smaller deck its option ``deck`` picks, for exact solving
    power: tuple[int, ...] = field(init=False)  # per card index: higher beats lower, equal ties

    def __post_init__(self) -> None:
        if sorted(self.rank_order) != sorted(set(self.deck.ranks)):
            raise ValueError(f"{self.name}: rank order {self.rank_order} does not cover the deck's ranks")
        if self.tie_lead not in TIE_LEADS:
            raise ValueError(f"{self.name}: tie_lead must be one of {TIE_LEADS}")
        stakes = [r.stake for r in self.ladder]
        if stakes != sorted(set(stakes)) or (stakes and stakes[0] <= 1):
            raise ValueError(f"{self.name}: raise ladder stakes must rise from above 1: {stakes}")
        if not self.verbs or not set(self.raise_verbs) <= self.verbs:
            raise ValueError(f"{self.name}: verbs must name every move, the ladder's too: {sorted(self.verbs)}")
        names = [o.name for o in self.options]
        if "players" not in names or len(names) != len(set(names)):
            raise ValueError(f"{self.name}: options must name 'players' once each: {names}")
        height = {rank: len(self.rank_order) - i for i, rank in enumerate(self.rank_order)}
        object.__setattr__(self, "power", tuple(height[r] for r in self.deck.rank_of))

    def sides(self, players: int) -> int:
        """How many sides score: 2 teams, or 3 when three players each play alone."""
        return 3 if players == 3 and self.three_players_alone else 2

    @functools.cached_property
    def raise_verbs(self) -> tuple[str, ...]:
        """The ladder's verbs (computed once: the policies ask for them at every raise)."""
        return tuple(r.verb for r in self.ladder)

    @functools.cached_property
    def with_reduced_deck(self) -> Variant:
        """The same rules played with ``reduced_deck`` (its ranks in this variant's order), built once: a
        variant is compared by identity, so every game of that deck gets this one object."""
        deck = self.reduced_deck
        if deck is None:
            raise ValueError(f"{self.name} has no reduced deck")
        rank_order = tuple(rank for rank in self.rank_order if rank in deck.ranks)
        return replace(self, deck=deck, rank_order=rank_order, reduced_deck=None)

    def option(self, name: str) -> OptionSpec:
        for spec in self.options:
            if spec.name == name:
                return spec
        names = [o.name for o in self.options]
        raise OptionError(f"{self.name} has no option {name!r}{did_you_mean(name, names)}; options: {', '.join(names)}")

    def configure(self, options: Mapping[str, str] | None = None) -> Config:
        """Check options given as text against the variant; return the full configuration."""
        given = dict(options or {})
        resolved = {}
        for spec in self.options:
            value = str(given.pop(spec.name, spec.default)).lower()
            if value in SWITCH_WORDS and set(spec.values) == {"on", "off"}:
                value = SWITCH_WORDS[value]
            if value not in spec.values:
                raise OptionError(
                    f"{self.name}: option {spec.name}={value!r} is not allowed{did_you_mean(value, spec.values)}; "
                    f"choose one of {', '.join(spec.values)}"
                )
            if not (spec.implicit and value == spec.default):
                resolved[spec.name] = value
        if given:
            names = [o.name for o in self.options]
            unknown = ", ".join(f"{key}{did_you_mean(key, names)}" for key in sorted(given))
            raise OptionError(f"{self.name}: unknown option {unknown}; options: {', '.join(names)}")
        if self.reduced_deck is not None and REDUCED_DECK_OPTION in resolved:
            return self._reduced_config(resolved)
        return Config(self, MappingProxyType(resolved))

    def _reduced_config(self, resolved: dict[str, str]) -> Config:
        """The configuration of a game with the reduced deck: its variant is ``with_reduced_deck``, played only
        at the player counts its option names."""
        spec, players = self.option(REDUCED_DECK_OPTION), int(resolved["players"])
        if not spec.applies_at(players):
            deck = resolved[REDUCED_DECK_OPTION]
            counts = " or ".join(str(n) for n in spec.players)
            raise OptionError(f"{self.name}: deck={deck} is played by {counts} players, not {players}")
        return Config(self.with_reduced_deck, MappingProxyType(resolved))


REDUCED_DECK_OPTION: Final = "deck"
"""The option that picks a variant's ``reduced_deck`` (an implicit option: at its default, the full deck, it is
not in a configuration's options, so every game recorded before it reads, writes and pools as it did)."""

SWITCH_WORDS: Final = {"true": "on", "yes": "on", "1": "on", "false": "off", "no": "off", "0": "off"}
"""Other words for an on/off option's values (RULES.md writes ``rubber=false``), recorded as on or off."""


@dataclass(frozen=True)
class Config:
    """A variant with every option resolved: what one game is played under."""

    variant: Variant
    options: Mapping[str, str]

    @functools.cached_property
    def players(self) -> int:
        return int(self.options["players"])

    @property
    def opponents(self) -> int:
        """How many opposing hands a seat faces (every seat not on its side): hand strength is judged
        against them (``pipeline.strength``)."""
        players = self.players
        return players - players // self.variant.sides(players)

    @property
    def signals(self) -> bool:
        """Partners signal: the variant has signals, the option is on, and the player count is one where the
        option changes the game (``OptionSpec.players``: 4, with partners)."""
        variant = self.variant
        return (
            variant.signals
            and self.options.get("signals") == "on"
            and variant.option("signals").applies_at(self.players)
        )

    def options_text(self) -> str:
        """Canonical ``k=v`` pairs, every option included, in the variant's order."""
        return self._options_text

    @functools.cached_property
    def _options_text(self) -> str:
        """``options_text``, made once: every game's row and identity, and every game read, ask for it."""
        return " ".join(f"{k}={v}" for k, v in self.options.items())


def parse_options(text: str) -> dict[str, str]:
    """``"players=4 signals=on"`` -> dict; raises ``OptionError`` on a malformed pair or a key given twice
    (in any letter case: the keys are read so)."""
    result: dict[str, str] = {}
    folded: set[str] = set()  # the keys of result, lower case
    for pair in text.split():
        key, sep, value = pair.partition("=")
        if not sep or not key or not value:
            raise OptionError(f"option {pair!r} is not of the form key=value")
        if key.lower() in folded:
            raise OptionError(f"option {key.lower()!r} is given twice")
        result[key] = value
        folded.add(key.lower())
    return result
