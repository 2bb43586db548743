"""Combat and damage: defence rolls turn impact tokens into damage tokens (three remove a model), The
Chosen's ones count as sixes, Evade may reroll a defence roll, and the rolls that add or remove damage
outside combat (Regeneration, dead zones)."""

from __future__ import annotations

from typing import Any

from tablelight.games.farside.missions import lose
from tablelight.games.farside.state import FarsideState, fire, request_roll


def counts_as(p: FarsideState, mid: str, face: int) -> int:
    """A die ``face`` rolled for model ``mid``: The Chosen's ones count as sixes on every roll of the
    model (record format 4 on; before, only its activation rolls counted, see ``activation.judge``)."""
    if face == 1 and p.record_format >= 4 and p.chosen[p.models[mid]["owner"]] == mid:
        return 6
    return face


def defense_fails(p: FarsideState, mid: str, faces: list[int]) -> int:
    """The failed dice of model ``mid``'s defence roll ``faces``."""
    defense = p.models[mid]["defense"]
    return sum(1 for face in faces if counts_as(p, mid, face) < defense)


def defend(p: FarsideState, mid: str, fails: int) -> None:
    """Model ``mid`` failed ``fails`` defence dice: its impact tokens go, damage tokens come (a size-N
    model shrugs off N - 1), and three damage tokens remove it."""
    model = p.models[mid]
    model["impact"] = 0
    model["damage"] += max(0, fails - (model["size"] - 1))
    if model["damage"] >= 3:
        lose(p, mid, killed=True)


def may_evade(p: FarsideState, pending: dict[str, Any], fails: int) -> bool:
    """Evade (5+) may reroll a defence roll that would cause damage, once per round per die."""
    if p.record_format < 2 or pending.get("evaded"):
        return False
    model = p.models[pending["model"]]
    owner = model["owner"]
    die = p.manoeuvre_die[owner] or 0
    return fails > model["size"] - 1 and p.manoeuvre_used[owner] is None and die >= 5


def regenerate(p: FarsideState, mid: str) -> None:
    """Regeneration, the model's simple action: a roll of 3+ removes a damage token, a 1 adds one."""
    p.models[mid]["action"] = "regeneration"
    request_roll(p, "regeneration", p.models[mid]["owner"], 1, 6, model=mid)


def regenerated(p: FarsideState, mid: str, face: int) -> None:
    model = p.models[mid]
    face = counts_as(p, mid, face)
    fire(p, "regeneration:" + ("healed" if face >= 3 else "harmed" if face == 1 else "no_effect"))
    if face >= 3:
        model["damage"] -= 1
    elif face == 1:
        model["damage"] += 1
        if model["damage"] >= 3:
            lose(p, mid, killed=False)


def dead_zone(p: FarsideState, mid: str) -> None:
    """A model on or across a dead zone: removed on a 1 or 2, rolled once every turn."""
    p.dead_zone_rolled.append(mid)
    request_roll(p, "dead_zone", p.models[mid]["owner"], 1, 6, model=mid)


def dead_zone_rolled(p: FarsideState, mid: str, face: int) -> None:
    removed = counts_as(p, mid, face) <= 2
    fire(p, "dead_zone:" + ("removed" if removed else "survived"))
    if removed:
        lose(p, mid, killed=False)
