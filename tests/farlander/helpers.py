"""Small hand-made Farlander positions for rule tests."""

from __future__ import annotations

from typing import Any

from tablelight.games.farlander.engine import Farlander


def make_map(edges: list[tuple[str, str]], garrisons: tuple[str, ...] = ()) -> dict[str, Any]:
    """A map from an edge list: ``make_map([("x", "y"), ("y", "z")])``."""
    neighbors: dict[str, set[str]] = {}
    for a, b in edges:
        neighbors.setdefault(a, set()).add(b)
        neighbors.setdefault(b, set()).add(a)
    return {
        "territories": [
            {"id": tid, "tile": 0, "garrison": tid in garrisons, "neighbors": sorted(ns)}
            for tid, ns in sorted(neighbors.items())
        ]
    }


def position(
    edges: list[tuple[str, str]],
    holdings: dict[str, tuple[int, int]],
    *,
    turn: int = 0,
    players: int = 2,
    garrisons: tuple[str, ...] = (),
    options: dict[str, Any] | None = None,
    phase: str = "action",
) -> Farlander:
    """A game on a small map that starts at ``holdings[id] = (seat, units)`` (other territories empty,
    no reserves) with ``turn`` to act, through the engine's documented starting position."""
    start = {"phase": phase, "turn": turn, "holdings": {tid: list(held) for tid, held in holdings.items()}}
    return Farlander(players, options or {}, 0, setup={"map": make_map(edges, garrisons), "position": start})
