"""What the search bot may not know in Landover, redrawn: the other seats' resource cards and development cards.

:func:`determinize` works on a clone (see :mod:`tablelight.core.search_bot`).
Hand sizes and development card counts are public and stay true. Another
seat's development cards are dealt again from its culture's unseen cards (the
decks plus every other seat's hidden cards of that culture); its resource and
commodity cards keep their number and are redrawn uniformly by kind (a
simplification: a careful player could track part of them from the public
production). Dice and draws to come are the bot's own generator's.
"""

from __future__ import annotations

from typing import Any

from tablelight.core.rng import Rng
from tablelight.games.landover.cards import CULTURES, card_culture


def determinize(game: Any, seat: int, rng: Rng) -> None:
    others = [s for s in range(game.players) if s != seat]
    culture_of = card_culture()
    for number, culture in enumerate(CULTURES):
        held = {s: [c for c in game.dev_cards[s] if culture_of[c] == culture] for s in others}
        pool = list(game.decks[number]) + [card for cards in held.values() for card in cards]
        rng.shuffle(pool)
        for s in others:
            keep = [c for c in game.dev_cards[s] if culture_of[c] != culture]
            count = len(held[s])
            game.dev_cards[s] = keep + pool[:count]
            pool = pool[count:]
        game.decks[number] = pool
    for s in others:
        total = sum(game.hands[s])
        redrawn = [0] * len(game.hands[s])
        for _ in range(total):
            redrawn[rng.below(len(redrawn))] += 1
        game.hands[s] = redrawn
