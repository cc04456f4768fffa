# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""The native builder of the tables' rows: what ``pipeline.rows.add_game`` appends, written into C arrays that
become Arrow arrays without a Python object per value. ``EventRows`` builds the events from a hand's event
tuples, and gives back a game's seat, verb and arg as the bytes its identity digests (``played``); ``Rows`` keeps
the rows of any other table, given whole.

Why: a 2-player Catalan hand writes about 200 values (22 columns for each of six events, a hand row of 50
columns, two seat rows). Compiled by mypyc, ``add_game`` appended each to a Python list, and Arrow then read every
list back, checking each object's type: an import's worker spent about 20% of its instructions there
(``docs/speed.md``, "The rows built natively").

``EventRows.add_hand`` is a second copy of one loop of ``pipeline.rows`` (``_add_events``), and
``EventRows.add_hands`` of another (``add_game``'s, over a game's hands and seats, then each hand's events as
``add_hand``); ``pipeline.rows`` stays the reference and the path of pure Python. ``Rows`` only keeps values, as
``pipeline.parts.TableBatch``'s lists do.
``tests/test_fast_rows.py`` builds the rows of random games of every variant both ways and requires the same
tables. ``pipeline.parts.new_batches(native=True)`` gives ``rows.add_game`` these builders when the compiled
modules are loaded (``accel.native``); the plan to retire the copy is in ``docs/speed.md``.
"""

cimport cython
from libc.limits cimport LLONG_MAX
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memset
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from cpython.unicode cimport PyUnicode_AsUTF8AndSize

import numpy as np
import pyarrow as pa

from pipeline.cards import UNKNOWN
from pipeline.engine.actions import ACCEPT, DEALT, FOLD, PLAY
from pipeline.engine.game import HandRecord
from pipeline.parts import EVENTS, HANDS, SEATS
from pipeline.rows import ACCEPT_OR_FOLD, CARD_VERBS, ENVIT_CALLS, KIND_PLAY, KIND_RAISE, dealt_text
from pipeline.strength import hand_strength

COLUMNS = (
    "game_id", "hand_no", "seq", "seat", "team", "verb", "arg", "kind", "answers", "could_raise", "trick_no",
    "stake_before", "stake_after", "to_play", "envit_step", "raise_seq", "raise_stake", "outcome_answers",
    "outcome_folded", "outcome_accepted", "outcome_raised", "seat_strength_pct",
)
"""The columns in the order ``EventRows.to_arrow`` gives them; checked against the schema when the module loads."""
if tuple(EVENTS.names) != COLUMNS:
    raise ImportError("pipeline._fast_rows does not follow the events' schema (pipeline.parts.EVENTS): recompile")

cdef Py_ssize_t FIRST_CAPACITY = 4096

DEF MAX_SEATS = 8
"""The most seats a hand's rows are built for natively (a table has at most 6)."""

HAND_FIXED = HANDS.names.index("void")
"""The hands' columns that ``EventRows.add_hands`` writes one by one, before the details from ``void`` on."""
if tuple(HANDS.names[:HAND_FIXED]) != (
    "game_id", "hand_no", "dealer", "eldest", "eldest_team", "cards_dealt", "score_before_team0",
    "score_before_team1", "stake", "ended_by", "winner_team", "points_team0", "points_team1", "tricks_played",
    "trick1_winner", "trick2_winner", "trick3_winner", "tie_rule",
) or tuple(SEATS.names) != (
    "game_id", "hand_no", "seat", "team", "policy", "cards", "strength", "strength_pct", "signal", "envit_value",
    "player",
):
    raise ImportError("pipeline._fast_rows does not follow the hands' or seats' schema (pipeline.parts): recompile")

cdef enum:  # a HandRecord's fields, by position
    R_HAND_NO, R_DEALER, R_ELDEST, R_CARDS_DEALT, R_DEALT, R_SCORE_BEFORE, R_STAKE, R_ENDED_BY, R_WINNER, R_POINTS
    R_TRICKS, R_TIE_RULE, R_SIGNALS, R_EVENTS, R_DETAILS, R_TURNS
