"""The dataset on disk: four Parquet tables plus a manifest, written atomically.

A dataset is a folder::

    DIR/manifest.json
    DIR/games/part-00000.parquet ...
    DIR/hands/part-00000.parquet ...
    DIR/seats/part-00000.parquet ...
    DIR/events/part-00000.parquet ...

Writers write the tables' parts through ``pipeline.parts`` (their schemas, ``PartWriter``); ``atomic_dataset``
builds the whole folder beside its final place and renames it in at the end: an interrupted run leaves nothing at
``DIR``. Readers trust the manifest's list of parts (``check_dataset``); ``truc verify`` reads every part.

At its import it imports only ``pipeline.filesystem`` and ``pipeline.interrupts`` of ours (locks, the atomic
exchange): it is the bottom of the stack. It does not import pyarrow: the functions that open a part's footer or
pages import ``pipeline.parts`` (which imports this module) when called, so that a command that only reads the
manifests (``truc stats`` from the tallies) starts without it.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import re
import stat
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Final, TextIO

from pipeline import filesystem
from pipeline.interrupts import stop_signals_held
from pipeline.printable import is_utf8

TABLES = ("games", "hands", "seats", "events")

FORMAT: Final = "format"
FORMAT_VERSION: Final = 2
"""The manifest's ``format``: 2 since the events carry ``EVENT_FACTS``; a manifest without it is format 1, which
the reading commands refuse until ``truc upgrade`` (``pipeline.upgrade``) derives them."""


class DatasetError(Exception):
    """A dataset folder is missing, incomplete or unreadable."""


DATASET_KIND: Final = "a Truc Lab dataset holding only its own files"
"""What an output dataset may replace besides an empty folder (``check_output_folder``)."""


@contextlib.contextmanager
def atomic_dataset(
    out: Path, overwrite: bool, replaceable: Callable[[Path], bool] | None = None, kind: str = DATASET_KIND
) -> Iterator[Path]:
    """Yield a temporary folder beside ``out``; on success move it to ``out`` whole.

    Refuses an existing ``out`` unless ``overwrite``, and even then unless it is an empty folder or
    ``replaceable`` (by default, a dataset and nothing else; ``check_output_folder``), so that ``--out data
    --overwrite`` cannot delete a folder of runs. An ``out`` that another command writes meanwhile is left
    to it; one that another command is replacing is refused (``_hold_output``). On any error the temporary
    folder is removed and ``out`` is left as it was.
    """
    out = Path(out)
    _recover(out)
    check_output_folder(out, overwrite, replaceable, kind)
    held_out, existing = _hold_output(out)
    try:
        with _folder_beside(out) as tmp:
            yield tmp
            _move_into_place(tmp, out, existing)
    finally:
        filesystem.release(held_out)


@contextlib.contextmanager
def files_added(out: Path) -> Iterator[Path]:
    """Yield a temporary folder beside the existing folder ``out``; on success move each file made in it into
    ``out``, replacing a file of the same name and leaving ``out``'s other files as they are (``truc equilibrium``
    into a folder of earlier figures and notes), with Ctrl-C held while they move. The caller has checked that
    ``out`` may receive them. An ``out`` that another command replaced meanwhile receives nothing; on any error
    the temporary folder is removed and ``out`` is left as it was."""
    out = Path(os.path.abspath(out))  # ``--out .`` has a parent and a name
    held_out, existing = _hold_output(out)
    try:
        with _folder_beside(out) as tmp:
            yield tmp
            if filesystem.identity(out) != existing:
                raise DatasetError(f"{out} was replaced by another command while this one ran; nothing was written")
            with stop_signals_held():
                for made in sorted(tmp.iterdir()):
                    try:
                        os.replace(made, out / made.name)
                    except OSError as exc:
                        raise cannot_write(out / made.name, exc) from exc
            filesystem.remove(tmp)
    finally:
        filesystem.release(held_out)


@contextlib.contextmanager
def _folder_beside(out: Path) -> Iterator[Path]:
    """A new temporary folder beside ``out`` (made with the parent locked and swept, and held, so that no other
    command's sweep takes it while it is in use), for the caller to fill and move; removed on any error, which
    names ``out`` (a full disk: ``_raise_if_output_full``)."""
    tmp = filesystem.temporary_beside(out, "tmp")  # named before it exists: an interrupt at any step finds it
    held: int | None = None
    try:
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            with filesystem.folder_locked(out.parent):
                filesystem.sweep(out.parent)
                tmp.mkdir()  # an ordinary folder: 0o777 less the umask
                held = filesystem.hold(tmp)
        except OSError as exc:
            raise cannot_write(out, exc) from exc
        yield tmp
    except BaseException as exc:
        filesystem.remove(tmp)
        _raise_if_output_full(out, exc)
        raise
    finally:
        filesystem.release(held)


Identity = tuple[int, int]


def _hold_output(out: Path) -> tuple[int | None, Identity | None]:
    """Lock an existing ``out`` for the command's life, and say what it is (``filesystem.identity``): a
    second command replacing the same output is refused at once, instead of both saying they wrote it and
    the last one's data silently replacing the first's. Nothing to lock when ``out`` does not exist yet."""
    if not out.exists():
        return None, None
    try:
        fd = filesystem.hold(out, follow=True)
    except OSError as exc:
        raise cannot_write(out, exc) from exc
    if fd is None:
        raise DatasetError(f"{out} is being written by another command: run this one again when it ends")
    return fd, filesystem.identity_of_fd(fd)


def _move_into_place(tmp: Path, out: Path, existing: Identity | None) -> None:
    """Put the finished folder ``tmp`` at ``out``. The ``out`` that existed at the start (``existing``) is
    exchanged with it in one step where the system offers it (``filesystem.exchange``), then removed from
    the temporary name, so that no moment is without an ``out``; elsewhere ``_move_in_two_steps``. An
    ``out`` that another command wrote meanwhile is left to it."""
    current = filesystem.identity(out)
    if current is not None and current != existing:
        raise DatasetError(f"{out} was written by another command while this one ran; nothing was written")
    if current is not None:
        try:
            exchanged = filesystem.exchange(tmp, out)
        except OSError as exc:
            raise cannot_write(out, exc) from exc
        if not exchanged:
            _move_in_two_steps(tmp, out)
            return
        filesystem.fault("replace")
        filesystem.remove(tmp)  # the old output, now under the temporary name
        return
    try:
        filesystem.rename_new(tmp, out)
    except OSError as exc:
        if out.exists():  # another command wrote it while this one ran: keep its output
            raise DatasetError(f"{out} was written by another command while this one ran; nothing was written") from exc
        raise cannot_write(out, exc) from exc


def _move_in_two_steps(tmp: Path, out: Path) -> None:
    """Where the system cannot exchange two folders: ``out`` is moved aside to ``.NAME.old-...`` and ``tmp``
    moved in, with Ctrl-C and SIGTERM held between the two moves and the folder locked against sweeps. A
    second move that fails puts the old one back. A kill between the two (which nothing can hold) leaves
    the old output aside, which the next command that reads or writes ``out`` puts back
    (``filesystem.recover``)."""
    old = filesystem.temporary_beside(out, "old")
    with filesystem.folder_locked(out.parent), stop_signals_held():
        try:
            os.replace(out, old)
        except OSError as exc:
            raise cannot_write(out, exc) from exc
        filesystem.fault("replace")
        try:
            os.replace(tmp, out)
        except OSError as exc:
            with contextlib.suppress(OSError):  # should this fail too, the next command puts it back
                os.replace(old, out)
            raise cannot_write(out, exc) from exc
        filesystem.remove(old)


def _recover(out: Path) -> None:
    """Put back ``out`` if a killed ``--overwrite`` left it aside (``filesystem.recover``); raises
    ``DatasetError`` while a live command replaces it."""
    if os.path.lexists(out):
        return
    try:
        filesystem.recover(out)
    except BlockingIOError:
        raise DatasetError(
            f"{out} is being replaced by another command (--overwrite): run this one again when it ends"
        ) from None


@contextlib.contextmanager
def atomic_file(out: Path, overwrite: bool) -> Iterator[TextIO]:
    """Yield a UTF-8 text stream on a temporary file beside ``out``; on success rename it to ``out``.

    Refuses an existing ``out`` unless ``overwrite``, and anything but an ordinary file even then (renaming
    onto a device or a named pipe would replace it rather than write to it). On any error the temporary
    file is removed and ``out`` is left as it was.
    """
    out = Path(out)
    _recover(out)
    _check_output(out, overwrite, Path.is_file, "an ordinary file (write to standard output with --out -)")
    held_out, existing = _hold_output(out)
    temp = filesystem.temporary_beside(out, "tmp")  # named before it exists: an interrupt at any step finds it
    stream: TextIO | None = None
    try:
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            with filesystem.folder_locked(out.parent):
                filesystem.sweep(out.parent)
                stream = temp.open("x", encoding="utf-8", newline="\n")
                filesystem.lock(stream.fileno())
        except OSError as exc:
            raise cannot_write(out, exc) from exc
        yield stream
        stream.flush()
        _replace_file(temp, out, existing)
    except BaseException as exc:
        filesystem.remove(temp)
        _raise_if_output_full(out, exc)
        raise
    finally:
        if stream is not None:
            filesystem.release(stream.fileno(), close=False)
            with contextlib.suppress(OSError):
                stream.close()
        filesystem.release(held_out)


def _replace_file(temp: Path, out: Path, existing: Identity | None) -> None:
    """Rename the finished file ``temp`` to ``out`` (one step: a file is replaced atomically), unless
    another command wrote ``out`` meanwhile."""
    current = filesystem.identity(out)
    try:
        if current is not None and current == existing:
            os.replace(temp, out)
            return
        if current is None:
            filesystem.rename_new(temp, out)
            return
    except FileExistsError:
        pass
    except OSError as exc:
        raise cannot_write(out, exc) from exc
    raise DatasetError(f"{out} was written by another command while this one ran; nothing was written")


def _check_output(out: Path, overwrite: bool, is_kind: Callable[[Path], bool], kind: str) -> None:
    """An existing ``out`` is replaced only when asked to, and only by an output of its own kind; an ``out``
    under a file cannot be written at all, nor one inside a dataset. Each is said before any work is done."""
    blocking = _file_above(out)
    if blocking is not None:
        raise DatasetError(f"cannot write {out}: {blocking} is a file, not a folder")
    dataset = _dataset_above(out)
    if dataset is not None:
        raise DatasetError(
            f"cannot write {out}: it is inside the dataset {dataset}, which holds only what Truc Lab wrote "
            "there (a file added to it breaks it); choose another --out"
        )
    if not out.exists():
        return
    if not is_kind(out):
        raise DatasetError(f"{out} exists and is not {kind}: choose another --out")
    if not overwrite:
        raise DatasetError(f"{out} already exists: choose another --out or pass --overwrite")


def check_output_folder(
    out: Path, overwrite: bool, replaceable: Callable[[Path], bool] | None = None, kind: str = DATASET_KIND
) -> None:
    """``_check_output`` for a folder: an empty folder may always be replaced, any other only when it is
    ``replaceable`` (by default ``_replaceable_dataset``). Its path must be text (``text_path``)."""
    text_path(out, "write")
    is_kind = replaceable or _replaceable_dataset
    _check_output(out, overwrite, lambda path: path.is_dir() and (not any(path.iterdir()) or is_kind(path)), kind)


def text_path(path: Path, verb: str) -> None:
    """Refuse a folder whose path is not UTF-8 text (``printable.is_utf8``): pyarrow and DuckDB take a path as
    UTF-8."""
    if not is_utf8(str(path)):
        raise DatasetError(
            f"cannot {verb} {path}: its name is not UTF-8 text, which the Parquet and DuckDB libraries need; "
            "rename it or choose another"
        )


def _is_dataset(path: Path) -> bool:
    """Whether ``path`` holds a manifest; a folder that cannot be searched is named (``is_file`` lets the
    system's "Permission denied" through, which reached the user bare)."""
    try:
        return (path / "manifest.json").is_file()
    except OSError as exc:
        raise DatasetError(f"cannot read {path}: {exc.strerror}") from None


TALLIES: Final = "tallies"
"""The folder of a dataset's tallies (``pipeline.tallies``: a file ``NAME.parquet`` per statistic) and the
manifest's record of them: by relative path, each file's ``rows``, ``bytes``, ``blake2b`` checksum (as a
part's) and the ``digest`` of the SQL that computed it. They are derived from the tables, so a reader that
finds one missing, changed or computed by other SQL reads the rows instead; ``truc verify`` reports them."""
TALLY_NAME: Final = re.compile(r"[a-z_]+\.parquet")

DATASET_ENTRIES: Final = frozenset({"manifest.json", TALLIES, *TABLES})
SIMULATION: Final = "simulation"
IMPORT: Final = "import"
"""The ``kind`` of the manifests that ``truc simulate`` and ``truc import`` write."""
MANIFEST_KINDS: Final = (SIMULATION, IMPORT)


PART_NAME: Final = re.compile(r"part-\d{5,}\.parquet")
"""The name of a table's files (``parts.PartWriter``)."""


def holds_only_files(folder: Path, named: Callable[[str], object]) -> bool:
    """Whether ``folder`` is missing or holds only files whose names ``named`` accepts: what Truc Lab wrote
    there (a table's parts, a report's charts), so that replacing it loses nothing of a user's."""
    return not folder.exists() or all(named(entry.name) and entry.is_file() for entry in folder.iterdir())


def _replaceable_dataset(path: Path) -> bool:
    """A folder ``--overwrite`` may replace: a dataset written by ``truc simulate`` or ``truc import`` (its
    manifest says so) that holds nothing but its manifest and its four tables, each a folder of parts.
    Anything else in it (notes, the history file being imported, a dataset nested inside, a file put in a
    table's folder) must survive a mistyped ``--out``, and so must a folder that merely has a file named
    ``manifest.json``."""
    try:
        if {entry.name for entry in path.iterdir()} - DATASET_ENTRIES:
            return False
        if not all(holds_only_files(path / table, PART_NAME.fullmatch) for table in TABLES):
            return False
        if not holds_only_files(path / TALLIES, TALLY_NAME.fullmatch):
            return False
        manifest = read_manifest(path)
    except (OSError, DatasetError):
        return False
    return manifest.get("kind") in MANIFEST_KINDS


def _dataset_above(out: Path) -> Path | None:
    """The dataset that holds ``out`` (at any depth), if any: ``--out DATASET/games/part-99999.parquet`` was
    written, and the dataset it was written into no longer read."""
    return next((folder for folder in Path(os.path.abspath(out)).parents if _is_dataset(folder)), None)


def _file_above(out: Path) -> Path | None:
    """The first of ``out``'s parent folders that is a file instead, if any: nothing can be written there."""
    return next((p for p in reversed(Path(out).parents) if p.exists() and not p.is_dir()), None)


_OUTPUT_ERRORS: Final = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS})
"""The errors of writing an output (full disk, quota, file too large, read-only), whoever raised them: a
``DatasetError`` names the output rather than the library's own words (pyarrow: "Error writing bytes")."""


