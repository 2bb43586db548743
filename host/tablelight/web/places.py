"""Words the seat pages add to a game: a seat's secrets as text.

The face words them (``GameFace.secret_sections``); a face that does not gets the generic
listing (whatever the seat's ``view(seat)`` shows that another seat's view does not). Place names
on the board picture come from the face too (``GameFace.place_labels``).
"""

from __future__ import annotations

from typing import Any

from tablelight.core.game import Game
from tablelight.table.face import GameFace, words

__all__ = ["secret_sections", "words"]


def secret_sections(game: Game, face: GameFace, seat: int) -> list[tuple[str, str | list[str]]]:
    """(title, text) for what ``seat`` sees and the other seats do not (its hand, cards...)."""
    mine = game.view(seat)
    sections = face.secret_sections(seat, mine)
    if sections is not None:
        return sections
    other = game.view((seat + 1) % game.players)
    found: list[tuple[str, str | list[str]]] = []

    def walk(path: str, a: Any, b: Any) -> None:
        if isinstance(a, dict) and isinstance(b, dict):
            for key, value in a.items():
                walk(f"{path} {key}".strip(), value, b.get(key, _MISSING))
        elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b) == game.players:
            walk(path, a[seat], b[seat])  # a per-seat list: only this seat's entry is its own
        elif a != b and path not in ("seat",):
            found.append((path.replace("_", " "), words(a)))

    walk("", mine, other)
    return found


_MISSING = object()
