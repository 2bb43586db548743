"""The engine's outputs do not move: every stored Landover record in tests/ and docs/ replays and is
written back byte for byte (the test of every game's records:
tests/core/test_stored_records.py), and seeded games (random, greedy and search bots, 2-4 players, the
game's options and record formats) give the record, listings and views the engine gave before it
became a position plus rule functions (``seeded-digests.json``, taken from it; see ``seeded.py``)."""

from __future__ import annotations

import json

import pytest

from ..stored_records import records_of
from .seeded import CASES, DIGESTS, play

RECORDS = records_of("landover")


def test_the_stored_records_are_found() -> None:
    names = {p.name for p in RECORDS}
    assert {"format1-random-4p.json", "format2-greedy-4p-merchant-spy.json", "saved-landover.json",
            "seeded-2p-greedy.json", "seeded-4p-readings.json"} <= names, names


@pytest.mark.parametrize("name", sorted(CASES))
def test_seeded_games_give_what_the_engine_gave_before(name: str) -> None:
    expected = json.loads(DIGESTS.read_text())[name]
    assert play(name) == expected
