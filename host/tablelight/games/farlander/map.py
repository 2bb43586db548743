"""Farlander maps: seven hex tiles in a flower, 24 territories.

The tile designs live in ``tiles.json`` (data, not code): each tile is a
flat-topped hexagon cut into six pie slices, one per edge (0 N, 1 NE, 2 SE, 3 S,
4 SW, 5 NW), and each territory owns a set of slices or is an interior
territory. :func:`random_map` shuffles the tiles into the seven slots and turns
each one, then derives adjacency inside tiles (slices sharing a spoke, interior
to all) and across touching tile edges. The geometry (slices and an anchor
point per territory, in board units of one hex radius, x right and y down) is
what a lit board or a drawing needs. See ``docs/rules/farlander.md``.
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, NamedTuple

from tablelight.core.errors import SetupError
from tablelight.core.fields import is_number, is_whole
from tablelight.core.rng import Rng

#: Axial offsets of the six neighbours of a flat-topped hex, by edge 0 N .. 5 NW.
EDGE_OFFSETS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
#: Slot 0 is the centre, slot k (1-6) lies beyond the centre's edge k-1.
SLOT_POSITIONS = ((0, 0),) + EDGE_OFFSETS
SLOT_LETTERS = "abcdefg"
#: Where an interior territory's slices would be: none, it touches no edge.
INTERIOR: tuple[int, ...] = ()


class Territory(NamedTuple):
    """One territory. ``edges`` are the hex edges it touches after rotation (empty: interior).

    A named tuple rather than a frozen dataclass: every random game builds 24 of them, and a
    frozen dataclass's constructor cost five times as many instructions (callgrind)."""

    id: str
    tile: int
    garrison: bool
    neighbors: tuple[str, ...]
    edges: tuple[int, ...] = ()
    anchor: tuple[float, float] = (0.0, 0.0)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "tile": self.tile,
            "garrison": self.garrison,
            "neighbors": list(self.neighbors),
            "edges": list(self.edges),
            "anchor": [round(self.anchor[0], 4), round(self.anchor[1], 4)],
        }


@dataclass(frozen=True)
class FarlanderMap:
    territories: tuple[Territory, ...]
    #: Per slot: the tile design's name and its rotation in sixths of a turn (for drawings).
    tiles: tuple[dict[str, Any], ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"territories": [t.to_json() for t in self.territories]}
        if self.tiles:
            data["tiles"] = [dict(t) for t in self.tiles]
        return data

    @property
    def ids(self) -> list[str]:
        return [t.id for t in self.territories]


@functools.lru_cache(maxsize=1)
def load_tile_designs() -> list[dict[str, Any]]:
    """The tile designs from ``tiles.json`` (read once; treat as read-only)."""
    text = resources.files("tablelight.games.farlander").joinpath("tiles.json").read_text("utf-8")
    designs: list[dict[str, Any]] = json.loads(text)["tiles"]
    return designs


def slot_center(slot: int) -> tuple[float, float]:
    """Board position of a slot's centre (hex radius 1, x right, y down)."""
    q, r = SLOT_POSITIONS[slot]
    return (1.5 * q, math.sqrt(3) * (r + q / 2))


def edge_direction(edge: int) -> tuple[float, float]:
    """Unit vector from a hex centre towards the middle of ``edge`` (y down)."""
    angle = math.radians(-90 + 60 * edge)
    return (math.cos(angle), math.sin(angle))


@functools.lru_cache(maxsize=1024)  # few (slot, edges) pairs recur in every map; pure
def _anchor(slot: int, edges: tuple[int, ...]) -> tuple[float, float]:
    cx, cy = slot_center(slot)
    if not edges:
        return (cx, cy)
    sx = sum(edge_direction(e)[0] for e in edges) / len(edges)
    sy = sum(edge_direction(e)[1] for e in edges) / len(edges)
    length = math.hypot(sx, sy)
    if length < 1e-9:  # a band across the hex: its middle is the hex centre
        return (cx, cy)
    return (cx + 0.55 * sx / length, cy + 0.55 * sy / length)


#: Touching tile edges of the flower: (slot a, its edge, slot b, b's edge facing it).
SLOT_JOINS: tuple[tuple[int, int, int, int], ...] = tuple(
    (slot_a, EDGE_OFFSETS.index((qb - qa, rb - ra)), slot_b, (EDGE_OFFSETS.index((qb - qa, rb - ra)) + 3) % 6)
    for slot_a, (qa, ra) in enumerate(SLOT_POSITIONS)
    for slot_b, (qb, rb) in enumerate(SLOT_POSITIONS)
    if (qb - qa, rb - ra) in EDGE_OFFSETS
)

