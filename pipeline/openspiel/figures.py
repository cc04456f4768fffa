"""The small-variant figures of docs/equilibrium.md: the size of a small game, CFR+'s exploitability against
its iterations, and the exact exploitability of bots (``truc equilibrium`` prints and writes them).

``equilibrium_figures`` loads one hand of the variant (``scope=hand``, each seat's cards one chance outcome:
``deal=hands``), exports its tree once (``solve.export_tree``), measures each bot by its ``probabilities``
(the search bot made deterministic from a seed: ``bots.seeded_search``) and runs CFR+, then writes to its
folder ``figures.json`` (every number), ``cfr_plus.csv`` (the curve) and ``exploitability.png`` / ``.svg``
(the curve and the bots, an Altair chart).

Every input is checked before anything is written, the folder last (``check_figures_folder``): a new one, an
empty one, or one holding an earlier run's ``figures.json`` (the figures are derived, remade at will, as a
report is), beside files of other kinds (``docs/equilibrium`` holds policy files and other runs' folders). The
tree and the figures are made in a temporary folder beside it (``figures_folder``); a new folder is that one
moved in whole, an existing one receives the four files, replacing an earlier run's and nothing else.
"""

from __future__ import annotations

import contextlib
import csv
import json
import math
import os
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import MISSING, asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, Final

import altair as alt
import pyspiel
import vl_convert as vlc

from pipeline import filesystem, store
from pipeline.openspiel.bots import state_policy
from pipeline.openspiel.game import game_name
from pipeline.openspiel.solve import exploitability, export_tree
from pipeline.policies import parse_policy
from pipeline.seeds import check_seed
from pipeline.variants import get_variant

SMALL_OPTIONS: dict[str, dict[str, str]] = {"trut": {"deck": "8"}, "catalan": {"deck": "7"}}
"""The options that make a variant small enough to solve exactly (``truc equilibrium``'s default)."""

MOVED_PARAMETERS: dict[str, dict[str, tuple[float, float]]] = {
    "trut": {"trut_bluff": (0.0, 0.3), "trut_at": (0.6, 0.95), "see_at": (0.35, 0.75)},
    "catalan": {"raise_at": (0.55, 0.85), "call_at": (0.35, 0.65), "bluff": (0.0, 0.3), "nocut": (0.0, 0.5)},
}
"""The threshold bot's betting parameters that ``default_bots`` moves both ways from their defaults, by variant."""


def default_bots(variant: str) -> tuple[str, ...]:
    """The bots measured by default: the random bot, the threshold bot with its defaults, and the threshold bot
    with each of its betting parameters for ``variant`` (``MOVED_PARAMETERS``) moved both ways."""
    moved = MOVED_PARAMETERS.get(variant, {})
    return ("random", "threshold", *(f"threshold:{name}={value:g}" for name, pair in moved.items() for value in pair))


@dataclass
class Figures:
    """Everything ``equilibrium_figures`` measured. Exploitabilities are in the game's points per hand (petits
    in the trut family, a long counted as 3)."""

    game: str
    deals: int
    histories: int
    terminals: int
    decisions: int
    information_states: list[int]
    export_seconds: float
    cfr_plus: list[tuple[int, float]] = field(default_factory=list)
    cfr_plus_seconds: float = 0.0
    bots: dict[str, float] = field(default_factory=dict)
    openspiel_check: float = math.nan  # pyspiel.exploitability of CFR+'s last average policy
    seed: int = 0  # the deterministic search bot's base seed (bots.seeded_search)
    variant: str = ""  # the variant and options measured, for a reader (``setting_name``)
    options: dict[str, str] = field(default_factory=dict)

    def lines(self) -> list[str]:
        """The figures as the command prints them."""
        last = self.cfr_plus[-1] if self.cfr_plus else (0, math.nan)
        out = [
            f"{self.game}: {self.deals:,} deals, {self.histories:,} histories ({self.terminals:,} terminal, "
            f"{self.decisions:,} decisions), information states {' + '.join(f'{n:,}' for n in self.information_states)}"
            f" (tree exported in {self.export_seconds:.0f} s)",
            f"CFR+: exploitability {last[1]:.6f} points per hand after {last[0]:,} iterations "
            f"({self.cfr_plus_seconds:.0f} s; OpenSpiel's own best responses: {self.openspiel_check:.6f})",
        ]
        out += [f"{spec}: exploitability {value:.4f} points per hand" for spec, value in self.bots.items()]
        return out


