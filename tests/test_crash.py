"""The crash suite: ``kill -9`` at random moments of ``simulate``, ``import``, ``report`` and ``export``, new
outputs and ``--overwrite`` alike, then the output is absent or whole (it reads in full; an output being
replaced is never absent: the old one or the new one is there) and the next run succeeds, leaving no
temporary output behind.

``make test`` runs a short sample (``KILLS_IN_A_SAMPLE`` kills). ``make crash`` runs at least 200
(``TRUC_CRASH_KILLS=200``), with the report among the commands killed. Every random choice flows from
``TRUC_CRASH_SEED`` (26 unless set). The kill is SIGKILL to the command's main process, as the kernel's
out-of-memory killer sends it; its workers are then killed too, as a test cannot leave processes behind.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from pipeline import parts, store

KILLS_IN_A_SAMPLE = 4
KILLS = int(os.environ.get("TRUC_CRASH_KILLS", KILLS_IN_A_SAMPLE))
SEED = int(os.environ.get("TRUC_CRASH_SEED", "26"))
LONG_RUN = KILLS > KILLS_IN_A_SAMPLE

OLD_SEED, NEW_SEED = 1, 2
"""The seed of the output a run replaces, and of the run's own: a whole output is one or the other."""

GAMES = 500 if LONG_RUN else 200
FIRST_DELAY = (1.0, 3.0)
"""Seconds before the first kill of a command, drawn between these: later kills fall within the time its
last whole run took."""


@dataclass
class Scenario:
    """One command that writes ``out``; ``replaces``: it replaces an existing output (``--overwrite``, or a
    report, which replaces one by default), which is there before it runs once it has run."""

    name: str
    args: list[str]
    kind: str  # "dataset", "report" or "file"
    replaces: bool
    env: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0  # how long its last whole run took (0 before one ran)


def _command(args: list[str]) -> list[str]:
    return [sys.executable, "-c", "from pipeline.cli import main; main()", *args]


def _run(args: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        _command(args), capture_output=True, text=True, timeout=600, env={**os.environ, **(env or {})}, check=False
    )
    assert result.returncode == 0, f"{args}: {result.stderr}"
    return result


def _whole_dataset(out: Path, seeds: set[int]) -> None:
    """``out`` reads in full: the checks, every table read whole with the rows its manifest counts, and the
    seed of one of the runs that may have written it."""
    store.check_dataset(out)
    manifest = store.read_manifest(out)
    assert manifest["kind"] == store.IMPORT or manifest["seed"] in seeds
    for table in store.TABLES:
        assert parts.read_table(out, table).num_rows == manifest["rows"][table]


def _whole_report(out: Path) -> None:
    page = (out / "index.html").read_text("utf-8")
    assert page.rstrip().endswith("</html>")
    charts = set(re.findall(r'charts/([a-z_]+\.(?:png|svg))"', page))
    assert {path.name for path in (out / "charts").iterdir()} >= charts
    assert all((out / "charts" / name).stat().st_size > 0 for name in charts)


