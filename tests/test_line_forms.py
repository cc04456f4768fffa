"""``read_line`` reads deal, hand and end lines with string operations (``_plain_hand``, ``_number``): the same
lines, with the same values, as the format's patterns, which this test keeps as the reference (the deal's pattern
is no longer in the reader; the hand's and the end's still read what the quick forms leave to them)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.history.reader import DealLine, EndLine, HandLine, HistoryError, Line, read_line

DEAL_PATTERN = re.compile(r"([0-9]+)\s*:(.*)")
HAND_PATTERN = re.compile(r"hand\s+([0-9]+)(?:\s+dealer\s+([0-9]+))?", re.IGNORECASE)
END_PATTERN = re.compile(r"end\b(.*)", re.IGNORECASE)
CARD_GAPS = re.compile(r"[\s,]+")

WORDS = [
    *("hand", "HAND", "Hand", "hAnD", "hands", "dealer", "DEALER", "Dealer", "dealers", "end", "END", "End"),
    *("end-3", "endx", "0", "1", "2", "7", "12", "99", "100", "007", "00", "4294967296", "²", "٣", "x"),
    *(":", "0:", "1:", "12:", ":1o", "1o", "7e", "3b,", ",", "1o,7o", "play", "truc", "fold", "K", "ſ"),
]
"""Words that make the forms, their near misses and what a pattern reads otherwise (``²`` and ``٣`` are digits to
``str.isdigit`` and not to the patterns; the Kelvin sign and the long s fold to ASCII letters in a pattern)."""


def _expected(text: str) -> tuple[object, ...] | None:
    """What the patterns make of a deal, hand or end line (None: another form, or no form)."""
    if ":" in text:
        deal = DEAL_PATTERN.fullmatch(text)
        if deal:
            listed = deal.group(2)
            return ("deal", int(deal.group(1)), tuple(c for c in CARD_GAPS.split(listed) if c))
    words = text.split(" ")
    if len(words) > 1 and words[0].isascii() and words[0].isdigit():
        return None  # an action
    if text.lower().startswith("hand"):
        hand = HAND_PATTERN.fullmatch(text)
        if hand is None:
            return ("error",)
        return ("hand", int(hand.group(1)), None if hand.group(2) is None else int(hand.group(2)))
    end = END_PATTERN.fullmatch(text)
    if end:
        return ("end", tuple(end.group(1).split()))
    return ("error",)


def _read(text: str) -> tuple[object, ...] | None:
    try:
        line: Line = read_line(1, text, "<test>")
    except HistoryError:
        return ("error",)
    if isinstance(line, DealLine):
        return ("deal", line.seat, line.cards)
    if isinstance(line, HandLine):
        return ("hand", line.number, line.dealer)
    if isinstance(line, EndLine):
        return ("end", line.values)
    return None


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(WORDS), min_size=1, max_size=5))
def test_the_quick_forms_read_what_the_patterns_read(words: list[str]) -> None:
    text = " ".join(words)
    expected = _expected(text)
    read = _read(text)
    if expected is None:
        assert read is None or read == ("error",), text
    else:
        assert read == expected, text


def test_each_quick_form_and_its_near_misses() -> None:
    assert _read("hand 3 dealer 1") == ("hand", 3, 1)
    assert _read("HAND 12 Dealer 0") == ("hand", 12, 0)
    assert _read("hand 007") == ("hand", 7, None)
    assert _read("hand 1 dealer") == ("error",)
    assert _read("hand ²") == ("error",)
    assert _read("1 : 1o 7o 7e") == ("deal", 1, ("1o", "7o", "7e"))
    assert _read("0: 1o,7o, 7e") == ("deal", 0, ("1o", "7o", "7e"))
    assert _read("End 2 0") == ("end", ("2", "0"))
    assert _read("end-3") == ("end", ("-3",))
