"""``cfr``: a policy trained by Monte Carlo CFR (``truc train``), played from its policy file (docs/equilibrium.md).

The trained policy does not see a seat's exact information state: it sees an *abstraction* of it
(``Abstraction.key``), which many information states share, and chooses among *abstract actions*
(``Abstraction.choices``). Both are functions of the seat's ``SeatView`` alone, so training
(``pipeline.openspiel.mccfr``) and play read a moment the same way:

- **the seat's cards**: the bucket of the exact strength percentile of the hand dealt (``pipeline.strength``;
  ``buckets`` equal slices of [0, 1]), and the cards it still holds, each as its *class*: the variant's
  powers from the highest, the ``top`` highest a class each, the next ``middle`` one class, the rest one class;
- **what it has seen of play**: the hand's public record in order from the deal (the cut and the choice of
  a one-card deal left out), each move as who made it (``m`` the seat's side, ``o`` the other) and its verb, a
  card the other side laid face up with its class (the seat's own cards show in what it still holds), and the
  tricks' results;
- **where it sits**: eldest or not, the decision asked, and whether acting is optional.

The scores are not part of it: the policy is trained on one hand from 0-0, and plays every hand of a game the
same way whatever the score.

An abstract action is a verb, with a card's *rank among the seat's own cards* for a card played (``play0`` the
highest it holds, ``play1`` the next power down...; cards of one power are one choice), the number of cards for
``deal``, the word of a trut or a raise, and ``skip`` for doing nothing when acting is optional.

A moment whose key the policy file does not hold (never reached in training, as a hold at 11 points, or
reached fewer than the training's ``min_visits`` times) is played by the **fallback**, the default
``threshold`` bot; the policy counts how often (``decisions``, ``fallbacks``).

The policy file (``write_policy``/``read_policy``) is gzip-compressed JSON (written with a zero time stamp, so
the same training gives the same bytes): ``format`` ``"truc-cfr"``, ``version`` 1, ``variant``, ``options``
(the variant's options, ``players`` among them), ``abstraction`` (its parameters), ``training`` (the
configuration and seed it was trained with, and its iterations), and ``infostates``: key -> [the abstract
actions, the chance of each, rounded to 6 decimals].
"""

from __future__ import annotations

import functools
import gzip
import json
import os
import random
import zlib
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Final

from pipeline.engine.actions import CUT, DEAL, DEALT, NOCUT, PLAY, Action
from pipeline.engine.view import SeatView
from pipeline.policies.parameters import Param, path
from pipeline.policies.threshold import ThresholdPolicy
from pipeline.strength import hand_strength

FORMAT: Final = "truc-cfr"
VERSION: Final = 1
SKIP: Final = "skip"
CARD_ARG_VERBS: Final = frozenset([PLAY, "cover"])
"""Verbs whose argument is one of the seat's cards: an abstract action by the card's rank among them."""
HIDDEN_VERBS: Final = frozenset(["cover", "discard"])
"""Verbs whose card the other seats do not see."""
BEFORE_DEAL: Final = frozenset([CUT, NOCUT, DEAL])
"""Catalan's cut and deal: left out of a key (a one-card deal shows in the hand's size)."""
TRICK_RESULTS: Final = {1: "w", -1: "l", 0: "t"}
"""A finished trick in a key: won, lost or tied by the seat's side (``SeatView.tricks``)."""


class PolicyFileError(ValueError):
    """A policy file that cannot be read, or does not fit the game it is asked to play."""


