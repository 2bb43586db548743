"""Landover maps: hexes as data, the corners and edges derived from them, and a generator.

A map is JSON (the ``--map`` file format and the record's ``"map"``)::

    {"name": "archipelago",
     "hexes": [{"id": 0, "q": 0, "r": 0, "terrain": "field", "number": 6}, ...],
     "harbors": [{"hex": 3, "side": 2, "resource": "wool"}, ...],
     "mystery_pool": [{"terrain": "gold", "number": 5}, ...],
     "vertices": [{"id": 0, "hexes": [0, 1, 5]}, ...],
     "edges": [{"id": 0, "vertices": [0, 1], "kind": "coast"}, ...]}

Hexes use axial coordinates (``q``, ``r``). ``terrain`` is one of
:data:`LAND_TERRAINS`, ``"water"`` or ``"mystery"``; land hexes carry a number
token (2-12, not 7), water and mystery hexes ``null``. A mystery hex is land whose
terrain and number are drawn from ``mystery_pool`` (logged chance) when a road
or bridge first touches it. A harbor sits on side ``side`` (0-5) of a land hex
whose neighbour there is water or off the map; a settlement on either end of that
side trades ``resource`` 2:1. ``vertices`` and ``edges`` are derived from the hexes
(a map file may leave them out; when given they must match). Edge kinds: ``land``
(land on both sides: roads only), ``water`` (no land side: bridges only), ``coast``
(one land side: either).
"""

from __future__ import annotations

import dataclasses
import functools
import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from tablelight.core.errors import SetupError
from tablelight.core.rng import Rng
from tablelight.core.fields import is_whole

RESOURCES = ("wool", "wood", "ore", "wheat", "clay")
COMMODITIES = ("cloth", "paper", "coin")
CARDS = RESOURCES + COMMODITIES
#: A hand is a list of counts by card kind: slots below RESOURCE_KINDS are resources, the rest commodities.
RESOURCE_KINDS = len(RESOURCES)
CARD_KINDS = len(CARDS)
LAND_TERRAINS = ("sheep", "forest", "mountain", "field", "hills", "gold")
#: Terrain -> index of the resource it yields (gold: none, it yields random resources).
TERRAIN_RESOURCE = {"sheep": 0, "forest": 1, "mountain": 2, "field": 3, "hills": 4}
#: Terrain -> index in CARDS of the commodity a city makes there (sheep cloth, forest paper, mountain coin).
TERRAIN_COMMODITY = {"sheep": 5, "forest": 6, "mountain": 7}
NUMBERS = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)
#: Axial neighbour offsets in turning order: side k of a hex faces its neighbour DIRECTIONS[k].
DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
EDGE_KINDS = ("land", "water", "coast")
LAND_EDGE, WATER_EDGE, COAST_EDGE = 0, 1, 2

Coord = tuple[int, int]


def _add(a: Coord, b: Coord) -> Coord:
    return (a[0] + b[0], a[1] + b[1])


@dataclass
class LandoverMap:
    """A map with its derived geometry, as flat index-based tuples the engine reads fast."""

    name: str
    coords: tuple[Coord, ...]
    terrain: tuple[str, ...]  # as printed on the map ("mystery" for hidden hexes)
    number: tuple[int | None, ...]
    harbors: tuple[tuple[int, int, str], ...]  # (hex, side, resource)
    mystery_pool: tuple[tuple[str, int | None], ...]
    # derived
    hex_vertices: tuple[tuple[int, ...], ...] = ()
    vertex_hexes: tuple[tuple[int, ...], ...] = ()
    vertex_edges: tuple[tuple[int, ...], ...] = ()
    vertex_neighbors: tuple[tuple[int, ...], ...] = ()
    edge_vertices: tuple[tuple[int, int], ...] = ()
    edge_kind: tuple[int, ...] = ()
    vertex_harbor: tuple[int, ...] = ()  # harbor index or -1
    hex_island: tuple[int, ...] = ()  # island index for land/mystery hexes, -1 for water

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "hexes": [
                {"id": h, "q": q, "r": r, "terrain": self.terrain[h], "number": self.number[h]}
                for h, (q, r) in enumerate(self.coords)
            ],
            "harbors": [{"hex": h, "side": s, "resource": res} for h, s, res in self.harbors],
            "mystery_pool": [{"terrain": t, "number": n} for t, n in self.mystery_pool],
            "vertices": [{"id": v, "hexes": list(hexes)} for v, hexes in enumerate(self.vertex_hexes)],
            "edges": [
                {"id": e, "vertices": list(ends), "kind": EDGE_KINDS[self.edge_kind[e]]}
                for e, ends in enumerate(self.edge_vertices)
            ],
        }


