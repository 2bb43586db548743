"""Where a Mainland card may lie: the rules that read only the tiles under it (the ground and the overlay
table), as lookups the engine's listing and its check share.

The card data is :mod:`tablelight.games.mainland.data`; the engine (:mod:`.engine`) adds the rule that
reads the clan's own tiles (advanced items' requirements) and keeps which places changed as cards are
laid, so that each listing tests only those.
"""

from __future__ import annotations

from typing import Any

from tablelight.games.mainland.data import ADVANCED, CAMP_CARD, CARDS, CASTLE, COVERS, EMPTY, ITEM_NAMES, rotated

CAMP_ID = CAMP_CARD.id
#: Per card: its tiles (item numbers, clockwise from the top left) after 0-3 quarter turns; then
#: the rotations that give distinct layouts.
ROTATIONS: dict[str, tuple[tuple[int, int, int, int], ...]] = {
    cid: tuple(rotated(card.tiles, r) for r in range(4)) for cid, card in CARDS.items()
}
DISTINCT_ROTATIONS: dict[str, tuple[int, ...]] = {
    cid: tuple(r for r in range(4) if rots[r] not in rots[:r]) for cid, rots in ROTATIONS.items()
}
HAS_CASTLE: dict[str, bool] = {cid: CASTLE in card.tiles for cid, card in CARDS.items()}
#: Per card: (advanced item, copies on the card) pairs, and item -> copies on the card.
ADVANCED_ON: dict[str, tuple[tuple[int, int], ...]] = {
    cid: tuple((item, card.tiles.count(item)) for item in sorted(set(card.tiles) & ADVANCED))
    for cid, card in CARDS.items()
}
ON_CARD: dict[str, dict[int, int]] = {
    cid: {item: card.tiles.count(item) for item in set(card.tiles)} for cid, card in CARDS.items()
}

# Why a placement fails: a rule id and the values its message needs (formatted only on demand).
Problem = tuple[Any, ...]


def ground_problem(card: str, cells: tuple[int, ...], below: tuple[int, ...]) -> Problem | None:
    """The rules on what lies under the card as a whole: camps on empty space, others on play and space."""
    if card == CAMP_ID:
        for i in range(4):
            if below[i] != EMPTY:
                return ("mainland.place.camp_overlap", cells[i])
        return None
    empty = (below[0] == EMPTY) + (below[1] == EMPTY) + (below[2] == EMPTY) + (below[3] == EMPTY)
    if empty == 4:
        return ("mainland.place.touch",)
    if empty == 0 and not HAS_CASTLE[card]:
        return ("mainland.place.empty",)
    return None


def overlay_problem(card: str, rotation: int, below: tuple[int, ...]) -> int | None:
    """The first of the card's four tiles (clockwise) that the overlay table forbids on what lies below it, or None."""
    tiles = ROTATIONS[card][rotation]
    for i in range(4):
        if not COVERS[tiles[i]] >> below[i] & 1:
            return i
    return None


#: Card -> per tile position under an anchor (clockwise from the top left) -> per item lying there:
#: the card's distinct rotations (bit r for rotation r) whose tile at that position the overlay table
#: lets lie on that item. So the rotations that pass the overlay rule on four items are four lookups
#: and an AND (:func:`fitting_rotations`), asked afresh every time: no cache to keep.
OVERLAY_ROTATIONS: dict[str, tuple[tuple[int, ...], ...]] = {
    cid: tuple(
        tuple(sum(1 << r for r in DISTINCT_ROTATIONS[cid] if COVERS[ROTATIONS[cid][r][position]] >> item & 1)
              for item in range(len(ITEM_NAMES)))
        for position in range(4))
    for cid in CARDS
}
#: A set of rotations as bits -> the rotations in order.
ROTATIONS_OF_BITS = tuple(tuple(r for r in range(4) if bits >> r & 1) for bits in range(16))


def fitting_rotations(card: str, below: tuple[int, ...]) -> tuple[int, ...]:
    """The distinct rotations of ``card`` that the ground and overlay rules allow where ``below`` lies
    (the four items under an anchor). The verdict of both listing and checking; :func:`ground_problem`
    and :func:`overlay_problem` only say why a placement was refused."""
    b0, b1, b2, b3 = below
    if card == CAMP_ID:
        return DISTINCT_ROTATIONS[card] if b0 == b1 == b2 == b3 == EMPTY else ()
    empty = (b0 == EMPTY) + (b1 == EMPTY) + (b2 == EMPTY) + (b3 == EMPTY)
    if empty == 4 or (empty == 0 and not HAS_CASTLE[card]):
        return ()
    allowed = OVERLAY_ROTATIONS[card]
    return ROTATIONS_OF_BITS[allowed[0][b0] & allowed[1][b1] & allowed[2][b2] & allowed[3][b3]]
