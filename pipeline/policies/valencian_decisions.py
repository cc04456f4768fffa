"""The `threshold` policy's decisions for the valencian family (a mixin of `ThresholdPolicy`).

Each decision is a method named after it (`Game.decision` names it). `PARAMS` declares this
family's parameters with their defaults (merged into the threshold policy's parameters).
"""

from __future__ import annotations


class ValencianDecisions:
    PARAMS: dict[str, float] = {}
