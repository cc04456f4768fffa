# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""The native fast path of the simulator: Trut (the base variant, two sides: 2, 4 or 6 players) played by the
threshold bot at every seat, engine and bot in one loop over C arrays.

Why: a 6-player Trut hand holds 2.3 times the play and the rows of a 2-player Catalan hand, and the general
loop (``pipeline.playing``) costs the same per step whatever the variant, so that variant ran at half
Catalan's speed. Written as compiled Python the same fused loop saved only 18%: it is the per-operation cost
of Python objects that this file removes (``docs/speed.md``).

It follows ``pipeline.engine.trut`` and the bot's decisions (``pipeline.policies.trut_decisions``,
``threshold``) step for step, with the same draws from the same generators, and builds the very hand
records the engine builds. The engine stays the reference: ``tests/test_fast_trut.py`` plays the same games
both ways, for every player count, option and many bot parameters, and requires the same records.
``pipeline.playing.play_game`` uses this path only where ``fast_path.applies``; built with ``make compile``
(Cython), and absent when the toolchain is: the general loop then plays.

The steps and their sources:
- the deal: ``Game.deal``'s partial shuffle from the hand's stream (``engine.game.DealStream``: xoshiro128**
  seeded by splitmix64 from the game's seed and the hand's number, here in C; ``new_game`` drew the first
  dealer);
- the fortial (RULES.md `trut` "fortial", seed 003): ``TrutGame._special_phase``, ``_open_call``,
  ``_call_passed`` and the bot's ``fortial``;