if HandRecord._fields != (
    "hand_no", "dealer", "eldest", "cards_dealt", "dealt", "score_before", "stake", "ended_by", "winner_team",
    "points", "tricks", "tie_rule", "signals", "event_tuples", "details", "turns",
):
    raise ImportError("pipeline._fast_rows does not follow HandRecord's fields (pipeline.engine.game): recompile")

cdef enum:  # what a verb and a kind mean to the events' columns (``_verb_flags``, ``_kind_flags``)
    CARD_ARG = 1  # its argument is a card (``play``, ``rows.CARD_VERBS``)
    DEALT_ARG = 2
    ENVIT_CALL = 4  # ``rows.ENVIT_CALLS``
    ACCEPT_OR_FOLD_REPLY = 8  # ``rows.ACCEPT_OR_FOLD``
    FOLD_VERB = 16
    ACCEPT_VERB = 32
    PLAY_KIND = 1
    RAISE_KIND = 2

cdef dict _VERB_FLAGS = {}
cdef dict _KIND_FLAGS = {}
cdef Py_ssize_t MOST_KEPT = 256
"""Each verb's and kind's flags, found once: a dictionary probe instead of several comparisons per event. Bounded,
so that a stream of odd verbs cannot grow it."""


cdef int _verb_flags(object verb) except -1:
    found = _VERB_FLAGS.get(verb)
    if found is not None:
        return found
    flags = (
        (CARD_ARG if verb == PLAY or verb in CARD_VERBS else DEALT_ARG if verb == DEALT else 0)
        | (ENVIT_CALL if verb in ENVIT_CALLS else 0)
        | (ACCEPT_OR_FOLD_REPLY if verb in ACCEPT_OR_FOLD else 0)
        | (FOLD_VERB if verb == FOLD else 0)
        | (ACCEPT_VERB if verb == ACCEPT else 0)
    )
    if len(_VERB_FLAGS) < MOST_KEPT:
        _VERB_FLAGS[verb] = flags
    return flags


cdef int _kind_flags(object kind) except -1:
    found = _KIND_FLAGS.get(kind)
    if found is not None:
        return found
    flags = (PLAY_KIND if kind == KIND_PLAY else 0) | (RAISE_KIND if kind == KIND_RAISE else 0)
    if len(_KIND_FLAGS) < MOST_KEPT:
        _KIND_FLAGS[kind] = flags
    return flags


cdef long long UNKNOWN_CARD = UNKNOWN


cdef bint _has_unknown(tuple cards) except -1:
    """Whether a dealt hand holds a card nobody saw (``UNKNOWN``: an imported record)."""
    cdef Py_ssize_t i
    for i in range(len(cards)):
        if cards[i] == UNKNOWN_CARD:
            return True
    return False


cdef void* _resized(void* memory, Py_ssize_t size) except NULL:
    """``memory`` moved to a block of ``size`` bytes, or MemoryError."""
    cdef void* moved = realloc(memory, size)
    if moved is NULL:
        raise MemoryError()
    return moved


cdef Py_ssize_t _nulls(unsigned char* valid, Py_ssize_t start, Py_ssize_t end):
    """The rows from ``start`` to ``end`` that are not set."""
    cdef Py_ssize_t i, count = 0
    for i in range(start, end):
        count += not valid[i]
    return count


