"""Mutation operators for fuzzing the `.truc` reader (tests/test_history_fuzz.py): each takes the bytes of a
history and a seeded generator and returns other bytes, in the manner of the audit that found issue 26's
crashes (25 operators, stacked 1 to 4 at a time over valid files). Some keep the text well formed and
change what it says (a card, a seat, a verb, a tag), so that the engine's rules are reached; others break
the text itself (bytes that are not UTF-8, control characters, huge numbers, unclosed comments)."""

from __future__ import annotations

import random
import re
from collections.abc import Callable

Mutation = Callable[[bytes, random.Random], bytes]

CARDS = ["3o", "12c", "5e", "7b", "1o", "4c", "10h", "14s", "ad", "8h", "??", "13c", "0o", "3x", "11E", "2B"]
VERBS = [
    "play", "cover", "truc", "retruc", "quatre-val", "joc-fora", "raise", "trut", "accept", "fold", "refuse",
    "redeal", "envit", "torne", "falta", "envit-falta", "nocut", "hold", "pass", "sing", "nosing", "ask",
    "discard", "signal", "cut", "deal", "vull", "bluff", "Play", "raise reste", "trut brelan", "ask 9",
]  # fmt: skip
VARIANTS = ["catalan", "french", "trut", "trut-gatinaise", "trut-gatine", "valencian", "truc", "CATALAN", ""]
ODD_TEXT = [
    "\x00", "\x01", "\x1b[31m", "\t", "\ufeff", "\uffff", "\ufffe", "\u2028", "\r", "\r\n", "\\", '"', ";", "{",
    "}", "[", "]", ":", ",", "é", "😀", " ", "-", "9" * 30, "1" * 5000, "\x85", "\udcff",
]  # fmt: skip


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def _join(lines: list[bytes]) -> bytes:
    return b"\n".join(lines)


def _pick_line(lines: list[bytes], rng: random.Random, pattern: bytes = b"") -> int | None:
    """A random line holding ``pattern`` (any line when empty), or None."""
    found = [i for i, line in enumerate(lines) if pattern in line]
    return rng.choice(found) if found else None


def _text(value: str) -> bytes:
    return value.encode("utf-8", "surrogatepass")


