"""The native replay of 2-player Catalan Truc (``pipeline/_fast_replay.pyx``): a game it accepts gives the very
hand records and game the engine's replay gives; a game it does not accept is replayed by the engine, so every
error is the engine's, at the same line; and it is used where it applies, only there."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.engine.game import HandRecord, new_game
from pipeline.history.reader import NATIVE_LINES, GameRecord, ReplayVisitor, natively_replayed, parse
from pipeline.history.writer import format_game, hand_from_record, join_games
from pipeline.playing import game_seed, play_game
from pipeline.policies import parse_policy
from pipeline.variants import get_variant
from tests.native import native_module

POLICIES = [
    "random",
    "threshold",
    "threshold:raise_at=0.5,bluff=0.3,call_at=0.3",
    "threshold:raise_at=0.9,bluff=0,call_at=0.7",
]
INSERTED = ["0 play", "1 truc 3", "garbage !", "hand", "0: 3o 1e", "end 1 0", "1 vull", "{ open", "}"]
"""Lines put into a history at random: a line that cannot be read, a step out of place, a comment never closed."""
VERBS = ["play 3o", "play 1e", "accept", "fold", "truc", "retruc", "cut", "nocut", "deal 1", "deal 3", "hold", "pass"]


class Counting:
    """The native module, counting the games it was given and those it accepted."""

    def __init__(self) -> None:
        self.module = native_module("pipeline._fast_replay")
        self.given = 0
        self.accepted = 0

    def replay(self, *args: Any) -> Any:
        self.given += 1
        done = self.module.replay(*args)
        self.accepted += done is not None
        return done


def read(text: str, native: bool, strict: bool = False) -> tuple[list[GameRecord], list[str], Counting | None]:
    """The games and errors of ``text``, replayed with the native replay or by the engine alone."""
    visitor = ReplayVisitor("test.truc", strict=strict)
    counting = Counting() if native else None
    visitor._native = counting
    parse(text, visitor, "test.truc")
    return visitor.games, [str(error) for error in visitor.errors], counting


def game_state(record: GameRecord) -> dict[str, Any]:
    """Every attribute of a replayed game; its deal stream by its state (the object compares by identity), when
    the game has a seed (else a key taken from the system)."""
    state = record.game._state()
    stream = state.pop("stream")
    if record.game.seed is not None:
        state["stream"] = stream.__reduce__()
    return state


def assert_same(native: list[GameRecord], engine: list[GameRecord]) -> None:
    assert len(native) == len(engine)
    for ours, theirs in zip(native, engine, strict=True):
        assert ours.hands == theirs.hands
        assert (ours.tags, ours.line, ours.source) == (theirs.tags, theirs.line, theirs.source)
        assert game_state(ours) == game_state(theirs)


def game_text(seed: int, policies: list[str], options: dict[str, str] | None = None) -> tuple[str, list[HandRecord]]:
    """A simulated game of 2-player Catalan as canonical text, with the engine's hand records."""
    config = get_variant("catalan").configure({"players": "2", **(options or {})})
    game, hands = play_game(config, [parse_policy(p) for p in policies], seed)
    tags = {"Variant": "catalan", "Options": config.options_text(), "FirstDealer": str(game.first_dealer)}
    tags["Seed"] = str(seed)
    tags["Result"] = "-".join(str(score) for score in game.scores)
    return format_game(tags, (hand_from_record(game, hand) for hand in hands)), hands


def situations(hands: list[HandRecord]) -> Counter[str]:
    """What the hands went through, to show that the comparison reached the rare rules."""
    seen: Counter[str] = Counter()
    for hand in hands:
        verbs = [event[1] for event in hand.event_tuples]
        seen[f"ended by {hand.ended_by}"] += 1
        seen[f"tie rule {hand.tie_rule}"] += 1
        seen[f"{hand.cards_dealt} cards"] += 1
        for verb in ("cut", "nocut", "hold", "pass", "truc", "retruc", "accept"):
            seen[verb] += verb in verbs
        seen["accept and raise"] += any(event[1] == "retruc" and event[4] for event in hand.event_tuples)
        seen["accepted by playing"] += any(event[1] == "play" and event[4] for event in hand.event_tuples)
        seen["raised after playing"] += any(
            event[1] == "truc" and turn != event[0] for event, turn in zip(hand.event_tuples, hand.turns, strict=True)
        )
    return seen


