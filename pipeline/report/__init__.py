"""The report layer: statistics frames turned into charts, written findings and one offline HTML page.

- ``pipeline.report.charts``: one pure chart function per statistic, DataFrame in, chart out; ``CHARTS`` maps
  each statistic to the function its registry entry names (``pipeline.statistics``, ``Statistic.chart``).
- ``pipeline.report.summary``: one pure function per statistic writing short findings; ``SUMMARIES`` maps
  each statistic to the function its entry names (``Statistic.summary``).
- ``pipeline.report.page``: ``build_report(data, out)`` (computes the statistics and writes the folder)
  and ``render_page(frames, manifests, out)`` (writes it from frames already computed).
- ``pipeline.report.frames``: the column contract the report expects (the registry's columns and types) and
  the shared wording helpers.

Each statistic's title, definition and part of the page are its registry entry's too.

Nothing is imported here, so ``import pipeline.report`` stays cheap; import the submodule you need.
"""
