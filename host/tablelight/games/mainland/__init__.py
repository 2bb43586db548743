"""Mainland: 2x2-tile cards, overlay rules, advanced items and the largest-territory scoring."""

from tablelight.core.registry import GameEntry

GAME = GameEntry(
    engine="tablelight.games.mainland.engine:Mainland",
    face="tablelight.games.mainland.face:MainlandFace",
    search="tablelight.games.mainland.search",
    commands=("tablelight.games.mainland.cli",),
)
