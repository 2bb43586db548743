"""Rule events the generic log does not name, read from a finished game's public state.

The lab counts every chance kind and forced skip from the log by itself; a game adds the
events a designer asks about (a metro built, a barbarian attack lost, a mission accomplished)
with a function its registry entry names (:attr:`~tablelight.core.registry.GameEntry.lab_events`),
which reads the engine's own ``state()`` and log.
"""

from __future__ import annotations

from collections import Counter

from tablelight.core.game import Game
from tablelight.core.registry import game_entries, load_target


def game_events(game: Game) -> Counter[str]:
    entry = game_entries().get(game.name)
    if entry is None or entry.lab_events is None:
        return Counter()
    events: Counter[str] = load_target(entry.lab_events)(game)
    return events
