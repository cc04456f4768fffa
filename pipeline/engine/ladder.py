"""Raise-ladder Truc (Catalan, seed 000; the base Valencian builds on it): fixed rungs (truc, retruc...),
raises on one's turn before or just after playing, the next opponent answering for the team, implicit
acceptance by playing, accept-and-raise; the cut and the one-card deal; 11 points.
"""

from __future__ import annotations

from typing import Any, Final

from pipeline.engine.actions import (
    ACCEPT,
    CUT,
    DEAL,
    FOLD,
    HOLD,
    NOCUT,
    PASS,
    Action,
    EventTuple,
    RuleError,
    make_action,
    make_event,
)
from pipeline.engine.game import DEALING, PLAYING, Game, Phase
from pipeline.engine.rules import Config

HOLD_STAKE: Final = 3
"""The stake of a hand held at 11 points (seed 000 "Le pari"): the team at 11 plays it for 3 or passes."""
ONE_CARD_DETAILS: Final = (("special", "one_card"),)
ELEVEN_DETAILS: Final = (("special", "eleven"),)
"""A hand's ``details`` (``HandRecord.details``) when one card each was dealt, and when it was played at 11."""


class LadderGame(Game):
    """A game whose stake climbs a fixed ladder, as in Catalan Truc."""

    def __init__(
        self,
        config: Config,
        seed: int | None = None,
        first_dealer: int | None = None,
        scores: tuple[int, ...] | None = None,
    ) -> None:
        self.ladder = config.variant.ladder
        super().__init__(config, seed, first_dealer, scores)

    # ------------------------------------------------------------------------------------ set-up
    def _reset_hand(self) -> None:
        self.level = 0  # accepted rung: 0 is the base stake, k is ladder[k-1]
        self.pending = 0  # proposed rung awaiting an answer, 0 when none
        self.raiser = -1
        self.answerer = -1
        self.last_raise_team = -1
        rules = self.variant
        at_eleven = [t for t in (0, 1) if self.scores[t] == self.target - 1] if rules.eleven_points else []
        self.raises_allowed = not at_eleven
        self.hold_team = at_eleven[0] if len(at_eleven) == 1 else -1

    def _first_phase(self) -> Phase:
        if self.variant.one_card_deal and max(self.scores) < self.target - 1:
            self.decider = (self.dealer - 1) % self.n  # the player before the dealer cuts
            return Phase.CUT
        return DEALING

    def _after_deal(self) -> None:
        if self.hold_team >= 0:  # 11 points: the team decides through its first seat from the eldest
            self.phase = Phase.HOLD
            eldest = self.eldest
            self.decider = eldest if self.team_of[eldest] == self.hold_team else (eldest + 1) % self.n
        else:
            self._start_signals_or_play()

    # --------------------------------------------------------------------------- phases before play
    def _legal_phase(self, seat: int) -> list[Action]:
        if seat != self.decider:
            return []
        phase = self.phase
        if phase is Phase.CUT:
            return [make_action(seat, CUT), make_action(seat, NOCUT)]
        if phase is Phase.DEAL_CHOICE:
            return [make_action(seat, DEAL, 1), make_action(seat, DEAL, 3)]
        if phase is Phase.HOLD:
            return [make_action(seat, HOLD), make_action(seat, PASS)]
        return super()._legal_phase(seat)

    def _apply_phase(self, seat: int, verb: str, arg: Any) -> EventTuple:
        phase, stake = self.phase, self.stake
        if phase is Phase.CUT:
            self.phase = DEALING if verb == CUT else Phase.DEAL_CHOICE
            if verb == NOCUT:
                self.decider = self.dealer
            return self._record(make_event(seat, verb, None, "deal", False, False, 0, stake, stake))
        if phase is Phase.DEAL_CHOICE:
            self.cards_dealt = int(arg)
            self.phase = DEALING
            return self._record(make_event(seat, DEAL, arg, "deal", False, False, 0, stake, stake))
        if phase is Phase.HOLD:
            if verb == HOLD:
                self.stake = HOLD_STAKE
                event = self._record(make_event(seat, HOLD, None, "choice", False, False, 0, stake, HOLD_STAKE))
                self._start_signals_or_play()
                return event
            event = self._record(make_event(seat, PASS, None, "choice", False, False, 0, stake, stake))
            points = (1, 0) if self.hold_team == 1 else (0, 1)
            self._end_hand(1 - self.hold_team, points, "pass", None)
            return event
        return super()._apply_phase(seat, verb, arg)

    def _hand_details(self) -> tuple[tuple[str, object], ...]:
        if self.cards_dealt == 1:
            return ONE_CARD_DETAILS
        if self.hold_team >= 0:
            return ELEVEN_DETAILS
        return ()

    def seen_by(self, seat: int) -> set[int]:
        """At 11 points in 4 players the team looks at its cards together (seed 000 "Le pari"): the partner's
        cards are seen too."""
        seen = super().seen_by(seat)
        if self.hold_team >= 0 and self.n == 4 and self.team_of[seat] == self.hold_team and self.dealt:
            seen.update(self.dealt[(seat + 2) % self.n])
        return seen

    # ------------------------------------------------------------------------------------ betting
    def actor(self) -> int:
        if self.phase is PLAYING:
            return self.answerer if self.pending else self.to_play
        return super().actor()

    def optional_actors(self) -> list[int]:
        """The seat that has just played may still raise (seed 000 "Le pari")."""
        seat = self.after_play
        if seat < 0 or self.pending or seat == self.to_play or not self.may_raise(seat):
            return []
        return [seat]

    def answering(self, seat: int) -> bool:
        return bool(self.pending) and seat == self.answerer

    def proposed_stake(self) -> int:
        return self.ladder[self.pending - 1].stake if self.pending else 0

    def next_raise(self) -> int:
        """The rung the next raise would propose (1-based into the ladder), 0 when the ladder is done."""
        rung = (self.pending or self.level) + 1
        return rung if rung <= len(self.ladder) else 0

    def may_raise(self, seat: int) -> bool:
        pending = self.pending
        if self.phase is not PLAYING or not self.raises_allowed or (pending or self.level) >= len(self.ladder):
            return False
        if pending:
            return seat == self.answerer  # accept-and-raise
        if self.team_of[seat] == self.last_raise_team:
            return False  # only the team that accepted may raise next
        return seat == self.to_play or seat == self.after_play

    def raise_action(self, seat: int) -> Action | None:
        """The raise ``seat`` may make now (the next rung), or None."""
        if not self.may_raise(seat):
            return None
        return make_action(seat, self.ladder[self.next_raise() - 1].verb)

    def _legal_play(self, seat: int) -> list[Action]:
        actions: list[Action] = []
        if self.pending:
            if seat != self.answerer:
                return actions
            actions.append(make_action(seat, ACCEPT))
            actions.append(make_action(seat, FOLD))
            if self.may_raise(seat):
                actions.append(make_action(seat, self.ladder[self.next_raise() - 1].verb))
            if seat == self.to_play:
                actions.extend(self._plays(seat))
            return actions
        if seat == self.to_play:
            actions.extend(self._plays(seat))
        if self.may_raise(seat):
            actions.append(make_action(seat, self.ladder[self.next_raise() - 1].verb))
        return actions

    def _apply_bet(self, seat: int, verb: str, arg: Any) -> EventTuple:
        if verb == ACCEPT:
            return self._accept(seat)
        if verb == FOLD:
            return self._fold(seat)
        return self._raise(seat, verb)

    def _before_card(self, seat: int) -> bool:
        if self.pending:  # playing a card without answering accepts (seed 000 "Le pari")
            self.level = self.pending
            self.stake = self.ladder[self.level - 1].stake
            self.pending = 0
            return True
        return False

    def _raise(self, seat: int, verb: str) -> EventTuple:
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
            make_event(seat, verb, None, "raise", answers, True, len(self.tricks) + 1, stake_before, proposed)
        )

    def _accept(self, seat: int) -> EventTuple:
        could = self.may_raise(seat)
        before = self.stake
        self.level = self.pending
        self.stake = self.ladder[self.level - 1].stake
        self.pending = 0
        self.after_play = -1
        trick_no = len(self.tricks) + 1
        return self._record(make_event(seat, ACCEPT, None, "answer", True, could, trick_no, before, self.stake))

    def _fold(self, seat: int) -> EventTuple:
        event = self._refused(seat, self.team_of[self.raiser])
        self.pending = 0
        return event

    # ------------------------------------------------------------------------------- explanations
    def _explain(self, action: Action) -> RuleError | None:
        seat, verb, _ = action
        phase = self.phase
        at_eleven = max(self.scores) >= self.target - 1  # _first_phase skips the cut then
        if phase is DEALING and verb in (CUT, NOCUT, DEAL) and self.variant.one_card_deal and at_eleven:
            return RuleError(
                "no-cut-at-11",
                f"no cut and no one-card deal when a team is at {self.target - 1} points: the dealer deals three each",
            )
        if phase in (Phase.CUT, Phase.DEAL_CHOICE, Phase.HOLD):
            expected = {
                Phase.CUT: "cut or nocut",
                Phase.DEAL_CHOICE: "the dealer's choice of one card or three",
                Phase.HOLD: "hold or pass from the team at 11",
            }[phase]
            if seat != self.decider:
                return RuleError("turn", f"seat {self.decider} must act now ({expected}), not seat {seat}")
            return RuleError("phase", f"'{verb}' is not allowed now: expected {expected}")
        if phase is not PLAYING:
            return None
        if verb == "play" and self.pending and seat != self.answerer:
            return RuleError("answer-first", f"a raise is pending: seat {self.answerer} must answer first")
        if verb in (ACCEPT, FOLD):
            if not self.pending:
                return RuleError("nothing-to-answer", f"'{verb}' but no raise is pending")
            return RuleError("answerer", f"seat {self.answerer}, the next opponent of the raiser, answers for the team")
        if verb in self.variant.raise_verbs:
            if not self.raises_allowed:
                return RuleError("no-raise-at-11", "no raise is allowed in a hand played at 11 points")
            rung = self.next_raise()
            if not rung and self.pending:
                return RuleError(
                    "ladder-top",
                    f"'{self.ladder[self.pending - 1].verb}' raised the stake to its highest "
                    f"({self.ladder[self.pending - 1].stake}): seat {self.answerer} accepts or folds",
                )
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
        return None
