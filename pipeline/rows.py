"""Turn played games (the engine's ``HandRecord``s) into rows of the four tables.

Both the simulator and the importer go through here, so a simulated game and the same game read back
from text give the same rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from pipeline.cards import UNKNOWN, UNKNOWN_TEXT, Deck
from pipeline.engine.actions import ACCEPT, ARG_KINDS, CARD_ARG_KINDS, DEALT, FOLD, PLAY
from pipeline.engine.game import Game, HandRecord
from pipeline.engine.valencian import ENVIT, ENVIT_FALTA, FALTA, TORNE
from pipeline.parts import HAND_DETAIL_COLUMNS, SEAT_DETAIL_COLUMNS, TableBatch
from pipeline.strength import hand_strength

CARD_VERBS: Final = frozenset(verb for verb, kind in ARG_KINDS.items() if kind in CARD_ARG_KINDS and verb != PLAY)
"""Verbs other than ``play`` whose argument is one card (``cover``): written as the card's text."""

ENVIT_CALLS: Final = frozenset((ENVIT, TORNE, FALTA, ENVIT_FALTA))
ACCEPT_OR_FOLD: Final = frozenset((ACCEPT, FOLD))
"""The envit ladder's calls; they and the ``accept`` and ``fold`` rows are its rows (``envit_step``,
docs/data.md)."""
KIND_RAISE: Final = "raise"
KIND_PLAY: Final = "play"
"""The events' ``kind`` of a raise and of a card played (docs/data.md)."""


def dealt_text(deck: Deck, dealt: Sequence[Sequence[int]]) -> str:
    """The ``arg`` of a ``dealt`` event: ``0:3o,12c,5e 1:7b,1o,4e``."""
    return " ".join(f"{seat}:{deck.texts(cards, ',')}" for seat, cards in enumerate(dealt))


def _cards_texts(texts: tuple[str, ...], seat: int, cards: tuple[int, ...]) -> tuple[str, str]:
    """A dealt hand's text (``3o 12c 5e``) and its part of the ``dealt`` event (``0:3o,12c,5e``), from the
    card texts (``texts[-1]`` is the unknown card's). Built each time rather than kept per hand: a table of
    every hand dealt is too big to stay in the processor's cache, and a lookup that misses costs more than
    the two small strings."""
    if len(cards) == 3:
        a, b, c = texts[cards[0]], texts[cards[1]], texts[cards[2]]
        return f"{a} {b} {c}", f"{seat}:{a},{b},{c}"
    named = [texts[card] for card in cards]
    return " ".join(named), f"{seat}:{','.join(named)}"


def add_game(
    batches: dict[str, TableBatch],
    game_id: int,
    game: Game,
    hands: Sequence[HandRecord],
    policies: Sequence[str | None],
    source: str,
    complete: bool = True,
    match_no: int | None = None,
    match_winner: int | None = None,
    tags: str | None = None,
    players: Sequence[str | None] = (),
) -> int:
    """Append one game's rows to ``batches``; return the number of hands added. An imported game gives
    its other tags (``tags``, JSON) and who sat at each seat (``players``, by seat; empty when unknown)."""
    variant = game.variant
    deck = variant.deck
    texts_or_unknown = (*deck.cards, UNKNOWN_TEXT)
    n = game.n
    team_of = game.team_of
    opponents = game.opponents
    complete = complete and game.over
    batches["games"].append(
        (
            game_id,
            variant.name,
            n,
            game.config.options_text(),
            None if game.seed is None else game.seed,
            game.first_dealer,
            len(hands),
            complete,
            game.winner_team if complete else None,
            game.scores[0],
            game.scores[1],
            source,
            game.sides,
            game.scores[2] if game.sides > 2 else None,
            variant.unit,
            match_no,
            match_winner,
            tags,
        )
    )
    three_sides = game.sides > 2
    seat_values = variant.seat_values
    hand_columns = batches["hands"].columns
    seat_columns = batches["seats"].columns
    # Each table's native builder (pipeline._fast_rows, once compiled: parts.new_batches(native=True)), or None
    hands_native = batches["hands"].native
    seats_native = batches["seats"].native
    player_of = list(players) + [None] * (n - len(players))
    policy_of = list(policies)  # lists: indexed natively once compiled, where a Sequence is not
    details_index = _DetailsIndex()
    events_native = batches["events"].native
    event_columns = batches["events"].columns
    if events_native is not None and not three_sides and seat_values is None:
        # Every row of the game natively, the same as the loop below (tests/test_fast_rows.py)
        events_native.add_hands(
            hands_native,
            seats_native,
            game_id,
            hands if isinstance(hands, list) else list(hands),
            team_of,
            policy_of,
            player_of,
            texts_or_unknown,
            deck,
            variant,
            opponents,
            details_index.values,
        )
        return len(hands)
    # Boxed once: appended to every row of the game, an int would become a new Python int each time.
    game_key: object = game_id
    for hand in hands:
        h: object = hand.hand_no
        tricks = list(hand.tricks) + [None] * (3 - len(hand.tricks))
        row: list[object] = [
            game_key,
            h,
            hand.dealer,
            hand.eldest,
            team_of[hand.eldest],
            hand.cards_dealt,
            hand.score_before[0],
            hand.score_before[1],
            hand.stake,
            hand.ended_by,
            hand.winner_team,
            hand.points[0],
            hand.points[1],
            len(hand.tricks),
            tricks[0],
            tricks[1],
            tricks[2],
            hand.tie_rule,
        ]
        row.extend(details_index.values(hand, three_sides))
        _append_row(hands_native, hand_columns, row)
        signals = hand.signals
        dealt_parts: list[str] = []  # the hand's dealt event, from the texts of the seat rows
        pct_of: list[float | None] = []  # each seat's strength_pct, for its events
        for seat, cards in enumerate(hand.dealt):
            text, dealt_part = _cards_texts(texts_or_unknown, seat, cards)
            dealt_parts.append(dealt_part)
            unknown = _has_unknown(cards)
            if unknown:
                strength: float | None = None
                pct: float | None = None
            else:
                strength, pct = hand_strength(variant, cards, opponents)
            pct_of.append(pct)
            seat_row: list[object] = [
                game_key,
                h,
                seat,
                team_of[seat],
                policy_of[seat],
                text,
                strength,
                pct,
                signals[(seat - hand.eldest) % n] if signals else None,
            ]
            if seat_values is not None and not unknown:
                extra = seat_values(cards)
                for name in SEAT_DETAIL_COLUMNS:
                    seat_row.append(extra.get(name))
            else:
                seat_row.extend(_NO_SEAT_DETAILS)
            seat_row.append(player_of[seat])
            _append_row(seats_native, seat_columns, seat_row)
        dealt_arg = " ".join(dealt_parts)
        if events_native is not None:
            events = hand.event_tuples
            events_native.add_hand(
                game_id, h, events, hand.turns, team_of, pct_of, texts_or_unknown, dealt_arg, hand.dealt, deck
            )
        else:
            _add_events(event_columns, game_key, h, hand, team_of, pct_of, texts_or_unknown, dealt_arg, deck)
    return len(hands)