- the trut at any moment (seed 003 "Règle du jeu"): offered to every other seat in play order from the
  eldest, then to the seat to play, judged by ``_wants_trut`` (a bluff coin from the policies' generator at
  a seat's first offer of the hand, its hand judged once a trick), asked as ``playing`` asks a steady bot;
- the answers one by one from the eldest, one "je vais voir" enough (``TrutGame._answer``, ``trut_answer``);
- the card by the reference rule (``policies.base.reference_card``, ``strength.lead_card``,
  ``follow_card``), the trick by ``engine.game.resolve_trick``, the hand by
  ``hand_rules.first_trick_counts_double``;
- petits and longs (``_gain_petits``, ``_gain_longs``, ``_hand_won``, ``_finish``), the record
  (``Game._end_hand``) and the end of the game (``Game._game_winner``).
"""

cimport cython
from libc.stdint cimport uint32_t, uint64_t

import random

from pipeline.engine.game import HAND_OVER, HandRecord, new_game
from pipeline.engine.trut import play_orders
from pipeline.strength import hand_strength

cdef int TIE = -1
cdef int LONG = 3  # TrutGame.LONG_VALUE: a long counted in petits
cdef int PETITS_PER_LONG = 3
cdef int MAX_HANDS = 10000

cdef uint64_t GOLDEN64 = 0x9E3779B97F4A7C15ULL

_new_tuple = tuple.__new__


cdef inline uint64_t splitmix64(uint64_t z):
    """``engine.game.splitmix64``."""
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


@cython.auto_pickle(False)
cdef class FastTrut:
    cdef object game, rng, pdraw, variant, dealt, events, turns, special, word, record
    cdef uint64_t key  # the deals' stream (engine.game.DealStream): its key and xoshiro128**'s state
    cdef uint32_t s0, s1, s2, s3
    cdef int n, target, opponents, deck_size, tie_lead, dealer_leads, brelan
    cdef int power[64]
    cdef int rank_id[64]
    cdef int team_of[6]
    cdef int order[6][6]  # play order from each eldest
    cdef int scores[2]
    cdef int petits[2]
    cdef int won_petits[2]
    cdef int won_longs[2]
    cdef int dealer, hand_no, eldest, stake, to_play, trut_open, truter, void, over, winner_team
    cdef int score_before[2]
    cdef int hands[6][3]
    cdef int held[6]
    cdef int trick_seat[6]
    cdef int trick_card[6]
    cdef int trick_len
    cdef int tricks[3]
    cdef int n_tricks
    cdef int answerers[6]
    cdef int n_answerers
    cdef int answer_at
    # the bots
    cdef double trut_at[6]
    cdef double trut_bluff[6]
    cdef double see_at[6]
    cdef double see_announced[6]
    cdef double fortial_at[6]
    cdef double pct[6]
    cdef int coin_drawn[6]
    cdef int bluffing[6]
    cdef int judged_trick[6]
    cdef int strong[6]

    def __init__(self, config, policies, seed):
        game = new_game(config, seed)
        self.game = game
        self.rng = random.Random(seed ^ 0x5EED_0F_B075)  # the policies' generator, as in playing.play_game
        self.pdraw = self.rng.random
        self.key = game.stream.key
        variant = config.variant
        self.variant = variant
        cdef int n = game.n
        if n > 6 or game.deck_size > 64 or game.sides != 2:
            raise ValueError(f"the native Trut path plays two sides of at most 6 players and 64 cards, not {config}")
        self.n = n
        self.target = game.target
        self.opponents = game.opponents
        self.deck_size = game.deck_size
        power = game.power
        ranks = variant.deck.rank_of
        rank_index = {}
        cdef int c, s, i
        for c in range(self.deck_size):
            self.power[c] = power[c]
            self.rank_id[c] = rank_index.setdefault(ranks[c], len(rank_index))
        for s in range(n):
            self.team_of[s] = game.team_of[s]
        for s, (order, _) in enumerate(play_orders(n)):  # order[e]: seats in play order from eldest e
            for i in range(n):
                self.order[s][i] = order[i]
        tie_lead = game.tie_lead
        if tie_lead == "maker":
            self.tie_lead = 0
        elif tie_lead == "first":
            self.tie_lead = 1
        else:
            self.tie_lead = 2  # the trick's leader
        self.dealer_leads = 1 if game.dealer_leads else 0
        self.brelan = 1 if "brelan" in game.words else 0
        for s in range(n):
            params = policies[s].params
            self.trut_at[s] = params["trut_at"]
            self.trut_bluff[s] = params["trut_bluff"]
            self.see_at[s] = params["see_at"]
            self.see_announced[s] = params["see_announced"]
            self.fortial_at[s] = params["fortial_at"]
        self.scores[0] = self.scores[1] = 0
        self.petits[0] = self.petits[1] = 0
        self.dealer = game.first_dealer
        self.hand_no = 0
        self.over = 0
        self.winner_team = -1

    # ------------------------------------------------------------------------------------- the game
    def play(self):
        records = []
        while True:
            self._play_hand()
            records.append(self.record)
            if self.over:
                return self._finished_game(), records
            if len(records) >= MAX_HANDS:
                raise RuntimeError(f"game with seed {self.game.seed} did not end after {MAX_HANDS} hands")
            self.dealer = (self.dealer + 1) % self.n

    cdef object _finished_game(self):
        """The engine's game object, brought to the end of the game played here (what the rows read)."""
        game = self.game
        game.scores = [self.scores[0], self.scores[1]]
        game.petits = [self.petits[0], self.petits[1]]
        game.hand_no = self.hand_no
        game.dealer = self.dealer
        game.over = True
        game.winner_team = self.winner_team
        game.last_hand = self.record
        game.phase = HAND_OVER
        return game

    # ------------------------------------------------------------------------------------- a hand
    cdef void _play_hand(self) except *:
        cdef int n = self.n, s, side, count = 0, first = -1
        self.hand_no += 1
        self.eldest = (self.dealer + 1) % n
        self.score_before[0] = self.scores[0]
        self.score_before[1] = self.scores[1]
        self.stake = 1
        self.to_play = self.dealer if self.dealer_leads else self.eldest
        self.trick_len = 0
        self.n_tricks = 0
        self.events = []
        self.turns = []
        self.trut_open = 1
        self.truter = -1
        self.word = None
        self.n_answerers = 0
        self.answer_at = 0
        self.special = None
        self.void = 0
        self.won_petits[0] = self.won_petits[1] = 0
        self.won_longs[0] = self.won_longs[1] = 0
        self.record = None
        for s in range(n):
            self.coin_drawn[s] = 0
            self.judged_trick[s] = -1
        self._deal()
        for side in range(2):
            if self._at_fortial(side):
                count += 1
                if first < 0:
                    first = side
        if count == 1:
            self.special = "fortial"
            if not self._fortial_call(first):
                return
        elif count:
            self.special = "fortial_both"
        self._play_tricks()

    cdef void _start_stream(self, int hand_no):
        """``DealStream.start``: the stream of hand ``hand_no``."""
        cdef uint64_t state = self.key + <uint64_t>(2 * hand_no) * GOLDEN64
        cdef uint64_t first = splitmix64(state - GOLDEN64), second = splitmix64(state)
        self.s0 = <uint32_t>first
        self.s1 = <uint32_t>(first >> 32)
        self.s2 = <uint32_t>second
        self.s3 = <uint32_t>(second >> 32)

    cdef inline int _below(self, int bound):
        """``DealStream.below``: xoshiro128**'s next 32 bits, times ``bound``, shifted."""
        cdef uint32_t x = self.s1 * 5
        cdef uint32_t result = ((x << 7) | (x >> 25)) * 9
        cdef uint32_t t = self.s1 << 9
        self.s2 ^= self.s0
        self.s3 ^= self.s1
        self.s1 ^= self.s2
        self.s0 ^= self.s3
        self.s2 ^= t
        self.s3 = (self.s3 << 11) | (self.s3 >> 21)
        return <int>((<uint64_t>result * <uint64_t>bound) >> 32)

    cdef void _deal(self) except *:
        """``Game.deal``: a partial shuffle from the hand's stream, the i-th card to seat eldest + i."""
        cdef int n = self.n, size = self.deck_size, dealt = 3 * n, i, j, card, s, k
        cdef int cards[64]
        for i in range(size):
            cards[i] = i
        self._start_stream(self.hand_no)
        for i in range(dealt):
            j = i + self._below(size - i)
            card = cards[j]
            cards[j] = cards[i]
            cards[i] = card
        hands = []
        for s in range(n):
            i = (s - self.eldest + n) % n
            for k in range(3):
                self.hands[s][k] = cards[i + k * n]
            self.held[s] = 3
            hands.append((cards[i], cards[i + n], cards[i + 2 * n]))
        self.dealt = tuple(hands)
        variant, opponents = self.variant, self.opponents
        for s in range(n):
            self.pct[s] = hand_strength(variant, self.dealt[s], opponents)[1]
        self._record(-1, "dealt", self.dealt, "deal", False, False, 0, 1, 1, -1)

    cdef int _at_fortial(self, int side):
        return self.petits[side] == PETITS_PER_LONG - 1 and self.scores[side] == self.target - 1

    cdef int _fortial_call(self, int side) except -1:
        """The side au fortial decides first, seat by seat from the eldest: a trut, or pass (the bot's
        ``fortial``). Returns whether the play follows; all pass: the opponents take 1 petit."""
        cdef int i, seat
        for i in range(self.n):
            seat = self.order[self.eldest][i]
            if self.team_of[seat] != side:
                continue
            if self.pct[seat] >= self.fortial_at[seat]:
                self._trut(seat, 0, -1)
                return 1
            self._record(seat, "pass", None, "choice", False, True, 0, 1, 1, -1)
        self._gain_petits(1 - side, 1)
        self._finish(1 - side, "pass", None)
        return 0

    cdef void _play_tricks(self) except *:
        """Until the hand ends: the answers to a pending trut; the trut offered to every other seat, then to
        the seat to play; the card it plays."""
        cdef int declined[6]
        cdef int n = self.n, s, i, seat, other, trick_no, truted
        for s in range(n):
            declined[s] = -1
        while self.record is None:
            if self.answer_at < self.n_answerers:
                self._answer(self.answerers[self.answer_at])
                continue
            seat = self.to_play
            trick_no = self.n_tricks + 1
            if self.trut_open:
                truted = 0
                for i in range(n):  # the other seats, in play order from the eldest
                    other = self.order[self.eldest][i]
                    if other == seat or declined[other] == trick_no:
                        continue
                    if self._wants_trut(other, trick_no):
                        self._trut(other, trick_no, seat)
                        truted = 1
                        break
                    declined[other] = trick_no
                if truted:
                    continue
                if self._wants_trut(seat, trick_no):
                    self._trut(seat, trick_no, seat)
                    continue
            self._play_card(seat, self._reference_card(seat), trick_no)

    # ------------------------------------------------------------------------------------- the bot
    cdef int _wants_trut(self, int seat, int trick_no) except -1:
        """``TrutDecisions._wants_trut``."""
        if not self.coin_drawn[seat]:
            self.coin_drawn[seat] = 1
            self.bluffing[seat] = <double>self.pdraw() < self.trut_bluff[seat]
        if self.bluffing[seat]:
            return 1
        if self.judged_trick[seat] != trick_no:
            self.judged_trick[seat] = trick_no
            self.strong[seat] = self._effective_strength(seat) >= self.trut_at[seat]
        return self.strong[seat]

    cdef double _effective_strength(self, int seat):
        """``ThresholdPolicy.effective_strength`` (no signals in Trut)."""
        cdef int team = self.team_of[seat], balance = 0, t, result
        for t in range(self.n_tricks):
            result = self.tricks[t]
            if result == team:
                balance += 1
            elif result != TIE:
                balance -= 1
        cdef double value = self.pct[seat] + 0.2 * balance
        return min(1.0, max(0.0, value))

    cdef int _sees(self, int seat) except -1:
        """``TrutDecisions.trut_answer``."""
        special = self.special
        if special == "fortial" or (special == "fortial_both" and self._at_fortial(self.team_of[self.truter])):
            return 1
        cdef double need = self.see_announced[seat] if self.word is not None else self.see_at[seat]
        return self._effective_strength(seat) >= need

    cdef int _reference_card(self, int seat):
        """``policies.base.reference_card``: the highest card to lead (the first of equals); following, the
        lowest if a partner wins the trick, else the lowest that wins, else the first that ties, else the
        lowest (``strength.lead_card``, ``follow_card``)."""
        cdef int held = self.held[seat], i, p, best, best_power, team, opposing = -1, partner = -1
        cdef int lowest = -1, winner = -1, tie = -1, low_power = 1 << 30, win_power = 1 << 30
        if held == 1:
            return self.hands[seat][0]
        if self.trick_len == 0:
            best = 0
            best_power = self.power[self.hands[seat][0]]
            for i in range(1, held):
                p = self.power[self.hands[seat][i]]
                if p > best_power:
                    best = i
                    best_power = p
            return self.hands[seat][best]
        team = self.team_of[seat]
        for i in range(self.trick_len):
            p = self.power[self.trick_card[i]]
            if self.team_of[self.trick_seat[i]] == team:
                if p > partner:
                    partner = p
            elif p > opposing:
                opposing = p
        for i in range(held):
            p = self.power[self.hands[seat][i]]
            if p < low_power:
                lowest = i
                low_power = p
            if p > opposing:
                if p < win_power:
                    winner = i
                    win_power = p
            elif p == opposing and tie < 0:
                tie = i
        if partner > opposing:
            return self.hands[seat][lowest]
        if winner >= 0:
            return self.hands[seat][winner]
        return self.hands[seat][tie if tie >= 0 else lowest]

    # ------------------------------------------------------------------------------------- the moves
    cdef void _record(self, int seat, str verb, object arg, str kind, bint answers, bint could, int trick_no,
                      int before, int after, int turn) except *:
        self.events.append((seat, verb, arg, kind, answers, could, trick_no, before, after))
        self.turns.append(turn)

    cdef void _trut(self, int seat, int trick_no, int turn) except *:
        """``TrutGame._trut``, announcing a brelan when the option is on and the seat holds one."""
        cdef int team = self.team_of[seat], i, s
        word = None
        if self.brelan and self.held[seat] == 3:
            if (self.rank_id[self.hands[seat][0]] == self.rank_id[self.hands[seat][1]]
                    and self.rank_id[self.hands[seat][1]] == self.rank_id[self.hands[seat][2]]):
                word = "brelan"
        self.truter = seat
        self.word = word
        self.trut_open = 0
        self.n_answerers = 0
        self.answer_at = 0
        for i in range(self.n):
            s = self.order[self.eldest][i]
            if self.team_of[s] != team:
                self.answerers[self.n_answerers] = s
                self.n_answerers += 1
        self._record(seat, "trut", word, "raise", False, True, trick_no, self.stake, LONG, turn)

    cdef void _answer(self, int seat) except *:
        """``TrutGame._answer`` with two sides."""
        cdef int see = self._sees(seat), before = self.stake, side
        self.answer_at += 1
        if see:
            self.answer_at = self.n_answerers  # one "je vais voir" is enough
            self.stake = LONG
        self._record(seat, "accept" if see else "fold", None, "answer", True, False, self.n_tricks + 1, before,
                     self.stake, self.to_play)
        if not see and self.answer_at >= self.n_answerers:  # everybody folded: the truters take 1 petit
            side = self.team_of[self.truter]
            self._gain_petits(side, 1)
            self._finish(side, "fold", None)

    cdef void _play_card(self, int seat, int card, int trick_no) except *:
        """``Game._play`` and ``_close_trick``."""
        cdef int i, k, held = self.held[seat], n = self.n, stake = self.stake
        for i in range(held):  # remove the card, keeping the order of the others
            if self.hands[seat][i] == card:
                for k in range(i, held - 1):
                    self.hands[seat][k] = self.hands[seat][k + 1]
                break
        self.held[seat] = held - 1
        self._record(seat, "play", card, "play", False, self.trut_open, trick_no, stake, stake, self.to_play)
        self.trick_seat[self.trick_len] = seat
        self.trick_card[self.trick_len] = card
        self.trick_len += 1
        if self.trick_len < n:
            self.to_play = (seat + 1) % n
            return
        self._close_trick()

    cdef void _close_trick(self) except *:
        """``engine.game.resolve_trick``, then ``hand_rules.first_trick_counts_double``."""
        cdef int best_seat = self.trick_seat[0], best = self.power[self.trick_card[0]], tied = 0
        cdef int maker = -1, first = -1, i, seat, p, result, winner_seat, leader
        for i in range(1, self.trick_len):
            seat = self.trick_seat[i]
            p = self.power[self.trick_card[i]]
            if p > best:
                best = p
                best_seat = seat
                tied = 0
            elif p == best and self.team_of[seat] != self.team_of[best_seat] and not tied:
                tied = 1
                maker = seat
                first = best_seat
        if tied:
            result = TIE
            winner_seat = -1
        else:
            result = self.team_of[best_seat]
            winner_seat = best_seat
        leader = self.trick_seat[0]
        self.tricks[self.n_tricks] = result
        self.n_tricks += 1
        self.trick_len = 0
        if self._hand_decided():
            return
        if result != TIE:
            self.to_play = winner_seat
        elif self.tie_lead == 0:
            self.to_play = maker
        elif self.tie_lead == 1:
            self.to_play = first
        else:
            self.to_play = leader

    cdef int _hand_decided(self) except -1:
        """``first_trick_counts_double`` on the tricks so far (3 in a hand); when it decides, the hand is won."""
        cdef int count = self.n_tricks, first = self.tricks[0], second, third, t
        if first == TIE:
            for t in range(1, count):
                if self.tricks[t] != TIE:
                    self._hand_won(self.tricks[t], "tie_next_decides")
                    return 1
            if count == 3:
                self._hand_won(-1, "all_tied")
                return 1
            return 0
        if count == 1:
            return 0
        second = self.tricks[1]
        if second == first:
            self._hand_won(first, None)
            return 1
        if second == TIE:
            self._hand_won(first, "first_counts_double")
            return 1
        if count == 2:
            return 0
        third = self.tricks[2]
        if third == second or third == first:
            self._hand_won(third, None)
            return 1
        self._hand_won(first, "first_counts_double")
        return 1

    # ------------------------------------------------------------------------------------- scoring
    cdef void _hand_won(self, int winner, object tie_rule) except *:
        """``TrutGame._hand_won`` (``winner`` -1: a void hand, nobody scores)."""
        if winner < 0:
            self.void = 1
            self._finish(-1, "tricks", tie_rule)
            return
        if self.stake >= LONG:
            self._gain_longs(winner, self.stake // LONG, 0)
        else:
            self._gain_petits(winner, 1)
        self._finish(winner, "tricks", tie_rule)

    cdef void _gain_petits(self, int side, int count):
        cdef int held
        self.won_petits[side] += count
        held = self.petits[side] + count
        if held >= PETITS_PER_LONG:
            self.petits[side] = held % PETITS_PER_LONG
            self._gain_longs(side, held // PETITS_PER_LONG, 1)
        else:
            self.petits[side] = held

    cdef void _gain_longs(self, int side, int count, int turned_in):
        self.scores[side] += count
        if not turned_in:
            self.won_longs[side] += count
        self.petits[1 - side] = 0

    cdef void _finish(self, int winner, str ended_by, object tie_rule) except *:
        """``TrutGame._finish`` and ``Game._end_hand``: the hand's record, then whether the game is won."""
        cdef int side, best
        details = (
            ("petits_team0", self.won_petits[0]),
            ("petits_team1", self.won_petits[1]),
            ("longs_team0", self.won_longs[0]),
            ("longs_team1", self.won_longs[1]),
            ("petits_after_team0", self.petits[0]),
            ("petits_after_team1", self.petits[1]),
            ("longs_after_team0", self.scores[0]),
            ("longs_after_team1", self.scores[1]),
            ("trut_seat", self.truter if self.truter >= 0 else None),
            ("special", self.special),
            ("void", bool(self.void)),
        )
        self.record = _new_tuple(HandRecord, (
            self.hand_no,
            self.dealer,
            self.eldest,
            3,
            self.dealt,
            (self.score_before[0], self.score_before[1]),
            self.stake,
            ended_by,
            winner if winner >= 0 else None,
            (self.won_petits[0] + LONG * self.won_longs[0], self.won_petits[1] + LONG * self.won_longs[1]),
            tuple([self.tricks[t] for t in range(self.n_tricks)]),
            tie_rule,
            None,
            tuple(self.events),
            details,
            tuple(self.turns),
        ))
        if self.scores[1] > self.scores[0]:
            side, best = 1, self.scores[1]
        else:
            side, best = 0, self.scores[0]
        if best >= self.target:
            self.over = 1
            self.winner_team = side


def play(config, policies, seed):
    """Play one game of Trut by threshold bots (``fast_path.applies``): what ``playing.play_game`` returns."""
    return FastTrut(config, policies, seed).play()
