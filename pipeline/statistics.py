"""The statistics, each declared once: one ``Statistic`` entry here beside its SQL file ``sql/NAME.sql``.

A statistic is two things. Its SQL file computes it, and its header comment states its grain, the rows it
counts and the definition of every column (``truc stats NAME --describe`` prints it). Its entry here holds
everything else that is said about it, and every other place reads it from here:

- ``truc stats`` lists the names and one-line ``description`` s, and checks parameters and columns by them;
  ``pipeline.stats.compute`` runs the SQL and sorts by ``keys``;
- the output columns in order with their polars types (``schema``): the frame ``compute`` returns, the
  columns the report's charts and findings may read (``report.frames.conform``), and the tests' second
  implementation (``tests/stats_check.py``) are all held to it;
- the report: its section's heading (``title``) and the paragraph that defines it for a reader
  (``definition``), the part of the page it goes to (``part``; the registry's order is the page's order),
  the chart function (``chart``, a function of ``pipeline.report.charts``) and the findings function
  (``summary``, of ``pipeline.report.summary``), what a null means in a column where it stands for a row of
  its own (``null_means``), and a column's header where it means something else than in the other
  statistics (``headers``);
- which bots' parameters decide what it counts (``drivers``: bot name -> parameters): a finding that restates
  such a parameter (the threshold bot folds below ``call_at``) describes the bot, not the game. They are the
  union over the variants it counts: ``pipeline.policies.POLICIES[bot].read_in[variant]`` says which of them
  one variant's decisions read (``ladder_step`` in valencian only, ``see_at`` in the trut family). A
  statistic of whole hands or games that no one rule decides (``first_trick_value``, ``game_results``)
  declares none.

The chart and findings functions are named, not imported: ``truc stats`` does not load Altair. The report
modules build their tables of functions (``charts.CHARTS``, ``summary.SUMMARIES``) from these names when
they are imported, so a name that has no function fails at once. Adding a statistic: write its SQL file
with its header, add its entry here, and (for the report) its chart and findings functions.

``docs/statistics.md`` describes each statistic from this registry and the SQL headers: its per-statistic part
is written by ``scripts/statistics_doc.py``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import polars as pl

from pipeline.names import bounds_text, did_you_mean


def _sql_dir() -> Path:
    """The folder of the SQL files: ``pipeline/sql`` in an installed package (``setup.py`` ships the checkout's
    top-level ``sql/`` there), else the checkout's ``sql/`` (a source tree, an editable install)."""
    package = Path(__file__).resolve().parent
    shipped = package / "sql"
    return shipped if shipped.is_dir() else package.parent / "sql"


SQL_DIR = _sql_dir()


class StatsError(Exception):
    """An unknown statistic or parameter, or a parameter value of the wrong kind."""


def read_sql(name: str) -> str:
    """The text of ``sql/NAME.sql``, or ``StatsError`` saying why it cannot be read."""
    path = SQL_DIR / f"{name}.sql"
    try:
        return path.read_text("utf-8")
    except OSError as exc:
        raise StatsError(f"cannot read {path}: {exc.strerror}") from exc


STAGING: Final = "staging"
"""The SQL file of the staging views that every statistic reads (``sql/staging.sql``)."""

INTERVALS: Final = "intervals"
"""The SQL file of the Wilson interval macros that every statistic's finish uses (``sql/intervals.sql``)."""

FINISH_MARK: Final = "-- finish"
"""The line that splits a statistic's SQL file in two: above it the **tally**, a query whose rows add up across
datasets (counts and sums, at a grain without the dataset: the tally of two datasets read together is the
union of their tallies), below it the **finish**, which reads the view ``tally``, adds its rows up to the
statistic's grain and computes the rates and intervals. ``pipeline.tallies`` writes each dataset's tallies
when the dataset is written, so that a statistic reads them instead of the rows; over rows (a dataset
without them, other parameters than the defaults), the tally runs as a subquery of the finish."""


