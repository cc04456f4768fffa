"""What pyproject.toml cannot say statically: the SQL shipped as ``pipeline.sql``, and the hot path compiled
into the wheel.

- ``sql/`` stays at the top of the checkout and is installed as the package data ``pipeline/sql/*.sql``
  (``pipeline.stats.SQL_DIR`` finds either).
- Building a wheel (``pip install .``, ``pip wheel .``, ``python -m build``) compiles the modules of
  ``pipeline.accel`` with mypyc and Cython, through the same code as ``make compile``
  (``scripts/compile_fast.py``), and ships the stamp ``pipeline/_compiled.json``. Without a C compiler or the
  Python headers, or when the compile fails, the wheel holds pure Python (the same results, slower) and
  ``truc`` says so on stderr.
- An editable install (``pip install -e``, what ``make`` does) compiles nothing: ``make compile`` builds in
  place, and a compile inside pip would only be redone, or undone, by it.
"""

from __future__ import annotations

import sys
from pathlib import Path

from setuptools import Distribution, find_packages, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
sys.path[:0] = [str(ROOT / "scripts"), str(ROOT)]

import compile_fast  # noqa: E402  (scripts/compile_fast.py: it sets TRUC_PURE for this process)

from pipeline import accel  # noqa: E402

BUILDS_WHEEL = any(command in sys.argv for command in ("bdist_wheel", "build", "build_ext", "install"))
"""Only these commands compile: pip's other steps (metadata, the editable ``editable_wheel``) must not pay
for mypyc's analysis of the sources."""


class CompiledDistribution(Distribution):
    """Always a platform wheel: its extensions are decided when ``build_ext`` runs."""

    def has_ext_modules(self) -> bool:
        return True


class BuildFast(build_ext):
    """``build_ext`` that falls back to pure Python, and writes the stamp beside what it compiled."""

    def run(self) -> None:
        package = Path(self.build_lib) / "pipeline"
        (package / accel.STAMP.name).unlink(missing_ok=True)
        if self.editable_mode:
            return
        if not self.extensions:  # pure Python: nothing an earlier build left in build/ goes into the wheel
            for extension in package.rglob("*.so"):
                extension.unlink()
            return
        hashes = accel.source_hashes()  # before compiling: the sources the extensions are built from
        try:
            super().run()
        except Exception as exc:  # a compiler that fails: the package still installs, in pure Python
            self._pure(f"the compile failed ({exc})")
            return
        compile_fast.write_stamp(package / accel.STAMP.name, hashes)

    def _pure(self, why: str) -> None:
        for output in self.get_outputs():
            Path(output).unlink(missing_ok=True)
        print(f"truc-lab: {why}; installed in pure Python (same results, slower)", file=sys.stderr)


def ext_modules() -> list[object]:
    if not BUILDS_WHEEL:
        return []
    missing = compile_fast.missing_toolchain()
    if missing:
        print(f"truc-lab: cannot compile the fast path: {missing}; installed in pure Python", file=sys.stderr)
        return []
    return list(compile_fast.extensions("build/wheel-mypyc"))


setup(
    distclass=CompiledDistribution,
    packages=[*find_packages(include=["pipeline", "pipeline.*"]), "pipeline.sql"],
    package_dir={"pipeline.sql": "sql"},
    package_data={"pipeline": ["*.pyx"], "pipeline.sql": ["*.sql"]},
    ext_modules=ext_modules(),
    cmdclass={"build_ext": BuildFast},
)