@dataclass(frozen=True)
class Abstraction:
    """How a seat's view becomes a key of the policy table (the module docstring)."""

    buckets: int = 8
    top: int = 3
    middle: int = 3

    def classes(self, power: tuple[int, ...]) -> tuple[int, ...]:
        return _classes(power, self.top, self.middle)

    def moment(self, view: SeatView) -> tuple[str, list[tuple[str, Action | None]]]:
        """The key of ``view`` and its abstract choices (sorted by name). The key ends with the choices' names:
        two moments with one key always offer the same choices (cards of one class may or may not be of one
        power)."""
        choices = self.choices(view)
        return f"{self.key(view)}|{','.join(name for name, _ in choices)}", choices

    def key(self, view: SeatView) -> str:
        """The seat's cards, what it has seen of play and where it sits (the module docstring)."""
        game = view._game  # read for the hand's public record and the seat's own cards only
        cls = self.classes(game.power)
        dealt = view.dealt
        if dealt:
            pct = hand_strength(view.rules, dealt, view.opponents)[1]
            bucket = f"{len(dealt)}:{min(self.buckets - 1, int(pct * self.buckets))}"
        else:
            bucket = "-"
        held = "".join(sorted(str(cls[c]) for c in view.held))
        team = view.team
        moves = []
        for event in game.events:
            seat, verb, arg = event[0], event[1], event[2]
            if verb == DEALT or seat < 0:
                continue
            who = "m" if game.team_of[seat] == team else "o"
            if verb in BEFORE_DEAL:
                continue
            if verb in CARD_ARG_VERBS or verb in HIDDEN_VERBS:
                shown = str(cls[arg]) if who == "o" and verb == PLAY and isinstance(arg, int) else ""
                moves.append(f"{who}{verb}{shown}")
            else:
                moves.append(f"{who}{verb}" if arg is None else f"{who}{verb}{arg}")
        tricks = "".join(TRICK_RESULTS[r] for r in view.tricks)
        place = "E" if view.is_eldest else "D"
        optional = "?" if view.optional else ""
        return f"{view.decision}{optional}|{place}|{bucket}|{held}|{tricks}|{'.'.join(moves)}"

    def choices(self, view: SeatView) -> list[tuple[str, Action | None]]:
        """Each abstract action legal in ``view`` and one concrete action it stands for."""
        out: dict[str, Action | None] = {}
        power = view.power
        held_powers = sorted({power[c] for c in view.held}, reverse=True)
        for action in view.legal():
            verb, arg = action.verb, action.arg
            if verb in CARD_ARG_VERBS and isinstance(arg, int):
                name = f"{verb}{held_powers.index(power[arg])}"
            else:
                name = verb if arg is None else f"{verb}{arg}"
            out.setdefault(name, action)
        if view.optional:
            out[SKIP] = None
        return sorted(out.items(), key=lambda item: item[0])


@functools.lru_cache(maxsize=16)
def _classes(power: tuple[int, ...], top: int, middle: int) -> tuple[int, ...]:
    distinct = sorted(set(power), reverse=True)
    rank = {p: i for i, p in enumerate(distinct)}
    return tuple(rank[p] if rank[p] < top else (top if rank[p] < top + middle else top + 1) for p in power)


@dataclass(frozen=True)
class PolicyTable:
    """A policy file read: what it plays and its table."""

    variant: str
    options: dict[str, str]
    abstraction: Abstraction
    training: dict[str, Any]
    infostates: dict[str, tuple[list[str], list[float]]]


def write_policy(path_: Path, table: PolicyTable) -> None:
    """Write ``table`` as a policy file (the module docstring), atomically (a temporary file renamed)."""
    document = {
        "format": FORMAT,
        "version": VERSION,
        "variant": table.variant,
        "options": table.options,
        "abstraction": asdict(table.abstraction),
        "training": table.training,
        "infostates": {
            key: [names, [round(p, 6) for p in probs]] for key, (names, probs) in sorted(table.infostates.items())
        },
    }
    data = json.dumps(document, separators=(",", ":"), sort_keys=False).encode()
    temporary = path_.with_name(path_.name + ".tmp")
    with temporary.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as out:
        out.write(data)
    temporary.replace(path_)


def read_policy(path_: Path) -> PolicyTable:
    """Read a policy file; ``PolicyFileError`` (one line) for a file that is missing, damaged or of another
    format.

    A file read before is not read again while it is the same file with the same content, as far as one
    ``os.stat`` tells (its device and inode, size, modification and change times): a file retrained by ``truc
    train`` (written aside and renamed in) or rewritten in place is read anew."""
    name = str(Path(path_).resolve())
    try:
        status = os.stat(name)
    except OSError:
        return _read(name)  # the one-line error of a file that cannot be read (or the file, if it came meanwhile)
    return _read_cached(name, status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns)


@functools.lru_cache(maxsize=4)
def _read_cached(name: str, *identity: int) -> PolicyTable:
    """``_read`` of the file ``name`` whose ``os.stat`` gave ``identity`` (``read_policy``): the key of the cache."""
    return _read(name)


