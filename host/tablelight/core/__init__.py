"""The rules contract shared by every engine, and the tools built on it.

>>> from tablelight.core import new_game
>>> game = new_game("farlander", 2, seed=7)
>>> game.current_seat() in (0, 1)
True
>>> action = game.legal_actions()[0]
>>> game.apply(action)
>>> game.undo() == {"seat": game.current_seat(), "action": action}
True
"""

from tablelight.core.actions import ActionEntry, ChanceEntry, FrozenDict, FrozenList
from tablelight.core.errors import (
    GameOverError,
    IllegalActionError,
    MalformedActionError,
    NothingToUndoError,
    NotYourTurnError,
    RecordError,
    RuleViolationError,
    SetupError,
    TablelightError,
)
from tablelight.core.game import Action, Game, LogEntry
from tablelight.core.options import OptionSpec
from tablelight.core.record import replay
from tablelight.core.registry import game_class, game_names, new_game
from tablelight.core.rng import Rng

__all__ = [
    "Action",
    "ActionEntry",
    "ChanceEntry",
    "FrozenDict",
    "FrozenList",
    "Game",
    "GameOverError",
    "IllegalActionError",
    "LogEntry",
    "MalformedActionError",
    "NothingToUndoError",
    "NotYourTurnError",
    "OptionSpec",
    "RecordError",
    "Rng",
    "RuleViolationError",
    "SetupError",
    "TablelightError",
    "game_class",
    "game_names",
    "new_game",
    "replay",
]
