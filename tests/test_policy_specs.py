"""The policy spec grammar (``NAME[:k=v,...]``, ``module.Class[:k=v,...]``), typed parameters, bots of one's own,
and ``truc policies`` (pipeline/policies/__init__.py, parameters.py; docs/bots.md)."""

from __future__ import annotations

import random
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.engine.actions import Action
from pipeline.engine.view import SeatView
from pipeline.playing import game_seed, play_game
from pipeline.policies import (
    POLICIES,
    Bot,
    PolicyError,
    choice,
    integer,
    number,
    parse_policy,
    path,
    policy_lines,
    policy_name,
    read_spec,
    unread_parameters,
)
from pipeline.policies.threshold import PARAMETERS, PARAMS_BY_VARIANT
from pipeline.variants import VARIANTS

runner = CliRunner()


class Toy:
    """A bot with one parameter of every kind, registered for these tests only (``toy_bot``)."""

    def __init__(self, **values: object) -> None:
        self.name = "toy"
        self.values = values

    def step(self, view: SeatView, rng: random.Random) -> Action | None:
        return view.legal()[0]

    def describe(self, variant: str | None = None) -> str:
        return "toy"


TOY_PARAMS = (
    number("rate", 0.5, "a number in [0, 1]"),
    number("scale", 2.0, "a number of at least 1", low=1.0, high=None),
    integer("rollouts", 100, "a whole number from 1 to 1000", low=1, high=1000),
    choice("style", "calm", ("calm", "wild"), "a name"),
    path("table", "a file"),
    policy_name("rollout", "random", "a registered bot"),
)


@pytest.fixture
def toy_bot():
    POLICIES["toy"] = Bot("toy", Toy, "a bot with a parameter of every kind", TOY_PARAMS)
    yield
    del POLICIES["toy"]


def test_values_are_read_by_their_type(toy_bot, tmp_path: Path) -> None:
    table = tmp_path / "table.json"
    table.write_text("{}")
    toy = parse_policy(f"toy:rate=.25,scale=1e3,rollouts=12,style=WILD,table={table},rollout=Threshold")
    assert isinstance(toy, Toy)
    assert toy.values == {
        "rate": 0.25,
        "scale": 1000.0,
        "rollouts": 12,
        "style": "wild",
        "table": table,
        "rollout": "threshold",
    }
    assert type(toy.values["rollouts"]) is int and type(toy.values["rate"]) is float
    defaults = parse_policy("toy")
    assert isinstance(defaults, Toy)  # every parameter is passed, a default where none is given
    assert defaults.values == {p.name: p.default for p in TOY_PARAMS}


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("toy:rollouts=2.5", "policy toy: rollouts='2.5' is not a whole number"),
        ("toy:rollouts=0", "policy toy: rollouts=0 must be between 1 and 1000"),
        ("toy:rollouts=lots", "policy toy: rollouts='lots' is not a whole number"),
        ("toy:rate=1.5", "policy toy: rate=1.5 must be between 0 and 1"),
        ("toy:rate=nan", "policy toy: rate=nan must be between 0 and 1"),
        ("toy:rate=", "policy toy: rate='' is not a number"),
        ("toy:scale=0.5", "policy toy: scale=0.5 must be at least 1"),
        ("toy:scale=inf", "policy toy: scale=inf must be at least 1"),
        ("toy:style=wlid", "policy toy: style='wlid' is not a choice (did you mean 'wild'?); choices: calm, wild"),
        ("toy:table=no/such.json", "policy toy: table='no/such.json': no such file"),
        (
            "toy:rollout=minmax",
            "policy toy: rollout='minmax' is not a policy; policies: random, threshold, search, cfr, toy",
        ),
        ("toy:rollout=randon", "policy toy: rollout='randon' is not a policy (did you mean 'random'?)"),
        ("toy:rate", "policy toy: 'rate' is not of the form key=value"),
        ("toy:rate=0.1,Rate=0.2", "policy toy: rate is given twice (rate=0.1, Rate=0.2)"),
        ("toy:rat=0.1", "policy toy has no parameter 'rat' (did you mean 'rate'?); parameters: rate, scale, rollouts"),
        (
            "tyo",
            "unknown policy 'tyo' (did you mean 'toy'?); policies: random, threshold, search, cfr, toy, "
            "or module.Class",
        ),
    ],
)
def test_a_bad_value_is_one_line_naming_the_policy_and_what_is_wrong(toy_bot, spec: str, message: str) -> None:
    with pytest.raises(PolicyError) as error:
        parse_policy(spec)
    assert str(error.value).startswith(message) and "\n" not in str(error.value)