def count_deals(game: Any) -> int:
    """The deals of a hand: the ways chance can deal the seats' cards before the first decision after the deal,
    counted path by path. A decision before the deal (Catalan's cut, and after a declined cut the dealer's one
    card or three) leads to the deals it allows, and a deal reached both ways (three cards after a cut or after
    a declined cut) counts once."""
    deals: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()

    def walk(state: Any, outcomes: tuple[int, ...]) -> None:
        if state.is_chance_node():
            for outcome, _ in state.chance_outcomes():
                walk(state.child(outcome), (*outcomes, outcome))
        elif not outcomes and not state.is_terminal():
            for action in state.legal_actions():
                walk(state.child(action), outcomes)
        else:
            deals.add((tuple(len(hand) for hand in state.engine.hands), outcomes))

    walk(game.new_initial_state(), ())
    return len(deals)


def load_small_game(variant: str, players: int, options: Mapping[str, str]) -> Any:
    """One hand of ``variant`` with each seat's cards dealt as one chance outcome; ``UnknownVariant`` (one
    line, as every command's) for a variant that does not exist, not OpenSpiel's list of its games."""
    get_variant(variant)
    text = " ".join(f"{k}={v}" for k, v in options.items())
    return pyspiel.load_game(game_name(variant), {"players": players, "options": text, "deal": "hands"})


def equilibrium_figures(
    variant: str,
    players: int,
    options: Mapping[str, str],
    iterations: int,
    out: Path,
    bots: Sequence[str] | None = None,
    say: Callable[[str], None] | None = None,
    seed: int = 0,
) -> Figures:
    """Measure a small game (see the module docstring) and write the figures to the folder ``out``; ``bots`` are
    ``default_bots(variant)`` unless given; ``seed`` is the search bot's. Every input is checked, ``out`` last,
    before anything is written."""
    tell = say or (lambda _: None)
    if iterations < 1:
        raise ValueError(f"--iterations must be at least 1, not {iterations}")
    check_seed(seed)
    bots = default_bots(variant) if bots is None else bots
    game = load_small_game(variant, players, options)
    policies = {spec: state_policy(parse_policy(spec), seed) for spec in bots}
    with figures_folder(out) as work:
        tell(f"exporting the tree of {game}")
        tree = export_tree(game, work / "tree.efg", policies, progress=lambda n: tell(f"{n:,} histories"))
        figures = Figures(
            str(game),
            count_deals(game),
            tree.histories,
            tree.terminals,
            tree.decisions,
            tree.infostate_counts(),
            tree.seconds,
            seed=seed,
            variant=variant,
            options=dict(options),
        )
        arrays = tree.arrays
        assert arrays is not None
        for spec in bots:
            figures.bots[spec] = arrays.exploitability(tree.bot_strategies[spec])
            tell(f"{spec}: {figures.bots[spec]:.4f}")
        started = time.perf_counter()
        figures.cfr_plus, average = arrays.cfr_plus(
            iterations, progress=lambda i, value: tell(f"CFR+ iteration {i:,}: exploitability {value:.6f}")
        )
        figures.cfr_plus_seconds = time.perf_counter() - started
        tell("checking the end point with OpenSpiel's own best responses")
        figures.openspiel_check = exploitability(tree.efg_game(), tree.efg_policy(average))
        (work / "tree.efg").unlink()
        write_figures(figures, work)
    return figures


FIGURES_KIND: Final = "an empty folder or one holding the figures of an earlier truc equilibrium (figures.json)"


def holds_record(folder: Path, name: str, record: type) -> bool:
    """Whether ``folder`` holds an earlier run's ``name``, a JSON object of the dataclass ``record`` (its fields
    without a default, which every version wrote), and is not a dataset (an older Truc Lab wrote its figures into
    any folder, a dataset too: it stays refused)."""
    try:
        held = store.read_json(folder / name)
    except (OSError, store.DatasetError):
        return False
    required = {f.name for f in fields(record) if f.default is MISSING and f.default_factory is MISSING}
    return isinstance(held, dict) and required <= held.keys() and not os.path.lexists(folder / "manifest.json")


def _holds_figures(folder: Path) -> bool:
    return holds_record(folder, "figures.json", Figures)


