"""Farlander bots.

:class:`StrongBot` is a greedy one-move player with a static evaluation: for
each legal action it plays the move on the engine's own lists, scores the
position and takes it back. The score counts the points each side holds,
discounted for territories the other side could conquer next, so it grabs
territory while keeping its stacks where a neighbour cannot out-number them.
"""

from __future__ import annotations

from collections.abc import Iterator

from tablelight.core.actions import FrozenDict
from tablelight.core.game import Action
from tablelight.core.rng import Rng
from tablelight.games.farlander.engine import DISTRIBUTION, MAX_UNITS, NOBODY, Farlander

#: How much of a territory's worth counts when an enemy could take it next turn.
EXPOSED_WORTH = 0.35
#: A small pull towards keeping spare units next to enemy territories.
PRESSURE_WEIGHT = 0.02


def _worth(game: Farlander, t: int) -> int:
    return 2 if game.options["garrisons"] and game.map.territories[t].garrison else 1


def evaluate(game: Farlander, seat: int) -> float:
    """Position value for ``seat``: held points, discounted where a neighbour out-numbers the defence."""
    owner, units, neighbors = game.owner, game.units, game.neighbors
    total = 0.0
    for t in range(len(owner)):
        holder = owner[t]
        if holder == NOBODY:
            continue
        defense = units[t] + game.defense_bonus[t]
        # Strongest attack any other player could bring, and whether it could move in.
        threatened = False
        attack_by: dict[int, int] = {}
        movable: set[int] = set()
        for n in neighbors[t]:
            other = owner[n]
            if other != NOBODY and other != holder:
                attack_by[other] = attack_by.get(other, 0) + units[n]
                if units[n] > 1:
                    movable.add(other)
        for other, strength in attack_by.items():
            if strength > defense and other in movable:
                threatened = True
                break
        value = _worth(game, t) * (EXPOSED_WORTH if threatened else 1.0)
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
        """Every legal action with the value of the position it leads to (each tried and taken back)."""
        seat = game.turn
        if game.phase == DISTRIBUTION:
            for t in game.placements(seat):
                old_owner = game.owner[t]
                game.owner[t] = seat
                game.units[t] += 1
                value = evaluate(game, seat) + self._placement_bias(game, seat, t)
                game.units[t] -= 1
                game.owner[t] = old_owner
                yield value, Action({"type": "place", "territory": game.ids[t]})
        else:
            for target in game.targets(seat):
                old_owner, old_units = game.owner[target], game.units[target]
                for moves in game.move_options(seat, target):
                    sources = [(game.index[tid], count) for tid, count in moves.items()]
                    for source, count in sources:
                        game.units[source] -= count
                    game.owner[target] = seat
                    game.units[target] = sum(count for _, count in sources)
                    value = evaluate(game, seat)
                    for source, count in sources:
                        game.units[source] += count
                    game.owner[target], game.units[target] = old_owner, old_units
                    yield value, Action({"type": "conquer", "target": game.ids[target], "moves": FrozenDict(moves)})

    @staticmethod
    def _placement_bias(game: Farlander, seat: int, t: int) -> float:
        """Early on, claim new territory; never pad a stack that nothing threatens."""
        if game.units[t] == 1:  # a fresh claim
            return 0.05
        enemy_near = any(game.owner[n] not in (NOBODY, seat) for n in game.neighbors[t])
        return 0.0 if enemy_near or game.units[t] >= MAX_UNITS else -0.05

    @staticmethod
    def _keep(best: list[Action], best_value: float, value: float, action: Action) -> tuple[list[Action], float]:
        if value > best_value + 1e-9:
            return [action], value
        if abs(value - best_value) <= 1e-9:
            best.append(action)
        return best, best_value
