"""The state of one game: phases of a hand, legal actions, applying them, scoring.

The API is the same for every variant (in the spirit of OpenSpiel and pokerkit):

- ``actor()``: the seat that must act now (-1 when the next step is the chance step, the deal, or the
  hand is over); ``optional_actor()``: a second seat that *may* act now (a player who has just played a
  card may still raise, seed 000 "Le pari"), else -1.
- ``legal_actions()``: every legal action of every seat, each naming its seat; ``legal_for(seat)``.
- ``apply(action)`` checks the action and returns the ``Event`` it produced, or raises ``RuleError``
  naming the rule broken. ``deal()`` is the chance step, drawn from the game's own seeded generator;
  ``apply_deal(hands)`` applies a recorded deal instead.
- ``hand_over``, ``over``, ``scores``, ``last_hand`` (a ``HandRecord`` once a hand has ended),
  ``next_hand()``.

Hot-path note: the simulator calls ``apply_trusted`` with actions taken from ``legal_for``; ``apply``
re-checks legality and explains a refusal, which is what the importer needs.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import IntEnum

from pipeline.cards import UNKNOWN
from pipeline.engine.actions import (
    ACCEPT,
    CUT,
    DEAL,
    DEALT,
    FOLD,
    HOLD,
    NOCUT,
    PASS,
    PLAY,
    SIGNAL,
    SIGNALS,
    Action,
    Event,
    RuleError,
)
from pipeline.engine.rules import TIE, Config


class Phase(IntEnum):
    CUT = 0  # the cutter cuts or declines (one-card deal possible)
    DEAL_CHOICE = 1  # after "nocut": the dealer deals one card or three
    DEAL = 2  # chance step
    HOLD = 3  # a team at 11 decides to play or not
    SIGNAL = 4  # partners signal, each in turn from the eldest
    PLAY = 5
    HAND_OVER = 6


@dataclass(frozen=True, slots=True)
class HandRecord:
    """Everything recorded about one finished hand."""

    hand_no: int
    dealer: int
    eldest: int
    cards_dealt: int
    dealt: tuple[tuple[int, ...], ...]  # per seat, in deal order
    score_before: tuple[int, int]
    stake: int
    ended_by: str  # tricks | fold | pass
    winner_team: int | None
    points: tuple[int, int]
    tricks: tuple[int, ...]  # team per trick, TIE for a tied one
    tie_rule: str | None
    signals: tuple[str, ...] | None
    events: tuple[Event, ...]


def team_of_seat(seat: int) -> int:
    """Teams alternate in play order (RULES.md "Common model")."""
    return seat % 2


class Game:
    """One game of a two-team variant, from its first deal to its target score."""

    def __init__(
        self,
        config: Config,
        seed: int | None = None,
        first_dealer: int | None = None,
        scores: tuple[int, int] = (0, 0),
    ) -> None:
        """A new game. ``scores`` starts it from a given score (to study end-games)."""
        self.config = config
        self.variant = variant = config.variant
        self.n = n = config.players
        if n not in variant.players:
            raise ValueError(f"{variant.name} is played by {variant.players} players, not {n}")
        self.team_of = tuple(team_of_seat(s) for s in range(n))
        self.power = variant.power
        self.ladder = variant.ladder
        self.target = variant.target
        self.signals_on = config.signals
        self.seed = seed
        self.rng = random.Random(seed)
        if first_dealer is None:
            first_dealer = self.rng.randrange(n)
        elif not 0 <= first_dealer < n:
            raise ValueError(f"first dealer {first_dealer} is not a seat of a {n}-player game")
        self.first_dealer = first_dealer
        if min(scores) < 0 or max(scores) >= variant.target:
            raise ValueError(f"starting scores {scores} must be between 0 and {variant.target - 1}")
        self.scores = [scores[0], scores[1]]
        self.hand_no = 0
        self.dealer = first_dealer
        self.over = False
        self.winner_team: int | None = None
        self.last_hand: HandRecord | None = None
        self._begin_hand()

    # ----------------------------------------------------------------------------------------- hand set-up

    def next_hand(self) -> None:
        """Start the next hand once the current one is over; the deal passes to the next seat."""
        if self.phase != Phase.HAND_OVER:
            raise RuleError("hand-not-over", "the current hand is not over")
        if self.over:
            raise RuleError("game-over", "the game is over")
        self.dealer = (self.dealer + 1) % self.n
        self._begin_hand()

    def _begin_hand(self) -> None:
        n = self.n
        self.hand_no += 1
        self.eldest = (self.dealer + 1) % n
        self.eldest_team = self.team_of[self.eldest]
        self.score_before = (self.scores[0], self.scores[1])
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.dealt: tuple[tuple[int, ...], ...] = ()
        self.known: set[int] = set()
        self.cards_dealt = 3
        self.stake = 1
        self.level = 0  # accepted rung: 0 is the base stake, k is ladder[k-1]
        self.pending = 0  # proposed rung awaiting an answer, 0 when none
        self.raiser = -1
        self.answerer = -1
        self.last_raise_team = -1
        self.after_play = -1  # the seat that has just played and may still raise
        self.to_play = self.eldest
        self.trick: list[tuple[int, int]] = []
        self.tricks: list[int] = []
        self.events: list[Event] = []
        self.signals: list[str] = []
        at_eleven = [t for t in (0, 1) if self.scores[t] == self.target - 1]
        rules = self.variant
        self.raises_allowed = not (rules.eleven_points and at_eleven)
        self.hold_team = at_eleven[0] if rules.eleven_points and len(at_eleven) == 1 else -1
        self.decider = -1
        if rules.one_card_deal and max(self.scores) < self.target - 1:
            self.phase = Phase.CUT
            self.decider = (self.dealer - 1) % n  # the player before the dealer cuts
        else:
            self.phase = Phase.DEAL

    # ------------------------------------------------------------------------------------------- queries

    @property
    def hand_over(self) -> bool:
        return self.phase == Phase.HAND_OVER

    @property
    def trick_no(self) -> int:
        return len(self.tricks) + 1 if self.phase == Phase.PLAY else 0

    def actor(self) -> int:
        """The seat that must act now; -1 for the chance step or when the hand is over."""
        phase = self.phase
        if phase == Phase.PLAY:
            return self.answerer if self.pending else self.to_play
        if phase in (Phase.CUT, Phase.DEAL_CHOICE, Phase.HOLD, Phase.SIGNAL):
            return self.decider
        return -1

    def optional_actor(self) -> int:
        """A seat that may raise now without being the one to act (it has just played), else -1."""
        seat = self.after_play
        if seat < 0 or self.pending or seat == self.to_play or not self.may_raise(seat):
            return -1
        return seat

    def next_raise(self) -> int:
        """The rung the next raise would propose (1-based into the ladder), 0 when the ladder is done."""
        rung = (self.pending or self.level) + 1
        return rung if rung <= len(self.ladder) else 0

    def may_raise(self, seat: int) -> bool:
        """Whether ``seat`` has a raise among its legal actions now."""
        if self.phase != Phase.PLAY or not self.raises_allowed or not self.next_raise():
            return False
        if self.pending:
            return seat == self.answerer  # accept-and-raise
        if self.team_of[seat] == self.last_raise_team:
            return False  # only the team that accepted may raise next
        return seat == self.to_play or seat == self.after_play

    def legal_for(self, seat: int) -> list[Action]:
        """The legal actions of one seat now."""
        phase = self.phase
        if phase == Phase.PLAY:
            actions: list[Action] = []
            if self.pending:
                if seat != self.answerer:
                    return actions
                actions.append(Action(seat, ACCEPT))
                actions.append(Action(seat, FOLD))
                if self.may_raise(seat):
                    actions.append(Action(seat, self.ladder[self.next_raise() - 1].verb))
                if seat == self.to_play:
                    actions.extend(self._plays(seat))
                return actions
            if seat == self.to_play:
                actions.extend(self._plays(seat))
            if self.may_raise(seat):
                actions.append(Action(seat, self.ladder[self.next_raise() - 1].verb))
            return actions
        if seat != self.decider:
            return []
        if phase == Phase.CUT:
            return [Action(seat, CUT), Action(seat, NOCUT)]
        if phase == Phase.DEAL_CHOICE:
            return [Action(seat, DEAL, 1), Action(seat, DEAL, 3)]
        if phase == Phase.HOLD:
            return [Action(seat, HOLD), Action(seat, PASS)]
        if phase == Phase.SIGNAL:
            return [Action(seat, SIGNAL, s) for s in SIGNALS]
        return []

    def _plays(self, seat: int) -> list[Action]:
        hand = self.hands[seat]
        if UNKNOWN in hand:  # a replayed hand with unseen cards: any unseen card may be played
            seen = self.known | {c for _, c in self.trick}
            options = [c for c in hand if c != UNKNOWN]
            options += [c for c in range(len(self.variant.deck)) if c not in seen and c not in options]
            return [Action(seat, PLAY, c) for c in options]
        return [Action(seat, PLAY, c) for c in hand]

    def legal_actions(self) -> list[Action]:
        """Every legal action now, of every seat that may act."""
        seats = [s for s in (self.actor(), self.optional_actor()) if s >= 0]
        return [a for s in seats for a in self.legal_for(s)]

    # ------------------------------------------------------------------------------------------- actions

    def deal(self, rng: random.Random | None = None) -> Event:
        """The chance step: shuffle and deal, one card at a time from the eldest."""
        if self.phase != Phase.DEAL:
            raise RuleError("not-dealing", "cards are dealt only at the start of a hand")
        n, k = self.n, self.cards_dealt
        cards = list(range(len(self.variant.deck)))
        size = len(cards)
        draw = (rng or self.rng).random
        hands: list[list[int]] = [[] for _ in range(n)]
        eldest = self.eldest
        for i in range(n * k):  # a partial Fisher-Yates shuffle: only the cards dealt are drawn
            j = i + int(draw() * (size - i))
            cards[i], cards[j] = cards[j], cards[i]
            hands[(eldest + i) % n].append(cards[i])
        return self._dealt(hands, unknown=False)

    def apply_deal(self, hands: list[list[int]]) -> Event:
        """Apply a recorded deal (cards per seat; ``UNKNOWN`` for unseen cards), checking it."""
        if self.phase != Phase.DEAL:
            raise RuleError("not-dealing", "cards are dealt only at the start of a hand")
        if len(hands) != self.n:
            raise RuleError("deal-seats", f"the deal lists {len(hands)} seats, the game has {self.n}")
        seen: set[int] = set()
        for seat, cards in enumerate(hands):
            if len(cards) != self.cards_dealt:
                raise RuleError(
                    "deal-size", f"seat {seat} is dealt {len(cards)} cards; this hand deals {self.cards_dealt}"
                )
            for card in cards:
                if card == UNKNOWN:
                    continue
                if card in seen:
                    raise RuleError("card-twice", f"{self.variant.deck.text(card)} is dealt twice")
                seen.add(card)
        return self._dealt([list(c) for c in hands], unknown=any(UNKNOWN in h for h in hands))

    def _dealt(self, hands: list[list[int]], unknown: bool) -> Event:
        self.hands = hands
        self.dealt = tuple(tuple(h) for h in hands)
        if unknown:  # only replays of records with unseen cards need to track the cards seen
            self.known = {c for h in hands for c in h if c != UNKNOWN}
        event = Event(-1, DEALT, self.dealt, "deal", False, False, 0, self.stake, self.stake)
        self.events.append(event)
        self._after_deal()
        return event

    def _after_deal(self) -> None:
        if self.hold_team >= 0:
            self.phase = Phase.HOLD
            eldest = self.eldest
            self.decider = eldest if self.team_of[eldest] == self.hold_team else (eldest + 1) % self.n
        else:
            self._start_signals_or_play()

    def _start_signals_or_play(self) -> None:
        if self.signals_on:
            self.phase = Phase.SIGNAL
            self.decider = self.eldest
        else:
            self.phase = Phase.PLAY
            self.decider = -1

    def apply(self, action: Action) -> Event:
        """Check ``action`` against the rules and apply it; raise ``RuleError`` if it is not legal."""
        if action not in self.legal_for(action.seat):
            raise self._refusal(action)
        return self.apply_trusted(action)

    def apply_trusted(self, action: Action) -> Event:
        """Apply an action known to be legal (taken from ``legal_for``)."""
        seat, verb, arg = action
        phase = self.phase
        if phase == Phase.PLAY:
            if verb == PLAY:
                return self._play(seat, arg)  # type: ignore[arg-type]
            if verb == ACCEPT:
                return self._accept(seat)
            if verb == FOLD:
                return self._fold(seat)
            return self._raise(seat, verb)
        self.after_play = -1
        stake = self.stake
        if phase == Phase.CUT:
            self.phase = Phase.DEAL if verb == CUT else Phase.DEAL_CHOICE
            if verb == NOCUT:
                self.decider = self.dealer
            return self._record(Event(seat, verb, None, "deal", False, False, 0, stake, stake))
        if phase == Phase.DEAL_CHOICE:
            self.cards_dealt = int(arg)  # type: ignore[arg-type]
            self.phase = Phase.DEAL
            return self._record(Event(seat, DEAL, arg, "deal", False, False, 0, stake, stake))
        if phase == Phase.HOLD:
            if verb == HOLD:
                self.stake = 3
                event = self._record(Event(seat, HOLD, None, "choice", False, False, 0, stake, 3))
                self._start_signals_or_play()
                return event
            event = self._record(Event(seat, PASS, None, "choice", False, False, 0, stake, stake))
            self._end_hand(1 - self.hold_team, 1, "pass", None)
            return event
        if phase == Phase.SIGNAL:
            self.signals.append(str(arg))
            event = self._record(Event(seat, SIGNAL, arg, "signal", False, False, 0, stake, stake))
            if len(self.signals) == self.n:
                self.phase = Phase.PLAY
                self.decider = -1
            else:
                self.decider = (seat + 1) % self.n
            return event
        raise RuleError("hand-over", "the hand is over")

    def _record(self, event: Event) -> Event:
        self.events.append(event)
        return event

    def _raise(self, seat: int, verb: str) -> Event:
        could = True
        answers = bool(self.pending)
        stake_before = self.stake
        if answers:  # accept-and-raise: the pending raise is accepted first
            self.level = self.pending
            self.stake = self.ladder[self.level - 1].stake
        rung = self.next_raise()
        self.pending = rung
        self.raiser = seat
        self.answerer = (seat + 1) % self.n  # the next opponent in play order answers for the team
        self.last_raise_team = self.team_of[seat]
        self.after_play = -1
        proposed = self.ladder[rung - 1].stake
        return self._record(
            Event(seat, verb, None, "raise", answers, could, len(self.tricks) + 1, stake_before, proposed)
        )

    def _accept(self, seat: int) -> Event:
        could = self.may_raise(seat)
        before = self.stake
        self.level = self.pending
        self.stake = self.ladder[self.level - 1].stake
        self.pending = 0
        self.after_play = -1
        return self._record(Event(seat, ACCEPT, None, "answer", True, could, len(self.tricks) + 1, before, self.stake))

    def _fold(self, seat: int) -> Event:
        could = self.may_raise(seat)
        stake = self.stake
        event = self._record(Event(seat, FOLD, None, "answer", True, could, len(self.tricks) + 1, stake, stake))
        self.pending = 0
        self._end_hand(self.team_of[self.raiser], stake, "fold", None)
        return event

    def _play(self, seat: int, card: int) -> Event:
        could = self.may_raise(seat)
        answers = bool(self.pending)
        before = self.stake
        if answers:  # playing a card without answering accepts (seed 000 "Le pari")
            self.level = self.pending
            self.stake = self.ladder[self.level - 1].stake
            self.pending = 0
        hand = self.hands[seat]
        if card in hand:
            hand.remove(card)
        else:
            hand.remove(UNKNOWN)
            self.known.add(card)
        trick_no = len(self.tricks) + 1
        event = self._record(Event(seat, PLAY, card, "play", answers, could, trick_no, before, self.stake))
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
        decided = self.variant.hand_rule(self.tricks, self.cards_dealt, self.eldest_team)
        if decided is not None:
            self.after_play = -1
            winner, tie_rule = decided
            self._end_hand(winner, self.stake, "tricks", tie_rule)
            return
        if result != TIE:
            self.to_play = winner_seat
        else:
            self.to_play = {"leader": leader, "maker": maker, "first": first}[self.variant.tie_lead]

    def _end_hand(self, winner: int | None, points: int, ended_by: str, tie_rule: str | None) -> None:
        scored = (0, 0)
        if winner is not None:
            scored = (points, 0) if winner == 0 else (0, points)
            self.scores[winner] += points
        self.phase = Phase.HAND_OVER
        self.decider = -1
        self.last_hand = HandRecord(
            hand_no=self.hand_no,
            dealer=self.dealer,
            eldest=self.eldest,
            cards_dealt=self.cards_dealt,
            dealt=self.dealt,
            score_before=self.score_before,
            stake=self.stake,
            ended_by=ended_by,
            winner_team=winner,
            points=scored,
            tricks=tuple(self.tricks),
            tie_rule=tie_rule,
            signals=tuple(self.signals) if self.signals_on and self.signals else None,
            events=tuple(self.events),
        )
        if max(self.scores) >= self.target:
            self.over = True
            self.winner_team = 0 if self.scores[0] >= self.target else 1

    # -------------------------------------------------------------------------------------- explanations

    def _refusal(self, action: Action) -> RuleError:
        """Explain why ``action`` is not legal now, naming the rule."""
        seat, verb, arg = action
        deck = self.variant.deck
        if not 0 <= seat < self.n:
            return RuleError("seat", f"seat {seat} does not exist in a {self.n}-player game")
        phase = self.phase
        if phase == Phase.HAND_OVER:
            return RuleError("hand-over", "the hand is already decided")
        if phase == Phase.DEAL:
            return RuleError("deal-expected", f"the cards must be dealt before '{verb}'")
        if phase != Phase.PLAY:
            expected = {
                Phase.CUT: "cut or nocut",
                Phase.DEAL_CHOICE: "the dealer's choice of one card or three",
                Phase.HOLD: "hold or pass from the team at 11",
                Phase.SIGNAL: "a signal",
            }[phase]
            if seat != self.decider:
                return RuleError("turn", f"seat {self.decider} must act now ({expected}), not seat {seat}")
            if verb == SIGNAL:
                return RuleError("signal", f"{arg!r} is not a signal; signals: {' '.join(SIGNALS)}")
            return RuleError("phase", f"'{verb}' is not allowed now: expected {expected}")
        raise_verbs = self.variant.raise_verbs
        if verb == PLAY:
            if self.pending and seat != self.answerer:
                return RuleError("answer-first", f"a raise is pending: seat {self.answerer} must answer first")
            if seat != self.to_play:
                return RuleError("turn", f"it is seat {self.to_play}'s turn to play, not seat {seat}'s")
            text = deck.text(arg) if isinstance(arg, int) else str(arg)
            return RuleError("card-not-held", f"seat {seat} does not hold {text}")
        if verb in (ACCEPT, FOLD):
            if not self.pending:
                return RuleError("nothing-to-answer", f"'{verb}' but no raise is pending")
            return RuleError(
                "answerer", f"seat {self.answerer}, the next opponent of the raiser, answers for the team"
            )
        if verb in raise_verbs:
            if not self.raises_allowed:
                return RuleError("no-raise-at-11", "no raise is allowed in a hand played at 11 points")
            rung = self.next_raise()
            if not rung:
                return RuleError("ladder-top", f"the stake is already at its highest ({self.stake})")
            expected_verb = self.ladder[rung - 1].verb
            if verb != expected_verb:
                return RuleError("ladder-order", f"the next raise is '{expected_verb}', not '{verb}'")
            if self.pending and seat != self.answerer:
                return RuleError("answer-first", f"a raise is pending: seat {self.answerer} must answer first")
            if self.team_of[seat] == self.last_raise_team:
                return RuleError("raise-right", "only the team that accepted the last raise may raise again")
            return RuleError(
                "raise-on-turn", f"seat {seat} may raise only on its turn, before or just after playing its card"
            )
        return RuleError("unknown-verb", f"'{verb}' is not a move of {self.variant.name}")


def resolve_trick(
    plays: list[tuple[int, int]], power: tuple[int, ...], team_of: tuple[int, ...]
) -> tuple[int, int, int, int]:
    """The trick's result (winning team or TIE), its winning seat, and for a tie the seat that made it
    (played the second of the equal top cards) and the seat that played the first of them.

    Equal top cards of one team are no tie: that team wins and its earlier player counts as the winner
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
