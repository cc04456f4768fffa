# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""The native replay of 2-player raise-ladder Truc (Catalan, seed 000): a game's records checked and scored
over C arrays, for ``truc import`` and ``truc export``, which replay every game of a file through the rules.

Why: a replay through the engine spends most of its time on Python objects (the legal actions listed to
check each step, the state's attributes, the hand set up), about as much as reading the text and building
the rows together (``docs/speed.md``). 2-player Catalan is what datasets hold most.

It follows ``pipeline.engine.ladder.LadderGame`` and ``pipeline.engine.game.Game`` step for step: the cut and
the one-card deal, 11 points (hold or pass), the deal, tricks, the raise ladder (raises on one's turn or just
after playing, the next opponent answering, acceptance by playing, accept-and-raise), the hand rule
``first_decisive_or_eldest`` (called, not copied) and the scores; it builds the very hand records the engine
builds. It only *accepts*: at the first step that is not the legal, common form (any refusal of the engine, a card not
known, a shape it does not know), it answers None, and the caller replays the game through the engine,
which says what is wrong, and where. ``pipeline.history.reader.ReplayVisitor`` uses it for the games of
``LadderGame`` with 2 players that ``natively_replayed`` accepts; ``tests/test_fast_replay.py`` replays
games both ways (valid, and changed at random) and requires the same records and the same refusals.

An entry of the replay is a tuple whose first item says its kind (the reader's lines, as read):
``(HAND_ENTRY, number, dealer or -1, line)``, ``(DEAL_ENTRY, cards per seat, cards on the first deal line,
lines)``, ``(ACTION_ENTRY, action, None, line)``, ``(END_ENTRY, values, None, line)``.
"""

cimport cython

from pipeline.engine.actions import ACCEPT, CUT, DEAL, DEALT, FOLD, HOLD, NOCUT, PASS, PLAY
from pipeline.engine.game import HandRecord
from pipeline.engine.hand_rules import first_decisive_or_eldest
from pipeline.engine.ladder import ELEVEN_DETAILS, HOLD_STAKE as _HOLD_STAKE, ONE_CARD_DETAILS
from pipeline.engine.rules import TIE as _TIE

HAND_ENTRY = 0
DEAL_ENTRY = 1
ACTION_ENTRY = 2
END_ENTRY = 3

cdef enum:
    MAX_CARDS = 64
    MAX_RUNGS = 8

cdef enum:
    P_CUT = 0
    P_CHOICE = 1
    P_DEAL = 2
    P_HOLD = 3
    P_PLAY = 5
    P_OVER = 6

cdef int TIE = _TIE
cdef int HOLD_STAKE = _HOLD_STAKE

_new_tuple = tuple.__new__


_NUMBER_TEXTS = [str(number) for number in range(16)]


cdef str number_text(int number):
    """``str(number)``, for the few numbers a hand scores without making a string each time."""
    if 0 <= number < 16:
        return _NUMBER_TEXTS[number]
    return str(number)


cdef tuple points_to(int side, int points):
    """A hand's points by side, all of them to ``side``."""
    if side == 0:
        return (points, 0)
    return (0, points)


class Rejected(Exception):
    """A step the native replay does not accept: the engine replays the game instead."""


@cython.final
cdef class _Game:
    """A 2-player ladder game being replayed (the fields of ``Game`` and ``LadderGame`` it needs)."""

    cdef int target, deck_size, rungs
    cdef int power[MAX_CARDS]
    cdef int stakes[MAX_RUNGS]
    cdef list verbs
    cdef int hand_no, dealer, eldest
    cdef int scores[2]
    cdef bint over
    cdef object score_before
    cdef int phase, decider, cards_dealt, stake, level, pending, raiser, answerer, last_raise_team
    cdef bint raises_allowed, ended
    cdef int hold_team, after_play, to_play
    cdef int points[2]  # what the last hand scored, by side
    cdef int held[2][MAX_CARDS]
    cdef int held_count[2]
    cdef int trick_seat[2]
    cdef int trick_card[2]
    cdef int trick_len
    cdef int tricks[MAX_CARDS]
    cdef int n_tricks
    cdef object dealt
    cdef list events, turns, records

    cdef void begin_hand(self):
        """``Game._begin_hand``, ``LadderGame._reset_hand`` and ``_first_phase``."""
        cdef bint at0, at1
        self.hand_no += 1
        self.eldest = (self.dealer + 1) % 2
        self.score_before = (self.scores[0], self.scores[1])
        self.held_count[0] = 0
        self.held_count[1] = 0
        self.dealt = ()
        self.cards_dealt = 3
        self.stake = 1
        self.after_play = -1
        self.to_play = self.eldest
        self.trick_len = 0
        self.n_tricks = 0
        self.events = []
        self.turns = []
        self.decider = -1
        self.level = 0
        self.pending = 0
        self.raiser = -1
        self.answerer = -1
        self.last_raise_team = -1
        at0 = self.scores[0] == self.target - 1
        at1 = self.scores[1] == self.target - 1
        self.raises_allowed = not (at0 or at1)
        self.hold_team = 0 if at0 and not at1 else (1 if at1 and not at0 else -1)
        if max(self.scores[0], self.scores[1]) < self.target - 1:
            self.decider = (self.dealer + 1) % 2  # the player before the dealer cuts
            self.phase = P_CUT
        else:
            self.phase = P_DEAL
        self.ended = False

    cdef void record(self, object event):
        """``Game._record``: the event, and the seat to play a card when it happened (-1 outside play)."""
        self.events.append(event)
        self.turns.append(self.to_play if self.phase == P_PLAY else -1)

    cdef bint may_raise(self, int seat):
        """``LadderGame.may_raise``."""
        if self.phase != P_PLAY or not self.raises_allowed or (self.pending or self.level) >= self.rungs:
            return False
        if self.pending:
            return seat == self.answerer
        if seat % 2 == self.last_raise_team:
            return False
        return seat == self.to_play or seat == self.after_play

    cdef int holds(self, int seat, object card):
        """The place of ``card`` in ``seat``'s hand, or -1 (``card`` must be a card index: an int)."""
        cdef int index, value
        if type(card) is not int:
            return -1
        value = card
        for index in range(self.held_count[seat]):
            if self.held[seat][index] == value:
                return index
        return -1

    cdef void end_hand(self, int winner, tuple points, str ended_by, object tie_rule):
        """``Game._end_hand`` with ``_apply_scores``, ``_hand_details`` and ``_game_winner``."""
        cdef int side
        self.points[0] = points[0]
        self.points[1] = points[1]
        self.scores[0] += self.points[0]
        self.scores[1] += self.points[1]
        self.phase = P_OVER
        self.decider = -1
        if self.cards_dealt == 1:
            details = ONE_CARD_DETAILS
        elif self.hold_team >= 0:
            details = ELEVEN_DETAILS
        else:
            details = ()
        tricks = tuple([self.tricks[index] for index in range(self.n_tricks)])
        record = (
            self.hand_no, self.dealer, self.eldest, self.cards_dealt, self.dealt, self.score_before, self.stake,
            ended_by, winner, points, tricks, tie_rule, None, tuple(self.events), details, tuple(self.turns),
        )
        self.records.append(_new_tuple(HandRecord, record))
        side = 1 if self.scores[1] > self.scores[0] else 0
        if self.scores[side] >= self.target:
            self.over = True

    cdef void deal(self, list hands, int first_count) except *:
        """``ReplayVisitor.visit_deal``: the implicit cut or deal choice, then ``Game.apply_deal``."""
        cdef int seat, card, count
        cdef char seen[MAX_CARDS]
        if self.over or self.phase == P_OVER:
            raise Rejected
        if self.phase == P_CUT:
            self.after_play = -1
            self.phase = P_DEAL
            self.record((self.decider, CUT, None, "deal", False, False, 0, self.stake, self.stake))
        elif self.phase == P_CHOICE:
            count = 1 if first_count == 1 else 3
            self.after_play = -1
            self.cards_dealt = count
            self.phase = P_DEAL
            self.record((self.decider, DEAL, count, "deal", False, False, 0, self.stake, self.stake))
        if self.phase != P_DEAL:
            raise Rejected
        for card in range(self.deck_size):
            seen[card] = 0
        for seat in range(2):
            cards = hands[seat]
            if len(cards) != self.cards_dealt:
                raise Rejected
            count = 0
            for value in cards:
                card = value
                if card < 0 or card >= self.deck_size or seen[card]:
                    raise Rejected
                seen[card] = 1
                self.held[seat][count] = card
                count += 1
            self.held_count[seat] = count
        self.dealt = (tuple(hands[0]), tuple(hands[1]))
        self.events.append((-1, DEALT, self.dealt, "deal", False, False, 0, self.stake, self.stake))
        self.turns.append(-1)
        if self.hold_team >= 0:  # 11 points: the team decides through its first seat from the eldest
            self.phase = P_HOLD
            self.decider = self.eldest if self.eldest % 2 == self.hold_team else (self.eldest + 1) % 2
        else:
            self.phase = P_PLAY
            self.decider = -1

    cdef void act(self, tuple action) except *:
        """``Game.apply_checked`` for one action of the common forms; ``Rejected`` for anything else."""
        cdef int seat, before
        seat_value, verb, arg = action
        if type(seat_value) is not int or not 0 <= seat_value < 2:
            raise Rejected
        seat = seat_value
        phase = self.phase
        if phase == P_PLAY:
            self.play_phase(seat, verb, arg)
            return
        if phase == P_OVER or phase == P_DEAL or seat != self.decider:
            raise Rejected
        self.after_play = -1
        if phase == P_CUT and arg is None and (verb == CUT or verb == NOCUT):
            self.phase = P_DEAL if verb == CUT else P_CHOICE
            if verb == NOCUT:
                self.decider = self.dealer
            self.record((seat, verb, None, "deal", False, False, 0, self.stake, self.stake))
        elif phase == P_CHOICE and verb == DEAL and type(arg) is int and (arg == 1 or arg == 3):
            self.cards_dealt = arg
            self.phase = P_DEAL
            self.record((seat, DEAL, arg, "deal", False, False, 0, self.stake, self.stake))
        elif phase == P_HOLD and arg is None and verb == HOLD:
            before = self.stake
            self.stake = HOLD_STAKE
            self.record((seat, HOLD, None, "choice", False, False, 0, before, HOLD_STAKE))
            self.phase = P_PLAY
            self.decider = -1
        elif phase == P_HOLD and arg is None and verb == PASS:
            self.record((seat, PASS, None, "choice", False, False, 0, self.stake, self.stake))
            self.end_hand(1 - self.hold_team, points_to(1 - self.hold_team, 1), "pass", None)
        else:
            raise Rejected

    cdef void play_phase(self, int seat, object verb, object arg) except *:
        """``LadderGame._legal_play`` and ``_apply_bet``, ``Game._play``."""
        cdef int place
        if self.pending:
            if seat != self.answerer:
                raise Rejected
            if verb == ACCEPT and arg is None:
                self.accept(seat)
                return
            if verb == FOLD and arg is None:
                self.fold(seat)
                return
        if verb == PLAY:
            place = self.holds(seat, arg) if seat == self.to_play else -1
            if place < 0:
                raise Rejected
            self.play(seat, place)
            return
        if arg is None and self.may_raise(seat) and verb == self.verbs[(self.pending or self.level) + 1]:
            self.raise_to(seat, verb)
            return
        raise Rejected

    cdef void accept(self, int seat):
        """``LadderGame._accept``."""
        cdef bint could = self.may_raise(seat)
        cdef int before = self.stake
        self.level = self.pending
        self.stake = self.stakes[self.level]
        self.pending = 0
        self.after_play = -1
        self.record((seat, ACCEPT, None, "answer", True, could, self.n_tricks + 1, before, self.stake))

    cdef void fold(self, int seat):
        """``LadderGame._fold``, ``Game._refused``."""
        cdef bint could = self.may_raise(seat)
        cdef int side = self.raiser % 2
        self.record((seat, FOLD, None, "answer", True, could, self.n_tricks + 1, self.stake, self.stake))
        self.end_hand(side, points_to(side, self.stake), "fold", None)
        self.pending = 0

    cdef void raise_to(self, int seat, object verb):
        """``LadderGame._raise``."""
        cdef bint answers = self.pending != 0
        cdef int before = self.stake
        cdef int rung
        if answers:  # accept-and-raise: the pending raise is accepted first
            self.level = self.pending
            self.stake = self.stakes[self.level]
        rung = (self.pending or self.level) + 1
        self.pending = rung
        self.raiser = seat
        self.answerer = (seat + 1) % 2
        self.last_raise_team = seat % 2
        self.after_play = -1
        self.record((seat, verb, None, "raise", answers, True, self.n_tricks + 1, before, self.stakes[rung]))

    cdef void play(self, int seat, int place):
        """``Game._play``, ``LadderGame._before_card`` (playing accepts a pending raise), ``_close_trick``."""
        cdef bint could = self.may_raise(seat)
        cdef int before = self.stake
        cdef bint answers = False
        cdef int card = self.held[seat][place]
        cdef int index
        if self.pending:
            self.level = self.pending
            self.stake = self.stakes[self.level]
            self.pending = 0
            answers = True
        for index in range(place, self.held_count[seat] - 1):
            self.held[seat][index] = self.held[seat][index + 1]
        self.held_count[seat] -= 1
        self.record((seat, PLAY, card, "play", answers, could, self.n_tricks + 1, before, self.stake))
        self.after_play = seat
        self.trick_seat[self.trick_len] = seat
        self.trick_card[self.trick_len] = card
        self.trick_len += 1
        if self.trick_len < 2:
            self.to_play = (seat + 1) % 2
            return
        self.close_trick()

    cdef void close_trick(self):
        """``Game._close_trick`` with ``resolve_trick`` (2 players: equal cards tie) and ``_hand_decided``."""
        cdef int leader = self.trick_seat[0]
        cdef int first = self.power[self.trick_card[0]]
        cdef int second = self.power[self.trick_card[1]]
        cdef int winner_seat = -1
        cdef int result
        if second > first:
            winner_seat = self.trick_seat[1]
        elif second < first:
            winner_seat = leader
        result = TIE if winner_seat < 0 else winner_seat % 2
        self.tricks[self.n_tricks] = result
        self.n_tricks += 1
        self.trick_len = 0
        if self.decide():
            self.after_play = -1
            return
        self.to_play = winner_seat if result != TIE else leader  # a tied trick: its leader leads again

    cdef bint decide(self):
        """``Game._hand_decided`` (the rule itself is ``hand_rules``', called as the engine calls it), then
        ``Game._hand_won``: whether the hand is decided."""
        cdef int index
        tricks = [self.tricks[index] for index in range(self.n_tricks)]
        decided = first_decisive_or_eldest(tricks, self.cards_dealt, self.eldest % 2)
        if decided is None:
            return False
        winner, tie_rule = decided
        self.end_hand(winner, points_to(winner, self.stake), "tricks", tie_rule)
        return True

    cdef void hand_line(self, object number, object dealer) except *:
        """``ReplayVisitor.visit_hand`` after the first hand: ``Game.next_hand`` and the line's checks."""
        if self.phase != P_OVER or self.over:
            raise Rejected
        self.dealer = (self.dealer + 1) % 2
        self.begin_hand()
        if number != self.hand_no or (dealer != -1 and dealer != self.dealer):
            raise Rejected

    cdef void end_line(self, tuple values) except *:
        """``ReplayVisitor.visit_end``: once per hand, after it is decided, the points it scored, each written as
        ``str`` writes it (``Game.end_values``; a number written otherwise is left to the engine)."""
        if self.ended or self.phase != P_OVER or len(values) != 2:
            raise Rejected
        if values[0] != number_text(self.points[0]) or values[1] != number_text(self.points[1]):
            raise Rejected
        self.ended = True


def replay(list entries, Py_ssize_t stop, game):
    """Replay ``entries[:stop]`` of a game whose first hand has begun in ``game`` (the engine's ``LadderGame``
    of 2 players, at its first hand's start; nothing of it is changed). ``entries[stop]`` must be a hand line: what comes before it must leave a hand over
    and the game not over. Returns the hands' records, the scores, the dealer and the number of the last hand
    replayed; or None when a step is not accepted (the engine then replays the game: ``Rejected``)."""
    cdef _Game state = _Game()
    cdef Py_ssize_t index
    cdef int card, rung
    power = game.power
    ladder = game.ladder
    state.deck_size = len(power)
    state.rungs = len(ladder)
    if state.deck_size > MAX_CARDS or state.rungs >= MAX_RUNGS:
        return None
    for card in range(state.deck_size):
        state.power[card] = power[card]
    state.verbs = [None, *[step.verb for step in ladder]]
    state.stakes[0] = 1
    for rung in range(state.rungs):
        state.stakes[rung + 1] = ladder[rung].stake
    state.target = game.target
    state.scores[0] = game.scores[0]
    state.scores[1] = game.scores[1]
    state.over = False
    state.records = []
    state.hand_no = game.hand_no - 1
    state.dealer = game.dealer
    state.begin_hand()
    try:
        for index in range(stop):
            entry = <tuple>entries[index]
            kind = entry[0]
            if kind == ACTION_ENTRY:
                state.act(<tuple>entry[1])
            elif kind == DEAL_ENTRY:
                state.deal(<list>entry[1], entry[2])
            elif kind == HAND_ENTRY:
                state.hand_line(entry[1], entry[2])
            else:
                state.end_line(<tuple>entry[1])
        if state.phase != P_OVER or state.over:
            raise Rejected
    except Rejected:
        return None
    return state.records, [state.scores[0], state.scores[1]], state.dealer, state.hand_no
