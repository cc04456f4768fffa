"""The state of one game: the part every variant shares.

The API is the same for every variant (in the spirit of OpenSpiel and pokerkit):

- ``actor()``: the seat that must act now (-1 when the next step is the chance step, the deal, or the
  hand is over); ``optional_actors()``: other seats that *may* act now (a player who has just played
  may still raise; in the Trut family anyone may trut at any moment).
- ``legal_actions()``: every legal action of every seat, each naming its seat; ``legal_for(seat)``.
- ``apply(action)`` checks the action and returns the ``Event`` it produced, or raises ``RuleError``
  naming the rule broken. ``deal()`` is the chance step, drawn from the hand's own random stream
  (``DealStream``: one per hand, derived from the game's seed and the hand's number, so that a choice in
  one hand never moves the cards of another); ``apply_deal(hands)`` applies a recorded deal instead.
  These two, and ``apply_trusted``, return the event as the engine records it: a plain tuple in ``Event``'s
  field order (``Event(*event)`` names it).
- ``hand_over``, ``over``, ``scores``, ``last_hand`` (a ``HandRecord`` once a hand has ended),
  ``next_hand()``.
- ``clone()``: an independent copy of the game in progress; ``determinise(seat, rng)`` (on a copy): the cards
  ``seat`` has not seen dealt anew at random, consistently with what it has seen (for search bots).

``new_game(config, ...)`` builds the engine class the variant names (``Variant.engine``): this module holds
what every family shares — seats and sides, the dealer's rotation, the deal, trick play, ties and leads,
the hand's record, scores — and calls hooks (``_first_phase``, ``_after_deal``, ``_legal_phase``,
``_apply_phase``, ``_legal_play``, ``_apply_bet``, ``_before_card``, ``_hand_won``...) for what a
family does its own way: betting, scoring, special phases. Families live in their own modules
(``engine/ladder.py`` for Catalan Truc).

Hot-path note: the simulator calls ``apply_trusted`` with actions taken from ``legal_for``; ``apply``
re-checks legality and explains a refusal, which is what the importer needs.
"""

from __future__ import annotations

import random
from enum import IntEnum
from typing import Any, ClassVar, Final, NamedTuple

from mypy_extensions import i64

from pipeline.cards import UNKNOWN
from pipeline.engine.actions import (
    DEALT,
    FOLD,
    KNOWN_VERBS,
    PLAY,
    Action,
    Event,
    EventTuple,
    RuleError,
    action_table,
    make_action,
    make_event,
)
from pipeline.engine.hand_rules import decide_hand
from pipeline.engine.rules import TIE, Config


class Phase(IntEnum):
    """Where a hand is. Families use the phases they need; ``_first_phase`` and ``_after_deal`` say which.
    ``Game.phase`` always holds a member, and is compared by identity (``is``): compiled, ``==`` on an enum
    is a generic comparison, several per action."""

    CUT = 0  # catalan: the cutter cuts or declines (one-card deal possible)
    DEAL_CHOICE = 1  # catalan: after "nocut", the dealer deals one card or three
    DEAL = 2  # chance step
    HOLD = 3  # catalan 11 points, trut-gatine "à tenir": play or not
    SIGNAL = 4  # partners signal, each in turn from the eldest
    PLAY = 5  # tricks and bets
    HAND_OVER = 6
    REDEAL = 7  # french: the eldest asks for new cards, the others answer
    FORTIAL = 8  # trut: the fortial team decides to trut or not before the others look
    SING = 9  # trut-gatinaise / trut-gatine: la chanson, chanter
    DISCARD = 10  # keep 3 cards after extra cards were dealt


# The phases the hot paths test, as plain module constants: reading ``Phase.PLAY`` through the enum's
# metaclass costs five times as much, several times per action.
PLAYING: Final = Phase.PLAY
HAND_OVER: Final = Phase.HAND_OVER
DEALING: Final = Phase.DEAL

_PHASE_DECISIONS: Final = {Phase.CUT: "cut", Phase.DEAL_CHOICE: "deal", Phase.HOLD: "hold", Phase.SIGNAL: "signal"}


class HandRecord(NamedTuple):
    """Everything recorded about one finished hand. ``points`` and ``score_before`` have one entry per
    side; ``details`` holds a family's own outcomes (petits and longs, the envit...) as name/value pairs.
    (A named tuple: immutable like a frozen dataclass, and several times cheaper to build per hand.)"""

    hand_no: int
    dealer: int
    eldest: int
    cards_dealt: int
    dealt: tuple[tuple[int, ...], ...]  # per seat, in deal order
    score_before: tuple[int, ...]
    stake: int
    ended_by: str  # tricks | fold | pass, or a family's own ending
    winner_team: int | None  # None for a void hand
    points: tuple[int, ...]
    tricks: tuple[int, ...]  # side per trick, TIE for a tied one
    tie_rule: str | None
    signals: tuple[str, ...] | None
    event_tuples: tuple[EventTuple, ...]  # as the engine records them; ``events`` names them
    details: tuple[tuple[str, Any], ...] = ()
    turns: tuple[int, ...] = ()  # per event: the seat to play a card when it happened, -1 outside play

    @property
    def events(self) -> tuple[Event, ...]:
        """The hand's events, named (built at each call: the simulator reads ``event_tuples``)."""
        return tuple([Event(*event) for event in self.event_tuples])