#: Each touching pair of tile edges once (SLOT_JOINS holds both ways).
_JOINS_ONCE = tuple(join for join in SLOT_JOINS if join[0] < join[2])

#: One placed tile: its territories (id, slot, garrison, edges), the neighbour pairs inside it,
#: and which territory holds each of its physical edges.
TilePiece = tuple[
    tuple[tuple[str, int, bool, tuple[int, ...]], ...], tuple[tuple[str, str], ...], tuple[str, ...]
]


def place_tile(design: dict[str, Any], slot: int, rotation: int) -> TilePiece:
    """Design ``design`` turned ``rotation`` sixths in ``slot``: the part of a map inside one tile."""
    ids = [f"{SLOT_LETTERS[slot]}{i + 1}" for i in range(len(design["territories"]))]
    slice_owner: dict[int, str] = {}
    interior: list[str] = []
    info = []
    for tid, spec in zip(ids, design["territories"]):
        edges = tuple(sorted((e + rotation) % 6 for e in spec.get("edges", ())))
        info.append((tid, slot, bool(spec.get("garrison", False)), edges))
        if spec.get("interior"):
            interior.append(tid)
        for edge in edges:
            slice_owner[edge] = tid
    if sorted(slice_owner) != list(range(6)):
        raise SetupError(f"tile design {design['name']!r} does not cover all six edges exactly once")
    pairs = []
    # Slices d and d+1 share a spoke.
    for edge in range(6):
        a, b = slice_owner[edge], slice_owner[(edge + 1) % 6]
        if a != b:
            pairs.append((a, b))
    for tid in interior:
        pairs.extend((tid, other) for other in ids if other != tid)
    return tuple(info), tuple(pairs), tuple(slice_owner[edge] for edge in range(6))


#: Territory ids by slot and number in the tile: ``_SLOT_IDS[1][0] == "b1"``.
_SLOT_IDS = tuple(tuple(f"{letter}{i + 1}" for i in range(16)) for letter in SLOT_LETTERS)


@functools.lru_cache(maxsize=64)  # 7 designs x 6 turns
def _turned_design(design_index: int, rotation: int) -> tuple[tuple[tuple[int, bool, tuple[int, ...]], ...],
                                                              tuple[tuple[int, int], ...], tuple[int, ...]]:
    """:func:`place_tile`'s work for one design and turn, territories by their number in the tile
    (in slot 0; the slot changes only the ids' letter)."""
    info, pairs, owners = place_tile(load_tile_designs()[design_index], 0, rotation)
    number = {entry[0]: i for i, entry in enumerate(info)}
    return (tuple((number[tid], garrison, edges) for tid, _, garrison, edges in info),
            tuple((number[a], number[b]) for a, b in pairs), tuple(number[tid] for tid in owners))


@functools.lru_cache(maxsize=512)  # 7 designs x 7 slots x 6 turns; every random game builds a map
def _placed_design(design_index: int, slot: int, rotation: int) -> TilePiece:
    """``place_tile(designs[design_index], slot, rotation)``, from the design's turn worked out once."""
    info, pairs, owners = _turned_design(design_index, rotation)
    ids = _SLOT_IDS[slot]
    if len(info) > len(ids):  # a design of more territories than ids made ahead
        return place_tile(load_tile_designs()[design_index], slot, rotation)
    return (tuple([(ids[i], slot, garrison, edges) for i, garrison, edges in info]),
            tuple([(ids[a], ids[b]) for a, b in pairs]), tuple([ids[i] for i in owners]))


#: A map's territories as the rules read them: (id, slot, garrison, edges) and the ids of its
#: neighbours, sorted, for each territory in the map's order.
Layout = list[tuple[tuple[str, int, bool, tuple[int, ...]], tuple[str, ...]]]


def build_map(placement: list[tuple[int, int]], designs: list[dict[str, Any]] | None = None) -> FarlanderMap:
    """The map with design ``placement[slot][0]`` turned ``placement[slot][1]`` sixths in each slot."""
    if designs is None or designs is load_tile_designs():
        designs = load_tile_designs()
    territories = tuple([
        Territory(tid, slot, garrison, neighbors, edges, _anchor(slot, edges))
        for (tid, slot, garrison, edges), neighbors in map_layout(placement, designs)
    ])
    tiles = tuple({"design": designs[d]["name"], "rotation": r} for d, r in placement)
    return FarlanderMap(territories, tiles)


