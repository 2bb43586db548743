"""Mainland bots: a greedy bot that places the card raising its own score the most.

Scoring every legal placement by replaying it on a copy of the board would be
slow, so :class:`OwnScore` keeps the bot's territories as summaries (size and
item points) and works out the score after a placement from them: a placed
card turns its four tiles into the clan's own and can only join the clan's
territories it touches, never split them, so the new score needs only the
territories around the card.
"""

from __future__ import annotations

from tablelight.core.game import Action
from tablelight.core.rng import Rng
from tablelight.games.mainland.data import MAINLAND_POINTS, MINOR_POINTS
from tablelight.games.mainland.engine import ROTATIONS, Mainland
from tablelight.games.mainland.reads import MainlandReads


class OwnScore:
    """One clan's territories on the current board, for fast "score after placing" questions."""

    def __init__(self, game: Mainland, seat: int) -> None:
        reads = MainlandReads(game)
        self.seat = seat
        size = reads.size
        #: The board as it is now, per cell: the clan showing there (None: nobody) and the item.
        clans = self.clans = reads.tile_clans()
        items = self.items = reads.tile_items()
        self.anchors = reads.anchors()
        self.label = [-1] * (size * size)
        self.sizes: list[int] = []
        self.mainland_values: list[int] = []
        self.minor_values: list[int] = []
        for start in range(size * size):
            if clans[start] != seat or self.label[start] >= 0:
                continue
            number = len(self.sizes)
            self.label[start] = number
            stack = [start]
            count = mainland = minor = 0
            while stack:
                cell = stack.pop()
                count += 1
                item = items[cell]
                mainland += MAINLAND_POINTS[item]
                minor += MINOR_POINTS[item]
                for near in _neighbors(cell, size):
                    if clans[near] == seat and self.label[near] < 0:
                        self.label[near] = number
                        stack.append(near)
            self.sizes.append(count)
            self.mainland_values.append(mainland)
            self.minor_values.append(minor)
        self.minor_total = sum(self.minor_values)
        # Territories best first by the Mainland choice (size, then value, then resulting total).
        self.ranked = sorted(range(len(self.sizes)), key=self._key, reverse=True)
        self.score = self._total(self.ranked[0]) if self.ranked else 0
        self.rim = [_rim(x, y, size) for x, y, _ in self.anchors]

    def _key(self, number: int) -> tuple[int, int, int]:
        return (self.sizes[number], self.mainland_values[number], self._total(number))

    def _total(self, number: int) -> int:
        return self.sizes[number] + self.mainland_values[number] - self.minor_values[number] + self.minor_total

    def after(self, anchor: int, tiles: tuple[int, int, int, int]) -> int:
        """The clan's score once ``tiles`` lie on ``anchor``'s four cells."""
        clans, items, seat, label = self.clans, self.items, self.seat, self.label
        cells = self.anchors[anchor][2]
        joined: set[int] = set()
        size = mainland = minor = 0
        for cell, item in zip(cells, tiles):
            size += 1
            mainland += MAINLAND_POINTS[item]
            minor += MINOR_POINTS[item]
            if clans[cell] == seat:
                joined.add(label[cell])
                size -= 1  # counted in its territory already
                old = items[cell]
                mainland -= MAINLAND_POINTS[old]
                minor -= MINOR_POINTS[old]
        for cell in self.rim[anchor]:
            if clans[cell] == seat:
                joined.add(label[cell])
        for number in joined:
            size += self.sizes[number]
            mainland += self.mainland_values[number]
            minor += self.minor_values[number]
        minor_total = self.minor_total + minor - sum(self.minor_values[n] for n in joined)
        best = (size, mainland, size + mainland - minor + minor_total)
        for number in self.ranked:
            if number in joined:
                continue
            other = self.sizes[number], self.mainland_values[number]
            total = other[0] + other[1] - self.minor_values[number] + minor_total
            if (other[0], other[1], total) > best:
                best = (other[0], other[1], total)
            break  # later territories rank lower and cannot win
        return best[2]


