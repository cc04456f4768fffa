"""Sets of three cards as list positions: what the per-hand tables of the hot path are indexed by.

A 3-card hand's strength (``pipeline.strength``) and a Valencian hand's envit value
(``pipeline.engine.valencian``) depend on the set of cards, not their order. Looking them up in a list at
the set's rank is cheaper than hashing a key, and a list of a few thousand entries stays in the
processor's cache.
"""

from __future__ import annotations


def three_card_rank(a: int, b: int, c: int) -> int:
    """The rank of the set {a, b, c} (distinct card indices, any order) among all sets of three cards, by
    the combinatorial number system: C(x,1) + C(y,2) + C(z,3) for x < y < z. The sets of a deck of n cards
    take the ranks 0 to C(n,3) - 1."""
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
        if a > b:
            a, b = b, a
    return a + b * (b - 1) // 2 + c * (c - 1) * (c - 2) // 6
