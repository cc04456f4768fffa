"""The rules that decide a hand from its tricks, one named function per rule (``Variant.hand_rule``).

Each takes the results of the tricks played so far (the winning side, or ``TIE``), the number of tricks
the hand can have and the eldest's side, and returns None while the hand is undecided, else the winning
side (None for a void hand) and the tie rule that decided it, if one did. They run after every trick,
so this module is compiled with the hot path (``pipeline.accel``).
"""

from __future__ import annotations

from pipeline.engine.rules import TIE, HandRule


def first_decisive_or_eldest(tricks: list[int], total: int, eldest_team: int) -> tuple[int | None, str | None] | None:
    """Catalan (seed 000 "Le jeu"): two tricks win; with a tied trick, the first trick won outright
    decides; when every trick is tied the eldest's (non-dealing) team wins. A one-trick hand (one-card
    deal) is won by its trick, or by the eldest's team when it is tied."""
    wins = [0, 0]
    first = -1
    ties = 0
    for result in tricks:
        if result == TIE:
            ties += 1
        else:
            wins[result] += 1
            if first < 0:
                first = result
    if total == 3 and (wins[0] == 2 or wins[1] == 2):
        return (0 if wins[0] == 2 else 1), None
    if ties and first >= 0:
        return first, "first_decisive"
    if len(tricks) == total:
        if first >= 0:
            return first, None
        return eldest_team, "all_tied_eldest"
    return None


def first_decisive_or_void(tricks: list[int], total: int, eldest_team: int) -> tuple[int | None, str | None] | None:
    """French (seed 002 "Règles du Truc à quatre joueurs"): two tricks win; with a tied trick the first
    trick won decides ("le camp qui détient la première levée est gagnant, si une des deux autres est
    pourrie"); when all three are tied "le coup est nul": no winner (None), tie rule ``all_tied``."""
    decided = first_decisive_or_eldest(tricks, total, eldest_team)
    if decided is not None and decided[1] == "all_tied_eldest":
        return None, "all_tied"
    return decided


def first_trick_counts_double(tricks: list[int], total: int, eldest_team: int) -> tuple[int | None, str | None] | None:
    """Trut (seed 003 "Règle du jeu", seed 001 "Déroulement"): the first trick counts double. The side
    that takes trick 1 wins unless one other side takes both tricks 2 and 3; a tie in trick 2 or 3 leaves
    the hand to it, and so does a 1-1-1 split with three sides (seed 001 "Variante pour 3 joueurs"). Trick
    1 tied: the first later trick won outright decides; every trick tied: the hand is void ("pourrie")."""
    if not tricks:
        return None
    first = tricks[0]
    if first == TIE:
        for result in tricks[1:]:
            if result != TIE:
                return result, "tie_next_decides"
        return (None, "all_tied") if len(tricks) == total else None
    if len(tricks) == 1:
        return (first, None) if total == 1 else None
    second = tricks[1]
    if second == first:
        return first, None
    if second == TIE:
        return first, "first_counts_double"
    if len(tricks) == 2:
        return None
    third = tricks[2]
    if third in (second, first):  # two tricks of three: no rule needed
        return third, None
    return first, "first_counts_double"  # trick 3 tied, or a 1-1-1 split with three sides


def decide_hand(
    rule: HandRule, tricks: list[int], total: int, eldest_team: int
) -> tuple[int | None, str | None] | None:
    """``rule(tricks, total, eldest_team)``, with this module's rules called directly: compiled, that is a
    native call, where a call through the variant's attribute goes through Python (once per trick)."""
    if rule is first_trick_counts_double:
        return first_trick_counts_double(tricks, total, eldest_team)
    if rule is first_decisive_or_eldest:
        return first_decisive_or_eldest(tricks, total, eldest_team)
    if rule is first_decisive_or_void:
        return first_decisive_or_void(tricks, total, eldest_team)
    return rule(tricks, total, eldest_team)
