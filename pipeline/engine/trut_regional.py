"""The regional Trut variants: ``trut-gatinaise`` (seed 001 "La variante Gâtinaise") and ``trut-gatine``
(seed 003 "Variante de Gâtine"); RULES.md sections of the same names; docs/rules/trut-gatinaise.md and
docs/rules/trut-gatine.md.

Both are ``TrutGame`` subclasses built on its hooks (see ``pipeline.engine.trut``):

- ``RegionalTrutGame`` holds what they share: a round of choices asked seat by seat in play order from the
  eldest (``queue``: singing, holding, discarding), discarding down to 3 cards after extra cards
  (``Phase.DISCARD``, ``discard CARD…``), the trut d'office played for a long without a trut, and the
  decision names a policy answers (``chanson``, ``chanson_agree``, ``chanson_ask``, ``chanter``,
  ``tenir``, ``discard``, and the trut's ``trut_office`` call).
- ``GatinaiseGame``: 5 longs; a side with 2 petits makes the other side trut ("TRUT d'Office", the call
  ``_open_call(side, "trut_office", may_pass=False)``); both with 2 petits: la chanson, then the hand is
  played for a long.
- ``GatineGame``: rank 8 7 A 10 K Q J 9 (the variant's data); at most 2 petits that never make a long,
  and only the long's winner loses its own; ``trut suite``; "à tenir" (``Phase.HOLD``); "chanter"
  (``Phase.SING``); a void trut d'office is redealt "sec" from the same stock (``_void_hand``).

The fortial is not played in either (``FORTIAL = False``): see the rules docs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Any, ClassVar, Final

from pipeline.cards import UNKNOWN, CardError
from pipeline.engine.actions import (
    ASK,
    DISCARD,
    HOLD,
    NOSING,
    PASS,
    SING,
    Action,
    EventTuple,
    RuleError,
    make_action,
    make_event,
)
from pipeline.engine.game import Phase
from pipeline.engine.trut import TRUT, TrutGame

KEEP: Final = 3
"""The cards a player keeps after extra cards (seed 001: "ne conserve que les 3 cartes de son choix";
seed 003: "Il en écarte trois et en garde autant"); also the size of a "sec" redeal."""

OFFICE_PETITS: Final = 2
"""A side holding this many petits brings on the variant's own rule: gatinaise's trut d'office and la
chanson, gatine's "à tenir" and "chanter"."""

MAX_ASK: Final = 3
"""La chanson: the eldest "peut demander 1, 2 ou 3 cartes" (seed 001)."""

CHANTER_CARDS: Final = 3
"""Chanter: "trois cartes supplémentaires sont distribuées" (seed 003)."""

NATURAL_ORDER: Final = ("7", "8", "9", "10", "J", "Q", "K", "A")
"""The order a suite follows (seed 003: 'dans l'ordre "normal"'), whatever the order of play."""

SUITE: Final = "suite"
TIERCE: Final = "tierce"  # read as ``suite`` (seed 003: "suite" ou "tierce")


def is_suite(ranks: Sequence[str]) -> bool:
    """Three consecutive ranks in ``NATURAL_ORDER``, of any suits; the ace does not wrap round to the 7."""
    if len(ranks) != 3:
        return False
    low, mid, high = sorted(NATURAL_ORDER.index(r) for r in ranks)
    return mid == low + 1 and high == mid + 1


