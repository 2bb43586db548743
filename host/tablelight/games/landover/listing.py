"""The legal actions of the seat to act, from the same placement rules the checks use."""

from __future__ import annotations

from tablelight.core.game import Action
from tablelight.core.rng import Rng
from tablelight.games.landover.cards import CULTURES
from tablelight.games.landover.rules import (
    BRIDGE,
    CLAY,
    CLOTH,
    COIN,
    COMMERCE,
    CULTURE_COMMODITY,
    END_TURN,
    FIXED_PLAYS,
    IMPROVE,
    LUCKY,
    MAIN,
    MAX_CULTURE,
    MILITARY,
    ORE,
    PAPER,
    POLITICS,
    ROAD,
    ROLL,
    ROLL_CHOICES,
    SCIENCE,
    SETUP,
    TAKE,
    TRADES,
    VILLAGE,
    WHEAT,
    WOOD,
    WOOL,
    build_action,
    hex_action,
)
from tablelight.games.landover.plays import PLAY_LISTERS, LandoverPlays


class LandoverListing(LandoverPlays):
    #: The listed action :meth:`random_action` last drew from the full listing, until the next check.
    _drawn: Action | None = None

    def random_action(self, rng: Rng) -> Action:
        """A uniformly random action of the full legal listing (immutable: the listed value itself).

        The next check of this very value (immutable, so unchanged) takes it without checking it
        again, as Farlander does: the listing is made by the same placement and payment rules the
        check uses, for this very position. Anything else, an equal copy too, is checked in full.
        """
        listed = rng.choice(self.legal_actions())
        self._drawn = listed
        return listed

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
        if phase == TAKE:
            return self._take_actions()
        return []

    def _main_actions(self, seat: int) -> list[Action]:
        actions: list[Action] = [END_TURN]
        hand = self.hands[seat]
        counts = self.counts[seat]
        limits = self.limits
        free = self.free_routes > 0
        wood, clay, wool, wheat = hand[WOOD], hand[CLAY], hand[WOOL], hand[WHEAT]
        if (free or (wood and clay)) and counts["road"] < limits["road"]:
            actions += self._build_actions(seat, "road")
        if (free or (wood and wool)) and counts["bridge"] < limits["bridge"]:
            actions += self._build_actions(seat, "bridge")
        if clay and wood and wool and wheat and counts["village"] < limits["village"]:
            actions += self._build_actions(seat, "village")
        if hand[ORE] >= 3 and wheat >= 2 and counts["city"] < limits["city"]:
            actions += self._build_actions(seat, "city")
        if clay >= 2 and counts["wall"] < limits["wall"]:
            kept = self._cache.own[seat]  # an OWN_PIECES list, read without _cached (no closure each listing)
            walls = kept.get(("walls", seat))
            if walls is None:
                walls = kept[("walls", seat)] = [build_action("wall", "vertex", v) for v in self._wall_corners(seat)]
            actions += walls
        if wool and wheat and self.military[seat] < self.military_cap(seat):
            actions.append(MILITARY)
        # An improvement costs level + 1 of its commodity, which ``have > level`` says is paid (a crane
        # takes one off: _add_improvement asks the exact cost then). Written out: every listing asks.
        crane = self.crane
        science, commerce, politics = self.culture[seat]
        if (crane or hand[PAPER] > science) and science < MAX_CULTURE:
            self._add_improvement(actions, seat, SCIENCE, science)
        if (crane or hand[CLOTH] > commerce) and commerce < MAX_CULTURE:
            self._add_improvement(actions, seat, COMMERCE, commerce)
        if (crane or hand[COIN] > politics) and politics < MAX_CULTURE:
            self._add_improvement(actions, seat, POLITICS, politics)
        trade_rate = self.trade_rate
        if max(hand) >= 2:  # a trade takes 2 or more of a kind
            give = 0
            for have in hand:
                # A rate is 2 or 3: three cards always pay it, two only when the rate is 2.
                if have >= 2 and (have >= 3 or trade_rate(seat, give) == 2):
                    actions += TRADES[give]
                give += 1
        if self.lucky_raid:  # listed before the paid raids: a raid key takes the free one first
            actions += [hex_action("lucky_raid", h) for h in self._lucky_hexes()]
        if self.military[seat] >= 1:
            if not self.raided:
                actions += self._raid_plays(seat)
            actions += [hex_action("remove_catapult", h) for h in sorted(self.catapult_at)]
        held = self.dev_cards[seat]
        if held:
            for card in sorted(set(held)) if len(held) > 1 else held:
                # A card's plays: fixed, or its lister's (plays.py).
                fixed = FIXED_PLAYS.get(card)
                actions += fixed if fixed is not None else PLAY_LISTERS[card](self, seat)
        return actions

    def _add_improvement(self, actions: list[Action], seat: int, c: int, level: int) -> None:
        """List the improvement of culture ``c`` from ``level`` if paid (the crane's exact cost), with
        the cities its metro may go on when it wins one."""
        if self.crane and self.hands[seat][CULTURE_COMMODITY[c]] < self._improve_cost(level):
            return
        cities = self._metro_choices(seat, c, level + 1)
        if cities is None:
            actions.append(IMPROVE[c])
        else:
            actions += [Action({"type": "improve", "culture": CULTURES[c], "city": v}) for v in cities]

    def _build_actions(self, seat: int, piece: str) -> list[Action]:
        """The builds of ``piece`` (road, bridge, village, city) on every place the rules allow, kept
        with the seat's other lists (they read only the pieces near the seat's own)."""
        kept = self._cache.seats[seat]
        found = kept.get(("build", piece))
        if found is None:
            if piece == "road" or piece == "bridge":
                places = self._route_edges(seat, ROAD if piece == "road" else BRIDGE)
                found = [build_action(piece, "edge", e) for e in places]
            else:
                places = self._village_corners(seat) if piece == "village" else self._own_corners(seat, VILLAGE)
                found = [build_action(piece, "vertex", v) for v in places]
            kept[("build", piece)] = found
        return found
