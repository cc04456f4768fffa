"""Monte Carlo CFR over the engine, with a card abstraction: the ``cfr`` policy's training (``truc train``,
docs/equilibrium.md).

**Method.** External-sampling MCCFR (Lanctot et al. 2009): each iteration plays two hands, one for each seat
as the *traverser*. Chance (the seed of a game, so its deals, and who deals) is sampled once per hand; at the
other seat's moments one action is sampled from its current strategy (regret matching) and that strategy is
added to its average; at the traverser's moments every abstract action is tried (the game cloned), and each
one's regret grows by its value less the moment's. Both the regrets and the average are weighted by the
iteration (linear CFR, Brown and Sandholm 2019: the first iterations' near-uniform play fades). The values
are the hand's points for the traverser's side
less the other side's (``pipeline.policies.search.hand_value``), one hand from 0-0. The policy is the average
strategy of each abstract information state (``pipeline.policies.cfr.Abstraction``), written as a policy file;
a state reached fewer than ``min_visits`` times in training (as either seat) is left out of the file, so the
fallback plays it rather than a strategy that barely moved from uniform.

It walks the engine directly, not the OpenSpiel game: one step of the engine and a copy cost about 10 µs
compiled, an order of magnitude below the adapter's (which deep-copies its Python state). The turn structure
is the adapter's and the game loop's: at each moment the seats that may act (``Game.optional_actors``) are
asked first, each choosing a move or to skip; once all have skipped, the seat that must act moves.

**Best response.** ``against=FILE`` trains a best response instead: the other seat plays the policy of
``FILE`` (its chances, its fallback where it has none), the traverser's regrets alone are kept, and the
policy written takes, at each information state, the action of highest regret (the best reply to the fixed
policy within the abstraction, as far as training got).

**Checkpoints.** Every ``checkpoint_seconds`` and at the end, the whole training state (the tables, the
iteration, the sampler's state) is pickled next to the policy file (``<out>.checkpoint``, written atomically).
The same command run again continues from it; the sampler draws exactly what it would have drawn, so the
same seed gives the same policy file whatever was interrupted (and a larger ``iterations`` continues a
finished training).

**The output.** Everything is checked before the first iteration: the seed, the variant, the ``against`` file,
the checkpoint, and ``out``, which is written aside and renamed in once complete (``store.atomic_file``, held
for the training's life). An existing ``out`` is replaced only when asked to (``overwrite``) or when it is this
training's own output, continued from its checkpoint; never when it is the ``against`` file, nor when it is
not a file.
"""

from __future__ import annotations

import pickle
import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TextIO

from pipeline import filesystem
from pipeline.engine.actions import Action
from pipeline.engine.game import Game, new_game
from pipeline.engine.rules import Config
from pipeline.engine.view import SeatView
from pipeline.policies.cfr import SKIP, Abstraction, CfrPolicy, PolicyTable, write_policy
from pipeline.policies.search import hand_value
from pipeline.seeds import check_seed
from pipeline.store import atomic_file
from pipeline.variants import VARIANTS

CHECKPOINT_SUFFIX = ".checkpoint"
CHECKPOINT_VERSION = 1


@dataclass(frozen=True)
class TrainConfig:
    """What a training is: the game, the abstraction, the seed, the iterations, and (a best response) the
    policy file it answers."""

    variant: str = "catalan"
    options: tuple[tuple[str, str], ...] = (("players", "2"),)
    iterations: int = 1000
    seed: int = 0
    abstraction: Abstraction = field(default_factory=Abstraction)
    against: str | None = None
    min_visits: int = 1

    @classmethod
    def of(
        cls,
        variant: str,
        options: dict[str, str],
        iterations: int,
        seed: int,
        buckets: int,
        min_visits: int,
        against: Path | None,
    ) -> TrainConfig:
        """A configuration from the command's options (the other abstraction parameters at their defaults)."""
        if against is not None and not against.is_file():
            raise ValueError(f"--against {against}: no such file")
        return cls(
            variant,
            tuple(sorted(options.items())),
            iterations,
            seed,
            Abstraction(buckets=buckets),
            None if against is None else str(against.resolve()),
            min_visits,
        )

    def game_config(self) -> Config:
        variant = VARIANTS.get(self.variant)
        if variant is None:
            raise ValueError(f"unknown variant {self.variant!r}; variants: {', '.join(VARIANTS)}")
        config = variant.configure(dict(self.options))
        if config.players != 2:
            raise ValueError(f"truc train trains 2-player hands, not {config.players} players")
        return config

    def identity(self) -> dict[str, Any]:
        """Everything but the iterations and what is read only to write the file: what a checkpoint must match
        to be continued."""
        return {k: v for k, v in self.document().items() if k not in ("iterations", "min_visits")}

    def document(self) -> dict[str, Any]:
        out = asdict(self)
        out["options"] = dict(self.options)
        return out


