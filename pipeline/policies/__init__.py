"""Policies (bots): the registry, and the spec that names one (docs/bots.md).

A spec is ``NAME[:k=v,...]`` for a registered bot (``threshold:raise_at=0.8,lead=lowest``) or
``module.Class[:k=v,...]`` for a bot of one's own, a class imported by its dotted path. Every bot declares its
parameters as typed ``Param`` values (``pipeline.policies.parameters``): the parser reads each value by its
type and range, ``truc policies`` prints them, and the simulator warns of those a variant does not read. The
bot is then built with every declared parameter as a keyword argument: the value given, else its default.

A class of one's own is a policy by its members, not by inheritance (a compiled class cannot be subclassed
by an interpreted one): ``name``, ``step(view, rng)``, ``describe(variant=None)``, optionally
``probabilities(view)``, and its parameters in a class attribute ``PARAMETERS`` (a tuple of ``Param``; a class
without one takes no parameters). Its module is imported as Python imports any (installed packages,
``PYTHONPATH``), and from the current folder too; the simulator's workers read the spec again, so they
import it the same way.
"""

from __future__ import annotations

import importlib
import inspect
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import cast

from pipeline.names import did_you_mean
from pipeline.policies import cfr, threshold
from pipeline.policies.base import DecisionPolicy, Policy
from pipeline.policies.parameters import POLICY, Param, Value, choice, integer, number, path, policy_name
from pipeline.policies.random_policy import RandomPolicy
from pipeline.policies.search import PARAMETERS as SEARCH_PARAMETERS
from pipeline.policies.search import SearchPolicy
from pipeline.policies.threshold import DEFAULTS as THRESHOLD_DEFAULTS
from pipeline.policies.threshold import ThresholdPolicy

__all__ = [
    "POLICIES",
    "THRESHOLD_DEFAULTS",
    "Bot",
    "DecisionPolicy",
    "Param",
    "Policy",
    "PolicyError",
    "PolicySpec",
    "choice",
    "integer",
    "number",
    "parse_policy",
    "path",
    "policy_lines",
    "policy_name",
    "read_spec",
    "unread_parameters",
]


class PolicyError(ValueError):
    """A policy spec names an unknown policy or parameter, or a bad value."""


@dataclass(frozen=True)
class Bot:
    """A bot: how to build one (``make``, called with every parameter as a keyword), what it does in one line,
    its typed parameters, and the parameters each variant's decisions read (``read_in``; a bot without this
    table reads every parameter in every variant)."""

    name: str
    make: Callable[..., Policy]
    summary: str
    params: tuple[Param, ...] = ()
    read_in: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)

    def readers(self, name: str) -> str:
        """The variants whose decisions read parameter ``name``, in words (``every variant``)."""
        if not self.read_in:
            return "every variant"
        found = [variant for variant, names in self.read_in.items() if name in names]
        return "every variant" if len(found) == len(self.read_in) else ", ".join(found)


POLICIES: dict[str, Bot] = {
    bot.name: bot
    for bot in (
        Bot(
            "random",
            RandomPolicy,
            "uniform over the legal actions, and over doing nothing when acting is optional (it gives its "
            "probabilities)",
        ),
        Bot(
            "threshold",
            ThresholdPolicy,
            "raises, calls and holds by hand-strength percentile, with a bluff rate; plays cards by a rule to "
            "lead and one to follow",
            threshold.PARAMETERS,
            threshold.PARAMS_BY_VARIANT,
        ),
        Bot(
            "search",
            lambda rollouts, rollout: SearchPolicy(rollouts, rollout, _rollout_builder(rollout)),
            "determinised Monte Carlo: samples the cards its seat has not seen, plays each choice out to the end "
            "of the hand with a rollout bot at every seat, takes the best mean points of the hand for its side",
            SEARCH_PARAMETERS,
        ),
        Bot(
            "cfr",
            cfr.CfrPolicy,
            "the policy trained by Monte Carlo CFR (truc train), read from its policy file; the threshold bot "
            "where the file has no entry (docs/equilibrium.md)",
            cfr.PARAMETERS,
        ),
    )
}
"""The registered bots, by name: the one declaration of each, which everything else reads."""


