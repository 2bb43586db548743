"""Small checks on JSON values that every engine, record reader and face shares."""

from __future__ import annotations

from typing import Any, TypeGuard

#: The owner of nothing (a free territory, corner or side) in every engine's state.
NOBODY = -1


def is_whole(value: Any) -> TypeGuard[int]:
    """A JSON whole number: an ``int`` but not a ``bool`` (``True`` is an int in Python)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_whole_in(value: Any, low: int, high: int) -> TypeGuard[int]:
    """A whole number with ``low <= value <= high``."""
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def is_number(value: Any) -> TypeGuard[int | float]:
    """A JSON number: an ``int`` or ``float`` but not a ``bool``."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def is_player_action(entry: Any) -> bool:
    """A log entry holding a seat's own choice (not chance, not a forced skip the engine took).

    Works on typed entries (:class:`~tablelight.core.actions.ActionEntry`) and on a record's JSON alike."""
    return isinstance(entry, dict) and "action" in entry and not entry.get("auto")


def is_action_entry(entry: Any) -> bool:
    """A log entry holding an action, a seat's own or a forced skip (not a chance outcome)."""
    return isinstance(entry, dict) and "action" in entry


def is_chance_entry(entry: Any) -> bool:
    """A log entry holding a chance outcome."""
    return isinstance(entry, dict) and "chance" in entry
