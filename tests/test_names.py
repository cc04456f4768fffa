"""Mistyped names: every error that refuses a name suggests the valid names nearest to it."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline import stats
from pipeline.names import counted, did_you_mean, nearest
from pipeline.policies import PolicyError, parse_policy
from pipeline.variants import UnknownVariant, get_variant

VARIANT_NAMES = ("catalan", "french", "trut", "trut-gatinaise", "trut-gatine", "valencian")


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("catalen", ["catalan"]),  # one letter wrong
        ("valenciano", ["valencian"]),  # one letter too many
        ("trut-gat", ["trut-gatine", "trut-gatinaise"]),  # two about as close: both, the closer first
        ("Frnech", ["french"]),  # letter case aside
        ("mus", []),  # nothing close: no suggestion
        ("", []),
    ],
)
def test_nearest_names(name: str, expected: list[str]) -> None:
    assert nearest(name, VARIANT_NAMES) == expected


NAME_TEXT = st.text("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-", min_size=1, max_size=12)


@given(st.lists(NAME_TEXT, min_size=1, max_size=8, unique_by=str.lower), st.data())
def test_a_valid_name_is_its_own_nearest_and_every_suggestion_is_valid(choices: list[str], data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(choices))
    assert nearest(name.swapcase(), choices)[0] == name
    other = data.draw(st.text(max_size=12))
    found = nearest(other, choices)
    assert len(found) <= 2 and set(found) <= set(choices)
    assert (did_you_mean(other, choices) == "") == (found == [])


def test_a_far_runner_up_is_not_suggested() -> None:
    """'Varient' is one letter from 'Variant' and much further from 'Event': only the first is named."""
    assert nearest("Varient", ["Variant", "Options", "Event"]) == ["Variant"]


def test_did_you_mean_reads_as_a_parenthesis_or_says_nothing() -> None:
    assert did_you_mean("thresold", ["random", "threshold"]) == " (did you mean 'threshold'?)"
    assert did_you_mean("trut-gat", VARIANT_NAMES) == " (did you mean 'trut-gatine' or 'trut-gatinaise'?)"
    assert did_you_mean("poker", ["random", "threshold"]) == ""


@pytest.mark.parametrize(
    ("refuse", "error", "message"),
    [
        (
            lambda: get_variant("catalen"),
            UnknownVariant,
            "unknown variant 'catalen' (did you mean 'catalan'?); variants:",
        ),
        (lambda: parse_policy("thresold"), PolicyError, "unknown policy 'thresold' (did you mean 'threshold'?)"),
        (
            lambda: parse_policy("threshold:bluf=0.2"),
            PolicyError,
            "policy threshold has no parameter 'bluf' (did you mean 'bluff'?); parameters: raise_at",
        ),
        (
            lambda: get_variant("trut").configure({"tielead": "first"}),
            ValueError,
            "trut: unknown option tielead (did you mean 'tie_lead'?); options: players",
        ),
        (
            lambda: get_variant("trut").configure({"tie_lead": "frist"}),
            ValueError,
            "option tie_lead='frist' is not allowed (did you mean 'first'?); choose one of maker, first",
        ),
        (lambda: get_variant("valencian").option("bone"), ValueError, "no option 'bone' (did you mean 'bones'?)"),
        (lambda: stats.get_statistic("fold_rate"), stats.StatsError, "'fold_rate' (did you mean 'fold_rates'?)"),
        (
            lambda: stats.check_columns(stats.get_statistic("fold_rates"), ["varaint"]),
            stats.StatsError,
            "no column 'varaint' (did you mean 'variant'?); columns: variant",
        ),
    ],
    ids=[
        "variant",
        "policy",
        "policy parameter",
        "option",
        "option value",
        "option by name",
        "statistic",
        "column",
    ],
)
def test_each_refused_name_suggests_the_nearest(
    refuse: Callable[[], object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error) as caught:
        refuse()
    assert message in str(caught.value)


def test_an_unknown_option_among_several_gets_its_own_suggestion() -> None:
    with pytest.raises(ValueError) as caught:
        get_variant("valencian").configure({"twoos": "on", "bons": "12"})
    assert "unknown option bons (did you mean 'bones'?), twoos (did you mean 'twos'?)" in str(caught.value)


def test_a_mistyped_statistic_parameter_suggests_the_parameter() -> None:
    statistic = next(s for s in stats.list_statistics() if s.parameters)
    name = statistic.parameters[0].name
    with pytest.raises(stats.StatsError) as caught:
        stats.resolve_params(statistic, {name + "s": "1"})
    assert f"unknown parameter '{name}s' (did you mean '{name}'?) for {statistic.name}" in str(caught.value)


def test_counts_read_as_english() -> None:
    assert [counted(n, "game") for n in (0, 1, 2, 12345)] == ["0 games", "1 game", "2 games", "12,345 games"]


def test_counted_says_counts_in_english() -> None:
    assert [counted(1, "file"), counted(2, "file"), counted(1000, "game")] == ["1 file", "2 files", "1,000 games"]
    assert [counted(1, "match"), counted(20, "match"), counted(0, "problem")] == ["1 match", "20 matches", "0 problems"]
