"""Landover rules, one behaviour per test: building (sides, settlements, limits, mysteries), military
and culture, raids and trading. (Setup, the roll, barbarians, routes and the end: test_landover_rules.)"""

from __future__ import annotations

import pytest

from tablelight.core.errors import MalformedActionError
from tablelight.games.landover.engine import CITY, Landover

from .helpers import (
    COAST_EDGE,
    LAND_EDGE,
    WATER_EDGE,
    bridge,
    city,
    edges_of_kind,
    force,
    hand,
    hex_of,
    inland_corner,
    main_game,
    path_from,
    pieces,
    road,
    spare_corners,
    village,
)
from .test_landover_rules import corner_for, rejects


# -------------------------------------------------------------------- build


def coastal_start(game: Landover) -> tuple[int, int, int]:
    """A land corner v with a water side (v, w) and a road side at w that does not touch v."""
    m = game.map
    for v in range(game.corner_count):
        if not game.pos.corner_on_land[v]:
            continue
        for e in m.vertex_edges[v]:
            if m.edge_kind[e] != WATER_EDGE:
                continue
            a, b = m.edge_vertices[e]
            w = b if a == v else a
            for f in m.vertex_edges[w]:
                if f != e and m.edge_kind[f] in (LAND_EDGE, COAST_EDGE):
                    return v, e, f
    raise AssertionError("no coastal start")


def test_road_and_bridge_edge_kinds_and_the_no_mixing_rule() -> None:
    game = main_game(position={"hands": [{"wood": 5, "clay": 5, "wool": 5}, {}]})
    seat = game.pos.seat
    v, water, coast_road = coastal_start(game)
    village(game, seat, v)
    rejects(game, {"type": "build", "piece": "road", "edge": water}, "landover.build.road_on_water")
    land = next(e for e in game.map.vertex_edges[v] if game.map.edge_kind[e] == LAND_EDGE) if any(
        game.map.edge_kind[e] == LAND_EDGE for e in game.map.vertex_edges[v]
    ) else None
    if land is not None:
        rejects(game, {"type": "build", "piece": "bridge", "edge": land}, "landover.build.bridge_on_land")
    game.apply({"type": "build", "piece": "bridge", "edge": water})
    assert game.pos.hands[seat] == hand(wood=4, clay=5, wool=4)
    # The bridge's far end has no settlement: a road cannot continue from it.
    rejects(game, {"type": "build", "piece": "road", "edge": coast_road}, "landover.build.not_connected")


def test_bridge_on_land_side_is_refused() -> None:
    game = main_game(position={"hands": [{"wood": 5, "wool": 5}, {}]})
    seat = game.pos.seat
    v = inland_corner(game)
    village(game, seat, v)
    land = next(e for e in game.map.vertex_edges[v] if game.map.edge_kind[e] == LAND_EDGE)
    rejects(game, {"type": "build", "piece": "bridge", "edge": land}, "landover.build.bridge_on_land")


