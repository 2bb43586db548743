"""How the search bot searches Landover (see :mod:`tablelight.core.search_bot`).

:func:`determinize` redraws, in a clone, what the bot's seat may not know: the
other seats' resource cards and development cards.
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

import math
from typing import Any

from tablelight.core.game import Action
from tablelight.core.rng import Rng
from tablelight.games.landover.bots import corner_value
from tablelight.games.landover.cards import CULTURES, card_culture
from tablelight.games.landover.rules import NOBODY

#: The board's geometry never changes in a game: lookahead copies share it (most of a copy's cost).
SHARED = ("map",)
#: Playouts of 6 actions (about a turn): the cut-off value sees production and culture, so a longer
#: playout adds little but cost.
PLAYOUT_SHARE = 0.5
#: How many of the greedy bot's best actions the search weighs (a turn lists dozens of trades and roads).
WIDTH = 4
#: The dice decide most of what a short playout shows, so the candidates face the same sampled worlds.
PAIRED = True
#: Victory points a cut-off playout credits for what a seat is building towards: per production
#: pip of its villages and cities (a city counts twice), per card in hand, per culture level.
PER_PIP, PER_CARD, PER_CULTURE = 0.08, 0.05, 0.15
#: Lead in (estimated) victory points worth most of a win.
SCALE = 3.0


def candidates(game: Any, actions: list[Action], policy: Any) -> list[Action]:
    """The greedy bot's best few actions."""
    return policy.ranked(game)[:WIDTH] if hasattr(policy, "ranked") else actions


def evaluate(game: Any) -> list[float]:
    """A cut-off playout's value: each seat's lead in victory points plus what it is building towards."""
    worth = [float(game.vp(seat)) + PER_CARD * game.hand_size(seat) + PER_CULTURE * sum(game.culture[seat])
             for seat in range(game.players)]
    for v in range(game.corner_count):
        owner = game.corner_owner[v]
        if owner != NOBODY:
            worth[owner] += PER_PIP * corner_value(game, v) * game.corner_level[v]
    rewards = []
    for seat in range(game.players):
        best_other = max(w for other, w in enumerate(worth) if other != seat)
        rewards.append(0.5 + 0.5 * math.tanh((worth[seat] - best_other) / SCALE))
    return rewards


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
