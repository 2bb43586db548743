"""``tablelight farside ...`` end to end through the real command-line entry point."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from tablelight.games.farside.cli import main

DATA = Path(__file__).parent / "data"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["farside", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_base_cost(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "base-cost", "--size", "1", "--attack", "4", "--defense", "4", "--move", "20") == (0, "26\n", "")
    code, out, _ = run(capsys, "base-cost", "--size", "3", "--attack", "2+", "--defense", "2+", "--move", "30", "--json")
    assert json.loads(out)["base_cost"] == 420
    code, out, err = run(capsys, "base-cost", "--size", "4", "--attack", "4", "--defense", "4", "--move", "20")
    assert code == 1 and "size must be one of 1, 2, 3" in err and out == ""


def test_cost_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "cost", str(DATA / "raiders.toml"))
    assert code == 0
    assert "3 x Warrior: 59 points each, 177 in all" in out
    assert "Army Red Raiders: 4 models, 251 of 500 points" in out
    code, out, _ = run(capsys, "cost", str(DATA / "raiders.toml"), "--json")
    data = json.loads(out)
    assert data["total"] == 251 and [m["each"] for m in data["models"]] == [59, 74]
    assert data["models"][1]["lines"][0] == {"item": "Fly", "price": "x3 of 3", "points": 9}


def test_roster_export_and_sheet(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "army.json"
    code, _, err = run(capsys, "roster", str(DATA / "raiders.toml"), "--format", "json", "-o", str(target))
    assert code == 0 and "written to" in err
    code, out, _ = run(capsys, "cost", str(target), "--json")
    assert json.loads(out)["total"] == 251
    code, out, _ = run(capsys, "roster", str(target), "--format", "html")
    assert "<table" in out and "Red Raiders" in out
    code, _, err = run(capsys, "roster", str(tmp_path / "none.toml"))
    assert code == 1 and "no such roster file" in err


def test_odds_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "--json", "--dice", "10", "--attack", "3", "--impact", "1", "--defense", "3",
                       "--size", "1", "--cover", "4")
    data = json.loads(out)
    assert code == 0
    assert set(data) >= {"damage", "removed", "mean_damage"}
    assert list(data["damage"]) == [str(k) for k in range(11)]
    assert abs(sum(data["damage"].values()) - 1) < 1e-12
    assert data["damage"]["0"] == pytest.approx((8 / 9) ** 10, abs=1e-15)
    assert Fraction(data["exact"]["damage"]["0"]) == Fraction(8, 9) ** 10
    assert Fraction(data["exact"]["removed"]) == 1 - sum(Fraction(data["exact"]["damage"][str(k)]) for k in range(3))
    assert data["mean_damage"] == pytest.approx(10 / 9)


def test_odds_flags(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "--json", "--dice", "1", "--attack", "4", "--impact", "1", "--defense", "7",
                       "--reroll", "rF", "--twice", "--damage", "2")
    data = json.loads(out)
    # two rolls of one die at 4+ with failures rerolled: each hits 3/4; any damage removes the model.
    assert data["exact"]["damage"] == {"0": "1/16", "1": "3/8", "2": "9/16"}
    assert data["exact"]["removed"] == "15/16"
    code, out, _ = run(capsys, "odds", "--json", "--weapon", "Grenade Launcher", "--range", "25", "--focused",
                       "--attack", "4", "--defense", "4", "--group", "3")
    data = json.loads(out)
    assert data["group"]["mode"] == "blast" and abs(sum(data["group"]["models_removed"].values()) - 1) < 1e-12
    code, out, err = run(capsys, "odds", "--dice", "3", "--attack", "4", "--defense", "4", "--personal")
    assert code == 1 and "melee upgrade" in err
    code, out, _ = run(capsys, "odds", "--dice", "3", "--attack", "4", "--defense", "4", "--melee", "--damage", "1")
    assert code == 0 and "reroll rA" in out and "removed (3+ damage tokens in all)" in out


def test_game_and_track_commands(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    roster = str(DATA / "raiders.toml")
    code, out, _ = run(capsys, "game", "--roster", roster, "--roster", roster, "--seed", "3", str(record))
    assert code == 0 and "secrets phase" in out
    data = json.loads(record.read_text())
    assert data["game"] == "farside" and len(data["armies"][0]["models"]) == 4
    assert data["armies"][0]["models"][0] == {"name": "Warrior 1", "points": 59, "size": 1, "defense": 4, "attack": 4,
                                              "melee": ["Combat"], "shooting": ["Assault Rifle"], "rules": ["Scout"]}
    code, out, _ = run(capsys, "track", str(record), '{"type": "secret", "primary": "loot", "stratagem": "secure", "team_size": 2}')
    assert code == 0 and "secret objectives noted, team size 2" in out and "secure" not in out.split("\n")[0]
    code, out, _ = run(capsys, "track", str(record), "--view", "1")
    assert json.loads(out)["secrets"][0] == {"team_size": 2}
    before = record.read_text()
    code, _, err = run(capsys, "track", str(record), '{"type": "fly"}')
    assert code == 1 and "unknown action type" in err and record.read_text() == before
    code, out, _ = run(capsys, "track", str(record), "--undo")
    assert code == 0 and "undone" in out
    assert json.loads(record.read_text())["log"][-1].get("action", {}).get("type") != "secret"


def test_odds_terrain_cover(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "--json", "--dice", "1", "--attack", "2", "--impact", "1", "--defense", "7",
                       "--terrain", "Ruin")
    # hits on 2+ (5/6), a ruin's 3+ cover save stops 2/3, defence 7 always fails: 5/6 * 1/3 = 5/18
    assert json.loads(out)["exact"]["damage"] == {"0": "13/18", "1": "5/18"}
    code, _, err = run(capsys, "odds", "--dice", "1", "--attack", "2", "--defense", "4", "--terrain", "Swamp")
    assert code == 1 and "unknown terrain 'Swamp'" in err


def test_tables_and_campaign(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "tables")
    assert code == 0 and "shooting_weapons (16 rows)" in out and "base_costs (5 rows)" in out
    code, out, _ = run(capsys, "tables", "manoeuvres")
    assert len(json.loads(out)) == 11
    code, _, err = run(capsys, "tables", "dragons")
    assert code == 1 and "unknown table" in err
    small = tmp_path / "small.toml"
    small.write_text('name = "Scouts"\n[[models]]\nname = "Scout"\nsize = 1\nattack = 6\ndefense = 6\nmove = 10\n')
    raiders = str(DATA / "raiders.toml")
    code, out, _ = run(capsys, "campaign", raiders, raiders, str(small))
    assert "differ by 240" in out and "at most 100 points" in out  # 251 against 11
    code, out, _ = run(capsys, "campaign", raiders, raiders, raiders)
    assert "differ by 0" in out and "warning" not in out


def test_registered_in_the_tablelight_command(capsys: pytest.CaptureFixture[str]) -> None:
    from tablelight.cli.main import main as tablelight_main

    assert tablelight_main(["farside", "base-cost", "--size", "2", "--attack", "3", "--defense", "3", "--move", "20"]) == 0
    assert capsys.readouterr().out == "87\n"