@dataclass
class Fallbacks:
    games: int
    decisions: int
    fallbacks: int

    @property
    def rate(self) -> float:
        return self.fallbacks / self.decisions if self.decisions else 0.0


@dataclass
class TrainResult:
    path: Path
    iterations: int
    resumed_from: int
    infostates: int  # in the training's tables
    written: int  # in the policy file (those reached at least min_visits times)
    seconds: float  # this run's training time (not counting an earlier run's)
    fallbacks: Fallbacks | None = None

    def lines(self) -> list[str]:
        resumed = f" (continued from iteration {self.resumed_from:,})" if self.resumed_from else ""
        out = [
            f"{self.iterations:,} iterations{resumed} in {self.seconds:,.1f} s",
            f"{self.infostates:,} information states trained, {self.written:,} in the policy file",
        ]
        if self.fallbacks is not None:
            f = self.fallbacks
            out.append(
                f"fallback: {f.fallbacks:,} of {f.decisions:,} decisions ({100 * f.rate:.1f}%) in {f.games:,} games "
                "against the threshold bot were not in the file (the threshold bot played them)"
            )
        out.append(f"policy written to {self.path} (play it as cfr:file={self.path})")
        return out


class _Trainer:
    """The tables and the sampler; ``iterate`` runs one iteration (a hand for each seat as traverser)."""

    def __init__(self, config: TrainConfig) -> None:
        self.config = config
        self.game_config = config.game_config()
        self.abstraction = config.abstraction
        self.rng = random.Random(config.seed)
        self.iteration = 0
        # key -> [abstract action names, cumulative regrets, cumulative average strategy, visits]
        self.tables: dict[str, list[Any]] = {}
        self.fixed: CfrPolicy | None = None
        self.new_hand: Callable[[int, int], Game] = self.sampled_hand
        """The hand each traversal plays, from a seed and a dealer: by default a new game from 0-0 dealt by
        the seed (a test may fix the deal)."""
        if config.against is not None:
            self.fixed = CfrPolicy(Path(config.against))
            if self.fixed.table.variant != config.variant:
                raise ValueError(
                    f"{config.against} plays {self.fixed.table.variant}, not {config.variant}: train the best "
                    "response on its variant"
                )

    def sampled_hand(self, seed: int, dealer: int) -> Game:
        return new_game(self.game_config, seed, dealer)

    # -------------------------------------------------------------------------------------- state
    def state(self) -> dict[str, Any]:
        return {
            "version": CHECKPOINT_VERSION,
            "config": self.config.identity(),
            "iteration": self.iteration,
            "rng": self.rng.getstate(),
            "tables": self.tables,
        }

    def restore(self, state: dict[str, Any], where: Path) -> None:
        if state.get("version") != CHECKPOINT_VERSION or state.get("config") != self.config.identity():
            raise ValueError(
                f"{where} is the checkpoint of another training (other options, seed or abstraction): remove it "
                "or write the policy elsewhere"
            )
        self.iteration = int(state["iteration"])
        self.rng.setstate(state["rng"])
        self.tables = state["tables"]

    # -------------------------------------------------------------------------------------- training
    def iterate(self) -> None:
        self.iteration += 1
        for traverser in (0, 1):
            seed = self.rng.getrandbits(63)
            dealer = self.rng.randrange(2)
            self._walk(self.new_hand(seed, dealer), (), traverser)

    def _walk(self, game: Game, skipped: tuple[int, ...], traverser: int) -> float:
        """The traverser's value of the hand from here (the module docstring)."""
        rng = self.rng
        while True:
            if game.hand_over:
                return hand_value(game, traverser)
            actor = game.actor()
            if actor < 0:
                game.deal()
                skipped = ()
                continue
            seat, optional = actor, False
            for other in game.optional_actors():
                if other != actor and other not in skipped and game.legal_for(other):
                    seat, optional = other, True
                    break
            view = SeatView(game, seat, optional)
            key, choices = self.abstraction.moment(view)
            if len(choices) == 1:
                skipped = self._apply(game, skipped, seat, choices[0][1])
                continue
            if seat != traverser and self.fixed is not None:
                skipped = self._apply(game, skipped, seat, _draw(self.fixed.probabilities(view), rng))
                continue
            entry = self.tables.get(key)
            if entry is None:
                size = len(choices)
                entry = self.tables[key] = [[name for name, _ in choices], [0.0] * size, [0.0] * size, 0]
            entry[3] += 1
            strategy = _matched(entry[1])
            weight = self.iteration  # linear weighting (the module docstring)
            if seat != traverser:
                sums = entry[2]
                for i, p in enumerate(strategy):
                    sums[i] += weight * p
                draw = rng.random()
                chosen = len(strategy) - 1
                for i, p in enumerate(strategy):
                    draw -= p
                    if draw < 0:
                        chosen = i
                        break
                skipped = self._apply(game, skipped, seat, choices[chosen][1])
                continue
            values = []
            last = len(choices) - 1
            for i, (_, action) in enumerate(choices):
                child = game.clone() if i < last else game
                after = self._apply(child, skipped, seat, action)
                values.append(self._walk(child, after, traverser))
            node = sum(p * v for p, v in zip(strategy, values, strict=True))
            regrets = entry[1]
            for i, v in enumerate(values):
                regrets[i] += weight * (v - node)
            return node

    @staticmethod
    def _apply(game: Game, skipped: tuple[int, ...], seat: int, action: Action | None) -> tuple[int, ...]:
        if action is None:
            return (*skipped, seat)
        game.apply_trusted(action)
        return ()

    # -------------------------------------------------------------------------------------- the policy
    def policy(self) -> PolicyTable:
        infostates: dict[str, tuple[list[str], list[float]]] = {}
        for key, (names, regrets, sums, visits) in self.tables.items():
            if visits < self.config.min_visits:
                continue
            if self.fixed is not None:
                best = max(range(len(regrets)), key=lambda i: regrets[i])
                probs = [1.0 if i == best else 0.0 for i in range(len(regrets))]
            else:
                total = sum(sums)
                probs = [s / total for s in sums] if total > 0 else _matched(regrets)
            infostates[key] = (names, probs)
        config = self.config
        training = {**config.document(), "iterations": self.iteration, "method": _method(config)}
        return PolicyTable(config.variant, dict(config.options), config.abstraction, training, infostates)


