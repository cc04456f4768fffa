"""Compile Truc Lab's hot path with mypyc and its native fast paths with Cython, in place, and stamp what
was compiled.

    python scripts/compile_fast.py [--force] [--clean]

The modules are those of ``pipeline.accel.COMPILED_MODULES`` (typed Python, mypyc) and
``pipeline.accel.NATIVE_MODULES`` (``.pyx``, Cython). Each becomes an extension module beside its source
(ignored by git), with the mypyc runtime in ``pipeline/_compiled__mypyc*.so``;
``pipeline/_compiled.json`` records the hash of every source compiled, so a source edited later is loaded
from its ``.py`` until the next compile (see ``pipeline/accel.py``). Nothing is done when the stamp
matches the sources. Without a C compiler or the Python headers it says so and leaves Truc Lab in pure
Python (the same results, slower); a compile error stops it with a non-zero exit.

``make test``, ``make demo`` and ``make bench`` run it first. ``setup.py`` builds the same extensions into a
wheel (``pip install .``) with ``extensions`` and ``write_stamp`` below; an editable install (``pip install -e``,
what ``make`` does) compiles nothing, so this script alone builds in place.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import sysconfig
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
os.environ["TRUC_PURE"] = "1"  # this process reads the sources only, whatever is compiled beside them

from pipeline import accel  # noqa: E402  (after TRUC_PURE is set)


def compiled_files() -> list[Path]:
    """Every extension module a compile leaves in the source tree."""
    package = accel.PACKAGE
    found = list(package.glob("_compiled__mypyc*.so"))
    for module in accel.COMPILED_MODULES + accel.NATIVE_MODULES:
        source = accel.source_of(module)
        found += source.parent.glob(f"{source.stem}.*.so")
    return found


def clean() -> None:
    for path in compiled_files():
        path.unlink()
    accel.STAMP.unlink(missing_ok=True)


def missing_toolchain() -> str | None:
    """What is missing to compile C extensions here, or None."""
    for module, package in (("mypyc", "mypy"), ("setuptools", "setuptools"), ("Cython", "cython")):
        try:
            __import__(module)
        except ImportError:
            return f"no {module} (pip install {package}; the dev extras have it)"
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]  # setuptools reads CC too
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler})"
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not headers.is_file():
        return f"no Python headers ({headers})"
    return None


def up_to_date(hashes: dict[str, str]) -> bool:
    try:
        stamp = json.loads(accel.STAMP.read_text("utf-8"))
    except (OSError, ValueError):
        return False
    present = {p.name.split(".")[0] for p in compiled_files()}
    modules = accel.COMPILED_MODULES + accel.NATIVE_MODULES
    wanted = {accel.source_of(m).stem for m in modules} | {"_compiled__mypyc"}
    return bool(stamp.get("sources") == hashes and wanted <= present)


def extensions(target_dir: str) -> list[Any]:
    """The extension modules of the hot path: ``COMPILED_MODULES`` through mypyc (its C written under
    ``target_dir``), ``NATIVE_MODULES`` through Cython. Paths are relative to the checkout, the current folder.
    ``make compile`` builds them in place, ``setup.py`` into a wheel."""
    from Cython.Build import cythonize
    from mypyc.build import mypycify
    from setuptools import Extension

    paths = [str(accel.source_of(m).relative_to(ROOT)) for m in accel.COMPILED_MODULES]
    built: list[Any] = mypycify(paths, group_name=accel.SHARED_LIBRARY, target_dir=target_dir, opt_level="3")
    native = [Extension(m, [str(accel.source_of(m).relative_to(ROOT))]) for m in accel.NATIVE_MODULES]
    cython_dir = f"{target_dir}-cython"
    built += cythonize(native, build_dir=cython_dir, quiet=True, compiler_directives={"language_level": 3})
    return built


def write_stamp(path: Path, hashes: dict[str, str]) -> None:
    """The stamp ``pipeline/accel.py`` checks: the hash of every source compiled."""
    stamp = {"compiler": "mypyc, Cython", "python": sys.version.split()[0], "sources": hashes}
    path.write_text(json.dumps(stamp, indent=2, sort_keys=True) + "\n", "utf-8")


def compile_modules(hashes: dict[str, str]) -> None:
    from setuptools import Distribution

    clean()
    os.chdir(ROOT)
    # A bare Distribution: the extensions only, without reading pyproject.toml's packaging metadata.
    dist = Distribution({"name": "truc-lab-compiled", "ext_modules": extensions("build/mypyc")})
    dist.script_args = ["-q", "build_ext", "--inplace", "--build-temp", "build/mypyc-temp"]
    dist.parse_command_line()
    dist.run_commands()
    write_stamp(accel.STAMP, hashes)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--force", action="store_true", help="compile even when the stamp matches the sources")
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules and the stamp, then stop")
    args = parser.parse_args()
    if args.clean:
        clean()
        print("compiled modules removed: Truc Lab runs in pure Python")
        return 0
    hashes = accel.source_hashes()
    if not args.force and up_to_date(hashes):
        print("compiled modules are up to date")
        return 0
    missing = missing_toolchain()
    if missing:
        clean()
        print(f"cannot compile the fast path: {missing}. Truc Lab runs in pure Python (same results, slower).")
        return 0
    started = time.perf_counter()
    print(
        f"compiling {len(accel.COMPILED_MODULES)} modules with mypyc and {len(accel.NATIVE_MODULES)} with Cython"
        " (about a minute)...",
        flush=True,
    )
    compile_modules(hashes)
    built = accel.COMPILED_MODULES + accel.NATIVE_MODULES
    print(f"compiled in {time.perf_counter() - started:.0f} s: {', '.join(built)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
