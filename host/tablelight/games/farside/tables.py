"""The rulebook's tables (``tables.json``) and the point-cost arithmetic.

Every table at the end of the Farside Encounter rulebook, and the smaller tables
in its text (sizes, heights, terrain, deployment widths, missions...), is data in
``tables.json``. This module loads it once and gives typed access plus the two
cost rules of "Gather Your Army":

* :func:`base_cost` looks a profile up in the base-cost table;
* :func:`factor_cost` prices a "xN" special rule or upgrade: drop the last digit
  of the base (or weapon) cost, count a single digit as 1, multiply by N.

>>> base_cost(size=1, attack=4, defense=4, move=20)
26
>>> factor_cost(235, 2), factor_cost(35, 3)
(46, 9)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from tablelight.core.errors import SetupError
from tablelight.core.fields import is_whole

SIZES = (1, 2, 3)
PROFILE_VALUES = (2, 3, 4, 5, 6)  # attack and defence "N+"
MOVES = (10, 20, 30)
RANGE_BANDS = ("10", "20", "30", "inf")
MISSIONS = (
    "loot",
    "breakthrough",
    "secure",
    "destruction",
    "heavy loss",
    "grand slam",
    "martyr",
    "obliteration",
)


@lru_cache(maxsize=1)
def tables() -> dict[str, Any]:
    """The whole ``tables.json`` document (read once)."""
    text = resources.files("tablelight.games.farside").joinpath("tables.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@dataclass(frozen=True)
class ShootingWeapon:
    name: str
    min_size: int
    dice: dict[str, int | None]  # range band -> attack dice (None: out of range)
    impact: int | str  # a number or "D6"
    focused_shot: str  # F, rA, r1, rF or 2x
    special: str | None  # Blast, Kone, Rapid Fire or None
    points: int


@dataclass(frozen=True)
class MeleeProfile:
    name: str
    size: int
    attack_dice: int
    impact: int
    points: int | None  # None for "None" (no extra melee weapon)


@dataclass(frozen=True)
class Rule:
    """A special rule or an upgrade: priced by ``factor`` or at fixed ``points``."""

    name: str
    kind: str  # "special rule" or "upgrade"
    factor: int | None
    points: int | None
    category: str | None  # "A", "S" or None
    applies_to: str | None  # upgrades: "shooting" or "melee"
    text: str

    @property
    def price_label(self) -> str:
        return f"x{self.factor}" if self.factor is not None else f"{self.points} points"


def _normal(name: str) -> str:
    return " ".join(name.lower().replace("-", " ").split())


@lru_cache(maxsize=1)
def shooting_weapons() -> dict[str, ShootingWeapon]:
    found = {}
    for row in tables()["shooting_weapons"]:
        weapon = ShootingWeapon(
            row["name"], row["min_size"], dict(row["dice"]), row["impact"], row["focused_shot"], row["special"], row["points"]
        )
        found[_normal(weapon.name)] = weapon
    return found


@lru_cache(maxsize=1)
def melee_weapons() -> dict[str, dict[int, MeleeProfile]]:
    found: dict[str, dict[int, MeleeProfile]] = {}
    for row in tables()["melee_weapons"]:
        found[_normal(row["name"])] = {
            int(size): MeleeProfile(row["name"], int(size), p["attack_dice"], p["impact"], p["points"])
            for size, p in row["by_size"].items()
        }
    return found


@lru_cache(maxsize=1)
def rules() -> dict[str, Rule]:
    """Special rules and upgrades by normalised name."""
    found = {}
    for row in tables()["special_rules"]:
        found[_normal(row["name"])] = Rule(
            row["name"], "special rule", row.get("factor"), row.get("points"), row["category"], None, row["text"]
        )
    for row in tables()["upgrades"]:
        found[_normal(row["name"])] = Rule(
            row["name"], "upgrade", row["factor"], None, row["category"], row["applies_to"], row["text"]
        )
    return found


@lru_cache(maxsize=1)
def manoeuvres() -> dict[str, dict[str, Any]]:
    return {_normal(row["name"]): row for row in tables()["manoeuvres"]}


def find_shooting(name: str) -> ShootingWeapon | None:
    return shooting_weapons().get(_normal(name))


def find_melee(name: str, size: int) -> MeleeProfile | None:
    profiles = melee_weapons().get(_normal(name))
    return None if profiles is None else profiles.get(size)


def find_rule(name: str) -> Rule | None:
    return rules().get(_normal(name))


def find_manoeuvre(name: str) -> dict[str, Any] | None:
    return manoeuvres().get(_normal(name))


def check_profile(size: int, attack: int, defense: int, move: int) -> None:
    """Raise :class:`SetupError` naming the first profile value the base-cost table lacks."""
    for label, value, allowed in (
        ("size", size, SIZES),
        ("attack", attack, PROFILE_VALUES),
        ("defense", defense, PROFILE_VALUES),
        ("move", move, MOVES),
    ):
        if not is_whole(value) or value not in allowed:
            shown = ", ".join(f"{v}+" if label in ("attack", "defense") else str(v) for v in allowed)
            raise SetupError(f"{label} must be one of {shown} (the base-cost table), got {value!r}")


def base_cost(size: int, attack: int, defense: int, move: int) -> int:
    """The base cost of a profile (attack and defence as the number before "+", move in cm)."""
    check_profile(size, attack, defense, move)
    row: list[int] = tables()["base_costs"]["table"][str(defense)][str(move)][str(attack)]
    return row[size - 1]


def tens(cost: int) -> int:
    """The rulebook's "remove the last digit; a single digit counts as 1"."""
    if cost < 0:
        raise ValueError(f"a cost cannot be negative, got {cost}")
    return max(1, cost // 10)


def factor_cost(cost: int, factor: int) -> int:
    """Price of a "x factor" rule on a model of base cost ``cost`` (or a weapon of that cost)."""
    return tens(cost) * factor


def whole_with_suffix(value: Any, suffix: str, refusal: str) -> int:
    """A whole number given as 4, "4" or "4" + ``suffix``; SetupError(``refusal``) otherwise."""
    if is_whole(value):
        return value
    if isinstance(value, str):
        text = value.strip().removesuffix(suffix).strip()
        if text.isdigit():
            return int(text)
    raise SetupError(refusal)


def parse_plus(value: Any, label: str) -> int:
    """Accept 4, "4" or "4+" for a profile value; raise SetupError otherwise."""
    return whole_with_suffix(value, "+", f"{label} must be a number like 4 or \"4+\", got {value!r}")


def parse_move(value: Any) -> int:
    """Accept 20, "20" or "20 cm"."""
    return whole_with_suffix(value, "cm", f"move must be 10, 20 or 30 (cm), got {value!r}")