def _method(config: TrainConfig) -> str:
    if config.against is not None:
        return "external-sampling MCCFR best response (the action of highest regret)"
    return "external-sampling MCCFR (the average strategy)"


def _matched(regrets: list[float]) -> list[float]:
    """Regret matching: the positive regrets in proportion, uniform when none is positive."""
    positive = [r if r > 0 else 0.0 for r in regrets]
    total = sum(positive)
    if total <= 0:
        return [1.0 / len(regrets)] * len(regrets)
    return [p / total for p in positive]


def _draw(chances: dict[Action | None, float], rng: random.Random) -> Action | None:
    draw = rng.random()
    items = list(chances.items())
    for action, p in items:
        draw -= p
        if draw < 0:
            return action
    return items[-1][0]


def checkpoint_path(out: Path) -> Path:
    return out.with_name(out.name + CHECKPOINT_SUFFIX)


def interrupted_line(out: Path, before: tuple[int, int] | None, checkpoint_seconds: float) -> str:
    """What Ctrl-C leaves of ``truc train`` (``train_policy``): the policy file is written aside and renamed in
    only at the end, so ``out`` is as it was (``before``: its ``filesystem.identity`` at the start), unless the
    training ended and only the fallback games were left; the checkpoint, saved every ``checkpoint_seconds``
    (written aside and renamed in), keeps the training up to the last one, which the same command continues. Its
    iteration is inside the pickled tables, not read here: the line gives no number."""
    if filesystem.identity(out) not in (None, before):
        return f"interrupted after the training ended; the policy file {out} is written whole"
    checkpoint = checkpoint_path(out)
    every = f"one every {checkpoint_seconds:g} s" if checkpoint_seconds > 0 else "one after every iteration"
    if not checkpoint.exists():
        return f"interrupted before the first checkpoint ({every}); nothing was written: the same command starts over"
    policy = f"the policy file {out} is as it was" if before is not None else f"the policy file {out} was not written"
    return (
        f"interrupted; {policy}, and {checkpoint} keeps the training up to its last checkpoint ({every}): run the "
        "same command again to continue from there"
    )


def _save(trainer: _Trainer, where: Path) -> None:
    """The checkpoint, written aside and renamed in (``store.atomic_file``; pickled into its bytes)."""
    with atomic_file(where, overwrite=True) as stream:
        pickle.dump(trainer.state(), stream.buffer, protocol=pickle.HIGHEST_PROTOCOL)


