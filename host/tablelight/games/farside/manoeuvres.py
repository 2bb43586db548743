"""Manoeuvres played with the manoeuvre die: Inspired rerolls a failed activation, Cure removes a
damage token, Disappear takes a model off the table (a breakthrough, and loot when it carries a
token), The Chosen names the model whose ones count as sixes; the others are recorded only. Evade is
offered in the impact phase (``rounds``)."""

from __future__ import annotations

from tablelight.core.game import Action
from tablelight.games.farside.missions import award, count_breakthrough, leave
from tablelight.games.farside.state import FarsideState, fire, request_roll


def manoeuvre(p: FarsideState, action: Action) -> None:
    player, name = action["player"], action["name"]
    p.manoeuvre_used[player] = name
    fire(p, f"manoeuvre:{name}")
    if name == "Inspired":
        assert p.failed is not None and p.group is not None
        mid = p.failed["model"]
        p.failed = None
        p.group["roll"] = None
        request_roll(p, "activation", p.models[mid]["owner"], 1, 6, model=mid, inspired=True)
    elif name == "Cure":
        p.models[action["model"]]["damage"] -= 1
    elif name == "Disappear":
        # "It does not count as a loss but counts for the missions breakthrough and loot":
        # a breakthrough always, and loot when the model carries a loot token.
        leave(p, action["model"])
        count_breakthrough(p, player)
        if action.get("loot"):
            p.loot_left -= 1
            award(p, player, "loot")
    elif name == "The Chosen":
        p.chosen[player] = action["model"]


def name_chosen(p: FarsideState, seat: int, mid: str) -> None:
    """The Chosen named with the command die (a manoeuvre die of 6, at the start of the round)."""
    p.manoeuvre_used[seat] = "The Chosen"
    fire(p, "manoeuvre:The Chosen")
    p.chosen[seat] = mid