@cython.final  # no subclass: its methods are called directly, and the small ones inlined
cdef class Column:
    """One column of fixed-width values (an integer, a bool as one byte, a double) and a byte per row saying
    whether it is set, grown by doubling."""

    cdef char* values
    cdef unsigned char* valid
    cdef Py_ssize_t n, capacity, width, nulls
    cdef long long low, high
    cdef object type
    cdef bint boolean, floating

    def __cinit__(self, object type):
        if not (pa.types.is_integer(type) or pa.types.is_boolean(type) or pa.types.is_float64(type)):
            raise TypeError(f"no native column of type {type}")
        self.type = type
        self.boolean = type == pa.bool_()
        self.floating = type == pa.float64()
        self.width = 1 if self.boolean else type.bit_width // 8
        self.high = 1 if self.boolean else (<long long>1 << (8 * self.width - 1)) - 1 if self.width < 8 else LLONG_MAX
        self.low = 0 if self.boolean else -self.high - 1
        self.capacity = FIRST_CAPACITY
        self.values = <char*>malloc(self.capacity * self.width)
        self.valid = <unsigned char*>malloc(self.capacity)
        if self.values is NULL or self.valid is NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.values)
        free(self.valid)

    cdef int grow(self) except -1:
        self.values = <char*>_resized(self.values, 2 * self.capacity * self.width)
        self.valid = <unsigned char*>_resized(self.valid, 2 * self.capacity)
        self.capacity *= 2
        return 0

    cdef inline int integer(self, long long value) except -1:
        """Append an integer (or a bool, 0 or 1) that the column's type must hold, as Arrow requires."""
        if self.floating:
            raise TypeError(f"an integer given to a column of {self.type}")
        if value < self.low or value > self.high:
            raise OverflowError(f"{value} does not fit in a column of {self.type}")
        if self.n == self.capacity:
            self.grow()
        if self.width == 1:
            (<signed char*>self.values)[self.n] = <signed char>value
        elif self.width == 2:
            (<short*>self.values)[self.n] = <short>value
        elif self.width == 4:
            (<int*>self.values)[self.n] = <int>value
        else:
            (<long long*>self.values)[self.n] = value
        self.valid[self.n] = 1
        self.n += 1
        return 0

    cdef inline int double(self, double value) except -1:
        if self.n == self.capacity:
            self.grow()
        (<double*>self.values)[self.n] = value
        self.valid[self.n] = 1
        self.n += 1
        return 0

    cdef inline int null(self) except -1:
        if self.n == self.capacity:
            self.grow()
        memset(self.values + self.n * self.width, 0, self.width)
        self.valid[self.n] = 0
        self.nulls += 1
        self.n += 1
        return 0

    cdef void truncate(self, Py_ssize_t n):
        """Drop the rows from ``n`` on (a row that failed half-way)."""
        if n < self.n:
            self.nulls -= _nulls(self.valid, n, self.n)
            self.n = n

    cdef inline void set_valid(self, Py_ssize_t row):
        if not self.valid[row]:
            self.valid[row] = 1
            self.nulls -= 1

    def to_arrow(self):
        values = PyBytes_FromStringAndSize(self.values, self.n * self.width)
        data = pa.py_buffer(_bits(values) if self.boolean else values)
        validity = None
        if self.nulls:
            validity = pa.py_buffer(_bits(PyBytes_FromStringAndSize(<char*>self.valid, self.n)))
        return pa.Array.from_buffers(self.type, self.n, [validity, data], null_count=self.nulls)


def _bits(bytes flags):
    """Arrow's bitmap of a byte per row (0 or 1): the least significant bit first."""
    return np.packbits(np.frombuffer(flags, np.uint8), bitorder="little").tobytes()


