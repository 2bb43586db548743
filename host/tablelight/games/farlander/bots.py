"""Farlander bots.

:class:`StrongBot` is a greedy one-move player with a static evaluation: for
each legal action it plays the move on its own copy of the holdings (read
through :class:`~tablelight.games.farlander.reads.FarlanderReads`), scores the
position and takes it back. The score counts the points each side holds,
discounted for territories the other side could conquer next, so it grabs
territory while keeping its stacks where a neighbour cannot out-number them.
"""

from __future__ import annotations

from collections.abc import Iterator

from tablelight.core.actions import FrozenDict
from tablelight.core.game import Action
from tablelight.core.rng import Rng
from tablelight.games.farlander.engine import DISTRIBUTION, MAX_UNITS, Farlander
from tablelight.games.farlander.reads import FarlanderReads

#: How much of a territory's worth counts when an enemy could take it next turn.
EXPOSED_WORTH = 0.35
#: A small pull towards keeping spare units next to enemy territories.
PRESSURE_WEIGHT = 0.02


class Holdings:
    """The bot's own copy of who holds what (read through the game's read API), to try moves on:
    the game itself is never changed."""

    __slots__ = ("owner", "units", "neighbors", "bonus", "worth")

    def __init__(self, reads: FarlanderReads) -> None:
        #: Per territory: the seat holding it (None: empty), and its units.
        self.owner = reads.owners()
        self.units = reads.unit_counts()
        count = reads.territory_count
        self.neighbors = tuple(reads.neighbors(t) for t in range(count))
        #: Per territory: what its garrison adds to the defence (1 on a garrison while garrisons are on),
        #: and the points it scores (2 there, else 1).
        self.bonus = tuple(reads.garrison_bonus(t) for t in range(count))
        self.worth = tuple(1 + bonus for bonus in self.bonus)


def evaluate(board: Holdings, seat: int) -> float:
    """Position value for ``seat``: held points, discounted where a neighbour out-numbers the defence."""
    owner, units, neighbors = board.owner, board.units, board.neighbors
    total = 0.0
    for t in range(len(owner)):
        holder = owner[t]
        if holder is None:
            continue
        defense = units[t] + board.bonus[t]
        # Strongest attack any other player could bring, and whether it could move in.
        threatened = False
        attack_by: dict[int, int] = {}
        movable: set[int] = set()
        for n in neighbors[t]:
            other = owner[n]
            if other is not None and other != holder:
                attack_by[other] = attack_by.get(other, 0) + units[n]
                if units[n] > 1:
                    movable.add(other)
        for other, strength in attack_by.items():
            if strength > defense and other in movable:
                threatened = True
                break
        value = board.worth[t] * (EXPOSED_WORTH if threatened else 1.0)
        pressure = PRESSURE_WEIGHT * sum(
            units[n] - 1 for n in neighbors[t] if owner[n] == holder
        ) if attack_by else 0.0
        total += value + pressure if holder == seat else -(value + pressure)
    return total


class StrongBot:
    """Greedy bot: the legal action whose resulting position :func:`evaluate` likes best."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, game: Farlander) -> Action:
        best: list[Action] = []
        best_value = float("-inf")
        for value, action in self.valued(game):
            best, best_value = self._keep(best, best_value, value, action)
        return self.rng.choice(best)

    def ranked(self, game: Farlander) -> list[Action]:
        """The legal actions best first by :func:`evaluate` (the listing's order among equals); changes nothing."""
        valued = list(self.valued(game))
        order = sorted(range(len(valued)), key=lambda n: (-valued[n][0], n))
        return [valued[n][1] for n in order]

    def valued(self, game: Farlander) -> Iterator[tuple[float, Action]]:
        """Every legal action with the value of the position it leads to (each tried on the bot's own
        :class:`Holdings`, and taken back)."""
        reads = FarlanderReads(game)
        seat = reads.current_seat()
        assert seat is not None, "the game is over: nobody chooses"
        board = Holdings(reads)
        owner, units = board.owner, board.units
        if reads.phase == DISTRIBUTION:
            for t in reads.placements(seat):
                old_owner = owner[t]
                owner[t] = seat
                units[t] += 1
                value = evaluate(board, seat) + self._placement_bias(board, seat, t)
                units[t] -= 1
                owner[t] = old_owner
                yield value, Action({"type": "place", "territory": reads.territory_id(t)})
        else:
            for target in reads.targets(seat):
                old_owner, old_units = owner[target], units[target]
                for moves in reads.move_options(seat, target):
                    sources = [(self._index(reads, tid), count) for tid, count in moves.items()]
                    for source, count in sources:
                        units[source] -= count
                    owner[target] = seat
                    units[target] = sum(count for _, count in sources)
                    value = evaluate(board, seat)
                    for source, count in sources:
                        units[source] += count
                    owner[target], units[target] = old_owner, old_units
                    yield value, Action({"type": "conquer", "target": reads.territory_id(target), "moves": FrozenDict(moves)})

    @staticmethod
    def _index(reads: FarlanderReads, tid: str) -> int:
        t = reads.territory_index(tid)
        assert t is not None, f"the rules listed a move from {tid!r}, which is not on the map"
        return t

    @staticmethod
    def _placement_bias(board: Holdings, seat: int, t: int) -> float:
        """Early on, claim new territory; never pad a stack that nothing threatens."""
        if board.units[t] == 1:  # a fresh claim
            return 0.05
        enemy_near = any(board.owner[n] not in (None, seat) for n in board.neighbors[t])
        return 0.0 if enemy_near or board.units[t] >= MAX_UNITS else -0.05

    @staticmethod
    def _keep(best: list[Action], best_value: float, value: float, action: Action) -> tuple[list[Action], float]:
        if value > best_value + 1e-9:
            return [action], value
        if abs(value - best_value) <= 1e-9:
            best.append(action)
        return best, best_value
