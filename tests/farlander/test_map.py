import json
from collections import Counter

import pytest

from tablelight.core import SetupError, new_game
from tablelight.core.rng import Rng
from tablelight.games.farlander.map import build_map, load_tile_designs, map_from_json, random_map


def test_tile_set_has_24_territories_four_tiles_of_three_three_of_four():
    designs = load_tile_designs()
    assert len(designs) == 7
    assert Counter(len(d["territories"]) for d in designs) == {3: 4, 4: 3}
    assert any(t.get("garrison") for d in designs for t in d["territories"])


def test_random_map_is_a_connected_symmetric_flower():
    game_map = random_map(Rng(11))
    territories = {t.id: t for t in game_map.territories}
    assert len(territories) == 24
    assert Counter(t.tile for t in game_map.territories) == Counter(
        {slot: n for slot, n in Counter(t.tile for t in game_map.territories).items()}
    )
    assert sorted(Counter(t.tile for t in game_map.territories).values()) == [3, 3, 3, 3, 4, 4, 4]
    for t in game_map.territories:
        assert t.id not in t.neighbors
        for n in t.neighbors:
            assert t.id in territories[n].neighbors
    seen, stack = set(), [game_map.territories[0].id]
    while stack:
        tid = stack.pop()
        if tid not in seen:
            seen.add(tid)
            stack.extend(territories[tid].neighbors)
    assert len(seen) == 24


def test_adjacency_crosses_touching_tile_edges_only():
    # Design 0 ("tri") everywhere, no rotation: slot 0's N slice (a1, edges 0-1) meets slot 1's S slice.
    game_map = build_map([(0, 0)] * 7)
    by_id = {t.id: t for t in game_map.territories}
    assert by_id["a1"].edges == (0, 1)
    assert "b2" in by_id["a1"].neighbors  # b2 holds edges 2-3 of the tile north of the centre
    # The centre tile touches every ring tile; ring tiles touch only their two ring neighbours and the centre.
    for t in game_map.territories:
        if t.tile != 0:
            assert all(by_id[n].tile in {0, t.tile, (t.tile % 6) + 1, ((t.tile - 2) % 6) + 1} for n in t.neighbors)


def test_rotation_and_shuffle_change_with_the_seed():
    maps = {json.dumps(random_map(Rng(seed)).to_json(), sort_keys=True) for seed in range(10)}
    assert len(maps) == 10


def test_map_round_trips_through_json_and_game_uses_a_given_map():
    game_map = random_map(Rng(3))
    again = map_from_json(json.loads(json.dumps(game_map.to_json())))
    assert [t.neighbors for t in again.territories] == [t.neighbors for t in game_map.territories]
    game = new_game("farlander", 2, seed=99)
    other = type(game)(2, {}, 99, setup={"map": game_map.to_json()})
    assert other.map.to_json()["territories"] == game_map.to_json()["territories"]


@pytest.mark.parametrize(
    "bad, message",
    [
        ({}, "territories"),
        ({"territories": [{"id": "x", "neighbors": []}]}, "at least two"),
        ({"territories": [{"id": "x", "neighbors": ["y"]}, {"id": "y", "neighbors": []}]}, "symmetric"),
        ({"territories": [{"id": "x", "neighbors": ["z"]}, {"id": "y", "neighbors": []}]}, "unknown neighbour"),
        ({"territories": [{"id": "x", "neighbors": []}, {"id": "x", "neighbors": []}]}, "twice"),
        ({"territories": [{"id": "x", "neighbors": ["x"]}, {"id": "y", "neighbors": []}]}, "itself"),
        ({"territories": [{"id": "x", "neighbors": [], "garrison": "yes"}, {"id": "y", "neighbors": []}]}, "garrison"),
    ],
)
def test_bad_map_files_get_clear_errors(bad, message):
    with pytest.raises(SetupError, match=message):
        map_from_json(bad)