def _append_row(native: Any, columns: list[list[object]], row: list[object]) -> None:
    """Append a row, whole, to a table's native builder when it has one, or value by value to its columns."""
    if native is not None:
        native.append(row)
    else:
        for i in range(len(row)):
            columns[i].append(row[i])


_NO_SEAT_DETAILS: Final[list[object]] = [None] * len(SEAT_DETAIL_COLUMNS)


def _add_events(
    columns: list[list[object]],
    game_key: object,
    h: object,
    hand: HandRecord,
    team_of: tuple[int, ...],
    pct_of: list[float | None],
    texts_or_unknown: tuple[str, ...],
    dealt_arg: str,
    deck: Deck,
) -> None:
    """Append one hand's events to the events' ``columns``: its game (``game_key``) and number (``h``), the
    team of each seat, each seat's strength_pct (``pct_of``), the card texts (the unknown card's last), the
    ``arg`` of the hand's deal (``dealt_arg``, from the seat rows' texts). The reference of the native builder
    ``pipeline._fast_rows.EventRows.add_hand``, which the simulator and the importer use once compiled."""
    (e_game, e_hand, e_seq, e_seat, e_team, e_verb, e_arg, e_kind, e_answers, e_could, e_trick, e_before,
     e_after, e_to_play, e_envit_step, e_raise_seq, e_raise_stake, e_out_answers, e_out_folded, e_out_accepted,
     e_out_raised, e_pct) = columns  # fmt: skip
    events = hand.event_tuples
    turns = hand.turns or (-1,) * len(events)
    # The facts of the raise ladder, as the hand goes (docs/data.md, "events"): the latest raise (its seq,
    # stake and row, whose outcome its answers fill in) and whether the latest envit-ladder row was a call.
    raise_seq = -1
    raise_stake: object = None
    raise_row = -1
    after_call = False
    for seq in range(len(events)):
        seat, verb, raw, kind, answers, could_raise, trick_no, stake_before, stake_after = events[seq]
        if verb == PLAY or verb in CARD_VERBS:
            arg: str | None = texts_or_unknown[raw]  # a covered card nobody saw is UNKNOWN: "??"
        elif verb == DEALT:
            # the hand's deal from the seat rows' texts; a later deal (la chanson's extra cards) directly
            arg = dealt_arg if raw is hand.dealt else dealt_text(deck, raw)
        else:
            arg = None if raw is None else str(raw)
        turn = turns[seq]
        e_game.append(game_key)
        e_hand.append(h)
        e_seq.append(seq)
        e_seat.append(seat if seat >= 0 else None)
        e_team.append(team_of[seat] if seat >= 0 else None)
        e_verb.append(verb)
        e_arg.append(arg)
        e_kind.append(kind)
        e_answers.append(answers)
        e_could.append(could_raise)
        e_trick.append(trick_no or None)
        e_before.append(stake_before)
        e_after.append(stake_after)
        e_to_play.append(turn if turn >= 0 else None)
        is_call = verb in ENVIT_CALLS
        is_reply = verb in ACCEPT_OR_FOLD
        envit_step = is_call or (after_call and is_reply)
        if is_call or is_reply:
            after_call = is_call
        e_envit_step.append(envit_step)
        e_pct.append(pct_of[seat] if seat >= 0 else None)
        if answers and not envit_step and raise_seq >= 0:
            e_raise_seq.append(raise_seq)
            e_raise_stake.append(raise_stake)
            _add_answer(e_out_answers, e_out_folded, e_out_accepted, e_out_raised, raise_row, verb, kind)
        else:
            e_raise_seq.append(None)
            e_raise_stake.append(None)
        if kind == KIND_RAISE:
            raise_seq, raise_stake, raise_row = seq, stake_after, len(e_game) - 1
            e_out_answers.append(0)
        else:
            e_out_answers.append(None)
        e_out_folded.append(None)
        e_out_accepted.append(None)
        e_out_raised.append(None)


