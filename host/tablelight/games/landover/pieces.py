"""Putting pieces on the map and taking them off, with what follows: routes, harbors, islands, mysteries."""

from __future__ import annotations

from typing import Any

from tablelight.games.landover.hexmap import RESOURCES, RESOURCE_KINDS, TERRAIN_RESOURCE
from tablelight.games.landover import routes
from tablelight.games.landover.kept import settlement_placed, side_placed, side_taken
from tablelight.games.landover.places import land_hex, longest_route
from tablelight.games.landover.rules import CITY, NOBODY, PORT_MIN, ROAD, ROUTE_MIN, VILLAGE
from tablelight.games.landover.scoring import award
from tablelight.games.landover.state import Chance, LandoverState, changed, index_terrain, level_changed


def city_resources(p: LandoverState, chance: Chance, seat: int, v: int) -> None:
    """One resource per tile type the city at ``v`` touches (gold: a random one)."""
    kinds = sorted({p.terrain[h] for h in p.map.vertex_hexes[v] if land_hex(p, h)})
    for terrain in kinds:
        if terrain == "gold":
            p.hands[seat][chance.draw_below("gold", RESOURCE_KINDS, seat=seat)] += 1
        else:
            p.hands[seat][TERRAIN_RESOURCE[terrain]] += 1


def put_settlement(p: LandoverState, seat: int, v: int, level: int, setup: bool = False) -> None:
    p.corner_owner[v] = seat
    p.corner_level[v] = level
    p.corners_of[seat].append(v)
    settlement_placed(p, seat, v)
    hex_vertices = p.map.hex_vertices
    for h in p.map.vertex_hexes[v]:
        p.settled_corners[h] = tuple(u for u in hex_vertices[h] if p.corner_owner[u] != NOBODY)
    p.counts[seat]["village" if level == VILLAGE else "city"] += 1
    islands = {p.map.hex_island[h] for h in p.map.vertex_hexes[v] if p.map.hex_island[h] >= 0}
    if setup:
        p.home_islands[seat] |= islands
    else:
        for island in islands:
            if island not in p.home_islands[seat] and island not in p.explored[seat]:
                p.explored[seat].add(island)
    harbor = p.map.vertex_harbor[v]
    if harbor >= 0:
        update_harbors(p, seat)
    # A settlement cuts another player's route only where it passed through (two of
    # their sides meet here), and lengthens its owner's only by joining a road to a bridge.
    sides: dict[int, list[int]] = {}
    for e in p.map.vertex_edges[v]:
        if p.side_owner[e] != NOBODY:
            sides.setdefault(p.side_owner[e], []).append(p.side_route[e])
    cut_or_joined = [
        s for s, pieces in sorted(sides.items())
        if (s != seat and len(pieces) >= 2) or (s == seat and len(set(pieces)) == 2)
    ]
    if cut_or_joined:  # a cut route is no longer than before; a joined one may be
        update_routes(p, cut_or_joined, shorter=[s for s in cut_or_joined if s != seat])


def update_harbors(p: LandoverState, seat: int) -> None:
    m = p.map
    touched = {m.vertex_harbor[v] for v in p.corners_of[seat] if m.vertex_harbor[v] >= 0}
    p.harbor_count[seat] = len(touched)
    p.harbor_kinds[seat] = {RESOURCES.index(m.harbors[i][2]) for i in touched}
    p.port_holder = award(p, p.port_holder, p.harbor_count, PORT_MIN)


def put_edge(p: LandoverState, chance: Chance, seat: int, e: int, piece: int) -> None:
    p.side_owner[e] = seat
    p.side_route[e] = piece
    p.edges_of[seat].append(e)
    side_placed(p, seat, e, piece)
    p.counts[seat]["road" if piece == ROAD else "bridge"] += 1
    for v in p.map.edge_vertices[e]:
        for h in p.map.vertex_hexes[v]:
            if p.terrain[h] == "mystery":
                reveal(p, chance, h)
    update_routes(p, (seat,), added=e)


def take_edge(p: LandoverState, e: int) -> None:
    owner, piece = p.side_owner[e], p.side_route[e]
    p.counts[owner]["road" if piece == ROAD else "bridge"] -= 1
    p.edges_of[owner].remove(e)
    p.side_owner[e], p.side_route[e] = NOBODY, 0
    side_taken(p, owner, e)
    p.routes[owner] = routes.route_without(
        p.map, p.side_owner, p.side_route, p.corner_owner, owner, e, piece, p.routes[owner], p.edges_of[owner]
    )
    p.route_holder = award(p, p.route_holder, p.routes, ROUTE_MIN)


def reveal(p: LandoverState, chance: Chance, h: int) -> None:
    pick = chance.draw_below("mystery", len(p.mystery_left), hex=h)
    terrain, number = p.map.mystery_pool[p.mystery_left.pop(pick)]
    p.terrain[h] = terrain
    p.number[h] = number
    if p.saved_numbers is not None:
        p.saved_numbers[h] = number
    index_terrain(p)
    changed(p)


def upgrade(p: LandoverState, chance: Chance, seat: int, v: int) -> None:
    level_changed(p, seat)
    p.corner_level[v] = CITY
    p.counts[seat]["village"] -= 1
    p.counts[seat]["city"] += 1
    if p.options["city_resources"] == "every_city":
        city_resources(p, chance, seat, v)


def reduce_city(p: LandoverState, v: int) -> None:
    owner = p.corner_owner[v]
    level_changed(p, owner)
    p.corner_level[v] = VILLAGE
    p.counts[owner]["city"] -= 1
    p.counts[owner]["village"] += 1
    if p.corner_wall[v]:
        p.corner_wall[v] = False
        p.counts[owner]["wall"] -= 1


def update_routes(p: LandoverState, seats: Any, added: int = -1, shorter: Any = ()) -> None:
    """Recompute routes (after ``added``, a side just built by the one seat given, incrementally;
    for the seats in ``shorter`` (cut by a settlement) the change cannot lengthen them, so a route
    as long as before settles it)."""
    for s in seats:
        if added >= 0:
            p.routes[s] = route_after(p, s, added)
        elif s in shorter:
            p.routes[s] = routes.route_length(
                p.map, p.side_owner, p.side_route, p.corner_owner, s, p.edges_of[s], enough=p.routes[s]
            )
        else:
            p.routes[s] = longest_route(p, s)
    p.route_holder = award(p, p.route_holder, p.routes, ROUTE_MIN)


def route_after(p: LandoverState, seat: int, e: int) -> int:
    return routes.route_after(p.map, p.side_owner, p.side_route, p.corner_owner, seat, e, p.routes[seat], p.edges_of[seat])


def place_catapult(p: LandoverState, seat: int, h: int) -> None:
    old = p.catapult[seat]
    if old >= 0:
        del p.catapult_at[old]
    p.catapult[seat] = h
    p.catapult_at[h] = seat


def remove_catapult(p: LandoverState, h: int) -> None:
    owner = p.catapult_at.pop(h)
    p.catapult[owner] = -1
