"""The run seed every command takes (``--seed``): its bound and the check that says so, in one place for the
simulator, the experiments and the OpenSpiel commands."""

from __future__ import annotations

from typing import Final

SEED_MAX: Final = 2**63 - 1
"""The largest run seed: the manifest's seed is read back as a 64-bit integer (as a ``Seed`` tag is). It also
bounds ``--games``, since a game's id is a 64-bit integer too."""


def check_seed(seed: int, error: type[ValueError] = ValueError) -> None:
    """Refuse a seed outside 0 to ``SEED_MAX`` with ``error`` (the command's own kind of input error)."""
    if not 0 <= seed <= SEED_MAX:
        raise error(f"--seed must be between 0 and {SEED_MAX} (a 64-bit integer), not {seed}")
