"""What one seat may know: the ``SeatView`` a policy decides from.

A view is a thin read-only window on the game (no copy of the state is made, which keeps the simulator
fast; the simulator keeps one view per seat for a whole game and sets ``decision`` before each step). It
exposes the seat's own cards, the cards played, the bets and scores, and its partner's signals when that
option is on. It never exposes another seat's cards, except the partner's hand during the
11-point decision, when the team looks at its cards together (seed 000 "Le pari").
"""

from __future__ import annotations

from typing import Final

from pipeline.engine.actions import PLAY, Action
from pipeline.engine.game import Game, Phase
from pipeline.engine.rules import TIE, Variant

# What a seat is asked to decide (``Game.decision``); a policy method of the same name takes it.
CUT_DECISION: Final = "cut"
DEAL_DECISION: Final = "deal"
HOLD_DECISION: Final = "hold"
SIGNAL_DECISION: Final = "signal"
ANSWER_DECISION: Final = "answer"  # a bet is pending and this seat answers for its side
TURN_DECISION: Final = "turn"  # this seat is to play: play a card, or bet first
RAISE_OPTION: Final = "raise_option"  # this seat has just played and may still raise


class SeatView:
    __slots__ = ("_game", "seat", "team", "decision", "optional")

    def __init__(self, game: Game, seat: int, optional: bool = False, decision: str | None = None) -> None:
        """A view of ``seat`` asked ``decision``: by default what the game asks that seat now (the simulator,
        which sets it before every step, gives ``""``)."""
        self._game = game
        self.seat = seat
        self.team = game.team_of[seat]
        self.optional = optional
        self.decision = game.decision(seat, optional) if decision is None else decision

    # what the seat holds and knows about the hand
    @property
    def cards(self) -> list[int]:
        return list(self._game.hands[self.seat])

    @property
    def held(self) -> list[int]:
        """The seat's cards without a copy: the game's own list, to read and never to change (the card
        rule reads it at every card played)."""
        return self._game.hands[self.seat]

    @property
    def dealt(self) -> tuple[int, ...]:
        game = self._game
        return game.dealt[self.seat] if game.dealt else ()

    @property
    def power(self) -> tuple[int, ...]:
        """Card index -> power in this variant (higher wins)."""
        return self._game.power

    @property
    def players(self) -> int:
        return self._game.n

    @property
    def opponents(self) -> int:
        """How many opposing hands this seat faces (the strength tables it judges its hand by)."""
        return self._game.opponents

    @property
    def variant(self) -> str:
        return self._game.variant.name

    @property
    def rules(self) -> Variant:
        """The variant's rules (deck, ranks, ladder): public knowledge."""
        return self._game.variant

    @property
    def cards_dealt(self) -> int:
        return self._game.cards_dealt

    @property
    def is_eldest(self) -> bool:
        return self._game.eldest == self.seat

    @property
    def eldest_team(self) -> int:
        return self._game.eldest_team

    @property
    def trick(self) -> list[tuple[int, int]]:
        """The cards played so far in the current trick, as (seat, card)."""
        return list(self._game.trick)

    @property
    def trick_size(self) -> int:
        """How many cards the current trick holds."""
        return len(self._game.trick)

    def trick_best(self) -> tuple[int, int]:
        """The highest power played so far in the current trick by the other sides, and by this seat's own
        side; -1 for none. (What the card-play rule looks at, without copying the trick.)"""
        game = self._game
        power, team_of, team = game.power, game.team_of, self.team
        opposing = partner = -1
        for seat, card in game.trick:
            p = power[card]
            if team_of[seat] == team:
                if p > partner:
                    partner = p
            elif p > opposing:
                opposing = p
        return opposing, partner

    def played(self) -> list[int]:
        """The cards laid face up in this hand so far, by every seat, in the order played (a covered card is
        not: only its seat saw it). What a bot that counts the cards out looks at (the ``cheapest_winning``
        lead)."""
        return [event[2] for event in self._game.events if event[1] == PLAY]

    @property
    def trick_no(self) -> int:
        return self._game.trick_no

    @property
    def tricks(self) -> list[int]:
        """Results of the finished tricks: 1 won by this seat's team, -1 lost, 0 tied."""
        team = self.team
        return [0 if r == TIE else (1 if r == team else -1) for r in self._game.tricks]

    @property
    def trick_balance(self) -> int:
        """Tricks won by this seat's side minus tricks lost (ties count for nobody)."""
        team = self.team
        balance = 0
        for result in self._game.tricks:
            if result == team:
                balance += 1
            elif result != TIE:
                balance -= 1
        return balance

    # bets and scores
    @property
    def stake(self) -> int:
        return self._game.stake

    @property
    def proposed_stake(self) -> int:
        """The stake of the pending raise, 0 when none."""
        return self._game.proposed_stake()

    @property
    def scores(self) -> tuple[int, int]:
        """(this team's score, the opponents' score)."""
        s = self._game.scores
        return (s[self.team], s[1 - self.team])

    @property
    def target(self) -> int:
        return self._game.target

    @property
    def partner_signal(self) -> str | None:
        """What the partner signalled this hand (4 players, signals on), else None."""
        game = self._game
        if not game.signals_on:
            return None
        partner = (self.seat + 2) % game.n
        order = (partner - game.eldest) % game.n
        return game.signals[order] if order < len(game.signals) else None

    @property
    def partner_cards(self) -> list[int] | None:
        """The partner's cards during the 11-point decision (the team looks together), else None. Not in
        trut-gatine's "à tenir", which partners decide "sans se concerter" (seed 003)."""
        game = self._game
        if game.phase is not Phase.HOLD or game.n != 4 or not game.variant.eleven_points:
            return None
        return list(game.hands[(self.seat + 2) % game.n])

    @property
    def public(self) -> dict[str, object]:
        """The family's public state of the hand (``Game.public_state``: petits held, the trut...)."""
        return self._game.public_state()

    def public_value(self, name: str) -> object:
        """One entry of ``public``."""
        return self._game.public_value(name)

    # what it may do
    def legal(self) -> list[Action]:
        return self._game.legal_for(self.seat)

    def may_raise(self) -> bool:
        return self._game.may_raise(self.seat)

    def may_envit(self) -> bool:
        """Whether this seat may call the envit now (Valencian Truc)."""
        return self._game.may_envit(self.seat)

    def raise_action(self) -> Action | None:
        """The raise this seat may make now, or None."""
        return self._game.raise_action(self.seat)

    def play_action(self, card: int) -> Action:
        """This seat's action of playing ``card``."""
        return self._game.play_action(self.seat, card)

    def raise_actions(self) -> list[Action]:
        """Every raise this seat may make now (several sizes in French Truc)."""
        return self._game.raise_actions(self.seat)
