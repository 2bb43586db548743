"""Landover bots: a greedy bot that scores each legal action with simple, readable heuristics.

The greedy bot builds cities and villages on the richest corners (by the chance
of their numbers), grows culture, keeps enough military power to hold off the
barbarians, trades only towards what it is saving for, plays the development
cards that plainly help it, and ends its turn when nothing scores above zero.
"""

from __future__ import annotations

from typing import Any

from tablelight.core.game import Action
from tablelight.core.rng import Rng
from tablelight.games.landover.engine import Landover
from tablelight.games.landover.rules import (
    CARD_INDEX,
    CITY,
    CLAY,
    CULTURE_COMMODITY,
    CULTURE_INDEX,
    NOBODY,
    ORE,
    WHEAT,
    WOOD,
    WOOL,
)

#: Dots under a number token: how many of the 36 rolls of two dice make it.
PIPS = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}
GOALS: dict[str, dict[int, int]] = {
    "city": {ORE: 3, WHEAT: 2},
    "village": {CLAY: 1, WOOD: 1, WOOL: 1, WHEAT: 1},
    "road": {WOOD: 1, CLAY: 1},
    "military": {WOOL: 1, WHEAT: 1},
}
#: Cards the bot plays whenever it may, with a base score.
EAGER_CARDS = {"irrigation": 40, "mining": 40, "military": 45, "wedding": 35, "famine": 25}


def corner_value(game: Landover, v: int) -> float:
    """How much a settlement on corner ``v`` is likely to produce (pips, gold counting double)."""
    value = 0.0
    kinds = set()
    for h in game.map.vertex_hexes[v]:
        number = game.number[h]
        terrain = game.terrain[h]
        if number is None or terrain in ("water", "mystery"):
            continue
        value += PIPS.get(number, 0) * (1.5 if terrain == "gold" else 1.0)
        kinds.add(terrain)
    return value + 0.5 * len(kinds) + (1.0 if game.map.vertex_harbor[v] >= 0 else 0.0)


