"""Longest routes: the longest trail of one seat's roads and bridges.

A route uses no side twice, never passes through an opponent's village or city
(it may end there), and changes between road and bridge only at the seat's own
village or city. Pure functions over the engine's flat board lists.
"""

from __future__ import annotations

from typing import Any

from tablelight.core.fields import NOBODY
from tablelight.games.landover.hexmap import LandoverMap


def trail_from(
    m: LandoverMap, side_owner: list[int], side_route: list[int], corner_owner: list[int], seat: int,
    start: int, piece: int, used: set[int], enough: int = 1 << 30,
) -> int:
    """The longest trail of ``seat``'s sides (none in ``used``) leaving corner ``start``, arriving there on ``piece``.

    ``enough``: all the caller needs to know is whether a trail that long exists; the walk stops at the
    first one (and returns its length, at least ``enough``).
    """
    vertex_edges, edge_vertices = m.vertex_edges, m.edge_vertices

    def walk(v: int, piece: int, need: int) -> int:
        if corner_owner[v] != NOBODY and corner_owner[v] != seat:
            return 0
        best = 0
        switch = corner_owner[v] == seat
        for f in vertex_edges[v]:
            if side_owner[f] != seat or f in used or (side_route[f] != piece and not switch):
                continue
            x, y = edge_vertices[f]
            used.add(f)
            found = 1 + walk(y if x == v else x, side_route[f], need - 1)
            used.discard(f)
            if found > best:
                best = found
                if best >= need:
                    return best
        return best

    try:
        return walk(start, piece, enough)
    finally:
        del walk  # the recursive closure refers to itself: free it now, not at the next garbage collection


def _touches(m: LandoverMap, side_owner: list[int], corner_owner: list[int], seat: int, v: int, e: int) -> bool:
    """Whether ``seat`` has a settlement on ``v`` or a side there other than ``e``."""
    return corner_owner[v] == seat or any(f != e and side_owner[f] == seat for f in m.vertex_edges[v])


def _linked(m: LandoverMap, side_owner: list[int], seat: int, a: int, b: int, e: int) -> bool:
    """Whether ``seat``'s sides other than ``e`` connect corners ``a`` and ``b`` (whoever's corners they pass)."""
    vertex_edges, edge_vertices = m.vertex_edges, m.edge_vertices
    seen, stack = {a}, [a]
    while stack:
        v = stack.pop()
        for f in vertex_edges[v]:
            if f == e or side_owner[f] != seat:
                continue
            x, y = edge_vertices[f]
            w = y if x == v else x
            if w == b:
                return True
            if w not in seen:
                seen.add(w)
                stack.append(w)
    return False


def route_after(
    m: LandoverMap, side_owner: list[int], side_route: list[int], corner_owner: list[int], seat: int, e: int, old: int, edges: list[int]
) -> int:
    """``seat``'s longest route after building side ``e`` (``old``: the route before it).

    A new side never breaks a trail, so the old length stands; a new trail must use
    ``e``. When one end of ``e`` touches nothing else of the seat, every such trail
    ends with ``e`` there, so one walk from the other end settles it. When ``e`` joins
    two parts that no side of the seat connected, a trail through ``e`` is a trail in
    each part joined by ``e``, and the two never share a side: a walk from each end
    settles it. Otherwise (``e`` closes a loop) the whole search runs again.
    """
    a, b = m.edge_vertices[e]
    touch_a = _touches(m, side_owner, corner_owner, seat, a, e)
    touch_b = _touches(m, side_owner, corner_owner, seat, b, e)
    if touch_a and touch_b:
        if _linked(m, side_owner, seat, a, b, e):
            return route_length(m, side_owner, side_route, corner_owner, seat, edges)
        piece = side_route[e]
        return max(
            old,
            1 + trail_from(m, side_owner, side_route, corner_owner, seat, a, piece, {e})
            + trail_from(m, side_owner, side_route, corner_owner, seat, b, piece, {e}),
        )
    if not touch_a and not touch_b:
        return max(old, 1)
    start = a if touch_a else b
    # A trail from ``start`` without ``e`` was there before, so it is at most ``old`` long: one that long is enough.
    return max(old, 1 + trail_from(m, side_owner, side_route, corner_owner, seat, start, side_route[e], {e}, old))


