"""Valencian Truc (seed 004 "El joc del truc"; RULES.md `valencian`): the Catalan raise ladder made longer
and stricter, a covered card, the envit side bet, and scoring in stones and cames.

What ``ValencianGame`` changes in ``LadderGame``:

- ladder ``truc`` 2, ``retruc`` 3, ``quatre-val`` 4, ``joc-fora`` (the whole game; ``JOC_FORA_STAKE``
  marks its rung). A raise is made only by the seat to play ("cal estar en possessió del torn de
  tirar"): no window after playing. A pending raise must be answered explicitly: a card does not accept;
- ``cover CARD``: a card played face down, below every card (the trick holds ``covered``, a marker
  index whose power is 0, so nobody learns the card from the trick);
- the envit (``ENVIT_LADDER``): called before one's first card, answered at once by the next opponent,
  closed by any answer to a truc, settled at the end of the hand (``_settle``);
- stones and cames: ``scores`` count cames; ``stones`` the current cama; a hand's ``points`` are the
  stones it counted (envit first, then the truc; stones past the end of a cama are lost).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Final

from pipeline.cards import UNKNOWN, Deck
from pipeline.engine.actions import ACCEPT, FOLD, PLAY, SIGNAL, Action, EventTuple, RuleError, make_action, make_event
from pipeline.engine.card_sets import three_card_rank
from pipeline.engine.game import PLAYING, Phase
from pipeline.engine.ladder import LadderGame
from pipeline.engine.rules import Config

COVER: Final = "cover"
ENVIT, TORNE, FALTA, ENVIT_FALTA = "envit", "torne", "falta", "envit-falta"

JOC_FORA_STAKE: Final = 5
"""The stake recorded for the ``joc-fora`` rung: a marker of the rung (the whole game), not stones."""

FALTA_STAKE: Final = -1
"""An envit accepted for the falta: its stones depend on the loser's stones (``falta_stones``)."""

# Decisions (``Game.decision``): a policy has a method of each name (``policies/valencian_decisions.py``).
TURN_DECISION: Final = "valencian_turn"  # the seat to play: play or cover a card, envit, raise
ANSWER_DECISION: Final = "valencian_answer"  # answer a pending truc (or envit first, seed 004 rule a)
ENVIT_ANSWER_DECISION: Final = "envit_answer"  # answer a pending envit, torne, falta
SENYA_DECISION: Final = "senya"  # the signal to the partner

SENYES: Final = ("1e", "1b", "7e", "7o", "3", "33")
"""The classic signals of seed 004 "Senyes": the Espasa, the Basto, the two manilles, a three, and 33 of
envit. A signal names the ones claimed, joined by ``+`` in this order (``1e+3``), or ``-`` for nothing."""

SENYA_WORDS: Final = ("-",) + tuple(
    "+".join(group) for size in range(1, len(SENYES) + 1) for group in combinations(SENYES, size)
)


@dataclass(frozen=True)
class EnvitCall:
    """One call of the envit ladder: the stones its caller's side takes if it is refused, and the stones
    it is played for if accepted (``FALTA_STAKE``: the falta)."""

    verb: str
    fold: int
    accept: int

    def __reduce__(self) -> tuple[type[EnvitCall], tuple[str, int, int]]:
        """Pickled by its fields (compiled, a frozen dataclass cannot be given its state after it is built)."""
        return EnvitCall, (self.verb, self.fold, self.accept)


ENVIT_LADDER: dict[str | None, tuple[EnvitCall, ...]] = {
    None: (EnvitCall(ENVIT, 1, 2), EnvitCall(ENVIT_FALTA, 1, FALTA_STAKE)),
    ENVIT: (EnvitCall(TORNE, 2, 4), EnvitCall(FALTA, 2, FALTA_STAKE)),
    TORNE: (EnvitCall(FALTA, 4, FALTA_STAKE),),
    FALTA: (),
    ENVIT_FALTA: (),
}
"""Seed 004 "L'envit, el torne i la falta": the calls open after each call (``None``: no envit yet)."""