def _raise_if_output_full(out: Path, exc: BaseException) -> None:
    if isinstance(exc, OSError) and exc.errno in _OUTPUT_ERRORS:
        raise DatasetError(f"cannot write {out}: {os.strerror(exc.errno)}; nothing was written") from exc


def cannot_write(out: Path, exc: OSError) -> DatasetError:
    """The error for an output that cannot be created where asked (a parent that is a file, a read-only
    or missing mount): it names the output, not the temporary file written first."""
    blocking = _file_above(out)
    reason = f"{blocking} is a file, not a folder" if blocking is not None else exc.strerror or str(exc)
    return DatasetError(f"cannot write {out}: {reason}")


PARTS: Final = "parts"
"""The manifest's list of every part of every table: its path relative to the dataset (``games/part-00000
.parquet``), its ``rows``, its ``bytes`` and its ``blake2b`` checksum (``part_entry``). Readers trust it
(``check_dataset`` compares sizes, never reads a footer); ``truc verify`` reads every part against it."""

CHECKSUM: Final = "blake2b"
_READ_BYTES: Final = 1 << 20


def write_manifest(root: Path, manifest: dict[str, Any]) -> None:
    """Write ``manifest`` as the dataset ``root``'s manifest, with the list of its parts (``PARTS``; added to
    ``manifest`` too). Written once every part is: each part is checked (``parts.check_part``: every column, no
    null where Truc Lab always fills one) and hashed here, once, so that no reader has to; and its ``FORMAT``,
    which every part's columns then meet."""
    manifest[PARTS] = list_parts(root)
    manifest[FORMAT] = FORMAT_VERSION
    (root / "manifest.json").write_text(_manifest_text(manifest), "utf-8")