def _read(name: str) -> PolicyTable:
    where = f"policy cfr: file {name}"
    try:
        with gzip.open(name, "rb") as raw:
            document = json.loads(raw.read())
    except FileNotFoundError:
        raise PolicyFileError(f"{where}: no such file") from None
    except (OSError, EOFError, zlib.error, ValueError) as exc:
        raise PolicyFileError(f"{where}: not a readable policy file ({' '.join(str(exc).split())})") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise PolicyFileError(f"{where}: not a {FORMAT} policy file")
    if document.get("version") != VERSION:
        raise PolicyFileError(f"{where}: format version {document.get('version')}, this Truc Lab reads {VERSION}")
    try:
        infostates = {
            str(key): (list(map(str, names)), [float(p) for p in probs])
            for key, (names, probs) in document["infostates"].items()
        }
        for key, (names, probs) in infostates.items():
            total = sum(probs)
            if len(names) != len(probs) or not total > 0 or min(probs) < 0:
                raise ValueError(f"information state {key!r}: {len(names)} actions, chances {probs}")
            infostates[key] = (names, [p / total for p in probs])  # rounded in the file: summed to 1 again
        return PolicyTable(
            str(document["variant"]),
            {str(k): str(v) for k, v in document["options"].items()},
            Abstraction(**document["abstraction"]),
            dict(document["training"]),
            infostates,
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise PolicyFileError(f"{where}: damaged ({type(exc).__name__}: {' '.join(str(exc).split())})") from None


PARAMETERS: tuple[Param, ...] = (path("file", "the policy file written by truc train (docs/equilibrium.md)"),)


class CfrPolicy:
    """Plays the policy of a policy file; a moment the file does not know is played by the threshold bot."""

    name = "cfr"

    def __init__(self, file: Path | None = None) -> None:
        if file is None:
            raise PolicyFileError("policy cfr: give its policy file, cfr:file=PATH (written by truc train)")
        self.file = Path(file)
        self.table = read_policy(self.file)
        self.params: dict[str, Any] = {"file": str(self.file)}
        self.fallback = ThresholdPolicy()
        self.decisions = 0
        self.fallbacks = 0

    def describe(self, variant: str | None = None) -> str:
        return f"{self.name} file={self.file}"

    def _check(self, view: SeatView) -> None:
        table = self.table
        players = table.options.get("players")
        if view.variant != table.variant or (players is not None and str(view.players) != players):
            raise PolicyFileError(
                f"policy cfr: {self.file} was trained for {table.variant} with {players} players, not "
                f"{view.variant} with {view.players}"
            )

    def _lookup(self, view: SeatView) -> tuple[list[tuple[str, Action | None]], tuple[list[str], list[float]] | None]:
        """The abstract choices at this moment and the table's entry for it (None: the fallback plays it; a
        moment with one choice is not counted as a decision)."""
        self._check(view)
        key, choices = self.table.abstraction.moment(view)
        if len(choices) == 1:
            return choices, None
        self.decisions += 1
        found = self.table.infostates.get(key)
        if found is None or sorted(found[0]) != sorted(name for name, _ in choices):
            self.fallbacks += 1
            return choices, None
        return choices, found

    def probabilities(self, view: SeatView) -> dict[Action | None, float]:
        """The trained chances at this moment, or the fallback's (the threshold bot's ``probabilities``)."""
        choices, found = self._lookup(view)
        if len(choices) == 1:
            return {choices[0][1]: 1.0}
        if found is None:
            return self.fallback.probabilities(view)
        chances = dict(zip(*found, strict=True))
        out: dict[Action | None, float] = {}
        for name, action in choices:
            out[action] = out.get(action, 0.0) + chances[name]
        return out

    def step(self, view: SeatView, rng: random.Random) -> Action | None:
        choices, found = self._lookup(view)
        if len(choices) == 1:
            return choices[0][1]
        if found is None:
            return self.fallback.step(view, rng)
        chances = dict(zip(*found, strict=True))
        draw = rng.random()
        for name, action in choices:
            draw -= chances[name]
            if draw < 0:
                return action
        return max(choices, key=lambda c: chances[c[0]])[1]  # rounding left the draw past the last