ENVIT_CALLS: Final = frozenset(call.verb for calls in ENVIT_LADDER.values() for call in calls)


def envit_value(deck: Deck, cards: Sequence[int]) -> int:
    """Seed 004 "L'envit...": two cards of one suit are worth their two highest face values plus 20
    (only two cards are tied, "Només se poden lligar fins a dues cartes"); otherwise the highest face value.
    Every Valencian card has a face value 1-7, so the maximum is 7 + 6 + 20 = 33. (The engine, the bots
    and the rows all ask for it at every hand, so every set of 3 cards of the deck has its value computed
    once, in a list at the set's rank (``three_card_rank``); another hand, or one with an unseen card, is
    valued directly.)"""
    if len(cards) == 3:
        a, b, c = cards[0], cards[1], cards[2]
        if a >= 0 and b >= 0 and c >= 0:
            table = _ENVIT_BY_RANK.get(deck.name)
            if table is None:
                table = _ENVIT_BY_RANK[deck.name] = _envit_table(deck)
            return table[three_card_rank(a, b, c)]
    return _envit_value(deck, cards)


def _envit_table(deck: Deck) -> list[int]:
    """The envit value of every set of 3 cards of ``deck``, at the set's rank."""
    table = [0] * (len(deck) * (len(deck) - 1) * (len(deck) - 2) // 6)
    for a, b, c in combinations(range(len(deck)), 3):
        table[three_card_rank(a, b, c)] = _envit_value(deck, (a, b, c))
    return table


_ENVIT_BY_RANK: Final[dict[str, list[int]]] = {}


def _envit_value(deck: Deck, cards: Sequence[int]) -> int:
    faces, suits = _faces_and_suits(deck)
    best = 0
    for i, card in enumerate(cards):
        face = faces[card]
        best = max(best, face)
        for other in cards[i + 1 :]:  # any two cards of one suit; the best pair is the two highest
            if suits[other] == suits[card]:
                best = max(best, face + faces[other] + 20)
    return best


_TABLES: dict[str, tuple[tuple[int, ...], tuple[str, ...]]] = {}


def _faces_and_suits(deck: Deck) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """Per card index, its face value and suit (kept per deck name: the envit is computed every hand)."""
    tables = _TABLES.get(deck.name)
    if tables is None:
        tables = _TABLES[deck.name] = (tuple(int(r) for r in deck.rank_of), deck.suit_of)
    return tables


def falta_stones(loser_stones: int, half: int) -> int:
    """Seed 004 "L'envit...": a falta against a side "a males" (at most ``half`` stones, 9 or 12) wins the
    whole cama; against a side "a bones" it wins what the loser lacks to complete the cama."""
    return 2 * half if loser_stones <= half else 2 * half - loser_stones


def envit_cap(stones: int, loser_stones: int, cama: int) -> int:
    """Seed 004 "Excepció important a les puntuacions": envit stones never exceed what the opponent lacks
    to complete the cama."""
    return min(stones, cama - loser_stones)


class ValencianGame(LadderGame):
    """A game of Valencian Truc: a coto of ``cames`` cames, each of 2 × ``bones`` stones."""

    def __init__(
        self,
        config: Config,
        seed: int | None = None,
        first_dealer: int | None = None,
        scores: tuple[int, ...] | None = None,
        stones: tuple[int, ...] | None = None,
    ) -> None:
        """``scores`` are cames; ``stones`` the current cama's stones (to start from an end-game)."""
        options = config.options
        self.half = int(options["bones"])  # stones "a males", then as many "a bones"
        self.cama = 2 * self.half
        self.stones = list(stones) if stones is not None else [0, 0]
        if len(self.stones) != 2 or not all(0 <= s < self.cama for s in self.stones):
            raise ValueError(f"starting stones {self.stones} must be 2 numbers between 0 and {self.cama - 1}")
        super().__init__(config, seed, first_dealer, scores)
        self.target = int(options["cames"])
        if max(self.scores) >= self.target:
            raise ValueError(f"starting cames {tuple(self.scores)} must be below {self.target}")
        deck = self.variant.deck
        self.covered = len(deck)  # what the trick holds for a covered card
        self.power = self.variant.power + (0,)

    # ------------------------------------------------------------------------------------ set-up
    def _reset_hand(self) -> None:
        super()._reset_hand()
        self.envit_call: str | None = None  # the last envit call made this hand
        self.envit_rung: EnvitCall | None = None  # and its values
        self.envit_pending = False
        self.envit_caller = -1
        self.envit_answerer = -1
        self.envit_closed = False  # a truc was answered: "l'envit és abans que el truc"
        self.envit_outcome: tuple[str, int, int] | None = None  # (accept|fold, stake, caller side)
        self.settled_envit: tuple[int, int, int] | None = None
        self.envit_points = 0
        self.joc_fora_won = False
        self.unknown_cards = False  # a replayed record with unseen cards
        self.envit_of: list[int] = []  # per seat, the envit of the cards dealt

    def _after_deal(self) -> None:
        deck = self.variant.deck
        self.unknown_cards = any(UNKNOWN in h for h in self.dealt)
        if not self.unknown_cards:
            self.envit_of = [envit_value(deck, h) for h in self.dealt]
        super()._after_deal()

    def _legal_phase(self, seat: int) -> list[Action]:
        if self.phase is Phase.SIGNAL:
            return [make_action(seat, SIGNAL, w) for w in SENYA_WORDS] if seat == self.decider else []
        return super()._legal_phase(seat)

    # ------------------------------------------------------------------------------------ who acts
    def actor(self) -> int:
        if self.phase is PLAYING and self.envit_pending:
            return self.envit_answerer
        return super().actor()

    def optional_actors(self) -> list[int]:
        """Nobody acts out of turn: a raise needs the turn to play (seed 004 "Trucar, retrucar...",
        "Observacions"), so there is no window after playing as in Catalan."""
        return []

    def decision(self, seat: int, optional: bool = False) -> str:
        phase = self.phase
        if phase is PLAYING:
            if self.envit_pending:
                return ENVIT_ANSWER_DECISION
            return ANSWER_DECISION if self.pending else TURN_DECISION
        if phase is Phase.SIGNAL:
            return SENYA_DECISION
        return super().decision(seat, optional)

    def may_raise(self, seat: int) -> bool:
        """The next rung of the truc ladder is open to ``seat``: it answers a raise (accept-and-raise), or it
        is the seat to play and its side did not make the last raise (seed 004 "Trucar, retrucar...")."""
        if self.phase is not PLAYING or self.envit_pending or not self.next_raise():
            return False
        if self.pending:
            return seat == self.answerer
        return seat == self.to_play and self.team_of[seat] != self.last_raise_team

    def may_envit(self, seat: int) -> bool:
        """Seed 004 "L'envit...": one envit a hand, by a seat that has not played a card yet, on its turn to
        play or when answering a truc, and only until a truc has been answered."""
        if self.envit_call is not None or self.envit_closed or self.envit_pending:
            return False
        if len(self.hands[seat]) != self.cards_dealt:
            return False
        return seat == self.answerer if self.pending else seat == self.to_play

    def _legal_play(self, seat: int) -> list[Action]:
        if self.envit_pending:
            if seat != self.envit_answerer:
                return []
            if self.unknown_cards:  # an accepted envit could not be settled (decision, docs)
                return [make_action(seat, FOLD)]
            raises = [make_action(seat, call.verb) for call in ENVIT_LADDER[self.envit_call]]
            return [make_action(seat, ACCEPT), make_action(seat, FOLD), *raises]
        actions: list[Action] = []
        if self.pending:
            if seat != self.answerer:
                return actions
            actions += [make_action(seat, ACCEPT), make_action(seat, FOLD)]
        elif seat == self.to_play:
            plays = self._plays(seat)
            actions += plays
            actions += [make_action(seat, COVER, a.arg) for a in plays]
            if UNKNOWN in self.hands[seat]:  # a record's unseen card, laid face down unseen: ``cover ??``
                actions.append(make_action(seat, COVER, UNKNOWN))
        else:
            return actions
        if self.may_raise(seat):
            actions.append(make_action(seat, self.ladder[self.next_raise() - 1].verb))
        if self.may_envit(seat):
            actions += [make_action(seat, call.verb) for call in ENVIT_LADDER[None]]
        return actions

    # ------------------------------------------------------------------------------------ actions
    def _apply_bet(self, seat: int, verb: str, arg: Any) -> EventTuple:
        if verb == COVER:
            return self._lay(seat, arg, COVER, self.covered)
        if self.envit_pending:
            if verb in (ACCEPT, FOLD):
                return self._answer_envit(seat, verb)
            return self._call_envit(seat, verb)
        if verb in ENVIT_CALLS:
            return self._call_envit(seat, verb)
        self.envit_closed = self.envit_closed or bool(self.pending)  # any answer to a truc closes the envit
        return super()._apply_bet(seat, verb, arg)

    def _play(self, seat: int, card: int) -> EventTuple:
        return self._lay(seat, card, PLAY, card)

    def _lay(self, seat: int, card: int, verb: str, shown: int) -> EventTuple:
        """Play ``card`` face up (``shown`` is the card) or covered (``shown`` is ``covered``)."""
        could = self.may_raise(seat)
        hand = self.hands[seat]
        if card in hand:
            hand.remove(card)
        else:
            hand.remove(UNKNOWN)
            self.known.add(card)
        stake = self.stake
        event = self._record(make_event(seat, verb, card, "play", False, could, len(self.tricks) + 1, stake, stake))
        trick = self.trick
        trick.append((seat, shown))
        if len(trick) < self.n:
            self.to_play = (seat + 1) % self.n
        else:
            self._close_trick()
        return event

    def _call_envit(self, seat: int, verb: str) -> EventTuple:
        call = next(c for c in ENVIT_LADDER[self.envit_call] if c.verb == verb)
        could = self.may_raise(seat)
        self.envit_call = verb
        self.envit_rung = call
        self.envit_pending = True
        self.envit_caller = seat
        self.envit_answerer = (seat + 1) % self.n  # the next opponent answers for the side
        stake = self.stake
        return self._record(
            make_event(seat, call.verb, None, "envit", False, could, len(self.tricks) + 1, stake, stake)
        )

    def _answer_envit(self, seat: int, verb: str) -> EventTuple:
        call = self.envit_rung
        assert call is not None
        side = self.team_of[self.envit_caller]
        self.envit_outcome = (verb, call.accept if verb == ACCEPT else call.fold, side)
        self.envit_pending = False
        stake = self.stake
        trick_no = len(self.tricks) + 1
        return self._record(make_event(seat, verb, None, "envit_answer", False, False, trick_no, stake, stake))

    # ------------------------------------------------------------------------------- determinisation
    def seen_by(self, seat: int) -> set[int]:
        """A covered card is seen by its own seat only."""
        seen = super().seen_by(seat)
        seen.update(event[2] for event in self.events if event[1] == COVER and event[0] == seat)
        return seen

    def hidden_places(self, seat: int) -> list[list[int]]:
        """The other seats' covered cards, in the order laid, are hidden places too."""
        covered = [event[2] for event in self.events if event[1] == COVER and event[0] != seat]
        return [*super().hidden_places(seat), covered]

    def _mapped_event(self, event: EventTuple, mapping: list[int]) -> EventTuple:
        if event[1] != COVER:
            return super()._mapped_event(event, mapping)
        e = event
        return make_event(e[0], COVER, mapping[e[2]], e[3], e[4], e[5], e[6], e[7], e[8])

    def _map_cards(self, mapping: list[int]) -> None:
        """The envit of each seat's cards follows them."""
        super()._map_cards(mapping)
        if self.envit_of:
            self.envit_of = [envit_value(self.variant.deck, h) for h in self.dealt]

    # ------------------------------------------------------------------------------------ scoring
    def envit_winner(self) -> int:
        """The side with the best envit: in pairs each side's best seat counts; a tie goes to the seat
        nearest the eldest in play order (seed 004 "L'envit..." and "Jugar per parelles")."""
        best_seat = self.eldest
        for k in range(1, self.n):
            seat = (self.eldest + k) % self.n
            if self.envit_of[seat] > self.envit_of[best_seat]:
                best_seat = seat
        return self.team_of[best_seat]

    def _envit_result(self) -> tuple[int, int, int] | None:
        """(winning side, stones it is settled for, stones before the cap rule) for the hand's envit."""
        if self.envit_outcome is None:
            return None
        ended_by, stake, caller_side = self.envit_outcome
        if ended_by == FOLD:
            return caller_side, envit_cap(stake, self.stones[1 - caller_side], self.cama), stake
        winner = self.envit_winner()
        loser_stones = self.stones[1 - winner]
        if stake == FALTA_STAKE:
            stake = falta_stones(loser_stones, self.half)
            if loser_stones <= self.half:  # the whole cama: not cut by the cap (decision, docs)
                return winner, stake, stake
        return winner, envit_cap(stake, loser_stones, self.cama), stake

    def _settle(self, winner: int | None, truc: int) -> tuple[int, ...]:
        """Count the hand's stones: the envit first, then the truc (decision, docs). A side that completes
        the cama wins it; the stones still to count in the hand are lost and the next cama starts at 0-0."""
        points = [0, 0]
        closed = False

        def count(side: int, stones: int) -> int:
            nonlocal closed
            if closed:
                return 0
            taken = min(stones, self.cama - self.stones[side])
            self.stones[side] += taken
            points[side] += taken
            if self.stones[side] == self.cama:
                self.scores[side] += 1
                self.stones = [0, 0]
                closed = True
            return taken

        self.settled_envit = envit = self._envit_result()
        if envit is not None:
            self.envit_points = count(envit[0], envit[1])
        if winner is not None:
            count(winner, truc)
            if self.joc_fora_won:  # the hand decides the whole game (seed 004 "Trucar...")
                self.scores[winner] = self.target
                self.scores[1 - winner] = min(self.scores[1 - winner], self.target - 1)
        return tuple(points)

    def most_in_one_hand(self) -> int:
        """Cames: a hand closes at most one cama (``_settle``), and joc fora sets the winner at the target."""
        return 1

    def _apply_scores(self, points: tuple[int, ...]) -> None:
        """Stones and cames are counted by ``_settle`` (the order of envit and truc matters)."""

    def _end_hand(self, winner: int | None, points: tuple[int, ...], ended_by: str, tie_rule: str | None) -> None:
        """``points`` give the truc's stones to ``winner``; the hand's stones add the envit (``_settle``)."""
        truc = points[winner] if winner is not None else 0
        if ended_by == "tricks" and self.level == len(self.ladder):  # an accepted joc fora
            self.joc_fora_won = True
            truc = self.cama
        super()._end_hand(winner, self._settle(winner, truc), ended_by, tie_rule)

    def _hand_details(self) -> tuple[tuple[str, object], ...]:
        details: list[tuple[str, object]] = []
        if self.joc_fora_won:
            details.append(("special", "joc_fora"))
        result, settled = self.envit_outcome, self.settled_envit
        if result is not None and settled is not None:
            side, _, stake = settled
            details += [
                ("envit_stake", stake),
                ("envit_winner", side),
                ("envit_points", self.envit_points),
                ("envit_ended_by", "accept" if result[0] == ACCEPT else "fold"),
            ]
        details += [("cames_after_team0", self.scores[0]), ("cames_after_team1", self.scores[1])]
        return tuple(details)

    # ------------------------------------------------------------------------------- explanations
    def _explain(self, action: Action) -> RuleError | None:
        seat, verb, arg = action
        phase = self.phase
        if phase is Phase.SIGNAL and seat == self.decider and verb == SIGNAL:
            return RuleError("signal", f"{arg!r} is not a senya; senyes: {' '.join(SENYES)} joined by '+', or '-'")
        if phase is not PLAYING:
            return None
        if self.envit_pending:
            return self._explain_envit_answer(seat, verb)
        if verb in ENVIT_CALLS:
            return self._explain_envit(seat, verb)
        if verb in (ACCEPT, FOLD):
            if not self.pending:
                return RuleError("nothing-to-answer", f"'{verb}' but no truc or envit is pending")
            return RuleError("answerer", f"seat {self.answerer}, the next opponent of the raiser, answers for the side")
        if self.pending and (verb in (PLAY, COVER) or seat != self.answerer):
            return RuleError(
                "answer-first", f"a raise is pending: seat {self.answerer} must accept, fold or raise before any card"
            )
        if verb == COVER:
            if seat != self.to_play:
                return RuleError("turn", f"it is seat {self.to_play}'s turn to play, not seat {seat}'s")
            if arg == UNKNOWN:
                return RuleError("card-not-held", f"seat {seat} holds no unseen card (??) to cover")
            text = self.variant.deck.text(arg) if isinstance(arg, int) and 0 <= arg < self.covered else str(arg)
            return RuleError("card-not-held", f"seat {seat} does not hold {text}")
        if verb in self.variant.raise_verbs:
            rung = self.next_raise()
            if not rung:
                if self.pending:
                    return RuleError("ladder-top", "the joc fora is the highest raise: accept or fold it")
                return RuleError("ladder-top", "the joc fora has been accepted: nothing is higher")
            expected = self.ladder[rung - 1].verb
            if verb != expected:
                return RuleError("ladder-order", f"the next raise is '{expected}', not '{verb}'")
            if self.team_of[seat] == self.last_raise_team and not self.pending:
                return RuleError("raise-right", "only the side that accepted the last raise may raise again")
            return RuleError("raise-on-turn", f"seat {seat} may raise only on its turn to play (seat {self.to_play})")
        return None

    def _explain_envit_answer(self, seat: int, verb: str) -> RuleError:
        call = self.envit_call
        if seat != self.envit_answerer:
            return RuleError(
                "answer-envit-first", f"the {call} is pending: seat {self.envit_answerer} must answer it first"
            )
        if self.unknown_cards and verb != FOLD:
            return RuleError(
                "envit-unknown-cards", "an envit is settled by showing the cards: the deal must list every card"
            )
        answers = f"accept, fold{''.join(', ' + c.verb for c in ENVIT_LADDER[call])}"
        if verb not in ENVIT_CALLS:
            return RuleError("answer-envit-first", f"the {call} is pending: seat {seat} answers it ({answers}) first")
        return RuleError("envit-ladder", f"after '{call}' the answer is {answers}")

    def _explain_envit(self, seat: int, verb: str) -> RuleError:
        if verb not in (ENVIT, ENVIT_FALTA):
            return RuleError("envit-ladder", f"'{verb}' answers a pending envit; none is pending")
        if self.envit_call is not None:
            return RuleError("one-envit", "the envit has already been called this hand")
        if self.envit_closed:
            return RuleError("envit-before-truc", "a truc has been answered: the envit comes before the truc")
        if len(self.hands[seat]) != self.cards_dealt:
            return RuleError("envit-before-first-card", f"seat {seat} has played a card: the envit comes before it")
        if self.pending:
            return RuleError("answer-first", f"a truc is pending: only seat {self.answerer}, who answers it, may envit")
        return RuleError("envit-on-turn", f"seat {seat} may envit only on its turn to play (seat {self.to_play})")
