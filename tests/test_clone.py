"""A copyable engine (``Game.clone``) and determinisation (``Game.determinise``), over random games of every
variant and player count: a copy plays on exactly as its original and never touches it; a determinised copy
keeps what its seat has seen and deals the rest anew, whatever the real hidden cards were."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.engine.game import Game, HandRecord, new_game
from pipeline.engine.replay import replay
from pipeline.variants import VARIANTS

SETTINGS = [(variant.name, players) for variant in VARIANTS.values() for players in variant.players]


def options_for(variant: str, players: int, rng: random.Random) -> dict[str, str]:
    """Random options of the variant (each value of each option equally likely, among those accepted)."""
    spec = VARIANTS[variant]
    for _ in range(20):
        options = {o.name: rng.choice(o.values) for o in spec.options if o.name != "players"}
        options["players"] = str(players)
        try:
            spec.configure(options)
        except ValueError:
            continue
        return options
    return {"players": str(players)}


def step(game: Game, rng: random.Random) -> None:
    """One step of a game: the deal, or a random legal action of a seat that may act, through the checked
    ``apply``; the next hand once a hand is over."""
    if game.hand_over:
        game.next_hand()
        return
    if game.actor() < 0:
        game.deal()
        return
    legal = game.legal_actions()
    game.apply(rng.choice(legal))


def play_to(game: Game, steps: int, rng: random.Random) -> None:
    for _ in range(steps):
        if game.over:
            return
        step(game, rng)


def records(game: Game, rng: random.Random, limit: int = 400) -> list[object]:
    """Play ``game`` on to its end (or ``limit`` steps) and give every hand record and final state met."""
    seen: list[object] = []
    for _ in range(limit):
        if game.over:
            break
        step(game, rng)
        if game.hand_over and game.last_hand is not None and (not seen or seen[-1] != game.last_hand):
            seen.append(game.last_hand)
    seen.append((tuple(game.scores), game.over, game.winner_team, game.hand_no, game.phase))
    return seen


def fresh(variant: str, players: int, seed: int, options_seed: int) -> Game:
    options = options_for(variant, players, random.Random(options_seed))
    return new_game(VARIANTS[variant].configure(options), seed)


A_MOMENT = {
    "setting": st.sampled_from(SETTINGS),
    "seed": st.integers(min_value=0, max_value=2**63 - 1),
    "moment": st.integers(min_value=0, max_value=120),
    "options_seed": st.integers(min_value=0, max_value=1000),
}
"""A game of any setting and options, stopped at a random moment: what every property below draws."""


@settings(max_examples=60, deadline=None)
@given(
    **A_MOMENT,
)
def test_a_clone_plays_on_as_its_original_and_never_touches_it(setting, seed, moment, options_seed) -> None:
    variant, players = setting
    original = fresh(variant, players, seed, options_seed)
    twin = fresh(variant, players, seed, options_seed)  # the same game, never cloned
    play_to(original, moment, random.Random(seed))
    play_to(twin, moment, random.Random(seed))
    copy = original.clone()
    assert type(copy) is type(original) and copy is not original
    assert copy.hands == original.hands and copy.events == original.events and copy.scores == original.scores
    assert copy.hands is not original.hands and copy.events is not original.events
    assert all(a is not b for a, b in zip(copy.hands, original.hands, strict=True))
    records(copy.clone(), random.Random(seed + 1))  # a copy of the copy, played its own way
    played = records(copy, random.Random(seed + 2))  # the copy first: had it shared state, the original moved
    assert played == records(original, random.Random(seed + 2))
    assert played == records(twin, random.Random(seed + 2))


def finished_hands(game: Game, steps: int, rng: random.Random) -> list[HandRecord]:
    """Play ``steps`` steps (to the end with a large number) and give the record of every hand finished."""
    done: list[HandRecord] = []
    for _ in range(steps):
        if game.over:
            break
        was_over = game.hand_over
        step(game, rng)
        if game.hand_over and not was_over and game.last_hand is not None:
            done.append(game.last_hand)
    return done


@settings(max_examples=30, deadline=None)
@given(
    setting=st.sampled_from(SETTINGS),
    seed=st.integers(min_value=0, max_value=2**63 - 1),
    moment=st.integers(min_value=0, max_value=150),
)
def test_a_clone_s_game_replays_through_the_checked_engine(setting, seed, moment) -> None:
    """The hands played before the copy was made and those the copy played after it make one game that
    ``engine.replay`` replays from its first deal with every rule checked, to the copy's final score."""
    variant, players = setting
    config = VARIANTS[variant].configure({"players": str(players)})
    original = new_game(config, seed)
    before = finished_hands(original, moment, random.Random(seed))
    copy = original.clone()
    after = finished_hands(copy, 5000, random.Random(seed + 3))
    assert copy.over
    replayed = replay(config, original.first_dealer, before + after, seed)
    assert replayed.scores == copy.scores and replayed.winner_team == copy.winner_team