def split_tally(text: str) -> tuple[str, str] | None:
    """The tally and the finish of a statistic's SQL text (``FINISH_MARK``), or None when it has no mark."""
    lines = text.splitlines()
    marks = [number for number, line in enumerate(lines) if line.strip() == FINISH_MARK]
    if not marks:
        return None
    if len(marks) > 1:
        raise StatsError(f"a statistic's SQL may hold one {FINISH_MARK!r} line, not {len(marks)}")
    return "\n".join(lines[: marks[0]]).strip(), "\n".join(lines[marks[0] + 1 :]).strip()


def compose(tally: str, finish: str) -> str:
    """The finish reading ``tally`` (a parenthesised query or a relation) as the view ``tally``: a ``with``
    clause of its own, joined to the finish's when the finish opens one."""
    head = f"with tally as {tally}" if tally.startswith("(") else f"with tally as (select * from {tally})"
    opens_with = re.match(r"(?:\s*--[^\n]*\n)*\s*with\s", finish, re.IGNORECASE)
    return f"{head},\n{finish[opens_with.end() :]}" if opens_with else f"{head}\n{finish}"


TEXT: Final = pl.String()
INT: Final = pl.Int64()
FLOAT: Final = pl.Float64()
BOOL: Final = pl.Boolean()
"""The types of the statistics' columns: integers (counts, players, stakes) are Int64, rates and means Float64."""

COMPARISON_PART: Final = "comparison"
GAMES_PART: Final = "games"
EVERY_PART: Final = "every"
SPECIFIC_PART: Final = "specific"
PLAYERS_PART: Final = "players"
PARTS: Final = (COMPARISON_PART, GAMES_PART, EVERY_PART, SPECIFIC_PART, PLAYERS_PART)
"""The parts of the report's page, in page order: the variants compared, the games won per policy, the
statistics of every variant, those only some variants play, and the players and bots."""

THRESHOLD_BOT: Final = "threshold"
"""The bot whose parameters the ``drivers`` name (``pipeline.policies.POLICIES``); the random bot has none."""


@dataclass(frozen=True)
class Parameter:
    """A named parameter of a statistic, passed to its SQL as ``$name``."""

    name: str
    type: type[float]
    default: float
    help: str
    minimum: float | None = None
    maximum: float | None = None

    def expected(self) -> str:
        """What a valid value looks like, for error messages and listings."""
        bounds = bounds_text(self.minimum, self.maximum)
        return "a number" if bounds is None else f"a number {bounds}"

    def parse(self, text: str) -> float:
        """The value of ``text``, or ``ValueError`` saying what was expected."""
        try:
            value = self.type(text.strip())
        except ValueError:
            raise ValueError(self.expected()) from None
        if not math.isfinite(value):
            raise ValueError(self.expected())
        if (self.minimum is not None and value < self.minimum) or (self.maximum is not None and value > self.maximum):
            raise ValueError(self.expected())
        return value


@dataclass(frozen=True, eq=False)
class Statistic:
    """One statistic: its SQL file ``sql/NAME.sql`` and everything said about it (the module's docstring)."""

    name: str
    description: str  # one line, as `truc stats` lists it
    title: str  # the heading of its section of the report
    definition: str  # what it measures, for a reader of the report
    part: str  # the part of the report's page it belongs to (PARTS)
    keys: tuple[str, ...]  # the grain, in sort order
    schema: Mapping[str, pl.DataType]  # every output column, in order, with its type
    chart: str | None = None  # the function of pipeline.report.charts that draws it
    summary: str | None = None  # the function of pipeline.report.summary that writes its findings
    parameters: tuple[Parameter, ...] = ()
    variants: tuple[str, ...] = ()  # the variants it counts, when not every one
    mirrored: tuple[str, ...] = ()  # the results a mirror row (column ``mirror`` true) leaves null
    brief: tuple[str, ...] = ()  # the columns a table too wide for the terminal shows (``stats.fit_width``)
    null_means: Mapping[str, str] = field(default_factory=dict)  # a null that is a row of its own, in words
    headers: Mapping[str, str] = field(default_factory=dict)  # a column's header where it differs from the others'
    drivers: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # bot -> the parameters deciding it

    @property
    def columns(self) -> tuple[str, ...]:
        """Every output column, in order."""
        return tuple(self.schema)

    @property
    def sql_path(self) -> Path:
        return SQL_DIR / f"{self.name}.sql"

    def sql(self) -> str:
        """The statistic's query over the rows: its tally, when it has one, composed with its finish."""
        text = read_sql(self.name)
        split = split_tally(text)
        return text if split is None else compose(f"(\n{split[0]}\n)", split[1])

    def tally_and_finish(self) -> tuple[str, str] | None:
        """The two halves of its SQL file (``split_tally``), or None when it is one query."""
        return split_tally(read_sql(self.name))

    def defaults(self) -> dict[str, float]:
        return {p.name: p.default for p in self.parameters}


