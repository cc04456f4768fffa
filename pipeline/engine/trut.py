"""Trut (seed 003 "Trut", seed 001 "TRUT"; RULES.md `trut`): the trut, petits and longs, the fortial.

What the family does its own way, on top of ``pipeline.engine.game``:

- **The trut.** Any seat, at any moment of the play before the last card, even out of turn, may
  ``trut`` (``trut brelan`` with option ``brelan=on`` and three of a rank in hand). One trut per hand,
  nothing over it. So in ``PLAYING`` with no trut yet, ``optional_actors()`` lists every seat but the
  one to play, in play order from the eldest; the seat to play has ``trut`` among its own actions.
- **The answers.** The truter's opponents answer one at a time in play order from the eldest (seed 003),
  ``accept`` ("je vais voir") or ``fold`` ("je me couche"); ``actor()`` is the seat to answer and nobody
  plays meanwhile. With two sides one ``accept`` is enough: the others do not answer and the record
  holds only the answers given, up to the first ``accept``; when every opponent folds the truters take 1 petit. With
  three sides (3 players, each alone) both opponents always answer (seed 001 "Variante pour 3 joueurs").
- **Stakes** count petits: 1 (a petit) until a trut is seen, then ``LONG_VALUE`` (a long), twice that
  when both opponents see in 3 players. ``HandRecord.points`` are the petits and longs a side won in the
  hand, a long counted as ``LONG_VALUE`` petits; ``Game.scores`` are longs; the petits held are
  ``self.petits``. ``HandRecord.details`` has the petits and longs won (as on the ``end`` line) and held
  after the hand, ``trut_seat``, ``special`` and ``void``.
- **The fortial** (``Phase.FORTIAL``): see ``_special_phase``.

Hooks for the regional variants (``trut-gatinaise``, ``trut-gatine``), each a subclass in its own
module that changes data or overrides one method:

- ``PETITS_PER_LONG`` (3; None: petits never turn into a long), ``PETIT_CAP`` (None; gatine: 2),
  ``LONG_VALUE`` (3, the worth of a long in ``points``), ``FORTIAL`` (True: the fortial is played).
- ``_petits_lost(side, losers)``: whose petits go when ``side`` gains a long (default ``losers``, the
  other sides; gatine: only ``side`` itself).
- ``ANNOUNCEMENTS`` (word -> test on the ranks held) and ``_announcement_words()``, the words enabled
  in this game (default: ``brelan`` when the option is on; gatine adds ``suite``).
- ``_special_phase()``: called after the deal, before play; chooses the hand's phase. Override it for
  à tenir (``Phase.HOLD``), la chanson / chanter (``Phase.SING``) or trut d'office, then call one of:
  ``_begin_play()``; ``_set_office()`` (the hand is played for a long without any trut: gatine's trut
  d'office); ``_open_call(side, kind, may_pass)`` (the seats of ``side`` decide in play order from the
  eldest to ``trut`` or ``pass``; with ``may_pass=False`` the first of them must trut: gatinaise's trut
  d'office; the decision is named ``kind``; ``_call_passed()`` says what happens when all pass).
- ``_deal_more(k, replace=False)``: a chance step inside the hand: ``k`` more cards each from the stock,
  one at a time from the eldest (la chanson), or with ``replace`` a new hand of ``k`` cards each from the
  same stock, without reshuffle, a new shuffle only when the stock is short (gatine's "sec" redeal).
  It is recorded as a second ``dealt`` event and replays through ``apply_deal``; ``_after_extra_deal(k)``
  then chooses the phase (``Phase.SING`` again, ``Phase.DISCARD``...).
- ``_void_hand(tie_rule)``: every trick tied ("pourrie"): by default nobody scores and the next hand is
  dealt; gatine redeals "sec" within the hand after a void trut d'office.
- ``_gain_petits``, ``_gain_longs``, ``_finish``: the scoring steps, for the subclasses' own endings
  (nobody holds "à tenir": the opponents take a petit).
- ``_phase_decision(seat, optional)``: the decision's name in a subclass's own phase (``Phase.SING``...).

The two subclasses are in ``pipeline.engine.trut_regional``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar, Final

from pipeline.cards import UNKNOWN
from pipeline.engine.actions import ACCEPT, DEALT, FOLD, PASS, Action, EventTuple, RuleError, make_action, make_event
from pipeline.engine.game import DEALING, PLAYING, Game, HandRecord, Phase
from pipeline.engine.rules import TIE, Config, OptionSpec

TRUT: Final = "trut"
TURN_DECISION: Final = "trut_turn"  # the seat to play: play a card, or trut first
OPTION_DECISION: Final = "trut_option"  # any other seat, at any moment: trut, or not
ANSWER_DECISION: Final = "trut_answer"  # see or fold a trut
_PLAY: Final = PLAYING  # a module constant: read at every step of the simulator
_SIDE_DETAILS: Final = {
    sides: tuple(f"{name}_team{s}" for name in ("petits", "longs", "petits_after", "longs_after") for s in range(sides))
    for sides in (2, 3)
}
"""The names of a hand's per-side details (``_hand_details``), for 2 and 3 sides, in the order of their values."""


