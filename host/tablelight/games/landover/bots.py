"""Landover bots: a greedy bot that scores each legal action with simple, readable heuristics.

The greedy bot builds cities and villages on the richest corners (by the chance
of their numbers, a new island and a third harbor counting extra), grows culture,
raises military power before the barbarian ship arrives whenever the cities on
the board out-number the players' military (trading for it when the ship is
close), trades only towards what it is saving for, plays every development card
when it pays (the merchant fleet when it has a surplus to trade, the inventor
and anarchy when they move better numbers onto its corners, the diplomat to
reach a free corner), explores towards mystery hexes, and ends its turn when
nothing scores above zero.
"""

from __future__ import annotations

from typing import Any

from tablelight.core.game import Action
from tablelight.core.rng import Rng
from tablelight.games.landover.cards import CULTURES
from tablelight.games.landover.engine import Landover
from tablelight.games.landover.hexmap import CARDS
from tablelight.games.landover.rules import (
    BARBARIAN_TRACK,
    CARD_INDEX,
    CLAY,
    COSTS,
    CULTURE_COMMODITY,
    ORE,
    PORT_MIN,
    WHEAT,
    WOOD,
    WOOL,
)

#: A settlement's weight in production: a village 1, a city 2.
LEVELS = {None: 0, "village": 1, "city": 2}
#: Dots under a number token: how many of the 36 rolls of two dice make it.
PIPS = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}
GOALS: dict[str, dict[int, int]] = {
    "city": {ORE: 3, WHEAT: 2},
    "village": {CLAY: 1, WOOD: 1, WOOL: 1, WHEAT: 1},
    "road": {WOOD: 1, CLAY: 1},
    "military": {WOOL: 1, WHEAT: 1},
}
#: Ships still to come on the barbarian track when the bot starts saving (trading) for military power.
SHIP_CLOSE = 4
#: Extra value of a corner that settles an island not yet the seat's (a victory point for exploring).
NEW_ISLAND = 4.0
#: Extra value of a road or bridge that reveals a mystery hex.
MYSTERY = 3.0
#: Cards the bot plays whenever it may, with a base score.
EAGER_CARDS = {"irrigation": 40, "mining": 40, "military": 45, "wedding": 35, "famine": 25}


