"""Every rule of Farlander the lab's coverage report counts (``tablelight lab farlander --coverage``).

The list follows the rulebook's sections: the distribution (a unit into an empty territory or into
one's own, the phase ending with units left out), the action (a conquest of an enemy territory, of
a garrison when garrisons are on, of an empty territory with ``claim_empty``; the move-in that leaves
a bordering territory with its single unit: "each keeping at least one"), the forced skips, the
draws of who starts, and the end (garrison territories scored, a shared win).

Action types, forced skips and chance kinds come from the log. :func:`rules_fired` follows the
board through the log (the engine's own first position, then each placement and conquest), so a
rule counts at the action where it applied. Players never send ``skip``: the engine logs it for a
seat that cannot act (``forced``).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from tablelight.core.actions import ChanceEntry
from tablelight.games.farlander.reads import FarlanderReads


def rule_catalogue(players: int, options: dict[str, Any]) -> dict[str, list[str]]:
    garrisons = bool(options.get("garrisons"))
    return {
        "action": ["place", "conquer"],
        "forced": ["skip"],
        "chance": ["first_player"],
        "distribution": ["into_empty", "reinforce"],
        "conquest": ["enemy", "source_keeps_one"] + (["garrison"] if garrisons else [])
        + (["empty"] if options.get("claim_empty") else []),
        "end": ["single_winner", "shared_win"] + (["garrison_scored"] if garrisons else []),
    }


def unreachable(players: int, options: dict[str, Any]) -> dict[str, str]:
    reasons = {}
    if not options.get("garrisons"):
        reasons["conquest:garrison"] = "garrisons are off, the default for 2 players"
        reasons["end:garrison_scored"] = "garrisons are off"
    if not options.get("claim_empty"):
        reasons["conquest:empty"] = "claim_empty is off: only enemy territories are conquered"
    return reasons


def rules_fired(game: Any) -> Counter[str]:
    """Each placement and conquest by the rule it applied, and how the game ended."""
    fired: Counter[str] = Counter()
    start = FarlanderReads(type(game)(game.players, game.options, game.seed, setup=game.setup_record()))
    owner, units = start.owners(), start.unit_counts()
    reads = FarlanderReads(game)
    garrisons = reads.garrisons_on
    territories = reads.map.territories
    index = {tid: t for t, tid in enumerate(reads.territory_ids())}
    for entry in game.log:
        if isinstance(entry, ChanceEntry) or entry.get("auto"):
            continue
        seat, action = entry["seat"], entry["action"]
        if action["type"] == "place":
            t = index[action["territory"]]
            fired["distribution:into_empty" if owner[t] is None else "distribution:reinforce"] += 1
            owner[t], units[t] = seat, units[t] + 1
        elif action["type"] == "conquer":
            t = index[action["target"]]
            fired["conquest:empty" if owner[t] is None else "conquest:enemy"] += 1
            if garrisons and territories[t].garrison:
                fired["conquest:garrison"] += 1
            for tid, count in action["moves"].items():
                source = index[tid]
                units[source] -= count
                if units[source] == 1:
                    fired["conquest:source_keeps_one"] += 1
            owner[t], units[t] = seat, sum(action["moves"].values())
    if game.is_over():
        fired["end:shared_win" if len(game.winners()) > 1 else "end:single_winner"] += 1
        if garrisons:
            fired["end:garrison_scored"] += sum(
                1 for t, who in enumerate(reads.owners()) if who is not None and territories[t].garrison
            )
    return fired


def key_seats(game: Any) -> dict[str, int]:
    """The seat drawn to attack first (the second ``first_player`` draw, after the distribution)."""
    draws = [e for e in game.log if isinstance(e, ChanceEntry) and e.kind == "first_player" and e.get("phase") == "action"]
    return {"first attacker": int(draws[0].value)} if draws else {}
