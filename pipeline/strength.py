"""Exact hand strength: what "weak" and "strong" mean in the statistics.

The strength of a hand, in a game where a seat faces ``opponents`` opposing hands (1 heads-up; 2 in a
4-player game and in 3-player Trut; 3 in 6-player Trut), is the probability that it beats every one of
those hands, drawn uniformly one after another from the remaining cards: beating a hand means winning
the hand heads-up against it, with no raises, both sides playing the reference card-play rule below,
with the lead of that duel decided by a fair coin (the two positions averaged). A partner's hand is
not part of it: a seat judges what it sees. With one opponent this is the heads-up strength.

Only a card's power matters to the play, so hands are grouped by the multiset of their powers and every
opposing multiset is weighted by the number of ways to draw it: the result is exact, computed by
enumeration in integers (``beat_every_hand``).

The percentile is the mid-rank of a hand's strength among all hands of that size, weighted by how many
hands (with suits) share each power multiset: 0 is the weakest hand, 1 the strongest.

Reference card-play rule (also the ``threshold`` policy's card play):
- leading a trick: play the highest card;
- following: if a partner's card is already winning the trick, play the lowest card; otherwise play the
  lowest card that beats every opposing card; failing that, a card that ties the best opposing card;
  failing that, the lowest card.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations_with_replacement
from math import comb, factorial, prod
from pathlib import Path
from typing import Final

import pipeline
from pipeline.engine.card_sets import three_card_rank
from pipeline.engine.rules import TIE, Variant


def lead_card(cards: list[int], power: tuple[int, ...]) -> int:
    """Position of the card to lead among ``cards`` (``power``: card -> power): the highest (the first of
    equal highest)."""
    best = 0
    best_power = power[cards[0]]
    for i in range(1, len(cards)):
        p = power[cards[i]]
        if p > best_power:
            best, best_power = i, p
    return best


def follow_card(cards: list[int], power: tuple[int, ...], best_opposing: int, partner_winning: bool) -> int:
    """Position of the card to play among ``cards`` when following, given the best opposing power on the
    table: the lowest card if a partner wins the trick; else the lowest card that beats every opposing
    card; else the first card that ties; else the lowest card (one pass: this runs for every card
    followed, read straight from the seat's hand)."""
    lowest = winner = tie = -1
    low_power = win_power = 1 << 30
    for i in range(len(cards)):
        p = power[cards[i]]
        if p < low_power:
            lowest, low_power = i, p
        if p > best_opposing:
            if p < win_power:
                winner, win_power = i, p
        elif p == best_opposing and tie < 0:
            tie = i
    if partner_winning:
        return lowest
    if winner >= 0:
        return winner
    return tie if tie >= 0 else lowest


POWER_AS_CARD: Final = tuple(range(64))
"""The power of a power is itself: the tables play hands of powers by the same rule as the bots' cards."""


def heads_up_win(variant: Variant, mine: tuple[int, ...], theirs: tuple[int, ...], i_lead: bool) -> bool:
    """Whether ``mine`` beats ``theirs`` (powers) heads-up, both playing the reference rule."""
    a, b = list(mine), list(theirs)
    total = len(a)
    eldest_team = 0 if i_lead else 1
    tricks: list[int] = []
    me_leading = i_lead
    while True:
        if me_leading:
            x = a.pop(lead_card(a, POWER_AS_CARD))
            y = b.pop(follow_card(b, POWER_AS_CARD, x, False))
        else:
            y = b.pop(lead_card(b, POWER_AS_CARD))
            x = a.pop(follow_card(a, POWER_AS_CARD, y, False))
        result = 0 if x > y else (1 if y > x else TIE)
        tricks.append(result)
        decided = variant.hand_rule(tricks, total, eldest_team)
        if decided is not None:
            return decided[0] == 0
        if result != TIE:
            me_leading = result == 0
        elif variant.tie_lead == "maker":
            me_leading = not me_leading


@dataclass(frozen=True)
class StrengthTable:
    """Strength and percentile per hand, keyed by the hand's powers sorted high to low."""

    variant: str
    size: int
    strength: dict[tuple[int, ...], float]
    percentile: dict[tuple[int, ...], float]
    _pairs: dict[tuple[int, ...], tuple[float, float]] = field(default_factory=dict, compare=False, repr=False)

    def key(self, power: Sequence[int], cards: Sequence[int]) -> tuple[int, ...]:
        return tuple(sorted((power[c] for c in cards), reverse=True))

    def lookup(self, power: Sequence[int], cards: Sequence[int]) -> tuple[float, float]:
        """(strength, percentile) of ``cards``: one shared pair per power multiset. ``hand_strength`` keeps
        a pair for each of the thousands of sets of cards; sharing the few hundred pairs keeps them in
        the processor's cache, where a pair of its own per set often missed it (over random hands, a
        lookup took 170 ns instead of 245)."""
        key = tuple(sorted((power[c] for c in cards), reverse=True))
        pairs = self._pairs
        pair = pairs.get(key)
        if pair is None:
            pair = pairs[key] = (self.strength[key], self.percentile[key])
        return pair


@functools.cache
def strength_table(variant: Variant, size: int = 3, opponents: int = 1) -> StrengthTable:
    """The exact strength of every hand of ``size`` cards in ``variant`` against ``opponents`` opposing
    hands: computed once per process, and kept on disk between runs (``cache_folder()``), keyed by
    everything the numbers depend on."""
    key = _fingerprint(variant, size, opponents, code_digest())
    name = f"strength-{variant.name}-{size}-vs{opponents}-{key}.json"
    path = cache_folder() / name
    try:
        saved = json.loads(path.read_text("utf-8"))
        return StrengthTable(
            variant.name,
            size,
            {tuple(k): v for k, v in saved["strength"]},
            {tuple(k): v for k, v in saved["percentile"]},
        )
    except (OSError, ValueError, KeyError, TypeError):
        pass
    table = compute_strength_table(variant, size, opponents)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps({k: [[list(h), v] for h, v in getattr(table, k).items()] for k in ("strength", "percentile")})
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(text, "utf-8")
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only home: the table is simply computed again next time
    return table


def hand_strength(variant: Variant, cards: tuple[int, ...], opponents: int = 1) -> tuple[float, float]:
    """(strength, percentile) of the hand ``cards`` (every card known) against ``opponents`` hands, looked
    up once per set of cards, variant and opponents in a process, so that bots and rows do not sort the
    same cards again. Bots ask at every hand: a 3-card hand is found in a list by its rank among all sets
    of 3 cards (``three_card_rank``), the cheapest lookup; other sizes by a bit mask of the cards in a dict."""
    known = _STRENGTH_BY_SET.get(variant)
    if known is None:
        known = _STRENGTH_BY_SET[variant] = ([[] for _ in range(_MOST_OPPONENTS + 1)], {})
    if len(cards) == 3:
        rank = three_card_rank(cards[0], cards[1], cards[2])
        triples = known[0][opponents]
        if not triples:
            triples.extend([None] * comb(len(variant.power), 3))
        found = triples[rank]
        if found is None:
            found = triples[rank] = strength_table(variant, 3, opponents).lookup(variant.power, cards)
        return found
    mask = opponents
    for card in cards:
        mask |= 1 << (card + 3)
    found = known[1].get(mask)
    if found is None:
        found = known[1][mask] = strength_table(variant, len(cards), opponents).lookup(variant.power, cards)
    return found


_MOST_OPPONENTS: Final = 7  # three bits of the mask; 3 at most in any variant (6-player Trut)
_KnownStrengths = tuple[list[list[tuple[float, float] | None]], dict[int, tuple[float, float]]]
_STRENGTH_BY_SET: Final[dict[Variant, _KnownStrengths]] = {}


DEFINITION: Final = "beats every opposing hand heads-up"
"""What the ``strength`` columns mean, as datasets' manifests record it (``docs/strength.md``): datasets
written before strength depended on the player count have no such entry and are heads-up throughout."""

DEFINING_SOURCES: Final = ("strength.py", "engine/hand_rules.py")
"""The code a strength table's numbers follow from, besides the variant's powers and tie lead: the card
play, the duel and the counting here, the tie rules of ``hand_rules``. Its text is part of the cache key,
so a changed rule computes the tables again rather than reading stale ones."""


def cache_folder() -> Path:
    """Where strength tables are kept: ``$TRUC_CACHE``, else ``$XDG_CACHE_HOME/truc-lab``, else
    ``~/.cache/truc-lab``."""
    if os.environ.get("TRUC_CACHE"):
        return Path(os.environ["TRUC_CACHE"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "truc-lab"


def package_folder() -> Path:
    """The folder of the ``pipeline`` package, where the compiled modules' sources sit beside them (a
    compiled module's own ``__file__`` names the shared library instead)."""
    return Path(pipeline.__file__).parent


@functools.cache
def code_digest(package: Path | None = None) -> str:
    """A digest of the text of ``DEFINING_SOURCES`` under ``package`` (by default ``package_folder()``).
    A source that cannot be read counts by its name alone."""
    package = package or package_folder()
    digest = hashlib.blake2b(digest_size=8)
    for name in DEFINING_SOURCES:
        digest.update(name.encode())
        with contextlib.suppress(OSError):
            digest.update((package / name).read_bytes())
    return digest.hexdigest()


def _fingerprint(variant: Variant, size: int, opponents: int, code: str) -> str:
    """A digest of what a strength table depends on: the code that computes it, the powers, the hand rule,
    the tie lead, the number of opposing hands."""
    rule = variant.hand_rule
    key = repr((code, size, opponents, variant.power, rule.__module__, rule.__qualname__, variant.tie_lead))
    return hashlib.blake2b(key.encode(), digest_size=8).hexdigest()


def compute_strength_table(variant: Variant, size: int = 3, opponents: int = 1) -> StrengthTable:
    """Enumerate every hand of ``size`` cards against every opposing hand (no cache)."""
    counts = Counter(variant.power)  # power -> number of cards with it
    levels = sorted(counts, reverse=True)
    hands = [h for h in combinations_with_replacement(levels, size) if _fits(h, counts)]
    weight = {h: _ways(h, counts) for h in hands}
    strength: dict[tuple[int, ...], float] = {}
    for mine in hands:
        left = counts.copy()
        left.subtract(mine)
        duels = [
            (theirs, heads_up_win(variant, mine, theirs, True) + heads_up_win(variant, mine, theirs, False))
            for theirs in hands
            if _fits(theirs, left)
        ]
        strength[mine] = beat_every_hand(duels, left, size, opponents)
    all_hands = sum(weight.values())
    percentile = {}
    for h, s in strength.items():
        below = sum(weight[o] for o, t in strength.items() if t < s)
        equal = sum(weight[o] for o, t in strength.items() if t == s)
        percentile[h] = (below + equal / 2) / all_hands
    return StrengthTable(variant.name, size, strength, percentile)


def beat_every_hand(duels: list[tuple[tuple[int, ...], int]], left: Counter[int], size: int, opponents: int) -> float:
    """The probability of beating each of ``opponents`` hands of ``size`` cards drawn one after another
    from the cards ``left`` (power -> count), given ``duels``: every opposing power multiset that fits,
    with the number of the two positions in which the hand beats it (0, 1 or 2).

    Exact, in integers. The ways to deal the multisets m_1..m_k to k opposing seats in turn are
    prod_l left_l! / ((left_l - u_l)! prod_j m_jl!), where u = m_1 + ... + m_k is the use of each power
    level: so the sum over k-tuples is a k-fold product of one polynomial in the uses (each hand weighted
    by its duels won times size!/prod m_l!), each term then multiplied by the falling factorials of
    ``left``. A use vector is an int with one 4-bit field per level (a field never exceeds 7: at most 4
    cards of a power, plus 3); adding ``over`` sets a field's top bit when it exceeds the cards left.
    """
    levels = sorted(left)
    field = {power: 4 * i for i, power in enumerate(levels)}
    over = sum((7 - left[power]) << field[power] for power in levels)
    top_bits = sum(8 << field[power] for power in levels)
    one_hand: dict[int, int] = {}
    for theirs, won in duels:
        if won:
            use = sum(1 << field[power] for power in theirs)
            one_hand[use] = won * factorial(size) // prod([factorial(k) for k in Counter(theirs).values()])
    dealt = one_hand
    for _ in range(opponents - 1):
        more: dict[int, int] = {}
        for use, ways in dealt.items():
            for hand_use, hand_ways in one_hand.items():
                both = use + hand_use
                if (both + over) & top_bits == 0:
                    more[both] = more.get(both, 0) + ways * hand_ways
        dealt = more
    won_ways = 0
    for use, ways in dealt.items():
        for power in levels:
            taken = (use >> field[power]) & 15
            for i in range(taken):
                ways *= left[power] - i
        won_ways += ways
    cards_left = sum(left.values())
    all_ways = 2**opponents * prod(range(cards_left - size * opponents + 1, cards_left + 1))
    return won_ways / all_ways


def _fits(hand: tuple[int, ...], counts: Counter[int]) -> bool:
    return all(counts[p] >= k for p, k in Counter(hand).items())


def _ways(hand: tuple[int, ...], counts: Counter[int]) -> int:
    return prod([comb(counts[p], k) for p, k in Counter(hand).items()])
