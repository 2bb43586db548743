"""Helpers for building Mainland positions in tests."""

from __future__ import annotations

from typing import Any

from tablelight.games.mainland.engine import Mainland


def started(players: int = 2, seed: int = 0, **options: Any) -> Mainland:
    """A game where every clan has laid its camp, far apart in the top row corners and below."""
    game = Mainland(players, options, seed)
    spots = [(0, 0), (game.size - 2, game.size - 2), (game.size - 2, 0), (0, game.size - 2)]
    for seat in range(players):
        x, y = spots[seat]
        game.apply({"type": "place", "card": "camp", "x": x, "y": y, "rotation": 0})
    return game


def give(game: Mainland, seat: int, *cards: str) -> None:
    """Put ``cards`` in ``seat``'s hand (taken from its deck or discards; the hand keeps its size, a
    card it gives up goes to the deck), through the engine's documented ``set_cards``."""
    hand, deck, discards = list(game.hands[seat]), list(game.decks[seat]), list(game.discards[seat])
    for card in cards:
        if card in hand:
            continue
        for pile in (deck, discards):
            if card in pile:
                pile.remove(card)
                break
        else:
            raise AssertionError(f"{card} is not available to seat {seat}")
        returned = next(c for c in hand if c not in cards)
        hand.remove(returned)
        deck.append(returned)
        hand.append(card)
    game.set_cards(seat, hand, deck, discards)


def tiles(game: Mainland, layout: dict[tuple[int, int], tuple[int, str]]) -> None:
    for (x, y), (clan, item) in layout.items():
        game.set_tile(x, y, clan, item)


def place(card: str, x: int, y: int, rotation: int = 0) -> dict[str, Any]:
    return {"type": "place", "card": card, "x": x, "y": y, "rotation": rotation}
