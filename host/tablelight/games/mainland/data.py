"""Mainland's fixed data: the items table and the clan deck, loaded from JSON.

Items are numbered for speed: ``EMPTY`` is 0 and the items of ``items.json``
follow in file order. The overlay table becomes one bit mask per item
(``COVERS[item] >> below & 1`` says whether ``item`` may lie on ``below``).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from importlib import resources
from typing import Any

EMPTY = 0


@dataclass(frozen=True)
class Card:
    """One 2x2 card: ``tiles`` clockwise from the top-left, as item numbers."""

    id: str
    tiles: tuple[int, int, int, int]


def _load(name: str) -> Any:
    return json.loads(resources.files(__package__).joinpath(name).read_text(encoding="utf-8"))


_ITEMS = _load("items.json")["items"]

#: Item names by number; index 0 is the empty space.
ITEM_NAMES: tuple[str, ...] = ("empty",) + tuple(entry["name"] for entry in _ITEMS)
ITEM: dict[str, int] = {name: number for number, name in enumerate(ITEM_NAMES)}
KIND: tuple[str, ...] = ("empty",) + tuple(entry["kind"] for entry in _ITEMS)
MAINLAND_POINTS: tuple[int, ...] = (0,) + tuple(entry["mainland"] for entry in _ITEMS)
MINOR_POINTS: tuple[int, ...] = (0,) + tuple(entry["minor"] for entry in _ITEMS)
PER_PLAYER: dict[str, int] = {entry["name"]: entry["per_player"] for entry in _ITEMS}
#: Bit mask of what each item may be placed on (bit 0: the empty space, which every item may take).
COVERS: tuple[int, ...] = (0,) + tuple(
    (1 << EMPTY) | sum(1 << ITEM[below] for below in entry["covers"]) for entry in _ITEMS
)
#: Advanced items -> the items each copy of it needs (one of each).
REQUIRES: dict[int, tuple[int, ...]] = {
    ITEM[entry["name"]]: tuple(ITEM[r] for r in entry["requires"]) for entry in _ITEMS if entry["requires"]
}
ADVANCED: frozenset[int] = frozenset(REQUIRES)
CAMP = ITEM["camp"]
CASTLE = ITEM["castle"]
TERRAINS: tuple[str, ...] = tuple(entry["name"] for entry in _ITEMS if entry["kind"] == "terrain")


def may_cover(item: int, below: int) -> bool:
    """The overlay table: may ``item`` be placed on ``below`` (``EMPTY`` for the empty space)?"""
    return bool(COVERS[item] >> below & 1)


def _card(entry: dict[str, Any]) -> Card:
    names = entry["tiles"]
    if len(names) != 4:
        raise ValueError(f"card {entry['id']} must have 4 tiles, has {len(names)}")
    return Card(entry["id"], (ITEM[names[0]], ITEM[names[1]], ITEM[names[2]], ITEM[names[3]]))


_DECK = _load("deck.json")
CAMP_CARD: Card = _card(_DECK["camp"])
DECK: tuple[Card, ...] = tuple(_card(entry) for entry in _DECK["deck"])
CARDS: dict[str, Card] = {card.id: card for card in (CAMP_CARD, *DECK)}
#: Deck card ids in their canonical (file) order; shuffles permute this order.
DECK_IDS: tuple[str, ...] = tuple(card.id for card in DECK)


def clan_item_counts() -> Counter[str]:
    """Tiles per item name over one clan's cards (camp included)."""
    return Counter(ITEM_NAMES[t] for card in (CAMP_CARD, *DECK) for t in card.tiles)


def rotated(tiles: tuple[int, ...], rotation: int) -> tuple[int, int, int, int]:
    """The tiles after ``rotation`` quarter turns clockwise (clockwise order from the top-left)."""
    r = rotation % 4
    return (tiles[-r % 4], tiles[(1 - r) % 4], tiles[(2 - r) % 4], tiles[(3 - r) % 4])


#: How a player reads a card's turn: the rotate key's quarter turns clockwise.
TURN_WORDS = ("unturned", "turned a quarter clockwise", "turned half round", "turned three quarters clockwise")


def spot_name(x: object, y: object) -> str:
    """A spot (a card's top-left tile, or a tile) as the board names it: its column and row keys."""
    return f"x{x} y{y}"


def turn_name(rotation: object) -> str:
    """A card's turn in a player's words (never degrees)."""
    return TURN_WORDS[rotation % 4 if isinstance(rotation, int) else 0]

