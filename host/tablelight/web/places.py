"""Words the seat pages add to a game: a seat's secrets as text.

A game not named here gets the generic listing of its secrets (whatever its ``view(seat)``
shows that the other seats' views do not). Place names on the board picture come from the
face (``GameFace.place_labels``).
"""

from __future__ import annotations

from typing import Any

from tablelight.core.game import Game


def words(value: Any) -> str:
    """A JSON value as a short line for people."""
    if isinstance(value, dict):
        shown = [f"{k.replace('_', ' ')} {words(v)}" for k, v in value.items() if v not in (0, None, [], {})]
        return ", ".join(shown) or "none"
    if isinstance(value, list):
        return ", ".join(words(v) for v in value) or "none"
    return str(value).replace("_", " ")


def secret_sections(game: Game, seat: int) -> list[tuple[str, str | list[str]]]:
    """(title, text) for what ``seat`` sees and the other seats do not (its hand, cards...)."""
    mine = game.view(seat)
    other = game.view((seat + 1) % game.players)
    sections = game_sections(game, seat, mine)
    if sections is not None:
        return sections
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


def game_sections(game: Game, seat: int, view: dict[str, Any]) -> list[tuple[str, str | list[str]]] | None:
    """Hand-written sections for games whose secrets read better with their own words."""
    if game.name == "mainland":
        from tablelight.games.mainland.face import card_words

        hand = [f"{card}: {card_words(card)}" for card in view.get("hand", [])]
        return [("hand", hand or ["empty"]), ("discard pile", words(view.get("discard", [])))]
    if game.name == "landover":
        player = view["players"][seat]
        return [("resources", words(player.get("hand", {}))), ("development cards", words(player.get("dev_cards", [])))]
    return None
