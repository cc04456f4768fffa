"""What a reader must know to weigh a report's figures: how the data was made (``methods``, from the runs'
manifests) and what limits what it can show (``caveats``, from the statistics' frames and the manifests, each
said only when its condition holds). Pure functions, no I/O.

The caveats, each a ``Caveat`` with a short ``kind``:

- ``mirror``: a policy held more than one side of the same games (the same bot on both teams): its share of
  games won holds by construction, so the report gives it no result;
- ``partners``: partners played different bots: the team's games and hands won are shared, so they cannot
  tell the two bots apart (only each one's own choices can);
- ``card-play``: the bots play their cards by a fixed rule (the threshold bot's ``lead`` and ``follow``, the
  random bot uniformly): figures about tricks describe that play, not skilled card play;
- ``small``: a setting rests on fewer than ``SMALL_GAMES`` games;
- ``pooled``: datasets of the same variant and player count were played by different bots and are counted
  together in the figures of the whole setting;
- ``random``: a random bot sat at some tables (``summary.random_bot_caveat``);
- ``note``: what ``stats.pooling_notes`` says (games of different options, the same games twice...).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import polars as pl

from pipeline.policies import POLICIES
from pipeline.report.claims import bot_of
from pipeline.report.frames import (
    COMPARISON,
    GAMES,
    MIRROR,
    PLAYERS,
    POLICY_NAME,
    TEAM_JOIN,
    conform,
    fmt_int,
    random_bot_shares,
    setting_phrase,
    with_policy_names,
)
from pipeline.report.summary import random_bot_caveat

SMALL_GAMES: Final = 1000
"""Below this many games a setting's figures are flagged as a small sample: its intervals are wide, and only a
large effect clears them."""


@dataclass(frozen=True)
class Caveat:
    kind: str
    text: str


def _join(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def caveats(
    frames: Mapping[str, pl.DataFrame], manifests: Mapping[str, Mapping[str, Any]], notes: Sequence[str] = ()
) -> list[Caveat]:
    """Every caveat whose condition holds, in the module docstring's order."""
    out: list[Caveat] = []
    games = frames.get(GAMES)
    if games is not None and games.height and {MIRROR, "policy"} <= set(games.columns):
        games = with_policy_names(conform(GAMES, games)).with_columns(pl.col(POLICY_NAME).alias("policy"))
        mirrors = games.filter(pl.col(MIRROR)).select("variant", "players", "policy").sort("variant", "players")
        if mirrors.height:
            each = [f"{policy} in {setting_phrase(variant, players)}" for variant, players, policy in mirrors.rows()]
            out.append(
                Caveat(
                    "mirror",
                    f"Mirrors: {_join(each)} sat on more than one side of the same games, so its share of them "
                    "won holds by construction; the report gives no win rate there and draws no conclusion.",
                )
            )
        mixed = games.filter(pl.col("policy").str.contains(TEAM_JOIN, literal=True))
        settings = sorted(set(mixed.select("variant", "players").rows()))
        if settings:
            out.append(
                Caveat(
                    "partners",
                    f"In {_join([setting_phrase(v, p) for v, p in settings])}, partners played different bots (the "
                    "teams joined by '+' under Games won, per policy): they share their team's games and hands "
                    "won, so those results cannot tell the bots apart; only each one's own choices (raises, folds) "
                    "can.",
                )
            )
    bots = sorted({bot_of(p) for m in manifests.values() for p in _policies(m)} & set(POLICIES))
    if bots:
        out.append(
            Caveat(
                "card-play",
                f"The cards are played by the bots' fixed rules ({_join(bots)}: the threshold bot by its lead and "
                "follow rules, the random bot uniformly): figures about tricks (the first trick's value, ties, void "
                "hands) describe that play, not skilled card play.",
            )
        )
    comparison = frames.get(COMPARISON)
    if comparison is not None and comparison.height and "games" in comparison.columns:
        small = comparison.filter(pl.col("games") < SMALL_GAMES).sort("variant", "players")
        if small.height:
            each = [
                f"{setting_phrase(v, p)} ({fmt_int(g)} games)"
                for v, p, g in small.select("variant", "players", "games").rows()
            ]
            out.append(
                Caveat(
                    "small",
                    f"Small samples: {_join(each)} rest on fewer than {fmt_int(SMALL_GAMES)} games; their intervals "
                    "are wide and only a large effect clears them.",
                )
            )
    by_setting: dict[tuple[Any, Any], set[tuple[str, ...]]] = {}
    for manifest in manifests.values():
        if manifest.get("variant") is not None and _policies(manifest):
            by_setting.setdefault((manifest.get("variant"), manifest.get("players")), set()).add(
                tuple(sorted(set(_policies(manifest))))
            )
    for (variant, players), seen in sorted(by_setting.items(), key=str):
        if len(seen) > 1:
            out.append(
                Caveat(
                    "pooled",
                    f"{setting_phrase(variant, players).capitalize()} pools {len(seen)} datasets played by different "
                    "bots: the figures of the whole setting (the eldest's edge, ties, stakes) mix their play; the "
                    "figures of seats' choices keep each bot apart.",
                )
            )
    players_frame = frames.get(PLAYERS)
    random_text = random_bot_caveat(random_bot_shares(players_frame)) if players_frame is not None else None
    if random_text:
        out.append(Caveat("random", random_text))
    out += [Caveat("note", note[:1].upper() + note[1:] + ".") for note in notes]
    return out