def is_land(terrain: str) -> bool:
    return terrain != "water"


def build_geometry(m: LandoverMap) -> LandoverMap:
    """Derive corners, sides, kinds, harbors and islands from the hexes (fills ``m`` in place)."""
    index = {c: h for h, c in enumerate(m.coords)}
    vertex_keys: dict[frozenset[Coord], int] = {}
    corner_keys: list[list[frozenset[Coord]]] = []
    for c in m.coords:
        keys = []
        for k in range(6):
            keys.append(frozenset((c, _add(c, DIRECTIONS[k]), _add(c, DIRECTIONS[(k + 1) % 6]))))
        corner_keys.append(keys)
    # Number corners in a stable order (sorted coordinates), so ids do not depend on hex order quirks.
    for key in sorted({k for keys in corner_keys for k in keys}, key=lambda s: sorted(s)):
        vertex_keys[key] = len(vertex_keys)
    hex_vertices = tuple(tuple(vertex_keys[k] for k in keys) for keys in corner_keys)
    nv = len(vertex_keys)
    vertex_hexes: list[list[int]] = [[] for _ in range(nv)]
    for h, verts in enumerate(hex_vertices):
        for v in verts:
            vertex_hexes[v].append(h)
    edge_ids: dict[tuple[int, int], int] = {}
    edge_kind: list[int] = []
    for h, c in enumerate(m.coords):
        for k in range(6):
            a, b = hex_vertices[h][(k - 1) % 6], hex_vertices[h][k]
            ends = (min(a, b), max(a, b))
            if ends in edge_ids:
                continue
            other = index.get(_add(c, DIRECTIONS[k]))
            land_sides = int(is_land(m.terrain[h])) + int(other is not None and is_land(m.terrain[other]))
            if land_sides == 2:
                kind = LAND_EDGE
            elif land_sides == 1:
                kind = COAST_EDGE
            else:
                kind = WATER_EDGE
            edge_ids[ends] = len(edge_kind)
            edge_kind.append(kind)
    edge_vertices = [(0, 0)] * len(edge_ids)
    for ends, e in edge_ids.items():
        edge_vertices[e] = ends
    vertex_edges: list[list[int]] = [[] for _ in range(nv)]
    vertex_neighbors: list[list[int]] = [[] for _ in range(nv)]
    for e, (a, b) in enumerate(edge_vertices):
        vertex_edges[a].append(e)
        vertex_edges[b].append(e)
        vertex_neighbors[a].append(b)
        vertex_neighbors[b].append(a)
    vertex_harbor = [-1] * nv
    for i, (h, side, _res) in enumerate(m.harbors):
        for v in (hex_vertices[h][(side - 1) % 6], hex_vertices[h][side]):
            vertex_harbor[v] = i
    # Islands: connected land (and mystery) hexes.
    island = [-1] * len(m.coords)
    count = 0
    for start in range(len(m.coords)):
        if island[start] != -1 or not is_land(m.terrain[start]):
            continue
        stack = [start]
        island[start] = count
        while stack:
            h = stack.pop()
            for d in DIRECTIONS:
                n = index.get(_add(m.coords[h], d))
                if n is not None and island[n] == -1 and is_land(m.terrain[n]):
                    island[n] = count
                    stack.append(n)
        count += 1
    m.hex_vertices = hex_vertices
    m.vertex_hexes = tuple(tuple(sorted(x)) for x in vertex_hexes)
    m.vertex_edges = tuple(tuple(x) for x in vertex_edges)
    m.vertex_neighbors = tuple(tuple(x) for x in vertex_neighbors)
    m.edge_vertices = tuple(edge_vertices)
    m.edge_kind = tuple(edge_kind)
    m.vertex_harbor = tuple(vertex_harbor)
    m.hex_island = tuple(island)
    return m


def _fail(message: str) -> SetupError:
    return SetupError(f"bad Landover map: {message}")


