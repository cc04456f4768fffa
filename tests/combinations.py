"""Every combination of a variant's options, for the property tests that must run on each of them."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

from pipeline.engine.rules import OptionError, Variant

SEEDS_PER_COMBINATION = 5
"""Games played on each combination, besides the random draws of the hypothesis tests."""


def option_combinations(variant: Variant) -> list[dict[str, str]]:
    """Every combination of the variant's option values that it accepts, in its options' order (the French
    36-card deck, for one, takes only its own ranking)."""
    names = [spec.name for spec in variant.options]
    combinations = []
    for values in itertools.product(*(spec.values for spec in variant.options)):
        options = dict(zip(names, values, strict=True))
        try:
            variant.configure(options)
        except OptionError:
            continue
        combinations.append(options)
    return combinations


def combination_id(options: dict[str, str]) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items())


def seat_specs(specs: Sequence[str], seed: int, seats: int) -> list[str]:
    """A mix of policies for ``seats`` seats that moves on with the seed, so that every policy sits at
    every seat over a few games."""
    return [specs[(seed + seat) % len(specs)] for seat in range(seats)]


def check_every_seed(
    check: Callable[[dict[str, str], list[str], int], None], options: dict[str, str], specs: Sequence[str], seats: int
) -> None:
    """Run a property file's ``check(options, policy specs, seed)`` on ``SEEDS_PER_COMBINATION`` games."""
    for seed in range(SEEDS_PER_COMBINATION):
        check(options, seat_specs(specs, seed, seats), seed)