def check_figures_folder(out: Path, holds: Callable[[Path], bool] = _holds_figures, kind: str = FIGURES_KIND) -> None:
    """Refuse an ``out`` that is not a new folder, an empty one or one with an earlier run's figures (``holds``,
    said as ``kind``; ``store.check_output_folder``: also one under a file or inside a dataset), before any work is
    done."""
    store.check_output_folder(out, True, holds, kind)


@contextlib.contextmanager
def figures_folder(
    out: Path, holds: Callable[[Path], bool] = _holds_figures, kind: str = FIGURES_KIND
) -> Iterator[Path]:
    """A temporary folder beside ``out`` to make the figures in, removed on any error; on success a new ``out``
    is that folder moved in whole (``store.atomic_dataset``), and an existing one (``check_figures_folder``:
    ``holds`` an earlier run's files) receives the files made in it (``store.files_added``), replacing those of an
    earlier run and leaving its other files as they are."""
    out = Path(out)
    check_figures_folder(out, holds, kind)
    if not out.exists():
        with store.atomic_dataset(out, overwrite=False) as tmp:
            yield tmp
    else:
        with store.files_added(out) as work:
            yield work


def interrupted_line(
    out: Path, before: tuple[int, int] | None, record: str = "figures.json", what: str = "the figures"
) -> str:
    """What Ctrl-C leaves of a run writing through ``figures_folder``: nothing, as its files are made aside and
    moved into ``out`` only once complete; but a Ctrl-C that comes while they move in is held until they all have,
    and one may come after: ``record`` (one of the files, which move in all or none) is then not the one of the
    start (``before``, its ``filesystem.identity``), and ``what`` was written."""
    if filesystem.identity(out / record) not in (None, before):
        return f"interrupted after {what} were written to {out}"
    return "interrupted; nothing was written"


def write_figures(figures: Figures, out: Path) -> None:
    write_measure(
        out, "figures", figures, "cfr_plus", ["iteration", "exploitability"], figures.cfr_plus,
        "exploitability", exploitability_chart(figures),
    )  # fmt: skip


def write_measure(
    out: Path,
    record_name: str,
    record: Any,
    curve_name: str,
    header: Sequence[str],
    rows: Iterable[Sequence[Any]],
    chart_name: str,
    chart: alt.TopLevelMixin,
) -> None:
    """A measure's files in ``out``: its record (a dataclass) as ``RECORD_NAME.json``, its curve as
    ``CURVE_NAME.csv`` (``header``, then ``rows``) and its chart as ``CHART_NAME.png`` (at scale 2) and ``.svg``."""
    (out / f"{record_name}.json").write_text(json.dumps(asdict(record), indent=2) + "\n", "utf-8")
    with (out / f"{curve_name}.csv").open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(header)
        writer.writerows(rows)
    spec = chart.to_dict()
    (out / f"{chart_name}.png").write_bytes(vlc.vegalite_to_png(spec, scale=2))
    (out / f"{chart_name}.svg").write_text(vlc.vegalite_to_svg(spec), "utf-8")


def exploitability_chart(figures: Figures) -> alt.TopLevelMixin:
    """CFR+'s exploitability against its iterations (log-log), and each bot's as a horizontal rule."""
    curve = alt.Data(values=[{"iteration": i, "exploitability": v} for i, v in figures.cfr_plus if v > 0])
    bots = alt.Data(values=[{"bot": spec, "exploitability": v} for spec, v in figures.bots.items()])
    y = alt.Y("exploitability:Q", scale=alt.Scale(type="log"), title="exploitability (points per hand)")
    line = (
        alt.Chart(curve)
        .mark_line(point=True, color="black")
        .encode(x=alt.X("iteration:Q", scale=alt.Scale(type="log"), title="CFR+ iterations"), y=y)
    )
    rules = alt.Chart(bots).mark_rule(strokeDash=[4, 3]).encode(y=y, color=alt.Color("bot:N", title="bot"))
    setting = setting_name(figures.variant, figures.options) if figures.variant else figures.game
    return alt.layer(line, rules).properties(title=f"{setting}: CFR+ against the bots", width=520, height=340)


def setting_name(variant: str, options: Mapping[str, str]) -> str:
    """One hand of a small game as a reader names it: ``trut, deck=8, one hand`` (not OpenSpiel's game string)."""
    return ", ".join([variant, *(f"{key}={value}" for key, value in sorted(options.items())), "one hand"])
