"""``article.md``: the report as Markdown that a blog or a paper can take as it is. Pure functions, no I/O.

It says what the page says, in the same words and from the same objects (``page.Story``): the title, the
experiments' verdicts, the summary's findings (numbered, each with its number, interval and sample size, a
bot's design said as such), **Methods** (a table of the runs and how intervals are computed), **Results** (each
statistic's definition, its chart as the PNG file ``charts/NAME.png``, linked relatively so that the folder
moves whole, and its findings in view), and **Caveats**. The tables of numbers and the manifests stay on the
page.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from pipeline.report.claims import Claim
from pipeline.report.context import Caveat, Run, methods_table

ARTICLE: Final = "article.md"
"""The article's file name, beside ``index.html``."""

METHODS_TEXT: Final = (
    "Rates come with 95% intervals (Wilson's over hands or games; a match's over its pairs, as truc match "
    "computed them) and the counts they rest on. A difference of two rates is in percentage points (pp), its "
    "interval combining the two. Points are counted in each variant's own unit (points in catalan and french, "
    "stones in valencian, petits in the trut family, where a long counts 3) and never compared across variants."
)
"""How the report's numbers are computed, as Methods say it (the page and the article)."""


@dataclass(frozen=True)
class Result:
    """A statistic's part of Results: its title, definition, chart name (None: nothing drawn) and the findings
    in view on the page."""

    title: str
    definition: str
    chart: str | None
    sentences: list[str]


def _cell(text: str) -> str:
    """Text safe in a Markdown table cell: no pipe, no line break."""
    return text.replace("|", "\\|").replace("\n", " ")


def _image(name: str, alt: str) -> str:
    return f"![{_cell(alt)}](charts/{name}.png)"


def markdown(
    title: str,
    verdicts: Sequence[str],
    summary: Sequence[Claim],
    runs: Sequence[Run],
    results: Sequence[Result],
    caveats: Sequence[Caveat],
    notes: Sequence[str],
    headline_charts: Sequence[str],
    tables: Sequence[tuple[str, Sequence[str], Sequence[Sequence[str]]]] = (),
) -> str:
    """The article, from the page's own pieces; ``tables`` (title, headers, rows) open its Results (an
    experiment's main table)."""
    lines = [f"# {title}", ""]
    lines += [f"**{verdict}**\n" for verdict in verdicts]
    lines += ["## Summary", ""]
    if summary:
        lines += [f"{k}. {claim.sentence}" for k, claim in enumerate(summary, 1)]
    else:
        lines.append("No finding clears its interval: with these samples no figure the summary ranks is told apart "
                     "from its null.")  # fmt: skip
    lines.append("")
    lines += [
        _image(name, "Games won, per policy" if name == "games_won" else f"The {name}") for name in headline_charts
    ]
    lines += ["", "## Methods", "", METHODS_TEXT, ""]
    head, rows, shared = methods_table(runs)
    if rows:
        lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for row in rows:
            cells = ["<br>".join(cell) if isinstance(cell, list) else cell for cell in row]
            lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
        lines.append("")
        lines += [f"{line}.  " for line in shared]
        lines.append("")
    lines += ["## Results", ""]
    for caption, titles, body in tables:
        lines += [f"### {caption}", "", "| " + " | ".join(_cell(h) for h in titles) + " |", "|" + "---|" * len(titles)]
        lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in body]
        lines.append("")
    for result in results:
        lines += [f"### {result.title}", "", f"*{result.definition}*", ""]
        if result.chart:
            lines += [_image(result.chart, result.title), ""]
        lines += [f"- {sentence}" for sentence in result.sentences]
        lines.append("")
    lines += ["## Caveats", ""]
    said = [c.text for c in caveats] + [f"Note: {note}." for note in notes]
    lines += [f"- {text}" for text in said] or ["None of the report's checks applies to these datasets."]
    lines.append("")
    return "\n".join(lines)