@cython.final
cdef class Texts:
    """One column of strings (or nulls) as Arrow keeps them: the UTF-8 bytes end to end, and where each ends."""

    cdef char* data
    cdef int* ends
    cdef unsigned char* valid
    cdef Py_ssize_t n, capacity, size, room, nulls

    def __cinit__(self):
        self.capacity = FIRST_CAPACITY
        self.room = FIRST_CAPACITY * 8
        self.ends = <int*>malloc((self.capacity + 1) * sizeof(int))
        self.valid = <unsigned char*>malloc(self.capacity)
        self.data = <char*>malloc(self.room)
        if self.ends is NULL or self.valid is NULL or self.data is NULL:
            raise MemoryError()
        self.ends[0] = 0

    def __dealloc__(self):
        free(self.data)
        free(self.ends)
        free(self.valid)

    cdef int grow(self) except -1:
        self.ends = <int*>_resized(self.ends, (2 * self.capacity + 1) * sizeof(int))
        self.valid = <unsigned char*>_resized(self.valid, 2 * self.capacity)
        self.capacity *= 2
        return 0

    cdef int text(self, object value) except -1:
        cdef Py_ssize_t length
        cdef const char* utf8
        if value is None:
            return self.null()
        if not isinstance(value, str):
            raise TypeError(f"{value!r} is not a string")
        utf8 = PyUnicode_AsUTF8AndSize(value, &length)
        self.piece(utf8, length)
        return self.end_row()

    cdef inline int piece(self, const char* utf8, Py_ssize_t length) except -1:
        """Add bytes to the row being written, which ``end_row`` ends (``truncate`` drops them if it never does)."""
        if self.size + length > 0x7FFFFFFF:
            raise OverflowError("a column of strings holds more than 2 GiB")
        while self.size + length > self.room:
            self.data = <char*>_resized(self.data, 2 * self.room)
            self.room *= 2
        memcpy(self.data + self.size, utf8, length)
        self.size += length
        return 0

    cdef inline int end_row(self) except -1:
        if self.n == self.capacity:
            self.grow()
        self.valid[self.n] = 1
        self.n += 1
        self.ends[self.n] = <int>self.size
        return 0

    cdef int card_piece(self, tuple texts, object card) except -1:
        """Add a card's text: ``texts[card]``, the unknown card's (the last) for ``UNKNOWN``."""
        cdef Py_ssize_t length, unknown = len(texts) - 1, index = card
        cdef const char* utf8
        if index == UNKNOWN_CARD:
            index = unknown
        elif index < 0 or index >= unknown:
            raise IndexError(f"card {card} is not in the deck")
        utf8 = PyUnicode_AsUTF8AndSize(texts[index], &length)
        return self.piece(utf8, length)

    cdef int cards_piece(self, tuple texts, tuple cards, char separator) except -1:
        """Add the texts of ``cards`` with ``separator`` between them."""
        cdef Py_ssize_t i
        for i in range(len(cards)):
            if i:
                self.piece(&separator, 1)
            self.card_piece(texts, cards[i])
        return 0

    cdef int cards(self, tuple texts, tuple cards) except -1:
        """A seat's dealt hand: ``3o 12c 5e`` (``rows._cards_texts``)."""
        self.cards_piece(texts, cards, b" ")
        return self.end_row()

    cdef int dealt(self, tuple texts, tuple dealt) except -1:
        """The ``arg`` of a hand's ``dealt`` event: ``0:3o,12c,5e 1:7b,1o,4e`` (``rows.dealt_text``)."""
        cdef Py_ssize_t seat, length
        cdef const char* utf8
        cdef char label[2]
        label[1] = b":"
        for seat in range(len(dealt)):
            if seat:
                self.piece(" ", 1)
            if seat < 10:
                label[0] = <char>(48 + seat)  # the seat's digit
                self.piece(label, 2)
            else:
                utf8 = PyUnicode_AsUTF8AndSize(f"{seat}:", &length)
                self.piece(utf8, length)
            self.cards_piece(texts, <tuple>dealt[seat], b",")
        return self.end_row()

    cdef int null(self) except -1:
        if self.n == self.capacity:
            self.grow()
        self.valid[self.n] = 0
        self.nulls += 1
        self.n += 1
        self.ends[self.n] = <int>self.size
        return 0

    cdef void truncate(self, Py_ssize_t n):
        """Drop the rows from ``n`` on (a row that failed half-way)."""
        if n < self.n:
            self.nulls -= _nulls(self.valid, n, self.n)
            self.n = n
            self.size = self.ends[n]

    def to_arrow(self):
        ends = pa.py_buffer(PyBytes_FromStringAndSize(<char*>self.ends, (self.n + 1) * sizeof(int)))
        data = pa.py_buffer(PyBytes_FromStringAndSize(self.data, self.size))
        validity = None
        if self.nulls:
            validity = pa.py_buffer(_bits(PyBytes_FromStringAndSize(<char*>self.valid, self.n)))
        return pa.Array.from_buffers(pa.string(), self.n, [validity, ends, data], null_count=self.nulls)


cdef object _column(object field):
    """The native column of a schema's field."""
    return Texts() if field.type == pa.string() else Column(field.type)


