"""Short written findings, computed from the statistics' frames: pure functions, no I/O.

Each function takes one statistic's frame (and optionally ``games.unit`` by variant) and returns a list
of plain-English sentences, one or more per variant and player count, with the numbers and sample sizes
they rest on, e.g. "Winning the first trick raises the chance to win the hand from 38% to 81% (4-player
catalan, 9,120 hands)." Points are named in each variant's unit (points, stones, petits) and stakes
by each variant's names; with 3 players (each alone) an even chance is 1/3. Empty frames, groups with
``n = 0`` and null rates give no sentence rather than a wrong one.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Protocol

import polars as pl

from pipeline.report.frames import (
    ALL_STATISTICS,
    CONTRACT,
    GAMES,
    MIRROR,
    NEVER_VOID,
    NO_CHOICE_SPECIALS,
    NO_POLICY,
    PLAYERS,
    POLICY,
    POLICY_NAME,
    conform,
    count_label,
    even_share,
    fmt_int,
    fmt_pct,
    fmt_points,
    interval_label,
    is_missing,
    setting_phrase,
    stake_label,
    unit_word,
    units_of,
    with_policy_names,
)
from pipeline.statistics import STATISTICS

Row = dict[str, Any]


class Finding(str):
    """One of several sentences about one setting (one per stake), with the setting and the size of the
    sample it rests on (chances, raises faced, raises made), so that a page can show the best supported of
    each setting and fold the others (``page.shown_and_folded``). It reads as any other string."""

    sample: int
    setting: tuple[str, int]

    def __new__(cls, text: str, sample: int, setting: tuple[str, int]) -> Finding:
        found = super().__new__(cls, text)
        found.sample = sample
        found.setting = setting
        return found


class Detail(str):
    """A sentence the page folds: it restates, setting by setting, a table shown beside it."""


Units = Mapping[str, str] | None
"""``games.unit`` by variant (``frames.units_of``); None: each variant's usual unit."""


class Summarizer(Protocol):
    """A statistic's findings: its frame in, sentences out; points in each variant's own unit."""

    def __call__(self, frame: pl.DataFrame, units: Units = None) -> list[str]: ...


