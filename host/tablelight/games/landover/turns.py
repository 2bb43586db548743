"""Carrying out a checked action, and the turn order: setup steps, the automatic roll, the turn cap."""

from __future__ import annotations

from tablelight.core.game import Action
from tablelight.games.landover.rules import (
    BRIDGE,
    CARD_INDEX,
    CITY,
    COSTS,
    CULTURE_COMMODITY,
    CULTURE_INDEX,
    MAIN,
    MAX_CULTURE,
    OVER,
    ROAD,
    ROLL,
    SETUP,
    VILLAGE,
    WHEAT,
    WOOL,
)
from tablelight.games.landover.checking import LandoverChecking


#: Actions that change no seat's points. From record format 2 on the seat's points were checked
#: after the roll and after each of its actions, so these need no new check (format 1 checked after
#: every action, and a point from the roll was only seen then).
POINTLESS_ACTIONS = frozenset(("trade", "military", "raid", "lucky_raid", "remove_catapult", "take"))
#: Card plays that change no seat's points either (not the raze: its victim loses a point; the
#: vandal and diplomat move titles; the merchant, medicine and alchemist give points).
POINTLESS_PLAYS = frozenset((
    "crane", "irrigation", "mining", "road_building", "famine", "wedding", "anarchy", "inventor",
    "merchant_fleet", "resource_monopoly", "commodity_monopoly", "commercial_harbor", "military",
    "siege", "bishop", "deserter", "spy", "master_merchant",
))


class LandoverTurns(LandoverChecking):
    def _perform(self, action: Action) -> None:
        seat = self.seat
        kind = action["type"]
        pointless = kind in POINTLESS_ACTIONS or (kind == "play" and action["card"] in POINTLESS_PLAYS)
        if not pointless:
            self.points_version += 1
        if self.phase == SETUP:
            self._perform_setup(seat, action)
            return
        hand = self.hands[seat]
        if kind == "end_turn":
            self._end_turn()
            return
        if kind == "roll":
            self._roll(None)
        elif kind == "build":
            self._perform_build(seat, action)
        elif kind == "military":
            hand[WOOL] -= 1
            hand[WHEAT] -= 1
            self.military[seat] += 1
        elif kind == "improve":
            self._perform_improve(seat, action)
        elif kind == "trade":
            give, get = CARD_INDEX[action["give"]], CARD_INDEX[action["get"]]
            hand[give] -= self.trade_rate(seat, give)
            hand[get] += 1
        elif kind == "raid":
            self.military[seat] -= 1
            self._raid(seat, action["hex"])
        elif kind == "lucky_raid":
            self._place_catapult(seat, action["hex"])
            self._steal_from_settlers(seat, action["hex"])
            self.phase = MAIN
            self.lucky_raid = False
        elif kind == "remove_catapult":
            self.military[seat] -= 1
            self._remove_catapult(action["hex"])
        elif kind == "take":
            self._perform_take(seat, action)
        else:
            self._play_card(seat, action)
        if not pointless or self.record_format < 2:
            self._check_win(seat)

    def _perform_setup(self, seat: int, action: Action) -> None:
        piece = action["piece"]
        if piece == "road":
            self._put_edge(seat, action["edge"], ROAD)
        else:
            v = action["vertex"]
            self._put_settlement(seat, v, VILLAGE if piece == "village" else CITY, setup=True)
            self.setup_vertex = v
            if piece == "city":
                self._city_resources(seat, v)
        self.setup_step += 1
        if self.setup_step < len(self.setup_steps):
            self.seat = self.setup_steps[self.setup_step][0]
            return
        self.turn_index = 0
        self.seat = self.order[0]
        self._start_turn()

    def _perform_build(self, seat: int, action: Action) -> None:
        piece = action["piece"]
        hand = self.hands[seat]
        if piece in ("road", "bridge"):
            if self.free_routes > 0:
                self.free_routes -= 1
            else:
                for kind, n in COSTS[piece]:
                    hand[kind] -= n
            self._put_edge(seat, action["edge"], ROAD if piece == "road" else BRIDGE)
            return
        for kind, n in COSTS[piece]:
            hand[kind] -= n
        v = action["vertex"]
        if piece == "village":
            self._put_settlement(seat, v, VILLAGE)
        elif piece == "city":
            self._upgrade(seat, v)
        else:
            self._cache.own[seat].pop(("walls", seat), None)  # the only kept list that reads walls
            self.corner_wall[v] = True
            self.counts[seat]["wall"] += 1

    def _perform_improve(self, seat: int, action: Action) -> None:
        c = CULTURE_INDEX[action["culture"]]
        level = self.culture[seat][c]
        self.hands[seat][CULTURE_COMMODITY[c]] -= self._improve_cost(level)
        self.crane = False
        level += 1
        self.culture[seat][c] = level
        if "city" in action:
            v = action["city"]
            for u in range(self.corner_count):
                if self.corner_metro[u] == c:
                    self.corner_metro[u] = -1
            self.corner_metro[v] = c
            self.metro_owner[c] = seat  # no kept list reads metros
        if level == MAX_CULTURE and self.metro_owner[c] == seat:
            self.metro_locked[c] = True

    def _end_turn(self) -> None:
        self.raided = False
        self.crane = False
        if self.fleet:
            self.fleet = set()
        self.free_routes = 0
        self.lucky_raid = False
        self.turns += 1
        if self.turns >= self.options["turn_cap"]:
            self.capped = True
            self.phase = OVER
            return
        self.turn_index = (self.turn_index + 1) % self.players
        self.seat = self.order[self.turn_index]
        self._start_turn()

    def _start_turn(self) -> None:
        seat = self.seat
        if self._check_win(seat):
            return
        if "alchemist" in self.dev_cards[seat]:
            self.phase = ROLL
            return
        # A roll gives points only as a defender point or a VP card (it takes some away by
        # reducing a city): the seat's points were below the target just now.
        gained = self.defender[seat] + self.vp_cards[seat]
        self._roll(None)
        if self.record_format >= 2 and self.defender[seat] + self.vp_cards[seat] > gained:
            self._check_win(seat)  # points from the roll itself