def _rollout_builder(name: str) -> Callable[[], Policy]:
    """How the search bot builds its rollout bot: the registered bot ``name`` (its default parameters); not
    itself."""
    if name == "search":
        raise PolicyError("policy search: rollout=search would search inside every play-out; name another bot")
    return read_spec(name).build


PROTOCOL: tuple[str, ...] = ("step", "describe")
"""The methods a class of one's own must have (its ``name`` is checked on the object built)."""


@dataclass(frozen=True)
class PolicySpec:
    """A spec read: the bot it names and the values it gives, in the order given."""

    text: str
    bot: Bot
    given: dict[str, Value]

    def values(self) -> dict[str, Value]:
        """Every declared parameter: the value given, else its default."""
        return {p.name: self.given.get(p.name, p.default) for p in self.bot.params}

    def build(self) -> Policy:
        """A new policy object (one per seat: a bot keeps its memory of the hand)."""
        try:
            policy = self.bot.make(**self.values())
        except Exception as exc:
            if self.bot.name in POLICIES:
                raise
            raise PolicyError(f"policy {self.bot.name}: building it failed: {_one_line(exc)}") from None
        if not isinstance(getattr(policy, "name", None), str):
            raise PolicyError(f"policy {self.bot.name} is not a policy: it has no name (a str attribute)")
        return policy


def read_spec(spec: str) -> PolicySpec:
    """Read ``NAME[:k=v,...]`` or ``module.Class[:k=v,...]``; ``PolicyError`` saying what is wrong."""
    head, _, rest = spec.strip().partition(":")
    head = head.strip()
    bot = _user_bot(head) if "." in head else _registered(head.lower())
    given: dict[str, Value] = {}
    pairs: dict[str, str] = {}
    for pair in filter(None, (p.strip() for p in rest.split(","))):
        key, sep, value = pair.partition("=")
        key, value = key.strip().lower(), value.strip()  # as --option and --param read their keys
        if not sep:
            raise PolicyError(f"policy {bot.name}: {pair!r} is not of the form key=value")
        if key in pairs:  # as --option and --param refuse a key given twice
            raise PolicyError(f"policy {bot.name}: {key} is given twice ({key}={pairs[key]}, {pair})")
        param = bot.param(key)
        if param is None:
            names = [p.name for p in bot.params]
            valid = ", ".join(names) or "none"
            hint = "" if bot.name in POLICIES else " (a class declares its parameters in PARAMETERS: docs/bots.md)"
            raise PolicyError(
                f"policy {bot.name} has no parameter {key!r}{did_you_mean(key, names)}; parameters: {valid}{hint}"
            )
        try:
            given[key] = param.parse(value)
        except ValueError as exc:
            raise PolicyError(f"policy {bot.name}: {exc}") from None
        if param.kind == POLICY and given[key] not in POLICIES:
            raise PolicyError(
                f"policy {bot.name}: {key}={value!r} is not a policy{did_you_mean(value.lower(), POLICIES)}; "
                f"policies: {', '.join(POLICIES)}"
            )
        pairs[key] = value
    return PolicySpec(spec, bot, given)


def parse_policy(spec: str) -> Policy:
    """Build a policy from its spec (``threshold:raise_at=0.8,bluff=0.2``, ``mybots.Caller:accept=0.5``)."""
    return read_spec(spec).build()


def unread_parameters(spec: str, variant: str) -> tuple[list[str], tuple[str, ...]]:
    """(the parameters that ``spec`` sets and ``variant``'s decisions do not read, those they read): a
    parameter like ``raise_at`` in a Trut game is accepted, so that one spec can serve every variant, but
    a user who sets it expects it to change the games, so the simulator warns. Nothing is unread for a
    policy or a variant without a per-variant table. Raises ``PolicyError`` for a spec that does not read."""
    parsed = read_spec(spec)
    read = parsed.bot.read_in.get(variant)
    if read is None:
        return [], ()
    return [key for key in parsed.given if key not in read], read


