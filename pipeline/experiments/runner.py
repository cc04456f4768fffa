"""Playing the games of strategy experiments: paired matches, written as datasets, scored pair by pair.

A **match** opposes policy A and policy B over pairs of games. Pair ``p`` is two games (two rubbers in French
Truc played in rubbers) on the same game seed, so the same deal in every hand both play (``pipeline.playing``'s
hand streams): in the first A holds team 0's seats and B team 1's, in the second the seats are swapped. Luck of
the cards then falls on both sides of a pair, and the pair is the statistical unit
(``pipeline.experiments.analysis``). With ``paired=False`` the second game is played on a fresh seed instead,
which is what pairing is measured against.

A tournament's and a sweep's matches all use the same run seed, so pair ``p`` of every match is played on the
same cards (common random numbers). The pairs of every match are cut into fixed chunks of ``PAIRS_PER_CHUNK``,
whose rows come back in order and are written by one ``parts.PartWriter`` per match, so the data and the results
do not depend on the number of workers.
"""

from __future__ import annotations

import hashlib
import time
from array import array
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import pyarrow as pa

from pipeline.engine.game import Game, HandRecord
from pipeline.engine.rules import Config
from pipeline.parts import PartWriter, new_batches
from pipeline.playing import SimulationError, game_seed, play_game, rubber_wins
from pipeline.policies import Policy, parse_policy
from pipeline.rows import add_game
from pipeline.seeds import SEED_MAX
from pipeline.simulate import CHUNK_GAMES, run_manifest
from pipeline.store import TABLES, write_manifest
from pipeline.strength import strength_table
from pipeline.tallies import write_tallies
from pipeline.variants import get_variant
from pipeline.workers import LOCAL_BACKEND, Backend, ChunkRanges, run_in_order, usable_cores

PAIRS_PER_CHUNK: Final = CHUNK_GAMES // 2
"""Pairs in one chunk of work: as many games as a chunk of ``truc simulate``."""

A_SIDE: Final = "A"
B_SIDE: Final = "B"

PAIRING: Final = (
    "pair p is games 2p and 2p+1 (in rubbers: matches 2p and 2p+1, their games numbered match * 3 + k): the same "
    "game seed, so the same cards to the same seats in every hand both play, with A's seats and B's swapped; A holds "
    "team 0 in the first and team 1 in the second"
)
UNPAIRED: Final = "pair p is games 2p and 2p+1 on seeds of their own; A holds team 0 in the first, team 1 in the second"


class ExperimentError(ValueError):
    """An experiment asked for with settings that cannot run (a bad game count, a variant without two sides)."""


@dataclass(frozen=True)
class Match:
    """One match to play: policy specs A and B, ``pairs`` pairs from ``seed``, written to ``folder`` (a path
    relative to the experiment's output; ``""`` for the output itself)."""

    a: str
    b: str
    pairs: int
    seed: int
    folder: str = ""
    paired: bool = True
    label: str = "match"


def pair_scores() -> array[int]:
    """An empty column of pair scores: A's units won in a pair, 0 to 2, a byte each. A match's pairs are kept in
    arrays, not lists (a Python list holds a pointer and an object per pair, about 40 bytes with the margin;
    these, 9): a tournament of a billion games keeps half a billion pairs."""
    return array("b")


def pair_margins() -> array[float]:
    """An empty column of pair margins (A's points minus B's per game, averaged over the pair), 8 bytes each."""
    return array("d")


@dataclass
class MatchOutcome:
    """What a match's pairs gave, in pair order: A's units won in each pair (games, or rubbers in French Truc
    played in rubbers: 0, 1 or 2), A's points minus B's per game averaged over the pair's games, and counts."""

    match: Match
    a_label: str
    b_label: str
    scores: array[int] = field(default_factory=pair_scores)
    margins: array[float] = field(default_factory=pair_margins)
    games: int = 0
    a_games_won: int = 0
    hands: int = 0
    rows: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TABLES, 0))
    manifest: dict[str, Any] = field(default_factory=dict)

    @property
    def mirror(self) -> bool:
        """Whether A and B are the same policy (as the variant reads it): every result holds by construction."""
        return self.a_label == self.b_label