cdef int _put(object column, object value) except -1:
    """Append ``value`` to a native column, refused as Arrow refuses it (a value of the wrong type, or too large)."""
    if type(column) is Texts:
        (<Texts>column).text(value)
    elif value is None:
        (<Column>column).null()
    elif (<Column>column).floating:
        (<Column>column).double(value)
    elif isinstance(value, int):
        (<Column>column).integer(value)
    else:
        raise TypeError(f"{value!r} is not an integer, for a column of {(<Column>column).type}")
    return 0


cdef void _truncate(list columns, Py_ssize_t n):
    """Drop the rows from ``n`` on in every column."""
    for column in columns:
        if type(column) is Texts:
            (<Texts>column).truncate(n)
        else:
            (<Column>column).truncate(n)


@cython.final
cdef class Rows:
    """The rows of a table of any schema, appended whole (``append``: its values in schema order) into C arrays,
    as ``pipeline.parts.TableBatch`` keeps them in lists: the games, hands and seats of ``rows.add_game``."""

    cdef list columns
    cdef object schema
    cdef Py_ssize_t width, n

    def __cinit__(self, object schema):
        self.schema = schema
        self.width = len(schema)
        self.columns = [_column(field) for field in schema]

    def __len__(self):
        return self.n

    def append(self, object row):
        """Append one row in schema order; it may leave out trailing columns, which are null (as ``TableBatch``).
        A value of the wrong type, or too large for its column, is refused as Arrow refuses it, and the row is
        not kept."""
        cdef Py_ssize_t i, given = len(row)
        if given > self.width:
            raise ValueError(f"a row has more values than the table's {self.width} columns")
        try:
            for i in range(self.width):
                _put(self.columns[i], row[i] if i < given else None)
        except BaseException:
            self.truncate(self.n)
            raise
        self.n += 1

    cdef void truncate(self, Py_ssize_t n):
        """Drop the rows from ``n`` on, and the values of a row begun after them."""
        _truncate(self.columns, n)
        if n < self.n:
            self.n = n

    def to_arrow(self):
        return pa.Table.from_arrays([column.to_arrow() for column in self.columns], schema=self.schema)