def rewrite_manifest(root: Path, manifest: dict[str, Any]) -> None:
    """Write ``manifest`` over the manifest of ``root``, a dataset's temporary folder that no one reads yet (its
    writer adds what it computed from the dataset written: ``pipeline.tallies``)."""
    (root / "manifest.json").write_text(_manifest_text(manifest), "utf-8")


def _manifest_text(manifest: dict[str, Any]) -> str:
    return json.dumps(manifest, indent=2, sort_keys=True) + "\n"


def list_parts(root: Path) -> dict[str, dict[str, Any]]:
    """The entry of every part of every table of ``root`` (``PARTS``), by relative path."""
    return {f"{name}/{part.name}": part_entry(part, name) for name in TABLES for part in table_files(root, name)}


def part_entry(part: Path, table: str, optional: Sequence[str] = ()) -> dict[str, Any]:
    """What the manifest records of the part ``part`` of ``table``: its rows, bytes and checksum. Raises
    ``DatasetError`` for a part that is not a sound part of ``table`` (``parts.check_part``; the columns ``optional``
    may be missing)."""
    from pipeline import parts

    rows = parts.check_part(part, table, optional)
    digest, size = file_checksum(part)
    return {"rows": rows, "bytes": size, CHECKSUM: digest}


def file_checksum(path: Path) -> tuple[str, int]:
    """The ``blake2b`` (16 bytes, hex) of the file ``path``'s bytes, and their number."""
    digest = hashlib.blake2b(digest_size=16)
    size = 0
    try:
        with path.open("rb") as stream:
            while chunk := stream.read(_READ_BYTES):
                digest.update(chunk)
                size += len(chunk)
    except OSError as exc:
        raise DatasetError(f"{path} cannot be read: {exc.strerror}") from exc
    return digest.hexdigest(), size


