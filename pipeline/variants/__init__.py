"""The registry of variants. Each variant lives in its own module and imports only the engine's rules.

A ``Config`` pickles as its variant's name and options (``copyreg``, registered here): a variant holds
functions and tables that are rebuilt by configuring the variant again, which gives the same value."""

import copyreg
from collections.abc import Callable, Mapping

from pipeline.engine.rules import Config, Variant
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


def configured(name: str, options: Mapping[str, str]) -> Config:
    """The configuration of variant ``name`` under ``options`` (how a pickled ``Config`` is read back)."""
    return get_variant(name).configure(options)


def _reduce_config(config: Config) -> tuple[Callable[..., Config], tuple[str, dict[str, str]]]:
    return configured, (config.variant.name, dict(config.options))


copyreg.pickle(Config, _reduce_config)
