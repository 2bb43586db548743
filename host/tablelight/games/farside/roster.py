"""The roster file: an army written by hand in TOML (or JSON), read, checked and written back.

The format is documented in ``docs/farside-roster.md``. A minimal roster::

    name = "Red Raiders"
    points_level = 500

    [[models]]
    name = "Warrior"
    count = 3
    size = 1
    height = 2
    attack = "4+"
    defense = "4+"
    move = 20
    melee = ["Combat"]
    shooting = [{ weapon = "Assault Rifle", upgrades = ["Exploding Ammo"] }]
    special_rules = ["Scout"]

Reading is strict about *shape* (a profile value the base-cost table lacks is an
error naming the field, and nothing is loaded); what the rules merely frown on
(a heavy weapon on a small model, too many points) is left to the warnings of
:mod:`tablelight.games.farside.army`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tablelight.core.errors import SetupError
from tablelight.core.inputs import parse_json, parse_toml, read_text
from tablelight.games.farside.tables import check_profile, parse_move, parse_plus
from tablelight.core.fields import is_whole

ROSTER_FORMAT = 1
ROSTER_MAX_BYTES = 1024 * 1024
_MODEL_KEYS = {
    "name", "count", "size", "height", "attack", "defense", "defence", "move",
    "melee", "shooting", "special_rules", "notes",
}
_ROSTER_KEYS = {"format", "name", "player", "points_level", "models", "custom_rules", "notes"}


@dataclass
class WeaponEntry:
    """A weapon a model carries, with its upgrades. ``points`` prices a weapon the tables lack."""

    name: str
    upgrades: list[str] = field(default_factory=list)
    points: int | None = None

    def to_json(self) -> Any:
        if not self.upgrades and self.points is None:
            return self.name
        data: dict[str, Any] = {"weapon": self.name}
        if self.upgrades:
            data["upgrades"] = list(self.upgrades)
        if self.points is not None:
            data["points"] = self.points
        return data


@dataclass
class ModelEntry:
    name: str
    size: int
    height: int
    attack: int
    defense: int
    move: int
    count: int = 1
    melee: list[WeaponEntry] = field(default_factory=list)
    shooting: list[WeaponEntry] = field(default_factory=list)
    special_rules: list[str] = field(default_factory=list)
    notes: str = ""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "name": self.name,
            "count": self.count,
            "size": self.size,
            "height": self.height,
            "attack": f"{self.attack}+",
            "defense": f"{self.defense}+",
            "move": self.move,
            "melee": [w.to_json() for w in self.melee],
            "shooting": [w.to_json() for w in self.shooting],
            "special_rules": list(self.special_rules),
        }
        if self.notes:
            data["notes"] = self.notes
        return data


@dataclass
class CustomRule:
    """A house rule or exotic item priced like the book's: ``factor`` or fixed ``points``."""

    name: str
    factor: int | None = None
    points: int | None = None
    category: str | None = None  # "A" (assault), "S" (support) or None
    applies_to: str = "model"  # "model", "shooting" or "melee"
    text: str = ""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name}
        if self.factor is not None:
            data["factor"] = self.factor
        if self.points is not None:
            data["points"] = self.points
        if self.category:
            data["category"] = self.category
        if self.applies_to != "model":
            data["applies_to"] = self.applies_to
        if self.text:
            data["text"] = self.text
        return data


@dataclass
class Roster:
    name: str
    models: list[ModelEntry]
    points_level: int | None = None
    player: str = ""
    custom_rules: list[CustomRule] = field(default_factory=list)
    notes: str = ""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"format": ROSTER_FORMAT, "name": self.name}
        if self.player:
            data["player"] = self.player
        if self.points_level is not None:
            data["points_level"] = self.points_level
        if self.notes:
            data["notes"] = self.notes
        if self.custom_rules:
            data["custom_rules"] = [c.to_json() for c in self.custom_rules]
        data["models"] = [m.to_json() for m in self.models]
        return data


# ------------------------------------------------------------------ reading


def _need(data: dict[str, Any], key: str, where: str) -> Any:
    if key not in data:
        raise SetupError(f"{where} needs {key!r}")
    return data[key]