_new_tuple: Final = tuple.__new__

_M16: Final[i64] = 0xFFFF
_M32: Final[i64] = 0xFFFF_FFFF
_GOLDEN_HI: Final[i64] = 0x9E37_79B9  # splitmix64's increment, 0x9E3779B97F4A7C15 (2^64 over the golden
_GOLDEN_LO: Final[i64] = 0x7F4A_7C15  # ratio, odd), in two halves
_MIX1_HI: Final[i64] = 0xBF58_476D  # splitmix64's two multipliers, 0xBF58476D1CE4E5B9 and 0x94D049BB133111EB
_MIX1_LO: Final[i64] = 0x1CE4_E5B9
_MIX2_HI: Final[i64] = 0x94D0_49BB
_MIX2_LO: Final[i64] = 0x1331_11EB


def _low_product(a: i64, b: i64) -> i64:
    """(a * b) mod 2^32 for a, b below 2^32, every step below 2^49."""
    return ((a & _M16) * b + ((((a >> 16) * b) & _M16) << 16)) & _M32


def _product(ah: i64, al: i64, bh: i64, bl: i64) -> tuple[i64, i64]:
    """(a * b) mod 2^64 on 32-bit halves (high, low), every step below 2^49."""
    low0 = (al & _M16) * bl
    low1 = (al >> 16) * bl
    low = (low0 & _M32) + ((low1 & _M16) << 16)
    high = (low0 >> 32) + (low1 >> 16) + (low >> 32) + _low_product(ah, bl) + _low_product(al, bh)
    return high & _M32, low & _M32


def _splitmix64(high: i64, low: i64) -> tuple[i64, i64]:
    """splitmix64's mix of a 64-bit state given in halves (Steele, Lea and Flood 2014, the mixer of Java's
    SplittableRandom): a bijection whose outputs on consecutive states are statistically independent."""
    low ^= ((low >> 30) | (high << 2)) & _M32  # z ^= z >> 30
    high ^= high >> 30
    high, low = _product(high, low, _MIX1_HI, _MIX1_LO)
    low ^= ((low >> 27) | (high << 5)) & _M32  # z ^= z >> 27
    high ^= high >> 27
    high, low = _product(high, low, _MIX2_HI, _MIX2_LO)
    low ^= ((low >> 31) | (high << 1)) & _M32  # z ^= z >> 31
    high ^= high >> 31
    return high, low


class DealStream:
    """The random numbers of a game's deals: a stream of its own for every hand.

    Hand ``h`` of a game whose seed is ``key`` (taken modulo 2^64) draws from xoshiro128** (Blackman and
    Vigna 2018) seeded, as its authors advise, with two outputs of splitmix64: the mixes of the states
    ``key + (2h - 1) * G`` and ``key + 2h * G`` (G = 0x9E3779B97F4A7C15), which are outputs 2h-1 and 2h of
    the splitmix64 sequence started at ``key``; the low half of each output is the first word of the state.
    So a hand's cards depend only on the game's seed and the hand's number, whatever was chosen or drawn
    before: two games of one seed see the same shuffle in every hand both play (``playing.SEED_SCHEME``).

    Why not ``random.Random``: seeding a Mersenne Twister costs about 4 µs, more than half of what a whole
    2-player hand costs the engine. Here every number is a 64-bit integer of mypyc's (``i64``) whose every
    step stays below 2^63 (64-bit products are made of 16- and 32-bit pieces), the same in pure Python, and a
    hand's start and deal cost about 0.2 µs compiled. ``pipeline/_fast_trut.pyx`` computes the same in C, and
    ``tests/test_pairing.py`` checks both against the published algorithms."""

    def __init__(self, key: int) -> None:
        key &= 0xFFFF_FFFF_FFFF_FFFF
        self.key_high: i64 = key >> 32
        self.key_low: i64 = key & 0xFFFF_FFFF
        self.s0: i64 = 0
        self.s1: i64 = 0
        self.s2: i64 = 0
        self.s3: i64 = 0
        self.start(1)

    @property
    def key(self) -> int:
        """The stream's key: the game's seed modulo 2^64."""
        return int(self.key_high) << 32 | int(self.key_low)

    def start(self, hand_no: i64) -> None:
        """Start the stream of hand ``hand_no`` (from 1, the first hand, to 2^31)."""
        step_high, step_low = _product(0, (2 * hand_no - 1) & _M32, _GOLDEN_HI, _GOLDEN_LO)
        low = self.key_low + step_low
        high = (self.key_high + step_high + (low >> 32)) & _M32
        low &= _M32
        first_high, first_low = _splitmix64(high, low)
        low += _GOLDEN_LO
        high = (high + _GOLDEN_HI + (low >> 32)) & _M32
        second_high, second_low = _splitmix64(high, low & _M32)
        self.s0 = first_low
        self.s1 = first_high
        self.s2 = second_low
        self.s3 = second_high

    def reseed(self, key: int, hand_no: i64) -> None:
        """Go on with the stream of hand ``hand_no`` of another key (a determinised copy's own chance)."""
        key &= 0xFFFF_FFFF_FFFF_FFFF
        self.key_high = key >> 32
        self.key_low = key & 0xFFFF_FFFF
        self.start(hand_no)

    def next32(self) -> i64:
        """The next 32 random bits (xoshiro128**)."""
        s0 = self.s0
        s1 = self.s1
        s2 = self.s2 ^ s0
        s3 = self.s3 ^ s1
        x = (s1 * 5) & _M32
        result = ((((x << 7) | (x >> 25)) & _M32) * 9) & _M32
        self.s0 = s0 ^ s3
        self.s1 = s1 ^ s2
        self.s2 = s2 ^ ((s1 << 9) & _M32)
        self.s3 = ((s3 << 11) | (s3 >> 21)) & _M32
        return result

    def below(self, bound: i64) -> int:
        """A number from 0 to ``bound - 1`` (``bound`` below 2^31): the high part of 32 random bits times the
        bound, whose bias (at most bound / 2^32) no deal could show."""
        return int((self.next32() * bound) >> 32)

    def copy(self) -> DealStream:
        """An independent copy, at the same point of the same stream."""
        other = DealStream(0)
        other.key_high, other.key_low = self.key_high, self.key_low
        other.s0, other.s1, other.s2, other.s3 = self.s0, self.s1, self.s2, self.s3
        return other

    def __reduce__(self) -> tuple[Any, tuple[int, int, int, int, int, int]]:
        """Pickled as its key and state (compiled, the class has no ``__dict__`` for pickle to read)."""
        return _restored_stream, (self.key_high, self.key_low, self.s0, self.s1, self.s2, self.s3)


