"""Issue 34: the lab plays Farside with armies drawn from a roster pool (built in, or --roster files)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tablelight.cli.main import main
from tablelight.core.registry import game_class
from tablelight.games.farside.lab_setup import game_setup, plan_setup, pool
from tablelight.lab.plan import Job, make_plan
from tablelight.lab.setups import game_setup as lab_game_setup
from tests.lab.test_lab import lab_json

ROSTERS = Path(__file__).resolve().parents[2] / "host" / "tablelight" / "games" / "farside" / "armies"


class Args:
    def __init__(self, *rosters: str) -> None:
        self.roster = list(rosters) or None


def test_the_default_pool_varies_the_armies_and_fits_them_to_the_level() -> None:
    plan = make_plan("farside", games=12, players=None, bots=["tactician"], seed=2,
                     vary=[("points_level", ["500", "1500"])])
    plan["setup"] = plan_setup(Args(), plan["variants"])
    assert len(plan["setup"]["rosters"]) == len(pool()) >= 5
    names = set()
    for variant, level in ((0, 500), (1, 1500)):
        for index in range(12):
            setup = lab_game_setup(plan, Job(variant, index))
            assert setup is not None
            for army in setup["armies"]:
                names.add(army["name"])
                assert sum(model["points"] for model in army["models"]) <= level
            # The engine takes it (the level is a cap: refused otherwise).
            game_class("farside")(2, plan["variants"][variant]["options"], 1, setup=setup)
    assert len(names) >= 4  # varied: most of the pool within 24 games
    assert any("Regeneration" in model.get("rules", ()) for army in
               [a for i in range(12) for a in lab_game_setup(plan, Job(0, i))["armies"]] for model in army["models"])


def test_the_same_game_draws_the_same_armies() -> None:
    setup = plan_setup(Args(), [])
    assert game_setup(setup, 2, {"points_level": 1000}, 7) == game_setup(setup, 2, {"points_level": 1000}, 7)


def test_given_rosters_are_played_as_written(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    stats = lab_json(capsys, "farside", "--bots", "tactician", "--games", "4", "--seed", "3", "--workers", "1",
                     "--roster", str(ROSTERS / "troll-band.toml"), "--out", str(out))
    header = json.loads(out.read_text().splitlines()[0])
    assert [r["name"] for r in header["plan"]["setup"]["rosters"]] == ["Troll band"]
    assert header["plan"]["setup"]["scaled"] is False
    assert stats["variants"][0]["coverage"]["rules"]["action"]["regenerate"]["per_game"] >= 0  # declared and counted
    setup = game_setup(header["plan"]["setup"], 2, {"points_level": 1500}, 1)
    assert [len(army["models"]) for army in setup["armies"]] == [5, 5]  # not scaled to 1500


def test_a_roster_over_the_level_is_refused_before_any_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    big.write_text((ROSTERS / "militia.toml").read_text().replace("count = 8", "count = 30"))
    assert main(["lab", "farside", "--games", "2", "--workers", "1", "--quiet", "--roster", str(big)]) == 1
    err = capsys.readouterr().err
    assert "big.toml (Militia) costs 900 points, over the 500-point level" in err and "Traceback" not in err
    assert main(["lab", "farside", "--games", "2", "--workers", "1", "--quiet", "--roster", str(tmp_path / "none.toml")]) == 1
    assert "no such roster file" in capsys.readouterr().err