def test_a_parameter_declaration_is_checked() -> None:
    with pytest.raises(ValueError, match="the default 'loud' is not one of its choices"):
        choice("style", "loud", ("calm", "wild"), "a name")
    with pytest.raises(ValueError, match=r"the default 2.0 is outside between 0 and 1"):
        number("rate", 2.0, "too high")
    with pytest.raises(ValueError, match="must be lowercase letters"):
        number("Rate", 0.5, "a capital")


# ---------------------------------------------------------------------------------------------- bots of one's own
BOT_MODULE = '''
"""Bots of one's own, for the tests."""

from pipeline.policies import choice, integer, number


class Cautious:
    """Plays the first legal action."""

    PARAMETERS = (
        number("care", 0.5, "how careful"),
        integer("depth", 2, "how deep", low=1),
        choice("mood", "calm", ("calm", "wild"), "a mood"),
    )

    def __init__(self, care, depth, mood):
        self.name = "cautious"
        self.care, self.depth, self.mood = care, depth, mood

    def step(self, view, rng):
        return view.legal()[0]

    def describe(self, variant=None):
        return f"cautious care={self.care:g} depth={self.depth} mood={self.mood}"


class Plain:
    name = "plain"

    def step(self, view, rng):
        return view.legal()[0]

    def describe(self, variant=None):
        return "plain"


class NoStep:
    name = "nostep"

    def describe(self, variant=None):
        return "nostep"


class Nameless:
    def step(self, view, rng):
        return None

    def describe(self, variant=None):
        return "nameless"


class Broken:
    name = "broken"

    def __init__(self):
        raise RuntimeError("no table\\nhere")

    def step(self, view, rng):
        return None

    def describe(self, variant=None):
        return "broken"


class BadParameters:
    PARAMETERS = {"care": 0.5}
    name = "bad"

    def step(self, view, rng):
        return None

    def describe(self, variant=None):
        return "bad"


helper = 3
'''


@pytest.fixture
def user_bots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A package ``mybots_<test>`` of bots of one's own, importable from ``tmp_path``."""
    package = f"mybots_{abs(hash(str(tmp_path))) % 10**8}"
    (tmp_path / package).mkdir()
    (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / package / "bots.py").write_text(textwrap.dedent(BOT_MODULE))
    (tmp_path / package / "broken_module.py").write_text("def oops(:\n")
    (tmp_path / package / "needs_more.py").write_text("import a_package_nobody_has\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield package
    for name in [m for m in sys.modules if m.startswith(package)]:
        del sys.modules[name]


def test_a_class_of_ones_own_takes_its_typed_parameters(user_bots: str) -> None:
    bot = parse_policy(f"{user_bots}.bots.Cautious:care=0.9,depth=3,MOOD=Wild")
    assert bot.describe("catalan") == "cautious care=0.9 depth=3 mood=wild"
    assert parse_policy(f"{user_bots}.bots.Cautious").describe() == "cautious care=0.5 depth=2 mood=calm"
    assert parse_policy(f"{user_bots}.bots.Plain").describe() == "plain"  # no PARAMETERS: no parameters
    # the simulator's warnings: a class without a per-variant table reads every parameter it declares
    assert unread_parameters(f"{user_bots}.bots.Cautious:care=0.9", "trut") == ([], ())
    config = VARIANTS["catalan"].configure({"players": "2"})
    game, _ = play_game(config, [parse_policy(f"{user_bots}.bots.Plain"), parse_policy("threshold")], game_seed(1, 1))
    assert game.over


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("bots.Cautious:care=2", "policy {p}.bots.Cautious: care=2 must be between 0 and 1"),
        ("bots.Cautious:depth=1.5", "policy {p}.bots.Cautious: depth='1.5' is not a whole number"),
        ("bots.Cautious:cares=1", "policy {p}.bots.Cautious has no parameter 'cares' (did you mean 'care'?)"),
        ("bots.Plain:x=1", "policy {p}.bots.Plain has no parameter 'x'; parameters: none (a class declares its"),
        ("nowhere.Bot", "policy {p}.nowhere.Bot: no module named '{p}.nowhere' (searched the installed"),
        ("bots.Cautius", "policy {p}.bots.Cautius: module {p}.bots has no class 'Cautius' (did you mean 'Cautious'?)"),
        ("bots.helper", "policy {p}.bots.helper: helper is not a class (it is a int)"),
        ("bots.NoStep", "policy {p}.bots.NoStep is not a policy: it has no step method (a policy has name, step("),
        ("bots.Nameless", "policy {p}.bots.Nameless is not a policy: it has no name (a str attribute)"),
        ("bots.Broken", "policy {p}.bots.Broken: building it failed: RuntimeError: no table here"),
        ("bots.BadParameters", "policy {p}.bots.BadParameters: PARAMETERS must be a tuple of pipeline.policies.Param"),
        ("broken_module.Bot", "policy {p}.broken_module.Bot: importing {p}.broken_module failed: SyntaxError: "),
        ("needs_more.Bot", "failed: ModuleNotFoundError: No module named 'a_package_nobody_has'"),
        ("bots.", "policy '{p}.bots.' is not of the form module.Class"),
    ],
)
def test_a_bad_class_of_ones_own_is_one_line_saying_what_is_wrong(user_bots: str, target: str, message: str) -> None:
    with pytest.raises(PolicyError) as error:
        parse_policy(f"{user_bots}.{target}")
    assert message.format(p=user_bots) in str(error.value) and "\n" not in str(error.value)