_PLAY_ORDERS: Final[dict[int, list[tuple[tuple[int, ...], tuple[list[int], ...]]]]] = {}


def play_orders(n: int) -> list[tuple[tuple[int, ...], tuple[list[int], ...]]]:
    """By eldest: the play order from the eldest, and that order without each seat (whom a trut is offered
    to while that seat is to play). The same for every game of ``n`` players, so built once per process;
    the lists are shared and never changed."""
    orders = _PLAY_ORDERS.get(n)
    if orders is None:
        orders = []
        for eldest in range(n):
            order = tuple((eldest + i) % n for i in range(n))
            orders.append((order, tuple([s for s in order if s != seat] for seat in range(n))))
        _PLAY_ORDERS[n] = orders
    return orders


def is_brelan(ranks: Sequence[str]) -> bool:
    """Three cards of one rank (seed 003 "Règle du jeu": "brelan d'as")."""
    return len(ranks) == 3 and ranks[0] == ranks[1] == ranks[2]


def token_text(longs: int, petits: int) -> str:
    """An ``end`` value (FORMAT.md "Play"): ``1p``, ``2p``, ``1l``, ``2l``, ``1l1p``, or ``0``."""
    text = (f"{longs}l" if longs else "") + (f"{petits}p" if petits else "")
    return text or "0"


