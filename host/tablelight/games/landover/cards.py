"""Development cards as data (``cards.json``): the three culture decks with quantities and texts."""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

CULTURES = ("science", "commerce", "politics")


@functools.lru_cache(maxsize=1)
def card_table() -> dict[str, Any]:
    text = resources.files("tablelight.games.landover").joinpath("cards.json").read_text("utf-8")
    table: dict[str, Any] = json.loads(text)
    return table


@functools.lru_cache(maxsize=1)
def full_decks() -> dict[str, tuple[str, ...]]:
    """Culture -> every card of its deck (each name repeated by its quantity), in table order."""
    decks = card_table()["decks"]
    return {c: tuple(card["name"] for card in decks[c] for _ in range(card["qty"])) for c in CULTURES}


@functools.lru_cache(maxsize=1)
def card_culture() -> dict[str, str]:
    return {card["name"]: c for c in CULTURES for card in card_table()["decks"][c]}


@functools.lru_cache(maxsize=1)
def vp_cards() -> frozenset[str]:
    return frozenset(card["name"] for c in CULTURES for card in card_table()["decks"][c] if card.get("vp"))
