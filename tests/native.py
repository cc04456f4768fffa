"""The native modules (``accel.NATIVE_MODULES``) for the tests that compare them with the code they copy."""

from __future__ import annotations

from types import ModuleType

import pytest

from pipeline import accel


def native_module(name: str) -> ModuleType:
    """The native module ``name``; a failure when the hot path is compiled without it (``make compile`` builds
    both), a skip in pure Python."""
    module = accel.native(name)
    if module is None:
        if accel.compiled():
            pytest.fail(f"the hot path is compiled but {name} is not: make compile builds both")
        pytest.skip(f"{name} is not built here ({accel.status()})")
    return module
