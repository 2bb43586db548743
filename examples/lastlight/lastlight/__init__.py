"""Last Light: two players take one to three lights from the end of a row; whoever takes the last wins.

A tiny example of a tablelight game in one folder (see docs/new-game.md): the rules
(:mod:`lastlight.rules`), the lit-board face (:mod:`lastlight.face`), the board layout
(``lastlight.json``) and the events the lab counts (:mod:`lastlight.lab`), registered by the entry point in ``pyproject.toml``.
"""

from pathlib import Path

from tablelight.core.registry import GameEntry

GAME = GameEntry(
    engine="lastlight.rules:LastLight",
    face="lastlight.face:LastLightFace",
    layouts=Path(__file__).parent,  # lastlight.json lives next to this file
    lab_events="lastlight.lab:lab_events",  # what `tablelight lab` counts beyond the log
)
