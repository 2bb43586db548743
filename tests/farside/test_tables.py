"""The rulebook's tables as data, checked against the rulebook's text, its worked examples and hand sums."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tablelight.core.errors import SetupError
from tablelight.games.farside import tables as t

RULEBOOK = Path(__file__).resolve().parents[3] / "shared" / "rules" / "farside-encounter.txt"


# ------------------------------------------------------------- cost rule


def test_worked_example_235_times_2_costs_281() -> None:
    assert t.factor_cost(235, 2) == 46
    assert 235 + t.factor_cost(235, 2) == 281


def test_worked_example_35_times_3_costs_44() -> None:
    assert t.factor_cost(35, 3) == 9
    assert 35 + t.factor_cost(35, 3) == 44


@pytest.mark.parametrize(
    ("cost", "factor", "expected"),
    [(5, 3, 3), (9, 5, 5), (10, 2, 2), (19, 4, 4), (2, 5, 5), (420, 4, 168), (99, 1, 9), (100, 2, 20)],
)
def test_factor_cost_drops_last_digit_and_single_digits_count_as_one(cost: int, factor: int, expected: int) -> None:
    assert t.factor_cost(cost, factor) == expected


# ------------------------------------------------------------- base costs


@pytest.mark.parametrize(
    ("size", "attack", "defense", "move", "cost"),
    [
        (1, 6, 6, 10, 11),  # first cell of the table
        (3, 2, 2, 30, 420),  # last cell
        (1, 4, 4, 20, 26),
        (2, 3, 3, 20, 87),
        (3, 5, 5, 30, 35),  # the worked example's 35
        (2, 2, 4, 10, 60),
        (1, 3, 2, 20, 105),
        (3, 6, 3, 10, 29),
    ],
)
def test_base_cost_cells(size: int, attack: int, defense: int, move: int, cost: int) -> None:
    assert t.base_cost(size=size, attack=attack, defense=defense, move=move) == cost


def test_base_cost_table_is_complete_and_grows_with_every_profile_value() -> None:
    for size in t.SIZES:
        for move in t.MOVES:
            for defense in t.PROFILE_VALUES:
                costs = [t.base_cost(size, a, defense, move) for a in (6, 5, 4, 3, 2)]
                assert costs == sorted(costs) and len(set(costs)) == 5
    for attack in t.PROFILE_VALUES:
        for defense in t.PROFILE_VALUES:
            for move in t.MOVES:
                by_size = [t.base_cost(s, attack, defense, move) for s in t.SIZES]
                assert by_size[0] < by_size[1] < by_size[2]
            for size in t.SIZES:
                by_move = [t.base_cost(size, attack, defense, m) for m in t.MOVES]
                assert by_move == sorted(by_move)
    assert len(t.tables()["base_costs"]["table"]) == 5


@pytest.mark.parametrize("bad", [dict(size=4), dict(attack=7), dict(attack=1), dict(defense=0), dict(move=25), dict(move=True)])
def test_base_cost_rejects_values_outside_the_table(bad: dict[str, int]) -> None:
    profile = {"size": 1, "attack": 4, "defense": 4, "move": 20, **bad}
    with pytest.raises(SetupError, match=next(iter(bad))):
        t.base_cost(**profile)


@pytest.mark.skipif(not RULEBOOK.exists(), reason="the rulebook text is outside the repository")
def test_base_cost_table_matches_every_cell_of_the_rulebook_text() -> None:
    text = RULEBOOK.read_text(encoding="utf-8")
    block = text[text.index("Grundkosten/Base Costs") : text.index("Farside Encounter\n\nWeapons")]
    lines = [line.strip() for line in block.splitlines()]
    checked = 0
    defense = 0
    for i, line in enumerate(lines):
        if re.fullmatch(r"[2-6]\+", line):
            defense = int(line[0])
        match = re.fullmatch(r"(10|20|30) cm", line)
        if match and defense:
            numbers = [int(x) for x in lines[i + 1 : i + 40] if x.isdigit()][:15]
            for column, attack in enumerate((6, 5, 4, 3, 2)):
                for size in (1, 2, 3):
                    assert t.base_cost(size, attack, defense, int(match.group(1))) == numbers[column * 3 + size - 1]
                    checked += 1
    assert checked == 225


# ------------------------------------------------------------- other tables


def test_shooting_weapons_table() -> None:
    weapons = t.shooting_weapons()
    assert len(weapons) == 16
    rifle = t.find_shooting("assault rifle")
    assert rifle is not None
    assert (rifle.dice, rifle.impact, rifle.focused_shot, rifle.special, rifle.points, rifle.min_size) == (
        {"10": 4, "20": 4, "30": 4, "inf": 3}, 1, "rF", "Rapid Fire", 10, 1)
    launcher = t.find_shooting("Grenade Launcher")
    assert launcher is not None and launcher.impact == "D6" and launcher.min_size == 2 and launcher.points == 30
    cannon = t.find_shooting("Battle Cannon")
    assert cannon is not None and cannon.dice == {"10": None, "20": None, "30": 9, "inf": 9} and cannon.min_size == 3
    assert t.find_shooting("Heavy Ray Gun").impact == 5  # type: ignore[union-attr]
    assert sum(w.min_size == 1 for w in weapons.values()) == 10
    assert sum(w.min_size == 2 for w in weapons.values()) == 3
    assert sum(w.min_size == 3 for w in weapons.values()) == 3


def test_melee_weapons_table() -> None:
    assert set(t.melee_weapons()) == {"none", "improvised", "bulky", "combat", "heavy"}
    combat = [t.find_melee("Combat", s) for s in (1, 2, 3)]
    assert [(p.attack_dice, p.impact, p.points) for p in combat if p] == [(4, 2, 15), (5, 2, 20), (6, 2, 25)]
    none3 = t.find_melee("None", 3)
    assert none3 is not None and (none3.attack_dice, none3.impact, none3.points) == (3, 1, None)
    heavy1 = t.find_melee("heavy", 1)
    assert heavy1 is not None and (heavy1.attack_dice, heavy1.impact, heavy1.points) == (3, 3, 20)


def test_special_rules_upgrades_and_manoeuvres() -> None:
    rules = t.rules()
    specials = [r for r in rules.values() if r.kind == "special rule"]
    upgrades = [r for r in rules.values() if r.kind == "upgrade"]
    assert len(specials) == 15 and len(upgrades) == 4
    assert {r.name for r in specials if r.category == "S"} == {"Fly", "Hit and Run", "Scout"}
    assert t.find_rule("Stabilizers").points == 30  # type: ignore[union-attr]
    assert t.find_rule("camouflage: advanced").factor == 4  # type: ignore[union-attr]
    assert t.find_rule("Devastating").applies_to == "shooting"  # type: ignore[union-attr]
    assert t.find_rule("Masterly Crafted").factor == 4  # type: ignore[union-attr]
    dice = {m["name"]: m["die"] for m in t.tables()["manoeuvres"]}
    assert len(dice) == 11 and dice["Inspired"] == 4 and dice["The Chosen"] == 6 and dice["Evade"] == 5


def test_small_tables_of_the_text() -> None:
    data = t.tables()
    widths = {face: row["width_cm"] for row in data["deployment_width"] for face in row["d6"]}
    assert widths == {1: 10, 2: 10, 3: 20, 4: 20, 5: 30, 6: 30}
    terrain = {row["type"]: (row["passable"], row["sight"], row["cover"]) for row in data["terrain_types"]}
    assert terrain["Ruin"] == (True, "light/dense", 3) and terrain["Fence"] == (False, "light", 5)
    assert len(terrain) == 7
    assert [m["name"] for m in data["missions"]] == list(t.MISSIONS)
    assert [row["level"] for row in data["heights"]] == [0, 1, 2, 3, 4, 5]
    assert [row["points"] for row in data["army_sizes"]] == [500, 1000, 1500]
    assert len(data["actions"]["simple"]) == 3 and len(data["actions"]["complex"]) == 6
    assert {row["symbol"] for row in data["focused_shot_effects"]} == {"F", "rA", "r1", "rF", "2x"}


@pytest.mark.skipif(not RULEBOOK.exists(), reason="the rulebook text is outside the repository")
def test_weapon_rows_match_the_rulebook_text() -> None:
    text = RULEBOOK.read_text(encoding="utf-8")
    for weapon in t.shooting_weapons().values():
        cells = [("--" if weapon.dice[b] is None else str(weapon.dice[b])) for b in t.RANGE_BANDS]
        impact = "W6" if weapon.impact == "D6" else str(weapon.impact)
        focus = weapon.focused_shot.replace("2x", "2×")
        row = " ".join([*cells, impact, focus, weapon.special or "--", str(weapon.points)])
        name = weapon.name.replace("Heavy Machine", "Heavy Machnie")  # the rulebook's spelling
        assert f"{name} {row}" in text