def map_from_json(data: Any) -> LandoverMap:
    """Read and check a map; raise :class:`SetupError` naming the first problem."""
    if not isinstance(data, dict):
        raise _fail("a map is a JSON object with a 'hexes' list")
    hexes = data.get("hexes")
    if not isinstance(hexes, list) or not hexes:
        raise _fail("'hexes' must be a non-empty list")
    coords: list[Coord] = []
    terrain: list[str] = []
    number: list[int | None] = []
    seen: set[Coord] = set()
    for i, h in enumerate(hexes):
        if not isinstance(h, dict):
            raise _fail(f"hex {i} is not an object")
        if h.get("id", i) != i:
            raise _fail(f"hex {i} has id {h.get('id')!r}: ids must count 0, 1, 2, ... in order")
        q, r = h.get("q"), h.get("r")
        if not all(is_whole(x) for x in (q, r)):
            raise _fail(f"hex {i} needs whole-number q and r")
        assert isinstance(q, int) and isinstance(r, int)
        if (q, r) in seen:
            raise _fail(f"hex {i} repeats position q={q}, r={r}")
        seen.add((q, r))
        t = h.get("terrain")
        n = h.get("number")
        if t in LAND_TERRAINS:
            if n not in NUMBERS:
                raise _fail(f"hex {i} ({t}) needs a number token 2-6 or 8-12, got {n!r}")
        elif t in ("water", "mystery"):
            if n is not None:
                raise _fail(f"hex {i} ({t}) carries no number, got {n!r}")
        else:
            raise _fail(f"hex {i} has unknown terrain {t!r}; use {', '.join(LAND_TERRAINS)}, water or mystery")
        coords.append((q, r))
        terrain.append(t)
        number.append(n)
    pool_data = data.get("mystery_pool", [])
    if not isinstance(pool_data, list):
        raise _fail("'mystery_pool' must be a list")
    pool: list[tuple[str, int | None]] = []
    for i, item in enumerate(pool_data):
        if not isinstance(item, dict) or item.get("terrain") not in LAND_TERRAINS or item.get("number") not in NUMBERS:
            raise _fail(f"mystery_pool entry {i} must be {{'terrain': land terrain, 'number': 2-6 or 8-12}}")
        pool.append((item["terrain"], item["number"]))
    mysteries = terrain.count("mystery")
    if len(pool) != mysteries:
        raise _fail(f"the map has {mysteries} mystery hexes but {len(pool)} mystery_pool entries")
    harbors: list[tuple[int, int, str]] = []
    index = {c: h for h, c in enumerate(coords)}
    harbor_data = data.get("harbors", [])
    if not isinstance(harbor_data, list):
        raise _fail("'harbors' must be a list")
    for i, item in enumerate(harbor_data):
        if not isinstance(item, dict):
            raise _fail(f"harbor {i} is not an object")
        h, side, res = item.get("hex"), item.get("side"), item.get("resource")
        if not is_whole(h) or not 0 <= h < len(coords) or terrain[h] not in LAND_TERRAINS:
            raise _fail(f"harbor {i} must name a land hex (not mystery), got {h!r}")
        if not is_whole(side) or not 0 <= side < 6:
            raise _fail(f"harbor {i} side must be 0-5, got {side!r}")
        other = index.get(_add(coords[h], DIRECTIONS[side]))
        if other is not None and is_land(terrain[other]):
            raise _fail(f"harbor {i} must face water or the map's edge; side {side} of hex {h} faces land")
        if res not in RESOURCES:
            raise _fail(f"harbor {i} resource must be one of {', '.join(RESOURCES)}, got {res!r}")
        harbors.append((h, side, res))
    name = data.get("name", "custom")
    if not isinstance(name, str):
        raise _fail("'name' must be text")
    m = build_geometry(
        LandoverMap(name, tuple(coords), tuple(terrain), tuple(number), tuple(harbors), tuple(pool))
    )
    ends: set[int] = set()
    for h, side, _ in m.harbors:
        pair = (m.hex_vertices[h][(side - 1) % 6], m.hex_vertices[h][side])
        if ends & set(pair):
            raise _fail(f"harbors share a corner at hex {h} side {side}")
        ends.update(pair)
    # Derived parts given in a file must agree with the hexes (a record's map carries them).
    derived = m.to_json()
    for key in ("vertices", "edges"):
        if key in data and data[key] != derived[key]:
            raise _fail(f"'{key}' does not match the geometry of the hexes (leave it out to derive it)")
    return m


@functools.lru_cache(maxsize=8)
def _builtin_text(name: str) -> str:
    try:
        return resources.files("tablelight.games.landover").joinpath(f"maps/{name}.json").read_text("utf-8")
    except FileNotFoundError:
        raise SetupError(f"no built-in Landover map {name!r}; known: {', '.join(BUILTIN_MAPS)}") from None


BUILTIN_MAPS = ("archipelago",)


@functools.lru_cache(maxsize=8)
def _parsed_builtin(name: str) -> LandoverMap:
    return map_from_json(json.loads(_builtin_text(name)))


def builtin_map(name: str) -> LandoverMap:
    # Read and checked once per process; every field is a tuple, so a shallow copy is a map of its own.
    return dataclasses.replace(_parsed_builtin(name))


def deal_numbers(m: LandoverMap, rng: Rng) -> LandoverMap:
    """``m`` with its number tokens shuffled over its revealed land hexes ("numbers are randomly
    placed on each resource tile for the map chosen"); terrain, harbors and mysteries stay, and so
    does the geometry derived from them."""
    land = [h for h, terrain in enumerate(m.terrain) if terrain not in ("water", "mystery")]
    tokens = [m.number[h] for h in land]
    rng.shuffle(tokens)
    number = list(m.number)
    for h, token in zip(land, tokens):
        number[h] = token
    return dataclasses.replace(m, number=tuple(number))