def test_village_needs_own_route_distance_and_cost_then_city_and_wall() -> None:
    # No wood (and later no wheat) at first: coin buys each at the bank when the test needs it.
    game = main_game(position={"hands": [{"ore": 3, "wheat": 1, "clay": 5, "wool": 1, "coin": 9}, {}]})
    seat = game.pos.seat
    assert game.trade_rate(seat, 7) == 3
    v = inland_corner(game)
    village(game, seat, v)
    path = path_from(game, v, 2, (LAND_EDGE,))
    for e in path:
        road(game, seat, e)
    end = [x for x in game.map.edge_vertices[path[1]] if x not in game.map.edge_vertices[path[0]]][0]
    middle = [x for x in game.map.edge_vertices[path[0]] if x != v][0]
    rejects(game, {"type": "build", "piece": "village", "vertex": end}, "landover.cost.cannot_afford")
    game.apply({"type": "trade", "give": "coin", "get": "wood"})
    rejects(game, {"type": "build", "piece": "village", "vertex": middle}, "landover.build.distance")
    far = next(x for x in range(game.corner_count) if game.pos.corner_on_land[x] and game.far_from_villages(x) and game.pos.side_owner[game.map.vertex_edges[x][0]] == -1 and x not in game.map.edge_vertices[path[1]])
    rejects(game, {"type": "build", "piece": "village", "vertex": far}, "landover.build.village_not_connected")
    game.apply({"type": "build", "piece": "village", "vertex": end})
    assert game.pos.corner_owner[end] == seat and game.vp(seat) == 2 and game.pos.hands[seat] == hand(ore=3, clay=4, coin=6)
    rejects(game, {"type": "build", "piece": "city", "vertex": end}, "landover.cost.cannot_afford")
    for _ in range(2):
        game.apply({"type": "trade", "give": "coin", "get": "wheat"})
    game.apply({"type": "build", "piece": "city", "vertex": end})
    assert game.pos.corner_level[end] == CITY and game.vp(seat) == 3
    game.apply({"type": "build", "piece": "wall", "vertex": end})
    assert game.safe_hand(seat) == 11
    rejects(game, {"type": "build", "piece": "wall", "vertex": end}, "landover.build.wall_taken")
    rejects(game, {"type": "build", "piece": "wall", "vertex": v}, "landover.build.wall_needs_city")


def test_piece_limits() -> None:
    """Catan's 5 villages and 4 cities only with the settlement_limits option; roads, bridges, walls always."""
    seat = 0
    board = main_game()
    spare = spare_corners(board, 9, avoid=(0,))
    game = main_game(settlement_limits=True, position={
        "hands": [{"wood": 1, "clay": 1, "wool": 1, "wheat": 1}, {}],
        "pieces": pieces(seat, "village", spare[:5]),
    })
    assert game.pos.counts[seat]["village"] == 5
    assert not any(a.get("piece") == "village" for a in game.legal_actions())
    rejects(game, {"type": "build", "piece": "village", "vertex": 0}, "landover.build.no_pieces")
    game = main_game(settlement_limits=True, position={
        "hands": [{"ore": 3, "wheat": 2}, {}],
        "pieces": pieces(seat, "village", spare[:5]) + pieces(seat, "city", spare[5:]),
    })
    assert game.pos.counts[seat]["city"] == 4
    rejects(game, {"type": "build", "piece": "city", "vertex": 0}, "landover.build.no_pieces")
    cities = spare[:3]
    roads = [e for e in reversed(edges_of_kind(board, LAND_EDGE)) if e != 0][:15]
    game = main_game(position={
        "hands": [{"wood": 1, "clay": 2}, {}],
        "pieces": pieces(seat, "city", cities) + pieces(seat, "wall", cities) + pieces(seat, "road", roads),
    })
    assert game.pos.counts[seat]["road"] == 15 and game.pos.counts[seat]["wall"] == 3
    rejects(game, {"type": "build", "piece": "road", "edge": 0}, "landover.build.no_pieces")
    rejects(game, {"type": "build", "piece": "wall", "vertex": 0}, "landover.build.no_pieces")


