"""Errors shared by every rules engine.

Every illegal action raises a subclass of :class:`IllegalActionError` that names
the rule it breaks in :attr:`IllegalActionError.rule`, a stable dotted id such as
``"farlander.distribution.territory_full"``, so that clients can react to it
without parsing the message. Raising never changes the game.
"""

from __future__ import annotations

from typing import Any


class TablelightError(Exception):
    """Base class of every error this package raises on purpose."""


class IllegalActionError(TablelightError):
    """An action the rules forbid. The game is left unchanged."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message

    def to_json(self) -> dict[str, Any]:
        return {"kind": type(self).__name__, "rule": self.rule, "message": self.message}


class MalformedActionError(IllegalActionError):
    """The action is not of the game's action shape (unknown type, missing field, bad id)."""


class NotYourTurnError(IllegalActionError):
    """A seat acted when it was another seat's turn."""


class GameOverError(IllegalActionError):
    """An action was sent after the game ended."""


class ImpossibleChanceError(IllegalActionError):
    """An outcome entered for a chance draw (``Game.enter_chance``: physical dice) that the draw can never give."""


class RuleViolationError(IllegalActionError):
    """A well-formed action on the right turn that a rule of the game forbids."""


class NothingToUndoError(TablelightError):
    """``undo()`` with no player action in the log."""


class SetupError(TablelightError):
    """A game cannot be created with these players, options or map."""


class RecordError(TablelightError):
    """A game record is not a legal game.

    :attr:`entry` is the index in the record's ``log`` of the first offending
    entry (``None`` when the problem is outside the log, such as a bad header).
    """

    def __init__(self, message: str, entry: int | None = None) -> None:
        super().__init__(message)
        self.entry = entry
        self.message = message