@cython.final
cdef class EventRows:
    """The events table's rows, appended a hand at a time by ``add_hand``."""

    cdef Column game_id, hand_no, seq, seat, team, answers, could_raise, trick_no, stake_before, stake_after
    cdef Column to_play, envit_step, raise_seq, raise_stake, outcome_answers, outcome_folded, outcome_accepted
    cdef Column outcome_raised, seat_strength_pct
    cdef Texts verb, arg, kind
    cdef list columns

    def __cinit__(self):
        self.columns = [_column(field) for field in EVENTS]
        (
            self.game_id, self.hand_no, self.seq, self.seat, self.team, self.verb, self.arg, self.kind,
            self.answers, self.could_raise, self.trick_no, self.stake_before, self.stake_after, self.to_play,
            self.envit_step, self.raise_seq, self.raise_stake, self.outcome_answers, self.outcome_folded,
            self.outcome_accepted, self.outcome_raised, self.seat_strength_pct,
        ) = self.columns  # in COLUMNS' order, the schema's

    def __len__(self):
        return self.game_id.n

    def append(self, row):
        raise TypeError("the events built natively take their rows from rows.add_game only")

    def add_hand(
        self,
        long long game_id,
        long hand_no,
        tuple events,
        tuple turns,
        tuple team_of,
        list pct_of,
        tuple texts,
        str dealt_arg,
        object dealt,
        object deck,
    ):
        """Append one hand's events: as ``pipeline.rows._add_events``, which documents each argument. A hand that
        fails leaves no row."""
        cdef double pct[MAX_SEATS]
        cdef unsigned char pct_set[MAX_SEATS]
        cdef Py_ssize_t seat, first = self.game_id.n
        if len(pct_of) != len(team_of) or len(team_of) > MAX_SEATS:
            raise ValueError("a hand's seats, strengths, events and turns do not match")
        for seat in range(len(pct_of)):
            pct_set[seat] = pct_of[seat] is not None
            pct[seat] = pct_of[seat] if pct_set[seat] else 0.0
        try:
            self.hand(game_id, hand_no, events, turns, team_of, pct, pct_set, texts, dealt_arg, dealt, deck)
        except BaseException:
            _truncate(self.columns, first)
            raise

    def add_hands(
        self,
        Rows hand_rows,
        Rows seat_rows,
        long long game_id,
        list hands,
        tuple team_of,
        list policy_of,
        list player_of,
        tuple texts,
        object deck,
        object variant,
        long opponents,
        object details_values,
    ):
        """Append the hands, seats and events rows of a game's ``hands`` (``HandRecord``s), as the loop of
        ``pipeline.rows.add_game`` does hand by hand, which documents each argument, for a game of two sides
        whose variant has no ``seat_values``; ``details_values(hand, False)`` gives the hand row's columns from
        ``void`` on when the hand has details or is void. A game that fails leaves no row in the three tables."""
        cdef Py_ssize_t i, k, seat, seats = len(team_of), eldest
        cdef Py_ssize_t hands_first = hand_rows.n, seats_first = seat_rows.n, events_first = self.game_id.n
        cdef list h = hand_rows.columns, s = seat_rows.columns
        cdef long hand_no
        cdef tuple hand, dealt, score_before, points, tricks, cards
        cdef object winner, details, signals
        cdef double pct[MAX_SEATS]
        cdef unsigned char pct_set[MAX_SEATS]
        if seats > MAX_SEATS or len(policy_of) < seats or len(player_of) < seats:
            raise ValueError(f"a table of {seats} seats (at most {MAX_SEATS}), each with its policy and player")
        try:
            for k in range(len(hands)):
                hand = <tuple>hands[k]  # a HandRecord: a named tuple
                eldest = hand[R_ELDEST]
                hand_no = hand[R_HAND_NO]
                dealt, score_before = <tuple>hand[R_DEALT], <tuple>hand[R_SCORE_BEFORE]
                points, tricks = <tuple>hand[R_POINTS], <tuple>hand[R_TRICKS]
                winner, details, signals = hand[R_WINNER], hand[R_DETAILS], hand[R_SIGNALS]
                if (len(dealt) != seats or not 0 <= eldest < seats or len(score_before) != 2 or len(points) != 2
                        or (signals and len(signals) != seats)):
                    raise ValueError(f"hand {hand_no} does not fit a table of {seats} seats and two sides")
                (<Column>h[0]).integer(game_id)
                (<Column>h[1]).integer(hand_no)
                (<Column>h[2]).integer(hand[R_DEALER])
                (<Column>h[3]).integer(eldest)
                (<Column>h[4]).integer(team_of[eldest])
                (<Column>h[5]).integer(hand[R_CARDS_DEALT])
                (<Column>h[6]).integer(score_before[0])
                (<Column>h[7]).integer(score_before[1])
                (<Column>h[8]).integer(hand[R_STAKE])
                (<Texts>h[9]).text(hand[R_ENDED_BY])
                _put(h[10], winner)
                (<Column>h[11]).integer(points[0])
                (<Column>h[12]).integer(points[1])
                (<Column>h[13]).integer(len(tricks))
                for i in range(3):
                    _put(h[14 + i], tricks[i] if i < len(tricks) else None)
                (<Texts>h[17]).text(hand[R_TIE_RULE])
                if not details and winner is not None:
                    (<Column>h[HAND_FIXED]).integer(0)  # void: False, every other detail null
                    for i in range(HAND_FIXED + 1, len(h)):
                        if type(h[i]) is Texts:
                            (<Texts>h[i]).null()
                        else:
                            (<Column>h[i]).null()
                else:
                    values = details_values(hand, False)
                    for i in range(HAND_FIXED, len(h)):
                        _put(h[i], values[i - HAND_FIXED])
                hand_rows.n += 1
                for seat in range(seats):
                    cards = <tuple>dealt[seat]
                    (<Column>s[0]).integer(game_id)
                    (<Column>s[1]).integer(hand_no)
                    (<Column>s[2]).integer(seat)
                    (<Column>s[3]).integer(team_of[seat])
                    (<Texts>s[4]).text(policy_of[seat])
                    (<Texts>s[5]).cards(texts, cards)
                    pct_set[seat] = not _has_unknown(cards)
                    if pct_set[seat]:
                        strength, percentile = hand_strength(variant, cards, opponents)
                        pct[seat] = percentile
                        (<Column>s[6]).double(strength)
                        (<Column>s[7]).double(percentile)
                    else:
                        pct[seat] = 0.0
                        (<Column>s[6]).null()
                        (<Column>s[7]).null()
                    (<Texts>s[8]).text(signals[((seat - eldest) % seats + seats) % seats] if signals else None)
                    (<Column>s[9]).null()  # envit_value: no seat_values
                    (<Texts>s[10]).text(player_of[seat])
                    seat_rows.n += 1
                self.hand(game_id, hand_no, <tuple>hand[R_EVENTS], <tuple>hand[R_TURNS], team_of, pct, pct_set, texts,
                          None, dealt, deck)
        except BaseException:
            hand_rows.truncate(hands_first)
            seat_rows.truncate(seats_first)
            _truncate(self.columns, events_first)
            raise

    cdef int hand(self, long long game_id, long hand_no, tuple events, tuple turns, tuple team_of, double* pct,
                  unsigned char* pct_set, tuple texts, object dealt_arg, object dealt, object deck) except -1:
        """One hand's events (``add_hand``); ``pct``/``pct_set``: each seat's strength_pct, and whether it has one;
        ``dealt_arg`` None: the hand's deal written here from ``dealt``."""
        cdef Py_ssize_t seq, count = len(events), raise_row = -1, row
        cdef long long seat, turn, trick, raise_seq = -1, raise_stake = 0
        cdef bint after_call = False, is_call, is_reply, envit_step, answers
        cdef Py_ssize_t seats = len(team_of)
        cdef bint has_turns = len(turns) > 0
        cdef int verb_flags, kind_flags
        cdef tuple event
        if has_turns and len(turns) != count:
            raise ValueError("a hand's seats, strengths, events and turns do not match")
        for seq in range(count):
            event = <tuple>events[seq]
            seat = event[0]
            verb = event[1]
            raw = event[2]
            kind = event[3]
            answers = event[4]
            verb_flags = _verb_flags(verb)
            kind_flags = _kind_flags(kind)
            row = self.game_id.n
            self.game_id.integer(game_id)
            self.hand_no.integer(hand_no)
            self.seq.integer(seq)
            if seat >= seats:
                raise IndexError(f"seat {seat} of an event is not at the table")
            if seat >= 0:
                self.seat.integer(seat)
                self.team.integer(team_of[seat])
                if pct_set[seat]:
                    self.seat_strength_pct.double(pct[seat])
                else:
                    self.seat_strength_pct.null()
            else:
                self.seat.null()
                self.team.null()
                self.seat_strength_pct.null()
            self.verb.text(verb)
            if verb_flags & CARD_ARG:
                self.arg.card_piece(texts, raw)  # a covered card nobody saw is UNKNOWN: "??"
                self.arg.end_row()
            elif verb_flags & DEALT_ARG:
                if raw is not dealt:  # a later deal (la chanson's extra cards)
                    self.arg.text(dealt_text(deck, raw))
                elif dealt_arg is None:
                    self.arg.dealt(texts, dealt)
                else:
                    self.arg.text(dealt_arg)
            else:
                self.arg.text(None if raw is None else str(raw))
            self.kind.text(kind)
            self.answers.integer(answers)
            self.could_raise.integer(<bint>event[5])
            trick = event[6]
            if trick:
                self.trick_no.integer(trick)
            else:
                self.trick_no.null()
            self.stake_before.integer(event[7])
            self.stake_after.integer(event[8])
            turn = turns[seq] if has_turns else -1
            if turn >= 0:
                self.to_play.integer(turn)
            else:
                self.to_play.null()
            is_call = (verb_flags & ENVIT_CALL) != 0
            is_reply = (verb_flags & ACCEPT_OR_FOLD_REPLY) != 0
            envit_step = is_call or (after_call and is_reply)
            if is_call or is_reply:
                after_call = is_call
            self.envit_step.integer(envit_step)
            if answers and not envit_step and raise_seq >= 0:
                self.raise_seq.integer(raise_seq)
                self.raise_stake.integer(raise_stake)
                self.answer(
                    raise_row,
                    (verb_flags & FOLD_VERB) != 0,
                    (verb_flags & ACCEPT_VERB) != 0 or (kind_flags & PLAY_KIND) != 0,
                    (kind_flags & RAISE_KIND) != 0,
                )
            else:
                self.raise_seq.null()
                self.raise_stake.null()
            if kind_flags & RAISE_KIND:
                raise_seq, raise_stake, raise_row = seq, event[8], row
                self.outcome_answers.integer(0)
            else:
                self.outcome_answers.null()
            self.outcome_folded.null()
            self.outcome_accepted.null()
            self.outcome_raised.null()
        return 0

    cdef int answer(self, Py_ssize_t row, bint fold, bint accept, bint back) except -1:
        """Count an answer in the outcome of the raise at ``row``: as ``pipeline.rows._add_answer``."""
        cdef signed char* answers = <signed char*>self.outcome_answers.values
        cdef unsigned char* folded = <unsigned char*>self.outcome_folded.values
        cdef unsigned char* accepted = <unsigned char*>self.outcome_accepted.values
        cdef unsigned char* raised = <unsigned char*>self.outcome_raised.values
        if answers[row] == 0:
            folded[row], accepted[row], raised[row] = fold, accept, back
            self.outcome_folded.set_valid(row)
            self.outcome_accepted.set_valid(row)
            self.outcome_raised.set_valid(row)
        else:
            folded[row] = fold and folded[row]
            accepted[row] = accept or accepted[row]
            raised[row] = back or raised[row]
        if answers[row] == self.outcome_answers.high:
            raise OverflowError(f"more answers to one raise than a column of {self.outcome_answers.type} holds")
        answers[row] += 1
        return 0

    def played(self, Py_ssize_t first):
        """The seat, verb and arg of the rows from ``first`` on, as ``pipeline.rows.played`` writes them from the
        lists of pure Python (the reference, which says how): what a game's identity digests."""
        cdef Py_ssize_t row, length, at = 0, n = self.game_id.n
        cdef int* verb_ends = self.verb.ends
        cdef int* arg_ends = self.arg.ends
        cdef char* buffer
        if first < 0 or first > n:
            raise IndexError(f"row {first} of {n}")
        if self.seat.width != 1:
            raise TypeError("the seat column is not of one byte: recompile")
        out = PyBytes_FromStringAndSize(
            NULL, 9 * (n - first) + verb_ends[n] - verb_ends[first] + arg_ends[n] - arg_ends[first]
        )
        buffer = PyBytes_AS_STRING(out)
        for row in range(first, n):
            buffer[at] = <char>(self.seat.values[row] + 1) if self.seat.valid[row] else 0
            length = verb_ends[row + 1] - verb_ends[row]
            _put_size(buffer + at + 1, length)
            memcpy(buffer + at + 5, self.verb.data + verb_ends[row], length)
            at += 5 + length
            if self.arg.valid[row]:
                length = arg_ends[row + 1] - arg_ends[row]
                _put_size(buffer + at, length)
                memcpy(buffer + at + 4, self.arg.data + arg_ends[row], length)
                at += 4 + length
            else:
                _put_size(buffer + at, 0xFFFFFFFF)
                at += 4
        return out

    def to_arrow(self):
        """The rows as an Arrow table of the events' schema."""
        return pa.Table.from_arrays([column.to_arrow() for column in self.columns], schema=EVENTS)


cdef inline void _put_size(char* at, unsigned long long size):
    """``size`` as 4 bytes, little-endian."""
    at[0] = <char>(size & 0xFF)
    at[1] = <char>((size >> 8) & 0xFF)
    at[2] = <char>((size >> 16) & 0xFF)
    at[3] = <char>((size >> 24) & 0xFF)
