"""The army builder: point costs with their breakdown, and validation that warns, never blocks.

Costs follow "Gather Your Army": base cost from the table; a special rule priced
"xN" adds N times the base cost without its last digit (a single digit counts as
1); a fixed-price rule adds its points; a weapon adds its points; an upgrade adds
N times the weapon's cost without its last digit. Every "xN" price is taken from
the base (or weapon) cost, never from a running total (docs/rules/farside.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tablelight.games.farside.roster import CustomRule, ModelEntry, Roster, WeaponEntry
from tablelight.games.farside.tables import (
    Rule,
    base_cost,
    factor_cost,
    find_melee,
    find_rule,
    find_shooting,
    tens,
)


@dataclass
class Line:
    """One priced item of a model: what it is, how it is priced, what it costs."""

    item: str
    price: str
    points: int

    def to_json(self) -> dict[str, Any]:
        return {"item": self.item, "price": self.price, "points": self.points}


@dataclass
class ModelCost:
    name: str
    count: int
    base: int
    lines: list[Line] = field(default_factory=list)

    @property
    def each(self) -> int:
        return self.base + sum(line.points for line in self.lines)

    @property
    def total(self) -> int:
        return self.each * self.count

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "count": self.count,
            "base": self.base,
            "lines": [line.to_json() for line in self.lines],
            "each": self.each,
            "total": self.total,
        }


@dataclass
class Warning:
    """A readable validation message; ``model`` is the roster index or None for the army."""

    message: str
    model: int | None = None
    code: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "model": self.model, "message": self.message}


@dataclass
class ArmyReport:
    roster: Roster
    models: list[ModelCost]
    warnings: list[Warning]

    @property
    def total(self) -> int:
        return sum(m.total for m in self.models)

    @property
    def model_count(self) -> int:
        return sum(m.count for m in self.models)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.roster.name,
            "points_level": self.roster.points_level,
            "models": [m.to_json() for m in self.models],
            "model_count": self.model_count,
            "total": self.total,
            "warnings": [w.to_json() for w in self.warnings],
        }


def _lookup_rule(name: str, customs: dict[str, CustomRule]) -> Rule | None:
    custom = customs.get(name.lower())
    if custom is not None:
        return Rule(
            custom.name,
            "upgrade" if custom.applies_to != "model" else "special rule",
            custom.factor,
            custom.points,
            custom.category,
            None if custom.applies_to == "model" else custom.applies_to,
            custom.text,
        )
    return find_rule(name)


def _price(rule: Rule, cost: int) -> tuple[str, int]:
    if rule.factor is not None:
        return f"x{rule.factor} of {tens(cost)}", factor_cost(cost, rule.factor)
    assert rule.points is not None
    return "fixed", rule.points


def cost_model(model: ModelEntry, index: int, customs: dict[str, CustomRule], warnings: list[Warning]) -> ModelCost:
    """Price one roster entry, appending warnings for what the rules frown on."""
    base = base_cost(model.size, model.attack, model.defense, model.move)
    result = ModelCost(model.name, model.count, base)
    categories: dict[str, list[str]] = {}

    def warn(code: str, message: str) -> None:
        warnings.append(Warning(f"{model.name}: {message}", index, code))

    seen: set[str] = set()
    for name in model.special_rules:
        rule = _lookup_rule(name, customs)
        if rule is None:
            warn("unknown.rule", f"unknown special rule {name!r} costed at 0 (add it under [[custom_rules]] to price it)")
            result.lines.append(Line(name, "unknown", 0))
            continue
        if rule.name.lower() in seen:
            warn("rule.duplicate", f"special rule {rule.name} is listed twice (both are costed)")
        seen.add(rule.name.lower())
        if rule.kind == "upgrade" and rule.applies_to in ("shooting", "melee"):
            warn("rule.is_upgrade", f"{rule.name} is a {rule.applies_to} weapon upgrade; list it under that weapon's upgrades")
        price, points = _price(rule, base)
        result.lines.append(Line(rule.name, price, points))
        if rule.category:
            categories.setdefault(rule.category, []).append(rule.name)
        if rule.name == "Hit and Run" and model.move != 30:
            warn("rule.hit_and_run", "Hit and Run only works for a move value of 30 cm")
        if rule.name == "Targeting Device" and len(model.shooting) < 2:
            warn("rule.targeting_device", "Targeting Device needs at least two shooting weapons")

    for kind, weapons in (("melee", model.melee), ("shooting", model.shooting)):
        for weapon in weapons:
            _cost_weapon(model, kind, weapon, customs, result, categories, warn)

    if len(categories) > 1:
        listing = "; ".join(f"{cat} ({'assault' if cat == 'A' else 'support'}): {', '.join(names)}" for cat, names in sorted(categories.items()))
        warn("category.mixed", f"assault (A) and support (S) items cannot be combined: {listing}")
    return result


def _cost_weapon(
    model: ModelEntry,
    kind: str,
    weapon: WeaponEntry,
    customs: dict[str, CustomRule],
    result: ModelCost,
    categories: dict[str, list[str]],
    warn: Any,
) -> None:
    label = f"{weapon.name} ({kind})"
    weapon_points: int
    if kind == "melee":
        profile = find_melee(weapon.name, model.size)
        if profile is not None:
            weapon_points = profile.points or 0
            label = f"{profile.name} melee weapon"
        elif weapon.points is not None:
            weapon_points = weapon.points
        else:
            warn("unknown.weapon", f"unknown melee weapon {weapon.name!r} costed at 0 (give it points = N)")
            weapon_points = 0
    else:
        shooting = find_shooting(weapon.name)
        if shooting is not None:
            weapon_points = shooting.points
            label = shooting.name
            if model.size < shooting.min_size:
                warn("weapon.size", f"{shooting.name} is for models of size {shooting.min_size} or more (this one is size {model.size})")
        elif weapon.points is not None:
            weapon_points = weapon.points
        else:
            warn("unknown.weapon", f"unknown shooting weapon {weapon.name!r} costed at 0 (give it points = N)")
            weapon_points = 0
    if weapon.points is not None and weapon.points != weapon_points:
        warn("weapon.points", f"{weapon.name} costs {weapon_points} by the table; the roster's {weapon.points} is used")
        weapon_points = weapon.points
    result.lines.append(Line(label, "weapon", weapon_points))
    for name in weapon.upgrades:
        rule = _lookup_rule(name, customs)
        if rule is None:
            warn("unknown.upgrade", f"unknown upgrade {name!r} on {weapon.name} costed at 0")
            result.lines.append(Line(f"{name} on {weapon.name}", "unknown", 0))
            continue
        if rule.applies_to is not None and rule.applies_to != kind:
            warn("upgrade.kind", f"{rule.name} is an upgrade for {rule.applies_to} weapons, not for {weapon.name}")
        elif rule.kind == "special rule":
            warn("upgrade.is_rule", f"{rule.name} is a special rule of the model, not a weapon upgrade")
        price, points = _price(rule, weapon_points)
        result.lines.append(Line(f"{rule.name} on {weapon.name}", price, points))
        if rule.category:
            categories.setdefault(rule.category, []).append(rule.name)


def cost_army(roster: Roster) -> ArmyReport:
    """Cost every model of ``roster`` and collect warnings (never raises for a rules problem)."""
    customs = {c.name.lower(): c for c in roster.custom_rules}
    warnings: list[Warning] = []
    models = [cost_model(m, i, customs, warnings) for i, m in enumerate(roster.models)]
    report = ArmyReport(roster, models, warnings)
    if not roster.models:
        warnings.append(Warning("the army has no models", None, "army.empty"))
    level = roster.points_level
    if level is not None and report.total > level:
        warnings.append(
            Warning(f"the army costs {report.total} points, {report.total - level} over the {level}-point level", None, "army.over")
        )
    return report