def check_games(games: int, what: str = "--games") -> int:
    """The pairs that ``games`` makes: games are played in pairs, so the count must be even and at least 2."""
    if games < 2 or games % 2 or games > SEED_MAX:
        raise ExperimentError(
            f"{what} must be an even number between 2 and {SEED_MAX} (games are played in pairs), not {games}"
        )
    return games // 2


def two_sided_config(variant: str, options: Mapping[str, str]) -> Config:
    """The variant's configuration, refused when it does not oppose two sides (3-player Trut: each alone)."""
    config = get_variant(variant).configure(options)
    if config.variant.sides(config.players) != 2:
        raise ExperimentError(
            f"{variant} with {config.players} players has {config.variant.sides(config.players)} sides; a match "
            "opposes two (choose another player count)"
        )
    return config


def label(spec: str, variant: str) -> str:
    """A policy as the variant reads it (``describe``): what the seats table records and what tells a mirror."""
    return parse_policy(spec).describe(variant)


def fresh_seed(seed: int, purpose: str) -> int:
    """A run seed for ``purpose`` (e.g. confirming a sweep's best point) derived from ``seed``: other games."""
    digest = hashlib.blake2b(f"truc-lab/{seed}/{purpose}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


@dataclass(frozen=True)
class _Chunk:
    """One chunk of a match: pairs [first, last)."""

    variant: str
    options: dict[str, str]
    match: Match
    index: int  # the match's position in the experiment
    first: int
    last: int


@dataclass
class _ChunkResult:
    index: int
    scores: array[int]
    margins: array[float]
    games: int
    a_games_won: int
    hands: int
    tables: dict[str, pa.Table]


def _seats(config: Config, a: list[Policy], b: list[Policy], a_team: int) -> list[Policy]:
    return [a[seat] if seat % 2 == a_team else b[seat] for seat in range(config.players)]


def _play_chunk(chunk: _Chunk) -> _ChunkResult:
    """Play a chunk's pairs; their scores, and their rows as a table of each."""
    config = get_variant(chunk.variant).configure(chunk.options)
    match = chunk.match
    variant = config.variant.name
    # A policy object per seat: a bot's memory of the hand is its seat's (and the native Trut path needs it).
    a = [parse_policy(match.a) for _ in range(config.players)]
    b = [parse_policy(match.b) for _ in range(config.players)]
    names = {id(p): p.describe(variant) for p in a + b}
    batches = new_batches(native=True)
    result = _ChunkResult(chunk.index, pair_scores(), pair_margins(), 0, 0, 0, {})
    wins = rubber_wins(config)
    for pair in range(chunk.first, chunk.last):
        score, margin_sum, games = 0, 0, 0
        for leg in (0, 1):
            seat_policies = _seats(config, a, b, leg)
            described = [names[id(p)] for p in seat_policies]
            number = 2 * pair + leg
            if wins:
                played = _play_rubber(config, seat_policies, match, pair, number, wins)
                a_units = 0
                for game_id, game, records, winner in played:
                    result.hands += add_game(
                        batches, game_id, game, records, described, "simulate", match_no=number, match_winner=winner
                    )
                    if winner is not None:
                        a_units = int(winner == leg)
                    result.a_games_won += int(game.winner_team == leg)
                    margin_sum += game.scores[leg] - game.scores[1 - leg]
                    games += 1
                score += a_units
                continue
            seed = game_seed(match.seed, pair if match.paired else number)
            game, records = play_game(config, seat_policies, seed)
            result.hands += add_game(batches, number, game, records, described, "simulate")
            won = int(game.winner_team == leg)
            score += won
            result.a_games_won += won
            margin_sum += game.scores[leg] - game.scores[1 - leg]
            games += 1
        result.scores.append(score)
        result.margins.append(margin_sum / games)
        result.games += games
    result.tables = {name: batch.to_arrow() for name, batch in batches.items()}
    return result


def _play_rubber(
    config: Config, policies: list[Policy], match: Match, pair: int, number: int, wins: int
) -> list[tuple[int, Game, list[HandRecord], int | None]]:
    """Rubber ``number`` (game ids ``number * (2 * wins - 1) + k``) until a side has won ``wins`` games. Game
    ``k`` of both rubbers of a pair is played on the same seed (on seeds of their own when not paired)."""
    played: list[tuple[int, Game, list[HandRecord], int | None]] = []
    won = [0, 0]
    per_rubber = 2 * wins - 1
    for k in range(per_rubber):
        seed = game_seed(match.seed, (pair if match.paired else number) * per_rubber + k)
        game, hands = play_game(config, policies, seed)
        winner = game.winner_team
        assert winner is not None  # play_game plays a game to its end
        won[winner] += 1
        played.append((number * per_rubber + k, game, hands, winner if won[winner] == wins else None))
        if won[winner] == wins:
            break
    return played


def play_matches(
    variant: str,
    options: Mapping[str, str],
    matches: Sequence[Match],
    root: Path,
    workers: int | None,
    command: str,
    experiment: Callable[[MatchOutcome], dict[str, Any]],
    progress: Callable[[int, int], None] | None = None,
    backend: Backend = LOCAL_BACKEND,
) -> list[MatchOutcome]:
    """Play every match, all chunks of all matches in one pool of ``workers`` processes (every usable core by
    default; with a Ray ``backend``, tasks on every CPU of its cluster), each match written as a dataset in
    ``root / match.folder`` whose manifest's ``experiment`` is ``experiment(outcome)``. ``progress(games_done,
    hands_done)`` follows the games."""
    config = two_sided_config(variant, options)
    for match in matches:
        parse_policy(match.a)
        parse_policy(match.b)
    for size in (1, 3):  # computed once here, inherited by forked workers
        strength_table(config.variant, size, config.opponents)
    name = config.variant.name
    outcomes = [MatchOutcome(m, label(m.a, name), label(m.b, name)) for m in matches]
    options = dict(config.options)
    chunks = ChunkRanges(
        [m.pairs for m in matches],
        PAIRS_PER_CHUNK,
        lambda index, first, end: _Chunk(name, options, matches[index], index, first, end),
    )
    for folder in {root / m.folder for m in matches}:
        folder.mkdir(parents=True, exist_ok=True)
    asked = workers if workers is not None else backend.cores() or usable_cores()
    if asked < 1:
        raise SimulationError(f"--workers must be at least 1, not {asked}")
    used = min(asked, len(chunks))
    started = time.perf_counter()
    games_done = hands_done = 0
    left = list(chunks.counts)  # chunks of each match still to come
    writers: dict[int, PartWriter] = {}  # the matches being written (their chunks come in order)
    for result in run_in_order(_play_chunk, chunks, used, backend):
        outcome = outcomes[result.index]
        outcome.scores += result.scores
        outcome.margins += result.margins
        outcome.games += result.games
        outcome.a_games_won += result.a_games_won
        outcome.hands += result.hands
        writer = writers.setdefault(result.index, PartWriter(root / outcome.match.folder))
        writer.add(result.tables)
        left[result.index] -= 1
        if not left[result.index]:
            outcome.rows = writers.pop(result.index).close()
        games_done += result.games
        hands_done += result.hands
        if progress:
            progress(games_done, hands_done)
    seconds = time.perf_counter() - started
    for outcome in outcomes:
        match = outcome.match
        manifest = run_manifest(
            config,
            match.seed,
            command,
            {A_SIDE: outcome.a_label, B_SIDE: outcome.b_label},
            2 * match.pairs if rubber_wins(config) else None,
            used,
            outcome.rows,
            outcome.hands,
            seconds,
            backend.name,
        )
        manifest["experiment"] = {
            "kind": match.label,
            "a": outcome.a_label,
            "b": outcome.b_label,
            "a_spec": match.a,
            "b_spec": match.b,
            "pairs": match.pairs,
            "paired": match.paired,
            "pairing": PAIRING if match.paired else UNPAIRED,
            "mirror": outcome.mirror,
            **experiment(outcome),
        }
        outcome.manifest = manifest
        write_manifest(root / match.folder, manifest)
        write_tallies(root / match.folder)
    return outcomes


def total_games(matches: int, pairs: int, config: Config) -> int:
    """The games that ``matches`` matches of ``pairs`` pairs play (for a progress bar): exact, except in
    rubbers (at least two games each, counted as two)."""
    return matches * pairs * (4 if rubber_wins(config) else 2)
