"""The engine's outputs do not move: every stored Farside record in tests/ and docs/ replays and is
written back byte for byte (the test of every game's records:
tests/core/test_stored_records.py), and seeded games (random, tactician and search bots, the game's options,
dice modes and record formats) give the record, listings, views and face the engine gave before it
became a position plus rule functions (``seeded-digests.json``, taken from it; see ``seeded.py``)."""

from __future__ import annotations

import json

import pytest

from ..stored_records import records_of
from .seeded import CASES, DIGESTS, play

RECORDS = records_of("farside")


def test_the_stored_records_are_found() -> None:
    names = {p.name for p in RECORDS}
    assert {"format1-calm.json", "saved-farside.json"} <= names, names


@pytest.mark.parametrize("name", sorted(CASES))
def test_seeded_games_give_what_the_engine_gave_before(name: str) -> None:
    expected = json.loads(DIGESTS.read_text())[name]
    assert play(name) == expected