def _restored_stream(key_high: int, key_low: int, s0: int, s1: int, s2: int, s3: int) -> DealStream:
    """The deal stream ``DealStream.__reduce__`` describes."""
    stream = DealStream(0)
    stream.key_high, stream.key_low = key_high, key_low
    stream.s0, stream.s1, stream.s2, stream.s3 = s0, s1, s2, s3
    return stream


def new_game(config: Config, *args: Any, **kwargs: Any) -> Game:
    """A new game of ``config``'s variant, built by the engine class the variant names (``Variant.engine``);
    the arguments after ``config`` are that class's (seed, first dealer, starting scores...)."""
    engine: Any = config.variant.engine
    game: Game = engine(config, *args, **kwargs)
    return game


def team_of_seat(seat: int, sides: int = 2) -> int:
    """Sides alternate in play order (RULES.md "Common model"): 0,1,0,1... or 0,1,2 with 3 players alone."""
    return seat % sides


class Game:
    """One game, from its first deal to its end (``new_game`` builds the variant's own engine class)."""

    def __init__(
        self,
        config: Config,
        seed: int | None = None,
        first_dealer: int | None = None,
        scores: tuple[int, ...] | None = None,
    ) -> None:
        """A new game. ``scores`` starts it from a given score (to study end-games)."""
        self.config = config
        self.variant = variant = config.variant
        self.n = n = config.players
        if n not in variant.players:
            raise ValueError(f"{variant.name} is played by {variant.players} players, not {n}")
        self.sides = sides = variant.sides(n)
        self.team_of = tuple(team_of_seat(s, sides) for s in range(n))
        self.opponents = config.opponents
        self.deck_size = len(variant.deck)
        self._deck_cards = list(range(self.deck_size))  # copied at each deal: cheaper than a new range
        self.hand_rule = variant.hand_rule  # read after every trick: a native attribute, not the variant's
        self._play_table = action_table(n, PLAY, tuple(range(self.deck_size)))  # seat -> card -> "play"
        self.power = variant.power
        self.tie_lead = variant.tie_lead  # who leads after a tied trick; an option may change it per game
        self.target = variant.target
        self.signals_on = config.signals
        self.seed = seed
        # the first dealer comes from the game's seed, as it always did
        if first_dealer is None:
            first_dealer = random.Random(seed).randrange(n)
        elif not 0 <= first_dealer < n:
            raise ValueError(f"first dealer {first_dealer} is not a seat of a {n}-player game")
        self.first_dealer = first_dealer
        # the deals: a stream per hand from the seed (a game without a seed takes one from the system)
        self.stream = DealStream(seed if seed is not None else random.Random().getrandbits(64))
        start = tuple(scores) if scores is not None else (0,) * sides
        if len(start) != sides or min(start) < 0 or max(start) >= self.target:
            raise ValueError(f"starting scores {start} must be {sides} numbers between 0 and {self.target - 1}")
        self.scores = list(start)
        self.hand_no = 0
        self.dealer = first_dealer
        self.over = False
        self.winner_team: int | None = None
        self.last_hand: HandRecord | None = None
        self._begin_hand()

    # ------------------------------------------------------------------------------------- hand set-up

    def next_hand(self) -> None:
        """Start the next hand once the current one is over; the deal passes to the next seat."""
        if self.phase is not HAND_OVER:
            raise RuleError("hand-not-over", "the current hand is not over")
        if self.over:
            raise RuleError("game-over", "the game is over")
        self.dealer = (self.dealer + 1) % self.n
        self._begin_hand()

    def _begin_hand(self) -> None:
        n = self.n
        self.hand_no += 1
        self.stream.start(self.hand_no)
        self.eldest = (self.dealer + 1) % n
        self.eldest_team = self.team_of[self.eldest]
        self.score_before = tuple(self.scores)
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.stock: list[int] = []  # the cards not dealt, once the deal is made
        self.dealt: tuple[tuple[int, ...], ...] = ()
        self.known: set[int] = set()
        self.cards_dealt = 3
        self.stake = 1
        self.after_play = -1  # the seat that has just played (it may still act in some variants)
        self.to_play = self._first_leader()
        self.trick: list[tuple[int, int]] = []
        self.tricks: list[int] = []
        self.events: list[EventTuple] = []
        self.turns: list[int] = []  # per event: the seat to play a card when it happened, -1 outside play
        self.signals: list[str] = []
        self.decider = -1
        self._reset_hand()
        self.phase = self._first_phase()

    def _first_leader(self) -> int:
        """The seat that leads trick 1: the eldest, unless a variant says otherwise."""
        return self.eldest

    # -------------------------------------------------------------------------------- hooks (families)

    def _reset_hand(self) -> None:
        """Set the family's own per-hand state."""

    def _first_phase(self) -> Phase:
        return DEALING

    def _after_deal(self) -> None:
        """Choose the phase after the deal."""
        self._start_signals_or_play()

    def _legal_phase(self, seat: int) -> list[Action]:
        """Legal actions in a phase other than DEAL, PLAY and HAND_OVER."""
        if self.phase is Phase.SIGNAL and seat == self.decider:
            from pipeline.engine.actions import SIGNAL, SIGNALS

            return [make_action(seat, SIGNAL, s) for s in SIGNALS]
        return []

    def _apply_phase(self, seat: int, verb: str, arg: Any) -> EventTuple:
        if self.phase is Phase.SIGNAL:
            return self._signal(seat, arg)
        raise RuleError("phase", f"no action '{verb}' in phase {self.phase.name}")

    def _legal_play(self, seat: int) -> list[Action]:
        """Legal actions while tricks are played: by default, the seat to play plays a card."""
        return self._plays(seat) if seat == self.to_play else []

    def _apply_bet(self, seat: int, verb: str, arg: Any) -> EventTuple:
        raise RuleError("unknown-verb", f"'{verb}' is not a move of {self.variant.name}")

    def _before_card(self, seat: int) -> bool:
        """Called before a card is played; returns whether the play answered a pending bet."""
        return False

    def may_raise(self, seat: int) -> bool:
        """Whether ``seat`` has a raise among its legal actions now."""
        return False

    def may_envit(self, seat: int) -> bool:
        """Whether ``seat`` has the envit calls among its legal actions now (families with an envit)."""
        return False

    def decision(self, seat: int, optional: bool = False) -> str:
        """The name of what ``seat`` is asked to decide now (a policy has a method of that name)."""
        phase = self.phase
        if phase is PLAYING:
            if optional:
                return "raise_option"
            return "answer" if self.answering(seat) else "turn"
        named = _PHASE_DECISIONS.get(phase)
        return named if named is not None else phase.name.lower()

    def raise_action(self, seat: int) -> Action | None:
        """The raise ``seat`` may make now, or None (families with one obvious raise answer directly)."""
        raises = self.raise_actions(seat)
        return raises[0] if raises else None

    def raise_actions(self, seat: int) -> list[Action]:
        """Every raise ``seat`` may make now (families with raises of several sizes answer directly)."""
        raise_verbs = self.variant.raise_verbs
        return [action for action in self.legal_for(seat) if action.verb in raise_verbs]

    def answering(self, seat: int) -> bool:
        """Whether ``seat`` is asked to answer a pending bet now."""
        return False

    def proposed_stake(self) -> int:
        """The stake a pending raise proposes, 0 when none."""
        return 0

    def _refused(self, seat: int, raising_side: int) -> EventTuple:
        """``seat`` folds: the raising side scores the stake in force before the raise and the hand ends
        (RULES.md "Common model"). Families clear their own pending bet after it."""
        could = self.may_raise(seat)
        stake = self.stake
        event = self._record(make_event(seat, FOLD, None, "answer", True, could, len(self.tricks) + 1, stake, stake))
        points = [0] * self.sides
        points[raising_side] = stake
        self._end_hand(raising_side, tuple(points), "fold", None)
        return event

    def _hand_won(self, winner: int | None, tie_rule: str | None) -> None:
        """The tricks decided the hand (``winner`` None for a void hand): score it."""
        points = [0] * self.sides
        if winner is not None:
            points[winner] = self.stake
        self._end_hand(winner, tuple(points), "tricks", tie_rule)

    def _apply_scores(self, points: tuple[int, ...]) -> None:
        for side, value in enumerate(points):
            self.scores[side] += value

    def _game_winner(self) -> int | None:
        """The side that has won the game after this hand, or None."""
        scores = self.scores
        side, best = 0, scores[0]
        for other in range(1, len(scores)):  # the first of equal highest, as max and index would find
            if scores[other] > best:
                side, best = other, scores[other]
        return side if best >= self.target else None

    def _hand_details(self) -> tuple[tuple[str, Any], ...]:
        return ()

    def public_state(self) -> dict[str, Any]:
        """A family's public state that a seat's view may show (``SeatView.public``): petits held, the
        trut announced... Empty by default."""
        return {}

    def public_value(self, name: str) -> Any:
        """One entry of ``public_state()`` (a family may answer it without building the whole state)."""
        return self.public_state()[name]

    # ------------------------------------------------------------- text format (FORMAT.md "Play")
    def end_values(self, record: HandRecord) -> list[str]:
        """The values of a hand's ``end`` line, one per side, in the variant's units."""
        return [str(p) for p in record.points]

    def result_text(self) -> str:
        """The ``Result`` tag: the final score by side in the variant's units, e.g. ``12-7``."""
        return "-".join(str(s) for s in self.scores)

    def most_in_one_hand(self) -> int:
        """The most a side can score in one hand, in the units of ``scores``: a game ends at most this
        far past ``target - 1``, which bounds the ``Result`` of a game recorded in part. Here the top
        rung of the raise ladder (a hold at 11 plays for it too)."""
        return max([rung.stake for rung in self.variant.ladder], default=1)

    def _explain(self, action: Action) -> RuleError | None:
        """A family's explanation of why ``action`` is refused, or None to use the generic one."""
        return None

    # ------------------------------------------------------------------------------------------ queries

    @property
    def hand_over(self) -> bool:
        return self.phase is HAND_OVER

    @property
    def trick_no(self) -> int:
        return len(self.tricks) + 1 if self.phase is PLAYING else 0

    def actor(self) -> int:
        """The seat that must act now; -1 for the chance step or when the hand is over."""
        phase = self.phase
        if phase is PLAYING:
            return self.to_play
        if phase in (DEALING, HAND_OVER):
            return -1
        return self.decider

    def optional_actors(self) -> list[int]:
        """Seats other than ``actor()`` that may act now, in the order they are asked."""
        return []

    def legal_for(self, seat: int) -> list[Action]:
        """The legal actions of one seat now."""
        phase = self.phase
        if phase is PLAYING:
            return self._legal_play(seat)
        if phase in (DEALING, HAND_OVER):
            return []
        return self._legal_phase(seat)

    def deal_size(self) -> int:
        """The cards each seat receives in the deal the engine waits for (a family may deal more inside a
        hand)."""
        return self.cards_dealt

    def deal_pool(self) -> list[int]:
        """The cards the chance step the engine waits for draws from, in card order (what a game-tree tool
        deals card by card through ``apply_deal``): the whole deck for a hand's first deal; a family that
        deals again inside a hand draws from what is left."""
        return list(range(self.deck_size))

    def play_action(self, seat: int, card: int) -> Action:
        """The action ``seat play card`` (made once per seat and card of a deck: bots play many)."""
        return self._play_table[seat][card]

    def _plays(self, seat: int) -> list[Action]:
        hand = self.hands[seat]
        if UNKNOWN in hand:  # a replayed hand with unseen cards: any unseen card may be played
            seen = self.known | {c for _, c in self.trick}
            options = [c for c in hand if c != UNKNOWN]
            options += [c for c in range(self.deck_size) if c not in seen and c not in options]
            return [make_action(seat, PLAY, c) for c in options]
        actions = self._play_table[seat]
        return [actions[c] for c in hand]

    def legal_actions(self) -> list[Action]:
        """Every legal action now, of every seat that may act."""
        first = self.actor()
        seats = ([first] if first >= 0 else []) + [s for s in self.optional_actors() if s != first]
        return [a for s in seats for a in self.legal_for(s)]

    # ------------------------------------------------------------------------------------------- deal

    def deal(self) -> EventTuple:
        """The chance step: shuffle and deal, one card at a time from the eldest, from the hand's stream. The
        shuffle is a partial Fisher-Yates that draws only the cards dealt, in order: a one-card deal gives
        each seat the first card a three-card deal of the same hand would have given it."""
        if self.phase is not DEALING:
            raise RuleError("not-dealing", "cards are dealt only at the start of a hand")
        n, k = self.n, self.cards_dealt
        size = self.deck_size
        cards = self._deck_cards[:]
        stream = self.stream
        dealt = n * k
        for i in range(dealt):  # a partial Fisher-Yates shuffle: only the cards dealt are drawn
            j = i + stream.below(size - i)
            card = cards[j]
            cards[j] = cards[i]
            cards[i] = card
        # the i-th card drawn goes to seat (eldest + i) % n
        eldest = self.eldest
        if k == 3:
            hands = [[cards[i], cards[i + n], cards[i + 2 * n]] for i in [(seat - eldest) % n for seat in range(n)]]
        else:
            hands = [cards[(seat - eldest) % n : dealt : n] for seat in range(n)]
        self.stock = cards[dealt:]
        return self._dealt(hands, unknown=False)

    def apply_deal(self, hands: list[list[int]]) -> EventTuple:
        """Apply a recorded deal (cards per seat; ``UNKNOWN`` for unseen cards), checking it."""
        if self.phase is not DEALING:
            raise RuleError("not-dealing", "cards are dealt only at the start of a hand")
        if len(hands) != self.n:
            raise RuleError("deal-seats", f"the deal lists {len(hands)} seats, the game has {self.n}")
        dealt = [False] * self.deck_size  # by card: a list, indexed natively once compiled, where a set hashes
        for seat, cards in enumerate(hands):
            if len(cards) != self.cards_dealt:
                raise RuleError(
                    "deal-size",
                    f"seat {seat} is dealt {len(cards)} card{'' if len(cards) == 1 else 's'}; "
                    f"this hand deals {self.cards_dealt}",
                )
            for card in cards:
                if card == UNKNOWN:
                    continue
                if dealt[card]:
                    raise RuleError("card-twice", f"{self.variant.deck.text(card)} is dealt twice")
                dealt[card] = True
        self.stock = [c for c in range(self.deck_size) if not dealt[c]]
        return self._dealt([list(c) for c in hands], unknown=any(UNKNOWN in h for h in hands))

    def _dealt(self, hands: list[list[int]], unknown: bool) -> EventTuple:
        self.hands = hands
        self.dealt = tuple([tuple(h) for h in hands])
        if unknown:  # only replays of records with unseen cards need to track the cards seen
            self.known = {c for h in hands for c in h if c != UNKNOWN}
        event = make_event(-1, DEALT, self.dealt, "deal", False, False, 0, self.stake, self.stake)
        self.events.append(event)
        self.turns.append(-1)
        self._after_deal()
        return event

    def _start_signals_or_play(self) -> None:
        if self.signals_on:
            self.phase = Phase.SIGNAL
            self.decider = self.eldest
        else:
            self.phase = PLAYING
            self.decider = -1

    def _signal(self, seat: int, arg: Any) -> EventTuple:
        from pipeline.engine.actions import SIGNAL

        self.signals.append(str(arg))
        stake = self.stake
        event = self._record(make_event(seat, SIGNAL, arg, "signal", False, False, 0, stake, stake))
        if len(self.signals) == self.n:
            self.phase = PLAYING
            self.decider = -1
        else:
            self.decider = (seat + 1) % self.n
        return event

    # ---------------------------------------------------------------------------------------- actions

    def apply(self, action: Action) -> Event:
        """Check ``action`` against the rules and apply it; raise ``RuleError`` if it is not legal."""
        return Event(*self.apply_checked(action))

    def apply_checked(self, action: Action) -> EventTuple:
        """``apply``, its event as the engine records it (a plain tuple: naming it costs a Python-level
        ``__new__`` an action, which a replay of a whole file, that reads none, need not pay)."""
        if not (isinstance(action.seat, int) and 0 <= action.seat < self.n):
            raise RuleError("seat", f"seat {action.seat} does not exist in a {self.n}-player game")
        if action not in self.legal_for(action.seat):
            raise self._refusal(action)
        return self.apply_trusted(action)

    def apply_trusted(self, action: Action) -> EventTuple:
        """Apply an action known to be legal (taken from ``legal_for``)."""
        seat, verb, arg = action
        phase = self.phase
        if phase is PLAYING:
            if verb == PLAY:
                return self._play(seat, arg)  # type: ignore[arg-type]
            return self._apply_bet(seat, verb, arg)
        if phase is HAND_OVER:
            raise RuleError("hand-over", "the hand is over")
        self.after_play = -1
        return self._apply_phase(seat, verb, arg)

    def _record(self, event: EventTuple) -> EventTuple:
        """Keep ``event`` in the hand's record, with the seat whose turn it was to play a card (-1 outside
        trick play): what tells a raise or a trut out of turn from one in turn."""
        self.events.append(event)
        self.turns.append(self.to_play if self.phase is PLAYING else -1)
        return event

    def _play(self, seat: int, card: int) -> EventTuple:
        could = self.may_raise(seat)
        before = self.stake
        answers = self._before_card(seat)
        hand = self.hands[seat]
        try:
            hand.remove(card)
        except ValueError:  # a replayed hand with unseen cards plays one of them
            hand.remove(UNKNOWN)
            self.known.add(card)
        trick_no = len(self.tricks) + 1
        event = self._record(make_event(seat, PLAY, card, "play", answers, could, trick_no, before, self.stake))
        self.after_play = seat
        trick = self.trick
        trick.append((seat, card))
        if len(trick) < self.n:
            self.to_play = (seat + 1) % self.n
            return event
        self._close_trick()
        return event

    def _close_trick(self) -> None:
        result, winner_seat, maker, first = resolve_trick(self.trick, self.power, self.team_of)
        self.tricks.append(result)
        leader = self.trick[0][0]
        self.trick = []
        if self._hand_decided():
            self.after_play = -1
            return
        if result != TIE:
            self.to_play = winner_seat
        else:
            tie_lead = self.tie_lead
            self.to_play = leader if tie_lead == "leader" else maker if tie_lead == "maker" else first

    def _hand_decided(self) -> bool:
        """Apply the variant's hand rule to the tricks so far; when it decides the hand, the hand is won."""
        decided = decide_hand(self.hand_rule, self.tricks, self.cards_dealt, self.eldest_team)
        if decided is None:
            return False
        winner, tie_rule = decided
        self._hand_won(winner, tie_rule)
        return True

    def _end_hand(self, winner: int | None, points: tuple[int, ...], ended_by: str, tie_rule: str | None) -> None:
        self._apply_scores(points)
        self.phase = HAND_OVER
        self.decider = -1
        record = (  # HandRecord's fields in order, built as make_event builds an event (once per hand)
            self.hand_no,
            self.dealer,
            self.eldest,
            self.cards_dealt,
            self.dealt,
            self.score_before,
            self.stake,
            ended_by,
            winner,
            points,
            tuple(self.tricks),
            tie_rule,
            tuple(self.signals) if self.signals_on and self.signals else None,
            tuple(self.events),
            self._hand_details(),
            tuple(self.turns),
        )
        self.last_hand = _new_tuple(HandRecord, record)
        game_winner = self._game_winner()
        if game_winner is not None:
            self.over = True
            self.winner_team = game_winner

    # ------------------------------------------------------------------------- copies and determinisation
    SHARED_STATE: ClassVar[frozenset[str]] = frozenset(
        ["config", "variant", "team_of", "_deck_cards", "_play_table", "power", "hand_rule", "ladder"]
        + ["_orders", "order", "others", "_trut_actions", "words", "_raise_table", "signal_words", "signal_case"]
    )
    """Attributes whose values no move changes in place (the rules, action tables, the play orders a hand
    points to): a copy shares them. Every other attribute is copied, its lists, sets and dicts anew."""

    def clone(self) -> Game:
        """An independent copy of the game as it stands: applying moves to one never changes the other. The
        rules and tables are shared; every per-hand and per-game field is copied (a list of lists to its
        inner lists), the deal stream too, so both deal the same cards from here."""
        engine: Any = type(self)
        other: Game = engine(self.config, self.seed, self.first_dealer)
        names: Any = getattr(engine, "__mypyc_attrs__", None)  # compiled: the class's attributes
        if names is None:
            names = list(vars(self))  # interpreted: the instance's own
        shared = self.SHARED_STATE
        for name in names:
            value = getattr(self, name, _UNSET)
            if value is _UNSET:  # an attribute this family sets later, not set yet
                continue
            setattr(other, name, value if name in shared else _copied(value))
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        """``copy.deepcopy`` makes a ``clone`` (what OpenSpiel does to a Python game's state to copy it)."""
        return self.clone()

    def __copy__(self) -> Game:
        return self.clone()

    def __reduce__(self) -> tuple[Any, tuple[Config, dict[str, Any]]]:
        """Pickled as its configuration and every other attribute (a ``Config`` pickles as its variant's name
        and options: ``pipeline.variants``). What OpenSpiel's serialisation of a Python game's state needs."""
        return _restored_game, (self.config, self._state())

    def _state(self) -> dict[str, Any]:
        """Every attribute but the configuration and the variant, by name, as they stand (the shared ones
        too: a hand's play order is a shared table the hand points to)."""
        engine: Any = type(self)
        names: Any = getattr(engine, "__mypyc_attrs__", None)  # compiled: the class's attributes
        if names is None:
            names = list(vars(self))  # interpreted: the instance's own
        state: dict[str, Any] = {}
        for name in names:
            if name in ("config", "variant") or name.startswith("__"):
                continue
            value = getattr(self, name, _UNSET)
            if value is not _UNSET:
                state[name] = value
        return state

    def determinise(self, seat: int, rng: random.Random) -> None:
        """Replace, in place (on a ``clone``), every card ``seat`` has not seen by a random assignment of the
        unseen cards, consistent with what it has seen (``seen_by``), and give the game a deal stream of its
        own from ``rng``. The cards it holds and has held in this hand, the cards laid face up and every public
        record stay as they are; the other seats' unplayed cards, the stock (and a French hand's discarded
        cards, a Valencian covered card, a Gâtine discard of another seat) receive the unseen cards, drawn
        uniformly: each place, in an order that depends only on what the seat sees (``hidden_places``), takes
        the next card of a shuffle of the unseen cards in card order. So two games that ``seat`` sees alike
        give the same result for the same ``rng``, whatever their hidden cards. The record of the hand (the
        deals, a covered card's event...) follows the cards, so the copy replays as a game in itself.

        What the seat may know besides is not used: the bets, signals and announcements (a ``trut brelan``
        announced may be left without its brelan), which a bot may weigh by its own means."""
        if self.known:
            raise ValueError("a game with unseen cards in its record cannot be determinised")
        self.stream.reseed(rng.getrandbits(64), self.hand_no)
        if not self.dealt:  # before the deal (a cut) nothing is hidden yet
            return
        seen = self.seen_by(seat)
        places = [card for cards in self.hidden_places(seat) for card in cards if card not in seen]
        pool = sorted([card for card in range(self.deck_size) if card not in seen])
        if sorted(places) != pool:
            raise RuntimeError(f"{self.variant.name}: the hidden places do not hold every unseen card once")
        fresh = list(pool)
        rng.shuffle(fresh)
        mapping = list(range(self.deck_size))
        for old, new in zip(places, fresh, strict=True):
            mapping[old] = new
        self._map_cards(mapping)

    def seen_by(self, seat: int) -> set[int]:
        """The cards ``seat`` has seen in this hand: those it holds or was dealt, and those laid face up."""
        seen = set(self.hands[seat])
        for event in self.events:
            verb = event[1]
            if verb == DEALT:
                seen.update(event[2][seat])
            elif verb == PLAY:
                seen.add(event[2])
        return seen

    def hidden_places(self, seat: int) -> list[list[int]]:
        """Where the cards ``seat`` has not seen may be, in an order that depends only on what it sees: the
        other seats' hands in seat order, then the stock. A family with other places adds them."""
        return [self.hands[s] for s in range(self.n) if s != seat] + [self.stock]

    def _map_cards(self, mapping: list[int]) -> None:
        """Put ``mapping[card]`` for every card, wherever the game keeps cards (a family adds its places)."""

        def m(card: int) -> int:
            return mapping[card] if 0 <= card < len(mapping) else card

        self.hands = [[m(c) for c in hand] for hand in self.hands]
        self.stock = [m(c) for c in self.stock]
        self.dealt = tuple([tuple([m(c) for c in hand]) for hand in self.dealt])
        self.trick = [(s, m(c)) for s, c in self.trick]
        self.events = [self._mapped_event(event, mapping) for event in self.events]

    def _mapped_event(self, event: EventTuple, mapping: list[int]) -> EventTuple:
        """``event`` with its cards mapped: a deal's, a card played (a family maps its own card verbs)."""
        verb, arg = event[1], event[2]
        if verb == DEALT:
            arg = tuple([tuple([mapping[c] if 0 <= c < len(mapping) else c for c in hand]) for hand in arg])
        elif verb == PLAY:
            arg = mapping[arg]
        else:
            return event
        return make_event(event[0], verb, arg, event[3], event[4], event[5], event[6], event[7], event[8])

    # ----------------------------------------------------------------------------------- explanations

    def _refusal(self, action: Action) -> RuleError:
        """Explain why ``action`` is not legal now, naming the rule."""
        seat, verb, arg = action
        if not 0 <= seat < self.n:
            return RuleError("seat", f"seat {seat} does not exist in a {self.n}-player game")
        phase = self.phase
        if phase is HAND_OVER:
            return RuleError("hand-over", "the hand is already decided")
        if phase is DEALING:
            return self._explain(action) or RuleError("deal-expected", f"the cards must be dealt before '{verb}'")
        family = self._explain(action)
        if family is not None:
            return family
        if phase is not PLAYING:
            if seat != self.decider:
                return RuleError("turn", f"seat {self.decider} must act now ({phase.name.lower()}), not seat {seat}")
            if phase is Phase.SIGNAL and verb == "signal":
                from pipeline.engine.actions import SIGNALS

                return RuleError("signal", f"{arg!r} is not a signal; signals: {' '.join(SIGNALS)}")
            return self._misplaced(verb, phase.name.lower())
        if verb == PLAY:
            if seat != self.to_play:
                return RuleError("turn", f"it is seat {self.to_play}'s turn to play, not seat {seat}'s")
            text = self.variant.deck.text(arg) if isinstance(arg, int) else str(arg)
            return RuleError("card-not-held", f"seat {seat} does not hold {text}")
        return self._misplaced(verb, f"phase {phase.name.lower()}")

    def _misplaced(self, verb: str, when: str) -> RuleError:
        """A verb that is not legal now: one of the variant's moves at the wrong moment, another variant's
        move, or no move at all."""
        variant = self.variant
        if verb in variant.verbs:
            return RuleError("phase", f"'{verb}' is not allowed now ({when})")
        if verb in KNOWN_VERBS:
            moves = ", ".join(sorted(variant.verbs))
            return RuleError("other-variant", f"'{verb}' is not a move of {variant.name}; its moves: {moves}")
        return RuleError("unknown-verb", f"'{verb}' is not a move of {variant.name}")


