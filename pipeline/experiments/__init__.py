"""Strategy experiments (issue 23): policies played against each other on the same cards, and the statistics
that say which is better.

- ``pipeline.experiments.analysis``: the pure statistics (numbers in, dataclasses out): a paired match's win
  rate, interval, test and verdict; a tournament's Bradley-Terry ratings with bootstrap intervals, its
  meta-game (the maximum-entropy Nash mixture) and each entrant's best-response margin; the pairs needed to
  resolve a given difference.
"""
