"""The points level: a cap on each army's cost (points_check=cap), or a note (record); demo armies built to it."""

from __future__ import annotations

import pytest

from tablelight.core.errors import SetupError
from tablelight.core.record import replay
from tablelight.games.farside.engine import FarsideEncounter, default_armies


def army(name: str, points: list[int]) -> dict[str, object]:
    return {"name": name, "models": [{"name": f"M{i}", "points": p, "size": 1, "defense": 4} for i, p in enumerate(points)]}


def test_demo_armies_are_as_many_demo_forces_as_fit_the_level() -> None:
    sizes = {}
    for level in (500, 1000, 1500, 100):
        game = FarsideEncounter(2, {"points_level": level, "points_check": "record" if level < 310 else "cap"}, 1)
        costs = [sum(m["points"] for m in a["models"]) for a in game.armies]
        assert costs[0] == costs[1]  # the two sides stay equal
        sizes[level] = (len(game.armies[0]["models"]), costs[0])
    assert sizes == {500: (5, 310), 1000: (15, 930), 1500: (20, 1240), 100: (5, 310)}
    with pytest.raises(SetupError, match="over the 100-point level"):  # the demo force does not fit
        FarsideEncounter(2, {"points_level": 100}, 1)
    assert default_armies()[0]["models"] == FarsideEncounter(2, None, 1).armies[0]["models"]  # 500 as before
    names = [m["name"] for m in FarsideEncounter(2, {"points_level": 1000}, 1).armies[0]["models"]]
    assert len(set(names)) == len(names)


def test_an_army_over_the_level_is_refused_by_default_with_one_line() -> None:
    armies = [army("Big", [300, 250]), army("Small", [200])]
    with pytest.raises(SetupError, match=r"army 0 \(Big\) costs 550 points, over the 500-point level"):
        FarsideEncounter(2, {"points_level": 500}, 1, setup={"armies": armies})
    assert FarsideEncounter(2, {"points_level": 550}, 1, setup={"armies": armies}).armies[0]["name"] == "Big"
    noted = FarsideEncounter(2, {"points_level": 500, "points_check": "record"}, 1, setup={"armies": armies})
    assert noted.options["points_check"] == "record"


def test_records_before_format_3_keep_the_level_as_a_note() -> None:
    armies = [army("Big", [300, 250]), army("Small", [200])]
    game = FarsideEncounter(2, {"points_level": 500, "points_check": "record"}, 1, setup={"armies": armies})
    record = game.to_record()
    record["format"] = 2
    record["options"] = {k: v for k, v in record["options"].items() if k != "points_check"}
    assert replay(record).armies[0]["name"] == "Big"
    with pytest.raises(SetupError):
        FarsideEncounter(2, {"points_level": 0}, 1)
