"""pipeline.report.render: a chart's PNG is its SVG rasterised, and the page's Vega bundle is kept by version."""

from __future__ import annotations

from pathlib import Path

import vl_convert as vlc

from pipeline.report import render

SPEC = {
    "$schema": "https://vega.github.io/schema/vega-lite/v6.json",
    "data": {"values": [{"a": "x", "b": 1}, {"a": "y", "b": 2}]},
    "mark": "bar",
    "encoding": {"x": {"field": "a", "type": "nominal"}, "y": {"field": "b", "type": "quantitative"}},
}


def test_the_png_is_the_svg_rasterised_as_vl_convert_draws_it() -> None:
    version = render.vegalite_version()
    svg, png = render.chart_files(SPEC, version)
    assert svg.startswith("<svg") and png.startswith(b"\x89PNG")
    assert png == vlc.vegalite_to_png(SPEC, vl_version=version, scale=render.PNG_SCALE)  # the same bytes


def test_the_bundle_is_kept_in_the_cache_and_read_back(tmp_path: Path) -> None:
    version = render.vegalite_version()
    first = render.bundle(version, tmp_path)
    assert "vegaEmbed" in first
    (kept,) = tmp_path.glob("vega-bundle-*.js")
    assert kept.read_text("utf-8") == first and not list(tmp_path.glob(".*"))  # whole, no partial file left
    kept.write_text("window.fromTheCache = true;", "utf-8")
    assert render.bundle(version, tmp_path) == "window.fromTheCache = true;"  # read, not bundled again


def test_a_cache_that_cannot_be_written_still_gives_the_bundle(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    assert "vegaEmbed" in render.bundle(render.vegalite_version(), blocked / "cache")


def _png_size(png: bytes) -> tuple[int, int]:
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")


def test_a_chart_several_screens_tall_is_rasterised_within_the_pixel_budget() -> None:
    version = render.vegalite_version()
    small_svg, small_png = render.chart_files(SPEC, version)
    width, height = _png_size(small_png)
    assert render.png_scale(small_svg) == render.PNG_SCALE and width * height <= render.PNG_MAX_PIXELS
    tall = {**SPEC, "width": 800, "height": 6000}
    svg, png = render.chart_files(tall, version)
    scale = render.png_scale(svg)
    assert 1 <= scale < render.PNG_SCALE
    width, height = _png_size(png)
    assert width * height <= render.PNG_MAX_PIXELS < width * height * ((scale + 0.02) / scale) ** 2  # the largest fit
    assert render.png_scale('<svg width="100000" height="100000">') == 1  # never below the SVG's own size