class RegionalTrutGame(TrutGame):
    """What both regional variants add to Trut: rounds of choices, discards, the trut d'office."""

    FORTIAL: ClassVar[bool] = False
    PHASE_DECISIONS: ClassVar[dict[Phase, str]] = {Phase.DISCARD: "discard", Phase.HOLD: "tenir"}

    def _reset_hand(self) -> None:
        super()._reset_hand()
        self.queue: list[int] = []  # seats still to choose in the current round, the first chooses now
        self.rounds = 0  # extra deals made for singing in this hand

    def _sides_at_office(self) -> list[int]:
        return [side for side in range(self.sides) if self.petits[side] == OFFICE_PETITS]

    # ----------------------------------------------------------------------------- rounds of choices
    def _open_round(self, phase: Phase, seats: Iterable[int]) -> None:
        """Ask ``seats`` (given in play order from the eldest) one at a time."""
        self.phase = phase
        self.queue = list(seats)
        self.decider = self.queue[0]

    def _next_in_round(self) -> bool:
        """The seat that chose leaves the round; whether another is still to choose."""
        self.queue.pop(0)
        if self.queue:
            self.decider = self.queue[0]
            return True
        return False

    def _choice(self, seat: int, verb: str, arg: Any = None, stake_after: int | None = None) -> EventTuple:
        stake = self.stake
        after = stake if stake_after is None else stake_after
        return self._record(make_event(seat, verb, arg, "choice", False, False, 0, stake, after))

    def _play_office(self) -> None:
        """The hand is played as a trut d'office: for a long, without any trut."""
        self._set_office()
        self._begin_play()

    def _keep_hands_played(self) -> None:
        """``HandRecord.dealt`` (and the seats' strength) becomes the 3 cards each seat now plays with."""
        self.dealt = tuple(tuple(h) for h in self.hands)

    # ---------------------------------------------------------------------------------- discards
    def _open_discards(self) -> None:
        """Each player, in play order from the eldest, keeps 3 cards and discards the rest to the stock."""
        self._open_round(Phase.DISCARD, self.order)

    def _discard_options(self, seat: int) -> list[Action]:
        hand = self.hands[seat]
        text = self.variant.deck.text
        return [
            make_action(seat, DISCARD, " ".join(text(hand[i]) for i in drop))
            for drop in combinations(range(len(hand)), len(hand) - KEEP)
        ]

    def _discard_positions(self, seat: int, arg: Any) -> list[int] | None:
        """Where the cards a ``discard`` names are in the seat's hand, in hand order; None unless it holds
        every one of them. ``??`` names one of its unseen cards."""
        if not isinstance(arg, str):
            return None
        hand = self.hands[seat]
        taken: list[int] = []
        for word in arg.split():
            try:
                card = self.variant.deck.parse(word)
            except CardError:
                return None
            position = next((i for i, c in enumerate(hand) if c == card and i not in taken), None)
            if position is None:
                return None
            taken.append(position)
        return sorted(taken)

    def _discard(self, seat: int, arg: Any) -> EventTuple:
        """The discarded cards go back to the stock unseen (seed 003 "remises au talon"; seed 001 "au
        Talon sans les dévoiler"); the event names them in the order they were held."""
        positions = self._discard_positions(seat, arg)
        if positions is None:
            raise RuleError("card-not-held", f"seat {seat} does not hold {arg}")
        hand = self.hands[seat]
        cards = [hand[i] for i in positions]
        event = self._choice(seat, DISCARD, self.variant.deck.texts(cards))
        self.hands[seat] = [c for i, c in enumerate(hand) if i not in positions]
        self.stock.extend(c for c in cards if c != UNKNOWN)
        if not self._next_in_round():
            self._keep_hands_played()
            self._play_office()
        return event

    # ------------------------------------------------------------------------------- determinisation
    def seen_by(self, seat: int) -> set[int]:
        """A seat knows the cards it discarded (to the stock, unseen by the others)."""
        seen = super().seen_by(seat)
        parse = self.variant.deck.parse
        for event in self.events:
            if event[1] == DISCARD and event[0] == seat:
                seen.update(parse(word) for word in str(event[2]).split())
        return seen

    def _mapped_event(self, event: EventTuple, mapping: list[int]) -> EventTuple:
        if event[1] != DISCARD:
            return super()._mapped_event(event, mapping)
        deck, e = self.variant.deck, event
        cards = deck.texts([mapping[deck.parse(word)] for word in str(e[2]).split()])
        return make_event(e[0], DISCARD, cards, e[3], e[4], e[5], e[6], e[7], e[8])

    # ------------------------------------------------------------------------------ engine hooks
    def _phase_decision(self, seat: int, optional: bool) -> str:
        phase = self.phase
        if phase is Phase.SING:
            return self._sing_decision()
        return self.PHASE_DECISIONS.get(phase) or super()._phase_decision(seat, optional)

    def _sing_decision(self) -> str:
        raise NotImplementedError

    def _legal_phase(self, seat: int) -> list[Action]:
        if self.phase is Phase.DISCARD:
            return self._discard_options(seat) if seat == self.decider else []
        return super()._legal_phase(seat)

    def _apply_phase(self, seat: int, verb: str, arg: Any) -> EventTuple:
        if self.phase is Phase.DISCARD:
            return self._discard(seat, arg)
        return super()._apply_phase(seat, verb, arg)

    def apply_checked(self, action: Action) -> EventTuple:
        """The checked ``apply``, once the argument is written as the engine writes it (``_canonical``)."""
        return super().apply_checked(self._canonical(action))

    def _canonical(self, action: Action) -> Action:
        """A discard's cards in the order they are held (a reader may list them in any order); ``ask``'s
        number from its text."""
        seat, verb, arg = action
        if verb == ASK and isinstance(arg, str) and arg.isascii() and arg.isdigit():
            return make_action(seat, verb, int(arg))
        if verb == DISCARD and self.phase is Phase.DISCARD and isinstance(seat, int) and 0 <= seat < self.n:
            positions = self._discard_positions(seat, arg)
            if positions is not None:
                hand = self.hands[seat]
                return make_action(seat, verb, self.variant.deck.texts([hand[i] for i in positions]))
        return action

    # ------------------------------------------------------------------------------ explanations
    def _explain(self, action: Action) -> RuleError | None:
        seat, verb, arg = action
        phase = self.phase
        if phase is Phase.DISCARD:
            return self._explain_discard(seat, verb, arg)
        if phase in (Phase.SING, Phase.HOLD):
            rule = self.special or phase.name.lower()
            if seat != self.decider:
                what = "whether he holds" if phase is Phase.HOLD else "whether he sings"
                return RuleError(rule, f"seat {self.decider} says now {what}: one by one in play order from the eldest")
            may = ", ".join(" ".join(str(x) for x in a[1:] if x is not None) for a in self.legal_for(seat))
            return RuleError(rule, f"'{verb}' is not allowed now: seat {seat} may say {may}")
        return super()._explain(action)

    def _explain_discard(self, seat: int, verb: str, arg: Any) -> RuleError:
        if seat != self.decider:
            return RuleError(
                "discard", f"seat {self.decider} discards now: each player keeps 3 cards in turn, from the eldest"
            )
        held = len(self.hands[seat])
        drop = held - KEEP
        if verb != DISCARD:
            return RuleError("discard", f"'{verb}': seat {seat} first keeps 3 cards and discards {drop}")
        named = arg.split() if isinstance(arg, str) else []
        if len(named) != drop:
            return RuleError("discard-count", f"seat {seat} holds {held} cards: it discards {drop}, not {len(named)}")
        return RuleError("card-not-held", f"seat {seat} does not hold {arg}")


