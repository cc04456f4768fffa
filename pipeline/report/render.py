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
  written the report still works, bundling each time.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from pathlib import Path
from typing import Any

import altair as alt
import vl_convert as vlc

PNG_SCALE = 2
"""The PNG files' pixels per SVG pixel: sharp on a high-density screen and in print."""

GLOBALS_SNIPPET = "window.vegaEmbed = vegaEmbed;\nwindow.vega = vega;\nwindow.vegaLite = vegaLite;\n"
"""vl-convert's default bundle snippet, spelled out: the three libraries as globals for the page."""


def vegalite_version() -> str | None:
    """The Vega-Lite version Altair writes (``v6.4.1`` -> ``6.4``) if vl-convert has it, else its default."""
    major_minor = ".".join(alt.SCHEMA_VERSION.lstrip("v").split(".")[:2])
    return major_minor if major_minor in vlc.get_vegalite_versions() else None


def chart_files(spec: dict[str, Any], vl_version: str | None) -> tuple[str, bytes]:
    """A Vega-Lite spec drawn as an SVG document and that SVG rasterised as a PNG at ``PNG_SCALE``."""
    svg: str = vlc.vegalite_to_svg(spec, vl_version=vl_version)
    png: bytes = vlc.svg_to_png(svg, scale=PNG_SCALE)
    return svg, png


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
