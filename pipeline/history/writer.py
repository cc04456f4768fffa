"""Writing canonical `.truc` text (FORMAT.md; our notes in docs/format.md).

The canonical shape is what ``export(import(x))`` must reproduce byte for byte:

- tags in a fixed order: ``Variant``, ``Options`` (every option, canonical), ``Seat0``…, ``Event``,
  ``Site``, ``Date``, ``Round``, ``FirstDealer``, ``Seed``, ``Policy0``…, ``Result``, then custom
  ``_tags`` in the order given;
- one blank line, then every hand: ``hand K dealer S``, its deal as one line per seat in seat order, its
  actions, and ``end A B``, each body line indented by two spaces;
- one blank line between games, LF line ends, a final newline, no comments.

The engine's implicit steps are not written: ``cut`` and ``deal N`` follow from the deal lines (and
``nocut``), and the chance step ``dealt`` is written as the deal lines. A hand is written from the
engine's record of it (``hand_from_record``), so the ``end`` values and ``Result`` are always the engine's
(``Game.end_values``, ``Game.result_text``): points here, petits and longs in the Trut family.

This module knows the tag vocabulary (``tag_rank``), which the reader uses to check tag names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from pipeline.cards import Deck
from pipeline.engine.actions import ARG_KINDS, CARD_ARG_KINDS, CUT, DEAL, DEALT, Event
from pipeline.engine.game import Game, HandRecord
from pipeline.printable import escaped, not_text

INDENT = "  "

_FIXED_RANKS = {
    "Variant": 0,
    "Options": 1,
    "Event": 3,
    "Site": 4,
    "Date": 5,
    "Round": 6,
    "FirstDealer": 7,
    "Seed": 8,
    "Result": 10,
}
_INDEXED_RANKS = {"Seat": 2, "Policy": 9}
_CUSTOM_RANK = 11
_INDEXED = re.compile(r"(Seat|Policy)(0|[1-9][0-9]{0,8})")  # a seat of 9 digits at most: an int to read
_CUSTOM = re.compile(r"_[A-Za-z0-9_]+")
TAG_NAMES = (*_FIXED_RANKS, *(f"{name}{seat}" for name in _INDEXED_RANKS for seat in range(6)))
"""The tags the format defines (the indexed ones for up to 6 seats): what a mistyped tag is compared with."""


def tag_rank(name: str) -> tuple[int, int] | None:
    """The sort key of a tag name in canonical order, or None for a name the format does not define."""
    if name in _FIXED_RANKS:
        return _FIXED_RANKS[name], 0
    indexed = _INDEXED.fullmatch(name)
    if indexed:
        return _INDEXED_RANKS[indexed.group(1)], int(indexed.group(2))
    if _CUSTOM.fullmatch(name):
        return _CUSTOM_RANK, 0
    return None


def tag_spelling(name: str) -> str | None:
    """The format's spelling of a tag name written in another letter case, else None."""
    for known in _FIXED_RANKS:
        if known.lower() == name.lower():
            return known
    indexed = _INDEXED.fullmatch(name.capitalize())
    return indexed.group(0) if indexed else None


def seat_tag_index(name: str) -> int | None:
    """The seat number of a ``SeatN`` or ``PolicyN`` tag, else None."""
    if name in _FIXED_RANKS:  # most tags of a game, which the pattern would try in vain
        return None
    indexed = _INDEXED.fullmatch(name)
    return int(indexed.group(2)) if indexed else None


def quote(value: str, name: str = "a tag") -> str:
    """A tag value between double quotes, with ``\\`` and ``"`` escaped. A value holding a character that is
    not text (``printable.NOT_TEXT``: a line break, an escape sequence's ESC) is a ``ValueError`` naming
    the tag ``name``: the reader refuses such a value, so writing it escaped would not read back as the
    value, and writing it raw would make a history that does not import (and act on a terminal)."""
    char = not_text(value, tab=False)
    if char:
        raise ValueError(
            f"{name}'s value holds {char}, which a history cannot hold: {escaped(value[:80])!r}"
            + (f"... ({len(value):,} characters)" if len(value) > 80 else "")
        )
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def format_tags(tags: Mapping[str, str]) -> list[str]:
    """The tag lines in canonical order; raises ``ValueError`` for a name the format does not define."""
    ranked = []
    for position, (name, value) in enumerate(tags.items()):
        rank = tag_rank(name)
        if rank is None:
            raise ValueError(f"{name!r} is not a tag of the format; custom tags start with '_'")
        ranked.append((rank, position, name, value))
    ranked.sort()
    return [f"[{name} {quote(value, name)}]" for _, _, name, value in ranked]


@dataclass(frozen=True)
class HandText:
    """One hand as canonical lines: ``body`` holds the deal and action lines, not yet indented; ``end`` the
    values of its ``end`` line, one per side, in the variant's units."""

    hand_no: int
    dealer: int
    body: tuple[str, ...]
    end: tuple[str, ...]

    def lines(self) -> list[str]:
        return [
            f"hand {self.hand_no} dealer {self.dealer}",
            *(INDENT + line for line in self.body),
            INDENT + " ".join(("end", *self.end)),
        ]


def deal_lines(hands: Sequence[Sequence[str]]) -> list[str]:
    """One ``S: C C C`` line per seat, in seat order."""
    return [f"{seat}: {' '.join(cards)}" for seat, cards in enumerate(hands)]


def action_line(seat: int, verb: str, arg: str | None) -> str:
    return f"{seat} {verb}" if arg is None else f"{seat} {verb} {arg}"


def arg_text(deck: Deck, event: Event) -> str | None:
    """An event's argument as the text writes it (the engine's ``ARG_KINDS``): a card index as the card."""
    if event.arg is None:
        return None
    if ARG_KINDS.get(event.verb) in CARD_ARG_KINDS:
        return deck.text(event.arg)
    return str(event.arg)


def hand_from_record(game: Game, hand: HandRecord) -> HandText:
    """A hand of ``game`` from the engine's record of it; the ``end`` values are the engine's. It reads the
    plain event tuples (``Event``'s fields in order: seat, verb, arg first): naming each costs more than the
    line it makes."""
    card_texts = game.variant.deck.card_texts
    body: list[str] = []
    for event in hand.event_tuples:
        seat, verb, arg = event[0], event[1], event[2]
        if verb == DEALT:
            dealt: Sequence[Sequence[int]] = arg
            body.extend(deal_lines([[card_texts[card] for card in cards] for cards in dealt]))
        elif verb not in _ENGINE_STEPS:
            text = None if arg is None else card_texts[arg] if verb in _CARD_VERBS else str(arg)
            body.append(action_line(seat, verb, text))
    return HandText(hand.hand_no, hand.dealer, tuple(body), tuple(game.end_values(hand)))


_ENGINE_STEPS = frozenset((CUT, DEAL))
"""The engine's own steps, which a record leaves out (the reader adds them back)."""
_CARD_VERBS = frozenset(verb for verb, kind in ARG_KINDS.items() if kind in CARD_ARG_KINDS)
"""The verbs whose argument is a card, written as the card (``arg_text``)."""


def format_game(tags: Mapping[str, str], hands: Iterable[HandText]) -> str:
    """One game as canonical text, ending with a newline."""
    lines = format_tags(tags)
    lines.append("")
    for hand in hands:
        lines.extend(hand.lines())
    return "\n".join(lines) + "\n"


def join_games(games: Iterable[str]) -> str:
    """Games as written by ``format_game``, one blank line between them."""
    return "\n".join(games)
