"""Policies: what the threshold bot decides at each decision, and the policy spec parser."""

from __future__ import annotations

import random
from typing import Any

import pytest

from pipeline import accel
from pipeline.engine.actions import Action
from pipeline.engine.game import Game
from pipeline.engine.game import new_game as engine_new_game
from pipeline.engine.rules import Config, Variant
from pipeline.engine.view import SeatView
from pipeline.playing import fast_path, game_seed, play_game
from pipeline.policies import THRESHOLD_DEFAULTS, PolicyError, parse_policy, unread_parameters
from pipeline.policies.base import FOLLOW_RULES, LEAD_RULES
from pipeline.policies.parameters import Param
from pipeline.policies.random_policy import RandomPolicy
from pipeline.policies.threshold import PARAMETERS, PARAMS_BY_VARIANT, ThresholdPolicy
from pipeline.variants import VARIANTS
from tests.scripting import act, deal, new_game

STRONG, WEAK = "3o 3c 2o", "4o 4c 5o"


def two_player(hand0: str, hand1: str = "12c 11c 10c"):
    game = new_game(2, dealer=1)
    deal(game, hand0, hand1)
    return game


def test_threshold_raises_a_strong_hand_and_plays_a_weak_one_without_bluffing() -> None:
    policy = ThresholdPolicy(raise_at=0.7, bluff=0.0)
    rng = random.Random(0)
    assert policy.step(SeatView(two_player(STRONG), 0), rng) == Action(0, "truc")
    action = policy.step(SeatView(two_player(WEAK), 0), rng)
    assert action is not None and action.verb == "play"


def test_threshold_always_bluffs_with_bluff_1() -> None:
    policy = ThresholdPolicy(raise_at=0.99, bluff=1.0)
    assert policy.step(SeatView(two_player(WEAK), 0), random.Random(0)) == Action(0, "truc")


def test_threshold_answers_by_call_at_and_raises_back_above_raise_at() -> None:
    rng = random.Random(0)
    for hand1, expected in (("4c 4e 5c", "fold"), ("3c 3e 2c", "retruc"), ("1c 12e 2c", "accept")):
        game = two_player("11o 10o 7o", hand1)
        act(game, "0 truc")
        action = ThresholdPolicy(raise_at=0.9, call_at=0.5).step(SeatView(game, 1), rng)
        assert action is not None and action.verb == expected, hand1


def test_threshold_card_play_follows_the_reference_rule() -> None:
    game = two_player("4o 4c 5o", "3c 12c 5c")
    policy = ThresholdPolicy(raise_at=1.0, bluff=0.0)
    act(game, "0 play 5o")
    action = policy.step(SeatView(game, 1), random.Random(0))
    assert action == Action(1, "play", game.variant.deck.parse("12c"))  # the lowest card that wins


def test_threshold_holds_at_11_with_the_partner_hand_in_view() -> None:
    game = new_game(4, dealer=3, scores=(11, 3))
    deal(game, "4o 4c 5o", "12c 11c 10c", "3o 3c 2o", "5b 6b 7b")
    assert ThresholdPolicy(call_at=0.5).step(SeatView(game, 0), random.Random(0)) == Action(0, "hold")


def test_threshold_holds_at_11_by_call_at_not_raise_at() -> None:
    """Holding at 11 stakes 3 points on the hand (RULES.md catalan, "11 points"): the bot holds when the
    hand reaches ``call_at``, as it accepts a raise, whatever ``raise_at`` says."""
    game = new_game(2, dealer=1, scores=(11, 3))
    deal(game, "1c 12e 2c", "4o 4c 5o")
    pct = ThresholdPolicy().strength_pct(SeatView(game, 0))
    assert 0.1 < pct < 0.9
    for call_at, raise_at, expected in ((pct - 0.05, pct + 0.05, "hold"), (pct + 0.05, pct - 0.05, "pass")):
        action = ThresholdPolicy(call_at=call_at, raise_at=raise_at).step(SeatView(game, 0), random.Random(0))
        assert action == Action(0, expected), (call_at, raise_at)