def test_the_native_replay_gives_the_engines_records_and_game() -> None:
    """RULES.md `catalan` (seed 000), every rule a 2-player game meets: the cut and the one-card deal, 11 points
    (hold or pass), the raise ladder and its answers, ties and leads, the hand rule, the end of the game."""
    texts, seen = [], Counter[str]()
    for g in range(120):
        policies = [POLICIES[g % len(POLICIES)], POLICIES[(g // len(POLICIES)) % len(POLICIES)]]
        text, hands = game_text(game_seed(11, g), policies, {"deck": "7"} if g % 10 == 9 else None)
        texts.append(text)
        seen += situations(hands)
    text = join_games(texts)
    native, native_errors, counting = read(text, native=True, strict=True)
    engine, engine_errors, _ = read(text, native=False, strict=True)
    assert native_errors == engine_errors == []
    assert_same(native, engine)
    assert counting is not None
    assert counting.accepted == counting.given == sum(1 for record in engine if len(record.hands) > 1) > 100
    for situation in (
        "ended by tricks",
        "ended by fold",
        "ended by pass",
        "tie rule first_decisive",
        "tie rule all_tied_eldest",
        "1 cards",
        "cut",
        "nocut",
        "hold",
        "pass",
        "truc",
        "retruc",
        "accept",
        "accept and raise",
        "accepted by playing",
        "raised after playing",
    ):
        assert seen[situation] > 0, situation


def mutated(text: str, rng: random.Random) -> str:
    """``text`` with one line changed at random, as a hand-written history may be wrong."""
    lines = text.split("\n")
    where = rng.randrange(len(lines))
    line = lines[where]
    words = line.split()
    change = rng.randrange(9)
    if change == 0:
        del lines[where]
    elif change == 1:
        lines.insert(where, line)
    elif change == 2 and where + 1 < len(lines):
        lines[where], lines[where + 1] = lines[where + 1], line
    elif change == 3 and words and words[0].isdigit() and not words[0].endswith(":"):
        lines[where] = f"{words[0]} {rng.choice(VERBS)}"
    elif change == 4 and words and words[0].isdigit():
        lines[where] = " ".join([str(1 - int(words[0]) if words[0] in "01" else 0), *words[1:]])
    elif change == 5 and words and words[0] in ("end", "hand"):
        lines[where] = " ".join([words[0], *(str(rng.randrange(4)) if w.isdigit() else w for w in words[1:])])
    elif change == 6 and words and words[0].endswith(":"):
        cards = words[1:]
        if cards:
            cards[rng.randrange(len(cards))] = rng.choice(["??", "3O", "1e", "7b", "3o", "12c", "1", "zz"])
        lines[where] = " ".join([words[0], *cards])
    elif change == 7:
        lines.insert(where, rng.choice(INSERTED))
    else:
        lines[where] = line + rng.choice(["", " 3o", " x"])
    return "\n".join(lines)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 3))
def test_a_history_changed_at_random_gives_the_same_errors_and_games(seed: int, changes: int) -> None:
    """Whatever is wrong in a game, the native replay either accepts what the engine accepts, with the same
    records, or leaves the game to the engine: the same errors (strict and lenient) and the same valid games."""
    rng = random.Random(seed)
    text = join_games(game_text(seed + g, [rng.choice(POLICIES), rng.choice(POLICIES)])[0] for g in range(3))
    for _ in range(changes):
        text = mutated(text, rng)
    native, native_errors, _ = read(text, native=True)
    engine, engine_errors, _ = read(text, native=False)
    assert native_errors == engine_errors
    assert_same(native, engine)
    strict = []
    for use in (True, False):
        try:
            read(text, native=use, strict=True)
            strict.append(None)
        except ValueError as error:
            strict.append(str(error))
    assert strict[0] == strict[1]


def test_the_native_replay_applies_to_two_player_catalan_only() -> None:
    catalan = get_variant("catalan")
    assert natively_replayed(new_game(catalan.configure({"players": "2"}), 1, 0))
    assert natively_replayed(new_game(catalan.configure({"players": "2", "deck": "7"}), 1, 0))
    assert not natively_replayed(new_game(catalan.configure({"players": "4"}), 1, 0))
    assert not natively_replayed(new_game(catalan.configure({"players": "4", "signals": "on"}), 1, 0))
    for variant in ("valencian", "french", "trut"):
        config = get_variant(variant).configure({"players": "2"})
        assert not natively_replayed(new_game(config, 1, 0)), variant


def test_a_four_player_game_is_replayed_by_the_engine_alone() -> None:
    text, _ = game_text(5, ["random"] * 4, {"players": "4"})
    native, errors, counting = read(text, native=True, strict=True)
    engine, _, _ = read(text, native=False, strict=True)
    assert errors == [] and counting is not None and counting.given == 0
    assert_same(native, engine)


def test_a_game_of_many_lines_is_left_to_the_engine_with_the_same_error() -> None:
    """A game is kept for the native replay up to ``NATIVE_LINES`` lines (a history of any size is read in bounded
    memory): past them the engine reads it, and says the same."""
    text, _ = game_text(7, ["threshold", "threshold"])
    head, _, rest = text.partition("\n\n")
    lines = rest.split("\n")
    many = "\n".join([head, "", *lines[:4], *["0 truc", "1 accept"] * NATIVE_LINES, *lines[4:]])
    native, native_errors, counting = read(many, native=True)
    engine, engine_errors, _ = read(many, native=False)
    assert native_errors == engine_errors and len(native_errors) == 1
    assert_same(native, engine)
    assert counting is not None and counting.given == 0
