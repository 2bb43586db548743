"""Farlander's board as terminal text (``Farlander.describe``), from the position's plain data."""

from __future__ import annotations

from collections.abc import Sequence

from tablelight.core.fields import NOBODY
from tablelight.core.inputs import printable
from tablelight.games.farlander.map import FarlanderMap

SEAT_MARKS = "RBGY"  # red, blue, green, yellow, as in the box
_COLORS = ("\033[31m", "\033[34m", "\033[32m", "\033[33m")
_RESET = "\033[0m"


def board_text(fmap: FarlanderMap, ids: Sequence[str], owner: Sequence[int], units: Sequence[int], status: str,
               color: bool = False) -> str:
    """The seven tiles as rows of territories (``a1 R3*`` is red with 3 units on a garrison), then
    ``status``."""
    lines = []
    by_tile: dict[int, list[int]] = {}
    for t, territory in enumerate(fmap.territories):
        by_tile.setdefault(territory.tile, []).append(t)
    for tile in sorted(by_tile):
        cells = []
        for t in by_tile[tile]:
            mark = "." if owner[t] == NOBODY else SEAT_MARKS[owner[t]]
            cell = f"{printable(ids[t])} {mark}{units[t] or ' '}{'*' if fmap.territories[t].garrison else ' '}"
            if color and owner[t] != NOBODY:
                cell = f"{_COLORS[owner[t]]}{cell}{_RESET}"
            cells.append(cell)
        lines.append(f"  tile {'abcdefg'[tile] if tile < 7 else tile}: " + "  ".join(cells))
    lines.append(f"  {status}")
    return "\n".join(lines)
