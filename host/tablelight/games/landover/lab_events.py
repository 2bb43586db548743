"""The rule events the lab counts in a finished Landover game (its entry's ``lab_events``)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from tablelight.games.landover.rules import EVENT_FACES


def lab_events(game: Any) -> Counter[str]:
    """Event-die faces rolled, metros built per culture, and who ended holding the longest route
    and the port authority."""
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
