"""Stored game records in tests/ and docs/, and the check that one replays and is written back byte
for byte (the engines' refactors keep every stored game: issue 31)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tablelight.core.game import Game

ROOT = Path(__file__).resolve().parents[1]


def records_of(game: str) -> list[Path]:
    """Every JSON file under tests/ and docs/ that is a record (header and log) of ``game``."""
    found = []
    for folder in (ROOT / "tests", ROOT / "docs"):
        for path in sorted(folder.rglob("*.json")):
            try:
                data = json.loads(path.read_text())
            except (ValueError, UnicodeDecodeError):
                continue
            if isinstance(data, dict) and data.get("game") == game and "log" in data:
                found.append(path)
    return found


def written_as(original: str, record: dict[str, Any]) -> str:
    """``record`` written in the stored file's own style (compact as ``save`` writes, or
    ``json.dumps``' default spacing), with the file's trailing newline."""
    compact = original.lstrip().startswith('{"game":"')
    text = json.dumps(record, separators=(",", ":")) if compact else json.dumps(record)
    return text + ("\n" if original.endswith("\n") else "")


def replayed_and_written(path: Path) -> tuple[str, str]:
    """The stored text and the record its replay writes back in the same style. An option added
    after the record was written is stored as its default (or a format's reading of its day) and
    left out here; the rest must be as it was."""
    original = path.read_text()
    record = Game.load(original).to_record()
    stored = json.loads(original)
    for name in set(record["options"]) - set(stored["options"]):
        del record["options"][name]
    return original, written_as(original, record)