def _policies(manifest: Mapping[str, Any]) -> list[str]:
    """The bots' descriptions a dataset's manifest names (a simulation's seats, a match's A and B)."""
    policies = manifest.get("policies")
    return [str(p) for p in policies.values()] if isinstance(policies, Mapping) else []


@dataclass(frozen=True)
class Run:
    """One dataset as the Methods describe it."""

    label: str
    kind: str
    variant: str
    players: str
    options: str
    games: str
    policies: list[str]
    seed: str
    pairing: str


def methods(manifests: Mapping[str, Mapping[str, Any]]) -> list[Run]:
    """Each dataset's variant, options, players, games and hands, bots with their parameters, seed and pairing."""
    runs = []
    for label, manifest in manifests.items():
        options = manifest.get("options") or {}
        shown = (
            ", ".join(f"{k}={v}" for k, v in sorted(options.items()) if k != "players")
            if isinstance(options, Mapping)
            else ""
        )
        policies = manifest.get("policies")
        seats = _seats(policies) if isinstance(policies, Mapping) else []
        experiment = manifest.get("experiment")
        if isinstance(experiment, Mapping) and experiment.get("pairing"):
            pairing = str(experiment["pairing"])
        elif manifest.get("kind") == "simulation":
            pairing = "none: independent games, each seat keeping its bot"
        else:
            pairing = "none: games as recorded"
        games, hands = manifest.get("games"), manifest.get("hands")
        runs.append(
            Run(
                label=label,
                kind=str(manifest.get("kind") or "dataset"),
                variant=str(manifest.get("variant") or "several"),
                players=str(manifest.get("players") or "-"),
                options=shown or "defaults",
                games=(f"{fmt_int(games)} games" if isinstance(games, int) else "-")
                + (f", {fmt_int(hands)} hands" if isinstance(hands, int) else ""),
                policies=seats or ["as recorded"],
                seed=_seed(manifest),
                pairing=pairing,
            )
        )
    return runs


def _seats(policies: Mapping[str, Any]) -> list[str]:
    """Each bot once with the seats that played it: ``seats 0, 2: threshold raise_at=0.7 ...``."""
    by_bot: dict[str, list[str]] = {}
    for seat, policy in policies.items():
        by_bot.setdefault(str(policy), []).append(str(seat))
    return [f"{_holder(seats)} {', '.join(seats)}: {bot}" for bot, seats in by_bot.items()]


def _holder(seats: Sequence[str]) -> str:
    """What a manifest's ``policies`` key names: a seat (a number) or, in a match, a side (``A``, ``B``)."""
    word = "seat" if all(seat.isdigit() for seat in seats) else "side"
    return word + ("s" if len(seats) > 1 else "")


def _seed(manifest: Mapping[str, Any]) -> str:
    if manifest.get("seed") is None:
        return "-"
    scheme = manifest.get("seed_scheme")
    return f"{manifest['seed']}" + (f" (scheme {scheme})" if scheme else "")


_COLUMNS: Final = (
    ("Dataset", "label"),
    ("Variant", "variant"),
    ("Players", "players"),
    ("Options", "options"),
    ("Games", "games"),
    ("Bots (seats: bot)", "policies"),
    ("Seed", "seed"),
    ("Pairing", "pairing"),
)
"""The Methods table's columns and the ``Run`` field each shows."""

_ONCE: Final = ("seed", "pairing", "options", "variant", "players")
"""Fields said once under the table, rather than in a column, when every run has the same value."""


def common_folder(labels: Sequence[str]) -> str:
    """The folder every dataset's label lies under; empty when there is none (a relative path beside an
    absolute one, or nothing in common)."""
    try:
        return os.path.commonpath(list(labels))
    except ValueError:
        return ""


def methods_table(runs: Sequence[Run]) -> tuple[list[str], list[list[str | list[str]]], list[str]]:
    """The Methods as a table: its headers, a row per run (a cell of bots is a list, a line each), and the
    values every run shares (seed, pairing, options...) said once, as ``Header: value`` lines. Datasets are
    named from their common folder."""
    if not runs:
        return [], [], []
    common = common_folder([run.label for run in runs]) if len(runs) > 1 else ""
    shared = [field for field in _ONCE if len({str(getattr(run, field)) for run in runs}) == 1 and len(runs) > 1]
    columns = [(header, field) for header, field in _COLUMNS if field not in shared]
    rows: list[list[str | list[str]]] = []
    for run in runs:
        row: list[str | list[str]] = []
        for _, field in columns:
            value = getattr(run, field)
            if field == "label" and common:
                value = os.path.relpath(value, common)
            row.append(value)
        rows.append(row)
    lines = [f"{header}: {getattr(runs[0], field)} (every dataset)" for header, field in _COLUMNS if field in shared]
    if common:
        lines.insert(0, f"Datasets: under {common}")
    return [header for header, _ in columns], rows, lines
