"""Batch simulation: bots play complete games; the games are written as a Parquet dataset.

Reproducibility: game ``g`` of a run with seed ``S`` is played from its own seed ``game_seed(S, g)``, and
its games are cut into fixed chunks of ``CHUNK_GAMES`` whatever the number of workers; each chunk's rows come
back to this process as Arrow tables and are written in the chunks' order by one ``parts.PartWriter``, in
parts sized by rows. So the same command and seed give the same rows in the same order with 1 worker or 8.

Memory: a worker holds one chunk's rows at a time and returns them; the caller holds the few chunks handed out
ahead (``workers.run_in_order``) and less than a row group of each table in the writer.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pyarrow as pa

from pipeline import __version__, accel
from pipeline.engine.rules import Config
from pipeline.parts import PartWriter, new_batches
from pipeline.playing import SEED_SCHEME, SimulationError, game_seed, play_game, play_match, rubber_wins
from pipeline.policies import parse_policy, unread_parameters
from pipeline.rows import add_game
from pipeline.seeds import SEED_MAX, check_seed
from pipeline.store import SIMULATION, atomic_dataset, write_manifest
from pipeline.strength import DEFINITION, strength_table
from pipeline.tallies import write_tallies
from pipeline.variants import get_variant
from pipeline.workers import LOCAL, LOCAL_BACKEND, Backend, ChunkRanges, run_in_order, usable_cores

CHUNK_GAMES = 250


@dataclass(frozen=True)
class SimulationSpec:
    """What to simulate. ``seat_policies`` overrides ``policy`` for single seats."""

    variant: str
    games: int
    seed: int
    options: Mapping[str, str] = field(default_factory=dict)
    policy: str = "threshold"
    seat_policies: Mapping[int, str] = field(default_factory=dict)
    workers: int | None = None  # None: every core this process may use (``usable_cores``), or the Ray cluster's
    command: str = ""
    backend: Backend = LOCAL_BACKEND  # where the chunks are played: worker processes here, or a Ray cluster

    def warnings(self) -> list[str]:
        """What the spec sets to no effect: policy parameters the variant's decisions do not read, and signals
        on with other than 4 players (they are made between partners). A spec that does not parse gives no
        warning (``resolve`` refuses it)."""
        specs = {"--policy": self.policy} | {f"--seat-policy {s}": p for s, p in sorted(self.seat_policies.items())}
        found = []
        try:
            config = get_variant(self.variant).configure(self.options)
        except (ValueError, KeyError):
            config = None
        if config is not None and config.options.get("signals") == "on" and not config.signals:
            found.append(
                f"--option signals=on has no effect with {config.players} players: partners signal, in 4 players"
            )
        for where, policy in specs.items():
            try:
                unread, read = unread_parameters(policy, self.variant)
            except ValueError:
                continue
            if unread:
                verb = "has" if len(unread) == 1 else "have"
                found.append(
                    f"{where}: {', '.join(unread)} {verb} no effect in {self.variant}, whose decisions read "
                    f"{', '.join(read)} (truc policies)"
                )
        return found


@dataclass(frozen=True)
class SimulationResult:
    out: Path
    games: int
    hands: int
    rows: dict[str, int]
    seconds: float
    manifest: dict[str, Any]
    tally_seconds: float = 0.0  # the statistics' tallies, computed once the rows are written (pipeline.tallies)


def resolve(spec: SimulationSpec) -> tuple[Config, list[str]]:
    """Check the spec; return the game configuration and the policy spec of every seat."""
    if not 1 <= spec.games <= SEED_MAX:
        raise SimulationError(
            f"--games must be between 1 and {SEED_MAX} (a game's id is a 64-bit integer), not {spec.games}"
        )
    if spec.workers is not None and spec.workers < 1:
        raise SimulationError(f"--workers must be at least 1, not {spec.workers}")
    check_seed(spec.seed, SimulationError)
    config = get_variant(spec.variant).configure(spec.options)
    seats = [spec.policy] * config.players
    for seat, policy in spec.seat_policies.items():
        if not 0 <= seat < config.players:
            raise SimulationError(f"--seat-policy: seat {seat} does not exist with {config.players} players")
        seats[seat] = policy
    for policy in seats:
        parse_policy(policy)
    return config, seats


def _run_chunk(args: tuple[str, dict[str, str], list[str], int, int, int]) -> tuple[int, dict[str, pa.Table]]:
    """Play games [first, last) of a run; return their hands and their rows, a table of each."""
    variant, options, seat_specs, run_seed, first, last = args
    config = get_variant(variant).configure(options)
    policies = [parse_policy(s) for s in seat_specs]
    described = [p.describe(variant) for p in policies]
    batches = new_batches(native=True)
    hands = 0
    wins = rubber_wins(config)
    for game_no in range(first, last):
        if wins:  # a rubber: game_no numbers a match, and its games are written with it
            for game_id, game, records, winner in play_match(config, policies, run_seed, game_no, wins):
                hands += add_game(
                    batches, game_id, game, records, described, "simulate", match_no=game_no, match_winner=winner
                )
            continue
        game, records = play_game(config, policies, game_seed(run_seed, game_no))
        hands += add_game(batches, game_no, game, records, described, "simulate")
    return hands, {name: batch.to_arrow() for name, batch in batches.items()}


def simulate(
    spec: SimulationSpec,
    out: Path,
    overwrite: bool = False,
    progress: Callable[[int, int], None] | None = None,
    tallying: Callable[[], None] | None = None,
) -> SimulationResult:
    """Run the simulation and write the dataset to ``out`` atomically, with its statistics' tallies
    (``pipeline.tallies``).

    ``progress(games_done, hands_done)`` is called after each chunk, ``tallying()`` once the games are played,
    before the tallies are computed.
    """
    config, seat_specs = resolve(spec)
    asked = spec.workers if spec.workers is not None else spec.backend.cores() or usable_cores()
    for size in (1, 3):  # computed once here, inherited by forked workers
        strength_table(config.variant, size, config.opponents)
    started = time.perf_counter()
    hands = 0
    with atomic_dataset(out, overwrite) as root, PartWriter(root) as writer:
        options = dict(config.options)
        chunks = ChunkRanges(
            [spec.games],
            CHUNK_GAMES,
            lambda _, first, end: (config.variant.name, options, seat_specs, spec.seed, first, end),
        )
        games_done = 0

        def collect(result: tuple[int, dict[str, pa.Table]], chunk_games: int) -> None:
            nonlocal hands, games_done
            chunk_hands, tables = result
            writer.add(tables)
            hands += chunk_hands
            games_done += chunk_games
            if progress:
                progress(games_done, hands)

        workers = min(asked, len(chunks))
        for chunk, result in zip(chunks, run_in_order(_run_chunk, chunks, workers, spec.backend), strict=True):
            collect(result, chunk[5] - chunk[4])
        rows = writer.close()
        seconds = time.perf_counter() - started
        manifest = run_manifest(
            config,
            spec.seed,
            spec.command,
            {str(seat): parse_policy(p).describe(config.variant.name) for seat, p in enumerate(seat_specs)},
            spec.games if rubber_wins(config) else None,  # a rubber: --games counts matches
            workers,
            rows,
            hands,
            seconds,
            spec.backend.name,
        )
        write_manifest(root, manifest)
        if tallying is not None:
            tallying()
        write_tallies(root)
    return SimulationResult(
        Path(out), rows["games"], hands, rows, seconds, manifest, time.perf_counter() - started - seconds
    )


def run_manifest(
    config: Config,
    seed: int,
    command: str,
    policies: dict[str, str],
    matches: int | None,
    workers: int,
    rows: dict[str, int],
    hands: int,
    seconds: float,
    backend: str = LOCAL,
) -> dict[str, Any]:
    """The manifest of a run of played games (``truc simulate``, and each match of an experiment, which adds
    its ``experiment``): what was played, by which bots, with which seed and engine, and what was written."""
    return {
        "kind": SIMULATION,
        "command": command,
        "variant": config.variant.name,
        "options": dict(config.options),
        "players": config.players,
        "seed": seed,
        "seed_scheme": SEED_SCHEME,  # how the seed becomes the deals and the bots' draws
        "games": rows["games"],  # games played: more than --games in a rubber run, where it counts matches
        "policies": policies,
        "workers": workers,  # processes that played (at most one per chunk); on Ray, the CPUs asked for
        "backend": backend,  # where they played: local processes, or a Ray cluster (pipeline.workers)
        "matches": matches,
        "package_version": __version__,
        "engine": accel.status(),  # compiled or pure Python: the same rows, not the same speed
        "strength": {"definition": DEFINITION, "opposing_hands": config.opponents},
        "rows": rows,
        "hands": hands,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "seconds": round(seconds, 3),
    }
