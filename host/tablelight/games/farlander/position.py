"""A Farlander position: who holds which territory with how many units, the reserves, the phase
and whose turn it is. A game can start from one (``setup={"map": ..., "position": ...}``, kept in
its record) instead of from the empty map: rule tests and puzzles build their positions this way.

JSON shape (``Farlander.position()`` writes it, ``read_position`` checks it)::

    {"phase": "action", "turn": 0, "reserve": [0, 0],
     "holdings": {"x": [0, 3], "y": [1, 1]}}      territory id -> [seat, units]

``phase`` is ``"distribution"`` or ``"action"`` (default ``"action"``); ``reserve`` defaults to no
units left; territories not in ``holdings`` are empty.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tablelight.core.errors import SetupError
from tablelight.core.fields import is_whole

PHASES = ("distribution", "action")
KEYS = {"phase", "turn", "reserve", "holdings"}


@dataclass(frozen=True)
class Position:
    phase: str
    turn: int
    reserve: tuple[int, ...]
    holdings: dict[int, tuple[int, int]]  # territory index -> (seat, units)


def read_position(data: Any, index: Mapping[str, int], players: int, max_units: int, most_reserve: int) -> Position:
    """Check a position against the map (``index``: territory id -> index) and the seats. SetupError names the field."""
    if not isinstance(data, dict):
        raise SetupError('a position is a JSON object with "turn" and "holdings"')
    unknown = sorted(set(data) - KEYS)
    if unknown:
        raise SetupError(f"position: unknown field {unknown[0]!r} (fields: {', '.join(sorted(KEYS))})")
    phase = data.get("phase", "action")
    if phase not in PHASES:
        raise SetupError(f"position: phase must be distribution or action, not {phase!r}")
    turn = data.get("turn")
    if not is_whole(turn) or not 0 <= turn < players:
        raise SetupError(f"position: turn must be a seat 0-{players - 1}, not {turn!r}")
    reserve = data.get("reserve", [0] * players)
    if not isinstance(reserve, list) or len(reserve) != players or not all(
        is_whole(n) and 0 <= n <= most_reserve for n in reserve
    ):
        raise SetupError(f"position: reserve must list {players} numbers of units 0-{most_reserve}, not {reserve!r}")
    raw = data.get("holdings")
    if not isinstance(raw, dict):
        raise SetupError("position: holdings must map territory ids to [seat, units]")
    holdings = {}
    for tid, held in raw.items():
        if tid not in index:
            raise SetupError(f"position: holdings name {tid!r}, which is not a territory of the map")
        if not (isinstance(held, list) and len(held) == 2 and is_whole(held[0]) and is_whole(held[1])
                and 0 <= held[0] < players and 1 <= held[1] <= max_units):
            raise SetupError(f"position: {tid!r} must hold [seat 0-{players - 1}, units 1-{max_units}], not {held!r}")
        holdings[index[tid]] = (held[0], held[1])
    return Position(phase, turn, tuple(reserve), holdings)


def position_json(phase: str, turn: int, reserve: list[int], ids: list[str], owner: list[int],
                  units: list[int]) -> dict[str, Any]:
    return {
        "phase": phase,
        "turn": turn,
        "reserve": list(reserve),
        "holdings": {tid: [owner[t], units[t]] for t, tid in enumerate(ids) if owner[t] >= 0},
    }
