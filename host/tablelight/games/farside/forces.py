"""The armies of a game: the setup's armies checked, the demo forces of games without rosters, and a
costed roster as the tracker keeps it (one entry per model, counts expanded)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tablelight.core.errors import SetupError
from tablelight.core.fields import is_whole
from tablelight.games.farside.state import PROFILE_LISTS


def default_armies(points_level: int | None = None) -> list[dict[str, Any]]:
    """Two equal demo armies for games started without rosters (selfplay, rules serve, the lab):
    as many copies of the demo force (310 points) as fit into ``points_level``, at least one."""
    from tablelight.games.farside.army import cost_army
    from tablelight.games.farside.roster import roster_from_json

    roster = roster_from_json({
        "name": "Demo force",
        "models": [
            {"name": "Warrior", "count": 4, "size": 1, "attack": 4, "defense": 4, "move": 20,
             "melee": ["Combat"], "shooting": ["Assault Rifle"]},
            {"name": "Gunner", "size": 2, "attack": 4, "defense": 3, "move": 20,
             "melee": ["Improvised"], "shooting": ["Machine Gun"]},
        ],
    })
    copies = max(1, (points_level or 0) // cost_army(roster).total)
    for entry in roster.models:
        entry.count *= copies
    army = army_from_report(cost_army(roster))
    return [army, {**army, "models": [dict(m) for m in army["models"]]}]


def army_points(army: Mapping[str, Any]) -> int:
    return sum(int(model["points"]) for model in army["models"])


def army_from_report(report: Any) -> dict[str, Any]:
    """The tracker's view of a costed roster: one entry per model (counts expanded)."""
    models = []
    for entry, cost in zip(report.roster.models, report.models):
        for number in range(entry.count):
            name = entry.name if entry.count == 1 else f"{entry.name} {number + 1}"
            model: dict[str, Any] = {
                "name": name, "points": cost.each, "size": entry.size, "defense": entry.defense, "attack": entry.attack,
            }
            lists = {"melee": [w.name for w in entry.melee], "shooting": [w.name for w in entry.shooting],
                     "rules": list(entry.special_rules)}
            model.update({key: names for key, names in lists.items() if names})
            models.append(model)
    return {"name": report.roster.name, "models": models}


def checked_armies(armies: Any) -> list[dict[str, Any]]:
    if not isinstance(armies, list) or len(armies) != 2:
        raise SetupError("setup 'armies' must be a list of two armies")
    checked = []
    for seat, army in enumerate(armies):
        if not isinstance(army, dict) or not isinstance(army.get("models"), list) or not army["models"]:
            raise SetupError(f"army {seat} must be an object with a non-empty 'models' list")
        models = []
        for index, model in enumerate(army["models"]):
            where = f"army {seat} model {index}"
            if not isinstance(model, dict):
                raise SetupError(f"{where} must be an object")
            name, points, size, defense = (model.get(k) for k in ("name", "points", "size", "defense"))
            if not isinstance(name, str) or not name:
                raise SetupError(f"{where} needs a name")
            if not is_whole(points) or points < 0:
                raise SetupError(f"{where} needs points (a whole number)")
            if size not in (1, 2, 3):
                raise SetupError(f"{where}: size must be 1, 2 or 3")
            if defense not in (2, 3, 4, 5, 6):
                raise SetupError(f"{where}: defense must be 2..6 (for 2+..6+)")
            entry = {"name": name, "points": points, "size": size, "defense": defense}
            # The rest of the profile, when the army gives it: the attack value, the weapons (names of
            # the rulebook's tables) and the special rules (Regeneration...).
            if "attack" in model:
                if model["attack"] not in (2, 3, 4, 5, 6):
                    raise SetupError(f"{where}: attack must be 2..6 (for 2+..6+)")
                entry["attack"] = model["attack"]
            for key in PROFILE_LISTS:
                if key in model:
                    names = model[key]
                    if not isinstance(names, list) or not all(isinstance(n, str) and n for n in names):
                        raise SetupError(f"{where}: {key} must be a list of names")
                    entry[key] = list(names)
            models.append(entry)
        checked.append({"name": str(army.get("name", f"Army {seat + 1}")), "models": models})
    return checked
