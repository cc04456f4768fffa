"""Words in messages: the valid names nearest to a mistyped one, for "did you mean ...?" in an error, and
counts in English (``counted``).

Every error that refuses a name (a variant, an option or its value, a policy or its parameter, a
statistic, its parameter or column, a verb or tag of the text format) still lists the valid names; this adds
the one or two the user most likely meant, so ``--variant catalen`` says ``did you mean 'catalan'?``.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

CUTOFF = 0.6
"""How alike a name must be to be suggested (``difflib``'s ratio: 0 nothing shared, 1 the same)."""

RUNNER_UP = 0.15
"""A second name is suggested too only when it is nearly as alike as the first (within this much)."""


def nearest(name: str, choices: Iterable[str]) -> list[str]:
    """The valid names close to ``name`` (case aside), the closest first: one, or two when the second is
    nearly as close; none when nothing is close."""
    folded = name.lower()
    scores = [(_likeness(folded, c.lower()), c) for c in dict.fromkeys(choices)]
    scored = sorted((pair for pair in scores if pair[0] >= CUTOFF), key=lambda pair: -pair[0])  # stable
    return [choice for score, choice in scored[:2] if score >= scored[0][0] - RUNNER_UP]


def _likeness(name: str, choice: str) -> float:
    """``difflib``'s ratio of two names, or 0 when it cannot reach ``CUTOFF``. The bounds it checks first
    (from the lengths alone, then from the letters shared) take time linear in the names, where the ratio
    itself is quadratic: a mistyped name of megabytes is compared in no time."""
    matcher = difflib.SequenceMatcher(None, name, choice)
    if matcher.real_quick_ratio() < CUTOFF or matcher.quick_ratio() < CUTOFF:
        return 0.0
    return matcher.ratio()


def did_you_mean(name: str, choices: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` or `` (did you mean 'x' or 'y'?)`` to put after the name an error
    refuses; empty when no valid name is close."""
    found = nearest(name, choices)
    if not found:
        return ""
    return f" (did you mean {' or '.join(map(repr, found))}?)"


def counted(n: int, thing: str) -> str:
    """``n`` things, in English: ``1 file``, ``2 files``, ``1,000 games``, ``2 matches``."""
    plural = "es" if thing.endswith(("ch", "sh", "s", "x")) else "s"
    return f"{n:,} {thing}{plural * (n != 1)}"


def bounds_text(low: float | None, high: float | None) -> str | None:
    """A numeric range in words: ``between 0 and 1``, ``at least 1``, ``at most 9``; None when unbounded."""
    if low is not None and high is not None:
        return f"between {low:g} and {high:g}"
    if low is not None:
        return f"at least {low:g}"
    if high is not None:
        return f"at most {high:g}"
    return None
