"""Paired games: every hand's deal comes from a random stream of its own (``engine.game.DealStream``), derived
from the game's seed and the hand's number (``playing.SEED_SCHEME``), so two games of one seed see the same
shuffle in every hand both play, whatever their bots chose before: a one-card deal, a French redeal, a Gâtine
chanter or "sec" redeal, a Gâtinaise chanson draw more or fewer cards in one game than in the other, and the
next hands still match."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline import accel
from pipeline.engine.actions import DEALT, PLAY, Action
from pipeline.engine.game import DealStream, HandRecord, new_game
from pipeline.engine.view import SeatView
from pipeline.playing import SEED_SCHEME, fast_path, game_seed, play_game
from pipeline.policies import Policy, parse_policy
from pipeline.variants import VARIANTS, get_variant

MASK32 = 0xFFFF_FFFF
MASK64 = 0xFFFF_FFFF_FFFF_FFFF
GOLDEN = 0x9E37_79B9_7F4A_7C15


# ------------------------------------------------------------------------------- the stream's algorithms
def splitmix64(state: int) -> int:
    """splitmix64's mix as published (Steele, Lea and Flood 2014), on Python integers."""
    z = ((state ^ (state >> 30)) * 0xBF58_476D_1CE4_E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D0_49BB_1331_11EB) & MASK64
    return z ^ (z >> 31)


def xoshiro128starstar(state: list[int], count: int) -> list[int]:
    """xoshiro128** as published (Blackman and Vigna 2018): ``count`` outputs from ``state``."""

    def rotl(x: int, k: int) -> int:
        return ((x << k) | (x >> (32 - k))) & MASK32

    s = list(state)
    out = []
    for _ in range(count):
        out.append(rotl((s[1] * 5) & MASK32, 7) * 9 & MASK32)
        t = (s[1] << 9) & MASK32
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 11)
    return out


def reference_stream(key: int, hand_no: int, count: int) -> list[int]:
    """What ``DealStream``'s docstring says hand ``hand_no`` draws: xoshiro128** seeded by outputs 2h-1 and 2h
    of splitmix64 started at the key, low half first."""
    first = splitmix64((key + (2 * hand_no - 1) * GOLDEN) & MASK64)
    second = splitmix64((key + 2 * hand_no * GOLDEN) & MASK64)
    return xoshiro128starstar([first & MASK32, first >> 32, second & MASK32, second >> 32], count)


def test_the_scheme_has_a_name_for_the_manifest() -> None:
    assert SEED_SCHEME == "hand-streams/1"


def test_the_stream_matches_the_published_algorithms_on_known_values() -> None:
    """splitmix64's first output from 1234567 is a published test value; xoshiro128** seeded from it too."""
    assert splitmix64((1234567 + GOLDEN) & MASK64) == 6457827717110365317
    stream = DealStream(12345)
    stream.start(1)
    assert [stream.next32() for _ in range(4)] == [2314518269, 2498321016, 2055377852, 4042509560]  # C reference


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=-(2**70), max_value=2**70), st.integers(min_value=1, max_value=2**31))
def test_every_hands_stream_is_the_published_xoshiro_seeded_by_splitmix(key: int, hand_no: int) -> None:
    stream = DealStream(key)
    assert stream.key == key & MASK64
    stream.start(hand_no)
    assert [stream.next32() for _ in range(12)] == reference_stream(key & MASK64, hand_no, 12)
    copy = stream.copy()
    assert [copy.next32() for _ in range(3)] == [stream.next32() for _ in range(3)]  # a copy goes on alike


def test_below_spreads_evenly_over_its_bound() -> None:
    """Positions drawn for a 40-card shuffle: each of 40 values about 1/40 of the time (a chi-squared bound
    far above what a uniform draw gives, far below what a skew of a few percent gives)."""
    stream = DealStream(7)
    counts = Counter()
    for hand in range(1, 2001):
        stream.start(hand)
        counts.update(stream.below(40) for _ in range(20))
    assert set(counts) == set(range(40))
    expected = 40_000 / 40
    chi2 = sum((counts[v] - expected) ** 2 / expected for v in range(40))
    assert chi2 < 80  # 39 degrees of freedom: p < 1e-4 above 80


def test_a_one_card_deal_takes_the_first_cards_of_the_same_shuffle() -> None:
    """Seed 000: after ``nocut`` the dealer may deal one card each. Drawn from the hand's stream, each seat
    gets the first card a three-card deal of the same hand would have given it."""
    for players in (2, 4):
        config = get_variant("catalan").configure({"players": str(players)})
        for seed in range(20):
            three = new_game(config, seed)
            one = new_game(config, seed)
            three.apply(Action(three.decider, "cut"))
            one.apply(Action(one.decider, "nocut"))
            one.apply(Action(one.decider, "deal", 1))
            three.deal()
            one.deal()
            assert all(len(cards) == 3 for cards in three.dealt)
            assert [cards[:1] for cards in three.dealt] == list(one.dealt)


# ------------------------------------------------------------------------------------------ paired games
class TieSeeker:
    """A test bot that seeks tied tricks: following, it plays a card of the power of the best card on the
    table when it holds one; otherwise, and for every other decision, it acts as the random bot. It makes
    the hands whose every trick is tied (Gâtine's "sec" redeal after a trut d'office) common enough to test."""

    name = "tie-seeker"

    def __init__(self) -> None:
        self.random = parse_policy("random")

    def describe(self, variant: str | None = None) -> str:
        return self.name

    def step(self, view: SeatView, rng: random.Random) -> Action | None:
        trick = view.trick
        if trick and not view.optional:
            plays = [a for a in view.legal() if a.verb == PLAY]
            power = view.power
            best = max(power[card] for _, card in trick)
            ties = [a for a in plays if power[a.arg] == best]  # type: ignore[index]
            if ties:
                return ties[0]
        return self.random.step(view, rng)


