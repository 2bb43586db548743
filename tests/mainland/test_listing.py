"""Placements are listed incrementally (each card's fits brought up to date from the anchors laid
cards changed): the listing must equal one made from scratch and the engine's own check, at every step."""

from __future__ import annotations

import pytest

from tablelight.core.errors import IllegalActionError
from tablelight.core.rng import Rng
from tablelight.games.mainland.engine import Mainland

from .helpers import started, tiles


def brute_force(game: Mainland) -> set[tuple[str, int, int, int]]:
    """Every (card, x, y, rotation) of the seat to act that ``Game.check`` accepts, normalised."""
    seat = game.current_seat()
    assert seat is not None
    cards = ["camp"] if not game.camp_placed[seat] else sorted(set(game.hands[seat]))
    legal = set()
    for card in cards:
        for y in range(game.size - 1):
            for x in range(game.size - 1):
                for rotation in range(4):
                    try:
                        action = game.check({"type": "place", "card": card, "x": x, "y": y, "rotation": rotation})
                    except IllegalActionError:
                        continue
                    legal.add((action["card"], action["x"], action["y"], action["rotation"]))
    return legal


@pytest.mark.parametrize("players,seed,options", [(2, 3, {}), (3, 8, {"own_card_requirements": True}),
                                                  (4, 1, {"board_size": 9})])
def test_the_incremental_listing_is_the_listing_from_scratch_at_every_step(players: int, seed: int,
                                                                          options: dict) -> None:
    game, rng = Mainland(players, options, seed), Rng(seed)
    steps = 0
    while not game.is_over():
        listed = list(game.placements())
        game.forget_placements()  # from scratch: every card's fits found afresh
        assert game.placements() == listed
        if steps % 9 == 0:  # the engine's check, at every anchor, card and rotation (slow: now and then)
            assert set(listed) == brute_force(game)
            assert len(set(listed)) == len(listed)
        game.apply(game.random_action(rng))
        steps += 1
    assert steps > 30


def test_a_tile_set_outside_the_rules_is_seen_by_the_next_listing() -> None:
    game = started()
    before = game.placements(0)
    tiles(game, {(5, 5): (0, "plain")})  # a tile in play far from the camps: new places touch it
    after = game.placements(0)
    assert {(x, y) for _, x, y, _ in after} - {(x, y) for _, x, y, _ in before}
    assert set(after) == brute_force(game)