def hidden(game: Game, seat: int) -> list[int]:
    """The cards ``seat`` has not seen, wherever the game keeps them."""
    seen = game.seen_by(seat)
    return sorted(card for cards in game.hidden_places(seat) for card in cards if card not in seen)


def public(game: Game, seat: int) -> list[tuple[object, ...]]:
    """The record of the hand as ``seat`` sees it: its own part of each deal, every other event as it is, but
    another seat's covered card or discard."""
    out: list[tuple[object, ...]] = []
    for event in game.events:
        if event[1] == "dealt":
            out.append(("dealt", event[2][seat]))
        elif event[1] in ("cover", "discard") and event[0] != seat:
            out.append((event[0], event[1], *event[3:]))
        else:
            out.append(event)
    return out


def moment_to_decide(
    variant: str, players: int, seed: int, options_seed: int, steps: int, petits: tuple[int, ...] | None = None
) -> Game:
    """A game played ``steps`` steps on, then to the next moment a seat must act (a Trut game from ``petits``
    held by each side, if given)."""
    if petits is None:
        game = fresh(variant, players, seed, options_seed)
    else:
        game = new_game(VARIANTS[variant].configure({"players": str(players)}), seed, None, None, petits)
    rng = random.Random(seed)
    play_to(game, steps, rng)
    while not game.over and (game.hand_over or game.actor() < 0):
        step(game, rng)
    return game


@settings(max_examples=80, deadline=None)
@given(
    **A_MOMENT,
    draw=st.integers(min_value=0, max_value=2**32),
)
def test_a_determinised_clone_keeps_what_its_seat_saw_and_deals_the_rest_anew(
    setting, seed, moment, options_seed, draw
) -> None:
    variant, players = setting
    game = moment_to_decide(variant, players, seed, options_seed, moment)
    if game.over:
        return
    seat = game.actor()
    before = (game.clone().hands, list(game.events), game.stock[:])
    sample = game.clone()
    sample.determinise(seat, random.Random(draw))
    assert (game.hands, game.events, game.stock) == before  # the original is untouched
    assert sample.hands[seat] == game.hands[seat]
    assert public(sample, seat) == public(game, seat)
    assert sample.seen_by(seat) == game.seen_by(seat)
    assert hidden(sample, seat) == hidden(game, seat)  # a permutation of the truly unseen cards
    assert [len(h) for h in sample.hands] == [len(h) for h in game.hands] and len(sample.stock) == len(game.stock)
    everywhere = [c for h in sample.hands for c in h] + list(sample.stock)
    assert len(everywhere) == len(set(everywhere))  # no card twice
    assert sample.legal_for(seat) == game.legal_for(seat)
    records(sample, random.Random(draw))  # it plays on by the checked rules to its end


@settings(max_examples=60, deadline=None)
@given(
    **A_MOMENT,
)
def test_determinising_reads_nothing_the_seat_has_not_seen(setting, seed, moment, options_seed) -> None:
    """Two games that ``seat`` sees alike but whose hidden cards differ give the same determinised game for
    the same generator."""
    variant, players = setting
    game = moment_to_decide(variant, players, seed, options_seed, moment)
    if game.over:
        return
    seat = game.actor()
    other = game.clone()
    other.determinise(seat, random.Random(seed ^ 1))  # the same view, other hidden cards
    samples = []
    for real in (game, other):
        sample = real.clone()
        sample.determinise(seat, random.Random(7))
        samples.append((sample.hands, sample.stock, sample.events, sample.stream.next32()))
    assert samples[0] == samples[1]


def test_every_variant_is_determinised_in_its_own_hidden_places() -> None:
    """Every setting, many moments: a French hand after a redeal, Valencian covered cards, Gâtine and
    Gâtinaise discards and extra cards, 3-player Trut with a seat out of the hand, the 11-point look at the
    partner's cards; the sampled hidden cards are always a permutation of the unseen ones."""
    reached = set()
    for variant, players in SETTINGS:
        for seed in range(12):
            for moment, start in ((3, None), (17, None), (40, None), (90, None), (5, (2, 2)), (7, (2, 2))):
                if start is not None and not variant.startswith("trut-"):
                    continue
                game = moment_to_decide(variant, players, seed, seed, moment, start)  # (2, 2): chanter, chanson
                if game.over:
                    continue
                seat = game.actor()
                sample = game.clone()
                sample.determinise(seat, random.Random(seed))
                assert hidden(sample, seat) == hidden(game, seat)
                assert public(sample, seat) == public(game, seat)
                verbs = {event[1] for event in game.events}
                reached |= {f"{variant} {verb}" for verb in verbs & {"redeal", "cover", "discard", "ask", "hold"}}
                if sample.hands != game.hands:
                    reached.add("changed")
    assert {"french redeal", "valencian cover", "trut-gatine discard", "trut-gatinaise discard"} <= reached
    assert {"catalan hold", "changed"} <= reached
