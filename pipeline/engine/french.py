"""French Truc (seed 002 "Règles du Truc"; seed 000 "Le Truc en France", after Lanes 1912): open raises
of any size, `reste`, the redeal from the stock, void hands.

How a hand runs here (``docs/rules/french.md`` gives every rule with its source and the decisions):

- **Deal and redeal.** The deck is shuffled once per hand and dealt from the top. As his first action
  the eldest may ask ``redeal``; the opponents answer one by one in play order (``accept`` or
  ``refuse``); the first refusal ends the request, and when all accept every hand is discarded unseen
  and 3 new cards each are dealt from the rest of the same shuffled deck (a new ``dealt`` event). The
  eldest may ask again after a redeal while the stock still holds a full deal.
- **Raises.** The seat to play may raise before playing his card, unless his team made the last raise
  of the hand. ``raise N`` proposes a stake N above the stake in force; ``raise reste`` proposes the
  points the raiser's team still needs; accepted, it makes the hand decide the game (``_accepted``,
  ``reste_for_the_game``), so no raise follows it, and it is answered by a reste only ("le mien").
  The next opponent in play order answers for his team:
  ``accept``, ``fold`` (the raisers score the stake in force before the raise), a raise of his own
  (accepting first, "acceptés et surenchéris", seed 002), or, if he is the seat to play, a card (which
  accepts, "il tiendra en jouant son huit", seed 002).
- **Raise sizes.** A raise is at most the larger of the two teams' needs (``raise_ceiling``): any higher
  stake is worth exactly as much (the hand's winner reaches the target either way, a fold scores the
  stake before the raise), and the bound keeps the legal actions a finite list the simulator can use.
- **Tricks.** Two of three win; with a tied trick the first trick won decides; three tied tricks make
  the hand void: nobody scores and the deal passes.
"""

from __future__ import annotations

import functools
from itertools import combinations
from typing import Any, Final

from pipeline.cards import UNKNOWN
from pipeline.engine.actions import (
    ACCEPT,
    FOLD,
    PLAY,
    SIGNAL,
    Action,
    EventTuple,
    RuleError,
    action_table,
    make_action,
    make_event,
)
from pipeline.engine.game import DEALING, PLAYING, Game, Phase
from pipeline.engine.rules import Config

RAISE: Final = "raise"
RESTE: Final = "reste"
REDEAL: Final = "redeal"
REFUSE: Final = "refuse"

# What a seat of a french game is asked to decide (``FrenchGame.decision``); the threshold policy's
# methods of these names are in ``pipeline.policies.french_decisions``.
TURN_DECISION: Final = "french_turn"
ANSWER_DECISION: Final = "french_answer"
REDEAL_DECISION: Final = "redeal_answer"
SIGNAL_DECISION: Final = "french_signal"


@functools.cache
def signal_words(top_ranks: tuple[str, ...]) -> tuple[str, ...]:
    """The signals of a french game: ``-`` (nothing) or the top ranks held, highest first, e.g. ``78A``.

    Seed 002 ("Règles du Truc à quatre joueurs") signals the strong cards: a seven, two sevens, an eight,
    an ace; as in ``catalan``, a signal names which of the ranking's three top ranks a seat holds.
    """
    words = ["-"]
    for size in range(1, len(top_ranks) + 1):
        words.extend("".join(ranks) for ranks in combinations(top_ranks, size))
    return tuple(words)


def reste_for_the_game(stake: int, winner_needs: int) -> int:
    """What a hand played after an accepted reste scores its winner: the hand decides the game (RULES.md
    "`french`": "if accepted the hand decides the game"), so a winner that needs more than the stake scores
    what it needs, and one that needs less scores the stake, as any won hand does."""
    return winner_needs if winner_needs > stake else stake