def policy_lines() -> list[str]:
    """``truc policies``: each bot and what it does, then one line per parameter (its type and range, default
    and meaning, and the variants whose decisions read it); last, how to name a bot of one's own."""
    lines = []
    for bot in POLICIES.values():
        lines.append(f"{bot.name}: {bot.summary}{'' if bot.params else '; no parameters'}")
        width = max((len(p.name) for p in bot.params), default=0)
        for p in bot.params:
            lines.append(f"  {p.name:<{width}}  {p.line()}; read in {bot.readers(p.name)}")
    lines.append(
        "module.Class: a bot of your own, a class with name, step(view, rng) and describe(variant), its "
        "parameters declared in PARAMETERS (docs/bots.md)"
    )
    return lines


def _registered(name: str) -> Bot:
    bot = POLICIES.get(name)
    if bot is None:
        raise PolicyError(
            f"unknown policy {name!r}{did_you_mean(name, POLICIES)}; policies: {', '.join(POLICIES)}, "
            "or module.Class for a bot of your own"
        )
    return bot


def _user_bot(dotted: str) -> Bot:
    """The bot of a class named by its dotted path, checked to be a policy by its members."""
    module_name, _, class_name = dotted.rpartition(".")
    if not all(part.isidentifier() for part in dotted.split(".")):
        raise PolicyError(f"policy {dotted!r} is not of the form module.Class (a registered bot's name has no dot)")
    module = _import(module_name, dotted)
    cls = getattr(module, class_name, None)
    if cls is None:
        classes = [n for n, c in vars(module).items() if inspect.isclass(c) and c.__module__ == module.__name__]
        raise PolicyError(
            f"policy {dotted}: module {module_name} has no class {class_name!r}{did_you_mean(class_name, classes)}"
            f"; classes: {', '.join(classes) or 'none'}"
        )
    if not inspect.isclass(cls):
        raise PolicyError(f"policy {dotted}: {class_name} is not a class (it is a {type(cls).__name__})")
    missing = [member for member in PROTOCOL if not callable(getattr(cls, member, None))]
    if missing:
        methods = " and ".join(f"{m} method" for m in missing)
        raise PolicyError(
            f"policy {dotted} is not a policy: it has no {methods} (a policy has name, step(view, rng) and "
            "describe(variant): docs/bots.md)"
        )
    if hasattr(cls, "probabilities") and not callable(cls.probabilities):
        raise PolicyError(f"policy {dotted}: its probabilities is not a method")
    params = getattr(cls, "PARAMETERS", ())
    if not isinstance(params, tuple | list) or not all(isinstance(p, Param) for p in params):
        raise PolicyError(f"policy {dotted}: PARAMETERS must be a tuple of pipeline.policies.Param")
    doc = (inspect.getdoc(cls) or "a bot of your own").splitlines()[0]
    return Bot(dotted, cast("Callable[..., Policy]", cls), doc, tuple(params))  # a policy by its members


def _import(module_name: str, dotted: str) -> ModuleType:
    """Import a module of one's own: from the installed packages and ``PYTHONPATH``, then the current folder
    (put last on the search path, so that it shadows no installed module)."""
    here = os.getcwd()
    if here not in sys.path and "" not in sys.path:
        sys.path.append(here)
    importlib.invalidate_caches()  # a module written since the last import is found
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and (module_name == exc.name or module_name.startswith(exc.name + ".")):
            raise PolicyError(
                f"policy {dotted}: no module named {exc.name!r} (searched the installed packages, PYTHONPATH "
                "and the current folder)"
            ) from None
        raise PolicyError(f"policy {dotted}: importing {module_name} failed: {_one_line(exc)}") from None
    except Exception as exc:
        raise PolicyError(f"policy {dotted}: importing {module_name} failed: {_one_line(exc)}") from None


def _one_line(exc: BaseException) -> str:
    """``SyntaxError: invalid syntax (bots.py, line 3)``: an error of a user's code, on one line."""
    return " ".join(f"{type(exc).__name__}: {exc}".split())
