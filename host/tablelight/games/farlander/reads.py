"""Farlander's read API: everything a face, a drawing, a bot, the search or the lab reads of a game,
as methods and read-only properties (as python-chess gives a board ``pieces(...)`` and
``is_check()``; Landover's is :mod:`tablelight.games.landover.reads`).

``FarlanderReads(game)`` is a view of one engine, made in an instant and never stale: every answer
is read from the game when asked. It is the only module besides the engine that names the engine's
fields, so a change to how the engine keeps its position is one edit here. Answers are values the
caller may keep (numbers, names, tuples, fresh lists); nothing here changes the game.

Territories are numbered in map order (``territory_id(t)`` names one); "nobody" is ``None``.
"""

from __future__ import annotations

from tablelight.core.fields import NOBODY
from tablelight.games.farlander.engine import Farlander
from tablelight.games.farlander.map import FarlanderMap

#: The engine's seat numbers with its NOBODY as None (a lookup: whole boards are read at once).
_SEAT_OR_NONE: dict[int, int | None] = {NOBODY: None, **{seat: seat for seat in range(Farlander.max_players)}}


class FarlanderReads:
    """The read API of one Farlander game (see the module docstring)."""

    __slots__ = ("_game",)

    def __init__(self, game: Farlander) -> None:
        self._game = game

    # ------------------------------------------------------------------ the game

    @property
    def players(self) -> int:
        return self._game.players

    def current_seat(self) -> int | None:
        """The seat to act, or None once the game is over."""
        return self._game.current_seat()

    def winners(self) -> list[int]:
        return self._game.winners()

    @property
    def garrisons_on(self) -> bool:
        """The garrisons option: a garrison adds 1 to its defender and scores 2."""
        return bool(self._game.options["garrisons"])

    # ------------------------------------------------------------------ the map

    @property
    def map(self) -> FarlanderMap:
        """The map: territories, their tiles and geometry (fixed for the game)."""
        return self._game.map

    @property
    def territory_count(self) -> int:
        return len(self._game.ids)

    def territory_id(self, t: int) -> str:
        """Territory ``t``'s id on the map (``"c2"``)."""
        return self._game.ids[t]

    def territory_ids(self) -> tuple[str, ...]:
        """Every territory's id, in map order."""
        return tuple(self._game.ids)

    def territory_index(self, tid: str) -> int | None:
        """The number of the territory with id ``tid``, or None for an id not on this map."""
        return self._game.index.get(tid)

    def neighbors(self, t: int) -> tuple[int, ...]:
        """The territories bordering ``t``."""
        return self._game.neighbors[t]

    def garrison_bonus(self, t: int) -> int:
        """What ``t``'s garrison adds to its defence: 1 on a garrison while garrisons are on, else 0."""
        return self._game.defense_bonus[t]

    # ------------------------------------------------------------------ holdings

    def owner(self, t: int) -> int | None:
        """The seat holding territory ``t``, or None while it is empty."""
        owner = self._game.owner[t]
        return None if owner == NOBODY else owner

    def units(self, t: int) -> int:
        """The units in territory ``t`` (0: empty)."""
        return self._game.units[t]

    def owners(self) -> list[int | None]:
        """Per territory: the seat holding it, or None."""
        return list(map(_SEAT_OR_NONE.__getitem__, self._game.owner))

    def unit_counts(self) -> list[int]:
        """Per territory: its units."""
        return list(self._game.units)

    def reserve(self, seat: int) -> int:
        """Units ``seat`` still has in hand to place."""
        return self._game.reserve[seat]

    # ------------------------------------------------------------------ the turn

    @property
    def phase(self) -> str:
        """"distribution", "action" or "over"."""
        return self._game.phase

    def placements(self, seat: int) -> list[int]:
        """Territories where ``seat`` may place a unit now (the rules' own listing)."""
        return list(self._game.placements(seat))

    def targets(self, seat: int) -> list[int]:
        """Territories ``seat`` may conquer now (the rules' own listing)."""
        return list(self._game.targets(seat))

    def strength(self, seat: int, target: int) -> int:
        """Units of ``seat`` in the territories bordering ``target``."""
        return self._game.strength(seat, target)

    def defense(self, target: int) -> int:
        """``target``'s defence: its units, +1 for a garrison while garrisons are on."""
        return self._game.defense(target)

    def spare_units(self, seat: int, target: int) -> dict[int, int]:
        """``seat``'s territories bordering ``target`` -> the units each can send (all but one)."""
        return dict(self._game.spare_units(seat, target))

    def move_options(self, seat: int, target: int) -> list[dict[str, int]]:
        """Every way to move 1-5 units into ``target`` (territory id -> units), in the listing's order."""
        return self._game.move_options(seat, target)
