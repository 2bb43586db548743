"""Game names -> engine classes, imported lazily so the CLI starts fast."""

from __future__ import annotations

import importlib
from typing import Any

from tablelight.core.errors import SetupError
from tablelight.core.game import Game

#: name -> "module:Class". Add a line here to register a new engine.
GAMES: dict[str, str] = {
    "farlander": "tablelight.games.farlander.engine:Farlander",
    "farside": "tablelight.games.farside.engine:FarsideEncounter",
    "landover": "tablelight.games.landover.engine:Landover",
    "mainland": "tablelight.games.mainland.engine:Mainland",
}


def game_names() -> list[str]:
    return sorted(GAMES)


def game_class(name: str) -> type[Game]:
    try:
        target = GAMES[name]
    except (KeyError, TypeError):
        raise SetupError(f"unknown game {name!r}; known games: {', '.join(game_names())}") from None
    module_name, _, class_name = target.partition(":")
    cls: type[Game] = getattr(importlib.import_module(module_name), class_name)
    return cls


def new_game(
    name: str, players: int, options: dict[str, Any] | None = None, seed: int = 0
) -> Game:
    """Create a game by name: ``new_game("farlander", 3, {"garrisons": True}, seed=7)``."""
    return game_class(name)(players, options, seed)
