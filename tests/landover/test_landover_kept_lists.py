"""The engine keeps lists of places and actions between actions and brings them up to date as pieces
come and go (``kept.py``); a game started from the same position, with nothing kept, lists the same
actions at every step of random games (both the seats' own lists and the board-wide ones are read
by some listing: a stale one shows as a difference when its seat lists)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tablelight.core.rng import Rng
from tablelight.games.landover.engine import Landover
from tablelight.games.landover.hexmap import LAND_EDGE

from .helpers import end_turn, main_game, path_from, pieces, spare_corners


def fresh_copy(game: Landover) -> Landover:
    position = json.loads(json.dumps(game.position()))
    return Landover(game.players, game.options, game.seed, setup={"map": game.map.to_json(), "position": position})


@pytest.mark.parametrize(
    "players, seed, options",
    [(4, 2, {}), (3, 7, {"route_limits": False, "map_name": "random"}), (4, 11, {"settlement_limits": True})],
)
def test_every_listing_equals_a_fresh_games(players: int, seed: int, options: dict[str, Any]) -> None:
    game = Landover(players, {"turn_cap": 130, "target": 14, **options}, seed)
    rng = Rng(seed)
    checked = 0
    played: set[str] = set()
    while not game.is_over():
        if game.pos.phase in ("main", "roll", "take"):
            assert fresh_copy(game).legal_actions() == game.legal_actions(), len(game.log)
            checked += 1
        action = game.random_action(rng)
        played.add(action.get("card") or action.get("piece") or action["type"])
        game.apply(action)
    assert checked > 120
    # the changes the kept lists follow: sides placed and taken, settlements, cities, walls, catapults
    assert {"road", "village", "city", "raid"} <= played and played & {"vandal", "diplomat"}, played


def turned_to(game: Landover, seat: int) -> Landover:
    """A clone of ``game`` (its kept lists too) played on to ``seat``'s turn by ending turns (the
    rolls on the way are more changes for the kept lists to follow), after its roll."""
    clone = game.clone()
    while (clone.pos.seat != seat or clone.pos.phase == "roll") and not clone.is_over():
        clone.apply({"type": "roll"} if clone.pos.phase == "roll" else {"type": "end_turn"})
    return clone


def test_every_seats_kept_lists_equal_a_fresh_games() -> None:
    """Also the lists of the seats not to act: each seat's turn is reached from the position and
    its listing compared (a village or side of one seat changes another's places)."""
    game = Landover(4, {"turn_cap": 80, "target": 14}, 5)
    rng = Rng(5)
    checked = step = 0
    while not game.is_over():
        if game.pos.phase == "main" and step % 4 == 0:
            for seat in range(4):
                turned = turned_to(game, seat)
                if not turned.is_over() and turned.pos.phase == "main":
                    assert fresh_copy(turned).legal_actions() == turned.legal_actions(), (len(game.log), seat)
                    checked += 1
        game.apply(game.random_action(rng))
        step += 1
    assert checked > 120


@pytest.mark.parametrize("players", [3, 4])
def test_a_game_loaded_from_its_record_lists_the_same(players: int) -> None:
    """Loading replays the record from the start (nothing kept): the same listing."""
    game = Landover(players, {"turn_cap": 160}, 11 + players)
    rng = Rng(players)
    step = 0
    while not game.is_over():
        if step % 23 == 0:
            assert Landover.load(game.save()).legal_actions() == game.legal_actions(), step
        game.apply(game.random_action(rng))
        step += 1
    assert step > 200


def corners_along(game: Landover, sides: list[int], start: int) -> list[int]:
    corners = [start]
    for e in sides:
        a, b = game.map.edge_vertices[e]
        corners.append(b if a == corners[-1] else a)
    return corners


def two_seats_on_one_path(**position: Any) -> tuple[Landover, list[int], list[int]]:
    """Seat 1: a village at p0 and roads p0-p1-p2 (p2 a village place); seat 0: a village at p5 and
    roads p5-p4-p3 (p3 a village place next to p2). Seat 1 to act, both able to pay a village."""
    probe = main_game(2)
    for start in range(probe.corner_count):
        if not probe.pos.corner_on_land[start]:
            continue
        try:
            sides = path_from(probe, start, 5, (LAND_EDGE,))
        except AssertionError:
            continue
        p = corners_along(probe, sides, start)
        near = {v: {v, *probe.map.vertex_neighbors[v]} for v in p}
        if p[5] not in near[p[0]] and not near[p[0]] & near[p[3]] - {p[1], p[2]} and p[2] not in near[p[5]]:
            break
    else:
        raise AssertionError("no straight enough path on the map")
    payment = {"wool": 2, "wood": 4, "clay": 4, "wheat": 2}
    game = main_game(2, position={
        "seat": 1,
        "hands": [payment, payment],
        "pieces": pieces(1, "village", [p[0]]) + pieces(0, "village", [p[5]])
        + [{"seat": 1, "piece": "road", "at": e} for e in sides[:2]]
        + [{"seat": 0, "piece": "road", "at": e} for e in sides[3:]],
        **position,
    })
    return game, p, sides


def village_places(game: Landover) -> set[int]:
    return {a["vertex"] for a in game.legal_actions() if a.get("piece") == "village"}


def road_places(game: Landover) -> set[int]:
    return {a["edge"] for a in game.legal_actions() if a.get("piece") == "road"}


def next_turn(game: Landover) -> None:
    for kind, value in (("white_die", 1), ("red_die", 1), ("event_die", 1)):  # a 2, a barbarian ship
        game.enter_chance(kind, value)
    end_turn(game)


def test_a_village_next_to_another_seats_place_takes_it_from_its_kept_list() -> None:
    game, p, sides = two_seats_on_one_path()
    assert p[2] in village_places(game)  # seat 1's list, kept from here on
    next_turn(game)
    game.apply({"type": "build", "piece": "village", "vertex": p[3]})  # seat 0, next to p2
    next_turn(game)
    assert p[2] not in village_places(game) and village_places(game) == village_places(fresh_copy(game))


def test_a_village_at_the_end_of_another_seats_road_cuts_its_kept_road_places() -> None:
    game, p, sides = two_seats_on_one_path()
    game.apply({"type": "build", "piece": "road", "edge": sides[2]})  # seat 1: p2-p3, now p3's sides fit
    beyond = {e for e in game.map.vertex_edges[p[3]] if e not in sides and game.map.edge_kind[e] == LAND_EDGE}
    assert beyond and beyond <= road_places(game)
    next_turn(game)
    game.apply({"type": "build", "piece": "village", "vertex": p[3]})  # seat 0 cuts there
    next_turn(game)
    assert not beyond & road_places(game) and road_places(game) == road_places(fresh_copy(game))


def test_a_side_taken_from_one_seat_becomes_a_place_of_the_other() -> None:
    game, p, sides = two_seats_on_one_path(dev_cards=[[], ["vandal"]])
    game.apply({"type": "build", "piece": "road", "edge": sides[2]})  # seat 1 reaches p3
    assert sides[3] not in road_places(game)  # seat 0's road p3-p4, in seat 1's kept list from here
    game.apply({"type": "play", "card": "vandal", "edge": sides[3]})
    assert sides[3] in road_places(game) and road_places(game) == road_places(fresh_copy(game))


def test_the_master_merchants_targets_follow_the_points_a_raze_takes() -> None:
    """The master merchant reads scores kept until an action that can change points: a raze takes
    its victim's point (it once counted as a play that changes none, and the target stayed listed)."""
    mine, theirs = spare_corners(main_game(2), 2)
    game = main_game(2, position={
        "dev_cards": [["raze", "master_merchant"], []],
        "military": [1, 0],
        "hands": [{}, {"wool": 2}],
        "pieces": pieces(0, "village", [mine]) + pieces(1, "city", [theirs]),
    })
    take_from_seat_1 = {"type": "play", "card": "master_merchant", "target": 1}
    assert game.scores() == [1, 2] and take_from_seat_1 in game.legal_actions()
    game.apply({"type": "play", "card": "raze", "vertex": theirs})
    assert game.scores() == [1, 1] and take_from_seat_1 not in game.legal_actions()
    assert game.legal_actions() == fresh_copy(game).legal_actions()
