"""Fuzzing the reader, check and import with mutated histories (tests/fuzz_mutations.py: 25 operators
stacked 1 to 4 at a time over the valid and canonical files of tests/data).

Each input must hold four invariants: no traceback (only a ``HistoryError`` or, when no game at all is
valid, ``NothingToImport``), no hang (10 s at most each), ``check`` and ``import`` agree (the same problems,
games and hands for a lenient import; a strict import stops at check's first problem, and succeeds when
check finds none), and nothing written on refusal (no dataset, no temporary folder); and no name or tag
stored holds a character that is not text (one crashed the report).

``make test`` runs a fixed sample (``TRUC_FUZZ_INPUTS``, 500 by default); ``make fuzz`` runs 3,000 and
prints the figures. ``TRUC_FUZZ_SEED`` picks another sample; input ``i`` of a seed is made alone from
``(seed, i)``, so a failure is reproduced by its number. Failing inputs are kept under the test's folder.
"""

from __future__ import annotations

import os
import random
import signal
import time
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from pipeline.history import HistoryError, check_files, import_files
from pipeline.history.io import NothingToImport
from pipeline.parts import read_table
from pipeline.printable import NOT_TEXT
from tests.fuzz_mutations import mutate, mutations

DATA = Path(__file__).parent / "data"
CORPUS = sorted((DATA / "valid").glob("*.truc")) + sorted((DATA / "canonical").glob("*.truc"))
INPUTS = int(os.environ.get("TRUC_FUZZ_INPUTS", "500"))
SEED = int(os.environ.get("TRUC_FUZZ_SEED", "2026"))
TIME_LIMIT = 10


class Hang(Exception):
    """An input took more than ``TIME_LIMIT`` seconds."""


@contextmanager
def _time_limit(seconds: int) -> Iterator[None]:
    def stop(signum: int, frame: object) -> None:
        raise Hang(f"more than {seconds} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _holds_invariants(path: Path, work: Path) -> None:
    """Check, a lenient import and a strict import of ``path`` agree, and write nothing on refusal."""
    checked = check_files([path])
    lenient, strict = work / "lenient", work / "strict"
    try:
        imported = import_files([path], lenient, skip_invalid=True)
    except NothingToImport as nothing:
        assert checked.games == 0 and nothing.invalid == checked.invalid, (checked, nothing.invalid)
        assert not lenient.exists()
    else:
        assert (imported.games, imported.hands, imported.invalid) == (checked.games, checked.hands, checked.invalid)
        stored = [*read_table(lenient, "seats").column("player").to_pylist(), *read_table(lenient, "games")["tags"]]
        assert not any(NOT_TEXT.search(str(value)) for value in stored if value is not None)  # the report's text
    try:
        done = import_files([path], strict)
    except HistoryError as error:
        assert checked.invalid and str(error) == checked.invalid[0], (str(error), checked.invalid[:1])
        assert not strict.exists()
    else:
        assert checked.ok and done.games == checked.games, checked.invalid[:1]
    leftovers = [p.name for p in work.iterdir() if p.name not in ("lenient", "strict", path.name)]
    assert not leftovers, leftovers  # no temporary folder left behind


def test_mutated_histories_hold_the_invariants(tmp_path: Path) -> None:
    corpus = [path.read_bytes() for path in CORPUS]
    operators = mutations(corpus)
    failures: list[str] = []
    started = time.perf_counter()
    for number in range(INPUTS):
        rng = random.Random(f"{SEED}:{number}")
        data, applied = mutate(rng.choice(corpus), operators, rng)
        work = tmp_path / f"input-{number}"
        work.mkdir()
        path = work / "in.truc"
        path.write_bytes(data)
        try:
            with _time_limit(TIME_LIMIT):
                _holds_invariants(path, work)
        except Exception as exc:  # every failure is collected, then reported together
            kept = tmp_path / f"failing-{number}.truc"
            kept.write_bytes(data)
            where = traceback.extract_tb(exc.__traceback__)[-1]
            failures.append(
                f"input {number} ({', '.join(applied)}; kept as {kept}): {type(exc).__name__}: "
                f"{str(exc)[:300]} at {Path(where.filename).name}:{where.lineno}"
            )
        finally:
            _remove(work)
    seconds = time.perf_counter() - started
    print(f"\nfuzz: {INPUTS:,} inputs (seed {SEED}) in {seconds:,.0f} s, {len(failures)} failing")
    assert not failures, "\n".join(failures)


def _remove(folder: Path) -> None:
    for path in sorted(folder.rglob("*"), reverse=True):
        path.rmdir() if path.is_dir() else path.unlink()
    folder.rmdir()


@pytest.mark.parametrize("path", CORPUS[:3], ids=[p.name for p in CORPUS[:3]])
def test_the_invariants_hold_for_a_valid_file(path: Path, tmp_path: Path) -> None:
    _holds_invariants(path, tmp_path)
