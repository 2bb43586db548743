"""Mainland's read API (games/mainland/reads.py) answers what the game's own state and views say,
and what it gives cannot change the game (the caller may keep and change it)."""

from __future__ import annotations

import json

import pytest

from tablelight.core.rng import Rng
from tablelight.games.mainland.data import ITEM_NAMES
from tablelight.games.mainland.engine import Mainland
from tablelight.games.mainland.reads import MainlandReads


def positions(players: int, seed: int) -> list[Mainland]:
    """A game after every action of a random game, each position a clone."""
    game, rng, found = Mainland(players, seed=seed), Rng(seed), []
    while not game.is_over():
        found.append(game.clone())
        game.apply(game.random_action(rng))
    return found + [game]


@pytest.mark.parametrize("players", [2, 3])
def test_the_reads_agree_with_the_state_and_the_views(players: int) -> None:
    for game in positions(players, seed=players)[::9]:
        reads, state = MainlandReads(game), game.state()
        size = reads.size
        assert size == state["size"] and reads.current_seat() == state["turn"] and reads.replaced == state["replaced"]
        board = {(c["x"], c["y"]): (c["clan"], c["item"]) for c in state["board"]}
        clans, items = reads.tile_clans(), reads.tile_items()
        for y in range(size):
            for x in range(size):
                shown = board.get((x, y))
                assert reads.clan_at(x, y) == clans[y * size + x] == (None if shown is None else shown[0])
                assert ITEM_NAMES[items[y * size + x]] == ("empty" if shown is None else shown[1])
        assert {xy: (clan, ITEM_NAMES[item]) for xy, (clan, item) in reads.board_cells().items()} == board
        for seat in range(players):
            view = game.view(seat)
            assert reads.hand(seat) == view["hand"] and reads.discards(seat) == view["discard"]
            assert reads.deck(seat) == state["decks"][seat] and reads.deck_size(seat) == state["deck_sizes"][seat]
            assert reads.tokens(seat) == state["tokens"][seat] and reads.camp_placed(seat) == state["camp_placed"][seat]
        assert [clan.total for clan in reads.clan_scores()] == state["scores"]
        places = [{"type": "place", "card": c, "x": x, "y": y, "rotation": r} for c, x, y, r in reads.placements()]
        assert places == [a for a in game.legal_actions() if a["type"] == "place"]


def test_what_the_reads_give_cannot_change_the_game() -> None:
    game = positions(2, seed=4)[30]
    reads = MainlandReads(game)
    seat = reads.current_seat()
    assert seat is not None
    before = json.dumps(game.state(), sort_keys=True), game.legal_actions(), game.scores()
    given = (reads.tile_clans(), reads.tile_items(), reads.hand(seat), reads.deck(seat), reads.discards(seat),
             reads.placements(), reads.clan_scores())
    for each in given:
        each.clear()
    reads.board_cells().clear()
    assert (json.dumps(game.state(), sort_keys=True), game.legal_actions(), game.scores()) == before