def test_villages_and_cities_have_no_limit_by_default() -> None:
    """The text limits walls (3) and military power (3) and no other piece: a sixth village and a
    fifth city can be built. (With Catan's limits, a player whose cities the barbarians reduce
    sits on 5 villages and can build no more: most random 4-player games then stall.)"""
    seat = 0
    board = main_game()
    home = inland_corner(board)
    elsewhere = spare_corners(board, 8, avoid=(home,))
    game = main_game(target=30, position={  # 4 more villages and 4 cities elsewhere; no win on the way
        "hands": [{"wood": 1, "clay": 1, "wool": 1, "wheat": 3, "ore": 3}, {}],
        "pieces": pieces(seat, "village", elsewhere[:4]) + pieces(seat, "city", elsewhere[4:]),
    })
    m = game.map
    village(game, seat, home)
    path = path_from(game, home, 2)
    for e in path:
        road(game, seat, e)
    end = next(v for v in m.edge_vertices[path[-1]] if v not in m.edge_vertices[path[0]])
    assert game.pos.counts[seat]["village"] == 5 and game.pos.counts[seat]["city"] == 4
    assert {"type": "build", "piece": "village", "vertex": end} in game.legal_actions()
    game.apply({"type": "build", "piece": "village", "vertex": end})
    assert game.pos.counts[seat]["village"] == 6
    assert {"type": "build", "piece": "city", "vertex": home} in game.legal_actions()
    game.apply({"type": "build", "piece": "city", "vertex": home})
    assert game.pos.counts[seat]["city"] == 5


def test_mystery_hex_is_revealed_when_a_route_touches_it() -> None:
    game = main_game()
    seat = game.pos.seat
    mystery = hex_of(game, "mystery")
    corner = game.map.hex_vertices[mystery][0]
    e = game.map.vertex_edges[corner][0]
    force(game, ("mystery", 1))
    kind = game.map.edge_kind[e]
    (bridge if kind == WATER_EDGE else road)(game, seat, e)
    assert game.pos.terrain[mystery] == game.map.mystery_pool[1][0]
    assert game.pos.number[mystery] == game.map.mystery_pool[1][1]
    assert any(e.get("chance") == "mystery" for e in game.log)


# ------------------------------------------------------------ military, culture


def test_military_costs_wool_and_wheat_and_stops_at_three_without_barracks() -> None:
    game = main_game(position={"hands": [{"wool": 5, "wheat": 5, "coin": 6}, {}]})
    seat = game.pos.seat
    for _ in range(3):
        game.apply({"type": "military"})
    assert game.pos.military[seat] == 3 and game.pos.hands[seat] == hand(wool=2, wheat=2, coin=6)
    rejects(game, {"type": "military"}, "landover.military.cap")
    for _ in range(3):  # politics 3 (1 + 2 + 3 coin): barracks
        game.apply({"type": "improve", "culture": "politics"})
    assert game.pos.culture[seat][2] == 3 and game.pos.hands[seat][7] == 0
    game.apply({"type": "military"})
    assert game.pos.military[seat] == 4


def test_culture_costs_and_metro_to_the_first_at_level_four() -> None:
    seat, other = 0, 1
    # A second player at level 3 of science (see the end).
    game = main_game(position={"hands": [{"paper": 15}, {}], "culture": [{}, {"science": 3}]})
    game.apply({"type": "improve", "culture": "science"})
    assert game.pos.culture[seat][0] == 1 and game.pos.hands[seat][6] == 14
    game.apply({"type": "improve", "culture": "science"})
    game.apply({"type": "improve", "culture": "science"})
    assert game.pos.culture[seat][0] == 3 and game.pos.hands[seat][6] == 9
    rejects(game, {"type": "improve", "culture": "science"}, "landover.culture.metro_needs_city")
    v = inland_corner(game)
    city(game, seat, v)
    with pytest.raises(MalformedActionError):
        game.apply({"type": "improve", "culture": "science"})
    assert {"type": "improve", "culture": "science", "city": v} in game.legal_actions()
    game.apply({"type": "improve", "culture": "science", "city": v})
    assert game.pos.hands[seat][6] == 5 and game.pos.metro_owner[0] == seat and game.pos.corner_metro[v] == 0
    assert game.vp_breakdown(seat)["metros"] == 2 and game.vp(seat) == 4
    # A second player at level 4 gets no metro.
    assert game.metro_cities(other, "science", 4) is None


