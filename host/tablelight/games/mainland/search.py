"""What the search bot may not know in Mainland, redrawn: deck orders and the other clans' hands and discards.

:func:`determinize` works on a clone (see :mod:`tablelight.core.search_bot`). A
clan's own hand and discards are known to it; its deck order is not (it is
shuffled when drawn). Another clan's hand, discards and deck are pooled and
dealt again in the same sizes, so every count a player sees stays true.
"""

from __future__ import annotations

from typing import Any

from tablelight.core.rng import Rng
from tablelight.games.mainland.reads import MainlandReads


def determinize(game: Any, seat: int, rng: Rng) -> None:
    """Redraw, in the clone ``game``, what ``seat`` may not know (read through the read API, laid out
    again with the engine's ``set_cards``)."""
    reads = MainlandReads(game)
    for other in range(game.players):
        hand, discard, deck = reads.hand(other), reads.discards(other), reads.deck(other)
        if other == seat:
            rng.shuffle(deck)
            game.set_cards(other, hand, deck, discard)
            continue
        pool = hand + discard + deck
        rng.shuffle(pool)
        sizes = (len(hand), len(discard))
        game.set_cards(other, pool[: sizes[0]], pool[sizes[0] + sizes[1] :], pool[sizes[0] : sizes[0] + sizes[1]])


#: How many of the greedy bot's best placements the search weighs at each decision.
WIDTH = 6
#: Playouts of 6 actions (3 turns each at 2 players): listing a hand's placements is the slow part,
#: and the score (the largest territory) already judges a position.
PLAYOUT_SHARE = 0.5


def candidates(game: Any, actions: list[Any], policy: Any) -> list[Any]:
    """The greedy bot's best few placements (a hand gives hundreds), or every other legal action."""
    return policy.ranked(game)[:WIDTH] if hasattr(policy, "ranked") else actions
