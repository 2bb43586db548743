"""Mainland's read API: everything a face, a drawing, a bot, the search or the lab reads of a game,
as methods and read-only properties (as python-chess gives a board ``pieces(...)`` and
``is_check()``; Landover's is :mod:`tablelight.games.landover.reads`).

``MainlandReads(game)`` is a view of one engine, made in an instant and never stale: every answer
is read from the game when asked. It is the only module besides the engine that names the engine's
fields, so a change to how the engine keeps its position is one edit here. Answers are values the
caller may keep (numbers, names, tuples, fresh lists); nothing here changes the game.

Tiles are (x, y) from the top-left, or cell numbers ``y * size + x``; items are the numbers of
:mod:`tablelight.games.mainland.data` (0: the empty space); "nobody" is ``None``. A seat's hand,
deck and discards are its secrets: a face shows them only to their seat.
"""

from __future__ import annotations

from tablelight.core.fields import NOBODY
from tablelight.games.mainland.engine import Mainland
from tablelight.games.mainland.scoring import ClanScore

#: A placement: (card, x, y, rotation), as the engine lists them.
Placement = tuple[str, int, int, int]

#: The engine's seat numbers with its NOBODY as None (a lookup: whole boards are read at once).
_SEAT_OR_NONE: dict[int, int | None] = {NOBODY: None, **{seat: seat for seat in range(Mainland.max_players)}}


class MainlandReads:
    """The read API of one Mainland game (see the module docstring)."""

    __slots__ = ("_game",)

    def __init__(self, game: Mainland) -> None:
        self._game = game

    # ------------------------------------------------------------------ the game

    @property
    def players(self) -> int:
        return self._game.players

    def current_seat(self) -> int | None:
        """The clan to act, or None once every clan has stopped."""
        return self._game.current_seat()

    def winners(self) -> list[int]:
        return self._game.winners()

    # ------------------------------------------------------------------ the board

    @property
    def size(self) -> int:
        """The board's side in tiles."""
        return self._game.size

    def clan_at(self, x: int, y: int) -> int | None:
        """The clan whose card shows on tile (x, y), or None on the empty space."""
        clan = self._game.top_clan[y * self._game.size + x]
        return None if clan == NOBODY else clan

    def tile_clans(self) -> list[int | None]:
        """Per cell (``y * size + x``): the clan whose card shows there, or None."""
        return list(map(_SEAT_OR_NONE.__getitem__, self._game.top_clan))

    def tile_items(self) -> list[int]:
        """Per cell (``y * size + x``): the item showing there (0: the empty space)."""
        return list(self._game.top_item)

    def board_cells(self) -> dict[tuple[int, int], tuple[int, int]]:
        """(x, y) -> (clan, item) for every covered tile."""
        return self._game.board_cells()

    def anchors(self) -> tuple[tuple[int, int, tuple[int, int, int, int]], ...]:
        """Every spot for a card's top-left tile inside the board, numbered ``y * (size - 1) + x``:
        (x, y, the four cells the card covers clockwise from the top-left)."""
        return tuple(self._game.anchors)

    def clan_scores(self) -> list[ClanScore]:
        """Each clan's territories, Mainland and points on the board now."""
        return list(self._game.clan_scores())

    # ------------------------------------------------------------------ the clans

    def camp_placed(self, seat: int) -> bool:
        """``seat``'s camp is on the board (its first card)."""
        return self._game.camp_placed[seat]

    def tokens(self, seat: int) -> int:
        """``seat``'s chieftain tokens left (a clan without any has stopped)."""
        return self._game.tokens[seat]

    def hand(self, seat: int) -> list[str]:
        """The cards in ``seat``'s hand, in the order drawn (a secret of the seat's)."""
        return list(self._game.hands[seat])

    def deck(self, seat: int) -> list[str]:
        """``seat``'s deck, top first (a secret of everyone's, its own clan's too)."""
        return list(self._game.decks[seat])

    def discards(self, seat: int) -> list[str]:
        """``seat``'s discard pile, in the order discarded (a secret of the seat's)."""
        return list(self._game.discards[seat])

    def deck_size(self, seat: int) -> int:
        return len(self._game.decks[seat])

    # ------------------------------------------------------------------ the turn

    @property
    def replaced(self) -> bool:
        """The clan to act has replaced a card this turn (so it may not replace or gather now)."""
        return self._game.replaced

    def placements(self, seat: int | None = None) -> list[Placement]:
        """Every legal (card, x, y, rotation) of ``seat`` (default: the clan to act) now: the rules' own listing."""
        return list(self._game.placements(seat))