def map_layout(placement: list[tuple[int, int]], designs: list[dict[str, Any]] | None = None) -> Layout:
    """What :func:`build_map` reads the territories from: all a game's rules need (a random game
    that nobody draws never builds the map's geometry, see ``Farlander.map``)."""
    if len(placement) != len(SLOT_POSITIONS):
        raise SetupError(f"a Farlander map has {len(SLOT_POSITIONS)} tiles, got {len(placement)}")
    if designs is None or designs is load_tile_designs():
        designs = load_tile_designs()
        pieces = [_placed_design(d, slot, r) for slot, (d, r) in enumerate(placement)]
    else:
        pieces = [place_tile(designs[d], slot, r) for slot, (d, r) in enumerate(placement)]
    neighbors: dict[str, set[str]] = {}
    info: list[tuple[str, int, bool, tuple[int, ...]]] = []
    for tile_info, _, _ in pieces:
        info.extend(tile_info)
        for entry in tile_info:
            neighbors[entry[0]] = set()
    for _, pairs, _ in pieces:
        for a, b in pairs:
            neighbors[a].add(b)
            neighbors[b].add(a)
    for slot_a, edge_a, slot_b, edge_b in _JOINS_ONCE:
        a = pieces[slot_a][2][edge_a]
        b = pieces[slot_b][2][edge_b]
        neighbors[a].add(b)
        neighbors[b].add(a)
    return [(entry, tuple(sorted(neighbors[entry[0]]))) for entry in info]


def random_map(rng: Rng) -> FarlanderMap:
    """Shuffle the seven tiles into the flower and turn each at random."""
    return build_map(random_placement(rng), load_tile_designs())


def random_placement(rng: Rng) -> list[tuple[int, int]]:
    """The seven tile designs shuffled into the flower's slots, each turned at random: (design, turn) by slot."""
    order = list(range(len(load_tile_designs())))
    rng.shuffle(order)
    return [(design, rng.below(6)) for design in order]


def map_from_json(data: Any) -> FarlanderMap:
    """Read and check a map (a record's ``"map"``, or a map file). Raises SetupError."""
    if not isinstance(data, dict) or not isinstance(data.get("territories"), list):
        raise SetupError('a map is a JSON object with a "territories" list')
    raw = data["territories"]
    if len(raw) < 2:
        raise SetupError("a map needs at least two territories")
    seen: dict[str, dict[str, Any]] = {}
    for position, item in enumerate(raw):
        if not isinstance(item, dict) or not isinstance(item.get("id"), str) or not item["id"]:
            raise SetupError(f"territory {position} needs a non-empty string id")
        if item["id"] in seen:
            raise SetupError(f"territory id {item['id']!r} appears twice")
        if not isinstance(item.get("neighbors"), list) or not all(isinstance(n, str) for n in item["neighbors"]):
            raise SetupError(f"territory {item['id']!r} needs a neighbors list of territory ids")
        if not isinstance(item.get("garrison", False), bool):
            raise SetupError(f"territory {item['id']!r}: garrison must be true or false")
        _check_territory_drawing(item)
        seen[item["id"]] = item
    for tid, item in seen.items():
        for other in item["neighbors"]:
            if other == tid:
                raise SetupError(f"territory {tid!r} lists itself as a neighbour")
            if other not in seen:
                raise SetupError(f"territory {tid!r} has unknown neighbour {other!r}")
            if tid not in seen[other]["neighbors"]:
                raise SetupError(f"adjacency is not symmetric: {tid!r} lists {other!r} but not the reverse")
    territories = []
    for tid, item in seen.items():
        anchor = item.get("anchor", (0.0, 0.0))
        territories.append(
            Territory(
                tid,
                int(item.get("tile", 0)),
                item.get("garrison", False),
                tuple(sorted(set(item["neighbors"]))),
                tuple(item.get("edges", ())),
                (float(anchor[0]), float(anchor[1])),
            )
        )
    tiles = data.get("tiles", [])
    if not isinstance(tiles, list) or not all(isinstance(t, dict) for t in tiles):
        raise SetupError('a map\'s "tiles" is a list of objects')
    return FarlanderMap(tuple(territories), tuple(tiles))


def _check_territory_drawing(item: dict[str, Any]) -> None:
    """The optional drawing fields of a map's territory: ``tile``, ``edges`` and ``anchor``."""
    tid = item["id"]
    if not is_whole(item.get("tile", 0)) or not 0 <= item.get("tile", 0) < 1000:
        raise SetupError(f"territory {tid!r}: tile must be a whole number 0-999, got {item.get('tile')!r}")
    edges = item.get("edges", [])
    if not isinstance(edges, list) or not all(is_whole(e) and 0 <= e < 6 for e in edges):
        raise SetupError(f"territory {tid!r}: edges must be a list of hex edges 0-5, got {edges!r}")
    anchor = item.get("anchor", [0.0, 0.0])
    if (not isinstance(anchor, list) or len(anchor) != 2
            or not all(is_number(v) and abs(v) < 1e6 for v in anchor)):
        raise SetupError(f"territory {tid!r}: anchor must be [x, y], two numbers, got {anchor!r}")
