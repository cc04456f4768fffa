"""Typed policy parameters: what each bot declares, what ``NAME[:k=v,...]`` is parsed into, and what ``truc
policies`` prints.

A parameter is a ``Param``: its name, its kind, its default, its range or its choices, and its meaning in one
line. The kinds:

- ``number``: a finite decimal number within ``[low, high]`` (given as ``0.7``, ``.7``, ``7e-1``), a ``float``;
- ``int``: a whole number within ``[low, high]`` (``2.5`` and ``1e3`` are refused), an ``int``;
- ``name``: one of ``choices``, read in any letter case, a ``str``;
- ``path``: a file that exists (relative to the current folder), a ``pathlib.Path``;
- ``policy``: the name of a registered bot (``truc policies``), a ``str``.

A value is the text between ``=`` and the next ``,`` of a spec, so it cannot hold a comma. Build parameters
with ``number``, ``integer``, ``choice``, ``path`` and ``policy_name``, which check the declaration itself.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

from pipeline.names import bounds_text, did_you_mean

NUMBER = "number"
INTEGER = "int"
NAME = "name"
PATH = "path"
POLICY = "policy"
KINDS = (NUMBER, INTEGER, NAME, PATH, POLICY)

Value = float | int | str | Path | None
"""What a parameter's value is, by kind: ``float``, ``int``, ``str``, ``Path``; ``None`` for a path not given."""

_NAME_PATTERN = re.compile(r"[a-z][a-z0-9_]*")


@dataclass(frozen=True)
class Param:
    """One typed parameter of a bot. ``parse`` reads its value from the text of a spec."""

    name: str
    kind: str
    default: Value
    meaning: str
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not _NAME_PATTERN.fullmatch(self.name):
            raise ValueError(f"parameter name {self.name!r} must be lowercase letters, digits and _, from a letter")
        if self.kind not in KINDS:
            raise ValueError(f"parameter {self.name}: kind {self.kind!r} is not one of {', '.join(KINDS)}")
        if self.kind == NAME and (not self.choices or self.default not in self.choices):
            raise ValueError(f"parameter {self.name}: the default {self.default!r} is not one of its choices")
        if self.kind in (NUMBER, INTEGER) and not self._within(self.default):
            raise ValueError(f"parameter {self.name}: the default {self.default!r} is outside {self.range_text()}")

    def _within(self, value: Value) -> bool:
        if not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value):
            return False
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)

    def parse(self, text: str) -> Value:
        """The value ``text`` stands for; ``ValueError`` saying what is wrong (``bluff=1.5 must be between 0
        and 1``), to be prefixed with the policy's name."""
        given = f"{self.name}={text!r}" if self.kind in (NUMBER, INTEGER) else f"{self.name}={text}"
        value: Value
        if self.kind == NUMBER:
            try:
                value = float(text)
            except ValueError:
                raise ValueError(f"{given} is not a number") from None
        elif self.kind == INTEGER:
            try:
                value = int(text)
            except ValueError:
                raise ValueError(f"{given} is not a whole number") from None
        elif self.kind == NAME:
            value = text.lower()
            if value not in self.choices:
                raise ValueError(
                    f"{self.name}={text!r} is not a choice{did_you_mean(value, self.choices)}; "
                    f"choices: {', '.join(self.choices)}"
                )
            return value
        elif self.kind == PATH:
            value = Path(text)
            if not value.is_file():
                raise ValueError(f"{self.name}={text!r}: no such file")
            return value
        else:
            return text.lower()  # the registry checks that it names a bot (``pipeline.policies.read_spec``)
        if not self._within(value):
            raise ValueError(f"{self.name}={text} must be {self.range_text()}")
        return value

    def range_text(self) -> str:
        """The values allowed, in words: ``between 0 and 1``, ``at least 1``, ``one of highest, lowest``."""
        if self.kind in (NUMBER, INTEGER):
            return bounds_text(self.low, self.high) or "finite"
        if self.kind == NAME:
            return f"one of {', '.join(self.choices)}"
        if self.kind == PATH:
            return "an existing file"
        return "a policy's name (truc policies)"

    def text(self, value: Value) -> str:
        """``value`` as a description writes it: a number by ``:g`` (``0.7``, ``0``), the rest as it is."""
        if isinstance(value, float):
            return f"{value:g}"
        return "none" if value is None else str(value)

    def line(self) -> str:
        """``truc policies``' words for it: ``number in [0, 1], default 0.7: raise when ...``."""
        return f"{self.kind_text()}, default {self.text(self.default)}: {self.meaning}"

    def kind_text(self) -> str:
        """Its type and the values allowed, briefly: ``number in [0, 1]``, ``int >= 1``, ``name a|b``."""
        if self.kind in (NUMBER, INTEGER):
            low, high = self.low, self.high
            if low is not None and high is not None:
                return f"{self.kind} in [{low:g}, {high:g}]"
            if low is not None or high is not None:
                return f"{self.kind} {'>=' if low is not None else '<='} {low if low is not None else high:g}"
            return self.kind
        if self.kind == NAME:
            return f"name {'|'.join(self.choices)}"
        if self.kind == PATH:
            return "path to a file"
        return "policy (a registered bot's name)"


def number(name: str, default: float, meaning: str, low: float | None = 0.0, high: float | None = 1.0) -> Param:
    """A number parameter, in [0, 1] unless told otherwise (``None``: unbounded on that side)."""
    return Param(name, NUMBER, float(default), meaning, low, high)


def integer(name: str, default: int, meaning: str, low: int | None = None, high: int | None = None) -> Param:
    """A whole-number parameter."""
    return Param(name, INTEGER, default, meaning, low, high)


def choice(name: str, default: str, choices: tuple[str, ...], meaning: str) -> Param:
    """A name parameter: one of ``choices`` (lowercase)."""
    return Param(name, NAME, default, meaning, choices=choices)


def path(name: str, meaning: str, default: Path | None = None) -> Param:
    """A file parameter: the file must exist when the spec is read; ``None`` by default (not given)."""
    return Param(name, PATH, default, meaning)


def policy_name(name: str, default: str, meaning: str) -> Param:
    """A parameter naming a registered bot (``rollout=random``)."""
    return Param(name, POLICY, default, meaning)
