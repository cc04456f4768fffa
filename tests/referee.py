"""An independent referee for every variant: the rules of tricks and hands (and of the ladder variants'
stakes and envit) from RULES.md written again, as plainly as possible, from a hand's recorded moves and
cards alone. It uses no engine code (the rank orders are RULES.md's, read from the card texts), so the
property tests that compare every hand the engine scored with it can catch a wrong rule that the engine
agrees with itself about: a trick or a hand given to the wrong side, a card laid out of turn, a stake or
a fold scored wrong, an envit misjudged.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pipeline.engine.actions import Event
from pipeline.engine.game import HandRecord

TIE = -1

# --- rank orders, high to low (RULES.md) ------------------------------------------------------------------

CATALAN_RANKS = ("3", "2", "1", "12", "11", "10", "7", "6", "5", "4")
FRENCH_RANKS = {
    ("32", "default"): ("7", "8", "A", "K", "Q", "J", "10", "9"),
    ("32", "eight-low"): ("7", "A", "K", "Q", "J", "10", "9", "8"),
    ("32", "eight-high"): ("8", "7", "A", "K", "Q", "J", "10", "9"),
    ("36", "default"): ("7", "6", "A", "K", "Q", "J", "10", "9", "8"),
}
VALENCIAN_TOP = ("1e", "1b", "7e", "7o")
"""Then the 3s, the 2s (option ``twos``), 7 copes and 7 bastos, the 6s, the 5s, the 4s; a covered card last."""
VALENCIAN_RANKS_BELOW = ("3", "2", "7", "6", "5", "4")


Power = Callable[[str, bool], int]
"""A card text's power (higher wins), given whether it was laid face down."""


def power_by_rank(order: Sequence[str]) -> Power:
    """Power from a rank order, suits ignored (no card is laid face down in these variants)."""
    return lambda card, covered: len(order) - order.index(card[:-1])


def valencian_power(card: str, covered: bool) -> int:
    """RULES.md `valencian`: the four top cards by name, then by rank; a covered card below every card."""
    if covered:
        return 0
    if card in VALENCIAN_TOP:
        return 100 - VALENCIAN_TOP.index(card)
    return 50 - VALENCIAN_RANKS_BELOW.index(card[:-1])


# --- tricks and the hand --------------------------------------------------------------------------------


def trick_results(hand: HandRecord, cards: Sequence[str], team_of: Sequence[int], power: Power) -> list[int]:
    """Each complete trick's side (TIE when the best card is matched by another side's), from the cards laid."""
    laid: dict[int, list[tuple[int, int]]] = {}
    for e in hand.events:
        if e.verb in ("play", "cover"):
            laid.setdefault(e.trick_no, []).append((team_of[e.seat], power(cards[e.arg], e.verb == "cover")))
    results = []
    for trick in sorted(laid):
        if len(laid[trick]) < len(team_of):  # a fold ended the hand in the middle of this trick
            continue
        best = max(p for _, p in laid[trick])
        sides = {side for side, p in laid[trick] if p == best}
        results.append(sides.pop() if len(sides) == 1 else TIE)
    return results


def hand_decision(results: Sequence[int], tricks_in_hand: int) -> tuple[bool, int | None]:
    """(decided, winner) after these tricks: two tricks won; or, with a tied trick, the first trick won
    outright; all tied: decided with no winner here (the caller says whose it is). RULES.md's tricks rows
    of catalan, french and valencian say the same in other words."""
    won = [r for r in results if r != TIE]
    for side in set(won):
        if won.count(side) >= 2:
            return True, side
    if TIE in results and won and len(results) >= 2:
        return True, won[0]
    if len(results) == tricks_in_hand:
        return True, won[0] if won else None
    return False, None


