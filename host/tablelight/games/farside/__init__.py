"""Farside Encounter: a miniatures skirmish companion (armies, exact odds, rounds)."""

from tablelight.core.registry import GameEntry

GAME = GameEntry(
    engine="tablelight.games.farside.engine:FarsideEncounter",
    face="tablelight.games.farside.face:FarsideFace",
    commands=("tablelight.games.farside.cli",),
)
