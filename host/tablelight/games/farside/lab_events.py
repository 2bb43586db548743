"""The rule events the lab counts in a finished Farside game (its entry's ``lab_events``)."""

from __future__ import annotations

from collections import Counter
from typing import Any


def lab_events(game: Any) -> Counter[str]:
    """Rounds played, how the game ended, and each mission accomplished."""
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
