"""Landover: a Settlers-like game of islands, culture and barbarians (see docs/rules/landover.md)."""

from tablelight.core.registry import GameEntry

GAME = GameEntry(
    engine="tablelight.games.landover.engine:Landover",
    face="tablelight.games.landover.face:LandoverFace",
    search="tablelight.games.landover.search",
    lab_events="tablelight.games.landover.lab_events:lab_events",
)
