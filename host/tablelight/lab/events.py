"""Rule events the generic log does not name, read from a finished game's public state.

The lab counts every chance kind and forced skip from the log by itself; this
module adds, per game, the events a designer asks about (a metro built, a
barbarian attack lost, a mission accomplished) from the engine's own ``state()``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from tablelight.core.game import Game


def game_events(game: Game) -> Counter[str]:
    reader = READERS.get(game.name)
    return reader(game) if reader else Counter()


def _landover(game: Any) -> Counter[str]:
    from tablelight.games.landover.rules import EVENT_FACES

    events: Counter[str] = Counter()
    for entry in game.log:
        if entry.get("chance") == "event_die" and isinstance(entry.get("value"), int):
            events[f"event_die:{EVENT_FACES[entry['value'] - 1]}"] += 1
    state = game.state()
    for metro in state.get("metros", []):
        if metro.get("seat") is not None:
            events[f"metro_built:{metro['culture']}"] += 1
    if state.get("longest_route") is not None:
        events["longest_route_held"] += 1
    if state.get("port_authority") is not None:
        events["port_authority_held"] += 1
    return events


def _farside(game: Any) -> Counter[str]:
    events: Counter[str] = Counter()
    state = game.state()
    events["rounds"] += int(state.get("round") or 0)
    reason = str(state.get("end_reason") or "")
    if reason:
        # The engine's reason is a sentence with numbers in it; count its kind.
        kind = "objectives" if "objectives" in reason else "round_limit" if "round limit" in reason else "wipe_out"
        events[f"end:{kind}"] += 1
    for seat_objectives in state.get("objectives", []):
        for mission, count in dict(seat_objectives).items():
            if count:
                events[f"mission:{mission}"] += count
    return events


READERS = {"landover": _landover, "farside": _farside}