def _join(items: list[str]) -> str:
    """``["a", "b", "c"]`` -> ``"a, b and c"``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _groups(frame: pl.DataFrame, *keys: str) -> Iterator[tuple[tuple[Any, ...], list[Row]]]:
    """Rows grouped by ``variant``, ``players`` and ``keys``, groups and rows in sorted order."""
    by = ["variant", "players", *keys]
    rows = frame.sort(by, nulls_last=True).to_dicts()
    current: tuple[Any, ...] | None = None
    bucket: list[Row] = []
    for row in rows:
        key = tuple(row[k] for k in by)
        if key != current and bucket:
            assert current is not None
            yield current, bucket
            bucket = []
        current = key
        bucket.append(row)
    if bucket and current is not None:
        yield current, bucket


def _has_rate(row: Row, rate: str, total: str) -> bool:
    return not is_missing(row.get(rate)) and not is_missing(row.get(total)) and row[total] > 0


def first_trick_value(frame: pl.DataFrame, units: Units = None) -> list[str]:
    """How much winning the first trick changes the chance to win the hand, and the points scored."""
    df = conform("first_trick_value", frame)
    out: list[str] = []
    for (variant, players), rows in _groups(df):
        for row in rows:
            won, lost = row["p_win_won_first"], row["p_win_lost_first"]
            if is_missing(won) or is_missing(lost) or not row["hands"]:
                continue
            where = f"({setting_phrase(variant, players)}, {fmt_int(row['hands'])} hands)"
            if fmt_pct(won) == fmt_pct(lost):
                text = f"Winning the first trick leaves the chance to win the hand at {fmt_pct(won)} {where}."
            else:
                verb = "raises" if won > lost else "lowers"
                # with three sides the two players who lost trick 1 share the rate that they won
                losers = f" ({fmt_pct(lost)} for the two players who lost it together)" if players == 3 else ""
                text = (
                    f"Winning the first trick {verb} the chance to win the hand "
                    f"from {fmt_pct(lost)} to {fmt_pct(won)} {where}{losers}."
                )
            pts_won, pts_lost = row["mean_points_won_first"], row["mean_points_lost_first"]
            if not is_missing(pts_won) and not is_missing(pts_lost):
                side = "A player" if _alone(players) else "A team"
                text += (
                    f" {side} scored {fmt_points(pts_won)} {unit_word(variant, units)} a hand on average after "
                    f"winning it and "
                    f"{fmt_points(pts_lost)} after losing it ({fmt_points(pts_won - pts_lost, signed=True)})."
                )
            out.append(text)
    return out


def mano_advantage(frame: pl.DataFrame, units: Units = None) -> list[str]:
    """How often the eldest hand's side wins, and whether the interval excludes an even chance (1/2, or
    1/3 with 3 players each alone)."""
    df = conform("mano_advantage", frame)
    out: list[str] = []
    for (variant, players), rows in _groups(df):
        for row in rows:
            if not _has_rate(row, "win_rate", "hands"):
                continue
            low, high = row["ci_low"], row["ci_high"]
            even = even_share(players)
            if not is_missing(low) and low > even:
                verdict = "an advantage"
            elif not is_missing(high) and high < even:
                verdict = "a disadvantage"
            else:
                verdict = "no clear advantage either way"
            if players == 3:
                verdict += " against an even share of 1/3"
            who = "the eldest" if _alone(players) else "the eldest hand's team"
            text = (
                f"In {setting_phrase(variant, players)}, {who} won {fmt_pct(row['win_rate'])} "
                f"of hands ({count_label(row['eldest_wins'], row['hands'])}; 95% interval "
                f"{interval_label(low, high)}): {verdict}."
            )
            diff = row["points_diff"]
            if is_missing(diff):
                eldest, other = row["mean_points_eldest"], row["mean_points_other"]
                diff = None if is_missing(eldest) or is_missing(other) else eldest - other
            if not is_missing(diff):
                other = {2: "the other player", 3: "each other player on average"}.get(players, "the other team")
                unit, amount = unit_word(variant, units), fmt_points(abs(diff))
                if amount == fmt_points(0):
                    text += f" It scored as many {unit} per hand as {other}."
                else:
                    more = "more" if diff > 0 else "fewer"
                    text += f" It scored {amount} {more} {unit} per hand than {other}."
            out.append(text)
    return out


def _alone(players: int) -> bool:
    """Each plays alone (2 players, or 3 in Trut): the sentences speak of the player, not of his team."""
    return players in (2, 3)


def strength_curve(frame: pl.DataFrame, units: Units = None) -> list[str]:
    """The chance to win the hand with the weakest and the strongest hands."""
    df = conform("strength_curve", frame)
    out: list[str] = []
    for (variant, players), rows in _groups(df):
        known = [r for r in rows if r["decile"] is not None and _has_rate(r, "p_win", "n")]
        if len(known) < 2:
            continue
        weak, strong = known[0], known[-1]
        who = "a player" if _alone(players) else "a player's team"
        out.append(
            f"In {setting_phrase(variant, players)}, {who} won "
            f"{fmt_pct(weak['p_win'])} of hands "
            f"with the weakest hands (decile {weak['decile']}, {count_label(weak['wins'], weak['n'])}) "
            f"and {fmt_pct(strong['p_win'])} with the strongest (decile {strong['decile']}, "
            f"{count_label(strong['wins'], strong['n'])})."
        )
    return out


def stake_distribution(frame: pl.DataFrame, units: Units = None) -> list[str]:
    """The share of hands that ended at each stake."""
    df = conform("stake_distribution", frame)
    out: list[str] = []
    for (variant, players), rows in _groups(df):
        rows = sorted((r for r in rows if r["stake"] is not None and r["hands"]), key=lambda r: r["stake"])
        total = sum(r["hands"] for r in rows)
        if not total:
            continue
        parts = []
        for i, r in enumerate(rows):
            share = fmt_pct(r["hands"] / total if is_missing(r["share"]) else r["share"])
            at = f"of {fmt_int(total)} hands ended at stake" if i == 0 else "at"
            parts.append(f"{share} {at} {stake_label(r['stake'], variant)}")
        text = f"In {setting_phrase(variant, players)}, {_join(parts)}."
        per_hand = next((r["mean_points_per_hand"] for r in rows if not is_missing(r["mean_points_per_hand"])), None)
        if per_hand is not None:
            text += f" A hand was worth {fmt_points(per_hand)} {unit_word(variant, units)} on average."
        out.append(text)
    return out


_DECISION_PHRASES = {
    "raise": "raised on their own move",
    "accept_and_raise": "answered a raise by raising back",
}
"""What players did, by ``decision``; a decision not listed is named as it is."""


def raise_rates(frame: pl.DataFrame, units: Units = None) -> list[str]:
    """How often players took their chances to raise, by decision and stake in force, trick by trick."""
    df = conform("raise_rates", frame)
    out: list[str] = []
    order = {"raise": 0, "accept_and_raise": 1}
    groups = sorted(
        _groups(df, "decision", "stake"),
        key=lambda g: (g[0][0] or "", g[0][1] or 0, order.get(g[0][2], 2), g[0][3] or 0),
    )
    for (variant, players, decision, stake), rows in groups:
        known = [r for r in rows if r["trick_no"] is not None and _has_rate(r, "rate", "chances")]
        if not known:
            continue
        did = _DECISION_PHRASES.get(decision or "", f"took the decision '{decision}'")
        parts = [
            f"{fmt_pct(r['rate'])}{' of their chances' if i == 0 else ''} in trick {r['trick_no']} "
            f"({count_label(r['count'], r['chances'])})"
            for i, r in enumerate(known)
        ]
        out.append(
            Finding(
                f"In {setting_phrase(variant, players)}, with the stake at {stake_label(stake, variant)}, players "
                f"{did} at {_join(parts)}.",
                sum(r["chances"] for r in known),
                (variant, players),
            )
        )
    return out


def fold_rates(frame: pl.DataFrame, units: Units = None) -> list[str]:
    """How often a raise was refused, overall and with the weakest and strongest hands."""
    df = conform("fold_rates", frame)
    out: list[str] = []
    for (variant, players, stake), rows in _groups(df, "stake"):
        overall = next((r for r in rows if r["decile"] is None and _has_rate(r, "fold_rate", "facing")), None)
        deciles = [r for r in rows if r["decile"] is not None and _has_rate(r, "fold_rate", "facing")]
        if overall is not None:
            folds, facing, rate = overall["folds"], overall["facing"], overall["fold_rate"]
        else:
            facing = sum(r["facing"] for r in deciles)
            folds = sum(r["folds"] or 0 for r in deciles)
            rate = folds / facing if facing else None
        if rate is None:
            continue
        text = (
            f"Facing a raise to {stake_label(stake, variant)} in {setting_phrase(variant, players)}, players folded "
            f"{fmt_pct(rate)} of the time ({count_label(folds, facing)})"
        )
        if len(deciles) >= 2:
            weak, strong = deciles[0], deciles[-1]
            # the deciles at the ends may have faced no raise: name the lowest and highest that did
            weakest = "the weakest hands" if weak["decile"] == 1 else "the weakest hands that faced one"
            strongest = "the strongest" if strong["decile"] == 10 else "the strongest that faced one"
            text += (
                f": {fmt_pct(weak['fold_rate'])} with {weakest} (decile {weak['decile']}, "
                f"{count_label(weak['folds'], weak['facing'])}) and {fmt_pct(strong['fold_rate'])} with "
                f"{strongest} (decile {strong['decile']}, {count_label(strong['folds'], strong['facing'])})"
            )
        out.append(Finding(text + ".", facing, (variant, players)))
    return out


def bluff_success(frame: pl.DataFrame, units: Units = None) -> list[str]:
    """How often raises were bluffs, and what the bluffs earned."""
    df = conform("bluff_success", frame)
    out: list[str] = []
    for (variant, players, stake), rows in _groups(df, "stake"):
        for row in rows:
            if not _has_rate(row, "bluff_rate", "raises"):
                continue
            where = f"In {setting_phrase(variant, players)}"
            raise_to = f"raises to {stake_label(stake, variant)}"
            if not row["bluffs"]:
                none = f"{where}, none of the {fmt_int(row['raises'])} {raise_to} was a bluff."
                out.append(Finding(none, row["raises"], (variant, players)))
                continue
            text = (
                f"{where}, {fmt_pct(row['bluff_rate'])} of {raise_to} were bluffs "
                f"({count_label(row['bluffs'], row['raises'])})"
            )
            if not is_missing(row["success_rate"]):
                text += (
                    f"; {fmt_pct(row['success_rate'])} of the bluffs made "
                    f"{'both opponents' if players == 3 else 'the other side'} fold "
                    f"({count_label(row['folded'], row['bluffs'])})"
                )
            if _has_rate(row, "called_won_rate", "called"):
                text += (
                    f" and {fmt_pct(row['called_won_rate'])} of the called ones still won "
                    f"({count_label(row['called_won'], row['called'])})"
                )
            text += "."
            if not is_missing(row["net_points_per_bluff"]):
                net = fmt_points(row["net_points_per_bluff"], signed=True)
                text += f" A bluff netted {net} {unit_word(variant, units)} on average."
            out.append(Finding(text, row["raises"], (variant, players)))
    return out


def tie_frequency(frame: pl.DataFrame, units: Units = None) -> list[str]:
    """How often tricks were tied and how often a tie rule decided the hand."""
    df = conform("tie_frequency", frame)
    out: list[str] = []
    for (variant, players), rows in _groups(df):
        tricks = [
            r for r in rows if r["measure"] == "trick_tied" and r["trick_no"] is not None and _has_rate(r, "rate", "n")
        ]
        rule = next((r for r in rows if r["measure"] == "hand_by_tie_rule" and _has_rate(r, "rate", "n")), None)
        parts = []
        for i, r in enumerate(tricks):
            lead = f"trick {r['trick_no']} was tied in " if i == 0 else f"trick {r['trick_no']} in "
            of = "of the hands that played it" if i == 0 else "of those that played it"
            parts.append(f"{lead}{fmt_pct(r['rate'])} {of} ({count_label(r['count'], r['n'])})")
        clauses = [_join(parts)] if parts else []
        if rule is not None:
            clauses.append(
                f"a tie rule decided {fmt_pct(rule['rate'])} of hands ({count_label(rule['count'], rule['n'])})"
            )
        if clauses:
            out.append(f"In {setting_phrase(variant, players)}, {'; '.join(clauses)}.")
    return out


def _rate_phrase(row: Row | None, rate: str = "rate", count: str = "count", total: str = "n") -> str | None:
    """``"31% (412/1,330)"``, or None when the row has no sample."""
    if row is None or not _has_rate(row, rate, total):
        return None
    return f"{fmt_pct(row[rate])} ({count_label(row[count], row[total])})"


def _pp(value: float) -> str:
    """A difference of rates in percentage points: ``+8.1 percentage points``."""
    return f"{value * 100:+.1f} percentage points"


_COMPARED = (
    ("mano_edge", "mano_win_rate", "decided_hands", "the eldest's edge over an even share"),
    ("tie_rate", "tie_rate", "tricks", "the share of tied tricks"),
    ("fold_rate", "fold_rate", "facing", "the fold rate facing a raise"),
    ("bluff_rate", "bluff_rate", "raises", "the share of raises that were bluffs"),
    ("first_trick_value", "first_trick_win_rate", "first_trick_hands", "the value of winning trick 1"),
)
"""What ``variant_comparison`` ranks across settings: column, the rate it needs, its sample, its name."""


def _ranked(row: Row, column: str, total: str) -> str:
    """``"2-player valencian (+8.1 percentage points, n = 1,380)"``."""
    value = _pp(row[column]) if column in ("mano_edge", "first_trick_value") else fmt_pct(row[column])
    return f"{setting_phrase(row['variant'], row['players'])} ({value}, n = {fmt_int(row[total])})"


def variant_comparison(frame: pl.DataFrame, units: Units = None) -> list[str]:
    """Over several settings, where each figure is highest and lowest; then one sentence per variant and
    player count with its headline rates, a ``Detail`` of the comparison table (with one setting alone,
    the page shows it all the same: there is nothing else to say)."""
    df = conform("variant_comparison", frame)
    out: list[str] = []
    for (variant, players), rows in _groups(df):
        row = rows[0]
        parts = []
        first = _rate_phrase(row, "first_trick_win_rate", "first_trick_hands", "first_trick_hands")
        if first is not None:
            k = round(row["first_trick_win_rate"] * row["first_trick_hands"])
            first = f"{fmt_pct(row['first_trick_win_rate'])} ({count_label(k, row['first_trick_hands'])})"
            parts.append(f"the side that took trick 1 outright won {first} of those hands")
        bluff = _rate_phrase(row, "bluff_rate", "bluffs", "raises")
        if bluff is not None:
            text = f"{bluff} of raises were bluffs"
            success = _rate_phrase(row, "bluff_success_rate", "bluffs_folded", "bluffs")
            if success is not None:
                text += f", {success} of them folded to"
            parts.append(text)
        folds = _rate_phrase(row, "fold_rate", "folds", "facing")
        if folds is not None:
            parts.append(f"answers to a raise folded {folds}")
        mano = _rate_phrase(row, "mano_win_rate", "eldest_wins", "decided_hands")
        if mano is not None:
            share = "1/3" if players == 3 else "1/2"
            parts.append(f"the eldest won {mano} of decided hands ({_pp(row['mano_edge'])} over an even {share})")
        ties = _rate_phrase(row, "tie_rate", "tied_tricks", "tricks")
        if ties is not None:
            parts.append(f"{ties} of tricks were tied")
        if not parts:
            continue
        length = ""
        if not is_missing(row["mean_hands_per_game"]) and row["games"]:
            length = f", {row['mean_hands_per_game']:.1f} hands a game over {fmt_int(row['games'])} complete games"
        where = f"In {setting_phrase(variant, players)} ({fmt_int(row['hands'])} hands{length})"
        out.append(Detail(f"{where}: {_join(parts)}."))
    rows = df.to_dicts()
    across: list[str] = []
    for column, rate, total, name in _COMPARED:
        known = [r for r in rows if not is_missing(r[column]) and _has_rate(r, rate, total)]
        if len(known) < 2:
            continue
        top = max(known, key=lambda r: r[column])
        bottom = min(known, key=lambda r: r[column])
        if top[column] == bottom[column]:
            continue

        largest, smallest = _ranked(top, column, total), _ranked(bottom, column, total)
        across.append(f"Across variants, {name} is largest in {largest} and smallest in {smallest}.")
    return across + out  # the comparison first: the headline of a report over several variants


def random_bot_caveat(shares: Mapping[tuple[str, int], float]) -> str | None:
    """The sentence that warns, where settings are ranked side by side, that some of them had a random bot at
    the table (``frames.random_bot_shares``: the share of seat-hands it played, by setting); None when none
    had."""
    if not shares:
        return None
    parts = [
        f"{fmt_pct(share)}{' of the seat-hands' if i == 0 else ''} in {setting_phrase(variant, players)}"
        for i, ((variant, players), share) in enumerate(sorted(shares.items()))
    ]
    which = "that setting's figures" if len(parts) == 1 else "those settings' figures"
    return (
        f"Not like for like: a random bot (it picks uniformly among the legal actions) played {_join(parts)}; "
        f"{which} measure its play as well as the game's, so beside the other settings they do not compare "
        "like with like."
    )


def envit(frame: pl.DataFrame, units: Units = None) -> list[str]:
    """The envit: how often it is called, how calls are answered, what the caller's value is worth, bluffs,
    and the stones it brings against the tricks."""
    df = conform("envit", frame)
    out: list[str] = []
    for (variant, players), rows in _groups(df):
        by = {(r["measure"], r["level"]): r for r in rows}
        sentences = []
        call = _rate_phrase(by.get(("call", None)))
        if call is not None:
            sentences.append(f"an envit was called in {call} of hands")
        answers = []
        for rung in ("envit", "torne", "falta", "envit-falta"):
            phrases = [
                f"{word} {fmt_pct(by[(measure, rung)]['rate'])}"
                for measure, word in (("accepted", "accepted"), ("folded", "folded to"), ("raised", "raised"))
                if (measure, rung) in by and _has_rate(by[(measure, rung)], "rate", "n")
            ]
            if phrases:
                article = "an" if rung.startswith("e") else "a"
                calls = fmt_int(by[("accepted", rung)]["n"])
                answers.append(f"{article} {rung} was {_join(phrases)} (of {calls} calls)")
        if answers:
            sentences.append("; ".join(answers))
        bands = [r for r in rows if r["measure"] == "caller_won" and _has_rate(r, "rate", "n")]
        if len(bands) >= 2:
            low, high = bands[0], bands[-1]
            sentences.append(
                f"the opening caller's side won the envit {_rate_phrase(low)} of the time with a value of "
                f"{low['level']} and {_rate_phrase(high)} with {high['level']}"
            )
        bluffs = [r for r in rows if r["measure"] == "bluff" and _has_rate(r, "rate", "n")]
        folded = [r for r in rows if r["measure"] == "bluff_folded" and _has_rate(r, "rate", "n")]
        if bluffs:
            k, n = sum(r["count"] for r in bluffs), sum(r["n"] for r in bluffs)
            text = f"{fmt_pct(k / n)} of calls at every rung were bluffs ({count_label(k, n)})"
            if folded:
                fk, fn = sum(r["count"] for r in folded), sum(r["n"] for r in folded)
                text += f" and {fmt_pct(fk / fn)} of the bluffs were folded to ({count_label(fk, fn)})"
            sentences.append(text)
        if not sentences:
            continue
        text = f"In {setting_phrase(variant, players)}, " + "; ".join(sentences) + "."
        envit_stones, trick_stones = by.get(("stones", "envit")), by.get(("stones", "tricks"))
        if envit_stones and trick_stones and not is_missing(envit_stones["mean"]) and envit_stones["n"]:
            unit = unit_word(variant, units)
            total = (envit_stones["count"] or 0) + (trick_stones["count"] or 0)
            share = f" ({fmt_pct(envit_stones['count'] / total)} of the {unit})" if total else ""
            text += (
                f" The envit brought {fmt_points(envit_stones['mean'])} {unit} a hand and the rest of the hand "
                f"{fmt_points(trick_stones['mean'])}{share}."
            )
        out.append(text)
    return out


_ORDINALS = {"1": "first", "2": "second", "3": "third"}

_SPECIALS = {
    "fortial": "at the fortial",
    "fortial_both": "with both sides au fortial",
    "trut_office": "in a trut d'office",
    "chanson": "in a trut d'office after la chanson",
    "chanter": "in a trut d'office after chanter",
    "tenir": "à tenir",
    "sec": "in a trut d'office redealt sec",
}
"""How the findings name the hands of each ``special``."""


_CHOICES = {
    "fortial": "at the fortial the side au fortial truted in {truted} of hands and won {won}",
    "fortial_both": (
        "with both sides au fortial a trut was made in {truted} of hands, and the first side to trut won {won}"
    ),
    "tenir": "à tenir the side with 2 petits held in {truted} of hands and won {won}",
}
"""Hands that open on a choice (trut or pass, hold or pass): who chose what, and how it went."""

_NO_CHOICE = {
    "trut_office": "in a trut d'office, which the side facing 2 petits must make, that side won {won}",
    "sec": "in a trut d'office redealt sec after a hold, the side that held won {won}",
}
"""Of the hands whose opening the rules fix (``frames.NO_CHOICE_SPECIALS``), those with a deciding side:
only who won them is a finding."""


def _special_order(special: str) -> tuple[int, str]:
    order = list(_SPECIALS)
    return (order.index(special) if special in order else len(order), special)


def trut(frame: pl.DataFrame, units: Units = None) -> list[str]:
    """The trut: how often, how answerers fold by position, truts out of turn, the fortial and the trut
    d'office, holds and sings."""
    df = conform("trut", frame)
    out: list[str] = []
    for (variant, players), rows in _groups(df):
        sentences = []
        made = _rate_phrase(next((r for r in rows if r["measure"] == "trut"), None))
        if made is not None:
            sentences.append(f"a trut was made in {made} of the hands where one is a choice")
        positions = [
            f"the {_ORDINALS.get(r['level'], r['level'])} answerer folded {_rate_phrase(r)}"
            for r in rows
            if r["measure"] == "fold_by_position" and _has_rate(r, "rate", "n")
        ]
        if positions:
            sentences.append(_join(positions))
        timing = [r for r in rows if r["measure"] == "timing" and r["trick_no"] is not None]
        if timing:
            n = sum(r["count"] for r in timing)
            out_of_turn = sum(r["count"] for r in timing if (r["level"] or "").startswith("out_"))
            after = sum(r["count"] for r in timing if r["level"] == "out_after_card")
            if n:
                sentences.append(
                    f"{fmt_pct(out_of_turn / n)} of the truts made during play were out of turn "
                    f"({count_label(out_of_turn, n)}), {fmt_pct(after / n)} after the truter's own card"
                )
        for special in sorted({r["measure"] for r in rows if r["level"] == "decider_won"}, key=_special_order):
            by = {r["level"]: r for r in rows if r["measure"] == special}
            truted, won = _rate_phrase(by.get("truted")), _rate_phrase(by.get("decider_won"))
            if won is None:
                continue
            if special in NO_CHOICE_SPECIALS:
                if special in _NO_CHOICE:
                    sentences.append(_NO_CHOICE[special].format(won=won))
            elif truted is not None:
                generic = _SPECIALS.get(special, f"in the '{special}' hands") + " the deciding side truted or held "
                template = _CHOICES.get(special, generic + "in {truted} of hands and won {won}")
                sentences.append(template.format(truted=truted, won=won))
        for measure, word in (("hold", "held"), ("sing", "sang")):
            phrase = _rate_phrase(next((r for r in rows if r["measure"] == measure), None))
            if phrase is not None:
                sentences.append(f"players {word} in {phrase} of their choices")
        if sentences:
            out.append(f"In {setting_phrase(variant, players)}, " + "; ".join(sentences) + ".")
    return out


