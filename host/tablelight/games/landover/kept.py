"""Keeping the listing's place lists up to date as pieces come and go, instead of making them again.

A piece changes what fits only near it (see ``_edge_fits`` and ``_village_fits``): each method here
brings the kept lists of the seats near the change up to date, or forgets those it cannot, so that
every kept list always equals what its compute would give now (tests/landover: after every action
of random games, each kept list against a fresh one).
"""

from __future__ import annotations

from typing import Any

from tablelight.games.landover.places import LandoverPlaces
from tablelight.games.landover.rules import BRIDGE, ROAD
from tablelight.games.landover.state import SIDE_PROOF


class LandoverKeptLists(LandoverPlaces):
    def _side_placed(self, seat: int, e: int, piece: int) -> None:
        """``seat`` put a ``piece`` on side ``e``: bring the kept place lists up to date.

        A new side changes what fits elsewhere only at its own two ends: it takes side ``e`` from
        every seat's road and bridge places, and adds to its owner's places of the same piece and
        village corners only sides and corners at those ends (nothing else fits or stops fitting:
        see _edge_fits and _village_fits). Other lists near it are forgotten.
        """
        lists = self._cache
        lists.board = {key: found for key, found in lists.board.items() if key[0] in SIDE_PROOF}
        ends = self.map.edge_vertices[e]
        near = lists.near
        for s, cache in enumerate(lists.seats):
            if s != seat and not any(c in near[s] for c in ends):
                continue
            kept = {key: found for key, found in cache.items() if key[0] == "village"}
            for p in (ROAD, BRIDGE):
                found = cache.get(("route", s, p))
                if found is None:
                    continue
                places = [f for f in found if f != e]
                if s == seat and p == piece:
                    fits = self._edge_fits
                    added = {f for v in ends for f in self.map.vertex_edges[v] if fits(seat, f, piece)}
                    places = sorted(added.union(places))
                kept[("route", s, p)] = places
                if s != seat and len(places) == len(found):
                    name = "road" if p == ROAD else "bridge"
                    if ("build", name) in cache:
                        kept[("build", name)] = cache[("build", name)]
            if s == seat:
                villages = kept.get(("village", s))
                if villages is not None:
                    fits_village = self._village_fits
                    kept[("village", s)] = sorted(set(villages).union(v for v in ends if fits_village(seat, v)))
            else:
                for name in ("village", "city"):
                    if ("build", name) in cache:
                        kept[("build", name)] = cache[("build", name)]
            lists.seats[s] = kept
        # Of the lists of the owner's own pieces, a side changes only the open ends (other seats' keep theirs).
        own = lists.own[seat]
        own.pop(("vandal_target", seat), None)
        opened = own.get(("open", seat))
        if opened is not None:
            # A new side only closes ends, and only at its own two: the sides there are asked again.
            touching = {f for v in ends for f in self.map.vertex_edges[v]}
            open_end = self._open_end
            own[("open", seat)] = [f for f in opened if f not in touching or open_end(seat, f)] + (
                [e] if open_end(seat, e) else []
            )
        mine = near[seat]
        for c in ends:
            mine.add(c)
            mine.update(self.map.vertex_neighbors[c])

    def _side_taken(self, owner: int, e: int) -> None:
        """``owner``'s road or bridge on side ``e`` was taken away (vandal, diplomat).

        For another seat only side ``e`` itself can start to fit (its places read its own pieces and
        the settlements, not ``owner``'s sides): its other lists stay. The owner's lists are forgotten.
        """
        lists = self._cache
        lists.board = {key: found for key, found in lists.board.items() if key[0] in SIDE_PROOF}
        lists.own[owner].clear()
        lists.seats[owner].clear()
        m = self.map
        ends = m.edge_vertices[e]
        near = lists.near
        fits = self._edge_fits
        for s, cache in enumerate(lists.seats):
            if s == owner or not any(c in near[s] for c in ends):
                continue
            kept = {key: found for key, found in cache.items() if key[0] == "village"}
            for name in ("village", "city"):
                if ("build", name) in cache:
                    kept[("build", name)] = cache[("build", name)]
            for p in (ROAD, BRIDGE):
                found = cache.get(("route", s, p))
                if found is None:
                    continue
                if fits(s, e, p):
                    kept[("route", s, p)] = sorted(found + [e])
                else:
                    kept[("route", s, p)] = found
                    name = "road" if p == ROAD else "bridge"
                    if ("build", name) in cache:
                        kept[("build", name)] = cache[("build", name)]
            lists.seats[s] = kept
        touched = set(self.corners_of[owner])
        for f in self.edges_of[owner]:
            touched.update(m.edge_vertices[f])
        near[owner] = touched.union(*(m.vertex_neighbors[v] for v in touched))

    def _settlement_placed(self, owner: int, v: int) -> None:
        """``owner`` put a village or city on corner ``v``.

        For another seat only the sides at ``v`` can stop fitting (a settlement cuts its routes
        there) and ``v`` and its neighbours stop being village places (the distance rule); nothing
        starts to fit. The owner's lists and the board-wide ones (raid places) are forgotten.
        """
        lists = self._cache
        lists.board.clear()
        lists.own[owner].clear()
        lists.seats[owner].clear()
        m = self.map
        near = lists.near
        fits = self._edge_fits
        touching = m.vertex_edges[v]
        blocked = {v, *m.vertex_neighbors[v]}
        for s, cache in enumerate(lists.seats):
            if s == owner or v not in near[s]:
                continue
            kept: dict[tuple[Any, ...], list[Any]] = {}
            if ("build", "city") in cache:
                kept[("build", "city")] = cache[("build", "city")]
            for p in (ROAD, BRIDGE):
                found = cache.get(("route", s, p))
                if found is None:
                    continue
                places = [f for f in found if f not in touching or fits(s, f, p)]
                kept[("route", s, p)] = places
                name = "road" if p == ROAD else "bridge"
                if len(places) == len(found) and ("build", name) in cache:
                    kept[("build", name)] = cache[("build", name)]
            villages = cache.get(("village", s))
            if villages is not None:
                places = [u for u in villages if u not in blocked]
                kept[("village", s)] = places
                if len(places) == len(villages) and ("build", "village") in cache:
                    kept[("build", "village")] = cache[("build", "village")]
            lists.seats[s] = kept
        mine = near[owner]
        mine.add(v)
        mine.update(m.vertex_neighbors[v])