def check_tricks(
    hand: HandRecord, cards: Sequence[str], team_of: Sequence[int], power: Power, all_tied_to_eldest: bool
) -> None:
    """The recorded tricks are the cards' tricks; a hand played out ended as soon as it was decided and
    went to the side the rules give it."""
    results = trick_results(hand, cards, team_of, power)
    assert tuple(results) == hand.tricks, (results, hand.tricks)
    for k in range(1, len(results)):
        assert not hand_decision(results[:k], hand.cards_dealt)[0], ("played on after", results[:k])
    if hand.ended_by != "tricks":
        return
    decided, winner = hand_decision(results, hand.cards_dealt)
    assert decided, results
    if winner is None and all_tied_to_eldest:
        winner = team_of[hand.eldest]
    assert hand.winner_team == winner, (results, hand.winner_team, winner)


# --- the stake ------------------------------------------------------------------------------------------


@dataclass
class Stake:
    """The stake as the raises and answers leave it; ``folded_to``: the raisers' side when a raise was
    refused (they score the stake in force before it)."""

    value: int
    folded_to: int | None = None
    reste_accepted: bool = False


def ladder_stake(events: Sequence[Event], team_of: Sequence[int], rungs: dict[str, int], start: int = 1) -> Stake:
    """A ladder of named raises (Catalan truc 2, retruc 3; Valencian up to joc fora), one rung at a time,
    the next one only by the side that accepted the last; an answer by raising accepts first; a card laid
    by the answerer accepts; a fold gives the raisers the stake before the raise."""
    stake = Stake(start)
    pending: int | None = None
    raisers: int | None = None
    for e in events:
        if e.verb in rungs:
            assert rungs[e.verb] == (pending or stake.value) + 1, ("not the next rung", e)
            assert raisers is None or team_of[e.seat] != raisers, ("raised twice in a row", e)
            if pending is not None:
                stake.value = pending
            pending, raisers = rungs[e.verb], team_of[e.seat]
        elif pending is not None and (e.verb == "accept" and e.kind == "answer" or e.answers and e.kind == "play"):
            stake.value, pending = pending, None
        elif e.verb == "fold" and e.kind == "answer":
            stake.folded_to = raisers
            return stake
    return stake


def french_stake(events: Sequence[Event], team_of: Sequence[int], score_before: Sequence[int]) -> Stake:
    """French raises of any size, never twice in a row by one side; ``reste`` is what the raiser's side
    still needs to reach 12; an accepted reste makes the hand decide the game."""
    stake = Stake(1)
    pending: int | None = None
    pending_reste = False
    raisers: int | None = None
    for e in events:
        if e.verb == "raise":
            team = team_of[e.seat]
            assert raisers is None or team != raisers, ("raised twice in a row", e)
            size = 12 - score_before[team] if e.arg == "reste" else int(e.arg)
            if pending is not None:
                stake.value, stake.reste_accepted = pending, stake.reste_accepted or pending_reste
            assert size > stake.value, ("not a raise", e)
            pending, pending_reste, raisers = size, e.arg == "reste", team
        elif pending is not None and (e.verb == "accept" and e.kind == "answer" or e.answers and e.kind == "play"):
            stake.value, stake.reste_accepted = pending, stake.reste_accepted or pending_reste
            pending = None
        elif e.verb == "fold" and e.kind == "answer":
            stake.folded_to = raisers
            return stake
    return stake


def french_played_out(stake: Stake, winner_needs: int) -> Stake:
    """What a French hand played out is worth to its winner: the stake, or after an accepted reste, which
    makes the hand decide the game, what the winner needs when that is more (RULES.md `french`)."""
    if stake.reste_accepted and winner_needs > stake.value:
        return Stake(winner_needs, stake.folded_to, stake.reste_accepted)
    return stake


def check_points(hand: HandRecord, stake: Stake, points: int) -> None:
    """A fold gives the raisers the stake in force; a hand played out gives its winner the stake."""
    if hand.ended_by == "fold":
        assert hand.winner_team == stake.folded_to is not None, (hand.winner_team, stake)
    else:
        assert stake.folded_to is None
    assert points == stake.value, (points, stake)


