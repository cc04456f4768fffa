"""Reading `.truc` hand histories: tolerant text in, games replayed through the engine out.

Three layers, in the manner of python-chess's PGN reader:

1. ``scan`` turns physical lines (``ByteLines`` reads a stream a block at a time, so a file of any size is
   read in bounded memory; ``text_lines`` splits a text held in memory) into numbered content lines: the
   BOM, line ends (LF, CRLF, CR), ``;`` comments and ``{ ... }`` comments (which may span lines) are
   dropped, blank lines skipped, indentation stripped. A line that cannot be read (not UTF-8, past
   ``LINE_LIMIT``, a stray ``}``) comes as its error, which costs its game only.
2. ``read_line`` reads one content line into a ``TagLine``, ``HandLine``, ``DealLine``, ``ActionLine`` or
   ``EndLine``; ``parse`` groups lines into games (a game starts with its tag section and runs to the next
   one) and consecutive deal lines into one deal, and drives a ``Visitor``: ``begin_game``,
   ``visit_tag``, ``visit_hand``, ``visit_deal``, ``visit_action``, ``visit_end``, ``end_game``.
3. ``ReplayVisitor`` replays every game through the engine and yields ``GameRecord``s. It never decides a
   rule itself: every action goes to ``Game.apply``, whose ``RuleError`` names the rule broken. What it
   adds are the steps the text leaves implicit (``cut`` before a deal, ``deal 1``/``deal 3`` after
   ``nocut``) and the checks of what the text claims: hand numbers, dealers, ``end`` lines, ``Result``.

Every problem is a ``HistoryError`` naming the file, the line, the line's text and, for a broken rule, the
rule: ``games.truc:14: '1 retruc': only the team that accepted the last raise may raise again
[raise-right]``. A visitor's ``handle_error`` decides what happens: the default raises (strict); a lenient
``ReplayVisitor`` keeps the error, and the parser skips the rest of that game and goes on with the next.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol, final

from mypy_extensions import mypyc_attr

from pipeline import accel
from pipeline.cards import UNKNOWN, UNKNOWN_TEXT, CardError, Deck
from pipeline.engine.actions import (
    ARG_KINDS,
    CARD_ARG_KINDS,
    CUT,
    DEAL,
    DEALT,
    NOCUT,
    Action,
    RuleError,
    make_action,
)
from pipeline.engine.game import HAND_OVER, Game, HandRecord, Phase, new_game
from pipeline.engine.hand_rules import first_decisive_or_eldest
from pipeline.engine.ladder import LadderGame
from pipeline.engine.rules import Config, OptionError, parse_options
from pipeline.history.writer import TAG_NAMES, seat_tag_index, tag_rank, tag_spelling
from pipeline.names import did_you_mean
from pipeline.playing import rubber_wins
from pipeline.printable import NOT_TEXT, escaped, not_text
from pipeline.variants import UnknownVariant, get_variant

BOM = "\ufeff"
INT64_MAX = 2**63 - 1
NUMBER_DIGITS: Final = len(str(INT64_MAX))
"""The most digits a number of a history may have (a Seed's, 19): Python refuses to read an integer of more
than 4,300 digits, and no count, seat or score comes near this."""
_LONG_NUMBER: Final = re.compile(f"[0-9]{{{NUMBER_DIGITS + 1},}}")

# The verbs of FORMAT.md ("Verbs") and the project's own: ``signal``, and the engine's steps ``cut`` and
# ``deal N``, which a text may spell out. How each verb's argument is written is the engine's
# ``ARG_KINDS``; whether a verb is a move of the game's variant, and when, is the engine's business.
# fmt: off
FORMAT_VERBS = frozenset((
    "play", "cover", "truc", "retruc", "quatre-val", "joc-fora", "raise", "trut", "accept", "fold", "refuse",
    "redeal", "envit", "torne", "falta", "envit-falta", "nocut", "hold", "pass", "sing", "nosing", "ask",
    "discard", "signal", "cut", "deal",
))
# fmt: on
VERB_SYNONYMS: Final = {"vull": "accept", "envide": "envit", "truque": "truc", "tenir": "hold"}
"""Words the sources use for a verb, read as that verb (written back as it: the writer has one form):
``vull`` ("I want it", FORMAT.md's word for accept; Catalan players say it), ``envide`` and ``truque`` (seed
004's words for the envit and the truc, Valencian), ``tenir`` (seed 003's word for holding "à tenir")."""

ONE_ARG_KINDS = frozenset((*CARD_ARG_KINDS, "int", "int|reste", "word"))


def arg_kind(verb: str) -> str | None:
    """How ``verb``'s argument is written (``ARG_KINDS``): None for a verb without argument."""
    return ARG_KINDS.get(verb)


_READ_VERBS: Final = {
    written: (verb, arg_kind(verb))
    for verb in FORMAT_VERBS | set(ARG_KINDS)
    for written in (verb, *(synonym for synonym, meant in VERB_SYNONYMS.items() if meant == verb))
}
"""Each word an action line may hold as its verb, in lower case, synonyms included (``VERB_SYNONYMS``): the verb it
is read as and how its argument is written (``arg_kind``), found with one lookup a line."""


_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_COMMENT_CHARS = re.compile(r"[;{}]")
"""What makes a line more than its text stripped (``_strip_line``); a tag value's ``"`` matters only with them."""
CUSTOM_TAG_FORM: Final = "'_' then ASCII letters, digits or '_'"
_TAG = re.compile(r'\[\s*([^\W\d]\w*)\s+"((?:[^"\\]++|\\["\\])*+)"\s*\]')
"""A tag line. The value's runs of plain characters are taken whole and never given back (possessive): four times
as fast as a character at a time on a policy's tag, and no backtracking when the line is not a tag."""
_ESCAPE = re.compile(r"\\(.)")
_HAND = re.compile(r"hand\s+([0-9]+)(?:\s+dealer\s+([0-9]+))?", re.IGNORECASE)
_CARD_GAPS = re.compile(r"[\s,]+")
_END = re.compile(r"end\b(.*)", re.IGNORECASE)
_DATE = re.compile(r"[0-9?]{4}\.[0-9?]{2}\.[0-9?]{2}")


def _is_calendar_date(text: str) -> bool:
    """A ``YYYY.MM.DD`` whose known parts can be a day: month 01-12, day 01 to the month's last (29 for
    February of an unknown year). A part with a '?' is not checked."""
    year, month, day = text.split(".")
    if "?" in month:
        return "?" in day or 1 <= int(day) <= 31
    if not 1 <= int(month) <= 12:
        return False
    if "?" in day:
        return True
    leap_year = 2000 if "?" in year else int(year)
    try:
        datetime.date(max(leap_year, 1), int(month), int(day))
    except ValueError:
        return False
    return True


_RESULT = re.compile(r"[0-9]+[a-z]*(?:-[0-9]+[a-z]*)+", re.IGNORECASE)

QUOTE_LIMIT: Final = 80
"""At most this many characters of a line (or of a word) are quoted in an error; the rest is cut."""

MESSAGE_LIMIT: Final = 600
"""An error's message is cut to this many characters, whatever the text it quotes."""


def shown(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` as an error quotes it: characters that are not text escaped (``\\x01``), cut to ``limit``
    characters with an ellipsis and the full length (an error for a 50 MB line is one short line)."""
    cut = text if len(text) <= limit else text[:limit]
    cut = escaped(cut)
    if len(text) > limit:
        cut += f"… ({len(text):,} characters)"
    return cut


class HistoryError(ValueError):
    """A history that cannot be read or does not replay: file, line, the line's text, message, rule."""

    def __init__(
        self, source: str, line: int | None, message: str, *, text: str | None = None, rule: str | None = None
    ) -> None:
        self.source = source
        self.line = line
        self.message = shown(message, MESSAGE_LIMIT)  # as quoted (``shown``): an error holds no huge text
        self.text = None if text is None else shown(text)
        self.rule = rule
        super().__init__(str(self))

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled as its fields, already quoted (a worker process sends its errors to the driver): built
        again from its arguments, it would quote its quotes (``shown``) a second time."""
        return _rebuilt_error, (self.source, self.line, self.message, self.text, self.rule)

    def __str__(self) -> str:
        where = self.source if self.line is None else f"{self.source}:{self.line}"
        parts = [where] if where else []
        if self.text is not None:
            parts.append(f"'{self.text}'")
        message = self.message if self.rule is None else f"{self.message} [{self.rule}]"
        return ": ".join([*parts, message])


def _rebuilt_error(source: str, line: int | None, message: str, text: str | None, rule: str | None) -> HistoryError:
    error = HistoryError(source, line, "")
    error.message, error.text, error.rule = message, text, rule
    error.args = (str(error),)
    return error


# ------------------------------------------------------------------------------------------ text to lines


def _too_long(text: str) -> str | None:
    """Why ``text`` holds a number too long to read (``NUMBER_DIGITS``), or None."""
    found = _LONG_NUMBER.search(text)
    if found is None:
        return None
    return f"a number of {len(found.group()):,} digits: a number in a history has at most {NUMBER_DIGITS} digits"


def _is_number(text: str) -> bool:
    """ASCII digits only (``str.isdigit`` also accepts ``²``, which ``int`` refuses)."""
    return text.isascii() and text.isdigit()


_SMALL_NUMBERS: Final = {str(number): number for number in range(100)}
"""The numbers of most words that are numbers (seats, hands, dealers), as written: one lookup reads one where
``_is_number`` and ``int`` are three calls."""


def _number(text: str) -> int | None:
    """The value of ``text`` when it is a number (ASCII digits only), else None."""
    value = _SMALL_NUMBERS.get(text)
    if value is None and _is_number(text):
        return int(text)
    return value


def decode(data: bytes, source: str) -> str:
    """UTF-8 text of a history file (a BOM is dropped); undecodable bytes are a ``HistoryError``."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]  # lines end with LF, CRLF or CR alone
        line = before.count(b"\n") + before.count(b"\r") - before.count(b"\r\n") + 1
        raise HistoryError(
            source, line, f"byte 0x{data[exc.start]:02x} is not UTF-8: a history is UTF-8 text"
        ) from None
    return text.removeprefix(BOM)


LINE_LIMIT = 1 << 20
"""The longest line read, in bytes (1 MiB): a longer one is an error, read no further, so that reading
holds at most one line of the file whatever its size (a history's lines are tags, deals and moves). Not
``Final``, nor ``BLOCK``: compiled, a ``Final`` is inlined, and the tests set both smaller."""

BLOCK = 1 << 20
"""Bytes read from a stream at a time."""

_PLAIN_BYTES: Final = bytes(range(0x20, 0x7F)).translate(None, b";{}") + b"\n"
"""The bytes of plain text: printable ASCII but the comment characters, and LF. A run of lines made of them
alone (as an export writes) is decoded, split and stripped at once: it holds no character that is not
text, no comment, no BOM, no CR, and a character is a byte (``ByteLines.runs``)."""

Physical = tuple[int, str | HistoryError]
"""A numbered physical line: its text without the line end, or why it cannot be read (bytes that are not
UTF-8, a line past ``LINE_LIMIT``)."""

Run = tuple[int, list[str] | str | HistoryError]
"""Physical lines from a line's number: one line (as ``Physical``), or a list of plain lines
(``_PLAIN_BYTES``)."""


class Readable(Protocol):
    """What ``ByteLines`` reads: a binary stream, or a range of one."""

    def read(self, size: int, /) -> bytes: ...


def _line_end(piece: bytes) -> int:
    """How many bytes of line end ``piece`` (a line with its end, if any) has: 2 for CRLF, 1 for LF or CR."""
    return 2 if piece.endswith(b"\r\n") else 1 if piece.endswith((b"\n", b"\r")) else 0


class ByteLines:
    """The physical lines of a binary stream, decoded as UTF-8 one line at a time, read in blocks of
    ``BLOCK`` bytes: a history of any size is read in bounded memory. ``done`` is the bytes read so far (for
    progress). Lines end with LF, CRLF or CR alone, as ``scan`` reads a text. A stream that starts within a
    file (a range of it read by a worker) numbers its lines from ``first_line``, that line's number in the
    file."""

    def __init__(self, stream: Readable, source: str, first_line: int = 1) -> None:
        self.stream = stream
        self.source = source
        self.done = 0
        self.first_line = first_line

    def __iter__(self) -> Iterator[Physical]:
        for number, run in self.runs():
            if isinstance(run, list):
                for offset, line in enumerate(run):
                    yield number + offset, line
            else:
                yield number, run

    def runs(self) -> Iterator[Run]:
        """The physical lines, each block's whole lines at once when they are plain (``_PLAIN_BYTES``): one
        decode and one split for a block rather than one a line, the lines' checks left to ``scan``'s one
        look at the run."""
        number = self.first_line
        pending = b""  # the start of a line not ended yet
        over = 0  # the bytes of a line past LINE_LIMIT, dropped as they come
        while True:
            block = self.stream.read(BLOCK)
            data = pending + block
            pending = b""
            if block and not over:
                end = data.rfind(b"\n") + 1  # the block's whole lines, LF-ended
                plain = _plain_lines(data, end)
                if plain is not None:
                    self.done += end
                    yield number, plain
                    number += len(plain)
                    data = data[end:]
            pieces = data.splitlines(keepends=True)
            if block and pieces and not pieces[-1].endswith(b"\n"):
                pending = pieces.pop()  # unfinished, or a CR whose LF may open the next block
            for piece in pieces:
                self.done += len(piece)
                yield number, self._line(number, piece, over)
                number, over = number + 1, 0
            if len(pending) > LINE_LIMIT:  # keep a last CR: it may end the line with the next block's LF
                keep = 1 if pending.endswith(b"\r") else 0
                over += len(pending) - keep
                self.done += len(pending) - keep
                pending = pending[len(pending) - keep :]
            if not block:
                if over:  # the file ends inside a line past the limit, dropped whole
                    yield number, self._line(number, b"", over)
                return

    def _line(self, number: int, piece: bytes, over: int) -> str | HistoryError:
        data = piece[: len(piece) - _line_end(piece)]
        if over or len(data) > LINE_LIMIT:
            return _long_line(self.source, number, over + len(data))
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            return HistoryError(
                self.source, number, f"byte 0x{data[exc.start]:02x} is not UTF-8: a history is UTF-8 text"
            )


def _plain_lines(data: bytes, end: int) -> list[str] | None:
    """The lines of ``data[:end]`` (whole lines, LF-ended) when they are all plain text (``_PLAIN_BYTES``) and
    none is past ``LINE_LIMIT``, else None (read a line at a time)."""
    if not end:
        return None
    head = data[:end] if end < len(data) else data
    if head.translate(None, _PLAIN_BYTES):
        return None
    lines = head.decode("ascii").split("\n")
    lines.pop()  # the empty text after the last LF
    if end > LINE_LIMIT and max(len(line) for line in lines) > LINE_LIMIT:
        return None
    return lines


def text_lines(text: str, source: str) -> Iterator[Physical]:
    """The numbered physical lines of a text held in memory (``read_text``), as ``ByteLines`` gives a
    stream's."""
    for number, line in enumerate(_LINE_BREAK.split(text), start=1):
        size = len(line.encode("utf-8", "surrogatepass")) if len(line) > LINE_LIMIT // 4 else 0
        yield number, _long_line(source, number, size) if size > LINE_LIMIT else line


def _long_line(source: str, number: int, size: int) -> HistoryError:
    return HistoryError(source, number, f"a line of {size:,} bytes: a line of a history has at most {LINE_LIMIT:,}")


def _strip_line(raw: str, number: int, open_at: int | None, source: str) -> tuple[str, int | None]:
    """One physical line without its comments; ``open_at`` is the line of a ``{`` still open. A ``}``
    outside a comment and a tag value closes nothing: a ``HistoryError``."""
    out: list[str] = []
    in_string = False
    first = ""  # the line's first character outside comments: '[' for a tag
    i = 0
    while i < len(raw):
        ch = raw[i]
        if open_at is not None:
            if ch == "}":
                open_at = None
                out.append(" ")
        elif in_string:
            out.append(ch)
            if ch == "\\" and i + 1 < len(raw):
                out.append(raw[i + 1])
                i += 1
            elif ch == '"':
                in_string = False
        elif ch == ";":
            break
        elif ch == "{":
            open_at = number
        elif ch == "}":
            raise HistoryError(source, number, "this '}' closes no '{' comment", text=raw.strip())
        else:
            if ch == '"' and first == "[":
                in_string = True  # inside a tag value, ';' and '{' are text
            if not first and not ch.isspace():
                first = ch
            out.append(ch)
        i += 1
    return "".join(out).strip(), open_at


Content = tuple[int, list[str] | str | HistoryError]
"""What ``scan`` gives from a line's number: a run of plain lines (``_PLAIN_BYTES``, which ``read_line`` then need
not search for what is not text), as read, blank ones included, outside any comment; or one content line, comments
removed; or why a line cannot be read."""


def scan(
    lines: Iterable[Physical] | ByteLines, source: str, whole: bool = True
) -> Generator[Content, None, int | None]:
    """The content of ``lines`` (``Content``): each run of plain lines outside a comment whole (``parse`` strips
    them and skips the blank ones: a loop there rather than a step of this generator a line), and each other
    non-blank line with its comments removed; a line that cannot be read, or whose ``}`` closes no comment, comes
    as its ``HistoryError``, and the lines after it follow.

    Raises ``HistoryError`` after the last line when a ``{`` comment is never closed, unless ``lines`` are
    not ``whole`` (a range of a file that more lines follow): then it returns the line of the ``{`` still
    open, None when there is none.
    """
    open_at: int | None = None
    runs: Iterable[Run] = lines.runs() if isinstance(lines, ByteLines) else lines
    for number, line in runs:
        if isinstance(line, list):  # plain lines: no comment, nothing to strip but spaces
            if open_at is None:  # else all inside the '{' comment still open, which none of them closes
                yield number, line
            continue
        if isinstance(line, HistoryError):
            yield number, line
            continue
        raw = line.removeprefix(BOM)  # also where files joined with cat put one at a line's start
        if open_at is None and not _COMMENT_CHARS.search(raw):
            content = raw.strip()
        else:
            try:
                content, open_at = _strip_line(raw, number, open_at, source)
            except HistoryError as error:
                yield number, error
                continue
        if content:
            yield number, content
    if open_at is not None and whole:
        raise HistoryError(source, open_at, "a '{' comment opened here is never closed")
    return open_at


# The lines of the format, each with its number in the file and its text (as an error quotes it). Plain
# classes rather than named tuples: compiled, one is made without running Python code.


@final
class TagLine:
    def __init__(self, line: int, text: str, name: str, value: str) -> None:
        self.line, self.text, self.name, self.value = line, text, name, value

    def at(self, line: int) -> TagLine:
        """The same line read at line ``line`` (``_Parser.read``)."""
        return TagLine(line, self.text, self.name, self.value)


@final
class HandLine:
    def __init__(self, line: int, text: str, number: int, dealer: int | None) -> None:
        self.line, self.text, self.number, self.dealer = line, text, number, dealer

    def at(self, line: int) -> HandLine:
        """The same line read at line ``line`` (``_Parser.read``)."""
        return HandLine(line, self.text, self.number, self.dealer)


@final
class DealLine:
    def __init__(self, line: int, text: str, seat: int, cards: tuple[str, ...]) -> None:
        self.line, self.text, self.seat, self.cards = line, text, seat, cards


@final
class ActionLine:
    def __init__(self, line: int, text: str, seat: int, verb: str, args: tuple[str, ...]) -> None:
        self.line, self.text, self.seat, self.verb, self.args = line, text, seat, verb, args

    def at(self, line: int) -> ActionLine:
        """The same line read at line ``line`` (``_Parser.read``)."""
        return ActionLine(line, self.text, self.seat, self.verb, self.args)


@final
class EndLine:
    def __init__(self, line: int, text: str, values: tuple[str, ...]) -> None:
        self.line, self.text, self.values = line, text, values

    def at(self, line: int) -> EndLine:
        """The same line read at line ``line`` (``_Parser.read``)."""
        return EndLine(line, self.text, self.values)


Line = TagLine | HandLine | DealLine | ActionLine | EndLine
RepeatedLine = TagLine | HandLine | ActionLine | EndLine
"""The forms whose lines a history says over and over (``_Parser.read``)."""

KNOWN_LINES: Final = 4096
"""The most texts of lines a reading remembers (``_Parser.read``): a 2-player Catalan file has a few hundred
different action, hand and end lines, and most of its tags repeat (a range of a file, about 1,200 games, adds
its games' ``Seed`` tags)."""


def _read_tag(number: int, content: str, source: str, plain: bool = False) -> TagLine:
    match = _TAG.fullmatch(content)
    if match:
        name, raw = match.groups()
        value = _ESCAPE.sub(r"\1", raw) if "\\" in raw else raw
        char = None if plain else not_text(value, tab=False)
        if char:
            message = f"a tag value holds {char}: names and tags are printable text"
            raise HistoryError(source, number, message, text=content)
        return TagLine(number, content, name, value)
    name = re.match(r"\[\s*([^\s\"]+)\s", content)
    after_value = re.fullmatch(r'\[[^"]*"(?:[^"\\]|\\.)*"(.*?)\]?', content)
    if after_value and after_value.group(1).strip():
        message = "text follows the value's closing quote: a double quote inside a value is written \\\""
    elif not content.endswith("]"):
        message = "a tag must end with ']': write [Name \"value\"]"
    elif content.count('"') - content.count('\\"') < 2:
        message = 'a tag value goes between double quotes: write [Name "value"]'
    elif re.search(r'\\[^"\\]', content):
        message = 'only \\" and \\\\ are escapes in a tag value'
    elif name and not re.fullmatch(r"[^\W\d]\w*", name.group(1)):
        custom = name.group(1).startswith("_")
        form = CUSTOM_TAG_FORM if custom else "a letter, then letters, digits or '_'"
        message = f"a {'custom ' if custom else ''}tag's name is {form}, not {shown(name.group(1))!r}"
    else:
        message = 'a tag is written [Name "value"], one per line'
    raise HistoryError(source, number, message, text=content)


def _plain_hand(number: int, text: str, words: list[str]) -> HandLine | None:
    """A hand line written as the export writes it, ``hand K`` or ``hand K dealer S`` in any case, read without the
    pattern ``_HAND`` (in about two thirds of its time: 750 to 1,000 ns a line against 1,290); None for any other
    line, which the pattern then reads."""
    if (len(words) != 2 and len(words) != 4) or not _is_word(words[0], "hand"):
        return None
    hand = _number(words[1])
    if hand is None:
        return None
    if len(words) == 2:
        return HandLine(number, text, hand, None)
    dealer = _number(words[3])
    if dealer is None or not _is_word(words[2], "dealer"):
        return None
    return HandLine(number, text, hand, dealer)


def _is_word(written: str, word: str) -> bool:
    """Whether ``written`` is the ASCII ``word`` (in lower case) in any case."""
    return written == word or (written.isascii() and written.lower() == word)


def read_line(number: int, content: str, source: str, plain: bool = False) -> Line:
    """Read one content line (stripped, as ``scan`` gives it; ``plain``: known to be plain text,
    ``_PLAIN_BYTES``); a line that fits no form of the format is a ``HistoryError``."""
    if content.startswith("["):
        return _read_tag(number, content, source, plain)
    if not plain and NOT_TEXT.search(content) is not None:  # most lines hold none: the search alone is cheaper
        char = not_text(content, tab=True)
        if char:
            raise HistoryError(source, number, f"the line holds {char}: a history is printable text", text=content)
    # words one space apart: a line with no two spaces together already is when it is plain text (whose only
    # whitespace is the space) or ASCII without a tab (most lines are)
    plain_spaced = "  " not in content and (plain or (content.isascii() and "\t" not in content))
    text = content if plain_spaced else " ".join(content.split())
    long_number = _too_long(text) if len(text) > NUMBER_DIGITS else None
    if long_number:
        raise HistoryError(source, number, long_number, text=text)

    colon = text.find(":")
    if colon > 0:  # a deal, 'S: C C C': the seat's digits, a space at most (the words are one apart), a colon
        dealt = _number(text[: colon - 1] if text[colon - 1] == " " else text[:colon])
        if dealt is not None:
            listed = text[colon + 1 :]
            # str.split cuts at the whitespace that the pattern's \s is (the same characters), and is faster
            cards = tuple(c for c in _CARD_GAPS.split(listed) if c) if "," in listed else tuple(listed.split())
            return DealLine(number, text, dealt, cards)
    words = text.split(" ")  # an action: a seat (ASCII digits), a verb and its arguments, one space apart
    first = words[0]
    seat = _number(first) if len(words) > 1 else None
    if seat is not None:
        written, rest = words[1], words[2:]
        form = _READ_VERBS.get(written)
        if form is None:
            form = _READ_VERBS.get(written.lower())
        if form is None:
            verbs = sorted(FORMAT_VERBS | set(ARG_KINDS))
            near = did_you_mean(written.lower(), verbs)
            message = f"unknown verb {shown(written)!r}{near}; verbs: {', '.join(verbs)}"
            raise HistoryError(source, number, message, text=text)
        verb, kind = form
        if kind is None and rest:
            raise HistoryError(source, number, f"'{verb}' takes no argument", text=text)
        if kind in ONE_ARG_KINDS and len(rest) != 1:
            raise HistoryError(source, number, f"'{verb}' takes one argument", text=text)
        if kind == "word?" and len(rest) > 1:
            raise HistoryError(source, number, f"'{verb}' takes at most one argument", text=text)
        if kind == "cards" and not rest:
            raise HistoryError(source, number, f"'{verb}' takes one or more cards", text=text)
        return ActionLine(number, text, seat, verb, tuple(rest))
    plain_hand = _plain_hand(number, text, words)
    if plain_hand is not None:
        return plain_hand
    if _is_word(first, "end"):  # 'end A B'; any other spelling is the pattern's to read
        return EndLine(number, text, tuple(words[1:]))
    lowered = text.lower()
    if lowered.startswith("hand"):
        hand = _HAND.fullmatch(text)
        if not hand:
            raise HistoryError(source, number, "a hand begins with 'hand K dealer S'", text=text)
        dealer = hand.group(2)
        return HandLine(number, text, int(hand.group(1)), None if dealer is None else int(dealer))
    end = _END.fullmatch(text)
    if end:
        return EndLine(number, text, tuple(end.group(1).split()))
    expected = "a tag [Name \"value\"], 'hand K dealer S', a deal 'S: C C C', an action 'S verb' or 'end A B'"
    raise HistoryError(source, number, f"expected {expected}", text=text)


# ----------------------------------------------------------------------------------------------- visitor


@mypyc_attr(allow_interpreted_subclasses=True)
class Visitor:
    """What the parser calls, game by game. Subclass it and override what you need.

    ``handle_error`` is called with every ``HistoryError`` (from the text or from a visit method); the
    default raises it. If it returns, the parser skips the rest of that game (no ``end_game`` for it).
    """

    def begin_game(self, line: int) -> None:
        """A new game starts at ``line``."""

    def visit_tag(self, tag: TagLine) -> None:
        """A tag of the current game's tag section."""

    def visit_hand(self, hand: HandLine) -> None:
        """A ``hand K dealer S`` line."""

    def visit_deal(self, deal: tuple[DealLine, ...]) -> None:
        """One deal: consecutive deal lines, each naming a different seat."""

    def visit_action(self, action: ActionLine) -> None:
        """An ``S verb [arg…]`` line."""

    def visit_end(self, end: EndLine) -> None:
        """An ``end A B`` line."""

    def end_game(self) -> None:
        """The current game's last line has been visited."""

    def handle_error(self, error: HistoryError) -> None:
        raise error

    def settle(self) -> None:
        """Visit now what this visitor kept of the current game: the parser is about to report an error of the
        text, and an error of the lines before it comes first. Nothing to do by default."""


class _Parser:
    """Groups content lines into games and deals, and feeds them to a visitor."""

    def __init__(self, visitor: Visitor, source: str) -> None:
        self.visitor = visitor
        self.source = source
        self.in_game = False
        self.in_header = False
        self.skipping = False
        self.deal: list[DealLine] = []
        self.deal_seats: set[int] = set()  # the seats of ``deal``
        self.known: dict[str, RepeatedLine] = {}  # plain lines read before, by their text (``read``)

    def feed(self, number: int, content: str, plain: bool = False) -> None:
        is_tag = content.startswith("[")
        if (is_tag and not self.in_header) or not self.in_game:
            self.close()
            self.in_game, self.skipping = True, False
            self.visitor.begin_game(number)
        self.in_header = is_tag
        if self.skipping:
            return
        try:
            line = self.read(number, content, plain)
        except HistoryError as error:
            self.fail_text(error)
            return
        try:
            if isinstance(line, DealLine):
                if line.seat in self.deal_seats:
                    self._flush_deal_before(line)  # a seat dealt again: a new deal
                self.deal.append(line)
                self.deal_seats.add(line.seat)
                return
            self._flush_deal()
            visitor = self.visitor
            if isinstance(line, TagLine):
                visitor.visit_tag(line)
            elif isinstance(line, HandLine):
                visitor.visit_hand(line)
            elif isinstance(line, ActionLine):
                visitor.visit_action(line)
            else:
                visitor.visit_end(line)
        except HistoryError as error:
            self.fail(error)

    def read(self, number: int, content: str, plain: bool) -> Line:
        """``read_line``, remembering the lines of plain text but deals by their text: a history says a few
        hundred of them over and over (``0 play 3o``, ``1 vull``, ``hand 4 dealer 1``, ``[Variant "catalan"]``),
        and a line read before is the same line at another number, without reading its words again
        (``docs/speed.md``). Deal lines, mostly said once, and lines that fail, are read every time."""
        if plain:
            known = self.known.get(content)
            if known is not None:
                return known.at(number)
        line = read_line(number, content, self.source, plain)
        if plain and not isinstance(line, DealLine) and len(self.known) < KNOWN_LINES:
            self.known[content] = line
        return line

    def feed_error(self, number: int, error: HistoryError) -> None:
        """A line that cannot be read: the error of the game it belongs to (which starts there when the
        line comes before any game)."""
        if not self.in_game:
            self.close()
            self.in_game, self.in_header, self.skipping = True, False, False
            self.visitor.begin_game(number)
        self.fail_text(error)

    def _flush_deal(self) -> None:
        if self.deal:
            deal = tuple(self.deal)
            self.deal.clear()
            self.deal_seats.clear()
            self.visitor.visit_deal(deal)

    def _flush_deal_before(self, again: DealLine) -> None:
        """End the deal in progress because ``again`` deals one of its seats again (a redeal). When that
        deal lacks seats, the likelier mistake is the repeated seat (``1:`` written for ``2:``): say so, at
        its line."""
        try:
            self._flush_deal()
        except HistoryError as error:
            if error.rule != "deal-seats":
                raise
            message = f"seat {again.seat} is dealt again before every seat is dealt: a deal lists each seat once"
            raise HistoryError(error.source, again.line, message, text=again.text, rule=error.rule) from None

    def fail(self, error: HistoryError) -> None:
        self.deal.clear()
        self.deal_seats.clear()
        self.skipping = True
        self.visitor.handle_error(error)

    def settle(self) -> None:
        """Before an error of the text is reported, the visitor visits what it kept of the game (``Visitor.settle``):
        a game that fails so fails at its own line, before the error of the text, which it then swallows."""
        if self.in_game and not self.skipping:
            try:
                self.visitor.settle()
            except HistoryError as error:
                self.fail(error)

    def fail_text(self, error: HistoryError) -> None:
        """An error of the text (a line that cannot be read): the game's, unless the game failed before it."""
        self.settle()
        if not self.skipping:
            self.fail(error)

    def close(self) -> None:
        """End the current game, if any."""
        if self.in_game and not self.skipping:
            try:
                self._flush_deal()
                self.visitor.end_game()
            except HistoryError as error:
                self.fail(error)
        self.in_game = False


def _deal_lines(arg: str) -> tuple[DealLine, ...]:
    """The deal lines of a ``dealt`` event's ``arg`` (``0:3o,12c,5e 1:7b,1o,4e``)."""
    lines = []
    for part in arg.split():
        seat, sep, cards = part.partition(":")
        if not sep or not seat.isascii() or not seat.isdigit():
            raise HistoryError("", None, f"a dealt event's arg {arg!r} is not of the form 0:3o,12c,5e 1:...")
        texts = tuple(cards.split(",")) if cards else ()
        lines.append(DealLine(0, f"{seat}: {' '.join(texts)}", int(seat), texts))
    return tuple(lines)


def replay_rows(visitor: Visitor, tags: list[tuple[str, str]], hands: Sequence[Sequence[Any]]) -> None:
    """Drive ``visitor`` with one game of a dataset, as lines built from its rows rather than read from text
    (``truc export`` replays each game so): its ``tags`` (name, value), and its ``hands``, each (number,
    dealer, ..., steps), a step (seat, verb, arg) as the ``events`` table holds it. The engine's own steps
    are given as recorded (``cut``, ``deal N``), ``dealt`` as deal lines; no ``end`` line is given: the
    replay decides what each hand scored."""
    visitor.begin_game(0)
    for name, value in tags:
        visitor.visit_tag(TagLine(0, f'[{name} "{value}"]', name, value))
    for hand in hands:
        hand_no, dealer, steps = hand[0], hand[1], hand[-1]
        visitor.visit_hand(HandLine(0, f"hand {hand_no} dealer {dealer}", hand_no, dealer))
        for step in steps:
            seat, verb, arg = step
            if verb == DEALT:
                visitor.visit_deal(_deal_lines(arg or ""))
                continue
            line = _ROW_ACTIONS.get(step)
            if line is None:
                args = tuple(arg.split()) if arg is not None else ()
                line = ActionLine(0, " ".join((str(seat), verb, *args)), seat, verb, args)
                if len(_ROW_ACTIONS) < KNOWN_LINES:
                    _ROW_ACTIONS[step] = line
            visitor.visit_action(line)
    visitor.end_game()


_ROW_ACTIONS: Final[dict[Any, ActionLine]] = {}
"""The action lines ``replay_rows`` made, by their step (seat, verb, arg): a dataset holds the same few hundred
steps over and over, each the same line (at line 0, read by no one but the visitor), so it is made once per
process (``KNOWN_LINES`` at most), as ``_Parser.read`` reads a line said again once per range."""


def parse(text: str | ByteLines, visitor: Visitor, source: str = "<text>", *, whole: bool = True) -> bool:
    """Read every game of ``text`` (a text, or the lines of a stream) into ``visitor``; ``source`` names it
    in errors.

    ``whole=False`` reads a range of a file that more lines follow (a worker's share of a file split at game
    boundaries, ``history.ranges``): it returns whether the range ends where a game may begin, no ``{``
    comment open and no tag section in progress. Then the next range's first tag line begins a new game
    whatever came before it, and reading the two ranges apart gives what reading them together gives."""
    parser = _Parser(visitor, source)
    lines = scan(text_lines(text, source) if isinstance(text, str) else text, source, whole)
    open_at: int | None = None
    while True:
        try:
            number, content = next(lines)
        except StopIteration as stop:
            open_at = stop.value
            break
        except HistoryError as error:  # a '{' never closed: the current game cannot be trusted
            parser.settle()
            if parser.in_game and not parser.skipping:
                parser.fail(error)
            else:  # also after the game's own error: the games it swallowed would vanish unreported
                visitor.handle_error(error)
            break
        if isinstance(content, list):
            for offset, raw in enumerate(content):
                stripped = raw.strip()
                if stripped:
                    parser.feed(number + offset, stripped, True)
        elif isinstance(content, HistoryError):
            parser.feed_error(number, content)
        else:
            parser.feed(number, content)
    ends_clean = open_at is None and not parser.in_header
    if whole or ends_clean:  # else the last game goes on in the next range: both are read again as one
        parser.close()
    return ends_clean


# ------------------------------------------------------------------------------------------------ replay


@dataclass
class GameRecord:
    """A game read and replayed: its tags (canonical values), the engine's game and its hands."""

    source: str
    line: int
    tags: dict[str, str]
    game: Game
    hands: list[HandRecord]

    @property
    def complete(self) -> bool:
        """Whether the record reaches the end of the game."""
        return self.game.over

    @property
    def seed(self) -> int | None:
        return self.game.seed

    def policies(self) -> list[str | None]:
        """The ``PolicyN`` tags per seat, None where absent."""
        return [self.tags.get(f"Policy{seat}") for seat in range(self.game.n)]


@dataclass
class _Replay:
    """The state of the game being replayed."""

    line: int
    tags: dict[str, TagLine] = field(default_factory=dict)
    game: Game | None = None
    hands: list[HandRecord] = field(default_factory=list)
    hand_line: HandLine | None = None
    ended: bool = False  # the current hand's 'end' line was read


HAND_ENTRY: Final = 0
DEAL_ENTRY: Final = 1
ACTION_ENTRY: Final = 2
END_ENTRY: Final = 3
"""The kinds of the lines ``ReplayVisitor`` keeps for the native replay (``pipeline._fast_replay``), each entry
a tuple of four: ``(HAND_ENTRY, number, dealer or -1, line)``, ``(DEAL_ENTRY, cards per seat, cards on the deal's
first line, lines)``, ``(ACTION_ENTRY, action, None, line)``, ``(END_ENTRY, values, None, line)``."""

NATIVE_LINES: Final = 2000
"""The most lines of a game kept for the native replay: a game of Catalan says a few hundred. The engine reads a
longer one, as it reads every line, so that a history of any size, a game of a million lines too, is read in bounded
memory."""


def natively_replayed(game: Game) -> bool:
    """Whether the native replay (``pipeline._fast_replay``) follows ``game``'s rules: 2-player raise-ladder Truc
    as ``LadderGame`` itself plays it (Catalan), with the cut and one-card deal, 11 points, the hand rule
    ``first_decisive_or_eldest``, a tied trick led again by its leader and no signals."""
    variant = game.variant
    return (
        type(game) is LadderGame
        and game.n == 2
        and variant.hand_rule is first_decisive_or_eldest
        and game.tie_lead == "leader"
        and variant.one_card_deal
        and variant.eleven_points
        and not game.signals_on
    )


class ReplayVisitor(Visitor):
    """Replays each game through the engine.

    ``strict`` raises the first error; otherwise errors are kept in ``errors`` and their games skipped.
    Each valid game goes to ``on_game``, or is kept in ``games`` when no callback is given.

    The one thing carried from game to game is the rubber's match being read (``match``): a visitor reading
    a range of a file starts from the match its previous range ended in. Whether its games depended on that
    is known after: ``first_match`` is the match of the first game it checked (None: no game checked, or
    the first outside a match).

    The games ``natively_replayed`` accepts are replayed by the native replay when it is built: their lines are
    kept (``_entries``) until the game's end, then replayed natively but the last hand, which the engine replays so
    that the game is left as the engine leaves it. At the first line the native replay does not accept (a card
    not written canonically, an error of the text, a step the engine would refuse), the engine replays the lines
    kept and goes on: what the engine says of a game, and where, is said the same.
    """

    def __init__(
        self,
        source: str,
        *,
        strict: bool = True,
        on_game: Callable[[GameRecord], None] | None = None,
        match: MatchState | None = None,
    ) -> None:
        self.source = source
        self.strict = strict
        self.games: list[GameRecord] = []
        self.errors: list[HistoryError] = []
        self.on_game = on_game or self.games.append
        self._replay = _Replay(0)
        self.match = match  # the rubber's match being read
        self.matches_checked = 0  # games whose match was checked (every game read to its end)
        self.first_match: int | None = None
        self._deck: Deck | None = None  # the deck of ``_cards`` and ``_actions`` (``_use_deck``)
        self._configs: dict[tuple[str, str | None], Config] = {}  # by variant and Options tag: games share them
        self._cards: dict[str, int] = {}  # its cards' canonical texts
        self._actions: dict[str, Action] = {}  # the action of each action line's text read before, in that deck
        self._native: Any = accel.native("pipeline._fast_replay")
        self._entries: list[tuple[Any, ...]] | None = None  # a game's lines kept for the native replay

    # ------------------------------------------------------------------------------------------ errors

    def handle_error(self, error: HistoryError) -> None:
        if self.strict:
            raise error
        self.errors.append(error)

    def _error(self, line: Line | None, message: str, rule: str | None = None) -> HistoryError:
        if line is None:
            return HistoryError(self.source, self._replay.line, message, rule=rule)
        return HistoryError(self.source, line.line, message, text=line.text, rule=rule)

    def _rule_error(self, line: Line, error: RuleError) -> HistoryError:
        return self._error(line, error.message, error.rule)

    # ------------------------------------------------------------------------------------------ visits

    def begin_game(self, line: int) -> None:
        self._replay = _Replay(line)
        self._entries = None

    def visit_tag(self, tag: TagLine) -> None:
        tags = self._replay.tags
        if tag_rank(tag.name) is None:
            spelled = tag_spelling(tag.name)
            if spelled:
                message = f"unknown tag {shown(tag.name)!r}: tag names are case-sensitive: write {spelled!r}"
                raise self._error(tag, message)
            if tag.name.startswith("_"):
                raise self._error(tag, f"a custom tag's name is {CUSTOM_TAG_FORM}, not {shown(tag.name)!r}")
            near = did_you_mean(tag.name, TAG_NAMES)
            raise self._error(tag, f"unknown tag {shown(tag.name)!r}{near}: custom tags start with '_'")
        if tag.name in tags:
            raise self._error(tag, f"the tag {tag.name} is given twice (first at line {tags[tag.name].line})")
        tags[tag.name] = tag

    def visit_hand(self, hand: HandLine) -> None:
        entries = self._entries
        if entries is not None:
            self._keep(entries, (HAND_ENTRY, hand.number, -1 if hand.dealer is None else hand.dealer, hand))
            return
        replay = self._replay
        game = replay.game
        first = game is None
        if game is None:
            game = replay.game = self._start_game(hand)
        else:
            if not game.hand_over:
                raise self._error(hand, f"hand {game.hand_no} is not decided yet", "hand-not-over")
            try:
                game.next_hand()
            except RuleError as exc:
                score = game.result_text()
                raise self._error(hand, f"{exc.message} ({score}): no hand may follow", exc.rule) from None
        if hand.number != game.hand_no:
            raise self._error(hand, f"this is hand {game.hand_no} of the game, not hand {hand.number}", "hand-number")
        if hand.dealer is not None and hand.dealer != game.dealer:
            why = "the FirstDealer tag" if game.hand_no == 1 else "the deal passes to the next seat each hand"
            raise self._error(
                hand, f"hand {game.hand_no} is dealt by seat {game.dealer} ({why}), not seat {hand.dealer}", "dealer"
            )
        replay.hand_line = hand
        replay.ended = False
        if first and self._native is not None and natively_replayed(game):
            self._use_deck(game.variant.deck)
            self._entries = []

    def visit_deal(self, deal: tuple[DealLine, ...]) -> None:
        entries = self._entries
        if entries is not None:
            canonical = self._canonical_deal(deal)
            if canonical is not None:
                self._keep(entries, (DEAL_ENTRY, canonical, len(deal[0].cards), deal))
                return
            self._leave_native()
        game = self._require_hand(deal[0])
        if game.over:
            score = game.result_text()
            raise self._error(deal[0], f"the game is over ({score}): no deal may follow", "game-over")
        if game.hand_over:
            raise self._error(
                deal[0], f"hand {game.hand_no} is over: a new deal needs a 'hand {game.hand_no + 1}' line", "hand-over"
            )
        deck = game.variant.deck
        hands: list[list[int] | None] = [None] * game.n
        for line in deal:
            self._check_seat(game, line, line.seat)
            hands[line.seat] = [self._card(deck, text, line) for text in line.cards]
        missing = [str(seat) for seat, cards in enumerate(hands) if cards is None]
        if missing:
            raise self._error(
                deal[0],
                f"the deal lists no cards for seat {', '.join(missing)}{self._players_hint(game.config)}",
                "deal-seats",
            )
        cut = game.phase == Phase.CUT
        try:
            if cut:  # implicit: the cutter cut
                game.apply_checked(make_action(game.actor(), CUT))
            elif game.phase == Phase.DEAL_CHOICE:  # implicit: after 'nocut', the dealer dealt 1 or 3 cards
                game.apply_checked(make_action(game.actor(), DEAL, 1 if len(deal[0].cards) == 1 else 3))
        except RuleError as exc:
            raise self._rule_error(deal[0], exc) from None
        try:
            game.apply_deal([cards or [] for cards in hands])
        except RuleError as exc:
            culprit = self._deal_culprit(game, deal, exc.rule)
            message = exc.message
            if cut and exc.rule == "deal-size" and len(culprit.cards) == 1:
                message += " (a one-card deal follows the cutter's 'nocut')"
            raise self._error(culprit, message, exc.rule) from None

    def visit_action(self, line: ActionLine) -> None:
        entries = self._entries
        if entries is not None:
            action = self._kept_action(line)
            if action is not None:
                self._keep(entries, (ACTION_ENTRY, action, None, line))
                return
            self._leave_native()
        replay = self._replay
        game = replay.game
        if game is None or not 0 <= line.seat < game.n:
            game = self._require_hand(line)
            self._check_seat(game, line, line.seat)
        if game.phase in _DEALING and line.verb not in _DEALING_VERBS:
            if game.dealt:  # a deal inside the hand (la chanson, chanter, a "sec" redeal)
                message = (
                    f"hand {game.hand_no} waits for a deal of {game.deal_size()} cards each: its deal lines come first"
                )
            else:
                message = f"the cards of hand {game.hand_no} must be dealt first"
            raise self._error(line, message, "deal-expected")
        try:
            game.apply_checked(self._action(game, line))
        except RuleError as exc:
            raise self._rule_error(line, exc) from None
        if game.hand_over and len(replay.hands) < game.hand_no:
            replay.hands.append(game.last_hand)  # type: ignore[arg-type]

    def visit_end(self, end: EndLine) -> None:
        entries = self._entries
        if entries is not None:
            self._keep(entries, (END_ENTRY, end.values, None, end))
            return
        replay = self._replay
        game = self._require_hand(end)
        if replay.ended:
            raise self._error(end, f"hand {game.hand_no} already has its end line", "end")
        if not game.hand_over:
            raise self._error(end, f"hand {game.hand_no} is not decided yet", "hand-not-over")
        scored = game.end_values(game.last_hand)  # type: ignore[arg-type]
        if list(end.values) != scored and [v.lower() for v in end.values] != [v.lower() for v in scored]:
            said = " ".join(end.values) or "nothing"
            raise self._error(end, f"hand {game.hand_no} scores {' '.join(scored)} in the replay, not {said}", "end")
        replay.ended = True

    def end_game(self) -> None:
        if self._entries is not None:
            self._replay_natively()
        replay = self._replay
        game = replay.game
        if game is None:
            self._configure()
            raise self._error(None, "the game has no hands: a game needs at least one 'hand K dealer S'")
        if not game.hand_over:
            raise self._error(
                replay.hand_line,
                f"hand {game.hand_no} is not finished: the record stops before the hand is decided",
                "hand-unfinished",
            )
        result = replay.tags.get("Result")
        score = game.result_text()
        if result is not None and game.over and _score_text(result.value) != _score_text(score):
            raise self._error(result, f"the replay ends {score}, not {result.value}", "result")
        if result is not None and not game.over:
            problem = _not_a_final_score(game, result.value)
            if problem:
                raise self._error(result, f"the record stops at {score}: {result.value} {problem}", "result")
        self._check_match(game)
        tags = {name: tag.value for name, tag in replay.tags.items()}
        tags["Variant"] = game.variant.name
        tags["Options"] = game.config.options_text()
        tags["FirstDealer"] = str(game.first_dealer)
        if game.seed is not None:
            tags["Seed"] = str(game.seed)
        if game.over:
            tags["Result"] = score
        elif result is not None:  # the final score of a game recorded in part (FORMAT.md "Play")
            tags["Result"] = "-".join(str(int(v)) for v in result.value.split("-"))
        self.on_game(GameRecord(self.source, replay.line, tags, game, replay.hands))

    # ------------------------------------------------------------------------------------ native replay

    def _keep(self, entries: list[tuple[Any, ...]], entry: tuple[Any, ...]) -> None:
        """Keep a line for the native replay; at ``NATIVE_LINES``, give the game to the engine."""
        entries.append(entry)
        if len(entries) >= NATIVE_LINES:
            self._leave_native()

    def _canonical_deal(self, deal: tuple[DealLine, ...]) -> list[list[int]] | None:
        """The cards of a deal of both seats of a 2-player game, each written canonically, by seat; None for
        any other deal (the engine reads it)."""
        if len(deal) != 2:  # the parser gives a deal's seats once each
            return None
        cards = self._cards
        hands: list[list[int]] = [[], []]
        for line in deal:
            if not 0 <= line.seat < 2:
                return None
            held = hands[line.seat]
            for text in line.cards:
                index = cards.get(text)
                if index is None:
                    return None
                held.append(index)
        return hands

    def _kept_action(self, line: ActionLine) -> Action | None:
        """The engine's action for an action line kept for the native replay, or None when its words do not
        give one (the engine reads the line, and says why)."""
        action = self._actions.get(line.text)
        game = self._replay.game
        if action is not None or game is None:
            return action
        try:
            return self._action(game, line)
        except HistoryError:
            return None

    def _replay_natively(self) -> None:
        """Replay the game's kept lines: natively up to its last hand, the engine the rest; all of them by the
        engine when the native replay does not accept them."""
        entries = self._entries or []
        self._entries = None
        replay = self._replay
        game = replay.game
        last = len(entries) - 1
        while last >= 0 and entries[last][0] != HAND_ENTRY:
            last -= 1
        done = None
        if last > 0 and game is not None:
            done = self._native.replay(entries, last, game)
        start = 0
        if done is not None and game is not None:
            records, scores, dealer, hand_no = done
            game.scores = scores
            game.dealer = dealer
            game.hand_no = hand_no
            game.phase = HAND_OVER
            game.last_hand = records[-1]
            replay.hands.extend(records)
            start = last
        self._replay_entries(entries, start)

    def settle(self) -> None:
        """An error of the text follows the lines kept for the native replay: the engine replays them first."""
        if self._entries is not None:
            self._leave_native()

    def _leave_native(self) -> None:
        """Give the game back to the engine: it replays the lines kept, then reads the rest as they come."""
        entries = self._entries or []
        self._entries = None
        self._replay_entries(entries, 0)

    def _replay_entries(self, entries: list[tuple[Any, ...]], start: int) -> None:
        """The engine's replay of kept lines, from ``entries[start]``, as the visits would have made it."""
        for index in range(start, len(entries)):
            kind, _, _, line = entries[index]
            if kind == ACTION_ENTRY:
                self.visit_action(line)
            elif kind == DEAL_ENTRY:
                self.visit_deal(line)
            elif kind == HAND_ENTRY:
                self.visit_hand(line)
            else:
                self.visit_end(line)

    # ------------------------------------------------------------------------------------------ helpers

    def _check_match(self, game: Game) -> None:
        """A French rubber's games, read in order (``_Match``, ``_MatchWinner``): no game of a match follows
        the game that decided it, and the ``_MatchWinner`` is the side that won its game (a game recorded
        in part decides no match). A file may hold a match in part (``truc export --game``), so a match
        is not required to be whole; only what its games contradict is refused."""
        tags = self._replay.tags
        wins = rubber_wins(game.config)
        taken = match_columns({name: tag.value for name, tag in tags.items()})
        number = taken.get("_Match") if wins else None
        if not self.matches_checked:
            self.first_match = number
        self.matches_checked += 1
        if number is None:
            self.match = None  # a game outside a match ends the one being read
            return
        match = self.match if self.match is not None and self.match.number == number else None
        if match is None:
            match = MatchState(number, [0] * len(game.scores))
        if match.decided_at is not None:
            raise self._error(
                tags["_Match"],
                f"match {number} was decided by the game at line {match.decided_at}: "
                f"a rubber ends when a side has won {wins} games",
                "rubber",
            )
        winner = game.winner_team if game.over else None
        if "_MatchWinner" in taken:
            named = taken["_MatchWinner"]
            if winner is None:
                message = f"this game stops before its end ({game.result_text()}): it cannot decide match {number}"
                raise self._error(tags["_MatchWinner"], message, "rubber")
            if named != winner:
                message = (
                    f"team {winner} wins this game ({game.result_text()}), so it cannot give match {number} to "
                    f"team {named}: a match is won by the winner of its deciding game"
                )
                raise self._error(tags["_MatchWinner"], message, "rubber")
        if winner is not None:
            match.won[winner] += 1
            if match.won[winner] >= wins or "_MatchWinner" in taken:
                match.decided_at = self._replay.line
        self.match = match

    def _require_hand(self, line: Line) -> Game:
        game = self._replay.game
        if game is None:
            self._configure()
            raise self._error(line, "expected 'hand 1 dealer S' before the play of a game")
        return game

    def _check_seat(self, game: Game, line: Line, seat: int) -> None:
        if not 0 <= seat < game.n:
            raise self._error(
                line, f"seat {seat} does not exist in a {game.n}-player game{self._players_hint(game.config)}", "seat"
            )

    def _players_hint(self, config: Config) -> str:
        """Where a seat does not fit the player count: that the count is the variant's default, when the
        ``Options`` tag does not set it (a record of a 2-player game of a variant played by 4 by default)."""
        options = self._replay.tags.get("Options")
        if options is not None and "players" in {key.lower() for key in parse_options(options.value)}:
            return ""
        return f" (no players= in the Options tag: {config.variant.name} is played by {config.players} by default)"

    def _use_deck(self, deck: Deck) -> None:
        """Read cards and actions in ``deck``: what was read in another deck is forgotten."""
        if deck is not self._deck:
            self._deck = deck
            self._cards = {card: index for index, card in enumerate(deck.cards)}
            self._actions = {}

    def _card(self, deck: Deck, text: str, line: Line) -> int:
        self._use_deck(deck)
        index = self._cards.get(text)  # a card as written canonically; any other spelling is the deck's to read
        if index is not None:
            return index
        try:
            return deck.parse(text)
        except CardError as exc:
            raise self._error(line, str(exc).replace(text, shown(text))) from None

    def _ints(self, line: Line, texts: tuple[str, ...], message: str) -> list[int]:
        if not texts or not all(_is_number(t) for t in texts):
            raise self._error(line, message)
        return [int(t) for t in texts]

    def _action(self, game: Game, line: ActionLine) -> Action:
        """The engine's action for an action line; a text read before in the same deck gives the same action
        (the seat, the verb and its argument read from the words alone), taken from ``_actions``."""
        self._use_deck(game.variant.deck)
        action = self._actions.get(line.text)
        if action is None:
            action = make_action(line.seat, line.verb, self._arg(game, line) if line.args else None)
            if len(self._actions) < KNOWN_LINES:
                self._actions[line.text] = action
        return action

    def _arg(self, game: Game, line: ActionLine) -> int | str | None:
        """The engine's argument for an action line (``ARG_KINDS``): a card index, a number or a word."""
        kind = arg_kind(line.verb)
        if not line.args:
            return None
        deck = game.variant.deck
        if kind in CARD_ARG_KINDS:
            if line.args[0] == UNKNOWN_TEXT:
                if kind == "card|??":  # a card laid face down that nobody saw: one of the seat's unseen cards
                    return UNKNOWN
                raise self._error(line, f"'{line.verb}' needs the card played, not {UNKNOWN_TEXT}")
            return self._card(deck, line.args[0], line)
        if kind == "int" or (kind == "int|reste" and line.args[0].lower() != "reste"):
            expected = "a number or 'reste'" if kind == "int|reste" else "a number"
            return self._ints(line, line.args, f"'{line.verb}' takes {expected}")[0]
        if kind == "cards":
            return " ".join(deck.text(self._card(deck, text, line)) for text in line.args)
        return line.args[0].lower()

    def _deal_culprit(self, game: Game, deal: tuple[DealLine, ...], rule: str) -> DealLine:
        """The deal line an engine refusal of the deal points at."""
        if rule == "deal-size":
            return next((d for d in deal if len(d.cards) != game.deal_size()), deal[0])
        if rule == "card-twice":
            deck = game.variant.deck
            seen: set[int] = set()
            for line in deal:
                for text in line.cards:
                    card = deck.parse(text)
                    if card != UNKNOWN and card in seen:
                        return line
                    seen.add(card)
            if game.dealt:  # a deal inside the hand (la chanson, a "sec" redeal) draws from what is left
                left = set(game.stock)
                for line in deal:
                    if any(card != UNKNOWN and card not in left for card in map(deck.parse, line.cards)):
                        return line
        return deal[0]

    def _configure(self) -> tuple[Config, int | None, int | None]:
        """Check the tag section; return the configuration, the first dealer and the seed it gives."""
        tags = self._replay.tags
        variant_tag = tags.get("Variant")
        if variant_tag is None:
            raise self._error(None, 'the game has no Variant tag: a game begins with [Variant "catalan"]')
        try:
            variant = get_variant(variant_tag.value)
        except UnknownVariant as exc:
            raise self._error(variant_tag, str(exc).replace(variant_tag.value, shown(variant_tag.value))) from None
        options_tag = tags.get("Options")
        configured = (variant.name, None if options_tag is None else options_tag.value)
        config = self._configs.get(configured)
        if config is None:
            try:
                options = parse_options(options_tag.value) if options_tag else {}
                config = variant.configure({key.lower(): value for key, value in options.items()})
            except OptionError as exc:
                raise self._error(options_tag, str(exc)) from None
            self._configs[configured] = config
        n = config.players
        for tag in tags.values():
            index = seat_tag_index(tag.name)
            if index is not None and index >= n:
                raise self._error(
                    tag, f"seat {index} does not exist in a {n}-player game{self._players_hint(config)}", "seat"
                )
        date = tags.get("Date")
        if date is not None and not _DATE.fullmatch(date.value):
            raise self._error(date, "a Date is written YYYY.MM.DD ('?' for unknown digits)")
        if date is not None and not _is_calendar_date(date.value):
            raise self._error(date, f"{date.value} is not a date of the calendar (month 01-12, day within it)")
        for number_tag in (tags.get(name) for name in ("FirstDealer", "Seed", "Result")):
            long_number = None if number_tag is None else _too_long(number_tag.value)
            if long_number:
                raise self._error(number_tag, long_number)
        result = tags.get("Result")
        if result is not None and not _RESULT.fullmatch(result.value):
            raise self._error(result, "a Result is written A-B, team 0 first, e.g. 12-7")
        first_dealer = None
        dealer_tag = tags.get("FirstDealer")
        if dealer_tag is not None:
            if not _is_number(dealer_tag.value) or int(dealer_tag.value) >= n:
                raise self._error(dealer_tag, f"FirstDealer is a seat number, 0 to {n - 1}{self._players_hint(config)}")
            first_dealer = int(dealer_tag.value)
        seed = None
        seed_tag = tags.get("Seed")
        if seed_tag is not None:
            if not _is_number(seed_tag.value) or int(seed_tag.value) > INT64_MAX:
                raise self._error(seed_tag, f"a Seed is a whole number from 0 to {INT64_MAX}")
            seed = int(seed_tag.value)
        return config, first_dealer, seed

    def _start_game(self, hand: HandLine) -> Game:
        config, first_dealer, seed = self._configure()
        if first_dealer is None:
            if hand.dealer is None:
                raise self._error(hand, "the first dealer is unknown: write 'hand 1 dealer S' or a FirstDealer tag")
            if hand.dealer >= config.players:
                raise self._error(
                    hand,
                    f"seat {hand.dealer} does not exist in a {config.players}-player game{self._players_hint(config)}",
                    "seat",
                )
            first_dealer = hand.dealer
        return new_game(config, seed=seed, first_dealer=first_dealer)


_DEALING: Final = frozenset((Phase.CUT, Phase.DEAL_CHOICE, Phase.DEAL))
"""The phases before a hand's cards are dealt: only the dealing steps (``_DEALING_VERBS``) may come then."""
_DEALING_VERBS: Final = frozenset((CUT, NOCUT, DEAL))


def _not_a_final_score(game: Game, text: str) -> str | None:
    """Why ``text`` cannot be the final score of ``game``, recorded up to its current score only, or None.
    Scores never go down, and a game ends when one side reaches the target: with two sides, only one side
    scores a hand, so the other is still below it (3-player Trut's passed fortial gives two sides a petit); and
    the winner ends at most one hand past the target (``Game.most_in_one_hand``)."""
    values = text.split("-")
    if len(values) != len(game.scores) or not all(_is_number(v) for v in values):
        return f"is not a score of {len(game.scores)} sides in {game.variant.unit}"
    final = [int(v) for v in values]
    if any(end < now for end, now in zip(final, game.scores, strict=True)):
        return "would have a side lose what it scored"
    ahead = sorted(final)
    if len(final) == 2:  # one side scores a hand: the game ends as it reaches the target, the other below
        if ahead[1] < game.target or ahead[0] >= game.target:
            return f"is not a game's end: one side at {game.target} {game.variant.unit} or more, the other below"
    elif ahead[-1] < game.target or ahead[-2] == ahead[-1]:  # 3 sides: two may pass the target in one hand
        return f"is not a game's end: one side at {game.target} {game.variant.unit} or more, ahead of the others"
    most = game.target - 1 + game.most_in_one_hand()
    if ahead[-1] > most:
        return f"is not a game's end: no side can end above {most} {game.variant.unit}"
    return None


def _score_text(text: str) -> str:
    """A score as compared with the replay's: numbers without their leading zeros, any case."""
    return "-".join(str(int(part)) if _is_number(part) else part.lower() for part in text.split("-"))


MATCH_TAGS: Final = {"_Match": "match_no", "_MatchWinner": "match_winner_team"}
"""Custom tags (FORMAT.md allows ``_anything``) that keep a French rubber's match with its games."""

_CANONICAL_WHOLE = re.compile(r"0|[1-9][0-9]{0,17}")
"""A whole number as ``str`` writes it, small enough for an int64 column."""


def match_columns(tags: Mapping[str, str]) -> dict[str, int]:
    """The ``MATCH_TAGS`` that their columns hold, by tag name: those that an export writes back exactly as
    read (it writes them from the columns first among the custom tags, in ``MATCH_TAGS`` order). So they
    must lead the custom tags in that order, each a canonical whole number (``_MatchWinner`` a team); any
    other ``_Match`` or ``_MatchWinner`` stays text in ``games.tags``, as every custom tag does."""
    taken: dict[str, int] = {}
    expected = iter(MATCH_TAGS)
    for name, value in tags.items():
        if not name.startswith("_"):
            continue
        if name != next(expected, None) or not _CANONICAL_WHOLE.fullmatch(value):
            break
        if name == "_MatchWinner" and int(value) > 2:
            break
        taken[name] = int(value)
    return taken


@dataclass
class MatchState:
    """The games read so far of a rubber's match: its number, the games each side won, and the line of the
    game that decided it (a side's last win needed, or the game tagged ``_MatchWinner``)."""

    number: int
    won: list[int]
    decided_at: int | None = None


# ---------------------------------------------------------------------------------------------- results


@dataclass
class ReadResult:
    """The valid games of a text, and the errors of the games skipped (lenient reading only)."""

    games: list[GameRecord]
    errors: list[HistoryError]


def read_text(text: str, source: str = "<text>", *, skip_invalid: bool = False) -> ReadResult:
    """Read and replay every game of ``text``. Strict unless ``skip_invalid``."""
    visitor = ReplayVisitor(source, strict=not skip_invalid)
    parse(text, visitor, source)
    return ReadResult(visitor.games, visitor.errors)
