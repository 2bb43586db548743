"""Where pieces may go: the read-only placement rules that both the listing and the checks use."""

from __future__ import annotations

from tablelight.core.game import Action
from tablelight.games.landover.hexmap import LAND_EDGE, TERRAIN_RESOURCE, WATER_EDGE
from tablelight.games.landover.routes import route_length
from tablelight.games.landover.rules import (
    BRIDGE,
    CITY,
    MAX_CULTURE,
    NOBODY,
    ROAD,
    hex_action,
    play_action,
)
from tablelight.games.landover.state import LandoverState, cached


def distance_ok(p: LandoverState, v: int) -> bool:
    corner_owner = p.corner_owner
    if corner_owner[v] != NOBODY:
        return False
    for w in p.map.vertex_neighbors[v]:
        if corner_owner[w] != NOBODY:
            return False
    return True


def setup_corners(p: LandoverState) -> list[int]:
    return cached(p, 
        ("setup",), lambda: [v for v in range(p.corner_count) if p.starting_corner[v] and distance_ok(p, v)]
    )


def setup_roads(p: LandoverState) -> list[int]:
    v = p.setup_vertex
    return [e for e in p.map.vertex_edges[v] if p.side_owner[e] == NOBODY and p.map.edge_kind[e] != WATER_EDGE]


def edge_fits(p: LandoverState, seat: int, e: int, piece: int) -> bool:
    """Whether ``seat`` may put a road (1) or bridge (2) on side ``e``: the rule itself, which the
    listing and the check both ask (:meth:`_edge_problem` only says why not)."""
    m = p.map
    if m.edge_kind[e] == (WATER_EDGE if piece == ROAD else LAND_EDGE) or p.side_owner[e] != NOBODY:
        return False
    side_owner, side_route, corner_owner = p.side_owner, p.side_route, p.corner_owner
    for v in m.edge_vertices[e]:
        owner = corner_owner[v]
        if owner == seat:
            return True
        if owner != NOBODY:
            continue  # an opponent's settlement cuts the route
        for f in m.vertex_edges[v]:
            if side_owner[f] == seat and side_route[f] == piece:
                return True
    return False


def edge_problem(p: LandoverState, seat: int, e: int, piece: int) -> tuple[str, str] | None:
    """Why ``seat`` may not put a road (1) or bridge (2) on side ``e``, or None if it may."""
    if edge_fits(p, seat, e, piece):
        return None
    kind = p.map.edge_kind[e]
    name = "road" if piece == ROAD else "bridge"
    if piece == ROAD and kind == WATER_EDGE:
        return ("landover.build.road_on_water", f"side {e} lies between water hexes: only a bridge fits there")
    if piece == BRIDGE and kind == LAND_EDGE:
        return ("landover.build.bridge_on_land", f"side {e} lies between land hexes: only a road fits there")
    if p.side_owner[e] != NOBODY:
        return ("landover.build.side_taken", f"side {e} already holds a road or bridge")
    return (
        "landover.build.not_connected",
        f"a {name} must join your own {name}s, villages or cities (a road meets a bridge only at your settlement)",
    )


def route_edges(p: LandoverState, seat: int, piece: int) -> list[int]:
    kept = p.kept.seats[seat]  # a NEAR_SEAT list, read without _cached: the listing asks often
    found = kept.get(("route", seat, piece))
    if found is None:
        found = kept[("route", seat, piece)] = route_edges_now(p, seat, piece)
    return found


def route_edges_now(p: LandoverState, seat: int, piece: int) -> list[int]:
    # A free side can only fit where it touches one of the seat's settlements or one of
    # its sides of the same piece: those are the candidates the rule is asked about.
    m = p.map
    side_owner, side_route = p.side_owner, p.side_route
    ends: set[int] = set(p.corners_of[seat])
    for f in p.edges_of[seat]:
        if side_route[f] == piece:
            ends.update(m.edge_vertices[f])
    vertex_edges = m.vertex_edges
    candidates = sorted({e for v in ends for e in vertex_edges[v] if side_owner[e] == NOBODY})
    fits = edge_fits
    return [e for e in candidates if fits(p, seat, e, piece)]


def village_fits(p: LandoverState, seat: int, v: int) -> bool:
    """Whether ``seat`` may build a village on corner ``v`` (the rule; :meth:`_village_problem` says why not)."""
    if not p.corner_on_land[v] or not distance_ok(p, v):
        return False
    side_owner = p.side_owner
    for e in p.map.vertex_edges[v]:
        if side_owner[e] == seat:
            return True
    return False


def village_problem(p: LandoverState, seat: int, v: int) -> tuple[str, str] | None:
    if village_fits(p, seat, v):
        return None
    if not p.corner_on_land[v]:
        return ("landover.build.village_at_sea", f"corner {v} touches no land hex")
    if not distance_ok(p, v):
        return ("landover.build.distance", f"corner {v} is taken or next to a village or city (distance rule)")
    return ("landover.build.village_not_connected", f"corner {v} is not at the end of your road or bridge")


def village_corners(p: LandoverState, seat: int) -> list[int]:
    def compute() -> list[int]:
        m = p.map
        near = sorted({v for f in p.edges_of[seat] for v in m.edge_vertices[f]})
        fits = village_fits
        return [v for v in near if fits(p, seat, v)]

    return cached(p, ("village", seat), compute)


