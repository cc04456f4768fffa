"""The simulator: complete games, reproducible whatever the workers, atomic output, bounded batches."""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
from pathlib import Path

import polars as pl
import pyarrow.parquet as pq
import pytest

from pipeline import parts, store, workers
from pipeline import simulate as simulate_module
from pipeline.playing import play_game
from pipeline.policies import PolicyError, parse_policy
from pipeline.simulate import SimulationError, SimulationSpec, game_seed, simulate
from pipeline.store import TABLES, DatasetError, check_dataset, read_manifest, write_manifest
from pipeline.variants import get_variant


def read(root: Path, table: str) -> pl.DataFrame:
    return pl.read_parquet(root / table / "*.parquet").sort(pl.all())


def test_the_same_seed_gives_the_same_rows_whatever_the_workers(tmp_path: Path, monkeypatch) -> None:
    """The same rows in the same order in every table, with parts sized by rows (row groups of
    ``parts.ROW_GROUP_ROWS``, ``parts.PART_ROW_GROUPS`` to a part), not by chunks of games."""
    monkeypatch.setattr(simulate_module, "CHUNK_GAMES", 40)  # several chunks, so the pool is used
    monkeypatch.setattr(parts, "ROW_GROUP_ROWS", 300)
    monkeypatch.setattr(parts, "PART_ROW_GROUPS", 2)
    spec = SimulationSpec("catalan", 130, 5, {"players": "4", "signals": "on"}, "threshold", {2: "random"}, workers=1)
    one = simulate(spec, tmp_path / "one")
    two = simulate(SimulationSpec(**{**spec.__dict__, "workers": 2}), tmp_path / "two")
    assert one.rows == two.rows and one.hands == two.hands
    for table in TABLES:
        assert read(tmp_path / "one", table).equals(read(tmp_path / "two", table))
        in_order = [pl.read_parquet(run / table / "*.parquet") for run in (tmp_path / "one", tmp_path / "two")]
        assert in_order[0].equals(in_order[1])
        files = sorted((tmp_path / "two" / table).glob("*.parquet"))
        assert len(files) == -(-one.rows[table] // 600)  # 600 rows a part, the last one shorter
        footers = [pq.ParquetFile(part).metadata for part in files]
        groups = [footer.row_group(g).num_rows for footer in footers for g in range(footer.num_row_groups)]
        assert groups[:-1] == [300] * (len(groups) - 1) and 0 < groups[-1] <= 300 and sum(groups) == one.rows[table]
        assert [footer.num_row_groups for footer in footers[:-1]] == [2] * (len(files) - 1)
    assert one.rows["events"] > 3_000  # several parts of every table but games
    assert (one.manifest["workers"], two.manifest["workers"]) == (1, 2)
    simulate(SimulationSpec(**{**spec.__dict__, "seed": 6}), tmp_path / "three")
    assert not read(tmp_path / "one", "seats").equals(read(tmp_path / "three", "seats"))


def test_the_default_workers_are_the_usable_cores_at_most_one_per_chunk(tmp_path: Path, monkeypatch) -> None:
    """Without --workers a run uses every core it may (the data does not depend on it), and never more
    processes than chunks; the manifest records the processes that played."""
    monkeypatch.setattr(simulate_module, "CHUNK_GAMES", 40)
    monkeypatch.setattr(simulate_module, "usable_cores", lambda: 3)
    spec = SimulationSpec("trut", 130, 8, {"players": "3"})
    assert spec.workers is None
    several = simulate(spec, tmp_path / "several")
    assert several.manifest["workers"] == 3  # 4 chunks, 3 cores
    assert simulate(SimulationSpec("trut", 30, 8, {"players": "3"}), tmp_path / "few").manifest["workers"] == 1
    simulate(SimulationSpec(**{**spec.__dict__, "workers": 1}), tmp_path / "alone")
    for table in TABLES:
        assert read(tmp_path / "several", table).equals(read(tmp_path / "alone", table))


def test_usable_cores_are_this_process_s_cores_within_its_cpu_quota(tmp_path: Path) -> None:
    cores = len(os.sched_getaffinity(0))
    quota = tmp_path / "cpu.max"
    assert workers.usable_cores(tmp_path / "none") == cores >= 1  # no quota file: the affinity
    for text, expected in [
        ("max 100000\n", cores),  # no quota
        ("100000 100000\n", 1),  # one core
        ("150000 100000\n", min(cores, 2)),  # 1.5 cores: rounded up
        ("5000 100000\n", 1),  # a twentieth of a core: still one worker
        (f"{(cores + 8) * 100000} 100000\n", cores),  # a quota above the affinity: the affinity
        ("garbled\n", cores),
    ]:
        quota.write_text(text, "ascii")
        assert workers.usable_cores(quota) == expected, text


def test_game_seeds_derive_from_the_run_seed_and_the_game_number() -> None:
    assert game_seed(1, 0) == game_seed(1, 0)
    assert len({game_seed(1, g) for g in range(1000)} | {game_seed(2, 0)}) == 1001
    assert 0 <= game_seed(123, 456) < 2**63
    assert game_seed(1, 23) != game_seed(12, 3)  # the run seed and the game number are kept apart
    assert max(game_seed(1, g) for g in range(1000)) >= 2**62  # 63 bits


def test_a_run_plays_the_same_games_from_one_version_to_the_next(tmp_path: Path) -> None:
    """The same command with the same seed gives the same data: pinned here for a small run, so that a
    change to how seeds are derived, or to which generator the deals and the bots draw from, is seen. A
    deliberate change of the rules or the bots changes these figures too: update them then, and say so."""
    run = simulate(SimulationSpec("catalan", 5, 1, {"players": "2"}), tmp_path / "d")
    games = read(run.out, "games").sort("game_id")
    assert games["seed"].to_list() == [game_seed(1, g) for g in range(5)]
    assert games.select("hands", "score_team0", "score_team1").rows() == [
        (10, 3, 12), (11, 4, 13), (16, 14, 7), (18, 12, 11), (20, 11, 12),
    ]  # fmt: skip
    dealt = read(run.out, "events").filter(game_id=0, hand_no=1, verb="dealt")
    assert dealt["arg"].to_list() == ["0:1o,7o,7e 1:3b,3c,11c"]
    assert json.loads((run.out / "manifest.json").read_text("utf-8"))["seed_scheme"] == "hand-streams/1"


def test_every_chunk_plays_its_own_games(tmp_path: Path, monkeypatch) -> None:
    """Game g is played from ``game_seed(S, g)`` whatever the chunk it falls in (simulate.py)."""
    monkeypatch.setattr(simulate_module, "CHUNK_GAMES", 2)
    seen: list[tuple[int, int]] = []
    run = simulate(
        SimulationSpec("catalan", 5, 2**63 - 1, {"players": "2"}),
        tmp_path / "d",
        progress=lambda games, hands: seen.append((games, hands)),
    )
    games = read(run.out, "games").sort("game_id")
    assert games["seed"].to_list() == [game_seed(2**63 - 1, g) for g in range(5)]
    config = get_variant("catalan").configure({"players": "2"})
    policies = [parse_policy("threshold"), parse_policy("threshold")]
    assert games["hands"].to_list() == [len(play_game(config, policies, game_seed(2**63 - 1, g))[1]) for g in range(5)]
    # progress counts games and hands done so far, the last the run's
    assert [games for games, _ in seen] == [2, 4, 5] and seen[-1][1] == run.hands
    assert [hands for _, hands in seen] == sorted(hands for _, hands in seen)
    assert json.loads((run.out / "manifest.json").read_text())["seed"] == 2**63 - 1  # the largest seed


def test_dataset_has_every_table_manifest_and_consistent_counts(sim_dataset: Path) -> None:
    check_dataset(sim_dataset)
    manifest = json.loads((sim_dataset / "manifest.json").read_text())
    assert manifest["variant"] == "catalan" and manifest["players"] == 4 and manifest["seed"] == 11
    assert manifest["options"] == {"players": "4", "signals": "on"}
    assert manifest["policies"]["3"] == "random" and manifest["policies"]["0"].startswith("threshold raise_at=0.7")
    assert manifest["strength"] == {"definition": "beats every opposing hand heads-up", "opposing_hands": 2}
    games, hands = read(sim_dataset, "games"), read(sim_dataset, "hands")
    seats, events = read(sim_dataset, "seats"), read(sim_dataset, "events")
    assert manifest["rows"] == {"games": 300, "hands": hands.height, "seats": seats.height, "events": events.height}
    assert seats.height == 4 * hands.height
    assert games["complete"].all() and (games["hands"].sum() == hands.height)
    # the final scores are the sums of the hands' points
    sums = hands.group_by("game_id").agg(pl.col("points_team0").sum(), pl.col("points_team1").sum())
    joined = games.join(sums, on="game_id")
    assert (joined["score_team0"] == joined["points_team0"]).all()
    assert (joined["score_team1"] == joined["points_team1"]).all()
    assert seats["strength"].is_between(0, 1).all()
    # every seat signals, except in hands that a team at 11 passed before anyone signalled
    no_signal = seats.filter(pl.col("signal").is_null()).join(hands, on=["game_id", "hand_no"])
    assert no_signal.height > 0 and (no_signal["ended_by"] == "pass").all()
    assert set(events["kind"].unique()) >= {"deal", "raise", "answer", "play", "signal"}


def test_an_existing_folder_is_refused_unless_overwrite(tmp_path: Path) -> None:
    spec = SimulationSpec("catalan", 3, 1, {"players": "2"})
    simulate(spec, tmp_path / "d")
    with pytest.raises(DatasetError, match="already exists"):
        simulate(spec, tmp_path / "d")
    simulate(SimulationSpec("catalan", 5, 1, {"players": "2"}), tmp_path / "d", overwrite=True)
    assert json.loads((tmp_path / "d" / "manifest.json").read_text())["games"] == 5
    assert [p.name for p in tmp_path.iterdir()] == ["d"]  # no temporary folder left behind


def test_overwrite_replaces_a_dataset_or_an_empty_folder_and_nothing_else(tmp_path: Path) -> None:
    """``--out data --overwrite`` must not delete a folder of runs, nor any folder of one's own files."""
    spec = SimulationSpec("catalan", 3, 1, {"players": "2"})
    runs = tmp_path / "runs"
    simulate(spec, runs / "a")
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "keep.txt").write_text("mine")
    for folder in (runs, tmp_path / "notes"):
        before = sorted(p.relative_to(tmp_path) for p in folder.rglob("*"))
        with pytest.raises(DatasetError, match=rf"{folder.name} exists and is not a Truc Lab dataset holding only"):
            simulate(spec, folder, overwrite=True)
        assert sorted(p.relative_to(tmp_path) for p in folder.rglob("*")) == before
    (tmp_path / "empty").mkdir()
    simulate(spec, tmp_path / "empty", overwrite=True)
    assert (tmp_path / "empty" / "manifest.json").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty", "notes", "runs"]