def french(frame: pl.DataFrame, units: Units = None) -> list[str]:
    """French Truc: redeals, the sizes of raises, the reste and its fate."""
    df = conform("french", frame)
    out: list[str] = []
    for (variant, players), rows in _groups(df):
        by = {r["measure"]: r for r in rows if r["measure"] != "raise_size"}
        sentences = []
        redeal = _rate_phrase(by.get("redeal"))
        if redeal is not None:
            text = f"{redeal} of hands were redealt"
            refused = _rate_phrase(by.get("redeal_refused"))
            if refused is not None:
                text += f" and {refused} of requests for new cards were refused"
            sentences.append(text)
        sizes = [r for r in rows if r["measure"] == "raise_size" and _has_rate(r, "rate", "n")]
        if sizes:
            listed = [f"+{r['size']} in {fmt_pct(r['rate'])}" for r in sizes]
            sentences.append(f"raises went {_join(listed)} of {fmt_int(sizes[0]['n'])} raises to a number")
        reste = _rate_phrase(by.get("reste"))
        if reste is not None:
            text = f"{reste} of raises were to the reste"
            fates = [
                f"{word} {fmt_pct(by[m]['rate'])}"
                for m, word in (
                    ("reste_accepted", "accepted"),
                    ("reste_folded", "folded to"),
                    ("reste_raised", "raised back"),
                )
                if m in by and _has_rate(by[m], "rate", "n")
            ]
            if fates:
                text += f", {_join(fates)}"
            won = _rate_phrase(by.get("reste_won"))
            if won is not None:
                text += f"; played on, the raiser won {won}"
            sentences.append(text)
        if sentences:
            out.append(f"In {setting_phrase(variant, players)}, " + "; ".join(sentences) + ".")
    return out