def test_threshold_effective_strength_counts_the_tricks_taken_and_lost() -> None:
    """+0.2 for each trick the seat's side won, -0.2 for each it lost (``ThresholdPolicy``): after trick 1
    the winner raises a hand it would not have raised before, and the loser folds one it would have held."""
    game = two_player("1c 12e 2c", "4o 4c 5o")
    bot = ThresholdPolicy(bluff=0.0)
    before = [bot.strength_pct(SeatView(game, seat)) for seat in (0, 1)]
    act(game, "0 play 2c", "1 play 4o")  # seat 0's 2 beats the 4: seat 0 leads trick 2
    winner, loser = SeatView(game, 0), SeatView(game, 1)
    assert bot.effective_strength(winner) == pytest.approx(min(1.0, before[0] + 0.2))
    assert bot.effective_strength(loser) == pytest.approx(max(0.0, before[1] - 0.2))
    raiser = ThresholdPolicy(raise_at=before[0] + 0.1, bluff=0.0)
    assert raiser.step(winner, random.Random(0)) == Action(0, "truc")


def test_threshold_signals_truthfully_unless_it_lies() -> None:
    game = new_game(4, dealer=3, signals="on")
    deal(game, "3o 1c 5o", "12c 11c 10c", "3e 3c 2o", "5b 6b 7b")
    assert ThresholdPolicy().step(SeatView(game, 0), random.Random(0)) == Action(0, "signal", "31")
    liar = ThresholdPolicy(lie=1.0).step(SeatView(game, 0), random.Random(0))
    assert liar is not None and liar.verb == "signal" and liar.arg != "31"


def test_random_policy_picks_legal_actions_and_may_decline_an_option() -> None:
    game = two_player(STRONG)
    act(game, "0 play 3o")
    policy, rng = RandomPolicy(), random.Random(3)
    choices = {policy.step(SeatView(game, 0, optional=True), rng) for _ in range(50)}
    assert choices == {None, Action(0, "truc")}
    for _ in range(20):
        assert policy.step(SeatView(game, 1), rng) in game.legal_for(1)


def test_parse_policy() -> None:
    policy = parse_policy("threshold:raise_at=0.8, bluff=0.2")
    # the families' own parameters (policies/<family>_decisions.py) follow the common ones
    assert policy.describe().startswith("threshold raise_at=0.8 call_at=0.5 bluff=0.2 nocut=0.15 one_card=0.5 lie=0")
    assert parse_policy("random").describe() == "random"
    # spaces around '=' and the key's case are read as --option and --param read them
    assert parse_policy("threshold:Raise_At = 0.8, bluff= 0.2").describe() == policy.describe()
    for spec, message in (
        ("minimax", "policies: random, threshold, search, cfr, or module.Class for a bot of your own"),
        ("threshold:fold_at=0.1", "parameters: raise_at"),
        ("threshold:bluff=lots", "not a number"),
        ("threshold:bluff=1.5", "between 0 and 1"),
        ("threshold:bluff", "key=value"),
        ("random:bluff=0.1", "parameters: none"),
    ):
        with pytest.raises(PolicyError, match=message):
            parse_policy(spec)


def _configs(variant: Variant) -> list[Config]:
    """Every player count with the default options, then every other value of every other option (at the first
    player count where it is played: signals at 4 players, the reduced trut deck at 2)."""
    configs = [variant.configure({"players": str(n)}) for n in variant.players]
    for spec in variant.options:
        if spec.name == "players":
            continue
        players = str(spec.players[0] if spec.players else variant.configure().players)
        configs += [variant.configure({"players": players, spec.name: v}) for v in spec.values if v != spec.default]
    return configs


def _games(configs: list[Config], params: dict[str, Any], games: int = 30) -> list[list[object]]:
    """The events of the first ``games`` games of each configuration, every seat a threshold bot with
    ``params``."""
    played: list[list[object]] = []
    for config in configs:
        for game_no in range(games):
            policies = [ThresholdPolicy(**params) for _ in range(config.players)]
            _, hands = play_game(config, policies, game_seed(5, game_no))
            played.append([hand.event_tuples for hand in hands])
    return played


