"""Exact hand strength (pipeline/strength.py) and the reference card-play rule."""

from __future__ import annotations

import functools
import itertools
import random
import shutil
from math import comb, prod

import pytest

from pipeline.cards import SPANISH_40, VALENCIAN_22
from pipeline.engine.card_sets import three_card_rank
from pipeline.strength import (
    compute_strength_table,
    follow_card,
    hand_strength,
    heads_up_win,
    lead_card,
    strength_table,
)
from pipeline.variants import CATALAN, TRUT, VALENCIAN


def cards(text: str) -> list[int]:
    return [SPANISH_40.parse(c) for c in text.split()]


def test_single_card_strength_matches_the_hand_count() -> None:
    table = strength_table(CATALAN, 1)
    # a 3 beats the 36 cards below it and ties the three other 3s; a tie goes to the eldest, so it
    # wins half of those (the two positions are averaged)
    assert table.lookup(CATALAN.power, cards("3o"))[0] == pytest.approx((36 + 3 / 2) / 39)
    assert table.lookup(CATALAN.power, cards("4o"))[0] == pytest.approx((3 / 2) / 39)


def test_three_card_table_covers_every_power_multiset_and_orders_hands() -> None:
    table = strength_table(CATALAN, 3)
    assert len(table.strength) == comb(10 + 2, 3)  # multisets of 3 among 10 ranks (4 of each: all fit)
    strongest = table.lookup(CATALAN.power, cards("3o 3c 3e"))
    weakest = table.lookup(CATALAN.power, cards("4o 4c 4e"))
    assert strongest[0] == 1.0 and weakest[0] == 0.0  # three 4s can never take two tricks
    assert strongest[1] > 0.99 and weakest[1] < 0.01
    assert table.lookup(CATALAN.power, cards("3o 2o 1o")) > table.lookup(CATALAN.power, cards("3o 2o 4o"))


def test_percentiles_are_mid_ranks_weighted_by_hands() -> None:
    table = strength_table(CATALAN, 1)
    # ten ranks, four cards each: the k-th rank from the bottom has mid-rank (k - 0.5) / 10
    pcts = sorted(table.percentile.values())
    assert pcts == pytest.approx([(k + 0.5) / 10 for k in range(10)])


def test_suits_do_not_change_strength() -> None:
    table = strength_table(CATALAN, 3)
    assert table.lookup(CATALAN.power, cards("3o 12c 5e")) == table.lookup(CATALAN.power, cards("3b 12o 5c"))


def test_reference_card_play() -> None:
    power = (0, 0, 0, 3, 0, 5, 0, 0, 8, 9)  # card -> power (here a card's power is its number)
    assert lead_card([3, 9, 5], power) == 1
    assert lead_card([8, 9, 9], (0,) * 8 + (9, 9)) == 0  # the first of equal highest
    assert follow_card([3, 9, 5], power, best_opposing=4, partner_winning=False) == 2  # the lowest winner
    assert follow_card([3, 9, 5], power, best_opposing=9, partner_winning=False) == 1  # a tie when no winner
    assert follow_card([3, 8, 5], power, best_opposing=9, partner_winning=False) == 0  # else the lowest
    assert follow_card([3, 9, 5], power, best_opposing=4, partner_winning=True) == 0  # partner wins: the lowest
    two_nines = (0,) * 8 + (9, 9)
    assert follow_card([9, 8], two_nines, best_opposing=9, partner_winning=False) == 0  # the first that ties


def test_heads_up_follows_the_tie_rules() -> None:
    p = CATALAN.power
    three_twos = tuple(p[c] for c in cards("3o 2o 1o"))
    same = tuple(p[c] for c in cards("3c 2c 1c"))
    assert heads_up_win(CATALAN, three_twos, same, True)  # all tied: the eldest (the leader) wins
    assert not heads_up_win(CATALAN, three_twos, same, False)


def test_the_disk_cache_gives_the_computed_table(tmp_path, monkeypatch) -> None:
    from pipeline import strength

    monkeypatch.setenv("TRUC_CACHE", str(tmp_path))
    strength.strength_table.cache_clear()
    try:
        first = strength.strength_table(CATALAN, 3)  # computed and saved
        assert len(list(tmp_path.glob("strength-catalan-3-*.json"))) == 1
        strength.strength_table.cache_clear()
        again = strength.strength_table(CATALAN, 3)  # read back from disk
        assert again.strength == first.strength == strength.compute_strength_table(CATALAN, 3).strength
        assert again.percentile == first.percentile
        next(tmp_path.glob("*.json")).write_text("{not json")
        strength.strength_table.cache_clear()
        assert strength.strength_table(CATALAN, 3).strength == first.strength  # a corrupt file is recomputed
    finally:
        strength.strength_table.cache_clear()


def test_the_disk_cache_is_keyed_by_the_code_that_computes_the_tables(tmp_path) -> None:
    """A change to the card play or to a tie rule must not read the tables an older rule computed."""
    from pipeline import strength

    package = strength.package_folder()
    assert (package / "strength.py").read_text().startswith('"""Exact hand strength')
    copy = tmp_path / "package"
    for name in strength.DEFINING_SOURCES:
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        (copy / name).write_bytes((package / name).read_bytes())
    assert strength.code_digest(copy) == strength.code_digest(package)
    for name in strength.DEFINING_SOURCES:
        edited = tmp_path / f"edited-{name.replace('/', '-')}"
        shutil.copytree(copy, edited)
        with (edited / name).open("a") as source:
            source.write("\n# a changed rule\n")
        assert strength.code_digest(edited) != strength.code_digest(package), name
    assert strength.code_digest(tmp_path / "nowhere") != strength.code_digest(package)
    keys = {strength._fingerprint(CATALAN, 3, 1, code) for code in ("old", "new")}
    assert len(keys) == 2