MANIFEST_BYTES: Final = 1 << 26
MANIFEST_DEPTH: Final = 32
"""The largest manifest read, and its deepest nesting: Truc Lab writes a few kilobytes, four levels deep,
plus about 130 bytes per part (``PARTS``: 8,000 parts a table, a 2-million-game run, take about 4 MB).
Python's JSON reader recurses once per level (``[`` × 100,000 raised ``RecursionError``)."""


def read_manifest(root: Path) -> dict[str, Any]:
    """The manifest of the dataset ``root``, as a dict (``read_json``). Raises ``DatasetError`` when it is
    missing or is not a JSON object."""
    path = Path(root) / "manifest.json"
    result = read_json(path)
    if result is None:
        raise DatasetError(f"{root} is not a Truc Lab dataset: {path} is missing")
    if not isinstance(result, dict):
        raise DatasetError(f"{path} is not a Truc Lab manifest: a JSON object was expected")
    return result


def read_json(path: Path) -> Any:
    """The JSON value in the file ``path`` that Truc Lab wrote (a manifest, an experiment's file); None when
    there is no file. Raises ``DatasetError`` when it is not a regular file (a named pipe is not opened for
    reading, which would wait for a writer), is larger than ``MANIFEST_BYTES``, nests deeper than
    ``MANIFEST_DEPTH`` or is not JSON."""
    text = _small_text_file(Path(path), MANIFEST_BYTES)
    if text is None:
        return None
    try:
        depth = _json_depth(text)
        if depth > MANIFEST_DEPTH:
            raise ValueError(f"nested {depth:,} levels deep, more than {MANIFEST_DEPTH}")
        return json.loads(text)
    except ValueError as exc:
        raise DatasetError(f"{path} is not valid JSON: {exc}") from exc