def test_overwrite_keeps_a_dataset_that_holds_other_files_or_a_folder_that_only_has_a_manifest(
    tmp_path: Path,
) -> None:
    """A dataset with a user's notes, a history file or a dataset nested in it, a file or folder in one of its
    tables' folders, or any folder with a file named manifest.json (a web extension's), is not replaced: only
    what Truc Lab wrote, and nothing else."""
    spec = SimulationSpec("catalan", 3, 1, {"players": "2"})
    simulate(spec, tmp_path / "notes")
    (tmp_path / "notes" / "NOTES.md").write_text("mine")
    simulate(spec, tmp_path / "in_table")
    (tmp_path / "in_table" / "games" / "README.txt").write_text("mine")
    simulate(spec, tmp_path / "in_parts")
    (tmp_path / "in_parts" / "hands" / "part-00009.parquet").mkdir()
    simulate(spec, tmp_path / "nested")
    simulate(spec, tmp_path / "inner")  # no command writes inside a dataset: a user moves it there
    (tmp_path / "inner").rename(tmp_path / "nested" / "inner")
    (tmp_path / "ext" / "src").mkdir(parents=True)
    (tmp_path / "ext" / "manifest.json").write_text('{"manifest_version": 3}')
    (tmp_path / "ext" / "src" / "background.js").write_text("x")
    for name in ("notes", "in_table", "in_parts", "nested", "ext"):
        folder = tmp_path / name
        before = sorted(p.relative_to(tmp_path) for p in folder.rglob("*"))
        with pytest.raises(DatasetError, match=f"{name} exists and is not a Truc Lab dataset holding only its own"):
            simulate(spec, folder, overwrite=True)
        assert sorted(p.relative_to(tmp_path) for p in folder.rglob("*")) == before


