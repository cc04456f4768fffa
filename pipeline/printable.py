"""Text that is safe to show: the characters that are not text (``NOT_TEXT``), which a history refuses and
every text output shows escaped (``escaped``), and a spreadsheet's cell that cannot start a formula
(``spreadsheet_cell``).

A value read from a dataset (a seat's name, a tag) or made by a user's query (``chr(27)``) may hold an
escape sequence: printed raw, ``ESC ] 0 ; text BEL`` sets the terminal's title, and other sequences move
the cursor or rewrite what was printed. A CSV cell that starts with ``=`` is a live formula in a
spreadsheet (``=HYPERLINK(...)``), whose value may leave the machine when it is clicked.
"""

from __future__ import annotations

import json
import re
from typing import Final

_NONCHARACTERS: Final = r"\ufdd0-\ufdef" + "".join(rf"\U{plane:04x}fffe\U{plane:04x}ffff" for plane in range(17))
_BIDI_CONTROLS: Final = r"\u202a-\u202e\u2066-\u2069"
NOT_TEXT_CLASS: Final = rf"[\x00-\x1f\x7f-\x9f\u2028\u2029{_BIDI_CONTROLS}{_NONCHARACTERS}]"
"""The characters that are not text, as a regular expression's class that Python's ``re`` and polars (Rust's
regex) read alike: the control characters (Unicode's Cc, tab among them), the line and paragraph separators,
the bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069: shown raw, they reorder
what a terminal displays after them, so that a name can make a table or an error read other than it is), and
the noncharacters (U+FDD0-U+FDEF, U+FFFE and U+FFFF of every plane). Right-to-left names need none of them."""

NOT_TEXT: Final = re.compile(NOT_TEXT_CLASS)
"""``NOT_TEXT_CLASS`` compiled. A history holds none of them outside comments, but for a tab between words:
a name holding one went into the dataset and crashed the report's chart rendering."""


def not_text(text: str, *, tab: bool) -> str | None:
    """The first character of ``text`` that is not text (``NOT_TEXT``; a tab allowed when ``tab``), named
    (``U+0001, a control character``), or None."""
    if text.isascii() and text.isprintable():  # ' ' to '~': none of them, and cheaper than the class's search
        return None
    for found in NOT_TEXT.finditer(text):
        char = found.group()
        if tab and char == "\t":
            continue
        code = ord(char)
        if char == "\t":
            kind = "a tab"
        elif char in "\u2028\u2029":
            kind = "a line or paragraph separator"
        elif 0x202A <= code <= 0x202E or 0x2066 <= code <= 0x2069:
            kind = "a bidirectional control"
        elif code >= 0xFDD0:
            kind = "a noncharacter"
        else:
            kind = "a control character"
        return f"U+{code:04X}, {kind}"
    return None


def _python_escape(found: re.Match[str]) -> str:
    return found.group().encode("unicode_escape").decode("ascii")


def escaped(text: str) -> str:
    """``text`` as a terminal may show it: each character that is not text written as Python writes it in a
    string (``\\x1b``, ``\\n``, ``\\u2028``, ``\\U0001ffff``); other text as it is."""
    return NOT_TEXT.sub(_python_escape, text)


def _json_escape(found: re.Match[str]) -> str:
    return json.dumps(found.group())[1:-1]  # \u2028, or a surrogate pair for a noncharacter beyond U+FFFF


def json_escaped(text: str) -> str:
    """JSON text with every character that is not text written as a JSON escape (``\\u2028``): the same JSON
    value (such characters can only stand inside its strings), which no terminal acts on."""
    return NOT_TEXT.sub(_json_escape, text)


FORMULA_STARTS: Final = ("=", "+", "-", "@", "\t", "\r")
"""The first characters that make a spreadsheet read a cell as a formula (OWASP's list for CSV injection)."""

FORMULA_GUARD: Final = "'"
"""What a text cell starting a formula is prefixed with: a spreadsheet then reads it as text."""

_NUMBER: Final = re.compile(r"[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")


def spreadsheet_cell(text: str) -> str:
    """A text cell of a CSV: ``escaped``, then prefixed with ``FORMULA_GUARD`` when it starts with one of
    ``FORMULA_STARTS`` and is not a plain number (``-3`` is a number in a spreadsheet too, and no formula)."""
    text = escaped(text)
    if text.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(text):
        return FORMULA_GUARD + text
    return text


def is_utf8(text: str) -> bool:
    """Whether ``text`` can be written as UTF-8. Bytes that are not UTF-8 reach Python (a file's name, an
    argument, standard input) as lone surrogates, which pyarrow, DuckDB and a page cannot hold: they failed with a
    bare codec error naming no option."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
