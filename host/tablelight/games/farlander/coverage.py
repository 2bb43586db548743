"""Every rule of Farlander the lab's coverage report counts (``tablelight lab farlander --coverage``).

The lab reads this module beside the engine (:mod:`tablelight.lab.coverage`) and flags the rules
that never fired in a run: action types, forced skips and chance kinds, all read from the log.
Players never send ``skip``: the engine logs it for a seat that cannot act (``forced``).
"""

from __future__ import annotations

from typing import Any

from tablelight.core.actions import ChanceEntry


def rule_catalogue(players: int, options: dict[str, Any]) -> dict[str, list[str]]:
    return {
        "action": ["place", "conquer"],
        "forced": ["skip"],
        "chance": ["first_player"],
    }


def key_seats(game: Any) -> dict[str, int]:
    """The seat drawn to attack first (the second ``first_player`` draw, after the distribution)."""
    draws = [e for e in game.log if isinstance(e, ChanceEntry) and e.kind == "first_player" and e.get("phase") == "action"]
    return {"first attacker": int(draws[0].value)} if draws else {}