def delete_line(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    if lines:
        del lines[rng.randrange(len(lines))]
    return _join(lines)


def duplicate_line(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    i = rng.randrange(len(lines))
    lines.insert(i, lines[i])
    return _join(lines)


def swap_adjacent_lines(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    if len(lines) > 1:
        i = rng.randrange(len(lines) - 1)
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    return _join(lines)


def move_line(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    line = lines.pop(rng.randrange(len(lines)))
    lines.insert(rng.randrange(len(lines) + 1), line)
    return _join(lines)


def replace_card(data: bytes, rng: random.Random) -> bytes:
    cards = list(re.finditer(rb"(?<=[ :])(?:1[0-4]|[0-9])[a-zA-Z](?=[ \n\r,]|$)|\?\?", data))
    if not cards:
        return data
    found = rng.choice(cards)
    return data[: found.start()] + _text(rng.choice(CARDS)) + data[found.end() :]


def change_seat(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    i = _pick_line(lines, rng)
    assert i is not None
    stripped = lines[i].lstrip()
    if stripped[:1].isdigit():
        indent = lines[i][: len(lines[i]) - len(stripped)]
        seat = rng.choice([b"0", b"1", b"2", b"3", b"5", b"6", b"00", b"99", b"12345678901234567890"])
        lines[i] = indent + re.sub(rb"^[0-9]+", seat, stripped)
    return _join(lines)


def replace_verb(data: bytes, rng: random.Random) -> bytes:
    actions = list(re.finditer(rb"(?m)^(\s*[0-9]+ )([a-z-]+)", data))
    if not actions:
        return data
    found = rng.choice(actions)
    return data[: found.start(2)] + _text(rng.choice(VERBS)) + data[found.end(2) :]


def insert_bytes(data: bytes, rng: random.Random) -> bytes:
    at = rng.randrange(len(data) + 1)
    noise = rng.choice([b"\xff", b"\xe9", b"\xc3", b"\x00", b"\x80\x80", bytes([rng.randrange(256)])])
    return data[:at] + noise + data[at:]


def truncate(data: bytes, rng: random.Random) -> bytes:
    return data[: rng.randrange(len(data) + 1)]


def change_number(data: bytes, rng: random.Random) -> bytes:
    numbers = list(re.finditer(rb"[0-9]+", data))
    if not numbers:
        return data
    found = rng.choice(numbers)
    new = rng.choice([b"0", b"1", b"2", b"3", b"11", b"12", b"24", b"-1", b"007", b"9" * 19, b"9" * 25])
    return data[: found.start()] + new + data[found.end() :]


def flip_case(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    i = rng.randrange(len(lines))
    lines[i] = lines[i].swapcase()
    return _join(lines)


def insert_comment_mark(data: bytes, rng: random.Random) -> bytes:
    at = rng.randrange(len(data) + 1)
    return data[:at] + rng.choice([b"{", b"}", b";", b"{ x }", b"; }", b'"']) + data[at:]


def duplicate_game(data: bytes, rng: random.Random) -> bytes:
    games = [m.start() for m in re.finditer(rb"(?m)^\[Variant", data)]
    if not games:
        return data
    start = rng.choice(games)
    end = next((g for g in games if g > start), len(data))
    return data[:end] + b"\n" + data[start:end] + data[end:]


def drop_or_double_tag(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    i = _pick_line(lines, rng, b"[")
    if i is None:
        return data
    if rng.random() < 0.5:
        del lines[i]
    else:
        lines.insert(i, lines[i])
    return _join(lines)


def change_tag_value(data: bytes, rng: random.Random) -> bytes:
    tags = list(re.finditer(rb'(?m)^\[(\w+) "([^"\n]*)"\]', data))
    if not tags:
        return data
    found = rng.choice(tags)
    name = found.group(1)
    if name == b"Variant":
        value = rng.choice(VARIANTS)
    elif name == b"Options":
        value = rng.choice(["players=2", "players=4", "players=3", "players=7", "signals=on", "rubber=off", "x=1"])
    elif name in (b"_Match", b"_MatchWinner", b"FirstDealer", b"Seed"):
        value = rng.choice(["0", "1", "2", "3", "9223372036854775808", "-1", ""])
    elif name == b"Result":
        value = rng.choice(["12-10", "0-0", "1-12", "24-0", "abc", "12-10-3", "12p-1l"])
    else:
        value = rng.choice(ODD_TEXT) * rng.randint(1, 3)
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return data[: found.start(2)] + _text(escaped) + data[found.end(2) :]


def insert_huge_number(data: bytes, rng: random.Random) -> bytes:
    numbers = list(re.finditer(rb"[0-9]+", data))
    if not numbers:
        return data
    found = rng.choice(numbers)
    return data[: found.start()] + b"1" * rng.choice([20, 4301, 10_000]) + data[found.end() :]


def change_line_ends(data: bytes, rng: random.Random) -> bytes:
    end = rng.choice([b"\r\n", b"\r"])
    if rng.random() < 0.5:
        return data.replace(b"\n", end)
    lines = _lines(data)
    i = rng.randrange(len(lines))
    return _join(lines[:i]) + end + _join(lines[i:])


def insert_bom(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    i = rng.randrange(len(lines))
    lines[i] = b"\xef\xbb\xbf" + lines[i]
    return _join(lines)


def swap_hands(data: bytes, rng: random.Random) -> bytes:
    hands = [m.start() for m in re.finditer(rb"(?m)^hand ", data)]
    if len(hands) < 3:
        return data
    i = rng.randrange(len(hands) - 2)
    a, b, c = hands[i], hands[i + 1], hands[i + 2]
    return data[:a] + data[b:c] + data[a:b] + data[c:]


def replace_character(data: bytes, rng: random.Random) -> bytes:
    if not data:
        return data
    at = rng.randrange(len(data))
    return data[:at] + _text(rng.choice(ODD_TEXT)) + data[at + 1 :]


def delete_character(data: bytes, rng: random.Random) -> bytes:
    if not data:
        return data
    at = rng.randrange(len(data))
    return data[:at] + data[at + 1 :]


def splice_from(corpus: list[bytes]) -> Mutation:
    """Lines of another file of the corpus put in place of some of this one's."""

    def splice(data: bytes, rng: random.Random) -> bytes:
        lines, other = _lines(data), _lines(rng.choice(corpus))
        start, take = rng.randrange(len(lines)), rng.randrange(len(other))
        return _join(lines[:start] + other[take : take + rng.randint(1, 8)] + lines[start + rng.randint(0, 8) :])

    return splice


def insert_long_line(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    i = rng.randrange(len(lines) + 1)
    lines.insert(i, rng.choice([b"0 play ", b'[Event "', b"; ", b"0: ", b""]) + b'"' * rng.choice([100, 5000]))
    return _join(lines)


def repeat_deal_lines(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    i = _pick_line(lines, rng, b": ")
    if i is None:
        return data
    extra = [b"  %d: 3o 12c 5e" % seat for seat in range(rng.choice([2, 7, 300]))]
    return _join(lines[:i] + extra + lines[i:])


def mutations(corpus: list[bytes]) -> list[Mutation]:
    """The 25 operators, the splice drawing from ``corpus``."""
    return [
        delete_line, duplicate_line, swap_adjacent_lines, move_line, replace_card, change_seat, replace_verb,
        insert_bytes, truncate, change_number, flip_case, insert_comment_mark, duplicate_game, drop_or_double_tag,
        change_tag_value, insert_huge_number, change_line_ends, insert_bom, swap_hands, replace_character,
        delete_character, splice_from(corpus), insert_long_line, repeat_deal_lines,
        lambda data, rng: data,  # unchanged: the valid files themselves, now and then
    ]  # fmt: skip


def mutate(data: bytes, operators: list[Mutation], rng: random.Random) -> tuple[bytes, list[str]]:
    """``data`` with 1 to 4 operators applied, and their names."""
    names = []
    for _ in range(rng.randint(1, 4)):
        operator = rng.choice(operators)
        names.append(getattr(operator, "__name__", "?"))
        data = operator(data, rng) if data else data
    return data, names
