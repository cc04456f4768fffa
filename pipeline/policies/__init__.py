"""Policies (bots) and the text spec that names one: ``NAME[:k=v,...]``."""

from __future__ import annotations

from pipeline.names import did_you_mean
from pipeline.policies.base import DecisionPolicy, Policy
from pipeline.policies.random_policy import RandomPolicy
from pipeline.policies.threshold import DEFAULTS as THRESHOLD_DEFAULTS
from pipeline.policies.threshold import PARAMS_BY_VARIANT as THRESHOLD_PARAMS_BY_VARIANT
from pipeline.policies.threshold import ThresholdPolicy

__all__ = ["POLICIES", "DecisionPolicy", "Policy", "PolicyError", "parse_policy", "policy_lines", "unread_parameters"]

POLICIES: dict[str, tuple[type, dict[str, float], str, dict[str, tuple[str, ...]]]] = {
    "random": (RandomPolicy, {}, "uniform over the legal actions", {}),
    "threshold": (
        ThresholdPolicy,
        THRESHOLD_DEFAULTS,
        "raises, calls and holds by hand-strength percentile, with a bluff rate",
        THRESHOLD_PARAMS_BY_VARIANT,
    ),
}
"""Each policy: its class, its parameters with their defaults, what it does, and the parameters each
variant reads (what a dataset's ``policy`` column records)."""


def policy_lines() -> list[str]:
    """``truc policies``: each policy with its parameters and defaults, then the parameters each variant
    reads."""
    lines = []
    for name, (_, defaults, description, by_variant) in POLICIES.items():
        params = ", ".join(f"{k}={v:g}" for k, v in defaults.items()) or "no parameters"
        lines.append(f"{name}: {description}; {params}")
        lines += [f"  read in {variant}: {', '.join(names)}" for variant, names in by_variant.items()]
    return lines


class PolicyError(ValueError):
    """A policy spec names an unknown policy or parameter, or a bad value."""


def parse_policy(spec: str) -> Policy:
    """Build a policy from ``NAME`` or ``NAME:k=v,k=v`` (e.g. ``threshold:raise_at=0.8,bluff=0.2``)."""
    name, _, rest = spec.strip().partition(":")
    name = name.strip().lower()
    if name not in POLICIES:
        raise PolicyError(f"unknown policy {name!r}{did_you_mean(name, POLICIES)}; policies: {', '.join(POLICIES)}")
    cls, defaults, _, _ = POLICIES[name]
    params: dict[str, float] = {}
    for pair in filter(None, (p.strip() for p in rest.split(","))):
        key, sep, value = pair.partition("=")
        key, value = key.strip().lower(), value.strip()  # as --option and --param read their keys
        if not sep:
            raise PolicyError(f"policy {name}: {pair!r} is not of the form key=value")
        if key in params:  # as --option and --param refuse a key given twice
            raise PolicyError(f"policy {name}: {key} is given twice ({key}={params[key]:g}, {pair})")
        if key not in defaults:
            valid = ", ".join(defaults) or "none"
            raise PolicyError(
                f"policy {name} has no parameter {key!r}{did_you_mean(key, defaults)}; parameters: {valid}"
            )
        try:
            number = float(value)
        except ValueError:
            raise PolicyError(f"policy {name}: {key}={value!r} is not a number") from None
        if not 0.0 <= number <= 1.0:
            raise PolicyError(f"policy {name}: {key}={value} must be between 0 and 1")
        params[key] = number
    policy: Policy = cls(**params)
    return policy


def unread_parameters(spec: str, variant: str) -> tuple[list[str], tuple[str, ...]]:
    """(the parameters that ``spec`` sets and ``variant``'s decisions do not read, those they read): a
    parameter like ``raise_at`` in a Trut game is accepted, so that one spec can serve every variant, but
    a user who sets it expects it to change the games, so the simulator warns. Nothing is unread for a
    policy or a variant without a per-variant table. Raises ``PolicyError`` for a spec that does not parse."""
    parse_policy(spec)
    name, _, rest = spec.strip().partition(":")
    read = POLICIES[name.strip().lower()][3].get(variant)
    if read is None:
        return [], ()
    keys = [pair.partition("=")[0].strip().lower() for pair in rest.split(",") if pair.strip()]
    return [key for key in dict.fromkeys(keys) if key not in read], read
