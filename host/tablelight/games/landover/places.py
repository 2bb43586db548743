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
from tablelight.games.landover.state import LandoverState


class LandoverPlaces(LandoverState):
    def _distance_ok(self, v: int) -> bool:
        corner_owner = self.corner_owner
        if corner_owner[v] != NOBODY:
            return False
        for w in self.map.vertex_neighbors[v]:
            if corner_owner[w] != NOBODY:
                return False
        return True

    def _setup_corners(self) -> list[int]:
        return self._cached(
            ("setup",), lambda: [v for v in range(self.corner_count) if self.starting_corner[v] and self._distance_ok(v)]
        )

    def _setup_roads(self) -> list[int]:
        v = self.setup_vertex
        return [e for e in self.map.vertex_edges[v] if self.side_owner[e] == NOBODY and self.map.edge_kind[e] != WATER_EDGE]

    def _edge_fits(self, seat: int, e: int, piece: int) -> bool:
        """Whether ``seat`` may put a road (1) or bridge (2) on side ``e``: the rule itself, which the
        listing and the check both ask (:meth:`_edge_problem` only says why not)."""
        m = self.map
        if m.edge_kind[e] == (WATER_EDGE if piece == ROAD else LAND_EDGE) or self.side_owner[e] != NOBODY:
            return False
        side_owner, side_route, corner_owner = self.side_owner, self.side_route, self.corner_owner
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

    def _edge_problem(self, seat: int, e: int, piece: int) -> tuple[str, str] | None:
        """Why ``seat`` may not put a road (1) or bridge (2) on side ``e``, or None if it may."""
        if self._edge_fits(seat, e, piece):
            return None
        kind = self.map.edge_kind[e]
        name = "road" if piece == ROAD else "bridge"
        if piece == ROAD and kind == WATER_EDGE:
            return ("landover.build.road_on_water", f"side {e} lies between water hexes: only a bridge fits there")
        if piece == BRIDGE and kind == LAND_EDGE:
            return ("landover.build.bridge_on_land", f"side {e} lies between land hexes: only a road fits there")
        if self.side_owner[e] != NOBODY:
            return ("landover.build.side_taken", f"side {e} already holds a road or bridge")
        return (
            "landover.build.not_connected",
            f"a {name} must join your own {name}s, villages or cities (a road meets a bridge only at your settlement)",
        )

    def _route_edges(self, seat: int, piece: int) -> list[int]:
        kept = self._cache.seats[seat]  # a NEAR_SEAT list, read without _cached: the listing asks often
        found = kept.get(("route", seat, piece))
        if found is None:
            found = kept[("route", seat, piece)] = self._route_edges_now(seat, piece)
        return found

    def _route_edges_now(self, seat: int, piece: int) -> list[int]:
        # A free side can only fit where it touches one of the seat's settlements or one of
        # its sides of the same piece: those are the candidates the rule is asked about.
        m = self.map
        side_owner, side_route = self.side_owner, self.side_route
        ends: set[int] = set(self.corners_of[seat])
        for f in self.edges_of[seat]:
            if side_route[f] == piece:
                ends.update(m.edge_vertices[f])
        vertex_edges = m.vertex_edges
        candidates = sorted({e for v in ends for e in vertex_edges[v] if side_owner[e] == NOBODY})
        fits = self._edge_fits
        return [e for e in candidates if fits(seat, e, piece)]

    def _village_fits(self, seat: int, v: int) -> bool:
        """Whether ``seat`` may build a village on corner ``v`` (the rule; :meth:`_village_problem` says why not)."""
        if not self.corner_on_land[v] or not self._distance_ok(v):
            return False
        side_owner = self.side_owner
        for e in self.map.vertex_edges[v]:
            if side_owner[e] == seat:
                return True
        return False

    def _village_problem(self, seat: int, v: int) -> tuple[str, str] | None:
        if self._village_fits(seat, v):
            return None
        if not self.corner_on_land[v]:
            return ("landover.build.village_at_sea", f"corner {v} touches no land hex")
        if not self._distance_ok(v):
            return ("landover.build.distance", f"corner {v} is taken or next to a village or city (distance rule)")
        return ("landover.build.village_not_connected", f"corner {v} is not at the end of your road or bridge")

    def _village_corners(self, seat: int) -> list[int]:
        def compute() -> list[int]:
            m = self.map
            near = sorted({v for f in self.edges_of[seat] for v in m.edge_vertices[f]})
            fits = self._village_fits
            return [v for v in near if fits(seat, v)]

        return self._cached(("village", seat), compute)

    def _own_corners(self, seat: int, level: int) -> list[int]:
        kept = self._cache.own[seat]  # an OWN_PIECES list, read without _cached: the listing asks often
        found = kept.get(("own", seat, level))
        if found is None:
            levels = self.corner_level
            found = kept[("own", seat, level)] = sorted(v for v in self.corners_of[seat] if levels[v] == level)
        return found

    def _wall_corners(self, seat: int) -> list[int]:
        return [v for v in self._own_corners(seat, CITY) if not self.corner_wall[v]]

    def _free_cities(self, seat: int) -> list[int]:
        return [v for v in self._own_corners(seat, CITY) if self.corner_metro[v] < 0]

    def _improve_cost(self, level: int) -> int:
        return max(0, level + 1 - (1 if self.crane else 0))

    def _metro_choices(self, seat: int, c: int, new_level: int) -> list[int] | None:
        """Cities the metro may go on if reaching ``new_level`` wins it; None if it wins none."""
        owner = self.metro_owner[c]
        if new_level == 4 and owner == NOBODY:
            return self._free_cities(seat)
        if new_level == MAX_CULTURE and owner not in (NOBODY, seat) and not self.metro_locked[c]:
            return self._free_cities(seat)
        return None

    def _land_hex(self, h: int) -> bool:
        return self.terrain[h] not in ("water", "mystery")

    def _raid_hexes(self, seat: int) -> list[int]:
        """The land hexes next to another seat's village or city and without a catapult."""
        places = self._raid_places(seat)
        catapults = self.catapult_at
        return [h for h in places if h not in catapults] if catapults else places

    def _raid_places(self, seat: int) -> list[int]:
        """:meth:`_raid_hexes` with the catapults in: kept (catapults come and go every few turns)."""

        def compute() -> list[int]:
            hexes = self.map.vertex_hexes
            near = {h for s in range(self.players) if s != seat for v in self.corners_of[s] for h in hexes[v]}
            return sorted(h for h in near if self._land_hex(h))

        return self._cached(("raid", seat), compute)

    def _raid_plays(self, seat: int, card: str | None = None) -> list[Action]:
        """The raids ``seat`` may make now (or the plays of ``card``, the siege, naming the hex), made
        once for its raid places and kept with them; the catapults are left out at each call."""

        def compute() -> tuple[list[int], list[Action]]:
            places = self._raid_places(seat)
            made = [hex_action("raid", h) for h in places] if card is None else [play_action(card, "hex", h) for h in places]
            return places, made

        places, made = self._cached(("raid_actions", seat, card), compute)
        catapults = self.catapult_at
        return [action for h, action in zip(places, made) if h not in catapults] if catapults else made

    def _lucky_hexes(self) -> list[int]:
        catapults = self.catapult_at
        return [h for h in self._land_hexes if h not in catapults]

    def _settled_hexes(self, seat: int) -> list[int]:
        """Land hexes next to one of ``seat``'s villages or cities (merchant places)."""
        return self._cached(
            ("settled", seat),
            lambda: sorted(
                {h for v in self.corners_of[seat] for h in self.map.vertex_hexes[v] if self.terrain[h] in TERRAIN_RESOURCE}
            ),
        )

    def _open_end(self, owner: int, e: int) -> bool:
        """True if one end of ``owner``'s side ``e`` leads nowhere (no own piece continues there)."""
        m = self.map
        corner_owner, side_owner, vertex_edges = self.corner_owner, self.side_owner, m.vertex_edges
        for v in m.edge_vertices[e]:
            if corner_owner[v] == owner:
                continue
            for f in vertex_edges[v]:
                if f != e and side_owner[f] == owner:
                    break
            else:
                return True
        return False

    def _open_edges(self, owner: int) -> list[int]:
        return self._cached(("open", owner), lambda: [e for e in self.edges_of[owner] if self._open_end(owner, e)])

    def _diplomat_targets(self, seat: int, e: int) -> list[int]:
        """Sides where ``seat``'s piece on ``e`` may move: where it could be built with it lifted.

        Lifting a piece only matters to sides that touch its ends, so the other sides
        come from the usual building list and only those near ``e`` are checked again.
        """
        piece = self.side_route[e]
        m = self.map
        near = {f for v in m.edge_vertices[e] for f in m.vertex_edges[v]}
        far = [f for f in self._route_edges(seat, piece) if f not in near]
        self.side_owner[e], self.side_route[e] = NOBODY, 0
        try:
            close = [f for f in near if f != e and self._edge_fits(seat, f, piece)]
        finally:
            self.side_owner[e], self.side_route[e] = seat, piece
        return sorted(far + close)

    def route_length(self, seat: int) -> int:
        """Longest route of ``seat`` (see :mod:`tablelight.games.landover.routes`)."""
        return route_length(self.map, self.side_owner, self.side_route, self.corner_owner, seat, self.edges_of[seat])
