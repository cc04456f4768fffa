"""``docs/architecture.md``'s table "Modules and what each may import", held to the code: every module of
``pipeline`` imports only what its row names, and every name in a row is imported by its module(s)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "pipeline"
DOC = ROOT / "docs" / "architecture.md"


def documented_rows() -> dict[str, set[str] | None]:
    """Each row's module (``engine/rules.py``, or a folder ``policies/``) and the names of its column
    "imports of ours" (``engine (views, actions)`` names ``engine``); None for ``everything``."""
    text = DOC.read_text("utf-8").split("## Modules and what each may import", 1)[1]
    rows: dict[str, set[str] | None] = {}
    table = text.strip().splitlines()[2:]  # below the header and its rule
    for line in table:
        if not line.startswith("|"):
            break
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        module, imports = cells[0].strip("`"), re.sub(r"\([^)]*\)", "", cells[-1])
        names = {name.strip() for name in imports.split(";")[0].split(",")}
        rows[module] = None if names == {"everything"} else names - {"none"}
    return rows


def pipeline_imports(path: Path) -> set[str]:
    """The ``pipeline`` modules a file imports anywhere in it (function-level imports too), as dotted
    names below the package (``engine.rules``). ``from pipeline import __version__`` is the package
    itself, which every module may read."""
    here = path.relative_to(ROOT).with_suffix("").parts[:-1]
    found: set[str] = set()
    if path.suffix == ".pyx":  # Cython is not Python: its imports are read from its import lines
        text = path.read_text("utf-8")
        found |= set(re.findall(r"^from (pipeline(?:\.\w+)+) c?import ", text, re.MULTILINE))
        found |= set(re.findall(r"^c?import (pipeline(?:\.\w+)+)", text, re.MULTILINE))
        return {name.removeprefix("pipeline.") for name in found}
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                module = ".".join([*here[: len(here) - node.level + 1], *([module] if module else [])])
            for alias in node.names:
                candidate = f"{module}.{alias.name}"
                is_module = (ROOT / Path(*candidate.split("."))).with_suffix(".py").exists()
                found.add(candidate if is_module else module)
    return {name.removeprefix("pipeline.") for name in found if name.startswith("pipeline.")}


def row_of(path: Path, rows: dict[str, set[str] | None]) -> str:
    relative = path.relative_to(PACKAGE).as_posix()
    folder = relative.split("/")[0] + "/"
    if relative in rows:
        return relative
    if folder in rows:
        return folder
    raise AssertionError(f"pipeline/{relative} has no row in docs/architecture.md's import table")


def allowed(name: str, row: str, documented: set[str]) -> bool:
    own_folder = row.endswith("/") and name.startswith(row[:-1] + ".")
    return own_folder or any(name == allowed or name.startswith(allowed + ".") for allowed in documented)


MODULES = sorted(p for pattern in ("*.py", "*.pyx") for p in PACKAGE.rglob(pattern) if p.read_text("utf-8").strip())


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_a_module_imports_only_what_its_row_names(path: Path) -> None:
    rows = documented_rows()
    row = row_of(path, rows)
    documented = rows[row]
    if documented is None:  # the CLI: everything
        return
    stray = sorted(name for name in pipeline_imports(path) if not allowed(name, row, documented))
    assert not stray, f"pipeline/{path.relative_to(PACKAGE)} imports {stray}; its row names {sorted(documented)}"


def test_every_name_in_the_table_is_imported_and_nothing_imports_the_cli() -> None:
    rows = documented_rows()
    used: dict[str, set[str]] = {row: set() for row in rows}
    for path in MODULES:
        imported = pipeline_imports(path)
        used[row_of(path, rows)] |= imported
        assert "cli" not in imported, f"pipeline/{path.relative_to(PACKAGE)} imports the CLI"
    for row, documented in rows.items():
        for name in documented or set():
            assert any(n == name or n.startswith(name + ".") for n in used[row]), f"{row} never imports {name}"


def test_the_table_is_read_whole() -> None:
    """The parser above sees every row (a broken table would make the checks vacuous)."""
    rows = documented_rows()
    assert {"cards.py", "engine/game.py", "policies/", "history/", "report/", "cli.py", "stats.py"} <= set(rows)
    assert (
        rows["engine/game.py"] == {"cards", "engine"}
        and rows["cli.py"] is None
        and rows["store.py"] == {"filesystem", "interrupts", "parts", "printable"}
    )
