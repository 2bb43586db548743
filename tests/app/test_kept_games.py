"""The app's games kept in its store, under CPython (the page's tests run the same code in
Pyodide): a kept game resumes with its record, and a file that is not a record is refused in one
sentence with nothing kept."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from tablelight.app.engine import AppTable

NOT_RECORDS = {
    "not JSON": "shopping: milk",
    "not an object": "[1, 2]",
    "an unknown game": '{"game": "chess", "format": 1, "players": 2, "seed": 1, "log": []}',
    "nested too deep": "[" * 100_000 + "]" * 100_000,
}


@pytest.mark.parametrize("text", NOT_RECORDS.values(), ids=NOT_RECORDS.keys())
def test_a_file_that_is_not_a_record_is_refused_in_one_sentence(tmp_path: Path, text: str) -> None:
    table = AppTable()
    table.open_store(str(tmp_path / "games.db"))
    answer = json.loads(table.import_record(text))
    assert answer["error"].startswith("that file is not a tablelight game record: ")
    assert "\n" not in answer["error"]
    assert json.loads(table.saved_games()) == {"games": []}


def test_a_kept_game_resumes_with_its_record(tmp_path: Path) -> None:
    async def play() -> None:
        first = AppTable()
        first.open_store(str(tmp_path / "games.db"))
        first.start(json.dumps({"game": "farlander", "seats": ["human", "random"], "seed": 2, "bot_delay": 0}))
        await asyncio.sleep(0.05)
        seat = first.snapshot_data()["seats"]["0"]
        answer = json.loads(first.act(json.dumps({"seat": 0, "action": seat["choices"][0]["action"], "at": seat["at"]})))
        assert answer["done"]
        await asyncio.sleep(0.1)
        record = first.record()
        first.stop()
        again = AppTable()
        kept = json.loads(again.open_store(str(tmp_path / "games.db")))["games"]
        assert [(game["game"], game["seats"]) for game in kept] == [("farlander", ["human", "random"])]
        again.resume(kept[0]["id"])
        assert again.record() == record
        again.stop()

    asyncio.run(play())
