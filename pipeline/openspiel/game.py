"""Every Truc variant as an OpenSpiel game: the engine wrapped, no rule re-implemented (docs/equilibrium.md).

A ``TrucState`` holds an engine ``Game`` and asks it everything: who acts, what is legal, what a move does,
what the hand scores. What the adapter adds is the turn structure OpenSpiel needs:

- **turns**: at each moment the seats the engine lets act (``optional_actors``) are asked first, in the
  engine's order, each choosing a move or ``skip``; once all have skipped, the seat that must act
  (``actor``) moves. Any move starts a new moment (every seat may be asked again).
- **chance**: every deal (the first, a redeal, the cards of la chanson, a "sec" redeal, a one-card deal) is
  dealt card by card, in the engine's order (card ``i`` to seat ``eldest + i``), each card drawn uniformly from
  what the engine deals from (``Game.deal_pool``); the complete deal goes to the engine by ``apply_deal``.
  ``deal=hands`` deals each seat's cards as one chance outcome (a set of cards, uniformly), for exact solving.
- **discards** are chosen card by card (``encoding``).
- **scope**: ``hand`` plays one hand from the given scores (``scores``, ``petits`` in the trut family,
  ``dealer``) and returns its points;
  ``game`` plays a whole game from the first dealer ``dealer`` and returns +1 to the winning side (a game
  still going after ``max_hands`` hands is a draw, 0).
- **information**: a seat's information state is the record of the game as it saw it: the cards dealt to it,
  every move (a covered card or a discard of another seat as ``?``), and each card it came to see otherwise
  (a partner's hand at 11 points: ``Game.seen_by``), in order. Its observation is what its ``SeatView`` shows
  now. ``observer`` writes both as strings and tensors.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import pyspiel

from pipeline.engine.actions import DISCARD, PLAY, Action
from pipeline.engine.game import Game, Phase, new_game
from pipeline.engine.rules import Config, OptionError, parse_options
from pipeline.engine.trut import TrutGame
from pipeline.openspiel.encoding import PRIVATE_VERBS, SKIP, ActionTable

PREFIX = "truc_"


def game_name(variant: str) -> str:
    """The OpenSpiel name of a variant: ``truc_trut_gatine`` for ``trut-gatine``."""
    return PREFIX + variant.replace("-", "_")


SCOPES = ("hand", "game")
DEALS = ("cards", "hands")

HIDDEN = -1
"""A card the seat did not see, in a record as the seat sees it."""

PUBLIC = -1
"""The owner of a record entry every seat sees."""

DEALT, MOVE, SEEN, NEW_HAND, PRIVATE_MOVE = 0, 1, 2, 3, 4
"""The kinds of a record entry (``TrucState.seen_record``)."""


class Entries(list[Any]):
    """A list of immutable items (ints, tuples of ints): OpenSpiel's deep copy of a state copies it shallowly,
    which is all a copy needs and many times faster than copying every item."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Entries:
        return Entries(self)


class SeatSets(list[set[int]]):
    """A set of cards per seat, copied set by set."""

    def __deepcopy__(self, memo: dict[int, Any]) -> SeatSets:
        return SeatSets(set(cards) for cards in self)