class Crashes:
    """The outputs of the scenarios, in one folder, and what a whole one holds."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.data = folder / "data"  # the dataset the report, the export and the import read
        self.history = folder / "games.truc"
        _run(["simulate", "--games", str(GAMES), "--seed", str(OLD_SEED), "--quiet", "--out", str(self.data)])
        _run(["export", "--data", str(self.data), "--out", str(self.history), "--quiet"])
        self.export_text = self.history.read_text("utf-8")

    def scenarios(self) -> list[Scenario]:
        out = str(self.folder / "out")
        simulate = ["simulate", "--games", str(GAMES), "--workers", "2", "--seed", str(NEW_SEED), "--quiet"]
        found = [
            Scenario("simulate", [*simulate, "--out", out + "-simulate"], "dataset", False),
            Scenario("simulate --overwrite", [*simulate, "--out", out + "-simulate-o", "--overwrite"], "dataset", True),
            Scenario(
                "simulate --overwrite, two moves",
                [*simulate, "--out", out + "-simulate-m", "--overwrite"],
                "dataset",
                True,
                {"TRUC_NO_EXCHANGE": "1"},
            ),
            Scenario(
                "import --overwrite",
                ["import", str(self.history), "--quiet", "--out", out + "-import", "--overwrite"],
                "dataset",
                True,
            ),  # fmt: skip
            Scenario(
                "export --overwrite",
                ["export", "--data", str(self.data), "--quiet", "--out", out + ".truc", "--overwrite"],
                "file",
                True,
            ),  # fmt: skip
        ]
        if LONG_RUN:
            found += [
                Scenario(
                    "import", ["import", str(self.history), "--quiet", "--out", out + "-import-n"], "dataset", False
                ),
                Scenario(
                    "report", ["report", "--data", str(self.data), "--quiet", "--out", out + "-report"], "report", True
                ),  # fmt: skip
            ]
        return found

    def out(self, scenario: Scenario) -> Path:
        return Path(scenario.args[scenario.args.index("--out") + 1])

    def prepare(self, scenario: Scenario) -> None:
        """The output as the scenario finds it: absent, or one written before (with ``OLD_SEED``)."""
        out = self.out(scenario)
        if not scenario.replaces:
            if out.exists():
                subprocess.run(["rm", "-rf", str(out)], check=True)
            return
        if scenario.kind == "dataset" and not out.exists():
            if scenario.name.startswith("import"):
                _run(["import", str(self.history), "--quiet", "--out", str(out)])
            else:
                _run(["simulate", "--games", "3", "--seed", str(OLD_SEED), "--quiet", "--out", str(out)])

    def check_whole_or_absent(self, scenario: Scenario, existed: bool) -> None:
        """The output is whole, or absent when there was none before the run (``existed``)."""
        out = self.out(scenario)
        if scenario.kind == "dataset":
            if existed or out.exists():  # reading puts back a dataset that a kill left aside
                _whole_dataset(out, {OLD_SEED, NEW_SEED})
        elif scenario.kind == "report":
            if existed or out.exists():
                _whole_report(out)
        elif existed or out.exists():
            assert out.read_text("utf-8") in (self.export_text, "an older export\n")


def _kill_at(scenario: Scenario, delay: float) -> bool:
    """Run the scenario and SIGKILL it after ``delay`` seconds; False when it ended first (its time is then
    the scenario's ``seconds``)."""
    started = time.monotonic()
    process = subprocess.Popen(
        _command(scenario.args),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
        env={**os.environ, **scenario.env},
    )
    try:
        process.wait(timeout=delay)
    except subprocess.TimeoutExpired:
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        return True
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)  # the workers of a run killed in the middle
        assert process.stderr is not None
        errors = process.stderr.read().decode()
        process.stderr.close()
    assert process.returncode == 0, f"{scenario.name}: {errors}"
    scenario.seconds = time.monotonic() - started
    return False


def _no_temporary_left(folder: Path) -> None:
    left = [path.name for path in folder.iterdir() if path.name.startswith(".")]
    assert left == [], left


def test_kill_9_at_random_moments_leaves_the_output_absent_or_whole(tmp_path: Path) -> None:
    crashes = Crashes(tmp_path)
    scenarios = crashes.scenarios()
    draw = random.Random(SEED)
    kills = ended = 0
    tally: dict[str, int] = {}
    while kills < KILLS:
        scenario = draw.choice(scenarios) if LONG_RUN else scenarios[kills % len(scenarios)]
        crashes.prepare(scenario)
        if scenario.kind == "file" and not crashes.out(scenario).exists():
            crashes.out(scenario).write_text("an older export\n", "utf-8")
        existed = crashes.out(scenario).exists()
        delay = draw.uniform(0.2, 1.05) * scenario.seconds if scenario.seconds else draw.uniform(*FIRST_DELAY)
        if not _kill_at(scenario, delay):
            ended += 1
            crashes.check_whole_or_absent(scenario, existed)
            continue
        kills += 1
        tally[scenario.name] = tally.get(scenario.name, 0) + 1
        if LONG_RUN:
            print(f"kill {kills}/{KILLS}: {scenario.name} after {delay:.1f} s", flush=True)
        crashes.check_whole_or_absent(scenario, existed)
        started = time.monotonic()
        _run(scenario.args if scenario.replaces else [*scenario.args, "--overwrite"], scenario.env)
        scenario.seconds = time.monotonic() - started
        crashes.check_whole_or_absent(scenario, existed=True)
        _no_temporary_left(tmp_path)
    print(f"\ncrash suite: {kills} kills, 0 failures, {ended} runs ended before their kill; seed {SEED}; {tally}")