class FrenchGame(Game):
    """A game of French Truc: open raises and ``reste``, the redeal, void hands."""

    def __init__(
        self,
        config: Config,
        seed: int | None = None,
        first_dealer: int | None = None,
        scores: tuple[int, ...] | None = None,
    ) -> None:
        self.signal_ranks: tuple[str, ...] = config.variant.rank_order[:3]
        self.signal_words = signal_words(self.signal_ranks)
        self.signal_case = {word.lower(): word for word in self.signal_words}
        self._raise_table = action_table(config.players, RAISE, (RESTE, *range(1, config.variant.target + 1)))
        super().__init__(config, seed, first_dealer, scores)

    # ------------------------------------------------------------------------------------------ set-up
    def _reset_hand(self) -> None:
        self.pending = 0  # the stake a pending raise proposes, 0 when none
        self.pending_reste = False  # the pending raise is a reste
        self.for_the_game = False  # a reste was accepted: the hand decides the game (``_hand_won``)
        self.raiser = -1
        self.answerer = -1
        self.last_raise_team = -1
        self.redeals = 0
        self.redeal_open = False  # the eldest may still ask for new cards
        self.redeal_answerers: list[int] = []  # opponents still to answer a redeal request
        self.pile: list[int] = []  # this hand's shuffled deck; its first ``drawn`` cards are dealt
        self.drawn = 0
        self.hand_cards: set[int] = set()  # known cards dealt in this hand, over every deal
        self.void = False

    def _after_deal(self) -> None:
        """After every deal (the first and each redeal): the eldest may ask for new cards; signals, if
        on, are made on the cards now held."""
        self.redeal_open = True
        self.signals = []
        self._start_signals_or_play()

    # -------------------------------------------------------------------------------- deal and redeal
    def deal(self) -> EventTuple:
        """The chance step. The first deal of a hand shuffles; a redeal goes on dealing from the same
        shuffled deck ("sans avoir besoin de remêler et recouper", seed 002). The shuffle is a lazy
        Fisher-Yates: only the cards dealt are drawn, which is the same as shuffling the whole deck first."""
        if self.phase is not DEALING:
            raise RuleError("not-dealing", "cards are dealt only at the start of a hand or after an agreed redeal")
        size = self.deck_size
        if not self.drawn:
            self.pile = list(range(size))
        elif len(self.hand_cards) != self.drawn:
            raise RuleError("stock-unknown", "the stock cannot be dealt from: earlier cards of this hand are unknown")
        n, pile, start = self.n, self.pile, self.drawn
        stream = self.stream  # the hand's stream goes on where the first deal left it
        hands: list[list[int]] = [[] for _ in range(n)]
        eldest = self.eldest
        for i in range(start, start + n * self.cards_dealt):
            j = i + stream.below(size - i)
            pile[i], pile[j] = pile[j], pile[i]
            hands[(eldest + i - start) % n].append(pile[i])
        return self._dealt(hands, unknown=False)

    def deal_pool(self) -> list[int]:
        """A redeal draws from the cards not dealt yet in the hand."""
        dealt = self.hand_cards
        return [c for c in range(self.deck_size) if c not in dealt] if self.drawn else super().deal_pool()

    def apply_deal(self, hands: list[list[int]]) -> EventTuple:
        """Apply a recorded deal; a redeal's cards must come from the stock, none dealt before in the hand."""
        if self.phase is DEALING and self.drawn:
            for cards in hands:
                for card in cards:
                    if card != UNKNOWN and card in self.hand_cards:
                        text = self.variant.deck.text(card)
                        raise RuleError(
                            "card-twice", f"{text} was dealt earlier in this hand: a redeal comes from the stock"
                        )
        event = super().apply_deal(hands)
        dealt = self.hand_cards
        self.pile = list(dealt) + [c for c in range(len(self.variant.deck)) if c not in dealt]
        return event

    def _dealt(self, hands: list[list[int]], unknown: bool) -> EventTuple:
        self.hand_cards.update(c for cards in hands for c in cards if c != UNKNOWN)
        self.drawn += self.n * self.cards_dealt
        event = super()._dealt(hands, unknown)
        if unknown:  # discarded cards are out of play too
            self.known |= self.hand_cards
        return event

    def hidden_places(self, seat: int) -> list[list[int]]:
        """The other seats' hands, the stock (the shuffled deck past the cards dealt), then the other seats'
        hands discarded unseen by a redeal, in the order dealt."""
        n, current = self.n, self.drawn - self.n * self.cards_dealt
        discarded = [self.pile[i] for i in range(max(current, 0)) if (self.eldest + i) % n != seat]
        others = [self.hands[s] for s in range(n) if s != seat]
        return [*others, self.pile[self.drawn :], discarded]

    def _map_cards(self, mapping: list[int]) -> None:
        super()._map_cards(mapping)
        self.pile = [mapping[c] for c in self.pile]
        self.hand_cards = {mapping[c] for c in self.hand_cards}

    def may_redeal(self, seat: int) -> bool:
        """Whether ``seat`` may ask for new cards now: the eldest, as his first action after a deal,
        while the stock holds a full deal (seed 002 "Règles du Truc à deux joueurs")."""
        return (
            self.redeal_open
            and seat == self.eldest
            and self.phase is PLAYING
            and not self.pending
            and self.drawn + self.n * self.cards_dealt <= self.deck_size
        )

    def _ask_redeal(self, seat: int) -> EventTuple:
        could = self.may_raise(seat)
        stake = self.stake
        event = self._record(make_event(seat, REDEAL, None, "choice", False, could, 0, stake, stake))
        self.redeal_open = False
        n = self.n
        self.redeal_answerers = [
            s for s in [(seat + k) % n for k in range(1, n)] if self.team_of[s] != self.team_of[seat]
        ]
        self.phase = Phase.REDEAL
        self.decider = self.redeal_answerers.pop(0)
        return event

    def _answer_redeal(self, seat: int, verb: str) -> EventTuple:
        stake = self.stake
        event = self._record(make_event(seat, verb, None, "choice", False, False, 0, stake, stake))
        if verb == REFUSE:  # "si quelqu'un insiste pour jouer, il n'y a pas de redistribution" (seed 000)
            self.redeal_answerers = []
            self.phase = PLAYING
            self.decider = -1
        elif self.redeal_answerers:
            self.decider = self.redeal_answerers.pop(0)
        else:  # every opponent agreed: the hands are discarded unseen and dealt again from the stock
            self.redeals += 1
            self.hands = [[] for _ in range(self.n)]
            self.phase = DEALING
            self.decider = -1
        return event

    # ------------------------------------------------------------------------------------- phases
    def _legal_phase(self, seat: int) -> list[Action]:
        if self.phase is Phase.REDEAL:
            return [make_action(seat, ACCEPT), make_action(seat, REFUSE)] if seat == self.decider else []
        if self.phase is Phase.SIGNAL:
            return [make_action(seat, SIGNAL, word) for word in self.signal_words] if seat == self.decider else []
        return super()._legal_phase(seat)

    def _apply_phase(self, seat: int, verb: str, arg: Any) -> EventTuple:
        if self.phase is Phase.REDEAL:
            return self._answer_redeal(seat, verb)
        return super()._apply_phase(seat, verb, arg)

    def decision(self, seat: int, optional: bool = False) -> str:
        phase = self.phase
        if phase is PLAYING:
            return ANSWER_DECISION if self.answering(seat) else TURN_DECISION
        if phase is Phase.REDEAL:
            return REDEAL_DECISION
        if phase is Phase.SIGNAL:
            return SIGNAL_DECISION
        return super().decision(seat, optional)

    # -------------------------------------------------------------------------------------- raises
    def actor(self) -> int:
        if self.phase is PLAYING and self.pending:
            return self.answerer
        return super().actor()

    def answering(self, seat: int) -> bool:
        return bool(self.pending) and seat == self.answerer

    def proposed_stake(self) -> int:
        return self.pending

    def need(self, team: int) -> int:
        """The points ``team`` still needs to win the game: what its ``reste`` proposes."""
        return self.target - self.scores[team]

    def most_in_one_hand(self) -> int:
        """A raise proposes at most the trailing team's need, the whole target (``raise_ceiling``)."""
        return self.target

    def raise_ceiling(self) -> int:
        """The highest stake a raise may propose: the larger of the two teams' needs (module docstring)."""
        scores = self.scores
        return self.target - (scores[0] if scores[0] < scores[1] else scores[1])

    def may_raise(self, seat: int) -> bool:
        if self.phase is not PLAYING:
            return False
        if self.pending:
            base = self.pending
            if seat != self.answerer:
                return False
            if self.pending_reste:  # only "le mien", when it is a raise
                return self.need(self.team_of[seat]) > base
        elif self.for_the_game:
            return False
        else:
            base = self.stake
            if seat != self.to_play or self.team_of[seat] == self.last_raise_team:
                return False
        return base < self.raise_ceiling()

    def _raises(self, seat: int, base: int) -> list[Action]:
        """Every raise above ``base``: each stake up to the ceiling, and ``reste`` when it is a raise. A
        reste is answered by a reste only ("le mien", RULES.md)."""
        sizes = self._raise_table[seat]  # sizes[k]: raise k; sizes[0]: raise reste (shared by every game)
        actions = [] if self.pending_reste else sizes[base + 1 : self.raise_ceiling() + 1]
        if self.need(self.team_of[seat]) > base:
            actions.append(sizes[0])
        return actions

    def raise_actions(self, seat: int) -> list[Action]:
        """The raises among ``seat``'s legal actions (``_legal_play``): answering a raise, or on its turn
        when its side did not make the last raise."""
        if self.phase is not PLAYING:
            return []
        if self.pending:
            return self._raises(seat, self.pending) if seat == self.answerer else []
        if seat != self.to_play or self.team_of[seat] == self.last_raise_team or self.for_the_game:
            return []
        return self._raises(seat, self.stake)

    def _legal_play(self, seat: int) -> list[Action]:
        if self.pending:
            if seat != self.answerer:
                return []
            actions = [make_action(seat, ACCEPT), make_action(seat, FOLD), *self.raise_actions(seat)]
            if seat == self.to_play:
                actions.extend(self._plays(seat))
            return actions
        if seat != self.to_play:
            return []
        actions = self._plays(seat)
        actions.extend(self.raise_actions(seat))
        if self.may_redeal(seat):
            actions.append(make_action(seat, REDEAL))
        return actions

    def apply_checked(self, action: Action) -> EventTuple:
        """As ``Game.apply_checked``; a raise written as text (``raise 4``) is read as the number, and a signal
        in any letter case (``78a``) as its canonical word (``78A``)."""
        seat, verb, arg = action
        if isinstance(arg, str):
            if verb == RAISE and arg.isdigit():
                action = make_action(seat, verb, int(arg))
            elif verb == SIGNAL:
                action = make_action(seat, verb, self.signal_case.get(arg.lower(), arg))
        return super().apply_checked(action)

    def _apply_bet(self, seat: int, verb: str, arg: Any) -> EventTuple:
        if verb == ACCEPT:
            return self._accept(seat)
        if verb == FOLD:
            return self._fold(seat)
        if verb == REDEAL:
            return self._ask_redeal(seat)
        return self._raise(seat, arg)

    def _before_card(self, seat: int) -> bool:
        self.redeal_open = False
        if self.pending:  # the answerer plays his card: he accepts (seed 002, "il tiendra en jouant son huit")
            self._accepted()
            return True
        return False

    def _accepted(self) -> None:
        """The pending raise is accepted: it is the stake now, and an accepted reste puts the game at stake."""
        self.stake = self.pending
        self.pending = 0
        if self.pending_reste:
            self.pending_reste = False
            self.for_the_game = True

    def _raise(self, seat: int, arg: int | str) -> EventTuple:
        answers = bool(self.pending)
        before = self.stake
        if answers:  # a raise in answer accepts the pending one first ("acceptés et surenchéris", seed 002)
            self._accepted()
        team = self.team_of[seat]
        proposed = self.need(team) if arg == RESTE else int(arg)
        self.pending = proposed
        self.pending_reste = arg == RESTE
        self.raiser = seat
        self.answerer = (seat + 1) % self.n  # the next opponent in play order answers for his team
        self.last_raise_team = team
        self.redeal_open = False
        trick_no = len(self.tricks) + 1
        return self._record(make_event(seat, RAISE, arg, "raise", answers, True, trick_no, before, proposed))

    def _accept(self, seat: int) -> EventTuple:
        could = self.may_raise(seat)
        before = self.stake
        self._accepted()
        trick_no = len(self.tricks) + 1
        return self._record(make_event(seat, ACCEPT, None, "answer", True, could, trick_no, before, self.stake))

    def _fold(self, seat: int) -> EventTuple:
        """The raisers score the stake in force before the raise (seed 000 "Le Truc en France")."""
        event = self._refused(seat, self.team_of[self.raiser])
        self.pending = 0
        self.pending_reste = False
        return event

    # ------------------------------------------------------------------------------------- outcome
    def _hand_won(self, winner: int | None, tie_rule: str | None) -> None:
        self.void = winner is None
        if winner is not None and self.for_the_game:
            self.stake = reste_for_the_game(self.stake, self.need(winner))
        super()._hand_won(winner, tie_rule)

    def _hand_details(self) -> tuple[tuple[str, Any], ...]:
        return (("void", self.void), ("redeals", self.redeals))

    # --------------------------------------------------------------------------------- explanations
    def _explain(self, action: Action) -> RuleError | None:
        seat, verb, arg = action
        phase = self.phase
        if phase is Phase.REDEAL:
            if seat != self.decider:
                return RuleError("turn", f"seat {self.decider} must answer the request for new cards, not seat {seat}")
            return RuleError("redeal-answer", f"'{verb}' is not an answer to a redeal: accept or refuse")
        if phase is Phase.SIGNAL and seat == self.decider and verb == SIGNAL:
            return RuleError("signal", f"{arg!r} is not a signal; signals: {' '.join(self.signal_words)}")
        if phase is not PLAYING:
            return None
        if verb == REFUSE:
            return RuleError("nothing-to-refuse", "'refuse' answers a request for new cards, and none is pending")
        if verb == REDEAL:
            return self._explain_redeal(seat)
        if verb in (ACCEPT, FOLD):
            if not self.pending:
                return RuleError("nothing-to-answer", f"'{verb}' but no raise is pending")
            return RuleError("answerer", f"seat {self.answerer}, the next opponent of the raiser, answers for the team")
        if verb == PLAY and self.pending and seat != self.answerer:
            return RuleError("answer-first", f"a raise is pending: seat {self.answerer} must answer first")
        if verb == RAISE:
            return self._explain_raise(seat, arg)
        return None

    def _explain_redeal(self, seat: int) -> RuleError:
        if seat != self.eldest:
            return RuleError("redeal-eldest", f"only the eldest (seat {self.eldest}) may ask for new cards")
        if not self.redeal_open:
            return RuleError("redeal-first", "new cards may be asked for only before leading the first trick")
        return RuleError("redeal-stock", "the stock no longer holds a full deal")

    def _explain_raise(self, seat: int, arg: object) -> RuleError:
        if self.pending and seat != self.answerer:
            return RuleError("answer-first", f"a raise is pending: seat {self.answerer} must answer first")
        if not self.pending:
            if seat != self.to_play:
                return RuleError("raise-on-turn", f"seat {seat} may raise only on its turn, before playing its card")
            if self.team_of[seat] == self.last_raise_team:
                return RuleError("raise-twice", "one team may not raise twice in a row")
            if self.for_the_game:
                return RuleError("reste-accepted", "a reste was accepted: the hand decides the game, no raise is left")
        elif self.pending_reste and arg != RESTE:
            return RuleError(
                "le-mien", f"a reste is answered by accept, fold or a reste of one's own, not 'raise {arg}'"
            )
        base = self.pending or self.stake
        if arg == RESTE:
            need = self.need(self.team_of[seat])
            return RuleError(
                "reste", f"'raise reste' proposes the {need} points seat {seat}'s team needs: not more than {base}"
            )
        if not isinstance(arg, int):
            return RuleError("raise-arg", f"'raise' takes a number or 'reste', not {arg!r}")
        if arg <= base:
            return RuleError("raise-size", f"a raise must propose more than the stake of {base}, not {arg}")
        ceiling = self.raise_ceiling()
        instead = f": raise {ceiling}" if base < ceiling else ""  # none when the stake is at the ceiling already
        return RuleError(
            "raise-size",
            f"a raise above {ceiling} is worth no more than {ceiling}, the most either team needs{instead}",
        )