def _other_values(param: Param) -> list[object]:
    """Values of ``param`` other than its default, at its extremes: 0 and 1 for a number, every other choice
    for a name."""
    values: list[object] = [0.0, 1.0] if param.kind == "number" else list(param.choices)
    return [v for v in values if v != param.default]


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_each_variant_reads_exactly_the_parameters_its_policy_column_names(name: str) -> None:
    """PARAMS_BY_VARIANT, watched: a parameter the variant reads changes some game when set to another value
    (0 or 1, another card-play rule); the others, all set to 0 (or all to 1), change none. So the ``policy``
    column names what made the play."""
    variant = VARIANTS[name]
    configs = _configs(variant)
    baseline = _games(configs, {})
    read = set(PARAMS_BY_VARIANT[name])
    for extreme in (0.0, 1.0):
        unread = {k: extreme for k in THRESHOLD_DEFAULTS if k not in read}
        assert _games(configs, unread) == baseline, f"{name} reads one of {sorted(unread)}"
    for param in PARAMETERS:
        if param.name in read:
            changed = any(_games(configs, {param.name: v}) != baseline for v in _other_values(param))
            assert changed, f"{name} never reads {param.name}"


def test_a_policy_is_described_by_the_parameters_its_variant_reads() -> None:
    policy = parse_policy("threshold:raise_at=0.8,trut_at=0.9")
    assert policy.describe("catalan") == "threshold raise_at=0.8 call_at=0.5 bluff=0.1 nocut=0.15 one_card=0.5 lie=0"
    assert (
        policy.describe("trut") == "threshold trut_at=0.9 trut_bluff=0.05 see_at=0.55 see_announced=0.95 fortial_at=0.5"
    )
    assert policy.describe() == policy.describe("a variant the table does not know")
    assert len(policy.describe().split()) == 1 + len(THRESHOLD_DEFAULTS)  # the card play only off its default
    assert parse_policy("random").describe("trut") == "random"


def test_unread_parameters_are_those_the_variant_does_not_read() -> None:
    """What the simulator warns about: ``raise_at`` changes nothing in a Trut game (the test above checks
    which parameters each variant reads)."""
    trut = PARAMS_BY_VARIANT["trut"]
    assert unread_parameters("threshold:raise_at=0.9,trut_at=0.7,bluff=0.1", "trut") == (["raise_at", "bluff"], trut)
    assert unread_parameters("threshold:trut_at=0.7,see_at=0.2", "trut") == ([], trut)
    assert unread_parameters("threshold:trut_at=0.7", "catalan") == (["trut_at"], PARAMS_BY_VARIANT["catalan"])
    assert unread_parameters("threshold", "valencian") == ([], PARAMS_BY_VARIANT["valencian"])
    assert unread_parameters("random", "trut") == ([], ())  # no per-variant table: every parameter (none) is read
    assert unread_parameters("threshold:raise_at=0.9", "a variant the table does not know") == ([], ())
    with pytest.raises(PolicyError, match="no parameter 'nope'"):
        unread_parameters("threshold:nope=1", "trut")
    # keys are read in any case, as parse_policy reads them: RAISE_AT is raise_at, which catalan reads
    assert unread_parameters("Threshold:RAISE_AT=0.9,Trut_At=0.7", "catalan") == (
        ["trut_at"],
        PARAMS_BY_VARIANT["catalan"],
    )


def test_a_policy_parameter_given_twice_is_refused() -> None:
    """As ``--option`` and ``--param`` refuse a key given twice, rather than the last one silently winning."""
    with pytest.raises(
        PolicyError, match=r"^policy threshold: raise_at is given twice \(raise_at=0.5, RAISE_AT=0.9\)$"
    ):
        parse_policy("threshold:raise_at=0.5,RAISE_AT=0.9")
    assert parse_policy("threshold:RAISE_AT=0.9").describe("catalan").startswith("threshold raise_at=0.9")


@pytest.mark.parametrize(("variant", "players"), [("trut", 4), ("trut", 6), ("valencian", 2), ("valencian", 4)])
def test_the_bots_coins_never_move_the_deals(variant: str, players: int) -> None:
    # docs/architecture.md, Decision on RULES.md "Common model": the policies draw from a generator of their
    # own seeded from the game's seed, so two runs of one seed with different bots meet the same deals
    config = VARIANTS[variant].configure({"players": str(players)})
    compared = 0
    for number in range(12):
        seed = game_seed(5, number)
        _, calm = play_game(config, [parse_policy("threshold") for _ in range(players)], seed)
        _, wild = play_game(config, [parse_policy("random") for _ in range(players)], seed)
        for a, b in zip(calm, wild, strict=False):
            assert (a.dealer, a.dealt) == (b.dealer, b.dealt)
            compared += 1
    assert compared > 12