def _neighbors(cell: int, size: int) -> list[int]:
    y, x = divmod(cell, size)
    found = []
    if x > 0:
        found.append(cell - 1)
    if x < size - 1:
        found.append(cell + 1)
    if y > 0:
        found.append(cell - size)
    if y < size - 1:
        found.append(cell + size)
    return found


def _rim(x: int, y: int, size: int) -> tuple[int, ...]:
    """The cells sharing an edge with the 2x2 block whose top-left is (x, y)."""
    around = [(x, y - 1), (x + 1, y - 1), (x + 2, y), (x + 2, y + 1), (x, y + 2), (x + 1, y + 2), (x - 1, y), (x - 1, y + 1)]
    return tuple(cy * size + cx for cx, cy in around if 0 <= cx < size and 0 <= cy < size)


#: Camps further apart than this (in tiles) count as apart; nearer, the nearer the worse.
CAMP_ROOM = 8
#: Tiles from the board's edge a camp needs to grow on every side.
CAMP_EDGE = 2


class GreedyBot:
    """Places the card that raises its own score the most (ties at random; the camp with room to grow).

    The camp goes where other clans are furthest (up to :data:`CAMP_ROOM` tiles) and not against the
    board's edge, ties at random. Camps "near the middle" put the first clan's in the centre and
    every later one against it: the first clan, hemmed in on every side, won 27-31% of 3-player games
    (fair: 33%); apart, each seat wins its share (``docs/lab.md``).

    With no legal placement at the start of a turn it replaces an advanced card
    (free, and it may play the new card at once); if it already replaced
    earlier without luck (its discard pile is not empty), it gathers its clan
    instead for five fresh cards. Otherwise it passes.
    """

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, game: Mainland) -> Action:
        reads = MainlandReads(game)
        seat = reads.current_seat()
        assert seat is not None
        placements = reads.placements(seat)
        if placements:
            return self._best_placement(game, seat, placements)
        if not reads.replaced and reads.camp_placed(seat):
            hand = reads.hand(seat)
            if reads.discards(seat) or (not hand and reads.deck_size(seat)):
                return Action({"type": "gather"})
            if hand and reads.deck_size(seat):
                advanced = sorted(card for card in set(hand) if not card.startswith("land"))
                return Action({"type": "replace", "card": self.rng.choice(advanced or sorted(set(hand)))})
        return Action({"type": "pass"})

    def ranked(self, game: Mainland) -> list[Action]:
        """The placements best first by the bot's measure (listing order among equals), or, with none,
        every legal action; changes nothing."""
        reads = MainlandReads(game)
        seat = reads.current_seat()
        assert seat is not None
        placements = reads.placements(seat)
        if not placements:
            return game.legal_actions()
        merits = self._merits(game, seat, placements)
        order = sorted(range(len(placements)), key=lambda n: (-merits[n], n))
        return [_place(placements[n]) for n in order]

    def _merits(self, game: Mainland, seat: int, placements: list[tuple[str, int, int, int]]) -> list[float]:
        """How good each placement is: the camp's room to grow, then the gain in own score."""
        reads = MainlandReads(game)
        span = reads.size - 1
        if not reads.camp_placed(seat):
            size = reads.size
            others = [divmod(cell, size) for cell, clan in enumerate(reads.tile_clans()) if clan is not None]
            merits = []
            for _, x, y, _ in placements:
                apart = min((abs(x + 0.5 - tx) + abs(y + 0.5 - ty) for ty, tx in others), default=CAMP_ROOM)
                merits.append(min(apart, CAMP_ROOM) + min(x, y, span - 1 - x, span - 1 - y, CAMP_EDGE))
            return merits
        own = OwnScore(game, seat)
        return [own.after(y * span + x, ROTATIONS[card][rotation]) - own.score for card, x, y, rotation in placements]

    def _best_placement(self, game: Mainland, seat: int, placements: list[tuple[str, int, int, int]]) -> Action:
        merits = self._merits(game, seat, placements)
        top = max(merits)
        return _place(self.rng.choice([p for p, merit in zip(placements, merits) if merit == top]))


def _place(placement: tuple[str, int, int, int]) -> Action:
    card, x, y, rotation = placement
    return Action({"type": "place", "card": card, "x": x, "y": y, "rotation": rotation})