MIRROR = "mirror"
"""The column that marks a row whose policy played itself (the same bot on several sides of the same games or
hands): its results hold by construction, so the statistic leaves them null and ``render``'s table reads
"mirror" in those cells."""

_SETTING: Final = {"variant": TEXT, "players": INT}
_WILSON: Final = {"ci_low": FLOAT, "ci_high": FLOAT}
_BLUFF_THRESHOLD: Final = Parameter(
    "threshold", float, 0.33, "strength_pct below which a raise counts as a bluff", minimum=0.0, maximum=1.0
)

# The threshold bot's parameters by the choices they decide (pipeline/policies/threshold.py and its family
# mixins): raising (the ladder's raises, the trut, the fortial's trut), answering a raise, and card play.
_RAISING: Final = ("raise_at", "bluff", "ladder_step", "reste_at", "trut_at", "trut_bluff", "fortial_at")
_ANSWERING: Final = ("call_at", "ladder_step", "see_at", "see_announced", "office_see_at")
_CARD_PLAY: Final = ("lead", "follow")
_ENVIT: Final = ("envit_at", "envit_falta", "envit_raise", "envit_call", "envit_bluff")
_TRUT_SPECIALS: Final = (
    "fortial_at", "office_see_at", "sing_below", "agree_below", "ask_two_below", "ask_three_below",
    "chanter_below", "tenir_at",
)  # fmt: skip


def _union(*groups: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(name for group in groups for name in group))


