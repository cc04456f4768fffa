"""Charts as files and the page's chart libraries: vl-convert's work, done once per chart and once per version.

A report draws each chart twice, as an SVG and as a PNG, and inlines Vega, Vega-Lite and vega-embed once in
its page. vl-convert does both in its own JavaScript runtime, one call at a time (its calls do not run side by
side in threads), so what costs is counted here:

- a PNG is the SVG rasterised: vl-convert's ``vegalite_to_png`` runs Vega again to draw the very SVG that
  ``vegalite_to_svg`` returned, then rasterises it. ``chart_files`` draws the SVG once and rasterises that
  (``svg_to_png``), the same bytes for a third less work;
- the libraries' bundle is the same text for one vl-convert and Vega-Lite version, but bundling it costs about
  1.5 CPU seconds: ``bundle`` keeps it in the cache folder (``strength.cache_folder``, by default
  ``~/.cache/truc-lab``) under a name made of those versions and reads it back; where the cache cannot be
  written the report still works, bundling each time;
- one process draws one chart at a time, so ``Drawing`` draws them in ``DRAWING_WORKERS`` worker processes,
  each writing a chart's files itself, while the report goes on (its statistics, the next chart's spec): about
  half the drawing's wall time on two cores. A worker's runtime loads Vega-Lite once (about a CPU second),
  when it starts, so ``build_report`` starts its workers before its statistics, and each chart is drawn as
  soon as its statistic is computed, on the core DuckDB leaves idle (it keeps about 1.5 of 2 busy on small
  data). The cost is memory: the workers' (about 200 to 270 MB each) comes on top of DuckDB's (docs/speed.md).
  Where no worker can be started (``spawn_refusal``: a user who may not run the Python interpreter, as nobody
  under ``setpriv`` with an interpreter under ``/root``), the report draws its charts itself, one at a time: the
  same files, more slowly.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import multiprocessing
import multiprocessing.connection
import multiprocessing.spawn
import os
import re
import signal
import threading
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from types import TracebackType
from typing import Any, Final

import vl_convert as vlc

from pipeline.interrupts import STOP_SIGNALS, stop_signals_held
from pipeline.workers import WorkerDied

PNG_SCALE = 2
"""The PNG files' pixels per SVG pixel: sharp on a high-density screen and in print."""

PNG_MAX_PIXELS = 8_000_000
"""The most pixels a chart's PNG holds: a chart several screens tall is rasterised at the largest scale that
keeps within it (never below 1, ``png_scale``). At ``PNG_SCALE`` such a chart made a PNG of 20 megapixels and
5 MB, and its rasterising was a quarter of a report's CPU time."""

GLOBALS_SNIPPET = "window.vegaEmbed = vegaEmbed;\nwindow.vega = vega;\nwindow.vegaLite = vegaLite;\n"
"""vl-convert's default bundle snippet, spelled out: the three libraries as globals for the page."""


def vegalite_version() -> str | None:
    """The Vega-Lite version Altair writes (``v6.4.1`` -> ``6.4``) if vl-convert has it, else its default."""
    import altair as alt  # here: a drawing worker imports this module, and needs no Altair

    major_minor = ".".join(alt.SCHEMA_VERSION.lstrip("v").split(".")[:2])
    return major_minor if major_minor in vlc.get_vegalite_versions() else None


def chart_files(spec: dict[str, Any], vl_version: str | None) -> tuple[str, bytes]:
    """A Vega-Lite spec drawn as an SVG document and that SVG rasterised as a PNG at ``png_scale``."""
    svg: str = vlc.vegalite_to_svg(spec, vl_version=vl_version)
    png: bytes = vlc.svg_to_png(svg, scale=png_scale(svg))
    return svg, png


_SVG_SIZE = re.compile(r'<svg[^>]*?\swidth="([0-9.]+)"[^>]*?\sheight="([0-9.]+)"')


def png_scale(svg: str) -> float:
    """``PNG_SCALE``, or less for a chart whose PNG would hold more than ``PNG_MAX_PIXELS``: the largest scale
    within them, never below 1 (an SVG whose size cannot be read keeps ``PNG_SCALE``)."""
    size = _SVG_SIZE.search(svg[:1000])
    if size is None:
        return PNG_SCALE
    area = float(size[1]) * float(size[2])
    if area * PNG_SCALE * PNG_SCALE <= PNG_MAX_PIXELS:
        return PNG_SCALE
    return max(1.0, math.floor(math.sqrt(PNG_MAX_PIXELS / area) * 100) / 100)


def bundle(vl_version: str | None, cache: Path | None = None) -> str:
    """Vega, Vega-Lite and vega-embed as one script defining them as globals (``GLOBALS_SNIPPET``), read from
    ``cache`` (by default the project's cache folder) when an earlier report bundled the same versions."""
    from pipeline.strength import cache_folder  # the one cache folder of the project

    folder = cache if cache is not None else cache_folder()
    versions = (getattr(vlc, "__version__", ""), vl_version, vlc.get_vega_version(), vlc.get_vega_embed_version())
    key = "|".join(map(str, (*versions, GLOBALS_SNIPPET)))
    path = folder / f"vega-bundle-{hashlib.blake2b(key.encode(), digest_size=8).hexdigest()}.js"
    with contextlib.suppress(OSError, UnicodeDecodeError):
        return path.read_text("utf-8")
    text: str = vlc.javascript_bundle(GLOBALS_SNIPPET, vl_version=vl_version)
    with contextlib.suppress(OSError):  # a read-only or missing home: no cache, the same page
        folder.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f".{path.name}.{os.getpid()}")
        partial.write_text(text, "utf-8")
        partial.replace(path)  # whole or absent: a report running beside this one never reads half a bundle
    return text


