"""Activation: a model acts for an action point (or joins an open group activation, or piles in), a
damaged model rolls to act, and a failed roll's choice (pass, act with one more damage token, or a
simple action instead); a model's third damage token this way makes the game's martyr."""

from __future__ import annotations

from tablelight.core.game import Action
from tablelight.games.farside.missions import award, lose
from tablelight.games.farside.state import FarsideState, fire, request_roll


def activate(p: FarsideState, seat: int, action: Action) -> None:
    mid = action["model"]
    if action["type"] == "pile_in":
        # Pile-in moves of group members are simple actions without an action point.
        if p.group is None or not p.group.get("pile_in"):
            p.group = {"roll": None, "pile_in": True}
        kind = "simple"
    else:
        kind = action["action"]
        if not action.get("group"):
            p.action_points[seat] -= 1
            p.group = {"roll": None}
    assert p.group is not None
    model = p.models[mid]
    model["activated"] = True
    model["action"] = kind
    if action["type"] == "pile_in" or action.get("group"):
        fire(p, "activation:pile_in" if action["type"] == "pile_in" else "activation:group")
    if model["damage"] == 0:
        return
    if p.group["roll"] is None:
        request_roll(p, "activation", seat, 1, 6, model=mid)
    else:
        judge(p, mid)


def judge(p: FarsideState, mid: str) -> None:
    """The activation roll of the open group against model ``mid``'s damage tokens."""
    model = p.models[mid]
    assert p.group is not None
    roll = p.group["roll"]
    if roll == 1 and p.chosen[model["owner"]] == mid:
        roll = 6  # The Chosen: this model's ones count as sixes
    needed_ok = roll >= model["damage"] if model.get("action") == "simple" else roll > model["damage"]
    if not needed_ok:
        fire(p, "activation:roll_failed")
        p.failed = {"model": mid, "roll": roll}
    else:
        fire(p, "activation:roll_passed")


def resolve_failure(p: FarsideState, choice: str) -> None:
    assert p.failed is not None
    mid = p.failed["model"]
    p.failed = None
    if choice == "pass":
        p.models[mid]["action"] = "pass"  # it takes no action (so no Regeneration either)
        return
    if choice == "simple":
        p.models[mid]["action"] = "simple"  # the roll allows a simple action: no damage token
        return
    model = p.models[mid]
    model["damage"] += 1
    if model["damage"] >= 3:
        if not p.martyr_given:
            p.martyr_given = True
            award(p, model["owner"], "martyr")
        lose(p, mid, killed=False)