def first_deals(hands: Sequence[HandRecord]) -> dict[int, tuple[tuple[int, ...], ...]]:
    """Each hand's first deal (before any redeal or extra cards), by hand number."""
    return {hand.hand_no: next(e[2] for e in hand.event_tuples if e[1] == DEALT) for hand in hands}


def specials(hand: HandRecord) -> set[str]:
    """What in a hand drew more or other cards than a plain deal of three."""
    details = dict(hand.details)
    found = set()
    if hand.cards_dealt == 1:
        found.add("one_card")
    if details.get("redeals"):
        found.add("redeal")
    if details.get("special") in ("chanter", "chanson", "sec"):
        found.add(str(details["special"]))
    return found


# The settings of each variant's pairs, and what their games must reach (options chosen to reach them).
PAIRED = [
    ("catalan", {"players": "2"}, {"one_card"}),
    ("catalan", {"players": "4", "signals": "on"}, {"one_card"}),
    ("french", {"players": "2"}, {"redeal"}),
    ("french", {"players": "4"}, {"redeal"}),
    ("trut", {"players": "2"}, set()),
    ("trut", {"players": "3"}, set()),
    ("trut", {"players": "4"}, set()),
    ("trut", {"players": "6"}, set()),
    ("trut-gatinaise", {"players": "2"}, {"chanson"}),
    ("trut-gatinaise", {"players": "4"}, {"chanson"}),
    ("trut-gatine", {"players": "2"}, {"chanter", "sec"}),
    ("trut-gatine", {"players": "4"}, {"chanter"}),
    ("valencian", {"players": "2"}, set()),
    ("valencian", {"players": "4"}, set()),
]
GAMES = 10


def bots(kinds: Sequence[str]) -> list[Policy]:
    return [TieSeeker() if kind == "tie-seeker" else parse_policy(kind) for kind in kinds]


def policy_sets(players: int) -> list[tuple[list[str], list[str]]]:
    """Pairs of very different policy sets: the threshold bot against the random bot and the swap; threshold
    bots of very different parameters at every seat (in Trut with two sides, the native fast path plays
    both); tie seekers at every seat against threshold bots."""
    alternate = ["threshold" if seat % 2 == 0 else "random" for seat in range(players)]
    swapped = ["random" if seat % 2 == 0 else "threshold" for seat in range(players)]
    bold = (
        "threshold:raise_at=0.3,bluff=0.5,trut_at=0.3,trut_bluff=0.5,see_at=0.2,"
        "redeal_below=0.9,redeal_accept_below=0.9"  # French: redeals asked and agreed to often
    )
    return [
        (alternate, swapped),
        (["threshold"] * players, [bold] * players),
        (["tie-seeker"] * players, ["threshold"] * players),
    ]


def test_every_variant_and_player_count_is_paired() -> None:
    assert {(v, int(o["players"])) for v, o, _ in PAIRED} == {(v.name, p) for v in VARIANTS.values() for p in v.players}


@pytest.mark.parametrize(("variant", "options", "reached"), PAIRED, ids=lambda x: str(x))
def test_two_games_of_one_seed_deal_the_same_cards_in_every_hand_both_play(variant, options, reached) -> None:
    config = get_variant(variant).configure(options)
    players = config.players
    seen: Counter[str] = Counter()
    matched_after: Counter[str] = Counter()  # hands compared after a special hand in either game
    compared = fast = 0
    for first, second in policy_sets(players):
        for g in range(GAMES):
            seed = game_seed(2026, g)
            played = []
            for kinds in (first, second):
                policies = bots(kinds)
                fast += fast_path(config, policies) is not None
                played.append(play_game(config, policies, seed)[1])
            deals = [first_deals(hands) for hands in played]
            common = sorted(set(deals[0]) & set(deals[1]))
            assert common == list(range(1, len(common) + 1))
            for hand_no in common:
                a, b = deals[0][hand_no], deals[1][hand_no]
                for cards_a, cards_b in zip(a, b, strict=True):  # a one-card deal: the first card of three
                    size = min(len(cards_a), len(cards_b))
                    assert cards_a[:size] == cards_b[:size], (seed, hand_no)
                compared += 1
            before: set[str] = set()
            for hand_no in common:
                for name in before:
                    matched_after[name] += 1
                for hands in played:
                    found = specials(hands[hand_no - 1])
                    seen.update(found)
                    before |= found
    assert compared > 3 * GAMES  # more than one hand per game on average
    for name in reached:  # the games reached what draws other cards, and later hands still matched
        assert seen[name] > 0, f"no {name} hand in {variant} {options}"
        assert matched_after[name] > 0, f"no hand played after a {name} hand in {variant} {options}"
    if variant == "trut" and players != 3 and accel.native("pipeline._fast_trut") is not None:
        assert fast > 0  # the native path dealt some of these games, and they paired with the engine's


def test_the_same_seed_and_bots_replay_the_same_game() -> None:
    for variant in VARIANTS.values():
        for players in variant.players:
            config = variant.configure({"players": str(players)})
            kinds = ["threshold" if seat % 2 else "random" for seat in range(players)]
            for g in range(3):
                seed = game_seed(5, g)
                game_a, hands_a = play_game(config, bots(kinds), seed)
                game_b, hands_b = play_game(config, bots(kinds), seed)
                assert hands_a == hands_b
                assert game_a.scores == game_b.scores
            other = play_game(config, bots(kinds), game_seed(5, 99))[1]
            assert first_deals(other)[1] != first_deals(hands_a)[1]  # another seed, other cards