def test_metro_is_taken_by_the_first_at_level_six_then_kept() -> None:
    seat, other = 0, 1
    board = main_game()
    va = inland_corner(board)
    city(board, other, va)
    vb = next(v for v in range(board.corner_count) if board.pos.corner_on_land[v] and board.far_from_villages(v))
    game = main_game(position={
        "pieces": pieces(other, "city", [va]) + pieces(seat, "city", [vb]),
        "metros": {"commerce": va},
        "culture": [{"commerce": 5}, {"commerce": 5}],
        "hands": [{"cloth": 6}, {}],
    })
    assert game.pos.metro_owner[1] == other and game.pos.corner_metro[va] == 1
    game.apply({"type": "improve", "culture": "commerce", "city": vb})
    assert game.pos.metro_owner[1] == seat and game.pos.metro_locked[1] and game.pos.corner_metro[va] == -1 and game.pos.corner_metro[vb] == 1
    assert game.metro_cities(other, "commerce", 6) is None  # locked for good


def test_science_three_aqueduct_commerce_three_bank_rates() -> None:
    seat = 0
    assert main_game().trade_rate(seat, 5) == 3
    game = main_game(position={"culture": [{"commerce": 3}, {}]})
    assert game.trade_rate(seat, 5) == 2 and game.trade_rate(seat, 0) == 3


# ------------------------------------------------------------ raids, trading


def test_raid_costs_military_steals_once_per_turn_and_catapult_removal() -> None:
    a, b = 0, 1

    def raider(military: int) -> Landover:
        game = main_game(position={"hands": [{}, {"ore": 2}], "military": [military, 0]})
        village(game, b, corner_for(game, hex_of(game, "sheep")))
        return game

    sheep = hex_of(main_game(), "sheep")
    rejects(raider(0), {"type": "raid", "hex": sheep}, "landover.military.none")
    game = raider(3)
    own = hex_of(game, "field")
    rejects(game, {"type": "raid", "hex": own}, "landover.raid.not_a_target")
    force(game, ("steal", 1))
    game.apply({"type": "raid", "hex": sheep})
    assert game.pos.military[a] == 2 and game.pos.catapult[a] == sheep and game.pos.hands[a] == hand(ore=1)
    assert game.pos.hands[b] == hand(ore=1)
    second = inland_corner(game, "mountain")
    village(game, b, second)
    other_hex = next(h for h in game.map.vertex_hexes[second] if h != sheep and h not in game.pos.catapult_at)
    rejects(game, {"type": "raid", "hex": other_hex}, "landover.raid.once_per_turn")
    game.apply({"type": "remove_catapult", "hex": sheep})
    assert game.pos.catapult_at == {} and game.pos.military[a] == 1


def test_trading_rates_bank_harbor_and_refusals() -> None:
    game = main_game(position={"hands": [{"wool": 3, "ore": 2}, {}]})
    seat = game.pos.seat
    game.apply({"type": "trade", "give": "wool", "get": "coin"})
    assert game.pos.hands[seat] == hand(coin=1, ore=2)
    rejects(game, {"type": "trade", "give": "ore", "get": "wool"}, "landover.trade.not_enough")
    rejects(game, {"type": "trade", "give": "ore", "get": "ore"}, "landover.trade.same_kind")
    h, side, resource = next(x for x in game.map.harbors if x[2] == "ore")
    v = game.map.hex_vertices[h][side]
    village(game, seat, v)
    assert game.trade_rate(seat, 2) == 2
    game.apply({"type": "trade", "give": "ore", "get": "wool"})
    assert game.pos.hands[seat] == hand(coin=1, wool=1)


def test_port_authority_needs_three_harbors_and_must_be_beaten() -> None:
    game = main_game()
    a, b = game.pos.order
    harbors = game.map.harbors
    for h, side, _ in harbors[:3]:
        village(game, a, game.map.hex_vertices[h][side])
    assert game.pos.port_holder == a and game.vp_breakdown(a)["port_authority"] == 2
    for h, side, _ in harbors[3:6]:
        village(game, b, game.map.hex_vertices[h][side])
    assert game.pos.port_holder == a  # a tie does not take it