def test_overwrite_keeps_a_folder_whose_only_file_is_another_program_s_manifest(tmp_path: Path) -> None:
    """A folder holding nothing but a ``manifest.json`` that Truc Lab did not write (a web extension's, a
    hand-made dataset's without a kind) has only the names of a dataset's files: it is not replaced."""
    spec = SimulationSpec("catalan", 3, 1, {"players": "2"})
    manifests = {"ext": {"manifest_version": 3}, "mine": {"source": "hand-made"}, "report": {"kind": "report"}}
    for name, manifest in manifests.items():
        folder = tmp_path / name
        folder.mkdir()
        (folder / "manifest.json").write_text(json.dumps(manifest))
        with pytest.raises(DatasetError, match=f"{name} exists and is not a Truc Lab dataset holding only its own"):
            simulate(spec, folder, overwrite=True)
        assert [p.name for p in folder.iterdir()] == ["manifest.json"]
        assert json.loads((folder / "manifest.json").read_text()) == manifest


def test_a_run_whose_out_another_command_wrote_meanwhile_keeps_the_others_output(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(simulate_module, "CHUNK_GAMES", 2)
    out = tmp_path / "d"

    def the_other_command_finishes(games: int, hands: int) -> None:
        if games >= 2 and not out.exists():
            simulate(SimulationSpec("catalan", 3, 9, {"players": "2"}), out)

    with pytest.raises(DatasetError, match="was written by another command while this one ran; nothing was written"):
        simulate(SimulationSpec("catalan", 6, 1, {"players": "2"}), out, progress=the_other_command_finishes)
    assert json.loads((out / "manifest.json").read_text())["seed"] == 9
    assert [p.name for p in tmp_path.iterdir()] == ["d"]


def test_an_interrupted_run_leaves_nothing(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(simulate_module, "CHUNK_GAMES", 2)

    def interrupt(games: int, hands: int) -> None:
        if games >= 4:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        simulate(SimulationSpec("catalan", 10, 1, {"players": "2"}), tmp_path / "d", progress=interrupt)
    assert list(tmp_path.iterdir()) == []


def test_an_interrupt_just_after_the_temporary_output_is_made_leaves_nothing(tmp_path: Path, monkeypatch) -> None:
    """A Ctrl-C or SIGTERM may land just after the temporary folder or file exists, before the code that
    removes it on error is reached (a ``.d.tmp-*`` folder stayed behind when a signal came inside
    ``mkdtemp``): the interrupt is raised here right after each is made."""
    make_folder, open_file = Path.mkdir, Path.open

    def mkdir_then_interrupt(self: Path, *args: object, **kwargs: object) -> None:
        make_folder(self, *args, **kwargs)  # type: ignore[arg-type]
        if self.name.startswith("."):
            raise KeyboardInterrupt

    def open_then_interrupt(self: Path, *args: object, **kwargs: object) -> object:
        stream = open_file(self, *args, **kwargs)  # type: ignore[arg-type]
        if self.name.startswith("."):
            stream.close()
            raise KeyboardInterrupt
        return stream

    monkeypatch.setattr(Path, "mkdir", mkdir_then_interrupt)
    monkeypatch.setattr(Path, "open", open_then_interrupt)
    with pytest.raises(KeyboardInterrupt), store.atomic_dataset(tmp_path / "d", False):
        pass
    with pytest.raises(KeyboardInterrupt), store.atomic_file(tmp_path / "all.truc", False):
        pass
    assert list(tmp_path.iterdir()) == []


def test_replacing_a_dataset_holds_interrupts_between_its_two_moves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ctrl_c_heard: None
) -> None:
    """--overwrite moves the old dataset away, then the new one into its place: a Ctrl-C between the two
    left no dataset at all. It is held until both moves are done, so the new dataset is whole. (Where the
    system cannot exchange two folders in one step: ``TRUC_NO_EXCHANGE``.)"""
    monkeypatch.setenv("TRUC_NO_EXCHANGE", "1")
    out = tmp_path / "d"
    simulate(SimulationSpec("catalan", 2, 1, {"players": "2"}), out)
    move = os.replace
    moves: list[str] = []

    def move_with_a_ctrl_c_after_the_first(source: Path, target: Path) -> None:
        move(source, target)
        moves.append("old" if Path(target).name.startswith(".d.old-") else Path(target).name)
        if len(moves) == 1:
            os.kill(os.getpid(), signal.SIGINT)  # Python raises KeyboardInterrupt as soon as it is delivered

    monkeypatch.setattr(os, "replace", move_with_a_ctrl_c_after_the_first)
    with pytest.raises(KeyboardInterrupt):
        simulate(SimulationSpec("catalan", 3, 7, {"players": "2"}), out, overwrite=True)
    assert moves == ["old", "d"]
    assert json.loads((out / "manifest.json").read_text())["seed"] == 7
    assert [p.name for p in tmp_path.iterdir()] == ["d"]


@pytest.mark.parametrize(
    ("failing", "error", "message"),
    [
        ("the new one in", errno.EIO, "input/output error"),
        ("the old one away", errno.EACCES, "permission denied"),
    ],
)
def test_a_move_of_overwrite_that_fails_keeps_the_old_dataset_and_leaves_nothing(
    tmp_path: Path, monkeypatch, failing: str, error: int, message: str
) -> None:
    """--overwrite moves the old dataset into a hidden folder, then the new one into its place. When the
    second move fails the old dataset is put back; when the first fails it stays as it was, and the hidden
    folder made for it is removed too. Either way the error names the output, and nothing else is left.
    (Where the system cannot exchange two folders in one step: ``TRUC_NO_EXCHANGE``.)"""
    monkeypatch.setenv("TRUC_NO_EXCHANGE", "1")
    out = tmp_path / "d"
    simulate(SimulationSpec("catalan", 2, 1, {"players": "2"}), out)
    move = os.replace

    def a_move_fails(source: Path, target: Path) -> None:
        new_in = Path(source).name.startswith(".d.tmp-")
        if (new_in and failing == "the new one in") or (
            Path(target).name.startswith(".d.old-") and failing == "the old one away"
        ):
            raise OSError(error, message)
        move(source, target)

    monkeypatch.setattr(os, "replace", a_move_fails)
    with pytest.raises(DatasetError, match=f"cannot write {out}: {message}"):
        simulate(SimulationSpec("catalan", 3, 7, {"players": "2"}), out, overwrite=True)
    assert json.loads((out / "manifest.json").read_text())["seed"] == 1
    assert [p.name for p in tmp_path.iterdir()] == ["d"]
    check_dataset(out)


def test_a_dataset_deleted_while_its_replacement_runs_is_simply_written(tmp_path: Path, monkeypatch) -> None:
    """--overwrite of a dataset that is deleted meanwhile (by hand, or by another command): there is nothing
    left to move away, and the new dataset is put in its place rather than refused."""
    monkeypatch.setattr(simulate_module, "CHUNK_GAMES", 2)
    out = tmp_path / "d"
    simulate(SimulationSpec("catalan", 2, 1, {"players": "2"}), out)

    def the_old_one_is_deleted(games: int, hands: int) -> None:
        shutil.rmtree(out, ignore_errors=True)

    simulate(SimulationSpec("catalan", 4, 7, {"players": "2"}), out, overwrite=True, progress=the_old_one_is_deleted)
    assert json.loads((out / "manifest.json").read_text())["seed"] == 7
    assert [p.name for p in tmp_path.iterdir()] == ["d"]
    check_dataset(out)


def test_a_dataset_folder_is_an_ordinary_folder(tmp_path: Path) -> None:
    """The dataset is built in a temporary folder renamed into place: it gets the permissions of any folder
    (0o777 less the umask), not a temporary folder's 0o700, so that others may read it as the user allows."""
    simulate(SimulationSpec("catalan", 2, 1, {"players": "2"}), tmp_path / "d")
    mask = os.umask(0)
    os.umask(mask)
    assert (tmp_path / "d").stat().st_mode & 0o777 == 0o777 & ~mask


def test_progress_is_reported_per_chunk(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(simulate_module, "CHUNK_GAMES", 3)
    seen: list[int] = []
    simulate(SimulationSpec("catalan", 7, 1, {"players": "2"}), tmp_path / "d", progress=lambda g, h: seen.append(g))
    assert seen == [3, 6, 7]


@pytest.mark.parametrize(
    ("spec", "error", "message"),
    [
        (SimulationSpec("catalan", 0, 1), SimulationError, "--games must be between 1 and"),
        (SimulationSpec("catalan", 5, 1, workers=0), SimulationError, "--workers must be at least 1"),
        (SimulationSpec("catalan", 5, 1, seat_policies={4: "random"}), SimulationError, "seat 4 does not exist"),
        (SimulationSpec("catalan", 5, 1, policy="greedy"), PolicyError, "policies: random, threshold"),
        (SimulationSpec("catalan", 5, 1, policy="threshold:x=1"), PolicyError, "parameters: raise_at"),
        (SimulationSpec("catalan", 5, 1, {"colour": "red"}), ValueError, "unknown option colour"),
        (SimulationSpec("mus", 5, 1), KeyError, "unknown variant .mus.; variants: catalan"),
    ],
)
def test_bad_settings_are_refused_before_anything_is_written(
    tmp_path: Path, spec: SimulationSpec, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        simulate(spec, tmp_path / "d")
    assert not (tmp_path / "d").exists()


def test_a_folder_of_runs_stands_for_each_run(tmp_path: Path) -> None:
    from pipeline.stats import compute
    from pipeline.store import expand_datasets

    simulate(SimulationSpec("catalan", 3, 1, {"players": "2"}), tmp_path / "runs" / "a")
    simulate(SimulationSpec("french", 3, 1, {"players": "2", "rubber": "off"}), tmp_path / "runs" / "b")
    assert expand_datasets([tmp_path / "runs"]) == [tmp_path / "runs" / "a", tmp_path / "runs" / "b"]
    assert expand_datasets([tmp_path / "runs" / "a"]) == [tmp_path / "runs" / "a"]
    frame = compute("mano_advantage", tmp_path / "runs")
    assert sorted(frame["variant"].to_list()) == ["catalan", "french"]
    (tmp_path / "empty").mkdir()
    with pytest.raises(DatasetError, match="no manifest.json in it or in its subfolders"):
        expand_datasets([tmp_path / "empty"])


def test_a_null_where_truc_lab_always_writes_a_value_is_refused(tmp_path: Path) -> None:
    """The SQL reads games.sides as the number of sides and hands.void as "nobody scored", with no fallback
    for null: a part with a null there is never listed in a manifest. The writer checks every part as it
    lists it (``store.write_manifest``), naming the file and the column, whether the file's footer counts
    its nulls or not."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    simulate(SimulationSpec("catalan", 2, 3, {"players": "2"}), tmp_path / "d")
    manifest = read_manifest(tmp_path / "d")
    games = next((tmp_path / "d" / "games").glob("*.parquet"))
    table = pq.read_table(games)
    sides = pa.array([None] * table.num_rows, type=pa.int8())
    pq.write_table(table.set_column(table.schema.get_field_index("sides"), "sides", sides), games)
    with pytest.raises(DatasetError, match=rf"{games.name} has null values in the column\(s\) sides, which Truc Lab"):
        write_manifest(tmp_path / "d", manifest)
    pq.write_table(table, games)
    hands = sorted((tmp_path / "d" / "hands").glob("*.parquet"))[-1]
    table = pq.read_table(hands)
    void = pa.array([None, *table.column("void").to_pylist()[1:]], type=pa.bool_())
    pq.write_table(table.set_column(table.schema.get_field_index("void"), "void", void), hands, write_statistics=False)
    with pytest.raises(DatasetError, match=rf"{hands.name} has null values in the column\(s\) void,"):
        write_manifest(tmp_path / "d", manifest)
    pq.write_table(table, hands)
    write_manifest(tmp_path / "d", manifest)
    check_dataset(tmp_path / "d")


def test_a_part_added_lost_or_changed_after_writing_is_refused_by_name(tmp_path: Path) -> None:
    """A part copied in from another run (its game ids join another run's hands), one lost, or one
    rewritten, is seen before any statistic pools it: the manifest lists every part with its size, which
    each reader compares with the files (a stat each, no file opened)."""
    import shutil

    from pipeline.stats import compute

    simulate(SimulationSpec("catalan", 300, 1, {"players": "2"}), tmp_path / "d")
    simulate(SimulationSpec("valencian", 3, 2, {"players": "2"}), tmp_path / "other")
    stray = tmp_path / "d" / "games" / "part-00002.parquet"
    shutil.copy(next((tmp_path / "other" / "games").glob("*.parquet")), stray)
    with pytest.raises(DatasetError, match=rf"^{stray} is not listed in .*manifest.json: a file was added"):
        compute("mano_advantage", tmp_path / "d")
    stray.unlink()
    check_dataset(tmp_path / "d")
    lost = tmp_path / "d" / "hands" / "part-00001.parquet"
    lost.rename(tmp_path / "aside.parquet")
    with pytest.raises(DatasetError, match=rf"^{lost} is listed in .*manifest.json but missing: a file was removed"):
        compute("mano_advantage", tmp_path / "d")
    (tmp_path / "aside.parquet").rename(lost)
    part = tmp_path / "d" / "games" / "part-00000.parquet"
    original = part.read_bytes()
    part.write_bytes(original + b"\0")
    with pytest.raises(
        DatasetError, match=rf"^{part} has changed since the dataset was written \({len(original) + 1:,} "
    ):
        compute("mano_advantage", tmp_path / "d")
    part.write_bytes(original)
    check_dataset(tmp_path / "d")


def test_a_null_in_any_row_group_is_refused(tmp_path: Path) -> None:
    """A hand-made part may hold several row groups, each with its own null counts: a null in one of them is
    refused, even when the others have none."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    simulate(SimulationSpec("catalan", 3, 3, {"players": "2"}), tmp_path / "d")
    games = next((tmp_path / "d" / "games").glob("*.parquet"))
    table = pq.read_table(games)
    sides = pa.array([2, None, 2], type=pa.int8())
    pq.write_table(table.set_column(table.schema.get_field_index("sides"), "sides", sides), games, row_group_size=1)
    assert pq.ParquetFile(games).metadata.num_row_groups == 3
    with pytest.raises(DatasetError, match=rf"{games.name} has null values in the column\(s\) sides,"):
        write_manifest(tmp_path / "d", read_manifest(tmp_path / "d"))


def test_a_part_missing_columns_or_corrupt_is_named(tmp_path: Path) -> None:
    """A part without a column of the schema is never listed (the writer names the column); one rewritten
    afterwards is refused by every reader, by name."""
    import pyarrow.parquet as pq

    from pipeline.stats import compute

    simulate(SimulationSpec("catalan", 2, 1, {"players": "2"}), tmp_path / "d")
    part = next((tmp_path / "d" / "events").glob("*.parquet"))
    pq.write_table(pq.read_table(part).drop_columns(["to_play"]), part)
    with pytest.raises(DatasetError, match=r"lacks the column\(s\) to_play: it was written by an older Truc Lab"):
        write_manifest(tmp_path / "d", read_manifest(tmp_path / "d"))
    with pytest.raises(DatasetError, match=rf"^{part} has changed since the dataset was written"):
        compute("tie_frequency", tmp_path / "d")
    part.write_bytes(b"not parquet")
    with pytest.raises(DatasetError, match=rf"^{part} has changed since the dataset was written"):
        compute("tie_frequency", tmp_path / "d")
    with pytest.raises(DatasetError, match="is not a readable Parquet file"):
        write_manifest(tmp_path / "d", read_manifest(tmp_path / "d"))


def test_a_seat_s_cards_are_written_without_a_dictionary_and_read_back_the_same(tmp_path: Path) -> None:
    """parts.PLAIN_COLUMNS: the dealt cards (tens of thousands of values) are written plain; the other
    columns keep Parquet's dictionary encoding."""
    import pyarrow.parquet as pq

    run = simulate(SimulationSpec("trut", 30, 3, {"players": "6"}), tmp_path / "d")
    part = next((run.out / "seats").glob("*.parquet"))
    metadata = pq.ParquetFile(part).metadata.row_group(0)
    encodings = {metadata.column(i).path_in_schema: metadata.column(i).encodings for i in range(metadata.num_columns)}
    assert not any("DICTIONARY" in e for e in encodings["cards"])
    assert any("DICTIONARY" in e for e in encodings["policy"])
    config = get_variant("trut").configure({"players": "6"})
    policies = [parse_policy("threshold") for _ in range(6)]
    first_hand = play_game(config, policies, game_seed(3, 0))[1][0]
    cards = read(run.out, "seats").filter(game_id=0, hand_no=1).sort("seat")["cards"].to_list()
    deck = config.variant.deck
    assert cards == [" ".join(deck.text(c) for c in hand) for hand in first_hand.dealt]
