"""The ``cfr`` bot's policy file read once and kept (``pipeline.policies.cfr.read_policy``): a file rewritten at
the same path, retrained by ``truc train`` or replaced, is read anew, and one removed is the one-line error of a
missing file, not the table read before it went."""

from __future__ import annotations

import gzip
import json
import os
import time
from pathlib import Path

import pytest

from pipeline.policies.cfr import Abstraction, PolicyFileError, PolicyTable, read_policy, write_policy


def a_table(first: float, iterations: int = 10) -> PolicyTable:
    """A policy of one information state with two choices, ``first`` the chance of the first."""
    return PolicyTable(
        "catalan", {"players": "2"}, Abstraction(), {"iterations": iterations}, {"k": (["a", "b"], [first, 1 - first])}
    )


def test_a_policy_file_replaced_at_the_same_path_is_read_anew(tmp_path: Path) -> None:
    """``truc train`` writes the new file aside and renames it over the old one; here its time is even set to
    the old file's, to the nanosecond, so that only what the file is tells them apart."""
    path = tmp_path / "p.json.gz"
    write_policy(path, a_table(0.25, iterations=10))
    first = os.stat(path)
    assert read_policy(path).infostates["k"] == (["a", "b"], [0.25, 0.75])
    write_policy(path, a_table(0.75, iterations=20))
    os.utime(path, ns=(first.st_atime_ns, first.st_mtime_ns))
    again = read_policy(path)
    assert again.infostates["k"] == (["a", "b"], [0.75, 0.25]) and again.training == {"iterations": 20}


def test_a_policy_file_rewritten_in_place_to_the_same_size_and_time_is_read_anew(tmp_path: Path) -> None:
    """The same file (inode) rewritten with other bytes of the same length, its modification time put back:
    its change time, which no one can set, still tells."""

    def document(first: float) -> bytes:
        table = {"k": [["a", "b"], [first, 1 - first]]}
        text = {"format": "truc-cfr", "version": 1, "variant": "catalan", "options": {"players": "2"}}
        text |= {"abstraction": {"buckets": 8, "top": 3, "middle": 3}, "training": {}, "infostates": table}
        return gzip.compress(json.dumps(text).encode(), compresslevel=0, mtime=0)  # stored: as long as the text

    path = tmp_path / "p.json.gz"
    old, new = document(0.25), document(0.75)
    assert len(old) == len(new) and old != new
    path.write_bytes(old)
    first = os.stat(path)
    assert read_policy(path).infostates["k"][1] == [0.25, 0.75]
    time.sleep(0.05)  # the system's file clock may tick only every few milliseconds
    with path.open("r+b") as f:  # the same inode, written over
        f.write(new)
    os.utime(path, ns=(first.st_atime_ns, first.st_mtime_ns))
    now = os.stat(path)
    assert (now.st_ino, now.st_size, now.st_mtime_ns) == (first.st_ino, first.st_size, first.st_mtime_ns)
    assert now.st_ctime_ns != first.st_ctime_ns
    assert read_policy(path).infostates["k"][1] == [0.75, 0.25]


def test_a_policy_file_removed_after_it_was_read_is_the_one_line_error(tmp_path: Path) -> None:
    path = tmp_path / "p.json.gz"
    write_policy(path, a_table(0.5))
    read_policy(path)
    path.unlink()
    with pytest.raises(PolicyFileError) as error:
        read_policy(path)
    assert str(error.value) == f"policy cfr: file {path.resolve()}: no such file"


def test_a_policy_file_unchanged_is_read_once(tmp_path: Path) -> None:
    """What the cache is for: every bot of a run built from one file shares its table (read once)."""
    path = tmp_path / "p.json.gz"
    write_policy(path, a_table(0.5))
    assert read_policy(path) is read_policy(tmp_path / "." / "p.json.gz")
