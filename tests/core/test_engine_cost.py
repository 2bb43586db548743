"""The cost guard: no engine costs more than 5% above its recorded instructions per game.

Counted under valgrind's callgrind (``tablelight bench cost``): instructions, not seconds, so the
figure does not move with the machine's load. A change that makes an engine cheaper records the new
figure in the same change (``tablelight bench cost --update tests/core/data/engine_cost.json``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tablelight.bench.cost import CostError, compare, interpreter, measure, read_record

RECORD = Path(__file__).parent / "data" / "engine_cost.json"


def figures(per_game: int, games: int = 2, first_seed: int = 100) -> dict[str, int]:
    return {"games": games, "first_seed": first_seed, "instructions": per_game * games, "per_game": per_game}


def test_every_engine_costs_no_more_than_its_record() -> None:
    record = read_record(RECORD)
    if record["interpreter"] != interpreter():
        pytest.skip(f"the record counts {record['interpreter']}'s instructions, this is {interpreter()}")
    measured = measure()
    from tablelight.core.registry import game_names

    assert set(measured) == set(game_names()), "every engine is measured"
    assert compare(measured, record) == []


def test_a_rise_over_five_percent_fails_and_a_fall_asks_for_a_new_record() -> None:
    record = {"engines": {"a": figures(1000), "b": figures(1000), "c": figures(1000)}}
    measured = {"a": figures(1049), "b": figures(1051), "c": figures(890)}
    problems = compare(measured, record)
    assert len(problems) == 2
    assert problems[0].startswith("b costs +5.1% instructions per game")
    assert problems[1].startswith("c got 11.0% cheaper") and "--update" in problems[1]


def test_an_engine_without_a_record_or_measured_on_other_games_is_named() -> None:
    record = {"engines": {"a": figures(1000)}}
    problems = compare({"a": figures(1000, games=3), "new": figures(5)}, record)
    assert problems == ["a's record was measured on other games: record it again with tablelight bench cost --update FILE",
                        "new has no recorded cost: record it with tablelight bench cost --update FILE"]


def test_a_damaged_record_is_one_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "cost.json"
    bad.write_text(json.dumps({"engines": {"farlander": {"per_game": True}}}))
    with pytest.raises(CostError, match="not a cost record"):
        read_record(bad)
    done = subprocess.run([sys.executable, "-m", "tablelight", "bench", "cost", "--check", str(bad)],
                          capture_output=True, text=True, check=False)
    assert done.returncode != 0
    assert "not a cost record" in done.stderr and "Traceback" not in done.stderr