def void_hands(frame: pl.DataFrame, units: Units = None) -> list[str]:
    """How often a hand was void: its tricks decided nothing."""
    df = conform("void_hands", frame)
    out: list[str] = []
    for (variant, players), rows in _groups(df):
        row = rows[0]
        if not _has_rate(row, "void_rate", "hands"):
            continue
        where = f"In {setting_phrase(variant, players)}"
        if not row["void_hands"] and variant in NEVER_VOID:
            out.append(f"{where}, no hand can be void: when every trick is tied, the eldest's side wins.")
        elif not row["void_hands"]:
            out.append(f"{where}, no hand was void (0/{fmt_int(row['hands'])}).")
        else:
            out.append(
                f"{where}, {fmt_pct(row['void_rate'])} of hands were void: their tricks decided nothing "
                f"({count_label(row['void_hands'], row['hands'])}; 95% interval "
                f"{interval_label(row['ci_low'], row['ci_high'])})."
            )
    return out


def player_results(frame: pl.DataFrame, units: Units = None) -> list[str]:
    """Each compared player's or bot's share of its decided hands (once a hand per side it sat for), best
    first, and whether the best's and the worst's intervals overlap; when the one that wins more hands
    nets fewer points, the sentence says so. A bot that sat on both sides of the same hands (a mirror) is
    named as such, with no share: it won half of them by construction."""
    df = conform(PLAYERS, frame)
    out: list[str] = []
    for (variant, players), rows in _groups(df):
        out += [
            _mirror_sentence(row["player"].removesuffix(f" ({MIRROR})"), variant, players, row["decided"], "hands")
            for row in rows
            if row[MIRROR]
        ]
        rows = [row for row in rows if not row[MIRROR] and _has_rate(row, "win_rate", "decided")]
        if len(rows) < 2:
            continue
        rows.sort(key=lambda row: (-row["win_rate"], row["player"]))
        each = [
            f"{row['player']}: {fmt_pct(row['win_rate'])} ({count_label(row['wins'], row['decided'])}; 95% "
            f"interval {interval_label(row['ci_low'], row['ci_high'])})"
            for row in rows
        ]
        best, worst = rows[0], rows[-1]
        apart = (
            not is_missing(best["ci_low"]) and not is_missing(worst["ci_high"]) and best["ci_low"] > worst["ci_high"]
        )
        verdict = (
            f"{best['player']} wins more of its hands than {worst['player']}: their intervals do not overlap"
            if apart
            else "no clear difference: the intervals of the best and the worst overlap"
        )
        points = best["mean_net_points"], worst["mean_net_points"]
        if apart and not any(is_missing(p) for p in points) and points[0] < points[1]:
            verdict += f", yet it nets fewer points a hand ({points[0]:+.2f} against {points[1]:+.2f})"
        shared = "" if _alone(players) else " Partners share their side's result, counted once a hand."
        out.append(f"In {setting_phrase(variant, players)}, decided hands won: {_join(each)}; {verdict}.{shared}")
    return out


