"""The items table, the overlay table and the clan deck as designed in docs/rules/mainland.md."""

from __future__ import annotations

import pytest

from tablelight.games.mainland.data import (
    CAMP_CARD,
    DECK,
    ITEM,
    ITEM_NAMES,
    MAINLAND_POINTS,
    MINOR_POINTS,
    PER_PLAYER,
    clan_item_counts,
    may_cover,
    rotated,
)

TERRAINS = ("plain", "forest", "mountain")
RESOURCES = ("wheat", "wood", "gold")
BASIC = TERRAINS + RESOURCES

# The overlay table written out independently of items.json: item -> what it may lie on (besides empty).
OVERLAY = {
    "plain": {"plain", "wheat"},
    "forest": {"forest", "wood"},
    "mountain": {"mountain", "gold"},
    "wheat": {"plain", "wheat"},
    "wood": {"forest", "wood"},
    "gold": {"mountain", "gold"},
    "temple": set(TERRAINS),
    "camp": set(),
    "village": set(BASIC),
    "tower": set(BASIC) | {"village"},
    "warrior": set(BASIC) | {"village", "tower", "camp"},
    "rider": set(BASIC) | {"village", "tower", "camp", "warrior", "temple"},
    "castle": set(ITEM_NAMES[1:]),
}


@pytest.mark.parametrize("item", ITEM_NAMES[1:])
def test_overlay_table(item: str) -> None:
    assert may_cover(ITEM[item], ITEM["empty"]), "every item may be placed on the empty space"
    allowed = {below for below in ITEM_NAMES[1:] if may_cover(ITEM[item], ITEM[below])}
    assert allowed == OVERLAY[item]


def test_overlay_facts_from_the_rulebook() -> None:
    # "a plain can be placed only on a plain, on a wheat resource or on an empty space"
    assert {b for b in ITEM_NAMES if may_cover(ITEM["plain"], ITEM[b])} == {"empty", "plain", "wheat"}
    assert may_cover(ITEM["gold"], ITEM["mountain"])  # gold on mountain
    assert may_cover(ITEM["mountain"], ITEM["gold"])  # a mountain put over a gold resource
    assert may_cover(ITEM["forest"], ITEM["wood"])  # a forest played on a wood resource
    # Only riders and castles can destroy a temple.
    assert {i for i in ITEM_NAMES[1:] if may_cover(ITEM[i], ITEM["temple"])} == {"rider", "castle"}
    # The castle can cover any item.
    assert all(may_cover(ITEM["castle"], ITEM[b]) for b in ITEM_NAMES)


def test_items_per_player_match_the_items_table() -> None:
    # The surviving digit run "2456799931": castle rider warrior tower village gold wood wheat temple camp.
    table = dict(zip(("castle", "rider", "warrior", "tower", "village", "gold", "wood", "wheat", "temple", "camp"), (2, 4, 5, 6, 7, 9, 9, 9, 3, 1)))
    counts = clan_item_counts()
    for name, number in table.items():
        assert counts[name] == number == PER_PLAYER[name]
    assert counts == {name: PER_PLAYER[name] for name in ITEM_NAMES[1:]}


def test_points_match_the_scoring_lists() -> None:
    mainland = {"wheat": 1, "wood": 1, "gold": 1, "temple": 2, "camp": 2, "village": 2, "tower": 2, "warrior": 4, "rider": 6, "castle": 10}
    minor = {"temple": 1, "camp": 1, "village": 1, "tower": 1, "warrior": 2, "rider": 3, "castle": 5}
    for name in ITEM_NAMES[1:]:
        assert MAINLAND_POINTS[ITEM[name]] == mainland.get(name, 0)
        assert MINOR_POINTS[ITEM[name]] == minor.get(name, 0)


def test_deck_shape() -> None:
    assert CAMP_CARD.tiles[0] == ITEM["camp"]
    assert len(DECK) == 36 and len({card.id for card in DECK}) == 36
    assert all(len(card.tiles) == 4 and ITEM["camp"] not in card.tiles for card in DECK)
    # One advanced item per advanced card; 12 land cards of terrains and resources only.
    advanced = [c for c in DECK if set(c.tiles) & {ITEM[n] for n in ("village", "tower", "warrior", "rider", "castle")}]
    assert len(advanced) == 24
    assert all(sum(t in {ITEM[n] for n in ("village", "tower", "warrior", "rider", "castle")} for t in c.tiles) == 1 for c in advanced)


def test_rotation_is_clockwise() -> None:
    tiles = (1, 2, 3, 4)  # top-left, top-right, bottom-right, bottom-left
    assert rotated(tiles, 0) == tiles
    assert rotated(tiles, 1) == (4, 1, 2, 3)  # the top-left tile moves to the top-right
    assert rotated(tiles, 2) == (3, 4, 1, 2)
    assert rotated(tiles, 3) == (2, 3, 4, 1)
