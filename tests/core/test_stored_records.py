"""Every stored record of every game, in tests/ and docs/, replays and is written back byte for
byte: an engine's rebuild or speed-up keeps every game people kept (issue 31)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablelight.core.registry import game_names

from ..stored_records import ROOT, records_of, replayed_and_written

RECORDS = [path for game in game_names() for path in records_of(game)]


def test_each_game_has_a_stored_record() -> None:
    assert [game for game in game_names() if not records_of(game)] == []


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_stored_record_is_written_back_byte_for_byte(path: Path) -> None:
    original, written = replayed_and_written(path)
    assert written == original
