"""Putting pieces on the map and taking them off, with what follows: routes, harbors, islands, mysteries."""

from __future__ import annotations

from typing import Any

from tablelight.games.landover.hexmap import RESOURCES, RESOURCE_KINDS, TERRAIN_RESOURCE
from tablelight.games.landover.routes import route_after, route_length, route_without
from tablelight.games.landover.rules import (
    CITY,
    NOBODY,
    PORT_MIN,
    ROAD,
    ROUTE_MIN,
    VILLAGE,
)
from tablelight.games.landover.scoring import LandoverScoring


class LandoverPieces(LandoverScoring):
    def _city_resources(self, seat: int, v: int) -> None:
        """One resource per tile type the city at ``v`` touches (gold: a random one)."""
        kinds = sorted({self.terrain[h] for h in self.map.vertex_hexes[v] if self._land_hex(h)})
        for terrain in kinds:
            if terrain == "gold":
                self.hands[seat][self._chance_below("gold", RESOURCE_KINDS, seat=seat)] += 1
            else:
                self.hands[seat][TERRAIN_RESOURCE[terrain]] += 1

    def _put_settlement(self, seat: int, v: int, level: int, setup: bool = False) -> None:
        self.corner_owner[v] = seat
        self.corner_level[v] = level
        self.corners_of[seat].append(v)
        self._settlement_placed(seat, v)
        hex_vertices = self.map.hex_vertices
        for h in self.map.vertex_hexes[v]:
            self._settled_corners[h] = tuple(u for u in hex_vertices[h] if self.corner_owner[u] != NOBODY)
        self.counts[seat]["village" if level == VILLAGE else "city"] += 1
        islands = {self.map.hex_island[h] for h in self.map.vertex_hexes[v] if self.map.hex_island[h] >= 0}
        if setup:
            self.home_islands[seat] |= islands
        else:
            for island in islands:
                if island not in self.home_islands[seat] and island not in self.explored[seat]:
                    self.explored[seat].add(island)
        harbor = self.map.vertex_harbor[v]
        if harbor >= 0:
            self._update_harbors(seat)
        # A settlement cuts another player's route only where it passed through (two of
        # their sides meet here), and lengthens its owner's only by joining a road to a bridge.
        sides: dict[int, list[int]] = {}
        for e in self.map.vertex_edges[v]:
            if self.side_owner[e] != NOBODY:
                sides.setdefault(self.side_owner[e], []).append(self.side_route[e])
        changed = [
            s for s, pieces in sorted(sides.items())
            if (s != seat and len(pieces) >= 2) or (s == seat and len(set(pieces)) == 2)
        ]
        if changed:  # a cut route is no longer than before; a joined one may be
            self._update_routes(changed, shorter=[s for s in changed if s != seat])

    def _update_harbors(self, seat: int) -> None:
        m = self.map
        touched = {m.vertex_harbor[v] for v in self.corners_of[seat] if m.vertex_harbor[v] >= 0}
        self.harbor_count[seat] = len(touched)
        self.harbor_kinds[seat] = {RESOURCES.index(m.harbors[i][2]) for i in touched}
        self.port_holder = self._award(self.port_holder, self.harbor_count, PORT_MIN)

    def _award(self, holder: int, values: list[int], minimum: int) -> int:
        """Longest route / port authority: keep it until beaten by one; a tie for a lost title sets it aside."""
        best = max(values)
        if holder != NOBODY and values[holder] >= best and values[holder] >= minimum:
            return holder
        if best < minimum:
            return NOBODY
        leaders = [s for s, value in enumerate(values) if value == best]
        return leaders[0] if len(leaders) == 1 else NOBODY

    def _put_edge(self, seat: int, e: int, piece: int) -> None:
        self.side_owner[e] = seat
        self.side_route[e] = piece
        self.edges_of[seat].append(e)
        self._side_placed(seat, e, piece)
        self.counts[seat]["road" if piece == ROAD else "bridge"] += 1
        for v in self.map.edge_vertices[e]:
            for h in self.map.vertex_hexes[v]:
                if self.terrain[h] == "mystery":
                    self._reveal(h)
        self._update_routes((seat,), added=e)

    def _take_edge(self, e: int) -> None:
        owner, piece = self.side_owner[e], self.side_route[e]
        self.counts[owner]["road" if piece == ROAD else "bridge"] -= 1
        self.edges_of[owner].remove(e)
        self.side_owner[e], self.side_route[e] = NOBODY, 0
        self._side_taken(owner, e)
        self.routes[owner] = route_without(
            self.map, self.side_owner, self.side_route, self.corner_owner, owner, e, piece, self.routes[owner], self.edges_of[owner]
        )
        self.route_holder = self._award(self.route_holder, self.routes, ROUTE_MIN)

    def _reveal(self, h: int) -> None:
        pick = self._chance_below("mystery", len(self.mystery_left), hex=h)
        terrain, number = self.map.mystery_pool[self.mystery_left.pop(pick)]
        self.terrain[h] = terrain
        self.number[h] = number
        if self.saved_numbers is not None:
            self.saved_numbers[h] = number
        self._index_terrain()
        self._changed()

    def _upgrade(self, seat: int, v: int) -> None:
        self._level_changed(seat)
        self.corner_level[v] = CITY
        self.counts[seat]["village"] -= 1
        self.counts[seat]["city"] += 1
        if self.options["city_resources"] == "every_city":
            self._city_resources(seat, v)

    def _reduce_city(self, v: int) -> None:
        owner = self.corner_owner[v]
        self._level_changed(owner)
        self.corner_level[v] = VILLAGE
        self.counts[owner]["city"] -= 1
        self.counts[owner]["village"] += 1
        if self.corner_wall[v]:
            self.corner_wall[v] = False
            self.counts[owner]["wall"] -= 1

    def _update_routes(self, seats: Any, added: int = -1, shorter: Any = ()) -> None:
        """Recompute routes (after ``added``, a side just built by the one seat given, incrementally;
        for the seats in ``shorter`` (cut by a settlement) the change cannot lengthen them, so a route
        as long as before settles it)."""
        for s in seats:
            if added >= 0:
                self.routes[s] = self._route_after(s, added)
            elif s in shorter:
                self.routes[s] = route_length(
                    self.map, self.side_owner, self.side_route, self.corner_owner, s, self.edges_of[s], enough=self.routes[s]
                )
            else:
                self.routes[s] = self.route_length(s)
        self.route_holder = self._award(self.route_holder, self.routes, ROUTE_MIN)

    def _route_after(self, seat: int, e: int) -> int:
        return route_after(self.map, self.side_owner, self.side_route, self.corner_owner, seat, e, self.routes[seat], self.edges_of[seat])

    def _place_catapult(self, seat: int, h: int) -> None:
        old = self.catapult[seat]
        if old >= 0:
            del self.catapult_at[old]
        self.catapult[seat] = h
        self.catapult_at[h] = seat

    def _remove_catapult(self, h: int) -> None:
        owner = self.catapult_at.pop(h)
        self.catapult[owner] = -1
