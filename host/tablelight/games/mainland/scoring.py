"""Mainland scoring: territories, each clan's Mainland and the points breakdown.

A territory is a set of edge-connected tiles of one clan (corners do not
connect). A clan's Mainland is its territory with the most tiles; between
territories of equal size the one with the higher value (its item points as a
Mainland) wins; if that ties too, the one that gives the clan the higher total,
then the one whose first tile (lowest y, then x) comes first. The last two only
make the choice deterministic: see docs/rules/mainland.md.

Points: in the Mainland 1 per tile plus each item's Mainland value; in every
other territory each item's minor value.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tablelight.games.mainland.data import ITEM_NAMES, MAINLAND_POINTS, MINOR_POINTS

Cell = tuple[int, int]


@dataclass
class Territory:
    clan: int
    cells: list[Cell]
    mainland_value: int  # item points if this is the Mainland (tiles not included)
    minor_value: int  # item points if this is a minor territory

    @property
    def size(self) -> int:
        return len(self.cells)


@dataclass
class ClanScore:
    clan: int
    territories: list[Territory] = field(default_factory=list)
    mainland: Territory | None = None

    @property
    def mainland_tiles(self) -> int:
        return self.mainland.size if self.mainland else 0

    @property
    def mainland_items(self) -> int:
        return self.mainland.mainland_value if self.mainland else 0

    @property
    def minor_items(self) -> int:
        return sum(t.minor_value for t in self.territories if t is not self.mainland)

    @property
    def total(self) -> int:
        return self.mainland_tiles + self.mainland_items + self.minor_items

    def summary(self) -> dict[str, Any]:
        """The compact per-seat breakdown stored in records."""
        return {
            "mainland_tiles": self.mainland_tiles,
            "mainland_items": self.mainland_items,
            "minor_items": self.minor_items,
            "total": self.total,
            "territories": sorted((t.size for t in self.territories), reverse=True),
        }

    def details(self, items: Mapping[Cell, int]) -> dict[str, Any]:
        """Everything the scoring assistant prints: every territory, its cells and items."""
        territories = []
        for territory in sorted(self.territories, key=lambda t: (t is not self.mainland, -t.size, min(t.cells))):
            counts: dict[str, int] = {}
            for cell in sorted(territory.cells):
                name = ITEM_NAMES[items[cell]]
                counts[name] = counts.get(name, 0) + 1
            is_mainland = territory is self.mainland
            territories.append(
                {
                    "mainland": is_mainland,
                    "tiles": territory.size,
                    "items": counts,
                    "points": territory.size + territory.mainland_value if is_mainland else territory.minor_value,
                    "cells": [[x, y] for (x, y) in sorted(territory.cells, key=lambda c: (c[1], c[0]))],
                }
            )
        return {"clan": self.clan, **self.summary(), "territory_list": territories}


def mainland_key(territory: Territory, minor_total: int) -> tuple[int, int, int, tuple[int, int]]:
    """Sort key choosing the Mainland: size, value, the clan's resulting total, then first tile."""
    first = min((y, x) for (x, y) in territory.cells)
    total = territory.size + territory.mainland_value - territory.minor_value + minor_total
    return (territory.size, territory.mainland_value, total, (-first[0], -first[1]))


def territories(board: Mapping[Cell, tuple[int, int]]) -> list[Territory]:
    """Every territory of every clan on ``board`` ((x, y) -> (clan, item number))."""
    seen: set[Cell] = set()
    found: list[Territory] = []
    for start in sorted(board, key=lambda c: (c[1], c[0])):
        if start in seen:
            continue
        clan = board[start][0]
        seen.add(start)
        stack = [start]
        cells: list[Cell] = []
        mainland_value = minor_value = 0
        while stack:
            cell = stack.pop()
            cells.append(cell)
            item = board[cell][1]
            mainland_value += MAINLAND_POINTS[item]
            minor_value += MINOR_POINTS[item]
            x, y = cell
            for near in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if near not in seen and near in board and board[near][0] == clan:
                    seen.add(near)
                    stack.append(near)
        found.append(Territory(clan, cells, mainland_value, minor_value))
    return found


def score_board(board: Mapping[Cell, tuple[int, int]], clans: int | None = None) -> list[ClanScore]:
    """Scores of clans ``0..clans-1`` (default: up to the highest clan on the board)."""
    if clans is None:
        clans = max((clan for clan, _ in board.values()), default=-1) + 1
    result = [ClanScore(clan) for clan in range(clans)]
    for territory in territories(board):
        if territory.clan < clans:
            result[territory.clan].territories.append(territory)
    for score in result:
        if score.territories:
            minor_total = sum(t.minor_value for t in score.territories)
            score.mainland = max(score.territories, key=lambda t: mainland_key(t, minor_total))
    return result