class GatinaiseGame(RegionalTrutGame):
    """Trut à la Gâtinaise (seed 001 "La variante Gâtinaise"): the trut d'office and la chanson."""

    def _reset_hand(self) -> None:
        super()._reset_hand()
        self.asking = False  # la chanson: the eldest names how many cards each is dealt

    def _special_phase(self) -> None:
        """One side with 2 petits: the other side must trut ("TRUT d'Office"), the side with 2 petits sees
        or folds. Both sides with 2 petits: la chanson."""
        at_two = self._sides_at_office()
        if len(at_two) == 2:
            self.special = "chanson"
            self._ask_eldest()
        elif at_two:
            self.special = "trut_office"
            self._open_call(1 - at_two[0], "trut_office", may_pass=False)
        else:
            self._begin_play()

    # ---------------------------------------------------------------------------------- la chanson
    def _ask_eldest(self) -> None:
        """The dealer asks the eldest "Est-ce que tu chantes ?"; if he sings, the others say in turn, in play
        order, whether they sing with him."""
        self.asking = False
        self._open_round(Phase.SING, self.order)

    def _most_to_ask(self) -> int:
        """1, 2 or 3 cards each, as far as the stock lasts."""
        return min(MAX_ASK, len(self.stock) // self.n)

    def _sing_decision(self) -> str:
        if self.asking:
            return "chanson_ask"
        return "chanson" if self.decider == self.eldest else "chanson_agree"

    def _after_extra_deal(self, count: int) -> None:
        """ "Il est possible de Chanter plusieurs fois": the eldest is asked again while the stock can give
        each player one more card; then everyone discards down to 3."""
        if len(self.stock) >= self.n:
            self._ask_eldest()
        else:
            self._open_discards()

    def _end_chanson(self) -> None:
        """Nobody sings (more): discard down to 3 if cards were dealt, then the hand is played for a long."""
        if self.rounds:
            self._open_discards()
        else:
            self._play_office()

    def _legal_phase(self, seat: int) -> list[Action]:
        if self.phase is Phase.SING:
            if seat != self.decider:
                return []
            if self.asking:
                return [make_action(seat, ASK, k) for k in range(1, self._most_to_ask() + 1)]
            return [make_action(seat, SING), make_action(seat, NOSING)]
        return super()._legal_phase(seat)

    def _apply_phase(self, seat: int, verb: str, arg: Any) -> EventTuple:
        if self.phase is not Phase.SING:
            return super()._apply_phase(seat, verb, arg)
        if verb == ASK:
            event = self._choice(seat, ASK, arg)
            self.asking = False
            self.rounds += 1
            self._deal_more(int(arg))
            return event
        event = self._choice(seat, verb)
        if verb == NOSING:  # the eldest does not sing (more), or one player does not sing with him
            self._end_chanson()
        elif not self._next_in_round():  # everyone sings: "Combien de cartes ?"
            self.asking = True
            self.decider = self.eldest
        return event

    def _explain(self, action: Action) -> RuleError | None:
        if self.phase is Phase.SING and self.asking and action.seat != self.decider:
            return RuleError(
                self.special or "sing",
                f"seat {self.decider}, the eldest, asks how many more cards each is dealt, not seat {action.seat}",
            )
        if self.phase is Phase.FORTIAL and (action.seat != self.decider or action.verb != TRUT):
            return RuleError(
                "trut_office", f"seat {self.decider} must trut first: the side facing 2 petits truts d'office"
            )
        return super()._explain(action)


class GatineGame(RegionalTrutGame):
    """Trut in Gâtine (seed 003 "Variante de Gâtine"): capped petits, "à tenir", "chanter", "sec" redeals."""

    PETIT_CAP: ClassVar[int | None] = 2
    PETITS_PER_LONG: ClassVar[int | None] = None
    ANNOUNCEMENTS = {**TrutGame.ANNOUNCEMENTS, SUITE: is_suite}

    def _announcement_words(self) -> tuple[str, ...]:
        """'en plus des "deux petites une grosse" ou "berlan" on peut annoncer "suite" ou "tierce"'."""
        return ("brelan", SUITE)

    def _reset_hand(self) -> None:
        super()._reset_hand()
        self.chanter = False  # both sides lose their petits after this hand

    def _special_phase(self) -> None:
        """Both sides with 2 petits: "on chante". One side: it is "à tenir"."""
        at_two = self._sides_at_office()
        if len(at_two) == 2:
            self.special = "chanter"
            self.chanter = True
            self._open_round(Phase.SING, self.order)
        elif at_two:
            self.special = "tenir"
            self._open_round(Phase.HOLD, [s for s in self.order if self.team_of[s] == at_two[0]])
        else:
            self._begin_play()

    def _petits_lost(self, side: int, losers: Iterable[int]) -> Iterable[int]:
        """ "Quand une équipe remporte un trut, seule cette équipe perd ses points"; after a chanter hand
        "les deux équipes perdent leurs deux points"."""
        return range(self.sides) if self.chanter else (side,)

    def _sing_decision(self) -> str:
        return "chanter"

    def _legal_phase(self, seat: int) -> list[Action]:
        phase = self.phase
        if phase is Phase.SING:
            return [make_action(seat, SING), make_action(seat, NOSING)] if seat == self.decider else []
        if phase is Phase.HOLD:
            return [make_action(seat, HOLD), make_action(seat, PASS)] if seat == self.decider else []
        return super()._legal_phase(seat)

    def _apply_phase(self, seat: int, verb: str, arg: Any) -> EventTuple:
        phase = self.phase
        if phase is Phase.SING:
            return self._sing(seat, verb)
        if phase is Phase.HOLD:
            return self._hold(seat, verb)
        return super()._apply_phase(seat, verb, arg)

    def _sing(self, seat: int, verb: str) -> EventTuple:
        """One refusal: a normal trut d'office. All sing: 3 more cards each, then each discards 3."""
        event = self._choice(seat, verb)
        if verb == NOSING:
            self._play_office()
        elif not self._next_in_round():
            self.rounds += 1
            self._deal_more(CHANTER_CARDS)
        return event

    def _hold(self, seat: int, verb: str) -> EventTuple:
        """One holder is enough: a trut d'office. Nobody holds: no play, the opponents take 1 petit."""
        if verb == HOLD:
            event = self._choice(seat, HOLD, stake_after=self.LONG_VALUE)
            self._play_office()
            return event
        event = self._choice(seat, PASS)
        if not self._next_in_round():
            self._call_passed()
        return event

    def _after_extra_deal(self, count: int) -> None:
        if self.extra_replace:  # a "sec" redeal: trut d'office, no holding
            self._keep_hands_played()
            self._play_office()
        else:
            self._open_discards()

    def _void_hand(self, tie_rule: str | None) -> None:
        """A trut d'office "tout paté": 3 new cards each from the same stock, played "sec"; a new shuffle
        when the stock is out."""
        if not self.office:
            super()._void_hand(tie_rule)
            return
        self.special = "sec"
        self._deal_more(KEEP, replace=True)

    def _canonical(self, action: Action) -> Action:
        """``trut tierce`` is ``trut suite``."""
        seat, verb, arg = action
        if verb == TRUT and isinstance(arg, str) and arg.lower() == TIERCE:
            return make_action(seat, verb, SUITE)
        return super()._canonical(action)
