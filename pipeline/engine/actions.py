"""Actions, the event records they produce, and the error for a broken rule."""

from __future__ import annotations

from typing import Any, Final, NamedTuple


class Action(NamedTuple):
    """A seat's move. ``arg`` is a card index for ``play``, the number of cards for ``deal``, the
    signalled ranks for ``signal``, else None."""

    seat: int
    verb: str
    arg: int | str | None = None


class Event(NamedTuple):
    """What one applied action did; a hand's events replay the hand exactly.

    ``seat`` is -1 and ``arg`` the dealt hands (a tuple per seat) for the chance step ``dealt``.

    The engine records an event as a plain tuple of these fields in this order (``EventTuple``): a plain
    tuple is built several times faster than a named one, and the simulator records one per action.
    ``Event(*values)`` names one; ``HandRecord.events`` gives a hand's events named.
    """

    seat: int
    verb: str
    arg: Any  # the dealt hands, a card, a number, a word, or None
    kind: str  # deal | choice | signal | raise | answer | play
    answers: bool  # answered a pending raise (a play by the answering seat accepts implicitly)
    could_raise: bool  # a raise was among the seat's legal actions
    trick_no: int  # the trick in progress, 0 before play
    stake_before: int
    stake_after: int  # for a raise, the stake it proposes


_new_tuple: Final = tuple.__new__


def make_action(seat: int, verb: str, arg: int | str | None = None) -> Action:
    """``Action(seat, verb, arg)`` built without the named tuple's Python-level ``__new__``: the same value
    in half the time. The engine and the bots build several per step, so the hot path uses this. An action
    without an argument (``accept``, ``fold``, ``pass``...) is made once per seat and verb and shared: an
    action is an immutable value."""
    if arg is None and 0 <= seat < _SHARED_SEATS:
        by_seat = _ARGLESS.get(verb)
        if by_seat is None:
            by_seat = _ARGLESS[verb] = [_new_tuple(Action, (s, verb, None)) for s in range(_SHARED_SEATS)]
        return by_seat[seat]
    action: Action = _new_tuple(Action, (seat, verb, arg))
    return action


_SHARED_SEATS: Final = 6
_ARGLESS: Final[dict[str, list[Action]]] = {}


def action_table(players: int, verb: str, args: tuple[int | str, ...]) -> list[list[Action]]:
    """Per seat, per argument of ``args`` in order: the action ``seat verb arg``. Made once per player count,
    verb and arguments and shared by every game (an action is an immutable value): the engine looks the
    actions bots take most (a card played, a French raise) up by position instead of building them."""
    key = (players, verb, args)
    found = _TABLES.get(key)
    if found is None:
        found = _TABLES[key] = [[make_action(s, verb, arg) for arg in args] for s in range(players)]
    return found


_TABLES: Final[dict[tuple[int, str, tuple[int | str, ...]], list[list[Action]]]] = {}


EventTuple = tuple[int, str, Any, str, bool, bool, int, int, int]
"""An event's values in ``Event``'s field order, as the engine records them."""


def make_event(
    seat: int,
    verb: str,
    arg: Any,
    kind: str,
    answers: bool,
    could_raise: bool,
    trick_no: int,
    stake_before: int,
    stake_after: int,
) -> EventTuple:
    """An event, as a plain tuple (``EventTuple``): one per action applied."""
    return (seat, verb, arg, kind, answers, could_raise, trick_no, stake_before, stake_after)


class RuleError(ValueError):
    """An action that the rules do not allow now. ``rule`` is a short name of the rule broken."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} [{rule}]")
        self.rule = rule
        self.message = message


# Verbs the engine knows (FORMAT.md "Verbs", plus the steps the text leaves implicit).
PLAY: Final = "play"
ACCEPT: Final = "accept"
FOLD: Final = "fold"
CUT: Final = "cut"
NOCUT: Final = "nocut"
DEAL: Final = "deal"
DEALT: Final = "dealt"
HOLD: Final = "hold"
PASS: Final = "pass"
SIGNAL: Final = "signal"
SING: Final = "sing"  # la chanson / chanter (trut-gatinaise, trut-gatine): sing, or agree to sing
NOSING: Final = "nosing"
ASK: Final = "ask"  # la chanson: the eldest names how many extra cards each player is dealt
DISCARD: Final = "discard"  # keep 3 cards after extra cards were dealt

SIGNAL_RANKS: Final = ("3", "2", "1")
"""What partners may signal (seed 000 "Communication"): holding a three, a two, an ace. A signal is
the ranks claimed, high first, or ``-`` for nothing."""

SIGNALS: Final = ("-", "3", "2", "1", "32", "31", "21", "321")

# How each verb's argument is written in the text format (FORMAT.md "Verbs"): "card" a card, "card|??" a
# card or ?? for one nobody saw (a card laid face down), "cards" one or more cards, "int" a whole number,
# "int|reste" a number or the word reste, "word" one word, "word?" an optional word. Verbs not listed take
# no argument.
ARG_KINDS: dict[str, str] = {
    PLAY: "card",
    "cover": "card|??",
    "raise": "int|reste",
    "trut": "word?",
    ASK: "int",
    DISCARD: "cards",
    DEAL: "int",
    SIGNAL: "word",
}

CARD_ARG_KINDS: Final = ("card", "card|??")
"""The argument kinds that name one card."""

KNOWN_VERBS: Final = frozenset(
    [PLAY, ACCEPT, FOLD, CUT, NOCUT, DEAL, DEALT, HOLD, PASS, SIGNAL, "redeal", "refuse", SING, NOSING]
    + list(ARG_KINDS)
    + ["truc", "retruc", "quatre-val", "joc-fora", "envit", "torne", "falta", "envit-falta"]
)
"""Every verb of FORMAT.md and the engine: an action with one of these in the wrong phase breaks the
"phase" rule; any other verb is unknown."""
