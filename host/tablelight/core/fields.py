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


def is_player_action(entry: Any) -> bool:
    """A log entry holding a seat's own choice (not chance, not a forced skip the engine took)."""
    return isinstance(entry, dict) and "action" in entry and not entry.get("auto")
