"""The report layer: statistics frames turned into charts, written findings and one offline HTML page.

- ``pipeline.report.charts``: one pure chart function per statistic (``CHARTS``), DataFrame in, chart out.
- ``pipeline.report.summary``: one pure function per statistic (``SUMMARIES``) writing short findings.
- ``pipeline.report.page``: ``build_report(data, out)`` (computes the statistics and writes the folder)
  and ``render_page(frames, manifests, out)`` (writes it from frames already computed).
- ``pipeline.report.frames``: the column contract the report expects and the shared wording helpers.

Nothing is imported here, so ``import pipeline.report`` stays cheap; import the submodule you need.
"""