def test_a_module_of_ones_own_is_found_in_the_current_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``truc`` runs from its script's folder, not the user's: the current folder is searched too, last."""
    (tmp_path / "here_bots_for_test.py").write_text(textwrap.dedent(BOT_MODULE))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    try:
        assert parse_policy("here_bots_for_test.Plain").describe() == "plain"
        assert sys.path[-1] == str(tmp_path)
    finally:
        sys.modules.pop("here_bots_for_test", None)


# ---------------------------------------------------------------------------------------------- truc policies
def test_truc_policies_prints_one_line_per_parameter_with_its_type_range_default_meaning_and_readers() -> None:
    result = runner.invoke(app, ["policies"])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines == policy_lines()
    assert lines[0].startswith("random: uniform over the legal actions") and lines[0].endswith("; no parameters")
    assert lines[1].startswith("threshold: raises, calls and holds")
    parameter_lines = lines[2 : 2 + len(PARAMETERS)]
    for param, line in zip(PARAMETERS, parameter_lines, strict=True):
        name, rest = line.split(None, 1)
        assert name == param.name and rest.startswith(param.kind_text() + ", default ")
        readers = [v for v in VARIANTS if param.name in PARAMS_BY_VARIANT[v]]
        assert rest.endswith("; read in " + ("every variant" if len(readers) == len(VARIANTS) else ", ".join(readers)))
        assert param.meaning in rest
    assert parameter_lines[0].split(None, 1)[1] == (
        "number in [0, 1], default 0.7: raise when the effective strength is at least this; read in catalan, french, "
        "valencian"
    )
    assert "name highest|lowest|cheapest_winning, default highest: the card to lead" in parameter_lines[-2]
    assert lines[-1].startswith("module.Class: a bot of your own")


def test_every_variant_reads_the_card_play() -> None:
    for variant in VARIANTS:
        assert {"lead", "follow"} <= set(PARAMS_BY_VARIANT[variant])
    assert read_spec("threshold:lead=lowest").given == {"lead": "lowest"}


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("threshold:lead=middle", "error: policy threshold: lead='middle' is not a choice; choices: highest, lowest, "),
        ("threshold:raise_at=2", "error: policy threshold: raise_at=2 must be between 0 and 1\n"),
        ("no_such_module_here.Bot", "error: policy no_such_module_here.Bot: no module named 'no_such_module_here'"),
    ],
)
def test_a_bad_spec_on_the_command_line_is_one_line_and_exit_code_1(tmp_path: Path, spec: str, message: str) -> None:
    result = runner.invoke(app, ["simulate", "--games", "2", "--policy", spec, "--out", str(tmp_path / "d"), "--quiet"])
    assert result.exit_code == 1
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1
    assert not (tmp_path / "d").exists()
