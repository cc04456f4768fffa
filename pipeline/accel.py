"""The compiled fast path: the hot modules built into C extensions with mypyc, checked against their sources.

The engine, the policies, the game loop, the row builder and the `.truc` reader and writer are plain, typed
Python. ``make`` compiles them with mypyc (``scripts/compile_fast.py``) into extension modules beside their
sources, and writes ``pipeline/_compiled.json`` with the hash of every source compiled. It is the same code, so
the same seed gives the same data compiled or not (``tests/test_accel.py`` checks it), about four times as
fast. Building a wheel (``pip install .``) compiles the same modules into it and ships the stamp (``setup.py``).

An extension module would shadow its ``.py`` even after the source has changed, so this module, imported
first by ``pipeline/__init__.py``, checks the hashes: when a source no longer matches what was compiled
(or ``TRUC_PURE=1`` is set), every module of the list is loaded from its source instead, and ``status()``
says why. Compiled or not, the results are the same; only the speed differs.

This module imports nothing else of ours.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

PACKAGE = Path(__file__).resolve().parent
STAMP = PACKAGE / "_compiled.json"
CHECKOUT = (PACKAGE.parent / "pyproject.toml").is_file()
"""Whether this is a source tree (or its editable install), where ``make compile`` compiles in place and says so,
rather than a package ``pip install .`` built (``setup.py`` compiles the wheel, out of the user's sight)."""
SHARED_LIBRARY = "pipeline._compiled"
"""The mypyc group name: its runtime is the extension module ``pipeline._compiled__mypyc``."""

COMPILED_MODULES: tuple[str, ...] = (
    "pipeline.engine.actions",
    "pipeline.engine.card_sets",
    "pipeline.engine.hand_rules",
    "pipeline.engine.game",
    "pipeline.engine.ladder",
    "pipeline.engine.french",
    "pipeline.engine.trut",
    "pipeline.engine.trut_regional",
    "pipeline.engine.valencian",
    "pipeline.engine.view",
    "pipeline.strength",
    "pipeline.policies.base",
    "pipeline.policies.random_policy",
    "pipeline.policies.french_decisions",
    "pipeline.policies.trut_decisions",
    "pipeline.policies.valencian_decisions",
    "pipeline.policies.threshold",
    "pipeline.playing",
    "pipeline.rows",
    "pipeline.history.writer",
    "pipeline.history.reader",
)
"""The hot path, in dependency order. Each must type-check under mypyc's stricter rules."""

NATIVE_MODULES: tuple[str, ...] = ("pipeline._fast_trut", "pipeline._fast_rows", "pipeline._fast_replay")
"""Modules written for Cython (``.pyx``), built by the same compile: the native fast paths of the simulator and of
the replay, each checked against the engine by its tests. Loaded only with the compiled modules (``native``)."""


def source_of(module: str) -> Path:
    suffix = ".pyx" if module in NATIVE_MODULES else ".py"
    return PACKAGE.parent.joinpath(*module.split(".")).with_suffix(suffix)


def source_hashes(modules: Sequence[str] = COMPILED_MODULES + NATIVE_MODULES) -> dict[str, str]:
    return {m: hashlib.blake2b(source_of(m).read_bytes(), digest_size=16).hexdigest() for m in modules}


def _stamp() -> dict[str, str] | None:
    try:
        stamp: dict[str, str] = json.loads(STAMP.read_text("utf-8"))["sources"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return stamp


def _pure_reason() -> str | None:
    """Why the compiled modules must not be used, or None when they match their sources."""
    if os.environ.get("TRUC_PURE", "") not in ("", "0"):
        return "TRUC_PURE is set"
    stamp = _stamp()
    if stamp is None:
        return "not compiled (make compile)" if CHECKOUT else "not compiled: built without a working C compiler"
    if stamp != source_hashes():
        return "compiled modules are older than their sources (make compile)"
    return None


class _SourceFirst(importlib.abc.MetaPathFinder):
    """Loads the listed modules from their ``.py`` sources, ahead of any extension module beside them."""

    def __init__(self, modules: Sequence[str]) -> None:
        self.modules = frozenset(modules)

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.modules:
            return None
        return importlib.util.spec_from_file_location(fullname, source_of(fullname))


_REASON = _pure_reason()
if _REASON is not None and not any(isinstance(f, _SourceFirst) for f in sys.meta_path):
    sys.meta_path.insert(0, _SourceFirst(COMPILED_MODULES))


def compiled() -> bool:
    """Whether the hot modules run compiled in this process."""
    module = sys.modules.get("pipeline.engine.game")
    if module is None:
        return _REASON is None
    return not str(getattr(module, "__file__", "")).endswith(".py")


def native(module: str) -> ModuleType | None:
    """A native module of ``NATIVE_MODULES``, or None: in pure Python (``TRUC_PURE``, not compiled, or a
    source changed since the compile) the general code runs instead, with the same results."""
    if _REASON is not None or not compiled():
        return None
    try:
        return importlib.import_module(module)
    except ImportError:
        return None


def status() -> str:
    """One line for ``truc --version`` and the benchmarks: compiled, or pure Python and why."""
    if not compiled():
        return f"pure Python ({_REASON or 'not compiled'})"
    return "compiled (mypyc, Cython)" if native(NATIVE_MODULES[0]) is not None else "compiled (mypyc)"


def notice() -> str | None:
    """The line ``truc`` writes on stderr before a command when an installed package runs in pure Python: pip
    hides the build's output, so nothing else would tell. None when compiled, when ``TRUC_PURE`` asked for pure
    Python, and in a checkout (``make compile`` says why it could not compile; a stale build is an edit in
    progress)."""
    if compiled() or CHECKOUT or os.environ.get("TRUC_PURE", "") not in ("", "0"):
        return None
    return f"truc: the engine runs in pure Python, about four times slower ({_REASON or 'not compiled'})"
