"""Words a user writes: the variant names and the verbs the sources use (issue 26's rough edges)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.history import read_text, record_text
from pipeline.variants import UnknownVariant, get_variant

CANONICAL = Path(__file__).parent / "data" / "canonical"


@pytest.mark.parametrize("name", ["truc", "TRUC", "truco"])
def test_the_family_s_name_suggests_no_variant(name: str) -> None:
    # '--variant truc' suggested 'trut', a different game
    with pytest.raises(UnknownVariant) as caught:
        get_variant(name)
    assert "trut'?" not in str(caught.value) and "the family's name" in str(caught.value)
    assert "variants: catalan, french, trut" in str(caught.value)


def test_a_mistyped_variant_is_still_suggested() -> None:
    with pytest.raises(UnknownVariant, match=r"did you mean 'catalan'\?"):
        get_variant("catalen")


@pytest.mark.parametrize(
    ("file", "verb", "word"),
    [
        ("valencian_envit_2p.truc", "accept", "vull"),
        ("valencian_envit_2p.truc", "truc", "Truque"),
        ("valencian_envit_2p.truc", "envit", "envide"),
        ("trut_gatine_4p.truc", "hold", "tenir"),
    ],
)
def test_a_verb_the_sources_use_is_read_and_written_back_canonical(file: str, verb: str, word: str) -> None:
    # Catalan players write 'vull' for accept (FORMAT.md); seed 004 says 'envide' and 'truque', seed 003 'tenir'
    canonical = (CANONICAL / file).read_text("utf-8")
    assert f" {verb}\n" in canonical
    spoken = canonical.replace(f" {verb}\n", f" {word}\n")
    assert [record_text(game) for game in read_text(spoken).games] == [canonical]
