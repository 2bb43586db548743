"""What the search bot may not know in Landover, redrawn: the other seats' resource cards and development cards.

:func:`determinize` works on a clone (see :mod:`tablelight.core.search_bot`).
Hand sizes and development card counts are public and stay true. Another
seat's development cards are dealt again from its culture's unseen cards (the
decks plus every other seat's hidden cards of that culture); its resource and
commodity cards keep their number and are redrawn uniformly by kind (a
simplification: a careful player could track part of them from the public
production). While the bot's own master merchant or spy waits for its take (phase ``take``), the
target's hand or development cards are what the bot sees, and stay. Dice and draws to come are the
bot's own generator's.
"""

from __future__ import annotations

from typing import Any

from tablelight.core.rng import Rng
from tablelight.games.landover.cards import CULTURES, card_culture


def determinize(game: Any, seat: int, rng: Rng) -> None:
    others = [s for s in range(game.players) if s != seat]
    # While its master merchant or spy waits for the take, ``seat`` sees the target's cards: they stay.
    taking = game.taking if game.taking is not None and game.taking["seat"] == seat else None
    seen_hand = taking["target"] if taking is not None and taking["card"] == "master_merchant" else None
    seen_devs = taking["target"] if taking is not None and taking["card"] == "spy" else None
    culture_of = card_culture()
    for number, culture in enumerate(CULTURES):
        held = {s: [c for c in game.dev_cards[s] if culture_of[c] == culture] for s in others if s != seen_devs}
        pool = list(game.decks[number]) + [card for cards in held.values() for card in cards]
        rng.shuffle(pool)
        for s in held:
            keep = [c for c in game.dev_cards[s] if culture_of[c] != culture]
            count = len(held[s])
            game.dev_cards[s] = keep + pool[:count]
            pool = pool[count:]
        game.decks[number] = pool
    for s in others:
        if s == seen_hand:
            continue
        total = sum(game.hands[s])
        redrawn = [0] * len(game.hands[s])
        for _ in range(total):
            redrawn[rng.below(len(redrawn))] += 1
        game.hands[s] = redrawn
