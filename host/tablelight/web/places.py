"""Words the seat pages add to a game: place names on the board picture, a seat's secrets as text.

Both are optional per game: a game not named here gets no labels and the generic
listing of its secrets (whatever its ``view(seat)`` shows that the other seats' views do
not).
"""

from __future__ import annotations

from typing import Any

from tablelight.core.game import Game


def place_labels(game: Game, face: Any) -> dict[int, str]:
    """LED -> the name actions and messages use for the place it lights."""
    layout = getattr(face, "layout", None)
    if game.name == "farlander" and layout is not None:
        from tablelight.games.farlander.face import territory_leds

        ids = getattr(game, "ids", [])
        return {leds[0]: ids[t] for t, leds in enumerate(territory_leds(game, layout)) if leds and t < len(ids)}  # type: ignore[arg-type]
    if game.name == "landover" and layout is not None:
        labels = {led: str(h) for h, led in getattr(layout, "hex_led", {}).items()}
        labels.update({led: str(v) for v, led in getattr(layout, "corner_led", {}).items()})
        labels.update({led: str(e) for e, led in getattr(layout, "side_led", {}).items()})
        return labels
    return {}


def keeps_secrets(game: Game) -> bool:
    """True when the game hides something from some seat (it overrides ``view``)."""
    return type(game).view is not Game.view


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
