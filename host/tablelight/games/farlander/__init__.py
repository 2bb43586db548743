"""Farlander: hex-tile territory conquest for 2-4 players."""

from tablelight.core.registry import GameEntry

GAME = GameEntry(
    engine="tablelight.games.farlander.engine:Farlander",
    face="tablelight.games.farlander.face:FarlanderFace",
    search="tablelight.games.farlander.search",
)