def route_without(
    m: LandoverMap, side_owner: list[int], side_route: list[int], corner_owner: list[int], seat: int,
    e: int, piece: int, old: int, edges: list[int],
) -> int:
    """``seat``'s longest route after its side ``e`` (a ``piece``) was taken away (``old``: the route before).

    Taking a side away never lengthens a route. When one end of ``e`` led nowhere else, every
    trail through ``e`` ended there, so one walk from the other end gives the longest of them:
    if that is shorter than ``old``, a longest route did not use ``e`` and stands. Otherwise the
    search runs again, stopping at a route as long as before.
    """
    a, b = m.edge_vertices[e]
    touch_a = _touches(m, side_owner, corner_owner, seat, a, e)
    touch_b = _touches(m, side_owner, corner_owner, seat, b, e)
    if not touch_a and not touch_b:  # a side alone: the one trail through it was the side itself
        return old if old > 1 else (1 if edges else 0)
    if touch_a != touch_b:
        through = 1 + trail_from(m, side_owner, side_route, corner_owner, seat, a if touch_a else b, piece, set(), old - 1)
        if through < old:
            return old
    return route_length(m, side_owner, side_route, corner_owner, seat, edges, enough=old)


def route_length(
    m: LandoverMap, side_owner: list[int], side_route: list[int], corner_owner: list[int], seat: int, edges: list[int],
    enough: int = -1,
) -> int:
    """Longest route of ``seat`` (its sides ``edges``): an exact search for the longest trail.

    ``enough``: a length known to be the most there can be (the length before a side was taken
    away); the search stops when it finds a route that long.

    A longest trail can be taken to start and end where the network does not simply
    pass through (a dead end or fork: a corner has at most three sides; a block; a
    road/bridge switch), so runs of pass-through corners are folded into single
    weighted links first and the depth-first search runs over those junctions only.
    """
    if not edges:
        return 0
    adj: dict[int, list[int]] = {}
    for e in edges:
        a, b = m.edge_vertices[e]
        adj.setdefault(a, []).append(e)
        adj.setdefault(b, []).append(e)
    passable = {v: corner_owner[v] == NOBODY or corner_owner[v] == seat for v in adj}
    junction = set()
    for v, sides in adj.items():
        if len(sides) != 2 or not passable[v] or (corner_owner[v] != seat and side_route[sides[0]] != side_route[sides[1]]):
            junction.add(v)
    # A component made of pass-through corners only is a plain loop: any corner will do.
    seen: set[int] = set()
    for v in adj:
        if v in seen:
            continue
        stack, component, has_junction = [v], [], False
        seen.add(v)
        while stack:
            u = stack.pop()
            component.append(u)
            has_junction = has_junction or u in junction
            for e in adj[u]:
                a, b = m.edge_vertices[e]
                w = b if a == u else a
                if w not in seen:
                    seen.add(w)
                    stack.append(w)
        if not has_junction:
            junction.add(v)
    # Links between junctions: (link id, far junction, piece at this end, piece at the far end, sides).
    links: dict[int, list[tuple[int, int, int, int, int]]] = {v: [] for v in junction}
    done: set[int] = set()
    count = 0
    for u in junction:
        for first in adj[u]:
            if first in done:
                continue
            length, e, at = 0, first, u
            while True:
                done.add(e)
                length += 1
                a, b = m.edge_vertices[e]
                at = b if a == at else a
                if at in junction:
                    break
                e = adj[at][0] if adj[at][1] == e else adj[at][1]
            links[u].append((count, at, side_route[first], side_route[e], length))
            if at != u or e != first:
                links[at].append((count, u, side_route[e], side_route[first], length))
            count += 1
    used = bytearray(count)
    own = {v: corner_owner[v] == seat for v in junction}
    total = len(edges) if enough < 0 else min(enough, len(edges))
    # Junctions where every trail stops: an opponent's settlement, or a dead end (its one link is
    # the one just walked). The walk does not go on into them (half the steps of a tree).
    stops = {v for v in junction if not passable[v] or len(links[v]) == 1}

    def walk(v: int, piece: int) -> int:
        best = 0
        switch = own[v]
        for link, w, near, far, length in links[v]:
            if used[link] or (near != piece and not switch):
                continue
            if w in stops:
                found = length
            else:
                used[link] = 1
                found = length + walk(w, far)
                used[link] = 0
            if found > best:
                best = found
        return best

    try:
        return _longest(junction, links, used, stops, total, walk)
    finally:
        del walk  # the recursive closure refers to itself: free it now, not at the next garbage collection


def _longest(
    junction: set[int], links: dict[int, list[tuple[int, int, int, int, int]]], used: bytearray, stops: set[int], total: int, walk: Any
) -> int:
    """The longest trail over the folded links from any junction (stops once it reaches ``total``).

    A trail may start on any link of a junction, whatever its piece: the step of ``walk`` without
    its piece test, written out (this is the hot loop of every full route search)."""
    best = 0
    for v in junction:
        for link, w, near, far, length in links[v]:
            if w in stops:
                found = length
            else:
                used[link] = 1
                found = length + walk(w, far)
                used[link] = 0
            if found > best:
                best = found
                if best >= total:
                    return best
    return best