def own_corners(p: LandoverState, seat: int, level: int) -> list[int]:
    kept = p.kept.own[seat]  # an OWN_PIECES list, read without _cached: the listing asks often
    found = kept.get(("own", seat, level))
    if found is None:
        levels = p.corner_level
        found = kept[("own", seat, level)] = sorted(v for v in p.corners_of[seat] if levels[v] == level)
    return found


def wall_corners(p: LandoverState, seat: int) -> list[int]:
    return [v for v in own_corners(p, seat, CITY) if not p.corner_wall[v]]


def free_cities(p: LandoverState, seat: int) -> list[int]:
    return [v for v in own_corners(p, seat, CITY) if p.corner_metro[v] < 0]


def improve_cost(p: LandoverState, level: int) -> int:
    return max(0, level + 1 - (1 if p.crane else 0))


def metro_choices(p: LandoverState, seat: int, c: int, new_level: int) -> list[int] | None:
    """Cities the metro may go on if reaching ``new_level`` wins it; None if it wins none."""
    owner = p.metro_owner[c]
    if new_level == 4 and owner == NOBODY:
        return free_cities(p, seat)
    if new_level == MAX_CULTURE and owner not in (NOBODY, seat) and not p.metro_locked[c]:
        return free_cities(p, seat)
    return None


def land_hex(p: LandoverState, h: int) -> bool:
    return p.terrain[h] not in ("water", "mystery")


def raid_hexes(p: LandoverState, seat: int) -> list[int]:
    """The land hexes next to another seat's village or city and without a catapult."""
    places = raid_places(p, seat)
    catapults = p.catapult_at
    return [h for h in places if h not in catapults] if catapults else places


def raid_places(p: LandoverState, seat: int) -> list[int]:
    """:meth:`_raid_hexes` with the catapults in: kept (catapults come and go every few turns)."""

    def compute() -> list[int]:
        hexes = p.map.vertex_hexes
        near = {h for s in range(p.players) if s != seat for v in p.corners_of[s] for h in hexes[v]}
        return sorted(h for h in near if land_hex(p, h))

    return cached(p, ("raid", seat), compute)


def raid_plays(p: LandoverState, seat: int, card: str | None = None) -> list[Action]:
    """The raids ``seat`` may make now (or the plays of ``card``, the siege, naming the hex), made
    once for its raid places and kept with them; the catapults are left out at each call."""

    def compute() -> tuple[list[int], list[Action]]:
        places = raid_places(p, seat)
        made = [hex_action("raid", h) for h in places] if card is None else [play_action(card, "hex", h) for h in places]
        return places, made

    places, made = cached(p, ("raid_actions", seat, card), compute)
    catapults = p.catapult_at
    return [action for h, action in zip(places, made) if h not in catapults] if catapults else made


def lucky_hexes(p: LandoverState) -> list[int]:
    catapults = p.catapult_at
    return [h for h in p.land_hexes if h not in catapults]


def settled_hexes(p: LandoverState, seat: int) -> list[int]:
    """Land hexes next to one of ``seat``'s villages or cities (merchant places)."""
    return cached(p, 
        ("settled", seat),
        lambda: sorted(
            {h for v in p.corners_of[seat] for h in p.map.vertex_hexes[v] if p.terrain[h] in TERRAIN_RESOURCE}
        ),
    )


def open_end(p: LandoverState, owner: int, e: int) -> bool:
    """True if one end of ``owner``'s side ``e`` leads nowhere (no own piece continues there)."""
    m = p.map
    corner_owner, side_owner, vertex_edges = p.corner_owner, p.side_owner, m.vertex_edges
    for v in m.edge_vertices[e]:
        if corner_owner[v] == owner:
            continue
        for f in vertex_edges[v]:
            if f != e and side_owner[f] == owner:
                break
        else:
            return True
    return False


def open_edges(p: LandoverState, owner: int) -> list[int]:
    return cached(p, ("open", owner), lambda: [e for e in p.edges_of[owner] if open_end(p, owner, e)])


def diplomat_targets(p: LandoverState, seat: int, e: int) -> list[int]:
    """Sides where ``seat``'s piece on ``e`` may move: where it could be built with it lifted.

    Lifting a piece only matters to sides that touch its ends, so the other sides
    come from the usual building list and only those near ``e`` are checked again.
    """
    piece = p.side_route[e]
    m = p.map
    near = {f for v in m.edge_vertices[e] for f in m.vertex_edges[v]}
    far = [f for f in route_edges(p, seat, piece) if f not in near]
    p.side_owner[e], p.side_route[e] = NOBODY, 0
    try:
        close = [f for f in near if f != e and edge_fits(p, seat, f, piece)]
    finally:
        p.side_owner[e], p.side_route[e] = seat, piece
    return sorted(far + close)


def longest_route(p: LandoverState, seat: int) -> int:
    """Longest route of ``seat`` (see :mod:`tablelight.games.landover.routes`)."""
    return route_length(p.map, p.side_owner, p.side_route, p.corner_owner, seat, p.edges_of[seat])