# --- the Valencian envit --------------------------------------------------------------------------------

ENVIT_CALLS = {  # the call -> (stones if refused, stones if accepted; None: the falta)
    "envit": (1, 2),
    "torne": (2, 4),
    "envit-falta": (1, None),
}


def envit_value(cards: Sequence[str]) -> int:
    """RULES.md: two cards of one suit: the two highest face values + 20; else the highest face value."""
    by_suit: dict[str, list[int]] = {}
    for card in cards:
        by_suit.setdefault(card[-1], []).append(int(card[:-1]))
    pairs = [sorted(faces)[-2:] for faces in by_suit.values() if len(faces) >= 2]
    if pairs:
        return max(20 + sum(p) for p in pairs)
    return max(int(card[:-1]) for card in cards)


def envit_winner(hand: HandRecord, cards: Sequence[str], team_of: Sequence[int]) -> int:
    """The best value; ties to the seat nearest the eldest in play order."""
    n = len(team_of)
    order = [(hand.eldest + k) % n for k in range(n)]
    values = [envit_value([cards[c] for c in hand.dealt[seat]]) for seat in order]
    return team_of[order[values.index(max(values))]]


def envit_bet(events: Sequence[Event], team_of: Sequence[int]) -> tuple[str, int | None, int] | None:
    """(accept or fold, stones or None for the falta, the side that called last) of the hand's envit."""
    refused = accepted = 0
    caller = -1
    falta = False
    for e in events:
        if e.kind == "envit":
            caller = team_of[e.seat]
            if e.verb == "falta":  # after an envit or a torne: refused, it gives what accepting the last did
                refused, falta = accepted, True
            else:
                refused, accepted = ENVIT_CALLS[e.verb][0], ENVIT_CALLS[e.verb][1] or 0
                falta = e.verb == "envit-falta"
        elif e.kind == "envit_answer":
            if e.verb == "fold":
                return "fold", refused, caller
            return "accept", None if falta else accepted, caller
    return None


def valencian_envit(
    hand: HandRecord, cards: Sequence[str], team_of: Sequence[int], stones: Sequence[int], half: int
) -> tuple[int, int] | None:
    """(side, stones won) of the hand's envit, before stones past the cama's end are cut: a falta
    accepted against a side a males wins the whole cama (a documented Decision: not cut by the cap);
    otherwise the stones are capped at what the loser lacks to complete the cama."""
    bet = envit_bet(hand.events, team_of)
    if bet is None:
        return None
    ended_by, value, caller = bet
    winner = caller if ended_by == "fold" else envit_winner(hand, cards, team_of)
    lacks = 2 * half - stones[1 - winner]
    if value is None:  # the falta
        if stones[1 - winner] <= half:
            return winner, 2 * half
        value = lacks
    return winner, min(value, lacks)


# --- the trut family ------------------------------------------------------------------------------------

TRUT_RANKS = ("7", "8", "A", "K", "Q", "J", "10", "9")
"""RULES.md `trut` (and `trut-gatinaise`, which keeps it)."""
GATINE_RANKS = ("8", "7", "A", "10", "K", "Q", "J", "9")
"""RULES.md `trut-gatine`."""


def trut_deals(hand: HandRecord) -> list[list[Event]]:
    """The hand's events split at each deal that follows play (gatine's "sec" redeal of a void trut
    d'office): every deal but the last was void."""
    deals: list[list[Event]] = [[]]
    for e in hand.events:
        if e.verb == "dealt" and any(p.verb == "play" for p in deals[-1]):
            deals.append([])
        deals[-1].append(e)
    return deals


def _next_seat(seat: int, players: int, out: set[int]) -> int:
    while seat in out:
        seat = (seat + 1) % players
    return seat


