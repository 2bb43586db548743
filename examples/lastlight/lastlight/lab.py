"""The rule events ``tablelight lab`` counts in a finished game of Last Light (the entry's ``lab_events``)."""

from __future__ import annotations

from collections import Counter
from typing import Any


def lab_events(game: Any) -> Counter[str]:
    """How many lights the winning take took (``last_take:2``): a designer asks how games end."""
    events: Counter[str] = Counter()
    takes = [entry["action"]["count"] for entry in game.log if "action" in entry]
    if game.is_over() and takes:
        events[f"last_take:{takes[-1]}"] += 1
    return events
