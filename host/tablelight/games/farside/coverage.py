"""Every rule of Farside Encounter the lab's coverage report counts (``tablelight lab farside --coverage``).

The list follows the rulebook's sections: the actions of a turn, the activation and its roll (a
failed roll and the player's choice after it), the eleven manoeuvres, the special rule and the
terrain the tracker keeps (Regeneration, Dead Zone), the eight missions as primary objective, as
stratagem and accomplished, taking over a secured zone, the Evade offer, and the ways a game ends.

The lab counts action types and chance kinds from the log. Everything else is counted by the
engine where it happens (``FarsideState._fire``, kept in ``game.fired``): a manoeuvre whether it is
entered as one or named with the command die (The Chosen), an activation roll passed or failed, a
mission when it is awarded, a Regeneration roll's outcome, the reason the game ended. So a rule
shows as fired exactly when the engine applied it.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from tablelight.core.fields import is_action_entry
from tablelight.games.farside.tables import MISSIONS, tables

ACTIONS = ("secret", "command", "activate", "pile_in", "failed", "impact", "secure", "break_through", "loot",
           "manoeuvre", "accept", "regenerate", "dead_zone", "end_turn", "done")
#: action type -> (its field that names a rule, the category of that rule)
FIELD_RULES = {"activate": ("action", "activation"), "failed": ("choice", "failed")}
CHANCE_KINDS = ("setup", "deployment", "secure_zones", "loot_tokens", "command", "activation", "defense",
                "regeneration", "dead_zone")
#: The rules the engine counts where they fire (``game.fired``), by category.
ENGINE_RULES = {
    "activation": ["roll_passed", "roll_failed", "group", "pile_in"],
    "evade": ["offered", "roll_kept"],
    "regeneration": ["healed", "no_effect", "harmed"],
    "dead_zone": ["removed", "survived"],
    "secure": ["takeover"],
}


def rule_catalogue(players: int, options: dict[str, Any]) -> dict[str, list[str]]:
    # With ``dice = table`` the seats send their own rolls (``roll``) and the host draws no chance;
    # with ``press`` the seat sends an empty roll and the host draws it.
    dice = options.get("dice", "host")
    deployment = options.get("deployment", "roll_each")
    chances = [] if dice == "table" else [
        kind for kind in CHANCE_KINDS if kind != "deployment" or deployment in ("roll_each", "roll_shared")
    ]
    announced = options.get("game_end") == "announced"
    ends = ["wipe_out", "no_models_left"] + (["announced"] if announced else ["objectives"])
    ends += ["round_limit"] if options.get("round_limit") else []
    return {
        "action": list(ACTIONS) + (["roll"] if dice in ("table", "press") else []) + (["announce_end"] if announced else []),
        "activation": ["simple", "complex"] + ENGINE_RULES["activation"],
        "failed": ["pass", "act", "simple"],
        "manoeuvre": [row["name"] for row in tables()["manoeuvres"]],
        "primary": list(MISSIONS),
        "stratagem": list(MISSIONS),
        "mission": list(MISSIONS),
        "evade": ENGINE_RULES["evade"],
        "regeneration": ENGINE_RULES["regeneration"],
        "dead_zone": ENGINE_RULES["dead_zone"],
        "secure": ENGINE_RULES["secure"],
        "chance": chances,
        "end": ends,
    }


def unreachable(players: int, options: dict[str, Any]) -> dict[str, str]:
    """The rules an option turns off in this variant, with the reason."""
    reasons = {}
    if not options.get("round_limit"):
        reasons["end:round_limit"] = "round_limit is 0: the rulebook sets no round limit"
    if options.get("game_end") != "announced":
        reasons["end:announced"] = "game_end is at_limit: the game ends by itself after the limit's round"
    else:
        reasons["end:objectives"] = "game_end is announced: play goes on past the limit until a player announces the end"
    if options.get("dice") == "table":
        reasons["chance:*"] = "dice = table: the players enter every roll, the host draws none"
    if options.get("deployment") in ("10", "20", "30"):
        reasons["chance:deployment"] = f"deployment = {options['deployment']}: a fixed width, no roll"
    return reasons


def rules_fired(game: Any) -> Counter[str]:
    """The rules the engine counted where they fired."""
    return Counter(getattr(game, "fired", {}))


def key_seats(game: Any) -> dict[str, int]:
    """The seat that acted first in round 1 (fewer action points, the lower sum on a draw). The lab's
    "first player" is the seat that noted its secret first, always seat 0 here."""
    for entry in game.log:
        if is_action_entry(entry) and entry["action"]["type"] not in ("secret", "command", "roll"):
            return {"first to act": int(entry["seat"])}
    return {}
