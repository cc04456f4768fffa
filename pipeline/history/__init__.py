"""Hand histories as `.truc` text (FORMAT.md; docs/format.md): a tolerant reader that replays every game
through the engine, a canonical writer, and the import/export entry points over a dataset."""

from pipeline.history.io import (
    CheckResult,
    ImportResult,
    check_files,
    export_dataset,
    import_files,
    load_text,
    read_file,
    record_text,
)
from pipeline.history.reader import (
    ActionLine,
    DealLine,
    EndLine,
    GameRecord,
    HandLine,
    HistoryError,
    ReadResult,
    ReplayVisitor,
    TagLine,
    Visitor,
    parse,
    read_text,
)
from pipeline.history.writer import HandText, format_game, hand_from_record, join_games

__all__ = [
    "ActionLine",
    "CheckResult",
    "DealLine",
    "EndLine",
    "GameRecord",
    "HandLine",
    "HandText",
    "HistoryError",
    "ImportResult",
    "ReadResult",
    "ReplayVisitor",
    "TagLine",
    "Visitor",
    "check_files",
    "export_dataset",
    "format_game",
    "hand_from_record",
    "import_files",
    "join_games",
    "load_text",
    "parse",
    "read_file",
    "read_text",
    "record_text",
]