# ------------------------------------------------------------------ the generator

#: Number tokens dealt round-robin (Catan's spread: one 2 and 12, two of the others).
_TOKENS = (2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12)
_LAND_MIX = ("sheep", "forest", "mountain", "field", "hills")


def _ring_hexes(radius: int) -> list[Coord]:
    return [(q, r) for q in range(-radius, radius + 1) for r in range(-radius, radius + 1) if abs(q + r) <= radius]


def random_map(rng: Rng, radius: int = 4) -> LandoverMap:
    """A random archipelago: a main island of 15-17 hexes and three small islands, one of them mystery.

    Islands never touch (a water hex lies between any two). Harbors (six: one per
    resource and one more) sit on the main island's coast with no shared corner.
    """
    ring = _ring_hexes(radius)
    inside = set(ring)
    land: dict[Coord, int] = {}  # coord -> island number
    # Main island grown at random from the centre, kept within radius 2.
    size = 15 + rng.below(3)
    land[(0, 0)] = 0
    while len([c for c in land if land[c] == 0]) < size:
        frontier = sorted(
            {
                _add(c, d)
                for c in land
                for d in DIRECTIONS
                if _add(c, d) not in land and max(abs(_add(c, d)[0]), abs(_add(c, d)[1]), abs(sum(_add(c, d)))) <= 2
            }
        )
        land[frontier[rng.below(len(frontier))]] = 0

    def free(c: Coord, island: int) -> bool:
        """Water now, inside the ring, and not touching another island."""
        if c not in inside or c in land:
            return False
        return all(land.get(_add(c, d), island) == island for d in DIRECTIONS)

    for island in (1, 2, 3):
        starts = sorted(c for c in ring if free(c, island) and max(abs(c[0]), abs(c[1]), abs(sum(c))) >= 3)
        if not starts:
            break
        land[starts[rng.below(len(starts))]] = island
        target = 3 if island < 3 else 2
        for _ in range(8):
            if sum(1 for c in land if land[c] == island) >= target:
                break
            grow = sorted({_add(c, d) for c in land if land[c] == island for d in DIRECTIONS if free(_add(c, d), island)})
            if not grow:
                break
            land[grow[rng.below(len(grow))]] = island
    coords = sorted(ring)
    terrains: list[str] = []
    numbers: list[int | None] = []
    land_order = [c for c in coords if c in land]
    mix = [_LAND_MIX[i % 5] for i in range(len(land_order))]
    # Gold on the small islands: one gold hex replaces a plain one there.
    rng.shuffle(mix)
    small = [i for i, c in enumerate(land_order) if land[c] != 0]
    if small:
        mix[small[rng.below(len(small))]] = "gold"
    tokens = [_TOKENS[i % len(_TOKENS)] for i in range(len(land_order))]
    rng.shuffle(tokens)
    dealt = {c: (mix[i], tokens[i]) for i, c in enumerate(land_order)}
    pool: list[tuple[str, int | None]] = []
    for c in coords:
        if c not in land:
            terrains.append("water")
            numbers.append(None)
        elif land[c] == 3:  # the farthest, smallest island is unexplored
            terrains.append("mystery")
            numbers.append(None)
            pool.append(dealt[c])
        else:
            terrains.append(dealt[c][0])
            numbers.append(dealt[c][1])
    m = build_geometry(LandoverMap("random", tuple(coords), tuple(terrains), tuple(numbers), (), tuple(pool)))
    # Harbors on the main island's coast, sides facing water, no two sharing a corner.
    options = []
    index = {c: h for h, c in enumerate(coords)}
    for h, c in enumerate(coords):
        if land.get(c) != 0:
            continue
        for side in range(6):
            n = index.get(_add(c, DIRECTIONS[side]))
            if n is None or terrains[n] == "water":
                options.append((h, side))
    rng.shuffle(options)
    wanted = list(RESOURCES) + [RESOURCES[rng.below(5)]]
    used: set[int] = set()
    harbors: list[tuple[int, int, str]] = []
    for h, side in options:
        if len(harbors) == len(wanted):
            break
        ends = {m.hex_vertices[h][(side - 1) % 6], m.hex_vertices[h][side]}
        if ends & used or any(n in used for v in ends for n in m.vertex_neighbors[v]):
            continue
        used |= ends
        harbors.append((h, side, wanted[len(harbors)]))
    m.harbors = tuple(harbors)
    return build_geometry(m)