def _small_text_file(path: Path, limit: int) -> str | None:
    """The UTF-8 text of the regular file ``path``; None when there is none. Raises ``DatasetError`` for one
    that is not a regular file, is larger than ``limit`` bytes or is not UTF-8. The file is opened without
    waiting (a named pipe would wait for a writer) and checked once open, so that what is read is what was
    checked."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise DatasetError(f"{path} cannot be read: {exc.strerror}") from exc
    with os.fdopen(fd, "rb") as stream:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode):
            raise DatasetError(f"{path} is not a regular file")
        try:
            data = stream.read(limit + 1)
        except OSError as exc:
            raise DatasetError(f"{path} cannot be read: {exc.strerror}") from exc
    if len(data) > limit:
        raise DatasetError(f"{path} is larger than {limit:,} bytes: it is not a Truc Lab manifest")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DatasetError(f"{path} is not valid JSON: it is not UTF-8 text") from exc


_JSON_STRING: Final = re.compile(r'"(?:[^"\\]|\\.)*"')
_JSON_BRACKET: Final = re.compile(r"[\[\]{}]")


def _json_depth(text: str) -> int:
    """How deeply the JSON ``text`` nests arrays and objects (the brackets inside its strings left out)."""
    depth = deepest = 0
    for bracket in _JSON_BRACKET.findall(_JSON_STRING.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def check_dataset(root: Path) -> None:
    """Raise ``DatasetError`` naming what is missing when ``root`` is not a complete dataset."""
    root = Path(root)
    _recover(root)
    if not root.is_dir():
        raise DatasetError(f"{root} does not exist or is not a folder")
    with unchanged([root]):
        _check_whole(root)


def _check_whole(root: Path) -> None:
    """The parts on disk are those the manifest lists (``PARTS``), each of the size it lists, and each
    table's listed rows add up to the manifest's count: a stat per part, no file opened. A part damaged
    in place keeps its size: ``truc verify`` reads every part against its checksum, and a read that fails
    names the part (``read_error``)."""
    manifest = read_manifest(root)
    check_listing(root, manifest)
    check_format(root, manifest)


def format_of(manifest: dict[str, Any]) -> int:
    """The manifest's ``FORMAT`` (1 when it has none: written before formats were numbered)."""
    value = manifest.get(FORMAT, 1)
    return value if type(value) is int else 1


def check_format(root: Path, manifest: dict[str, Any]) -> None:
    """Raise ``DatasetError`` saying to run ``truc upgrade`` for a dataset of an older format than this Truc Lab
    reads, and saying so for one of a newer format."""
    version = format_of(manifest)
    if version < FORMAT_VERSION:
        raise DatasetError(
            f"{root} was written by an older Truc Lab (format {version}): its events lack the columns the "
            f"statistics read; run `truc upgrade --data {root}` (it derives them)"
        )
    if version > FORMAT_VERSION:
        raise DatasetError(
            f"{root} was written by a newer Truc Lab (format {version}; this one reads {FORMAT_VERSION}): "
            "upgrade Truc Lab"
        )


def _listing_problems(
    root: Path, manifest: dict[str, Any], listed: dict[str, dict[str, Any]]
) -> Iterator[tuple[str | None, str]]:
    """What disagrees between the parts on disk and the manifest's list: each problem with the listed part
    it concerns (its relative path; None for one on disk only, or a table's whole) and a line saying it."""
    rows_tag = manifest.get("rows")
    counted: dict[str, Any] = rows_tag if isinstance(rows_tag, dict) else {}
    for name in TABLES:
        parts = table_files(root, name)
        if not parts:
            yield None, f"{root} is incomplete: no Parquet files in {root / name}"
            continue
        entries = {relative: entry for relative, entry in listed.items() if relative.startswith(f"{name}/")}
        rows = sum(entry["rows"] for entry in entries.values())
        for part in parts:
            relative = f"{name}/{part.name}"
            entry = entries.pop(relative, None)
            if entry is None:
                yield (
                    None,
                    (
                        f"{part} is not listed in {root / 'manifest.json'}: a file was added after the dataset "
                        "was written; remove it"
                    ),
                )
                continue
            size = part.stat().st_size
            if size != entry["bytes"]:
                yield (
                    relative,
                    (
                        f"{part} has changed since the dataset was written ({size:,} bytes where its manifest "
                        f"lists {entry['bytes']:,}): simulate or import it again"
                    ),
                )
        for relative in entries:
            yield (
                relative,
                (
                    f"{root / relative} is listed in {root / 'manifest.json'} but missing: a file was removed "
                    "after the dataset was written"
                ),
            )
        if isinstance(counted.get(name), int) and rows != counted[name]:
            yield (
                None,
                (
                    f"{root / name}: its manifest lists parts of {rows:,} rows where it counts {counted[name]:,}; "
                    "the manifest was edited"
                ),
            )


def existing_folder(root: Path) -> Path:
    """``root`` as a path, once an interrupted replacement of it is put back (``_recover``); ``DatasetError``
    when it is not a folder."""
    root = Path(root)
    _recover(root)
    if not root.is_dir():
        raise DatasetError(f"{root} does not exist or is not a folder")
    return root


