"""Every rule of Farside Encounter the lab's coverage report counts (``tablelight lab farside --coverage``).

The lab reads this module beside the engine (:mod:`tablelight.lab.coverage`) and flags the rules
that never fired in a run. Action types, manoeuvres, activations and chance kinds come from the
log; missions accomplished and why the game ended come from the lab's events
(:mod:`tablelight.lab.events`).
"""

from __future__ import annotations

from typing import Any

from tablelight.games.farside.tables import MISSIONS, tables

ACTIONS = ("secret", "command", "activate", "pile_in", "failed", "impact", "secure", "break_through", "loot",
           "manoeuvre", "accept", "end_turn", "done")
#: action type -> (its field that names a rule, the category of that rule)
FIELD_RULES = {"manoeuvre": ("name", "manoeuvre"), "activate": ("action", "activation"),
               "secret": ("primary", "primary")}
CHANCE_KINDS = ("setup", "deployment", "secure_zones", "loot_tokens", "command", "activation", "defense")


def rule_catalogue(players: int, options: dict[str, Any]) -> dict[str, list[str]]:
    # With ``dice = table`` the seats send their own rolls (``roll``) and the host draws no chance.
    table_dice = options.get("dice") == "table"
    return {
        "action": list(ACTIONS) + (["roll"] if table_dice else []),
        "manoeuvre": [row["name"] for row in tables()["manoeuvres"]],
        "activation": ["simple", "complex"],
        "primary": ["loot", "breakthrough", "secure", "destruction"],
        "chance": [] if table_dice else list(CHANCE_KINDS),
        "event": [f"mission:{m}" for m in MISSIONS] + ["end:objectives", "end:round_limit", "end:wipe_out"],
    }
