"""The registry of variants. Each variant lives in its own module and imports only the engine's rules."""

from pipeline.engine.rules import Variant
from pipeline.names import did_you_mean
from pipeline.variants.catalan import CATALAN
from pipeline.variants.french import FRENCH
from pipeline.variants.trut import TRUT
from pipeline.variants.trut_gatinaise import TRUT_GATINAISE
from pipeline.variants.trut_gatine import TRUT_GATINE
from pipeline.variants.valencian import VALENCIAN

__all__ = [
    "CATALAN",
    "FRENCH",
    "TRUT",
    "TRUT_GATINAISE",
    "TRUT_GATINE",
    "VALENCIAN",
    "VARIANTS",
    "UnknownVariant",
    "get_variant",
]

VARIANTS: dict[str, Variant] = {v.name: v for v in (CATALAN, FRENCH, TRUT, TRUT_GATINAISE, TRUT_GATINE, VALENCIAN)}


class UnknownVariant(KeyError):
    def __str__(self) -> str:
        return str(self.args[0])


FAMILY_NAMES = frozenset({"truc", "truco", "trucs"})
"""Names of the whole family rather than of a variant: no variant is suggested for them ('truc' is a letter
from 'trut', a different game)."""


def get_variant(name: str) -> Variant:
    try:
        return VARIANTS[name.lower()]
    except KeyError:
        hint = (
            " (that is the family's name: name one of its variants)"
            if name.lower() in FAMILY_NAMES
            else did_you_mean(name, VARIANTS)
        )
        raise UnknownVariant(f"unknown variant {name!r}{hint}; variants: {', '.join(VARIANTS)}") from None