def corner_value(game: Landover, v: int) -> float:
    """How much a settlement on corner ``v`` is likely to produce (pips, gold counting 1.5 times)."""
    value = 0.0
    kinds = set()
    for h in game.map.vertex_hexes[v]:
        number = game.number(h)
        terrain = game.terrain(h)
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
        # ((map, unrevealed mystery hexes), corner -> distance to them): one breadth-first search per change
        self._mystery_cache: tuple[Any, dict[int, int]] = (None, {})

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
        """What the bot is saving for now: military power first when the ship is close and would win."""
        if self._military_needed(game, seat) and self._ships_left(game) <= SHIP_CLOSE:
            return "military"
        if game.piece_count(seat, "village") and game.pieces_left(seat, "city") > 0:
            return "city"
        corners = game.village_corners(seat)
        if corners and game.pieces_left(seat, "village") > 0:
            return "village"
        if not corners and game.pieces_left(seat, "road") > 0:
            return "road"
        return None

    def _missing(self, game: Landover, seat: int, goal: str | None) -> dict[int, int]:
        hand = list(game.hand(seat).values())  # by card index
        if goal is None:
            return {}
        return {k: n - hand[k] for k, n in GOALS[goal].items() if hand[k] < n}

    def _surplus(self, game: Landover, seat: int, goal: str | None, kind: int) -> int:
        need = GOALS[goal].get(kind, 0) if goal else 0
        if kind == CULTURE_COMMODITY[self._culture_target(game, seat)]:
            need += list(game.culture(seat).values())[self._culture_target(game, seat)] + 1
        return game.hand(seat)[CARDS[kind]] - need

    def _culture_target(self, game: Landover, seat: int) -> int:
        levels = list(game.culture(seat).values())
        return min(range(3), key=lambda c: (levels[c] if levels[c] < 6 else 99, c))

    # ----------------------------------------------------------------- scores

    @staticmethod
    def _ships_left(game: Landover) -> int:
        """Barbarian ship faces still to come before the next attack."""
        return BARBARIAN_TRACK - game.barbarians + game.barbarian_delay

    @staticmethod
    def _military_needed(game: Landover, seat: int, spent: int = 0) -> bool:
        """Should this seat (holding a city) raise its military power before the next attack?

        The attack's strength is every city and metro on the board; the defence, every seat's
        military power together; a lost attack reduces a city of the weakest seats. So a seat
        keeps its own share, a military power per city and metro it holds, and more while the
        defence does not exceed the strength (others may build a city meanwhile), up to its cap.
        ``spent``: as if the seat had ``spent`` military power less (a raid's cost).
        """
        cities = game.piece_count(seat, "city")
        power = game.military(seat) - spent
        if not cities or power >= game.military_cap(seat):
            return False
        metros = sum(1 for c in CULTURES if game.metro_holder(c) is not None)
        if power < cities + sum(1 for c in CULTURES if game.metro_holder(c) == seat):
            return True
        seats = range(game.players)
        return sum(game.military(s) for s in seats) - spent <= sum(game.piece_count(s, "city") for s in seats) + metros

    def _spare_military(self, game: Landover, seat: int) -> bool:
        """May the bot spend a military power (a raid, a catapult's removal, a raze) and still hold its defence?"""
        return game.military(seat) >= 2 and not self._military_needed(game, seat, spent=1)

    def _military_score(self, game: Landover, seat: int) -> float:
        if self._military_needed(game, seat):
            # Above a village always, above any city when the ship is close.
            return 140.0 - 5 * min(self._ships_left(game), BARBARIAN_TRACK)
        military = [game.military(s) for s in range(game.players)]
        if military[seat] < game.military_cap(seat) and military[seat] == max(military) and military.count(military[seat]) > 1:
            return 12.0  # a defended attack gives the one strongest seat a victory point
        return 10.0 if military[seat] < 1 else -1.0

    def _score(self, game: Landover, seat: int, action: Action, goal: str | None) -> float:
        kind = action["type"]
        if kind == "end_turn":
            return 0.0
        if kind == "roll":
            # Roll and keep the alchemist unless choosing the dice gains two cards more than chance gives.
            return 3.0 + sum(self._production(game, seat, w + r) for w in range(1, 7) for r in range(1, 7) if w + r != 7) / 36
        if kind == "build":
            piece = action["piece"]
            if piece == "city":
                return 100 + corner_value(game, action["vertex"])
            if piece == "village":
                return 90 + self._corner(game, seat, action["vertex"])
            if piece == "wall":
                return 30.0 if game.hand_size(seat) > 7 else 5.0
            return self._route_score(game, seat, action["edge"], goal, piece)
        if kind == "military":
            return self._military_score(game, seat)
        if kind == "improve":
            if "city" in action:
                return 95 + corner_value(game, action["city"]) / 100
            return 60.0 - game.culture(seat)[action["culture"]]
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
            if not self._spare_military(game, seat):
                return -1.0
            return 5.0 + self._hex_damage(game, seat, action["hex"])
        if kind == "lucky_raid":
            return self._hex_damage(game, seat, action["hex"])
        if kind == "remove_catapult":
            owner_hit = any(game.corner_owner(v) == seat for v in game.map.hex_vertices[action["hex"]])
            return 15.0 if owner_hit and self._spare_military(game, seat) else -1.0
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
        pips = PIPS.get(game.number(h) or 0, 0)
        for v in game.map.hex_vertices[h]:
            owner = game.corner_owner(v)
            if owner is None:
                continue
            weight = pips * LEVELS[game.corner_piece(v)]
            score += -2 * weight if owner == seat else weight
        return score

    def _route_score(self, game: Landover, seat: int, e: int, goal: str | None, piece: str) -> float:
        setup = game.phase == "setup"
        if game.piece_count(seat, "village") + game.piece_count(seat, "city") >= 9:
            return -1.0
        best = 0.0
        for v in game.map.edge_vertices[e]:
            if game.corner_owner(v) is None and game.far_from_villages(v) and game.corner_on_land(v):
                best = max(best, self._corner(game, seat, v) + 2)
            for w in game.map.vertex_neighbors[v]:
                if game.corner_on_land(w) and game.far_from_villages(w):
                    best = max(best, self._corner(game, seat, w) / 2)
        mystery = MYSTERY if any(game.terrain(h) == "mystery" for v in game.map.edge_vertices[e]
                                 for h in game.map.vertex_hexes[v]) else 0.0
        closer = 0.0 if setup else self._towards_unknown(game, seat, e)
        if not setup and goal not in ("road", None) and game.free_routes == 0:
            # Saving for something else: build only to explore (a mystery hex, a new island), from spare cards.
            spare = all(self._surplus(game, seat, goal, kind) >= n for kind, n in COSTS[piece])
            exploring = mystery > 0 or best >= NEW_ISLAND + 2 or closer > 0
            if not (spare and exploring):
                return -1.0
        value = best + mystery + closer
        return 10 + value if value > 0 else -1.0

    def _towards_unknown(self, game: Landover, seat: int, e: int) -> float:
        """1 when side ``e`` brings the seat's network one step nearer an unrevealed mystery hex, else 0."""
        distance = self._mystery_distance(game)
        if not distance:
            return 0.0
        mine = [v for f in game.route_sides(seat) for v in game.map.edge_vertices[f]] + list(game.settlement_corners(seat))
        now = min((distance.get(v, 99) for v in mine), default=99)
        return 1.0 if min(distance.get(v, 99) for v in game.map.edge_vertices[e]) < now else 0.0

    def _mystery_distance(self, game: Landover) -> dict[int, int]:
        """Corner -> how many sides from the nearest corner of an unrevealed mystery hex (kept while they stay)."""
        hidden = tuple(h for h in range(game.hex_count) if game.terrain(h) == "mystery")
        if self._mystery_cache[0] != (id(game.map), hidden):
            frontier = [v for h in hidden for v in game.map.hex_vertices[h]]
            distance = dict.fromkeys(frontier, 0)
            while frontier:
                step = []
                for v in frontier:
                    for w in game.map.vertex_neighbors[v]:
                        if w not in distance:
                            distance[w] = distance[v] + 1
                            step.append(w)
                frontier = step
            self._mystery_cache = ((id(game.map), hidden), distance)
        return self._mystery_cache[1]

    def _corner(self, game: Landover, seat: int, v: int) -> float:
        """:func:`corner_value`, plus the points a settlement there brings: a new island, a harbor towards the port authority."""
        value = corner_value(game, v)
        if game.phase == "setup":
            return value
        islands = {game.map.hex_island[h] for h in game.map.vertex_hexes[v] if game.map.hex_island[h] >= 0}
        home, explored = game.settled_islands(seat)
        if islands - home - explored:
            value += NEW_ISLAND
        harbor = game.map.vertex_harbor[v]
        touched = {game.map.vertex_harbor[w] for w in game.settlement_corners(seat)}
        if harbor >= 0 and harbor not in touched and game.port_holder() != seat:
            value += 2 + 2 * min(game.ports(seat)[0], PORT_MIN - 1)
        return value

    def _card_score(self, game: Landover, seat: int, action: Action, goal: str | None) -> float:
        card = action["card"]
        if card in EAGER_CARDS:
            if card == "military" and game.military(seat) >= game.military_cap(seat):
                return -1.0
            return float(EAGER_CARDS[card])
        if card == "alchemist":
            total = action["white"] + action["red"]
            if total == 7:
                return -1.0
            return 1.0 + self._production(game, seat, total) - action["red"] / 10
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
            return 35.0 + PIPS.get(game.number(action["hex"]) or 0, 0)
        if card == "spy":
            return 30.0
        if card == "master_merchant":
            missing = self._missing(game, seat, goal)
            return 30.0 + sum(2 for name in action.get("take", ()) if CARD_INDEX[name] in missing)  # format 3: no take yet
        if card == "deserter":
            return 30.0 if game.military(seat) < game.military_cap(seat) else -1.0
        if card == "raze":
            return 30.0 if self._spare_military(game, seat) else -1.0
        if card == "siege":
            return 10.0 + self._hex_damage(game, seat, action["hex"])
        if card == "bishop":
            return 20.0 if any(game.corner_owner(v) == seat for v in game.map.hex_vertices[action["hex"]]) else -1.0
        if card == "crane":
            c = self._culture_target(game, seat)
            return 50.0 if game.hand(seat)[CARDS[CULTURE_COMMODITY[c]]] >= list(game.culture(seat).values())[c] else -1.0
        if card == "commercial_harbor":
            give = CARD_INDEX[action["give"]]
            want = CULTURE_COMMODITY[self._culture_target(game, seat)]
            return 15.0 if CARD_INDEX[action["get"]] == want and self._surplus(game, seat, goal, give) > 0 else -1.0
        if card == "vandal":
            return 5.0
        if card == "merchant_fleet":
            return self._fleet_score(game, seat, CARD_INDEX[action["kind"]], goal)
        if card == "inventor":
            a, b = action["hexes"]
            return 20.0 + self._swap_gain(game, seat, a, b) if self._swap_gain(game, seat, a, b) >= 2 else -1.0
        if card == "anarchy":
            return 20.0 if self._anarchy_gain(game, seat) >= 2 else -1.0
        if card == "diplomat":
            if game.village_corners(seat) or game.pieces_left(seat, "village") == 0:
                return -1.0
            reach = self._reach(game, action["to"])
            return 25.0 + reach if reach > 0 else -1.0
        return -1.0

    @staticmethod
    def _production(game: Landover, seat: int, total: int) -> int:
        """Cards this seat's villages and cities take when ``total`` is rolled."""
        gain = 0
        for h in game.hexes_numbered(total):
            for v in game.map.hex_vertices[h]:
                if game.corner_owner(v) == seat:
                    gain += LEVELS[game.corner_piece(v)]
        return gain

    def _fleet_score(self, game: Landover, seat: int, kind: int, goal: str | None) -> float:
        """A 2:1 rate for ``kind`` this turn pays when the bot holds two spare cards of it and lacks something."""
        if game.trade_rate(seat, kind) <= 2 or not self._missing(game, seat, goal):
            return -1.0
        spare = self._surplus(game, seat, goal, kind)
        return 20.0 + spare if spare >= 2 else -1.0

    def _weight(self, game: Landover, seat: int, h: int) -> float:
        """How much a number on hex ``h`` pays this seat: its own corners, less half of the others'."""
        weight = 0.0
        for v in game.map.hex_vertices[h]:
            owner = game.corner_owner(v)
            if owner is not None:
                weight += LEVELS[game.corner_piece(v)] * (1.0 if owner == seat else -0.5)
        return weight

    def _swap_gain(self, game: Landover, seat: int, a: int, b: int) -> float:
        """Pips gained by swapping the numbers of hexes ``a`` and ``b`` (the inventor)."""
        pips_a, pips_b = PIPS.get(game.number(a) or 0, 0), PIPS.get(game.number(b) or 0, 0)
        return (self._weight(game, seat, a) - self._weight(game, seat, b)) * (pips_b - pips_a)

    def _anarchy_gain(self, game: Landover, seat: int) -> float:
        """Pips this seat expects to gain by shuffling every number (the mean number on each of its hexes)."""
        numbered = [h for h in range(game.hex_count) if game.number(h) is not None and game.terrain(h) not in ("water", "mystery")]
        if not numbered or game.numbers_before_anarchy() is not None:
            return 0.0
        mean = sum(PIPS.get(game.number(h) or 0, 0) for h in numbered) / len(numbered)
        return sum(self._weight(game, seat, h) * (mean - PIPS.get(game.number(h) or 0, 0)) for h in numbered)

    def _reach(self, game: Landover, e: int) -> float:
        """The best free corner a road or bridge on side ``e`` opens (0: none)."""
        best = 0.0
        for v in game.map.edge_vertices[e]:
            if game.corner_owner(v) is None and game.far_from_villages(v) and game.corner_on_land(v):
                best = max(best, self._corner(game, game.seat, v) + 2)
        return best


__all__ = ["GreedyBot", "corner_value"]
