"""What a seat knows of a ``TrucState``, as OpenSpiel's observer writes it (strings and tensors).

- **Information state** (``perfect_recall``): the seat, and the record of the game as it saw it
  (``TrucState.seen_record``: the cards dealt to it, every move, another seat's covered card or discard
  without its card, the cards it came to see otherwise). The tensor writes the current hand's record, one
  slot per entry (kind, seat, card, action, one-hot each) up to the game's bound on a hand's record, and the
  scores: for ``scope=hand`` that is the whole record; for ``scope=game`` the string holds every hand and the
  tensor the current one with the scores.
- **Observation**: what the seat's ``SeatView`` shows now: its cards, the cards laid face up in the hand and
  in the current trick, the tricks' results, the stake, a pending raise, the scores and the family's public
  state.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pipeline.engine.view import SeatView
from pipeline.openspiel.game import DEALT, HIDDEN, MOVE, NEW_HAND, PRIVATE_MOVE, SEEN, TrucGame, TrucState

KINDS = 5
MAX_TRICKS = 6


class TrucObserver:
    """OpenSpiel's ``PyObserver``: ``tensor`` and ``dict`` filled by ``set_from``, text by ``string_from``."""

    def __init__(self, game: TrucGame, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        players = game.config.players
        deck = len(game.config.variant.deck)
        self.deck = deck
        actions = len(game.table)
        self.slot = KINDS + players + (deck + 1) + actions
        pieces: list[tuple[str, tuple[int, ...]]] = [("player", (players,)), ("scores", (game.sides,))]
        if perfect_recall:
            pieces.append(("record", (game.hand_length, self.slot)))
        else:
            pieces += [
                ("held", (deck,)),
                ("laid", (deck,)),
                ("trick", (deck + 1,)),  # the last: a covered card (Valencian), shown face down
                ("tricks", (MAX_TRICKS, 3)),
                ("stake", (2,)),
            ]
        size = sum(int(np.prod(shape)) for _, shape in pieces)
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, Any] = {}
        index = 0
        for name, shape in pieces:
            count = int(np.prod(shape))
            self.dict[name] = self.tensor[index : index + count].reshape(shape)
            index += count

    def set_from(self, state: TrucState, player: int) -> None:
        self.tensor.fill(0)
        engine = state.engine
        self.dict["player"][player] = 1
        self.dict["scores"][:] = engine.scores
        if self.perfect_recall:
            self._set_record(state, player)
            return
        view = SeatView(engine, player, player != engine.actor(), "")
        for card in view.cards:
            self.dict["held"][card] = 1
        for card in view.played():
            self.dict["laid"][card] = 1
        for _, card in view.trick:
            self.dict["trick"][min(card, self.deck)] = 1
        for i, result in enumerate(view.tricks[:MAX_TRICKS]):
            self.dict["tricks"][i, result + 1] = 1  # -1 lost, 0 tied, 1 won
        self.dict["stake"][:] = (view.stake, view.proposed_stake)

    def _set_record(self, state: TrucState, player: int) -> None:
        record = state.seen_record(player)
        starts = [i for i, entry in enumerate(record) if entry[0] == NEW_HAND]
        current = record[starts[-1] + 1 :] if starts else record
        if len(current) > self.game.hand_length:
            raise RuntimeError(f"a hand's record of {len(current)} entries exceeds the bound {self.game.hand_length}")
        slots = self.dict["record"]
        players = self.game.config.players
        deck = self.deck
        for i, (kind, seat, value) in enumerate(current):
            slots[i, kind] = 1
            if seat >= 0:
                slots[i, KINDS + seat] = 1
            if kind in (DEALT, SEEN):
                slots[i, KINDS + players + (deck if value == HIDDEN else value)] = 1
            elif kind in (MOVE, PRIVATE_MOVE):
                slots[i, KINDS + players + deck + 1 + value] = 1

    def string_from(self, state: TrucState, player: int) -> str:
        engine = state.engine
        deck = engine.variant.deck
        if self.perfect_recall:
            words = [f"p{player}"]
            table = self.game.table
            for kind, seat, value in state.seen_record(player):
                if kind == DEALT:
                    words.append(f"{seat}<{'?' if value == HIDDEN else deck.text(value)}")
                elif kind == MOVE:
                    words.append(f"{seat}:{table.text(value)}")
                elif kind == PRIVATE_MOVE:
                    words.append(f"{seat}:{table.entries[value][0]} ?")
                elif kind == SEEN:
                    words.append(f"sees {deck.text(value)}")
                else:
                    words.append(f"/hand {value}")
            return " ".join(words)
        view = SeatView(engine, player, player != engine.actor(), "")
        tricks = "".join("W" if r == 1 else "L" if r == -1 else "T" for r in view.tricks)
        trick = " ".join(f"{s}:{deck.text(c) if c < len(deck) else 'covered'}" for s, c in view.trick)
        public = " ".join(f"{k}={v}" for k, v in sorted(view.public.items()))
        partner = view.partner_cards
        return (
            f"p{player} cards {deck.texts(view.cards)} laid {deck.texts(view.played())} trick [{trick}] "
            f"tricks {tricks or '-'} stake {view.stake} proposed {view.proposed_stake} "
            f"scores {'-'.join(str(s) for s in engine.scores)} {public}"
            + (f" partner {deck.texts(partner)}" if partner else "")
        ).strip()