class TrucGame(pyspiel.Game):
    """One Truc variant under one configuration, as an OpenSpiel game."""

    def __init__(self, game_type: Any, variant: Any, params: dict[str, Any]) -> None:
        options = parse_options(str(params.get("options", "")).replace(":", "="))  # k:v in a game's string
        if "players" in options:
            raise OptionError("give the player count as the game parameter players, not in options")
        options["players"] = str(params["players"])
        self.config: Config = variant.configure(options)
        self.scope = str(params["scope"])
        self.deal_mode = str(params.get("deal", "cards"))
        if self.scope not in SCOPES:
            raise ValueError(f"scope={self.scope!r}: choose one of {', '.join(SCOPES)}")
        if self.deal_mode not in DEALS:
            raise ValueError(f"deal={self.deal_mode!r}: choose one of {', '.join(DEALS)}")
        players = self.config.players
        dealer = int(params.get("dealer", -1))
        self.dealer = players - 1 if dealer < 0 else dealer  # by default seat 0 is the eldest
        scores_text = str(params.get("scores", ""))
        self.scores = _pair(scores_text, "scores")
        petits_text = str(params.get("petits", ""))
        self.petits = _pair(petits_text, "petits")
        if self.petits is not None and not issubclass(self.config.variant.engine, TrutGame):
            raise ValueError(f"petits={petits_text}: only the trut family holds petits")
        self.max_hands = int(params.get("max_hands", 100))
        probe = self.new_engine()
        self.sides = probe.sides
        self.table = ActionTable(probe)
        self.hand_length = hand_length_bound(probe)
        self.hand_size = max(probe.deck_size // players, 3)
        chance = probe.deck_size
        if self.deal_mode == "hands":
            chance = max(chance, math.comb(probe.deck_size, self.hand_size))
        length = self.hand_length * (1 if self.scope == "hand" else self.max_hands)
        bound = float(points_bound(probe)) if self.scope == "hand" else 1.0
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.table),
            max_chance_outcomes=chance,
            num_players=players,
            min_utility=-bound * (self.sides - 1) if self.sides > 2 else -bound,
            max_utility=bound * (self.sides - 1) if self.sides > 2 else bound,
            utility_sum=0.0,
            max_game_length=length,
        )
        given = str(params.get("options", ""))
        # the game's string names the options k:v, as OpenSpiel reads them back (it splits parameters at '=')
        super().__init__(game_type, info, {**params, "options": given.replace("=", ":")} if given else params)

    def new_engine(self) -> Game:
        """The engine game a state starts from (the deal comes from the chance nodes, not from a seed)."""
        if self.petits is not None:
            return new_game(self.config, 0, self.dealer, self.scores, self.petits)
        return new_game(self.config, 0, self.dealer, self.scores)

    def new_initial_state(self) -> TrucState:
        return TrucState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        from pipeline.openspiel.observer import TrucObserver

        if params:
            raise ValueError(f"the Truc observer takes no parameters, not {params}")
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return TrucObserver(self, perfect_recall)


def _pair(text: str, name: str) -> tuple[int, ...] | None:
    """A number per side written ``6:6`` (a game's string reads ``6-6`` as a broken number), or None."""
    if not text:
        return None
    try:
        return tuple(int(part) for part in text.split(":"))
    except ValueError:
        raise ValueError(f"{name}={text!r}: give a number per side, separated by ':' (6:6)") from None


def hand_length_bound(game: Game) -> int:
    """An upper bound on the entries of one hand's record (chance outcomes, moves, cards seen): every card of
    the deck dealt and seen, and at each moment of the hand every seat asked (a moment per card played, per
    bet and per phase decision, generously counted: twice the deck and four per seat)."""
    n, deck = game.n, game.deck_size
    moments = 2 * deck + 4 * n
    return 2 * deck + moments * n


def points_bound(game: Game) -> int:
    """A bound on the points one side scores in one hand, in ``HandRecord.points`` units: the game's target
    times three (a long counts three petits; a French reste or a Valencian joc fora plays for the game)."""
    return 3 * max(game.target, 12) * (24 if game.variant.name == "valencian" else 1)


