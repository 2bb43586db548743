"""Army builder: costs with breakdown, warnings that never block, the roster format and sheets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tablelight.core.errors import SetupError
from tablelight.games.farside.army import cost_army
from tablelight.games.farside.roster import parse_roster, read_roster, roster_to_json_text, roster_to_toml
from tablelight.games.farside.sheet import roster_html, roster_text

DATA = Path(__file__).parent / "data"


def one_model(**fields: object) -> str:
    profile = {"name": "M", "size": 1, "attack": "4+", "defense": "4+", "move": 20, **fields}
    return json.dumps({"name": "Test", "models": [profile]})


def test_hand_written_roster_costs_by_hand() -> None:
    report = cost_army(read_roster(DATA / "raiders.toml"))
    warrior, beast = report.models
    # 26 base + Scout 2 (x1 of 2) + Combat 15 + Personal Weapon 3 (x3 of 1) + Assault Rifle 10 + Exploding Ammo 3
    assert warrior.base == 26
    assert [line.points for line in warrior.lines] == [2, 15, 3, 10, 3]
    assert warrior.each == 59 and warrior.total == 177
    # The rulebook's example: base 35 with a x3 rule costs 44; plus a heavy melee weapon for size 3 (30).
    assert beast.base == 35 and beast.lines[0].points == 9 and beast.base + beast.lines[0].points == 44
    assert beast.each == 74
    assert report.total == 251 and report.model_count == 4
    assert report.warnings == []


def test_factor_rules_are_priced_from_the_base_cost_not_a_running_total() -> None:
    # size 3, 2+/2+, 30 cm: base 420. Camouflage: Advanced x4 = 168, Regeneration x2 = 84.
    report = cost_army(parse_roster(one_model(size=3, attack=2, defense=2, move=30,
                                              special_rules=["Camouflage: Advanced", "Regeneration"])))
    assert [line.points for line in report.models[0].lines] == [168, 84]
    assert report.total == 420 + 168 + 84


def test_fixed_price_rules_and_single_digit_weapon_costs() -> None:
    report = cost_army(parse_roster(one_model(
        special_rules=["Stabilizers", "Targeting Device"],
        shooting=[{"weapon": "Bow", "upgrades": ["Devastating"]}, "Pistol"],
    )))
    lines = [(line.item, line.points) for line in report.models[0].lines]
    assert lines == [("Stabilizers", 30), ("Targeting Device", 30), ("Bow", 2), ("Devastating on Bow", 5), ("Pistol", 3)]
    assert report.total == 26 + 30 + 30 + 2 + 5 + 3


def test_warnings_do_not_block_costing() -> None:
    report = cost_army(parse_roster(json.dumps({
        "name": "Odd", "points_level": 100,
        "custom_rules": [{"name": "Jump Pack", "factor": 2, "category": "A"}],
        "models": [{
            "name": "Trooper", "size": 1, "attack": 4, "defense": 4, "move": 20,
            "shooting": [{"weapon": "Machine Gun", "upgrades": ["Masterly Crafted"]}, "Blaster"],
            "special_rules": ["Fly", "Jump Pack", "Hit and Run", "Targeting Device", "Telepathy"],
        }],
    })))
    codes = sorted(w.code for w in report.warnings)
    assert codes == sorted([
        "weapon.size", "upgrade.kind", "unknown.weapon", "unknown.rule", "rule.hit_and_run",
        "category.mixed", "army.over",
    ])
    messages = " | ".join(w.message for w in report.warnings)
    assert "Machine Gun is for models of size 2 or more" in messages
    assert "assault (A) and support (S) items cannot be combined" in messages
    assert report.total > 100  # still costed: Jump Pack x2 of 2 = 4 among the lines
    assert ("Jump Pack", 4) in [(line.item, line.points) for line in report.models[0].lines]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"attack": "7+"}, "attack must be one of"),
        ({"move": 25}, "move must be one of"),
        ({"size": 0}, "size must be one of"),
        ({"count": 0}, "count must be 1..200"),
        ({"height": 9}, "height must be 0..5"),
        ({"speed": 3}, "unknown key"),
        ({"shooting": [{"gun": "Bow"}]}, "unknown key"),
        ({"defense": "four"}, "defense must be a number"),
    ],
)
def test_bad_roster_fields_are_clear_errors(fields: dict[str, object], message: str) -> None:
    with pytest.raises(SetupError, match=message) as error:
        parse_roster(one_model(**fields))
    assert "models[0]" in str(error.value)


def test_bad_files(tmp_path: Path) -> None:
    with pytest.raises(SetupError, match="no such roster file"):
        read_roster(tmp_path / "missing.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("name = \n", encoding="utf-8")
    with pytest.raises(SetupError, match="not valid TOML"):
        read_roster(broken)
    with pytest.raises(SetupError, match="format 2 is not supported"):
        parse_roster('{"format": 2, "models": []}')


def test_roster_round_trips_through_toml_and_json() -> None:
    roster = read_roster(DATA / "raiders.toml")
    again = parse_roster(roster_to_toml(roster), "toml")
    assert again == roster
    assert parse_roster(roster_to_json_text(roster), "json") == roster
    custom = parse_roster(json.dumps({"name": "C", "custom_rules": [{"name": "Jump \"Pack\"", "points": 7, "category": "A"}],
                                      "models": []}))
    assert parse_roster(roster_to_toml(custom)) == custom


def test_printable_sheets_hold_every_model_and_weapon() -> None:
    report = cost_army(read_roster(DATA / "raiders.toml"))
    text = roster_text(report)
    assert "Red Raiders" in text and "251 / 500 points" in text
    assert "Scout; Combat (Personal Weapon); Assault Rifle (Exploding Ammo)" in text
    assert "Assault Rifle     4   4   4   3    1    rF  Rapid Fire" in text
    page = roster_html(report)
    assert page.startswith("<!DOCTYPE html>") and page.count("<tr>") == 2 + 1 + 2 + 3
    assert "<td>Warrior</td>" in page and "<td>177</td>" in page
    hostile = parse_roster(one_model(name="<script>x</script>"))
    assert "<script>x" not in roster_html(cost_army(hostile))
