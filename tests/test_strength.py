"""Exact hand strength (pipeline/strength.py) and the reference card-play rule."""

from __future__ import annotations

from math import comb

import pytest

from pipeline.cards import SPANISH_40
from pipeline.strength import follow_card, heads_up_win, lead_card, strength_table
from pipeline.variants import CATALAN


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
    assert lead_card([3, 9, 5]) == 1
    assert follow_card([3, 9, 5], best_opposing=4, partner_winning=False) == 2  # the lowest winner
    assert follow_card([3, 9, 5], best_opposing=9, partner_winning=False) == 1  # a tie when no winner
    assert follow_card([3, 8, 5], best_opposing=9, partner_winning=False) == 0  # else the lowest
    assert follow_card([3, 9, 5], best_opposing=4, partner_winning=True) == 0  # partner wins: the lowest


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
