"""Truc Lab: rules engine, simulator, importer, statistics and reports for the Truc family of card games."""

from importlib.metadata import PackageNotFoundError, version

from pipeline import accel  # noqa: F401  (first: it decides whether the compiled modules may load)

try:
    __version__ = version("truc-lab")
except PackageNotFoundError:  # running from a source tree that was not installed
    __version__ = "0.0.0"
