"""Checking an action: its fields, its phase, its cost and its place; returns the normal form."""

from __future__ import annotations

from tablelight.core.fields import is_whole_in
from tablelight.core.errors import MalformedActionError
from tablelight.core.game import Action
from tablelight.games.landover.hexmap import CARDS
from tablelight.games.landover.cards import CULTURES, card_culture, vp_cards
from tablelight.games.landover.rules import (
    ACTION_TYPES,
    ALLOWED_ACTIONS,
    BRIDGE,
    CARD_INDEX,
    CITY,
    COSTS,
    CULTURE_COMMODITY,
    CULTURE_INDEX,
    MAIN,
    MAX_CULTURE,
    ROAD,
    ROLL,
    SETUP,
    TAKE,
    TRADES,
    VILLAGE,
    build_action,
    hex_action,
)
from tablelight.games.landover.listing import LandoverListing


class LandoverChecking(LandoverListing):
    def _check(self, action: Action) -> Action:
        drawn = self._drawn
        if drawn is not None:
            # One check consumes the drawn action, whatever it is: the position may change next.
            self._drawn = None
            if action is drawn:
                return drawn  # immutable: the listed value is the normal form
        kind = action.get("type")
        phase = self.phase
        seat = self.seat
        allowed = ALLOWED_ACTIONS[phase]
        if not isinstance(kind, str) or kind not in ACTION_TYPES:
            raise MalformedActionError(
                "landover.action.unknown_type", f"unknown action type {kind!r}; now allowed: {', '.join(allowed)}"
            )
        if kind not in allowed:
            raise self._rule("landover.action.wrong_phase", f"{kind!r} is not allowed now ({phase}); allowed: {', '.join(allowed)}")
        if phase == SETUP:
            return self._check_setup(action)
        if phase == TAKE:
            return self._check_take(action)
        if kind == "end_turn" or kind == "roll" or kind == "military":
            self._fields(action, ())
            if kind == "military":
                self._check_military(seat)
            return action  # {"type": kind} and nothing else: already its normal form
        if kind == "build":
            return self._check_build(seat, action)
        if kind == "improve":
            return self._check_improve(seat, action)
        if kind == "trade":
            self._fields(action, ("give", "get"))
            give = CARD_INDEX[self._field_choice(action, "give", CARDS)]
            get = CARD_INDEX[self._field_choice(action, "get", CARDS)]
            if give == get:
                raise self._rule("landover.trade.same_kind", "give and get must be different cards")
            rate = self.trade_rate(seat, give)
            if self.hands[seat][give] < rate:
                raise self._rule(
                    "landover.trade.not_enough", f"trading {CARDS[give]} takes {rate}; you have {self.hands[seat][give]}"
                )
            return TRADES[give][get - (get > give)]
        if kind == "raid" or kind == "lucky_raid" or kind == "remove_catapult":
            self._fields(action, ("hex",))
            h = self._field_int(action, "hex", self.hex_count, "hex")
            if kind == "raid":
                self._check_raid(seat, h, free=False)
            elif kind == "lucky_raid":
                if phase == MAIN and not self.lucky_raid:
                    raise self._rule("landover.raid.no_lucky_raid", "a lucky 7 raid needs a 7 rolled this turn by the player alone in last place")
                if h not in self._lucky_hexes():
                    raise self._rule("landover.raid.not_a_target", f"hex {h} is water, unexplored or has a catapult")
            else:
                if self.military[seat] < 1:
                    raise self._rule("landover.military.none", "removing a catapult costs 1 military power; you have 0")
                if h not in self.catapult_at:
                    raise self._rule("landover.catapult.none_there", f"hex {h} has no catapult")
            return hex_action(kind, h)
        return self._check_card(seat, action)

    def _check_setup(self, action: Action) -> Action:
        seat, step = self.setup_steps[self.setup_step]
        piece = action.get("piece")
        if piece != step:
            raise self._rule("landover.setup.order", f"seat {seat} places a {step} now, not {piece!r}")
        if step == "road":
            self._fields(action, ("piece", "edge"))
            e = self._field_int(action, "edge", self.side_count, "side")
            if e not in self._setup_roads():
                raise self._rule(
                    "landover.setup.road", f"the setup road goes on a free land or coast side of the corner just settled ({self.setup_vertex})"
                )
            return build_action("road", "edge", e)
        self._fields(action, ("piece", "vertex"))
        v = self._field_int(action, "vertex", self.corner_count, "corner")
        if not self.starting_corner[v]:
            raise self._rule("landover.setup.not_starting_corner", f"corner {v} is not a starting corner (land, no mystery hex)")
        if not self._distance_ok(v):
            raise self._rule("landover.build.distance", f"corner {v} is taken or next to a village or city (distance rule)")
        return build_action(step, "vertex", v)

    def _check_build(self, seat: int, action: Action) -> Action:
        piece = self._field_choice(action, "piece", ("road", "bridge", "village", "city", "wall"))
        if self.counts[seat][piece] >= self.limits[piece]:
            raise self._rule("landover.build.no_pieces", f"you have all {self.limits[piece]} {piece}s on the board")
        if piece in ("road", "bridge"):
            self._fields(action, ("piece", "edge"))
            e = self._field_int(action, "edge", self.side_count, "side")
            if self.free_routes <= 0:
                self._pay_problem(seat, COSTS[piece], f"a {piece}")
            problem = self._edge_problem(seat, e, ROAD if piece == "road" else BRIDGE)
            if problem:
                raise self._rule(*problem)
            return build_action(piece, "edge", e)
        self._fields(action, ("piece", "vertex"))
        v = self._field_int(action, "vertex", self.corner_count, "corner")
        self._pay_problem(seat, COSTS[piece], f"a {piece}")
        if piece == "village":
            problem = self._village_problem(seat, v)
            if problem:
                raise self._rule(*problem)
        elif piece == "city":
            if self.corner_owner[v] != seat or self.corner_level[v] != VILLAGE:
                raise self._rule("landover.build.city_needs_village", f"a city replaces one of your villages; corner {v} has none")
        else:
            if self.corner_owner[v] != seat or self.corner_level[v] != CITY:
                raise self._rule("landover.build.wall_needs_city", f"a city wall goes on one of your cities; corner {v} has none")
            if self.corner_wall[v]:
                raise self._rule("landover.build.wall_taken", f"the city on corner {v} already has a wall")
        return build_action(piece, "vertex", v)

    def _check_improve(self, seat: int, action: Action) -> Action:
        c = CULTURE_INDEX[self._field_choice(action, "culture", CULTURES)]
        level = self.culture[seat][c]
        if level >= MAX_CULTURE:
            raise self._rule("landover.culture.max", f"{CULTURES[c]} is already at level {MAX_CULTURE}")
        cost = self._improve_cost(level)
        commodity = CULTURE_COMMODITY[c]
        if self.hands[seat][commodity] < cost:
            raise self._rule(
                "landover.cost.cannot_afford",
                f"{CULTURES[c]} level {level + 1} costs {cost} {CARDS[commodity]}; you have {self.hands[seat][commodity]}",
            )
        cities = self._metro_choices(seat, c, level + 1)
        if cities is None:
            self._fields(action, ("culture",))
            return Action({"type": "improve", "culture": CULTURES[c]})
        self._fields(action, ("culture", "city"))
        if not cities:
            raise self._rule("landover.culture.metro_needs_city", "this level wins a metro: you need a city without a metro for it")
        v = self._field_int(action, "city", self.corner_count, "corner")
        if v not in cities:
            raise self._rule("landover.culture.metro_city", f"the metro goes on one of your cities without a metro: {cities}")
        return Action({"type": "improve", "culture": CULTURES[c], "city": v})

    def _check_card(self, seat: int, action: Action) -> Action:
        card = action.get("card")
        if not isinstance(card, str) or card not in card_culture() or card in vp_cards():
            raise MalformedActionError("landover.card.unknown", f"unknown development card {card!r}")
        if card not in self.dev_cards[seat]:
            raise self._rule("landover.card.not_held", f"you do not hold {card!r}")
        if self.phase == ROLL and card != "alchemist":
            raise self._rule("landover.card.before_roll", "before the roll only the alchemist may be played (or roll)")
        if card == "alchemist":
            if self.phase != ROLL:
                raise self._rule("landover.card.alchemist_timing", "the alchemist is played before the roll")
            self._fields(action, ("card", "white", "red"))
            dice = []
            for key in ("white", "red"):
                value = action.get(key)
                if not is_whole_in(value, 1, 6):
                    raise MalformedActionError("landover.card.die", f"{key} must be 1-6, got {value!r}")
                dice.append(value)
            return Action({"type": "play", "card": card, "white": dice[0], "red": dice[1]})
        normal = self._check_card_play(seat, card, action)
        return normal