class TrucState(pyspiel.State):
    """A moment of a Truc game or hand, as OpenSpiel sees it (the module docstring)."""

    def __init__(self, game: TrucGame) -> None:
        super().__init__(game)
        self.engine: Game = game.new_engine()
        self.pending = Entries()  # the cards of the deal being dealt, in deal order
        self.skipped = Entries()  # the optional actors that skipped at this moment
        self.discarding = Entries()  # the cards of a discard being chosen
        self.record = Entries()  # (kind, seat, value, owner): see ``seen_record``
        self.known = SeatSets(set() for _ in range(game.config.players))  # the cards each seat has seen
        self.hands_played = 0
        self.done = False
        self.final: list[float] = [0.0] * game.config.players

    # ----------------------------------------------------------------------------------- turn structure
    def _spiel(self) -> TrucGame:
        spiel: Any = self.get_game()
        return spiel

    def current_player(self) -> int:
        if self.done:
            return int(pyspiel.PlayerId.TERMINAL)
        engine = self.engine
        if engine.phase is Phase.DEAL:
            return int(pyspiel.PlayerId.CHANCE)
        mover = self._mover()
        if mover < 0:
            raise RuntimeError(f"no seat acts in phase {engine.phase.name.lower()}")
        return mover

    def _mover(self) -> int:
        engine = self.engine
        actor = engine.actor()
        for seat in engine.optional_actors():
            if seat != actor and seat not in self.skipped and engine.legal_for(seat):
                return seat
        return actor

    def _optional(self, seat: int) -> bool:
        return seat != self.engine.actor()

    def _legal_actions(self, player: int) -> list[int]:
        if self.done or player != self.current_player():
            return []
        table = self._spiel().table
        legal = self.engine.legal_for(player)
        if legal and legal[0].verb == DISCARD:
            return [table.id_of(DISCARD, card) for card in self._discard_choices(legal)]
        ids = sorted({table.id_of(a.verb, a.arg) for a in legal})
        return [SKIP, *ids] if self._optional(player) else ids

    def _discard_choices(self, legal: list[Action]) -> list[int]:
        """The cards that may be discarded next: the cards are chosen in increasing order, so the next is the
        lowest of the cards still to choose of a legal discard that holds those chosen (and only higher ones)."""
        chosen = set(self.discarding)
        last = max(self.discarding, default=-1)
        cards: set[int] = set()
        for cards_text in {str(a.arg) for a in legal}:
            discard = self._discard_cards(cards_text)
            rest = discard - chosen
            if chosen <= discard and rest and min(rest) > last:
                cards.add(min(rest))
        return sorted(cards)

    def _discard_cards(self, text: str) -> set[int]:
        deck = self.engine.variant.deck
        return {deck.parse(card) for card in text.split()}

    def chance_outcomes(self) -> list[tuple[int, float]]:
        pool = [c for c in self.engine.deal_pool() if c not in self.pending]
        if self._spiel().deal_mode == "hands":
            k = self.engine.deal_size()
            count = math.comb(len(pool), k)
            return [(i, 1.0 / count) for i in range(count)]
        return [(card, 1.0 / len(pool)) for card in pool]

    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            self._deal(action)
        else:
            self._move(self.current_player(), action)

    def _deal(self, outcome: int) -> None:
        engine = self.engine
        n, k = engine.n, engine.deal_size()
        if self._spiel().deal_mode == "hands":
            pool = [c for c in engine.deal_pool() if c not in self.pending]
            seat_cards = list(next(itertools.islice(itertools.combinations(pool, k), outcome, None)))
            seat = (engine.eldest + len(self.pending) // k) % n
            for card in seat_cards:
                self.record.append((DEALT, seat, card, seat))
            self.pending.extend(seat_cards)
            if len(self.pending) < n * k:
                return
            by_seat = [self.pending[i * k : (i + 1) * k] for i in range(n)]
            hands = [by_seat[(seat - engine.eldest) % n] for seat in range(n)]
        else:
            seat = (engine.eldest + len(self.pending)) % n
            self.record.append((DEALT, seat, outcome, seat))
            self.pending.append(outcome)
            if len(self.pending) < n * k:
                return
            hands = [[self.pending[i] for i in range(n * k) if (engine.eldest + i) % n == seat] for seat in range(n)]
        self.pending = Entries()
        engine.apply_deal(hands)
        for seat, cards in enumerate(hands):
            self.known[seat].update(cards)
        self._after_engine_step()

    def _move(self, seat: int, action: int) -> None:
        if action == SKIP:
            self.skipped.append(seat)
            self.record.append((MOVE, seat, SKIP, PUBLIC))
            return
        engine = self.engine
        table = self._spiel().table
        verb, arg = table.entries[action]
        legal = engine.legal_for(seat)
        if verb == DISCARD:
            self.discarding.append(arg)
            self.record.append((MOVE, seat, action, seat))
            if not any(self._discard_cards(str(a.arg)) == set(self.discarding) for a in legal):
                return
            chosen = next(a for a in legal if self._discard_cards(str(a.arg)) == set(self.discarding))
            self.discarding = Entries()
            engine.apply_trusted(chosen)
        else:
            move = next((a for a in legal if a.verb == verb and a.arg == arg), None)
            if move is None:
                raise ValueError(f"{table.text(action)} is not legal for seat {seat}")
            self.record.append((MOVE, seat, action, seat if verb in PRIVATE_VERBS else PUBLIC))
            engine.apply_trusted(move)
            if verb == PLAY:  # a card laid face up: every seat has seen it
                for known in self.known:
                    known.add(arg)
        self._after_engine_step()

    def _after_engine_step(self) -> None:
        """A move or a deal reached the engine: a new moment; note what each seat has come to see; end the hand
        (and the game) when it is over."""
        self.skipped = Entries()
        engine = self.engine
        for seat in range(engine.n):
            seen = engine.seen_by(seat)
            for card in sorted(seen - self.known[seat]):
                self.record.append((SEEN, seat, card, seat))
            self.known[seat] |= seen
        if not engine.hand_over:
            return
        spiel = self._spiel()
        record = engine.last_hand
        assert record is not None
        self.hands_played += 1
        if spiel.scope == "hand":
            self._finish([float(p) for p in record.points])
        elif engine.over:
            winner = engine.winner_team
            self._finish([1.0 if side == winner else 0.0 for side in range(engine.sides)])
        elif self.hands_played >= spiel.max_hands:
            self._finish([0.0] * engine.sides)
        else:
            engine.next_hand()
            self.known = SeatSets(set() for _ in range(engine.n))
            self.record.append((NEW_HAND, PUBLIC, engine.hand_no, PUBLIC))

    def _finish(self, points: list[float]) -> None:
        """Zero-sum returns: each side's points less the mean of the other sides' (for two sides, the
        difference)."""
        engine = self.engine
        total = sum(points)
        sides = len(points)
        value = [p - (total - p) / (sides - 1) for p in points]
        self.final = [value[engine.team_of[seat]] for seat in range(engine.n)]
        self.done = True

    # ----------------------------------------------------------------------------------------- queries
    def is_terminal(self) -> bool:
        return self.done

    def returns(self) -> list[float]:
        return list(self.final) if self.done else [0.0] * self.engine.n

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._spiel().deal_mode == "hands":
                return f"deal set {action}"
            return f"deal {self.engine.variant.deck.text(action)}"
        return self._spiel().table.text(action)

    def seen_record(self, seat: int) -> list[tuple[int, int, int]]:
        """The record of the game as ``seat`` saw it, as (kind, seat, value): ``DEALT`` a card dealt to a seat
        (``HIDDEN`` unless to ``seat``); ``MOVE`` a move (its action); ``PRIVATE_MOVE`` another seat's covered
        card or discard (the action of its verb with the deck's first card: the card is not shown); ``SEEN``
        a card ``seat`` came to see otherwise; ``NEW_HAND`` the next hand's number."""
        out: list[tuple[int, int, int]] = []
        table = self._spiel().table
        for kind, who, value, owner in self.record:
            if kind == DEALT:
                out.append((DEALT, who, value if owner == seat else HIDDEN))
            elif kind == MOVE:
                if owner in (PUBLIC, seat):
                    out.append((MOVE, who, value))
                else:
                    out.append((PRIVATE_MOVE, who, table.id_of(table.entries[value][0], 0)))
            elif kind == SEEN:
                if owner == seat:
                    out.append((SEEN, seat, value))
            else:
                out.append((NEW_HAND, PUBLIC, value))
        return out

    def __str__(self) -> str:
        engine = self.engine
        deck = engine.variant.deck
        hands = " | ".join(deck.texts(h) for h in engine.hands)
        return f"hand {engine.hand_no} scores {engine.scores} phase {engine.phase.name.lower()} hands {hands}"