def resolve_trick(
    plays: list[tuple[int, int]], power: tuple[int, ...], team_of: tuple[int, ...]
) -> tuple[int, int, int, int]:
    """The trick's result (winning side or TIE), its winning seat, and for a tie the seat that made it
    (the first to match the best card for another side) and the seat that played the first of them.

    Equal top cards of one side are no tie: that side wins and its earlier player counts as the winner
    (seed 000 "Le jeu"). A card that is unknown can't be played, so every card here has a power.
    """
    best_seat, best_card = plays[0]
    best = power[best_card]
    tied = False
    maker = first = -1
    for seat, card in plays[1:]:
        p = power[card]
        if p > best:
            best, best_seat, tied = p, seat, False
        elif p == best and team_of[seat] != team_of[best_seat] and not tied:
            tied, maker, first = True, seat, best_seat
    if tied:
        return TIE, -1, maker, first
    return team_of[best_seat], best_seat, -1, -1


_UNSET: Final = object()
"""What ``getattr`` gives ``Game.clone`` for an attribute not set yet."""


def _restored_game(config: Config, state: dict[str, Any]) -> Game:
    """The game ``Game.__reduce__`` describes: built afresh by its engine class, then given its state."""
    engine: Any = config.variant.engine
    game: Game = engine(config, state["seed"], state["first_dealer"])
    for name, value in state.items():
        setattr(game, name, value)
    return game


def _copied(value: Any) -> Any:
    """A copy of one attribute's value for ``Game.clone``: lists (and lists of lists), sets, dicts and the deal
    stream anew; the rest (numbers, strings, tuples, records) is immutable and shared."""
    if isinstance(value, list):
        if value and isinstance(value[0], list):
            return [list(inner) for inner in value]
        return list(value)
    if isinstance(value, set):
        return set(value)
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, DealStream):
        return value.copy()
    return value