STATISTICS: dict[str, Statistic] = {
    s.name: s
    for s in (
        Statistic(
            "variant_comparison",
            "Headline figures side by side: first-trick value, bluffs, folds, the eldest's edge, ties, "
            "game length.",
            title="The variants compared",
            definition=(
                "Every variant and player count side by side, each figure defined as in its own section, pooled "
                "over stakes and tricks: the chance that the side taking trick 1 outright wins the hand, the share "
                "of raises that were bluffs and of bluffs folded to, the fold rate facing a raise, the eldest's "
                "share of decided hands (an even share is 1/2, or 1/3 with 3 players each alone), the share of "
                "tied tricks, and the game length. Points are never compared across variants: each counts in its "
                "own unit."
            ),
            part=COMPARISON_PART,
            keys=("variant", "players"),
            schema={
                **_SETTING, "sides": INT, "unit": TEXT, "policies": INT, "games": INT, "hands": INT,
                "mean_hands_per_game": FLOAT,
                "first_trick_hands": INT, "first_trick_win_rate": FLOAT, "first_trick_ci_low": FLOAT,
                "first_trick_ci_high": FLOAT, "first_trick_value": FLOAT,
                "raises": INT, "bluffs": INT, "bluff_rate": FLOAT, "bluff_ci_low": FLOAT, "bluff_ci_high": FLOAT,
                "bluffs_folded": INT, "bluff_success_rate": FLOAT, "bluff_success_ci_low": FLOAT,
                "bluff_success_ci_high": FLOAT,
                "facing": INT, "folds": INT, "fold_rate": FLOAT, "fold_ci_low": FLOAT, "fold_ci_high": FLOAT,
                "decided_hands": INT, "eldest_wins": INT, "mano_win_rate": FLOAT, "mano_ci_low": FLOAT,
                "mano_ci_high": FLOAT, "mano_edge": FLOAT,
                "tricks": INT, "tied_tricks": INT, "tie_rate": FLOAT, "tie_ci_low": FLOAT, "tie_ci_high": FLOAT,
            },
            chart="variant_comparison",
            summary="variant_comparison",
            brief=(
                "variant", "players", "games", "hands", "mean_hands_per_game", "first_trick_value", "bluff_rate",
                "bluff_success_rate", "fold_rate", "mano_edge", "tie_rate",
            ),
            parameters=(_BLUFF_THRESHOLD,),
            drivers={THRESHOLD_BOT: _union(_RAISING, _ANSWERING, _CARD_PLAY)},
        ),
        Statistic(
            "game_results",
            "How each policy fares over whole games: games won with its interval, the mean final margin, "
            "French matches; a policy that played itself is marked mirror.",
            title="Games won, per policy",
            definition=(
                "How each policy fared over whole games, which is what ranks bots (a bot may win half of its hands "
                "and most of its games): a side's policy is its seats' bot, or each of a mixed team's bots joined "
                "by '+'; games won with their 95% interval, and the mean final margin (the side's score minus the "
                "other sides' mean), in the game's unit. A policy on more than one side of the same games plays "
                "itself: those games read 'mirror', with no win rate, which would hold by construction."
            ),
            part=GAMES_PART,
            keys=("variant", "players", "policy", MIRROR),
            schema={
                **_SETTING, "policy": TEXT, MIRROR: BOOL, "games": INT, "games_won": INT, "win_rate": FLOAT,
                **_WILSON, "mean_margin": FLOAT, "margin_ci_low": FLOAT, "margin_ci_high": FLOAT, "unit": TEXT,
                "matches": INT, "matches_won": INT,
            },
            summary="game_results",
            mirrored=("win_rate", *_WILSON, "mean_margin", "margin_ci_low", "margin_ci_high"),
            brief=("variant", "players", "policy", MIRROR, "games", "win_rate", *_WILSON, "mean_margin", "unit"),
            headers={"games": "Games (once per side held)", "unit": "Score in"},
        ),
        Statistic(
            "first_trick_value",
            "How much winning trick 1 is worth: win rate and mean points of the team that won it vs lost it.",
            title="The value of the first trick",
            definition=(
                "Among hands whose first trick was won outright (not tied), the share won by the side (a team, or "
                "a player alone in 3-player Trut) that took that trick, and by the side or sides that lost it, with "
                "the mean points each scored in the hand."
            ),
            part=EVERY_PART,
            keys=("variant", "players"),
            schema={
                **_SETTING, "hands": INT,
                "p_win_won_first": FLOAT, "ci_low_won_first": FLOAT, "ci_high_won_first": FLOAT,
                "p_win_lost_first": FLOAT, "ci_low_lost_first": FLOAT, "ci_high_lost_first": FLOAT, "value": FLOAT,
                "mean_points_won_first": FLOAT, "mean_points_lost_first": FLOAT, "points_value": FLOAT,
            },
            chart="first_trick_value",
            summary="first_trick_value",
            brief=("variant", "players", "hands", "p_win_won_first", "p_win_lost_first", "value", "points_value"),
        ),
        Statistic(
            "mano_advantage",
            "How often the eldest's team (the mà) wins the hand, and its mean points edge.",
            title="The eldest hand's advantage",
            definition=(
                "The share of decided hands won by the side of the eldest hand (the mà: the seat after the dealer, "
                "who leads the first trick); an even share, 50% or 1/3 with three players alone, would mean no "
                "advantage."
            ),
            part=EVERY_PART,
            keys=("variant", "players"),
            schema={
                **_SETTING, "hands": INT, "eldest_wins": INT, "win_rate": FLOAT, **_WILSON,
                "mean_points_eldest": FLOAT, "mean_points_other": FLOAT, "points_diff": FLOAT,
            },
            chart="mano_advantage",
            summary="mano_advantage",
        ),
        Statistic(
            "strength_curve",
            "Win rate and mean net points of a seat's team by the seat's hand-strength decile.",
            title="Hand strength and winning",
            definition=(
                "The share of decided hands a seat's side (its team, or itself alone) won, by the seat's "
                "hand-strength decile (the strength percentile of its dealt cards, cut into tenths; 1 is the "
                "weakest tenth)."
            ),
            part=EVERY_PART,
            keys=("variant", "players", "policy", "decile"),
            schema={
                **_SETTING, "policy": TEXT, "decile": INT, "n": INT, "wins": INT, "p_win": FLOAT, **_WILSON,
                "mean_net_points": FLOAT,
            },
            chart="strength_curve",
            summary="strength_curve",
        ),
        Statistic(
            "stake_distribution",
            "Share of hands ending at each stake, and mean points per hand.",
            title="Stakes reached",
            definition=(
                "The share of hands that ended at each stake (1 the base stake; 2 truc and 3 retruc in catalan and "
                "valencian, any number in french; in the trut family 1 a petit, 3 a long once a trut is seen, 6 two "
                "longs in 3 players). After a refused raise the hand ends at the stake before it, so stake 1 holds "
                "the hands whose first raise was refused too."
            ),
            part=EVERY_PART,
            keys=("variant", "players", "stake"),
            schema={
                **_SETTING, "stake": INT, "hands": INT, "share": FLOAT, **_WILSON, "mean_points": FLOAT,
                "mean_points_per_hand": FLOAT,
            },
            chart="stake_distribution",
            summary="stake_distribution",
            drivers={THRESHOLD_BOT: _union(_RAISING, _ANSWERING)},
        ),
        Statistic(
            "raise_rates",
            "How often a seat raises when it may, on its own move or in answer to a raise.",
            title="Raise rates",
            definition=(
                "Of the moments a seat could raise, the share in which it did, by decision (its own move, or its "
                "answer to a raise), the stake in force at that moment and the trick in progress."
            ),
            part=EVERY_PART,
            keys=("variant", "players", "policy", "decision", "stake", "trick_no"),
            schema={
                **_SETTING, "policy": TEXT, "decision": TEXT, "stake": INT, "trick_no": INT, "chances": INT,
                "count": INT, "rate": FLOAT, **_WILSON,
            },
            chart="raise_rates",
            summary="raise_rates",
            null_means={"trick_no": "before play"},
            drivers={THRESHOLD_BOT: _RAISING},
        ),
        Statistic(
            "fold_rates",
            "Fold rate when facing a raise, by stake and by the answering seat's strength decile.",
            title="Fold rates",
            definition=(
                "Of the raises a side faced, the share it refused, by the stake proposed and the hand-strength "
                "decile of the seat that answered (All: every answer together)."
            ),
            part=EVERY_PART,
            keys=("variant", "players", "policy", "stake", "decile"),
            schema={
                **_SETTING, "policy": TEXT, "stake": INT, "decile": INT, "facing": INT, "folds": INT,
                "fold_rate": FLOAT, **_WILSON,
            },
            chart="fold_rates",
            summary="fold_rates",
            null_means={"decile": "all"},
            drivers={THRESHOLD_BOT: _ANSWERING},
        ),
        Statistic(
            "bluff_success",
            "Raises made with a hand below the strength threshold: how often, how often folded to, "
            "how they fare when called.",
            title="Bluffs",
            definition=(
                "Of the raises to each stake, the share that were bluffs (made with a hand below the statistic's "
                "strength threshold, by default the weakest third); of the bluffs, the share the other side "
                "folded to; of the called bluffs, the share that still won the hand."
            ),
            part=EVERY_PART,
            keys=("variant", "players", "policy", "stake"),
            schema={
                **_SETTING, "policy": TEXT, "stake": INT, "raises": INT, "bluffs": INT,
                "bluff_rate": FLOAT, "bluff_ci_low": FLOAT, "bluff_ci_high": FLOAT,
                "folded": INT, "success_rate": FLOAT, "success_ci_low": FLOAT, "success_ci_high": FLOAT,
                "called": INT, "called_won": INT, "called_won_rate": FLOAT, "called_won_ci_low": FLOAT,
                "called_won_ci_high": FLOAT, "net_points_per_bluff": FLOAT,
            },
            chart="bluff_success",
            summary="bluff_success",
            brief=(
                "variant", "players", "policy", "stake", "raises", "bluffs", "bluff_rate", "success_rate",
                "called_won_rate", "net_points_per_bluff",
            ),
            parameters=(_BLUFF_THRESHOLD,),
            drivers={THRESHOLD_BOT: _union(_RAISING, _ANSWERING)},
        ),
        Statistic(
            "tie_frequency",
            "How often each trick is tied, and how often a tie rule decides the hand.",
            title="Ties",
            definition=(
                "The share of played tricks that were tied, trick by trick, and the share of hands decided by a "
                "tie rule."
            ),
            part=EVERY_PART,
            keys=("variant", "players", "measure", "trick_no"),
            schema={**_SETTING, "measure": TEXT, "trick_no": INT, "n": INT, "count": INT, "rate": FLOAT, **_WILSON},
            chart="tie_frequency",
            summary="tie_frequency",
            drivers={THRESHOLD_BOT: _CARD_PLAY},
        ),
        Statistic(
            "envit",
            "Valencian envit: call rate, answers by rung, caller's win rate by envit value, envit bluffs, "
            "stones won by envit vs tricks.",
            title="The envit (valencian)",
            definition=(
                "Valencian only. How often an envit is called; how each rung (envit, torne, falta, envit-falta) is "
                "answered; how often the opening caller's side wins the envit, by the caller's envit value; calls "
                "made with an envit value below 20 (bluffs) and how they fare; the stones the envit brings against "
                "the rest of the hand (in the table)."
            ),
            part=SPECIFIC_PART,
            keys=("variant", "players", "policy", "measure", "level"),
            schema={
                **_SETTING, "policy": TEXT, "measure": TEXT, "level": TEXT, "n": INT, "count": INT, "rate": FLOAT,
                **_WILSON, "mean": FLOAT,
            },
            chart="envit",
            summary="envit",
            parameters=(
                Parameter(
                    "bluff_below",
                    float,
                    20.0,
                    "envit value below which an envit call counts as a bluff",
                    minimum=0.0,
                    maximum=40.0,
                ),
            ),
            variants=("valencian",),
            drivers={THRESHOLD_BOT: _ENVIT},
        ),
        Statistic(
            "trut",
            "Trut family: trut rate, folds by answering position, truts out of turn, fortial and trut "
            "d'office outcomes, hold and sing rates, chanson card counts.",
            title="The trut (trut family)",
            definition=(
                "The trut family only. How often a trut is made; how often the answerers fold, in the order they "
                "answer from the eldest; when truts are made (in turn, out of turn before or after the truter's own "
                "card, trick by trick, or in a call before play); the fortial and the trut d'office (did the "
                "deciding side trut or hold, and win); holding, singing and the cards asked in la chanson."
            ),
            part=SPECIFIC_PART,
            keys=("variant", "players", "policy", "measure", "level", "trick_no"),
            schema={
                **_SETTING, "policy": TEXT, "measure": TEXT, "level": TEXT, "trick_no": INT, "n": INT,
                "count": INT, "rate": FLOAT, **_WILSON,
            },
            chart="trut",
            summary="trut",
            variants=("trut", "trut-gatinaise", "trut-gatine"),
            drivers={THRESHOLD_BOT: _union(("trut_at", "trut_bluff", "see_at", "see_announced"), _TRUT_SPECIALS)},
        ),
        Statistic(
            "french",
            "French Truc: redeal rate and refusals, raise sizes, the reste's frequency and outcome.",
            title="Redeals and the reste (french)",
            definition=(
                "French Truc only. How often hands are redealt and requests for new cards refused; the size of "
                "raises over the stake they raise; raises to the reste, how they are answered, and who wins when "
                "played on."
            ),
            part=SPECIFIC_PART,
            keys=("variant", "players", "policy", "measure", "size"),
            schema={
                **_SETTING, "policy": TEXT, "measure": TEXT, "size": INT, "n": INT, "count": INT, "rate": FLOAT,
                **_WILSON,
            },
            chart="french",
            summary="french",
            variants=("french",),
            drivers={THRESHOLD_BOT: ("redeal_below", "redeal_accept_below", "reste_at", "raise_at", "call_at")},
        ),
        Statistic(
            "void_hands",
            "How often a hand is void (nobody scores), per variant and player count.",
            title="Void hands",
            definition=(
                "The share of void hands: all tricks tied in french and the trut family, so the tricks decide "
                "nothing and nobody scores (but in 3-player Trut's void duel, where the truter keeps the petit of a "
                "fold)."
            ),
            part=SPECIFIC_PART,
            keys=("variant", "players"),
            schema={**_SETTING, "hands": INT, "void_hands": INT, "void_rate": FLOAT, **_WILSON},
            chart="void_hands",
            summary="void_hands",
            drivers={THRESHOLD_BOT: _CARD_PLAY},
        ),
        Statistic(
            "player_results",
            "How each player (an imported game's seat name) or bot (a simulated seat's policy) fares: hands "
            "won, net points, raises, folds when facing a raise.",
            title="Players and bots",
            definition=(
                "Where a setting has two or more players or bots to compare: how each fares, per seat-hand it "
                "played (the named players of imported games; a simulation's bots by their parameters, those that "
                "all its bots of one policy share left out). Wins and the win rate count decided hands; net points "
                "are the seat's side's minus the others' mean; raises per hand, and the fold rate facing a raise. "
                "Partners share their team's wins and points, so in team games they tell apart only by their own "
                "raises and folds."
            ),
            part=PLAYERS_PART,
            keys=("variant", "players", "player", MIRROR),
            schema={
                **_SETTING, "player": TEXT, MIRROR: BOOL, "hands": INT, "random_bot_hands": INT, "decided": INT,
                "wins": INT, "win_rate": FLOAT, **_WILSON, "mean_net_points": FLOAT, "raises": INT,
                "raises_per_hand": FLOAT, "facing": INT, "folds": INT, "fold_rate": FLOAT,
            },
            chart="player_results",
            summary="player_results",
            mirrored=("win_rate", *_WILSON, "mean_net_points"),
            brief=(
                "variant", "players", "player", MIRROR, "hands", "win_rate", *_WILSON, "mean_net_points",
                "raises_per_hand", "fold_rate",
            ),
            drivers={THRESHOLD_BOT: _union(_RAISING, _ANSWERING)},
        ),
    )
}  # fmt: skip
"""Every statistic, in the report's page order."""

MIRRORED_COLUMNS: Final = frozenset(column for statistic in STATISTICS.values() for column in statistic.mirrored)
"""Every column that some statistic leaves null on a mirror row."""


def list_statistics() -> list[Statistic]:
    """Every statistic, by name."""
    return [STATISTICS[name] for name in sorted(STATISTICS)]


def get_statistic(name: str) -> Statistic:
    """The statistic called ``name``, or ``StatsError`` listing the valid names."""
    try:
        return STATISTICS[name]
    except KeyError:
        raise StatsError(
            f"unknown statistic {name!r}{did_you_mean(name, STATISTICS)}: choose one of {', '.join(sorted(STATISTICS))}"
        ) from None


def in_part(part: str) -> tuple[str, ...]:
    """The statistics of one part of the report's page (``PARTS``), in page order."""
    return tuple(s.name for s in STATISTICS.values() if s.part == part)
