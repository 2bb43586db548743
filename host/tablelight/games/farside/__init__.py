"""Farside Encounter: a miniatures skirmish companion (armies, exact odds, rounds)."""

from tablelight.core.registry import GameEntry

GAME = GameEntry(
    engine="tablelight.games.farside.engine:FarsideEncounter",
    face="tablelight.games.farside.face:FarsideFace",
    search="tablelight.games.farside.search",
    lab_events="tablelight.games.farside.lab_events:lab_events",
    commands=("tablelight.games.farside.cli",),
)