def _write_policy_into(stream: TextIO, policy: PolicyTable) -> None:
    """``write_policy`` onto the temporary file of ``store.atomic_file``, which renames it to the output: the
    policy file's format stays written in one place (``pipeline.policies.cfr``). That function writes beside
    its path first (``NAME.tmp``), removed here should it fail."""
    temporary = Path(stream.name)
    try:
        write_policy(temporary, policy)
    except BaseException:
        filesystem.remove(temporary.with_name(temporary.name + ".tmp"))
        raise


def _check_out(config: TrainConfig, out: Path) -> None:
    """Refuse an ``out`` (or its checkpoint) that is the ``against`` file, and an ``out`` that is not a file."""
    if config.against is not None:
        against = Path(config.against)
        for path, what in ((out, "--out"), (checkpoint_path(out), "the checkpoint of --out")):
            same = filesystem.identity(path)
            if path.resolve() == against or (same is not None and same == filesystem.identity(against)):
                raise ValueError(f"{what} {path} is the --against file {against}: write the policy elsewhere")
    if not out.parent.is_dir():
        raise ValueError(f"{out.parent} is not a folder")
    if out.exists() and not out.is_file():
        raise ValueError(f"--out {out} exists and is not a file: choose another --out")


def _resume(trainer: _Trainer, where: Path) -> bool:
    """Restore ``trainer`` from its checkpoint ``where``; False when there is none."""
    if not where.exists():
        return False
    try:
        with where.open("rb") as raw:
            state = pickle.load(raw)
    except Exception as exc:
        raise ValueError(f"{where}: not a readable checkpoint ({type(exc).__name__}); remove it") from None
    trainer.restore(state, where)
    return True


def train_policy(
    config: TrainConfig,
    out: Path,
    progress: Callable[[int, int], None] | None = None,
    checkpoint_seconds: float = 60.0,
    check_games: int = 0,
    overwrite: bool = False,
) -> TrainResult:
    """Train ``config`` into the policy file ``out``, continuing from ``out``'s checkpoint if there is one
    (the module docstring); ``progress(iterations done, iterations)`` now and then. Then, with ``check_games``,
    measure how often the policy falls back on the threshold bot in that many games against it. An existing
    ``out`` is refused unless ``overwrite`` or it is this training's own (its checkpoint continued)."""
    if config.iterations < 1:
        raise ValueError(f"iterations={config.iterations} must be at least 1")
    check_seed(config.seed)
    trainer = _Trainer(config)
    _check_out(config, out)
    where = checkpoint_path(out)
    own = _resume(trainer, where)
    resumed = trainer.iteration
    if resumed > config.iterations:
        raise ValueError(
            f"{where} holds {resumed} iterations, more than the {config.iterations} asked: ask at least as many"
        )
    with atomic_file(out, overwrite or own) as stream:
        started = last = time.perf_counter()
        while trainer.iteration < config.iterations:
            trainer.iterate()
            now = time.perf_counter()
            if progress is not None and (trainer.iteration % 100 == 0 or trainer.iteration == config.iterations):
                progress(trainer.iteration, config.iterations)
            if now - last >= checkpoint_seconds:
                _save(trainer, where)
                last = now
        seconds = time.perf_counter() - started
        _save(trainer, where)
        policy = trainer.policy()
        _write_policy_into(stream, policy)
    result = TrainResult(out, trainer.iteration, resumed, len(trainer.tables), len(policy.infostates), seconds)
    if check_games > 0:
        result.fallbacks = measure_fallbacks(out, check_games, config.seed)
    return result


def measure_fallbacks(out: Path, games: int, seed: int = 0, opponent: str = "threshold") -> Fallbacks:
    """Play ``games`` whole games of the policy file ``out`` against ``opponent`` (seats alternating) and count
    its decisions (moments with more than one choice) and those its table did not hold (played by the
    fallback)."""
    from pipeline.playing import play_with_engine
    from pipeline.policies import parse_policy

    policy = CfrPolicy(out)
    config = VARIANTS[policy.table.variant].configure(dict(policy.table.options))
    for game in range(games):
        other = parse_policy(opponent)
        seats = [policy, other] if game % 2 == 0 else [other, policy]
        play_with_engine(config, seats, seed + game)
    return Fallbacks(games, policy.decisions, policy.fallbacks)


__all__ = ["SKIP", "Fallbacks", "TrainConfig", "TrainResult", "checkpoint_path", "measure_fallbacks", "train_policy"]
