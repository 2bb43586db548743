"""Keeping the listing's place lists up to date as pieces come and go, instead of making them again.

A piece changes what fits only near it (see ``_edge_fits`` and ``_village_fits``): each function here
brings the kept lists of the seats near the change up to date, or forgets those it cannot, so that
every kept list always equals what its compute would give now (tests/landover: after every action
of random games, each kept list against a fresh one).
"""

from __future__ import annotations

from typing import Any

from tablelight.games.landover.places import edge_fits, open_end, village_fits
from tablelight.games.landover.rules import BRIDGE, ROAD
from tablelight.games.landover.state import SIDE_PROOF, LandoverState


def side_placed(p: LandoverState, seat: int, e: int, piece: int) -> None:
    """``seat`` put a ``piece`` on side ``e``: bring the kept place lists up to date.

    A new side changes what fits elsewhere only at its own two ends: it takes side ``e`` from
    every seat's road and bridge places, and adds to its owner's places of the same piece and
    village corners only sides and corners at those ends (nothing else fits or stops fitting:
    see _edge_fits and _village_fits). Other lists near it are forgotten.
    """
    lists = p.kept
    lists.board = {key: found for key, found in lists.board.items() if key[0] in SIDE_PROOF}
    ends = p.map.edge_vertices[e]
    near = lists.near
    for s, cache in enumerate(lists.seats):
        if s != seat and not any(c in near[s] for c in ends):
            continue
        kept = {key: found for key, found in cache.items() if key[0] == "village"}
        for route in (ROAD, BRIDGE):
            found = cache.get(("route", s, route))
            if found is None:
                continue
            places = [f for f in found if f != e]
            if s == seat and route == piece:
                fits = edge_fits
                added = {f for v in ends for f in p.map.vertex_edges[v] if fits(p, seat, f, piece)}
                places = sorted(added.union(places))
            kept[("route", s, route)] = places
            if s != seat and len(places) == len(found):
                name = "road" if route == ROAD else "bridge"
                if ("build", name) in cache:
                    kept[("build", name)] = cache[("build", name)]
        if s == seat:
            villages = kept.get(("village", s))
            if villages is not None:
                fits_village = village_fits
                kept[("village", s)] = sorted(set(villages).union(v for v in ends if fits_village(p, seat, v)))
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
        touching = {f for v in ends for f in p.map.vertex_edges[v]}
        own[("open", seat)] = [f for f in opened if f not in touching or open_end(p, seat, f)] + (
            [e] if open_end(p, seat, e) else []
        )
    mine = near[seat]
    for c in ends:
        mine.add(c)
        mine.update(p.map.vertex_neighbors[c])


def side_taken(p: LandoverState, owner: int, e: int) -> None:
    """``owner``'s road or bridge on side ``e`` was taken away (vandal, diplomat).

    For another seat only side ``e`` itself can start to fit (its places read its own pieces and
    the settlements, not ``owner``'s sides): its other lists stay. The owner's lists are forgotten.
    """
    lists = p.kept
    lists.board = {key: found for key, found in lists.board.items() if key[0] in SIDE_PROOF}
    lists.own[owner].clear()
    lists.seats[owner].clear()
    m = p.map
    ends = m.edge_vertices[e]
    near = lists.near
    fits = edge_fits
    for s, cache in enumerate(lists.seats):
        if s == owner or not any(c in near[s] for c in ends):
            continue
        kept = {key: found for key, found in cache.items() if key[0] == "village"}
        for name in ("village", "city"):
            if ("build", name) in cache:
                kept[("build", name)] = cache[("build", name)]
        for route in (ROAD, BRIDGE):
            found = cache.get(("route", s, route))
            if found is None:
                continue
            if fits(p, s, e, route):
                kept[("route", s, route)] = sorted(found + [e])
            else:
                kept[("route", s, route)] = found
                name = "road" if route == ROAD else "bridge"
                if ("build", name) in cache:
                    kept[("build", name)] = cache[("build", name)]
        lists.seats[s] = kept
    touched = set(p.corners_of[owner])
    for f in p.edges_of[owner]:
        touched.update(m.edge_vertices[f])
    near[owner] = touched.union(*(m.vertex_neighbors[v] for v in touched))


def settlement_placed(p: LandoverState, owner: int, v: int) -> None:
    """``owner`` put a village or city on corner ``v``.

    For another seat only the sides at ``v`` can stop fitting (a settlement cuts its routes
    there) and ``v`` and its neighbours stop being village places (the distance rule); nothing
    starts to fit. The owner's lists and the board-wide ones (raid places) are forgotten.
    """
    lists = p.kept
    lists.board.clear()
    lists.own[owner].clear()
    lists.seats[owner].clear()
    m = p.map
    near = lists.near
    fits = edge_fits
    touching = m.vertex_edges[v]
    blocked = {v, *m.vertex_neighbors[v]}
    for s, cache in enumerate(lists.seats):
        if s == owner or v not in near[s]:
            continue
        kept: dict[tuple[Any, ...], list[Any]] = {}
        if ("build", "city") in cache:
            kept[("build", "city")] = cache[("build", "city")]
        for route in (ROAD, BRIDGE):
            found = cache.get(("route", s, route))
            if found is None:
                continue
            places = [f for f in found if f not in touching or fits(p, s, f, route)]
            kept[("route", s, route)] = places
            name = "road" if route == ROAD else "bridge"
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