NO_ARG: Final = b"\xff\xff\xff\xff"
"""What ``played`` writes for an event without an argument, where an argument's size goes."""


def played(events: TableBatch, first: int) -> bytes:
    """The ``seat``, ``verb`` and ``arg`` of the events' rows from ``first`` on, as bytes: for each row the seat
    plus one in a byte (0: none, the chance step ``dealt``), then the verb and the arg, each as its UTF-8 size in 4
    bytes (little-endian) and its bytes, ``NO_ARG`` for no arg. What a game's identity digests (``pipeline.history.
    ranges.game_identity``): the rows are built once, and reading them back costs far less than serialising the
    hands' event tuples (``marshal``: 8% of an import's instructions). The native builder writes the same bytes
    from its columns (``pipeline._fast_rows.EventRows.played``)."""
    if events.native is not None:
        data: bytes = events.native.played(first)
        return data
    names = events.schema.names
    seats, verbs, args = (events.columns[names.index(name)] for name in ("seat", "verb", "arg"))
    out = bytearray()
    for row in range(first, len(seats)):
        seat = seats[row]
        out.append(0 if seat is None else seat + 1)
        out += _sized(verbs[row])
        arg = args[row]
        out += NO_ARG if arg is None else _sized(arg)
    return bytes(out)


def _sized(text: str) -> bytes:
    data = text.encode("utf-8")
    return len(data).to_bytes(4, "little") + data


def _add_answer(
    answers: list[object],
    folded: list[object],
    accepted: list[object],
    raised: list[object],
    row: int,
    verb: str,
    kind: str,
) -> None:
    """Count an answer (``verb``, ``kind``) in the outcome of the raise at ``row`` of the events' columns: its
    answers, whether every one folds, whether one accepts (an ``accept``, or a play that accepts) and whether
    one raises back."""
    count = answers[row]
    assert isinstance(count, int)
    fold = verb == FOLD
    accept = verb == ACCEPT or kind == KIND_PLAY
    back = kind == KIND_RAISE
    if count == 0:
        folded[row], accepted[row], raised[row] = fold, accept, back
    else:
        folded[row] = fold and folded[row] is True
        accepted[row] = accept or accepted[row] is True
        raised[row] = back or raised[row] is True
    answers[row] = count + 1


_PLAIN_TAIL: list[object] = [False] + [None] * (len(HAND_DETAIL_COLUMNS) - 1)  # void=False, every other extra null


_DETAIL_INDEX: Final = {name: i for i, name in enumerate(HAND_DETAIL_COLUMNS)}
_VOID, _POINTS2, _SCORE2 = [_DETAIL_INDEX[name] for name in ("void", "points_team2", "score_before_team2")]


def _has_unknown(cards: tuple[int, ...]) -> bool:
    """Whether a dealt hand holds a card nobody saw (an imported record): compiled, a loop over ints, several
    times cheaper than ``in`` on a tuple, which compares objects."""
    return any(card == UNKNOWN for card in cards)


class _DetailsIndex:
    """A hand's variant-specific columns, in schema order, from ``hand.details`` by name. A family gives its
    details in the same order at every hand, so the positions found for one hand are kept and reused while
    the names are the same objects (the engine's literals): no lookup by name per hand."""

    def __init__(self) -> None:
        self.names: list[str] = []
        self.positions: list[int] = []

    def values(self, hand: HandRecord, three_sides: bool) -> list[object]:
        details = hand.details
        if not details and not three_sides and hand.winner_team is not None:
            return _PLAIN_TAIL  # the common case, without building a list per hand
        values: list[object] = [None] * len(HAND_DETAIL_COLUMNS)
        values[_VOID] = hand.winner_team is None
        if three_sides:
            values[_POINTS2] = hand.points[2]
            values[_SCORE2] = hand.score_before[2]
        if not self._same_names(details):
            self.names = [name for name, _ in details]
            self.positions = [_DETAIL_INDEX[name] for name in self.names]
        positions = self.positions
        for i in range(len(details)):  # a family's own details take precedence
            values[positions[i]] = details[i][1]
        return values

    def _same_names(self, details: tuple[tuple[str, object], ...]) -> bool:
        names = self.names
        if len(names) != len(details):
            return False
        return all(details[i][0] is names[i] for i in range(len(names)))