# --- strength per player count: the hand against every opposing hand at the table ------------------------


def _duel(variant, mine: tuple[int, ...], theirs: tuple[int, ...]) -> int:
    """Positions (of 2) in which ``mine`` beats ``theirs`` heads-up."""
    return heads_up_win(variant, mine, theirs, True) + heads_up_win(variant, mine, theirs, False)


def _by_card(variant, hand: list[int], opponents: int) -> float:
    """Brute force, card by card: every ordered deal of one card to each opponent."""
    p = variant.power
    mine = tuple(p[c] for c in hand)
    rest = [c for c in range(len(p)) if c not in hand]
    won = total = 0
    for deal in itertools.permutations(rest, opponents):
        total += 2**opponents
        won += prod(_duel(variant, mine, (p[c],)) for c in deal)
    return won / total


@pytest.mark.parametrize(
    ("variant", "card", "opponents"),
    [(CATALAN, "3o", 2), (CATALAN, "12c", 2), (CATALAN, "7b", 2), (TRUT, "8c", 3), (TRUT, "Kd", 3), (TRUT, "Ah", 2)],
)
def test_single_card_strength_against_several_opponents_is_exact(variant, card, opponents) -> None:
    hand = [variant.deck.parse(card)]
    strength = compute_strength_table(variant, 1, opponents).lookup(variant.power, hand)[0]  # not the disk cache
    assert strength == pytest.approx(_by_card(variant, hand, opponents), rel=1e-12)


def test_three_card_strength_against_two_opponents_is_exact() -> None:
    """Valencian Truc (22 cards): every ordered pair of disjoint opposing hands, card by card."""
    deck, p = VALENCIAN_22, VALENCIAN.power
    hand = [deck.parse(c) for c in ("1b", "3o", "5c")]
    mine = tuple(sorted((p[c] for c in hand), reverse=True))
    rest = [c for c in range(len(deck)) if c not in hand]
    key = functools.cache(lambda cards: _duel(VALENCIAN, mine, tuple(sorted((p[c] for c in cards), reverse=True))))
    won = total = 0
    for first in itertools.combinations(rest, 3):
        a = key(first)
        for second in itertools.combinations([c for c in rest if c not in first], 3):
            total += 4
            if a:
                won += a * key(second)
    strength = compute_strength_table(VALENCIAN, 3, 2).lookup(p, hand)[0]  # computed, not from the disk cache
    assert strength == pytest.approx(won / total, rel=1e-12)
    assert strength < strength_table(VALENCIAN, 3, 1).lookup(p, hand)[0]


@pytest.mark.parametrize(("variant", "most"), [(CATALAN, 2), (TRUT, 3)])
def test_more_opponents_never_make_a_hand_stronger(variant, most) -> None:
    tables = [strength_table(variant, 3, k) for k in range(1, most + 1)]
    middling = max(tables[0].strength, key=lambda h: -abs(tables[0].strength[h] - 0.5))
    for fewer, more in itertools.pairwise(tables):
        assert all(fewer.strength[hand] >= more.strength[hand] for hand in fewer.strength)
        assert more.strength[middling] < fewer.strength[middling]


def test_seats_record_the_strength_against_the_opponents_of_their_player_count() -> None:
    from pipeline.parts import new_batches
    from pipeline.playing import game_seed, play_game
    from pipeline.policies import parse_policy
    from pipeline.rows import add_game

    for players, opponents in ((2, 1), (3, 2), (6, 3)):
        config = TRUT.configure({"players": str(players)})
        game, hands = play_game(config, [parse_policy("threshold") for _ in range(players)], game_seed(5, players))
        batches = new_batches()
        add_game(batches, 1, game, hands, ["threshold"] * players, "test")
        seats = batches["seats"].rows
        assert seats
        for row, cards in zip(seats, (cards for hand in hands for cards in hand.dealt), strict=True):
            assert (row[6], row[7]) == hand_strength(TRUT, cards, opponents)


@pytest.mark.parametrize("variant", [CATALAN, TRUT, VALENCIAN])
def test_hand_strength_finds_the_table_entry_whatever_the_order_of_the_cards(variant) -> None:
    rng = random.Random(7)
    for _ in range(300):
        cards = rng.sample(range(len(variant.power)), 3)
        for opponents in (1, 2):
            expected = strength_table(variant, 3, opponents).lookup(variant.power, cards)
            for order in itertools.permutations(cards):
                assert hand_strength(variant, order, opponents) == expected
    one = [rng.randrange(len(variant.power))]
    assert hand_strength(variant, tuple(one), 2) == strength_table(variant, 1, 2).lookup(variant.power, one)
    # a hand of another size is kept per number of opponents too: one process may read several player counts
    middle = sorted(range(len(variant.power)), key=variant.power.__getitem__)[len(variant.power) // 2]
    alone, against_two = hand_strength(variant, (middle,), 1), hand_strength(variant, (middle,), 2)
    assert alone == strength_table(variant, 1, 1).lookup(variant.power, [middle]) != against_two


def test_three_card_rank_numbers_the_sets_of_three_cards_in_any_order() -> None:
    for n in (22, 32, 40, 48):
        ranks = [three_card_rank(*hand) for hand in itertools.combinations(range(n), 3)]
        assert sorted(ranks) == list(range(comb(n, 3)))
    assert all(
        len({three_card_rank(*order) for order in itertools.permutations(hand)}) == 1
        for hand in itertools.combinations(range(10), 3)
    )
    assert three_card_rank(0, 1, 2) == 0 and three_card_rank(2, 0, 3) == 2  # {0,2,3}: 0 + C(2,2) + C(3,3)
