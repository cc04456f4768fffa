"""``pip install .`` as a user runs it (setup.py): the wheel built from the checkout holds the SQL and the
compiled hot path, installs into a fresh virtual environment, and simulate, stats and report run from there, away
from the checkout; a wheel built without a C compiler (or with one that fails) runs in pure Python, gives the same
numbers, and says so.

The wheel is built without build isolation (the current environment has the build requirements of
pyproject.toml: make installs them), and the fresh environment reads the runtime dependencies from the current
one through a ``.pth`` file rather than downloading them: the package itself comes from the wheel alone."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
_PURE = os.environ.get("TRUC_PURE")
import compile_fast  # noqa: E402  (it sets TRUC_PURE for the process that compiles: undone just below)

# Left set, TRUC_PURE would reach every process the test run starts after collecting this file (the commands
# the tests run, a Ray's workers): they would run in pure Python, and a Ray would refuse its own nodes.
if _PURE is None:
    os.environ.pop("TRUC_PURE", None)
else:
    os.environ["TRUC_PURE"] = _PURE

pytestmark = pytest.mark.slow

NO_COMPILER = "/no/such/cc"


def environment(**extra: str) -> dict[str, str]:
    """This environment without the knobs that would change what is tested (``TRUC_PURE``)."""
    env = {k: v for k, v in os.environ.items() if k not in ("TRUC_PURE", "PYTHONPATH")}
    return {**env, **extra}


def checkout_copy(folder: Path) -> Path:
    """The files a clone has (tracked, or new and not ignored), without what a compile or a run left beside
    them: a wheel built from the checkout itself could pick up ``build/``."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, check=True, capture_output=True, text=True,
    ).stdout.split("\0")  # fmt: skip
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            target = folder / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(source.read_bytes())
    return folder


def build_wheel(source: Path, out: Path, **env: str) -> Path:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--quiet", "-w", str(out),
         str(source)],
        check=True, capture_output=True, env=environment(**env),
    )  # fmt: skip
    (wheel,) = out.glob("truc_lab-*.whl")
    return wheel


def fresh_environment(folder: Path, wheel: Path) -> Path:
    """A new virtual environment with ``wheel`` installed; its ``bin`` folder."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    python = folder / "bin" / "python"
    purelib = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True,
    ).stdout.strip()  # fmt: skip
    (Path(purelib) / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--quiet", str(wheel)],
        check=True, capture_output=True, env=environment(),
    )  # fmt: skip
    return folder / "bin"


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The installed ``bin`` folder of a wheel built as usual (``compiled``) and of one built with no C compiler
    (``pure``); the wheels, and one built with a compiler that fails (``failed_wheel``). Built in that order from
    one folder: the compiled build last, as its extensions, up to date, would be reused by the others."""
    folder = tmp_path_factory.mktemp("install")
    source = checkout_copy(folder / "checkout")
    pure = build_wheel(source, folder / "pure-wheel", CC=NO_COMPILER)
    failed = build_wheel(source, folder / "failed-wheel", CC="false")
    compiled = build_wheel(source, folder / "wheel")
    return {
        "compiled": fresh_environment(folder / "venv", compiled),
        "pure": fresh_environment(folder / "pure-venv", pure),
        "compiled_wheel": compiled,
        "pure_wheel": pure,
        "failed_wheel": failed,
    }


def truc(bin_folder: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(bin_folder / "truc"), *args], cwd=cwd, capture_output=True, text=True, env=environment(), check=True
    )


def test_the_wheel_ships_the_sql_the_sources_and_the_stamp(wheels: dict[str, Path]) -> None:
    names = set(zipfile.ZipFile(wheels["compiled_wheel"]).namelist())
    sql = {path.name for path in (ROOT / "sql").glob("*.sql")}
    assert {f"pipeline/sql/{name}" for name in sql} <= names
    assert {"pipeline/_fast_trut.pyx", "pipeline/engine/game.py", "pipeline/_compiled.json"} <= names
    if compile_fast.missing_toolchain() is None:
        assert any(name.startswith("pipeline/engine/game.") and name.endswith(".so") for name in names)
    for kind in ("pure_wheel", "failed_wheel"):  # no compiler, or one that fails: pure Python, and no stamp
        pure = set(zipfile.ZipFile(wheels[kind]).namelist())
        assert "pipeline/_compiled.json" not in pure and not any(name.endswith(".so") for name in pure), kind
        assert {f"pipeline/sql/{name}" for name in sql} <= pure


def test_an_installed_wheel_simulates_measures_and_reports_away_from_the_checkout(
    wheels: dict[str, Path], tmp_path: Path
) -> None:
    """Compiled when built with a C compiler, silent on stderr; without one, pure Python, one line on stderr
    before each command, and the same numbers."""
    bin_folder = wheels["compiled"]
    where = subprocess.run(
        [bin_folder / "python", "-c", "import pipeline; print(pipeline.__file__)"],
        cwd=tmp_path, check=True, capture_output=True, text=True, env=environment(),
    ).stdout  # fmt: skip
    assert where.startswith(str(bin_folder.parent)), where  # the wheel's package, not the checkout's
    version = truc(bin_folder, tmp_path, "--version")
    if compile_fast.missing_toolchain() is None:
        assert "engine compiled (mypyc, Cython)" in version.stdout
    outputs = {}
    for kind in ("compiled", "pure"):
        bin_folder = wheels[kind]
        run = truc(bin_folder, tmp_path, "simulate", "--variant", "catalan", "--players", "2", "--games", "150",
                   "--seed", "5", "--out", kind, "--quiet")  # fmt: skip
        stats = truc(bin_folder, tmp_path, "stats", "first_trick_value", "--data", kind, "--format", "csv")
        report = truc(bin_folder, tmp_path, "report", "--data", kind, "--out", f"{kind}-report")
        assert (tmp_path / f"{kind}-report" / "index.html").is_file()
        assert stats.stdout.startswith("variant,players,hands,") and "catalan,2," in stats.stdout
        outputs[kind] = stats.stdout
        notices = [run.stderr, stats.stderr, report.stderr.splitlines()[0] + "\n"]
        if kind == "compiled":
            assert run.stderr == stats.stderr == "", (run.stderr, stats.stderr)
        else:
            assert notices == ["truc: the engine runs in pure Python, about four times slower "
                               "(not compiled: built without a working C compiler)\n"] * 3  # fmt: skip
    assert outputs["compiled"] == outputs["pure"]
    pure_version = truc(wheels["pure"], tmp_path, "--version").stdout
    assert pure_version.endswith("engine pure Python (not compiled: built without a working C compiler)\n")
    silent = subprocess.run(
        [str(wheels["pure"] / "truc"), "variants"], cwd=tmp_path, capture_output=True, text=True,
        env=environment(TRUC_PURE="1"), check=True,
    )  # fmt: skip
    assert silent.stderr == ""  # pure Python asked for: nothing to warn about