def trut_tricks(
    events: Sequence[Event],
    cards: Sequence[str],
    players: int,
    power: Power,
    first_leader: int,
    tie_lead: str,
    folds_leave: bool = False,
) -> list[int]:
    """Each complete trick's side (TIE for a tie), judged from the cards, after checking that every card
    was laid in turn and none after the hand was decided. RULES.md "Common model" and `trut`: the leader,
    then each seat in play order; the best card wins the trick, and its side leads the next one by its
    earlier player when it laid two; equal best cards of two sides tie it, and the one who made the tie
    leads next (the first to match the best card for another side; ``tie_lead=first``: the first of the
    equal cards). ``folds_leave``: with 3 players a seat that folds a trut the other sees leaves the hand
    (docs/rules/trut.md's Decision): its card on the table is withdrawn, the tricks it won count as tied,
    and a trick is complete without it."""
    sides = 3 if players == 3 else 2
    out: set[int] = set()
    results: list[int] = []
    trick: list[tuple[int, int]] = []
    turn = first_leader
    decided = False
    for e in events:
        if e.verb == "fold" and e.kind == "answer" and folds_leave:
            out.add(e.seat)
            trick = [(seat, p) for seat, p in trick if seat != e.seat]
            results = [TIE if r == e.seat else r for r in results]
            turn = _next_seat(turn, players, out)
            decided = trut_decision(results)[0]
        elif e.verb == "play":
            assert not decided, ("played on after", results, e)
            assert e.seat == turn, ("played out of turn", e, turn)
            trick.append((e.seat, power(cards[e.arg], False)))
            turn = _next_seat((e.seat + 1) % players, players, out)
        if not decided and trick and len(trick) == players - len(out):
            results.append(_trick_result(trick, sides))
            turn = _next_leader(trick, sides, tie_lead)
            trick = []
            decided = trut_decision(results)[0]
    return results


def _trick_result(trick: Sequence[tuple[int, int]], sides: int) -> int:
    best = max(p for _, p in trick)
    top_sides = {seat % sides for seat, p in trick if p == best}
    return top_sides.pop() if len(top_sides) == 1 else TIE


def _next_leader(trick: Sequence[tuple[int, int]], sides: int, tie_lead: str) -> int:
    best = max(p for _, p in trick)
    top = [seat for seat, p in trick if p == best]
    maker = next((seat for seat in top if seat % sides != top[0] % sides), None)
    return maker if maker is not None and tie_lead == "maker" else top[0]


def trut_decision(results: Sequence[int], tricks_in_hand: int = 3) -> tuple[bool, int | None]:
    """(decided, winner; None: void) after these tricks. RULES.md `trut`: the first trick counts double,
    so its winner wins unless one other side takes both tricks 2 and 3 (a tie in trick 2 or 3, or a
    1-1-1 split with three sides, leaves the hand to it); trick 1 tied: the first trick won outright
    decides; all tied: the hand is void."""
    if not results:
        return False, None
    if results[0] == TIE:
        won = [r for r in results if r != TIE]
        if won:
            return True, won[0]
        return len(results) == tricks_in_hand, None
    first, later = results[0], list(results[1:])
    if len(later) == 2 and later[0] == later[1] != TIE:
        return True, later[0]
    if later and later[0] in (first, TIE) or len(results) == tricks_in_hand:
        return True, first
    return False, None


def check_trut_tricks(
    hand: HandRecord, cards: Sequence[str], players: int, power: Power, first_leader: int, tie_lead: str
) -> None:
    """Every deal of the hand judged again from its cards: the tricks, that play stopped as soon as the
    hand was decided, and its winner; a deal before a "sec" redeal was void."""
    deals = trut_deals(hand)
    for k, deal in enumerate(deals):
        folds_leave = players == 3 and hand.ended_by != "fold"
        results = trut_tricks(deal, cards, players, power, first_leader, tie_lead, folds_leave)
        if k < len(deals) - 1:
            assert results == [TIE] * 3, ("redealt after", results)
            continue
        assert tuple(results) == hand.tricks, (results, hand.tricks)
        if hand.ended_by == "tricks":
            assert trut_decision(results) == (True, hand.winner_team), (results, hand.winner_team)