def verify_dataset(root: Path) -> list[str]:
    """What is damaged in the dataset ``root`` (``truc verify``), a line per damaged part naming it and
    saying how; empty when the parts on disk are those its manifest lists and each is whole: its bytes
    hash to the listed checksum, and it reads in full to the listed rows. Every part is read: this is the
    check that readers leave out (``check_dataset``). Raises ``DatasetError`` for a folder that is not a
    dataset, or whose manifest lists no parts (``listed_parts`` says what to do)."""
    root = existing_folder(root)
    with unchanged([root]):
        manifest = read_manifest(root)
        if format_of(manifest) > FORMAT_VERSION:
            check_format(root, manifest)  # its parts may hold what this Truc Lab cannot check
        listed = listed_parts(root, manifest)
        problems = list(_listing_problems(root, manifest, listed))
        seen = {relative for relative, _ in problems}
        lines = [line for _, line in problems]
        for relative, entry in listed.items():
            if relative not in seen and (root / relative).is_file():  # a missing one is among the problems
                damage = _part_damage(root / relative, entry)
                if damage is not None:
                    lines.append(damage)
        lines.extend(_tally_damage(root, manifest))
    return lines


def tally_entries(manifest: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The manifest's record of the dataset's tallies (``TALLIES``), by relative path; empty when it has none."""
    entries = manifest.get(TALLIES)
    return entries if isinstance(entries, dict) else {}


def _tally_damage(root: Path, manifest: dict[str, Any]) -> Iterator[str]:
    """A line for each tally the manifest records that is missing or not the file written (``TALLIES``)."""
    for relative, entry in tally_entries(manifest).items():
        path = root / relative
        if not path.is_file():
            yield f"{path} is listed in {root / 'manifest.json'} but missing (a tally: `truc upgrade` writes it again)"
            continue
        damage = _part_damage(path, entry)
        if damage is not None:
            yield f"{damage} (a tally: `truc upgrade` writes it again)"


def _part_damage(part: Path, entry: dict[str, Any]) -> str | None:
    """How the part ``part`` differs from its manifest ``entry``, or None when it does not (one that cannot be read
    says why)."""
    try:
        digest, _ = file_checksum(part)
    except DatasetError as exc:
        return str(exc)
    if digest != entry[CHECKSUM]:
        return f"{part} is damaged: its bytes are not those written ({CHECKSUM} {digest}, listed {entry[CHECKSUM]})"
    from pipeline import parts

    try:
        rows = parts.rows_read(part)
    except DatasetError as exc:
        return str(exc)
    if rows != entry["rows"]:
        return f"{part} holds {rows:,} rows where its manifest lists {entry['rows']:,}"
    return None


def verify_datasets(paths: Sequence[Path]) -> list[tuple[Path, list[str]]]:
    """Each dataset that ``paths`` names (``expand_datasets``) with what is damaged in it (``verify_dataset``)."""
    return [(folder, verify_dataset(folder)) for folder in expand_datasets(paths)]


def upgrade_dataset(root: Path) -> bool:
    """Write the list of parts (``PARTS``) into the manifest of the dataset ``root``, written by a Truc Lab
    from before the list, once every part is read in full (``read_parts_in_full``). The new manifest is written
    beside the old one and renamed over it (``replace_manifest``): a kill leaves one or the other. Returns
    False, writing nothing, for a dataset that already lists its parts. Raises ``DatasetError`` naming a damaged
    part; nothing is written then. A dataset of an older ``FORMAT`` is ``pipeline.upgrade``'s to rewrite."""
    root = existing_folder(root)
    with unchanged([root]):
        manifest = read_manifest(root)
        if PARTS in manifest:
            return False
        replace_manifest(root, {**manifest, PARTS: read_parts_in_full(root, manifest)})
    return True


def read_parts_in_full(root: Path, manifest: dict[str, Any], optional: Sequence[str] = ()) -> dict[str, dict[str, Any]]:
    """The ``PARTS`` entry of every part of the dataset ``root``, once each is read in full: a sound part of its
    table (``parts.check_part``: every column but the events' ``optional`` ones, no null where Truc Lab always fills
    one), each page readable, and each table's rows those its ``manifest`` counts. Raises ``DatasetError``
    naming a damaged part."""
    from pipeline import parts

    rows_tag = manifest.get("rows")
    counted: dict[str, Any] = rows_tag if isinstance(rows_tag, dict) else {}
    entries: dict[str, dict[str, Any]] = {}
    for name in TABLES:
        files = table_files(root, name)
        if not files:
            raise DatasetError(f"{root} is incomplete: no Parquet files in {root / name}")
        for part in files:
            entry = part_entry(part, name, optional if name == "events" else ())
            rows = parts.rows_read(part)
            if rows != entry["rows"]:
                raise DatasetError(f"{part} holds {rows:,} rows where its footer counts {entry['rows']:,}")
            entries[f"{name}/{part.name}"] = entry
        rows = sum(entries[f"{name}/{part.name}"]["rows"] for part in files)
        if isinstance(counted.get(name), int) and rows != counted[name]:
            raise DatasetError(
                f"{root / name} holds {rows:,} rows where its manifest counts {counted[name]:,}: a file was "
                "added, removed or replaced after the dataset was written"
            )
    return entries


def check_listing(root: Path, manifest: dict[str, Any]) -> None:
    """Raise ``DatasetError`` when the parts on disk are not those ``manifest`` lists, of the sizes it lists
    (what ``check_dataset`` checks, whatever the dataset's ``FORMAT``)."""
    problem = next(_listing_problems(root, manifest, listed_parts(root, manifest)), None)
    if problem is not None:
        raise DatasetError(problem[1])


def upgrade_datasets(paths: Sequence[Path]) -> list[tuple[Path, bool]]:
    """Each dataset that ``paths`` names (``expand_datasets``), upgraded (``upgrade_dataset``), with whether
    its manifest was rewritten."""
    return [(folder, upgrade_dataset(folder)) for folder in expand_datasets(paths)]


def replace_manifest(root: Path, manifest: dict[str, Any]) -> None:
    """Write ``manifest`` to a hidden file in ``root``, flushed to the disk, then rename it over
    ``manifest.json``, both through the folder held open: a folder put at ``root`` meanwhile (another
    command's ``--overwrite``) is not written into."""
    data = _manifest_text(manifest).encode("utf-8")
    temp = f".manifest.json.upgrade-{os.getpid()}"
    try:
        folder = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as exc:
        raise cannot_write(root / "manifest.json", exc) from exc
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666, dir_fd=folder)
        try:
            with os.fdopen(fd, "wb", closefd=False) as stream:
                stream.write(data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temp, "manifest.json", src_dir_fd=folder, dst_dir_fd=folder)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp, dir_fd=folder)
        raise cannot_write(root / "manifest.json", exc) from exc
    finally:
        os.close(folder)


