"""Building Landover positions for tests: an empty board in the main phase, pieces put with the
engine's documented ``put_piece``, and chance outcomes entered (as physical dice would be)."""

from __future__ import annotations

import copy
from typing import Any

from tablelight.games.landover.hexmap import CARDS, LAND_EDGE, WATER_EDGE, COAST_EDGE
from tablelight.games.landover.engine import Landover
from tablelight.games.landover.state import LandoverState


def main_game(players: int = 2, seed: int = 0, position: dict[str, Any] | None = None, **options: Any) -> Landover:
    """A game started from a documented position (``games/landover/position.py``): by default an
    empty board, empty hands, seats in order 0, 1, ... and seat 0 to act after the roll. ``position``
    adds to or replaces those fields (hands, dev_cards, culture, military, pieces, ...)."""
    start = {"order": list(range(players)), "dice": {"white": 1, "red": 2, "event": "barbarian"}, **(position or {})}
    if start.get("phase") == "roll":
        start.pop("dice")
    # the tests read the printed numbers
    return Landover(players, {"map_numbers": "fixed", **options}, seed, setup={"position": start})


def force(game: Landover, *outcomes: tuple[str, Any]) -> None:
    """Queue chance outcomes: ``force(g, ("white_die", 3), ("red_die", 4), ("event_die", 1))``."""
    for kind, value in outcomes:
        game.enter_chance(kind, value)


def hand(**cards: int) -> list[int]:
    return [cards.get(name, 0) for name in CARDS]


def village(game: Landover, seat: int, v: int, home: bool = True) -> None:
    game.put_piece(seat, "village", v, home)


def city(game: Landover, seat: int, v: int, home: bool = True) -> None:
    game.put_piece(seat, "city", v, home)


def road(game: Landover, seat: int, e: int) -> None:
    game.put_piece(seat, "road", e)


def bridge(game: Landover, seat: int, e: int) -> None:
    game.put_piece(seat, "bridge", e)


def land_hexes(game: Landover) -> list[int]:
    return [h for h in range(game.hex_count) if game.pos.terrain[h] not in ("water", "mystery")]


def hex_of(game: Landover, terrain: str) -> int:
    return next(h for h in range(game.hex_count) if game.pos.terrain[h] == terrain)


def inland_corner(game: Landover, terrain: str | None = None) -> int:
    """A corner whose hexes are all revealed land (of which one is ``terrain`` if given)."""
    for v, hexes in enumerate(game.map.vertex_hexes):
        if len(hexes) == 3 and all(game.pos.terrain[h] not in ("water", "mystery") for h in hexes):
            if terrain is None or any(game.pos.terrain[h] == terrain for h in hexes):
                return v
    raise AssertionError("no such corner")


def edges_of_kind(game: Landover, kind: int) -> list[int]:
    return [e for e in range(game.side_count) if game.map.edge_kind[e] == kind]


def edge_between(game: Landover, a: int, b: int) -> int:
    for e in game.map.vertex_edges[a]:
        if b in game.map.edge_vertices[e]:
            return e
    raise AssertionError(f"corners {a} and {b} are not neighbours")


def path_from(game: Landover, start: int, length: int, kinds: tuple[int, ...] = (LAND_EDGE, COAST_EDGE)) -> list[int]:
    """``length`` sides forming a simple path from ``start`` along sides of the given kinds (DFS)."""
    m = game.map

    def search(v: int, seen: set[int], path: list[int]) -> list[int] | None:
        if len(path) == length:
            return path
        for e in m.vertex_edges[v]:
            if m.edge_kind[e] not in kinds or game.pos.side_owner[e] != -1:
                continue
            a, b = m.edge_vertices[e]
            w = b if a == v else a
            if w in seen:
                continue
            found = search(w, seen | {w}, path + [e])
            if found:
                return found
        return None

    found = search(start, {start}, [])
    assert found, "no path"
    return found


def snapshot(game: Landover) -> dict[str, Any]:
    """Everything that an illegal action must leave unchanged."""
    data = {k: v for k, v in game.__dict__.items() if k not in ("pos", "rng")}  # the queued chance too
    data["position"] = {name: getattr(game.pos, name) for name in LandoverState.__slots__ if name not in ("kept", "map")}
    data["rng_state"] = game.rng.state
    return copy.deepcopy(data)


__all__ = ["WATER_EDGE", "LAND_EDGE", "COAST_EDGE"]


def spare_corners(game: Landover, count: int, avoid: tuple[int, ...] = ()) -> list[int]:
    """``count`` land corners from the far end of the map, none next to another or to ``avoid``
    (places for the extra pieces of a position)."""
    picked: list[int] = []
    blocked = {w for v in avoid for w in (v, *game.map.vertex_neighbors[v])}
    for v in reversed(range(game.corner_count)):
        if len(picked) == count:
            break
        if game.pos.corner_on_land[v] and v not in blocked:
            picked.append(v)
            blocked.update((v, *game.map.vertex_neighbors[v]))
    assert len(picked) == count, "not enough spare corners"
    return picked


def pieces(seat: int, piece: str, places: list[int], home: bool = True) -> list[dict[str, Any]]:
    """Position entries putting ``seat``'s ``piece`` on each of ``places``."""
    return [{"seat": seat, "piece": piece, "at": at, "home": home} for at in places]


def end_turn(game: Landover, **seat: int) -> None:
    """End the turn; from record format 4 the next seat then rolls, as a bot does (every turn waits
    for its roll, ``turns.start_turn``); before it the roll came at once."""
    game.apply({"type": "end_turn"}, **seat)
    if game.pos.phase == "roll" and game.record_format >= 4:
        game.apply({"type": "roll"})