def _mirror_sentence(who: str, variant: str, players: int, sample: int, what: str) -> str:
    return (
        f"In {setting_phrase(variant, players)}, {who} played itself, on more than one side of the same {what} "
        f"({fmt_int(sample)}): a mirror, whose share of {what} won holds by construction and is no finding."
    )


def game_results(frame: pl.DataFrame, units: Units = None) -> list[str]:
    """Each policy's share of its games won, best first, with its interval and mean final margin; a policy
    on more than one side of the same games (a mirror) is named as such, with no share."""
    df = conform(GAMES, frame)
    out: list[str] = []
    for (variant, players), rows in _groups(df):
        names = with_policy_names(pl.DataFrame(rows, schema=df.schema)).get_column(POLICY_NAME).to_list()
        named = sorted(zip(names, rows, strict=True), key=lambda pair: (-(pair[1]["win_rate"] or 0), pair[0]))
        each = []
        for name, row in named:
            if row[MIRROR]:
                out.append(_mirror_sentence(name, variant, players, row["games"], "games"))
            elif _has_rate(row, "win_rate", "games"):
                margin = row["mean_margin"]
                unit = row["unit"] or "points"
                each.append(
                    f"{name} {fmt_pct(row['win_rate'])} ({count_label(row['games_won'], row['games'])}; 95% interval "
                    f"{interval_label(row['ci_low'], row['ci_high'])}"
                    + ("" if is_missing(margin) else f"; {fmt_points(margin, signed=True)} {unit} a game")
                    + ")"
                )
        if each:
            out.append(f"In {setting_phrase(variant, players)}, games won: {_join(each)}.")
    return out


