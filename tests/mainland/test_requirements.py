"""Advanced items and their requirements, with the rulebook's clarifications as cases."""

from __future__ import annotations

import pytest

from tablelight.core.errors import RuleViolationError
from tablelight.games.mainland.engine import Mainland

from tests.mainland.helpers import give, place, started, tiles

# Seat 0 places its advanced card with the advanced tile (top-left) on its own plain at (5, 5);
# the requirements lie in row 8, away from the card.
SPOT = {(5, 5): (0, "plain")}


def board(game: Mainland, *items: str, clan: int = 0, row: int = 8) -> None:
    tiles(game, {(x, row): (clan, item) for x, item in enumerate(items)})


def try_place(game: Mainland, card: str) -> str | None:
    """Place ``card`` at (5, 5) unrotated for seat 0; None if legal, else the broken rule."""
    give(game, 0, card)
    try:
        game.apply(place(card, 5, 5))
    except RuleViolationError as error:
        return error.rule
    return None


@pytest.fixture
def game() -> Mainland:
    game = started()
    tiles(game, SPOT)
    return game


def test_village_needs_wheat_wood_and_gold(game: Mainland) -> None:
    board(game, "wheat", "wood")
    assert try_place(game, "village2") == "mainland.place.requirement"
    board(game, "wheat", "wood", "gold")
    assert try_place(game, "village2") is None
    assert game.counts[0][game_item("village")] == 1


def game_item(name: str) -> int:
    from tablelight.games.mainland.data import ITEM

    return ITEM[name]


def test_second_village_needs_two_of_each(game: Mainland) -> None:
    board(game, "village", "wheat", "wood", "gold")
    assert try_place(game, "village2") == "mainland.place.requirement"
    board(game, "village", "wheat", "wood", "gold", "wheat", "wood", "gold")
    assert try_place(game, "village2") is None


@pytest.mark.parametrize(
    ("card", "needs"), [("tower2", "village"), ("warrior1", "tower"), ("rider2", "warrior"), ("castle1", "rider")]
)
def test_each_advanced_item_needs_one_of_the_level_below(game: Mainland, card: str, needs: str) -> None:
    assert try_place(game, card) == "mainland.place.requirement"
    board(game, needs)
    assert try_place(game, card) is None


def test_requirements_are_one_level_only(game: Mainland) -> None:
    # A tower needs a village, not the wheat, wood and gold the village once needed.
    board(game, "village")
    assert try_place(game, "tower2") is None


def test_requirements_are_exclusive_to_one_item(game: Mainland) -> None:
    board(game, "village", "tower")  # the one village already serves the tower
    assert try_place(game, "tower2") == "mainland.place.requirement"
    board(game, "village", "tower", "village")
    assert try_place(game, "tower2") is None


def test_a_destroyed_advanced_item_frees_its_requirement(game: Mainland) -> None:
    board(game, "village", "tower")
    tiles(game, {(1, 8): (1, "rider")})  # an opponent's rider covers the tower
    assert try_place(game, "tower2") is None


def test_requirements_are_the_clans_own(game: Mainland) -> None:
    board(game, "wheat", "wood", "gold", clan=1)
    assert try_place(game, "village2") == "mainland.place.requirement"


def test_requirements_may_be_in_separate_territories(game: Mainland) -> None:
    tiles(game, {(0, 8): (0, "wheat"), (4, 10): (0, "wood"), (9, 3): (0, "gold")})
    assert try_place(game, "village2") is None


def test_covered_item_is_no_requirement(game: Mainland) -> None:
    # The rulebook: a mountain put on your gold takes that gold away from your villages.
    board(game, "wheat", "wood", "gold")
    tiles(game, {(2, 8): (1, "mountain")})
    assert try_place(game, "village2") == "mainland.place.requirement"


def test_a_card_cannot_use_an_item_it_covers(game: Mainland) -> None:
    # village2's village lands on (5, 5): make that seat 0's only wheat.
    tiles(game, {(5, 5): (0, "wheat")})
    board(game, "wood", "gold")
    assert try_place(game, "village2") == "mainland.place.requirement"
    # ...unless the clan has another wheat to serve.
    board(game, "wood", "gold", "wheat")
    assert try_place(game, "village2") is None


def test_a_tower_cannot_use_the_village_it_covers(game: Mainland) -> None:
    tiles(game, {(5, 5): (0, "village")})
    assert try_place(game, "tower2") == "mainland.place.requirement"
    board(game, "village")
    assert try_place(game, "tower2") is None


def test_placed_items_stay_and_losses_must_be_made_up(game: Mainland) -> None:
    # The rulebook: you built a village; an opponent's forest covers your wood. The village stays,
    # and a second village needs two new wood (two of each in all).
    board(game, "village", "wheat", "wood", "gold", "wheat", "gold")
    tiles(game, {(2, 8): (1, "forest")})
    assert game.counts[0][game_item("village")] == 1
    board(game, "village", "wheat", "forest", "gold", "wheat", "gold", "wood")
    tiles(game, {(2, 8): (1, "forest")})
    assert try_place(game, "village2") == "mainland.place.requirement"  # one new wood is not enough
    tiles(game, {(7, 8): (0, "wood")})
    assert try_place(game, "village2") is None


def test_the_cards_own_items_count_only_with_the_option() -> None:
    # village6 is village, gold / forest, mountain: its own gold is on the card.
    for option, expected in ((False, "mainland.place.requirement"), (True, None)):
        game = started(own_card_requirements=option)
        tiles(game, SPOT)
        board(game, "wheat", "wood")
        assert try_place(game, "village6") == expected