def listed_parts(root: Path, manifest: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The manifest's ``PARTS``, each entry checked for its form. Raises ``DatasetError`` for a manifest
    written before it existed (saying what to do) and for one that lists a part wrongly."""
    parts = manifest.get(PARTS)
    if parts is None:
        raise DatasetError(
            f"{root} was written by an older Truc Lab: its manifest does not list its parts; run "
            f"`truc upgrade --data {root}` (it checks every part and lists it)"
        )
    if not isinstance(parts, dict):
        raise DatasetError(f"{root / 'manifest.json'}: its {PARTS} is not an object of parts")
    for relative, entry in parts.items():
        table, _, name = relative.partition("/")
        well_formed = (
            table in TABLES
            and PART_NAME.fullmatch(name) is not None
            and isinstance(entry, dict)
            and all(type(entry.get(key)) is int and entry[key] >= 0 for key in ("rows", "bytes"))
            and isinstance(entry.get(CHECKSUM), str)
        )
        if not well_formed:
            raise DatasetError(f"{root / 'manifest.json'} lists the part {relative!r} wrongly")
    return parts


@contextlib.contextmanager
def unchanged(folders: Sequence[Path]) -> Iterator[None]:
    """Raise ``DatasetError`` when one of the dataset ``folders`` is replaced (``--overwrite`` of another
    command) while the block reads it: what it read may mix the old dataset and the new one, or fail on a
    file of the old one that is gone, with a message that misleads ("a file was added, removed or
    replaced"). The block's own error is kept as the cause. A dataset being replaced is a new folder at the
    same path (the exchange or the moves of ``atomic_dataset``), which its identity tells. Each folder is
    held open meanwhile, so that the system cannot give its identity to the new folder."""
    held: list[tuple[Path, int | None]] = []
    try:
        for folder in folders:
            try:
                held.append((folder, os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)))
            except OSError:
                held.append((folder, None))

        def replaced() -> list[Path]:
            return [
                folder
                for folder, fd in held
                if filesystem.identity(folder) != (None if fd is None else filesystem.identity_of_fd(fd))
            ]

        try:
            yield
        except Exception as exc:
            if replaced():
                raise _replaced(replaced()) from exc
            raise
        if replaced():
            raise _replaced(replaced())
    finally:
        for _, fd in held:
            if fd is not None:
                os.close(fd)


def _replaced(folders: Sequence[Path]) -> DatasetError:
    names = ", ".join(str(folder) for folder in folders)
    return DatasetError(f"{names} was replaced while this command read it: run the command again")


def read_error(folders: Sequence[Path], error: BaseException) -> DatasetError:
    """The error for a read of the datasets ``folders`` that failed (DuckDB's, while a query read them):
    the first part that cannot be read whole, by name, when there is one (DuckDB may say only "ZSTD
    Decompression failure" or "Out of buffer", naming no file); else the error's first line, naming the
    folders. Every part is read to find it: this is only done once a read has failed."""
    broken = unreadable_part(folders)
    if broken is not None:
        return broken
    text = str(error).strip()
    first_line = text.splitlines()[0] if text else type(error).__name__
    return DatasetError(f"cannot read dataset {', '.join(str(folder) for folder in folders)}: {first_line}")


def not_parquet(part: Path, error: BaseException) -> DatasetError:
    """The one-line error for a part that cannot be read: its path and the first line of the library's reason
    (Arrow's may run over several lines)."""
    text = str(error).strip()
    reason = text.splitlines()[0] if text else type(error).__name__
    return DatasetError(f"{part} is not a readable Parquet file: {reason}")


def unreadable_part(folders: Sequence[Path]) -> DatasetError | None:
    """The error naming the first Parquet file of ``folders`` that cannot be read whole (its footer may be
    sound while a page is corrupt, which ``check_dataset`` does not read): a part, or a tally (``TALLIES``);
    None when each reads."""
    from pipeline import parts

    for folder in folders:
        tallies = sorted(folder.joinpath(TALLIES).glob("*.parquet"))
        for part in [*(part for table in TABLES for part in table_files(folder, table)), *tallies]:
            try:
                parts.rows_read(part)
            except DatasetError as exc:
                return exc
    return None


def expand_datasets(paths: Sequence[Path]) -> list[Path]:
    """The datasets named by ``paths``: a dataset folder stands for itself; a folder without a manifest
    (several runs written into one folder, or folders of such folders) stands for every dataset below it,
    at any depth, in name order, a dataset's own folders and hidden folders (an output being written)
    left alone. Raises ``DatasetError`` for a folder that holds none."""
    found: list[Path] = []
    for path in map(Path, paths):
        text_path(path, "read")
        if _is_dataset(path) or not path.is_dir():
            found.append(path)
            continue
        runs = _datasets_below(path)
        if not runs:
            raise DatasetError(f"{path} is not a Truc Lab dataset: no manifest.json in it or in its subfolders")
        found.extend(runs)
    return found


def _datasets_below(folder: Path) -> list[Path]:
    """The datasets below ``folder``, walked depth first in name order. A folder is entered once however
    many links lead to it, and never one that holds ``folder`` (a link to ``.`` or ``..``), so that links
    that make a cycle end the walk instead of repeating it until the process is killed."""
    seen = {_identity(above) for above in (folder, *folder.resolve().parents)}
    runs: list[Path] = []
    pending = [folder]
    while pending:
        current = pending.pop()
        below: list[Path] = []
        for child in _subfolders(current):
            identity = _identity(child)
            if identity is None or identity in seen:
                continue
            seen.add(identity)
            if _is_dataset(child):
                runs.append(child)
            else:
                below.append(child)
        pending.extend(reversed(below))
    return sorted(runs, key=lambda run: run.relative_to(folder).parts)


def _subfolders(folder: Path) -> list[Path]:
    """The folders in ``folder`` (through links too), hidden ones (an output being written) left out."""
    try:
        entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
    except OSError:
        return []
    found = []
    for entry in entries:
        with contextlib.suppress(OSError):
            if not entry.name.startswith(".") and entry.is_dir():
                found.append(folder / entry.name)
    return found


def _identity(path: Path) -> tuple[int, int] | None:
    """What tells one folder from another however it is reached (device and inode); None when unreadable."""
    try:
        status = path.stat()
    except OSError:
        return None
    return status.st_dev, status.st_ino


def dataset_folders(data: Path | Sequence[Path]) -> list[Path]:
    """The datasets that ``data`` names (one folder, a folder of runs, or several of either; see
    ``expand_datasets``), each checked (``check_dataset``), resolved, and listed once in the order first
    named: what the statistics, the cross-checks and the export read, so that no game is read twice."""
    items = [Path(data)] if isinstance(data, str | os.PathLike) else [Path(item) for item in data]
    if not items:
        raise DatasetError("no dataset folder given")
    folders: list[Path] = []
    for item in expand_datasets(items):
        check_dataset(item)
        folder = item.resolve()
        if folder not in folders:
            folders.append(folder)
    return folders


def table_glob(root: Path, name: str) -> str:
    """A glob of one table's files, for polars in the tests' cross-check (``stats_check``). The commands
    read the files ``table_files`` lists: a glob takes ``[``, ``?`` and ``*`` in the folder's own name as
    a pattern, and reads whatever other folders it matches."""
    return str(Path(root) / name / "*.parquet")


def table_files(root: Path, name: str) -> list[Path]:
    """The Parquet files of table ``name`` of the dataset ``root``, in name order: every entry whose name
    ends in ``.parquet`` and does not start with a dot (a hidden file is not the dataset's). Raises
    ``DatasetError`` for such an entry that is not a regular file (a folder, a named pipe, a device, a
    broken link): opening a named pipe would wait for a writer forever."""
    folder = Path(root) / name
    try:
        names = sorted(entry.name for entry in os.scandir(folder))
    except OSError:
        return []
    parts = [folder / entry for entry in names if entry.endswith(".parquet") and not entry.startswith(".")]
    for part in parts:
        try:
            regular = stat.S_ISREG(part.stat().st_mode)
        except OSError as exc:
            raise DatasetError(f"{part} cannot be read: {exc.strerror}") from exc
        if not regular:
            raise DatasetError(f"{part} is not a regular file: a dataset's tables hold Parquet files only")
    return parts


_GLOB_CHARACTERS: Final = re.compile(r"([\[*?])")


def table_sources(root: Path, name: str) -> list[str]:
    """The files of table ``name`` of ``root`` (``table_files``) as DuckDB's ``read_parquet`` takes them
    (``duckdb_path``)."""
    return [duckdb_path(part) for part in table_files(root, name)]


def duckdb_path(part: Path) -> str:
    """The file ``part`` as DuckDB's ``read_parquet`` takes it. It takes every path as a glob, so the glob
    characters of a path are escaped, each as a class of its own (``[[]``): a dataset named ``d[1]`` is read,
    not ``d1``. DuckDB's glob also splits a path at a backslash, so a path holding both cannot be given to it;
    that is said rather than read wrongly."""
    text = str(part)
    if "\\" in text and _GLOB_CHARACTERS.search(text):
        raise DatasetError(
            f"{part}: DuckDB cannot read a file whose path holds a backslash and one of [ * ?; rename the folder"
        )
    return _GLOB_CHARACTERS.sub(r"[\1]", text)