# ---------------------------------------------------------------------------------------------- card play
def valencian_game(hand0: str, hand1: str, dealer: int) -> Game:
    """A 2-player Valencian game dealt these hands: its deck has one card of each top power (``1e`` above
    ``1b`` above ``7e`` above ``7o`` above the threes), so a card can be sure to win."""
    config = VARIANTS["valencian"].configure({"players": "2"})
    game = engine_new_game(config, seed=1, first_dealer=dealer)
    deck = game.variant.deck
    game.apply_deal([[deck.parse(c) for c in hand.split()] for hand in (hand0, hand1)])
    return game


def card(game: Game, text: str) -> int:
    return game.variant.deck.parse(text)


def test_each_lead_rule_picks_its_card() -> None:
    """Seat 0 leads holding ``1e 1b 4o``: the best card it has not seen is ``7e``, which both its aces beat."""
    game = valencian_game("1e 1b 4o", "3o 5c 6c", dealer=1)
    view = SeatView(game, 0)
    expected = {"highest": "1e", "lowest": "4o", "cheapest_winning": "1b"}
    assert set(expected) == set(LEAD_RULES)
    for lead, text in expected.items():
        assert ThresholdPolicy(lead=lead).card_to_play(view) == card(game, text), lead


def test_the_cheapest_winning_lead_falls_back_to_the_lowest_card() -> None:
    """No card of ``7e 7o 4o`` beats ``1e``, which seat 0 has not seen: it gives up its lowest."""
    game = valencian_game("7e 7o 4o", "3o 5c 6c", dealer=1)
    assert ThresholdPolicy(lead="cheapest_winning").card_to_play(SeatView(game, 0)) == card(game, "4o")


def test_the_cheapest_winning_lead_counts_cards_played_face_up_and_not_covered_ones() -> None:
    """Seat 1 leads ``1b``, seat 0 takes it with ``1e`` and leads trick 2 from ``7e 4o``: with ``1b`` seen,
    ``7e`` beats every card it has not seen. Had ``1b`` been covered, it is unseen, and ``7e`` is not sure."""
    bot = ThresholdPolicy(lead="cheapest_winning")
    game = valencian_game("1e 7e 4o", "1b 5c 6c", dealer=0)
    act(game, "1 play 1b", "0 play 1e")
    view = SeatView(game, 0)
    assert view.played() == [card(game, "1b"), card(game, "1e")]
    assert bot.card_to_play(view) == card(game, "7e")
    covered = valencian_game("1e 7e 4o", "1b 5c 6c", dealer=0)
    covered.apply(Action(1, "cover", card(covered, "1b")))
    act(covered, "0 play 1e")
    assert SeatView(covered, 0).played() == [card(covered, "1e")]
    assert bot.card_to_play(SeatView(covered, 0)) == card(covered, "4o")


def test_each_follow_rule_picks_its_card() -> None:
    """Against a 5: ``cheapest_winning`` takes the trick with the 12 (the lowest that wins), ``lowest`` gives
    the 5; when the partner's card wins the trick, both give the lowest."""
    game = two_player("4o 4c 5o", "3c 12c 5c")
    act(game, "0 play 5o")
    expected = {"cheapest_winning": "12c", "lowest": "5c"}
    assert set(expected) == set(FOLLOW_RULES)
    for follow, text in expected.items():
        assert ThresholdPolicy(follow=follow).card_to_play(SeatView(game, 1)) == game.variant.deck.parse(text)
    four = new_game(4, dealer=3)
    deal(four, "3o 4c 5o", "12c 11c 10c", "2o 3c 6b", "5b 6e 7b")
    act(four, "0 play 3o", "1 play 10c")
    for follow in FOLLOW_RULES:
        assert ThresholdPolicy(follow=follow).card_to_play(SeatView(four, 2)) == four.variant.deck.parse("6b")