SUMMARIES: dict[str, Summarizer] = {
    statistic.name: globals()[statistic.summary] for statistic in STATISTICS.values() if statistic.summary
}
"""The findings function of every statistic that has one, by its name: the function its registry entry names
(``pipeline.statistics``, ``Statistic.summary``), found here when this module is imported."""


def summarize(frames: Mapping[str, pl.DataFrame]) -> dict[str, list[str]]:
    """Findings for every statistic present in ``frames``, in page order (``frames.ALL_STATISTICS``), in
    each variant's unit as ``variant_comparison`` reports it (``games.unit``)."""
    units = units_of(frames)
    return {name: per_policy(name, frames[name], units) for name in ALL_STATISTICS if name in frames}


def per_policy(name: str, frame: pl.DataFrame, units: Units = None) -> list[str]:
    """The findings of statistic ``name``; for a statistic of seats' choices (a ``policy`` column) whose frame
    holds several policies, setting by setting and policy by policy, each sentence opening with the
    policy's brief name (``frames.with_policy_names``): two bots' choices are never summed up as one."""
    summarize_one = SUMMARIES[name]
    if name == GAMES or POLICY not in CONTRACT.get(name, {}):
        return summarize_one(frame, units)
    named = with_policy_names(conform(name, frame))
    if named.get_column(POLICY_NAME).n_unique() <= 1:
        return summarize_one(frame, units)
    out: list[str] = []
    groups = named.group_by("variant", "players", POLICY_NAME)
    for (_, _, policy), part in sorted(groups, key=lambda g: (g[0][0], g[0][1], g[0][2] == NO_POLICY, g[0][2])):
        prefix = "" if policy == NO_POLICY else f"{policy}: "
        out += [_prefixed(prefix, sentence) for sentence in summarize_one(part.drop(POLICY_NAME), units)]
    return out


def _prefixed(prefix: str, sentence: str) -> str:
    """``sentence`` opened by ``prefix``, of the same kind (a ``Finding`` keeps its sample and setting)."""
    if isinstance(sentence, Finding):
        return Finding(prefix + sentence, sentence.sample, sentence.setting)
    return type(sentence)(prefix + sentence)