def _int(value: Any, where: str, low: int | None = None, high: int | None = None) -> int:
    if not is_whole(value):
        raise SetupError(f"{where} must be a whole number, got {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        span = f"{low}..{high}" if high is not None else f"at least {low}"
        raise SetupError(f"{where} must be {span}, got {value}")
    return value


#: What ``str.splitlines`` breaks a line at: a name holding one would forge a line of a report.
LINE_BREAKS = frozenset("\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029")


def _str(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise SetupError(f"{where} must be a non-empty text, got {value!r}")
    return _one_line(value.strip(), where)


def _one_line(value: str, where: str) -> str:
    """``value`` when it is one line (a name printed in a report), else SetupError naming ``where``."""
    if any(ch in LINE_BREAKS for ch in value):
        raise SetupError(f"{where} must be one line (a name is printed in reports), got {value!r}")
    return value


def _str_list(value: Any, where: str) -> list[str]:
    if not isinstance(value, list):
        raise SetupError(f"{where} must be a list of names, got {value!r}")
    return [_str(v, f"{where}[{i}]") for i, v in enumerate(value)]


def _weapon(value: Any, where: str) -> WeaponEntry:
    if isinstance(value, str):
        return WeaponEntry(_str(value, where))
    if not isinstance(value, dict):
        raise SetupError(f"{where} must be a weapon name or a table with 'weapon', got {value!r}")
    unknown = sorted(set(value) - {"weapon", "upgrades", "points"})
    if unknown:
        raise SetupError(f"{where} has unknown key(s) {', '.join(unknown)} (known: weapon, upgrades, points)")
    points = value.get("points")
    return WeaponEntry(
        _str(_need(value, "weapon", where), f"{where}.weapon"),
        _str_list(value.get("upgrades", []), f"{where}.upgrades"),
        None if points is None else _int(points, f"{where}.points", 0),
    )


def _model(value: Any, where: str) -> ModelEntry:
    if not isinstance(value, dict):
        raise SetupError(f"{where} must be a table of profile values, got {value!r}")
    unknown = sorted(set(value) - _MODEL_KEYS)
    if unknown:
        raise SetupError(f"{where} has unknown key(s) {', '.join(unknown)} (known: {', '.join(sorted(_MODEL_KEYS))})")
    defense_value = value["defense"] if "defense" in value else _need(value, "defence", where)
    try:
        size = _int(_need(value, "size", where), f"{where}.size")
        attack = parse_plus(_need(value, "attack", where), f"{where}.attack")
        defense = parse_plus(defense_value, f"{where}.defense")
        move = parse_move(_need(value, "move", where))
        check_profile(size, attack, defense, move)
    except SetupError as error:
        raise SetupError(f"{where}: {error}") from None
    melee = value.get("melee", [])
    shooting = value.get("shooting", [])
    if not isinstance(melee, list) or not isinstance(shooting, list):
        raise SetupError(f"{where}.melee and {where}.shooting must be lists of weapons")
    notes = value.get("notes", "")
    return ModelEntry(
        name=_str(_need(value, "name", where), f"{where}.name"),
        count=_int(value.get("count", 1), f"{where}.count", 1, 200),
        size=size,
        height=_int(value.get("height", 2), f"{where}.height", 0, 5),
        attack=attack,
        defense=defense,
        move=move,
        melee=[_weapon(w, f"{where}.melee[{i}]") for i, w in enumerate(melee)],
        shooting=[_weapon(w, f"{where}.shooting[{i}]") for i, w in enumerate(shooting)],
        special_rules=_str_list(value.get("special_rules", []), f"{where}.special_rules"),
        notes=notes if isinstance(notes, str) else str(notes),
    )


def _custom(value: Any, where: str) -> CustomRule:
    if not isinstance(value, dict):
        raise SetupError(f"{where} must be a table, got {value!r}")
    name = _str(_need(value, "name", where), f"{where}.name")
    factor = value.get("factor")
    points = value.get("points")
    if (factor is None) == (points is None):
        raise SetupError(f"{where} ({name}) needs exactly one of 'factor' or 'points'")
    category = value.get("category")
    if category not in (None, "A", "S"):
        raise SetupError(f"{where}.category must be \"A\" (assault) or \"S\" (support), got {category!r}")
    applies_to = value.get("applies_to", "model")
    if applies_to not in ("model", "shooting", "melee"):
        raise SetupError(f"{where}.applies_to must be model, shooting or melee, got {applies_to!r}")
    return CustomRule(
        name,
        None if factor is None else _int(factor, f"{where}.factor", 0),
        None if points is None else _int(points, f"{where}.points", 0),
        category,
        applies_to,
        str(value.get("text", "")),
    )


def roster_from_json(data: Any) -> Roster:
    """A :class:`Roster` from the parsed TOML/JSON document; SetupError names the bad field."""
    if not isinstance(data, dict):
        raise SetupError("a roster is a table (TOML) or an object (JSON) with 'name' and 'models'")
    unknown = sorted(set(data) - _ROSTER_KEYS)
    if unknown:
        raise SetupError(f"the roster has unknown key(s) {', '.join(unknown)} (known: {', '.join(sorted(_ROSTER_KEYS))})")
    version = data.get("format", ROSTER_FORMAT)
    if version != ROSTER_FORMAT:
        raise SetupError(f"roster format {version!r} is not supported (this version reads format {ROSTER_FORMAT})")
    models = _need(data, "models", "the roster")
    if not isinstance(models, list):
        raise SetupError("'models' must be a list ([[models]] tables in TOML)")
    level = data.get("points_level")
    notes = data.get("notes", "")
    customs = data.get("custom_rules", [])
    if not isinstance(customs, list):
        raise SetupError("'custom_rules' must be a list ([[custom_rules]] tables in TOML)")
    return Roster(
        name=_str(data.get("name", "Unnamed army"), "name"),
        models=[_model(m, f"models[{i}]") for i, m in enumerate(models)],
        points_level=None if level is None else _int(level, "points_level", 1),
        player=_one_line(str(data.get("player", "")), "player"),
        custom_rules=[_custom(c, f"custom_rules[{i}]") for i, c in enumerate(customs)],
        notes=notes if isinstance(notes, str) else str(notes),
    )


def parse_roster(text: str, kind: str = "auto") -> Roster:
    """Parse roster text; ``kind`` is "toml", "json" or "auto" (JSON when it starts with "{")."""
    if kind == "auto":
        kind = "json" if text.lstrip().startswith("{") else "toml"
    if kind == "json":
        data = parse_json(text, "the roster")
    elif kind == "toml":
        data = parse_toml(text, "the roster")
    else:
        raise SetupError(f"unknown roster kind {kind!r}; use toml or json")
    return roster_from_json(data)


def read_roster(path: str | Path) -> Roster:
    path = Path(path)
    if not path.exists():
        raise SetupError(f"no such roster file: {path}")
    text = read_text(path, str(path), max_bytes=ROSTER_MAX_BYTES)
    kind = {".json": "json", ".toml": "toml"}.get(path.suffix.lower(), "auto")
    try:
        return parse_roster(text, kind)
    except SetupError as error:
        raise SetupError(f"{path}: {error}") from None


# ------------------------------------------------------------------ writing


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a valid TOML basic string
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {value!r} as TOML")


def _toml_key(key: str) -> str:
    return key if key.replace("_", "").replace("-", "").isalnum() else json.dumps(key)


def roster_to_toml(roster: Roster) -> str:
    """The roster as hand-editable TOML (reads back to an equal roster)."""
    data = roster.to_json()
    lines = []
    for key, value in data.items():
        if key not in ("models", "custom_rules") or not value:
            lines.append(f"{_toml_key(key)} = {_toml_value(value)}")
    for table in ("custom_rules", "models"):
        for entry in data.get(table, []):
            lines.append("")
            lines.append(f"[[{table}]]")
            for key, value in entry.items():
                lines.append(f"{_toml_key(key)} = {_toml_value(value)}")
    return "\n".join(lines) + "\n"


def roster_to_json_text(roster: Roster) -> str:
    return json.dumps(roster.to_json(), indent=1, ensure_ascii=False) + "\n"
