"""docs/statistics.md's per-statistic part is generated from the registry and the SQL headers
(``scripts/statistics_doc.py``): the committed file must be what the script writes, so that a statistic
changed in one place is not described otherwise in the docs."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import statistics_doc  # noqa: E402  (scripts/ is not a package)

from pipeline import statistics  # noqa: E402


def test_the_committed_statistics_doc_is_the_generated_one() -> None:
    text = statistics_doc.DOC.read_text("utf-8")
    assert text == statistics_doc.expected(text), (
        "docs/statistics.md is stale: run .venv/bin/python scripts/statistics_doc.py"
    )


def test_the_generated_part_follows_the_registry() -> None:
    part = statistics_doc.generated()
    headings = [line[4:-1] for line in part.splitlines() if line.startswith("## `")]
    assert headings == list(statistics.STATISTICS)
    fold_rates = part.split("## `fold_rates`", 1)[1].split("\n## ", 1)[0]
    assert "`decile` (integer)" in fold_rates and "`fold_rate` (float)" in fold_rates
    assert "the threshold bot's `call_at`" in fold_rates
    assert "folds / facing" in fold_rates  # the SQL header's definition of fold_rate
    envit = part.split("## `envit`", 1)[1].split("\n## ", 1)[0]
    assert "counts only `valencian` games" in envit and "`bluff_below` (a number between 0 and 40, default 20)" in envit
