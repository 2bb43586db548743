"""The legal actions of the seat to act, from the same placement rules the checks use."""

from __future__ import annotations

from tablelight.core.game import Action
from tablelight.games.landover.board import CARD_KINDS
from tablelight.games.landover.cards import CULTURES
from tablelight.games.landover.rules import (
    BRIDGE,
    CLAY,
    CULTURE_COMMODITY,
    END_TURN,
    IMPROVE,
    LUCKY,
    MAIN,
    MAX_CULTURE,
    MILITARY,
    ORE,
    ROAD,
    ROLL,
    ROLL_CHOICES,
    SETUP,
    TRADES,
    VILLAGE,
    WHEAT,
    WOOD,
    WOOL,
    build_action,
    hex_action,
)
from tablelight.games.landover.plays import LandoverPlays


class LandoverListing(LandoverPlays):
    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to act (immutable values: lists that depend only on the
        board are kept between calls until the board changes, and shared)."""
        phase = self.phase
        seat = self.seat
        if phase == MAIN:
            return self._main_actions(seat)
        if phase == SETUP:
            _, step = self.setup_steps[self.setup_step]
            if step == "road":
                return [build_action("road", "edge", e) for e in self._setup_roads()]
            return [build_action(step, "vertex", v) for v in self._setup_corners()]
        if phase == ROLL:
            return list(ROLL_CHOICES)
        if phase == LUCKY:
            return [hex_action("lucky_raid", h) for h in self._lucky_hexes()]
        return []

    def _main_actions(self, seat: int) -> list[Action]:
        actions: list[Action] = [END_TURN]
        hand = self.hands[seat]
        counts = self.counts[seat]
        free = self.free_routes > 0
        cached = self._cached
        if (free or (hand[WOOD] and hand[CLAY])) and counts["road"] < self.limits["road"]:
            actions += cached(
                ("road_actions", seat),
                lambda: [build_action("road", "edge", e) for e in self._route_edges(seat, ROAD)],
            )
        if (free or (hand[WOOD] and hand[WOOL])) and counts["bridge"] < self.limits["bridge"]:
            actions += cached(
                ("bridge_actions", seat),
                lambda: [build_action("bridge", "edge", e) for e in self._route_edges(seat, BRIDGE)],
            )
        if hand[CLAY] and hand[WOOD] and hand[WOOL] and hand[WHEAT] and counts["village"] < self.limits["village"]:
            actions += cached(
                ("village_actions", seat),
                lambda: [build_action("village", "vertex", v) for v in self._village_corners(seat)],
            )
        if hand[ORE] >= 3 and hand[WHEAT] >= 2 and counts["city"] < self.limits["city"]:
            actions += cached(
                ("city_actions", seat),
                lambda: [build_action("city", "vertex", v) for v in self._own_corners(seat, VILLAGE)],
            )
        if hand[CLAY] >= 2 and counts["wall"] < self.limits["wall"]:
            actions += [build_action("wall", "vertex", v) for v in self._wall_corners(seat)]
        if hand[WOOL] and hand[WHEAT] and self.military[seat] < self.military_cap(seat):
            actions.append(MILITARY)
        crane = self.crane
        for c in range(3):
            level = self.culture[seat][c]
            have = hand[CULTURE_COMMODITY[c]]
            if level < MAX_CULTURE and (have > level or crane) and have >= self._improve_cost(level):
                cities = self._metro_choices(seat, c, level + 1)
                if cities is None:
                    actions.append(IMPROVE[c])
                else:
                    actions += [Action({"type": "improve", "culture": CULTURES[c], "city": v}) for v in cities]
        for give in range(CARD_KINDS):
            if hand[give] >= 2 and hand[give] >= self.trade_rate(seat, give):
                actions += TRADES[give]
        if self.lucky_raid:  # listed before the paid raids: a raid key takes the free one first
            actions += [hex_action("lucky_raid", h) for h in self._lucky_hexes()]
        if self.military[seat] >= 1:
            if not self.raided:
                actions += cached(
                    ("raid_actions", seat, self._catapult_version),
                    lambda: [hex_action("raid", h) for h in self._raid_hexes(seat)],
                )
            actions += [hex_action("remove_catapult", h) for h in sorted(self.catapult_at)]
        if self.dev_cards[seat]:
            for card in sorted(set(self.dev_cards[seat])):
                actions += self._card_plays(seat, card)
        return actions