def test_the_last_card_is_played_whatever_the_rule() -> None:
    game = two_player("4o 4c 5o", "3c 12c 5c")
    act(game, "0 play 5o", "1 play 3c", "1 play 12c", "0 play 4o")
    for lead in LEAD_RULES:
        assert ThresholdPolicy(lead=lead).card_to_play(SeatView(game, 0)) == game.variant.deck.parse("4c")


def test_card_play_is_typed_and_named_in_the_description_only_off_its_default() -> None:
    plain = parse_policy("threshold")
    assert parse_policy("threshold:lead=highest,follow=cheapest_winning").describe() == plain.describe()
    low = parse_policy("threshold:Lead=LOWEST,follow=lowest")
    assert low.describe("trut") == plain.describe("trut") + " lead=lowest follow=lowest"
    assert parse_policy("threshold:lead=cheapest_winning").describe("catalan").endswith(" lie=0 lead=cheapest_winning")
    with pytest.raises(PolicyError, match=r"^policy threshold: lead='middle' is not a choice; choices: highest, "):
        parse_policy("threshold:lead=middle")
    with pytest.raises(PolicyError, match=r"lead='lowset' is not a choice \(did you mean 'lowest'\?\)"):
        parse_policy("threshold:lead=lowset")


def _leads(config: Config, spec: str, seat: int, games: int = 40) -> tuple[list[object], list[bool]]:
    """The events of ``games`` games with ``spec`` at ``seat`` and the plain threshold bot elsewhere, and for
    each first card of a hand that seat led from 2 cards or more, whether it was its lowest by power."""
    events: list[object] = []
    lowest: list[bool] = []
    for number in range(games):
        policies = [parse_policy(spec if s == seat else "threshold") for s in range(config.players)]
        _, hands = play_game(config, policies, game_seed(8, number))
        power = config.variant.power
        for hand in hands:
            events.append(hand.event_tuples)
            plays = [e for e in hand.events if e.verb == "play"]
            if plays and plays[0].seat == seat and len(hand.dealt[seat]) > 1:
                lowest.append(power[plays[0].arg] == min(power[c] for c in hand.dealt[seat]))
    return events, lowest


@pytest.mark.parametrize(("variant", "players"), [("catalan", 2), ("trut", 4), ("valencian", 4), ("french", 2)])
def test_changing_lead_changes_the_games(variant: str, players: int) -> None:
    """Played out, ``lead=lowest`` opens every hand it leads with its lowest card, the default with its highest
    (so the games differ): the parameter reaches the play of every family, Trut's native path included."""
    config = VARIANTS[variant].configure({"players": str(players)})
    default, highest_first = _leads(config, "threshold", 0)
    lowest, lowest_first = _leads(config, "threshold:lead=lowest", 0)
    assert lowest != default
    assert len(lowest_first) > 10 and all(lowest_first)
    assert not all(highest_first)


def test_the_native_trut_path_takes_only_the_reference_card_play(monkeypatch: pytest.MonkeyPatch) -> None:
    """The native path plays cards by the reference rule only: a game where a seat plays otherwise goes to the
    engine (the native module is stood in for, so that the gate is checked whether or not it is built)."""
    monkeypatch.setattr(accel, "native", lambda name: name)
    config = VARIANTS["trut"].configure({"players": "4"})
    default = [parse_policy("threshold:lead=highest,follow=cheapest_winning") for _ in range(4)]
    assert fast_path(config, default) == "pipeline._fast_trut"
    for spec in ("threshold:lead=lowest", "threshold:lead=cheapest_winning", "threshold:follow=lowest"):
        assert fast_path(config, [parse_policy(spec)] + [parse_policy("threshold") for _ in range(3)]) is None


def test_the_random_bot_gives_its_probabilities() -> None:
    game = two_player(STRONG)
    required = SeatView(game, 0)
    chances = RandomPolicy().probabilities(required)
    assert list(chances) == game.legal_for(0) and sum(chances.values()) == pytest.approx(1.0)
    assert len(set(chances.values())) == 1
    act(game, "0 play 3o")
    optional = RandomPolicy().probabilities(SeatView(game, 0, optional=True))
    assert optional == {Action(0, "truc"): 0.5, None: 0.5}