DRAWING_WORKERS: Final = 2
"""Processes that draw a report's charts (``Drawing``): the machine's two cores."""

_WARM_UP: Final = {
    "data": {"values": [{"x": 1}]},
    "mark": "point",
    "encoding": {"x": {"field": "x", "type": "quantitative"}},
}
"""A chart a worker draws when it starts, to load Vega-Lite into its runtime before the report's first chart."""


def spawn_refusal() -> str | None:
    """Why no worker process can be spawned here, or None when one can. A spawned process runs the Python
    interpreter anew (``multiprocessing.spawn.get_executable()``), as does multiprocessing's resource tracker,
    which the first spawned worker starts: a user who may not run that file (nobody under ``setpriv``, which
    starts the interpreter with root's rights to search ``/root``, where pyenv keeps it) saw the tracker's
    start fail, its pipe break under the report (``BrokenPipeError``) and the workers die."""
    executable = multiprocessing.spawn.get_executable()  # bytes in some versions of Python
    if not executable:
        return None
    effective = os.access in os.supports_effective_ids  # exec checks the effective ids
    if os.access(executable, os.X_OK, effective_ids=effective):
        return None
    return f"this user may not run the Python interpreter {os.fsdecode(executable)}, so no worker can be started"


class Drawing:
    """The charts of a report drawn as files (``chart_files``) in ``DRAWING_WORKERS`` processes: ``draw`` hands a
    chart over and returns at once, ``finish`` waits until every chart handed over is written. Used as a
    context manager: leaving it on an error or an interrupt ends the workers at once.

    The workers are spawned (not forked: the report's process runs DuckDB's and polars' threads), ignore Ctrl-C
    (which a terminal sends to every process of the command: the report alone stops, and says so once) and each
    draws one chart at a time. They write the files themselves and send back nothing, so that no chart's megabytes
    go through a pipe (a worker killed in the middle of sending left its reader waiting, ``pipeline.workers``).

    Where the workers cannot be started (``spawn_refusal``, or an ``OSError`` while starting them), or with
    ``workers=0``, ``draw`` draws the chart itself before it returns, and ``alone`` says why."""

    def __init__(self, vl_version: str | None, workers: int = DRAWING_WORKERS) -> None:
        self.vl_version = vl_version
        self._pending: list[Future[None]] = []
        self._executor: ProcessPoolExecutor | None = None
        self.alone: str | None = "no drawing workers asked for" if workers < 1 else spawn_refusal()
        if self.alone is not None:
            return
        try:
            with stop_signals_held():  # no interrupt in the middle of starting a process
                self._executor = ProcessPoolExecutor(
                    workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_start_worker,
                    initargs=(vl_version,),
                )
                for _ in range(workers):  # the executor starts a worker per submission: each starts loading now
                    self._pending.append(self._executor.submit(_ready))
        except OSError as exc:  # e.g. the resource tracker's pipe broken: it could not start
            self.stop()
            self._executor = None
            self._pending.clear()
            self.alone = f"the drawing workers could not be started: {exc.strerror or exc}"

    def draw(self, spec: dict[str, Any], svg: Path, png: Path) -> None:
        """Draw the Vega-Lite ``spec`` into the files ``svg`` and ``png`` in a worker, soon (here, now, when no
        worker could be started)."""
        if self._executor is None:  # no worker: drawn here
            _draw_files(spec, self.vl_version, str(svg), str(png))
            return
        try:
            self._pending.append(self._executor.submit(_draw_files, spec, self.vl_version, str(svg), str(png)))
        except BrokenProcessPool:
            raise _died() from None

    def finish(self) -> None:
        """Wait until every chart handed over is written; ``WorkerDied`` when a worker died, and the error of a
        chart that could not be drawn."""
        try:
            for future in self._pending:
                future.result()
        except BrokenProcessPool:
            raise _died() from None
        self._pending.clear()

    def __enter__(self) -> Drawing:
        return self

    def stop(self) -> None:
        """End the workers at once (the charts not drawn yet are not wanted), and wait until they are gone, so
        that none writes a file afterwards."""
        if self._executor is None:
            return
        processes = list((getattr(self._executor, "_processes", None) or {}).values())
        for process in processes:
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join(timeout=10)
        self._executor.shutdown(wait=True, cancel_futures=True)

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if kind is not None:
            self.stop()
        if self._executor is not None:
            self._executor.shutdown(wait=True)


def _died() -> WorkerDied:
    return WorkerDied(
        "a process drawing the charts died before it finished (killed by the system: out of memory, or a signal); "
        "nothing was written"
    )


def _start_worker(vl_version: str | None) -> None:
    """A drawing worker leaves Ctrl-C to the report (``Drawing``), ends with it (``_end_with_the_report``) and
    loads Vega-Lite into its runtime."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
    threading.Thread(target=_end_with_the_report, name="truc-report-watch", daemon=True).start()
    vlc.vegalite_to_svg(_WARM_UP, vl_version=vl_version)


def _end_with_the_report() -> None:
    """In a worker: end it when the report's process is gone. A report killed at once (``kill -9``) cannot end
    its workers, and each holds a copy of the executor's pipes, so none reads the end of its input: they would
    wait for charts for ever."""
    parent = multiprocessing.parent_process()
    if parent is not None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(1)


def _ready() -> None:
    """Nothing: handed to each worker as it starts, so that it starts before the first chart."""


def _draw_files(spec: dict[str, Any], vl_version: str | None, svg_path: str, png_path: str) -> None:
    """In a worker: ``spec``'s SVG and PNG (``chart_files``) written to those paths."""
    svg, png = chart_files(spec, vl_version)
    Path(png_path).write_bytes(png)
    Path(svg_path).write_text(svg, "utf-8")