class GreedyBot:
    """Plays the legal action with the highest heuristic score (ties broken at random)."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)
        self._trades: tuple[int, int] = (-1, 0)  # (turn, trades made in it)

    def choose(self, game: Any) -> Action:
        assert isinstance(game, Landover)
        actions = game.legal_actions()
        seat = game.seat
        best: list[Action] = []
        best_score = float("-inf")
        goal = self._goal(game, seat)
        for action in actions:
            score = self._score(game, seat, action, goal)
            if score > best_score:
                best, best_score = [action], score
            elif score == best_score:
                best.append(action)
        choice = self.rng.choice(best)
        if choice["type"] == "trade":
            turn, made = self._trades
            self._trades = (game.turns, made + 1 if turn == game.turns else 1)
        return choice

    def ranked(self, game: Any) -> list[Action]:
        """The legal actions best first by the bot's score (the listing's order among equals); changes nothing."""
        assert isinstance(game, Landover)
        goal = self._goal(game, game.seat)
        scored = [(self._score(game, game.seat, a, goal), n, a) for n, a in enumerate(game.legal_actions())]
        scored.sort(key=lambda item: (-item[0], item[1]))
        return [a for _, _, a in scored]

    # ------------------------------------------------------------------ goals

    def _goal(self, game: Landover, seat: int) -> str | None:
        """What the bot is saving for now."""
        if game.counts[seat]["village"] and game.pieces_left(seat, "city") > 0:
            return "city"
        corners = game.village_corners(seat)
        if corners and game.pieces_left(seat, "village") > 0:
            return "village"
        if not corners and game.pieces_left(seat, "road") > 0:
            return "road"
        return None

    def _missing(self, game: Landover, seat: int, goal: str | None) -> dict[int, int]:
        hand = game.hands[seat]
        if goal is None:
            return {}
        return {k: n - hand[k] for k, n in GOALS[goal].items() if hand[k] < n}

    def _surplus(self, game: Landover, seat: int, goal: str | None, kind: int) -> int:
        need = GOALS[goal].get(kind, 0) if goal else 0
        if kind == CULTURE_COMMODITY[self._culture_target(game, seat)]:
            need += game.culture[seat][self._culture_target(game, seat)] + 1
        return game.hands[seat][kind] - need

    def _culture_target(self, game: Landover, seat: int) -> int:
        levels = game.culture[seat]
        return min(range(3), key=lambda c: (levels[c] if levels[c] < 6 else 99, c))

    # ----------------------------------------------------------------- scores

    def _threatened(self, game: Landover, seat: int) -> bool:
        """True if the barbarians are coming and this seat would be among the losers."""
        cities = game.counts[seat]["city"]
        if not cities or game.barbarians < 2:
            return False
        strength = sum(1 for v in range(game.corner_count) if game.corner_level[v] == CITY) + sum(
            1 for o in game.metro_owner if o != NOBODY
        )
        return sum(game.military) < strength or game.military[seat] <= min(game.military)

    def _score(self, game: Landover, seat: int, action: Action, goal: str | None) -> float:
        kind = action["type"]
        if kind == "end_turn":
            return 0.0
        if kind == "roll":
            return 1.0
        if kind == "build":
            piece = action["piece"]
            if piece == "city":
                return 100 + corner_value(game, action["vertex"])
            if piece == "village":
                return 90 + corner_value(game, action["vertex"])
            if piece == "wall":
                return 30.0 if game.hand_size(seat) > 7 else 5.0
            return self._route_score(game, seat, action["edge"], goal)
        if kind == "military":
            if self._threatened(game, seat):
                return 80.0
            return 10.0 if game.military[seat] < 1 and goal != "city" else -1.0
        if kind == "improve":
            if "city" in action:
                return 95 + corner_value(game, action["city"]) / 100
            return 60.0 - game.culture[seat][CULTURE_INDEX[action["culture"]]]
        if kind == "trade":
            turn, made = self._trades
            if turn == game.turns and made >= 4:
                return -1.0
            give, get = CARD_INDEX[action["give"]], CARD_INDEX[action["get"]]
            missing = self._missing(game, seat, goal)
            if get in missing and give not in missing and self._surplus(game, seat, goal, give) >= game.trade_rate(seat, give):
                return 20.0
            return -1.0
        if kind == "raid":
            if game.military[seat] < 2:
                return -1.0
            return 5.0 + self._hex_damage(game, seat, action["hex"])
        if kind == "lucky_raid":
            return self._hex_damage(game, seat, action["hex"])
        if kind == "remove_catapult":
            owner_hit = any(game.corner_owner[v] == seat for v in game.map.hex_vertices[action["hex"]])
            return 15.0 if owner_hit and game.military[seat] >= 2 else -1.0
        if kind == "play":
            return self._card_score(game, seat, action, goal)
        if kind == "take":  # after a master merchant (cards) or a spy (dev_card): the bot now sees them
            if "cards" in action:
                missing = self._missing(game, seat, goal)
                return 1.0 + sum(2 for name in action["cards"] if CARD_INDEX[name] in missing)
            return 1.0 + EAGER_CARDS.get(action["dev_card"], 0) / 10
        return -1.0

    def _hex_damage(self, game: Landover, seat: int, h: int) -> float:
        """Opponents' production hit by a catapult on ``h``, minus our own."""
        score = 0.0
        pips = PIPS.get(game.number[h] or 0, 0)
        for v in game.map.hex_vertices[h]:
            owner = game.corner_owner[v]
            if owner == NOBODY:
                continue
            weight = pips * game.corner_level[v]
            score += -2 * weight if owner == seat else weight
        return score

    def _route_score(self, game: Landover, seat: int, e: int, goal: str | None) -> float:
        setup = game.phase == "setup"
        if not setup and goal not in ("road", None) and game.free_routes == 0:
            return -1.0
        if game.counts[seat]["village"] + game.counts[seat]["city"] >= 9:
            return -1.0
        best = 0.0
        for v in game.map.edge_vertices[e]:
            if game.corner_owner[v] == NOBODY and game.far_from_villages(v) and game.corner_on_land[v]:
                best = max(best, corner_value(game, v) + 2)
            for w in game.map.vertex_neighbors[v]:
                if game.corner_on_land[w] and game.far_from_villages(w):
                    best = max(best, corner_value(game, w) / 2)
        return 10 + best if best > 0 else -1.0

    def _card_score(self, game: Landover, seat: int, action: Action, goal: str | None) -> float:
        card = action["card"]
        if card in EAGER_CARDS:
            if card == "military" and game.military[seat] >= 3:
                return -1.0
            return float(EAGER_CARDS[card])
        if card == "alchemist":
            total = action["white"] + action["red"]
            if total == 7:
                return -1.0
            gain = 0.0
            for h in game.by_number.get(total, ()):
                for v in game.map.hex_vertices[h]:
                    if game.corner_owner[v] == seat:
                        gain += game.corner_level[v]
            return 1.0 + gain - action["red"] / 10
        if card == "medicine":
            return 100 + corner_value(game, action["vertex"])
        if card == "road_building":
            return 30.0 if not game.village_corners(seat) else -1.0
        if card == "resource_monopoly":
            missing = self._missing(game, seat, goal)
            return 30.0 if CARD_INDEX[action["kind"]] in missing else 10.0
        if card == "commodity_monopoly":
            return 25.0 if CARD_INDEX[action["kind"]] == CULTURE_COMMODITY[self._culture_target(game, seat)] else 10.0
        if card == "merchant":
            return 35.0 + PIPS.get(game.number[action["hex"]] or 0, 0)
        if card == "spy":
            return 30.0
        if card == "master_merchant":
            missing = self._missing(game, seat, goal)
            return 30.0 + sum(2 for name in action.get("take", ()) if CARD_INDEX[name] in missing)  # format 3: no take yet
        if card == "deserter":
            return 30.0 if game.military[seat] < game.military_cap(seat) else -1.0
        if card == "raze":
            return 30.0 if game.military[seat] >= 2 else -1.0
        if card == "siege":
            return 10.0 + self._hex_damage(game, seat, action["hex"])
        if card == "bishop":
            return 20.0 if any(game.corner_owner[v] == seat for v in game.map.hex_vertices[action["hex"]]) else -1.0
        if card == "crane":
            c = self._culture_target(game, seat)
            return 50.0 if game.hands[seat][CULTURE_COMMODITY[c]] >= game.culture[seat][c] else -1.0
        if card == "commercial_harbor":
            give = CARD_INDEX[action["give"]]
            want = CULTURE_COMMODITY[self._culture_target(game, seat)]
            return 15.0 if CARD_INDEX[action["get"]] == want and self._surplus(game, seat, goal, give) > 0 else -1.0
        if card == "vandal":
            return 5.0
        return -1.0  # inventor, diplomat, anarchy, merchant fleet: not worth the bot's while


__all__ = ["GreedyBot", "corner_value"]
