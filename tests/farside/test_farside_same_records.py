"""The engine's outputs do not move: every stored Farside record in tests/ and docs/ replays and is
written back byte for byte, and seeded games (random, tactician and search bots, the game's options,
dice modes and record formats) give the record, listings, views and face the engine gave before it
became a position plus rule functions (``seeded-digests.json``, taken from it; see ``seeded.py``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tablelight.core.game import Game

from .seeded import CASES, DIGESTS, play

ROOT = Path(__file__).resolve().parents[2]


def farside_records() -> list[Path]:
    """Every JSON file under tests/ and docs/ that is a Farside record (header and log)."""
    found = []
    for folder in (ROOT / "tests", ROOT / "docs"):
        for path in sorted(folder.rglob("*.json")):
            try:
                data = json.loads(path.read_text())
            except (ValueError, UnicodeDecodeError):
                continue
            if isinstance(data, dict) and data.get("game") == "farside" and "log" in data:
                found.append(path)
    return found


RECORDS = farside_records()


def test_the_stored_records_are_found() -> None:
    names = {p.name for p in RECORDS}
    assert {"format1-calm.json", "saved-farside.json"} <= names, names


def written_as(original: str, record: dict[str, Any]) -> str:
    """``record`` written in the stored file's own style (compact as ``save`` writes, or
    ``json.dumps``' default spacing), with the file's trailing newline."""
    compact = original.lstrip().startswith('{"game":"')
    text = json.dumps(record, separators=(",", ":")) if compact else json.dumps(record)
    return text + ("\n" if original.endswith("\n") else "")


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_stored_record_is_written_back_byte_for_byte(path: Path) -> None:
    original = path.read_text()
    game = Game.load(original)
    record = game.to_record()
    stored = json.loads(original)
    # An option added after the record was written is stored as its default; the rest is as it was.
    for name in set(record["options"]) - set(stored["options"]):
        del record["options"][name]
    assert written_as(original, record) == original


@pytest.mark.parametrize("name", sorted(CASES))
def test_seeded_games_give_what_the_engine_gave_before(name: str) -> None:
    expected = json.loads(DIGESTS.read_text())[name]
    assert play(name) == expected