class TrutGame(Game):
    """A game of Trut: petits and longs, the trut seen or folded, the fortial."""

    PETITS_PER_LONG: ClassVar[int | None] = 3
    PETIT_CAP: ClassVar[int | None] = None
    LONG_VALUE: ClassVar[int] = 3
    FORTIAL: ClassVar[bool] = True
    ANNOUNCEMENTS: ClassVar[dict[str, Callable[[Sequence[str]], bool]]] = {"brelan": is_brelan}

    def __init__(
        self,
        config: Config,
        seed: int | None = None,
        first_dealer: int | None = None,
        scores: tuple[int, ...] | None = None,
        petits: tuple[int, ...] | None = None,
    ) -> None:
        """A new game; ``scores`` (longs) and ``petits`` start it from a given position."""
        options = config.options
        self.dealer_leads = options.get("dealer_leads") == "on"
        sides = config.variant.sides(config.players)
        start = tuple(petits) if petits is not None else (0,) * sides
        most = self._most_petits()
        if len(start) != sides or min(start) < 0 or max(start) > most:
            raise ValueError(f"starting petits {start} must be {sides} numbers between 0 and {most}")
        self.petits = list(start)
        self._orders = play_orders(config.players)
        super().__init__(config, seed, first_dealer, scores)
        self.tie_lead = options.get("tie_lead", self.tie_lead)
        self.words = self._announcement_words()
        per = self.PETITS_PER_LONG
        # au fortial: this many petits and one long short of the target (-1: the fortial is not played)
        self._fortial_petits = per - 1 if self.FORTIAL and per is not None else -1
        self._trut_actions = tuple(make_action(s, TRUT) for s in range(self.n))

    @classmethod
    def _most_petits(cls) -> int:
        """The most petits a side can hold between hands (99: no limit)."""
        caps = [] if cls.PETIT_CAP is None else [cls.PETIT_CAP]
        if cls.PETITS_PER_LONG is not None:
            caps.append(cls.PETITS_PER_LONG - 1)
        return min(caps) if caps else 99

    def _announcement_words(self) -> tuple[str, ...]:
        """The hand types a trut may announce in this game (seed 003: "on joue le brelan")."""
        return ("brelan",) if self.config.options.get("brelan") == "on" else ()

    # ------------------------------------------------------------------------------------ set-up
    def _first_leader(self) -> int:
        """The eldest leads (seed 003); option ``dealer_leads`` (seed 001 "Déroulement"): the dealer."""
        return self.dealer if self.dealer_leads else self.eldest

    def _reset_hand(self) -> None:
        self.order, self.others = self._orders[self.eldest]
        self.trut_open = True  # a trut may still be made
        self.truter = -1
        self.trut_word: str | None = None
        self.answerers: list[int] = []  # seats still to answer the trut, the first answers now
        self.seen: list[int] = []
        self.folded: list[int] = []
        self.out = -1  # 3 players: the seat that folded and left the hand
        self.office = False
        self.special: str | None = None
        self.void = False
        self.callers: list[int] = []
        self.call_kind = "fortial"
        self.call_may_pass = True
        self.extra_cards = 0
        self.extra_replace = False
        sides = self.sides
        self.won_petits = [0, 0, 0] if sides == 3 else [0, 0]
        self.won_longs = [0, 0, 0] if sides == 3 else [0, 0]

    def _after_deal(self) -> None:
        self._special_phase()

    def _special_phase(self) -> None:
        """The fortial (seed 003 "Le cas particulier du fortial", seed 001 "Le Fortial"): when exactly one
        side is au fortial its seats decide first, in play order from the eldest, to trut or pass, before
        the others look at their cards; when several sides are, the hand is played normally."""
        first = -1
        count = 0
        for side in range(self.sides):
            if self._at_fortial(side):
                count += 1
                if first < 0:
                    first = side
        if count == 1:
            self.special = "fortial"
            self._open_call(first, "fortial", may_pass=True)
        else:
            if count:
                self.special = "fortial_both"
            self._begin_play()

    def _at_fortial(self, side: int) -> bool:
        """6 longs and 2 petits: one petit from the game."""
        return self.petits[side] == self._fortial_petits and self.scores[side] == self.target - 1

    def _begin_play(self) -> None:
        self.phase = PLAYING
        self.decider = -1

    def _set_office(self) -> None:
        """A trut d'office: the hand is played for a long without any trut (gatine)."""
        self.office = True
        self.trut_open = False
        self.stake = self.LONG_VALUE
        self.special = self.special or "trut_office"

    def _open_call(self, side: int, kind: str, may_pass: bool) -> None:
        """The seats of ``side`` decide in turn, from the eldest, to trut or (if allowed) pass."""
        self.callers = [s for s in self.order if self.team_of[s] == side]
        self.call_kind = kind
        self.call_may_pass = may_pass
        self.phase = Phase.FORTIAL
        self.decider = self.callers[0]

    def _call_passed(self) -> None:
        """Nobody au fortial truts: the opponents take 1 petit, no play (RULES.md `trut` "fortial"). Decision:
        in 3 players each opponent takes 1 petit, in play order from the eldest."""
        side = self.team_of[self.decider]
        opponents = list(dict.fromkeys([self.team_of[s] for s in self.order if self.team_of[s] != side]))
        for other in opponents:
            self._gain_petits(other, 1)
        self._finish(opponents[0] if len(opponents) == 1 else None, "pass", None)

    # --------------------------------------------------------------------------------- queries
    def actor(self) -> int:
        if self.phase is _PLAY:
            return self.answerers[0] if self.answerers else self.to_play
        return super().actor()

    def optional_actors(self) -> list[int]:
        """While no trut is made every other seat may trut now, asked in play order from the eldest."""
        if self.phase is not _PLAY or not self.trut_open or self.answerers:
            return []
        return self.others[self.to_play]

    def may_raise(self, seat: int) -> bool:
        return self.phase is _PLAY and self.trut_open and not self.answerers

    def raise_actions(self, seat: int) -> list[Action]:
        """The truts among ``seat``'s legal actions: any seat's while tricks are played and no trut is
        pending, the decider's in a call phase (the fortial)."""
        if self.may_raise(seat):
            return self._truts(seat)
        return [action for action in self.legal_for(seat) if action.verb == TRUT]

    def answering(self, seat: int) -> bool:
        return bool(self.answerers) and seat == self.answerers[0]

    def proposed_stake(self) -> int:
        return self.LONG_VALUE if self.answerers else 0

    def decision(self, seat: int, optional: bool = False) -> str:
        """``trut_turn`` (play or trut), ``trut_option`` (trut or not, out of turn), ``trut_answer``, and
        the call phase's kind (``fortial``)."""
        phase = self.phase
        if phase is _PLAY:
            if self.answerers:
                return ANSWER_DECISION
            return OPTION_DECISION if optional else TURN_DECISION
        if phase is Phase.FORTIAL:
            return self.call_kind
        return self._phase_decision(seat, optional)

    def _phase_decision(self, seat: int, optional: bool) -> str:
        """The decision's name in another phase (a subclass's own: singing, holding...), kept off the path
        of the play."""
        return super().decision(seat, optional)

    def public_value(self, name: str) -> Any:
        """The entries a trut's answerer reads, without building the whole state, and
        ``truter_au_fortial``: whether the side that truted is au fortial, so that folding loses the game."""
        if name == "special":
            return self.special
        if name == "announced":
            return self.trut_word
        if name == "truter_au_fortial":
            return self.truter >= 0 and self._at_fortial(self.team_of[self.truter])
        return self.public_state()[name]

    def public_state(self) -> dict[str, Any]:
        return {
            "longs": tuple(self.scores),
            "petits": tuple(self.petits),
            "truter": self.truter,
            "announced": self.trut_word,
            "special": self.special,
            "seen": tuple(self.seen),
            "folded": tuple(self.folded),
        }

    # --------------------------------------------------------------------------------- legal actions
    def _truts(self, seat: int) -> list[Action]:
        actions = [self._trut_actions[seat]]
        for word in self.words:
            if self._holds(seat, word):
                actions.append(make_action(seat, TRUT, word))
        return actions

    def _holds(self, seat: int, word: str) -> bool:
        """Whether the seat's hand is of the announced type (unseen cards of a replay count as fitting)."""
        hand = self.hands[seat]
        if UNKNOWN in hand:
            return len(hand) == 3
        ranks = self.variant.deck.rank_of
        return self.ANNOUNCEMENTS[word]([ranks[c] for c in hand])

    def _legal_play(self, seat: int) -> list[Action]:
        answerers = self.answerers
        if answerers:
            return [make_action(seat, ACCEPT), make_action(seat, FOLD)] if seat == answerers[0] else []
        actions = self._plays(seat) if seat == self.to_play else []
        if self.trut_open:
            actions += self._truts(seat)
        return actions

    def _legal_phase(self, seat: int) -> list[Action]:
        if self.phase is Phase.FORTIAL:
            if seat != self.decider:
                return []
            actions = self._truts(seat)
            return actions + [make_action(seat, PASS)] if self.call_may_pass else actions
        return super()._legal_phase(seat)

    # ----------------------------------------------------------------------------------- actions
    def _apply_phase(self, seat: int, verb: str, arg: Any) -> EventTuple:
        if self.phase is Phase.FORTIAL:
            if verb == TRUT:  # made before play: the event's trick_no is 0
                event = self._trut(seat, arg)
                self._begin_play()
                return event
            stake = self.stake
            event = self._record(make_event(seat, PASS, None, "choice", False, True, 0, stake, stake))
            self.callers.pop(0)
            if self.callers:
                self.decider = self.callers[0]
            else:
                self._call_passed()
            return event
        return super()._apply_phase(seat, verb, arg)

    def _apply_bet(self, seat: int, verb: str, arg: Any) -> EventTuple:
        if verb == TRUT:
            return self._trut(seat, arg)
        return self._answer(seat, verb == ACCEPT)

    def _trut(self, seat: int, word: Any) -> EventTuple:
        """Seed 003 "Règle du jeu": "Tous les joueurs peuvent à n'importe quel moment truter"."""
        self.truter = seat
        self.trut_word = word
        self.trut_open = False
        team = self.team_of[seat]
        self.answerers = [s for s in self.order if self.team_of[s] != team]
        self.after_play = -1
        trick_no = len(self.tricks) + 1 if self.phase is PLAYING else 0
        return self._record(make_event(seat, TRUT, word, "raise", False, True, trick_no, self.stake, self.LONG_VALUE))

    def _answer(self, seat: int, see: bool) -> EventTuple:
        self.answerers.pop(0)
        (self.seen if see else self.folded).append(seat)
        before = self.stake
        if self.sides == 3:
            return self._three_player_answer(seat, see, before)
        if see:  # one "je vais voir" is enough: the others need not answer (seed 003 "Règle du jeu")
            self.answerers.clear()
            self.stake = self.LONG_VALUE
        event = self._answer_event(seat, see, before)
        if not see and not self.answerers:  # everybody folded: the truters take 1 petit
            self._gain_petits(self.team_of[self.truter], 1)
            self._finish(self.team_of[self.truter], "fold", None)
        return event

    def _answer_event(self, seat: int, see: bool, before: int) -> EventTuple:
        verb = ACCEPT if see else FOLD
        return self._record(
            make_event(seat, verb, None, "answer", True, False, len(self.tricks) + 1, before, self.stake)
        )

    def _three_player_answer(self, seat: int, see: bool, before: int) -> EventTuple:
        """Seed 001 "Variante pour 3 joueurs": both opponents answer. Both fold, the truter takes 2 petits;
        one folds, the truter takes 1 petit and plays on against the other for 1 long; both see, the hand
        is worth 2 longs."""
        folds = len(self.folded)
        if not self.answerers and folds < 2:
            self.stake = (2 - folds) * self.LONG_VALUE
        event = self._answer_event(seat, see, before)
        if self.answerers:
            return event
        truter = self.team_of[self.truter]
        if folds == 2:
            self._gain_petits(truter, 2)
            self._finish(truter, "fold", None)
        elif folds == 1:
            self._gain_petits(truter, 1)
            if self.scores[truter] >= self.target:  # the petit completed the game's last long
                self._finish(truter, "fold", None)
            else:
                self._leave_hand(self.folded[0])
        return event

    def _leave_hand(self, seat: int) -> None:
        """Decision: the seat that folded in 3 players leaves the hand. Its card on the table in the trick in
        progress is withdrawn, the tricks it won count as tied from then on, and play goes on between the
        other two (the lead passes to the next seat if it was the folder's)."""
        self.out = seat
        side = self.team_of[seat]
        self.tricks = [TIE if r == side else r for r in self.tricks]
        self.trick = [(s, c) for s, c in self.trick if s != seat]
        if not self._hand_decided():
            self._pass_folder()

    def _pass_folder(self) -> None:
        """Play without the seat that left: a trick is complete with the others' cards, and the seat after
        the folder plays in its place."""
        if len(self.trick) == self.n - 1:
            self._close_trick()
        elif self.to_play == self.out:
            self.to_play = (self.out + 1) % self.n

    def _play(self, seat: int, card: int) -> EventTuple:
        event = super()._play(seat, card)
        if self.out >= 0 and self.trick and self.phase is _PLAY:
            self._pass_folder()
        return event

    # ----------------------------------------------------------------------------------- scoring
    def _apply_scores(self, points: tuple[int, ...]) -> None:
        """Scores (longs) change as petits and longs are gained (``_gain_petits``, ``_gain_longs``)."""

    def _petits_lost(self, side: int, losers: Iterable[int]) -> Iterable[int]:
        """Whose petits go when ``side`` gains a long: ``losers`` (seed 003 "Règle du jeu": "si ... l'équipe
        adverse réussit à obtenir un grand jeton, l'équipe perdra tous ses petits")."""
        return losers

    def _gain_petits(self, side: int, count: int) -> None:
        """Petits won; 3 of them turn into a long (seed 003 "Règle du jeu")."""
        self.won_petits[side] += count
        held = self.petits[side] + count
        if self.PETIT_CAP is not None:
            held = min(held, self.PETIT_CAP)
        per = self.PETITS_PER_LONG
        if per is not None and held >= per:
            longs, held = divmod(held, per)
            self.petits[side] = held
            self._gain_longs(side, longs, [s for s in range(self.sides) if s != side], turned_in=True)
        else:
            self.petits[side] = held

    def _gain_longs(self, side: int, count: int, losers: Iterable[int], turned_in: bool = False) -> None:
        self.scores[side] += count
        if not turned_in:
            self.won_longs[side] += count
        for other in self._petits_lost(side, losers):
            self.petits[other] = 0

    def _hand_won(self, winner: int | None, tie_rule: str | None) -> None:
        """No trut: the winner takes 1 petit. A trut seen (or a trut d'office): the winner takes the stake in
        longs and the losers lose their petits (seed 001 "Calcul des points")."""
        if winner is None:
            self._void_hand(tie_rule)
            return
        if self.stake >= self.LONG_VALUE:
            losers = [s for s in range(self.sides) if s != winner and (self.out < 0 or s != self.team_of[self.out])]
            self._gain_longs(winner, self.stake // self.LONG_VALUE, losers)
        else:
            self._gain_petits(winner, 1)
        self._finish(winner, "tricks", tie_rule)

    def _void_hand(self, tie_rule: str | None) -> None:
        """Every trick tied: the hand is "pourrie", nobody scores, a new hand is dealt (seed 003)."""
        self.void = True
        self._finish(None, "tricks", tie_rule)

    def _finish(self, winner: int | None, ended_by: str, tie_rule: str | None) -> None:
        value, petits, longs = self.LONG_VALUE, self.won_petits, self.won_longs
        points = tuple([petits[s] + value * longs[s] for s in range(self.sides)])
        self._end_hand(winner, points, ended_by, tie_rule)

    def _hand_details(self) -> tuple[tuple[str, Any], ...]:
        won, longs, held, scores = self.won_petits, self.won_longs, self.petits, self.scores
        truter: int | None = self.truter if self.truter >= 0 else None
        names = _SIDE_DETAILS[self.sides]
        if self.sides == 2:  # the pairs one by one: built per hand, a comprehension costs several times more
            return (
                (names[0], won[0]),
                (names[1], won[1]),
                (names[2], longs[0]),
                (names[3], longs[1]),
                (names[4], held[0]),
                (names[5], held[1]),
                (names[6], scores[0]),
                (names[7], scores[1]),
                ("trut_seat", truter),
                ("special", self.special),
                ("void", self.void),
            )
        values = won + longs + held + scores  # in the order of the names
        return (
            *[(names[i], values[i]) for i in range(len(names))],
            ("trut_seat", truter),
            ("special", self.special),
            ("void", self.void),
        )

    def end_values(self, record: HandRecord) -> list[str]:
        """``1p``, ``1l``, ``2l``... per side: the petits and longs won in the hand (FORMAT.md "Play")."""
        details = dict(record.details)
        return [token_text(details[f"longs_team{s}"], details[f"petits_team{s}"]) for s in range(len(record.points))]

    def most_in_one_hand(self) -> int:
        """Longs: a trut seen is worth 1 long, 2 when both opponents see in 3 players; a hand without a
        trut gives petits, which turn into 1 long at most."""
        return 2 if self.sides == 3 else 1

    def result_text(self) -> str:
        """The longs of each side, e.g. ``7-4``."""
        return "-".join(str(s) for s in self.scores)

    # ------------------------------------------------------------------------ deals inside a hand
    def _deal_more(self, count: int, replace: bool = False) -> None:
        """Ask for a chance step inside the hand: ``count`` more cards each from the stock, or with
        ``replace`` a new hand of ``count`` cards each from the same stock (see the module docstring)."""
        self.extra_cards = count
        self.extra_replace = replace
        self.phase = DEALING
        self.decider = -1

    def stock_left(self) -> int:
        return len(self.stock)

    def deal_size(self) -> int:
        return self.extra_cards or self.cards_dealt

    def _after_extra_deal(self, count: int) -> None:
        """Choose the phase after a deal inside the hand (a subclass's own)."""
        self._begin_play()

    def deal(self) -> EventTuple:
        """The first deal (``Game.deal``), or a deal inside the hand from the stock, drawn from the rest of the
        hand's stream."""
        if not self.extra_cards:
            return super().deal()
        n, k = self.n, self.extra_cards
        if self.extra_replace and len(self.stock) < n * k:  # the stock is out: a new shuffle
            self.stock = list(range(len(self.variant.deck)))
        stock = self.stock
        if len(stock) < n * k:
            raise RuleError("stock", f"the stock holds {len(stock)} cards, not {n * k}")
        stream = self.stream
        hands: list[list[int]] = [[] for _ in range(n)]
        for i in range(n * k):
            j = i + stream.below(len(stock) - i)
            stock[i], stock[j] = stock[j], stock[i]
            hands[(self.eldest + i) % n].append(stock[i])
        self.stock = stock[n * k :]
        return self._dealt_more(hands)

    def deal_pool(self) -> list[int]:
        """A deal inside the hand draws from the stock (a new shuffle of the whole deck when a "sec" redeal
        finds it short)."""
        k = self.extra_cards
        if not k or (self.extra_replace and len(self.stock) < self.n * k):
            return super().deal_pool()
        return sorted(self.stock)

    def apply_deal(self, hands: list[list[int]]) -> EventTuple:
        if not self.extra_cards:
            return super().apply_deal(hands)
        if self.phase is not DEALING:
            raise RuleError("not-dealing", "cards are dealt only at the start of a hand")
        k = self.extra_cards
        if len(hands) != self.n or any(len(h) != k for h in hands):
            raise RuleError("deal-size", f"this deal gives {k} cards to each of the {self.n} seats")
        if self.extra_replace and len(self.stock) < self.n * k:
            self.stock = list(range(len(self.variant.deck)))
        left = set(self.stock)
        for cards in hands:
            for card in cards:
                if card == UNKNOWN:
                    continue
                if card not in left:
                    raise RuleError("card-twice", f"{self.variant.deck.text(card)} is not in the stock")
                left.discard(card)
        self.stock = [c for c in self.stock if c in left]
        return self._dealt_more([list(h) for h in hands])

    def _dealt_more(self, hands: list[list[int]]) -> EventTuple:
        if self.extra_replace:
            self.hands = hands
            self.tricks = []
            self.trick = []
            self.to_play = self._first_leader()
        else:
            for seat, cards in enumerate(hands):
                self.hands[seat].extend(cards)
        if any(UNKNOWN in h for h in hands):
            self.known |= {c for h in hands for c in h if c != UNKNOWN}
        event = self._record(
            make_event(-1, DEALT, tuple(tuple(h) for h in hands), "deal", False, False, 0, self.stake, self.stake)
        )
        count = self.extra_cards
        self.extra_cards = 0
        self._after_extra_deal(count)
        return event

    # ------------------------------------------------------------------------------- explanations
    def _explain(self, action: Action) -> RuleError | None:
        seat, verb, arg = action
        phase = self.phase
        if phase is Phase.FORTIAL:
            if seat != self.decider:
                return RuleError(
                    "fortial", f"seat {self.decider} of the side au fortial decides first; the others may not look yet"
                )
            if verb == PASS and not self.call_may_pass:
                return RuleError(self.call_kind, "this side must trut")
            if verb not in (TRUT, PASS):
                return RuleError("fortial", f"'{verb}': the side au fortial truts or passes")
            return self._explain_trut(seat, arg)
        if phase is not PLAYING:
            return None
        if seat == self.out:
            return RuleError("folded", f"seat {seat} folded and is out of this hand")
        if verb == TRUT:
            return self._explain_trut(seat, arg)
        if verb in (ACCEPT, FOLD):
            if not self.answerers:
                return RuleError("nothing-to-answer", f"'{verb}' but no trut is waiting for an answer")
            return RuleError(
                "answer-order",
                f"seat {self.answerers[0]} answers now: the truter's opponents answer one by one from the eldest",
            )
        if self.answerers:
            return RuleError("answer-first", f"a trut is waiting: seat {self.answerers[0]} must answer first")
        if verb == PASS:
            return RuleError("pass", "'pass' is the fortial side's choice not to trut, before play")
        return None

    def _explain_trut(self, seat: int, word: Any) -> RuleError | None:
        if self.truter >= 0:
            return RuleError("one-trut", f"seat {self.truter} has truted: one trut per hand, nothing over it")
        if self.office:
            return RuleError("trut-office", "this hand is a trut d'office: nobody truts")
        if not self.trut_open:
            return RuleError("no-trut", "no trut is possible now")
        if word is not None:
            if word not in self.words:
                enabled = ", ".join(self.words) or "none (option brelan=off)"
                return RuleError("announcement", f"'trut {word}' is not played; announcements: {enabled}")
            return RuleError("announcement", f"seat {seat} does not hold a {word}")
        return None


# Options and rank order the Trut variants share (data here, so that variant modules need not import each
# other): seed 003's rank order, seed 001's dealer lead, the two tie-lead readings, brelan.
TRUT_RANK_ORDER: Final = ("7", "8", "A", "K", "Q", "J", "10", "9")
TWO_TEAMS: Final = OptionSpec("players", ("4", "2"), "4", "4 in two teams of two, or 2")
DEALER_LEADS: Final = OptionSpec("dealer_leads", ("off", "on"), "off", "the dealer leads the first trick (seed 001)")
TIE_LEAD: Final = OptionSpec(
    "tie_lead",
    ("maker", "first"),
    "maker",
    "after a tied trick the player who made the tie leads (seed 003), or who played the first equal card",
)
BRELAN: Final = OptionSpec("brelan", ("off", "on"), "off", "three of a rank may be announced: 'trut brelan'")
