"""Victory points, hand limits, trade rates and the win check."""

from __future__ import annotations

from tablelight.games.landover.hexmap import RESOURCE_KINDS, TERRAIN_RESOURCE
from tablelight.games.landover.cards import vp_cards
from tablelight.games.landover.rules import (
    BASE_SAFE_HAND,
    COMMERCE,
    MILITARY_CAP,
    OVER,
    POLITICS,
)
from tablelight.games.landover.kept import LandoverKeptLists


class LandoverScoring(LandoverKeptLists):
    def current_seat(self) -> int | None:
        return None if self.phase == OVER else self.seat

    def is_over(self) -> bool:
        return self.phase == OVER

    def winners(self) -> list[int]:
        return list(self._winners) if self.phase == OVER else []

    def vp_breakdown(self, seat: int) -> dict[str, int]:
        c = self.counts[seat]
        metros = sum(1 for owner in self.metro_owner if owner == seat)
        explored = len(self.explored[seat])
        if not self.options["explorer_each_island"]:
            explored = min(explored, 1)
        return {
            "villages": c["village"],
            "cities": 2 * c["city"],
            "metros": 2 * metros,
            "longest_route": 2 if self.route_holder == seat else 0,
            "port_authority": 2 if self.port_holder == seat else 0,
            "island_explored": explored,
            "merchant": 1 if self.merchant_owner == seat else 0,
            "vp_cards": self.vp_cards[seat],
            "defender": self.defender[seat],
        }

    def vp(self, seat: int) -> int:
        c = self.counts[seat]
        points = c["village"] + 2 * c["city"] + self.vp_cards[seat] + self.defender[seat]
        explored = self.explored[seat]
        if explored:
            points += len(explored) if self.options["explorer_each_island"] else 1
        if seat in self.metro_owner:
            points += 2 * self.metro_owner.count(seat)
        if self.route_holder == seat:
            points += 2
        if self.port_holder == seat:
            points += 2
        if self.merchant_owner == seat:
            points += 1
        return points

    def scores(self) -> list[int]:
        return [self.vp(s) for s in range(self.players)]

    def _kept_scores(self) -> list[int]:
        """:meth:`scores`, kept until an action that can change points (``points_version``)."""
        kept = self._scores_at_version
        if kept is None or kept[0] != self.points_version:
            kept = self._scores_at_version = (self.points_version, self.scores())
        return kept[1]

    def hand_size(self, seat: int) -> int:
        return sum(self.hands[seat])

    def safe_hand(self, seat: int) -> int:
        return BASE_SAFE_HAND + 2 * self.counts[seat]["wall"]

    def military_cap(self, seat: int) -> int:
        return 10**6 if self.culture[seat][POLITICS] >= 3 else MILITARY_CAP

    def trade_rate(self, seat: int, kind: int) -> int:
        """How many cards of ``kind`` buy one card: 3, or 2 by harbor, merchant, bank or fleet."""
        if kind in self.fleet and seat == self.seat:
            return 2
        if kind < RESOURCE_KINDS:  # harbors and the merchant trade resources
            if kind in self.harbor_kinds[seat]:
                return 2
            if self.merchant_owner == seat and TERRAIN_RESOURCE.get(self.terrain[self.merchant_hex]) == kind:
                return 2
        elif self.culture[seat][COMMERCE] >= 3:
            return 2
        return 3

    def _check_win(self, seat: int) -> bool:
        if self.phase != OVER and self.vp(seat) >= self.options["target"]:
            self._winners = [seat]
            self.phase = OVER
            return True
        return False
